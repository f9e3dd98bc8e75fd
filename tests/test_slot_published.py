"""The par sheet against a published analysis it did not make: the Wizard of Odds'
"The Wizard's Fruit Slot" (slot appendix 4, https://wizardofodds.com/games/slots/appendix/4/;
read in the stored copy https://internetradiomercedes.com/games/slots/appendix/4).

The page gives the pay table, each reel's symbol counts (20 stops a reel) and, for every
winning combination, its probability as ``n/8000`` with six decimals and its return. The
game is ``tests/data/woo_fruit_slot.toml``, read with the ordinary loader from its path; it
is no shipped game. Every figure below is copied from the page, never from Pelisali.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from pelisali.analysis.slots import par_sheet
from pelisali.engine.contract import Seats
from pelisali.engine.slots import SlotEngine, SlotState
from pelisali.rules.loader import read_toml
from pelisali.rules.slots import SlotRules, load_slot_file, slot_rules_from

SOURCE = "https://wizardofodds.com/games/slots/appendix/4/"
TITLE = "The Wizard's Fruit Slot"
DATA = Path(__file__).parent / "data" / "woo_fruit_slot.toml"

PUBLISHED_COUNTS = {  # "Symbol Distribution": reel 1, reel 2, reel 3
    "CHERRY": (5, 2, 3), "ORANGE": (4, 4, 4), "BELL": (3, 4, 4), "GLOBE": (1, 1, 1),
    "PLUM": (3, 3, 1), "LEMON": (3, 5, 6), "BAR": (1, 1, 1),
}
PUBLISHED_TOTAL = 8000  # every probability on the page is n/8000

# (symbol, count from the left, pays, n of 8000, probability as printed, return as printed)
# The page's rows: three globes ... three cherries, two cherries (cherry-cherry-any), one
# cherry (cherry-any-any). The stored copy breaks off at "Return of one cherry =", so that
# return (and the page's total, if it gives one) is not quoted: None.
PUBLISHED = [
    ("GLOBE", 3, 500, 1, "0.000125", ".062500"),
    ("BAR", 3, 100, 1, "0.000125", "0.012500"),
    ("PLUM", 3, 50, 9, "0.001125", "0.056250"),
    ("BELL", 3, 20, 48, "0.006000", "0.120000"),
    ("ORANGE", 3, 15, 64, "0.008000", "0.120000"),
    ("CHERRY", 3, 10, 30, "0.003750", "0.037500"),
    ("CHERRY", 2, 5, 170, "0.021250", "0.106250"),
    ("CHERRY", 1, 2, 1800, "0.225000", None),
]


@pytest.fixture(scope="module")
def rules() -> SlotRules:
    return load_slot_file(DATA)


def test_the_strips_are_the_published_symbol_counts(rules: SlotRules) -> None:
    assert rules.reel_count == 3 and rules.rows == 1 and rules.paylines == ((0, 0, 0),)
    for r, strip in enumerate(rules.reels.base):
        assert len(strip) == 20
        assert Counter(strip) == {s: counts[r] for s, counts in PUBLISHED_COUNTS.items()}
    assert {(p.symbol, p.count): p.pays for p in rules.pays} \
        == {(s, c): pays for s, c, pays, *_ in PUBLISHED}


def test_every_combination_has_the_published_count_probability_and_return(
        rules: SlotRules) -> None:
    sheet = par_sheet(rules)
    assert sheet.combinations == PUBLISHED_TOTAL
    got = [(c.symbol, c.count, c.pays, c.combinations) for c in sheet.combos]
    assert got == [(s, c, pays, n) for s, c, pays, n, *_ in PUBLISHED]
    for combo, (_, _, pays, n, probability, ret) in zip(sheet.combos, PUBLISHED, strict=True):
        assert combo.kind == "line" and combo.multiplier == 1
        assert combo.probability == Fraction(n, PUBLISHED_TOTAL) == Fraction(probability)
        assert f"{float(combo.probability):.6f}" == probability  # every printed digit
        assert combo.contribution == Fraction(n * pays, PUBLISHED_TOTAL)
        if ret is not None:
            assert combo.contribution == Fraction(ret)
            assert f"{float(combo.contribution):.6f}".removeprefix("0") == ret.removeprefix("0")


def test_the_return_and_hit_frequency_are_the_published_sums(
        rules: SlotRules) -> None:
    sheet = par_sheet(rules)
    published_return = sum(Fraction(ret) if ret else Fraction(n * pays, PUBLISHED_TOTAL)
                           for _, _, pays, n, _, ret in PUBLISHED)
    assert sheet.rtp == published_return == Fraction(7720, 8000) == Fraction(rules.rtp)
    assert f"{float(sheet.rtp):.6f}" == "0.965000"
    # the page's combinations are every win, each spin one line and one win: their sum
    assert sheet.hit_frequency == Fraction(sum(n for *_, n, _, _ in PUBLISHED), 8000) \
        == Fraction(2123, 8000)
    assert sheet.rtp_lines == sheet.rtp and sheet.rtp_scatter == sheet.rtp_feature == 0
    assert sheet.cap_cut == 0 and sheet.feature_frequency is None
    assert dict(sheet.wins) == {Fraction(pays): Fraction(n, 8000)
                                for _, _, pays, n, _, _ in PUBLISHED}


def test_the_order_of_the_stops_changes_nothing(rules: SlotRules) -> None:
    """The page gives counts, not the strips' order: one row and one line show one stop a
    reel, so any order has the same par sheet."""
    raw = read_toml(DATA)
    shuffle = random.Random(4).shuffle
    for _ in range(3):
        base = [list(strip) for strip in rules.reels.base]
        for strip in base:
            shuffle(strip)
        raw["reels"]["base"] = base  # type: ignore[index]
        other = par_sheet(slot_rules_from(raw, str(DATA)))
        assert other.combos == par_sheet(rules).combos and other.rtp == Fraction(193, 200)


def test_the_engine_pays_every_stop_combination_as_the_page_counts(
        rules: SlotRules) -> None:
    """All 8,000 rounds played through the engine contract (a 1-cent line), tallied by win."""
    start = SlotEngine("slot-woo-fruit", rules).new_state(Seats(1)).apply("spin 1 1").state
    wins: Counter[int] = Counter()
    for stops in itertools.product(range(20), repeat=3):
        state = start
        for stop in stops:
            state = state.apply(str(stop)).state
        assert isinstance(state, SlotState) and state.is_terminal()
        wins[state.total_win()] += 1
    assert wins == {0: 8000 - 2123} | {pays: n for _, _, pays, n, _, _ in PUBLISHED}
    assert Fraction(sum(w * n for w, n in wins.items()), 8000) == Fraction(193, 200)
