"""Load for the platform, two ways. RNG tables: each player at their own roulette
table, one bet a round, either through the RNG desk (:func:`play_desk`: the slips of
every player of the process that arrive together played in one transaction, as the
server plays them) or alone, the bet and the settlement each their own transaction
(:func:`play`; the crash test kills this mid-settlement). Live tables: players seated
at shared tables put down a slip of one to four bets a round through the table's desk,
and the croupier spins when every slip is in. The benchmark times both.

>>> from pelisali.platform.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> prepare(engine, players=2)
>>> [len(play(engine, p, rounds=3, seed=p)) for p in range(2)]
[3, 3]
>>> len(play_desk(RngDesk(engine, SeededRng(1)), 0, rounds=3, seed=9))
3
"""

from __future__ import annotations

import os
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import Engine, create_engine, text

from pelisali.platform import accounts
from pelisali.platform.db import transaction
from pelisali.platform.ledger import LedgerError, move
from pelisali.platform.rng_desk import RngDesk, RngSlip
from pelisali.platform.rounds import SlipResult, create_table, place_bet, settle
from pelisali.rng import SeededRng

T = TypeVar("T")
SPOTS = ("red", "black", "straight 17", "dozen 2", "split 0-1", "column 3", "odd")


POSTGRES = os.environ.get("PELISALI_TEST_POSTGRES",
                          "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@contextmanager
def postgres_schema(prefix: str) -> Iterator[str]:
    """The URL of a schema of its own on :data:`POSTGRES`, dropped afterwards."""
    schema = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield f"{POSTGRES}?options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def name_of(player: int, prefix: str = "load") -> str:
    return f"{prefix}{player}"


def prepare(engine: Engine, players: int, wallet: int = 10_000_000,
            prefix: str = "load") -> None:
    """Players with money, the house bank funded, one roulette C table each. The
    players are ``{prefix}0`` ... and the keys ``{prefix}-fund`` and
    ``{prefix}-deposit-{p}``: several preparations on one database need distinct
    prefixes."""
    with transaction(engine) as session:
        move(session, f"{prefix}-fund", "external:owner", "house:bank", 10**12, "funding")
        for p in range(players):
            name = name_of(p, prefix)
            accounts.register(session, name, date(1980, 1, 1), "FI")
            accounts.deposit(session, name, wallet, key=f"{prefix}-deposit-{p}")
            create_table(session, f"table-{name}", "roulette", "C")


def tried(call: Callable[[], T]) -> T:
    """``call()``, tried again (five times in all) after a deadlock, a serialization
    failure or another failure of the database; a refusal (a LedgerError) is raised."""
    for attempt in range(5):
        try:
            return call()
        except LedgerError:
            raise
        except Exception:
            if attempt == 4:
                raise
    raise AssertionError("unreachable")


def play(engine: Engine, player: int, rounds: int, seed: int, *, prefix: str = "load",
         accepts: list[float] | None = None) -> list[float]:
    """``rounds`` rounds of one bet each at the player's table; the seconds each took
    (bet accepted and debited, then drawn and settled). If ``accepts`` is given, the
    seconds from each round's start to its bet's commit (the first transaction) are
    appended to it."""
    chooser = random.Random(seed)
    rng = SeededRng(seed)
    name = name_of(player, prefix)
    took = []
    for number in range(rounds):
        start = time.perf_counter()
        spot = chooser.choice(SPOTS)
        stake = chooser.randint(1, 50) * 100

        def bet_then_draw(spot: str = spot, stake: int = stake,
                          key: str = f"{name}-{seed}-{number}") -> float:
            with transaction(engine) as session:
                place_bet(session, f"table-{name}", name, spot, stake, key=key)
            accepted = time.perf_counter()
            with transaction(engine) as session:
                settle(session, f"table-{name}", rng)
            return accepted

        accepted = tried(bet_then_draw)
        took.append(time.perf_counter() - start)
        if accepts is not None:
            accepts.append(accepted - start)
    return took


def desk_slip(desk: RngDesk, chooser: random.Random, name: str, key: str) -> None:
    """One slip of one bet (a spot and 1-50 euros, as ``chooser`` picks) at ``name``'s
    table through ``desk``, tried again after a database failure; a refusal is raised."""
    slip = RngSlip(f"table-{name}", name,
                   ((chooser.choice(SPOTS), chooser.randint(1, 50) * 100),), key)
    outcome = tried(partial(desk.play, slip))
    if outcome.refused is not None:
        raise outcome.refused


def play_desk(desk: RngDesk, player: int, rounds: int, seed: int, *,
              prefix: str = "load") -> list[float]:
    """``rounds`` rounds of one bet each at the player's table through ``desk``, shared
    by the process's players; the seconds each took (the slip sent to its round
    settled and committed: on the desk the bet is accepted in that same commit)."""
    chooser = random.Random(seed)
    name = name_of(player, prefix)
    took = []
    for number in range(rounds):
        start = time.perf_counter()
        desk_slip(desk, chooser, name, f"{name}-{seed}-{number}")
        took.append(time.perf_counter() - start)
    return took


def play_desk_paced(desk: RngDesk, player: int, every: float, until: float, seed: int, *,
                    prefix: str = "load") -> list[float]:
    """One bet a round at the player's table through ``desk``, a slip every ``every``
    seconds (from a random phase) until ``until`` (``time.perf_counter``): an open load,
    as players who bet at their own pace. Each slip's seconds count from when it was
    due, not when it was sent, so that a desk that falls behind is charged for the
    slips that waited to be sent (no coordinated omission)."""
    chooser = random.Random(seed)
    name = name_of(player, prefix)
    took = []
    due = time.perf_counter() + chooser.uniform(0, every)
    number = 0
    while due < until:
        wait = due - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        desk_slip(desk, chooser, name, f"{name}-{seed}-{number}")
        took.append(time.perf_counter() - due)
        due += every
        number += 1
    return took


@dataclass
class LiveLoad:
    """``players`` seated round-robin at ``tables`` live roulette tables, each served by a
    :class:`~pelisali.platform.desk.TableDesk`. Each round, every seated player's slip of
    one to four bets is sent at once (the players are clients; a driver per table plays
    them, so that the load generator does not compete with the desk for this process),
    and the croupier spins when every answer is in.

    >>> from pelisali.platform.db import make_engine, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> figures = LiveLoad(engine, players=4, tables=2, seed=1).run(rounds=3)
    >>> figures.rounds, figures.settled_bets == len(figures.latencies)
    (6, True)
    """

    engine: Engine
    players: int
    tables: int
    seed: int = 0
    slip_bets: tuple[int, int] = (1, 4)
    prefix: str = "live"  # of the players' and tables' names
    latencies: list[float] = field(default_factory=list)  # bet sent to paid, per bet
    accepts: list[float] = field(default_factory=list)  # a slip's acceptance
    spins: list[float] = field(default_factory=list)  # no more bets to all paid
    rounds: int = 0
    settled_bets: int = 0
    refused: int = 0
    _prepared: bool = False

    def prepare(self) -> None:
        """The players with money, the house bank funded, the tables."""
        with transaction(self.engine) as session:
            move(session, f"{self.prefix}-fund", "external:owner", "house:bank", 10**12,
                 "funding")
            for p in range(self.players):
                accounts.register(session, f"{self.prefix}{p}", date(1980, 1, 1), "FI")
                accounts.deposit(session, f"{self.prefix}{p}", 10**8,
                                 key=f"{self.prefix}-deposit-{p}")
            for t in range(self.tables):
                create_table(session, f"{self.prefix}-{t}", "roulette", "C", mode="live")
        self._prepared = True

    def run(self, seconds: float | None = None, rounds: int | None = None) -> LiveLoad:
        """Play until ``seconds`` have passed or each table has played ``rounds``."""
        from pelisali.platform.desk import TableDesk

        if not self._prepared:
            self.prepare()
        desks = [TableDesk(self.engine, f"{self.prefix}-{t}") for t in range(self.tables)]
        deadline = None if seconds is None else time.monotonic() + seconds
        lock = threading.Lock()

        def table(t: int) -> None:
            seated = [p for p in range(self.players) if p % self.tables == t]
            choosers = {p: random.Random(self.seed * 1_000_003 + p) for p in seated}
            rng = SeededRng(self.seed * 7919 + t)
            played = 0
            while not ((deadline is not None and time.monotonic() >= deadline)
                       or (rounds is not None and played >= rounds)):
                answered: dict[int, float] = {}

                def mark(i: int, answered: dict[int, float] = answered) -> Callable[[Any], None]:
                    return lambda _: answered.__setitem__(i, time.perf_counter())

                sent: list[tuple[float, int]] = []
                futures: list[Future[SlipResult]] = []
                for p in seated:
                    chooser = choosers[p]
                    bets = [(chooser.choice(SPOTS), chooser.randint(1, 50) * 100)
                            for _ in range(chooser.randint(*self.slip_bets))]
                    sent.append((time.perf_counter(), len(bets)))
                    future = desks[t].submit(f"{self.prefix}{p}", bets,
                                             key=f"{self.prefix}-{self.seed}-{p}-{played}")
                    future.add_done_callback(mark(len(futures)))
                    futures.append(future)
                refused = sum(f.result(60).refused is not None for f in futures)
                start = time.perf_counter()
                _, settled = desks[t].spin(rng)
                took = time.perf_counter() - start
                played += 1
                with lock:
                    self.refused += refused
                    self.spins.append(took)
                    self.rounds += 1
                    self.settled_bets += len(settled)
                    for i, (at, count) in enumerate(sent):
                        self.accepts.append(answered[i] - at)
                        self.latencies.extend([answered[i] - at + took] * count)

        threads = [threading.Thread(target=table, args=(t,)) for t in range(self.tables)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for desk in desks:
            desk.close()
        return self
