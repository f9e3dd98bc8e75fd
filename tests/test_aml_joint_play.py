"""Joint play over the per-player maximum (RAY 1.1) and linked accounts (issue 16, item
5): the log-ins keep their device and address, the ``linked_accounts`` rule links the
players who share one, the ``joint_play`` rule flags linked players whose stakes on one
spot of one round together exceed the maximum in a pattern, and staff void the excess
through the ledger: exact amounts, money conserved, once only; bad requests change
nothing. The CLI and the staff API say the same."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from dbfixtures import STAFF_PASSWORD, Fixed, migrated_copy, migrated_template
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func, select
from typer.testing import CliRunner

from pelisali.cli.main import app as cli
from pelisali.platform import accounts, aml, ledger, logins, rounds
from pelisali.platform.aml import AmlError, AmlSettings, scan, settings, void_case
from pelisali.platform.db import transaction
from pelisali.platform.models import AmlCase, LogIn, Transfer
from pelisali.server.app import create_app
from pelisali.server.auth import DEVICE_COOKIE

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
LATER = T0 + timedelta(hours=1)
RED, BLACK = 1, 2  # where the fixed wheel lands
DEVICE = "d" * 32  # ann's and bob's browser
KEYS = itertools.count()


@pytest.fixture(scope="module")
def template() -> Any:
    return migrated_template()


@pytest.fixture
def engine(template: Any, monkeypatch: pytest.MonkeyPatch) -> Engine:
    """Ann, bob and cid with 1,000 € each, and roulette C tables with a 10 € maximum; the
    platform's clock stands at T0."""
    for module in (ledger, rounds, logins):
        monkeypatch.setattr(module, "now_utc", lambda: T0)
    engine = migrated_copy(template)
    with transaction(engine) as s:
        ledger.move(s, "fund", "external:owner", "house:bank", 10**8, "funding")
        for name in ("ann", "bob", "cid"):
            accounts.register(s, name, date(1990, 1, 1), "FI")
            accounts.deposit(s, name, 100_000, key=f"d-{name}")
        for table in ("r-1", "r-2"):
            rounds.create_table(s, table, "roulette", "C", limit_min=100, limit_max=1_000)
    return engine


def log_in(engine: Engine, name: str, device: str | None, address: str | None,
           at: datetime = T0) -> None:
    """A log-in as the server keeps it (the server's own is tested below)."""
    with transaction(engine) as s:
        s.add(LogIn(name=name, role="player", at=at, address=logins.client_address(address),
                    device=logins.device_digest(device) if device else None))


def play(engine: Engine, table: str, lands: int, *bets: tuple[str, str, int]) -> int:
    """One round: each (player, spot, cents) in this order, then the wheel lands."""
    with transaction(engine) as s:
        for player, spot, amount in bets:
            rounds.place_bet(s, table, player, spot, amount, key=f"bet-{next(KEYS)}")
    with transaction(engine) as s:
        round_id, _ = rounds.settle(s, table, Fixed(lands))
    return round_id


def rules(**changes: Any) -> AmlSettings:
    return replace(settings(), **changes)


def wallet(engine: Engine, name: str) -> int:
    with transaction(engine) as s:
        return ledger.balance(s, accounts.wallet_code(name))


def transfers(engine: Engine) -> int:
    with transaction(engine) as s:
        return int(s.scalar(select(func.count()).select_from(Transfer)) or 0)


def by_rule(found: list[aml.Case]) -> dict[tuple[str, str], aml.Case]:
    return {(c.rule, c.player): c for c in found}


@pytest.fixture
def joint(engine: Engine) -> list[int]:
    """Ann and bob share a device; three rounds in which ann stakes 8 € and bob 6 € on
    red, and cid 5 € (he is not linked): red, black, red. The rounds' ids."""
    log_in(engine, "ann", DEVICE, "198.51.100.1")
    log_in(engine, "bob", DEVICE, "198.51.100.2")
    log_in(engine, "cid", None, "198.51.100.3")
    return [play(engine, "r-1", lands, ("ann", "red", 800), ("bob", "red", 600),
                 ("cid", "red", 500)) for lands in (RED, BLACK, RED)]


def test_the_settings_and_their_checks() -> None:
    found = settings()
    assert (found.joint_play_rounds, found.joint_play_window_days, found.joint_play_linked_only,
            found.linked_window_days, found.linked_signals) == (3, 30, True, 90,
                                                                ("device", "address"))
    with pytest.raises(ValueError, match="linked_signals"):
        rules(linked_signals=("cookie",))
    with pytest.raises(ValueError, match="1 or more"):
        rules(joint_play_rounds=0)


def test_linked_players_over_the_maximum_in_three_rounds(engine: Engine,
                                                         joint: list[int]) -> None:
    with transaction(engine) as s:
        opened = by_rule(scan(s, LATER))
    assert set(opened) == {("linked_accounts", "ann"), ("linked_accounts", "bob"),
                           ("joint_play", "ann"), ("joint_play", "bob")}  # not cid
    shown = logins.device_digest(DEVICE)[:12]
    assert opened[("linked_accounts", "bob")].evidence == {
        "linked": [{"player": "ann", "by": "device", "value": shown}],
        "signals": ["device", "address"], "days": 90}
    bob = opened[("joint_play", "bob")].evidence
    # The stakes in the order placed: ann's 8 € stand, 2 € of bob's 6 € reach the
    # maximum, the other 4 € are the excess (the latest stakes first).
    assert bob["rounds"] == [{
        "round": r, "table": "r-1", "spot": "red", "maximum": 1_000, "combined": 1_400,
        "excess": 400, "bets": [{"bet": 1, "player": "ann", "stake": 800, "excess": 0},
                                {"bet": 2, "player": "bob", "stake": 600, "excess": 400}]}
        for r in joint]
    assert (bob["joint_rounds"], bob["excess"], bob["minimum_rounds"], bob["linked_only"],
            bob["linked"]) == (3, 1_200, 3, True, {"ann": ["device"]})
    assert opened[("joint_play", "ann")].evidence["excess"] == 0
    with transaction(engine) as s:
        assert scan(s, LATER) == []  # the same rounds open no second case
        assert s.scalar(select(AmlCase.through).where(AmlCase.player == "bob",
                                                      AmlCase.rule == "joint_play")) == joint[-1]


def test_what_the_rules_let_pass(engine: Engine, joint: list[int]) -> None:
    with transaction(engine) as s:
        assert not [c for c in scan(s, LATER, rules(joint_play_rounds=4))
                    if c.rule == "joint_play"]  # three rounds are not four
    with transaction(engine) as s:  # out of the 30-day window, and the links out of 90
        assert scan(s, T0 + timedelta(days=91)) == []
    # Under the maximum together (5 € + 4 €), linked or not: nothing
    for _ in range(3):
        play(engine, "r-2", RED, ("ann", "black", 500), ("bob", "black", 400))
    with transaction(engine) as s:
        found = scan(s, LATER, rules(joint_play_window_days=1))
        joint_cases = [c for c in found if c.rule == "joint_play"]
        assert {c.player for c in joint_cases} == {"ann", "bob"}
        assert {e["spot"] for c in joint_cases for e in c.evidence["rounds"]} == {"red"}


def test_any_players_by_setting_and_the_signals_that_count(engine: Engine,
                                                           joint: list[int]) -> None:
    with transaction(engine) as s:
        found = by_rule(scan(s, LATER, rules(joint_play_linked_only=False)))
    cid = found[("joint_play", "cid")].evidence
    assert cid["rounds"][0]["combined"] == 1_900 and cid["rounds"][0]["bets"][2] == {
        "bet": 3, "player": "cid", "stake": 500, "excess": 500}
    assert cid["excess"] == 1_500 and cid["linked"] == {"ann": [], "bob": []}
    # cid logs in from ann's address: linked by it, not when only devices count
    log_in(engine, "cid", None, "198.51.100.1", at=T0 + timedelta(minutes=5))
    with transaction(engine) as s:
        devices = aml.links(s, LATER, rules(linked_signals=("device",)))
        both = aml.links(s, LATER, settings())
    assert "cid" not in devices
    assert [(x.other, x.signal, x.value) for x in both["cid"]] == [
        ("ann", "address", "198.51.100.1")]


def test_staff_void_the_excess_through_the_ledger(engine: Engine, joint: list[int]) -> None:
    with transaction(engine) as s:
        opened = by_rule(scan(s, LATER))
    case = opened[("joint_play", "bob")].id
    before, house = wallet(engine, "bob"), 0
    with transaction(engine) as s:
        house = ledger.balance(s, "house:bank")
        done = void_case(s, case, "floor", "ann and bob share a device: joint play")
    # Red won twice (4 € of bob's win on each goes back to the house), black lost once
    # (the 4 € over the maximum come back to bob).
    assert [(t["round"], t["from"], t["to"], t["amount"]) for t in done.transfers] == [
        (joint[0], "player:bob", "house:bank", 400), (joint[1], "house:bank", "player:bob", 400),
        (joint[2], "player:bob", "house:bank", 400)]
    assert [(b["paid"], b["net"], b["reversed"]) for b in done.bets] == [
        (1_200, 600, 400), (0, -600, -400), (1_200, 600, 400)]
    assert (done.case.status, done.case.closed_by, done.already) == ("voided", "floor", False)
    assert wallet(engine, "bob") == before - 400
    with transaction(engine) as s:
        assert ledger.balance(s, "house:bank") == house + 400
        assert ledger.check(s).ok and ledger.verify_audit(s).ok
    count = transfers(engine)
    with transaction(engine) as s:
        again = void_case(s, case, "floor", "again")
    assert again.already and again.transfers == done.transfers and again.case.note != "again"
    assert (transfers(engine), wallet(engine, "bob")) == (count, before - 400)
    with transaction(engine) as s:  # ann's stakes were within the maximum: nothing moves
        ann = void_case(s, opened[("joint_play", "ann")].id, "floor", "joint play")
    assert ann.transfers == [] and ann.case.status == "voided" and transfers(engine) == count
    with transaction(engine) as s:
        assert ledger.check(s).ok and ledger.verify_audit(s).ok


def test_a_void_that_cannot_be_made_changes_nothing(engine: Engine, joint: list[int]) -> None:
    with transaction(engine) as s:
        opened = by_rule(scan(s, LATER))
    case, linked = opened[("joint_play", "bob")].id, opened[("linked_accounts", "bob")].id
    with transaction(engine) as s:
        accounts.withdraw(s, "bob", ledger.balance(s, "player:bob") - 300, key="out")
    count = transfers(engine)
    for wanted, message in (((case, "floor", "x"), "cannot be voided: player:bob holds 3.00, "
                                                   "not 4.00: no credit"),
                            ((linked, "floor", "x"), "is a linked_accounts case"),
                            ((99, "floor", "x"), "no case 99"),
                            ((case, "", "x"), "needs the staff member and a note"),
                            ((case, "floor", "  "), "needs the staff member and a note")):
        with pytest.raises(AmlError, match=message), transaction(engine) as s:
            void_case(s, *wanted)
    with transaction(engine) as s:
        assert s.get(AmlCase, case).status == "open"  # type: ignore[union-attr]
        aml.close_case(s, case, "floor", "no joint play: strangers at one table")
    with pytest.raises(AmlError, match="is closed already"), transaction(engine) as s:
        void_case(s, case, "floor", "x")
    assert transfers(engine) == count and wallet(engine, "bob") == 300


def test_a_bet_in_prison_is_voided_once_it_is_settled(engine: Engine) -> None:
    with transaction(engine) as s:
        rounds.create_table(s, "d-1", "roulette", "D", settings={"zero_rule": "en_prison"},
                            limit_min=100, limit_max=1_000)
    log_in(engine, "ann", DEVICE, None)
    log_in(engine, "bob", DEVICE, None)
    first = play(engine, "d-1", 0, ("ann", "red", 800), ("bob", "red", 600))  # zero: prison
    with transaction(engine) as s:
        [case] = [c for c in scan(s, LATER, rules(joint_play_rounds=1))
                  if c.rule == "joint_play" and c.player == "bob"]
    with pytest.raises(AmlError, match=f"bet 2 of round {first} is still in prison"), \
            transaction(engine) as s:
        void_case(s, case.id, "floor", "joint play")
    before = wallet(engine, "bob")
    with transaction(engine) as s:  # black: the bets in prison lose
        rounds.settle(s, "d-1", Fixed(BLACK))
    with transaction(engine) as s:
        done = void_case(s, case.id, "floor", "joint play")
        assert ledger.check(s).ok
    assert [(t["round"], t["to"], t["amount"]) for t in done.transfers] == [
        (first, "player:bob", 400)]
    assert wallet(engine, "bob") == before + 400


# -- the server and the command line -------------------------------------------------------
def test_the_server_the_staff_api_and_the_cli(template: Any, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Each log-in kept with the browser's device cookie (given at the first) and the
    client's address; the staff scan finds ann and bob linked and playing together, and
    void bob's excess; the CLI says the same."""
    # argon2 at its cheapest: these passwords guard nothing
    monkeypatch.setattr(logins, "_HASHER", PasswordHasher(time_cost=1, memory_cost=8,
                                                          parallelism=1))
    engine = migrated_copy(template, tmp_path / "casino.db")
    monkeypatch.setenv("PELISALI_DATABASE_URL", f"sqlite:///{tmp_path}/casino.db")
    with transaction(engine) as s:
        ledger.move(s, "fund", "external:owner", "house:bank", 10**8, "funding")
        logins.add_login(s, "floor", STAFF_PASSWORD, "staff")
        for name in ("ann", "bob"):
            accounts.register(s, name, date(1990, 1, 1), "FI")
            accounts.deposit(s, name, 100_000, key=f"d-{name}")
            logins.add_login(s, name, STAFF_PASSWORD, "player")
        rounds.create_table(s, "r-1", "roulette", "C", limit_min=100, limit_max=1_000)
    client = TestClient(create_app(engine), client=("203.0.113.7", 40_000))

    def log_in_as(name: str) -> Any:
        client.post("/api/logout")
        answer = client.post("/api/login", json={"name": name, "password": STAFF_PASSWORD})
        assert answer.status_code == 200, answer.text
        return answer

    first = log_in_as("ann")
    device = client.cookies[DEVICE_COOKIE]
    assert logins.valid_device(device)
    cookie = first.headers["set-cookie"].lower()
    assert cookie.startswith("pelisali_session=")  # the session's cookie first
    assert f"{DEVICE_COOKIE}=" in cookie and "max-age=34560000" in cookie  # 400 days
    assert DEVICE_COOKIE not in log_in_as("bob").headers["set-cookie"]  # the browser's own
    with transaction(engine) as s:
        kept = [(r.name, r.role, r.device, r.address)
                for r in s.scalars(select(LogIn).order_by(LogIn.id))]
    digest = logins.device_digest(device)
    assert kept == [("ann", "player", digest, "203.0.113.7"),
                    ("bob", "player", digest, "203.0.113.7")]
    for lands in (RED, BLACK, RED):  # on the real clock, as the server scans by it
        play(engine, "r-1", lands, ("ann", "red", 800), ("bob", "red", 600))
    assert client.post("/api/staff/aml/cases/1/void", json={"note": "x"}).status_code == 403
    log_in_as("floor")
    found = {(c["rule"], c["player"]): c
             for c in client.post("/api/staff/aml/scan").json()["opened"]}
    assert found[("linked_accounts", "bob")]["evidence"]["linked"] == [
        {"player": "ann", "by": "address", "value": "203.0.113.7"},
        {"player": "ann", "by": "device", "value": digest[:12]}]
    case, linked = found[("joint_play", "bob")]["id"], found[("linked_accounts", "bob")]["id"]
    before = wallet(engine, "bob")
    done = client.post(f"/api/staff/aml/cases/{case}/void", json={"note": "one household"})
    assert done.status_code == 200, done.text
    body = done.json()
    assert (body["already"], body["case"]["status"], body["case"]["closed_by"]) == (
        False, "voided", "floor")
    assert [(t["from"], t["amount"]) for t in body["transfers"]] == [
        ("player:bob", 400), ("house:bank", 400), ("player:bob", 400)]
    assert wallet(engine, "bob") == before - 400
    count = transfers(engine)
    again = client.post(f"/api/staff/aml/cases/{case}/void", json={"note": "one household"})
    assert again.status_code == 200 and again.json()["already"] is True
    assert again.json()["transfers"] == body["transfers"] and transfers(engine) == count
    for path, note, status, code in ((f"{linked}/void", "x", 400, "aml_not_joint_play"),
                                     ("999/void", "x", 400, "aml_no_case"),
                                     (f"{case}/void", "   ", 400, "aml_note"),
                                     (f"{case}/void", "", 422, "invalid"),
                                     (f"{case}/close", "x", 400, "aml_case_done")):
        answer = client.post(f"/api/staff/aml/cases/{path}", json={"note": note})
        assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
    runner = CliRunner()
    shown = runner.invoke(cli, ["aml", "void", str(case), "--staff", "floor", "--note", "x"])
    assert shown.exit_code == 0 and "voided already" in shown.output, shown.output
    refused = runner.invoke(cli, ["aml", "void", str(linked), "--staff", "floor",
                                  "--note", "x"])
    assert refused.exit_code == 2 and "only a joint_play case" in refused.output
    listed = runner.invoke(cli, ["aml", "cases", "--all", "--json"])
    assert {c["status"] for c in json.loads(listed.output) if c["id"] == case} == {"voided"}
    assert transfers(engine) == count and wallet(engine, "bob") == before - 400
    # A device cookie not of the server's making is replaced by one that is.
    client.cookies.clear()
    client.cookies.set(DEVICE_COOKIE, "x")
    third = client.post("/api/login", json={"name": "bob", "password": STAFF_PASSWORD})
    assert logins.valid_device(third.cookies[DEVICE_COOKIE])
    with transaction(engine) as s:
        assert ledger.check(s).ok and ledger.verify_audit(s).ok
        assert s.scalars(select(LogIn.device).order_by(LogIn.id.desc())).first() == (
            logins.device_digest(third.cookies[DEVICE_COOKIE]))
