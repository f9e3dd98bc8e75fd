"""Shared fixtures: the platform's two databases."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from dbfixtures import fresh_engine
from sqlalchemy import Engine


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    yield from fresh_engine(request.param, tmp_path)
