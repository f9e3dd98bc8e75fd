"""Where a poker hand's cards come from: the one place chance enters a hand.

A :class:`~pelisali.poker.table.PokerHand` asks a :class:`CardSource` for cards
and never draws randomness itself. The stub is the undealt part of the deck.
Three sources:

* :class:`ShuffledCards` shuffles a full deck with a random generator, the
  same :meth:`~pelisali.cards.Shoe.shuffle` calls in the same order as the hand
  always made, so a seed deals the same cards it always dealt;
* :class:`DealtCards` deals a given order (a replay, a hall's physical
  shuffle, a scripted test), and after it the rest of the deck in deck order;
* :class:`ChanceCards` deals the cards chance has supplied so far and, asked
  for more, raises :class:`CardsNeeded` with the cards that may come next:
  how the engine contract (:mod:`pelisali.engine.poker`) makes every card a
  chance outcome.

>>> from pelisali.rng import SeededRng
>>> cards = ShuffledCards(SeededRng(3))
>>> len(cards.deal(2)), cards.remaining
(2, 50)
>>> scripted = DealtCards(["As", "Kd"])
>>> scripted.deal(3), scripted.remaining
(['As', 'Kd', '2c'], 49)
>>> scripted.reshuffle_in(["As", "2c"])  # thrown cards back in: a draw's stub ran short
>>> scripted.remaining, scripted.deal(1)
(51, ['2d'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from pelisali.cards import DECK, Shoe, ShoeError
from pelisali.rng import Rng, shuffle

_IN_DECK = frozenset(DECK)


class CardSource(Protocol):
    """The cards of one hand: a deck dealt from the front, the stub what is left of it."""

    @property
    def remaining(self) -> int:
        """Cards left in the stub."""
        ...

    def deal(self, n: int) -> list[str]:
        """The next ``n`` cards of the stub (a refused request takes nothing)."""
        ...

    def reshuffle_in(self, cards: Sequence[str]) -> None:
        """The thrown ``cards`` join the stub (empty when a hand asks), in an order chance
        decides: a draw game's stub ran short (RULINGS)."""
        ...

    def new_deck(self) -> None:
        """A freshly shuffled full deck replaces the stub: a deal again (nobody opened)."""
        ...


class ShuffledCards:
    """A full deck shuffled with ``rng`` when the hand first needs a card.

    One source a hand; a hand after another shares the generator, not the source.

    >>> from pelisali.rng import SeededRng
    >>> a, b = ShuffledCards(SeededRng(1)), ShuffledCards(SeededRng(1))
    >>> a.deal(5) == b.deal(5)
    True
    """

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.shoe = Shoe(1, 0)

    def _stub(self) -> Shoe:
        if not self.shoe.cards:  # shuffled when first asked, as the hand always did
            self.shoe.shuffle(self.rng)
        return self.shoe

    @property
    def remaining(self) -> int:
        return self._stub().remaining

    def deal(self, n: int) -> list[str]:
        shoe = self._stub()
        start = shoe.position
        if not 0 <= n <= len(shoe.cards) - start:
            return shoe.deal(n)  # refused, as the shoe refuses it
        out = shoe.cards[start:start + n]  # what Shoe.deal does, without a call a card
        shoe.position = start + n
        shoe.dealt.extend(out)
        return out

    def reshuffle_in(self, cards: Sequence[str]) -> None:
        self._stub().cards.extend(shuffle(list(cards), self.rng))

    def new_deck(self) -> None:
        self.shoe.shuffle(self.rng)


class DealtCards:
    """The cards of ``order`` first, then the rest of the stub in its order: a fresh deck
    in deck order, a reshuffled pile in the order it was thrown.

    ``order`` may run past a new deck or a reshuffle: every card it names must then be
    in the stub, so the order chance dealt replays a whole hand.

    >>> cards = DealtCards(["Kd"])
    >>> cards.deal(1)
    ['Kd']
    >>> cards.new_deck()
    >>> cards.deal(2)
    ['2c', '2d']
    >>> DealtCards(["Kx"])
    Traceback (most recent call last):
    ...
    pelisali.cards.ShoeError: deck: 'Kx' is not a card of the 52-card deck
    """

    def __init__(self, order: Sequence[str]) -> None:
        strangers = [c for c in order if c not in _IN_DECK]
        if strangers:
            raise ShoeError(f"deck: {strangers[0]!r} is not a card of the 52-card deck")
        self.order = list(order)
        self.position = 0  # the next card of ``order``
        # The stub in its order, cards dealt since it was last laid out left in place: what
        # is in the stub is ``_left``, so a deal need not rebuild the list.
        self._cards = list(DECK)
        self._left = set(DECK)

    @property
    def stub(self) -> list[str]:
        """The cards left, in their order."""
        left = self._left
        return [c for c in self._cards if c in left]

    @property
    def remaining(self) -> int:
        return len(self._left)

    def deal(self, n: int) -> list[str]:
        left = self._left
        if n > len(left):
            raise ShoeError(f"the stub holds {len(left)} card(s), not {n}")
        start = self.position
        given = self.order[start:start + n]
        if len(set(given)) != len(given) or not left.issuperset(given):
            seen: set[str] = set()
            for card in given:
                if card not in left or card in seen:
                    raise ShoeError(f"deck: {card} is not in the stub; it was dealt already")
                seen.add(card)
        self.position = start + len(given)
        out = given
        if len(given) < n:  # the rest from the stub, in its order
            chosen = set(given)
            out = given + [c for c in self._cards
                           if c in left and c not in chosen][:n - len(given)]
        left.difference_update(out)
        return out

    def reshuffle_in(self, cards: Sequence[str]) -> None:
        left = self._left
        self._cards = [c for c in self._cards if c in left] + list(cards)
        left.update(cards)

    def new_deck(self) -> None:
        self._cards = list(DECK)
        self._left = set(DECK)


class CardsNeeded(Exception):
    """A hand asked :class:`ChanceCards` for more cards than chance has supplied.

    ``pool`` holds the cards the next one may be (the stub less the cards supplied for
    this deal already), in deck order.
    """

    def __init__(self, pool: tuple[str, ...]) -> None:
        super().__init__(f"chance must deal one of {len(pool)} cards")
        self.pool = pool


class ChanceCards:
    """Deals the cards chance ``supplied``, in order, from a stub it keeps in deck order;
    asked for more, raises :class:`CardsNeeded` and takes nothing.

    >>> cards = ChanceCards(supplied=["As"])
    >>> cards.deal(1), cards.remaining
    (['As'], 51)
    >>> try:
    ...     cards.deal(1)
    ... except CardsNeeded as needed:
    ...     len(needed.pool), "As" in needed.pool
    (51, False)
    """

    def __init__(self, stub: Sequence[str] = DECK, supplied: Sequence[str] = ()) -> None:
        self.stub = list(stub)
        self.supplied = list(supplied)
        self.used = 0  # supplied cards dealt

    @property
    def remaining(self) -> int:
        return len(self.stub)

    @property
    def unused(self) -> int:
        """Supplied cards not dealt yet."""
        return len(self.supplied) - self.used

    def deal(self, n: int) -> list[str]:
        if n > len(self.stub):
            raise ShoeError(f"the stub holds {len(self.stub)} card(s), not {n}")
        given = self.supplied[self.used:self.used + n]
        if len(given) < n:
            waiting = set(given)
            raise CardsNeeded(tuple(c for c in self.stub if c not in waiting))
        taken = set(given)
        if len(taken) != n or not taken <= set(self.stub):
            raise ShoeError(f"chance supplied {' '.join(given)}, not all in the stub")
        self.used += n
        self.stub = [c for c in self.stub if c not in taken]
        return given

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ChanceCards):
            return NotImplemented
        return (self.stub, self.supplied, self.used) == (other.stub, other.supplied, other.used)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def reshuffle_in(self, cards: Sequence[str]) -> None:
        # Chance orders the pile: as a pool it keeps deck order.
        self.stub = sorted([*self.stub, *cards], key=DECK.index)

    def new_deck(self) -> None:
        self.stub = list(DECK)
