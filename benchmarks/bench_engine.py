"""Rounds per second through the engine contract, beside the direct engine in the same run.

The contract's states are immutable and deal cards one at a time as chance
outcomes; this measures what that costs against the engines played directly:
a roulette C round of three bets (contract against ``games.round.Round``), a
punto banco coup of three bets (contract against ``PuntoBancoTable``), and a
six-handed no-limit hold'em hand with random legal actions (contract against
``PokerHand`` in self-play, which PokerKit is compared with in bench_selfplay.py).

    .venv/bin/python benchmarks/bench_engine.py [--rounds N] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Callable
from datetime import UTC, datetime

from pelisali.analysis.walk import play_out, random_policy
from pelisali.engine import GAMES, Seats
from pelisali.games import make_game
from pelisali.games.punto_banco import PuntoBancoTable
from pelisali.games.round import Round
from pelisali.poker.selfplay import VARIANTS, selfplay
from pelisali.rng import SeededRng


def timed(run: Callable[[], None]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def roulette(rounds: int) -> tuple[float, float]:
    game = GAMES["roulette-C"]
    wager = make_game("roulette", "C")
    rng = SeededRng(1)

    def contract() -> None:
        for _ in range(rounds):
            state = game.new_state(Seats(1))
            for text in ("bet red 500", "bet straight 17 100", "bet dozen 2 200", "done"):
                state = state.apply(text).state
            play_out(state, random_policy(rng), rng)

    def direct() -> None:
        for number in range(rounds):
            rnd = Round(wager, str(number))
            for spot, stake in (("red", 500), ("straight 17", 100), ("dozen 2", 200)):
                rnd.place("you", spot, stake)
            rnd.close()
            rnd.draw(rng)
            rnd.settle()

    return timed(contract), timed(direct)


def punto_banco(rounds: int) -> tuple[float, float]:
    game = GAMES["punto-banco"]
    rng = SeededRng(2)

    def contract() -> None:
        for _ in range(rounds):
            state = game.new_state(Seats(1))
            for text in ("bet banker 1000", "bet player 500", "bet tie 500", "done"):
                state = state.apply(text).state
            play_out(state, random_policy(rng), rng)

    def direct() -> None:
        table = PuntoBancoTable(rng)
        table.sit("you", 10**12)
        for _ in range(rounds):
            for bet, stake in (("banker", 1000), ("player", 500), ("tie", 500)):
                table.place("you", bet, stake)
            table.deal()

    return timed(contract), timed(direct)


def holdem(rounds: int) -> tuple[float, float]:
    game = GAMES["holdem"]
    rng = SeededRng(3)

    def contract() -> None:
        seats = Seats.with_stacks([200] * 6)
        for _ in range(rounds):
            play_out(game.new_state(seats), random_policy(rng), rng)

    def direct() -> None:
        selfplay(VARIANTS["holdem"], rounds, seed=3, players=6, bots=("random",))

    return timed(contract), timed(direct)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for name, measure in (("roulette C, three bets", roulette),
                          ("punto banco, three bets", punto_banco),
                          ("six-handed no-limit hold'em", holdem)):
        measure(50)  # warm the lookup tables and caches, untimed
        contract, direct = measure(args.rounds)
        rows.append({"game": name, "rounds": args.rounds,
                     "contract_per_second": args.rounds / contract,
                     "direct_per_second": args.rounds / direct,
                     "direct_over_contract": contract / direct})
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{platform.machine()}, CPython {platform.python_version()}, "
          f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC: {args.rounds} rounds a game")
    for row in rows:
        print(f"{row['game']:<30} contract {row['contract_per_second']:>9,.0f}/s; "
              f"direct {row['direct_per_second']:>9,.0f}/s; "
              f"the contract costs {row['direct_over_contract']:.1f}x")


if __name__ == "__main__":
    main()
