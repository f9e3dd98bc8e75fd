"""``pelisali account|wallet|ledger|audit|db`` as a cashier and an auditor use them."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pelisali.cli.main import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, " ".join(result.output.split())


@pytest.fixture(autouse=True)
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PELISALI_DATABASE_URL", f"sqlite:///{tmp_path / 'casino.db'}")


def test_a_cashier_day() -> None:
    assert run("db", "upgrade")[0] == 0
    code, out = run("account", "create", "ann", "--born", "1990-05-01", "--country", "FI")
    assert code == 0 and "player ann registered" in out
    for args, message in (
            (("account", "create", "kid", "--born", "2015-01-01", "--country", "FI"),
             "under 18 may not play"),
            (("account", "create", "joe", "--born", "1980-01-01", "--country", "KP"),
             "restricted country"),
            (("account", "create", "x", "--born", "1.1.1980", "--country", "FI"), "YYYY-MM-DD"),
            (("wallet", "deposit", "ann", "--", "-5"), "not an amount of money"),
            (("wallet", "deposit", "ann", "1.005"), "not an amount of money"),
            (("wallet", "deposit", "nobody", "5"), "no player 'nobody'")):
        code, out = run(*args)
        assert code == 2 and message in out, (args, out)
    assert run("wallet", "deposit", "ann", "100", "--key", "k1")[1].endswith("balance 100.00")
    assert run("wallet", "deposit", "ann", "100", "--key", "k1")[1].endswith("balance 100.00")
    code, out = run("wallet", "deposit", "ann", "50", "--key", "k1")
    assert code == 2 and "used for a different transfer" in out
    code, out = run("wallet", "withdraw", "ann", "500")
    assert code == 2 and "holds 100.00, not 500.00: no credit" in out
    assert run("wallet", "withdraw", "ann", "20.50")[1].endswith("balance 79.50")
    assert run("account", "limit", "ann", "--kind", "deposit", "--period", "day",
               "--amount", "150")[0] == 0
    code, out = run("wallet", "deposit", "ann", "60")
    assert code == 2 and "deposit limit 150.00 a day (deposited 100.00, deposit 60.00)" in out
    code, out = run("account", "limit", "ann", "--kind", "session", "--amount", "45")
    assert code == 0 and "ann: session-time limit 45 min, in effect from" in out
    code, out = run("account", "limit", "ann", "--kind", "session", "--amount", "1.5")
    assert code == 2 and "whole minutes" in out
    assert run("account", "limit", "ann", "--kind", "loss", "--amount", "5")[0] == 2
    assert run("account", "exclude", "ann", "--days", "30")[0] == 0
    code, out = run("account", "show", "ann")
    assert code == 0
    assert "│ session-time limit │ 45 min │" in out
    assert "│ self-exclusion │ until 20" in out and "│ balance │ 79.50 │" in out
    assert "│ deposit limit a day │ 150.00 │" in out
    code, out = run("account", "status", "ann", "--status", "barred", "--reason", "fraud",
                    "--staff", "floor")
    assert code == 0
    code, out = run("wallet", "balance", "ann")
    assert "ann: 79.50" in out and "withdrawal -20.50" in out
    code, out = run("ledger", "check")
    assert code == 0 and "sum 0" in out and "ledger OK" in out
    code, out = run("audit", "verify")
    assert code == 0 and "audit chain OK" in out


def test_the_operator_starts_ultimate_texas_hold_em_s_progressive_and_reconciles_it() -> None:
    assert run("db", "upgrade")[0] == 0
    code, out = run("jackpot", "progressive", "ultimate-texas-holdem")
    assert code == 2 and "house:bank holds 0.00, not 10000.00: no credit" in out
    assert run("house", "fund", "20000", "--staff", "eve")[0] == 0
    code, out = run("jackpot", "progressive", "ultimate-texas-holdem")
    assert code == 0, out
    assert ("jackpot ultimate-texas-holdem-progressive at every ultimate-texas-holdem "
            "table: fee 1.00 €, 50 % of it to the pool, seeded with 10000.00 €") in out
    code, out = run("jackpot", "progressive", "ultimate-texas-holdem")
    assert code == 2 and "has its progressive already" in out
    code, out = run("jackpot", "progressive", "red-dog")
    assert code == 2 and "red-dog has no progressive" in out
    code, out = run("jackpot", "report", "ultimate-texas-holdem-progressive")
    assert code == 0 and "pool 10000.00, accrual 0.00" in out and "reconciled" in out
    code, out = run("jackpot", "progressive", "texas-holdem-bonus")  # a pool of its own
    assert code == 0, out
    assert ("jackpot texas-holdem-bonus-progressive at every texas-holdem-bonus table: fee "
            "1.00 €, 50 % of it to the pool, seeded with 10000.00 €") in out
