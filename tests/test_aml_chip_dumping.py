"""Chip dumping at poker (issue 16, AML rule 4; GGPoker house rules, "Rahanpesun
torjunta"): real hands at a cash table, one player's chips going steadily to another;
the ``chip_dumping`` rule flags the pair with the hands, the amounts and the share, and
lets pass the losses spread over players, a swap of pots both ways and anything under
its thresholds or out of its window."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest
from dbfixtures import migrated_copy, migrated_template
from sqlalchemy import Engine

from pelisali.platform import accounts, ledger, poker_tables
from pelisali.platform.aml import AmlSettings, close_case, hand_nets, scan, settings
from pelisali.platform.db import transaction
from pelisali.platform.poker_tables import CashTable, HandResult, create_table
from pelisali.rng import SeededRng

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
LATER = T0 + timedelta(hours=1)


@pytest.fixture(scope="module")
def template() -> Any:
    return migrated_template()


@pytest.fixture
def engine(template: Any, monkeypatch: pytest.MonkeyPatch) -> Engine:
    """Ann, bob and cid, and a no-limit hold'em table (blinds 0.50/1.00 €, a 5 % rake);
    the hands are recorded at T0."""
    for module in (ledger, poker_tables):
        monkeypatch.setattr(module, "now_utc", lambda: T0)
    engine = migrated_copy(template)
    with transaction(engine) as s:
        for name in ("ann", "bob", "cid"):
            accounts.register(s, name, date(1990, 1, 1), "FI")
            accounts.deposit(s, name, 50_000, key=f"d-{name}")
        create_table(s, "nl-1", small_blind=50, big_blind=100, min_buy_in=2_000,
                     rake=Fraction(5, 100), rake_cap=300)
    return engine


def seated(engine: Engine, *names: str) -> CashTable:
    table = CashTable.open(engine, "nl-1", SeededRng(1))
    for name in names:
        table.buy_in(name, 10_000, key=f"in-{name}")
    return table


def won_by(table: CashTable, winner: str) -> HandResult:
    """A hand the winner takes: they raise when it is their turn, the others fold."""
    hand = table.start_hand()
    raised = False
    while not hand.finished:
        if table.in_hand[hand.actor] == winner and not raised:
            hand.act("raise", 300)
            raised = True
        else:
            hand.act("fold")
    return table.finish_hand()


def rules(**changes: Any) -> AmlSettings:
    return replace(settings(), **changes)


def test_the_settings() -> None:
    found = settings()
    assert (found.chip_dumping_window_days, found.chip_dumping_hands,
            found.chip_dumping_amount, found.chip_dumping_share) == (30, 20, 50_000,
                                                                    Fraction(4, 5))
    with pytest.raises(ValueError, match="more than 1/2"):
        rules(chip_dumping_share=Fraction(1, 2))  # a loser could have two such winners


def test_a_loser_whose_chips_go_to_one_winner(engine: Engine) -> None:
    table = seated(engine, "ann", "bob")
    chips, expected = {"ann": 10_000, "bob": 10_000}, []
    for _ in range(6):
        done = won_by(table, "ann")
        expected.append({"round": done.round_id, "table": "nl-1", "hand": done.hand,
                         "lost": chips["bob"] - done.chips["bob"],
                         "to_winner": done.chips["ann"] - chips["ann"]})
        chips = done.chips
    # Bob folds his small blind (0.50 €; ann's 0.45 after the rake) or his big blind to
    # ann's raise (1.00 €; 0.90 after it), three times each.
    assert sorted((e["lost"], e["to_winner"]) for e in expected) == [(50, 45)] * 3 + [
        (100, 90)] * 3
    lenient = rules(chip_dumping_hands=6, chip_dumping_amount=400)
    with transaction(engine) as s:
        for strict in (rules(chip_dumping_hands=7, chip_dumping_amount=400),
                       rules(chip_dumping_hands=6, chip_dumping_amount=406),
                       rules(chip_dumping_hands=6, chip_dumping_amount=400,
                             chip_dumping_share=Fraction(19, 20))):
            assert scan(s, LATER, strict) == []
        assert scan(s, T0 + timedelta(days=31), lenient) == []  # out of the window
        [case] = scan(s, LATER, lenient)
        rake = ledger.balance(s, "fee:nl-1")
    assert (case.rule, case.player) == ("chip_dumping", "bob")
    assert case.evidence == {
        "winner": "ann", "hands_together": 6, "lost": 450, "to_winner": 405, "back": 0,
        "transferred": 405, "share": "9/10", "minimum_share": "4/5", "minimum_hands": 6,
        "minimum_amount": 400, "days": 30, "hands": expected}
    assert rake == 450 - 405  # what bob lost and ann did not win is the house's rake
    with transaction(engine) as s:
        assert scan(s, LATER, lenient) == []  # the same hands open no second case
    for _ in range(2):
        won_by(table, "ann")
    with transaction(engine) as s:
        assert scan(s, LATER, lenient) == []  # open: staff read it first
        close_case(s, case.id, "floor", "friends; warned")
        [again] = scan(s, LATER, lenient)  # two hands more after it was closed
    assert again.evidence["hands_together"] == 8 and len(again.evidence["hands"]) == 8


def test_losses_spread_over_players_and_pots_swapped_both_ways(engine: Engine) -> None:
    table = seated(engine, "ann", "bob", "cid")
    for n in range(12):
        won_by(table, ("ann", "cid")[n % 2])
    with transaction(engine) as s:
        # Bob's losses went half to ann, half to cid (over 1 € each): no majority. Cid's
        # all went to ann, but ann's as much to cid: 2.74 € one way, 2.72 € back, 0.02 €
        # transferred, under 0.03 €.
        assert scan(s, LATER, rules(chip_dumping_hands=1, chip_dumping_amount=3,
                                    chip_dumping_share=Fraction(51, 100))) == []
        [swap] = scan(s, LATER, rules(chip_dumping_hands=1, chip_dumping_amount=2,
                                      chip_dumping_share=Fraction(51, 100)))
    assert (swap.player, swap.evidence["winner"], swap.evidence["to_winner"],
            swap.evidence["back"], swap.evidence["transferred"]) == ("cid", "ann", 274, 272, 2)


def test_the_house_seats_are_not_flagged(engine: Engine) -> None:
    with transaction(engine) as s:
        ledger.move(s, "fund", "external:owner", "house:bank", 10**6, "funding")
        poker_tables.fund_house_seats(s, 50_000, key="bots")
    table = seated(engine, "bot:1", "bob")
    for _ in range(4):
        won_by(table, "bot:1")
    with transaction(engine) as s:
        assert scan(s, LATER, rules(chip_dumping_hands=1, chip_dumping_amount=1)) == []


def test_both_versions_of_a_hand_record_read() -> None:
    version_1 = {"hand": 3, "phh": 'players = ["bob", "ann"]\nstarting_stacks = [1000, 1000]'
                                   '\nfinishing_stacks = [900, 1095]\n'}
    assert hand_nets(version_1) == (3, {"bob": -100, "ann": 95})
    version_2 = {"version": 2, "players": ["ann", "bob", "cid"], "stacks": [500, 500, 500],
                 "poker": {"hand": 9, "result": {"finishing_stacks": [640, 400, 450]}}}
    assert hand_nets(version_2) == (9, {"ann": 140, "bob": -100, "cid": -50})
