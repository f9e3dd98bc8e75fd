"""The engine contract every game implements, shaped like OpenSpiel's.

A :class:`Game` makes a new :class:`State` from its settings and seats, drawing
nothing. A state says who is to move: a seat (``0``, ``1``, ...), :data:`CHANCE`,
or nobody once the round or hand is over. At a chance node it lists the exact
outcomes with their probabilities as :class:`~fractions.Fraction`; cards are
dealt one at a time from what is left. At a seat's turn it lists typed legal
actions, which are parsed from text and written back to text only at the edges
(as python-chess's ``Move.from_uci`` and ``Move.uci`` do). :meth:`State.apply`
never changes the state it is called on: it returns a :class:`Step` with the
next state and what happened, so a state is a snapshot by construction.

A state's history is the list of :class:`Move` values that made it; replaying
them from a new state gives the same state (:func:`replay`). A seat sees the
state only through :meth:`State.view`, which is the one way hidden information
(hole cards, the shoe) leaves the engine. A finished state has
:meth:`State.returns`: each seat's net gain in cents or chips, and
:meth:`State.accounts` says where every cent went, so a test can prove nothing
was created or lost.

Engines take no random generator and hold no wallet: randomness is a chance
outcome chosen outside (:func:`sample_chance` with an injected generator), and
a seat's money enters a state only as the chips it brings to a poker table.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Final, Protocol

from pelisali.rng import Rng

CHANCE: Final = -1
"""The mover at a chance node (OpenSpiel's ``kChancePlayerId``)."""


class IllegalMove(ValueError):
    """An action or chance outcome the state refuses; the message says why and the state
    is unchanged (states are immutable)."""


class Action(Protocol):
    """A typed action of a seat: a small frozen value that writes itself as text."""

    def text(self) -> str:
        """The action as a player or a record writes it (``"raise 40"``, ``"bet red 500"``)."""
        ...


@dataclass(frozen=True, order=True)
class ChanceOutcome:
    """One chance outcome: a card (``"As"``), a wheel pocket (``"17"``), a die face.

    >>> ChanceOutcome("As").text()
    'As'
    """

    label: str

    def text(self) -> str:
        return self.label


@dataclass(frozen=True)
class Move:
    """One entry of a state's history: who moved (a seat or :data:`CHANCE`) and what."""

    actor: int
    action: Action

    def text(self) -> str:
        who = "chance" if self.actor == CHANCE else f"seat {self.actor}"
        return f"{who}: {self.action.text()}"


@dataclass(frozen=True)
class Event:
    """Something that happened, for logs and clients: ``kind`` and a plain-English line.

    ``seats`` names the seats it concerns; an event with ``private`` set is for
    those seats alone (a hole card dealt), and :meth:`State.events_for` drops it
    for everybody else.
    """

    kind: str
    text: str
    seats: tuple[int, ...] = ()
    private: bool = False


@dataclass(frozen=True)
class Step:
    """What :meth:`State.apply` returns: the next state and the events the move caused."""

    state: State
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class Seats:
    """Who sits at a new state: how many seats, the chips each brings (poker), the button.

    >>> Seats(3).count
    3
    >>> Seats.with_stacks([200, 150]).stacks
    (200, 150)
    """

    count: int
    stacks: tuple[int, ...] = ()
    button: int = 0

    @classmethod
    def with_stacks(cls, stacks: Sequence[int], button: int = 0) -> Seats:
        return cls(len(stacks), tuple(stacks), button)


class State(ABC):
    """A game state: immutable; :meth:`apply` returns the next one."""

    game: Game
    history: tuple[Move, ...]

    # -- who moves ------------------------------------------------------------------
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat to act, :data:`CHANCE`, or ``None`` once the state is terminal."""

    def is_chance(self) -> bool:
        return self.to_move() == CHANCE

    def is_terminal(self) -> bool:
        return self.to_move() is None

    # -- what may happen ------------------------------------------------------------
    @abstractmethod
    def chance_outcomes(self) -> tuple[tuple[ChanceOutcome, Fraction], ...]:
        """At a chance node: every outcome with its exact probability (they sum to 1)."""

    def chance_weights(self) -> tuple[tuple[ChanceOutcome, ...], tuple[int, ...], int]:
        """The chance outcomes with whole-number weights and their total, the probability
        of each being its weight over the total: how a generator draws one without a
        fraction in between. Engines whose chance is counts (a shoe, a wheel's slots)
        answer it directly."""
        outcomes = self.chance_outcomes()
        denominator = 1
        for _, p in outcomes:
            denominator = denominator * p.denominator // _gcd(denominator, p.denominator)
        return (tuple(o for o, _ in outcomes),
                tuple(p.numerator * (denominator // p.denominator) for _, p in outcomes),
                denominator)

    def can_come_up(self, outcome: ChanceOutcome) -> bool:
        """Whether ``outcome`` is one of the chance outcomes now."""
        return outcome in self.chance_weights()[0]

    @abstractmethod
    def legal_actions(self) -> tuple[Action, ...]:
        """At a seat's turn: the legal actions. Where an amount may be anything in a range
        (a stake, a raise), the list holds the range's ends and :meth:`check` takes any
        amount in it."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read an action of the seat to move from text; :class:`IllegalMove` if it is not one."""

    @abstractmethod
    def _apply(self, action: Action) -> Step:
        """Apply a checked action or outcome (the subclass's work)."""

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalMove` unless ``action`` may be applied now."""
        mover = self.to_move()
        if mover is None:
            raise IllegalMove("the round is over; nothing more can happen")
        if mover == CHANCE:
            if not isinstance(action, ChanceOutcome):
                raise IllegalMove(f"it is chance's turn, not a seat's: {action.text()!r}")
            if not self.can_come_up(action):
                raise IllegalMove(f"{action.label!r} cannot come up now")
            return
        if isinstance(action, ChanceOutcome):
            raise IllegalMove(f"seat {mover} is to act; a chance outcome cannot be applied")
        self._check_action(action)

    @abstractmethod
    def _check_action(self, action: Action) -> None:
        """Raise :class:`IllegalMove` unless the seat to move may take ``action``."""

    def apply(self, action: Action | str, seat: int | None = None) -> Step:
        """The next state and its events; a text is parsed first. ``seat``, when given, is
        who sends the action: anyone but the seat to move is refused. Refused:
        :class:`IllegalMove`, and this state is unchanged (it always is)."""
        if seat is not None and seat != self.to_move():
            raise IllegalMove(f"it is not seat {seat}'s turn; {_mover_text(self.to_move())} "
                              f"is to move")
        if isinstance(action, str):
            action = self.parse(action)
        self.check(action)
        return self._apply(action)

    def parse(self, text: str) -> Action:
        """A chance outcome's label at a chance node, else the seat's action."""
        if self.is_chance():
            return ChanceOutcome(text.strip())
        if self.is_terminal():
            raise IllegalMove("the round is over; nothing more can happen")
        return self.parse_action(text)

    # -- what a seat sees and what it all came to ----------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as plain JSON data."""

    @abstractmethod
    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The cards ``seat`` must not see now (others' hole cards, the undealt shoe):
        what the property tests search every view for."""

    @abstractmethod
    def returns(self) -> tuple[int, ...]:
        """Each seat's net gain so far in cents or chips: a stake counts from when it is
        placed, a payout from when it is paid."""

    @abstractmethod
    def accounts(self) -> Mapping[str, int]:
        """Every party's net change: ``seat N``, ``house``, ``table`` (stakes still on it),
        ``fee``, ``jackpot``. The values sum to zero: money is neither made nor lost."""

    def events_for(self, events: Sequence[Event], seat: int | None) -> list[Event]:
        """The events ``seat`` may see."""
        return [e for e in events if not e.private or (seat is not None and seat in e.seats)]


class Game(ABC):
    """A game and version with its settings: makes new states and reads histories."""

    game_id: str
    family: ClassVar[str]
    min_seats: int = 1
    max_seats: int = 7

    @abstractmethod
    def new_state(self, seats: Seats) -> State:
        """A new round or hand for ``seats``, drawing nothing."""

    def title(self) -> str:
        return self.game_id

    def default_seats(self) -> Seats:
        """The table a simulation uses when nobody says otherwise (one seat against the house;
        a poker game's engine gives six seats with chips)."""
        return Seats(self.min_seats)

    def check_seats(self, seats: Seats) -> None:
        if not self.min_seats <= seats.count <= self.max_seats:
            raise IllegalMove(f"{self.game_id} seats {self.min_seats} to {self.max_seats}, "
                              f"not {seats.count}")


@dataclass(frozen=True)
class Played:
    """A finished (or stopped) run: the final state and every event on the way."""

    state: State
    events: tuple[Event, ...] = field(default=())


def replay(game: Game, seats: Seats, history: Sequence[Move],
           start: State | None = None) -> State:
    """The state that ``history`` leads to from a new state, or from ``start`` when the
    round began elsewhere (a card table's shoe, bets carried in prison): how a record is
    recalled.

    Each move must be by the mover the state names; a move that does not fit
    raises :class:`IllegalMove`.
    """
    state = game.new_state(seats) if start is None else start
    for move in history:
        if move.actor != state.to_move():
            raise IllegalMove(f"history says {move.text()!r} but "
                              f"{_mover_text(state.to_move())} is to move")
        state = state.apply(move.action).state
    return state


def _mover_text(mover: int | None) -> str:
    if mover is None:
        return "nobody (the round is over)"
    return "chance" if mover == CHANCE else f"seat {mover}"


def sample_chance(state: State, rng: Rng) -> ChanceOutcome:
    """One chance outcome drawn with ``rng`` at its exact probability (no float in between).

    The probabilities share a common denominator; one uniform integer below it
    picks the outcome.
    """
    outcomes, weights, total = state.chance_weights()
    if not outcomes:
        raise IllegalMove("this is not a chance node")
    pick = rng.randbelow(total)
    for outcome, weight in zip(outcomes, weights, strict=True):
        if pick < weight:
            return outcome
        pick -= weight
    raise IllegalMove("the chance outcomes' weights do not add up to their total")


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a
