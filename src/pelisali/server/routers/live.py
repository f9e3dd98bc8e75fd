"""The live tables: the round as everyone sees it, and a player's socket at the table
(:class:`~pelisali.server.live.LiveRoom` runs the rounds).

A client receives the round's state on arrival, then every event as it happens. It
sends ``{"type": "hello", "since": n}`` to receive what it missed after event ``n``,
and ``{"type": "bet", "key": ..., "bets": [{"spot": ..., "amount": ...}]}`` to bet in
the window; each slip is answered ``bet-accepted`` or ``bet-refused`` with its key.
"""

from typing import Any

from fastapi import APIRouter
from pydantic import ValidationError
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from pelisali.platform.rounds import TableError
from pelisali.server.auth import Login
from pelisali.server.bus import BusDown
from pelisali.server.dependencies import AppState
from pelisali.server.live import NOT_CONNECTED
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import LiveSlip
from pelisali.server.sockets import TableSocket

router = APIRouter(tags=["live"], route_class=RetryingRoute)


@router.get("/api/live/{name}")
async def live_state(name: str, state: AppState) -> dict[str, Any]:
    """The live table's round as everyone sees it (on whichever process runs it)."""
    try:
        answer = await state.ask(name, {"type": "state"}, take_over=False)
    except BusDown:
        answer = {}
    if answer.get("type") != "state":
        return {"type": "state", "table": name, "phase": "waiting"}
    return answer


class LiveSocket(TableSocket):
    """A player at a live table, ``/ws/live/{name}``: the round's events, the player's
    bets in the betting window, and catching up after a reconnection."""

    kind = "live"

    async def enter(self, login: Login) -> None:
        if self.state.shared_table(self.table) != "live":
            raise TableError(f"{self.table} is not a live table")
        await super().enter(login)

    async def on_receive(self, websocket: WebSocket, data: Any) -> None:
        """Answer a ``hello`` with the events missed, a ``bet`` with its receipt."""
        name = self.player
        kind = data.get("type") if isinstance(data, dict) else None
        if kind == "hello":
            since = data.get("since", 0)
            for event in await self.missed(since if isinstance(since, int) else 0):
                await websocket.send_json(event)
        elif kind == "bet":
            try:
                slip = LiveSlip.model_validate(data)
            except ValidationError as exc:
                await self.send_error(websocket, str(exc)[:300])
                return
            if not self.state.betting.allow(name):
                answer = {"type": "bet-refused", "reason": "too many bets: slow down"}
            else:
                answer = await self._bet([[b.spot, b.amount] for b in slip.bets],
                                         f"web:{name}:{slip.key}")
            await websocket.send_json({**answer, "key": slip.key})
        else:
            await self.send_error(websocket, "messages: hello {since}, bet")

    async def _bet(self, bets: list[list[Any]], key: str) -> dict[str, Any]:
        message = {"type": "bet", "bets": bets, "key": key}
        answer = await self.ask(message)
        if answer.get("reason") == NOT_CONNECTED:  # a new runner not yet told who is here
            await self.ask({"type": "join"})
            answer = await self.ask(message)
        return answer


router.routes.append(WebSocketRoute("/ws/live/{name}", LiveSocket, name="live"))
