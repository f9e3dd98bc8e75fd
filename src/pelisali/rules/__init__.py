"""Rule data: one TOML file per game version, validated at load.

>>> rules = load_rules("roulette", "C")
>>> rules.bets["straight"].odds
'35:1'
>>> sorted(available())[:3]
[('blackjack', ''), ('boule', ''), ('money-wheel', '')]
"""

from pelisali.rules.loader import RuleDataError, available, load_file, load_rules
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
