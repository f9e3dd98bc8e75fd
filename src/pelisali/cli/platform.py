"""``pelisali account|wallet|ledger|audit|db``: the persistent platform at the terminal.

The database is ``PELISALI_DATABASE_URL`` or ``pelisali.db`` in the working
directory; every command brings the schema up to date first.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table as RichTable

from pelisali.cli.common import console, euros, fail
from pelisali.money import format_cents

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlalchemy.orm import Session

    from pelisali.platform.aml import Case
    from pelisali.platform.bonus import Grant
    from pelisali.platform.models import Player

# SQLAlchemy and the platform are imported by the commands that open the database.

account_app = typer.Typer(help="Players: create, show, limits, self-exclusion, staff status.",
                          no_args_is_help=True)
wallet_app = typer.Typer(help="A player's wallet: deposit, withdraw, balance.",
                         no_args_is_help=True)
ledger_app = typer.Typer(help="The double-entry ledger.", no_args_is_help=True)
audit_app = typer.Typer(help="The hash-chained audit log.", no_args_is_help=True)
db_app = typer.Typer(help="The database schema.", no_args_is_help=True)


def open_database() -> Engine:
    """The database of ``PELISALI_DATABASE_URL``, migrated to the newest schema; an
    unreachable one ends the command with the reason."""
    from pelisali.platform.db import database_url, make_engine, upgrade

    engine = make_engine()
    try:
        upgrade(engine)
    except Exception as exc:  # the database is unreachable or not ours
        fail(f"database {database_url()}: {exc}")
    return engine


@contextmanager
def _session() -> Iterator[Session]:
    """One transaction on the database; a refusal is the command's error (exit 2) and
    changes nothing."""
    from pelisali.platform.db import transaction
    from pelisali.platform.ledger import LedgerError

    try:
        with transaction(open_database()) as session:
            yield session
    except LedgerError as exc:
        fail(str(exc))


def _key(key: str | None) -> str:
    return key or f"cli-{uuid.uuid4()}"


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Create or migrate the schema (Alembic) to the newest revision."""
    from pelisali.platform.db import database_url

    open_database()
    console.print(f"database {database_url()} is up to date")


@account_app.command("create")
def account_create(
    name: Annotated[str, typer.Argument(help="the player's name")],
    born: Annotated[str, typer.Option(help="date of birth, YYYY-MM-DD")],
    country: Annotated[str, typer.Option(help="country of residence, ISO code (FI, SE)")],
) -> None:
    """Register a player; under-18s and restricted countries are refused."""
    from pelisali.platform import accounts

    try:
        birth = date.fromisoformat(born)
    except ValueError:
        fail(f"--born takes YYYY-MM-DD, not {born!r}")
    with _session() as session:
        player = accounts.register(session, name, birth, country)
        console.print(f"player {player.name} registered, wallet player:{player.name}")


@account_app.command("show")
def account_show(name: Annotated[str, typer.Argument()]) -> None:
    """A player's status, exclusion, limits and balance."""
    from pelisali.platform import accounts
    from pelisali.platform.ledger import balance, now_utc

    with _session() as session:
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
        minutes = accounts.current_limit(session, player, accounts.SESSION, accounts.SESSION)
        table.add_row("session-time limit", "none" if minutes is None else f"{minutes} min")
        table.add_row("balance", format_cents(balance(session, accounts.wallet_code(name))))
        console.print(table)


@account_app.command("limit")
def account_limit(
    name: Annotated[str, typer.Argument()],
    kind: Annotated[str, typer.Option(help="deposit, loss or session (minutes a session)")],
    amount: Annotated[str, typer.Option(
        help="euros, e.g. 50 or 12.50 (minutes for a session limit); 'none' removes it")],
    period: Annotated[str, typer.Option(help="day, week or month (not for session)")] = "",
) -> None:
    """Set a limit: lower takes effect at once, higher after the cooling-off time."""
    from pelisali.platform import accounts

    session_limit = kind == accounts.SESSION
    if session_limit:
        period = period or accounts.SESSION
    elif not period:
        raise typer.BadParameter("--period day, week or month", param_hint="--period")
    try:
        value = None if amount == "none" else int(amount) if session_limit else euros(amount)
    except ValueError:
        raise typer.BadParameter(f"{amount!r}: whole minutes", param_hint="--amount") from None
    with _session() as session:
        when = accounts.set_limit(session, name, kind, period, value)
    shown = ("removed" if value is None else f"{value} min" if session_limit
             else format_cents(value))
    what = "session-time limit" if session_limit else f"{kind} limit a {period}"
    console.print(f"{name}: {what} {shown}, in effect from {when:%Y-%m-%d %H:%M} UTC")


@account_app.command("exclude")
def account_exclude(
    name: Annotated[str, typer.Argument()],
    days: Annotated[int | None, typer.Option(help="days; leave out with --forever")] = None,
    forever: Annotated[bool, typer.Option("--forever", help="for good")] = False,
) -> None:
    """Self-exclusion for a period or for good; it cannot be shortened."""
    from pelisali.platform import accounts

    if (days is None) == (not forever):
        fail("give --days N or --forever")
    with _session() as session:
        accounts.exclude(session, name, None if forever else days)
    console.print(f"{name} is self-excluded {'for good' if forever else f'for {days} days'}")


@account_app.command("status")
def account_status(
    name: Annotated[str, typer.Argument()],
    status: Annotated[str, typer.Option(help="active, restricted or barred")],
    reason: Annotated[str, typer.Option(help="why")],
    staff: Annotated[str, typer.Option(help="the staff member acting")],
) -> None:
    """Staff restrict or bar a player (RAY 1.1), or make them active again."""
    from pelisali.platform import accounts

    with _session() as session:
        accounts.set_status(session, name, status, reason, staff)
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
    from pelisali.platform import accounts

    cents = euros(amount)
    with _session() as session:
        wallet = accounts.deposit(session, name, cents, _key(key), actor=staff)
        console.print(f"{name}: deposited {format_cents(cents)}, "
                      f"balance {format_cents(wallet.balance)}")


@wallet_app.command("withdraw")
def wallet_withdraw(
    name: Annotated[str, typer.Argument()],
    amount: Annotated[str, typer.Argument(help="euros")],
    key: Annotated[str | None, typer.Option(help="idempotency key")] = None,
    staff: Annotated[str, typer.Option(help="who pays the money out")] = "cashier",
) -> None:
    """Money out; never more than the balance."""
    from pelisali.platform import accounts

    cents = euros(amount)
    with _session() as session:
        wallet = accounts.withdraw(session, name, cents, _key(key), actor=staff)
        console.print(f"{name}: withdrew {format_cents(cents)}, "
                      f"balance {format_cents(wallet.balance)}")


@wallet_app.command("balance")
def wallet_balance(name: Annotated[str, typer.Argument()]) -> None:
    """The balance and the last transfers of a wallet."""
    from sqlalchemy import select

    from pelisali.platform import accounts
    from pelisali.platform.ledger import balance
    from pelisali.platform.models import Transfer

    with _session() as session:
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


@ledger_app.command("check")
def ledger_check() -> None:
    """Prove the ledger: all accounts sum to zero, every balance equals its transfers,
    no balance but the external ones is negative, every round's bets add up to its
    stake and payout transfers, and every tournament's pool to its entries, overlay and
    prizes."""
    from pelisali.platform import leaderboard_tournaments
    from pelisali.platform.db import snapshot, transaction
    from pelisali.platform.ledger import check
    from pelisali.platform.rounds import reconcile_bets
    from pelisali.platform.tournaments import lobby, reconcile_all

    with transaction(open_database()) as session:
        snapshot(session)  # one moment of a ledger that may be taking bets meanwhile
        report = check(session)
        bets = reconcile_bets(session)
        tournaments = len(lobby(session)) + len(leaderboard_tournaments.lobby(session))
        pools = {**reconcile_all(session), **leaderboard_tournaments.reconcile_all(session)}
    console.print(f"{report.accounts} accounts, {report.transfers} transfers, "
                  f"sum {report.total}; bets of {bets.pairs} round-player pairs reconciled; "
                  f"{tournaments} tournaments reconciled")
    problems = [*report.problems, *bets.problems,
                *(p for found in pools.values() for p in found)]
    if problems:
        for problem in problems:
            console.print(f"[red]{problem}[/]")
        raise typer.Exit(1)
    console.print("ledger OK")


@audit_app.command("verify")
def audit_verify() -> None:
    """Recompute the audit chains; any edited, removed or inserted entry breaks one. The
    root printed is one hash over every chain's head: publish it daily to seal the day."""
    from pelisali.platform.db import transaction
    from pelisali.platform.ledger import verify_audit

    with transaction(open_database()) as session:
        report = verify_audit(session)
    console.print(f"{report.entries} audit entries; root {report.root}")
    if not report.ok:
        for problem in report.problems[:20]:
            console.print(f"[red]{problem}[/]")
        raise typer.Exit(1)
    console.print("audit chain OK")


table_app = typer.Typer(help="Tables and their rounds: create, void, recover.",
                        no_args_is_help=True)
house_app = typer.Typer(help="The house bank.", no_args_is_help=True)


@house_app.command("fund")
def house_fund(
    amount: Annotated[str, typer.Argument(help="euros")],
    staff: Annotated[str, typer.Option(help="who brings the money")],
    key: Annotated[str | None, typer.Option(help="idempotency key")] = None,
) -> None:
    """Put the owner's money in the house bank, from which wins are paid."""
    from pelisali.platform.ledger import balance, move

    cents = euros(amount)
    with _session() as session:
        move(session, _key(key), "external:owner", "house:bank", cents, "funding",
             actor=staff)
        console.print(f"house bank {format_cents(balance(session, 'house:bank'))}")


@table_app.command("create")
def table_create(
    name: Annotated[str, typer.Argument()],
    game: Annotated[str, typer.Option(help="roulette, boule, money-wheel, tuplanoppa, sic-bo, "
                                      "punto-banco, blackjack")],
    variant: Annotated[str | None, typer.Option(help="roulette version A-I")] = None,
    minimum: Annotated[str | None, typer.Option("--min", help="euros")] = None,
    maximum: Annotated[str | None, typer.Option("--max", help="euros")] = None,
    mode: Annotated[str, typer.Option(help="rng or live")] = "rng",
) -> None:
    """Open a table of any game but poker, with its limits."""
    from pelisali.platform.tables import create

    with _session() as session:
        table = create(session, name, game, variant,
                             limit_min=None if minimum is None else euros(minimum),
                             limit_max=None if maximum is None else euros(maximum),
                             mode=mode)
        console.print(f"table {table.name}: {table.game} {table.variant}, limits "
                      f"{format_cents(table.limit_min)}-{format_cents(table.limit_max)}")


@table_app.command("void")
def table_void(
    name: Annotated[str, typer.Argument()],
    reason: Annotated[str, typer.Option(help="mis-spin, device fault, ...")],
    staff: Annotated[str, typer.Option(help="who declares it")],
) -> None:
    """Void the round in play at any table: every stake goes back."""
    from pelisali.platform.tables import void

    with _session() as session:
        round_id = void(session, name, reason, staff)
    console.print(f"round {round_id} void: {reason}; every stake refunded")


@table_app.command("recover")
def table_recover(
    everything: Annotated[bool, typer.Option(
        "--all", help="finish every open round with bets (after a crash), not only those "
                      "past their 24-hour deadline")] = False,
) -> None:
    """Finish rounds left open with bets at every table, as their rules say, and forfeit
    the free-spin bonuses past their 72 hours (GGPoker RNG slots 5)."""
    from pelisali.platform import bonus
    from pelisali.platform.db import transaction
    from pelisali.platform.tables import recover

    with transaction(open_database()) as session:
        done = recover(session, everything=everything)
        gone = bonus.forfeit_expired(session, actor="recovery")
    for round_id, action in done:
        console.print(f"round {round_id}: {action}")
    console.print(f"{len(done)} round(s) finished")
    _print_forfeits(gone)


def _print_forfeits(gone: Sequence[Grant]) -> None:
    for grant in gone:
        console.print(f"bonus {grant.id} of {grant.player}: {format_cents(grant.amount)} € "
                      f"forfeited (wagered {format_cents(grant.wagered)} of "
                      f"{format_cents(grant.required)} € by {grant.deadline:%Y-%m-%d %H:%M} "
                      "UTC)")
    if gone:
        console.print(f"{len(gone)} bonus(es) forfeited")


bonus_app = typer.Typer(help="Free-spin bonuses: wagered within 72 hours or forfeited "
                             "(GGPoker RNG slots 5).", no_args_is_help=True)


@bonus_app.command("list")
def bonus_list(name: Annotated[str, typer.Argument(help="the player")],
               as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
               ) -> None:
    """A player's free-spin bonuses: granted, wagered, released or forfeited."""
    from pelisali.platform import bonus

    with _session() as session:
        found = bonus.grants(session, name)
        held = bonus.bonus_balance(session, name)
    if as_json:
        print(json.dumps({"player": name, "bonus_balance": held, "grants": [
            {"id": g.id, "round_id": g.round_id, "amount": g.amount, "required": g.required,
             "wagered": g.wagered, "status": g.status, "granted_at": g.granted_at.isoformat(),
             "deadline": g.deadline.isoformat(),
             "closed_at": g.closed_at.isoformat() if g.closed_at else None} for g in found]},
            indent=2))
        return
    table = RichTable("bonus", "round", "amount €", "wagered €", "required €", "status",
                  "deadline (UTC)")
    for g in found:
        table.add_row(str(g.id), str(g.round_id), format_cents(g.amount),
                      format_cents(g.wagered), format_cents(g.required), g.status,
                      f"{g.deadline:%Y-%m-%d %H:%M}")
    console.print(table)
    console.print(f"bonus balance {format_cents(held)} €")


@bonus_app.command("expire")
def bonus_expire() -> None:
    """Forfeit every free-spin bonus past its deadline, by an audited transfer to the
    house (the server's scheduler does this too)."""
    from pelisali.platform import bonus

    with _session() as session:
        gone = bonus.forfeit_expired(session, actor="operator")
    _print_forfeits(gone)
    if not gone:
        console.print("no bonus past its deadline")


def history_command(
    name: Annotated[str, typer.Argument(help="the player")],
    limit: Annotated[int, typer.Option(help="how many bets")] = 20,
) -> None:
    """A player's game history: every bet, its round, its result."""
    from pelisali.platform.rounds import history

    with _session() as session:
        rows = history(session, name, limit)
        table = RichTable(title=f"{name}: the last {len(rows)} bets")
        for column in ("round", "opened", "spot", "stake", "paid", "result", "status"):
            table.add_column(column)
        for round_row, bet in rows:
            table.add_row(str(round_row.id), f"{round_row.opened_at:%Y-%m-%d %H:%M}",
                          bet.spot, format_cents(bet.stake),
                          "" if bet.paid is None else format_cents(bet.paid),
                          bet.result or "", round_row.status)
        console.print(table)


def recall_command(round_id: Annotated[int, typer.Argument(help="the round number")]) -> None:
    """Replay a recorded round or poker hand through the engine and show it gives the same
    settlement."""
    from pelisali.platform.tables import recall

    with _session() as session:
        result = recall(session, round_id)
    game, same, problem = result.game, result.same, result.problem
    if game == "poker":
        table = RichTable(title=f"hand {round_id}: recorded and replayed")
        for column in ("what", "recorded", "replayed"):
            table.add_column(column)
        for key in sorted(set(result.recorded) | set(result.replayed)):
            table.add_row(key, str(result.recorded.get(key, "")),
                          str(result.replayed.get(key, "")))
        console.print(table)
    else:
        table = RichTable(title=f"round {round_id}: recorded and replayed")
        for column in ("bet", "player", "spot", "stake", "recorded", "replayed"):
            table.add_column(column)
        for old, new in zip(result.recorded, result.replayed, strict=False):
            table.add_row(str(old["bet_id"]), old["player"], old["spot"],
                          format_cents(old["stake"]),
                          f"{format_cents(old['paid'])} {old['result']}",
                          f"{format_cents(new['paid'])} {new['result']}")
        console.print(table)
    if not same:
        console.print(f"[red]the replay differs from the record[/] {problem}".rstrip())
        raise typer.Exit(1)
    console.print("replay gives the same settlement")


def remind(player: Player, started: datetime) -> datetime:
    """Show the session-time reminder when it is due; when the next period began."""
    from pelisali.platform import accounts
    from pelisali.platform.ledger import now_utc

    if not accounts.reminder_due(player, started):
        return started
    console.print(f"[yellow]you have played {(now_utc() - started).seconds // 60} minutes[/]")
    return now_utc()


report_app = typer.Typer(help="Reports for the floor and the regulator.", no_args_is_help=True)


@report_app.command("day")
def report_day(
    day: Annotated[str | None, typer.Option("--date", help="the gaming day, YYYY-MM-DD "
                                            "(default: today, UTC)")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Per table: rounds, bets, stakes, payouts, fees, jackpot contributions and payouts,
    rounding, GGR, and the observed RTP against the exact theoretical RTP of the bets."""

    from pelisali.platform.db import transaction
    from pelisali.platform.ledger import now_utc
    from pelisali.platform.report import LINES, day_report

    try:
        chosen = date.fromisoformat(day) if day else now_utc().date()
    except ValueError:
        fail(f"--date takes YYYY-MM-DD, not {day!r}")
    with transaction(open_database()) as session:
        rows = day_report(session, chosen)
    if as_json:
        print(json.dumps([{
            "table": r.table, "game": r.game, "rounds": r.rounds, "bets": r.bets,
            "staked": r.staked, "paid": r.paid, "ggr": r.ggr,
            **{kind: r.lines.get(kind, 0) for kind in LINES},
            "observed_rtp": None if r.observed_rtp is None else str(r.observed_rtp),
            "theoretical_rtp": None if r.theoretical_rtp is None else str(r.theoretical_rtp),
        } for r in rows], indent=2))
        return
    table = RichTable(title=f"gaming day {chosen}")
    for column in ("table", "game", "rounds", "bets", "staked", "paid", "fees",
                   "jackpot in", "jackpot out", "rounding", "GGR", "RTP observed",
                   "RTP theoretical"):
        table.add_column(column, justify="left" if column in ("table", "game") else "right")
    for r in rows:
        table.add_row(r.table, r.game, str(r.rounds), str(r.bets), format_cents(r.staked),
                      format_cents(r.paid),
                      *(format_cents(r.lines.get(kind, 0)) for kind in LINES),
                      format_cents(r.ggr),
                      "" if r.observed_rtp is None else f"{float(r.observed_rtp):.2%}",
                      "" if r.theoretical_rtp is None else f"{float(r.theoretical_rtp):.2%}")
    console.print(table)


jackpot_app = typer.Typer(help="Table-game jackpots (RAY 1.2.1).", no_args_is_help=True)


@jackpot_app.command("create")
def jackpot_create(
    name: Annotated[str, typer.Argument()],
    table: Annotated[str, typer.Option(help="the table it belongs to")],
    kind: Annotated[str, typer.Option(help="fixed, odds or progressive")],
    faces: Annotated[str, typer.Option(help="the winning results, comma-separated: 0,00")],
    fee: Annotated[str, typer.Option(help="participation fee a round, euros")] = "0",
    amount: Annotated[str, typer.Option(help="fixed: the announced sum, euros")] = "0",
    odds: Annotated[int, typer.Option(help="odds: the win is this many times the fee")] = 0,
    share: Annotated[int, typer.Option(help="progressive: percent of the fee to the pool")]
    = 0,
    minimum: Annotated[str, typer.Option(help="progressive: guaranteed minimum, euros")]
    = "0",
) -> None:
    """A jackpot at a table; a progressive one is seeded from the house bank."""
    from pelisali.platform.jackpots import create_jackpot

    with _session() as session:
        create_jackpot(session, name, table, kind, euros(fee),
                       [f.strip() for f in faces.split(",") if f.strip()],
                       amount=euros(amount), odds=odds, share_percent=share,
                       minimum=euros(minimum))
    console.print(f"jackpot {name} at {table}: {kind}, won by {faces}")


@jackpot_app.command("progressive")
def jackpot_progressive(
    game: Annotated[str, typer.Argument(help="ultimate-texas-holdem or texas-holdem-bonus")],
    name: Annotated[str | None, typer.Option(help="the jackpot's name (GAME-progressive)")]
    = None,
) -> None:
    """Start a game's progressive with its rule data's fee, share and seed: every table of
    the game then takes the progressive bet, and the house seeds the pool."""
    from pelisali.platform.banked_rounds import open_progressive

    with _session() as session:
        made = open_progressive(session, game, name)
    console.print(f"jackpot {made.name} at every {game} table: fee {format_cents(made.fee)} €, "
                  f"{made.share_percent} % of it to the pool, seeded with "
                  f"{format_cents(made.minimum)} €")


@jackpot_app.command("close-day")
def jackpot_close_day(
    name: Annotated[str, typer.Argument()],
    day: Annotated[str | None, typer.Option("--date", help="YYYY-MM-DD")] = None,
) -> None:
    """The end of the gaming day: the day's accrual joins the pool."""
    from pelisali.platform.jackpots import close_day
    from pelisali.platform.ledger import now_utc

    chosen = date.fromisoformat(day) if day else now_utc().date()
    with _session() as session:
        amount = close_day(session, name, chosen)
    console.print(f"{name}: {format_cents(amount)} added to the pool for {chosen}")


@jackpot_app.command("report")
def jackpot_report(name: Annotated[str, typer.Argument()]) -> None:
    """Reconcile the jackpot: its pool and accrual against every transfer."""
    from pelisali.platform.jackpots import reconcile

    with _session() as session:
        r = reconcile(session, name)
    console.print(f"{name}: pool {format_cents(r.pool)}, accrual {format_cents(r.accrual)}; "
                  f"contributed {format_cents(r.contributed)}, seeded "
                  f"{format_cents(r.seeded)}, paid {format_cents(r.paid)}")
    if not r.balanced:
        console.print("[red]the jackpot does not reconcile[/]")
        raise typer.Exit(1)
    console.print("reconciled")



# -- anti-money-laundering ----------------------------------------------------------------
aml_app = typer.Typer(help="Anti-money-laundering monitoring: scan, cases, close, void.",
                      no_args_is_help=True)


def _shown(key: str, value: object) -> str:
    """An evidence value in the table: money in euros, a list as how many it holds (the
    whole evidence is in ``--json``), the linked players by name."""
    if key in MONEY_KEYS and isinstance(value, int):
        return format_cents(value)
    if key == "linked" and isinstance(value, list):
        return " ".join(f"{x['player']} ({x['by']} {x['value']})" for x in value)
    if isinstance(value, list | dict):
        return str(len(value))
    return str(value)


def _case_table(found: Sequence[Case], title: str) -> RichTable:
    table = RichTable(title=title)
    for column in ("case", "rule", "player", "opened", "evidence", "status"):
        table.add_column(column)
    for case in found:
        shown = ", ".join(f"{k} {_shown(k, v)}" for k, v in case.evidence.items()
                          if k != "transfers")
        table.add_row(str(case.id), case.rule, case.player, f"{case.opened_at:%Y-%m-%d %H:%M}",
                      shown, case.status + (f" ({case.closed_by}: {case.note})"
                                            if case.closed_by else ""))
    return table


MONEY_KEYS = ("deposited", "withdrawn", "staked", "threshold", "lost", "to_winner", "back",
              "transferred", "minimum_amount", "excess")


@aml_app.command("scan")
def aml_scan() -> None:
    """Run every monitoring rule over the ledger; each new finding opens a case."""
    from pelisali.platform.aml import scan

    with _session() as session:
        found = scan(session)
    console.print(_case_table(found, f"{len(found)} new cases"))


@aml_app.command("cases")
def aml_cases(
    everything: Annotated[bool, typer.Option("--all", help="the closed cases too")] = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """The open cases (with --all, the closed ones too), with their evidence."""

    from pelisali.platform.aml import cases

    with _session() as session:
        found = cases(session, everything)
    if as_json:
        print(json.dumps([c.to_json() for c in found]))
        return
    console.print(_case_table(found, "AML cases"))


@aml_app.command("close")
def aml_close(
    case: Annotated[int, typer.Argument(help="the case number")],
    staff: Annotated[str, typer.Option(help="who closes it")],
    note: Annotated[str, typer.Option(help="what was found and done")],
) -> None:
    """Close a case with what staff found (in the audit chain)."""
    from pelisali.platform.aml import close_case

    with _session() as session:
        closed = close_case(session, case, staff, note)
    console.print(f"case {closed.id} ({closed.rule}, {closed.player}) closed by {staff}")


@aml_app.command("void")
def aml_void(
    case: Annotated[int, typer.Argument(help="the joint-play case number")],
    staff: Annotated[str, typer.Option(help="who voids it")],
    note: Annotated[str, typer.Option(help="what was found and done")],
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Void the excess over the maximum of a joint-play case (RAY 1.1): its player's
    stake over the maximum treated as never accepted, the net result on it reversed
    between the player and the house bank; the case closed as voided (audit chain)."""

    from pelisali.platform.aml import void_case

    with _session() as session:
        done = void_case(session, case, staff, note)
    if as_json:
        print(json.dumps(done.to_json()))
        return
    who = done.case.player
    if done.already:
        console.print(f"case {case} ({who}) was voided already by {done.case.closed_by}: "
                      "nothing changed")
        return
    for t in done.transfers:
        console.print(f"round {t['round']}: {format_cents(t['amount'])} from {t['from']} "
                      f"to {t['to']}")
    console.print(f"case {case} ({who}) voided by {staff}: {len(done.transfers)} transfers")
