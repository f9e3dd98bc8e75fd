"""Chemin de fer pushed over its socket (``/ws/chemin/{table}``) with the server's clock a
manual one (moved by the test, never slept): each player's socket receives the table as
that player may see it after every move made over HTTP (the other hand's first cards
never in the bytes sent), the decision clock's deadline with it; when a decision's time
runs out the house acts for the seat (the choice on five, the bank offer) and every
socket hears of it; a page without a socket asking after the deadline sees the house's
decision first, a late move is refused and changes nothing; and the socket is refused
or closed as the other tables' sockets are (no such table, a foreign origin, a message
past the size limit, a message it does not take)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from dbfixtures import STAFF_PASSWORD, casino, sign_up
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select
from starlette.websockets import WebSocketDisconnect

from pelisali.platform.chemin_tables import create_chemin_table
from pelisali.platform.db import transaction
from pelisali.platform.ledger import balance, check, verify_audit
from pelisali.platform.models import RoundRow
from pelisali.rng import SeededRng
from pelisali.server.app import create_app
from pelisali.server.auth import COOKIE
from pelisali.server.clock import ManualClock

START = 1_767_614_400.0  # 2026-01-05 12:00 UTC on the server's clock
SEED = 6  # the banco's cards: the player's hand 7 8 (5), the choice on five
DEPOSIT = 10_000


@dataclass
class Table:
    client: TestClient
    clock: ManualClock
    engine: Engine
    headers: dict[str, dict[str, str]]  # each player's session cookie

    def post(self, who: str, path: str, body: dict[str, Any], code: int = 200
             ) -> dict[str, Any]:
        answer = self.client.post(f"/api/chemin/cf/{path}", json=body,
                                  headers=self.headers[who])
        assert answer.status_code == code, answer.text
        found: dict[str, Any] = answer.json()
        return found

    def get(self, who: str) -> dict[str, Any]:
        answer = self.client.get("/api/chemin/cf", headers=self.headers[who])
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    engine = casino(tmp_path)
    with transaction(engine) as s:
        create_chemin_table(s, "cf")
    clock = ManualClock(START)
    with TestClient(create_app(engine, rng=SeededRng(SEED), clock=clock)) as client:
        headers = {}
        for name in ("ann", "bob"):
            sign_up(client, name, STAFF_PASSWORD, DEPOSIT, key=f"d-{name}")
            headers[name] = {"cookie": f"{COOKIE}={client.cookies[COOKIE]}"}
            client.cookies.clear()
        found = Table(client, clock, engine, headers)
        for name in ("ann", "bob"):
            found.post(name, "sit", {"key": f"s-{name}"})
        yield found


def pushed(ws: Any) -> dict[str, Any]:
    """The next view the socket pushes, checked to be one."""
    message = ws.receive_json()
    assert message["type"] == "chemin", message
    view: dict[str, Any] = message["view"]
    return view


def test_each_move_is_pushed_to_each_player_as_they_may_see_it(table: Table) -> None:
    ws_ann = table.client.websocket_connect("/ws/chemin/cf", headers=table.headers["ann"])
    ws_bob = table.client.websocket_connect("/ws/chemin/cf", headers=table.headers["bob"])
    with ws_ann as ann, ws_bob as bob:
        first = pushed(ann)
        assert (first["actions"], first["deadline"], first["seconds_left"]) == (
            ["bank 100", "bank 100000", "pass"], "2026-01-05T12:00:15+00:00", 15.0)
        assert pushed(bob)["actions"] == []
        table.post("ann", "move", {"action": "bank", "amount": 2_000, "key": "b1"})
        assert pushed(ann)["to_move"] == "bob"
        offered = pushed(bob)
        assert offered["actions"] == ["banco", "bet 100", "bet 2000", "pass"]
        assert offered["deadline"] == "2026-01-05T12:00:15+00:00"
        table.clock.advance(4)
        table.post("bob", "move", {"action": "banco", "key": "p1"})
        # bob holds the largest stake: his hand's cards are his; the banker's are ann's
        raw_ann, raw_bob = ann.receive_text(), bob.receive_text()
        with transaction(table.engine) as s:
            row = s.scalars(select(RoundRow)).first()
            assert row is not None
            cards = json.loads(row.record)["cards"]
        player = [c for side, c in cards if side == "player"]
        banker = [c for side, c in cards if side == "banker"]
        seen_ann, seen_bob = json.loads(raw_ann)["view"], json.loads(raw_bob)["view"]
        assert [c for side, c in seen_bob["coup"]["cards"] if side == "player"] == player
        assert [c for side, c in seen_bob["coup"]["cards"] if side == "banker"] == [None, None]
        assert [c for side, c in seen_ann["coup"]["cards"] if side == "player"] == [None, None]
        assert not any(f'"{card}"' in raw_ann for card in player)
        assert not any(f'"{card}"' in raw_bob for card in banker)
        assert (seen_bob["actions"], seen_bob["deadline"]) == (
            ["draw", "stand"], "2026-01-05T12:00:19+00:00")
        # bob does not choose: at 19 s the house draws for him, and both pages hear it
        assert table.clock.tick() == START + 19  # both sockets wait for it
        done_ann, done_bob = pushed(ann), pushed(bob)
        for done in (done_ann, done_bob):
            assert done["status"] == "settled" and done["coup"]["result"] is not None
            assert len(done["coup"]["cards"]) >= 5  # the player's hand drew
    with transaction(table.engine) as s:
        wallets = [balance(s, f"player:{p}") for p in ("ann", "bob")]
        assert check(s).ok and verify_audit(s).ok and balance(s, "table:cf") == 0
        row = s.get(RoundRow, done_ann["round_id"])
        assert row is not None
        record = json.loads(row.record)
    # the house's draw is in the coup's history as the seat's move, the money adds up
    assert [m["text"] for m in record["history"]][:2] == ["bank 2000", "banco"]
    assert [m["text"] for m in record["history"]][6] == "draw"
    assert sum(wallets) + record["commission"] == 2 * DEPOSIT
    assert wallets == [done_ann["balance"], done_bob["balance"]]


def test_a_bank_offer_nobody_answers_passes_on_and_is_pushed(table: Table) -> None:
    with table.client.websocket_connect("/ws/chemin/cf", headers=table.headers["bob"]) as bob:
        assert pushed(bob)["banker"] == "ann"
        assert table.clock.tick() == START + 15  # the socket waits for the offer's end
        moved = pushed(bob)
        assert (moved["banker"], moved["to_move"], moved["actions"]) == (
            "bob", "bob", ["bank 100", "bank 100000", "pass"])
        assert moved["deadline"] == "2026-01-05T12:00:30+00:00"


def test_a_page_without_a_socket_sees_the_house_act_and_a_late_move_changes_nothing(
        table: Table) -> None:
    table.post("ann", "move", {"action": "bank", "amount": 2_000, "key": "b1"})
    assert table.get("bob")["seconds_left"] == 15.0
    table.clock.advance(16)
    late = table.client.post("/api/chemin/cf/move", json={"action": "banco", "key": "p1"},
                             headers=table.headers["bob"])
    assert late.status_code == 400 and late.json()["code"] == "chemin_no_coup", late.text
    with transaction(table.engine) as s:
        assert balance(s, "player:bob") == DEPOSIT
    seen = table.get("ann")  # the house passed for bob: nobody bet, the coup is void
    assert (seen["status"], seen["coup"]["result"], seen["balance"]) == (
        "settled", None, DEPOSIT)
    assert seen["deadline"] == "2026-01-05T12:00:30+00:00"  # the offer, from the coup's end


def test_the_socket_is_refused_and_closed_as_the_other_tables_sockets_are(
        table: Table) -> None:
    ann = table.headers["ann"]
    with pytest.raises(WebSocketDisconnect) as refused, table.client.websocket_connect(
            "/ws/chemin/nowhere", headers=ann) as ws:
        ws.receive_json()
    assert refused.value.code == 4403 and "no chemin de fer table" in refused.value.reason
    with pytest.raises(WebSocketDisconnect) as foreign, table.client.websocket_connect(
            "/ws/chemin/cf", headers={**ann, "origin": "https://evil.example"}) as ws:
        ws.receive_json()
    assert foreign.value.code == 4403 and "not allowed" in foreign.value.reason
    with pytest.raises(WebSocketDisconnect) as nobody, table.client.websocket_connect(
            "/ws/chemin/cf") as ws:
        ws.receive_json()
    assert nobody.value.code == 4403
    with table.client.websocket_connect("/ws/chemin/cf", headers=ann) as ws:
        assert pushed(ws)["table"] == "cf"
        ws.send_json({"type": "bet", "amount": 100})
        error = ws.receive_json()
        assert (error["type"], error["code"]) == ("error", "malformed")
        ws.send_json({"type": "hello"})
        assert pushed(ws)["seats"] == ["ann", "bob"]
    with pytest.raises(WebSocketDisconnect) as closed, table.client.websocket_connect(
            "/ws/chemin/cf", headers=ann) as ws:
        pushed(ws)
        ws.send_text(json.dumps({"type": "hello", "pad": "x" * 9_000}))
        while True:
            ws.receive_json()
    assert closed.value.code == 1009
