"""Many players at once against the real server on each database: new players making
their first bets together, and one player sending many slips in parallel. Every request
is answered: accepted, or refused with a reason; never a 5xx. The ledger then shows
each slip taken once."""

from __future__ import annotations

import collections
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from dbfixtures import fresh_engine
from dbfixtures import served as serve_app
from sqlalchemy import Engine, func, select

from pelisali.platform import ledger
from pelisali.platform.db import transaction
from pelisali.platform.models import BetRow
from pelisali.platform.rounds import reconcile_bets
from pelisali.server.app import create_app
from pelisali.server.security import Security

PASSWORD = "correct horse battery"
PLAYERS = 24  # each registers and logs in at once: 48 password hashes in flight
SLIPS = 3
PARALLEL = 19


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Engine]]:
    for engine in fresh_engine(request.param, tmp_path):
        with transaction(engine) as s:
            ledger.move(s, "fund", "external:owner", "house:bank", 10**9, "funding")
        # Fifty players register at once from one address, as from a hall's terminals.
        hall = Security(registrations_per_address=100)
        for url in serve_app(create_app(engine, security=hall)):
            yield url, engine


class Statuses:
    def __init__(self) -> None:
        self.counts: collections.Counter[int] = collections.Counter()
        self.failures: list[str] = []
        self.lock = threading.Lock()

    def note(self, answer: httpx.Response) -> httpx.Response:
        with self.lock:
            self.counts[answer.status_code] += 1
            if answer.status_code >= 500:
                self.failures.append(f"{answer.request.url.path}: {answer.text[:300]}")
        return answer


def new_player(url: str, name: str, seen: Statuses, slips: int) -> httpx.Client:
    client = httpx.Client(base_url=url, headers={"Origin": url}, timeout=120)
    seen.note(client.post("/api/register", json={"name": name, "password": PASSWORD,
                                                 "born": "1990-01-01", "country": "FI"}))
    seen.note(client.post("/api/login", json={"name": name, "password": PASSWORD}))
    seen.note(client.post("/api/wallet/deposit", json={"amount": 100_000, "key": "d1"}))
    for n in range(slips):
        seen.note(client.post("/api/play/roulette", json={
            "variant": "C", "key": f"s{n}", "bets": [{"spot": "red", "amount": 100},
                                                    {"spot": "straight 17", "amount": 100}]}))
    return client


def test_new_players_together_and_parallel_slips_get_no_5xx(
        served: tuple[str, Engine]) -> None:
    url, engine = served
    seen = Statuses()
    players = [threading.Thread(target=new_player, args=(url, f"p{n}", seen, SLIPS))
               for n in range(PLAYERS)]
    for t in players:
        t.start()
    for t in players:
        t.join()
    assert seen.failures == [] and set(seen.counts) <= {200, 201}, seen.counts
    # One player, many slips at once on their own table (first made by these slips).
    client = new_player(url, "eager", seen, 0)
    answers: list[httpx.Response] = []

    def slip(n: int) -> None:
        answers.append(seen.note(client.post("/api/play/roulette", json={
            "variant": "C", "key": f"parallel-{n}", "bets": [{"spot": "black", "amount": 100}]})))

    parallel = [threading.Thread(target=slip, args=(n,)) for n in range(PARALLEL)]
    for t in parallel:
        t.start()
    for t in parallel:
        t.join()
    assert seen.failures == [], seen.failures
    assert [a.status_code for a in answers] == [200] * PARALLEL, [
        a.text for a in answers if a.status_code != 200]
    with transaction(engine) as s:
        bets = s.scalar(select(func.count()).select_from(BetRow)) or 0
        assert bets == PLAYERS * SLIPS * 2 + PARALLEL  # every slip once, none twice
        assert s.scalar(select(func.count()).select_from(BetRow)
                        .where(BetRow.paid.is_(None))) == 0
        assert ledger.check(s).ok and ledger.verify_audit(s).ok and reconcile_bets(s).ok
        wallet = ledger.balance(s, "player:eager")
    paid = sum(x["paid"] for a in answers for x in a.json()["settlements"])
    assert wallet == 100_000 - 100 * PARALLEL + paid  # each slip staked and paid once
