"""What every router shares: the database, the payment adapter, the generator and the
clock, the rate limits, and the live and poker rooms running in this process.

:func:`~pelisali.server.app.create_app` builds one :class:`ServerState` and keeps it
on the application (``app.state.pelisali``); a request or a socket reaches it through
its connection (:func:`state_of`), so two applications in one process share nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry
from sqlalchemy import Engine
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from pelisali.platform import leases, queries, rounds
from pelisali.platform.db import transaction
from pelisali.platform.families import WAGER, family_of
from pelisali.platform.leases import Lease
from pelisali.platform.payments import PaymentAdapter
from pelisali.rng import Rng
from pelisali.server.auth import RateLimit
from pelisali.server.clock import Clock
from pelisali.server.live import LiveRoom
from pelisali.server.poker_room import PokerRoom

log = logging.getLogger("pelisali.server")


@dataclass
class ServerState:
    """The server's shared state and the options it was created with: a live table's
    betting ``live_window`` and ``live_pause`` and a poker player's ``act_seconds``,
    all in seconds of ``clock``."""

    engine: Engine
    payments: PaymentAdapter
    rng: Rng
    clock: Clock
    live_window: float = 15.0
    live_pause: float = 4.0
    act_seconds: float = 20.0
    logins: RateLimit = field(default_factory=lambda: RateLimit(5, 60))  # a name and address
    betting: RateLimit = field(default_factory=lambda: RateLimit(20, 1))  # a player's slips
    live_rooms: dict[str, LiveRoom] = field(default_factory=dict)
    poker_rooms: dict[str, PokerRoom] = field(default_factory=dict)
    opened_at: dict[str, float] = field(default_factory=dict)  # when each room began, clock
    metrics: CollectorRegistry = field(default_factory=CollectorRegistry)  # this app's own
    # This process, as the table leases name it: host, process id and a random part.
    owner: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}:"
                                                f"{uuid.uuid4().hex[:8]}")
    leases: dict[str, Lease] = field(default_factory=dict)  # the tables this process runs
    _opening: asyncio.Lock = field(default_factory=asyncio.Lock, init=False, repr=False)
    _keeper: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    @contextmanager
    def db(self) -> Iterator[Session]:
        """One transaction of the platform layer."""
        with transaction(self.engine) as session:
            yield session

    def _take(self, name: str) -> None:
        """Take table ``name``'s lease for this process, and keep renewing what it
        holds; refused while another process runs the table."""
        with self.db() as session:
            lease = leases.acquire(session, name, self.owner)
        if lease is None:
            raise rounds.TableError(f"{name} is run by another server process now")
        self.leases[name] = lease
        if self._keeper is None:
            self._keeper = asyncio.get_running_loop().create_task(self._keep(),
                                                                  name="lease-keeper")

    async def _keep(self) -> None:
        """Renew this process's leases; a table whose lease another process took (this
        one stalled past its end) is stopped here."""
        while True:
            await asyncio.sleep(leases.RENEW_EVERY.total_seconds())
            for name in list(self.leases):
                try:
                    lease = await asyncio.to_thread(self._renew, name)
                except Exception:  # the database is away: try again at the next turn
                    log.warning("lease of %s not renewed", name, exc_info=True)
                    continue
                if lease is None:
                    log.error("lost the lease of %s: another process runs it", name)
                    await self._stop_room(name)
                else:
                    self.leases[name] = lease

    def _renew(self, name: str) -> Lease | None:
        with self.db() as session:
            return leases.acquire(session, name, self.owner)

    async def _stop_room(self, name: str) -> None:
        self.leases.pop(name, None)
        self.opened_at.pop(name, None)
        if (live := self.live_rooms.pop(name, None)) is not None:
            await live.stop()
        if (poker := self.poker_rooms.pop(name, None)) is not None:
            await poker.stop()

    def live_room(self, name: str) -> LiveRoom:
        """The room of live table ``name``, started when its first player comes."""
        if name not in self.live_rooms:
            with self.db() as session:
                table = queries.table(session, name)
            if table.mode != "live":
                raise rounds.TableError(f"{name} is not a live table")
            if family_of(table.game) is not WAGER:  # live cards are dealt at the table
                raise rounds.TableError(f"{name} deals {table.game}: its live rounds are "
                                        "entered by its dealer, not followed here")
            self._take(name)
            room = LiveRoom(self.engine, name, self.rng, window=self.live_window,
                            pause=self.live_pause, clock=self.clock)
            self.live_rooms[name] = room
            self.opened_at[name] = self.clock.now()
            room.start()
        return self.live_rooms[name]

    async def poker_room(self, name: str) -> PokerRoom:
        """The room of poker table ``name``, opened when its first player comes."""
        async with self._opening:  # two first players open one room, not two
            room = self.poker_rooms.get(name)
            if room is None:
                self._take(name)
                room = PokerRoom(self.engine, name, self.rng, act_seconds=self.act_seconds,
                                 clock=self.clock)
                await room.start()
                self.poker_rooms[name] = room
                self.opened_at[name] = self.clock.now()
        return room

    async def stop(self) -> None:
        """Stop every room's loop and give their tables up (the server is shutting
        down): another process may take them at once."""
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
            self._keeper = None
        for live in self.live_rooms.values():
            await live.stop()
        for poker in self.poker_rooms.values():
            await poker.stop()
        for name in list(self.leases):
            with contextlib.suppress(Exception), self.db() as session:
                leases.release(session, name, self.owner)
        self.leases.clear()


def state_of(connection: HTTPConnection) -> ServerState:
    """The state of the application a request or a socket came to."""
    found = getattr(connection.app.state, "pelisali", None)
    if not isinstance(found, ServerState):
        raise RuntimeError("not a Pelisali application: no server state")
    return found
