"""``pelisali play slot NAME`` as a user runs it: quick mode and a registered player's
wallet, the window with the winning lines, free spins one command each, a round left
mid-feature resumed at the next start, and bad commands refused with nothing taken."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pytest
from slot_games import Stops, scatter_stops
from sqlalchemy import select
from typer.testing import CliRunner

from pelisali.cli.main import app
from pelisali.cli.slot_play import SlotTerminal
from pelisali.engine import GAMES
from pelisali.engine.slots import SlotEngine
from pelisali.platform import accounts, slot_rounds, tables
from pelisali.platform.db import make_engine, transaction, upgrade
from pelisali.platform.ledger import check, move, now_utc
from pelisali.platform.models import BetRow

runner = CliRunner()
VIDEO = GAMES["slot-video"]
assert isinstance(VIDEO, SlotEngine)


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.output


def test_quick_mode_spins_shows_the_lines_and_recalls() -> None:
    code, out = run("play", "slot", "fruit", "--seed", "3", "--balance", "10",
                    stdin="spin 5 0.10\nrecall 1\nspin 9\nspin 5 0.03\nquit\n")
    assert code == 0, out
    # Seed 3 stops the reels at 25 2 5: the diagonal WILD LEMON LEMON is 3 x LEMON,
    # 10 line bets of 0.10 (the engine's own pays).
    assert "stops 25 2 5" in out and "line 5: 3 x LEMON pays 1.00 €" in out
    assert "stake 0.50 €, won 1.00 €; balance 10.50 €" in out
    assert "round 1: replay matches the record" in out
    assert "9 lines cannot be played; lines: 1, 2, 3, 4, 5" in out
    assert "3 cents a line is not a bet level" in out
    assert "Final balance 10.50 €" in out


def test_bad_arguments_end_the_command() -> None:
    assert run("play", "slot")[0] == 2
    assert run("play", "slot", "nope")[0] == 2
    assert run("play", "slot", "fruit", "--variant", "C")[0] == 2


def test_free_spins_at_the_terminal_and_a_round_resumed_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'casino.db'}"
    monkeypatch.setenv("PELISALI_DATABASE_URL", url)
    db = make_engine(url)
    upgrade(db)
    with transaction(db) as s:
        move(s, "fund", "external:owner", "house:bank", 10**8, "funding")
        accounts.register(s, "ann", date(1990, 1, 1), "FI")
        accounts.deposit(s, "ann", 5_000, key="d1")
    rng = Stops(scatter_stops(VIDEO, (1, 2, 3)), seed=4)
    first = SlotTerminal(db, VIDEO, "ann", None, rng)
    first.sit()
    first.handle("spin 20 0.05")
    first.handle("free")
    out = capsys.readouterr().out
    assert "free spins left: 10" in out and "free spins left: 9" in out
    assert first.handle("spin") and "free spins left: type free" in capsys.readouterr().out
    # The player leaves mid-feature; the next start resumes the round.
    again = SlotTerminal(db, VIDEO, "ann", None, rng)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    monkeypatch.setattr("builtins.input", _lines(["free all", "quit"]))
    again.run()
    out = capsys.readouterr().out
    assert "9 free spins left; resuming where it stopped" in out
    assert "free spins left: 1" in out and "stake 1.00 €, won" in out
    with transaction(db) as s:
        bet = s.scalars(select(BetRow)).one()
        assert bet.stake == 100 and bet.paid is not None and check(s).ok


def _lines(lines: list[str]):  # type: ignore[no-untyped-def]
    feed = iter(lines)

    def read(_: str = "") -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None
    return read


def test_table_recover_completes_a_slot_round_left_24_hours(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'casino.db'}"
    monkeypatch.setenv("PELISALI_DATABASE_URL", url)
    db = make_engine(url)
    upgrade(db)
    left = now_utc() - timedelta(hours=25)
    with transaction(db) as s:
        move(s, "fund", "external:owner", "house:bank", 10**8, "funding")
        accounts.register(s, "ann", date(1990, 1, 1), "FI")
        accounts.deposit(s, "ann", 5_000, key="d1")
        tables.own_table(s, "ann", "slot-video")
        done = slot_rounds.spin(s, "rng-slot-video-ann", "ann", 20, 5, key="k",
                                rng=Stops(scatter_stops(VIDEO, (0, 1, 2))), at=left)
    assert done.free_left == 10
    code, out = run("table", "recover")
    assert code == 0, out
    assert f"{done.round_id}" in out and "10 free spins completed" in out
    with transaction(db) as s:
        assert slot_rounds.playing(s, "rng-slot-video-ann") is None
        assert tables.recall(s, done.round_id).same and check(s).ok


def test_bonus_list_and_expire(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'casino.db'}"
    monkeypatch.setenv("PELISALI_DATABASE_URL", url)
    db = make_engine(url)
    upgrade(db)
    long_ago = now_utc() - timedelta(hours=80)
    rng = Stops(scatter_stops(VIDEO, (0, 1, 2)), seed=11)
    with transaction(db) as s:
        move(s, "fund", "external:owner", "house:bank", 10**8, "funding")
        accounts.register(s, "ann", date(1990, 1, 1), "FI")
        accounts.deposit(s, "ann", 5_000, key="d1")
        tables.own_table(s, "ann", "slot-video")
        done = slot_rounds.spin(s, "rng-slot-video-ann", "ann", 20, 5, key="k", rng=rng,
                                at=long_ago)
        while done.status != "settled":
            done = slot_rounds.free_spin(s, "rng-slot-video-ann", "ann", done.spins_seen,
                                         rng, at=long_ago)
    assert done.to_bonus
    code, out = run("bonus", "list", "ann", "--json")
    assert code == 0, out
    listed = json.loads(out)
    assert listed["bonus_balance"] == done.to_bonus
    assert [(g["amount"], g["status"]) for g in listed["grants"]] == [(done.to_bonus, "active")]
    code, out = run("table", "recover")  # the operator's one maintenance command
    assert code == 0 and "forfeited (wagered 0.00 of" in out and "1 bonus(es) forfeited" in out
    code, out = run("bonus", "expire")
    assert code == 0 and "no bonus past its deadline" in out
    code, out = run("bonus", "list", "ann")
    assert "forfeited" in out and "bonus balance 0.00 €" in out
