"""Chemin de fer over the HTTP API: two players at one table, the bank put up and met
with banco, each seeing only their own cards, the coup paid as the engine pays its
moves, the page's ``since`` answered ``unchanged``, a retried move taken once, a key sent
with another request refused (409), refusals with nothing changed, a table that is not
here answered 404 with its code, recall, and the ledger whole. The server keeps time by
a manual clock (the decision clock's own tests: test_server_chemin_socket.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dbfixtures import STAFF_PASSWORD, casino, sign_up
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from pelisali.engine import GAMES, Seats
from pelisali.platform.chemin_tables import create_chemin_table
from pelisali.platform.db import transaction
from pelisali.platform.ledger import balance, check, verify_audit
from pelisali.platform.models import RoundRow
from pelisali.platform.rounds import open_rng_table, reconcile_bets
from pelisali.rng import SeededRng
from pelisali.server.app import create_app
from pelisali.server.clock import ManualClock

START = 1_767_614_400.0  # 2026-01-05 12:00 UTC on the server's clock


@pytest.fixture
def db(tmp_path: Path) -> Engine:
    engine = casino(tmp_path)
    with transaction(engine) as s:
        create_chemin_table(s, "cf")
    return engine


@pytest.fixture
def players(db: Engine) -> Iterator[tuple[TestClient, TestClient]]:
    app = create_app(db, rng=SeededRng(7), clock=ManualClock(START))
    ann, bob = TestClient(app), TestClient(app)
    sign_up(ann, "ann", STAFF_PASSWORD, 10_000)
    sign_up(bob, "bob", STAFF_PASSWORD, 10_000, key="d2")
    for client, key in ((ann, "s1"), (bob, "s2")):
        answer = client.post("/api/chemin/cf/sit", json={"key": key})
        assert answer.status_code == 200, answer.text
    yield ann, bob


def post(client: TestClient, path: str, body: dict[str, Any], code: int = 200
         ) -> dict[str, Any]:
    answer = client.post(path, json=body)
    assert answer.status_code == code, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_two_players_play_a_coup_each_seeing_their_own_cards(
        db: Engine, players: tuple[TestClient, TestClient]) -> None:
    ann, bob = players
    listed = ann.get("/api/chemin").json()["tables"]
    assert listed == [{"table": "cf", "seats": ["ann", "bob"], "banker": "ann",
                       "status": "no coup yet"}]
    first = ann.get("/api/chemin/cf").json()
    assert (first["actions"], first["min"], first["max"], first["commission_percent"]) == (
        ["bank 100", "bank 100000", "pass"], 100, 100_000, 5)
    assert bob.get("/api/chemin/cf").json()["actions"] == []
    up = post(ann, "/api/chemin/cf/move", {"action": "bank", "amount": 2_000, "key": "b1"})
    assert (up["status"], up["to_move"], up["bank"], up["balance"]) == (
        "playing", "bob", 2_000, 8_000)
    mine = bob.get("/api/chemin/cf").json()
    assert mine["actions"] == ["banco", "bet 100", "bet 2000", "pass"]
    assert ann.get("/api/chemin/cf", params={"since": up["version"]}).json() == {
        "unchanged": True, "version": up["version"]}
    done = post(bob, "/api/chemin/cf/move", {"action": "banco", "key": "p1"})
    assert done["status"] == "settled" and done["coup"]["result"] in ("player", "banker",
                                                                       "tie")
    assert ann.get("/api/chemin/cf", params={"since": up["version"]}).json().get(
        "unchanged") is None
    # a retry is answered and taken once; the key with another request is refused
    again = post(bob, "/api/chemin/cf/move", {"action": "banco", "key": "p1"})
    assert again["round_id"] == done["round_id"] and again["balance"] == done["balance"]
    conflict = bob.post("/api/chemin/cf/move", json={"action": "bet", "amount": 500,
                                                     "key": "p1"})
    assert conflict.status_code == 409, conflict.text
    # the wallet is what the engine pays for the recorded moves
    recall = bob.get(f"/api/recall/{done['round_id']}")
    assert recall.status_code == 200 and recall.json()["same"] is True, recall.text
    with transaction(db) as s:
        row = s.get(RoundRow, done["round_id"])
        assert row is not None
        history = json.loads(row.record)["history"]
        wallets = [balance(s, "player:ann"), balance(s, "player:bob")]
        assert check(s).ok and verify_audit(s).ok and reconcile_bets(s).ok
        assert balance(s, "table:cf") == 0
    state = GAMES["chemin-de-fer"].new_state(Seats(2))
    for move in history:
        state = state.apply(move["text"]).state
    assert [w - 10_000 for w in wallets] == list(state.returns())


@pytest.mark.parametrize(("who", "body", "code", "said"), [
    (1, {"action": "bank", "amount": 1_000, "key": "x"}, 400, "the bank is ann's"),
    (0, {"action": "bank", "amount": 50, "key": "x"}, 400, "a bank is 1.00 to 1000.00"),
    (0, {"action": "bank", "amount": 20_000, "key": "x"}, 400, "no credit"),
    (0, {"action": "bank", "key": "x"}, 422, "carry their amount"),
    (0, {"action": "pass", "amount": 5, "key": "x"}, 422, "carry their amount"),
    (0, {"action": "fold", "key": "x"}, 422, ""),
    (1, {"action": "banco", "key": "x"}, 400, "no coup is in play"),
    (0, {"action": "bank", "amount": -5, "key": "x"}, 422, ""),
])
def test_refusals_change_nothing(db: Engine, players: tuple[TestClient, TestClient],
                                 who: int, body: dict[str, Any], code: int, said: str
                                 ) -> None:
    before = [c.get("/api/chemin/cf").json() for c in players]
    answer = players[who].post("/api/chemin/cf/move", json=body)
    assert answer.status_code == code, answer.text
    assert said in answer.text
    assert [c.get("/api/chemin/cf").json() for c in players] == before


def test_a_player_who_is_not_seated_sees_the_table_but_cannot_move(
        db: Engine, players: tuple[TestClient, TestClient]) -> None:
    ann, bob = players
    post(ann, "/api/chemin/cf/move", {"action": "bank", "amount": 1_000, "key": "b1"})
    cid = TestClient(ann.app)
    sign_up(cid, "cid", STAFF_PASSWORD, 5_000, key="d3")
    seen = cid.get("/api/chemin/cf").json()
    assert seen["actions"] == [] and all(c is None for _s, c in seen["coup"]["cards"])
    refused = cid.post("/api/chemin/cf/move", json={"action": "banco", "key": "c1"})
    assert refused.status_code == 400 and "cid does not play coup" in refused.text
    sat = post(cid, "/api/chemin/cf/sit", {"key": "s3"})  # from the next coup
    assert sat["seats"] == ["ann", "bob", "cid"]
    left = bob.post("/api/chemin/cf/leave", json={"key": "l1"})
    assert left.status_code == 400 and "bob plays coup" in left.text
    assert cid.get("/api/chemin/nowhere").status_code == 404


@pytest.mark.parametrize(("method", "path", "body"), [
    ("get", "/api/chemin/nowhere", None),
    ("post", "/api/chemin/nowhere/sit", {"key": "n1"}),
    ("post", "/api/chemin/nowhere/leave", {"key": "n2"}),
    ("post", "/api/chemin/nowhere/move", {"action": "bank", "amount": 1_000, "key": "n3"}),
    ("post", "/api/chemin/nowhere/move", {"action": "pass", "key": "n4"}),
])
def test_a_table_that_is_not_here_is_404_in_the_players_language(
        db: Engine, players: tuple[TestClient, TestClient], method: str, path: str,
        body: dict[str, Any] | None) -> None:
    ann, _bob = players
    before = ann.get("/api/chemin/cf").json()
    answer = ann.get(path) if body is None else ann.post(path, json=body)
    assert answer.status_code == 404, answer.text
    assert answer.json() == {"detail": "no chemin de fer table 'nowhere'",
                             "code": "chemin_no_table", "params": {"table": "nowhere"}}
    assert ann.get("/api/chemin/cf").json() == before


def test_a_table_of_another_game_is_404_too(db: Engine,
                                           players: tuple[TestClient, TestClient]) -> None:
    ann, _bob = players
    with transaction(db) as s:
        open_rng_table(s, "wheel", "roulette", 100, 10_000)
    refused = ann.post("/api/chemin/wheel/sit", json={"key": "w1"})
    assert refused.status_code == 404 and refused.json()["code"] == "chemin_no_table"
