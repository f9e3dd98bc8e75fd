"""Ultimate Texas Hold'em's optimal strategy (pelisali.games.ultimate_optimal): the classes
of (hole, flop) pairs under the suits' renamings, and the board patterns' weighted sums
equal to the sums over every board they stand for; `pelisali odds ultimate-texas-holdem
--set strategy=optimal` reading the count."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from pelisali.cli.main import app
from pelisali.games import ultimate_optimal as uo
from pelisali.games.holdem_count import board_classes, combinations_array
from pelisali.rules.banked import load_ultimate


def renamed(cards: np.ndarray, order: np.ndarray) -> np.ndarray:
    return (cards & ~3) | order[cards & 3]


def test_a_pair_and_flop_keep_their_class_under_every_renaming_of_the_suits() -> None:
    gen = np.random.default_rng(4)
    perms = uo.suit_permutations()
    pairs, flops = combinations_array(52, 2), combinations_array(52, 3)
    chosen = pairs[gen.choice(len(pairs), 12, replace=False)]
    keys = uo._hole_flop_keys(chosen, flops, perms)
    assert ((keys >= 0).sum(axis=1) == 19_600).all()  # the flops apart from each pair
    seen: dict[int, tuple[frozenset[int], frozenset[int]]] = {}
    for p, f in zip(gen.integers(0, 12, 300), gen.integers(0, len(flops), 300), strict=True):
        if keys[p, f] < 0:
            continue
        cards = np.array([*chosen[p], *flops[f]], dtype=np.int64)
        for order in perms[::7]:
            moved = renamed(cards, order)
            assert uo._least_key(moved, 2, perms) == keys[p, f]
        # a class's pairs are renamings of one another: the least renaming is the same
        least = min((tuple(sorted(renamed(cards[:2], o))), tuple(sorted(renamed(cards[2:], o))))
                    for o in perms)
        hole, flop = frozenset(least[0]), frozenset(least[1])
        assert seen.setdefault(int(keys[p, f]), (hole, flop)) == (hole, flop)


@cache
def all_classes() -> uo.Classes:
    return uo.classes()


def test_the_classes_cover_every_pair_and_flop_apart() -> None:
    found = all_classes()
    assert int(found.sizes.sum()) == 1326 * 19_600
    assert len(found.pair_sizes) == 169 and int(found.pair_sizes.sum()) == 1326
    assert found.sizes.max() <= 24


def test_a_board_pattern_adds_what_every_board_it_stands_for_adds() -> None:
    """The count's one step of symmetry: a pattern added ``weight`` times to the classes
    gives the class totals the pattern's boards give, each added once."""
    rules = load_ultimate()
    found = all_classes()
    boards, weights = board_classes()
    picked = [0, 7_000, 77_777, len(boards) - 1]
    by_pattern = uo.Totals.zeros(found)
    by_pattern.add(found, boards[picked], weights[picked], rules)
    every = set()
    for board in boards[picked]:
        for order in uo.suit_permutations():
            every.add(tuple(sorted(renamed(board, order).tolist())))
    assert len(every) == int(weights[picked].sum())
    one_by_one = uo.Totals.zeros(found)
    listed = np.array(sorted(every), dtype=np.int64)
    one_by_one.add(found, listed, np.ones(len(listed), dtype=np.int64), rules)
    for name in ("twice", "checked", "river_plays", "hole_fixed", "hole_play"):
        assert np.array_equal(getattr(by_pattern, name), getattr(one_by_one, name)), name
    assert by_pattern.twice.any() and by_pattern.river_plays.any()


def test_class_totals_that_do_not_divide_are_refused() -> None:
    with pytest.raises(ArithmeticError, match="do not divide"):
        uo.exact_division(np.array([5, 6]), np.array([2, 3]), "flop")


def test_odds_shows_the_optimal_strategy_from_the_cache(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The count reads its cache (written here: counting takes a minute or two)."""
    rules = load_ultimate()
    found = uo.Optimal(Fraction(1, 50), Fraction(1, 200), {
        "4x": Fraction(1, 2), "3x": Fraction(0), "2x": Fraction(1, 4), "1x": Fraction(1, 8),
        "fold": Fraction(1, 8)}, 2_781_381_002_400, 663, 0, 1000, 5)
    (tmp_path / "pelisali").mkdir()
    (tmp_path / "pelisali" / f"uth-optimal-{uo._cache_key(rules)}.json").write_text(
        json.dumps(uo.to_json(found)))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    runner = CliRunner()
    result = runner.invoke(app, ["odds", "ultimate-texas-holdem", "--set", "strategy=optimal",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["from_cache"] is True and Fraction(data["ante_edge"]) == Fraction(1, 50)
    assert data["published"]["ante_edge"] == 2.19
    shown = runner.invoke(app, ["odds", "ultimate-texas-holdem", "--set", "strategy=optimal"])
    assert shown.exit_code == 0, shown.output
    assert "2.0000 %" in shown.output and "663 of the 1,326" in shown.output
    refused = runner.invoke(app, ["odds", "ultimate-texas-holdem", "--set", "strategy=best"])
    assert refused.exit_code == 2 and "simple or optimal" in refused.output


def plays_with(pair: tuple[str, str] | None = None,
               flop: tuple[str, str, str] | None = None) -> uo.Plays:
    """Decisions that play 4 times with ``pair`` alone and 2 times on ``flop`` alone."""
    from pelisali.games.holdem_count import card_indices, flop_index, pair_index

    preflop = np.zeros(1326, dtype=bool)
    flops = np.zeros((1326, 22_100), dtype=bool)
    if pair:
        low, high = sorted(card_indices(list(pair)))
        at = int(pair_index(np.array([low]), np.array([high]))[0])
        if flop:
            a, b, c = sorted(card_indices(list(flop)))
            flops[at, int(flop_index(np.array([a]), np.array([b]), np.array([c]))[0])] = True
        else:
            preflop[at] = True
    return uo.Plays(preflop, np.zeros(1326, dtype=bool), flops)


def test_the_optimal_policy_plays_the_decisions_and_the_river_counted_on_the_spot() -> None:
    from pelisali.analysis.banked_simulate import optimal_ultimate_policy
    from pelisali.engine import Seats
    from pelisali.engine.ultimate import UltimateEngine

    def dealt(plays: uo.Plays, moves: list[str]) -> str:
        state = UltimateEngine().new_state(Seats(1))
        policy = optimal_ultimate_policy(plays)
        for move in ["bet ante 100", "done", "Kh", "4d", "2s", "2d", *moves]:
            state = state.apply(move).state
        return policy(state).text()

    assert dealt(plays_with(("Kh", "4d")), []) == "play 4"
    assert dealt(plays_with(("Kh", "Qd")), []) == "check"
    flop = ["check", "Kc", "9d", "3s"]
    assert dealt(plays_with(("Kh", "4d"), ("Kc", "9d", "3s")), flop) == "play 2"
    assert dealt(plays_with(), flop) == "check"
    # after the river the count decides on the spot: a pair of kings plays
    river = [*flop, "check", "7c", "Jh"]
    assert dealt(plays_with(), river) == "play 1"
    assert uo.river_plays(["Kh", "4d"], ["Kc", "9d", "3s", "7c", "Jh"])
    assert not uo.river_plays(["5h", "4d"], ["Kc", "9d", "3s", "7c", "Jh"])


def test_the_decisions_are_read_back_from_the_cache(tmp_path: Path) -> None:
    rules = load_ultimate()
    plays = plays_with(("Kh", "4d"), ("Kc", "9d", "3s"))
    _, path = uo._cache_paths(rules, tmp_path)
    np.savez_compressed(path, preflop=plays.preflop, preflop_3x=plays.preflop_3x,
                        flop=np.packbits(plays.flop, axis=1))
    kept = uo.cached_plays(directory=tmp_path)
    assert np.array_equal(kept.flop, plays.flop) and not kept.preflop.any()
    assert uo.plays_from(kept, ["Kh", "4d"], ["Kc", "9d", "3s"]) == 2
    assert uo.plays_from(kept, ["Kh", "4d"], []) == 0
    with pytest.raises(ValueError, match="no board, the flop or all five"):
        uo.plays_from(kept, ["Kh", "4d"], ["Kc", "9d", "3s", "7c"])


def test_simulate_plays_the_optimal_strategy_beside_its_exact_figure(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`simulate ultimate-texas-holdem --set strategy=optimal` plays the kept decisions
    (written here: a strategy that plays 4 times with K-4 alone) beside the kept figure."""
    rules = load_ultimate()
    figures, decisions = uo._cache_paths(rules, tmp_path / "pelisali")
    figures.parent.mkdir()
    found = uo.Optimal(Fraction(1, 50), Fraction(1, 200), {"4x": Fraction(1)}, 1, 1, 0, 0, 1)
    figures.write_text(json.dumps(uo.to_json(found)))
    plays = plays_with(("Kh", "4d"))
    np.savez_compressed(decisions, preflop=plays.preflop, preflop_3x=plays.preflop_3x,
                        flop=np.packbits(plays.flop, axis=1))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    from pelisali.analysis.banked_simulate import simulate_ultimate
    from pelisali.games import ultimate_texas

    simple = ultimate_texas.Exact(Fraction(1, 40), Fraction(1, 100), {}, Fraction(1, 50), {},
                                  1, 1)
    result = simulate_ultimate(40, 3, {"strategy": "optimal"}, found=simple)
    assert result.settings["strategy"] == "optimal"
    assert result.rows[0].exact_rtp == 1 - found.ante_edge
    assert result.rows[0].bet == "ante, blind and play"
    with pytest.raises(ValueError, match="simple or optimal"):
        simulate_ultimate(1, 3, {"strategy": "best"}, found=simple)
