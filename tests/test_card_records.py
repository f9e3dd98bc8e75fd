"""Round records of the card games: they carry the shuffle and every card, and replay."""

import json
import random

import pytest

from pelisali.games.blackjack import BlackjackTable, Phase, replay_blackjack
from pelisali.games.punto_banco import PuntoBancoTable, replay_coup
from pelisali.games.round import RoundError
from pelisali.rng import SeededRng


def test_blackjack_records_replay_to_the_same_settlements() -> None:
    table = BlackjackTable(SeededRng(3), venue="test hall", clock=lambda: "2026-11-29T20:00:00")
    chooser = random.Random(2)
    for player in ("ann", "bob"):
        table.sit(player, 10**7)
    last_hands = 0
    for _ in range(250):
        table.place("ann", 1, 1000)
        table.place("bob", 4, 1500)
        table.deal()
        while table.phase is Phase.INSURANCE:
            seat = table.insurance_pending()[0]
            table.insure(seat, chooser.choice([0, table.seats[seat].bet // 2]))
        while table.phase is Phase.PLAYING:
            table.act(chooser.choice(table.legal_actions()))
        record = json.loads(json.dumps(table.history[-1]))
        assert replay_blackjack(record) == table.settlements
        assert (record["venue"], record["opened_at"]) == ("test hall", "2026-11-29T20:00:00")
        start, end = record["shoe_positions"]
        order = [record["shuffle_order"][i:i + 2] for i in range(0, 52 * 16, 2)]
        assert order[start:end] == record["cards"]  # the cards came from the recorded shuffle
        last_hands += record["last_hand_before_shuffle"]
        table.next_round()
    assert last_hands >= 5


def test_blackjack_void_returns_every_stake() -> None:
    table = BlackjackTable(SeededRng(1))
    table.sit("ann", 100_000)
    table.place("ann", 1, 1000)
    table.deal(stack=["8h", "Ts", "8c", "7d", "3c", "4d"])
    table.act("split")
    assert table.balances["ann"] == 98_000
    table.void("card reader fault")
    assert table.balances["ann"] == 100_000 and table.settlements == []
    assert table.history[-1]["void_reason"] == "card reader fault"
    with pytest.raises(RoundError, match="already settled"):
        table.void("again")
    table.check_conservation()


def test_punto_banco_records_carry_the_shuffle() -> None:
    table = PuntoBancoTable(SeededRng(4), venue="test hall")
    table.sit("ann", 10**7)
    for _ in range(120):
        table.place("ann", "banker", 1000)
        table.deal()
        record = json.loads(json.dumps(table.history[-1]))
        start, end = record["shoe_positions"]
        order = [record["shuffle_order"][i:i + 2] for i in range(0, 2 * 416, 2)]
        assert order[start:end] == [card for _side, card in record["cards"]]
        assert [s.to_json() for s in replay_coup(record)] == record["settlements"]
    table.place("ann", "tie", 500)
    before = table.balances["ann"] + 500
    table.void("system malfunction")
    assert table.balances["ann"] == before and table.bets == []
    table.check_conservation()
