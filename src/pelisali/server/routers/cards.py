"""The card games one player against the house at their own table: punto banco coups,
and blackjack dealt, played decision by decision and resumed after a reconnection. A
retried slip gets its round's answer and is taken once; its key sent with another slip
(the other game, other spots or amounts) is refused with 409."""

from typing import Any

from fastapi import APIRouter
from sqlalchemy.orm import Session

from pelisali.platform import queries, tables
from pelisali.platform.card_rounds import BlackjackView, CoupResult
from pelisali.platform.rounds import TableError
from pelisali.server.dependencies import AppState, Bettor, Player
from pelisali.server.keys import bound_to_first
from pelisali.server.links import link, links
from pelisali.server.retry import RetryingRoute
from pelisali.server.routers.play import RECALL_ROUND
from pelisali.server.schemas import CardSlip, Decision, settlement

router = APIRouter(tags=["cards"], route_class=RetryingRoute)


def _table(session: Session, game: str, name: str) -> str:
    return tables.own_table(session, name, game)


def _bets(state: AppState, game: str, name: str, body: CardSlip) -> tuple[str, bool]:
    """Place the slip at the player's own ``game`` table (each bet keyed web:NAME:KEY/i,
    as the slip's bets always were): the table, and whether the slip was placed before
    (a retry, answered from its round)."""
    with bound_to_first(body.key), state.db() as session:
        table = _table(session, game, name)
        receipts = tables.place(session, table, name,
                                [(bet.spot, bet.amount) for bet in body.bets],
                                key=f"web:{name}:{body.key}")
    return table, all(r.message == "already placed" for r in receipts)


def _first_deal(session: Session, name: str, body: CardSlip
                ) -> CoupResult | BlackjackView | None:
    """The round of a slip placed before, as it was dealt; None while it waits to be
    dealt (the first request placed it and did not get to deal it)."""
    round_id = queries.slip_round(session, f"web:{name}:{body.key}")
    return None if round_id is None else tables.dealt(session, round_id)


@router.post("/api/cards/punto-banco", responses=links(recall=RECALL_ROUND))
def punto_banco(body: CardSlip, login: Bettor, state: AppState) -> dict[str, Any]:
    """Bets on player, banker or tie, and the coup dealt from the table's shoe."""
    table, again = _bets(state, "punto-banco", login.name, body)
    with state.db() as session:
        coup = _first_deal(session, login.name, body) if again else None
        if coup is None:
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


@router.post("/api/cards/blackjack/deal", responses=links(
    recall=RECALL_ROUND, stand=link("/api/cards/blackjack/act", "post",
                                    request_body={"action": "stand"})))
def blackjack_deal(body: CardSlip, login: Bettor, state: AppState) -> dict[str, Any]:
    """Bets on seats (``"1"`` to ``"7"``) and the deal."""
    table, again = _bets(state, "blackjack", login.name, body)
    with state.db() as session:
        view = _first_deal(session, login.name, body) if again else None
        if view is None:
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
            # the time left for the decision waited for (RULINGS: it then stands), by
            # the server's clock, and how many decisions the time limit just made
            "seconds_left": view.seconds_left(),
            "timed_out": view.timed_out,
            "balance": wallet}
