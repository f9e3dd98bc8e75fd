"""What the banked games' wallet tests share: cards stacked in the order the engine deals
them, the engine's own round replayed from a record's moves, and the ledger, audit chain
and bet rows checked whole."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from sqlalchemy import Engine

from pelisali.cards import DECK
from pelisali.engine import GAMES, Seats, State
from pelisali.platform.db import transaction
from pelisali.platform.ledger import balance, check, verify_audit
from pelisali.platform.rounds import reconcile_bets
from pelisali.rng import SeededRng

S = TypeVar("S", bound=State)


class StackedDeck(SeededRng):
    """The cards of rounds in the order the engine deals them (``"Kc Kd 7h"`` or the cards
    one by one), each drawn from what is left of the round's ``deck``; a draw from a
    whole deck begins the next round's cards. Kept across a round's requests, since each
    draws the cards up to the next decision."""

    def __init__(self, *cards: str, deck: Sequence[str] = DECK) -> None:
        super().__init__(0)
        self.cards = [card for text in cards for card in text.split()]
        self.deck = list(deck)
        self.left = list(deck)

    def randbelow(self, n: int) -> int:
        if n == len(self.deck):  # a round's first card: a whole deck again
            self.left = list(self.deck)
        assert n == len(self.left)  # the round's deck, as the table deals it
        card = self.cards.pop(0)
        index = self.left.index(card)
        self.left.remove(card)
        return index


def replayed(game: str, record: dict[str, Any], kind: type[S] = State) -> S:  # type: ignore[assignment]
    """The engine's own round from the record's moves: what the wallet must show."""
    state: State = GAMES[game].new_state(Seats(1))
    for move in record["history"]:
        state = state.apply(move["text"]).state
    assert isinstance(state, kind)
    return state


def whole(engine: Engine) -> None:
    """The ledger balances, the audit chain verifies and every bet row reconciles."""
    with transaction(engine) as s:
        assert check(s).ok and verify_audit(s).ok and reconcile_bets(s).ok


def house(engine: Engine) -> int:
    """The house's bank account."""
    with transaction(engine) as s:
        return balance(s, "house:bank")
