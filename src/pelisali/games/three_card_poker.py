"""Three Card Poker's rules and exact odds: the three-card ranking, what the ante, play,
ante bonus and Pair Plus pay on each outcome, and every deal counted.

Standard rules (RAY 2016 1.4.1.2 names the game; its text is not in the rulebook as
extracted): the player antes and sees three cards, then folds (losing the ante) or
plays with a play bet equal to the ante. The dealer qualifies with queen high or
better; if not, the ante pays 1:1 and the play bet pushes; if so, the higher hand wins
ante and play 1:1, and a tie pushes both. A player who plays is paid the ante bonus on
a straight or better whatever the dealer holds. Pair Plus is a bet on the player's own
three cards. The tables are rule data (:mod:`pelisali.rules.banked`).

>>> category(("As", "2d", "3c")), category(("Kh", "Qs", "Ad"))
('straight', 'straight')
>>> rank_of(("As", "2d", "3c")) < rank_of(("4s", "2d", "3c")) < rank_of(("Kh", "Qs", "Ad"))
True
>>> ante_play_return(("Qs", "6d", "4c"), ("Js", "9d", "2h"), plays=True)  # no qualifier
1
>>> ante_play_return(("Qs", "6d", "4c"), ("Ks", "9d", "2h"), plays=True)  # the dealer wins
-2
>>> ante_play_return(("7s", "8s", "9s"), ("Ks", "9d", "2h"), plays=True)  # 2 + bonus 5
7
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations

import numpy as np

from pelisali.cards import DECK, RANKS, SUITS
from pelisali.rules.banked import ThreeCardRules, load_three_card_poker

CATEGORIES = ("high card", "pair", "flush", "straight", "three of a kind", "straight flush")
"""The hands from the lowest: with three cards a straight beats a flush."""
_KEYS = {"pair": "pair", "flush": "flush", "straight": "straight",
         "three of a kind": "three_of_a_kind", "straight flush": "straight_flush"}
QUALIFIER = ("Q", "3", "2")
"""The least hand with which the dealer qualifies: queen high."""
PLAY_AT_LEAST = ("Q", "6", "4")
"""The optimal rule: play queen-six-four or better, fold worse (see :func:`exact`)."""


def _ranks(cards: Sequence[str]) -> list[int]:
    return sorted((RANKS.index(c[0]) for c in cards), reverse=True)


def rank_of(cards: Sequence[str]) -> int:
    """A number that orders three-card hands (higher is better; equal ties)."""
    if len(cards) != 3 or len(set(cards)) != 3 or any(c not in DECK for c in cards):
        raise ValueError(f"three different cards of the deck, not {list(cards)!r}")
    ranks = _ranks(cards)
    flush = len({c[1] for c in cards}) == 1
    top = None
    if ranks[0] - ranks[2] == 2 and len(set(ranks)) == 3:
        top = ranks[0]
    elif ranks == [12, 1, 0]:  # A-2-3: the lowest straight
        top = 1
    if ranks[0] == ranks[2]:
        kind, order = 4, ranks
    elif top is not None:
        kind, order = (5 if flush else 3), [top, 0, 0]
    elif flush:
        kind, order = 2, ranks
    elif ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair = ranks[1]
        kicker = ranks[2] if ranks[0] == ranks[1] else ranks[0]
        kind, order = 1, [pair, kicker, 0]
    else:
        kind, order = 0, ranks
    return ((kind * 13 + order[0]) * 13 + order[1]) * 13 + order[2]


def category(cards: Sequence[str]) -> str:
    """The hand's name in :data:`CATEGORIES`."""
    return CATEGORIES[rank_of(cards) // 13**3]


def _high_card(ranks: tuple[str, str, str]) -> int:
    return ((0 * 13 + RANKS.index(ranks[0])) * 13 + RANKS.index(ranks[1])) * 13 + RANKS.index(
        ranks[2])


def qualifies(cards: Sequence[str]) -> bool:
    """Whether the dealer's hand qualifies (queen high or better)."""
    return rank_of(cards) >= _high_card(QUALIFIER)


def ante_bonus(cards: Sequence[str], rules: ThreeCardRules | None = None) -> int:
    """The ante bonus to one on the ante (0 below a straight)."""
    table = (rules or load_three_card_poker()).ante_bonus
    return table.get(_KEYS.get(category(cards), ""), 0)


def pair_plus_return(cards: Sequence[str], rules: ThreeCardRules | None = None) -> int:
    """Pair Plus's net return to one: its odds on a pair or better, else -1."""
    table = (rules or load_three_card_poker()).pair_plus
    key = _KEYS.get(category(cards), "")
    return table.get(key, -1)


def ante_play_return(player: Sequence[str], dealer: Sequence[str], plays: bool,
                     rules: ThreeCardRules | None = None) -> int:
    """The ante and play bets' net return, in antes, for one deal: -1 on a fold."""
    if not plays:
        return -1
    bonus = ante_bonus(player, rules)
    if not qualifies(dealer):
        return 1 + bonus
    mine, theirs = rank_of(player), rank_of(dealer)
    return bonus + (2 if mine > theirs else -2 if mine < theirs else 0)


@dataclass(frozen=True)
class Exact:
    """Every deal counted (22,100 player hands, 18,424 dealer hands each).

    ``ante_edge``: the house's edge per ante under the optimal play; ``element_of_risk``:
    per unit wagered (the ante, and the play bet when made); ``pair_plus_edge``;
    ``play_threshold``: the least hand whose play is worth more than its fold;
    ``play_share``: the chance that the optimal player plays."""

    ante_edge: Fraction
    element_of_risk: Fraction
    pair_plus_edge: Fraction
    play_share: Fraction
    play_threshold: int
    deals: int


@cache
def _hands() -> tuple[tuple[tuple[str, str, str], ...], np.ndarray, np.ndarray]:
    hands = tuple(combinations(DECK, 3))
    values = np.array([rank_of(h) for h in hands], dtype=np.int64)
    holds = np.zeros((len(hands), 52), dtype=bool)
    for i, hand in enumerate(hands):
        for card in hand:
            holds[i, DECK.index(card)] = True
    return hands, values, holds


def _canonical(hand: tuple[str, str, str]) -> tuple[str, ...]:
    """The hand with its suits renamed the first way, so suit-alike hands coincide."""
    return min(tuple(sorted(c[0] + dict(zip(SUITS, order, strict=True))[c[1]] for c in hand))
               for order in permutations(SUITS))


@cache
def exact(ante_bonus_table: str | None = None, pair_plus_table: str | None = None) -> Exact:
    """Three Card Poker's exact house edges, every deal counted: each player hand (one
    of each suit pattern, weighted by how many hands share it) against every dealer
    hand of the 49 cards left.

    >>> found = exact()
    >>> float(round(found.ante_edge * 100, 2)), float(round(found.element_of_risk * 100, 2))
    (3.37, 2.01)
    >>> float(round(found.pair_plus_edge * 100, 2))
    2.32
    """
    rules = load_three_card_poker(ante_bonus_table, pair_plus_table)
    hands, values, holds = _hands()
    qualifying = values >= _high_card(QUALIFIER)
    classes: dict[tuple[str, ...], list[int]] = {}
    for i, hand in enumerate(hands):
        classes.setdefault(_canonical(hand), []).append(i)
    dealers = 18_424  # C(49, 3)
    total = Fraction(0)
    wagered = Fraction(0)
    played = 0
    threshold = 13**4  # above every hand: lowered to the least hand played
    for members in classes.values():
        i, weight = members[0], len(members)
        hand = hands[i]
        cards = [DECK.index(c) for c in hand]
        apart = ~(holds[:, cards[0]] | holds[:, cards[1]] | holds[:, cards[2]])
        mine = values[i]
        not_qualified = int(np.count_nonzero(apart & ~qualifying))
        beaten = int(np.count_nonzero(apart & qualifying & (values < mine)))
        beating = int(np.count_nonzero(apart & qualifying & (values > mine)))
        bonus = ante_bonus(hand, rules)
        play = Fraction(bonus) + Fraction(not_qualified + 2 * beaten - 2 * beating, dealers)
        if play >= -1:
            total += weight * play
            wagered += 2 * weight
            played += weight
            threshold = min(threshold, int(mine))
        else:
            total += -weight
            wagered += weight
    count = len(hands)
    pair_plus = Fraction(sum(pair_plus_return(h, rules) for h in hands), count)
    return Exact(-total / count, -total / wagered, -pair_plus, Fraction(played, count),
                 int(threshold), count * dealers)
