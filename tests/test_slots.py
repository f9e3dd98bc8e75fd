"""The slot engine: exact payouts for hand-built windows, wilds, scatters, free spins, the
cap, bad rule data, replay, and money conserved for any stops."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from slot_games import tiny, tiny_raw

from pelisali.engine import GAMES, IllegalMove, Seats, replay
from pelisali.engine.slots import Paytable, SlotEngine, SlotState, window_at
from pelisali.rules import RuleDataError
from pelisali.rules.slots import load_slot_file, load_slot_rules

FRUIT = load_slot_rules("fruit")
VIDEO = load_slot_rules("video")


def play(game: SlotEngine, bet: str, *stops: int) -> SlotState:
    state = game.new_state(Seats(1)).apply(bet).state
    for stop in stops:
        state = state.apply(str(stop)).state
    assert isinstance(state, SlotState)
    return state


def _stops_showing(rules_strips: tuple[tuple[str, ...], ...], rows: int,
                   line: tuple[int, ...], symbols: tuple[str, ...]) -> tuple[int, ...] | None:
    for stops in itertools.product(*(range(len(s)) for s in rules_strips)):
        window = window_at(rules_strips, stops, rows)
        if all(window[row][r] == symbols[r] for r, row in enumerate(line)):
            return stops
    return None


FRUIT_LINES = {  # every pay of the fruit game, as a line that shows it
    ("WILD", 3): ("WILD", "WILD", "WILD"),
    ("SEVEN", 3): ("SEVEN", "SEVEN", "SEVEN"),
    ("BAR", 3): ("BAR", "BAR", "BAR"),
    ("BELL", 3): ("BELL", "BELL", "BELL"),
    ("PLUM", 3): ("PLUM", "PLUM", "PLUM"),
    ("ORANGE", 3): ("ORANGE", "ORANGE", "ORANGE"),
    ("LEMON", 3): ("LEMON", "LEMON", "LEMON"),
    ("CHERRY", 3): ("CHERRY", "CHERRY", "CHERRY"),
    ("CHERRY", 2): ("CHERRY", "CHERRY", "BAR"),
    ("CHERRY", 1): ("CHERRY", "LEMON", "CHERRY"),
}


@pytest.mark.parametrize("line", range(5))
@pytest.mark.parametrize("pay", sorted(FRUIT_LINES))
def test_every_fruit_pay_on_every_line_is_paid_exactly(line: int, pay: tuple[str, int]) -> None:
    symbols = FRUIT_LINES[pay]
    stops = _stops_showing(FRUIT.reels.base, FRUIT.rows, FRUIT.paylines[line], symbols)
    if stops is None:
        pytest.skip(f"no stops show {symbols} on line {line + 1}")
    state = play(GAMES["slot-fruit"], "spin 5 10", *stops)  # type: ignore[arg-type]
    wins = {w.line: w for w in state.spins[0].lines}
    expected = {(p.symbol, p.count): p.pays for p in FRUIT.pays}[pay]
    assert (wins[line].symbol, wins[line].count, wins[line].pays) == (*pay, expected)
    assert state.paid == 10 * sum(w.pays for w in wins.values())
    assert state.returns() == (state.paid - 50,)


def test_every_fruit_pay_shows_on_some_line() -> None:
    for symbols in FRUIT_LINES.values():
        assert any(_stops_showing(FRUIT.reels.base, 3, line, symbols) for line in FRUIT.paylines)


@pytest.mark.parametrize(("symbols", "expected"), [
    (("SEVEN", "WILD", "SEVEN"), ("SEVEN", 3, 150)),  # the wild stands for the seven
    (("WILD", "WILD", "SEVEN"), ("SEVEN", 3, 150)),
    (("WILD", "WILD", "WILD"), ("WILD", 3, 400)),      # wilds alone pay as wilds
    (("WILD", "CHERRY", "BAR"), ("CHERRY", 2, 2)),
    (("WILD", "WILD", "CHERRY"), ("CHERRY", 3, 10)),
    (("BAR", "SEVEN", "BAR"), ("", 0, 0)),
    (("LEMON", "CHERRY", "CHERRY"), ("", 0, 0)),        # cherries pay from the left only
])
def test_fruit_lines(symbols: tuple[str, ...], expected: tuple[str, int, int]) -> None:
    assert Paytable(FRUIT).line_pay(symbols) == expected


@pytest.mark.parametrize(("symbols", "expected"), [
    (("RUBY", "WILD", "RUBY", "TEN", "TEN"), ("RUBY", 3, 40 * 2)),       # one wild doubles
    (("RUBY", "WILD", "WILD", "RUBY", "K"), ("RUBY", 4, 100 * 4)),      # two: four times
    (("A", "A", "A", "A", "A"), ("A", 5, 100)),
    (("WILD", "WILD", "WILD", "A", "K"), ("A", 4, 30 * 8)),  # 240 beats three wilds' 100
    (("WILD", "WILD", "WILD", "STAR", "A"), ("WILD", 3, 100)),  # no natural: wilds' own pay
    (("WILD",) * 5, ("WILD", 5, 2000)),
    (("STAR", "STAR", "STAR", "A", "A"), ("", 0, 0)),  # the wild never stands for a star
    (("A", "WILD", "STAR", "A", "A"), ("", 0, 0)),
])
def test_video_wild_rule(symbols: tuple[str, ...], expected: tuple[str, int, int]) -> None:
    assert Paytable(VIDEO).line_pay(symbols) == expected


def _stars(stops: tuple[int, ...]) -> int:
    window = window_at(VIDEO.reels.base, stops, 3)
    return sum(row.count("STAR") for row in window)


def _first_stops(count: int) -> tuple[int, ...]:
    star_stops = [[i for i in range(len(s)) if "STAR" in
                   (s[i], s[(i + 1) % len(s)], s[(i + 2) % len(s)])] for s in VIDEO.reels.base]
    plain = [[i for i in range(len(s)) if i not in star_stops[r]]
             for r, s in enumerate(VIDEO.reels.base)]
    return tuple(star_stops[r][0] if r < count else plain[r][0] for r in range(5))


def test_scatters_pay_on_the_total_bet_and_three_start_ten_free_spins() -> None:
    stops = _first_stops(3)
    assert _stars(stops) == 3
    state = play(GAMES["slot-video"], "spin 20 5", *stops)  # type: ignore[arg-type]
    base = state.spins[0]
    assert (base.scatters, base.scatter_pays, base.triggers) == (3, 5, True)
    assert state.free_left == 10 and state.in_feature() and state.paid is None
    assert state.accounts() == {"seat 0": -100, "table": 100, "house": 0}
    assert len(state.chance_outcomes()) == len(VIDEO.reels.free[0])
    table = Paytable(VIDEO)
    plain = tuple(next(i for i in range(len(s)) if "STAR" not in
                       (s[i], s[(i + 1) % len(s)], s[(i + 2) % len(s)]))
                  for s in VIDEO.reels.free)
    spins = 0
    while not state.is_terminal() and spins < 100:
        state = state.apply(str(plain[spins % 5])).state  # type: ignore[assignment]
        spins += 1
    assert spins == 5 * 10  # these stops show no star: no retrigger
    free = table.settle(VIDEO.reels.free, plain, 20)
    units = base.units(20) + 10 * 3 * free.units(20)
    assert state.paid == units * 5
    assert state.returns() == (units * 5 - 100,)


def test_two_scatters_pay_nothing_and_start_nothing() -> None:
    state = play(GAMES["slot-video"], "spin 20 1", *_first_stops(2))  # type: ignore[arg-type]
    assert state.spins[0].scatter_pays == 0 and state.is_terminal() and state.free_left == 0


def test_a_retrigger_adds_spins() -> None:
    rules = tiny()
    game = SlotEngine("slot-tiny", rules)
    # base: S on reels 1 and 2 (row 0 of stops 2 and 3) triggers 2 free spins
    state = play(game, "spin 3 1", 2, 3, 0)
    assert state.spins[0].scatters >= 2 and state.free_left == 2
    # a free spin with two scatters adds 2 more: free strips' S at stops 1 and 2
    state = state.apply("1").state.apply("2").state.apply("0").state  # type: ignore[assignment]
    assert state.free_left == 1 + 2 and state.free_awarded == 4


def test_the_cap_cuts_the_round_total() -> None:
    game = SlotEngine("slot-tiny", tiny(cap={"multiplier": 2, "section": "test"}))
    state = play(game, "spin 3 10", 0, 1, 0)  # A A A on the top line and more
    assert state.uncapped_units() * 10 > 2 * 30
    assert state.paid == 2 * 30 and state.returns() == (30,)


def test_bets_must_be_a_level_and_a_number_of_lines() -> None:
    state = GAMES["slot-fruit"].new_state(Seats(1))
    with pytest.raises(IllegalMove, match="lines cannot be played"):
        state.apply("spin 6 10")
    with pytest.raises(IllegalMove, match="not a bet level"):
        state.apply("spin 5 3")
    with pytest.raises(IllegalMove, match="spin LINES"):
        state.apply("bet red 5")
    assert len(state.legal_actions()) == 5 * 7


def test_a_round_replays_from_its_history() -> None:
    state = play(GAMES["slot-video"], "spin 20 5", *_first_stops(3))  # type: ignore[arg-type]
    for _ in range(7):
        state = state.apply("3").state  # type: ignore[assignment]
    again = replay(GAMES["slot-video"], Seats(1), state.history)
    assert again == state


@pytest.mark.parametrize(("change", "message"), [
    ({"paylines": [[0, 0, 0], [1, 2, 1]]}, "key 'paylines': line 2 goes off the window: row 2"),
    ({"paylines": [[0, 0]]}, "key 'paylines': line 1 names 2 rows for 3 reels"),
    ({"reels": {"section": "test", "base": [["A", "B"], ["A", "X"], ["A", "B"]],
                "free": [["A", "B"]] * 3}}, "reel 2 has unknown symbol(s) X"),
    ({"pays": [{"symbol": "S", "count": 3, "pays": 5}]}, "'S' is not a line symbol"),
    ({"reels": {"section": "test", "base": [["A"] * 65] * 3, "free": [["A", "B"]] * 3}},
     "reel 1 has 65 stops"),
    ({"feature": None}, "free-spin strips without a feature"),
    ({"wilds": [{"symbol": "W", "substitutes": ["S"], "section": "test"}]},
     "may not stand for a scatter"),
    ({"rtp": "about 95 %"}, "key 'rtp': 'about 95 %' is not a fraction"),
])
def test_bad_rule_data_is_refused_with_the_key(change: dict[str, object], message: str) -> None:
    with pytest.raises(RuleDataError, match=r"key '[a-z_.0-9]+'") as error:
        tiny(**change)
    assert message in str(error.value)


def test_a_bad_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    text = (Path(__file__).parents[1] / "src/pelisali/rules/data/slots/fruit.toml").read_text()
    path.write_text(text.replace('[2, 1, 0]]', '[2, 1, 3]]'), encoding="utf-8")
    with pytest.raises(RuleDataError, match=r"bad.toml: key 'paylines': line 5 goes off"):
        load_slot_file(path)


def test_the_shipped_games_are_registered() -> None:
    assert GAMES["slot-fruit"].title() == "Fruit Classic"
    assert GAMES["slot-video"].title() == "Star Treasure"
    assert tiny_raw()["id"] == "tiny"


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(["slot-fruit", "slot-video"]))
def test_money_is_conserved_for_any_stops(data: st.DataObject, game_id: str) -> None:
    game = GAMES[game_id]
    rules = game.rules  # type: ignore[attr-defined]
    lines = data.draw(st.sampled_from(rules.bets.lines_played))
    cents = data.draw(st.sampled_from(rules.bets.cents_per_line))
    state = game.new_state(Seats(1)).apply(f"spin {lines} {cents}").state
    draws = 0
    while not state.is_terminal() and draws < 400:
        total = state.chance_weights()[2]
        state = state.apply(str(data.draw(st.integers(0, total - 1)))).state
        draws += 1
        accounts = state.accounts()
        assert sum(accounts.values()) == 0
        assert accounts["seat 0"] == state.returns()[0]
    if state.is_terminal():
        assert state.accounts()["table"] == 0
        assert 0 <= state.returns()[0] + lines * cents <= rules.cap.multiplier * lines * cents
