"""Pai Gow Poker's rule data (``banked/pai-gow-poker.toml``): the joker, where A-2-3-4-5
ranks, the commission and how it is rounded, the limits and the house way, as data so that
a hall can set its own. Standard rules: RAY 2016 1.4.1.2 names the game in its contents
only.

A house way's tables are read into rank indices (deuce 0 ... ace 12): for two pair and
four of a kind, by the rank of the higher pair or of the four, the least rank the highest
single card must have for the hand to stay together in back (``None``: always split; a
deuce, ``0``: always kept).

>>> rules = load_pai_gow()
>>> rules.wheel, rules.commission_percent, rules.commission_rounding, rules.limits
('second', 5, 'up', (100, 50000))
>>> way = rules.house_way
>>> way.two_pair[12], way.two_pair[8], way.two_pair[4], way.four_of_a_kind[0]
(None, 12, 11, 0)
>>> load_pai_gow(house_way="trump")
Traceback (most recent call last):
...
pelisali.rules.loader.RuleDataError: no house way 'trump'; house ways: foxwoods
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from pelisali.cards import RANKS
from pelisali.rules.banked import _Cited, _Limits, _named, _validated
from pelisali.rules.base import Names, Section, Strict
from pelisali.rules.loader import RuleDataError, data_dir

_Rank = Literal["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
_Choice = Literal["split", "keep", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q",
                  "K", "A"]


class _Deck(Strict):
    jokers: Literal[1]
    section: Section


class _Ranking(Strict):
    wheel: Literal["second", "low"]
    section: Section


class _Settle(Strict):
    commission_percent: Annotated[int, Field(ge=0, le=100)]
    commission_rounding: Literal["up", "down"]
    section: Section


class _HouseWay(Strict):
    two_pair: dict[_Rank, _Choice]
    trips_split: list[_Rank]
    four_of_a_kind: dict[_Rank, _Choice]
    five_aces_keep_with_pair: _Rank
    straight_ace_exception: list[_Rank]
    full_house_keep_pairs: list[_Rank]
    section: Section


class _Banking(Strict):
    allowed: bool
    house_between: bool
    most_percent: Annotated[int, Field(ge=100, le=1000)]
    section: Section


class _PaiGowFile(Strict):
    game: Literal["pai-gow-poker"]
    standard: Annotated[str, Field(min_length=10)]
    section: Section
    house_way: str
    limits: _Limits
    name: Names
    deck: _Deck
    ranking: _Ranking
    play: _Cited
    settle: _Settle
    banking: _Banking
    house_ways: dict[str, _HouseWay]


@dataclass(frozen=True)
class HouseWay:
    """A house way's numbers, by rank index (deuce 0 ... ace 12): ``two_pair[r]`` and
    ``four_of_a_kind[r]`` the least rank of the highest single that keeps two pair with
    the higher pair ``r`` (four of a kind of ``r``) in back, ``None`` to split always;
    the ranks of three of a kind that split; the least pair that keeps five aces in
    back; the pairs of the straight's ace exception; the full houses kept with an ace
    and a king."""

    name: str
    two_pair: tuple[int | None, ...]
    trips_split: frozenset[int]
    four_of_a_kind: tuple[int | None, ...]
    five_aces_keep_with_pair: int
    straight_ace_exception: frozenset[int]
    full_house_keep_pairs: frozenset[int]
    section: str


@dataclass(frozen=True)
class PaiGowRules:
    """Pai Gow Poker's numbers: where A-2-3-4-5 ranks (``second`` or ``low``), the
    commission on a win in percent and its rounding to the cent (``up``: the house's way),
    the house way in force, the limits, whether a player may bank (and only after a round
    against the house's bank, for at most ``bank_most_percent`` of that round's bet), and
    where each comes from."""

    name: Names
    standard: str
    wheel: str
    commission_percent: int
    commission_rounding: str
    house_way: HouseWay
    sections: dict[str, str]
    limits: tuple[int, int] = (100, 50_000)
    player_banks: bool = True
    house_between: bool = True
    bank_most_percent: int = 110

    def bank_most(self, last_bet: int) -> int:
        """The most a player banks, in cents, after a bet of ``last_bet`` cents against the
        house's bank (the rule data's percent of it, rounded down to the cent).

        >>> load_pai_gow().bank_most(1000), load_pai_gow().bank_most(999)
        (1100, 1098)
        """
        return last_bet * self.bank_most_percent // 100

    def commission(self, win: int) -> int:
        """The commission in whole cents on a win of ``win`` cents.

        >>> load_pai_gow().commission(1000), load_pai_gow().commission(101)
        (50, 6)
        """
        exact = win * self.commission_percent
        return -(-exact // 100) if self.commission_rounding == "up" else exact // 100


def _table(path: Path, what: str, table: Mapping[_Rank, _Choice], ranks: str
           ) -> tuple[int | None, ...]:
    """A rank-keyed table as a tuple by rank index; every rank of ``ranks`` must be there."""
    if set(table) != set(ranks):
        missing = sorted(set(ranks) - set(table), key=RANKS.index)
        raise RuleDataError(f"{path}: key {what!r}: the ranks {' '.join(ranks)} each once"
                            + (f"; missing {' '.join(missing)}" if missing else ""))
    out: list[int | None] = [None] * len(RANKS)
    for rank, choice in table.items():
        out[RANKS.index(rank)] = None if choice == "split" else 0 if choice == "keep" \
            else RANKS.index(choice)
    return tuple(out)


@cache
def load_pai_gow(house_way: str | None = None, path: Path | None = None) -> PaiGowRules:
    """Pai Gow Poker's rules with the file's house way, or the one named."""
    path = path or data_dir("banked") / "pai-gow-poker.toml"
    data = _validated(_PaiGowFile, path)
    way_name = house_way or data.house_way
    way = _named(data.house_ways, way_name, "house way", "house ways")
    if data.limits.min > data.limits.max:
        raise RuleDataError(f"{path}: key 'limits': the least above the most")
    rules_way = HouseWay(
        way_name, _table(path, "two_pair", way.two_pair, RANKS[1:]),
        frozenset(RANKS.index(r) for r in way.trips_split),
        _table(path, "four_of_a_kind", way.four_of_a_kind, RANKS),
        RANKS.index(way.five_aces_keep_with_pair),
        frozenset(RANKS.index(r) for r in way.straight_ace_exception),
        frozenset(RANKS.index(r) for r in way.full_house_keep_pairs), way.section)
    return PaiGowRules(
        data.name, data.standard, data.ranking.wheel, data.settle.commission_percent,
        data.settle.commission_rounding, rules_way,
        {"game": data.section, "deck": data.deck.section, "ranking": data.ranking.section,
         "play": data.play.section, "settle": data.settle.section, "house_way": way.section,
         "limits": data.limits.section, "banking": data.banking.section},
        (data.limits.min, data.limits.max), data.banking.allowed,
        data.banking.house_between, data.banking.most_percent,
    )
