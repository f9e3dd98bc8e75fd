"""PostgreSQL dropping the server's connections (``pg_terminate_backend``) while players
bet: every request is answered with a result, or with 503 and a reason that the
client sends again with the same key; never a 500. The ledger then holds each slip
exactly once."""

from __future__ import annotations

import collections
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from dbfixtures import POSTGRES, fresh_engine
from dbfixtures import served as serve_app
from sqlalchemy import Engine, create_engine, event, func, select, text

from pelisali.platform import ledger
from pelisali.platform.db import transaction
from pelisali.platform.models import BetRow
from pelisali.platform.rounds import reconcile_bets
from pelisali.server.app import create_app

PASSWORD = "correct horse battery"
PLAYERS = 4
SLIPS = 12


@pytest.fixture
def pg(tmp_path: Path) -> Iterator[Engine]:
    yield from fresh_engine("postgresql", tmp_path)


@pytest.fixture
def served(pg: Engine) -> Iterator[tuple[str, Engine, set[int]]]:
    """The server on PostgreSQL, and the backend pids of every connection it opens."""
    engine = pg
    pids: set[int] = set()

    @event.listens_for(engine, "connect")
    def _remember(dbapi_connection: Any, _record: Any) -> None:
        pids.add(dbapi_connection.info.backend_pid)

    with transaction(engine) as s:
        ledger.move(s, "fund", "external:owner", "house:bank", 10**9, "funding")
    for url in serve_app(create_app(engine)):
        yield url, engine, pids


class Answers:
    def __init__(self) -> None:
        self.counts: collections.Counter[int] = collections.Counter()
        self.failures: list[str] = []
        self.busy: list[str] = []
        self.lock = threading.Lock()

    def send(self, client: httpx.Client, path: str, body: dict[str, Any]) -> httpx.Response:
        """POST until the answer is not 503, as a client does (the same key each time)."""
        for _ in range(40):
            answer = client.post(path, json=body)
            with self.lock:
                self.counts[answer.status_code] += 1
                if answer.status_code >= 500 and answer.status_code != 503:
                    self.failures.append(f"{path}: {answer.status_code} {answer.text[:300]}")
                if answer.status_code == 503:
                    self.busy.append(answer.json()["detail"])
            if answer.status_code != 503:
                return answer
            time.sleep(0.05)
        raise AssertionError(f"{path}: still 503 after 40 tries")


def test_dropped_connections_get_retries_or_503_never_500(
        served: tuple[str, Engine, set[int]]) -> None:
    url, engine, pids = served
    answers = Answers()
    clients: list[httpx.Client] = []
    for n in range(PLAYERS):
        client = httpx.Client(base_url=url, headers={"Origin": url}, timeout=60)
        answers.send(client, "/api/register", {"name": f"p{n}", "password": PASSWORD,
                                               "born": "1990-01-01", "country": "FI"})
        answers.send(client, "/api/login", {"name": f"p{n}", "password": PASSWORD})
        answers.send(client, "/api/wallet/deposit", {"amount": 100_000, "key": "d1"})
        clients.append(client)
    stop = threading.Event()
    killed: list[int] = []
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")

    def killer() -> None:  # drop every connection the server holds, again and again
        chooser = random.Random(13)
        with admin.connect() as connection:
            while not stop.is_set():
                for pid in list(pids):
                    if connection.execute(text("SELECT pg_terminate_backend(:p)"),
                                          {"p": pid}).scalar():
                        killed.append(pid)
                    pids.discard(pid)
                time.sleep(chooser.uniform(0.005, 0.06))

    paid: dict[int, int] = {}

    def player(n: int) -> None:
        total = 0
        for s in range(SLIPS):
            answer = answers.send(clients[n], "/api/play/roulette", {
                "variant": "C", "key": f"s{s}",
                "bets": [{"spot": "red", "amount": 100}, {"spot": "straight 17", "amount": 100}]})
            assert answer.status_code == 200, answer.text
            total += sum(x["paid"] for x in answer.json()["settlements"])
        paid[n] = total

    hunter = threading.Thread(target=killer)
    hunter.start()
    try:
        players = [threading.Thread(target=player, args=(n,)) for n in range(PLAYERS)]
        for t in players:
            t.start()
        for t in players:
            t.join()
    finally:
        stop.set()
        hunter.join()
        admin.dispose()
    assert answers.failures == [], answers.failures
    assert set(answers.counts) <= {200, 201, 503}, answers.counts
    assert len(killed) >= 3  # the server's connections were dropped under it
    assert all("database" in reason for reason in answers.busy), answers.busy
    assert len(paid) == PLAYERS
    with transaction(engine) as s:
        assert s.scalar(select(func.count()).select_from(BetRow)) == PLAYERS * SLIPS * 2
        assert s.scalar(select(func.count()).select_from(BetRow)
                        .where(BetRow.paid.is_(None))) == 0
        assert ledger.check(s).ok and ledger.verify_audit(s).ok and reconcile_bets(s).ok
        for n in range(PLAYERS):  # each slip staked once and paid once
            assert ledger.balance(s, f"player:p{n}") == 100_000 - 200 * SLIPS + paid[n]
