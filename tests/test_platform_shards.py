"""The house bank's balance shards and the audit's chains (migration 0009): concurrent
transactions on PostgreSQL move different shards and append to different chains, and
``ledger check`` and ``audit verify`` still prove every cent and every entry."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from dbfixtures import bare_engine, fresh_engine
from sqlalchemy import Engine, text

from pelisali.platform import accounts
from pelisali.platform.db import transaction, upgrade
from pelisali.platform.ledger import (
    CHAINS,
    GENESIS,
    SHARDS,
    LedgerError,
    Posting,
    _chain,
    balance,
    balances,
    check,
    move,
    post,
    verify_audit,
)


@pytest.fixture
def pg(tmp_path: Path) -> Iterator[Engine]:
    yield from fresh_engine("postgresql", tmp_path)


def _shards(engine: Engine) -> list[int]:
    with engine.connect() as connection:
        return list(connection.execute(text(
            "SELECT balance_shards.balance FROM balance_shards JOIN accounts "
            "ON accounts.id = account_id WHERE code = 'house:bank' ORDER BY shard")).scalars())


def test_concurrent_rounds_use_many_shards_and_chains_and_prove_out(pg: Engine) -> None:
    """Eight players at once, each staking and being paid forty times: the house bank's
    money lies in several shards and the entries in several chains, and the sums, the
    transfers and every chain still agree to the cent."""
    with transaction(pg) as s:
        move(s, "fund", "external:owner", "house:bank", 1_000_000, "funding")
        for p in range(8):
            accounts.register(s, f"p{p}", date(1990, 1, 1), "FI")
            accounts.deposit(s, f"p{p}", 100_000, key=f"d{p}")
    barrier = threading.Barrier(8)
    errors: list[BaseException] = []

    def player(p: int) -> None:
        barrier.wait()
        try:
            for n in range(40):
                with transaction(pg) as s:
                    post(s, [Posting(f"s{p}-{n}", f"player:p{p}", "house:bank", 300, "stake")])
                with transaction(pg) as s:
                    post(s, [Posting(f"w{p}-{n}", "house:bank", f"player:p{p}", 200 * (n % 3),
                                     "win")] if n % 3 else [], note={"round": n})
        except BaseException as exc:  # pragma: no cover - shown by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=player, args=(p,)) for p in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    # Each player staked 40 x 3.00 and won 2.00 or 4.00 in the rounds n % 3 = 1 or 2.
    won = sum(200 * (n % 3) for n in range(40))
    with transaction(pg) as s:
        for p in range(8):
            assert balance(s, f"player:p{p}") == 100_000 - 40 * 300 + won
        assert balance(s, "house:bank") == 1_000_000 + 8 * (40 * 300 - won)
        assert balances(s)["house:bank"] == balance(s, "house:bank")
        assert check(s).ok
        report = verify_audit(s)
        assert report.ok, report.problems
        assert report.entries == 1 + 8 * 2 + 8 * 80  # the funding, the players, the rounds
        chains = s.execute(text("SELECT COUNT(DISTINCT chain) FROM audit")).scalar_one()
    shards = _shards(pg)
    assert len(shards) == SHARDS and sum(1 for b in shards if b) > 1
    assert 1 < chains <= CHAINS


def test_the_house_pays_from_its_sum_and_no_further(pg: Engine) -> None:
    """The bank's money lies in one shard; with that shard held by another transaction,
    a payout takes a free shard below zero, as the sum allows. A payout beyond the sum is
    refused and changes nothing."""
    with transaction(pg) as s:
        move(s, "fund", "external:owner", "house:bank", 1_000, "funding")
    funded = [n for n, b in enumerate(_shards(pg)) if b]
    assert len(funded) == 1
    holder = pg.connect()
    holder.begin()
    holder.execute(text("SELECT 1 FROM balance_shards WHERE shard = :n FOR UPDATE"),
                   {"n": funded[0]})
    try:
        with transaction(pg) as s:
            post(s, [Posting("win-1", "house:bank", "player:ann", 800, "win")])
    finally:
        holder.rollback()
        holder.close()
    shards = _shards(pg)
    assert shards[funded[0]] == 1_000 and min(shards) == -800
    with pytest.raises(LedgerError, match=r"house:bank holds 2\.00, not 3\.00: no credit"), \
            transaction(pg) as s:
        post(s, [Posting("win-2", "house:bank", "player:ann", 300, "win")])
    with pytest.raises(LedgerError, match="no credit"), transaction(pg) as s:
        move(s, "win-3", "house:bank", "player:ann", 300, "win")
    with transaction(pg) as s:
        assert balance(s, "house:bank") == 200 and balance(s, "player:ann") == 800
        assert check(s).ok and verify_audit(s).ok


def test_an_edited_shard_or_a_cut_chain_is_caught(pg: Engine) -> None:
    with transaction(pg) as s:
        move(s, "fund", "external:owner", "house:bank", 5_000, "funding")
        move(s, "more", "external:owner", "house:bank", 1_000, "funding")
    with transaction(pg) as s:
        before = verify_audit(s)
        assert before.ok and before.entries == 2
    with pg.begin() as c:  # someone adds money to a shard behind the ledger's back
        c.execute(text("UPDATE balance_shards SET balance = balance + 100 WHERE shard = 3"))
    with transaction(pg) as s:
        problems = check(s).problems
        assert "the accounts sum to 100, not 0" in problems
        assert "house:bank: balance 6100, transfers 6000" in problems
    with pg.begin() as c:  # and the last entry of its chain is removed
        chain, last = c.execute(text(
            "SELECT chain, id FROM audit ORDER BY id DESC LIMIT 1")).one()
        c.execute(text("DELETE FROM audit WHERE id = :id"), {"id": last})
    with transaction(pg) as s:
        after = verify_audit(s)
        assert [p.split(" ends at")[0] for p in after.problems] == [f"chain {chain}"]
        assert after.root == before.root  # the heads are untouched; the chain is not


def test_the_root_seals_every_chain(engine: Engine) -> None:
    """The root printed by ``audit verify`` changes with every entry on any chain."""
    with transaction(engine) as s:
        first = verify_audit(s).root
        move(s, "fund", "external:owner", "house:bank", 5_000, "funding")
    with transaction(engine) as s:
        second = verify_audit(s).root
    assert first != second


@pytest.fixture
def bare_pg(tmp_path: Path) -> Iterator[Engine]:
    yield from bare_engine("postgresql", tmp_path)


def test_a_bank_and_chain_of_the_previous_version_carry_over(bare_pg: Engine) -> None:
    """A database at 0008 with a funded bank and a chain of one entry, as 0008 wrote
    them: after 0009 the bank has its shards, its balance and its history unchanged,
    and the old chain is chain 1."""
    upgrade(bare_pg, "0008")
    data = {"at": "2026-11-30T12:00:00+00:00", "transfer": 1, "key": "fund",
            "from": "external:owner", "to": "house:bank", "amount": 7_000,
            "kind": "funding", "reason": "", "round": None, "corrects": None}
    payload = json.dumps(data, sort_keys=True, separators=(",", ":"))
    digest = _chain(GENESIS, "system", "transfer", payload)
    with bare_pg.begin() as c:
        for code, kind, amount in (("external:owner", "external", -7_000),
                                   ("house:bank", "house", 7_000)):
            c.execute(text("INSERT INTO accounts (code, kind, balance, created_at) "
                           "VALUES (:c, :k, :b, now())"), {"c": code, "k": kind, "b": amount})
        c.execute(text("INSERT INTO transfers (key, digest, source_id, target_id, amount, "
                       "kind, reason, created_at) VALUES ('fund', 'd', 1, 2, 7000, 'funding', "
                       "'', now())"))
        c.execute(text("INSERT INTO audit (at, actor, action, payload, previous, hash) "
                       "VALUES (now(), 'system', 'transfer', :p, :g, :h)"),
                  {"p": payload, "g": GENESIS, "h": digest})
        c.execute(text("UPDATE audit_head SET hash = :h, entries = 1"), {"h": digest})
    upgrade(bare_pg)
    assert _shards(bare_pg) == [0] * SHARDS
    with transaction(bare_pg) as s:
        assert balance(s, "house:bank") == 7_000
        post(s, [Posting("win", "house:bank", "player:ann", 2_000, "win")])
    with transaction(bare_pg) as s:
        assert balance(s, "house:bank") == 5_000 and sum(_shards(bare_pg)) == -2_000
        report = verify_audit(s)
        assert report.ok, report.problems
        assert report.entries == 2 and check(s).ok
        assert s.execute(text("SELECT chain FROM audit WHERE id = 1")).scalar_one() == 1
