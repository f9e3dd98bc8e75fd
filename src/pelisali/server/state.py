"""What every router shares: the database, the payment adapter, the generator and the
clock, the rate limits, the message bus, and the live and poker tables this process runs.

:func:`~pelisali.server.app.create_app` builds one :class:`ServerState` and keeps it
on the application (``app.state.pelisali``); a request or a socket reaches it through
its connection (:func:`state_of`), so two applications in one process share nothing.

A shared table (live or poker) is run by one process at a time, the holder of its lease
(:mod:`pelisali.platform.leases`): it runs the table's room, publishes the table's
events on the bus (:mod:`pelisali.server.bus`) and answers the requests of its players
wherever their sockets are. A socket on any process opens the table if nobody runs it
(:meth:`ServerState.open_table`), follows its events from the bus and sends what its
player does to the runner (:meth:`ServerState.ask`). Every process renews its leases
each second and takes over, within the lease's time to live and a second, a table
whose runner died without giving it up (``kill -9``, a lost machine); the new runner
resumes it from the database. A process that stops gives its tables up: another
takes them at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from prometheus_client import CollectorRegistry
from sqlalchemy import Engine
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from pelisali.platform import (
    aml,
    bonus,
    card_rounds,
    chemin_tables,
    leases,
    queries,
    rounds,
    slot_rounds,
)
from pelisali.platform.db import transaction
from pelisali.platform.families import POKER, WAGER, family_of
from pelisali.platform.leases import Lease
from pelisali.platform.ledger import LedgerError
from pelisali.platform.payments import PaymentAdapter
from pelisali.platform.rng_desk import RngDesk
from pelisali.rng import Rng
from pelisali.server.auth import LoginGuard, RateLimit
from pelisali.server.bus import Bus, BusDown, LocalBus, NoResponder, Serving
from pelisali.server.clock import Clock
from pelisali.server.live import LiveRoom, coded_reason
from pelisali.server.poker_room import PokerRoom
from pelisali.server.security import Security

DEADLINE_SWEEP_SECONDS = 30.0  # how often a process looks for rounds past their deadline
DECISION_SWEEP_SECONDS = 5.0  # and for blackjack decisions past their time
AML_SCAN_SECONDS = 600.0  # how often the anti-money-laundering rules read the ledger
log = logging.getLogger("pelisali.server")
MOVING = "the table is moving to another server process: try again in a moment"


@dataclass
class ServerState:
    """The server's shared state and the options it was created with: a live table's
    betting ``live_window`` and ``live_pause``, a poker player's ``act_seconds``, how
    long a poker showdown stays (``showdown_seconds``) and how long a seated poker
    player may be away before they are cashed out (``away_seconds``), all in seconds of
    ``clock``."""

    engine: Engine
    payments: PaymentAdapter
    rng: Rng
    clock: Clock
    live_window: float = 15.0
    live_pause: float = 4.0
    act_seconds: float = 20.0
    showdown_seconds: float = 5.0
    away_seconds: float = 120.0
    security: Security = field(default_factory=Security)
    betting: RateLimit = field(default_factory=lambda: RateLimit(20, 1))  # a player's slips
    # Made from ``security``: failed logins (with back-off); new accounts from one
    # address an hour and from everywhere a minute; each player's socket messages a
    # second over all their sockets. And the sockets each player holds in this process.
    logins: LoginGuard = field(init=False)
    registrations: RateLimit = field(init=False)
    all_registrations: RateLimit = field(init=False)
    socket_messages: RateLimit = field(init=False)
    sockets: Counter[str] = field(default_factory=Counter)
    bus: Bus = field(default_factory=LocalBus)
    live_rooms: dict[str, LiveRoom] = field(default_factory=dict)
    poker_rooms: dict[str, PokerRoom] = field(default_factory=dict)
    opened_at: dict[str, float] = field(default_factory=dict)  # when each room began, clock
    metrics: CollectorRegistry = field(default_factory=CollectorRegistry)  # this app's own
    # This process, as the table leases name it: host, process id and a random part.
    owner: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}:"
                                                f"{uuid.uuid4().hex[:8]}")
    leases: dict[str, Lease] = field(default_factory=dict)  # the tables this process runs
    # The RNG slips of this process's players, played together (group commit), and the
    # players' own tables known to exist (a table is never deleted).
    rng_desk: RngDesk = field(init=False)
    own_tables: set[str] = field(default_factory=set)
    following: Counter[str] = field(default_factory=Counter)  # tables with sockets here
    bus_up: bool = True  # the bus carried the last event or request this process tried
    _serving: dict[str, Serving] = field(default_factory=dict)
    _opening: asyncio.Lock = field(default_factory=asyncio.Lock, init=False, repr=False)
    _keeper: asyncio.Task[None] | None = field(default=None, init=False, repr=False)
    # When each periodic job of _keep last ran, on ``clock``.
    _last_run: dict[str, float] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.rng_desk = RngDesk(self.engine, self.rng)
        limits = self.security
        self.logins = LoginGuard(limits.login_failures_per_name,
                                 limits.login_failures_per_address, limits.login_failures)
        self.registrations = RateLimit(limits.registrations_per_address, 3600)
        self.all_registrations = RateLimit(limits.registrations_per_minute, 60)
        self.socket_messages = RateLimit(limits.ws_account_rate, 1)

    @contextmanager
    def db(self) -> Iterator[Session]:
        """One transaction of the platform layer."""
        with transaction(self.engine) as session:
            yield session

    def own_table(self, player: str, game: str, variant: str | None = None) -> str:
        """The name of ``player``'s own RNG table of ``game``, opened the first time (a
        table is never deleted, so one this process has seen is not looked up again)."""
        from pelisali.platform import tables

        name = tables.own_table_name(player, game, variant)
        if name not in self.own_tables:
            with self.db() as session:
                tables.own_table(session, player, game, variant)
            self.own_tables.add(name)
        return name

    # -- running tables --------------------------------------------------------------
    def shared_table(self, name: str) -> str:
        """``live`` or ``poker``: the kind of shared table ``name`` is, or why a player
        cannot follow it here (a :class:`~pelisali.platform.rounds.TableError`)."""
        with self.db() as session:
            table = queries.table(session, name)
        family = family_of(table.game)
        if family is POKER:
            return "poker"
        if table.mode != "live":
            raise rounds.TableError(f"{name} is not a live table")
        if family is not WAGER:  # live cards are dealt at the table
            raise rounds.TableError(f"{name} deals {table.game}: its live rounds are "
                                    "entered by its dealer, not followed here")
        return "live"

    def runs(self, name: str) -> bool:
        """This process runs table ``name``."""
        return name in self.live_rooms or name in self.poker_rooms

    async def start(self) -> None:
        """Begin renewing leases and watching for tables whose runner died."""
        if self._keeper is None:
            self._keeper = asyncio.get_running_loop().create_task(self._keep(),
                                                                  name="lease-keeper")

    async def open_table(self, name: str) -> bool:
        """Run shared table ``name`` here unless another process runs it; whether this
        process runs it now."""
        kind = self.shared_table(name)
        async with self._opening:  # two first players open one room, not two
            if self.runs(name):
                return True
            lease = await asyncio.to_thread(self._acquire, name)
            if lease is None:
                return False
            self.leases[name] = lease
            try:
                await self._start_room(name, kind)
            except BaseException:
                self.leases.pop(name, None)
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(self._release, name)
                raise
        await self.start()
        return True

    async def _start_room(self, name: str, kind: str) -> None:
        room: LiveRoom | PokerRoom
        if kind == "live":
            room = LiveRoom(self.engine, name, self.rng, self.bus, window=self.live_window,
                            pause=self.live_pause, clock=self.clock)
            await room.start()
            self.live_rooms[name] = room
        else:
            room = PokerRoom(self.engine, name, self.rng, self.bus,
                             act_seconds=self.act_seconds, clock=self.clock,
                             between_hands=self.showdown_seconds,
                             away_seconds=self.away_seconds)
            await room.start()
            self.poker_rooms[name] = room
        self.opened_at[name] = self.clock.now()
        try:
            self._serving[name] = await self.bus.serve(name, room.handle)
        except BusDown:  # the room runs; players on this process still reach it
            self.bus_up = False
            log.warning("bus down: %s answers only this process's players", name)

    async def ask(self, name: str, message: dict[str, Any], take_over: bool = True
                  ) -> dict[str, Any]:
        """What the runner of table ``name`` answers to ``message`` (a player's request);
        a table nobody runs any more (its runner died) is taken over first, unless not
        to ``take_over``."""
        for _ in range(2):
            room = self.live_rooms.get(name) or self.poker_rooms.get(name)
            if room is not None:
                return await room.handle(message)
            try:
                answer = await self.bus.request(name, message)
            except NoResponder:
                if not take_over:
                    break
                if not await self.open_table(name):
                    await asyncio.sleep(0.2)  # its new runner is starting
                continue
            except BusDown as exc:
                self.bus_up = False
                return {"type": "refused",
                        **coded_reason(f"the table cannot be reached now: {exc}")}
            self.bus_up = True
            return answer
        return {"type": "refused", **coded_reason(MOVING)}

    def _acquire(self, name: str) -> Lease | None:
        with self.db() as session:
            return leases.acquire(session, name, self.owner)

    def _release(self, name: str) -> None:
        with self.db() as session:
            leases.release(session, name, self.owner)

    async def _keep(self) -> None:
        """Renew this process's leases; stop a table whose lease another process took
        (this one stalled past its end); take over the tables whose runner died."""
        while True:
            await asyncio.sleep(leases.RENEW_EVERY.total_seconds())
            for name in list(self.leases):
                try:
                    lease = await asyncio.to_thread(self._acquire, name)
                except Exception:  # the database is away: try again at the next turn
                    log.warning("lease of %s not renewed", name, exc_info=True)
                    continue
                if lease is None:
                    log.error("lost the lease of %s: another process runs it", name)
                    await self._stop_room(name)
                else:
                    self.leases[name] = lease
            for name in [n for n in self.leases if n not in self._serving]:
                room = self.live_rooms.get(name) or self.poker_rooms.get(name)
                if room is not None:  # the bus was down when the room opened: try again
                    with contextlib.suppress(BusDown):
                        self._serving[name] = await self.bus.serve(name, room.handle)
            for job, every in ((self.sweep_deadlines, DEADLINE_SWEEP_SECONDS),
                               (self.sweep_decisions, DECISION_SWEEP_SECONDS),
                               (self.sweep_chemin, DECISION_SWEEP_SECONDS),
                               (self.sweep_slots, DEADLINE_SWEEP_SECONDS),
                               (self.sweep_bonuses, DEADLINE_SWEEP_SECONDS),
                               (self.scan_aml, AML_SCAN_SECONDS)):
                await self._periodically(job, every)
            try:
                orphans = await asyncio.to_thread(self._orphans)
            except Exception:
                log.warning("could not look for tables to take over", exc_info=True)
                continue
            for name in orphans:
                try:
                    if await self.open_table(name):
                        log.warning("took over %s: its runner stopped renewing", name)
                except LedgerError as exc:  # closed or removed since: nobody runs it
                    log.warning("%s is not taken over: %s", name, exc)
                    with contextlib.suppress(Exception), self.db() as session:
                        leases.abandon(session, name)
                except Exception:
                    log.exception("could not take over %s", name)

    async def _periodically(self, job: Callable[[], object], every: float) -> None:
        """Run ``job`` in a thread when ``every`` seconds have passed since it last ran;
        a failure is logged, and it runs again at its next time (a round another process
        finished meanwhile, an AML case another opened: they stand)."""
        name = getattr(job, "__name__", repr(job))
        if self.clock.now() - self._last_run.get(name, 0.0) < every:
            return
        self._last_run[name] = self.clock.now()
        try:
            await asyncio.to_thread(job)
        except Exception:
            log.warning("%s did not finish", name, exc_info=True)

    def sweep_deadlines(self) -> list[tuple[int, str]]:
        """Finish the rounds past their 24-hour deadline (GGPoker house rules 2.3): a
        roulette D choice nobody made is la partage, as the rules page says. Each round
        in a transaction of its own, its row locked first, so that two processes
        sweeping at once finish it once."""
        with self.db() as session:
            due = rounds.overdue(session)
        done = []
        for round_id in due:
            with self.db() as session:
                what = rounds.finish_round(session, round_id, self.rng)
            if what is not None:
                log.info("round %s past its deadline: %s", round_id, what)
                done.append((round_id, what))
        return done

    def sweep_slots(self) -> list[tuple[int, str]]:
        """Complete the slot rounds pending past their 24 hours (GGPoker RNG slots 2.3:
        the free spins left are drawn and the winnings credited), each round in a
        transaction of its own, its row locked first."""
        with self.db() as session:
            due = slot_rounds.overdue_slot_rounds(session)
        done = []
        for round_id in due:
            with self.db() as session:
                what = slot_rounds.complete_slot_round(session, round_id, self.rng)
            if what is not None:
                log.info("slot round %s past its deadline: %s", round_id, what)
                done.append((round_id, what))
        return done

    def sweep_bonuses(self) -> list[int]:
        """Forfeit the free-spin bonuses not wagered through within their 72 hours
        (GGPoker RNG slots 5), by an audited transfer to the house; their ids."""
        with self.db() as session:
            gone = bonus.forfeit_expired(session)
        for grant in gone:
            log.info("bonus %s of %s forfeited: %s cents not wagered through by %s",
                     grant.id, grant.player, grant.amount, grant.deadline.isoformat())
        return [grant.id for grant in gone]

    def scan_aml(self) -> list[int]:
        """Run the anti-money-laundering rules; the cases they opened."""
        with self.db() as session:
            opened = aml.scan(session)
        for case in opened:
            log.warning("AML case %s: %s, %s", case.id, case.rule, case.player)
        return [case.id for case in opened]

    def sweep_decisions(self) -> list[tuple[int, int]]:
        """Make the blackjack decisions past their time (RULINGS: the hand stands, the
        insurance offer is declined) for players who sent none (the tab closed), each
        round's row locked first; the rounds with how many decisions were made."""
        with self.db() as session:
            late = card_rounds.overdue_decisions(session)
        done = []
        for round_id in late:
            with self.db() as session:
                made = card_rounds.time_out_round(session, round_id)
            if made:
                done.append((round_id, made))
        return done

    def sweep_chemin(self) -> list[tuple[str, list[str]]]:
        """Act as the house at the chemin de fer tables whose decision time ran out on
        the server's clock and that no page's socket kept (the tab closed): each table
        in a transaction of its own, locked first; the tables with what was done."""
        at = datetime.fromtimestamp(self.clock.now(), UTC)
        with self.db() as session:
            late = chemin_tables.overdue_tables(session, at)
        done = []
        for name in late:
            with self.db() as session:
                made = chemin_tables.time_out(session, name, at, self.rng)
            if made:
                done.append((name, made))
        return done

    def _orphans(self) -> list[str]:
        """Tables whose runner died (their lease ran out, never given up), and tables
        followed here that nobody runs."""
        with self.db() as session:
            # a tournament's lease is its rooms' own (server.tournament_room): not a table
            found = {n for n in leases.orphaned(session) if not n.startswith("tournament-")}
            found |= {name for name in self.following
                      if not self.runs(name) and leases.holder(session, name) is None}
        return sorted(name for name in found if not self.runs(name))

    async def _stop_room(self, name: str) -> None:
        self.leases.pop(name, None)
        self.opened_at.pop(name, None)
        if (serving := self._serving.pop(name, None)) is not None:
            await serving.stop()
        if (live := self.live_rooms.pop(name, None)) is not None:
            await live.stop()
        if (poker := self.poker_rooms.pop(name, None)) is not None:
            await poker.stop()

    async def stop(self) -> None:
        """Stop every room's loop and hand their tables over (the server is shutting
        down): another process takes each at once and resumes it from the database."""
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
            self._keeper = None
        for name in list(self.live_rooms) + list(self.poker_rooms):
            try:
                await self._stop_room(name)
            except Exception:
                log.exception("stopping %s", name)
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self._hand_over, name)
        self.leases.clear()
        with contextlib.suppress(Exception):
            await self.bus.close()

    def _hand_over(self, name: str) -> None:
        with self.db() as session:
            leases.hand_over(session, name, self.owner)


def state_of(connection: HTTPConnection) -> ServerState:
    """The state of the application a request or a socket came to."""
    found = getattr(connection.app.state, "pelisali", None)
    if not isinstance(found, ServerState):
        raise RuntimeError("not a Pelisali application: no server state")
    return found
