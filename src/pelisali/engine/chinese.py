"""Chinese Poker (RAY 2015 1.4.1.1.13) under the engine contract.

A round: chance deals the 52-card deck one card at a time, thirteen to each of
two to four seats in the order :func:`pelisali.poker.chinese.deal` deals them
(seat 0's thirteen, then seat 1's, ...); then each seat in turn sets its hand
(:class:`SetHand`: a front of three cards, a middle and a back of five). A
misset hand may be set; it loses all three hands (RULINGS). Once every seat has
set, the hands are shown and the round is settled with
:func:`~pelisali.poker.chinese.settle`, the same scoring as
:class:`~pelisali.poker.chinese.ChineseTable`: 1-3 points against each other
seat, times the point value fixed before play. Chips move between the seats
alone; nobody takes a fee. A seat sees its own cards and its own set hand, and
the other hands only at the showdown.

>>> from pelisali.cards import DECK
>>> from pelisali.engine import Seats
>>> state = ChineseEngine(point_value=100).new_state(Seats.with_stacks([300, 300]))
>>> state.chance_outcomes()[0]
(ChanceOutcome(label='2c'), Fraction(1, 52))
>>> for card in DECK[:26]:   # seat 0 is dealt 2c ... 5c, seat 1 5d ... 8d
...     state = state.apply(card).state
>>> state.to_move(), state.legal_actions()[0].text()
(0, 'set 2d 2h 2s / 2c 3c 3d 3h 3s / 4c 4d 4h 4s 5c')
>>> state = state.apply("set 2d 2h 2s / 2c 3c 3d 3h 3s / 4c 4d 4h 4s 5c").state
>>> state = state.apply(state.legal_actions()[0]).state
>>> state.is_terminal(), state.returns(), state.chips()
(True, (-300, 300), (0, 600))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar

from pelisali.cards import DECK, CardError, parse_cards
from pelisali.engine.contract import (
    CHANCE,
    Action,
    ChanceOutcome,
    Event,
    Game,
    IllegalMove,
    Move,
    Seats,
    State,
    Step,
)
from pelisali.poker.chinese import ChineseHand, best_set, set_hand, settle

HAND = 13
"""Cards dealt to each seat."""

DEFAULT_POINT_VALUE = 100
"""Chips a point is worth unless the table says otherwise (as in
:func:`~pelisali.poker.chinese.selfplay`)."""

MOST_POINTS = 3
"""The most points a seat can lose to one opponent in a round (all three hands)."""


@dataclass(frozen=True)
class SetHand:
    """The seat to move sets its thirteen cards as a front (3), a middle (5) and a back (5).

    >>> action = SetHand(("2c", "2d", "3h"), ("9s", "9h", "9d", "4c", "4d"),
    ...                  ("As", "Ks", "Qs", "Js", "Ts"))
    >>> action.text()
    'set 2c 2d 3h / 9s 9h 9d 4c 4d / As Ks Qs Js Ts'
    >>> parse_set_hand(action.text()) == action
    True
    """

    front: tuple[str, ...]
    middle: tuple[str, ...]
    back: tuple[str, ...]

    def __post_init__(self) -> None:  # lists given in code become tuples: the action is a value
        for name in ("front", "middle", "back"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    @classmethod
    def of(cls, hand: ChineseHand) -> SetHand:
        """The action that sets ``hand``."""
        return cls(hand.front, hand.middle, hand.back)

    @property
    def cards(self) -> tuple[str, ...]:
        return (*self.front, *self.middle, *self.back)

    def text(self) -> str:
        return "set " + " / ".join(" ".join(part) for part in (self.front, self.middle, self.back))


def parse_set_hand(text: str) -> SetHand:
    """Read ``"set FRONT / MIDDLE / BACK"``; whether the cards fit is for the state to check.

    >>> parse_set_hand("set 2c2d3h / 9s 9h 9d 4c 4d / As Ks Qs Js 10s").back
    ('As', 'Ks', 'Qs', 'Js', 'Ts')
    >>> parse_set_hand("fold")
    Traceback (most recent call last):
    ...
    pelisali.engine.contract.IllegalMove: 'fold' is not an action here: 'set FRONT / MIDDLE / BACK'
    """
    words = text.strip().split(None, 1)
    parts = words[1].split("/") if len(words) == 2 and words[0].lower() == "set" else []
    if len(parts) != 3:
        raise IllegalMove(f"{text!r} is not an action here: 'set FRONT / MIDDLE / BACK'")
    try:
        front, middle, back = (tuple(parse_cards(part, allow_duplicates=True)) for part in parts)
    except CardError as error:
        raise IllegalMove(str(error)) from None
    return SetHand(front, middle, back)


@lru_cache(maxsize=64)
def _best(cards: tuple[str, ...]) -> SetHand:
    return SetHand.of(best_set(cards))


class ChineseEngine(Game):
    """Chinese Poker for chips at ``point_value`` chips a point, two to four seats.

    Each seat brings its chips at the table (:meth:`Seats.with_stacks`); as at a
    :class:`~pelisali.poker.chinese.ChineseTable` each must cover the most a round
    can cost, 3 points against each opponent (:meth:`minimum`). The button plays
    no part: the deal and the setting go from seat 0.

    >>> ChineseEngine(point_value=100).minimum(3)
    600
    >>> ChineseEngine(point_value=100).default_seats().stacks
    (1800, 1800, 1800, 1800)
    """

    family: ClassVar[str] = "poker"
    min_seats = 2
    max_seats = 4

    def __init__(self, point_value: int = DEFAULT_POINT_VALUE, game_id: str = "chinese") -> None:
        if isinstance(point_value, bool) or not isinstance(point_value, int) or point_value <= 0:
            raise IllegalMove(f"points need a positive whole money value fixed before play, "
                              f"not {point_value!r}")
        self.game_id = game_id
        self.point_value = point_value

    def title(self) -> str:
        return "Chinese Poker"

    def default_seats(self) -> Seats:
        """Four seats, each with the chips for two of the costliest rounds."""
        return Seats.with_stacks([2 * self.minimum(self.max_seats)] * self.max_seats)

    def minimum(self, seats: int) -> int:
        """The chips each of ``seats`` seats needs: the most a round can cost it."""
        return MOST_POINTS * self.point_value * (seats - 1)

    def new_state(self, seats: Seats) -> ChineseState:
        self.check_seats(seats)
        if len(seats.stacks) != seats.count:
            raise IllegalMove(f"{self.title()} is played for chips: each of the {seats.count} "
                              f"seats brings a stack (Seats.with_stacks)")
        minimum = self.minimum(seats.count)
        for seat, stack in enumerate(seats.stacks):
            if isinstance(stack, bool) or not isinstance(stack, int):
                raise IllegalMove(f"seat {seat}'s stack is a whole number of chips, "
                                  f"not {stack!r}")
            if stack < minimum:
                raise IllegalMove(f"seat {seat} has {stack}, less than the {minimum} a round "
                                  f"can cost (3 points against each opponent)")
        return ChineseState(self, tuple(seats.stacks), hands=(None,) * seats.count)


@dataclass(frozen=True)
class ChineseState(State):
    game: ChineseEngine
    stacks: tuple[int, ...]
    dealt: tuple[str, ...] = ()
    hands: tuple[ChineseHand | None, ...] = ()
    nets: tuple[int, ...] = ()  # each seat's chips won or lost, once settled
    history: tuple[Move, ...] = field(default=())

    @property
    def seats(self) -> int:
        return len(self.stacks)

    def cards(self, seat: int) -> tuple[str, ...]:
        """The cards dealt to ``seat`` so far (all a caller may know is for it to say)."""
        self._seat(seat)
        return self.dealt[HAND * seat:HAND * (seat + 1)]

    def _seat(self, seat: int) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise IllegalMove(f"no seat {seat!r} at this table of {self.seats}")
        return seat

    # -- who moves ---------------------------------------------------------------
    def to_move(self) -> int | None:
        if len(self.dealt) < HAND * self.seats:
            return CHANCE
        if None in self.hands:
            return self.hands.index(None)
        return None

    # -- what may happen -------------------------------------------------------------
    def chance_outcomes(self) -> tuple[tuple[ChanceOutcome, Fraction], ...]:
        if self.to_move() != CHANCE:
            return ()
        dealt = set(self.dealt)
        left = [card for card in DECK if card not in dealt]
        p = Fraction(1, len(left))
        return tuple((ChanceOutcome(card), p) for card in left)

    def legal_actions(self) -> tuple[Action, ...]:
        """The best set (:func:`~pelisali.poker.chinese.best_set`) and the cards as dealt,
        split 3/5/5; :meth:`check` takes any arrangement of the seat's thirteen cards."""
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            return ()
        cards = self.cards(mover)
        best = _best(cards)
        other = SetHand(cards[:3], cards[3:8], cards[8:])
        if other == best:
            other = SetHand(best.front, best.back, best.middle)
        return best, other

    def parse_action(self, text: str) -> Action:
        return parse_set_hand(text)

    def _check_action(self, action: Action) -> None:
        if not isinstance(action, SetHand):
            raise IllegalMove(f"{action.text()!r} is not an action of {self.game.title()}")
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            raise IllegalMove("no seat is to act")
        sizes = (len(action.front), len(action.middle), len(action.back))
        if sizes != (3, 5, 5):
            raise IllegalMove(f"a hand is set as a front of 3 cards, a middle of 5 and a back "
                              f"of 5, not {'/'.join(map(str, sizes))}")
        seen: set[str] = set()
        for card in action.cards:
            if not isinstance(card, str) or card not in DECK:
                raise IllegalMove(f"{card!r} is not a card")
            if card in seen:
                raise IllegalMove(f"{card} is set twice")
            seen.add(card)
        held = self.cards(mover)
        missing = [card for card in action.cards if card not in held]
        if missing:
            raise IllegalMove(f"seat {mover} does not hold {' '.join(missing)}: a hand is set "
                              f"from exactly the thirteen cards dealt to it")

    def _apply(self, action: Action) -> Step:
        mover = self.to_move()
        if mover is None:
            raise IllegalMove("the round is over; nothing more can happen")
        history = (*self.history, Move(mover, action))
        if isinstance(action, ChanceOutcome):
            seat = len(self.dealt) // HAND
            state = replace(self, dealt=(*self.dealt, action.label), history=history)
            events = [Event("deal", f"seat {seat} is dealt {action.label}", (seat,),
                            private=True)]
            if state.to_move() != CHANCE:
                events.append(Event("dealt", f"thirteen cards to each seat; seat "
                                             f"{state.to_move()} sets first"))
            return Step(state, tuple(events))
        if not isinstance(action, SetHand):
            raise IllegalMove(f"{action.text()!r} is not an action of {self.game.title()}")
        try:
            hand = set_hand(action.front, action.middle, action.back)
        except CardError as error:
            raise IllegalMove(str(error)) from None
        hands = tuple(hand if i == mover else h for i, h in enumerate(self.hands))
        state = replace(self, hands=hands, history=history)
        events = [Event("set", f"seat {mover} has set its hand", (mover,))]
        if state.to_move() is None:
            state, settled = state._settle()
            events += settled
        return Step(state, tuple(events))

    def _settle(self) -> tuple[ChineseState, list[Event]]:
        """Show every hand and settle as a ChineseTable does: :func:`settle` by seat."""
        placed = {str(s): h for s, h in enumerate(self.hands) if h is not None}
        try:
            nets = settle(placed, self.game.point_value)
        except CardError as error:  # the checks above make this unreachable
            raise IllegalMove(str(error)) from None
        events = []
        for seat, hand in enumerate(self.hands):
            if hand is not None:
                shown = SetHand.of(hand).text().removeprefix("set ")
                events.append(Event("showdown", f"seat {seat} shows {shown}"
                                                f"{' (misset)' if hand.misset else ''}", (seat,)))
        state = replace(self, nets=tuple(nets[str(s)] for s in range(self.seats)))
        for seat, net in enumerate(state.nets):
            said = f"wins {net}" if net > 0 else f"pays {-net}" if net < 0 else "breaks even"
            events.append(Event("settled", f"seat {seat} {said}", (seat,)))
        return state, events

    # -- what a seat sees and what it all came to ---------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Public: the phase, the stacks, how many cards each seat holds and who has set.
        A seat also sees its own cards and its own set hand; at the showdown everybody
        sees every hand and the result. Nobody sees the undealt deck."""
        mover = self.to_move()
        out: dict[str, Any] = {
            "game": self.game.game_id,
            "to_move": "chance" if mover == CHANCE else mover,
            "point_value": self.game.point_value,
            "stacks": list(self.stacks),
            "dealt": [len(self.dealt[HAND * s:HAND * (s + 1)]) for s in range(self.seats)],
            "set": [h is not None for h in self.hands],
        }
        if seat is not None:
            self._seat(seat)
            out["cards"] = list(self.cards(seat))
            out["hand"] = _hand_view(self.hands[seat])
        if mover is None:
            out["hands"] = [_hand_view(h) for h in self.hands]
            out["returns"] = list(self.returns())
            out["chips"] = list(self.chips())
        return out

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """Before the showdown everything but the seat's own cards; after it the undealt deck."""
        if self.is_terminal():
            return frozenset(DECK) - frozenset(self.dealt)
        own = self.cards(seat) if seat is not None else ()
        return frozenset(DECK) - frozenset(own)

    def returns(self) -> tuple[int, ...]:
        return self.nets or (0,) * self.seats

    def accounts(self) -> Mapping[str, int]:
        """The seats alone: what one wins the others pay, and no fee is taken."""
        return {f"seat {i}": r for i, r in enumerate(self.returns())}

    def chips(self) -> tuple[int, ...]:
        """Each seat's chips at the table now: its stack plus what it won or lost."""
        return tuple(stack + r for stack, r in zip(self.stacks, self.returns(), strict=True))


def _hand_view(hand: ChineseHand | None) -> dict[str, Any] | None:
    if hand is None:
        return None
    return {"front": list(hand.front), "middle": list(hand.middle), "back": list(hand.back),
            "misset": hand.misset}


def chinese_engines() -> dict[str, Game]:
    """Chinese Poker at the default point value."""
    return {"chinese": ChineseEngine()}

