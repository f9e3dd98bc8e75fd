"""Schemathesis against the server's own OpenAPI schema: whatever a client sends that
the schema allows, or nearly allows, the server answers without a server error, as an
anonymous visitor, as a player and as staff, and the ledger still holds afterwards."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from sqlalchemy import text

from pelisali.platform.db import make_engine, transaction, upgrade
from pelisali.platform.ledger import check, move, verify_audit
from pelisali.server.app import COOKIE, create_app
from pelisali.server.auth import add_login, log_in

PASSWORD = "correct horse battery"
FOLDER = Path(tempfile.mkdtemp(prefix="pelisali-schema-"))
ENGINE = make_engine(f"sqlite:///{FOLDER / 'casino.db'}")
upgrade(ENGINE)
with transaction(ENGINE) as _s:
    from datetime import date

    from pelisali.platform import accounts
    from pelisali.platform.rounds import create_table

    move(_s, "fund", "external:owner", "house:bank", 10**9, "funding")
    accounts.register(_s, "ann", date(1990, 1, 1), "FI")
    accounts.deposit(_s, "ann", 100_000, key="d-ann")
    add_login(_s, "ann", PASSWORD, "player")
    add_login(_s, "floor", PASSWORD, "staff")
    create_table(_s, "live-1", "roulette", "C", mode="live")
    TOKENS = {"player": log_in(_s, "ann", PASSWORD), "staff": log_in(_s, "floor", PASSWORD)}
APP = create_app(ENGINE)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(scope="module", autouse=True)
def ledger_holds_afterwards() -> Iterator[None]:
    """After this process's share of the fuzzing, in its own database, the ledger holds
    (a fixture, not a later test: xdist may run a later test in another process)."""
    yield
    with transaction(ENGINE) as s:
        assert check(s).ok and verify_audit(s).ok
        assert s.execute(text("select count(*) from players")).scalar_one() >= 1


@pytest.mark.parametrize("who", ["anonymous", "player", "staff"])
@schema.parametrize()
@settings(max_examples=20, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_no_server_error(case: schemathesis.Case, who: str) -> None:
    headers = {} if who == "anonymous" else {"cookie": f"{COOKIE}={TOKENS[who]}"}
    response = case.call(headers=headers)
    assert response.status_code < 500, (case.method, case.path, response.text)
