"""Logins, sessions and rate limits for the server.

The logins and sessions are the platform's (:mod:`pelisali.platform.logins`, named
here too for the server's callers); a session's token travels in the :data:`COOKIE`,
and a browser's device id (a random id the server gives it at its first log-in, kept
with every log-in for the linked-accounts monitoring) in :data:`DEVICE_COOKIE`.
Only a staff session reaches the staff endpoints. What this module adds is the rate
limits the server puts on slips and registrations (:class:`RateLimit`) and on failed
logins (:class:`LoginGuard`).

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
from collections.abc import Callable

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
DEVICE_COOKIE = "pelisali_device"
DEVICE_DAYS = 400  # the longest a browser keeps a cookie (RFC 6265bis caps it at 400 days)


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


class LoginGuard:
    """Failed logins, limited per name, per address and in all, with back-off.

    Each of the three counts the failures of the last ``window`` seconds. Past its
    allowance (``per_name``, ``per_address``, ``total``), a key's next try must wait
    ``base`` seconds after its last failure, twice as long after each further failure,
    ``longest`` at most: a password sprayed over many names from one address, one name
    tried from many addresses, and a flood from everywhere are each slowed down, while
    a player who mistypes a few times is not. A success forgets its name's failures
    (not its address's). ``now`` is the clock (seconds), injected for tests.

    >>> t = [0.0]
    >>> guard = LoginGuard(per_name=2, now=lambda: t[0])
    >>> for _ in range(3):
    ...     guard.failed("ann", "10.0.0.1")
    >>> guard.wait("ann", "10.0.0.2"), guard.wait("bob", "10.0.0.1")
    (2.0, 0.0)
    >>> t[0] = 2.0
    >>> guard.wait("ann", "10.0.0.2")
    0.0
    """

    def __init__(self, per_name: int = 5, per_address: int = 20, total: int = 300,
                 window: float = 900.0, base: float = 1.0, longest: float = 900.0,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.allowance = {"name": per_name, "address": per_address, "all": total}
        self.window, self.base, self.longest, self.now = window, base, longest, now
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    @staticmethod
    def _keys(name: str, address: str) -> list[tuple[str, str]]:
        return [("name", f"name:{name}"), ("address", f"address:{address}"), ("all", "all")]

    def _recent(self, key: str, now: float) -> deque[float]:
        seen = self._failures.setdefault(key, deque())
        while seen and seen[0] <= now - self.window:
            seen.popleft()
        return seen

    def wait(self, name: str, address: str) -> float:
        """Seconds before ``name`` may try to log in again from ``address`` (0: now)."""
        now = self.now()
        longest = 0.0
        with self._lock:
            for kind, key in self._keys(name, address):
                seen = self._recent(key, now)
                over = len(seen) - self.allowance[kind]
                if over >= 0 and seen:
                    pause = min(self.longest, self.base * 2 ** min(over, 30))
                    longest = max(longest, seen[-1] + pause - now)
        return max(0.0, longest)

    def failed(self, name: str, address: str) -> None:
        now = self.now()
        with self._lock:
            for _, key in self._keys(name, address):
                self._recent(key, now).append(now)

    def succeeded(self, name: str) -> None:
        with self._lock:
            self._failures.pop(f"name:{name}", None)


__all__ = ["COOKIE", "DEVICE_COOKIE", "DEVICE_DAYS", "MIN_PASSWORD", "ROLES", "SESSION_HOURS",
           "AuthError", "Login", "LoginGuard", "RateLimit", "add_login", "log_in", "log_out", "who"]
