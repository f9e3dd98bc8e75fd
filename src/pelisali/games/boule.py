"""Boule (RAY 2016 1.2.2): numbers 1–9, four times each on a 36-pocket wheel.

>>> game = boule()
>>> game.resolve(game.spot("5"), 100, 0, ("5",)).amount
Fraction(800, 1)
>>> game.resolve(game.spot("red"), 100, 0, ("5",)).result
'lose'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property

from pelisali.games.base import LOST, Device, Outcome, Paid, Resolution, Spot, WagerGame
from pelisali.money import Odds
from pelisali.rules import BouleRules, RuleDataError, load_rules

GROUP_ORDER = ("red", "black", "low", "high", "even", "odd")


class Boule(WagerGame):
    name = "boule"

    def __init__(self, rules: BouleRules, settings: Mapping[str, str | bool] | None = None):
        super().__init__(rules, settings)
        self.r = rules

    @cached_property
    def _devices(self) -> tuple[Device, ...]:
        # Each number has `copies` pockets; their order on the wheel does not change the odds.
        numbers = [str(n) for n in range(1, self.r.numbers + 1)]
        return (Device("wheel", tuple(numbers * self.r.copies)),)

    @property
    def devices(self) -> tuple[Device, ...]:
        return self._devices

    def bet_types(self) -> list[str]:
        return ["straight", *[g for g in GROUP_ORDER if g in self.r.bets]]

    @cached_property
    def _spots(self) -> list[Spot]:
        out = [Spot("straight", f"straight {n}", frozenset({str(n)}))
               for n in range(1, self.r.numbers + 1)]
        for group in self.bet_types()[1:]:
            out.append(Spot(group, group, frozenset(str(n) for n in self.r.groups[group])))
        return out

    def spots(self) -> Sequence[Spot]:
        return self._spots

    def parse_spot_text(self, text: str) -> str:
        name, numbers = self.spot_words(text)
        if not name and len(numbers) == 1:
            return f"straight {numbers[0]}"
        return " ".join([name, *numbers]).strip()

    def payout_label(self, bet_type: str) -> str:
        return self.r.bets[bet_type].odds

    def resolve(self, spot: Spot, stake: int, level: int, outcome: Outcome) -> Resolution:
        # The excluded number (5) is in no group, so every even chance loses on it.
        if outcome[0] in spot.covers:
            odds = Odds.parse(self.r.bets[spot.bet_type].odds)
            return Paid(odds.total_return_exact(stake), "win")
        return Paid(LOST, "lose")


def boule(settings: Mapping[str, str | bool] | None = None) -> Boule:
    rules = load_rules("boule")
    if not isinstance(rules, BouleRules):
        raise RuleDataError(f"the boule rule file holds {type(rules).__name__}")
    return Boule(rules, settings)
