"""Table-game and slot tournaments over the API: the lobby, one tournament (its
settings, the time left by the server's clock, the leaderboard and the payout table,
and the asker's own entries with the round they have in play), registering and taking
a registration back, playing a round and deciding in it, the results with the prizes,
and the staff's create, start, finish and cancel.

Each entry plays its own rounds through the game's own engine
(:mod:`pelisali.platform.leaderboard_tournaments`); a round moves tournament chips,
never money, and only the entry's own player plays it. Every request that moves money
or chips carries a key bound to the whole request: the same key again is a retry
answered as the first time, the key sent with another request is refused with 409.

The clock is read on every request: a tournament whose time limit has passed finishes
and pays on the first request after it (the lobby, its page, a round), so nobody has
to be watching for it; ``pelisali tournament board tick`` does the same from a timer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, HTTPException, Path, Request
from pydantic import BaseModel, Field, Strict

from pelisali.platform import leaderboard_tournaments as boards
from pelisali.platform import queries
from pelisali.platform.models import TournamentRecord
from pelisali.platform.tournaments import TournamentRefused
from pelisali.server.auth import Login, RateLimit
from pelisali.server.dependencies import AppState, Player, Staff
from pelisali.server.keys import bound_to_first
from pelisali.server.retry import RetryingRoute
from pelisali.server.routers.tournaments import asker
from pelisali.server.schemas import Key
from pelisali.server.state import ServerState
from pelisali.tournaments.leaderboard import (
    LeaderboardSettings,
    LeaderboardTournament,
    Played,
    TournamentError,
)

router = APIRouter(tags=["leaderboard tournaments"], route_class=RetryingRoute)
TournamentId = Annotated[int, Path(gt=0, le=2**31)]
T = TypeVar("T")
# Registering and playing: a player's requests a second (a round a second is brisk play).
REQUESTS = RateLimit(20, 1)
_Text = Annotated[str, Field(min_length=1, max_length=60)]


# -- what clients send ---------------------------------------------------------------------
class Registration(BaseModel):
    key: Key


class Round(BaseModel):
    """A round's bets as the game writes them (``bet red 500``, ``bet box 1 100``,
    ``spin 5 10``), in tournament chips."""

    entry: Annotated[str, Field(min_length=1, max_length=40)]
    bets: Annotated[list[_Text], Field(min_length=1, max_length=40)]
    key: Key


class Decision(BaseModel):
    """A decision in the round in play (``hit``, ``stand``, ``double``, ...)."""

    entry: Annotated[str, Field(min_length=1, max_length=40)]
    action: _Text
    key: Key


_Count = Annotated[int, Strict(), Field(ge=0, le=10**9)]
_Cents = Annotated[int, Strict(), Field(ge=0, le=10**11)]


class LeaderboardRequest(BaseModel):
    """A tournament from the rule data's ``structure`` (``roulette-sprint``,
    ``blackjack-100``, ``slot-200-spins``, ``slot-10-minutes``) with its own name and
    money, and any of the structure's numbers changed."""

    structure: Annotated[str, Field(min_length=1, max_length=40)]
    name: Annotated[str, Field(min_length=1, max_length=80)]
    capacity: Annotated[int, Strict(), Field(ge=2, le=100_000)] = 1000
    min_players: Annotated[int, Strict(), Field(ge=2, le=100_000)] = 2
    buy_in: _Cents = 0
    fee: _Cents = 0
    guarantee: _Cents = 0
    rounds: _Count | None = None
    seconds: _Count | None = None
    entry: Literal["freezeout", "re-entry"] = "freezeout"
    max_entries: Annotated[int, Strict(), Field(ge=1, le=100)] = 1
    late_registration_seconds: _Count = 0
    payouts: Annotated[str, Field(max_length=40)] = "standard"


# -- the clock and the database -----------------------------------------------------------
def now_of(state: ServerState) -> datetime:
    """The server clock's time as a moment (a test's manual clock counts from 1970)."""
    return datetime.fromtimestamp(state.clock.now(), UTC)


def _status(reason: str) -> int:
    """404 for a tournament not here, 409 for a request its state refuses."""
    return 404 if reason.startswith("there is no tournament") else 409


def _db(state: ServerState, work: Callable[[Any], T]) -> T:
    """``work`` in one transaction, a tournament's refusal as 404 or 409 with its reason."""
    try:
        with state.db() as session:
            return work(session)
    except TournamentRefused as exc:
        raise HTTPException(_status(str(exc)), str(exc)) from None
    except TournamentError as exc:  # settings the engine refuses
        raise HTTPException(400, str(exc)) from None


def _limit(login: Login) -> None:
    if not REQUESTS.allow(login.name):
        raise HTTPException(429, "too many messages: slow down")


def _due(session: Any, state: ServerState, record: TournamentRecord) -> TournamentRecord:
    """The tournament with its clock read: at the time limit it finishes and pays."""
    if record.status != "running" or not boards.settings_of(record).seconds:
        return record
    boards.tick(session, record.id, now=now_of(state))
    return boards.get(session, record.id)


# -- what the API answers --------------------------------------------------------------------
def _summary(record: TournamentRecord, engine: LeaderboardTournament) -> dict[str, Any]:
    s = engine.settings
    return {
        "id": record.id,
        "name": s.name,
        "kind": s.kind,
        "game": s.game,
        "structure": s.structure,
        "status": engine.status,
        "capacity": s.capacity,
        "entries": len(engine.entries),
        "buy_in": s.buy_in,
        "fee": s.fee,
        "guarantee": s.guarantee,
        "pool": engine.prize_pool().pool,
        "starting_chips": s.starting_chips,
        "min_bet": s.min_bet,
        "max_bet": s.max_bet,
        "rounds": s.rounds,
        "seconds": s.seconds,
    }


def _seconds_left(held: boards.Held, now: datetime) -> int | None:
    """The seconds to the time limit by ``now`` (None without one or before the start)."""
    s = held.engine.settings
    if not s.seconds or held.started_at is None:
        return None
    if held.engine.status != "running":
        return 0
    ran = int((now - datetime.fromisoformat(held.started_at)).total_seconds())
    return max(0, s.seconds - max(ran, held.engine.elapsed))


def _played(played: Played) -> dict[str, Any]:
    return {**asdict(played), "moves": [list(m) for m in played.moves]}


def _leaderboard(engine: LeaderboardTournament) -> list[dict[str, Any]]:
    prizes = engine.prizes() if engine.status == "finished" else {}
    return [
        {
            "place": place,
            "entry": entry_id,
            "player": engine.entries[entry_id].player,
            "chips": chips,
            "rounds": engine.entries[entry_id].rounds,
            "prize": prizes.get(entry_id, 0),
        }
        for place, entry_id, chips in engine.leaderboard()
    ]


def _mine(engine: LeaderboardTournament, player: str) -> list[dict[str, Any]]:
    """The player's entries: chips, rounds played, whether done, the round in play."""
    found = []
    for entry in engine.entries.values():
        if entry.player != player:
            continue
        state = engine.open_round(entry.entry_id)
        found.append(
            {
                "entry": entry.entry_id,
                "chips": entry.chips,
                "rounds": entry.rounds,
                "done": engine.done(entry),
                "why_not": engine.why_not_playing(entry),
                "open": None
                if state is None
                else {
                    "view": state.view(0),
                    "actions": [a.text() for a in state.legal_actions()],
                },
            }
        )
    return found


def _owner(session: Any, tournament_id: int, entry_id: str, player: str) -> None:
    """Refuse a round for an entry that is not the player's own (nothing changes)."""
    engine = boards.load(boards.get(session, tournament_id)).engine
    entry = engine.entries.get(entry_id)
    if entry is None or entry.player != player:
        raise TournamentRefused(f"{entry_id} is not your entry in tournament {tournament_id}")


# -- the player's side ---------------------------------------------------------------------
@router.get("/api/leaderboard-tournaments")
def lobby(state: AppState) -> dict[str, Any]:
    """Every table-game and slot tournament, the newest first."""

    def read(session: Any) -> list[dict[str, Any]]:
        listed = []
        for record in boards.lobby(session):
            record = _due(session, state, record)
            listed.append(_summary(record, boards.load(record).engine))
        return listed

    return {"tournaments": _db(state, read)}


@router.get("/api/leaderboard-tournaments/{tournament_id}")
def detail(tournament_id: TournamentId, request: Request, state: AppState) -> dict[str, Any]:
    """One tournament: its settings, the seconds left by the server's clock, the
    leaderboard, the payout table for the field, the asker's own entries, and while it
    runs the bets a round may open with (each bet's words and the amounts it names)."""
    me = asker(request, state)

    def read(session: Any) -> dict[str, Any]:
        record = _due(session, state, boards.get(session, tournament_id))
        held = boards.load(record)
        engine = held.engine
        prizes = engine.place_prizes() if engine.entries else ()
        return {
            **_summary(record, engine),
            "seconds_left": _seconds_left(held, now_of(state)),
            "settings": asdict(engine.settings),
            "payouts": [{"place": i + 1, "prize": p} for i, p in enumerate(prizes)],
            "leaderboard": _leaderboard(engine),
            "mine": [] if me is None else _mine(engine, me),
            # the bets a round may open with, for the page's choice (while it runs)
            "choices": [{"bet": bet, "amounts": list(amounts)}
                        for bet, amounts in engine.bet_choices()]
            if engine.status == "running" else [],
        }

    return _db(state, read)


@router.post("/api/leaderboard-tournaments/{tournament_id}/register", status_code=201)
def register(
    tournament_id: TournamentId, body: Registration, login: Player, state: AppState
) -> dict[str, Any]:
    """Enter the tournament: the buy-in to the pool and the fee to the house."""
    _limit(login)
    key = f"web:{login.name}:board:{body.key}"

    def enter(session: Any) -> dict[str, Any]:
        entry = boards.register(session, tournament_id, login.name, key)
        return {
            "entry": entry.entry_id,
            "chips": entry.chips,
            "balance": queries.wallet(session, login.name),
        }

    with bound_to_first(body.key):
        return _db(state, enter)


@router.post("/api/leaderboard-tournaments/{tournament_id}/unregister")
def unregister(
    tournament_id: TournamentId, body: Registration, login: Player, state: AppState
) -> dict[str, Any]:
    """Take a registration back before the start: the buy-in and the fee refunded."""
    _limit(login)
    key = f"web:{login.name}:board:{body.key}"

    def leave(session: Any) -> dict[str, Any]:
        boards.unregister(session, tournament_id, login.name, key)
        return {"balance": queries.wallet(session, login.name)}

    with bound_to_first(body.key):
        return _db(state, leave)


@router.post("/api/leaderboard-tournaments/{tournament_id}/play")
def play(
    tournament_id: TournamentId, body: Round, login: Player, state: AppState
) -> dict[str, Any]:
    """Play a round for the player's own entry with its bets, drawn by the server."""
    _limit(login)
    key = f"web:{login.name}:board:{body.key}"

    def run(session: Any) -> dict[str, Any]:
        _owner(session, tournament_id, body.entry, login.name)
        played = boards.play_round(
            session, tournament_id, body.entry, body.bets, key, rng=state.rng, now=now_of(state)
        )
        return _played(played)

    with bound_to_first(body.key):
        return _db(state, run)


@router.post("/api/leaderboard-tournaments/{tournament_id}/decide")
def decide(
    tournament_id: TournamentId, body: Decision, login: Player, state: AppState
) -> dict[str, Any]:
    """A decision in the round the player's entry has in play."""
    _limit(login)
    key = f"web:{login.name}:board:{body.key}"

    def run(session: Any) -> dict[str, Any]:
        _owner(session, tournament_id, body.entry, login.name)
        played = boards.decide(
            session, tournament_id, body.entry, body.action, key, rng=state.rng, now=now_of(state)
        )
        return _played(played)

    with bound_to_first(body.key):
        return _db(state, run)


@router.get("/api/leaderboard-tournaments/{tournament_id}/results")
def results(tournament_id: TournamentId, state: AppState) -> dict[str, Any]:
    """The leaderboard with the prizes paid (cents), the prize pool and the overlay."""

    def read(session: Any) -> dict[str, Any]:
        record = _due(session, state, boards.get(session, tournament_id))
        found = boards.results(session, tournament_id)
        return {
            "status": found.status,
            "pool": found.pool,
            "overlay": found.overlay,
            "places": _leaderboard(boards.load(record).engine),
        }

    return _db(state, read)


def _kept(session: Any, tournament_id: int, player: str | None) -> list[dict[str, Any]]:
    """The rounds kept of the tournament (of ``player``'s entries only, when given)."""
    engine = boards.load(boards.get(session, tournament_id)).engine
    return [
        {"entry": row.entry, "round": row.number, "staked": row.staked, "paid": row.paid,
         "moves": json.loads(row.moves), "played_at": row.played_at.isoformat()}
        for row in boards.rounds_of(session, tournament_id)
        if player is None or engine.entries[row.entry].player == player
    ]


@router.get("/api/leaderboard-tournaments/{tournament_id}/rounds")
def my_rounds(tournament_id: TournamentId, login: Player, state: AppState) -> dict[str, Any]:
    """The player's own rounds played to their end: the chips staked and paid back and
    the moves with every chance draw (chance is -1)."""
    return {"rounds": _db(state, lambda session: _kept(session, tournament_id, login.name))}


# -- the staff's side ------------------------------------------------------------------------
@router.post("/api/staff/leaderboard-tournaments", status_code=201)
def create(body: LeaderboardRequest, login: Staff, state: AppState) -> dict[str, Any]:
    """Announce a tournament from its rule data; its settings are fixed from here on."""
    changes = body.model_dump(exclude={"structure"}, exclude_none=True)
    try:
        settings = LeaderboardSettings.from_rules(body.structure, **changes)
    except (TournamentError, ValueError) as exc:
        raise HTTPException(400, str(exc)) from None
    record = _db(state, lambda s: boards.create(s, settings, actor=login.name))
    return {"id": record.id, "name": settings.name, "status": record.status}


@router.get("/api/staff/leaderboard-tournaments/{tournament_id}/rounds")
def all_rounds(tournament_id: TournamentId, login: Staff, state: AppState) -> dict[str, Any]:
    """Every entry's rounds, for the auditor."""
    return {"rounds": _db(state, lambda session: _kept(session, tournament_id, None))}


@router.post("/api/staff/leaderboard-tournaments/{tournament_id}/start")
def start(tournament_id: TournamentId, login: Staff, state: AppState) -> dict[str, Any]:
    """Start the clock (and the rounds) by the server's clock."""
    _db(
        state,
        lambda s: boards.start(s, tournament_id, state.rng, now=now_of(state), actor=login.name),
    )
    return {"id": tournament_id, "status": "running"}


@router.post("/api/staff/leaderboard-tournaments/{tournament_id}/finish")
def finish(tournament_id: TournamentId, login: Staff, state: AppState) -> dict[str, Any]:
    """Close a tournament whose play is over: rounds in play stand, the prizes are paid."""
    _db(state, lambda s: boards.finish(s, tournament_id, now=now_of(state)))
    return {"id": tournament_id, "status": "finished"}


@router.post("/api/staff/leaderboard-tournaments/{tournament_id}/cancel")
def cancel(tournament_id: TournamentId, login: Staff, state: AppState) -> dict[str, Any]:
    """Cancel: every entry's buy-in and fee refunded."""
    owed = _db(state, lambda s: boards.cancel(s, tournament_id, actor=login.name))
    return {"id": tournament_id, "status": "cancelled", "owed": owed}
