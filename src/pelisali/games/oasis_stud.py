"""Oasis Stud Poker's rules and its basic strategy.

Standard rules (RAY 2016 1.4.1.2 names the game; its text is not in the rulebook as
extracted; the Wizard of Odds, "Oasis Poker"): the player bets an ante; player and
dealer get five cards each, one of the dealer's face up. The player may exchange one to
five cards once, for the next cards of the deck, paying a fee by the number of cards
(the fee table: 1, 2, 3, 2, 1 times the ante, or one ante a card), which is never
returned; a player who exchanges all five must raise. The player then folds, losing
the ante, or raises 2 times the ante. The dealer qualifies with ace-king or better
(A-K-4-3-2 the least). The dealer not qualifying, the ante wins 1:1 and the raise
pushes; the dealer qualifying, the higher hand wins: the dealer's takes the ante and
the raise, the player's wins the ante 1:1 and the raise by the raise pay table; a tie
pushes both. The tables are rule data (:mod:`pelisali.rules.oasis`).

The basic strategy (:data:`BASIC_STRATEGY`) is one definition, used by the engine's bot
and the simulator; it reads the player's five cards alone (never the dealer's up card):

1. A pair or better (any hand ranked pair or above, straights and flushes too): no
   exchange; raise.
2. No pair and four cards of one suit: exchange the fifth card (one card).
3. Otherwise, no pair and four consecutive ranks open at both ends: the four ranks
   ``r, r+1, r+2, r+3`` with ``r`` a deuce to a ten (the lowest run 2-3-4-5, the highest
   T-J-Q-K; the ace counts high only and ends no such run, so neither A-2-3-4 nor
   J-Q-K-A is one): exchange the fifth card (one card).
4. After an exchange, or with none: raise with a pair or better, or with a hand without
   a pair whose five ranks, read from the highest down (the ace high), are at least
   A-K-J-8-3 compared rank by rank (A-K-J-8-3 itself raises, A-K-J-8-2 folds);
   otherwise fold.

>>> exchange_choice(["As", "Ks", "7s", "2s", "9d"]), exchange_choice(["5c", "6d", "7h", "8s", "Kd"])
(('9d',), ('Kd',))
>>> raises(["Ac", "Kd", "Jh", "8s", "3c"]), raises(["Ac", "Kd", "Jh", "8s", "2c"])
(True, False)
>>> decision(["2c", "2d", "7h", "9s", "Kd"]), decision(["Ac", "Kd", "Qh", "4s", "3c"])
('raise', 'raise')
>>> decision(["Ac", "Kd", "Th", "4s", "3c"]), decision(["Jc", "Qd", "Kh", "Ac", "2c"])
('fold', 'raise')
>>> raise_return(["Kc", "Kd", "7h", "9s", "2d"], ["Ac", "Kh", "5d", "4s", "2c"])  # 1 + 2 x 1
3
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from pelisali.cards import DECK, RANKS
from pelisali.poker.evaluate import high_value
from pelisali.poker.hands import CATEGORIES, CATEGORY_SHIFT
from pelisali.rules.oasis import OasisRules, load_oasis

BASIC_STRATEGY = (
    "1. With a pair or better, exchange nothing and raise. 2. With no pair and four cards "
    "of one suit, exchange the fifth card. 3. Otherwise, with no pair and four consecutive "
    "ranks open at both ends (2-3-4-5 up to T-J-Q-K; the ace high only, so not A-2-3-4 "
    "nor J-Q-K-A), exchange the fifth card. 4. After the exchange, or with none, raise "
    "with a pair or better or with no pair at least A-K-J-8-3 (the five ranks compared "
    "from the highest down); otherwise fold. The dealer's up card is not read.")
"""The stated basic strategy in words (:func:`exchange_choice`, :func:`raises`)."""

RAISE_AT_LEAST = ("A", "K", "J", "8", "3")
"""Rule 4: the least hand without a pair that raises, its ranks from the highest down."""
_RAISE_RANKS = tuple(RANKS.index(r) for r in RAISE_AT_LEAST)
PAIR = 1 << CATEGORY_SHIFT
"""The least value of a pair: every value at or above it is a pair or better."""
HAND_NAMES = ("royal_flush", *reversed(CATEGORIES))
"""The box's final hands, best first (a pay table's ``ace_king`` is ``high_card`` here)."""


def _indices(hand: Sequence[str]) -> list[int]:
    try:
        out = [DECK.index(c) for c in hand]
    except ValueError:
        raise ValueError(f"cards of the deck, not {list(hand)!r}") from None
    if len(out) != 5 or len(set(out)) != 5:
        raise ValueError(f"five different cards, not {list(hand)!r}")
    return out


def value(hand: Sequence[str]) -> int:
    """The five cards' poker value (higher is better, equal ties), from the evaluator."""
    return high_value(_indices(hand))


@cache
def qualifier() -> int:
    """The least value with which the dealer qualifies: A-K-4-3-2's.

    >>> value(["Ac", "Kd", "4h", "3s", "2c"]) == qualifier() > value(["Ac", "Qd", "Jh", "9s", "8c"])
    True
    """
    return value(["Ac", "Kd", "4h", "3s", "2c"])


def qualifies(hand: Sequence[str]) -> bool:
    """Whether the dealer's five cards qualify: ace-king or better."""
    return value(hand) >= qualifier()


@cache
def _royal() -> int:
    return value(["As", "Ks", "Qs", "Js", "Ts"])


def hand_name(hand: Sequence[str]) -> str:
    """The hand's name in :data:`HAND_NAMES`.

    >>> hand_name(["Th", "Jh", "Qh", "Kh", "Ah"]), hand_name(["2h", "2d", "7s", "9c", "Kd"])
    ('royal_flush', 'pair')
    """
    found = value(hand)
    return "royal_flush" if found == _royal() else CATEGORIES[found >> CATEGORY_SHIFT]


def pay_hand(hand: Sequence[str]) -> str:
    """The raise pay table's name for the hand (``ace_king`` for a hand without a pair).

    >>> pay_hand(["Ac", "Kd", "9h", "4s", "2c"]), pay_hand(["5c", "6d", "7h", "8s", "9d"])
    ('ace_king', 'straight')
    """
    name = hand_name(hand)
    return "ace_king" if name == "high_card" else name


# -- the basic strategy --------------------------------------------------------------------
def _ranks(hand: Sequence[str]) -> list[int]:
    """The five ranks from the highest down (deuce 0 ... ace 12)."""
    _indices(hand)
    return sorted((RANKS.index(c[0]) for c in hand), reverse=True)


def exchange_choice(hand: Sequence[str]) -> tuple[str, ...]:
    """Rules 1-3: the cards the basic strategy exchanges (none, or the one card outside a
    four-flush or an open-ended four-straight), in the hand's order.

    >>> exchange_choice("Ac Ad 7h 9s 2c".split()), exchange_choice("9c Tc Jc Qc Kc".split())
    ((), ())
    >>> exchange_choice("Ah 2d 3c 4s 9c".split()), exchange_choice("Jh Qd Kc As 5c".split())
    ((), ())
    >>> exchange_choice("2h 3d 4c 5s 9c".split()), exchange_choice("Th Jd Qc Ks 5c".split())
    (('9c',), ('5c',))
    """
    if value(hand) >= PAIR:  # rule 1
        return ()
    for suit in {c[1] for c in hand}:  # rule 2
        others = tuple(c for c in hand if c[1] != suit)
        if len(others) == 1:
            return others
    ranks = set(_ranks(hand))
    for low in range(0, 9):  # rule 3: 2-3-4-5 (low 0) to T-J-Q-K (low 8)
        run = set(range(low, low + 4))
        if run <= ranks:
            return tuple(c for c in hand if RANKS.index(c[0]) not in run)
    return ()


def raises(hand: Sequence[str]) -> bool:
    """Rule 4: whether the basic strategy raises on these five cards (a pair or better, or
    no pair at least A-K-J-8-3).

    >>> raises(["2c", "2d", "3h", "4s", "5c"]), raises(["Ac", "Qd", "Jh", "9s", "8c"])
    (True, False)
    >>> raises(["Ac", "Kd", "Qh", "3s", "2c"]), raises(["Ac", "Kd", "Jh", "9s", "2c"])
    (True, True)
    """
    return value(hand) >= PAIR or tuple(_ranks(hand)) >= _RAISE_RANKS


def decision(hand: Sequence[str], exchanged: bool = False) -> str:
    """The basic strategy's action as the engine reads it: ``exchange CARD`` (before any
    exchange, by rules 1-3), else ``raise`` or ``fold`` by rule 4.

    >>> decision(["Ah", "Kh", "7h", "2h", "9d"])
    'exchange 9d'
    >>> decision("Ah Kh 7h 2h Qd".split(), True), decision("Ah Kh 7h 2h 9d".split(), True)
    ('raise', 'fold')
    """
    if not exchanged:
        chosen = exchange_choice(hand)
        if chosen:
            return "exchange " + " ".join(chosen)
    return "raise" if raises(hand) else "fold"


# -- what a raised hand returns ----------------------------------------------------------------
def raise_return(box: Sequence[str], dealer: Sequence[str],
                 rules: OasisRules | None = None) -> int:
    """The ante and raise bets' net return, in antes, of a box that raised on ``box``
    against the dealer's ``dealer`` (exchange fees apart): 1 when the dealer does not
    qualify, -1 - 2 when the dealer's hand is higher, 0 on a tie, else 1 + 2 times the
    raise pay table's odds.

    >>> raise_return(["Ac", "Kd", "9h", "4s", "2c"], ["Qc", "Jd", "9d", "4h", "3c"])
    1
    >>> raise_return(["Ac", "Kd", "9h", "4s", "2c"], ["Ah", "Ks", "9d", "4h", "2d"])
    0
    >>> raise_return(["5c", "6d", "7h", "8s", "9d"], ["Ah", "Ks", "9c", "4h", "2d"])
    9
    """
    rules = rules or load_oasis()
    mine, theirs = value(box), value(dealer)
    if len(set(box) | set(dealer)) != 10:
        raise ValueError("the box and the dealer hold ten different cards")
    multiple = rules.raise_multiple
    if theirs < qualifier():
        return 1
    if mine < theirs:
        return -1 - multiple
    if mine == theirs:
        return 0
    return 1 + multiple * rules.pays[pay_hand(box)]
