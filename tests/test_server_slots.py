"""The slots over the HTTP API: the machine's reels and pays, a spin paid as the engine
pays it, a retried spin taken once, a key sent with another bet refused (409), free
spins one request each and the round in play found again after a reload, recall, and
bad input refused with nothing changed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from dbfixtures import STAFF_PASSWORD, casino, sign_up
from fastapi.testclient import TestClient
from slot_games import Stops, scatter_stops
from sqlalchemy import Engine, select

from pelisali.engine import GAMES, Seats
from pelisali.engine.slots import SlotEngine
from pelisali.platform.db import transaction
from pelisali.platform.ledger import check
from pelisali.platform.models import BonusGrant, RoundRow
from pelisali.server.app import create_app

VIDEO = GAMES["slot-video"]
assert isinstance(VIDEO, SlotEngine)
FEATURE = scatter_stops(VIDEO, (0, 2, 4))


@pytest.fixture
def db(tmp_path: Path) -> Engine:
    return casino(tmp_path)


@pytest.fixture
def client(db: Engine) -> Iterator[TestClient]:
    client = TestClient(create_app(db, rng=Stops(FEATURE, seed=7)))
    sign_up(client, "ann", STAFF_PASSWORD, 10_000)
    yield client


def test_the_machine_shows_its_reels_lines_pays_and_bets(client: TestClient) -> None:
    listed = client.get("/api/slots").json()["slots"]
    assert [s["game"] for s in listed] == ["slot-fruit", "slot-video"]
    machine = client.get("/api/slots/slot-video").json()
    assert (machine["rows"], machine["reels"], len(machine["paylines"])) == (3, 5, 20)
    assert machine["lines_played"] == [1, 5, 10, 15, 20]
    assert machine["feature"]["spins"] == 10 and machine["playing"] is None
    assert machine["strips"]["base"][2] == list(VIDEO.rules.reels.base[2])
    assert len(machine["strips"]["free"]) == 5
    assert client.get("/api/slots/slot-nope").status_code == 404


def test_spins_free_spins_reload_and_recall(client: TestClient, db: Engine) -> None:
    first = client.post("/api/slots/slot-video/spin",
                        json={"lines": 20, "cents": 5, "key": "s1"}).json()
    assert first["status"] == "playing" and first["free_left"] == 10
    assert first["spins"][0]["stops"] == FEATURE and first["balance"] == 10_000 - 100
    again = client.post("/api/slots/slot-video/spin",
                        json={"lines": 20, "cents": 5, "key": "s1"}).json()
    assert again == first
    other = client.post("/api/slots/slot-video/spin",
                        json={"lines": 10, "cents": 5, "key": "s1"})
    assert other.status_code == 409 and "key s1 was used for" in other.json()["detail"]
    busy = client.post("/api/slots/slot-video/spin", json={"lines": 20, "cents": 5, "key": "s2"})
    assert busy.status_code == 400 and "free spins left" in busy.json()["detail"]
    # A reload finds the round where it stopped.
    assert client.get("/api/slots/slot-video").json()["playing"] == first
    seen, done = 1, first
    while done["status"] == "playing":
        done = client.post("/api/slots/slot-video/free-spin", json={"seen": seen}).json()
        seen += 1
        assert len(done["spins"]) == seen
    # The last free spin sent again gets its answer.
    assert client.post("/api/slots/slot-video/free-spin",
                       json={"seen": seen - 1}).json() == done
    state = VIDEO.new_state(Seats(1)).apply("spin 20 5").state
    for spin in done["spins"]:
        for stop in spin["stops"]:
            state = state.apply(str(stop)).state
    assert state.is_terminal() and done["win"] == state.returns()[0] + 100
    assert done["to_wallet"] + done["to_bonus"] == done["win"]
    assert client.get("/api/me").json()["balance"] == done["balance"]
    recalled = client.get(f"/api/recall/{done['round_id']}").json()
    assert recalled["same"] is True
    with transaction(db) as s:
        assert check(s).ok


@pytest.mark.parametrize("body", [
    {"lines": 7, "cents": 5, "key": "b"}, {"lines": 20, "cents": 3, "key": "b"},
    {"lines": -1, "cents": 5, "key": "b"}, {"lines": "20", "cents": 5, "key": "b"},
    {"lines": 20, "cents": 5}, {"lines": 20, "cents": 5, "key": ""},
    {"lines": 20, "cents": 10**9, "key": "b"}])
def test_a_bad_spin_is_refused_and_changes_nothing(client: TestClient, body: dict) -> None:
    answer = client.post("/api/slots/slot-video/spin", json=body)
    assert answer.status_code in (400, 422)
    assert "detail" in answer.json()
    assert client.get("/api/me").json()["balance"] == 10_000
    assert client.get("/api/slots/slot-video").json()["playing"] is None


def test_no_free_spin_without_a_feature_and_a_stranger_is_refused(
        client: TestClient) -> None:
    answer = client.post("/api/slots/slot-fruit/free-spin", json={"seen": 1})
    assert answer.status_code == 409 and "no free spins" in answer.json()["detail"]
    assert client.post("/api/slots/slot-fruit/free-spin", json={"seen": -1}).status_code == 422
    stranger = TestClient(client.app)
    assert stranger.post("/api/slots/slot-fruit/spin",
                         json={"lines": 1, "cents": 1, "key": "x"}).status_code == 401


def test_the_scheduler_completes_a_round_left_24_hours(client: TestClient, db: Engine) -> None:
    first = client.post("/api/slots/slot-video/spin",
                        json={"lines": 20, "cents": 5, "key": "s1"}).json()
    state = client.app.state.pelisali  # type: ignore[attr-defined]
    assert state.sweep_slots() == []  # kept for its player for 24 hours
    with transaction(db) as s:
        row = s.get(RoundRow, first["round_id"])
        assert row is not None
        row.deadline = row.deadline - timedelta(hours=24, seconds=1)
    assert state.sweep_slots() == [(first["round_id"], "settled, 10 free spins completed")]
    done = client.get("/api/slots/slot-video").json()
    assert done["playing"] is None
    history = client.get("/api/history").json()["bets"]
    assert history[0]["round_id"] == first["round_id"] and history[0]["paid"] is not None
    assert client.get(f"/api/recall/{first['round_id']}").json()["same"] is True


def test_free_spin_winnings_show_as_a_bonus_and_the_scheduler_forfeits_them(
        client: TestClient, db: Engine) -> None:
    done = client.post("/api/slots/slot-video/spin",
                       json={"lines": 20, "cents": 5, "key": "s1"}).json()
    while done["status"] == "playing":
        done = client.post("/api/slots/slot-video/free-spin",
                           json={"seen": len(done["spins"])}).json()
    won = done["to_bonus"]
    assert won and done["bonus"] == won
    history = client.get("/api/history").json()
    assert history["bonus_balance"] == won
    assert [(b["kind"], b["amount"]) for b in history["bonuses"]] == [("granted", won)]
    state = client.app.state.pelisali  # type: ignore[attr-defined]
    assert state.sweep_bonuses() == []  # 72 hours to wager it
    with transaction(db) as s:
        grant = s.scalars(select(BonusGrant)).one()
        grant.deadline = grant.deadline - timedelta(hours=73)
    [gone] = state.sweep_bonuses()
    history = client.get("/api/history").json()
    assert history["bonus_balance"] == 0
    assert [(b["kind"], b["grant_id"]) for b in history["bonuses"]] == [
        ("forfeited", gone), ("granted", gone)]
    with transaction(db) as s:
        assert check(s).ok
