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
import os
import threading
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from typing import Any, cast

from sqlalchemy import (
    BigInteger,
    Boolean,
    Connection,
    Engine,
    Table,
    bindparam,
    event,
    func,
    insert,
    literal,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session, aliased
from sqlalchemy.sql.dml import Insert

from pelisali.money import format_cents
from pelisali.platform import metrics
from pelisali.platform.db import follows_savepoints, pending
from pelisali.platform.kinds import TransferKind, values
from pelisali.platform.models import (
    ACCOUNT_KINDS,
    Account,
    AuditEntry,
    AuditHead,
    BalanceShard,
    Transfer,
)

TRANSFER_KINDS = tuple(values(TransferKind))
GENESIS = "0" * 64
# Every round moves the house bank: on PostgreSQL its balance is split into shards, each
# moved by one transaction at a time, so concurrent rounds do not wait in one line.
SHARDED = frozenset({"house:bank"})
SHARDS = 16
CHAINS = 16  # the audit chains (migration 0009); one on SQLite
_HEAD = cast(Table, AuditHead.__table__)
_HEADS: weakref.WeakKeyDictionary[Engine, str] = weakref.WeakKeyDictionary()
_AUDIT = cast(Table, AuditEntry.__table__)
_SHARDS = cast(Table, BalanceShard.__table__)


def _sharded(session_or_connection: Session | Connection, code: str) -> bool:
    if code not in SHARDED:
        return False
    dialect = (session_or_connection.dialect if isinstance(session_or_connection, Connection)
               else session_or_connection.get_bind().dialect)
    return dialect.name == "postgresql"


def _lane() -> int:
    """Where this thread starts looking for a free shard or chain: threads of one
    process, and processes, start at different places, and one thread at the same one."""
    return hash((os.getpid(), threading.get_ident())) % SHARDS


class LedgerError(ValueError):
    """A transfer the ledger refuses; nothing was written."""


class KeyConflict(LedgerError):
    """An idempotency key sent again with another request than the one it was first used
    for: refused, nothing written. Taking it as a retry would answer a request that was
    never made (and, at a table, with another's round). ``first`` says in words what the
    key was used for ("a deposit of 10.00 €"), so that the answer can name it."""

    def __init__(self, message: str, first: str) -> None:
        super().__init__(message)
        self.first = first


_KIND_WORDS = {"buy_in": "buy-in", "cash_out": "cash-out"}


def described(kind: str, amount: int, *codes: str) -> str:
    """A transfer in words, for a refusal that names it; a table account among
    ``codes`` says where.

    >>> described("deposit", 1_000), described("buy_in", 5_000, "player:ann", "table:nl-1")
    ('a deposit of 10.00 €', 'a buy-in of 50.00 € at nl-1')
    """
    words = _KIND_WORDS.get(kind, kind.replace("_", " "))
    where = next((f" at {c.removeprefix('table:')}" for c in codes if c.startswith("table:")),
                 "")
    return f"{'an' if words[0] in 'aeiou' else 'a'} {words} of {format_cents(amount)} €{where}"


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
        if _sharded(session, code):
            session.execute(postgresql_insert(BalanceShard).values(
                [{"account_id": found.id, "shard": n, "balance": 0} for n in range(SHARDS)])
                .on_conflict_do_nothing())
    return found


def balance(session: Session, code: str) -> int:
    """The account's balance (a sharded account's row and shards summed)."""
    found = session.execute(select(Account.id, Account.balance)
                            .where(Account.code == code)).one_or_none()
    if found is None:
        raise LedgerError(f"no account {code!r}")
    return int(found.balance) + _shards_sum(session.connection(), found.id, code)


_SHARDS_SUM = select(func.coalesce(func.sum(_SHARDS.c.balance), 0)).where(
    _SHARDS.c.account_id == bindparam("account"))


def _shards_sum(connection: Connection, account_id: int, code: str) -> int:
    if code not in SHARDED:
        return 0
    return int(connection.execute(_SHARDS_SUM, {"account": account_id}).scalar_one())


def balances(session: Session) -> dict[str, int]:
    """Every account's balance by code (in the order of the codes), the shards summed in.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     _ = move(s, "f1", "external:owner", "house:bank", 700, "funding")
    ...     balances(s)
    {'external:owner': -700, 'house:bank': 700}
    """
    shards = dict(session.execute(select(_SHARDS.c.account_id, func.sum(_SHARDS.c.balance))
                                  .group_by(_SHARDS.c.account_id)).all())
    return {code: int(amount) + int(shards.get(account_id, 0))
            for account_id, code, amount in session.execute(
                select(Account.id, Account.code, Account.balance).order_by(Account.code))}


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
        for code in sorted(set(wanted) - {row.code for row in rows}):
            open_account(session, code)
        rows = session.scalars(query).all()
    return {row.code: row for row in rows}


def locked_balance(session: Session, code: str) -> int:
    """The account's balance, the account locked for the rest of the transaction (so a
    share of it is not paid twice by two transactions at once)."""
    _locked(session, [code])
    return balance(session, code)


@dataclass(frozen=True)
class Posting:
    """One transfer of a batch for :func:`post`."""

    key: str
    source: str
    target: str
    amount: int
    kind: str
    reason: str = ""
    round_id: int | None = None
    corrects_id: int | None = None

    def digest(self) -> str:
        return _digest(self.source, self.target, self.amount, self.kind, self.reason,
                       self.round_id, self.corrects_id)

    def check(self) -> None:
        amount = self.amount
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise LedgerError(f"an amount is a positive whole number of cents, not {amount!r}")
        if self.kind not in TRANSFER_KINDS:
            raise LedgerError(f"transfer kind {self.kind!r}: one of {', '.join(TRANSFER_KINDS)}")
        if self.source == self.target:
            raise LedgerError("a transfer moves money between two different accounts")
        if not self.key or len(self.key) > 200:
            raise LedgerError("an idempotency key is 1 to 200 characters")


_TRANSFERS = cast(Table, Transfer.__table__)
_ACCOUNTS = cast(Table, Account.__table__)
# The hot paths' statements, built once (building one costs more than running it).
_DIGESTS = select(_TRANSFERS.c.key, _TRANSFERS.c.digest).where(
    _TRANSFERS.c.key.in_(bindparam("keys", expanding=True)))
_LOCK_ACCOUNTS = (select(_ACCOUNTS.c.code, _ACCOUNTS.c.id, _ACCOUNTS.c.kind, _ACCOUNTS.c.balance)
                  .where(_ACCOUNTS.c.code.in_(bindparam("codes", expanding=True)))
                  .order_by(_ACCOUNTS.c.id).with_for_update())
# Each with its shards' sum (0 for an account without), which a sharded account's
# no-credit check adds: read with the row rather than in a round trip of its own.
_ACCOUNT_ROWS = (select(_ACCOUNTS.c.code, _ACCOUNTS.c.id, _ACCOUNTS.c.kind, _ACCOUNTS.c.balance,
                        select(func.coalesce(func.sum(_SHARDS.c.balance), 0))
                        .where(_SHARDS.c.account_id == _ACCOUNTS.c.id)
                        .scalar_subquery().label("shards"))
                 .where(_ACCOUNTS.c.code.in_(bindparam("codes", expanding=True))))
_SHIFT_BALANCE = (update(_ACCOUNTS).where(
    _ACCOUNTS.c.id == bindparam("account"),
    or_(bindparam("open", type_=Boolean()),
        _ACCOUNTS.c.balance + bindparam("delta", type_=BigInteger()) >= 0))
    .values(balance=_ACCOUNTS.c.balance + bindparam("delta", type_=BigInteger())))
_INSERT_TRANSFERS = insert(_TRANSFERS)
_MOVE_HEAD = (update(_HEAD).where(_HEAD.c.id == bindparam("chain"),
                                  _HEAD.c.hash == bindparam("old"))
              .values(hash=bindparam("new"),
                      entries=_HEAD.c.entries + bindparam("count", type_=BigInteger())))
_LOCK_HEAD = select(_HEAD.c.hash).where(_HEAD.c.id == bindparam("chain")).with_for_update()
# A chain no other transaction is appending to, this thread's usual one first.
_FREE_HEAD = (select(_HEAD.c.id, _HEAD.c.hash).order_by((_HEAD.c.id + bindparam("lane")) % CHAINS)
              .limit(1).with_for_update(skip_locked=True))
_INSERT_AUDIT = insert(_AUDIT)
# PostgreSQL: a chain's head moved on as the entries are written, in one statement (a
# data-modifying WITH runs whether or not the INSERT reads it).
_MOVED_HEAD = (update(_HEAD).where(_HEAD.c.id == bindparam("head_chain"),
                                   _HEAD.c.hash == bindparam("head_old"))
               .values(hash=bindparam("head_new"),
                       entries=_HEAD.c.entries + bindparam("head_count", type_=BigInteger()))
               .returning(_HEAD.c.id).cte("moved_head"))
_AUDIT_COLUMNS = ("chain", "at", "actor", "action", "payload", "previous", "hash")
_MOVING_MOST = 32  # entries one statement writes with the head; more go in two


@cache
def _append_moving_head(entries: int) -> Insert:
    """``entries`` audit rows (bound as ``{column}_{n}``) written in their order, the
    chain's head moved on in the same statement; one statement a count of entries,
    built once (a multi-row ``values()`` could not be cached)."""
    rows = [select(literal(n).label("n"),
                   *(bindparam(f"{c}_{n}", type_=_AUDIT.c[c].type).label(c)
                     for c in _AUDIT_COLUMNS))
            for n in range(entries)]
    source = (rows[0] if entries == 1 else union_all(*rows)).subquery()
    return (insert(_AUDIT).from_select(
        _AUDIT_COLUMNS, select(*(source.c[c] for c in _AUDIT_COLUMNS)).order_by(source.c.n))
        .add_cte(_MOVED_HEAD))


def post(session: Session, postings: Sequence[Posting], actor: str = "system",
         action: str = "transfers", note: dict[str, object] | None = None,
         fresh: bool = False, locked: Mapping[str, Any] | None = None) -> int:
    """Apply a batch of transfers at once, all or none, with one audit entry for the
    batch (``note`` adds the context, such as the round). Keys already applied with the
    same content are skipped; the number of new transfers is returned.

    The hot paths (bets, settlements) use this: a handful of statements for any number
    of transfers, where :func:`move` costs several per transfer. ``fresh`` says the keys
    cannot have been used (they derive from rows this transaction has just claimed), which
    saves the look-up; the keys' uniqueness still holds in the database. ``locked`` are
    the accounts' rows (code, id, kind, balance) the caller has already locked.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     post(s, [Posting("f1", "external:owner", "house:bank", 500, "funding"),
    ...              Posting("f2", "house:bank", "player:ann", 200, "win")])
    ...     post(s, [Posting("f2", "house:bank", "player:ann", 200, "win")])  # a retry
    ...     balance(s, "house:bank"), balance(s, "player:ann")
    2
    0
    (300, 200)
    """
    for posting in postings:
        posting.check()
    digests = {p.key: p.digest() for p in postings}
    if len(digests) < len(postings):
        raise LedgerError("a batch uses one idempotency key twice")
    session.flush()  # what the ORM holds goes first; the rest is Core, without autoflush
    connection = session.connection()
    done: dict[str, str] = {}
    keys = [] if fresh else list(digests)
    for start in range(0, len(keys), 500):
        done.update(connection.execute(_DIGESTS, {"keys": keys[start:start + 500]}).all())
    for key, digest in done.items():
        if digests[key] != digest:
            raise _conflict(session, key)
    new = [p for p in postings if p.key not in done]
    if new:
        _apply(session, new, locked)
    if new or note is not None:
        append_audit(session, actor, action, {**(note or {}), **batch_seal(new)})
    return len(new)


def lock_accounts(session: Session, codes: Iterable[str]) -> dict[str, Any]:
    """The accounts' rows (code, id, kind, balance), locked for this transaction in id
    order, opened first where they are new."""
    codes = sorted(set(codes))
    connection = session.connection()
    rows = {row.code: row for row in connection.execute(_LOCK_ACCOUNTS, {"codes": codes})}
    if len(rows) < len(codes):
        for code in sorted(set(codes) - set(rows)):
            open_account(session, code)
        rows = {row.code: row for row in connection.execute(_LOCK_ACCOUNTS, {"codes": codes})}
    return rows


def batch_seal(postings: Sequence[Posting]) -> dict[str, object]:
    """What the audit chain keeps of a batch of transfers: their keys and one hash over
    their contents, which :func:`verify_audit` recomputes from the transfers' rows."""
    content = hashlib.sha256("\n".join(f"{p.key} {p.digest()}" for p in postings).encode())
    return {"keys": [p.key for p in postings], "content": content.hexdigest()}


def _apply(session: Session, postings: Sequence[Posting],
           locked: Mapping[str, Any] | None) -> None:
    metrics.count(session, metrics.POSTINGS, len(postings))
    connection = session.connection()
    codes = sorted({p.source for p in postings} | {p.target for p in postings})
    rows = dict(locked or {})
    wanted = [code for code in codes if code not in rows]
    if wanted:
        rows.update((row.code, row) for row in connection.execute(_ACCOUNT_ROWS,
                                                                  {"codes": wanted}))
        for code in set(wanted) - set(rows):
            open_account(session, code)
            rows.update((row.code, row) for row in connection.execute(_ACCOUNT_ROWS,
                                                                      {"codes": [code]}))
    change = dict.fromkeys(codes, 0)
    for p in postings:
        change[p.source] -= p.amount
        change[p.target] += p.amount
    for code, delta in change.items():
        row = rows[code]
        held = row.balance
        if delta < 0 and code in SHARDED:
            shards = getattr(row, "shards", None)  # a row of _ACCOUNT_ROWS has it
            held += (int(shards) if shards is not None
                     else _shards_sum(connection, row.id, code))
        if row.kind != "external" and held + delta < 0:
            raise LedgerError(f"{code} holds {format_cents(held)}, not "
                              f"{format_cents(-delta)}: no credit")
    # Balances move by their change, guarded in the statement itself, so an account read
    # without a lock cannot be overdrawn by a writer that moved it since. The house's
    # accounts, which every round touches, go last: their row locks are held only for
    # the end of the transaction.
    players = [c for c in codes if change[c] and not c.startswith("house:")]
    house = [c for c in codes if change[c] and c.startswith("house:")]
    _shift(connection, rows, change, players)
    at = now_utc()
    connection.execute(_INSERT_TRANSFERS, [
        {"key": p.key, "digest": p.digest(), "source_id": rows[p.source].id,
         "target_id": rows[p.target].id, "amount": p.amount, "kind": p.kind,
         "reason": p.reason, "round_id": p.round_id, "corrects_id": p.corrects_id,
         "created_at": at} for p in postings])
    _shift(connection, rows, change, house)
    expire(session, Account, set(change), "code")


def _shift(connection: Connection, rows: Mapping[str, Any], change: Mapping[str, int],
           codes: list[str]) -> None:
    sharded = [c for c in codes if _sharded(connection, c)]
    for code in sharded:
        if not _shift_shard(connection, rows[code].id, change[code]):
            codes = [c for c in codes if c != code]
    codes = [c for c in codes if c not in sharded]
    if not codes:
        return
    codes = sorted(codes, key=lambda code: rows[code].id)  # one lock order for everyone
    moved = connection.execute(_SHIFT_BALANCE, [
        {"account": rows[c].id, "delta": change[c], "open": rows[c].kind == "external"}
        for c in codes]).rowcount
    if moved != len(codes):
        raise LedgerError(f"no credit: {', '.join(codes)} changed while this was written "
                          "and one of them cannot pay")


_FREE_SHARD = (select(_SHARDS.c.shard)
               .where(_SHARDS.c.account_id == bindparam("account"))
               .order_by((_SHARDS.c.shard + bindparam("lane")) % SHARDS)
               .limit(1).with_for_update(skip_locked=True).scalar_subquery())
_SHIFT_FREE_SHARD = (update(_SHARDS).where(_SHARDS.c.account_id == bindparam("account"),
                                           _SHARDS.c.shard == _FREE_SHARD)
                     .values(balance=_SHARDS.c.balance + bindparam("delta", type_=BigInteger())))
_SHIFT_SHARD = (update(_SHARDS).where(_SHARDS.c.account_id == bindparam("account"),
                                      _SHARDS.c.shard == bindparam("lane"))
                .values(balance=_SHARDS.c.balance + bindparam("delta", type_=BigInteger())))


def _shift_shard(connection: Connection, account_id: int, delta: int) -> bool:
    """Move a shard of the account by ``delta``: one no other transaction holds, else
    this thread's own (waiting for it). False if the account has no shards.

    A shard may go below zero; the no-credit check is on the account's sum, read when the
    transfer is written (:func:`_apply`): two payouts at the same instant can each see
    the other's money, so the house bank's sum, not a player's, can end below zero by
    what they paid together; :func:`check` reports it."""
    lane = _lane()
    values = {"account": account_id, "lane": lane, "delta": delta}
    if connection.execute(_SHIFT_FREE_SHARD, values).rowcount == 1:
        return True
    return connection.execute(_SHIFT_SHARD, values).rowcount == 1


def expire(session: Session, model: type, values: set[Any], attribute: str = "id") -> None:
    """Forget the rows of ``model`` this session holds whose ``attribute`` is in ``values``:
    a Core statement changed them behind the ORM's back."""
    for obj in list(session.identity_map.values()):
        if isinstance(obj, model) and getattr(obj, attribute) in values:
            session.expire(obj)


def move(session: Session, key: str, source: str, target: str, amount: int, kind: str,
         reason: str = "", round_id: int | None = None, corrects_id: int | None = None,
         actor: str = "system") -> Transfer:
    """Move ``amount`` cents from ``source`` to ``target``; the transfer, new or the one
    this key already made."""
    posting = Posting(key, source, target, amount, kind, reason, round_id, corrects_id)
    posting.check()
    digest = posting.digest()
    done = session.scalars(select(Transfer).where(Transfer.key == key)).one_or_none()
    if done is not None:
        if done.digest != digest:
            raise _conflict(session, key)
        return done
    accounts = _locked(session, sorted({source, target}))
    paying, receiving = accounts[source], accounts[target]
    held = paying.balance + _shards_sum(session.connection(), paying.id, source)
    if paying.kind != "external" and held < amount:
        raise LedgerError(f"{source} holds {format_cents(held)}, not "
                          f"{format_cents(amount)}: no credit")
    for account, delta in ((paying, -amount), (receiving, amount)):
        if not (_sharded(session, account.code)
                and _shift_shard(session.connection(), account.id, delta)):
            account.balance += delta
    made = Transfer(key=key, digest=digest, source_id=paying.id, target_id=receiving.id,
                    amount=amount, kind=kind, reason=reason, round_id=round_id,
                    corrects_id=corrects_id, created_at=now_utc())
    session.add(made)
    session.flush()
    metrics.count(session, metrics.POSTINGS)
    append_audit(session, actor, "transfer", {
        "transfer": made.id, "key": key, "from": source, "to": target, "amount": amount,
        "kind": kind, "reason": reason, "round": round_id, "corrects": corrects_id})
    return made


def _made(session: Session, keys: Sequence[str]) -> list[tuple[Transfer, str, str]]:
    """The transfers under ``keys``, each with its source's and target's codes."""
    source, target = aliased(Account), aliased(Account)
    rows = session.execute(
        select(Transfer, source.code, target.code)
        .join(source, Transfer.source_id == source.id)
        .join(target, Transfer.target_id == target.id)
        .where(Transfer.key.in_(list(keys))).order_by(Transfer.id))
    return [(t, came_from, went_to) for t, came_from, went_to in rows]


def _conflict(session: Session, key: str) -> KeyConflict:
    made = _made(session, [key])
    first = (described(made[0][0].kind, made[0][0].amount, made[0][1], made[0][2])
             if made else "another transfer")
    return KeyConflict(f"idempotency key {key!r} was used for a different transfer: {first}",
                       first)


def made_before(session: Session, key: str, kind: str, source: str, target: str,
                amount: int | None = None, others: Sequence[str] = ()) -> Transfer | None:
    """The transfer ``key`` made, if this request is the one it was made for: ``kind``
    from ``source`` to ``target``, of ``amount`` (None: any, as a cash-out takes what the
    seat holds); None if the key is new. The reason is not compared: it holds what only
    the first request knew (a provider's reference, a seat). :class:`KeyConflict` if the
    key, or one of ``others`` (the same client key under another request's prefix: a
    deposit's key sent for a withdrawal), was used for anything else.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     _ = move(s, "d1", "external:cage", "player:ann", 1_000, "deposit", reason="ref-1")
    ...     made_before(s, "d1", "deposit", "external:cage", "player:ann", 1_000).reason
    ...     made_before(s, "d1", "deposit", "external:cage", "player:ann", 2_000)
    Traceback (most recent call last):
    ...
    pelisali.platform.ledger.KeyConflict: idempotency key 'd1' was used for a different \
transfer: a deposit of 10.00 €
    """
    found = None
    for transfer, came_from, went_to in _made(session, [key, *others]):
        if (transfer.key == key and (transfer.kind, came_from, went_to) == (kind, source, target)
                and amount in (None, transfer.amount)):
            found = transfer
            continue
        first = described(transfer.kind, transfer.amount, came_from, went_to)
        raise KeyConflict(f"idempotency key {transfer.key!r} was used for a different "
                          f"transfer: {first}", first)
    return found


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
    if source is None or target is None:  # a transfer's accounts are foreign keys
        raise RuntimeError(f"transfer {transfer_id} names an account that does not exist")
    return move(session, key, source.code, target.code, original.amount, "correction",
                reason=reason, round_id=original.round_id, corrects_id=original.id,
                actor=actor)


# -- the audit chain -----------------------------------------------------------------------
def _chain(previous: str, actor: str, action: str, payload: str) -> str:
    return hashlib.sha256(f"{previous}\n{actor}\n{action}\n{payload}".encode()).hexdigest()


_PENDING = follows_savepoints("pelisali.audit.pending")  # the entries to chain at commit


def append_audit(session: Session, actor: str, action: str, data: dict[str, object]) -> None:
    """Add an entry to the chain, chained by hash to the one before it.

    The entry is written when the transaction commits (:func:`_chain_pending`): the
    chain's head is then the last lock a transaction takes, held only while it commits,
    so no writer ever waits for another while holding the head, and writers never
    deadlock over it. An entry of a savepoint rolled back is dropped with it.
    """
    at = now_utc()
    payload = json.dumps({"at": at.isoformat(), **data}, sort_keys=True, separators=(",", ":"))
    pending(session, _PENDING).append((at, actor, action, payload))


@event.listens_for(Session, "before_commit")
def _chain_pending(session: Session) -> None:
    """Append the transaction's entries to a chain, in the order they were made (when
    the transaction itself commits, not a savepoint inside it); the entries of one
    transaction are consecutive on one chain."""
    if session.in_nested_transaction():
        return
    entries = session.info.pop(_PENDING, None)
    if not entries:
        return
    session.flush()  # the ORM's writes go first: the chain's lock is the last one taken
    connection = session.connection()
    bind = connection.engine

    def entries_after(chain: int, head: str) -> tuple[list[dict[str, object]], str]:
        rows, previous = [], head
        for at, actor, action, payload in entries:
            digest = _chain(previous, actor, action, payload)
            rows.append({"chain": chain, "at": at, "actor": actor, "action": action,
                         "payload": payload, "previous": previous, "hash": digest})
            previous = digest
        return rows, previous

    if bind.dialect.name == "postgresql":
        # Concurrent commits append to different chains: whichever no other holds.
        free = connection.execute(_FREE_HEAD, {"lane": _lane()}).first()
        if free is None:  # all sixteen busy: wait for this thread's own
            chain = 1 + _lane() % CHAINS
            head = connection.execute(_LOCK_HEAD, {"chain": chain}).scalar_one()
        else:
            chain, head = free
        rows, last = entries_after(chain, head)
        if len(rows) <= _MOVING_MOST:
            connection.execute(_append_moving_head(len(rows)), {
                "head_chain": chain, "head_old": head, "head_new": last,
                "head_count": len(rows),
                **{f"{c}_{n}": row[c] for n, row in enumerate(rows) for c in _AUDIT_COLUMNS}})
            return
        connection.execute(_MOVE_HEAD, {"chain": chain, "old": head, "new": last,
                                        "count": len(rows)})
        connection.execute(_INSERT_AUDIT, rows)
        return
    # One writer (SQLite), one chain: the head this process wrote last is usually still
    # the head, and moving it on is one statement; if another has moved it, read it.
    head = _HEADS.get(bind)
    rows, last = entries_after(1, head or GENESIS)
    if head is None or connection.execute(_MOVE_HEAD, {
            "chain": 1, "old": head, "new": last, "count": len(rows)}).rowcount != 1:
        head = connection.execute(_LOCK_HEAD, {"chain": 1}).scalar_one()
        rows, last = entries_after(1, head)
        connection.execute(_MOVE_HEAD, {"chain": 1, "old": head, "new": last,
                                        "count": len(rows)})
    connection.execute(_INSERT_AUDIT, rows)
    _HEADS[bind] = last  # if this transaction rolls back, the next append reads the head


_SOURCE, _TARGET = Account.__table__.alias("source"), Account.__table__.alias("target")
_SEALED = (select(_TRANSFERS.c.key, _SOURCE.c.code, _TARGET.c.code, _TRANSFERS.c.amount,
                  _TRANSFERS.c.kind, _TRANSFERS.c.reason, _TRANSFERS.c.round_id,
                  _TRANSFERS.c.corrects_id)
           .join(_SOURCE, _SOURCE.c.id == _TRANSFERS.c.source_id)
           .join(_TARGET, _TARGET.c.id == _TRANSFERS.c.target_id)
           .where(_TRANSFERS.c.key.in_(bindparam("keys", expanding=True))))


def _unsealed(session: Session, sealed: list[tuple[int, dict[str, Any]]]) -> list[str]:
    """The entries whose transfers, as the rows now hold them, are not what was sealed."""
    keys = [k for _, data in sealed for k in data.get("keys", [data.get("key")])]
    if not keys:
        return []
    digests = {row[0]: _digest(*row[1:]) for row in session.execute(_SEALED, {"keys": keys})}
    problems = []
    for entry_id, data in sealed:
        if "content" in data:
            found = "\n".join(f"{k} {digests.get(k, 'missing')}" for k in data["keys"])
            ok = hashlib.sha256(found.encode()).hexdigest() == data["content"]
        else:
            ok = digests.get(data["key"]) == _digest(data["from"], data["to"], data["amount"],
                                                     data["kind"], data["reason"],
                                                     data["round"], data["corrects"])
        if not ok:
            problems.append(f"entry {entry_id}: its transfers are not what it sealed")
    return problems


@dataclass
class AuditReport:
    entries: int
    problems: list[str] = field(default_factory=list)
    root: str = GENESIS  # one hash over every chain's head: publish it to seal the day

    @property
    def ok(self) -> bool:
        return not self.problems


def audit_root(heads: Iterable[tuple[int, str, int]]) -> str:
    """One hash over the chains' heads (chain, hash, entries), in chain order: what an
    operator publishes (or signs) each day, so that no chain can later be rewritten
    from its start without the published root changing.

    >>> audit_root([(1, GENESIS, 0)]) == audit_root([(1, GENESIS, 0)])
    True
    """
    text = "\n".join(f"{chain} {digest} {count}" for chain, digest, count in sorted(heads))
    return hashlib.sha256(text.encode()).hexdigest()


def verify_audit(session: Session) -> AuditReport:
    """Recompute the chain from the first entry; any edited, removed or inserted entry
    breaks it. Every transfer the chain sealed is also read back and its content hashed
    again, so an edited transfer row is caught too."""
    report = AuditReport(0)
    previous: dict[int, str] = {}
    counts: dict[int, int] = {}
    sealed: list[tuple[int, dict[str, Any]]] = []
    for entry in session.scalars(select(AuditEntry).order_by(AuditEntry.id)).yield_per(2000):
        report.entries += 1
        counts[entry.chain] = counts.get(entry.chain, 0) + 1
        if entry.previous != previous.get(entry.chain, GENESIS):
            report.problems.append(f"entry {entry.id}: does not follow the entry before it "
                                   f"on chain {entry.chain}")
        if _chain(entry.previous, entry.actor, entry.action, entry.payload) != entry.hash:
            report.problems.append(f"entry {entry.id}: its content does not match its hash")
        previous[entry.chain] = entry.hash
        data = json.loads(entry.payload)
        if "content" in data or entry.action == "transfer":
            sealed.append((entry.id, data))
            if len(sealed) >= 500:
                report.problems += _unsealed(session, sealed)
                sealed = []
    report.problems += _unsealed(session, sealed)
    heads = session.scalars(select(AuditHead).order_by(AuditHead.id)).all()
    for chain in sorted(set(previous) - {head.id for head in heads}):
        report.problems.append(f"chain {chain} has entries but no head")
    for head in heads:
        last, count = previous.get(head.id, GENESIS), counts.get(head.id, 0)
        if head.hash != last or head.entries != count:
            report.problems.append(f"chain {head.id} ends at {last[:12]} after {count} "
                                   f"entries; its head says {head.hash[:12]} after "
                                   f"{head.entries}")
    report.root = audit_root((head.id, head.hash, head.entries) for head in heads)
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
    the external ones (a sharded account's balance is its row's and its shards' sum)."""
    accounts = session.scalars(select(Account).order_by(Account.id)).all()
    shards = dict(session.execute(select(_SHARDS.c.account_id, func.sum(_SHARDS.c.balance))
                                  .group_by(_SHARDS.c.account_id)).all())
    held = {account.id: account.balance + int(shards.get(account.id, 0) or 0)
            for account in accounts}
    incoming = {row[0]: row[1] for row in session.execute(
        select(Transfer.target_id, func.sum(Transfer.amount)).group_by(Transfer.target_id))}
    outgoing = {row[0]: row[1] for row in session.execute(
        select(Transfer.source_id, func.sum(Transfer.amount)).group_by(Transfer.source_id))}
    transfers = session.scalar(select(func.count()).select_from(Transfer)) or 0
    report = LedgerReport(len(accounts), transfers, sum(held.values()))
    if report.total != 0:
        report.problems.append(f"the accounts sum to {report.total}, not 0")
    for account in accounts:
        moved = int(incoming.get(account.id, 0) or 0) - int(outgoing.get(account.id, 0) or 0)
        if moved != held[account.id]:
            report.problems.append(f"{account.code}: balance {held[account.id]}, "
                                   f"transfers {moved}")
        if held[account.id] < 0 and account.kind != "external":
            report.problems.append(f"{account.code}: negative balance {held[account.id]}")
    return report
