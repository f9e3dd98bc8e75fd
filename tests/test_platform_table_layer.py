"""The table layer under the card tables: the version-2 round record and its round trip,
version-1 records as the tables wrote them before (read, recalled, a round left in play
resumed, the shoe dealt on), recall of rounds, a crash between two decisions, and money
conserved over many random rounds on SQLite and PostgreSQL: the ledger, the audit chain,
the bets and each round's engine state agreeing."""

from __future__ import annotations

import contextlib
import json
import random
import uuid
from collections.abc import Iterator
from datetime import timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from dbfixtures import HOUSE, fresh_engine, setup, stored, wallet
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session, aliased

from pelisali.engine import Seats
from pelisali.engine.baccarat import BaccaratEngine
from pelisali.platform import accounts, card_rounds
from pelisali.platform.card_family import FAMILY
from pelisali.platform.card_rounds import (
    BlackjackView,
    act,
    blackjack_view,
    create_card_table,
    deal_blackjack,
    deal_coup,
    insure,
    place_card_bet,
    recall_card_round,
    recover_card_rounds,
    void_card_round,
)
from pelisali.platform.db import make_engine, transaction
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import (
    LedgerError,
    Posting,
    balance,
    check,
    now_utc,
    verify_audit,
)
from pelisali.platform.models import Account, BetRow, GameTable, RoundRow, Transfer
from pelisali.platform.rounds import TableError, reconcile_bets
from pelisali.platform.table_layer import (
    BANK,
    Flow,
    HeldMove,
    LimitsRecord,
    MoveRecord,
    RecordError,
    RoundRecord,
    SettlementRecord,
    check_postings,
    flows,
    party_moves,
    read_record,
    rebuild,
    recall,
    write_record,
)
from pelisali.rng import SeededRng

V1 = json.loads((Path(__file__).parent / "data" / "card_rounds_v1.json").read_text())


@pytest.fixture
def sqlite(tmp_path: Path) -> Iterator[Engine]:
    yield from fresh_engine("sqlite", tmp_path)


def play_out(engine: Engine, table: str, chooser: random.Random | None = None
             ) -> BlackjackView | None:
    """Finish the table's round in play: insurance declined and every hand standing, or
    (with ``chooser``) random answers and decisions, in any order the rules allow. The
    last view, None if no round was in play."""
    last: BlackjackView | None = None
    for _ in range(200):
        with transaction(engine) as s:
            view = blackjack_view(s, table)
        if view is None or view.status != "playing":
            break
        try:
            with transaction(engine) as s:
                if view.insurance_pending:
                    seat = (chooser.choice(view.insurance_pending) if chooser
                            else view.insurance_pending[0])
                    owner = next(h.player for h in view.hands if h.seat == seat)
                    amount = chooser.choice([0, view.insurance_max[seat]]) if chooser else 0
                    view = insure(s, table, owner, seat, amount)
                else:
                    assert view.to_act is not None
                    choice = chooser.choice(view.actions) if chooser else "stand"
                    amount = None
                    if choice == "double" and chooser and chooser.random() < 0.3:
                        hand = next(h for h in view.hands if (h.seat, h.hand) == view.turn)
                        amount = max(1, hand.stake // 2)
                    view = act(s, table, view.to_act, choice, amount)
        except LedgerError:
            pass  # a double or split the wallet cannot pay: refused, nothing changed
        last = view
    return last


# -- the record ------------------------------------------------------------------------------
def full_record() -> RoundRecord:
    return RoundRecord(
        game="blackjack", round_id=9, table="bj", venue="pelisali", mode="live",
        opened_at="2026-11-29T20:00:00+00:00", status=RoundStatus.PLAYING,
        settings={"decks": "2", "double_after_split": False},
        limits=LimitsRecord(min=100, max=100_000), players=["ann", "bob"], stacks=[],
        button=0, bet_numbers=[], history=[
            MoveRecord(actor=0, text="bet box 1 1000"), MoveRecord(actor=0, text="done"),
            MoveRecord(actor=1, text="bet box 3 1000"), MoveRecord(actor=1, text="done"),
            *(MoveRecord(actor=-1, text=card) for card in ("Th", "9c", "As", "8d", "Kh"))],
        ahead=[HeldMove(actor=1, text="insure 500", turn="box 3")],
        settlements=[SettlementRecord(bet_id=1, player="ann", spot="seat 1", stake=1_000,
                                      paid=2_500, rounding="1/2", result="blackjack")],
        rounding="1/2", void_reason=None, shuffle=3, shuffle_order="AsKdTh9cAs8dKh6c",
        burned=["As"], shoe_positions=[2, 7], last_hand_before_shuffle=True,
        stacked=["Th", "9c"])


def test_a_version_2_record_round_trips() -> None:
    record = full_record()
    text = write_record(record, {"cards": ["Th", "9c", "As", "8d", "Kh"]})
    data = json.loads(text)
    assert data["version"] == 2 and data["status"] == "playing" and data["cards"][0] == "Th"
    assert data["history"][0] == {"actor": 0, "text": "bet box 1 1000"}
    assert list(data) == sorted(data)  # keys sorted: the same record is the same text
    again = read_record(text)
    assert again == record
    assert write_record(again, {"cards": data["cards"]}) == text
    assert read_record(data) == record  # the parsed JSON reads the same
    assert again.seats() == Seats(2) and again.dealt() == ["Th", "9c", "As", "8d", "Kh"]
    assert again.shoe_left() == {"Th": 1, "9c": 1, "As": 1, "8d": 1, "Kh": 1, "6c": 1}
    assert again.settlements[0].settlement().rounding == Fraction(1, 2)


@pytest.mark.parametrize(("text", "message"), [
    ('{"version": 3, "game": "blackjack"}', "record version 3"),
    ('{"game": "blackjack", "round_id": 1}', "read by its family"),
    ('{"version": 2, "game": "blackjack", "round_id": 1}', "not a version-2 record"),
    ('{"version": 2, "game": "blackjack", "round_id": 1, "table": "t", "status": "won"}',
     "status"),
    ('{"version": true}', "whole number"),
    ("[1, 2]", "JSON object"),
    ("{not json", "not JSON"),
])
def test_records_that_do_not_read_are_refused(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        read_record(text)


def test_derived_fields_never_replace_the_record() -> None:
    with pytest.raises(RecordError, match="may not replace"):
        write_record(full_record(), {"history": []})


def test_a_record_the_tables_write_is_the_layer_s_own_text(sqlite: Engine) -> None:
    setup(sqlite)
    with transaction(sqlite) as s:
        create_card_table(s, "bj", "blackjack", mode="live", limit_min=100)
        create_card_table(s, "pb", "punto-banco", mode="live", limit_min=100)
        place_card_bet(s, "bj", "ann", "1", 1_000, key="a")
        place_card_bet(s, "pb", "bob", "tie", 500, key="b")
        place_card_bet(s, "pb", "ann", "banker", 1_010, key="c")
        place_card_bet(s, "pb", "bob", "player", 700, key="d")
    with transaction(sqlite) as s:
        view = deal_blackjack(s, "bj", stack=["8h", "Ts", "8d", "7c", "3c", "Kd", "Qh"])
        coup = deal_coup(s, "pb", stack=["Tc", "9h", "2d", "Th"])
    for round_id in (view.round_id, coup.round_id):
        with transaction(sqlite) as s:
            row = s.get(RoundRow, round_id)
            assert row is not None
            record = read_record(row.record, FAMILY)
            assert record.version == 2
            state = rebuild(record, FAMILY)
            assert write_record(record, FAMILY.derived(state, record)) == row.record
    # Punto banco: the engine seats a player's bets together (bob: tie, player; ann:
    # banker); the record keeps the table's numbers, and the settlements are keyed by them.
    record = read_record(json.dumps(stored(sqlite, coup.round_id)), FAMILY)
    assert record.players == ["bob", "ann"] and record.bet_numbers == [1, 3, 2]
    assert [(s.bet_id, s.player, s.spot, s.paid) for s in record.settlements] == [
        (1, "bob", "tie", 0), (2, "ann", "banker", 1_969), (3, "bob", "player", 0)]
    with transaction(sqlite) as s:
        assert s.scalars(select(Transfer).where(
            Transfer.key == f"settle:{coup.round_id}:2")).one().amount == 1_969


# -- version 1 -------------------------------------------------------------------------------
def load_v1(engine: Engine) -> None:
    """The tables, rounds and bets of a database the version-1 tables wrote
    (``tests/data/card_rounds_v1.json``); the stakes of the rounds left in play are in
    the ledger, as they were."""
    setup(engine)
    with transaction(engine) as s:
        for t in V1["tables"]:
            create_card_table(s, t["name"], t["game"], t["settings"], t["min"], t["max"],
                              t["mode"])
    with transaction(engine) as s:
        tables = {t.name: t for t in s.scalars(select(GameTable))}
        for r in sorted(V1["rounds"], key=lambda r: r["id"]):
            table, now = tables[r["table"]], now_utc()
            row = RoundRow(table_id=table.id, status=RoundStatus(r["status"]),
                           gaming_day=table.gaming_day, opened_at=now,
                           record=json.dumps(r["record"], sort_keys=True),
                           deadline=now + timedelta(hours=24),
                           finished_at=None if r["status"] == "playing" else now)
            s.add(row)
            s.flush()
            assert row.id == r["id"]
            for b in r["bets"]:
                s.add(BetRow(round_id=row.id, number=b["number"], player=b["player"],
                             spot=b["spot"], stake=b["stake"], key=b["key"], paid=b["paid"],
                             result=b["result"], created_at=now))
                if r["status"] == "playing":
                    accounts.stake(s, b["player"], b["stake"], key=f"stake:{b['key']}",
                                   reason="before version 2", round_id=row.id)


def v1_round(round_id: int) -> dict[str, Any]:
    found: dict[str, Any] = next(r for r in V1["rounds"] if r["id"] == round_id)
    return found


def in_box_order(decisions: list[list[Any]]) -> list[list[Any]]:
    """Version 1 took insurance answers in any order; the engine asks for them in box
    order."""
    return (sorted(d for d in decisions if d[0] == "insure")
            + [d for d in decisions if d[0] != "insure"])


def test_every_version_1_record_reads_as_version_2() -> None:
    for r in V1["rounds"]:
        old = r["record"]
        record = read_record(json.dumps(old), FAMILY)
        assert (record.version, record.round_id, record.game) == (2, r["id"], old["game"])
        assert record.status == r["status"]
        assert [s.model_dump() for s in record.settlements] == old["settlements"]
        if "cards" not in old:  # a void before the deal: its bets alone
            assert [m.text for m in record.history] == ["bet tie 1000"]
            continue
        state = rebuild(record, FAMILY)
        derived = FAMILY.derived(state, record)
        assert derived["cards"] == old["cards"]
        assert record.shuffle_order == old["shuffle_order"]
        assert record.shoe_positions == old["shoe_positions"]
        if old["game"] == "blackjack":
            assert in_box_order(derived["decisions"]) == in_box_order(old["decisions"])
        if r["status"] == "settled":
            assert state.is_terminal()
            assert [s.model_dump() for s in FAMILY.settlements(state, record)] == \
                old["settlements"]
    # Round 1: ann banker (bet 1), bob player (2), ann tie (3): the engine seats ann's
    # two bets together; the table's numbers stay.
    record = read_record(json.dumps(v1_round(1)["record"]), FAMILY)
    assert record.players == ["ann", "bob"] and record.bet_numbers == [1, 3, 2]
    # Round 25 was left in play with seat 3's insurance answered before seat 1's: held.
    record = read_record(json.dumps(v1_round(25)["record"]), FAMILY)
    assert record.ahead == [HeldMove(actor=1, text="insure 500", turn="box 3")]


def test_an_edited_version_1_record_does_not_recall_the_same() -> None:
    coup = dict(v1_round(2)["record"])
    assert recall(json.dumps(coup), FAMILY).same
    swapped = {**coup, "cards": [[("banker" if side == "player" else "player"), card]
                                 for side, card in coup["cards"]]}
    found = recall(json.dumps(swapped), FAMILY)
    assert not found.same and "do not follow the drawing rules" in str(found.problem)
    blackjack = dict(v1_round(12)["record"])
    assert recall(json.dumps(blackjack), FAMILY).same
    another = {**blackjack, "cards": ["2c" if i == 5 else c
                                      for i, c in enumerate(blackjack["cards"])]}
    found = recall(json.dumps(another), FAMILY)
    assert not found.same and found.problem is not None
    more = {**blackjack, "decisions": [*blackjack["decisions"], ["hit", None]]}
    found = recall(json.dumps(more), FAMILY)
    assert not found.same and "do not fit the round" in str(found.problem)
    paid = {**blackjack, "settlements": [{**x, "paid": x["paid"] + 1}
                                         for x in blackjack["settlements"]]}
    found = recall(json.dumps(paid), FAMILY)
    assert not found.same and found.problem is None  # the replay pays what it paid


def test_a_version_1_database_recalls_resumes_and_deals_on(engine: Engine) -> None:
    load_v1(engine)
    with transaction(engine) as s:
        for r in V1["rounds"]:
            if r["status"] != "playing":
                found = recall_card_round(s, r["id"])
                assert found.same, (r["id"], found.replayed)
                assert found.recorded == r["record"]["settlements"]
        view = blackjack_view(s, "bj-ins")  # seat 3 answered; seat 1 is asked
        assert view is not None and view.insurance_pending == (1,)
        assert [h.player for h in view.hands] == ["bob", "ann"]
        with pytest.raises(TableError, match="already answered"):
            insure(s, "bj-ins", "ann", 3, 0)
    before = {name: wallet(engine, name) for name in ("ann", "bob")}
    paid = {"ann": 0, "bob": 0}
    # The rounds left in play: insurance declined, every hand stands; the cards and the
    # settlements are those the version-1 tables dealt and paid.
    for table in ("bj-play", "bj-ins", "bj-void"):
        expected = V1["next"][table]
        view = play_out(engine, table)
        assert view is not None
        assert (view.round_id, view.status) == (expected["round"], "settled")
        record = stored(engine, view.round_id)
        assert record["version"] == 2 and record["ahead"] == []
        assert record["cards"] == expected["cards"]
        assert in_box_order(record["decisions"]) == in_box_order(expected["decisions"])
        assert record["settlements"] == expected["settlements"]
        for x in expected["settlements"]:
            paid[x["player"]] += x["paid"]
        with transaction(engine) as s:
            assert recall_card_round(s, view.round_id).same
    # The shoe deals on from the version-1 records: the same cards as they would have.
    with transaction(engine) as s:
        place_card_bet(s, "pb-rng", "ann", "banker", 300, key="next-pb")
        place_card_bet(s, "bj-rng", "ann", "1", 1_000, key="next-bj")
    with transaction(engine) as s:
        coup = deal_coup(s, "pb-rng", SeededRng(99))
        dealt = deal_blackjack(s, "bj-rng", SeededRng(99))
    play_out(engine, "bj-rng")
    for table, round_id in (("pb-rng", coup.round_id), ("bj-rng", dealt.round_id)):
        record, expected = stored(engine, round_id), V1["next"][table]
        for key in ("cards", "shoe_positions", "shuffle", "settlements"):
            assert record[key] == expected[key], (table, key)
        paid["ann"] += sum(x["paid"] for x in expected["settlements"])
    assert wallet(engine, "ann") == before["ann"] - 1_300 + paid["ann"]
    assert wallet(engine, "bob") == before["bob"] + paid["bob"]
    with transaction(engine) as s:
        assert check(s).ok and verify_audit(s).ok


# -- recall ----------------------------------------------------------------------------------
def test_recall_replays_the_history_and_checks_what_the_record_shows(sqlite: Engine) -> None:
    setup(sqlite)
    with transaction(sqlite) as s:
        create_card_table(s, "bj", "blackjack", mode="live", limit_min=100)
        place_card_bet(s, "bj", "ann", "1", 1_000, key="a")
    with transaction(sqlite) as s:
        deal_blackjack(s, "bj", stack=["8h", "Ts", "8d", "7c", "3c", "Kd", "Qh"])
        act(s, "bj", "ann", "split")
        act(s, "bj", "ann", "double", 600)
        view = act(s, "bj", "ann", "stand")
        assert view.status == "settled" and recall_card_round(s, view.round_id).same
        row = s.get(RoundRow, view.round_id)
        assert row is not None
        original = json.loads(row.record)
    assert original["decisions"] == [["split", None], ["double", 600], ["stand", None]]

    def recalled(edit: dict[str, Any]) -> tuple[bool, list[dict[str, Any]]]:
        with transaction(sqlite) as s:
            row = s.get(RoundRow, view.round_id)
            assert row is not None
            row.record = json.dumps({**original, **edit})
            found = recall_card_round(s, view.round_id)
            row.record = json.dumps(original)
            return found.same, found.replayed

    history = original["history"]
    card = next(i for i, m in enumerate(history) if m["actor"] == -1 and m["text"] == "3c")
    problems = {
        "a card": {"history": [*history[:card], {"actor": -1, "text": "4c"},
                               *history[card + 1:]]},
        "a decision shown": {"decisions": [["stand", None]]},
        "a card shown": {"cards": ["8h", "Ts", "8d", "7c", "3c", "Kd", "Qs"]},
        "the end": {"history": history[:-1]},
        "a player": {"players": ["bob"]},
        "an unknown action": {"history": [*history[:-1], {"actor": 0, "text": "surrender"}]},
    }
    for name, edit in problems.items():
        assert not recalled(edit)[0], name
    assert recalled({"history": history[:-1]})[1][-1] == {
        "problem": "the record does not replay: the history does not finish the round"}
    assert recalled({"decisions": []})[1][-1] == {
        "problem": "the record's decisions are not its history's"}
    assert recalled({"history": problems["a card"]["history"]})[1][-1] == {
        "problem": "the round's cards are not the shoe's"}
    assert recalled({})[0]


# -- a crash between two decisions -------------------------------------------------------------
def decide(s: Session, table: str, kind: str, what: str, amount: Any) -> BlackjackView:
    """``("insure-bob", "2", 500)``: bob insures seat 2; ``("act", "hit", None)``: ann
    hits; ``("bob", "hit", None)``: bob hits."""
    if kind.startswith("insure"):
        return insure(s, table, kind.split("-")[1], int(what), amount)
    return act(s, table, "bob" if kind == "bob" else "ann", what, amount)


def test_a_crash_between_decisions_resumes_from_the_record(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tables deal the same cards and take the same decisions; at the second, every
    decision first fails after its stake and its cards were taken (the process dies
    before the commit), and the server restarts. Nothing of a failed decision stays, and
    the rounds end the same."""
    setup(engine)
    url = engine.url.render_as_string(hide_password=False)
    with transaction(engine) as s:
        for table in ("bj-a", "bj-b"):
            create_card_table(s, table, "blackjack", mode="live", limit_min=100)
    script: list[tuple[str, list[str], list[tuple[str, str, Any]]]] = [
        # ann splits eights against the dealer's T 7, doubles the first hand (8 3) for less
        # and draws a 5, stands on the second (8 K); bob hits his 9 7 and busts
        ("ann", ["8h", "9d", "Ts", "8d", "7d", "7c", "3c", "Kd", "5s", "Qh"],
         [("act", "split", None), ("act", "double", 600), ("act", "stand", None),
          ("bob", "hit", None)]),
        # insurance under the dealer's A 6, bob answering first for seat 2; both stand
        ("ann", ["Th", "9d", "As", "8c", "Kh", "6c"],
         [("insure-bob", "2", 500), ("insure-ann", "1", 0), ("act", "stand", None),
          ("bob", "stand", None)]),
    ]
    real = card_rounds.append_audit

    def dies(session: Session, actor: str, action: str, data: dict[str, object]) -> str:
        if action == "decision":
            raise RuntimeError("the process died")
        return real(session, actor, action, data)

    outcomes: dict[str, list[Any]] = {}
    for table in ("bj-a", "bj-b"):
        current = engine
        for n, (_who, cards, decisions) in enumerate(script):
            with transaction(current) as s:
                place_card_bet(s, table, "ann", "1", 1_000, key=f"{table}-{n}-a")
                place_card_bet(s, table, "bob", "2", 1_000, key=f"{table}-{n}-b")
            with transaction(current) as s:
                round_id = deal_blackjack(s, table, stack=cards).round_id
            for decision in decisions:
                if table == "bj-b":
                    before = (stored(current, round_id), wallet(current, "ann"),
                              wallet(current, "bob"))
                    with monkeypatch.context() as patched:
                        patched.setattr(card_rounds, "append_audit", dies)
                        with pytest.raises(RuntimeError), transaction(current) as s:
                            decide(s, table, *decision)
                    assert (stored(current, round_id), wallet(current, "ann"),
                            wallet(current, "bob")) == before
                    current.dispose()
                    current = make_engine(url)  # the restart
                with transaction(current) as s:
                    decide(s, table, *decision)
            record = stored(current, round_id)
            assert record["status"] == "settled"
            outcomes.setdefault(table, []).append(
                (record["cards"], record["decisions"], record["settlements"]))
            with transaction(current) as s:
                assert recall_card_round(s, round_id).same
        if current is not engine:
            current.dispose()
    assert outcomes["bj-a"] == outcomes["bj-b"]
    assert outcomes["bj-a"][0][1] == [["split", None], ["double", 600], ["stand", None],
                                      ["hit", None]]
    assert outcomes["bj-a"][1][1] == [["insure", 1, 0], ["insure", 2, 500], ["stand", None],
                                      ["stand", None]]
    with transaction(engine) as s:
        assert check(s).ok and verify_audit(s).ok and reconcile_bets(s).ok
        keys = {t.key.split(":")[0] for t in s.scalars(select(Transfer))}
        assert {"stake", "split", "double", "insure", "settle"} <= keys


# -- money ---------------------------------------------------------------------------------
def test_flows_and_party_moves_read_the_engine_s_money() -> None:
    engine = BaccaratEngine()
    start = engine.new_state(Seats(2))
    bet = start.apply("bet banker 1000").state
    more = bet.apply("bet tie 500").state
    assert flows(bet, more, FAMILY.paid) == {0: Flow(500, 0)}
    ledger = {"seat 0": "player:ann", "seat 1": "player:bob", "table": BANK, "house": BANK}
    assert party_moves(start, more, ledger) == {"player:ann": -1_500, BANK: 1_500}
    state = more.apply("done").state.apply("done").state
    for card in ["Tc", "9h", "2d", "Th"]:  # banker 9 against player 2
        state = state.apply(card).state
    assert flows(more, state, FAMILY.paid) == {0: Flow(0, 1_950)}
    assert party_moves(more, state, ledger) == {"player:ann": 1_950, BANK: -1_950}
    assert flows(start, state, FAMILY.paid) == {0: Flow(1_500, 1_950)}
    paying = [Posting("k", BANK, "player:ann", 1_950, "win")]
    check_postings(paying, party_moves(more, state, ledger))
    with pytest.raises(RecordError, match="the engine moved"):
        check_postings(paying, party_moves(start, state, ledger))
    with pytest.raises(RecordError, match="no ledger account"):
        party_moves(start, more, {"seat 0": "player:ann"})


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
    players = ("ann", "bob", "cid")
    setup(engine, players, money=200_000)
    with transaction(engine) as s:
        create_card_table(s, "pb", "punto-banco", {"decks": "1", "cut_cards_from_back": "20"},
                          limit_min=100)
        create_card_table(s, "bj", "blackjack", {"decks": "1"}, limit_min=100)
    chooser = random.Random(11)
    for i in range(45):
        with transaction(engine) as s:
            for seat, name in enumerate(players, start=1):
                for _ in range(chooser.choice([0, 1, 1, 2])):
                    with contextlib.suppress(TableError):  # the maximum on a spot
                        place_card_bet(s, "pb", name, chooser.choice(["player", "banker", "tie"]),
                                       chooser.choice([100, 505, 1_000, 2_555]),
                                       key=str(uuid.uuid4()))
                for box in (seat, seat + 3):
                    if chooser.random() < 0.5:
                        place_card_bet(s, "bj", name, str(box),
                                       chooser.choice([100, 501, 2_000]), key=str(uuid.uuid4()))
        if chooser.random() < 0.1:  # refused when nobody bet
            with contextlib.suppress(TableError), transaction(engine) as s:
                void_card_round(s, chooser.choice(["pb", "bj"]), "a card reader fault", "floor")
        with contextlib.suppress(TableError), transaction(engine) as s:
            deal_coup(s, "pb", SeededRng(i))  # refused when nobody bet
        try:
            with transaction(engine) as s:
                deal_blackjack(s, "bj", SeededRng(i))
        except TableError:
            continue
        if chooser.random() < 0.1:
            with transaction(engine) as s:
                void_card_round(s, "bj", "a dealer's mistake", "floor")
            continue
        if chooser.random() < 0.2:
            with transaction(engine) as s:
                recover_card_rounds(s, SeededRng(0), everything=True)
        play_out(engine, "bj", chooser)
    with transaction(engine) as s:
        recover_card_rounds(s, SeededRng(0), everything=True)
    with transaction(engine) as s:
        report = check(s)
        assert report.ok, report.problems
        assert verify_audit(s).ok
        reconciled = reconcile_bets(s)
        assert reconciled.ok, reconciled.problems
        total = (sum(balance(s, accounts.wallet_code(name)) for name in players)
                 + balance(s, BANK) + balance(s, "rounding:house"))
        assert total == HOUSE + 200_000 * len(players)  # nothing made, nothing lost
        rows = s.scalars(select(RoundRow).order_by(RoundRow.id)).all()
        assert {r.status for r in rows} <= {"settled", "void", "open"}
        settled = [r for r in rows if r.status == "settled"]
        assert len(settled) > 60 and any(r.status == "void" for r in rows)
        kept = Fraction(0)
        kinds = set()
        for row in rows:
            if row.status == "open":
                continue
            text = row.record
            record = read_record(text, FAMILY)
            if row.status == "void":  # every stake went back
                assert round_ledger(s, row.id) == {}
                continue
            assert recall_card_round(s, row.id).same
            state = rebuild(record, FAMILY)
            # The round's transfers move each wallet and the bank as the engine's accounts
            # say (the bank holds the table's stakes and the house's share).
            ledger = {f"seat {n}": accounts.wallet_code(p) for n, p in enumerate(record.players)}
            moved = party_moves(FAMILY.start(record), state, {**ledger, "table": BANK,
                                                              "house": BANK})
            assert round_ledger(s, row.id) == moved, row.id
            kept += Fraction(record.rounding)
            kinds |= {m.text.split()[0] for m in record.history if m.actor >= 0}
        # Whole cents of the fractions went to the rounding account, round by round.
        assert balance(s, "rounding:house") <= kept < balance(s, "rounding:house") + len(settled)
        assert {"insure", "double", "split", "hit", "stand"} <= kinds
        taken = {t.key.split(":")[0] for t in s.scalars(select(Transfer).where(
            Transfer.kind == "stake"))}
        assert taken == {"stake", "double", "split", "insure"}


def test_a_shoe_that_runs_out_voids_the_round(sqlite: Engine) -> None:
    """The engine voids a round whose shoe runs out before it is over (GGPoker III
    2.1.5): every stake, a double's included, goes back. (A cut card at least a deck from
    the back keeps a real shoe from it; here the record's shoe ends at the round's cards.)"""
    setup(sqlite)
    with transaction(sqlite) as s:
        create_card_table(s, "bj", "blackjack", mode="live", limit_min=100)
        place_card_bet(s, "bj", "ann", "1", 1_000, key="a")
    with transaction(sqlite) as s:
        view = deal_blackjack(s, "bj", stack=["6h", "9s", "5d", "7c"])
        row = s.get(RoundRow, view.round_id)
        assert row is not None
        record = json.loads(row.record)
        end = record["shoe_positions"][1]
        row.record = json.dumps({**record, "shuffle_order": record["shuffle_order"][:2 * end]})
    with transaction(sqlite) as s:
        view = blackjack_view(s, "bj")
        assert view is not None and "double" not in view.actions  # no card left for it
        view = act(s, "bj", "ann", "stand")  # the dealer's 16 must draw: no card
    assert (view.status, view.dealer, view.settlements) == ("void", ("9s", "7c"), ())
    record = stored(sqlite, view.round_id)
    assert record["status"] == "void"
    assert record["void_reason"] == "the shoe ran out before the round was over"
    assert wallet(sqlite, "ann") == 1_000_000
    with transaction(sqlite) as s:
        assert recall_card_round(s, view.round_id).same
        assert round_ledger(s, view.round_id) == {}
        assert check(s).ok and reconcile_bets(s).ok and verify_audit(s).ok
