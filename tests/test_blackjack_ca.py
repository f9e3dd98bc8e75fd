"""Blackjack combinatorial analysis against hand counts, brute force and published figures.

Published values quoted here:

* Wizard of Odds, blackjack appendix 9, one deck, dealer stands on soft 17
  (wizardofodds.com/games/blackjack/appendix/9/1ds17r4/): expected values of
  two-card hands against an ace, given no dealer blackjack.
* The geditcom.com two-deck tables (geditcom.com/Blackjack/TwoDeck.html): standing
  values against an ace, given no dealer blackjack.
* Eight decks, S17, DAS, no surrender, hole card checked, resplits to four
  hands: about 0.43 %-0.46 % house edge (bj21.com, table 4: 0.57 % less 0.14 % for
  DAS; thecolorofblackjack.com: 0.55 % + 0.02 % - 0.13 %).
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from pelisali.analysis import blackjack_ca as ca
from pelisali.analysis.blackjack_ca import (
    BlackjackResult,
    Strategy,
    basic_strategy,
    dealer_probabilities,
    expected_return,
    full_shoe,
    insurance_ev,
    player_evs,
)
from pelisali.analysis.blackjack_chart import render_chart
from pelisali.games.blackjack_rules import (
    VALUES,
    BlackjackConfig,
    can_double,
    can_hit,
    can_split,
    dealer_must_draw,
    hand_total,
    is_blackjack,
    settle_hand,
)

DEFAULT = BlackjackConfig.from_settings()
ORIGINAL_ONLY = BlackjackConfig.from_settings({"dealer_blackjack_under_ten": "original_only"})
EIGHT_FIVE = BlackjackConfig.from_settings({"blackjack_pays": "8:5"})
NO_DAS = BlackjackConfig.from_settings({"double_after_split": False})


@pytest.fixture(scope="module")
def results() -> Iterator[dict[str, BlackjackResult]]:
    """Each rule set analysed once for the whole module (the dealer odds are shared)."""
    yield {name: expected_return(config) for name, config in
           [("default", DEFAULT), ("original_only", ORIGINAL_ONLY), ("8:5", EIGHT_FIVE),
            ("no_das", NO_DAS)]}


def shoe(**counts: int) -> tuple[int, ...]:
    names = {"A": 1, "T": 10, **{f"c{v}": v for v in range(2, 10)}}
    out = [0] * 10
    for name, n in counts.items():
        out[names[name] - 1] = n
    return tuple(out)


# -- dealer -------------------------------------------------------------------------------------

@pytest.mark.parametrize("decks", [1, 8])
@pytest.mark.parametrize("up", VALUES)
def test_dealer_probabilities_sum_to_one(decks: int, up: int) -> None:
    rest = ca._take(full_shoe(decks), up)
    for peeked in (True, False):
        probs = dealer_probabilities(rest, up, peeked=peeked)
        assert sum(probs.values()) == pytest.approx(1.0, abs=1e-12)
        assert min(probs.values()) >= 0.0
    if up not in (1, 10):
        assert dealer_probabilities(rest, up)["blackjack"] == 0.0


def test_dealer_hand_checkable_shoes() -> None:
    # Only sevens: 10 + 7 stands on 17.
    assert dealer_probabilities(shoe(c7=5), 10)["17"] == 1.0
    # Only tens under a six: 16 draws and busts.
    assert dealer_probabilities(shoe(T=5), 6)["bust"] == 1.0
    # Ace up, only sixes: soft 17 and the dealer stands on all 17s.
    assert dealer_probabilities(shoe(c6=5), 1)["17"] == 1.0
    # Five up, only aces: soft 16 draws an ace to a soft 17 and stands.
    assert dealer_probabilities(shoe(A=6), 5)["17"] == 1.0
    # Ten up, one ace and one seven: no peek, half the time a blackjack.
    probs = dealer_probabilities(shoe(A=1, c7=1), 10)
    assert probs["blackjack"] == 0.5 and probs["17"] == 0.5
    # The same shoe under a peek: the hole card must be the seven.
    assert dealer_probabilities(shoe(A=1, c7=1), 10, peeked=True)["17"] == 1.0
    # Ace up over two tens and three fives, checked: the hole is a five (soft 16), then
    # a five (2/4) makes soft 21; a ten (2/4) makes hard 16, then a five (2/3) 21, a ten bust.
    probs = dealer_probabilities(shoe(T=2, c5=3), 1)
    assert probs["21"] == pytest.approx(0.5 + 0.5 * 2 / 3)
    assert probs["bust"] == pytest.approx(0.5 / 3)


def _brute_dealer(rest: tuple[int, ...], hand: tuple[int, ...]) -> list[Fraction]:
    """The dealer's outcome odds by walking every draw, with exact fractions."""
    out = [Fraction(0)] * len(ca.OUTCOMES)
    if not dealer_must_draw(hand):
        total, _ = hand_total(hand)
        index = 6 if is_blackjack(hand) else 5 if total > 21 else total - 17
        out[index] = Fraction(1)
        return out
    cards = sum(rest)
    for value, n in zip(VALUES, rest, strict=True):
        if n:
            sub = _brute_dealer(ca._take(rest, value), (*hand, value))
            out = [o + Fraction(n, cards) * s for o, s in zip(out, sub, strict=True)]
    return out


@pytest.mark.parametrize("up", VALUES)
def test_dealer_probabilities_match_brute_force(up: int) -> None:
    rest = shoe(A=2, c2=2, c3=1, c4=2, c5=1, c6=2, c7=1, c8=2, c9=1, T=6)
    exact = _brute_dealer(rest, (up,))
    got = dealer_probabilities(rest, up, peeked=False)
    for name, value in zip(ca.OUTCOMES, exact, strict=True):
        assert got[name] == pytest.approx(float(value), abs=1e-14)


# -- player values ------------------------------------------------------------------------------

@pytest.mark.parametrize(("hand", "stand", "hit", "double"), [
    ((1, 2), -0.661732, -0.067808, -0.593281),
    ((3, 4), -0.657967, -0.345048, -1.126423),
    ((5, 6), -0.634013, 0.172946, 0.240259),
    ((1, 7), -0.101015, -0.108386, -0.357778),
])
def test_single_deck_values_against_an_ace_match_the_wizard(
        hand: tuple[int, int], stand: float, hit: float, double: float) -> None:
    evs = player_evs(hand, 1, BlackjackConfig(decks=1))
    assert (round(evs.stand, 6), round(evs.hit or 0, 6), round(evs.double or 0, 6)) == (
        stand, hit, double)


def test_two_deck_standing_values_match_geditcom() -> None:
    two = BlackjackConfig(decks=2)
    assert round(player_evs((1, 1), 1, two).stand, 6) == -0.665322
    assert round(player_evs((1, 6), 1, two).stand, 6) == -0.480381


def test_peek_conditions_the_players_draws_too() -> None:
    # Ace up, unseen: two sixes and a ten. Checked, so the hole is a six (dealer soft 17)
    # and the player's cards come from {6, T}: 5 -> hit T then 6, or 6 then T: always 21.
    evs = player_evs((2, 3), 1, DEFAULT, shoe=shoe(c6=2, T=1))
    assert evs.stand == pytest.approx(-1.0)
    assert evs.hit == pytest.approx(1.0)
    assert evs.double == pytest.approx(-2.0)  # 15 or 11 against 17


def test_dealer_blackjack_under_ten_takes_doubles_or_only_the_bet() -> None:
    # Ten up, unseen: an ace and two sevens; the player doubles 11.
    # takes_all, no peek: player A (1/3) -> 12 v 17, -2; player 7 (2/3) -> 18 and the
    # hole is A (dealer blackjack, -2) or 7 (+2) evenly: EV = -2/3.
    unseen = shoe(A=1, c7=2)
    assert player_evs((5, 6), 10, DEFAULT, shoe=unseen).double == pytest.approx(-2 / 3)
    # original_only: given the hole is a seven the double is worth 0 (A: 12, 7: 18 v 17),
    # and a dealer blackjack costs the original bet only.
    assert player_evs((5, 6), 10, ORIGINAL_ONLY, shoe=unseen).double == pytest.approx(0.0)


def test_split_aces_get_one_card_and_21_is_not_a_blackjack() -> None:
    # Only tens left: each split ace takes one ten, 21 (not a blackjack), against a dealer 19
    # (9 up): +1 on each hand. Not split, A,A hits to 12 and then 22 or stands: worse.
    evs = player_evs((1, 1), 9, DEFAULT, shoe=shoe(T=6))
    assert evs.split == pytest.approx(2.0)
    assert evs.best == "P"
    # Against a ten up the dealer has 20: no blackjack is possible without aces.
    assert player_evs((1, 1), 10, DEFAULT, shoe=shoe(T=6)).split == pytest.approx(2.0)


# -- the split value against a full enumeration of both hands ------------------------------------

def _exact_split(config: BlackjackConfig, strategy: Strategy, pair: int, up: int,
                 rest: tuple[int, ...]) -> float:
    """Both split hands played in turn by ``strategy``, the dealer drawing after both."""
    aces = pair == 1

    @cache
    def finals(hand: tuple[int, ...], unseen: tuple[int, ...],
               first: bool) -> tuple[tuple[float, tuple[int, ...], tuple[int, ...], int], ...]:
        """(probability, final hand, shoe, stake) of a split hand from two cards."""
        if not can_hit(hand, aces, config):
            return ((1.0, hand, unseen, 1),)
        if first:
            action = strategy.action(hand, up, can_double(hand, True, aces, config),
                                     can_split(hand, 2))
        else:
            action = strategy.action(hand, up, False, False)
        if action == "S":
            return ((1.0, hand, unseen, 1),)
        out = []
        cards = sum(unseen)
        for value, n in zip(VALUES, unseen, strict=True):
            if not n:
                continue
            more, left = tuple(sorted((*hand, value))), ca._take(unseen, value)
            if action == "D":
                out.append((n / cards, more, left, 2))
            else:
                out.extend((n / cards * p, h, s, k) for p, h, s, k in finals(more, left, False))
        return tuple(out)

    def dealt(unseen: tuple[int, ...]) -> Iterator[tuple[float, tuple[int, ...],
                                                          tuple[int, ...], int]]:
        cards = sum(unseen)
        for value, n in zip(VALUES, unseen, strict=True):
            if n:
                yield from ((n / cards * p, h, s, k) for p, h, s, k in
                            finals(tuple(sorted((pair, value))), ca._take(unseen, value), True))

    reps = {"17": (10, 7), "18": (10, 8), "19": (10, 9), "20": (10, 10), "21": (10, 5, 6),
            "bust": (10, 6, 10), "blackjack": (10, 1)}

    @cache
    def net(hand: tuple[int, ...]) -> tuple[float, ...]:
        return tuple(float(settle_hand(hand, reps[o], True)) - 1 for o in ca.OUTCOMES)

    @cache
    def dealer(unseen: tuple[int, ...]) -> tuple[float, ...]:
        return tuple(dealer_probabilities(unseen, up).values())

    total = 0.0
    for p1, h1, s1, k1 in dealt(rest):
        for p2, h2, s2, k2 in dealt(s1):
            odds = dealer(s2)
            total += p1 * p2 * sum(d * (k1 * a + k2 * b)
                                   for d, a, b in zip(odds, net(h1), net(h2), strict=True))
    return total


@pytest.mark.parametrize(("pair", "up"), [(9, 8), (2, 5), (8, 7)])
def test_split_value_equals_full_enumeration(pair: int, up: int) -> None:
    strategy = basic_strategy(DEFAULT)
    rest = full_shoe(1)
    for v in (pair, pair, up):
        rest = ca._take(rest, v)
    approx = ca._Round(DEFAULT, up, strategy).split(pair, rest)
    assert approx == pytest.approx(_exact_split(DEFAULT, strategy, pair, up, rest), abs=1e-12)


# -- basic strategy -----------------------------------------------------------------------------

def _well_known(s: Strategy) -> None:
    assert s.hard[16][10] == "H"
    assert s.hard[12][4] == "S"
    assert s.hard[11][6] == "D"
    assert all(s.pairs[1][up] == "P" for up in VALUES)
    assert all(s.pairs[10][up] == "S" for up in VALUES)
    assert s.soft[18][9] == "H"
    assert all(s.hard[17][up] == "S" for up in VALUES)
    assert s.soft[13][5] == "D"
    assert s.insurance is False


def test_well_known_entries_eight_decks_hole_card_rules() -> None:
    # original_only loses exactly the bet to a dealer blackjack: the US hole-card game.
    s = basic_strategy(ORIGINAL_ONLY)
    _well_known(s)
    assert all(s.pairs[8][up] == "P" for up in VALUES)
    assert s.hard[11][10] == "D" and s.hard[11][1] == "H"


def test_well_known_entries_default_rules_and_the_no_peek_changes() -> None:
    s = basic_strategy(DEFAULT)
    _well_known(s)
    # Losing the doubled or split stake to a ten-up blackjack: the European changes.
    assert s.hard[11][10] == "H"
    assert s.pairs[8][10] == "H"
    assert all(s.pairs[8][up] == "P" for up in VALUES if up != 10)
    assert s.hard[9][3] == "D" and s.hard[9][2] == "H" and s.hard[9][7] == "H"
    assert s.soft[18][2] == "S" and s.soft[18][3] == "Ds"


def test_strategy_action_follows_what_the_rules_allow() -> None:
    s = basic_strategy(DEFAULT)
    assert s.action([5, 6], 6, True, False) == "D"
    assert s.action([5, 6], 6, False, False) == "H"        # D: double, else hit
    assert s.action([1, 7], 4, False, False) == "S"        # Ds: double, else stand
    assert s.action([8, 8], 6, True, True) == "P"
    assert s.action([8, 8], 6, True, False) == "S"         # no resplit: hard 16 v 6
    assert s.action([2, 3, 10, 6], 10, False, False) == "S"  # hard 21
    assert s.action([10, 2, 4], 10, False, False) == "H"   # three-card 16


def test_strategy_json_has_every_table_cell() -> None:
    data = basic_strategy(DEFAULT).to_json()
    for table in ("hard", "soft", "pairs"):
        rows = data[table]
        assert isinstance(rows, dict)
        assert all(len(row) == 10 for row in rows.values())
    assert data["insurance"] is False
    pairs = data["pairs"]
    assert isinstance(pairs, dict) and "T-T" in pairs and "A-A" in pairs


@pytest.mark.parametrize("decks", [1, 2, 4, 6, 8])
def test_insurance_is_never_worth_taking(decks: int) -> None:
    config = BlackjackConfig(decks=decks)
    # A full shoe less the ace: 16d tens among 52d - 1 cards, paid 2:1.
    assert insurance_ev(config) == Fraction(3 * 16 * decks, 52 * decks - 1) - 1 < 0
    # Even holding two non-tens (the best case for insurance) it stays negative.
    assert max(insurance_ev(config, (a, b)) for a in range(1, 10) for b in range(1, 10)) < 0


def test_insurance_ev_eight_decks() -> None:
    assert insurance_ev(DEFAULT) == Fraction(-31, 415)


# -- the house edge -----------------------------------------------------------------------------

def test_default_house_edge_in_published_range(results: dict[str, BlackjackResult]) -> None:
    # 0.43-0.46 % with the hole card and resplits; +~0.1 % for losing doubles and splits to a
    # ten-up blackjack; +a few hundredths for no resplitting.
    assert 0.0055 < results["default"].edge < 0.0065


def test_hole_card_equivalent_house_edge_in_published_range(
        results: dict[str, BlackjackResult]) -> None:
    assert 0.0043 < results["original_only"].edge < 0.0052


def test_original_only_lowers_the_edge_by_about_a_tenth(
        results: dict[str, BlackjackResult]) -> None:
    shift = results["default"].edge - results["original_only"].edge
    assert 0.0008 < shift < 0.0013


def test_eight_five_gives_a_tenth_of_every_undisputed_blackjack(
        results: dict[str, BlackjackResult]) -> None:
    # The payout changes no decision, so the edge falls by exactly 0.1 * P(player blackjack,
    # no dealer blackjack): 8 decks, 2 * 32 * 128 / (416 * 415) for the blackjack, then the
    # dealer's two cards (up card and hole) must not make one from the 413 left.
    eight_five, default = basic_strategy(EIGHT_FIVE), basic_strategy(DEFAULT)
    assert (eight_five.hard, eight_five.soft, eight_five.pairs) == (
        default.hard, default.soft, default.pairs)
    n = 416
    p_player = Fraction(2 * 32 * 128, n * (n - 1))
    aces, tens, left = 31, 127, n - 2
    p_dealer = Fraction(2 * aces * tens, left * (left - 1))
    expected = Fraction(1, 10) * p_player * (1 - p_dealer)
    shift = results["default"].edge - results["8:5"].edge
    assert shift == pytest.approx(float(expected), abs=1e-12)
    assert 0.0044 < shift < 0.0047


def test_no_double_after_split_raises_the_edge(results: dict[str, BlackjackResult]) -> None:
    shift = results["no_das"].edge - results["default"].edge
    assert 0.0009 < shift < 0.0016


def test_result_accounting(results: dict[str, BlackjackResult]) -> None:
    result = results["default"]
    assert sum(r.probability for r in result.by_up_card) == pytest.approx(1.0, abs=1e-12)
    assert sum(p for p, _ in result.by_first_action.values()) == pytest.approx(1.0, abs=1e-12)
    assert sum(c for _, c in result.by_first_action.values()) == pytest.approx(
        result.expected_return, abs=1e-12)
    assert result.by_first_action["blackjack"][0] == pytest.approx(2 * 32 * 128 / (416 * 415))
    assert result.edge == -result.expected_return
    # Composition-dependent play is at least as good as the total-dependent strategy.
    assert result.composition_dependent_return is not None
    assert result.composition_dependent_return >= result.expected_return
    assert result.to_json()["house_edge"] == result.edge


def test_progress_reports_to_the_end() -> None:
    seen: list[tuple[int, int]] = []
    expected_return(DEFAULT, basic_strategy(DEFAULT), progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (10, 10) and len(seen) == 10


# -- chart --------------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_chart_renders(tmp_path: Path, suffix: str) -> None:
    out = render_chart(basic_strategy(DEFAULT), tmp_path / f"chart{suffix}", "Basic strategy")
    data = out.read_bytes()
    assert len(data) > 10_000
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data[:2000]
