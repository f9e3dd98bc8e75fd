"""Texas Hold'em Bonus's optimal strategy (pelisali.games.holdem_bonus_optimal): the turn
boards' patterns, their weighted river sums equal to those of every turn board they stand
for, one hand's river sum against the deals counted one by one, the decisions played
through the engine, and `pelisali odds texas-holdem-bonus --set strategy=optimal` reading
the count. The (hole cards, flop) classes are Ultimate Texas Hold'em's, tested in
tests/test_ultimate_optimal.py."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations, permutations
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from pelisali.cards import DECK
from pelisali.cli.main import app
from pelisali.games import holdem_bonus_optimal as ho
from pelisali.games.holdem_count import card_indices
from pelisali.games.ultimate_optimal import Classes, hole_classes
from pelisali.rules.holdem_bonus import load_holdem_bonus


def renamed(cards: np.ndarray, order: np.ndarray) -> np.ndarray:
    return (cards & ~3) | order[cards & 3]


def test_the_turn_boards_fall_into_their_suit_patterns() -> None:
    turns, weights = ho.turn_board_classes()
    assert len(turns) == 16_432 and int(weights.sum()) == 270_725
    assert (np.diff(turns, axis=1) > 0).all()


def test_a_turn_pattern_adds_what_every_turn_board_it_stands_for_adds() -> None:
    """The river's sums by turn pattern, each ``weight`` times, equal the sums over every
    turn board the patterns stand for, each once."""
    rules = load_holdem_bonus()
    of_pair, pair_sizes = hole_classes()
    found = Classes(np.zeros((1, 1), dtype=np.int32), np.ones(1, dtype=np.int64), of_pair,
                    pair_sizes)
    turns, weights = ho.turn_board_classes()
    picked = [0, 4_000, 16_431]
    by_pattern = ho.turn_totals(found, rules, turns=turns[picked], weights=weights[picked])
    every = sorted({tuple(sorted(renamed(turn, np.array(order)).tolist()))
                    for turn in turns[picked]
                    for order in permutations(range(4))})
    assert len(every) == int(weights[picked].sum())
    one_by_one = ho.turn_totals(found, rules, turns=np.array(every, dtype=np.int64),
                                weights=np.ones(len(every), dtype=np.int64))
    assert all(np.array_equal(a, b) for a, b in zip(by_pattern, one_by_one, strict=True))
    assert by_pattern[1].any()


def test_one_hand_s_river_sum_is_its_bets_over_every_river_and_dealer_hand() -> None:
    """A hand's river sum on one turn board, from the count's values, against the bet's
    return over the 46 rivers and the 990 dealer hands counted from the evaluator."""
    from pelisali.games.holdem_bonus import hand_return

    rules = load_holdem_bonus()
    hole, turn = ["Ah", "Td"], ["Kc", "Qd", "7s", "2h"]
    seen = card_indices([*hole, *turn])
    rest = [c for c in range(52) if c not in seen]
    boards = np.array([sorted([*card_indices(turn), r]) for r in rest], dtype=np.int64)
    pair_ids, _, per_play = ho.bet_values(boards, rules)
    low, high = sorted(card_indices(hole))
    at = np.nonzero(pair_ids == low + high * (high - 1) // 2)
    counted = int(per_play[at].sum())
    direct = Fraction(0)
    for r in rest[::9]:  # every ninth river, each against every dealer hand
        others = [c for c in rest if c != r]
        board = [*turn, DECK[r]]
        for a, b in combinations(others, 2):
            with_river = hand_return(hole, [DECK[a], DECK[b]], board, turn=False, river=True,
                                     rules=rules)
            without = hand_return(hole, [DECK[a], DECK[b]], board, turn=False, river=False,
                                  rules=rules)
            direct += with_river - without
    some = [i for i, r in enumerate(rest) if r in rest[::9]]
    assert int(per_play[at][some].sum()) == direct
    assert counted != 0


def test_odds_shows_the_optimal_strategy_from_the_cache(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_holdem_bonus()
    found = ho.Optimal(Fraction(1, 50), Fraction(1, 200), Fraction(4), {
        "flop": Fraction(4, 5), "turn": Fraction(1, 2), "river": Fraction(1, 2),
        "fold": Fraction(1, 5)}, 2_781_381_002_400, 60)
    (tmp_path / "pelisali").mkdir()
    (tmp_path / "pelisali" / f"thb-optimal-{ho._cache_key(rules)}.json").write_text(
        json.dumps(ho.to_json(found)))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    runner = CliRunner()
    result = runner.invoke(app, ["odds", "texas-holdem-bonus", "--set", "strategy=optimal",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["from_cache"] is True and Fraction(data["ante_edge"]) == Fraction(1, 50)
    assert data["published"]["ante_edge"] == 2.037
    shown = runner.invoke(app, ["odds", "texas-holdem-bonus", "--set", "strategy=optimal"])
    assert shown.exit_code == 0, shown.output
    assert "2.0000 %" in shown.output and "60 of the 1,326" in shown.output
    refused = runner.invoke(app, ["odds", "texas-holdem-bonus", "--set", "strategy=best"])
    assert refused.exit_code == 2 and "basic or optimal" in refused.output


def plays_with(pair: tuple[str, str] | None = None,
               flop: tuple[str, str, str] | None = None) -> ho.Plays:
    """Decisions that bet the flop with ``pair`` alone and the turn on ``flop`` alone."""
    from pelisali.games.holdem_count import flop_index, pair_index

    flops = np.zeros(1326, dtype=bool)
    turns = np.zeros((1326, 22_100), dtype=bool)
    if pair:
        low, high = sorted(card_indices(list(pair)))
        at = int(pair_index(np.array([low]), np.array([high]))[0])
        flops[at] = True
        if flop:
            a, b, c = sorted(card_indices(list(flop)))
            turns[at, int(flop_index(np.array([a]), np.array([b]), np.array([c]))[0])] = True
    return ho.Plays(flops, turns)


def test_the_optimal_policy_plays_the_decisions_and_the_river_counted_on_the_spot() -> None:
    from pelisali.analysis.holdem_bonus_simulate import optimal_policy
    from pelisali.engine import Seats
    from pelisali.engine.holdem_bonus import HoldemBonusEngine

    def dealt(plays: ho.Plays, moves: list[str]) -> str:
        state = HoldemBonusEngine().new_state(Seats(1))
        for move in ["bet ante 100", "done", "Ah", "Ad", "2s", "7d", *moves]:
            state = state.apply(move).state
        return optimal_policy(plays)(state).text()

    assert dealt(plays_with(("Ah", "Ad")), []) == "bet flop"
    assert dealt(plays_with(), []) == "fold"
    flop = ["bet flop", "Ac", "Kd", "7s"]
    assert dealt(plays_with(("Ah", "Ad"), ("Ac", "Kd", "7s")), flop) == "bet turn"
    assert dealt(plays_with(("Ah", "Ad")), flop) == "check"
    # on the turn the count decides on the spot: three aces bet the river
    assert dealt(plays_with(("Ah", "Ad")), [*flop, "check", "2h"]) == "bet river"
    assert not ho.bets_river(["3h", "2d"], ["Ac", "Kd", "7s", "9h"])


def test_simulate_plays_the_optimal_strategy_beside_its_exact_figure(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`simulate texas-holdem-bonus --set strategy=optimal` plays the kept decisions
    (written here) beside the kept figure."""
    from pelisali.analysis.holdem_bonus_simulate import simulate_holdem_bonus
    from pelisali.games import holdem_bonus

    rules = load_holdem_bonus()
    figures, decisions = ho._cache_paths(rules, tmp_path / "pelisali")
    figures.parent.mkdir()
    found = ho.Optimal(Fraction(1, 50), Fraction(1, 200), Fraction(4), {"flop": Fraction(1)},
                       1, 0)
    figures.write_text(json.dumps(ho.to_json(found)))
    plays = plays_with(("Ah", "Ad"))
    np.savez_compressed(decisions, flop=plays.flop, turn=np.packbits(plays.turn, axis=1))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    kept = ho.cached_plays()
    assert np.array_equal(kept.flop, plays.flop) and not kept.turn.any()
    basic = holdem_bonus.Exact(Fraction(1, 25), Fraction(1, 100), Fraction(3), {},
                               Fraction(1, 20), {}, 1, 1)
    result = simulate_holdem_bonus(30, 3, {"strategy": "optimal"}, found=basic)
    assert result.settings["strategy"] == "optimal"
    assert result.rows[0].exact_rtp == 1 - found.ante_edge
    assert result.rows[0].spot == "the optimal strategy"
    with pytest.raises(ValueError, match="basic or optimal"):
        simulate_holdem_bonus(1, 3, {"strategy": "best"}, found=basic)
    with pytest.raises(ValueError, match="no board, the flop or the turn"):
        ho.plays_from(kept, ["Ah", "Ad"], ["Ac", "Kd"])
