"""``pelisali account|wallet|ledger|audit|db``: the persistent platform at the terminal.

The database is ``PELISALI_DATABASE_URL`` or ``pelisali.db`` in the working
directory; every command brings the schema up to date first.
"""

from __future__ import annotations

import uuid
from datetime import date
from typing import Annotated

import typer
from rich.table import Table as RichTable
from sqlalchemy import Engine, select

from pelisali.cli.common import console, fail
from pelisali.money import MoneyError, format_cents, parse_amount
from pelisali.platform import accounts
from pelisali.platform.db import database_url, make_engine, transaction, upgrade
from pelisali.platform.ledger import LedgerError, balance, check, now_utc, verify_audit
from pelisali.platform.models import Transfer

account_app = typer.Typer(help="Players: create, show, limits, self-exclusion, staff status.",
                          no_args_is_help=True)
wallet_app = typer.Typer(help="A player's wallet: deposit, withdraw, balance.",
                         no_args_is_help=True)
ledger_app = typer.Typer(help="The double-entry ledger.", no_args_is_help=True)
audit_app = typer.Typer(help="The hash-chained audit log.", no_args_is_help=True)
db_app = typer.Typer(help="The database schema.", no_args_is_help=True)


def _engine() -> Engine:
    engine = make_engine()
    try:
        upgrade(engine)
    except Exception as exc:  # the database is unreachable or not ours
        fail(f"database {database_url()}: {exc}")
    return engine


def _cents(text: str) -> int:
    try:
        return parse_amount(text)
    except MoneyError as exc:
        fail(str(exc))


def _key(key: str | None) -> str:
    return key or f"cli-{uuid.uuid4()}"


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Create or migrate the schema (Alembic) to the newest revision."""
    _engine()
    console.print(f"database {database_url()} is up to date")


@account_app.command("create")
def account_create(
    name: Annotated[str, typer.Argument(help="the player's name")],
    born: Annotated[str, typer.Option(help="date of birth, YYYY-MM-DD")],
    country: Annotated[str, typer.Option(help="country of residence, ISO code (FI, SE)")],
) -> None:
    """Register a player; under-18s and restricted countries are refused."""
    try:
        birth = date.fromisoformat(born)
    except ValueError:
        fail(f"--born takes YYYY-MM-DD, not {born!r}")
    try:
        with transaction(_engine()) as session:
            player = accounts.register(session, name, birth, country)
            console.print(f"player {player.name} registered, wallet player:{player.name}")
    except LedgerError as exc:
        fail(str(exc))


@account_app.command("show")
def account_show(name: Annotated[str, typer.Argument()]) -> None:
    """A player's status, exclusion, limits and balance."""
    try:
        with transaction(_engine()) as session:
            player = accounts.find(session, name)
            table = RichTable(title=f"player {name}")
            table.add_column("")
            table.add_column("")
            table.add_row("born", player.born.isoformat())
            table.add_row("country", player.country)
            table.add_row("status", player.status + (f" ({player.status_reason})"
                                                     if player.status_reason else ""))
            exclusion = ("for good" if player.excluded_forever else
                         f"until {player.excluded_until:%Y-%m-%d %H:%M} UTC"
                         if accounts.excluded(player, now_utc()) else "none")
            table.add_row("self-exclusion", exclusion)
            for kind in accounts.LIMIT_KINDS:
                for period in accounts.PERIODS:
                    limit = accounts.current_limit(session, player, kind, period)
                    table.add_row(f"{kind} limit a {period}",
                                  "none" if limit is None else format_cents(limit))
            table.add_row("balance", format_cents(balance(session, accounts.wallet_code(name))))
            console.print(table)
    except LedgerError as exc:
        fail(str(exc))


@account_app.command("limit")
def account_limit(
    name: Annotated[str, typer.Argument()],
    kind: Annotated[str, typer.Option(help="deposit or loss")],
    period: Annotated[str, typer.Option(help="day, week or month")],
    amount: Annotated[str, typer.Option(help="euros, e.g. 50 or 12.50; 'none' removes it")],
) -> None:
    """Set a limit: lower takes effect at once, higher after the cooling-off time."""
    cents = None if amount == "none" else _cents(amount)
    try:
        with transaction(_engine()) as session:
            when = accounts.set_limit(session, name, kind, period, cents)
    except LedgerError as exc:
        fail(str(exc))
    console.print(f"{name}: {kind} limit a {period} "
                  f"{'removed' if cents is None else format_cents(cents)}, "
                  f"in effect from {when:%Y-%m-%d %H:%M} UTC")


@account_app.command("exclude")
def account_exclude(
    name: Annotated[str, typer.Argument()],
    days: Annotated[int | None, typer.Option(help="days; leave out with --forever")] = None,
    forever: Annotated[bool, typer.Option("--forever", help="for good")] = False,
) -> None:
    """Self-exclusion for a period or for good; it cannot be shortened."""
    if (days is None) == (not forever):
        fail("give --days N or --forever")
    try:
        with transaction(_engine()) as session:
            accounts.exclude(session, name, None if forever else days)
    except LedgerError as exc:
        fail(str(exc))
    console.print(f"{name} is self-excluded {'for good' if forever else f'for {days} days'}")


@account_app.command("status")
def account_status(
    name: Annotated[str, typer.Argument()],
    status: Annotated[str, typer.Option(help="active, restricted or barred")],
    reason: Annotated[str, typer.Option(help="why")],
    staff: Annotated[str, typer.Option(help="the staff member acting")],
) -> None:
    """Staff restrict or bar a player (RAY 1.1), or make them active again."""
    try:
        with transaction(_engine()) as session:
            accounts.set_status(session, name, status, reason, staff)
    except LedgerError as exc:
        fail(str(exc))
    console.print(f"{name} is {status}: {reason} ({staff})")


@wallet_app.command("deposit")
def wallet_deposit(
    name: Annotated[str, typer.Argument()],
    amount: Annotated[str, typer.Argument(help="euros, e.g. 100 or 12.50")],
    key: Annotated[str | None, typer.Option(help="idempotency key; a retry is applied once")]
    = None,
    staff: Annotated[str, typer.Option(help="who takes the money in")] = "cashier",
) -> None:
    """Money in, within the player's deposit limits."""
    cents = _cents(amount)
    try:
        with transaction(_engine()) as session:
            wallet = accounts.deposit(session, name, cents, _key(key), actor=staff)
            console.print(f"{name}: deposited {format_cents(cents)}, "
                          f"balance {format_cents(wallet.balance)}")
    except LedgerError as exc:
        fail(str(exc))


@wallet_app.command("withdraw")
def wallet_withdraw(
    name: Annotated[str, typer.Argument()],
    amount: Annotated[str, typer.Argument(help="euros")],
    key: Annotated[str | None, typer.Option(help="idempotency key")] = None,
    staff: Annotated[str, typer.Option(help="who pays the money out")] = "cashier",
) -> None:
    """Money out; never more than the balance."""
    cents = _cents(amount)
    try:
        with transaction(_engine()) as session:
            wallet = accounts.withdraw(session, name, cents, _key(key), actor=staff)
            console.print(f"{name}: withdrew {format_cents(cents)}, "
                          f"balance {format_cents(wallet.balance)}")
    except LedgerError as exc:
        fail(str(exc))


@wallet_app.command("balance")
def wallet_balance(name: Annotated[str, typer.Argument()]) -> None:
    """The balance and the last transfers of a wallet."""
    try:
        with transaction(_engine()) as session:
            player = accounts.find(session, name)
            console.print(f"{name}: {format_cents(balance(session, accounts.wallet_code(name)))}")
            rows = session.scalars(
                select(Transfer).where((Transfer.source_id == player.account_id)
                                       | (Transfer.target_id == player.account_id))
                .order_by(Transfer.id.desc()).limit(10)).all()
            for row in rows:
                sign = "+" if row.target_id == player.account_id else "-"
                console.print(f"  {row.created_at:%Y-%m-%d %H:%M} {row.kind:12s} "
                              f"{sign}{format_cents(row.amount)} {row.reason}")
    except LedgerError as exc:
        fail(str(exc))


@ledger_app.command("check")
def ledger_check() -> None:
    """Prove the ledger: all accounts sum to zero, every balance equals its transfers,
    no balance but the external ones is negative."""
    with transaction(_engine()) as session:
        report = check(session)
    console.print(f"{report.accounts} accounts, {report.transfers} transfers, "
                  f"sum {report.total}")
    if not report.ok:
        for problem in report.problems:
            console.print(f"[red]{problem}[/]")
        raise typer.Exit(1)
    console.print("ledger OK")


@audit_app.command("verify")
def audit_verify() -> None:
    """Recompute the audit chain; any edited, removed or inserted entry breaks it."""
    with transaction(_engine()) as session:
        report = verify_audit(session)
    console.print(f"{report.entries} audit entries")
    if not report.ok:
        for problem in report.problems[:20]:
            console.print(f"[red]{problem}[/]")
        raise typer.Exit(1)
    console.print("audit chain OK")
