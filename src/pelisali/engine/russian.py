"""Russian Poker under the engine contract: the ante, one draw (an exchange or a sixth card)
for one ante, the bet, two combinations paid, and a game bought for the dealer.

Standard rules (RAY 2016 1.4.1.2.5 and 4.4.1.2.2 name the game; its text is not in the
rulebook as extracted; :mod:`pelisali.games.russian_poker` holds the hands, the
combinations and the strategy). A round: every seat places an ante and says it is done.
The cards are chance nodes, one at a time from the one deck: five to each box with an
ante, in seat order, then five to the dealer, the last face up. Each box in turn may draw
once for one ante paid to the house (a bet on ``exchange`` or ``sixth`` never returned):
``exchange 7h 2c`` (the rule data's least to five cards, replaced by the next cards) or
``sixth`` (the next card, the box then playing its best five of six). The box then
folds, losing its ante, or bets 2 times the ante (``raise``, its spot ``raise``). The
dealer's cards are turned. If the dealer does not qualify and the rules let boxes buy a
game, each box that bet, in seat order, takes its ante paid 1:1 (``take``) or buys the
dealer a game for one ante (``buy``, a bet on ``buy`` never returned); if any box bought,
the dealer's highest card is put away for the next card of the deck (drawn again while of
the rank put away), and the boxes that bought play against the new hand, those that took
against the first. Every bet is then settled.

>>> from pelisali.engine import Seats
>>> state = RussianEngine().new_state(Seats(1))
>>> for move in ["bet ante 1000", "done", "Kc", "Kd", "Ah", "9s", "2d",
...              "Ac", "Kh", "5d", "4s", "2c", "raise"]:
...     state = state.apply(move).state
>>> state.is_terminal(), state.returns()  # the bet 2:1 (a pair and A-K), the ante pushing
(True, (4000,))
>>> state = RussianEngine().new_state(Seats(1))
>>> for move in ["bet ante 1000", "done", "7c", "7d", "7h", "9s", "2d",
...              "Qc", "Jd", "9c", "4h", "3c", "raise", "buy", "Jh"]:
...     state = state.apply(move).state
>>> state.returns()  # bought for 1,000: J-J qualifies, trips win: the bet 3:1
(5000,)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, ClassVar

from pelisali.cards import DECK, RANKS
from pelisali.engine.contract import CHANCE, Action, Event, Game, IllegalMove, Move, Seats, Step
from pelisali.engine.oasis import (
    Exchange,
    OasisBet,
    OasisEngine,
    OasisSettlement,
    OasisState,
    Raise,
)
from pelisali.engine.one_deck import Fold, Settings, house_seats, others_cards, table_name
from pelisali.games.russian_poker import hand_name, paid_combinations, qualifier, value
from pelisali.money import format_cents
from pelisali.rules.russian import RussianRules, load_russian

HAND = 5
"""Cards in a hand as dealt, the box's and the dealer's."""
FEES = ("exchange", "sixth", "buy")
"""The bets that are prices paid to the house: never returned."""


@dataclass(frozen=True)
class Sixth:
    """The box buys a sixth card for one ante."""

    def text(self) -> str:
        return "sixth"


@dataclass(frozen=True)
class BuyGame:
    """The dealer did not qualify: the box buys the dealer a game for one ante."""

    def text(self) -> str:
        return "buy"


@dataclass(frozen=True)
class TakeAnte:
    """The dealer did not qualify: the box takes its ante paid 1:1 (the bet pushes)."""

    def text(self) -> str:
        return "take"


class RussianEngine(OasisEngine):
    """Russian Poker with its pay table (a hall's by name, as ``--set pays=`` gives it) and
    the rule data's draw, bought game and limits.

    >>> RussianEngine().rules.pays["ace_king"], RussianEngine.max_seats
    (1, 4)
    """

    family: ClassVar[str] = "russian-poker"
    # 4 boxes x (5 cards + 5 exchanged) + the dealer's 5 leave 7 for a bought game's draws
    # (at most 4: the card, and the 3 others of the rank put away)
    max_seats = 4
    game_name = "Russian Poker"
    setting_args: ClassVar[Settings] = {"pays": table_name}
    load_rules = staticmethod(load_russian)  # type: ignore[assignment]
    rules: RussianRules  # type: ignore[assignment]

    def new_state(self, seats: Seats) -> RussianState:
        count = house_seats(self, seats)
        return RussianState(self, count, DECK, done=(False,) * count, boxes=((),) * count,
                            discards=((),) * count, decisions=(None,) * count,
                            draws=(None,) * count, buys=(None,) * count)


@dataclass(frozen=True)
class RussianState(OasisState):
    """A round: as Oasis Stud Poker's, with each box's draw (``exchange`` or ``sixth``),
    each box's answer to a dealer who does not qualify (``buy`` or ``take``), the
    dealer's first hand once a game is bought (``first_dealer``) and the cards the dealer
    put away (``put_away``)."""

    game: RussianEngine
    draws: tuple[str | None, ...] = ()
    buys: tuple[str | None, ...] = ()
    first_dealer: tuple[str, ...] = ()
    put_away: tuple[str, ...] = ()
    history: tuple[Move, ...] = field(default=())
    actions_hint = ("'bet ante CENTS', 'done', 'exchange CARDS', 'sixth', 'raise', 'fold', "
                    "'buy' or 'take'")
    fee_spots = FEES

    # -- who is in ---------------------------------------------------------------------
    def _size(self, seat: int) -> int:
        return HAND + 1 if self.draws[seat] == "sixth" else HAND

    def _buying(self) -> list[int]:
        """Once every box decided and the dealer does not qualify (where a game may be
        bought): the boxes that bet, still to buy or take."""
        boxes = self._in_play()
        if not self.game.rules.buy_game or not boxes or len(self.dealer) < HAND \
                or any(self.decisions[s] is None for s in boxes) \
                or self.first_dealer or value(self.dealer) >= qualifier():
            return []
        return [s for s in boxes if self.decisions[s] == "raise"]

    def _deciding(self) -> list[int]:
        deciding = [s for s in self._in_play() if self.decisions[s] is None]
        if deciding:
            return deciding
        return [s for s in self._buying() if self.buys[s] is None]

    def _next_card(self) -> int | str | None:
        if len(self.dealer) < HAND:
            if not self.first_dealer:
                for seat in self._in_play():
                    if len(self.boxes[seat]) < HAND:
                        return seat
            return "dealer"
        deciding = [s for s in self._in_play() if self.decisions[s] is None]
        if deciding and len(self.boxes[deciding[0]]) < self._size(deciding[0]):
            return deciding[0]
        return None

    def up_card(self) -> str | None:
        """The dealer's face-up card (the last of the first five), once dealt."""
        first = self.first_dealer or self.dealer
        return first[-1] if len(first) == HAND else None

    def _turned(self) -> bool:
        """Whether the dealer's cards are turned: every box decided, or the round over."""
        return bool(self.settlements) or bool(self.first_dealer) or bool(
            self.boxes and self._in_play()
            and all(self.decisions[s] is not None for s in self._in_play()))

    # -- what may happen ---------------------------------------------------------------
    def _must_raise(self, seat: int) -> bool:
        return False

    def _decisions(self, seat: int) -> tuple[Action, ...]:
        if self.decisions[seat] == "raise":
            return (TakeAnte(), BuyGame())
        if self.draws[seat]:
            return (Fold(), Raise())
        hand = self.boxes[seat]
        rules = self.game.rules
        out: list[Action] = [Fold(), Raise()]
        if rules.sixth_card:
            out.append(Sixth())
        out.extend(Exchange(cards) for size in range(rules.exchange_least, HAND + 1)
                   for cards in combinations(hand, size))
        return tuple(out)

    def _parse_decision(self, words: list[str]) -> Action | None:
        if words == ["sixth"]:
            return Sixth()
        if words == ["buy"]:
            return BuyGame()
        if words == ["take"]:
            return TakeAnte()
        return super()._parse_decision(words)

    def _check_action(self, action: Action) -> None:
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            raise IllegalMove("no seat is to act")
        buying = mover in self._buying()
        if isinstance(action, BuyGame | TakeAnte) or buying:
            if not buying:
                raise IllegalMove(f"a box may {action.text()} when the dealer does not "
                                  "qualify, once every box has bet or folded")
            if not isinstance(action, BuyGame | TakeAnte):
                raise IllegalMove("the dealer does not qualify: 'take' the ante paid 1:1 "
                                  "or 'buy' the dealer a game for one ante")
            return
        if isinstance(action, Sixth):
            if not all(self.done):
                raise IllegalMove("a box may buy a sixth card once its cards are dealt; "
                                  "now: 'bet ante CENTS' or 'done'")
            if not self.game.rules.sixth_card:
                raise IllegalMove("these rules sell no sixth card")
            if self.draws[mover]:
                raise IllegalMove(f"seat {mover} has drawn; a box draws once")
            return
        super()._check_action(action)

    def _check_exchange(self, seat: int, action: Exchange) -> None:
        if self.draws[seat]:
            raise IllegalMove(f"seat {seat} has drawn; a box draws once")
        least = self.game.rules.exchange_least
        if isinstance(action.cards, tuple) and not least <= len(action.cards) <= HAND:
            raise IllegalMove(f"a box exchanges {least} to {HAND} cards, not "
                              f"{len(action.cards)}")
        super()._check_exchange(seat, action)

    def _decide(self, mover: int, action: Action, history: tuple[Move, ...]) -> Step:
        if isinstance(action, Exchange):
            step = self._exchange(mover, action, history)
            state: RussianState = step.state  # type: ignore[assignment]
            drawn = replace(state, draws=self._with(self.draws, mover, "exchange"))
            return Step(drawn, step.events)
        if isinstance(action, Sixth):
            return self._buy_sixth(mover, history)
        if isinstance(action, BuyGame | TakeAnte):
            return self._answer(mover, action, history)
        return super()._decide(mover, action, history)

    @staticmethod
    def _with(values: tuple[Any, ...], seat: int, new: Any) -> tuple[Any, ...]:
        return tuple(new if i == seat else v for i, v in enumerate(values))

    def _price(self, seat: int, spot: str, antes: int) -> OasisBet:
        stake = antes * self._stake(seat, "ante")
        return OasisBet(len(self.bets) + 1, seat, spot, stake)

    def _buy_sixth(self, mover: int, history: tuple[Move, ...]) -> Step:
        bet = self._price(mover, "sixth", self.game.rules.draw_price)
        state = replace(self, bets=(*self.bets, bet) if bet.stake else self.bets,
                        draws=self._with(self.draws, mover, "sixth"), history=history)
        return Step(state, (Event("sixth", f"seat {mover} buys a sixth card: "
                                           f"{format_cents(bet.stake)}", (mover,)),))

    def _answer(self, mover: int, action: Action, history: tuple[Move, ...]) -> Step:
        state = replace(self, buys=self._with(self.buys, mover, action.text()),
                        history=history)
        if isinstance(action, BuyGame):
            bet = self._price(mover, "buy", self.game.rules.buy_price)
            state = replace(state, bets=(*self.bets, bet) if bet.stake else self.bets)
            event = Event("buy", f"seat {mover} buys the dealer a game: "
                                 f"{format_cents(bet.stake)}", (mover,))
        else:
            event = Event("take", f"seat {mover} takes the ante", (mover,))
        if state._deciding() or "buy" not in state.buys:
            return state._step(event)
        highest = max(self.dealer, key=lambda c: RANKS.index(c[0]))
        state = replace(state, first_dealer=self.dealer,
                        dealer=tuple(c for c in self.dealer if c != highest),
                        put_away=(highest,))
        return state._step(event, Event("put-away", f"the dealer puts away {highest}"))

    def _deal(self, card: str, history: tuple[Move, ...]) -> Step:
        """As one deck's, but a bought game's card of the rank put away is put away too
        (where the rules say so) and the dealer draws again."""
        if not self.first_dealer:
            return super()._deal(card, history)
        if self._next_card() != "dealer" or card not in self.deck:
            raise IllegalMove(f"{card!r} cannot come up now")
        deck = tuple(c for c in self.deck if c != card)
        if self.game.rules.redraw_same_rank and card[0] == self.put_away[0][0]:
            state = replace(self, deck=deck, put_away=(*self.put_away, card),
                            history=history)
            return state._step(Event("put-away", f"{card} to the dealer, of the rank put "
                                                 "away: put away, the dealer draws again"))
        state = replace(self, deck=deck, dealer=(*self.dealer, card), history=history)
        return state._step(Event("card", f"{card} to the dealer's bought game"))

    def _step(self, *events: Event) -> Step:
        """As every round's step; the step that leaves boxes to answer a dealer who does
        not qualify tells everyone the dealer's cards."""
        buying = self._buying()
        if buying and all(self.buys[s] is None for s in buying):
            events = (*events, Event("dealer", f"dealer {' '.join(self.dealer)} "
                                               f"({hand_name(self.dealer).replace('_', ' ')}"
                                               ", does not qualify): 'take' the ante or "
                                               "'buy' a game"))
        return super()._step(*events)

    # -- the showdown --------------------------------------------------------------------
    def _settle(self) -> tuple[RussianState, list[Event]]:
        first = self.first_dealer or self.dealer
        qualified = value(first) >= qualifier()

        def settle(bet: OasisBet) -> OasisSettlement:
            return OasisSettlement(bet.bet_id, bet.seat, bet.spot, bet.stake,
                                   *self._bet_return(bet, qualified))

        shown = [Event("dealer", f"dealer {' '.join(first)} "
                                 f"({hand_name(first).replace('_', ' ')}"
                                 f"{'' if qualified else ', does not qualify'})")]
        if self.first_dealer:
            bought = value(self.dealer) >= qualifier()
            shown.append(Event("dealer", f"the dealer's bought game {' '.join(self.dealer)} "
                                         f"({hand_name(self.dealer).replace('_', ' ')}"
                                         f"{'' if bought else ', does not qualify'})"))
        state, events = self._settled(settle, *shown)
        return state, events

    def _bet_return(self, bet: OasisBet, qualified: bool) -> tuple[int, str]:
        """(paid back, result) of one bet: a price is never returned; a box that bought a
        game is settled against the dealer's new hand, the others against the first."""
        if bet.spot in FEES:
            return 0, {"exchange": "fee, the exchange's price", "sixth": "fee, the sixth card's "
                       "price", "buy": "fee, the dealer's game's price"}[bet.spot]
        if self.decisions[bet.seat] == "fold":
            return 0, "fold"
        dealer = self.dealer if self.buys[bet.seat] == "buy" else \
            (self.first_dealer or self.dealer)
        if self.buys[bet.seat] == "buy":
            qualified = value(dealer) >= qualifier()
        if not qualified:
            return ((2 * bet.stake, "win, the dealer does not qualify") if bet.spot == "ante"
                    else (bet.stake, "push, the dealer does not qualify"))
        mine, theirs = value(self.boxes[bet.seat]), value(dealer)
        if mine < theirs:
            return 0, "lose"
        if mine == theirs:
            return bet.stake, "push"
        if bet.spot == "ante":
            return ((2 * bet.stake, "win") if self.game.rules.ante_on_win
                    else (bet.stake, "push, the bet alone is paid"))
        paid = paid_combinations(self.boxes[bet.seat], self.game.rules)
        odds = sum(self.game.rules.pays[name] for name in paid)
        words = " and ".join(f"{name.replace('_', ' ')} {self.game.rules.pays[name]}:1"
                             for name in paid)
        return bet.stake * (1 + odds), f"win, {words}"

    # -- what a seat sees and what it came to -----------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """As Oasis Stud Poker's, with each box's draw and answer, the dealer's cards once
        every box decided, the dealer's first hand and the cards put away once a game is
        bought (and whether the bought game qualifies); a seat also sees the combinations
        its cards would be paid for."""
        out = super().view(seat)
        turned = self._turned()
        first = self.first_dealer or self.dealer
        out.update({
            "dealer": list(self.dealer) if turned else [],
            "dealer_first": list(first) if turned else [],
            "dealer_first_hand": hand_name(first) if turned else None,
            "dealer_hand": hand_name(self.dealer) if turned and len(self.dealer) == HAND
            else None,
            "dealer_qualifies": value(first) >= qualifier() if turned else None,
            "put_away": list(self.put_away),
            "bought_qualifies": value(self.dealer) >= qualifier()
            if self.first_dealer and len(self.dealer) == HAND else None,
            "draws": list(self.draws),
            "buys": list(self.buys),
        })
        if seat is not None:
            cards = self.boxes[seat]
            full = len(cards) == self._size(seat)
            out["hand"] = hand_name(cards) if full and len(cards) >= HAND else None
            out["combinations"] = list(paid_combinations(cards, self.game.rules)) \
                if full and len(cards) >= HAND else []
        return out

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The deck left; the cards other boxes exchanged; until the dealer's cards are
        turned, the dealer's four face-down cards; until the round is settled, the other
        boxes' cards."""
        hidden = set(self.deck) | others_cards(self.discards, seat)
        if not self._turned():
            hidden |= set(self.dealer[:HAND - 1])
        if not self.settlements:
            hidden |= others_cards(self.boxes, seat)
        return frozenset(hidden)


def russian_engines() -> dict[str, Game]:
    """Russian Poker with the rule data's tables.

    >>> list(russian_engines())
    ['russian-poker']
    """
    return {"russian-poker": RussianEngine()}
