"""Tournaments on the wallet: entries and fees, the pool, overlay, prizes, refunds, and
resuming from the saved state (RULINGS Tournaments)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from dbfixtures import HOUSE, setup
from sqlalchemy import Engine

from pelisali.platform import tournaments
from pelisali.platform.db import make_engine, transaction, upgrade
from pelisali.platform.ledger import KeyConflict, balance, check
from pelisali.rng import SeededRng
from pelisali.tournaments.poker import TournamentSettings

PLAYERS = tuple(f"p{i}" for i in range(6))


@pytest.fixture
def db() -> Iterator[Engine]:
    engine = make_engine("sqlite://")
    upgrade(engine)
    setup(engine, players=PLAYERS, money=10_000)
    yield engine


def make(db: Engine, **changes: object) -> int:
    options: dict[str, object] = {"name": "Ilta", "capacity": 6, "starting_chips": 1500,
                                  "structure": "sit-and-go", "buy_in": 1000, "fee": 100}
    options.update(changes)
    with transaction(db) as s:
        made = tournaments.create(s, TournamentSettings(**options))  # type: ignore[arg-type]
        for name in PLAYERS:
            tournaments.register(s, made.id, name, key=f"r-{name}")
        return made.id


def test_entries_pay_the_pool_and_the_fee_and_a_retry_pays_once(db: Engine) -> None:
    tid = make(db)
    with transaction(db) as s:
        again = tournaments.register(s, tid, "p0", key="r-p0")  # the same request retried
        assert again.entry_id == "p0"
        assert balance(s, f"tournament:{tid}") == 6000
        assert balance(s, "fee:tournaments") == 600
        assert balance(s, "player:p0") == 10_000 - 1100
    with pytest.raises(KeyConflict), transaction(db) as s:
        tournaments.unregister(s, tid, "p1", key="r-p0")  # p0's key for another request


def test_a_guarantee_is_paid_up_by_the_house_and_every_cent_reconciles(db: Engine) -> None:
    tid = make(db, guarantee=10_000)
    with transaction(db) as s:
        tournaments.start(s, tid, SeededRng(3))
    tournaments.play_bots(db, tid, SeededRng(4))
    with transaction(db) as s:
        result = tournaments.results(s, tid)
        assert result.status == "finished" and result.pool == 10_000
        assert result.overlay == 4000 and sum(result.prizes.values()) == 10_000
        assert balance(s, f"tournament:{tid}") == 0
        assert balance(s, "house:bank") == HOUSE - 4000
        winner = min(result.places, key=result.places.__getitem__)
        assert balance(s, f"player:{winner}") == 10_000 - 1100 + result.prizes[winner]
        assert tournaments.reconcile(s, tid) == []
        assert check(s).ok


def test_cancelling_refunds_buy_ins_and_fees(db: Engine) -> None:
    tid = make(db)
    with transaction(db) as s:
        owed = tournaments.cancel(s, tid)
        assert owed == {name: 1100 for name in PLAYERS}
        assert all(balance(s, f"player:{name}") == 10_000 for name in PLAYERS)
        assert balance(s, f"tournament:{tid}") == 0 and tournaments.reconcile(s, tid) == []
    with pytest.raises(tournaments.TournamentRefused, match="cancelled"), transaction(db) as s:
        tournaments.cancel(s, tid)


def test_a_tournament_resumes_from_its_last_booked_hand(db: Engine) -> None:
    tid = make(db)
    with transaction(db) as s:
        tournaments.start(s, tid, SeededRng(5))
    seen = []
    tournaments.play_bots(db, tid, SeededRng(6), hands=7,
                          on_hand=lambda engine, playing: seen.append(engine.snapshot()))
    with transaction(db) as s:
        resumed = tournaments.engine_of(tournaments.get(s, tid))
    assert resumed.snapshot() == seen[-1]  # stacks, seats, level time: as saved
    assert resumed.hands_dealt == 7 and resumed.chips_in_play() == resumed.chips_issued()
    tournaments.play_bots(db, tid, SeededRng(7))
    with transaction(db) as s:
        assert tournaments.results(s, tid).status == "finished"
        assert tournaments.reconcile(s, tid) == [] and check(s).ok


def test_registration_is_refused_with_a_reason_and_nothing_moves(db: Engine) -> None:
    tid = make(db)
    with pytest.raises(tournaments.TournamentRefused, match="registration is closed"), \
            transaction(db) as s:
        tournaments.register(s, tid, "p0", key="another")
    with pytest.raises(tournaments.TournamentRefused, match="no tournament 99"), \
            transaction(db) as s:
        tournaments.register(s, 99, "p0", key="k")
    with transaction(db) as s:
        assert balance(s, "player:p0") == 10_000 - 1100


def test_a_rebuy_retried_with_its_key_buys_once(db: Engine) -> None:
    tid = make(db, entry="rebuy", rebuy_until_level=2, rebuy_chips=1500, rebuy_cost=1000)
    with transaction(db) as s:
        tournaments.start(s, tid, SeededRng(2))
    for _ in range(2):
        with transaction(db) as s:
            tournaments.rebuy(s, tid, "p3", key="rebuy-p3")
    with transaction(db) as s:
        engine = tournaments.engine_of(tournaments.get(s, tid))
        assert engine.entries["p3"].stack == 3000 and engine.rebuys == 1
        assert balance(s, f"tournament:{tid}") == 7000
        assert tournaments.reconcile(s, tid) == []
