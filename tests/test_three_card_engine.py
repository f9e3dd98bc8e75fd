"""Three Card Poker on the engine contract (standard rules; RAY 2016 1.4.1.2 names the game):
every bet's payout on every kind of outcome, the fold, the limits and bad moves, the
exact value of a hand walked through the engine's own chance nodes against the count of
every dealer hand, and the optimal-play simulation against the exact edges."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from typer.testing import CliRunner

from pelisali.analysis.banked_simulate import optimal_policy, simulate_three_card
from pelisali.analysis.walk import expected_returns
from pelisali.cards import DECK
from pelisali.cli.main import app
from pelisali.engine import GAMES, IllegalMove, Seats, replay
from pelisali.engine.three_card import Fold, Play, ThreeCardEngine, ThreeCardState
from pelisali.games.three_card_poker import ante_play_return

ENGINE = ThreeCardEngine()


def dealt(bets: list[str], player: str, dealer: str, seats: int = 1) -> ThreeCardState:
    """One box's bets placed (the other seats bet nothing), its cards and the dealer's."""
    state = ENGINE.new_state(Seats(seats))
    for move in [*bets, "done", *(["done"] * (seats - 1)), *player.split(), *dealer.split()]:
        state = state.apply(move).state
    assert isinstance(state, ThreeCardState)
    return state


def settle(bets: list[str], player: str, dealer: str, decision: str) -> dict[str, int]:
    state = dealt(bets, player, dealer).apply(decision).state
    assert isinstance(state, ThreeCardState) and state.is_terminal()
    return {s.spot: s.paid for s in state.settlements}


# (player, dealer, what the ante, play and Pair Plus of 1,000 each pay back); the tables are
# the rule data's defaults, ante bonus 1-4-5 and Pair Plus 1-4-6-30-40.
CASES = [
    # the dealer does not qualify (jack high): the ante wins 1:1, the play bet pushes
    ("Ks 9d 4c", "Js 9h 2d", {"ante": 2000, "play": 1000, "pair-plus": 0}),
    # the dealer qualifies and loses, wins, ties (queen high each way)
    ("Ks 9d 4c", "Qs 9h 2d", {"ante": 2000, "play": 2000, "pair-plus": 0}),
    ("Qs 6d 4c", "Ks 9h 2d", {"ante": 0, "play": 0, "pair-plus": 0}),
    ("Qs 6d 4c", "Qh 6s 4d", {"ante": 1000, "play": 1000, "pair-plus": 0}),
    # a pair: Pair Plus 1:1; it loses to a higher pair, ante and play both
    ("8s 8d 4c", "9s 9h 2d", {"ante": 0, "play": 0, "pair-plus": 2000}),
    # a flush: Pair Plus 4:1, no ante bonus
    ("2s 7s Js", "As 9h 2d", {"ante": 2000, "play": 2000, "pair-plus": 5000}),
    # a straight: ante bonus 1 even losing to a higher straight; Pair Plus 6:1
    ("4s 5d 6c", "9s Th Jd", {"ante": 1000, "play": 0, "pair-plus": 7000}),
    # A-2-3 is the lowest straight: it loses to 2-3-4
    ("As 2d 3c", "2s 3h 4d", {"ante": 1000, "play": 0, "pair-plus": 7000}),
    # three of a kind against a dealer who does not qualify: ante 1 + bonus 4, Pair Plus 30
    ("7s 7d 7c", "Js 9h 2d", {"ante": 6000, "play": 1000, "pair-plus": 31000}),
    # a straight flush beats three of a kind: ante 1 + bonus 5, play 1, Pair Plus 40
    ("9h Th Jh", "As Ad Ac", {"ante": 7000, "play": 2000, "pair-plus": 41000}),
]


@pytest.mark.parametrize(("player", "dealer", "paid"), CASES)
def test_every_bet_pays_as_the_tables_say(player: str, dealer: str,
                                          paid: dict[str, int]) -> None:
    bets = ["bet ante 1000", "bet pair-plus 1000"]
    assert settle(bets, player, dealer, "play") == paid
    # the engine's split of ante and play adds up to the exact-odds return of the deal
    net = paid["ante"] + paid["play"] - 2000
    assert net == 1000 * ante_play_return(player.split(), dealer.split(), plays=True)


def test_a_fold_loses_the_ante_and_pair_plus_and_settles_at_once() -> None:
    state = dealt(["bet ante 1000", "bet pair-plus 500"], "8s 8d 4c", "2s 3h 5d")
    assert state.legal_actions() == (Play(), Fold())
    done = state.apply("fold").state
    assert done.is_terminal() and done.returns() == (-1500,)
    assert done.accounts() == {"seat 0": -1500, "table": 0, "house": 1500}


def test_pair_plus_alone_needs_no_decision() -> None:
    state = dealt(["bet pair-plus 500"], "Ks Kd 4c", "2s 3h 5d")
    assert state.is_terminal()
    assert [(s.spot, s.paid, s.result) for s in state.settlements] == [("pair-plus", 1000, "win")]


def test_boxes_decide_in_seat_order_and_see_only_their_own_cards() -> None:
    state = ENGINE.new_state(Seats(3))
    for move in ["bet ante 500", "done", "done", "bet ante 700", "done",
                 "Ks", "9d", "4c", "2h", "2d", "3c", "Qs", "Jh", "5d"]:
        state = state.apply(move).state
    assert state.to_move() == 0
    with pytest.raises(IllegalMove, match="not seat 2's turn"):
        state.apply("play", seat=2)
    view = state.view(2)
    assert view["cards"] == ["2h", "2d", "3c"] and view["dealer"] == []
    assert {"Ks", "9d", "4c", "Qs", "Jh", "5d"} <= state.hidden_from(2)
    state = state.apply("play").state
    assert state.to_move() == 2 and state.view(0)["dealer"] == []
    state = state.apply("play", seat=2).state
    assert state.is_terminal()
    # the dealer's queen high qualifies: seat 0's king wins, seat 2's pair of twos wins
    assert state.returns() == (1000, 0, 1400)
    assert state.view(None)["boxes"] == {"0": ["Ks", "9d", "4c"], "2": ["2h", "2d", "3c"]}
    assert replay(ENGINE, Seats(3), state.history).returns() == state.returns()


def test_bad_bets_and_moves_are_refused_with_reasons() -> None:
    state = ENGINE.new_state(Seats(1))
    with pytest.raises(IllegalMove, match="no bet 'play' before the deal"):
        state.apply("bet play 500")
    with pytest.raises(IllegalMove, match="under the table minimum"):
        state.apply("bet ante 50")
    with pytest.raises(IllegalMove, match="whole number of cents"):
        state.apply("bet ante -5")
    with pytest.raises(IllegalMove, match="once its cards are dealt"):
        state.apply("play")
    over = state.apply("bet ante 60000")
    assert over.state.bets[0].stake == 50_000 and "void and returned" in over.events[0].text
    dealt_state = over.state.apply("done").state
    with pytest.raises(IllegalMove, match="cannot come up"):
        dealt_state.apply("As").state.apply("As")
    with pytest.raises(IllegalMove, match="no setting 'decks'"):
        ThreeCardEngine.from_settings({"decks": "2"})
    with pytest.raises(IllegalMove, match="no Pair Plus table"):
        ThreeCardEngine.from_settings({"pair_plus": "1-2-3"})


def test_no_bets_deal_no_round() -> None:
    state = ENGINE.new_state(Seats(2)).apply("done").state.apply("done").state
    assert state.is_terminal() and state.returns() == (0, 0)


def test_the_registry_holds_it() -> None:
    assert GAMES["three-card-poker"].title() == "Three Card Poker"


def dealer_count(player: list[str]) -> Fraction:
    """The play's mean return in antes: every dealer hand of the 49 cards left counted."""
    left = [c for c in DECK if c not in player]
    total = sum(ante_play_return(player, list(d), plays=True) for d in combinations(left, 3))
    return Fraction(total, 18_424)


def test_the_engine_walks_to_the_value_every_dealer_hand_gives() -> None:
    """Queen-six-four, walked card by card through the engine's chance nodes (49 x 48 x 47
    deals), is worth what the count of every dealer hand says: a little better than the
    fold's -1, so the optimal rule plays it; queen-six-three is worth less."""
    state = dealt(["bet ante 100"], "Qs 6d 4c", "")
    walked = expected_returns(state, lambda s: Play())
    assert walked == (100 * dealer_count(["Qs", "6d", "4c"]),)
    assert Fraction(-1) < walked[0] / 100 < Fraction(-99, 100)
    assert dealer_count(["Qs", "6d", "3c"]) < -1


def test_the_optimal_rule_plays_q64_and_folds_q63() -> None:
    assert optimal_policy(dealt(["bet ante 100"], "Qs 6d 4c", "2s 2d 2h")) == Play()
    assert optimal_policy(dealt(["bet ante 100"], "Qs 6d 3c", "2s 2d 2h")) == Fold()


def test_the_simulation_agrees_with_the_exact_edges() -> None:
    result = simulate_three_card(6000, seed=7)
    assert [row.agrees for row in result.rows] == [True, True]
    assert float(result.rows[0].exact_rtp) == pytest.approx(1 - 0.0337, abs=5e-5)
    assert float(result.rows[1].exact_rtp) == pytest.approx(1 - 0.0232, abs=5e-5)


def test_simulate_from_the_command_line() -> None:
    out = CliRunner().invoke(app, ["simulate", "three-card-poker", "--rounds", "300",
                                   "--seed", "2", "--json"])
    assert out.exit_code == 0, out.output
    assert '"game": "three-card-poker"' in out.output and '"agrees": true' in out.output
    bad = CliRunner().invoke(app, ["simulate", "three-card-poker", "--rounds", "10",
                                   "--seed", "2", "--set", "pair_plus=9"])
    assert bad.exit_code != 0 and "no Pair Plus table '9'" in bad.output
