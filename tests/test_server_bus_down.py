"""The message bus goes down under a live table: the table keeps settling on the process
that runs it, the players are told their events are delayed, ``/readyz`` says the bus
is down; when it is back, the players are told so and the table's next events reach
them.

The bus is a NATS server of the test's own (the shared one stays up for the others).
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dbfixtures import Fixed
from fastapi.testclient import TestClient

from pelisali.platform.db import make_engine, transaction, upgrade
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import check, move, verify_audit
from pelisali.platform.models import RoundRow
from pelisali.server.app import COOKIE, create_app
from pelisali.server.auth import add_login
from pelisali.server.bus import NatsBus
from pelisali.server.clock import ManualClock

PASSWORD = "correct horse battery"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class NatsServer:
    def __init__(self, store: Path) -> None:
        self.port, self.store = free_port(), store
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = shutil.which("nats-server")
        if command is None:
            pytest.fail("nats-server is not installed (apt-get install nats-server)")
        self.process = subprocess.Popen([command, "-js", "-a", "127.0.0.1", "-p",
                                         str(self.port), "-sd", str(self.store)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        limit = time.monotonic() + 20
        while time.monotonic() < limit:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        pytest.fail("the test's NATS server did not start")

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            self.process = None


@pytest.fixture
def nats_server(tmp_path: Path) -> Iterator[NatsServer]:
    server = NatsServer(tmp_path / "nats")
    server.start()
    try:
        yield server
    finally:
        server.kill()


def until(socket: Any, kind: str, reason: str = "") -> dict[str, Any]:
    for _ in range(100):
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == kind and reason in message.get("reason", ""):
            return message
    raise AssertionError(f"no {kind}")


def test_the_table_settles_and_players_are_told_while_the_bus_is_down_and_back(
        tmp_path: Path, nats_server: NatsServer) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'casino.db'}")
    upgrade(engine)
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", 10**9, "funding")
        add_login(s, "floor", PASSWORD, "staff")
    clock = ManualClock()
    bus = NatsBus(f"nats://127.0.0.1:{nats_server.port}")
    app = create_app(engine, rng=Fixed(17), live_window=2.0, live_pause=1.0, clock=clock,
                     bus=bus)
    with TestClient(app) as client:
        client.post("/api/register", json={"name": "ann", "password": PASSWORD,
                                           "born": "1990-01-01", "country": "FI"})
        client.post("/api/login", json={"name": "ann", "password": PASSWORD})
        client.post("/api/wallet/deposit", json={"amount": 10_000, "key": "d"})
        client.cookies.clear()
        staff = client.post("/api/login", json={"name": "floor", "password": PASSWORD})
        assert client.post("/api/staff/tables", json={
            "name": "live-1", "game": "roulette", "variant": "C", "min": 100,
            "max": 50_000, "mode": "live"}).status_code == 201, staff.text
        client.cookies.clear()
        token = client.post("/api/login", json={"name": "ann",
                                                "password": PASSWORD}).cookies[COOKIE]
        client.cookies.clear()
        assert client.get("/readyz").json()["bus"] == "ok"
        with client.websocket_connect("/ws/live/live-1",
                                      headers={"cookie": f"{COOKIE}={token}"}) as ann:
            assert ann.receive_json()["type"] == "state"
            opened = until(ann, "betting")
            ann.send_json({"type": "bet", "key": "a1",
                           "bets": [{"spot": "straight 17", "amount": 100}]})
            assert until(ann, "bet-accepted")["round_id"] == opened["round_id"]
            nats_server.kill()
            until(ann, "notice", "delayed")  # the player is told
            ready = client.get("/readyz")
            assert (ready.status_code, ready.json()["bus"]) == (503, "down")
            clock.tick()  # the window closes: the table draws and settles without the bus
            limit = time.monotonic() + 60
            while time.monotonic() < limit:
                with transaction(engine) as s:
                    row = s.get(RoundRow, opened["round_id"])
                    if row is not None and row.status == RoundStatus.SETTLED:
                        break
                time.sleep(0.1)
            else:
                raise AssertionError("the round was not settled while the bus was down")
            client.cookies.set(COOKIE, token)
            assert client.get("/api/me").json()["balance"] == 10_000 - 100 + 3_600
            client.cookies.clear()
            nats_server.start()  # the same store: the stream and its numbers are kept
            until(ann, "notice", "back")
            # The next round's events come over the bus again: its window, and the bet.
            clock.tick()  # the result's pause is over
            following = until(ann, "betting")
            assert following["round_id"] > opened["round_id"]
            ann.send_json({"type": "bet", "key": "a2",
                           "bets": [{"spot": "red", "amount": 100}]})
            assert until(ann, "bet-accepted")["round_id"] == following["round_id"]
            assert client.get("/readyz").json()["bus"] == "ok"
    with transaction(engine) as s:
        assert check(s).ok and verify_audit(s).ok
