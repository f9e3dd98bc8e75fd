"""The poker tables: a player's socket at the table
(:class:`~pelisali.server.poker_room.PokerRoom` deals and times the hands).

A client receives its own view of the table on arrival and whenever it changes, and
the results of finished hands. It sends ``hello`` (with ``since``: the hands' results
it missed, then the table), ``sit`` (an ``amount`` to buy in), ``sit-out``,
``sit-in``, ``leave`` and ``act`` (an ``action``, with an ``amount`` or ``cards``).
"""

from typing import Any

from fastapi import APIRouter
from pydantic import ValidationError
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from pelisali.platform import queries
from pelisali.server.auth import Login
from pelisali.server.poker_room import PokerRoom
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import PokerMessage
from pelisali.server.sockets import TableSocket

router = APIRouter(tags=["poker"], route_class=RetryingRoute)


class PokerSocket(TableSocket):
    """A player at a poker table, ``/ws/poker/{name}``: their seat, their actions and
    their own view of every hand."""

    kind = "poker"
    room: PokerRoom

    async def enter(self, login: Login) -> None:
        with self.state.db() as session:
            queries.poker_table(session, self.table)
        self.room = await self.state.poker_room(self.table)

    async def joined(self, websocket: WebSocket) -> None:
        await self.room.join(self.player, websocket)

    async def on_receive(self, websocket: WebSocket, data: Any) -> None:
        """Answer each message with what came of it (``refused`` with the reason)."""
        try:
            request = PokerMessage.model_validate(data)
        except ValidationError as exc:
            await self.send_error(websocket, str(exc)[:300])
            return
        name, room = self.player, self.room
        key = f"web:{name}:{request.key or request.type}"
        if request.type == "hello":
            for result in room.since(request.since or 0):
                await websocket.send_json(result)
            answer = room.view(name)
        elif request.type == "sit":
            answer = await room.sit(name, request.amount or 0, key)
        elif request.type in ("sit-out", "sit-in"):
            answer = await room.sit_out(name, request.type == "sit-out")
        elif request.type == "leave":
            answer = await room.leave(name, key)
        else:
            answer = await room.act(name, request.action or "", request.amount, request.cards)
        await websocket.send_json(answer)

    async def left(self, websocket: WebSocket) -> None:
        self.room.leave_socket(self.player, websocket)


router.routes.append(WebSocketRoute("/ws/poker/{name}", PokerSocket, name="poker"))
