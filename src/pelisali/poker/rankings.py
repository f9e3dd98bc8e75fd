"""The rulebook's rankings beyond plain high: Sökö, the two lows, eight-or-better, the
Chinese front hand and Omaha-style hand making.

Each five-card ranking is defined once, here: a rule giving the value of five cards
(:data:`RULES`), and a hand of more cards plays its best five (:func:`best_of_fives`).
The batch evaluators (:mod:`pelisali.poker.batch`) fill their lookup tables by calling
these rules, so one hand and a million hands cannot be ranked differently.

Every value orders hands totally, higher better, so a low ranking's value is
the negated badness of the hand. Values of different rankings are not
comparable with each other.

>>> from pelisali.cards import parse_cards
>>> idx = lambda text: [DECK.index(c) for c in parse_cards(text)]
>>> low_a5_value(idx("As 2d 3c 4h 5s")) > low_a5_value(idx("As 2d 3c 4h 6s"))
True
>>> qualifies_eight(idx("8s 7d 5c 3h 2s")), qualifies_eight(idx("9s 7d 5c 3h 2s"))
(True, False)
>>> soko_category(soko_value(idx("9s 8d 7c 6h Ks")))
'four_straight'
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import overload

from pelisali.cards import DECK, CardError
from pelisali.poker.evaluate import RANK_KEYS, high_value, rank_multisets, rank_values, tables
from pelisali.poker.hands import pack, unpack

# Sökö (RAY 2016 1.4.1.1.1; RULINGS): four-card straight and flush between pair and two pair.
SOKO_CATEGORIES = ("high_card", "pair", "four_straight", "four_flush", "two_pair",
                   "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind",
                   "straight_flush")
_HIGH_TO_SOKO = {0: 0, 1: 1, 2: 4, 3: 5, 4: 6, 5: 7, 6: 8, 7: 9, 8: 10}

FiveRule = Callable[[Sequence[int]], int | None]


@dataclass(frozen=True)
class Rule:
    """A five-card ranking's definition.

    ``five`` values exactly five cards (None: they do not qualify). ``suited`` is the
    fewest cards of one suit among the five at which suits can change that value (None:
    suits never do). The batch tables rest on it: a five with fewer of one suit is valued
    by its ranks alone, so the tables hold one entry per rank multiset, and the builder
    checks this on every multiset.
    """

    five: FiveRule
    suited: int | None


def _ranks(cards: Sequence[int]) -> list[int]:
    return [c >> 2 for c in cards]


@overload
def best_of_fives(rule: Callable[[Sequence[int]], int], cards: Sequence[int]) -> int: ...
@overload
def best_of_fives(rule: FiveRule, cards: Sequence[int]) -> int | None: ...
def best_of_fives(rule: FiveRule, cards: Sequence[int]) -> int | None:
    """The best value among every five of ``cards``: a hand of more than five cards plays
    its best five (RAY 2016 1.4.1.1.1). None when no five qualifies; callers of a rule
    that always gives a value check for five cards first."""
    if len(cards) == 5:  # the hand is its one five (skips the combinations' overhead)
        return rule(cards)
    values = [v for five in itertools.combinations(cards, 5) if (v := rule(five)) is not None]
    return max(values, default=None)


def soko_five(cards: Sequence[int]) -> int:
    """Sökö value of five cards: the high ranking, with a four-card straight or flush
    between pair and two pair."""
    if len(cards) != 5:
        raise CardError("a Sökö hand is five cards")
    high = high_value(cards)
    category, ranks = unpack(high)
    value = pack(_HIGH_TO_SOKO[category], ranks)
    if category <= 1:  # a four-card straight or flush beats a pair
        rank_list = _ranks(cards)
        for suit in range(4):
            same = sorted((c >> 2 for c in cards if c & 3 == suit), reverse=True)
            if len(same) == 4:
                # Highest card first, down the four, then the fifth card (as for flushes).
                fifth = next(c >> 2 for c in cards if c & 3 != suit)
                value = max(value, pack(3, [*same, fifth]))
        mask = sum(1 << r for r in set(rank_list))
        # Highest four in a row first; A-2-3-4 counts, four high.
        windows = [(top, [top, top - 1, top - 2, top - 3]) for top in range(12, 2, -1)]
        for top, window in [*windows, (2, [2, 1, 0, 12])]:
            if all(mask >> r & 1 for r in window):
                rest = list(rank_list)
                for r in window:
                    rest.remove(r)
                value = max(value, pack(2, [top, rest[0]]))  # the fifth card breaks ties
                break
    return value


def soko_value(cards: Sequence[int]) -> int:
    """Sökö value of five cards (best five of more)."""
    if len(cards) < 5:
        raise CardError("a Sökö hand is five cards")
    return best_of_fives(soko_five, cards)


def soko_category(value: int) -> str:
    return SOKO_CATEGORIES[value >> 20]


def _a5(rank: int) -> int:
    """Ace-to-five order: the ace is the lowest card."""
    return 0 if rank == 12 else rank + 1


def _low_score(ranks: Sequence[int]) -> int:
    """Badness of five cards by rank alone (pairs and up count; straights and flushes
    do not): pair structure first, then the ranks from the top."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    category = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3,
                (3, 2): 6, (4, 1): 7}[tuple(shape)]
    return pack(category, order)


def low_a5_five(cards: Sequence[int]) -> int:
    """Ace-to-five low of five cards: ace low, straights and flushes ignored."""
    return -_low_score([_a5(r) for r in _ranks(cards)])


def low_a5_value(cards: Sequence[int]) -> int:
    """Ace-to-five low of the best five cards."""
    if len(cards) < 5:
        raise CardError("a low hand is five cards")
    return best_of_fives(low_a5_five, cards)


def qualifies_eight(cards: Sequence[int]) -> bool:
    """Eight or better: five different ranks, none above eight (ace low)."""
    ranks = {_a5(r) for r in _ranks(cards)}
    return len([r for r in ranks if r <= 7]) >= 5


def low_a5_eight_five(cards: Sequence[int]) -> int | None:
    """Ace-to-five low of five cards that qualify eight or better; else None."""
    return low_a5_five(cards) if qualifies_eight(cards) else None


def low_a5_eight_value(cards: Sequence[int]) -> int | None:
    """Ace-to-five low of the best qualifying five (eight or better); None when none
    qualifies (fewer than five cards included)."""
    return best_of_fives(low_a5_eight_five, cards)


def ace_high_only(value: int) -> int:
    """A high value with the ace counted high only: A-2-3-4-5 is no straight but ace high
    (a flush if suited). Deuce-to-seven reads hands this way (RULINGS: ace high).

    >>> from pelisali.poker.hands import value_category
    >>> value_category(ace_high_only(pack(4, [3])))
    'high_card'
    """
    category, ranks = unpack(value)
    if category in (4, 8) and ranks[0] == 3:
        return pack(0 if category == 4 else 5, [12, 3, 2, 1, 0])
    return value


def low_27_five(cards: Sequence[int]) -> int:
    """Deuce-to-seven low of five cards: the literal reversal of the high ranking (ace high
    only, straights and flushes count)."""
    return -ace_high_only(high_value(cards))


def low_27_value(cards: Sequence[int]) -> int:
    """Deuce-to-seven low; the best low of more than five cards is their worst high five."""
    if len(cards) < 5:
        raise CardError("a low hand is five cards")
    return best_of_fives(low_27_five, cards)


def low_27_eight_five(cards: Sequence[int]) -> int | None:
    """Deuce-to-seven low of five cards that qualify eight or better (no pair, straight or
    flush, eight high at most); else None."""
    value = low_27_five(cards)
    category, ranks = unpack(-value)
    return value if category == 0 and ranks[0] <= 6 else None


def low_27_eight_value(cards: Sequence[int]) -> int | None:
    """Deuce-to-seven low of the best qualifying five; else None."""
    if len(cards) < 5:
        raise CardError("a low hand is five cards")
    return best_of_fives(low_27_eight_five, cards)


def low_soko_five(cards: Sequence[int]) -> int:
    """Sökö's low of five cards: the literal reversal of the Sökö ranking (RAY 2016
    1.4.1.1.1: low reverses the ranking)."""
    return -soko_five(cards)


def low_soko_value(cards: Sequence[int]) -> int:
    """Sökö's low; the best low of more than five cards is their worst Sökö five."""
    if len(cards) < 5:
        raise CardError("a low hand is five cards")
    return best_of_fives(low_soko_five, cards)


# Each five-card ranking's one definition. ``suited``: a flush needs five of a suit, Sökö's
# four-card flush four; ace-to-five ignores flushes.
RULES: dict[str, Rule] = {
    "high": Rule(high_value, 5),
    "soko": Rule(soko_five, 4),
    "low-soko": Rule(low_soko_five, 4),
    "low-a5": Rule(low_a5_five, None),
    "low-a5-8": Rule(low_a5_eight_five, None),
    "low-27": Rule(low_27_five, 5),
    "low-27-8": Rule(low_27_eight_five, 5),
}


def front_value(cards: Sequence[int]) -> int:
    """Chinese poker's three-card front hand: no straights or flushes; comparable with
    five-card high values (RAY 2015 1.4.1.1.13)."""
    if len(cards) != 3:
        raise CardError("a front hand is three cards")
    ranks = sorted(_ranks(cards), reverse=True)
    if ranks[0] == ranks[2]:
        return pack(3, [ranks[0]])
    if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair = ranks[1]
        kicker = ranks[2] if ranks[0] == ranks[1] else ranks[0]
        return pack(1, [pair, kicker])
    return pack(0, ranks)


def omaha_best(hole: Sequence[int], board: Sequence[int], evaluator: str = "high") -> int | None:
    """Best value using exactly two hole cards and three board cards (Omaha family)."""
    if len(hole) < 2 or len(board) < 3:
        raise CardError("Omaha needs two or more hole cards and three or more board cards")
    if evaluator not in RULES:
        raise CardError(f"no five-card ranking {evaluator!r}; rankings: {', '.join(RULES)}")
    if evaluator == "high" and _distinct_cards(hole, board):
        return _omaha_high(hole, board)
    rule = RULES[evaluator].five
    best: int | None = None
    for two in itertools.combinations(hole, 2):
        for three in itertools.combinations(board, 3):
            value = rule([*two, *three])
            if value is not None and (best is None or value > best):
                best = value
    return best


def _distinct_cards(hole: Sequence[int], board: Sequence[int]) -> bool:
    cards = {*hole, *board}
    return len(cards) == len(hole) + len(board) and all(0 <= c <= 51 for c in cards)


@cache
def _rank_values(n: int) -> dict[int, int]:
    """The best non-flush high value of ``n`` cards by their rank-key sum, as a Python
    lookup: :func:`rank_values` by the sum."""
    return dict(zip(rank_multisets(n)[1].tolist(), rank_values(n).tolist(), strict=True))


@cache
def _flush_values() -> tuple[int, ...]:
    """The best flush value by 13-bit rank mask, as ``tables().flush_value`` has it."""
    return tuple(int(v) for v in tables().flush_value)


def _five_card_tables() -> tuple[dict[int, int], tuple[int, ...]]:
    """The high values of five cards as Python lookups: by rank-key sum (not a flush), and
    by rank mask (five of a suit); the same tables :func:`high_value` reads."""
    return _rank_values(5), _flush_values()


def high_value_of(cards: Sequence[int]) -> int:
    """:func:`high_value` (5 to 7 cards, indices 0-51) from the same tables read as Python
    lookups, without NumPy's cost a call; cards it refuses take its path and its error.

    >>> high_value_of([48, 44, 40, 36, 32]) == high_value([48, 44, 40, 36, 32])
    True
    """
    n = len(cards)
    if not 5 <= n <= 7 or len(set(cards)) != n or not all(0 <= c <= 51 for c in cards):
        return high_value(cards)
    key = 0
    suits = [0, 0, 0, 0]
    for c in cards:
        key += RANK_KEYS[c >> 2]
        suits[c & 3] += 1
    value = _rank_values(n)[key]
    for suit in range(4):
        if suits[suit] >= 5:  # one suit at most, in seven cards
            mask = 0
            for c in cards:
                if c & 3 == suit:
                    mask |= 1 << (c >> 2)
            return max(value, _flush_values()[mask])
    return value


_CARD_KEYS = {card: RANK_KEYS[i >> 2] for i, card in enumerate(DECK)}  # by the card's name
_CARD_BITS = {card: 1 << (i >> 2) for i, card in enumerate(DECK)}
_CARD_INDEX = {card: i for i, card in enumerate(DECK)}


def high_value_of_cards(cards: Sequence[str]) -> int:
    """:func:`high_value_of` of the cards by name (``"As"``), without their indices; cards
    it does not take (not 5 to 7 distinct cards of the deck) go to :func:`high_value_of` (a
    name not of the deck: a KeyError).

    >>> high_value_of_cards(["As", "Ks", "Qs", "Js", "Ts"]) == high_value_of([51, 47, 43, 39, 35])
    True
    """
    n = len(cards)
    unique = set(cards)
    if not 5 <= n <= 7 or len(unique) != n or not unique <= _CARD_KEYS.keys():
        return high_value_of([_CARD_INDEX[c] for c in cards])
    value = _rank_values(n)[sum(map(_CARD_KEYS.__getitem__, cards))]
    suits = "".join(cards)[1::2]
    for suit in "cdhs":
        if suits.count(suit) >= 5:  # one suit at most, in seven cards
            mask = 0
            for c in cards:
                if c[1] == suit:
                    mask |= _CARD_BITS[c]
            return max(value, _flush_values()[mask])
    return value


def _omaha_high(hole: Sequence[int], board: Sequence[int]) -> int:
    """Omaha's best high hand, each two of the hole with each three of the board, as
    :func:`high_value` values them: the pairs' and the triples' keys are summed once."""
    by_key, flush_value = _five_card_tables()
    pairs = [(RANK_KEYS[a >> 2] + RANK_KEYS[b >> 2], a & 3 if a & 3 == b & 3 else -1,
              (1 << (a >> 2)) | (1 << (b >> 2))) for a, b in itertools.combinations(hole, 2)]
    triples = [(RANK_KEYS[a >> 2] + RANK_KEYS[b >> 2] + RANK_KEYS[c >> 2],
                a & 3 if a & 3 == b & 3 == c & 3 else -2,
                (1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2)))
               for a, b, c in itertools.combinations(board, 3)]
    best = -1
    for key, suit, mask in pairs:
        for key3, suit3, mask3 in triples:
            value = by_key[key + key3]
            if suit == suit3:  # five of a suit
                value = max(value, flush_value[mask | mask3])
            if value > best:
                best = value
    return best


def card_indices(cards: Sequence[str]) -> list[int]:
    out = []
    for card in cards:
        if card not in DECK:
            raise CardError(f"{card!r} is not a card")
        out.append(DECK.index(card))
    return out
