"""Table leases: one process runs a shared table at a time; a dead holder's table is
taken over once its lease runs out, with a higher fencing token."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from dbfixtures import Fixed, fresh_engine
from sqlalchemy import Engine

from pelisali.platform import leases, queries
from pelisali.platform.db import transaction
from pelisali.platform.ledger import move
from pelisali.platform.payments import Cage
from pelisali.server.clock import ManualClock
from pelisali.server.state import ServerState

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    yield from fresh_engine(request.param, tmp_path)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_a_lease_is_held_renewed_and_taken_over_when_it_runs_out(engine: Engine) -> None:
    with transaction(engine) as s:
        first = leases.acquire(s, "live-1", "a", now=at(0))
        assert first is not None and (first.owner, first.token) == ("a", 1)
        assert leases.acquire(s, "live-1", "b", now=at(3)) is None  # a holds it
        renewed = leases.acquire(s, "live-1", "a", now=at(3))  # a renews: to 3 + 4 s
        assert renewed is not None and renewed.token == 1
        assert leases.acquire(s, "live-1", "b", now=at(6)) is None
        assert leases.holder(s, "live-1", now=at(6)) == renewed
        assert [lease.table for lease in leases.held_by(s, "a", now=at(6))] == ["live-1"]
        taken = leases.acquire(s, "live-1", "b", now=at(7.5))  # a stopped renewing
        assert taken is not None and (taken.owner, taken.token) == ("b", 2)
        assert leases.acquire(s, "live-1", "a", now=at(8)) is None  # a came back: too late
        leases.release(s, "live-1", "b", now=at(9))  # b stops: anyone may take it now
        assert leases.holder(s, "live-1", now=at(9)) is None
        back = leases.acquire(s, "live-1", "a", now=at(9))
        assert back is not None and (back.owner, back.token) == ("a", 3)


def test_two_processes_asking_at_once_get_one_lease(engine: Engine) -> None:
    granted: list[str] = []

    def ask(owner: str) -> None:
        with transaction(engine) as s:
            if leases.acquire(s, "poker-1", owner) is not None:
                granted.append(owner)

    threads = [threading.Thread(target=ask, args=(f"p{n}",)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(granted) == 1
    with transaction(engine) as s:
        holder = leases.holder(s, "poker-1")
        assert holder is not None and holder.owner == granted[0] and holder.token == 1


def test_a_live_table_is_run_by_one_server_process(engine: Engine) -> None:
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", 10**9, "funding")
        queries.open_table(s, "live-1", "roulette", "C", mode="live")

    def process() -> ServerState:
        return ServerState(engine, Cage(name="sandbox"), Fixed(17), ManualClock())

    async def main() -> None:
        first, second = process(), process()
        assert await first.open_table("live-1")
        assert set(first.leases) == {"live-1"}
        assert not await second.open_table("live-1")  # run by another process
        assert not second.leases
        await first.stop()  # stopping gives the table up at once
        assert await second.open_table("live-1")
        assert second.leases["live-1"].token == 2
        await second.stop()

    asyncio.run(main())
