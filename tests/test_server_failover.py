"""Three server processes on PostgreSQL and NATS, and the one running a table killed
with ``kill -9`` in the middle of a live round, then of a poker hand.

Another process takes each table over and resumes it from the database: the live round
keeps its accepted bets and is settled (GGPoker house rules 2.2), the poker hand cut
off is void and every stack is as at its start (RULINGS.md: a round void by a system
malfunction pays nothing, the stakes go back). A client reconnects to a surviving
process, says the last event it saw, and gets every event since that concerns it, none
twice. The ledger then shows no bet lost or doubled, ``ledger check`` and ``audit
verify`` pass.

The processes run on the real clock: a round's window is a few seconds. How long a
takeover took is printed (``-s``); the test bounds it only loosely, as speed is the
benchmarks' to measure, not the tests'.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from dbfixtures import fresh_engine
from sqlalchemy import Engine, select
from websockets.sync.client import ClientConnection, connect

from pelisali.platform import leases, queries
from pelisali.platform.db import transaction
from pelisali.platform.ledger import balance, check, move, verify_audit
from pelisali.platform.models import BetRow
from pelisali.platform.poker_tables import create_table
from pelisali.platform.rounds import reconcile_bets
from pelisali.server.bus import NatsBus
from pelisali.server.live import client_event

PASSWORD = "correct horse battery"
NATS = "nats://127.0.0.1:4222"
PATIENCE = 60.0  # seconds a step may take on a loaded machine before the test gives up


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    """Three ``pelisali serve`` processes sharing one database and one bus stream."""

    def __init__(self, url: str, tmp_path: Path) -> None:
        self.stream, self.subject = (f"FAILOVER_{uuid.uuid4().hex[:8]}",
                                     f"failover{uuid.uuid4().hex[:8]}")
        self.env = {**os.environ, "PELISALI_DATABASE_URL": url,
                    "PELISALI_BUS_STREAM": self.stream, "PELISALI_BUS_SUBJECT": self.subject}
        self.ports = [free_port() for _ in range(3)]
        self.logs = [tmp_path / f"server-{n}.log" for n in range(3)]
        command = shutil.which("pelisali", path=str(Path(sys.executable).parent))
        assert command is not None
        self.processes = [subprocess.Popen(
            [command, "serve", "--port", str(port), "--bus", NATS, "--live-window", "4",
             "--live-pause", "1", "--act-seconds", "60", "--log-format", "text",
             "--log-level", "warning"],
            env=self.env, stdout=log.open("w"), stderr=subprocess.STDOUT)
            for port, log in zip(self.ports, self.logs, strict=True)]
        for n, port in enumerate(self.ports):
            wait_for(lambda port=port: _answers(port), f"server {n} to start", self)

    def http(self, n: int) -> str:
        return f"http://127.0.0.1:{self.ports[n]}"

    def ws(self, n: int, path: str) -> str:
        return f"ws://127.0.0.1:{self.ports[n]}{path}"

    def index_of(self, owner: str) -> int:
        pid = int(owner.split(":")[1])
        return next(n for n, p in enumerate(self.processes) if p.pid == pid)

    def kill(self, n: int) -> None:
        self.processes[n].send_signal(signal.SIGKILL)
        self.processes[n].wait(10)

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()

    def output(self) -> str:
        return "\n".join(f"--- server {n}\n{log.read_text()[-3000:]}"
                         for n, log in enumerate(self.logs))

    def bus_events(self, table: str) -> list[tuple[int, dict[str, Any]]]:
        async def read() -> list[tuple[int, dict[str, Any]]]:
            bus = NatsBus(NATS, stream=self.stream, subject=self.subject)
            try:
                return await bus.since(table, 0)
            finally:
                await bus.close()

        return asyncio.run(read())

    def drop_stream(self) -> None:
        async def drop() -> None:
            bus = NatsBus(NATS, stream=self.stream, subject=self.subject)
            js = await bus._jetstream()
            await js.delete_stream(self.stream)
            await bus.close()

        asyncio.run(drop())


def _answers(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def wait_for(done: Callable[[], object], what: str, cluster: Cluster | None = None) -> Any:
    limit = time.monotonic() + PATIENCE
    while time.monotonic() < limit:
        found = done()
        if found:
            return found
        time.sleep(0.1)
    pytest.fail(f"waited in vain for {what}" + (f"\n{cluster.output()}" if cluster else ""))


class Player:
    """A player's browser: a login cookie and a socket at one table, keeping every
    event it received."""

    def __init__(self, name: str, cookie: str) -> None:
        self.name, self.cookie = name, cookie
        self.socket: ClientConnection | None = None
        self._held = contextlib.ExitStack()
        self.events: list[dict[str, Any]] = []  # every numbered table event, in order

    def connect(self, url: str) -> dict[str, Any]:
        self._held = contextlib.ExitStack()
        self.socket = self._held.enter_context(connect(
            url, additional_headers={"cookie": self.cookie}, open_timeout=10))
        return self.receive()

    def send(self, message: dict[str, Any]) -> None:
        assert self.socket is not None
        self.socket.send(json.dumps(message))

    def receive(self, timeout: float = PATIENCE) -> dict[str, Any]:
        assert self.socket is not None
        message: dict[str, Any] = json.loads(self.socket.recv(timeout=timeout))
        if isinstance(message.get("seq"), int) and message["type"] not in ("state", "view"):
            self.events.append(message)
        return message

    def until(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        limit = time.monotonic() + PATIENCE
        while time.monotonic() < limit:
            message = self.receive(max(0.1, limit - time.monotonic()))
            if wanted(message):
                return message
        raise AssertionError(f"{self.name} never received it")

    def close(self) -> None:
        if self.socket is not None:
            self._held.close()
            self.socket = None

    @property
    def last_seq(self) -> int:
        return self.events[-1]["seq"] if self.events else 0


def login(base: str, name: str, deposit: int) -> str:
    with httpx.Client(base_url=base) as client:
        assert client.post("/api/register", json={
            "name": name, "password": PASSWORD, "born": "1990-01-01",
            "country": "FI"}).status_code == 201
        answer = client.post("/api/login", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 200
        assert client.post("/api/wallet/deposit", json={
            "amount": deposit, "key": "d1"}).status_code == 200
        return f"pelisali_session={answer.cookies['pelisali_session']}"


def runner(engine: Engine, table: str) -> leases.Lease | None:
    with transaction(engine) as s:
        return leases.holder(s, table)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[Cluster, Engine]]:
    for engine in fresh_engine("postgresql", tmp_path):
        with transaction(engine) as s:
            move(s, "fund", "external:owner", "house:bank", 10**9, "funding")
            queries.open_table(s, "live-1", "roulette", "C", mode="live", limit_min=100,
                               limit_max=50_000)
            create_table(s, "nl-1", small_blind=50, big_blind=100, min_buy_in=2_000)
        running = Cluster(engine.url.render_as_string(hide_password=False), tmp_path)
        try:
            yield running, engine
        finally:
            running.stop()
            running.drop_stream()


def test_a_killed_runner_s_tables_are_taken_over_and_nothing_is_lost(
        cluster: tuple[Cluster, Engine]) -> None:
    servers, engine = cluster
    ann = Player("ann", login(servers.http(0), "ann", 100_000))
    bob = Player("bob", login(servers.http(1), "bob", 100_000))

    # -- a live round: ann on one process, bob on another, the table run by ann's --
    assert ann.connect(servers.ws(0, "/ws/live/live-1"))["type"] == "state"
    opened = ann.until(lambda m: m["type"] == "betting")
    first = runner(engine, "live-1")
    assert first is not None
    victim = servers.index_of(first.owner)
    assert victim == 0  # the first player's process opened the table
    assert bob.connect(servers.ws(1, "/ws/live/live-1"))["type"] == "state"
    ann.send({"type": "bet", "key": "a1", "bets": [{"spot": "red", "amount": 1_000},
                                                    {"spot": "straight 17", "amount": 100}]})
    bob.send({"type": "bet", "key": "b1", "bets": [{"spot": "black", "amount": 500}]})
    for player in (ann, bob):  # bob's slip went to the runner on ann's process
        accepted = player.until(lambda m: m["type"] in ("bet-accepted", "bet-refused"))
        assert accepted["type"] == "bet-accepted", accepted
        assert accepted["round_id"] == opened["round_id"]
    killed_at = time.monotonic()
    servers.kill(victim)  # in the betting window, the bets taken
    ann.close()
    taken = wait_for(lambda: (lease := runner(engine, "live-1")) is not None
                     and lease.owner != first.owner and lease, "the live table's takeover",
                     servers)
    print(f"\nlive table taken over {time.monotonic() - killed_at:.1f} s after kill -9")
    assert taken.token == first.token + 1  # the fencing token moved on
    # ann comes back on the third process and asks for what she missed
    assert ann.connect(servers.ws(2, "/ws/live/live-1"))["type"] == "state"
    ann.send({"type": "hello", "since": ann.last_seq})
    mine = ann.until(lambda m: m["type"] == "settled" and m["round_id"] == opened["round_id"])
    theirs = bob.until(lambda m: m["type"] == "settled" and m["round_id"] == opened["round_id"])
    with transaction(engine) as s:
        drawn = queries.drawn_round(s, opened["round_id"])
        bets = s.scalars(select(BetRow).where(BetRow.round_id == opened["round_id"])).all()
    assert drawn is not None  # the round the runner died in is settled
    assert sorted((b.player, b.spot, b.stake) for b in bets) == [
        ("ann", "red", 1_000), ("ann", "straight 17", 100), ("bob", "black", 500)]
    assert sorted((s["spot"], s["stake"], s["paid"]) for s in mine["settlements"]) == sorted(
        (s["spot"], s["stake"], s["paid"]) for s in drawn.settlements if s["player"] == "ann")
    assert [(s["spot"], s["paid"]) for s in theirs["settlements"]] == [
        (s["spot"], s["paid"]) for s in drawn.settlements if s["player"] == "bob"]
    paid = {name: sum(s["paid"] for s in drawn.settlements if s["player"] == name)
            for name in ("ann", "bob")}
    assert mine["balance"] == 100_000 - 1_100 + paid["ann"]
    assert theirs["balance"] == 100_000 - 500 + paid["bob"]
    # every event for ann on the bus from her first on, once each and in order
    for player in (ann, bob):
        seqs = [e["seq"] for e in player.events]
        assert len(seqs) == len(set(seqs))
        due = [seq for seq, event in servers.bus_events("live-1")
               if seqs[0] <= seq <= seqs[-1] and client_event(seq, event, player.name)]
        assert sorted(seqs) == due, player.name
    ann.close()
    bob.close()

    # -- a poker hand: its runner killed mid-hand ---------------------------------------
    ann.events.clear()
    survivors = [n for n in range(3) if n != victim]
    here, there = survivors
    for player, n in ((ann, here), (bob, there)):
        assert player.connect(servers.ws(n, "/ws/poker/nl-1"))["type"] == "view"
    ann.send({"type": "sit", "amount": 5_000, "key": "s1"})
    ann.until(lambda m: m["type"] == "seated")
    bob.send({"type": "sit", "amount": 5_000, "key": "s1"})
    bob.until(lambda m: m["type"] == "seated")
    ann.send({"type": "hello", "since": 0})
    dealt = ann.until(lambda m: m["type"] == "view" and m["hand"] is not None)
    actor = ann if dealt["to_act"] == "ann" else bob
    actor.send({"type": "act", "action": "call"})  # chips go in; the hand goes on
    actor.until(lambda m: m["type"] == "acted")
    holder = runner(engine, "nl-1")
    assert holder is not None
    poker_victim = servers.index_of(holder.owner)
    survivor = next(n for n in survivors if n != poker_victim)
    with transaction(engine) as s:
        on_table = balance(s, "table:nl-1")
    assert on_table == 10_000
    servers.kill(poker_victim)
    for player in (ann, bob):
        player.close()
    wait_for(lambda: (lease := runner(engine, "nl-1")) is not None
             and lease.owner != holder.owner, "the poker table's takeover", servers)
    for player in (ann, bob):
        player.connect(servers.ws(survivor, "/ws/poker/nl-1"))
    ann.send({"type": "hello", "since": 0})
    resumed = [seq for seq, event in servers.bus_events("nl-1") if event["type"] == "resumed"]
    assert resumed and [e for _, e in servers.bus_events("nl-1")
                        if e["type"] == "resumed"][-1]["hand_void"]
    view = ann.until(lambda m: m["type"] == "view")
    assert {s["player"]: s["chips"] for s in view["seats"]} == {"ann": 5_000, "bob": 5_000}
    ann.send({"type": "leave", "key": "l1"})
    bob.send({"type": "leave", "key": "l1"})
    for player in (ann, bob):  # a new hand may have been dealt: leaving waits for its end
        player.until(lambda m: m["type"] in ("leaving", "cashed-out"))
        player.close()

    with transaction(engine) as s:
        assert check(s).ok and verify_audit(s).ok and reconcile_bets(s).ok
        total = (balance(s, "player:ann") + balance(s, "player:bob")
                 + balance(s, "table:nl-1"))
    # the only money the players lost or won is the live round's; the void hand cost none
    # (no rake at nl-1, so nothing went to its fees)
    assert total == 200_000 - 1_600 + paid["ann"] + paid["bob"]


def test_a_stopped_process_hands_its_table_over(cluster: tuple[Cluster, Engine]) -> None:
    """SIGTERM: the process gives its tables up as it stops; another takes the live
    table at once and settles the round's accepted bets."""
    servers, engine = cluster
    ann = Player("ann", login(servers.http(0), "ann", 100_000))
    assert ann.connect(servers.ws(0, "/ws/live/live-1"))["type"] == "state"
    opened = ann.until(lambda m: m["type"] == "betting")
    first = runner(engine, "live-1")
    assert first is not None and servers.index_of(first.owner) == 0
    ann.send({"type": "bet", "key": "a1", "bets": [{"spot": "red", "amount": 1_000}]})
    assert ann.until(lambda m: m["type"].startswith("bet-"))["type"] == "bet-accepted"
    stopped_at = time.monotonic()
    servers.processes[0].send_signal(signal.SIGTERM)
    with contextlib.suppress(Exception):  # the socket is closed as the process stops
        while True:
            ann.receive(PATIENCE)
    ann.close()
    servers.processes[0].wait(PATIENCE)
    taken = wait_for(lambda: (lease := runner(engine, "live-1")) is not None
                     and lease.owner != first.owner and lease, "the hand-over", servers)
    print(f"\nlive table handed over {time.monotonic() - stopped_at:.1f} s after SIGTERM")
    assert servers.index_of(taken.owner) in (1, 2)
    assert ann.connect(servers.ws(1, "/ws/live/live-1"))["type"] == "state"
    ann.send({"type": "hello", "since": ann.last_seq})
    mine = ann.until(lambda m: m["type"] == "settled" and m["round_id"] == opened["round_id"])
    assert [(s["spot"], s["stake"]) for s in mine["settlements"]] == [("red", 1_000)]
    ann.close()
    with transaction(engine) as s:
        assert check(s).ok and verify_audit(s).ok and reconcile_bets(s).ok
