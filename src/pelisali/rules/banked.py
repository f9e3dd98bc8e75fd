"""Rule data of the banked games RAY's contents name without their text (RAY 2016
1.4.1.2): standard rules the world over, each file marked so, with its pay tables as
data so that a hall can set its own.

>>> rules = load_three_card_poker()
>>> rules.ante_bonus["straight_flush"], rules.pair_plus["three_of_a_kind"]
(5, 30)
>>> load_three_card_poker(pair_plus="1-3-6-30-40").pair_plus["flush"]
3
>>> load_three_card_poker(pair_plus="2-4-6")
Traceback (most recent call last):
...
pelisali.rules.loader.RuleDataError: no Pair Plus table '2-4-6'; tables: 1-3-6-30-40, \
1-4-5-30-40, 1-4-6-30-40
>>> red = load_red_dog()
>>> red.decks, red.pays[1], red.pays[4], red.three_of_a_kind
(6, 5, 1, 11)
>>> load_red_dog(decks=3)
Traceback (most recent call last):
...
pelisali.rules.loader.RuleDataError: Red Dog is dealt from 1, 2, 4, 6 or 8 decks, not 3
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Annotated, Literal, TypeVar

from pydantic import Field, ValidationError

from pelisali.rules.base import Names, Section, Strict
from pelisali.rules.loader import RuleDataError, data_dir, read_toml

_Pay = Annotated[int, Field(ge=0, le=10_000)]
_File = TypeVar("_File", bound=Strict)


def _validated(schema: type[_File], path: Path) -> _File:
    """The rule file at ``path`` checked against ``schema``; its first error named."""
    try:
        return schema.model_validate(read_toml(path))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RuleDataError(f"{path}: key {where!r}: {first['msg']}") from None


_Table = TypeVar("_Table")


def _named(tables: Mapping[str, _Table], name: str, what: str, kind: str = "tables") -> _Table:
    """The table ``name`` of a file's ``tables``; else an error naming ``what`` was asked
    for and the ``kind`` there are.

    >>> _named({"b": 2, "a": 1}, "a", "pay table")
    1
    >>> _named({"b": 2, "a": 1}, "c", "house way", "house ways")
    Traceback (most recent call last):
    ...
    pelisali.rules.loader.RuleDataError: no house way 'c'; house ways: a, b
    """
    table = tables.get(name)
    if table is None:
        raise RuleDataError(f"no {what} {name!r}; {kind}: {', '.join(sorted(tables))}")
    return table


class _AnteBonus(Strict):
    straight: _Pay
    three_of_a_kind: _Pay
    straight_flush: _Pay
    section: Section


class _PairPlus(Strict):
    pair: _Pay
    flush: _Pay
    straight: _Pay
    three_of_a_kind: _Pay
    straight_flush: _Pay
    section: Section


class _Dealer(Strict):
    qualifies: Literal["Q"]
    section: Section


class _Cited(Strict):
    section: Section


class _Play(Strict):
    fold_loses_pair_plus: bool
    section: Section


class _Ranking(Strict):
    order: list[str]
    section: Section


class _Limits(Strict):
    min: Annotated[int, Field(gt=0)]
    max: Annotated[int, Field(gt=0)]
    section: Section


class _ThreeCardFile(Strict):
    game: Literal["three-card-poker"]
    standard: Annotated[str, Field(min_length=10)]
    section: Section
    ante_bonus: str
    pair_plus: str
    limits: _Limits
    name: Names
    dealer: _Dealer
    play: _Play
    ranking: _Ranking
    ante_bonus_tables: dict[str, _AnteBonus]
    pair_plus_tables: dict[str, _PairPlus]


@dataclass(frozen=True)
class ThreeCardRules:
    """Three Card Poker's numbers: the ante bonus and Pair Plus tables in force (each a
    hand's name to what it pays to one), the dealer's qualifier, and where each comes
    from."""

    name: Names
    standard: str
    ante_bonus_table: str
    ante_bonus: dict[str, int]
    pair_plus_table: str
    pair_plus: dict[str, int]
    qualifier: str
    sections: dict[str, str]
    limits: tuple[int, int] = (100, 50_000)  # the least and the most on a bet, in cents
    fold_loses_pair_plus: bool = True  # a box that folds its ante loses Pair Plus too


@cache
def load_three_card_poker(
    ante_bonus: str | None = None, pair_plus: str | None = None, path: Path | None = None
) -> ThreeCardRules:
    """Three Card Poker's rules with the file's tables, or the ``ante_bonus`` and
    ``pair_plus`` tables named (as a hall chooses)."""
    path = path or data_dir("banked") / "three-card-poker.toml"
    data = _validated(_ThreeCardFile, path)
    bonus_name, plus_name = ante_bonus or data.ante_bonus, pair_plus or data.pair_plus
    bonus = _named(data.ante_bonus_tables, bonus_name, "ante bonus table")
    plus = _named(data.pair_plus_tables, plus_name, "Pair Plus table")
    return ThreeCardRules(
        data.name, data.standard, bonus_name, bonus.model_dump(exclude={"section"}), plus_name,
        plus.model_dump(exclude={"section"}), data.dealer.qualifies,
        {"game": data.section, "dealer": data.dealer.section, "play": data.play.section,
         "ranking": data.ranking.section, "ante_bonus": bonus.section,
         "pair_plus": plus.section, "limits": data.limits.section},
        (data.limits.min, data.limits.max), data.play.fold_loses_pair_plus,
    )


class _RedDogPays(Strict):
    spread_1: _Pay
    spread_2: _Pay
    spread_3: _Pay
    spread_4_or_more: _Pay
    three_of_a_kind: _Pay
    section: Section


class _Shoe(Strict):
    allowed: list[Annotated[int, Field(ge=1, le=8)]]
    section: Section


class _RedDogFile(Strict):
    game: Literal["red-dog"]
    standard: Annotated[str, Field(min_length=10)]
    section: Section
    decks: Annotated[int, Field(ge=1, le=8)]
    pay_table: str
    limits: _Limits
    name: Names
    ranks: _Ranking
    deal: _Cited
    shoe: _Shoe
    pay_tables: dict[str, _RedDogPays]


@dataclass(frozen=True)
class RedDogRules:
    """Red Dog's numbers: the decks in the shoe, what a card between pays to one by the
    spread (``pays[4]`` for a spread of 4 or more), three of a kind, and the sources."""

    name: Names
    standard: str
    decks: int
    pay_table: str
    pays: dict[int, int]
    three_of_a_kind: int
    sections: dict[str, str]
    limits: tuple[int, int] = (100, 50_000)  # the least and the most on the ante, in cents

    def pays_for(self, spread: int) -> int:
        """What a card between pays to one when ``spread`` ranks lie between the two."""
        return self.pays[min(spread, 4)]


@cache
def load_red_dog(decks: int | None = None, pay_table: str | None = None,
                 path: Path | None = None) -> RedDogRules:
    """Red Dog's rules with the file's shoe and pay table, or those named."""
    path = path or data_dir("banked") / "red-dog.toml"
    data = _validated(_RedDogFile, path)
    shoe = data.decks if decks is None else decks
    if shoe not in data.shoe.allowed:
        listed = ", ".join(str(d) for d in data.shoe.allowed[:-1])
        raise RuleDataError(f"Red Dog is dealt from {listed} or {data.shoe.allowed[-1]} "
                            f"decks, not {shoe}")
    table_name = pay_table or data.pay_table
    table = _named(data.pay_tables, table_name, "Red Dog pay table")
    return RedDogRules(
        data.name, data.standard, shoe, table_name,
        {1: table.spread_1, 2: table.spread_2, 3: table.spread_3, 4: table.spread_4_or_more},
        table.three_of_a_kind,
        {"game": data.section, "ranks": data.ranks.section, "deal": data.deal.section,
         "shoe": data.shoe.section, "pays": table.section, "limits": data.limits.section},
        (data.limits.min, data.limits.max),
    )


# -- Baccara, chemin de fer -------------------------------------------------------------
Choice = Literal["draw", "stand"]


class _ChemPlayer(Strict):
    draws_to: Annotated[int, Field(ge=0, le=7)]
    option: Annotated[int, Field(ge=0, le=7)]
    choice: Choice
    section: Section


class _ChemOption(Strict):
    total: Annotated[int, Field(ge=0, le=7)]
    third: Annotated[int, Field(ge=0, le=9)]
    choice: Choice
    section: Section


class _ChemBanker(Strict):
    stood_draws_to: Annotated[int, Field(ge=0, le=7)]
    section: Section
    draws: dict[str, list[Annotated[int, Field(ge=0, le=9)]]]
    options: list[_ChemOption]


class _ChemClock(Strict):
    decision_seconds: Annotated[int, Field(ge=5, le=120)]
    section: Section


class _ChemFile(Strict):
    game: Literal["chemin-de-fer"]
    standard: Annotated[str, Field(min_length=10)]
    section: Section
    decks: Annotated[int, Field(ge=1, le=8)]
    commission_percent: Annotated[int, Field(ge=0, le=25)]
    name: Names
    shoe: _Shoe
    commission: _Cited
    bank: _Cited
    limits: _Limits
    clock: _ChemClock
    player: _ChemPlayer
    banker: _ChemBanker


@dataclass(frozen=True)
class CheminRules:
    """Chemin de fer's règle: the shoe, the commission on the bank's wins, the player's
    drawing rule and choice on five, the banker's tableau (``tableau[total]``: the player's
    third cards the banker draws to, for totals 3 to 6) and the banker's choices
    (``options[(total, third)]``), the seconds each decision of a seat has
    (``decision_seconds``), with the sources."""

    name: Names
    standard: str
    decks: int
    commission_percent: int
    player_draws_to: int
    player_option: int
    player_choice: str
    banker_stood_draws_to: int
    tableau: dict[int, frozenset[int]]
    options: dict[tuple[int, int], str]
    sections: dict[str, str]
    limits: tuple[int, int] = (100, 100_000)
    decision_seconds: int = 15

    def player_draws(self, points: int, choice: str | None = None) -> bool:
        """Whether the player draws on ``points`` (``choice`` on the option total)."""
        if points == self.player_option:
            return (choice or self.player_choice) == "draw"
        return points <= self.player_draws_to

    def banker_draws(self, points: int, third: int | None,
                     choices: Mapping[tuple[int, int], str] | None = None) -> bool:
        """Whether the banker draws on ``points`` when the player's third card is
        ``third`` (None: the player stood), the options as ``choices`` say (else the
        rule data's)."""
        if third is None:
            return points <= self.banker_stood_draws_to
        if points <= 2:
            return True
        if points >= 7:
            return False
        if (points, third) in self.options:
            return (choices or {}).get((points, third), self.options[(points, third)]) == "draw"
        return third in self.tableau[points]


@cache
def load_chemin_de_fer(decks: int | None = None, path: Path | None = None) -> CheminRules:
    """Chemin de fer's règle from the rule file, with its shoe or ``decks``."""
    path = path or data_dir("banked") / "chemin-de-fer.toml"
    data = _validated(_ChemFile, path)
    shoe = data.decks if decks is None else decks
    if shoe not in data.shoe.allowed:
        raise RuleDataError(f"chemin de fer is dealt from "
                            f"{' or '.join(str(d) for d in data.shoe.allowed)} decks, not {shoe}")
    draws = {int(total): frozenset(thirds) for total, thirds in data.banker.draws.items()}
    if sorted(draws) != [3, 4, 5, 6]:
        raise RuleDataError(f"{path}: key 'banker.draws': the banker's totals 3 to 6, each "
                            "with the third cards drawn to")
    options: dict[tuple[int, int], str] = {(o.total, o.third): o.choice
                                           for o in data.banker.options}
    for total, third in options:
        if not 3 <= total <= 6 or third in draws[total]:
            raise RuleDataError(f"{path}: key 'banker.options': banker {total} against "
                                f"{third} is a choice only where the tableau does not draw")
    return CheminRules(
        data.name, data.standard, shoe, data.commission_percent, data.player.draws_to,
        data.player.option, data.player.choice, data.banker.stood_draws_to, draws, options,
        {"game": data.section, "shoe": data.shoe.section, "commission": data.commission.section,
         "bank": data.bank.section, "player": data.player.section,
         "banker": data.banker.section, "limits": data.limits.section,
         "clock": data.clock.section,
         **{f"option {t} v {x}": o.section for o in data.banker.options
            for t, x in [(o.total, o.third)]}},
        (data.limits.min, data.limits.max), data.clock.decision_seconds,
    )


# -- RAY's Blackjack: a rule set of the blackjack engine ------------------------------------
class _RuleSetFile(Strict):
    game: Literal["blackjack"]
    rule_set: str
    standard: Annotated[str, Field(min_length=10)]
    section: Section
    name: Names
    settings: dict[str, str | bool]
    sections: dict[str, str]


@cache
def load_blackjack_rule_set(name: str, path: Path | None = None) -> dict[str, str | bool]:
    """The settings of blackjack rule set ``name`` (``ray``: ``banked/ray-blackjack.toml``),
    each with its source in the file.

    >>> load_blackjack_rule_set("ray")["double_on"]
    '9-11'
    """
    path = path or data_dir("banked") / f"{name}-blackjack.toml"
    if not path.exists():
        raise RuleDataError(f"no blackjack rule set {name!r}")
    data = _validated(_RuleSetFile, path)
    if data.rule_set != name:
        raise RuleDataError(f"{path}: key 'rule_set': {data.rule_set!r}, not {name!r}")
    missing = sorted(set(data.settings) - set(data.sections))
    if missing:
        raise RuleDataError(f"{path}: key 'sections': no source for {', '.join(missing)}")
    return dict(data.settings)


def blackjack_rule_set_marking(name: str, path: Path | None = None) -> str:
    """What a blackjack rule set is, as its rule data marks it, for the terminal.

    >>> print(blackjack_rule_set_marking("ray"))
    Blackjack (RAY): standard hall rules; RAY's text for this game is not in the rulebook
    as extracted
    """
    path = path or data_dir("banked") / f"{name}-blackjack.toml"
    if not path.exists():
        raise RuleDataError(f"no blackjack rule set {name!r}")
    data = _validated(_RuleSetFile, path)
    return f"{data.name.en}: {data.standard}"


# -- Ultimate Texas Hold'em ---------------------------------------------------------------
_Odds = Annotated[str, Field(pattern=r"^[0-9]{1,5}(/[1-9][0-9]{0,2})?$")]
"""A payout to one as rule data: ``"3"`` or a fraction ``"3/2"``."""


class _BlindTable(Strict):
    royal_flush: _Odds
    straight_flush: _Odds
    four_of_a_kind: _Odds
    full_house: _Odds
    flush: _Odds
    straight: _Odds
    section: Section


class _TripsTable(Strict):
    royal_flush: _Pay
    straight_flush: _Pay
    four_of_a_kind: _Pay
    full_house: _Pay
    flush: _Pay
    straight: _Pay
    three_of_a_kind: _Pay
    section: Section


class _UthDealer(Strict):
    qualifies: Literal["pair"]
    section: Section


class _UthPlay(Strict):
    preflop: list[Annotated[int, Field(ge=1, le=4)]]
    flop: Literal[2]
    river: Literal[1]
    fold_loses_trips: bool
    section: Section


class _Progressive(Strict):
    fee: Annotated[int, Field(gt=0)]
    pool_percent_royal: Annotated[int, Field(ge=1, le=100)]
    pool_percent_straight_flush: Annotated[int, Field(ge=0, le=100)]
    four_of_a_kind: _Pay
    full_house: _Pay
    flush: _Pay
    straight: _Pay
    three_of_a_kind: _Pay
    seed: Annotated[int, Field(ge=0)]
    share_percent: Annotated[int, Field(ge=0, le=100)]
    section: Section


class _UthFile(Strict):
    game: Literal["ultimate-texas-holdem"]
    standard: Annotated[str, Field(min_length=10)]
    section: Section
    blind: str
    trips: str
    limits: _Limits
    name: Names
    deal: _Cited
    dealer: _UthDealer
    play: _UthPlay
    blind_tables: dict[str, _BlindTable]
    trips_tables: dict[str, _TripsTable]
    progressive: _Progressive


@dataclass(frozen=True)
class UltimateRules:
    """Ultimate Texas Hold'em's numbers: the blind table (a category to its odds, exact
    fractions), the Trips table, the play bets allowed before the flop, whether a fold
    loses Trips, the progressive's table, and where each comes from."""

    name: Names
    standard: str
    blind_table: str
    blind: dict[str, Fraction]
    trips_table: str
    trips: dict[str, int]
    preflop: tuple[int, ...]
    fold_loses_trips: bool
    progressive: dict[str, int]
    sections: dict[str, str]
    limits: tuple[int, int] = (100, 20_000)


@cache
def load_ultimate(blind: str | None = None, trips: str | None = None,
                  path: Path | None = None) -> UltimateRules:
    """Ultimate Texas Hold'em's rules with the file's tables, or those named.

    >>> rules = load_ultimate()
    >>> rules.blind["flush"], rules.trips["full_house"], rules.preflop
    (Fraction(3, 2), 8, (3, 4))
    >>> load_ultimate(trips="50-40-30-8-7-4-3").trips["flush"]
    7
    """
    path = path or data_dir("banked") / "ultimate-texas-holdem.toml"
    data = _validated(_UthFile, path)
    blind_name, trips_name = blind or data.blind, trips or data.trips
    blind_table = _named(data.blind_tables, blind_name, "blind table")
    trips_table = _named(data.trips_tables, trips_name, "Trips table")
    odds = {k: Fraction(v) for k, v in blind_table.model_dump(exclude={"section"}).items()}
    if any(o.denominator not in (1, 2) for o in odds.values()):
        raise RuleDataError(f"{path}: key 'blind_tables.{blind_name}': the blind pays whole "
                            "or half odds (3/2)")
    if sorted(set(data.play.preflop)) != sorted(data.play.preflop) or 2 in data.play.preflop:
        raise RuleDataError(f"{path}: key 'play.preflop': distinct multiples above the "
                            "flop's 2, from 3 up")
    return UltimateRules(
        data.name, data.standard, blind_name, odds, trips_name,
        trips_table.model_dump(exclude={"section"}), tuple(sorted(data.play.preflop)),
        data.play.fold_loses_trips, data.progressive.model_dump(exclude={"section"}),
        {"game": data.section, "deal": data.deal.section, "dealer": data.dealer.section,
         "play": data.play.section, "blind": blind_table.section,
         "trips": trips_table.section, "progressive": data.progressive.section,
         "limits": data.limits.section},
        (data.limits.min, data.limits.max),
    )
