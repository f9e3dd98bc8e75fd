"""The money wheel (RAY 2016 1.2.3): 54 equal sectors, a bet on a symbol pays its odds.

>>> game = money_wheel()
>>> [(s.name, s.sectors) for s in game.r.symbols][:2]
[('1', 23), ('2', 15)]
>>> game.resolve(game.spot("joker"), 100, 0, ("joker",)).amount
Fraction(4600, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property

from pelisali.games.base import LOST, Device, Outcome, Paid, Resolution, Spot, WagerGame
from pelisali.money import Odds
from pelisali.rules import MoneyWheelRules, RuleDataError, load_rules


class MoneyWheel(WagerGame):
    name = "money-wheel"

    def __init__(self, rules: MoneyWheelRules, settings: Mapping[str, str | bool] | None = None):
        super().__init__(rules, settings)
        self.r = rules
        self._odds = {s.name: Odds.parse(s.odds) for s in rules.symbols}

    @cached_property
    def _devices(self) -> tuple[Device, ...]:
        sectors: list[str] = []
        for symbol in self.r.symbols:
            sectors.extend([symbol.name] * symbol.sectors)
        return (Device("wheel", tuple(sectors)),)

    @property
    def devices(self) -> tuple[Device, ...]:
        return self._devices

    def bet_types(self) -> list[str]:
        return [s.name for s in self.r.symbols]

    def spots(self) -> Sequence[Spot]:
        return [Spot(s.name, s.name, frozenset({s.name})) for s in self.r.symbols]

    def payout_label(self, bet_type: str) -> str:
        return str(self._odds[bet_type])

    def resolve(self, spot: Spot, stake: int, level: int, outcome: Outcome) -> Resolution:
        if outcome[0] == spot.key:
            return Paid(self._odds[spot.key].total_return_exact(stake), "win")
        return Paid(LOST, "lose")


def money_wheel(settings: Mapping[str, str | bool] | None = None) -> MoneyWheel:
    rules = load_rules("money-wheel")
    if not isinstance(rules, MoneyWheelRules):
        raise RuleDataError(f"the money-wheel rule file holds {type(rules).__name__}")
    return MoneyWheel(rules, settings)
