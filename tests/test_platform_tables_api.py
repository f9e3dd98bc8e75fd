"""One way to every table, whatever its family (platform/tables.py): find a table, place a
slip of bets on it and play its round, at a roulette, a punto banco and a blackjack
table, and a poker table refused; on SQLite and PostgreSQL. Every amount is exact: the
stakes that leave the wallet, the payouts, a retried key that changes nothing, a refused
slip that changes nothing."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from dbfixtures import Fixed, setup, wallet
from sqlalchemy import Engine, select

from pelisali.platform import card_rounds, poker_tables
from pelisali.platform.card_rounds import BlackjackView, CoupResult
from pelisali.platform.db import transaction
from pelisali.platform.ledger import balance, check, verify_audit
from pelisali.platform.models import BetRow
from pelisali.platform.rounds import TableError
from pelisali.platform.tables import (
    HandDecision,
    Insurance,
    Played,
    Waiting,
    ZeroChoice,
    create,
    decide,
    find,
    own_table,
    place,
    play_round,
    standing_bets,
    waiting,
)
from pelisali.rng import SeededRng

START = 1_000_000  # each player's wallet (dbfixtures.setup)


def tables(engine: Engine) -> None:
    """ann funded; a roulette, a punto banco, a blackjack and a poker table."""
    setup(engine, ("ann",))
    with transaction(engine) as s:
        create(s, "r1", "roulette", "C", limit_min=100, limit_max=50_000)
        create(s, "pb", "punto-banco", limit_min=100, limit_max=50_000)
        create(s, "bj", "blackjack", limit_min=100, limit_max=50_000)
        poker_tables.create_table(s, "p1", "holdem", small_blind=50, big_blind=100,
                                  min_buy_in=2_000)


def receipts(engine: Engine, table: str, bets: Sequence[tuple[str, int]], key: str
             ) -> list[tuple[int, int, int, str]]:
    with transaction(engine) as s:
        return [(r.bet_id, r.accepted, r.returned, r.message)
                for r in place(s, table, "ann", bets, key)]


def keys(engine: Engine) -> list[str]:
    with transaction(engine) as s:
        return list(s.scalars(select(BetRow.key).order_by(BetRow.id)))


def refused(engine: Engine, table: str, bets: Sequence[tuple[str, int]], match: str) -> None:
    """The slip is refused with ``match`` and nothing of it stays, even in the
    transaction that tried it."""
    before, rows = wallet(engine, "ann"), keys(engine)
    with transaction(engine) as s:
        with pytest.raises(TableError, match=match):
            place(s, table, "ann", bets, "refused")
        assert balance(s, "player:ann") == before
    assert wallet(engine, "ann") == before and keys(engine) == rows


def test_find_names_any_table_and_refuses_a_missing_one(engine: Engine) -> None:
    tables(engine)
    with transaction(engine) as s:
        assert [find(s, name).game for name in ("r1", "pb", "bj", "p1")] == [
            "roulette", "punto-banco", "blackjack", "poker"]
        with pytest.raises(TableError, match="no table 'nope'"):
            find(s, "nope")


def test_a_roulette_slip_is_debited_once_and_paid_exactly(engine: Engine) -> None:
    tables(engine)
    slip = [("red", 1_000), ("straight 17", 500), ("black", 60_000)]
    assert receipts(engine, "r1", slip, "k1") == [
        (1, 1_000, 0, "10.00 on red"), (2, 500, 0, "5.00 on straight 17"),
        (3, 50_000, 10_000, "500.00 on black: 100.00 over the table maximum is void and "
                            "returned")]
    staked = START - 51_500  # the excess over the maximum never left the wallet
    assert wallet(engine, "ann") == staked
    # The same slip again is the same bets: receipts, no debit.
    assert [r[3] for r in receipts(engine, "r1", slip, "k1")] == ["already placed"] * 3
    assert wallet(engine, "ann") == staked
    with transaction(engine) as s, pytest.raises(TableError, match="used for a different bet"):
        place(s, "r1", "ann", [("red", 1_000)], "k1")
    refused(engine, "r1", [("red", 1_000), ("nowhere", 100)], "no betting spot 'nowhere'")
    refused(engine, "r1", [("red", -100)], "positive whole number of cents, not -100")
    refused(engine, "r1", [], "at least one bet")
    assert keys(engine) == ["k1/0", "k1/1", "k1/2"]  # a wager slip's keys, as rounds.Slip
    with transaction(engine) as s:
        played = play_round(s, "r1", Fixed(17))  # 17 is black
    assert played.dealt is None
    assert [(x.spot, x.stake, x.paid, x.result) for x in played.settlements] == [
        ("red", 1_000, 0, "lose"), ("straight 17", 500, 18_000, "win"),
        ("black", 50_000, 100_000, "win")]
    assert wallet(engine, "ann") == staked + 118_000
    # A key placed in a settled round stays used: the retry changes nothing.
    assert [r[3] for r in receipts(engine, "r1", slip, "k1")] == ["already placed"] * 3
    assert wallet(engine, "ann") == staked + 118_000
    with transaction(engine) as s:
        assert check(s).ok and verify_audit(s).ok


# A punto banco coup's payouts, exactly, by its result: the banker's win less 5 %
# commission (half a cent paid down), and player and banker returned on a tie.
COUP_PAID = {"player": [2_000, 0, 0], "banker": [0, 1_969, 0], "tie": [1_000, 1_010, 9_000]}


def test_a_punto_banco_slip_is_debited_once_and_paid_exactly(engine: Engine) -> None:
    tables(engine)
    slip = [("player", 1_000), ("banker", 1_010), ("tie", 1_000)]
    assert receipts(engine, "pb", slip, "k1") == [
        (1, 1_000, 0, "10.00 on player"), (2, 1_010, 0, "10.10 on banker"),
        (3, 1_000, 0, "10.00 on tie")]
    assert wallet(engine, "ann") == START - 3_010
    assert [r[3] for r in receipts(engine, "pb", slip, "k1")] == ["already placed"] * 3
    assert wallet(engine, "ann") == START - 3_010
    # A refused bet after an accepted one refuses the slip whole.
    refused(engine, "pb", [("player", 500), ("dragon", 100)], "no bet 'dragon'")
    refused(engine, "pb", [("banker", -100)], "positive number of cents, not -100")
    refused(engine, "pb", [], "at least one bet")
    assert keys(engine) == ["k1/0", "k1/1", "k1/2"]  # a card slip's keys, as the API's
    with transaction(engine) as s:
        played = play_round(s, "pb", SeededRng(1))
    assert isinstance(played.dealt, CoupResult)
    assert (played.round_id, played.settlements) == (played.dealt.round_id,
                                                    played.dealt.settlements)
    paid = [x.paid for x in played.settlements]
    assert paid == COUP_PAID[played.dealt.result]
    assert wallet(engine, "ann") == START - 3_010 + sum(paid)
    assert [r[3] for r in receipts(engine, "pb", slip, "k1")] == ["already placed"] * 3
    assert wallet(engine, "ann") == START - 3_010 + sum(paid)
    with transaction(engine) as s:
        assert check(s).ok and verify_audit(s).ok
        assert card_rounds.recall_card_round(s, played.round_id).same


def test_a_blackjack_slip_is_debited_once_and_the_round_dealt(engine: Engine) -> None:
    tables(engine)
    slip = [("1", 500), ("seat 2", 700)]
    assert receipts(engine, "bj", slip, "k1") == [
        (1, 500, 0, "5.00 in seat 1"), (2, 700, 0, "7.00 in seat 2")]
    assert wallet(engine, "ann") == START - 1_200
    assert [r[3] for r in receipts(engine, "bj", slip, "k1")] == ["already placed"] * 2
    refused(engine, "bj", [("3", 500), ("9", 500)], "seats are numbered 1 to 7")
    refused(engine, "bj", [("3", -5)], "positive number of cents, not -5")
    refused(engine, "bj", [("1", 500)], "seat 1 already has a bet")
    assert wallet(engine, "ann") == START - 1_200
    with transaction(engine) as s:
        played = play_round(s, "bj", SeededRng(1))
    view = played.dealt
    assert isinstance(view, BlackjackView) and played.round_id == view.round_id
    # SeededRng(1): seat 1 holds 3c 2h, seat 2 Ts 9s, the dealer shows 5s; both decide.
    assert (str(view.status), view.dealer, view.turn) == ("playing", ("5s",), (1, 1))
    assert played.settlements == () and wallet(engine, "ann") == START - 1_200
    with transaction(engine) as s:  # after a reconnection: where the round stopped
        assert waiting(s, "bj", "ann") == Waiting(view.round_id, {}, view)
    # Out of turn, no insurance under a 5, no such decision: refused, nothing changes.
    for who, decision, match in (
            ("bob", HandDecision("stand"), "it is ann's turn"),
            ("ann", Insurance(1, 100), "insurance"),
            ("ann", HandDecision("surrender"), "surrender"),
            ("ann", ZeroChoice(view.round_id, 1, "half"), "plays blackjack: it takes no "
                                                           "ZeroChoice")):
        with transaction(engine) as s, pytest.raises(TableError, match=match):
            decide(s, "bj", who, decision)
        with transaction(engine) as s:
            assert waiting(s, "bj", "ann").dealt == view
    assert wallet(engine, "ann") == START - 1_200
    with transaction(engine) as s:
        decide(s, "bj", "ann", HandDecision("stand"))
        played = decide(s, "bj", "ann", HandDecision("stand"))
    view = played.dealt
    assert isinstance(view, BlackjackView) and played.settlements == view.settlements
    assert str(view.status) == "settled"
    with transaction(engine) as s:
        assert waiting(s, "bj", "ann") == Waiting(None)
    stake = {"seat 1": 500, "seat 2": 700}
    for x in view.settlements:  # each hand paid exactly by its result
        assert x.paid == {"win": 2, "push": 1, "lose": 0}[x.result] * stake[x.spot]
    assert wallet(engine, "ann") == START - 1_200 + sum(x.paid for x in view.settlements)
    with transaction(engine) as s:
        assert check(s).ok and verify_audit(s).ok


def test_a_poker_table_is_refused_with_its_own_way(engine: Engine) -> None:
    tables(engine)
    with transaction(engine) as s:
        with pytest.raises(TableError, match=r"p1 is a poker table: .*buy_in"):
            place(s, "p1", "ann", [("call", 100)], "k1")
        with pytest.raises(TableError, match=r"p1 is a poker table: .*start_hand"):
            play_round(s, "p1", SeededRng(1))
    assert wallet(engine, "ann") == START and keys(engine) == []


def test_a_round_without_bets_is_as_each_family_has_it(engine: Engine) -> None:
    """A card table deals nothing without bets; a wheel spins for nobody."""
    tables(engine)
    for name in ("pb", "bj"):
        with transaction(engine) as s, pytest.raises(TableError, match="no bets on the table"):
            play_round(s, name, SeededRng(1))
    with transaction(engine) as s:
        played = play_round(s, "r1", Fixed(17))
    assert played == Played(played.round_id, ()) and wallet(engine, "ann") == START


def test_roulette_d_s_choices_are_waited_for_and_decided_through_the_table(
        engine: Engine) -> None:
    """Roulette D, both zero rules (RAY 1.2.1 D): a bet hit by zero waits for its
    player's choice; half returns half the stake exactly, and the round is settled with
    the last choice."""
    tables(engine)
    with transaction(engine) as s:
        create(s, "d", "roulette", "D", settings={"zero_rule": "both"}, limit_min=100)
        place(s, "d", "ann", [("red", 1_000), ("straight 0", 100)], "k1")
        assert [(b.number, b.spot, b.stake) for b in standing_bets(s, "d", "ann")] == [
            (1, "red", 1_000), (2, "straight 0", 100)]
        assert standing_bets(s, "d", "bob") == []
        played = play_round(s, "d", Fixed(0))
    assert played.settlements == ()
    zero = played.round_id
    with transaction(engine) as s:
        assert standing_bets(s, "d", "ann") == []  # drawn: no longer open for bets
        assert waiting(s, "d", "ann") == Waiting(zero, {1: ["prison", "half"]})
        assert waiting(s, "d", "ann", zero) == waiting(s, "d", "ann")
        assert waiting(s, "d", "bob") == Waiting(None)
    for who, decision, match in (
            ("ann", ZeroChoice(zero, 1, "double"), "double"),
            ("ann", ZeroChoice(zero, 2, "half"), "no choice"),
            ("bob", ZeroChoice(zero, 1, "half"), "not bob's"),
            ("ann", ZeroChoice(zero + 99, 1, "half"), f"no round {zero + 99} at d"),
            ("ann", HandDecision("hit"), "d plays roulette: it takes no HandDecision")):
        with transaction(engine) as s, pytest.raises(TableError, match=match):
            decide(s, "d", who, decision)
    assert wallet(engine, "ann") == START - 1_100
    with transaction(engine) as s:
        with pytest.raises(TableError, match=f"round {zero} is deciding"):
            play_round(s, "d", Fixed(3), round_id=zero)
        played = decide(s, "d", "ann", ZeroChoice(zero, 1, "half"))
    assert played.round_id == zero and played.dealt is None
    assert [(x.spot, x.stake, x.paid, x.result) for x in played.settlements] == [
        ("red", 1_000, 500, "half"), ("straight 0", 100, 3_600, "win")]
    assert wallet(engine, "ann") == START - 1_100 + 4_100
    with transaction(engine) as s:
        assert waiting(s, "d", "ann") == Waiting(None)
        with pytest.raises(TableError, match=f"round {zero} is settled"):
            play_round(s, "d", Fixed(3), round_id=zero)
        with pytest.raises(TableError, match="not named before it is dealt"):
            play_round(s, "pb", SeededRng(1), round_id=zero)
        assert check(s).ok and verify_audit(s).ok


def test_a_player_s_own_table_is_opened_once_and_never_another_s(engine: Engine) -> None:
    tables(engine)
    with transaction(engine) as s:
        names = [own_table(s, "ann", "roulette", "C"), own_table(s, "ann", "baccarat"),
                 own_table(s, "ann", "blackjack"), own_table(s, "ann", "roulette", "C")]
        assert names == ["rng-roulette-C-ann", "rng-punto-banco-ann", "rng-blackjack-ann",
                         "rng-roulette-C-ann"]
        assert [(find(s, n).game, find(s, n).mode) for n in names[:3]] == [
            ("roulette", "rng"), ("punto-banco", "rng"), ("blackjack", "rng")]
        create(s, "rng-sic-bo-bob", "roulette", "C", mode="live")
        with pytest.raises(TableError, match="rng-sic-bo-bob is a live roulette table, "
                                             "not bob's own sic-bo table"):
            own_table(s, "bob", "sic-bo")
