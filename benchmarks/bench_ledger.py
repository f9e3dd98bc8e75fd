"""Settled bets per second and p99 latency with 16 concurrent players, on SQLite and on
PostgreSQL, in one run.

Each player sits at their own RNG roulette table and plays round after round: the bet
accepted and its stake debited (one transaction), then the draw and every payout with
the round record (a second). A settled bet's latency is the time for both.

    .venv/bin/python benchmarks/bench_ledger.py [--players 16] [--seconds 20] [--json]

PostgreSQL is reached at PELISALI_TEST_POSTGRES
(default postgresql+psycopg://postgres@127.0.0.1:5432/test), in a schema of its own.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime

from sqlalchemy import Engine, create_engine, text

from pelisali.platform.db import make_engine, upgrade
from pelisali.platform.loadgen import play, prepare

POSTGRES = os.environ.get("PELISALI_TEST_POSTGRES",
                          "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def measure(engine: Engine, players: int, seconds: float) -> dict[str, float]:
    prepare(engine, players)
    latencies: list[float] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def player(p: int) -> None:
        mine: list[float] = []
        number = 0
        while time.monotonic() < stop:
            mine += play(engine, p, rounds=10, seed=p * 1_000_000 + number)
            number += 10
        with lock:
            latencies.extend(mine)

    start = time.monotonic()
    threads = [threading.Thread(target=player, args=(p,)) for p in range(players)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - start
    ordered = sorted(latencies)
    return {"settled_bets": len(ordered), "seconds": elapsed,
            "settled_bets_per_second": len(ordered) / elapsed,
            "p50_ms": 1000 * statistics.median(ordered),
            "p99_ms": 1000 * ordered[int(0.99 * (len(ordered) - 1))]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{folder}/bench.db")
        upgrade(engine)
        results["sqlite"] = measure(engine, args.players, args.seconds)
        engine.dispose()
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        engine = make_engine(f"{POSTGRES}?options=-csearch_path%3D{schema}")
        upgrade(engine)
        results["postgresql"] = measure(engine, args.players, args.seconds)
        engine.dispose()
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    out = {"machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
                      f"CPython {platform.python_version()}, {datetime.now(UTC):%Y-%m-%d %H:%M}"
                      " UTC",
           "players": args.players, "results": results}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['machine']}: {args.players} concurrent players, {args.seconds:.0f} s each")
    for name, r in results.items():
        print(f"{name:10s} {r['settled_bets_per_second']:8,.0f} settled bets/s  "
              f"p50 {r['p50_ms']:6.1f} ms  p99 {r['p99_ms']:6.1f} ms  "
              f"({r['settled_bets']:,.0f} bets)")
    print("target on PostgreSQL: 2,000 settled bets/s with p99 under 50 ms")


if __name__ == "__main__":
    main()
