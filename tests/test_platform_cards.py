"""Punto banco and blackjack on the persistent wallet, on SQLite and PostgreSQL: exact
payouts on scripted rounds, doubles, splits and insurance debited when taken, a round in
play resumed after a restart, recovery, voids, recall, and many random rounds keeping the
ledger and the audit chain whole."""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import uuid
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from pelisali.analysis.baccarat_odds import baccarat_odds, full_shoe
from pelisali.money import format_cents
from pelisali.platform import accounts, card_rounds
from pelisali.platform.card_family import seat_of
from pelisali.platform.card_rounds import (
    BlackjackView,
    act,
    blackjack_view,
    create_card_table,
    deal_blackjack,
    deal_coup,
    insure,
    overdue_decisions,
    place_card_bet,
    recall_card_round,
    recover_card_rounds,
    time_out_round,
    void_card_round,
)
from pelisali.platform.db import make_engine, transaction
from pelisali.platform.ledger import LedgerError, balance, check, move, verify_audit
from pelisali.platform.models import BetRow, GameTable, RoundRow, Transfer
from pelisali.platform.rounds import TableError
from pelisali.rng import SeededRng

HOUSE = 10_000_000


def setup(engine: Engine, players: tuple[str, ...] = ("ann",), money: int = 100_000) -> None:
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", HOUSE, "funding")
        for name in players:
            accounts.register(s, name, date(1990, 1, 1), "FI")
            accounts.deposit(s, name, money, key=f"d-{name}")
        create_card_table(s, "pb", "punto-banco", mode="live", limit_min=100)
        create_card_table(s, "bj", "blackjack", mode="live", limit_min=100)


def wallet(engine: Engine, name: str = "ann") -> int:
    with transaction(engine) as s:
        return balance(s, accounts.wallet_code(name))


def coup(engine: Engine, bets: list[tuple[str, int]], cards: list[str]
         ) -> list[tuple[str, int, str, str]]:
    with transaction(engine) as s:
        for i, (spot, amount) in enumerate(bets):
            place_card_bet(s, "pb", "ann", spot, amount, key=f"{cards}-{i}")
    with transaction(engine) as s:
        result = deal_coup(s, "pb", stack=cards)
        assert recall_card_round(s, result.round_id).same
    return [(x.spot, x.paid, x.result, str(x.rounding)) for x in result.settlements]


# -- punto banco ---------------------------------------------------------------------------
def test_punto_banco_pays_every_bet_exactly(engine: Engine) -> None:
    setup(engine)
    bets = [("player", 1_000), ("banker", 1_010), ("tie", 1_000)]
    # Player 9h Tc: a natural 9; banker Ts 2d: 2 (deal order player, banker, player, banker).
    assert coup(engine, bets, ["9h", "Ts", "Tc", "2d"]) == [
        ("player", 2_000, "win", "0"), ("banker", 0, "lose", "0"), ("tie", 0, "lose", "0")]
    # Banker natural 9: 1:1 less 5 % commission on the win; the half cent is rounding.
    assert coup(engine, bets, ["Tc", "9h", "2d", "Th"]) == [
        ("player", 0, "lose", "0"), ("banker", 1_969, "win", "1/2"), ("tie", 0, "lose", "0")]
    # A tie pays 8:1; player and banker bets are returned (GGPoker I 2.1.5).
    assert coup(engine, bets, ["9c", "9d", "Jc", "Qs"]) == [
        ("player", 1_000, "push", "0"), ("banker", 1_010, "push", "0"),
        ("tie", 9_000, "win", "0")]
    # Third cards: player 5 draws a 7 (2); banker 4 draws on a 7 and makes 9.
    assert coup(engine, [("banker", 2_000)], ["2c", "Kc", "3d", "4h", "7s", "5d"]) == [
        ("banker", 3_900, "win", "0")]
    staked = 3 * 3_010 + 2_000
    paid = 2_000 + 1_969 + 1_000 + 1_010 + 9_000 + 3_900
    assert wallet(engine) == 100_000 - staked + paid
    with transaction(engine) as s:
        row = s.scalars(select(RoundRow).where(RoundRow.status == "settled")
                        .order_by(RoundRow.id)).all()[1]
        record = json.loads(row.record)
        assert record["rounding"] == "1/2" and record["stacked"] == ["Tc", "9h", "2d", "Th"]
        assert s.scalars(select(Transfer).where(Transfer.key == f"settle:{row.id}:2")).one(
            ).amount == 1_969
        assert check(s).ok and verify_audit(s).ok


def test_punto_banco_bets_limits_and_refusals(engine: Engine) -> None:
    setup(engine)
    with pytest.raises(TableError, match="an RNG table"), transaction(engine) as s:
        create_card_table(s, "pb-rng", "baccarat")
        place_card_bet(s, "pb-rng", "ann", "tie", 500, key="r")
        deal_coup(s, "pb-rng", stack=["9c", "9d", "Jc", "Qs"])
    with transaction(engine) as s:
        receipt = place_card_bet(s, "pb", "ann", "Banker", 150_000, key="big")
        assert (receipt.accepted, receipt.returned) == (100_000, 50_000)  # RAY 1.1
        assert place_card_bet(s, "pb", "ann", "banker", 5, key="big").message == (
            "already placed")
    for spot, amount, message in (("dragon", 500, "no bet"), ("tie", 50, "minimum")):
        with pytest.raises(TableError, match=message), transaction(engine) as s:
            place_card_bet(s, "pb", "ann", spot, amount, key=f"x-{spot}")
    with pytest.raises(LedgerError, match="chips are not sold on credit"), \
            transaction(engine) as s:
        place_card_bet(s, "pb", "ann", "tie", 500, key="broke")
    with pytest.raises(TableError, match="no bets"), transaction(engine) as s:
        create_card_table(s, "pb-2", "punto-banco")
        deal_coup(s, "pb-2")
    with pytest.raises(TableError, match="no setting"), transaction(engine) as s:
        create_card_table(s, "pb-3", "punto-banco", {"pairs": "yes"})
    with pytest.raises(TableError, match="no card game"), transaction(engine) as s:
        create_card_table(s, "x", "roulette")
    assert wallet(engine) == 0


def test_the_shoe_continues_from_round_to_round_and_is_shuffled_at_the_cut_card(
        engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:  # one deck, the cut card 20 cards from the back
        create_card_table(s, "small", "punto-banco",
                          {"decks": "1", "cut_cards_from_back": "20"}, limit_min=100)
    records = []
    for i in range(12):
        with transaction(engine) as s:
            place_card_bet(s, "small", "ann", "player", 100, key=f"s{i}")
        with transaction(engine) as s:
            result = deal_coup(s, "small", SeededRng(i))
            records.append(json.loads(s.get(RoundRow, result.round_id).record))  # type: ignore[union-attr]
            assert recall_card_round(s, result.round_id).same
    for before, after in itertools.pairwise(records):
        if before["last_hand_before_shuffle"]:
            assert after["shuffle"] == before["shuffle"] + 1
        else:  # the same shoe, dealt on from where the last coup stopped
            assert after["shuffle_order"] == before["shuffle_order"]
            assert after["shoe_positions"][0] == before["shoe_positions"][1]
    assert records[-1]["shuffle"] >= 2


# -- blackjack -------------------------------------------------------------------------------
def bet(engine: Engine, seat: int, amount: int, player: str = "ann", table: str = "bj") -> None:
    with transaction(engine) as s:
        place_card_bet(s, table, player, str(seat), amount, key=str(uuid.uuid4()))


def wallet_of(s: object, name: str) -> int:
    return balance(s, accounts.wallet_code(name))  # type: ignore[arg-type]


def deal(engine: Engine, cards: list[str], table: str = "bj") -> BlackjackView:
    with transaction(engine) as s:
        return deal_blackjack(s, table, stack=cards)


@pytest.mark.parametrize("spot", ["03", "+3", "-3", "3.0", "seat 03", "\u0663", "\u00b2",
                                  "seat", "seat 3 4", ""])
def test_a_blackjack_seat_has_one_spelling(spot: str) -> None:
    assert [seat_of(s) for s in ("3", "seat 3", "Seat 7", " seat  1 ")] == [3, 3, 7, 1]
    with pytest.raises(TableError, match="a blackjack bet is on a seat"):
        seat_of(spot)  # "²" passed isdigit() and then broke int(): a 500


def test_a_blackjack_pays_three_to_two_at_the_deal(engine: Engine) -> None:
    setup(engine)
    bet(engine, 1, 1_000)
    view = deal(engine, ["As", "9h", "Kd", "7c"])  # ann A K; dealer 9 up, 7 in the hole
    assert view.status == "settled"
    assert [(x.spot, x.paid, x.result) for x in view.settlements] == [
        ("seat 1", 2_500, "blackjack")]
    assert wallet(engine) == 101_500
    bet(engine, 1, 1_001)  # 3:2 on an odd stake: 2502.5, the half cent recorded
    view = deal(engine, ["Ah", "9s", "Qd", "7d"])
    assert [(x.paid, str(x.rounding)) for x in view.settlements] == [(2_502, "1/2")]
    with transaction(engine) as s:
        assert json.loads(s.get(RoundRow, view.round_id).record)["rounding"] == "1/2"  # type: ignore[union-attr]


def test_double_split_and_insurance_are_debited_when_taken(engine: Engine) -> None:
    setup(engine)
    # Double: 6 5 against a 9; the double draws a ten (21); the dealer's 16 draws a ten.
    bet(engine, 1, 1_000)
    view = deal(engine, ["6h", "9s", "5d", "7c", "Th", "Tc"])
    assert view.dealer == ("9s",) and view.actions == ("hit", "stand", "double")
    with transaction(engine) as s:
        view = act(s, "bj", "ann", "double")
        assert view.status == "settled"
    assert [(x.stake, x.paid) for x in view.settlements] == [(2_000, 4_000)]
    assert wallet(engine) == 102_000
    # Split eights against a ten: hand 1 takes a 3 and doubles to 21, hand 2 stands on 18;
    # the dealer stands on 17.
    bet(engine, 1, 1_000)
    view = deal(engine, ["8h", "Ts", "8d", "7c", "3c", "Kd", "Qh"])
    with transaction(engine) as s:
        act(s, "bj", "ann", "split")
        assert wallet_of(s, "ann") == 100_000
        act(s, "bj", "ann", "double")
        view = act(s, "bj", "ann", "stand")
    assert [(x.spot, x.stake, x.paid, x.result) for x in view.settlements] == [
        ("seat 1 hand 1", 2_000, 4_000, "win"), ("seat 1 hand 2", 1_000, 2_000, "win")]
    assert wallet(engine) == 105_000
    # Insurance under an ace, and the dealer has blackjack: 2:1 on the insurance, the
    # hand loses.
    bet(engine, 1, 1_000)
    view = deal(engine, ["Th", "As", "9d", "Kc"])
    assert view.insurance_pending == (1,) and view.insurance_max == {1: 500}
    with transaction(engine) as s:
        view = insure(s, "bj", "ann", 1, 500)
    assert [(x.spot, x.stake, x.paid) for x in view.settlements] == [
        ("seat 1 insurance", 500, 1_500), ("seat 1", 1_000, 0)]
    assert wallet(engine) == 105_000
    # Insurance lost: the dealer's A 6 is a soft 17 and stands; 19 wins.
    bet(engine, 1, 1_000)
    deal(engine, ["Th", "As", "9d", "6c"])
    with transaction(engine) as s:
        insure(s, "bj", "ann", 1, 500)
        view = act(s, "bj", "ann", "stand")
    assert view.dealer == ("As", "6c")
    assert wallet(engine) == 105_500
    with transaction(engine) as s:
        keys = {t.key for t in s.scalars(select(Transfer).where(Transfer.kind == "stake"))}
        assert {k.split(":")[0] for k in keys} == {"stake", "double", "split", "insure"}
        for row in s.scalars(select(RoundRow).where(RoundRow.status == "settled")):
            assert recall_card_round(s, row.id).same
        assert check(s).ok and verify_audit(s).ok


def test_a_double_without_the_money_is_refused_and_changes_nothing(engine: Engine) -> None:
    setup(engine, money=1_500)
    bet(engine, 1, 1_000)
    deal(engine, ["6h", "9s", "5d", "7c", "Th", "Tc"])
    with transaction(engine) as s:
        before = s.scalars(select(RoundRow).where(RoundRow.status == "playing")).one().record
    with pytest.raises(TableError, match="not sold on credit"), transaction(engine) as s:
        act(s, "bj", "ann", "double")
    with transaction(engine) as s:
        row = s.scalars(select(RoundRow).where(RoundRow.status == "playing")).one()
        assert row.record == before and wallet_of(s, "ann") == 500
        view = blackjack_view(s, "bj")
        assert view is not None and view.actions == ("hit", "stand", "double")
        view = act(s, "bj", "ann", "double", 500)  # for less (GGPoker III 2.6)
    assert [(x.stake, x.paid) for x in view.settlements] == [(1_500, 3_000)]
    assert wallet(engine) == 3_000


def test_only_the_player_whose_turn_it_is_decides(engine: Engine) -> None:
    setup(engine, ("ann", "bob"))
    bet(engine, 1, 1_000)
    bet(engine, 2, 1_000, "bob")
    with pytest.raises(TableError, match="taken by ann"), transaction(engine) as s:
        place_card_bet(s, "bj", "bob", "seat 1", 1_000, key="steal")
    view = deal(engine, ["Th", "9h", "Tc", "6d", "Ks", "7s"])  # ann T 6, bob 9 K, dealer T 7
    assert (view.turn, view.to_act) == ((1, 1), "ann")
    for who, message in (("bob", "ann's turn"),):
        with pytest.raises(TableError, match=message), transaction(engine) as s:
            act(s, "bj", who, "hit")
    with pytest.raises(TableError, match="in play"), transaction(engine) as s:
        place_card_bet(s, "bj", "bob", "3", 1_000, key="late")
    with transaction(engine) as s:
        view = act(s, "bj", "ann", "stand")
        assert view.to_act == "bob"
        view = act(s, "bj", "bob", "stand")  # dealer T 7: 17; ann 16 loses, bob 19 wins
    assert [(x.player, x.paid) for x in view.settlements] == [("ann", 0), ("bob", 2_000)]


def play_out(engine: Engine, table: str, player: str) -> None:
    """A simple player: insurance declined, hit under 15, otherwise stand."""
    with transaction(engine) as s:
        view = blackjack_view(s, table)
        if view is None:
            return
        if view.insurance_pending:
            insure(s, table, player, view.insurance_pending[0], 0)
        elif view.turn is not None:
            hand = next(h for h in view.hands if (h.seat, h.hand) == view.turn)
            act(s, table, player, "hit" if hand.total < 15 and "hit" in view.actions
                else "stand")


def test_a_round_in_play_resumes_after_a_restart(engine: Engine) -> None:
    """Two tables with the same seeded shoe: one played straight through, the other
    with the server restarted (a new engine object on the same database) between every
    decision. The cards and the payouts are the same."""
    setup(engine, ("ann", "bob"))
    url = engine.url.render_as_string(hide_password=False)
    with transaction(engine) as s:
        create_card_table(s, "bj-a", "blackjack", limit_min=100)
        create_card_table(s, "bj-b", "blackjack", limit_min=100)
    results: dict[str, list[object]] = {}
    for table, player in (("bj-a", "ann"), ("bj-b", "bob")):
        current = engine
        for i in range(6):
            with transaction(current) as s:
                place_card_bet(s, table, player, "1", 1_000, key=f"{table}-{i}")
            with transaction(current) as s:
                round_id = deal_blackjack(s, table, SeededRng(11)).round_id
            for _ in range(10):
                if table == "bj-b":  # the restart
                    if current is not engine:
                        current.dispose()
                    current = make_engine(url)
                play_out(current, table, player)
            with transaction(current) as s:
                row = s.get(RoundRow, round_id)
                assert row is not None and row.status == "settled"
                record = json.loads(row.record)
                results.setdefault(table, []).append(
                    (record["cards"], record["decisions"],
                     [(x["paid"], x["result"]) for x in record["settlements"]]))
                assert recall_card_round(s, round_id).same
    if current is not engine:
        current.dispose()
    assert results["bj-a"] == results["bj-b"]
    assert any(decisions for _cards, decisions, _paid in results["bj-a"])  # type: ignore[misc]
    assert wallet(engine, "ann") == wallet(engine, "bob")


def test_recovery_stands_the_open_hands_of_a_stale_round(engine: Engine) -> None:
    setup(engine)
    bet(engine, 1, 1_000)
    bet(engine, 2, 1_000)
    deal(engine, ["Th", "Ac", "9s", "6d", "8h", "6h", "6c", "Td"])  # T 6, A 8; dealer 9 6
    with transaction(engine) as s:
        act(s, "bj", "ann", "hit")  # seat 1 hits a 6c: 22, bust
        assert recover_card_rounds(s) == []  # seat 2's time to decide is not over
        for row in s.scalars(select(RoundRow)):
            row.deadline = row.opened_at - timedelta(hours=1)
    with transaction(engine) as s:
        [(round_id, action)] = recover_card_rounds(s)
        assert action == "settled, open hands stood"
        record = json.loads(s.get(RoundRow, round_id).record)  # type: ignore[union-attr]
        # Seat 2's soft 19 stood; the dealer's 9 6 drew a ten: 25, bust.
        assert record["decisions"] == [["hit", None], ["stand", None]]
        assert [x["paid"] for x in record["settlements"]] == [0, 2_000]
        assert recall_card_round(s, round_id).same
    assert wallet(engine) == 100_000
    # An open round with bets and no deal is dealt and completed the same way; an open
    # punto banco round is dealt.
    bet(engine, 1, 1_000)
    with transaction(engine) as s:
        place_card_bet(s, "pb", "ann", "player", 1_000, key="pb-open")
        done = recover_card_rounds(s, SeededRng(1), everything=True)
        assert len(done) == 2
        assert {s.get(RoundRow, r).status for r, _ in done} == {"settled"}  # type: ignore[union-attr]
        assert check(s).ok


def _due(engine: Engine, seconds_ago: float) -> None:
    """The decision waited for was due ``seconds_ago`` (the table gives each 15 s)."""
    with transaction(engine) as s:
        for row in s.scalars(select(RoundRow).where(RoundRow.status == "playing")):
            row.deadline = datetime.now(UTC) - timedelta(seconds=seconds_ago)


def test_a_decision_past_its_time_stands_and_an_offer_past_it_is_declined(
        engine: Engine) -> None:
    """RULINGS (GGPoker III 3.5.2-3.5.3, 3.7): each decision and the insurance offer has
    15 s (the ``decision_seconds`` setting); unanswered, the hand stands and insurance
    is declined, each next decision timed from the end of the last. A decision sent
    after its time is not made: the answer says how many the time limit made."""
    setup(engine)
    start = datetime.now(UTC)
    bet(engine, 1, 1_000)
    bet(engine, 2, 1_000)
    view = deal(engine, ["Th", "Ac", "9s", "6d", "8h", "6h", "6c", "Td"])  # T 6, A 8; 9 6
    assert view.deadline is not None
    assert start + timedelta(seconds=15) <= view.deadline <= datetime.now(UTC) + timedelta(
        seconds=15)
    # the time left, as every answer gives it: counted from the deadline, never below 0
    assert view.seconds_left(view.deadline - timedelta(seconds=15)) == 15.0
    assert view.seconds_left(view.deadline + timedelta(seconds=3)) == 0.0
    _due(engine, 1)  # seat 1's time ran out a second ago: it stands; seat 2 has 14 s
    with transaction(engine) as s:
        view = act(s, "bj", "ann", "hit")
    assert view.timed_out == 1 and view.status == "playing" and view.turn == (2, 1)
    assert view.hands[0].cards == ("Th", "6d")  # the late hit was not made
    _due(engine, 0)
    with transaction(engine) as s:
        assert overdue_decisions(s) == [view.round_id]
        assert time_out_round(s, view.round_id) == 1  # the sweep: seat 2 stands too
        assert time_out_round(s, view.round_id) is None  # settled: nothing left
        record = json.loads(s.get(RoundRow, view.round_id).record)  # type: ignore[union-attr]
        assert record["decisions"] == [["stand", None], ["stand", None]]
        # Nobody hit, so the dealer's 9 6 draws the 6c (the card a hit would have taken):
        # 21 beats 16 and 19.
        assert [x["paid"] for x in record["settlements"]] == [0, 0]
        assert recall_card_round(s, view.round_id).same
    # Two decisions' time gone at once: both stand at the next request.
    bet(engine, 1, 1_000)
    bet(engine, 2, 1_000)
    view = deal(engine, ["Th", "Ac", "9s", "6d", "8h", "6h", "6c", "Td"])
    _due(engine, 16)
    with transaction(engine) as s:
        view = act(s, "bj", "ann", "stand")
    assert view.timed_out == 2 and view.status == "settled"
    # The insurance offer past its time: declined, nothing staked; the hand then has
    # its own 15 s.
    bet(engine, 1, 1_000)
    before = wallet(engine)
    view = deal(engine, ["Th", "As", "9d", "6c"])
    assert view.insurance_pending == (1,)
    _due(engine, 1)
    with transaction(engine) as s:
        view = insure(s, "bj", "ann", 1, 500)
        assert view.timed_out == 1 and view.insurance_pending == () and view.turn == (1, 1)
        assert view.deadline is not None and view.deadline > datetime.now(UTC)
    assert wallet(engine) == before
    with transaction(engine) as s:
        view = act(s, "bj", "ann", "stand")
        assert view.timed_out == 0 and view.status == "settled"
        assert check(s).ok and verify_audit(s).ok


def test_recovery_voids_a_round_the_engine_cannot_finish(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    setup(engine)
    bet(engine, 1, 1_000)
    deal(engine, ["Th", "9s", "6d", "7c", "Tc"])  # T 6 against 9 7: stood, the dealer wins
    real = card_rounds._stand_out

    def broken(session: Session, table: GameTable, row: RoundRow) -> None:
        real(session, table, row)  # settled and paid, then a failure: all of it undone
        raise TableError("the shoe is empty")

    monkeypatch.setattr(card_rounds, "_stand_out", broken)
    with transaction(engine) as s:
        [(round_id, action)] = recover_card_rounds(s, everything=True)
        assert action == "void"
    with transaction(engine) as s:
        row = s.get(RoundRow, round_id)
        assert row is not None and row.status == "void"
        assert "cannot be completed: the shoe is empty" in json.loads(row.record)["void_reason"]
        assert wallet_of(s, "ann") == 100_000 and check(s).ok and verify_audit(s).ok


def test_a_void_refunds_every_stake_taken(engine: Engine) -> None:
    setup(engine)
    bet(engine, 1, 1_000)
    deal(engine, ["8h", "Ts", "8d", "7c", "3c", "Kd", "Qh"])
    with transaction(engine) as s:
        act(s, "bj", "ann", "split")
        act(s, "bj", "ann", "double")  # 3 000 on the table
        assert wallet_of(s, "ann") == 97_000
    with pytest.raises(TableError, match="reason"), transaction(engine) as s:
        void_card_round(s, "bj", "", "floor")
    with transaction(engine) as s:
        round_id = void_card_round(s, "bj", "card scanner fault", "floor")
        assert wallet_of(s, "ann") == 100_000
        assert s.get(RoundRow, round_id).status == "void"  # type: ignore[union-attr]
        assert recall_card_round(s, round_id).same
        bet_row = s.scalars(select(BetRow).where(BetRow.round_id == round_id)).one()
        assert (bet_row.stake, bet_row.paid, bet_row.result) == (3_000, 3_000, "refund")
    with transaction(engine) as s:  # the next round deals on after the discarded cards
        place_card_bet(s, "bj", "ann", "1", 1_000, key="next")
        view = deal_blackjack(s, "bj")
        record = json.loads(s.get(RoundRow, view.round_id).record)  # type: ignore[union-attr]
        void_record = json.loads(s.get(RoundRow, round_id).record)  # type: ignore[union-attr]
        assert record["shoe_positions"][0] == void_record["shoe_positions"][1]
    with transaction(engine) as s:
        place_card_bet(s, "pb", "ann", "tie", 1_000, key="pb-void")
        void_card_round(s, "pb", "power cut", "floor")
        with pytest.raises(TableError, match="no round"):
            void_card_round(s, "pb", "again", "floor")
        refund = s.scalars(select(Transfer).where(Transfer.key.like("refund:%:1"))
                           .order_by(Transfer.id.desc())).first()
        assert refund is not None and refund.amount == 1_000
        assert check(s).ok


def test_recall_catches_an_edited_record(engine: Engine) -> None:
    setup(engine)
    coup(engine, [("banker", 1_000)], ["Tc", "9h", "2d", "Th"])
    bet(engine, 1, 1_000)
    deal(engine, ["6h", "9s", "5d", "7c", "Th", "Tc"])
    with transaction(engine) as s:
        act(s, "bj", "ann", "double")
    with transaction(engine) as s:
        rows = s.scalars(select(RoundRow).order_by(RoundRow.id)).all()
        for row, edit in ((rows[0], "paid"), (rows[0], "card"), (rows[1], "decision"),
                          (rows[1], "card")):
            original = row.record
            record = json.loads(original)
            if edit == "paid":
                record["settlements"][0]["paid"] += 100
            elif edit == "decision":
                record["decisions"] = [["stand", None]]
            elif row == rows[0]:  # another ten: the same coup, but not the shoe's card
                record["cards"][3][1] = "Ks"
            else:
                record["cards"][4] = "Js"
            row.record = json.dumps(record)
            assert not recall_card_round(s, row.id).same, edit
            row.record = original
            assert recall_card_round(s, row.id).same


def test_many_random_rounds_keep_the_ledger_and_the_audit_chain(engine: Engine) -> None:
    players = ("ann", "bob", "cid")
    setup(engine, players)
    with transaction(engine) as s:
        create_card_table(s, "pb-r", "punto-banco", {"decks": "2"}, limit_min=100)
        create_card_table(s, "bj-r", "blackjack", {"decks": "2"}, limit_min=100)
    chooser = random.Random(5)
    for i in range(40):
        with transaction(engine) as s:
            for name in players:
                if chooser.random() < 0.7:
                    place_card_bet(s, "pb-r", name, chooser.choice(["player", "banker", "tie"]),
                                   chooser.choice([100, 505, 1_000, 2_555]), key=f"p{i}{name}")
            for seat, name in enumerate(players, start=1):
                if chooser.random() < 0.7:
                    place_card_bet(s, "bj-r", name, str(seat), chooser.choice([100, 501, 2_000]),
                                   key=f"b{i}{name}")
        with contextlib.suppress(TableError), transaction(engine) as s:
            deal_coup(s, "pb-r", SeededRng(i))  # refused when nobody bet
        try:
            with transaction(engine) as s:
                deal_blackjack(s, "bj-r", SeededRng(i))
        except TableError:
            continue
        for _ in range(200):
            with transaction(engine) as s:
                view = blackjack_view(s, "bj-r")
            if view is None:
                break
            try:
                with transaction(engine) as s:
                    if view.insurance_pending:
                        seat = view.insurance_pending[0]
                        player = players[seat - 1]
                        insure(s, "bj-r", player, seat,
                               chooser.choice([0, view.insurance_max[seat]]))
                    else:
                        assert view.to_act is not None
                        act(s, "bj-r", view.to_act, chooser.choice(view.actions))
            except LedgerError:
                pass  # a double or split the wallet cannot pay: refused, nothing changed
        if i == 20:
            with transaction(engine) as s:
                recover_card_rounds(s, SeededRng(0), everything=True)
    with transaction(engine) as s:
        recover_card_rounds(s, SeededRng(0), everything=True)
    with transaction(engine) as s:
        report = check(s)
        assert report.ok, report.problems
        assert verify_audit(s).ok
        total = sum(wallet_of(s, name) for name in players) + balance(s, "house:bank")
        assert total == HOUSE + 100_000 * len(players)  # money conserved
        taken = s.scalars(select(Transfer).where(Transfer.kind == "stake")).all()
        assert {t.key.split(":")[0] for t in taken} == {"stake", "double", "split", "insure"}
        stakes = sum(t.amount for t in taken)
        paid = sum(t.amount for t in s.scalars(select(Transfer).where(
            Transfer.kind.in_(("win", "refund")))))
        assert balance(s, "house:bank") == HOUSE + stakes - paid
        rows = s.scalars(select(RoundRow)).all()
        assert {r.status for r in rows} <= {"settled", "void", "open"}
        settled = [r for r in rows if r.status == "settled"]
        assert len(settled) > 40
        for row in settled:
            assert recall_card_round(s, row.id).same
            bets = s.scalars(select(BetRow).where(BetRow.round_id == row.id)).all()
            record = json.loads(row.record)
            assert sum(b.paid or 0 for b in bets) == sum(x["paid"] for x in record["settlements"])


# -- the terminal ----------------------------------------------------------------------------
runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    from pelisali.cli.main import app

    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, " ".join(result.output.split())


@pytest.fixture
def cli_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "casino.db"
    monkeypatch.setenv("PELISALI_DATABASE_URL", f"sqlite:///{path}")
    assert run("account", "create", "ann", "--born", "1990-05-01", "--country", "FI")[0] == 0
    assert run("wallet", "deposit", "ann", "1000")[0] == 0
    assert run("house", "fund", "100000", "--staff", "owner")[0] == 0
    return path


def test_punto_banco_at_the_terminal_on_the_wallet(cli_database: Path) -> None:
    code, out = run("play", "baccarat", "--account", "ann", "--seed", "4",
                    stdin="bet banker 10\nbet tie 5\nbet dragon 5\ndeal\nbalance\ndeal\nquit\n")
    assert code == 0, out
    assert "ann at table punto-banco-terminal: balance 1000.00" in out
    assert "no bet 'dragon'" in out and "no bets on the table" in out
    assert "player " in out and "banker " in out and "paid" in out
    engine = make_engine(f"sqlite:///{cli_database}")
    with transaction(engine) as s:
        [row] = s.scalars(select(RoundRow)).all()
        paid = sum(x["paid"] for x in json.loads(row.record)["settlements"])
        assert wallet_of(s, "ann") == 100_000 - 1_500 + paid
        assert f"balance {format_cents(wallet_of(s, 'ann'))}" in out
        assert check(s).ok
    assert run("ledger", "check")[0] == 0
    code, out = run("recall", str(row.id))
    assert code == 0 and "replay gives the same settlement" in out
    code, out = run("report", "day", "--date", row.gaming_day.isoformat(), "--json")
    [day] = json.loads(out)
    assert (day["game"], day["rounds"], day["staked"]) == ("punto-banco", 1, 1_500)
    # banker 10.00 and tie 5.00 weighed by their exact full-shoe RTP (8 decks)
    rtp = baccarat_odds(full_shoe(8)).rtp
    assert Fraction(day["theoretical_rtp"]) == (1_000 * rtp["banker"] + 500 * rtp["tie"]) / 1_500
    assert 0.945 < float(Fraction(day["theoretical_rtp"])) < 0.946


def test_blackjack_at_the_terminal_resumes_a_round_left_in_play(cli_database: Path) -> None:
    engine = make_engine(f"sqlite:///{cli_database}")
    for seed in range(50):  # a seed whose first round waits for a decision
        code, out = run("play", "blackjack", "--account", "ann", "--seed", str(seed),
                        "--table", f"bj-{seed}", stdin="bet 1 10\nbet 2 10\ndeal\nquit\n")
        assert code == 0, out
        with transaction(engine) as s:
            if s.scalars(select(RoundRow).where(RoundRow.status == "playing")).first():
                break
    assert "Seat 1:" in out and "a card face down" in out
    script = "no\n" + "stand\n" * 4 + "balance\nquit\n"
    code, out = run("play", "blackjack", "--account", "ann", "--table", f"bj-{seed}",
                    stdin=script)
    assert code == 0, out
    assert "resuming where it stopped" in out and "Dealer:" in out and "paid" in out
    with transaction(engine) as s:
        assert s.scalars(select(RoundRow).where(RoundRow.status == "playing")).first() is None
        assert check(s).ok and verify_audit(s).ok


def test_blackjack_at_the_terminal_says_the_time_ran_out(cli_database: Path) -> None:
    """The terminal names each decision's time; a player back after it is told the hand
    stood for them, and their late decision was not made."""
    engine = make_engine(f"sqlite:///{cli_database}")
    for seed in range(50):  # a seed whose first round waits for a decision
        code, out = run("play", "blackjack", "--account", "ann", "--seed", str(seed),
                        "--table", f"bt-{seed}", stdin="bet 1 10\ndeal\nquit\n")
        assert code == 0, out
        with transaction(engine) as s:
            waiting = s.scalars(select(RoundRow).where(RoundRow.status == "playing")).first()
            if waiting is not None:
                waiting.deadline = datetime.now(UTC) - timedelta(seconds=1)
                break
    assert "s to decide, then the hand stands" in out
    assert "Each decision and the insurance offer has 15 s" in out
    code, out = run("play", "blackjack", "--account", "ann", "--table", f"bt-{seed}",
                    stdin="hit\nquit\n")
    assert code == 0, out
    assert "The time to decide ran out: 1 decision made for you" in out
    assert "resuming where it stopped" not in out and "Dealer:" in out


def test_the_operators_void_and_recover_reach_card_tables(cli_database: Path) -> None:
    """`table void` and `table recover --all` act on card tables as on the wheels: a
    punto banco round with bets is voided and refunded, a blackjack round left in play
    after a crash is finished."""
    engine = make_engine(f"sqlite:///{cli_database}")
    with transaction(engine) as s:
        create_card_table(s, "pb-ops", "punto-banco")
        place_card_bet(s, "pb-ops", "ann", "banker", 1_000, "ops-1")
    code, out = run("table", "void", "pb-ops", "--reason", "shoe dropped", "--staff", "floor")
    assert code == 0 and "every stake refunded" in out, out
    for seed in range(50):  # a blackjack round that waits for a decision, then "a crash"
        code, out = run("play", "blackjack", "--account", "ann", "--seed", str(seed),
                        "--table", f"ops-{seed}", stdin="bet 1 10\ndeal\nquit\n")
        with transaction(engine) as s:
            if s.scalars(select(RoundRow).where(RoundRow.status == "playing")).first():
                break
    code, out = run("table", "recover", "--all")
    assert code == 0 and "1 round(s) finished" in out, out
    with transaction(engine) as s:
        assert s.scalars(select(RoundRow).where(RoundRow.status == "playing")).first() is None
        assert balance(s, "player:ann") in range(1, 10**9) and check(s).ok
        assert verify_audit(s).ok
