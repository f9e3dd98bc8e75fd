"""Census: how many of all possible hands fall into each category, by evaluating every hand.

All ``C(52, k)`` hands are generated block by block: the lowest card, then every
combination of the others, which in colexicographic order is a prefix of one
table of combinations. Each block is evaluated with the batch evaluators.

>>> result = census("high", 5)
>>> result.total, result.counts["straight_flush"], result.counts["four_of_a_kind"]
(2598960, 40, 624)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import numpy.typing as npt

from pelisali.cards import CardError
from pelisali.poker import rankings
from pelisali.poker.evaluate import CARD_BIT, high_values, rank_table
from pelisali.poker.hands import CATEGORIES, pack

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
    """Every k-subset of range(n), colexicographic order (so subsets of range(m) come first)."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    parts = []
    for last in range(k - 1, n):
        head = colex_combinations(last, k - 1)
        parts.append(np.hstack([head, np.full((len(head), 1), last, dtype=np.int8)]))
    return np.vstack(parts)


def all_hands(k: int) -> list[npt.NDArray[np.int8]]:
    """Every k-card hand as blocks (one per lowest card)."""
    rest = colex_combinations(51, k - 1)
    blocks = []
    for low in range(0, 53 - k):
        count = math.comb(51 - low, k - 1)
        blocks.append(np.hstack([np.full((count, 1), low, dtype=np.int8),
                                 rest[:count] + np.int8(low + 1)]))
    return blocks


# -- batch values per ranking --------------------------------------------------------------

def _soko_values(hands: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    """Sökö values of five-card hands, vectorised (same results as rankings.soko_value)."""
    high = high_values(hands, threads=False).astype(np.int64)
    category = high >> 20
    remap = np.array([0, 1, 4, 5, 6, 7, 8, 9, 10], dtype=np.int64)
    values: npt.NDArray[np.int64] = (remap[category] << 20) | (high & 0xFFFFF)
    weak = np.flatnonzero(category <= 1)
    if weak.size:
        h = hands[weak].astype(np.int64)
        ranks, suits = h >> 2, h & 3
        best = values[weak]
        for suit in range(4):  # a four-card flush
            in_suit = suits == suit
            four = in_suit.sum(axis=1) == 4
            if four.any():
                r = np.where(in_suit, ranks, -1)
                top4 = -np.sort(-r, axis=1)[:, :4]
                fifth = np.where(in_suit, -1, ranks).max(axis=1)
                packed = np.full(len(h), 3, dtype=np.int64)
                for col in range(4):
                    packed = (packed << 4) | top4[:, col]
                packed = (packed << 4) | fifth
                best = np.where(four, np.maximum(best, packed), best)
        mask = np.bitwise_or.reduce(CARD_BIT[hands[weak]], axis=1).astype(np.int64)
        total = ranks.sum(axis=1)
        found = np.zeros(len(h), dtype=bool)
        windows = [(top, [top, top - 1, top - 2, top - 3]) for top in range(12, 2, -1)]
        for top, window in [*windows, (2, [2, 1, 0, 12])]:  # highest first; A-2-3-4 last
            bits = sum(1 << r for r in window)
            hit = ((mask & bits) == bits) & ~found
            fifth = total - sum(window)
            packed = pack(2, [top]) | (fifth << 12)
            best = np.where(hit, np.maximum(best, packed), best)
            found |= hit
        values[weak] = best
    return values


@cache
def _a5_table(k: int) -> npt.NDArray[np.int64]:
    """Ace-to-five low values by rank-key sum (suits never matter to it)."""
    import itertools

    from pelisali.poker.evaluate import RANK_KEYS

    table = np.zeros(len(rank_table(k)), dtype=np.int64)
    for combo in itertools.combinations_with_replacement(range(13), k):
        if max(combo.count(r) for r in set(combo)) > 4:
            continue
        cards = [r * 4 + (i % 4) for i, r in enumerate(combo)]  # ranks are all that count
        table[sum(RANK_KEYS[r] for r in combo)] = rankings.low_a5_value(cards)
    return table


def _a5_values(hands: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    from pelisali.poker.evaluate import CARD_RANK_KEY

    keys = CARD_RANK_KEY.take(hands).sum(axis=1)
    values: npt.NDArray[np.int64] = _a5_table(hands.shape[1]).take(keys)
    return values


def _safe_cards(ranks: Sequence[int]) -> list[int]:
    """Cards with these ranks and no four of one suit (ranks sorted, suit = position mod 4)."""
    return [r * 4 + i % 4 for i, r in enumerate(sorted(ranks))]


@cache
def _rank_only_table(kind: str, k: int) -> npt.NDArray[np.int64]:
    """Best value over every five of k ranks, suits aside, by rank-key sum: "soko" (pairs,
    straights, four-card straights) or "low-27" (the negated worst high five)."""
    import itertools

    from pelisali.poker.evaluate import RANK_KEYS

    table = np.zeros(len(rank_table(k)), dtype=np.int64)
    for combo in itertools.combinations_with_replacement(range(13), k):
        if max(combo.count(r) for r in set(combo)) > 4:
            continue
        fives = set(itertools.combinations(combo, 5))
        if kind == "soko":
            best = max(rankings.soko_value(_safe_cards(f)) for f in fives)
        else:
            best = max(rankings.low_27_value(_safe_cards(f)) for f in fives)
        table[sum(RANK_KEYS[r] for r in combo)] = best
    return table


def _suit_counts(hands: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    from pelisali.poker.evaluate import CARD_SUIT_KEY

    key = CARD_SUIT_KEY.take(hands).sum(axis=1).astype(np.int64)
    return np.stack([(key >> (3 * s)) & 7 for s in range(4)], axis=1)


def _soko7_values(hands: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    """Best Sökö five of seven: the rank-only best, the flushes, and a four-card flush."""
    from pelisali.poker.evaluate import CARD_RANK_KEY

    keys = CARD_RANK_KEY.take(hands).sum(axis=1)
    values: npt.NDArray[np.int64] = _rank_only_table("soko", 7).take(keys)
    high = high_values(hands, threads=False).astype(np.int64)
    category = high >> 20
    flushy = (category == 5) | (category == 8)
    remapped = (np.where(category == 8, 10, 7) << 20) | (high & 0xFFFFF)
    values = np.where(flushy, np.maximum(values, remapped), values)
    counts = _suit_counts(hands)
    ranks = (hands >> 2).astype(np.int64)
    for suit in range(4):
        four = np.flatnonzero(counts[:, suit] == 4)
        if not four.size:
            continue
        r, in_suit = ranks[four], (hands[four] & 3) == suit
        top4 = -np.sort(-np.where(in_suit, r, -1), axis=1)[:, :4]
        fifth = np.where(in_suit, -1, r).max(axis=1)
        packed = np.full(len(four), 3, dtype=np.int64)
        for col in range(4):
            packed = (packed << 4) | top4[:, col]
        values[four] = np.maximum(values[four], (packed << 4) | fifth)
    return values


def _low27_7_values(hands: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    """Best deuce-to-seven five of seven: by ranks where no five can be a flush, else by
    trying all 21 fives."""
    import itertools

    from pelisali.poker.evaluate import CARD_RANK_KEY

    keys = CARD_RANK_KEY.take(hands).sum(axis=1)
    values: npt.NDArray[np.int64] = _rank_only_table("low-27", 7).take(keys)
    flushy = np.flatnonzero(_suit_counts(hands).max(axis=1) >= 5)
    if flushy.size:
        sub = hands[flushy]
        worst = np.full(len(sub), np.iinfo(np.int64).max, dtype=np.int64)
        for five in itertools.combinations(range(7), 5):
            worst = np.minimum(worst, _ace_high_only(
                high_values(sub[:, list(five)], threads=False).astype(np.int64)))
        values[flushy] = -worst
    return values


def _ace_high_only(values: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Vectorised :func:`rankings.ace_high_only`: the wheel is ace high, not a straight."""
    category, top = values >> 20, (values >> 16) & 0xF
    wheel = ((category == 4) | (category == 8)) & (top == 3)
    ace_high = np.where(category == 8, pack(5, [12, 3, 2, 1, 0]), pack(0, [12, 3, 2, 1, 0]))
    out: npt.NDArray[np.int64] = np.where(wheel, ace_high, values)
    return out


def _eight_or_better(hands: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
    """Five different ranks among A, 2-8."""
    low_bits = (1 << 12) | 0b1111111  # ace, deuce to eight
    mask = np.bitwise_or.reduce(CARD_BIT[hands], axis=1) & low_bits
    counts = np.zeros(len(hands), dtype=np.int64)
    for bit in range(13):
        counts += (mask >> bit) & 1
    return counts >= 5


def _categories(values: npt.NDArray[np.int64], names: tuple[str, ...],
                negate: bool = False) -> dict[str, int]:
    cats = ((-values if negate else values) >> 20).astype(np.int64)
    counted = np.bincount(cats, minlength=len(names))
    return {name: int(counted[i]) for i, name in enumerate(names)}


SUB_BLOCK = 1 << 18  # rows a task: blocks are split so both cores stay busy


def _block_counts(ranking: str, cards: int, block: npt.NDArray[np.int8],
                  names: tuple[str, ...]) -> tuple[dict[str, int], int]:
    """Category counts of one block of hands, and how many qualify eight or better."""
    qualifying = 0
    if ranking == "high":
        part = _categories(high_values(block, threads=False).astype(np.int64), names)
    elif ranking == "soko":
        values = _soko_values(block) if cards == 5 else _soko7_values(block)
        part = _categories(values, names)
    elif ranking == "low-a5":
        part = _categories(_a5_values(block), names, negate=True)
        qualifying = int(_eight_or_better(block).sum())
    else:
        low = (-_ace_high_only(high_values(block, threads=False).astype(np.int64))
               if cards == 5 else _low27_7_values(block))
        part = _categories(low, names, negate=True)
        worst = -low  # no pair, straight or flush, eight high at most
        qualifying = int(((worst >> 20 == 0) & ((worst >> 16) & 0xF <= 6)).sum())
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
    # Tables first, in this thread, so the workers only read them.
    if ranking == "soko" and cards == 7:
        _rank_only_table("soko", 7)
    elif ranking == "low-27" and cards == 7:
        _rank_only_table("low-27", 7)
    elif ranking == "low-a5":
        _a5_table(cards)
    counts = dict.fromkeys(names, 0)
    qualifying = 0
    total = 0
    expected = math.comb(52, cards)
    pieces = [block[i:i + SUB_BLOCK] for block in all_hands(cards)
              for i in range(0, len(block), SUB_BLOCK)]
    with ThreadPoolExecutor(max_workers=2) as pool:  # NumPy releases the GIL
        for piece, (part, qualified) in zip(
                pieces, pool.map(lambda b: _block_counts(ranking, cards, b, names), pieces),
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
