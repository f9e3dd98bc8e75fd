"""Schemathesis against the server's own OpenAPI schema: whatever a client sends that
the schema allows, or nearly allows, the server answers without a server error, as an
anonymous visitor, as a player and as staff, and the ledger still holds afterwards."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

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


# The scenarios send what the schema allows (its links need answers that succeed).
valid = schemathesis.openapi.from_asgi("/openapi.json", APP)
valid.config.generation.update(modes=[schemathesis.GenerationMode.POSITIVE], allow_x00=False)


class Scenarios(valid.as_state_machine()):  # type: ignore[misc]
    """Scenarios by the schema's links (register then log in; play then recall or
    choose; deal then stand; open a table then set or void it), as a player and as
    staff: no step gets a server error. (Random spots and passwords are nearly always
    refused, so a link is followed only when a generated request succeeds.)"""

    def get_call_kwargs(self, case: schemathesis.Case) -> dict[str, object]:
        who = "staff" if case.path.startswith("/api/staff") else "player"
        return {"headers": {"cookie": f"{COOKIE}={TOKENS[who]}"}}

    steps: ClassVar[list[str]] = []  # what the scenarios called, to show they ran

    def validate_response(self, response: schemathesis.Response, case: schemathesis.Case,
                          **kwargs: object) -> None:
        self.steps.append(f"{case.method} {case.path} {response.status_code}")
        assert response.status_code < 500, (case.method, case.path, response.text)


def test_scenarios_by_the_links_get_no_server_error() -> None:
    links = sum(len(answer.get("links", {})) for ops in APP.openapi()["paths"].values()
                for op in ops.values() for answer in op["responses"].values())
    assert links >= 8  # the scenarios follow these; without them there are none
    Scenarios.run(settings=settings(max_examples=60, stateful_step_count=6, deadline=None,
                                    derandomize=True,
                                    suppress_health_check=list(HealthCheck)))
    called = {step.rsplit(" ", 1)[0] for step in Scenarios.steps}
    assert len(Scenarios.steps) >= 60 and "POST /api/play/{game}" in called, called
