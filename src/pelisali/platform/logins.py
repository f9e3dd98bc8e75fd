"""Logins and web sessions: who may reach the server, and who a session belongs to.

Passwords are kept only as argon2 hashes; a session is a random token (the server
puts it in a cookie), of which the database keeps only the SHA-256. A player logs in
under their player name; staff have logins of their own and no wallet.

Each log-in is kept (:class:`~pelisali.platform.models.LogIn`) with the browser's device
and the client's address, for the linked-accounts monitoring
(:mod:`pelisali.platform.aml`): the device is a long-lived random id the server gives a
browser in a cookie at its first log-in (:func:`new_device`, :func:`valid_device`), of
which only the SHA-256 is kept; the address is kept as an IP address, or not at all.

Argon2 is slow on purpose, so it never runs inside a transaction: the server hashes
(:func:`hash_password`) and checks (:func:`password_matches`) before and between its
transactions, on a small pool of threads of its own (:data:`PASSWORD_THREADS`), so a
flood of logins waits for that pool and holds no lock that bets need.

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
...     device = new_device()
...     _ = start_session(s, "ann", device=device, address="2001:DB8::1")
...     [(row.device == device_digest(device), row.address) for row in s.scalars(
...         select(LogIn).order_by(LogIn.id))]
Login(name='ann', role='player')
[(False, None), (True, '2001:db8::1')]
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
import re
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TypeGuard

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from pelisali.platform import metrics
from pelisali.platform.accounts import Refused
from pelisali.platform.ledger import LedgerError, append_audit, now_utc
from pelisali.platform.models import Credential, LogIn, WebSession
from pelisali.platform.passwords import MIN_LENGTH, weakness

ROLES = ("player", "staff")
SESSION_HOURS = 12
MIN_PASSWORD = MIN_LENGTH
PASSWORD_THREADS = 2  # argon2 at once; the rest of the logins wait their turn


def hasher_from_environment(setting: str | None = None) -> PasswordHasher:
    """argon2id at argon2-cffi's default cost (RFC 9106's second recommended option:
    3 passes over 64 MiB in 4 lanes, about a quarter of a second here), or at the cost
    an operator sets in ``PELISALI_ARGON2`` as ``passes,KiB,lanes``: for a machine where
    a login must cost more, or less (the test suite sets the least, as Django's
    documentation advises for tests). A hash keeps the cost it was made with, so a
    change leaves every password as it was.

    >>> hasher_from_environment("2,19456,1").memory_cost  # OWASP's minimum for argon2id
    19456
    >>> hasher_from_environment("3,4,1")
    Traceback (most recent call last):
    ValueError: PELISALI_ARGON2: passes, KiB and lanes, such as 3,65536,4 ...
    """
    setting = os.environ.get("PELISALI_ARGON2", "") if setting is None else setting
    if not setting.strip():
        return PasswordHasher()
    try:
        passes, kib, lanes = (int(part) for part in setting.split(","))
    except ValueError:
        passes = kib = lanes = 0
    if passes < 1 or lanes < 1 or kib < 8 * lanes:
        raise ValueError("PELISALI_ARGON2: passes, KiB and lanes, such as 3,65536,4 "
                         "(at least 1 pass, 1 lane and 8 KiB a lane)")
    return PasswordHasher(time_cost=passes, memory_cost=kib, parallelism=lanes)


_HASHER = hasher_from_environment()
_POOL = ThreadPoolExecutor(max_workers=PASSWORD_THREADS, thread_name_prefix="argon2")
# Checked against when a name has no login, so that an unknown name costs the same.
_NOBODY = _HASHER.hash(secrets.token_urlsafe(16))
# A device id as the server makes them (token_urlsafe(24): 32 characters), or a little
# longer or shorter; anything else a browser sends is not ours and gets a new one.
_DEVICE = re.compile(r"^[A-Za-z0-9_-]{22,64}$")


class AuthError(LedgerError):
    """A login or session refused."""


@dataclass(frozen=True)
class Login:
    """Who a session belongs to: a login's name and its role (player or staff)."""

    name: str
    role: str
    # when this session logged in (None: not told); not part of who it is
    since: datetime | None = field(default=None, compare=False, repr=False)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_password(password: str, name: str = "") -> None:
    """Refused: a password too weak to keep for login ``name``
    (:func:`pelisali.platform.passwords.weakness`: NIST SP 800-63B)."""
    reason = weakness(password, name)
    if reason is not None:
        raise Refused(reason)


def hash_password(password: str, name: str = "") -> str:
    """The argon2 hash of ``password`` for login ``name``, made on the password threads
    (call it outside any transaction); a weak password is refused first."""
    check_password(password, name)
    return _POOL.submit(_HASHER.hash, password).result()


def password_matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was hashed from (None: no such login,
    checked as long as a real one), on the password threads, outside any transaction."""
    def verify() -> bool:
        try:
            return _HASHER.verify(stored or _NOBODY, password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False

    matches = _POOL.submit(verify).result()
    if not matches:
        metrics.LOGIN_FAILURES.inc()
    return matches


def add_login(session: Session, name: str, password: str, role: str,
              actor: str = "system", *, hashed: str | None = None) -> None:
    """A login for ``name`` (a registered player, or a staff member); ``hashed`` is the
    password's hash made beforehand (:func:`hash_password`), else it is made here."""
    if role not in ROLES:
        raise Refused(f"role {role!r}: player or staff")
    check_password(password, name)
    if session.scalars(select(Credential).where(Credential.name == name)).one_or_none():
        raise Refused(f"a login called {name!r} exists")
    session.add(Credential(name=name, role=role,
                           password_hash=hashed or _HASHER.hash(password),
                           created_at=now_utc()))
    session.flush()
    append_audit(session, actor, "login-added", {"name": name, "role": role})


def stored_hash(session: Session, name: str) -> str | None:
    """The password hash of login ``name``, None if there is no such login."""
    return session.scalars(select(Credential.password_hash)
                           .where(Credential.name == name)).one_or_none()


def log_in(session: Session, name: str, password: str) -> str:
    """A new session token for a correct name and password (the check inside this
    transaction: the command line's way; the server checks first, then
    :func:`start_session`)."""
    if not password_matches(stored_hash(session, name), password):
        raise AuthError("wrong name or password")
    return start_session(session, name)


def new_device() -> str:
    """A new device id for a browser's device cookie: 24 random bytes, URL-safe."""
    return secrets.token_urlsafe(24)


def valid_device(value: str | None) -> TypeGuard[str]:
    """Whether ``value`` (a device cookie as a browser sent it) has a device id's form.

    >>> valid_device(new_device()), valid_device("x"), valid_device("a b" * 10)
    (True, False, False)
    """
    return value is not None and _DEVICE.match(value) is not None


def device_digest(device: str) -> str:
    """What is kept of a device id: its SHA-256."""
    return hashlib.sha256(device.encode()).hexdigest()


def client_address(host: str | None) -> str | None:
    """A client's address as it is kept: an IP address in its normal form (an IPv4
    address inside IPv6 as IPv4), or None for anything else.

    >>> client_address("10.0.0.1"), client_address("::ffff:10.0.0.1"), client_address("x")
    ('10.0.0.1', '10.0.0.1', None)
    """
    try:
        found = ipaddress.ip_address((host or "").strip())
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return str(found.ipv4_mapped)
    return str(found)


def start_session(session: Session, name: str, device: str | None = None,
                  address: str | None = None) -> str:
    """A new session token for login ``name``, whose password was checked; the log-in is
    kept with the ``device`` id (if it has a device id's form) and the client's
    ``address`` (if it is an IP address)."""
    found = session.scalars(select(Credential).where(Credential.name == name)).one_or_none()
    if found is None:
        raise AuthError("wrong name or password")
    token = secrets.token_urlsafe(32)
    now = now_utc()
    session.add(WebSession(token_hash=_digest(token), name=found.name, role=found.role,
                           created_at=now, expires_at=now + timedelta(hours=SESSION_HOURS)))
    session.add(LogIn(name=found.name, role=found.role,
                      device=device_digest(device) if valid_device(device) else None,
                      address=client_address(address), at=now))
    session.flush()
    return token


def who(session: Session, token: str | None) -> Login:
    """The login a session token belongs to, if it is still valid."""
    if not token:
        raise AuthError("not logged in")
    found = session.get(WebSession, _digest(token))
    if found is None or found.expires_at <= now_utc():
        raise AuthError("not logged in")
    return Login(found.name, found.role, found.created_at)


def log_out(session: Session, token: str | None) -> None:
    """End the session of ``token`` (nothing, if there is none)."""
    if token:
        session.execute(delete(WebSession).where(WebSession.token_hash == _digest(token)))
