"""Helpers shared by the commands: settings from ``--set``, game lookup, amounts of
money given on the command line, errors."""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

import typer
from rich.console import Console

from pelisali.money import MoneyError, parse_amount

if TYPE_CHECKING:
    from rich.progress import Progress

    from pelisali.games import WagerGame

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


def progress_bar(disable: bool = False) -> Progress:
    """The progress bar of a long command: what it does, the bar, done of total and the
    time left; cleared when the work ends."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=console, disable=disable, transient=True)


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


def fail(message: str) -> NoReturn:
    err.print(f"[bold red]error:[/] {message}")
    raise typer.Exit(2)
