"""Requests that meet another in the database are tried again, not failed.

Two requests that lock the same rows in a different order, a serialization failure, a
connection the database dropped: each is a transient failure
(:func:`pelisali.platform.db.transient`), its transaction rolled back whole. Every
route of the API is a :class:`RetryingRoute`, which runs the request again, dependencies
and all, after a short jittered wait; money moves carry idempotency keys, so a retried
request that did commit part of its work finds it done. After
:data:`~pelisali.platform.db.RETRIES` tries the client gets 503 with the reason and a
``Retry-After``, never a 500. A refused body is answered 422 in JSON whatever it held
(:class:`~pelisali.server.json_safe.JsonSafeRoute`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.responses import JSONResponse

from pelisali.platform.db import RETRIES, DatabaseBusy, retry_wait, transient
from pelisali.platform.metrics import DB_RETRIES
from pelisali.server.json_safe import JsonSafeRoute

__all__ = ["RetryingRoute", "busy"]


class RetryingRoute(JsonSafeRoute):
    """An API route tried again after a transient database failure."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def handle(request: Request) -> Response:
            for attempt in range(1, RETRIES + 1):
                try:
                    return await handler(request)
                except Exception as exc:
                    reason = transient(exc)
                    if reason is None:
                        raise
                    if attempt == RETRIES:
                        raise DatabaseBusy(f"{reason}; try again") from exc
                    DB_RETRIES.labels(reason).inc()
                    await asyncio.sleep(retry_wait(attempt))
            raise AssertionError("unreachable")

        return handle


async def busy(_: Request, exc: Exception) -> JSONResponse:
    """503 with the reason: the database could not take the request now."""
    reason = str(exc) if isinstance(exc, DatabaseBusy) else f"{transient(exc)}; try again"
    return JSONResponse({"detail": f"the server is busy: {reason}"}, status_code=503,
                        headers={"Retry-After": "1"})
