"""Load for the platform: players each at their own RNG roulette table, betting and
settling round after round. The crash test kills it mid-settlement; the benchmark
times it.

>>> from pelisali.platform.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> prepare(engine, players=2)
>>> [len(play(engine, p, rounds=3, seed=p)) for p in range(2)]
[3, 3]
"""

from __future__ import annotations

import random
import time
from datetime import date

from sqlalchemy import Engine

from pelisali.platform import accounts
from pelisali.platform.db import transaction
from pelisali.platform.ledger import LedgerError, move
from pelisali.platform.rounds import create_table, place_bet, settle
from pelisali.rng import SeededRng

SPOTS = ("red", "black", "straight 17", "dozen 2", "split 0-1", "column 3", "odd")


def name_of(player: int) -> str:
    return f"load{player}"


def prepare(engine: Engine, players: int, wallet: int = 10_000_000) -> None:
    """Players with money, the house bank funded, one roulette C table each."""
    with transaction(engine) as session:
        move(session, "load-fund", "external:owner", "house:bank", 10**12, "funding")
        for p in range(players):
            name = name_of(p)
            accounts.register(session, name, date(1980, 1, 1), "FI")
            accounts.deposit(session, name, wallet, key=f"load-deposit-{p}")
            create_table(session, f"table-{name}", "roulette", "C")


def play(engine: Engine, player: int, rounds: int, seed: int) -> list[float]:
    """``rounds`` rounds of one bet each at the player's table; the seconds each took
    (bet accepted and debited, then drawn and settled)."""
    chooser = random.Random(seed)
    rng = SeededRng(seed)
    name = name_of(player)
    took = []
    for number in range(rounds):
        start = time.perf_counter()
        spot = chooser.choice(SPOTS)
        stake = chooser.randint(1, 50) * 100
        for attempt in range(5):  # a deadlock or serialization failure is tried again
            try:
                with transaction(engine) as session:
                    place_bet(session, f"table-{name}", name, spot, stake,
                              key=f"{name}-{seed}-{number}")
                with transaction(engine) as session:
                    settle(session, f"table-{name}", rng)
                break
            except LedgerError:
                raise
            except Exception:
                if attempt == 4:
                    raise
        took.append(time.perf_counter() - start)
    return took
