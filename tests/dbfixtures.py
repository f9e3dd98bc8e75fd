"""The two databases the platform runs on, as the tests reach them: an SQLite file and
PostgreSQL on 127.0.0.1 (trust auth, database ``test``), one schema per test."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text

from pelisali.platform.db import make_engine, upgrade
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
    """A migrated, empty database of ``kind``; dropped afterwards."""
    if kind == "sqlite":
        engine = make_engine(f"sqlite:///{tmp_path / 'pelisali.db'}")
        upgrade(engine)
        yield engine
        engine.dispose()
        return
    if not postgres_reachable():
        pytest.fail(f"PostgreSQL is not reachable at {POSTGRES}")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    engine = make_engine(f"{POSTGRES}?options=-csearch_path%3D{schema}")
    upgrade(engine)
    try:
        yield engine
    finally:
        engine.dispose()
        with admin.connect() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


class Fixed(SeededRng):
    """A wheel that lands on one number (the draw is still the engine's)."""

    def __init__(self, number: int) -> None:
        super().__init__(0)
        self.number = number

    def randbelow(self, n: int) -> int:
        return self.number
