"""Oasis Stud Poker simulated through its engine by the basic strategy.

Every round is one box betting an ante of :data:`STAKE` cents, dealt card by card from the
engine's own chance nodes with a seeded generator and played by :func:`basic_policy`: the
one definition of :data:`~pelisali.games.oasis_stud.BASIC_STRATEGY`
(:func:`~pelisali.games.oasis_stud.decision`). The result is the box's mean net return per
ante (the ante, the raise and the exchange's fee together; the house edge per ante is its
negative) with its 99 % interval, and how often each final hand, each size of exchange and
the raise came up.

>>> found = simulate_oasis(300, seed=1)
>>> found.rounds, sum(found.hands.values()), sum(found.exchanged.values())
(300, 300, 300)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pelisali.analysis.banked_simulate import opening_bets, play_rounds, seat_to_decide
from pelisali.analysis.simulate import MeanInterval, mean_interval
from pelisali.engine.contract import Action, State
from pelisali.engine.oasis import HAND, OasisEngine, OasisState
from pelisali.games.oasis_stud import HAND_NAMES, decision, hand_name

STAKE = 1000
"""The ante of every simulated round, in cents."""


def basic_policy(state: State) -> Action:
    """The basic strategy at a box's decision; before the deal, an ante of :data:`STAKE`,
    then done.

    >>> from pelisali.engine import Seats
    >>> state = OasisEngine().new_state(Seats(1))
    >>> for move in ["bet ante 100", "done", "Ah", "Kh", "7h", "2h", "9d",
    ...              "Qc", "Jd", "9c", "4d", "3c"]:
    ...     state = state.apply(move).state
    >>> basic_policy(state).text()
    'exchange 9d'
    >>> basic_policy(state.apply("exchange 9d").state.apply("5c").state).text()
    'fold'
    """
    box, seat = seat_to_decide(state, OasisState, "Oasis Stud Poker")
    if (opening := opening_bets(box, seat, ("ante",), STAKE)) is not None:
        return opening
    return box.parse_action(decision(box.boxes[seat], bool(box.discards[seat])))


@dataclass(frozen=True)
class OasisSimulation(MeanInterval):
    """What ``rounds`` rounds came to: ``mean`` the box's net return per ante (negative:
    the house's edge) and ``half_width`` its 99 % interval's half; ``hands`` each final
    hand's count (:data:`~pelisali.games.oasis_stud.HAND_NAMES`), ``exchanged`` the
    rounds by the number of cards exchanged, ``raised`` the rounds raised, ``fees`` the
    fees paid in cents."""

    rounds: int
    seed: int
    settings: Mapping[str, str]
    mean: float
    half_width: float
    hands: dict[str, int]
    exchanged: dict[int, int]
    raised: int
    fees: int

    def to_json(self) -> dict[str, object]:
        return {"game": "oasis-stud", "settings": dict(self.settings), "rounds": self.rounds,
                "seed": self.seed, "stake": STAKE, "mean_return_per_ante": self.mean,
                "ci99": [self.low, self.high], "house_edge_per_ante": -self.mean,
                "hands": self.hands,
                "exchanged": {str(k): v for k, v in self.exchanged.items()},
                "raised": self.raised, "fees": self.fees}


def simulate_oasis(rounds: int, seed: int, settings: Mapping[str, str | bool] | None = None,
                   progress: Callable[[int], None] | None = None) -> OasisSimulation:
    """``rounds`` rounds of one box through the engine by :func:`basic_policy`."""
    engine = OasisEngine.from_settings(settings)
    total = square = raised = fees = 0
    hands = dict.fromkeys(HAND_NAMES, 0)
    exchanged = dict.fromkeys(range(HAND + 1), 0)
    for state in play_rounds(engine, basic_policy, rounds, seed, progress):
        if not isinstance(state, OasisState):
            raise TypeError("the engine made a state of another game")
        net = state.returns()[0]
        total += net
        square += net * net
        hands[hand_name(state.boxes[0])] += 1
        exchanged[len(state.discards[0])] += 1
        raised += state.decisions[0] == "raise"
        fees += sum(b.stake for b in state.bets if b.spot == "exchange")
    mean, half_width = mean_interval(total, square, rounds, STAKE)
    rules = engine.rules
    return OasisSimulation(rounds, seed, {"fees": rules.fee_table, "pays": rules.pay_table},
                           mean, half_width, hands, exchanged, raised, fees)
