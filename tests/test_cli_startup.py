"""The command starts light: each command imports what it uses, so the help and the odds
of a wheel game load neither the database (SQLAlchemy), NumPy nor the server (FastAPI).

A fresh interpreter runs the command and prints the libraries it imported; the set is
asserted, never a duration (benchmarks/bench_startup.py times it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import pelisali
from pelisali.analysis.census import CENSUS_RANKINGS
from pelisali.cli import poker

SRC = Path(pelisali.__file__).resolve().parents[1]
HEAVY = {"sqlalchemy", "numpy", "fastapi", "uvicorn", "matplotlib", "alembic"}
PROBE = """
import json, sys
from typer.testing import CliRunner
from pelisali.cli.main import app
result = CliRunner().invoke(app, sys.argv[1:])
loaded = sorted({m.split(".")[0] for m in sys.modules} & set(json.loads(sys.stdin.read())))
print(json.dumps({"exit": result.exit_code, "loaded": loaded}))
"""


def imported(*args: str, among: set[str] = HEAVY) -> list[str]:
    """The libraries of ``among`` that a process running ``pelisali ARGS`` imports."""
    done = subprocess.run([sys.executable, "-c", PROBE, *args], input=json.dumps(sorted(among)),
                          capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(SRC)})
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["exit"] == 0, done.stderr
    return list(out["loaded"])


@pytest.mark.parametrize("args", [["--help"], ["account", "--help"], ["poker", "--help"],
                                  ["odds", "--help"], ["serve", "--help"]],
                         ids=" ".join)
def test_the_help_imports_no_database_numpy_or_server(args: list[str]) -> None:
    assert imported(*args) == []


def test_wheel_odds_import_no_database_numpy_or_server() -> None:
    assert imported("odds", "roulette") == []


def test_the_help_loads_no_rule_data() -> None:
    assert imported("--help", among={"pydantic"}) == []


def test_the_census_help_names_the_census_rankings() -> None:
    assert poker.CENSUS_RANKINGS == CENSUS_RANKINGS
