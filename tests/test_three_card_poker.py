"""Three Card Poker (standard rules; RAY 2016 1.4.1.2 names it): the three-card ranking,
every bet's return on every kind of outcome, the rule data's tables, and the exact
house edges with every deal counted, against the published figures."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pelisali.cards import DECK
from pelisali.games.three_card_poker import (
    CATEGORIES,
    PLAY_AT_LEAST,
    ante_bonus,
    ante_play_return,
    category,
    exact,
    pair_plus_return,
    qualifies,
    rank_of,
)
from pelisali.rules.banked import load_three_card_poker
from pelisali.rules.loader import RuleDataError

ALL = list(combinations(DECK, 3))


def test_the_ranking_orders_the_hands_as_the_rules_say() -> None:
    order = [("Ks", "9d", "2h"), ("2s", "2d", "Ah"), ("2h", "4h", "7h"), ("As", "2d", "3c"),
             ("4s", "2d", "3c"), ("Kh", "Qs", "Ad"), ("2s", "2d", "2h"), ("Ah", "2h", "3h"),
             ("Qh", "Kh", "Ah")]
    values = [rank_of(hand) for hand in order]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert [category(h) for h in order] == [
        "high card", "pair", "flush", "straight", "straight", "straight", "three of a kind",
        "straight flush", "straight flush"]
    assert rank_of(("Ks", "Kd", "4h")) > rank_of(("Qs", "Qd", "Ah"))  # the pair first
    assert rank_of(("Ks", "Kd", "5h")) > rank_of(("Kc", "Kh", "4s"))  # then the kicker
    assert rank_of(("As", "Kd", "Qh")) == rank_of(("Ac", "Kh", "Qs"))  # suits do not count
    assert rank_of(("Ks", "Ad", "2h")) < rank_of(("As", "2d", "3h"))  # K-A-2 is no straight


def test_the_counts_of_each_hand_are_the_deck_s() -> None:
    counts = {name: 0 for name in CATEGORIES}
    for hand in ALL:
        counts[category(hand)] += 1
    assert counts == {"high card": 16_440, "pair": 3_744, "flush": 1_096, "straight": 720,
                      "three of a kind": 52, "straight flush": 48}


def test_bad_hands_are_refused() -> None:
    for bad in (("As", "As", "Kd"), ("As", "Kd"), ("As", "Kd", "1x")):
        with pytest.raises(ValueError, match="three different cards"):
            rank_of(bad)


def test_the_dealer_qualifies_with_queen_high() -> None:
    assert qualifies(("Qs", "3d", "2h")) and not qualifies(("Js", "Td", "8h"))
    assert qualifies(("2s", "2d", "3h"))


@pytest.mark.parametrize(("player", "dealer", "plays", "returned"), [
    (("Qs", "6d", "4c"), ("Js", "9d", "2h"), True, 1),  # no qualifier: ante 1:1, play pushes
    (("Qs", "6d", "4c"), ("Ks", "9d", "2h"), True, -2),  # the dealer wins ante and play
    (("Ks", "6d", "4c"), ("Qs", "9d", "2h"), True, 2),  # the player wins both
    (("Ks", "6d", "4c"), ("Kh", "6s", "4d"), True, 0),  # a tie pushes both
    (("2s", "3d", "4c"), ("Ks", "9d", "2h"), True, 1 + 2),  # straight: bonus 1 and the win
    (("2s", "3d", "4c"), ("Ks", "Qh", "Ad"), True, 1 - 2),  # the bonus is paid when losing
    (("7s", "7d", "7c"), ("Js", "9d", "2h"), True, 4 + 1),  # trips: bonus 4, no qualifier
    (("7s", "8s", "9s"), ("Ks", "9d", "2h"), True, 5 + 2),  # straight flush: bonus 5
    (("As", "Kd", "Qh"), ("2s", "3d", "5h"), False, -1),  # a fold loses the ante
])
def test_the_ante_and_play_return_on_every_outcome(
    player: tuple[str, str, str], dealer: tuple[str, str, str], plays: bool, returned: int,
) -> None:
    assert ante_play_return(player, dealer, plays) == returned


def test_pair_plus_pays_its_table_on_the_player_s_own_hand() -> None:
    hands = {"high card": ("Ks", "9d", "2h"), "pair": ("2s", "2d", "Ah"),
             "flush": ("2h", "4h", "7h"), "straight": ("As", "2d", "3c"),
             "three of a kind": ("2s", "2d", "2h"), "straight flush": ("Ah", "2h", "3h")}
    paid = {name: pair_plus_return(hand) for name, hand in hands.items()}
    assert paid == {"high card": -1, "pair": 1, "flush": 4, "straight": 6,
                    "three of a kind": 30, "straight flush": 40}
    other = load_three_card_poker(pair_plus="1-3-6-30-40")
    assert pair_plus_return(hands["flush"], other) == 3
    assert ante_bonus(hands["straight flush"], load_three_card_poker("1-3-5")) == 5
    assert ante_bonus(("2s", "2d", "2h"), load_three_card_poker("1-3-5")) == 3


def test_the_rule_data_says_where_it_comes_from() -> None:
    rules = load_three_card_poker()
    assert rules.standard.startswith("standard rules; RAY's text for this game is not")
    assert "1.4.1.2" in rules.sections["game"] and rules.qualifier == "Q"
    with pytest.raises(RuleDataError, match="no ante bonus table '9-9-9'"):
        load_three_card_poker(ante_bonus="9-9-9")


def test_the_exact_house_edges_count_every_deal() -> None:
    found = exact()
    assert found.deals == 22_100 * 18_424
    # the published figures: ante 3.37 %, element of risk 2.01 %, Pair Plus 2.32 %
    assert round(float(found.ante_edge) * 100, 2) == 3.37
    assert round(float(found.element_of_risk) * 100, 2) == 2.01
    assert found.pair_plus_edge == Fraction(512, 22_100)  # 2.3167...%: counted by hand
    assert round(float(exact(pair_plus_table="1-3-6-30-40").pair_plus_edge) * 100, 2) == 7.28
    assert found.play_share == Fraction(14_900, 22_100)  # 67.42 % of hands are played


def test_queen_six_four_is_the_least_hand_worth_playing() -> None:
    found = exact()
    assert found.play_threshold == rank_of((PLAY_AT_LEAST[0] + "s", PLAY_AT_LEAST[1] + "d",
                                            PLAY_AT_LEAST[2] + "c"))
    assert category(("Qs", "6d", "4c")) == "high card"


@given(st.sampled_from(ALL), st.booleans())
def test_a_return_is_within_what_the_bets_can_win_or_lose(
    hand: tuple[str, str, str], plays: bool,
) -> None:
    dealer = next(d for d in ALL if not set(d) & set(hand))
    returned = ante_play_return(hand, dealer, plays)
    assert -2 <= returned <= 2 + 5 and (plays or returned == -1)
    assert -1 <= pair_plus_return(hand) <= 40


def test_pelisali_odds_prints_the_exact_edges_and_refuses_an_unknown_table() -> None:
    import json

    from typer.testing import CliRunner

    from pelisali.cli.main import app

    runner = CliRunner()
    shown = runner.invoke(app, ["odds", "three-card-poker"])
    assert shown.exit_code == 0, shown.output
    assert "3.3730 %" in shown.output and "2.0147 %" in shown.output
    assert "2.3167 %" in shown.output and "Q-6-4" in shown.output
    data = json.loads(runner.invoke(app, ["odds", "three-card-poker", "--set",
                                          "pair_plus=1-3-6-30-40", "--json"]).output)
    assert Fraction(data["pair_plus_edge"]) == Fraction(402, 5525)  # 7.2760 %
    assert Fraction(data["ante_edge"]) == exact().ante_edge
    for bad in (["--set", "pair_plus=2-4-6"], ["--set", "colour=red"], ["--decks", "6"]):
        refused = runner.invoke(app, ["odds", "three-card-poker", *bad])
        assert refused.exit_code == 2, (bad, refused.output)
