"""Tournament rule data, the level clock and the prizes (RULINGS Tournaments)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pelisali.rules.loader import RuleDataError
from pelisali.rules.tournaments import (
    Break,
    Level,
    load_payouts,
    load_structure,
    payout_ids,
    structure_ids,
)
from pelisali.tournaments.clock import LevelClock
from pelisali.tournaments.prizes import award, place_prizes, places_of, prize_pool


@pytest.mark.parametrize("name", structure_ids())
def test_every_structure_loads_rises_and_ends_on_a_level(name: str) -> None:
    structure = load_structure(name)
    levels = structure.play_levels
    assert len(levels) >= 15
    assert [level.number for level in levels] == list(range(1, len(levels) + 1))
    assert all(a.big_blind <= b.big_blind for a, b in itertools.pairwise(levels))
    assert isinstance(structure.levels[0], Level) and isinstance(structure.levels[-1], Level)
    assert any(level.ante for level in levels)  # a big-blind ante from some level on
    for item in structure.levels:
        if isinstance(item, Break):
            assert 1 <= item.after_level < len(levels)


def test_the_shipped_files_are_the_three_structures_and_one_payout_table() -> None:
    assert structure_ids() == ("regular", "sit-and-go", "turbo")
    assert payout_ids() == ("standard",)


def test_the_payout_table_covers_every_field_from_two_to_ten_thousand() -> None:
    table = load_payouts()
    previous = 0
    for entrants in range(2, 10_001):
        places = table.places_for(entrants)
        assert sum(places) == 10_000 and len(places) <= entrants
        assert len(places) >= previous  # a larger field never pays fewer places
        previous = len(places)
    assert table.places_for(1000)[:3] == (1965, 954, 636)
    assert len(table.places_for(1000)) == 105
    with pytest.raises(RuleDataError, match="2 to 10,000 entrants, not 10,001"):
        table.places_for(10_001)


@pytest.mark.parametrize(("body", "message"), [
    ("[[level]]\nbreak_minutes = 5\n", "starts with a level"),
    ("[[level]]\nsmall_blind = 50\nbig_blind = 20\nminutes = 10\n", "above the big blind"),
    ("[[level]]\nsmall_blind = 10\nbig_blind = 20\nminutes = 10\n"
     "[[level]]\nsmall_blind = 5\nbig_blind = 10\nminutes = 10\n", "levels rise"),
    ("[[level]]\nsmall_blind = 10\nbig_blind = 20\n", "needs small_blind, big_blind and"),
    ("[[level]]\nsmall_blind = 10\nbig_blind = 20\nminutes = 0\n", "minutes"),
])
def test_a_malformed_structure_is_refused_naming_the_key(tmp_path: Path, body: str,
                                                          message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('structure = "bad"\nsection = "RULINGS Tournaments"\nstarting_chips = 100\n'
                    '[name]\nfi = "x"\nsv = "x"\nen = "x"\n' + body, encoding="utf-8")
    with pytest.raises(RuleDataError, match=message):
        load_structure("bad", path)


@pytest.mark.parametrize(("bands", "message"), [
    ("[[band]]\nentrants = [2, 5]\nplaces = [6000, 3000]\n", "add up to 9000"),
    ("[[band]]\nentrants = [2, 5]\nplaces = [3000, 7000]\n", "do not rise"),
    ("[[band]]\nentrants = [3, 5]\nplaces = [10000]\n", "start at 2"),
    ("[[band]]\nentrants = [2, 5]\nplaces = [4000, 3000, 2000, 1000]\n", "4 places for as few"),
])
def test_a_malformed_payout_table_is_refused(tmp_path: Path, bands: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('payouts = "bad"\nsection = "RULINGS Tournaments"\n'
                    '[name]\nfi = "x"\nsv = "x"\nen = "x"\n' + bands, encoding="utf-8")
    with pytest.raises(RuleDataError, match=message):
        load_payouts("bad", path)


def test_an_unknown_structure_names_those_there_are() -> None:
    with pytest.raises(RuleDataError, match="structures: regular, sit-and-go, turbo"):
        load_structure("hyper")


@given(elapsed=st.integers(0, 40 * 3600))
def test_the_clock_puts_every_second_in_the_item_that_covers_it(elapsed: int) -> None:
    clock = LevelClock(load_structure("regular"))
    reading = clock.reading(elapsed)
    starts = clock.starts()
    items = clock.structure.levels
    if reading.seconds_left is None:  # past the end: the last level goes on
        assert elapsed >= starts[-1] + items[-1].seconds
        assert reading.level == items[-1]
        return
    start = starts[reading.index]
    assert start <= elapsed < start + items[reading.index].seconds
    assert reading.seconds_left == start + items[reading.index].seconds - elapsed > 0
    assert reading.on_break == isinstance(items[reading.index], Break)
    if not reading.on_break:
        assert reading.level == items[reading.index]
    else:
        assert reading.level == items[reading.index + 1]


def test_the_clock_refuses_negative_time() -> None:
    with pytest.raises(ValueError, match="0 or more"):
        LevelClock(load_structure("turbo")).reading(-1)


def test_an_overlay_is_what_the_guarantee_adds_to_the_collected() -> None:
    pool = prize_pool(200, 2000, guarantee=500_000)
    assert (pool.collected, pool.pool, pool.overlay) == (400_000, 500_000, 100_000)
    above = prize_pool(300, 2000, guarantee=500_000)
    assert (above.collected, above.pool, above.overlay) == (600_000, 600_000, 0)
    with pytest.raises(ValueError, match="negative"):
        prize_pool(-1, 100)


def test_a_thousand_euro_pool_over_fifteen_places_adds_up_to_the_cent() -> None:
    prizes = place_prizes(100_000, load_payouts().places_for(101))
    assert len(prizes) == 15 and sum(prizes) == 100_000
    assert prizes[0] == 30_220 and prizes[-1] == 2000  # 15th: twice the 10-euro prize part


def test_tied_players_share_the_places_they_cover_the_cents_in_order() -> None:
    prizes = place_prizes(10_001, (5000, 3000, 2000))
    assert prizes == (5001, 3000, 2000)
    won = award([["a"], ["b", "c"], ["d"]], prizes)
    assert won == {"a": 5001, "b": 2500, "c": 2500, "d": 0}
    odd = award([["a", "b", "c"]], (5001, 3000, 2000))
    assert odd == {"a": 3334, "b": 3334, "c": 3333}
    assert places_of([["a", "b"], ["c"]]) == {"a": 1, "b": 1, "c": 3}
    with pytest.raises(ValueError, match="finishes once"):
        award([["a"], ["a"]], (100,))
    with pytest.raises(ValueError, match="3 places paid and only 2"):
        award([["a"], ["b"]], (5, 3, 2))
    with pytest.raises(ValueError, match="adding up to 10000"):
        place_prizes(100, (6000, 3000))


@given(pool=st.integers(0, 10**9), field=st.integers(2, 3000), data=st.data())
def test_prizes_add_up_to_the_pool_however_the_field_ties(pool: int, field: int,
                                                          data: st.DataObject) -> None:
    shares = load_payouts().places_for(field)
    prizes = place_prizes(pool, shares)
    assert sum(prizes) == pool
    assert all(a >= b for a, b in itertools.pairwise(prizes))
    players = [f"p{i}" for i in range(field)]
    groups: list[list[str]] = []
    i = 0
    while i < field:
        size = data.draw(st.integers(1, min(4, field - i)))
        groups.append(players[i:i + size])
        i += size
    won = award(groups, prizes)
    assert sum(won.values()) == pool and set(won) == set(players)
    # a tie shares equally, to within a cent
    for group in groups:
        amounts = [won[p] for p in group]
        assert max(amounts) - min(amounts) <= 1
