"""``pelisali serve`` and the logins it checks: the server on the embedded SQLite default
(or ``PELISALI_DATABASE_URL``), and ``pelisali login add`` for staff and players."""

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
    log_level: Annotated[str, typer.Option(help="the log level: debug, info, warning")]
    = "info",
    log_format: Annotated[str, typer.Option(
        help="json: one JSON object a line, with each request's id; text: plain lines")]
    = "json",
) -> None:
    """Run the server and its browser client: http://HOST:PORT/."""
    import uvicorn

    from pelisali.server.app import create_app
    from pelisali.server.ops import configure_logging

    if min(live_window, live_pause, act_seconds) <= 0:
        fail("the windows and timers are positive numbers of seconds")
    if log_format not in ("json", "text") or log_level.lower() not in (
            "debug", "info", "warning", "error"):
        fail("--log-format json or text; --log-level debug, info, warning or error")
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
    console.print(f"Pelisali at http://{host}:{port}/ (OpenAPI at /docs)")
    uvicorn.run(create_app(engine, live_window=live_window, live_pause=live_pause,
                           act_seconds=act_seconds), host=host, port=port,
                log_level=log_level.lower(), log_config=None, access_log=False)


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
