"""``pelisali serve`` and the logins it checks: the server on the embedded SQLite default
(or ``PELISALI_DATABASE_URL``), and ``pelisali login add`` for staff and players.

``--workers N`` runs N processes on one port (uvicorn's workers); N ``pelisali serve``
processes on other ports behind any proxy work the same. Several processes need
PostgreSQL and a NATS bus (``--bus nats://127.0.0.1:4222``): each shared table is run
by one of them at a time and its events reach the sockets on all of them."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from pelisali.cli.common import console, fail
from pelisali.cli.platform import _session, open_database

login_app = typer.Typer(help="Logins for the server: players' and staff's.",
                        no_args_is_help=True)


def serve(
    host: Annotated[str, typer.Option(help="the address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="the port")] = 8000,
    live_window: Annotated[float, typer.Option(help="a live table's betting window, "
                                               "seconds")] = 15.0,
    live_pause: Annotated[float, typer.Option(help="how long a live result is shown, "
                                              "seconds")] = 4.0,
    act_seconds: Annotated[float, typer.Option(help="a poker player's time to act")] = 20.0,
    showdown_seconds: Annotated[float, typer.Option(
        help="how long a poker showdown stays before the next hand (at least 5)")] = 5.0,
    away_seconds: Annotated[float, typer.Option(
        help="a seated poker player away this long is sat out and cashed out")] = 120.0,
    log_level: Annotated[str, typer.Option(help="the log level: debug, info, warning")]
    = "info",
    log_format: Annotated[str, typer.Option(
        help="json: one JSON object a line, with each request's id; text: plain lines")]
    = "json",
    workers: Annotated[int, typer.Option(
        help="server processes on the port (more than one: PostgreSQL and a NATS bus)")]
    = 1,
    bus: Annotated[str, typer.Option(
        envvar="PELISALI_BUS",
        help="where shared tables' events go: local (one process) or nats://HOST:PORT")]
    = "local",
) -> None:
    """Run the server and its browser client: http://HOST:PORT/."""
    import uvicorn

    from pelisali.platform.db import database_url
    from pelisali.server.app import bus_of
    from pelisali.server.ops import configure_logging

    if min(live_window, live_pause, act_seconds, away_seconds) <= 0:
        fail("the windows and timers are positive numbers of seconds")
    if showdown_seconds < 5:
        fail("--showdown-seconds is at least 5: the hands shown stay that long")
    if log_format not in ("json", "text") or log_level.lower() not in (
            "debug", "info", "warning", "error"):
        fail("--log-format json or text; --log-level debug, info, warning or error")
    try:
        bus_of(bus)
    except ValueError as exc:
        fail(str(exc))
    if workers < 1:
        fail("--workers is at least 1")
    if workers > 1 and database_url().startswith("sqlite"):
        fail("SQLite serves one process: several workers need PostgreSQL "
             "(PELISALI_DATABASE_URL=postgresql+psycopg://...)")
    if workers > 1 and bus == "local":
        fail("several workers share their tables' events on a bus: --bus nats://HOST:PORT")
    configure_logging(log_level, json_lines=log_format == "json")
    engine = open_database()
    with _session() as session:
        from pelisali.platform.ledger import LedgerError, balance

        try:
            bank = balance(session, "house:bank")
        except LedgerError:
            bank = 0
    if bank <= 0:  # every payout would be refused: no credit, for the house too
        console.print("[yellow]the house bank is empty: fund it before players win "
                      "(pelisali house fund EUR --staff NAME)[/]")
    engine.dispose()
    console.print(f"Pelisali at http://{host}:{port}/ (OpenAPI at /docs)"
                  + (f", {workers} processes" if workers > 1 else ""))
    # Each worker process builds its server from the environment.
    os.environ.update({
        "PELISALI_DATABASE_URL": database_url(), "PELISALI_BUS": bus,
        "PELISALI_LIVE_WINDOW": str(live_window), "PELISALI_LIVE_PAUSE": str(live_pause),
        "PELISALI_ACT_SECONDS": str(act_seconds), "PELISALI_LOG_LEVEL": log_level,
        "PELISALI_SHOWDOWN_SECONDS": str(showdown_seconds),
        "PELISALI_AWAY_SECONDS": str(away_seconds),
        "PELISALI_LOG_FORMAT": log_format, "PELISALI_HOST": host})
    if workers > 1:
        _share_metrics()
    from pelisali.server.security import Security

    # A socket message past the limit is refused by uvicorn itself, before it is read.
    uvicorn.run("pelisali.server.app:from_environment", factory=True, workers=workers,
                host=host, port=port, log_level=log_level.lower(), log_config=None,
                access_log=False, timeout_graceful_shutdown=30,
                ws_max_size=Security.from_environment(host).ws_max_message)


def _share_metrics() -> None:
    """Let the workers' Prometheus metrics be read together from any of them
    (prometheus-client's multiprocess mode: a directory of their counters)."""
    import tempfile

    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="pelisali-metrics-")


@login_app.command("add")
def login_add(
    name: Annotated[str, typer.Argument()],
    role: Annotated[str, typer.Option(help="player (a registered player) or staff")] = "staff",
    staff: Annotated[str, typer.Option(help="who adds it, for the audit log")] = "system",
) -> None:
    """Add a login; the password is read from PELISALI_PASSWORD or asked for."""
    from pelisali.server.auth import add_login

    password = os.environ.get("PELISALI_PASSWORD") or typer.prompt(
        "password", hide_input=True, confirmation_prompt=True)
    if role == "player":
        from pelisali.platform import accounts

        with _session() as session:
            accounts.find(session, name)
    if role not in ("player", "staff"):
        fail("--role: player or staff")
    with _session() as session:
        add_login(session, name, password, role, actor=staff)
    console.print(f"{role} login {name} added")
