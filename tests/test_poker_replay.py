"""`pelisali poker replay`: real hand histories (tests/data/phh, see SOURCES.md) through
the table engine, and the engine's settings they need: forced bets seat by seat
(big-blind ante, straddle), mucking at showdown and a fold when a check is free."""

from __future__ import annotations

import json
import tomllib
import warnings
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pelisali.cli.main import app
from pelisali.poker.replay import replay_files, replay_text
from pelisali.poker.table import HOLDEM_NL, RAZZ_LIMIT, PokerError, PokerHand

DATA = Path(__file__).parent / "data" / "phh"
WSOP_2023 = DATA / "wsop-2023-43-5.phhs"
runner = CliRunner()


def test_every_televised_hand_of_the_2023_players_championship_agrees() -> None:
    """All 83 final-table hands of WSOP 2023 Event #43, nine games, end on the file's
    finishing stacks (big-blind antes, stud bring-ins, draws, a razz raise cut to the
    all-in an opponent can call)."""
    results = list(replay_files([WSOP_2023]))
    assert Counter(r.variant for r in results) == {
        "NT": 11, "F7S": 13, "FO/8": 14, "FR": 10, "PO": 7, "FT": 7, "N2L1D": 7,
        "F7S/8": 7, "F2L3D": 7}
    assert [(r.source, r.detail) for r in results if r.verdict != "agrees"] == []
    assert all(r.got == r.expected and r.actions > 0 for r in results)


def test_a_fold_the_file_leaves_out_is_added_and_said() -> None:
    """The 2019 hand skips the button's pre-flop fold; its big-blind ante is dead money
    in the main pot (the file's stacks), not handed back to the big blind."""
    [result] = replay_files([DATA / "wsop-2019-42-3-00-01-07.phh"])
    assert result.verdict == "agrees"
    assert result.detail == "p8's fold added (the file leaves it out)"
    assert result.got == ["18100000", "5625000", "6675000", "5750000", "9150000",
                          "6525000", "12950000", "7300000"]


def _pokerkit_stacks(text: str) -> list[Decimal]:
    notation = pytest.importorskip("pokerkit.notation")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        history = notation.HandHistory.loads(text, parse_value=Decimal)
        final = list(history)[-1]
    return [Decimal(s) for s in final.stacks]


def _hand_texts(path: Path) -> dict[str, str]:
    """Each hand of a .phh or .phhs file as a PHH text of its own."""
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text, parse_float=Decimal)
    if "actions" in data:
        return {str(path): text}
    texts = {}
    for name, hand in data.items():
        lines = []
        for key, value in hand.items():
            if isinstance(value, bool):
                value = str(value).lower()
            elif isinstance(value, list):
                value = "[" + ", ".join(json.dumps(v) if isinstance(v, str) else str(v)
                                        for v in value) + "]"
            elif isinstance(value, str):
                value = json.dumps(value)
            elif not isinstance(value, int | Decimal):
                continue  # dates, times: not needed to play the hand
            lines.append(f"{key} = {value}")
        texts[f"{path} [{name}]"] = "\n".join(lines) + "\n"
    return texts


@pytest.mark.parametrize(("name", "comparable"), [
    ("abs-2009-100nlh-sample.phhs", 22), ("dwan-ivey-2009.phh", 1),
    ("antonius-blom-2009.phh", 1), ("arieh-yockey-2019.phh", 1)])
def test_hands_without_finishing_stacks_end_where_pokerkit_ends_them(
        name: str, comparable: int) -> None:
    """Online hands with decimal chips and unknown hole cards, and historical hands
    with no finishing stacks: the table's stacks are PokerKit's, hand by hand (except
    where a showdown needs cards the file does not give, which both cannot judge)."""
    compared = 0
    for source, text in _hand_texts(DATA / name).items():
        [result] = replay_text(text, source)
        if "needs" in result.detail:
            assert result.verdict == "unchecked"
            continue
        assert result.verdict == "unchecked", result.detail
        assert result.got is not None
        assert [Decimal(s) for s in result.got] == _pokerkit_stacks(text), source
        compared += 1
    assert compared == comparable


def test_games_the_tables_do_not_play_are_named_not_replayed() -> None:
    results = list(replay_files([DATA / "alice-carol-wikipedia.phh",
                                 DATA / "phua-xuan-2019.phh"]))
    assert [(r.variant, r.verdict) for r in results] == [("FB", "unsupported"),
                                                         ("NS", "unsupported")]
    assert "'FB' is not a game the tables play" in results[0].detail


HEADS_UP = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ["d dh p1 AsAd", "d dh p2 KsKd", {actions}]
finishing_stacks = [{stacks}]
"""


def _heads_up(actions: str, stacks: str = "102, 98") -> str:
    return HEADS_UP.replace("{actions}", actions).replace("{stacks}", stacks)


def test_a_refused_action_and_a_differing_stack_are_reported() -> None:
    # Heads-up the button (p2) posts the small blind and acts first before the flop.
    [fine] = replay_text(_heads_up('"p2 cc", "p1 cbr 6", "p2 f"'))
    assert (fine.verdict, fine.got) == ("agrees", ["102", "98"])
    [refused] = replay_text(_heads_up('"p1 cc", "p2 f"'))
    assert refused.verdict == "refused"
    assert refused.detail == "action 3 'p1 cc': seat 0 is out of turn; seat 1 is to act"
    [short] = replay_text(_heads_up('"p2 cbr 3"'))
    assert short.verdict == "refused" and "outside 4..100" in short.detail
    [differs] = replay_text(_heads_up('"p2 f"', "100, 100"))
    assert (differs.verdict, differs.detail) == (
        "differs", "p1's stack: the file 100, the table 101")
    assert (differs.expected, differs.got) == (["100", "100"], ["101", "99"])


def test_bad_files_get_a_clear_reason() -> None:
    [card] = replay_text(_heads_up('"p2 f"').replace("KsKd", "KsKx"))
    assert (card.verdict, card.detail) == (
        "unsupported", "'Kx' is not a card of the 52-card deck")
    [amount] = replay_text(_heads_up('"p2 cbr lots"'))
    assert (amount.verdict, amount.detail) == ("unsupported", "'p2 cbr lots': 'lots' is "
                                               "not an amount")
    [player] = replay_text(_heads_up('"p3 f"'))
    assert player.detail == "'p3' is not a player p1 to p2"
    with pytest.raises(ValueError, match="not a PHH file"):
        replay_text("variant = ", "broken.phh")


def test_the_command_prints_a_summary_writes_json_and_fails_on_a_difference(
        tmp_path: Path) -> None:
    good = runner.invoke(app, ["poker", "replay", str(DATA / "wsop-2019-42-3-00-01-07.phh"),
                               str(DATA / "arieh-yockey-2019.phh")])
    assert good.exit_code == 0, good.output
    assert "1 agrees, 0 differs, 0 refused, 1 unchecked, 0 unsupported" in good.output
    bad = tmp_path / "bad.phh"
    bad.write_text(_heads_up('"p2 f"', "100, 100"), encoding="utf-8")
    out = runner.invoke(app, ["poker", "replay", str(bad), "--json"])
    assert out.exit_code == 1
    report = json.loads(out.output)
    assert report["summary"]["differs"] == 1
    assert report["hands"][0]["detail"] == "p1's stack: the file 100, the table 101"
    missing = runner.invoke(app, ["poker", "replay", str(tmp_path / "none.phh")])
    assert missing.exit_code != 0 and "cannot be read" in missing.output


# -- the engine's settings the hand histories use ---------------------------------------

def test_a_straddle_acts_last_before_the_flop_and_sets_the_bet() -> None:
    """Blinds 1-2 and a straddle of 4 by the seat after the big blind: the next seat
    acts first, facing 4; the straddler acts last and may raise."""
    hand = PokerHand(HOLDEM_NL, [100] * 4, 3, 1, 2, blinds=[1, 2, 4, 0], deck=[])
    assert hand.actor == 3 and hand.legal().call == 4
    assert hand.legal().raise_min == 6  # the big blind over the largest bet (PokerKit)
    for _ in range(3):
        hand.act("call")
    assert hand.actor == 2 and hand.legal().check  # the straddle's option
    with pytest.raises(PokerError, match="one whole number of chips"):
        PokerHand(HOLDEM_NL, [100] * 4, 3, 1, 2, blinds=[1, 2, -4, 0], deck=[])


def test_a_big_blind_ante_is_dead_money_in_the_main_pot() -> None:
    """The big blind posts everyone's ante (100) and calls all-in for 100 less than the
    button bet: the ante is in the main pot the button's aces take, not a side pot that
    would go back to the big blind."""
    deck = ["Ks", "Kd", "As", "Ad", "2c", "3d", "8h", "9h", "Tc"]
    hand = PokerHand(HOLDEM_NL, [1000, 1000], 1, 50, 100, antes=[100, 0], deck=deck)
    hand.act("raise", 1000)  # the button (small blind) all-in
    hand.act("call")  # the big blind, 800 behind after the ante and the blind: all-in
    assert hand.finished
    assert hand.stacks == [0, 2000]


def test_a_player_may_give_up_the_hand_unshown_and_the_table_may_auto_muck() -> None:
    deck = ["As", "Ad", "Ks", "Kd", "2c", "3d", "8h", "9h", "Tc"]

    def played(**options: object) -> PokerHand:
        hand = PokerHand(HOLDEM_NL, [100, 100], 1, 1, 2, deck=list(deck),
                         **options)  # type: ignore[arg-type]
        hand.act("call")
        hand.act("check")
        for _ in range(3):
            hand.act("check")
            hand.act("check")
        return hand

    shown = played()
    assert shown.stacks == [102, 98] and shown.shown == {0, 1}
    given_up = played(mucks={0})  # the aces give up: the kings take the pot
    assert given_up.stacks == [98, 102] and given_up.shown == {1}
    assert "p1 sm" in given_up.log
    # Checked round: the first to act (the aces, left of the button) shows first and the
    # kings, beaten, are mucked; the chips go as they would.
    auto = played(auto_muck=True)
    assert auto.stacks == [102, 98]
    assert auto.shown == {0} and auto.contested == {0, 1}
    assert auto.log[-2:] == ["p1 sm AsAd", "p2 sm"]


def test_folding_when_a_check_is_free_is_a_table_setting() -> None:
    strict = PokerHand(HOLDEM_NL, [100, 100], 1, 1, 2, deck=[])
    strict.act("call")
    assert not strict.legal().fold
    with pytest.raises(PokerError, match="does not take a fold when a check is free"):
        strict.act("fold")
    free = PokerHand(HOLDEM_NL, [100, 100], 1, 1, 2, deck=[], fold_when_check_free=True)
    free.act("call")
    assert free.legal().fold and free.legal().check
    free.act("fold")
    assert free.finished and free.stacks == [98, 102]  # the big blind gave up its 2


def test_unknown_stud_cards_are_filled_with_cards_that_do_not_bring_in() -> None:
    """A player whose cards went unrecorded (``??????``) must not take the bring-in the
    file gives another: at Razz the highest card brings in."""
    text = """variant = "FR"
antes = [1, 1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [50, 50, 50]
actions = ["d dh p1 ??????", "d dh p2 3c4dKh", "d dh p3 5h6hQd", "p2 pb", "p3 f", "p1 f"]
finishing_stacks = [49, 52, 49]
"""
    [result] = replay_text(text)
    assert (result.verdict, result.detail) == ("agrees", "")
    assert RAZZ_LIMIT.high is None
