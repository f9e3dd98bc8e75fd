"""The wallet ledger: double-entry, append-only, idempotent.

Every movement of money is one :class:`Transfer` from a source account to a
target account, with an idempotency key: the same request retried is applied
once; the same key with different content is refused. Accounts other than
``external`` ones (money outside the casino) never go below zero, so nobody
plays on credit. A correction is a new transfer that names the one it
corrects, never an edit. Every transfer is also appended to the audit chain.

>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = open_account(s, "player:ann", "player")
...     _ = move(s, "dep-1", "external:payments", "player:ann", 5000, "deposit")
...     _ = move(s, "dep-1", "external:payments", "player:ann", 5000, "deposit")  # a retry
...     balance(s, "player:ann")
5000
>>> with transaction(engine) as s:
...     move(s, "bet-1", "player:ann", "house:bank", 9000, "stake")
Traceback (most recent call last):
...
pelisali.platform.ledger.LedgerError: player:ann holds 50.00, not 90.00: no credit
>>> with transaction(engine) as s:
...     check(s).ok
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from pelisali.money import format_cents
from pelisali.platform.models import ACCOUNT_KINDS, Account, AuditEntry, AuditHead, Transfer

TRANSFER_KINDS = ("deposit", "withdrawal", "stake", "win", "refund", "commission", "fee",
                  "jackpot_contribution", "jackpot_payout", "rounding", "correction", "funding")
GENESIS = "0" * 64


class LedgerError(ValueError):
    """A transfer the ledger refuses; nothing was written."""


def now_utc() -> datetime:
    return datetime.now(UTC)


def _kind_of(code: str) -> str:
    kind = code.split(":", 1)[0]
    if kind not in ACCOUNT_KINDS:
        raise LedgerError(f"account {code!r}: the code starts with one of "
                          f"{', '.join(ACCOUNT_KINDS)}")
    return kind


def open_account(session: Session, code: str, kind: str | None = None) -> Account:
    """The account ``code`` (``player:ann``, ``house:bank``, ``jackpot:roulette-1``), opened
    on first use."""
    kind = kind or _kind_of(code)
    if kind != _kind_of(code):
        raise LedgerError(f"account {code!r} is not of kind {kind!r}")
    found = session.scalars(select(Account).where(Account.code == code)).one_or_none()
    if found is None:  # two transactions may open it at once: the second one waits
        dialect = session.get_bind().dialect.name
        insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
        session.execute(insert(Account).values(code=code, kind=kind, balance=0,
                                               created_at=now_utc())
                        .on_conflict_do_nothing(index_elements=["code"]))
        found = session.scalars(select(Account).where(Account.code == code)).one()
    return found


def balance(session: Session, code: str) -> int:
    found = session.scalars(select(Account.balance).where(Account.code == code)).one_or_none()
    if found is None:
        raise LedgerError(f"no account {code!r}")
    return int(found)


def _digest(source: str, target: str, amount: int, kind: str, reason: str,
            round_id: int | None, corrects_id: int | None) -> str:
    content = json.dumps([source, target, amount, kind, reason, round_id, corrects_id])
    return hashlib.sha256(content.encode()).hexdigest()


def _locked(session: Session, codes: Iterable[str]) -> dict[str, Account]:
    """The accounts, locked for this transaction in id order (PostgreSQL ``FOR UPDATE``;
    an SQLite writer transaction holds the whole database already)."""
    wanted = list(codes)
    query = (select(Account).where(Account.code.in_(wanted)).order_by(Account.id)
             .with_for_update().execution_options(populate_existing=True))
    rows = session.scalars(query).all()  # the balances as the lock holder sees them
    if len(rows) < len(wanted):
        for code in set(wanted) - {row.code for row in rows}:
            open_account(session, code)
        rows = session.scalars(query).all()
    return {row.code: row for row in rows}


def move(session: Session, key: str, source: str, target: str, amount: int, kind: str,
         reason: str = "", round_id: int | None = None, corrects_id: int | None = None,
         actor: str = "system") -> Transfer:
    """Move ``amount`` cents from ``source`` to ``target``; the transfer, new or the one
    this key already made."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise LedgerError(f"an amount is a positive whole number of cents, not {amount!r}")
    if kind not in TRANSFER_KINDS:
        raise LedgerError(f"transfer kind {kind!r}: one of {', '.join(TRANSFER_KINDS)}")
    if source == target:
        raise LedgerError("a transfer moves money between two different accounts")
    if not key or len(key) > 200:
        raise LedgerError("an idempotency key is 1 to 200 characters")
    digest = _digest(source, target, amount, kind, reason, round_id, corrects_id)
    done = session.scalars(select(Transfer).where(Transfer.key == key)).one_or_none()
    if done is not None:
        if done.digest != digest:
            raise LedgerError(f"idempotency key {key!r} was used for a different transfer")
        return done
    accounts = _locked(session, sorted({source, target}))
    paying, receiving = accounts[source], accounts[target]
    if paying.kind != "external" and paying.balance < amount:
        raise LedgerError(f"{source} holds {format_cents(paying.balance)}, not "
                          f"{format_cents(amount)}: no credit")
    paying.balance -= amount
    receiving.balance += amount
    made = Transfer(key=key, digest=digest, source_id=paying.id, target_id=receiving.id,
                    amount=amount, kind=kind, reason=reason, round_id=round_id,
                    corrects_id=corrects_id, created_at=now_utc())
    session.add(made)
    session.flush()
    append_audit(session, actor, "transfer", {
        "transfer": made.id, "key": key, "from": source, "to": target, "amount": amount,
        "kind": kind, "reason": reason, "round": round_id, "corrects": corrects_id})
    return made


def correct(session: Session, key: str, transfer_id: int, reason: str,
            actor: str) -> Transfer:
    """Reverse a transfer (fraud, a void round) with a new one that names it and why."""
    if not reason:
        raise LedgerError("a correction needs its reason")
    original = session.get(Transfer, transfer_id)
    if original is None:
        raise LedgerError(f"no transfer {transfer_id}")
    source = session.get(Account, original.target_id)
    target = session.get(Account, original.source_id)
    assert source is not None and target is not None
    return move(session, key, source.code, target.code, original.amount, "correction",
                reason=reason, round_id=original.round_id, corrects_id=original.id,
                actor=actor)


# -- the audit chain -----------------------------------------------------------------------
def _chain(previous: str, actor: str, action: str, payload: str) -> str:
    return hashlib.sha256(f"{previous}\n{actor}\n{action}\n{payload}".encode()).hexdigest()


def append_audit(session: Session, actor: str, action: str, data: dict[str, object]) -> str:
    """Append an entry chained to the previous one by hash; the head row is locked so the
    chain stays one line under concurrent writers."""
    head = session.scalars(select(AuditHead).where(AuditHead.id == 1).with_for_update()
                           .execution_options(populate_existing=True)).one()
    at = now_utc()
    payload = json.dumps({"at": at.isoformat(), **data}, sort_keys=True, separators=(",", ":"))
    digest = _chain(head.hash, actor, action, payload)
    session.add(AuditEntry(at=at, actor=actor, action=action, payload=payload,
                           previous=head.hash, hash=digest))
    head.hash = digest
    head.entries += 1
    session.flush()
    return digest


@dataclass
class AuditReport:
    entries: int
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_audit(session: Session) -> AuditReport:
    """Recompute the chain from the first entry; any edited, removed or inserted entry
    breaks it."""
    report = AuditReport(0)
    previous = GENESIS
    for entry in session.scalars(select(AuditEntry).order_by(AuditEntry.id)).yield_per(2000):
        report.entries += 1
        if entry.previous != previous:
            report.problems.append(f"entry {entry.id}: does not follow the entry before it")
        if _chain(entry.previous, entry.actor, entry.action, entry.payload) != entry.hash:
            report.problems.append(f"entry {entry.id}: its content does not match its hash")
        previous = entry.hash
    head = session.scalars(select(AuditHead).where(AuditHead.id == 1)).one()
    if head.hash != previous or head.entries != report.entries:
        report.problems.append(f"the chain ends at {previous[:12]} after {report.entries} "
                               f"entries; the head says {head.hash[:12]} after {head.entries}")
    return report


# -- the invariant check ------------------------------------------------------------------
@dataclass
class LedgerReport:
    accounts: int
    transfers: int
    total: int
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check(session: Session) -> LedgerReport:
    """All accounts sum to zero, every balance equals its transfers, none is negative but
    the external ones."""
    accounts = session.scalars(select(Account).order_by(Account.id)).all()
    incoming = {row[0]: row[1] for row in session.execute(
        select(Transfer.target_id, func.sum(Transfer.amount)).group_by(Transfer.target_id))}
    outgoing = {row[0]: row[1] for row in session.execute(
        select(Transfer.source_id, func.sum(Transfer.amount)).group_by(Transfer.source_id))}
    transfers = session.scalar(select(func.count()).select_from(Transfer)) or 0
    report = LedgerReport(len(accounts), transfers, sum(a.balance for a in accounts))
    if report.total != 0:
        report.problems.append(f"the accounts sum to {report.total}, not 0")
    for account in accounts:
        moved = int(incoming.get(account.id, 0) or 0) - int(outgoing.get(account.id, 0) or 0)
        if moved != account.balance:
            report.problems.append(f"{account.code}: balance {account.balance}, "
                                   f"transfers {moved}")
        if account.balance < 0 and account.kind != "external":
            report.problems.append(f"{account.code}: negative balance {account.balance}")
    return report
