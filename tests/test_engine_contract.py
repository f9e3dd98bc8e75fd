"""One property test for every game in ``GAMES``: random legal play through the contract.

Every game is walked with random legal actions and chance outcomes sampled
at their exact probabilities, for thousands of rounds in all. At every step:
chips and money are conserved, chance probabilities sum to exactly 1, no view
shows a card hidden from its viewer, illegal actions are refused with a clear
error and change nothing; at the end of each round, replaying the history
gives the same state.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pelisali.analysis.walk import random_policy
from pelisali.cards import DECK
from pelisali.engine import CHANCE, GAMES, Action, ChanceOutcome, Game, IllegalMove, Seats, State
from pelisali.engine import replay as replay_history
from pelisali.engine.contract import sample_chance
from pelisali.games.pai_gow import JOKER
from pelisali.rng import SeededRng

CARD = re.compile(r"\b(?:[2-9TJQKA][cdhs]|Jk)\b")  # Jk: Pai Gow Poker's joker
DECK_SET = frozenset(DECK) | {JOKER}
# Rounds per game: with about thirty games, thousands of rounds in all (a hand of poker,
# with a chance node for every card, costs many rounds of roulette).
EXAMPLES = 25
ROUNDS_PER_EXAMPLE = 4
POKER_ROUNDS_PER_EXAMPLE = 2
MAX_STEPS = 600


def seats_for(game: Game, rng: SeededRng) -> Seats:
    """A table for ``game``: a random number of seats; with chips where the game plays for
    chips at the table (the engine's default table gives their size)."""
    usual = game.default_seats()
    top = min(game.max_seats, max(4, usual.count))
    count = game.min_seats + rng.randbelow(top - game.min_seats + 1)
    if usual.stacks:
        base = max(usual.stacks)
        chips = [base // 2 + rng.randbelow(base) for _ in range(count)]
        return Seats.with_stacks(chips, button=rng.randbelow(count))
    return Seats(count)


def choose(state: State, rng: SeededRng) -> Action:
    """A random legal action: first a kind of action, then one of that kind, so that
    games with many bets on offer still end their betting."""
    assert state.legal_actions(), f"seat {state.to_move()} is to move but has no legal action"
    return random_policy(rng)(state)


def strings_of(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in (*strings_of(k), *strings_of(v))]
    if isinstance(data, list | tuple):
        return [s for item in data for s in strings_of(item)]
    return []


def cards_shown(view: dict[str, Any]) -> set[str]:
    json.dumps(view)  # a view is plain JSON data
    return {card for text in strings_of(view) for card in CARD.findall(text)}


def snapshot(state: State, viewers: list[int | None]) -> tuple[Any, ...]:
    return (state.history, state.returns(), tuple(json.dumps(state.view(v), sort_keys=True)
                                                  for v in viewers))


def labels_are_unique(game: Game) -> bool:
    """In a shoe of several decks a card's label stands for several copies, so a hidden
    hole card may share its label with a card shown face up; such games are also played
    here from one deck, where a label names one card."""
    config = getattr(game, "config", None) or getattr(game, "rules", None)
    return int(getattr(config, "decks", 1)) == 1


def check_step(state: State, seats: Seats) -> None:
    viewers: list[int | None] = [*range(seats.count), None]
    accounts = state.accounts()
    assert sum(accounts.values()) == 0, f"money not conserved: {dict(accounts)}"
    assert tuple(accounts[f"seat {i}"] for i in range(seats.count)) == state.returns()
    if seats.stacks:
        for i, stack in enumerate(seats.stacks):
            assert stack + state.returns()[i] >= 0, f"seat {i} owes chips it never had"
    for viewer in viewers:
        hidden = state.hidden_from(viewer)
        assert hidden <= DECK_SET
        if labels_are_unique(state.game):
            leaked = cards_shown(state.view(viewer)) & hidden
            assert not leaked, f"{viewer} sees hidden cards {sorted(leaked)}"
    if state.is_chance():
        outcomes = state.chance_outcomes()
        assert outcomes and all(p > 0 for _, p in outcomes)
        assert sum((p for _, p in outcomes), Fraction(0)) == 1
        assert len({o for o, _ in outcomes}) == len(outcomes)
        assert state.legal_actions() == ()
    elif not state.is_terminal():
        assert state.chance_outcomes() == ()


def check_refusals(state: State, seats: Seats, rng: SeededRng) -> None:
    """Bad moves raise IllegalMove with a message and leave everything as it was."""
    viewers: list[int | None] = [*range(seats.count), None]
    before = snapshot(state, viewers)
    bad: list[Action | str] = ["", "xyzzy", "bet nowhere -5", "raise -5", "set 1x"]
    if state.is_chance():
        bad += [ChanceOutcome("not-a-card"), ChanceOutcome("Zz")]
        legal = state.legal_actions()
        bad += list(legal)  # nobody may act at a chance node
    elif state.is_terminal():
        bad += [ChanceOutcome("As")]
    else:
        bad += [ChanceOutcome(DECK[rng.randbelow(52)])]  # chance cannot move at a seat's turn
    for move in bad:
        with pytest.raises(IllegalMove) as refused:
            state.apply(move)
        assert str(refused.value)
    mover = state.to_move()
    if mover is not None and mover != CHANCE and seats.count > 1:
        other = (mover + 1) % seats.count
        for action in state.legal_actions()[:3]:
            with pytest.raises(IllegalMove, match=f"not seat {other}'s turn"):
                state.apply(action, seat=other)
    assert snapshot(state, viewers) == before


def play_round(game: Game, seats: Seats, rng: SeededRng) -> State:
    state = game.new_state(seats)
    assert state.history == ()
    for step in range(MAX_STEPS):
        check_step(state, seats)
        if step % 7 == 0 or state.is_terminal():
            check_refusals(state, seats, rng)
        if state.is_terminal():
            break
        mover = state.to_move()
        move: Action = sample_chance(state, rng) if mover == CHANCE else choose(state, rng)
        result = state.apply(move)
        assert result.state.history == (*state.history, result.state.history[-1])
        assert result.state.history[-1].action == move
        state = result.state
    else:
        pytest.fail(f"{game.game_id} did not finish in {MAX_STEPS} steps")
    viewers: list[int | None] = [*range(seats.count), None]
    again = replay_history(game, seats, state.history)
    assert snapshot(again, viewers) == snapshot(state, viewers)
    assert again.is_terminal()
    return state


def one_deck() -> dict[str, Game]:
    from pelisali.engine.baccarat import BaccaratEngine
    from pelisali.engine.blackjack import BlackjackEngine

    return {"punto-banco/1-deck": BaccaratEngine.from_settings({"decks": "1"}),
            "blackjack/1-deck": BlackjackEngine.from_settings({"decks": "1"})}


@pytest.mark.parametrize("game_id", [*sorted(GAMES), *one_deck()])
def test_random_play_keeps_every_invariant(game_id: str) -> None:
    game = GAMES[game_id] if game_id in GAMES else one_deck()[game_id]

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.integers(0, 2**32 - 1))
    def rounds(seed: int) -> None:
        rng = SeededRng(seed)
        per_example = POKER_ROUNDS_PER_EXAMPLE if game.default_seats().stacks else \
            ROUNDS_PER_EXAMPLE
        for _ in range(per_example):
            play_round(game, seats_for(game, rng), rng)

    rounds()


def test_the_registry_holds_every_game_and_version() -> None:
    wager = {f"roulette-{v}" for v in "ABCDEFGHI"} | {"boule", "money-wheel", "tuplanoppa",
                                                       "sic-bo"}
    assert wager <= set(GAMES)
    for game_id, game in GAMES.items():
        assert game.game_id == game_id
        assert game.title()


def test_an_unknown_game_is_refused_by_name() -> None:
    from pelisali.engine import game

    with pytest.raises(IllegalMove, match="no game 'pachinko'; games: roulette-A"):
        game("pachinko")


def test_seats_outside_the_table_are_refused() -> None:
    game = GAMES["roulette-C"]
    with pytest.raises(IllegalMove, match="seats 1 to 12, not 13"):
        game.new_state(Seats(13))
    with pytest.raises(IllegalMove, match="against the house"):
        game.new_state(Seats.with_stacks([100]))


def test_simulate_self_plays_an_engine_game_and_conserves_money() -> None:
    from typer.testing import CliRunner

    from pelisali.cli.main import app

    result = CliRunner().invoke(app, ["simulate", "roulette-C", "--rounds", "300", "--seed", "4",
                                      "--seats", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["rounds"] == 300 and data["seats"] == 3
    assert set(data["totals"]) == {"seat 0", "seat 1", "seat 2", "house", "table"}
    assert sum(data["totals"].values()) == 0
    again = CliRunner().invoke(app, ["simulate", "roulette-C", "--rounds", "300", "--seed", "4",
                                     "--seats", "3", "--json"])
    assert again.output == result.output
    refused = CliRunner().invoke(app, ["simulate", "roulette-C", "--rounds", "3", "--seed", "4",
                                       "--seats", "40"])
    assert refused.exit_code == 2 and "seats 1 to 12, not 40" in refused.output
