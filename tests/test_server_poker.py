"""A poker table over WebSocket with two browsers' worth of clients: each sees its own
hole cards and never the other's, the hand is played to the end and recorded, the
action timer acts for a player who does not, and the money is the ledger's. The table
keeps time by a manual clock: the timer runs out when the test moves time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import Engine

from pelisali.cards import parse_cards
from pelisali.platform.db import make_engine, transaction, upgrade
from pelisali.platform.ledger import balance, check, move, verify_audit
from pelisali.platform.poker_tables import recall_hand
from pelisali.poker.evaluate import evaluate
from pelisali.rng import SeededRng
from pelisali.server.app import COOKIE, create_app
from pelisali.server.auth import add_login
from pelisali.server.clock import ManualClock

PASSWORD = "correct horse battery"


def until(socket: Any, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for _ in range(200):
        message = socket.receive_json()
        if wanted(message):
            return message
    raise AssertionError("never came")


def dealt(message: dict[str, Any]) -> bool:
    return message.get("type") == "view" and message.get("hand") is not None


def casino(tmp_path: Path) -> Engine:
    engine = make_engine(f"sqlite:///{tmp_path / 'casino.db'}")
    upgrade(engine)
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", 10**9, "funding")
        add_login(s, "floor", PASSWORD, "staff")
    return engine


def players_at_nl_1(client: TestClient) -> tuple[dict[str, str], dict[str, str]]:
    """ann and bob registered with 100 € each, and table nl-1 opened: their headers."""
    tokens = {}
    for name in ("ann", "bob", "floor"):
        if name != "floor":
            client.post("/api/register", json={"name": name, "password": PASSWORD,
                                               "born": "1990-01-01", "country": "FI"})
        tokens[name] = client.post("/api/login", json={
            "name": name, "password": PASSWORD}).cookies[COOKIE]
        if name != "floor":
            client.post("/api/wallet/deposit", json={"amount": 10_000, "key": "d"})
        client.cookies.clear()
    opened = client.post("/api/staff/poker-tables", headers={
        "cookie": f"{COOKIE}={tokens['floor']}"}, json={
        "name": "nl-1", "small_blind": 50, "big_blind": 100, "min_buy_in": 2_000,
        "rake_percent": 5, "rake_cap": 300})
    assert opened.status_code == 201, opened.text
    ann_h, bob_h = ({"cookie": f"{COOKIE}={tokens[n]}"} for n in ("ann", "bob"))
    return ann_h, bob_h


def test_two_players_play_a_hand_and_the_timer_acts(tmp_path: Path) -> None:
    engine = casino(tmp_path)
    clock = ManualClock()  # nobody's time runs out until the test moves the clock
    app = create_app(engine, rng=SeededRng(5), act_seconds=4.0, clock=clock)
    with TestClient(app) as client:
        ann_h, bob_h = players_at_nl_1(client)
        with client.websocket_connect("/ws/poker/nl-1", headers=ann_h) as ann, \
                client.websocket_connect("/ws/poker/nl-1", headers=bob_h) as bob:
            assert ann.receive_json()["hand"] is None and bob.receive_json()["hand"] is None
            ann.send_json({"type": "sit", "amount": 100, "key": "s0"})
            assert "minimum" in until(ann, lambda m: m["type"] == "refused")["reason"]
            ann.send_json({"type": "sit", "amount": 5_000, "key": "s1"})
            until(ann, lambda m: m["type"] == "seated")
            bob.send_json({"type": "sit", "amount": 5_000, "key": "s1"})
            until(bob, lambda m: m["type"] == "seated")
            # the hand may have been dealt while "seated" was on its way: ask for the table
            ann.send_json({"type": "hello", "since": 0})
            bob.send_json({"type": "hello", "since": 0})
            seen_a, seen_b = until(ann, dealt), until(bob, dealt)
            mine_a, mine_b = seen_a["hand"]["hole"], seen_b["hand"]["hole"]
            assert len(mine_a) == len(mine_b) == 2 and not set(mine_a) & set(mine_b)
            for view, other in ((seen_a, mine_b), (seen_b, mine_a)):
                text = str(view)  # nothing of the other's hole cards anywhere
                assert all(card not in text for card in other)
            # the player to act calls or checks until the hand is over
            sockets, state = {"ann": ann, "bob": bob}, {"ann": seen_a, "bob": seen_b}
            for _ in range(40):
                actor = state["ann"].get("to_act")
                if actor is None or state["ann"]["hand"]["finished"]:
                    break
                other = "bob" if actor == "ann" else "ann"
                legal = state[actor]["legal"]
                sockets[actor].send_json({"type": "act",
                                          "action": "check" if legal["check"] else "call"})
                last = state[actor]
                while True:
                    message = sockets[actor].receive_json()
                    if message["type"] == "view":
                        last = message
                    if message["type"] in ("acted", "refused"):
                        assert message["type"] == "acted", message
                        break
                state[actor] = last
                state[other] = until(sockets[other], lambda m, seq=last["seq"]:
                                     m["type"] == "view" and m["seq"] == seq)
            hand_over = until(ann, lambda m: m["type"] == "hand-result")
            assert sum(hand_over["chips"].values()) + hand_over["rake"] == 10_000
            # checked and called down: both hands shown and named, in every language
            board = state["ann"]["hand"]["board"]
            assert len(board) == 5 and set(hand_over["hands"]) == {"ann", "bob"}
            for name, cards in hand_over["shown"].items():
                best = evaluate(parse_cards(" ".join(cards)), "high", parse_cards(" ".join(board)))
                assert best is not None
                assert hand_over["hands"][name] == {lang: best.describe(lang)
                                                    for lang in ("en", "fi", "sv")}
            assert hand_over["rake"] <= 300
            # the next hand: bob does nothing, so the timer acts for him and sits him out
            shown_at = clock.now()
            assert clock.tick() - shown_at == 5.0  # the result stays 5 s by default
            again = until(ann, dealt)
            assert again["seconds_left"] == 4.0 and again["to_act"] == "bob"
            clock.advance(1.5)
            ann.send_json({"type": "hello"})
            waiting = until(ann, lambda m: m["type"] == "view")
            assert waiting["seconds_left"] == 2.5  # the countdown, and the timer waits
            assert not any(s["sitting_out"] for s in waiting["seats"])
            clock.tick()  # bob's time is up
            timed = until(bob, lambda m: m["type"] == "view" and m["hand"] is not None and
                          any(s["player"] == "bob" and s["sitting_out"] for s in m["seats"]))
            assert timed["hand"]["finished"]  # facing the big blind, bob's hand is folded
            ann.send_json({"type": "act", "action": "dance"})
            assert until(ann, lambda m: m["type"] == "error")
            ann.send_json({"type": "leave", "key": "l1"})
            bob.send_json({"type": "leave", "key": "l1"})
            until(bob, lambda m: m["type"] in ("leaving", "cashed-out"))
        client.cookies.clear()
        history = client.get("/api/history", headers=ann_h).json()["hands"]
        assert history and history[0]["table"] == "nl-1"
        recalled = client.get(f"/api/recall/{history[-1]['round_id']}", headers=ann_h).json()
        assert recalled["game"] == "poker" and recalled["same"]
        assert (recalled["table"], recalled["summary"]) == ("nl-1", "")
        assert "finishing_stacks" in recalled["recorded"]
        with transaction(engine) as s:
            assert check(s).ok and verify_audit(s).ok
            from sqlalchemy import select

            from pelisali.platform.models import RoundRow

            rounds = s.scalars(select(RoundRow)).all()
            assert rounds and all(recall_hand(s, r.id).same for r in rounds)
            total = (balance(s, "player:ann") + balance(s, "player:bob")
                     + balance(s, "table:nl-1") + balance(s, "fee:nl-1"))
            assert total == 20_000


def test_only_a_player_sits_at_a_poker_table_that_exists(tmp_path: Path) -> None:
    """A socket refused is closed before it is accepted, with the reason."""
    import pytest
    from starlette.websockets import WebSocketDisconnect

    engine = make_engine(f"sqlite:///{tmp_path / 'casino.db'}")
    upgrade(engine)
    with transaction(engine) as s:
        add_login(s, "floor", PASSWORD, "staff")
    with TestClient(create_app(engine, clock=ManualClock())) as client:
        client.post("/api/register", json={"name": "ann", "password": PASSWORD,
                                           "born": "1990-01-01", "country": "FI"})
        tokens = {name: client.post("/api/login", json={
            "name": name, "password": PASSWORD}).cookies[COOKIE] for name in ("ann", "floor")}
        client.cookies.clear()
        for token, table, reason in ((None, "nl-1", "not logged in"),
                                     (tokens["floor"], "nl-1", "players only"),
                                     (tokens["ann"], "nl-9", "no poker table 'nl-9'")):
            headers = {"cookie": f"{COOKIE}={token}"} if token else {}
            with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(
                    f"/ws/poker/{table}", headers=headers) as socket:
                socket.receive_json()
            assert (refused.value.code, refused.value.reason) == (4403, reason)


def test_a_player_away_past_the_time_is_sat_out_and_cashed_out(tmp_path: Path) -> None:
    """Closing the tab keeps the seat for ``away_seconds``: back in time, nothing
    happens; away longer, the player is sat out and their chips go to the wallet (at the
    end of the hand they were in). The rules page gives the table's times."""
    engine = casino(tmp_path)
    clock = ManualClock()
    app = create_app(engine, rng=SeededRng(5), act_seconds=30.0, clock=clock,
                     showdown_seconds=6.0, away_seconds=60.0)
    with TestClient(app) as client:
        ann_h, bob_h = players_at_nl_1(client)
        rules = client.get("/api/rules/poker?lang=en").json()["lines"]
        assert [line["bet"][:40] for line in rules if "house rule" in line["section"]] == [
            "A player has 30 s to act. When the time ", "At the showdown the hands are named, and",
            "A player whose connection drops keeps th"]
        assert "not back within 60 s" in rules[-1]["bet"]
        assert "stays 6 s before" in rules[-2]["bet"]
        with client.websocket_connect("/ws/poker/nl-1", headers=bob_h) as bob:
            bob.receive_json()
            bob.send_json({"type": "sit", "amount": 3_000, "key": "s1"})
            until(bob, lambda m: m["type"] == "seated")
            with client.websocket_connect("/ws/poker/nl-1", headers=ann_h) as ann:
                ann.receive_json()
                ann.send_json({"type": "sit", "amount": 4_000, "key": "s1"})
                until(ann, lambda m: m["type"] == "seated")
            # ann's tab is closed, mid-hand: her hand is played on by the timer
            clock.advance(59.0)
            with client.websocket_connect("/ws/poker/nl-1", headers=ann_h) as ann:
                ann.receive_json()  # back within the minute: still seated
                clock.advance(5.0)
                ann.send_json({"type": "hello", "since": 0})
                seen = until(ann, lambda m: m["type"] == "view")
                assert any(s["player"] == "ann" for s in seen["seats"])
            # gone again: a minute on she is sat out, and cashed out with her chips
            gone = clock.now()
            while clock.now() < gone + 60.0:
                clock.tick()
            seen = until(bob, lambda m: m["type"] == "view" and all(
                x["player"] != "ann" for x in m["seats"]))
            [bob_seat] = seen["seats"]
            assert bob_seat["player"] == "bob"
        with transaction(engine) as s:
            assert check(s).ok and verify_audit(s).ok
            assert balance(s, "table:nl-1") == bob_seat["chips"]  # ann's chips all left
            assert (balance(s, "player:ann") + balance(s, "player:bob") + bob_seat["chips"]
                    + balance(s, "fee:nl-1")) == 20_000
