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


@pytest.mark.parametrize("game", POKER_GAME_IDS)
def test_the_rule_file_describes_the_engines_game(game: str) -> None:
    rules = load_poker_rules(game)
    variant = VARIANTS[game]
    assert rules.deal.kind == variant.kind
    assert rules.deal.hole_cards == variant.hole_cards
    assert rules.deal.board_streets == variant.board_streets
    assert rules.deal.boards == variant.boards
    assert rules.deal.discard_after == variant.discard_after
    assert rules.deal.stud_streets == variant.stud_streets
    assert rules.deal.draws == variant.draws
    assert (rules.hand.high, rules.hand.low) == (variant.high, variant.low)
    assert rules.hand.exactly_two == variant.exactly_two
    assert rules.betting.structure == variant.structure
    assert rules.betting.raise_cap == variant.raise_cap
    for part in (rules, rules.deal, rules.hand, rules.betting, rules.forced_bets, rules.seats,
                 rules.bad_beat):
        assert "RAY" in part.section or "RULINGS" in part.section or "deck" in part.section


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
    assert load_poker_rules("draw").seats.max == 9


def test_an_unknown_game_is_named() -> None:
    with pytest.raises(RuleDataError, match="no poker game 'bridge'; games: holdem"):
        load_poker_rules("bridge")
