"""Helpers shared by the commands: settings from ``--set``, game lookup, amounts of
money given on the command line, errors."""

from __future__ import annotations

import shlex
import sys
import time
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console

from pelisali.money import MoneyError, parse_amount

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from fractions import Fraction

    from rich.progress import Progress

    from pelisali.games import WagerGame
    from pelisali.rng import Rng

console = Console()
err = Console(stderr=True)
# The card games `play` and `simulate` know, by the names a player types.
CARD_GAMES = {"baccarat": "punto-banco", "punto-banco": "punto-banco", "blackjack": "blackjack"}


def parse_sets(pairs: list[str] | None) -> dict[str, str | bool]:
    out: dict[str, str | bool] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            fail(f"--set takes KEY=VALUE, not {pair!r}")
        out[key.strip()] = value.strip()
    return out


def read_line(prompt: str) -> str | None:
    """A line a player types at the terminal (the prompt shown only to a person; piped
    input is echoed dimmed, so a transcript reads as a session); None at the end."""
    interactive = sys.stdin.isatty()
    try:
        line = input(prompt if interactive else "")
    except EOFError:
        return None
    if not interactive:
        console.print(f"[dim]> {line}[/]")
    return line


def take_lines(prompt: str, handle: Callable[[str], bool]) -> None:
    """Give each line the player types to ``handle`` until it returns False (the player
    leaves) or the input ends."""
    while (line := read_line(prompt)) is not None:
        if not handle(line):
            return


def split_command(line: str) -> tuple[str, list[str]] | None:
    """A command line as its command (lower case) and arguments; None when it is empty
    or does not split (unbalanced quotes: said in red).

    >>> split_command('Bet "straight 17" 5'), split_command("  ")
    (('bet', ['straight 17', '5']), None)
    """
    try:
        words = shlex.split(line)
    except ValueError as exc:
        console.print(f"[red]{exc}[/]")
        return None
    return (words[0].lower(), words[1:]) if words else None


def next_command(prompt: str) -> tuple[str, list[str]] | None:
    """The next command the player types and its arguments; None at the end of input or
    on ``quit`` (``exit``, ``q``)."""
    while (line := read_line(prompt)) is not None:
        found = split_command(line)
        if found is not None:
            return None if found[0] in ("quit", "exit", "q") else found
    return None


def progress_bar(disable: bool = False) -> Progress:
    """The progress bar of a long command: what it does, the bar, done of total and the
    time left; cleared when the work ends. It redraws when the work reports, at most ten
    times a second, rather than from a thread of its own: that thread's redraws took a
    tenth of a self-play run's CPU time, output redirected or not."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskID,
        TextColumn,
        TimeRemainingColumn,
    )

    class ReportedProgress(Progress):
        _drawn = 0.0

        def update(self, task_id: TaskID, **fields: Any) -> None:
            super().update(task_id, **fields)
            self._redraw()

        def advance(self, task_id: TaskID, advance: float = 1) -> None:
            super().advance(task_id, advance)
            self._redraw()

        def _redraw(self) -> None:
            now = time.monotonic()
            if now - self._drawn >= 0.1:
                self._drawn = now
                self.refresh()

    return ReportedProgress(TextColumn("[bold]{task.description}"), BarColumn(),
                            MofNCompleteColumn(), TimeRemainingColumn(), console=console,
                            disable=disable, transient=True, auto_refresh=False)


def load_game(game: str, variant: str | None, sets: list[str] | None) -> WagerGame:
    from pelisali.games import GameError, make_game
    from pelisali.rules import RuleDataError

    try:
        return make_game(game, variant, parse_sets(sets))
    except (GameError, RuleDataError) as exc:
        fail(str(exc))


def euros(text: str) -> int:
    """An amount given on the command line, in cents; a bad one ends the command with
    the reason (exit 2). Inside a play loop, :func:`~pelisali.money.parse_amount` itself
    is used, so a bad amount is refused and the loop goes on.

    >>> euros("12.50")
    1250
    """
    try:
        return parse_amount(text)
    except MoneyError as exc:
        fail(str(exc))


def print_figures(title: str, rows: Sequence[tuple[str, Fraction, float | None]]) -> None:
    """A table of exact figures (name, fraction, published per cent or ``None``), each as
    the fraction and in per cent beside the published one."""
    from rich.table import Table as RichTable

    table = RichTable(title=title)
    for col in ("figure", "exact", "", "published"):
        table.add_column(col, justify="left" if col == "figure" else "right")
    for name, value, published in rows:
        table.add_row(name, str(value), f"{float(value) * 100:.4f} %",
                      "—" if published is None else f"{published} %")
    console.print(table)


def fail(message: str) -> NoReturn:
    err.print(f"[bold red]error:[/] {message}")
    raise typer.Exit(2)


# -- options shared by the tournament commands ---------------------------------------------
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON (amounts in cents)")]
KeyOpt = Annotated[
    str | None,
    typer.Option(
        help="idempotency key: a request retried with its key is applied once (default: a new one)"
    ),
]
SeedOpt = Annotated[
    int | None,
    typer.Option(help="seeded draws, for a reproducible run (default: the OS's generator)"),
]


def request_key(key: str | None) -> str:
    """The key given, or a new one for this request."""
    import uuid

    return key or f"cli-{uuid.uuid4()}"


def rng_of(seed: int | None) -> Rng:
    """A seeded generator for ``--seed``, else the OS's."""
    from pelisali.rng import SecureRng, SeededRng

    if seed is None:
        return SecureRng()
    if seed < 0:
        fail("--seed must be 0 or more")
    return SeededRng(seed)


def print_tournaments(title: str, rows: list[dict[str, Any]], games: list[str],
                      entries: list[str]) -> None:
    """A tournament lobby as a table that fits 80 columns: each row's number, name,
    ``games[i]``, status, ``entries[i]``, buy-in and pool in euros; then the start times
    of those still registering, and a note on the guarantees."""
    from rich.table import Table as RichTable

    from pelisali.money import format_cents

    table = RichTable(title=title)
    for column in ("#", "name", "game", "status", "entries", "buy-in €", "pool €"):
        table.add_column(
            column,
            no_wrap=column in ("status", "entries", "buy-in €", "pool €"),
            min_width=6 if column == "name" else None,
            justify="right" if column in ("#", "entries") or "€" in column else "left",
        )
    for row, game, entered in zip(rows, games, entries, strict=True):
        table.add_row(
            str(row["id"]), str(row["name"]), game, str(row["status"]), entered,
            f"{format_cents(row['buy_in'])}+{format_cents(row['fee'])}",
            format_cents(row["pool"]) + ("*" if row["guarantee"] else ""),
        )
    console.print(table)
    for row in rows:
        if row["starts_at"] is not None and row["status"] == "registering":
            console.print(f"#{row['id']} starts {row['starts_at'][:16].replace('T', ' ')} UTC")
    if any(row["guarantee"] for row in rows):
        console.print("* guaranteed: the house pays any overlay")
