"""Helpers shared by the commands: settings from ``--set``, game lookup, errors."""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console

from pelisali.games import GameError, WagerGame, make_game
from pelisali.rules import RuleDataError

console = Console()
err = Console(stderr=True)


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


def fail(message: str) -> NoReturn:
    err.print(f"[bold red]error:[/] {message}")
    raise typer.Exit(2)
