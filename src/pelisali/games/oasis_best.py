"""Oasis Stud Poker's best strategy among those that read only the player's own cards and
exchange at most one card ("best blind"), every deal counted.

Standard rules (RAY 2016 1.4.1.2 names the game; its text is not in the rulebook as
extracted); the count is :mod:`pelisali.games.oasis_count`'s. For each of the 134,459 suit
patterns of the player's hand it values standing (raise if the exact return of the raise
over the dealer's C(47, 5) hands beats folding's -1 ante, else fold) and exchanging each of
the five cards (the one-card fee, then for each of the 47 replacements raise if the raise's
exact return over the dealer's C(46, 5) hands beside the six cards seen beats -1, else
fold), and takes the best. The basic strategy's value comes out of the same numbers, so
the two are set side by side hand by hand.

How the dealer's hands are counted. With ``Y`` the player's five cards ``H`` and the
replacement ``c``, the dealer's hands avoiding ``Y`` below a class ``r`` are those avoiding
``H`` less those avoiding ``H`` that hold ``c``; both by inclusion-exclusion over the
subsets ``S`` of ``H`` (the sets ``S`` and ``S + c``): the first part's sets are the
pattern's own, the same for its 47 replacements. Each replacement counts the dealer's
hands below the qualifier and, for each final hand that qualifies, those up to its class
(a final hand below the qualifier needs no more); the dealer's hands of its very class
are counted from its ranks and the cards left (:func:`class_hands`). Four-card sets are
read from :func:`four_counts` (each set's completions below every 32nd class, then the
few left counted one by one) rather than by binary search.

>>> hand = np.array([sorted(DECK.index(c) for c in "Ah Kh 7h 2h 9c".split())])
>>> values = pattern_values(hand)
>>> [DECK[c] for c in hand[0]], int(values.best()[0][0])  # the best: exchange the 9c
(['2h', '7h', '9c', 'Kh', 'Ah'], 2)
>>> [round(float(v), 4) for v in values.per_ante(0)]  # stand, then exchange each card
[-1.0, -1.4809, -1.5533, -0.1577, -1.6424, -1.6524]
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pelisali.cards import DECK
from pelisali.games import holdem_count, oasis_count, oasis_stud
from pelisali.games.holdem_count import board_classes, combinations_array
from pelisali.games.oasis_count import (
    AFTER_EXCHANGE,
    DEALER_HANDS,
    SHARES,
    _pay_index,
    colex,
    exchange_positions,
    pay_array,
    qualifier,
    raise_least,
    tables,
)
from pelisali.poker.hands import CATEGORY_SHIFT
from pelisali.rules.oasis import OasisRules, load_oasis

STRATEGY = (
    "Of the strategies that read only the player's five cards and exchange at most one "
    "card, the best: for each hand, stand or exchange the one card that returns the most "
    "(fee included), then raise exactly when the raise returns more than folding, given "
    "every card the player has seen.")
"""The strategy :func:`best_blind` values, in words."""
UNIT = 47 * AFTER_EXCHANGE
"""A hand's values are counted over 47 x C(46, 5) = 42 x C(47, 5) deals: the unit of
:class:`PatternValues` (a standing hand's deals count 42 times each)."""


# -- the four-card counts -------------------------------------------------------------------
_SPAN = 32
"""The classes a bucket of :func:`four_counts` spans."""


@dataclass(frozen=True)
class FourCounts:
    """How many of each four cards' 48 completions are below a class, read in two steps:
    ``coarse`` (row: the four cards' colex rank; column b) counts those below class
    :data:`_SPAN` x b, and ``ranks`` holds every row's 48 completion classes in order
    (one more, past the last row, above every class), so the few left in the bucket are
    counted one by one: 63 MB of bytes, where a table by every class would take 2.0 GB
    (and 6 s to build) for a count about a fifth faster."""

    coarse: npt.NDArray[np.uint8]
    ranks: npt.NDArray[np.int16]

    def below(self, index: npt.NDArray[np.int64], thresholds: npt.NDArray[np.int64]
              ) -> npt.NDArray[np.int64]:
        """For each pair of a row ``index`` and a class: its completions below the class.

        >>> counts = four_counts()
        >>> counts.below(np.array([0, 0, 270724]), np.array([0, 7462, 7462])).tolist()
        [0, 48, 48]
        """
        found = self.coarse[index, thresholds // _SPAN].astype(np.int64)
        place = index * 48 + found
        end = index * 48 + 48
        active = np.arange(len(index))
        limit = thresholds
        while active.size:
            more = (place < end) & (self.ranks[place] < limit)
            active, place, end, limit = active[more], place[more] + 1, end[more], limit[more]
            found[active] += 1
        return found


@cache
def four_counts() -> FourCounts:
    """The :class:`FourCounts` of every four cards (about 2 s, 63 MB, kept for the
    process), from :func:`~pelisali.games.oasis_count.tables`' sorted completions."""
    t = tables()
    count = len(t.values)
    ranks = (t.fours & (oasis_count._RANK_SHIFT - 1)).reshape(-1, 48)  # each row sorted
    edges = np.arange(0, count + _SPAN, _SPAN)
    coarse = np.empty((len(ranks), len(edges)), dtype=np.uint8)
    step = 8192
    for start in range(0, len(ranks), step):
        part = ranks[start:start + step]
        apart = np.arange(len(part), dtype=np.int64)[:, None] * 16384  # rows apart, sorted
        found = np.searchsorted((part + apart).ravel(), (edges + apart).ravel())
        coarse[start:start + len(part)] = (found.reshape(len(part), -1) - 48 * apart // 16384)
    return FourCounts(coarse, np.concatenate([ranks.ravel(), [np.iinfo(np.int16).max]]
                                             ).astype(np.int16))


def _set_below(size: int, index: npt.NDArray[np.int64], thresholds: npt.NDArray[np.int64]
               ) -> npt.NDArray[np.int64]:
    """For each pair of a set of ``size`` cards (its colex rank ``index``) and a class:
    the five-card hands holding the set and of a class below."""
    t = tables()
    found: npt.NDArray[Any]
    if size == 0:
        found = t.below[0][thresholds]
    elif size <= 3:
        found = t.below[size][index, thresholds]
    elif size == 4:
        found = four_counts().below(index, thresholds)
    elif size == 5:
        found = t.classes[index] < thresholds
    else:
        found = np.zeros(len(thresholds), dtype=np.int64)
    return found.astype(np.int64)


def _union_colex(low: npt.NDArray[np.int64], high: npt.NDArray[np.int64]
                 ) -> npt.NDArray[np.int64]:
    """The colex rank of the union of two disjoint sets, each ascending along the last
    axis (without sorting: each card's place is its own place plus the other set's cards
    below it)."""
    binomials = oasis_count._binomials()
    total: npt.NDArray[np.int64] = np.zeros(
        np.broadcast_shapes(low.shape[:-1], high.shape[:-1]), dtype=np.int64)
    for mine, other in ((low, high), (high, low)):
        for j in range(mine.shape[-1]):  # columns one by one: the sets hold five at most
            card = mine[..., j]
            place = j + sum((other[..., i] < card for i in range(other.shape[-1])),
                            start=np.zeros_like(card))
            total += binomials[card, place + 1]
    return total


def _four_of_five_below(hands: npt.NDArray[np.int64], own: npt.NDArray[np.int64],
                        thresholds: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The sum over each hand's five four-card subsets of their hands below each class
    (pairs: the hand ``own``, the class): the 240 completions of each hand, sorted, and one
    search a pair."""
    t = tables()
    ranks = four_counts().ranks
    index = np.stack([colex(hands[:, list(held)]) for held in combinations(range(5), 4)],
                     axis=1)
    found = np.sort(ranks[index[:, :, None] * 48 + np.arange(48)].reshape(len(hands), -1),
                    axis=1).astype(np.int64)
    apart = np.arange(len(hands), dtype=np.int64) * (len(t.values) + 1)
    keys = (found + apart[:, None]).ravel()  # rows apart: one sorted array
    counted: npt.NDArray[np.int64] = np.searchsorted(keys, apart[own] + thresholds) - 240 * own
    return counted


def dealer_below(hands: npt.NDArray[np.int64], new: npt.NDArray[np.int64],
                 at: npt.NDArray[np.int64], thresholds: npt.NDArray[np.int64]
                 ) -> npt.NDArray[np.int64]:
    """The dealer's hands avoiding a player's hand and the cards dealt to it, below a
    class: ``hands`` (B, 5 ascending card indices), ``new`` (B, D, k: each hand's D draws
    of k cards, ascending), and the pairs to count, each a draw (``at``, an index into the
    B x D draws) and a class (``thresholds``). Inclusion-exclusion over the subsets of
    the hand and the draw (the hand's own sets ranked once a hand, its five four-card sets
    read together).

    >>> hand = np.array([[0, 1, 2, 3, 4]])
    >>> draws = np.array([[[5], [6]]])
    >>> dealer_below(hand, draws, np.array([0, 1]), np.array([7462, 7462])).tolist()
    [1370754, 1370754]
    """
    _count, draws, k = new.shape
    own = at // draws  # the hand each pair counts beside
    total = _four_of_five_below(hands, own, thresholds)
    for size in range(0, 6):
        for held in combinations(range(5), size):
            kept = hands[:, list(held)]
            for more in range(0, min(k, 5 - size) + 1):
                sign = -1 if (size + more) % 2 else 1
                if more == 0:
                    if size != 4:  # the four-card subsets: counted together above
                        total += sign * _set_below(size, colex(kept)[own], thresholds)
                    continue
                for extra in combinations(range(k), more):
                    index = _union_colex(kept[:, None, :], new[:, :, list(extra)])
                    total += sign * _set_below(size + more, index.reshape(-1)[at], thresholds)
    return total


# -- the values of one hand's choices ---------------------------------------------------------
@dataclass(frozen=True)
class PatternValues:
    """For each hand (row) of ``hands`` (B, 5 ascending card indices): the return of each
    choice counted over its deals, in units of :data:`UNIT` deals (divide by it for the
    return per ante).

    ``stand``: standing, raising or folding as pays more; ``stand_raises``: whether it
    raises; ``exchange`` (B, 5): exchanging the card at each position, the fee included,
    then raising or folding as pays more for each replacement; ``exchange_raises``: after
    how many of the 47 replacements it raises. ``basic_stand`` and ``basic_exchange`` the
    same choices with the basic strategy's raise (A-K-J-8-3 or better), and
    ``basic_raises`` after how many replacements that raises."""

    hands: npt.NDArray[np.int64]
    stand: npt.NDArray[np.int64]
    stand_raises: npt.NDArray[np.bool_]
    exchange: npt.NDArray[np.int64]
    exchange_raises: npt.NDArray[np.int64]
    basic_stand: npt.NDArray[np.int64]
    basic_exchange: npt.NDArray[np.int64]
    basic_raises: npt.NDArray[np.int64]

    def per_ante(self, row: int) -> list[Fraction]:
        """The row's returns per ante: standing, then exchanging each card."""
        return [Fraction(int(v), UNIT) for v in (self.stand[row], *self.exchange[row])]

    def best(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Each row's best choice (-1 stand, else the position exchanged; standing where
        it ties, then the first position) and its value."""
        values = np.concatenate([self.stand[:, None], self.exchange], axis=1)
        choice = np.argmax(values, axis=1)
        return choice - 1, values[np.arange(len(values)), choice]


def _final_classes(hands: npt.NDArray[np.int64], new: npt.NDArray[np.int64]
                   ) -> npt.NDArray[np.int64]:
    """(B, 47, 5): the class of each hand with the card at each position exchanged for
    each of its 47 replacements."""
    t = tables()
    count = len(hands)
    finals = np.empty((count, 47, 5), dtype=np.int64)
    for position in range(5):
        kept = np.delete(hands, position, axis=1)
        cards = np.concatenate([np.broadcast_to(kept[:, None, :], (count, 47, 4)),
                                new[:, :, None]], axis=2)
        finals[:, :, position] = t.classes[colex(np.sort(cards, axis=2))]
    return finals


def _unseen(hands: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    seen = np.zeros((len(hands), 52), dtype=bool)
    np.put_along_axis(seen, hands, True, axis=1)
    found: npt.NDArray[np.int64] = np.nonzero(~seen)[1].reshape(len(hands), -1)
    return found


_GROUPS = np.array([[1, 1, 1, 1, 1], [2, 1, 1, 1, 0], [2, 2, 1, 0, 0], [3, 1, 1, 0, 0],
                    [1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [3, 2, 0, 0, 0], [4, 1, 0, 0, 0],
                    [1, 1, 1, 1, 1]])
"""How many cards of each packed rank a hand of each category holds."""
_CHOOSE = np.array([[comb(n, k) for k in range(5)] for n in range(5)], dtype=np.int64)
"""C(n, k) for n, k of 0 to 4 (C(n, 0) = 1: a rank a category does not hold)."""


def class_hands(classes: npt.NDArray[np.int64], excluded: npt.NDArray[np.int64]
                ) -> npt.NDArray[np.int64]:
    """How many five-card hands of each class avoid each row of ``excluded`` (P, any
    number of card indices): from the class's ranks, the cards left of each rank and the
    suits left whole (no counting by tables: a class is one set of ranks, and suited or
    not).

    >>> t = tables()
    >>> royal, wheel = t.classes[colex(np.array([[32, 36, 40, 44, 48], [0, 5, 9, 13, 48]]))]
    >>> class_hands(np.array([royal, wheel]), np.array([[48, 1], [50, 51]])).tolist()
    [3, 510]
    """
    values = tables().values[classes]
    category = values >> CATEGORY_SHIFT
    ranks = (values[:, None] >> np.array([16, 12, 8, 4, 0])) & 15
    top = ranks[:, 0]
    run = np.where(top[:, None] == 3, np.array([12, 3, 2, 1, 0]),
                   top[:, None] - np.arange(5))  # a straight's ranks, the wheel's ace high
    straight = (category == 4) | (category == 8)
    ranks = np.where(straight[:, None], run, ranks)
    free = np.ones((len(excluded), 52), dtype=bool)
    np.put_along_axis(free, excluded, False, axis=1)
    left = free.reshape(-1, 13, 4).sum(axis=2)  # of each rank
    rows = np.arange(len(classes))
    groups = _GROUPS[category]
    ways = np.ones(len(classes), dtype=np.int64)
    whole = np.ones((len(classes), 4), dtype=bool)  # the suits with all five ranks left
    for j in range(5):  # column by column: five at most
        ways *= _CHOOSE[left[rows, ranks[:, j]], groups[:, j]]
        whole &= free.reshape(-1, 13, 4)[rows, ranks[:, j]]
    suited = whole.sum(axis=1)
    distinct = (category == 0) | (category == 4)
    found: npt.NDArray[np.int64] = np.where(
        distinct, ways - suited, np.where((category == 5) | (category == 8), suited, ways))
    return found


def raise_totals(hands: npt.NDArray[np.int64], new: npt.NDArray[np.int64],
                 finals: npt.NDArray[np.int64], pays: npt.NDArray[np.int64],
                 multiple: int) -> npt.NDArray[np.int64]:
    """The raise's return summed over the dealer's hands beside each hand of ``hands``
    and each draw of ``new`` (B, D, k), for each final hand's class ``finals`` (B, D, F:
    F hands a draw, as many discards). Each draw counts the dealer's hands below the
    qualifier, and for each final hand that qualifies those up to its class; ties are
    counted by :func:`class_hands`."""
    count, draws, k = new.shape
    least = qualifier()
    shape = finals.shape
    flat = finals.reshape(-1)
    rows = np.arange(count * draws)
    wanted = np.flatnonzero(flat >= least)
    at = np.concatenate([rows, wanted // shape[2]])
    found = dealer_below(hands, new, at, np.concatenate([np.full(len(rows), least),
                                                           flat[wanted] + 1]))
    seen = np.concatenate([np.repeat(hands, draws, axis=0), new.reshape(count * draws, k)],
                          axis=1)
    unqualified = np.repeat(found[:len(rows)], shape[2])
    upto = unqualified.copy()
    upto[wanted] = found[len(rows):]
    ties = np.zeros(len(flat), dtype=np.int64)
    ties[wanted] = class_hands(flat[wanted], seen[wanted // shape[2]])
    total = comb(47 - k, 5)
    qualified = flat >= least
    wins = np.where(qualified, upto - ties - unqualified, 0)
    losses = np.where(qualified, total - upto, total - unqualified)
    result: npt.NDArray[np.int64] = (unqualified + wins * (1 + multiple * pays[_pay_index(flat)])
                                     - (1 + multiple) * losses).reshape(shape)
    return result


def pattern_values(hands: npt.NDArray[np.int64], rules: OasisRules | None = None
                   ) -> PatternValues:
    """Every choice of each hand of ``hands`` (B, 5 ascending card indices) valued over
    every deal: :class:`PatternValues`, with the rules' one-card fee and pay table."""
    rules = rules or load_oasis()
    pays, fee, multiple = pay_array(rules), int(rules.fees[0]), rules.raise_multiple
    t = tables()
    least_raise = raise_least()
    mine = t.classes[colex(hands)].astype(np.int64)
    raised = raise_totals(hands, np.zeros((len(hands), 1, 0), dtype=np.int64),
                          mine[:, None, None], pays, multiple)[:, 0, 0]
    stand_raises = raised > -DEALER_HANDS
    new = _unseen(hands)
    finals = _final_classes(hands, new)
    returns = raise_totals(hands, new[:, :, None], finals, pays, multiple)
    folds = -AFTER_EXCHANGE
    goes = returns > folds
    exchange = np.where(goes, returns, folds).sum(axis=1) - 47 * fee * AFTER_EXCHANGE
    basic_goes = finals >= least_raise
    basic = np.where(basic_goes, returns, folds).sum(axis=1) - 47 * fee * AFTER_EXCHANGE
    return PatternValues(
        hands, np.where(stand_raises, raised, -DEALER_HANDS) * SHARES, stand_raises,
        exchange, goes.sum(axis=1), np.where(mine >= least_raise, raised, -DEALER_HANDS)
        * SHARES, basic, basic_goes.sum(axis=1))


# -- the hands in words ---------------------------------------------------------------------
_HAND_WORDS = ("no pair", "pair", "two pair", "three of a kind", "straight", "flush",
               "full house", "four of a kind", "straight flush")


def hand_words(cards: Sequence[int]) -> str:
    """The five cards' hand (card indices), in words.

    >>> hand_words([DECK.index(c) for c in "2c 2d 7h 9s Kd".split()])
    'pair'
    """
    return _HAND_WORDS[int(tables().values[tables().classes[colex(np.sort(
        np.array([cards]), axis=1))[0]]]) >> CATEGORY_SHIFT]


def kept_words(cards: Sequence[int]) -> str:
    """What four cards kept (card indices) hold, in words: a draw to a straight flush, a
    flush or a straight (open at both ends, or one way in; the ace high, or low in
    A-2-3-4-5), or what pairs they hold, or nothing of those.

    >>> for h in ("Th Jh Qh Ah", "5c 6c 8c 9c", "5c 6d 7c 8h", "Tc Jd Kh As", "9c 9d Kh 2s"):
    ...     print(kept_words([DECK.index(c) for c in h.split()]))
    four to a royal flush
    four to a straight flush
    four in a row open at both ends
    four to a straight to the ace, one way in
    a pair and two others
    """
    ranks = sorted(c >> 2 for c in cards)
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    if counts[0] > 1:
        return {(2, 1, 1): "a pair and two others", (2, 2): "two pair",
                (3, 1): "three of a kind and one other",
                (4,): "four of a kind"}[tuple(counts)]
    suited = len({c & 3 for c in cards}) == 1
    mask = sum(1 << r for r in ranks)
    windows = [0b11111 << low for low in range(9)] + [0b1000000001111]  # the wheel last
    inside = [w for w in windows if mask & w == mask]
    if suited and inside:
        return ("four to a royal flush" if inside[-1] == 0b11111 << 8
                else "four to a straight flush")
    if suited:
        return "four to a flush"
    if inside and ranks[-1] - ranks[0] == 3 and ranks[-1] < 12:
        return "four in a row open at both ends"
    if inside:
        return ("four to a straight to the ace, one way in" if 0b11111 << 8 in inside
                else "four to a straight, one way in")
    return "ace-king and two others" if mask >> 11 == 0b11 else "no pair and no draw"


def action_words(cards: Sequence[int], position: int, raises: bool | None = None) -> str:
    """A choice in words: standing (``position`` -1) and raising or folding, or exchanging
    the card at ``position`` (of ``cards``' order) and what the four kept hold.

    >>> hand = [DECK.index(c) for c in "7c 7d 9c Tc 6c".split()]
    >>> action_words(hand, -1, True), action_words(hand, 1)
    ('stand and raise', 'break the pair: keep four to a straight flush')
    """
    if position < 0:
        return "stand and raise" if raises else "stand and fold"
    kept = [c for i, c in enumerate(cards) if i != position]
    words = "keep " + kept_words(kept)
    paired = len({c >> 2 for c in cards}) < 5
    return ("break the pair: " if paired and len({c >> 2 for c in kept}) == 4 else "") + words


# -- the exact house edge -------------------------------------------------------------------
@dataclass(frozen=True)
class Difference:
    """Hands where the best strategy does other than the basic one, by pattern: the
    player's hand, each strategy's choice in words, how many of the 2,598,960 hands, and
    what the best strategy gains on them per ante of all hands (``gain``) and per ante of
    these hands (``gain_each``)."""

    hand: str
    best: str
    basic: str
    hands: int
    gain: Fraction
    gain_each: Fraction


@dataclass(frozen=True)
class BestBlind:
    """Every deal counted for the best strategy of :data:`STRATEGY`: ``ante_edge`` the
    house edge per ante (fees included), ``element_of_risk`` per unit wagered
    (``average_wager`` antes a hand, ``average_fee``), ``shares`` the chance to stand and
    raise, stand and fold, and exchange, ``raise_after_exchange`` the chance to raise
    after exchanging; ``choices`` how many hands take each choice (in words);
    ``basic_edge`` the basic strategy's house edge from the same numbers;
    ``differences`` where the two differ (:class:`Difference`, the largest gain first);
    ``exchanges`` how many hands each strategy exchanges: ``both`` the same card,
    ``other-card`` both but not the same card, ``best-only`` and ``basic-only``.
    """

    ante_edge: Fraction
    element_of_risk: Fraction
    average_wager: Fraction
    average_fee: Fraction
    shares: dict[str, Fraction]
    raise_after_exchange: Fraction
    choices: dict[str, int]
    basic_edge: Fraction
    differences: tuple[Difference, ...]
    exchanges: dict[str, int]
    deals: int
    classes: int

    @property
    def gap(self) -> Fraction:
        """What the basic strategy gives up per ante against the best."""
        return self.basic_edge - self.ante_edge


def _batches(rows: npt.NDArray[np.int64] | None, step: int = 512
             ) -> Iterator[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]:
    boards, weights = board_classes()
    chosen = np.arange(len(boards)) if rows is None else np.asarray(rows)
    for start in range(0, len(chosen), step):
        part = chosen[start:start + step]
        yield boards[part], weights[part]


@cache
def best_blind(fees: str | None = None, pays: str | None = None,
               progress: Callable[[int], None] | None = None,
               rows: tuple[int, ...] | None = None) -> BestBlind:
    """The exact figures of :data:`STRATEGY` (:class:`BestBlind`), with the rule data's
    fee and pay tables or those named; ``progress`` is told the suit patterns done.
    ``rows`` counts those suit patterns alone (of
    :func:`~pelisali.games.holdem_count.board_classes`), the figures then over their
    hands only."""
    rules = load_oasis(fees, pays)
    fee, multiple = int(rules.fees[0]), rules.raise_multiple
    t = tables()
    best_total = basic_total = wagered = hands_count = 0
    stand_raise = stand_fold = swapped = raised_after = 0
    choices: dict[str, int] = {}
    differences: dict[tuple[str, str, str], list[int]] = {}
    exchanges = dict.fromkeys(("both", "other-card", "best-only", "basic-only"), 0)
    classes = 0
    for hands, weights in _batches(None if rows is None else np.array(rows, dtype=np.int64)):
        values = pattern_values(hands, rules)
        choice, best = values.best()
        position, _rule = exchange_positions(hands, t.values[t.classes[colex(hands)]]
                                             .astype(np.int64))
        at = np.arange(len(hands))
        basic = np.where(position < 0, values.basic_stand,
                         values.basic_exchange[at, np.maximum(position, 0)])
        raises = values.exchange_raises[at, np.maximum(choice, 0)]
        stood = choice < 0
        best_total += int((weights * best).sum())
        basic_total += int((weights * basic).sum())
        hands_count += int(weights.sum())
        per_hand = np.where(stood, np.where(values.stand_raises, 1 + multiple, 1) * UNIT,
                            (1 + fee) * UNIT + multiple * raises * AFTER_EXCHANGE)
        wagered += int((weights * per_hand).sum())
        stand_raise += int(weights[stood & values.stand_raises].sum())
        stand_fold += int(weights[stood & ~values.stand_raises].sum())
        swapped += int(weights[~stood].sum())
        raised_after += int((weights * np.where(stood, 0, raises)).sum())
        for name, mask in (("both", ~stood & (choice == position)),
                           ("other-card", ~stood & (position >= 0) & (choice != position)),
                           ("best-only", ~stood & (position < 0)),
                           ("basic-only", stood & (position >= 0))):
            exchanges[name] += int(weights[mask].sum())
        basic_raises = values.basic_stand > -DEALER_HANDS * SHARES
        for row in np.flatnonzero(~stood | (position >= 0) | (best != basic)
                                  | (values.stand_raises != basic_raises)):
            cards = [int(c) for c in hands[row]]
            mine = action_words(cards, int(choice[row]), bool(values.stand_raises[row]))
            if choice[row] >= 0:
                choices[mine] = choices.get(mine, 0) + int(weights[row])
            theirs = action_words(cards, int(position[row]), bool(basic_raises[row]))
            if mine == theirs and best[row] != basic[row]:
                mine += ", raising on the exact return after"
            if mine != theirs:
                key = (hand_words(cards), mine, theirs)
                tally = differences.setdefault(key, [0, 0])
                tally[0] += int(weights[row])
                tally[1] += int(weights[row] * (best[row] - basic[row]))
        classes += len(hands)
        if progress:
            progress(len(hands))
    choices = {"stand and raise": stand_raise, "stand and fold": stand_fold,
               **dict(sorted(choices.items(), key=lambda item: -item[1]))}
    deals = hands_count * DEALER_HANDS
    ante_return = Fraction(best_total, hands_count * UNIT)
    average_wager = Fraction(wagered, hands_count * UNIT)
    found = tuple(sorted(
        (Difference(hand, mine, theirs, count, Fraction(gain, hands_count * UNIT),
                    Fraction(gain, count * UNIT))
         for (hand, mine, theirs), (count, gain) in differences.items()),
        key=lambda d: (-d.gain, d.hand, d.best)))
    return BestBlind(
        -ante_return, -ante_return / average_wager, average_wager,
        Fraction(swapped * fee, hands_count),
        {"stand-raise": Fraction(stand_raise, hands_count),
         "stand-fold": Fraction(stand_fold, hands_count),
         "exchange": Fraction(swapped, hands_count)},
        Fraction(raised_after, 47 * swapped) if swapped else Fraction(0),
        choices, -Fraction(basic_total, hands_count * UNIT), found, exchanges, deals,
        classes)


# -- the exact figures kept between runs ---------------------------------------------------
def _cache_key(rules: OasisRules) -> str:
    """What the figures depend on: this module's code and the count's, the strategy's and
    the suit patterns', and the rules' tables."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for module in (oasis_count, oasis_stud, holdem_count):
        digest.update(Path(str(module.__file__)).read_bytes())
    digest.update(json.dumps([list(rules.fees), sorted(rules.pays.items()),
                              rules.raise_multiple]).encode())
    return digest.hexdigest()[:24]


def to_json(found: BestBlind) -> dict[str, object]:
    """The figures as JSON (fractions as strings)."""
    return {
        "ante_edge": str(found.ante_edge), "element_of_risk": str(found.element_of_risk),
        "average_wager": str(found.average_wager), "average_fee": str(found.average_fee),
        "shares": {k: str(v) for k, v in found.shares.items()},
        "raise_after_exchange": str(found.raise_after_exchange), "choices": found.choices,
        "basic_edge": str(found.basic_edge), "gap": str(found.gap),
        "differences": [{"hand": d.hand, "best": d.best, "basic": d.basic, "hands": d.hands,
                         "gain": str(d.gain), "gain_each": str(d.gain_each)}
                        for d in found.differences],
        "exchanges": found.exchanges, "deals": found.deals, "classes": found.classes}


def from_json(data: dict[str, Any]) -> BestBlind:
    """:func:`to_json`'s figures read back."""
    return BestBlind(
        Fraction(data["ante_edge"]), Fraction(data["element_of_risk"]),
        Fraction(data["average_wager"]), Fraction(data["average_fee"]),
        {str(k): Fraction(v) for k, v in data["shares"].items()},
        Fraction(data["raise_after_exchange"]),
        {str(k): int(v) for k, v in data["choices"].items()}, Fraction(data["basic_edge"]),
        tuple(Difference(str(d["hand"]), str(d["best"]), str(d["basic"]), int(d["hands"]),
                         Fraction(d["gain"]), Fraction(d["gain_each"]))
              for d in data["differences"]),
        {str(k): int(v) for k, v in data["exchanges"].items()},
        int(data["deals"]), int(data["classes"]))


def cached_best_blind(fees: str | None = None, pays: str | None = None,
                      progress: Callable[[int], None] | None = None,
                      directory: Path | None = None) -> tuple[BestBlind, bool]:
    """:func:`best_blind`, kept in the user's cache (``$XDG_CACHE_HOME/pelisali``) under a
    key of the code and the tables, so that it is counted once a machine (about a
    minute): the figures and whether they were read from the cache."""
    rules = load_oasis(fees, pays)
    base = directory or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") \
        / "pelisali"
    path = base / f"oasis-best-blind-{_cache_key(rules)}.json"
    if path.exists():
        try:
            return from_json(json.loads(path.read_text())), True
        except (ValueError, KeyError, TypeError, AttributeError):
            pass  # a damaged cache is counted again
    found = best_blind(rules.fee_table, rules.pay_table, progress)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_text(json.dumps(to_json(found)))
    partial.replace(path)
    return found, False


# -- exchanging more than one card -----------------------------------------------------------
def exchange_values(cards: Sequence[str], count: int, rules: OasisRules | None = None,
                    step: int = 32768) -> dict[tuple[str, ...], Fraction]:
    """The return per ante of exchanging each ``count`` of the five ``cards`` (the fee
    table's fee for that many), then raising or folding as pays more for each draw (with
    five exchanged and the rules' ``five_must_raise``, raising): every draw of ``count``
    of the 47 unseen cards and every dealer hand beside the 5 + ``count`` cards seen
    counted. Exchanging five takes about half a minute; four, a few seconds.

    >>> values = exchange_values("Ah Kh 7h 2h 9c".split(), 2)
    >>> max(values, key=values.__getitem__), round(float(max(values.values())), 4)
    (('2h', '9c'), -1.8682)
    """
    rules = rules or load_oasis()
    if not 1 <= count <= 5:
        raise ValueError(f"one to five cards, not {count}")
    pays, fee, multiple = pay_array(rules), int(rules.fees[count - 1]), rules.raise_multiple
    forced = count == 5 and rules.five_must_raise
    hand = np.array([sorted(oasis_count._indices(cards))])
    if hand.shape[1] != 5:
        raise ValueError(f"five cards, not {list(cards)!r}")
    unseen = _unseen(hand)[0]
    draws = unseen[combinations_array(47, count)]  # ascending in each draw
    discards = list(combinations(range(5), count))
    dealt = comb(47 - count, 5)
    totals = np.zeros(len(discards), dtype=np.int64)
    t = tables()
    for start in range(0, len(draws), step):
        part = draws[None, start:start + step]
        finals = np.stack([t.classes[_union_colex(
            hand[:, None, [i for i in range(5) if i not in gone]], part)]
            for gone in discards], axis=2).astype(np.int64)
        returns = raise_totals(hand, part, finals, pays, multiple)[0]
        totals += (returns if forced else np.maximum(returns, -dealt)).sum(axis=0)
    totals -= fee * dealt * len(draws)
    return {tuple(DECK[hand[0, i]] for i in gone): Fraction(int(total), dealt * len(draws))
            for gone, total in zip(discards, totals, strict=True)}
