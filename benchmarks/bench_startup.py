"""Start-up time of the ``pelisali`` command: wall time of whole processes, beside the
interpreter's own start (``python -c pass``), the floor no command can go under.

Run from the repository root::

    .venv/bin/python benchmarks/bench_startup.py [--runs N] [--src DIR] [--json]

Each command runs N times as a fresh process (``python -m pelisali.cli.main ...``), the
commands taking turns so that a change in the machine's load falls on all of them; the
table gives the median and the fastest run's wall time and the median CPU time (user
and system), which a busy machine inflates less than the wall time. ``--src`` times
another checkout's ``src`` (by default this one's), to set two versions side by side.
The last column names the heavy libraries the command's process imports (one extra
run, not timed).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from machine import cpu_line  # benchmarks/machine.py, beside this script

SRC = Path(__file__).resolve().parents[1] / "src"
HEAVY = ("sqlalchemy", "numpy", "fastapi", "pydantic", "matplotlib")
FLOOR = "python -c pass"
COMMANDS: dict[str, list[str]] = {
    FLOOR: [],
    "pelisali --help": ["--help"],
    "pelisali odds roulette": ["odds", "roulette"],
    "pelisali games": ["games"],
    "pelisali account --help": ["account", "--help"],
    "pelisali poker rank 'As Kd Qh Jc Ts'": ["poker", "rank", "As Kd Qh Jc Ts"],
}
# Runs the command as `python -m pelisali.cli.main` does, then names the heavy
# libraries left in sys.modules.
LOADS = """
import runpy, sys
sys.argv = ["pelisali", *sys.argv[1:]]
try:
    runpy.run_module("pelisali.cli.main", run_name="__main__")
except SystemExit:
    pass
finally:
    sys.stderr.write("LOADS " + " ".join(m for m in {heavy} if m in sys.modules) + "\\n")
"""


def argv(args: list[str], name: str) -> list[str]:
    if name == FLOOR:
        return [sys.executable, "-c", "pass"]
    return [sys.executable, "-m", "pelisali.cli.main", *args]


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """The wall time and the CPU time (user and system) of one run."""
    cpu = cpu_of_children()
    start = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} exited {done.returncode}: {done.stderr.decode()}")
    return seconds, cpu_of_children() - cpu


def loads(args: list[str], env: dict[str, str]) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", LOADS.format(heavy=HEAVY), *args], env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    line = next((x for x in done.stderr.splitlines() if x.startswith("LOADS")), "LOADS")
    return line.split()[1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--src", type=Path, default=SRC,
                        help="the src folder of the checkout to time (default: this one's)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(args.src.resolve()), "COLUMNS": "100"}
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    cpu: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for name, command in COMMANDS.items():  # one untimed run each: the bytecode caches
        run_once(argv(command, name), env)
    for _ in range(args.runs):
        for name, command in COMMANDS.items():
            wall, used = run_once(argv(command, name), env)
            times[name].append(wall)
            cpu[name].append(used)
    rows = [{"command": name, "runs": args.runs,
             "median_seconds": statistics.median(times[name]),
             "min_seconds": min(times[name]),
             "median_cpu_seconds": statistics.median(cpu[name]),
             "loads": [] if name == FLOOR else loads(COMMANDS[name], env)}
            for name in COMMANDS]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    if args.json:
        print(json.dumps({"machine": cpu_line(), "src": str(args.src), "load_average": load,
                          "rows": rows}, indent=2))
        return
    load_text = f", load average {load:.2f}" if load is not None else ""
    print(f"{cpu_line()}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC{load_text}")
    where = "this checkout" if args.src.resolve() == SRC else f"src {args.src}"
    print(f"{args.runs} runs a command, {where}")
    width = max(len(name) for name in COMMANDS)
    print(f"{'command':<{width}}  {'median':>8}  {'min':>8}  {'CPU':>8}  imports")
    for row in rows:
        print(f"{row['command']:<{width}}  {row['median_seconds']:>7.3f}s  "
              f"{row['min_seconds']:>7.3f}s  {row['median_cpu_seconds']:>7.3f}s  "
              f"{', '.join(row['loads']) or '-'}")


if __name__ == "__main__":
    main()
