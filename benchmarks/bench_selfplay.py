"""Self-play hands per second: Pelisali's table engine and PokerKit on the same hands.

Pelisali plays N hands of no-limit hold'em (six seats), limit stud (seven) and
deuce-to-seven triple draw (six) with random legal actions; PokerKit then plays the
very same hands, action for action, by replaying their PHH histories through its state
machine. Both are timed in this one run.

    .venv/bin/python benchmarks/bench_selfplay.py [--hands N] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
import warnings
from datetime import UTC, datetime

from pokerkit.notation import HandHistory

from pelisali.poker.evaluate import rank_table, tables
from pelisali.poker.selfplay import VARIANTS, selfplay

GAMES = {"holdem": "six-handed no-limit hold'em", "stud": "seven-handed limit stud",
         "triple-draw": "six-handed limit deuce-to-seven triple draw"}


def measure(game: str, hands: int) -> dict[str, float]:
    """Hands per second for both engines on the same ``hands`` hands of ``game``."""
    variant = VARIANTS[game]
    players = 7 if variant.kind == "stud" else 6
    start = time.perf_counter()
    selfplay(variant, hands, seed=1, players=players, bots=("random",))
    ours_seconds = time.perf_counter() - start
    histories = selfplay(variant, hands, seed=1, players=players, bots=("random",),
                         keep_histories=True).histories
    parsed = [HandHistory.loads(text) for text in histories]
    start = time.perf_counter()
    with warnings.catch_warnings():  # PokerKit warns when a reshuffled card is dealt
        warnings.simplefilter("ignore")
        for history in parsed:
            for _state in history:
                pass
    theirs_seconds = time.perf_counter() - start
    return {"pelisali_hands_per_second": hands / ours_seconds,
            "pokerkit_hands_per_second": hands / theirs_seconds,
            "ratio": theirs_seconds / ours_seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    tables(), rank_table(7)  # built once, not timed
    out: dict[str, object] = {
        "machine": f"{platform.processor() or platform.machine()}, CPython "
                   f"{platform.python_version()}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        "hands": args.hands,
        "games": {game: measure(game, args.hands) for game in GAMES},
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['machine']}: {args.hands} hands a game, random actions (target 10x)")
    for game, figures in out["games"].items():  # type: ignore[attr-defined]
        print(f"{GAMES[game]:45s} pelisali {figures['pelisali_hands_per_second']:7,.0f} "
              f"hands/s; PokerKit {figures['pokerkit_hands_per_second']:6,.0f} hands/s; "
              f"ratio {figures['ratio']:.2f}x")


if __name__ == "__main__":
    main()
