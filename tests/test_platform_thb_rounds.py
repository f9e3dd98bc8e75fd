"""Texas Hold'em Bonus on the persistent wallet, on SQLite and PostgreSQL: the ante and the
Bonus debited at the deal, each street bet (flop 2x, turn and river 1x the ante) when
made, each street waiting for its decision, every bet paid exactly what the engine
settles (hands stacked, payouts worked out by hand), no credit, retries answered once,
refusals that change nothing, a round left waiting folded before the flop and checked
after it by the house after 24 hours (GGPoker house rules 2.3), recall by replay, and the
ledger whole throughout. Where the casino runs no progressive, a deal with it is refused
(its jackpot: tests/test_platform_thb_progressive.py)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest
from banked_fixtures import StackedDeck, whole
from banked_fixtures import replayed as replayed_round
from dbfixtures import setup, stored, wallet
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, select

from pelisali.engine.holdem_bonus import HoldemBonusState
from pelisali.platform import accounts, tables
from pelisali.platform.banked_rounds import (
    create_banked_table,
    deal,
    decide,
    playing,
    recall_banked_round,
    recover_banked_rounds,
)
from pelisali.platform.db import transaction
from pelisali.platform.ledger import KeyConflict, balance
from pelisali.platform.models import AuditEntry, BetRow
from pelisali.platform.rounds import TableError
from pelisali.rng import SeededRng

AT = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
MONEY = 200_000
TABLE = "thb-ann"


Stacked = StackedDeck
replayed = partial(replayed_round, "texas-holdem-bonus", kind=HoldemBonusState)


@pytest.fixture
def casino(engine: Engine) -> Engine:
    setup(engine, ("ann", "bob"), money=MONEY)
    with transaction(engine) as s:
        create_banked_table(s, TABLE, "texas-holdem-bonus")
    return engine


# Each: the cards, the bets at the deal, the decisions, and every bet's (spot, stake,
# paid, result word) worked out by hand from the rule data.
HANDS = [
    pytest.param(  # trips against the dealer's kings: the ante pushes below a straight,
        # the Bonus pays aces 30:1, the flop and turn bets 1:1
        ("As", "Ad", "Kc", "Qd", "Ah", "Kd", "7s", "4h", "2c"), {"ante": 1_000, "bonus": 500},
        ["bet flop", "bet turn", "check"],
        [("ante", 1_000, 1_000, "push"), ("bonus", 500, 15_500, "win"),
         ("flop", 2_000, 4_000, "win"), ("turn", 1_000, 2_000, "win")], id="trips"),
    pytest.param(  # a straight wins the ante 1:1; 9-10 is no Bonus hand
        ("9h", "Td", "2c", "2d", "Jh", "Qs", "Kc", "3h", "4s"), {"ante": 1_000, "bonus": 500},
        ["bet flop", "check", "bet river"],
        [("ante", 1_000, 2_000, "win"), ("bonus", 500, 0, "lose"),
         ("flop", 2_000, 4_000, "win"), ("river", 1_000, 2_000, "win")], id="straight"),
    pytest.param(  # a fold loses the ante; the Bonus is paid on the two cards (10:1)
        ("Kh", "Kd", "2c", "3d"), {"ante": 1_000, "bonus": 500}, ["fold"],
        [("ante", 1_000, 0, "fold"), ("bonus", 500, 5_500, "win")], id="fold"),
    pytest.param(  # aces against the dealer's aces: the Bonus 1,000:1, even folded
        ("As", "Ad", "Ac", "Ah"), {"ante": 100, "bonus": 100}, ["fold"],
        [("ante", 100, 0, "fold"), ("bonus", 100, 100_100, "win")], id="aces-v-aces"),
    pytest.param(  # equal hands (the board's two pair, ace kicker): every bet pushes
        ("Ah", "2c", "As", "3d", "Kh", "Kd", "Qs", "Qc", "Jh"), {"ante": 1_000},
        ["bet flop", "check", "bet river"],
        [("ante", 1_000, 1_000, "push"), ("flop", 2_000, 2_000, "push"),
         ("river", 1_000, 1_000, "push")], id="tie"),
    pytest.param(  # the dealer's flush: every bet lost
        ("2c", "7d", "Ah", "Kh", "Ac", "5h", "9h", "Jc", "3h"), {"ante": 1_001},
        ["bet flop", "bet turn", "bet river"],
        [("ante", 1_001, 0, "lose"), ("flop", 2_002, 0, "lose"), ("turn", 1_001, 0, "lose"),
         ("river", 1_001, 0, "lose")], id="dealer-flush"),
]


@pytest.mark.parametrize(("cards", "bets", "plan", "expected"), HANDS)
def test_each_street_waits_and_every_bet_is_paid_exactly(
        casino: Engine, cards: tuple[str, ...], bets: dict[str, int], plan: list[str],
        expected: list[tuple[str, int, int, str]]) -> None:
    rng = Stacked(*cards)
    with transaction(casino) as s:
        bank = balance(s, "house:bank")
        view = deal(s, TABLE, "ann", bets, key="k0", rng=rng, at=AT)
    staked = sum(bets.values())
    assert (view.status, view.staked, view.actions) == ("playing", staked,
                                                         ("fold", "bet flop"))
    assert view.view["cards"] == list(cards[:2])
    assert view.view["board"] == [] == view.view["dealer"]  # the dealer's face down
    assert wallet(casino, "ann") == MONEY - staked
    for number, action in enumerate(plan):
        before = wallet(casino, "ann")
        with transaction(casino) as s:
            view = decide(s, TABLE, "ann", action, key=f"k{number + 1}", rng=rng, at=AT)
        if view.status == "playing":  # the street bet debited as it is made, no sooner
            bet = bets["ante"] * (2 if action == "bet flop" else 1) \
                if action.startswith("bet") else 0
            assert wallet(casino, "ann") == before - bet
            assert len(view.view["board"]) == 3 + number and view.view["dealer"] == []
            assert view.actions == ("check", f"bet {('turn', 'river')[number]}")
    assert view.status == "settled" and view.view["dealer"] == list(cards[2:4])
    paid = sum(e[2] for e in expected)
    assert [(x["spot"], x["stake"], x["paid"], x["result"].split(",")[0])
            for x in view.view["settlements"]] == expected
    assert (view.staked, view.paid) == (sum(e[1] for e in expected), paid)
    assert wallet(casino, "ann") == MONEY - view.staked + paid == view.balance
    engine = replayed(stored(casino, view.round_id))
    assert [(x.spot, x.stake, x.paid) for x in engine.settlements] == [e[:3] for e in expected]
    with transaction(casino) as s:
        assert balance(s, "house:bank") == bank + view.staked - paid  # nothing made or lost
        rows = s.scalars(select(BetRow).where(BetRow.round_id == view.round_id)
                         .order_by(BetRow.number)).all()
        assert [(b.spot, b.stake, b.paid) for b in rows] == [e[:3] for e in expected]
        assert recall_banked_round(s, view.round_id).same and tables.recall(s, view.round_id).same
    whole(casino)


def test_retries_are_answered_once_and_refusals_change_nothing(casino: Engine) -> None:
    with transaction(casino) as s, pytest.raises(TableError, match="bet with an ante"):
        deal(s, TABLE, "ann", {"bonus": 500}, key="t0", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="no bet 'trips'"):
        deal(s, TABLE, "ann", {"ante": 500, "trips": 500}, key="t1", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="runs no progressive"):
        deal(s, TABLE, "ann", {"ante": 500, "progressive": 100}, key="t2", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="under the table minimum"):
        deal(s, TABLE, "ann", {"ante": 50}, key="t3", at=AT)
    assert wallet(casino, "ann") == MONEY
    with transaction(casino) as s:
        first = deal(s, TABLE, "ann", {"ante": 1_000}, key="d1", rng=SeededRng(3), at=AT)
    with transaction(casino) as s:
        assert deal(s, TABLE, "ann", {"ante": 1_000}, key="d1", at=AT) == first
    with transaction(casino) as s, pytest.raises(KeyConflict):
        deal(s, TABLE, "ann", {"ante": 2_000}, key="d1", at=AT)
    for action, words in (("check", "not open before the flop"),
                          ("bet turn", "not open before the flop"),
                          ("play 2", "is not an action here")):
        with transaction(casino) as s, pytest.raises(TableError, match=words):
            decide(s, TABLE, "ann", action, key=f"bad-{action}", at=AT)
    assert wallet(casino, "ann") == MONEY - 1_000
    with transaction(casino) as s:
        bet = decide(s, TABLE, "ann", "bet flop", key="f1", rng=SeededRng(4), at=AT)
    with transaction(casino) as s:  # the answer lost: sent again, answered, taken once
        assert decide(s, TABLE, "ann", "bet flop", key="f1", rng=SeededRng(5), at=AT) == bet
    assert wallet(casino, "ann") == MONEY - 3_000 and len(bet.view["board"]) == 3
    with transaction(casino) as s:
        checked = decide(s, TABLE, "ann", "check", key="c1", rng=SeededRng(6), at=AT)
    with transaction(casino) as s:  # a check without a stake: not taken on the turn too
        assert decide(s, TABLE, "ann", "check", key="c1", rng=SeededRng(7), at=AT) == checked
        with pytest.raises(KeyConflict):
            decide(s, TABLE, "bob", "check", key="c1", at=AT)
    assert checked.actions == ("check", "bet river") and len(checked.view["board"]) == 4
    whole(casino)


def test_a_street_bet_the_wallet_does_not_hold_is_refused_and_fold_is_still_open(
        casino: Engine) -> None:
    with transaction(casino) as s:
        deal(s, TABLE, "ann", {"ante": 20_000, "bonus": 20_000}, key="big",
             rng=SeededRng(6), at=AT)
    assert wallet(casino, "ann") == MONEY - 40_000
    with transaction(casino) as s:  # 30,000 left in the wallet; the flop bet is 40,000
        accounts.withdraw(s, "ann", MONEY - 40_000 - 30_000, key="w")
    with transaction(casino) as s, pytest.raises(TableError, match="no credit"):
        decide(s, TABLE, "ann", "bet flop", key="f4", at=AT)
    assert wallet(casino, "ann") == 30_000
    with transaction(casino) as s:
        waiting = playing(s, TABLE)
        assert waiting is not None and waiting.actions == ("fold", "bet flop")
    whole(casino)


@pytest.mark.parametrize(("cards", "made", "decided", "expected"), [
    pytest.param(("Kh", "Kd", "2c", "3d"), [], "fold",
                 [("ante", 1_000, 0, "fold"), ("bonus", 1_000, 11_000, "win")],
                 id="before-the-flop"),
    pytest.param(("9h", "Td", "2c", "2d", "Jh", "Qs", "Kc", "3h", "4s"), ["bet flop"],
                 "check, check",
                 [("ante", 1_000, 2_000, "win"), ("bonus", 1_000, 0, "lose"),
                  ("flop", 2_000, 4_000, "win")], id="on-the-flop"),
])
def test_a_round_left_waiting_is_folded_or_checked_by_the_house_after_24_hours(
        casino: Engine, cards: tuple[str, ...], made: list[str], decided: str,
        expected: list[tuple[str, int, int, str]]) -> None:
    rng = Stacked(*cards)
    with transaction(casino) as s:
        dealt = deal(s, TABLE, "ann", {"ante": 1_000, "bonus": 1_000}, key="w1", rng=rng,
                     at=AT)
        for number, action in enumerate(made):
            decide(s, TABLE, "ann", action, key=f"m{number}", rng=rng, at=AT)
    with transaction(casino) as s:
        assert recover_banked_rounds(s, rng=rng, at=AT + timedelta(hours=23)) == []
    with transaction(casino) as s:
        done = recover_banked_rounds(s, rng=rng, at=AT + timedelta(hours=24))
        assert done == [(dealt.round_id, f"settled, the house decided {decided}")]
    with transaction(casino) as s:  # the audit entry is chained as its transaction commits
        entry = s.scalars(select(AuditEntry).where(
            AuditEntry.action == "banked_round_completed")).one()
        assert "GGPoker house rules 2.3" in entry.payload
        assert playing(s, TABLE) is None and recall_banked_round(s, dealt.round_id).same
    engine = replayed(stored(casino, dealt.round_id))
    assert [(x.spot, x.stake, x.paid, x.result.split(",")[0])
            for x in engine.settlements] == expected
    assert wallet(casino, "ann") == MONEY - sum(e[1] for e in expected) + sum(
        e[2] for e in expected)
    whole(casino)


ROUNDS = itertools.count()  # each round's keys its own, across the examples
PLAN = st.lists(st.tuples(st.integers(0, 2**16), st.integers(100, 5_000),
                          st.one_of(st.just(0), st.integers(100, 3_000)),
                          st.lists(st.booleans(), min_size=3, max_size=3)),
                min_size=1, max_size=4)


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(plan=PLAN)
def test_money_is_conserved_over_random_rounds(
        casino: Engine, plan: list[tuple[int, int, int, list[bool]]]) -> None:
    """Whatever the cards and decisions, the player's wallet moves by what was paid less
    what was staked, the house's by the opposite, and nothing goes negative."""
    for seed, ante, bonus, bets in plan:
        with transaction(casino) as s:
            start = (balance(s, accounts.wallet_code("ann")), balance(s, "house:bank"))
            rng = SeededRng(seed)
            round_key = f"p{next(ROUNDS)}"
            view = deal(s, TABLE, "ann", {"ante": ante, **({"bonus": bonus} if bonus else {})},
                        key=round_key, rng=rng, at=AT)
            street = 0
            while view.status == "playing":
                bet, open_now = bets[street], view.actions
                action = open_now[1] if bet else open_now[0]  # the street bet, or fold/check
                view = decide(s, TABLE, "ann", action, key=f"{round_key}-street{street}",
                              rng=rng, at=AT)
                street += 1
        after = wallet(casino, "ann")
        paid = view.paid or 0
        assert after == start[0] - view.staked + paid >= 0
        with transaction(casino) as s:
            assert balance(s, "house:bank") == start[1] + view.staked - paid
    whole(casino)


def test_an_ante_over_the_maximum_is_taken_at_it_and_the_flop_bet_follows_it(
        casino: Engine) -> None:
    with transaction(casino) as s:
        dealt = deal(s, TABLE, "ann", {"ante": 25_000, "bonus": 100}, key="m1",
                     rng=SeededRng(30), at=AT)
    assert dealt.staked == 20_100  # the rest of the ante never debited (RAY 1.1)
    assert wallet(casino, "ann") == MONEY - 20_100
    with transaction(casino) as s:
        bet = decide(s, TABLE, "ann", "bet flop", key="m2", rng=SeededRng(31), at=AT)
    assert bet.staked == 60_100 and wallet(casino, "ann") == MONEY - 60_100
    whole(casino)
