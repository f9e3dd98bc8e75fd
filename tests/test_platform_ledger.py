"""The wallet ledger and the audit chain, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from datetime import date, timedelta
from importlib.resources import files

import pytest
from sqlalchemy import Engine, select, text, update

from pelisali.platform import accounts, countries
from pelisali.platform.db import transaction
from pelisali.platform.ledger import (
    LedgerError,
    balance,
    check,
    correct,
    move,
    open_account,
    verify_audit,
)
from pelisali.platform.models import AuditEntry, Transfer


def test_deposit_retry_is_applied_once_and_a_reused_key_is_refused(engine: Engine) -> None:
    with transaction(engine) as s:
        open_account(s, "player:ann")
        first = move(s, "dep-1", "external:payments", "player:ann", 5_000, "deposit")
        again = move(s, "dep-1", "external:payments", "player:ann", 5_000, "deposit")
        assert again.id == first.id
        assert balance(s, "player:ann") == 5_000
    with pytest.raises(LedgerError, match="used for a different transfer"), \
            transaction(engine) as s:
        move(s, "dep-1", "external:payments", "player:ann", 4_000, "deposit")
    with transaction(engine) as s:
        assert balance(s, "player:ann") == 5_000
        assert balance(s, "external:payments") == -5_000
        assert s.scalar(select(text("count(*)")).select_from(Transfer)) == 1


@pytest.mark.parametrize("amount", [0, -5, 1.5, True, "10"])
def test_bad_amounts_are_refused(engine: Engine, amount: object) -> None:
    with pytest.raises(LedgerError, match="positive whole number"), transaction(engine) as s:
        move(s, "x", "external:payments", "player:ann", amount, "deposit")  # type: ignore[arg-type]


def test_bad_transfers_are_refused_and_change_nothing(engine: Engine) -> None:
    with transaction(engine) as s:
        move(s, "d", "external:payments", "player:ann", 1_000, "deposit")
    for args, message in (
            (("k1", "player:ann", "house:bank", 1_001, "stake"), "no credit"),
            (("k2", "player:ann", "player:ann", 5, "stake"), "two different accounts"),
            (("k3", "player:ann", "house:bank", 5, "gift"), "transfer kind"),
            (("k4", "bank:x", "house:bank", 5, "stake"), "starts with one of"),
            (("", "player:ann", "house:bank", 5, "stake"), "idempotency key")):
        with pytest.raises(LedgerError, match=message), transaction(engine) as s:
            move(s, *args)  # type: ignore[arg-type]
    with transaction(engine) as s:
        assert balance(s, "player:ann") == 1_000
        report = check(s)
        assert report.ok and report.transfers == 1


def test_a_correction_is_a_new_transfer_naming_the_old(engine: Engine) -> None:
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", 100_000, "funding")
        move(s, "d", "external:payments", "player:ann", 1_000, "deposit")
        win = move(s, "w", "house:bank", "player:ann", 3_000, "win", reason="roulette 17")
        fixed = correct(s, "fix-w", win.id, reason="fraud: collusion", actor="auditor")
        assert fixed.corrects_id == win.id and fixed.kind == "correction"
        assert balance(s, "player:ann") == 1_000
        assert s.get(Transfer, win.id) is not None  # the original stands, never edited
        with pytest.raises(LedgerError, match="needs its reason"):
            correct(s, "fix-2", win.id, reason="", actor="auditor")
    with transaction(engine) as s:
        assert check(s).ok


def test_ledger_check_and_audit_verify_catch_tampering(engine: Engine) -> None:
    with transaction(engine) as s:
        move(s, "d1", "external:payments", "player:ann", 1_000, "deposit")
        move(s, "d2", "external:payments", "player:bob", 2_000, "deposit")
        move(s, "b1", "player:bob", "house:bank", 500, "stake")
    with transaction(engine) as s:
        assert check(s).ok
        report = verify_audit(s)
        assert report.ok and report.entries == 3
    with engine.begin() as c:  # someone edits a balance behind the ledger's back
        c.execute(text("UPDATE accounts SET balance = balance + 100 WHERE code = 'player:ann'"))
    with transaction(engine) as s:
        problems = check(s).problems
        assert "the accounts sum to 100, not 0" in problems
        assert "player:ann: balance 1100, transfers 1000" in problems
    with engine.begin() as c:  # and an audit entry
        c.execute(update(AuditEntry).where(AuditEntry.id == 2)
                  .values(payload=AuditEntry.payload + " "))
    with transaction(engine) as s:
        assert verify_audit(s).problems == [
            "entry 2: its content does not match its hash"]


def test_concurrent_stakes_from_one_wallet_never_overdraw(engine: Engine) -> None:
    """16 threads each try 10 stakes of 1.00 from a wallet holding 50.00: exactly 50
    succeed, the rest are refused for want of money, and the ledger holds."""
    with transaction(engine) as s:
        move(s, "d", "external:payments", "player:ann", 5_000, "deposit")
    results: list[str] = []
    lock = threading.Lock()

    def player(thread: int) -> None:
        for i in range(10):
            try:
                with transaction(engine) as s:
                    move(s, f"bet-{thread}-{i}", "player:ann", "house:bank", 100, "stake")
                outcome = "ok"
            except LedgerError:
                outcome = "refused"
            with lock:
                results.append(outcome)

    threads = [threading.Thread(target=player, args=(t,)) for t in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("ok") == 50 and results.count("refused") == 110
    with transaction(engine) as s:
        assert balance(s, "player:ann") == 0
        assert balance(s, "house:bank") == 5_000
        assert check(s).ok and verify_audit(s).ok


def test_the_country_codes_are_iso_3166_1s_assigned_ones() -> None:
    """The shipped list is the time zone database's (tzdata, a dependency): a code
    ISO assigns later shows here as a difference to copy."""
    table = (files("tzdata") / "zoneinfo" / "iso3166.tab").read_text(encoding="utf-8")
    assigned = {line.split("\t")[0] for line in table.splitlines()
                if line and not line.startswith("#")}
    assert assigned == countries.CODES and len(assigned) == 249
    assert {"FI", "AX", "GB", "SS", "CW"} <= countries.CODES
    assert not {"ZZ", "XX", "QQ", "UK", "EU", "XK", "AN"} & countries.CODES


def test_players_and_responsible_gaming(engine: Engine) -> None:
    today = date(2026, 11, 29)
    with transaction(engine) as s:
        accounts.register(s, "ann", date(2008, 11, 29), "fi", today=today)  # 18 today
        for name, born, country, message in (
                ("kid", date(2008, 11, 30), "FI", "under 18"),
                ("joe", date(1980, 1, 1), "KP", "restricted country"),
                ("ann", date(1980, 1, 1), "SE", "exists"),
                ("bad name", date(1980, 1, 1), "SE", "player name"),
                ("eve", date(1980, 1, 1), "Finland", "two-letter"),
                ("eve", date(1980, 1, 1), "ZZ", "'ZZ' is not an ISO 3166-1 country code"),
                ("eve", date(1980, 1, 1), "xx", "'XX' is not an ISO 3166-1 country code"),
                ("eve", date(1980, 1, 1), "QQ", "'QQ' is not an ISO 3166-1"),
                ("eve", date(1980, 1, 1), "EU", "'EU' is not an ISO 3166-1"),  # reserved
                ("eve", date(1980, 1, 1), "f\u0131", "two-letter"),  # upper() is "FI"
                ("eve", date(1, 1, 1), "FI", "date of birth is from 1900-01-01 to today"),
                ("eve", date(1899, 12, 31), "FI", "date of birth is from 1900-01-01"),
                ("eve", today + timedelta(days=1), "FI", r"to today \(2026-11-29\)")):
            with pytest.raises(accounts.Refused, match=message):
                accounts.register(s, name, born, country, today=today)
        assert accounts.find(s, "ann").country == "FI"
        accounts.register(s, "eve", date(1900, 1, 1), "gb", today=today)  # the bounds hold
    with transaction(engine) as s:
        accounts.deposit(s, "ann", 10_000, key="d1")
        accounts.set_limit(s, "ann", "deposit", "day", 15_000)
        with pytest.raises(accounts.Refused, match=r"deposit limit 150\.00 a day"):
            accounts.deposit(s, "ann", 5_001, key="d2")
        accounts.set_limit(s, "ann", "loss", "week", 3_000)
        move(s, "fund", "external:owner", "house:bank", 100_000, "funding")
        accounts.stake(s, "ann", 2_000, key="b1")
        accounts.pay(s, "ann", 1_500, key="w1")  # net loss 5.00
        accounts.stake(s, "ann", 2_500, key="b2")  # net loss 30.00: at the limit
        with pytest.raises(accounts.Refused, match=r"loss limit 30\.00 a week"):
            accounts.stake(s, "ann", 1, key="b3")
        # A higher limit waits for its cooling-off time; a lower one applies at once.
        accounts.set_limit(s, "ann", "loss", "week", 10_000)
        player = accounts.find(s, "ann")
        assert accounts.current_limit(s, player, "loss", "week") == 3_000
        accounts.set_limit(s, "ann", "deposit", "day", 1)
        assert accounts.current_limit(s, player, "deposit", "day") == 1
    with transaction(engine) as s:
        accounts.exclude(s, "ann", 30)
        with pytest.raises(accounts.Refused, match="self-excluded"):
            accounts.stake(s, "ann", 1, key="b4")
        with pytest.raises(accounts.Refused, match="no deposits"):
            accounts.deposit(s, "ann", 1, key="d3")
        accounts.withdraw(s, "ann", 1_000, key="w2")  # her money is always hers to take
        accounts.register(s, "bob", date(1970, 1, 1), "SE", today=today)
        accounts.deposit(s, "bob", 1_000, key="d4")
        accounts.set_status(s, "bob", "barred", "cheating at the table", "floor manager")
        with pytest.raises(accounts.Refused, match="account barred"):
            accounts.stake(s, "bob", 100, key="b5")
    with transaction(engine) as s:
        assert check(s).ok and verify_audit(s).ok


def test_the_chain_holds_only_what_was_committed(engine: Engine) -> None:
    """Entries are chained when their transaction commits: those of a savepoint or a
    transaction rolled back never reach the chain, and what did is one unbroken line."""
    from pelisali.platform.db import dry_run

    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", 10_000, "funding")
        with dry_run(s):  # a trial inside the transaction: its transfer and entry go
            move(s, "trial", "house:bank", "house:float", 500, "funding")
        move(s, "kept", "house:bank", "house:float", 700, "funding")
    with pytest.raises(RuntimeError), transaction(engine) as s:
        move(s, "lost", "house:bank", "house:float", 900, "funding")
        raise RuntimeError("the request failed after the transfer")
    with transaction(engine) as s:
        keys = [p for (p,) in s.execute(select(AuditEntry.payload).order_by(AuditEntry.id))]
        assert len(keys) == 2 and '"fund"' in keys[0] and '"kept"' in keys[1]
        assert not any('"trial"' in k or '"lost"' in k for k in keys)
        assert balance(s, "house:float") == 700
        assert verify_audit(s).ok and check(s).ok


def test_concurrent_writers_make_one_chain(engine: Engine) -> None:
    """Many transactions appending at once, each with several entries: one line, every
    entry in it once."""
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", 10**6, "funding")

    def writer(n: int) -> None:
        for i in range(10):
            with transaction(engine) as s:
                move(s, f"w{n}-{i}-a", "house:bank", f"house:w{n}", 10, "funding")
                move(s, f"w{n}-{i}-b", f"house:w{n}", "house:bank", 5, "funding")

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with transaction(engine) as s:
        report = verify_audit(s)
        assert report.ok, report.problems
        assert report.entries == 1 + 6 * 10 * 2
        assert check(s).ok


@pytest.mark.parametrize("entries", [1, 3, 40])
def test_a_transaction_s_entries_are_chained_in_their_order(engine: Engine,
                                                           entries: int) -> None:
    """One entry, a few, and more than PostgreSQL writes in the statement that moves the
    chain's head: all in the order they were made, one unbroken line."""
    with transaction(engine) as s:
        for n in range(entries):
            move(s, f"f{n}", "external:owner", "house:bank", 1 + n, "funding")
    with transaction(engine) as s:
        report = verify_audit(s)
        assert report.ok, report.problems
        payloads = s.scalars(select(AuditEntry.payload).order_by(AuditEntry.id)).all()
        assert [f'"key":"f{n}"' in p for n, p in enumerate(payloads)] == [True] * entries


def test_a_savepoint_kept_does_not_take_the_chain_early(engine: Engine) -> None:
    """A savepoint that commits inside a transaction leaves its entries for the
    transaction's commit: the chain's head is not locked before the transaction ends."""
    with transaction(engine) as s:
        with s.begin_nested():
            move(s, "fund", "external:owner", "house:bank", 10_000, "funding")
        assert s.scalar(select(AuditEntry.id)) is None  # not yet chained
        move(s, "more", "external:owner", "house:bank", 5_000, "funding")
    with transaction(engine) as s:
        assert verify_audit(s).entries == 2 and verify_audit(s).ok
