"""The compiled loops of Pai Gow Poker's exact count (:mod:`pelisali.games.pai_gow_count`).

Cards are positions in a deck (``0 .. n - 1``); the deck maps a position to a card id
(``rank * 4 + suit``, the joker :data:`JOKER_ID`). A hand of seven is found by its
colexicographic index, ``sum(C(card_i, i + 1))`` over its cards in ascending order.

>>> int(binomials(5)[5, 2]), int(binomials(53)[53, 7])
(10, 154143080)
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

JOKER_ID = 52
"""The joker's card id; a card of the 52 is ``rank * 4 + suit``."""
SIZE = 7
"""Cards in a hand."""
RANK_ONLY = np.int64(1) << 62
"""The flag of a class key read from the ranks alone (no flush can be made)."""

Int64s = npt.NDArray[np.int64]


def binomials(n: int) -> Int64s:
    """``C(i, j)`` for ``i <= n`` and ``j <= 7``, as a table."""
    table = np.zeros((n + 1, SIZE + 2), dtype=np.int64)
    for i in range(n + 1):
        table[i, 0] = 1
        for j in range(1, min(i, SIZE + 1) + 1):
            table[i, j] = table[i - 1, j - 1] + (table[i - 1, j] if j <= i - 1 else 0)
    return table


@nb.njit(cache=True)
def _popcount(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@nb.njit(cache=True)
def _class_key(cards: Int64s, rank_only: bool) -> np.int64:
    """A key equal for hands that the house way values alike. Always equal under a
    permutation of the suits (the sorted suits' rank masks and the joker); with
    ``rank_only``, a hand that holds no five of a suit (the joker counted) is keyed by its
    ranks alone, as then no flush can be made and the suits do not matter."""
    masks = np.zeros(4, dtype=np.int64)
    counts = np.zeros(13, dtype=np.int64)
    joker = 0
    for card in cards:
        if card == JOKER_ID:
            joker = 1
        else:
            masks[card & 3] |= np.int64(1) << (card >> 2)
            counts[card >> 2] += 1
    if rank_only:
        most = 0
        for suit in range(4):
            most = max(most, _popcount(masks[suit]))
        if most + joker < 5:
            key = RANK_ONLY | (np.int64(joker) << 39)
            for rank in range(13):
                key |= counts[rank] << (3 * rank)
            return key
    masks.sort()
    return np.int64((np.int64(joker) << 52) | (masks[3] << 39) | (masks[2] << 26)
                    | (masks[1] << 13) | masks[0])


@nb.njit(cache=True)
def subset_keys(deck: Int64s, size: int, rank_only: bool) -> Int64s:
    """The class key of every ``size``-card subset of the deck, in colexicographic order."""
    n = len(deck)
    total = 1
    for i in range(size):
        total = total * (n - i) // (i + 1)
    keys = np.empty(total, dtype=np.int64)
    combo = np.arange(size)
    cards = np.empty(size, dtype=np.int64)
    for index in range(total):
        for i in range(size):
            cards[i] = deck[combo[i]]
        keys[index] = _class_key(cards, rank_only)
        _next_colex(combo)
    return keys


@nb.njit(cache=True)
def _next_colex(combo: Int64s) -> None:
    """Step ``combo`` (ascending positions) to the next subset in colexicographic order."""
    i = 0
    while i < len(combo) - 1 and combo[i] + 1 == combo[i + 1]:
        combo[i] = i
        i += 1
    combo[i] += 1


@nb.njit(cache=True)
def unrank(index: int, size: int, binom: Int64s) -> Int64s:
    """The positions of the subset with this colexicographic index."""
    out = np.empty(size, dtype=np.int64)
    for i in range(size - 1, -1, -1):
        card = i
        while binom[card + 1, i + 1] <= index:
            card += 1
        out[i] = card
        index -= binom[card, i + 1]
    return out


@nb.njit(cache=True)
def _strict_and_weak_sorted(values: npt.NDArray[np.int32], lows: int) -> tuple[int, int]:
    """For points ``high * lows + low``: the ordered pairs ``(p, d)`` with ``d`` below ``p``
    in both, and those with ``d`` as high or higher in both (a point with itself too)."""
    values = np.sort(values)
    n = len(values)
    tree = np.zeros(lows + 1, dtype=np.int64)
    strict = 0
    start = 0
    while start < n:  # ascending highs: the points below are in the tree
        end = start
        high = values[start] // lows
        while end < n and values[end] // lows == high:
            end += 1
        for j in range(start, end):
            i = values[j] % lows  # the count of lows < this low: prefix sum to i
            while i > 0:
                strict += tree[i]
                i -= i & -i
        for j in range(start, end):
            i = values[j] % lows + 1
            while i <= lows:
                tree[i] += 1
                i += i & -i
        start = end
    tree[:] = 0
    weak = 0
    added = 0
    end = n
    while end > 0:  # descending highs: add the group, then count those at or above
        start = end
        high = values[end - 1] // lows
        while start > 0 and values[start - 1] // lows == high:
            start -= 1
        for j in range(start, end):
            i = values[j] % lows + 1
            while i <= lows:
                tree[i] += 1
                i += i & -i
            added += 1
        for j in range(start, end):
            below = 0
            i = values[j] % lows
            while i > 0:
                below += tree[i]
                i -= i & -i
            weak += added - below
        end = start
    return strict, weak


@nb.njit(cache=True)
def strict_and_weak_grid(values: npt.NDArray[np.int32], highs: int,
                         lows: int) -> tuple[int, int]:
    """:func:`_strict_and_weak_sorted` by a grid of counts, for many points."""
    grid = np.zeros((highs, lows), dtype=np.int64)
    for value in values:
        grid[value // lows, value % lows] += 1
    column = np.zeros(lows, dtype=np.int64)
    strict = 0
    for high in range(highs):
        below = 0
        for low in range(lows):
            strict += grid[high, low] * below
            below += column[low]
        for low in range(lows):
            column[low] += grid[high, low]
    column[:] = 0
    weak = 0
    for high in range(highs - 1, -1, -1):
        for low in range(lows):
            column[low] += grid[high, low]
        above = 0
        for low in range(lows - 1, -1, -1):
            above += column[low]
            weak += grid[high, low] * above
    return strict, weak


@nb.njit(cache=True)
def _superset_values(subset: Int64s, n: int, table: npt.NDArray[np.int32],
                     binom: Int64s) -> npt.NDArray[np.int32]:
    """The values of every hand of seven that holds the subset (positions, ascending)."""
    size = len(subset)
    rest = SIZE - size
    held = np.zeros(n, dtype=np.bool_)
    for p in subset:
        held[p] = True
    others = np.empty(n - size, dtype=np.int64)
    k = 0
    for p in range(n):
        if not held[p]:
            others[k] = p
            k += 1
    total = binom[n - size, rest]
    out = np.empty(total, dtype=np.int32)
    combo = np.arange(rest)
    for index in range(total):
        # merge the subset and the combination, ascending, into the colex index
        colex = 0
        a = 0
        b = 0
        for slot in range(SIZE):
            if b >= rest or (a < size and subset[a] < others[combo[b]]):
                colex += binom[subset[a], slot + 1]
                a += 1
            else:
                colex += binom[others[combo[b]], slot + 1]
                b += 1
        out[index] = table[colex]
        if rest:
            _next_colex(combo)
    return out


@nb.njit(cache=True, parallel=True)
def level_counts(subsets: Int64s, n: int, table: npt.NDArray[np.int32], binom: Int64s,
                 highs: int, lows: int) -> tuple[Int64s, Int64s]:
    """For each subset (a row of positions): among the hands that hold it, the ordered
    pairs strictly below in both hands, and those as high or higher in both."""
    count = subsets.shape[0]
    strict = np.zeros(count, dtype=np.int64)
    weak = np.zeros(count, dtype=np.int64)
    grid_from = highs * lows // 8
    for s in nb.prange(count):
        values = _superset_values(subsets[s], n, table, binom)
        if len(values) > grid_from:
            strict[s], weak[s] = strict_and_weak_grid(values, highs, lows)
        else:
            strict[s], weak[s] = _strict_and_weak_sorted(values, lows)
    return strict, weak


@nb.njit(cache=True)
def sorted_counts(values: npt.NDArray[np.int32], lows: int) -> tuple[int, int]:
    """:func:`_strict_and_weak_sorted`, exposed for the tests to hold against the grid."""
    return _strict_and_weak_sorted(values, lows)
