"""Helpers shared by the commands: settings from ``--set``, game lookup, amounts of
money given on the command line, errors."""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console

from pelisali.games import GameError, WagerGame, make_game
from pelisali.money import MoneyError, parse_amount
from pelisali.rules import RuleDataError

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


def load_game(game: str, variant: str | None, sets: list[str] | None) -> WagerGame:
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
