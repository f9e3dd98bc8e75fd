"""Ultimate Texas Hold'em on the persistent wallet, on SQLite and PostgreSQL: the ante
and its blind debited at the deal, the play bet when made, each street waiting for its
decision, every bet paid what the engine settles (the blind's 3:2 to the cent, its
fraction kept by the house), retries answered once, refusals that change nothing, a
round left waiting checked and folded by the house after 24 hours (GGPoker house rules
2.3), recall by replay, and the ledger whole throughout."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial

import pytest
from banked_fixtures import replayed as replayed_round
from banked_fixtures import whole
from dbfixtures import setup, stored, wallet
from sqlalchemy import Engine, select

from pelisali.platform import tables
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

AT = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
MONEY = 100_000
TABLE = "uth-ann"


replayed = partial(replayed_round, "ultimate-texas-holdem")


@pytest.fixture
def casino(engine: Engine) -> Engine:
    setup(engine, ("ann", "bob"), money=MONEY)
    with transaction(engine) as s:
        create_banked_table(s, TABLE, "ultimate-texas-holdem")
    return engine


@pytest.mark.parametrize("plan", [["play 4"], ["check", "play 2"], ["check", "check", "play 1"],
                                  ["check", "check", "fold"]])
def test_each_street_waits_and_every_bet_is_paid_what_the_engine_settles(
        casino: Engine, plan: list[str]) -> None:
    with transaction(casino) as s:
        bank = balance(s, "house:bank")
        view = deal(s, TABLE, "ann", {"ante": 1_001, "trips": 500}, key="k0",
                    rng=SeededRng(21), at=AT)
    assert (view.status, view.staked, view.actions) == ("playing", 2_502,
                                                         ("check", "play 3", "play 4"))
    assert len(view.view["cards"]) == 2 and view.view["board"] == [] == view.view["dealer"]
    assert wallet(casino, "ann") == MONEY - 2_502
    boards = []
    for number, action in enumerate(plan):
        with transaction(casino) as s:
            view = decide(s, TABLE, "ann", action, key=f"k{number + 1}", rng=SeededRng(number),
                          at=AT)
        boards.append(len(view.view["board"]))
    assert boards[:-1] == [3, 5][:len(plan) - 1] and boards[-1] == 5
    assert view.status == "settled" and len(view.view["dealer"]) == 2
    engine = replayed(stored(casino, view.round_id))
    play = {"play 4": 4_004, "play 2": 2_002, "play 1": 1_001}.get(plan[-1], 0)
    paid = sum(x.paid for x in engine.settlements)
    assert (view.staked, view.paid) == (2_502 + play, paid)
    assert wallet(casino, "ann") == MONEY - 2_502 - play + paid == view.balance
    with transaction(casino) as s:
        assert balance(s, "house:bank") == bank + 2_502 + play - paid  # nothing made or lost
        rows = s.scalars(select(BetRow).where(BetRow.round_id == view.round_id)
                         .order_by(BetRow.number)).all()
        assert [(b.spot, b.stake, b.paid) for b in rows] == [
            (x.spot, x.stake, x.paid) for x in engine.settlements]
        assert [b.spot for b in rows][:3] == ["ante", "blind", "trips"]
        assert recall_banked_round(s, view.round_id).same and tables.recall(s, view.round_id).same
    whole(casino)


def test_retries_are_answered_once_and_refusals_change_nothing(casino: Engine) -> None:
    with transaction(casino) as s, pytest.raises(TableError, match="bet with an ante"):
        deal(s, TABLE, "ann", {"trips": 500}, key="t0", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="no bet 'blind'"):
        deal(s, TABLE, "ann", {"blind": 500}, key="t1", at=AT)
    assert wallet(casino, "ann") == MONEY
    with transaction(casino) as s:
        first = deal(s, TABLE, "ann", {"ante": 1_000}, key="d1", rng=SeededRng(3), at=AT)
    with transaction(casino) as s:
        assert deal(s, TABLE, "ann", {"ante": 1_000}, key="d1", at=AT) == first
    with transaction(casino) as s, pytest.raises(KeyConflict):
        deal(s, TABLE, "ann", {"ante": 2_000}, key="d1", at=AT)
    for action, words in (("play 2", "not open before the flop"), ("fold", "not open"),
                          ("play 5", "is not an action here")):
        with transaction(casino) as s, pytest.raises(TableError, match=words):
            decide(s, TABLE, "ann", action, key=f"bad-{action}", at=AT)
    with transaction(casino) as s:
        played = decide(s, TABLE, "ann", "play 3", key="p1", rng=SeededRng(4), at=AT)
    with transaction(casino) as s:  # the answer lost: sent again, answered, taken once
        assert decide(s, TABLE, "ann", "play 3", key="p1", rng=SeededRng(5), at=AT) == played
    assert wallet(casino, "ann") == MONEY - 5_000 + (played.paid or 0)
    whole(casino)


def test_a_play_bet_the_wallet_does_not_hold_is_refused_and_check_is_still_open(
        casino: Engine) -> None:
    with transaction(casino) as s:
        deal(s, TABLE, "ann", {"ante": 20_000}, key="big", rng=SeededRng(6), at=AT)
        # 40,000 left; a 4x play bet is 80,000
    with transaction(casino) as s, pytest.raises(TableError, match="no credit"):
        decide(s, TABLE, "ann", "play 4", key="p4", at=AT)
    assert wallet(casino, "ann") == MONEY - 40_000
    with transaction(casino) as s:
        waiting = playing(s, TABLE)
        assert waiting is not None and "check" in waiting.actions
    whole(casino)


def test_a_round_left_waiting_is_checked_and_folded_by_the_house_after_24_hours(
        casino: Engine) -> None:
    with transaction(casino) as s:
        dealt = deal(s, TABLE, "ann", {"ante": 1_000, "trips": 1_000}, key="w1",
                     rng=SeededRng(8), at=AT)
    with transaction(casino) as s:
        assert recover_banked_rounds(s, rng=SeededRng(9), at=AT + timedelta(hours=23)) == []
    with transaction(casino) as s:
        done = recover_banked_rounds(s, rng=SeededRng(9), at=AT + timedelta(hours=24))
        assert done == [(dealt.round_id, "settled, the house decided check, check, fold")]
    with transaction(casino) as s:  # the audit entry is chained as its transaction commits
        entry = s.scalars(select(AuditEntry).where(
            AuditEntry.action == "banked_round_completed")).one()
        assert "GGPoker house rules 2.3" in entry.payload
    engine = replayed(stored(casino, dealt.round_id))
    results = {x.spot: x.result for x in engine.settlements}
    assert results["ante"] == results["blind"] == "fold" and results["trips"] != "fold"
    trips = next(x.paid for x in engine.settlements if x.spot == "trips")
    assert wallet(casino, "ann") == MONEY - 3_000 + trips
    whole(casino)


def test_a_retried_decision_without_a_stake_is_answered_not_taken_again(
        casino: Engine) -> None:
    with transaction(casino) as s:
        deal(s, TABLE, "ann", {"ante": 1_000}, key="r0", rng=SeededRng(12), at=AT)
        first = decide(s, TABLE, "ann", "check", key="c1", rng=SeededRng(13), at=AT)
    with transaction(casino) as s:  # the check's answer lost: the flop is not checked too
        assert decide(s, TABLE, "ann", "check", key="c1", rng=SeededRng(14), at=AT) == first
    assert len(first.view["board"]) == 3 and first.actions == ("check", "play 2")
    with transaction(casino) as s:
        decide(s, TABLE, "ann", "check", key="c2", rng=SeededRng(15), at=AT)
        folded = decide(s, TABLE, "ann", "fold", key="c3", rng=SeededRng(16), at=AT)
    with transaction(casino) as s:  # after the round settled, the fold's retry answered
        assert decide(s, TABLE, "ann", "fold", key="c3", at=AT) == folded
        with pytest.raises(KeyConflict):
            decide(s, TABLE, "bob", "fold", key="c3", at=AT)
    assert folded.status == "settled" and wallet(casino, "ann") == MONEY - 2_000
    whole(casino)
