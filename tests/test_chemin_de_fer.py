"""Baccara, chemin de fer (standard rules; RAY 2016 4.4.2.3 in the contents only): the
rule data's règle, the exact odds of every choice against a plain walk of every deal,
punto banco's figures where every choice draws (its tableau is chemin de fer's with
those choices), the best choices of both hands, and the command."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pelisali.analysis.baccarat_odds import baccarat_odds, full_shoe
from pelisali.cli.main import app
from pelisali.games.chemin_de_fer import (
    equilibrium,
    exact,
    outcome,
    parts,
    strategy_table,
)
from pelisali.rules.banked import load_chemin_de_fer
from pelisali.rules.loader import RuleDataError, data_dir

runner = CliRunner()


def walked(player_choice: str, choices: dict[tuple[int, int], str], decks: int
           ) -> dict[str, Fraction]:
    """Every deal walked card by card with the rule data's drawing rules: the chances."""
    rules = load_chemin_de_fer(decks)
    counts = list(full_shoe(decks))
    tally = {"banker": Fraction(0), "player": Fraction(0), "tie": Fraction(0)}

    def draw(chance: Fraction, then: object) -> None:
        left = sum(counts)
        for card in range(10):
            n = counts[card]
            if n:
                counts[card] -= 1
                then(card, chance * Fraction(n, left))  # type: ignore[operator]
                counts[card] += 1

    def settle(player: int, banker: int, chance: Fraction) -> None:
        tally["banker" if banker > player else "player" if player > banker else "tie"] += chance

    def deal(cards: tuple[int, ...], chance: Fraction) -> None:
        if len(cards) < 4:
            draw(chance, lambda c, p: deal((*cards, c), p))
            return
        player, banker = (cards[0] + cards[2]) % 10, (cards[1] + cards[3]) % 10
        if player >= 8 or banker >= 8:
            settle(player, banker, chance)
        elif rules.player_draws(player, player_choice):
            def after_third(third: int, p: Fraction) -> None:
                drawn = (player + third) % 10
                if rules.banker_draws(banker, third, choices):
                    draw(p, lambda c, q: settle(drawn, (banker + c) % 10, q))
                else:
                    settle(drawn, banker, p)
            draw(chance, after_third)
        elif rules.banker_draws(banker, None, choices):
            draw(chance, lambda c, q: settle(player, (banker + c) % 10, q))
        else:
            settle(player, banker, chance)

    deal((), Fraction(1))
    return tally


def test_the_rule_data_holds_the_regle_with_its_choices() -> None:
    rules = load_chemin_de_fer()
    assert (rules.decks, rules.commission_percent, rules.player_option) == (6, 5, 5)
    assert sorted(rules.options) == [(3, 9), (5, 4)]
    assert "RAY's text for this game is not in the rulebook" in rules.standard
    assert [rules.player_draws(p) for p in range(8)] == [True] * 6 + [False] * 2
    assert rules.player_draws(5, "stand") is False
    # the tableau: 3 draws but on an 8, 4 on 2-7, 5 on 5-7 (4 its choice), 6 on 6-7
    assert [t for t in range(10) if rules.banker_draws(3, t)] == [0, 1, 2, 3, 4, 5, 6, 7, 9]
    assert [t for t in range(10) if rules.banker_draws(4, t)] == [2, 3, 4, 5, 6, 7]
    assert [t for t in range(10) if rules.banker_draws(5, t, {(5, 4): "stand"})] == [5, 6, 7]
    assert [t for t in range(10) if rules.banker_draws(6, t)] == [6, 7]
    assert [rules.banker_draws(b, None) for b in range(8)] == [True] * 6 + [False] * 2
    assert all(rules.banker_draws(b, t) for b in (0, 1, 2) for t in range(10))
    assert not any(rules.banker_draws(7, t) for t in range(10))
    with pytest.raises(RuleDataError, match="6 or 8 decks, not 7"):
        load_chemin_de_fer(7)


def test_a_choice_where_the_tableau_draws_is_refused(tmp_path: Path) -> None:
    text = (data_dir("banked") / "chemin-de-fer.toml").read_text(encoding="utf-8")
    bad = tmp_path / "chemin.toml"
    bad.write_text(text.replace("total = 3\nthird = 9", "total = 3\nthird = 2"), encoding="utf-8")
    with pytest.raises(RuleDataError, match="a choice only where the tableau does not draw"):
        load_chemin_de_fer(path=bad)


def test_every_choice_draws_to_punto_banco_s_figures() -> None:
    for decks in (6, 8):
        found = outcome("draw", {(3, 9): "draw", (5, 4): "draw"}, decks)
        pb = baccarat_odds(full_shoe(decks)).outcomes
        assert (found.banker, found.player, found.tie) == (pb["banker"], pb["player"], pb["tie"])
    stated = exact(decks=6)
    assert round(float(stated.banker_value) * 100, 4) == -1.0558  # the banker bet's 1.06 %
    assert stated.commission == stated.outcome.banker / 20


@pytest.mark.parametrize(("player_choice", "picks"), [
    ("draw", ("stand", "draw")), ("stand", ("draw", "stand")), ("stand", ("stand", "stand"))])
def test_each_choice_s_odds_are_those_of_a_plain_walk(player_choice: str, picks: tuple[str, str]
                                                     ) -> None:
    choices = {(3, 9): picks[0], (5, 4): picks[1]}
    found = outcome(player_choice, choices, 6)
    assert {"banker": found.banker, "player": found.player, "tie": found.tie} == walked(
        player_choice, choices, 6)
    assert found.banker + found.player + found.tie == 1


def test_the_strategy_table_and_the_best_choices() -> None:
    table = strategy_table()
    assert len(table) == 8 and len({(r.player_choice, tuple(sorted(r.banker_choices.items())))
                                     for r in table}) == 8
    best = equilibrium()
    # drawing on five is better for the player whatever the banker does...
    draws = [r.player_value for r in table if r.player_choice == "draw"]
    stands = [r.player_value for r in table if r.player_choice == "stand"]
    assert min(draws) > max(stands) and best.draw == 1
    # ...and then drawing in both cells leaves the player least: the value is that row's
    least = min(table, key=lambda r: r.player_value if r.player_choice == "draw" else 1)
    assert least.banker_choices == {(3, 9): "draw", (5, 4): "draw"}
    assert best.value == least.player_value
    assert best.banker == {(3, 9): 1, (5, 4): 1}
    found = parts("draw")
    assert found.denominator == 312 * 311 * 310 * 309 * 308 * 307


def test_the_command_prints_the_table_and_the_best_choices() -> None:
    result = runner.invoke(app, ["odds", "chemin-de-fer"])
    assert result.exit_code == 0, result.output
    assert "-1.2374 %" in result.output and "-1.0558 %" in result.output
    assert "draws on five 100.0 %" in result.output
    result = runner.invoke(app, ["odds", "chemin-de-fer", "--decks", "8", "--json"])
    data = json.loads(result.output)
    assert data["decks"] == 8 and len(data["rows"]) == 8
    assert Fraction(data["equilibrium"]["player_draws_on_five"]) == 1
    for args, said in ((["--decks", "7"], "6 or 8 decks"), (["--set", "x=1"], "--decks")):
        result = runner.invoke(app, ["odds", "chemin-de-fer", *args])
        assert result.exit_code == 2 and said in result.output
