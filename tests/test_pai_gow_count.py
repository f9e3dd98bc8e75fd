"""Pai Gow Poker's exact count (pelisali.games.pai_gow_count): the inclusion-exclusion over
shared cards held against every deal of small decks played one by one, the compiled
dominance counts against pairs counted one by one, the classes of hands against the house
way of each hand, and `pelisali odds pai-gow-poker` reading the count."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from itertools import combinations, permutations
from math import comb
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pelisali.games import pai_gow_count, pai_gow_kernels
from pelisali.games.pai_gow import five_value, house_way, settle, two_value
from pelisali.games.pai_gow_count import (
    PaiGowCount,
    cached_count,
    card_label,
    count_pai_gow,
    from_json,
    small_deck,
    to_json,
)
from pelisali.rules.pai_gow import PaiGowRules, load_pai_gow


def deal_by_deal(deck: tuple[int, ...], rules: PaiGowRules) -> tuple[int, int, int]:
    """(wins, pushes, losses) of the box over every ordered pair of disjoint hands, each
    hand set by the house way and each pair compared as the settlement compares them."""
    hands = list(combinations(deck, 7))
    masks = np.array([sum(1 << deck.index(c) for c in hand) for hand in hands],
                     dtype=np.int64)
    highs, lows = [], []
    for hand in hands:
        high, low = house_way([card_label(c) for c in hand], rules.house_way, rules.wheel)
        highs.append(five_value(high, rules.wheel))
        lows.append(two_value(low))
    high_of, low_of = np.array(highs), np.array(lows)
    wins = losses = pairs = 0
    for i in range(len(hands)):
        apart = (masks & masks[i]) == 0
        pairs += int(apart.sum())
        wins += int((apart & (high_of[i] > high_of) & (low_of[i] > low_of)).sum())
        losses += int((apart & (high_of >= high_of[i]) & (low_of >= low_of[i])).sum())
    return wins, pairs - wins - losses, losses


@pytest.mark.parametrize(("ranks", "suits", "wheel"), [
    ("TJQKA", "cdh", "second"),  # straights and flushes to the royal, three suits
    ("A234", "cdhs", "second"),  # the wheel with the joker, four of a kind, five aces
    ("A234", "cdhs", "low"),
    ("89TJQKA", "cd", "second"),  # two suits: no flush without the joker
])
def test_the_count_equals_every_deal_played_one_by_one(ranks: str, suits: str,
                                                       wheel: str) -> None:
    rules = dataclasses.replace(load_pai_gow(), wheel=wheel)
    deck = small_deck(ranks, suits)
    found = count_pai_gow(rules, deck=deck)
    assert (found.wins, found.pushes, found.losses) == deal_by_deal(deck, rules)
    assert found.deals == comb(len(deck), 7) * comb(len(deck) - 7, 7)


def test_the_comparison_is_the_settlement_s() -> None:
    """The count's rule (both higher wins; the dealer's as high or higher in both loses,
    copies included) is what settle() says, on deals of the small deck."""
    deck = small_deck("TJQKA", "cdh")
    gen = np.random.default_rng(5)
    results = {"win": 0, "push": 0, "lose": 0}
    for _ in range(300):
        cards = [card_label(int(c)) for c in gen.permutation(np.array(deck))[:14]]
        box, dealer = house_way(cards[:7]), house_way(cards[7:])
        shown = settle(*box, *dealer)
        high = five_value(box[0]), five_value(dealer[0])
        low = two_value(box[1]), two_value(dealer[1])
        counted = ("win" if high[0] > high[1] and low[0] > low[1] else
                   "lose" if high[1] >= high[0] and low[1] >= low[0] else "push")
        assert shown.result == counted
        results[counted] += 1
    assert min(results.values()) > 0


def test_the_returns_per_unit() -> None:
    found = PaiGowCount(100, 30, 40, 30, Fraction(1, 20), 1)
    assert found.box_return == Fraction(95 * 30 - 100 * 30, 100 * 100)
    assert found.bank_return == found.box_return  # the copies change sides with the bank
    assert found.share("push") == Fraction(2, 5)


def brute_pairs(points: list[tuple[int, int]]) -> tuple[int, int]:
    strict = sum(ph > dh and pl > dl for ph, pl in points for dh, dl in points)
    weak = sum(dh >= ph and dl >= pl for ph, pl in points for dh, dl in points)
    return strict, weak


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 4)), max_size=40))
def test_the_dominance_counts_equal_pairs_counted_one_by_one(
        points: list[tuple[int, int]]) -> None:
    lows = 5
    values = np.array([h * lows + lo for h, lo in points], dtype=np.int32)
    expected = brute_pairs(points)
    assert pai_gow_kernels.sorted_counts(values, lows) == expected
    assert pai_gow_kernels.strict_and_weak_grid(values, 7, lows) == expected


def test_subsets_are_enumerated_in_colex_order_and_unranked() -> None:
    deck = np.arange(9, dtype=np.int64)
    binom = pai_gow_kernels.binomials(9)
    keys = pai_gow_kernels.subset_keys(deck, 3, False)
    assert len(keys) == comb(9, 3)
    colex = sorted(combinations(range(9), 3), key=lambda c: c[::-1])
    for index, subset in enumerate(colex):
        assert tuple(pai_gow_kernels.unrank(index, 3, binom)) == subset
        assert sum(int(binom[c, i + 1]) for i, c in enumerate(subset)) == index


def test_hands_of_one_class_are_set_to_the_same_values() -> None:
    """The class key: equal under every permutation of the suits; by ranks alone only
    where no flush can be made; and hands of one key get the same (high, low) values."""
    gen = np.random.default_rng(11)
    rules = load_pai_gow()
    by_key: dict[int, tuple[int, int]] = {}
    for _ in range(400):
        hand = np.sort(gen.choice(53, 7, replace=False)).astype(np.int64)
        key = int(pai_gow_kernels.subset_keys(hand, 7, True)[0])
        plain = int(pai_gow_kernels.subset_keys(hand, 7, False)[0])
        for order in list(permutations(range(4)))[::5]:
            moved = np.sort(np.array([c if c == 52 else (c & ~3) | order[c & 3] for c in hand],
                                     dtype=np.int64))
            assert int(pai_gow_kernels.subset_keys(moved, 7, False)[0]) == plain
        labels = [card_label(int(c)) for c in hand]
        suits = [sum(label[1] == s for label in labels if label != "Jk") for s in "cdhs"]
        ranks_only = max(suits) + ("Jk" in labels) < 5
        assert (key != plain) == ranks_only
        high, low = house_way(labels, rules.house_way, rules.wheel)
        value = (five_value(high), two_value(low))
        assert by_key.setdefault(key, value) == value


def test_the_count_is_read_back_from_the_cache(tmp_path: Path) -> None:
    rules = load_pai_gow()
    found = PaiGowCount(1000, 300, 400, 300, Fraction(1, 20), 7)
    assert from_json(json.loads(json.dumps(to_json(found)))) == found
    path = tmp_path / f"pai-gow-exact-{pai_gow_count._cache_key(rules)}.json"
    path.write_text(json.dumps(to_json(found)))
    assert cached_count(rules, directory=tmp_path) == (found, True)
    other = dataclasses.replace(rules, wheel="low")
    assert pai_gow_count._cache_key(other) != pai_gow_count._cache_key(rules)


def test_a_deck_too_small_for_a_deal_is_refused() -> None:
    with pytest.raises(ValueError, match="a deal needs 14 cards"):
        count_pai_gow(deck=small_deck("KA", "cdhs"))


def test_odds_prints_the_count_beside_the_published_figures(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`pelisali odds pai-gow-poker` reads the count from the user's cache (here one
    written for the test, as counting the 53 cards takes minutes) and prints it with the
    hands' census (replaced here by the published counts: it is tested apart)."""
    from typer.testing import CliRunner

    from pelisali.analysis import pai_gow_census
    from pelisali.cli.main import app

    rules = load_pai_gow()
    deals = comb(53, 7) * comb(46, 7)
    found = PaiGowCount(deals, 2 * deals // 7, deals - 4 * deals // 7, 2 * deals // 7,
                        Fraction(1, 20), 9)
    cache = tmp_path / "pelisali"
    cache.mkdir()
    (cache / f"pai-gow-exact-{pai_gow_count._cache_key(rules)}.json").write_text(
        json.dumps(to_json(found)))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(pai_gow_census, "census_pai_gow", lambda progress=None:
                        pai_gow_census.PaiGowCensus(comb(53, 7),
                                                    dict(pai_gow_census.PUBLISHED), 0.0))
    result = CliRunner().invoke(app, ["odds", "pai-gow-poker", "--json"])
    assert result.exit_code == 0, result.output
    exact = json.loads(result.output)["exact"]
    assert exact["cached"] is True and exact["house_way"] == "foxwoods"
    assert (exact["wins"], exact["losses"]) == (found.wins, found.losses)
    assert Fraction(exact["box_edge"]) == -found.box_return
    assert Fraction(exact["bank_return"]) == found.bank_return
    assert exact["published"]["box_edge"] == pai_gow_count.PUBLISHED_EXACT.box_edge
    shown = CliRunner().invoke(app, ["odds", "pai-gow-poker"])
    assert shown.exit_code == 0, shown.output
    assert f"{found.wins:,}" in shown.output and "read from the cache" in shown.output
    assert "2.7212 %" in shown.output  # the published house edge beside the count
