"""OpenAPI links between the API's operations: what one answer gives the next request
(a round's number to its recall, a new table's name to its settings). Clients read them
in ``/openapi.json``; Schemathesis follows them to play whole scenarios against the
server (``tests/test_server_schema.py``).

>>> recall = link("/api/recall/{round_id}", "get",
...               parameters={"round_id": "$response.body#/round_id"})
>>> recall["operationRef"]
'#/paths/~1api~1recall~1{round_id}/get'
"""

from __future__ import annotations

from typing import Any

__all__ = ["link", "links"]


def link(path: str, method: str, *, parameters: dict[str, str] | None = None,
         request_body: Any = None) -> dict[str, Any]:
    """A link to the operation at ``path`` and ``method``: its ``parameters`` and
    ``request_body`` taken from this answer or request (runtime expressions)."""
    found: dict[str, Any] = {"operationRef": "#/paths/" + path.replace("~", "~0")
                             .replace("/", "~1") + "/" + method}
    if parameters:
        found["parameters"] = parameters
    if request_body is not None:
        found["requestBody"] = request_body
    return found


def links(status: int = 200, **named: dict[str, Any]) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route whose ``status`` answer leads to the ``named`` links."""
    return {status: {"description": "Successful Response", "links": named}}
