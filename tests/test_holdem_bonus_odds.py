"""Texas Hold'em Bonus's exact count as a user asks for it: the odds and simulate commands,
and the full count (kept in the user's cache once a machine) against the deck's own hand
counts and a simulation through the engine."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from pelisali.analysis.holdem_bonus_simulate import simulate_holdem_bonus
from pelisali.cli.main import app
from pelisali.games import holdem_bonus as thb

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize(("args", "words"), [
    (["odds", "texas-holdem-bonus", "--set", "blind=1"],
     "takes the settings ante, bonus and strategy"),
    (["odds", "texas-holdem-bonus", "--set", "ante=pair"], "no ante rule 'pair'"),
    (["odds", "texas-holdem-bonus", "--decks", "2"], "not Texas Hold'em Bonus's"),
    (["simulate", "texas-holdem-bonus", "--rounds", "10", "--seed", "1", "--set", "bonus=1-2"],
     "no Bonus table '1-2'"),
    (["simulate", "texas-holdem-bonus", "--rounds", "10", "--seed", "1", "--seats", "2"],
     "one seat")])
def test_the_commands_refuse_what_the_game_does_not_have(args: list[str], words: str) -> None:
    code, out = run(*args)
    assert code != 0 and words in " ".join(out.split())


@pytest.mark.slow
def test_the_full_count_the_odds_command_and_a_simulation_agree() -> None:
    found, _ = thb.cached_exact()  # counted once a machine (about 3 minutes here)
    assert found.deals == 2_598_960 * 1081 * 990 and found.boards == 134_459
    # the seven-card hands, each counted 21 ways: the deck's known counts
    assert {k: v // 21 for k, v in found.categories.items() if v % 21 == 0} == {
        "high_card": 23_294_460, "pair": 58_627_800, "two_pair": 31_433_400,
        "three_of_a_kind": 6_461_620, "straight": 6_180_020, "flush": 4_047_644,
        "full_house": 3_473_184, "four_of_a_kind": 224_848, "straight_flush": 37_260,
        "royal_flush": 4_324}
    assert found.shares["fold"] == Fraction(60, 1326)  # 2-3 to 2-7 offsuit: 5 x 12 hands
    # a simpler strategy than the optimal one (published: 2.037 % per ante) costs more
    assert Fraction(2037, 100_000) < found.ante_edge < Fraction(5, 100)
    assert found.element_of_risk == found.ante_edge / found.average_wager
    code, out = run("odds", "texas-holdem-bonus", "--json")
    shown = json.loads(out)
    assert code == 0 and shown["from_cache"] is True
    assert Fraction(shown["ante_edge"]) == found.ante_edge
    assert Fraction(shown["bonus_edge"]) == thb.bonus_edge()
    result = simulate_holdem_bonus(3000, seed=11, found=found)
    for row in result.rows:
        assert abs(row.observed_rtp - float(row.exact_rtp)) <= row.half_width, row
