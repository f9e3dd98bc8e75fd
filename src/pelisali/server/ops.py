"""What an operator's on-call reads: liveness, readiness, metrics, and a JSON log line
for every request with its id.

- ``GET /healthz``: the process answers (200).
- ``GET /readyz``: the process can serve: the database answers, the bus carries the
  tables' events, and the tables this process runs; 503 with the reason when not.
- ``GET /metrics``: Prometheus's text format: the platform's counters
  (:mod:`pelisali.platform.metrics`), each request's latency by route, and this
  process's tables, their age and the rounds open in the database.
- :class:`RequestLog`: a request id for each request (the client's ``X-Request-ID``
  when it is a sane one, else a new one), answered in ``X-Request-ID`` and carried by
  every log line written while the request runs, with the table it concerns.
"""

from __future__ import annotations

import contextvars
import logging
import os
import re
import time
import uuid
from collections.abc import Iterable
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from pythonjsonlogger.json import JsonFormatter
from sqlalchemy import text
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pelisali.platform import queries
from pelisali.server.bus import LocalBus
from pelisali.server.dependencies import AppState
from pelisali.server.state import ServerState

__all__ = ["RequestLog", "configure_logging", "router", "table_collector"]

log = logging.getLogger("pelisali.server")
REQUEST_ID: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")
TABLE: contextvars.ContextVar[str] = contextvars.ContextVar("table", default="")
REQUEST_SECONDS = Histogram(
    "pelisali_request_seconds", "Time to answer an HTTP request", ["route", "method", "status"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5))
_SANE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")

router = APIRouter(tags=["operations"])


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """The process is alive."""
    return {"status": "ok"}


@router.get("/readyz")
def readyz(state: AppState) -> JSONResponse:
    """Ready to serve: the database answers, the bus carries events; with the tables
    this process runs. 503 and the failing part when not."""
    problems: dict[str, str] = {}
    try:
        with state.db() as session:
            session.execute(text("select 1"))
    except Exception as exc:  # any failure to reach the database is a reason not to serve
        problems["database"] = f"{type(exc).__name__}: {exc}"[:200]
    tables = {name: {"token": lease.token, "seconds_left": round(lease.seconds_left(), 1)}
              for name, lease in sorted(state.leases.items())}
    bus = ("in-process" if isinstance(state.bus, LocalBus)
           else "ok" if state.bus.connected and state.bus_up else "down")
    if bus == "down":
        problems["bus"] = "the message bus cannot be reached"
    body: dict[str, Any] = {"status": "not ready" if problems else "ready",
                            "database": problems.get("database", "ok"),
                            "bus": bus, "tables": tables, "process": state.owner}
    return JSONResponse(body, status_code=503 if problems else 200)


@router.get("/metrics")
def metrics(state: AppState) -> Response:
    """The platform's and this process's metrics, in Prometheus's text format; with
    several worker processes (``PROMETHEUS_MULTIPROC_DIR``), the platform's counted
    over all of them."""
    shared = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        shared = CollectorRegistry()
        multiprocess.MultiProcessCollector(shared)  # type: ignore[no-untyped-call]
    body = generate_latest(shared) + generate_latest(state.metrics)
    return Response(body, media_type=CONTENT_TYPE_LATEST)


class _Tables(Collector):
    """This process's tables (live and poker rooms) and how long it has run each; the
    rounds open in the database."""

    def __init__(self, state: ServerState) -> None:
        self.state = state

    def collect(self) -> Iterable[GaugeMetricFamily]:
        owned = GaugeMetricFamily("pelisali_tables_run", "Tables this process runs",
                                  labels=["table", "kind"])
        age = GaugeMetricFamily("pelisali_table_run_seconds",
                                "How long this process has run the table",
                                labels=["table"])
        now = self.state.clock.now()
        for kind, rooms in (("live", self.state.live_rooms), ("poker", self.state.poker_rooms)):
            for name in rooms:
                owned.add_metric([name, kind], 1)
                age.add_metric([name], now - self.state.opened_at.get(name, now))
        yield owned
        yield age
        open_rounds = GaugeMetricFamily("pelisali_open_rounds",
                                        "Rounds open in the database, by status",
                                        labels=["status"])
        try:
            with self.state.db() as session:
                counts = queries.open_round_counts(session)
        except Exception:  # the database is down: /readyz says so; the gauge is left out
            return
        for status, number in counts.items():
            open_rounds.add_metric([status], number)
        yield open_rounds


def table_collector(state: ServerState) -> CollectorRegistry:
    """A registry of its own for one application's tables (two applications in one
    process share nothing)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Tables(state))
    return registry


class _Context(logging.Filter):
    """Puts the request id and the table on every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        record.table = TABLE.get()
        return True


def configure_logging(level: str = "info", json_lines: bool = True) -> None:
    """The server's logs on standard error: one JSON object a line (time, level, logger,
    message, request_id, table and what the line adds), or plain text."""
    handler = logging.StreamHandler()
    handler.addFilter(_Context())
    handler.setFormatter(
        JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s %(table)s",
                      rename_fields={"asctime": "time", "levelname": "level",
                                     "name": "logger"})
        if json_lines else
        logging.Formatter("%(asctime)s %(levelname)s %(name)s [%(request_id)s %(table)s] "
                          "%(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


class RequestLog:
    """ASGI middleware: each HTTP request's id, its latency by route, one log line."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers", [])).get(b"x-request-id", b"").decode("latin-1")
        request_id = given if _SANE_ID.fullmatch(given) else uuid.uuid4().hex
        id_token, table_token = REQUEST_ID.set(request_id), TABLE.set("")
        started = time.perf_counter()
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []),
                                      (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            took = time.perf_counter() - started
            route = getattr(scope.get("route"), "path", "unmatched")
            name = scope.get("path_params", {}).get("name", "")
            if name:
                TABLE.set(str(name))
            if scope["type"] == "http":
                REQUEST_SECONDS.labels(route, scope["method"], str(status)).observe(took)
            log.info("%s %s", scope.get("method", "WS"), scope["path"], extra={
                "status": status, "route": route, "ms": round(took * 1000, 2)})
            REQUEST_ID.reset(id_token)
            TABLE.reset(table_token)
