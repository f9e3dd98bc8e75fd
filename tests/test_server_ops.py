"""What an operator's on-call reads: /healthz, /readyz, /metrics and the request logs."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from dbfixtures import STAFF_PASSWORD, Fixed, casino
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from pelisali.platform.db import make_engine
from pelisali.server.app import create_app
from pelisali.server.ops import configure_logging

PASSWORD = STAFF_PASSWORD  # the staff's, and the players' in these tests


@pytest.fixture
def db(tmp_path: Path) -> Engine:
    return casino(tmp_path)


@pytest.fixture
def client(db: Engine) -> Iterator[TestClient]:
    with TestClient(create_app(db, rng=Fixed(17))) as client:
        yield client


def sample(text: str, name: str, **labels: str) -> float:
    """A sample's value in Prometheus's text format (0 when absent)."""
    for line in text.splitlines():
        if line.startswith(name) and all(f'{k}="{v}"' in line for k, v in labels.items()):
            head = line.split(" ")[0]
            if head == name or head.startswith(name + "{"):
                return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_health_and_readiness(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    body = ready.json()
    assert (body["status"], body["database"], body["bus"], body["tables"]) == (
        "ready", "ok", "in-process", {})
    assert body["process"].count(":") == 2  # host:pid:random


def test_not_ready_without_the_database(tmp_path: Path) -> None:
    gone = make_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")
    client = TestClient(create_app(gone))
    assert client.get("/healthz").status_code == 200  # alive, but
    ready = client.get("/readyz")
    assert ready.status_code == 503 and ready.json()["status"] == "not ready"
    assert "OperationalError" in ready.json()["database"]


def test_metrics_count_what_was_kept(client: TestClient) -> None:
    before = client.get("/metrics").text
    assert client.post("/api/register", json={"name": "ann", "password": PASSWORD,
                                              "born": "1990-01-01", "country": "FI"}
                       ).status_code == 201
    assert client.post("/api/login", json={"name": "ann", "password": "wrong one!"}
                       ).status_code == 401
    client.post("/api/login", json={"name": "ann", "password": PASSWORD})
    client.post("/api/wallet/deposit", json={"amount": 10_000, "key": "d1"})
    played = client.post("/api/play/roulette", json={
        "variant": "C", "key": "r1", "bets": [{"spot": "red", "amount": 100},
                                              {"spot": "straight 17", "amount": 100}]})
    assert played.status_code == 200
    refused = client.post("/api/play/roulette", json={
        "variant": "C", "key": "r2", "bets": [{"spot": "red", "amount": 10**7}]})
    assert refused.status_code == 400  # no money: nothing counted as accepted
    after = client.get("/metrics")
    assert after.headers["content-type"].startswith("text/plain")
    text = after.text

    def grew(name: str, **labels: str) -> float:
        return sample(text, name, **labels) - sample(before, name, **labels)

    assert grew("pelisali_bets_accepted_total", family="wager") == 2
    assert grew("pelisali_bets_settled_total", family="wager") == 2
    assert grew("pelisali_settle_seconds_count", family="wager") == 1
    assert grew("pelisali_login_failures_total") == 1
    assert grew("pelisali_ledger_postings_total") >= 3  # the deposit, the stake, the win
    assert grew("pelisali_request_seconds_count", route="/api/play/{game}", method="POST",
                status="200") == 1
    assert "pelisali_open_rounds" in text or "pelisali_tables_run" in text


def test_every_request_has_an_id_in_its_answer_and_its_log_line(
        client: TestClient) -> None:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        configure_logging("info")
        stream = io.StringIO()
        root.handlers[0].stream = stream  # type: ignore[attr-defined]
        given = client.get("/healthz", headers={"X-Request-ID": "req-42"})
        made = client.get("/api/lobby")
        hostile = client.get("/healthz", headers={"X-Request-ID": "x" * 500 + "\n"})
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
    assert given.headers["x-request-id"] == "req-42"
    assert len(made.headers["x-request-id"]) == 32
    assert hostile.headers["x-request-id"] != "x" * 500 + "\n"  # not echoed as it came
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    requests = [line for line in lines if line["logger"] == "pelisali.server"]
    first = next(line for line in requests if line["request_id"] == "req-42")
    assert first["message"] == "GET /healthz" and first["status"] == 200
    assert first["level"] == "INFO" and "time" in first and first["route"] == "/healthz"
    assert any(line["request_id"] == made.headers["x-request-id"] for line in requests)


def test_the_grafana_dashboard_reads_only_metrics_the_server_has(client: TestClient) -> None:
    import re

    from prometheus_client import REGISTRY

    dashboard = json.loads((Path(__file__).parents[1] / "docs" / "grafana-dashboard.json")
                           .read_text())
    used = {name for panel in dashboard["panels"] for target in panel["targets"]
            for name in re.findall(r"pelisali_[a-z_]+", target["expr"])}
    state = client.app.state.pelisali  # type: ignore[attr-defined]
    families = [*REGISTRY.collect(), *state.metrics.collect()]
    known = {sample.name for family in families for sample in family.samples} | {
        f"{family.name}{suffix}" for family in families
        for suffix in ("", "_total", "_bucket", "_count", "_sum")}
    assert used and used <= known, used - known
