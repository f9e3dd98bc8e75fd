"""``pelisali tournament board`` as a floor manager uses it: a roulette sprint from the
announcement to the prizes on the wallets, a blackjack round decided at the terminal, a
slot tournament played by bots, a timed tournament closed by ``tick``, refunds, and
every refusal printed with its reason, exit 2, nothing changed. The clock is the time
``PELISALI_NOW`` holds: no test sleeps."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dbfixtures import HOUSE, fresh_engine, setup, wallet
from sqlalchemy import Engine, func, select
from test_cli_startup import imported
from typer.testing import CliRunner

from pelisali.platform import leaderboard_tournaments as board
from pelisali.platform.db import transaction
from pelisali.platform.ledger import balance
from pelisali.platform.models import TournamentRecord, Transfer

runner = CliRunner()
PLAYERS = ("ann", "bob", "cid")
MONEY = 10_000  # cents each player holds
START = "2026-12-03T18:00:00"


def run(*args: str) -> tuple[int, str]:
    from pelisali.cli.main import app

    result = runner.invoke(app, ["tournament", "board", *args])
    return result.exit_code, " ".join(result.output.split())


def data(*args: str) -> Any:
    code, out = run(*args, "--json")
    assert code == 0, out
    return json.loads(out)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Engine]:
    """The commands' database, SQLite's file or a PostgreSQL schema of the test's own,
    and the clock stopped at :data:`START`."""
    for engine in fresh_engine(request.param, tmp_path):
        setup(engine, players=PLAYERS, money=MONEY)
        monkeypatch.setenv("PELISALI_DATABASE_URL", engine.url.render_as_string(False))
        monkeypatch.setenv("PELISALI_NOW", START)
        yield engine


def the_ledger(engine: Engine) -> tuple[int, list[tuple[int, int, str]]]:
    """Every transfer and every tournament's saved version and state: what a refused
    command must leave as it found it."""
    with transaction(engine) as s:
        transfers = s.scalar(select(func.count()).select_from(Transfer)) or 0
        rows = s.execute(
            select(TournamentRecord.id, TournamentRecord.version, TournamentRecord.state)
        ).all()
        return transfers, [tuple(row) for row in rows]  # type: ignore[misc]


def reconciled(engine: Engine, tournament_id: int) -> None:
    with transaction(engine) as s:
        assert board.reconcile(s, tournament_id) == []


def entered(*args: str, players: tuple[str, ...] = PLAYERS) -> None:
    """Tournament 1 made with ``args`` and every player registered."""
    code, out = run("create", *args)
    assert code == 0, out
    for name in players:
        code, out = run("register", "1", name)
        assert code == 0, out


def test_a_roulette_sprint_from_the_announcement_to_the_prizes(db: Engine) -> None:
    code, out = run(
        "create", "roulette-sprint", "Ilta", "--rounds", "2", "--buy-in", "10", "--fee", "1",
        "--guarantee", "40",
    )  # fmt: skip
    assert code == 0, out
    assert (
        "tournament 1 'Ilta': roulette-C (roulette-sprint), 2 rounds, 10,000 chips, bets 100 "
        "to 2,500 a round, 1000 entries, buy-in 10.00 + 1.00 fee, freezeout, guarantee 40.00"
    ) in out
    code, out = run("register", "1", "ann", "--key", "ann-1")
    assert code == 0 and "ann registered in tournament 1 (entry ann): paid 10.00 + 1.00" in out
    code, out = run("register", "1", "ann", "--key", "ann-1")  # a retry
    assert code == 0 and "a retry, nothing paid again" in out
    for name in PLAYERS[1:]:
        assert run("register", "1", name)[0] == 0
    assert wallet(db, "ann") == MONEY - 1100
    [lobby] = data("list")
    assert (lobby["game"], lobby["status"], lobby["entries"], lobby["pool"]) == (
        "roulette-C", "registering", 3, 4000)  # fmt: skip
    code, out = run("list")
    assert "│ 1 │ Ilta │ roulette-C │ registering │ 3/1000 │ 10.00+1.00 │ 40.00* │" in out

    code, out = run("start", "1", "--seed", "1")
    assert code == 0 and "tournament 1 started: 3 entries, 10,000 chips each, 2 rounds" in out
    code, out = run("play", "1", "ann", "bet red 1000", "--draw", "1", "--key", "a1")
    assert code == 0 and "round 1 of ann: drawn 1" in out
    assert "staked 1,000, returned 2,000 (+1,000); ann has 11,000 chips, 1 round left" in out
    code, out = run("play", "1", "ann", "bet red 1000", "--draw", "2", "--key", "a1")  # retried
    assert code == 0 and "ann has 11,000 chips, 1 round left" in out
    code, out = run("play", "1", "ann", "bet straight 17 100", "--draw", "17")
    assert code == 0 and "returned 3,600 (+3,500); ann has 14,500 chips, 0 rounds left" in out
    for bets, pocket in ((["bet black 2500"], "2"), (["bet red 500", "bet dozen 1 500"], "0")):
        assert run("play", "1", "bob", *bets, "--draw", pocket)[0] == 0
    assert run("play", "1", "cid", "bet even 100", "--draw", "3")[0] == 0
    status = data("status", "1")
    assert status["status"] == "running" and status["seconds_left"] is None
    rows = [(r["entry"], r["chips"], r["rounds"], r["rounds_left"]) for r in status["leaderboard"]]
    assert rows == [("ann", 14_500, 2, 0), ("bob", 11_500, 2, 0), ("cid", 9900, 1, 1)]
    code, out = run("play", "1", "cid", "bet odd 100", "--draw", "3")  # the last round
    assert code == 0 and "tournament 1 finished: the prizes are paid" in out

    results = data("results", "1")
    assert (results["status"], results["pool"], results["overlay"]) == ("finished", 4000, 1000)
    # Three entries: the standard payout table pays one place, the guaranteed pool.
    assert [(r["place"], r["player"], r["chips"], r["prize"]) for r in results["ranking"]] == [
        (1, "ann", 14_500, 4000), (2, "bob", 11_500, 0), (3, "cid", 10_000, 0),
    ]  # fmt: skip
    assert wallet(db, "ann") == MONEY - 1100 + 4000
    assert wallet(db, "bob") == wallet(db, "cid") == MONEY - 1100
    with transaction(db) as s:
        assert balance(s, "tournament:1") == 0 and balance(s, "fee:tournaments") == 300
        assert balance(s, "house:bank") == HOUSE - 1000  # the overlay
    code, out = run("results", "1")
    assert code == 0 and "│ 1 │ ann │ ann │ 14,500 │ 40.00 │" in out
    assert "prize pool 40.00, of it overlay 10.00 paid by the house" in out
    reconciled(db, 1)

    before = the_ledger(db)
    code, out = run("play", "1", "ann", "bet red 100", "--draw", "1")
    assert code == 2 and "the tournament is finished" in out
    code, out = run("cancel", "1")
    assert code == 2 and "the tournament is finished" in out
    assert the_ledger(db) == before


def test_a_blackjack_round_is_decided_at_the_terminal(db: Engine) -> None:
    entered("blackjack-100", "BJ", "--rounds", "1", "--buy-in", "5")
    assert run("start", "1", "--seed", "1")[0] == 0
    # The cards as the dealer deals them: a player's card, the dealer's up card, the
    # player's second card, the dealer's hole card.
    code, out = run("play", "1", "ann", "bet box 1 500", *_draws("5h", "7c", "6s", "9d"))
    assert code == 0 and "dealer 7c (7); box 1: 5h 6s (11)" in out
    assert "decide: hit, stand, double, double 1" in out
    before = the_ledger(db)
    code, out = run("decide", "1", "ann", "split")
    assert code == 2 and "split" in out and the_ledger(db) == before
    code, out = run("decide", "1", "ann", "double", *_draws("Th", "Kd"))
    assert code == 0 and "dealer 7c 9d Kd (26); box 1: 5h 6s Th (21)" in out
    assert "staked 1,000, returned 2,000 (+1,000); ann has 11,000 chips, 0 rounds left" in out

    code, out = run("play", "1", "bob", "bet box 1 500", *_draws("Th", "Ac", "6s", "9d"))
    assert code == 0 and "dealer Ac (11); box 1: Th 6s (16)" in out
    assert "decide: insure 0, insure 250" in out
    assert run("decide", "1", "bob", "insure 0")[0] == 0
    [_, bob, _] = data("status", "1")["leaderboard"]
    assert (bob["entry"], bob["in_play"]) == ("bob", True)
    code, out = run("status", "1")
    assert "bob * │ 10,000 │ 0 │ 1" in out and "a round in play, waiting for a decision" in out
    code, out = run("decide", "1", "bob", "hit", *_draws("5c"))
    assert code == 0 and "dealer Ac 9d (20); box 1: Th 6s 5c (21)" in out
    assert "bob has 10,500 chips" in out

    assert run("play", "1", "cid", "bet box 1 100", *_draws("Ah", "5c", "Kh", "9d"))[0] == 0
    results = data("results", "1")  # cid's blackjack pays 3:2 and ends the tournament
    assert [(r["player"], r["chips"], r["prize"]) for r in results["ranking"]] == [
        ("ann", 11_000, 1500), ("bob", 10_500, 0), ("cid", 10_150, 0),
    ]  # fmt: skip
    assert wallet(db, "ann") == MONEY - 500 + 1500
    reconciled(db, 1)


def test_the_bots_finish_a_round_left_in_play_and_stand_on_17(db: Engine) -> None:
    entered("blackjack-100", "BJ", "--rounds", "3")
    assert run("start", "1", "--seed", "1")[0] == 0
    assert run("play", "1", "bob", "bet box 1 500", *_draws("Th", "Ac", "6s", "9d"))[0] == 0
    code, out = run("bots", "1", "--seed", "5")
    assert code == 0 and "the bots played 9 rounds" in out and "tournament 1 finished" in out
    with transaction(db) as s:
        record = s.get(TournamentRecord, 1)
        assert record is not None
        held = board.load(record)
    entries = held.engine.entries
    assert [e.rounds for e in entries.values()] == [3, 3, 3]
    # bob's round in play was ended by the bot: insurance declined, then 16 hit.
    first = next(r for _, _, r in held.requests["bob"] if r["round"] == 1 and r["over"])
    assert [text for actor, text in first["moves"] if actor == 0][:4] == [
        "bet box 1 500", "done", "insure 0", "hit",
    ]  # fmt: skip
    for entry in entries.values():
        decisions = [text for actor, text in entry.last_round or [] if actor == 0][2:]
        assert set(decisions) <= {"hit", "stand", "insure 0"}, decisions
        assert entry.staked >= 3 * 100
    reconciled(db, 1)


def _draws(*outcomes: str) -> list[str]:
    return [word for outcome in outcomes for word in ("--draw", outcome)]


def test_a_slot_tournament_played_by_the_bots_is_paid_and_reproducible(db: Engine) -> None:
    entered("slot-200-spins", "Hedelmä", "--rounds", "6", "--buy-in", "5", "--fee", "0.50")
    assert run("create", "slot-200-spins", "Again", "--rounds", "6")[0] == 0
    for name in PLAYERS:
        assert run("register", "2", name)[0] == 0
    code, out = run("bots", "1")
    assert code == 2 and "tournament 1 is registering" in out
    for tournament in ("1", "2"):
        assert run("start", tournament)[0] == 0
        code, out = run("bots", tournament, "--seed", "7")
        assert code == 0 and f"tournament {tournament}: the bots played 18 rounds" in out
        assert f"tournament {tournament} finished" in out
    results = data("results", "1")
    assert results["status"] == "finished" and results["pool"] == 1500
    ranking = results["ranking"]
    assert sum(r["prize"] for r in ranking) == 1500 and ranking[0]["prize"] == 1500
    for row in ranking:
        assert wallet(db, row["player"]) == MONEY - 550 + row["prize"]
    # The same seed, the same spins: the second tournament's chips are the first's.
    again = data("results", "2")["ranking"]
    assert [(r["entry"], r["chips"]) for r in again] == [(r["entry"], r["chips"]) for r in ranking]
    status = data("status", "1")
    assert [r["rounds"] for r in status["leaderboard"]] == [6, 6, 6]
    with transaction(db) as s:
        record = s.get(TournamentRecord, 1)
        assert record is not None and record.kind == "slot"
        held = board.load(record)
        # The cheapest spin, 5 credits: the chips are the start and what the spins paid.
        for entry in held.engine.entries.values():
            assert entry.staked == 6 * 5
            assert entry.chips == 10_000 - entry.staked + entry.paid
    reconciled(db, 1)
    reconciled(db, 2)


def test_a_timed_tournament_is_finished_and_paid_by_tick(
    db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    entered("slot-10-minutes", "Kymppi", "--buy-in", "5", "--guarantee", "20")
    assert run("create", "blackjack-100", "BJ", "--rounds", "0", "--seconds", "600")[0] == 0
    for name in PLAYERS[:2]:
        assert run("register", "2", name)[0] == 0
    code, out = run("start", "1", "--seed", "1")
    assert code == 0 and "time limit 10:00" in out
    assert run("start", "2", "--seed", "2")[0] == 0
    code, out = run("bots", "1")
    assert code == 2 and "the tournament has only a time limit: give --rounds" in out

    monkeypatch.setenv("PELISALI_NOW", "2026-12-03T18:00:30")
    code, out = run("play", "1", "ann", "spin 20 1", *_draws("0", "0", "0", "0", "0"))
    assert code == 0 and "round 1 of ann: reels stop at 0 0 0 0 0" in out
    assert run("play", "2", "ann", "bet box 1 500", *_draws("Th", "7c", "Ts", "9d"))[0] == 0
    monkeypatch.setenv("PELISALI_NOW", "2026-12-03T18:09:00")
    code, out = run("tick", "--all")
    assert code == 0 and "tournament 1: running" in out and "tournament 2: running" in out
    status = data("status", "1")
    assert (status["elapsed"], status["seconds_left"]) == (540, 60)
    code, out = run("status", "1")
    assert "played 9:00, 1:00 left by the clock" in out

    monkeypatch.setenv("PELISALI_NOW", "2026-12-03T18:10:00")
    before = the_ledger(db)
    code, out = run("play", "1", "bob", "spin 20 1", *_draws("0", "0", "0", "0", "0"))
    assert code == 2 and "the tournament is finished: the time is up" in out
    assert the_ledger(db) == before
    code, out = run("tick", "1")
    assert code == 0 and "tournament 1: finished at the clock, the prizes are paid" in out
    results = data("results", "1")
    assert (results["pool"], results["overlay"]) == (2000, 500)
    assert sum(r["prize"] for r in results["ranking"]) == 2000
    for row in results["ranking"]:
        assert wallet(db, row["player"]) == MONEY - 500 + row["prize"]
    # ann's hand of 20 against the dealer's 16 is still in play: at the close it stands,
    # the dealer drawing from the tournament's generator.
    code, out = run("tick", "--all", "--seed", "3")
    assert code == 0 and "tournament 2: finished at the clock" in out
    assert "tournament 1" not in out  # finished already: not read again
    before = the_ledger(db)
    code, out = run("tick", "1")
    assert code == 0 and "tournament 1: finished" in out and the_ledger(db) == before
    assert data("results", "2")["status"] == "finished"
    with transaction(db) as s:
        assert balance(s, "tournament:1") == 0 and balance(s, "house:bank") == HOUSE - 500
    reconciled(db, 1)
    reconciled(db, 2)


def test_unregistering_and_cancelling_refund_every_cent(db: Engine) -> None:
    entered("roulette-sprint", "Aamu", "--buy-in", "20", "--fee", "2")
    code, out = run("unregister", "1", "bob", "--key", "bob-out")
    assert code == 0 and "bob unregistered from tournament 1: 22.00 refunded; 2 of 1000" in out
    assert run("unregister", "1", "bob", "--key", "bob-out")[0] == 0  # a retry
    assert wallet(db, "bob") == MONEY
    assert run("start", "1", "--seed", "1")[0] == 0
    assert run("play", "1", "ann", "bet red 2500", "--draw", "1")[0] == 0
    code, out = run("cancel", "1", "--staff", "floor")
    assert code == 0 and "tournament 1 cancelled: 44.00 paid back to 2 player(s)" in out
    assert "ann: 22.00" in out and "cid: 22.00" in out
    assert all(wallet(db, name) == MONEY for name in PLAYERS)
    assert data("results", "1")["status"] == "cancelled"
    with transaction(db) as s:
        assert balance(s, "tournament:1") == 0 and balance(s, "fee:tournaments") == 0
    reconciled(db, 1)


REFUSED = [
    (("create", "hyper", "X"),
     "no leaderboard tournament 'hyper'; tournaments: blackjack-100, roulette-sprint, "
     "slot-10-minutes, slot-200-spins"),
    (("create", "roulette-sprint", "X", "--buy-in=-5"), "not an amount of money: '-5'"),
    (("create", "roulette-sprint", "X", "--fee", "1.005"), "not an amount of money"),
    (("create", "roulette-sprint", "X", "--buy-in", "100.01"), "an entry costs at most 10000"),
    (("create", "roulette-sprint", "X", "--entry", "rebuy"), "--entry takes freezeout or"),
    (("create", "roulette-sprint", "X", "--rounds", "0"), "a number of rounds, a time limit"),
    (("create", "roulette-sprint", "X", "--starts-at", "sunday"),
     "--starts-at takes YYYY-MM-DDTHH:MM:SS"),
    (("register", "99", "ann"), "there is no tournament 99"),
    (("register", "2", "ann"), "tournament 2 is a poker tournament, not a table-game or slot"),
    (("status", "2"), "tournament 2 is a poker tournament"),
    (("results", "99"), "there is no tournament 99"),
    (("cancel", "99"), "there is no tournament 99"),
    (("tick", "99"), "there is no tournament 99"),
    (("tick",), "give a tournament's number or --all"),
    (("play", "1", "ann", "bet red 3000", "--draw", "1"),
     "a round stakes at most 2500 chips, not 3000"),
    (("play", "1", "ann", "bet red 2000", "bet black 1000", "--draw", "1"),
     "a round stakes at most 2500 chips, not 3000"),
    (("play", "1", "ann", "bet red 50", "--draw", "1"), "a round stakes at least 100"),
    (("play", "1", "ann", "bet purple 100", "--draw", "1"), "purple"),
    (("play", "1", "nobody", "bet red 100", "--draw", "1"), "'nobody' is not in the tournament"),
    (("play", "1", "ann", "bet red 100", "--draw", "1", "--draw", "2"), "1 draws left over"),
    (("decide", "1", "ann", "hit"), "ann has no round in play"),
    (("start", "1", "--seed", "-1"), "--seed must be 0 or more"),
    (("bots", "1", "--rounds", "0"), "--rounds must be positive"),
    (("unregister", "1", "ann"), "a player can unregister only before the start"),
]  # fmt: skip


def test_every_refusal_says_why_exits_2_and_changes_nothing(db: Engine) -> None:
    from pelisali.cli.main import app

    entered("roulette-sprint", "Ilta", "--buy-in", "10", players=PLAYERS[:2])
    assert runner.invoke(app, ["tournament", "create", "P", "--capacity", "6"]).exit_code == 0
    assert run("start", "1", "--seed", "1")[0] == 0
    assert run("play", "1", "ann", "bet red 100", "--draw", "1", "--key", "used")[0] == 0
    before = the_ledger(db)
    wallets = [wallet(db, name) for name in PLAYERS]
    refused = [
        *REFUSED,
        (("play", "1", "bob", "bet red 100", "--draw", "1", "--key", "used"),
         "idempotency key 'used' was used for a different request: round 1 of ann"),
    ]  # fmt: skip
    for args, message in refused:
        result = runner.invoke(app, ["tournament", "board", *args])
        out = " ".join(result.output.split())
        assert result.exit_code == 2 and message in out, (args, out)
        # Exit 2 from the command's own refusal, never an exception escaping it.
        assert isinstance(result.exception, SystemExit), (args, result.exception)
        assert the_ledger(db) == before, args
        assert [wallet(db, name) for name in PLAYERS] == wallets, args
    assert [t["id"] for t in data("list")] == [1]  # no refused one made, the poker one left out
    reconciled(db, 1)


def test_the_board_help_loads_no_database_or_numpy() -> None:
    assert imported("tournament", "board", "--help") == []
    assert imported("tournament", "board", "play", "--help") == []


def test_the_rounds_are_listed_for_the_auditor_with_their_draws(db: Engine) -> None:
    entered("roulette-sprint", "Ilta", "--rounds", "2", "--buy-in", "10", "--fee", "1")
    assert run("start", "1", "--seed", "1")[0] == 0
    assert run("play", "1", "ann", "bet red 1000", "--draw", "1", "--key", "a1")[0] == 0
    assert run("play", "1", "bob", "bet 17 100", "--draw", "17", "--key", "b1")[0] == 0
    assert run("play", "1", "ann", "bet black 500", "--draw", "3", "--key", "a2")[0] == 0
    kept = data("rounds", "1")["rounds"]
    assert [(r["entry"], r["round"], r["staked"], r["paid"]) for r in kept] == [
        ("ann", 1, 1000, 2000), ("bob", 1, 100, 3600), ("ann", 2, 500, 0)]  # fmt: skip
    assert [-1, "17"] in kept[1]["moves"]
    assert [r["round"] for r in data("rounds", "1", "--entry", "ann")["rounds"]] == [1, 2]
    code, out = run("rounds", "1", "--entry", "bob")
    assert code == 0 and "tournament 1: 1 rounds" in out and "chance 17" in out
    code, out = run("rounds", "9")
    assert code == 2 and "9" in out
    reconciled(db, 1)
