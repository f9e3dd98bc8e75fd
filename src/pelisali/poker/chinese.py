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
from collections.abc import Callable, Mapping, Sequence
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


def best_set(cards: Sequence[str]) -> ChineseHand:
    """A correctly set hand for a bot: the strongest back, then the strongest middle of
    what is left, the rest in front; searched over every back and middle (exact for
    this greedy order, and never misset).

    >>> from pelisali.cards import parse_cards as p
    >>> hand = best_set(p("As Ad Ah Ks Kd 2c 3c 4c 5c 7c 9h Jh Qd"))
    >>> hand.back, hand.middle, hand.misset
    (('As', 'Ad', 'Ah', 'Ks', 'Kd'), ('2c', '3c', '4c', '5c', '7c'), False)
    """
    if len(cards) != 13 or len(set(cards)) != 13:
        raise CardError("Chinese Poker sets thirteen different cards")
    index = {c: DECK.index(c) for c in cards}
    back = max(itertools.combinations(cards, 5),
               key=lambda five: high_value([index[c] for c in five]))
    rest = [c for c in cards if c not in back]
    middle = max(itertools.combinations(rest, 5),
                 key=lambda five: high_value([index[c] for c in five]))
    front = [c for c in rest if c not in middle]
    return set_hand(front, middle, back)


def random_set(cards: Sequence[str], rng: Rng) -> ChineseHand:
    """Any split of the thirteen cards, misset or not (the random bot)."""
    from pelisali.rng import shuffle

    order = shuffle(list(cards), rng)
    return set_hand(order[:3], order[3:8], order[8:])


@dataclass
class ChineseTable:
    """Chinese Poker for chips: a point value fixed before play, and a buy-in that covers
    the most a round can cost (3 points against each opponent), so every round is paid in
    full and nobody plays on credit.

    >>> from pelisali.rng import SeededRng
    >>> table = ChineseTable(point_value=100, chips=[900, 900, 900])
    >>> cards = table.deal(SeededRng(1))
    >>> for seat in range(3):
    ...     table.place(seat, best_set(cards[seat]))
    >>> sum(table.chips)
    2700
    """

    point_value: int
    chips: list[int]
    hands: dict[int, ChineseHand | None] | None = None
    dealt: list[list[str]] | None = None
    last: dict[int, int] | None = None  # the last round's nets by seat

    def __post_init__(self) -> None:
        if self.point_value <= 0:
            raise CardError("points need a positive money value fixed before play")
        if not 2 <= len(self.chips) <= 4:
            raise CardError("Chinese Poker seats two to four players")
        short = [s for s, c in enumerate(self.chips) if c < self.minimum]
        if short:
            raise CardError(f"seat {short[0]} has less than the {self.minimum} a round "
                            "can cost (3 points against each opponent)")

    @property
    def minimum(self) -> int:
        return 3 * self.point_value * (len(self.chips) - 1)

    def deal(self, rng: Rng) -> list[list[str]]:
        if self.hands is not None:
            raise CardError("the round in play must be settled first")
        short = [s for s, c in enumerate(self.chips) if c < self.minimum]
        if short:
            raise CardError(f"seat {short[0]} must buy in to {self.minimum} before the deal")
        self.dealt = deal(rng, len(self.chips))
        self.hands = dict.fromkeys(range(len(self.chips)))
        return self.dealt

    def place(self, seat: int, hand: ChineseHand) -> None:
        """Set ``seat``'s three hands; when every seat has set, the round settles."""
        if self.hands is None or self.dealt is None:
            raise CardError("no round is in play")
        if seat not in self.hands:
            raise CardError(f"no seat {seat}")
        if self.hands[seat] is not None:
            raise CardError(f"seat {seat} has already set its hand")
        if sorted((*hand.front, *hand.middle, *hand.back)) != sorted(self.dealt[seat]):
            raise CardError(f"seat {seat} must set exactly the thirteen cards dealt to it")
        self.hands[seat] = hand
        if all(h is not None for h in self.hands.values()):
            placed = {str(s): h for s, h in self.hands.items() if h is not None}
            nets = settle(placed, self.point_value)
            self.last = {int(s): amount for s, amount in nets.items()}
            for s, amount in self.last.items():
                self.chips[s] += amount
            self.hands = None


@dataclass
class ChineseSelfplay:
    rounds: int
    seed: int
    bought: int  # every buy-in, the first and the top-ups
    final_chips: list[int]
    missets: int


def selfplay(rounds: int, seed: int, players: int = 4, point_value: int = 100,
             bots: tuple[str, ...] = ("random", "rules"),
             progress: Callable[[int], None] | None = None) -> ChineseSelfplay:
    """Bots play ``rounds`` rounds at a ChineseTable; the same seed gives the same rounds.
    A seat below the minimum buys in again between rounds.

    >>> result = selfplay(20, seed=2, players=3)
    >>> sum(result.final_chips) == result.bought   # zero-sum: nothing made or lost
    True
    """
    from pelisali.rng import SeededRng

    rng = SeededRng(seed)
    start = 3 * point_value * (players - 1)
    table = ChineseTable(point_value, [start] * players)
    bought = start * players
    missets = 0
    for number in range(rounds):
        for seat, chips in enumerate(table.chips):
            if chips < table.minimum:
                bought += table.minimum - chips
                table.chips[seat] = table.minimum
        cards = table.deal(rng)
        for seat in range(players):
            bot = bots[seat % len(bots)]
            hand = best_set(cards[seat]) if bot == "rules" else random_set(cards[seat], rng)
            missets += hand.misset
            table.place(seat, hand)
        if progress:
            progress(number + 1)
    return ChineseSelfplay(rounds, seed, bought, table.chips, missets)
