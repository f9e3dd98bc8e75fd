"""Oasis Stud Poker's rule data (``banked/oasis-stud.toml``): the exchange's fee table, the
raise pay table and the limits, as data so that a hall can set its own. Standard rules:
RAY 2016 1.4.1.2 names the game in its contents only.

>>> rules = load_oasis()
>>> rules.fees, rules.pays["royal_flush"], rules.pays["ace_king"]
((1, 2, 3, 2, 1), 100, 1)
>>> rules.fee(3, 500), load_oasis(fees="per-card").fee(5, 500)
(1500, 2500)
>>> load_oasis(fees="1-1-1")
Traceback (most recent call last):
...
pelisali.rules.loader.RuleDataError: no fee table '1-1-1'; tables: 1-2-3-2-1, per-card
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from pelisali.rules.banked import _Cited, _Limits, _named, _Pay, _validated
from pelisali.rules.base import Names, Section, Strict
from pelisali.rules.loader import RuleDataError, data_dir

PAY_HANDS = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
             "straight", "three_of_a_kind", "two_pair", "pair", "ace_king")
"""The raise pay table's hands, best first; ``ace_king`` is a hand without a pair (a box
that beats a qualifying dealer without a pair holds ace-king at least)."""

_Antes = Annotated[int, Field(ge=0, le=100)]


class _Exchange(Strict):
    five_must_raise: bool
    section: Section


class _Play(Strict):
    raise_: Annotated[Literal[2], Field(alias="raise")]
    section: Section


class _FeeTable(Strict):
    antes: Annotated[list[_Antes], Field(min_length=5, max_length=5)]
    section: Section


class _PayTable(Strict):
    royal_flush: _Pay
    straight_flush: _Pay
    four_of_a_kind: _Pay
    full_house: _Pay
    flush: _Pay
    straight: _Pay
    three_of_a_kind: _Pay
    two_pair: _Pay
    pair: _Pay
    ace_king: _Pay
    section: Section


class _OasisFile(Strict):
    game: Literal["oasis-stud"]
    standard: Annotated[str, Field(min_length=10)]
    section: Section
    fees: str
    pays: str
    limits: _Limits
    name: Names
    deal: _Cited
    exchange: _Exchange
    play: _Play
    fee_tables: dict[str, _FeeTable]
    pay_tables: dict[str, _PayTable]


@dataclass(frozen=True)
class OasisRules:
    """Oasis Stud Poker's numbers: the fee table (``fees[n - 1]`` times the ante for
    exchanging ``n`` cards), the raise pay table (a hand of :data:`PAY_HANDS` to its
    odds), the raise as a multiple of the ante, whether a box that exchanges all five
    must raise, the limits, and where each comes from."""

    name: Names
    standard: str
    fee_table: str
    fees: tuple[int, ...]
    pay_table: str
    pays: dict[str, int]
    five_must_raise: bool
    sections: dict[str, str]
    raise_multiple: int = 2
    limits: tuple[int, int] = (100, 20_000)

    def fee(self, cards: int, ante: int) -> int:
        """The fee in cents for exchanging ``cards`` (1 to 5) cards on an ante of ``ante``
        cents."""
        if not 1 <= cards <= 5:
            raise ValueError(f"a box exchanges 1 to 5 cards, not {cards}")
        return self.fees[cards - 1] * ante


@cache
def load_oasis(fees: str | None = None, pays: str | None = None,
               path: Path | None = None) -> OasisRules:
    """Oasis Stud Poker's rules with the file's fee table and raise pay table, or those
    named."""
    path = path or data_dir("banked") / "oasis-stud.toml"
    data = _validated(_OasisFile, path)
    fee_name, pay_name = fees or data.fees, pays or data.pays
    fee_table = _named(data.fee_tables, fee_name, "fee table")
    pay_table = _named(data.pay_tables, pay_name, "raise pay table")
    if data.limits.min > data.limits.max:
        raise RuleDataError(f"{path}: key 'limits': the least above the most")
    return OasisRules(
        data.name, data.standard, fee_name, tuple(fee_table.antes), pay_name,
        pay_table.model_dump(exclude={"section"}), data.exchange.five_must_raise,
        {"game": data.section, "deal": data.deal.section, "exchange": data.exchange.section,
         "play": data.play.section, "fees": fee_table.section, "pays": pay_table.section,
         "limits": data.limits.section},
        data.play.raise_, (data.limits.min, data.limits.max),
    )
