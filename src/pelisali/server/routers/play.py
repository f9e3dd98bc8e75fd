"""The RNG wager games, one player against the house at their own table: a slip of
bets played at once, and the choices a round may wait for (roulette D's en prison or
la partage). A retried slip gets its first answer and is taken once; its key sent with
another slip (another game or version, other spots or amounts) is refused with 409."""

import contextlib
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from sqlalchemy.orm import Session

from pelisali.games.round import Settlement
from pelisali.platform import queries, rounds, tables
from pelisali.platform.rng_desk import RngSlip
from pelisali.platform.tables import ZeroChoice
from pelisali.server.dependencies import AppState, Bettor, Player, wager_game
from pelisali.server.keys import bound_to_first
from pelisali.server.links import link, links
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import Choice, Slip, settlement
from pelisali.server.state import ServerState

RECALL_ROUND = link("/api/recall/{round_id}", "get",
                    parameters={"round_id": "$response.body#/round_id"})
router = APIRouter(tags=["play"], route_class=RetryingRoute)


@router.post("/api/play/{game}", responses=links(
    recall=RECALL_ROUND,
    choose=link("/api/play/{game}/choose", "post",
                parameters={"game": "$request.path.game"},
                request_body={"round_id": "$response.body#/round_id", "bet_id": 1,
                              "option": "prison"})))
def play(game: str, body: Slip, login: Bettor, state: AppState) -> dict[str, Any]:
    engine = wager_game(game, body.variant)
    key = f"web:{login.name}:{body.key}"
    name = state.own_table(login.name, engine.name, engine.variant or None)
    # The slip is played in the next batch of this process's RNG desk: accepted, drawn
    # and settled in one commit with the other players' slips that arrived with it.
    outcome = state.rng_desk.play(RngSlip(name, login.name,
                                          tuple((b.spot, b.amount) for b in body.bets), key))
    if outcome.refused is not None:
        with bound_to_first(body.key):  # a key used for another slip: 409
            raise outcome.refused
    if outcome.again:  # a retried slip: its first answer
        return _first_answer(state, name, key, login.name)
    if outcome.round_id is not None and not outcome.deciding and outcome.balance is not None:
        return {"round_id": outcome.round_id, "result": outcome.result, "pending": {},
                "settlements": [settlement(s) for s in outcome.settlements
                                if s.player == login.name],
                "balance": outcome.balance}
    return _first_answer(state, name, key, login.name)


def _first_answer(state: ServerState, name: str, key: str, player: str) -> dict[str, Any]:
    """The answer to the slip under ``key``, as it was first given: its round's draw and
    its own bets' settlements (a slip sent with it may share its round), or the choices
    its round waits for (roulette D's zero)."""
    with state.db() as session:
        round_id = queries.slip_round(session, key)
        if round_id is None:
            raise HTTPException(409, "the slip was not placed: send it again")
        done = queries.settled_slip(session, key, player)
        if done is None:
            with contextlib.suppress(rounds.TableError):  # drawn meanwhile, or choosing
                tables.play_round(session, name, state.rng, round_id=round_id)
            done = queries.settled_slip(session, key, player)
        if done is None:  # the choices the round waits for (roulette D's zero)
            return _played(session, round_id, [], player, name)
        return {"round_id": done.round_id, "result": done.result, "pending": {},
                "settlements": done.settlements,
                "balance": queries.wallet(session, player)}


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
    """A played round as ``name`` is shown it: the draw, the choices still to make (with
    each bet's spot and stake, and the deadline), their settlements and their wallet."""
    waiting = None if settled else queries.choosing(session, table, name, round_id)
    return {"round_id": round_id, "result": queries.round_result(session, round_id),
            **_choices(waiting),
            "settlements": [settlement(s) for s in settled if s.player == name],
            "balance": queries.wallet(session, name)}


def _choices(waiting: queries.Choosing | None) -> dict[str, Any]:
    if waiting is None:
        return {"pending": {}}
    return {"pending": waiting.choices,
            "bets": {n: {"spot": spot, "stake": stake}
                     for n, (spot, stake) in waiting.bets.items()},
            "deadline": waiting.deadline.isoformat()}


@router.get("/api/play/{game}/waiting")
def waiting(game: str, login: Player, state: AppState,
            variant: Annotated[str | None, Query(max_length=2)] = None) -> dict[str, Any]:
    """The round at the player's own table of ``game`` that waits for their choice
    (roulette D after a zero), so that a reload or a return finds it: ``round_id`` None
    when there is none."""
    engine = wager_game(game, variant)
    name = tables.own_table_name(login.name, engine.name, engine.variant or None)
    with state.db() as session:
        found = None
        with contextlib.suppress(rounds.TableError):  # no table yet: nothing waits
            found = queries.choosing(session, name, login.name)
        if found is not None:
            return {"round_id": found.round_id, "result": found.result, **_choices(found),
                    "settlements": [], "balance": queries.wallet(session, login.name)}
    return {"round_id": None, "pending": {}}
