"""``pelisali tournament`` as a floor manager uses it: a sit & go from the announcement to
the prizes on the wallets, a guaranteed scheduled tournament, refunds, and every refusal
printed with its reason, exit 2, nothing changed."""

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

from pelisali.cli.main import app
from pelisali.platform.db import transaction
from pelisali.platform.ledger import balance
from pelisali.platform.models import TournamentRecord, Transfer
from pelisali.rules.tournaments import load_payouts
from pelisali.tournaments.prizes import place_prizes

runner = CliRunner()
PLAYERS = ("ann", "bob", "cid", "dan", "eve", "fay", "gus")
MONEY = 10_000  # cents each player holds


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, " ".join(result.output.split())


def data(*args: str) -> Any:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Engine]:
    """The commands' database, SQLite's file or a PostgreSQL schema of the test's own."""
    for engine in fresh_engine(request.param, tmp_path):
        setup(engine, players=(*PLAYERS, "poor"), money=MONEY)
        with transaction(engine) as s:  # "poor" keeps 5.00 of the 100.00
            from pelisali.platform import accounts

            accounts.withdraw(s, "poor", MONEY - 500, key="w-poor")
        monkeypatch.setenv("PELISALI_DATABASE_URL", engine.url.render_as_string(False))
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


def ledger_ok() -> None:
    code, out = run("ledger", "check")
    assert code == 0 and "ledger OK" in out, out


def test_a_sit_and_go_from_the_announcement_to_the_prizes(db: Engine) -> None:
    code, out = run(
        "tournament", "create", "Ilta", "--capacity", "7", "--buy-in", "10.01", "--fee", "1"
    )
    assert code == 0, out
    assert "tournament 1 'Ilta': holdem sit & go, 7 entries, buy-in 10.01 + 1.00 fee" in out
    assert "1,500 chips, structure sit-and-go, freezeout" in out
    code, out = run("tournament", "register", "1", "ann", "--key", "ann-1")
    assert code == 0 and "ann registered in tournament 1 (entry ann): paid 10.01 + 1.00" in out
    code, out = run("tournament", "register", "1", "ann", "--key", "ann-1")  # a retry
    assert code == 0 and "a retry, nothing paid again" in out
    for name in PLAYERS[1:]:
        code, out = run("tournament", "register", "1", name)  # a key made for each
        assert code == 0, out
    assert "7 of 7 entries" in out and "'pelisali tournament start 1'" in out
    assert wallet(db, "ann") == MONEY - 1101
    [lobby] = data("tournament", "list")
    assert (lobby["status"], lobby["entries"], lobby["pool"]) == ("registering", 7, 7007)

    code, out = run("tournament", "start", "1", "--seed", "1")
    assert code == 0 and "7 entries at 1 table(s); level 1, blinds 10/20" in out
    status = data("tournament", "status", "1")
    assert status["level"] == {
        "number": 1, "small_blind": 10, "big_blind": 20, "ante": 0, "on_break": False,
        "seconds_left": 600,
    }  # fmt: skip
    assert (status["players_left"], status["average_stack"]) == (7, 1500)
    assert status["tables"] == [{"table": 1, "players": 7, "chips": 7 * 1500}]
    assert len(status["leaders"]) == 5 and status["paid_places"] == [3504, 2102, 1401]

    code, out = run("tournament", "play", "1", "--hands", "5", "--seed", "2")
    assert code == 0 and "5 hands played (5 in all), level 1" in out
    status = data("tournament", "status", "1")
    # One table: a round is a hand, a minute; the clock moves on when a round ends, so
    # the fifth hand was dealt at 4:00 and the play stopped after it.
    assert (status["hands"], status["elapsed"]) == (5, 4 * 60)
    assert status["level"]["seconds_left"] == 600 - 4 * 60
    assert sum(t["chips"] for t in status["tables"]) == 7 * 1500
    chips = [leader["chips"] for leader in status["leaders"]]
    assert chips == sorted(chips, reverse=True)
    code, out = run("tournament", "status", "1")
    assert code == 0 and "level 1: blinds 10/20; next level in 6:00 (played 4:00, 5 hands)" in out
    ledger_ok()

    code, out = run("tournament", "play", "1", "--seed", "3")
    assert code == 0 and "resuming tournament 1 after hand 5" in out and "finished after" in out
    results = data("tournament", "results", "1")
    assert results["status"] == "finished" and results["pool"] == 7007
    # The payout table's shares for 7 entrants, rounded down, the cent left to the winner.
    shares = load_payouts("standard").places_for(7)
    assert shares == (5000, 3000, 2000)
    expected = (3504, 2102, 1401)
    assert place_prizes(7007, shares) == expected
    ranking = results["ranking"]
    assert [row["place"] for row in ranking] == [1, 2, 3, 4, 5, 6, 7]
    assert [row["prize"] for row in ranking] == [*expected, 0, 0, 0, 0]
    for row in ranking:
        assert wallet(db, row["player"]) == MONEY - 1101 + row["prize"]
    with transaction(db) as s:
        assert balance(s, "tournament:1") == 0 and balance(s, "fee:tournaments") == 700
        assert balance(s, "house:bank") == HOUSE  # no overlay: the house paid nothing
        wins = s.scalars(select(Transfer).where(Transfer.kind == "win")).all()
        assert sorted(t.amount for t in wins) == sorted(expected)
    code, out = run("tournament", "results", "1")
    winner = ranking[0]["player"]
    assert code == 0 and f"│ 1 │ {winner} │ {winner} │ 35.04 │" in out
    assert "prize pool 70.07" in out
    ledger_ok()

    before = the_ledger(db)
    code, out = run("tournament", "play", "1")  # played out: nothing to play, nothing paid
    assert code == 2 and "tournament 1 is finished" in out
    code, out = run("tournament", "cancel", "1")
    assert code == 2 and "the tournament is finished" in out
    assert the_ledger(db) == before


def test_a_scheduled_tournament_with_a_guarantee_the_house_tops_up(db: Engine) -> None:
    code, out = run(
        "tournament", "create", "Sunday", "--scheduled", "--capacity", "50",
        "--min-players", "3", "--buy-in", "5", "--fee", "0.50", "--guarantee", "50",
        "--structure", "turbo", "--chips", "2000", "--seats", "6",
        "--starts-at", "2026-12-27T18:00",
    )  # fmt: skip
    assert code == 0 and "holdem scheduled, 50 entries" in out and "guarantee 50.00" in out
    for name in PLAYERS[:2]:
        assert run("tournament", "register", "1", name)[0] == 0
    before = the_ledger(db)
    code, out = run("tournament", "start", "1")
    assert code == 2 and "2 entries: the tournament needs 3" in out
    assert the_ledger(db) == before
    for name in PLAYERS[2:4]:
        assert run("tournament", "register", "1", name)[0] == 0
    [lobby] = data("tournament", "list")
    assert lobby["starts_at"] == "2026-12-27T18:00:00+00:00"
    assert (lobby["pool"], lobby["guarantee"], lobby["format"]) == (5000, 5000, "scheduled")
    code, out = run("tournament", "list")
    assert "│ 1 │ Sunday │ holdem MTT │ registering │ 4/50 │ 5.00+0.50 │ 50.00* │" in out
    assert "#1 starts 2026-12-27 18:00 UTC" in out and "* guaranteed: the house pays" in out
    assert run("tournament", "start", "1", "--seed", "4")[0] == 0
    assert data("tournament", "status", "1")["level"]["big_blind"] == 50  # turbo, level 1
    assert run("tournament", "play", "1", "--seed", "5", "--seconds-a-hand", "30")[0] == 0
    results = data("tournament", "results", "1")
    # 4 entries: two places, 65 % and 35 % of the guaranteed 50.00.
    assert place_prizes(5000, load_payouts().places_for(4)) == (3250, 1750)
    assert [r["prize"] for r in results["ranking"]][:2] == [3250, 1750]
    assert (results["pool"], results["overlay"]) == (5000, 3000)
    with transaction(db) as s:
        assert balance(s, "house:bank") == HOUSE - 3000
        assert balance(s, "tournament:1") == 0
    code, out = run("tournament", "results", "1")
    assert "prize pool 50.00, of it overlay 30.00 paid by the house" in out
    ledger_ok()


def test_play_for_some_hands_deals_every_table_alike_and_the_clock_moves_on(
    db: Engine,
) -> None:
    assert run("tournament", "create", "Two", "--scheduled", "--capacity", "16",
               "--seats", "8", "--structure", "sit-and-go", "--buy-in", "1")[0] == 0  # fmt: skip
    for name in (*PLAYERS, *(f"x{i}" for i in range(9))):
        if name not in PLAYERS:
            run("account", "create", name, "--born", "1990-01-01", "--country", "FI")
            run("wallet", "deposit", name, "10")
        assert run("tournament", "register", "1", name)[0] == 0
    assert run("tournament", "start", "1", "--seed", "8")[0] == 0
    assert [t["players"] for t in data("tournament", "status", "1")["tables"]] == [8, 8]
    for done, elapsed in ((2, 0), (4, 30), (6, 60)):
        # One hand asked for: the round is finished, a hand at each of the two tables.
        code, out = run(
            "tournament", "play", "1", "--hands", "1", "--seconds-a-hand", "30", "--seed", str(done)
        )
        assert code == 0 and f"2 hands played ({done} in all)" in out, out
        status = data("tournament", "status", "1")
        assert (status["hands"], status["elapsed"]) == (done, elapsed)
    ledger_ok()


def test_unregistering_and_cancelling_refund_every_cent(db: Engine) -> None:
    assert run("tournament", "create", "Aamu", "--capacity", "6", "--buy-in", "20",
               "--fee", "2")[0] == 0  # fmt: skip
    for name in PLAYERS[:3]:
        assert run("tournament", "register", "1", name)[0] == 0
    code, out = run("tournament", "unregister", "1", "bob", "--key", "bob-out")
    assert code == 0 and "bob unregistered from tournament 1: 22.00 refunded" in out
    assert wallet(db, "bob") == MONEY
    code, out = run("tournament", "unregister", "1", "bob", "--key", "bob-out")  # a retry
    assert code == 0 and wallet(db, "bob") == MONEY
    code, out = run("tournament", "cancel", "1", "--staff", "floor")
    assert code == 0 and "tournament 1 cancelled: 44.00 paid back to 2 player(s)" in out
    assert "ann: 22.00" in out and "cid: 22.00" in out
    assert all(wallet(db, name) == MONEY for name in PLAYERS)
    assert data("tournament", "results", "1")["status"] == "cancelled"
    code, out = run("tournament", "status", "1")
    assert code == 0 and "cancelled, 2 entries of 6" in out
    ledger_ok()


def test_a_running_tournament_cancelled_refunds_the_players_still_in(db: Engine) -> None:
    assert run("tournament", "create", "Yö", "--capacity", "3", "--buy-in", "10")[0] == 0
    for name in PLAYERS[:3]:
        assert run("tournament", "register", "1", name)[0] == 0
    assert run("tournament", "start", "1", "--seed", "6")[0] == 0
    assert run("tournament", "play", "1", "--hands", "3", "--seed", "7")[0] == 0
    code, out = run("tournament", "cancel", "1")
    assert code == 0 and "30.00 paid back to 3 player(s)" in out
    assert all(wallet(db, name) == MONEY for name in PLAYERS)
    ledger_ok()


def test_the_entry_kinds_and_their_settings_are_announced(db: Engine) -> None:
    code, out = run(
        "tournament", "create", "Rebuy", "--scheduled", "--capacity", "20", "--entry", "rebuy",
        "--rebuy-until", "2", "--rebuy-chips", "1500", "--rebuy-cost", "10",
        "--add-on-chips", "3000", "--buy-in", "10",
    )  # fmt: skip
    assert code == 0 and "structure regular, rebuy" in out and "10,000 chips" in out
    code, out = run(
        "tournament", "create", "Re-entry", "--scheduled", "--capacity", "20",
        "--entry", "re-entry", "--max-entries", "3", "--late-registration", "4",
    )  # fmt: skip
    assert code == 0 and "re-entry" in out
    lobby = data("tournament", "list")
    assert [(t["id"], t["entry"]) for t in lobby] == [(2, "re-entry"), (1, "rebuy")]
    with transaction(db) as s:
        first = json.loads(s.get(TournamentRecord, 1).settings)  # type: ignore[union-attr]
        second = json.loads(s.get(TournamentRecord, 2).settings)  # type: ignore[union-attr]
    assert (first["rebuy_until_level"], first["rebuy_chips"], first["rebuy_cost"]) == (
        2, 1500, 1000)  # fmt: skip
    assert first["add_on_chips"] == 3000
    assert (second["max_entries"], second["late_registration_level"]) == (3, 4)


def test_late_registration_seats_an_entry_until_its_level_ends(db: Engine) -> None:
    assert run("tournament", "create", "Late", "--scheduled", "--capacity", "10",
               "--structure", "turbo", "--late-registration", "1", "--buy-in", "5",
               "--fee", "0.50")[0] == 0  # fmt: skip
    for name in PLAYERS[:3]:
        assert run("tournament", "register", "1", name)[0] == 0
    assert run("tournament", "start", "1", "--seed", "9")[0] == 0
    assert run("tournament", "play", "1", "--hands", "2", "--seed", "10")[0] == 0
    code, out = run("tournament", "register", "1", "dan")  # level 1: still open
    assert code == 0 and "dan registered in tournament 1 (entry dan)" in out
    status = data("tournament", "status", "1")
    assert status["players_left"] == 4 and status["tables"][0]["players"] == 4
    assert status["pool"] == 2000 and wallet(db, "dan") == MONEY - 550
    # An hour a round: the next round is in level 2, past the late registration.
    assert run("tournament", "play", "1", "--hands", "1", "--seconds-a-hand", "3600")[0] == 0
    assert data("tournament", "status", "1")["level"]["number"] > 1
    before = the_ledger(db)
    code, out = run("tournament", "register", "1", "eve")
    assert code == 2 and "registration is closed" in out
    assert the_ledger(db) == before
    ledger_ok()


def test_a_rebuy_and_the_add_on_put_their_cost_in_the_pool_once(db: Engine) -> None:
    assert run("tournament", "create", "Rebuy", "--capacity", "3", "--buy-in", "10",
               "--entry", "rebuy", "--rebuy-until", "1", "--rebuy-chips", "1500",
               "--rebuy-cost", "10", "--add-on-chips", "2000")[0] == 0  # fmt: skip
    for name in PLAYERS[:3]:
        assert run("tournament", "register", "1", name)[0] == 0
    assert run("tournament", "start", "1", "--seed", "11")[0] == 0
    code, out = run("tournament", "rebuy", "1", "ann", "--key", "ann-rebuy")
    assert code == 0 and "rebuy of ann in tournament 1: 10.00 to the pool, now 40.00" in out
    assert "ann has 3,000 chips" in out
    assert run("tournament", "rebuy", "1", "ann", "--key", "ann-rebuy")[0] == 0  # a retry
    assert wallet(db, "ann") == MONEY - 1000 - 1000
    code, out = run("tournament", "rebuy", "1", "ann")  # 3,000 chips: above the start
    assert code == 2 and "a rebuy is for a stack at or below the starting chips" in out
    code, out = run("tournament", "add-on", "1", "bob")  # level 1 is no break
    assert code == 2 and "the add-on is taken at the break after the rebuy period" in out
    code, out = run("tournament", "rebuy", "1", "nobody")
    assert code == 2 and "nobody is not in tournament 1" in out
    status = data("tournament", "status", "1")
    assert status["pool"] == 4000 and sum(t["chips"] for t in status["tables"]) == 6000
    ledger_ok()


REFUSED = [
    (("create", "X", "--capacity", "6", "--structure", "hyper"),
     "no tournament structure 'hyper'; structures: regular, sit-and-go, turbo"),
    (("create", "X", "--capacity", "6", "--buy-in=-5"), "not an amount of money: '-5'"),
    (("create", "X", "--capacity", "6", "--fee", "1.005"), "not an amount of money"),
    (("create", "X", "--capacity", "1"), "capacity: 2 to 100,000 entries"),
    (("create", "X", "--capacity", "6", "--game", "chess"), "unknown game 'chess'"),
    (("create", "X", "--capacity", "6", "--entry", "bounty"),
     "--entry takes freezeout, re-entry or rebuy"),
    (("create", "X", "--capacity", "6", "--entry", "rebuy"), "rebuy_until_level"),
    (("create", "X", "--capacity", "6", "--late-registration", "3"), "no late registration"),
    (("create", "X", "--capacity", "6", "--seats", "11"), "seats 2 to 10"),
    (("create", "X", "--capacity", "6", "--starts-at", "2026-12-27T18:00"),
     "--starts-at is for a scheduled tournament"),
    (("create", "X", "--capacity", "6", "--scheduled", "--starts-at", "sunday"),
     "--starts-at takes YYYY-MM-DDTHH:MM"),
    (("create", "X" * 81, "--capacity", "6"), "a tournament's name is 1 to 80 characters"),
    (("create", "X", "--capacity", "6", "--payouts", "flat"), "no payout table 'flat'"),
    (("register", "99", "ann"), "there is no tournament 99"),
    (("register", "1", "nobody"), "no player 'nobody'"),
    (("register", "1", "ann"), "ann is already in the tournament"),
    (("register", "1", "bob", "--key", "ann-key"), "idempotency key 'ann-key:entry' was used"),
    (("register", "1", "poor"), "holds 5.00, not 10.00: no credit"),
    (("unregister", "1", "cid"), "cid is not registered"),
    (("start", "1"), "a sit & go starts when full: 2 of 6 seats taken"),
    (("start", "1", "--seed", "-1"), "--seed must be 0 or more"),
    (("play", "1"), "tournament 1 is registering: start it first"),
    (("play", "1", "--hands", "0"), "--hands must be positive"),
    (("play", "1", "--seconds-a-hand", "0"), "--seconds-a-hand must be positive"),
    (("status", "99"), "there is no tournament 99"),
    (("results", "99"), "there is no tournament 99"),
    (("cancel", "99"), "there is no tournament 99"),
]  # fmt: skip


def test_every_refusal_says_why_exits_2_and_changes_nothing(db: Engine) -> None:
    assert run("tournament", "create", "Ilta", "--capacity", "6", "--buy-in", "10")[0] == 0
    assert run("tournament", "register", "1", "ann", "--key", "ann-key")[0] == 0
    assert run("tournament", "register", "1", "bob")[0] == 0
    before = the_ledger(db)
    for args, message in REFUSED:
        result = runner.invoke(app, ["tournament", *args])
        out = " ".join(result.output.split())
        assert result.exit_code == 2 and message in out, (args, out)
        # Exit 2 from the command's own refusal, never an exception escaping it.
        assert isinstance(result.exception, SystemExit), (args, result.exception)
        assert the_ledger(db) == before, args
    assert [t["id"] for t in data("tournament", "list")] == [1]  # no refused one made
    ledger_ok()


def test_the_tournament_help_loads_no_database_or_numpy() -> None:
    assert imported("tournament", "--help") == []
    assert imported("tournament", "play", "--help") == []
