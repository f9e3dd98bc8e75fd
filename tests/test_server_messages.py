"""The refusals a player meets come with the message catalogue's code and parameters
(``pelisali.server.messages``), and the browser's catalogue (``web/static/messages.js``)
says every code in Finnish, Swedish and English: real refusals from the API, the
platform and the tables' rooms, each checked for its code and its params; every code has
one, no sentence has two codes, and every placeholder of a text is a param its patterns
give."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from dbfixtures import STAFF_PASSWORD, Fixed, casino, setup, sign_up
from fastapi.testclient import TestClient
from pydantic import ValidationError
from slot_games import Stops, scatter_stops
from sqlalchemy import update

from pelisali.engine import GAMES
from pelisali.engine.slots import SlotEngine
from pelisali.platform import (
    accounts,
    aml,
    card_rounds,
    colour_chips,
    passwords,
    poker_tables,
    rounds,
    tables,
)
from pelisali.platform.chemin_tables import act, create_chemin_table, put_up, sit
from pelisali.platform.db import make_engine, transaction, upgrade
from pelisali.platform.ledger import LedgerError, now_utc
from pelisali.platform.models import AmlCase, WebSession
from pelisali.platform.payments import PaymentResult
from pelisali.platform.poker_tables import CashTable, Seat, Seating
from pelisali.poker.variants import PokerError
from pelisali.rng import SeededRng
from pelisali.server.app import create_app
from pelisali.server.clock import ManualClock
from pelisali.server.live import NOT_CONNECTED, LiveRoom
from pelisali.server.messages import CATALOGUE, coded
from pelisali.server.poker_room import PokerRoom
from pelisali.server.schemas import LiveSlip
from pelisali.server.state import MOVING

MESSAGES_JS = (Path(__file__).resolve().parents[1] / "src" / "pelisali" / "web" / "static"
               / "messages.js").read_text("utf-8")
# The params messages.js gives a text itself, beyond its patterns' (an exclusion without
# an end says nothing of one).
ADDED_IN_JS = {"excluded": {"until"}}
Refusal = tuple[str, str, dict[str, str]]  # the sentence, its code, its params


def texts(lang: str) -> dict[str, str]:
    """messages.js's ``err.<code>`` texts in ``lang``, by code."""
    block = re.search(rf"^  {lang}: \{{$(.*?)^  \}},$", MESSAGES_JS, re.M | re.S)
    assert block is not None, lang
    return dict(re.findall(r'"err\.(\w+)": "((?:[^"\\]|\\.)*)"', block.group(1)))


def test_every_code_is_said_in_three_languages() -> None:
    for lang in ("fi", "sv", "en"):
        said = texts(lang)
        missing = [c for c in [*CATALOGUE, "invalid", "other", "busy"] if not said.get(c)]
        assert not missing, (lang, missing)
    for code in [*CATALOGUE, "invalid", "other", "busy"]:
        assert len(re.findall(rf'"err\.{code}":', MESSAGES_JS)) == 3, code


def test_every_placeholder_is_a_param_of_each_pattern() -> None:
    for lang in ("fi", "sv", "en"):
        for code, text in texts(lang).items():
            if code not in CATALOGUE:
                continue
            wanted = set(re.findall(r"\{(\w+)\}", text))
            for pattern in CATALOGUE[code]:
                given = set(re.compile(pattern).groupindex) | ADDED_IN_JS.get(code, set())
                assert wanted <= given, (lang, code, pattern, wanted - given)


def test_amount_params_are_formatted_as_euros() -> None:
    """Every param a pattern takes in euros is one messages.js formats with euros(), and
    so are a poker table's chips (cents); counts and minutes are not."""
    listed = re.search(r"const AMOUNTS = \[(.*?)\];", MESSAGES_JS, re.S)
    assert listed is not None
    amounts = set(re.findall(r'"(\w+)"', listed.group(1)))
    for code, patterns in CATALOGUE.items():
        for pattern in patterns:
            for name in re.compile(pattern).groupindex:
                money = re.search(rf"\(\?P<{name}>-\?\\d\[\\d \]\*", pattern)
                assert not money or name in amounts, (code, name)
    assert {"held", "wanted", "limit", "stake", "minimum", "maximum", "call", "raise_to",
            "raise_min", "raise_max"} <= amounts
    assert not {"minutes", "played", "most", "least", "seats", "seat"} & amounts


# -- real refusals ----------------------------------------------------------------------
@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    client = TestClient(create_app(casino(tmp_path)))
    sign_up(client, "ann", STAFF_PASSWORD, 10_000)
    return client


def play(client: TestClient, spot: str, amount: int, key: str = "k") -> dict[str, object]:
    answer = client.post("/api/play/roulette", json={
        "variant": "C", "key": key, "bets": [{"spot": spot, "amount": amount}]})
    assert answer.status_code in (400, 422), answer.text
    return dict(answer.json())


def test_real_refusals_carry_their_code_and_amounts(client: TestClient) -> None:
    over = play(client, "red", 20_000)
    assert (over["code"], over["params"]) == ("no_credit", {"held": "100.00",
                                                            "wanted": "200.00"})
    assert play(client, "nowhere", 100)["code"] == "no_spot"
    assert play(client, "nowhere", 100)["params"] == {"spot": "nowhere"}
    assert play(client, "red", 50)["params"] == {"stake": "0.50", "minimum": "1.00"}
    malformed = play(client, "red", -100)
    assert (malformed["code"], malformed["params"]) == ("invalid", {"fields": "bets"})
    assert isinstance(malformed["detail"], list)  # the validator's, for the API's users
    client.post("/api/limits", json={"kind": "loss", "period": "day", "amount": 500})
    assert play(client, "red", 600)["params"] == {"limit": "5.00", "period": "day"}
    client.post("/api/limits", json={"kind": "deposit", "period": "week", "amount": 1_000})
    deposit = client.post("/api/wallet/deposit", json={"amount": 2_000, "key": "d2"}).json()
    assert (deposit["code"], deposit["params"]) == ("deposit_limit", {
        "limit": "10.00", "period": "week"})
    client.post("/api/exclude", json={"days": 7})
    excluded = play(client, "red", 100, key="k2")
    until = excluded["params"]
    assert excluded["code"] == "excluded" and isinstance(until, dict)
    assert until["until"][:2] == "20"


def test_registration_and_login_refusals(tmp_path: Path) -> None:
    client = TestClient(create_app(casino(tmp_path)))
    sign_up(client, "ann", STAFF_PASSWORD)
    client.post("/api/logout")

    def register(name: str, password: str, born: str = "1990-01-01",
                 country: str = "FI") -> dict[str, object]:
        answer = client.post("/api/register", json={
            "name": name, "password": password, "born": born, "country": country})
        assert answer.status_code in (400, 422), answer.text
        return dict(answer.json())

    assert register("ann", STAFF_PASSWORD)["code"] == "name_taken"
    assert register("a b", STAFF_PASSWORD) == {**register("a b", STAFF_PASSWORD),
                                               "code": "invalid", "params": {"fields": "name"}}
    assert register("kid", STAFF_PASSWORD, born="2020-01-01")["params"] == {"age": "18"}
    assert register("bob", "short")["params"] == {"least": "8"}
    assert register("bob", "password1")["code"] == "password_common"
    wrong = client.post("/api/login", json={"name": "ann", "password": "not-it-at-all"})
    assert wrong.status_code == 401 and wrong.json()["code"] == "login"


class Bank:
    """A payment provider that declines a deposit of 13.13 € and fails its payout."""

    name = "bank"

    def charge(self, player: str, amount: int, reference: str) -> PaymentResult:
        return PaymentResult(amount != 1_313, "card refused" if amount == 1_313 else "ok")

    def payout(self, player: str, amount: int, reference: str) -> PaymentResult:
        return PaymentResult(amount != 1_313, "account closed" if amount == 1_313 else "ok")


def _api_refusals(tmp_path: Path) -> list[Refusal]:
    """The HTTP API's refusals as the browser receives them, each answer checked to
    carry the code and params expected of it."""
    engine = casino(tmp_path)
    client = TestClient(create_app(engine, rng=Fixed(0), payments=Bank()))
    found: list[Refusal] = []

    def refused(answer: Any, status: int, code: str, params: dict[str, str]) -> None:
        assert answer.status_code == status, answer.text
        body = answer.json()
        assert (body.get("code"), body.get("params")) == (code, params), body
        found.append((body["detail"], code, params))

    post = client.post

    def register(name: str, password: str = STAFF_PASSWORD, born: str = "1990-01-01",
                 country: str = "FI") -> Any:
        return post("/api/register", json={"name": name, "password": password,
                                           "born": born, "country": country})

    def slip(key: str, *bets: tuple[str, int], game: str = "roulette",
             variant: str | None = "C") -> Any:
        return post(f"/api/play/{game}", json={"variant": variant, "key": key, "bets": [
            {"spot": spot, "amount": amount} for spot, amount in bets]})

    def cards(game: str, key: str, *bets: tuple[str, int]) -> Any:
        return post(f"/api/cards/{game}", json={"key": key, "bets": [
            {"spot": spot, "amount": amount} for spot, amount in bets]})

    refused(client.get("/api/me"), 401, "logged_out", {})
    refused(register("bob", born="1800-01-01"), 400, "born", {})
    refused(register("bob", country="ZZ"), 400, "country", {})
    refused(register("bob", country="IR"), 400, "restricted_country", {"country": "IR"})
    refused(register("kid", born="2020-01-01"), 400, "under_age", {"age": "18"})
    refused(register("bob", "short"), 400, "password_short", {"least": "8"})
    sign_up(client, "ann", STAFF_PASSWORD, 10_000)
    refused(register("ann"), 400, "name_taken", {"name": "ann"})
    refused(client.get("/api/chemin/nowhere"), 404, "chemin_no_table", {"table": "nowhere"})
    wrong = {"name": "ann", "password": "not-it-at-all"}
    refused(post("/api/login", json=wrong), 401, "login", {})
    for _ in range(5):  # ann mistypes on: the guard makes her wait
        answer = post("/api/login", json=wrong)
    assert answer.status_code == 429 and answer.json()["params"]["seconds"].isdigit()
    refused(answer, 429, "too_many_logins", answer.json()["params"])
    # The wallet and the limits.
    refused(post("/api/wallet/deposit", json={"amount": 1_313, "key": "d2"}), 400,
            "payment_declined", {})
    refused(post("/api/wallet/withdraw", json={"amount": 1_313, "key": "w1"}), 400,
            "payout_failed", {})
    refused(post("/api/wallet/withdraw", json={"amount": 20_000, "key": "w2"}), 400,
            "no_credit", {"held": "100.00", "wanted": "200.00"})
    refused(post("/api/wallet/deposit", json={"amount": 100, "key": "d1"}), 409,
            "key_reused", {})
    for kind, period, amount, code, params in (
            ("session", "session", 0, "session_minutes", {"most": "1440"}),
            ("session", "day", 60, "limit_period", {}),
            ("loss", "session", 500, "limit_period", {})):
        refused(post("/api/limits", json={"kind": kind, "period": period, "amount": amount}),
                400, code, params)
    # The wager games and the card games.
    refused(cards("punto-banco", "p0", ("player", 50_000)), 400, "balance_low",
            {"held": "100.00"})
    refused(slip("m1", ("red", 100_000), ("red", 100)), 400, "at_maximum",
            {"spot": "red", "maximum": "1000.00"})
    refused(slip("m2", ("red", 50)), 400, "under_minimum", {"stake": "0.50", "minimum": "1.00"})
    refused(slip("g1", ("red", 100), game="poker", variant=None), 404, "no_game", {})
    refused(slip("g2", ("red", 100), variant="X"), 400, "no_game", {})
    refused(slip("s1", ("straight 40", 100)), 400, "no_spot", {"spot": "straight 40"})
    refused(cards("punto-banco", "p1", ("dragon", 500)), 400, "no_spot", {"spot": "dragon"})
    refused(cards("blackjack/deal", "b1", ("x", 500)), 400, "no_spot", {"spot": "x"})
    refused(cards("blackjack/deal", "b2", ("9", 500)), 400, "seat_range", {"most": "7"})
    refused(cards("blackjack/deal", "b3", ("1", 500), ("1", 500)), 400, "seat_has_bet",
            {"seat": "1"})
    refused(post("/api/cards/blackjack/act", json={"action": "hit"}), 400,
            "no_round_in_play", {})
    assert slip("r1", ("red", 100)).status_code == 200
    refused(slip("r1", ("black", 100)), 409, "key_reused", {})
    # Roulette D's zero (the wheel always lands on it): the choices.
    waiting = slip("z1", ("red", 1_000), ("black", 1_000), variant="D").json()
    round_id = waiting["round_id"]
    assert sorted(waiting["pending"]) == ["1", "2"]

    def choose(bet: int, option: str, game: str = "roulette") -> Any:
        return post(f"/api/play/{game}/choose", json={"round_id": round_id, "bet_id": bet,
                                                      "option": option})

    refused(choose(1, "bogus"), 400, "not_an_option", {})
    refused(choose(9, "half"), 400, "no_round", {})
    refused(choose(1, "half", game="boule"), 404, "no_round", {})
    assert choose(1, "half").status_code == 200
    refused(choose(1, "half"), 400, "no_choice", {})
    assert choose(2, "prison").status_code == 200
    refused(choose(2, "half"), 400, "no_choice", {})
    refused(client.get("/api/recall/999"), 404, "no_round", {})
    # The limits a player set: loss, deposit, session time; then a time-out.
    post("/api/limits", json={"kind": "loss", "period": "day", "amount": 500})
    refused(slip("l1", ("red", 600)), 400, "loss_limit", {"limit": "5.00", "period": "day"})
    post("/api/limits", json={"kind": "deposit", "period": "week", "amount": 1_000})
    refused(post("/api/wallet/deposit", json={"amount": 2_000, "key": "d3"}), 400,
            "deposit_limit", {"limit": "10.00", "period": "week"})
    assert post("/api/limits", json={"kind": "session", "period": "session",
                                     "amount": 1}).json()["at_once"]
    with transaction(engine) as s:  # ann logged in 61 minutes ago
        s.execute(update(WebSession).where(WebSession.name == "ann").values(
            created_at=now_utc() - timedelta(minutes=61, seconds=5)))
    refused(slip("t1", ("red", 100)), 400, "session_time_limit",
            {"minutes": "1", "played": "61"})
    post("/api/exclude", json={"days": 7})
    answer = slip("e1", ("red", 100))
    until = answer.json()["params"]["until"]
    assert until[:10] == (now_utc() + timedelta(days=7)).date().isoformat()
    refused(answer, 400, "excluded", {"until": until})
    refused(post("/api/wallet/deposit", json={"amount": 100, "key": "d4"}), 400,
            "excluded", {})
    return found


def _blackjack_refusals(tmp_path: Path) -> list[Refusal]:
    """A live blackjack table's round dealt from the cards on top of its shoe: ann in
    seats 1 (6 5) and 2 (9 7), bob in seat 3 (T 8), the dealer's ace over a six."""
    engine = make_engine(f"sqlite:///{tmp_path / 'bj.db'}")
    upgrade(engine)
    setup(engine)
    found: list[Refusal] = []

    def refused(code: str, params: dict[str, str], step: Callable[..., Any],
                *args: Any) -> None:
        with pytest.raises(LedgerError) as caught, transaction(engine) as s:
            step(s, *args)
        found.append((str(caught.value), code, params))

    def decide(s: Any, player: str, decision: tables.Decision) -> None:
        tables.decide(s, "bj-live", player, decision)

    def well(player: str, decision: tables.Decision) -> None:
        with transaction(engine) as s:
            decide(s, player, decision)

    with transaction(engine) as s:
        tables.create(s, "bj-live", "blackjack", mode="live")
        tables.place(s, "bj-live", "ann", [("1", 1_000), ("2", 1_000)], "a1")
        tables.place(s, "bj-live", "bob", [("3", 1_000)], "b1")
        view = card_rounds.deal_blackjack(s, "bj-live", SeededRng(1), stack=[
            "6h", "9c", "Td", "As", "5d", "7d", "8c", "6d"])
    assert view.insurance_max  # the dealer's ace: insurance first
    refused("round_in_play", {}, tables.place, "bj-live", "ann", [("4", 1_000)], "a2")
    refused("insurance_max", {"maximum": "5.00"}, decide, "ann", tables.Insurance(1, 10_000))
    refused("insurance_first", {}, decide, "ann", tables.HandDecision("hit"))
    refused("seat_no_bet", {"seat": "5"}, decide, "ann", tables.Insurance(5, 0))
    well("ann", tables.Insurance(2, 0))  # held for seat 2's turn
    refused("insured_already", {"seat": "2"}, decide, "ann", tables.Insurance(2, 0))
    well("ann", tables.Insurance(1, 0))
    well("bob", tables.Insurance(3, 0))
    refused("no_insurance", {}, decide, "ann", tables.Insurance(1, 0))
    refused("not_your_turn", {"name": "ann"}, decide, "bob", tables.HandDecision("stand"))
    refused("double_range", {"stake": "10.00"}, decide, "ann", tables.HandDecision("double", 0))
    refused("not_allowed_now", {"action": "split", "allowed": "hit, stand, double"},
            decide, "ann", tables.HandDecision("split"))
    return found


def _poker_refusals(tmp_path: Path) -> list[Refusal]:
    """A cash table's seats and hands (``CashTable``, as the poker room plays them):
    buy-ins, leaving, and the actions a hand refuses, at hold'em, five-card draw,
    pineapple and stud."""
    engine = make_engine(f"sqlite:///{tmp_path / 'poker.db'}")
    upgrade(engine)
    setup(engine, ("ann", "bob", "cid"))
    found: list[Refusal] = []

    def refused(code: str, params: dict[str, str], step: Callable[..., Any],
                *args: Any, **kwargs: Any) -> None:
        with pytest.raises((LedgerError, PokerError)) as caught:
            step(*args, **kwargs)
        found.append((str(caught.value), code, params))

    with transaction(engine) as s:
        for game in ("holdem", "draw", "pineapple", "stud"):
            poker_tables.create_table(s, f"t-{game}", game, small_blind=50, big_blind=100,
                                      min_buy_in=2_000)
    table = CashTable.open(engine, "t-holdem", SeededRng(1))
    refused("buy_in_amount", {}, table.buy_in, "ann", 0, "a0")
    refused("buy_in", {"minimum": "20.00"}, table.buy_in, "ann", 100, "a0")
    refused("no_credit", {"held": "10000.00", "wanted": "20000.00"},
            table.buy_in, "ann", 2_000_000, "a0")
    assert table.buy_in("ann", 10_000, "a1") == 0
    refused("seated_already", {}, table.buy_in, "ann", 5_000, "a2", top_up=False)
    refused("not_seated", {}, table.sit_out, "cid")
    assert table.buy_in("bob", 2_000, "b1") == 1
    hand = table.start_hand()
    refused("between_hands", {}, table.buy_in, "cid", 5_000, "c1")
    refused("between_hands", {}, table.cash_out, "ann", "a-out")
    legal = hand.legal()  # ann, on the button, faces the big blind
    assert (legal.call, legal.raise_min, legal.raise_max) == (50, 200, 10_000)
    refused("to_call", {"call": "50"}, hand.act, "check")
    refused("raise_amount", {}, hand.act, "raise")
    refused("raise_range", {"raise_to": "150", "raise_min": "200", "raise_max": "10000"},
            hand.act, "raise", 150)
    refused("no_draw", {}, hand.draw, [])
    refused("no_draw", {}, hand.discard, "As")
    hand.act("call")
    refused("nothing_to_call", {}, hand.act, "call")  # bob's big blind: he may check
    refused("nothing_to_call", {}, hand.act, "fold")
    hand.act("raise", 2_000)  # bob is all in
    refused("no_raise", {}, hand.act, "raise", 4_000)
    hand.act("call")
    refused("no_action_due", {}, hand.act, "fold")
    with transaction(engine) as s:
        accounts.set_limit(s, "cid", "loss", "day", 500)
    refused("loss_limit", {"limit": "5.00", "period": "day"},
            CashTable.open(engine, "t-draw", SeededRng(3)).buy_in, "cid", 2_000, "c2")
    refused("table_full", {"seats": "1"},
            Seating(seats=(Seat("bob", 2_000),)).sit, "cid", 2_000, 1_000)
    # five-card draw: after the first betting round, the draw
    draw = CashTable.open(engine, "t-draw", SeededRng(3))
    draw.buy_in("ann", 10_000, "d-a")
    draw.buy_in("bob", 10_000, "d-b")
    hand = draw.start_hand()
    while not hand.drawing:
        hand.act("check" if hand.legal().check else "call")
    refused("draw_first", {}, hand.act, "check")
    refused("not_your_card", {"card": "Zz"}, hand.draw, ["Zz"])
    held = hand.hole[hand.actor or 0][0]
    refused("card_twice", {}, hand.draw, [held, held])
    # pineapple: each player throws a hole card away after the flop's betting
    pineapple = CashTable.open(engine, "t-pineapple", SeededRng(3))
    pineapple.buy_in("ann", 10_000, "p-a")
    pineapple.buy_in("bob", 10_000, "p-b")
    hand = pineapple.start_hand()
    while not hand.discarding:
        hand.act("check" if hand.legal().check else "call")
    refused("discard_first", {}, hand.act, "check")
    # stud: the bring-in is posted, never folded
    stud = CashTable.open(engine, "t-stud", SeededRng(3))
    stud.buy_in("ann", 10_000, "s-a")
    stud.buy_in("bob", 10_000, "s-b")
    refused("bring_in", {}, stud.start_hand().act, "fold")
    return found


def _room_refusals(tmp_path: Path) -> list[Refusal]:
    """What the poker room and a live table's room answer a player's socket."""
    engine = make_engine(f"sqlite:///{tmp_path / 'rooms.db'}")
    upgrade(engine)
    setup(engine)
    with transaction(engine) as s:
        poker_tables.create_table(s, "nl-1", small_blind=50, big_blind=100, min_buy_in=2_000)
        rounds.create_table(s, "live-1", "roulette", "C", mode="live")
    found: list[Refusal] = []

    def said(answer: dict[str, Any], code: str, params: dict[str, str]) -> None:
        assert answer["type"] in ("refused", "bet-refused"), answer
        if answer["type"] == "bet-refused":  # the live room gives the code and params too
            assert (answer["code"], answer["params"]) == (code, params), answer
        found.append((answer["reason"], code, params))

    async def poker() -> None:
        room = PokerRoom(engine, "nl-1", SeededRng(2), clock=ManualClock())
        with pytest.raises(LedgerError) as caught:
            _ = room.cash  # before the room has opened its table
        found.append((str(caught.value), "unavailable", {}))
        await room.start()
        try:
            ask = room.answer
            said(await ask({"type": "act", "player": "ann", "action": "fold"}),
                 "no_action_due", {})
            said(await ask({"type": "sit", "player": "ann", "amount": 5_000}), "no_key", {})
            said(await ask({"type": "leave", "player": "ann"}), "no_key", {})
            said(await ask({"type": "leave", "player": "ann", "key": "l1"}), "not_seated", {})
            assert (await ask({"type": "sit", "player": "ann", "amount": 5_000,
                               "key": "s1"}))["type"] == "seated"
            said(await ask({"type": "sit", "player": "ann", "amount": 6_000, "key": "s1"}),
                 "key_reused", {})
            said(await ask({"type": "sit", "player": "ann", "amount": 6_000, "key": "s2"}),
                 "seated_already", {})
            assert (await ask({"type": "sit", "player": "bob", "amount": 5_000,
                               "key": "b1"}))["type"] == "seated"
            for _ in range(100):  # the room deals as soon as two players sit
                if room.cash.hand is not None:
                    break
                await asyncio.sleep(0)
            hand = room.cash.hand
            assert hand is not None and hand.actor is not None
            actor = room.cash.in_hand[hand.actor]
            other = "bob" if actor == "ann" else "ann"
            said(await ask({"type": "act", "player": other, "action": "fold"}),
                 "not_your_turn", {"name": actor})
        finally:
            await room.stop()

    async def live() -> None:
        room = LiveRoom(engine, "live-1", SeededRng(2), clock=ManualClock())
        await room.start()
        try:
            bet = {"type": "bet", "player": "ann", "bets": [["red", 100]], "key": "k1"}
            said(await room.handle(bet), "not_connected", {})
            await room.handle({"type": "join", "player": "ann"})
            said(await room.handle(bet), "closed", {})  # the first window is not yet open
        finally:
            await room.stop()

    asyncio.run(poker())
    asyncio.run(live())
    with pytest.raises(ValidationError) as invalid:  # what a live socket answers with
        LiveSlip.model_validate({"type": "bet", "bets": [], "key": "k1"})
    found.append((str(invalid.value)[:300], "malformed", {}))
    return found


def _chips_refusals() -> list[Refusal]:
    """The colour chips' refusals (RAY 1.2.1, 1.2.2, 1.3.2 "Pelipanokset"), in the
    platform's words."""
    engine = make_engine("sqlite://")
    upgrade(engine)
    setup(engine)
    with transaction(engine) as s:
        rounds.create_table(s, "r1", "roulette", "C", limit_min=100, limit_max=50_000)
        rounds.create_table(s, "r2", "roulette", "C", limit_min=100, limit_max=50_000)
        rounds.create_table(s, "mw", "money-wheel")
        colour_chips.set_chips(s, "r1", "colour", "floor")
        colour_chips.buy(s, "r1", "bob", "red", 1_000, 5, key="c1")
        rounds.place_bet(s, "r1", "bob", "red", 1_000, key="b1")
    found: list[Refusal] = []

    def refused(code: str, params: dict[str, str], step: Callable[..., Any],
                *args: Any, **kwargs: Any) -> None:
        with pytest.raises(LedgerError) as caught, transaction(engine) as s:
            step(s, *args, **kwargs)
        found.append((str(caught.value), code, params))

    buy, chips = colour_chips.buy, colour_chips.set_chips
    refused("chips_value_only", {"section": "RAY 1.2.1"}, buy, "r2", "ann", "red", 100, 1,
            key="k")
    refused("chips_value_only", {"section": "RAY 1.2.3"}, chips, "mw", "colour", "floor")
    refused("chips_setting", {}, chips, "r1", "gold", "floor")
    refused("chips_in_play", {}, chips, "r1", "value", "floor")
    refused("chips_colour_only", {}, rounds.place_bet, "r1", "ann", "red", 500, key="b2")
    refused("chips_no_colour", {"colour": "gold"}, buy, "r1", "ann", "gold", 100, 1, key="k")
    refused("chips_colour_taken", {"colour": "red"}, buy, "r1", "ann", "red", 100, 1, key="k")
    refused("chips_unit", {"minimum": "1.00", "maximum": "500.00"}, buy, "r1", "ann", "blue",
            50, 1, key="k")
    refused("chips_count", {"most": "1000"}, buy, "r1", "ann", "blue", 100, 1_001, key="k")
    refused("chips_other_stack", {"colour": "red", "stake": "10.00"}, buy, "r1", "bob",
            "blue", 100, 1, key="k")
    refused("chips_bets_standing", {}, colour_chips.exchange, "r1", "bob", key="x")
    refused("chips_none", {}, colour_chips.exchange, "r1", "ann", key="x")
    refused("chips_whole", {"minimum": "10.00", "stake": "15.00"}, rounds.place_bet, "r1",
            "bob", "black", 1_500, key="b3")
    return found


def _slot_refusals(tmp_path: Path) -> list[Refusal]:
    """The slots' refusals over the API: a bet off the rule lists, a spin while free spins
    are left, a free spin with none to play or naming spins the player was not shown."""
    video = GAMES["slot-video"]
    assert isinstance(video, SlotEngine)
    client = TestClient(create_app(casino(tmp_path), rng=Stops(scatter_stops(video, (0, 2, 4)))))
    sign_up(client, "ann", STAFF_PASSWORD, 10_000)
    found: list[Refusal] = []

    def refused(answer: Any, status: int, code: str, params: dict[str, str]) -> None:
        assert answer.status_code == status, answer.text
        body = answer.json()
        assert (body.get("code"), body.get("params")) == (code, params), body
        found.append((body["detail"], code, params))

    def spin(lines: int, cents: int, key: str) -> Any:
        return client.post("/api/slots/slot-video/spin",
                           json={"lines": lines, "cents": cents, "key": key})

    refused(spin(7, 5, "a"), 400, "slot_lines", {"lines": "7", "choices": "1, 5, 10, 15, 20"})
    refused(spin(20, 3, "b"), 400, "slot_level",
            {"cents": "3", "levels": "1, 2, 5, 10, 25, 50"})
    refused(client.post("/api/slots/slot-fruit/free-spin", json={"seen": 1}), 409,
            "slot_no_free", {})
    round_id = str(spin(20, 5, "c").json()["round_id"])  # three stars: ten free spins
    refused(spin(20, 5, "d"), 400, "slot_free_left", {"round": round_id, "left": "10"})
    refused(client.post("/api/slots/slot-video/free-spin", json={"seen": 3}), 409,
            "slot_seen", {"round": round_id, "shown": "1", "seen": "3"})
    return found


def _platform_refusals() -> list[Refusal]:
    """Refusals the API's schemas keep from a browser's well-formed requests, or that
    need a staff member: the platform's own words."""
    engine = make_engine("sqlite://")
    upgrade(engine)
    setup(engine)
    found: list[Refusal] = []

    def refused(code: str, params: dict[str, str], step: Callable[..., Any],
                *args: Any) -> None:
        with pytest.raises(LedgerError) as caught, transaction(engine) as s:
            step(s, *args)
        found.append((str(caught.value), code, params))

    def restricted(s: Any) -> None:
        accounts.set_status(s, "bob", "restricted", "a check of age", "floor")
        accounts.may_play(accounts.find(s, "bob"))

    refused("name_form", {}, lambda s: accounts.check_registration("a b", date(1990, 1, 1),
                                                                   "FI"))
    refused("account", {"status": "restricted"}, restricted)

    def case(s: Any, rule: str, status: str = "open") -> int:
        row = AmlCase(rule=rule, player="ann", evidence='{"rounds": []}', through=1,
                      status=status, opened_at=now_utc(), note="")
        s.add(row)
        s.flush()
        return row.id

    refused("aml_no_case", {"case": "99"}, aml.close_case, 99, "floor", "seen")
    refused("aml_note", {}, aml.void_case, 1, "floor", " ")
    refused("aml_case_done", {"case": "1"},
            lambda s: aml.close_case(s, case(s, "rapid_cash", "closed"), "floor", "seen"))
    refused("aml_not_joint_play", {"case": "1", "rule": "little_play"},
            lambda s: aml.void_case(s, case(s, "little_play"), "floor", "seen"))
    with transaction(engine) as s:
        create_chemin_table(s, "cf")
        for name in ("ann", "bob"):
            sit(s, "cf", name, key=f"cf-{name}")
    refused("chemin_no_coup", {}, act, "cf", "bob", "banco", "cf-k1")
    refused("chemin_banker", {"who": "ann"}, put_up, "cf", "bob", 1_000, "cf-k2")
    refused("chemin_bank", {"minimum": "1.00", "maximum": "1000.00"}, put_up, "cf", "ann",
            50, "cf-k3")
    with transaction(engine) as s:
        put_up(s, "cf", "ann", 5_000, key="cf-k4", rng=SeededRng(1))
    refused("chemin_stake", {"minimum": "1.00", "maximum": "50.00"}, act, "cf", "bob",
            "bet 6000", "cf-k5")
    refused("chemin_turn", {"who": "bob"}, act, "cf", "ann", "pass", "cf-k6")
    found += [(str(passwords.weakness(password, name)), code, params)
              for password, name, code, params in (
                  ("x" * 201, "", "password_long", {"most": "200"}),
                  ("abcabcabc", "", "password_weak", {}),
                  ("bobbybob1", "bobbybob", "password_name", {}),
                  ("        ", "", "password_common", {}))]
    with transaction(engine) as s:
        s.add(WebSession(token_hash="t", name="ann", role="player",
                         created_at=now_utc() - timedelta(minutes=30),
                         expires_at=now_utc() + timedelta(hours=1)))
        over = accounts.session_time_over(s, "ann", 20)
    found.append((str(over), "session_time_limit", {"minutes": "20", "played": "30"}))
    return found


# What the server says where the cause is costly to bring about here (a race, a crash, a
# flood, the bus down): literal copies of the f-strings' output.
LITERAL: list[Refusal] = [
    ("the slip was not placed: send it again", "send_again", {}),
    ("the slip was not played: send it again", "send_again", {}),
    ("no credit: player:ann changed while this was written and one of them cannot pay",
     "balance_low", {}),
    ("rng-roulette-C-ann is closed", "closed", {}),
    ("rng-roulette-D-ann round 3 waits for a choice", "deciding", {}),
    ("too many bets: slow down", "too_fast", {}),
    ("too many messages: slow down", "too_fast", {}),
    ("more than 30 messages a second", "too_fast", {}),
    ("too many new accounts: try again later", "too_many_accounts", {}),
    ("at most 4 table connections at once: close one", "too_many_sockets", {"most": "4"}),
    ("messages: hello {since}, bet", "malformed", {}),
    ("messages: hello", "malformed", {}),  # the chemin de fer socket's
    ("the stub and the thrown cards hold 3, not 5", "draw_too_many", {"most": "3"}),
    ("the table failed: RuntimeError('boom')", "unavailable", {}),
    ("the table cannot be reached now: the message bus is down: OSError()", "unavailable", {}),
    ("the table is not open", "unavailable", {}),
    (MOVING, "unavailable", {}),
    (NOT_CONNECTED, "not_connected", {}),
    ("ann: self-excluded", "excluded", {}),
    ("case 4: bet 2 of round 17 is still in prison; void the case once it is settled",
     "aml_in_prison", {"case": "4", "bet": "2", "round": "17"}),
    ("case 4: bet 2 of round 17 is not the bet its evidence names", "aml_evidence",
     {"case": "4", "bet": "2", "round": "17"}),
    # the tournaments' refusals (tests/test_server_tournaments.py meets each for real)
    ("there is no tournament 999", "no_tournament", {"tournament": "999"}),
    ("ann is already in the tournament", "tournament_entered", {}),
    ("ann has made every entry allowed (2)", "tournament_entered", {"most": "2"}),
    ("registration is closed: the field is full or play has begun", "registration_closed", {}),
    ("ann is not registered", "not_registered", {}),
    ("you are not playing in tournament 3", "not_registered", {}),
    ("a player can unregister only before the start", "tournament_started", {}),
    ("tournament 3 is registering", "tournament_not_running", {}),
    ("1 validation error for TournamentMessage\ntype", "malformed", {}),
    ("rebuys are closed", "rebuys_closed", {}),
    ("a rebuy is for a stack at or below the starting chips", "rebuy_stack", {}),
    ("the add-on is taken at the break after the rebuy period", "add_on_not_now", {}),
    ("bob has taken the add-on", "add_on_taken", {}),
    # a table-game or slot tournament's (tests/test_server_leaderboard_tournaments.py)
    ("the time is up: no more rounds", "board_time_up", {}),
    ("the tournament is finished: the time is up", "board_time_up", {}),
    ("the tournament is registering", "tournament_not_running", {}),
    ("p1#1 has played all 20 rounds", "board_rounds_done", {"rounds": "20"}),
    ("p1#1 has 50 chips, under the least bet 100: out", "board_out", {"chips": "100"}),
    ("p1#1 has 900 chips; the round would stake 1000", "board_short",
     {"chips": "900", "needed": "1000"}),
    ("a round stakes at least 100 chips, not 50", "board_bet_least", {"chips": "100"}),
    ("a round stakes at most 2500 chips, not 2600", "board_bet_most", {"chips": "2500"}),
    ("p1#1 has a round in play: decide (hit, stand)", "board_round_open",
     {"actions": "hit, stand"}),
    ("p1#1 has no round in play", "board_no_round", {}),
    ("p1#1 is not your entry in tournament 3", "not_registered", {}),
    # Three Card Poker's and Red Dog's (tests/test_server_banked.py meets each for real)
    ("rng-three-card-poker-ann: round 4 waits for a decision (play, fold)",
     "decision_waiting", {"round": "4", "actions": "play, fold"}),
    ("no round waits for a decision at rng-red-dog-ann", "no_decision_due", {}),
    ("a raise is 0.01 to the ante (3.00), not 3.01", "raise_to_ante",
     {"ante": "3.00", "stake": "3.01"}),
    ("Red Dog has no bet 'pair-plus' before the deal; bets: ante", "no_spot",
     {"spot": "pair-plus"}),
    # Ultimate Texas Hold'em's progressive (tests/test_server_banked.py meets the first
    # three for real, tests/test_ultimate_texas.py the last)
    ("the casino runs no progressive at its ultimate-texas-holdem tables",
     "progressive_closed", {}),
    ("the progressive takes its fee, 1.00, not 5.00", "progressive_fee",
     {"fee": "1.00", "stake": "5.00"}),
    ("Trips and the progressive are bet with an ante (and its blind), not alone",
     "side_bet_alone", {}),
    ("the progressive is bet once a round", "progressive_once", {}),
    # Texas Hold'em Bonus' (tests/test_server_banked.py meets each for real)
    ("the Bonus and the progressive are bet with an ante, not alone", "bonus_alone", {}),
    ("'bet turn' is not open before the flop; open: fold, bet flop", "decision_not_open",
     {"action": "bet turn", "open": "fold, bet flop"}),
    # Oasis Stud Poker's exchange (tests/test_server_banked.py meets each for real)
    ("'Zz' is not a card (rank 2-9 T J Q K A, suit c d h s)", "not_a_card", {"card": "Zz"}),
    ("2d is not in seat 0's hand (As Kd 4c 7h 9s)", "exchange_not_held",
     {"card": "2d", "hand": "As Kd 4c 7h 9s"}),
    ("4c is named twice; each card is exchanged once", "exchange_twice", {"card": "4c"}),
    ("seat 0 has exchanged its cards; a box exchanges once", "exchange_once", {}),
    # a decision in another game's shape, a word no game here takes, a deal without a bet
    # (tests/test_server_banked.py meets them for real)
    ("a raise carries its amount in cents (Oasis Stud Poker's and Russian Poker's none: it "
     "is 2 times the ante); nothing else does", "decision_shape", {}),
    ("sixth, buy and take are Russian Poker's decisions, and no other game's",
     "decision_shape", {}),
    ("'check' is not an action here: 'bet ante CENTS', 'done', 'exchange CARDS', 'sixth', "
     "'raise', 'fold', 'buy' or 'take'", "not_an_action", {"action": "check"}),
    ("a round needs a bet", "needs_a_bet", {}),
    ("Pai Gow Poker has no bet 'trips'; bets: ante, bank", "no_spot", {"spot": "trips"}),
    # Russian Poker's draw and bought game (tests/test_server_banked.py meets them for real)
    ("seat 0 has drawn; a box draws once", "draw_once", {}),
    # (only where a hall's rule data says so: tests/test_russian_poker.py meets them)
    ("a box exchanges 2 to 5 cards, not 1", "exchange_count",
     {"least": "2", "most": "5", "count": "1"}),
    ("these rules sell no sixth card", "no_sixth_card", {}),
    ("the dealer does not qualify: 'take' the ante paid 1:1 or 'buy' the dealer a game for "
     "one ante", "no_game_answer", {}),
    ("a box may buy when the dealer does not qualify, once every box has bet or folded",
     "no_game_not_yet", {}),
    # Pai Gow Poker's setting (tests/test_server_banked.py meets each for real)
    ("the low hand is 2 cards, not 3", "low_hand_count", {"count": "3"}),
    ("Jk is named twice; the low hand is two cards", "low_hand_twice", {"card": "Jk"}),
    # Pai Gow Poker's bank (tests/test_server_banked.py meets them for real)
    ("a box bets against the bank or banks, not both", "bank_or_bet", {}),
    ("the house banks every other round: bet against its bank before you bank again",
     "bank_house_between", {}),
    ("a player banks after a round bet against the house's bank", "bank_first", {}),
    ("a bank is at most 11.00: your last bet against the house's bank, 10.00, and 10 % "
     "more; not 12.00", "bank_most",
     {"bank_most": "11.00", "last_bet": "10.00", "percent": "10", "stake": "12.00"}),
    # provably fair draws (tests/test_provably_fair*.py meet each for real)
    ("a client seed is 1 to 64 letters, digits, - or _", "fair_client_seed", {}),
    ("provably fair draws are offered at the wheels, dice, slots, punto banco, blackjack "
     "and the banked card games, not poker", "fair_not_offered", {"game": "poker"}),
    ("rng-roulette-D-ann: provably fair draws are not offered under the zero rule where "
     "the players choose", "fair_not_offered", {}),
    ("the seed pair has drawn no round yet: nothing to reveal", "fair_nothing_to_reveal",
     {}),
    ("round 12 was not drawn provably fair", "fair_not_fair", {"round": "12"}),
    ("rng-red-dog-ann: finish the round in play before the seed is revealed",
     "fair_round_in_play", {}),
    ("round 12 is in play: it is verified once it is over", "fair_round_in_play",
     {"round": "12"}),
]


@pytest.fixture(scope="module")
def refusals(tmp_path_factory: pytest.TempPathFactory) -> list[Refusal]:
    """Every refusal gathered here: (sentence, its code, its params)."""
    made = [*_api_refusals(tmp_path_factory.mktemp("api")),
            *_blackjack_refusals(tmp_path_factory.mktemp("bj")),
            *_poker_refusals(tmp_path_factory.mktemp("poker")),
            *_room_refusals(tmp_path_factory.mktemp("rooms")),
            *_slot_refusals(tmp_path_factory.mktemp("slots")),
            *_platform_refusals(), *_chips_refusals(), *LITERAL]
    return made


def test_each_refusal_has_its_code_and_params(refusals: list[Refusal]) -> None:
    wrong = [(sentence, code, params, coded(sentence))
             for sentence, code, params in refusals if coded(sentence) != (code, params)]
    assert not wrong, wrong


def test_every_code_has_a_real_refusal(refusals: list[Refusal]) -> None:
    assert set(CATALOGUE) - {code for _, code, _ in refusals} == set()


def test_no_sentence_matches_two_codes(refusals: list[Refusal]) -> None:
    for sentence, _, _ in refusals:
        matching = {code for code, patterns in CATALOGUE.items()
                    if any(re.search(p, sentence) for p in patterns)}
        assert len(matching) == 1, (sentence, matching)


def test_a_sentence_the_catalogue_does_not_know_has_no_code() -> None:
    assert coded("the shoe is out of cards") is None
