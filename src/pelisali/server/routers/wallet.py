"""The wallet (deposits and withdrawals through the payment adapter), a player's
deposit and loss limits, and self-exclusion."""

from fastapi import APIRouter

from pelisali.platform import accounts, queries
from pelisali.platform.payments import deposit_via, withdraw_via
from pelisali.server.dependencies import AppState, Player
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import Exclusion, LimitRequest, Money

router = APIRouter(tags=["wallet"], route_class=RetryingRoute)


@router.post("/api/wallet/deposit")
def deposit(body: Money, login: Player, state: AppState) -> dict[str, int]:
    with state.db() as session:
        deposit_via(session, state.payments, login.name, body.amount,
                    key=f"web:{login.name}:deposit:{body.key}")
        return {"balance": queries.wallet(session, login.name)}


@router.post("/api/wallet/withdraw")
def withdraw(body: Money, login: Player, state: AppState) -> dict[str, int]:
    with state.db() as session:
        withdraw_via(session, state.payments, login.name, body.amount,
                     key=f"web:{login.name}:withdraw:{body.key}")
        return {"balance": queries.wallet(session, login.name)}


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
