"""The one WebSocket endpoint of the tables players share (live tables and poker
tables): a Starlette :class:`~starlette.endpoints.WebSocketEndpoint` whose
``on_connect`` admits a player to the table named in the path, ``on_receive`` answers
each JSON message, and ``on_disconnect`` lets the player's socket go.

Who is this is the same dependency as for HTTP
(:func:`pelisali.server.dependencies.current`, on the socket's session cookie).
Only a player's session is admitted; a client refused (no session, not a player, no
such table) is closed before the socket is accepted with code 4403 and the reason. A
client that goes away or sends what is not JSON ends its socket plainly; anything
else that goes wrong is logged, and the client reconnects and resumes.

The table may be run by this process or another (:mod:`pelisali.server.state`): the
socket opens it if nobody runs it, follows its events from the bus, each one the player
may see once and in order, and sends what the player does to its runner. When the bus
cannot carry the events the player is told (a ``notice``); the bets they placed stand.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Mapping
from typing import Any, ClassVar

from prometheus_client import Histogram
from starlette import status
from starlette.endpoints import WebSocketEndpoint
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from pelisali.platform.ledger import LedgerError
from pelisali.server import messages
from pelisali.server.auth import AuthError, Login, RateLimit
from pelisali.server.bus import BusDown
from pelisali.server.dependencies import current
from pelisali.server.live import AFTER, client_event
from pelisali.server.state import ServerState, state_of

REFUSED = 4403  # the close code of a connection refused before it was accepted
TOO_MANY = 4429  # the close code of a player's socket past the most they may hold
CATCH_UP_SECONDS = 2.0  # the longest an answer waits for the events before it
BUS_LAG = Histogram("pelisali_bus_lag_seconds",
                    "From a table's event published to its reaching a player's socket",
                    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5))
log = logging.getLogger("pelisali.server")


class TableSocket(WebSocketEndpoint):
    """A player's socket at one shared table, ``/ws/<kind>/{name}``.

    A subclass names its kind of table (:attr:`kind`, for the log) and implements
    :meth:`enter` (find or open the table's room; a
    :class:`~pelisali.platform.ledger.LedgerError` refuses the player),
    :meth:`joined` (what a player is sent on arrival), :meth:`on_receive` and
    :meth:`left`.
    """

    kind: ClassVar[str] = "table"
    login: Login | None = None
    start: int = 0  # the table's last event when the socket came: it follows from there
    follower: asyncio.Task[None] | None = None
    _followed: asyncio.Condition | None = None  # the follower has passed ``_through``
    _through: int = 0
    _rate: RateLimit | None = None  # this socket's messages a second (set on connect)
    _flood: RateLimit | None = None  # three times that, past which the socket is closed

    @property
    def table(self) -> str:
        """The table's name, from the path."""
        return str(self.scope["path_params"]["name"])

    @property
    def state(self) -> ServerState:
        """The server's shared state."""
        return state_of(HTTPConnection(self.scope))

    @property
    def player(self) -> str:
        """The admitted player's name."""
        if self.login is None:
            raise AuthError("not logged in")
        return self.login.name

    # -- what a kind of table says ---------------------------------------------------------
    async def enter(self, login: Login) -> None:
        """Check that the table is of this socket's kind and see that a process runs it;
        raise a :class:`~pelisali.platform.ledger.LedgerError` to refuse."""
        await self.state.open_table(self.table)

    async def joined(self, websocket: WebSocket) -> None:
        """The player is admitted and the socket accepted: tell the table's runner,
        send the player what it answers, and follow the table's events."""
        try:
            self.start, _ = await self.state.bus.last(self.table)
        except BusDown:
            self.start = 0
        await websocket.send_json(await self.ask({"type": "join"}))
        self.state.following[self.table] += 1
        self._followed, self._through = asyncio.Condition(), self.start
        self.follower = asyncio.create_task(self._follow(websocket),
                                            name=f"follow-{self.table}")

    async def left(self, websocket: WebSocket) -> None:
        """The socket is done: stop following, and tell the table's runner."""
        if self.follower is not None:
            self.follower.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.follower
        self.state.following[self.table] -= 1
        if self.state.following[self.table] <= 0:
            del self.state.following[self.table]
        with contextlib.suppress(Exception):  # a runner gone forgets its players anyway
            await self.state.ask(self.table, {"type": self.leave_type, "player": self.player},
                                 take_over=False)

    leave_type: ClassVar[str] = "leave"

    async def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        """The table runner's answer to the player's ``message``, once the events it
        published before answering have been sent to the player (a player sees what
        their action did before its answer)."""
        answer = await self.state.ask(self.table, {**message, "player": self.player})
        after = answer.pop(AFTER, None)
        if isinstance(after, int) and self._followed is not None:
            with contextlib.suppress(TimeoutError):  # the bus is slow: answer anyway
                async with self._followed:
                    await asyncio.wait_for(self._followed.wait_for(
                        lambda: self._through >= after), CATCH_UP_SECONDS)
        return answer

    async def missed(self, since: int) -> list[dict[str, Any]]:
        """The events the player may see after ``since`` up to the one the socket
        follows from (those after it the follower sends): at most the settings'
        ``hello_resend`` of the last ones, after a notice that the rest are not sent
        again (the client reloads the table's state instead)."""
        bound = self.state.security.hello_resend
        behind = since < self.start - bound
        since = max(since, self.start - bound)  # nothing older than the bound is read
        try:
            kept = await self.state.bus.since(self.table, since)
        except BusDown:
            return []
        shown = [seen for seq, event in kept if seq <= self.start
                 and (seen := client_event(seq, event, self.player)) is not None]
        if not behind:
            return shown
        return [{"type": "notice", "code": "too-far-behind",
                 "reason": f"only the last {bound} events are sent again: reload the table"},
                *shown]

    async def _passed(self, seq: int) -> None:
        if self._followed is not None:
            async with self._followed:
                self._through = seq
                self._followed.notify_all()

    async def _follow(self, websocket: WebSocket) -> None:
        """Send the player each event of the table they may see, once and in order."""
        seq, told = self.start, False
        while True:
            if told and self.state.bus.connected:
                told = False
                await websocket.send_json({"type": "notice", "code": "bus-back",
                                           "reason": "the table's events are back"})
            try:
                async for number, event in self.state.bus.follow(self.table, seq):
                    seq = number
                    if isinstance(at := event.get("at"), float):
                        BUS_LAG.observe(max(0.0, time.time() - at))
                    shown = client_event(number, event, self.player)
                    if shown is not None:
                        await websocket.send_json(shown)
                    await self._passed(number)
                    if event.get("type") == "resumed":  # a new runner: say who is here
                        await websocket.send_json(await self.ask({"type": "join"}))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the bus is away: the player is told, once
                if not told:
                    told = True
                    log.warning("%s: following stopped: %r", self.table, exc)
                    with contextlib.suppress(Exception):
                        await websocket.send_json({
                            "type": "notice", "code": "bus-down",
                            "reason": "the table's events are delayed: "
                            "the message bus cannot be reached; bets placed stand"})
                await asyncio.sleep(1)

    # -- the endpoint ------------------------------------------------------------------
    async def on_connect(self, websocket: WebSocket) -> None:
        """Admit a player to the table, or close the socket with the reason. A player
        who holds the most sockets the settings allow is accepted and closed at once
        with :data:`TOO_MANY` and the reason, so that the client can say it."""
        try:
            login = current(websocket)
            if login.role != "player":
                raise AuthError("players only")
            if self.state.sockets[login.name] >= self.state.security.ws_max_sockets:
                await websocket.accept()
                await websocket.close(code=TOO_MANY, reason=(
                    f"at most {self.state.security.ws_max_sockets} table connections "
                    "at once: close one"))
                return
            await self.enter(login)
        except LedgerError as exc:
            await websocket.close(code=REFUSED, reason=str(exc)[:120])
            return
        self.login = login
        self.state.sockets[login.name] += 1
        self._rate = RateLimit(self.state.security.ws_rate, 1)
        self._flood = RateLimit(3 * self.state.security.ws_rate, 1)
        await websocket.accept()
        await self.joined(websocket)

    async def on_disconnect(self, websocket: WebSocket, close_code: int) -> None:
        """Let the admitted player's socket go."""
        if self.login is not None:
            name = self.login.name
            self.state.sockets[name] -= 1
            if self.state.sockets[name] <= 0:
                del self.state.sockets[name]
            await self.left(websocket)

    async def _admit(self, websocket: WebSocket, message: Mapping[str, Any]) -> bool:
        """Whether a message may be answered: within the size and rate limits. One over
        a rate gets an ``error``; a socket past three times its rate in a second, or
        sending one message past the size limit, is closed with the reason."""
        limits = self.state.security
        text = message.get("text")
        if text is None:
            text = (message.get("bytes") or b"").decode("utf-8", "replace")
        if len(text.encode()) > limits.ws_max_message:
            await websocket.close(code=status.WS_1009_MESSAGE_TOO_BIG,
                                  reason=f"a message is at most {limits.ws_max_message} bytes")
            return False
        if self._rate is None or self._flood is None:  # only an admitted socket receives
            raise AuthError("not admitted")
        if not self._flood.allow("socket"):
            await websocket.close(code=status.WS_1008_POLICY_VIOLATION,
                                  reason=f"more than {3 * limits.ws_rate} messages a second")
            return False
        if not (self._rate.allow("socket") and self.state.socket_messages.allow(self.player)):
            await self.send_error(websocket, "too many messages: slow down")
            return False
        return True

    async def dispatch(self) -> None:
        """Connect, then answer each JSON text message until the client goes.

        Starlette's own loop closes the socket on a message that is not JSON and
        re-raises what goes wrong; a table's socket instead ends plainly when its
        client goes or sends what is not JSON, and logs any other failure."""
        websocket = WebSocket(self.scope, receive=self.receive, send=self.send)
        close_code = status.WS_1000_NORMAL_CLOSURE
        try:
            await self.on_connect(websocket)
            if websocket.application_state != WebSocketState.CONNECTED:
                return  # refused, and closed before it was accepted
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    close_code = int(message.get("code") or status.WS_1000_NORMAL_CLOSURE)
                    break
                if not await self._admit(websocket, message):
                    if websocket.application_state != WebSocketState.CONNECTED:
                        return  # closed for a limit; finally lets the player go
                    continue
                await self.on_receive(websocket, json.loads(message["text"]))
        except (WebSocketDisconnect, ValueError, KeyError):
            return  # the client went away or sent what is not JSON; finally lets it go
        except Exception:  # logged; the client reconnects and resumes
            close_code = status.WS_1011_INTERNAL_ERROR
            log.exception("%s table %s: %s's connection failed", self.kind, self.table,
                          self.login.name if self.login else "?")
        finally:
            await self.on_disconnect(websocket, close_code)

    async def send_error(self, websocket: WebSocket, reason: str) -> None:
        """An ``error`` message: what the client sent is not understood."""
        body = messages.answer(reason)  # the catalogue's code and params, for the page
        await websocket.send_json({"type": "error", "reason": reason,
                                   **{k: v for k, v in body.items() if k != "detail"}})
