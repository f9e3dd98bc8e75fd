"""Hand evaluation: one hand at a time, or a batch over a NumPy array of hands.

Both paths use the same tables. A hand's ranks are summed through face keys
chosen so that every multiset of up to seven ranks has its own sum, which
indexes a table of best non-flush values; a suit-count key finds a flush
suit, whose rank mask indexes a table of flush values. Every table entry
comes from :mod:`pelisali.poker.hands`.

>>> from pelisali.cards import parse_cards
>>> hand = evaluate(parse_cards("Kh Kd Ks 3c 3d 9s 2h"))
>>> hand.category, hand.describe("fi")
('full_house', 'Täyskäsi, kuninkaat ja kolmoset')
>>> evaluate(parse_cards("Ah Kh Qh Jh Th")).describe("en")
'Royal flush'
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache, total_ordering
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from pelisali.cards import DECK, CardError
from pelisali.poker.describe import describe
from pelisali.poker.hands import (
    best_value_of_counts,
    best_value_of_flush,
    five_of,
    value_category,
)

# Face keys whose sums are unique for every multiset of up to 7 ranks, at most 4 of each
# (checked when the tables are built).
RANK_KEYS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
CARD_RANK_KEY = np.array([RANK_KEYS[i >> 2] for i in range(52)], dtype=np.int32)
CARD_SUIT_KEY = np.array([1 << (3 * (i & 3)) for i in range(52)], dtype=np.int32)
CARD_BIT = np.array([1 << (i >> 2) for i in range(52)], dtype=np.int32)
CARD_SUIT = np.array([i & 3 for i in range(52)], dtype=np.int8)


@dataclass(frozen=True)
class Tables:
    flush_suit: npt.NDArray[np.int8]  # by suit-count key: the suit with 5+ cards, or -1
    flush_value: npt.NDArray[np.int32]  # by 13-bit rank mask: best flush value (5+ ranks)


@cache
def rank_table(n: int) -> npt.NDArray[np.int32]:
    """Best non-flush value of n cards by their rank-key sum (the keys are unique per n)."""
    size = sum(RANK_KEYS[r] for r in sorted(range(13), reverse=True)
               for _ in range(4))  # an upper bound: every rank four times
    combos = [c for c in itertools.combinations_with_replacement(range(13), n)
              if max(c.count(r) for r in set(c)) <= 4]
    top = max(sum(RANK_KEYS[r] for r in c) for c in combos)
    table = np.zeros(min(size, top) + 1, dtype=np.int32)
    seen: set[int] = set()
    for combo in combos:
        key = sum(RANK_KEYS[r] for r in combo)
        if key in seen:
            raise AssertionError(f"rank key collision at {combo}")
        seen.add(key)
        table[key] = best_value_of_counts([combo.count(r) for r in range(13)])
    return table


@cache
def tables() -> Tables:
    """The flush tables (built once per process)."""
    flush_suit = np.full(1 << 12, -1, dtype=np.int8)
    for key in range(1 << 12):
        for suit in range(4):
            if (key >> (3 * suit)) & 7 >= 5:
                flush_suit[key] = suit
    flush_value = np.zeros(1 << 13, dtype=np.int32)
    for mask in range(1 << 13):
        if bin(mask).count("1") >= 5:
            flush_value[mask] = best_value_of_flush(mask)
    return Tables(flush_suit, flush_value)


_INDEX = {card: i for i, card in enumerate(DECK)}


def card_index(card: str) -> int:
    try:
        return _INDEX[card]
    except KeyError:
        raise CardError(f"{card!r} is not a card") from None


def high_value(cards: Sequence[int]) -> int:
    """The best five-card high value of 5 to 7 cards (indices 0-51)."""
    t = tables()
    if not 5 <= len(cards) <= 7:
        raise CardError(f"a hand is 5 to 7 cards, not {len(cards)}")
    if any(not 0 <= c <= 51 for c in cards) or len(set(cards)) != len(cards):
        raise CardError(f"cards must be distinct indices 0 to 51, not {list(cards)}")
    suit_key = 0
    rank_key = 0
    for c in cards:
        suit_key += 1 << (3 * (c & 3))
        rank_key += RANK_KEYS[c >> 2]
    suit = int(t.flush_suit[suit_key])
    value = int(rank_table(len(cards))[rank_key])
    if suit >= 0:
        mask = 0
        for c in cards:
            if c & 3 == suit:
                mask |= 1 << (c >> 2)
        value = max(value, int(t.flush_value[mask]))
    return value


# Rank key and suit-count key in one word: one gather and one sum a card.
CARD_KEY = (CARD_RANK_KEY.astype(np.int64) << 12) | CARD_SUIT_KEY
BATCH_CHUNK = 1 << 16  # rows a step: small enough to stay in cache
_POOL = ThreadPoolExecutor(max_workers=os.cpu_count() or 1)  # NumPy releases the GIL
_In = TypeVar("_In")
_Out = TypeVar("_Out")


def _values_chunk(hands: npt.NDArray[np.int8]) -> npt.NDArray[np.int32]:
    t = tables()
    keys = CARD_KEY.take(hands).sum(axis=1)
    values: npt.NDArray[np.int32] = rank_table(hands.shape[1]).take(keys >> 12)
    suit = t.flush_suit.take(keys & 0xFFF)
    flush = np.flatnonzero(suit >= 0)
    if flush.size:
        sub = hands[flush].astype(np.intp)
        match = CARD_SUIT[sub] == suit[flush][:, None]
        mask = np.where(match, CARD_BIT[sub], 0).sum(axis=1)
        values[flush] = np.maximum(values[flush], t.flush_value[mask])
    return values


def high_values(hands: npt.ArrayLike, threads: bool = True) -> npt.NDArray[np.int32]:
    """Values of many hands at once: ``hands`` is an (N, 5..7) array of card indices.

    >>> from pelisali.cards import parse_cards
    >>> rows = [[card_index(c) for c in parse_cards(h)] for h in ("AsAdKsKd2c", "9h8h7h6h5h")]
    >>> [value_category(int(v)) for v in high_values(rows)]
    ['two_pair', 'straight_flush']
    """
    raw = np.asarray(hands)
    if raw.ndim != 2 or not 5 <= raw.shape[1] <= 7:
        raise CardError("hands must be an (N, 5..7) array of card indices")
    if raw.size and (raw.min() < 0 or raw.max() > 51):  # checked before narrowing to int8
        raise CardError("card indices run from 0 to 51")
    # Distinct cards within a hand are the caller's duty here (checking costs the speed).
    array = np.ascontiguousarray(raw, dtype=np.int8)
    tables(), rank_table(array.shape[1])  # build before the threads start
    parts = map_chunks(_values_chunk, array, threads)
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int32)


def map_chunks(fn: Callable[[npt.NDArray[np.int8]], _Out], array: npt.NDArray[np.int8],
               threads: bool) -> list[_Out]:
    """``fn`` over ``array`` in chunks of BATCH_CHUNK rows, in order, on the pool's threads
    when asked (the tables ``fn`` reads must be built first: the threads only read)."""
    chunks = [array[i:i + BATCH_CHUNK] for i in range(0, len(array), BATCH_CHUNK)]
    if threads and len(chunks) > 1:
        return list(_POOL.map(fn, chunks))
    return [fn(c) for c in chunks]


def pool_map(fn: Callable[[_In], _Out], items: Iterable[_In]) -> Iterator[_Out]:
    """``fn`` over ``items`` on the pool's threads, the results in order (``fn`` must not
    wait on the pool itself, nor read tables it has not had built first)."""
    return _POOL.map(fn, items)


RANKINGS = ("high", "soko", "low-a5", "low-a5-8", "low-27", "low-27-8", "low-soko", "front")


@total_ordering
@dataclass(frozen=True, eq=False)
class HandValue:
    """A ranked hand: category, the cards that make it, its value and descriptions.

    Values order hands of one ranking totally: higher is better, equal ties.
    """

    ranking: str
    value: int
    category: str
    _cards: tuple[str, ...] | tuple[int, ...]  # the five, or all cards to find them in

    @property
    def cards(self) -> tuple[str, ...]:
        """The cards that make the hand, strongest first (found when first asked for)."""
        if self._cards and isinstance(self._cards[0], int):
            best = five_of(self.value, [int(c) for c in self._cards])
            object.__setattr__(self, "_cards", tuple(DECK[c] for c in best))
        return tuple(str(c) for c in self._cards)

    def describe(self, lang: str = "en") -> str:
        return describe(self.value, lang, self.ranking)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return (self.ranking, self.value) == (other.ranking, other.value)

    def __lt__(self, other: HandValue) -> bool:
        return self.value < other.value

    def __hash__(self) -> int:
        return hash((self.ranking, self.value))


def ranked_value(cards: Sequence[int], ranking: str) -> int | None:
    """The value of the best five of ``cards`` (indices) under ``ranking``; higher is
    better; None when no low qualifies.

    >>> ranked_value([0, 4, 8, 12, 20], "low-a5") > ranked_value([0, 4, 8, 12, 24], "low-a5")
    True
    """
    from pelisali.poker import rankings

    if ranking == "high":
        if len(cards) > 7:
            return max(high_value(list(f)) for f in itertools.combinations(cards, 5))
        return high_value(cards)
    if ranking == "soko":
        return rankings.soko_value(cards)
    if ranking == "low-soko":
        return rankings.low_soko_value(cards)
    if ranking == "low-a5":
        return rankings.low_a5_value(cards)
    if ranking == "low-a5-8":
        return rankings.low_a5_eight_value(cards)
    if ranking == "low-27":
        return rankings.low_27_value(cards)
    if ranking == "low-27-8":
        return rankings.low_27_eight_value(cards)
    if ranking == "front":
        return rankings.front_value(cards)
    raise CardError(f"unknown ranking {ranking!r}; rankings: {', '.join(RANKINGS)}")


def _category(value: int, ranking: str) -> str:
    from pelisali.poker.rankings import SOKO_CATEGORIES

    if ranking == "soko":
        return SOKO_CATEGORIES[value >> 20]
    if ranking == "low-soko":
        return "low:" + SOKO_CATEGORIES[-value >> 20]
    if ranking.startswith("low"):
        return "low:" + value_category(-value)
    return value_category(value)


def evaluate(cards: Sequence[str], ranking: str = "high", board: Sequence[str] = (),
             exactly_two: bool = False) -> HandValue | None:
    """Evaluate a hand (and a board) under a ranking; None when no low qualifies.

    ``exactly_two``: Omaha-family hand making, two hole cards and three board cards.
    """
    every = [*cards, *board]
    if len(set(every)) != len(every):
        dup = next(c for c in every if every.count(c) > 1)
        raise CardError(f"card {dup} appears twice")
    hole, shared = [card_index(c) for c in cards], [card_index(c) for c in board]
    if ranking not in RANKINGS:
        raise CardError(f"unknown ranking {ranking!r}; rankings: {', '.join(RANKINGS)}")
    if len(shared) > 10:
        raise CardError("a board has at most five cards (two boards: evaluate each)")
    if ranking == "front" and len(hole + shared) != 3:
        raise CardError("a Chinese Poker front hand is exactly three cards")
    if ranking == "high" and not exactly_two and 5 <= len(hole + shared) <= 7:
        value = high_value(hole + shared)  # the fast path: tables, the five found on demand
        return HandValue(ranking, value, value_category(value), tuple(hole + shared))
    size = 3 if ranking == "front" else 5
    if exactly_two:
        choices = [[*two, *three] for two in itertools.combinations(hole, 2)
                   for three in itertools.combinations(shared, 3)]
        if not choices:
            raise CardError("Omaha hand making needs two hole cards and three board cards")
    else:
        pool = hole + shared
        if len(pool) < size:
            raise CardError(f"a {ranking} hand needs at least {size} cards, not {len(pool)}")
        choices = [list(c) for c in itertools.combinations(pool, size)] if len(pool) > size \
            else [pool]
    scored = [(v, five) for five in choices if (v := ranked_value(five, ranking)) is not None]
    if not scored:
        return None
    value, five = max(scored, key=lambda item: item[0])
    ordered = sorted(five, key=lambda c: -c)
    return HandValue(ranking, value, _category(value, ranking), tuple(DECK[c] for c in ordered))
