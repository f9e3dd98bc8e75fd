"""Rule data: one TOML file per game version, validated at load.

>>> rules = load_rules("roulette", "C")
>>> rules.bets["straight"].odds
'35:1'
>>> sorted(available())[:3]
[('blackjack', ''), ('boule', ''), ('money-wheel', '')]
"""

from typing import TYPE_CHECKING, Any

from pelisali.rules.loader import RuleDataError, available, load_file, load_rules

if TYPE_CHECKING:
    from pelisali.rules.schema import (
        BlackjackRules,
        BouleRules,
        GameRules,
        MoneyWheelRules,
        PuntoBancoRules,
        RouletteRules,
        SicBoRules,
        TuplanoppaRules,
    )

_SCHEMAS = {"BlackjackRules", "BouleRules", "GameRules", "MoneyWheelRules",
            "PuntoBancoRules", "RouletteRules", "SicBoRules", "TuplanoppaRules"}


def __getattr__(name: str) -> Any:
    """The table games' schemas, imported on first use (see :mod:`pelisali.rules.loader`)."""
    if name in _SCHEMAS:
        from pelisali.rules import schema

        return getattr(schema, name)
    raise AttributeError(f"module 'pelisali.rules' has no attribute {name!r}")


__all__ = [
    "BlackjackRules",
    "BouleRules",
    "GameRules",
    "MoneyWheelRules",
    "PuntoBancoRules",
    "RouletteRules",
    "RuleDataError",
    "SicBoRules",
    "TuplanoppaRules",
    "available",
    "load_file",
    "load_rules",
]
