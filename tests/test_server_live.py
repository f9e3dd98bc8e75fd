"""Live tables over WebSocket with several clients: every client sees the same round,
each player only their own settlement, late bets and outsiders refused, a reconnecting
client catches up by sequence number (GGPoker live roulette 2.1.5, house rules 2.2).
The table keeps time by a manual clock: its windows close when the test moves time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from dbfixtures import Fixed
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pelisali.platform.db import make_engine, transaction, upgrade
from pelisali.platform.ledger import balance, check, move, verify_audit
from pelisali.platform.rounds import reconcile_bets
from pelisali.server.app import COOKIE, create_app
from pelisali.server.auth import add_login
from pelisali.server.clock import ManualClock

PASSWORD = "correct horse battery"


def until(socket: Any, kind: str) -> list[dict[str, Any]]:
    """Messages up to and including the first of ``kind``."""
    seen = []
    while True:
        message = socket.receive_json()
        seen.append(message)
        if message["type"] == kind:
            return seen


def cookie(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/login", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200
    token = answer.cookies[COOKIE]
    client.cookies.clear()
    return {"cookie": f"{COOKIE}={token}"}


def test_two_players_at_one_live_table(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'casino.db'}")
    upgrade(engine)
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", 10**9, "funding")
        add_login(s, "floor", PASSWORD, "staff")
    clock = ManualClock()  # the window and the pause end when the test says, not in real time
    app = create_app(engine, rng=Fixed(17), live_window=2.0, live_pause=1.5, clock=clock)
    with TestClient(app) as client:
        for name in ("ann", "bob"):
            assert client.post("/api/register", json={
                "name": name, "password": PASSWORD, "born": "1990-01-01",
                "country": "FI"}).status_code == 201
            client.post("/api/login", json={"name": name, "password": PASSWORD})
            client.post("/api/wallet/deposit", json={"amount": 10_000, "key": "d"})
            client.cookies.clear()
        staff = cookie(client, "floor")
        for table, mode in (("live-1", "live"), ("rng-roulette-C-ann", "rng")):
            assert client.post("/api/staff/tables", headers=staff, json={
                "name": table, "game": "roulette", "variant": "C", "min": 100,
                "max": 50_000, "mode": mode}).status_code == 201
        ann, bob = cookie(client, "ann"), cookie(client, "bob")
        for headers, reason in (({}, "not logged in"), (staff, "players only")):
            with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(
                    "/ws/live/live-1", headers=headers) as outsider:  # not at the table
                outsider.receive_json()
            assert (refused.value.code, refused.value.reason) == (4403, reason)
        for table, reason in (("live-2", "no table 'live-2'"),
                              ("rng-roulette-C-ann", "rng-roulette-C-ann is not a live table")):
            with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(
                    f"/ws/live/{table}", headers=ann) as outsider:
                outsider.receive_json()
            assert (refused.value.code, refused.value.reason) == (4403, reason)
        with client.websocket_connect("/ws/live/live-1", headers=ann) as a:
            assert a.receive_json()["type"] == "state"
            first = until(a, "betting")[-1]  # ann sits down: the wheel starts for her
            assert first["closes_in"] == 2.0
            with client.websocket_connect("/ws/live/live-1", headers=bob) as b:
                came = b.receive_json()  # bob comes in during the round, with its countdown
                assert (came["type"], came["phase"], came["round_id"], came["closes_in"]) == (
                    "state", "betting", first["round_id"], 2.0)
                clock.advance(0.5)
                assert client.get("/api/live/live-1").json()["closes_in"] == 1.5
                clock.tick()  # the window closes: no more bets, the draw, the result
                clock.tick()  # the result has been shown: the next round opens
                opened_a, opened_b = until(a, "betting")[-1], until(b, "betting")[-1]
                assert opened_a == opened_b  # the same round, the same sequence number
                assert opened_a["round_id"] > first["round_id"]
                a.send_json({"type": "bet", "key": "a1", "bets": [
                    {"spot": "red", "amount": 1_000}, {"spot": "straight 17", "amount": 100}]})
                b.send_json({"type": "bet", "key": "b1",
                             "bets": [{"spot": "black", "amount": 500}]})
                b.send_json({"type": "bet", "key": "b2",
                             "bets": [{"spot": "red", "amount": 60_000}]})
                b.send_json({"type": "bet", "key": "b3",
                             "bets": [{"spot": "red", "amount": "x"}]})
                accepted = until(a, "bet-accepted")[-1]
                assert [x["accepted"] for x in accepted["bets"]] == [1_000, 100]
                answers = [until(b, t)[-1] for t in ("bet-accepted", "bet-refused", "error")]
                assert answers[0]["key"] == "b1"
                assert answers[1]["key"] == "b2" and "no credit" in answers[1]["reason"]
                clock.tick()  # the window closes
                seen_a = until(a, "settled")
                closed = [m for m in seen_a if m["type"] == "no-more-bets"]
                a.send_json({"type": "bet", "key": "late",
                             "bets": [{"spot": "red", "amount": 100}]})
                late = until(a, "bet-refused")[-1]
                assert "no more bets" in late["reason"]
                seen_b = until(b, "settled")
                result_a = [m for m in seen_a if m["type"] == "result"]
                result_b = [m for m in seen_b if m["type"] == "result"]
                assert result_a == result_b and result_a[0]["result"] == "17" and closed
                mine_a = next(m for m in seen_a if m["type"] == "settled")
                mine_b = next(m for m in seen_b if m["type"] == "settled")
                assert [(x["spot"], x["paid"]) for x in mine_a["settlements"]] == [
                    ("red", 0), ("straight 17", 3_600)]
                assert [(x["spot"], x["paid"]) for x in mine_b["settlements"]] == [
                    ("black", 1_000)]
                assert mine_a["balance"] == 10_000 - 1_100 + 3_600
                assert mine_b["balance"] == 10_000 - 500 + 1_000
                assert mine_b["seq"] == mine_a["seq"] + 1  # one sequence for the table
                last_seen = mine_a["seq"]
        # bob left; ann reconnects and asks for what she missed since her last event
        with client.websocket_connect("/ws/live/live-1", headers=ann) as again:
            assert again.receive_json()["type"] == "state"
            again.send_json({"type": "hello", "since": last_seen - 3})
            caught = [again.receive_json() for _ in range(3)]  # bob's settlement is not hers
            assert [(m["seq"], m["type"]) for m in caught] == [
                (last_seen - 2, "no-more-bets"), (last_seen - 1, "result"), (last_seen, "settled")]
            again.send_json({"type": "dance"})
            assert until(again, "error")[-1]["reason"].startswith("messages")
    with transaction(engine) as s:
        assert balance(s, "player:ann") == 10_000 - 1_100 + 3_600
        assert balance(s, "player:bob") == 10_000 - 500 + 1_000
        assert check(s).ok and verify_audit(s).ok and reconcile_bets(s).ok


def test_a_bet_from_a_player_not_connected_is_refused(tmp_path: Path) -> None:
    """GGPoker live roulette 2.1.5: a bet not connected to the game server is refused."""
    import asyncio

    from pelisali.server.live import LiveRoom

    engine = make_engine(f"sqlite:///{tmp_path / 'casino.db'}")
    upgrade(engine)
    room = LiveRoom(engine, "live-1", Fixed(1))
    answer = asyncio.run(room.bet("ann", [("red", 100)], "k"))
    assert answer == {"type": "bet-refused", "key": "k", "reason": "not connected to the table",
                      "code": "not_connected", "params": {}}
