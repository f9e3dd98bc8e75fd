"""Live tables over WebSocket: the betting window with its countdown, "no more bets",
the draw, every player's settlement, and the next round, the same for every client.

One :class:`LiveRoom` runs each live table, in the process that holds the table's lease
(:mod:`pelisali.server.state`). Bets go through the table's desk
(:mod:`pelisali.platform.desk`), which takes every slip that arrives together in one
transaction. GGPoker live roulette 2.1.5: a bet is refused, with its reason, if it comes
after "no more bets", if it is outside the table's limits, or if its player is not
connected to the table. GGPoker house rules 2.2: bets placed stand when a player's
connection drops, and are settled in their absence.

Every event goes on the bus (:mod:`pelisali.server.bus`), which numbers it. The public
ones (the window, "no more bets", the result) are for everyone; a player's own (their
settlement) only for that player. A socket on any process follows the table's events
from the bus; a client that reconnects, to any process, says the last number it saw and
receives every event since that concerns it, so it misses nothing and gets nothing twice.

A room that starts where another runner left off (it died, or stopped) resumes from the
database and the table's last event: an open window opens again for the same round and
its accepted bets; a round whose bets were closed is drawn at once; a round drawn but
not fully announced has the rest of its announcements made. It then says ``resumed``, so
that the players' sockets on every process tell it again who is at the table.
"""

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine

from pelisali.games import GameError
from pelisali.platform import queries
from pelisali.platform.db import transaction
from pelisali.platform.desk import TableDesk
from pelisali.platform.ledger import LedgerError
from pelisali.rng import Rng
from pelisali.server import messages
from pelisali.server.bus import Bus, BusDown, LocalBus
from pelisali.server.clock import Clock, SystemClock

log = logging.getLogger("pelisali.server")
NOT_CONNECTED = "not connected to the table"
PRIVATE = ("audience", "at")  # what an event carries for the bus, not for the client
AFTER = "_after"  # an answer's mark: the number of the last event published before it


@dataclass
class LiveRoom:
    """One live table's rounds, paced by its ``clock`` (the real time unless a test
    gives it a :class:`~pelisali.server.clock.ManualClock`); every method runs on the
    event loop, and the desk's blocking work in a thread."""

    engine: Engine
    table: str
    rng: Rng
    bus: Bus = field(default_factory=LocalBus)
    window: float = 15.0  # seconds the betting is open
    pause: float = 4.0  # seconds the result is shown before the next round
    clock: Clock = field(default_factory=SystemClock)
    seq: int = 0  # the number of the last event published
    phase: str = "waiting"
    round_id: int = 0
    closes_at: float = 0.0
    present: Counter[str] = field(default_factory=Counter)  # sockets a player has open
    _desk: TableDesk | None = None
    _task: asyncio.Task[None] | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _resume: dict[str, Any] | None = None  # the last event of the runner before

    async def start(self) -> None:
        if self._task is None:
            self._desk = await asyncio.to_thread(TableDesk, self.engine, self.table)
            self.round_id = self._desk.round_id
            try:
                self.seq, last = await self.bus.last(self.table)
            except BusDown:
                last = None
            if last is not None:
                self._resume = last.get("last", last) if last["type"] == "resumed" else last
                await self._publish(None, {"type": "resumed", "round_id": self.round_id,
                                           "last": self._resume})
            self._task = asyncio.create_task(self._run(), name=f"live-{self.table}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._desk is not None:
            await asyncio.to_thread(self._desk.close)

    # -- what players ask, from any process ----------------------------------------------
    async def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        """Answer a request of a player's socket: ``join`` and ``leave`` (a socket
        opened or closed: the round's state), ``bet`` (a slip: its receipt) and
        ``state``."""
        kind, player = message.get("type"), str(message.get("player", ""))
        answer = self.state()
        if kind == "join":
            self.present[player] += 1
            self._wake.set()
        elif kind == "leave":
            self.present[player] -= 1
            if self.present[player] <= 0:
                del self.present[player]
        elif kind == "bet":
            bets = [(str(spot), amount) for spot, amount in message.get("bets", [])]
            answer = await self.bet(player, bets, str(message.get("key", "")))
        return {**answer, AFTER: self.seq}

    def state(self) -> dict[str, Any]:
        return {"type": "state", "table": self.table, "phase": self.phase,
                "round_id": self.round_id, "seq": self.seq,
                "closes_in": max(0.0, self.closes_at - self.clock.now())
                if self.phase == "betting" else 0.0}

    async def bet(self, player: str, bets: list[tuple[str, int]], key: str) -> dict[str, Any]:
        """A slip from a connected player during the betting window."""
        if player not in self.present:
            return _refused(key, NOT_CONNECTED)
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
        """Put an event on the bus. With the bus down the table goes on (its rounds are
        settled in the database); its events wait in the ledger and the history."""
        try:
            self.seq = await self.bus.publish(self.table, {**body, "audience": audience,
                                                           "at": time.time()})
        except BusDown:
            log.warning("%s: event %s not published, the bus is down", self.table,
                        body.get("type"))

    async def _run(self) -> None:
        await keep_going(self._round, f"live table {self.table}", self.clock)

    async def _round(self) -> None:
        """One round: the window, no more bets, the draw, the settlements."""
        desk = self._desk
        if desk is None:
            raise RuntimeError(f"live table {self.table} is not open")
        closed = await self._resumed(desk)
        if not closed:
            if not self.present and not desk.bets:  # nobody at the table: the wheel waits
                self.phase = "waiting"
                self._wake.clear()
                await self._wake.wait()
            self.round_id = desk.round_id
            self.phase, self.closes_at = "betting", self.clock.now() + self.window
            await self._publish(None, {"type": "betting", "round_id": self.round_id,
                                       "closes_in": self.window})
            await self.clock.sleep(self.window)
            self.phase = "closed"
            await self._publish(None, {"type": "no-more-bets", "round_id": self.round_id})
        round_id, _ = await asyncio.to_thread(desk.spin, self.rng)
        self.phase = "result"
        await self._announce(round_id)
        await self.clock.sleep(self.pause)

    async def _resumed(self, desk: TableDesk) -> bool:
        """Take up what the runner before left (once): whether the open round's bets
        were closed already, so that it is drawn at once."""
        last, self._resume = self._resume, None
        if last is None or "round_id" not in last:
            return False
        number = int(last["round_id"])
        if number == desk.round_id:  # the open round
            if last["type"] == "no-more-bets":
                self.round_id, self.phase = number, "closed"
                return True
            return False
        # An earlier round: drawn and settled, perhaps not all announced.
        if last["type"] == "no-more-bets":
            await self._announce(number)
        elif last["type"] == "result":
            await self._announce(number, result=False)
        elif last["type"] == "settled":
            await self._announce(number, result=False, after=str(last.get("audience")))
        return False

    async def _announce(self, round_id: int, result: bool = True, after: str = "") -> None:
        """The result of the round drawn, then each player's settlement (in the order of
        their names, after ``after``: a resumed announcement)."""
        drawn = await asyncio.to_thread(self._drawn, round_id)
        if drawn is None:
            return
        if result:
            await self._publish(None, {"type": "result", "round_id": round_id,
                                       "result": drawn.result})
        players = sorted({s["player"] for s in drawn.settlements if s["player"] > after})
        wallets = await asyncio.to_thread(self._wallets, players)
        for name in players:
            await self._publish(name, {
                "type": "settled", "round_id": round_id, "balance": wallets[name],
                "settlements": [{k: s[k] for k in ("bet_id", "spot", "stake", "paid",
                                                   "result")}
                                for s in drawn.settlements if s["player"] == name]})

    def _drawn(self, round_id: int) -> queries.DrawnRound | None:
        with transaction(self.engine) as session:
            return queries.drawn_round(session, round_id)

    def _wallets(self, players: list[str]) -> dict[str, int]:
        with transaction(self.engine) as session:
            return queries.wallets(session, players)


def client_event(seq: int, event: dict[str, Any], player: str | None) -> dict[str, Any] | None:
    """What a player's client receives of event ``seq`` (None: not theirs to see).

    >>> client_event(7, {"type": "settled", "audience": "ann", "at": 1.0}, "ann")
    {'seq': 7, 'type': 'settled'}
    >>> client_event(7, {"type": "settled", "audience": "ann", "at": 1.0}, "bob") is None
    True
    """
    audience = event.get("audience")
    if audience is not None and audience != player:
        return None
    return {"seq": seq, **{k: v for k, v in event.items() if k not in PRIVATE}}


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
    return {"type": "bet-refused", "key": key, **coded_reason(reason)}


def coded_reason(reason: str) -> dict[str, Any]:
    """A refusal's reason, with the catalogue's code and params (server.messages)."""
    body = messages.answer(reason)
    return {"reason": reason, **{k: v for k, v in body.items() if k != "detail"}}
