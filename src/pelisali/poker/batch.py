"""Batch values for every ranking over an (N, k) NumPy array of card indices.

High hands come from :func:`pelisali.poker.evaluate.high_values`. Every other ranking is
a gather over tables filled by calling its five-card rule,
:data:`pelisali.poker.rankings.RULES` (the ranking's one definition), so a batch gives
the values the one-hand functions give, by construction rather than by a second copy
kept equal by tests. A rule's ``suited`` number splits the hands:

* five cards with fewer than ``suited`` of one suit are valued by their ranks alone: one
  entry per multiset of five ranks, found through the rank-key sum
  (:data:`pelisali.poker.evaluate.RANK_KEYS`);
* five cards with ``suited`` or more of one suit: one entry per rank mask of that suit
  and rank of the card off it;
* six or seven cards play their best five. With fewer than ``suited`` of any suit none of
  their fives has more, so the best five is looked up per multiset of six or seven ranks
  (a table made from the five-rank one); otherwise each five is valued as above.

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, partial

import numpy as np
import numpy.typing as npt

from pelisali.cards import CardError
from pelisali.poker.evaluate import (
    CARD_BIT,
    CARD_KEY,
    CARD_SUIT,
    best_of_fives,
    high_values,
    map_chunks,
    rank_multisets,
    rank_table,
    tables,
)
from pelisali.poker.rankings import RULES

NO_HAND = np.iinfo(np.int64).min
BATCH_RANKINGS = tuple(RULES)
_NONE = np.iinfo(np.int32).min  # NO_HAND in the int32 tables: below every value, as max needs
NO_HAND_32 = _NONE  # NO_HAND in the int32 values of key_values
_ALL_IN_SUIT = 15  # the off-suit rank's slot in a suited index when all five share the suit


@cache
def multisets(k: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """Every multiset of k ranks (at most four of each) as a sorted row, and each one's row
    by its rank-key sum (-1 elsewhere). The sums are unique but spread over millions;
    through the rows the tables of each ranking stay small."""
    rows, keys = rank_multisets(k)
    index = np.full(int(keys.max()) + 1, -1, dtype=np.int32)
    index[keys] = np.arange(len(rows), dtype=np.int32)
    return rows, index


def _cards(ranks: Sequence[int], in_clubs: int) -> list[int]:
    """Five cards of these sorted ranks. With ``in_clubs`` 0 the suits go by position (two
    of a suit at most); else the lowest ``in_clubs`` different ranks have a club each and
    the other cards go round the other suits."""
    if not in_clubs:
        return [r * 4 + i % 4 for i, r in enumerate(ranks)]
    clubs = sorted(set(ranks))[:in_clubs]
    cards, seen = [], dict.fromkeys(ranks, 0)
    for r in ranks:
        cards.append(r * 4 + (seen[r] if r in clubs else (1 + seen[r]) % 4))
        seen[r] += 1
    return cards


@dataclass(frozen=True)
class _FiveTables:
    by_ranks: npt.NDArray[np.int32]  # by multisets(5) row: fewer than `suited` of a suit
    by_suit: npt.NDArray[np.int32]  # by (suit's rank mask << 4) | off-suit rank: the rest
    qualifier: bool  # some fives do not qualify (NO_HAND)


@cache
def _five_tables(ranking: str) -> _FiveTables:
    """Every five-card value of ``ranking``, by calling its rule once per entry."""
    rule = RULES[ranking]
    if rule.suited is not None and rule.suited < 4:
        # With four or more, only one suit can reach it in seven cards and a five has at
        # most one card off it: the layout of by_suit.
        raise AssertionError(f"{ranking}: suited below four is not tabled")

    qualifier = False

    def value(cards: Sequence[int]) -> int:
        nonlocal qualifier
        found = rule.five(cards)
        qualifier |= found is None
        return _NONE if found is None else found

    # Below `suited` of a suit the ranks decide: each multiset is valued with its suits
    # spread (two of a suit at most) and with as many as may be in one suit; if the two
    # differ, the rule's `suited` is wrong and the tables would be.
    most = 5 if rule.suited is None else rule.suited - 1
    rows = multisets(5)[0].tolist()
    by_ranks = np.empty(len(rows), dtype=np.int32)
    for i, ranks in enumerate(rows):
        by_ranks[i] = spread = value(_cards(ranks, 0))
        if value(_cards(ranks, most)) != spread:
            raise AssertionError(f"{ranking}: suits count below {rule.suited} of a suit "
                                 f"(ranks {ranks})")
    by_suit = np.full(1 << 17, _NONE, dtype=np.int32)
    for mask in range(1 << 13) if rule.suited is not None else ():
        suited = [r * 4 for r in range(13) if mask >> r & 1]  # clubs
        if len(suited) == 5:
            by_suit[mask << 4 | _ALL_IN_SUIT] = value(suited)
        elif len(suited) == 4 and rule.suited == 4:
            for off in range(13):
                by_suit[mask << 4 | off] = value([*suited, off * 4 + 1])
    return _FiveTables(by_ranks, by_suit, qualifier)


@cache
def _rank_values(ranking: str, k: int) -> npt.NDArray[np.int32]:
    """Values of k cards with fewer than the rule's ``suited`` of any suit, by multisets(k)
    row: the best of their fives (the rule of more than five cards), each five's value
    by its ranks."""
    by_five = _five_tables(ranking).by_ranks
    if k == 5:
        return by_five
    index5 = multisets(5)[1]
    return best_of_fives(multisets(k)[0], lambda sums: by_five[index5[sums]])


@cache
def _suit_holding(n: int) -> npt.NDArray[np.int8]:
    """By suit-count key: the suit holding n or more of the cards, else -1 (with n of four
    or more, one suit at most in up to seven cards)."""
    table = np.full(1 << 12, -1, dtype=np.int8)
    for key in range(1 << 12):
        for suit in range(4):
            if (key >> (3 * suit)) & 7 >= n:
                table[key] = suit
    return table


def _group_suited(rankings: tuple[str, ...]) -> int | None:
    """The ``suited`` number the rankings share (they are evaluated from one key pass)."""
    found = {RULES[r].suited for r in rankings}
    if len(found) != 1:
        raise ValueError(f"rankings evaluated together must share suited: {rankings}")
    return found.pop()


def build_tables(rankings: tuple[str, ...], k: int) -> None:
    """Build every table that evaluating k cards under ``rankings`` reads, in this thread
    (worker threads then only read them)."""
    multisets(5), multisets(k)
    for ranking in rankings:
        _rank_values(ranking, k)
    suited = _group_suited(rankings)
    if suited is not None:
        _suit_holding(suited)


def _values_chunk(rankings: tuple[str, ...], hands: npt.NDArray[np.int8]
                  ) -> npt.NDArray[np.int32]:
    """(len(rankings), N) values of an (N, k) chunk of hands."""
    k = hands.shape[1]
    suited = _group_suited(rankings)
    keys = CARD_KEY.take(hands).sum(axis=1)
    rows = multisets(k)[1].take(keys >> 12)
    out = np.stack([_rank_values(r, k).take(rows) for r in rankings])
    if suited is not None:
        suit = _suit_holding(suited).take(keys & 0xFFF)
        at = np.flatnonzero(suit >= 0)
        if at.size:
            out[:, at] = _best_fives(rankings, suited, hands[at], suit[at])
    return out


def _best_fives(rankings: tuple[str, ...], suited: int, hands: npt.NDArray[np.int8],
                suit: npt.NDArray[np.int8]) -> npt.NDArray[np.int32]:
    """Best five of hands holding ``suited`` or more cards of ``suit``, every five valued.

    A five's rank key, rank mask in the suit, off-suit rank and count in the suit are the
    hand's sums less those of the cards left out, so no five is copied out of the hand.
    """
    cards = hands.astype(np.intp)
    inside = CARD_SUIT[cards] == suit[:, None]
    parts = (CARD_KEY[cards] >> 12, np.where(inside, CARD_BIT[cards], 0),
             np.where(inside, 0, cards >> 2), inside.astype(np.int64))
    totals = [part.sum(axis=1) for part in parts]
    index5 = multisets(5)[1]
    tables = [_five_tables(r) for r in rankings]
    best = np.full((len(rankings), len(hands)), _NONE, dtype=np.int32)
    for left_out in itertools.combinations(range(hands.shape[1]), hands.shape[1] - 5):
        key, mask, off, count = (
            total - sum((part[:, c] for c in left_out), np.zeros_like(total))
            for total, part in zip(totals, parts, strict=True))
        rows = index5.take(key)
        in_suit = count >= suited
        at = (mask << 4) | np.where(count == 5, _ALL_IN_SUIT, off)
        for i, table in enumerate(tables):
            value = np.where(in_suit, table.by_suit.take(at), table.by_ranks.take(rows))
            np.maximum(best[i], value, out=best[i])
    return best


def _checked(hands: npt.ArrayLike) -> npt.NDArray[np.int8]:
    array = np.ascontiguousarray(hands)
    if array.ndim != 2 or not 5 <= array.shape[1] <= 7:
        raise CardError("hands must be an (N, 5..7) array of card indices")
    if array.size and (array.min() < 0 or array.max() > 51):  # before narrowing to int8
        raise CardError("card indices run from 0 to 51")
    return np.ascontiguousarray(array, dtype=np.int8)


def ranking_values(hands: npt.ArrayLike, rankings: tuple[str, ...],
                   threads: bool = True) -> npt.NDArray[np.int64]:
    """(len(rankings), N) values of (N, 5..7) hands under rankings other than high that
    share a ``suited`` number (a low and its eight-or-better), from one pass over the
    cards; NO_HAND where no low qualifies."""
    for ranking in rankings:
        if ranking not in RULES or ranking == "high":
            raise CardError(f"batch rankings: {', '.join(BATCH_RANKINGS)}")
    cards = _checked(hands)
    build_tables(rankings, cards.shape[1])
    parts = map_chunks(partial(_values_chunk, rankings), cards, threads)
    raw = (np.concatenate(parts, axis=1) if parts
           else np.zeros((len(rankings), 0), dtype=np.int32))
    values = raw.astype(np.int64)
    if any(_five_tables(r).qualifier for r in rankings):
        values[raw == _NONE] = NO_HAND
    return values


def batch_values(hands: npt.ArrayLike, ranking: str) -> npt.NDArray[np.int64]:
    """Values of many (N, 5..7) hands under ``ranking``, NO_HAND where no low qualifies."""
    if ranking == "high":
        return high_values(_checked(hands)).astype(np.int64)
    values: npt.NDArray[np.int64] = ranking_values(hands, (ranking,))[0]
    return values


def prepare_key_values(ranking: str, k: int) -> None:
    """Build the tables :func:`key_values` reads for k cards, in this thread."""
    if ranking == "high":
        tables(), rank_table(k)
    else:
        build_tables((ranking,), k)


def key_values(keys: npt.NDArray[np.int64], k: int, ranking: str,
               cards_of: Callable[[npt.NDArray[np.intp]], npt.NDArray[np.int8]] | None
               ) -> npt.NDArray[np.int32]:
    """Values of N hands of k cards from each hand's sum of ``CARD_KEY``, NO_HAND_32 where
    no low qualifies.

    The sums decide every hand with fewer than the ranking's ``suited`` of any suit; the
    others (a flush possible) are valued from their cards, ``cards_of(rows)`` giving the
    (len(rows), k) cards of those rows; ``cards_of`` None vouches that no hand holds
    ``suited`` of a suit (Omaha's unsuited pairs). Sums over shared cards are added once per board
    (equity), not once per hand. Tables must be built first (:func:`prepare_key_values`):
    this runs on worker threads, without the pool.
    """
    if ranking == "high":
        values: npt.NDArray[np.int32] = rank_table(k).take(keys >> 12)
        if cards_of is None:
            return values
        at = np.flatnonzero(tables().flush_suit.take(keys & 0xFFF) >= 0)
        if at.size:
            values[at] = high_values(cards_of(at), threads=False)
        return values
    values = _rank_values(ranking, k).take(multisets(k)[1].take(keys >> 12))
    suited = RULES[ranking].suited
    if suited is not None and cards_of is not None:
        at = np.flatnonzero(_suit_holding(suited).take(keys & 0xFFF) >= 0)
        if at.size:
            values[at] = _values_chunk((ranking,), cards_of(at))[0]
    return values


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
