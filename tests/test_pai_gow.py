"""Pai Gow Poker: the rule data, the hands with the joker, the two-card hand, the house way
rule by rule, fouls, the settlement and its commission to the cent through the engine,
refusals, hidden cards, replay, random play, the simulation and the count of hands."""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pelisali.analysis.pai_gow_census import PUBLISHED as CENSUS
from pelisali.analysis.pai_gow_census import joker_categories
from pelisali.analysis.pai_gow_simulate import house_policy, simulate_pai_gow
from pelisali.analysis.walk import random_policy
from pelisali.cards import DECK
from pelisali.engine import GAMES, Action, IllegalMove, Seats, State, replay
from pelisali.engine.contract import sample_chance
from pelisali.engine.pai_gow import PaiGowEngine, PaiGowState, SetHand, SetHouseWay
from pelisali.games import pai_gow as pg
from pelisali.games.pai_gow import (
    HAND_NAMES,
    JOKER,
    PAI_GOW_DECK,
    five_value,
    fouls,
    hand_name,
    house_way,
    two_value,
)
from pelisali.poker.evaluate import high_value
from pelisali.poker.hands import CATEGORY_SHIFT
from pelisali.rng import SeededRng
from pelisali.rules.loader import RuleDataError
from pelisali.rules.pai_gow import load_pai_gow

RULES = load_pai_gow()
BET = 1000


def cards(text: str) -> list[str]:
    return text.split()


def play(moves: list[str], engine: PaiGowEngine | None = None, seats: int = 1) -> PaiGowState:
    state: State = (engine or PaiGowEngine()).new_state(Seats(seats))
    for move in moves:
        state = state.apply(move).state
        assert sum(state.accounts().values()) == 0
    assert isinstance(state, PaiGowState)
    return state


def dealt(box: str, dealer: str, stake: int = BET) -> list[str]:
    return [f"bet ante {stake}", "done", *cards(box), *cards(dealer)]


def snapshot(state: State, seats: int) -> tuple[Any, ...]:
    return (state.history, state.returns(), dict(state.accounts()),
            tuple(json.dumps(state.view(v), sort_keys=True) for v in [*range(seats), None]))


# -- rule data -----------------------------------------------------------------------------
def test_the_rule_data_is_marked_standard_and_cites_its_house_way() -> None:
    assert RULES.standard == ("standard rules; RAY's text for this game is not in the "
                              "rulebook as extracted")
    assert "1.4.1.2" in RULES.sections["game"] and "contents only" in RULES.sections["game"]
    assert (RULES.wheel, RULES.commission_percent, RULES.commission_rounding) == \
        ("second", 5, "up")
    assert RULES.limits == (100, 50_000)
    assert (RULES.name.fi, RULES.name.en) == ("Pai Gow -pokeri", "Pai Gow Poker")
    assert all(len(section) > 10 for section in RULES.sections.values())
    assert "wizardofodds.com/games/pai-gow-poker/house-way/foxwoods/" in \
        RULES.sections["house_way"]
    assert "house banks" in RULES.sections["play"]
    way = RULES.house_way
    assert way.name == "foxwoods"
    ranks = "23456789TJQKA"
    assert {ranks[r]: way.two_pair[r] for r in range(1, 13)} == {
        "A": None, "K": None, "Q": None, "J": None, "T": 12, "9": 12, "8": 12, "7": 12,
        "6": 11, "5": 11, "4": 11, "3": 11}
    assert [way.four_of_a_kind[r] for r in range(13)] == [0] * 5 + [11] * 4 + [None] * 4
    assert way.trips_split == {12} and way.five_aces_keep_with_pair == 11
    assert way.straight_ace_exception == {8, 9, 10, 11} and not way.full_house_keep_pairs
    with pytest.raises(RuleDataError, match="no house way 'x'; house ways: foxwoods"):
        load_pai_gow(house_way="x")
    with pytest.raises(IllegalMove, match="no setting 'decks'"):
        PaiGowEngine.from_settings({"decks": "2"})
    with pytest.raises(IllegalMove, match="no house way 'x'"):
        PaiGowEngine.from_settings({"house_way": "x"})
    with pytest.raises(IllegalMove, match="second or low, not 'middle'"):
        PaiGowEngine.from_settings({"wheel": "middle"})
    assert PaiGowEngine.from_settings({"wheel": "low"}).rules.wheel == "low"
    assert GAMES["pai-gow-poker"].title() == "Pai Gow Poker"
    assert GAMES["pai-gow-poker"].max_seats == 6


def test_a_house_way_table_must_name_every_rank(tmp_path: Any) -> None:
    from pelisali.rules.loader import data_dir

    text = (data_dir("banked") / "pai-gow-poker.toml").read_text(encoding="utf-8")
    broken = tmp_path / "pai-gow-poker.toml"
    broken.write_text(text.replace(', 3 = "K" }', " }", 1), encoding="utf-8")
    with pytest.raises(RuleDataError, match=r"two_pair.*missing 3"):
        load_pai_gow(path=broken)


# -- the five-card hand --------------------------------------------------------------------
def value(text: str, wheel: str | None = None) -> int:
    return five_value(cards(text), wheel)


def test_five_aces_is_the_best_hand_and_the_joker_is_an_ace_otherwise() -> None:
    assert value("Jk As Ad Ah Ac") > value("As Ks Qs Js Ts") > value("Ks Qs Js Ts 9s")
    assert hand_name(cards("Jk As Ad Ah Ac")) == "five_aces"
    assert value("Jk As Ad Ah 2c") == value("As Ad Ah Ac 2c")  # four aces, not five deuces
    assert value("Jk Kd Ks 9h 2c") == value("Ac Kd Ks 9h 2c")  # kings with an ace kicker
    assert value("Jk Kd Ks 9h 2c") < value("Kc Kd Ks 9h 2c")  # never a third king
    assert value("Jk Kd 9s 5h 2c") == value("Ah Kd 9s 5h 2c")  # ace high
    assert value("Jk Ad 9s 5h 2c") == value("Ah Ad 9s 5h 2c")  # a pair of aces
    assert hand_name(cards("Jk Ad Ah 9s 9c")) == "full_house"  # aces full


def test_the_joker_completes_straights_flushes_and_straight_flushes() -> None:
    assert value("Jk 9c Td Jh Qs") == value("9c Td Jh Qs Kd")  # the highest straight
    assert value("Jk 9c Td Qs Kd") == value("9c Td Jh Qs Kd")  # the gap filled
    assert value("Jk Tc Jd Qh Ks") == value("Ac Tc Jd Qh Ks")
    # in a flush the joker is the highest card of the suit not held
    assert value("Jk 2h 5h 9h Jh") == value("Ah 2h 5h 9h Jh")
    assert value("Jk Ah 5h 9h Jh") == value("Ah Kh 5h 9h Jh")
    assert value("Jk 9h Th Jh Qh") == value("9h Th Jh Qh Kh")  # a straight flush
    assert hand_name(cards("Jk Th Jh Qh Kh")) == "royal_flush"
    assert hand_name(cards("Jk 2h 3h 4h 6h")) == "straight_flush"
    assert hand_name(cards("Jk 2h 3h 4h 9h")) == "flush"
    assert hand_name(cards("Jk 2h 3d 4h 9h")) == "high_card"


def test_a_wheel_ranks_second_or_low_as_the_rule_data_says() -> None:
    wheel, king, ace, six = "Ac 2d 3h 4s 5c", "9c Td Jh Qs Kd", "Tc Jd Qh Ks Ad", "2c 3d 4h 5s 6c"
    assert value(king) < value(wheel) < value(ace)
    assert value(wheel, "low") < value(six, "low") < value(king, "low")
    assert value("Jk 2d 3h 4s 5c") == value(wheel) > value(six)  # the joker the ace
    assert value("Jk 2d 3h 4s 5c", "low") == value(six, "low")  # the joker the six
    assert value("Ac 2c 3c 4c 5c") > value("9d Td Jd Qd Kd")
    assert value("Ac 2c 3c 4c 5c", "low") < value("2d 3d 4d 5d 6d", "low")
    assert hand_name(cards("Ac 2c 3c 4c 5c")) == "straight_flush"
    assert hand_name(cards("Ac Kc Qc Jc Tc"), "low") == "royal_flush"


def reference_joker(others: list[int], wheel: str) -> int:
    """The joker's hand by its definition: an ace (any hand; five aces with four), or any
    card that makes a straight, a flush or a straight flush, the best of them."""
    aces = [a for a in range(48, 52) if a not in others]
    if not aces:
        return pg.FIVE_ACES
    best = pg._adjusted(high_value([*others, aces[0]]), wheel)
    for card in range(52):
        if card not in others:
            found = high_value([*others, card])
            if found >> CATEGORY_SHIFT in (4, 5, 8):
                best = max(best, pg._adjusted(found, wheel))
    return best


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=4, max_size=4, unique=True),
       st.sampled_from(["second", "low"]))
def test_the_joker_s_hand_is_the_best_it_may_stand_for(others: list[int], wheel: str) -> None:
    hand = [DECK[i] for i in others] + [JOKER]
    assert five_value(hand, wheel) == reference_joker(others, wheel)


# -- the two-card hand and fouls -----------------------------------------------------------
def test_the_two_card_hand_ranks_pairs_above_high_cards() -> None:
    assert two_value(["As", "Ad"]) == two_value(["Jk", "Ah"]) > two_value(["Ks", "Kd"])
    assert two_value(["2s", "2d"]) > two_value(["As", "Kd"]) == two_value(["Jk", "Kc"])
    assert two_value(["As", "Kd"]) > two_value(["As", "Qd"]) > two_value(["Ks", "Qd"])
    assert two_value(["3s", "2d"]) < two_value(["4s", "2d"]) < two_value(["4s", "3d"])
    assert min(two_value(list(p)) for p in combinations(PAI_GOW_DECK, 2)) == \
        two_value(["3c", "2c"])
    with pytest.raises(ValueError, match="2 different cards"):
        two_value(["As", "As"])


def test_a_setting_fouls_when_its_low_hand_ranks_as_high() -> None:
    assert fouls(cards("Kc 9d 7h 5s 2c"), ["Ah", "Qd"])
    assert not fouls(cards("Ac 9d 7h 5s 2c"), ["Kh", "Qd"])
    assert fouls(cards("Qc Qd 7h 5s 2c"), ["Kh", "Kd"])
    assert not fouls(cards("Qc Qd 7h 5s 2c"), ["Jh", "Jd"])
    assert fouls(cards("Qc Qd 7h 5s 2c"), ["Jk", "As"])  # the joker's pair of aces
    assert not fouls(cards("Qc Qd 7h 7s 2c"), ["Jk", "As"])  # two pair beats any pair
    assert not fouls(cards("Qc Qd 7h 5s 2c"), ["Qh", "Qs"])  # four queens split: kickers


# -- the house way -------------------------------------------------------------------------
HOUSE_WAY = [
    ("no pair", "As Kd 9h 7c 5s 4d 2h", "Kd 9h"),
    ("no pair, the joker an ace", "Jk Kd 9h 7c 5s 4d 2h", "Kd 9h"),
    ("one pair", "Ks Kd Qh 7c 5s 4d 2h", "Qh 7c"),
    ("one pair of aces with the joker", "Jk Ad Qh 8c 6s 4d 2h", "Qh 8c"),
    ("two pair, aces: split", "As Ad 3h 3c Ks 9d 2h", "3h 3c"),
    ("two pair, kings: split even with an ace", "Ks Kd Jh Jc As 9d 2h", "Jh Jc"),
    ("two pair, tens with an ace: together", "Ts Td 4h 4c As 9d 2h", "As 9d"),
    ("two pair, tens without an ace: split", "Ts Td 4h 4c Ks 9d 2h", "4h 4c"),
    ("two pair, tens with the joker: together", "Ts Td 4h 4c Jk 9d 2h", "Jk 9d"),
    ("two pair, sixes with a king: together", "6s 6d 3h 3c Ks 9d 2h", "Ks 9d"),
    ("two pair, sixes with a queen: split", "6s 6d 3h 3c Qs 9d 2h", "3h 3c"),
    ("three pair: the highest in front", "Ks Kd 8h 8c 4s 4d 2h", "Ks Kd"),
    ("three kings: in back", "Ks Kd Kh 8c 5s 4d 2h", "8c 5s"),
    ("three aces: split", "As Ad Ah 8c 5s 4d Th", "Ah Th"),
    ("three aces with the joker: split", "As Ad Jk 8c 5s Qd Th", "Jk Qd"),
    ("two sets: the pair from the higher", "Ks Kd Kh 8c 8s 8d 2h", "Ks Kd"),
    ("full house: the pair in front", "Ks Kd Kh 8c 8s 4d 2h", "8c 8s"),
    ("full house and a pair: the highest pair", "3s 3d 3h Kc Ks 8d 8h", "Ks Kc"),
    ("four aces: split", "As Ad Ah Ac Ks 9d 2h", "Ad Ac"),
    ("four jacks: split", "Js Jd Jh Jc As 9d 2h", "Jd Jc"),
    ("four nines with a king: together", "9s 9d 9h 9c Ks Qd 2h", "Ks Qd"),
    ("four nines with a queen: split", "9s 9d 9h 9c Qs Td 2h", "9d 9c"),
    ("four fives: never split", "5s 5d 5h 5c 3s 8d 2h", "8d 3s"),
    ("four of a kind and a pair: the pair", "5s 5d 5h 5c Ks Kd 2h", "Ks Kd"),
    ("four of a kind and three: a pair of them", "5s 5d 5h 5c Ks Kd Kh", "Ks Kh"),
    ("five aces and kings: kings in front", "As Ad Ah Ac Jk Ks Kd", "Ks Kd"),
    ("five aces and queens: aces in front", "As Ad Ah Ac Jk Qs Qd", "Ac Jk"),
    ("five aces, no pair: aces in front", "As Ad Ah Ac Jk Ks 2d", "Ac Jk"),
    ("straight: the two highest left over", "2c 3d 4h 5s 6c Kd Qc", "Kd Qc"),
    ("seven in a row", "3c 4d 5h 6s 7c 8d 9h", "9h 8d"),
    ("flush: the highest front that leaves it", "Ah Kh 9h 7h 4h 2h Qc", "Ah Qc"),
    ("straight and a pair: the pair in front", "5c 6d 7h 8s 9c Kd Kh", "Kh Kd"),
    ("straight and a pair it needs", "5c 6d 7h 8s 9c 9d Kh", "Kh 9d"),
    ("flush with kings and an ace: the ace way", "Ah Kh 8h 5h 2h Kc 7d", "Ah 8h"),
    ("flush with nines and an ace: the flush", "Ah 9h 8h 5h 2h 9c 7d", "9c 7d"),
    ("straight and three of a kind", "5c 6d 7h 8s 9c 9d 9h", "9h 9d"),
    ("straight and two pair: the two-pair way", "4c 5d 6h 7s 7c 8d 8h", "7s 7c"),
    ("the joker's wheel", "Jk 2c 3d 4h 5s Kd Qc", "Kd Qc"),
]


@pytest.mark.parametrize(("hand", "low"), [(h, low) for _, h, low in HOUSE_WAY],
                         ids=[name for name, _, _ in HOUSE_WAY])
def test_the_house_way_rule_by_rule(hand: str, low: str) -> None:
    high, front = house_way(cards(hand))
    assert two_value(front) == two_value(cards(low))  # the cards may differ in suit alone
    assert sorted(high + front) == sorted(cards(hand))
    assert not fouls(high, front)


def test_the_house_way_keeps_the_complete_hand_it_says() -> None:
    high, low = house_way(cards("5c 6d 7h 8s 9c 9d Kh"))
    assert hand_name(high) == "straight" and set(low) <= {"Kh", "9c", "9d"}
    high, low = house_way(cards("Ah Kh 8h 5h 2h Kc 7d"))
    assert set(low) == {"Ah", "8h"} and hand_name(high) == "pair"
    high, low = house_way(cards("As Ad Ah Ac Jk Qs Qd"))
    assert hand_name(high) == "full_house" and two_value(low) == two_value(["As", "Ad"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PAI_GOW_DECK), min_size=7, max_size=7, unique=True))
def test_the_house_way_never_fouls_and_uses_every_card(hand: list[str]) -> None:
    high, low = house_way(hand)
    assert len(high) == 5 and len(low) == 2 and sorted(high + low) == sorted(hand)
    assert not fouls(high, low)


# -- the settlement through the engine -----------------------------------------------------
BOX = "Kc Kd Qh 9s 7d 4c 2h"
DEALER = "Ac Jd 8h 6s 5d 3c 2c"  # the house way: A-6-5-3-2 and J-8


def test_a_win_pays_even_money_less_the_commission_as_its_own_item() -> None:
    state = play([*dealt(BOX, DEALER), "set Qh 9s"])
    assert state.is_terminal()
    assert (state.dealer_high, state.dealer_low) == (tuple(cards("Ac 6s 5d 3c 2c")),
                                                    ("Jd", "8h"))
    settled = state.settlements[0]
    assert (settled.paid, settled.outcome, settled.high, settled.low) == (2000, "win", "box",
                                                                          "box")
    assert [(c.seat, c.win, c.percent, c.amount) for c in state.commissions] == \
        [(0, 1000, 5, 50)]
    assert state.returns() == (950,)
    assert dict(state.accounts()) == {"seat 0": 950, "table": 0, "house": -950}


@pytest.mark.parametrize(("stake", "rounding", "commission"), [
    (1000, "up", 50), (1010, "up", 51), (1010, "down", 50), (1019, "up", 51),
    (1019, "down", 50), (1020, "up", 51), (100, "up", 5), (50_000, "up", 2500)])
def test_the_commission_is_whole_cents_rounded_the_rule_data_s_way(
        stake: int, rounding: str, commission: int) -> None:
    engine = PaiGowEngine(rules=replace(RULES, commission_rounding=rounding))
    state = play([*dealt(BOX, DEALER, stake), "set Qh 9s"], engine)
    assert state.commissions[0].amount == commission
    assert state.returns() == (stake - commission,)
    assert RULES.commission(1) == 1
    assert replace(RULES, commission_rounding="down").commission(1) == 0


def test_one_hand_each_way_pushes_and_a_copy_is_the_dealer_s() -> None:
    pushed = play([*dealt(BOX, DEALER), "set 4c 2h"])  # the high hand wins, the low loses
    assert pushed.returns() == (0,) and not pushed.commissions
    assert (pushed.settlements[0].outcome, pushed.settlements[0].paid) == ("push", BET)
    copied = play([*dealt("Kc Kd Qh 9s 7d Jc 8c", DEALER), "set Jc 8c"])  # low J-8 both
    assert (copied.settlements[0].high, copied.settlements[0].low) == ("box", "copy")
    assert copied.returns() == (0,)
    both = play([*dealt("Ad 6d 5h 3h 2h Js 8s", DEALER), "house"])  # both copies
    assert (both.settlements[0].high, both.settlements[0].low) == ("copy", "copy")
    assert both.returns() == (-BET,) and both.settlements[0].outcome == "lose"


def test_both_lower_loses() -> None:
    state = play([*dealt("9c 8d 6h 5s 3d Tc 2h", DEALER), "house"])
    assert state.lows[0] is not None and set(state.lows[0]) == {"9c", "8d"}
    assert state.returns() == (-BET,) and state.settlements[0].outcome == "lose"


def test_a_fouled_setting_is_taken_with_a_warning_and_loses() -> None:
    weak_dealer = "9c 7d 6h 4s 3d 2c Td"  # T-6-4-3-2 and 9-7
    state = play(dealt("As Kd Qh Jc 8s 5d 2h", weak_dealer))
    step = state.apply("set As Kd")  # both hands would beat the dealer's, but it fouls
    assert [e.kind for e in step.events if e.kind == "foul"] == ["foul"]
    foul = next(e for e in step.events if e.kind == "foul")
    assert foul.private and foul.seats == (0,)
    done = step.state
    assert isinstance(done, PaiGowState)
    assert done.returns() == (-BET,) and done.settlements[0].foul
    assert done.view(0)["foul"] is True
    fair = play([*dealt("As Kd Qh Jc 8s 5d 2h", weak_dealer), "house"])
    assert fair.returns() == (BET - 50,)


def test_where_the_wheel_ranks_decides_a_round() -> None:
    box, dealer = "Ac 2d 3h 4s 5c Kd Qc", "9s Ts Jh Qd Kh 7c 6c"
    second = play([*dealt(box, dealer), "house"])
    assert second.settlements[0].high == "box" and second.returns() == (BET - 50,)
    low = play([*dealt(box, dealer), "house"], PaiGowEngine.from_settings({"wheel": "low"}))
    assert low.settlements[0].high == "dealer" and low.returns() == (0,)


def test_the_house_action_sets_the_hand_as_the_house_way_does() -> None:
    state = play(dealt("Ts Td 4h 4c As 9d 2h", DEALER))
    assert state.legal_actions()[0] == SetHouseWay()
    assert len(state.legal_actions()) == 1 + 21
    assert state.view(0)["house_way"] == {"high": cards("Ts Td 4h 4c 2h"),
                                          "low": ["As", "9d"]}
    done = state.apply("house").state
    assert isinstance(done, PaiGowState) and done.lows[0] == ("As", "9d")
    assert done.history[-1].action == SetHouseWay()


# -- refusals ------------------------------------------------------------------------------
# -- a player banking ---------------------------------------------------------------------
def banked(box: str, dealer: str, stake: int = BET) -> list[str]:
    return [f"bet bank {stake}", "done", *cards(box), *cards(dealer)]


def test_a_bank_plays_against_the_dealer_s_hand_and_takes_the_copies() -> None:
    # the bank's K-K and Q-9 against the dealer's ace high and J-8: both won, 1:1 less 5 %
    won = play([*banked(BOX, DEALER), "set Qh 9s"])
    assert (won.settlements[0].spot, won.settlements[0].outcome) == ("bank", "win")
    assert (won.settlements[0].high, won.settlements[0].low) == ("box", "box")
    assert [(c.win, c.amount) for c in won.commissions] == [(BET, 50)]
    assert won.returns() == (BET - 50,)
    # both hands copies: against the house's bank the bet lost; banking, the copies are
    # the bank's and it wins
    copied = play([*banked("Ad 6d 5h 3h 2h Js 8s", DEALER), "house"])
    assert (copied.settlements[0].high, copied.settlements[0].low) == ("copy", "copy")
    assert copied.settlements[0].outcome == "win" and copied.returns() == (BET - 50,)
    assert "(the bank's)" in copied.settlements[0].result
    # one copy (the low hand, J-9) and the high hand lost (K-K to A-A): a push
    pushed = play([*banked("Kc Kd Qh Js 9s 7d 2c", "As Ah 9c 7h 4d Jd 8h"), "set Js 9s"])
    assert (pushed.settlements[0].high, pushed.settlements[0].low) == ("dealer", "copy")
    assert pushed.returns() == (0,) and pushed.settlements[0].outcome == "push"
    # both hands lower: the bank loses its stake
    lost = play([*banked("9c 8d 6h 5s 3d Tc 2h", DEALER), "house"])
    assert lost.returns() == (-BET,) and lost.settlements[0].outcome == "lose"


def test_a_fouled_bank_loses_and_the_commission_is_on_the_bank_s_stake() -> None:
    weak_dealer = "9c 7d 6h 4s 3d 2c Td"
    fouled = play([*banked("As Kd Qh Jc 8s 5d 2h", weak_dealer), "set As Kd"])
    assert fouled.settlements[0].foul and fouled.returns() == (-BET,)
    assert not fouled.commissions
    big = play([*banked("As Kd Qh Jc 8s 5d 2h", weak_dealer, 1010), "house"])
    assert big.commissions[0].amount == 51 and big.returns() == (1010 - 51,)


def test_a_box_bets_against_the_bank_or_banks_not_both() -> None:
    betting = play(["bet bank 1000"])
    assert [a.text() for a in betting.legal_actions()] == ["bet bank 1", "bet bank 49000",
                                                          "done"]
    before = snapshot(betting, 1)
    with pytest.raises(IllegalMove, match="bets against the bank or banks, not both"):
        betting.apply("bet ante 500")
    assert snapshot(betting, 1) == before
    assert play(["bet ante 1000", "bet ante 500"]).bets[-1].stake == 500
    fresh = play([])
    assert [a.text() for a in fresh.legal_actions()][:4] == [
        "bet ante 100", "bet ante 50000", "bet bank 100", "bet bank 50000"]


def test_a_hall_where_players_never_bank_refuses_the_bank() -> None:
    engine = PaiGowEngine(rules=replace(RULES, player_banks=False))
    fresh = play([], engine)
    assert [a.text() for a in fresh.legal_actions()] == ["bet ante 100", "bet ante 50000",
                                                         "done"]
    with pytest.raises(IllegalMove, match=r"no bet 'bank'; bets: ante$"):
        fresh.apply("bet bank 1000")


def test_a_bank_plays_the_dealer_s_hand_alone() -> None:
    """A box banks against the dealer's hand, which the house plays: no other box bets
    beside a bank (it would have no banker of its own), and no box banks beside another
    box's bet."""
    banked_first = play(["bet bank 1000", "done"], seats=2)
    assert [a.text() for a in banked_first.legal_actions()] == ["done"]
    with pytest.raises(IllegalMove, match="seat 0 banks this round against the dealer's "
                                          "hand alone"):
        banked_first.apply("bet ante 1000")
    bet_first = play(["bet ante 1000", "done"], seats=2)
    assert [a.text() for a in bet_first.legal_actions()] == ["bet ante 100",
                                                            "bet ante 50000", "done"]
    with pytest.raises(IllegalMove, match="other boxes have bet this round"):
        bet_first.apply("bet bank 1000")
    state = play(["bet bank 1000", "done", "done", *cards(BOX), *cards(DEALER), "set Qh 9s"],
                 seats=2)
    assert state.returns() == (BET - 50, 0)  # the bank won both hands; seat 1 sat out


def test_illegal_moves_are_refused_and_change_nothing() -> None:
    cases: list[tuple[PaiGowState, Action | str, str, int | None]] = []
    betting = play(["bet ante 1000"])
    cases += [(betting, "set Qh 9s", "once its cards are dealt", None),
              (betting, "house", "once its cards are dealt", None),
              (betting, "bet raise 100", "no bet 'raise'", None),
              (betting, "bet ante ten", "whole number of cents", None)]
    dealing = play(["bet ante 1000", "done", "2c"])
    cases += [(dealing, "house", "cannot come up", None), (dealing, "2c", "cannot come up", None),
              (dealing, SetHouseWay(), "chance's turn", None)]
    ready = play(dealt(BOX, DEALER))
    cases += [(ready, "set Qs 9s", "Qs is not in seat 0's hand", None),
              (ready, "set Jk 9s", "Jk is not in seat 0's hand", None),
              (ready, "set Qh Qh", "Qh is named twice", None),
              (ready, "set Qh", "the low hand is 2 cards, not 1", None),
              (ready, "set Qh 9s 7d", "the low hand is 2 cards, not 3", None),
              (ready, "set", "name the two cards", None),
              (ready, "set 1x 9s", "is not a card", None),
              (ready, "fold", "not an action here", None),
              (ready, "bet ante 100", "no more bets", None),
              (ready, "done", "no more bets", None),
              (ready, "house", "not seat 1's turn", 1),
              (ready, SetHand(("Qh", "Qh")), "named twice", None)]
    over = play([*dealt(BOX, DEALER), "house"])
    cases += [(over, "house", "the round is over", None),
              (over, "set Qh 9s", "the round is over", None)]
    two = play(["bet ante 1000", "done", "bet ante 1000", "done", *cards(BOX),
                *cards("Tc Td Th Ts 6c 6d Jk"), *cards(DEALER), "house"], seats=2)
    cases += [(two, "house", "not seat 0's turn", 0),
              (two, "set Qh 9s", "Qh is not in seat 1's hand", None)]
    for state, move, message, seat in cases:
        before = snapshot(state, state.seats)
        with pytest.raises(IllegalMove, match=message):
            state.apply(move, seat=seat)
        assert snapshot(state, state.seats) == before


def test_the_limits_void_what_is_over_the_maximum() -> None:
    state = play(["bet ante 60000"])
    assert state.bets[0].stake == RULES.limits[1]
    with pytest.raises(IllegalMove, match=r"under the table minimum 1\.00"):
        play([]).apply("bet ante 50")
    nobody = play(["done"])
    assert nobody.is_terminal() and nobody.returns() == (0,)


# -- what a seat sees ----------------------------------------------------------------------
CARD = re.compile(r"\b(?:[2-9TJQKA][cdhs]|Jk)\b")


def shown(view: dict[str, Any]) -> set[str]:
    return set(CARD.findall(json.dumps(view)))


def test_the_view_hides_the_dealer_s_cards_and_the_other_boxes() -> None:
    box0, box1 = cards(BOX), cards("Tc Td Th Ts 6c 6d Jk")
    state = play(["bet ante 1000", "done", "bet ante 2000", "done", *box0, *box1,
                  *cards(DEALER)], seats=2)
    for seat in (0, 1, None):
        view = state.view(seat)
        assert view["dealer_cards"] == 7 and view["dealer_high"] == []
        assert not shown(view) & state.hidden_from(seat)
        assert set(cards(DEALER)) <= state.hidden_from(seat)
    assert state.view(0)["cards"] == box0 and not shown(state.view(0)) & set(box1)
    assert "Jk" in state.hidden_from(0) and "Jk" not in shown(state.view(0))
    assert set(box0) <= state.hidden_from(1) and set(box0) <= state.hidden_from(None)
    after = state.apply("set Qh 9s").state
    assert after.view(1)["set"] == [True, False] and "Qh" not in shown(after.view(1))
    assert after.view(0)["low"] == ["Qh", "9s"]
    done = after.apply("house").state
    assert isinstance(done, PaiGowState)
    assert done.is_terminal() and done.hidden_from(0) == frozenset(done.deck)
    assert done.view(None)["boxes"]["1"]["low"] == ["6d", "6c"]  # four tens: the pair in front
    assert done.view(None)["dealer_low"] == ["Jd", "8h"]


def test_two_boxes_set_in_seat_order_and_replay() -> None:
    moves = ["bet ante 1000", "done", "bet ante 500", "done", *cards(BOX),
             *cards("Tc Td Th Ts 6c 6d Jk"), *cards(DEALER)]
    state = play(moves, seats=2)
    assert state.to_move() == 0
    state = play([*moves, "set Qh 9s"], seats=2)
    assert state.to_move() == 1
    state = play([*moves, "set Qh 9s", "house"], seats=2)
    # seat 0 wins both (950); seat 1: four tens with a pair: the sixes in front, 500 less 25
    assert state.returns() == (950, 475)
    again = replay(PaiGowEngine(), Seats(2), state.history)
    assert snapshot(again, 2) == snapshot(state, 2) and again.is_terminal()


# -- random play ---------------------------------------------------------------------------
def expected(state: PaiGowState, seat: int) -> int:
    """A seat's return worked out from its setting and the dealer's by the game's
    functions; a bank's from the dealer's hand settled as a player's against it (copies
    the bank's), read back, a fouled bank losing."""
    bank = state._stake(seat, "bank")
    stake = bank or state._stake(seat, "ante")
    low = state.lows[seat] or ()
    high = tuple(c for c in state.boxes[seat] if c not in low)
    dealer_high, dealer_low = house_way(state.dealer)
    if not bank:
        result = pg.settle(high, low, dealer_high, dealer_low).result
    elif pg.fouls(high, low):
        result = "lose"
    else:
        result = {"win": "lose", "lose": "win", "push": "push"}[
            pg.settle(dealer_high, dealer_low, high, low).result]
    paid, _ = pg.payout(stake, result)
    return paid - stake - (RULES.commission(stake) if result == "win" else 0)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_random_legal_play_conserves_money_and_pays_what_the_game_says(
        seed: int, seats: int) -> None:
    rng = SeededRng(seed)
    choose = random_policy(rng)
    state: State = PaiGowEngine().new_state(Seats(seats))
    while not state.is_terminal():
        move = sample_chance(state, rng) if state.is_chance() else choose(state)
        state = state.apply(move).state
        accounts = state.accounts()
        assert sum(accounts.values()) == 0
        assert tuple(accounts[f"seat {i}"] for i in range(seats)) == state.returns()
        for seat in [*range(seats), None]:
            assert not shown(state.view(seat)) & state.hidden_from(seat)
    assert isinstance(state, PaiGowState)
    for seat in range(seats):
        in_play = any(b.seat == seat for b in state.bets)
        assert state.returns()[seat] == (expected(state, seat) if in_play else 0)
    dealt_cards = [c for b in state.boxes for c in b] + list(state.dealer)
    assert len(set(dealt_cards) | set(state.deck)) == 53 == len(dealt_cards) + len(state.deck)
    again = replay(PaiGowEngine(), Seats(seats), state.history)
    assert snapshot(again, seats) == snapshot(state, seats)


# -- the simulation ------------------------------------------------------------------------
def test_the_house_policy_bets_then_asks_for_the_house_way() -> None:
    assert house_policy(play([])).text() == "bet ante 1000"
    assert house_policy(play(["bet ante 1000"])).text() == "done"
    assert house_policy(play(dealt(BOX, DEALER))) == SetHouseWay()


def test_a_small_simulation_is_reproducible_and_never_fouls() -> None:
    found = simulate_pai_gow(600, seed=11)
    assert found == simulate_pai_gow(600, seed=11)
    assert found.wins + found.pushes + found.losses == 600 and found.fouls == 0
    assert found.low < found.mean < found.high
    share, half = found.share("push")
    assert 0.3 < share < 0.55 and 0 < half < 0.1
    # the mean return in cents: wins less their commission, less the losses
    assert found.mean == pytest.approx(
        (found.wins * BET - found.commissions - found.losses * BET) / (600 * BET))


def test_simulate_pai_gow_poker_from_the_command_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from pelisali.cli.main import app
    from pelisali.games import pai_gow_count

    # the exact count beside the simulation, from the user's cache (counting the 53 cards
    # takes minutes; the count itself is tested in tests/test_pai_gow_count.py)
    deals = math.comb(53, 7) * math.comb(46, 7)
    counted = pai_gow_count.PaiGowCount(deals, 29 * deals // 100, deals - 59 * deals // 100,
                                        30 * deals // 100, Fraction(1, 20), 1)
    (tmp_path / "pelisali").mkdir()
    (tmp_path / "pelisali" / f"pai-gow-exact-{pai_gow_count._cache_key(load_pai_gow())}.json"
     ).write_text(json.dumps(pai_gow_count.to_json(counted)))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    result = CliRunner().invoke(app, ["simulate", "pai-gow-poker", "--rounds", "200",
                                      "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["rounds"] == 200 and data["settings"] == {"house_way": "foxwoods",
                                                          "wheel": "second", "side": "ante"}
    assert sum(r["rounds"] for r in data["results"].values()) == 200
    assert data["published"]["Wizard of Odds"]["win"] == 0.2855
    assert Fraction(data["exact_return_per_bet"]) == counted.box_return
    assert Fraction(data["exact_shares"]["win"]) == Fraction(counted.wins, deals)
    low, high = data["ci99"]
    assert data["agrees"] == (low <= counted.box_return <= high)
    refused = CliRunner().invoke(app, ["simulate", "pai-gow-poker", "--rounds", "5",
                                       "--seed", "1", "--set", "wheel=middle"])
    assert refused.exit_code != 0 and "second or low" in refused.output
    banking = CliRunner().invoke(app, ["simulate", "pai-gow-poker", "--rounds", "200",
                                       "--seed", "3", "--set", "side=bank", "--json"])
    assert banking.exit_code == 0, banking.output
    bank = json.loads(banking.output)
    assert bank["settings"]["side"] == "bank"
    assert Fraction(bank["exact_return_per_bet"]) == counted.bank_return
    assert Fraction(bank["exact_shares"]["win"]) == Fraction(counted.losses, deals)
    shown = CliRunner().invoke(app, ["simulate", "pai-gow-poker", "--rounds", "50",
                                     "--seed", "3"])
    assert shown.exit_code == 0, shown.output
    assert f"exact return per bet {float(counted.box_return):+.6f}" in shown.output
    # the same cards, the sides swapped: every win of the house's bank is the bank's win
    # here, less the copies, which change sides; so the bank wins at least the box's losses
    # without a copy, and pushes as often as the box pushed with no copy in a push
    assert bank["results"]["win"]["rounds"] >= data["results"]["lose"]["rounds"] \
        - data["high_copies"] - data["low_copies"]
    refused = CliRunner().invoke(app, ["simulate", "pai-gow-poker", "--rounds", "5",
                                       "--seed", "1", "--set", "side=dealer"])
    assert refused.exit_code != 0 and "side is ante or bank" in refused.output
    refused = CliRunner().invoke(app, ["odds", "pai-gow-poker", "--set", "decks=2"])
    assert refused.exit_code != 0 and "take house_way and wheel, not decks" in refused.output
    refused = CliRunner().invoke(app, ["odds", "pai-gow-poker", "--set", "wheel=middle"])
    assert refused.exit_code != 0 and "second or low" in refused.output


# -- the count of seven-card hands ---------------------------------------------------------
def best_of_seven(six: list[int]) -> str:
    hand = [DECK[i] for i in six] + [JOKER]
    best = max(combinations(hand, 5), key=lambda five: five_value(five))
    return hand_name(best)


def test_the_joker_s_seven_card_hands_are_counted_as_the_one_hand_evaluator_says() -> None:
    gen = np.random.default_rng(7)
    rows = [sorted(gen.choice(52, 6, replace=False).tolist()) for _ in range(400)]
    index = {c: i for i, c in enumerate(DECK)}
    for text in ("Kh Qh Jh Th 2c 2d", "As Ad Ah Ac 2c 3d", "2s 3s 4s 5s 9d Kc",
                 "Ah Kh 9h 7h Qc 3d", "As Ad Ah 9c 9d 2h", "9c Tc Jd Qh 3s 3d"):
        rows.append(sorted(index[c] for c in text.split()))
    found = joker_categories(np.array(rows, dtype=np.int8))
    assert [HAND_NAMES[i] for i in found] == [best_of_seven(r) for r in rows]


def test_the_published_count_of_hands_adds_up() -> None:
    assert sum(CENSUS.values()) == math.comb(53, 7)
    # a royal flush in seven cards: one of the four and any two others, or with the joker
    # four (or five) of a royal's cards in six
    assert 4 * math.comb(47, 2) + 4 * (5 * math.comb(47, 2) + 47) == 26_132


@pytest.mark.slow
def test_every_seven_card_hand_of_the_53_counted() -> None:
    from pelisali.analysis.pai_gow_census import census_pai_gow

    found = census_pai_gow()
    assert found.total == math.comb(53, 7)
    assert found.differences() == {"royal_flush": 8, "straight_flush": -8}
    assert found.counts["five_aces"] == 1128 and found.counts["royal_flush"] == 26_132
