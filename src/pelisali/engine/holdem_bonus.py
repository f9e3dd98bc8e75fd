"""Texas Hold'em Bonus under the engine contract: the ante, the flop, turn and river bets,
the Bonus bet and the progressive.

Standard rules (RAY 2016 1.4.1.2 names the game; its text is not in the rulebook as
extracted; :mod:`pelisali.games.holdem_bonus` holds the returns and the strategy). A
round: every seat places an ante and may bet the Bonus and the progressive
(:class:`~pelisali.engine.wager.PlaceBet` on ``ante``, ``bonus`` or ``progressive``), and
says it is done. The cards are chance nodes, one at a time from the one deck: two to each
box, in seat order, and two to the dealer; each box then folds or bets the flop (2 times
the ante); the flop (three cards); each box that bet checks or bets the turn (1 time);
the turn card; each checks or bets the river (1 time); the river card. The dealer's cards
are turned and every bet settled. Once every box has folded no more cards are dealt. A
seat sees its own cards and the board; the dealer's cards are shown at the end.

>>> from pelisali.engine import Seats
>>> state = HoldemBonusEngine().new_state(Seats(1))
>>> for move in ["bet ante 1000", "bet bonus 500", "done", "As", "Ad", "Kc", "Qd",
...              "bet flop", "Ah", "Kd", "7s", "bet turn", "4h", "check", "2c"]:
...     state = state.apply(move).state
>>> state.is_terminal(), state.returns()  # ante pushes below a straight; Bonus 30:1
(True, (18000,))
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from pelisali.cards import DECK
from pelisali.engine.contract import Action, Event, Game, Move, Seats, Step
from pelisali.engine.one_deck import BankedEngine, HoldemRound, Settings, house_seats, table_name
from pelisali.engine.one_deck import Check as Check
from pelisali.engine.one_deck import Fold as Fold
from pelisali.games.holdem_bonus import ante_least, bonus_hand
from pelisali.games.ultimate_texas import pay_category
from pelisali.money import format_cents
from pelisali.rules.holdem_bonus import HoldemBonusRules, load_holdem_bonus

SPOTS = ("ante", "bonus", "progressive")
"""The bets a seat places before the deal; the progressive takes exactly its fee."""
STREETS = ("before the flop", "on the flop", "on the turn")
"""The three points at which a box decides."""
STREET_BETS = ("flop", "turn", "river")
"""The bet each decision point opens: the flop bet before the flop, and so on."""
MULTIPLES = {"flop": 2, "turn": 1, "river": 1}
"""Each street bet as a multiple of the ante (the rule data holds them too)."""


@dataclass(frozen=True)
class StreetBet:
    """The box bets ``street`` (``flop``, ``turn`` or ``river``) at its multiple of the
    ante."""

    street: str

    def text(self) -> str:
        return f"bet {self.street}"


@dataclass(frozen=True)
class HoldemBonusBet:
    """A bet of a round: ``spot`` is ``ante``, ``bonus``, ``progressive``, ``flop``,
    ``turn`` or ``river``."""

    bet_id: int
    seat: int
    spot: str
    stake: int


@dataclass(frozen=True)
class HoldemBonusSettlement:
    """How a bet ended: ``paid`` whole cents back (stake included) and ``result`` (``win``,
    ``lose``, ``push``, ``fold``; the Bonus' hand named in it). A progressive won with a
    royal or straight flush is paid from its pool, which the engine does not hold:
    ``pool_percent`` says how much of it (``paid`` is then 0)."""

    bet_id: int
    seat: int
    spot: str
    stake: int
    paid: int
    result: str
    pool_percent: int = 0


class HoldemBonusEngine(BankedEngine):
    """Texas Hold'em Bonus with its ante rule, Bonus table (a hall's by name, as ``--set``
    gives them) and limits.

    >>> HoldemBonusEngine.from_settings({"ante": "flush"}).rules.ante_pays_from
    'flush'
    """

    family: ClassVar[str] = "texas-holdem-bonus"
    max_seats = 6  # 6 x 2 + 2 + 5 cards of the one deck
    game_name = "Texas Hold'em Bonus"
    spots = SPOTS
    setting_args: ClassVar[Settings] = {"ante": table_name, "bonus": table_name}
    load_rules = staticmethod(load_holdem_bonus)
    rules: HoldemBonusRules

    def new_state(self, seats: Seats) -> HoldemBonusState:
        count = house_seats(self, seats)
        return HoldemBonusState(self, count, DECK, done=(False,) * count,
                                boxes=((),) * count, decided=(0,) * count,
                                folded=(False,) * count)


@dataclass(frozen=True)
class HoldemBonusState(HoldemRound):
    """A round: the bets, the cards left, each box's two cards, the dealer's, the board,
    each box's decisions made (``decided``: 0 to 3) and whether it folded, then the
    settlements."""

    game: HoldemBonusEngine
    seats: int
    deck: tuple[str, ...]
    bets: tuple[HoldemBonusBet, ...] = ()
    done: tuple[bool, ...] = ()
    boxes: tuple[tuple[str, ...], ...] = ()
    dealer: tuple[str, ...] = ()
    board: tuple[str, ...] = ()
    decided: tuple[int, ...] = ()
    folded: tuple[bool, ...] = ()
    settlements: tuple[HoldemBonusSettlement, ...] = ()
    history: tuple[Move, ...] = field(default=())
    bet_type = HoldemBonusBet
    actions_hint = ("'bet ante|bonus|progressive CENTS', 'done', 'fold', "
                    "'bet flop|turn|river' or 'check'")
    side_bet = "bonus"
    streets = STREETS
    decision_types = (Check, StreetBet, Fold)
    alone = "the Bonus and the progressive are bet with an ante, not alone"

    # -- who is in ---------------------------------------------------------------------
    def street(self) -> int:
        """The decision point the board stands at: 0 before the flop, 1 on it, 2 on the
        turn; -1 after the river."""
        return {0: 0, 3: 1, 4: 2}.get(len(self.board), -1)

    def _live(self) -> list[int]:
        """The boxes that have not folded."""
        return [s for s in self._in_play() if not self.folded[s]]

    def _boxes_view(self) -> dict[str, Any]:
        return {"folded": list(self.folded)}

    # -- what may happen ---------------------------------------------------------------
    def _decisions(self, seat: int) -> tuple[Action, ...]:
        street = self.street()
        if street == 0:
            return (Fold(), StreetBet("flop"))
        return (Check(), StreetBet(STREET_BETS[street]))

    def _parse_decision(self, words: list[str]) -> Action | None:
        if words == ["check"]:
            return Check()
        if len(words) == 2 and words[0] == "bet" and words[1] in STREET_BETS:
            return StreetBet(words[1])
        return None

    def _decide(self, mover: int, action: Action, history: tuple[Move, ...]) -> Step:
        street = self.street()
        decided = tuple(street + 1 if i == mover else d for i, d in enumerate(self.decided))
        state = replace(self, decided=decided, history=history)
        if isinstance(action, StreetBet):
            stake = MULTIPLES[action.street] * self._stake(mover, "ante")
            state = replace(state, bets=(*self.bets, HoldemBonusBet(
                len(self.bets) + 1, mover, action.street, stake)))
            event = Event("bet", f"seat {mover} bets the {action.street}: "
                                 f"{format_cents(stake)}", (mover,))
        elif isinstance(action, Fold):
            state = replace(state, folded=tuple(True if i == mover else f
                                                for i, f in enumerate(self.folded)))
            event = Event("fold", f"seat {mover} folds", (mover,))
        else:
            event = Event("check", f"seat {mover} checks", (mover,))
        return state._step(event)

    # -- the showdown --------------------------------------------------------------------
    def _settle(self) -> tuple[HoldemBonusState, list[Event]]:
        shown = len(self.board) == 5
        theirs = self.value(self.dealer) if shown else 0
        return self._settled(lambda bet: self._settle_bet(bet, theirs), Event(
            "dealer", f"dealer {' '.join(self.dealer)}"
                      + (f": {pay_category(theirs).replace('_', ' ')}" if shown else "")))

    def _settle_bet(self, bet: HoldemBonusBet, theirs: int) -> HoldemBonusSettlement:
        rules = self.game.rules

        def done(paid: int, result: str, percent: int = 0) -> HoldemBonusSettlement:
            return HoldemBonusSettlement(bet.bet_id, bet.seat, bet.spot, bet.stake, paid,
                                         result, percent)

        folded = self.folded[bet.seat]
        if bet.spot == "bonus":
            if folded and rules.fold_loses_bonus:
                return done(0, "fold")
            hand = bonus_hand(self.boxes[bet.seat], self.dealer)
            if hand is None:
                return done(0, "lose")
            odds = rules.bonus[hand]
            return done(bet.stake * (1 + odds), f"win, {hand.replace('_', ' ')} {odds}:1")
        if folded:
            return done(0, "fold")
        if bet.spot == "progressive":
            return done(*self._progressive_return(bet.seat, bet.stake))
        mine = self.value(self.boxes[bet.seat])
        if mine < theirs:
            return done(0, "lose")
        if mine == theirs:
            return done(bet.stake, "push")
        if bet.spot == "ante" and mine < ante_least(rules):
            return done(bet.stake, f"push, below a {rules.ante_pays_from}")
        return done(2 * bet.stake, "win")


def holdem_bonus_engines() -> dict[str, Game]:
    """Texas Hold'em Bonus with the rule data's tables.

    >>> list(holdem_bonus_engines())
    ['texas-holdem-bonus']
    """
    return {"texas-holdem-bonus": HoldemBonusEngine()}
