"""The shape of every rule file. Each number carries the rulebook section it comes from."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, field_validator, model_validator

from pelisali.money import Odds
from pelisali.rules.base import Names, Section, Strict


def _check_odds(value: str) -> str:
    Odds.parse(value)
    return value


def _check_bet_odds(value: str) -> str:
    return value if value == "device" else _check_odds(value)


OddsText = Annotated[str, AfterValidator(_check_odds)]
# "device": paid at the multiplier a device draws each round (roulette G, H, I).
BetOdds = Annotated[str, AfterValidator(_check_bet_odds)]


class Limits(Strict):
    """Table minimum and maximum per bet, in cents (table settings, shown at the table)."""

    min: int = Field(gt=0)
    max: int = Field(gt=0)
    section: Section

    @model_validator(mode="after")
    def _ordered(self) -> Limits:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}")
        return self


class BetRule(Strict):
    odds: BetOdds
    section: Section
    optional: bool = False


class Setting(Strict):
    """A table setting: its default, the values it may take, and where the rule is."""

    default: str | bool
    choices: list[str] | None = None
    minimum: int | None = Field(default=None, description="the value is a whole number from here")
    maximum: int | None = None
    section: Section

    @model_validator(mode="after")
    def _default_allowed(self) -> Setting:
        if self.choices is not None and self.default not in self.choices:
            raise ValueError(f"default {self.default!r} is not one of {self.choices}")
        if self.minimum is not None:
            if not isinstance(self.default, str) or not self.default.isdigit():
                raise ValueError("a numeric setting needs a whole-number default")
            if int(self.default) < self.minimum or (
                    self.maximum is not None and int(self.default) > self.maximum):
                raise ValueError(
                    f"default {self.default} is outside {self.minimum}..{self.maximum}")
        return self


class GameRulesBase(Strict):
    game: str
    variant: str = ""
    section: Section
    name: Names
    description: Names
    limits: Limits
    settings: dict[str, Setting] = Field(default_factory=dict)
    void_rule: Literal["bets_stand_or_return", "respin"] = Field(
        default="bets_stand_or_return",
        description="after a void round: players may leave, change or take back their bets "
                    "(RAY 1.2.1), or the device is spun again with the bets standing (1.2.3)")
    choices: list[str] = Field(
        default=[], description="decisions the rulebook leaves open, with the reason for each"
    )


class Wheel(Strict):
    numbers: int = Field(gt=0)
    zeros: list[str]
    section: Section


class ZeroRule(Strict):
    """What a zero does to outside bets that do not cover it."""

    even_chance: Literal["lose", "half", "setting"]
    two_to_one: Literal["lose"] = "lose"
    section: Section


class AlternatePaytable(Strict):
    """Version B: a device drawn after 'no more bets' picks the payout table."""

    slots: int = Field(gt=1)
    alternate_slots: int = Field(gt=0)
    odds: dict[str, OddsText]
    section: Section


class MultiplierFace(Strict):
    odds: OddsText
    count: int = Field(gt=0)


class Multiplier(Strict):
    """Versions G, H, I: straight-up wins are paid at a multiplier drawn from a device."""

    applies_to: Literal["straight"]
    faces: list[MultiplierFace] = Field(min_length=1)
    section: Section


class Groups(Strict):
    red: list[int]
    black: list[int]
    low: list[int]
    high: list[int]
    section: Section


class RouletteRules(GameRulesBase):
    game: Literal["roulette"]
    wheel: Wheel
    groups: Groups
    bets: dict[str, BetRule]
    zero_rule: ZeroRule
    paytable_device: AlternatePaytable | None = None
    multiplier: Multiplier | None = None

    @model_validator(mode="after")
    def _consistent(self) -> RouletteRules:
        known = {
            "straight", "split", "street", "corner", "sixline", "first_five", "dozen",
            "column", "red", "black", "even", "odd", "low", "high", "quarter",
        }
        unknown = set(self.bets) - known
        if unknown:
            raise ValueError(f"bets: unknown bet types {sorted(unknown)}")
        if "straight" not in self.bets:
            raise ValueError("bets: every roulette layout has straight-ups")
        if "first_five" in self.bets and "00" not in self.wheel.zeros:
            raise ValueError("bets: first_five needs a double-zero wheel")
        if self.paytable_device and set(self.paytable_device.odds) - set(self.bets):
            raise ValueError("paytable_device: names a bet the layout lacks")
        if self.zero_rule.even_chance == "setting" and "zero_rule" not in self.settings:
            raise ValueError("zero_rule: even_chance = 'setting' needs a settings.zero_rule entry")
        numbers = set(range(1, self.wheel.numbers + 1))
        for name in ("red", "black", "low", "high"):
            group = set(getattr(self.groups, name))
            if not group <= numbers or len(group) * 2 != len(numbers):
                raise ValueError(f"groups.{name}: must be half of the numbers 1-{len(numbers)}")
        if self.multiplier is None and self.bets["straight"].odds == "device":
            raise ValueError("bets.straight: odds 'device' needs a [multiplier] device")
        return self


class BouleRules(GameRulesBase):
    game: Literal["boule"]
    numbers: int = Field(gt=0)
    copies: int = Field(gt=0, description="pockets per number on the wheel")
    excluded_number: int
    groups: dict[str, list[int]]
    bets: dict[str, BetRule]
    wheel_section: Section

    @model_validator(mode="after")
    def _consistent(self) -> BouleRules:
        numbers = set(range(1, self.numbers + 1))
        for name, members in self.groups.items():
            if not set(members) <= numbers - {self.excluded_number}:
                raise ValueError(f"groups.{name}: only numbers 1-{self.numbers} other than "
                                 f"{self.excluded_number}")
        if set(self.bets) != {"straight", *self.groups}:
            raise ValueError("bets: one straight-up bet and one bet per group, no more")
        return self


class Symbol(Strict):
    name: str
    sectors: int = Field(gt=0)
    odds: OddsText


class MoneyWheelRules(GameRulesBase):
    game: Literal["money-wheel"]
    sectors: int
    symbols: list[Symbol]
    wheel_section: Section
    void_section: Section

    @model_validator(mode="after")
    def _sectors(self) -> MoneyWheelRules:
        total = sum(s.sectors for s in self.symbols)
        if total != self.sectors:
            raise ValueError(f"symbols: cover {total} sectors, the wheel has {self.sectors}")
        if len({s.name for s in self.symbols}) != len(self.symbols):
            raise ValueError("symbols: names must differ")
        return self


class TuplanoppaRules(GameRulesBase):
    game: Literal["tuplanoppa"]
    bets: dict[str, BetRule]
    seven_rule: Literal["half"]
    seven_rule_section: Section

    @model_validator(mode="after")
    def _every_spot(self) -> TuplanoppaRules:
        want = {f"sum_{n}" for n in range(2, 13)} | {"any_pair", "under_7", "over_7"}
        if set(self.bets) != want:
            raise ValueError(f"bets: must be exactly {sorted(want)}")
        return self


class SicBoRules(GameRulesBase):
    game: Literal["sic-bo"]
    bets: dict[str, BetRule]
    single: list[OddsText] = Field(min_length=3, max_length=3)
    single_section: Section
    totals: dict[str, OddsText]
    totals_section: Section

    @field_validator("bets")
    @classmethod
    def _every_bet(cls, v: dict[str, BetRule]) -> dict[str, BetRule]:
        want = {"small", "big", "single", "two_dice", "double", "any_triple", "specific_triple"}
        if set(v) != want:
            raise ValueError(f"must be exactly {sorted(want)}")
        return v

    @field_validator("totals")
    @classmethod
    def _totals(cls, v: dict[str, str]) -> dict[str, str]:
        if sorted(v, key=int) != [str(t) for t in range(4, 18)]:
            raise ValueError("totals must list each three-dice total from 4 to 17 once")
        return v


class CitedOdds(Strict):
    odds: OddsText
    section: Section


class BlackjackPayouts(Strict):
    win: CitedOdds
    blackjack: CitedOdds
    insurance: CitedOdds


class BlackjackRules(GameRulesBase):
    game: Literal["blackjack"]
    seats: int = Field(gt=0, le=7)
    seats_section: Section
    payouts: BlackjackPayouts


class Commission(Strict):
    percent: int = Field(ge=0, le=100)
    section: Section


class Cited(Strict):
    section: Section


class PuntoBancoPayouts(Strict):
    player: CitedOdds
    banker: CitedOdds
    tie: CitedOdds
    commission: Commission
    push_on_tie: Cited
    third_card_rule: Cited


class PuntoBancoRules(GameRulesBase):
    game: Literal["punto-banco"]
    payouts: PuntoBancoPayouts


GameRules = (RouletteRules | BouleRules | MoneyWheelRules | TuplanoppaRules | SicBoRules
             | BlackjackRules | PuntoBancoRules)
