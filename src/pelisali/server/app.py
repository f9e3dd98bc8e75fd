"""The HTTP API and the browser client: registration and login, the wallet, limits and
self-exclusion, the lobby, the wager games one player against the house, history and
recall, the rules of every version, and the staff's endpoints.

Every request runs in one database transaction of the platform layer; a refusal is a
4xx answer with the reason and changes nothing. A player's idempotency keys are their
own: the server prefixes them with the player's name, so no player can touch another's
requests by guessing a key.

>>> from fastapi.testclient import TestClient
>>> from pelisali.platform.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> client = TestClient(create_app(engine))
>>> client.post("/api/register", json={"name": "ann", "password": "correct horse",
...                                    "born": "1990-01-01", "country": "FI"}).status_code
201
>>> client.post("/api/login", json={"name": "ann", "password": "correct horse"}).json()
{'name': 'ann', 'role': 'player'}
>>> client.get("/api/me").json()["balance"]
0
"""


import asyncio
import json
import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from datetime import date
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import (
    Depends,
    FastAPI,
    HTTPException,
    Query,
    Request,
    Response,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy import Engine, or_, select
from sqlalchemy.orm import Session

from pelisali.games import GAMES, ROULETTE_VARIANTS, GameError, make_game
from pelisali.games.base import WagerGame
from pelisali.platform import accounts, card_rounds, poker_tables, rounds
from pelisali.platform.db import transaction
from pelisali.platform.ledger import LedgerError, balance
from pelisali.platform.models import BetRow, GameTable, RoundRow
from pelisali.platform.payments import Cage, PaymentAdapter, deposit_via, withdraw_via
from pelisali.platform.recalls import recall_round
from pelisali.platform.report import day_report
from pelisali.rng import Rng, SecureRng
from pelisali.server.auth import AuthError, Login, RateLimit, add_login, log_in, log_out, who
from pelisali.server.live import LiveRoom
from pelisali.server.poker_room import PokerRoom
from pelisali.server.rules_text import LANGUAGES, card_rules_of, poker_rules_of, rules_of

COOKIE = "pelisali_session"
log = logging.getLogger("pelisali.server")
STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
MAX_CENTS = 10**11  # a billion euros: far above any limit, far below any overflow
Cents = Annotated[int, Field(gt=0, le=MAX_CENTS)]
Key = Annotated[str, Field(min_length=1, max_length=100)]


class Registration(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
    password: Annotated[str, Field(min_length=1, max_length=200)]
    born: date
    country: Annotated[str, Field(min_length=2, max_length=2)]


class Credentials(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=80)]
    password: Annotated[str, Field(min_length=1, max_length=200)]


class Money(BaseModel):
    amount: Cents
    key: Key


class LimitRequest(BaseModel):
    kind: Literal["deposit", "loss"]
    period: Literal["day", "week", "month"]
    amount: Annotated[int, Field(ge=0, le=MAX_CENTS)] | None


class Exclusion(BaseModel):
    days: Annotated[int, Field(gt=0, le=36_500)] | None


class BetRequest(BaseModel):
    spot: Annotated[str, Field(min_length=1, max_length=60)]
    amount: Cents


class Slip(BaseModel):
    variant: Annotated[str, Field(max_length=2)] | None = None
    bets: Annotated[list[BetRequest], Field(min_length=1, max_length=200)]
    key: Key


class Choice(BaseModel):
    round_id: Annotated[int, Field(gt=0, le=2**62)]
    bet_id: Annotated[int, Field(gt=0, le=2**31)]
    option: Annotated[str, Field(max_length=20)]


class TableRequest(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=60, pattern=r"^[A-Za-z0-9_.-]+$")]
    game: Annotated[str, Field(max_length=20)]
    variant: Annotated[str, Field(max_length=2)] | None = None
    min: Cents | None = None
    max: Cents | None = None
    mode: Literal["rng", "live"] = "live"


class TableSettingsRequest(BaseModel):
    status: Literal["open", "closed"] | None = None
    min: Cents | None = None
    max: Cents | None = None


class VoidRequest(BaseModel):
    reason: Annotated[str, Field(min_length=1, max_length=200)]


class StatusRequest(BaseModel):
    status: Literal["active", "restricted", "barred"]
    reason: Annotated[str, Field(min_length=1, max_length=200)]


class CardSlip(BaseModel):
    bets: Annotated[list[BetRequest], Field(min_length=1, max_length=7)]
    key: Key


class Decision(BaseModel):
    action: Literal["hit", "stand", "double", "split", "insure"]
    amount: Annotated[int, Field(ge=0, le=MAX_CENTS)] | None = None
    seat: Annotated[int, Field(ge=1, le=7)] | None = None


class PokerMessage(BaseModel):
    type: Literal["hello", "sit", "sit-out", "sit-in", "leave", "act"]
    action: Literal["fold", "check", "call", "bet", "raise", "draw", "discard"] | None = None
    amount: Annotated[int, Field(ge=0, le=MAX_CENTS)] | None = None
    cards: Annotated[list[Annotated[str, Field(max_length=3)]], Field(max_length=5)] | None = None
    key: Key | None = None
    since: Annotated[int, Field(ge=0, le=2**62)] | None = None


class PokerTableRequest(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=60, pattern=r"^[A-Za-z0-9_-]+$")]
    game: Annotated[str, Field(max_length=20)] = "holdem"
    small_blind: Cents
    big_blind: Cents
    min_buy_in: Cents
    rake_percent: Annotated[int, Field(ge=0, le=10)] = 0
    rake_cap: Cents | None = None


class LiveSlip(BaseModel):
    type: Literal["bet"]
    bets: Annotated[list[BetRequest], Field(min_length=1, max_length=200)]
    key: Key


def create_app(engine: Engine, payments: PaymentAdapter | None = None,
               rng: Rng | None = None, live_window: float = 15.0,
               live_pause: float = 4.0, act_seconds: float = 20.0) -> FastAPI:
    """The server over ``engine``'s database. ``payments`` takes deposits and pays out
    withdrawals (a sandbox that accepts everything by default, for a demonstration);
    ``rng`` draws the RNG games and the live tables' wheels (the secure generator by
    default); a live table's betting window lasts ``live_window`` seconds and its
    result is shown for ``live_pause``; a poker player has ``act_seconds`` to act."""
    rooms: dict[str, LiveRoom] = {}
    poker_rooms: dict[str, PokerRoom] = {}
    opening = asyncio.Lock()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        for room in rooms.values():
            await room.stop()
        for poker in poker_rooms.values():
            await poker.stop()

    app = FastAPI(title="Pelisali", version="0.1", lifespan=lifespan,
                  description="A casino game server for the Finnish RAY rulebook and the "
                              "GGPoker house and live-casino rules.")
    adapter = payments or Cage(name="sandbox")
    draws = rng or SecureRng()
    logins = RateLimit(5, 60)  # a name and address: five tries a minute
    betting = RateLimit(20, 1)  # a player: twenty slips a second

    @app.exception_handler(LedgerError)
    async def refused(_: Request, exc: LedgerError) -> JSONResponse:
        status = 401 if isinstance(exc, AuthError) else 400
        return JSONResponse({"detail": str(exc)}, status_code=status)

    @app.exception_handler(GameError)
    async def game_refused(_: Request, exc: GameError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @contextmanager
    def db() -> Iterator[Session]:
        with transaction(engine) as session:
            yield session

    def current(request: Request) -> Login:
        with db() as session:
            return who(session, request.cookies.get(COOKIE))

    def player(login: Annotated[Login, Depends(current)]) -> Login:
        if login.role != "player":
            raise HTTPException(403, "players only")
        return login

    def staff(login: Annotated[Login, Depends(current)]) -> Login:
        if login.role != "staff":
            raise HTTPException(403, "staff only")
        return login

    Player = Annotated[Login, Depends(player)]
    Staff = Annotated[Login, Depends(staff)]

    # -- the client --------------------------------------------------------------------
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> Response:
        page = STATIC / "index.html"
        if not page.is_file():
            return JSONResponse({"detail": "the browser client is not installed"}, 404)
        return FileResponse(page)

    # -- players -----------------------------------------------------------------------
    @app.post("/api/register", status_code=201)
    def register(body: Registration) -> dict[str, str]:
        with db() as session:
            accounts.register(session, body.name, body.born, body.country.upper())
            add_login(session, body.name, body.password, "player", actor=body.name)
        return {"name": body.name}

    @app.post("/api/login")
    def login(body: Credentials, request: Request, response: Response) -> dict[str, str]:
        address = request.client.host if request.client else "?"
        if not logins.allow(f"{body.name}@{address}"):
            raise HTTPException(429, "too many attempts: wait a minute")
        with db() as session:
            token = log_in(session, body.name, body.password)
            found = who(session, token)
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict",
                            max_age=12 * 3600)
        return {"name": found.name, "role": found.role}

    @app.post("/api/logout")
    def logout(request: Request, response: Response) -> dict[str, bool]:
        with db() as session:
            log_out(session, request.cookies.get(COOKIE))
        response.delete_cookie(COOKIE)
        return {"ok": True}

    @app.get("/api/me")
    def me(login: Annotated[Login, Depends(current)]) -> dict[str, Any]:
        if login.role != "player":
            return {"name": login.name, "role": login.role}
        with db() as session:
            found = accounts.find(session, login.name)
            return {"name": login.name, "role": login.role,
                    "balance": balance(session, accounts.wallet_code(login.name)),
                    "status": found.status,
                    "excluded_until": ("forever" if found.excluded_forever else
                                       found.excluded_until.isoformat()
                                       if found.excluded_until else None)}

    @app.post("/api/wallet/deposit")
    def deposit(body: Money, login: Player) -> dict[str, int]:
        with db() as session:
            deposit_via(session, adapter, login.name, body.amount,
                        key=f"web:{login.name}:deposit:{body.key}")
            return {"balance": balance(session, accounts.wallet_code(login.name))}

    @app.post("/api/wallet/withdraw")
    def withdraw(body: Money, login: Player) -> dict[str, int]:
        with db() as session:
            withdraw_via(session, adapter, login.name, body.amount,
                         key=f"web:{login.name}:withdraw:{body.key}")
            return {"balance": balance(session, accounts.wallet_code(login.name))}

    @app.post("/api/limits")
    def set_limit(body: LimitRequest, login: Player) -> dict[str, str]:
        with db() as session:
            at = accounts.set_limit(session, login.name, body.kind, body.period, body.amount)
        return {"effective": at.isoformat()}

    @app.post("/api/exclude")
    def exclude(body: Exclusion, login: Player) -> dict[str, bool]:
        with db() as session:
            accounts.exclude(session, login.name, body.days)
        return {"ok": True}

    # -- the lobby, layouts and rules -------------------------------------------------
    @app.get("/api/lobby")
    def lobby() -> dict[str, Any]:
        with db() as session:
            tables = session.query(GameTable).order_by(GameTable.name).all()
            listed = [{"name": t.name, "game": t.game, "variant": t.variant, "mode": t.mode,
                       "min": t.limit_min, "max": t.limit_max} for t in tables
                      if (t.mode == "live" or t.game == "poker") and t.status == "open"]
        games = [{"game": g, "variants": list(ROULETTE_VARIANTS) if g == "roulette" else [],
                  "title": make_game(g, "C" if g == "roulette" else None).rules.name.en}
                 for g in GAMES] + [
            {"game": "punto-banco", "variants": [], "title": "Punto banco"},
            {"game": "blackjack", "variants": [], "title": "Blackjack"}]
        return {"games": games, "tables": listed}

    @app.get("/api/layout/{game}")
    def layout(game: str, variant: Annotated[str | None, Query(max_length=2)] = None,
               ) -> dict[str, Any]:
        engine_ = _wager_game(game, variant)
        out: dict[str, Any] = {
            "game": engine_.name, "variant": engine_.variant or "",
            "min": engine_.rules.limits.min, "max": engine_.rules.limits.max,
            "spots": [{"key": s.key, "bet_type": s.bet_type,
                       "pays": engine_.payout_label(s.bet_type)} for s in engine_.spots()]}
        if engine_.name == "roulette":
            out["numbers"] = _numbers(engine_)
        return out

    @app.get("/api/rules/{game}")
    def rules(game: str, variant: Annotated[str | None, Query(max_length=2)] = None,
              lang: Annotated[str, Query(pattern="^(fi|sv|en)$")] = "fi") -> dict[str, Any]:
        if game in ("punto-banco", "blackjack"):
            return card_rules_of(game, lang)
        if game == "poker":
            return poker_rules_of(lang)
        return rules_of(_wager_game(game, variant), lang)

    # -- the RNG games: one player against the house -----------------------------------
    @app.post("/api/play/{game}")
    def play(game: str, body: Slip, login: Player) -> dict[str, Any]:
        if not betting.allow(login.name):
            raise HTTPException(429, "too many bets: slow down")
        engine_ = _wager_game(game, body.variant)
        name = f"rng-{engine_.name}{'-' + engine_.variant if engine_.variant else ''}-{login.name}"
        with db() as session:
            try:
                rounds.find_table(session, name)
            except rounds.TableError:
                rounds.create_table(session, name, engine_.name, engine_.variant or None,
                                    mode="rng", actor=login.name)
            key = f"web:{login.name}:{body.key}"
            receipts = rounds.place_bets(session, name, login.name,
                                         [(b.spot, b.amount) for b in body.bets], key=key)
            if all(r.message == "already placed" for r in receipts):
                done = _replayed(session, key, login.name)  # a retry: the first answer
                if done is not None:
                    return done
        with db() as session:  # an RNG round resumes: what is open is settled now
            round_id, settled = rounds.settle(session, name, draws)
            return _played(session, round_id, settled, login.name)

    @app.post("/api/play/{game}/choose")
    def choose(game: str, body: Choice, login: Player) -> dict[str, Any]:
        with db() as session:
            row = session.get(RoundRow, body.round_id)
            table = session.get(GameTable, row.table_id) if row else None
            if table is None or not table.name.endswith(f"-{login.name}") or table.game != game:
                raise HTTPException(404, "no such round of yours")
            settled = rounds.decide(session, table.name, body.round_id, body.bet_id,
                                    body.option, login.name)
            return _played(session, body.round_id, settled, login.name)

    # -- the card games, one player against the house ------------------------------------
    def card_table(session: Session, game: str, name: str) -> str:
        table = f"rng-{game}-{name}"
        try:
            rounds.find_table(session, table)
        except rounds.TableError:
            card_rounds.create_card_table(session, table, game, mode="rng", actor=name)
        return table

    def card_bets(session: Session, table: str, name: str, body: CardSlip) -> None:
        for i, bet in enumerate(body.bets):
            card_rounds.place_card_bet(session, table, name, bet.spot, bet.amount,
                                       key=f"web:{name}:{body.key}/{i}")

    @app.post("/api/cards/punto-banco")
    def punto_banco(body: CardSlip, login: Player) -> dict[str, Any]:
        """Bets on player, banker or tie, and the coup dealt from the table's shoe."""
        if not betting.allow(login.name):
            raise HTTPException(429, "too many bets: slow down")
        with db() as session:
            table = card_table(session, "punto-banco", login.name)
            card_bets(session, table, login.name, body)
        with db() as session:
            coup = card_rounds.deal_coup(session, table, draws)
            return {"round_id": coup.round_id, "result": coup.result,
                    "cards": [{"side": side, "card": card} for side, card in coup.cards],
                    "description": coup.description, "new_shoe_next": coup.last_hand,
                    "settlements": [_settlement(x) for x in coup.settlements],
                    "balance": balance(session, accounts.wallet_code(login.name))}

    @app.get("/api/cards/blackjack")
    def blackjack_now(login: Player) -> dict[str, Any]:
        """The player's blackjack round in play (after a reconnection: where it stopped)."""
        with db() as session:
            table = card_table(session, "blackjack", login.name)
            return _blackjack(session, card_rounds.blackjack_view(session, table), login.name)

    @app.post("/api/cards/blackjack/deal")
    def blackjack_deal(body: CardSlip, login: Player) -> dict[str, Any]:
        """Bets on seats (``"1"`` to ``"7"``) and the deal."""
        if not betting.allow(login.name):
            raise HTTPException(429, "too many bets: slow down")
        with db() as session:
            table = card_table(session, "blackjack", login.name)
            card_bets(session, table, login.name, body)
        with db() as session:
            view = card_rounds.deal_blackjack(session, table, draws)
            return _blackjack(session, view, login.name)

    @app.post("/api/cards/blackjack/act")
    def blackjack_act(body: Decision, login: Player) -> dict[str, Any]:
        with db() as session:
            table = card_table(session, "blackjack", login.name)
            if body.action == "insure":
                view = card_rounds.insure(session, table, login.name, body.seat or 0,
                                          body.amount or 0)
            else:
                view = card_rounds.act(session, table, login.name, body.action, body.amount)
            return _blackjack(session, view, login.name)

    # -- history and recall ------------------------------------------------------------
    @app.get("/api/history")
    def history(login: Player) -> dict[str, Any]:
        with db() as session:
            found = rounds.history(session, login.name)
            tables = {t.id: t.name for t in session.query(GameTable)}
            hands = [{"round_id": row.id, "table": tables.get(row.table_id, ""),
                      "at": row.finished_at.isoformat() if row.finished_at else None,
                      "chips": next((seat[2] for seat in record.get("seats", [])
                                     if seat[1] == login.name), None)}
                     for row, record in _poker_hands(session, login.name)]
            return {"bets": [{"round_id": r.id, "table": tables.get(r.table_id, ""),
                              "spot": b.spot, "stake": b.stake, "paid": b.paid,
                              "result": b.result, "at": b.created_at.isoformat()}
                             for r, b in found], "hands": hands}

    @app.get("/api/recall/{round_id}")
    def recall(round_id: Annotated[int, Field(gt=0, le=2**62)], login: Player,
               ) -> dict[str, Any]:
        with db() as session:
            mine = session.scalar(select(BetRow.id).where(BetRow.round_id == round_id,
                                                          BetRow.player == login.name).limit(1))
            hand = mine is None and any(row.id == round_id for row, _ in
                                        _poker_hands(session, login.name, limit=10_000))
            if mine is None and not hand:
                raise HTTPException(404, "no such round of yours")
            result = recall_round(session, round_id)
        if hand:  # a poker hand's stacks, rake and shares are the table's, cards are not
            return {"round_id": round_id, "game": result.game, "same": result.same,
                    "recorded": result.recorded, "replayed": result.replayed}
        own = [s for s in result.recorded if s["player"] == login.name]
        again = [s for s in result.replayed if s["player"] == login.name]
        return {"round_id": round_id, "game": result.game, "same": result.same,
                "recorded": own, "replayed": again}

    # -- live tables -------------------------------------------------------------------
    def room_of(name: str) -> LiveRoom:
        if name not in rooms:
            with db() as session:
                table = rounds.find_table(session, name)
            if table.mode != "live":
                raise rounds.TableError(f"{name} is not a live table")
            rooms[name] = LiveRoom(engine, name, draws, window=live_window, pause=live_pause)
            rooms[name].start()
        return rooms[name]

    @app.get("/api/live/{name}")
    def live_state(name: str) -> dict[str, Any]:
        """The live table's round as everyone sees it."""
        return rooms[name].state() if name in rooms else {"type": "state", "table": name,
                                                            "phase": "waiting"}

    @app.websocket("/ws/live/{name}")
    async def live(socket: WebSocket, name: str) -> None:
        try:
            with db() as session:
                login = who(session, socket.cookies.get(COOKIE))
            if login.role != "player":
                raise AuthError("players only")
            room = room_of(name)
        except LedgerError as exc:
            await socket.close(code=4403, reason=str(exc)[:120])
            return
        await socket.accept()
        room.join(login.name, socket)
        try:
            await socket.send_json(room.state())
            while True:
                message = await socket.receive_json()
                kind = message.get("type") if isinstance(message, dict) else None
                if kind == "hello":
                    since = message.get("since", 0)
                    for event in room.since(login.name, since if isinstance(since, int)
                                            else 0):
                        await socket.send_json(event)
                elif kind == "bet":
                    try:
                        slip = LiveSlip.model_validate(message)
                    except ValidationError as exc:
                        await socket.send_json({"type": "error", "reason": str(exc)[:300]})
                        continue
                    if not betting.allow(login.name):
                        answer = {"type": "bet-refused", "reason": "too many bets: slow down"}
                    else:
                        answer = await room.bet(login.name,
                                                [(b.spot, b.amount) for b in slip.bets],
                                                f"web:{login.name}:{slip.key}")
                    await socket.send_json({**answer, "key": slip.key})
                else:
                    await socket.send_json({"type": "error",
                                            "reason": "messages: hello {since}, bet"})
        except (WebSocketDisconnect, ValueError, KeyError):
            return  # the client went away or sent what is not JSON; finally lets it go
        except Exception:  # logged; the client reconnects and resumes from its last event
            log.exception("live table %s: %s's connection failed", name, login.name)
        finally:
            room.leave(login.name, socket)

    # -- poker tables ------------------------------------------------------------------
    @app.websocket("/ws/poker/{name}")
    async def poker(socket: WebSocket, name: str) -> None:
        try:
            with db() as session:
                login = who(session, socket.cookies.get(COOKIE))
                if login.role != "player":
                    raise AuthError("players only")
                poker_tables.find_table(session, name)
        except LedgerError as exc:
            await socket.close(code=4403, reason=str(exc)[:120])
            return
        async with opening:  # two first players open one room, not two
            room = poker_rooms.get(name)
            if room is None:
                room = PokerRoom(engine, name, draws, act_seconds=act_seconds)
                await room.start()
                poker_rooms[name] = room
        await socket.accept()
        await room.join(login.name, socket)
        try:
            while True:
                message = await socket.receive_json()
                try:
                    request = PokerMessage.model_validate(message)
                except ValidationError as exc:
                    await socket.send_json({"type": "error", "reason": str(exc)[:300]})
                    continue
                key = f"web:{login.name}:{request.key or request.type}"
                if request.type == "hello":
                    for result in room.since(request.since or 0):
                        await socket.send_json(result)
                    answer = room.view(login.name)
                elif request.type == "sit":
                    answer = await room.sit(login.name, request.amount or 0, key)
                elif request.type in ("sit-out", "sit-in"):
                    answer = await room.sit_out(login.name, request.type == "sit-out")
                elif request.type == "leave":
                    answer = await room.leave(login.name, key)
                else:
                    answer = await room.act(login.name, request.action or "", request.amount,
                                            request.cards)
                await socket.send_json(answer)
        except (WebSocketDisconnect, ValueError, KeyError):
            return  # the client went away or sent what is not JSON; finally lets it go
        except Exception:  # logged; the client reconnects and gets the table again
            log.exception("poker table %s: %s's connection failed", name, login.name)
        finally:
            room.leave_socket(login.name, socket)

    # -- staff -------------------------------------------------------------------------
    @app.post("/api/staff/poker-tables", status_code=201)
    def open_poker_table(body: PokerTableRequest, login: Staff) -> dict[str, str]:
        with db() as session:
            table = poker_tables.create_table(
                session, body.name, body.game, small_blind=body.small_blind,
                big_blind=body.big_blind, min_buy_in=body.min_buy_in,
                rake=Fraction(body.rake_percent, 100), rake_cap=body.rake_cap,
                actor=login.name)
            return {"name": table.name}

    @app.post("/api/staff/tables", status_code=201)
    def open_table(body: TableRequest, login: Staff) -> dict[str, str]:
        with db() as session:
            table = rounds.create_table(session, body.name, body.game, body.variant,
                                        limit_min=body.min, limit_max=body.max,
                                        mode=body.mode, actor=login.name)
            return {"name": table.name}

    @app.post("/api/staff/tables/{name}/settings")
    def table_settings(name: str, body: TableSettingsRequest, login: Staff) -> dict[str, Any]:
        """Open or close a table, or set its limits."""
        with db() as session:
            table = rounds.set_table(session, name, login.name, status=body.status,
                                     limit_min=body.min, limit_max=body.max)
            return {"name": table.name, "status": table.status, "min": table.limit_min,
                    "max": table.limit_max}

    @app.post("/api/staff/tables/{name}/void")
    def void_round(name: str, body: VoidRequest, login: Staff) -> dict[str, int]:
        with db() as session:
            return {"round_id": rounds.void(session, name, body.reason, login.name)}

    @app.post("/api/staff/players/{name}/status")
    def player_status(name: str, body: StatusRequest, login: Staff) -> dict[str, bool]:
        with db() as session:
            accounts.set_status(session, name, body.status, body.reason, login.name)
        return {"ok": True}

    @app.get("/api/staff/report")
    def report(login: Staff, day: Annotated[date | None, Query(alias="date")] = None,
               ) -> dict[str, Any]:
        chosen = day or date.today()
        with db() as session:
            rows = day_report(session, chosen)
        return {"date": chosen.isoformat(), "tables": [{
            "table": r.table, "game": r.game, "rounds": r.rounds, "bets": r.bets,
            "staked": r.staked, "paid": r.paid, "ggr": r.ggr, **r.lines,
            "observed_rtp": None if r.observed_rtp is None else str(r.observed_rtp),
            "theoretical_rtp": None if r.theoretical_rtp is None else str(r.theoretical_rtp),
        } for r in rows]}

    return app


def _wager_game(game: str, variant: str | None) -> WagerGame:
    if game not in GAMES:
        raise HTTPException(404, f"no game {game!r} here; games: {', '.join(GAMES)}")
    try:
        return make_game(game, (variant or "C") if game == "roulette" else variant)
    except GameError as exc:
        raise HTTPException(400, str(exc)) from None


def _numbers(game: WagerGame) -> list[dict[str, str]]:
    red = set(game.rules.groups.red)  # type: ignore[attr-defined]
    out = []
    for number in game.pockets:  # type: ignore[attr-defined]
        colour = ("green" if not number.isdigit() or int(number) == 0 else
                  "red" if int(number) in red else "black")
        out.append({"number": number, "colour": colour})
    return out


def _settlement(s: Any) -> dict[str, Any]:
    return {"bet_id": s.bet_id, "spot": s.spot, "stake": s.stake, "paid": s.paid,
            "result": s.result}


def _blackjack(session: Session, view: card_rounds.BlackjackView | None,
               name: str) -> dict[str, Any]:
    """What the player is shown: the dealer's up card only until the dealer plays."""
    wallet = balance(session, accounts.wallet_code(name))
    if view is None:
        return {"round_id": None, "status": "none", "balance": wallet}
    return {"round_id": view.round_id, "status": view.status, "dealer": list(view.dealer),
            "hands": [{"seat": h.seat, "hand": h.hand, "cards": list(h.cards),
                       "stake": h.stake, "doubled": h.doubled, "total": h.total,
                       "text": h.text} for h in view.hands if h.player == name],
            "insurance": {str(k): v for k, v in view.insurance_max.items()},
            "turn": list(view.turn) if view.turn else None,
            "your_turn": view.to_act == name, "actions": list(view.actions),
            "settlements": [_settlement(x) for x in view.settlements if x.player == name],
            "balance": wallet}


def _poker_hands(session: Session, name: str, limit: int = 200,
                 ) -> list[tuple[RoundRow, dict[str, Any]]]:
    """The recorded poker hands ``name`` played, newest first (of the last ``limit``)."""
    rows = session.scalars(select(RoundRow).join(GameTable, GameTable.id == RoundRow.table_id)
                           .where(GameTable.game == "poker", RoundRow.status == "settled")
                           .order_by(RoundRow.id.desc()).limit(limit))
    hands = []
    for row in rows:
        record = json.loads(row.record)
        if name in record.get("players", []):
            hands.append((row, record))
    return hands


def _replayed(session: Session, key: str, name: str) -> dict[str, Any] | None:
    """The answer a slip got when it was first played, if its round is settled."""
    bets = session.scalars(select(BetRow).where(
        or_(BetRow.key == key, BetRow.key.startswith(f"{key}/", autoescape=True)))
        .order_by(BetRow.number)).all()
    row = session.get(RoundRow, bets[0].round_id) if bets else None
    if row is None or row.status != "settled":
        return None
    record = json.loads(row.record)
    return {"round_id": row.id, "result": "-".join(d["face"] for d in record["draws"]),
            "pending": {},
            "settlements": [{k: s[k] for k in ("bet_id", "spot", "stake", "paid", "result")}
                            for s in record["settlements"] if s["player"] == name
                            and s["bet_id"] in {b.number for b in bets}],
            "balance": balance(session, accounts.wallet_code(name))}


def _played(session: Session, round_id: int, settled: list[Any], name: str) -> dict[str, Any]:
    row = session.get(RoundRow, round_id)
    assert row is not None
    record = json.loads(row.record)
    faces = [d["face"] for d in record.get("draws", [])]
    pending = rounds.pending_choices(session, round_id, name) if not settled else {}
    return {"round_id": round_id, "result": "-".join(faces), "pending": pending,
            "settlements": [{"bet_id": s.bet_id, "spot": s.spot, "stake": s.stake,
                             "paid": s.paid, "result": s.result}
                            for s in settled if s.player == name],
            "balance": balance(session, accounts.wallet_code(name))}


__all__ = ["LANGUAGES", "create_app"]
