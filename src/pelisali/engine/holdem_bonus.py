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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
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
from pelisali.engine.ultimate import FIXED_HANDS, POOL_HANDS, progressive_hand
from pelisali.engine.wager import EndBetting, PlaceBet
from pelisali.games.holdem_bonus import ante_least, bonus_hand
from pelisali.games.round import Limits
from pelisali.games.ultimate_texas import pay_category
from pelisali.money import format_cents
from pelisali.poker.evaluate import high_value
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
class Check:
    """The box checks: no bet on the next street (on the flop and the turn)."""

    def text(self) -> str:
        return "check"


@dataclass(frozen=True)
class StreetBet:
    """The box bets ``street`` (``flop``, ``turn`` or ``river``) at its multiple of the
    ante."""

    street: str

    def text(self) -> str:
        return f"bet {self.street}"


@dataclass(frozen=True)
class Fold:
    """Before the flop: the box folds, losing its ante (and the progressive; the Bonus
    where the rule data says so)."""

    def text(self) -> str:
        return "fold"


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


class HoldemBonusEngine(Game):
    """Texas Hold'em Bonus with its ante rule, Bonus table and limits.

    >>> HoldemBonusEngine.from_settings({"ante": "flush"}).rules.ante_pays_from
    'flush'
    """

    family: ClassVar[str] = "texas-holdem-bonus"
    max_seats = 6  # 6 x 2 + 2 + 5 cards of the one deck

    def __init__(self, game_id: str = "texas-holdem-bonus",
                 rules: HoldemBonusRules | None = None, limits: Limits | None = None) -> None:
        self.game_id = game_id
        self.rules = rules or load_holdem_bonus()
        self.limits = limits or Limits(*self.rules.limits)

    @classmethod
    def from_settings(cls, settings: Mapping[str, str | bool] | None = None,
                      game_id: str = "texas-holdem-bonus") -> HoldemBonusEngine:
        """The game with a hall's ante rule and Bonus table, as ``--set`` gives them."""
        from pelisali.rules.loader import RuleDataError

        chosen = dict(settings or {})
        unknown = set(chosen) - {"ante", "bonus"}
        if unknown:
            raise IllegalMove(f"Texas Hold'em Bonus has no setting {sorted(unknown)[0]!r}; "
                              "settings: ante, bonus")
        try:
            rules = load_holdem_bonus(str(chosen.get("ante") or "") or None,
                                      str(chosen.get("bonus") or "") or None)
        except RuleDataError as exc:
            raise IllegalMove(str(exc)) from None
        return cls(game_id, rules)

    def title(self) -> str:
        return "Texas Hold'em Bonus"

    def new_state(self, seats: Seats) -> HoldemBonusState:
        self.check_seats(seats)
        if seats.stacks:
            raise IllegalMove(f"{self.game_id} is played against the house; seats bring no chips")
        count = seats.count
        return HoldemBonusState(self, count, DECK, done=(False,) * count,
                                boxes=((),) * count, decided=(0,) * count,
                                folded=(False,) * count)

    def spot(self, text: str) -> str:
        """The bet named ``text``; :class:`IllegalMove` if there is none such."""
        key = text.strip().lower()
        if key not in SPOTS:
            raise IllegalMove(f"Texas Hold'em Bonus has no bet {text!r} before the deal; "
                              f"bets: {', '.join(SPOTS)}")
        return key


@dataclass(frozen=True)
class HoldemBonusState(OneDeckRound):
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

    # -- who is in ---------------------------------------------------------------------
    def street(self) -> int:
        """The decision point the board stands at: 0 before the flop, 1 on it, 2 on the
        turn; -1 after the river."""
        return {0: 0, 3: 1, 4: 2}.get(len(self.board), -1)

    def _dealt(self) -> bool:
        return len(self.dealer) == 2 and all(len(self.boxes[s]) == 2 for s in self._in_play())

    def _live(self) -> list[int]:
        """The boxes that have not folded."""
        return [s for s in self._in_play() if not self.folded[s]]

    def _deciding(self) -> list[int]:
        """The boxes still to decide at this street, in seat order."""
        street = self.street()
        if street < 0 or not self._dealt():
            return []
        return [s for s in self._live() if self.decided[s] <= street]

    def _next_card(self) -> str | None:
        """Where the next card goes: ``box``, ``dealer``, ``board``, or None."""
        if any(len(self.boxes[s]) < 2 for s in self._in_play()):
            return "box"
        if len(self.dealer) < 2:
            return "dealer"
        if len(self.board) == 5 or self._deciding() or not self._live():
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
            return (Fold(), StreetBet("flop"))
        return (Check(), StreetBet(STREET_BETS[street]))

    def legal_actions(self) -> tuple[Action, ...]:
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            return ()
        if all(self.done):
            return self._decisions()
        out = self.betting_actions(mover, ("ante", "bonus"))
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
        if len(words) == 2 and words[0] == "bet" and words[1] in STREET_BETS:
            return StreetBet(words[1])
        if len(words) == 3 and words[0] == "bet":
            if not words[2].isdigit():
                raise IllegalMove(f"a stake is a whole number of cents, not {words[2]!r}")
            return PlaceBet(self.game.spot(words[1]), int(words[2]))
        raise IllegalMove(f"{text!r} is not an action here: 'bet ante|bonus|progressive "
                          "CENTS', 'done', 'fold', 'bet flop|turn|river' or 'check'")

    def _check_action(self, action: Action) -> None:
        if isinstance(action, Check | StreetBet | Fold):
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
                raise IllegalMove("the Bonus and the progressive are bet with an ante, "
                                  "not alone")
            return
        if not isinstance(action, PlaceBet):
            raise IllegalMove(f"{action.text()!r} is not an action of Texas Hold'em Bonus")
        if self.game.spot(action.spot) == "progressive":
            self._check_progressive(action, self.game.rules.progressive["fee"])
            return
        self._accept(action)

    def _side_bets(self, seat: int) -> bool:
        return bool(self._stake(seat, "bonus") or self._stake(seat, "progressive"))

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
        added = HoldemBonusBet(len(self.bets) + 1, mover, spot, accepted)
        text = f"seat {mover}: {format_cents(accepted)} on {spot}"
        if returned:
            text += f"; {format_cents(returned)} over the table maximum is void and returned"
        return Step(replace(self, bets=(*self.bets, added), history=history),
                    (Event("bet", text, (mover,)),))

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

    def _settle(self) -> tuple[HoldemBonusState, list[Event]]:
        shown = len(self.board) == 5
        theirs = self.value(self.dealer) if shown else 0
        events = [Event("dealer", f"dealer {' '.join(self.dealer)}"
                                  + (f": {pay_category(theirs).replace('_', ' ')}"
                                     if shown else ""))]
        out: list[HoldemBonusSettlement] = []
        for bet in self.bets:
            settled = self._settle_bet(bet, theirs)
            out.append(settled)
            events.append(Event("settled", f"bet {bet.bet_id} on {bet.spot}: {settled.result}, "
                                           f"{format_cents(settled.paid)} back", (bet.seat,),
                                private=True))
        return replace(self, settlements=tuple(out)), events

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
            return self._progressive(bet, done)
        mine = self.value(self.boxes[bet.seat])
        if mine < theirs:
            return done(0, "lose")
        if mine == theirs:
            return done(bet.stake, "push")
        if bet.spot == "ante" and mine < ante_least(rules):
            return done(bet.stake, f"push, below a {rules.ante_pays_from}")
        return done(2 * bet.stake, "win")

    def _progressive(self, bet: HoldemBonusBet,
                     done: Callable[..., HoldemBonusSettlement]) -> HoldemBonusSettlement:
        """The progressive on the box's two cards and the flop: a fixed multiple of the
        fee, or a share of the pool (paid by the wallet's jackpot)."""
        table = self.game.rules.progressive
        hand = progressive_hand((*self.boxes[bet.seat], *self.board[:3]))
        words = hand.replace("_", " ")
        if hand in POOL_HANDS:
            percent = table[POOL_HANDS[hand]]
            settled: HoldemBonusSettlement = done(0, f"win, {words}: {percent} % of the pool",
                                                  percent)
            return settled
        if hand in FIXED_HANDS:
            fixed: HoldemBonusSettlement = done(table[hand] * bet.stake,
                                                f"win, {words} {table[hand]}x the fee")
            return fixed
        lost: HoldemBonusSettlement = done(0, "lose")
        return lost

    # -- what a seat sees and what it came to -----------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Public: who is to move, the street, the board, the total staked and who folded;
        the dealer's cards at the end, and every box's. A seat also sees its own cards,
        hand, bets and settlements."""
        mover = self.to_move()
        over = bool(self.settlements)
        out: dict[str, Any] = {
            "game": self.game.game_id,
            "to_move": "chance" if mover == CHANCE else mover,
            "street": STREETS[self.street()] if self.street() >= 0 and all(self.done)
            and self._dealt() else None,
            "board": list(self.board),
            "dealer": list(self.dealer) if over else [],
            "dealer_cards": len(self.dealer),
            "dealer_hand": pay_category(self.value(self.dealer))
            if over and len(self.board) == 5 else None,
            "folded": list(self.folded),
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


def holdem_bonus_engines() -> dict[str, Game]:
    """Texas Hold'em Bonus with the rule data's tables.

    >>> list(holdem_bonus_engines())
    ['texas-holdem-bonus']
    """
    return {"texas-holdem-bonus": HoldemBonusEngine()}
