"""Poker tournaments over the API and the tournament socket: three players register in a
sit & go (it starts when full), one plays her own hand in turn while the action timer
sits the others out and bots play them, the level changes when the server's manual
clock says, and the tournament runs to its prizes, paid to the wallets with every cent
on the ledger. And the refusals: an unknown tournament, registering twice, a full
field, acting out of turn, a key sent again with another request, a malformed body, an
oversized one, a foreign origin, a player who is not staff."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from starlette.websockets import WebSocketDisconnect

from pelisali.platform import tournaments
from pelisali.platform.db import make_engine, transaction, upgrade
from pelisali.platform.ledger import balance, check, move, verify_audit
from pelisali.rng import SeededRng
from pelisali.server.app import COOKIE, create_app
from pelisali.server.auth import add_login
from pelisali.server.clock import ManualClock

PASSWORD = "correct horse battery"
PLAYERS = ("ann", "bob", "cid")
SNG = {
    "name": "Ilta",
    "capacity": 3,
    "seats": 3,
    "starting_chips": 1500,
    "structure": "sit-and-go",
    "buy_in": 1_000,
    "fee": 100,
    "action_seconds": 30,
}
Headers = dict[str, dict[str, str]]


def casino(tmp_path: Path) -> Engine:
    engine = make_engine(f"sqlite:///{tmp_path / 'casino.db'}")
    upgrade(engine)
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", 10**9, "funding")
        add_login(s, "floor", PASSWORD, "staff")
    return engine


def people(client: TestClient, names: tuple[str, ...] = (*PLAYERS, "dan")) -> Headers:
    """Players with 100 € each, and the floor: their headers."""
    headers = {}
    for name in (*names, "floor"):
        if name != "floor":
            client.post(
                "/api/register",
                json={"name": name, "password": PASSWORD, "born": "1990-01-01", "country": "FI"},
            )
        token = client.post("/api/login", json={"name": name, "password": PASSWORD}).cookies[COOKIE]
        if name != "floor":
            assert (
                client.post("/api/wallet/deposit", json={"amount": 10_000, "key": "d"}).status_code
                == 200
            )
        client.cookies.clear()
        headers[name] = {"cookie": f"{COOKIE}={token}"}
    return headers


def wallet(client: TestClient, headers: dict[str, str]) -> int:
    return int(client.get("/api/me", headers=headers).json()["balance"])


def until(socket: Any, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for _ in range(2_000):
        message = socket.receive_json()
        if wanted(message):
            return message
    raise AssertionError("never came")


def finished(client: TestClient, tournament: int) -> dict[str, Any]:
    """The results once the room (on the app's event loop) has played the end."""
    for _ in range(3_000):
        answer = client.get(f"/api/tournaments/{tournament}/results").json()
        if answer["status"] == "finished":
            return dict(answer)
        time.sleep(0.01)  # the room's loop runs in the client's thread: let it
    raise AssertionError("the tournament did not finish")


@pytest.fixture
def app_clock(tmp_path: Path) -> tuple[Engine, ManualClock, Any]:
    engine = casino(tmp_path)
    clock = ManualClock()
    app = create_app(engine, rng=SeededRng(3), clock=clock, showdown_seconds=0)
    return engine, clock, app


def test_a_sit_and_go_is_played_to_its_prizes(app_clock: tuple[Engine, ManualClock, Any]) -> None:
    engine, clock, app = app_clock
    with TestClient(app) as client:
        h = people(client)
        made = client.post("/api/staff/tournaments", headers=h["floor"], json={**SNG, "bots": True})
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        lobby = client.get("/api/tournaments").json()["tournaments"]
        assert [(t["id"], t["status"], t["entries"]) for t in lobby] == [(tid, "registering", 0)]

        first = client.post(
            f"/api/tournaments/{tid}/register", headers=h["ann"], json={"key": "r1"}
        )
        assert first.status_code == 201 and first.json()["balance"] == 8_900
        again = client.post(
            f"/api/tournaments/{tid}/register", headers=h["ann"], json={"key": "r1"}
        )  # a retry: the entry made, nothing moves
        assert again.status_code == 201 and again.json() == first.json()
        twice = client.post(
            f"/api/tournaments/{tid}/register", headers=h["ann"], json={"key": "r2"}
        )
        assert twice.status_code == 409 and twice.json()["code"] == "tournament_entered"
        reused = client.post(
            f"/api/tournaments/{tid}/unregister", headers=h["ann"], json={"key": "r1"}
        )  # the entry's key, sent to take it back
        assert reused.status_code == 409 and reused.json()["code"] == "key_reused"
        shown = client.get(f"/api/tournaments/{tid}", headers=h["ann"]).json()
        assert shown["registered"] and shown["entries"] == 1
        assert shown["payouts"] == [{"place": 1, "prize": 1_000}]
        for name in ("bob", "cid"):
            entered = client.post(
                f"/api/tournaments/{tid}/register", headers=h[name], json={"key": "r1"}
            )
            assert entered.status_code == 201
        assert entered.json()["status"] == "running"  # full: the sit & go started
        full = client.post(f"/api/tournaments/{tid}/register", headers=h["dan"], json={"key": "r1"})
        assert full.status_code == 409 and full.json()["code"] == "registration_closed"
        with transaction(engine) as s:
            assert balance(s, f"tournament:{tid}") == 3_000
            assert balance(s, "fee:tournaments") == 300

        shown = client.get(f"/api/tournaments/{tid}").json()
        assert shown["status"] == "running" and shown["left"] == 3
        assert shown["level"] == {
            "number": 1,
            "small_blind": 10,
            "big_blind": 20,
            "ante": 0,
            "on_break": False,
            "seconds_left": 600,
        }
        assert shown["average"] == 1_500 and shown["payouts"] == [{"place": 1, "prize": 3_000}]
        seated = sorted(p["player"] for t in shown["tables"] for p in t["players"])
        assert seated == sorted(PLAYERS)
        mine = client.get(f"/api/tournaments/{tid}/seat", headers=h["ann"]).json()
        assert mine["entry"] == "ann" and mine["table"] == 1 and mine["seat"] in (0, 1, 2)

        with client.websocket_connect(f"/ws/tournaments/{tid}", headers=h["ann"]) as ann:
            view = until(ann, lambda m: m["type"] == "view")
            assert view["you"] == "ann" and view["level"]["big_blind"] == 20
            acted = 0
            # ann plays her own hand; the others' timers run out, and then bots play them
            for _ in range(3_000):
                if acted == 3:
                    break
                view = client.get(f"/api/tournaments/{tid}/seat", headers=h["ann"]).json()
                if view.get("legal") and view["to_act"] == "ann":
                    late = client.post(
                        f"/api/tournaments/{tid}/act", headers=h["bob"], json={"action": "call"}
                    )
                    assert late.status_code == 409 and late.json()["code"] == "not_your_turn"
                    assert len(view["hand"]["hole"]) == 2
                    legal = view["legal"]
                    ann.send_json({"type": "act", "action": "check" if legal["check"] else "fold"})
                    assert (
                        until(ann, lambda m: m["type"] in ("acted", "refused"))["type"] == "acted"
                    )
                    acted += 1
                elif view.get("to_act") not in (None, "ann"):
                    clock.advance(30)  # their time is up: checked or folded, sitting out
                time.sleep(0.01)  # the room's loop runs in the client's thread: let it
            assert acted == 3
            clock.advance(600)  # the sit & go's level 2
            level = until(ann, lambda m: m["type"] == "level")
            assert level["level"]["number"] == 2 and level["level"]["big_blind"] == 30
            shown = client.get(f"/api/tournaments/{tid}").json()
            # the time left is the clock's: the test moved it, nothing else did
            assert shown["level"] == level["level"] and 0 < shown["level"]["seconds_left"] <= 600
        # ann's socket closed: she sits out and a bot plays her to the end
        results = finished(client, tid)
        prizes = {row["player"]: row["prize"] for row in results["places"]}
        assert sorted(prizes.values()) == [0, 0, 3_000]
        assert sorted(row["place"] for row in results["places"]) == [1, 2, 3]
        board = client.get(f"/api/tournaments/{tid}/leaderboard").json()["players"]
        assert board[0]["chips"] == 4_500 and board[0]["place"] == 1
        for name in PLAYERS:
            assert wallet(client, h[name]) == 10_000 - 1_100 + prizes[name]
        with transaction(engine) as s:
            assert balance(s, f"tournament:{tid}") == 0
            assert balance(s, "fee:tournaments") == 300
            assert tournaments.reconcile(s, tid) == []
            assert check(s).ok
            verify_audit(s)
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(f"/ws/tournaments/{tid}", headers=h["ann"]) as late,
        ):  # refused: the tournament is over
            late.receive_json()


def test_registration_taken_back_and_a_cancel_refund(
    app_clock: tuple[Engine, ManualClock, Any],
) -> None:
    engine, _, app = app_clock
    with TestClient(app) as client:
        h = people(client)
        tid = client.post(
            "/api/staff/tournaments", headers=h["floor"], json={**SNG, "capacity": 4}
        ).json()["id"]
        assert (
            client.post(
                f"/api/tournaments/{tid}/register", headers=h["ann"], json={"key": "in-1"}
            ).status_code
            == 201
        )
        out = client.post(
            f"/api/tournaments/{tid}/unregister", headers=h["ann"], json={"key": "out-1"}
        )
        assert out.status_code == 200 and out.json()["balance"] == 10_000
        # the first entry's key again must not enter her free: the ledger has its transfer
        free = client.post(
            f"/api/tournaments/{tid}/register", headers=h["ann"], json={"key": "in-1"}
        )
        assert free.status_code == 409 and free.json()["code"] == "key_reused"
        gone = client.post(
            f"/api/tournaments/{tid}/unregister", headers=h["ann"], json={"key": "out-2"}
        )
        assert gone.status_code == 409 and gone.json()["code"] == "not_registered"
        for name in ("ann", "bob"):
            assert (
                client.post(
                    f"/api/tournaments/{tid}/register",
                    headers=h[name],
                    json={"key": f"in-2-{name}"},
                ).status_code
                == 201
            )
        early = client.post(f"/api/staff/tournaments/{tid}/start", headers=h["floor"])
        assert early.status_code == 409  # a sit & go starts when full
        cancelled = client.post(f"/api/staff/tournaments/{tid}/cancel", headers=h["floor"])
        assert cancelled.status_code == 200, cancelled.text
        assert cancelled.json()["owed"] == {"ann": 1_100, "bob": 1_100}
        assert wallet(client, h["ann"]) == wallet(client, h["bob"]) == 10_000
        again = client.post(f"/api/tournaments/{tid}/register", headers=h["cid"], json={"key": "c"})
        assert again.status_code == 409 and again.json()["code"] == "registration_closed"
        with transaction(engine) as s:
            assert balance(s, f"tournament:{tid}") == 0 and balance(s, "fee:tournaments") == 0
            assert tournaments.reconcile(s, tid) == [] and check(s).ok


def test_a_scheduled_tournament_takes_a_late_entry_while_it_runs(
    app_clock: tuple[Engine, ManualClock, Any],
) -> None:
    engine, _, app = app_clock
    with TestClient(app) as client:
        h = people(client)
        tid = client.post(
            "/api/staff/tournaments",
            headers=h["floor"],
            json={
                **SNG,
                "format": "scheduled",
                "capacity": 6,
                "seats": 6,
                "late_registration_level": 2,
                "action_seconds": 30,
            },
        ).json()["id"]
        for name in ("ann", "bob"):
            client.post(f"/api/tournaments/{tid}/register", headers=h[name], json={"key": "k"})
        started = client.post(f"/api/staff/tournaments/{tid}/start", headers=h["floor"])
        assert started.status_code == 200 and started.json()["status"] == "running"
        late = client.post(f"/api/tournaments/{tid}/register", headers=h["cid"], json={"key": "k"})
        assert late.status_code == 201, late.text
        retry = client.post(f"/api/tournaments/{tid}/register", headers=h["cid"], json={"key": "k"})
        assert retry.status_code == 201 and retry.json()["entry"] == "cid"
        shown = client.get(f"/api/tournaments/{tid}").json()
        assert shown["entries"] == 3 and shown["left"] == 3 and shown["pool"] == 3_000
        assert wallet(client, h["cid"]) == 8_900
        seat = client.get(f"/api/tournaments/{tid}/seat", headers=h["cid"]).json()
        assert seat["table"] == 1
        with transaction(engine) as s:
            assert balance(s, f"tournament:{tid}") == 3_000
            assert tournaments.reconcile(s, tid) == [] and check(s).ok


def waited(work: Callable[[], Any], wanted: Callable[[Any], bool], clock: ManualClock) -> Any:
    """``work()`` once it gives what is ``wanted``, moving the clock on 30 s at a time
    (the action timer checks or folds the absent players)."""
    for _ in range(3_000):
        found = work()
        if wanted(found):
            return found
        clock.advance(30)
        time.sleep(0.01)  # the room's loop runs in the client's thread: let it
    raise AssertionError("never came")


def test_rebuys_and_the_add_on_are_bought_over_the_api(
    app_clock: tuple[Engine, ManualClock, Any],
) -> None:
    engine, clock, app = app_clock
    with TestClient(app) as client:
        h = people(client)
        tid = client.post(
            "/api/staff/tournaments",
            headers=h["floor"],
            json={**SNG, "format": "scheduled", "structure": "regular", "starting_chips": 10_000,
                  "entry": "rebuy", "rebuy_until_level": 4, "rebuy_chips": 10_000,
                  "rebuy_cost": 1_000, "add_on_chips": 5_000},
        ).json()["id"]
        early = client.post(f"/api/tournaments/{tid}/rebuy", headers=h["ann"], json={"key": "b1"})
        assert early.status_code == 409 and early.json()["code"] == "tournament_not_running"
        for name in PLAYERS:
            client.post(f"/api/tournaments/{tid}/register", headers=h[name], json={"key": "k"})
        client.post(f"/api/staff/tournaments/{tid}/start", headers=h["floor"])
        stranger = client.post(f"/api/tournaments/{tid}/rebuy", headers=h["dan"],
                               json={"key": "b1"})
        assert stranger.status_code == 409 and stranger.json()["code"] == "not_registered"
        reused = client.post(f"/api/tournaments/{tid}/rebuy", headers=h["ann"], json={"key": "k"})
        assert reused.status_code == 409 and reused.json()["code"] == "key_reused"

        # a hand is in play at ann's table: her rebuy is taken as it ends
        asked = client.post(f"/api/tournaments/{tid}/rebuy", headers=h["ann"], json={"key": "b1"})
        assert asked.status_code == 200, asked.text
        assert asked.json()["type"] == "pending" and asked.json()["balance"] == 8_900
        waited(lambda: wallet(client, h["ann"]), lambda held: held == 7_900, clock)
        retry = client.post(f"/api/tournaments/{tid}/rebuy", headers=h["ann"], json={"key": "b1"})
        assert retry.json()["type"] == "bought" and retry.json()["balance"] == 7_900
        as_add_on = client.post(f"/api/tournaments/{tid}/add-on", headers=h["ann"],
                                json={"key": "b1"})
        assert as_add_on.status_code == 409 and as_add_on.json()["code"] == "key_reused"
        not_yet = client.post(f"/api/tournaments/{tid}/add-on", headers=h["bob"],
                              json={"key": "a1"})
        assert not_yet.status_code == 409 and not_yet.json()["code"] == "add_on_not_now"

        # the break after level 4: no hands dealt, the add-on is taken at once
        clock.advance(4 * 1200 - clock.now() + 1)
        waited(lambda: client.get(f"/api/tournaments/{tid}/seat", headers=h["bob"]).json(),
               lambda seat: seat["level"]["on_break"] and seat["hand"] is None, clock)
        bob = client.get(f"/api/tournaments/{tid}/leaderboard").json()["players"]
        before = next(p["chips"] for p in bob if p["player"] == "bob")
        add_on = client.post(f"/api/tournaments/{tid}/add-on", headers=h["bob"],
                             json={"key": "a1"})
        assert add_on.status_code == 200, add_on.text
        assert add_on.json()["type"] == "bought" and add_on.json()["stack"] == before + 5_000
        assert add_on.json()["balance"] == 7_900
        twice = client.post(f"/api/tournaments/{tid}/add-on", headers=h["bob"],
                            json={"key": "a2"})
        assert twice.status_code == 409 and twice.json()["code"] == "add_on_taken"

        clock.advance(300)  # level 5: the rebuys are closed
        closed = client.post(f"/api/tournaments/{tid}/rebuy", headers=h["cid"],
                             json={"key": "c1"})
        assert closed.status_code == 409 and closed.json()["code"] == "rebuys_closed"
        assert wallet(client, h["cid"]) == 8_900
        shown = client.get(f"/api/tournaments/{tid}").json()
        assert shown["pool"] == 3 * 1_000 + 2 * 1_000
    with transaction(engine) as s:
        assert balance(s, f"tournament:{tid}") == 5_000
        assert tournaments.reconcile(s, tid) == [] and check(s).ok


def test_hostile_and_malformed_requests_are_refused_clearly(
    app_clock: tuple[Engine, ManualClock, Any],
) -> None:
    _, _, app = app_clock
    with TestClient(app) as client:
        h = people(client)
        tid = client.post("/api/staff/tournaments", headers=h["floor"], json=SNG).json()["id"]
        url = f"/api/tournaments/{tid}/register"
        nowhere = client.post("/api/tournaments/999/register", headers=h["ann"], json={"key": "k"})
        assert nowhere.status_code == 404 and nowhere.json()["code"] == "no_tournament"
        assert nowhere.json()["params"] == {"tournament": "999"}
        assert client.get("/api/tournaments/999").status_code == 404
        assert client.get("/api/tournaments/0").status_code == 422
        assert client.get("/api/tournaments/x").status_code == 422
        bad = client.post(url, headers=h["ann"], json={"key": ""})
        assert bad.status_code == 422 and bad.json()["code"] == "invalid"
        assert client.post(url, headers=h["ann"], content=b"{not json").status_code == 422
        huge = client.post(
            url,
            headers={**h["ann"], "content-type": "application/json"},
            content=b'{"key": "' + b"x" * 70_000 + b'"}',
        )
        assert huge.status_code == 413
        foreign = client.post(
            url, headers={**h["ann"], "origin": "https://evil.example"}, json={"key": "k"}
        )
        assert foreign.status_code == 403
        assert client.post(url, json={"key": "k"}).status_code == 401  # not logged in
        assert client.post("/api/staff/tournaments", headers=h["ann"], json=SNG).status_code == 403
        assert (
            client.post(f"/api/staff/tournaments/{tid}/start", headers=h["ann"]).status_code == 403
        )
        wrong = client.post(
            "/api/staff/tournaments", headers=h["floor"], json={**SNG, "late_registration_level": 2}
        )
        assert wrong.status_code == 400 and "late registration" in wrong.json()["detail"]
        floats = client.post(
            "/api/staff/tournaments", headers=h["floor"], json={**SNG, "buy_in": 10.5}
        )
        assert floats.status_code == 422
        idle = client.post(f"/api/tournaments/{tid}/act", headers=h["ann"], json={"action": "call"})
        assert idle.status_code == 409 and idle.json()["code"] == "tournament_not_running"
        odd = client.post(f"/api/tournaments/{tid}/act", headers=h["ann"], json={"action": "shove"})
        assert odd.status_code == 422
        assert client.get(f"/api/tournaments/{tid}/seat", headers=h["ann"]).status_code == 409
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(f"/ws/tournaments/{tid}", headers=h["ann"]) as ws,
        ):  # refused: not running yet
            ws.receive_json()
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect("/ws/tournaments/abc", headers=h["ann"]) as ws,
        ):  # no such tournament
            ws.receive_json()
        # nothing moved
        assert wallet(client, h["ann"]) == 10_000
