"""The slot batch simulator: its line lookup against the engine's judgement of every tuple,
its rounds against the engine's settled rounds spin by spin (feature triggers, wild-heavy
windows, retriggers and the cap forced), seeded reproducibility, the check against the par
sheet (a deliberately wrong strip flagged, the right strips not), and the CLI."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from slot_games import five_reel, five_reel_feature, five_reel_ways, tiny, ways_game
from typer.testing import CliRunner

from pelisali.analysis.slot_simulate import (
    BLOCK,
    BatchSlot,
    Groups,
    check_sample,
    line_pay_lookup,
    reel_groups,
    simulate_slot,
)
from pelisali.analysis.slots import par_sheet
from pelisali.cli.main import app
from pelisali.engine import Seats
from pelisali.engine.slots import Paytable, SlotEngine, SlotState
from pelisali.rules.slots import SlotRules, load_slot_rules, slot_rules_from

runner = CliRunner()
DATA = Path(__file__).resolve().parents[1] / "src" / "pelisali" / "rules" / "data" / "slots"


@pytest.mark.parametrize("make", [tiny, five_reel, lambda: load_slot_rules("fruit")])
def test_the_line_lookup_is_the_engines_judgement_of_every_tuple(make: object) -> None:
    rules: SlotRules = make()  # type: ignore[operator]
    table = Paytable(rules)
    pays = line_pay_lookup(table)
    k = len(rules.symbols)
    for index, symbols in enumerate(itertools.product(rules.symbols, repeat=rules.reel_count)):
        # the lookup's number: the first reel least significant
        number = sum(rules.symbols.index(s) * k ** r for r, s in enumerate(symbols))
        assert pays[number] == table.line_pay(symbols)[2], (index, symbols)


def test_reels_are_grouped_within_the_joint_stops() -> None:
    assert reel_groups([64, 64, 64, 64, 64]) == [(0, 1), (2, 3), (4,)]
    assert reel_groups([5, 6, 5]) == [(0, 1, 2)]
    assert reel_groups([4, 5, 5, 5, 4]) == [(0, 1, 2, 3, 4)]
    assert reel_groups([10] * 5) == [(0, 1, 2), (3, 4)]


class RecordingDrawer:
    """Stops drawn with a bias toward scatters and wilds (uniform otherwise), every round's
    stops recorded in the order its spins are played."""

    def __init__(self, model: BatchSlot, seed: int, scatter: tuple[float, float],
                 wild: float) -> None:
        self.model, self.rng = model, np.random.default_rng(seed)
        self.scatter, self.wild = scatter, wild
        self.spins: defaultdict[int, list[tuple[int, ...]]] = defaultdict(list)
        rules = model.rules
        sets = [rules.reels.base, *([rules.reels.free] if rules.reels.free else [])]
        self.showing: list[list[tuple[list[int], list[int]]]] = []
        wilds = rules.wild_symbols
        scatter_symbol = rules.scatter.symbol if rules.scatter else None
        for strips in sets:
            reels = []
            for strip in strips:
                windows = [[strip[(stop + row) % len(strip)] for row in range(rules.rows)]
                           for stop in range(len(strip))]
                reels.append(([i for i, w in enumerate(windows) if scatter_symbol in w],
                              [i for i, w in enumerate(windows) if set(w) & wilds]))
            self.showing.append(reels)
        self.drawn = 0

    def __call__(self, strip_set: int, rounds: npt.NDArray[np.int64]) -> Groups:
        self.drawn += len(rounds)
        assert self.drawn < 200_000, "the biased feature does not end"
        lengths = self.model.tables[strip_set].lengths
        stops = np.zeros((len(rounds), len(lengths)), dtype=np.int64)
        for i in range(len(rounds)):
            for r, n in enumerate(lengths):
                scatters, wilds = self.showing[strip_set][r]
                u = self.rng.random()
                if scatters and u < self.scatter[strip_set]:
                    stops[i, r] = self.rng.choice(scatters)
                elif wilds and u < self.scatter[strip_set] + self.wild:
                    stops[i, r] = self.rng.choice(wilds)
                else:
                    stops[i, r] = self.rng.integers(n)
        for rid, row in zip(rounds.tolist(), stops.tolist(), strict=True):
            self.spins[rid].append(tuple(row))
        return self.model.tables[strip_set].joint(stops)


def _huge_pays() -> SlotRules:
    """The tiny game with a line pay (3 x A) too large to sum exactly in float32."""
    raw = tiny().model_dump(mode="json")
    raw["pays"][1]["pays"] = 10_000_000  # 3 x A
    raw["cap"]["multiplier"] = 10 ** 9
    return slot_rules_from(raw)


def _video_ways() -> SlotRules:
    """Star Treasure's strips and pays paid any-way: 64-stop reels, so the simulator chains
    three reel groups."""
    raw = load_slot_rules("video").model_dump(mode="json")
    raw.update(ways=True, paylines=[], paylines_section=None)
    return slot_rules_from(raw)


CASES = {
    "tiny, 3 lines": (tiny, 3, (0.5, 0.0), 0.4),
    "tiny, 1 line": (tiny, 1, (0.5, 0.0), 0.4),
    "tiny, capped at 4 x the bet": (
        lambda: tiny(cap={"multiplier": 4, "section": "test game"}), 3, (0.5, 0.0), 0.5),
    "tiny, pays beyond float32": (lambda: _huge_pays(), 3, (0.5, 0.0), 0.5),
    "five reels": (five_reel_feature, 6, (0.4, 0.1), 0.4),
    "fruit": (lambda: load_slot_rules("fruit"), 5, (0.0, 0.0), 0.5),
    "video, 20 lines": (lambda: load_slot_rules("video"), 20, (0.45, 0.04), 0.4),
    "video, 5 lines": (lambda: load_slot_rules("video"), 5, (0.45, 0.04), 0.4),
    "ways, 25 coins": (ways_game, 25, (0.4, 0.1), 0.4),
    "ways, 1 coin": (ways_game, 1, (0.4, 0.1), 0.4),
    "ways, capped at 3 x the bet": (
        lambda: ways_game(cap={"multiplier": 3, "section": "test game"}), 10, (0.4, 0.1), 0.5),
    "five reels, ways": (five_reel_ways, 20, (0.4, 0.1), 0.4),
    "video paying any-way (three reel groups)": (lambda: _video_ways(), 20, (0.45, 0.04), 0.5),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_batch_pays_every_round_as_the_engine_settles_it(case: str) -> None:
    make, lines, scatter, wild = CASES[case]
    rules: SlotRules = make()  # type: ignore[operator]
    model = BatchSlot(rules, lines)
    assert model.exact_float == ("float32" not in case)
    draw = RecordingDrawer(model, seed=11, scatter=scatter, wild=wild)
    rounds = 600
    played = model.play(rounds, draw)
    game = SlotEngine(f"slot-{rules.id}", rules)
    features = capped = 0
    for rid in range(rounds):
        state = game.new_state(Seats(1)).apply(f"spin {lines} 1").state
        for stops in draw.spins[rid]:
            for stop in stops:
                state = state.apply(str(stop)).state
        assert isinstance(state, SlotState)
        assert state.is_terminal(), (rid, draw.spins[rid])
        assert state.paid == played.paid[rid], (rid, draw.spins[rid])
        assert bool(played.triggers[rid]) == (len(state.spins) > 1)
        assert bool(played.hits[rid]) == (len(state.spins) > 1 or state.spins[0].units(lines) > 0)
        features += len(state.spins) > 1
        capped += state.uncapped_units() > rules.cap.multiplier * lines
    assert played.capped == capped
    assert played.free_spins == sum(len(draw.spins[r]) - 1 for r in range(rounds))
    if rules.feature is not None:
        assert features >= 50  # the feature was forced often
    if "capped" in case:
        assert capped >= 20


def test_a_seed_gives_the_same_sample_whatever_the_threads() -> None:
    rules = five_reel_feature()
    spins = 2 * BLOCK + 123
    one = simulate_slot(rules, spins, seed=5, workers=1)
    two = simulate_slot(rules, spins, seed=5, workers=2)
    other = simulate_slot(rules, spins, seed=6, workers=2)
    key = ("total", "square", "hits", "features", "free_spins", "capped", "top")
    assert [getattr(one, k) for k in key] == [getattr(two, k) for k in key]
    assert [getattr(one, k) for k in key] != [getattr(other, k) for k in key]
    assert one.spins == spins


def _swap(rules: SlotRules, reel: int, stop: int, symbol: str) -> SlotRules:
    raw = rules.model_dump(mode="json")
    base = [list(strip) for strip in raw["reels"]["base"]]
    base[reel][stop] = symbol
    raw["reels"]["base"] = base
    return slot_rules_from(raw)


def test_a_deliberately_wrong_strip_is_flagged() -> None:
    right = five_reel_feature()
    wrong = _swap(right, 2, 4, "A")  # reel 3: its one D becomes an A
    sheet, moved = par_sheet(right), par_sheet(wrong)
    assert moved.rtp / sheet.rtp > 1.04  # the swap moves the RTP several percent
    spins = 400_000
    honest = check_sample(simulate_slot(right, spins, seed=1), sheet)
    flagged = check_sample(simulate_slot(wrong, spins, seed=1), sheet)
    assert honest.agrees and all(f.inside for f in honest.figures), honest.verdict()
    assert not flagged.agrees and flagged.verdict().startswith("DISAGREES")
    rtp = flagged.figures[0]
    assert rtp.name == "RTP" and not rtp.inside and abs(rtp.z_score) > flagged.family_z
    # against its own par sheet the wrong strip is a game like any other
    assert check_sample(simulate_slot(wrong, spins, seed=1), moved).agrees


def test_a_wrong_strip_in_a_ways_game_is_flagged() -> None:
    right = ways_game()
    wrong = _swap(right, 1, 6, "A")  # reel 2: its one V (a wild for A) becomes an A
    sheet, moved = par_sheet(right), par_sheet(wrong)
    assert Fraction(101, 100) < moved.rtp / sheet.rtp < Fraction(103, 100)  # a small change
    spins = 1_000_000
    honest = check_sample(simulate_slot(right, spins, seed=1), sheet)
    flagged = check_sample(simulate_slot(wrong, spins, seed=1), sheet)
    assert honest.agrees, honest.verdict()
    assert not flagged.agrees and flagged.verdict().startswith("DISAGREES")
    assert check_sample(simulate_slot(wrong, spins, seed=1), moved).agrees


def test_the_shipped_games_agree_with_their_par_sheets() -> None:
    for name, spins in (("fruit", 1_000_000), ("video", 1_000_000)):
        rules = load_slot_rules(name)
        check = check_sample(simulate_slot(rules, spins, seed=1), par_sheet(rules))
        assert check.agrees, check.verdict()


def test_cli_json_gives_the_interval_beside_the_exact_rtp() -> None:
    args = ["simulate", "slot", "video", "--spins", "300000", "--seed", "3", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "slot-video" and data["lines"] == 20 and data["spins"] == 300_000
    rtp = data["figures"][0]
    assert rtp["name"] == "RTP" and rtp["exact"] == "7995359134124297/8365482822336512"
    assert rtp["ci99"][0] < rtp["observed"] < rtp["ci99"][1]
    assert [f["name"] for f in data["figures"]] == ["RTP", "hit frequency", "feature frequency"]
    assert data["agrees"] and data["verdict"].startswith("AGREES")
    assert json.loads(runner.invoke(app, args).output)["figures"] == data["figures"]


def test_cli_table_shows_the_verdict_and_lines() -> None:
    result = runner.invoke(app, ["simulate", "slot", "slot-fruit", "--spins", "200000",
                                 "--seed", "1", "--lines", "3"], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert "3 lines" in result.output and "AGREES" in result.output
    assert "spins/s" in result.output and "hit frequency" in result.output


def test_cli_flags_strips_that_are_not_the_par_sheets(tmp_path: Path) -> None:
    text = (DATA / "video.toml").read_text(encoding="utf-8")
    base = text.index("base = [")
    reel3 = text.index('\n  ["TEN", "RUBY", "J", "DIAMOND"', base)
    first_ten = text.index('"TEN"', reel3)
    wrong = text[:first_ten] + '"STAR"' + text[first_ten + 5:]  # reel 3: a TEN becomes a STAR
    path = tmp_path / "video-found.toml"
    path.write_text(wrong, encoding="utf-8")
    result = runner.invoke(app, ["simulate", "slot", "video", "--spins", "1000000", "--seed",
                                 "2", "--strips", str(path)], env={"COLUMNS": "160"})
    assert result.exit_code == 1, result.output
    assert "DISAGREES" in result.output and "feature frequency" in result.output
    right = tmp_path / "video-right.toml"
    right.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["simulate", "slot", "video", "--spins", "1000000", "--seed",
                                 "2", "--strips", str(right), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["agrees"]


def test_cli_refuses_what_does_not_fit() -> None:
    for args, message in (
            (["simulate", "slot", "nope", "--spins", "10", "--seed", "1"], "no slot game"),
            (["simulate", "slot", "fruit", "--seed", "1"], "--spins"),
            (["simulate", "slot", "fruit", "--spins", "10", "--seed", "1", "--lines", "7"],
             "7 lines cannot be played"),
            (["simulate", "slot", "--spins", "10", "--seed", "1"], "name the slot game"),
            (["simulate", "roulette", "--spins", "10", "--seed", "1"], "simulate slot NAME"),
            (["simulate", "roulette", "--seed", "1"], "--rounds")):
        result = runner.invoke(app, args, env={"COLUMNS": "200"})
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)


def test_cli_refuses_a_strip_file_of_another_game(tmp_path: Path) -> None:
    path = tmp_path / "fruit.toml"
    path.write_text((DATA / "fruit.toml").read_text(encoding="utf-8"), encoding="utf-8")
    result = runner.invoke(app, ["simulate", "slot", "video", "--spins", "10", "--seed", "1",
                                 "--strips", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 2 and "differs in" in result.output, result.output
