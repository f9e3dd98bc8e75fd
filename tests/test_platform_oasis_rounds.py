"""Oasis Stud Poker on the persistent wallet, on SQLite and PostgreSQL: the ante debited at
the deal, an exchange's fee (the fee table's multiple of the ante, a bet on ``exchange``
settled with nothing back) when the exchange is made, the raise (2x the ante) when
made, every bet paid exactly what the engine settles (hands stacked, payouts worked out
by hand from the rule data), an exchange of all five cards taking its forced raise in the
same request, no credit (a fee or raise the wallet does not hold is refused and changes
nothing), retries answered once, a key sent with another request refused, illegal and
out-of-turn moves refused with nothing changed, a round left waiting folded by the house
after 24 hours (GGPoker house rules 2.3), a provably fair round's replacements the next
cards of its own deck, recall by replay, and the ledger whole throughout."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest
from banked_fixtures import StackedDeck, house, whole
from banked_fixtures import replayed as replayed_round
from dbfixtures import setup, stored, wallet
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, select

from pelisali.engine.oasis import OasisState
from pelisali.games.oasis_stud import decision, exchange_choice
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
from pelisali.platform.models import AuditEntry, BetRow
from pelisali.platform.rounds import TableError
from pelisali.platform.table_layer import cards_of
from pelisali.rng import SeededRng

AT = datetime(2026, 12, 8, 12, 0, tzinfo=UTC)
MONEY = 200_000
TABLE = "oasis-ann"


Stacked = StackedDeck
replayed = partial(replayed_round, "oasis-stud", kind=OasisState)


@pytest.fixture
def casino(engine: Engine) -> Engine:
    setup(engine, ("ann", "bob"), money=MONEY)
    with transaction(engine) as s:
        create_banked_table(s, TABLE, "oasis-stud")
        create_banked_table(s, "oasis-bob", "oasis-stud")
    return engine


# Each: the ante, the cards (box, dealer with the up card last, replacements), the
# decisions, what each decision debits, and every bet's (spot, stake, paid, result word)
# worked out by hand: fees 1-2-3-2-1 times the ante, the raise 2x, the dealer qualifying
# with ace-king, the raise table 100-50-20-7-5-4-3-2-1-1.
HANDS = [
    pytest.param(  # a pair raised against the dealer's ace-king: ante 1:1, the raise 1:1
        1_000, "Kc Kd 7h 9s 2d Ac Kh 5d 4s 2c", ["raise"], [2_000],
        [("ante", 1_000, 2_000, "win"), ("raise", 2_000, 4_000, "win")], id="pair"),
    pytest.param(  # one card exchanged (fee 1x) to a flush; the dealer does not qualify:
        # the ante 1:1, the raise pushed, the fee kept by the house
        1_000, "Ah Kh 7h 2h 9d Qc Jd 9c 4h 3c 5h", ["exchange 9d", "raise"], [1_000, 2_000],
        [("ante", 1_000, 2_000, "win"), ("exchange", 1_000, 0, "fee for a card"),
         ("raise", 2_000, 2_000, "push")], id="exchange-one-flush"),
    pytest.param(  # three exchanged (fee 3x) to nothing, then folded: all lost
        1_000, "As Kd 4c 7h 9s Qh Qc 5s 6d 2h 8d 3h 2s", ["exchange 4c 7h 9s", "fold"],
        [3_000, 0],
        [("ante", 1_000, 0, "fold"), ("exchange", 3_000, 0, "fee for 3 cards")],
        id="exchange-three-fold"),
    pytest.param(  # all five exchanged (fee 1x) and the forced raise in one request: a
        # full house against the dealer's kings, the raise 7:1
        1_000, "2c 4d 6h 8s Tc Kh Ks 9d 7c 5h Ah Ad Ac 3s 3d", ["exchange 2c 4d 6h 8s Tc"],
        [3_000],
        [("ante", 1_000, 2_000, "win"), ("exchange", 1_000, 0, "fee for 5 cards"),
         ("raise", 2_000, 16_000, "win")], id="exchange-five-forced-raise"),
    pytest.param(  # equal hands against a qualifying dealer: both bets pushed
        1_000, "Ah Kd 9c 5s 3h As Kc 9d 5h 3c", ["raise"], [2_000],
        [("ante", 1_000, 1_000, "push"), ("raise", 2_000, 2_000, "push")], id="tie"),
    pytest.param(  # the dealer's kings over the box's queens: both lost
        1_001, "Qh Qd 5c 7s 2h Kh Kd 8c 6s 3d", ["raise"], [2_002],
        [("ante", 1_001, 0, "lose"), ("raise", 2_002, 0, "lose")], id="dealer-wins"),
    pytest.param(  # a card exchanged to a royal flush: the raise 100:1
        100, "Ts Js Qs Ks 2d Ah Kd 7c 5s 3h As", ["exchange 2d", "raise"], [100, 200],
        [("ante", 100, 200, "win"), ("exchange", 100, 0, "fee for a card"),
         ("raise", 200, 20_200, "win")], id="royal"),
]


@pytest.mark.parametrize(("ante", "cards", "plan", "debits", "expected"), HANDS)
def test_each_decision_is_debited_as_made_and_every_bet_paid_exactly(
        casino: Engine, ante: int, cards: str, plan: list[str], debits: list[int],
        expected: list[tuple[str, int, int, str]]) -> None:
    dealt = cards.split()
    rng = Stacked(cards)
    bank = house(casino)
    with transaction(casino) as s:
        view = deal(s, TABLE, "ann", {"ante": ante}, key="k0", rng=rng, at=AT)
    assert (view.status, view.staked) == ("playing", ante)
    assert view.actions[:2] == ("fold", "raise") and len(view.actions) == 2 + 31
    shown = view.view
    assert shown["cards"] == dealt[:5] and shown["dealer_up"] == dealt[9]
    assert shown["dealer"] == [] and shown["exchanged"] == [0] and shown["fees"] == 0
    assert wallet(casino, "ann") == MONEY - ante
    for number, (action, debit) in enumerate(zip(plan, debits, strict=True)):
        before = wallet(casino, "ann")
        with transaction(casino) as s:
            view = decide(s, TABLE, "ann", action, key=f"k{number + 1}", rng=rng, at=AT)
        assert wallet(casino, "ann") == before - debit + (view.paid or 0)
        if view.status == "playing":  # after an exchange: the replacements, then the raise
            discarded = action.split()[1:]
            assert view.view["discarded"] == discarded and view.actions == ("fold", "raise")
            assert view.view["cards"] == [c for c in dealt[:5] if c not in discarded] \
                + dealt[10:10 + len(discarded)]
            assert view.view["fees"] == debit and view.view["exchanged"] == [len(discarded)]
    assert view.status == "settled" and view.view["dealer"] == dealt[5:10]
    assert rng.cards == []  # every card stacked was dealt, none more
    paid = sum(e[2] for e in expected)
    assert [(x["spot"], x["stake"], x["paid"], x["result"].split(",")[0])
            for x in view.view["settlements"]] == expected
    assert (view.staked, view.paid) == (sum(e[1] for e in expected), paid)
    assert wallet(casino, "ann") == MONEY - view.staked + paid == view.balance
    engine = replayed(stored(casino, view.round_id))
    assert [(x.spot, x.stake, x.paid) for x in engine.settlements] == [e[:3] for e in expected]
    assert house(casino) == bank + view.staked - paid  # the fee the house's, nothing made
    with transaction(casino) as s:
        rows = s.scalars(select(BetRow).where(BetRow.round_id == view.round_id)
                         .order_by(BetRow.number)).all()
        assert [(b.spot, b.stake, b.paid) for b in rows] == [e[:3] for e in expected]
        assert recall_banked_round(s, view.round_id).same and tables.recall(s, view.round_id).same
    whole(casino)


def test_the_forced_raise_goes_with_the_exchange_under_its_key(casino: Engine) -> None:
    """An exchange of all five: the fee under the request's key, the raise under KEY:N;
    the request sent again answers it, taken once."""
    rng = Stacked("2c 4d 6h 8s Tc Kh Ks 9d 7c 5h Ah Ad Ac 3s 3d")
    with transaction(casino) as s:
        deal(s, TABLE, "ann", {"ante": 1_000}, key="f0", rng=rng, at=AT)
        done = decide(s, TABLE, "ann", "exchange 2C 4d 6H 8s 10c", key="f1", rng=rng, at=AT)
    with transaction(casino) as s:
        again = decide(s, TABLE, "ann", "exchange 2c 4d 6h 8s Tc", key="f1",
                       rng=SeededRng(1), at=AT)
        assert again == done
        keys = [b.key for b in s.scalars(select(BetRow).where(
            BetRow.round_id == done.round_id).order_by(BetRow.number))]
    assert keys == ["f0", "f1", "f1:3"]
    assert [m["text"] for m in stored(casino, done.round_id)["history"] if m["actor"] == 0][-2:] \
        == ["exchange 2c 4d 6h 8s Tc", "raise"]
    assert wallet(casino, "ann") == MONEY - 4_000 + 18_000
    whole(casino)


def test_retries_are_answered_once_keys_are_bound_and_refusals_change_nothing(
        casino: Engine) -> None:
    with transaction(casino) as s, pytest.raises(TableError, match="no round waits"):
        decide(s, TABLE, "ann", "raise", key="early", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="no bet 'bonus'"):
        deal(s, TABLE, "ann", {"ante": 500, "bonus": 500}, key="t0", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="under the table minimum"):
        deal(s, TABLE, "ann", {"ante": 50}, key="t1", at=AT)
    rng = Stacked("As Kd 4c 7h 9s Qh Qc 5s 6d 2h 8d 3h 2s")
    with transaction(casino) as s:
        first = deal(s, TABLE, "ann", {"ante": 1_000}, key="d1", rng=rng, at=AT)
    with transaction(casino) as s:
        assert deal(s, TABLE, "ann", {"ante": 1_000}, key="d1", at=AT) == first
        with pytest.raises(KeyConflict):
            deal(s, TABLE, "ann", {"ante": 2_000}, key="d1", at=AT)
        with pytest.raises(KeyConflict):  # the deal's key sent with a decision
            decide(s, TABLE, "ann", "exchange 4c", key="d1", at=AT)
    for action, words in (("exchange Zz", "'Zz' is not a card"),
                          ("exchange 2d", "2d is not in seat 0's hand"),
                          ("exchange 4c 4c", "4c is named twice"),
                          ("exchange", "name the cards to exchange"),
                          ("exchange As Kd 4c 7h 9s 2d", "1 to 5 cards, not 6"),
                          ("play", "is not an action here"), ("raise 500", "is not an action")):
        with transaction(casino) as s, pytest.raises(TableError, match=words):
            decide(s, TABLE, "ann", action, key=f"bad-{action}", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="is ann's"):
        decide(s, TABLE, "bob", "raise", key="bob-1", at=AT)  # out of turn: not bob's round
    assert wallet(casino, "ann") == MONEY - 1_000 and wallet(casino, "bob") == MONEY
    with transaction(casino) as s:
        swapped = decide(s, TABLE, "ann", "exchange 4c 7h 9s", key="e1", rng=rng, at=AT)
    assert wallet(casino, "ann") == MONEY - 4_000 and swapped.view["fees"] == 3_000
    with transaction(casino) as s:  # the answer lost: sent again, answered, taken once
        assert decide(s, TABLE, "ann", "exchange 4C 7H 9S", key="e1", rng=SeededRng(5),
                      at=AT) == swapped
        with pytest.raises(KeyConflict):  # the exchange's key with another decision
            decide(s, TABLE, "ann", "raise", key="e1", at=AT)
        with pytest.raises(KeyConflict):
            decide(s, TABLE, "ann", "exchange 4c", key="e1", at=AT)
        with pytest.raises(KeyConflict):  # and with a deal
            deal(s, TABLE, "ann", {"ante": 1_000}, key="e1", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="a box exchanges once"):
        decide(s, TABLE, "ann", "exchange As", key="e2", at=AT)
    assert wallet(casino, "ann") == MONEY - 4_000
    with transaction(casino) as s:
        folded = decide(s, TABLE, "ann", "fold", key="x1", rng=rng, at=AT)
    with transaction(casino) as s:  # a fold takes no stake: its key still answers it
        assert decide(s, TABLE, "ann", "fold", key="x1", at=AT) == folded
        with pytest.raises(KeyConflict):
            decide(s, TABLE, "ann", "raise", key="x1", at=AT)
        with pytest.raises(KeyConflict):  # another player's table
            decide(s, "oasis-bob", "bob", "fold", key="e1", at=AT)
    assert folded.status == "settled" and folded.paid == 0
    assert wallet(casino, "ann") == MONEY - 4_000
    with transaction(casino) as s, pytest.raises(TableError, match="no round waits"):
        decide(s, TABLE, "ann", "raise", key="late", at=AT)
    whole(casino)


def test_a_fee_or_raise_the_wallet_does_not_hold_is_refused_and_changes_nothing(
        casino: Engine) -> None:
    with transaction(casino) as s:
        deal(s, TABLE, "ann", {"ante": 20_000}, key="big", rng=SeededRng(6), at=AT)
    with transaction(casino) as s:  # 50,000 left: a fee of 3x, 60,000, is not held
        accounts.withdraw(s, "ann", MONEY - 20_000 - 50_000, key="w1")
    with transaction(casino) as s:
        waiting = playing(s, TABLE)
        assert waiting is not None
        cards = waiting.view["cards"]
    before = (wallet(casino, "ann"), house(casino))
    with transaction(casino) as s, pytest.raises(TableError, match="no credit"):
        decide(s, TABLE, "ann", f"exchange {' '.join(cards[:3])}", key="x3",
               rng=SeededRng(1), at=AT)
    # all five: the fee (1x, 20,000) is held, but not with the raise it forces (40,000)
    with transaction(casino) as s, pytest.raises(TableError, match=r"not 600\.00: no credit"):
        decide(s, TABLE, "ann", f"exchange {' '.join(cards)}", key="x5", rng=SeededRng(1),
               at=AT)
    assert (wallet(casino, "ann"), house(casino)) == before == (50_000, before[1])
    with transaction(casino) as s:
        waiting = playing(s, TABLE)
        assert waiting is not None and waiting.view["exchanged"] == [0]
        assert waiting.actions[:2] == ("fold", "raise") and waiting.staked == 20_000
        swapped = decide(s, TABLE, "ann", f"exchange {cards[0]}", key="x1", rng=SeededRng(2),
                         at=AT)
    assert wallet(casino, "ann") == 30_000 and swapped.status == "playing"
    with transaction(casino) as s, pytest.raises(TableError, match="no credit"):
        decide(s, TABLE, "ann", "raise", key="r1", at=AT)  # 40,000 against 30,000
    with transaction(casino) as s:
        waiting = playing(s, TABLE)
        assert waiting is not None and waiting.actions == ("fold", "raise")
        assert waiting.staked == 40_000
    assert wallet(casino, "ann") == 30_000
    whole(casino)


@pytest.mark.parametrize(("cards", "made", "expected"), [
    pytest.param("Kc Kd 7h 9s 2d Ac Kh 5d 4s 2c", [], [("ante", 1_000, 0, "fold")],
                 id="no-exchange"),
    pytest.param("Ah Kh 7h 2h 9d Qc Jd 9c 4h 3c 5h", ["exchange 9d"],
                 [("ante", 1_000, 0, "fold"), ("exchange", 1_000, 0, "fee for a card")],
                 id="after-an-exchange"),
])
def test_a_round_left_waiting_is_folded_by_the_house_after_24_hours(
        casino: Engine, cards: str, made: list[str],
        expected: list[tuple[str, int, int, str]]) -> None:
    rng = Stacked(cards)
    with transaction(casino) as s:
        dealt = deal(s, TABLE, "ann", {"ante": 1_000}, key="w1", rng=rng, at=AT)
        for number, action in enumerate(made):
            decide(s, TABLE, "ann", action, key=f"m{number}", rng=rng, at=AT)
    with transaction(casino) as s:
        assert recover_banked_rounds(s, rng=rng, at=AT + timedelta(hours=23)) == []
    with transaction(casino) as s:
        done = recover_banked_rounds(s, rng=rng, at=AT + timedelta(hours=24))
        assert done == [(dealt.round_id, "settled, the house decided fold")]
    with transaction(casino) as s:
        entry = s.scalars(select(AuditEntry).where(
            AuditEntry.action == "banked_round_completed")).one()
        assert "GGPoker house rules 2.3" in entry.payload
        assert playing(s, TABLE) is None and recall_banked_round(s, dealt.round_id).same
    engine = replayed(stored(casino, dealt.round_id))
    assert [(x.spot, x.stake, x.paid, x.result) for x in engine.settlements] == expected
    assert wallet(casino, "ann") == MONEY - sum(e[1] for e in expected)
    whole(casino)


def test_a_fair_round_s_replacements_are_the_next_cards_of_its_own_deck(
        casino: Engine) -> None:
    """At a provably fair table the round's deck is shuffled from the seed pair (one
    nonce a round); the box's five, the dealer's five, then the replacements, in order;
    the revealed seed recomputes every card."""
    with transaction(casino) as s:
        name = fairness.set_fair(s, "ann", "oasis-stud", None, True)
        view = deal(s, name, "ann", {"ante": 500}, key="fair-1", at=AT)
        cards = view.view["cards"]
        view = decide(s, name, "ann", f"exchange {cards[1]} {cards[3]}", key="fair-2", at=AT)
        view = decide(s, name, "ann", "raise", key="fair-3", at=AT)
    record = stored(casino, view.round_id)
    order = cards_of(record["shuffle_order"])
    (proof,) = record["fair"]
    assert proof["nonce"] == 0 and record["shoe_positions"] == [0, 12]
    assert cards[:5] == order[:5] and view.view["dealer"] == order[5:10]
    assert view.view["cards"] == [cards[0], cards[2], cards[4], *order[10:12]]
    with transaction(casino) as s:
        fairness.rotate(s, "ann")
    with transaction(casino) as s:
        found = fairness.verify(s, view.round_id)
        assert found.matches, found.problem
        assert found.recomputed == found.recorded == order[:12]
    whole(casino)


ROUNDS = itertools.count()  # each round's keys its own, across the examples
PLAN = st.lists(st.tuples(st.integers(0, 2**16), st.integers(100, 5_000),
                          st.sampled_from(["strategy", "fold", "raise", "five"])),
                min_size=1, max_size=4)


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(plan=PLAN)
def test_money_is_conserved_over_random_rounds(
        casino: Engine, plan: list[tuple[int, int, str]]) -> None:
    """Whatever the cards and decisions (the basic strategy, a fold, a raise, all five
    exchanged), the wallet moves by what was paid less what was staked, the house's by
    the opposite, every fee is the house's and nothing goes negative."""
    for seed, ante, how in plan:
        with transaction(casino) as s:
            start = (balance(s, accounts.wallet_code("ann")), balance(s, "house:bank"))
            rng = SeededRng(seed)
            key = f"p{next(ROUNDS)}"
            view = deal(s, TABLE, "ann", {"ante": ante}, key=key, rng=rng, at=AT)
            hand = view.view["cards"]
            if how == "strategy":
                swap = exchange_choice(hand)
                if swap:
                    view = decide(s, TABLE, "ann", f"exchange {' '.join(swap)}",
                                  key=f"{key}-x", rng=rng, at=AT)
                if view.status == "playing":
                    view = decide(s, TABLE, "ann", decision(view.view["cards"], bool(swap)),
                                  key=f"{key}-d", rng=rng, at=AT)
            elif how == "five":
                view = decide(s, TABLE, "ann", f"exchange {' '.join(hand)}", key=f"{key}-x",
                              rng=rng, at=AT)
            else:
                view = decide(s, TABLE, "ann", how, key=f"{key}-d", rng=rng, at=AT)
        assert view.status == "settled"
        fees = [x for x in view.view["settlements"] if x["spot"] == "exchange"]
        assert all(x["paid"] == 0 and x["stake"] % ante == 0 for x in fees)
        paid = view.paid or 0
        assert wallet(casino, "ann") == start[0] - view.staked + paid >= 0
        assert house(casino) == start[1] + view.staked - paid
    whole(casino)
