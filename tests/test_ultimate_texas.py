"""Ultimate Texas Hold'em (standard rules; RAY 2016 1.4.1.2 names it): the simple
strategy as stated, what each bet pays on each kind of outcome through the engine, the
refusals, the engine's returns against the game's own, and the exact house edge of the
simple strategy with every deal counted, checked board by board against a hand-by-hand
count and against the published figures, with a simulation inside its 99 % interval."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pelisali.analysis.banked_simulate import simulate_ultimate
from pelisali.cards import DECK
from pelisali.engine import IllegalMove, Seats
from pelisali.engine.ultimate import UltimateEngine, UltimateState
from pelisali.games import ultimate_texas as uth
from pelisali.poker.evaluate import high_values
from pelisali.rules.banked import load_ultimate
from pelisali.rules.loader import RuleDataError

RULES = load_ultimate()


def play(moves: list[str], engine: UltimateEngine | None = None) -> UltimateState:
    state = (engine or UltimateEngine()).new_state(Seats(1))
    for move in moves:
        state = state.apply(move).state
    return state


def paid(state: UltimateState) -> dict[str, int]:
    return {s.spot: s.paid for s in state.settlements}


# -- rule data -----------------------------------------------------------------------------
def test_the_rule_data_is_marked_standard_and_holds_the_usual_tables() -> None:
    assert RULES.standard.startswith("standard rules; RAY's text")
    assert "1.4.1.2" in RULES.sections["game"]
    assert RULES.blind == {"royal_flush": 500, "straight_flush": 50, "four_of_a_kind": 10,
                           "full_house": 3, "flush": Fraction(3, 2), "straight": 1}
    assert RULES.trips == {"royal_flush": 50, "straight_flush": 40, "four_of_a_kind": 30,
                           "full_house": 8, "flush": 6, "straight": 5, "three_of_a_kind": 3}
    assert RULES.preflop == (3, 4) and not RULES.fold_loses_trips
    with pytest.raises(RuleDataError, match="no Trips table '1-2-3'"):
        load_ultimate(trips="1-2-3")
    with pytest.raises(IllegalMove, match="no setting 'decks'"):
        UltimateEngine.from_settings({"decks": "2"})


# -- the simple strategy, as stated --------------------------------------------------------
@pytest.mark.parametrize(("hole", "raises"), [
    (["3s", "3d"], True), (["2s", "2d"], False), (["As", "2d"], True),
    (["Ks", "5d"], True), (["Ks", "4d"], False), (["Ks", "2s"], True),
    (["Qs", "8d"], True), (["Qs", "7d"], False), (["Qs", "6s"], True), (["Qs", "5s"], False),
    (["Js", "Td"], True), (["Js", "9d"], False), (["Js", "8s"], True), (["Js", "7s"], False),
    (["Ts", "9s"], False), (["9d", "Ks"], True)])
def test_the_preflop_rule(hole: list[str], raises: bool) -> None:
    assert uth.preflop_raise(hole) is raises


@pytest.mark.parametrize(("hole", "flop", "raises"), [
    (["9h", "4d"], ["9c", "Kd", "2s"], True),    # a hole card pairs the flop
    (["2h", "2d"], ["9c", "Kd", "5s"], False),   # pocket deuces alone
    (["3h", "3d"], ["9c", "Kd", "5s"], True),    # any other pocket pair
    (["7h", "2d"], ["7c", "7d", "5s"], True),    # trips with a hole card
    (["Ah", "Qd"], ["7c", "7d", "7s"], False),   # the flop's own trips
    (["Ah", "Qd"], ["7c", "7d", "5s"], False),   # the flop's own pair
    (["Th", "3d"], ["2h", "8h", "Kh"], True),    # four to a flush with a hidden ten
    (["9h", "3d"], ["2h", "8h", "Kh"], False),   # a hidden nine is not ten or better
    (["Th", "3h"], ["2h", "8h", "Kd"], True),    # both hole cards in it, the ten high
    (["9h", "3h"], ["2h", "8h", "Kd"], False),
    (["Qs", "Jd"], ["Th", "9c", "2d"], False),   # an open-ended straight draw does not
    (["Qs", "Td"], ["Qh", "Tc", "2d"], True)])
def test_the_flop_rule(hole: list[str], flop: list[str], raises: bool) -> None:
    assert uth.flop_raise(hole, flop) is raises


def test_the_river_rule_counts_the_dealer_s_outs() -> None:
    board = ["Kc", "Kd", "8s", "7h", "2c"]
    # beaten by any 8, 7, 2 (two pair) or king (trips): 11 outs, so the player plays
    assert uth.dealer_outs(["Ah", "3d"], board) == 11 and uth.river_bet(["Ah", "3d"], board)
    # the board plays: every pairing card and every card above a six or making a straight
    assert uth.dealer_outs(["4h", "3d"], ["Kc", "Qd", "9s", "8h", "6c"]) == 31
    assert not uth.river_bet(["4h", "3d"], ["Kc", "Qd", "9s", "8h", "6c"])
    assert uth.river_bet(["8h", "3d"], board)  # a hidden pair: two pair, eights
    # one hidden pair under the board's two pair is no better than the board
    assert not uth.river_bet(["3h", "3d"], ["Kc", "Kd", "9s", "9h", "2c"]) or \
        uth.dealer_outs(["3h", "3d"], ["Kc", "Kd", "9s", "9h", "2c"]) < 21


# -- what each bet pays through the engine -------------------------------------------------
def test_a_4x_play_beating_a_qualifying_dealer_pays_ante_and_play_the_blind_pushing() -> None:
    state = play(["bet ante 1000", "done", "As", "Ad", "Kc", "Kd",
                  "play 4", "2h", "7s", "9d", "4h", "3c"])
    assert paid(state) == {"ante": 2000, "blind": 1000, "play": 8000}
    assert state.returns() == (5000,)


def test_a_dealer_without_a_pair_pushes_the_ante() -> None:
    state = play(["bet ante 1000", "done", "As", "Ad", "Kc", "Qd",
                  "play 4", "2h", "7s", "9d", "4h", "3c"])
    assert paid(state) == {"ante": 1000, "blind": 1000, "play": 8000}
    assert state.settlements[0].result == "push, the dealer does not qualify"


def test_a_losing_hand_loses_ante_blind_and_play_but_trips_pays() -> None:
    state = play(["bet ante 1000", "bet trips 500", "done", "Ks", "Kd", "Ac", "Ad",
                  "play 4", "Ah", "Kh", "7s", "4h", "2c"])
    # player: three kings; dealer: three aces
    assert paid(state) == {"ante": 0, "blind": 0, "trips": 2000, "play": 0}
    assert state.returns() == (-1000 - 1000 - 4000 + 1500,)


def test_the_blind_pays_its_table_and_a_flush_pays_3_to_2_in_whole_cents() -> None:
    moves = ["bet ante 1001", "done", "Ah", "9h", "Kc", "Kd",
             "play 4", "2h", "7h", "Jh", "4s", "3c"]
    state = play(moves)
    blind = next(s for s in state.settlements if s.spot == "blind")
    assert blind.paid == 1001 + 1501 and blind.rounding == Fraction(1, 2)
    assert blind.result == "win, flush 3:2"
    straight = play(["bet ante 1000", "done", "5h", "6d", "Kc", "Kd",
                     "check", "7s", "8c", "9d", "check", "Ah", "2c", "play 1"])
    assert paid(straight) == {"ante": 2000, "blind": 2000, "play": 2000}
    royal = play(["bet ante 100", "bet trips 100", "done", "As", "Ks", "2c", "7d",
                  "play 3", "Qs", "Js", "Ts", "4h", "3c"])
    # the dealer's 2-7 makes no pair with the board: the ante pushes
    assert paid(royal) == {"ante": 100, "blind": 100 * 501, "trips": 100 * 51, "play": 600}


def test_a_tie_pushes_and_a_fold_loses_ante_and_blind_keeping_trips() -> None:
    tie = play(["bet ante 1000", "done", "2s", "3d", "2c", "3h",
                "check", "As", "Ks", "Qd", "check", "Jc", "Th", "play 1"])
    assert paid(tie) == {"ante": 1000, "blind": 1000, "play": 1000}
    fold = play(["bet ante 1000", "bet trips 1000", "done", "2s", "7d", "Ac", "Kh",
                 "check", "9s", "9d", "9h", "check", "4c", "Jh", "fold"])
    assert paid(fold) == {"ante": 0, "blind": 0, "trips": 4000}
    assert fold.returns() == (-2000 + 3000,)


def test_a_hall_whose_fold_loses_trips_sets_it_in_data() -> None:
    engine = UltimateEngine()
    strict = UltimateEngine(rules=type(RULES)(**{**RULES.__dict__, "fold_loses_trips": True}))
    moves = ["bet ante 1000", "bet trips 1000", "done", "2s", "7d", "Ac", "Kh",
             "check", "9s", "9d", "9h", "check", "4c", "Jh", "fold"]
    assert paid(play(moves, engine))["trips"] == 4000
    assert paid(play(moves, strict))["trips"] == 0


def test_refusals_change_nothing() -> None:
    start = play(["bet ante 1000"])
    with pytest.raises(IllegalMove, match="no bet 'blind'"):
        start.apply("bet blind 1000")
    with pytest.raises(IllegalMove, match="positive whole number"):
        start.apply(start.parse_action("bet trips 0"))
    with pytest.raises(IllegalMove, match="bet with an ante"):
        play(["bet trips 500"]).apply("done")
    dealt = play(["bet ante 1000", "done", "As", "Ad", "Kc", "Kd"])
    with pytest.raises(IllegalMove, match="'play 2' is not open before the flop"):
        dealt.apply("play 2")
    with pytest.raises(IllegalMove, match="'fold' is not open before the flop"):
        dealt.apply("fold")
    with pytest.raises(IllegalMove, match="not seat 1's turn"):
        dealt.apply("check", seat=1)
    flop = play(["bet ante 1000", "done", "As", "Ad", "Kc", "Kd", "check",
                 "2h", "7s", "9d"])
    with pytest.raises(IllegalMove, match="'play 4' is not open on the flop"):
        flop.apply("play 4")
    with pytest.raises(IllegalMove, match="cannot come up"):
        play(["bet ante 1000", "done", "As"]).apply("As")
    assert dealt.to_move() == 0 and dealt.legal_actions()[0].text() == "check"


def test_the_dealer_s_cards_stay_hidden_until_the_end() -> None:
    state = play(["bet ante 1000", "done", "As", "Ad", "Kc", "Kd"])
    assert state.view(0)["dealer"] == [] and {"Kc", "Kd"} <= state.hidden_from(0)
    done = play(["bet ante 1000", "done", "As", "Ad", "Kc", "Kd",
                 "play 4", "2h", "7s", "9d", "4h", "3c"])
    assert done.view(0)["dealer"] == ["Kc", "Kd"] and done.view(0)["dealer_hand"] == "pair"


@settings(max_examples=60, deadline=None)
@given(st.permutations(DECK), st.lists(st.sampled_from(["play", "check"]), min_size=3,
                                       max_size=3), st.booleans())
def test_the_engine_pays_what_the_game_s_return_says(deck: list[str], choices: list[str],
                                                     folds: bool) -> None:
    ante = 1000
    state = play(["bet ante 1000", "bet trips 1000", "done", *deck[:4]])
    multiple = 0
    for street, choice in enumerate(choices):
        if street == 1:
            state = state.apply(deck[4]).state.apply(deck[5]).state.apply(deck[6]).state
        if street == 2:
            state = state.apply(deck[7]).state.apply(deck[8]).state
        if state.is_terminal() or state.to_move() != 0:
            continue
        if choice == "play" or (street == 2 and not folds):
            multiple = (4, 2, 1)[street]
            state = state.apply(f"play {multiple}").state
        else:
            state = state.apply("fold" if street == 2 else "check").state
    while not state.is_terminal():  # a box that played early: the rest of the board
        state = state.apply(state.deck[0]).state
    board = list(state.board)
    expected = uth.hand_return(deck[:2], deck[2:4], board, multiple)
    trips = uth.trips_return(int(high_values([[DECK.index(c) for c in (*deck[:2], *board)]])[0]))
    rounding = sum((s.rounding for s in state.settlements), Fraction(0))
    assert state.returns()[0] + rounding == ante * (expected + trips)
    assert sum(state.accounts().values()) == 0


# -- the exact house edge ------------------------------------------------------------------
def by_hand(board: list[str]) -> Fraction:
    """Twenty times the ante's return summed over every player and dealer hand on
    ``board``, hand by hand with the one-hand strategy functions and the showdown's
    return (each hand valued once)."""
    cards = [DECK.index(c) for c in board]
    rest = [c for c in range(52) if c not in cards]
    pairs = list(combinations(rest, 2))
    values = dict(zip(pairs, (int(v) for v in high_values([[*p, *cards] for p in pairs])),
                      strict=True))
    total = Fraction(0)
    for mine in pairs:
        hole = [DECK[c] for c in mine]
        if uth.preflop_raise(hole):
            plays = {4: Fraction(1)}
        else:
            twos = sum(uth.flop_raise(hole, [DECK[c] for c in flop])
                       for flop in combinations(cards, 3))
            late = 1 if uth.river_bet(hole, board) else 0
            plays = {2: Fraction(twos, 10), late: Fraction(10 - twos, 10)}
        for theirs in pairs:
            if set(theirs) & set(mine):
                continue
            total += sum(share * uth.showdown_return(values[mine], values[theirs], multiple,
                                                     RULES)
                         for multiple, share in plays.items() if share)
    return 20 * total


@pytest.mark.parametrize("board", [["Kc", "Kd", "8s", "7h", "2c"],
                                   ["9h", "Th", "Jh", "2h", "2s"]])
def test_the_enumeration_of_a_board_equals_the_hand_by_hand_count(board: list[str]) -> None:
    assert uth.board_returns(board) == by_hand(board)


def test_the_simple_strategy_s_exact_edge_every_deal_counted_and_simulated() -> None:
    found = uth.exact(threads=False)  # one core, as every other test takes
    assert found.deals == 2_598_960 * 1081 * 990 and found.boards == 134_459
    # the seven-card hands, each counted 21 ways: the deck's known counts
    assert {k: v // 21 for k, v in found.categories.items() if v % 21 == 0} == {
        "high_card": 23_294_460, "pair": 58_627_800, "two_pair": 31_433_400,
        "three_of_a_kind": 6_461_620, "straight": 6_180_020, "flush": 4_047_644,
        "full_house": 3_473_184, "four_of_a_kind": 224_848, "straight_flush": 37_260,
        "royal_flush": 4_324}
    # Trips 50-40-30-8-6-5-3: 1.90 % as published
    assert round(float(found.trips_edge) * 100, 2) == 1.90
    # a simpler strategy than the optimal one (published: 2.19 % per ante) costs more
    assert 0.0219 < found.ante_edge < 0.025
    assert 0.0053 < found.element_of_risk < found.ante_edge
    assert sum(found.shares.values()) == 1
    result = simulate_ultimate(3000, seed=7, found=found)
    for row in result.rows:
        assert abs(row.observed_rtp - float(row.exact_rtp)) <= row.half_width, row


def test_the_progressive_s_return_counts_every_five_card_hand() -> None:
    hands = uth._combinations(52, 5)
    values = high_values(hands)
    counted = {name: 0 for name in uth.FIVE_CARD_HANDS}
    for value in values.tolist():
        name = uth.pay_category(int(value))
        if name in counted:
            counted[name] += 1
    assert counted == uth.FIVE_CARD_HANDS
    table = RULES.progressive
    pool = 2_500_000
    fixed = sum(counted[k] * table[k] for k in ("four_of_a_kind", "full_house", "flush",
                                                  "straight", "three_of_a_kind"))
    shares = (counted["royal_flush"] * Fraction(pool * table["pool_percent_royal"], 100)
              + counted["straight_flush"] * Fraction(pool * table["pool_percent_straight_flush"],
                                                     100)) / table["fee"]
    assert uth.progressive_return(pool) == (fixed + shares) / len(hands)
    even = uth.progressive_break_even()
    assert uth.progressive_return(even) >= 1 > uth.progressive_return(even - 1)


# -- the progressive bet in the engine -----------------------------------------------------
@pytest.mark.parametrize(("hole", "flop", "paid_back", "percent"), [
    (["As", "Ks"], ["Qs", "Js", "Ts"], 0, 100),
    (["9h", "8h"], ["7h", "6h", "5h"], 0, 10),
    (["9h", "9c"], ["9d", "9s", "5h"], 30_000, 0),
    (["9h", "9c"], ["9d", "5s", "5h"], 5_000, 0),
    (["Ah", "9h"], ["6h", "4h", "Jh"], 4_000, 0),
    (["9h", "8c"], ["7d", "6s", "5h"], 3_000, 0),
    (["9h", "9c"], ["9d", "6s", "5h"], 900, 0),
    (["9h", "9c"], ["Td", "Ts", "5h"], 0, 0),
])
def test_the_progressive_pays_on_the_two_cards_and_the_flop_even_after_a_fold(
        hole: list[str], flop: list[str], paid_back: int, percent: int) -> None:
    # The turn and river make no difference to it, and the box folds.
    state = play(["bet ante 1000", "bet progressive 100", "done", *hole, "2d", "3c",
                  "check", *flop, "check", "Kd", "Qc", "fold"])
    progressive = next(s for s in state.settlements if s.spot == "progressive")
    assert (progressive.paid, progressive.pool_percent) == (paid_back, percent)
    assert state.returns() == (-2000 - 100 + paid_back,)
    assert state.accounts()["house"] == 2000 + 100 - paid_back


def test_the_progressive_takes_its_fee_once_and_only_with_an_ante() -> None:
    start = play([])
    assert "bet progressive 100" in [a.text() for a in start.legal_actions()]
    with pytest.raises(IllegalMove, match=r"takes its fee, 1\.00, not 5\.00"):
        start.apply("bet progressive 500")
    once = play(["bet ante 1000", "bet progressive 100"])
    with pytest.raises(IllegalMove, match="bet once a round"):
        once.apply("bet progressive 100")
    assert "bet progressive 100" not in [a.text() for a in once.legal_actions()]
    alone = play(["bet progressive 100"])
    with pytest.raises(IllegalMove, match="with an ante"):
        alone.apply("done")
    assert "done" not in [a.text() for a in alone.legal_actions()]
