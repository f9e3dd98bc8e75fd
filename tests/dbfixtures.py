"""The two databases the platform runs on, as the tests reach them: an SQLite file and
PostgreSQL on 127.0.0.1 (trust auth, database ``test``), one schema per test."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.orm import Session

from pelisali.platform import accounts
from pelisali.platform.db import make_engine, transaction, upgrade
from pelisali.platform.ledger import balance, move
from pelisali.platform.models import RoundRow
from pelisali.rng import SeededRng

POSTGRES = os.environ.get("PELISALI_TEST_POSTGRES",
                          "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def postgres_reachable() -> bool:
    try:
        with create_engine(POSTGRES).connect() as connection:
            connection.execute(text("select 1"))
        return True
    except Exception:
        return False


def fresh_engine(kind: str, tmp_path: Path) -> Iterator[Engine]:
    """A migrated, empty database of ``kind``; dropped (or emptied) afterwards.

    The migrations run once a test process, for real, into a template; each test's
    database is then made from it, which costs milliseconds rather than the third of
    a second Alembic takes. SQLite: a copy of the template's file. PostgreSQL: a schema
    of the test's own, emptied after the test and filled again with the template's rows
    and sequences, for the next test of the process (a schema that cannot be emptied is
    dropped). The tests of the migrations themselves run Alembic on a bare database
    (:func:`bare_engine`)."""
    if kind == "sqlite":
        shutil.copyfile(_sqlite_template(), tmp_path / "pelisali.db")
        for engine in bare_engine(kind, tmp_path, prefix="t"):
            yield engine
        return
    template, script = _postgres_template()
    schema = _FREE_SCHEMAS.pop() if _FREE_SCHEMAS else _new_schema(script)
    engine = make_engine(f"{POSTGRES}?options=-csearch_path%3D{schema}")
    try:
        yield engine
    finally:
        engine.dispose()
        if _refill(schema, template):
            _FREE_SCHEMAS.append(schema)
        else:
            _drop(schema)


_FREE_SCHEMAS: list[str] = []  # this test process's schemas, empty as the template


@cache
def _sqlite_template() -> Path:
    """An SQLite file the migrations brought to head, once a test process."""
    folder = Path(tempfile.mkdtemp(prefix="pelisali-template-"))
    engine = make_engine(f"sqlite:///{folder / 'pelisali.db'}")
    upgrade(engine)
    engine.dispose()  # the last connection closed: the log is in the file
    if (folder / "pelisali.db-wal").exists():
        raise RuntimeError("the template's write-ahead log was not checkpointed")
    return folder / "pelisali.db"


@cache
def _admin() -> Engine:
    return create_engine(POSTGRES, isolation_level="AUTOCOMMIT")


@cache
def _postgres_template() -> tuple[str, tuple[tuple[str, Any, bool], ...]]:
    """A schema the migrations brought to head, once a test process (dropped when it
    ends), and the statements they sent to do it, kept to make others like it."""
    if not postgres_reachable():
        pytest.fail(f"PostgreSQL is not reachable at {POSTGRES}")
    schema = f"tpl_{uuid.uuid4().hex[:12]}"
    with _admin().connect() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    atexit.register(_drop, schema)
    engine = make_engine(f"{POSTGRES}?options=-csearch_path%3D{schema}")

    sent: list[tuple[str, Any, bool]] = []

    def record(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any,
               many: bool) -> None:
        sent.append((statement, parameters, many))

    event.listen(engine, "before_cursor_execute", record)
    upgrade(engine)
    event.remove(engine, "before_cursor_execute", record)
    engine.dispose()
    return schema, tuple(sent)


def _new_schema(script: tuple[tuple[str, Any, bool], ...]) -> str:
    """A new schema made as the template was: its migrations' statements sent again."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with _admin().connect() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    atexit.register(_drop, schema)
    engine = make_engine(f"{POSTGRES}?options=-csearch_path%3D{schema}")
    with engine.begin() as connection:
        for statement, parameters, many in script:
            connection.exec_driver_sql(statement, parameters if many else parameters or ())
    engine.dispose()
    return schema


def _refill(schema: str, template: str) -> bool:
    """Empty ``schema`` and give it the template's rows and sequences again; False if
    it cannot be (a test changed its tables, or still holds a lock on them)."""
    try:
        with _admin().connect() as connection, connection.begin():
            connection.exec_driver_sql(_refill_script(template).replace("{schema}", schema))
        return True
    except Exception:
        return False


@cache
def _refill_script(template: str) -> str:
    """The statements that make a schema (``{schema}``) hold what the template holds,
    as one text: one round trip."""
    from pelisali.platform.models import Base

    tables = [t.name for t in Base.metadata.sorted_tables] + ["alembic_version"]
    with _admin().connect() as connection:
        sequences = connection.exec_driver_sql(
            "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = %s",
            (template,)).all()
    # The names are the models' tables and this module's own schemas.
    return ";\n".join(
        ["SET LOCAL lock_timeout = '5s'"]
        + [f'DELETE FROM {{schema}}."{t}"'  # noqa: S608 - referrers first
           for t in reversed(tables)]
        + [f'INSERT INTO {{schema}}."{t}" SELECT * FROM {template}."{t}"'  # noqa: S608
           for t in tables]
        # a sequence the template never used starts at 1 again
        + [f"SELECT setval('{{schema}}.{name}', {last or 1}, {last is not None})"
           for name, last in sequences])


def _drop(schema: str) -> None:
    with _admin().connect() as connection:
        connection.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))


def bare_engine(kind: str, tmp_path: Path, prefix: str = "m") -> Iterator[Engine]:
    """An empty database of ``kind``, not yet migrated (PostgreSQL: a schema of its
    own, ``prefix`` and a random part); dropped afterwards."""
    if kind == "sqlite":
        engine = make_engine(f"sqlite:///{tmp_path / 'pelisali.db'}")
        yield engine
        engine.dispose()
        return
    if not postgres_reachable():
        pytest.fail(f"PostgreSQL is not reachable at {POSTGRES}")
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    engine = make_engine(f"{POSTGRES}?options=-csearch_path%3D{schema}")
    try:
        yield engine
    finally:
        engine.dispose()
        with admin.connect() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def served(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn on a free port of 127.0.0.1, in a thread: its URL;
    stopped afterwards."""
    import socket
    import threading
    import time

    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            pytest.fail("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


HOUSE = 10_000_000


def setup(engine: Engine, players: tuple[str, ...] = ("ann", "bob"),
          money: int = 1_000_000) -> None:
    """The house bank funded with :data:`HOUSE`, and ``players`` registered with
    ``money`` each."""
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", HOUSE, "funding")
        for name in players:
            accounts.register(s, name, date(1990, 1, 1), "FI")
            accounts.deposit(s, name, money, key=f"d-{name}")


def wallet(engine: Engine, name: str) -> int:
    with transaction(engine) as s:
        return balance(s, accounts.wallet_code(name))


def stored(engine: Engine, round_id: int) -> dict[str, Any]:
    """Round ``round_id``'s record as stored."""
    with transaction(engine) as s:
        row = s.get(RoundRow, round_id)
        assert row is not None
        loaded: dict[str, Any] = json.loads(row.record)
        return loaded


STAFF_PASSWORD = "correct horse battery"


def casino(tmp_path: Path) -> Engine:
    """A casino on a fresh SQLite file, as the server tests start it: a funded house
    bank and a staff login ``floor``."""
    from pelisali.server.auth import add_login

    shutil.copyfile(_sqlite_template(), tmp_path / "casino.db")  # migrated, empty
    engine = make_engine(f"sqlite:///{tmp_path / 'casino.db'}")
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", 10**9, "funding")
        add_login(s, "floor", STAFF_PASSWORD, "staff")
    return engine


class Fixed(SeededRng):
    """A wheel that lands on one number (the draw is still the engine's)."""

    def __init__(self, number: int) -> None:
        super().__init__(0)
        self.number = number

    def randbelow(self, n: int) -> int:
        return self.number


def sign_up(client: Any, name: str, password: str, deposit: int = 0,
            key: str = "d1") -> None:
    """Register ``name`` through the API, log in (the client keeps the cookie) and
    deposit ``deposit`` cents under ``key``, asserting each answer."""
    assert client.post("/api/register", json={"name": name, "password": password,
                                              "born": "1990-01-01", "country": "FI"}
                       ).status_code == 201
    assert client.post("/api/login", json={"name": name, "password": password}
                       ).status_code == 200
    if deposit:
        assert client.post("/api/wallet/deposit", json={"amount": deposit, "key": key}
                           ).json() == {"balance": deposit}


def migrated_copy(template: Any, path: Path | None = None) -> Engine:
    """A fresh database with the schema ``template`` holds (an SQLite connection to a
    migrated database), copied rather than migrated again: in memory, or in the file
    ``path``. Migrating costs a few tenths of a second; a copy, a few milliseconds."""
    engine = make_engine(f"sqlite:///{path}" if path else "sqlite://")
    with engine.connect() as connection:
        template.backup(connection.connection.driver_connection)
    return engine


def migrated_template() -> Any:
    """An SQLite database in memory, migrated to the newest schema, for
    :func:`migrated_copy`."""
    import sqlite3

    engine = make_engine("sqlite://")
    upgrade(engine)
    copy = sqlite3.connect(":memory:", check_same_thread=False)
    with engine.connect() as connection:
        connection.connection.driver_connection.backup(copy)
    engine.dispose()
    return copy


T = TypeVar("T")


def keep_quick_ends(monkeypatch: pytest.MonkeyPatch, module: Any,
                    read: Callable[[Session], T]) -> list[T]:
    """What ``read`` finds in each quick-mode database that ``module``'s terminal makes
    (its ``quick_wallet``), read as the session ends, before the database is deleted."""
    ends: list[T] = []
    real = module.quick_wallet

    @contextmanager
    def keeping(start: int, bots: Sequence[str] = ()) -> Iterator[Engine]:
        with real(start, bots) as db:
            yield db
            with transaction(db) as session:
                ends.append(read(session))

    monkeypatch.setattr(module, "quick_wallet", keeping)
    return ends
