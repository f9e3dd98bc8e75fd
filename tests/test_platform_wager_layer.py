"""The table layer under the wager tables (roulette A–I, boule, money wheel, Tuplanoppa,
Sic Bo): the version-2 record of a round (the players in the engine's seats, the bets
carried in from prison, the contract history, choices held for their turn), the round
kept seat by seat against the whole table's replay, version-1 records as the tables
wrote them before (read, recalled, an open or deciding round finished by recovery as
the old code finished it), the limits a round keeps, and money conserved over many
random rounds on SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import json
import random
import uuid
from collections.abc import Iterator
from datetime import date, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from dbfixtures import HOUSE, Fixed, fresh_engine, setup, stored, wallet
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session, aliased

from pelisali.engine import IllegalMove
from pelisali.engine.wager import WagerState
from pelisali.games.base import Draw
from pelisali.games.round import Limits
from pelisali.platform import accounts
from pelisali.platform.db import transaction
from pelisali.platform.desk import TableDesk
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import LedgerError, balance, check, move, now_utc, verify_audit
from pelisali.platform.models import Account, BetRow, GameTable, RoundRow, Transfer
from pelisali.platform.queries import recall_for, round_result
from pelisali.platform.report import day_report
from pelisali.platform.rounds import (
    TableError,
    create_table,
    decide,
    pending_choices,
    place_bets,
    recall,
    reconcile_bets,
    recover,
    set_table,
    settle,
    void,
)
from pelisali.platform.table_layer import (
    BANK,
    HeldMove,
    RecordError,
    party_moves,
    read_record,
    rebuild,
    write_record,
)
from pelisali.platform.table_layer import recall as layer_recall
from pelisali.platform.tables import recall as recall_round
from pelisali.platform.wager_family import (
    FAMILY,
    TableBet,
    WagerRound,
    base_record,
    wager_engine,
)
from pelisali.rng import SeededRng

V1 = json.loads((Path(__file__).parent / "data" / "wager_rounds_v1.json").read_text())


@pytest.fixture
def sqlite(tmp_path: Path) -> Iterator[Engine]:
    yield from fresh_engine("sqlite", tmp_path)


def record_of(session: Session, round_id: int) -> dict[str, Any]:
    row = session.get(RoundRow, round_id)
    assert row is not None
    loaded: dict[str, Any] = json.loads(row.record)
    return loaded


def bet_rows(session: Session, round_id: int) -> list[dict[str, Any]]:
    return [{"number": b.number, "player": b.player, "spot": b.spot, "stake": b.stake,
             "key": b.key, "paid": b.paid, "result": b.result, "level": b.level,
             "carried": b.carried}
            for b in session.scalars(select(BetRow).where(BetRow.round_id == round_id)
                                     .order_by(BetRow.number))]


# -- version 1 -------------------------------------------------------------------------------
def load_v1(engine: Engine) -> None:
    """The tables, rounds, bets and every transfer of a database the version-1 tables
    wrote (``tests/data/wager_rounds_v1.json``)."""
    with transaction(engine) as s:
        for name in V1["players"]:
            accounts.register(s, name, date(1990, 1, 1), "FI")
        for t in V1["tables"]:
            create_table(s, t["name"], t["game"], t["variant"], t["settings"], t["min"],
                         t["max"], t["mode"])
    with transaction(engine) as s:
        for t in V1["transfers"]:
            move(s, t["key"], t["source"], t["target"], t["amount"], t["kind"],
                 reason=t["reason"], round_id=t["round_id"])
        tables = {t.name: t for t in s.scalars(select(GameTable))}
        for r in V1["rounds"]:
            table, now = tables[r["table"]], now_utc()
            done = r["status"] in ("settled", "void")
            row = RoundRow(table_id=table.id, status=RoundStatus(r["status"]),
                           gaming_day=table.gaming_day, opened_at=now,
                           record=json.dumps(r["record"], sort_keys=True),
                           deadline=now + timedelta(hours=24),
                           finished_at=now if done else None)
            s.add(row)
            s.flush()
            assert row.id == r["id"]
            for b in r["bets"]:
                s.add(BetRow(round_id=row.id, created_at=now, **b))


def v1_round(round_id: int) -> dict[str, Any]:
    found: dict[str, Any] = next(r for r in V1["rounds"] if r["id"] == round_id)
    return found


def test_every_version_1_record_reads_as_version_2() -> None:
    for r in V1["rounds"]:
        old = r["record"]
        if not old:  # a round open for bets kept no record
            assert r["status"] == "betting"
            continue
        record = read_record(json.dumps(old), FAMILY)
        assert (record.version, record.round_id, record.status) == (2, r["id"], r["status"])
        assert record.game == (f"roulette-{old['variant']}" if old["game"] == "roulette"
                               else old["game"])
        assert [s.model_dump() for s in record.settlements] == old["settlements"]
        derived = FAMILY.derived(rebuild(record, FAMILY), record)
        assert derived["draws"] == old["draws"]
        assert derived["bets"] == old["bets"]
        assert derived["decisions"] == old["decisions"]
        assert [p.number for p in record.prison] == [b["bet_id"] for b in old["bets"]
                                                     if b["carried"]]
        state = rebuild(record, FAMILY)
        if r["status"] == "settled":
            assert state.is_terminal()
            assert [s.model_dump() for s in FAMILY.settlements(state, record)] == \
                old["settlements"]
        if r["status"] == "deciding":
            assert not state.is_terminal() and state.to_move() is not None
    # Round 12 (roulette D, both rules) waits for ann (seat 0: red, even) and bob (seat 1:
    # black); bob answered first: his choice is held until the engine asks for it.
    record = read_record(json.dumps(v1_round(12)["record"]), FAMILY)
    assert record.players == ["ann", "bob"] and record.bet_numbers == [1, 3, 4, 2]
    assert record.ahead == [HeldMove(actor=1, text="choose 4 prison", turn="bet 4")]
    # Round 10 (en prison) started from ann's two bets in prison; bob's black went in.
    record = read_record(json.dumps(v1_round(10)["record"]), FAMILY)
    assert [(p.number, p.seat, p.spot, p.level) for p in record.prison] == [
        (1, 0, "red", 1), (2, 0, "even", 1)]
    assert [(s.bet_id, s.held_level) for s in record.settlements] == [(1, 2), (2, 2), (3, 1)]
    # A money wheel's segment is kept: the faces repeat round the wheel.
    record = read_record(json.dumps(v1_round(15)["record"]), FAMILY)
    assert record.draw_slots == [16] and record.dealt() == ["1"]


def test_an_edited_version_1_record_does_not_recall_the_same() -> None:
    spin = v1_round(1)["record"]  # 17: ann's straight 17 and bob's second dozen win
    assert layer_recall(json.dumps(spin), FAMILY).same
    other = {**spin, "draws": [{"device": "wheel", "slot": 18, "face": "18"}]}
    found = layer_recall(json.dumps(other), FAMILY)
    assert not found.same and found.problem is None  # the replay pays what 18 pays
    wrong = {**spin, "draws": [{"device": "wheel", "slot": 3, "face": "18"}]}
    found = layer_recall(json.dumps(wrong), FAMILY)
    assert not found.same and "no slot 3 showing '18'" in str(found.problem)
    chosen = {**spin, "decisions": {"1": "prison"}}  # red lost on 17: no choice to make
    found = layer_recall(json.dumps(chosen), FAMILY)
    assert not found.same and "no choice" in str(found.problem)
    paid = {**spin, "settlements": [{**x, "paid": x["paid"] + 1} for x in spin["settlements"]]}
    assert not layer_recall(json.dumps(paid), FAMILY).same
    over = {**spin, "bets": [{**b, "stake": 90_000} if b["bet_id"] == 3 else b
                             for b in spin["bets"]]}  # over the table maximum
    found = layer_recall(json.dumps(over), FAMILY)
    assert not found.same and found.problem is not None
    assert "settled, void or deciding" in str(layer_recall(
        json.dumps({**spin, "status": "closed"}), FAMILY).problem)


def test_a_version_1_database_recalls_and_recovers_as_the_old_code_did(
        engine: Engine) -> None:
    load_v1(engine)
    with transaction(engine) as s:
        for r in V1["rounds"]:
            if r["status"] in ("settled", "void"):
                found = recall(s, r["id"])
                assert found.same, (r["id"], found)
                assert found.recorded == r["record"]["settlements"]
                assert recall_round(s, r["id"]).same
        assert round_result(s, 17) == "4-6-5"  # Sic Bo, from the version-1 draws
        # Round 12 waits for ann's two choices; bob has made his.
        assert pending_choices(s, 12, "ann") == {1: ["prison", "half"], 3: ["prison", "half"]}
        assert pending_choices(s, 12, "bob") == {}
        with pytest.raises(TableError, match="no choice"):
            decide(s, "rd-wait", 12, 2, "half", "bob")
    with transaction(engine) as s:  # the restart: what the old code did next
        assert [list(x) for x in recover(s, SeededRng(99), everything=True)] == \
            V1["next"]["recovered"]
    for table in V1["next"]["spun"]:
        with transaction(engine) as s:
            settle(s, table, Fixed(3))
    with transaction(engine) as s:
        for r in V1["next"]["rounds"]:
            row = s.get(RoundRow, r["id"])
            assert row is not None and row.status == r["status"], r["id"]
            assert bet_rows(s, r["id"]) == r["bets"], r["id"]
            if r["status"] == "betting":
                continue
            record = json.loads(row.record)
            assert record["version"] == 2
            assert record["settlements"] == r["record"]["settlements"], r["id"]
            assert record["draws"] == r["record"]["draws"], r["id"]
            assert recall(s, r["id"]).same
        balances = {code: balance(s, code) for code in V1["next"]["balances"]}
        assert balances == V1["next"]["balances"]
        # The day's report reads the bets of old and new rounds alike.
        report_day = {d.table: d for d in day_report(s, now_utc().date())}
        settled = {r["id"]: r for r in V1["rounds"] + V1["next"]["rounds"]
                   if r["status"] == "settled"}
        assert set(report_day) == {r["table"] for r in settled.values()}
        assert sum(d.staked for d in report_day.values()) == sum(
            b["stake"] for r in settled.values() for b in r["bets"] if not b["carried"])
        report = check(s)
        assert report.ok, report.problems
        assert verify_audit(s).ok
        reconciled = reconcile_bets(s)
        assert reconciled.ok, reconciled.problems


# -- version 2 -------------------------------------------------------------------------------
def play_prison_rounds(engine: Engine) -> list[int]:
    """Roulette D with both rules: choices answered out of the engine's order, a bet in
    prison carried through a void into a round where it is hit by zero again."""
    with transaction(engine) as s:
        create_table(s, "d", "roulette", "D", {"zero_rule": "both"}, limit_min=100)
        place_bets(s, "d", "ann", [("red", 1_000), ("straight 0", 100)], key="a1")
        place_bets(s, "d", "bob", [("black", 1_000)], key="b1")
        place_bets(s, "d", "ann", [("even", 600)], key="a2")
    with transaction(engine) as s:
        first, settled = settle(s, "d", Fixed(0))
        assert settled == []
        # The engine asks ann (seat 0: red, even) first; bob's answer is held for its turn.
        assert decide(s, "d", first, 3, "prison", "bob") == []
    record = read_record(json.dumps(stored(engine, first)), FAMILY)
    assert record.status == "deciding" and record.players == ["ann", "bob"]
    assert record.bet_numbers == [1, 2, 4, 3]
    assert record.ahead == [HeldMove(actor=1, text="choose 4 prison", turn="bet 4")]
    with transaction(engine) as s:
        assert pending_choices(s, first, "bob") == {}
        assert pending_choices(s, first, "ann") == {1: ["prison", "half"],
                                                    4: ["prison", "half"]}
        assert decide(s, "d", first, 4, "half", "ann") == []  # still ann's red to answer
        settled = decide(s, "d", first, 1, "prison", "ann")
        assert [(x.bet_id, x.paid, x.result, x.held_level) for x in settled] == [
            (1, 0, "prison", 1), (2, 3_600, "win", 0), (3, 0, "prison", 1),
            (4, 300, "half", 0)]
    with transaction(engine) as s:
        place_bets(s, "d", "bob", [("odd", 500)], key="b2")
        voided = void(s, "d", "the ball left the wheel", "dealer")
    with transaction(engine) as s:  # the bets in prison stand in the next round
        second, settled = settle(s, "d", Fixed(0))
        assert settled == []  # both are hit by zero again: prison or a quarter back
        assert pending_choices(s, second, "ann") == {1: ["prison", "quarter"]}
        decide(s, "d", second, 2, "quarter", "bob")
        settled = decide(s, "d", second, 1, "prison", "ann")
        assert [(x.player, x.paid, x.result, x.held_level) for x in settled] == [
            ("ann", 0, "prison", 2), ("bob", 250, "quarter", 0)]
    with transaction(engine) as s:
        third, settled = settle(s, "d", Fixed(3))  # red: level 2 climbs back to 1
        assert [(x.player, x.result, x.held_level) for x in settled] == [
            ("ann", "prison", 1)]
    return [first, voided, second, third]


def test_a_record_the_tables_write_is_the_layer_s_own_text(sqlite: Engine) -> None:
    setup(sqlite)
    rounds = play_prison_rounds(sqlite)
    with transaction(sqlite) as s:
        create_table(s, "mw", "money-wheel", mode="live")
        place_bets(s, "mw", "bob", [("2", 500), ("joker", 100)], key="m1")
        rounds.append(settle(s, "mw", SeededRng(4))[0])
    for round_id in rounds:
        text = stored(sqlite, round_id)
        with transaction(sqlite) as s:
            row = s.get(RoundRow, round_id)
            assert row is not None
            record = read_record(row.record, FAMILY)
            state = rebuild(record, FAMILY)
            assert write_record(record, FAMILY.derived(state, record)) == row.record
            if record.status == "void":
                continue
            assert state.is_terminal() and recall(s, round_id).same
            # Kept seat by seat or replayed for the whole table: the same round.
            again = WagerRound.of_record(FAMILY.game(record), record)
            assert again.record(record.status, again.settlements()) == record
            assert [s.model_dump() for s in FAMILY.settlements(state, record)] == \
                text["settlements"]
    second = read_record(json.dumps(stored(sqlite, rounds[2])), FAMILY)
    assert [(p.number, p.seat, p.spot, p.level) for p in second.prison] == [
        (1, 0, "red", 1), (2, 1, "black", 1)]
    assert [m.text for m in second.history] == ["done", "done", "0", "choose 1 prison",
                                                "choose 2 quarter"]
    voided = stored(sqlite, rounds[1])
    assert voided["status"] == "void" and voided["void_reason"] == "the ball left the wheel"
    assert [m["text"] for m in voided["history"]] == ["done", "bet odd 500"]
    wheel = stored(sqlite, rounds[-1])
    assert wheel["draws"][0]["face"] == wheel["history"][-1]["text"] == wheel["result"]
    assert wallet(sqlite, "bob") == 1_000_000 - 1_000 + 250 - 600 + wheel_paid(wheel)


def wheel_paid(record: dict[str, Any]) -> int:
    return sum(int(s["paid"]) for s in record["settlements"])


def test_recall_checks_what_the_record_shows_besides_its_history(sqlite: Engine) -> None:
    setup(sqlite)
    with transaction(sqlite) as s:
        create_table(s, "r", "roulette", "C")
        place_bets(s, "r", "ann", [("red", 1_000)], key="a")
        round_id, _ = settle(s, "r", Fixed(1))
    with transaction(sqlite) as s:
        row = s.get(RoundRow, round_id)
        assert row is not None
        record = json.loads(row.record)
        row.record = json.dumps({**record, "draws": [{"device": "wheel", "slot": 2,
                                                      "face": "2"}]})
    with transaction(sqlite) as s:
        found = recall(s, round_id)
        assert not found.same and found.recorded == found.replayed
        assert found.problem == "the record's draws are not its history's"
        assert recall_round(s, round_id).problem == found.problem
        mine = recall_for(s, round_id, "ann")  # what the player's recall shows
        assert mine is not None and mine.problem == found.problem and not mine.same


def test_a_players_recall_of_a_record_that_does_not_replay_names_the_problem(
        sqlite: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """A recall that could not replay carries a problem entry, not a settlement; the
    player's own recall passes the problem on rather than failing on it."""
    from pelisali.platform import tables
    from pelisali.platform.tables import RoundRecall

    setup(sqlite)
    with transaction(sqlite) as s:
        create_table(s, "r", "roulette", "C")
        place_bets(s, "r", "ann", [("red", 1_000)], key="a")
        round_id, _ = settle(s, "r", Fixed(1))
    broken = RoundRecall(round_id, "roulette", False, [{"problem": "unreadable"}], [],
                         "unreadable")
    monkeypatch.setattr(tables, "recall", lambda _s, _r: broken)
    with transaction(sqlite) as s:
        mine = recall_for(s, round_id, "ann")
    assert mine is not None and mine.problem == "unreadable" and mine.recorded == []


def test_a_round_kept_seat_by_seat_is_the_table_s_round_replayed() -> None:
    """Bets, some over the maximum or refused, bets carried in from prison, the draw and
    the choices in any order: each player's own state of the engine and the replay of
    the round's one history settle every bet alike, and the record reads back the same."""
    chooser = random.Random(5)
    for game_id, settings in (("roulette-D", {"zero_rule": "both"}),
                              ("roulette-D", {"zero_rule": "en_prison"}),
                              ("money-wheel", {}), ("sic-bo", {}), ("roulette-H", {})):
        for n in range(12):
            engine = wager_engine(game_id, json.dumps(settings), 100, 20_000)
            base = base_record(game_id, n + 1, "t", "rng", None, engine.wager.settings,
                               Limits(100, 20_000))
            players = [f"p{i}" for i in range(chooser.randint(1, 30))]
            spots = [s.key for s in engine.wager.spots()]
            carried = [TableBet(i + 1, chooser.choice(players), chooser.choice(
                ["red", "black", "even", "odd", "low", "high"]), chooser.choice([400, 1_000]),
                chooser.choice([1, 2]), True)
                for i in range(chooser.randint(0, 3) if game_id == "roulette-D" else 0)]
            rnd = WagerRound.of_bets(engine, base, carried)
            for _ in range(chooser.randint(0, 60)):
                bets = [(chooser.choice(spots), chooser.choice([50, 100, 600, 8_000, 30_000]))
                        for _ in range(chooser.randint(1, 3))]
                with contextlib.suppress(IllegalMove, LedgerError):
                    rnd.place_slip(chooser.choice(players), bets)
            draws = engine.wager.draw(SeededRng(chooser.randrange(10**6)))
            if game_id == "roulette-D" and chooser.random() < 0.6:
                draws = engine.wager.draws_for(("0",))
            rnd.draw(draws)
            pending = list(rnd.pending().items())
            chooser.shuffle(pending)
            for number, options in pending[:chooser.randint(0, len(pending))]:
                rnd.decide(number, chooser.choice(options))
            status = RoundStatus.SETTLED if rnd.settled else RoundStatus.DECIDING
            record = rnd.record(status, rnd.settlements() if rnd.settled else ())
            state = rebuild(record, FAMILY)
            assert isinstance(state, WagerState)
            assert state.is_terminal() == rnd.settled
            assert read_record(write_record(record)) == record
            settlements = [x.settlement() for x in record.settlements]
            assert WagerRound.of_record(engine, record).record(status, settlements) == record
            if rnd.settled:
                assert FAMILY.settlements(state, record) == record.settlements
                # The payouts the table books are what the engine's accounts say.
                ledger = {f"seat {i}": accounts.wallet_code(p)
                          for i, p in enumerate(record.players)}
                before = FAMILY.start(record)
                for move_ in record.history:
                    if move_.actor == -1:
                        break
                    before = before.apply(move_.move(before).action).state
                assert party_moves(before, state, {**ledger, "table": BANK, "house": BANK}) \
                    == {code: change for code, change in rnd.payouts().items() if change}


def test_more_players_than_twelve_and_a_spin_with_nobody_betting(sqlite: Engine) -> None:
    players = tuple(f"p{i}" for i in range(15))
    setup(sqlite, players)
    with transaction(sqlite) as s:
        create_table(s, "big", "roulette", "C")
        create_table(s, "empty", "sic-bo")
        for name in players:
            place_bets(s, "big", name, [("red", 100), ("straight 7", 100)], key=name)
    with transaction(sqlite) as s:
        round_id, settled = settle(s, "big", Fixed(7))
        assert len(settled) == 30 and all(x.paid for x in settled)
        assert len(read_record(json.dumps(record_of(s, round_id)), FAMILY).players) == 15
        assert recall(s, round_id).same
        empty, settled = settle(s, "empty", SeededRng(1))
        assert settled == [] and recall(s, empty).same
        assert len(round_result(s, empty).split("-")) == 3  # the three dice were thrown
        assert s.scalar(select(func.count()).select_from(Transfer)
                        .where(Transfer.kind == "win")) == 15  # one a player and round


def test_limits_set_while_a_round_has_bets_apply_from_the_next_round(sqlite: Engine) -> None:
    setup(sqlite)
    with transaction(sqlite) as s:
        create_table(s, "r", "roulette", "C", limit_min=100, limit_max=5_000)
        place_bets(s, "r", "ann", [("red", 500)], key="a")
        set_table(s, "r", "floor", limit_min=1_000, limit_max=50_000)
    with transaction(sqlite) as s:  # the round keeps the limits its bets were placed under
        receipt = place_bets(s, "r", "bob", [("black", 500), ("odd", 9_000)], key="b")
        assert [(r.accepted, r.returned) for r in receipt] == [(500, 0), (5_000, 4_000)]
        round_id, _ = settle(s, "r", Fixed(2))
        assert recall(s, round_id).same
        assert record_of(s, round_id)["limits"] == {"min": 100, "max": 5_000}
    with pytest.raises(TableError, match="minimum"), transaction(sqlite) as s:
        place_bets(s, "r", "bob", [("black", 500)], key="c")
    with transaction(sqlite) as s:
        assert place_bets(s, "r", "bob", [("odd", 9_000)], key="d")[0].accepted == 9_000


def test_recovery_takes_a_quarter_back_where_half_is_not_offered(sqlite: Engine) -> None:
    """A bet in prison hit by zero again offers prison or a quarter back: the choice
    nobody made is the quarter, which leaves nothing pending."""
    setup(sqlite)
    with transaction(sqlite) as s:
        create_table(s, "d", "roulette", "D", {"zero_rule": "both"})
        place_bets(s, "d", "ann", [("red", 1_000)], key="a")
        first, _ = settle(s, "d", Fixed(0))
        decide(s, "d", first, 1, "prison", "ann")
        second, settled = settle(s, "d", Fixed(0))
        assert settled == []
    with transaction(sqlite) as s:
        assert recover(s, everything=True) == [(second, "settled, unchosen bets half")]
        assert [(b["paid"], b["result"]) for b in bet_rows(s, second)] == [(250, "quarter")]
        assert recall(s, second).same and reconcile_bets(s).ok


def test_the_desk_carries_bets_in_prison_into_its_next_round(sqlite: Engine) -> None:
    setup(sqlite)
    with transaction(sqlite) as s:
        create_table(s, "live", "roulette", "D", {"zero_rule": "en_prison"}, mode="live")
    desk = TableDesk(sqlite, "live")
    try:
        desk.bet("ann", [("red", 1_000), ("straight 0", 100)], key="a1")
        first, settled = desk.spin(Fixed(0))
        assert [(x.result, x.held_level) for x in settled] == [("prison", 1), ("win", 0)]
        desk.bet("bob", [("black", 400)], key="b1")
        second, settled = desk.spin(Fixed(1))  # red: ann's bet released, bob's black lost
        assert [(x.player, x.paid, x.result) for x in settled] == [
            ("ann", 1_000, "release"), ("bob", 0, "lose")]
    finally:
        desk.close()
    record = read_record(json.dumps(stored(sqlite, second)), FAMILY)
    assert [(p.number, p.seat, p.spot, p.level) for p in record.prison] == [
        (1, 0, "red", 1)]
    with transaction(sqlite) as s:
        assert recall(s, first).same and recall(s, second).same
        assert check(s).ok and reconcile_bets(s).ok and verify_audit(s).ok
    assert wallet(sqlite, "ann") == 1_000_000 - 1_100 + 3_600 + 1_000


def test_the_desk_settles_bets_a_choice_made_elsewhere_carried_into_its_round(
        sqlite: Engine) -> None:
    setup(sqlite)
    with transaction(sqlite) as s:
        create_table(s, "live", "roulette", "D", {"zero_rule": "both"}, mode="live")
    desk = TableDesk(sqlite, "live")
    try:
        desk.bet("ann", [("red", 1_000)], key="a1")
        first, settled = desk.spin(Fixed(0))
        assert settled == []  # ann chooses
        desk.bet("bob", [("black", 500)], key="b1")
        with transaction(sqlite) as s:  # her choice carries the bet into the desk's round
            decide(s, "live", first, 1, "prison", "ann")
        second, settled = desk.spin(Fixed(1))
        assert [(x.player, x.paid, x.result) for x in settled] == [
            ("bob", 0, "lose"), ("ann", 1_000, "release")]
    finally:
        desk.close()
    with transaction(sqlite) as s:
        assert all(b["paid"] is not None for b in bet_rows(s, second))
        assert recall(s, second).same and check(s).ok and reconcile_bets(s).ok
    assert wallet(sqlite, "ann") == 1_000_000


def test_a_round_whose_record_does_not_read_is_refused_not_guessed(sqlite: Engine) -> None:
    setup(sqlite)
    with transaction(sqlite) as s:
        create_table(s, "d", "roulette", "D", {"zero_rule": "both"})
        place_bets(s, "d", "ann", [("red", 1_000)], key="a")
        round_id, _ = settle(s, "d", Fixed(0))
        row = s.get(RoundRow, round_id)
        assert row is not None
        row.record = json.dumps({**json.loads(row.record), "history": [
            {"actor": 0, "text": "bet red 1000"}, {"actor": -1, "text": "0"}]})
    with pytest.raises(TableError, match="cannot be resumed"), transaction(sqlite) as s:
        decide(s, "d", round_id, 1, "half", "ann")
    with pytest.raises(RecordError):
        read_record({"version": 2, "game": "roulette-C"})
    with pytest.raises(RecordError, match="no game"):
        wager_engine("punto-banco", "{}", None, None)
    rnd = WagerRound.of_bets(wager_engine("roulette-C", "{}", 100, 1_000),
                             base_record("roulette-C", 1, "t", "rng", None, {}, Limits(100, 1_000)),
                             [])
    with pytest.raises(IllegalMove):
        rnd.place_slip("ann", [("red", 0)])
    assert rnd.seats == {}  # a refused slip leaves nothing
    rnd.draw([Draw("wheel", 5, "5")])
    with pytest.raises(IllegalMove, match="closed"):
        rnd.draw([Draw("wheel", 5, "5")])


# -- money -----------------------------------------------------------------------------------
def round_ledger(session: Session, round_id: int) -> dict[str, int]:
    """Each account's net change by the round's stakes, payouts and refunds."""
    source, target = aliased(Account), aliased(Account)
    out: dict[str, int] = {}
    rows = session.execute(
        select(source.code, target.code, func.sum(Transfer.amount))
        .join(source, source.id == Transfer.source_id)
        .join(target, target.id == Transfer.target_id)
        .where(Transfer.round_id == round_id,
               Transfer.kind.in_(("stake", "win", "refund")))
        .group_by(source.code, target.code))
    for paying, receiving, amount in rows:
        out[paying] = out.get(paying, 0) - int(amount)
        out[receiving] = out.get(receiving, 0) + int(amount)
    return {code: change for code, change in out.items() if change}


def test_money_is_conserved_over_many_random_rounds(engine: Engine) -> None:
    players = ("ann", "bob", "cid", "dan")
    setup(engine, players, money=60_000)
    tables: dict[str, tuple[str, str | None, dict[str, str | bool]]] = {
        "d": ("roulette", "D", {"zero_rule": "both"}),
        "e": ("roulette", "D", {"zero_rule": "en_prison"}),
        "p": ("roulette", "D", {"zero_rule": "la_partage"}),
        "m": ("money-wheel", None, {}), "s": ("sic-bo", None, {}),
        "g": ("roulette", "G", {})}
    with transaction(engine) as s:
        for name, (game, variant, settings) in tables.items():
            create_table(s, name, game, variant, settings, limit_min=100, limit_max=20_000)
    chooser = random.Random(3)
    for i in range(40):
        table = chooser.choice(list(tables))
        with transaction(engine) as s:
            spots = [sp for sp in ("red", "black", "even", "straight 0", "1", "joker",
                                   "small", "single 6", "straight 3", "high")]
            for name in players:
                if chooser.random() < 0.7:
                    bets = [(chooser.choice(spots), chooser.choice([101, 402, 1_000, 25_000]))
                            for _ in range(chooser.randint(1, 3))]
                    with contextlib.suppress(LedgerError):  # a spot the game lacks, money
                        place_bets(s, table, name, bets, key=str(uuid.uuid4()))
        if chooser.random() < 0.1:
            with transaction(engine) as s:
                void(s, table, "device fault", "floor")
            continue
        rng = Fixed(0) if table in "dep" and chooser.random() < 0.4 else SeededRng(i)
        with transaction(engine) as s:
            round_id, settled = settle(s, table, rng)
        if settled or chooser.random() < 0.3:
            continue
        with transaction(engine) as s:  # the choices, in any order, some left to recovery
            waiting = [(player, number) for player in players
                       for number in pending_choices(s, round_id, player)]
        chooser.shuffle(waiting)
        for player, number in waiting[:chooser.randint(0, len(waiting))]:
            with transaction(engine) as s:
                decide(s, "d", round_id, number, chooser.choice(
                    pending_choices(s, round_id, player)[number]), player)
    with transaction(engine) as s:
        recover(s, SeededRng(0), everything=True)
    with transaction(engine) as s:
        report = check(s)
        assert report.ok, report.problems
        assert verify_audit(s).ok
        reconciled = reconcile_bets(s)
        assert reconciled.ok, reconciled.problems
        rounding = s.scalar(select(Account.balance).where(Account.code == "rounding:house"))
        total = (sum(balance(s, accounts.wallet_code(name)) for name in players)
                 + balance(s, BANK) + (rounding or 0))
        assert total == HOUSE + 60_000 * len(players)  # nothing made, nothing lost
        rows = s.scalars(select(RoundRow).order_by(RoundRow.id)).all()
        settled_rows = [r for r in rows if r.status == "settled"]
        assert len(settled_rows) > 25
        kinds = set()
        kept = Fraction(0)
        for row in settled_rows:
            found = recall(s, row.id)
            assert found.same, (row.id, found)
            record = read_record(row.record, FAMILY)
            state = rebuild(record, FAMILY)
            # The round's transfers move each wallet and the bank as the engine's accounts
            # say (the bank holds the table's stakes and those in prison).
            ledger = {f"seat {n}": accounts.wallet_code(p) for n, p in enumerate(record.players)}
            moved = party_moves(FAMILY.start(record), state, {**ledger, "table": BANK,
                                                              "house": BANK})
            assert round_ledger(s, row.id) == moved, row.id
            kinds |= {m.text.split()[0] for m in record.history if m.actor >= 0}
            kinds |= {"prison" for _ in record.prison}
            kept += Fraction(record.rounding)
        # Whole cents of the fractions went to the rounding account, round by round.
        assert kept > 0 and (rounding or 0) <= kept < (rounding or 0) + len(settled_rows)
        assert {"bet", "done", "choose", "prison"} <= kinds
        wins = s.scalar(select(func.count()).select_from(Transfer).where(Transfer.kind == "win"))
        assert wins == len({(b.round_id, b.player) for b in s.scalars(select(BetRow))
                            if b.paid and b.result != "refund"})  # one a player and round
