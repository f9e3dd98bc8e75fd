"""Anti-money-laundering monitoring (GGPoker house rules, "Rahanpesun torjunta"): each
rule of ``[aml]`` finds what it is for in the ledger and opens one case for it, with
the evidence; staff close a case with a note; the CLI and the staff API say the same."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from dbfixtures import STAFF_PASSWORD, casino, sign_up
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from typer.testing import CliRunner

from pelisali.cli.main import app as cli
from pelisali.platform import accounts, ledger
from pelisali.platform.aml import AmlError, cases, close_case, scan, settings
from pelisali.platform.db import make_engine, transaction, upgrade
from pelisali.server.app import create_app

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def engine() -> Engine:
    engine = make_engine("sqlite://")
    upgrade(engine)
    with transaction(engine) as s:
        ledger.move(s, "fund", "external:owner", "house:bank", 10**9, "funding")
        for name in ("ann", "bob", "cid"):
            accounts.register(s, name, date(1990, 1, 1), "FI")
    return engine


def moves(engine: Engine, name: str, *steps: tuple[str, int, int]) -> None:
    """(what, cents, minutes after T0): deposit, stake (to the house), win (from it) or
    withdraw, each at its own time on the ledger's clock."""
    for what, amount, minutes in steps:
        with transaction(engine) as s, pytest.MonkeyPatch.context() as patch:
            patch.setattr(ledger, "now_utc", lambda m=minutes: T0 + timedelta(minutes=m))
            key = f"{name}-{uuid.uuid4()}"
            if what == "deposit":
                accounts.deposit(s, name, amount, key=key)
            elif what == "stake":
                accounts.stake(s, name, amount, key=key)
            elif what == "win":
                accounts.pay(s, name, amount, key=key)
            else:
                accounts.withdraw(s, name, amount, key=key)


def test_each_rule_opens_one_case_with_its_evidence(engine: Engine) -> None:
    rules = settings()
    assert (rules.deposit_threshold, rules.deposit_window_days) == (200_000, 30)
    moves(engine, "ann", ("deposit", 150_000, 0), ("deposit", 60_000, 60 * 24))  # 2,100 €
    moves(engine, "bob", ("deposit", 100_000, 0), ("stake", 10_000, 5),
          ("withdraw", 80_000, 600))  # 100 € staked of 1,000 €, 800 € out
    moves(engine, "cid", ("deposit", 50_000, 0), ("stake", 15_000, 1), ("win", 30_000, 2),
          ("withdraw", 46_000, 30))  # 92 % of the deposit back within the hour
    at = T0 + timedelta(days=2)
    with transaction(engine) as s:
        opened = scan(s, at)
    found = {(c.rule, c.player): c.evidence for c in opened}
    assert set(found) == {("cumulative_deposits", "ann"), ("little_play", "bob"),
                          ("rapid_cash", "cid")}
    assert found[("cumulative_deposits", "ann")]["deposited"] == 210_000
    assert (found[("little_play", "bob")]["staked"],
            found[("little_play", "bob")]["withdrawn"]) == (10_000, 80_000)
    assert (found[("rapid_cash", "cid")]["deposited"], found[("rapid_cash", "cid")]["seconds"]
            ) == (50_000, 30 * 60)
    with transaction(engine) as s:
        assert scan(s, at) == []  # the same money opens no second case


def test_what_the_rules_let_pass(engine: Engine) -> None:
    moves(engine, "ann", ("deposit", 190_000, 0))  # under 2,000 €
    moves(engine, "bob", ("deposit", 100_000, 0), ("stake", 30_000, 5),
          ("withdraw", 60_000, 600))  # 30 % staked: played
    moves(engine, "cid", ("deposit", 50_000, 0), ("withdraw", 50_000, 61))  # after the hour
    with transaction(engine) as s:
        assert {(c.rule, c.player) for c in scan(s, T0 + timedelta(days=1))} == {
            ("little_play", "cid")}  # nothing staked, but not rapid
    # 40 days on, ann's first 1,900 € are out of the 30-day window: 200 € more is not 2,000
    moves(engine, "ann", ("deposit", 20_000, 40 * 24 * 60))
    with transaction(engine) as s:
        assert scan(s, T0 + timedelta(days=40, hours=1)) == []


def test_staff_close_a_case_and_new_money_may_open_another(engine: Engine) -> None:
    moves(engine, "ann", ("deposit", 250_000, 0))
    with transaction(engine) as s:
        [case] = scan(s, T0)
    moves(engine, "ann", ("deposit", 10_000, 10))
    with transaction(engine) as s:
        assert scan(s, T0 + timedelta(minutes=20)) == []  # a case of it is open
        with pytest.raises(AmlError, match="a note"):
            close_case(s, case.id, "floor", " ")
        closed = close_case(s, case.id, "floor", "source of funds: salary, documents seen")
        assert (closed.status, closed.closed_by) == ("closed", "floor")
        with pytest.raises(AmlError, match="closed already"):
            close_case(s, case.id, "floor", "again")
        with pytest.raises(AmlError, match="no case 99"):
            close_case(s, 99, "floor", "x")
        assert cases(s) == [] and [c.id for c in cases(s, everything=True)] == [case.id]
    with transaction(engine) as s:
        [again] = scan(s, T0 + timedelta(minutes=30))  # the second deposit, not yet read
        assert again.evidence["deposited"] == 260_000
        assert ledger.verify_audit(s).ok


def test_the_cli_and_the_staff_api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = casino(tmp_path)
    monkeypatch.setenv("PELISALI_DATABASE_URL", f"sqlite:///{tmp_path}/casino.db")
    client = TestClient(create_app(db))
    sign_up(client, "ann", STAFF_PASSWORD, 150_000)
    client.post("/api/wallet/deposit", json={"amount": 60_000, "key": "d2"})
    assert client.post("/api/staff/aml/scan").status_code == 403  # players are refused
    client.post("/api/logout")
    client.post("/api/login", json={"name": "floor", "password": STAFF_PASSWORD})
    opened = client.post("/api/staff/aml/scan").json()["opened"]
    assert [(c["rule"], c["player"]) for c in opened] == [("cumulative_deposits", "ann")]
    runner = CliRunner()
    listed = runner.invoke(cli, ["aml", "cases", "--json"])
    assert listed.exit_code == 0, listed.output
    [case] = json.loads(listed.output)
    assert case["id"] == opened[0]["id"] and case["evidence"]["deposited"] == 210_000
    shown = runner.invoke(cli, ["aml", "cases"])
    # a table as wide as the terminal: its words may wrap, not its title or the player
    assert shown.exit_code == 0 and "AML cases" in shown.output and " ann " in shown.output
    assert runner.invoke(cli, ["aml", "scan"]).exit_code == 0  # nothing new
    refused = runner.invoke(cli, ["aml", "close", "77", "--staff", "floor", "--note", "x"])
    assert refused.exit_code == 2 and "no case 77" in refused.output
    done = client.post(f"/api/staff/aml/cases/{case['id']}/close", json={"note": "seen"})
    assert done.status_code == 200 and done.json()["status"] == "closed"
    assert client.post(f"/api/staff/aml/cases/{case['id']}/close",
                       json={"note": "seen"}).status_code == 400
    assert client.post("/api/staff/aml/cases/1/close", json={"note": ""}).status_code == 422
    assert client.get("/api/staff/aml/cases").json()["cases"] == []
    assert len(client.get("/api/staff/aml/cases?all=true").json()["cases"]) == 1
