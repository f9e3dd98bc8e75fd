"""Poker hand evaluations per second: Pelisali against PokerKit, treys, phevaluator and
eval7; and the census's seconds and peak memory.

One run, the same seeded random hands for everyone (each method takes the first N of one
set of 5-card and one set of 7-card hands), side by side:

(a) ``pelisali.poker.evaluate.high_values`` over an (N, 5|7) int8 array, threads on
    (and, for reference, threads off);
(b) ``pelisali.poker.evaluate.high_value`` one hand at a time (a list of card indices),
    and ``evaluate`` (card names in, a typed ``HandValue`` out, its five cards and
    descriptions left until asked for);
(c) PokerKit ``StandardHighHand`` one at a time (``StandardHighHand(cards)`` for five cards,
    ``StandardHighHand.from_game(cards)`` for seven);
(d) treys ``Evaluator().evaluate(hand, board)`` one at a time;
(e) phevaluator ``evaluate_cards(*cards)`` one at a time;
(f) eval7 ``evaluate(cards)`` one at a time (a C extension, like phevaluator).

Then ``pelisali.analysis.census.census`` of every ranking, 5 and 7 cards, each in a fresh
subprocess that reports its own seconds and peak resident memory (``VmHWM``).

Hands are converted to each library's own card type before the clock starts; each method
is timed best of three (``--repeats``, ``--single-repeats``). The orders the libraries
give are cross-checked on a sample (the exit status is 1 if any disagree). Targets: batch
7-card at least 20 M hands/s; one-at-a-time faster than PokerKit; one 7-card hand at a
time through ``high_value`` at least 1 M hands/s; every census under 300 MB.

Run from the repository root::

    .venv/bin/python benchmarks/bench_poker.py [--json] [--batch N] [--single N] ...
        [--census-cards 5 7 | --no-census]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import importlib
import importlib.metadata
import itertools
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from machine import cpu_line  # benchmarks/machine.py, beside this script

from pelisali.analysis.census import CENSUS_RANKINGS
from pelisali.cards import DECK
from pelisali.poker.evaluate import evaluate, high_value, high_values, rank_table, tables

BATCH_TARGET = 20e6  # batch 7-card hands per second
ONE_HAND_TARGET = 1e6  # 7-card hands per second, one at a time through high_value
CENSUS_MEMORY_TARGET = 300 * 2**20  # bytes of peak resident memory, any census
CHECK = 2_000  # hands per size in the cross-check
SIZES = (5, 7)


def machine() -> dict[str, Any]:
    model = ""
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    usable = os.cpu_count() or 1
    with contextlib.suppress(AttributeError):
        usable = len(os.sched_getaffinity(0))
    versions = {}
    for name in ("pokerkit", "treys", "phevaluator", "eval7"):
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return {
        "line": cpu_line(),
        "cpu_model": model or platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "system": f"{platform.system()} {platform.release()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "numpy": np.__version__,
        "libraries": versions,
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def deal(seed: int, n: int, k: int) -> npt.NDArray[np.int8]:
    """n hands of k distinct cards (a fresh shuffled deck each)."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), dtype=np.int8)
    step = 1 << 18
    for start in range(0, n, step):
        m = min(step, n - start)
        deck = np.tile(np.arange(52, dtype=np.int8), (m, 1))
        out[start:start + m] = rng.permuted(deck, axis=1)[:, :k]
    return out


def timed(fn: Callable[[], object], repeats: int = 1) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


# -- the contenders: each returns (prepare(hands) -> data, run(data) -> scores, higher_better)

def ours_single() -> tuple[Callable[[Any], Any], Callable[[Any], list[Any]], bool]:
    def run(rows: list[list[int]]) -> list[int]:
        return [high_value(r) for r in rows]
    return (lambda hands: hands.tolist()), run, True


def ours_evaluate() -> tuple[Callable[[Any], Any], Callable[[Any], list[Any]], bool]:
    def prepare(hands: npt.NDArray[np.int8]) -> list[list[str]]:
        return [[DECK[c] for c in row] for row in hands.tolist()]

    def run(rows: list[list[str]]) -> list[Any]:
        return [evaluate(r) for r in rows]  # HandValues order as their values
    return prepare, run, True


def pokerkit_one() -> tuple[Callable[[Any], Any], Callable[[Any], list[Any]], bool]:
    from pokerkit import Card, StandardHighHand

    def prepare(hands: npt.NDArray[np.int8]) -> list[tuple[Any, ...]]:
        return [Card.clean("".join(DECK[c] for c in row)) for row in hands.tolist()]

    def run(rows: list[tuple[Any, ...]]) -> list[Any]:
        if rows and len(rows[0]) == 5:
            return [StandardHighHand(r) for r in rows]
        return [StandardHighHand.from_game(r) for r in rows]
    return prepare, run, True


def treys_one() -> tuple[Callable[[Any], Any], Callable[[Any], list[Any]], bool]:
    from treys import Card, Evaluator

    evaluator = Evaluator()
    ints = [Card.new(c) for c in DECK]

    def prepare(hands: npt.NDArray[np.int8]) -> list[tuple[list[int], list[int]]]:
        return [([ints[c] for c in row[:2]], [ints[c] for c in row[2:]])
                for row in hands.tolist()]

    def run(rows: list[tuple[list[int], list[int]]]) -> list[int]:
        evaluate = evaluator.evaluate
        return [evaluate(h, b) for h, b in rows]
    return prepare, run, False  # treys: 1 is the royal flush, lower is better


def phevaluator_one() -> tuple[Callable[[Any], Any], Callable[[Any], list[Any]], bool]:
    from phevaluator import evaluate_cards

    # phevaluator's card id is rank * 4 + suit with suits c d h s: the same as DECK
    def run(rows: list[list[int]]) -> list[int]:
        return [evaluate_cards(*r) for r in rows]
    return (lambda hands: hands.tolist()), run, False  # lower is better


def eval7_one() -> tuple[Callable[[Any], Any], Callable[[Any], list[Any]], bool]:
    import eval7

    cards = [eval7.Card(c) for c in DECK]

    def prepare(hands: npt.NDArray[np.int8]) -> list[list[Any]]:
        return [[cards[c] for c in row] for row in hands.tolist()]

    def run(rows: list[list[Any]]) -> list[int]:
        evaluate = eval7.evaluate
        return [evaluate(r) for r in rows]
    return prepare, run, True  # higher is better


CONTENDERS: dict[str, tuple[str, Callable[[], Any]]] = {
    "pelisali high_value (one at a time)": ("single", ours_single),
    "pelisali evaluate() (one at a time)": ("evaluate", ours_evaluate),
    "PokerKit StandardHighHand": ("pokerkit", pokerkit_one),
    "treys Evaluator": ("treys", treys_one),
    "phevaluator evaluate_cards": ("phevaluator", phevaluator_one),
    "eval7 evaluate": ("eval7", eval7_one),
}

# Run in a fresh interpreter per census, so its peak memory is the census's own.
CENSUS_CHILD = """
import json, resource, sys, time
from pelisali.analysis.census import census
ranking, cards = sys.argv[1], int(sys.argv[2])
started = time.perf_counter()
result = census(ranking, cards)
seconds = time.perf_counter() - started
# The peak of this process's own memory: VmHWM starts afresh at exec, where ru_maxrss
# keeps the parent's resident size at the fork.
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
try:
    with open("/proc/self/status", encoding="ascii") as status:
        peak = next(int(line.split()[1]) * 1024 for line in status
                    if line.startswith("VmHWM:"))
except (OSError, StopIteration):
    pass
print(json.dumps({"ranking": ranking, "cards": cards, "hands": result.total,
                  "seconds": seconds, "peak_rss_bytes": peak,
                  "cpu_seconds": time.process_time()}))
"""


def census_runs(sizes: Sequence[int]) -> list[dict[str, Any]]:
    """Each census in a subprocess: its seconds (tables built included) and peak RSS."""
    out = []
    for cards in sizes:
        for ranking in CENSUS_RANKINGS:
            done = subprocess.run([sys.executable, "-c", CENSUS_CHILD, ranking, str(cards)],
                                  capture_output=True, text=True, check=True)
            out.append(json.loads(done.stdout))
    return out


def orders_agree(ours: Sequence[int], theirs: Sequence[Any], higher_better: bool) -> int:
    """Pairs (our sorted neighbours and random pairs) whose order differs."""
    n = len(ours)
    order = sorted(range(n), key=lambda i: ours[i])
    perm = np.random.default_rng(0).permutation(n).tolist()
    bad = 0
    for i, j in [*itertools.pairwise(order), *zip(perm[0::2], perm[1::2], strict=False)]:
        mine = (ours[i] > ours[j]) - (ours[i] < ours[j])
        their = (theirs[i] > theirs[j]) - (theirs[i] < theirs[j])
        bad += mine != (their if higher_better else -their)
    return bad


def fmt_rate(rate: float | None) -> str:
    if rate is None:
        return "-"
    return f"{rate / 1e6:,.2f} M/s" if rate >= 1e6 else f"{rate / 1e3:,.1f} k/s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=4_000_000,
                        help="hands for the batch path, per size (default 4,000,000)")
    parser.add_argument("--single", type=int, default=200_000,
                        help="hands for Pelisali and phevaluator one at a time (default 200,000)")
    parser.add_argument("--treys", type=int, default=100_000,
                        help="hands for treys (default 100,000)")
    parser.add_argument("--pokerkit", type=int, default=20_000,
                        help="hands for PokerKit (default 20,000)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="best of, for the batch path (default 3)")
    parser.add_argument("--single-repeats", type=int, default=3,
                        help="best of, one hand at a time (default 3: a shared machine's "
                             "figures move by half from run to run)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--census-cards", type=int, nargs="+", default=[5, 7],
                        choices=[5, 7], help="census hand sizes to run (default 5 7)")
    parser.add_argument("--no-census", action="store_true", help="skip the census runs")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    counts = {"single": args.single, "evaluate": args.single, "pokerkit": args.pokerkit,
              "treys": args.treys, "phevaluator": args.single, "eval7": args.single}

    started = time.perf_counter()
    t = time.perf_counter()
    tables()
    for k in SIZES:
        rank_table(k)
    build = time.perf_counter() - t

    most = max(args.batch, *counts.values(), CHECK)
    hands = {k: deal(args.seed + k, most, k) for k in SIZES}
    rows: list[dict[str, Any]] = []
    mismatches: dict[str, int] = {}

    for threads, label in ((True, "pelisali high_values (batch, threads on)"),
                           (False, "pelisali high_values (batch, threads off)")):
        row: dict[str, Any] = {"method": label, "key": "batch" if threads else "batch_1"}
        for k in SIZES:
            batch = np.ascontiguousarray(hands[k][:args.batch])
            high_values(batch[:1000], threads=threads)  # warm
            seconds = timed(lambda b=batch, th=threads: high_values(b, threads=th),
                            args.repeats)
            row[f"rate_{k}"] = args.batch / seconds
            row[f"hands_{k}"] = args.batch
        rows.append(row)

    reference = {k: high_values(hands[k][:CHECK]).tolist() for k in SIZES}
    for label, (key, factory) in CONTENDERS.items():
        row = {"method": label, "key": key}
        try:
            prepare, run, higher_better = factory()
        except ImportError as error:
            row["error"] = f"not installed ({error.name})"
            rows.append(row)
            continue
        for k in SIZES:
            n = counts[key]
            data = prepare(hands[k][:n])
            run(data[:100])  # warm
            seconds = timed(lambda d=data, r=run: r(d), args.single_repeats)
            row[f"rate_{k}"] = n / seconds
            row[f"hands_{k}"] = n
            check = run(prepare(hands[k][:CHECK]))
            mismatches[f"{key}_{k}"] = orders_agree(reference[k], check, higher_better)
        rows.append(row)

    by_key = {r["key"]: r for r in rows}
    pk = by_key.get("pokerkit", {})
    for r in rows:
        for k in SIZES:
            if f"rate_{k}" in r and f"rate_{k}" in pk:
                r[f"vs_pokerkit_{k}"] = r[f"rate_{k}"] / pk[f"rate_{k}"]
    batch7 = by_key["batch"]["rate_7"]
    single = by_key["single"]
    censuses = [] if args.no_census else census_runs(args.census_cards)
    targets = {
        "batch_7_card_at_least_20M_per_s": batch7 >= BATCH_TARGET,
        "one_at_a_time_faster_than_pokerkit": (
            all(single[f"rate_{k}"] > pk[f"rate_{k}"] for k in SIZES) if "rate_5" in pk
            else None),
        "one_hand_7_card_at_least_1M_per_s": single["rate_7"] >= ONE_HAND_TARGET,
        "census_under_300MB": (all(c["peak_rss_bytes"] < CENSUS_MEMORY_TARGET
                                   for c in censuses) if censuses else None),
    }
    report = {"machine": machine(), "table_build_seconds": build, "results": rows,
              "cross_check_hands": CHECK, "cross_check_mismatched_pairs": mismatches,
              "census": censuses, "targets": targets,
              "total_seconds": time.perf_counter() - started}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 1 if any(mismatches.values()) else 0


def print_report(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:
        console = Console(width=120)
    m = report["machine"]
    libs = ", ".join(f"{k} {v or 'missing'}" for k, v in m["libraries"].items())
    console.print(f"[bold]Machine:[/bold] {m['line']} ({m['usable_cores']} usable), "
                  f"NumPy {m['numpy']}, {libs}, {m['date']}")
    table = Table(title="Best-hand evaluations per second (bigger is better)")
    table.add_column("method")
    for k in SIZES:
        table.add_column(f"{k}-card", justify="right")
        table.add_column("hands", justify="right")
        table.add_column("x PokerKit", justify="right")
    for r in report["results"]:
        if "error" in r:
            table.add_row(r["method"], r["error"], *[""] * 5)
            continue
        cells = []
        for k in SIZES:
            ratio = r.get(f"vs_pokerkit_{k}")
            cells += [fmt_rate(r[f"rate_{k}"]), f"{r[f'hands_{k}']:,}",
                      f"{ratio:,.1f}x" if ratio is not None else "-"]
        table.add_row(r["method"], *cells)
    console.print(table)
    bad = report["cross_check_mismatched_pairs"]
    console.print(f"Cross-check: order of {report['cross_check_hands'] * 3 // 2 - 1:,} hand pairs "
                  f"per library: " + ("all agree with Pelisali" if not any(bad.values())
                                      else f"MISMATCHES {bad}"))
    console.print(f"Tables built in {report['table_build_seconds']:.2f} s (not timed).")
    rates = {r["key"]: r for r in report["results"]}
    t = report["targets"]
    word = {True: "MET", False: "NOT MET", None: "not measured"}
    console.print(f"Target: batch 7-card >= 20 M hands/s: {fmt_rate(rates['batch']['rate_7'])}"
                  f" -> {word[t['batch_7_card_at_least_20M_per_s']]}")
    if "rate_5" in rates.get("pokerkit", {}):
        console.print(
            "Target: one at a time faster than PokerKit: "
            + ", ".join(f"{k}-card {rates['single'][f'vs_pokerkit_{k}']:.1f}x" for k in SIZES)
            + f" -> {word[t['one_at_a_time_faster_than_pokerkit']]}")
    seven = rates["single"]["rate_7"]
    console.print(f"Target: one 7-card hand at a time (high_value) >= 1 M/s: "
                  f"{fmt_rate(seven)} -> {word[t['one_hand_7_card_at_least_1M_per_s']]}")
    peers = [f"{label} {fmt_rate(rates[key]['rate_7'])}"
             for key, label in (("evaluate", "evaluate()"), ("eval7", "eval7"))
             if "rate_7" in rates.get(key, {})]
    console.print("  beside it, 7-card: " + ", ".join(peers))
    if report["census"]:
        census = Table(title="Census: every hand counted (a fresh process each)")
        for name in ("ranking", "cards", "hands", "seconds", "CPU seconds", "peak RSS"):
            census.add_column(name, justify="left" if name == "ranking" else "right")
        for c in report["census"]:
            census.add_row(c["ranking"], str(c["cards"]), f"{c['hands']:,}",
                           f"{c['seconds']:.1f}", f"{c['cpu_seconds']:.1f}",
                           f"{c['peak_rss_bytes'] / 2**20:,.0f} MB")
        console.print(census)
        console.print(f"Target: every census under 300 MB peak RSS -> "
                      f"{word[t['census_under_300MB']]}")
    console.print(f"total benchmark time {report['total_seconds']:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
