"""The card games one player against the house at their own table: punto banco coups,
and blackjack dealt, played decision by decision and resumed after a reconnection."""

from typing import Any

from fastapi import APIRouter
from sqlalchemy.orm import Session

from pelisali.platform import queries, tables
from pelisali.platform.card_rounds import BlackjackView, CoupResult
from pelisali.platform.rounds import TableError
from pelisali.server.dependencies import AppState, Bettor, Player
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import CardSlip, Decision, settlement

router = APIRouter(tags=["cards"], route_class=RetryingRoute)


def _table(session: Session, game: str, name: str) -> str:
    return tables.own_table(session, name, game)


def _bets(session: Session, table: str, name: str, body: CardSlip) -> None:
    # Each bet keyed web:NAME:KEY/i, as the slip's bets always were.
    tables.place(session, table, name, [(bet.spot, bet.amount) for bet in body.bets],
                 key=f"web:{name}:{body.key}")


@router.post("/api/cards/punto-banco")
def punto_banco(body: CardSlip, login: Bettor, state: AppState) -> dict[str, Any]:
    """Bets on player, banker or tie, and the coup dealt from the table's shoe."""
    with state.db() as session:
        table = _table(session, "punto-banco", login.name)
        _bets(session, table, login.name, body)
    with state.db() as session:
        coup = tables.play_round(session, table, state.rng).dealt
        if not isinstance(coup, CoupResult):  # a punto banco table deals a coup
            raise TableError(f"{table} did not deal a coup")
        return {"round_id": coup.round_id, "result": coup.result,
                "cards": [{"side": side, "card": card} for side, card in coup.cards],
                "description": coup.description, "new_shoe_next": coup.last_hand,
                "settlements": [settlement(x) for x in coup.settlements],
                "balance": queries.wallet(session, login.name)}


@router.get("/api/cards/blackjack")
def blackjack_now(login: Player, state: AppState) -> dict[str, Any]:
    """The player's blackjack round in play (after a reconnection: where it stopped)."""
    with state.db() as session:
        table = _table(session, "blackjack", login.name)
        return _blackjack(session, tables.waiting(session, table, login.name).dealt,
                          login.name)


@router.post("/api/cards/blackjack/deal")
def blackjack_deal(body: CardSlip, login: Bettor, state: AppState) -> dict[str, Any]:
    """Bets on seats (``"1"`` to ``"7"``) and the deal."""
    with state.db() as session:
        table = _table(session, "blackjack", login.name)
        _bets(session, table, login.name, body)
    with state.db() as session:
        view = tables.play_round(session, table, state.rng).dealt
        if not isinstance(view, BlackjackView):  # a blackjack table deals a round
            raise TableError(f"{table} did not deal blackjack")
        return _blackjack(session, view, login.name)


@router.post("/api/cards/blackjack/act")
def blackjack_act(body: Decision, login: Player, state: AppState) -> dict[str, Any]:
    with state.db() as session:
        table = _table(session, "blackjack", login.name)
        decision: tables.Decision = (
            tables.Insurance(body.seat or 0, body.amount or 0) if body.action == "insure"
            else tables.HandDecision(body.action, body.amount))
        return _blackjack(session, tables.decide(session, table, login.name, decision).dealt,
                          login.name)


def _blackjack(session: Session, view: CoupResult | BlackjackView | None,
               name: str) -> dict[str, Any]:
    """What the player is shown: the dealer's up card only until the dealer plays."""
    wallet = queries.wallet(session, name)
    if not isinstance(view, BlackjackView):
        return {"round_id": None, "status": "none", "balance": wallet}
    return {"round_id": view.round_id, "status": view.status, "dealer": list(view.dealer),
            "hands": [{"seat": h.seat, "hand": h.hand, "cards": list(h.cards),
                       "stake": h.stake, "doubled": h.doubled, "total": h.total,
                       "text": h.text} for h in view.hands if h.player == name],
            "insurance": {str(k): v for k, v in view.insurance_max.items()},
            "turn": list(view.turn) if view.turn else None,
            "your_turn": view.to_act == name, "actions": list(view.actions),
            "settlements": [settlement(x) for x in view.settlements if x.player == name],
            "balance": wallet}
