"""Exact odds: the engine's walk over its chance outcomes against values worked out by hand.

Each expected value below is derived from the rulebook's pay tables and the
number of winning pockets, faces or sectors (shown in the comment), not from
the code under test.
"""

from fractions import Fraction as F

import pytest

from pelisali.analysis.odds import exact_odds, spot_value
from pelisali.games import make_game


def rtps(game: str, variant: str | None = None, **settings: str | bool) -> dict[str, F]:
    if game == "roulette" and variant in tuple("ABCDEF"):
        settings.setdefault("quarters", True)
    return {row.bet: row.rtp for row in exact_odds(make_game(game, variant, settings))}


def test_roulette_c_every_bet_is_36_over_37() -> None:
    # RAY 1.2.1 C: k:1 on n numbers with n(k+1) = 36 for every bet; zero takes the rest.
    assert set(rtps("roulette", "C").values()) == {F(36, 37)}


def test_roulette_a_inside_bets() -> None:
    # RAY 1.2.1 A: 30:1 on 1, 15:1 on 2, 10:1 on 3, 7:1 on 4, 4:1 on 6 numbers.
    got = rtps("roulette", "A")
    assert got["straight"] == F(31, 37)
    assert got["split"] == F(2 * 16, 37)
    assert got["street"] == F(3 * 11, 37)
    assert got["corner"] == F(4 * 8, 37)
    assert got["sixline"] == F(6 * 5, 37)
    assert got["red"] == got["dozen"] == got["quarter"] == F(36, 37)


def test_roulette_b_table_two_one_in_thirty() -> None:
    # RAY 1.2.1 B: table 1 (30:1 ...) 29/30 of rounds, table 2 (60:1 ...) 1/30.
    got = rtps("roulette", "B")
    for bet, numbers, low, high in [("straight", 1, 30, 60), ("split", 2, 15, 30),
                                    ("street", 3, 10, 20), ("corner", 4, 7, 14),
                                    ("sixline", 6, 4, 8)]:
        expected = F(numbers, 37) * (F(29, 30) * (low + 1) + F(1, 30) * (high + 1))
        assert got[bet] == expected, bet
    assert got["dozen"] == got["red"] == F(36, 37)


def test_roulette_double_zero() -> None:
    # RAY 1.2.1 E: 38 pockets; first five 6:1 on five numbers.
    e = rtps("roulette", "E")
    assert e["straight"] == e["red"] == e["dozen"] == F(36, 38)
    assert e["first_five"] == F(5 * 7, 38)
    # RAY 1.2.1 F: even chances lose half on 0 and 00: (18*2 + 2*1/2) / 38.
    f = rtps("roulette", "F")
    assert f["red"] == F(37, 38)
    assert f["dozen"] == F(36, 38)


def test_roulette_d_la_partage_and_prison() -> None:
    p_win, p_zero = F(18, 37), F(1, 37)
    assert rtps("roulette", "D", zero_rule="la_partage")["red"] == 2 * p_win + p_zero / 2
    # Two-level prison (RULINGS): V1 = p_win + p_zero V2, V2 = p_win V1.
    v1 = p_win / (1 - p_zero * p_win)
    assert rtps("roulette", "D", zero_rule="en_prison")["red"] == 2 * p_win + p_zero * v1
    assert 2 * p_win + p_zero * v1 == F(49302, 49987)
    # Both rules, player's best choice: half back (1/2) beats prison (V1 < 1/2).
    assert rtps("roulette", "D", zero_rule="both")["red"] == F(73, 74)


def test_roulette_d_best_choices_at_each_level() -> None:
    game = make_game("roulette", "D", {"zero_rule": "both"})
    value = spot_value(game, game.spot("black"))
    assert value.policy == {(0, 0): "half", (1, 0): "quarter"}
    # Level 1 with a quarter back on zero: 18/37 released + 1/37 * 1/4.
    assert value.by_level[1] == F(18, 37) + F(1, 37) / 4


@pytest.mark.parametrize(("variant", "tiles", "columns", "even_rtp"), [
    # RAY 1.2.1 G: 6x5:1 3x7:1 2x9:1 1x24:1 1x49:1; even chances lose on zero.
    ("G", [(6, 5), (3, 7), (2, 9), (1, 24), (1, 49)], False, F(12, 13)),
    # H: 8x8:1 4x10:1 2x12:1 2x25:1; I: 8x6:1 4x8:1 2x10:1 1x25:1 1x50:1; half back on zero.
    ("H", [(8, 8), (4, 10), (2, 12), (2, 25)], True, F(12, 13) + F(1, 26)),
    ("I", [(8, 6), (4, 8), (2, 10), (1, 25), (1, 50)], True, F(12, 13) + F(1, 26)),
])
def test_roulette_0_to_12(variant: str, tiles: list[tuple[int, int]], columns: bool,
                          even_rtp: F) -> None:
    got = rtps("roulette", variant)
    count = sum(n for n, _ in tiles)
    mean_return = F(sum(n * (k + 1) for n, k in tiles), count)
    assert got["straight"] == mean_return / 13
    assert got["red"] == got["low"] == even_rtp
    assert ("column" in got) is columns
    if columns:
        assert got["column"] == F(4 * 3, 13)
    assert "quarter" not in got


def test_boule_money_wheel_and_dice() -> None:
    # Boule 1.2.2: 7:1 on 4/36 pockets; even chances 1:1 on 16/36.
    assert set(rtps("boule").values()) == {F(8, 9)}
    # Money wheel 1.2.3: sectors x (k+1) / 54.
    wheel = rtps("money-wheel")
    for symbol, sectors, k in [("1", 23, 1), ("2", 15, 2), ("5", 8, 5), ("10", 4, 10),
                               ("20", 2, 20), ("joker", 1, 45), ("logo", 1, 45)]:
        assert wheel[symbol] == F(sectors * (k + 1), 54)
    # Tuplanoppa 1.3.1: ways of each sum out of 36.
    dice = rtps("tuplanoppa")
    ways = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
    pays = {2: 32, 3: 15, 4: 10, 5: 7, 6: 5, 7: 4, 8: 5, 9: 7, 10: 10, 11: 15, 12: 32}
    for total in ways:
        assert dice[f"sum_{total}"] == F(ways[total] * (pays[total] + 1), 36)
    assert dice["any_pair"] == F(6 * 5, 36)
    assert dice["under_7"] == dice["over_7"] == F(15 * 2, 36) + F(6, 36) / 2
    # Sic Bo 1.3.2.
    sic = rtps("sic-bo")
    assert sic["small"] == sic["big"] == F(108 - 3, 216) * 2  # 108 rolls total 4-10; 3 triples
    assert sic["single"] == F(75 * 2 + 15 * 3 + 1 * 13, 216)
    assert sic["two_dice"] == F(30 * 7, 216)
    assert sic["double"] == F(16 * 12, 216)
    assert sic["any_triple"] == F(6 * 31, 216)
    assert sic["specific_triple"] == F(181, 216)
    assert sic["total_4"] == F(3 * 61, 216)
    assert sic["total_10"] == F(27 * 7, 216)
