"""Russian Poker on the persistent wallet, on SQLite and PostgreSQL: the ante debited at the
deal, a draw's price (one ante for an exchange or a sixth card, a bet on ``exchange`` or
``sixth`` settled with nothing back) when the draw is made, the bet (2x the ante) when
made, a bought game's price when bought, every bet paid exactly what the engine settles
(hands stacked, payouts worked out by hand from the rule data: two combinations paid, a
card of the rank put away drawn again), no credit, retries answered once, a key sent with
another request refused, a round left waiting finished by the house after 24 hours
(GGPoker house rules 2.3: it folds, or takes the ante), a provably fair round's sixth card
the next card of its own deck, recall by replay, and the ledger whole throughout."""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest
from banked_fixtures import StackedDeck, house, whole
from banked_fixtures import replayed as replayed_round
from dbfixtures import setup, stored, wallet
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, select

from pelisali.engine.russian import RussianState
from pelisali.games.russian_poker import decision
from pelisali.platform import accounts, fairness, tables
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
from pelisali.platform.models import BetRow
from pelisali.platform.rounds import TableError
from pelisali.platform.table_layer import cards_of
from pelisali.rng import SeededRng

AT = datetime(2026, 12, 8, 12, 0, tzinfo=UTC)
MONEY = 200_000
TABLE = "russian-ann"
replayed = partial(replayed_round, "russian-poker", kind=RussianState)


@pytest.fixture
def casino(engine: Engine) -> Engine:
    setup(engine, ("ann", "bob"), money=MONEY)
    with transaction(engine) as s:
        create_banked_table(s, TABLE, "russian-poker")
    return engine


# Each: the ante, the cards (box, dealer with the up card last, then the draws and a
# bought game's cards), the decisions, what each debits, and every bet's (spot, stake,
# paid, result word) worked out by hand: a draw and a bought game one ante each, the bet
# 2x, the dealer qualifying with ace-king, the pay table 100-50-20-7-5-4-3-2-1-1 summed
# over the two best combinations, the ante pushing beside a winning bet.
HANDS = [
    pytest.param(  # a pair and ace-king against the dealer's ace-king: the bet 2:1
        1_000, "Kc Kd Ah 9s 2d Ac Kh 5d 4s 2c", ["raise"], [2_000],
        [("ante", 1_000, 1_000, "push"), ("raise", 2_000, 6_000, "win")], id="pair-and-ak"),
    pytest.param(  # a sixth card to a flush (A-K inside it pays nothing more): 5:1
        1_000, "Ah Kh 7h 2h 9d As Ks 5d 4s 2c 5h", ["sixth", "raise"], [1_000, 2_000],
        [("ante", 1_000, 1_000, "push"), ("sixth", 1_000, 0, "fee"),
         ("raise", 2_000, 12_000, "win")], id="sixth-flush"),
    pytest.param(  # a sixth card to two straights (the second with the new 9): 8:1
        1_000, "5c 6d 7h 8s 9d As Ks 5d 4s 2c 9c", ["sixth", "raise"], [1_000, 2_000],
        [("ante", 1_000, 1_000, "push"), ("sixth", 1_000, 0, "fee"),
         ("raise", 2_000, 18_000, "win")], id="sixth-two-straights"),
    pytest.param(  # two exchanged for one ante, to nothing, then folded: all lost
        1_000, "As Kd 4c 7h 9s Qh Qc 5s 6d 2h 8d 3h", ["exchange 4c 7h", "fold"],
        [1_000, 0],
        [("ante", 1_000, 0, "fold"), ("exchange", 1_000, 0, "fee")],
        id="exchange-fold"),
    pytest.param(  # the dealer does not qualify and the box takes its ante: 1:1, bet pushed
        1_000, "7c 7d 7h 9s 2d Qc Jd 9c 4h 3c", ["raise", "take"], [2_000, 0],
        [("ante", 1_000, 2_000, "win"), ("raise", 2_000, 2_000, "push")], id="take"),
    pytest.param(  # a game bought: the queen put away, a queen again put away, a jack:
        # J-J qualifies, the trips win 3:1, the ante pushes; the price the house's
        1_000, "7c 7d 7h 9s 2d Qc Jd 9c 4h 3c Qd Jh", ["raise", "buy"], [2_000, 1_000],
        [("ante", 1_000, 1_000, "push"), ("raise", 2_000, 8_000, "win"),
         ("buy", 1_000, 0, "fee")], id="buy-redraw-wins"),
    pytest.param(  # a game bought that still does not qualify: the ante 1:1 again
        1_000, "7c 7d 7h 9s 2d Qc Jd 9c 4h 3c 8s", ["raise", "buy"], [2_000, 1_000],
        [("ante", 1_000, 2_000, "win"), ("raise", 2_000, 2_000, "push"),
         ("buy", 1_000, 0, "fee")], id="buy-no-game"),
    pytest.param(  # a game bought that beats the box: all lost
        1_000, "7c 7d 2h 9s 3d Qc Jd 9c 4h 5c 9h", ["raise", "buy"], [2_000, 1_000],
        [("ante", 1_000, 0, "lose"), ("raise", 2_000, 0, "lose"),
         ("buy", 1_000, 0, "fee")], id="buy-loses"),
    pytest.param(  # equal hands against a qualifying dealer: both pushed
        1_000, "Ah Kd 9c 5s 3h As Kc 9d 5h 3c", ["raise"], [2_000],
        [("ante", 1_000, 1_000, "push"), ("raise", 2_000, 2_000, "push")], id="tie"),
]


@pytest.mark.parametrize(("ante", "cards", "plan", "debits", "expected"), HANDS)
def test_each_decision_is_debited_as_made_and_every_bet_paid_exactly(
        casino: Engine, ante: int, cards: str, plan: list[str], debits: list[int],
        expected: list[tuple[str, int, int, str]]) -> None:
    dealt = cards.split()
    rng = StackedDeck(cards)
    bank = house(casino)
    with transaction(casino) as s:
        view = deal(s, TABLE, "ann", {"ante": ante}, key="k0", rng=rng, at=AT)
    assert (view.status, view.staked) == ("playing", ante)
    assert view.actions[:3] == ("fold", "raise", "sixth") and len(view.actions) == 3 + 31
    shown = view.view
    assert shown["cards"] == dealt[:5] and shown["dealer_up"] == dealt[9]
    assert shown["dealer"] == [] and shown["fees"] == 0
    for number, (action, debit) in enumerate(zip(plan, debits, strict=True)):
        before = wallet(casino, "ann")
        with transaction(casino) as s:
            view = decide(s, TABLE, "ann", action, key=f"k{number + 1}", rng=rng, at=AT)
        assert wallet(casino, "ann") == before - debit + (view.paid or 0)
        if view.status == "playing" and action == "raise":  # the dealer does not qualify
            assert view.actions == ("take", "buy") and view.view["dealer"] == dealt[5:10]
        elif view.status == "playing":  # after a draw: fold or bet
            assert view.actions == ("fold", "raise") and view.view["fees"] == debit
    assert view.status == "settled" and rng.cards == []
    paid = sum(e[2] for e in expected)
    assert [(x["spot"], x["stake"], x["paid"], x["result"].split(",")[0])
            for x in view.view["settlements"]] == expected
    assert (view.staked, view.paid) == (sum(e[1] for e in expected), paid)
    assert wallet(casino, "ann") == MONEY - view.staked + paid == view.balance
    engine = replayed(stored(casino, view.round_id))
    assert [(x.spot, x.stake, x.paid) for x in engine.settlements] == [e[:3] for e in expected]
    assert house(casino) == bank + view.staked - paid  # prices the house's, nothing made
    with transaction(casino) as s:
        rows = s.scalars(select(BetRow).where(BetRow.round_id == view.round_id)
                         .order_by(BetRow.number)).all()
        assert [(b.spot, b.stake, b.paid) for b in rows] == [e[:3] for e in expected]
        assert [b.result for b in rows] == [e[3] for e in expected]  # the history's words
        assert recall_banked_round(s, view.round_id).same and tables.recall(s, view.round_id).same
    whole(casino)


def test_the_bought_game_shows_both_hands_and_the_cards_put_away(casino: Engine) -> None:
    rng = StackedDeck("7c 7d 7h 9s 2d Qc Jd 9c 4h 3c Qd Jh")
    with transaction(casino) as s:
        deal(s, TABLE, "ann", {"ante": 1_000}, key="b0", rng=rng, at=AT)
        waiting = decide(s, TABLE, "ann", "raise", key="b1", rng=rng, at=AT)
        assert waiting.view["dealer_qualifies"] is False and waiting.view["put_away"] == []
        done = decide(s, TABLE, "ann", "buy", key="b2", rng=rng, at=AT)
    shown = done.view
    assert shown["dealer_first"] == ["Qc", "Jd", "9c", "4h", "3c"]
    assert shown["put_away"] == ["Qc", "Qd"] and shown["dealer"] == ["Jd", "9c", "4h", "3c", "Jh"]
    assert shown["dealer_hand"] == "pair" and shown["combinations"] == ["three_of_a_kind"]
    assert shown["buys"] == ["buy"] and shown["fees"] == 1_000


def test_retries_are_answered_once_keys_are_bound_and_refusals_change_nothing(
        casino: Engine) -> None:
    rng = StackedDeck("7c 7d 7h 9s 2d Qc Jd 9c 4h 3c 8s")
    with transaction(casino) as s:
        deal(s, TABLE, "ann", {"ante": 1_000}, key="d1", rng=rng, at=AT)
    for action, words in (("buy", "when the dealer does not qualify"),
                          ("take", "when the dealer does not qualify"),
                          ("exchange 2c", "2c is not in seat 0's hand"),
                          ("sixth 2c", "is not an action here")):
        with transaction(casino) as s, pytest.raises(TableError, match=words):
            decide(s, TABLE, "ann", action, key=f"bad-{action}", at=AT)
    with transaction(casino) as s:
        sixth = decide(s, TABLE, "ann", "sixth", key="s1", rng=rng, at=AT)
    assert sixth.view["cards"] == ["7c", "7d", "7h", "9s", "2d", "8s"]
    assert sixth.view["fees"] == 1_000
    with transaction(casino) as s:  # sent again: answered, the price taken once
        assert decide(s, TABLE, "ann", "sixth", key="s1", rng=SeededRng(3), at=AT) == sixth
        with pytest.raises(KeyConflict):
            decide(s, TABLE, "ann", "raise", key="s1", at=AT)
    for action, words in (("sixth", "a box draws once"), ("exchange 2d", "a box draws once")):
        with transaction(casino) as s, pytest.raises(TableError, match=words):
            decide(s, TABLE, "ann", action, key=f"again-{action}", at=AT)
    assert wallet(casino, "ann") == MONEY - 2_000
    with transaction(casino) as s:
        waiting = decide(s, TABLE, "ann", "raise", key="r1", rng=rng, at=AT)
    assert waiting.actions == ("take", "buy")
    with transaction(casino) as s, pytest.raises(TableError, match="'take' the ante"):
        decide(s, TABLE, "ann", "fold", key="f1", at=AT)
    with transaction(casino) as s:
        taken = decide(s, TABLE, "ann", "take", key="t1", rng=rng, at=AT)
    with transaction(casino) as s:  # a take stakes nothing: its key still answers it
        assert decide(s, TABLE, "ann", "take", key="t1", at=AT) == taken
        with pytest.raises(KeyConflict):
            decide(s, TABLE, "ann", "buy", key="t1", at=AT)
    assert taken.status == "settled" and taken.paid == 2_000 + 2_000
    assert wallet(casino, "ann") == MONEY - 4_000 + 4_000
    whole(casino)


def test_a_price_or_bet_the_wallet_does_not_hold_is_refused_and_changes_nothing(
        casino: Engine) -> None:
    rng = StackedDeck("7c 7d 7h 9s 2d Qc Jd 9c 4h 3c 8s")
    with transaction(casino) as s:
        deal(s, TABLE, "ann", {"ante": 20_000}, key="big", rng=rng, at=AT)
        accounts.withdraw(s, "ann", MONEY - 20_000 - 50_000, key="w1")
        decide(s, TABLE, "ann", "raise", key="r1", rng=rng, at=AT)  # 40,000 of 50,000
    before = (wallet(casino, "ann"), house(casino))
    with transaction(casino) as s, pytest.raises(TableError, match="no credit"):
        decide(s, TABLE, "ann", "buy", key="b1", rng=rng, at=AT)  # 20,000 against 10,000
    assert (wallet(casino, "ann"), house(casino)) == before
    with transaction(casino) as s:
        waiting = playing(s, TABLE)
        assert waiting is not None and waiting.actions == ("take", "buy")
        done = decide(s, TABLE, "ann", "take", key="t1", rng=rng, at=AT)
    assert done.paid == 40_000 + 40_000 and wallet(casino, "ann") == 10_000 + 80_000
    whole(casino)


@pytest.mark.parametrize(("cards", "made", "decided", "expected"), [
    pytest.param("Kc Kd 7h 9s 2d Ac Kh 5d 4s 2c", [], "fold", [("ante", 1_000, 0, "fold")],
                 id="folds"),
    pytest.param("7c 7d 7h 9s 2d Qc Jd 9c 4h 3c", ["raise"], "take",
                 [("ante", 1_000, 2_000, "win, the dealer does not qualify"),
                  ("raise", 2_000, 2_000, "push, the dealer does not qualify")],
                 id="takes-the-ante"),
])
def test_a_round_left_waiting_is_finished_by_the_house_after_24_hours(
        casino: Engine, cards: str, made: list[str], decided: str,
        expected: list[tuple[str, int, int, str]]) -> None:
    rng = StackedDeck(cards)
    with transaction(casino) as s:
        dealt = deal(s, TABLE, "ann", {"ante": 1_000}, key="w1", rng=rng, at=AT)
        for number, action in enumerate(made):
            decide(s, TABLE, "ann", action, key=f"m{number}", rng=rng, at=AT)
    with transaction(casino) as s:
        assert recover_banked_rounds(s, rng=rng, at=AT + timedelta(hours=23)) == []
    with transaction(casino) as s:
        assert recover_banked_rounds(s, rng=rng, at=AT + timedelta(hours=24)) == [
            (dealt.round_id, f"settled, the house decided {decided}")]
    engine = replayed(stored(casino, dealt.round_id))
    assert [(x.spot, x.stake, x.paid, x.result) for x in engine.settlements] == expected
    assert wallet(casino, "ann") == MONEY - sum(e[1] for e in expected) \
        + sum(e[2] for e in expected)
    whole(casino)


def test_a_fair_round_s_sixth_card_is_the_next_card_of_its_own_deck(casino: Engine) -> None:
    with transaction(casino) as s:
        name = fairness.set_fair(s, "ann", "russian-poker", None, True)
        view = deal(s, name, "ann", {"ante": 500}, key="fair-1", at=AT)
        cards = view.view["cards"]
        view = decide(s, name, "ann", "sixth", key="fair-2", at=AT)
        view = decide(s, name, "ann", "raise", key="fair-3", at=AT)
        if view.status == "playing":  # the dealer does not qualify
            view = decide(s, name, "ann", "take", key="fair-4", at=AT)
    record = stored(casino, view.round_id)
    order = cards_of(record["shuffle_order"])
    assert cards == order[:5] and view.view["dealer"] == order[5:10]
    assert view.view["cards"] == [*cards, order[10]]
    with transaction(casino) as s:
        fairness.rotate(s, "ann")
    with transaction(casino) as s:
        found = fairness.verify(s, view.round_id)
        assert found.matches, found.problem
        assert found.recomputed == found.recorded == order[:11]
    whole(casino)


ROUNDS = itertools.count()
PLAN = st.lists(st.tuples(st.integers(0, 2**16), st.integers(100, 5_000),
                          st.sampled_from(["strategy", "fold", "raise", "sixth", "five"]),
                          st.sampled_from(["take", "buy"])),
                min_size=1, max_size=4)


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(plan=PLAN)
def test_money_is_conserved_over_random_rounds(
        casino: Engine, plan: list[tuple[int, int, str, str]]) -> None:
    """Whatever the cards and decisions (the basic strategy, a fold, a bet, a sixth card,
    all five exchanged; take or buy), the wallet moves by what was paid less what was
    staked, the house's by the opposite, every price is the house's."""
    for seed, ante, how, answer in plan:
        with transaction(casino) as s:
            start = (balance(s, accounts.wallet_code("ann")), balance(s, "house:bank"))
            rng = SeededRng(seed)
            key = f"p{next(ROUNDS)}"
            view = deal(s, TABLE, "ann", {"ante": ante}, key=key, rng=rng, at=AT)
            hand = view.view["cards"]
            first = {"strategy": decision(hand), "five": f"exchange {' '.join(hand)}"}.get(
                how, how)
            for step in itertools.count():
                if view.status != "playing":
                    break
                action = first if step == 0 else answer if "take" in view.actions \
                    else decision(view.view["cards"], True) if how == "strategy" else "raise"
                view = decide(s, TABLE, "ann", action, key=f"{key}-{step}", rng=rng, at=AT)
        prices = [x for x in view.view["settlements"] if x["spot"] in ("exchange", "sixth",
                                                                        "buy")]
        assert all(x["paid"] == 0 and x["stake"] == ante for x in prices)
        paid = view.paid or 0
        assert wallet(casino, "ann") == start[0] - view.staked + paid >= 0
        assert house(casino) == start[1] + view.staked - paid
    whole(casino)


def test_a_late_retry_is_answered_by_its_own_round_not_taken_in_the_next(
        casino: Engine) -> None:
    """A decision that staked nothing (take) sent again after the next round was dealt
    is its own round's: answered there, the waiting round left to wait; the key with
    another decision is refused."""
    rng = StackedDeck("7c 7d 7h 9s 2d Qc Jd 9c 4h 3c", "8c 8d 8h 9h 2h Qs Js 9d 4s 3d")
    with transaction(casino) as s:
        deal(s, TABLE, "ann", {"ante": 1_000}, key="r1-deal", rng=rng, at=AT)
        decide(s, TABLE, "ann", "raise", key="r1-bet", rng=rng, at=AT)
        first = decide(s, TABLE, "ann", "take", key="t1", rng=rng, at=AT)
        deal(s, TABLE, "ann", {"ante": 1_000}, key="r2-deal", rng=rng, at=AT)
        waiting = decide(s, TABLE, "ann", "raise", key="r2-bet", rng=rng, at=AT)
    assert first.status == "settled" and waiting.actions == ("take", "buy")
    before = wallet(casino, "ann")
    with transaction(casino) as s:
        again = decide(s, TABLE, "ann", "take", key="t1", at=AT)
        # the first round's answer, with the wallet as it stands now
        assert replace(again, balance=first.balance) == first and again.balance == before
        with pytest.raises(KeyConflict):
            decide(s, TABLE, "ann", "buy", key="t1", at=AT)
        still = playing(s, TABLE)
    assert still is not None and still.round_id == waiting.round_id
    assert still.actions == ("take", "buy") and wallet(casino, "ann") == before
    whole(casino)
