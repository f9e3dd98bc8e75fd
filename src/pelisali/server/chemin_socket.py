"""Baccara, chemin de fer pushed to the players' pages: a socket per player at a table,
``/ws/chemin/{name}``, and the table's decision clock kept on the server's clock.

A chemin de fer table lives in the database, not in a room one process runs (as the live
and poker tables do): every move is an HTTP request with its idempotency key, taken by
any process. After each, that process publishes ``{"type": "changed"}`` on the bus for
the table (:func:`changed`), which says nothing of the cards; each socket, on whatever
process, then reads the table for its own player
(:func:`pelisali.platform.chemin_tables.view`: their own cards only, never the shoe)
and sends it (``{"type": "chemin", "view": ...}``) when its version moved.

Each socket also keeps the table's decision clock: when the decision waited for is due
on the server's clock (:class:`~pelisali.server.clock.Clock`, a manual one in tests),
it has the house act for the late seat (:func:`~pelisali.platform.chemin_tables.time_out`:
the table is locked, so however many sockets wake the decision is made once) and
publishes the change. A table nobody follows is kept by the server's sweep
(:meth:`pelisali.server.state.ServerState.sweep_chemin`), and any request to it first
makes what is due.

The socket answers ``{"type": "hello"}`` with the table now and nothing else; the
player's session, the origin check, the size and rate limits and the most sockets a
player holds are the shared tables' (:class:`~pelisali.server.sockets.TableSocket`).
A socket to a table that is not a chemin de fer table is refused (4403).

>>> from datetime import UTC, datetime
>>> from pelisali.platform.chemin_tables import CheminView
>>> seen = CheminView("cf", "ann", ("ann", "bob"), "ann", 0, None, "no coup yet", "ann",
...                   ("bank 100", "bank 100000", "pass"), None, 10_000,
...                   datetime(2026, 1, 1, 0, 0, 15, tzinfo=UTC))
>>> shown = answer(seen, datetime(2026, 1, 1, 0, 0, 5, tzinfo=UTC))
>>> shown["deadline"], shown["seconds_left"], shown["decision_seconds"]
('2026-01-01T00:00:15+00:00', 10.0, 15)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from starlette.websockets import WebSocket

from pelisali.platform import chemin_tables
from pelisali.platform.chemin_family import chemin_engine
from pelisali.platform.chemin_tables import CheminView
from pelisali.platform.models import GameTable
from pelisali.platform.rounds import TableError
from pelisali.server.auth import Login
from pelisali.server.bus import BusDown
from pelisali.server.sockets import TableSocket
from pelisali.server.state import ServerState

__all__ = ["CheminSocket", "answer", "changed", "now"]
log = logging.getLogger("pelisali.server")
Event = tuple[int, dict[str, Any]]


def now(state: ServerState) -> datetime:
    """The time on the server's clock (a test's manual clock moves it)."""
    return datetime.fromtimestamp(state.clock.now(), UTC)


def _version(view: CheminView) -> str:
    """What changes whenever the table does: the last coup, its moves, the seating, the
    decision clock."""
    moves = len((view.coup or {}).get("stakes", [])) + len((view.coup or {}).get("cards", []))
    due = "" if view.deadline is None else view.deadline.isoformat()
    return (f"{view.round_id or 0}.{view.status}.{moves}.{view.to_move}."
            f"{'-'.join(view.seats)}.{view.banker}.{view.bank}.{due}")


def answer(view: CheminView, at: datetime) -> dict[str, Any]:
    """The table as the API and the socket send it: ``view`` with the limits, the
    decision clock at ``at`` (``deadline``, ``seconds_left``) and the version."""
    limits, rules = chemin_engine().limits, chemin_engine().rules
    due = view.deadline
    return {"table": view.table, "player": view.player, "seats": list(view.seats),
            "banker": view.banker, "bank": view.bank, "round_id": view.round_id,
            "status": view.status, "to_move": view.to_move, "actions": list(view.actions),
            "coup": view.coup, "balance": view.balance, "min": limits.minimum,
            "max": limits.maximum, "commission_percent": rules.commission_percent,
            "decision_seconds": rules.decision_seconds,
            "deadline": None if due is None else due.isoformat(),
            "seconds_left": None if due is None else max(0.0, (due - at).total_seconds()),
            "version": _version(view)}


async def changed(state: ServerState, name: str) -> int:
    """Tell the sockets of table ``name`` that it changed; the event's number."""
    return await state.bus.publish(name, {"type": "changed", "table": name,
                                          "at": time.time()})


class CheminSocket(TableSocket):
    """A player's page at a chemin de fer table: the table as they may see it on
    arrival and after every change, and the table's decision clock."""

    kind = "chemin"
    _sent: str | None = None  # the version the player was sent last
    _fired: datetime | None = None  # the deadline the clock last woke for

    async def enter(self, login: Login) -> None:
        """Admit a player to a chemin de fer table only."""
        await asyncio.to_thread(self._check)

    def _check(self) -> None:
        with self.state.db() as session:
            game = session.scalars(select(GameTable.game)
                                   .where(GameTable.name == self.table)).first()
        if game != chemin_tables.GAME:
            raise TableError(f"no chemin de fer table {self.table!r}")

    async def joined(self, websocket: WebSocket) -> None:
        """Send the table now, then follow it from the last change before it was read."""
        try:
            seq, _ = await self.state.bus.last(self.table)
        except BusDown:
            seq = 0
        due = await self._send(websocket)
        self.follower = asyncio.create_task(self._keep(websocket, seq, due),
                                            name=f"chemin-{self.table}")

    async def left(self, websocket: WebSocket) -> None:
        """Stop following (a chemin de fer table has no runner to tell)."""
        if self.follower is not None:
            self.follower.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.follower

    async def on_receive(self, websocket: WebSocket, data: Any) -> None:
        """Answer a ``hello`` with the table now."""
        if isinstance(data, dict) and data.get("type") == "hello":
            self._sent = None
            await self._send(websocket)
        else:
            await self.send_error(websocket, "messages: hello")

    # -- the table as the player sees it, and its clock ------------------------------------
    def _read(self) -> dict[str, Any]:
        at = now(self.state)
        with self.state.db() as session:
            return answer(chemin_tables.view(session, self.table, self.player), at)

    async def _send(self, websocket: WebSocket) -> datetime | None:
        """Send the player the table when it moved since what they were sent; the
        deadline of the decision it waits for."""
        found = await asyncio.to_thread(self._read)
        if found["version"] != self._sent:
            self._sent = found["version"]
            await websocket.send_json({"type": "chemin", "view": found})
        due = found["deadline"]
        return None if due is None else datetime.fromisoformat(due)

    def _time_out(self) -> list[str]:
        with self.state.db() as session:
            return chemin_tables.time_out(session, self.table, now(self.state),
                                          self.state.rng)

    async def _until(self, due: datetime) -> None:
        """Return when ``due`` comes on the server's clock (the time left is read as the
        wait begins, so a clock moved meanwhile is not waited on twice)."""
        await self.state.clock.sleep(max(0.0, (due - now(self.state)).total_seconds()))

    async def _events(self, seq: int) -> AsyncIterator[Event]:
        async for number, event in self.state.bus.follow(self.table, seq):
            yield number, event

    async def _keep(self, websocket: WebSocket, seq: int, due: datetime | None) -> None:
        """Wait for the table's next change on the bus or its next deadline on the
        clock, whichever comes first; at a deadline have the house act; send the player
        the table each time it moved."""
        events = self._events(seq)
        coming: asyncio.Future[Event] | None = None
        timer: asyncio.Future[None] | None = None
        told = False
        try:
            while True:
                if coming is None:
                    coming = asyncio.ensure_future(anext(events))
                timer = None
                if due is not None and due != self._fired:
                    timer = asyncio.ensure_future(self._until(due))
                await asyncio.wait({coming} | ({timer} if timer else set()),
                                   return_when=asyncio.FIRST_COMPLETED)
                if timer is not None:
                    await self._deadline(timer, due)
                if coming.done():
                    done, coming = coming, None
                    if done.exception() is None:
                        seq, told = done.result()[0], False
                    else:  # the bus is away: the page asks for itself meanwhile
                        if not told:
                            told = True
                            await websocket.send_json({
                                "type": "notice", "code": "bus-down",
                                "reason": "the table's changes are delayed: the message "
                                          "bus cannot be reached"})
                        await asyncio.sleep(1)
                        events = self._events(seq)
                due = await self._send(websocket)
        finally:  # the socket is gone: nothing is left waiting
            for waiting in (coming, timer):
                if waiting is not None and not waiting.done():
                    waiting.cancel()

    async def _deadline(self, timer: asyncio.Future[None], due: datetime | None) -> None:
        """A change came first: stop waiting for ``due``; else ``due`` has come: have
        the house act and tell the table's sockets."""
        if not timer.done():
            timer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await timer
            return
        self._fired = due
        try:
            if await asyncio.to_thread(self._time_out):
                await changed(self.state, self.table)
        except Exception:  # another process made it, or the bus is away
            log.warning("%s: decision time not kept here", self.table, exc_info=True)
