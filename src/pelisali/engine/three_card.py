"""Three Card Poker under the engine contract: ante, play, the ante bonus and Pair Plus.

Standard rules (RAY 2016 1.4.1.2 names the game; its text is not in the rulebook as
extracted; :mod:`pelisali.games.three_card_poker` holds the ranking and the returns).
A round: every seat places an ante, a Pair Plus bet or both
(:class:`~pelisali.engine.wager.PlaceBet` on ``ante`` or ``pair-plus``) and says it is
done; then the cards are chance nodes, one card at a time from the one deck: three to
each box with a bet, in seat order, then three to the dealer, face down. Each box with
an ante then plays (a play bet equal to the ante) or folds, losing the ante and, as the
world's tables have it (rule data ``fold_loses_pair_plus``), its Pair Plus. The dealer's
cards are turned and every bet is settled with the returns the exact odds count
(:func:`~pelisali.games.three_card_poker.ante_play_return`,
:func:`~pelisali.games.three_card_poker.pair_plus_return`): every payout is whole, so no
cent is rounded. A seat sees its own cards and, once every box has decided, the dealer's.

>>> from pelisali.engine import Seats
>>> state = ThreeCardEngine().new_state(Seats(1))
>>> for move in ["bet ante 1000", "bet pair-plus 500", "done",
...              "7s", "8s", "9s", "Kd", "9d", "2h", "play"]:
...     state = state.apply(move).state
>>> state.is_terminal(), state.returns()  # ante 1 + bonus 5, play 1, Pair Plus 40: in cents
(True, (27000,))
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from pelisali.cards import DECK
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
from pelisali.games.three_card_poker import (
    ante_bonus,
    category,
    pair_plus_return,
    qualifies,
    rank_of,
)
from pelisali.money import format_cents
from pelisali.rules.banked import ThreeCardRules, load_three_card_poker

SPOTS = ("ante", "pair-plus")
"""The bets a seat places before the deal; the play bet is made after it."""


@dataclass(frozen=True)
class Play:
    """The box plays on: a play bet equal to its ante."""

    def text(self) -> str:
        return "play"


@dataclass(frozen=True)
class ThreeCardBet:
    """A bet of a round: ``spot`` is ``ante``, ``pair-plus`` or ``play``."""

    bet_id: int
    seat: int
    spot: str
    stake: int


@dataclass(frozen=True)
class ThreeCardSettlement:
    """How a bet ended: ``paid`` whole cents back (stake included) and ``result``
    (``win``, ``lose``, ``push``, ``fold``; an ante's bonus is named in it)."""

    bet_id: int
    seat: int
    spot: str
    stake: int
    paid: int
    result: str


class ThreeCardEngine(BankedEngine):
    """Three Card Poker with its tables (the ante bonus, Pair Plus: a hall's by name, as
    ``--set`` gives them) and limits.

    >>> ThreeCardEngine.from_settings({"pair_plus": "1-3-6-30-40"}).rules.pair_plus["flush"]
    3
    """

    family: ClassVar[str] = "three-card-poker"
    max_seats = 7  # boxes at the table: 7 x 3 + 3 cards, well within one deck
    game_name = "Three Card Poker"
    spots = SPOTS
    setting_args: ClassVar[Settings] = {"ante_bonus": table_name, "pair_plus": table_name}
    load_rules = staticmethod(load_three_card_poker)
    rules: ThreeCardRules

    def new_state(self, seats: Seats) -> ThreeCardState:
        count = house_seats(self, seats)
        return ThreeCardState(self, count, DECK, done=(False,) * count,
                              boxes=((),) * count, decisions=(None,) * count)


@dataclass(frozen=True)
class ThreeCardState(OneDeckRound):
    """A round: the bets, the cards left, each box's cards, the dealer's, the decisions and
    then the settlements."""

    game: ThreeCardEngine
    seats: int
    deck: tuple[str, ...]  # the cards not yet dealt, in deck order
    bets: tuple[ThreeCardBet, ...] = ()
    done: tuple[bool, ...] = ()
    boxes: tuple[tuple[str, ...], ...] = ()
    dealer: tuple[str, ...] = ()
    decisions: tuple[str | None, ...] = ()  # "play" or "fold" for each box with an ante
    settlements: tuple[ThreeCardSettlement, ...] = ()
    history: tuple[Move, ...] = field(default=())
    bet_type = ThreeCardBet
    actions_hint = "'bet ante|pair-plus CENTS', 'done', 'play' or 'fold'"

    # -- who is in ---------------------------------------------------------------------
    def _deciding(self) -> list[int]:
        """The boxes with an ante still to play or fold, in seat order."""
        return [s for s in self._in_play()
                if self._stake(s, "ante") and self.decisions[s] is None]

    def _next_card(self) -> int | str | None:
        """The box (its seat) or the ``dealer`` the next card goes to, or ``None`` when all
        are dealt."""
        for seat in self._in_play():
            if len(self.boxes[seat]) < 3:
                return seat
        return "dealer" if len(self.dealer) < 3 else None

    def revealed(self) -> bool:
        """Whether the dealer's cards are turned: once every box has decided."""
        return len(self.dealer) == 3 and not self._deciding()

    # -- what may happen ---------------------------------------------------------------
    def _decisions(self, seat: int) -> tuple[Action, ...]:
        return (Play(), Fold())

    def _parse_decision(self, words: list[str]) -> Action | None:
        return Play() if words == ["play"] else None

    def _check_action(self, action: Action) -> None:
        if isinstance(action, Play | Fold):
            if not all(self.done):
                raise IllegalMove("a box plays or folds once its cards are dealt")
            return
        if all(self.done):
            raise IllegalMove("no more bets: play or fold")
        self._check_bet(action)

    def _decide(self, mover: int, action: Action, history: tuple[Move, ...]) -> Step:
        if not isinstance(action, Play | Fold):
            raise IllegalMove(f"{action.text()!r} is not an action of Three Card Poker")
        decisions = tuple(action.text() if i == mover else d
                          for i, d in enumerate(self.decisions))
        state = replace(self, decisions=decisions, history=history)
        event = Event(action.text(), f"seat {mover} {action.text()}s", (mover,))
        if isinstance(action, Play):
            ante = self._stake(mover, "ante")
            state = replace(state, bets=(*self.bets,
                                         ThreeCardBet(len(self.bets) + 1, mover, "play", ante)))
            event = Event("play", f"seat {mover} plays: {format_cents(ante)} on play", (mover,))
        return state._step(event)

    def _settle(self) -> tuple[ThreeCardState, list[Event]]:
        rules, dealer = self.game.rules, self.dealer
        qualified = qualifies(dealer)

        def settle(bet: ThreeCardBet) -> ThreeCardSettlement:
            paid, result = self._bet_return(bet, self.boxes[bet.seat], qualified, rules)
            return ThreeCardSettlement(bet.bet_id, bet.seat, bet.spot, bet.stake, paid, result)

        shown = Event("dealer", f"dealer {' '.join(dealer)} ({category(dealer)}"
                                f"{'' if qualified else ', does not qualify'})")
        return self._settled(settle, shown)

    def _bet_return(self, bet: ThreeCardBet, cards: tuple[str, ...], qualified: bool,
                    rules: ThreeCardRules) -> tuple[int, str]:
        """(paid back, result) of one bet: the sums of
        :func:`~pelisali.games.three_card_poker.ante_play_return` split bet by bet."""
        folded = self.decisions[bet.seat] == "fold"
        if bet.spot == "pair-plus":
            if folded and rules.fold_loses_pair_plus:
                return 0, "fold"
            net = pair_plus_return(cards, rules)
            return (bet.stake * (1 + net), "win" if net > 0 else "lose")
        if folded:
            return 0, "fold"
        mine, theirs = rank_of(cards), rank_of(self.dealer)
        if not qualified:
            net, result = (1, "win") if bet.spot == "ante" else (0, "push")
        else:
            net = 1 if mine > theirs else -1 if mine < theirs else 0
            result = {1: "win", -1: "lose", 0: "push"}[net]
        if bet.spot == "ante":
            bonus = ante_bonus(cards, rules)
            if bonus:
                return bet.stake * (1 + net + bonus), f"{result}, ante bonus {bonus}:1"
        return bet.stake * (1 + net), result

    # -- what a seat sees and what it came to -----------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Public: the phase, who is to move, the total staked, which boxes play; the
        dealer's cards once turned, and every box's at the end. A seat also sees its own
        cards, bets and settlements."""
        mover = self.to_move()
        shown = self.revealed() or bool(self.settlements)
        out: dict[str, Any] = {
            "game": self.game.game_id,
            "to_move": "chance" if mover == CHANCE else mover,
            "dealer": list(self.dealer) if shown else [],
            "dealer_cards": len(self.dealer),
            "dealer_hand": category(self.dealer) if shown else None,
            "decisions": [d for d in self.decisions],
            "on_table": sum(b.stake for b in self.bets),
        }
        if self.settlements:
            out["boxes"] = {str(s): list(self.boxes[s]) for s in self._in_play()}
        if seat is not None:
            cards = self.boxes[seat]
            out["cards"] = list(cards)
            out["hand"] = category(cards) if len(cards) == 3 else None
            out.update(self._seat_view(seat))
        return out

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The deck left; the dealer's cards until turned; the other boxes' cards until the
        round is settled."""
        hidden = set(self.deck)
        if not (self.revealed() or self.settlements):
            hidden |= set(self.dealer)
        if not self.settlements:
            hidden |= others_cards(self.boxes, seat)
        return frozenset(hidden)



def three_card_engines() -> dict[str, Game]:
    """Three Card Poker with the rule data's tables.

    >>> list(three_card_engines())
    ['three-card-poker']
    """
    return {"three-card-poker": ThreeCardEngine()}
