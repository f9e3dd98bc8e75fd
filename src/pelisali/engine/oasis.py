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
from pelisali.engine.contract import (
    CHANCE,
    Action,
    ChanceOutcome,
    Event,
    Game,
    IllegalMove,
    Move,
    Seats,
    Step,
)
from pelisali.engine.one_deck import OneDeckRound
from pelisali.engine.wager import EndBetting, PlaceBet
from pelisali.games.oasis_stud import hand_name, pay_hand, qualifier, value
from pelisali.games.round import Limits
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
class Fold:
    """The box folds: its ante is lost (a fee paid stays paid)."""

    def text(self) -> str:
        return "fold"


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


class OasisEngine(Game):
    """Oasis Stud Poker with its fee table, raise pay table and limits.

    >>> OasisEngine.from_settings({"fees": "per-card"}).rules.fees
    (1, 2, 3, 4, 5)
    """

    family: ClassVar[str] = "oasis-stud"
    max_seats = 4  # 4 boxes x (5 cards + 5 exchanged) + the dealer's 5: the one deck suffices

    def __init__(self, game_id: str = "oasis-stud", rules: OasisRules | None = None,
                 limits: Limits | None = None) -> None:
        self.game_id = game_id
        self.rules = rules or load_oasis()
        self.limits = limits or Limits(*self.rules.limits)

    @classmethod
    def from_settings(cls, settings: Mapping[str, str | bool] | None = None,
                      game_id: str = "oasis-stud") -> OasisEngine:
        """The game with a hall's fee table and raise pay table (``fees``, ``pays``), as
        ``--set`` gives them; an unknown setting or table is an :class:`IllegalMove`."""
        from pelisali.rules.loader import RuleDataError

        chosen = dict(settings or {})
        unknown = set(chosen) - {"fees", "pays"}
        if unknown:
            raise IllegalMove(f"Oasis Stud Poker has no setting {sorted(unknown)[0]!r}; "
                              "settings: fees, pays")
        try:
            rules = load_oasis(str(chosen.get("fees") or "") or None,
                               str(chosen.get("pays") or "") or None)
        except RuleDataError as exc:
            raise IllegalMove(str(exc)) from None
        return cls(game_id, rules)

    def title(self) -> str:
        return "Oasis Stud Poker"

    def new_state(self, seats: Seats) -> OasisState:
        self.check_seats(seats)
        if seats.stacks:
            raise IllegalMove(f"{self.game_id} is played against the house; seats bring no chips")
        count = seats.count
        return OasisState(self, count, DECK, done=(False,) * count, boxes=((),) * count,
                          discards=((),) * count, decisions=(None,) * count)

    def spot(self, text: str) -> str:
        """The bet named ``text``; :class:`IllegalMove` if there is none such."""
        key = text.strip().lower()
        if key not in SPOTS:
            raise IllegalMove(f"Oasis Stud Poker has no bet {text!r} before the deal; "
                              f"bets: {', '.join(SPOTS)}")
        return key


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

    # -- who is in ---------------------------------------------------------------------
    def _deciding(self) -> list[int]:
        """The boxes still to raise or fold, in seat order."""
        return [s for s in self._in_play() if self.decisions[s] is None]

    def _next_card(self) -> int | None:
        """Where the next card goes: a box's seat, ``-1`` for the dealer, or ``None``. The
        first deal fills the boxes, then the dealer; afterwards only the box deciding
        draws, to replace the cards it exchanged."""
        if len(self.dealer) < HAND:
            for seat in self._in_play():
                if len(self.boxes[seat]) < HAND:
                    return seat
            return -1
        deciding = self._deciding()
        if deciding and len(self.boxes[deciding[0]]) < HAND:
            return deciding[0]
        return None

    def up_card(self) -> str | None:
        """The dealer's face-up card (the last of the five), once dealt."""
        return self.dealer[-1] if len(self.dealer) == HAND else None

    # -- who moves ---------------------------------------------------------------------
    def to_move(self) -> int | None:
        if not all(self.done):
            return self.done.index(False)
        if not self.bets or self.settlements:
            return None
        if self._next_card() is not None:
            return CHANCE
        deciding = self._deciding()
        return deciding[0] if deciding else None

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

    def legal_actions(self) -> tuple[Action, ...]:
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            return ()
        if all(self.done):
            return self._decisions(mover)
        out = self.betting_actions(mover, SPOTS)
        out.append(EndBetting())
        return tuple(out)

    def parse_action(self, text: str) -> Action:
        words = text.split()
        if words == ["done"]:
            return EndBetting()
        if words == ["raise"]:
            return Raise()
        if words == ["fold"]:
            return Fold()
        if words and words[0] == "exchange":
            if len(words) == 1:
                raise IllegalMove("name the cards to exchange: 'exchange 7h 2c'")
            try:
                return Exchange(tuple(parse_card(w) for w in words[1:]))
            except CardError as exc:
                raise IllegalMove(str(exc)) from None
        if len(words) == 3 and words[0] == "bet":
            if not words[2].isdigit():
                raise IllegalMove(f"a stake is a whole number of cents, not {words[2]!r}")
            return PlaceBet(self.game.spot(words[1]), int(words[2]))
        raise IllegalMove(f"{text!r} is not an action here: 'bet ante CENTS', 'done', "
                          "'exchange CARDS', 'raise' or 'fold'")

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
        if isinstance(action, EndBetting):
            return
        if not isinstance(action, PlaceBet):
            raise IllegalMove(f"{action.text()!r} is not an action of Oasis Stud Poker")
        self._accept(action)

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

    def _apply(self, action: Action) -> Step:
        mover = self.to_move()
        if mover is None:
            raise IllegalMove("the round is over; nothing more can happen")
        history = (*self.history, Move(mover, action))
        if isinstance(action, ChanceOutcome):
            return self._deal(action.label, history)
        if isinstance(action, PlaceBet):
            accepted, returned = self._accept(action)
            bet = OasisBet(len(self.bets) + 1, mover, self.game.spot(action.spot), accepted)
            text = f"seat {mover}: {format_cents(accepted)} on {bet.spot}"
            if returned:
                text += f"; {format_cents(returned)} over the table maximum is void and returned"
            return Step(replace(self, bets=(*self.bets, bet), history=history),
                        (Event("bet", text, (mover,)),))
        if isinstance(action, EndBetting):
            return self._end_betting(mover, history)
        if isinstance(action, Exchange):
            return self._exchange(mover, action, history)
        return self._decide(mover, action, history)

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
        events = [event]
        if state.to_move() is None:
            state, settled = state._settle()
            events += settled
        return Step(state, tuple(events))

    def _deal(self, card: str, history: tuple[Move, ...]) -> Step:
        where = self._next_card()
        if where is None or card not in self.deck:
            raise IllegalMove(f"{card!r} cannot come up now")
        deck = tuple(c for c in self.deck if c != card)
        if where == -1:
            state = replace(self, deck=deck, dealer=(*self.dealer, card), history=history)
            event = Event("card", f"{card} to the dealer, face up"
                          if len(state.dealer) == HAND else "a card to the dealer, face down")
        else:
            boxes = tuple((*cards, card) if i == where else cards
                          for i, cards in enumerate(self.boxes))
            state = replace(self, deck=deck, boxes=boxes, history=history)
            event = Event("card", f"{card} to seat {where}", (where,), private=True)
        events = [event]
        if state.to_move() is None:
            state, settled = state._settle()
            events += settled
        return Step(state, tuple(events))

    # -- the showdown --------------------------------------------------------------------
    def _settle(self) -> tuple[OasisState, list[Event]]:
        qualified = value(self.dealer) >= qualifier()
        events = [Event("dealer", f"dealer {' '.join(self.dealer)} "
                                  f"({hand_name(self.dealer).replace('_', ' ')}"
                                  f"{'' if qualified else ', does not qualify'})")]
        out: list[OasisSettlement] = []
        for bet in self.bets:
            paid, result = self._bet_return(bet, qualified)
            out.append(OasisSettlement(bet.bet_id, bet.seat, bet.spot, bet.stake, paid, result))
            events.append(Event("settled", f"bet {bet.bet_id} on {bet.spot}: {result}, "
                                           f"{format_cents(paid)} back", (bet.seat,),
                                private=True))
        return replace(self, settlements=tuple(out)), events

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
                                                      if b.spot != "exchange")
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
            "on_table": sum(b.stake for b in self.bets if b.spot != "exchange"),
            "fees": sum(b.stake for b in self.bets if b.spot == "exchange"),
        }
        if over:
            out["boxes"] = {str(s): list(self.boxes[s]) for s in self._in_play()}
        if seat is not None:
            cards = self.boxes[seat]
            out["cards"] = list(cards)
            out["hand"] = hand_name(cards) if len(cards) == HAND else None
            out["discarded"] = list(self.discards[seat])
            out["bets"] = [{"bet_id": b.bet_id, "spot": b.spot, "stake": b.stake}
                           for b in self.bets if b.seat == seat]
            out["settlements"] = [{"bet_id": s.bet_id, "spot": s.spot, "stake": s.stake,
                                   "paid": s.paid, "result": s.result}
                                  for s in self.settlements if s.seat == seat]
        return out

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The deck left; the cards other boxes exchanged; until the round is settled, the
        dealer's four face-down cards and the other boxes' cards."""
        hidden = set(self.deck)
        for s, cards in enumerate(self.discards):
            if s != seat:
                hidden |= set(cards)
        if not self.settlements:
            hidden |= set(self.dealer[:HAND - 1])
            for s, cards in enumerate(self.boxes):
                if s != seat:
                    hidden |= set(cards)
        return frozenset(hidden)


def oasis_engines() -> dict[str, Game]:
    """Oasis Stud Poker with the rule data's tables.

    >>> list(oasis_engines())
    ['oasis-stud']
    """
    return {"oasis-stud": OasisEngine()}
