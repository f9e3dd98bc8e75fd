"""Self-play hands per second: Pelisali's table engine and PokerKit on the same hands.

Pelisali plays N no-limit hold'em hands with random legal actions (six seats); PokerKit
then plays the very same hands, action for action, by replaying their PHH histories
through its state machine. Both are timed in this one run.

    .venv/bin/python benchmarks/bench_selfplay.py [--hands N] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from datetime import UTC, datetime

from pokerkit.notation import HandHistory

from pelisali.poker.evaluate import rank_table, tables
from pelisali.poker.selfplay import VARIANTS, selfplay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    tables(), rank_table(7)  # built once, not timed
    start = time.perf_counter()
    ours = selfplay(VARIANTS["holdem"], args.hands, seed=1, bots=("random",))
    ours_seconds = time.perf_counter() - start
    histories = selfplay(VARIANTS["holdem"], args.hands, seed=1, bots=("random",),
                         keep_histories=True).histories
    parsed = [HandHistory.loads(text) for text in histories]
    start = time.perf_counter()
    for history in parsed:
        for _state in history:
            pass
    theirs_seconds = time.perf_counter() - start
    out = {
        "machine": f"{platform.processor() or platform.machine()}, CPython "
                   f"{platform.python_version()}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        "hands": ours.hands,
        "pelisali_hands_per_second": args.hands / ours_seconds,
        "pokerkit_hands_per_second": args.hands / theirs_seconds,
    }
    out["ratio"] = out["pelisali_hands_per_second"] / out["pokerkit_hands_per_second"]
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['machine']}: {args.hands} six-handed no-limit hold'em hands, random actions")
    print(f"pelisali {out['pelisali_hands_per_second']:,.0f} hands/s; "
          f"PokerKit {out['pokerkit_hands_per_second']:,.0f} hands/s; "
          f"ratio {out['ratio']:.2f}x (target 10x)")


if __name__ == "__main__":
    main()
