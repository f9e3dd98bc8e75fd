"""Red Dog's rules and exact odds: the spread, what a hand pays on each third card, the
optimal raise, and every deal of the shoe counted.

Standard rules (RAY 2016 1.4.2 names the game; its text is not in the rulebook as
extracted): the player bets the ante and two cards are dealt face up, aces high.
Consecutive ranks push. A pair draws a third card: three of a kind pays 11:1, anything
else pushes. Otherwise the spread, the number of ranks between the two, is announced;
the player may raise by up to the ante, and a third card strictly between the two
wins ante and raise by the spread's odds (5:1, 4:1, 2:1, 1:1 for 1, 2, 3, 4 or more),
while any other card loses both. The pay table and the shoe are rule data
(:mod:`pelisali.rules.banked`).

>>> spread("Ts", "4d"), spread("7s", "8d"), spread("9s", "9d")
(5, 0, None)
>>> hand_return("4s", "Td", "7c", raised=True)  # between, spread 5: 1:1 on 2 units
2
>>> hand_return("4s", "6d", "5c", raised=False)  # spread 1 pays 5:1
5
>>> hand_return("4s", "Td", "Kc", raised=True), hand_return("7s", "8d")
(-2, 0)
>>> hand_return("9s", "9d", "9h"), hand_return("9s", "9d", "2h")
(11, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pelisali.cards import DECK
from pelisali.rules.banked import RedDogRules, load_red_dog

ORDER = "23456789TJQKA"
"""The ranks from the lowest: aces high, deuces low."""


class RedDogError(ValueError):
    """A card that is not in the deck, or a hand that needs a card it was not given."""


def _rank(card: str) -> int:
    if card not in DECK:
        raise RedDogError(f"{card!r} is not a card of the deck")
    return ORDER.index(card[0])


def spread(first: str, second: str) -> int | None:
    """The ranks strictly between the two cards (0 for consecutive), None for a pair."""
    a, b = _rank(first), _rank(second)
    return None if a == b else abs(a - b) - 1


def hand_return(first: str, second: str, third: str | None = None, raised: bool = False,
                rules: RedDogRules | None = None) -> int:
    """What the hand wins (positive) or loses, in antes: ``raised`` doubles the stake
    (a raise of the whole ante). A consecutive pair needs no third card."""
    rules = rules or load_red_dog()
    between = spread(first, second)
    if between == 0:
        return 0
    if third is None:
        raise RedDogError("this hand draws a third card")
    if len({first, second, third}) < 3 and rules.decks == 1:
        raise RedDogError("one deck holds each card once")
    if between is None:
        return rules.three_of_a_kind if _rank(third) == _rank(first) else 0
    low, high = sorted((_rank(first), _rank(second)))
    stake = 2 if raised else 1
    if low < _rank(third) < high:
        return stake * rules.pays_for(between)
    return -stake


def should_raise(between: int, rules: RedDogRules | None = None) -> bool:
    """The optimal decision: raise when a card between is worth more than it costs,
    counted exactly with the shoe's two cards gone (raise on equal is no better)."""
    rules = rules or load_red_dog()
    return _spread_value(between, rules) > 0


def _spread_value(between: int, rules: RedDogRules) -> Fraction:
    """The ante's expected return of a hand of ``between`` ranks, not raised."""
    n, left = 4 * rules.decks, 52 * rules.decks - 2
    win = Fraction(between * n, left)
    return win * rules.pays_for(between) - (1 - win)


@dataclass(frozen=True)
class RedDogOdds:
    """Red Dog played optimally from a fresh shoe: the house edge per ante, the element
    of risk (per unit staked, raises included), the share of hands raised, the spreads
    raised, and the ordered two-card deals counted."""

    edge: Fraction
    element_of_risk: Fraction
    raise_share: Fraction
    raise_from: int
    deals: int


def exact(decks: int | None = None, pay_table: str | None = None) -> RedDogOdds:
    """Every ordered deal of the first two cards from the shoe, by rank, and every third
    card: the exact return with the optimal raise.

    >>> odds = exact(decks=6)
    >>> odds.raise_from, round(float(odds.edge) * 100, 4)
    (7, 2.7978)
    """
    rules = load_red_dog(decks, pay_table)
    n, total = 4 * rules.decks, 52 * rules.decks
    ret = staked = raised = Fraction(0)
    raise_from = 12
    for a in range(13):
        for b in range(13):
            chance = Fraction(n * (n - 1 if a == b else n), total * (total - 1))
            if a == b:
                ret += chance * rules.three_of_a_kind * Fraction(n - 2, total - 2)
                staked += chance
                continue
            between = abs(a - b) - 1
            value = _spread_value(between, rules) if between else Fraction(0)
            if between and value > 0:
                ret += chance * 2 * value
                staked += chance * 2
                raised += chance
                raise_from = min(raise_from, between)
            else:
                ret += chance * value
                staked += chance
    return RedDogOdds(-ret, -ret / staked, raised, raise_from, (13 * n) * (13 * n - 1))
