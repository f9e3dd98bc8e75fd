"""Provably fair draws for a player (docs/provably-fair.md): their seed pair (the
commitment of the current server seed, their client seed, the nonce of the next round,
and the revealed seeds), setting the client seed, rotating the pair (revealing the
server seed), the setting at their own tables, and a round of theirs verified from its
revealed seeds."""

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from pelisali.platform import fairness
from pelisali.platform.models import FairSeed
from pelisali.server.dependencies import AppState, Player
from pelisali.server.retry import RetryingRoute

router = APIRouter(tags=["fair"], route_class=RetryingRoute)


class ClientSeed(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # The length is bounded here; the platform says what a client seed may hold.
    client_seed: Annotated[str, Field(max_length=200)]


class FairSetting(BaseModel):
    model_config = ConfigDict(extra="forbid")
    variant: Annotated[str | None, Field(max_length=8, pattern=r"^[A-Z]$")] = None
    on: bool


def _pair(row: FairSeed) -> dict[str, Any]:
    revealed = row.revealed_at is not None
    return {"commitment": row.commitment, "client_seed": row.client_seed,
            "rounds": row.nonce, "server_seed": row.server_seed if revealed else None,
            "revealed_at": row.revealed_at.isoformat() if row.revealed_at else None}


@router.get("/api/fair")
def seeds(login: Player, state: AppState) -> dict[str, Any]:
    """The player's current pair (never its server seed), their revealed pairs and the
    setting at their own table of each game it is offered at."""
    with state.db() as session:
        current = fairness.pair(session, login.name)
        return {"current": _pair(current) | {"nonce": current.nonce},
                "revealed": [_pair(r) for r in fairness.revealed(session, login.name)],
                "tables": fairness.table_settings(session, login.name)}


@router.put("/api/fair/client-seed")
def client_seed(body: ClientSeed, login: Player, state: AppState) -> dict[str, Any]:
    """Set the client seed of the player's next rounds (the nonce counts on)."""
    with state.db() as session:
        row = fairness.set_client_seed(session, login.name, body.client_seed)
        return _pair(row) | {"nonce": row.nonce}


@router.post("/api/fair/rotate")
def rotate(login: Player, state: AppState) -> dict[str, Any]:
    """Reveal the player's server seed and commit a new one. Refused while the current
    pair has drawn no round (a request sent again reveals nothing more)."""
    with state.db() as session:
        old, new = fairness.rotate(session, login.name)
        return {"revealed": _pair(old), "current": _pair(new) | {"nonce": new.nonce}}


@router.put("/api/fair/tables/{game}")
def table_setting(game: Annotated[str, Field(max_length=40)], body: FairSetting,
                  login: Player, state: AppState) -> dict[str, Any]:
    """Turn provably fair draws on or off at the player's own table of ``game``."""
    with state.db() as session:
        name = fairness.set_fair(session, login.name, game, body.variant, body.on)
    return {"table": name, "fair": body.on}


@router.get("/api/fair/rounds/{round_id}")
def verify(round_id: Annotated[int, Field(gt=0, le=2**62)], login: Player, state: AppState
           ) -> dict[str, Any]:
    """A round of the player's, drawn provably fair, verified from its revealed seeds:
    each step's proof, the outcome as recorded and as the seeds draw it, and whether they
    match; 404 if the round is not theirs."""
    with state.db() as session:
        if not fairness.owns(session, round_id, login.name):
            raise HTTPException(404, "no such round of yours")
        found = fairness.verify(session, round_id)
    return found.proof() | {"recomputed": found.recomputed, "matches": found.matches,
                            "problem": found.problem}
