"""What the server does against hostile clients before a request reaches a route: the
allowed origins of every state-changing request and WebSocket handshake (a forged
cross-site request is refused), the size of a request's body (413 before it is read
whole), and the headers that keep the browser client from being framed, sniffed or
fed foreign scripts. The limits of the table sockets are here too, as settings
(:class:`Security`), and are applied by :mod:`pelisali.server.sockets`.

>>> from fastapi import FastAPI
>>> from fastapi.testclient import TestClient
>>> app = FastAPI()
>>> _ = app.post("/x")(lambda: {"ok": True})
>>> app.add_middleware(Guard, security=Security(allowed_origins=frozenset()))
>>> client = TestClient(app)
>>> client.post("/x", headers={"Origin": "https://evil.example"}).status_code
403
>>> client.post("/x", headers={"Origin": "http://testserver"}).status_code
200
>>> client.post("/x", content=b"x" * 70_000).status_code
413
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException

__all__ = ["HEADERS", "Guard", "Security", "origin_allowed"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
# The browser client is ES modules and a stylesheet of its own: nothing inline, nothing
# from elsewhere, never in a frame (clickjacking), sockets to this server only.
HEADERS = {
    "content-security-policy": ("default-src 'self'; script-src 'self'; style-src 'self'; "
                                "img-src 'self' data:; connect-src 'self'; "
                                "object-src 'none'; base-uri 'none'; form-action 'self'; "
                                "frame-ancestors 'none'"),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


def _flag(value: str | None, default: bool) -> bool:
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on", "always")


@dataclass(frozen=True)
class Security:
    """The server's limits against hostile clients, each a setting.

    - ``allowed_origins``: the origins (``https://casino.example``) besides the server's
      own from which a browser may change anything or open a table socket;
    - ``secure_cookies``: the session cookie is ``Secure`` on every answer (else only
      on answers to requests that came over HTTPS);
    - ``max_body``: the largest request body, in bytes;
    - ``ws_max_message``: the largest socket message, in bytes;
    - ``ws_rate``: messages a second one socket may send, and ``ws_account_rate`` all
      the sockets of one player together; past three times the socket's rate in a
      second the socket is closed;
    - ``ws_max_sockets``: the sockets one player may hold open at once (in a process);
    - ``hello_resend``: the most events a ``hello`` is sent again (a client further
      behind is told to reload the table);
    - ``login_failures_per_name``, ``login_failures_per_address``, ``login_failures``:
      the failed logins of a quarter of an hour past which each try waits, longer
      after each failure (:class:`~pelisali.server.auth.LoginGuard`);
    - ``registrations_per_address`` (an hour) and ``registrations_per_minute`` (from
      everywhere): new accounts. A hall whose terminals share one address raises the
      first.
    """

    allowed_origins: frozenset[str] = field(default_factory=frozenset)
    secure_cookies: bool = False
    max_body: int = 64 * 1024
    ws_max_message: int = 8 * 1024
    ws_rate: int = 10
    ws_account_rate: int = 30
    ws_max_sockets: int = 8
    hello_resend: int = 200
    login_failures_per_name: int = 5
    login_failures_per_address: int = 20
    login_failures: int = 300
    registrations_per_address: int = 10
    registrations_per_minute: int = 60

    @classmethod
    def from_environment(cls, host: str | None = None) -> Security:
        """The settings from ``PELISALI_ALLOWED_ORIGINS`` (comma-separated),
        ``PELISALI_SECURE_COOKIES`` (on by default when the server listens on an
        address other than this machine's own, ``host``), ``PELISALI_MAX_BODY``,
        ``PELISALI_WS_MAX_MESSAGE``, ``PELISALI_WS_RATE``, ``PELISALI_WS_ACCOUNT_RATE``,
        ``PELISALI_WS_MAX_SOCKETS``, ``PELISALI_HELLO_RESEND``,
        ``PELISALI_LOGIN_FAILURES_PER_NAME``, ``PELISALI_LOGIN_FAILURES_PER_ADDRESS``,
        ``PELISALI_LOGIN_FAILURES``, ``PELISALI_REGISTRATIONS_PER_ADDRESS`` and
        ``PELISALI_REGISTRATIONS_PER_MINUTE``.

        >>> Security.from_environment("0.0.0.0").secure_cookies
        True
        """
        env = os.environ
        origins = frozenset(o.strip().rstrip("/") for o in
                            env.get("PELISALI_ALLOWED_ORIGINS", "").split(",") if o.strip())
        default = cls()

        def number(name: str, value: int) -> int:
            return int(env.get(name, value))

        return cls(
            allowed_origins=origins,
            secure_cookies=_flag(env.get("PELISALI_SECURE_COOKIES"),
                                 host is not None and host not in LOCAL_HOSTS),
            max_body=number("PELISALI_MAX_BODY", default.max_body),
            ws_max_message=number("PELISALI_WS_MAX_MESSAGE", default.ws_max_message),
            ws_rate=number("PELISALI_WS_RATE", default.ws_rate),
            ws_account_rate=number("PELISALI_WS_ACCOUNT_RATE", default.ws_account_rate),
            ws_max_sockets=number("PELISALI_WS_MAX_SOCKETS", default.ws_max_sockets),
            hello_resend=number("PELISALI_HELLO_RESEND", default.hello_resend),
            login_failures_per_name=number("PELISALI_LOGIN_FAILURES_PER_NAME",
                                           default.login_failures_per_name),
            login_failures_per_address=number("PELISALI_LOGIN_FAILURES_PER_ADDRESS",
                                              default.login_failures_per_address),
            login_failures=number("PELISALI_LOGIN_FAILURES", default.login_failures),
            registrations_per_address=number("PELISALI_REGISTRATIONS_PER_ADDRESS",
                                             default.registrations_per_address),
            registrations_per_minute=number("PELISALI_REGISTRATIONS_PER_MINUTE",
                                            default.registrations_per_minute))


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def origin_allowed(scope: Scope, security: Security) -> str | None:
    """Why the request's ``Origin`` may not change anything here, or None: it is the
    server's own (its host as the request names it) or an allowed one. A request with
    no ``Origin`` is not a browser's cross-site one (browsers send it on every POST and
    socket) and is let through: an API client's.

    >>> scope = {"headers": [(b"host", b"casino.example"), (b"origin", b"https://casino.example")]}
    >>> origin_allowed(scope, Security()) is None
    True
    >>> origin_allowed({"headers": [(b"host", b"casino.example"), (b"origin", b"null")]},
    ...                Security())
    "origin 'null' is not allowed here"
    """
    origin = _header(scope, b"origin")
    if origin is None:
        return None
    origin = origin.strip().rstrip("/")
    if origin in security.allowed_origins:
        return None
    host = _header(scope, b"host")
    parts = urlsplit(origin)
    if host and parts.scheme in ("http", "https") and parts.netloc == host:
        return None
    return f"origin {origin[:100]!r} is not allowed here"


class _TooLarge(HTTPException):
    """A body past the limit, found while it is read: FastAPI passes an HTTPException
    on as it is (any other failure to read a body it answers with 400)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"a request body is at most {limit} bytes")


class Guard:
    """ASGI middleware: the origin of changing requests and socket handshakes, the body
    limit, and the security headers on every answer."""

    def __init__(self, app: ASGIApp, security: Security) -> None:
        self.app, self.security = app, security

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            refused = origin_allowed(scope, self.security)
            if refused is not None:  # closed before it is accepted: the handshake fails
                await send({"type": "websocket.close", "code": 4403, "reason": refused})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("method") in CHANGING:
            refused = origin_allowed(scope, self.security)
            if refused is not None:
                await _answer(send, 403, refused)
                return
        length = _header(scope, b"content-length")
        limit = self.security.max_body
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _answer(send, 413, f"a request body is at most {limit} bytes")
            return
        received = 0
        started = False

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:  # a chunked body that grows past the limit
                    raise _TooLarge(limit)
            return message

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                present = {bytes(k).lower() for k, _ in headers}
                headers += [(k.encode(), v.encode()) for k, v in HEADERS.items()
                            if k.encode() not in present]
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, counted, with_headers)
        except _TooLarge:
            if not started:
                await _answer(with_headers, 413, f"a request body is at most {limit} bytes")


async def _answer(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            *((k.encode(), v.encode()) for k, v in HEADERS.items())]})
    await send({"type": "http.response.body", "body": body})
