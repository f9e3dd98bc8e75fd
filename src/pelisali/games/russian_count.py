"""Russian Poker's exact house edge under its stated basic strategy, every deal counted.

Standard rules (RAY 2016 1.4.1.2.5 and 4.4.1.2.2 name the game; its text is not in the
rulebook as extracted; :mod:`pelisali.games.russian_poker` holds the rules in words):
ante 1; player and dealer get five cards each from one deck. The player may buy a sixth
card for one ante (the next card of the deck), then folds, losing the ante, or bets 2
times the ante; six cards play their best five. The dealer qualifies with A-K-4-3-2 or
better; if not, the ante wins 1:1 and the bet pushes (the player never buys the dealer a
game here). Against a qualifying dealer a higher dealer hand takes ante and bet, equal
hands push, a higher player hand is paid on the bet by the pay table for its two best
combinations (:func:`pay_odds`), its ante pushing (paid 1:1 where ``ante_on_win``).

The strategy is :data:`~pelisali.games.russian_poker.BASIC_STRATEGY`: it never reads the
dealer's up card, so the dealer's hand is five cards at random from those the player has
not seen. Bet with a pair or better; with no pair, four to a flush or four in a row open
at both ends buys the sixth card (the test of
:func:`~pelisali.games.oasis_count.exchange_positions`, Oasis Stud's same rule), then bets
with a pair or better or A-K-J-8-3 or better in the best five, else folds; any other hand
bets with A-K-J-8-3 or better, else folds. The count values beside it the best strategy
on the player's cards (:data:`BEST_BLIND`) and
:data:`~pelisali.games.russian_poker.REFINED_STRATEGY`, which buys the sixth card on
more hands (a pair with four to a flush or a straight; three of a kind, a straight, a
flush; the straight draws of :data:`GROUPS` but the lone ones without A-K) and closes
99 % of the gap between the two, and reports each group of hands apart
(:func:`group_report`).

How the count works: as :mod:`pelisali.games.oasis_count`'s. Each of the 134,459 suit
patterns of the player's hand is counted standing (the dealer's C(47, 5) hands) and with
each of the 47 sixth cards (the dealer's C(46, 5) hands each), the dealer's hands below
the qualifier and up to the player's class counted by inclusion-exclusion over the cards
seen (:func:`pelisali.games.oasis_best.dealer_below`), those of the player's very class
from its ranks (:func:`pelisali.games.oasis_best.class_hands`). As 47 C(46, 5) =
42 C(47, 5), every deal counts over the one denominator C(52, 5) C(47, 5) 42. The sixth
card is Oasis Stud's one-card exchange but for the kept card: the player's class is the
best five of six and the bet is paid for the six cards' combinations.

>>> hand_return("Ah Kh 7h 2h 9c".split())  # A-K-9-7-2 stands and folds
Fraction(-1, 1)
>>> round(float(hand_return("Ah Kh 7h 2h 9c".split(), sixth=True)), 4)  # price included
-0.0811
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pelisali.cards import DECK  # noqa: F401  (the doctests name cards by it)
from pelisali.games import holdem_count, oasis_best, oasis_count, russian_poker
from pelisali.games.holdem_count import board_classes, card_indices
from pelisali.games.oasis_best import class_hands
from pelisali.games.oasis_count import colex, exchange_positions, qualifier, raise_least, tables
from pelisali.poker.evaluate import high_values
from pelisali.poker.hands import CATEGORY_SHIFT
from pelisali.rules.russian import PAY_HANDS, RussianRules, load_russian

HANDS = comb(52, 5)
"""The player's five-card hands."""
DEALER_HANDS = comb(47, 5)
"""The dealer's hands beside the player's five cards."""
AFTER_SIXTH = comb(46, 5)
"""The dealer's hands beside the player's six cards."""
SHARES = 42
"""47 C(46, 5) = 42 C(47, 5): a deal standing counts 42 times, one after a sixth card once."""
UNIT = 47 * AFTER_SIXTH
"""A hand's returns are counted over 47 C(46, 5) = 42 C(47, 5) deals."""
STRATEGY = russian_poker.BASIC_STRATEGY
"""The strategy :func:`exact` values, in words."""
BEST_BLIND = (
    "Of the strategies that read only the player's own cards, never exchange and never buy "
    "the dealer a game, the best: for each hand fold, bet standing, or buy the sixth card "
    "and then bet or fold as returns more, whichever returns the most.")
"""The second strategy :func:`exact` values, in words."""
NEVER_DRAW = "Never draw; bet with A-K-J-8-3 or better, else fold."
"""The third, Caribbean Stud's strategy with Russian Poker's pays."""
REFINED = russian_poker.REFINED_STRATEGY
"""The fourth, the refined basic strategy (:func:`refined_draws`), in words."""
CHOICES = ("stand-bet", "stand-fold", "sixth")
"""A hand's choices: stand and bet, stand and fold, buy the sixth card."""
STRATEGIES = ("basic", "refined", "best")
"""The strategies :func:`exact` values group by group (:data:`GROUPS`): :data:`STRATEGY`,
:data:`REFINED` and :data:`BEST_BLIND`."""
GROUPS = (
    "no pair: four to a flush",
    "no pair: four in a row open at both ends",
    "no pair: a double inside straight draw",
    "no pair: an inside draw to six in a row",
    "no pair: a lone straight draw, with A-K",
    "no pair: a lone straight draw, without A-K",
    "no pair, no draw: A-K-J-8-3 or better",
    "no pair, no draw: below A-K-J-8-3",
    "a pair: four to a flush",
    "a pair: four to a straight",
    "a pair: no draw",
    "two pair", "three of a kind", "a straight", "a flush", "a full house", "four of a kind",
    "a straight flush")
"""The groups of the player's five cards (:func:`hand_groups`), each in the first that
fits. A straight draw is four of five consecutive ranks (the ace high or low): a double
inside draw is filled by either of two ranks but is not four in a row (5-7-8-9-J), an
inside draw to six in a row is filled by one rank that makes six in a row (4-5-6-8-9:
two straights), a lone draw by one rank to five in a row (5-6-8-9-K, A-2-3-4-9)."""
_REFINED_BUYS = np.array([name not in (
    "no pair: a lone straight draw, without A-K", "no pair, no draw: A-K-J-8-3 or better",
    "no pair, no draw: below A-K-J-8-3", "a pair: no draw", "two pair", "a full house",
    "four of a kind") for name in GROUPS])
"""Whether :data:`REFINED` buys the sixth card, by group."""


# -- the pay odds, over arrays -------------------------------------------------------------
_NONE = len(PAY_HANDS)  # no combination: pays 0
_NAME = {name: number for number, name in enumerate(PAY_HANDS)}
_POWERS = 5 ** np.arange(13, dtype=np.int64)  # a rank's count, a digit in base 5


def signatures(hands: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """A key of each row of ``hands`` (N, 5 or 6 card indices) on which its pay odds
    depend alone: how many cards of each rank, and the ranks of the suit of five or more
    (a flush), if any. Two hands with one key are the same cards up to the suits of the
    cards out of the flush suit: they hold the same combinations.

    >>> rows = np.array([[DECK.index(c) for c in h.split()]
    ...                  for h in ("Ah Kh Qh Jh Th", "As Ks Qs Js Ts", "Ah Kh Qh Jh Tc")])
    >>> keys = signatures(rows)
    >>> bool(keys[0] == keys[1]), bool(keys[0] == keys[2])
    (True, False)
    """
    ranks, suits = hands >> 2, hands & 3
    code = _POWERS[ranks].sum(axis=1)
    flush = np.zeros(len(hands), dtype=np.int64)
    for suit in range(4):
        mine = suits == suit
        flush = np.where(mine.sum(axis=1) >= 5, (mine << ranks).sum(axis=1), flush)
    found: npt.NDArray[np.int64] = code * 8192 + flush
    return found


@cache
def _representatives() -> npt.NDArray[np.int64]:
    """One hand of each :func:`signatures` key of five and of six cards (44,304 of them):
    every multiset of ranks without a flush (suits dealt in turn: two of a suit at most),
    then the flushes, five or six suited beside any sixth card."""
    rows: list[list[int]] = []
    for size in (5, 6):
        for ranks in combinations_with_replacement(range(13), size):
            if max(ranks.count(r) for r in set(ranks)) <= 4:
                rows.append([r * 4 + place % 4 for place, r in enumerate(ranks)])
    for five in combinations(range(13), 5):
        rows.append([r * 4 for r in five])
        rows.extend([*(r * 4 for r in five), other * 4 + 1] for other in range(13))
    rows.extend([r * 4 for r in six] for six in combinations(range(13), 6))
    return np.array([row + [-1] * (6 - len(row)) for row in rows], dtype=np.int64)


def _held(cards: npt.NDArray[np.int64]) -> tuple[list[int], npt.NDArray[np.int64]]:
    """Every subset of two to five of the columns of ``cards`` (N, k) as a bit mask of the
    columns, and for each row the combination each subset is (a :data:`PAY_HANDS` index,
    :data:`_NONE` if none): pairs, ace-king, three and four of a kind, two pair, and five
    cards that are a straight, flush, full house, straight or royal flush."""
    count, k = cards.shape
    ranks = cards >> 2
    masks: list[int] = []
    names: list[npt.NDArray[np.int64]] = []
    for size in range(2, 6):
        for held in combinations(range(k), size):
            masks.append(sum(1 << column for column in held))
            r = np.sort(ranks[:, list(held)], axis=1)
            name = np.full(count, _NONE, dtype=np.int64)
            same = (r == r[:, :1]).all(axis=1)
            if size == 2:
                name[same] = _NAME["pair"]
                name[(r[:, 0] == 11) & (r[:, 1] == 12)] = _NAME["ace_king"]
            elif size == 3:
                name[same] = _NAME["three_of_a_kind"]
            elif size == 4:
                name[same] = _NAME["four_of_a_kind"]
                name[(r[:, 0] == r[:, 1]) & (r[:, 2] == r[:, 3]) & (r[:, 1] != r[:, 2])] \
                    = _NAME["two_pair"]
            else:
                values = high_values(cards[:, list(held)]).astype(np.int64)
                category = values >> CATEGORY_SHIFT
                for number, words in ((4, "straight"), (5, "flush"), (6, "full_house"),
                                      (8, "straight_flush")):
                    name[category == number] = _NAME[words]
                name[(category == 8) & ((values >> 16) & 15 == 12)] = _NAME["royal_flush"]
            names.append(name)
    return masks, np.stack(names, axis=1)


def _dense_pay(cards: npt.NDArray[np.int64], pays: npt.NDArray[np.int64], most: int
               ) -> npt.NDArray[np.int64]:
    """The pay odds of each row of ``cards`` (N, k), every combination it holds weighed:
    the best one, or where ``most`` is 2 the best two of which neither holds the other
    and which are not two pairs nor two ace-kings. (A combination that holds another is
    always of a better kind in the pay table's order, so this is
    :func:`~pelisali.games.russian_poker.paid_combinations`' rule: the second holds a card
    the first does not.)"""
    masks, names = _held(cards)
    pay = pays[names]
    best: npt.NDArray[np.int64] = pay.max(axis=1)
    if most < 2:
        return best
    apart = [(i, j) for i, j in combinations(range(len(masks)), 2)
             if masks[i] & masks[j] not in (masks[i], masks[j])]
    first = np.array([i for i, _ in apart])
    second = np.array([j for _, j in apart])
    # two cards each (a pair or ace-king): two of one kind are no double combination
    small = np.array([masks[i].bit_count() == 2 == masks[j].bit_count() for i, j in apart])
    for start in range(0, len(cards), 1024):
        part, kinds = pay[start:start + 1024], names[start:start + 1024]
        both = np.where(small & (kinds[:, first] == kinds[:, second]), 0,
                        part[:, first] + part[:, second]).max(axis=1)
        best[start:start + 1024] = np.maximum(best[start:start + 1024], both)
    return best


def pay_vector(rules: RussianRules) -> npt.NDArray[np.int64]:
    """The rules' pay table by :data:`~pelisali.rules.russian.PAY_HANDS` index, and 0 for
    no combination.

    >>> pay_vector(load_russian()).tolist()
    [100, 50, 20, 7, 5, 4, 3, 2, 1, 1, 0]
    """
    return np.array([int(rules.pays[name]) for name in PAY_HANDS] + [0], dtype=np.int64)


@cache
def _pay_lookup(pays: tuple[int, ...], most: int
                ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every :func:`signatures` key, sorted, and its hands' pay odds."""
    reps = _representatives()
    vector = np.array(pays, dtype=np.int64)
    odds = np.empty(len(reps), dtype=np.int64)
    five = reps[:, 5] < 0
    odds[five] = _dense_pay(reps[five][:, :5], vector, most)
    odds[~five] = _dense_pay(reps[~five], vector, most)
    keys = np.concatenate([signatures(reps[five][:, :5]), signatures(reps[~five])])
    found = np.concatenate([odds[five], odds[~five]])
    order = np.argsort(keys)
    return keys[order], found[order]


def pay_odds(hands: npt.ArrayLike, rules: RussianRules | None = None
             ) -> npt.NDArray[np.int64]:
    """The odds a winning bet on each row of ``hands`` (N, 5 or 6 card indices, different
    within a row: the caller's duty, as for the evaluator) is paid:
    :func:`~pelisali.games.russian_poker.pay_odds` over arrays, with the rules' pay table
    and number of combinations paid (each key of :func:`signatures` weighed once a table).

    >>> rows = [[DECK.index(c) for c in h.split()]
    ...         for h in ("Ah Kh Qh Jh Th 9h", "Kh Qs Jd Tc 9h 9s", "Kh Kd Ac 8s 5d 2c")]
    >>> pay_odds(rows).tolist()
    [150, 8, 2]
    """
    rules = rules or load_russian()
    array = np.asarray(hands, dtype=np.int64)
    if array.ndim != 2 or array.shape[1] not in (5, 6):
        raise ValueError("hands must be an (N, 5 or 6) array of card indices")
    if array.size and (array.min() < 0 or array.max() > 51):
        raise ValueError("card indices run from 0 to 51")
    keys, odds = _pay_lookup(tuple(pay_vector(rules).tolist()), rules.most_combinations)
    wanted = signatures(array)
    place = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    if not (keys[place] == wanted).all():
        raise ValueError("hands of five or six different cards")
    found: npt.NDArray[np.int64] = odds[place]
    return found


# -- the groups of hands, and the refined strategy over arrays -------------------------------
def straight_fills(hands: npt.NDArray[np.int64]
                   ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """For each row of ``hands`` (N, 5 card indices): how many ranks it does not hold
    would each make a straight with it, and whether one makes six in a row (the ace high
    or low): :func:`~pelisali.games.russian_poker.straight_fills` over arrays.

    >>> rows = np.array([[DECK.index(c) for c in h.split()] for h in (
    ...     "5c 6d 8h 9s Kd", "4c 5d 6h 8s 9d", "5c 7d 8h 9s Jd", "Ac 2d 3h 4s 6d")])
    >>> [found.tolist() for found in straight_fills(rows)]
    [[1, 1, 2, 1], [False, True, False, True]]
    """
    held = np.bitwise_or.reduce(1 << (hands >> 2), axis=1)
    fills = np.zeros(len(hands), dtype=np.int64)
    six = np.zeros(len(hands), dtype=bool)
    for rank in range(13):
        fresh = ((held >> rank) & 1) == 0
        new = held | (1 << rank)
        places = (new << 1) | ((new >> 12) & 1)  # the ace low too, at place 0
        fills += fresh & np.any([((places >> low) & 31) == 31 for low in range(10)], axis=0)
        six |= fresh & np.any([((places >> low) & 63) == 63 for low in range(9)], axis=0)
    return fills, six


def hand_groups(hands: npt.NDArray[np.int64], classes: npt.NDArray[np.int64]
                ) -> npt.NDArray[np.int64]:
    """Each row's :data:`GROUPS` index, for ``hands`` (N, 5 card indices) of ``classes``
    (:func:`~pelisali.games.oasis_count.tables`' classes).

    >>> rows = np.array([sorted(DECK.index(c) for c in h.split()) for h in (
    ...     "Ac Kd Qh Ts 2c", "5c 5d 8h 9s 6h", "4c 5d 6h 8s 9d", "7c 7d 7h 2s 9c")])
    >>> for group in hand_groups(rows, tables().classes[colex(rows)].astype(np.int64)):
    ...     print(GROUPS[group])
    no pair: a lone straight draw, with A-K
    a pair: four to a straight
    no pair: an inside draw to six in a row
    three of a kind
    """
    values = tables().values[classes].astype(np.int64)
    category = values >> CATEGORY_SHIFT
    rule = exchange_positions(hands, values)[1]  # the basic strategy's draws, no pair
    suits, ranks = hands & 3, hands >> 2
    flush = np.max([(suits == suit).sum(axis=1) for suit in range(4)], axis=0) == 4
    fills, six = straight_fills(hands)
    ace_king = (ranks == 12).any(axis=1) & (ranks == 11).any(axis=1)
    none, pair = category == 0, category == 1
    found: npt.NDArray[np.int64] = np.select(
        [none & (rule == 1), none & (rule == 2), none & (fills >= 2), none & six,
         none & (fills == 1) & ace_king, none & (fills == 1), none & (classes >= raise_least()),
         none, pair & flush, pair & (fills > 0), pair],
        np.arange(11), default=category + 9)  # two pair (2) is group 11
    return found


def refined_draws(hands: npt.NDArray[np.int64], classes: npt.NDArray[np.int64]
                  ) -> npt.NDArray[np.bool_]:
    """Whether :data:`REFINED` buys the sixth card with each row of ``hands`` (N, 5 card
    indices) of ``classes``: its rules 1-4 by group.

    >>> rows = np.array([sorted(DECK.index(c) for c in h.split()) for h in (
    ...     "Ac Kd Qh Ts 2c", "Ac Qd Jh Ts 2c", "Kc Kd 9h Ts Jh", "Kc Kd 2h 2s Jh")])
    >>> refined_draws(rows, tables().classes[colex(rows)].astype(np.int64)).tolist()
    [True, False, True, False]
    """
    found: npt.NDArray[np.bool_] = _REFINED_BUYS[hand_groups(hands, classes)]
    return found


# -- what a bet returns, summed over the dealer's hands -----------------------------------------
def six_classes(six: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The class of the best five of each row of ``six`` (N, 6 ascending card indices).

    >>> t = tables()
    >>> six = np.array([sorted(DECK.index(c) for c in "Ac Kd 4h 3s 2c 9d".split())])
    >>> int(t.values[six_classes(six)[0]]) == russian_poker.value("Ac Kd 4h 3s 2c 9d".split())
    True
    """
    classes = tables().classes
    found: npt.NDArray[np.int64] = np.max(
        [classes[colex(six[:, list(held)])] for held in combinations(range(6), 5)],
        axis=0).astype(np.int64)
    return found


def bet_totals(hands: npt.NDArray[np.int64], new: npt.NDArray[np.int64],
               finals: npt.NDArray[np.int64], pays: npt.NDArray[np.int64],
               rules: RussianRules) -> npt.NDArray[np.int64]:
    """The bet's return in antes (ante and bet, the sixth card's price apart) summed over
    the dealer's hands beside each hand of ``hands`` (B, 5 ascending card indices) and its
    draws ``new`` (B, D, k: no card, k = 0, or a sixth card), for the player's classes
    ``finals`` (B, D) and pay odds ``pays`` (B, D): 1 against a dealer who does not
    qualify, -1 - bet against a higher one, 0 on a tie, else the ante (1, or 0 where it
    pushes) and the bet times the pay odds."""
    count, draws, k = new.shape
    least = qualifier()
    flat, odds = finals.reshape(-1), pays.reshape(-1)
    rows = np.arange(count * draws)
    wanted = np.flatnonzero(flat >= least)
    found = oasis_best.dealer_below(hands, new, np.concatenate([rows, wanted]),
                                    np.concatenate([np.full(len(rows), least),
                                                    flat[wanted] + 1]))
    unqualified = found[:len(rows)]
    upto = unqualified.copy()
    upto[wanted] = found[len(rows):]
    seen = np.concatenate([np.repeat(hands, draws, axis=0), new.reshape(count * draws, k)],
                          axis=1)
    ties = np.zeros(len(flat), dtype=np.int64)
    ties[wanted] = class_hands(flat[wanted], seen[wanted])
    total = comb(47 - k, 5)
    qualified = flat >= least
    wins = np.where(qualified, upto - ties - unqualified, 0)
    losses = np.where(qualified, total - upto, total - unqualified)
    multiple = rules.bet_multiple
    result: npt.NDArray[np.int64] = (unqualified
                                     + wins * (int(rules.ante_on_win) + multiple * odds)
                                     - (1 + multiple) * losses).reshape(count, draws)
    return result


@dataclass(frozen=True)
class HandValues:
    """For each hand (row) of ``hands`` (B, 5 ascending card indices), every deal
    counted: ``stand`` the bet's return standing over the dealer's C(47, 5) hands;
    ``sixth`` (B, 47) the bet's return with each unseen card (ascending) over the
    dealer's C(46, 5) hands, the price apart; the classes of the five and each six."""

    hands: npt.NDArray[np.int64]
    stand: npt.NDArray[np.int64]
    sixth: npt.NDArray[np.int64]
    classes: npt.NDArray[np.int64]
    six_classes: npt.NDArray[np.int64]


def _unseen(hands: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    seen = np.zeros((len(hands), 52), dtype=bool)
    np.put_along_axis(seen, hands, True, axis=1)
    found: npt.NDArray[np.int64] = np.nonzero(~seen)[1].reshape(len(hands), -1)
    return found


def hand_values(hands: npt.NDArray[np.int64], rules: RussianRules) -> HandValues:
    """:class:`HandValues` of ``hands`` (B, 5 ascending card indices)."""
    count = len(hands)
    mine = tables().classes[colex(hands)].astype(np.int64)
    stand = bet_totals(hands, np.zeros((count, 1, 0), dtype=np.int64), mine[:, None],
                       pay_odds(hands, rules)[:, None], rules)[:, 0]
    new = _unseen(hands)
    six = np.sort(np.concatenate([np.broadcast_to(hands[:, None, :], (count, 47, 5)),
                                  new[:, :, None]], axis=2), axis=2).reshape(-1, 6)
    finals = six_classes(six).reshape(count, 47)
    sixth = bet_totals(hands, new[:, :, None], finals, pay_odds(six, rules)
                       .reshape(count, 47), rules)
    return HandValues(hands, stand, sixth, mine, finals)


def _rules(pays: str | None, rules: RussianRules | None = None) -> RussianRules:
    rules = rules or load_russian(pays)
    if not rules.sixth_card:
        raise ValueError("the count is for rules that sell a sixth card")
    return rules


def hand_return(cards: Sequence[str], sixth: bool = False, pays: str | None = None
                ) -> Fraction:
    """The return per ante of the player's five ``cards`` under the basic strategy's
    rule 4, standing or after buying the sixth card (its price included): bet with a
    pair or better or A-K-J-8-3 or better in the best five, else fold; every dealer hand
    counted, and with the sixth card every sixth card."""
    rules = _rules(pays)
    hand = np.array([sorted(card_indices(cards))])
    if hand.shape[1] != 5:
        raise ValueError(f"five cards, not {list(cards)!r}")
    values = hand_values(hand, rules)
    least = raise_least()
    if not sixth:
        if values.classes[0] < least:
            return Fraction(-1)
        return Fraction(int(values.stand[0]), DEALER_HANDS)
    each = np.where(values.six_classes[0] >= least, values.sixth[0], -AFTER_SIXTH)
    return Fraction(int(each.sum()), UNIT) - rules.draw_price


# -- the exact house edges -----------------------------------------------------------------------
@dataclass(frozen=True)
class Group:
    """One of :data:`GROUPS`, every deal counted, its returns in antes over :data:`UNIT`
    deals a hand: ``hands`` of the 2,598,960; ``choices`` the total return of them all
    taking each choice: ``stand-bet``, ``stand-fold``, ``sixth`` (then bet by the basic
    strategy's rule 4, as :data:`REFINED` does) and ``sixth-best`` (then bet or fold as
    returns more), the sixth card's price included; ``taken`` the hands each of
    :data:`STRATEGIES` takes each of :data:`CHOICES` on; ``returns`` each strategy's
    total."""

    hands: int
    choices: dict[str, int]
    taken: dict[str, dict[str, int]]
    returns: dict[str, int]

    def per_hand(self, total: int) -> Fraction:
        """A total of this group's, per ante and hand of the group."""
        return Fraction(total, self.hands * UNIT)

    def gain(self, strategy: str) -> Fraction:
        """What ``strategy`` returns more than the basic one here, per ante and hand of
        all C(52, 5): its share of the gap between the house edges."""
        return Fraction(self.returns[strategy] - self.returns["basic"], HANDS * UNIT)


CHOICE_RETURNS = ("stand-bet", "stand-fold", "sixth", "sixth-best")
""":attr:`Group.choices`' keys."""


@dataclass(frozen=True)
class Exact:
    """Every deal counted: the player's 2,598,960 hands (134,459 suit patterns), the
    dealer's 1,533,939 standing, or each of the 47 sixth cards with 1,370,754.

    ``ante_edge``: the house edge per ante of :data:`STRATEGY`, the sixth card's price
    included; ``element_of_risk``: per unit wagered (ante, price and bet;
    ``average_wager`` of them per ante, ``average_price``); ``shares``: the chance of each
    of :data:`CHOICES`; ``bet_after_sixth``: the chance to bet after a sixth card.
    ``best_*``: the same of :data:`BEST_BLIND`, the best strategy among those that never
    read the dealer's up card, never exchange and never buy the dealer a game;
    ``refined_*`` of :data:`REFINED`. ``never_draw_loss``: the total loss in antes over
    the deals of :data:`NEVER_DRAW`. ``groups``: each of :data:`GROUPS` (:class:`Group`).
    A negative house edge is the player's advantage."""

    ante_edge: Fraction
    element_of_risk: Fraction
    average_wager: Fraction
    average_price: Fraction
    shares: dict[str, Fraction]
    bet_after_sixth: Fraction
    best_edge: Fraction
    best_element_of_risk: Fraction
    best_average_wager: Fraction
    best_shares: dict[str, Fraction]
    best_bet_after_sixth: Fraction
    refined_edge: Fraction
    refined_element_of_risk: Fraction
    refined_average_wager: Fraction
    refined_shares: dict[str, Fraction]
    refined_bet_after_sixth: Fraction
    never_draw_loss: int
    deals: int
    classes: int
    groups: dict[str, Group]

    @property
    def never_draw_edge(self) -> Fraction:
        """The house edge per ante of :data:`NEVER_DRAW`."""
        return Fraction(self.never_draw_loss, self.deals)


class _Tally:
    """A strategy's sums over the hands, in :data:`UNIT` deals a hand."""

    def __init__(self) -> None:
        self.returns = self.wagered = self.bets_after = 0
        self.hands = dict.fromkeys(CHOICES, 0)
        self.group_taken = np.zeros((len(GROUPS), len(CHOICES)), dtype=np.int64)
        self.group_returns = np.zeros(len(GROUPS), dtype=np.int64)

    def add(self, weights: npt.NDArray[np.int64], choice: npt.NDArray[np.int64],
            value: npt.NDArray[np.int64], bets_after: npt.NDArray[np.int64],
            rules: RussianRules, groups: npt.NDArray[np.int64]) -> None:
        """Hands of ``weights`` and ``groups`` taking ``choice`` (a :data:`CHOICES`
        index) for ``value``, betting after ``bets_after`` of their 47 sixth cards where
        they buy one."""
        multiple = rules.bet_multiple
        sixth = choice == 2
        wager = np.where(sixth, (1 + rules.draw_price) * UNIT + multiple * bets_after
                         * AFTER_SIXTH, np.where(choice == 0, 1 + multiple, 1) * UNIT)
        self.returns += int((weights * value).sum())
        self.wagered += int((weights * wager).sum())
        for number, name in enumerate(CHOICES):
            self.hands[name] += int(weights[choice == number].sum())
        self.bets_after += int((weights * np.where(sixth, bets_after, 0)).sum())
        np.add.at(self.group_taken, (groups, choice), weights)
        np.add.at(self.group_returns, groups, weights * value)

    def edge(self) -> Fraction:
        return -Fraction(self.returns, HANDS * UNIT)

    def wager(self) -> Fraction:
        return Fraction(self.wagered, HANDS * UNIT)

    def shares(self) -> dict[str, Fraction]:
        return {k: Fraction(v, HANDS) for k, v in self.hands.items()}

    def after(self) -> Fraction:
        sixth = self.hands["sixth"]
        return Fraction(self.bets_after, 47 * sixth) if sixth else Fraction(0)


def _groups(choices: npt.NDArray[np.int64], tallies: dict[str, _Tally]) -> dict[str, Group]:
    """:class:`Group` of each of :data:`GROUPS`, from the totals of each choice (rows of
    :data:`CHOICE_RETURNS`' order) and each strategy's tally."""
    return {name: Group(int(tallies["basic"].group_taken[number].sum()),
                        dict(zip(CHOICE_RETURNS, map(int, choices[number]), strict=True)),
                        {strategy: dict(zip(CHOICES, map(int, tally.group_taken[number]),
                                            strict=True))
                         for strategy, tally in tallies.items()},
                        {strategy: int(tally.group_returns[number])
                         for strategy, tally in tallies.items()})
            for number, name in enumerate(GROUPS)}


_FOUND: dict[str, Exact] = {}
"""The figures counted in this process, by the rules' cache key."""


def exact(pays: str | None = None, progress: Callable[[int], None] | None = None,
          rules: RussianRules | None = None) -> Exact:
    """The exact figures of :data:`STRATEGY`, :data:`BEST_BLIND`, :data:`REFINED` and
    :data:`NEVER_DRAW` (:class:`Exact`), each of :data:`GROUPS` apart, with the rule
    data's pay table or the one named; ``progress`` is told the suit patterns done, a
    batch at a time.

    The best strategy takes for each hand the best of folding (-1), betting standing, and
    buying the sixth card and then for each sixth card the better of betting and folding:
    every choice valued exactly over every deal the player cannot tell apart, so no
    strategy that reads only the player's cards, never exchanges and never buys the
    dealer a game returns more (a tie takes the cheaper choice: fold, then bet, then the
    sixth card; after it, fold). ``rules`` counts a hall's rules read from its own file
    (the ante paid beside a winning bet, say) in place of the rule data's. Counted once a
    process and rules."""
    rules = _rules(pays, rules)
    key = _cache_key(rules)
    if key not in _FOUND:
        _FOUND[key] = _count(rules, progress)
    return _FOUND[key]


def _count(rules: RussianRules, progress: Callable[[int], None] | None) -> Exact:
    """:func:`exact`'s count: each suit pattern's choices valued once, and each strategy's
    choice taken from them."""
    boards, weights = board_classes()
    least_bet = raise_least()
    price = rules.draw_price
    basic, refined, best = _Tally(), _Tally(), _Tally()
    choices = np.zeros((len(GROUPS), len(CHOICE_RETURNS)), dtype=np.int64)
    never = 0
    step = 512
    for start in range(0, len(boards), step):
        hands, w = boards[start:start + step], weights[start:start + step]
        values = hand_values(hands, rules)
        goes = values.classes >= least_bet
        stand = np.where(goes, values.stand, -DEALER_HANDS) * SHARES
        never -= int((w * np.where(goes, values.stand, -DEALER_HANDS)).sum())
        bets_six = values.six_classes >= least_bet
        costs = price * UNIT
        sixth = np.where(bets_six, values.sixth, -AFTER_SIXTH).sum(axis=1) - costs
        draws = exchange_positions(hands, tables().values[values.classes])[0] >= 0
        standing = np.where(goes, 0, 1)  # bet, else fold
        choice = np.where(draws, 2, standing)
        groups = hand_groups(hands, values.classes)
        basic.add(w, choice, np.where(draws, sixth, stand), bets_six.sum(axis=1), rules,
                  groups)
        buys = _REFINED_BUYS[groups]
        refined.add(w, np.where(buys, 2, standing), np.where(buys, sixth, stand),
                    bets_six.sum(axis=1), rules, groups)
        better_six = values.sixth > -AFTER_SIXTH
        best_sixth = np.where(better_six, values.sixth, -AFTER_SIXTH).sum(axis=1) - costs
        # fold, bet, sixth card: the first of equals taken, the cheapest
        options = np.stack([np.full(len(hands), -UNIT), values.stand * SHARES, best_sixth],
                           axis=1)
        taken = np.argmax(options, axis=1)
        best.add(w, np.array([1, 0, 2])[taken], options[np.arange(len(hands)), taken],
                 better_six.sum(axis=1), rules, groups)
        np.add.at(choices, groups, w[:, None] * np.stack(
            [values.stand * SHARES, np.full(len(hands), -UNIT), sixth, best_sixth], axis=1))
        if progress:
            progress(len(hands))
    return Exact(basic.edge(), basic.edge() / basic.wager(), basic.wager(),
                 basic.shares()["sixth"] * price, basic.shares(), basic.after(),
                 best.edge(), best.edge() / best.wager(), best.wager(), best.shares(),
                 best.after(), refined.edge(), refined.edge() / refined.wager(),
                 refined.wager(), refined.shares(), refined.after(), never,
                 HANDS * DEALER_HANDS, len(boards),
                 _groups(choices, {"basic": basic, "refined": refined, "best": best}))


@dataclass(frozen=True)
class GroupRow:
    """One group's figures, every deal counted (:func:`group_report`): its ``hands`` of the
    2,598,960, the return per ante and hand of each of :data:`CHOICE_RETURNS`
    (``choices``) and of each of :data:`STRATEGIES` (``returns``), the hands each strategy
    takes each of :data:`CHOICES` on (``taken``), and what the refined and the best
    strategy gain over the basic one here, per ante and hand of all C(52, 5)
    (``gains``)."""

    name: str
    hands: int
    choices: dict[str, Fraction]
    returns: dict[str, Fraction]
    taken: dict[str, dict[str, int]]
    gains: dict[str, Fraction]


def group_report(groups: dict[str, Group], differing: bool = False) -> list[GroupRow]:
    """The figures of ``groups`` (:attr:`Exact.groups`), or with ``differing`` of those
    where the best strategy takes other choices than the basic one or returns more.

    >>> taken = {"basic": {"stand-bet": 4, "stand-fold": 0, "sixth": 0},
    ...          "refined": {"stand-bet": 0, "stand-fold": 0, "sixth": 4}}
    >>> group = Group(4, {"stand-bet": -4 * UNIT, "stand-fold": -4 * UNIT, "sixth": UNIT,
    ...                   "sixth-best": 2 * UNIT},
    ...               {**taken, "best": taken["refined"]},
    ...               {"basic": -4 * UNIT, "refined": UNIT, "best": 2 * UNIT})
    >>> row = group_report({"made up": group}, differing=True)[0]
    >>> row.choices["sixth"], row.returns["best"], row.gains["best"] * HANDS
    (Fraction(1, 4), Fraction(1, 2), Fraction(6, 1))
    """
    rows = []
    for name, group in groups.items():
        if differing and group.taken["best"] == group.taken["basic"] \
                and group.returns["best"] == group.returns["basic"]:
            continue
        rows.append(GroupRow(
            name, group.hands,
            {choice: group.per_hand(total) for choice, total in group.choices.items()},
            {strategy: group.per_hand(total) for strategy, total in group.returns.items()},
            group.taken, {strategy: group.gain(strategy) for strategy in ("refined", "best")}))
    return rows


def never_draw(rules: RussianRules | None = None) -> int:
    """The total loss in antes of :data:`NEVER_DRAW` over the C(52, 5) C(47, 5) deals,
    standing hands alone counted (a fraction of :func:`exact`'s time); ``rules`` may be
    built apart (one combination paid: Caribbean Stud's pay)."""
    rules = rules or load_russian()
    boards, weights = board_classes()
    least_bet = raise_least()
    loss = 0
    for start in range(0, len(boards), 8192):
        hands, w = boards[start:start + 8192], weights[start:start + 8192]
        mine = tables().classes[colex(hands)].astype(np.int64)
        stand = bet_totals(hands, np.zeros((len(hands), 1, 0), dtype=np.int64),
                           mine[:, None], pay_odds(hands, rules)[:, None], rules)[:, 0]
        loss -= int((w * np.where(mine >= least_bet, stand, -DEALER_HANDS)).sum())
    return loss


# -- the exact figures kept between runs ---------------------------------------------------
def _cache_key(rules: RussianRules) -> str:
    """What the figures depend on: this module's code and the counts', the strategy's and
    the suit patterns', and the rules' numbers."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for module in (russian_poker, oasis_count, oasis_best, holdem_count):
        digest.update(Path(str(module.__file__)).read_bytes())
    digest.update(json.dumps([sorted(rules.pays.items()), rules.most_combinations,
                              rules.ante_on_win, rules.draw_price, rules.bet_multiple]
                             ).encode())
    return digest.hexdigest()[:24]


def to_json(found: Exact) -> dict[str, object]:
    """The figures as JSON (fractions as strings)."""
    return {
        "ante_edge": str(found.ante_edge), "element_of_risk": str(found.element_of_risk),
        "average_wager": str(found.average_wager), "average_price": str(found.average_price),
        "shares": {k: str(v) for k, v in found.shares.items()},
        "bet_after_sixth": str(found.bet_after_sixth),
        "best_edge": str(found.best_edge),
        "best_element_of_risk": str(found.best_element_of_risk),
        "best_average_wager": str(found.best_average_wager),
        "best_shares": {k: str(v) for k, v in found.best_shares.items()},
        "best_bet_after_sixth": str(found.best_bet_after_sixth),
        "refined_edge": str(found.refined_edge),
        "refined_element_of_risk": str(found.refined_element_of_risk),
        "refined_average_wager": str(found.refined_average_wager),
        "refined_shares": {k: str(v) for k, v in found.refined_shares.items()},
        "refined_bet_after_sixth": str(found.refined_bet_after_sixth),
        "never_draw_loss": found.never_draw_loss, "never_draw_edge": str(found.never_draw_edge),
        "deals": found.deals, "classes": found.classes,
        "groups": {name: {"hands": group.hands, "choices": group.choices,
                          "taken": group.taken, "returns": group.returns}
                   for name, group in found.groups.items()}}


def from_json(data: dict[str, Any]) -> Exact:
    """:func:`to_json`'s figures read back."""
    return Exact(
        Fraction(data["ante_edge"]), Fraction(data["element_of_risk"]),
        Fraction(data["average_wager"]), Fraction(data["average_price"]),
        {str(k): Fraction(v) for k, v in data["shares"].items()},
        Fraction(data["bet_after_sixth"]), Fraction(data["best_edge"]),
        Fraction(data["best_element_of_risk"]), Fraction(data["best_average_wager"]),
        {str(k): Fraction(v) for k, v in data["best_shares"].items()},
        Fraction(data["best_bet_after_sixth"]), Fraction(data["refined_edge"]),
        Fraction(data["refined_element_of_risk"]), Fraction(data["refined_average_wager"]),
        {str(k): Fraction(v) for k, v in data["refined_shares"].items()},
        Fraction(data["refined_bet_after_sixth"]), int(data["never_draw_loss"]),
        int(data["deals"]), int(data["classes"]),
        {str(name): Group(int(group["hands"]),
                          {str(k): int(v) for k, v in group["choices"].items()},
                          {str(k): {str(c): int(n) for c, n in v.items()}
                           for k, v in group["taken"].items()},
                          {str(k): int(v) for k, v in group["returns"].items()})
         for name, group in data["groups"].items()})


def cached_exact(pays: str | None = None, progress: Callable[[int], None] | None = None,
                 directory: Path | None = None, rules: RussianRules | None = None
                 ) -> tuple[Exact, bool]:
    """:func:`exact`, kept in the user's cache (``$XDG_CACHE_HOME/pelisali``) under a key
    of the code and the rules, so that it is counted once a machine: the figures and
    whether they were read from the cache."""
    rules = _rules(pays, rules)
    base = directory or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") \
        / "pelisali"
    path = base / f"russian-exact-{_cache_key(rules)}.json"
    if path.exists():
        try:
            return from_json(json.loads(path.read_text())), True
        except (ValueError, KeyError, TypeError, AttributeError):
            pass  # a damaged cache is counted again
    found = exact(progress=progress, rules=rules)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_text(json.dumps(to_json(found)))
    partial.replace(path)
    return found, False
