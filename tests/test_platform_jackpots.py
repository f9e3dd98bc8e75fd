"""Table-game jackpots in the ledger (RAY 2016 1.2.1), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date

import pytest
from dbfixtures import Fixed
from sqlalchemy import Engine

from pelisali.platform import accounts
from pelisali.platform.db import transaction
from pelisali.platform.jackpots import (
    JackpotError,
    close_day,
    create_jackpot,
    join,
    reconcile,
)
from pelisali.platform.ledger import balance, check, move, verify_audit
from pelisali.platform.rounds import create_table, place_bet, settle, void

PLAYERS = ("ann", "bob", "cid")


def setup(engine: Engine) -> None:
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", 1_000_000, "funding")
        create_table(s, "r1", "roulette", "C")
        for name in PLAYERS:
            accounts.register(s, name, date(1990, 1, 1), "FI")
            accounts.deposit(s, name, 10_000, key=f"d-{name}")


def test_a_progressive_jackpot_accrues_by_day_pays_shares_and_reseeds(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        create_jackpot(s, "zero", "r1", "progressive", fee=100, share_percent=60,
                       minimum=5_000, faces=["0"])
        assert balance(s, "jackpot:zero") == 5_000  # seeded to the guaranteed minimum
        for name in PLAYERS:  # a losing round: every fee taken, 60 % to the accrual
            join(s, "zero", name, key=f"j1-{name}")
        place_bet(s, "r1", "ann", "black", 100, key="b1")
    with transaction(engine) as s:
        settle(s, "r1", Fixed(7))
        assert balance(s, "jackpot:zero:accrual") == 180
        assert balance(s, "jackpot:zero") == 5_000  # the accrual waits for the day's end
        assert balance(s, "player:bob") == 9_900
        assert close_day(s, "zero", date(2026, 11, 29)) == 180
        assert balance(s, "jackpot:zero") == 5_180
        assert close_day(s, "zero", date(2026, 11, 29)) == 0  # nothing twice
    with transaction(engine) as s:  # zero comes up: ann and bob share 5,180
        join(s, "zero", "ann", key="j2-ann")
        join(s, "zero", "bob", key="j2-bob")
        place_bet(s, "r1", "cid", "black", 100, key="b2")
    with transaction(engine) as s:
        settle(s, "r1", Fixed(0))
        assert balance(s, "player:ann") == 9_900 - 100 - 100 + 2_590
        assert balance(s, "player:bob") == 9_900 - 100 + 2_590
        assert balance(s, "jackpot:zero") == 5_000  # the house tops it up again
        report = reconcile(s, "zero")
        assert (report.contributed, report.paid) == (180 + 120, 5_180)
        assert report.seeded == 5_000 + 5_000
        assert report.balanced
        assert check(s).ok and verify_audit(s).ok


def test_fixed_and_odds_jackpots_are_paid_by_the_house(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        create_jackpot(s, "seventeen", "r1", "fixed", fee=200, amount=50_000, faces=["17"])
        create_jackpot(s, "reds", "r1", "odds", fee=100, odds=30, faces=["1", "3"])
        join(s, "seventeen", "ann", key="a1")
        join(s, "reds", "bob", key="b1")
    with transaction(engine) as s:
        settle(s, "r1", Fixed(17))
        assert balance(s, "player:ann") == 10_000 - 200 + 50_000
        assert balance(s, "player:bob") == 10_000 - 100  # 17 is not one of its results
    with transaction(engine) as s:
        join(s, "reds", "bob", key="b2")
    with transaction(engine) as s:
        settle(s, "r1", Fixed(3))
        assert balance(s, "player:bob") == 10_000 - 200 + 3_000
        assert check(s).ok


def test_a_void_round_gives_the_fees_back_and_bad_jackpots_are_refused(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        create_jackpot(s, "zero", "r1", "progressive", fee=100, share_percent=50,
                       minimum=1_000, faces=["0"])
        join(s, "zero", "ann", key="a1")
        assert join(s, "zero", "ann", key="a1").key == "a1"  # a retry joins once
        assert balance(s, "player:ann") == 9_900
    with transaction(engine) as s:
        void(s, "r1", "device fault", "dealer")
        assert balance(s, "player:ann") == 10_000
        assert balance(s, "jackpot:zero:accrual") == 0
        assert reconcile(s, "zero").balanced and check(s).ok
    for kwargs, message in (
            ({"kind": "lottery"}, "jackpot kind"),
            ({"faces": ["37"]}, "not a result"),
            ({"faces": []}, "results that win"),
            ({"minimum": 0}, "guaranteed minimum"),
            ({"name": "zero"}, "exists")):
        args = {"name": "new", "table_name": "r1", "kind": "progressive", "fee": 100,
                "faces": ["0"], "share_percent": 50, "minimum": 1_000, **kwargs}
        with pytest.raises(JackpotError, match=message), transaction(engine) as s:
            create_jackpot(s, **args)  # type: ignore[arg-type]
