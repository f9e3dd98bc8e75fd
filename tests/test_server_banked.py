"""The banked card games over the HTTP API: the rules and pay tables, a deal and a
decision paid as the engine pays the same cards, the round waiting found again after a
reload, a retried request taken once, a key sent with another request refused (409),
recall, refusals coded for the player with nothing changed, and the ledger whole."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dbfixtures import STAFF_PASSWORD, casino, sign_up
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from pelisali.cards import DECK
from pelisali.engine import GAMES, Seats, State
from pelisali.platform import jackpots
from pelisali.platform.banked_rounds import open_progressive
from pelisali.platform.db import transaction
from pelisali.platform.ledger import check
from pelisali.platform.rounds import reconcile_bets
from pelisali.rng import SeededRng
from pelisali.server.app import create_app


@pytest.fixture
def db(tmp_path: Path) -> Engine:
    return casino(tmp_path)


@pytest.fixture
def client(db: Engine) -> Iterator[TestClient]:
    client = TestClient(create_app(db, rng=SeededRng(7)))
    sign_up(client, "ann", STAFF_PASSWORD, 10_000)
    yield client


def engine_round(game: str, history: list[dict[str, Any]]) -> State:
    state = GAMES[game].new_state(Seats(1))
    for move in history:
        state = state.apply(move["text"]).state
    return state


def recorded(client: TestClient, round_id: int) -> dict[str, Any]:
    answer = client.get(f"/api/recall/{round_id}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_the_games_show_their_rules_limits_and_pay_tables(client: TestClient) -> None:
    listed = client.get("/api/banked").json()["games"]
    assert [g["game"] for g in listed] == ["three-card-poker", "red-dog", "ultimate-texas-holdem",
                                           "texas-holdem-bonus", "oasis-stud", "pai-gow-poker",
                                           "russian-poker"]
    tcp = client.get("/api/banked/three-card-poker").json()
    assert (tcp["min"], tcp["max"], tcp["spots"], tcp["playing"]) == (
        100, 50_000, ["ante", "pair-plus"], None)
    assert tcp["pays"]["pair_plus"] == {"pair": 1, "flush": 4, "straight": 6,
                                        "three_of_a_kind": 30, "straight_flush": 40}
    assert "standard rules" in tcp["standard"]
    red = client.get("/api/banked/red-dog").json()
    assert red["pays"]["spread"] == {"1": 5, "2": 4, "3": 2, "4": 1}
    assert red["pays"]["three_of_a_kind"] == 11
    assert client.get("/api/banked/baccarat-chemin").status_code == 404


def test_a_deal_waits_for_the_decision_across_a_reload_and_pays_as_the_engine(
        client: TestClient, db: Engine) -> None:
    dealt = client.post("/api/banked/three-card-poker/deal",
                        json={"bets": {"ante": 500, "pair-plus": 200}, "key": "d1"})
    assert dealt.status_code == 200, dealt.text
    first = dealt.json()
    assert first["status"] == "playing" and first["actions"] == ["play", "fold"]
    assert first["balance"] == 10_000 - 700 and len(first["cards"]) == 3
    assert first["dealer"] == []  # face down until the decision
    again = client.post("/api/banked/three-card-poker/deal",
                        json={"bets": {"ante": 500, "pair-plus": 200}, "key": "d1"}).json()
    assert again == first  # a retry, answered
    assert client.post("/api/banked/three-card-poker/deal",
                       json={"bets": {"ante": 900}, "key": "d1"}).status_code == 409
    reloaded = client.get("/api/banked/three-card-poker").json()["playing"]
    assert reloaded == first
    done = client.post("/api/banked/three-card-poker/decide",
                       json={"action": "play", "key": "p1"}).json()
    assert done["status"] == "settled" and done["staked"] == 1_200
    assert recorded(client, done["round_id"])["same"]
    engine = engine_round("three-card-poker", _history(db, done["round_id"]))
    paid = sum(s.paid for s in engine.settlements)
    assert done["paid"] == paid and done["balance"] == 10_000 - 1_200 + paid
    assert client.post("/api/banked/three-card-poker/decide",
                       json={"action": "play", "key": "p1"}).json() == done
    with transaction(db) as s:
        assert check(s).ok and reconcile_bets(s).ok


def _history(db: Engine, round_id: int) -> list[dict[str, Any]]:
    import json

    from pelisali.platform.models import RoundRow

    with transaction(db) as s:
        row = s.get(RoundRow, round_id)
        assert row is not None
        history: list[dict[str, Any]] = json.loads(row.record)["history"]
        return history


def test_red_dog_raises_by_an_amount_and_stands(client: TestClient, db: Engine) -> None:
    raised = stood = 0
    for number in range(6):  # within a player's 20 slips a second
        dealt = client.post("/api/banked/red-dog/deal",
                            json={"bets": {"ante": 300}, "key": f"d{number}"}).json()
        assert "status" in dealt, dealt
        if dealt["status"] == "settled":
            continue
        if raised <= stood:
            over = client.post("/api/banked/red-dog/decide",
                               json={"action": "raise", "amount": 301, "key": f"x{number}"})
            assert over.status_code == 400 and over.json()["code"] == "raise_to_ante"
            done = client.post("/api/banked/red-dog/decide",
                               json={"action": "raise", "amount": 300, "key": f"r{number}"})
            raised += 1
        else:
            done = client.post("/api/banked/red-dog/decide",
                               json={"action": "stand", "key": f"s{number}"})
            stood += 1
        assert done.status_code == 200, done.text
        engine = engine_round("red-dog", _history(db, done.json()["round_id"]))
        assert done.json()["paid"] == sum(s.paid for s in engine.settlements)
    assert raised and stood
    with transaction(db) as s:
        assert check(s).ok and reconcile_bets(s).ok


@pytest.mark.parametrize(("path", "body", "status", "code"), [
    ("three-card-poker/deal", {"bets": {"side": 100}, "key": "a"}, 422, "invalid"),
    ("three-card-poker/deal", {"bets": {"ante": -100}, "key": "b"}, 422, "invalid"),
    ("three-card-poker/deal", {"bets": {"ante": "100"}, "key": "c"}, 422, "invalid"),
    ("three-card-poker/deal", {"bets": {}, "key": "d"}, 422, "invalid"),
    ("three-card-poker/deal", {"bets": {"ante": 50}, "key": "e"}, 400, "under_minimum"),
    ("three-card-poker/deal", {"bets": {"ante": 20_000}, "key": "f"}, 400, "no_credit"),
    ("red-dog/deal", {"bets": {"pair-plus": 100}, "key": "g"}, 400, "no_spot"),
    ("three-card-poker/decide", {"action": "play", "key": "h"}, 400, "no_decision_due"),
    ("red-dog/decide", {"action": "raise", "key": "i"}, 422, None),
    ("red-dog/decide", {"action": "hit", "key": "j"}, 422, "invalid"),
])
def test_bad_requests_are_refused_with_a_code_and_change_nothing(
        client: TestClient, db: Engine, path: str, body: dict[str, Any], status: int,
        code: str | None) -> None:
    answer = client.post(f"/api/banked/{path}", json=body)
    assert answer.status_code == status, answer.text
    if code is not None:
        assert answer.json().get("code") == code, answer.json()
    assert client.get("/api/me").json()["balance"] == 10_000
    with transaction(db) as s:
        assert check(s).ok


def test_a_second_deal_while_one_waits_is_refused(client: TestClient) -> None:
    first = client.post("/api/banked/three-card-poker/deal",
                        json={"bets": {"ante": 500}, "key": "d1"}).json()
    second = client.post("/api/banked/three-card-poker/deal",
                         json={"bets": {"ante": 500}, "key": "d2"})
    assert second.status_code == 400 and second.json()["code"] == "decision_waiting"
    assert second.json()["params"]["round"] == str(first["round_id"])
    assert client.get("/api/me").json()["balance"] == 10_000 - 500


def test_ultimate_texas_hold_em_plays_street_by_street_and_pays_as_the_engine(
        client: TestClient, db: Engine) -> None:
    rules = client.get("/api/banked/ultimate-texas-holdem").json()
    assert rules["spots"] == ["ante", "trips"] and rules["pays"]["blind"]["flush"] == "3:2"
    assert rules["pays"]["trips"]["full_house"] == 8 and "standard rules" in rules["standard"]
    dealt = client.post("/api/banked/ultimate-texas-holdem/deal",
                        json={"bets": {"ante": 500, "trips": 100}, "key": "u1"}).json()
    assert dealt["actions"] == ["check", "play 3", "play 4"] and dealt["staked"] == 1_100
    assert dealt["balance"] == 10_000 - 1_100 and dealt["board"] == []
    missing = client.post("/api/banked/ultimate-texas-holdem/decide",
                          json={"action": "play", "key": "u2"})
    assert missing.status_code == 422  # a play names its multiple
    flop = client.post("/api/banked/ultimate-texas-holdem/decide",
                       json={"action": "check", "key": "u3"}).json()
    assert len(flop["board"]) == 3 and flop["actions"] == ["check", "play 2"]
    assert client.get("/api/banked/ultimate-texas-holdem").json()["playing"] == flop
    done = client.post("/api/banked/ultimate-texas-holdem/decide",
                       json={"action": "play", "multiple": 2, "key": "u4"}).json()
    assert done["status"] == "settled" and done["staked"] == 2_100
    assert len(done["board"]) == 5 and len(done["dealer"]) == 2
    engine = engine_round("ultimate-texas-holdem", _history(db, done["round_id"]))
    paid = sum(s.paid for s in engine.settlements)
    assert done["paid"] == paid and done["balance"] == 10_000 - 2_100 + paid
    assert recorded(client, done["round_id"])["same"]
    with transaction(db) as s:
        assert check(s).ok and reconcile_bets(s).ok


def test_ultimate_texas_hold_em_s_progressive_over_the_api(client: TestClient,
                                                           db: Engine) -> None:
    closed = client.post("/api/banked/ultimate-texas-holdem/deal",
                         json={"bets": {"ante": 500, "progressive": 100}, "key": "p0"})
    assert closed.status_code == 400 and closed.json()["code"] == "progressive_closed"
    assert client.get("/api/banked/ultimate-texas-holdem").json()["progressive"] is None
    with transaction(db) as s:
        open_progressive(s, "ultimate-texas-holdem")
    shown = client.get("/api/banked/ultimate-texas-holdem").json()["progressive"]
    assert (shown["fee"], shown["pool"]) == (100, 1_000_000)
    assert shown["pays"]["royal_flush"] == "100 %" and shown["pays"]["full_house"] == 5_000
    wrong = client.post("/api/banked/ultimate-texas-holdem/deal",
                        json={"bets": {"ante": 500, "progressive": 500}, "key": "p1"})
    assert wrong.status_code == 400 and wrong.json()["code"] == "progressive_fee"
    assert wrong.json()["params"] == {"fee": "1.00", "stake": "5.00"}
    alone = client.post("/api/banked/ultimate-texas-holdem/deal",
                        json={"bets": {"progressive": 100}, "key": "p2"})
    assert alone.status_code == 400 and alone.json()["code"] == "side_bet_alone"
    assert client.get("/api/me").json()["balance"] == 10_000
    dealt = client.post("/api/banked/ultimate-texas-holdem/deal",
                        json={"bets": {"ante": 500, "progressive": 100}, "key": "p3"}).json()
    assert dealt["staked"] == 1_100 and dealt["balance"] == 10_000 - 1_100
    done = client.post("/api/banked/ultimate-texas-holdem/decide",
                       json={"action": "play", "multiple": 4, "key": "p4"}).json()
    assert done["status"] == "settled"
    progressive = next(x for x in done["settlements"] if x["spot"] == "progressive")
    assert progressive["stake"] == 100
    with transaction(db) as s:
        assert check(s).ok and reconcile_bets(s).ok
        assert jackpots.reconcile(s, "ultimate-texas-holdem-progressive").balanced
    assert client.get("/api/banked/ultimate-texas-holdem").json()["progressive"]["pool"] \
        == 1_000_000  # the accrual joins the pool at the end of the day


def test_texas_hold_em_bonus_plays_street_by_street_and_pays_as_the_engine(
        client: TestClient, db: Engine) -> None:
    rules = client.get("/api/banked/texas-holdem-bonus").json()
    assert rules["spots"] == ["ante", "bonus"] and (rules["min"], rules["max"]) == (100, 20_000)
    assert rules["pays"]["bonus"]["aces_against_aces"] == 1_000
    assert rules["pays"]["ante_pays_from"] == "straight"
    assert rules["pays"]["street_bets"] == {"flop": 2, "turn": 1, "river": 1}
    dealt = client.post("/api/banked/texas-holdem-bonus/deal",
                        json={"bets": {"ante": 500, "bonus": 100}, "key": "h1"}).json()
    assert dealt["actions"] == ["fold", "bet flop"] and dealt["staked"] == 600
    assert dealt["balance"] == 10_000 - 600 and dealt["board"] == [] == dealt["dealer"]
    for body in ({"action": "bet"}, {"action": "check", "street": "turn"},
                 {"action": "bet", "street": "preflop"}, {"action": "play", "multiple": 2,
                                                           "street": "flop"}):
        refused = client.post("/api/banked/texas-holdem-bonus/decide",
                              json={**body, "key": "h2"})
        assert refused.status_code == 422, body  # a bet names its street; nothing else does
    early = client.post("/api/banked/texas-holdem-bonus/decide",
                        json={"action": "bet", "street": "turn", "key": "h3"})
    assert early.status_code == 400 and early.json()["code"] == "decision_not_open"
    assert early.json()["params"] == {"action": "bet turn", "open": "fold, bet flop"}
    flop = client.post("/api/banked/texas-holdem-bonus/decide",
                       json={"action": "bet", "street": "flop", "key": "h4"}).json()
    assert len(flop["board"]) == 3 and flop["actions"] == ["check", "bet turn"]
    assert flop["staked"] == 1_600 and flop["balance"] == 10_000 - 1_600
    again = client.post("/api/banked/texas-holdem-bonus/decide",
                        json={"action": "bet", "street": "flop", "key": "h4"}).json()
    assert again == flop  # a retry answered, the flop bet taken once
    assert client.get("/api/banked/texas-holdem-bonus").json()["playing"] == flop
    turn = client.post("/api/banked/texas-holdem-bonus/decide",
                       json={"action": "check", "key": "h5"}).json()
    assert len(turn["board"]) == 4 and turn["actions"] == ["check", "bet river"]
    done = client.post("/api/banked/texas-holdem-bonus/decide",
                       json={"action": "bet", "street": "river", "key": "h6"}).json()
    assert done["status"] == "settled" and done["staked"] == 2_100
    assert len(done["board"]) == 5 and len(done["dealer"]) == 2
    engine = engine_round("texas-holdem-bonus", _history(db, done["round_id"]))
    assert [(x["spot"], x["paid"]) for x in done["settlements"]] == [
        (x.spot, x.paid) for x in engine.settlements]
    paid = sum(s.paid for s in engine.settlements)
    assert done["paid"] == paid and done["balance"] == 10_000 - 2_100 + paid
    assert recorded(client, done["round_id"])["same"]
    with transaction(db) as s:
        assert check(s).ok and reconcile_bets(s).ok


def test_texas_hold_em_bonus_s_progressive_over_the_api(client: TestClient,
                                                       db: Engine) -> None:
    assert client.get("/api/banked/texas-holdem-bonus").json()["progressive"] is None
    with transaction(db) as s:
        open_progressive(s, "texas-holdem-bonus")
    shown = client.get("/api/banked/texas-holdem-bonus").json()["progressive"]
    assert (shown["name"], shown["fee"], shown["pool"]) == (
        "texas-holdem-bonus-progressive", 100, 1_000_000)
    assert shown["pays"]["straight_flush"] == "10 %" and shown["pays"]["flush"] == 4_000
    assert client.get("/api/banked/ultimate-texas-holdem").json()["progressive"] is None
    wrong = client.post("/api/banked/texas-holdem-bonus/deal",
                        json={"bets": {"ante": 500, "progressive": 200}, "key": "q1"})
    assert wrong.status_code == 400 and wrong.json()["code"] == "progressive_fee"
    alone = client.post("/api/banked/texas-holdem-bonus/deal",
                        json={"bets": {"progressive": 100}, "key": "q2"})
    assert alone.status_code == 400 and alone.json()["code"] == "bonus_alone"
    dealt = client.post("/api/banked/texas-holdem-bonus/deal", json={
        "bets": {"ante": 500, "bonus": 100, "progressive": 100}, "key": "q3"}).json()
    assert dealt["staked"] == 700 and dealt["balance"] == 10_000 - 700
    done = client.post("/api/banked/texas-holdem-bonus/decide",
                       json={"action": "fold", "key": "q4"}).json()
    assert done["status"] == "settled"
    progressive = next(x for x in done["settlements"] if x["spot"] == "progressive")
    assert (progressive["stake"], progressive["paid"], progressive["result"]) == (100, 0, "fold")
    assert done["balance"] == 10_000 - 700 + done["paid"]
    with transaction(db) as s:
        assert check(s).ok and reconcile_bets(s).ok
        assert jackpots.reconcile(s, "texas-holdem-bonus-progressive").balanced


def test_texas_hold_em_bonus_refusals_are_coded_and_change_nothing(client: TestClient) -> None:
    alone = client.post("/api/banked/texas-holdem-bonus/deal",
                        json={"bets": {"bonus": 100}, "key": "b1"})
    assert alone.status_code == 400 and alone.json()["code"] == "bonus_alone"
    progressive = client.post("/api/banked/texas-holdem-bonus/deal",
                              json={"bets": {"ante": 500, "progressive": 100}, "key": "b2"})
    assert progressive.status_code == 400  # the casino runs no progressive here yet
    assert progressive.json()["code"] == "progressive_closed"
    trips = client.post("/api/banked/texas-holdem-bonus/deal",
                        json={"bets": {"ante": 500, "trips": 100}, "key": "b3"})
    assert trips.status_code == 400 and trips.json()["code"] == "no_spot"
    elsewhere = client.post("/api/banked/three-card-poker/decide",
                            json={"action": "bet", "street": "flop", "key": "b4"})
    assert elsewhere.status_code == 422
    assert client.get("/api/me").json()["balance"] == 10_000


def test_oasis_stud_poker_exchanges_then_raises_and_pays_as_the_engine(
        client: TestClient, db: Engine) -> None:
    rules = client.get("/api/banked/oasis-stud").json()
    assert rules["spots"] == ["ante"] and (rules["min"], rules["max"]) == (100, 20_000)
    assert rules["pays"]["fees"] == [1, 2, 3, 2, 1] and rules["pays"]["raise_multiple"] == 2
    assert rules["pays"]["raise"]["royal_flush"] == 100 and rules["pays"]["five_must_raise"]
    dealt = client.post("/api/banked/oasis-stud/deal",
                        json={"bets": {"ante": 500}, "key": "o1"}).json()
    assert dealt["status"] == "playing" and dealt["balance"] == 10_000 - 500
    assert dealt["actions"][:2] == ["fold", "raise"] and len(dealt["actions"]) == 33
    cards = dealt["cards"]
    assert len(cards) == 5 and dealt["dealer"] == [] and dealt["dealer_up"] in DECK
    assert dealt["dealer_up"] not in cards and dealt["fees"] == 0
    missing = next(c for c in DECK if c not in cards and c != dealt["dealer_up"])
    for body, status, code, params in (
            ({"action": "exchange", "cards": ["Zz"]}, 400, "not_a_card", {"card": "Zz"}),
            ({"action": "exchange", "cards": [cards[0], missing]}, 400, "exchange_not_held",
             {"card": missing, "hand": " ".join(cards)}),
            ({"action": "exchange", "cards": [cards[1], cards[1].upper()]}, 400,
             "exchange_twice", {"card": cards[1]}),
            ({"action": "exchange"}, 422, None, None),  # an exchange names its cards
            ({"action": "exchange", "cards": []}, 422, "invalid", None),
            ({"action": "exchange", "cards": [*cards, missing]}, 422, "invalid", None),
            ({"action": "exchange", "cards": "7h 2c"}, 422, "invalid", None),
            ({"action": "raise", "cards": [cards[0]]}, 422, None, None),
            ({"action": "raise", "amount": 1_000}, 422, None, None)):  # the raise is 2x
        refused = client.post("/api/banked/oasis-stud/decide", json={**body, "key": "o2"})
        assert refused.status_code == status, (body, refused.text)
        if code is not None:
            assert refused.json()["code"] == code, refused.json()
        if params is not None:
            assert refused.json()["params"] == params
    elsewhere = client.post("/api/banked/red-dog/decide",
                            json={"action": "exchange", "cards": ["7h"], "key": "o3"})
    assert elsewhere.status_code == 422
    assert client.get("/api/me").json()["balance"] == 10_000 - 500
    swap = [cards[0], cards[3]]
    swapped = client.post("/api/banked/oasis-stud/decide", json={
        "action": "exchange", "cards": [c.upper() for c in swap], "key": "o4"}).json()
    assert swapped["status"] == "playing" and swapped["actions"] == ["fold", "raise"]
    assert swapped["discarded"] == swap and swapped["fees"] == 2 * 500  # 2 cards: 2 antes
    assert swapped["cards"][:3] == [cards[1], cards[2], cards[4]]
    assert swapped["balance"] == 10_000 - 1_500 and swapped["staked"] == 1_500
    again = client.post("/api/banked/oasis-stud/decide", json={
        "action": "exchange", "cards": swap, "key": "o4"}).json()
    assert again == swapped  # a retry answered, the fee taken once
    assert client.get("/api/banked/oasis-stud").json()["playing"] == swapped
    reused = client.post("/api/banked/oasis-stud/decide", json={"action": "raise", "key": "o4"})
    assert reused.status_code == 409  # the exchange's key sent with another decision
    twice = client.post("/api/banked/oasis-stud/decide",
                        json={"action": "exchange", "cards": [swapped["cards"][0]], "key": "o5"})
    assert twice.status_code == 400 and twice.json()["code"] == "exchange_once"
    done = client.post("/api/banked/oasis-stud/decide",
                       json={"action": "raise", "key": "o6"}).json()
    assert done["status"] == "settled" and done["staked"] == 2_500
    assert len(done["dealer"]) == 5 and done["dealer"][4] == dealt["dealer_up"]
    assert done["boxes"] == {"0": swapped["cards"]} and done["dealer_hand"]
    engine = engine_round("oasis-stud", _history(db, done["round_id"]))
    assert [(x["spot"], x["stake"], x["paid"]) for x in done["settlements"]] == [
        (x.spot, x.stake, x.paid) for x in engine.settlements]
    assert [x["spot"] for x in done["settlements"]] == ["ante", "exchange", "raise"]
    paid = sum(s.paid for s in engine.settlements)
    assert done["paid"] == paid and done["balance"] == 10_000 - 2_500 + paid
    assert recorded(client, done["round_id"])["same"]
    with transaction(db) as s:
        assert check(s).ok and reconcile_bets(s).ok


def test_oasis_stud_poker_s_exchange_of_five_raises_with_it_or_is_refused_whole(
        client: TestClient, db: Engine) -> None:
    dealt = client.post("/api/banked/oasis-stud/deal",
                        json={"bets": {"ante": 3_000}, "key": "f1"}).json()
    assert dealt["balance"] == 7_000
    # all five: the fee (1 ante, 30.00) and the raise it forces (60.00) against 70.00
    short = client.post("/api/banked/oasis-stud/decide",
                        json={"action": "exchange", "cards": dealt["cards"], "key": "f2"})
    assert short.status_code == 400 and short.json()["code"] == "no_credit"
    assert short.json()["params"] == {"held": "70.00", "wanted": "90.00"}
    assert client.get("/api/banked/oasis-stud").json()["playing"] == dealt
    client.post("/api/banked/oasis-stud/decide", json={"action": "fold", "key": "f3"})
    dealt = client.post("/api/banked/oasis-stud/deal",
                        json={"bets": {"ante": 1_000}, "key": "f4"}).json()
    done = client.post("/api/banked/oasis-stud/decide",
                       json={"action": "exchange", "cards": dealt["cards"], "key": "f5"}).json()
    assert done["status"] == "settled" and done["discarded"] == dealt["cards"]
    assert [(x["spot"], x["stake"]) for x in done["settlements"]] == [
        ("ante", 1_000), ("exchange", 1_000), ("raise", 2_000)]
    assert done["balance"] == 7_000 - 4_000 + done["paid"]  # the first ante lost, folded
    with transaction(db) as s:
        assert check(s).ok and reconcile_bets(s).ok


def test_pai_gow_poker_sets_the_low_hand_and_takes_the_commission_apart(db: Engine) -> None:
    """The joker hand set by hand: refusals first, each coded and changing nothing; the
    21 settings shown with their fouls; the win paid in full, the commission apart."""
    from test_platform_pai_gow_rounds import DEALER, Stacked

    box = ["Jk", "As", "Kh", "Qd", "7c", "4h", "2s"]
    client = TestClient(create_app(db, rng=Stacked(f"{' '.join(box)} {DEALER}")))
    sign_up(client, "ann", STAFF_PASSWORD, 10_000)
    rules = client.get("/api/banked/pai-gow-poker").json()
    assert rules["spots"] == ["ante", "bank"] and (rules["min"], rules["max"]) == (100, 50_000)
    pays = rules["pays"]
    assert (pays["commission_percent"], pays["commission_rounding"], pays["wheel"]) == (
        5, "up", "second")
    assert pays["hands"][:2] == ["five_aces", "royal_flush"] and pays["copies"] == {
        "ante": "dealer", "bank": "bank"}
    dealt = client.post("/api/banked/pai-gow-poker/deal",
                        json={"bets": {"ante": 1_010}, "key": "g1"}).json()
    assert dealt["status"] == "playing" and dealt["balance"] == 10_000 - 1_010
    assert dealt["cards"] == box and dealt["actions"][0] == "house" and len(dealt["actions"]) == 22
    assert dealt["house_way"] == {"high": ["As", "Jk", "7c", "4h", "2s"], "low": ["Kh", "Qd"]}
    assert dealt["dealer_high"] == [] and dealt["dealer_cards"] == 7
    shown = {tuple(x["low"]): (x["high_hand"], x["foul"]) for x in dealt["settings"]}
    assert len(shown) == 21 and shown[("Kh", "Qd")] == ("pair", False)
    assert shown[("Jk", "As")] == ("high_card", True)  # aces in front of king high: a foul
    for body, status, code, params in (
            ({"action": "set", "cards": ["Zz", "Kh"]}, 400, "not_a_card", {"card": "Zz"}),
            ({"action": "set", "cards": ["Kh", "7h"]}, 400, "exchange_not_held",
             {"card": "7h", "hand": " ".join(box)}),
            ({"action": "set", "cards": ["Kh"]}, 400, "low_hand_count", {"count": "1"}),
            ({"action": "set", "cards": ["Kh", "Qd", "2s"]}, 400, "low_hand_count",
             {"count": "3"}),
            ({"action": "set", "cards": ["joker", "JK"]}, 400, "low_hand_twice", {"card": "Jk"}),
            ({"action": "set"}, 422, None, None),  # a setting names its cards
            ({"action": "set", "cards": []}, 422, "invalid", None),
            ({"action": "set", "cards": box}, 422, "invalid", None),
            ({"action": "set", "cards": "Kh Qd"}, 422, "invalid", None),
            ({"action": "house", "cards": ["Kh", "Qd"]}, 422, None, None),
            ({"action": "exchange", "cards": ["Kh"]}, 422, None, None),
            ({"action": "fold"}, 422, None, None)):  # no other game's decision
        refused = client.post("/api/banked/pai-gow-poker/decide", json={**body, "key": "g2"})
        assert refused.status_code == status, (body, refused.text)
        if code is not None:
            assert refused.json()["code"] == code, refused.json()
        if params is not None:
            assert refused.json()["params"] == params
    for game, body in (("oasis-stud", {"action": "house"}),
                       ("red-dog", {"action": "set", "cards": ["Kh", "Qd"]})):
        elsewhere = client.post(f"/api/banked/{game}/decide", json={**body, "key": "g3"})
        assert elsewhere.status_code == 422, (game, elsewhere.text)
    assert client.get("/api/banked/pai-gow-poker").json()["playing"] == dealt
    assert client.get("/api/me").json()["balance"] == 10_000 - 1_010
    done = client.post("/api/banked/pai-gow-poker/decide",
                       json={"action": "set", "cards": ["KH", "qd"], "key": "g4"}).json()
    assert done["status"] == "settled" and "settings" not in done
    assert (done["high"], done["low"], done["foul"]) == (["Jk", "As", "7c", "4h", "2s"],
                                                         ["Kh", "Qd"], False)
    assert done["dealer_high"] == ["Ac", "6s", "5d", "3c", "2c"]
    assert done["dealer_low"] == ["Jd", "8h"]
    assert done["boxes"] == {"0": {"high": done["high"], "low": ["Kh", "Qd"]}}
    assert [(x["spot"], x["stake"], x["paid"], x["result"]) for x in done["settlements"]] == [
        ("ante", 1_010, 2_020, "win: high box, low box")]
    assert (done["paid"], done["commission"]) == (2_020, 51)  # 5 % of 10.10, rounded up
    assert done["balance"] == 10_000 - 1_010 + 2_020 - 51
    engine = engine_round("pai-gow-poker", _history(db, done["round_id"]))
    assert engine.returns() == (2_020 - 51 - 1_010,)
    again = client.post("/api/banked/pai-gow-poker/decide",
                        json={"action": "set", "cards": ["Kh", "Qd"], "key": "g4"}).json()
    assert again == done  # a retry answered, taken once
    for path, body in (("decide", {"action": "house"}),  # the setting's key, another setting
                       ("deal", {"bets": {"ante": 1_010}})):  # or a deal
        reused = client.post(f"/api/banked/pai-gow-poker/{path}", json={**body, "key": "g4"})
        assert reused.status_code == 409, reused.text
    assert recorded(client, done["round_id"])["same"]
    with transaction(db) as s:
        assert check(s).ok and reconcile_bets(s).ok


def test_pai_gow_poker_s_house_way_is_one_request(db: Engine) -> None:
    from test_platform_pai_gow_rounds import DEALER, Stacked

    client = TestClient(create_app(db, rng=Stacked(f"Kc Kd Qh 9s 7d 4c 2h {DEALER}")))
    sign_up(client, "ann", STAFF_PASSWORD, 10_000)
    dealt = client.post("/api/banked/pai-gow-poker/deal",
                        json={"bets": {"ante": 500}, "key": "h1"}).json()
    assert dealt["house_way"] == {"high": ["Kd", "Kc", "7d", "4c", "2h"], "low": ["Qh", "9s"]}
    done = client.post("/api/banked/pai-gow-poker/decide",
                       json={"action": "house", "key": "h2"}).json()
    assert done["low"] == ["Qh", "9s"] and done["high_hand"] == "pair"
    assert (done["paid"], done["commission"]) == (1_000, 25)
    assert done["balance"] == 10_000 - 500 + 1_000 - 25 == client.get("/api/me").json()["balance"]
    (line,) = client.get("/api/history").json()["bets"]  # paid the gross, the commission apart
    assert {k: line[k] for k in ("round_id", "spot", "stake", "paid", "commission", "result")} \
        == {"round_id": done["round_id"], "spot": "ante", "stake": 500, "paid": 1_000,
            "commission": 25, "result": "win"}
    with transaction(db) as s:
        assert check(s).ok and reconcile_bets(s).ok


def test_russian_poker_draws_bets_and_answers_the_dealer_and_pays_as_the_engine(
        client: TestClient, db: Engine) -> None:
    rules = client.get("/api/banked/russian-poker").json()
    assert rules["spots"] == ["ante"] and rules["name"]["fi"] == "Venäläinen pokeri"
    pays = rules["pays"]
    assert pays["combinations"]["royal_flush"] == 100 and pays["combinations"]["ace_king"] == 1
    assert (pays["most_combinations"], pays["bet_multiple"], pays["draw_price"],
            pays["buy_price"], pays["sixth_card"], pays["buy_game"]) == (2, 2, 1, 1, True, True)
    for seed in range(40):  # deals until the dealer does not qualify after a sixth card
        dealt = client.post("/api/banked/russian-poker/deal",
                            json={"bets": {"ante": 500}, "key": f"d{seed}"}).json()
        assert dealt["actions"][:3] == ["fold", "raise", "sixth"] and dealt["dealer"] == []
        if seed == 0:
            for body, status, code in (
                    ({"action": "buy"}, 400, "no_game_not_yet"),
                    ({"action": "take"}, 400, "no_game_not_yet"),
                    ({"action": "raise", "amount": 1_000}, 422, "decision_shape"),  # 2x
                    ({"action": "sixth", "cards": [dealt["cards"][0]]}, 422, "decision_shape"),
                    ({"action": "check"}, 400, "not_an_action")):
                refused = client.post("/api/banked/russian-poker/decide",
                                      json={**body, "key": "bad"})
                assert refused.status_code == status, (body, refused.text)
                assert code is None or refused.json()["code"] == code
            other = client.post("/api/banked/red-dog/decide", json={"action": "sixth",
                                                                     "key": "bad2"})
            assert other.status_code == 422 and other.json()["code"] == "decision_shape"
        before = client.get("/api/me").json()["balance"]
        sixth = client.post("/api/banked/russian-poker/decide",
                            json={"action": "sixth", "key": f"s{seed}"}).json()
        assert len(sixth["cards"]) == 6 and sixth["cards"][:5] == dealt["cards"]
        assert sixth["fees"] == 500 and sixth["balance"] == before - 500
        again = client.post("/api/banked/russian-poker/decide",
                            json={"action": "sixth", "key": f"s{seed}"}).json()
        assert again == sixth  # a retry answered, the price taken once
        once = client.post("/api/banked/russian-poker/decide",
                           json={"action": "exchange", "cards": [sixth["cards"][0]],
                                 "key": f"x{seed}"})
        assert once.status_code == 400 and once.json()["code"] == "draw_once"
        bet = client.post("/api/banked/russian-poker/decide",
                          json={"action": "raise", "key": f"r{seed}"}).json()
        if bet["status"] == "playing":
            break
    else:
        pytest.fail("the dealer qualified in every round")
    assert bet["actions"] == ["take", "buy"] and bet["dealer_qualifies"] is False
    assert len(bet["dealer"]) == 5 and bet["dealer"][4] == dealt["dealer_up"]
    answer = client.post("/api/banked/russian-poker/decide", json={"action": "fold",
                                                                    "key": "f1"})
    assert answer.status_code == 400 and answer.json()["code"] == "no_game_answer"
    done = client.post("/api/banked/russian-poker/decide",
                       json={"action": "buy", "key": "b1"}).json()
    assert done["status"] == "settled" and done["staked"] == 500 * 5
    assert done["put_away"] and done["dealer_first"] == bet["dealer"]
    engine = engine_round("russian-poker", _history(db, done["round_id"]))
    assert [(x["spot"], x["stake"], x["paid"]) for x in done["settlements"]] == [
        (x.spot, x.stake, x.paid) for x in engine.settlements]
    assert [x["spot"] for x in done["settlements"]] == ["ante", "sixth", "raise", "buy"]
    assert recorded(client, done["round_id"])["same"]
    with transaction(db) as s:
        assert check(s).ok and reconcile_bets(s).ok


def test_pai_gow_poker_s_bank_over_the_api(db: Engine) -> None:
    """A player banks: refused before a round against the house's bank, above that
    round's bet and 10 % (110 % + 1 cent, the amounts in the params), twice running and
    with an ante beside it, each coded and changing nothing; within the most the dealer's
    hand plays against the bank, the copies the bank's, the win paid 1:1 as the engine
    replays it and the commission taken apart, as on the ante."""
    from test_platform_pai_gow_rounds import DEALER, Stacked

    from pelisali.engine.pai_gow import PaiGowState

    against = "Kc Kd Qh 9s 7d 4c 2h"  # K-K and Q-9 by the house way: both above DEALER's
    copies = "Ah 6h 5s 3s 2d Jc 8d"  # A-6-5-3-2 and J-8 by the house way: DEALER's both ways
    client = TestClient(create_app(db, rng=Stacked(f"{against} {DEALER} {copies} {DEALER}")))
    sign_up(client, "ann", STAFF_PASSWORD, 10_000)
    rules = client.get("/api/banked/pai-gow-poker").json()
    assert rules["spots"] == ["ante", "bank"]
    assert {k: rules["pays"][k] for k in ("player_banks", "bank_house_between",
                                          "bank_most_percent")} == {
        "player_banks": True, "bank_house_between": True, "bank_most_percent": 110}

    def refused(bets: dict[str, int], key: str) -> dict[str, Any]:
        before = client.get("/api/me").json()["balance"]
        answer = client.post("/api/banked/pai-gow-poker/deal", json={"bets": bets, "key": key})
        assert answer.status_code == 400, answer.text
        assert client.get("/api/me").json()["balance"] == before
        found: dict[str, Any] = answer.json()
        return found

    first = refused({"bank": 1_000}, "k1")
    assert (first["code"], first["params"]) == ("bank_first", {})
    dealt = client.post("/api/banked/pai-gow-poker/deal",
                        json={"bets": {"ante": 1_010}, "key": "k2"}).json()
    assert dealt["bets"] == [{"bet_id": 1, "spot": "ante", "stake": 1_010}]
    house = client.post("/api/banked/pai-gow-poker/decide",
                        json={"action": "house", "key": "k3"}).json()
    assert (house["paid"], house["commission"]) == (2_020, 51)  # 5 % of 10.10, rounded up
    assert house["balance"] == 10_000 - 1_010 + 2_020 - 51
    most = refused({"bank": 1_112}, "k4")  # 10.10 and 10 % is 11.11; a cent more
    assert (most["code"], most["params"]) == ("bank_most", {
        "bank_most": "11.11", "last_bet": "10.10", "percent": "10", "stake": "11.12"})
    banked = client.post("/api/banked/pai-gow-poker/deal",
                         json={"bets": {"bank": 1_111}, "key": "k5"}).json()
    assert banked["status"] == "playing" and banked["cards"] == copies.split()
    assert banked["bets"] == [{"bet_id": 1, "spot": "bank", "stake": 1_111}]
    assert banked["balance"] == house["balance"] - 1_111
    assert banked["house_way"] == {"high": ["Ah", "6h", "5s", "3s", "2d"], "low": ["Jc", "8d"]}
    done = client.post("/api/banked/pai-gow-poker/decide",
                       json={"action": "set", "cards": ["Jc", "8d"], "key": "k6"}).json()
    assert (done["dealer_high"], done["dealer_low"]) == (["Ac", "6s", "5d", "3c", "2c"],
                                                         ["Jd", "8h"])
    assert [(x["spot"], x["stake"], x["paid"], x["result"]) for x in done["settlements"]] == [
        ("bank", 1_111, 2_222, "win: high copy, low copy (the bank's)")]
    assert (done["paid"], done["commission"]) == (2_222, 56)  # 5 % of 11.11 = 55.55, up
    assert done["balance"] == house["balance"] - 1_111 + 2_222 - 56 \
        == client.get("/api/me").json()["balance"]
    engine = engine_round("pai-gow-poker", _history(db, done["round_id"]))
    assert isinstance(engine, PaiGowState)
    assert [(s.spot, s.stake, s.paid, s.result) for s in engine.settlements] == [
        (x["spot"], x["stake"], x["paid"], x["result"]) for x in done["settlements"]]
    assert engine.returns() == (2_222 - 56 - 1_111,)
    lines = client.get("/api/history").json()["bets"]  # the gross paid, the commission apart
    assert sorted((x["spot"], x["stake"], x["paid"], x["commission"]) for x in lines) == [
        ("ante", 1_010, 2_020, 51), ("bank", 1_111, 2_222, 56)]
    assert recorded(client, done["round_id"])["same"]
    twice = refused({"bank": 1_000}, "k7")
    assert (twice["code"], twice["params"]) == ("bank_house_between", {})
    both = refused({"ante": 500, "bank": 500}, "k8")
    assert (both["code"], both["params"]) == ("bank_or_bet", {})
    assert client.get("/api/banked/pai-gow-poker").json()["playing"] is None
    with transaction(db) as s:
        assert check(s).ok and reconcile_bets(s).ok
