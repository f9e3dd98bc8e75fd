"""Playing cards and the shoe: N decks, Fisher–Yates shuffle, cut card, burns, a full record.

A card is a two-character string, rank then suit: ``"As"``, ``"Td"``, ``"9c"``.
Ranks ``23456789TJQKA``, suits ``cdhs`` (clubs, diamonds, hearts, spades: the
suit order used for ties in stud). The shoe keeps every card it holds in
order, deals from the front, and records the shuffle and every card dealt, so
a hand replays exactly.

>>> parse_cards("As Kd")
['As', 'Kd']
>>> parse_cards("Ax")
Traceback (most recent call last):
...
pelisali.cards.CardError: 'Ax' is not a card (rank 2-9 T J Q K A, suit c d h s)
>>> from pelisali.rng import SeededRng
>>> shoe = Shoe(decks=1, cut_from_back=10)
>>> shoe.shuffle(SeededRng(1))
>>> len(shoe.deal(3)), shoe.remaining, shoe.cut_card_out
(3, 49, False)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pelisali.rng import Rng, shuffle

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)


class CardError(ValueError):
    """A card that is not in the deck, or a card asked for twice."""


def parse_card(text: str) -> str:
    card = text.strip()
    if len(card) == 3 and card[:2] == "10":
        card = "T" + card[2]
    card = card[:1].upper() + card[1:].lower() if card else card
    if card not in DECK:
        raise CardError(f"{text!r} is not a card (rank 2-9 T J Q K A, suit c d h s)")
    return card


def parse_cards(text: str, *, allow_duplicates: bool = False) -> list[str]:
    """Parse ``"AsKd"`` or ``"As Kd, 10h"``; a card named twice is an error."""
    cleaned = text.replace(",", " ")
    tokens: list[str] = []
    for word in cleaned.split():
        while word:
            size = 3 if word.startswith("10") else 2
            tokens.append(word[:size])
            word = word[size:]
    cards = [parse_card(t) for t in tokens]
    if not allow_duplicates:
        dup = [c for c, n in Counter(cards).items() if n > 1]
        if dup:
            raise CardError(f"card {dup[0]} is named more than once")
    return cards


def rank_of(card: str) -> str:
    return card[0]


class ShoeError(CardError):
    """The shoe cannot do what was asked (empty, not shuffled)."""


@dataclass
class Shoe:
    """``decks`` decks, shuffled and cut; the cut card lies ``cut_from_back`` cards from the back.

    When the cut card comes out the current hand is the last before the
    shuffle (``cut_card_out``); the table reshuffles after that hand.
    """

    decks: int
    cut_from_back: int
    cards: list[str] = field(default_factory=list)
    position: int = 0
    shuffles: int = 0
    burned: list[str] = field(default_factory=list)
    dealt: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.decks < 1:
            raise ShoeError("a shoe needs at least one deck")
        if not 0 <= self.cut_from_back < 52 * self.decks:
            raise ShoeError(f"the cut card must lie inside the {52 * self.decks}-card shoe")

    @property
    def size(self) -> int:
        return 52 * self.decks

    @property
    def remaining(self) -> int:
        return len(self.cards) - self.position

    @property
    def cut_card_out(self) -> bool:
        """The cut card has come out: finish this hand, then shuffle."""
        return bool(self.cards) and self.remaining <= self.cut_from_back

    def shuffle(self, rng: Rng) -> None:
        """Gather every card and shuffle them (Fisher–Yates)."""
        self.cards = shuffle(list(DECK) * self.decks, rng)
        self.position = 0
        self.shuffles += 1
        self.burned = []
        self.dealt = []

    def load(self, order: list[str]) -> None:
        """Stack the shoe in a given order (replays, tests, a dealer's physical shoe)."""
        counts = Counter(order)
        extra = [c for c in counts if c not in DECK or counts[c] > self.decks]
        if extra:
            raise ShoeError(f"a {self.decks}-deck shoe cannot hold {extra[0]} that often")
        self.cards = list(order)
        self.position = 0
        self.burned = []
        self.dealt = []

    def _take(self) -> str:
        if not self.cards:
            raise ShoeError("the shoe has not been shuffled")
        if self.position >= len(self.cards):
            raise ShoeError("the shoe is empty")
        card = self.cards[self.position]
        self.position += 1
        return card

    def _check_can_take(self, n: int) -> None:
        if not self.cards:
            raise ShoeError("the shoe has not been shuffled")
        if n > self.remaining:
            raise ShoeError(f"the shoe holds {self.remaining} card(s), not {n}")

    def deal(self, n: int = 1) -> list[str]:
        self._check_can_take(n)  # a refused request takes nothing
        out = [self._take() for _ in range(n)]
        self.dealt.extend(out)
        return out

    def deal_one(self) -> str:
        return self.deal(1)[0]

    def burn(self, n: int = 1) -> list[str]:
        self._check_can_take(n)
        out = [self._take() for _ in range(n)]
        self.burned.extend(out)
        return out

    def composition(self) -> Counter[str]:
        """Counts by rank of the cards still in the shoe."""
        return Counter(rank_of(c) for c in self.cards[self.position:])

    def record(self) -> dict[str, Any]:
        return {"decks": self.decks, "cut_from_back": self.cut_from_back,
                "shuffle": self.shuffles, "order": "".join(self.cards)}
