"""The wallet (deposits and withdrawals through the payment adapter), a player's
deposit and loss limits, and self-exclusion. A deposit's or withdrawal's key is bound
to the request: sent again with another amount, or for the other direction, it is
refused with 409 (:mod:`pelisali.server.keys`)."""

from fastapi import APIRouter

from pelisali.platform import accounts, queries
from pelisali.platform.payments import deposit_via, withdraw_via
from pelisali.server.dependencies import AppState, Player
from pelisali.server.keys import bound_to_first
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import Exclusion, LimitRequest, Money

router = APIRouter(tags=["wallet"], route_class=RetryingRoute)


@router.post("/api/wallet/deposit")
def deposit(body: Money, login: Player, state: AppState) -> dict[str, int]:
    deposit_key, withdraw_key = _keys(login.name, body.key)
    with bound_to_first(body.key), state.db() as session:
        deposit_via(session, state.payments, login.name, body.amount, key=deposit_key,
                    others=(withdraw_key,))
        return {"balance": queries.wallet(session, login.name)}


@router.post("/api/wallet/withdraw")
def withdraw(body: Money, login: Player, state: AppState) -> dict[str, int]:
    deposit_key, withdraw_key = _keys(login.name, body.key)
    with bound_to_first(body.key), state.db() as session:
        withdraw_via(session, state.payments, login.name, body.amount, key=withdraw_key,
                     others=(deposit_key,))
        return {"balance": queries.wallet(session, login.name)}


def _keys(player: str, key: str) -> tuple[str, str]:
    """The ledger keys of a client key as a deposit and as a withdrawal (as they have
    always been written): each request checks both, so one key is one request."""
    return f"web:{player}:deposit:{key}", f"web:{player}:withdraw:{key}"


@router.post("/api/limits")
def set_limit(body: LimitRequest, login: Player, state: AppState) -> dict[str, str]:
    with state.db() as session:
        at = accounts.set_limit(session, login.name, body.kind, body.period, body.amount)
    return {"effective": at.isoformat()}


@router.post("/api/exclude")
def exclude(body: Exclusion, login: Player, state: AppState) -> dict[str, bool]:
    with state.db() as session:
        accounts.exclude(session, login.name, body.days)
    return {"ok": True}
