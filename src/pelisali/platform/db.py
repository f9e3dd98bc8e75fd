"""Engines and transactions: an SQLite file by default, PostgreSQL by URL.

``PELISALI_DATABASE_URL`` chooses the database (``postgresql+psycopg://user@host/db``);
without it Pelisali keeps ``pelisali.db`` in the working directory. SQLite write
transactions begin as writers (``BEGIN IMMEDIATE``) so two of them never deadlock
upgrading a read lock; PostgreSQL locks the rows a transfer debits (``FOR UPDATE``).

>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as session:
...     session.execute(text("select count(*) from accounts")).scalar_one()
0
"""

from __future__ import annotations

import contextlib
import os
import random
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session, SessionTransaction, sessionmaker
from sqlalchemy.pool import StaticPool

__all__ = ["DatabaseBusy", "after_commit", "database_url", "downgrade", "dry_run",
           "find_or_create", "follows_savepoints", "make_engine", "pending", "text",
           "transaction", "transient", "upgrade"]

DEFAULT_URL = "sqlite:///pelisali.db"


def database_url() -> str:
    return os.environ.get("PELISALI_DATABASE_URL", DEFAULT_URL)


def make_engine(url: str | None = None) -> Engine:
    url = url or database_url()
    if url.startswith("sqlite"):
        kwargs: dict[str, Any] = {"connect_args": {"timeout": 60}}
        if url in ("sqlite://", "sqlite:///:memory:"):  # one shared in-memory database
            kwargs.update(poolclass=StaticPool,
                          connect_args={"timeout": 60, "check_same_thread": False})
        engine = create_engine(url, **kwargs)

        @event.listens_for(engine, "connect")
        def _connect(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None  # BEGIN is ours to say
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=60000")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _begin(connection: Any) -> None:
            connection.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    return create_engine(url, pool_size=20, max_overflow=10, pool_pre_ping=True)


_WRITERS: weakref.WeakKeyDictionary[Engine, threading.Lock] = weakref.WeakKeyDictionary()
_FACTORIES: weakref.WeakKeyDictionary[Engine, sessionmaker[Session]] = (
    weakref.WeakKeyDictionary())


_OWNERS: weakref.WeakKeyDictionary[Engine, int] = weakref.WeakKeyDictionary()



def snapshot(session: Session) -> None:
    """Make ``session``'s transaction read one snapshot of the database (PostgreSQL's
    REPEATABLE READ; SQLite's transactions do already): call it before the first
    statement. A check that reads balances and then transfers would otherwise see a
    transaction that commits between the two, and report a problem that is not there."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"))


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """A session in one transaction: committed when the block ends, rolled back on error.

    On SQLite the threads of one process take turns at writing here, rather than in
    SQLite's busy handler, whose growing sleeps would make the slowest waits long; a
    thread that asks for a second transaction inside its first would wait for itself,
    so it is refused instead.
    """
    factory = _FACTORIES.get(engine)
    if factory is None:
        factory = _FACTORIES[engine] = sessionmaker(engine, expire_on_commit=False)
    if engine.dialect.name == "sqlite":
        if _OWNERS.get(engine) == threading.get_ident():
            raise RuntimeError("a transaction inside a transaction on SQLite would wait "
                               "for itself: use the session at hand")
        lock = _WRITERS.setdefault(engine, threading.Lock())
        with lock:
            _OWNERS[engine] = threading.get_ident()
            try:
                with factory() as session, session.begin():
                    yield session
            finally:
                del _OWNERS[engine]
        return
    with factory() as session, session.begin():
        yield session


T = TypeVar("T")

# SQLSTATEs of failures that say nothing about the request, only that it met another
# one: a deadlock, a serialization failure, a lock not granted, a server shut down or
# the connection dropped; trying again is the answer.
_TRANSIENT_STATES = {"40P01": "a deadlock", "40001": "a serialization failure",
                     "55P03": "a lock not granted", "57P01": "the server shut down",
                     "57P02": "the server crashed", "57P03": "the server is starting",
                     "08000": "the connection failed", "08003": "no connection",
                     "08006": "the connection failed"}
RETRIES = 6


class DatabaseBusy(Exception):
    """The database could not take the request after :data:`RETRIES` tries: nothing of
    it was kept; the client may send it again (HTTP 503)."""


def transient(exc: BaseException) -> str | None:
    """Why ``exc`` is a failure to try again (a deadlock, a serialization failure, a
    dropped connection, SQLite busy), or None when it is not one.

    >>> transient(ValueError("no"))
    """
    if isinstance(exc, DBAPIError):
        if exc.connection_invalidated:
            return "the connection to the database dropped"
        state = getattr(exc.orig, "sqlstate", None)
        if state in _TRANSIENT_STATES:
            return f"{_TRANSIENT_STATES[state]} in the database"
        if isinstance(exc, OperationalError):
            text = str(exc.orig).lower()
            if "locked" in text or "busy" in text:  # SQLite
                return "the database is busy"
            if "connection" in text or "terminat" in text or "closed" in text:
                return "the connection to the database dropped"
    return None


def retry_wait(attempt: int) -> float:
    """Seconds to wait before try ``attempt`` (1, 2, ...): short, growing, jittered so
    that the transactions that met do not meet again."""
    return random.uniform(0, 0.005 * 2 ** min(attempt, 6))  # noqa: S311 - a retry's jitter


def find_or_create(session: Session, find: Callable[[], T], create: Callable[[], T],
                   missing: type[Exception]) -> T:
    """``find()``, or ``create()`` where it raises ``missing``; two transactions creating
    the same row at once both get it: the second's insert, refused by a unique key (or
    its own check finding the row made meanwhile), is rolled back to a savepoint and the
    row the first made is read instead; a refusal of ``create`` for any other reason
    stands.

    >>> from pelisali.platform.ledger import LedgerError, open_account, balance
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as session:
    ...     find_or_create(session, lambda: balance(session, "house:bank"),
    ...                    lambda: open_account(session, "house:bank").balance, LedgerError)
    0
    """
    with contextlib.suppress(missing):  # not there: made below
        return find()
    try:
        with session.begin_nested():
            return create()
    except IntegrityError:  # made meanwhile: the insert met it
        return find()
    except missing as refused:  # made meanwhile (create's own check saw it), or refused
        try:
            return find()
        except missing:
            raise refused from None


_MARKS = "pelisali.pending.marks"  # session.info: each list's length as a savepoint began
_PENDING_KEYS: list[str] = []  # the session.info lists that follow savepoints


def pending(session: Session, key: str) -> list[Any]:
    """The list ``session.info[key]`` of what the transaction holds until it commits
    (``key`` registered with :func:`follows_savepoints`): what was added to it in a
    savepoint that rolls back is dropped, and all of it when the transaction does."""
    found: list[Any] = session.info.setdefault(key, [])
    return found


def follows_savepoints(key: str) -> str:
    """Register ``key`` as a list :func:`pending` keeps in step with savepoints."""
    if key not in _PENDING_KEYS:
        _PENDING_KEYS.append(key)
    return key


@event.listens_for(Session, "after_transaction_create")
def _mark(session: Session, transaction: SessionTransaction) -> None:
    if transaction.nested:
        session.info.setdefault(_MARKS, {})[transaction] = {
            key: len(session.info.get(key, [])) for key in _PENDING_KEYS}


@event.listens_for(Session, "after_soft_rollback")
def _drop_rolled_back(session: Session, previous: SessionTransaction) -> None:
    if previous.nested:
        for key, length in session.info.get(_MARKS, {}).pop(previous, {}).items():
            del pending(session, key)[length:]
    else:
        for key in (*_PENDING_KEYS, _MARKS):
            session.info.pop(key, None)


_AFTER = follows_savepoints("pelisali.after_commit")


def after_commit(session: Session, action: Callable[[], None]) -> None:
    """Run ``action`` once the transaction commits; never if it, or the savepoint it was
    asked for in, rolls back (what the monitoring counts is what was kept).

    >>> engine = make_engine("sqlite://")
    >>> seen = []
    >>> with transaction(engine) as session:
    ...     after_commit(session, lambda: seen.append("kept"))
    ...     with dry_run(session):
    ...         after_commit(session, lambda: seen.append("tried"))
    ...     seen
    []
    >>> seen
    ['kept']
    """
    pending(session, _AFTER).append(action)


@event.listens_for(Session, "after_commit")
def _run_after_commit(session: Session) -> None:
    if session.in_nested_transaction():
        return
    session.info.pop(_MARKS, None)
    for action in session.info.pop(_AFTER, []):
        action()


class _DryRun(Exception):
    """Ends a dry run's block so that its transaction rolls back."""


@contextmanager
def dry_run(target: Engine | Session) -> Iterator[Session]:
    """A session whose changes always roll back: what a change would do, or why it is
    refused, with nothing kept. Given a session, the trial runs in a savepoint of its
    transaction (it sees what the transaction did so far).

    >>> from pelisali.platform.ledger import open_account
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with dry_run(engine) as session:
    ...     _ = open_account(session, "player:ann", "player")
    >>> with transaction(engine) as session:
    ...     with dry_run(session):
    ...         _ = open_account(session, "player:bob", "player")
    ...     session.execute(text("select count(*) from accounts")).scalar_one()
    0
    """
    if isinstance(target, Session):
        savepoint = target.begin_nested()
        try:
            yield target
        finally:
            if savepoint.is_active:
                savepoint.rollback()
        return
    with contextlib.suppress(_DryRun), transaction(target) as session:
        yield session
        raise _DryRun  # out of the transaction, which rolls back


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to ``revision`` with the Alembic migrations."""
    _migrate(engine, revision, "upgrade")


def downgrade(engine: Engine, revision: str) -> None:
    """Take the schema back to ``revision`` (an operator's way back after a failed release)."""
    _migrate(engine, revision, "downgrade")


def _migrate(engine: Engine, revision: str, direction: str) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        raw = connection.connection.driver_connection
        if sqlite and raw is not None:
            # SQLite changes a table by rebuilding it, which its reference checks would
            # refuse midway; they are off for the migration and every reference is checked
            # before it commits.
            raw.execute("PRAGMA foreign_keys=OFF")
        try:
            with connection.begin():
                config.attributes["connection"] = connection
                getattr(command, direction)(config, revision)
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"the migration would leave broken references: "
                                           f"{broken[:5]}")
        finally:
            if sqlite and raw is not None:
                raw.execute("PRAGMA foreign_keys=ON")
