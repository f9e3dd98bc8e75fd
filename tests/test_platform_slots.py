"""RNG slots on the persistent wallet, on SQLite and PostgreSQL: a spin's stake and pay
against the engine, free spins one request at a time and resumed after an interruption,
retried requests answered once, pending rounds completed after 24 hours (GGPoker RNG
slots 2.3), recall by replay, the day report's slot line, and many random spins keeping
the ledger whole."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest
from dbfixtures import setup, stored, wallet
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from slot_games import Stops, scatter_stops
from sqlalchemy import Engine, select

from pelisali.analysis.slots import par_sheet
from pelisali.engine import GAMES, Seats
from pelisali.engine.slots import SlotEngine, SlotState, window_at
from pelisali.platform import bonus, queries, tables
from pelisali.platform.db import transaction
from pelisali.platform.ledger import KeyConflict, check, verify_audit
from pelisali.platform.models import AuditEntry, BetRow, RoundRow
from pelisali.platform.report import day_report
from pelisali.platform.rounds import TableError, reconcile_bets
from pelisali.platform.slot_rounds import (
    complete_slot_round,
    create_slot_table,
    free_spin,
    overdue_slot_rounds,
    playing,
    recall_slot_round,
    spin,
)
from pelisali.rng import SeededRng

EXAMPLES = itertools.count()
AT = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
VIDEO = GAMES["slot-video"]
FRUIT = GAMES["slot-fruit"]
assert isinstance(VIDEO, SlotEngine) and isinstance(FRUIT, SlotEngine)


def engine_round(game: SlotEngine, lines: int, cents: int, stops: Sequence[int]) -> SlotState:
    """The engine's round from the same stops: what the platform must pay."""
    state = game.new_state(Seats(1)).apply(f"spin {lines} {cents}").state
    for stop in stops:
        if state.is_terminal():
            break
        state = state.apply(str(stop)).state
    assert isinstance(state, SlotState)
    return state


@pytest.fixture
def casino(engine: Engine) -> Engine:
    setup(engine, ("ann", "bob"), money=100_000)
    with transaction(engine) as s:
        create_slot_table(s, "fruit-ann", "slot-fruit")
        create_slot_table(s, "video-ann", "slot-video")
    return engine


def test_a_spin_takes_the_stake_and_pays_the_engine_s_win(casino: Engine) -> None:
    # Fruit stops 0 0 0: the top line CHERRY CHERRY BELL pays 2, the diagonal CHERRY
    # BELL BELL 1, the other three lines nothing: 3 line bets of 10 cents.
    expected = engine_round(FRUIT, 5, 10, [0, 0, 0])
    assert expected.paid == 30
    with transaction(casino) as s:
        done = spin(s, "fruit-ann", "ann", 5, 10, key="k1", rng=Stops([0, 0, 0]), at=AT)
    assert (done.stake, done.paid, done.to_wallet, done.to_bonus) == (50, 30, 30, 0)
    assert done.status == "settled" and done.view["spins"][0]["stops"] == [0, 0, 0]
    assert done.view["spins"][0]["window"] == [list(r) for r in
                                               window_at(FRUIT.rules.reels.base, [0, 0, 0], 3)]
    assert wallet(casino, "ann") == 100_000 - 50 + 30 == done.balance
    with transaction(casino) as s:
        bet = s.scalars(select(BetRow).where(BetRow.round_id == done.round_id)).one()
        assert (bet.spot, bet.stake, bet.paid, bet.result) == ("lines 5", 50, 30, "lose")
        assert recall_slot_round(s, done.round_id).same
        assert tables.recall(s, done.round_id).same
        assert check(s).ok and verify_audit(s).ok
    record = stored(casino, done.round_id)
    assert [m["text"] for m in record["history"]] == ["spin 5 10", "0", "0", "0"]
    assert record["settlements"][0]["paid"] == 30


def test_a_retried_spin_is_answered_once_and_another_under_its_key_refused(
        casino: Engine) -> None:
    with transaction(casino) as s:
        first = spin(s, "fruit-ann", "ann", 3, 20, key="k1", rng=SeededRng(1), at=AT)
    with transaction(casino) as s:
        again = spin(s, "fruit-ann", "ann", 3, 20, key="k1", rng=SeededRng(2), at=AT)
    assert again == first
    assert wallet(casino, "ann") == 100_000 - 60 + (first.paid or 0)
    with transaction(casino) as s, pytest.raises(KeyConflict, match="another spin"):
        spin(s, "fruit-ann", "ann", 4, 20, key="k1", at=AT)
    with transaction(casino) as s, pytest.raises(KeyConflict):
        spin(s, "fruit-ann", "bob", 3, 20, key="k1", at=AT)


@pytest.mark.parametrize(("lines", "cents", "words"), [
    (6, 10, "6 lines cannot be played"), (5, 3, "3 cents a line is not a bet level"),
    (0, 10, "0 lines"), (5, -10, "-10 cents a line is not a bet level")])
def test_a_bet_the_rules_do_not_have_is_refused_and_nothing_moves(
        casino: Engine, lines: int, cents: int, words: str) -> None:
    with transaction(casino) as s, pytest.raises(TableError, match=words):
        spin(s, "fruit-ann", "ann", lines, cents, key="k", at=AT)
    assert wallet(casino, "ann") == 100_000
    with transaction(casino) as s:
        assert s.scalars(select(RoundRow)).first() is None


def test_no_credit_and_no_such_table(casino: Engine) -> None:
    with transaction(casino) as s:
        tables.create(s, "fruit-cy", "slot-fruit")
    setup_poor(casino)
    with transaction(casino) as s, pytest.raises(TableError, match="no credit"):
        spin(s, "fruit-cy", "cy", 5, 100, key="k", at=AT)
    assert wallet(casino, "cy") == 100
    with transaction(casino) as s, pytest.raises(TableError, match="no table"):
        spin(s, "fruit-zz", "cy", 1, 1, key="k2", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="not a slot"):
        tables.create(s, "r-1", "roulette", "C")
        spin(s, "r-1", "cy", 1, 1, key="k3", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="takes spins"):
        tables.place(s, "fruit-cy", "cy", [("lines 1", 1)], "k4")


def setup_poor(engine: Engine) -> None:
    from datetime import date

    from pelisali.platform import accounts
    with transaction(engine) as s:
        accounts.register(s, "cy", date(1990, 1, 1), "FI")
        accounts.deposit(s, "cy", 100, key="d-cy")


def feature_round(casino: Engine, lines: int = 20, cents: int = 5) -> tuple[int, list[int]]:
    """A video spin whose stars start the free spins; its round and base stops."""
    stops = scatter_stops(VIDEO, (0, 2, 4))
    with transaction(casino) as s:
        done = spin(s, "video-ann", "ann", lines, cents, key="f1", rng=Stops(stops), at=AT)
    assert done.status == "playing" and done.free_left == 10 and done.paid is None
    return done.round_id, stops


def test_free_spins_are_played_one_request_at_a_time_and_paid_at_the_end(
        casino: Engine) -> None:
    round_id, base = feature_round(casino)
    assert wallet(casino, "ann") == 100_000 - 100
    drawn = list(base)
    rng = SeededRng(11)
    seen = 1
    while True:
        with transaction(casino) as s:
            done = free_spin(s, "video-ann", "ann", seen=seen, rng=rng, at=AT)
        seen += 1
        assert done.spins_seen == seen
        drawn += done.view["spins"][-1]["stops"]
        if done.status == "settled":
            break
        assert done.paid is None and wallet(casino, "ann") == 100_000 - 100
    expected = engine_round(VIDEO, 20, 5, drawn)
    assert expected.is_terminal() and done.paid == expected.paid
    base_win = expected.spins[0].units(20) * 5
    assert done.to_wallet == min(base_win, expected.total_win())
    assert (done.to_wallet or 0) + (done.to_bonus or 0) == expected.paid
    # The base spin's win goes to the wallet, the free spins' to the bonus balance
    # (GGPoker RNG slots 5: to be wagered within 72 hours).
    assert wallet(casino, "ann") == 100_000 - 100 + (done.to_wallet or 0) == done.balance
    assert done.to_bonus and done.bonus == done.to_bonus
    with transaction(casino) as s:
        assert bonus.bonus_balance(s, "ann") == done.to_bonus
        [granted] = bonus.grants(s, "ann")
        assert (granted.round_id, granted.amount, granted.status) == (
            round_id, done.to_bonus, "active")
        assert granted.deadline == AT + timedelta(hours=72)
        assert recall_slot_round(s, round_id).same
        assert check(s).ok and reconcile_bets(s).ok


def test_a_round_interrupted_mid_feature_resumes_where_it_stopped(casino: Engine) -> None:
    round_id, _ = feature_round(casino)
    with transaction(casino) as s:
        free_spin(s, "video-ann", "ann", seen=1, rng=SeededRng(5), at=AT)
        second = free_spin(s, "video-ann", "ann", seen=2, rng=SeededRng(6), at=AT)
    # The player's connection drops; later they log in and open the game again.
    with transaction(casino) as s:
        resumed = playing(s, "video-ann")
    assert resumed is not None and resumed.round_id == round_id
    assert resumed.view == second.view and resumed.spins_seen == 3
    # The free spin sent again (its answer was lost) is answered, not drawn again.
    with transaction(casino) as s:
        assert free_spin(s, "video-ann", "ann", seen=2, rng=SeededRng(9), at=AT) == second
    with transaction(casino) as s, pytest.raises(TableError, match="has shown 3 spins"):
        free_spin(s, "video-ann", "ann", seen=7, at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="free spins left"):
        spin(s, "video-ann", "ann", 20, 5, key="f2", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="another player"):
        free_spin(s, "video-ann", "bob", seen=3, at=AT)


def test_a_pending_round_is_completed_after_24_hours_and_its_winnings_credited(
        casino: Engine) -> None:
    round_id, base = feature_round(casino)
    with transaction(casino) as s:
        free_spin(s, "video-ann", "ann", seen=1, rng=SeededRng(5), at=AT + timedelta(hours=1))
    with transaction(casino) as s:
        assert overdue_slot_rounds(s, AT + timedelta(hours=24, minutes=59)) == []
        # Not due yet, even "after a restart" (everything):
        assert tables.recover(s, at=AT + timedelta(hours=24, minutes=59)) == []
        assert tables.recover(s, everything=True, at=AT + timedelta(hours=24, minutes=59)) == []
        assert overdue_slot_rounds(s, AT + timedelta(hours=25)) == [round_id]
        what = complete_slot_round(s, round_id, SeededRng(8), AT + timedelta(hours=25))
        assert what == "settled, 9 free spins completed"
        assert complete_slot_round(s, round_id, SeededRng(8), AT + timedelta(hours=25)) is None
    record = stored(casino, round_id)
    drawn = [int(m["text"]) for m in record["history"] if m["actor"] == -1]
    expected = engine_round(VIDEO, 20, 5, drawn)
    assert drawn[:5] == base and expected.is_terminal()
    base_win = min(expected.spins[0].units(20) * 5, expected.total_win())
    assert wallet(casino, "ann") == 100_000 - 100 + base_win
    with transaction(casino) as s:
        assert bonus.bonus_balance(s, "ann") == (expected.paid or 0) - base_win
        assert recall_slot_round(s, round_id).same
        audit = s.scalars(select(AuditEntry).where(
            AuditEntry.action == "slot_round_completed")).one()
        assert '"free_spins_drawn":9' in audit.payload and "2.3" in audit.payload
        assert check(s).ok and verify_audit(s).ok


def test_the_day_report_has_the_slot_line_theoretical_against_observed(
        casino: Engine) -> None:
    rng = SeededRng(2026)
    with transaction(casino) as s:
        for n in range(30):
            spin(s, "fruit-ann", "ann", 5 if n % 2 else 1, 10, key=f"r{n}", rng=rng, at=AT)
    with transaction(casino) as s:
        day = s.scalars(select(RoundRow.gaming_day)).first()
        assert day is not None
        line = next(t for t in day_report(s, day) if t.table == "fruit-ann")
        bets = s.scalars(select(BetRow)).all()
    staked = sum(b.stake for b in bets)
    paid = sum(b.paid or 0 for b in bets)
    assert (line.rounds, line.bets, line.staked, line.paid) == (30, 30, staked, paid)
    assert staked == 15 * 50 + 15 * 10
    assert line.observed_rtp == Fraction(paid, staked)
    # The fruit game's RTP is the same for every number of lines.
    assert line.theoretical_rtp == par_sheet(FRUIT.rules, 5).rtp == Fraction(15593, 16384)


def test_the_history_shows_each_spin(casino: Engine) -> None:
    with transaction(casino) as s:
        done = spin(s, "fruit-ann", "ann", 2, 5, key="h1", rng=SeededRng(3), at=AT)
        history = queries.history(s, "ann")
    line = next(b for b in history.bets if b.round_id == done.round_id)
    assert (line.spot, line.stake, line.paid) == ("lines 2", 10, done.paid)


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), bets=st.lists(
    st.tuples(st.sampled_from(["fruit-ann", "video-ann"]), st.integers(0, 4),
              st.integers(0, 5)), min_size=1, max_size=12))
def test_random_spins_keep_the_ledger_whole(casino: Engine, seed: int,
                                            bets: list[tuple[str, int, int]]) -> None:
    rng = SeededRng(seed)
    example = next(EXAMPLES)
    with transaction(casino) as s:
        start, start_bonus = wallet_in(s), bonus.bonus_balance(s, "ann")
        for n, (table, line_index, level_index) in enumerate(bets):
            game = FRUIT if table == "fruit-ann" else VIDEO
            lines = game.rules.bets.lines_played[line_index]
            levels = game.rules.bets.cents_per_line
            cents = levels[level_index % len(levels)]
            key = f"p{example}-{n}"
            live = playing(s, table)
            while live is not None:  # finish a feature before the next spin
                live = free_spin(s, table, "ann", seen=live.spins_seen, rng=rng, at=AT)
                live = None if live.status == "settled" else live
            done = spin(s, table, "ann", lines, cents, key=key, rng=rng, at=AT)
            while done.status != "settled":
                done = free_spin(s, table, "ann", seen=done.spins_seen, rng=rng, at=AT)
            assert done.paid is not None and done.paid <= game.rules.cap.multiplier * done.stake
            assert recall_slot_round(s, done.round_id).same
        report = check(s)
        assert report.ok, report.problems
        assert reconcile_bets(s).ok
        rows = s.scalars(select(BetRow).where(BetRow.key.like(f"p{example}-%"))).all()
        # Every cent a round paid is in the wallet or the bonus balance, or was released
        # from the bonus balance to the wallet by the stakes that wagered it through.
        assert wallet_in(s) + bonus.bonus_balance(s, "ann") == \
            start + start_bonus - sum(b.stake for b in rows) + sum(b.paid or 0 for b in rows)


def wallet_in(session: object) -> int:
    from pelisali.platform.ledger import balance
    return balance(session, "player:ann")  # type: ignore[arg-type]


def play_feature_out(casino: Engine, at: datetime, key: str = "f1") -> int:
    """A video round whose free spins are all played at ``at``; the part they won."""
    rng = Stops(scatter_stops(VIDEO, (0, 2, 4)), seed=11)
    with transaction(casino) as s:
        done = spin(s, "video-ann", "ann", 20, 5, key=key, rng=rng, at=at)
        while done.status != "settled":
            done = free_spin(s, "video-ann", "ann", done.spins_seen, rng, at=at)
    assert done.to_bonus
    return done.to_bonus


def test_free_spin_winnings_wagered_through_on_the_slots_reach_the_wallet(
        casino: Engine) -> None:
    won = play_feature_out(casino, AT)
    before = wallet(casino, "ann")
    staked = paid = 0
    rng = SeededRng(12)
    with transaction(casino) as s:
        n = 0
        while bonus.grants(s, "ann")[0].status == "active":  # 5 lines at 1.00 a spin
            done = spin(s, "fruit-ann", "ann", 5, 100, key=f"w{n}", rng=rng,
                        at=AT + timedelta(hours=71))
            staked, paid, n = staked + done.stake, paid + (done.paid or 0), n + 1
        [released] = bonus.grants(s, "ann")
        assert released.wagered == released.required == won  # wagered once (the setting)
        assert staked - 500 < won <= staked  # the spin that completed it released it
        assert bonus.bonus_balance(s, "ann") == 0
        assert check(s).ok and reconcile_bets(s).ok
        lines = queries.history(s, "ann").bonuses
    assert wallet(casino, "ann") == before - staked + paid + won
    assert [(b.kind, b.amount) for b in lines] == [("released", won), ("granted", won)]


def test_free_spin_winnings_not_wagered_in_72_hours_are_forfeited_audited_and_shown(
        casino: Engine) -> None:
    won = play_feature_out(casino, AT)
    with transaction(casino) as s:
        spin(s, "fruit-ann", "ann", 5, 100, key="late", rng=SeededRng(1),
             at=AT + timedelta(hours=72, seconds=1))  # after the deadline: counts nothing
        assert bonus.forfeit_expired(s, AT + timedelta(hours=72)) == []  # still in time
        [gone] = bonus.forfeit_expired(s, AT + timedelta(hours=72, seconds=1))
        assert (gone.amount, gone.wagered, gone.status) == (won, 0, "forfeited")
        assert bonus.bonus_balance(s, "ann") == 0
    with transaction(casino) as s:  # the audit entry is written when the forfeit commits
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "bonus forfeit")).one()
        assert "RNG slots 5" in entry.payload and f'"amount":{won}' in entry.payload
        lines = queries.history(s, "ann").bonuses
        assert check(s).ok and verify_audit(s).ok and reconcile_bets(s).ok
    assert [(b.kind, b.amount) for b in lines] == [("forfeited", won), ("granted", won)]
