"""Exact odds and simulation for any game, straight from the engine contract.

:func:`expected_returns` walks every chance outcome below a state with exact
fractions, letting a policy choose for the seats; :func:`play_out` samples one
path with an injected generator. Both read only the contract, so a house edge
found here is the one the table pays. The faster batch paths
(:mod:`pelisali.analysis.odds`, :mod:`pelisali.analysis.baccarat_odds`) are
checked against this walk in the tests.

>>> from pelisali.engine import GAMES, Seats
>>> state = GAMES["roulette-C"].new_state(Seats(1))
>>> state = state.apply("bet red 100").state.apply("done").state
>>> expected_returns(state, first_action)
(Fraction(-100, 37),)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from pelisali.engine.contract import Action, Game, IllegalMove, Seats, State, sample_chance
from pelisali.rng import Rng

Policy = Callable[[State], Action]
"""Chooses a seat's action at a state where that seat is to move."""


def first_action(state: State) -> Action:
    """The policy that takes the first legal action (for states where the seats have nothing
    left to decide, or where the first action is the one wanted)."""
    actions = state.legal_actions()
    if not actions:
        raise IllegalMove("no legal action here")
    return actions[0]


def random_policy(rng: Rng) -> Policy:
    """A policy that picks a kind of action uniformly (bet, done; fold, call, raise), then
    one action of that kind: a seat offered hundreds of bets still ends its betting."""

    def choose(state: State) -> Action:
        by_kind: dict[type, list[Action]] = {}
        for action in state.legal_actions():
            by_kind.setdefault(type(action), []).append(action)
        if not by_kind:
            raise IllegalMove("no legal action here")
        kinds = list(by_kind.values())
        actions = kinds[rng.randbelow(len(kinds))]
        return actions[rng.randbelow(len(actions))]

    return choose


def expected_returns(state: State, policy: Policy, *, max_nodes: int = 2_000_000
                     ) -> tuple[Fraction, ...]:
    """Each seat's exact expected return from ``state`` to the end, every chance outcome
    weighted by its probability and the seats playing ``policy``.

    Refuses (:class:`IllegalMove`) a walk that would visit more than ``max_nodes`` states:
    a full hand of poker is not finite in practice, and the caller should sample instead.
    """
    visited = 0

    def walk(node: State) -> tuple[Fraction, ...]:
        nonlocal visited
        visited += 1
        if visited > max_nodes:
            raise IllegalMove(f"the walk passed {max_nodes} states; sample this game instead")
        if node.is_terminal():
            return tuple(Fraction(r) for r in node.returns())
        if node.is_chance():
            total: list[Fraction] | None = None
            for outcome, probability in node.chance_outcomes():
                values = walk(node.apply(outcome).state)
                if total is None:
                    total = [probability * v for v in values]
                else:
                    total = [t + probability * v for t, v in zip(total, values, strict=True)]
            if total is None:
                raise IllegalMove("a chance node without outcomes")
            return tuple(total)
        return walk(node.apply(policy(node)).state)

    return walk(state)


def outcome_distribution(state: State, policy: Policy) -> dict[tuple[int, ...], Fraction]:
    """The exact probability of each vector of returns the seats can end with."""
    out: dict[tuple[int, ...], Fraction] = {}

    def walk(node: State, probability: Fraction) -> None:
        if node.is_terminal():
            key = node.returns()
            out[key] = out.get(key, Fraction(0)) + probability
        elif node.is_chance():
            for outcome, p in node.chance_outcomes():
                walk(node.apply(outcome).state, probability * p)
        else:
            walk(node.apply(policy(node)).state, probability)

    walk(state, Fraction(1))
    return out


def play_out(state: State, policy: Policy, rng: Rng) -> State:
    """Sample one path from ``state`` to the end: chance by ``rng`` at exact probabilities,
    the seats by ``policy``."""
    while not state.is_terminal():
        action = sample_chance(state, rng) if state.is_chance() else policy(state)
        state = state.apply(action).state
    return state


@dataclass
class Simulation:
    """Totals of many sampled rounds: each party's net change (``seat N``, ``house``, ``fee``,
    ``jackpot``, ``table``) in cents or chips."""

    game: str
    seats: Seats
    rounds: int = 0
    totals: dict[str, int] = field(default_factory=dict)

    def mean(self, party: str) -> Fraction:
        return Fraction(self.totals.get(party, 0), max(self.rounds, 1))

    def to_json(self) -> dict[str, object]:
        return {"game": self.game, "rounds": self.rounds, "seats": self.seats.count,
                "stacks": list(self.seats.stacks), "totals": dict(self.totals),
                "mean": {k: float(self.mean(k)) for k in self.totals}}


def simulate(game: Game, seats: Seats, rounds: int, rng: Rng, policy: Policy | None = None,
             progress: Callable[[int], None] | None = None) -> Simulation:
    """Play ``rounds`` independent rounds from new states; chance and, unless ``policy`` is
    given, the seats' choices (:func:`random_policy`) drawn with ``rng``."""
    chooser = policy or random_policy(rng)
    out = Simulation(game.game_id, seats)
    for played in range(1, rounds + 1):
        end = play_out(game.new_state(seats), chooser, rng)
        for party, amount in end.accounts().items():
            out.totals[party] = out.totals.get(party, 0) + amount
        out.rounds = played
        if progress is not None and (played % 100 == 0 or played == rounds):
            progress(100 if played % 100 == 0 else played % 100)
    return out
