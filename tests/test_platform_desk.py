"""Bet slips, the live table's desk (many players' slips in one transaction), the bets'
reconciliation with the ledger and the rounding account, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from datetime import date

import pytest
from dbfixtures import Fixed
from sqlalchemy import Engine, func, select

from pelisali.platform import accounts
from pelisali.platform.db import transaction
from pelisali.platform.desk import TableDesk
from pelisali.platform.ledger import LedgerError, balance, check, move, verify_audit
from pelisali.platform.models import BetRow, Transfer
from pelisali.platform.rounds import (
    TableError,
    create_table,
    place_bets,
    reconcile_bets,
    settle,
    void,
)

PLAYERS = tuple(f"p{n}" for n in range(16))


def setup(engine: Engine, players: tuple[str, ...] = ("ann",), wallet: int = 100_000,
          variant: str = "C", settings: dict[str, str | bool] | None = None) -> None:
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", 10_000_000, "funding")
        for name in players:
            accounts.register(s, name, date(1990, 1, 1), "FI")
            accounts.deposit(s, name, wallet, key=f"d-{name}")
        create_table(s, "t1", "roulette", variant, settings=settings, mode="live",
                     limit_min=100, limit_max=50_000)


def transfers(s: object, kind: str) -> list[Transfer]:
    return list(s.scalars(select(Transfer).where(Transfer.kind == kind)  # type: ignore[attr-defined]
                          .order_by(Transfer.id)))


def test_a_slip_is_one_stake_and_a_rounds_payouts_one_win(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        receipts = place_bets(s, "t1", "ann", [("red", 1_000), ("straight 17", 200),
                                                ("dozen 2", 300)], key="slip-1")
        assert [r.accepted for r in receipts] == [1_000, 200, 300]
        assert balance(s, "player:ann") == 100_000 - 1_500
        [stake] = transfers(s, "stake")
        assert (stake.key, stake.amount) == ("stake:slip-1", 1_500)
        assert [b.key for b in s.scalars(select(BetRow).order_by(BetRow.number))] == [
            "slip-1/0", "slip-1/1", "slip-1/2"]
    with transaction(engine) as s:  # 17 is black, in the second dozen
        settle(s, "t1", Fixed(17))
        [win] = transfers(s, "win")
        # red loses; 17 pays 35:1 with the stake (7,200); the dozen 2:1 (900)
        assert (win.key, win.amount) == (f"settle:{win.round_id}:ann", 8_100)
        assert balance(s, "player:ann") == 100_000 - 1_500 + 8_100
        assert reconcile_bets(s).ok and check(s).ok and verify_audit(s).ok


def test_a_retried_slip_is_placed_once_and_a_reused_key_is_refused(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        first = place_bets(s, "t1", "ann", [("red", 1_000), ("odd", 500)], key="k")
    with transaction(engine) as s:
        again = place_bets(s, "t1", "ann", [("red", 1_000), ("odd", 500)], key="k")
        assert [(r.bet_id, r.accepted, r.message) for r in again] == [
            (first[0].bet_id, 1_000, "already placed"), (first[1].bet_id, 500, "already placed")]
        assert balance(s, "player:ann") == 98_500
    for other in ([("red", 1_000)], [("black", 1_000), ("odd", 500)],
                  [("red", 1_000), ("odd", 500), ("low", 100)]):
        with pytest.raises(TableError, match="different bet"), transaction(engine) as s:
            place_bets(s, "t1", "ann", other, key="k")
    with transaction(engine) as s:
        assert balance(s, "player:ann") == 98_500 and len(transfers(s, "stake")) == 1


@pytest.mark.parametrize(("bets", "message"), [
    ([], "at least one bet"),
    ([("red", 1_000), ("nowhere", 100)], "no betting spot"),
    ([("red", -100)], "positive"),
    ([("red", 50)], "minimum"),
    ([("red", 50_000), ("black", 50_000), ("odd", 100)], "no credit"),
])
def test_a_bad_slip_is_refused_whole_and_changes_nothing(
        engine: Engine, bets: list[tuple[str, int]], message: str) -> None:
    setup(engine)
    with pytest.raises(LedgerError, match=message), transaction(engine) as s:
        place_bets(s, "t1", "ann", bets, key="bad")
    with transaction(engine) as s:
        assert balance(s, "player:ann") == 100_000
        assert s.scalar(select(func.count()).select_from(BetRow)) == 0
        assert transfers(s, "stake") == []


def test_fractions_of_a_cent_go_whole_to_the_rounding_account(engine: Engine) -> None:
    """Roulette D with la partage: on zero an even-chance bet gets half its stake back,
    paid down to the cent (RULINGS "Everywhere"). Three half cents are one cent to the
    rounding account and a half cent written in the record."""
    setup(engine, variant="D", settings={"zero_rule": "la_partage"})
    with transaction(engine) as s:
        place_bets(s, "t1", "ann", [("red", 101), ("black", 103), ("odd", 105)], key="s")
    with transaction(engine) as s:
        round_id, settled = settle(s, "t1", Fixed(0))
        assert [x.paid for x in settled] == [50, 51, 52]
        [kept] = transfers(s, "rounding")
        assert (kept.key, kept.amount) == (f"rounding:{round_id}", 1)
        assert balance(s, "rounding:house") == 1
        assert balance(s, "player:ann") == 100_000 - 309 + 153
        assert check(s).ok and reconcile_bets(s).ok


def test_the_desk_takes_every_players_slip_and_settles_the_round(engine: Engine) -> None:
    setup(engine, PLAYERS)
    desk = TableDesk(engine, "t1")
    try:
        futures = [desk.submit(p, [("red", 1_000), ("straight 5", 100)], key=f"{p}-1")
                   for p in PLAYERS]
        assert all(f.result(60).refused is None for f in futures)
        round_id, settled = desk.spin(Fixed(5))  # 5 is red
        assert len(settled) == 32
        assert desk.round_id != round_id  # the next round is open
    finally:
        desk.close()
    with transaction(engine) as s:
        for p in PLAYERS:  # red 1:1 with the stake, straight 35:1 with the stake
            assert balance(s, f"player:{p}") == 100_000 - 1_100 + 2_000 + 3_600
        assert len(transfers(s, "stake")) == 16 and len(transfers(s, "win")) == 16
        assert check(s).ok and verify_audit(s).ok and reconcile_bets(s).ok


def test_the_desk_refuses_one_slip_and_takes_the_others(engine: Engine) -> None:
    setup(engine, ("ann", "bob", "cid"))
    with transaction(engine) as s:
        accounts.exclude(s, "cid", 7)
        accounts.withdraw(s, "bob", 96_000, key="w-bob")
    desk = TableDesk(engine, "t1")
    try:
        start = threading.Barrier(3)
        answers: dict[str, object] = {}

        def send(player: str, amount: int) -> None:
            start.wait()
            try:
                answers[player] = sum(r.accepted for r in desk.bet(player, [("red", amount)],
                                                                    key=player))
            except LedgerError as exc:
                answers[player] = str(exc)

        threads = [threading.Thread(target=send, args=args)
                   for args in (("ann", 5_000), ("bob", 5_000), ("cid", 100))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert answers["ann"] == 5_000
        assert "no credit" in str(answers["bob"]) and "self-excluded" in str(answers["cid"])
        desk.spin(Fixed(2))  # black: ann loses
    finally:
        desk.close()
    with transaction(engine) as s:
        assert [balance(s, f"player:{p}") for p in ("ann", "bob", "cid")] == [
            95_000, 4_000, 100_000]
        assert check(s).ok and reconcile_bets(s).ok


def test_the_desk_reads_the_round_again_after_a_void_from_elsewhere(engine: Engine) -> None:
    setup(engine, ("ann", "bob"))
    desk = TableDesk(engine, "t1")
    try:
        desk.bet("ann", [("red", 1_000)], key="a1")
        with transaction(engine) as s:  # staff void the round through the command line
            voided = void(s, "t1", "the ball left the wheel", "dealer")
        assert voided == desk.round_id
        desk.bet("bob", [("black", 2_000)], key="b1")  # goes to the new round
        round_id, settled = desk.spin(Fixed(2))
        assert round_id != voided
        assert [(x.player, x.paid) for x in settled] == [("bob", 4_000)]
    finally:
        desk.close()
    with transaction(engine) as s:
        assert balance(s, "player:ann") == 100_000 and balance(s, "player:bob") == 102_000
        assert check(s).ok and reconcile_bets(s).ok and verify_audit(s).ok


def test_the_audit_chain_catches_an_edited_transfer(engine: Engine) -> None:
    """Each batch's audit entry seals its transfers' contents: a transfer edited in the
    database afterwards (a win made larger) breaks the verification."""
    from sqlalchemy import update

    setup(engine)
    with transaction(engine) as s:
        place_bets(s, "t1", "ann", [("red", 1_000), ("odd", 500)], key="s1")
    with transaction(engine) as s:
        settle(s, "t1", Fixed(1))
        assert verify_audit(s).ok
    with transaction(engine) as s:
        s.execute(update(Transfer).where(Transfer.kind == "win").values(amount=9_999))
    with transaction(engine) as s:
        report = verify_audit(s)
        assert not report.ok
        assert any("not what it sealed" in p for p in report.problems)


def test_staff_close_a_table_only_without_bets_and_set_its_limits(engine: Engine) -> None:
    from pelisali.platform.rounds import set_table

    setup(engine)
    with transaction(engine) as s:
        place_bets(s, "t1", "ann", [("red", 1_000)], key="a")
    with pytest.raises(TableError, match="has bets"), transaction(engine) as s:
        set_table(s, "t1", "floor", status="closed")
    with transaction(engine) as s:
        settle(s, "t1", Fixed(3))
        set_table(s, "t1", "floor", status="closed")
    with pytest.raises(TableError, match="closed"), transaction(engine) as s:
        place_bets(s, "t1", "ann", [("red", 1_000)], key="b")
    with transaction(engine) as s:
        set_table(s, "t1", "floor", status="open", limit_min=2_000)
    with pytest.raises(TableError, match="minimum"), transaction(engine) as s:
        place_bets(s, "t1", "ann", [("red", 1_000)], key="c")
    with transaction(engine) as s:
        assert place_bets(s, "t1", "ann", [("red", 2_000)], key="d")[0].accepted == 2_000
        assert verify_audit(s).ok


def test_the_desk_answers_a_retried_slip_with_its_first_receipts(engine: Engine) -> None:
    setup(engine, ("ann", "bob"))
    desk = TableDesk(engine, "t1")
    try:
        first = desk.bet("ann", [("red", 1_000), ("odd", 500)], key="a1")
        # the retry arrives in one batch with bob's new slip: both get their answers
        retry = desk.submit("ann", [("red", 1_000), ("odd", 500)], key="a1")
        fresh = desk.submit("bob", [("black", 700)], key="b1")
        assert [r.bet_id for r in retry.result(60).receipts] == [r.bet_id for r in first]
        assert fresh.result(60).refused is None
        with pytest.raises(TableError, match="different bet"):
            desk.bet("ann", [("black", 1_000)], key="a1")
    finally:
        desk.close()
    with transaction(engine) as s:
        assert balance(s, "player:ann") == 98_500 and balance(s, "player:bob") == 99_300
        assert check(s).ok and reconcile_bets(s).ok
