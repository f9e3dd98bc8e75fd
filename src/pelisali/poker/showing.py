"""Stud order of action: who brings in, and whose showing hand opens a street.

RULINGS (1.4.1.1.10-11): the lowest up card brings in (Razz: the highest),
ties between equal ranks broken by suit, clubs < diamonds < hearts < spades;
later streets are opened by the best showing hand (Razz: the lowest). Equal
showing hands go to the player first clockwise from the dealer's left, as the
world's card rooms do (Robert's Rules of Poker) and PokerKit does; the table
setting ``showing_ties = "suit"`` breaks them by suit instead.

Showing hands are ranked by pairs, trips and quads only (up cards make no
straight or flush), except that four up cards in Sökö show its four-card
straight or flush.

>>> bring_in_key("2c", "high") < bring_in_key("2d", "high")
True
>>> showing_value(["Kd", "Kc"], "high") > showing_value(["As", "Qd"], "high")
True
>>> showing_value(["Ad", "2c"], "low-a5") > showing_value(["Kd", "2c"], "low-a5")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from pelisali.cards import DECK
from pelisali.poker.hands import pack

SUITS = "cdhs"  # RULINGS: clubs, diamonds, hearts, spades
_RANK = {card: i >> 2 for i, card in enumerate(DECK)}  # 0 = deuce ... 12 = ace


def ace_low(ranking: str) -> bool:
    """Ace-to-five lows count the ace as the lowest card."""
    return ranking.startswith("low-a5")


def _rank(card: str, ranking: str) -> int:
    index = _RANK[card]
    return (0 if index == 12 else index + 1) if ace_low(ranking) else index


def bring_in_key(card: str, ranking: str) -> tuple[int, int]:
    """A single up card's order for the bring-in: rank, then suit."""
    return bring_in_keys(ranking)[card]


# Every card's bring-in key, the ace high and the ace low.
_KEYS = {low: {card: (_rank(card, "low-a5" if low else "high"), SUITS.index(card[1]))
               for card in DECK} for low in (False, True)}


def bring_in_keys(ranking: str) -> dict[str, tuple[int, int]]:
    """:func:`bring_in_key` of every card under ``ranking``, by card."""
    return _KEYS[ace_low(ranking)]


def _soko_four(cards: Sequence[str]) -> int | None:
    """Sökö: four up cards showing a four-card flush (3) or straight (2), else None."""
    if len(cards) != 4:
        return None
    if len({c[1] for c in cards}) == 1:
        return 3
    ranks = sorted({_RANK[c] for c in cards})
    if len(ranks) == 4 and (ranks[3] - ranks[0] == 3 or ranks == [0, 1, 2, 12]):
        return 2
    return None


def showing_value(cards: Sequence[str], ranking: str) -> int:
    """The strength of a showing hand for opening a street; higher opens.

    For a low ranking a lower hand is stronger, so its value is negated.
    """
    if ranking == "soko":  # its four-card flushes need the suits
        return _showing_value(tuple(cards), ranking)
    # Elsewhere only the ranks count: the same few sets of ranks come up street after street.
    ranks = [_RANK[card] for card in cards]
    ranks.sort()
    return _showing_ranks(tuple(ranks), ranking)


@lru_cache(maxsize=1 << 16)
def _showing_ranks(ranks: tuple[int, ...], ranking: str) -> int:
    """:func:`showing_value` of up cards of these ranks (0 deuce ... 12 ace), not Sökö."""
    return _value_of_ranks(ranks, ranking, ())


@lru_cache(maxsize=1 << 16)
def _showing_value(cards: tuple[str, ...], ranking: str) -> int:
    """:func:`showing_value`, kept for the up cards met again (a street asks every seat)."""
    return _value_of_ranks([_RANK[card] for card in cards], ranking, cards)


def _value_of_ranks(ranks: Sequence[int], ranking: str, cards: Sequence[str]) -> int:
    """A showing value from the up cards' ranks (and, for Sökö, the ``cards``)."""
    counts: dict[int, int] = {}
    ace_is_low = ace_low(ranking)
    for rank in ranks:
        if ace_is_low:
            rank = 0 if rank == 12 else rank + 1
        counts[rank] = counts.get(rank, 0) + 1
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    category = {4: 7, 3: 3}.get(shape[0], 0)
    if shape[0] == 2:
        category = 2 if len(shape) > 1 and shape[1] == 2 else 1
    if ranking == "soko":  # Sökö's order: pair, four-straight, four-flush, two pair, ...
        four = _soko_four(cards)
        category = {0: 0, 1: 1, 2: 4, 3: 5, 7: 9}[category]
        if four is not None and category < four:
            category = four
    value = pack(category, order)
    return -value if ranking.startswith("low") else value


def suit_tiebreak(cards: Sequence[str], ranking: str) -> tuple[int, ...]:
    """The suits of a showing hand, strongest card first, for ``showing_ties = "suit"``."""
    ordered = sorted(cards, key=lambda c: bring_in_key(c, ranking), reverse=True)
    return tuple(SUITS.index(c[1]) for c in ordered)
