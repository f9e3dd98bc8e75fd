"""Census: how many of all possible hands fall into each category, by evaluating every hand.

All ``C(52, k)`` hands are generated block by block: the lowest card, then every
combination of the others, which in colexicographic order is a prefix of one
table of combinations. Each block is evaluated with the batch evaluators
(:mod:`pelisali.poker.batch`), whose tables come from the rankings' one definition.

>>> result = census("high", 5)
>>> result.total, result.counts["straight_flush"], result.counts["four_of_a_kind"]
(2598960, 40, 624)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import numpy.typing as npt

from pelisali.cards import CardError
from pelisali.poker import rankings
from pelisali.poker.batch import NO_HAND, build_tables, ranking_values
from pelisali.poker.evaluate import high_values
from pelisali.poker.hands import CATEGORIES

CENSUS_RANKINGS = ("high", "soko", "low-a5", "low-27")


@dataclass(frozen=True)
class Census:
    ranking: str
    cards: int
    total: int
    counts: dict[str, int]
    qualifying: int | None = None  # eight-or-better lows, for the low rankings
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"ranking": self.ranking, "cards": self.cards,
                                  "total": self.total, "expected_total": math.comb(52, self.cards),
                                  "counts": self.counts, "seconds": round(self.seconds, 2)}
        if self.qualifying is not None:
            out["eight_or_better"] = self.qualifying
        return out


@cache
def colex_combinations(n: int, k: int) -> npt.NDArray[np.int8]:
    """Every k-subset of range(n), colexicographic order (so subsets of range(m) come first).

    Built one size at a time: the j-subsets ending in ``last`` are the first
    C(last, j - 1) rows of the (j - 1)-subsets, each with ``last`` appended.
    """
    rows = np.zeros((1, 0), dtype=np.int8)
    for j in range(1, k + 1):
        counts = [math.comb(last, j - 1) for last in range(j - 1, n)]
        grown = np.empty((sum(counts), j), dtype=np.int8)
        at = 0
        for last, count in enumerate(counts, start=j - 1):
            grown[at:at + count, :-1] = rows[:count]
            grown[at:at + count, -1] = last
            at += count
        rows = grown
    return rows


def all_hands(k: int) -> list[npt.NDArray[np.int8]]:
    """Every k-card hand as blocks (one per lowest card)."""
    rest = colex_combinations(51, k - 1)
    blocks = []
    for low in range(0, 53 - k):
        count = math.comb(51 - low, k - 1)
        blocks.append(np.hstack([np.full((count, 1), low, dtype=np.int8),
                                 rest[:count] + np.int8(low + 1)]))
    return blocks


# The rankings a census counts together: a low with its eight-or-better, whose
# NO_HAND marks the hands that do not qualify.
_COUNTED: dict[str, tuple[str, ...]] = {
    "soko": ("soko",), "low-a5": ("low-a5", "low-a5-8"), "low-27": ("low-27", "low-27-8")}


def _categories(values: npt.NDArray[np.int64], names: tuple[str, ...],
                negate: bool = False) -> dict[str, int]:
    cats = ((-values if negate else values) >> 20).astype(np.int64)
    counted = np.bincount(cats, minlength=len(names))
    return {name: int(counted[i]) for i, name in enumerate(names)}


SUB_BLOCK = 1 << 18  # rows a task: blocks are split so both cores stay busy


def _block_counts(ranking: str, block: npt.NDArray[np.int8],
                  names: tuple[str, ...]) -> tuple[dict[str, int], int]:
    """Category counts of one block of hands, and how many qualify eight or better."""
    if ranking == "high":
        return _categories(high_values(block, threads=False).astype(np.int64), names), 0
    values = ranking_values(block, _COUNTED[ranking], threads=False)
    part = _categories(values[0], names, negate=ranking.startswith("low"))
    qualifying = int((values[1] != NO_HAND).sum()) if len(values) > 1 else 0
    return part, qualifying


def census(ranking: str, cards: int,
           progress: Callable[[int, int], None] | None = None) -> Census:
    """Count every possible hand of ``cards`` cards by category under ``ranking``."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    if ranking not in CENSUS_RANKINGS:
        raise CardError(f"census rankings: {', '.join(CENSUS_RANKINGS)}")
    if cards not in (5, 7):
        raise CardError("a census is of 5 or 7 cards")
    started = time.perf_counter()
    names: tuple[str, ...] = rankings.SOKO_CATEGORIES if ranking == "soko" else CATEGORIES
    if ranking != "high":
        build_tables(_COUNTED[ranking], cards)  # here, so the workers only read them
    counts = dict.fromkeys(names, 0)
    qualifying = 0
    total = 0
    expected = math.comb(52, cards)
    pieces = [block[i:i + SUB_BLOCK] for block in all_hands(cards)
              for i in range(0, len(block), SUB_BLOCK)]
    with ThreadPoolExecutor(max_workers=2) as pool:  # NumPy releases the GIL
        for piece, (part, qualified) in zip(
                pieces, pool.map(lambda b: _block_counts(ranking, b, names), pieces),
                strict=True):
            for name, n in part.items():
                counts[name] += n
            qualifying += qualified
            total += len(piece)
            if progress:
                progress(total, expected)
    return Census(ranking, cards, total, counts,
                  qualifying if ranking.startswith("low") else None,
                  time.perf_counter() - started)
