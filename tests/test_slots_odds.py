"""Exact slot par sheets: the shipped RTPs, the fast counting against a walk over every stop
combination, the free-spin solution against the engine's own chance tree, simulation
through the engine, and the CLI."""

from __future__ import annotations

import csv
import itertools
import json
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from slot_games import five_reel, tiny, tree_game
from typer.testing import CliRunner

from pelisali.analysis.slots import (
    PAR_COLUMNS,
    cap_cut_bound,
    lineage_moments,
    par_sheet,
    solve_free_spins,
    spin_counts,
    sum_moments,
)
from pelisali.cli.main import app
from pelisali.engine import GAMES, Seats, sample_chance
from pelisali.engine.contract import State
from pelisali.engine.slots import Paytable, SlotEngine, SlotState
from pelisali.rng import SeededRng
from pelisali.rules.slots import SlotRules, load_slot_rules

FRUIT_RTP = Fraction(15593, 16384)
VIDEO_RTP = Fraction(7995359134124297, 8365482822336512)
runner = CliRunner()


def test_the_shipped_games_have_their_exact_rtp() -> None:
    fruit = par_sheet(load_slot_rules("fruit"))
    video = par_sheet(load_slot_rules("video"))
    assert fruit.rtp == FRUIT_RTP == Fraction(load_slot_rules("fruit").rtp)
    assert video.rtp == VIDEO_RTP == Fraction(load_slot_rules("video").rtp)
    for sheet in (fruit, video):
        assert Fraction(94, 100) <= sheet.rtp - sheet.cap_bound
        assert sheet.rtp <= Fraction(965, 1000)
        assert sheet.rtp == sheet.rtp_lines + sheet.rtp_scatter + sheet.rtp_feature \
            - sheet.cap_cut
        assert sum(p for _, p in sheet.wins) + (sheet.feature_frequency or 0) \
            == sheet.hit_frequency
    assert video.combinations == 64 ** 5 and video.feature_frequency is not None
    assert sum(c.contribution for c in video.combos) == video.rtp


@pytest.mark.parametrize("lines", [1, 2, 5])
def test_the_fruit_rtp_is_the_same_for_any_lines(lines: int) -> None:
    assert par_sheet(load_slot_rules("fruit"), lines).rtp == FRUIT_RTP


def _walk(rules: SlotRules, strips: tuple[tuple[str, ...], ...], lines: int) -> Counter[
        tuple[int, int]]:
    table = Paytable(rules)
    out: Counter[tuple[int, int]] = Counter()
    for stops in itertools.product(*(range(len(s)) for s in strips)):
        result = table.settle(strips, stops, lines)
        out[sum(w.pays for w in result.lines), result.scatters] += 1
    return out


@pytest.mark.parametrize("make", [tiny, five_reel])
def test_the_counting_equals_a_walk_over_every_stop_combination(make: object) -> None:
    rules = make()  # type: ignore[operator]
    table = Paytable(rules)
    for strips in (rules.reels.base, rules.reels.free):
        for lines in rules.bets.lines_played:
            counted = spin_counts(table, strips, lines)
            assert counted.counts == dict(_walk(rules, strips, lines))
            assert counted.combinations == math.prod(len(s) for s in strips)


def _moments(state: State, depth: int, mu: Fraction, m2: Fraction, lines: int
             ) -> tuple[Fraction, Fraction]:
    """E[X] and E[X^2] of the round's uncapped win in line bets, walking the engine's chance
    tree; after ``depth`` free spins a state is valued by the solution (k spins left to win
    T_k: E = k mu, E[T_k^2] = k m2 + k (k - 1) mu^2)."""
    assert isinstance(state, SlotState)
    if state.is_terminal():
        x = Fraction(state.uncapped_units())
        return x, x * x
    if state.in_feature() and not state.stops and len(state.spins) > depth:
        a, k = Fraction(state.uncapped_units()), state.free_left
        return a + k * mu, a * a + 2 * a * k * mu + k * m2 + k * (k - 1) * mu * mu
    e1 = e2 = Fraction(0)
    for outcome, p in state.chance_outcomes():
        x1, x2 = _moments(state.apply(outcome).state, depth, mu, m2, lines)
        e1 += p * x1
        e2 += p * x2
    return e1, e2


@pytest.mark.parametrize("depth", [1, 2])
def test_the_free_spin_solution_agrees_with_the_engine_tree(depth: int) -> None:
    rules = tree_game()
    lines = 1
    free = solve_free_spins(rules, spin_counts(Paytable(rules), rules.reels.free, lines), lines)
    spins = rules.feature.spins  # type: ignore[union-attr]
    mu = free.mean / spins
    m2 = (free.second - spins * (spins - 1) * mu * mu) / spins
    start = SlotEngine("slot-tiny", rules).new_state(Seats(1)).apply(f"spin {lines} 1").state
    e1, e2 = _moments(start, depth, mu, m2, lines)
    sheet = par_sheet(rules, lines)
    assert e1 / lines == sheet.rtp  # the cap (100,000 x) never binds here
    assert e2 / lines**2 - (e1 / lines) ** 2 == sheet.variance
    assert free.retrigger > 0 and free.spins_mean == spins / (1 - free.retrigger * spins)


def test_a_feature_that_never_ends_is_refused() -> None:
    rules = tiny(feature={"trigger": 1, "spins": 2, "retrigger": 20, "multiplier": 1,
                          "section": "test game"})
    with pytest.raises(ValueError, match="never ends"):
        par_sheet(rules)


@pytest.mark.parametrize(("game_id", "rounds", "lines", "cents"),
                         [("slot-fruit", 6000, 5, 1), ("slot-video", 800, 20, 1)])
def test_simulation_through_the_engine_agrees_with_the_exact_rtp(
        game_id: str, rounds: int, lines: int, cents: int) -> None:
    game = GAMES[game_id]
    sheet = par_sheet(game.rules, lines)  # type: ignore[attr-defined]
    rng = SeededRng(17)
    won = 0
    for _ in range(rounds):
        state = game.new_state(Seats(1)).apply(f"spin {lines} {cents}").state
        while not state.is_terminal():
            state = state.apply(sample_chance(state, rng)).state
        won += state.returns()[0] + lines * cents
    observed = Fraction(won, rounds * lines * cents)
    half = 2.576 * sheet.sigma / math.sqrt(rounds)  # the 99 % interval
    assert abs(float(observed - sheet.rtp)) < half


def test_cli_json_gives_the_exact_figures() -> None:
    result = runner.invoke(app, ["odds", "slot", "fruit", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["rtp"]["exact"] == "15593/16384" and data["lines"] == 5
    assert data["game"] == "slot-fruit" and data["top_win"]["total_bets"] == "411/5"


def test_cli_table_and_csv_par_sheet(tmp_path: Path) -> None:
    path = tmp_path / "video.csv"
    result = runner.invoke(app, ["odds", "slot", "slot-video", "--par-sheet", str(path)],
                           env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert "RTP" in result.output and "7995359134124297/8365482822336512" in result.output
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert tuple(rows[0]) == PAR_COLUMNS
    sections = Counter(row[0] for row in rows[1:])
    assert sections["combination"] > 50
    strips = [row for row in rows if row[1] == "strip"]
    assert len(strips) == 10 and all(row[3] == "64" for row in strips)
    combos = [row for row in rows if row[0] == "combination"]
    assert sum(Fraction(row[7]) * int(row[5]) for row in combos if row[1] == "line") \
        == par_sheet(load_slot_rules("video")).rtp_lines


def test_cli_xlsx_par_sheet(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    path = tmp_path / "fruit.xlsx"
    result = runner.invoke(app, ["odds", "slot", "fruit", "--par-sheet", str(path)])
    assert result.exit_code == 0, result.output
    book = load_workbook(path)
    assert book.sheetnames == ["par sheet", "wins"]
    assert tuple(c.value for c in book["par sheet"][1]) == PAR_COLUMNS


def test_cli_refuses_an_unknown_slot_and_a_bad_file() -> None:
    result = runner.invoke(app, ["odds", "slot", "nope"])
    assert result.exit_code != 0 and "no slot game 'nope'" in result.output
    result = runner.invoke(app, ["odds", "slot", "fruit", "--par-sheet", "x.pdf"])
    assert result.exit_code != 0 and ".csv or .xlsx" in result.output


def test_the_feature_moments_agree_with_the_closed_forms_and_bound_the_cap_tightly() -> None:
    rules = load_slot_rules("video")
    table = Paytable(rules)
    counted = spin_counts(table, rules.reels.free, 20)
    free = solve_free_spins(rules, counted, 20)
    moments = lineage_moments(rules, counted, 20, 16)
    assert rules.feature is not None
    spun = sum_moments(moments, rules.feature.spins)
    assert (spun[0], spun[1], spun[2]) == (1, free.mean, free.second)
    sheet = par_sheet(rules)
    # The 16th moment bounds what the cap of 5,000 total bets can take from feature
    # rounds below 1e-11 of the total bet (the second moment alone: 1.4e-3).
    assert 0 < sheet.cap_bound < Fraction(1, 10**11)
    one_feature, cap = Counter({0: 1}), 5_000 * 20
    assert cap_cut_bound(one_feature, spun[:3], cap) > 10**6 * cap_cut_bound(one_feature, spun,
                                                                             cap)


@settings(max_examples=200, deadline=None)
@given(law=st.lists(st.tuples(st.integers(0, 50), st.integers(1, 9)), min_size=1, max_size=6),
       base=st.lists(st.tuples(st.integers(0, 30), st.integers(1, 5)), min_size=1, max_size=4),
       cap=st.integers(1, 80))
def test_the_cap_bound_is_never_below_the_exact_cut_of_a_finite_law(
        law: list[tuple[int, int]], base: list[tuple[int, int]], cap: int) -> None:
    total = sum(weight for _, weight in law)
    moments = [sum((Fraction(weight, total) * Fraction(value) ** k for value, weight in law),
                   Fraction(0)) for k in range(9)]
    wins: Counter[int] = Counter()
    for b, n in base:
        wins[b] += n
    exact = sum((n * Fraction(weight, total) * max(b + value - cap, 0)
                 for b, n in wins.items() for value, weight in law), Fraction(0))
    assert cap_cut_bound(wins, moments, cap) >= exact
