"""The HTTP API and the browser client: registration and login, the wallet, limits and
self-exclusion, the lobby, the wager games one player against the house, history and
recall, the rules of every version, and the staff's endpoints; the live and poker
tables over WebSocket.

:func:`create_app` builds the server's shared state
(:class:`~pelisali.server.state.ServerState`) and includes one router per concern
(:mod:`pelisali.server.routers`). Every request runs in one database transaction of
the platform layer; a refusal is a 4xx answer with the reason and changes nothing. A
player's idempotency keys are their own: the server prefixes them with the player's
name, so no player can touch another's requests by guessing a key.

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

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from pelisali.games import GameError
from pelisali.platform.db import DatabaseBusy
from pelisali.platform.ledger import LedgerError
from pelisali.platform.payments import Cage, PaymentAdapter
from pelisali.rng import Rng, SecureRng
from pelisali.server import messages
from pelisali.server.auth import COOKIE, AuthError
from pelisali.server.bus import STREAM, SUBJECT, Bus, LocalBus, NatsBus
from pelisali.server.clock import Clock, SystemClock
from pelisali.server.ops import RequestLog, table_collector
from pelisali.server.ops import router as ops_router
from pelisali.server.retry import busy
from pelisali.server.routers import ROUTERS
from pelisali.server.routers import tournaments as tournament_routes
from pelisali.server.rules_text import LANGUAGES
from pelisali.server.security import Guard, Security
from pelisali.server.state import ServerState

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"


def create_app(engine: Engine, payments: PaymentAdapter | None = None,
               rng: Rng | None = None, live_window: float = 15.0,
               live_pause: float = 4.0, act_seconds: float = 20.0,
               clock: Clock | None = None, bus: Bus | None = None,
               security: Security | None = None, showdown_seconds: float = 5.0,
               away_seconds: float = 120.0) -> FastAPI:
    """The server over ``engine``'s database. ``payments`` takes deposits and pays out
    withdrawals (a sandbox that accepts everything by default, for a demonstration);
    ``rng`` draws the RNG games and the live tables' wheels (the secure generator by
    default); a live table's betting window lasts ``live_window`` seconds and its
    result is shown for ``live_pause``; a poker player has ``act_seconds`` to act, a
    showdown stays ``showdown_seconds`` before the next hand, and a seated player away
    (no socket open) for ``away_seconds`` is sat out and cashed out.
    The tables keep time by ``clock`` (the real time by default). Their events go on
    ``bus``: one in the process by default; NATS for several processes. ``security``
    holds the limits against hostile clients (:class:`~pelisali.server.security.Security`:
    allowed origins, Secure cookies, body and socket limits)."""
    state = ServerState(engine, payments or Cage(name="sandbox"), rng or SecureRng(),
                        clock or SystemClock(), live_window=live_window,
                        live_pause=live_pause, act_seconds=act_seconds,
                        showdown_seconds=showdown_seconds, away_seconds=away_seconds,
                        bus=bus or LocalBus(), security=security or Security())

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await state.start()
        yield
        await rooms.stop()  # the tournaments' rooms first: they book on the database
        await state.stop()

    app = FastAPI(title="Pelisali", version="0.1", lifespan=lifespan,
                  description="A casino game server for the Finnish RAY rulebook and the "
                              "GGPoker house and live-casino rules.")
    app.state.pelisali = state
    rooms = tournament_routes.install(app, state)
    state.metrics = table_collector(state)
    app.add_middleware(Guard, security=state.security)  # origins, body size, headers
    app.add_middleware(RequestLog)  # outermost: refusals are logged and counted too
    app.exception_handler(LedgerError)(_refused)
    app.exception_handler(GameError)(_game_refused)
    app.exception_handler(StarletteHTTPException)(_http_refused)
    app.exception_handler(RequestValidationError)(_malformed)
    app.exception_handler(DatabaseBusy)(busy)
    app.exception_handler(OperationalError)(busy)  # a dropped connection on its way in

    # -- the client --------------------------------------------------------------------
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.get("/", include_in_schema=False)(index)

    for router in ROUTERS:
        app.include_router(router)
    app.include_router(tournament_routes.router)
    app.include_router(ops_router)
    return app


def bus_of(url: str) -> Bus:
    """The bus at ``url``: ``local`` (in this process) or ``nats://host:port``.

    >>> type(bus_of("local")).__name__, type(bus_of("nats://127.0.0.1:4222")).__name__
    ('LocalBus', 'NatsBus')
    """
    if url in ("", "local"):
        return LocalBus()
    if url.startswith(("nats://", "tls://")):
        stream = os.environ.get("PELISALI_BUS_STREAM", STREAM)
        subject = os.environ.get("PELISALI_BUS_SUBJECT", SUBJECT)
        return NatsBus(url, stream=stream, subject=subject)
    raise ValueError(f"a bus is 'local' or nats://HOST:PORT, not {url!r}")


def from_environment() -> FastAPI:
    """The server as ``pelisali serve`` configures each of its worker processes, from
    the environment: ``PELISALI_DATABASE_URL``, ``PELISALI_BUS`` (``local`` or a NATS
    URL), ``PELISALI_LIVE_WINDOW``, ``PELISALI_LIVE_PAUSE``, ``PELISALI_ACT_SECONDS``,
    ``PELISALI_SHOWDOWN_SECONDS``, ``PELISALI_AWAY_SECONDS``,
    ``PELISALI_LOG_LEVEL`` and ``PELISALI_LOG_FORMAT``, and the limits against hostile
    clients (:meth:`Security.from_environment <pelisali.server.security.Security.\
from_environment>`, for the address ``PELISALI_HOST`` it listens on)."""
    from pelisali.platform.db import make_engine
    from pelisali.platform.heap import settle_heap
    from pelisali.server.ops import configure_logging

    env = os.environ
    configure_logging(env.get("PELISALI_LOG_LEVEL", "info"),
                      json_lines=env.get("PELISALI_LOG_FORMAT", "json") == "json")
    app = create_app(make_engine(), bus=bus_of(env.get("PELISALI_BUS", "local")),
                     live_window=float(env.get("PELISALI_LIVE_WINDOW", 15.0)),
                     live_pause=float(env.get("PELISALI_LIVE_PAUSE", 4.0)),
                     act_seconds=float(env.get("PELISALI_ACT_SECONDS", 20.0)),
                     showdown_seconds=float(env.get("PELISALI_SHOWDOWN_SECONDS", 5.0)),
                     away_seconds=float(env.get("PELISALI_AWAY_SECONDS", 120.0)),
                     security=Security.from_environment(env.get("PELISALI_HOST")))
    settle_heap()  # what start-up built lives as long as the process
    return app


async def _refused(_: Request, exc: LedgerError) -> JSONResponse:
    status = 401 if isinstance(exc, AuthError) else 400
    return JSONResponse(messages.answer(str(exc)), status_code=status)


async def _game_refused(_: Request, exc: GameError) -> JSONResponse:
    return JSONResponse(messages.answer(str(exc)), status_code=400)


async def _http_refused(_: Request, exc: StarletteHTTPException) -> Response:
    """FastAPI's answer, with the catalogue's code and params (``server.messages``)."""
    if exc.status_code in (204, 304):
        return Response(status_code=exc.status_code, headers=exc.headers)
    return JSONResponse(messages.answer(exc.detail), status_code=exc.status_code,
                        headers=exc.headers)


async def _malformed(_: Request, exc: RequestValidationError) -> JSONResponse:
    """FastAPI's 422, with ``code`` ``invalid`` and the fields named for a player."""
    return JSONResponse(messages.invalid(jsonable_encoder(exc.errors())), status_code=422)


def index() -> Response:
    """The browser client's page."""
    page = STATIC / "index.html"
    if not page.is_file():
        return JSONResponse({"detail": "the browser client is not installed"}, 404)
    return FileResponse(page)


__all__ = ["COOKIE", "LANGUAGES", "bus_of", "create_app", "from_environment"]
