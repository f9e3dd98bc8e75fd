"""Persistent tables: bets, settlements, voids, recovery, history and recall, on
SQLite and PostgreSQL."""

from __future__ import annotations

import json
import threading
from datetime import date, timedelta

import pytest
from dbfixtures import Fixed
from sqlalchemy import Engine, select

from pelisali.platform import accounts
from pelisali.platform.db import transaction
from pelisali.platform.ledger import LedgerError, balance, check, move, verify_audit
from pelisali.platform.models import RoundRow
from pelisali.platform.rounds import (
    TableError,
    create_table,
    history,
    place_bet,
    recall,
    recover,
    settle,
    void,
)
from pelisali.rng import SeededRng


def setup(engine: Engine, players: tuple[str, ...] = ("ann",)) -> None:
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", 10_000_000, "funding")
        for name in players:
            accounts.register(s, name, date(1990, 1, 1), "FI")
            accounts.deposit(s, name, 100_000, key=f"d-{name}")
        create_table(s, "r1", "roulette", "C", limit_min=100, limit_max=50_000)


def test_bets_are_debited_when_accepted_and_paid_at_settlement(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        assert place_bet(s, "r1", "ann", "red", 1_000, key="b1").accepted == 1_000
        assert place_bet(s, "r1", "ann", "straight 17", 500, key="b2").accepted == 500
        # The same request again is the same bet, debited once.
        assert place_bet(s, "r1", "ann", "red", 1_000, key="b1").message == "already placed"
        assert balance(s, "player:ann") == 98_500
    with transaction(engine) as s:
        round_id, settled = settle(s, "r1", Fixed(17))  # 17 is black: red loses
        assert [(x.spot, x.paid, x.result) for x in settled] == [
            ("red", 0, "lose"), ("straight 17", 18_000, "win")]  # 35:1 plus the stake
        assert balance(s, "player:ann") == 116_500
        assert recall(s, round_id).same
    with transaction(engine) as s:
        assert check(s).ok and verify_audit(s).ok
        [(row, bet), *_] = history(s, "ann")
        assert (row.id, bet.spot, bet.paid) == (round_id, "straight 17", 18_000)


def test_limits_and_refusals_change_nothing(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        receipt = place_bet(s, "r1", "ann", "red", 60_000, key="big")
        assert (receipt.accepted, receipt.returned) == (50_000, 10_000)  # the excess is void
        assert balance(s, "player:ann") == 50_000
    for spot, amount, message in (("black", 50, "minimum"), ("nowhere", 500, "no betting spot"),
                                  ("red", 60_000, "holds")):
        with pytest.raises(LedgerError, match=message), transaction(engine) as s:
            place_bet(s, "r1", "ann", spot, amount, key=f"x-{spot}-{amount}")
    with pytest.raises(TableError, match="different bet"), transaction(engine) as s:
        place_bet(s, "r1", "ann", "black", 1_000, key="big")
    with transaction(engine) as s:
        accounts.exclude(s, "ann", 7)
    with pytest.raises(accounts.Refused, match="self-excluded"), transaction(engine) as s:
        place_bet(s, "r1", "ann", "red", 500, key="late")
    with transaction(engine) as s:
        assert balance(s, "player:ann") == 50_000 and check(s).ok
    with pytest.raises(TableError, match="exists"), transaction(engine) as s:
        create_table(s, "r1", "roulette", "C")


def test_a_void_round_refunds_every_stake_once(engine: Engine) -> None:
    setup(engine, ("ann", "bob"))
    with transaction(engine) as s:
        place_bet(s, "r1", "ann", "red", 1_000, key="a")
        place_bet(s, "r1", "bob", "dozen 2", 2_000, key="b")
    with transaction(engine) as s:
        round_id = void(s, "r1", "mis-spin: the ball left the wheel", "dealer")
    with transaction(engine) as s:
        assert balance(s, "player:ann") == balance(s, "player:bob") == 100_000
        assert s.get(RoundRow, round_id).status == "void"  # type: ignore[union-attr]
        with pytest.raises(TableError, match="is void"):
            settle(s, "r1", round_id=round_id)
        assert check(s).ok


def test_recovery_completes_rounds_past_their_deadline(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        place_bet(s, "r1", "ann", "red", 1_000, key="a")
    with transaction(engine) as s:
        assert recover(s) == []  # not yet 24 hours
        for row in s.scalars(select(RoundRow)):
            row.deadline = row.opened_at - timedelta(hours=1)
    with transaction(engine) as s:
        [(round_id, action)] = recover(s, SeededRng(3))
        assert action == "settled"
        assert s.get(RoundRow, round_id).status == "settled"  # type: ignore[union-attr]
        assert check(s).ok


def test_recall_catches_an_edited_record(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        place_bet(s, "r1", "ann", "red", 1_000, key="a")
    with transaction(engine) as s:
        round_id, _ = settle(s, "r1", Fixed(1))  # red wins
    with transaction(engine) as s:
        row = s.get(RoundRow, round_id)
        assert row is not None
        record = json.loads(row.record)
        record["settlements"][0]["paid"] = 5_000
        row.record = json.dumps(record)
    with transaction(engine) as s:
        assert not recall(s, round_id).same


def test_many_players_at_one_table_at_once(engine: Engine) -> None:
    players = tuple(f"p{i}" for i in range(8))
    setup(engine, players)
    errors: list[BaseException] = []

    def bettor(name: str) -> None:
        try:
            for i in range(5):
                with transaction(engine) as s:
                    place_bet(s, "r1", name, "red", 100, key=f"{name}-{i}")
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=bettor, args=(p,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    with transaction(engine) as s:
        open_rounds = s.scalars(select(RoundRow).where(RoundRow.status == "betting")).all()
        assert len(open_rounds) == 1  # one round, not one per first bettor
        _, settled = settle(s, "r1", Fixed(2))  # black
        assert len(settled) == 40 and all(x.paid == 0 for x in settled)
        assert check(s).ok and verify_audit(s).ok


def test_the_day_report_compares_observed_and_theoretical_rtp(engine: Engine) -> None:
    from fractions import Fraction

    from pelisali.platform.report import day_report

    setup(engine)
    with transaction(engine) as s:
        place_bet(s, "r1", "ann", "red", 1_000, key="a")
        place_bet(s, "r1", "ann", "straight 17", 1_000, key="b")
    with transaction(engine) as s:
        round_id, _ = settle(s, "r1", Fixed(17))  # red loses 10.00, 17 pays 360.00
        day = s.get(RoundRow, round_id).gaming_day  # type: ignore[union-attr]
    with transaction(engine) as s:
        [row] = day_report(s, day)
    assert (row.rounds, row.bets, row.staked, row.paid, row.ggr) == (1, 2, 2_000, 36_000,
                                                                     -34_000)
    assert row.observed_rtp == 18
    assert row.theoretical_rtp == Fraction(36, 37)  # every bet of roulette C


def test_roulette_d_zero_choices_and_bets_held_in_prison(engine: Engine) -> None:
    """RAY 1.2.1 D with both zero rules: on zero each even-chance bettor chooses half back
    (la partage) or prison; a bet in prison is carried, survives a void round, and is
    released (stake back) or lost by the next spin."""
    from pelisali.platform.rounds import decide

    setup(engine, ("ann", "bob"))
    with transaction(engine) as s:
        create_table(s, "d1", "roulette", "D", settings={"zero_rule": "both"})
        place_bet(s, "d1", "ann", "red", 1_000, key="a")
        place_bet(s, "d1", "bob", "black", 1_000, key="b")
        place_bet(s, "d1", "bob", "straight 0", 100, key="c")
    with transaction(engine) as s:
        round_id, settled = settle(s, "d1", Fixed(0))
        assert settled == []  # waiting for the choices
        assert s.get(RoundRow, round_id).status == "deciding"  # type: ignore[union-attr]
        with pytest.raises(TableError, match="not bob's"):
            decide(s, "d1", round_id, 1, "half", "bob")
        with pytest.raises(TableError, match="not an option"):
            decide(s, "d1", round_id, 1, "keep", "ann")
        assert decide(s, "d1", round_id, 1, "prison", "ann") == []
    with transaction(engine) as s:
        settled = decide(s, "d1", round_id, 2, "half", "bob")
        assert [(x.spot, x.paid, x.result) for x in settled] == [
            ("red", 0, "prison"), ("black", 500, "half"), ("straight 0", 3_600, "win")]
        assert recall(s, round_id).same
        assert balance(s, "player:ann") == 99_000
    with transaction(engine) as s:  # a mis-spin: the bet stays in prison
        void(s, "d1", "mis-spin", "dealer")
        assert balance(s, "player:ann") == 99_000
    with transaction(engine) as s:
        round_id, settled = settle(s, "d1", Fixed(3))  # red: released, the stake back
        assert [(x.player, x.paid, x.result) for x in settled] == [("ann", 1_000, "release")]
        assert balance(s, "player:ann") == 100_000
        assert recall(s, round_id).same and check(s).ok and verify_audit(s).ok


def test_an_unmade_choice_takes_half_at_the_deadline(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        create_table(s, "d1", "roulette", "D", settings={"zero_rule": "both"})
        place_bet(s, "d1", "ann", "red", 1_000, key="a")
    with transaction(engine) as s:
        round_id, _ = settle(s, "d1", Fixed(0))
    with transaction(engine) as s:
        assert recover(s) == []  # still time to choose
        [(done_id, action)] = recover(s, everything=True)
        assert (done_id, action) == (round_id, "settled, unchosen bets half")
        assert balance(s, "player:ann") == 99_500 and check(s).ok
