"""A player's history (their bets and poker hands) and game recall of a round of
theirs, replayed through its engine."""

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from pydantic import Field

from pelisali.platform import bonus, fairness, queries
from pelisali.server.dependencies import AppState, Player
from pelisali.server.retry import RetryingRoute

router = APIRouter(tags=["history"], route_class=RetryingRoute)
Cursor = Annotated[int | None, Query(gt=0, le=2**62)]


@router.get("/api/history")
def history(login: Player, state: AppState, bets_before: Cursor = None,
            hands_before: Cursor = None,
            limit: Annotated[int, Query(ge=1, le=100)] = 50) -> dict[str, Any]:
    """A page of the player's bets and poker hands, newest first; ``more`` says where
    the next page of each starts (pass it back as ``bets_before``, ``hands_before``),
    null when there is no more. A bet's ``commission`` (cents, 0 when none) was taken
    back from the wallet apart from ``paid`` (Pai Gow Poker's on a win). ``bonuses``:
    their free-spin bonuses granted, released and forfeited (GGPoker RNG slots 5),
    newest first, with the bonus balance."""
    with state.db() as session:
        found = queries.history(session, login.name, bets_before, hands_before, limit)
        bonus_balance = bonus.bonus_balance(session, login.name)
    return {"bets": [{"round_id": b.round_id, "table": b.table, "spot": b.spot,
                      "stake": b.stake, "paid": b.paid, "commission": b.commission,
                      "result": b.result, "at": b.at.isoformat()} for b in found.bets],
            "hands": [{"round_id": h.round_id, "table": h.table,
                       "at": h.at.isoformat() if h.at else None, "chips": h.chips}
                      for h in found.hands],
            "bonuses": [{"at": b.at.isoformat(), "kind": b.kind, "amount": b.amount,
                         "deadline": b.deadline.isoformat(), "round_id": b.round_id,
                         "grant_id": b.grant_id} for b in found.bonuses],
            "bonus_balance": bonus_balance,
            "more": {"bets_before": found.bets_before, "hands_before": found.hands_before}}


@router.get("/api/recall/{round_id}")
def recall(round_id: Annotated[int, Field(gt=0, le=2**62)], login: Player, state: AppState,
           ) -> dict[str, Any]:
    with state.db() as session:
        found = queries.recall_for(session, round_id, login.name)
        table, summary = queries.round_summary(session, round_id)
        fair = found is not None and fairness.drawn_fair(session, round_id)
    if found is None:
        raise HTTPException(404, "no such round of yours")
    return {"round_id": round_id, "game": found.game, "table": table, "summary": summary,
            "same": found.same, "recorded": found.recorded, "replayed": found.replayed,
            "fair": fair}
