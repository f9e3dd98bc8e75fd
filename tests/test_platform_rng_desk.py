"""The RNG desk (platform/rng_desk.py): the slips of many players at their own tables
played in one transaction, on SQLite and PostgreSQL. Each slip is paid exactly as the
usual two steps pay it (the same draw gives the same settlements, record and recall),
a refused slip changes nothing and leaves the others of its batch alone, a retried key
is taken once, and the tables whose rounds carry bets or wait for choices go the usual
way inside the batch."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from dbfixtures import HOUSE, Fixed, setup, stored, wallet
from sqlalchemy import Engine, event, func, select
from sqlalchemy.exc import OperationalError

from pelisali.platform import accounts, jackpots, rng_desk, tables
from pelisali.platform.db import transaction
from pelisali.platform.ledger import balance, check, verify_audit
from pelisali.platform.models import BetRow, RoundRow, Transfer
from pelisali.platform.rng_desk import RngDesk, RngOutcome, RngSlip, play_slips
from pelisali.platform.rounds import reconcile_bets, set_table
from pelisali.rng import SeededRng

START = 1_000_000  # each player's wallet (dbfixtures.setup)
PLAYERS = ("ann", "bob", "cid")


def own(engine: Engine, game: str = "roulette", variant: str | None = "C",
        players: tuple[str, ...] = PLAYERS) -> list[str]:
    with transaction(engine) as s:
        return [tables.own_table(s, p, game, variant) for p in players]


def slip(table: str, player: str, bets: list[tuple[str, int]], key: str) -> RngSlip:
    return RngSlip(table, player, tuple(bets), key)


def batch(engine: Engine, slips: list[RngSlip], rng: Any) -> list[RngOutcome]:
    with transaction(engine) as s:
        return play_slips(s, slips, rng)


def sound(engine: Engine) -> None:
    with transaction(engine) as s:
        report = check(s)
        assert report.ok, report.problems
        assert verify_audit(s).ok
        reconciled = reconcile_bets(s)
        assert reconciled.ok, reconciled.problems


def counts(engine: Engine) -> tuple[int, int, int]:
    with transaction(engine) as s:
        return tuple(s.scalar(select(func.count()).select_from(model)) or 0
                     for model in (RoundRow, BetRow, Transfer))  # type: ignore[return-value]


def test_a_batch_pays_every_slip_exactly(engine: Engine) -> None:
    """17 is black, odd, low (1-18), in the second dozen and the second column: every bet of
    three players' slips paid by RAY 1.2.1's table (straight 35:1, dozen 2:1, even
    chances 1:1), each slip its own round, in one transaction."""
    setup(engine, PLAYERS)
    ann, bob, cid = own(engine)
    done = batch(engine, [
        slip(ann, "ann", [("red", 1_000), ("straight 17", 500)], "a1"),
        slip(bob, "bob", [("black", 2_000), ("dozen 2", 300), ("odd", 100)], "b1"),
        slip(cid, "cid", [("high", 700)], "c1")], Fixed(17))
    assert [[(x.spot, x.stake, x.paid, x.result) for x in o.settlements] for o in done] == [
        [("red", 1_000, 0, "lose"), ("straight 17", 500, 18_000, "win")],
        [("black", 2_000, 4_000, "win"), ("dozen 2", 300, 900, "win"),
         ("odd", 100, 200, "win")],
        [("high", 700, 0, "lose")]]
    assert [o.result for o in done] == ["17", "17", "17"]
    assert len({o.round_id for o in done}) == 3
    assert [o.balance for o in done] == [START - 1_500 + 18_000, START - 2_400 + 5_100,
                                         START - 700]
    assert [wallet(engine, p) for p in PLAYERS] == [o.balance for o in done]
    assert [(r.bet_id, r.accepted, r.message) for r in done[1].receipts] == [
        (1, 2_000, "20.00 on black"), (2, 300, "3.00 on dozen 2"), (3, 100, "1.00 on odd")]
    with transaction(engine) as s:
        assert balance(s, "house:bank") == HOUSE + 1_500 + 2_400 + 700 - 18_000 - 5_100
        for o in done:
            assert tables.recall(s, o.round_id).same
    sound(engine)


# What a batch of eight slips sends, commit and audit chain included: a fixed number on
# PostgreSQL; on SQLite each round's insert is one statement of its own (its ids come
# back in order only so), the rest fixed.
BATCH_STATEMENTS = {"postgresql": 11, "sqlite": 11 + 8}


def test_a_batch_costs_a_fixed_number_of_statements(engine: Engine) -> None:
    """A batch's statements do not grow with its slips (but SQLite's round inserts), and
    stay few: each one a round trip every slip of the batch waits for."""
    players = tuple(f"p{n}" for n in range(8))
    setup(engine, players)
    names = own(engine, players=players)
    sent: list[str] = []

    def record(_c: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(statement)

    for number, rng in enumerate((Fixed(17), Fixed(0))):  # some slips win, all lose
        slips = [slip(t, p, [("red", 100), ("straight 17", 100)], f"k{number}-{p}")
                 for t, p in zip(names, players, strict=True)]
        sent.clear()
        event.listen(engine, "before_cursor_execute", record)
        try:
            done = batch(engine, slips, rng)
        finally:
            event.remove(engine, "before_cursor_execute", record)
        assert all(o.refused is None and o.settlements for o in done)
        assert len(sent) <= BATCH_STATEMENTS[engine.dialect.name], sent
    sound(engine)


def test_a_slip_on_the_desk_is_the_slip_played_the_usual_way(engine: Engine) -> None:
    """The same slip on the same draw, once in a batch and once placed and drawn
    alone: the same settlements, the same record but for the round's own number, name
    and times, and both recall the same."""
    setup(engine, ("ann",))
    fast, = own(engine, players=("ann",))
    with transaction(engine) as s:
        tables.create(s, "alone", "roulette", "C")
    bets = [("split 0-1", 400), ("column 3", 1_200), ("straight 0", 100), ("even", 950)]
    for number in (0, 1, 36):
        desk = batch(engine, [slip(fast, "ann", bets, f"d{number}")], Fixed(number))[0]
        with transaction(engine) as s:
            tables.place(s, "alone", "ann", bets, f"u{number}")
            usual = tables.play_round(s, "alone", Fixed(number))
        assert desk.settlements == usual.settlements
        one, other = stored(engine, desk.round_id), stored(engine, usual.round_id)
        for key in ("round_id", "table", "opened_at"):
            one.pop(key), other.pop(key)
        assert one == other
    sound(engine)


def test_refused_slips_change_nothing_and_leave_the_batch_alone(engine: Engine) -> None:
    players = ("ann", "bob", "cid", "dan", "eve", "fay")
    setup(engine, players)
    names = own(engine, players=players)
    with transaction(engine) as s:
        accounts.set_status(s, "bob", "restricted", "under review", "floor")
        accounts.set_limit(s, "cid", "loss", "day", 1_000)
        set_table(s, names[3], "floor", status="closed")
        accounts.withdraw(s, "eve", START - 500, key="w-eve")
    before = {p: wallet(engine, p) for p in players}
    rows = counts(engine)
    done = batch(engine, [
        slip(names[0], "ann", [("red", 1_000), ("nowhere", 100)], "a"),
        slip(names[1], "bob", [("red", 1_000)], "b"),
        slip(names[2], "cid", [("red", 1_500)], "c"),
        slip(names[3], "dan", [("red", 1_000)], "d"),
        slip(names[4], "eve", [("red", 1_000)], "e"),
        slip("rng-roulette-C-zed", "zed", [("red", 100)], "z"),
        slip(names[5], "fay", [], "f"),
        slip(names[5], "fay", [("red", -5)], "f2")], Fixed(3))
    reasons = [str(o.refused) for o in done]
    assert reasons[0].startswith("roulette C has no betting spot 'nowhere'")
    assert reasons[1:] == [
        "bob: account restricted (under review)",
        "cid: loss limit 10.00 a day (lost 0.00, stake 15.00)",
        f"{names[3]} is closed",
        "player:eve holds 5.00, not 10.00: no credit",
        "no table 'rng-roulette-C-zed'",
        "a slip holds at least one bet",
        reasons[7]]
    assert "-5" in reasons[7]
    assert all(o.round_id is None and o.settlements == () for o in done)
    assert {p: wallet(engine, p) for p in players} == before
    assert counts(engine) == rows
    # And a good slip in a batch of refused ones is paid as if alone.
    done = batch(engine, [slip(names[0], "ann", [("red", 1_000)], "a2"),
                          slip(names[1], "bob", [("red", 1_000)], "b2")], Fixed(3))
    assert [o.settlements[0].paid for o in done[:1]] == [2_000] and done[1].refused
    assert wallet(engine, "ann") == START + 1_000
    sound(engine)


def test_a_retried_key_is_taken_once(engine: Engine) -> None:
    setup(engine, ("ann",))
    ann, = own(engine, players=("ann",))
    first = batch(engine, [slip(ann, "ann", [("red", 1_000)], "k")], Fixed(3))[0]
    rows = counts(engine)
    again = batch(engine, [slip(ann, "ann", [("red", 1_000)], "k")], Fixed(4))[0]
    assert again.again and [r.message for r in again.receipts] == ["already placed"]
    assert counts(engine) == rows and wallet(engine, "ann") == START + 1_000
    other = batch(engine, [slip(ann, "ann", [("black", 1_000)], "k")], Fixed(4))[0]
    assert "used for a different bet" in str(other.refused)
    assert first.round_id is not None and counts(engine) == rows
    sound(engine)


def test_tables_that_carry_or_ask_go_the_usual_way_inside_the_batch(engine: Engine) -> None:
    """Roulette D en prison (a bet held into the next round), roulette D with both
    rules (the round waits for the choice), a table with a jackpot, and a second slip at
    one table: played as the usual two steps would, in the batch's transaction."""
    setup(engine, PLAYERS)
    with transaction(engine) as s:
        prison = tables.create(s, "prison", "roulette", "D",
                               settings={"zero_rule": "en_prison"}).name
        both = tables.create(s, "both", "roulette", "D", settings={"zero_rule": "both"}).name
        plain = tables.create(s, "plain", "roulette", "C").name
        jackpots.create_jackpot(s, "jp", plain, "fixed", fee=100, faces=["0"], amount=5_000)
    done = batch(engine, [
        slip(prison, "ann", [("red", 1_000)], "p1"),
        slip(both, "bob", [("red", 1_000)], "b1"),
        slip(plain, "cid", [("red", 1_000)], "c1"),
        slip(plain, "ann", [("black", 500)], "c2")], Fixed(0))
    assert [(x.result, x.paid, x.held_level) for x in done[0].settlements] == [
        ("prison", 0, 1)]
    assert done[1].deciding and done[1].settlements == ()
    assert [(x.spot, x.paid) for x in done[2].settlements] == [("red", 0)]
    assert [(x.spot, x.paid) for x in done[3].settlements] == [("black", 0)]
    assert done[2].round_id != done[3].round_id
    with transaction(engine) as s:
        assert [b.spot for b in tables.standing_bets(s, prison, "ann")] == ["red"]
        assert tables.waiting(s, both, "bob").choices == {1: ["prison", "half"]}
        half = tables.decide(s, both, "bob", tables.ZeroChoice(done[1].round_id, 1, "half"))
    assert [(x.paid, x.result) for x in half.settlements] == [(500, "half")]
    # The bet in prison is released by red in the next round: the stake back.
    released = batch(engine, [slip(prison, "ann", [("straight 3", 100)], "p2")], Fixed(3))
    assert [(x.spot, x.paid, x.result) for x in released[0].settlements] == [
        ("red", 1_000, "release"), ("straight 3", 3_600, "win")]
    sound(engine)


def test_the_desk_groups_the_slips_of_many_threads(engine: Engine) -> None:
    """Eight players sending thirty slips each at once: every slip settled once, in
    fewer batches than slips, and every cent accounted for."""
    players = tuple(f"p{n}" for n in range(8))
    setup(engine, players)
    names = own(engine, players=players)
    desk = RngDesk(engine, SeededRng(5))
    paid: dict[str, int] = {}
    staked: dict[str, int] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(players))

    def play(n: int) -> None:
        barrier.wait()
        try:
            for k in range(30):
                outcome = desk.play(slip(names[n], players[n], [("red", 100 + k)],
                                         f"{players[n]}-{k}"))
                assert outcome.refused is None, outcome.refused
                paid[players[n]] = paid.get(players[n], 0) + sum(
                    x.paid for x in outcome.settlements)
                staked[players[n]] = staked.get(players[n], 0) + 100 + k
        except BaseException as exc:  # pragma: no cover - shown by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(n,)) for n in range(len(players))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert desk.slips == 8 * 30 and desk.batches < desk.slips
    for p in players:
        assert wallet(engine, p) == START - staked[p] + paid[p]
    with transaction(engine) as s:
        assert s.scalar(select(func.count()).select_from(RoundRow)) == 8 * 30
        assert s.scalar(select(func.count()).select_from(BetRow)
                        .where(BetRow.paid.is_(None))) == 0
    sound(engine)


def test_one_slip_s_fault_is_its_own_and_a_dropped_batch_is_tried_again(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    setup(engine, ("ann", "bob"))
    ann, bob = own(engine, players=("ann", "bob"))
    real = rng_desk.play_slips
    calls: list[int] = []

    def faulty(session: Any, slips: list[RngSlip], rng: Any) -> list[RngOutcome]:
        calls.append(len(slips))
        if len(calls) == 1:  # the database drops the first try
            raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))
        if any(s.key == "boom" for s in slips):
            raise RuntimeError("a fault of this slip alone")
        return real(session, slips, rng)

    monkeypatch.setattr(rng_desk, "play_slips", faulty)
    desk = RngDesk(engine, Fixed(3))
    # Nobody else is writing: the two go in one batch through the desk's own batching.
    desk._waiting = [rng_desk._Ticket(slip(bob, "bob", [("red", 100)], "boom"))]
    outcome = desk.play(slip(ann, "ann", [("red", 1_000)], "fine"))
    assert calls == [2, 2, 1, 1]  # dropped, tried again, then slip by slip
    assert outcome.settlements[0].paid == 2_000
    assert wallet(engine, "ann") == START + 1_000 and wallet(engine, "bob") == START
    sound(engine)
