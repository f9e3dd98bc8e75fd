"""The poker tables: a player's socket at the table
(:class:`~pelisali.server.poker_room.PokerRoom` deals and times the hands).

A client receives its own view of the table on arrival and whenever it changes, and
the results of finished hands. It sends ``hello`` (with ``since``: the hands' results
it missed, then the table), ``sit`` (an ``amount`` to buy in), ``sit-out``,
``sit-in``, ``leave`` and ``act`` (an ``action``, with an ``amount`` or ``cards``).
``sit`` and ``leave`` move money and carry the client's ``key`` (a new one for each
request): the room refuses them without one.
"""

from typing import Any

from fastapi import APIRouter
from pydantic import ValidationError
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from pelisali.platform import queries
from pelisali.server.auth import Login
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import PokerMessage
from pelisali.server.sockets import TableSocket

router = APIRouter(tags=["poker"], route_class=RetryingRoute)


class PokerSocket(TableSocket):
    """A player at a poker table, ``/ws/poker/{name}``: their seat, their actions and
    their own view of every hand."""

    kind = "poker"
    leave_type = "leave-socket"

    async def enter(self, login: Login) -> None:
        with self.state.db() as session:
            queries.poker_table(session, self.table)
        await super().enter(login)

    async def on_receive(self, websocket: WebSocket, data: Any) -> None:
        """Answer each message with what came of it (``refused`` with the reason)."""
        try:
            request = PokerMessage.model_validate(data)
        except ValidationError as exc:
            await self.send_error(websocket, str(exc)[:300])
            return
        # No key is no key: defaulting to the message's type made every keyless leave a
        # retry of the first one ("cashed-out" again while nothing moved).
        key = f"web:{self.player}:{request.key}" if request.key else ""
        if request.type == "hello":
            for result in await self.missed(request.since or 0):
                if result["type"] == "hand-result":
                    await websocket.send_json(result)
            answer = await self.ask({"type": "view"})
        elif request.type in ("sit", "sit-out", "sit-in", "leave"):
            answer = await self.ask({"type": request.type, "amount": request.amount or 0,
                                     "key": key})
        else:
            answer = await self.ask({"type": "act", "action": request.action or "",
                                     "amount": request.amount, "cards": request.cards})
        await websocket.send_json(answer)


router.routes.append(WebSocketRoute("/ws/poker/{name}", PokerSocket, name="poker"))
