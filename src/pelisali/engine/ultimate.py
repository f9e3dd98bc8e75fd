"""Ultimate Texas Hold'em under the engine contract: ante and blind, the one play bet,
Trips.

Standard rules (RAY 2016 1.4.1.2 names the game; its text is not in the rulebook as
extracted; :mod:`pelisali.games.ultimate_texas` holds the returns and the strategy).
A round: every seat places an ante (the equal blind goes with it) and may bet Trips
(:class:`~pelisali.engine.wager.PlaceBet` on ``ante`` or ``trips``), and says it is
done. The cards are chance nodes, one at a time from the one deck: two to each box, in
seat order, and two to the dealer; each box then checks or plays 3 or 4 times the ante;
the flop (three cards); each box that checked checks or plays 2 times; the turn and the
river; each box that checked twice plays 1 time or folds. The dealer's cards are turned
and every bet settled. The blind's 3:2 on a flush is paid in whole cents, the part of a
cent kept by the house (RULINGS "Everywhere"). A seat sees its own cards and the board;
the dealer's cards are shown at the end.

>>> from pelisali.engine import Seats
>>> state = UltimateEngine().new_state(Seats(1))
>>> for move in ["bet ante 1000", "bet trips 500", "done", "As", "Ad", "Kc", "Qd",
...              "play 4", "Ah", "Kd", "7s", "4h", "2c"]:
...     state = state.apply(move).state
>>> state.is_terminal(), state.returns()  # ante 1, play 4, blind pushes; Trips 3:1
(True, (6500,))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, ClassVar

from pelisali.cards import DECK
from pelisali.engine.contract import Action, Event, Game, Move, Seats, Step
from pelisali.engine.one_deck import FIXED_HANDS as FIXED_HANDS
from pelisali.engine.one_deck import POOL_HANDS as POOL_HANDS
from pelisali.engine.one_deck import BankedEngine, HoldemRound, Settings, house_seats, table_name
from pelisali.engine.one_deck import Check as Check
from pelisali.engine.one_deck import Fold as Fold
from pelisali.engine.one_deck import progressive_hand as progressive_hand
from pelisali.games.ultimate_texas import PAIR, pay_category
from pelisali.money import format_cents
from pelisali.rules.banked import UltimateRules, load_ultimate

SPOTS = ("ante", "trips", "progressive")
"""The bets a seat places before the deal: the blind goes with the ante, the play bet
comes later; the progressive takes exactly its fee."""
STREETS = ("before the flop", "on the flop", "after the river")
"""The three points at which a box that has not played decides."""


@dataclass(frozen=True)
class PlayBet:
    """The box's one play bet: ``multiple`` times its ante."""

    multiple: int

    def text(self) -> str:
        return f"play {self.multiple}"


@dataclass(frozen=True)
class UltimateBet:
    """A bet of a round: ``spot`` is ``ante``, ``blind``, ``trips`` or ``play``."""

    bet_id: int
    seat: int
    spot: str
    stake: int


@dataclass(frozen=True)
class UltimateSettlement:
    """How a bet ended: ``paid`` whole cents back (stake included), ``rounding`` the part
    of a cent the house keeps, ``result`` (``win``, ``lose``, ``push``, ``fold``; a
    blind's or Trips' hand named in it). A progressive won with a royal or straight
    flush is paid from its pool, which the engine does not hold: ``pool_percent`` says
    how much of it (``paid`` is then 0)."""

    bet_id: int
    seat: int
    spot: str
    stake: int
    paid: int
    result: str
    rounding: Fraction = Fraction(0)
    pool_percent: int = 0


class UltimateEngine(BankedEngine):
    """Ultimate Texas Hold'em with its tables (the blind, Trips: a hall's by name, as
    ``--set`` gives them) and limits.

    >>> UltimateEngine.from_settings({"trips": "50-40-30-8-7-4-3"}).rules.trips["flush"]
    7
    """

    family: ClassVar[str] = "ultimate-texas-holdem"
    max_seats = 6  # 6 x 2 + 2 + 5 cards of the one deck
    game_name = "Ultimate Texas Hold'em"
    spots = SPOTS
    spots_note = " (the blind goes with the ante)"
    setting_args: ClassVar[Settings] = {"blind": table_name, "trips": table_name}
    load_rules = staticmethod(load_ultimate)
    rules: UltimateRules

    def new_state(self, seats: Seats) -> UltimateState:
        count = house_seats(self, seats)
        return UltimateState(self, count, DECK, done=(False,) * count, boxes=((),) * count,
                             decided=(0,) * count, plays=(None,) * count)


@dataclass(frozen=True)
class UltimateState(HoldemRound):
    """A round: the bets, the cards left, each box's two cards, the dealer's, the board,
    each box's decisions made (``decided``: 0 to 3) and play (multiple, 0 a fold), then
    the settlements."""

    game: UltimateEngine
    seats: int
    deck: tuple[str, ...]
    bets: tuple[UltimateBet, ...] = ()
    done: tuple[bool, ...] = ()
    boxes: tuple[tuple[str, ...], ...] = ()
    dealer: tuple[str, ...] = ()
    board: tuple[str, ...] = ()
    decided: tuple[int, ...] = ()
    plays: tuple[int | None, ...] = ()
    settlements: tuple[UltimateSettlement, ...] = ()
    history: tuple[Move, ...] = field(default=())
    bet_type = UltimateBet
    goes_with: ClassVar[Mapping[str, str]] = {"ante": "blind"}  # the blind, equal to the ante
    spot_words: ClassVar[Mapping[str, str]] = {"blind": "the blind"}
    actions_hint = ("'bet ante|trips|progressive CENTS', 'done', 'check', 'play 4|3|2|1' "
                    "or 'fold'")
    side_bet = "trips"
    streets = STREETS
    decision_types = (Check, PlayBet, Fold)
    alone = "Trips and the progressive are bet with an ante (and its blind), not alone"

    # -- who is in ---------------------------------------------------------------------
    def street(self) -> int:
        """The decision point the board stands at: 0 before the flop, 1, 2 after the river."""
        return {0: 0, 3: 1, 5: 2}.get(len(self.board), -1)

    def _live(self) -> list[int]:
        """The boxes that have not folded (a box folds after the river only)."""
        return [s for s in self._in_play() if self.plays[s] != 0]

    def _street_shown(self) -> bool:
        """Whether the view names the street: once the bets are placed."""
        return self.street() >= 0 and all(self.done)

    def _boxes_view(self) -> dict[str, Any]:
        return {"plays": list(self.plays)}

    # -- what may happen ---------------------------------------------------------------
    def _decisions(self, seat: int) -> tuple[Action, ...]:
        street = self.street()
        if street == 0:
            return (Check(), *(PlayBet(m) for m in self.game.rules.preflop))
        if street == 1:
            return (Check(), PlayBet(2))
        return (PlayBet(1), Fold())

    def _parse_decision(self, words: list[str]) -> Action | None:
        if words == ["check"]:
            return Check()
        if len(words) == 2 and words[0] == "play" and words[1] in ("1", "2", "3", "4"):
            return PlayBet(int(words[1]))
        return None

    def _decide(self, mover: int, action: Action, history: tuple[Move, ...]) -> Step:
        street = self.street()
        decided = tuple((3 if isinstance(action, PlayBet | Fold) else street + 1)
                        if i == mover else d for i, d in enumerate(self.decided))
        state = replace(self, decided=decided, history=history)
        if isinstance(action, PlayBet):
            stake = action.multiple * self._stake(mover, "ante")
            state = replace(state, plays=tuple(action.multiple if i == mover else p
                                               for i, p in enumerate(self.plays)),
                            bets=(*self.bets,
                                  UltimateBet(len(self.bets) + 1, mover, "play", stake)))
            event = Event("play", f"seat {mover} plays {action.multiple}x: "
                                  f"{format_cents(stake)} on play", (mover,))
        elif isinstance(action, Fold):
            state = replace(state, plays=tuple(0 if i == mover else p
                                               for i, p in enumerate(self.plays)))
            event = Event("fold", f"seat {mover} folds", (mover,))
        else:
            event = Event("check", f"seat {mover} checks", (mover,))
        return state._step(event)

    # -- the showdown --------------------------------------------------------------------
    def _settle(self) -> tuple[UltimateState, list[Event]]:
        theirs = self.value(self.dealer)
        qualified = theirs >= PAIR
        return self._settled(lambda bet: self._settle_bet(bet, theirs), Event(
            "dealer", f"dealer {' '.join(self.dealer)}: {pay_category(theirs).replace('_', ' ')}"
                      f"{'' if qualified else ', does not qualify'}"))

    def _settle_bet(self, bet: UltimateBet, theirs: int) -> UltimateSettlement:
        if bet.spot == "progressive":
            return self._progressive(bet)
        paid, rounding, result = self._bet_return(bet, theirs)
        return UltimateSettlement(bet.bet_id, bet.seat, bet.spot, bet.stake, paid, result,
                                  rounding)

    def _progressive(self, bet: UltimateBet) -> UltimateSettlement:
        """The progressive on the box's two cards and the flop, folded or not."""
        paid, result, percent = self._progressive_return(bet.seat, bet.stake)
        return UltimateSettlement(bet.bet_id, bet.seat, bet.spot, bet.stake, paid, result,
                                  pool_percent=percent)

    def _bet_return(self, bet: UltimateBet, theirs: int) -> tuple[int, Fraction, str]:
        """(paid back, the house's part of a cent, result) of one bet."""
        rules = self.game.rules
        mine = self.value(self.boxes[bet.seat])
        hand = pay_category(mine)
        folded = self.plays[bet.seat] == 0
        if bet.spot == "trips":
            if folded and rules.fold_loses_trips:
                return 0, Fraction(0), "fold"
            odds = rules.trips.get(hand)
            if odds is None:
                return 0, Fraction(0), "lose"
            return bet.stake * (1 + odds), Fraction(0), f"win, {hand.replace('_', ' ')} {odds}:1"
        if folded:
            return 0, Fraction(0), "fold"
        if bet.spot == "ante" and theirs < PAIR:  # won or lost, the ante pushes
            return bet.stake, Fraction(0), "push, the dealer does not qualify"
        if mine < theirs:
            return 0, Fraction(0), "lose"
        if mine == theirs:
            return bet.stake, Fraction(0), "push"
        if bet.spot == "ante":
            return 2 * bet.stake, Fraction(0), "win"
        if bet.spot == "blind":
            blind = rules.blind.get(hand)
            if blind is None:
                return bet.stake, Fraction(0), "push, below a straight"
            owed = bet.stake * (1 + blind)
            ratio = f"{blind.numerator}:{blind.denominator}"
            return int(owed), owed - int(owed), f"win, {hand.replace('_', ' ')} {ratio}"
        return 2 * bet.stake, Fraction(0), "win"


def ultimate_engines() -> dict[str, Game]:
    """Ultimate Texas Hold'em with the rule data's tables.

    >>> list(ultimate_engines())
    ['ultimate-texas-holdem']
    """
    return {"ultimate-texas-holdem": UltimateEngine()}
