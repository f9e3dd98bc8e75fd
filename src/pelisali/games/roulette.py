"""Roulette, versions A–I (RAY 2016 1.2.1) and the live-casino roulette (version C).

>>> game = Roulette(load_rules("roulette", "C"))
>>> game.resolve(game.spot("split 0-1"), 100, 0, ("0",))
Paid(amount=Fraction(1800, 1), result='win')
>>> game.resolve(game.spot("red"), 100, 0, ("0",)).result
'lose'
>>> d = Roulette(load_rules("roulette", "D"), {"zero_rule": "en_prison"})
>>> d.resolve(d.spot("red"), 100, 0, ("0",))
Held(level=1, result='prison')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cached_property

from pelisali.games.base import (
    LOST,
    Choice,
    Device,
    GameError,
    Held,
    Outcome,
    Paid,
    Resolution,
    Spot,
    WagerGame,
)
from pelisali.money import Odds
from pelisali.rules import RouletteRules, RuleDataError, load_rules

EVEN_CHANCES = ("red", "black", "even", "odd", "low", "high")
TWO_TO_ONE = ("dozen", "column")
BET_ORDER = (
    "straight", "split", "street", "corner", "sixline", "first_five", "dozen", "column",
    *EVEN_CHANCES, "quarter",
)
# What each zero rule does to an even-chance bet when a zero comes (RULINGS Roulette).
ZERO_RULES = {"lose": "lose", "half": "half", "la_partage": "half", "en_prison": "prison",
              "both": "both"}


class Roulette(WagerGame):
    name = "roulette"

    def __init__(
        self, rules: RouletteRules, settings: Mapping[str, str | bool] | None = None
    ) -> None:
        super().__init__(rules, settings)
        self.r: RouletteRules = rules
        self.zeros = tuple(rules.wheel.zeros)
        self.pockets = (*self.zeros, *(str(n) for n in range(1, rules.wheel.numbers + 1)))
        rule = rules.zero_rule.even_chance
        self.zero_rule = ZERO_RULES[str(self.settings["zero_rule"]) if rule == "setting" else rule]
        self.quarters = bool(self.settings.get("quarters", False)) and "quarter" in rules.bets
        self._multiplier_at = None if rules.multiplier is None else len(self._device_list) - 1
        self._paytable_at = 1 if rules.paytable_device is not None else None

    # -- devices ---------------------------------------------------------------
    @cached_property
    def _device_list(self) -> tuple[Device, ...]:
        devices = [Device("wheel", self.pockets)]
        table = self.r.paytable_device
        if table is not None:
            devices.append(Device(
                "paytable",
                ("1",) * (table.slots - table.alternate_slots) + ("2",) * table.alternate_slots,
            ))
        if self.r.multiplier is not None:
            tiles: list[str] = []
            for face in self.r.multiplier.faces:
                tiles.extend([face.odds] * face.count)
            devices.append(Device("multiplier", tuple(tiles)))
        return tuple(devices)

    @property
    def devices(self) -> tuple[Device, ...]:
        return self._device_list

    # -- layout ----------------------------------------------------------------
    def bet_types(self) -> list[str]:
        types = [t for t in BET_ORDER if t in self.r.bets]
        return [t for t in types if t != "quarter" or self.quarters]

    @cached_property
    def _spots(self) -> list[Spot]:
        numbers = self.r.wheel.numbers
        out: list[Spot] = []

        def add(bet_type: str, members: Iterable[object], name: str | None = None) -> None:
            covers = [str(m) for m in members]
            if name is None:
                key = f"{bet_type} {'-'.join(covers)}" if bet_type in INSIDE else bet_type
            else:
                key = f"{bet_type} {name}".strip()
            out.append(Spot(bet_type, key, frozenset(covers)))

        kinds = set(self.bet_types())
        for pocket in self.pockets:
            add("straight", [pocket])
        if numbers == 36:
            rows = [[3 * r + 1, 3 * r + 2, 3 * r + 3] for r in range(12)]
            double = "00" in self.zeros
            if "split" in kinds:
                for members in [["0", "00"]] if double else [["0", 1], ["0", 2], ["0", 3]]:
                    add("split", members)
                for n in range(1, 37):
                    if n % 3:
                        add("split", [n, n + 1])
                    if n <= 33:
                        add("split", [n, n + 3])
            if "street" in kinds:
                zero_streets = ([["0", 1, 2], ["0", "00", 2], ["00", 2, 3]] if double
                                else [["0", 1, 2], ["0", 2, 3]])
                for members in zero_streets:
                    add("street", members)
                for row in rows:
                    add("street", row)
            if "corner" in kinds:
                if not double:
                    add("corner", ["0", 1, 2, 3])
                for n in range(1, 33):
                    if n % 3:
                        add("corner", [n, n + 1, n + 3, n + 4])
            if "first_five" in kinds:
                add("first_five", ["0", "00", 1, 2, 3], name="")
            if "sixline" in kinds:
                for r in range(11):
                    add("sixline", rows[r] + rows[r + 1])
            if "dozen" in kinds:
                for d in range(3):
                    add("dozen", range(12 * d + 1, 12 * d + 13), name=str(d + 1))
        if "column" in kinds:
            for c in (1, 2, 3):
                add("column", [n for n in range(1, numbers + 1) if n % 3 == c % 3], name=str(c))
        for group in EVEN_CHANCES:
            if group in kinds:
                group_members: list[int] = {
                    "red": self.r.groups.red, "black": self.r.groups.black,
                    "low": self.r.groups.low, "high": self.r.groups.high,
                    "even": [n for n in range(2, numbers + 1, 2)],
                    "odd": [n for n in range(1, numbers + 1, 2)],
                }[group]
                add(group, group_members)
        if self.quarters:
            for q in range(4):
                add("quarter", range(9 * q + 1, 9 * q + 10), name=str(q + 1))
        return out

    def spots(self) -> Sequence[Spot]:
        return self._spots

    def parse_spot_text(self, text: str) -> str:
        """Accept ``17``, ``straight 17``, ``split 1-0``, ``corner 5 1 4 2``, ``dozen 2``;
        a number of an inside bet or alone must be a pocket of this wheel.

        >>> c = Roulette(load_rules("roulette", "C"))
        >>> c.parse_spot_text("split 2 - 1")
        'split 1-2'
        >>> c.parse_spot_text("straight 37")
        Traceback (most recent call last):
        ...
        pelisali.games.base.UnknownSpot: roulette C has no betting spot 'straight 37' (37 is \
not a pocket of this wheel); bet types: ...
        """
        name, numbers = self.spot_words(text)
        if name in ("", *INSIDE):
            for number in numbers:
                if number not in self.pockets:
                    raise self.unknown_spot(text, f"{number} is not a pocket of this wheel")
        if not name and len(numbers) == 1:
            return f"straight {numbers[0]}"
        if name in INSIDE and numbers:
            order = {p: i for i, p in enumerate(self.pockets)}
            return f"{name} {'-'.join(sorted(numbers, key=order.__getitem__))}"
        return " ".join([name, *numbers]).strip()

    # -- settlement ------------------------------------------------------------
    def odds(self, bet_type: str, outcome: Outcome) -> Odds:
        """The odds ``bet_type`` pays on ``outcome`` (device-drawn where the version says)."""
        if self._multiplier_at is not None and bet_type == "straight":
            return Odds.parse(outcome[self._multiplier_at])
        table = self.r.paytable_device
        if (table is not None and self._paytable_at is not None
                and outcome[self._paytable_at] == "2" and bet_type in table.odds):
            return Odds.parse(table.odds[bet_type])
        return Odds.parse(self.r.bets[bet_type].odds)

    def payout_label(self, bet_type: str) -> str:
        if self.r.multiplier is not None and bet_type == "straight":
            faces = [Odds.parse(f.odds) for f in self.r.multiplier.faces]
            return f"{min(faces)}…{max(faces)} (multiplier)"
        base = self.r.bets[bet_type].odds
        table = self.r.paytable_device
        if table is not None and bet_type in table.odds and table.odds[bet_type] != base:
            return f"{base} / {table.odds[bet_type]}"
        return base

    def resolve(self, spot: Spot, stake: int, level: int, outcome: Outcome) -> Resolution:
        pocket = outcome[0]
        won = pocket in spot.covers
        zero_on_even_chance = pocket in self.zeros and spot.bet_type in EVEN_CHANCES
        if level == 0:
            if won:
                return Paid(self.odds(spot.bet_type, outcome).total_return_exact(stake), "win")
            if zero_on_even_chance:
                return self._first_zero(stake)
            return Paid(LOST, "lose")
        if level == 1:  # in prison: a win releases, a zero goes deeper
            if won:
                return Paid(Fraction(stake), "release")
            if zero_on_even_chance:
                if self.zero_rule == "both" and stake % 4 == 0:
                    return Choice((("prison", Held(2)), ("quarter", Paid(Fraction(stake, 4),
                                                                          "quarter"))))
                return Held(2)
            return Paid(LOST, "lose")
        if level == 2:  # a win climbs back to level 1; a third zero in a row loses
            return Held(1) if won else Paid(LOST, "lose")
        raise GameError(f"no prison level {level}")

    def _first_zero(self, stake: int) -> Resolution:
        half = Paid(Fraction(stake, 2), "half")
        if self.zero_rule == "half":
            return half
        if self.zero_rule == "prison":
            return Held(1)
        if self.zero_rule == "both":
            # The player chooses only when the chips halve (whole cents).
            return Choice((("prison", Held(1)), ("half", half))) if stake % 2 == 0 else Held(1)
        return Paid(LOST, "lose")

    def describe(self, outcome: Outcome) -> str:
        pocket = outcome[0]
        colour = ("green" if pocket in self.zeros else
                  "red" if int(pocket) in self.r.groups.red else "black")
        text = f"{pocket} {colour}"
        if self._paytable_at is not None:
            text += f", payout table {outcome[self._paytable_at]}"
        if self._multiplier_at is not None:
            text += f", multiplier {outcome[self._multiplier_at]}"
        return text


INSIDE = ("straight", "split", "street", "corner", "sixline")


def roulette(variant: str, settings: Mapping[str, str | bool] | None = None) -> Roulette:
    rules = load_rules("roulette", variant.upper())
    if not isinstance(rules, RouletteRules):
        raise RuleDataError(f"the roulette {variant} rule file holds {type(rules).__name__}")
    return Roulette(rules, settings)
