"""The wallet (deposits and withdrawals through the payment adapter), a player's
deposit and loss limits, time-outs and self-exclusion, the reality check's period, and
all of these in one read (``GET /api/protection``). A deposit's or withdrawal's key is bound
to the request: sent again with another amount, or for the other direction, it is
refused with 409 (:mod:`pelisali.server.keys`)."""

from typing import Any

from fastapi import APIRouter

from pelisali.platform import accounts, queries
from pelisali.platform.ledger import append_audit, now_utc
from pelisali.platform.payments import deposit_via, withdraw_via
from pelisali.platform.protection import protection_of
from pelisali.server.dependencies import AppState, Player
from pelisali.server.keys import bound_to_first
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import Exclusion, LimitRequest, Money, Reminder

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
def set_limit(body: LimitRequest, login: Player, state: AppState) -> dict[str, Any]:
    """A cut applies at once (``at_once``), a raise or a removal from ``effective``."""
    with state.db() as session:
        at = accounts.set_limit(session, login.name, body.kind, body.period, body.amount)
    return {"effective": at.isoformat(), "at_once": at <= now_utc()}


@router.post("/api/exclude")
def exclude(body: Exclusion, login: Player, state: AppState) -> dict[str, bool]:
    with state.db() as session:
        accounts.exclude(session, login.name, body.days)
    return {"ok": True}


@router.get("/api/protection")
def protection(login: Player, state: AppState) -> dict[str, Any]:
    """The player's limits (with what each period has used and any raise still waiting),
    time-out or self-exclusion, reality-check period, and this session's time and net."""
    with state.db() as session:
        seen = protection_of(session, login.name, session_started=login.since)
    return {
        "limits": [{"kind": x.kind, "period": x.period, "amount": x.amount, "used": x.used,
                    "waiting": x.waiting,
                    "waiting_from": x.waiting_from.isoformat() if x.waiting_from else None}
                   for x in seen.limits],
        "excluded_until": ("forever" if seen.excluded_forever else
                           seen.excluded_until.isoformat() if seen.excluded_until else None),
        "reminder_minutes": seen.reminder_minutes,
        "session_started": seen.session_started.isoformat() if seen.session_started else None,
        # the server's count, so that a client's clock being off does not matter
        "session_seconds": (int((now_utc() - seen.session_started).total_seconds())
                            if seen.session_started else None),
        "session_net": seen.session_net}


@router.post("/api/reminder")
def set_reminder(body: Reminder, login: Player, state: AppState) -> dict[str, int]:
    """Every how many minutes of a session the reality check asks."""
    with state.db() as session:
        accounts.find(session, login.name).session_reminder_minutes = body.minutes
        append_audit(session, login.name, "reminder",
                     {"player": login.name, "minutes": body.minutes})
    return {"minutes": body.minutes}
