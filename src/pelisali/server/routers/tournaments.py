"""Poker tournaments: the lobby, one tournament (its level, blinds, time to the next
level, players left, average stack, payout table and tables), registering and taking a
registration back, the player's own table and seat, the leaderboard, the results with
the prizes, a player's actions at their table, and the staff's create, start and cancel.
Play is pushed over ``/ws/tournaments/{id}`` (:mod:`pelisali.server.tournament_room`).

A registration moves money: its key is bound to the whole request (the tournament, and
registering rather than taking back), so the same key again is a retry answered as the
first time and the key sent with another request is refused with 409
(:mod:`pelisali.server.keys`). A sit & go starts as its last seat is taken.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import asdict
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, HTTPException, Path, Request
from pydantic import BaseModel, Field, Strict, ValidationError
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from pelisali.platform import queries, tournaments
from pelisali.platform.ledger import LedgerError
from pelisali.server.auth import Login, RateLimit
from pelisali.server.dependencies import AppState, Player, Staff
from pelisali.server.keys import bound_to_first
from pelisali.server.live import AFTER
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import CentsOrZero, Key
from pelisali.server.sockets import TableSocket
from pelisali.server.state import ServerState
from pelisali.server.tournament_room import (
    RemoteRoom,
    TournamentRoom,
    TournamentRooms,
    channel,
    level_of,
    results_of,
    standings,
    table_players,
)
from pelisali.tournaments.poker import PokerTournament, TournamentError, TournamentSettings

router = APIRouter(tags=["tournaments"], route_class=RetryingRoute)
TournamentId = Annotated[int, Path(gt=0, le=2**31)]
T = TypeVar("T")
# Registering, taking back and acting: a player's requests a second (as their slips).
REQUESTS = RateLimit(20, 1)


def rooms_of(request: Request | WebSocket) -> TournamentRooms:
    """This application's tournament rooms (:func:`install` made them)."""
    found = getattr(request.app.state, "tournaments", None)
    if not isinstance(found, TournamentRooms):
        raise RuntimeError("tournaments are not installed on this application")
    return found


def install(app: Any, state: ServerState) -> TournamentRooms:
    """Give ``app`` its tournament rooms, paced by the server's clock."""
    rooms = TournamentRooms(
        state.engine, state.rng, state.bus, state.clock, between_hands=state.showdown_seconds,
        owner=state.owner,
    )
    app.state.tournaments = rooms
    return rooms


# -- what clients send ---------------------------------------------------------------------
class Registration(BaseModel):
    key: Key


class Action(BaseModel):
    action: Literal["fold", "check", "call", "bet", "raise", "draw", "discard"]
    amount: CentsOrZero | None = None  # chips: the street total to bet or raise to
    cards: Annotated[list[Annotated[str, Field(max_length=3)]], Field(max_length=5)] | None = None


class Starting(BaseModel):
    bots: Annotated[bool, Strict()] = False


_Count = Annotated[int, Strict(), Field(ge=0, le=10**9)]
_Cents = Annotated[int, Strict(), Field(ge=0, le=10**11)]


class TournamentRequest(BaseModel):
    """A tournament's settings (:class:`~pelisali.tournaments.poker.TournamentSettings`);
    ``bots``: bots play the players who sit out (a demonstration's setting, kept in
    this process only)."""

    name: Annotated[str, Field(min_length=1, max_length=80)]
    capacity: Annotated[int, Strict(), Field(ge=2, le=100_000)]
    starting_chips: Annotated[int, Strict(), Field(gt=0, le=10**9)]
    structure: Annotated[str, Field(max_length=40)] = "regular"
    buy_in: _Cents = 0
    fee: _Cents = 0
    guarantee: _Cents = 0
    format: Literal["sit-and-go", "scheduled"] = "sit-and-go"
    game: Annotated[str, Field(max_length=20)] = "holdem"
    seats: Annotated[int, Strict(), Field(ge=2, le=10)] = 9
    entry: Literal["freezeout", "re-entry", "rebuy"] = "freezeout"
    max_entries: Annotated[int, Strict(), Field(ge=1, le=100)] = 1
    late_registration_level: Annotated[int, Strict(), Field(ge=0, le=100)] = 0
    rebuy_until_level: Annotated[int, Strict(), Field(ge=0, le=100)] = 0
    rebuy_chips: _Count = 0
    rebuy_cost: _Cents = 0
    add_on_chips: _Count = 0
    min_players: Annotated[int, Strict(), Field(ge=2, le=100_000)] = 2
    payouts: Annotated[str, Field(max_length=40)] = "standard"
    action_seconds: Annotated[int, Strict(), Field(ge=1, le=600)] = 30
    cancel_pays: Literal["refund", "chips"] = "refund"
    bots: Annotated[bool, Strict()] = False


# -- refusals ----------------------------------------------------------------------------
def _status(reason: str) -> int:
    """404 for a tournament not here, 409 for a request the tournament's state refuses."""
    if reason.startswith("there is no tournament"):
        return 404
    return 409


def _refused(exc: Exception) -> HTTPException:
    """A tournament's refusal as its answer (the engine's bare "registration is closed"
    said whole: a closed table's sentence is another)."""
    reason = str(exc)
    if reason == "registration is closed":
        reason = CLOSED
    return HTTPException(_status(reason), reason)


CLOSED = "registration is closed: the field is full or play has begun"


def _db(state: ServerState, work: Callable[[Any], T]) -> T:
    """``work`` in one transaction, a tournament's refusal as a 4xx with its reason."""
    try:
        with state.db() as session:
            return work(session)
    except tournaments.TournamentRefused as exc:
        raise _refused(exc) from None
    except TournamentError as exc:  # settings the engine refuses
        raise HTTPException(400, str(exc)) from None


def _limit(login: Login) -> None:
    if not REQUESTS.allow(login.name):
        raise HTTPException(429, "too many messages: slow down")


async def _engine(
    state: ServerState,
    request: Request,
    tournament_id: int,
) -> tuple[PokerTournament, TournamentRoom | RemoteRoom | None]:
    """The tournament's engine: the running room's here (with the hands in play), else
    as last booked (with the room of the process that runs it, if another does)."""
    room = (
        await rooms_of(request).room(tournament_id)
        if await asyncio.to_thread(_db, state, lambda s: tournaments.get(s, tournament_id).status)
        == "running"
        else None
    )
    if isinstance(room, TournamentRoom) and room.running:
        return room.engine, room
    record = await asyncio.to_thread(_db, state, lambda s: tournaments.get(s, tournament_id))
    return tournaments.engine_of(record), room if isinstance(room, RemoteRoom) else None


async def _ask(room: TournamentRoom | RemoteRoom, message: dict[str, Any]) -> dict[str, Any]:
    """The room's answer to a player's request, wherever it runs."""
    answer = dict(await room.handle(message))
    answer.pop(AFTER, None)
    return answer


def _summary(record: Any, engine: PokerTournament) -> dict[str, Any]:
    s = engine.settings
    pool = engine.prize_pool()
    return {
        "id": record.id,
        "name": s.name,
        "status": engine.status,
        "format": s.format,
        "game": s.game,
        "capacity": s.capacity,
        "entries": len(engine.entries),
        "left": len(engine.alive()),
        "buy_in": s.buy_in,
        "fee": s.fee,
        "starting_chips": s.starting_chips,
        "structure": s.structure,
        "guarantee": s.guarantee,
        "pool": pool.pool,
        "starts_at": record.starts_at.isoformat() if record.starts_at else None,
    }


# -- the player's side ---------------------------------------------------------------------
@router.get("/api/tournaments")
def lobby(state: AppState) -> dict[str, Any]:
    """Every tournament, the newest first, with its entries and prize pool."""
    with state.db() as session:
        listed = [_summary(r, tournaments.engine_of(r)) for r in tournaments.lobby(session)]
    return {"tournaments": listed}


@router.get("/api/tournaments/{tournament_id}")
async def detail(
    tournament_id: TournamentId,
    request: Request,
    state: AppState,
) -> dict[str, Any]:
    """One tournament: its settings, the level in force with its blinds and the seconds
    to the next (by the server's clock), the players left, the average stack, the
    payout table for the field, its tables, and whether the asker is registered."""
    engine, room = await _engine(state, request, tournament_id)
    record = await asyncio.to_thread(_db, state, lambda s: tournaments.get(s, tournament_id))
    reading = room.reading() if isinstance(room, TournamentRoom) else engine.level_reading()
    alive = engine.alive()
    me = await asyncio.to_thread(asker, request, state)
    prizes = engine.place_prizes() if engine.entries else ()
    return {
        **_summary(record, engine),
        "level": level_of(reading),
        "settings": asdict(engine.settings),
        "average": engine.chips_in_play() // len(alive) if alive else 0,
        "payouts": [{"place": i + 1, "prize": p} for i, p in enumerate(prizes)],
        "tables": [
            {"table": n, "players": table_players(engine, n)} for n in sorted(engine.tables)
        ],
        "registered": me is not None
        and any(e.player == me and not e.out for e in engine.entries.values()),
        "hand_for_hand": engine.hand_for_hand,
    }


def asker(request: Request, state: ServerState) -> str | None:
    """The asker's name if a player is logged in (the detail is public)."""
    from pelisali.server.auth import COOKIE, AuthError, who

    try:
        with state.db() as session:
            login = who(session, request.cookies.get(COOKIE))
    except AuthError:
        return None
    return login.name if login.role == "player" else None


@router.post("/api/tournaments/{tournament_id}/register", status_code=201)
async def register(
    tournament_id: TournamentId,
    body: Registration,
    login: Player,
    request: Request,
    state: AppState,
) -> dict[str, Any]:
    """Enter the tournament: the buy-in and the fee from the wallet. A sit & go starts
    when this entry fills it."""
    _limit(login)
    key = f"web:{login.name}:tournament:{body.key}"
    rooms = rooms_of(request)
    status = await asyncio.to_thread(_db, state, lambda s: tournaments.get(s, tournament_id).status)
    room = await rooms.room(tournament_id) if status == "running" else None
    with bound_to_first(body.key):
        if room is not None and room.running:
            answer = await _ask(room, {"type": "register", "player": login.name, "key": key})
            if answer["type"] == "refused":
                raise _refused(tournaments.TournamentRefused(answer["reason"]))
            entry_id = str(answer["entry"])
        else:
            entry_id = (await asyncio.to_thread(
                _db,
                state,
                lambda s: tournaments.register(s, tournament_id, login.name, key),
            )).entry_id
    started = await _start_if_full(state, rooms, tournament_id)
    balance = await asyncio.to_thread(_db, state, lambda s: queries.wallet(s, login.name))
    return {"entry": entry_id, "balance": balance, "status": "running" if started else status}


async def _start_if_full(
    state: ServerState,
    rooms: TournamentRooms,
    tournament_id: int,
) -> bool:
    """Start a sit & go whose seats are all taken; whether it is running now."""

    def full(session: Any) -> bool:
        record = tournaments.get(session, tournament_id)
        engine = tournaments.engine_of(record)
        return (
            engine.status == "registering"
            and engine.settings.format == "sit-and-go"
            and engine.full
        )

    if not await asyncio.to_thread(_db, state, full):
        return False
    with contextlib.suppress(HTTPException):  # another request started it meanwhile
        await asyncio.to_thread(
            _db, state, lambda s: tournaments.start(s, tournament_id, state.rng, actor="system")
        )
    await rooms.room(tournament_id)
    return True


@router.post("/api/tournaments/{tournament_id}/unregister")
def unregister(
    tournament_id: TournamentId, body: Registration, login: Player, state: AppState
) -> dict[str, Any]:
    """Take a registration back before the start: the buy-in and the fee refunded."""
    _limit(login)
    key = f"web:{login.name}:tournament:{body.key}"
    with bound_to_first(body.key):
        _db(state, lambda s: tournaments.unregister(s, tournament_id, login.name, key))
    with state.db() as session:
        return {"balance": queries.wallet(session, login.name)}


@router.get("/api/tournaments/{tournament_id}/seat")
async def seat(
    tournament_id: TournamentId, login: Player, request: Request, state: AppState
) -> dict[str, Any]:
    """The player's table and seat, and their view of it (their own hand)."""
    engine, room = await _engine(state, request, tournament_id)
    if room is not None:
        view = await _ask(room, {"type": "view", "player": login.name})
    else:
        view = {"status": engine.status, "entry": None, "table": None, "seat": None}
        entry = next(
            (e for e in engine.entries.values() if e.player == login.name and not e.out), None
        )
        if entry is not None:
            view.update(entry=entry.entry_id, table=entry.table, seat=entry.seat)
    if view.get("entry") is None:
        raise HTTPException(409, f"you are not playing in tournament {tournament_id}")
    return view


@router.get("/api/tournaments/{tournament_id}/leaderboard")
async def leaderboard(
    tournament_id: TournamentId,
    request: Request,
    state: AppState,
) -> dict[str, Any]:
    """Every entry's chips and place: those still in by their chips, then those out."""
    engine, _ = await _engine(state, request, tournament_id)
    return {"status": engine.status, "players": standings(engine)}


@router.get("/api/tournaments/{tournament_id}/results")
def results(tournament_id: TournamentId, state: AppState) -> dict[str, Any]:
    """The places and the prizes paid (cents), the prize pool and the house's overlay."""

    def read(session: Any) -> dict[str, Any]:
        found = tournaments.results(session, tournament_id)
        engine = tournaments.engine_of(tournaments.get(session, tournament_id))
        return {
            "status": found.status,
            "pool": found.pool,
            "overlay": found.overlay,
            "places": results_of(engine),
        }

    return _db(state, read)


@router.post("/api/tournaments/{tournament_id}/act")
async def act(
    tournament_id: TournamentId, body: Action, login: Player, request: Request, state: AppState
) -> dict[str, Any]:
    """The player's action on their own hand when it is their turn."""
    _limit(login)
    room = await _room(request, state, tournament_id)
    answer = await _ask(room, {"type": "act", "player": login.name, "action": body.action,
                               "amount": body.amount, "cards": body.cards})
    if answer["type"] == "refused":
        raise HTTPException(409, answer["reason"])
    return answer


@router.post("/api/tournaments/{tournament_id}/back")
async def back(
    tournament_id: TournamentId, login: Player, request: Request, state: AppState
) -> dict[str, Any]:
    """The player sitting out is back: the timer waits for them again."""
    _limit(login)
    room = await _room(request, state, tournament_id)
    answer = await _ask(room, {"type": "back", "player": login.name})
    if answer["type"] == "refused":
        raise HTTPException(409, answer["reason"])
    return answer


@router.post("/api/tournaments/{tournament_id}/rebuy")
async def rebuy(
    tournament_id: TournamentId,
    body: Registration,
    login: Player,
    request: Request,
    state: AppState,
) -> dict[str, Any]:
    """A rebuy, while rebuys are open, for a stack at or below the starting chips: its
    cost from the wallet to the pool. Taken at once between hands; asked for during a
    hand, it is taken as the hand ends (``pending``), saving a stack the hand busts."""
    return await _buy(tournament_id, body, login, request, state, "rebuy")


@router.post("/api/tournaments/{tournament_id}/add-on")
async def add_on(
    tournament_id: TournamentId,
    body: Registration,
    login: Player,
    request: Request,
    state: AppState,
) -> dict[str, Any]:
    """The add-on at the break after the rebuy period, once an entry."""
    return await _buy(tournament_id, body, login, request, state, "add-on")


async def _buy(
    tournament_id: int,
    body: Registration,
    login: Login,
    request: Request,
    state: ServerState,
    what: Literal["rebuy", "add-on"],
) -> dict[str, Any]:
    _limit(login)
    room = await _room(request, state, tournament_id)
    key = f"web:{login.name}:tournament:{body.key}"  # the entry's keys: one request a key
    with bound_to_first(body.key):
        answer = await _ask(room, {"type": what, "player": login.name, "key": key})
    if answer["type"] == "refused":
        raise HTTPException(409, answer["reason"])
    return {**answer, "balance": await asyncio.to_thread(
        _db, state, lambda s: queries.wallet(s, login.name))}


async def _room(
    request: Request, state: ServerState, tournament_id: int
) -> TournamentRoom | RemoteRoom:
    record_status = await asyncio.to_thread(
        _db, state, lambda s: tournaments.get(s, tournament_id).status
    )
    room = await rooms_of(request).room(tournament_id)
    if room is None or not room.running:
        raise HTTPException(409, f"tournament {tournament_id} is {record_status}")
    return room


# -- the staff's side ------------------------------------------------------------------------
@router.post("/api/staff/tournaments", status_code=201)
def create(
    body: TournamentRequest,
    login: Staff,
    request: Request,
    state: AppState,
) -> dict[str, Any]:
    """Announce a tournament; its settings are fixed from here on."""
    fields = body.model_dump(exclude={"bots"})
    try:
        settings = TournamentSettings(**fields)
    except (TournamentError, LedgerError, ValueError) as exc:
        raise HTTPException(400, str(exc)) from None
    record = _db(state, lambda s: tournaments.create(s, settings, actor=login.name))
    if body.bots:
        rooms_of(request).bots.add(record.id)
    return {"id": record.id, "name": settings.name, "status": record.status}


@router.post("/api/staff/tournaments/{tournament_id}/start")
async def start(
    tournament_id: TournamentId,
    login: Staff,
    request: Request,
    state: AppState,
    body: Starting | None = None,
) -> dict[str, Any]:
    """Seat the entries and start the clock (a sit & go starts by itself when full)."""
    rooms = rooms_of(request)
    if body is not None and body.bots:
        rooms.bots.add(tournament_id)
    await asyncio.to_thread(
        _db, state, lambda s: tournaments.start(s, tournament_id, state.rng, actor=login.name)
    )
    room = await rooms.room(tournament_id)
    status = room.engine.status if isinstance(room, TournamentRoom) else "running"
    return {"id": tournament_id, "status": status}


@router.post("/api/staff/tournaments/{tournament_id}/cancel")
async def cancel(
    tournament_id: TournamentId, login: Staff, request: Request, state: AppState
) -> dict[str, Any]:
    """Cancel: every entry refunded (or the pool paid by the chips, as announced).
    A running tournament is cancelled between hands."""
    room = rooms_of(request).rooms.get(tournament_id)
    if room is not None and room.running:
        await room.stop()  # no more hands: those in play are void, as after a crash
        rooms_of(request).rooms.pop(tournament_id, None)
    owed = await asyncio.to_thread(
        _db, state, lambda s: tournaments.cancel(s, tournament_id, actor=login.name)
    )
    return {"id": tournament_id, "status": "cancelled", "owed": owed}


# -- the socket ------------------------------------------------------------------------------
class TournamentMessage(BaseModel):
    type: Literal["hello", "act", "back"]
    action: Literal["fold", "check", "call", "bet", "raise", "draw", "discard"] | None = None
    amount: CentsOrZero | None = None
    cards: Annotated[list[Annotated[str, Field(max_length=3)]], Field(max_length=5)] | None = None
    since: Annotated[int, Strict(), Field(ge=0, le=2**62)] | None = None


class TournamentSocket(TableSocket):
    """A player at their tournament, ``/ws/tournaments/{id}``: their own view of their
    table on arrival and whenever it changes, the levels, busts and the results; they
    send ``hello`` (``since``: the events missed), ``act`` and ``back``."""

    kind = "tournament"
    leave_type = "leave-socket"

    @property
    def tournament_id(self) -> int:
        raw = str(self.scope["path_params"]["name"])
        if not raw.isdigit() or len(raw) > 10:
            raise tournaments.TournamentRefused(f"there is no tournament {raw[:20]}")
        return int(raw)

    @property
    def table(self) -> str:
        return channel(self.tournament_id)

    async def enter(self, login: Login) -> None:
        room = await rooms_of(self._socket()).room(self.tournament_id)
        if room is None or not room.running:
            raise tournaments.TournamentRefused(f"tournament {self.tournament_id} is not running")

    def _socket(self) -> WebSocket:
        return WebSocket(self.scope, receive=self.receive, send=self.send)

    async def joined(self, websocket: WebSocket) -> None:
        """As a table's, without counting the channel among the tables followed (the
        lease keeper looks for those to take over: a tournament is not one)."""
        try:
            self.start, _ = await self.state.bus.last(self.table)
        except Exception:
            self.start = 0
        await websocket.send_json(await self.ask({"type": "join"}))
        self._followed, self._through = asyncio.Condition(), self.start
        self.follower = asyncio.create_task(self._follow(websocket), name=f"follow-{self.table}")

    async def left(self, websocket: WebSocket) -> None:
        if self.follower is not None:
            self.follower.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.follower
        with contextlib.suppress(Exception):  # a room gone forgets its players anyway
            await self.state.ask(
                self.table, {"type": self.leave_type, "player": self.player}, take_over=False
            )

    async def on_receive(self, websocket: WebSocket, data: Any) -> None:
        try:
            message = TournamentMessage.model_validate(data)
        except ValidationError as exc:
            await self.send_error(websocket, str(exc)[:300])
            return
        if message.type == "hello":
            for event in await self.missed(message.since or 0):
                if event["type"] != "view":
                    await websocket.send_json(event)
            answer = await self.ask({"type": "view"})
        elif message.type == "back":
            answer = await self.ask({"type": "back"})
        else:
            answer = await self.ask(
                {
                    "type": "act",
                    "action": message.action or "",
                    "amount": message.amount,
                    "cards": message.cards,
                }
            )
        await websocket.send_json(answer)


router.routes.append(WebSocketRoute("/ws/tournaments/{name}", TournamentSocket, name="tournament"))
