"""What protects a player, in one read: their deposit, loss and session-time limits (each
with what the period has used and any raise still waiting out its cooling-off time), a time-out or
self-exclusion and when it ends, the session-time reminder, and the session so far (its
length and net result) for the reality check.

>>> from datetime import date, timedelta
>>> from pelisali.platform import accounts
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
...     _ = accounts.set_limit(s, "ann", "loss", "day", 5_000)
...     _ = accounts.set_limit(s, "ann", "loss", "day", 9_000)  # a raise: it waits
...     seen = protection_of(s, "ann", session_started=now_utc() - timedelta(minutes=5))
>>> [(x.kind, x.period, x.amount, x.waiting) for x in seen.limits]
[('loss', 'day', 5000, 9000)]
>>> seen.excluded_until is None, seen.session_net, seen.reminder_minutes
(True, 0, 60)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from pelisali.platform import accounts
from pelisali.platform.ledger import now_utc
from pelisali.platform.models import Limit, Player

__all__ = ["LimitState", "Protection", "protection_of"]


@dataclass(frozen=True)
class LimitState:
    """A limit as it stands: ``amount`` in force now (None: none), what the current
    period has used of it, and a change still waiting (``waiting``, None to remove it,
    from ``waiting_from``) when ``waiting_from`` is set."""

    kind: str  # deposit, loss or session
    period: str  # day, week or month; session for the session-time limit
    amount: int | None  # cents; minutes for the session-time limit
    used: int  # cents; the session's minutes so far for the session-time limit
    waiting: int | None = None
    waiting_from: datetime | None = None


@dataclass(frozen=True)
class Protection:
    limits: tuple[LimitState, ...]
    excluded_until: datetime | None
    excluded_forever: bool
    reminder_minutes: int  # the reality check: every so many minutes of a session
    session_started: datetime | None
    session_net: int  # cents won (positive) or lost (negative) since the session began


def _used(session: Session, player: Player, kind: str, period: str, at: datetime) -> int:
    """What a limit's period has used: cents deposited or lost, or the minutes of the
    session so far (from the player's earliest log-in still open)."""
    if kind == accounts.SESSION:
        started = accounts.session_started(session, player.name, at)
        return int((at - started).total_seconds() // 60) if started else 0
    since = accounts.period_start(period, at)
    return (accounts.deposited(session, player, since) if kind == "deposit"
            else max(0, accounts.lost(session, player, since)))


def protection_of(session: Session, name: str, session_started: datetime | None = None,
                  at: datetime | None = None) -> Protection:
    """Player ``name``'s limits, exclusion and session, at ``at`` (now by default)."""
    at = at or now_utc()
    player = accounts.find(session, name)
    rows = session.scalars(select(Limit).where(Limit.player_id == player.id)
                           .order_by(Limit.effective_at, Limit.id)).all()
    kinds = [(kind, period) for kind in accounts.LIMIT_KINDS for period in accounts.PERIODS]
    states = []
    for kind, period in [*kinds, (accounts.SESSION, accounts.SESSION)]:
        mine = [r for r in rows if r.kind == kind and r.period == period]
        now = [r for r in mine if r.effective_at <= at]
        later = [r for r in mine if r.effective_at > at]
        amount = now[-1].amount if now else None
        if amount is None and not later:
            continue  # none, or removed with nothing waiting
        states.append(LimitState(kind, period, amount, _used(session, player, kind, period, at),
                                 later[-1].amount if later else None,
                                 later[-1].effective_at if later else None))
    excluded_until = (player.excluded_until if player.excluded_until is not None
                      and player.excluded_until > at else None)
    net = -accounts.lost(session, player, session_started) if session_started else 0
    return Protection(tuple(states), excluded_until, bool(player.excluded_forever),
                      player.session_reminder_minutes
                      or accounts.settings().session_reminder_minutes,
                      session_started, net)
