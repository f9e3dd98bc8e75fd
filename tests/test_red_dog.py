"""Red Dog (standard rules; RAY 2016 1.4.2 names the game without its text): what every
hand pays on every third card, the optimal raise, and the exact house edge checked
card by card, against the published figures, and by a seeded simulation."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from itertools import permutations

import pytest
from typer.testing import CliRunner

from pelisali.cards import DECK
from pelisali.games.red_dog import ORDER, RedDogError, exact, hand_return, should_raise, spread
from pelisali.rules.banked import load_red_dog
from pelisali.rules.loader import RuleDataError

PAYS = {1: 5, 2: 4, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1}  # the 5-4-2-1 table


def card(rank: str, suit: str = "s") -> str:
    return rank + suit


@pytest.mark.parametrize("low", range(13))
@pytest.mark.parametrize("high", range(13))
def test_every_two_cards_and_every_third_pay_as_the_table_says(low: int, high: int) -> None:
    first, second = card(ORDER[low]), card(ORDER[high], "d")
    for third_rank in range(13):
        third = card(ORDER[third_rank], "h")
        for raised in (False, True):
            got = hand_return(first, second, third, raised=raised)
            if low == high:  # a pair: three of a kind 11:1 on the ante, else a push
                assert got == (11 if third_rank == low else 0)
            elif abs(low - high) == 1:  # consecutive: a push, whatever comes
                assert got == 0
            elif min(low, high) < third_rank < max(low, high):
                assert got == PAYS[abs(low - high) - 1] * (2 if raised else 1)
            else:  # on or outside the two: ante and raise lost
                assert got == (-2 if raised else -1)


def test_the_spread_and_the_optimal_raise() -> None:
    assert spread("2s", "As") == 11 and spread("Kd", "Ac") == 0 and spread("5h", "5c") is None
    assert [s for s in range(1, 12) if should_raise(s)] == [7, 8, 9, 10, 11]
    for decks in (1, 2, 4, 6, 8):  # raising from 7 is optimal in every shoe
        assert exact(decks).raise_from == 7
        rules = load_red_dog(decks)
        assert not should_raise(6, rules) and should_raise(7, rules)


def test_the_exact_edge_is_every_one_deck_deal_counted_card_by_card() -> None:
    """52 × 51 × 50 ordered deals of real cards, played with the optimal raise: the same
    fractions as the count by rank."""
    total = staked = 0
    for first, second, third in permutations(DECK, 3):
        between = spread(first, second)
        raised = between is not None and between > 0 and should_raise(between, load_red_dog(1))
        total += hand_return(first, second, third, raised, load_red_dog(1))
        staked += 2 if raised else 1
    deals = 52 * 51 * 50
    found = exact(1)
    assert found.edge == Fraction(-total, deals) == Fraction(523, 16575)
    assert found.element_of_risk == Fraction(-total, staked)


@pytest.mark.parametrize(("decks", "published"), [(1, "3.155"), (2, "3.077"), (4, "2.88"),
                                                  (6, "2.80"), (8, "2.75")])
def test_the_edges_agree_with_the_published_figures(decks: int, published: str) -> None:
    """The house edges by shoe as the game's published analyses give them (per cent, to
    the places they give)."""
    places = len(published.split(".")[1])
    assert f"{float(exact(decks).edge) * 100:.{places}f}" == published


def test_a_seeded_simulation_agrees_within_its_99_percent_interval() -> None:
    rules, rng = load_red_dog(6), random.Random(2026)
    shoe = [c for c in DECK for _ in range(6)]
    hands, total, squares = 100_000, 0, 0
    for _ in range(hands):
        first, second, third = rng.sample(shoe, 3)
        between = spread(first, second)
        raised = between is not None and between > 0 and should_raise(between, rules)
        won = hand_return(first, second, third, raised, rules)
        total, squares = total + won, squares + won * won
    mean = total / hands
    deviation = math.sqrt(squares / hands - mean * mean)
    assert abs(mean + float(exact(6).edge)) < 2.576 * deviation / math.sqrt(hands)


def test_bad_cards_and_settings_are_refused() -> None:
    with pytest.raises(RedDogError, match="'1s' is not a card"):
        hand_return("1s", "9d", "5c")
    with pytest.raises(RedDogError, match="draws a third card"):
        hand_return("4s", "9d")
    with pytest.raises(RedDogError, match="one deck holds each card once"):
        hand_return("4s", "9d", "4s", rules=load_red_dog(1))
    with pytest.raises(RuleDataError, match="not 3"):
        load_red_dog(3)
    with pytest.raises(RuleDataError, match="no Red Dog pay table '6-4-2-1'"):
        load_red_dog(pay_table="6-4-2-1")
    assert "not in the rulebook as extracted" in load_red_dog().standard


def test_pelisali_odds_red_dog() -> None:
    from pelisali.cli.main import app

    runner = CliRunner()
    shown = runner.invoke(app, ["odds", "red-dog", "--decks", "8", "--json"])
    assert shown.exit_code == 0, shown.output
    body = json.loads(shown.output)
    assert (body["edge"], body["raise_from"], body["decks"]) == ("30721/1116765", 7, 8)
    table = runner.invoke(app, ["odds", "red-dog"])
    assert table.exit_code == 0 and "2.7978 %" in table.output and "spread of 7" in table.output
    for bad in (["--decks", "3"], ["--set", "ante=1"], ["--set", "pay_table=x"],
                ["--variant", "A"]):
        refused = runner.invoke(app, ["odds", "red-dog", *bad])
        assert refused.exit_code == 2, (bad, refused.output)
