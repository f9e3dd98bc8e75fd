"""A multi-table hold'em tournament of bots played to the end, its clock accelerated.

Every table deals a hand a round and the tournament clock moves a set number of
seconds a round (breaks are skipped), so a 1,000-entrant field plays its whole
structure in minutes. Reported: the wall and CPU time, hands dealt and hands a
second across all tables, balancing moves and broken tables, hand-for-hand
rounds, and the chip count checked after every hand and at every level change.

    .venv/bin/python benchmarks/bench_tournament.py [--entrants N] [--seats S]
        [--structure regular|turbo|sit-and-go] [--seconds-a-hand T] [--seed K] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from machine import cpu_line
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from pelisali.rng import SeededRng
from pelisali.tournaments.poker import (
    PokerTournament,
    TableHand,
    TournamentSettings,
    play_out,
)


def run(entrants: int, seats: int, structure: str, seconds_a_hand: int,
        seed: int, show: bool) -> dict[str, Any]:
    settings = TournamentSettings(name=f"{entrants}-entrant hold'em", capacity=entrants,
                                  starting_chips=10_000, structure=structure,
                                  buy_in=1000, fee=100, format="scheduled", seats=seats)
    tournament = PokerTournament(settings)
    for number in range(entrants):
        tournament.register(f"bot{number:05d}")
    tournament.start(SeededRng(seed))
    issued = tournament.chips_issued()
    levels_checked: set[int] = set()
    hands_by_level: Counter[int] = Counter()
    hand_for_hand = 0
    level = 0
    progress = Progress(TextColumn("[bold]players left"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("level {task.fields[level]}"), disable=not show,
                        transient=True)
    task = progress.add_task("left", total=entrants, completed=entrants, level=1)

    def check(playing: TableHand) -> None:
        nonlocal hand_for_hand, level
        if tournament.chips_in_play() != issued:
            raise SystemExit(f"chips lost or made at hand {playing.number}: "
                             f"{tournament.chips_in_play()} of {issued}")
        hands_by_level[playing.level] += 1
        hand_for_hand += playing.hand_for_hand
        if playing.level != level:
            level = playing.level
            levels_checked.add(level)
        if playing.number % 64 == 0:
            progress.update(task, completed=len(tournament.alive()), level=level)

    wall, cpu = time.perf_counter(), time.process_time()
    with progress:
        play_out(tournament, SeededRng(seed + 1), seconds_a_hand=seconds_a_hand,
                 on_hand=check)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    reasons = Counter(move.reason for move in tournament.moves)
    prizes = tournament.prizes()
    pool = tournament.prize_pool()
    if sum(prizes.values()) != pool.pool:
        raise SystemExit("the prizes do not add up to the pool")
    return {
        "machine": cpu_line(), "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "entrants": entrants, "seats": seats, "structure": structure,
        "seconds_a_hand": seconds_a_hand, "seed": seed,
        "wall_seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
        "hands": tournament.hands_dealt, "hands_per_second": round(tournament.hands_dealt / wall),
        "tournament_hours": round(tournament.elapsed / 3600, 2),
        "last_level": level, "levels_checked": len(levels_checked),
        "balancing_moves": reasons["balance"], "break_moves": reasons["break"],
        "final_table_moves": reasons["final table"], "hand_for_hand_hands": hand_for_hand,
        "places_paid": len(tournament.place_prizes()), "prize_pool": pool.pool,
        "chips": issued,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=9)
    parser.add_argument("--structure", default="turbo")
    parser.add_argument("--seconds-a-hand", type=int, default=60,
                        help="tournament seconds a round of hands takes (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.entrants, args.seats, args.structure, args.seconds_a_hand, args.seed,
                 show=not args.json)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{result['machine']}, {result['when']}")
    print(f"{result['entrants']:,} entrants, {result['seats']} seats a table, "
          f"{result['structure']} structure, {result['seconds_a_hand']} s a round of hands")
    print(f"played to the end in {result['wall_seconds']} s wall, {result['cpu_seconds']} s "
          f"CPU: {result['hands']:,} hands, {result['hands_per_second']:,} hands/s "
          f"across all tables; {result['tournament_hours']} tournament hours, "
          f"to level {result['last_level']}")
    print(f"moves: {result['balancing_moves']:,} balancing, {result['break_moves']:,} from "
          f"broken tables, {result['final_table_moves']} to the final table; "
          f"{result['hand_for_hand_hands']} hands played hand for hand")
    print(f"chips: {result['chips']:,} issued, every one accounted for after each hand at "
          f"{result['levels_checked']} levels; {result['places_paid']} places paid from "
          f"a pool of {result['prize_pool'] / 100:,.2f} euros")


if __name__ == "__main__":
    main()
