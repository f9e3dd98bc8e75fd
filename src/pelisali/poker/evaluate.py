"""Hand evaluation: one hand at a time, or a batch over a NumPy array of hands.

Both paths use the same tables. A hand's ranks are summed through face keys
chosen so that every multiset of up to seven ranks has its own sum, which
indexes a table of best non-flush values; a suit-count key finds a flush
suit, whose rank mask indexes a table of flush values. Every table entry
comes from :mod:`pelisali.poker.hands`.

One hand at a time, each card's three keys are packed in one integer
(:data:`ONE_HAND_KEYS`), so a hand is one sum and two or three lookups: the rank field
(with the card count) finds the non-flush value, the suit counts a flush suit, and that
suit's rank mask, read off the sum, its flush value. Each card also sets its own bit,
so a card given twice shows as a carry. :func:`evaluate` returns at once with the
value and category; the five cards and descriptions are found when first asked for.

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
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache, lru_cache, total_ordering
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from pelisali.cards import DECK, CardError
from pelisali.poker.describe import describe
from pelisali.poker.hands import (
    CATEGORIES,
    CATEGORY_SHIFT,
    WHEEL,
    best_value_of_counts,
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
def rank_multisets(n: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every multiset of n ranks (at most four of each) as a sorted row, and each row's
    rank-key sum; the sums are checked unique.

    >>> rows, keys = rank_multisets(5)
    >>> len(rows), rows[0].tolist(), int(keys[0])
    (6175, [0, 0, 0, 0, 1], 1)
    """
    rows = _sorted_rows(n)
    if n > 4:  # sorted rows: five of a rank show as equal entries four places apart
        rows = rows[~(rows[:, 4:] == rows[:, :-4]).any(axis=1)]
    keys = np.array(RANK_KEYS, dtype=np.int64)[rows].sum(axis=1)
    ordered = np.sort(keys)  # np.unique would import numpy.ma, a start-up cost
    if (ordered[1:] == ordered[:-1]).any():
        raise AssertionError(f"rank keys collide for {n} cards")
    return rows, keys


def _sorted_rows(n: int) -> npt.NDArray[np.int64]:
    """``itertools.combinations_with_replacement(range(13), n)`` as an array, in the same
    (lexicographic) order, built a column at a time: each row of n - 1 ranks followed by
    every rank from its last up, without a Python tuple a row.

    >>> (_sorted_rows(3) == np.array(list(
    ...     itertools.combinations_with_replacement(range(13), 3)))).all()
    np.True_
    """
    rows = np.arange(13, dtype=np.int64).reshape(13, 1)
    for _ in range(n - 1):
        last = rows[:, -1]
        widths = 13 - last  # the ranks from the last one up
        starts = np.repeat(np.cumsum(widths) - widths, widths)
        step = np.arange(int(widths.sum()), dtype=np.int64) - starts
        rows = np.column_stack([np.repeat(rows, widths, axis=0), np.repeat(last, widths) + step])
    return rows


@cache
def rank_values(n: int) -> npt.NDArray[np.int32]:
    """Best non-flush value of each multiset of n ranks, row by row of
    :func:`rank_multisets`. Up to five cards each multiset is valued by
    :func:`best_value_of_counts`; six and seven take the best hand left when one of their
    cards is set aside, looked up among the values of one card fewer: a hand's best five,
    the same value at a fraction of the cost (seven cards: seven lookups of six, not
    twenty-one sums of five). No table indexed by the keys is built, whose megabytes of
    zeros a caller that wants only these values would pay for.

    >>> from pelisali.poker.hands import value_category
    >>> rows, _keys = rank_multisets(7)
    >>> row = rows.tolist().index([0, 0, 5, 7, 12, 12, 12])
    >>> value_category(int(rank_values(7)[row]))
    'full_house'
    """
    rows, keys = rank_multisets(n)
    if n == 5:
        return _five_rank_values(rows)
    if n < 5:
        counts = np.zeros((len(rows), 13), dtype=np.int64)
        np.add.at(counts, (np.arange(len(rows))[:, None], rows), 1)
        return np.array([best_value_of_counts(c) for c in counts.tolist()], dtype=np.int32)
    fewer_keys, fewer_values = rank_multisets(n - 1)[1], rank_values(n - 1)
    order = np.argsort(fewer_keys)
    sorted_keys, sorted_values = fewer_keys[order], fewer_values[order]
    rank_keys = np.array(RANK_KEYS, dtype=np.int64)[rows]
    best = np.full(len(rows), np.iinfo(np.int32).min, dtype=np.int32)
    for column in range(n):  # the card set aside
        best = np.maximum(best, sorted_values[np.searchsorted(sorted_keys,
                                                              keys - rank_keys[:, column])])
    return best


def _five_rank_values(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int32]:
    """:func:`~pelisali.poker.hands.best_value_of_counts` of each row of five ranks, for
    all rows at once: the category from the shape of the counts, and the ranks ordered
    by their count and then by rank (quads and kicker, trips and pair, ...), a straight
    by its top card alone.

    >>> rows = rank_multisets(5)[0]
    >>> (_five_rank_values(rows) == [best_value_of_counts(
    ...     [r.count(k) for k in range(13)]) for r in rows.tolist()]).all()
    np.True_
    """
    size = len(rows)
    counts = np.zeros((size, 13), dtype=np.int64)
    np.add.at(counts, (np.arange(size)[:, None], rows), 1)
    shape = -np.sort(-counts, axis=1)  # the counts, largest first
    first, second = shape[:, 0], shape[:, 1]
    masks = (counts > 0).astype(np.int64) @ (1 << np.arange(13, dtype=np.int64))
    tops = straight_tops()[masks]
    category = np.select(
        [first == 4, (first == 3) & (second == 2), tops >= 0, first == 3,
         (first == 2) & (second == 2), first == 2],
        [7, 6, 4, 3, 2, 1], 0)
    keys = np.where(counts > 0, counts * 16 + np.arange(13), -1)
    order = np.argsort(-keys, axis=1, kind="stable")[:, :5]  # ranks by count, then rank
    ranks = np.where(np.take_along_axis(keys, order, axis=1) >= 0, order, 0)
    ranks = np.where((category == 4)[:, None],
                     np.column_stack([tops, np.zeros((size, 4), dtype=np.int64)]), ranks)
    value = category
    for column in range(5):
        value = (value << 4) | ranks[:, column]
    return value.astype(np.int32)


@cache
def rank_table(n: int) -> npt.NDArray[np.int32]:
    """Best non-flush value of n cards by their rank-key sum (the keys are unique per n):
    :func:`rank_values` indexed by the sum.

    >>> from pelisali.poker.hands import value_category
    >>> value_category(int(rank_table(7)[sum(RANK_KEYS[r] for r in (12, 12, 12, 0, 0, 5, 7))]))
    'full_house'
    """
    keys = rank_multisets(n)[1]
    table = np.zeros(int(keys.max()) + 1, dtype=np.int32)
    table[keys] = rank_values(n)
    return table


def best_of_fives(rows: npt.NDArray[np.int64],
                  value_of_fives: Callable[[npt.NDArray[np.int64]], npt.NDArray[np.int32]]
                  ) -> npt.NDArray[np.int32]:
    """The best value of each row of ranks' fives, ``value_of_fives`` valuing an array of
    fives by their rank-key sums (the rule of a hand of more than five cards).

    >>> rows = rank_multisets(6)[0][:2]
    >>> (best_of_fives(rows, rank_table(5).take) == rank_table(6).take(
    ...     np.array(RANK_KEYS)[rows].sum(axis=1))).all()
    np.True_
    """
    rank_keys = np.array(RANK_KEYS, dtype=np.int64)[rows]
    best = np.full(len(rows), np.iinfo(np.int32).min, dtype=np.int32)
    for chosen in itertools.combinations(range(rows.shape[1]), 5):
        best = np.maximum(best, value_of_fives(rank_keys[:, list(chosen)].sum(axis=1)))
    return best


@cache
def straight_tops() -> npt.NDArray[np.int64]:
    """:func:`~pelisali.poker.hands.straight_top` of every 13-bit rank mask, built in
    whole-array steps: the wheel first, each higher top overwriting the lower ones.

    >>> from pelisali.poker.hands import straight_top
    >>> straight_tops().tolist() == [straight_top(m) for m in range(1 << 13)]
    True
    """
    masks = np.arange(1 << 13, dtype=np.int64)
    tops = np.where(masks & WHEEL == WHEEL, 3, -1)
    for top in range(4, 13):
        window = 0b11111 << (top - 4)
        tops = np.where(masks & window == window, top, tops)
    return tops


def _flush_values_by_mask() -> npt.NDArray[np.int32]:
    """:func:`~pelisali.poker.hands.best_value_of_flush` of every rank mask of five or
    more ranks (0 elsewhere): a straight flush by its top card, else the five highest
    ranks, taken one highest bit at a time.

    >>> from pelisali.poker.hands import best_value_of_flush
    >>> values = _flush_values_by_mask()
    >>> all(values[m] == (best_value_of_flush(m) if m.bit_count() >= 5 else 0)
    ...     for m in range(1 << 13))
    True
    """
    masks = np.arange(1 << 13, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(13)) & 1
    value = np.full(len(masks), 5, dtype=np.int64)  # a flush, its five ranks below
    left = masks.copy()
    for _ in range(5):
        highest = np.where(left > 0, np.log2(np.maximum(left, 1)).astype(np.int64), 0)
        value = (value << 4) | highest
        left = left & ~(1 << highest)
    tops = straight_tops()
    value = np.where(tops >= 0, (8 << CATEGORY_SHIFT) | (np.maximum(tops, 0) << 16), value)
    return np.where(bits.sum(axis=1) >= 5, value, 0).astype(np.int32)


@cache
def tables() -> Tables:
    """The flush tables (built once per process, in whole-array steps)."""
    keys = np.arange(1 << 12, dtype=np.int64)
    flush_suit = np.full(1 << 12, -1, dtype=np.int8)
    for suit in range(4):
        flush_suit = np.where((keys >> (3 * suit)) & 7 >= 5, suit, flush_suit).astype(np.int8)
    return Tables(flush_suit, _flush_values_by_mask())


_INDEX = {card: i for i, card in enumerate(DECK)}


def card_index(card: str) -> int:
    try:
        return _INDEX[card]
    except KeyError:
        raise CardError(f"{card!r} is not a card") from None


# One-hand keys. A card's key packs, from the low bits: its suit-count key (12 bits), its
# face key (a 24-bit field: no sum of seven reaches 2**23) and one bit of a 64-bit card
# mask laid out as four 16-bit suit lanes of rank bits. The sum of a hand's keys gives its
# rank-key sum (the index of rank_table, the batch path's own table, read through a
# memoryview), its suit counts (a flush suit) and each suit's rank mask (the index of the
# flush table); the mask has as many bits as there are cards only when no card is given
# twice, for a repeat carries.
_RANK_SHIFT, _RANK_FIELD, _LANE_SHIFT = 12, (1 << 24) - 1, 36
ONE_HAND_KEYS = tuple(
    (1 << (_LANE_SHIFT + 16 * (c & 3) + (c >> 2))) | (RANK_KEYS[c >> 2] << _RANK_SHIFT)
    | (1 << (3 * (c & 3))) for c in range(52))
_KEY_OF_INDEX = dict(enumerate(ONE_HAND_KEYS))
_KEY_OF_CARD = {card: ONE_HAND_KEYS[i] for i, card in enumerate(DECK)}
# By suit-count key: where the flush suit's lane starts in the sum, 0 without a flush.
_FLUSH_LANE = [_LANE_SHIFT + 16 * s if s >= 0 else 0
               for s in (next((s for s in range(4) if (key >> (3 * s)) & 7 >= 5), -1)
                         for key in range(1 << 12))]
# By card count, rank_table(count) read through a memoryview (a Python int a lookup, the
# batch path's array itself), filled on first use of each count; None below five and no
# entry above seven refuse the other counts.
_BY_COUNT: list[memoryview | None] = [None] * 8
_FLUSH_VALUES: list[memoryview] = []  # tables().flush_value, filled with the first count
_FILLING = threading.Lock()


def _fill_one_hand_table(size: int) -> bool:
    """Make the tables for ``size`` cards ready; False if they were, or no hand has
    ``size`` cards (a value not found is then the caller's input)."""
    if not 5 <= size <= 7 or _BY_COUNT[size] is not None:
        return False
    with _FILLING:
        if not _FLUSH_VALUES:
            _FLUSH_VALUES.append(tables().flush_value.data)
        if _BY_COUNT[size] is None:
            _BY_COUNT[size] = rank_table(size).data
    return True


def _refusal(cards: Sequence[int]) -> CardError:
    """What is wrong with cards that found no value."""
    try:
        size = len(cards)
    except TypeError:
        return CardError(f"a hand is a sequence of card indices, not {cards!r}")
    if not 5 <= size <= 7:
        return CardError(f"a hand is 5 to 7 cards, not {size}")
    return CardError(f"cards must be distinct indices 0 to 51, not {list(cards)}")


def high_value(cards: Sequence[int]) -> int:
    """The best five-card high value of 5 to 7 cards (distinct indices 0-51)."""
    try:
        key = sum(map(_KEY_OF_INDEX.__getitem__, cards))
        value: int = _BY_COUNT[len(cards)][key >> _RANK_SHIFT & _RANK_FIELD]  # type: ignore[index]
    except (KeyError, IndexError, TypeError):
        if isinstance(cards, Sized) and _fill_one_hand_table(len(cards)):
            return high_value(cards)
        raise _refusal(cards) from None
    if (key >> _LANE_SHIFT).bit_count() != len(cards):
        raise _refusal(cards)  # a card given twice
    lane = _FLUSH_LANE[key & 0xFFF]
    if lane:
        flush: int = _FLUSH_VALUES[0][key >> lane & 0x1FFF]
        return flush if flush > value else value
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
class HandValue:
    """A ranked hand: category, the cards that make it, its value and descriptions.

    Values order hands of one ranking totally: higher is better, equal ties. The value
    and category are known when the hand is made; the five cards and the descriptions are
    found when first asked for (:func:`evaluate`'s high hands keep their cards as a card
    mask). The public attributes are read-only.

    >>> hand = evaluate(["As", "Ad", "Kh", "Kc", "2s", "7d", "9c"])
    >>> hand.category, hand.cards
    ('two_pair', ('As', 'Ad', 'Kh', 'Kc', '9c'))
    """

    # Slots, set directly by evaluate's fast path (the read-only properties guard them).
    __slots__ = ("_category", "_five", "_hand", "_ranking", "_value")
    _ranking: str
    _value: int
    _category: str
    _hand: int  # the sum of the hand's one-hand keys (its cards, to find the five in)
    _five: tuple[str, ...]

    def __init__(self, ranking: str, value: int, category: str, cards: Sequence[str]) -> None:
        """A hand whose five cards (strongest first) are known."""
        self._ranking, self._value, self._category = ranking, value, category
        self._five, self._hand = tuple(str(c) for c in cards), 0

    @property
    def ranking(self) -> str:
        return self._ranking

    @property
    def value(self) -> int:
        return self._value

    @property
    def category(self) -> str:
        return self._category

    @property
    def cards(self) -> tuple[str, ...]:
        """The cards that make the hand, strongest first."""
        return self._five

    def describe(self, lang: str = "en") -> str:
        return _words(self._value, lang, self._ranking)

    def __repr__(self) -> str:
        return (f"HandValue(ranking={self._ranking!r}, value={self._value}, "
                f"category={self.category!r}, cards={self.cards!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return (self._ranking, self._value) == (other._ranking, other._value)

    def __lt__(self, other: HandValue) -> bool:
        return self._value < other._value

    def __hash__(self) -> int:
        return hash((self._ranking, self._value))


class _HighHand(HandValue):
    """A high hand made by :func:`evaluate`'s fast path, which sets only its value and
    card key: the ranking is the class's, the category follows from the value, and the
    five cards are found from the key when first asked for."""

    __slots__ = ()
    _ranking = "high"  # shadows the slot: every hand of this class is a high hand

    @property
    def category(self) -> str:
        return CATEGORIES[self._value >> CATEGORY_SHIFT]

    @property
    def cards(self) -> tuple[str, ...]:
        try:
            return self._five
        except AttributeError:  # not yet asked for
            five = tuple(DECK[c] for c in five_of(self._value, _cards_of(self._hand)))
            _FIVE_SLOT.__set__(self, five)
            return five


_FIVE_SLOT = HandValue.__dict__["_five"]  # the slot itself: _HighHand has no setter of it


@lru_cache(maxsize=8192)
def _words(value: int, lang: str, ranking: str) -> str:
    """A value's description, kept: the same few thousand values recur at every table."""
    return describe(value, lang, ranking)


def _cards_of(key: int) -> list[int]:
    """The card indices of a hand from the sum of its one-hand keys (its card mask)."""
    mask = key >> _LANE_SHIFT
    return [rank * 4 + suit for rank in range(13) for suit in range(4)
            if mask >> (16 * suit + rank) & 1]


_new_hand = object.__new__


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
    if ranking == "high" and not exactly_two:
        # The fast path, high_value's sum and lookups written out on the card names: the
        # value and category now, the rest when asked for.
        try:
            key = sum(map(_KEY_OF_CARD.__getitem__, cards))
            size = len(cards)
            if board:
                key += sum(map(_KEY_OF_CARD.__getitem__, board))
                size += len(board)
            value: int = _BY_COUNT[size][key >> _RANK_SHIFT & _RANK_FIELD]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):  # the checks below say what is wrong
            if _fill_one_hand_table(len(cards) + len(board)):
                return evaluate(cards, ranking, board, exactly_two)
        else:
            if (key >> _LANE_SHIFT).bit_count() == size:  # else a card given twice
                lane = _FLUSH_LANE[key & 0xFFF]
                if lane:
                    flush: int = _FLUSH_VALUES[0][key >> lane & 0x1FFF]
                    value = flush if flush > value else value
                hand: HandValue = _new_hand(_HighHand)
                hand._value = value
                hand._hand = key
                return hand
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
