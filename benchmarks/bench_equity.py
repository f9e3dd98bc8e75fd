"""Monte Carlo equity trials a second: Pelisali beside eval7, the same matchups and trials.

Two pre-flop matchups, each in one run and in process:

* hold'em As Ah against Kd Kc: ``pelisali.analysis.equity.equity(..., exact=False)``
  against ``eval7.py_hand_vs_range_monte_carlo`` (eval7's Monte Carlo, in C), both
  ``--trials`` boards;
* Omaha As Ah Kd Qd against Js Th 9c 8c (exactly two hole cards): Pelisali's Monte Carlo,
  ``--trials`` boards, against eval7 the way it can play Omaha, which it has no Monte
  Carlo for: ``random.sample`` boards and ``eval7.evaluate`` of every two-plus-three,
  ``--eval7-omaha`` boards (a Python loop: fewer, the rate is per board).

Each side's first call is timed on its own (Pelisali builds its tables and board table
there); then the best of ``--repeats``, Pelisali and eval7 in turn so that both see the
same load. Each equity is printed beside Pelisali's exact figure. ``--cli`` also times
``pelisali poker equity As Ah Kd Kc --trials N`` as a command (start-up included).

Run from the repository root::

    .venv/bin/python benchmarks/bench_equity.py [--trials N] [--repeats K] [--cli] [--json]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import itertools
import json
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from machine import cpu_line  # benchmarks/machine.py, beside this script

from pelisali.analysis.equity import equity
from pelisali.cards import DECK, parse_cards

HOLDEM = ("As Ah", "Kd Kc")
OMAHA = ("As Ah Kd Qd", "Js Th 9c 8c")


def machine() -> str:
    try:
        eval7 = importlib.metadata.version("eval7")
    except importlib.metadata.PackageNotFoundError:
        eval7 = "missing"
    return f"{cpu_line()}, NumPy {np.__version__}, eval7 {eval7}"


def timed(fn: Callable[[], float]) -> tuple[float, float]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def pelisali_mc(hands: Sequence[str], trials: int, omaha: bool, seed: int = 1) -> float:
    parsed = [parse_cards(h) for h in hands]
    return equity(parsed, exactly_two=omaha, exact=False, trials=trials, seed=seed
                  ).shares[0].equity


def pelisali_exact(hands: Sequence[str], omaha: bool) -> float:
    return equity([parse_cards(h) for h in hands], exactly_two=omaha, exact=True
                  ).shares[0].equity


def eval7_holdem(hands: Sequence[str], trials: int) -> float:
    import eval7

    hero = [eval7.Card(c) for c in parse_cards(hands[0])]
    villain = eval7.HandRange("".join(parse_cards(hands[1])))
    return float(eval7.py_hand_vs_range_monte_carlo(hero, villain, [], trials))


def eval7_omaha(hands: Sequence[str], trials: int, seed: int = 1) -> float:
    """Omaha by eval7's evaluator: each board the best two-plus-three of each hand."""
    import eval7

    used = {c for h in hands for c in parse_cards(h)}
    deck = [eval7.Card(c) for c in DECK if c not in used]
    pairs = [list(itertools.combinations([eval7.Card(c) for c in parse_cards(h)], 2))
             for h in hands]
    evaluate, sample = eval7.evaluate, random.Random(seed).sample
    share = 0.0
    for _ in range(trials):
        threes = list(itertools.combinations(sample(deck, 5), 3))
        hero, villain = (max(evaluate([*p, *t]) for p in ps for t in threes) for ps in pairs)
        share += 1.0 if hero > villain else 0.5 if hero == villain else 0.0
    return share / trials


def cli_seconds(trials: int) -> float | None:
    script = shutil.which("pelisali", path=str(Path(sys.executable).parent))
    if script is None:
        return None
    start = time.perf_counter()
    subprocess.run([script, "poker", "equity", *HOLDEM, "--trials", str(trials), "--json"],
                   check=True, capture_output=True)
    return time.perf_counter() - start


def case(name: str, ours: Callable[[], float], theirs: Callable[[], float] | None,
         trials: int, their_trials: int, exact: float, repeats: int) -> dict[str, Any]:
    row: dict[str, Any] = {"case": name, "trials": trials, "eval7_trials": their_trials,
                           "exact": exact}
    row["pelisali_first_seconds"], row["pelisali_equity"] = timed(ours)
    if theirs is not None:
        row["eval7_first_seconds"], row["eval7_equity"] = timed(theirs)
    best = {"pelisali": float("inf"), "eval7": float("inf")}
    for _ in range(repeats):
        best["pelisali"] = min(best["pelisali"], timed(ours)[0])
        if theirs is not None:
            best["eval7"] = min(best["eval7"], timed(theirs)[0])
    row["pelisali_seconds"] = best["pelisali"]
    row["pelisali_rate"] = trials / best["pelisali"]
    if theirs is not None:
        row["eval7_seconds"] = best["eval7"]
        row["eval7_rate"] = their_trials / best["eval7"]
        row["ratio"] = row["pelisali_rate"] / row["eval7_rate"]
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1_000_000,
                        help="Monte Carlo boards for Pelisali and eval7's hold'em (1,000,000)")
    parser.add_argument("--eval7-omaha", type=int, default=20_000,
                        help="boards for eval7's Omaha loop (default 20,000)")
    parser.add_argument("--repeats", type=int, default=5, help="best of (default 5)")
    parser.add_argument("--cli", action="store_true", help="also time the command")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    try:
        import eval7  # noqa: F401
        have_eval7 = True
    except ImportError:
        have_eval7 = False
    rows = [
        case("hold'em As Ah v Kd Kc", lambda: pelisali_mc(HOLDEM, args.trials, False),
             (lambda: eval7_holdem(HOLDEM, args.trials)) if have_eval7 else None,
             args.trials, args.trials, pelisali_exact(HOLDEM, False), args.repeats),
        case("Omaha As Ah Kd Qd v Js Th 9c 8c", lambda: pelisali_mc(OMAHA, args.trials, True),
             (lambda: eval7_omaha(OMAHA, args.eval7_omaha)) if have_eval7 else None,
             args.trials, args.eval7_omaha, pelisali_exact(OMAHA, True), args.repeats),
    ]
    report: dict[str, Any] = {
        "machine": machine(), "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "repeats": args.repeats, "results": rows,
        "cli_seconds": cli_seconds(args.trials) if args.cli else None}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{report['machine']}, {report['date']}; best of {args.repeats}, in process")
    for r in rows:
        print(f"{r['case']}: exact equity {r['exact']:.4f}")
        print(f"  pelisali {r['trials']:>9,} trials {r['pelisali_seconds']:7.3f} s "
              f"{r['pelisali_rate'] / 1e6:6.2f} M trials/s, equity {r['pelisali_equity']:.4f}"
              f" (first call {r['pelisali_first_seconds']:.3f} s)")
        if "eval7_rate" in r:
            print(f"  eval7    {r['eval7_trials']:>9,} trials {r['eval7_seconds']:7.3f} s "
                  f"{r['eval7_rate'] / 1e6:6.2f} M trials/s, equity {r['eval7_equity']:.4f}"
                  f" (first call {r['eval7_first_seconds']:.3f} s)")
            print(f"  ratio pelisali / eval7: {r['ratio']:.2f}x")
        else:
            print("  eval7 not installed")
    if report["cli_seconds"] is not None:
        print(f"pelisali poker equity {' '.join(HOLDEM)} --trials {args.trials:,}: "
              f"{report['cli_seconds']:.2f} s as a command")
    return 0


if __name__ == "__main__":
    sys.exit(main())
