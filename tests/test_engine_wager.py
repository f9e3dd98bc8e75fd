"""The wheel and dice games under the engine contract, checked against the table and the odds.

The contract's walk of chance outcomes must give every bet type exactly the
return of :func:`pelisali.analysis.odds.exact_odds` (a held bet valued at its
solved prison value), and a round played through the contract must settle
every bet exactly as :class:`pelisali.games.round.Round` does.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pelisali.analysis.odds import REFERENCE_STAKE, exact_odds, held_values
from pelisali.analysis.walk import expected_returns, first_action, outcome_distribution, play_out
from pelisali.engine import GAMES, IllegalMove, Seats, State
from pelisali.engine.wager import Decide, EndBetting, PlaceBet, WagerEngine, WagerState
from pelisali.games.round import Round
from pelisali.rng import SeededRng

WAGER_IDS = sorted(g for g, e in GAMES.items() if isinstance(e, WagerEngine))


def one_bet(engine: WagerEngine, spot: str, stake: int = REFERENCE_STAKE) -> WagerState:
    state = engine.new_state(Seats(1))
    state = state.apply(PlaceBet(spot, stake)).state.apply(EndBetting()).state
    assert isinstance(state, WagerState)
    return state


def value_of_end(state: WagerState, held: dict[tuple[str, int], Fraction]) -> Fraction:
    """What the seat has at the end of the round: cents paid plus held bets at their value."""
    wager = state.game.wager
    total = Fraction(0)
    for settled in state.settlements:
        total += settled.paid
        if settled.held_level:
            total += settled.stake * held[(wager.spot(settled.spot).bet_type, settled.held_level)]
    return total


@pytest.mark.parametrize("game_id", WAGER_IDS)
def test_the_walk_gives_every_bet_its_exact_odds(game_id: str) -> None:
    engine = GAMES[game_id]
    assert isinstance(engine, WagerEngine)
    wager = engine.wager
    held = held_values(wager)
    for odds in exact_odds(wager):
        spot = wager.spots_of(odds.bet)[0].key
        start = one_bet(engine, spot)

        def best(state: State) -> Decide:
            # The choice the odds solved as best: the option worth more afterwards.
            assert isinstance(state, WagerState)
            options = [a for a in state.legal_actions() if isinstance(a, Decide)]
            return max(options, key=lambda a: value_of_end(
                _finish(state.apply(a).state), held))

        expected = Fraction(0)
        terminal = _terminals(start, best)
        for end, probability in terminal:
            expected += probability * value_of_end(end, held)
        assert expected / REFERENCE_STAKE == odds.rtp, (game_id, odds.bet)


def _finish(state: State) -> WagerState:
    assert isinstance(state, WagerState) and state.is_terminal()
    return state


def _terminals(state: State, policy: object) -> list[tuple[WagerState, Fraction]]:
    out: list[tuple[WagerState, Fraction]] = []

    def walk(node: State, p: Fraction) -> None:
        if node.is_terminal():
            out.append((_finish(node), p))
        elif node.is_chance():
            for outcome, q in node.chance_outcomes():
                walk(node.apply(outcome).state, p * q)
        else:
            assert callable(policy)
            walk(node.apply(policy(node)).state, p)

    walk(state, Fraction(1))
    return out


def test_roulette_c_red_walks_to_the_single_zero_edge() -> None:
    state = one_bet(GAMES["roulette-C"], "red", 3700)
    assert expected_returns(state, first_action) == (Fraction(-100),)
    assert outcome_distribution(state, first_action) == {(3700,): Fraction(18, 37),
                                                         (-3700,): Fraction(19, 37)}


@settings(max_examples=60, deadline=None)
@given(game_id=st.sampled_from(WAGER_IDS), seed=st.integers(0, 2**32 - 1))
def test_a_round_settles_as_the_table_round_does(game_id: str, seed: int) -> None:
    engine = GAMES[game_id]
    assert isinstance(engine, WagerEngine)
    wager = engine.wager
    rng = SeededRng(seed)
    spots = wager.spots()
    state: State = engine.new_state(Seats(2))
    table_round = Round(wager, "r")
    limits = wager.rules.limits
    for seat in (0, 1):
        for _ in range(1 + rng.randbelow(6)):
            spot = spots[rng.randbelow(len(spots))].key
            stake = limits.min + rng.randbelow(limits.max - limits.min + 1)
            try:
                receipt = table_round.place(str(seat), spot, stake)
            except ValueError:
                with pytest.raises(IllegalMove):
                    state.apply(PlaceBet(spot, stake))
                continue
            state = state.apply(PlaceBet(spot, stake)).state
            assert isinstance(state, WagerState)
            assert state.bets[-1].stake == receipt.accepted
        state = state.apply(EndBetting(), seat=seat).state
    state = play_out(state, first_action, rng)
    assert isinstance(state, WagerState)
    table_round.close()
    table_round.apply_draws(wager.draws_for(state.faces))
    for decided_bet, option in state.decisions:
        table_round.decide(decided_bet, option)
    expected = [(s.player, s.spot, s.stake, s.paid, s.rounding, s.result, s.held_level)
                for s in table_round.settle()]
    got = [(str(s.seat), s.spot, s.stake, s.paid, s.rounding, s.result, s.held_level)
           for s in state.settlements]
    assert got == expected


def test_roulette_d_asks_the_owner_at_a_zero_and_prison_carries_over() -> None:
    engine = GAMES["roulette-D"]
    assert isinstance(engine, WagerEngine)
    state = one_bet(engine, "red", 1000).apply("0").state
    assert state.to_move() == 0
    assert [a.text() for a in state.legal_actions()] == ["choose 1 prison", "choose 1 half"]
    with pytest.raises(IllegalMove, match="'quarter' is not an option; choose prison or half"):
        state.apply("choose 1 quarter")
    half = state.apply("choose 1 half").state
    assert half.returns() == (-500,)
    prison = state.apply("choose 1 prison").state
    assert isinstance(prison, WagerState)
    assert prison.returns() == (-1000,)
    assert prison.accounts() == {"seat 0": -1000, "table": 1000, "house": 0}
    carried = prison.carried_forward()
    nxt = engine.new_round(Seats(1), carried).apply("done").state.apply("18").state
    assert isinstance(nxt, WagerState)
    assert nxt.settlements[0].result == "release" and nxt.returns() == (1000,)
    assert nxt.accounts() == {"seat 0": 1000, "table": -1000, "house": 0}


def test_bad_bets_are_refused_with_the_reason() -> None:
    state = GAMES["roulette-C"].new_state(Seats(1))
    with pytest.raises(IllegalMove, match="no betting spot 'nowhere'"):
        state.apply("bet nowhere 100")
    with pytest.raises(IllegalMove, match="positive whole number of cents"):
        state.apply(PlaceBet("red", -5))
    with pytest.raises(IllegalMove, match="under the table minimum"):
        state.apply(PlaceBet("red", 1))
    with pytest.raises(IllegalMove, match=r"whole number of cents, not '5\.5'"):
        state.apply("bet red 5.5")
    for stake in ("0500", "+500", "\u0665\u0660\u0660", "\u00b2"):  # "²" broke int()
        with pytest.raises(IllegalMove, match=re.escape(f"cents, not {stake!r}")):
            state.apply(f"bet red {stake}")
    with pytest.raises(IllegalMove, match=r"no betting spot 'straight -1' \(a spot is"):
        state.apply("bet straight -1 500")  # was a bet on straight 1
    over = GAMES["roulette-C"].wager.rules.limits.max + 700
    step = state.apply(PlaceBet("red", over))
    assert "over the table maximum is void and returned" in step.events[0].text
    assert step.state.returns() == (-(over - 700),)
    with pytest.raises(IllegalMove, match="the round is over"):
        state.apply("done").state.apply("3").state.apply("done")
