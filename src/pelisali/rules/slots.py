"""Slot games as rule data: one TOML file a game in ``data/slots/``.

A file gives the reel strips (a base set and, for a game with free spins, a
free-spin set), the window's rows, the paylines (the row on each reel) or, with
``ways = true``, no paylines (the game pays any-way: see
:mod:`pelisali.engine.slots`), the pay table (left-to-right pays as multiples
of the line bet, or of the coin in a ways game), the wild symbols
(what each stands for, and a multiplier), the scatter pays (multiples of the
total bet for scatters anywhere in the window), the scatter-triggered free-spin
feature, the maximum win of a round (a multiple of the total bet) and the bet
levels and lines a player may choose. RAY gives no slot text (sections 2, 5 and
7.8.2 are headings only), so every number is the house's own, original game
design; the cap is set where RAY 2016 section 11 (the largest wins of RAY's
games) would set it.

>>> rules = load_slot_rules("fruit")
>>> rules.reel_count, rules.rows, len(rules.paylines)
(3, 3, 5)
>>> slot_game_ids()
('fruit', 'video')
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError, model_validator

from pelisali.rules.base import Names, Section, Strict
from pelisali.rules.loader import RuleDataError, data_dir, read_toml

SLOT_GAME_IDS = ("fruit", "video")
MAX_STOPS = 64
"""The longest strip a game may have: what the par sheet's counting is built for."""


class LinePay(Strict):
    """``count`` of ``symbol`` from the leftmost reel on a played line pays ``pays`` times the
    line bet."""

    symbol: str
    count: int = Field(ge=1)
    pays: int = Field(gt=0)


class Wild(Strict):
    """A wild symbol: stands for each symbol in ``substitutes`` on a line, and multiplies the
    pay of a line win it takes part in by ``multiplier`` (several wilds multiply together)."""

    symbol: str
    substitutes: tuple[str, ...] = Field(min_length=1)
    multiplier: int = Field(default=1, ge=1)
    section: Section


class ScatterPay(Strict):
    """``count`` or more scatters anywhere in the window pay ``pays`` times the total bet (the
    entry with the largest count reached pays)."""

    count: int = Field(ge=1)
    pays: int = Field(gt=0)


class Scatter(Strict):
    symbol: str
    pays: tuple[ScatterPay, ...] = ()
    section: Section


class Feature(Strict):
    """Free spins: ``trigger`` or more scatters award ``spins`` spins on the free-spin strips,
    every win in them multiplied by ``multiplier``; ``trigger`` scatters in a free spin add
    ``retrigger`` spins."""

    trigger: int = Field(ge=1)
    spins: int = Field(ge=1)
    retrigger: int = Field(ge=0)
    multiplier: int = Field(default=1, ge=1)
    section: Section


class Bets(Strict):
    """The bet a player chooses: cents on each line, and how many lines (the first lines of
    the list) are played. In a ways game ``lines_played`` are the bet multipliers (coins)
    and ``cents_per_line`` the coin's value: the total bet is their product."""

    cents_per_line: tuple[int, ...] = Field(min_length=1)
    lines_played: tuple[int, ...] = Field(min_length=1)
    section: Section


class Cap(Strict):
    """The largest win of a round, as a multiple of its total bet; the feature included."""

    multiplier: int = Field(gt=0)
    section: Section


class Reels(Strict):
    base: tuple[tuple[str, ...], ...] = Field(min_length=1)
    free: tuple[tuple[str, ...], ...] = ()
    section: Section


class SlotRules(Strict):
    """One slot game's rules; the checks across the file name the key they concern."""

    game: Literal["slot"]
    id: str
    section: Section
    name: Names
    description: Names
    rows: int = Field(ge=1, le=5)
    symbols: tuple[str, ...] = Field(min_length=2)
    reels: Reels
    paylines: tuple[tuple[int, ...], ...] = ()
    paylines_section: Section | None = None
    ways: bool = False
    """Pays any-way (every symbol's ways from the leftmost reel) instead of on paylines."""
    pays: tuple[LinePay, ...] = Field(min_length=1)
    pays_section: Section
    wilds: tuple[Wild, ...] = ()
    scatter: Scatter | None = None
    feature: Feature | None = None
    cap: Cap
    bets: Bets
    rtp: str = Field(description="the exact RTP the par sheet computes, as a fraction")

    @cached_property
    def reel_count(self) -> int:
        return len(self.reels.base)

    @cached_property
    def wild_symbols(self) -> frozenset[str]:
        return frozenset(w.symbol for w in self.wilds)

    @model_validator(mode="after")
    def _consistent(self) -> SlotRules:
        known = set(self.symbols)
        if len(known) != len(self.symbols):
            raise ValueError("symbols: a symbol is listed twice")
        n = len(self.reels.base)
        for key, strips in (("reels.base", self.reels.base), ("reels.free", self.reels.free)):
            if strips and len(strips) != n:
                raise ValueError(f"{key}: {len(strips)} reels, but the base game has {n}")
            for r, strip in enumerate(strips):
                if not self.rows <= len(strip) <= MAX_STOPS:
                    raise ValueError(f"{key}: reel {r + 1} has {len(strip)} stops; a strip has "
                                     f"{self.rows} (the rows) to {MAX_STOPS}")
                unknown = sorted(set(strip) - known)
                if unknown:
                    raise ValueError(f"{key}: reel {r + 1} has unknown symbol(s) "
                                     f"{', '.join(unknown)}; symbols are {', '.join(self.symbols)}")
        if self.ways and self.paylines:
            raise ValueError("paylines: a ways game (ways = true) pays any-way; give no "
                             "paylines")
        if not self.ways and not self.paylines:
            raise ValueError("paylines: give at least one payline (or ways = true)")
        if self.paylines and self.paylines_section is None:
            raise ValueError("paylines_section: name the section the paylines come from")
        for i, line in enumerate(self.paylines):
            if len(line) != n:
                raise ValueError(f"paylines: line {i + 1} names {len(line)} rows for {n} reels")
            off = [row for row in line if not 0 <= row < self.rows]
            if off:
                raise ValueError(f"paylines: line {i + 1} goes off the window: row {off[0]} "
                                 f"(rows are 0 to {self.rows - 1})")
        if len(set(self.paylines)) != len(self.paylines):
            raise ValueError("paylines: a line is listed twice")
        scatter = self.scatter.symbol if self.scatter else None
        for pay in self.pays:
            if pay.symbol not in known or pay.symbol == scatter:
                raise ValueError(f"pays: {pay.symbol!r} is not a line symbol")
            if pay.count > n:
                raise ValueError(f"pays: {pay.count} x {pay.symbol} on {n} reels")
        if len({(p.symbol, p.count) for p in self.pays}) != len(self.pays):
            raise ValueError("pays: a symbol and count is listed twice")
        for wild in self.wilds:
            bad = [s for s in (wild.symbol, *wild.substitutes) if s not in known]
            if bad:
                raise ValueError(f"wilds: unknown symbol {bad[0]!r}")
            if scatter in wild.substitutes or set(wild.substitutes) & self.wild_symbols:
                raise ValueError(f"wilds: {wild.symbol} may not stand for a scatter or a wild")
        if self.scatter:
            if self.scatter.symbol not in known or self.scatter.symbol in self.wild_symbols:
                raise ValueError(f"scatter: {self.scatter.symbol!r} is not a symbol of its own")
            counts = [p.count for p in self.scatter.pays]
            if counts != sorted(set(counts)):
                raise ValueError("scatter: pays are listed by rising count, each count once")
        if self.feature:
            if not self.scatter:
                raise ValueError("feature: free spins are triggered by a scatter; give one")
            if not self.reels.free:
                raise ValueError("feature: free spins need reels.free")
        elif self.reels.free:
            raise ValueError("reels.free: free-spin strips without a feature")
        played = list(self.bets.lines_played)
        if self.ways:
            if sorted(set(played)) != played or played[0] < 1:
                raise ValueError("bets: lines_played (a ways game's bet multipliers) are "
                                 "rising whole numbers from 1")
        elif sorted(set(played)) != played or played[0] < 1 or played[-1] > len(self.paylines):
            raise ValueError(f"bets: lines_played rise from 1 to {len(self.paylines)}")
        if any(c <= 0 for c in self.bets.cents_per_line):
            raise ValueError("bets: cents_per_line are positive whole cents")
        try:
            Fraction(self.rtp)
        except ValueError:
            raise ValueError(f"rtp: {self.rtp!r} is not a fraction such as '15593/16384'") \
                from None
        return self


def load_slot_file(path: Path) -> SlotRules:
    """One slot rule file; a file that does not fit is a :class:`RuleDataError` naming the
    file and the key.

    >>> load_slot_file(Path("nowhere.toml"))
    Traceback (most recent call last):
    ...
    pelisali.rules.loader.RuleDataError: nowhere.toml: no such rule file
    """
    raw = read_toml(path)
    return slot_rules_from(raw, str(path))


def slot_rules_from(raw: dict[str, object], where: str = "slot rules") -> SlotRules:
    """Validate rule data already read (a test's small game)."""
    try:
        return SlotRules.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(part) for part in first["loc"])
        message = first["msg"].removeprefix("Value error, ")
        if not key:
            key, sep, rest = message.partition(": ")
            key, message = (key, rest) if sep and " " not in key else ("(top level)", message)
        raise RuleDataError(f"{where}: key '{key}': {message}") from exc


@cache
def load_slot_rules(name: str) -> SlotRules:
    """The packaged rules of slot game ``name`` (``fruit``, ``video``)."""
    path = data_dir("slots") / f"{name}.toml"
    if name not in SLOT_GAME_IDS or not path.exists():
        raise RuleDataError(f"no slot game {name!r}; slot games: {', '.join(SLOT_GAME_IDS)}")
    return load_slot_file(path)


def slot_game_ids() -> tuple[str, ...]:
    return SLOT_GAME_IDS
