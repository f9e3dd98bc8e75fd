"""A load test on loopback: N simulated players at live roulette tables of the real
server (``pelisali serve`` in its own process), over HTTP and WebSocket as browsers
would be. Reports rounds, bets and messages a second, and the latency percentiles of
a bet's acceptance (sent to ``bet-accepted``) and of the settlement ("no more bets"
to the player's ``settled``).

    .venv/bin/python benchmarks/bench_server.py [--players 64] [--tables 4]
        [--seconds 30] [--window 1] [--pause 0.2] [--postgres] [--json]

Each player, at every betting window, sends one slip of one to four bets. The server
runs on an SQLite file in a scratch folder (``--postgres``: in a schema of its own on
PELISALI_TEST_POSTGRES).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import websockets

POSTGRES = os.environ.get("PELISALI_TEST_POSTGRES",
                          "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PASSWORD = "load-test-password"
SPOTS = ("red", "black", "straight 17", "dozen 2", "split 0-1", "column 3", "odd")
PELISALI = str(Path(sys.executable).with_name("pelisali"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[int(p * (len(ordered) - 1))] if ordered else float("nan")


def pelisali(env: dict[str, str], *args: str) -> None:
    subprocess.run([PELISALI, *args], env=env, check=True, capture_output=True)


async def sign_up(url: str, name: str) -> str:
    """Register, log in and deposit as a browser would; the session cookie."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        (await client.post("/api/register", json={"name": name, "password": PASSWORD,
                                                  "born": "1980-01-01", "country": "FI"})
         ).raise_for_status()
        (await client.post("/api/login", json={"name": name, "password": PASSWORD})
         ).raise_for_status()
        (await client.post("/api/wallet/deposit", json={"amount": 10**7, "key": "load"})
         ).raise_for_status()
        return "; ".join(f"{k}={v}" for k, v in client.cookies.items())


async def player(ws_url: str, name: str, cookie: str, table: str, stop: float,
                 stats: dict[str, Any]) -> None:
    chooser = random.Random(name)
    sent: dict[str, float] = {}
    closed_at = 0.0
    number = 0
    async with websockets.connect(f"{ws_url}/ws/live/{table}",
                                  additional_headers={"Cookie": cookie}) as ws:
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=stop - time.monotonic())
            except TimeoutError:
                break
            stats["messages"] += 1
            message = json.loads(raw)
            kind = message["type"]
            if kind == "betting":
                bets = [{"spot": chooser.choice(SPOTS), "amount": chooser.randint(1, 50) * 100}
                        for _ in range(chooser.randint(1, 4))]
                key = f"{name}-{number}"
                number += 1
                sent[key] = time.perf_counter()
                await ws.send(json.dumps({"type": "bet", "key": key, "bets": bets}))
                stats["bets_sent"] += len(bets)
            elif kind == "bet-accepted":
                stats["accept"].append(time.perf_counter() - sent.pop(message["key"]))
                stats["bets"] += len(message["bets"])
            elif kind == "bet-refused":
                stats["refused"] += 1
                sent.pop(message["key"], None)
            elif kind == "no-more-bets":
                closed_at = time.perf_counter()
            elif kind == "result":
                stats["results"] += 1
            elif kind == "settled" and closed_at:
                stats["settle"].append(time.perf_counter() - closed_at)


async def load(url: str, players: int, tables: int, seconds: float) -> dict[str, Any]:
    ws_url = url.replace("http://", "ws://")
    stats: dict[str, Any] = {"messages": 0, "bets": 0, "bets_sent": 0, "refused": 0,
                             "results": 0, "accept": [], "settle": []}
    cookies = await asyncio.gather(*(sign_up(url, f"load{p}") for p in range(players)))
    start = time.monotonic()
    stop = start + seconds
    await asyncio.gather(*(player(ws_url, f"load{p}", cookies[p], f"live-{p % tables}", stop,
                                  stats) for p in range(players)))
    took = time.monotonic() - start
    return {
        "seconds": took,
        "rounds_per_second": stats["results"] / players * tables / took,
        "bets_per_second": stats["bets"] / took,
        "messages_per_second": stats["messages"] / took,
        "bets_refused": stats["refused"],
        "accept_ms": {"p50": percentile(stats["accept"], 0.5),
                      "p95": percentile(stats["accept"], 0.95),
                      "p99": percentile(stats["accept"], 0.99)},
        "settle_ms": {"p50": percentile(stats["settle"], 0.5),
                      "p95": percentile(stats["settle"], 0.95),
                      "p99": percentile(stats["settle"], 0.99)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--window", type=float, default=1.0)
    parser.add_argument("--pause", type=float, default=0.2)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="pelisali-load-")
    env = dict(os.environ, PELISALI_PASSWORD=PASSWORD)
    schema = None
    if args.postgres:
        import sqlalchemy

        schema = f"load_{uuid.uuid4().hex[:10]}"
        admin = sqlalchemy.create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(sqlalchemy.text(f"CREATE SCHEMA {schema}"))
        env["PELISALI_DATABASE_URL"] = f"{POSTGRES}?options=-csearch_path%3D{schema}"
    else:
        env["PELISALI_DATABASE_URL"] = f"sqlite:///{folder}/casino.db"
    pelisali(env, "db", "upgrade")
    pelisali(env, "house", "fund", "10000000", "--staff", "owner", "--key", "load-fund")
    for t in range(args.tables):
        pelisali(env, "table", "create", f"live-{t}", "--game", "roulette", "--variant", "C",
                 "--mode", "live")
    port = free_port()
    server = subprocess.Popen(
        [PELISALI, "serve", "--port", str(port), "--live-window", str(args.window),
         "--live-pause", str(args.pause), "--log-level", "warning"], env=env,
        stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                httpx.get(f"{url}/api/lobby", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        result = asyncio.run(load(url, args.players, args.tables, args.seconds))
    finally:
        server.terminate()
        server.wait(10)
        if schema:
            with admin.connect() as connection:
                connection.execute(sqlalchemy.text(f"DROP SCHEMA {schema} CASCADE"))
    out = {"machine": f"{platform.machine()}, {os.cpu_count()} CPUs, CPython "
                      f"{platform.python_version()}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
           "database": "postgresql" if args.postgres else "sqlite",
           "players": args.players, "tables": args.tables, "window_s": args.window,
           **result}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['machine']}: {args.players} players at {args.tables} live tables, "
          f"{out['database']}, a {args.window:g} s betting window, {result['seconds']:.0f} s")
    print(f"rounds {result['rounds_per_second']:.2f}/s, bets {result['bets_per_second']:,.0f}/s,"
          f" messages {result['messages_per_second']:,.0f}/s, refused {result['bets_refused']}")
    for name in ("accept_ms", "settle_ms"):
        p = result[name]
        print(f"{name[:-3]:7s} latency p50 {p['p50']:.1f} ms  p95 {p['p95']:.1f} ms  "
              f"p99 {p['p99']:.1f} ms")


if __name__ == "__main__":
    main()
