"""Chemin de fer's decision clock on the wallet, on SQLite and PostgreSQL, with the time
passed in (never slept): each decision a seat owes has the rule data's seconds; when they
run out the house acts for the seat (the offered bank passes to the next seat in turn, a
punter passes, the choice on five and the banker's option take the rule data's), each
next decision's time from the end of the last; an offer gone round every seat stops the
clock until a player sits; the coup the house finished pays what the engine pays for the
same moves, recalls by replay, and money is conserved over random lateness
(Hypothesis)."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from dbfixtures import HOUSE, fresh_engine, setup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine
from test_platform_chemin_tables import Stacked, money, whole

from pelisali.engine import GAMES, Seats
from pelisali.platform import accounts
from pelisali.platform.chemin_family import chemin_engine
from pelisali.platform.chemin_tables import (
    act,
    create_chemin_table,
    decision_due,
    overdue_tables,
    put_up,
    recall_coup,
    sit,
    time_out,
    view,
)
from pelisali.platform.db import transaction
from pelisali.rng import SeededRng

AT = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
STEP = timedelta(seconds=chemin_engine().rules.decision_seconds)
MONEY = 100_000
PLAYERS = ("ann", "bob", "cid")


def seated(engine: Engine, players: tuple[str, ...] = PLAYERS) -> Engine:
    setup(engine, players, money=MONEY)
    with transaction(engine) as s:
        create_chemin_table(s, "cf")
        for name in players:
            sit(s, "cf", name, key=f"sit-{name}", at=AT)
    return engine


@pytest.fixture
def casino(engine: Engine) -> Engine:
    return seated(engine)


def late(engine: Engine, at: datetime, rng: SeededRng | None = None) -> list[str]:
    with transaction(engine) as s:
        return time_out(s, "cf", at, rng)


def due(engine: Engine) -> datetime | None:
    with transaction(engine) as s:
        return decision_due(s, "cf")


def test_the_rule_data_gives_each_decision_fifteen_seconds() -> None:
    rules = chemin_engine().rules
    assert rules.decision_seconds == 15
    assert "house choice" in rules.sections["clock"] and "3.5.2" in rules.sections["clock"]


def test_an_offered_bank_passes_on_in_turn_and_rests_after_going_round(
        casino: Engine) -> None:
    before = money(casino)
    assert due(casino) == AT + STEP  # from when the second player sat down
    assert late(casino, AT + STEP - timedelta(seconds=1)) == []
    assert late(casino, AT + STEP) == ["ann passes the bank"]
    with transaction(casino) as s:
        seen = view(s, "cf", "bob")
        assert (seen.banker, seen.to_move, seen.actions[-1]) == ("bob", "bob", "pass")
        assert seen.deadline == AT + 2 * STEP
    # an hour later: bob's and cid's offers ran out in turn, each from the last; the
    # offer went round every seat, so the clock stops with the bank back at ann's
    assert late(casino, AT + timedelta(hours=1)) == ["bob passes the bank",
                                                    "cid passes the bank"]
    with transaction(casino) as s:
        assert (view(s, "cf", "ann").banker, decision_due(s, "cf")) == ("ann", None)
        assert overdue_tables(s, AT + timedelta(days=1)) == []
    assert late(casino, AT + timedelta(days=1)) == []
    # a player sitting down wakes the table: the offer's clock runs again
    later = AT + timedelta(days=1)
    with transaction(casino) as s:
        accounts.register(s, "dan", datetime(1990, 1, 1).date(), "FI")
        sit(s, "cf", "dan", key="sit-dan", at=later)
        assert decision_due(s, "cf") == later + STEP
    assert money(casino) == {**before, "player:dan": 0}  # no money moved
    whole(casino)


def test_late_punters_pass_and_a_coup_nobody_bet_against_is_void(casino: Engine) -> None:
    before = money(casino)
    with transaction(casino) as s:
        up = put_up(s, "cf", "ann", 5_000, key="b1", rng=SeededRng(1), at=AT)
        assert up.deadline == AT + STEP and up.to_move == "bob"
        assert overdue_tables(s, AT + STEP) == ["cf"]
    # bob's time runs out at +15 s; cid's from then, at +30 s, though nobody looked
    assert late(casino, AT + STEP + timedelta(seconds=5)) == ["bob pass"]
    assert due(casino) == AT + 2 * STEP
    assert late(casino, AT + 2 * STEP) == ["cid pass"]
    with transaction(casino) as s:
        seen = view(s, "cf", "ann")
        assert (seen.status, seen.banker, seen.bank) == ("settled", "ann", 5_000)
        assert seen.deadline == AT + 3 * STEP  # the offer from the end of the coup
    assert money(casino) == before  # the bank came back whole
    whole(casino)


def test_the_house_takes_the_rule_datas_choice_on_five_and_pays_the_engines_coup(
        casino: Engine) -> None:
    # the banco's hand 7 8 is five: the choice is bob's; the house draws for him
    rng = Stacked("7h", "Kc", "8d", "Ks", "2c", "3d")
    with transaction(casino) as s:
        put_up(s, "cf", "ann", 5_000, key="b1", rng=rng, at=AT)
        waiting = act(s, "cf", "bob", "banco", key="p1", rng=rng, at=AT + timedelta(seconds=3))
        assert (waiting.to_move, waiting.actions) == ("bob", ("draw", "stand"))
        assert waiting.deadline == AT + timedelta(seconds=3) + STEP
    assert late(casino, AT + timedelta(seconds=17)) == []
    assert late(casino, AT + timedelta(seconds=18), rng) == ["bob draw"]
    with transaction(casino) as s:
        done = view(s, "cf", "bob")
        assert done.status == "settled" and done.deadline is not None and done.coup
        assert [c for _side, c in done.coup["cards"]] == ["7h", "Kc", "8d", "Ks", "2c", "3d"]
        assert recall_coup(s, done.round_id or 0).same
    state = GAMES["chemin-de-fer"].new_state(Seats(3))
    for move in ["bank 5000", "banco", "7h", "Kc", "8d", "Ks", "draw", "2c", "3d"]:
        state = state.apply(move).state
    assert state.is_terminal()
    paid = money(casino)
    assert [paid[f"player:{p}"] - MONEY for p in PLAYERS] == list(state.returns())
    assert paid["house:bank"] - HOUSE == state.accounts()["house"]
    whole(casino)


def test_the_house_takes_the_rule_datas_choice_in_the_bankers_option_cell(
        casino: Engine) -> None:
    # player 2 draws a 9; banker 3 against a third card 9 is ann's choice; the house draws
    rng = Stacked("2h", "Kc", "Kd", "3s", "9c", "5d")
    with transaction(casino) as s:
        put_up(s, "cf", "ann", 5_000, key="b1", rng=rng, at=AT)
        assert act(s, "cf", "bob", "banco", key="p1", rng=rng, at=AT).to_move == "ann"
        assert view(s, "cf", "ann").actions == ("draw", "stand")
    assert late(casino, AT + STEP, rng) == ["ann draw"]
    with transaction(casino) as s:
        done = view(s, "cf", "ann")
        assert done.status == "settled" and done.coup and done.coup["result"] == "banker"
        assert recall_coup(s, done.round_id or 0).same
    whole(casino)


def test_a_move_in_time_restarts_the_clock(casino: Engine) -> None:
    with transaction(casino) as s:
        put_up(s, "cf", "ann", 5_000, key="b1", rng=SeededRng(1), at=AT)
        moved = act(s, "cf", "bob", "pass", key="p1", at=AT + timedelta(seconds=14))
        assert (moved.to_move, moved.deadline) == ("cid", AT + timedelta(seconds=14) + STEP)
    assert late(casino, AT + timedelta(seconds=28)) == []


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(gaps=st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=12),
       seed=st.integers(min_value=0, max_value=10_000))
def test_money_is_conserved_however_late_the_seats_are(gaps: list[int], seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for engine in fresh_engine("sqlite", Path(folder)):
            seated(engine)
            before = sum(money(engine).values())
            rng = SeededRng(seed)
            with transaction(engine) as s:
                put_up(s, "cf", "ann", 2_000, key="b1", rng=rng, at=AT)
            at = AT
            for gap in gaps:
                at += timedelta(seconds=gap)
                late(engine, at, rng)
            late(engine, at + timedelta(hours=1), rng)  # every clock has run out
            with transaction(engine) as s:
                assert view(s, "cf", "ann").status == "settled"
                assert decision_due(s, "cf") is None  # the offer went round and rests
            assert sum(money(engine).values()) == before
            assert money(engine)["table:cf"] == 0
            whole(engine)
