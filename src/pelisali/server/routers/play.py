"""The RNG wager games, one player against the house at their own table: a slip of
bets played at once, and the choices a round may wait for (roulette D's en prison or
la partage). A retried slip gets its first answer and is taken once."""

import contextlib
from typing import Any

from fastapi import APIRouter, HTTPException
from sqlalchemy.orm import Session

from pelisali.games.round import Settlement
from pelisali.platform import queries, rounds, tables
from pelisali.platform.tables import ZeroChoice
from pelisali.server.dependencies import AppState, Player, wager_game
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import Choice, Slip, settlement

router = APIRouter(tags=["play"], route_class=RetryingRoute)


@router.post("/api/play/{game}")
def play(game: str, body: Slip, login: Player, state: AppState) -> dict[str, Any]:
    if not state.betting.allow(login.name):
        raise HTTPException(429, "too many bets: slow down")
    engine = wager_game(game, body.variant)
    key = f"web:{login.name}:{body.key}"
    with state.db() as session:
        name = tables.own_table(session, login.name, engine.name, engine.variant or None)
        tables.place(session, name, login.name, [(b.spot, b.amount) for b in body.bets],
                     key=key)
    with state.db() as session:  # the slip's round is drawn now, unless a slip with it was
        round_id = queries.slip_round(session, key)
        if round_id is None:
            raise HTTPException(409, "the slip was not placed: send it again")
        done = queries.settled_slip(session, key, login.name)
        if done is None:
            with contextlib.suppress(rounds.TableError):  # drawn meanwhile, or choosing
                tables.play_round(session, name, state.rng, round_id=round_id)
            done = queries.settled_slip(session, key, login.name)
        if done is None:  # the choices the round waits for (roulette D's zero)
            return _played(session, round_id, [], login.name, name)
        # This slip's own bets (a slip sent with it may share its round), as first answered.
        return {"round_id": done.round_id, "result": done.result, "pending": {},
                "settlements": done.settlements,
                "balance": queries.wallet(session, login.name)}


@router.post("/api/play/{game}/choose")
def choose(game: str, body: Choice, login: Player, state: AppState) -> dict[str, Any]:
    with state.db() as session:
        table = queries.round_table(session, body.round_id)
        if table is None or not table.name.endswith(f"-{login.name}") or table.game != game:
            raise HTTPException(404, "no such round of yours")
        played = tables.decide(session, table.name, login.name,
                               ZeroChoice(body.round_id, body.bet_id, body.option))
        return _played(session, body.round_id, list(played.settlements), login.name,
                       table.name)


def _played(session: Session, round_id: int, settled: list[Settlement],
            name: str, table: str) -> dict[str, Any]:
    """A played round as ``name`` is shown it: the draw, the choices still to make,
    their settlements and their wallet."""
    pending = dict(tables.waiting(session, table, name, round_id).choices) if not settled else {}
    return {"round_id": round_id, "result": queries.round_result(session, round_id),
            "pending": pending,
            "settlements": [settlement(s) for s in settled if s.player == name],
            "balance": queries.wallet(session, name)}
