"""Simulation of Three Card Poker, Red Dog and Ultimate Texas Hold'em through their
engines, played by the optimal rule (Ultimate Texas Hold'em: the simple strategy), set
beside the exact house edges of :func:`pelisali.games.three_card_poker.exact`,
:func:`pelisali.games.red_dog.exact` and :func:`pelisali.games.ultimate_texas.exact`.

Every round is one box betting an ante and Pair Plus of :data:`STAKE` cents, dealt
card by card from the engine's own chance nodes with a seeded generator, playing
queen-six-four or better and folding the rest (:func:`optimal_policy`). The ante row is
the return per ante of the ante and play bets together (what the play bet adds counted
against the ante, as the house edge per ante is); the Pair Plus row its own return. A
fold loses Pair Plus too, but the rule folds only high cards, which Pair Plus loses
anyway, so its exact edge stands. A Red Dog round is one seat's ante of :data:`STAKE`
from a fresh shoe, raised by the whole ante where
:func:`~pelisali.games.red_dog.should_raise` says so (:func:`red_dog_policy`).

>>> result = simulate_three_card(200, seed=1)
>>> [row.bet for row in result.rows], result.rounds
(['ante and play', 'Pair Plus'], 200)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TypeVar

from pelisali.analysis.simulate import SimResult, SimRow
from pelisali.engine.chemin_de_fer import Banco, CheminEngine, CheminState, Draw, PutUpBank
from pelisali.engine.chemin_de_fer import Stand as CheminStand
from pelisali.engine.contract import CHANCE, Action, Game, Seats, State, sample_chance
from pelisali.engine.red_dog import Raise, RedDogEngine, RedDogState, Stand
from pelisali.engine.three_card import Fold, Play, ThreeCardEngine, ThreeCardState
from pelisali.engine.ultimate import Check as UltimateCheck
from pelisali.engine.ultimate import Fold as UltimateFold
from pelisali.engine.ultimate import PlayBet, UltimateEngine, UltimateState
from pelisali.engine.wager import EndBetting, PlaceBet
from pelisali.games import chemin_de_fer, red_dog, ultimate_optimal, ultimate_texas
from pelisali.games.three_card_poker import PLAY_AT_LEAST, exact, rank_of
from pelisali.rng import SeededRng
from pelisali.rules.banked import UltimateRules

_S = TypeVar("_S", bound=State)
STAKE = 1000
"""The ante and the Pair Plus bet of every simulated round, in cents."""
_LEAST_PLAYED = rank_of((f"{PLAY_AT_LEAST[0]}s", f"{PLAY_AT_LEAST[1]}d",
                         f"{PLAY_AT_LEAST[2]}c"))


def seat_to_decide(state: State, kind: type[_S], game: str) -> tuple[_S, int]:
    """``state`` as the game's own (``kind``, the game a strategy is written for, named
    ``game`` in the refusal) and the seat to act; a :class:`TypeError` for another game's
    round, a :class:`ValueError` when no seat is to act (chance's turn, or the end).

    >>> from pelisali.engine import Seats
    >>> seat_to_decide(RedDogEngine().new_state(Seats(1)), ThreeCardState, "Three Card Poker")
    Traceback (most recent call last):
    ...
    TypeError: this strategy is Three Card Poker's
    """
    if not isinstance(state, kind):
        raise TypeError(f"this strategy is {game}'s")
    seat = state.to_move()
    if seat is None or seat == CHANCE:
        raise ValueError("no box is to decide")
    return state, seat


def opening_bets(state: State, seat: int, spots: Sequence[str], stake: int = STAKE
                 ) -> Action | None:
    """Before the deal: the first of ``spots`` ``seat`` has not bet, at ``stake`` cents,
    and then done; ``None`` once the cards are dealt.

    >>> from pelisali.engine import Seats
    >>> state = ThreeCardEngine().new_state(Seats(1))
    >>> opening_bets(state, 0, ("ante", "pair-plus")).text()
    'bet ante 1000'
    >>> opening_bets(state.apply("bet ante 1000").state, 0, ("ante",)).text()
    'done'
    """
    if all(getattr(state, "done", ())):
        return None
    placed = {b.spot for b in getattr(state, "bets", ()) if b.seat == seat}
    for spot in spots:
        if spot not in placed:
            return PlaceBet(spot, stake)
    return EndBetting()


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
    box, seat = seat_to_decide(state, ThreeCardState, "Three Card Poker")
    if (opening := opening_bets(box, seat, ("ante", "pair-plus"))) is not None:
        return opening
    return Play() if rank_of(box.boxes[seat]) >= _LEAST_PLAYED else Fold()


def simulate_three_card(rounds: int, seed: int,
                        settings: Mapping[str, str | bool] | None = None,
                        progress: Callable[[int], None] | None = None) -> SimResult:
    """``rounds`` rounds of one box through the engine by :func:`optimal_policy`, with the
    exact return of each bet beside the observed one and its 99 % interval."""
    engine = ThreeCardEngine.from_settings(settings)
    rules = engine.rules
    found = exact(rules.ante_bonus_table, rules.pair_plus_table)
    sums = _play(engine, optimal_policy, rounds, seed, progress, ("pair-plus",))
    rows = [SimRow.from_sums("ante and play", "optimal: play Q-6-4 or better",
                             1 - found.ante_edge, sums[0], sums[1], rounds, STAKE),
            SimRow.from_sums("Pair Plus", rules.pair_plus_table, 1 - found.pair_plus_edge,
                             sums[2], sums[3], rounds, STAKE)]
    chosen = {"ante_bonus": rules.ante_bonus_table, "pair_plus": rules.pair_plus_table}
    return SimResult("three-card-poker", "", chosen, rounds, seed, rows)


def red_dog_policy(state: State) -> Action:
    """The optimal play: an ante of :data:`STAKE`, and a raise of the whole ante on a
    spread :func:`~pelisali.games.red_dog.should_raise` names (7 or more on 6 decks).

    >>> from pelisali.engine import Seats
    >>> state = RedDogEngine().new_state(Seats(1))
    >>> for move in ["bet ante 100", "done", "2s", "Td"]:
    ...     state = state.apply(move).state
    >>> red_dog_policy(state).text()
    'raise 100'
    """
    box, seat = seat_to_decide(state, RedDogState, "Red Dog")
    if (opening := opening_bets(box, seat, ("ante",))) is not None:
        return opening
    between = box.spread()
    if between and red_dog.should_raise(between, box.game.rules):
        return Raise(sum(b.stake for b in box.bets if b.seat == seat))
    return Stand()


def simulate_red_dog(rounds: int, seed: int, settings: Mapping[str, str | bool] | None = None,
                     progress: Callable[[int], None] | None = None) -> SimResult:
    """``rounds`` hands of one seat through the engine by :func:`red_dog_policy`, each from
    a fresh shoe, with the exact return per ante beside the observed one."""
    engine = RedDogEngine.from_settings(settings)
    rules = engine.rules
    found = red_dog.exact(rules.decks, rules.pay_table)
    sums = _play(engine, red_dog_policy, rounds, seed, progress, ())
    row = SimRow.from_sums("ante and raise", f"optimal: raise on a spread of "
                           f"{found.raise_from} or more", 1 - found.edge, sums[0], sums[1],
                           rounds, STAKE)
    chosen: dict[str, str | bool] = {"decks": str(rules.decks), "pay_table": rules.pay_table}
    return SimResult("red-dog", "", chosen, rounds, seed, [row])


def play_rounds(engine: Game, policy: Callable[[State], Action], rounds: int, seed: int,
                progress: Callable[[int], None] | None, seats: int = 1) -> Iterator[State]:
    """Each of ``rounds`` rounds at ``seats`` seats played to its end by ``policy``, dealt
    from the engine's own chance nodes with a generator seeded ``seed``; ``progress`` is
    told the rounds played since it was last told, every thousand rounds and at the end.

    >>> ends = list(play_rounds(RedDogEngine(), red_dog_policy, 3, seed=1, progress=print))
    3
    >>> len(ends), all(state.is_terminal() for state in ends)
    (3, True)
    """
    rng = SeededRng(seed)
    at = Seats(seats)
    for number in range(rounds):
        state: State = engine.new_state(at)
        while not state.is_terminal():
            move = sample_chance(state, rng) if state.is_chance() else policy(state)
            state = state.apply(move).state
        yield state
        if progress and (number % 1000 == 999 or number + 1 == rounds):
            progress(min(1000, number % 1000 + 1))


def _play(engine: Game, policy: Callable[[State], Action], rounds: int, seed: int,
          progress: Callable[[int], None] | None, apart: tuple[str, ...]) -> list[int]:
    """Play ``rounds`` rounds of one seat; the sums of each round's main value (paid back
    less what was staked after the deal, per ante) and its square, then of the bets on
    the ``apart`` spots (paid back) and their square."""
    main_sum = main_square = side_sum = side_square = 0
    for state in play_rounds(engine, policy, rounds, seed, progress):
        main = side = 0
        for settled in getattr(state, "settlements", ()):
            if settled.spot in apart:
                side += settled.paid
            else:  # the play bet or the raise, made after the deal, counts against the ante
                main += settled.paid - (0 if settled.spot == "ante" else settled.stake)
        main_sum += main
        main_square += main * main
        side_sum += side
        side_square += side * side
    return [main_sum, main_square, side_sum, side_square]


def ultimate_policy(state: State) -> Action:
    """The simple strategy (:data:`~pelisali.games.ultimate_texas.SIMPLE_STRATEGY`) at a
    box's decision; before the deal, an ante (with its blind) and Trips of :data:`STAKE`.

    >>> from pelisali.engine import Seats
    >>> state = UltimateEngine().new_state(Seats(1))
    >>> for move in ["bet ante 100", "done", "Kh", "4d", "2s", "2d"]:
    ...     state = state.apply(move).state
    >>> ultimate_policy(state).text()
    'check'
    """
    box, seat = seat_to_decide(state, UltimateState, "Ultimate Texas Hold'em")
    if (opening := opening_bets(box, seat, ("ante", "trips"))) is not None:
        return opening
    hole, street = box.boxes[seat], box.street()
    if street == 0:
        return PlayBet(4) if ultimate_texas.preflop_raise(hole) else UltimateCheck()
    if street == 1:
        return PlayBet(2) if ultimate_texas.flop_raise(hole, box.board) else UltimateCheck()
    return PlayBet(1) if ultimate_texas.river_bet(hole, box.board) else UltimateFold()


def optimal_ultimate_policy(plays: ultimate_optimal.Plays, rules: UltimateRules | None = None
                            ) -> Callable[[State], Action]:
    """The optimal strategy (:class:`~pelisali.games.ultimate_optimal.Plays`, the river
    decision counted on the spot under ``rules``) at a box's decision; before the deal, an
    ante (with its blind) and Trips of :data:`STAKE`."""

    def policy(state: State) -> Action:
        box, seat = seat_to_decide(state, UltimateState, "Ultimate Texas Hold'em")
        if (opening := opening_bets(box, seat, ("ante", "trips"))) is not None:
            return opening
        play = ultimate_optimal.plays_from(plays, box.boxes[seat], box.board, rules)
        if play > 0:
            return PlayBet(play)
        return UltimateFold() if play < 0 else UltimateCheck()

    return policy


STRATEGIES = ("simple", "optimal")
"""The Ultimate Texas Hold'em strategies the simulation plays."""


def simulate_ultimate(rounds: int, seed: int, settings: Mapping[str, str | bool] | None = None,
                      progress: Callable[[int], None] | None = None,
                      found: ultimate_texas.Exact | None = None) -> SimResult:
    """``rounds`` hands of one box through the engine by :func:`ultimate_policy` (or, with
    ``strategy=optimal``, :func:`optimal_ultimate_policy`), beside the exact returns
    (``found``, else :func:`~pelisali.games.ultimate_texas.cached_exact`; the optimal
    strategy's from :func:`~pelisali.games.ultimate_optimal.cached_optimal`)."""
    chosen_settings = dict(settings or {})
    strategy = str(chosen_settings.pop("strategy", "simple"))
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy is simple or optimal, not {strategy!r}")
    engine = UltimateEngine.from_settings(chosen_settings)
    rules = engine.rules
    if found is None:
        found = ultimate_texas.cached_exact(rules.blind_table, rules.trips_table)[0]
    policy: Callable[[State], Action] = ultimate_policy
    ante_return, named = 1 - found.ante_edge, "the simple strategy"
    if strategy == "optimal":
        best = ultimate_optimal.cached_optimal(rules.blind_table)[0]
        plays = ultimate_optimal.cached_plays(rules.blind_table)
        ante_return, policy = 1 - best.ante_edge, optimal_ultimate_policy(plays, rules)
        named = "the optimal strategy"
    sums = _play(engine, policy, rounds, seed, progress, ("trips",))
    rows = [SimRow.from_sums("ante, blind and play", named, ante_return, sums[0], sums[1],
                             rounds, STAKE),
            SimRow.from_sums("Trips", rules.trips_table, 1 - found.trips_edge,
                             sums[2], sums[3], rounds, STAKE)]
    chosen: dict[str, str | bool] = {"blind": rules.blind_table, "trips": rules.trips_table,
                                     "strategy": strategy}
    return SimResult("ultimate-texas-holdem", "", chosen, rounds, seed, rows)


def chemin_policy(state: State) -> Action:
    """Chemin de fer by its rule data: seat 0 puts up a bank of :data:`STAKE`, the punter
    goes banco, and each choice (on five, in the banker's option cells) is the rule
    data's.

    >>> from pelisali.engine import Seats
    >>> state = CheminEngine().new_state(Seats(2))
    >>> [chemin_policy(state).text(), chemin_policy(state.apply("bank 1000").state).text()]
    ['bank 1000', 'banco']
    """
    if not isinstance(state, CheminState):
        raise TypeError("the rule data's choices are chemin de fer's")
    rules = state.game.rules
    waiting = state.legal_actions()
    if not waiting or state.is_chance():
        raise ValueError("no seat is to decide")
    if any(isinstance(a, PutUpBank) for a in waiting):
        return PutUpBank(STAKE)
    if any(isinstance(a, Banco) for a in waiting):
        return Banco()
    if len(state.hand("player")) == 2:  # the choice on five
        return Draw() if rules.player_choice == "draw" else CheminStand()
    banker = sum(state.hand("banker")) % 10
    third = state.hand("player")[2]
    return Draw() if rules.options[(banker, third)] == "draw" else CheminStand()


def simulate_chemin(rounds: int, seed: int, settings: Mapping[str, str | bool] | None = None,
                    progress: Callable[[int], None] | None = None) -> SimResult:
    """``rounds`` coups of a bank of :data:`STAKE` against one punter going banco, each
    from a fresh shoe, by :func:`chemin_policy`: the punter's and the bank's returns (ties
    void, the commission off the bank's wins) beside
    :func:`~pelisali.games.chemin_de_fer.exact`.

    >>> result = simulate_chemin(200, seed=1)
    >>> [row.bet for row in result.rows]
    ['the punter', 'the bank']
    """
    engine = CheminEngine.from_settings(settings)
    rules = engine.rules
    found = chemin_de_fer.exact(decks=rules.decks)
    sums = [0, 0, 0, 0]
    for state in play_rounds(engine, chemin_policy, rounds, seed, progress, seats=2):
        bank, punter = (STAKE + r for r in state.returns())
        sums[0] += punter
        sums[1] += punter * punter
        sums[2] += bank
        sums[3] += bank * bank
    cells = ", ".join(f"{total} against {third}: {choice}"
                      for (total, third), choice in sorted(rules.options.items()))
    rows = [SimRow.from_sums("the punter",
                             f"banco, the player's hand: {rules.player_choice} on five",
                             1 + found.player_value, sums[0], sums[1], rounds, STAKE),
            SimRow.from_sums("the bank", f"{rules.commission_percent} % commission; {cells}",
                             1 + found.banker_value, sums[2], sums[3], rounds, STAKE)]
    chosen: dict[str, str | bool] = {"decks": str(rules.decks)}
    return SimResult("chemin-de-fer", "", chosen, rounds, seed, rows)
