"""Shared fixtures: the platform's two databases."""

from __future__ import annotations

import os

# Passwords are hashed at argon2's least cost in the tests (and the servers they start):
# a login costs a millisecond, not a quarter of a second, and each hash is still argon2id.
# tests/test_platform_logins_cost.py checks the default an operator gets.
os.environ.setdefault("PELISALI_ARGON2", "1,8,1")

from collections.abc import Iterator
from pathlib import Path

import pytest
from dbfixtures import fresh_engine
from hypothesis import settings
from sqlalchemy import Engine

# No Hypothesis example is failed for its duration: on a loaded 2-core machine a 200 ms
# deadline fails sound code (speed is measured in benchmarks/, never asserted).
settings.register_profile("pelisali", deadline=None)
settings.load_profile("pelisali")


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    yield from fresh_engine(request.param, tmp_path)
