"""Logins, sessions and rate limits for the server.

The logins and sessions are the platform's (:mod:`pelisali.platform.logins`, named
here too for the server's callers); a session's token travels in the :data:`COOKIE`.
Only a staff session reaches the staff endpoints. What this module adds is the rate
limit the server puts on login attempts and on slips.

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

import threading
import time
from collections import deque

from pelisali.platform.logins import (
    MIN_PASSWORD,
    ROLES,
    SESSION_HOURS,
    AuthError,
    Login,
    add_login,
    log_in,
    log_out,
    who,
)

COOKIE = "pelisali_session"


class RateLimit:
    """At most ``count`` events per ``seconds`` for each key (a login name and address,
    a player's bets), counted in this process.

    >>> limit = RateLimit(2, 60)
    >>> [limit.allow("ann") for _ in range(3)]
    [True, True, False]
    """

    def __init__(self, count: int, seconds: float) -> None:
        self.count, self.seconds = count, seconds
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        with self._lock:
            seen = self._seen.setdefault(key, deque())
            while seen and seen[0] <= now - self.seconds:
                seen.popleft()
            if len(seen) >= self.count:
                return False
            seen.append(now)
            return True


__all__ = ["COOKIE", "MIN_PASSWORD", "ROLES", "SESSION_HOURS", "AuthError", "Login",
           "RateLimit", "add_login", "log_in", "log_out", "who"]
