"""Settled bets per second and p99 latency with 16 concurrent players, on SQLite and on
PostgreSQL, in one run, two ways.

- live: the players sit at ``--tables`` live roulette tables (8 a table by default)
  and put down a slip of one to four bets a round; each table's desk accepts the slips
  that arrive together in one transaction (group commit), and the croupier spins when
  every slip is in. A settled bet's latency is its slip's acceptance (request to
  committed debit) plus the settlement (no more bets to every payout committed); the
  wait for the other players' chips is the table's pace, not the server's, and is
  not counted.
- rng: each player at their own RNG table, one bet a round: the bet (one transaction)
  then the draw and payout (a second). The most expensive way to settle a bet. The
  accept p99 is that of the first transaction (round start to the bet's commit).

On PostgreSQL both ways share the players out over ``--processes`` spawned processes
(each its own players, tables and connection pool, all started together; the figures
are over the union of their latencies, the seconds the longest process's). An SQLite
file, the embedded default, is written by one process.

    .venv/bin/python benchmarks/bench_ledger.py [--players 16] [--tables 2] [--processes 2]
                                                [--seconds 20] [--json]
    .venv/bin/python benchmarks/bench_ledger.py --sweep 1,2,4 --players 64 [--json]

``--sweep`` runs PostgreSQL only, both ways for each process count in the list (each
count in a fresh schema), and prints one Markdown table.

PostgreSQL is reached at PELISALI_TEST_POSTGRES
(default postgresql+psycopg://postgres@127.0.0.1:5432/test), in a schema of its own.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import statistics
import tempfile
import threading
import time
from datetime import UTC, datetime
from typing import Any

from loadgen import (  # benchmarks/loadgen.py, beside this script
    LiveLoad,
    play,
    play_desk,
    play_desk_paced,
    postgres_schema,
    prepare,
)
from sqlalchemy import Engine

from pelisali.platform.db import make_engine, upgrade
from pelisali.platform.heap import settle_heap
from pelisali.platform.rng_desk import RngDesk
from pelisali.rng import SeededRng


def figures(latencies: list[float], seconds: float) -> dict[str, float]:
    ordered = sorted(latencies)
    return {"settled_bets": len(ordered), "seconds": seconds,
            "settled_bets_per_second": len(ordered) / seconds,
            "p50_ms": 1000 * statistics.median(ordered),
            "p99_ms": 1000 * ordered[int(0.99 * (len(ordered) - 1))]}


def live_worker(url: str, prefix: str, players: int, tables: int, seconds: float,
                ready: Any, go: Any) -> tuple[list[float], list[float], list[float], int, float]:
    """One server process's tables; returns its latencies, rounds and seconds."""
    engine = make_engine(url)
    load = LiveLoad(engine, players, tables, seed=2026, prefix=prefix)
    load.prepare()
    settle_heap()  # as each server process does once it has started
    ready.wait()
    go.wait()
    start = time.monotonic()
    load.run(seconds=seconds)
    took = time.monotonic() - start
    engine.dispose()
    return load.latencies, load.accepts, load.spins, load.rounds, took


def _start_together(ready: Any, jobs: list[Any]) -> None:
    """Wait until every worker has prepared; a worker that failed to prepare raises its
    error here (rather than leaving the others waiting for it)."""
    waiting = threading.Thread(target=ready.wait, daemon=True)
    waiting.start()
    deadline = time.monotonic() + 600
    while waiting.is_alive():
        if time.monotonic() > deadline:
            raise SystemExit("the workers did not all prepare within 600 s")
        for job in jobs:
            if job.ready():
                job.get()  # a worker done before the start has failed: its error
        waiting.join(timeout=0.5)


def measure_live(engine: Engine, players: int, tables: int, seconds: float,
                 processes: int) -> dict[str, float]:
    """The players and tables shared out over ``processes`` server processes (as a
    server's workers would hold them), all on one database."""
    url = engine.url.render_as_string(hide_password=False)
    with multiprocessing.Manager() as manager:
        ready = manager.Barrier(processes + 1)
        go = manager.Barrier(processes + 1)
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            jobs = [pool.apply_async(live_worker, (
                url, f"live{w}x", players // processes, max(1, tables // processes), seconds,
                ready, go)) for w in range(processes)]
            _start_together(ready, jobs)
            go.wait()
            parts = [job.get() for job in jobs]
    latencies = [x for part in parts for x in part[0]]
    accepts = [x for part in parts for x in part[1]]
    spins = [x for part in parts for x in part[2]]
    out = figures(latencies, max(part[4] for part in parts))
    out["rounds"] = sum(part[3] for part in parts)
    out["p99_accept_ms"] = 1000 * sorted(accepts)[int(0.99 * (len(accepts) - 1))]
    out["p99_settle_ms"] = 1000 * sorted(spins)[int(0.99 * (len(spins) - 1))]
    return out


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return 1000 * ordered[int(0.99 * (len(ordered) - 1))]


def rng_worker(url: str, prefix: str, first: int, players: int, seconds: float,
               ready: Any, go: Any, way: str = "desk", every: float = 0.0
               ) -> tuple[list[float], list[float], float]:
    """One process's RNG players, a thread each; returns its latencies, its bets'
    acceptances and its seconds. ``first`` is the number of its first player over all
    the processes, so that every player's seeds are its own. ``way``: ``desk`` (the
    process's RNG desk, as the server plays slips) or ``alone`` (two transactions a
    slip). ``every``: if above zero, each player sends a slip every so many seconds
    through the desk (an open load) instead of the next as soon as the last is done."""
    engine = make_engine(url)
    prepare(engine, players, prefix=prefix)
    desk = RngDesk(engine, SeededRng(first))
    latencies: list[float] = []
    accepts: list[float] = []
    lock = threading.Lock()
    settle_heap()  # as each server process does once it has started
    ready.wait()
    go.wait()
    start = time.monotonic()
    stop = start + seconds

    def player(p: int) -> None:
        mine: list[float] = []
        accepted: list[float] = []
        number = 0
        if every > 0:
            mine = play_desk_paced(desk, p, every, time.perf_counter() + seconds,
                                   seed=(first + p) * 1_000_000, prefix=prefix)
            accepted = mine
        while every <= 0 and time.monotonic() < stop:
            seed = (first + p) * 1_000_000 + number
            if way == "desk":
                took = play_desk(desk, p, rounds=10, seed=seed, prefix=prefix)
                mine += took
                accepted += took  # a desk's slip is accepted in the commit that pays it
            else:
                mine += play(engine, p, rounds=10, seed=seed, prefix=prefix,
                             accepts=accepted)
            number += 10
        with lock:
            latencies.extend(mine)
            accepts.extend(accepted)

    threads = [threading.Thread(target=player, args=(p,)) for p in range(players)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - start
    engine.dispose()
    return latencies, accepts, took


def measure(engine: Engine, players: int, seconds: float, processes: int,
            way: str = "desk", pace: float = 0.0) -> dict[str, float]:
    """The RNG players shared out over ``processes`` processes (the first ones take
    one more when they do not divide evenly), all on one database. ``pace``: if above
    zero, the bets a second the players offer together, each at a steady pace (the
    desk), instead of each sending the next slip as soon as the last is answered."""
    every = players / pace if pace > 0 else 0.0
    url = engine.url.render_as_string(hide_password=False)
    shares = [players // processes + (w < players % processes) for w in range(processes)]
    firsts = [sum(shares[:w]) for w in range(processes)]
    with multiprocessing.Manager() as manager:
        ready = manager.Barrier(processes + 1)
        go = manager.Barrier(processes + 1)
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            prefix = "rngp" if pace > 0 else "rng"  # the open load's players are others
            jobs = [pool.apply_async(rng_worker, (
                url, f"{prefix}{w}x", firsts[w], shares[w], seconds, ready, go, way, every))
                for w in range(processes)]
            _start_together(ready, jobs)
            go.wait()
            parts = [job.get() for job in jobs]
    out = figures([x for part in parts for x in part[0]], max(part[2] for part in parts))
    out["p99_accept_ms"] = p99([x for part in parts for x in part[1]])
    return out


def run_both(engine: Engine, args: argparse.Namespace,
             processes: int | None = None) -> dict[str, dict[str, float]]:
    upgrade(engine)
    # An SQLite file is the embedded default: one server process writes it.
    if processes is None:
        processes = 1 if engine.dialect.name == "sqlite" else args.processes
    out = {"live": measure_live(engine, args.players, args.tables, args.seconds, processes),
           "rng": measure(engine, args.players, args.seconds, processes, args.rng_way)}
    if args.rng_pace > 0:
        out["rng_paced"] = measure(engine, args.players, args.seconds, processes, "desk",
                                   args.rng_pace)
    return out


def machine() -> str:
    return (f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
            f"CPython {platform.python_version()}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")


def sweep(args: argparse.Namespace) -> None:
    """PostgreSQL only: both ways for each process count, each in a fresh schema."""
    counts = [int(n) for n in args.sweep.split(",") if n.strip()]
    if not counts or min(counts) < 1:
        raise SystemExit("--sweep wants process counts of 1 or more, such as 1,2,4")
    rows: list[tuple[int, dict[str, dict[str, float]]]] = []
    for processes in counts:
        with postgres_schema("bench") as url:
            engine = make_engine(url)
            rows.append((processes, run_both(engine, args, processes)))
            engine.dispose()
    out = {"machine": machine(), "database": "postgresql", "players": args.players,
           "tables": args.tables, "seconds": args.seconds,
           "sweep": [{"processes": processes, **modes} for processes, modes in rows]}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['machine']}: PostgreSQL, {args.players} concurrent players, "
          f"{args.seconds:g} s each; live: {args.tables} tables shared out over the "
          f"processes, at least one a process")
    print()
    paced = (f" | RNG at {args.rng_pace:,.0f}/s offered: bets/s | p50 ms | p99 ms"
             if args.rng_pace > 0 else "")
    print("| processes | live bets/s | live accept p99 ms | live settle p99 ms "
          f"| RNG bets/s | RNG p99 ms | RNG accept p99 ms{paced} |")
    print("|---:" * (7 + 3 * bool(paced)) + "|")
    for processes, modes in rows:
        live, rng = modes["live"], modes["rng"]
        line = (f"| {processes} | {live['settled_bets_per_second']:,.0f} "
                f"| {live['p99_accept_ms']:.1f} | {live['p99_settle_ms']:.1f} "
                f"| {rng['settled_bets_per_second']:,.0f} | {rng['p99_ms']:.1f} "
                f"| {rng['p99_accept_ms']:.1f}")
        if "rng_paced" in modes:
            open_load = modes["rng_paced"]
            line += (f" | {open_load['settled_bets_per_second']:,.0f} "
                     f"| {open_load['p50_ms']:.1f} | {open_load['p99_ms']:.1f}")
        print(line + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--processes", type=int, default=2,
                        help="processes the players (and live tables) are shared out over "
                             "on PostgreSQL")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--sweep", metavar="N,N,...",
                        help="PostgreSQL only: both ways for each of these process counts, "
                             "one Markdown table (run it with --players 64)")
    parser.add_argument("--rng-way", choices=("desk", "alone"), default="desk",
                        help="RNG slips through the process's desk (the server's way) or "
                             "alone, two transactions a slip")
    parser.add_argument("--rng-pace", type=float, default=0.0, metavar="BETS_PER_S",
                        help="also the RNG desk under an open load: the players together "
                             "offer this many bets a second, each at a steady pace, and a "
                             "bet's seconds count from when it was due")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.sweep:
        sweep(args)
        return
    results: dict[str, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{folder}/bench.db")
        results["sqlite"] = run_both(engine, args)
        engine.dispose()
    with postgres_schema("bench") as url:
        engine = make_engine(url)
        results["postgresql"] = run_both(engine, args)
        engine.dispose()
    out = {"machine": machine(), "players": args.players, "results": results}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['machine']}: {args.players} concurrent players, {args.seconds:.0f} s each; "
          f"live: {args.tables} tables")
    for name, modes in results.items():
        for mode, r in modes.items():
            extra = (f"  accept p99 {r['p99_accept_ms']:.1f} ms, settle p99 "
                     f"{r['p99_settle_ms']:.1f} ms, {r['rounds']:,.0f} rounds"
                     if mode == "live" else f"  accept p99 {r['p99_accept_ms']:.1f} ms")
            print(f"{name:10s} {mode:9s} {r['settled_bets_per_second']:8,.0f} settled bets/s  "
                  f"p50 {r['p50_ms']:6.1f} ms  p99 {r['p99_ms']:6.1f} ms  "
                  f"({r['settled_bets']:,.0f} bets){extra}")
    print("target on PostgreSQL: 2,000 settled bets/s with p99 under 50 ms")


if __name__ == "__main__":
    main()
