"""A refused request body is answered 422 in JSON that parses, whatever the body held.

Python's JSON decoder reads ``NaN``, ``Infinity`` and ``1e400`` (as infinity), which
JSON has not. The schemas refuse them, but FastAPI's answer echoes each refused input,
and a non-finite float cannot be written as JSON: the answer itself failed, a 500 and
a reset connection. :class:`JsonSafeRoute` echoes such a number as the string that
spelled it; a body the decoder cannot read at all (bytes that are not UTF-8, a number
of more than 4,300 digits) is a 422 like any other malformed body, not FastAPI's 400.

>>> json_safe({"input": {"amount": float("nan")}, "loc": ("body", "amount")})
{'input': {'amount': 'NaN'}, 'loc': ('body', 'amount')}
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException  # what FastAPI raises (its own subclasses it)

__all__ = ["UNREADABLE", "JsonSafeRoute", "json_safe"]

UNREADABLE = "the body is not JSON the server can read: UTF-8 text, numbers of at most 4,300 digits"


def json_safe(value: Any) -> Any:
    """``value`` with each non-finite float as JSON's spelling of it, a string."""
    if isinstance(value, float) and not math.isfinite(value):
        return json.dumps(value)  # "NaN", "Infinity", "-Infinity"
    if isinstance(value, dict):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        items = [json_safe(item) for item in value]
        return items if isinstance(value, list) else tuple(items)
    return value


class JsonSafeRoute(APIRoute):
    """A route whose refusals of a body are 422 with a body that is JSON."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def handle(request: Request) -> Response:
            try:
                return await handler(request)
            except RequestValidationError as exc:
                raise RequestValidationError(json_safe(list(exc.errors())),
                                             body=json_safe(exc.body)) from exc
            except HTTPException as exc:
                # FastAPI's answer to a body its decoder raised on other than a syntax
                # error; the cause says which.
                if exc.status_code != 400 or not isinstance(exc.__cause__, ValueError):
                    raise
                raise RequestValidationError([{"type": "json_invalid", "loc": ("body",),
                                               "msg": UNREADABLE, "input": {}}]) from exc

        return handle
