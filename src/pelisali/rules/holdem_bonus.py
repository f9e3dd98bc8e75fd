"""Texas Hold'em Bonus's rule data (``banked/texas-holdem-bonus.toml``): the ante rule, the
Bonus bet's table on the player's two cards and the progressive, as data so that a hall
can set its own. Standard rules: RAY 2016 1.4.1.2 names the game in its contents only.

>>> rules = load_holdem_bonus()
>>> rules.ante_pays_from, rules.bonus["aces_against_aces"], rules.bonus["twos_to_tens"]
('straight', 1000, 3)
>>> load_holdem_bonus(ante="flush").ante_pays_from
'flush'
>>> load_holdem_bonus(bonus="1-2-3")
Traceback (most recent call last):
...
pelisali.rules.loader.RuleDataError: no Bonus table '1-2-3'; tables: 1000-30-25-20-15-10-5-3
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from pelisali.rules.banked import _Cited, _Limits, _named, _Pay, _Progressive, _validated
from pelisali.rules.base import Names, Section, Strict
from pelisali.rules.loader import RuleDataError, data_dir

BONUS_HANDS = ("aces_against_aces", "aces", "ace_king_suited", "ace_queen_or_jack_suited",
               "ace_king", "kings_queens_or_jacks", "ace_queen_or_jack", "twos_to_tens")
"""The Bonus table's hands, best first."""


class _Play(Strict):
    flop: Literal[2]
    turn: Literal[1]
    river: Literal[1]
    fold_loses_bonus: bool
    section: Section


class _AnteRule(Strict):
    pays_from: Literal["straight", "flush"]
    section: Section


class _BonusTable(Strict):
    aces_against_aces: _Pay
    aces: _Pay
    ace_king_suited: _Pay
    ace_queen_or_jack_suited: _Pay
    ace_king: _Pay
    kings_queens_or_jacks: _Pay
    ace_queen_or_jack: _Pay
    twos_to_tens: _Pay
    section: Section


class _HoldemBonusFile(Strict):
    game: Literal["texas-holdem-bonus"]
    standard: Annotated[str, Field(min_length=10)]
    section: Section
    ante: str
    bonus: str
    limits: _Limits
    name: Names
    deal: _Cited
    play: _Play
    ante_rules: dict[str, _AnteRule]
    bonus_tables: dict[str, _BonusTable]
    progressive: _Progressive


@dataclass(frozen=True)
class HoldemBonusRules:
    """Texas Hold'em Bonus's numbers: the ante rule (the least winning hand the ante is paid
    on: ``straight`` or ``flush``), the Bonus table (a hand to its odds), whether a fold
    loses the Bonus bet, the progressive's table, and where each comes from."""

    name: Names
    standard: str
    ante_rule: str
    ante_pays_from: str
    bonus_table: str
    bonus: dict[str, int]
    fold_loses_bonus: bool
    progressive: dict[str, int]
    sections: dict[str, str]
    limits: tuple[int, int] = (100, 20_000)


@cache
def load_holdem_bonus(ante: str | None = None, bonus: str | None = None,
                      path: Path | None = None) -> HoldemBonusRules:
    """Texas Hold'em Bonus's rules with the file's ante rule and Bonus table, or those
    named."""
    path = path or data_dir("banked") / "texas-holdem-bonus.toml"
    data = _validated(_HoldemBonusFile, path)
    ante_name, bonus_name = ante or data.ante, bonus or data.bonus
    ante_rule = _named(data.ante_rules, ante_name, "ante rule", "rules")
    table = _named(data.bonus_tables, bonus_name, "Bonus table")
    if data.limits.min > data.limits.max:
        raise RuleDataError(f"{path}: key 'limits': the least above the most")
    return HoldemBonusRules(
        data.name, data.standard, ante_name, ante_rule.pays_from, bonus_name,
        table.model_dump(exclude={"section"}), data.play.fold_loses_bonus,
        data.progressive.model_dump(exclude={"section"}),
        {"game": data.section, "deal": data.deal.section, "play": data.play.section,
         "ante": ante_rule.section, "bonus": table.section,
         "progressive": data.progressive.section, "limits": data.limits.section},
        (data.limits.min, data.limits.max),
    )
