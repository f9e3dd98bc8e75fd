"""Russian Poker simulated through its engine by the basic strategy.

Every round is one box betting an ante of :data:`STAKE` cents, dealt card by card from the
engine's own chance nodes with a seeded generator and played by :func:`basic_policy`: the
one definition of :data:`~pelisali.games.russian_poker.BASIC_STRATEGY`
(:func:`~pelisali.games.russian_poker.decision`), which takes the ante when the dealer
does not qualify; with ``buy="trips"`` it buys the dealer a game with three of a kind or
better instead (:data:`~pelisali.games.russian_poker.BUY_WITH_TRIPS`, which is simulated
only, not counted); with ``strategy="refined"`` the refined basic strategy
(:data:`~pelisali.games.russian_poker.REFINED_STRATEGY`) draws and bets. The result is
the box's mean net return per ante (the ante, the bet and every price together; the
house edge per ante is its negative) with its 99 % interval, and how often each final
hand, each draw and a bought game came up.

>>> found = simulate_russian(300, seed=1)
>>> found.rounds, sum(found.hands.values()), sum(found.draws.values())
(300, 300, 300)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

from pelisali.analysis.banked_simulate import opening_bets, play_rounds, seat_to_decide
from pelisali.analysis.simulate import MeanInterval, mean_interval
from pelisali.engine.contract import Action, State
from pelisali.engine.russian import FEES, BuyGame, RussianEngine, RussianState, TakeAnte
from pelisali.games.oasis_stud import HAND_NAMES
from pelisali.games.russian_poker import buys_game, decision, hand_name, refined_decision

STAKE = 1000
"""The ante of every simulated round, in cents."""
BUYS = ("never", "trips")
"""Rule 5 as simulated: take the ante always (the basic strategy), or buy the dealer a game
with three of a kind or better."""
STRATEGIES = ("basic", "refined")
"""The stated strategies simulated: the basic one and the refined one."""


def basic_policy(state: State, buy: str = "never", strategy: str = "basic") -> Action:
    """The basic strategy at a box's decision (rule 5 by ``buy``; the refined one's draws
    and bets where ``strategy`` says so); before the deal, an ante of :data:`STAKE`, then
    done.

    >>> from pelisali.engine import Seats
    >>> state = RussianEngine().new_state(Seats(1))
    >>> for move in ["bet ante 100", "done", "Ah", "Kh", "7h", "2h", "9d",
    ...              "Qc", "Jd", "9c", "4d", "3c"]:
    ...     state = state.apply(move).state
    >>> basic_policy(state).text()
    'sixth'
    >>> basic_policy(state.apply("sixth").state.apply("5c").state).text()
    'fold'
    """
    box, seat = seat_to_decide(state, RussianState, "Russian Poker")
    if (opening := opening_bets(box, seat, ("ante",), STAKE)) is not None:
        return opening
    cards = box.boxes[seat]
    if box.decisions[seat] == "raise":  # the dealer does not qualify
        return BuyGame() if buy == "trips" and buys_game(cards) else TakeAnte()
    drawn = bool(box.draws[seat])
    if strategy == "refined":
        return box.parse_action(refined_decision(cards, drawn))
    return box.parse_action(decision(cards, drawn, box.game.rules))


@dataclass(frozen=True)
class RussianSimulation(MeanInterval):
    """What ``rounds`` rounds came to: ``mean`` the box's net return per ante (negative:
    the house's edge) and ``half_width`` its 99 % interval's half; ``hands`` each final
    hand's count, ``draws`` the rounds by draw (``none``, ``sixth``, ``exchange``),
    ``raised`` the rounds bet, ``bought`` the games bought, ``prices`` the prices paid in
    cents."""

    rounds: int
    seed: int
    settings: Mapping[str, str]
    mean: float
    half_width: float
    hands: dict[str, int]
    draws: dict[str, int]
    raised: int
    bought: int
    prices: int

    def to_json(self) -> dict[str, object]:
        return {"game": "russian-poker", "settings": dict(self.settings),
                "rounds": self.rounds, "seed": self.seed, "stake": STAKE,
                "mean_return_per_ante": self.mean, "ci99": [self.low, self.high],
                "house_edge_per_ante": -self.mean, "hands": self.hands, "draws": self.draws,
                "raised": self.raised, "bought": self.bought, "prices": self.prices}


def simulate_russian(rounds: int, seed: int, settings: Mapping[str, str | bool] | None = None,
                     progress: Callable[[int], None] | None = None) -> RussianSimulation:
    """``rounds`` rounds of one box through the engine by :func:`basic_policy`; the
    settings are the engine's (``pays``), ``buy`` (:data:`BUYS`) and ``strategy``
    (:data:`STRATEGIES`).

    >>> simulate_russian(1, 1, {"buy": "always"})
    Traceback (most recent call last):
    ...
    ValueError: buy is one of never, trips, not 'always'
    """
    chosen = dict(settings or {})
    buy = str(chosen.pop("buy", "never"))
    strategy = str(chosen.pop("strategy", "basic"))
    if buy not in BUYS:
        raise ValueError(f"buy is one of {', '.join(BUYS)}, not {buy!r}")
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy is one of {', '.join(STRATEGIES)}, not {strategy!r}")
    engine = RussianEngine.from_settings(chosen)
    total = square = raised = bought = prices = 0
    hands = dict.fromkeys(HAND_NAMES, 0)
    draws = dict.fromkeys(("none", "sixth", "exchange"), 0)
    policy = partial(basic_policy, buy=buy, strategy=strategy)
    for state in play_rounds(engine, policy, rounds, seed, progress):
        if not isinstance(state, RussianState):
            raise TypeError("the engine made a state of another game")
        net = state.returns()[0]
        total += net
        square += net * net
        hands[hand_name(state.boxes[0])] += 1
        draws[state.draws[0] or "none"] += 1
        raised += state.decisions[0] == "raise"
        bought += state.buys[0] == "buy"
        prices += sum(b.stake for b in state.bets if b.spot in FEES)
    mean, half_width = mean_interval(total, square, rounds, STAKE)
    return RussianSimulation(rounds, seed, {"pays": engine.rules.pay_table, "buy": buy,
                                            "strategy": strategy},
                             mean, half_width, hands, draws, raised, bought, prices)
