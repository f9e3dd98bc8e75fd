"""The crash test of tournament play: ``pelisali tournament play`` is killed (SIGKILL) in
the middle of a level, on an SQLite file. The tournament then loads exactly as its last
booked hand left it (stacks, seats, the level clock: what an uninterrupted run from the
start has after as many hands), its pool reconciles, and ``play`` run again resumes it to
the end and pays each prize once. Interrupted (SIGINT), play says where it stopped."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from dbfixtures import fresh_engine, setup, wallet
from sqlalchemy import Engine, select
from typer.testing import CliRunner

import pelisali
from pelisali.cli.main import app
from pelisali.platform import tournaments
from pelisali.platform.db import transaction
from pelisali.platform.ledger import check
from pelisali.platform.models import Transfer
from pelisali.rng import SeededRng
from pelisali.tournaments.poker import PokerTournament, TournamentSettings, play_out

SRC = Path(pelisali.__file__).resolve().parents[1]
PLAYERS = tuple(f"p{i:02d}" for i in range(54))  # six tables of nine
MONEY = 10_000
SECONDS_A_HAND = 20  # a sit & go level of ten minutes is thirty rounds


def _default_interrupt() -> None:
    # A child inherits an ignored SIGINT (a test runner's worker may ignore it), and
    # Python then installs no KeyboardInterrupt: the process starts as a shell starts it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def pelisali_process(url: str, *args: str) -> subprocess.Popen[str]:
    """``pelisali ARGS`` in a process of its own on the database ``url``, with Ctrl-C
    (SIGINT) as a terminal gives it."""
    return subprocess.Popen(
        [sys.executable, "-m", "pelisali.cli.main", *args],
        env={**os.environ, "PYTHONPATH": str(SRC), "PELISALI_DATABASE_URL": url},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_interrupt,
    )


def saved(engine: Engine) -> tuple[int, dict[str, Any]]:
    with transaction(engine) as s:
        record = tournaments.get(s, 1)
        return record.version, json.loads(record.state)


def started_tournament(engine: Engine) -> TournamentSettings:
    """Tournament 1, a sit & go of six tables, entered by every player and started."""
    setup(engine, players=PLAYERS, money=MONEY)
    settings = TournamentSettings(
        name="Crash", capacity=len(PLAYERS), starting_chips=1500, structure="sit-and-go",
        buy_in=1000, fee=100,
    )  # fmt: skip
    with transaction(engine) as s:
        tournaments.create(s, settings)
        for name in PLAYERS:
            tournaments.register(s, 1, name, key=f"r-{name}")
        tournaments.start(s, 1, SeededRng(1))
    return settings


def booked_mid_level(
    path: Path, settings: TournamentSettings, worker: subprocess.Popen[str]
) -> None:
    """Wait until the worker has booked hands well into the second level (its progress
    in the database, not a clock: the deadline only keeps a broken worker from hanging
    the suite). The database is read as WAL lets a reader, beside the writer and never
    waiting for it: the platform's own transactions take the write lock (BEGIN
    IMMEDIATE), and one a hand would starve a poller taking it too."""
    deadline = time.monotonic() + 120
    reader = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    try:
        while time.monotonic() < deadline:
            assert worker.poll() is None, f"play ended before the kill: {worker.communicate()}"
            [(state,)] = reader.execute("SELECT state FROM tournaments WHERE id = 1")
            t = PokerTournament.restore(settings, json.loads(state))
            assert t.status == "running", "the tournament finished before the kill"
            reading = t.level_reading()
            level_start = t.clock.starts()[reading.index]
            if reading.level.number >= 2 and not reading.on_break and t.elapsed > level_start:
                return
            time.sleep(0.005)
    finally:
        reader.close()
    pytest.fail("no hand booked in the second level before the deadline")


def test_a_tournament_killed_mid_level_resumes_from_its_last_booked_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engines = fresh_engine("sqlite", tmp_path)
    engine = next(engines)
    url = engine.url.render_as_string(hide_password=False)
    monkeypatch.setenv("PELISALI_DATABASE_URL", url)
    settings = started_tournament(engine)
    started_version, started = saved(engine)

    worker = pelisali_process(
        url, "tournament", "play", "1", "--seed", "7", "--seconds-a-hand", str(SECONDS_A_HAND)
    )
    assert engine.url.database is not None
    booked_mid_level(Path(engine.url.database), settings, worker)
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    assert worker.returncode == -signal.SIGKILL

    version, state = saved(engine)
    with transaction(engine) as s:
        loaded = tournaments.engine_of(tournaments.get(s, 1))
        assert tournaments.reconcile(s, 1) == [] and check(s).ok
        assert s.scalars(select(Transfer).where(Transfer.kind == "win")).all() == []
    hands = loaded.hands_dealt
    assert loaded.status == "running" and loaded.hands == {}
    assert version == started_version + hands  # every booked hand saved once, in its turn
    # The same tournament played from its start with the same draws, uninterrupted, for
    # as many hands: the kill lost nothing booked and kept nothing of the hand it cut.
    rng = SeededRng(7)
    reference = PokerTournament.restore(settings, started, rng)
    play_out(reference, rng, seconds_a_hand=SECONDS_A_HAND, hands=hands)
    assert loaded.snapshot() == reference.snapshot() == state
    assert {e.entry_id: (e.stack, e.table, e.seat) for e in loaded.entries.values()} == {
        e.entry_id: (e.stack, e.table, e.seat) for e in reference.entries.values()
    }
    assert loaded.elapsed == reference.elapsed
    reading = loaded.level_reading()
    assert reading.level.number >= 2 and reading == reference.level_reading()
    assert 0 < reading.seconds_left < reading.level.seconds  # in the middle of a level
    assert loaded.chips_in_play() == loaded.chips_issued() == len(PLAYERS) * 1500

    resumed = pelisali_process(url, "tournament", "play", "1", "--seed", "11")
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert f"resuming tournament 1 after hand {hands}" in " ".join(out.split())
    rng = SeededRng(11)
    finish = PokerTournament.restore(settings, state, rng)
    finish.tick(finish.elapsed + 60)  # the round the kill cut is over: the clock moves on
    play_out(finish, rng)  # the resumed run, as the engine alone plays it
    with transaction(engine) as s:
        results = tournaments.results(s, 1)
        wins = s.scalars(select(Transfer).where(Transfer.kind == "win")).all()
        assert tournaments.reconcile(s, 1) == [] and check(s).ok
    assert results.status == "finished" and results.prizes == finish.prizes()
    assert results.places == finish.places()
    paid = {entry: prize for entry, prize in results.prizes.items() if prize}
    assert len(wins) == len(paid) and sum(w.amount for w in wins) == results.pool == 54_000
    assert sorted(w.key for w in wins) == sorted(f"t1:prize:{entry}" for entry in paid)
    for name in PLAYERS:
        assert wallet(engine, name) == MONEY - 1100 + results.prizes[name]

    runner = CliRunner()
    result = runner.invoke(app, ["ledger", "check"])
    assert result.exit_code == 0 and "ledger OK" in result.output, result.output
    again = runner.invoke(app, ["tournament", "play", "1"])  # nothing is paid twice
    assert again.exit_code == 2 and "tournament 1 is finished" in again.output
    with transaction(engine) as s:
        assert len(s.scalars(select(Transfer).where(Transfer.kind == "win")).all()) == len(paid)
    for _ in engines:
        pass


def test_play_interrupted_says_where_it_stopped_and_resumes(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT) stops the play between or in a hand: the command says which hand
    was the last booked, exits 130, and the next play goes on from there."""
    engines = fresh_engine("sqlite", tmp_path)
    engine = next(engines)
    url = engine.url.render_as_string(hide_password=False)
    settings = started_tournament(engine)
    worker = pelisali_process(url, "tournament", "play", "1", "--seconds-a-hand", "20")
    assert engine.url.database is not None
    booked_mid_level(Path(engine.url.database), settings, worker)
    worker.send_signal(signal.SIGINT)
    out, err = worker.communicate(timeout=120)
    assert worker.returncode == 130, err
    _, state = saved(engine)
    said = " ".join(out.split())
    assert f"interrupted after hand {state['hands_dealt']}: the hand in play is void" in said
    assert "'pelisali tournament play 1' resumes" in said and "Traceback" not in err
    with transaction(engine) as s:
        assert tournaments.reconcile(s, 1) == [] and check(s).ok
    resumed = pelisali_process(url, "tournament", "play", "1")
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0 and "finished after" in out, err
    with transaction(engine) as s:
        assert tournaments.results(s, 1).status == "finished"
        assert tournaments.reconcile(s, 1) == [] and check(s).ok
    for _ in engines:
        pass
