"""Three Card Poker and Red Dog on the persistent wallet, on SQLite and PostgreSQL: each
stake debited as it is made and every bet paid what the engine settles for the same
cards, retried requests answered once, refusals that change nothing, a round left
waiting completed by the house after 24 hours (GGPoker house rules 2.3: Three Card
Poker folds, Red Dog stands), recall by replay, and the ledger whole throughout."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from banked_fixtures import house, replayed, whole
from dbfixtures import setup, stored, wallet
from sqlalchemy import Engine, func, select

from pelisali.platform import accounts, tables
from pelisali.platform.banked_rounds import (
    complete_banked_round,
    create_banked_table,
    deal,
    decide,
    overdue_banked_rounds,
    playing,
    recall_banked_round,
)
from pelisali.platform.db import transaction
from pelisali.platform.ledger import KeyConflict
from pelisali.platform.models import AuditEntry, BetRow, RoundRow
from pelisali.platform.rounds import TableError
from pelisali.rng import SeededRng

AT = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
MONEY = 100_000


@pytest.fixture
def casino(engine: Engine) -> Engine:
    setup(engine, ("ann", "bob"), money=MONEY)
    with transaction(engine) as s:
        create_banked_table(s, "tcp-ann", "three-card-poker")
        create_banked_table(s, "rd-ann", "red-dog")
    return engine


def rounds_at(engine: Engine) -> int:
    with transaction(engine) as s:
        return int(s.scalar(select(func.count()).select_from(RoundRow)) or 0)


@pytest.mark.parametrize("decision", ["play", "fold"])
def test_three_card_poker_takes_each_stake_and_pays_what_the_engine_settles(
        casino: Engine, decision: str) -> None:
    bank = house(casino)
    with transaction(casino) as s:
        dealt = deal(s, "tcp-ann", "ann", {"ante": 1_000, "pair-plus": 500}, key="k1",
                     rng=SeededRng(11), at=AT)
    assert (dealt.status, dealt.staked, dealt.paid, dealt.actions) == (
        "playing", 1_500, None, ("play", "fold"))
    assert len(dealt.view["cards"]) == 3 and dealt.view["dealer"] == []  # face down
    assert wallet(casino, "ann") == MONEY - 1_500 == dealt.balance
    with transaction(casino) as s:
        assert playing(s, "tcp-ann") == dealt
        done = decide(s, "tcp-ann", "ann", decision, key="k2", rng=SeededRng(12), at=AT)
    record = stored(casino, done.round_id)
    engine = replayed("three-card-poker", record)
    # the dealer's three cards were dealt face down before the decision
    assert engine.is_terminal() and [m["text"] for m in record["history"]][-4:] == [
        *engine.view(0)["dealer"], decision]
    staked = 1_500 + (1_000 if decision == "play" else 0)
    paid = sum(s.paid for s in engine.settlements)
    assert (done.status, done.staked, done.paid) == ("settled", staked, paid)
    if decision == "fold":  # the ante and, by the rule data, Pair Plus are lost
        assert paid == 0
    assert wallet(casino, "ann") == MONEY - staked + paid == done.balance
    assert house(casino) == bank + staked - paid  # nothing lost or made
    with transaction(casino) as s:
        rows = s.scalars(select(BetRow).where(BetRow.round_id == done.round_id)
                         .order_by(BetRow.number)).all()
        assert [(b.spot, b.stake, b.paid) for b in rows] == [
            (x.spot, x.stake, x.paid) for x in engine.settlements]
        assert recall_banked_round(s, done.round_id).same
        assert tables.recall(s, done.round_id).same
        assert playing(s, "tcp-ann") is None
    whole(casino)


def test_red_dog_raises_stands_and_settles_a_pair_or_consecutive_at_once(
        casino: Engine) -> None:
    immediate = waiting = 0
    spent = paid = 0
    for seed in range(40):
        with transaction(casino) as s:
            dealt = deal(s, "rd-ann", "ann", {"ante": 200}, key=f"d{seed}",
                         rng=SeededRng(seed), at=AT)
        spent += 200
        if dealt.status == "settled":  # a pair draws its third card; consecutive push
            immediate += 1
            assert dealt.actions == () and dealt.view["spread"] in (None, 0)
            paid += dealt.paid or 0
            continue
        waiting += 1
        assert dealt.actions[-1] == "stand" and dealt.view["spread"] >= 1
        action = "raise 200" if dealt.view["spread"] >= 7 else "stand"
        with transaction(casino) as s:
            done = decide(s, "rd-ann", "ann", action, key=f"r{seed}", rng=SeededRng(seed),
                          at=AT)
        engine = replayed("red-dog", stored(casino, done.round_id))
        assert done.paid == sum(x.paid for x in engine.settlements)
        spent += 200 if action.startswith("raise") else 0
        paid += done.paid or 0
        assert done.staked == (400 if action.startswith("raise") else 200)
    assert immediate and waiting
    assert wallet(casino, "ann") == MONEY - spent + paid
    whole(casino)


def test_retried_requests_are_answered_once_and_a_key_reused_is_refused(
        casino: Engine) -> None:
    with transaction(casino) as s:
        first = deal(s, "tcp-ann", "ann", {"ante": 1_000}, key="k1", rng=SeededRng(1), at=AT)
    with transaction(casino) as s:
        assert deal(s, "tcp-ann", "ann", {"ante": 1_000}, key="k1", rng=SeededRng(2),
                    at=AT) == first
    with transaction(casino) as s, pytest.raises(KeyConflict, match="another round"):
        deal(s, "tcp-ann", "ann", {"ante": 2_000}, key="k1", at=AT)
    with transaction(casino) as s:
        played = decide(s, "tcp-ann", "ann", "play", key="p1", rng=SeededRng(3), at=AT)
    with transaction(casino) as s:  # the play's answer lost: sent again, answered
        assert decide(s, "tcp-ann", "ann", "play", key="p1", rng=SeededRng(4), at=AT) == played
    assert wallet(casino, "ann") == MONEY - 2_000 + (played.paid or 0)
    whole(casino)


def test_a_key_is_bound_to_its_whole_request_across_deal_and_decisions(
        casino: Engine) -> None:
    """A deal's key (or the key its second bet is booked under, ``KEY:N``) sent with a
    decision, a decision's key sent with another decision or with a deal: each refused
    as a conflict and nothing taken, never answered as a retry that silently skips the
    decision."""
    with transaction(casino) as s:
        dealt = deal(s, "tcp-ann", "ann", {"ante": 1_000, "pair-plus": 500}, key="k1",
                     rng=SeededRng(1), at=AT)
    with transaction(casino) as s:
        booked = sorted(s.scalars(select(BetRow.key)))
    assert booked == ["k1", "k1:2"]  # the pair-plus, bet 2 of the round
    for used in booked:
        with transaction(casino) as s, pytest.raises(KeyConflict, match="the deal of round"):
            decide(s, "tcp-ann", "ann", "play", key=used, rng=SeededRng(3), at=AT)
    with transaction(casino) as s:
        assert playing(s, "tcp-ann") == dealt  # still waiting: nothing was taken
    with transaction(casino) as s:
        folded = decide(s, "tcp-ann", "ann", "fold", key="d1", at=AT)
    with transaction(casino) as s, pytest.raises(KeyConflict, match="another decision"):
        decide(s, "tcp-ann", "ann", "play", key="d1", at=AT)
    with transaction(casino) as s:  # the same decision again: its first answer
        assert decide(s, "tcp-ann", "ann", "fold", key="d1", at=AT) == folded
    with transaction(casino) as s:
        second = deal(s, "tcp-ann", "ann", {"ante": 1_000}, key="k2", rng=SeededRng(4), at=AT)
        played = decide(s, "tcp-ann", "ann", "play", key="p2", rng=SeededRng(5), at=AT)
    assert second.status == "playing" and played.status == "settled"
    with transaction(casino) as s, pytest.raises(KeyConflict, match="another round"):
        deal(s, "tcp-ann", "ann", {"ante": 1_000}, key="p2", rng=SeededRng(6), at=AT)
    assert wallet(casino, "ann") == MONEY - 1_500 - 2_000 + (played.paid or 0)
    whole(casino)


@pytest.mark.parametrize(("bets", "words"), [
    ({"side": 100}, "side"), ({"ante": 50}, "0.50"), ({"ante": -100}, "-100"),
    ({}, "needs a bet"), ({"pair-plus": 100.5}, "100.5"), ({"ante": 0}, "0")])
def test_a_bet_the_game_does_not_take_is_refused_and_nothing_moves(
        casino: Engine, bets: dict[str, Any], words: str) -> None:
    with transaction(casino) as s, pytest.raises(TableError, match=words):
        deal(s, "tcp-ann", "ann", bets, key="bad", at=AT)
    assert wallet(casino, "ann") == MONEY and rounds_at(casino) == 0


def test_a_bet_over_the_maximum_is_taken_at_the_maximum(casino: Engine) -> None:
    with transaction(casino) as s:
        dealt = deal(s, "tcp-ann", "ann", {"ante": 60_000}, key="big", rng=SeededRng(2), at=AT)
    assert dealt.staked == 50_000 and wallet(casino, "ann") == MONEY - 50_000
    with transaction(casino) as s:  # the retry is the same request: answered
        assert deal(s, "tcp-ann", "ann", {"ante": 60_000}, key="big", at=AT) == dealt
    whole(casino)


def test_refusals_in_play_change_nothing(casino: Engine) -> None:
    setup_poor = 300
    with transaction(casino) as s:
        accounts.register(s, "cid", date(1990, 1, 1), "FI")
        accounts.deposit(s, "cid", setup_poor, key="d-cid")
        create_banked_table(s, "rd-cid", "red-dog")
    with transaction(casino) as s, pytest.raises(TableError, match="no credit"):
        deal(s, "rd-cid", "cid", {"ante": 500}, key="c1", at=AT)
    assert wallet(casino, "cid") == setup_poor and rounds_at(casino) == 0
    with transaction(casino) as s, pytest.raises(TableError, match="no round waits"):
        decide(s, "tcp-ann", "ann", "play", key="x", at=AT)
    with transaction(casino) as s:
        dealt = deal(s, "tcp-ann", "ann", {"ante": 1_000}, key="k1", rng=SeededRng(5), at=AT)
    for action, words in (("raise 5", "not an action|raise"), ("bet ante 100", "no more bets"),
                          ("done", "no more bets"), ("", "is not an action here")):
        with transaction(casino) as s, pytest.raises(TableError, match=words):
            decide(s, "tcp-ann", "ann", action, key=f"bad-{action}", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="ann's"):
        decide(s, "tcp-ann", "bob", "play", key="b1", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="waits for a decision"):
        deal(s, "tcp-ann", "ann", {"ante": 1_000}, key="k2", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="its bets are placed"):
        tables.place(s, "tcp-ann", "ann", [("ante", 100)], key="p")
    with transaction(casino) as s, pytest.raises(TableError, match="24 hours"):
        tables.void(s, "tcp-ann", "a fault", actor="floor")
    with transaction(casino) as s:
        assert playing(s, "tcp-ann") == dealt
    assert wallet(casino, "ann") == MONEY - 1_000
    whole(casino)


@pytest.mark.parametrize(("table", "bets", "decision"), [
    ("tcp-ann", {"ante": 1_000, "pair-plus": 500}, "fold"), ("rd-ann", {"ante": 1_000}, "stand")])
def test_a_round_left_waiting_is_completed_by_the_house_after_24_hours(
        casino: Engine, table: str, bets: dict[str, int], decision: str) -> None:
    for seed in range(30):  # a round that waits (Red Dog settles pairs at once)
        with transaction(casino) as s:
            dealt = deal(s, table, "ann", bets, key=f"w{seed}", rng=SeededRng(seed), at=AT)
        if dealt.status == "playing":
            break
    later = AT + timedelta(hours=1)
    with transaction(casino) as s:
        assert overdue_banked_rounds(s, AT + timedelta(hours=23, minutes=59)) == []
        assert tables.recover(s, at=AT + timedelta(hours=23, minutes=59)) == []
        assert overdue_banked_rounds(s, later + timedelta(hours=24)) == [dealt.round_id]
        done = tables.recover(s, rng=SeededRng(9), at=later + timedelta(hours=24))
        assert done == [(dealt.round_id, f"settled, the house decided {decision}")]
        assert complete_banked_round(s, dealt.round_id) is None  # once
    with transaction(casino) as s:  # the audit entry is chained as its transaction commits
        audit = s.scalars(select(AuditEntry).where(
            AuditEntry.action == "banked_round_completed")).one()
        assert "GGPoker house rules 2.3" in audit.payload
        assert recall_banked_round(s, dealt.round_id).same
    record = stored(casino, dealt.round_id)
    assert decision in [m["text"] for m in record["history"]]
    engine = replayed("three-card-poker" if table.startswith("tcp") else "red-dog", record)
    assert record["status"] == "settled"
    staked = sum(bets.values())
    paid = sum(x.paid for x in engine.settlements)
    assert (paid == 0) if decision == "fold" else True
    with transaction(casino) as s:
        spent = sum(b.stake for b in s.scalars(select(BetRow).where(BetRow.player == "ann")))
        back = sum(b.paid or 0 for b in s.scalars(select(BetRow).where(BetRow.player == "ann")))
    assert wallet(casino, "ann") == MONEY - spent + back
    assert staked <= spent
    whole(casino)


def test_a_banked_table_is_made_through_the_tables_and_refuses_settings(
        casino: Engine) -> None:
    with transaction(casino) as s:
        made = tables.create(s, "tcp-2", "three-card-poker")
        assert (made.game, made.mode, made.limit_min, made.limit_max) == (
            "three-card-poker", "rng", 100, 50_000)
        with pytest.raises(TableError, match="rule file"):
            tables.create(s, "rd-2", "red-dog", mode="live")
        with pytest.raises(TableError, match="exists"):
            create_banked_table(s, "tcp-2", "three-card-poker")
        with pytest.raises(TableError, match="not a banked card game"):
            create_banked_table(s, "x", "baccarat-chemin")
