"""The poker games' rule data: every file loads, cites its sections, and describes the same
game the table engine plays."""

from __future__ import annotations

from pathlib import Path

import pytest

import pelisali.rules
from pelisali.poker.games import GAMES as VARIANTS
from pelisali.rules.loader import RuleDataError
from pelisali.rules.poker import POKER_GAME_IDS, load_poker_rules


def test_every_poker_game_has_a_rule_file_and_every_file_is_a_game() -> None:
    folder = Path(pelisali.rules.__file__).parent / "data" / "poker"
    assert {p.stem for p in folder.glob("*.toml")} == set(POKER_GAME_IDS)
    assert set(POKER_GAME_IDS) == set(VARIANTS)


# What the rulebook says of each game (RAY 2016 1.4.1.1.2-12, the 2015 Swedish text where the
# Finnish is garbled, RULINGS): kind, hole cards, board or stud streets, discards, draws,
# high and low hand, exactly two hole cards, the usual structure.
BOARD = (0, 3, 1, 1)
STUD = ((2, 1), (0, 1), (0, 1), (0, 1), (1, 0))
EXPECTED = {
    "holdem": ("board", 2, BOARD, (), 0, "high", None, False, "no-limit"),
    "pineapple": ("board", 3, BOARD, (0,), 0, "high", None, False, "no-limit"),
    "crazy-pineapple": ("board", 3, BOARD, (1,), 0, "high", None, False, "no-limit"),
    "helsinki": ("board", 4, BOARD, (0, 1), 0, "high", None, False, "no-limit"),
    "omaha": ("board", 4, BOARD, (), 0, "high", None, True, "pot-limit"),
    "omaha-5": ("board", 5, BOARD, (), 0, "high", None, True, "pot-limit"),
    "courchevel": ("board", 5, (1, 2, 1, 1), (), 0, "high", None, True, "pot-limit"),
    "double-flop": ("board", 2, BOARD, (), 0, "high", None, False, "no-limit"),
    "stud": ("stud", 7, STUD, (), 0, "high", None, False, "limit"),
    "razz": ("stud", 7, STUD, (), 0, None, "low-a5", False, "limit"),
    "soko": ("stud", 5, ((1, 1), (0, 1), (0, 1), (0, 1)), (), 0, "soko", None, False, "limit"),
    "draw": ("draw", 5, (), (), 1, "high", None, False, "limit"),
    "lowball": ("draw", 5, (), (), 1, None, "low-27", False, "no-limit"),
    "triple-draw": ("draw", 5, (), (), 3, None, "low-27", False, "limit"),
}


@pytest.mark.parametrize("game", POKER_GAME_IDS)
def test_the_rule_file_says_what_the_rulebook_says(game: str) -> None:
    rules = load_poker_rules(game)
    deal, hand = rules.deal, rules.hand
    streets = deal.stud_streets if deal.kind == "stud" else deal.board_streets
    assert (deal.kind, deal.hole_cards, streets, deal.discard_after, deal.draws, hand.high,
            hand.low, hand.exactly_two, rules.betting.structure) == EXPECTED[game]
    assert deal.boards == (2 if game == "double-flop" else 1)
    for part in (rules, rules.deal, rules.hand, rules.betting, rules.forced_bets, rules.seats,
                 rules.bad_beat):
        assert "RAY" in part.section or "RULINGS" in part.section or "deck" in part.section


@pytest.mark.parametrize("game", POKER_GAME_IDS)
def test_the_engine_plays_the_rule_files_game(game: str) -> None:
    rules, variant = load_poker_rules(game), VARIANTS[game]
    assert (variant.kind, variant.hole_cards, variant.stud_streets, variant.board_streets,
            variant.discard_after, variant.draws, variant.boards, variant.high, variant.low,
            variant.exactly_two, variant.structure, variant.raise_cap, variant.max_seats) == (
        rules.deal.kind, rules.deal.hole_cards, rules.deal.stud_streets,
        rules.deal.board_streets, rules.deal.discard_after, rules.deal.draws, rules.deal.boards,
        rules.hand.high, rules.hand.low, rules.hand.exactly_two, rules.betting.structure,
        rules.betting.raise_cap, rules.seats.max)


@pytest.mark.parametrize("game", POKER_GAME_IDS)
def test_one_deck_serves_the_seat_limit(game: str) -> None:
    """The most seats are those one deck deals in full (stud: a community card when short)."""
    deal, most = load_poker_rules(game).deal, load_poker_rules(game).seats.max
    if deal.kind == "stud":
        assert most == 12
    elif deal.kind == "draw":
        # ten hands of five from one deck; every draw is served by the stub and the
        # discards shuffled, the drawer's own too when the others run short (RULINGS)
        assert most * 5 <= 52 < (most + 1) * 5
    else:
        board = sum(deal.board_streets) * deal.boards
        assert most == min(12, (52 - board) // deal.hole_cards)


def test_more_seats_than_the_game_takes_are_refused() -> None:
    from pelisali.poker.table import PokerError, PokerHand

    with pytest.raises(PokerError, match="omaha-5 seats at most 9 players: one deck serves"):
        PokerHand(VARIANTS["omaha-5"], [100] * 10, 0, 1, 2, deck=[])


def test_forced_bets_and_bad_beat_criteria_follow_rulings() -> None:
    stud = load_poker_rules("stud")
    assert not stud.forced_bets.blinds
    assert (stud.forced_bets.ante_of(4), stud.forced_bets.bring_in_of(4)) == (1, 2)
    assert (stud.forced_bets.ante_of(2), stud.forced_bets.bring_in_of(2)) == (1, 1)
    assert load_poker_rules("holdem").forced_bets.ante_of(2) == 0
    assert load_poker_rules("holdem").bad_beat.hole_cards_playing == 2
    assert load_poker_rules("double-flop").bad_beat.per_board
    for low_game in ("razz", "lowball", "triple-draw"):
        assert load_poker_rules(low_game).bad_beat.qualifying == "none"
    assert load_poker_rules("draw").seats.max == 10


def test_an_unknown_game_is_named() -> None:
    with pytest.raises(RuleDataError, match="no poker game 'bridge'; games: holdem"):
        load_poker_rules("bridge")
