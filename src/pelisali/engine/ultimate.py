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
from pelisali.games.round import Limits
from pelisali.games.ultimate_texas import PAIR, pay_category
from pelisali.money import format_cents
from pelisali.poker.evaluate import high_value
from pelisali.rules.banked import UltimateRules, load_ultimate

SPOTS = ("ante", "trips", "progressive")
"""The bets a seat places before the deal: the blind goes with the ante, the play bet
comes later; the progressive takes exactly its fee."""
POOL_HANDS = {"royal_flush": "pool_percent_royal",
              "straight_flush": "pool_percent_straight_flush"}
"""The progressive's hands paid a share of its pool (the rule data's key for each)."""
FIXED_HANDS = ("four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind")
"""The progressive's hands paid a fixed multiple of its fee."""
STREETS = ("before the flop", "on the flop", "after the river")
"""The three points at which a box that has not played decides."""


@dataclass(frozen=True)
class Check:
    """The box checks: no play bet yet (before the flop and on it)."""

    def text(self) -> str:
        return "check"


@dataclass(frozen=True)
class PlayBet:
    """The box's one play bet: ``multiple`` times its ante."""

    multiple: int

    def text(self) -> str:
        return f"play {self.multiple}"


@dataclass(frozen=True)
class Fold:
    """After the river: the box folds, losing ante and blind (and Trips where the rule
    data says so)."""

    def text(self) -> str:
        return "fold"


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


class UltimateEngine(Game):
    """Ultimate Texas Hold'em with its tables (the blind, Trips) and limits.

    >>> UltimateEngine.from_settings({"trips": "50-40-30-8-7-4-3"}).rules.trips["flush"]
    7
    """

    family: ClassVar[str] = "ultimate-texas-holdem"
    max_seats = 6  # 6 x 2 + 2 + 5 cards of the one deck

    def __init__(self, game_id: str = "ultimate-texas-holdem",
                 rules: UltimateRules | None = None, limits: Limits | None = None) -> None:
        self.game_id = game_id
        self.rules = rules or load_ultimate()
        self.limits = limits or Limits(*self.rules.limits)

    @classmethod
    def from_settings(cls, settings: Mapping[str, str | bool] | None = None,
                      game_id: str = "ultimate-texas-holdem") -> UltimateEngine:
        """The game with a hall's tables (``blind``, ``trips``), as ``--set`` gives them."""
        from pelisali.rules.loader import RuleDataError

        chosen = dict(settings or {})
        unknown = set(chosen) - {"blind", "trips"}
        if unknown:
            raise IllegalMove(f"Ultimate Texas Hold'em has no setting {sorted(unknown)[0]!r}; "
                              "settings: blind, trips")
        try:
            rules = load_ultimate(str(chosen.get("blind") or "") or None,
                                  str(chosen.get("trips") or "") or None)
        except RuleDataError as exc:
            raise IllegalMove(str(exc)) from None
        return cls(game_id, rules)

    def title(self) -> str:
        return "Ultimate Texas Hold'em"

    def new_state(self, seats: Seats) -> UltimateState:
        self.check_seats(seats)
        if seats.stacks:
            raise IllegalMove(f"{self.game_id} is played against the house; seats bring no chips")
        count = seats.count
        return UltimateState(self, count, DECK, done=(False,) * count, boxes=((),) * count,
                             decided=(0,) * count, plays=(None,) * count)

    def spot(self, text: str) -> str:
        """The bet named ``text``; :class:`IllegalMove` if there is none such."""
        key = text.strip().lower()
        if key not in SPOTS:
            raise IllegalMove(f"Ultimate Texas Hold'em has no bet {text!r} before the deal; "
                              f"bets: {', '.join(SPOTS)} (the blind goes with the ante)")
        return key


@dataclass(frozen=True)
class UltimateState(OneDeckRound):
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

    # -- who is in ---------------------------------------------------------------------
    def street(self) -> int:
        """The decision point the board stands at: 0 before the flop, 1, 2 after the river."""
        return {0: 0, 3: 1, 5: 2}.get(len(self.board), -1)

    def _dealt(self) -> bool:
        """Whether every box and the dealer hold their two cards."""
        return len(self.dealer) == 2 and all(len(self.boxes[s]) == 2 for s in self._in_play())

    def _deciding(self) -> list[int]:
        """The boxes still to decide at this street, in seat order."""
        street = self.street()
        if street < 0 or not self._dealt():
            return []
        return [s for s in self._in_play() if self.decided[s] <= street]

    def _next_card(self) -> str | None:
        """Where the next card goes: ``box``, ``dealer``, ``board``, or None."""
        if any(len(self.boxes[s]) < 2 for s in self._in_play()):
            return "box"
        if len(self.dealer) < 2:
            return "dealer"
        if len(self.board) == 5 or self._deciding():
            return None
        return "board"

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
    def _decisions(self) -> tuple[Action, ...]:
        street = self.street()
        if street == 0:
            return (Check(), *(PlayBet(m) for m in self.game.rules.preflop))
        if street == 1:
            return (Check(), PlayBet(2))
        return (PlayBet(1), Fold())

    def legal_actions(self) -> tuple[Action, ...]:
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            return ()
        if all(self.done):
            return self._decisions()
        out = self.betting_actions(mover, ("ante", "trips"))
        if not self._stake(mover, "progressive"):
            out.append(PlaceBet("progressive", self.game.rules.progressive["fee"]))
        if self._stake(mover, "ante") or not self._side_bets(mover):
            out.append(EndBetting())  # not with a side bet alone
        return tuple(out)

    def parse_action(self, text: str) -> Action:
        words = text.split()
        if words == ["done"]:
            return EndBetting()
        if words == ["check"]:
            return Check()
        if words == ["fold"]:
            return Fold()
        if len(words) == 2 and words[0] == "play" and words[1] in ("1", "2", "3", "4"):
            return PlayBet(int(words[1]))
        if len(words) == 3 and words[0] == "bet":
            if not words[2].isdigit():
                raise IllegalMove(f"a stake is a whole number of cents, not {words[2]!r}")
            return PlaceBet(self.game.spot(words[1]), int(words[2]))
        raise IllegalMove(f"{text!r} is not an action here: 'bet ante|trips|progressive "
                          "CENTS', 'done', "
                          "'check', 'play 4|3|2|1' or 'fold'")

    def _check_action(self, action: Action) -> None:
        if isinstance(action, Check | PlayBet | Fold):
            if not all(self.done):
                raise IllegalMove("a box decides once its cards are dealt")
            if action not in self._decisions():
                offered = ", ".join(a.text() for a in self._decisions())
                raise IllegalMove(f"{action.text()!r} is not open {STREETS[self.street()]}; "
                                  f"open: {offered}")
            return
        if all(self.done):
            raise IllegalMove(f"no more bets: {', '.join(a.text() for a in self._decisions())}")
        if isinstance(action, EndBetting):
            mover = self.to_move()
            if mover is not None and self._side_bets(mover) and not self._stake(mover, "ante"):
                raise IllegalMove("Trips and the progressive are bet with an ante (and its "
                                  "blind), not alone")
            return
        if not isinstance(action, PlaceBet):
            raise IllegalMove(f"{action.text()!r} is not an action of Ultimate Texas Hold'em")
        if self.game.spot(action.spot) == "progressive":
            self._check_progressive(action, self.game.rules.progressive["fee"])
            return
        self._accept(action)

    def _side_bets(self, seat: int) -> bool:
        return bool(self._stake(seat, "trips") or self._stake(seat, "progressive"))

    def _apply(self, action: Action) -> Step:
        mover = self.to_move()
        if mover is None:
            raise IllegalMove("the round is over; nothing more can happen")
        history = (*self.history, Move(mover, action))
        if isinstance(action, ChanceOutcome):
            return self._deal(action.label, history)
        if isinstance(action, PlaceBet):
            return self._bet(mover, action, history)
        if isinstance(action, EndBetting):
            return self._end_betting(mover, history)
        return self._decide(mover, action, history)

    def _bet(self, mover: int, action: PlaceBet, history: tuple[Move, ...]) -> Step:
        spot = self.game.spot(action.spot)
        accepted, returned = (action.stake, 0) if spot == "progressive" \
            else self._accept(action)
        added = [UltimateBet(len(self.bets) + 1, mover, spot, accepted)]
        if spot == "ante":  # the blind, equal to the ante, goes with it
            added.append(UltimateBet(len(self.bets) + 2, mover, "blind", accepted))
        text = f"seat {mover}: {format_cents(accepted)} on {spot}"
        if spot == "ante":
            text += f" and {format_cents(accepted)} on the blind"
        if returned:
            text += f"; {format_cents(returned)} over the table maximum is void and returned"
        return Step(replace(self, bets=(*self.bets, *added), history=history),
                    (Event("bet", text, (mover,)),))

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
        if where == "box":
            box = next(s for s in self._in_play() if len(self.boxes[s]) < 2)
            boxes = tuple((*cards, card) if i == box else cards
                          for i, cards in enumerate(self.boxes))
            state = replace(self, deck=deck, boxes=boxes, history=history)
            event = Event("card", f"{card} to seat {box}", (box,), private=True)
        elif where == "dealer":
            state = replace(self, deck=deck, dealer=(*self.dealer, card), history=history)
            event = Event("card", "a card to the dealer, face down")
        else:
            state = replace(self, deck=deck, board=(*self.board, card), history=history)
            event = Event("board", f"{card} on the board")
        events = [event]
        if state.to_move() is None:
            state, settled = state._settle()
            events += settled
        return Step(state, tuple(events))

    # -- the showdown --------------------------------------------------------------------
    def value(self, cards: tuple[str, ...]) -> int:
        """A hand's value with the board (higher is better, equal ties)."""
        return high_value([DECK.index(c) for c in (*cards, *self.board)])

    def _settle(self) -> tuple[UltimateState, list[Event]]:
        theirs = self.value(self.dealer)
        qualified = theirs >= PAIR
        events = [Event("dealer", f"dealer {' '.join(self.dealer)}: "
                                  f"{pay_category(theirs).replace('_', ' ')}"
                                  f"{'' if qualified else ', does not qualify'}")]
        out: list[UltimateSettlement] = []
        for bet in self.bets:
            if bet.spot == "progressive":
                settled = self._progressive(bet)
            else:
                paid, rounding, result = self._bet_return(bet, theirs)
                settled = UltimateSettlement(bet.bet_id, bet.seat, bet.spot, bet.stake, paid,
                                             result, rounding)
            out.append(settled)
            events.append(Event("settled", f"bet {bet.bet_id} on {bet.spot}: {settled.result}, "
                                           f"{format_cents(settled.paid)} back", (bet.seat,),
                                private=True))
        return replace(self, settlements=tuple(out)), events

    def _progressive(self, bet: UltimateBet) -> UltimateSettlement:
        """The progressive on the box's two cards and the flop, folded or not: a fixed
        multiple of the fee, or a share of the pool (paid by the wallet's jackpot)."""
        table = self.game.rules.progressive
        hand = progressive_hand((*self.boxes[bet.seat], *self.board[:3]))
        words = hand.replace("_", " ")
        if hand in POOL_HANDS:
            percent = table[POOL_HANDS[hand]]
            return UltimateSettlement(bet.bet_id, bet.seat, bet.spot, bet.stake, 0,
                                      f"win, {words}: {percent} % of the pool",
                                      pool_percent=percent)
        if hand in FIXED_HANDS:
            return UltimateSettlement(bet.bet_id, bet.seat, bet.spot, bet.stake,
                                      table[hand] * bet.stake,
                                      f"win, {words} {table[hand]}x the fee")
        return UltimateSettlement(bet.bet_id, bet.seat, bet.spot, bet.stake, 0, "lose")

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

    # -- what a seat sees and what it came to -----------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Public: who is to move, the street, the board, the total staked and each box's
        play; the dealer's cards at the end, and every box's. A seat also sees its own
        cards, hand, bets and settlements."""
        mover = self.to_move()
        over = bool(self.settlements)
        out: dict[str, Any] = {
            "game": self.game.game_id,
            "to_move": "chance" if mover == CHANCE else mover,
            "street": STREETS[self.street()] if self.street() >= 0 and all(self.done) else None,
            "board": list(self.board),
            "dealer": list(self.dealer) if over else [],
            "dealer_cards": len(self.dealer),
            "dealer_hand": pay_category(self.value(self.dealer)) if over else None,
            "plays": list(self.plays),
            "on_table": sum(b.stake for b in self.bets),
        }
        if over:
            out["boxes"] = {str(s): list(self.boxes[s]) for s in self._in_play()}
        if seat is not None:
            cards = self.boxes[seat]
            out["cards"] = list(cards)
            out["hand"] = (pay_category(self.value(cards))
                           if len(cards) == 2 and len(self.board) >= 3 else None)
            out["bets"] = [{"bet_id": b.bet_id, "spot": b.spot, "stake": b.stake}
                           for b in self.bets if b.seat == seat]
            out["settlements"] = [{"bet_id": s.bet_id, "spot": s.spot, "stake": s.stake,
                                   "paid": s.paid, "result": s.result,
                                   **({"pool_percent": s.pool_percent}
                                      if s.pool_percent else {})}
                                  for s in self.settlements if s.seat == seat]
        return out

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The deck left; the dealer's cards and the other boxes' until the round is
        settled."""
        hidden = set(self.deck)
        if not self.settlements:
            hidden |= set(self.dealer)
            for s, cards in enumerate(self.boxes):
                if s != seat:
                    hidden |= set(cards)
        return frozenset(hidden)



def progressive_hand(cards: tuple[str, ...]) -> str:
    """The progressive's name for five cards (the two hole cards and the flop).

    >>> progressive_hand(("As", "Ks", "Qs", "Js", "Ts"))
    'royal_flush'
    >>> progressive_hand(("2c", "2d", "2h", "5s", "9c"))
    'three_of_a_kind'
    """
    return pay_category(high_value([DECK.index(c) for c in cards]))


def ultimate_engines() -> dict[str, Game]:
    """Ultimate Texas Hold'em with the rule data's tables.

    >>> list(ultimate_engines())
    ['ultimate-texas-holdem']
    """
    return {"ultimate-texas-holdem": UltimateEngine()}
