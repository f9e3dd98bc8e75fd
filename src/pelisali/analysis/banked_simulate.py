"""Simulation of Three Card Poker through its engine, played by the optimal rule, set
beside the exact house edges of :func:`pelisali.games.three_card_poker.exact`.

Every round is one box betting an ante and Pair Plus of :data:`STAKE` cents, dealt
card by card from the engine's own chance nodes with a seeded generator, playing
queen-six-four or better and folding the rest (:func:`optimal_policy`). The ante row is
the return per ante of the ante and play bets together (what the play bet adds counted
against the ante, as the house edge per ante is); the Pair Plus row its own return. A
fold loses Pair Plus too, but the rule folds only high cards, which Pair Plus loses
anyway, so its exact edge stands.

>>> result = simulate_three_card(200, seed=1)
>>> [row.bet for row in result.rows], result.rounds
(['ante and play', 'Pair Plus'], 200)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pelisali.analysis.simulate import SimResult, SimRow
from pelisali.engine.contract import CHANCE, Action, Seats, State, sample_chance
from pelisali.engine.three_card import Fold, Play, ThreeCardEngine, ThreeCardState
from pelisali.engine.wager import EndBetting, PlaceBet
from pelisali.games.three_card_poker import PLAY_AT_LEAST, exact, rank_of
from pelisali.rng import SeededRng

STAKE = 1000
"""The ante and the Pair Plus bet of every simulated round, in cents."""
_LEAST_PLAYED = rank_of((f"{PLAY_AT_LEAST[0]}s", f"{PLAY_AT_LEAST[1]}d",
                         f"{PLAY_AT_LEAST[2]}c"))


def optimal_policy(state: State) -> Action:
    """The optimal rule at a box's decision: play queen-six-four or better, fold worse;
    before the deal, an ante and Pair Plus of :data:`STAKE`, then done.

    >>> from pelisali.engine import Seats
    >>> state = ThreeCardEngine().new_state(Seats(1))
    >>> for move in ["bet ante 100", "done", "Qs", "6d", "3c", "2s", "2d", "2h"]:
    ...     state = state.apply(move).state
    >>> optimal_policy(state).text()
    'fold'
    """
    if not isinstance(state, ThreeCardState):
        raise TypeError("the optimal rule is Three Card Poker's")
    seat = state.to_move()
    if seat is None or seat == CHANCE:
        raise ValueError("no box is to decide")
    if not all(state.done):
        placed = {b.spot for b in state.bets if b.seat == seat}
        for spot in ("ante", "pair-plus"):
            if spot not in placed:
                return PlaceBet(spot, STAKE)
        return EndBetting()
    return Play() if rank_of(state.boxes[seat]) >= _LEAST_PLAYED else Fold()


def simulate_three_card(rounds: int, seed: int,
                        settings: Mapping[str, str | bool] | None = None,
                        progress: Callable[[int], None] | None = None) -> SimResult:
    """``rounds`` rounds of one box through the engine by :func:`optimal_policy`, with the
    exact return of each bet beside the observed one and its 99 % interval."""
    engine = ThreeCardEngine.from_settings(settings)
    rules = engine.rules
    found = exact(rules.ante_bonus_table, rules.pair_plus_table)
    rng = SeededRng(seed)
    seats = Seats(1)
    ante_sum = ante_square = plus_sum = plus_square = 0
    for number in range(rounds):
        state: State = engine.new_state(seats)
        while not state.is_terminal():
            move = sample_chance(state, rng) if state.is_chance() else optimal_policy(state)
            state = state.apply(move).state
        if not isinstance(state, ThreeCardState):
            raise TypeError("the engine's rounds are Three Card Poker states")
        ante_value = plus_value = 0  # paid back, less the play bet: per ante
        for settled in state.settlements:
            if settled.spot == "pair-plus":
                plus_value += settled.paid
            else:
                ante_value += settled.paid - (settled.stake if settled.spot == "play" else 0)
        ante_sum += ante_value
        ante_square += ante_value * ante_value
        plus_sum += plus_value
        plus_square += plus_value * plus_value
        if progress and (number % 1000 == 999 or number + 1 == rounds):
            progress(min(1000, number % 1000 + 1))
    rows = [SimRow.from_sums("ante and play", "optimal: play Q-6-4 or better",
                             1 - found.ante_edge, ante_sum, ante_square, rounds, STAKE),
            SimRow.from_sums("Pair Plus", rules.pair_plus_table, 1 - found.pair_plus_edge,
                             plus_sum, plus_square, rounds, STAKE)]
    chosen = {"ante_bonus": rules.ante_bonus_table, "pair_plus": rules.pair_plus_table}
    return SimResult("three-card-poker", "", chosen, rounds, seed, rows)
