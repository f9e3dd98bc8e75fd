"""Baccara, chemin de fer over the API: players at a shared table
(:mod:`pelisali.platform.chemin_tables`), the bank passing among them.

A chemin de fer table keeps everything in the database (its seating in the table's
settings, the coup in play in its round record), so every request is one transaction on
whichever node takes it. A player's page follows the table over its socket
(``/ws/chemin/{table}``, :mod:`pelisali.server.chemin_socket`): each move made here is
published on the bus as a bare ``changed`` (no card in it), and each socket sends its
player the table as that player may see it. Without a socket the page asks again
(``GET /api/chemin/{table}``, with ``since``: the answer says only ``unchanged`` while
nothing moved). Each answer carries the decision clock: when the decision waited for is
due (``deadline``, ISO 8601, and ``seconds_left`` on the server's clock); a request
that comes after it first has the house act for the late seat
(:func:`~pelisali.platform.chemin_tables.time_out`). A table that is not a chemin de fer
table here is answered 404. The moves: ``sit`` and ``leave``; ``move`` with ``bank``
(``amount`` in
cents), ``carry`` or ``pass`` between coups (the banker), ``banco``, ``bet``
(``amount``) or ``pass`` (a punter in turn), ``draw`` or ``stand`` (when asked). Each
carries a key: a retry gets its first answer and is taken once; the key with another
request is refused with 409.
"""

import contextlib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, BackgroundTasks, HTTPException
from pydantic import BaseModel, Field, Strict
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.routing import WebSocketRoute

from pelisali.platform import chemin_tables
from pelisali.platform.models import GameTable
from pelisali.server.chemin_socket import CheminSocket, answer, changed, now
from pelisali.server.dependencies import AppState, Bettor, Player
from pelisali.server.keys import bound_to_first
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import Key
from pelisali.server.state import ServerState

router = APIRouter(tags=["chemin de fer"], route_class=RetryingRoute)
Cents = Annotated[int, Strict(), Field(ge=1, le=10**9)]


class SeatRequest(BaseModel):
    """Sit down or leave, under a key."""

    key: Key


class MoveRequest(BaseModel):
    """A move at the table: ``bank`` and ``bet`` carry their ``amount`` in cents."""

    action: Literal["bank", "carry", "pass", "banco", "bet", "draw", "stand"]
    amount: Cents | None = None
    key: Key


def known(session: Session, name: str) -> None:
    """404 unless ``name`` is a chemin de fer table here."""
    found = session.scalars(select(GameTable.game).where(GameTable.name == name)).first()
    if found != chemin_tables.GAME:
        raise HTTPException(404, f"no chemin de fer table {name!r}")


@contextmanager
def _at_table(state: ServerState, name: str, key: str | None = None
              ) -> Iterator[tuple[Session, datetime, list[str]]]:
    """One transaction at table ``name`` (404 if there is none), under the client's
    ``key``, after the house has acted for any seat whose time ran out (what it did)."""
    at = now(state)
    with bound_to_first(key or ""), state.db() as session:
        known(session, name)
        made = chemin_tables.time_out(session, name, at, state.rng)
        yield session, at, made


async def _publish(state: ServerState, name: str) -> None:
    """Tell the table's sockets that it changed (the bus down: they catch up later)."""
    with contextlib.suppress(Exception):
        await changed(state, name)



@router.get("/api/chemin")
def tables(login: Player, state: AppState) -> dict[str, Any]:
    """The chemin de fer tables, each with its seats and banker."""
    with state.db() as session:
        names = session.scalars(select(GameTable.name).where(
            GameTable.game == chemin_tables.GAME, GameTable.status == "open")
            .order_by(GameTable.name)).all()
        found = [chemin_tables.view(session, name, login.name) for name in names]
    return {"tables": [{"table": v.table, "seats": list(v.seats), "banker": v.banker,
                        "status": v.status} for v in found]}


@router.get("/api/chemin/{table}")
def table(table: str, login: Player, state: AppState, background: BackgroundTasks,
          since: str | None = None) -> dict[str, Any]:
    """The table as the player sees it (their own cards only); ``unchanged`` when it is
    still as the ``since`` version the page holds."""
    with _at_table(state, table) as (session, at, made):
        found = answer(chemin_tables.view(session, table, login.name), at)
    if made:  # the house acted for a late seat: the table's sockets hear of it
        background.add_task(_publish, state, table)
    if since is not None and since == found["version"]:
        return {"unchanged": True, "version": since}
    return found


@router.post("/api/chemin/{table}/sit")
def sit(table: str, body: SeatRequest, login: Bettor, state: AppState,
        background: BackgroundTasks) -> dict[str, Any]:
    """Sit at the table (from the next coup when one is in play)."""
    with _at_table(state, table, body.key) as (session, at, _made):
        done = chemin_tables.sit(session, table, login.name, key=f"web:{login.name}:{body.key}",
                                 at=at)
    background.add_task(_publish, state, table)
    return answer(done, at)


@router.post("/api/chemin/{table}/leave")
def leave(table: str, body: SeatRequest, login: Player, state: AppState,
          background: BackgroundTasks) -> dict[str, Any]:
    """Leave the table (not during a coup the player plays)."""
    with _at_table(state, table, body.key) as (session, at, _made):
        done = chemin_tables.leave(session, table, login.name,
                                   key=f"web:{login.name}:{body.key}", at=at)
    background.add_task(_publish, state, table)
    return answer(done, at)


@router.post("/api/chemin/{table}/move")
def move(table: str, body: MoveRequest, login: Bettor, state: AppState,
         background: BackgroundTasks) -> dict[str, Any]:
    """The player's move: between coups as the banker, or in the coup on their turn."""
    if (body.action in ("bank", "bet")) != (body.amount is not None):
        raise HTTPException(422, "bank and bet carry their amount in cents; nothing else does")
    key = f"web:{login.name}:{body.key}"
    with _at_table(state, table, body.key) as (session, at, _made):
        if body.action == "bank" and body.amount is not None:
            done = chemin_tables.put_up(session, table, login.name, body.amount, key=key,
                                        rng=state.rng, at=at)
        elif body.action == "carry":
            done = chemin_tables.carry(session, table, login.name, key=key, rng=state.rng,
                                       at=at)
        elif body.action == "pass" and (
                chemin_tables.view(session, table, login.name).status != "playing"
                or chemin_tables.seating_request(session, table, key) is not None):
            done = chemin_tables.pass_bank(session, table, login.name, key=key, at=at)
        else:
            text = f"bet {body.amount}" if body.action == "bet" else body.action
            done = chemin_tables.act(session, table, login.name, text, key=key, rng=state.rng,
                                     at=at)
    background.add_task(_publish, state, table)
    return answer(done, at)


router.routes.append(WebSocketRoute("/ws/chemin/{name}", CheminSocket, name="chemin"))
