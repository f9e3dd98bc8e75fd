"""Colour chips at the wheel and dice tables (RAY 1.2.1, 1.2.2, 1.3.2 "Pelipanokset";
RULINGS "Colour chips"): the table's setting, buying a stack, bets staked from it and
paid into it, the exchange back to the wallet, the refusals, and money conserved."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from dbfixtures import Fixed, fresh_engine
from sqlalchemy import Engine, select

from pelisali.platform import accounts, colour_chips
from pelisali.platform.colour_chips import ChipError, buy, exchange, set_chips, stacks
from pelisali.platform.db import transaction
from pelisali.platform.ledger import KeyConflict, LedgerError, balance, balances, check, move
from pelisali.platform.models import ColourStack, RoundRow
from pelisali.platform.rounds import create_table, place_bet, recall, settle, void

ANN, BOB = "player:ann", "player:bob"
CHIPS_ANN = "table:r1/chips:ann"


@pytest.fixture
def lite(tmp_path: Path) -> Iterator[Engine]:
    """SQLite alone, for the refusals (the money's paths run on both databases)."""
    yield from fresh_engine("sqlite", tmp_path)


def setup(engine: Engine, chips: str = "colour") -> None:
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", 10_000_000, "funding")
        for name in ("ann", "bob"):
            accounts.register(s, name, date(1990, 1, 1), "FI")
            accounts.deposit(s, name, 100_000, key=f"d-{name}")
        create_table(s, "r1", "roulette", "C", limit_min=100, limit_max=50_000)
        create_table(s, "r2", "roulette", "C", limit_min=100, limit_max=50_000)
        create_table(s, "mw", "money-wheel")
        create_table(s, "dd", "tuplanoppa")
        if chips != "value":
            set_chips(s, "r1", chips, actor="staff")


def test_buy_bet_win_and_exchange_move_exact_amounts(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        stack = buy(s, "r1", "ann", "green", 500, 20, key="c1")
        assert (stack.colour, stack.unit, stack.chips, stack.held) == ("green", 500, 20, 10_000)
        assert (balance(s, ANN), balance(s, CHIPS_ANN)) == (90_000, 10_000)
        again = buy(s, "r1", "ann", "green", 500, 20, key="c1")  # a retry: bought once
        assert again.held == 10_000 and balance(s, ANN) == 90_000
    with transaction(engine) as s:
        place_bet(s, "r1", "ann", "straight 17", 1_000, key="b1")
        place_bet(s, "r1", "ann", "red", 500, key="b2")
        assert (balance(s, ANN), balance(s, CHIPS_ANN)) == (90_000, 8_500)
    with transaction(engine) as s:
        round_id, settled = settle(s, "r1", Fixed(17))
        assert [(x.spot, x.paid) for x in settled] == [("straight 17", 36_000), ("red", 0)]
        # The win is paid in colour chips: the wallet did not move.
        assert (balance(s, ANN), balance(s, CHIPS_ANN)) == (90_000, 44_500)
        assert recall(s, round_id).same
        record = json.loads(s.get(RoundRow, round_id).record)
        assert record["colour_chips"] == {"ann": {"colour": "green", "unit": 500,
                                                  "bets": [1, 2]}}
        assert [x.to_json()["chips"] for x in stacks(s, "r1")] == [89]
    with transaction(engine) as s:
        back = exchange(s, "r1", "ann", key="x1")
        assert (back.held, back.chips) == (44_500, 89)
        assert (balance(s, ANN), balance(s, CHIPS_ANN)) == (134_500, 0)
        exchange(s, "r1", "ann", key="x1")  # a retry: exchanged once
        assert balance(s, ANN) == 134_500 and stacks(s, "r1") == []
        # The colour is free again, and nothing was made or lost.
        assert buy(s, "r1", "bob", "green", 100, 1, key="c2").held == 100
        report = check(s)
        assert report.ok and report.total == 0


def test_the_setting_is_refused_for_money_wheel_and_tuplanoppa(lite: Engine) -> None:
    engine = lite
    setup(engine, chips="value")
    with transaction(engine) as s:
        with pytest.raises(ChipError, match=r"RAY 1\.2\.3"):
            set_chips(s, "mw", "colour", actor="staff")
        with pytest.raises(ChipError, match=r"RAY 1\.3\.1"):
            set_chips(s, "dd", "both", actor="staff")
        with pytest.raises(ChipError, match="value, colour or both"):
            set_chips(s, "r1", "gold", actor="staff")
        # By default a table takes value chips only: no stack is sold there.
        with pytest.raises(ChipError, match=r"r1 takes value chips only \(RAY 1\.2\.1\)"):
            buy(s, "r1", "ann", "red", 500, 2, key="c1")
        assert set_chips(s, "r1", "both", actor="staff").chips == "both"


def test_bad_requests_are_refused_and_change_nothing(lite: Engine) -> None:
    engine = lite
    setup(engine)
    with transaction(engine) as s:
        buy(s, "r1", "bob", "red", 1_000, 5, key="cb")
    with transaction(engine) as s:
        before = balances(s)
        for colour, unit, chips, words in (
                ("gold", 500, 2, "no colour 'gold'"),
                ("red", 500, 2, "red is taken at r1; free colours: blue"),
                ("blue", 50, 2, "within the table's limits 1.00 to 500.00"),
                ("blue", 60_000, 2, "within the table's limits"),
                ("blue", 500, 0, "bought 1 to 1000"),
                ("blue", 500_00, 3, "no credit")):
            with pytest.raises(LedgerError, match=words), s.begin_nested():
                buy(s, "r1", "ann", colour, unit, chips, key=f"k-{colour}-{unit}-{chips}")
        with pytest.raises(ChipError, match="takes colour chips only: buy a stack first"):
            place_bet(s, "r1", "ann", "red", 500, key="b0")
        with pytest.raises(ChipError, match=r"whole chips of 10\.00, not 15\.00"):
            place_bet(s, "r1", "bob", "red", 1_500, key="b1")
        with pytest.raises(ChipError, match="bob holds no colour chips at r2"):
            exchange(s, "r2", "bob", key="x0")
        assert balances(s) == before
        assert len(s.scalars(select(ColourStack)).all()) == 1
    with transaction(engine) as s:  # one key, another request: refused
        with pytest.raises(KeyConflict):
            buy(s, "r1", "bob", "red", 1_000, 6, key="cb")
        with pytest.raises(ChipError, match=r"bob plays red chips of 10\.00"):
            buy(s, "r1", "bob", "red", 500, 1, key="cb2")
        assert buy(s, "r1", "bob", "red", 1_000, 1, key="cb3").chips == 6  # more of the same
        with pytest.raises(ChipError, match="r1 has colour chips in play"):
            set_chips(s, "r1", "value", actor="staff")


def test_chips_belong_to_their_table_and_come_back_from_a_void(engine: Engine) -> None:
    setup(engine, chips="both")
    with transaction(engine) as s:
        buy(s, "r1", "ann", "blue", 200, 10, key="c1")
        # At another table ann plays value chips: her colour chips are not seen there.
        place_bet(s, "r2", "ann", "red", 700, key="b-r2")
        assert (balance(s, ANN), balance(s, CHIPS_ANN)) == (97_300, 2_000)
        # At a table of both, bob plays value chips beside ann's colour chips.
        place_bet(s, "r1", "bob", "red", 700, key="b-bob")
        place_bet(s, "r1", "ann", "black", 600, key="b-ann")
        assert (balance(s, BOB), balance(s, CHIPS_ANN)) == (99_300, 1_400)
        with pytest.raises(ChipError, match="bets standing at r1"):
            exchange(s, "r1", "ann", key="x-early")
        with pytest.raises(ChipError, match="bets standing at r1"):
            buy(s, "r1", "bob", "red", 100, 1, key="c-bob")
    with transaction(engine) as s:
        round_id = void(s, "r1", "mis-spin", actor="staff")
        assert (balance(s, BOB), balance(s, CHIPS_ANN)) == (100_000, 2_000)
        record = json.loads(s.get(RoundRow, round_id).record)
        assert record["colour_chips"] == {"ann": {"colour": "blue", "unit": 200, "bets": [2]}}
        assert check(s).ok


def test_stack_view_names_the_colour_in_three_languages() -> None:
    stack = colour_chips.Stack("r1", "ann", "yellow", 250, 1_100)
    assert stack.to_json() == {
        "player": "ann", "colour": "yellow",
        "names": {"fi": "keltainen", "sv": "gul", "en": "yellow"}, "css": "#f9a825",
        "unit": 250, "held": 1_100, "chips": 4, "change": 100}
