"""An idempotency key stands for its whole request, as an attacker probes it through the
real app on both databases: the same key with another request (another amount, the
other direction of money, another game, version, spots or amounts, the other card game)
is refused with 409 naming the first request, and changes nothing; the same request
again still gets its first answer. At a poker table ``sit`` and ``leave`` carry a key:
without one, with one used for something else, a second sit of a seated player and a
leave of one not seated are refused on the socket (which stays open), and a retry moves
nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from dbfixtures import STAFF_PASSWORD, sign_up
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func, select

from pelisali.platform.db import snapshot, transaction
from pelisali.platform.ledger import balances, check, move, verify_audit
from pelisali.platform.models import BetRow, RoundRow, Transfer
from pelisali.platform.payments import Cage
from pelisali.platform.rounds import reconcile_bets
from pelisali.rng import SeededRng
from pelisali.server.app import COOKIE, create_app
from pelisali.server.auth import add_login
from pelisali.server.clock import ManualClock
from pelisali.server.security import Security

PASSWORD = STAFF_PASSWORD


@pytest.fixture
def casino(engine: Engine) -> Engine:
    """``engine`` (SQLite, then PostgreSQL) with a funded house bank and a staff login."""
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", 10**9, "funding")
        add_login(s, "floor", PASSWORD, "staff")
    return engine


@pytest.fixture
def cage() -> Cage:
    return Cage()


@pytest.fixture
def client(casino: Engine, cage: Cage) -> Iterator[TestClient]:
    # The sockets' rate is not what these tests are about (test_server_hostile.py is).
    unpaced = Security(ws_rate=10_000, ws_account_rate=10_000)
    with TestClient(create_app(casino, payments=cage, rng=SeededRng(7),
                               clock=ManualClock(), security=unpaced)) as client:
        yield client


def player(client: TestClient, name: str = "ann", deposit: int = 0) -> None:
    sign_up(client, name, PASSWORD, deposit, key="d0")


def money(engine: Engine) -> tuple[Any, ...]:
    """Everything a request could have changed: every balance, how many transfers, bets
    and rounds there are; the ledger checked."""
    with transaction(engine) as s:
        snapshot(s)  # a table's hand committing meanwhile is all in it or all out of it
        assert check(s).ok, check(s).problems
        return (balances(s), s.scalar(select(func.count()).select_from(Transfer)),
                s.scalar(select(func.count()).select_from(BetRow)),
                s.scalar(select(func.count()).select_from(RoundRow)))


def refused(client: TestClient, path: str, body: dict[str, Any], detail: str) -> None:
    answer = client.post(path, json=body)
    assert (answer.status_code, answer.json()) == (409, {
        "detail": detail, "code": "key_reused", "params": {}}), (path, body)


def test_a_wallet_key_is_one_amount_one_direction(client: TestClient, casino: Engine,
                                                  cage: Cage) -> None:
    player(client)
    assert client.post("/api/wallet/deposit", json={"amount": 10_000, "key": "k1"}
                       ).json() == {"balance": 10_000}
    before, calls = money(casino), len(cage.calls)
    first = "key k1 was used for a deposit of 100.00 €; send a new key"
    refused(client, "/api/wallet/deposit", {"amount": 20_000, "key": "k1"}, first)
    refused(client, "/api/wallet/deposit", {"amount": 9_999, "key": "k1"}, first)
    refused(client, "/api/wallet/withdraw", {"amount": 10_000, "key": "k1"}, first)
    refused(client, "/api/wallet/withdraw", {"amount": 1_000, "key": "k1"}, first)
    assert money(casino) == before and len(cage.calls) == calls  # nobody was asked
    again = client.post("/api/wallet/deposit", json={"amount": 10_000, "key": "k1"})
    assert (again.status_code, again.json()) == (200, {"balance": 10_000})
    assert money(casino) == before and len(cage.calls) == calls  # a retry, taken once

    assert client.post("/api/wallet/withdraw", json={"amount": 1_000, "key": "w1"}
                       ).json() == {"balance": 9_000}
    before, calls = money(casino), len(cage.calls)
    first = "key w1 was used for a withdrawal of 10.00 €; send a new key"
    refused(client, "/api/wallet/withdraw", {"amount": 2_000, "key": "w1"}, first)
    refused(client, "/api/wallet/deposit", {"amount": 1_000, "key": "w1"}, first)
    assert money(casino) == before and len(cage.calls) == calls
    again = client.post("/api/wallet/withdraw", json={"amount": 1_000, "key": "w1"})
    assert (again.status_code, again.json()) == (200, {"balance": 9_000})
    assert money(casino) == before and len(cage.calls) == calls
    assert client.get("/api/me").json()["balance"] == 9_000
    with transaction(casino) as s:
        assert verify_audit(s).ok


def test_an_rng_slip_key_is_one_slip_at_one_table(client: TestClient, casino: Engine) -> None:
    player(client, deposit=200_000)
    slip = {"variant": "C", "key": "r1", "bets": [{"spot": "red", "amount": 1_000},
                                                  {"spot": "straight 17", "amount": 100}]}
    played = client.post("/api/play/roulette", json=slip)
    assert played.status_code == 200, played.text
    before = money(casino)
    first = ("key r1 was used for a slip of 10.00 € on red, 1.00 € on straight 17 at "
             "rng-roulette-C-ann; send a new key")
    bets = slip["bets"]
    for path, body in (
            ("/api/play/boule", {"key": "r1", "bets": bets}),  # another game
            ("/api/play/roulette", {**slip, "variant": "A"}),  # another version
            ("/api/play/roulette", {**slip, "bets": [bets[0], {"spot": "straight 16",
                                                                "amount": 100}]}),
            ("/api/play/roulette", {**slip, "bets": [{"spot": "red", "amount": 2_000},
                                                      bets[1]]}),
            ("/api/play/roulette", {**slip, "bets": [bets[0]]}),  # fewer bets
            ("/api/play/roulette", {**slip, "bets": [*bets, {"spot": "black",
                                                              "amount": 100}]}),
            ("/api/play/roulette", {**slip, "bets": bets[::-1]}),  # another order
            ("/api/cards/punto-banco", {"key": "r1", "bets": [{"spot": "player",
                                                                "amount": 1_000}]})):
        refused(client, path, body, first)
    assert money(casino) == before
    again = client.post("/api/play/roulette", json=slip)
    assert (again.status_code, again.json()) == (200, played.json())
    assert money(casino) == before

    # Over the table maximum (1000.00) the excess is returned: the same request again
    # is the same slip, though the bet row holds less than it asked for.
    over = {"variant": "C", "key": "r2", "bets": [{"spot": "black", "amount": 150_000}]}
    capped = client.post("/api/play/roulette", json=over)
    assert capped.status_code == 200 and capped.json()["settlements"][0]["stake"] == 100_000
    before = money(casino)
    assert client.post("/api/play/roulette", json=over).json() == capped.json()
    refused(client, "/api/play/roulette",
            {**over, "bets": [{"spot": "black", "amount": 50_000}]},
            "key r2 was used for a slip of 1000.00 € on black at rng-roulette-C-ann; "
            "send a new key")
    assert money(casino) == before
    with transaction(casino) as s:
        assert verify_audit(s).ok and reconcile_bets(s).ok


def test_a_card_slip_key_is_one_slip_at_one_table(client: TestClient, casino: Engine) -> None:
    player(client, deposit=100_000)
    slip = {"key": "p1", "bets": [{"spot": "player", "amount": 1_000},
                                  {"spot": "banker", "amount": 2_000}]}
    coup = client.post("/api/cards/punto-banco", json=slip)
    assert coup.status_code == 200, coup.text
    before = money(casino)
    first = ("key p1 was used for a slip of 10.00 € on player, 20.00 € on banker at "
             "rng-punto-banco-ann; send a new key")
    bets = slip["bets"]
    for path, body in (
            ("/api/cards/punto-banco", {"key": "p1", "bets": [bets[0]]}),
            # one bet more: each bet alone would have placed it in the next coup
            ("/api/cards/punto-banco", {"key": "p1", "bets": [*bets, {"spot": "tie",
                                                                       "amount": 500}]}),
            ("/api/cards/punto-banco", {"key": "p1", "bets": [bets[0], {"spot": "banker",
                                                                         "amount": 3_000}]}),
            ("/api/cards/punto-banco", {"key": "p1", "bets": [bets[0], {"spot": "tie",
                                                                         "amount": 2_000}]}),
            ("/api/cards/blackjack/deal", {"key": "p1", "bets": [{"spot": "1",
                                                                   "amount": 1_000}]}),
            ("/api/play/roulette", {"key": "p1", "bets": [{"spot": "red", "amount": 1_000}]})):
        refused(client, path, body, first)
    assert money(casino) == before
    again = client.post("/api/cards/punto-banco", json=slip)  # its coup, not a new one
    assert (again.status_code, again.json()) == (200, coup.json())
    assert money(casino) == before

    deal = {"key": "b1", "bets": [{"spot": "3", "amount": 1_000}, {"spot": "1", "amount": 2_000}]}
    view = client.post("/api/cards/blackjack/deal", json=deal)
    assert view.status_code == 200, view.text
    before = money(casino)
    first = ("key b1 was used for a slip of 10.00 € on seat 3, 20.00 € on seat 1 at "
             "rng-blackjack-ann; send a new key")
    for path, body in (
            ("/api/cards/blackjack/deal", {"key": "b1", "bets": deal["bets"][:1]}),
            ("/api/cards/blackjack/deal", {"key": "b1", "bets": [
                {"spot": "3", "amount": 1_000}, {"spot": "2", "amount": 2_000}]}),
            ("/api/cards/punto-banco", {"key": "b1", "bets": [{"spot": "player",
                                                                "amount": 1_000}]})):
        refused(client, path, body, first)
    assert money(casino) == before
    again = client.post("/api/cards/blackjack/deal", json=deal)  # its round, as it stands
    assert again.status_code == 200
    # the same round; only its clock has moved on (the decision's seconds left)
    first_left, again_left = view.json().pop("seconds_left"), again.json().pop("seconds_left")
    assert {**again.json(), "seconds_left": None} == {**view.json(), "seconds_left": None}
    assert (first_left is None) == (again_left is None)
    assert first_left is None or 0 <= again_left <= first_left
    assert money(casino) == before
    with transaction(casino) as s:
        assert verify_audit(s).ok and reconcile_bets(s).ok


def answer(socket: Any, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` and return the answer to it (the views sent meanwhile skipped)."""
    socket.send_json(message)
    for _ in range(50):
        got = socket.receive_json()
        if got["type"] != "view":
            return dict(got)
    raise AssertionError(f"no answer to {message}")


def test_poker_sit_and_leave_carry_a_key(client: TestClient, casino: Engine) -> None:
    player(client, deposit=10_000)
    ann = client.cookies[COOKIE]
    client.cookies.clear()
    client.post("/api/login", json={"name": "floor", "password": PASSWORD})
    assert client.post("/api/staff/poker-tables", json={
        "name": "nl-1", "small_blind": 50, "big_blind": 100, "min_buy_in": 2_000}
    ).status_code == 201
    client.cookies.clear()
    with client.websocket_connect("/ws/poker/nl-1",
                                  headers={"cookie": f"{COOKIE}={ann}"}) as socket:
        assert socket.receive_json()["type"] == "view"
        start = money(casino)
        for message in ({"type": "sit", "amount": 5_000}, {"type": "leave"}):
            got = answer(socket, message)
            assert got["type"] == "refused" and "carries a key" in got["reason"], got
        assert money(casino) == start

        assert answer(socket, {"type": "sit", "amount": 5_000, "key": "s1"}) == {
            "type": "seated", "seat": 0}
        seated = money(casino)
        assert seated[0]["player:ann"] == 5_000 and seated[0]["table:nl-1"] == 5_000
        assert answer(socket, {"type": "sit", "amount": 5_000, "key": "s1"}) == {
            "type": "seated", "seat": 0}  # a retry: its first answer
        for message, reason, code in (
                ({"type": "sit", "amount": 6_000, "key": "s1"},
                 "this key was used for a buy-in of 50.00 € at nl-1; send a new key",
                 "key_reused"),
                ({"type": "sit", "amount": 2_000, "key": "s2"},  # a re-sit: no top-up
                 "ann is already seated at nl-1: leave the table first", "seated_already"),
                ({"type": "leave", "key": "s1"},
                 "this key was used for a buy-in of 50.00 € at nl-1; send a new key",
                 "key_reused")):
            assert answer(socket, message) == {"type": "refused", "reason": reason,
                                               "code": code, "params": {}}
        assert money(casino) == seated

        assert answer(socket, {"type": "leave", "key": "l1"}) == {
            "type": "cashed-out", "amount": 5_000}
        left = money(casino)
        assert left[0]["player:ann"] == 10_000 and left[0]["table:nl-1"] == 0
        assert answer(socket, {"type": "leave", "key": "l1"}) == {
            "type": "cashed-out", "amount": 5_000}  # a retry: nothing moves again
        for message, reason, code in (
                ({"type": "leave", "key": "l2"},
                 "you are not seated at nl-1: nothing to cash out", "not_seated"),
                ({"type": "sit", "amount": 5_000, "key": "l1"},
                 "this key was used for a cash-out of 50.00 € at nl-1; send a new key",
                 "key_reused")):
            assert answer(socket, message) == {"type": "refused", "reason": reason,
                                               "code": code, "params": {}}
        assert money(casino) == left
        socket.send_json({"type": "hello"})  # still connected
        assert socket.receive_json()["type"] == "view"
    with transaction(casino) as s:
        assert verify_audit(s).ok


def test_a_leave_during_a_hand_is_cashed_out_under_its_key(client: TestClient,
                                                          casino: Engine) -> None:
    tokens = {}
    for name in ("ann", "bob"):
        player(client, name, deposit=10_000)
        tokens[name] = client.cookies[COOKIE]
        client.cookies.clear()
    client.post("/api/login", json={"name": "floor", "password": PASSWORD})
    assert client.post("/api/staff/poker-tables", json={
        "name": "nl-1", "small_blind": 50, "big_blind": 100, "min_buy_in": 2_000}
    ).status_code == 201
    client.cookies.clear()
    with client.websocket_connect("/ws/poker/nl-1", headers={
            "cookie": f"{COOKIE}={tokens['ann']}"}) as ann, \
            client.websocket_connect("/ws/poker/nl-1", headers={
                "cookie": f"{COOKIE}={tokens['bob']}"}) as bob:
        assert ann.receive_json()["type"] == bob.receive_json()["type"] == "view"
        assert answer(ann, {"type": "sit", "amount": 5_000, "key": "s1"})["type"] == "seated"
        assert answer(bob, {"type": "sit", "amount": 5_000, "key": "s1"})["type"] == "seated"
        ann.send_json({"type": "hello"})
        for _ in range(50):
            dealt = ann.receive_json()
            if dealt["type"] == "view" and dealt["hand"] is not None:
                break
        else:
            raise AssertionError("no hand was dealt")
        leaving = {"type": "leaving", "reason": "you leave when this hand ends"}
        assert answer(ann, {"type": "leave", "key": "l1"}) == leaving
        assert answer(ann, {"type": "leave", "key": "l1"}) == leaving  # a retry
        actor = {"ann": ann, "bob": bob}[dealt["to_act"]]
        assert answer(actor, {"type": "act", "action": "fold"})["type"] == "acted"
        for _ in range(50):
            result = ann.receive_json()
            if result["type"] == "hand-result":
                break
        else:
            raise AssertionError("the hand did not end")
        chips = result["chips"]["ann"]
        for _ in range(600):  # cashed out under l1 once the hand is recorded
            if money(casino)[0]["player:ann"] == 5_000 + chips:
                break
            time.sleep(0.05)
        left = money(casino)
        assert left[0]["player:ann"] == 5_000 + chips
        assert answer(ann, {"type": "leave", "key": "l1"}) == {
            "type": "cashed-out", "amount": chips}  # the request's answer, moved once
        assert answer(ann, {"type": "leave", "key": "l2"}) == {
            "type": "refused", "reason": "you are not seated at nl-1: nothing to cash out",
            "code": "not_seated", "params": {}}
        assert money(casino) == left
