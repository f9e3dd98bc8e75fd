"""Slot spins a second through the NumPy batch simulator, beside the exact par sheet's seconds.

For each shipped slot (every line played): the par sheet counted exactly
(``analysis.slots.par_sheet``, best of ``--repeat``), and ``--spins`` rounds of the
batch simulator (``analysis.slot_simulate.simulate_slot``, the free spins and the cap
included) on one thread and on every core, in one run, with the machine printed.

    .venv/bin/python benchmarks/bench_slots.py [--spins N] [--repeat K] [--breakdown] [--json]

``--breakdown`` also prints where one thread's time goes in a round of each game.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from datetime import UTC, datetime

import numpy as np
from machine import cpu_line  # benchmarks/machine.py, beside this script

from pelisali.analysis import slot_simulate
from pelisali.analysis.slot_simulate import BatchSlot, simulate_slot, uniform_drawer
from pelisali.analysis.slots import par_sheet
from pelisali.rules.slots import load_slot_rules, slot_game_ids


def machine() -> str:
    """The machine of this run (``machine.cpu_line``) and NumPy's version."""
    return f"{cpu_line()}, NumPy {np.__version__}"


def breakdown(name: str, reps: int = 10) -> dict[str, float]:
    """Nanoseconds a round on one thread, by stage, over blocks of base spins drawn and paid
    the way ``BatchSlot.spin_units`` does it, and the rest of ``BatchSlot.play``."""
    model = BatchSlot(load_slot_rules(name))
    tables, rng = model.tables[0], np.random.default_rng(1)
    n, chunk = slot_simulate.BLOCK, slot_simulate.CHUNK
    stages = dict.fromkeys(("draw", "gather line parts", "pay lookup", "sum over lines",
                            "scatters"), 0.0)
    for _ in range(reps):
        t = time.perf_counter()
        groups = [rng.integers(0, size, n, dtype=np.int64) for size in tables.sizes()]
        stages["draw"] += time.perf_counter() - t
        for start in range(0, n, chunk):
            part = [g[start:start + chunk] for g in groups]
            t0 = time.perf_counter()
            index = tables.rows[0].take(part[0], axis=0)
            for rows, joint in zip(tables.rows[1:], part[1:], strict=True):
                index += rows.take(joint, axis=0)
            t1 = time.perf_counter()
            pays = model.pays.take(index, mode="clip")
            t2 = time.perf_counter()
            _ = pays @ model.ones if model.exact_float else pays.sum(axis=1)
            t3 = time.perf_counter()
            stages["gather line parts"] += t1 - t0
            stages["pay lookup"] += t2 - t1
            stages["sum over lines"] += t3 - t2
        if model.scatter is None:
            continue
        t = time.perf_counter()
        seen = tables.scatters[0].take(groups[0]).astype(np.int64)
        for counts, joint in zip(tables.scatters[1:], groups[1:], strict=True):
            seen += counts.take(joint)
        model.scatter_units.take(seen)
        stages["scatters"] += time.perf_counter() - t
    t = time.perf_counter()
    for _ in range(reps):
        model.play(n, uniform_drawer(model, rng))
    whole = time.perf_counter() - t
    out = {k: v / reps / n * 1e9 for k, v in stages.items()}
    out["free spins, cap, the rest"] = whole / reps / n * 1e9 - sum(out.values())
    out["a round"] = whole / reps / n * 1e9
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spins", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--breakdown", action="store_true")
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
        if args.breakdown:
            row["ns_a_round_one_thread"] = breakdown(name)
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
        for stage, ns in row.get("ns_a_round_one_thread", {}).items():
            print(f"    {stage:<26} {ns:6.1f} ns a round, one thread")


if __name__ == "__main__":
    main()
