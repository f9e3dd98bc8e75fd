"""Chinese Poker (RAY 2015 1.4.1.1.13, RULINGS): three hands from thirteen cards, 1-3 scoring.

Each player sets a three-card front hand, a five-card middle and a five-card
back; the back must rank at least as high as the middle and the middle at
least as high as the front, whose straights and flushes do not count. A
misset hand loses to every correctly set one (all three hands); two misset
hands score nothing against each other. Against each opponent, winning more
of the three hands than you lose scores 1 point, winning all three scores 3.
Points are worth a sum of money fixed before play.

>>> from pelisali.cards import parse_cards as p
>>> ann = set_hand(p("2c 2d 3h"), p("9s 9h 9d 4c 4d"), p("As Ks Qs Js Ts"))
>>> bob = set_hand(p("Ac Kd 7h"), p("8s 8h 5d 5c 6d"), p("Qh Qd Qc 3c 3d"))
>>> score(ann, bob)   # ann wins all three
3
>>> settle({"ann": ann, "bob": bob}, point_value=500)
{'ann': 1500, 'bob': -1500}
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pelisali.cards import DECK, CardError, Shoe
from pelisali.poker.evaluate import high_value
from pelisali.poker.rankings import front_value
from pelisali.rng import Rng


@dataclass(frozen=True)
class ChineseHand:
    front: tuple[str, ...]
    middle: tuple[str, ...]
    back: tuple[str, ...]

    @property
    def values(self) -> tuple[int, int, int]:
        idx = [[DECK.index(c) for c in part] for part in (self.front, self.middle, self.back)]
        return front_value(idx[0]), high_value(idx[1]), high_value(idx[2])

    @property
    def misset(self) -> bool:
        """The back below the middle, or the middle below the front."""
        front, middle, back = self.values
        return middle < front or back < middle


def set_hand(front: Sequence[str], middle: Sequence[str], back: Sequence[str]) -> ChineseHand:
    """Set thirteen different cards as front (3), middle (5) and back (5)."""
    cards = [*front, *middle, *back]
    if (len(front), len(middle), len(back)) != (3, 5, 5):
        raise CardError("a Chinese Poker hand is a front of 3 and a middle and back of 5 cards")
    if len(set(cards)) != 13:
        raise CardError("the thirteen cards must all differ")
    for card in cards:
        if card not in DECK:
            raise CardError(f"{card!r} is not a card")
    return ChineseHand(tuple(front), tuple(middle), tuple(back))


def score(a: ChineseHand, b: ChineseHand) -> int:
    """Points ``a`` takes from ``b`` under 1-3 scoring (negative when ``a`` pays)."""
    if a.misset or b.misset:
        if a.misset and b.misset:
            return 0
        return -3 if a.misset else 3  # a misset hand loses all three hands
    won = lost = 0
    for mine, theirs in zip(a.values, b.values, strict=True):
        won += mine > theirs
        lost += mine < theirs
    if won == 3:
        return 3
    if lost == 3:
        return -3
    return (won > lost) - (won < lost)


def settle(hands: Mapping[str, ChineseHand], point_value: int) -> dict[str, int]:
    """Each player's net in cents against every other player: zero-sum."""
    if point_value <= 0:
        raise CardError("points need a positive money value fixed before play")
    every = [c for h in hands.values() for c in (*h.front, *h.middle, *h.back)]
    if len(set(every)) != len(every):
        raise CardError("a card is in two players' hands")
    net = dict.fromkeys(hands, 0)
    for (name_a, a), (name_b, b) in itertools.combinations(hands.items(), 2):
        points = score(a, b)
        net[name_a] += points * point_value
        net[name_b] -= points * point_value
    return net


def deal(rng: Rng, players: int) -> list[list[str]]:
    """Thirteen cards to each of two to four players from one shuffled deck."""
    if not 2 <= players <= 4:
        raise CardError("Chinese Poker deals thirteen cards to two to four players")
    shoe = Shoe(1, 0)
    shoe.shuffle(rng)
    return [shoe.deal(13) for _ in range(players)]
