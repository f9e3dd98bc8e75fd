"""Census: how many of all possible hands fall into each category, by evaluating every hand.

The ``C(52, k)`` hands are streamed in blocks of :data:`SUB_BLOCK` rows, never all at
once: the two lowest cards fix a group, whose other cards are every combination of the
higher cards, in colexicographic order a prefix of one table of ``k - 2``-card
combinations (2.1 M rows for seven cards); groups are written one after another into
the block being filled, split where a block ends. Each block is evaluated with the batch evaluators
(:mod:`pelisali.poker.batch`), whose tables come from the rankings' one definition, and
only its counts are kept, so memory stays flat whatever ``k``.

>>> result = census("high", 5)
>>> result.total, result.counts["straight_flush"], result.counts["four_of_a_kind"]
(2598960, 40, 624)
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterator
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


def hand_blocks(k: int, rows: int | None = None) -> Iterator[npt.NDArray[np.int8]]:
    """Every k-card hand (2 <= k), each once, as (m, k) blocks of ``rows`` rows (default
    :data:`SUB_BLOCK`; the last may be shorter), each row ascending, in lexicographic
    order of the two lowest cards. Groups are written straight into the block they fall
    in; only one table of the other ``k - 2`` cards' combinations is held."""
    limit = SUB_BLOCK if rows is None else rows
    if limit < 1:
        raise ValueError("blocks hold at least one row")
    rest = colex_combinations(50, k - 2)  # the others, above the two lowest: 0 and 1 at most
    block, filled = np.empty((limit, k), dtype=np.int8), 0
    for low in range(0, 53 - k):
        for second in range(low + 1, 54 - k):
            count, start = math.comb(51 - second, k - 2), 0
            while start < count:
                take = min(count - start, limit - filled)
                out = block[filled:filled + take]
                out[:, 0], out[:, 1] = low, second
                np.add(rest[start:start + take], np.int8(second + 1), out=out[:, 2:])
                filled, start = filled + take, start + take
                if filled == limit:  # a full block goes to the workers; the next is new
                    yield block
                    block, filled = np.empty((limit, k), dtype=np.int8), 0
    if filled:
        yield block[:filled]


# The rankings a census counts together: a low with its eight-or-better, whose
# NO_HAND marks the hands that do not qualify.
_COUNTED: dict[str, tuple[str, ...]] = {
    "soko": ("soko",), "low-a5": ("low-a5", "low-a5-8"), "low-27": ("low-27", "low-27-8")}


def _categories(values: npt.NDArray[np.int64], names: tuple[str, ...],
                negate: bool = False) -> dict[str, int]:
    cats = ((-values if negate else values) >> 20).astype(np.int64)
    counted = np.bincount(cats, minlength=len(names))
    return {name: int(counted[i]) for i, name in enumerate(names)}


SUB_BLOCK = 1 << 18  # rows a block (1.8 MB of 7-card hands): the most held per task
IN_FLIGHT = 4  # blocks submitted ahead of the one being counted


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
    from concurrent.futures import Future, ThreadPoolExecutor

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
    in_flight: deque[tuple[int, Future[tuple[dict[str, int], int]]]] = deque()

    def count_next() -> None:
        nonlocal qualifying, total
        rows, future = in_flight.popleft()
        part, qualified = future.result()
        for name, n in part.items():
            counts[name] += n
        qualifying += qualified
        total += rows
        if progress:
            progress(total, expected)

    with ThreadPoolExecutor(max_workers=2) as pool:  # NumPy releases the GIL
        # A few blocks queued ahead keep both workers busy; later ones are not built yet.
        for block in hand_blocks(cards):
            in_flight.append((len(block), pool.submit(_block_counts, ranking, block, names)))
            if len(in_flight) >= IN_FLIGHT:
                count_next()
        while in_flight:
            count_next()
    return Census(ranking, cards, total, counts,
                  qualifying if ranking.startswith("low") else None,
                  time.perf_counter() - started)
