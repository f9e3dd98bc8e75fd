"""Oasis Stud Poker's exact house edge under a stated strategy, every deal counted.

Standard rules (RAY 2016 1.4.1.2 names the game; its text is not in the rulebook as
extracted): player and dealer get five cards each from one deck. The player may exchange
cards for a fee in antes (by the number exchanged: the fee table), the new cards dealt
after both hands, then folds (losing the ante) or raises twice the ante. The dealer
qualifies with A-K or better; if not, the ante wins 1:1 and the raise pushes. Against a
qualifying dealer a better hand wins the ante 1:1 and the raise by the pay table, a
worse one loses both, a tie pushes.

The strategy is :mod:`pelisali.games.oasis_stud`'s basic strategy (its
``BASIC_STRATEGY``): it never looks at the dealer's up card, so the dealer's hand is five
cards at random from those the player has not seen. Stand and raise with a pair or
better; with no pair exchange the odd card of four to a flush, or else of four in a row
open at both ends; then raise with a pair or better or A-K-J-8-3 or better, else fold.
Here it is written again over arrays (:func:`exchange_positions`, :func:`raise_least`),
and the tests hold the two to the same choices.

>>> hands = np.array([[DECK.index(c) for c in h.split()] for h in
...                   ("Ah Kh 7h 2h 9c", "9h 8d 7c 6s Ac", "Ah Kd Qc Js 3c")])
>>> exchange_positions(hands, high_values(hands).astype(np.int64))  # J-Q-K-A: one end
(array([ 4,  4, -1]), array([1, 2, 0]))

How the count works. Hands are valued by dense class (0 to 7,461, higher is better).
The dealer hands that avoid a set Y of cards (the player's five, and the replacement
card) and are worth less than a class r are counted by inclusion-exclusion over the
subsets S of Y: the sum of (-1)^|S| times the number of five-card hands holding S worth
less than r. Those numbers are tables: cumulative counts by class for S of up to three
cards, each four cards' 48 completions (sorted), a five-card S is a hand itself, and no
hand holds six. Each of the 134,459 suit patterns of the player's hand is counted
standing (the dealer's C(47, 5) hands) and, where the strategy exchanges, with each of
the 47 replacement cards (the dealer's C(46, 5) hands each); as 47 C(46, 5) = 42 C(47, 5)
every deal counts over the one denominator C(52, 5) C(47, 5) 42.

>>> dealer_counts(["Ah", "Ad", "Kc", "7s", "2d"])  # below qualifier, below, level, above
(709949, 702625, 27, 121338)
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pelisali.cards import DECK, RANKS
from pelisali.games import holdem_count, oasis_stud
from pelisali.games.holdem_count import board_classes, combinations_array
from pelisali.games.oasis_stud import BASIC_STRATEGY, RAISE_AT_LEAST
from pelisali.poker.evaluate import high_values
from pelisali.poker.hands import CATEGORIES, CATEGORY_SHIFT, pack
from pelisali.rules.oasis import OasisRules, load_oasis

HANDS = comb(52, 5)
"""The player's five-card hands."""
DEALER_HANDS = comb(47, 5)
"""The dealer's hands beside the player's five cards."""
AFTER_EXCHANGE = comb(46, 5)
"""The dealer's hands beside the player's five cards and one replacement."""
SHARES = 42
"""47 C(46, 5) = 42 C(47, 5): a deal standing counts 42 times, one after an exchange once."""
PAY_NAMES = ("ace_king", *CATEGORIES[1:], "royal_flush")
"""The raise pay table's hands by category, the royal flush last (a hand without a pair
that wins holds ace-king: it beat a qualifying dealer)."""
STRATEGY = BASIC_STRATEGY
"""The strategy :func:`exact` values, in words."""
NEVER_EXCHANGE = ("A-K-J-8-3", "pair", "everything")
"""The strategies that never exchange (Caribbean Stud's): raise with A-K-J-8-3 or
better, with a pair or better, or always."""
EXCHANGE_RULES = ("four-flush", "open-ended")
"""The strategy's two exchanges: four to a flush, and four in a row open at both ends."""
_RANK_SHIFT = 8192  # above every class: a four-card set's completions keyed apart


# -- the tables --------------------------------------------------------------------------
@cache
def _binomials() -> npt.NDArray[np.int64]:
    return np.array([[comb(n, k) for k in range(7)] for n in range(53)], dtype=np.int64)


def colex(cards: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The colex rank of each row of ascending card indices (the order of
    :func:`~pelisali.games.holdem_count.combinations_array` (52, k)).

    >>> colex(np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 5], [47, 48, 49, 50, 51]])).tolist()
    [0, 1, 2598959]
    """
    binomials = _binomials()
    index = np.zeros(cards.shape[:-1], dtype=np.int64)
    for column in range(cards.shape[-1]):
        index += binomials[cards[..., column], column + 1]
    return index


@dataclass(frozen=True)
class Tables:
    """What the count reads: each five-card hand's class by colex rank (``classes``),
    each class's hand value (``values``), and for the sets of up to three cards the
    number of hands holding them below each class (``below[k]``: row by the set's colex
    rank, column r the hands of class under r), for the four-card sets their 48
    completions' classes, sorted and keyed by set (``fours``: rank 8,192 + class)."""

    classes: npt.NDArray[np.int16]
    values: npt.NDArray[np.int64]
    below: tuple[npt.NDArray[np.integer[Any]], ...]
    fours: npt.NDArray[np.int64]

    def class_of(self, value: int) -> int:
        """The class of a five-card hand value."""
        found = int(np.searchsorted(self.values, value))
        if found == len(self.values) or self.values[found] != value:
            raise ValueError(f"{value:#x} is no five-card hand's value")
        return found


@cache
def tables() -> Tables:
    """The count's :class:`Tables`, built from every five-card hand (about 10 s, 0.6 GB;
    kept for the process)."""
    hands = combinations_array(52, 5)
    values = high_values(hands).astype(np.int64)
    distinct = np.unique(values)
    count = len(distinct)
    classes = np.searchsorted(distinct, values).astype(np.int16)
    wide = classes.astype(np.int64)
    none = np.concatenate([[0], np.cumsum(np.bincount(wide, minlength=count))])
    binomials = _binomials()
    parts = {(column, place): binomials[hands[:, column], place + 1]
             for column in range(5) for place in range(min(column + 1, 4))}

    def ranks_of(held: tuple[int, ...]) -> npt.NDArray[np.int64]:
        """The colex ranks of every hand's cards at the places ``held`` (ascending)."""
        found: npt.NDArray[np.int64] = sum((parts[column, place]
                                            for place, column in enumerate(held)),
                                           start=np.zeros(len(hands), dtype=np.int64))
        return found

    built: list[npt.NDArray[np.integer[Any]]] = [none]
    for size, dtype in ((1, np.int32), (2, np.int32), (3, np.int16)):
        rows = comb(52, size)
        keys = np.concatenate([ranks_of(held) * count + wide
                               for held in combinations(range(5), size)])
        table = np.zeros((rows, count + 1), dtype=dtype)
        step = 2048  # sets a pass: the histogram stays small (2,048 x 7,462 counts)
        part = keys // (step * count)
        order = np.argsort(part.astype(np.int16), kind="stable")  # a radix sort
        bounds = np.searchsorted(part[order], np.arange(0, rows // step + 2))
        for chunk in range(len(bounds) - 1):
            start, stop = chunk * step, min(rows, (chunk + 1) * step)
            if start >= rows:
                break
            mine = keys[order[bounds[chunk]:bounds[chunk + 1]]] - start * count
            counts = np.bincount(mine, minlength=(stop - start) * count)
            table[start:stop, 1:] = np.cumsum(counts.reshape(stop - start, count), axis=1)
        built.append(table)
    fours = np.sort(np.concatenate([ranks_of(held) * _RANK_SHIFT + wide
                                    for held in combinations(range(5), 4)]))
    return Tables(classes, distinct, tuple(built), fours)


def dealer_below(excluded: npt.NDArray[np.int64], thresholds: npt.NDArray[np.int64]
                 ) -> npt.NDArray[np.int64]:
    """How many five-card hands share no card with each row of ``excluded`` (M, 5 or 6
    ascending card indices) and are of a class below each of the row's ``thresholds``
    (M, T): inclusion-exclusion over the row's subsets.

    >>> t = tables()
    >>> dealer_below(np.array([[0, 1, 2, 3, 4]]), np.array([[0, len(t.values)]])).tolist()
    [[0, 1533939]]
    """
    t = tables()
    width = excluded.shape[1]
    total: npt.NDArray[np.int64] = t.below[0][thresholds].astype(np.int64)
    for size in range(1, min(width, 5) + 1):
        sign = -1 if size % 2 else 1
        for held in combinations(range(width), size):
            index = colex(excluded[:, list(held)])
            found: npt.NDArray[Any]
            if size <= 3:
                found = t.below[size][index[:, None], thresholds]
            elif size == 4:
                found = np.searchsorted(t.fours, index[:, None] * _RANK_SHIFT + thresholds) \
                    - 48 * index[:, None]
            else:
                found = t.classes[index][:, None] < thresholds
            total += sign * found
    return total


# -- the strategy, over arrays -----------------------------------------------------------
def qualifier() -> int:
    """The dealer's least qualifying class: A-K-4-3-2's.

    >>> tables().values[qualifier()] == oasis_stud.qualifier()
    np.True_
    """
    return tables().class_of(oasis_stud.qualifier())


def raise_least() -> int:
    """The least class the strategy raises with, rule 4's A-K-J-8-3 (no pair: every pair
    is above it).

    >>> hex(int(tables().values[raise_least()]))
    '0xcb961'
    """
    return tables().class_of(pack(0, [RANKS.index(r) for r in RAISE_AT_LEAST]))


def exchange_positions(hands: npt.NDArray[np.int64], values: npt.NDArray[np.int64]
                       ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """For each row of ``hands`` (N, 5 card indices) and its hand value: the position of
    the card the strategy exchanges (-1: none) and the rule (0 none, 1 four to a flush,
    2 four in a row open at both ends)."""
    count = len(hands)
    position = np.full(count, -1, dtype=np.int64)
    rule = np.zeros(count, dtype=np.int64)
    no_pair = (values >> CATEGORY_SHIFT) == 0  # a straight or flush stands as "better"
    suits, ranks = hands & 3, hands >> 2
    for suit in range(4):
        four = no_pair & ((suits == suit).sum(axis=1) == 4)
        position = np.where(four, np.argmax(suits != suit, axis=1), position)
        rule[four] = 1
    mask = (1 << ranks).sum(axis=1)  # distinct ranks: no pair
    for low in range(9):  # 2-3-4-5 up to T-J-Q-K
        window = 0b1111 << low
        run = no_pair & (rule == 0) & ((mask & window) == window)
        outside = (ranks < low) | (ranks > low + 3)
        position = np.where(run, np.argmax(outside, axis=1), position)
        rule[run] = 2
    return position, rule


def _indices(cards: Sequence[str]) -> list[int]:
    try:
        out = [DECK.index(c) for c in cards]
    except ValueError:
        raise ValueError(f"cards of the deck, not {list(cards)!r}") from None
    if len(set(out)) != len(out):
        raise ValueError(f"every card once, not {list(cards)!r}")
    return out


def dealer_counts(cards: Sequence[str], also: Sequence[str] = ()) -> tuple[int, int, int, int]:
    """The dealer's hands beside the player's five ``cards`` and the cards ``also`` seen:
    how many do not qualify, qualify below the player's, tie it, beat it (a qualifying
    dealer: a tie or better of a non-qualifying player's counts as beating it)."""
    seen = sorted(_indices([*cards, *also]))
    if len(cards) != 5 or len(seen) > 6:
        raise ValueError("five cards and at most one more")
    mine = tables().class_of(int(high_values([_indices(cards)])[0]))
    least = qualifier()
    found = dealer_below(np.array([seen]), np.array([[least, max(mine, least),
                                                      max(mine + 1, least)]]))[0]
    total = comb(52 - len(seen), 5)
    return (int(found[0]), int(found[1] - found[0]), int(found[2] - found[1]),
            int(total - found[2]))


# -- what a raise returns ------------------------------------------------------------------
def _pay_index(classes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    t = tables()
    names: npt.NDArray[np.int64] = np.where(classes == len(t.values) - 1, 9,
                                            t.values[classes] >> CATEGORY_SHIFT)
    return names


def raise_returns(excluded: npt.NDArray[np.int64], mine: npt.NDArray[np.int64],
                  pays: npt.NDArray[np.int64], multiple: int = 2) -> npt.NDArray[np.int64]:
    """The raise's return in antes (ante and raise) summed over every dealer hand
    beside ``excluded`` (M, 5 or 6 card indices, ascending), for the player's classes
    ``mine``; ``pays`` the raise's odds by :data:`PAY_NAMES` index, ``multiple`` the
    raise in antes."""
    least = qualifier()
    thresholds = np.stack([np.full_like(mine, least), mine, mine + 1], axis=1)
    below = dealer_below(excluded, thresholds)
    total = comb(52 - excluded.shape[1], 5)
    unqualified, under, upto = below[:, 0], below[:, 1], below[:, 2]
    qualified = mine >= least
    wins = np.where(qualified, under - unqualified, 0)
    losses = np.where(qualified, total - upto, total - unqualified)
    result: npt.NDArray[np.int64] = unqualified \
        + wins * (1 + multiple * pays[_pay_index(mine)]) - (1 + multiple) * losses
    return result


def hand_return(cards: Sequence[str], exchange: str | None = None,
                fees: str | None = None, pays: str | None = None) -> Fraction:
    """The return per ante of the player's five ``cards`` standing or after exchanging
    the card ``exchange`` (fee included), raising by rule 4 or folding after: every
    dealer hand counted, and with an exchange every replacement.

    >>> hand_return(["Ah", "Kh", "7h", "2h", "9c"])  # A-K-9-7-2 folds
    Fraction(-1, 1)
    >>> round(float(hand_return(["Ah", "Kh", "7h", "2h", "9c"], "9c")), 4)  # fee 1 included
    -0.1577
    """
    rules = load_oasis(fees, pays)
    hand = np.array([sorted(_indices(cards))])
    if hand.shape[1] != 5:
        raise ValueError(f"five cards, not {list(cards)!r}")
    if exchange is None:
        mine = tables().classes[colex(hand)].astype(np.int64)
        if mine[0] < raise_least():
            return Fraction(-1)
        raised = raise_returns(hand, mine, pay_array(rules), rules.raise_multiple)
        return Fraction(int(raised[0]), DEALER_HANDS)
    if exchange not in cards:
        raise ValueError(f"{exchange!r} is not one of {list(cards)!r}")
    position = np.array([int(np.flatnonzero(hand[0] == DECK.index(exchange))[0])])
    total, _raises = _exchanges(hand, position, pay_array(rules), rules.raise_multiple,
                                int(rules.fees[0]), raise_least())
    return Fraction(int(total[0]), 47 * AFTER_EXCHANGE)


# -- the exact house edge -------------------------------------------------------------------
@dataclass(frozen=True)
class ExchangeRule:
    """One of the strategy's exchanges, over the hands it applies to (``hands`` of the
    2,598,960): the return per ante exchanging (fee included) and standing instead
    (raise on A-K-J-8-3 or better, else fold), and in how many hands exchanging
    returns more."""

    hands: int
    exchange: Fraction
    stand: Fraction
    better: int


@dataclass(frozen=True)
class Exact:
    """Every deal counted: the player's 2,598,960 hands (134,459 suit patterns), the
    dealer's 1,533,939 standing or each of the 47 replacements with 1,370,754.

    ``ante_edge``: the house edge per ante of :data:`STRATEGY`, fees included;
    ``element_of_risk``: per unit wagered (ante, fees and raise; ``average_wager`` of
    them per ante, ``average_fee``); ``shares``: the chance to stand and raise, stand and
    fold, and exchange; ``raise_after_exchange``: the chance to raise after exchanging;
    ``never_exchange``: the total loss in antes over the 3,986,646,103,440 deals of each
    strategy of :data:`NEVER_EXCHANGE` (Caribbean Stud's with this pay table);
    ``exchanges``: each exchange rule weighed (:class:`ExchangeRule`)."""

    ante_edge: Fraction
    element_of_risk: Fraction
    average_wager: Fraction
    average_fee: Fraction
    shares: dict[str, Fraction]
    raise_after_exchange: Fraction
    never_exchange: dict[str, int]
    exchanges: dict[str, ExchangeRule]
    deals: int
    classes: int

    def never_exchange_edge(self, name: str) -> Fraction:
        """The house edge per ante of a strategy of :data:`NEVER_EXCHANGE`."""
        return Fraction(self.never_exchange[name], self.deals)


def pay_array(rules: OasisRules) -> npt.NDArray[np.int64]:
    """The rules' raise pay table by :data:`PAY_NAMES` index.

    >>> pay_array(load_oasis()).tolist()
    [1, 1, 2, 3, 4, 5, 7, 20, 50, 100]
    """
    return np.array([int(rules.pays[name]) for name in PAY_NAMES], dtype=np.int64)


@cache
def exact(fees: str | None = None, pays: str | None = None,
          progress: Callable[[int], None] | None = None) -> Exact:
    """The exact figures of :data:`STRATEGY` (:class:`Exact`) with the rule data's fee
    table and raise pay table, or those named; ``progress`` is told the suit patterns
    done, a batch at a time. The strategy exchanges one card at most: of the fee table
    only the first fee counts."""
    rules = load_oasis(fees, pays)
    pay, fee, multiple = pay_array(rules), int(rules.fees[0]), rules.raise_multiple
    t = tables()
    boards, weights = board_classes()
    least_raise = raise_least()
    returns = wagered = fees_paid = stand_raise = stand_fold = swapped = raised_after = 0
    never = dict.fromkeys(NEVER_EXCHANGE, 0)
    rules_seen = {name: [0, 0, 0, 0] for name in EXCHANGE_RULES}  # hands, ex, stand, better
    step = 8192
    for start in range(0, len(boards), step):
        hands, w = boards[start:start + step], weights[start:start + step]
        mine = t.classes[colex(hands)].astype(np.int64)
        raised = raise_returns(hands, mine, pay, multiple)  # standing: the dealer's C(47, 5)
        category = t.values[mine] >> CATEGORY_SHIFT
        for name, raise_ in zip(NEVER_EXCHANGE, (mine >= least_raise, category >= 1,
                                                 np.ones(len(mine), dtype=bool)), strict=True):
            never[name] -= int((w * np.where(raise_, raised, -DEALER_HANDS)).sum())
        goes = mine >= least_raise
        stand = np.where(goes, raised, -DEALER_HANDS) * SHARES
        position, rule = exchange_positions(hands, t.values[mine])
        ex = np.flatnonzero(position >= 0)
        traded, raise_count = _exchanges(hands[ex], position[ex], pay, multiple, fee,
                                         least_raise)
        total = stand.copy()
        total[ex] = traded
        wager = np.where(goes, 1 + multiple, 1) * DEALER_HANDS * SHARES
        wager[ex] = (47 * (1 + fee) + multiple * raise_count) * AFTER_EXCHANGE
        # int64 is ample: a pattern's total is at most 24 x 42 C(47, 5) x 201, about 3e11
        returns += int((w * total).sum())
        wagered += int((w * wager).sum())
        stood = np.ones(len(hands), dtype=bool)
        stood[ex] = False
        stand_raise += int(w[stood & goes].sum())
        stand_fold += int(w[stood & ~goes].sum())
        swapped += int(w[ex].sum())
        fees_paid += int(w[ex].sum()) * fee
        raised_after += int((w[ex] * raise_count).sum())
        for number, name in enumerate(EXCHANGE_RULES, start=1):
            mask = rule[ex] == number
            tally = rules_seen[name]
            tally[0] += int(w[ex][mask].sum())
            tally[1] += int((w[ex] * traded)[mask].sum())
            tally[2] += int((w[ex] * stand[ex])[mask].sum())
            tally[3] += int(w[ex][mask & (traded > stand[ex])].sum())
        if progress:
            progress(len(hands))
    deals = HANDS * DEALER_HANDS
    ante_return = Fraction(returns, deals * SHARES)
    average_wager = Fraction(wagered, deals * SHARES)
    shares = {"stand-raise": Fraction(stand_raise, HANDS),
              "stand-fold": Fraction(stand_fold, HANDS), "exchange": Fraction(swapped, HANDS)}
    exchanges = {name: ExchangeRule(h, Fraction(e, h * DEALER_HANDS * SHARES),
                                    Fraction(s, h * DEALER_HANDS * SHARES), b)
                 for name, (h, e, s, b) in rules_seen.items()}
    return Exact(-ante_return, -ante_return / average_wager, average_wager,
                 Fraction(fees_paid, HANDS), shares, Fraction(raised_after, 47 * swapped),
                 never, exchanges, deals, len(boards))


def _exchanges(hands: npt.NDArray[np.int64], position: npt.NDArray[np.int64],
               pays: npt.NDArray[np.int64], multiple: int, fee: int, least_raise: int
               ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per hand exchanging the card at ``position``: the return summed over the 47
    replacements and the dealer's 1,370,754 hands each (fee included), and how many of
    the replacements it raises after."""
    count = len(hands)
    if not count:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    seen = np.zeros((count, 52), dtype=bool)
    np.put_along_axis(seen, hands, True, axis=1)
    new = np.nonzero(~seen)[1].reshape(count, 47, 1)
    kept = np.ones((count, 5), dtype=bool)
    kept[np.arange(count), position] = False
    four = np.broadcast_to(hands[kept].reshape(count, 1, 4), (count, 47, 4))
    final = np.sort(np.concatenate([four, new], axis=2), axis=2).reshape(-1, 5)
    excluded = np.sort(np.concatenate([np.broadcast_to(hands[:, None, :], (count, 47, 5)),
                                       new], axis=2), axis=2).reshape(-1, 6)
    mine = tables().classes[colex(final)].astype(np.int64)
    goes = mine >= least_raise
    raised = raise_returns(excluded, mine, pays, multiple)
    each = np.where(goes, raised, -AFTER_EXCHANGE) - fee * AFTER_EXCHANGE
    return each.reshape(count, 47).sum(axis=1), goes.reshape(count, 47).sum(axis=1)


# -- the exact figures kept between runs ---------------------------------------------------
def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pelisali"


def _cache_key(rules: OasisRules) -> str:
    """What the figures depend on: this module's code, the strategy's and the suit
    patterns', and the rules' tables."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for module in (oasis_stud, holdem_count):
        digest.update(Path(str(module.__file__)).read_bytes())
    digest.update(json.dumps([list(rules.fees), sorted(rules.pays.items()),
                              rules.raise_multiple]).encode())
    return digest.hexdigest()[:24]


def cached_exact(fees: str | None = None, pays: str | None = None,
                 progress: Callable[[int], None] | None = None,
                 directory: Path | None = None) -> tuple[Exact, bool]:
    """:func:`exact`, kept in the user's cache (``$XDG_CACHE_HOME/pelisali``) under a key
    of the code and the tables, so that it is counted once a machine: the figures and
    whether they were read from the cache."""
    rules = load_oasis(fees, pays)
    path = (directory or _cache_dir()) / f"oasis-exact-{_cache_key(rules)}.json"
    if path.exists():
        try:
            data = json.loads(path.read_text())
            return Exact(
                Fraction(data["ante_edge"]), Fraction(data["element_of_risk"]),
                Fraction(data["average_wager"]), Fraction(data["average_fee"]),
                {k: Fraction(v) for k, v in data["shares"].items()},
                Fraction(data["raise_after_exchange"]),
                {str(k): int(v) for k, v in data["never_exchange"].items()},
                {str(k): ExchangeRule(int(v["hands"]), Fraction(v["exchange"]),
                                      Fraction(v["stand"]), int(v["better"]))
                 for k, v in data["exchanges"].items()},
                int(data["deals"]), int(data["classes"])), True
        except (ValueError, KeyError, TypeError, AttributeError):
            pass  # a damaged cache is counted again
    found = exact(rules.fee_table, rules.pay_table, progress)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_text(json.dumps(to_json(found)))
    partial.replace(path)
    return found, False


def to_json(found: Exact) -> dict[str, object]:
    """The figures as JSON (fractions as strings)."""
    return {
        "ante_edge": str(found.ante_edge), "element_of_risk": str(found.element_of_risk),
        "average_wager": str(found.average_wager), "average_fee": str(found.average_fee),
        "shares": {k: str(v) for k, v in found.shares.items()},
        "raise_after_exchange": str(found.raise_after_exchange),
        "never_exchange": found.never_exchange,
        "exchanges": {k: {"hands": v.hands, "exchange": str(v.exchange),
                          "stand": str(v.stand), "better": v.better}
                      for k, v in found.exchanges.items()},
        "deals": found.deals, "classes": found.classes}
