"""The routers' dependencies: the server's state, and who is this.

:func:`current` reads the session cookie of any :class:`~starlette.requests.HTTPConnection`,
so the same function answers for an HTTP request (as a FastAPI dependency) and for a
WebSocket (:class:`~pelisali.server.sockets.TableSocket` calls it when a client
connects). :data:`Player` and :data:`Staff` narrow it to a role.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request
from starlette.requests import HTTPConnection

from pelisali.games import GAMES, GameError, make_game
from pelisali.games.base import WagerGame
from pelisali.server.auth import COOKIE, Login, who
from pelisali.server.state import ServerState, state_of


def current(connection: HTTPConnection) -> Login:
    """Who is this: the login of the connection's session cookie
    (:class:`~pelisali.server.auth.AuthError` if there is none, or it has expired)."""
    with state_of(connection).db() as session:
        return who(session, connection.cookies.get(COOKIE))


def player(login: Annotated[Login, Depends(current)]) -> Login:
    """A player's login; anyone else is refused (403)."""
    if login.role != "player":
        raise HTTPException(403, "players only")
    return login


def staff(login: Annotated[Login, Depends(current)]) -> Login:
    """A staff member's login; anyone else is refused (403)."""
    if login.role != "staff":
        raise HTTPException(403, "staff only")
    return login


AppState = Annotated[ServerState, Depends(state_of)]
Current = Annotated[Login, Depends(current)]
Player = Annotated[Login, Depends(player)]
Staff = Annotated[Login, Depends(staff)]


def betting(request: Request, login: Player, state: AppState) -> Login:
    """A player's login, within their rate of slips (429 past it). A request the server
    tries again after a transient database failure is counted once, not once a try."""
    if not getattr(request.state, "slip_counted", False):
        request.state.slip_counted = True
        if not state.betting.allow(login.name):
            raise HTTPException(429, "too many bets: slow down")
    return login


Bettor = Annotated[Login, Depends(betting)]


def wager_game(game: str, variant: str | None) -> WagerGame:
    """The engine of a wager game and version named in a request (404 for a game not
    here, 400 for a version it does not have); roulette is version C unless named."""
    if game not in GAMES:
        raise HTTPException(404, f"no game {game!r} here; games: {', '.join(GAMES)}")
    try:
        return make_game(game, (variant or "C") if game == "roulette" else variant)
    except GameError as exc:
        raise HTTPException(400, str(exc)) from None
