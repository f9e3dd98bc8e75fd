"""Russian Poker's rule data (``banked/russian-poker.toml``): the draw's and a bought game's
price, the least exchange, whether the ante is paid beside a winning bet, the pay table
and the limits, as data so that a hall can set its own. Standard rules: RAY 2016
1.4.1.2.5 and 4.4.1.2.2 name the game in its contents only.

>>> rules = load_russian()
>>> rules.pays["royal_flush"], rules.pays["ace_king"], rules.draw_price, rules.exchange_least
(100, 1, 1, 1)
>>> rules.buy_game, rules.redraw_same_rank, rules.ante_on_win, rules.most_combinations
(True, True, False, 2)
>>> load_russian(pays="1-1-1")
Traceback (most recent call last):
...
pelisali.rules.loader.RuleDataError: no pay table '1-1-1'; tables: 100-50-20-7-5-4-3-2-1-1
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from pelisali.rules.banked import _Cited, _Limits, _named, _validated
from pelisali.rules.base import Names, Section, Strict
from pelisali.rules.loader import RuleDataError, data_dir
from pelisali.rules.oasis import PAY_HANDS as PAY_HANDS
from pelisali.rules.oasis import _PayTable  # the same ten hands, ace-king the least

_Antes = Annotated[int, Field(ge=0, le=10)]


class _Draw(Strict):
    price: _Antes
    exchange_least: Annotated[int, Field(ge=1, le=5)]
    sixth_card: bool
    section: Section


class _Play(Strict):
    bet: Literal[2]
    ante_on_win: bool
    section: Section


class _Combinations(Strict):
    most: Annotated[int, Field(ge=1, le=2)]
    section: Section


class _BuyGame(Strict):
    allowed: bool
    price: _Antes
    redraw_same_rank: bool
    section: Section


class _RussianFile(Strict):
    game: Literal["russian-poker"]
    standard: Annotated[str, Field(min_length=10)]
    section: Section
    pays: str
    limits: _Limits
    name: Names
    deal: _Cited
    draw: _Draw
    play: _Play
    combinations: _Combinations
    buy_game: _BuyGame
    pay_tables: dict[str, _PayTable]


@dataclass(frozen=True)
class RussianRules:
    """Russian Poker's numbers: the pay table (a combination of :data:`PAY_HANDS` to its
    odds), the draw's price in antes and the fewest cards an exchange takes, whether a
    sixth card may be bought, whether a winning bet's ante is paid 1:1 (else it pushes),
    how many combinations are paid, whether and for how many antes a box may buy the
    dealer a game and whether a card of the rank put away is drawn again, the limits, and
    where each comes from."""

    name: Names
    standard: str
    pay_table: str
    pays: dict[str, int]
    sections: dict[str, str]
    draw_price: int = 1
    exchange_least: int = 1
    sixth_card: bool = True
    ante_on_win: bool = False
    most_combinations: int = 2
    buy_game: bool = True
    buy_price: int = 1
    redraw_same_rank: bool = True
    bet_multiple: int = 2
    limits: tuple[int, int] = (100, 20_000)

    @property
    def raise_multiple(self) -> int:
        """The bet in antes, by the name the Oasis-style engine reads it (its ``raise``)."""
        return self.bet_multiple

    def fee(self, cards: int, ante: int) -> int:
        """The price in cents of exchanging ``cards`` cards (``exchange_least`` to 5) on
        an ante of ``ante`` cents: one price whatever the number.

        >>> load_russian().fee(3, 500)
        500
        """
        if not self.exchange_least <= cards <= 5:
            raise ValueError(f"a box exchanges {self.exchange_least} to 5 cards, not {cards}")
        return self.draw_price * ante


@cache
def load_russian(pays: str | None = None, path: Path | None = None) -> RussianRules:
    """Russian Poker's rules with the file's pay table, or the one named."""
    path = path or data_dir("banked") / "russian-poker.toml"
    data = _validated(_RussianFile, path)
    pay_name = pays or data.pays
    pay_table = _named(data.pay_tables, pay_name, "pay table")
    if data.limits.min > data.limits.max:
        raise RuleDataError(f"{path}: key 'limits': the least above the most")
    return RussianRules(
        data.name, data.standard, pay_name, pay_table.model_dump(exclude={"section"}),
        {"game": data.section, "deal": data.deal.section, "draw": data.draw.section,
         "play": data.play.section, "combinations": data.combinations.section,
         "buy_game": data.buy_game.section, "pays": pay_table.section,
         "limits": data.limits.section},
        data.draw.price, data.draw.exchange_least, data.draw.sixth_card,
        data.play.ante_on_win, data.combinations.most, data.buy_game.allowed,
        data.buy_game.price, data.buy_game.redraw_same_rank, data.play.bet,
        (data.limits.min, data.limits.max),
    )
