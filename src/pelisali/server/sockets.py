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
"""

from __future__ import annotations

import json
import logging
from typing import ClassVar

from starlette import status
from starlette.endpoints import WebSocketEndpoint
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from pelisali.platform.ledger import LedgerError
from pelisali.server.auth import AuthError, Login
from pelisali.server.dependencies import current
from pelisali.server.state import ServerState, state_of

REFUSED = 4403  # the close code of a connection refused before it was accepted
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
        """Find (or open) the table's room for ``login``; raise a
        :class:`~pelisali.platform.ledger.LedgerError` to refuse."""

    async def joined(self, websocket: WebSocket) -> None:
        """The player is admitted and the socket accepted: join the room."""

    async def left(self, websocket: WebSocket) -> None:
        """The socket is done: leave the room."""

    # -- the endpoint ------------------------------------------------------------------
    async def on_connect(self, websocket: WebSocket) -> None:
        """Admit a player to the table, or close the socket with the reason."""
        try:
            login = current(websocket)
            if login.role != "player":
                raise AuthError("players only")
            await self.enter(login)
        except LedgerError as exc:
            await websocket.close(code=REFUSED, reason=str(exc)[:120])
            return
        self.login = login
        await websocket.accept()
        await self.joined(websocket)

    async def on_disconnect(self, websocket: WebSocket, close_code: int) -> None:
        """Let the admitted player's socket go."""
        if self.login is not None:
            await self.left(websocket)

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
        await websocket.send_json({"type": "error", "reason": reason})
