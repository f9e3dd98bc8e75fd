"""Any-way slot pays: the rule data, the engine's ways wins for a hand-built window, the exact
counting against a walk over every stop combination (an independent judgement of every way
cell by cell, and the engine's own settle), the free-spin solution against the engine's
chance tree, and the par sheet's figures."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from slot_games import five_reel_ways, toml_text, ways_game, ways_raw
from typer.testing import CliRunner

from pelisali.analysis.slots import par_sheet, solve_free_spins, ways_counts
from pelisali.cli.main import app
from pelisali.engine import IllegalMove, Seats
from pelisali.engine.contract import State
from pelisali.engine.slots import Paytable, SlotEngine, SlotState, WaysWin, Window, window_at
from pelisali.rules import RuleDataError
from pelisali.rules.slots import SlotRules, slot_rules_from


def play(rules: SlotRules, bet: str, *stops: int) -> SlotState:
    state = SlotEngine(f"slot-{rules.id}", rules).new_state(Seats(1)).apply(bet).state
    for stop in stops:
        state = state.apply(str(stop)).state
    assert isinstance(state, SlotState)
    return state


def test_a_window_pays_every_symbols_ways() -> None:
    rules = ways_game()
    # reel 1 shows A W B, reel 2 V A W, reel 3 A A C
    state = play(rules, "spin 10 1", 4, 6, 6)
    assert [list(row) for row in zip(*state.window(), strict=True)] == [
        ["A", "W", "B"], ["V", "A", "W"], ["A", "A", "C"]]
    # A: (1 + 2) x (1 + 1 + 2) x 2 ways, less the 2 x 3 x 0 of wilds alone: 24 ways of 8;
    # B runs two reels (no pay); C: 2 x 2 x 1 = 4 ways of 3 through the doubling wilds;
    # W alone: two reels, one way, its own pay of 4
    assert state.spins[0].ways == (WaysWin("A", 3, 24, 192), WaysWin("C", 3, 4, 12),
                                   WaysWin("W", 2, 1, 4))
    assert state.spins[0].lines == ()
    assert state.is_terminal() and state.stake() == 10 and state.paid == 208
    view = state.view(0)
    assert view["spins"][0]["lines"] == []
    assert view["spins"][0]["ways"][0] == {"symbol": "A", "count": 3, "ways": 24, "pays": 192}
    assert view["bet"] == {"lines": 10, "cents": 1}
    # a ways win is pays x ways x the coin, whatever the bet multiplier
    assert play(rules, "spin 25 10", 4, 6, 6).paid == 2080


def test_a_ways_bet_is_coins_of_a_value() -> None:
    state = SlotEngine("slot-ways", ways_game()).new_state(Seats(1))
    assert [a.text() for a in state.legal_actions()][:2] == ["spin 1 1", "spin 1 10"]
    with pytest.raises(IllegalMove, match="7 coins cannot be played; coins: 1, 10, 25"):
        state.apply("spin 7 1")
    with pytest.raises(IllegalMove, match="5 cents a coin is not a bet level"):
        state.apply("spin 10 5")


def test_the_ways_events_name_each_win() -> None:
    rules = ways_game()
    state = SlotEngine("slot-ways", rules).new_state(Seats(1))
    step = state.apply("spin 10 1")
    assert "10 coins at" in step.events[0].text
    state = step.state
    for stop in (4, 6):
        state = state.apply(str(stop)).state
    texts = [e.text for e in state.apply("6").events]
    assert "3 x A in 24 ways pays 192 coins" in texts


@pytest.mark.parametrize(("change", "message"), [
    ({"paylines": [[0, 0, 0]], "paylines_section": "test game"},
     "key 'paylines': a ways game (ways = true) pays any-way; give no paylines"),
    ({"ways": False}, "key 'paylines': give at least one payline (or ways = true)"),
    ({"bets": {"cents_per_line": [1], "lines_played": [10, 5], "section": "test game"}},
     "lines_played (a ways game's bet multipliers) are rising"),
])
def test_bad_ways_rule_data_is_refused(change: dict[str, object], message: str) -> None:
    with pytest.raises(RuleDataError) as error:
        slot_rules_from(ways_raw(**change))
    assert message in str(error.value)


def test_a_line_game_needs_its_paylines_section() -> None:
    raw = ways_raw(ways=False, paylines=[[0, 0, 0]])
    with pytest.raises(RuleDataError, match="key 'paylines_section'"):
        slot_rules_from(raw)


def _oracle(rules: SlotRules, window: Window) -> int:
    """A window's ways wins in coins, judged apart from the engine: every way (one cell a
    reel through the run) enumerated, its wilds' multipliers multiplied."""
    pays = {(p.symbol, p.count): p.pays for p in rules.pays}
    wild = {w.symbol: w for w in rules.wilds}
    columns = list(zip(*window, strict=True))
    total = 0
    for symbol in {p.symbol for p in rules.pays}:
        stand = {symbol} if symbol in wild else \
            {symbol} | {w.symbol for w in rules.wilds if symbol in w.substitutes}
        run = 0
        while run < len(columns) and set(columns[run]) & stand:
            run += 1
        pay = pays.get((symbol, run), 0)
        for way in itertools.product(*[[c for c in col if c in stand] for col in columns[:run]]):
            if symbol in wild:
                total += pay  # wilds alone: unmultiplied
            elif symbol in way:
                total += pay * math.prod(wild[c].multiplier for c in way if c in wild)
    return total


@pytest.mark.parametrize("make", [ways_game, five_reel_ways])
def test_the_ways_counting_equals_a_walk_over_every_stop_combination(make: object) -> None:
    rules: SlotRules = make()  # type: ignore[operator]
    table = Paytable(rules)
    scatter = rules.scatter.symbol if rules.scatter else None
    for strips in (rules.reels.base, rules.reels.free):
        walked: Counter[tuple[int, int]] = Counter()
        for stops in itertools.product(*(range(len(s)) for s in strips)):
            window = window_at(strips, stops, rules.rows)
            coins = _oracle(rules, window)
            result = table.settle(strips, stops, rules.bets.lines_played[-1])
            assert sum(w.pays for w in result.ways) == coins, stops
            assert result.lines == ()
            scatters = sum(row.count(scatter) for row in window)
            assert result.scatters == scatters
            walked[coins, scatters] += 1
        counted = ways_counts(table, strips)
        assert counted.counts == dict(walked)
        assert counted.combinations == math.prod(len(s) for s in strips)
        assert len(walked) > 20  # many distinct wins: the check has something to check


def _moments(state: State, depth: int, mu: Fraction, m2: Fraction) -> tuple[Fraction, Fraction]:
    """E[X], E[X^2] of the round's uncapped win in coins through the engine's chance tree,
    states after ``depth`` free spins valued by the renewal solution."""
    assert isinstance(state, SlotState)
    if state.is_terminal():
        x = Fraction(state.uncapped_units())
        return x, x * x
    if state.in_feature() and not state.stops and len(state.spins) > depth:
        a, k = Fraction(state.uncapped_units()), state.free_left
        return a + k * mu, a * a + 2 * a * k * mu + k * m2 + k * (k - 1) * mu * mu
    e1 = e2 = Fraction(0)
    for outcome, p in state.chance_outcomes():
        x1, x2 = _moments(state.apply(outcome).state, depth, mu, m2)
        e1 += p * x1
        e2 += p * x2
    return e1, e2


def test_the_ways_free_spin_solution_agrees_with_the_engine_tree() -> None:
    rules, lines = ways_game(), 25
    free = solve_free_spins(rules, ways_counts(Paytable(rules), rules.reels.free), lines)
    assert rules.feature is not None
    spins = rules.feature.spins
    mu = free.mean / spins
    m2 = (free.second - spins * (spins - 1) * mu * mu) / spins
    start = play(rules, f"spin {lines} 1")
    e1, e2 = _moments(start, 1, mu, m2)
    sheet = par_sheet(rules, lines)
    assert sheet.cap_cut == 0 and e1 / lines == sheet.rtp
    assert e2 / lines**2 - (e1 / lines) ** 2 == sheet.variance
    assert free.retrigger > 0


@pytest.mark.parametrize("make", [ways_game, five_reel_ways])
def test_the_ways_par_sheet_adds_up(make: object) -> None:
    rules: SlotRules = make()  # type: ignore[operator]
    one, most = par_sheet(rules, 1), par_sheet(rules)
    coins = rules.bets.lines_played[-1]
    assert most.lines == coins
    # ways pays are coins: on a bet of more coins they are a smaller part of it
    assert one.rtp_lines == coins * most.rtp_lines and one.rtp_scatter == most.rtp_scatter
    for sheet in (one, most):
        assert sheet.rtp == sheet.rtp_lines + sheet.rtp_scatter + sheet.rtp_feature \
            - sheet.cap_cut
        assert sum(p for _, p in sheet.wins) + (sheet.feature_frequency or 0) \
            == sheet.hit_frequency
        assert sum(c.contribution for c in sheet.combos) == sheet.rtp  # the cap never binds
        assert {c.kind for c in sheet.combos} == {"ways", "scatter", "feature"}
    assert most.to_json()["ways"] is True


def test_a_capped_ways_game_cuts_exactly() -> None:
    rules = ways_game(feature=None, reels={**ways_raw()["reels"], "free": []},
                      cap={"multiplier": 3, "section": "test game"})
    sheet, table = par_sheet(rules, 10), Paytable(rules)
    walked = Fraction(0)
    for stops in itertools.product(*(range(len(s)) for s in rules.reels.base)):
        walked += min(table.settle(rules.reels.base, stops, 10).units(10), 30)
    assert sheet.cap_cut > 0
    assert sheet.rtp == walked / (sheet.combinations * 10)


def test_the_cli_counts_and_simulates_a_ways_game_given_by_path(tmp_path: Path) -> None:
    path = tmp_path / "ways.toml"
    path.write_text(toml_text(ways_raw()), encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["odds", "slot", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["ways"] is True and data["lines"] == 25
    assert data["rtp"]["exact"] == str(par_sheet(ways_game()).rtp)
    result = runner.invoke(app, ["odds", "slot", str(path), "--lines", "10"],
                           env={"COLUMNS": "160"})
    assert result.exit_code == 0 and "bet multiplier (coins), any-way pays" in result.output
    result = runner.invoke(app, ["simulate", "slot", str(path), "--spins", "200000", "--seed",
                                 "1", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["agrees"]
