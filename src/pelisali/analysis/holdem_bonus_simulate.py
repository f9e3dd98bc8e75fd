"""Texas Hold'em Bonus simulated through its engine by the basic strategy, beside the exact
house edges of :func:`pelisali.games.holdem_bonus.exact`.

Every round is one box betting an ante and the Bonus of :data:`STAKE` cents, dealt card by
card from the engine's own chance nodes with a seeded generator and played by
:func:`basic_policy`, the one definition of :data:`~pelisali.games.holdem_bonus.BASIC_STRATEGY`
the exact count values. The main row is the return per ante of the ante, flop, turn and
river bets together (the bets after the deal counted against the ante, as the house edge
per ante is); the Bonus row its own return.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pelisali.analysis.banked_simulate import STAKE, _play, opening_bets, seat_to_decide
from pelisali.analysis.simulate import SimResult, SimRow
from pelisali.engine.contract import Action, State
from pelisali.engine.holdem_bonus import Check, Fold, HoldemBonusEngine, HoldemBonusState, StreetBet
from pelisali.games import holdem_bonus, holdem_bonus_optimal
from pelisali.rules.holdem_bonus import HoldemBonusRules


def basic_policy(state: State) -> Action:
    """The basic strategy at a box's decision; before the deal, an ante and a Bonus bet of
    :data:`STAKE`, then done.

    >>> from pelisali.engine import Seats
    >>> state = HoldemBonusEngine().new_state(Seats(1))
    >>> for move in ["bet ante 100", "done", "2s", "7d", "Ac", "Kd"]:
    ...     state = state.apply(move).state
    >>> basic_policy(state).text()
    'fold'
    """
    box, seat = seat_to_decide(state, HoldemBonusState, "Texas Hold'em Bonus")
    if (opening := opening_bets(box, seat, ("ante", "bonus"))) is not None:
        return opening
    hole, street = box.boxes[seat], box.street()
    if street == 0:
        return StreetBet("flop") if holdem_bonus.plays(hole) else Fold()
    if street == 1:
        return StreetBet("turn") if holdem_bonus.bets_turn(hole, box.board) else Check()
    return StreetBet("river") if holdem_bonus.bets_river(hole, box.board) else Check()


def optimal_policy(plays: holdem_bonus_optimal.Plays, rules: HoldemBonusRules | None = None
                   ) -> Callable[[State], Action]:
    """The optimal strategy (:class:`~pelisali.games.holdem_bonus_optimal.Plays`, the river
    bet counted on the spot under ``rules``) at a box's decision; before the deal, an ante
    and a Bonus bet of :data:`STAKE`."""

    def policy(state: State) -> Action:
        box, seat = seat_to_decide(state, HoldemBonusState, "Texas Hold'em Bonus")
        if (opening := opening_bets(box, seat, ("ante", "bonus"))) is not None:
            return opening
        bets = holdem_bonus_optimal.plays_from(plays, box.boxes[seat], box.board, rules)
        street = ("flop", "turn", "river")[box.street()]
        if bets:
            return StreetBet(street)
        return Fold() if street == "flop" else Check()

    return policy


STRATEGIES = ("basic", "optimal")
"""The strategies the simulation plays."""


def simulate_holdem_bonus(rounds: int, seed: int,
                          settings: Mapping[str, str | bool] | None = None,
                          progress: Callable[[int], None] | None = None,
                          found: holdem_bonus.Exact | None = None) -> SimResult:
    """``rounds`` hands of one box through the engine by :func:`basic_policy` (or, with
    ``strategy=optimal``, :func:`optimal_policy`), beside the exact returns (``found``,
    else :func:`~pelisali.games.holdem_bonus.cached_exact`; the optimal strategy's from
    :func:`~pelisali.games.holdem_bonus_optimal.cached_optimal`)."""
    chosen_settings = dict(settings or {})
    strategy = str(chosen_settings.pop("strategy", "basic"))
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy is basic or optimal, not {strategy!r}")
    engine = HoldemBonusEngine.from_settings(chosen_settings)
    rules = engine.rules
    if strategy == "optimal":
        best = holdem_bonus_optimal.cached_optimal(rules.ante_rule)[0]
        policy = optimal_policy(holdem_bonus_optimal.cached_plays(rules.ante_rule), rules)
        ante_return = 1 - best.ante_edge
    else:
        if found is None:
            found = holdem_bonus.cached_exact(rules.ante_rule, rules.bonus_table)[0]
        policy, ante_return = basic_policy, 1 - found.ante_edge
    sums = _play(engine, policy, rounds, seed, progress, ("bonus",))
    rows = [SimRow.from_sums("ante, flop, turn and river", f"the {strategy} strategy",
                             ante_return, sums[0], sums[1], rounds, STAKE),
            SimRow.from_sums("Bonus", rules.bonus_table, 1 - holdem_bonus.bonus_edge(rules),
                             sums[2], sums[3], rounds, STAKE)]
    chosen: dict[str, str | bool] = {"ante": rules.ante_rule, "bonus": rules.bonus_table,
                                     "strategy": strategy}
    return SimResult("texas-holdem-bonus", "", chosen, rounds, seed, rows)
