"""Five-card hand values: categories, the ordering value, and the best five of a rank set.

A hand's *value* is an integer that orders hands totally (higher is better,
equal values tie): the category in the top bits, then the tie-break ranks
four bits each. Ranks are 0 (deuce) to 12 (ace); a card is ``rank * 4 + suit``
with suits clubs, diamonds, hearts, spades (``pelisali.cards.DECK`` order).

>>> value_category(best_value_of_counts(counts_of([12, 12, 12, 11, 11])))
'full_house'
>>> straight_top(0b1000000001111)   # A-2-3-4-5: the wheel, five high
3
"""

from __future__ import annotations

from collections.abc import Sequence

CATEGORIES = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
              "full_house", "four_of_a_kind", "straight_flush")
CATEGORY_SHIFT = 20
WHEEL = 0b1000000001111  # A 5 4 3 2


def pack(category: int, ranks: Sequence[int]) -> int:
    """The ordering value of a category and its tie-break ranks (most significant first)."""
    value = category
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def unpack(value: int) -> tuple[int, list[int]]:
    ranks = [(value >> (4 * (4 - i))) & 0xF for i in range(5)]
    return value >> CATEGORY_SHIFT, ranks


def value_category(value: int) -> str:
    return CATEGORIES[value >> CATEGORY_SHIFT]


def counts_of(ranks: Sequence[int]) -> list[int]:
    counts = [0] * 13
    for r in ranks:
        counts[r] += 1
    return counts


def straight_top(mask: int) -> int:
    """Rank of the top card of the best straight in a 13-bit rank mask, or -1."""
    for top in range(12, 3, -1):
        window = 0b11111 << (top - 4)
        if mask & window == window:
            return top
    return 3 if mask & WHEEL == WHEEL else -1


def best_value_of_counts(counts: Sequence[int]) -> int:
    """The best five-card value from rank counts, flushes aside (they need suits)."""
    mask = sum(1 << r for r in range(13) if counts[r])
    by_count = sorted(((c, r) for r, c in enumerate(counts) if c), reverse=True)
    quads = [r for c, r in by_count if c >= 4]
    trips = [r for c, r in by_count if c == 3]
    pairs = [r for c, r in by_count if c == 2]
    singles = sorted((r for r in range(13) if counts[r]), reverse=True)
    if quads:
        q = quads[0]
        return pack(7, [q, max(r for r in singles if r != q)])
    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        p = max([r for r in trips[1:]] + pairs)
        return pack(6, [t, p])
    top = straight_top(mask)
    if top >= 0:
        return pack(4, [top])
    if trips:
        t = trips[0]
        return pack(3, [t, *[r for r in singles if r != t][:2]])
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        return pack(2, [hi, lo, max(r for r in singles if r not in (hi, lo))])
    if pairs:
        p = pairs[0]
        return pack(1, [p, *[r for r in singles if r != p][:3]])
    return pack(0, singles[:5])


def best_value_of_flush(mask: int) -> int:
    """The best value of five or more cards of one suit, given their rank mask."""
    top = straight_top(mask)
    if top >= 0:
        return pack(8, [top])
    ranks = [r for r in range(12, -1, -1) if mask >> r & 1]
    return pack(5, ranks[:5])


def five_of(value: int, cards: Sequence[int]) -> list[int]:
    """Five of ``cards`` that make ``value`` (the best hand), strongest first."""
    category, ranks = unpack(value)
    by_rank: dict[int, list[int]] = {}
    for card in sorted(cards, key=lambda c: -c):
        by_rank.setdefault(card >> 2, []).append(card)
    if category in (5, 8):  # one suit
        suits = [c & 3 for c in cards]
        suit = max(range(4), key=suits.count)
        same = sorted((c for c in cards if c & 3 == suit), key=lambda c: -c)
        if category == 5:
            return same[:5]
        wanted = _straight_ranks(ranks[0])
        return [next(c for c in same if c >> 2 == r) for r in wanted]
    if category == 4:
        return [by_rank[r][0] for r in _straight_ranks(ranks[0])]
    groups = {7: [4, 1], 6: [3, 2], 3: [3, 1, 1], 2: [2, 2, 1], 1: [2, 1, 1, 1],
              0: [1, 1, 1, 1, 1]}[category]
    out: list[int] = []
    for size, rank in zip(groups, ranks, strict=False):
        out.extend(by_rank[rank][:size])
    return out


def _straight_ranks(top: int) -> list[int]:
    return [12, 3, 2, 1, 0] if top == 3 else list(range(top, top - 5, -1))
