"""Table-game and slot tournaments on the wallet: entries and fees, rounds by key, the
clock, prizes from the pool with the overlay, refunds, and the reconciliation (RULINGS
Tournaments)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from dbfixtures import HOUSE, setup
from sqlalchemy import Engine

from pelisali.platform import accounts
from pelisali.platform import leaderboard_tournaments as board
from pelisali.platform import tournaments as poker
from pelisali.platform.accounts import Refused
from pelisali.platform.db import transaction
from pelisali.platform.ledger import KeyConflict, balance, check, move
from pelisali.platform.models import TournamentRecord
from pelisali.rng import SeededRng
from pelisali.tournaments.leaderboard import LeaderboardSettings
from pelisali.tournaments.poker import TournamentSettings

PLAYERS = ("p0", "p1", "p2", "p3")
START = datetime(2026, 12, 3, 18, 0, tzinfo=UTC)


@pytest.fixture
def db(engine: Engine) -> Engine:
    """SQLite and PostgreSQL, with the house funded and the players' wallets."""
    setup(engine, players=PLAYERS, money=10_000)
    return engine


def make(
    db: Engine,
    structure: str = "roulette-sprint",
    players: tuple[str, ...] = PLAYERS,
    **changes: object,
) -> int:
    options: dict[str, object] = {"name": "Ilta", "buy_in": 1000, "fee": 100}
    options.update(changes)
    with transaction(db) as s:
        made = board.create(s, LeaderboardSettings.from_rules(structure, **options))
        for name in players:
            board.register(s, made.id, name, key=f"r-{name}")
        return made.id


def started(db: Engine, **changes: object) -> int:
    tid = make(db, **changes)
    with transaction(db) as s:
        board.start(s, tid, SeededRng(1), now=START)
    return tid


def test_entries_pay_the_pool_and_the_fee_and_a_retry_pays_once(db: Engine) -> None:
    tid = make(db)
    with transaction(db) as s:
        assert board.register(s, tid, "p0", key="r-p0").entry_id == "p0"  # retried
        assert balance(s, f"tournament:{tid}") == 4000
        assert balance(s, "fee:tournaments") == 400
        assert balance(s, "player:p0") == 10_000 - 1100
        record = s.get(TournamentRecord, tid)
        assert record is not None and record.kind == "table" and record.status == "registering"
        assert board.reconcile(s, tid) == []
    with pytest.raises(KeyConflict, match="the entry of p0"), transaction(db) as s:
        board.register(s, tid, "p1", key="r-p0")


def test_a_slot_tournament_is_of_its_own_kind_and_a_poker_id_is_refused(db: Engine) -> None:
    tid = make(db, "slot-200-spins", players=())
    with transaction(db) as s:
        poker_made = poker.create(s, TournamentSettings(name="P", capacity=2, starting_chips=1500))
        assert [r.id for r in board.lobby(s)] == [tid]
        record = s.get(TournamentRecord, tid)
        assert record is not None and record.kind == "slot"
        with pytest.raises(poker.TournamentRefused, match="is a poker tournament"):
            board.results(s, poker_made.id)
        with pytest.raises(poker.TournamentRefused, match="there is no tournament 999"):
            board.results(s, 999)


def test_a_player_over_a_loss_limit_or_excluded_cannot_enter_or_play(db: Engine) -> None:
    tid = make(db, players=("p0", "p1"))
    with transaction(db) as s:
        accounts.set_limit(s, "p2", "loss", "day", 500)
    with pytest.raises(Refused, match="loss limit"), transaction(db) as s:
        board.register(s, tid, "p2", key="r-p2")
    with transaction(db) as s:
        board.start(s, tid, SeededRng(1), now=START)
        accounts.exclude(s, "p1", days=30)
    with pytest.raises(Refused), transaction(db) as s:
        board.play_round(s, tid, "p1", ["bet red 100"], key="k1", draws=["1"])
    with transaction(db) as s:
        assert balance(s, "player:p2") == 10_000 and board.reconcile(s, tid) == []


def test_a_round_retried_with_its_key_is_played_once(db: Engine) -> None:
    tid = started(db)
    with transaction(db) as s:
        first = board.play_round(s, tid, "p0", ["bet red 1000"], key="k1", draws=["1"])
        again = board.play_round(s, tid, "p0", ["bet red 1000"], key="k1", draws=["2"])
        assert first == again and first.chips == 11_000
        assert board.results(s, tid).leaderboard[0] == (1, "p0", 11_000)
    with pytest.raises(KeyConflict, match="round 1 of p0"), transaction(db) as s:
        board.play_round(s, tid, "p0", ["bet black 1000"], key="k1", draws=["2"])
    with pytest.raises(KeyConflict, match="round 1 of p0"), transaction(db) as s:
        board.play_round(s, tid, "p1", ["bet red 1000"], key="k1", draws=["2"])


def test_a_refused_bet_changes_nothing_stored(db: Engine) -> None:
    tid = started(db)
    with transaction(db) as s:
        record = s.get(TournamentRecord, tid)
        assert record is not None
        before = (record.state, record.version)
    for actions, message in (
        (["bet red 5000"], "at most 2500"),
        (["bet purple 100"], "purple"),
        (["bet red 50"], "at least 100"),
    ):
        with pytest.raises(poker.TournamentRefused, match=message), transaction(db) as s:
            board.play_round(s, tid, "p0", actions, key="bad", draws=["1"])
    with transaction(db) as s:
        record = s.get(TournamentRecord, tid)
        assert record is not None and (record.state, record.version) == before
        # the key of a refused request is free for the next one
        assert board.play_round(s, tid, "p0", ["bet red 100"], key="bad", draws=["1"]).over


def test_a_blackjack_hand_in_play_survives_a_restart_and_decides_by_key(db: Engine) -> None:
    tid = started(db, structure="blackjack-100")
    with transaction(db) as s:
        opened = board.play_round(
            s, tid, "p0", ["bet box 1 1000"], key="k1", draws=["5h", "7c", "6s", "9d"]
        )
        assert not opened.over and "double" in opened.actions
    with transaction(db) as s:  # a new request: the engine is rebuilt from the row
        done = board.decide(s, tid, "p0", "double", key="k2", draws=["Th", "Kd"])
        assert done.over and done.chips == 12_000
        assert board.decide(s, tid, "p0", "double", key="k2") == done
        assert board.reconcile(s, tid) == []


def test_the_last_round_pays_the_leaderboard_and_ties_share(db: Engine) -> None:
    tid = started(db, rounds=1, guarantee=6000, fee=100)
    with transaction(db) as s:
        for name, pocket in zip(PLAYERS, ("1", "3", "2", "0"), strict=True):
            board.play_round(s, tid, name, ["bet red 1000"], key=f"k-{name}", draws=[pocket])
        result = board.results(s, tid)
        assert result.status == "finished" and result.pool == 6000 and result.overlay == 2000
        assert result.leaderboard == [
            (1, "p0", 11_000),
            (1, "p1", 11_000),
            (3, "p2", 9000),
            (3, "p3", 9000),
        ]
        assert result.prizes == {"p0": 3000, "p1": 3000, "p2": 0, "p3": 0}  # 65 % + 35 %
        assert balance(s, "player:p0") == 10_000 - 1100 + 3000
        assert balance(s, "player:p2") == 10_000 - 1100
        assert balance(s, f"tournament:{tid}") == 0
        assert balance(s, "house:bank") == HOUSE - 2000
        assert board.reconcile(s, tid) == [] and board.reconcile_all(s) == {}
        assert check(s).ok
        with pytest.raises(poker.TournamentRefused, match="is finished"):
            board.play_round(s, tid, "p0", ["bet red 100"], key="late", draws=["1"])


def test_the_time_limit_is_read_from_the_injected_clock_and_the_close_pays(db: Engine) -> None:
    tid = started(db, structure="slot-10-minutes")
    with transaction(db) as s:
        board.play_round(
            s,
            tid,
            "p0",
            ["spin 20 5"],
            key="s1",
            draws=["0"] * 5,
            now=START + timedelta(seconds=30),
        )
        assert board.tick(s, tid, now=START + timedelta(minutes=9)) == "running"
    with pytest.raises(poker.TournamentRefused, match="time is up"), transaction(db) as s:
        board.play_round(
            s,
            tid,
            "p1",
            ["spin 20 5"],
            key="s2",
            draws=["0"] * 5,
            now=START + timedelta(minutes=10),
        )
    with transaction(db) as s:
        assert board.tick(s, tid, now=START + timedelta(minutes=10)) == "finished"
        result = board.results(s, tid)
        assert sum(result.prizes.values()) == result.pool == 4000
        assert balance(s, f"tournament:{tid}") == 0 and board.reconcile(s, tid) == []
        board.finish(s, tid)  # already closed and paid: nothing more
        assert balance(s, f"tournament:{tid}") == 0 and board.reconcile(s, tid) == []


def test_finish_stands_a_hand_in_play_at_the_time_limit(db: Engine) -> None:
    tid = started(db, structure="blackjack-100", rounds=0, seconds=600)
    with transaction(db) as s:
        board.play_round(s, tid, "p0", ["bet box 1 500"], key="b1", draws=["Th", "7c", "Ts", "9d"],
                         now=START)
    with pytest.raises(poker.TournamentRefused, match="not over"), transaction(db) as s:
        board.finish(s, tid, SeededRng(3), now=START + timedelta(minutes=5))
    with transaction(db) as s:
        assert board.tick(s, tid, now=START + timedelta(minutes=10)) == "running"
        board.finish(s, tid, SeededRng(3), now=START + timedelta(minutes=10))
        result = board.results(s, tid)
        assert result.status == "finished" and sum(result.prizes.values()) == 4000
        assert board.reconcile(s, tid) == [] and check(s).ok


def test_cancelling_refunds_buy_ins_and_fees(db: Engine) -> None:
    tid = started(db)
    with transaction(db) as s:
        board.play_round(s, tid, "p0", ["bet red 100"], key="k1", draws=["1"])
        assert board.cancel(s, tid) == {name: 1100 for name in PLAYERS}
        assert all(balance(s, f"player:{name}") == 10_000 for name in PLAYERS)
        assert balance(s, f"tournament:{tid}") == 0 and balance(s, "fee:tournaments") == 0
        assert board.reconcile(s, tid) == []
    with pytest.raises(poker.TournamentRefused, match="cancelled"), transaction(db) as s:
        board.cancel(s, tid)


def test_unregistering_before_the_start_refunds_once(db: Engine) -> None:
    tid = make(db)
    with transaction(db) as s:
        board.unregister(s, tid, "p3", key="u-p3")
        board.unregister(s, tid, "p3", key="u-p3")  # retried
        assert balance(s, "player:p3") == 10_000
        assert board.reconcile(s, tid) == []
        assert board.register(s, tid, "p3", key="r2-p3").entry_id == "p3"
        assert balance(s, "player:p3") == 10_000 - 1100


def test_reconcile_finds_a_pool_or_chips_that_do_not_add_up(db: Engine) -> None:
    tid = started(db)
    with transaction(db) as s:
        board.play_round(s, tid, "p0", ["bet red 100"], key="k1", draws=["1"])
        record = s.get(TournamentRecord, tid)
        assert record is not None
        state = json.loads(record.state)
        state["engine"]["entries"][0]["chips"] += 500  # chips no round paid
        record.state = json.dumps(state)
        move(s, "stray", "player:p1", f"tournament:{tid}", 50, "stake")
        problems = board.reconcile(s, tid)
        assert any("10600 chips, its rounds give 10100" in p for p in problems)
        assert any("4050 staked less refunded" in p for p in problems)
        assert board.reconcile_all(s) == {tid: problems}


def test_every_round_played_to_its_end_is_kept_with_its_draws(db: Engine) -> None:
    """A round's row: its number, the chips staked and paid back, and the moves with the
    chance draw; retried by key it is kept once."""
    tid = started(db)
    with transaction(db) as s:
        board.play_round(s, tid, "p0", ["bet red 1000"], key="k1", draws=["1"])
        board.play_round(s, tid, "p0", ["bet red 1000"], key="k1", draws=["1"])  # a retry
        board.play_round(s, tid, "p0", ["bet 17 100"], key="k2", draws=["2"])
        board.play_round(s, tid, "p1", ["bet black 400"], key="k3", draws=["2"])
        kept = board.rounds_of(s, tid, "p0")
        assert [(r.number, r.staked, r.paid) for r in kept] == [(1, 1000, 2000), (2, 100, 0)]
        assert [-1, "1"] in json.loads(kept[0].moves)
        assert [(r.entry, r.staked, r.paid) for r in board.rounds_of(s, tid)][-1] == (
            "p1", 400, 800)
        assert board.reconcile(s, tid) == []


def test_a_hand_the_close_stands_is_kept_as_it_ends(db: Engine) -> None:
    tid = started(db, structure="blackjack-100", rounds=0, seconds=600)
    with transaction(db) as s:
        board.play_round(s, tid, "p0", ["bet box 1 500"], key="b1",
                         draws=["Th", "7c", "Ts", "9d"], now=START)
        assert board.rounds_of(s, tid) == []  # the hand waits for a decision
        board.finish(s, tid, SeededRng(3), now=START + timedelta(minutes=10))
        (stood,) = board.rounds_of(s, tid)
        assert (stood.entry, stood.number, stood.staked) == ("p0", 1, 500)
        assert board.reconcile(s, tid) == []


def test_a_kept_round_is_never_edited_and_a_missing_one_is_found(db: Engine) -> None:
    from sqlalchemy import delete

    from pelisali.platform.models import ImmutableRowError, TournamentRoundRow

    tid = started(db)
    with transaction(db) as s:
        board.play_round(s, tid, "p0", ["bet red 1000"], key="k1", draws=["1"])
    with pytest.raises(ImmutableRowError, match="tournament round"), transaction(db) as s:
        board.rounds_of(s, tid)[0].paid = 5_000
        s.flush()
    with transaction(db) as s:
        s.execute(delete(TournamentRoundRow).where(TournamentRoundRow.tournament_id == tid))
        (problem,) = board.reconcile(s, tid)
        assert "p0 played 1 rounds, staked 1000 and was paid 2000" in problem
        assert "the rounds kept: 0, 0 and 0" in problem
