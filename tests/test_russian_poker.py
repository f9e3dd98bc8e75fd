"""Russian Poker: the rule data, the paid combinations (gamsoft.ru's double combinations),
every settlement through the engine (the draw, the sixth card, the bought game), refusals,
what a seat sees, the basic strategy, and money conserved in random play."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from banked_fixtures import StackedDeck
from hypothesis import given, settings
from hypothesis import strategies as st

from pelisali.analysis.walk import random_policy
from pelisali.cards import DECK
from pelisali.engine import GAMES, Action, IllegalMove, Seats, State, replay
from pelisali.engine.contract import sample_chance
from pelisali.engine.oasis import Exchange, Raise
from pelisali.engine.one_deck import Fold
from pelisali.engine.russian import BuyGame, RussianEngine, RussianState, Sixth, TakeAnte
from pelisali.games import russian_poker as rp
from pelisali.rng import SeededRng
from pelisali.rules.loader import RuleDataError, data_dir
from pelisali.rules.russian import PAY_HANDS, RussianRules, load_russian

RULES = load_russian()
ANTE = 1000
DEALER_AK = ["Ad", "Kc", "4d", "3c", "2s"]  # the least qualifying hand
LOW = ["Qc", "Jd", "9c", "4h", "3c"]  # queen high: the dealer does not qualify
TRIPS = ["7c", "7d", "7h", "9s", "2d"]


def play(moves: list[str], engine: RussianEngine | None = None, seats: int = 1) -> RussianState:
    """The round after ``moves``, money checked conserved at every step."""
    state: State = (engine or RussianEngine()).new_state(Seats(seats))
    for move in moves:
        state = state.apply(move).state
        assert sum(state.accounts().values()) == 0
    assert isinstance(state, RussianState)
    return state


def hand_of(text: str) -> list[str]:
    return text.split()


def dealt(box: list[str], dealer: list[str]) -> list[str]:
    return ["bet ante 1000", "done", *box, *dealer]


def paid(state: RussianState) -> dict[str, int]:
    return {s.spot: s.paid for s in state.settlements}


def results(state: RussianState) -> dict[str, str]:
    return {s.spot: s.result for s in state.settlements}


def snapshot(state: State, seats: int) -> tuple[Any, ...]:
    return (state.history, state.returns(), dict(state.accounts()),
            tuple(json.dumps(state.view(v), sort_keys=True) for v in [*range(seats), None]))


def rule_file(tmp_path: Path, *edits: tuple[str, str], extra: str = "") -> Path:
    """The packaged rule file with each ``(old, new)`` line replaced (each old once) and
    ``extra`` appended, written to ``tmp_path``."""
    text = (data_dir("banked") / "russian-poker.toml").read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "russian-poker.toml"
    path.write_text(text + extra, encoding="utf-8")
    return path


def engine_from(tmp_path: Path, *edits: tuple[str, str]) -> RussianEngine:
    return RussianEngine(rules=load_russian(path=rule_file(tmp_path, *edits)))


ANTE_PAID = ("ante_on_win = false", "ante_on_win = true")
"""The rule file's edit that pays a winning bet's ante 1:1 beside the bet (as
info.royalcasino.lv does), where by default it pushes."""


@pytest.fixture(scope="module")
def ante_paid(tmp_path_factory: pytest.TempPathFactory) -> RussianRules:
    """The rules read from a rule file with ``ante_on_win = true``."""
    rules = load_russian(path=rule_file(tmp_path_factory.mktemp("ante-paid"), ANTE_PAID))
    assert rules.ante_on_win is True and rules.pays == RULES.pays
    return rules


# -- rule data -----------------------------------------------------------------------------
def test_the_rule_data_is_marked_standard_and_holds_the_halls_numbers() -> None:
    assert RULES.standard == ("standard rules; RAY's text for this game is not in the "
                              "rulebook as extracted")
    assert "1.4.1.2.5" in RULES.sections["game"] and "contents only" in RULES.sections["game"]
    assert RULES.pay_table == "100-50-20-7-5-4-3-2-1-1"
    assert RULES.pays == {"royal_flush": 100, "straight_flush": 50, "four_of_a_kind": 20,
                          "full_house": 7, "flush": 5, "straight": 4, "three_of_a_kind": 3,
                          "two_pair": 2, "pair": 1, "ace_king": 1}
    assert tuple(RULES.pays) == PAY_HANDS
    assert (RULES.draw_price, RULES.exchange_least, RULES.sixth_card) == (1, 1, True)
    assert (RULES.bet_multiple, RULES.raise_multiple, RULES.ante_on_win) == (2, 2, False)
    assert RULES.most_combinations == 2
    assert (RULES.buy_game, RULES.buy_price, RULES.redraw_same_rank) == (True, 1, True)
    assert RULES.limits == (100, 20_000)
    assert (RULES.name.fi, RULES.name.sv, RULES.name.en) == ("Venäläinen pokeri", "Rysk poker",
                                                             "Russian Poker")
    assert set(RULES.sections) == {"game", "deal", "draw", "play", "combinations", "buy_game",
                                   "pays", "limits"}
    assert "gamsoft.ru" in RULES.sections["combinations"]
    assert "ace-king or better" in RULES.sections["play"]
    assert "its ante pushes" in RULES.sections["play"]
    # one price whatever the number of cards, within exchange_least to 5
    assert [RULES.fee(n, 700) for n in range(1, 6)] == [700] * 5
    for cards in (0, 6):
        with pytest.raises(ValueError, match=f"1 to 5 cards, not {cards}"):
            RULES.fee(cards, 700)
    with pytest.raises(RuleDataError, match="no pay table 'x'; tables: 100-50-20-7-5-4-3-2-1-1"):
        load_russian(pays="x")
    with pytest.raises(IllegalMove, match="no pay table 'x'"):
        RussianEngine.from_settings({"pays": "x"})
    with pytest.raises(IllegalMove, match="Russian Poker has no setting 'fees'; settings: pays"):
        RussianEngine.from_settings({"fees": "x"})
    assert GAMES["russian-poker"].title() == "Russian Poker"
    with pytest.raises(IllegalMove, match="russian-poker seats 1 to 4, not 5"):
        RussianEngine().new_state(Seats(5))


@pytest.mark.parametrize(("old", "new", "key"), [
    ("exchange_least = 1", "exchange_least = 0", "exchange_least"),
    ("exchange_least = 1", "exchange_least = 6", "exchange_least"),
    ("bet = 2", "bet = 3", "bet"),
    ("most = 2", "most = 3", "most"),
    ("redraw_same_rank = true", "redraw_same_rank = 1.5", "redraw_same_rank"),
    ("min = 100", "min = 30000", "limits")])
def test_a_rule_file_out_of_bounds_is_refused(tmp_path: Path, old: str, new: str,
                                              key: str) -> None:
    with pytest.raises(RuleDataError, match=key):
        load_russian(path=rule_file(tmp_path, (old, new)))


def test_the_dealer_qualifies_with_ace_king_or_better() -> None:
    assert rp.qualifies(["Ac", "Kd", "4h", "3s", "2c"])
    assert not rp.qualifies(["Ac", "Qd", "Jh", "9s", "8c"])
    assert not rp.qualifies(["Kc", "Qd", "Jh", "9s", "7c"])
    assert rp.qualifies(["2c", "2d", "3h", "4s", "5c"])
    assert rp.qualifies(["Ac", "2d", "3h", "4s", "5c"])  # the wheel is a straight


# -- the paid combinations -----------------------------------------------------------------
DOUBLES = [  # gamsoft.ru's double combinations, the sum worked out from the pay table
    ("Ah Kh Qh Jh Th 9h", ("royal_flush", "straight_flush"), 150),
    ("Ah Kh Qh Jh Th 2h", ("royal_flush", "flush"), 105),
    ("Ah Kh Qh Jh Th 9c", ("royal_flush", "straight"), 104),   # K-Q-J-T-9 offsuit
    ("Ah Kh Qh Jh Th Tc", ("royal_flush", "straight"), 104),   # A-K-Q-J with the second ten
    ("9h 8h 7h 6h 5h 4h", ("straight_flush", "straight_flush"), 100),
    ("9h 8h 7h 6h 5h 2h", ("straight_flush", "flush"), 55),
    ("9h 8h 7h 6h 5h 4c", ("straight_flush", "straight"), 54),  # 8-7-6-5-4
    ("9h 8h 7h 6h 5h 9c", ("straight_flush", "straight"), 54),  # 9c-8-7-6-5, not the pair
    ("5h 4h 3h 2h Ah Kc", ("straight_flush", "ace_king"), 51),  # the wheel and A-Kc
    ("9c 9d 9h 9s Kc Kd", ("four_of_a_kind", "full_house"), 27),
    ("9c 9d 9h 9s Ac Kd", ("four_of_a_kind", "ace_king"), 21),
    ("Ac Ad Ah 8c 8d 8h", ("full_house", "full_house"), 14),
    ("Kc Kd Kh 7s 7c Ad", ("full_house", "ace_king"), 8),
    ("Ah Jh 9h 7h 4h 2h", ("flush", "flush"), 10),
    ("Th 9h 8h 7h 2h 6c", ("flush", "straight"), 9),
    ("9h 7h 5h 3h 2h 9c", ("flush", "pair"), 6),
    ("Ah 9h 7h 5h 3h Kc", ("flush", "ace_king"), 6),
    ("9c 8d 7h 6s 5c 4d", ("straight", "straight"), 8),        # a run of six
    ("Kh Qs Jd Tc 9h 9s", ("straight", "straight"), 8),        # a rank twice, not the pair
    ("Ah 2d 3c 4s 5c Kd", ("straight", "ace_king"), 5),
    ("Ah Ad Ac Ks 2d", ("three_of_a_kind", "ace_king"), 4),
    ("Kc Kd 7h 7s 3c 3d", ("two_pair", "two_pair"), 4),
    ("Kc Kd 7h 7s Ad 2c", ("two_pair", "ace_king"), 3),
    ("Kh Kd Ac 8s 5d", ("pair", "ace_king"), 2),               # a pair of kings, an ace
    ("Ah Ad Kc 7s 2d", ("pair", "ace_king"), 2),               # a pair of aces, a king
    ("7c 7d Ah Ks 2d", ("pair", "ace_king"), 2)]               # another pair beside A-K
SINGLES = [
    ("As Ks Qs Js Ts", ("royal_flush",), 100),  # its straight, flush and A-K are inside it
    ("9h 8h 7h 6h 5h", ("straight_flush",), 50),
    ("9c 9d 9h 9s 5c", ("four_of_a_kind",), 20),
    ("Qc Qd Qh 7s 7c", ("full_house",), 7),
    ("Js 9s 6s 4s 2s", ("flush",), 5),
    ("Js 9s 6s 4s 2s 3d", ("flush",), 5),
    ("Tc 9d 8h 7s 6c", ("straight",), 4),
    ("Ah Kd Qc Js Tc 2d", ("straight",), 4),   # A-K inside the straight is not paid
    ("8c 8d 8h Ks 5c", ("three_of_a_kind",), 3),
    ("Jc Jd 6h 6s 5c", ("two_pair",), 2),
    ("5d 5h Qs Jc 9c", ("pair",), 1),
    ("Ah Ks Qd 7c 6d", ("ace_king",), 1)]


@pytest.mark.parametrize(("hand", "names", "odds"), [*DOUBLES, *SINGLES,
                                                     ("9c 8d 7h 5s 2c", (), 0),
                                                     ("9c 8d 7h 5s 2c Jd", (), 0)])
def test_the_paid_combinations_and_their_odds(hand: str, names: tuple[str, ...],
                                              odds: int) -> None:
    assert rp.paid_combinations(hand.split()) == names
    assert rp.pay_odds(hand.split()) == odds


def dealer_for(hand: list[str]) -> list[str]:
    """A-K-4-3-2 offsuit of cards not in ``hand``: the least qualifying dealer."""
    out: list[str] = []
    for number, rank in enumerate("AK432"):
        suits = "cdhs"[number % 4:] + "cdhs"[:number % 4]
        out.append(next(rank + s for s in suits if rank + s not in hand))
    assert rp.value(out) == rp.qualifier()
    return out


@pytest.mark.parametrize(("hand", "names", "odds"), [*DOUBLES, *SINGLES])
def test_the_engine_pays_the_bet_for_the_combinations(hand: str, names: tuple[str, ...],
                                                      odds: int,
                                                      ante_paid: RussianRules) -> None:
    cards = hand.split()
    dealer = dealer_for(cards)
    sixth = ["sixth", cards[5]] if len(cards) == 6 else []
    price = ANTE if sixth else 0
    # the bet, 2 antes, at the sum of the odds; the ante pushes (the rule data's default)
    # or, with ante_on_win, wins 1:1; a sixth card's price apart
    for rules, ante in ((None, 0), (ante_paid, 1)):
        engine = RussianEngine(rules=rules) if rules else None
        state = play([*dealt(cards[:5], dealer), *sixth, "raise"], engine)
        assert state.returns() == (ante * ANTE + 2 * ANTE * odds - price,)
        assert paid(state)["raise"] == 2 * ANTE * (1 + odds)
        assert paid(state)["ante"] == (1 + ante) * ANTE
        assert rp.bet_return(cards, dealer, rules) == ante + 2 * odds
        assert state.view(0)["combinations"] == list(names)


def test_a_win_names_both_combinations_and_their_odds(ante_paid: RussianRules) -> None:
    moves = [*dealt(["Kh", "Kd", "Ac", "8s", "5d"], DEALER_AK), "raise"]
    state = play(moves)
    assert results(state) == {"ante": "push, the bet alone is paid",
                              "raise": "win, pair 1:1 and ace king 1:1"}
    assert state.returns() == (4000,)  # 2:1 on the bet of 2,000, the ante back
    both = play(moves, RussianEngine(rules=ante_paid))
    assert results(both) == {"ante": "win", "raise": "win, pair 1:1 and ace king 1:1"}
    assert both.returns() == (5000,)  # and the ante 1:1


def test_most_one_pays_the_best_combination_alone(tmp_path: Path) -> None:
    one = load_russian(path=rule_file(tmp_path, ("most = 2", "most = 1")))
    assert one.most_combinations == 1
    for hand, names, _ in DOUBLES:
        assert rp.paid_combinations(hand.split(), one) == names[:1], hand
        assert rp.pay_odds(hand.split(), one) == one.pays[names[0]], hand
    assert rp.pay_odds(hand_of("Ah Kh Qh Jh Th 9h"), one) == 100
    assert rp.bet_return(hand_of("Kh Kd Ac 8s 5d"), DEALER_AK, one) == 2  # 2 x 1
    state = play([*dealt(["Kh", "Kd", "Ac", "8s", "5d"], DEALER_AK), "raise"],
                 RussianEngine(rules=one))
    assert state.returns() == (2000,) and results(state)["raise"] == "win, pair 1:1"


HALL = """
[pay_tables."hall"]
royal_flush = 200
straight_flush = 60
four_of_a_kind = 25
full_house = 8
flush = 6
straight = 4
three_of_a_kind = 3
two_pair = 2
pair = 1
ace_king = 2
section = "a hall's table paying ace-king 2:1"
"""


def test_a_hall_pay_table_by_name(tmp_path: Path) -> None:
    path = rule_file(tmp_path, extra=HALL)
    hall = load_russian(pays="hall", path=path)
    assert load_russian(path=path).pays == RULES.pays
    assert hall.pay_table == "hall" and hall.sections["pays"].startswith("a hall's")
    # A-K paying more than a pair, the flush's second combination is A-Ks, not K-K
    hand = hand_of("Ah Kh Qh Jh 7h Ks")
    assert rp.paid_combinations(hand) == ("flush", "pair") and rp.pay_odds(hand) == 6
    assert rp.paid_combinations(hand, hall) == ("flush", "ace_king")
    assert rp.pay_odds(hand, hall) == 8
    assert rp.pay_odds(hand_of("Ah Kh Qh Jh Th 9h"), hall) == 260
    state = play([*dealt(["7c", "7d", "Ah", "Ks", "2d"], DEALER_AK), "raise"],
                 RussianEngine(rules=hall))
    assert state.returns() == (2 * ANTE * 3,)  # a pair 1:1 and A-K 2:1; the ante pushes
    assert results(state)["raise"] == "win, pair 1:1 and ace king 2:1"
    # Ac-Kh and Ac-Kd are one ace-king, not a double combination (gamsoft's full list has
    # none such), though on this table they would pay 2 + 2: the pair and A-K are paid
    assert rp.paid_combinations(hand_of("Kh Kd Ac 8s 5d"), hall) == ("pair", "ace_king")
    assert rp.pay_odds(hand_of("Kh Kd Ac 8s 5d")) == 2  # the standard table: 1 + 1 either way


NAMED_COUNTS = {(2, (2,)): "pair", (3, (3,)): "three_of_a_kind", (4, (4,)): "four_of_a_kind",
                (4, (2, 2)): "two_pair"}


def combinations_by_subsets(hand: list[str]) -> list[tuple[str, frozenset[str]]]:
    """Every combination read off each subset of the cards, by the section's words."""
    out = []
    for size in (2, 3, 4, 5):
        for cards in combinations(hand, size):
            ranks = sorted(c[0] for c in cards)
            counts = sorted(ranks.count(r) for r in set(ranks))
            name = NAMED_COUNTS.get((size, tuple(counts)))
            if size == 2 and ranks == ["A", "K"]:
                name = "ace_king"
            if size == 5:
                found = rp.hand_name(cards)
                name = found if found in ("royal_flush", "straight_flush", "full_house",
                                          "flush", "straight") else None
            if name:
                out.append((name, frozenset(cards)))
    return out


@settings(max_examples=150, deadline=None)
@given(st.permutations(DECK), st.sampled_from([5, 6]))
def test_the_paid_sum_is_the_best_pair_of_combinations_by_the_words(deck: list[str],
                                                                    size: int) -> None:
    hand = deck[:size]
    held = combinations_by_subsets(hand)
    rank = {name: number for number, name in enumerate(PAY_HANDS)}
    best = max([0, *(RULES.pays[n] for n, _ in held)])
    for (one, first), (two, second) in combinations(held, 2):
        if rank[one] > rank[two]:
            (one, first), (two, second) = (two, second), (one, first)
        # the second (the lesser, or either of two alike) holds a card the first does not;
        # two pairs are two pair, and two ace-kings one ace-king
        if one == two and one in ("pair", "ace_king"):
            continue
        if second - first or (rank[one] == rank[two] and first - second):
            best = max(best, RULES.pays[one] + RULES.pays[two])
    assert rp.pay_odds(hand) == best
    assert sorted(n for n, _ in rp.combinations_held(hand)) == sorted(n for n, _ in held)


# -- every settlement of one box -----------------------------------------------------------
def test_a_fold_loses_the_ante_alone() -> None:
    state = play([*dealt(["Ac", "Qd", "9h", "7s", "4c"], DEALER_AK), "fold"])
    assert state.is_terminal() and paid(state) == {"ante": 0}
    assert results(state) == {"ante": "fold"} and state.returns() == (-ANTE,)
    # against a dealer who does not qualify too: a folded box answers nothing
    low = play([*dealt(["Ac", "Qd", "9h", "7s", "4c"], ["Qs", "Jd", "9c", "4h", "3c"]), "fold"])
    assert low.is_terminal() and low.returns() == (-ANTE,)


def test_a_dealer_who_does_not_qualify_pays_the_ante_and_pushes_the_bet() -> None:
    state = play([*dealt(["5d", "5h", "As", "Kh", "9d"], LOW), "raise"])
    assert state.to_move() == 0 and state.legal_actions() == (TakeAnte(), BuyGame())
    state = play([m.action.text() for m in state.history] + ["take"])
    assert paid(state) == {"ante": 2 * ANTE, "raise": 2 * ANTE}
    assert results(state) == {"ante": "win, the dealer does not qualify",
                              "raise": "push, the dealer does not qualify"}
    assert state.returns() == (ANTE,) and state.buys == ("take",)
    # even a box the dealer's cards beat
    worse = play([*dealt(["Js", "8d", "6s", "4s", "2c"], LOW), "raise", "take"])
    assert worse.returns() == (ANTE,) and worse.view(0)["dealer_qualifies"] is False


def test_a_higher_dealer_takes_the_ante_and_the_bet() -> None:
    state = play([*dealt(["2s", "2d", "9h", "7s", "4c"], ["Kh", "Ks", "9d", "4h", "3d"]),
                  "raise"])
    assert paid(state) == {"ante": 0, "raise": 0} and state.returns() == (-3 * ANTE,)
    assert results(state) == {"ante": "lose", "raise": "lose"}
    assert state.view(0)["dealer_hand"] == "pair"


def test_equal_hands_push_both() -> None:
    state = play([*dealt(["Ac", "Kd", "9h", "4s", "2c"], ["Ah", "Ks", "9d", "4h", "2d"]),
                  "raise"])
    assert paid(state) == {"ante": ANTE, "raise": 2 * ANTE} and state.returns() == (0,)
    assert results(state) == {"ante": "push", "raise": "push"}


def test_a_higher_box_is_paid_the_bet_by_the_table_and_its_ante_pushes() -> None:
    state = play([*dealt(["5d", "5h", "Qs", "Jc", "9c"], DEALER_AK), "raise"])
    assert paid(state) == {"ante": ANTE, "raise": 4 * ANTE}
    assert state.returns() == (2 * ANTE,)
    assert results(state) == {"ante": "push, the bet alone is paid", "raise": "win, pair 1:1"}


def test_ante_on_win_true_pays_the_ante_1_to_1_beside_the_bet(tmp_path: Path) -> None:
    engine = engine_from(tmp_path, ANTE_PAID)
    assert engine.rules.ante_on_win is True
    state = play([*dealt(["5d", "5h", "Qs", "Jc", "9c"], DEALER_AK), "raise"], engine)
    assert paid(state) == {"ante": 2 * ANTE, "raise": 4 * ANTE} and state.returns() == (3 * ANTE,)
    assert results(state) == {"ante": "win", "raise": "win, pair 1:1"}
    two = play([*dealt(["Kh", "Kd", "Ac", "8s", "5d"], DEALER_AK), "raise"], engine)
    assert two.returns() == (5 * ANTE,)  # the ante 1:1 and the bet 2:1 for a pair and A-K
    assert rp.bet_return(["Kh", "Kd", "Ac", "8s", "5d"], DEALER_AK, engine.rules) == 5
    # a game bought and won: against J-J three sevens win the ante 1:1 and the bet 3:1,
    # the game's price kept
    bought = play([*dealt(TRIPS, LOW), "raise", "buy", "Jh"], engine)
    assert paid(bought) == {"ante": 2 * ANTE, "raise": 8 * ANTE, "buy": 0}
    assert bought.returns() == (6 * ANTE,)
    # the rest is as by default: a dealer who does not qualify pays the ante 1:1 and
    # pushes the bet, a higher dealer takes both, equal hands push both
    low = play([*dealt(["5d", "5h", "As", "Kh", "9d"], LOW), "raise", "take"], engine)
    assert low.returns() == (ANTE,)
    assert results(low)["ante"] == "win, the dealer does not qualify"
    lost = play([*dealt(["2s", "2d", "9h", "7s", "4c"], ["Kh", "Ks", "9d", "4h", "3d"]),
                 "raise"], engine)
    assert lost.returns() == (-3 * ANTE,)
    tie = play([*dealt(["Ac", "Kd", "9h", "4s", "2c"], ["Ah", "Ks", "9d", "4h", "2d"]),
                "raise"], engine)
    assert paid(tie) == {"ante": ANTE, "raise": 2 * ANTE} and tie.returns() == (0,)


# -- the draw ------------------------------------------------------------------------------
def test_a_sixth_card_is_its_own_price_and_two_combinations_of_six_are_paid() -> None:
    box = ["Ah", "Kh", "7h", "2h", "9d"]
    bought = play([*dealt(box, DEALER_AK), "sixth"])
    assert bought.is_chance() and bought.draws == ("sixth",)
    assert [(b.spot, b.stake) for b in bought.bets] == [("ante", ANTE), ("sixth", ANTE)]
    assert dict(bought.accounts()) == {"seat 0": -2 * ANTE, "table": ANTE, "house": ANTE}
    assert bought.view(0)["fees"] == ANTE and bought.view(0)["on_table"] == ANTE
    six = bought.apply("9h").state
    assert isinstance(six, RussianState)
    assert six.boxes[0] == (*box, "9h") and six.legal_actions() == (Fold(), Raise())
    assert six.view(0)["hand"] == "flush" and six.view(0)["combinations"] == ["flush", "pair"]
    done = six.apply("raise").state
    assert isinstance(done, RussianState)
    # a flush (Ah Kh 9h 7h 2h) and a pair of nines (9d new to it): 5 + 1 on the bet, the
    # ante pushing
    assert paid(done) == {"ante": ANTE, "sixth": 0, "raise": 2 * ANTE * 7}
    assert results(done)["sixth"] == "fee, the sixth card's price"
    assert results(done)["raise"] == "win, flush 5:1 and pair 1:1"
    assert done.returns() == (-4 * ANTE + ANTE + 14 * ANTE,)
    assert dict(done.accounts()) == {"seat 0": 11 * ANTE, "table": 0, "house": -11 * ANTE}


def test_six_cards_play_their_best_five() -> None:
    box = ["Ac", "Qd", "Jh", "9s", "8c"]
    assert rp.bet_return(box, DEALER_AK) == -3  # A-Q-J-9-8 loses to A-K-4-3-2
    state = play([*dealt(box, DEALER_AK), "sixth", "Qh", "raise"])
    assert rp.bet_return([*box, "Qh"], DEALER_AK) == 2
    # a pair of queens wins: the bet 1:1, the ante pushing, the sixth card's price kept
    assert state.returns() == (-ANTE + 2 * ANTE,)
    folded = play([*dealt(box, DEALER_AK), "sixth", "2c", "fold"])
    assert paid(folded) == {"ante": 0, "sixth": 0} and folded.returns() == (-2 * ANTE,)


@pytest.mark.parametrize(("count", "returned"), [
    (1, 1000),    # 5d 9h Js Kh Ah: A-K 1:1 -> bet +2,000, price -1,000 (the ante pushes)
    (2, 3000),    # 9h Js Kh Ah As: a pair and A-K (Kh new), 2:1 -> +4,000 -1,000
    (3, 7000),    # Js Kh Ah As Ac: three aces and A-K, 4:1 -> +8,000 -1,000
    (4, 7000),    # Kh Ah As Ac 7d: as three
    (5, 13000)])  # Ah As Ac 7d 7c: a full house 7:1 -> +14,000 -1,000
def test_an_exchange_costs_one_ante_whatever_the_number(count: int, returned: int) -> None:
    box = ["2c", "5d", "9h", "Js", "Kh"]
    new = ["Ah", "As", "Ac", "7d", "7c"][:count]
    exchanged = play([*dealt(box, DEALER_AK), "exchange " + " ".join(box[:count])])
    assert exchanged.bets[-1].spot == "exchange" and exchanged.bets[-1].stake == ANTE
    assert dict(exchanged.accounts()) == {"seat 0": -2 * ANTE, "table": ANTE, "house": ANTE}
    assert exchanged.view(None)["exchanged"] == [count]
    assert exchanged.view(None)["draws"] == ["exchange"]
    state = play([m.action.text() for m in exchanged.history] + new)
    assert sorted(state.boxes[0]) == sorted([*box[count:], *new])
    assert state.discards[0] == tuple(box[:count])
    assert state.legal_actions() == (Fold(), Raise())
    final = state.apply("raise").state
    assert isinstance(final, RussianState) and final.is_terminal()
    price = next(s for s in final.settlements if s.spot == "exchange")
    assert (price.stake, price.paid, price.result) == (ANTE, 0, "fee, the exchange's price")
    assert final.returns() == (returned,)


def test_the_legal_actions_offer_the_sixth_card_and_every_exchange() -> None:
    state = play(dealt(["2c", "5d", "9h", "Js", "Kh"], DEALER_AK))
    actions = state.legal_actions()
    assert actions[:3] == (Fold(), Raise(), Sixth()) and len(actions) == 3 + 31
    assert len({frozenset(a.cards) for a in actions[3:] if isinstance(a, Exchange)}) == 31


def test_exchange_least_two_refuses_one_card(tmp_path: Path) -> None:
    engine = engine_from(tmp_path, ("exchange_least = 1", "exchange_least = 2"))
    state = play(dealt(["2c", "5d", "9h", "Js", "Kh"], DEALER_AK), engine)
    assert len(state.legal_actions()) == 3 + 26  # no exchange of one card offered
    before = snapshot(state, 1)
    with pytest.raises(IllegalMove, match="a box exchanges 2 to 5 cards, not 1"):
        state.apply("exchange 2c")
    assert snapshot(state, 1) == before
    two = state.apply("exchange 2c 5d").state
    assert isinstance(two, RussianState) and two.bets[-1].stake == ANTE
    with pytest.raises(ValueError, match="2 to 5 cards, not 1"):
        engine.rules.fee(1, ANTE)


def test_exchange_least_two_refuses_six_cards_in_its_own_words(tmp_path: Path) -> None:
    engine = engine_from(tmp_path, ("exchange_least = 1", "exchange_least = 2"))
    state = play(dealt(["2c", "5d", "9h", "Js", "Kh"], DEALER_AK), engine)
    with pytest.raises(IllegalMove, match="a box exchanges 2 to 5 cards, not 6"):
        state.apply("exchange 2c 5d 9h Js Kh As")


def test_a_box_draws_once() -> None:
    box = ["2c", "5d", "9h", "Js", "Kh"]
    exchanged = play([*dealt(box, DEALER_AK), "exchange 2c", "Ah"])
    sixth = play([*dealt(box, DEALER_AK), "sixth", "Ah"])
    for state, move in [(exchanged, "exchange 5d"), (exchanged, "sixth"),
                        (sixth, "sixth"), (sixth, "exchange 5d")]:
        before = snapshot(state, 1)
        with pytest.raises(IllegalMove, match="seat 0 has drawn; a box draws once"):
            state.apply(move)
        assert snapshot(state, 1) == before


def test_no_sixth_card_where_the_rules_sell_none() -> None:
    engine = RussianEngine(rules=replace(RULES, sixth_card=False))
    state = play(dealt(["2c", "5d", "9h", "Js", "Kh"], DEALER_AK), engine)
    assert Sixth() not in state.legal_actions() and len(state.legal_actions()) == 2 + 31
    with pytest.raises(IllegalMove, match="these rules sell no sixth card"):
        state.apply("sixth")


# -- the bought game -----------------------------------------------------------------------
def test_a_bought_game_puts_away_the_highest_card_for_the_next() -> None:
    answering = play([*dealt(TRIPS, LOW), "raise"])
    assert answering.to_move() == 0 and answering.view(0)["dealer"] == LOW
    bought = answering.apply("buy").state
    assert isinstance(bought, RussianState) and bought.is_chance()
    assert bought.first_dealer == tuple(LOW) and bought.put_away == ("Qc",)
    assert bought.dealer == ("Jd", "9c", "4h", "3c")
    assert [(b.spot, b.stake) for b in bought.bets] == [("ante", ANTE), ("raise", 2 * ANTE),
                                                        ("buy", ANTE)]
    assert dict(bought.accounts()) == {"seat 0": -4 * ANTE, "table": 3 * ANTE, "house": ANTE}
    state = bought.apply("Jh").state
    assert isinstance(state, RussianState) and state.is_terminal()
    assert state.dealer == ("Jd", "9c", "4h", "3c", "Jh")
    # the new hand (a pair of jacks) qualifies; three sevens win: the bet 3:1, the ante
    # pushing
    assert paid(state) == {"ante": ANTE, "raise": 8 * ANTE, "buy": 0}
    assert results(state)["buy"] == "fee, the dealer's game's price"
    assert state.returns() == (5 * ANTE,)
    assert state.view(0)["dealer_hand"] == "pair" and state.view(0)["dealer_first"] == LOW


def test_the_highest_card_is_the_highest_rank_wherever_it_lies() -> None:
    dealer = ["Ac", "Qd", "Jh", "9s", "8c"]  # ace high, the ace first, not the up card
    state = play([*dealt(["7c", "7d", "7h", "9d", "2d"], dealer), "raise", "buy"])
    assert state.put_away == ("Ac",) and state.dealer == ("Qd", "Jh", "9s", "8c")
    state = play([m.action.text() for m in state.history] + ["Td"])
    # Q-J-T-9-8, a straight, beats three sevens: ante, bet and the price lost
    assert state.returns() == (-4 * ANTE,)


@pytest.mark.parametrize(("box", "card", "returned", "ante", "bet"), [
    (["Ah", "Kd", "8s", "6s", "2d"], "9h", -4000, 0, 0),          # nines beat A-K
    (["9s", "9d", "Js", "4s", "3d"], "9h", -1000, 1000, 2000),    # 9-9-J-4-3 both: a push
    (TRIPS, "2s", 0, 2000, 2000)])                                # J-9-4-3-2 does not qualify
def test_the_bought_game_lost_tied_or_still_not_qualifying(box: list[str], card: str,
                                                           returned: int, ante: int,
                                                           bet: int) -> None:
    state = play([*dealt(box, LOW), "raise", "buy", card])
    assert state.is_terminal()
    assert paid(state) == {"ante": ante, "raise": bet, "buy": 0}
    assert state.returns() == (returned,)


def test_a_card_of_the_rank_put_away_is_drawn_again() -> None:
    state = play([*dealt(TRIPS, LOW), "raise", "buy", "Qh"])
    assert state.is_chance() and state.put_away == ("Qc", "Qh") and len(state.dealer) == 4
    assert "Qh" not in state.deck and state.view(None)["put_away"] == ["Qc", "Qh"]
    state = play([m.action.text() for m in state.history] + ["Qd", "Qs", "Jh"])
    assert state.put_away == ("Qc", "Qh", "Qd", "Qs")
    assert state.dealer == ("Jd", "9c", "4h", "3c", "Jh") and state.returns() == (5 * ANTE,)


def test_redraw_same_rank_false_keeps_the_card(tmp_path: Path) -> None:
    engine = engine_from(tmp_path, ("redraw_same_rank = true", "redraw_same_rank = false"))
    state = play([*dealt(TRIPS, LOW), "raise", "buy", "Qh"], engine)
    assert state.is_terminal() and state.put_away == ("Qc",)
    assert state.dealer == ("Jd", "9c", "4h", "3c", "Qh")
    # Q-J-9-4-3 does not qualify: the ante 1:1, the bet back, the price kept
    assert paid(state) == {"ante": 2 * ANTE, "raise": 2 * ANTE, "buy": 0}
    assert state.returns() == (0,)


def test_two_boxes_one_buying_one_taking() -> None:
    other = ["2s", "2h", "5d", "6d", "8s"]
    moves = ["bet ante 1000", "done", "bet ante 1000", "done", *TRIPS, *other, *LOW,
             "raise", "raise"]
    state = play([*moves, "buy"], seats=2)
    assert state.to_move() == 1 and not state.first_dealer and state.buys == ("buy", None)
    state = play([*moves, "buy", "take", "Jh"], seats=2)
    assert state.is_terminal()
    # seat 0 against J-J: three sevens win the bet 3:1 (the ante pushes); seat 1 on the
    # first hand: the ante 1:1
    assert state.returns() == (5 * ANTE, ANTE)
    seat1 = {s.spot: (s.paid, s.result) for s in state.settlements if s.seat == 1}
    assert seat1 == {"ante": (2 * ANTE, "win, the dealer does not qualify"),
                     "raise": (2 * ANTE, "push, the dealer does not qualify")}
    # the other way round: the taker settled on the first hand, the buyer on the new
    swapped = play(["bet ante 1000", "done", "bet ante 1000", "done", *other, *TRIPS, *LOW,
                    "raise", "raise", "take", "buy", "Jh"], seats=2)
    assert swapped.returns() == (ANTE, 5 * ANTE)


def test_no_game_is_bought_where_the_rules_say_so(tmp_path: Path) -> None:
    engine = engine_from(tmp_path, ("allowed = true", "allowed = false"))
    state = play([*dealt(TRIPS, LOW), "raise"], engine)
    assert state.is_terminal() and state.returns() == (ANTE,) and state.buys == (None,)
    with pytest.raises(IllegalMove, match="the round is over"):
        state.apply("buy")


def test_no_game_is_bought_from_a_qualifying_dealer_or_by_a_box_that_folded() -> None:
    qualifying = play([*dealt(TRIPS, DEALER_AK), "raise"])
    assert qualifying.is_terminal() and qualifying.returns() == (6 * ANTE,)
    state = play(["bet ante 1000", "done", "bet ante 1000", "done", *TRIPS,
                  "2s", "2h", "5d", "6d", "8s", *LOW, "fold", "raise"], seats=2)
    assert state.to_move() == 1 and state.legal_actions() == (TakeAnte(), BuyGame())
    with pytest.raises(IllegalMove, match="not seat 0's turn"):
        state.apply("buy", seat=0)
    state = play([m.action.text() for m in state.history] + ["take"], seats=2)
    assert state.is_terminal() and state.buys == (None, "take")
    assert state.returns() == (-ANTE, ANTE)


def test_a_seat_without_a_box_does_not_stop_the_others_buying() -> None:
    state = play(["bet ante 1000", "done", "done", *TRIPS, *LOW, "raise"], seats=2)
    assert state.to_move() == 0 and state.legal_actions() == (TakeAnte(), BuyGame())


# -- refusals ------------------------------------------------------------------------------
def test_illegal_moves_are_refused_and_change_nothing() -> None:
    box = ["2c", "5d", "9h", "Js", "Kh"]
    cases: list[tuple[RussianState, Action | str, str, int | None]] = []
    betting = play(["bet ante 1000"])
    cases += [(betting, "sixth", "a box may buy a sixth card once its cards are dealt", None),
              (betting, "buy", "a box may buy when the dealer does not qualify", None),
              (betting, "raise", "once its cards are dealt", None)]
    dealing = play(["bet ante 1000", "done", "2c"])
    cases += [(dealing, Sixth(), "chance's turn", None), (dealing, "buy", "cannot come up", None)]
    ready = play(dealt(box, LOW))
    cases += [(ready, "buy", "a box may buy when the dealer does not qualify, once every box "
                             "has bet or folded", None),
              (ready, "take", "a box may take when the dealer does not qualify", None),
              (ready, "exchange Qs", "Qs is not in seat 0's hand", None),
              (ready, "exchange Qc", "Qc is not in seat 0's hand", None),  # the dealer's
              (ready, "exchange 2c 2c", "2c is named twice", None),
              (ready, "exchange", "name the cards", None),
              (ready, "exchange 1x", "is not a card", None),
              (ready, "double", "'double' is not an action here: 'bet ante CENTS', 'done', "
                                "'exchange CARDS', 'sixth', 'raise', 'fold', 'buy' or 'take'",
               None),
              (ready, "sixth 2", "not an action here", None),
              (ready, "bet ante 100", "no more bets", None),
              (ready, "raise", "not seat 1's turn", 1)]
    sixth = play([*dealt(box, LOW), "sixth"])
    cases += [(sixth, "sixth", "cannot come up", None), (sixth, Raise(), "chance's turn", None)]
    answering = play([*dealt(box, LOW), "raise"])
    refusal = "the dealer does not qualify: 'take' the ante paid 1:1 or 'buy' the dealer a game"
    cases += [(answering, move, refusal, None)
              for move in ["raise", "fold", "sixth", "exchange 2c", "bet ante 100", "done"]]
    bought = answering.apply("buy").state
    assert isinstance(bought, RussianState)
    cases += [(bought, "take", "cannot come up", None), (bought, "Qc", "cannot come up", None),
              (bought, "2c", "cannot come up", None)]
    two = play(["bet ante 1000", "done", "bet ante 1000", "done", *box, *TRIPS[:4], "8d",
                *LOW, "raise"], seats=2)
    cases += [(two, "buy", "a box may buy when the dealer does not qualify", None),
              (two, "take", "once every box has bet or folded", None),
              (two, "raise", "not seat 0's turn", 0)]
    two_answering = play([m.action.text() for m in two.history] + ["raise"], seats=2)
    cases += [(two_answering, "take", "not seat 1's turn", 1)]
    over = play([*dealt(box, DEALER_AK), "fold"])
    cases += [(over, "buy", "the round is over", None), (over, "sixth", "the round is over", None)]
    for state, move, message, seat in cases:
        before = snapshot(state, state.seats)
        with pytest.raises(IllegalMove, match=re.escape(message)):
            state.apply(move, seat=seat)
        assert snapshot(state, state.seats) == before, move
    with pytest.raises(IllegalMove, match="2c is named twice"):
        ready.apply(Exchange(("2c", "2c")))


def test_the_limits_hold_on_the_ante_and_the_prices_follow_it() -> None:
    assert play(["bet ante 25000"]).bets[0].stake == RULES.limits[1]
    with pytest.raises(IllegalMove, match=r"under the table minimum 1\.00"):
        play([]).apply("bet ante 50")
    # an ante of 1,000 and 500: every price and the bet read the whole ante, 1,500
    state = play(["bet ante 1000", "bet ante 500", "done", *TRIPS, *DEALER_AK, "sixth", "Qs",
                  "raise"])
    assert [(b.spot, b.stake) for b in state.bets] == [("ante", 1000), ("ante", 500),
                                                       ("sixth", 1500), ("raise", 3000)]
    assert state.returns() == (-1500 + 3 * 3000,)  # three sevens 3:1 on the bet; the ante back


# -- what a seat sees ----------------------------------------------------------------------
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


def shown(view: dict[str, Any]) -> set[str]:
    return set(CARD.findall(json.dumps(view)))


def test_the_dealer_s_hole_cards_are_turned_once_every_box_decided() -> None:
    box0, box1 = TRIPS, ["2s", "2h", "5d", "6d", "8s"]
    state: State = play(["bet ante 1000", "done", "bet ante 2000", "done", *box0, *box1,
                         *LOW], seats=2)
    for step in ["raise", None]:
        for seat in (0, 1, None):
            view = state.view(seat)
            assert view["dealer"] == [] and view["dealer_up"] == "3c"
            assert view["dealer_qualifies"] is None
            assert set(LOW[:4]) <= state.hidden_from(seat) and "3c" not in state.hidden_from(seat)
            assert not shown(view) & state.hidden_from(seat)
        if step:
            state = state.apply(step).state  # seat 0 decided, seat 1 still to
    assert state.view(0)["cards"] == box0 and set(box1) <= state.hidden_from(0)
    assert state.view(0)["combinations"] == ["three_of_a_kind"]
    assert state.view(1)["combinations"] == ["pair"] and "combinations" not in state.view(None)
    state = state.apply("raise").state  # every box decided: shown, the boxes to answer
    for seat in (0, 1, None):
        view = state.view(seat)
        assert view["dealer"] == LOW and view["dealer_first"] == LOW
        assert view["dealer_qualifies"] is False and view["dealer_hand"] == "high_card"
        assert not set(LOW) & state.hidden_from(seat)
        assert not shown(view) & state.hidden_from(seat)
    assert set(box1) <= state.hidden_from(0) and not shown(state.view(0)) & set(box1)
    assert set(box0) <= state.hidden_from(1) and set(box0 + box1) <= state.hidden_from(None)
    state = state.apply("buy").state.apply("take").state
    view = state.view(None)
    assert view["dealer"] == ["Jd", "9c", "4h", "3c"] and view["dealer_first"] == LOW
    assert view["put_away"] == ["Qc"] and view["dealer_hand"] is None
    assert view["buys"] == ["buy", "take"] and view["fees"] == ANTE
    assert view["on_table"] == 3 * ANTE + 6 * ANTE
    state = state.apply("Jh").state
    assert state.is_terminal()
    assert state.view(None)["boxes"] == {"0": box0, "1": box1}
    assert not state.hidden_from(0) & {*box0, *box1, *LOW, "Jh"}
    assert state.view(0)["combinations"] == ["three_of_a_kind"]
    assert state.view(1)["settlements"][0]["result"] == "win, the dealer does not qualify"


def test_a_qualifying_dealer_is_shown_at_the_end_alone() -> None:
    state: State = play(["bet ante 1000", "done", "bet ante 1000", "done", *TRIPS,
                         "2c", "2h", "5d", "6d", "8s", *DEALER_AK, "sixth"], seats=2)
    assert state.view(None)["draws"] == ["sixth", None]
    state = state.apply("Qs").state
    assert "Qs" in state.hidden_from(1) and "Qs" not in shown(state.view(1))
    assert state.view(0)["combinations"] == ["three_of_a_kind"]
    state = state.apply("raise").state
    assert set(DEALER_AK[:4]) <= state.hidden_from(1) and state.view(1)["dealer"] == []
    state = state.apply("fold").state
    assert state.is_terminal() and state.view(1)["dealer"] == DEALER_AK
    assert state.view(1)["dealer_qualifies"] is True
    # seat 0: price 1,000, three sevens win: bet 3:1 on 2,000, the ante back; seat 1 folded
    assert state.returns() == (-ANTE + 6 * ANTE, -ANTE)


def test_a_stacked_deck_deals_through_the_chance_weights() -> None:
    rng = StackedDeck(" ".join(TRIPS), " ".join(LOW), "Qh Jh")
    state: State = RussianEngine().new_state(Seats(1))
    for move in ["bet ante 1000", "done", "raise", "buy"]:
        while state.is_chance():
            state = state.apply(sample_chance(state, rng)).state
        state = state.apply(move).state
    while state.is_chance():
        state = state.apply(sample_chance(state, rng)).state
    assert isinstance(state, RussianState) and state.is_terminal() and not rng.cards
    assert state.put_away == ("Qc", "Qh") and state.returns() == (5 * ANTE,)


# -- the basic strategy --------------------------------------------------------------------
@pytest.mark.parametrize(("hand", "draw", "action"), [
    ("2c 2d 7h 9s Kd", None, "raise"),          # rule 1: a pair
    ("2c 2d 7d 9d Kd", None, "raise"),          # a pair beside four diamonds
    ("5h 6h 7h 8h 9c", None, "raise"),          # a straight holding four hearts
    ("Ah Kh 7h 2h 9d", "sixth", "sixth"),       # rule 2: four to a flush
    ("5c 6d 7h 8s Kd", "sixth", "sixth"),       # four in a row, open at both ends
    ("2h 3d 4c 5s 9c", "sixth", "sixth"),       # the lowest such
    ("Th Jd Qc Ks 5c", "sixth", "sixth"),       # the highest such
    ("Ah 2d 3c 4s 9c", None, "fold"),           # A-2-3-4: the ace high only
    ("Jh Qd Kc As 5c", None, "raise"),          # J-Q-K-A is not open; A-K-Q-J-5 bets
    ("5h 6d 8c 9s Kc", None, "fold"),           # a gutshot
    ("Ah Kh 7h 2d 9d", None, "fold"),           # three to a flush; A-K-9 below A-K-J
    ("Ac Kd Jh 8s 3c", None, "raise"),          # rule 4: A-K-J-8-3 itself
    ("Ac Kd Jh 8s 2c", None, "fold"),
    ("Ac Kd Qh 3s 2c", None, "raise"),
    ("Ac Qd Jh 9s 7c", None, "fold")])
def test_the_basic_strategy_on_chosen_hands(hand: str, draw: str | None, action: str) -> None:
    cards = hand.split()
    assert rp.draw_choice(cards) == draw
    assert rp.decision(cards) == action
    if draw is None:
        assert rp.bets(cards) is (action == "raise")


def test_where_no_sixth_card_is_sold_the_odd_card_is_exchanged() -> None:
    none = replace(RULES, sixth_card=False)
    assert rp.draw_choice(hand_of("Ah Kh 7h 2h 9d"), none) == "exchange 9d"
    assert rp.draw_choice(hand_of("5c 6d 7h 8s Kd"), none) == "exchange Kd"
    assert rp.draw_choice(hand_of("5h 6h 7h 8c Kh"), none) == "exchange 8c"  # the flush first
    assert rp.decision(hand_of("Th Jd Qc Ks 5c"), rules=none) == "exchange 5c"
    assert rp.draw_choice(hand_of("Ac Ad 7h 9s 2c"), none) is None
    # nor one card where an exchange takes two: no draw, rule 4 alone
    neither = replace(none, exchange_least=2)
    assert rp.draw_choice(hand_of("Ah Kh 7h 2h 9d"), neither) is None
    assert rp.decision(hand_of("Ah Kh 7h 2h 9d"), rules=neither) == "fold"
    with pytest.raises(ValueError, match="5 different cards"):
        rp.draw_choice(hand_of("Ah Kh 7h 2h 9d 9s"))


@pytest.mark.parametrize(("hand", "action"), [
    ("Ah Kh 7h 2h 9d 9s", "raise"), ("Ah Kh 7h 2h 9d 3c", "fold"),
    ("Ah Kh 7h 2h 9d Jc", "raise"), ("Ah Kh 7h 2h 9d 5h", "raise"),
    ("5c 6d 7h 8s Kd 2c", "fold"), ("5c 6d 7h 8s Kd 4c", "raise"),
    ("Ah Kh 7h 2h Qd", "raise"), ("Ah Kh 7h 2h 5d", "fold")])
def test_after_the_draw_rule_four_alone_decides(hand: str, action: str) -> None:
    assert rp.decision(hand.split(), drawn=True) == action


@pytest.mark.parametrize(("hand", "buys"), [
    ("7c 7d 7h 2s 9c", True), ("Kc Kd 7h 7s 2c", False), ("Ac Ad 7h 9s 2c", False),
    ("5c 6d 7h 8s 9d", True), ("Ah Kd 8s 6s 2d", False), ("Ac Kd Jh 8s 2c 2d", False),
    ("Ac Kd Jh 2s 2c 2d", True)])
def test_buys_game_with_three_of_a_kind_or_better(hand: str, buys: bool) -> None:
    assert rp.buys_game(hand.split()) is buys


@pytest.mark.parametrize(("box", "dealer", "returned", "with_ante"), [
    ("Ac Kd 9h 4s 2c", "Qc Jd 9d 4h 3c", 1, 1),         # the dealer does not qualify
    ("Qs Jh 8d 4s 2c", "Qc Jd 9d 4h 3c", 1, 1),         # even below the dealer's cards
    ("2s 2d 9h 7s 4c", "Kh Ks 9d 4h 3d", -3, -3),       # the dealer higher
    ("Ac Kd 9h 4s 2c", "Ah Ks 9d 4h 2d", 0, 0),         # a tie
    ("5d 5h Qs Jc 9c", "Ad Kc 4d 3c 2s", 2, 3),         # a pair 1:1 (on 2 antes)
    ("Kh Kd Ac 8s 5d", "Ad Kc 4d 3c 2s", 4, 5),         # a pair and A-K
    ("5c 6d 7h 8s 9d 9c", "Ah Ks 9s 4h 2d", 16, 17),    # two straights, 8:1
    ("Ah Kh Qh Jh Th 9h", "Ad Kc 4d 3c 2s", 300, 301)])  # royal and straight flush, 150:1
def test_bet_return_on_chosen_deals(box: str, dealer: str, returned: int, with_ante: int,
                                    ante_paid: RussianRules) -> None:
    # by default a win's ante pushes; with ante_on_win it adds 1
    assert rp.bet_return(box.split(), dealer.split()) == returned
    assert rp.bet_return(box.split(), dealer.split(), ante_paid) == with_ante


def test_bet_return_refuses_shared_cards() -> None:
    with pytest.raises(ValueError, match="different cards"):
        rp.bet_return(hand_of("Ad Kd 9h 4s 2c"), DEALER_AK)
    with pytest.raises(ValueError, match="5 different cards"):
        rp.bet_return(hand_of("Ac Kd 9h 4s 2c"), hand_of("Ah Ks 9d 4h"))


# -- random play ---------------------------------------------------------------------------
VARIANTS = [RULES, replace(RULES, exchange_least=2),
            replace(RULES, redraw_same_rank=False), replace(RULES, buy_game=False),
            replace(RULES, sixth_card=False), replace(RULES, most_combinations=1)]


def expected(state: RussianState, seat: int, rules: RussianRules) -> int:
    """A seat's return worked out from its cards and choices by the hand module."""
    ante = state._stake(seat, "ante")
    prices = ante * (rules.draw_price * bool(state.draws[seat])
                     + rules.buy_price * (state.buys[seat] == "buy"))
    if state.decisions[seat] == "fold":
        return -ante - prices
    dealer = state.dealer if state.buys[seat] == "buy" else (state.first_dealer or state.dealer)
    return rp.bet_return(state.boxes[seat], dealer, rules) * ante - prices


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 4), st.sampled_from(range(len(VARIANTS) + 1)))
def test_random_legal_play_conserves_money_and_pays_what_the_hands_say(
        ante_paid: RussianRules, seed: int, seats: int, variant: int) -> None:
    rules = [*VARIANTS, ante_paid][variant]  # the last: ante_on_win from a rule file
    engine = RussianEngine(rules=rules)
    rng = SeededRng(seed)
    choose = random_policy(rng)
    state: State = engine.new_state(Seats(seats))
    while not state.is_terminal():
        move = sample_chance(state, rng) if state.is_chance() else choose(state)
        step = state.apply(move)
        state = step.state
        accounts = state.accounts()
        assert sum(accounts.values()) == 0
        assert tuple(accounts[f"seat {i}"] for i in range(seats)) == state.returns()
        for seat in [*range(seats), None]:
            hidden = state.hidden_from(seat)
            assert not shown(state.view(seat)) & hidden
            told = " ".join(e.text for e in state.events_for(step.events, seat))
            assert not set(CARD.findall(told)) & hidden, told
    assert isinstance(state, RussianState)
    assert state.accounts()["table"] == 0
    assert all(s.paid == 0 for s in state.settlements if s.spot in ("exchange", "sixth", "buy"))
    for seat in range(seats):
        mine = [s for s in state.settlements if s.seat == seat]
        assert state.returns()[seat] == sum(s.paid - s.stake for s in mine)
        in_play = any(b.seat == seat for b in state.bets)
        assert state.returns()[seat] == (expected(state, seat, rules) if in_play else 0)
    first = state.first_dealer or state.dealer
    if rules.buy_game and len(state._in_play()) == seats and not rp.qualifies(first):
        # every box that bet answered a dealer who did not qualify; no other did
        assert all((state.buys[s] is not None) == (state.decisions[s] == "raise")
                   for s in range(seats))
    if state.first_dealer:
        assert state.put_away[0] == max(state.first_dealer, key=lambda c: "23456789TJQKA".index(
            c[0]))
        assert all(c[0] == state.put_away[0][0] for c in state.put_away)
    cards = [*state.deck, *(c for b in state.boxes for c in b), *state.dealer,
             *(c for d in state.discards for c in d), *state.put_away]
    assert sorted(cards) == sorted(DECK)
    again = replay(engine, Seats(seats), state.history)
    assert snapshot(again, seats) == snapshot(state, seats)
