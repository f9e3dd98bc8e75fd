"""The dice games: Tuplanoppa (RAY 2016 1.3.1) and Sic Bo (RAY 2016 1.3.2).

>>> t = tuplanoppa()
>>> t.resolve(t.spot("under_7"), 101, 0, ("3", "4")).amount
Fraction(101, 2)
>>> s = sic_bo()
>>> s.resolve(s.spot("single 6"), 100, 0, ("6", "6", "6")).amount
Fraction(1300, 1)
>>> s.resolve(s.spot("small"), 100, 0, ("2", "2", "2")).result
'lose'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from pelisali.games.base import (
    LOST,
    Device,
    Outcome,
    Paid,
    Resolution,
    Spot,
    WagerGame,
)
from pelisali.games.round import RoundError
from pelisali.money import Odds
from pelisali.rules import RuleDataError, SicBoRules, TuplanoppaRules, load_rules

DIE = tuple("123456")


@dataclass
class ShooterRotation:
    """Tuplanoppa drawing method B (RAY 2016 1.3.1): the dice go round clockwise.

    The shooter keeps the dice until throwing a seven, may pass them on, and
    only a player in the round may throw.

    >>> rot = ShooterRotation(["ann", "bob", "cid"])
    >>> rot.shooter({"bob", "cid"})
    'bob'
    >>> rot.after_throw(7); rot.shooter({"ann", "bob", "cid"})
    'cid'
    """

    seats: list[str]
    position: int = 0

    def shooter(self, in_round: set[str]) -> str:
        for step in range(len(self.seats)):
            seat = self.seats[(self.position + step) % len(self.seats)]
            if seat in in_round:
                self.position = (self.position + step) % len(self.seats)
                return seat
        raise RoundError("nobody in this round may throw the dice")

    def pass_dice(self) -> None:
        self.position = (self.position + 1) % len(self.seats)

    def after_throw(self, total: int) -> None:
        if total == 7:
            self.pass_dice()


class Tuplanoppa(WagerGame):
    """Two dice; each sum 2–12 is its own spot, plus any pair and under/over 7."""

    name = "tuplanoppa"

    def __init__(self, rules: TuplanoppaRules, settings: Mapping[str, str | bool] | None = None):
        super().__init__(rules, settings)
        self.r = rules

    @property
    def devices(self) -> tuple[Device, ...]:
        return (Device("die1", DIE), Device("die2", DIE))

    def bet_types(self) -> list[str]:
        return list(self.r.bets)

    def spots(self) -> Sequence[Spot]:
        return [Spot(name, name) for name in self.r.bets]

    def parse_spot_text(self, text: str) -> str:
        key = super().parse_spot_text(text).replace(" ", "_")
        return f"sum_{key}" if key.isdigit() else key

    def payout_label(self, bet_type: str) -> str:
        return self.r.bets[bet_type].odds

    def resolve(self, spot: Spot, stake: int, level: int, outcome: Outcome) -> Resolution:
        a, b = int(outcome[0]), int(outcome[1])
        total = a + b
        kind = spot.bet_type
        won = (
            (kind == f"sum_{total}")
            or (kind == "any_pair" and a == b)
            or (kind == "under_7" and total < 7)
            or (kind == "over_7" and total > 7)
        )
        if won:
            return Paid(Odds.parse(self.r.bets[kind].odds).total_return_exact(stake), "win")
        if total == 7 and kind in ("under_7", "over_7"):
            return Paid(Fraction(stake, 2), "half")  # seven_rule: lose half
        return Paid(LOST, "lose")

    def describe(self, outcome: Outcome) -> str:
        return f"{outcome[0]}+{outcome[1]} = {int(outcome[0]) + int(outcome[1])}"


class SicBo(WagerGame):
    """Three dice with the full RAY pay table."""

    name = "sic-bo"

    def __init__(self, rules: SicBoRules, settings: Mapping[str, str | bool] | None = None):
        super().__init__(rules, settings)
        self.r = rules

    @property
    def devices(self) -> tuple[Device, ...]:
        return (Device("die1", DIE), Device("die2", DIE), Device("die3", DIE))

    def bet_types(self) -> list[str]:
        return [*self.r.bets, *(f"total_{t}" for t in range(4, 18))]

    @cached_property
    def _spots(self) -> list[Spot]:
        out = [Spot("small", "small"), Spot("big", "big")]
        out += [Spot("single", f"single {n}", frozenset(n)) for n in DIE]
        out += [Spot("two_dice", f"two_dice {a}-{b}", frozenset({a, b}))
                for i, a in enumerate(DIE) for b in DIE[i + 1:]]
        out += [Spot("double", f"double {n}", frozenset(n)) for n in DIE]
        out.append(Spot("any_triple", "any_triple"))
        out += [Spot("specific_triple", f"specific_triple {n}", frozenset(n)) for n in DIE]
        out += [Spot(f"total_{t}", f"total_{t}") for t in range(4, 18)]
        return out

    def spots(self) -> Sequence[Spot]:
        return self._spots

    def parse_spot_text(self, text: str) -> str:
        name, numbers = self.spot_words(text)
        if name == "total" and len(numbers) == 1:
            return f"total_{numbers[0]}"
        if name == "two_dice" and len(numbers) == 2:
            return f"two_dice {'-'.join(sorted(numbers))}"
        return " ".join([name, *numbers]).strip()

    def payout_label(self, bet_type: str) -> str:
        if bet_type == "single":
            return " / ".join(self.r.single)
        if bet_type.startswith("total_"):
            return self.r.totals[bet_type.removeprefix("total_")]
        return self.r.bets[bet_type].odds

    def resolve(self, spot: Spot, stake: int, level: int, outcome: Outcome) -> Resolution:
        dice = [int(x) for x in outcome]
        total = sum(dice)
        triple = dice[0] == dice[1] == dice[2]
        kind = spot.bet_type
        odds: str | None = None
        if kind == "small" and 4 <= total <= 10 and not triple:
            odds = self.r.bets["small"].odds
        elif kind == "big" and 11 <= total <= 17 and not triple:
            odds = self.r.bets["big"].odds
        elif kind == "single":
            shown = outcome.count(next(iter(spot.covers)))
            odds = self.r.single[shown - 1] if shown else None
        elif kind == "two_dice" and spot.covers <= set(outcome):
            odds = self.r.bets["two_dice"].odds
        elif kind == "double" and outcome.count(next(iter(spot.covers))) >= 2:
            odds = self.r.bets["double"].odds
        elif kind == "any_triple" and triple:
            odds = self.r.bets["any_triple"].odds
        elif kind == "specific_triple" and triple and outcome[0] in spot.covers:
            odds = self.r.bets["specific_triple"].odds
        elif kind == f"total_{total}":
            odds = self.r.totals[str(total)]
        if odds is None:
            return Paid(LOST, "lose")
        return Paid(Odds.parse(odds).total_return_exact(stake), "win")

    def describe(self, outcome: Outcome) -> str:
        return f"{'-'.join(outcome)} = {sum(int(x) for x in outcome)}"


def tuplanoppa(settings: Mapping[str, str | bool] | None = None) -> Tuplanoppa:
    rules = load_rules("tuplanoppa")
    if not isinstance(rules, TuplanoppaRules):
        raise RuleDataError(f"the tuplanoppa rule file holds {type(rules).__name__}")
    return Tuplanoppa(rules, settings)


def sic_bo(settings: Mapping[str, str | bool] | None = None) -> SicBo:
    rules = load_rules("sic-bo")
    if not isinstance(rules, SicBoRules):
        raise RuleDataError(f"the sic-bo rule file holds {type(rules).__name__}")
    return SicBo(rules, settings)
