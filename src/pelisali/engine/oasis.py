"""Oasis Stud Poker under the engine contract: the ante, one exchange of cards for a fee,
and the raise.

Standard rules (RAY 2016 1.4.1.2 names the game; its text is not in the rulebook as
extracted; :mod:`pelisali.games.oasis_stud` holds the hands, the strategy and the
returns). A round: every seat places an ante (:class:`~pelisali.engine.wager.PlaceBet`
on ``ante``) and says it is done. The cards are chance nodes, one at a time from the one
deck: five to each box with an ante, in seat order, then five to the dealer, the last
face up. Each box in turn, in seat order, may exchange one to five of its cards once
(``exchange 7h 2c``), paying the fee table's multiple of the ante to the house (a bet on
``exchange`` that is never returned); the replacements are the next cards of the deck,
chance nodes again. The box then folds, losing its ante, or raises 2 times the ante; a
box that exchanged all five must raise. The dealer's cards are turned and every bet
settled. A seat sees its own cards and the dealer's up card; the dealer's other four at
the end.

>>> from pelisali.engine import Seats
>>> state = OasisEngine().new_state(Seats(1))
>>> for move in ["bet ante 1000", "done", "Kc", "Kd", "7h", "9s", "2d",
...              "Ac", "Kh", "5d", "4s", "2c", "raise"]:
...     state = state.apply(move).state
>>> state.is_terminal(), state.returns()  # the ante 1:1, the raise 1:1 on a pair
(True, (3000,))
>>> state = OasisEngine().new_state(Seats(1))
>>> for move in ["bet ante 1000", "done", "Ah", "Kh", "7h", "2h", "9d",
...              "Qc", "Jd", "9c", "4h", "3c", "exchange 9d", "5h", "raise"]:
...     state = state.apply(move).state
>>> state.returns()  # fee 1,000; the dealer does not qualify: ante 1:1, the raise pushes
(0,)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, ClassVar

from pelisali.cards import DECK, CardError, parse_card
from pelisali.engine.contract import CHANCE, Action, Event, Game, IllegalMove, Move, Seats, Step
from pelisali.engine.one_deck import (
    BankedEngine,
    OneDeckRound,
    Settings,
    house_seats,
    others_cards,
    table_name,
)
from pelisali.engine.one_deck import Fold as Fold
from pelisali.games.oasis_stud import hand_name, pay_hand, qualifier, value
from pelisali.money import format_cents
from pelisali.rules.oasis import OasisRules, load_oasis

SPOTS = ("ante",)
"""The bet a seat places before the deal; the raise and the exchange's fee come after."""
HAND = 5
"""Cards in a hand, the box's and the dealer's."""


@dataclass(frozen=True)
class Exchange:
    """The box exchanges ``cards`` (one to five of its own) for as many from the deck, for
    the fee table's multiple of its ante."""

    cards: tuple[str, ...]

    def text(self) -> str:
        return "exchange " + " ".join(self.cards)


@dataclass(frozen=True)
class Raise:
    """The box raises: a bet of 2 times its ante."""

    def text(self) -> str:
        return "raise"


@dataclass(frozen=True)
class OasisBet:
    """A bet of a round: ``spot`` is ``ante``, ``raise`` or ``exchange`` (the fee, paid to
    the house: it is settled with nothing back)."""

    bet_id: int
    seat: int
    spot: str
    stake: int


@dataclass(frozen=True)
class OasisSettlement:
    """How a bet ended: ``paid`` whole cents back (stake included) and ``result`` (``win``,
    ``lose``, ``push``, ``fold``, ``fee``; the raise's hand and odds named in a win)."""

    bet_id: int
    seat: int
    spot: str
    stake: int
    paid: int
    result: str


class OasisEngine(BankedEngine):
    """Oasis Stud Poker with its fee table, raise pay table (a hall's by name, as ``--set``
    gives them) and limits.

    >>> OasisEngine.from_settings({"fees": "per-card"}).rules.fees
    (1, 2, 3, 4, 5)
    """

    family: ClassVar[str] = "oasis-stud"
    max_seats = 4  # 4 boxes x (5 cards + 5 exchanged) + the dealer's 5: the one deck suffices
    game_name = "Oasis Stud Poker"
    spots = SPOTS
    setting_args: ClassVar[Settings] = {"fees": table_name, "pays": table_name}
    load_rules = staticmethod(load_oasis)
    rules: OasisRules

    def new_state(self, seats: Seats) -> OasisState:
        count = house_seats(self, seats)
        return OasisState(self, count, DECK, done=(False,) * count, boxes=((),) * count,
                          discards=((),) * count, decisions=(None,) * count)


@dataclass(frozen=True)
class OasisState(OneDeckRound):
    """A round: the bets, the cards left, each box's cards, the dealer's, the cards each box
    exchanged (``discards``), each box's decision (``raise`` or ``fold``) and then the
    settlements."""

    game: OasisEngine
    seats: int
    deck: tuple[str, ...]  # the cards not yet dealt, in deck order
    bets: tuple[OasisBet, ...] = ()
    done: tuple[bool, ...] = ()
    boxes: tuple[tuple[str, ...], ...] = ()
    dealer: tuple[str, ...] = ()
    discards: tuple[tuple[str, ...], ...] = ()
    decisions: tuple[str | None, ...] = ()
    settlements: tuple[OasisSettlement, ...] = ()
    history: tuple[Move, ...] = field(default=())
    bet_type = OasisBet
    actions_hint = "'bet ante CENTS', 'done', 'exchange CARDS', 'raise' or 'fold'"
    fee_spots: ClassVar[tuple[str, ...]] = ("exchange",)
    """The bets that are fees paid to the house once paid, never on the table."""

    # -- who is in ---------------------------------------------------------------------
    def _deciding(self) -> list[int]:
        """The boxes still to raise or fold, in seat order."""
        return [s for s in self._in_play() if self.decisions[s] is None]

    def _next_card(self) -> int | str | None:
        """Where the next card goes: a box's seat, ``dealer``, or ``None``. The first deal
        fills the boxes, then the dealer; afterwards only the box deciding draws, to
        replace the cards it exchanged."""
        if len(self.dealer) < HAND:
            for seat in self._in_play():
                if len(self.boxes[seat]) < HAND:
                    return seat
            return "dealer"
        deciding = self._deciding()
        if deciding and len(self.boxes[deciding[0]]) < HAND:
            return deciding[0]
        return None

    def up_card(self) -> str | None:
        """The dealer's face-up card (the last of the five), once dealt."""
        return self.dealer[-1] if len(self.dealer) == HAND else None

    # -- what may happen ---------------------------------------------------------------
    def _must_raise(self, seat: int) -> bool:
        return self.game.rules.five_must_raise and len(self.discards[seat]) == HAND

    def _decisions(self, seat: int) -> tuple[Action, ...]:
        if self._must_raise(seat):
            return (Raise(),)
        if self.discards[seat]:
            return (Fold(), Raise())
        hand = self.boxes[seat]
        exchanges = [Exchange(cards) for size in range(1, HAND + 1)
                     for cards in combinations(hand, size)]
        return (Fold(), Raise(), *exchanges)

    def _parse_decision(self, words: list[str]) -> Action | None:
        if words == ["raise"]:
            return Raise()
        if words and words[0] == "exchange":
            if len(words) == 1:
                raise IllegalMove("name the cards to exchange: 'exchange 7h 2c'")
            try:
                return Exchange(tuple(parse_card(w) for w in words[1:]))
            except CardError as exc:
                raise IllegalMove(str(exc)) from None
        return None

    def _check_action(self, action: Action) -> None:
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            raise IllegalMove("no seat is to act")
        if isinstance(action, Exchange | Raise | Fold):
            if not all(self.done):
                raise IllegalMove(f"a box may {action.text().split()[0]} once its cards "
                                  "are dealt; now: 'bet ante CENTS' or 'done'")
            if isinstance(action, Exchange):
                self._check_exchange(mover, action)
            elif isinstance(action, Fold) and self._must_raise(mover):
                raise IllegalMove("a box that exchanged all five cards must raise; it may "
                                  "not fold")
            return
        if all(self.done):
            raise IllegalMove("no more bets: " + ", ".join(
                a.text() for a in self._decisions(mover)[:2]) + " or exchange")
        self._check_bet(action)

    def _check_exchange(self, seat: int, action: Exchange) -> None:
        if self.discards[seat]:
            raise IllegalMove(f"seat {seat} has exchanged its cards; a box exchanges once")
        cards = action.cards
        if not isinstance(cards, tuple) or not 1 <= len(cards) <= HAND:
            raise IllegalMove(f"a box exchanges 1 to {HAND} cards, not {len(cards)}")
        hand = self.boxes[seat]
        for number, card in enumerate(cards):
            if card in cards[:number]:
                raise IllegalMove(f"{card} is named twice; each card is exchanged once")
            if card not in hand:
                raise IllegalMove(f"{card!s} is not in seat {seat}'s hand "
                                  f"({' '.join(hand)})")

    def _exchange(self, mover: int, action: Exchange, history: tuple[Move, ...]) -> Step:
        count = len(action.cards)
        fee = self.game.rules.fee(count, self._stake(mover, "ante"))
        bets = self.bets
        if fee:
            bets = (*bets, OasisBet(len(bets) + 1, mover, "exchange", fee))
        boxes = tuple(tuple(c for c in cards if c not in action.cards) if i == mover
                      else cards for i, cards in enumerate(self.boxes))
        discards = tuple(action.cards if i == mover else d for i, d in enumerate(self.discards))
        state = replace(self, bets=bets, boxes=boxes, discards=discards, history=history)
        words = "a card" if count == 1 else f"{count} cards"
        return Step(state, (
            Event("exchange", f"seat {mover} exchanges {words}: fee {format_cents(fee)}",
                  (mover,)),
            Event("discard", f"seat {mover} discards {' '.join(action.cards)}", (mover,),
                  private=True)))

    def _decide(self, mover: int, action: Action, history: tuple[Move, ...]) -> Step:
        if isinstance(action, Exchange):
            return self._exchange(mover, action, history)
        decisions = tuple(action.text() if i == mover else d
                          for i, d in enumerate(self.decisions))
        state = replace(self, decisions=decisions, history=history)
        if isinstance(action, Raise):
            stake = self.game.rules.raise_multiple * self._stake(mover, "ante")
            state = replace(state, bets=(*self.bets, OasisBet(len(self.bets) + 1, mover,
                                                              "raise", stake)))
            event = Event("raise", f"seat {mover} raises: {format_cents(stake)}", (mover,))
        else:
            event = Event("fold", f"seat {mover} folds", (mover,))
        return state._step(event)

    def _dealer_card(self, card: str, number: int) -> str:
        return f"{card} to the dealer, face up" if number == HAND \
            else "a card to the dealer, face down"

    # -- the showdown --------------------------------------------------------------------
    def _settle(self) -> tuple[OasisState, list[Event]]:
        qualified = value(self.dealer) >= qualifier()

        def settle(bet: OasisBet) -> OasisSettlement:
            return OasisSettlement(bet.bet_id, bet.seat, bet.spot, bet.stake,
                                   *self._bet_return(bet, qualified))

        shown = Event("dealer", f"dealer {' '.join(self.dealer)} "
                                f"({hand_name(self.dealer).replace('_', ' ')}"
                                f"{'' if qualified else ', does not qualify'})")
        return self._settled(settle, shown)

    def _bet_return(self, bet: OasisBet, qualified: bool) -> tuple[int, str]:
        """(paid back, result) of one bet: the shares of
        :func:`~pelisali.games.oasis_stud.raise_return` bet by bet, and the fee."""
        if bet.spot == "exchange":
            count = len(self.discards[bet.seat])
            return 0, f"fee for {'a card' if count == 1 else f'{count} cards'}"
        if self.decisions[bet.seat] == "fold":
            return 0, "fold"
        if not qualified:
            return ((2 * bet.stake, "win, the dealer does not qualify") if bet.spot == "ante"
                    else (bet.stake, "push, the dealer does not qualify"))
        mine, theirs = value(self.boxes[bet.seat]), value(self.dealer)
        if mine < theirs:
            return 0, "lose"
        if mine == theirs:
            return bet.stake, "push"
        if bet.spot == "ante":
            return 2 * bet.stake, "win"
        hand = pay_hand(self.boxes[bet.seat])
        odds = self.game.rules.pays[hand]
        return bet.stake * (1 + odds), f"win, {hand.replace('_', ' ')} {odds}:1"

    # -- what a seat sees and what it came to -----------------------------------------
    def accounts(self) -> Mapping[str, int]:
        """As every one-deck round's, but a fee is the house's once paid: only the ante and
        the raise wait on the table."""
        out = {f"seat {i}": r for i, r in enumerate(self.returns())}
        out["table"] = 0 if self.settlements else sum(b.stake for b in self.bets
                                                      if b.spot not in self.fee_spots)
        out["house"] = -sum(out.values())
        return out

    def view(self, seat: int | None) -> dict[str, Any]:
        """Public: who is to move, the dealer's up card, how many cards each box exchanged,
        each box's decision, the total staked and the fees; the dealer's cards at the end,
        and every box's. A seat also sees its own cards, hand, the cards it exchanged, its
        bets and settlements."""
        mover = self.to_move()
        over = bool(self.settlements)
        out: dict[str, Any] = {
            "game": self.game.game_id,
            "to_move": "chance" if mover == CHANCE else mover,
            "dealer": list(self.dealer) if over else [],
            "dealer_up": self.up_card(),
            "dealer_cards": len(self.dealer),
            "dealer_hand": hand_name(self.dealer) if over else None,
            "dealer_qualifies": value(self.dealer) >= qualifier() if over else None,
            "exchanged": [len(d) for d in self.discards],
            "decisions": list(self.decisions),
            "on_table": sum(b.stake for b in self.bets if b.spot not in self.fee_spots),
            "fees": sum(b.stake for b in self.bets if b.spot in self.fee_spots),
        }
        if over:
            out["boxes"] = {str(s): list(self.boxes[s]) for s in self._in_play()}
        if seat is not None:
            cards = self.boxes[seat]
            out["cards"] = list(cards)
            out["hand"] = hand_name(cards) if len(cards) == HAND else None
            out["discarded"] = list(self.discards[seat])
            out.update(self._seat_view(seat))
        return out

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The deck left; the cards other boxes exchanged; until the round is settled, the
        dealer's four face-down cards and the other boxes' cards."""
        hidden = set(self.deck) | others_cards(self.discards, seat)
        if not self.settlements:
            hidden |= set(self.dealer[:HAND - 1]) | others_cards(self.boxes, seat)
        return frozenset(hidden)


def oasis_engines() -> dict[str, Game]:
    """Oasis Stud Poker with the rule data's tables.

    >>> list(oasis_engines())
    ['oasis-stud']
    """
    return {"oasis-stud": OasisEngine()}
