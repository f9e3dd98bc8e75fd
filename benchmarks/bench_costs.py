"""What a settled bet costs the database, counted: statements, writes (INSERT, UPDATE,
DELETE) and commits per settled bet, on SQLite and PostgreSQL, for the two ways a bet is
settled: an RNG slip alone (its own bet and draw transactions), RNG slips through the
RNG desk (32 players' slips a batch, each its own round, in one transaction) and a live
table (its desk accepting every slip of a round in one transaction, then one
settlement). The bus
messages a live round publishes are counted from the room's events: ``docs/scaling.md``
turns these into the load one PostgreSQL primary can take.

    .venv/bin/python benchmarks/bench_costs.py [--rounds 200] [--json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import uuid
from collections import Counter
from typing import Any

from loadgen import (  # benchmarks/loadgen.py, beside this script
    LiveLoad,
    name_of,
    play,
    postgres_schema,
    prepare,
)
from sqlalchemy import Engine, event

from pelisali.platform.db import make_engine, transaction, upgrade
from pelisali.platform.rng_desk import RngSlip, play_slips
from pelisali.rng import SeededRng

BATCH = 32  # players whose slips the RNG desk plays together


class Statements:
    """Counts what an engine sends: statements, writes and commits."""

    def __init__(self, engine: Engine) -> None:
        self.counts: Counter[str] = Counter()
        event.listen(engine, "before_cursor_execute", self._statement)
        event.listen(engine, "commit", self._commit)

    def _statement(self, _conn: Any, _cursor: Any, statement: str, _params: Any,
                   _context: Any, executemany: bool) -> None:
        verb = statement.lstrip().split(None, 1)[0].upper()
        self.counts["statements"] += 1
        if verb in ("INSERT", "UPDATE", "DELETE"):
            self.counts["writes"] += 1
        if verb == "SELECT" and "FOR UPDATE" in statement.upper():
            self.counts["row locks"] += 1

    def _commit(self, _conn: Any) -> None:
        self.counts["commits"] += 1

    def reset(self) -> None:
        self.counts.clear()


def measure(engine: Engine, rounds: int) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    counter = Statements(engine)
    prepare(engine, players=1)
    counter.reset()
    play(engine, 0, rounds, seed=1)  # one bet a round, its own draw
    out["rng, 1 bet a slip"] = {k: v / rounds for k, v in counter.counts.items()}
    prefix = f"d{uuid.uuid4().hex[:6]}"
    prepare(engine, players=BATCH, prefix=prefix)
    rng = SeededRng(2)
    batches = max(1, rounds // BATCH)
    counter.reset()
    for number in range(batches):
        with transaction(engine) as session:
            play_slips(session, [RngSlip(f"table-{name_of(p, prefix)}", name_of(p, prefix),
                                         (("red", 100),), f"{prefix}-{number}-{p}")
                                 for p in range(BATCH)], rng)
    out[f"rng desk, {BATCH} slips a batch"] = {
        k: v / (batches * BATCH) for k, v in counter.counts.items()}
    load = LiveLoad(engine, players=8, tables=1, seed=2026, prefix=f"c{uuid.uuid4().hex[:6]}")
    load.prepare()
    counter.reset()
    figures = load.run(rounds=rounds // 4)
    bets = figures.settled_bets
    out["live, 8 players a table"] = {k: v / bets for k, v in counter.counts.items()}
    out["live, 8 players a table"]["bets a round"] = bets / figures.rounds
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        sqlite = make_engine(f"sqlite:///{folder}/costs.db")
        upgrade(sqlite)
        results["sqlite"] = measure(sqlite, args.rounds)
    with postgres_schema("costs") as url:
        pg = make_engine(url)
        upgrade(pg)
        results["postgresql"] = measure(pg, args.rounds)
        pg.dispose()
    # A live round's events on the bus (server/live.py): the window, no more bets, the
    # result, and each player's own settlement.
    results["bus messages a live round"] = "3 + one a player with bets"
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for database, ways in results.items():
        if not isinstance(ways, dict):
            print(f"{database}: {ways}")
            continue
        for way, counts in ways.items():
            shown = ", ".join(f"{k} {v:.2f}" for k, v in sorted(counts.items()))
            print(f"{database:10} {way:28} per settled bet: {shown}")


if __name__ == "__main__":
    main()
