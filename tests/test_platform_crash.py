"""The crash test: a process settling many rounds is killed (SIGKILL) in the middle;
after the restart's recovery the ledger and the audit chain hold, and every round is
settled or refunded exactly once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select
from typer.testing import CliRunner

from pelisali.cli.main import app
from pelisali.platform.db import transaction
from pelisali.platform.ledger import check, verify_audit
from pelisali.platform.models import BetRow, RoundRow, Transfer
from pelisali.platform.rounds import reconcile_bets, recover

# The load generator is a benchmark's tool, not part of the installed package.
BENCHMARKS = str(Path(__file__).resolve().parents[1] / "benchmarks")
sys.path.insert(0, BENCHMARKS)
from loadgen import prepare  # noqa: E402

WORKER = textwrap.dedent("""
    import sys, threading
    sys.path.insert(0, sys.argv[2])
    from pelisali.platform.db import make_engine
    from loadgen import play
    engine = make_engine(sys.argv[1])
    threads = [threading.Thread(target=play, args=(engine, p, 100_000, p)) for p in range(4)]
    for t in threads:
        t.start()
    print("playing", flush=True)
    for t in threads:
        t.join()
""")


def settled_rounds(engine: Engine, at_least: int) -> None:
    """Wait until the worker has settled ``at_least`` rounds (its work, not a clock: the
    30 s bound only stops a broken worker from hanging the suite)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with transaction(engine) as s:
            if s.scalar(select(func.count()).select_from(RoundRow)
                        .where(RoundRow.status == "settled")) >= at_least:
                return
        time.sleep(0.1)


def test_sigkill_mid_settlement_leaves_nothing_half_done(engine: Engine) -> None:
    prepare(engine, players=4)
    url = engine.url.render_as_string(hide_password=False)
    worker = subprocess.Popen([sys.executable, "-c", WORKER, url, BENCHMARKS],
                              stdout=subprocess.PIPE,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert worker.stdout is not None and worker.stdout.readline().strip() == b"playing"
    settled_rounds(engine, at_least=200)  # let it settle a good number of rounds first
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    assert worker.returncode == -signal.SIGKILL
    with transaction(engine) as s:  # the restart: finish what the crash left open
        recovered = recover(s, everything=True)
    with transaction(engine) as s:
        assert check(s).ok, check(s).problems
        assert verify_audit(s).ok
        assert s.scalar(select(func.count()).select_from(RoundRow)
                        .where(RoundRow.status == "betting")
                        .where(RoundRow.id.in_(select(BetRow.round_id)))) == 0
        settled = s.scalar(select(func.count()).select_from(RoundRow)
                           .where(RoundRow.status == "settled"))
        assert settled >= 200
        # Every bet settled, paid once, exactly what its row says; every stake has its bet.
        assert all(bet.paid is not None for bet in s.scalars(select(BetRow)))
        reconciled = reconcile_bets(s)
        assert reconciled.ok, reconciled.problems
        assert reconciled.pairs == s.scalar(select(func.count()).select_from(BetRow))
        wins = s.scalar(select(func.count()).select_from(Transfer).where(Transfer.kind == "win"))
        assert wins == s.scalar(select(func.count(func.distinct(BetRow.round_id)))
                                .where(BetRow.paid > 0))  # one payout a round and player
    assert len(recovered) <= 4  # at most one open round a table


@pytest.mark.parametrize("kind", ["sqlite"])
def test_the_restart_commands_after_a_crash(kind: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """What an operator runs after a crash: recover, then check and verify."""
    from dbfixtures import fresh_engine

    engines = fresh_engine(kind, tmp_path)
    engine = next(engines)
    url = engine.url.render_as_string(hide_password=False)
    prepare(engine, players=2)
    worker = subprocess.Popen([sys.executable, "-c", WORKER.replace("range(4)", "range(2)"),
                               url, BENCHMARKS], stdout=subprocess.PIPE)
    assert worker.stdout is not None and worker.stdout.readline().strip() == b"playing"
    settled_rounds(engine, at_least=20)  # killed mid-play, with rounds behind it
    worker.kill()
    worker.wait()
    monkeypatch.setenv("PELISALI_DATABASE_URL", url)
    runner = CliRunner()
    for args, expected in ((["table", "recover", "--all"], "round(s) finished"),
                           (["ledger", "check"], "ledger OK"),
                           (["audit", "verify"], "audit chain OK")):
        result = runner.invoke(app, args)
        assert result.exit_code == 0 and expected in result.output, result.output
    for _ in engines:
        pass
