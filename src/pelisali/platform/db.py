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

import os
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

__all__ = ["database_url", "downgrade", "dry_run", "make_engine", "text", "transaction",
           "upgrade"]

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
    try:
        with transaction(target) as session:
            yield session
            raise _DryRun
    except _DryRun:
        pass


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
