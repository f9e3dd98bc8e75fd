"""Banked card games: exact-odds times and simulated rounds per second.

Run from the repository root::

    .venv/bin/python benchmarks/bench_cards.py [--rounds N] [--json]

* exact 8-deck punto banco: :func:`pelisali.analysis.baccarat_odds.baccarat_odds` on a full
  shoe, best of 3 (the issue's target: under one second);
* exact blackjack: basic strategy plus its expected return from the full 8-deck shoe, cold,
  in a fresh process (nothing cached);
* simulated rounds per second through the play code (real shoes, cut card, reshuffles), one
  process, and the full ``simulate_cards`` on every core.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from datetime import UTC, datetime

from machine import cpu_line  # benchmarks/machine.py, beside this script

from pelisali.analysis.baccarat_odds import baccarat_odds, full_shoe
from pelisali.analysis.card_simulate import _baccarat_chunk, _blackjack_chunk, _Job, simulate_cards

COLD_BLACKJACK = """
import time
t = time.perf_counter()
from pelisali.analysis.blackjack_ca import basic_strategy, expected_return
from pelisali.games.blackjack_rules import BlackjackConfig
config = BlackjackConfig()
strategy = basic_strategy(config)
result = expected_return(config, strategy)
print(time.perf_counter() - t, result.edge)
"""


def machine() -> str:
    return f"{cpu_line()}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"


def best_of(n: int, fn: object) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000,
                        help="rounds for the one-process rates (default 20,000)")
    parser.add_argument("--sim-rounds", type=int, default=200_000,
                        help="rounds for simulate_cards on every core (default 200,000)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    out: dict[str, object] = {"machine": machine()}
    out["baccarat_exact_seconds"] = best_of(3, lambda: baccarat_odds(full_shoe(8)))
    cold = subprocess.run([sys.executable, "-c", COLD_BLACKJACK], capture_output=True,
                          text=True, check=True).stdout.split()
    out["blackjack_exact_seconds"] = float(cold[0])
    out["blackjack_house_edge"] = float(cold[1])
    for game, run in (("punto-banco", _baccarat_chunk), ("blackjack", _blackjack_chunk)):
        job = _Job(game, (), 1, 0, args.rounds)
        run(_Job(game, (), 1, 1, 200))  # warm: imports, strategy
        seconds = best_of(1, lambda job=job, run=run: run(job))
        out[f"{game}_rounds_per_second_one_process"] = args.rounds / seconds
        start = time.perf_counter()
        simulate_cards(game, args.sim_rounds, seed=1)
        out[f"{game}_simulate_rounds_per_second_all_cores"] = (
            args.sim_rounds / (time.perf_counter() - start))
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"Machine: {out['machine']}")
    print(f"exact 8-deck punto banco: {out['baccarat_exact_seconds']:.3f} s (target < 1 s)")
    print(f"exact blackjack (basic strategy + expected return, 8 decks, cold): "
          f"{out['blackjack_exact_seconds']:.1f} s, house edge "
          f"{float(out['blackjack_house_edge']) * 100:.4f} %")  # type: ignore[arg-type]
    for game in ("punto-banco", "blackjack"):
        one = out[f"{game}_rounds_per_second_one_process"]
        every = out[f"{game}_simulate_rounds_per_second_all_cores"]
        print(f"{game}: {one:,.0f} rounds/s in one process through the table; "
              f"simulate on every core {every:,.0f} rounds/s")


if __name__ == "__main__":
    main()
