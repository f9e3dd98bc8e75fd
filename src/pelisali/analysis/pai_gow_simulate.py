"""Pai Gow Poker simulated through its engine, the box setting by the house way.

Every round is one box betting :data:`STAKE` cents against the house, dealt card by card
from the engine's own chance nodes with a seeded generator; the box asks for the house way
(``house``), as the dealer sets. The result is the box's mean net return per bet (the
commission taken; the house edge is its negative) with its 99 % interval, how often the
box won, pushed and lost, each with its 99 % interval, and how often a hand was a copy.
The exact figures are :mod:`pelisali.games.pai_gow_count`'s (every deal of the box's
seven cards and the dealer's counted); :data:`PUBLISHED` holds the published simulated
figures to compare.

>>> found = simulate_pai_gow(200, seed=1)
>>> found.rounds, found.wins + found.pushes + found.losses, found.fouls
(200, 200, 0)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

from pelisali.analysis.banked_simulate import opening_bets, play_rounds, seat_to_decide
from pelisali.analysis.simulate import Z99, MeanInterval, mean_interval
from pelisali.engine.contract import Action, State
from pelisali.engine.pai_gow import PaiGowEngine, PaiGowState, SetHouseWay

STAKE = 1000
"""The bet of every simulated round, in cents (its 5 % commission is whole cents)."""

@dataclass(frozen=True)
class Published:
    """A published figure: the shares of the box's results and the house edge per bet."""

    win: float
    push: float
    lose: float
    house_edge: float
    source: str

    def share(self, result: str) -> float:
        return {"win": self.win, "push": self.push, "lose": self.lose}[result]


PUBLISHED = {
    "Wizard of Odds": Published(
        0.2855, 0.4147, 0.2998, 0.0285,
        "the Wizard of Odds, \"Pai Gow Poker: No-Push Pai Gow\" "
        "(wizardofodds.com/games/pai-gow-poker/appendix/4/): player and banker both setting "
        "by the Trump Plaza house way, by random simulation; copies to the banker, a 5 % "
        "commission"),
    "bonussunpoker.com": Published(
        0.2861, 0.4148, 0.2991, 0.0273,
        "bonussunpoker.com, \"The Probability of Winning in Pai Gow Poker\": the house "
        "banking"),
}
"""Published shares of the box's results with the house way on both sides, and the house
edge per bet. The shares depend on the house way, the two-pair rule above all: the more a
way splits two pair, the fewer pushes (the Foxwoods way splits more than the Trump Plaza
way; 200,000 rounds of it, seed 2024, push 40.4 % and house edge 2.96 %, 99 % interval
2.53 % to 3.40 %). The house edge moves much less."""


SIDES = ("ante", "bank")
"""The box's side as simulated: a bet against the house's bank, or the box banking."""


def house_policy(state: State, side: str = "ante") -> Action:
    """The box's moves: a bet of :data:`STAKE` on ``side`` (``ante``, or ``bank``: the box
    banks), then done, then the house way.

    >>> from pelisali.engine import Seats
    >>> state = PaiGowEngine().new_state(Seats(1))
    >>> house_policy(state).text(), house_policy(state, "bank").text()
    ('bet ante 1000', 'bet bank 1000')
    """
    box, seat = seat_to_decide(state, PaiGowState, "Pai Gow Poker")
    if (opening := opening_bets(box, seat, (side,), STAKE)) is not None:
        return opening
    return SetHouseWay()


@dataclass(frozen=True)
class PaiGowSimulation(MeanInterval):
    """What ``rounds`` rounds came to: ``mean`` the box's net return per bet (negative:
    the house's edge) and ``half_width`` its 99 % interval's half; the rounds the box
    won, pushed and lost; the rounds whose high or low hand was a copy; fouls (none, by
    the house way); the commissions paid in cents."""

    rounds: int
    seed: int
    settings: Mapping[str, str]
    mean: float
    half_width: float
    wins: int
    pushes: int
    losses: int
    high_copies: int
    low_copies: int
    fouls: int
    commissions: int

    def share(self, result: str) -> tuple[float, float]:
        """A result's share of the rounds and its 99 % interval's half width."""
        count = {"win": self.wins, "push": self.pushes, "lose": self.losses}[result]
        p = count / self.rounds
        return p, Z99 * math.sqrt(p * (1 - p) / self.rounds)

    def to_json(self) -> dict[str, object]:
        return {"game": "pai-gow-poker", "settings": dict(self.settings),
                "rounds": self.rounds, "seed": self.seed, "stake": STAKE,
                "mean_return_per_bet": self.mean, "ci99": [self.low, self.high],
                "house_edge_per_bet": -self.mean,
                "results": {r: {"rounds": round(self.share(r)[0] * self.rounds),
                                "share": self.share(r)[0],
                                "ci99": [self.share(r)[0] - self.share(r)[1],
                                         self.share(r)[0] + self.share(r)[1]]}
                            for r in ("win", "push", "lose")},
                "high_copies": self.high_copies, "low_copies": self.low_copies,
                "fouls": self.fouls, "commissions": self.commissions,
                "published": {name: {"win": p.win, "push": p.push, "lose": p.lose,
                                     "house_edge": p.house_edge, "source": p.source}
                              for name, p in PUBLISHED.items()}}


def simulate_pai_gow(rounds: int, seed: int,
                     settings: Mapping[str, str | bool] | None = None,
                     progress: Callable[[int], None] | None = None) -> PaiGowSimulation:
    """``rounds`` rounds of one box through the engine by :func:`house_policy`; the
    settings are the engine's (``house_way``, ``wheel``) and ``side`` (:data:`SIDES`:
    ``bank`` for the box banking, a copy then the box's).

    >>> simulate_pai_gow(1, 1, {"side": "dealer"})
    Traceback (most recent call last):
    ...
    ValueError: side is ante or bank, not 'dealer'
    """
    chosen = dict(settings or {})
    side = str(chosen.pop("side", "ante"))
    if side not in SIDES:
        raise ValueError(f"side is ante or bank, not {side!r}")
    engine = PaiGowEngine.from_settings(chosen)
    total = square = commissions = fouls = high_copies = low_copies = 0
    results = {"win": 0, "push": 0, "lose": 0}
    for state in play_rounds(engine, partial(house_policy, side=side), rounds, seed, progress):
        if not isinstance(state, PaiGowState):
            raise TypeError("the engine made a state of another game")
        net = state.returns()[0]
        total += net
        square += net * net
        settled = state.settlements[0]
        results[settled.outcome] += 1
        fouls += settled.foul
        high_copies += settled.high == "copy"
        low_copies += settled.low == "copy"
        commissions += sum(c.amount for c in state.commissions)
    mean, half_width = mean_interval(total, square, rounds, STAKE)
    rules = engine.rules
    return PaiGowSimulation(rounds, seed, {"house_way": rules.house_way.name,
                                           "wheel": rules.wheel, "side": side},
                            mean, half_width, results["win"], results["push"],
                            results["lose"], high_copies, low_copies, fouls, commissions)
