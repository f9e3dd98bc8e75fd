"""Load and validate rule files; a malformed file is an error naming the file and the key."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pelisali.rules.schema import GameRules


@cache
def _models() -> dict[str, type[Any]]:
    """The table games' schemas by game, imported when a table game's rules are first
    loaded (building them is a start-up cost the other kinds of rule file skip)."""
    from pelisali.rules import schema

    return {"roulette": schema.RouletteRules, "boule": schema.BouleRules,
            "money-wheel": schema.MoneyWheelRules, "tuplanoppa": schema.TuplanoppaRules,
            "sic-bo": schema.SicBoRules, "blackjack": schema.BlackjackRules,
            "punto-banco": schema.PuntoBancoRules}


class RuleDataError(ValueError):
    """A rule file that is missing, unreadable or does not match its schema."""


def data_dir(kind: str = "") -> Path:
    """Where the packaged rule files are: the table games', or a kind's own folder
    (``poker``, ``slots``)."""
    root = resources.files("pelisali.rules") / "data"
    return Path(str(root / kind if kind else root))


def read_toml(path: Path) -> dict[str, Any]:
    """A rule file's TOML; a missing, unreadable or malformed file is a
    :class:`RuleDataError` naming it.

    >>> read_toml(Path("nowhere.toml"))
    Traceback (most recent call last):
    ...
    pelisali.rules.loader.RuleDataError: nowhere.toml: no such rule file
    """
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise RuleDataError(f"{path}: no such rule file") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleDataError(f"{path}: cannot be read as UTF-8 text: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise RuleDataError(f"{path}: not valid TOML: {exc}") from exc


def load_file(path: Path) -> GameRules:
    """Load one rule file, naming the file and the offending key on any error."""
    from pydantic import TypeAdapter, ValidationError

    raw = read_toml(path)
    game = raw.get("game")
    models = _models()
    model = models.get(game) if isinstance(game, str) else None
    if model is None:
        raise RuleDataError(f"{path}: key 'game': must be one of {sorted(models)}, got {game!r}")
    try:
        rules: GameRules = TypeAdapter(model).validate_python(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(part) for part in first["loc"])
        message = first["msg"].removeprefix("Value error, ")
        if not key:  # a check across the file names its key first: "symbols: ..."
            key, sep, rest = message.partition(": ")
            key, message = (key, rest) if sep and " " not in key else ("(top level)", message)
        raise RuleDataError(f"{path}: key '{key}': {message}") from exc
    return rules


def _file_name(game: str, variant: str) -> str:
    return f"{game}-{variant}.toml" if variant else f"{game}.toml"


@cache
def load_rules(game: str, variant: str = "") -> GameRules:
    """The rules of one game version from the packaged data."""
    path = data_dir() / _file_name(game, variant)
    if not path.exists():
        raise RuleDataError(f"no rules for game {game!r} version {variant or '(none)'!r}")
    return load_file(path)


def available() -> list[tuple[str, str]]:
    """Every (game, variant) with a rule file."""
    out: list[tuple[str, str]] = []
    for path in sorted(data_dir().glob("*.toml")):
        rules = load_file(path)
        out.append((rules.game, rules.variant))
    return out
