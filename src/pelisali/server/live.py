"""Live tables over WebSocket: the betting window with its countdown, "no more bets",
the draw, every player's settlement, and the next round, the same for every client.

One :class:`LiveRoom` runs each live table in the server process. Bets go through the
table's desk (:mod:`pelisali.platform.desk`), which takes every slip that arrives
together in one transaction. GGPoker live roulette 2.1.5: a bet is refused, with its
reason, if it comes after "no more bets", if it is outside the table's limits, or if
its player is not connected to the table. GGPoker house rules 2.2: bets placed stand
when a player's connection drops, and are settled in their absence.

Every event has a sequence number. The public ones (the window, "no more bets", the
result) go to everyone; a player's own (their settlement) only to that player. A client
that reconnects says the last number it saw and receives every event since that
concerns it, so it misses nothing.
"""

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket
from sqlalchemy import Engine

from pelisali.games import GameError
from pelisali.platform import queries
from pelisali.platform.db import transaction
from pelisali.platform.desk import TableDesk
from pelisali.platform.ledger import LedgerError
from pelisali.rng import Rng
from pelisali.server.clock import Clock, SystemClock

KEEP = 500  # events kept for clients that reconnect
log = logging.getLogger("pelisali.server")


@dataclass
class Event:
    seq: int
    audience: str | None  # None: everyone; else the one player it concerns
    body: dict[str, Any]


@dataclass
class LiveRoom:
    """One live table's rounds, paced by its ``clock`` (the real time unless a test
    gives it a :class:`~pelisali.server.clock.ManualClock`); every method runs on the
    event loop, and the desk's blocking work in a thread."""

    engine: Engine
    table: str
    rng: Rng
    window: float = 15.0  # seconds the betting is open
    pause: float = 4.0  # seconds the result is shown before the next round
    clock: Clock = field(default_factory=SystemClock)
    seq: int = 0
    phase: str = "waiting"
    round_id: int = 0
    closes_at: float = 0.0
    events: deque[Event] = field(default_factory=lambda: deque(maxlen=KEEP))
    clients: dict[str, set[WebSocket]] = field(default_factory=dict)
    _desk: TableDesk | None = None
    _task: asyncio.Task[None] | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)

    def start(self) -> None:
        if self._task is None:
            self._desk = TableDesk(self.engine, self.table)
            self.round_id = self._desk.round_id
            self._task = asyncio.create_task(self._run(), name=f"live-{self.table}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._desk is not None:
            await asyncio.to_thread(self._desk.close)

    # -- clients -----------------------------------------------------------------------
    def join(self, player: str, socket: WebSocket) -> None:
        self.clients.setdefault(player, set()).add(socket)
        self._wake.set()

    def leave(self, player: str, socket: WebSocket) -> None:
        sockets = self.clients.get(player, set())
        sockets.discard(socket)
        if not sockets:
            self.clients.pop(player, None)

    def since(self, player: str, seq: int) -> list[dict[str, Any]]:
        """Every event after ``seq`` that concerns ``player``."""
        return [{"seq": e.seq, **e.body} for e in self.events
                if e.seq > seq and e.audience in (None, player)]

    def state(self) -> dict[str, Any]:
        return {"type": "state", "table": self.table, "phase": self.phase,
                "round_id": self.round_id, "seq": self.seq,
                "closes_in": max(0.0, self.closes_at - self.clock.now())
                if self.phase == "betting" else 0.0}

    async def bet(self, player: str, bets: list[tuple[str, int]], key: str) -> dict[str, Any]:
        """A slip from a connected player during the betting window."""
        if player not in self.clients:
            return _refused(key, "not connected to the table")
        if self.phase != "betting" or self.clock.now() >= self.closes_at:
            return _refused(key, "no more bets: the betting window has closed")
        if self._desk is None:
            return _refused(key, "the table is not open")
        try:
            receipts = await asyncio.to_thread(self._desk.bet, player, bets, key)
        except (LedgerError, GameError) as exc:
            return _refused(key, str(exc))
        return {"type": "bet-accepted", "key": key, "round_id": self.round_id,
                "bets": [{"bet_id": r.bet_id, "accepted": r.accepted, "message": r.message}
                         for r in receipts]}

    # -- the rounds --------------------------------------------------------------------
    async def _publish(self, audience: str | None, body: dict[str, Any]) -> None:
        self.seq += 1
        event = Event(self.seq, audience, body)
        self.events.append(event)
        targets = ([s for sockets in self.clients.values() for s in sockets]
                   if audience is None else list(self.clients.get(audience, ())))
        for socket in targets:
            try:
                await socket.send_json({"seq": event.seq, **body})
            except Exception:  # a client gone mid-send: it catches up when it returns
                continue

    async def _run(self) -> None:
        await keep_going(self._round, f"live table {self.table}", self.clock)

    async def _round(self) -> None:
        """One round: the window, no more bets, the draw, the settlements."""
        if self._desk is None:
            raise RuntimeError(f"live table {self.table} is not open")
        if not self.clients:  # nobody at the table: the wheel waits
            self.phase = "waiting"
            self._wake.clear()
            await self._wake.wait()
        self.round_id = self._desk.round_id
        self.phase, self.closes_at = "betting", self.clock.now() + self.window
        await self._publish(None, {"type": "betting", "round_id": self.round_id,
                                   "closes_in": self.window})
        await self.clock.sleep(self.window)
        self.phase = "closed"
        await self._publish(None, {"type": "no-more-bets", "round_id": self.round_id})
        round_id, settled = await asyncio.to_thread(self._desk.spin, self.rng)
        self.phase = "result"
        draws = await asyncio.to_thread(self._result, round_id)
        await self._publish(None, {"type": "result", "round_id": round_id,
                                   "result": draws})
        players = sorted({s.player for s in settled})
        wallets = await asyncio.to_thread(self._wallets, players)
        for name in players:
            await self._publish(name, {
                "type": "settled", "round_id": round_id, "balance": wallets[name],
                "settlements": [{"bet_id": s.bet_id, "spot": s.spot, "stake": s.stake,
                                 "paid": s.paid, "result": s.result}
                                for s in settled if s.player == name]})
        await self.clock.sleep(self.pause)

    def _result(self, round_id: int) -> str:
        with transaction(self.engine) as session:
            return queries.round_result(session, round_id)

    def _wallets(self, players: list[str]) -> dict[str, int]:
        with transaction(self.engine) as session:
            return queries.wallets(session, players)


async def keep_going(step: Callable[[], Awaitable[None]], what: str,
                     clock: Clock | None = None) -> None:
    """Run ``step`` again and again until cancelled; an unexpected error is logged and
    the table carries on after a breath (a second on ``clock``) rather than stopping
    for good."""
    pace = clock or SystemClock()
    while True:
        try:
            await step()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s", what)
            await pace.sleep(1)


def _refused(key: str, reason: str) -> dict[str, Any]:
    return {"type": "bet-refused", "key": key, "reason": reason}
