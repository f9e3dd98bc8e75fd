"""Every seven-card hand of Pai Gow Poker's 53 cards, counted by its best five-card hand.

The C(53, 7) = 154,143,080 hands are those without the joker, the seven-card census of
the 52 (:func:`pelisali.analysis.census.census`, every hand evaluated), and those with it:
the joker beside each of the C(52, 6) = 20,358,520 six-card hands, streamed in blocks.
With the joker a hand is the best of the joker as an ace (the six cards and an ace they
lack, evaluated as seven cards; five aces when they hold all four) and of the joker
completing a straight, a flush or a straight flush: four of the six ranks in one
straight's five, four cards of a suit, four of a suit in one straight's five. A royal
flush is counted apart from the other straight flushes: without the joker one of the four
royals and any two of the other 47 cards (seven cards cannot hold two), with it four of a
royal's five in one suit.

The counts agree with Brian Alspach's, "7-Card Poker Hands with Joker" (2003,
people.math.sfu.ca/~alspach/comp40/, :data:`PUBLISHED`) in every hand but one split: his
straight flushes, 210,964, are ours, but of them he counts 26,124 royal flushes where we
count 26,132, which a count by hand confirms: 4 x C(47, 2) = 4,324 without the joker and,
with it, four suits times the six cards holding four of a royal's five (5 x C(47, 2))
or all five (47): 4 x 5,452 = 21,808.

>>> from pelisali.cards import DECK
>>> import numpy as np
>>> six = np.array([[DECK.index(c) for c in "Kh Qh Jh Th 2c 2d".split()]], dtype=np.int8)
>>> [HAND_NAMES[i] for i in joker_categories(six)]
['royal_flush']
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from pelisali.analysis.census import census, hand_blocks
from pelisali.games.pai_gow import HAND_NAMES
from pelisali.poker.evaluate import high_values

PUBLISHED = {"five_aces": 1_128, "royal_flush": 26_124, "straight_flush": 210_964 - 26_124,
             "four_of_a_kind": 307_472, "full_house": 4_188_528, "flush": 6_172_088,
             "straight": 11_236_028, "three_of_a_kind": 7_470_676, "two_pair": 35_553_816,
             "pair": 64_221_960, "high_card": 24_780_420}
"""Brian Alspach, "7-Card Poker Hands with Joker" (people.math.sfu.ca/~alspach/comp40/):
the 154,143,080 hands by their best five cards (his 210,964 straight flushes include the
26,124 royal flushes, apart here)."""
TOTAL = math.comb(53, 7)
ROYAL = 0b1111100000000  # ten to ace
# HAND_NAMES is best first; a category's index there from the evaluator's (high card 0
# ... straight flush 8), and the two hands it does not have.
_NAME_OF_CATEGORY = np.array([HAND_NAMES.index(n) for n in (
    "high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
    "four_of_a_kind", "straight_flush")], dtype=np.int64)
_FIVE_ACES, _ROYAL = HAND_NAMES.index("five_aces"), HAND_NAMES.index("royal_flush")


@cache
def _bit_counts() -> npt.NDArray[np.int64]:
    """How many ranks each 13-bit rank mask holds."""
    return np.array([bin(m).count("1") for m in range(1 << 13)], dtype=np.int64)


@cache
def _four_of_a_straight() -> npt.NDArray[np.bool_]:
    """By 13-bit rank mask: whether four of its ranks lie in one straight's five (the
    joker fills the fifth), A-2-3-4-5 among them."""
    masks, counts = np.arange(1 << 13), _bit_counts()
    out = np.zeros(1 << 13, dtype=np.bool_)
    for window in [0b11111 << low for low in range(9)] + [0b1000000001111]:
        out |= counts[masks & window] >= 4
    return out


@cache
def _four_of_a_royal() -> npt.NDArray[np.bool_]:
    """By 13-bit rank mask: whether it holds four of ten, jack, queen, king and ace."""
    out: npt.NDArray[np.bool_] = _bit_counts()[np.arange(1 << 13) & ROYAL] >= 4
    return out


def joker_categories(six: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    """The best hand of each row of six cards (indices, rank * 4 + suit) with the joker,
    as an index into :data:`HAND_NAMES`."""
    ranks, suits = six >> 2, six & 3
    bits = (np.int32(1) << ranks.astype(np.int32))
    rank_mask = np.bitwise_or.reduce(bits, axis=1)
    suit_masks = np.stack([np.where(suits == s, bits, 0).sum(axis=1) for s in range(4)])
    straight4, royal4 = _four_of_a_straight(), _four_of_a_royal()
    # the joker as an ace: the six and the first ace they lack, as seven cards
    held = np.stack([(six == 48 + s).any(axis=1) for s in range(4)], axis=1)
    all_aces = held.all(axis=1)
    ace = 48 + np.argmin(held, axis=1)
    # (a hand of four aces is five aces; it is evaluated with a deuce it lacks instead,
    # which keeps the evaluator's keys in range: two other cards leave one of three free)
    free_deuce = np.argmin(np.stack([(six == k).any(axis=1) for k in range(3)], axis=1), axis=1)
    ace = np.where(all_aces, free_deuce, ace).astype(np.int8)
    as_ace = high_values(np.column_stack([six, ace]), threads=False) >> 20
    # the joker completing a straight flush, a flush or a straight
    straight_flush = straight4[suit_masks].any(axis=0)
    flush = (np.stack([(suits == s).sum(axis=1) for s in range(4)]) >= 4).any(axis=0)
    completed = np.where(straight_flush, 8, np.where(flush, 5,
                                                     np.where(straight4[rank_mask], 4, 0)))
    category = np.maximum(as_ace.astype(np.int64), completed)
    names = _NAME_OF_CATEGORY[category]
    names[(category == 8) & royal4[suit_masks].any(axis=0)] = _ROYAL
    names[all_aces] = _FIVE_ACES
    return names


@dataclass(frozen=True)
class PaiGowCensus:
    """The seven-card hands of the 53 by their best five-card hand (``counts``, best
    first), how many (``total``), and the seconds it took."""

    total: int
    counts: dict[str, int]
    seconds: float

    def to_json(self) -> dict[str, object]:
        return {"game": "pai-gow-poker", "cards": 7, "deck": 53, "total": self.total,
                "expected_total": TOTAL, "counts": self.counts, "published": PUBLISHED,
                "differences": self.differences(), "seconds": round(self.seconds, 2)}

    def differences(self) -> dict[str, int]:
        """Where the count differs from :data:`PUBLISHED`: ours less the published."""
        return {name: count - PUBLISHED[name] for name, count in self.counts.items()
                if count != PUBLISHED[name]}


def census_pai_gow(progress: Callable[[int, int], None] | None = None) -> PaiGowCensus:
    """Count every seven-card hand of the 53 by its best five-card hand."""
    started = time.perf_counter()
    counts = dict.fromkeys(HAND_NAMES, 0)
    plain = census("high", 7, progress=(lambda done, _: progress(done, TOTAL))
                   if progress else None)
    for name, count in plain.counts.items():
        counts[name] += count
    royals = 4 * math.comb(47, 2)  # a royal and any two others: no seven hold two
    counts["straight_flush"] -= royals
    counts["royal_flush"] += royals
    done = plain.total
    for block in hand_blocks(6):
        found = np.bincount(joker_categories(block), minlength=len(HAND_NAMES))
        for index, name in enumerate(HAND_NAMES):
            counts[name] += int(found[index])
        done += len(block)
        if progress:
            progress(done, TOTAL)
    return PaiGowCensus(done, counts, time.perf_counter() - started)
