"""What the exact counts of the hold'em games against a dealer share (Ultimate Texas
Hold'em, Texas Hold'em Bonus): the boards by suit pattern, the player's 1,081 hands off
each board, and against each the dealer's 990 hands counted below, level and above from
sorted ranks with inclusion-exclusion, never one dealer hand at a time.

>>> boards, weights = board_classes()
>>> len(boards), int(weights.sum())
(134459, 2598960)
>>> found = showdown(boards[:1])
>>> found.hole.shape, int(found.less[0, 0] + found.ties[0, 0] + found.above()[0, 0])
((1, 1081, 2), 990)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import permutations

import numpy as np
import numpy.typing as npt

from pelisali.cards import DECK
from pelisali.poker.evaluate import high_values

DEALER_HANDS = 990
"""The dealer's two cards from the 45 left: C(45, 2)."""
PLAYER_HANDS = 1081
"""The player's two cards from the 47 off a board: C(47, 2)."""


def card_indices(cards: Sequence[str]) -> list[int]:
    """The deck indices of ``cards``, each a card of the deck and named once.

    >>> card_indices(["2c", "As"])
    [0, 51]
    >>> card_indices(["As", "As"])
    Traceback (most recent call last):
    ...
    ValueError: every card once, not ['As', 'As']
    """
    try:
        out = [DECK.index(c) for c in cards]
    except ValueError:
        raise ValueError(f"cards of the deck, not {list(cards)!r}") from None
    if len(set(out)) != len(out):
        raise ValueError(f"every card once, not {list(cards)!r}")
    return out


def one_hand(rule: Callable[[npt.NDArray[np.int64], npt.NDArray[np.int64]],
                            npt.NDArray[np.bool_]],
             hole: Sequence[str], board: Sequence[str]) -> bool:
    """An array strategy ``rule`` (hole cards, board cards) read for one hand: the one
    definition the bot and the exact count share."""
    cards = card_indices([*hole, *board])
    return bool(rule(np.array([cards[:2]]), np.array([cards[2:]]))[0])


@cache
def combinations_array(n: int, k: int) -> npt.NDArray[np.int64]:
    """Every k of range(n), ascending within and in colex order, as an array (shared:
    not to be written to).

    >>> combinations_array(4, 2).tolist()
    [[0, 1], [0, 2], [1, 2], [0, 3], [1, 3], [2, 3]]
    """
    if k == 0:
        return np.zeros((1, 0), dtype=np.int64)
    parts = []
    for top in range(k - 1, n):
        below = combinations_array(top, k - 1)
        parts.append(np.concatenate([below, np.full((len(below), 1), top)], axis=1))
    return np.concatenate(parts)


def pair_index(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The colex rank of the pair {a < b} among :func:`combinations_array` (52, 2)."""
    return a + b * (b - 1) // 2


def flop_index(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64],
               c: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The colex rank of {a < b < c} among :func:`combinations_array` (52, 3)."""
    index: npt.NDArray[np.int64] = a + b * (b - 1) // 2 + c * (c - 1) * (c - 2) // 6
    return index


@cache
def board_classes() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """One board of each suit pattern (ascending card indices) and how many boards share
    it: the 2,598,960 five-card boards under the 24 renamings of the suits."""
    boards = combinations_array(52, 5)
    least = np.full(len(boards), np.iinfo(np.int64).max)
    for order in permutations(range(4)):
        renamed = (boards >> 2) * 4 + np.array(order)[boards & 3]
        least = np.minimum(least, np.left_shift(1, renamed).sum(axis=1))
    masks, weights = np.unique(least, return_counts=True)
    bits = np.unpackbits(masks.astype("<i8").view(np.uint8).reshape(-1, 8), axis=1,
                         bitorder="little")
    return np.nonzero(bits)[1].reshape(-1, 5).astype(np.int64), weights.astype(np.int64)


_Layout = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64],
                npt.NDArray[np.int64]]


@cache
def layout() -> _Layout:
    """The player's two of the 47 cards off a board (1,081 pairs), each card's row of the
    46 pairs holding it, and each pair's place in the rows of its first and second card."""
    pairs = combinations_array(47, 2)
    rows = np.array([np.flatnonzero(np.equal(pairs, k).any(axis=1)) for k in range(47)])
    at_first = np.array([np.flatnonzero(rows[a] == p)[0] for p, (a, _b) in enumerate(pairs)])
    at_second = np.array([np.flatnonzero(rows[b] == p)[0] for p, (_a, b) in enumerate(pairs)])
    return pairs, rows, at_first, at_second


def sorted_ranks(values: npt.NDArray[np.int64]
                 ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """For each entry of each row of ``values`` (M, L): how many in its row are less,
    and how many are less or equal (itself included)."""
    order = np.argsort(values, axis=1, kind="stable")
    ordered = np.take_along_axis(values, order, axis=1)
    base = np.arange(len(values), dtype=np.int64)[:, None]
    flat = (ordered + (base << 32)).ravel()  # rows apart, each sorted: one search for all
    found = []
    for side in ("left", "right"):
        at = np.searchsorted(flat, flat, side=side).reshape(values.shape) \
            - base * values.shape[1]
        back = np.empty_like(at)
        np.put_along_axis(back, order, at, axis=1)
        found.append(back)
    return found[0], found[1]


@dataclass(frozen=True)
class Showdown:
    """Per board of a batch (N boards) and player hand (1,081): the 47 cards off the
    board (``rest``), the player's two (``hole``, ascending), the player's seven-card
    value (``mine``), and how many of the dealer's 990 hands are below it (``less``) and
    level with it (``ties``)."""

    rest: npt.NDArray[np.int64]
    hole: npt.NDArray[np.int64]
    mine: npt.NDArray[np.int64]
    less: npt.NDArray[np.int64]
    ties: npt.NDArray[np.int64]

    def above(self) -> npt.NDArray[np.int64]:
        """How many of the dealer's hands beat the player's."""
        result: npt.NDArray[np.int64] = DEALER_HANDS - self.less - self.ties
        return result

    def dealer_below(self, value: int) -> npt.NDArray[np.int64]:
        """How many of the dealer's 990 hands (those sharing no card with the player's)
        are worth less than ``value``: all 1,081 hands off the board, less those holding
        either of the player's cards, the player's own counted back once."""
        pairs, card_rows, _at_first, _at_second = layout()
        count = len(self.mine)
        under = self.mine < value
        rows = under[:, card_rows].reshape(count, 47, 46).sum(axis=2)
        result: npt.NDArray[np.int64] = (under.sum(axis=1)[:, None] - rows[:, pairs[:, 0]]
                                         - rows[:, pairs[:, 1]] + under)
        return result


def showdown(boards: npt.NDArray[np.int64], threads: bool = True) -> Showdown:
    """The :class:`Showdown` of each board of ``boards`` (N, 5): every player hand against
    every dealer hand, counted from sorted ranks.

    Counting below a hand among the dealer's 990: all 1,081 hands off the board are
    ranked, less those sharing a card with the player's (each card's row of 46, the
    player's hand among them), the player's own counted back once (inclusion-exclusion).
    """
    count = len(boards)
    pairs, card_rows, at_first, at_second = layout()
    on_board = np.zeros((count, 52), dtype=bool)
    np.put_along_axis(on_board, boards, True, axis=1)
    rest = np.nonzero(~on_board)[1].reshape(count, 47)
    hole = rest[:, pairs]  # (N, 1081, 2), ascending
    sevens = np.concatenate([hole, np.broadcast_to(boards[:, None, :],
                                                   (count, PLAYER_HANDS, 5))], axis=2)
    mine = high_values(sevens.reshape(-1, 7), threads).astype(np.int64) \
        .reshape(count, PLAYER_HANDS)
    less_all, upto_all = sorted_ranks(mine)
    rows = mine[:, card_rows].reshape(count * 47, 46)
    less_rows, upto_rows = (r.reshape(count, 47, 46) for r in sorted_ranks(rows))
    first, second = pairs[:, 0], pairs[:, 1]
    less = less_all - less_rows[:, first, at_first] - less_rows[:, second, at_second]
    ties = (upto_all - upto_rows[:, first, at_first] - upto_rows[:, second, at_second]
            + 1 - less)  # the player's own hand counted back once
    return Showdown(rest, hole, mine, less, ties)
