"""The RNG slots, each player at their own machine: a game's reels, lines and pay table,
a spin, the free spins one request each, and the round in play after a reload (GGPoker
RNG slots 2.3: an interrupted round resumes where it stopped). A retried spin gets its
first answer and is taken once; its key sent with another bet is refused with 409. A
retried free spin names the spins it has been shown and gets the same answer."""

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field, Strict

from pelisali.engine.slots import SlotEngine
from pelisali.platform import slot_rounds
from pelisali.platform.rounds import TableError
from pelisali.platform.slot_family import SLOT_GAMES, slot_engine
from pelisali.platform.slot_rounds import SlotView
from pelisali.server.dependencies import AppState, Bettor, Player
from pelisali.server.keys import bound_to_first
from pelisali.server.links import link, links
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import Key

router = APIRouter(tags=["slots"], route_class=RetryingRoute)
Count = Annotated[int, Strict(), Field(ge=0, le=10_000)]


class SpinRequest(BaseModel):
    """A spin: lines played and cents a line (the rule file's bet levels), under a key."""

    lines: Annotated[int, Strict(), Field(ge=1, le=1_000)]
    cents: Annotated[int, Strict(), Field(ge=1, le=1_000_000)]
    key: Key


class FreeSpinRequest(BaseModel):
    """The next free spin; ``seen``: how many spins of the round the player was shown."""

    seen: Count


def _slot(game: str) -> SlotEngine:
    if game not in SLOT_GAMES:
        raise HTTPException(404, f"no slot {game!r} here; slots: {', '.join(SLOT_GAMES)}")
    return slot_engine(game)


def _answer(view: SlotView) -> dict[str, Any]:
    return {"round_id": view.round_id, "game": view.game, "status": view.status,
            "stake": view.stake, **view.view, "to_wallet": view.to_wallet,
            "to_bonus": view.to_bonus, "balance": view.balance, "bonus": view.bonus}


@router.get("/api/slots")
def slots() -> dict[str, Any]:
    """Every slot game, with its name and description in each language."""
    return {"slots": [{"game": g, "name": slot_engine(g).rules.name.model_dump(),
                       "description": slot_engine(g).rules.description.model_dump()}
                      for g in SLOT_GAMES]}


@router.get("/api/slots/{game}")
def machine(game: str, login: Player, state: AppState) -> dict[str, Any]:
    """The game's window, lines, pays and bet levels, and the player's round in play."""
    rules = _slot(game).rules
    name = state.own_table(login.name, game)
    with state.db() as session:
        found = slot_rounds.playing(session, name)
    return {
        "game": game, "name": rules.name.model_dump(), "rows": rules.rows,
        "reels": rules.reel_count, "symbols": list(rules.symbols),
        "paylines": [list(line) for line in rules.paylines], "ways": rules.ways,
        "pays": [p.model_dump() for p in rules.pays],
        "wilds": [w.model_dump() for w in rules.wilds],
        "scatter": None if rules.scatter is None else rules.scatter.model_dump(),
        "feature": None if rules.feature is None else rules.feature.model_dump(),
        "cap": rules.cap.multiplier,
        # The strips are the par sheet's, public: the browser turns the real reels.
        "strips": {"base": [list(strip) for strip in rules.reels.base],
                   "free": [list(strip) for strip in rules.reels.free]},
        "lines_played": list(rules.bets.lines_played),
        "cents_per_line": list(rules.bets.cents_per_line),
        "playing": None if found is None else _answer(found),
    }


@router.post("/api/slots/{game}/spin", responses=links(
    free_spin=link("/api/slots/{game}/free-spin", "post",
                   parameters={"game": "$request.path.game"},
                   request_body={"seen": 1}),
    recall=link("/api/recall/{round_id}", "get",
                parameters={"round_id": "$response.body#/round_id"})))
def spin(game: str, body: SpinRequest, login: Bettor, state: AppState) -> dict[str, Any]:
    _slot(game)
    name = state.own_table(login.name, game)
    with bound_to_first(body.key), state.db() as session:
        done = slot_rounds.spin(session, name, login.name, body.lines, body.cents,
                                key=f"web:{login.name}:{body.key}", rng=state.rng)
    return _answer(done)


@router.post("/api/slots/{game}/free-spin")
def free_spin(game: str, body: FreeSpinRequest, login: Bettor, state: AppState
              ) -> dict[str, Any]:
    _slot(game)
    name = state.own_table(login.name, game)
    with state.db() as session:
        try:
            done = slot_rounds.free_spin(session, name, login.name, body.seen, rng=state.rng)
        except TableError as exc:
            raise HTTPException(409, str(exc)) from None
    return _answer(done)
