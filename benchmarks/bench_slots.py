"""Slot spins a second through the NumPy batch simulator, beside the exact par sheet's seconds.

For each shipped slot (every line played): the par sheet counted exactly
(``analysis.slots.par_sheet``, best of ``--repeat``), and ``--spins`` rounds of the
batch simulator (``analysis.slot_simulate.simulate_slot``, the free spins and the cap
included) on one thread and on every core, in one run, with the machine printed.

    .venv/bin/python benchmarks/bench_slots.py [--spins N] [--repeat K] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from datetime import UTC, datetime

import numpy as np

from pelisali.analysis.slot_simulate import simulate_slot
from pelisali.analysis.slots import par_sheet
from pelisali.rules.slots import load_slot_rules, slot_game_ids


def machine() -> str:
    """The CPU model, cores, Python and NumPy of this run."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"{model}, {os.cpu_count()} logical CPUs, {platform.machine()}, CPython "
            f"{platform.python_version()}, NumPy {np.__version__}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spins", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for name in slot_game_ids():
        rules = load_slot_rules(name)
        sheet_seconds = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            par_sheet(rules)
            sheet_seconds.append(time.perf_counter() - started)
        simulate_slot(rules, 100_000, seed=0)  # build the lookup tables, untimed
        row = {"game": f"slot-{name}", "lines": rules.bets.lines_played[-1],
               "par_sheet_seconds": min(sheet_seconds), "spins": args.spins}
        for label, workers in (("one_thread", 1), ("every_core", os.cpu_count() or 1)):
            sample = simulate_slot(rules, args.spins, seed=1, workers=workers)
            row[f"spins_per_second_{label}"] = sample.spins_per_second
        rows.append(row)
    if args.json:
        print(json.dumps({"machine": machine(), "rows": rows}, indent=2))
        return
    print(f"{machine()}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    for row in rows:
        print(f"{row['game']:<11} {row['lines']:>2} lines: par sheet "
              f"{row['par_sheet_seconds']:6.2f} s; simulated {row['spins']:,} spins at "
              f"{row['spins_per_second_one_thread']:>11,.0f}/s on one thread, "
              f"{row['spins_per_second_every_core']:>11,.0f}/s on every core")


if __name__ == "__main__":
    main()
