"""Batch values for every ranking over an (N, k) NumPy array of card indices.

``NO_HAND`` marks a hand with no qualifying low (eight or better). Values of
one ranking order hands exactly as :func:`pelisali.poker.evaluate.evaluate`
does.

>>> import numpy as np
>>> from pelisali.cards import DECK
>>> rows = np.array([[DECK.index(c) for c in "As 2d 3c 4h 5s".split()],
...                  [DECK.index(c) for c in "9s 9d 3c 4h 5s".split()]])
>>> values = batch_values(rows, "low-a5-8")
>>> bool(values[0] > values[1]), bool(values[1] == NO_HAND)
(True, True)
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt

from pelisali.cards import CardError
from pelisali.poker.census import (
    _a5_values,
    _ace_high_only,
    _eight_or_better,
    _low27_7_values,
    _soko7_values,
    _soko_values,
)
from pelisali.poker.evaluate import high_values

NO_HAND = np.iinfo(np.int64).min
BATCH_RANKINGS = ("high", "soko", "low-a5", "low-a5-8", "low-27", "low-27-8")


def batch_values(hands: npt.ArrayLike, ranking: str) -> npt.NDArray[np.int64]:
    """Values of many hands under ``ranking`` (high: 5-7 cards; Sökö and deuce-to-seven:
    5 or 7 cards; ace-to-five: 5-7 cards)."""
    array = np.ascontiguousarray(hands)
    if array.ndim != 2 or not 5 <= array.shape[1] <= 7:
        raise CardError("hands must be an (N, 5..7) array of card indices")
    if array.size and (array.min() < 0 or array.max() > 51):
        raise CardError("card indices run from 0 to 51")
    cards = array.astype(np.int8)
    k = cards.shape[1]
    if ranking == "high":
        return high_values(cards).astype(np.int64)
    if ranking in ("soko", "low-27", "low-27-8") and k == 6:
        raise CardError(f"{ranking} batches take 5 or 7 cards")
    if ranking == "soko":
        return _soko_values(cards) if k == 5 else _soko7_values(cards)
    if ranking in ("low-a5", "low-a5-8"):
        values = _a5_values(cards)
        if ranking == "low-a5-8":
            values = np.where(_eight_or_better(cards), values, NO_HAND)
        return values
    if ranking in ("low-27", "low-27-8"):
        low = (-_ace_high_only(high_values(cards).astype(np.int64)) if k == 5
               else _low27_7_values(cards))
        if ranking == "low-27-8":
            worst = -low
            qualifies = (worst >> 20 == 0) & (((worst >> 16) & 0xF) <= 6)
            low = np.where(qualifies, low, NO_HAND)
        return low
    raise CardError(f"batch rankings: {', '.join(BATCH_RANKINGS)}")


def omaha_batch_values(hole: npt.NDArray[np.int8], boards: npt.NDArray[np.int8],
                       ranking: str) -> npt.NDArray[np.int64]:
    """Best value of one hole hand on many boards, exactly two hole and three board cards."""
    n = len(boards)
    best = np.full(n, NO_HAND, dtype=np.int64)
    for two in itertools.combinations(range(len(hole)), 2):
        for three in itertools.combinations(range(boards.shape[1]), 3):
            five = np.hstack([np.broadcast_to(hole[list(two)], (n, 2)),
                              boards[:, list(three)]])
            best = np.maximum(best, batch_values(five, ranking))
    return best
