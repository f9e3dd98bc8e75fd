"""Logins and web sessions: who may reach the server, and who a session belongs to.

Passwords are kept only as argon2 hashes; a session is a random token (the server
puts it in a cookie), of which the database keeps only the SHA-256. A player logs in
under their player name; staff have logins of their own and no wallet.

>>> from datetime import date
>>> from pelisali.platform import accounts
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
...     add_login(s, "ann", "correct horse", "player")
...     token = log_in(s, "ann", "correct horse")
...     who(s, token)
Login(name='ann', role='player')
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from pelisali.platform.accounts import Refused
from pelisali.platform.ledger import LedgerError, append_audit, now_utc
from pelisali.platform.models import Credential, WebSession

ROLES = ("player", "staff")
SESSION_HOURS = 12
MIN_PASSWORD = 8
_HASHER = PasswordHasher()


class AuthError(LedgerError):
    """A login or session refused."""


@dataclass(frozen=True)
class Login:
    """Who a session belongs to: a login's name and its role (player or staff)."""

    name: str
    role: str


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def add_login(session: Session, name: str, password: str, role: str,
              actor: str = "system") -> None:
    """A login for ``name`` (a registered player, or a staff member)."""
    if role not in ROLES:
        raise Refused(f"role {role!r}: player or staff")
    if len(password) < MIN_PASSWORD:
        raise Refused(f"a password has at least {MIN_PASSWORD} characters")
    if session.scalars(select(Credential).where(Credential.name == name)).one_or_none():
        raise Refused(f"a login called {name!r} exists")
    session.add(Credential(name=name, role=role, password_hash=_HASHER.hash(password),
                           created_at=now_utc()))
    session.flush()
    append_audit(session, actor, "login-added", {"name": name, "role": role})


def log_in(session: Session, name: str, password: str) -> str:
    """A new session token for a correct name and password."""
    found = session.scalars(select(Credential).where(Credential.name == name)).one_or_none()
    try:
        if found is None:
            raise VerificationError("no such login")
        _HASHER.verify(found.password_hash, password)
    except (VerificationError, InvalidHashError):
        raise AuthError("wrong name or password") from None
    token = secrets.token_urlsafe(32)
    now = now_utc()
    session.add(WebSession(token_hash=_digest(token), name=found.name, role=found.role,
                           created_at=now, expires_at=now + timedelta(hours=SESSION_HOURS)))
    session.flush()
    return token


def who(session: Session, token: str | None) -> Login:
    """The login a session token belongs to, if it is still valid."""
    if not token:
        raise AuthError("not logged in")
    found = session.get(WebSession, _digest(token))
    if found is None or found.expires_at <= now_utc():
        raise AuthError("not logged in")
    return Login(found.name, found.role)


def log_out(session: Session, token: str | None) -> None:
    """End the session of ``token`` (nothing, if there is none)."""
    if token:
        session.execute(delete(WebSession).where(WebSession.token_hash == _digest(token)))
