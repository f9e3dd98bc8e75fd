"""Tournament rule data: blind and ante structures and payout tables (RULINGS Tournaments).

A structure (``data/tournaments/structures/NAME.toml``) lists its levels in order:
each play level its small blind, big blind, big-blind ante and minutes; a break
between levels only its minutes. A payout table (``data/tournaments/payouts/``)
gives, for each band of field sizes, the share of the prize pool of each paid
place in basis points.

>>> regular = load_structure("regular")
>>> first = regular.levels[0]
>>> (first.number, first.small_blind, first.big_blind, first.ante, first.seconds)
(1, 25, 50, 0, 1200)
>>> regular.levels[4]
Break(seconds=300, after_level=4)
>>> load_payouts().places_for(6)
(6500, 3500)

A leaderboard tournament (``data/tournaments/leaderboard/NAME.toml``: a table-game or
slot tournament) names its game, the tournament chips each entry starts with, the
rounds (spins) each entry plays or the time limit, the least and most staked a round,
and the most an entry may cost.

>>> sprint = load_leaderboard("roulette-sprint")
>>> sprint.game, sprint.starting_chips, sprint.rounds, (sprint.min_bet, sprint.max_bet)
('roulette-C', 10000, 20, (100, 2500))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TypeVar

from pydantic import Field, ValidationError, model_validator

from pelisali.rules.base import Names, Section, Strict
from pelisali.rules.loader import RuleDataError, data_dir, read_toml


@dataclass(frozen=True)
class Level:
    """A play level: blinds, the big-blind ante (0: none) and its length."""

    number: int  # play levels count from 1; breaks are not numbered
    small_blind: int
    big_blind: int
    ante: int
    seconds: int


@dataclass(frozen=True)
class Break:
    """A break between levels."""

    seconds: int
    after_level: int


@dataclass(frozen=True)
class Structure:
    structure: str
    name: Names
    starting_chips: int
    levels: tuple[Level | Break, ...]
    section: str

    @property
    def play_levels(self) -> tuple[Level, ...]:
        return tuple(item for item in self.levels if isinstance(item, Level))


class _LevelRow(Strict):
    small_blind: int | None = Field(default=None, gt=0)
    big_blind: int | None = Field(default=None, gt=0)
    ante: int = Field(default=0, ge=0)
    minutes: int | None = Field(default=None, gt=0, le=240)
    break_minutes: int | None = Field(default=None, gt=0, le=120)

    @model_validator(mode="after")
    def _level_or_break(self) -> _LevelRow:
        play = (self.small_blind, self.big_blind, self.minutes)
        if self.break_minutes is not None:
            if any(v is not None for v in play) or self.ante:
                raise ValueError("a break has only break_minutes")
        elif any(v is None for v in play):
            raise ValueError("a level needs small_blind, big_blind and minutes")
        elif self.small_blind > self.big_blind:  # type: ignore[operator]
            raise ValueError(f"small blind {self.small_blind} is above the big blind "
                             f"{self.big_blind}")
        return self


class _StructureFile(Strict):
    structure: str
    section: Section
    name: Names
    starting_chips: int = Field(gt=0)
    level: list[_LevelRow] = Field(min_length=1)

    @model_validator(mode="after")
    def _in_order(self) -> _StructureFile:
        if self.level[0].break_minutes is not None:
            raise ValueError("a structure starts with a level, not a break")
        big = 0
        for row in self.level:
            if row.big_blind is not None:
                if row.big_blind < big:
                    raise ValueError(f"big blind {row.big_blind} after {big}: levels rise")
                big = row.big_blind
        return self


class _Band(Strict):
    entrants: tuple[int, int]
    places: list[int] = Field(min_length=1)

    @model_validator(mode="after")
    def _shares(self) -> _Band:
        low, high = self.entrants
        if not 2 <= low <= high:
            raise ValueError(f"entrants {low}..{high}: from 2 up")
        if sum(self.places) != 10_000:
            raise ValueError(f"places add up to {sum(self.places)} basis points, not 10000")
        if any(p <= 0 for p in self.places) or any(
                a < b for a, b in zip(self.places, self.places[1:], strict=False)):
            raise ValueError("place shares are positive and do not rise")
        if len(self.places) > low:
            raise ValueError(f"{len(self.places)} places for as few as {low} entrants")
        return self


class _PayoutFile(Strict):
    payouts: str
    section: Section
    name: Names
    band: list[_Band] = Field(min_length=1)

    @model_validator(mode="after")
    def _contiguous(self) -> _PayoutFile:
        expected = 2
        for band in self.band:
            if band.entrants[0] != expected:
                raise ValueError(f"the band from {band.entrants[0]} entrants should start "
                                 f"at {expected}")
            expected = band.entrants[1] + 1
        return self


@dataclass(frozen=True)
class PayoutTable:
    payouts: str
    name: Names
    bands: tuple[tuple[int, int, tuple[int, ...]], ...]
    section: str

    @property
    def most_entrants(self) -> int:
        return self.bands[-1][1]

    def places_for(self, entrants: int) -> tuple[int, ...]:
        """Each paid place's share of the pool, in basis points, for a field this size.

        >>> load_payouts().places_for(2)
        (10000,)
        """
        for low, high, places in self.bands:
            if low <= entrants <= high:
                return places
        raise RuleDataError(f"payout table {self.payouts!r} covers 2 to "
                            f"{self.most_entrants:,} entrants, not {entrants:,}")


_Model = TypeVar("_Model", bound=Strict)


def _validated(model: type[_Model], path: Path) -> _Model:
    raw = read_toml(path)
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RuleDataError(f"{path}: key {where!r}: {first['msg']}") from None


def _ids(kind: str) -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in (data_dir("tournaments") / kind).glob("*.toml")))


def structure_ids() -> tuple[str, ...]:
    """The structures shipped: ``('regular', 'sit-and-go', 'turbo')``."""
    return _ids("structures")


def payout_ids() -> tuple[str, ...]:
    return _ids("payouts")


def leaderboard_ids() -> tuple[str, ...]:
    """The leaderboard tournaments shipped (table-game and slot tournaments)."""
    return _ids("leaderboard")


@cache
def load_structure(name: str, path: Path | None = None) -> Structure:
    """A structure by name (or from ``path``); a malformed file names the file and key."""
    if path is None:
        if name not in structure_ids():
            raise RuleDataError(f"no tournament structure {name!r}; structures: "
                                f"{', '.join(structure_ids())}")
        path = data_dir("tournaments") / "structures" / f"{name}.toml"
    data = _validated(_StructureFile, path)
    if data.structure != name:
        raise RuleDataError(f"{path}: key 'structure': {data.structure!r}, expected {name!r}")
    items: list[Level | Break] = []
    number = 0
    for row in data.level:
        if row.break_minutes is not None:
            items.append(Break(row.break_minutes * 60, number))
        else:
            number += 1
            items.append(Level(number, row.small_blind or 0, row.big_blind or 0, row.ante,
                               (row.minutes or 0) * 60))
    return Structure(name, data.name, data.starting_chips, tuple(items), data.section)


@cache
def load_payouts(name: str = "standard", path: Path | None = None) -> PayoutTable:
    """A payout table by name (or from ``path``)."""
    if path is None:
        if name not in payout_ids():
            raise RuleDataError(f"no payout table {name!r}; tables: {', '.join(payout_ids())}")
        path = data_dir("tournaments") / "payouts" / f"{name}.toml"
    data = _validated(_PayoutFile, path)
    if data.payouts != name:
        raise RuleDataError(f"{path}: key 'payouts': {data.payouts!r}, expected {name!r}")
    bands = tuple((b.entrants[0], b.entrants[1], tuple(b.places)) for b in data.band)
    return PayoutTable(name, data.name, bands, data.section)


@dataclass(frozen=True)
class LeaderboardStructure:
    """A table-game or slot tournament's rules: the game and its table settings, the
    chips an entry starts with, the rounds (spins) it plays and the time limit (0: none),
    the least and most staked a round, the most an entry may cost (buy-in and fee)."""

    structure: str
    name: Names
    game: str
    game_settings: tuple[tuple[str, str], ...]  # the table settings, by name
    starting_chips: int
    rounds: int
    seconds: int
    min_bet: int
    max_bet: int
    max_entry_fee: int
    payouts: str
    section: str
    limits_section: str
    entry_fee_section: str


class _BetLimits(Strict):
    min_bet: int = Field(gt=0)
    max_bet: int = Field(gt=0)
    section: Section


class _EntryFee(Strict):
    max: int = Field(gt=0)
    section: Section


class _LeaderboardFile(Strict):
    leaderboard: str
    section: Section
    name: Names
    game: str = Field(min_length=1)
    game_settings: dict[str, str] = Field(default_factory=dict)
    starting_chips: int = Field(gt=0)
    rounds: int = Field(default=0, ge=0, le=10_000)
    minutes: int = Field(default=0, ge=0, le=24 * 60)
    payouts: str = "standard"
    limits: _BetLimits
    entry_fee: _EntryFee

    @model_validator(mode="after")
    def _playable(self) -> _LeaderboardFile:
        if not self.rounds and not self.minutes:
            raise ValueError("a leaderboard tournament needs rounds, minutes or both")
        if self.limits.min_bet > self.limits.max_bet:
            raise ValueError(f"min_bet {self.limits.min_bet} is above max_bet "
                             f"{self.limits.max_bet}")
        if self.limits.min_bet > self.starting_chips:
            raise ValueError(f"min_bet {self.limits.min_bet} is above the starting chips "
                             f"{self.starting_chips}")
        return self


@cache
def load_leaderboard(name: str, path: Path | None = None) -> LeaderboardStructure:
    """A leaderboard tournament's rules by name (or from ``path``); a malformed file
    names the file and key.

    >>> load_leaderboard("slot-200-spins").rounds
    200
    >>> load_leaderboard("poker")
    Traceback (most recent call last):
    ...
    pelisali.rules.loader.RuleDataError: no leaderboard tournament 'poker'; ...
    """
    if path is None:
        if name not in leaderboard_ids():
            raise RuleDataError(f"no leaderboard tournament {name!r}; tournaments: "
                                f"{', '.join(leaderboard_ids())}")
        path = data_dir("tournaments") / "leaderboard" / f"{name}.toml"
    data = _validated(_LeaderboardFile, path)
    if data.leaderboard != name:
        raise RuleDataError(f"{path}: key 'leaderboard': {data.leaderboard!r}, "
                            f"expected {name!r}")
    load_payouts(data.payouts)  # refuses an unknown payout table
    return LeaderboardStructure(
        name, data.name, data.game, tuple(sorted(data.game_settings.items())), data.starting_chips,
        data.rounds, data.minutes * 60, data.limits.min_bet, data.limits.max_bet,
        data.entry_fee.max, data.payouts, data.section, data.limits.section,
        data.entry_fee.section)
