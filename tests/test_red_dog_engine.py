"""Red Dog on the engine contract (standard rules; RAY 2016 1.4.2 names the game): every
kind of hand's payout on the ante and the raise, the order of decisions, bad moves, the
exact house edge walked through the engine's own chance outcomes, and the simulation."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from pelisali.analysis.banked_simulate import STAKE, red_dog_policy, simulate_red_dog
from pelisali.analysis.walk import expected_returns
from pelisali.cli.main import app
from pelisali.engine import GAMES, IllegalMove, Seats, replay
from pelisali.engine.red_dog import Raise, RedDogEngine, RedDogState, Stand
from pelisali.games.red_dog import exact

ENGINE = RedDogEngine()


def play(moves: list[str], seats: int = 1, engine: RedDogEngine = ENGINE) -> RedDogState:
    state = engine.new_state(Seats(seats))
    for move in moves:
        state = state.apply(move).state
    assert isinstance(state, RedDogState)
    return state


@pytest.mark.parametrize(("cards", "decision", "third", "paid"), [
    # consecutive ranks: the ante pushes, no third card
    (["7s", "8d"], None, None, {"ante": 1000}),
    # a pair: three of a kind pays 11:1, anything else pushes
    (["9s", "9d"], None, "9h", {"ante": 12000}),
    (["9s", "9d"], None, "2h", {"ante": 1000}),
    # spread 1 pays 5:1 on the ante and the raise; a card outside loses both
    (["4s", "6d"], "raise 1000", "5c", {"ante": 6000, "raise": 6000}),
    (["4s", "6d"], "raise 1000", "6c", {"ante": 0, "raise": 0}),
    # spread 2 pays 4:1, spread 3 pays 2:1 (a part raise rides at the same odds)
    (["4s", "7d"], "raise 400", "6c", {"ante": 5000, "raise": 2000}),
    (["4s", "8d"], "stand", "5c", {"ante": 3000}),
    # a spread of 4 or more pays 1:1; aces are high
    (["2s", "Ad"], "raise 1000", "Kc", {"ante": 2000, "raise": 2000}),
    (["2s", "Ad"], "stand", "Ah", {"ante": 0}),
])
def test_every_hand_pays_by_the_table(cards: list[str], decision: str | None,
                                      third: str | None, paid: dict[str, int]) -> None:
    moves = ["bet ante 1000", "done", *cards]
    state = play(moves)
    if decision is not None:
        assert not state.is_chance() and state.to_move() == 0
        state = state.apply(decision).state
    if third is not None:
        assert state.is_chance()
        state = state.apply(third).state
    assert isinstance(state, RedDogState) and state.is_terminal()
    assert {s.spot: s.paid for s in state.settlements} == paid
    accounts = state.accounts()
    assert sum(accounts.values()) == 0 and accounts["table"] == 0


def test_the_spread_is_announced_and_the_seats_decide_in_order() -> None:
    state = play(["bet ante 500", "done", "done", "bet ante 800", "done", "3s", "Jd"], seats=3)
    assert state.view(None)["spread"] == 7 and state.view(None)["pays"] == 1
    assert state.to_move() == 0 and state.legal_actions() == (Raise(1), Raise(500), Stand())
    with pytest.raises(IllegalMove, match="not seat 2's turn"):
        state.apply("stand", seat=2)
    state = state.apply("raise 500").state.apply("stand", seat=2).state
    assert state.is_chance()
    state = state.apply("Qc").state  # outside: every stake lost
    assert state.returns() == (-1000, 0, -800)
    assert replay(ENGINE, Seats(3), state.history).returns() == state.returns()


def test_bad_moves_are_refused_with_reasons() -> None:
    state = play(["bet ante 1000"])
    with pytest.raises(IllegalMove, match="no bet 'raise' before the deal"):
        state.apply("bet raise 500")
    with pytest.raises(IllegalMove, match="once the spread is announced"):
        state.apply("raise 500")
    spread = play(["bet ante 1000", "done", "4s", "Td"])
    for bad, reason in (("raise 1001", r"0.01 to the ante \(10.00\), not 10.01"),
                        ("raise 0", r"0.01 to the ante \(10.00\), not 0.00"),
                        ("raise x", "whole number"), ("bet ante 100", "no more bets")):
        with pytest.raises(IllegalMove, match=reason):
            spread.apply(bad)
    with pytest.raises(IllegalMove, match="under the table minimum"):
        play([]).apply("bet ante 50")
    with pytest.raises(IllegalMove, match="not 3"):
        RedDogEngine.from_settings({"decks": "3"})
    with pytest.raises(IllegalMove, match="no setting 'ante_bonus'"):
        RedDogEngine.from_settings({"ante_bonus": "1"})


def test_a_one_deck_shoe_holds_each_card_once() -> None:
    one = RedDogEngine.from_settings({"decks": "1"})
    state = play(["bet ante 1000", "done", "9s"], engine=one)
    with pytest.raises(IllegalMove, match="cannot come up"):
        state.apply("9s")


def test_the_registry_holds_it() -> None:
    assert GAMES["red-dog"].title() == "Red Dog"


def test_the_engine_walks_to_the_exact_house_edge() -> None:
    """Every first, second and third card from the six-deck shoe, each a chance outcome of
    the engine at its count over the cards left, raised by the optimal rule: the engine's
    own return is the exact edge, -17533/626665 an ante (2.7978 %)."""
    state = play([f"bet ante {STAKE}", "done"])
    walked = expected_returns(state, red_dog_policy)
    assert walked[0] / STAKE == -exact(6).edge
    assert exact(6).edge.numerator == 17533 and exact(6).edge.denominator == 626665


def test_the_simulation_agrees_with_the_exact_edge() -> None:
    result = simulate_red_dog(20_000, seed=5)
    assert result.rows[0].agrees
    assert float(result.rows[0].exact_rtp) == pytest.approx(1 - 0.027978, abs=1e-6)


def test_simulate_from_the_command_line() -> None:
    out = CliRunner().invoke(app, ["simulate", "red-dog", "--rounds", "500", "--seed", "2",
                                   "--set", "decks=8", "--json"])
    assert out.exit_code == 0, out.output
    assert '"game": "red-dog"' in out.output and '"decks": "8"' in out.output
    bad = CliRunner().invoke(app, ["simulate", "red-dog", "--rounds", "10", "--seed", "2",
                                   "--seats", "2"])
    assert bad.exit_code != 0 and "one seat" in bad.output
