"""Texas Hold'em Bonus: the rule data, the basic strategy as stated, what every bet pays
through the engine, refusals, and the exact count checked hand by hand."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pelisali.cards import DECK
from pelisali.engine import IllegalMove, Seats, State
from pelisali.engine.holdem_bonus import HoldemBonusEngine, HoldemBonusState
from pelisali.games import holdem_bonus as thb
from pelisali.games.holdem_count import board_classes
from pelisali.poker.evaluate import high_values
from pelisali.rules.holdem_bonus import load_holdem_bonus
from pelisali.rules.loader import RuleDataError

RULES = load_holdem_bonus()


def play(moves: list[str], engine: HoldemBonusEngine | None = None,
         seats: int = 1) -> HoldemBonusState:
    state: State = (engine or HoldemBonusEngine()).new_state(Seats(seats))
    for move in moves:
        state = state.apply(move).state
    assert isinstance(state, HoldemBonusState)
    return state


def paid(state: HoldemBonusState) -> dict[str, int]:
    return {s.spot: s.paid for s in state.settlements}


# -- rule data -----------------------------------------------------------------------------
def test_the_rule_data_is_marked_standard_and_holds_the_usual_tables() -> None:
    assert RULES.standard == ("standard rules; RAY's text for this game is not in the "
                              "rulebook as extracted")
    assert "1.4.1.2" in RULES.sections["game"]
    assert RULES.ante_pays_from == "straight" and not RULES.fold_loses_bonus
    assert RULES.bonus == {"aces_against_aces": 1000, "aces": 30, "ace_king_suited": 25,
                           "ace_queen_or_jack_suited": 20, "ace_king": 15,
                           "kings_queens_or_jacks": 10, "ace_queen_or_jack": 5,
                           "twos_to_tens": 3}
    assert all(len(section) > 10 for section in RULES.sections.values())
    assert load_holdem_bonus(ante="flush").ante_pays_from == "flush"
    with pytest.raises(RuleDataError, match="no ante rule 'pair'; rules: flush, straight"):
        load_holdem_bonus(ante="pair")
    with pytest.raises(RuleDataError, match="no Bonus table '1-2-3'"):
        load_holdem_bonus(bonus="1-2-3")
    with pytest.raises(IllegalMove, match="no setting 'decks'"):
        HoldemBonusEngine.from_settings({"decks": "2"})
    with pytest.raises(IllegalMove, match="no ante rule 'pair'"):
        HoldemBonusEngine.from_settings({"ante": "pair"})


# -- the basic strategy, as stated ---------------------------------------------------------
@pytest.mark.parametrize(("hole", "bets"), [
    (["2s", "3d"], False), (["2s", "7d"], False), (["2s", "8d"], True), (["2s", "7s"], True),
    (["2s", "2d"], True), (["3s", "4d"], True), (["Ts", "2d"], True), (["7c", "2h"], False)])
def test_the_preflop_rule_folds_2_3_to_2_7_of_different_suits(hole: list[str],
                                                              bets: bool) -> None:
    assert thb.plays(hole) is bets


@pytest.mark.parametrize(("hole", "flop", "bets"), [
    (["9h", "4d"], ["9c", "Kd", "2s"], True),    # a hole card pairs the flop
    (["2h", "2d"], ["9c", "Kd", "5s"], True),    # any pocket pair
    (["Ah", "Qd"], ["7c", "7d", "5s"], False),   # the flop's own pair
    (["Ah", "Qd"], ["7c", "7d", "7s"], False),   # the flop's own trips
    (["Th", "3h"], ["2h", "8h", "Kd"], True),    # four to a flush
    (["Th", "3d"], ["2h", "8h", "Kd"], False),   # three to a flush
    (["Qs", "Jd"], ["Th", "9c", "2d"], True),    # four consecutive ranks
    (["As", "2d"], ["3h", "4c", "9d"], True),    # the ace low
    (["As", "Kd"], ["Qh", "Jc", "3d"], True),    # the ace high
    (["Ks", "As"], ["2h", "3c", "9d"], False),   # no run through the ace
    (["Qs", "Jd"], ["Th", "8c", "2d"], False)])  # a gutshot is not four consecutive
def test_the_turn_rule(hole: list[str], flop: list[str], bets: bool) -> None:
    assert thb.bets_turn(hole, flop) is bets


@pytest.mark.parametrize(("hole", "board", "bets"), [
    (["6h", "2d"], ["6c", "Kd", "9s", "3h"], True),    # a pair of sixes with a hole card
    (["5h", "Kd"], ["5c", "8d", "9s", "3h"], False),   # fives: below sixes
    (["5h", "5d"], ["Kc", "8d", "9s", "3h"], False),   # pocket fives alone
    (["5h", "3d"], ["5c", "8d", "9s", "3h"], True),    # two pair, both hole cards
    (["5h", "Ad"], ["5c", "8d", "8s", "3h"], True),    # two pair with the board's pair
    (["Ah", "Kd"], ["5c", "5d", "8s", "8h"], False),   # the board's two pair alone
    (["5h", "Ad"], ["5c", "5d", "8s", "2h"], True),    # trips with a hole card
    (["Ah", "Kd"], ["Qc", "Jd", "Ts", "2h"], True),    # a straight
    (["Ah", "Kd"], ["Qc", "Jd", "3s", "2h"], False),   # four to a straight, not suited
    (["Ah", "2h"], ["9h", "Kh", "7h", "3c"], True),    # a flush
    (["Ah", "2d"], ["9h", "Kh", "7h", "3c"], False),   # four to a flush
    (["9h", "2d"], ["Th", "Jh", "Qh", "3c"], True),    # four suited consecutive, a hole card
    (["Ah", "2d"], ["9h", "Th", "Jh", "Qh"], True),    # the board's own four and the ace: flush
    (["As", "2d"], ["9h", "Th", "Jh", "Qh"], False)])  # the board's own four alone
def test_the_river_rule(hole: list[str], board: list[str], bets: bool) -> None:
    assert thb.bets_river(hole, board) is bets


def _runs(ranks: list[int], length: int) -> bool:
    held = set(ranks) | ({-1} if 12 in ranks else set())
    return any(all(r + k in held for k in range(length)) for r in range(-1, 13))


def turn_in_words(cards: list[int]) -> bool:
    """The turn rule read straight from :data:`~thb.BASIC_STRATEGY`, one hand at a time."""
    ranks, suits = [c >> 2 for c in cards], [c & 3 for c in cards]
    paired = any(ranks.count(ranks[i]) >= 2 for i in (0, 1))
    return paired or max(map(suits.count, range(4))) >= 4 or _runs(ranks, 4)


def river_in_words(cards: list[int]) -> bool:
    """The river rule read straight from :data:`~thb.BASIC_STRATEGY`."""
    ranks, suits = [c >> 2 for c in cards], [c & 3 for c in cards]
    counts = [ranks.count(r) for r in set(ranks)]
    two_pair_up = max(counts) >= 3 or sum(c >= 2 for c in counts) >= 2
    if any(ranks.count(ranks[i]) >= 2 and (ranks[i] >= 4 or two_pair_up) for i in (0, 1)):
        return True
    if _runs(ranks, 5) or max(map(suits.count, range(4))) >= 5:
        return True
    return any(_runs([r for r, s in zip(ranks, suits, strict=True) if s == suit], 4)
               and not _runs([r for r, s in zip(ranks[2:], suits[2:], strict=True)
                              if s == suit], 4) for suit in range(4))


@settings(max_examples=400, deadline=None)
@given(st.permutations(range(52)))
def test_the_array_rules_say_what_the_words_say(deck: list[int]) -> None:
    hole, board = np.array([deck[:2]]), np.array([deck[2:6]])
    assert bool(thb.turn_bets(hole, board[:, :3])[0]) is turn_in_words(deck[:5])
    assert bool(thb.river_bets(hole, board)[0]) is river_in_words(deck[:6])


def test_the_rules_hold_when_every_hand_meets_every_board_at_once() -> None:
    rng = np.random.default_rng(3)
    cards = np.array([rng.permutation(52)[:6] for _ in range(300)])
    holes, boards = cards[:, :2], cards[:, 2:]
    crossed = thb.river_bets(holes[:, None, :], boards[None, :, :])  # (300, 300)
    for i in range(0, 300, 37):
        for j in range(0, 300, 41):
            if set(holes[i]) & set(boards[j]):
                continue
            assert crossed[i, j] == thb.river_bets(holes[i:i + 1], boards[j:j + 1])[0]


# -- what each bet pays through the engine -------------------------------------------------
def test_a_win_with_a_straight_pays_the_ante_and_every_street_bet() -> None:
    state = play(["bet ante 1000", "done", "5h", "6d", "Kc", "Kd",
                  "bet flop", "7s", "8c", "Ad", "bet turn", "9d", "bet river", "2c"])
    assert paid(state) == {"ante": 2000, "flop": 4000, "turn": 2000, "river": 2000}
    assert state.returns() == (5000,)


def test_a_win_below_a_straight_pushes_the_ante() -> None:
    state = play(["bet ante 1000", "done", "As", "Ad", "Kc", "Qd",
                  "bet flop", "2h", "7s", "9d", "check", "4h", "check", "3c"])
    assert paid(state) == {"ante": 1000, "flop": 4000}
    assert state.settlements[0].result == "push, below a straight"
    assert state.returns() == (2000,)


def test_under_the_flush_rule_a_straight_pushes_the_ante() -> None:
    moves = ["bet ante 1000", "done", "5h", "6d", "Kc", "Kd",
             "bet flop", "7s", "8c", "Ad", "check", "9d", "check", "2c"]
    assert paid(play(moves, HoldemBonusEngine.from_settings({"ante": "flush"}))) == {
        "ante": 1000, "flop": 4000}
    flush = ["bet ante 1000", "done", "5h", "6h", "Kc", "Kd",
             "bet flop", "2h", "8h", "Jh", "check", "9d", "check", "2c"]
    assert paid(play(flush, HoldemBonusEngine.from_settings({"ante": "flush"}))) == {
        "ante": 2000, "flop": 4000}


def test_a_losing_hand_loses_every_bet_and_a_tie_pushes_them() -> None:
    lost = play(["bet ante 1000", "done", "Ks", "Kd", "Ac", "Ad",
                 "bet flop", "Ah", "Kh", "7s", "bet turn", "4h", "bet river", "2c"])
    assert paid(lost) == {"ante": 0, "flop": 0, "turn": 0, "river": 0}
    assert lost.returns() == (-5000,)
    tie = play(["bet ante 1000", "done", "2s", "3d", "2c", "3h",
                "bet flop", "As", "Ks", "Qd", "check", "Jc", "bet river", "Th"])
    assert paid(tie) == {"ante": 1000, "flop": 2000, "river": 1000}
    assert tie.returns() == (0,)


def test_a_fold_loses_the_ante_deals_no_board_and_keeps_the_bonus() -> None:
    fold = play(["bet ante 1000", "bet bonus 500", "bet progressive 100", "done",
                 "Ts", "Td", "Ac", "Kh", "fold"])
    assert fold.is_terminal() and fold.board == ()
    assert paid(fold) == {"ante": 0, "bonus": 2000, "progressive": 0}
    assert fold.settlements[2].result == "fold"
    strict = HoldemBonusEngine(rules=type(RULES)(**{**RULES.__dict__,
                                                    "fold_loses_bonus": True}))
    assert paid(play(["bet ante 1000", "bet bonus 500", "done", "Ts", "Td", "Ac", "Kh",
                      "fold"], strict))["bonus"] == 0


@pytest.mark.parametrize(("hole", "dealer", "odds"), [
    (["As", "Ah"], ["Ad", "Ac"], 1000), (["As", "Ah"], ["Kd", "Ac"], 30),
    (["As", "Ks"], ["2d", "3c"], 25), (["Qs", "As"], ["2d", "3c"], 20),
    (["As", "Js"], ["2d", "3c"], 20), (["As", "Kd"], ["2d", "3c"], 15),
    (["Ks", "Kd"], ["2d", "3c"], 10), (["Js", "Jd"], ["2d", "3c"], 10),
    (["As", "Qd"], ["2d", "3c"], 5), (["Jd", "As"], ["2d", "3c"], 5),
    (["Ts", "Td"], ["2d", "3c"], 3), (["2s", "2h"], ["2d", "3c"], 3),
    (["As", "Td"], ["2d", "3c"], -1), (["Ks", "Qs"], ["2d", "3c"], -1)])
def test_the_bonus_pays_its_table_on_the_two_cards(hole: list[str], dealer: list[str],
                                                   odds: int) -> None:
    state = play(["bet ante 100", "bet bonus 200", "done", *hole, *dealer, "bet flop",
                  "4h", "5h", "6d", "check", "8c", "check", "9s"])
    assert paid(state)["bonus"] == 200 * (1 + odds)


def test_the_bonus_s_ways_count_every_deal_of_four_cards() -> None:
    counted = dict.fromkeys(thb.BONUS_WAYS, 0)
    for mine in combinations(DECK, 2):
        rest = [c for c in DECK if c not in mine]
        if thb.bonus_hand(mine, ()) in ("aces", "aces_against_aces"):
            for theirs in combinations(rest, 2):
                counted[str(thb.bonus_hand(mine, theirs))] += 1
            continue
        hand = thb.bonus_hand(mine, ())
        if hand is not None:  # the dealer's cards count only against aces
            counted[hand] += len(rest) * (len(rest) - 1) // 2
    assert counted == thb.BONUS_WAYS
    # by the player's 1,326 hands: 126 win (6 pairs of aces, 1 in 1,225 against aces)
    won = (6 * Fraction(1000 + 30 * 1224, 1225) + 4 * 25 + 8 * 20 + 12 * 15 + 18 * 10
           + 24 * 5 + 54 * 3)
    assert thb.bonus_edge() == (1200 - won) / 1326
    assert round(float(thb.bonus_edge()) * 100, 4) == 8.5406


@pytest.mark.parametrize(("hole", "flop", "back", "percent"), [
    (["As", "Ks"], ["Qs", "Js", "Ts"], 0, 100),
    (["9h", "8h"], ["7h", "6h", "5h"], 0, 10),
    (["9h", "9c"], ["9d", "9s", "5h"], 30_000, 0),
    (["9h", "9c"], ["9d", "5s", "5h"], 5_000, 0),
    (["Ah", "9h"], ["6h", "4h", "Jh"], 4_000, 0),
    (["9h", "8c"], ["7d", "6s", "5h"], 3_000, 0),
    (["9h", "9c"], ["9d", "6s", "5h"], 900, 0),
    (["9h", "9c"], ["Td", "Ts", "5h"], 0, 0)])
def test_the_progressive_pays_on_the_two_cards_and_the_flop(hole: list[str], flop: list[str],
                                                            back: int, percent: int) -> None:
    state = play(["bet ante 100", "bet progressive 100", "done", *hole, "2c", "3d",
                  "bet flop", *flop, "check", "Kd", "check", "Kc"])
    settled = next(s for s in state.settlements if s.spot == "progressive")
    assert (settled.paid, settled.pool_percent) == (back, percent)


def test_refusals_change_nothing() -> None:
    start = play(["bet ante 1000"])
    with pytest.raises(IllegalMove, match="no bet 'blind'"):
        start.apply("bet blind 1000")
    with pytest.raises(IllegalMove, match="positive whole number"):
        start.apply(start.parse_action("bet bonus 0"))
    with pytest.raises(IllegalMove, match="takes its fee"):
        start.apply("bet progressive 500")
    with pytest.raises(IllegalMove, match="bet with an ante"):
        play(["bet bonus 500"]).apply("done")
    with pytest.raises(IllegalMove, match=r"under the table minimum 1\.00"):
        play([]).apply("bet ante 50")
    dealt = play(["bet ante 1000", "done", "As", "Ad", "Kc", "Kd"])
    with pytest.raises(IllegalMove, match="'check' is not open before the flop"):
        dealt.apply("check")
    with pytest.raises(IllegalMove, match="'bet turn' is not open before the flop"):
        dealt.apply("bet turn")
    with pytest.raises(IllegalMove, match="not seat 1's turn"):
        dealt.apply("fold", seat=1)
    with pytest.raises(IllegalMove, match="no more bets"):
        dealt.apply("bet bonus 100")
    flop = play(["bet ante 1000", "done", "As", "Ad", "Kc", "Kd", "bet flop",
                 "2h", "7s", "9d"])
    with pytest.raises(IllegalMove, match="'fold' is not open on the flop"):
        flop.apply("fold")
    with pytest.raises(IllegalMove, match="'bet river' is not open on the flop"):
        flop.apply("bet river")
    with pytest.raises(IllegalMove, match="not an action here"):
        flop.apply("raise")
    with pytest.raises(IllegalMove, match="cannot come up"):
        play(["bet ante 1000", "done", "As"]).apply("As")
    assert [a.text() for a in dealt.legal_actions()] == ["fold", "bet flop"]
    assert dealt.view(0)["bets"] == [{"bet_id": 1, "spot": "ante", "stake": 1000}]


def test_the_limits_void_what_is_over_the_maximum() -> None:
    state = play(["bet ante 25000"])
    assert state.bets[0].stake == RULES.limits[1]


def test_the_dealer_s_cards_stay_hidden_until_the_end() -> None:
    state = play(["bet ante 1000", "done", "As", "Ad", "Kc", "Kd"])
    assert state.view(0)["dealer"] == [] and {"Kc", "Kd"} <= state.hidden_from(0)
    done = play(["bet ante 1000", "done", "As", "Ad", "Kc", "Kd",
                 "bet flop", "2h", "7s", "9d", "check", "4h", "check", "3c"])
    assert done.view(0)["dealer"] == ["Kc", "Kd"] and done.view(0)["dealer_hand"] == "pair"


def test_two_boxes_one_folding_the_other_playing_on() -> None:
    state = play(["bet ante 1000", "done", "bet ante 2000", "done",
                  "2s", "7d", "As", "Ad", "Kc", "Kd", "fold", "bet flop",
                  "2h", "7s", "9d"], seats=2)
    assert state.to_move() == 1 and state.street() == 1
    state = play([*(m.action.text() for m in state.history), "bet turn", "4h", "check",
                  "3c"], seats=2)
    assert state.returns() == (-1000, 2000 * 2 + 2000)
    assert sum(state.accounts().values()) == 0


@settings(max_examples=60, deadline=None)
@given(st.permutations(DECK), st.lists(st.booleans(), min_size=3, max_size=3))
def test_the_engine_pays_what_the_game_s_return_says(deck: list[str],
                                                     choices: list[bool]) -> None:
    state: State = play(["bet ante 1000", "bet bonus 1000", "done", *deck[:4]])
    state = state.apply("bet flop" if choices[0] else "fold").state
    bets = {"turn": False, "river": False}
    for street, cards in (("turn", deck[4:7]), ("river", deck[7:8])):
        if state.is_terminal():
            break
        for card in cards:
            state = state.apply(card).state
        bets[street] = choices[1 if street == "turn" else 2]
        state = state.apply(f"bet {street}" if bets[street] else "check").state
    if not state.is_terminal():
        state = state.apply(deck[8]).state
    assert state.is_terminal()
    board = deck[4:9]
    main = thb.hand_return(deck[:2], deck[2:4], board, bets["turn"], bets["river"],
                           fold=not choices[0])
    hand = thb.bonus_hand(deck[:2], deck[2:4])
    bonus = RULES.bonus[hand] if hand else -1
    assert state.returns()[0] == 1000 * (main + bonus)
    assert sum(state.accounts().values()) == 0


# -- the exact house edge ------------------------------------------------------------------
def by_hand(board: list[str]) -> Fraction:
    """The ante's return summed over every player hand, dealer hand and order of
    ``board``, hand by hand: the one-hand strategy functions on each flop and turn, each
    dealer hand compared directly, the showdown's return for each way the player bet."""
    cards = [DECK.index(c) for c in board]
    rest = [c for c in range(52) if c not in cards]
    pairs = list(combinations(rest, 2))
    values = dict(zip(pairs, (int(v) for v in high_values([[*p, *cards] for p in pairs])),
                      strict=True))
    total = Fraction(0)
    for mine in pairs:
        hole = [DECK[c] for c in mine]
        theirs = [values[p] for p in pairs if not set(p) & set(mine)]
        if not thb.plays(hole):
            total += 20 * len(theirs) * thb.hand_return(
                hole, [DECK[c] for c in pairs[-1]], board, False, False, fold=True)
            continue
        orders: Counter[tuple[bool, bool]] = Counter()  # how the player bet, by order
        for flop in combinations(range(5), 3):
            turn_bet = thb.bets_turn(hole, [board[i] for i in flop])
            for turn in (i for i in range(5) if i not in flop):
                orders[turn_bet, thb.bets_river(hole, [board[i] for i in (*flop, turn)])] += 1
        for (turn_bet, river_bet), ways in orders.items():
            total += ways * sum(thb.showdown_return(values[mine], value, turn_bet, river_bet)
                                for value in theirs)
    return total


@pytest.mark.parametrize("board", [["Kc", "Kd", "8s", "7h", "2c"],
                                   ["9h", "Th", "Jh", "2h", "2s"]])
def test_the_enumeration_of_a_board_equals_the_hand_by_hand_count(board: list[str]) -> None:
    assert thb.board_returns(board) == by_hand(board)


def test_the_count_over_suit_patterns_weighs_each_board() -> None:
    boards, weights = board_classes()
    picked = [0, 5_000, 90_000]
    found = thb.count_boards(boards[picked], weights[picked], RULES, threads=False)
    total = sum(int(w) * thb.board_returns([DECK[c] for c in b])
                for b, w in zip(boards[picked], weights[picked], strict=True))
    hands = int(weights[picked].sum()) * 1081
    assert found.ante_edge == -Fraction(total, 20 * hands * 990)
    assert found.deals == hands * 990 and found.boards == 3
    assert sum(found.categories.values()) == hands
    assert found.shares["flop"] + found.shares["fold"] == 1
    assert 3 <= found.average_wager <= 5
    assert found.element_of_risk == found.ante_edge / found.average_wager
