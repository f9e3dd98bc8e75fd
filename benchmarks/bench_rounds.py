"""Rounds per second through Pelisali's real round code, against a plain-Python loop.

For roulette C (15 bets covering all 14 bet types), Sic Bo (one bet of each of
the 21 bet types) and the money wheel (one bet on each of the 7 symbols), in
one run and one process:

1. batch path: a :class:`~pelisali.games.batch.SettlementTable` built once, then
   ``game.draw_many(SeededRng(seed), chunk)`` and ``table.settle(outcomes)``
   with the returns summed per bet, over ``--rounds`` rounds;
2. plain Python: ``random.Random(seed).randrange`` draws and the same bets
   settled with precomputed sets and payouts, over ``--plain-rounds`` rounds
   (best of 3), and a check that both give the same mean return per bet;
3. play: :class:`~pelisali.games.round.Round` (place, close, draw, settle) for
   a few thousand rounds (best of 3; informational);
4. the ratio batch / plain against the 5x target, and the full
   :func:`~pelisali.analysis.simulate.simulate` of roulette C on all cores.

Run from the repository root::

    .venv/bin/python benchmarks/bench_rounds.py [--rounds N] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import math
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from pelisali.analysis.simulate import CHUNK as SIM_CHUNK
from pelisali.analysis.simulate import simulate
from pelisali.games import make_game
from pelisali.games.base import Spot, WagerGame
from pelisali.games.batch import SettlementTable
from pelisali.games.dice import SicBo
from pelisali.games.money_wheel import MoneyWheel
from pelisali.games.roulette import Roulette
from pelisali.games.round import Round
from pelisali.rng import SeededRng

STAKE = 100  # cents on every bet (the table minimum of all three games)
TARGET = 5.0  # batch path must be at least this many times the plain loop (roulette C)
Z_LIMIT = 5.0  # sanity check: |z| of every per-bet mean difference below this
REPEATS = 3  # best of, for the shorter measurements

# Roulette C: the 14 bet types of a single-zero layout with quarters (first_five
# exists only on double-zero layouts), one spot each, plus a 15th bet, a straight on 0.
ROULETTE_C_SPOTS = (
    "straight 17", "split 8-11", "street 13-14-15", "corner 25-26-28-29",
    "sixline 31-32-33-34-35-36", "dozen 2", "column 3", "red", "black", "even", "odd",
    "low", "high", "quarter 2", "straight 0",
)


def odds_multiple(text: str, stake: int) -> int:
    """Whole cents a winning ``stake`` returns at odds ``win:per`` (stake included)."""
    win, per = (int(x) for x in text.split(":"))
    total = Fraction(stake * (win + per), per)
    assert total.denominator == 1, f"{text} on {stake} is not whole cents"
    return int(total)


# -- the three games and their plain-Python settlement ------------------------------------
PlainLoop = Callable[[int, int], list[int]]  # (seed, rounds) -> sum of returns per bet


@dataclass
class Case:
    label: str
    game: WagerGame
    spots: list[Spot]
    plain: PlainLoop
    plain_draw: str
    note: str = ""


def roulette_case() -> Case:
    game = make_game("roulette", "C")
    assert isinstance(game, Roulette)
    spots = [game.spot(key) for key in ROULETTE_C_SPOTS]
    types = {s.bet_type for s in spots}
    assert types == set(game.bet_types()), (types, game.bet_types())
    assert game.zero_rule == "lose", "version C: an even chance simply loses on zero"
    pockets = len(game.devices[0].slots)
    assert game.devices[0].slots == tuple(str(n) for n in range(pockets))
    # For each bet: the pockets it covers and what a win returns (stake included).
    bets = [(i, frozenset(int(p) for p in s.covers),
             odds_multiple(game.r.bets[s.bet_type].odds, STAKE)) for i, s in enumerate(spots)]

    def loop(seed: int, rounds: int) -> list[int]:
        randrange = random.Random(seed).randrange
        sums = [0] * len(bets)
        for _ in range(rounds):
            pocket = randrange(pockets)
            for i, covers, win in bets:
                if pocket in covers:
                    sums[i] += win
        return sums

    note = (f"{len(spots)} bets on all {len(types)} bet types of a single-zero layout "
            "(first_five exists only on double-zero layouts); the 15th is a second "
            "straight, on 0")
    return Case("roulette C", game, spots, loop, "randrange(37)", note)


def sic_bo_case() -> Case:
    game = make_game("sic-bo")
    assert isinstance(game, SicBo)
    spots = [game.spots_of(t)[0] for t in game.bet_types()]
    r = game.r
    # Plain settlement, one small function of the three dice per bet kind.
    single_pay = [0, *(odds_multiple(o, STAKE) for o in r.single)]
    total_pay = {int(t): odds_multiple(o, STAKE) for t, o in r.totals.items()}
    pay = {k: odds_multiple(r.bets[k].odds, STAKE) for k in r.bets}
    plan: list[tuple[str, int, frozenset[int]]] = []
    total_slot: dict[int, int] = {}
    for i, s in enumerate(spots):
        faces = frozenset(int(f) for f in s.covers)
        if s.bet_type.startswith("total_"):
            total_slot[int(s.bet_type.removeprefix("total_"))] = i
        else:
            plan.append((s.bet_type, i, faces))
    by_kind = {kind: (i, faces) for kind, i, faces in plan}
    assert set(by_kind) == {"small", "big", "single", "two_dice", "double", "any_triple",
                            "specific_triple"}
    i_small, i_big = by_kind["small"][0], by_kind["big"][0]
    i_single, (single_face,) = by_kind["single"][0], tuple(by_kind["single"][1])
    i_two, two_faces = by_kind["two_dice"]
    i_double, (double_face,) = by_kind["double"][0], tuple(by_kind["double"][1])
    i_any = by_kind["any_triple"][0]
    i_spec, (spec_face,) = by_kind["specific_triple"][0], tuple(by_kind["specific_triple"][1])
    pay_small, pay_big, pay_two = pay["small"], pay["big"], pay["two_dice"]
    pay_double, pay_any, pay_spec = pay["double"], pay["any_triple"], pay["specific_triple"]

    def loop(seed: int, rounds: int) -> list[int]:
        randrange = random.Random(seed).randrange
        sums = [0] * len(spots)
        for _ in range(rounds):
            a, b, c = randrange(6) + 1, randrange(6) + 1, randrange(6) + 1
            total = a + b + c
            triple = a == b == c
            if not triple:
                if total <= 10:
                    sums[i_small] += pay_small
                else:
                    sums[i_big] += pay_big
            shown = (a == single_face) + (b == single_face) + (c == single_face)
            if shown:
                sums[i_single] += single_pay[shown]
            if two_faces <= {a, b, c}:
                sums[i_two] += pay_two
            if (a == double_face) + (b == double_face) + (c == double_face) >= 2:
                sums[i_double] += pay_double
            if triple:
                sums[i_any] += pay_any
                if a == spec_face:
                    sums[i_spec] += pay_spec
            slot = total_slot.get(total)
            if slot is not None:
                sums[slot] += total_pay[total]
        return sums

    return Case("Sic Bo", game, spots, loop, "3 x randrange(6)",
                f"{len(spots)} bets, one on a spot of each of the {len(spots)} bet types")


def money_wheel_case() -> Case:
    game = make_game("money-wheel")
    assert isinstance(game, MoneyWheel)
    spots = list(game.spots())
    sectors = game.devices[0].slots
    bets = [(i, frozenset(k for k, sym in enumerate(sectors) if sym == s.key),
             odds_multiple(game.r.symbols[i].odds, STAKE)) for i, s in enumerate(spots)]
    assert [sym.name for sym in game.r.symbols] == [s.key for s in spots]
    n = len(sectors)

    def loop(seed: int, rounds: int) -> list[int]:
        randrange = random.Random(seed).randrange
        sums = [0] * len(bets)
        for _ in range(rounds):
            sector = randrange(n)
            for i, covers, win in bets:
                if sector in covers:
                    sums[i] += win
        return sums

    return Case("money wheel", game, spots, loop, f"randrange({n})",
                f"{len(spots)} bets, one on each symbol")


# -- measurements ------------------------------------------------------------------------
def exact_moments(table: SettlementTable) -> tuple[np.ndarray, np.ndarray]:
    """Exact mean and variance of each bet's return per unit stake, from the table."""
    game = table.game
    weights = np.array([w for _, _, w in game.outcomes()], dtype=np.float64)
    prob = weights / game.total_weight
    per_unit = table.paid.astype(np.float64) / STAKE
    mean = prob @ per_unit
    var = prob @ per_unit**2 - mean**2
    return mean, var


def bench_batch(case: Case, rounds: int, chunk: int, seed: int) -> dict[str, Any]:
    """The batch path: one table, draw_many + settle + per-bet sums, chunk by chunk."""
    game = case.game
    t0 = time.perf_counter()
    table = SettlementTable(game, [(s, STAKE, 0) for s in case.spots])
    build = time.perf_counter() - t0
    # One untimed warm-up chunk on another seed (first calls, allocator).
    table.settle(game.draw_many(SeededRng(seed + 1000), min(chunk, rounds))).sum(axis=0)
    rng = SeededRng(seed)
    sums = np.zeros(len(case.spots), dtype=np.int64)
    done = 0
    t0 = time.perf_counter()
    while done < rounds:
        size = min(chunk, rounds - done)
        outcomes = game.draw_many(rng, size)
        sums += table.settle(outcomes).sum(axis=0)
        done += size
    elapsed = time.perf_counter() - t0
    return {"rounds": rounds, "chunk": chunk, "seconds": elapsed, "rate": rounds / elapsed,
            "table_build_seconds": build, "sums": [int(x) for x in sums], "table": table}


def bench_plain(case: Case, rounds: int, seed: int) -> dict[str, Any]:
    """The plain-Python loop, best of REPEATS; the sums of every repeat are pooled."""
    times, pooled = [], [0] * len(case.spots)
    for rep in range(REPEATS):
        t0 = time.perf_counter()
        sums = case.plain(seed + rep, rounds)
        times.append(time.perf_counter() - t0)
        pooled = [a + b for a, b in zip(pooled, sums, strict=True)]
    best = min(times)
    return {"rounds": rounds, "repeats": REPEATS, "seconds": best, "rate": rounds / best,
            "all_seconds": times, "sums": pooled, "pooled_rounds": rounds * REPEATS}


def play_rounds(case: Case, rng: SeededRng, rounds: int) -> int:
    paid = 0
    for n in range(rounds):
        rnd = Round(case.game, f"bench-{n}")
        for spot in case.spots:
            rnd.place("bench", spot, STAKE)
        rnd.close()
        rnd.draw(rng)
        paid += sum(s.paid for s in rnd.settle())
    return paid


def bench_play(case: Case, rounds: int, seed: int, budget: float) -> dict[str, Any]:
    """Play's one-round path (Round: place, close, draw, settle), best of REPEATS.

    The round count is cut so one repeat takes about ``budget`` seconds at most
    (a round rebuilds its settlement table for every outcome of the game).
    """
    rng = SeededRng(seed)
    t0 = time.perf_counter()
    play_rounds(case, rng, 10)
    per_round = (time.perf_counter() - t0) / 10
    rounds = max(10, min(rounds, int(budget / per_round)))
    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        play_rounds(case, rng, rounds)
        times.append(time.perf_counter() - t0)
    best = min(times)
    return {"rounds": rounds, "repeats": REPEATS, "seconds": best, "rate": rounds / best}


def check_means(case: Case, batch: dict[str, Any], plain: dict[str, Any]) -> dict[str, Any]:
    """Per-bet mean return per unit stake: plain vs batch vs exact, as z-scores."""
    exact_mean, exact_var = exact_moments(batch["table"])
    mean, var = [float(x) for x in exact_mean], [float(x) for x in exact_var]
    nb, npl = batch["rounds"], plain["pooled_rounds"]
    rows, worst = [], 0.0
    for b, spot in enumerate(case.spots):
        m_batch = batch["sums"][b] / (nb * STAKE)
        m_plain = plain["sums"][b] / (npl * STAKE)
        se_diff = math.sqrt(var[b] / nb + var[b] / npl)
        z_diff = (m_plain - m_batch) / se_diff if se_diff else 0.0
        z_batch = (m_batch - mean[b]) / math.sqrt(var[b] / nb) if var[b] else 0.0
        z_plain = (m_plain - mean[b]) / math.sqrt(var[b] / npl) if var[b] else 0.0
        worst = max(worst, abs(z_diff), abs(z_batch), abs(z_plain))
        rows.append({"spot": spot.key, "exact": mean[b], "batch": m_batch,
                     "plain": m_plain, "z_plain_vs_batch": z_diff})
    total_exact = sum(mean) / len(case.spots)
    return {"agrees": worst < Z_LIMIT, "max_abs_z": worst, "z_limit": Z_LIMIT,
            "mean_return_per_bet_exact": total_exact,
            "mean_return_per_bet_batch": sum(batch["sums"]) / (nb * STAKE * len(case.spots)),
            "mean_return_per_bet_plain": sum(plain["sums"]) / (npl * STAKE * len(case.spots)),
            "bets": rows}


def bench_simulate(rounds: int, seed: int, workers: int | None) -> dict[str, Any]:
    """Wall time of the full simulate() (process start-up included), on all cores and on one."""
    game = make_game("roulette", "C")
    t0 = time.perf_counter()
    result = simulate(game, rounds=rounds, seed=seed, workers=workers)
    elapsed = time.perf_counter() - t0
    t0 = time.perf_counter()
    single = simulate(game, rounds=rounds, seed=seed, workers=1)
    one_worker = time.perf_counter() - t0
    assert single.rows == result.rows, "simulate must not depend on the worker count"
    used = workers or min(math.ceil(rounds / SIM_CHUNK), os.cpu_count() or 1)
    return {"rounds": rounds, "seed": seed, "workers": used, "bets_per_round": len(result.rows),
            "chunk": SIM_CHUNK, "seconds": elapsed, "rate": rounds / elapsed,
            "projected_100M_seconds": elapsed * 1e8 / rounds,
            "one_worker_seconds": one_worker, "speedup_over_one_worker": one_worker / elapsed,
            "all_agree_with_exact": all(row.agrees for row in result.rows)}


# -- the machine -------------------------------------------------------------------------
def machine() -> dict[str, Any]:
    model, virtual = "", False
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name") and not model:
                    model = line.split(":", 1)[1].strip()
                elif line.startswith("flags"):
                    virtual = "hypervisor" in line.split(":", 1)[1].split()
                    break
    except OSError:
        pass
    uname = platform.uname()
    usable = os.cpu_count() or 1
    with contextlib.suppress(AttributeError):
        usable = len(os.sched_getaffinity(0))
    memory = None
    with contextlib.suppress(ValueError, OSError, AttributeError):
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return {
        "cpu_model": model or platform.processor() or uname.machine,
        "processor": platform.processor(),
        "machine": uname.machine,
        "system": f"{uname.system} {uname.release}",
        "platform": platform.platform(),
        "virtual_machine": virtual,
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "memory_gib": round(memory / 2**30, 1) if memory else None,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "numpy": np.__version__,
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def machine_line(m: dict[str, Any]) -> str:
    mem = f", {m['memory_gib']} GiB" if m["memory_gib"] else ""
    vm = ", virtual machine" if m["virtual_machine"] else ""
    return (f"{m['cpu_model']} ({m['machine']}{vm}), {m['cores']} cores{mem}, {m['system']}, "
            f"{m['python']}, NumPy {m['numpy']}, {m['date']}")


# -- output ------------------------------------------------------------------------------
def fmt_rate(rate: float) -> str:
    return f"{rate / 1e6:,.2f} M/s" if rate >= 1e5 else f"{rate:,.0f} /s"


def fmt_seconds(s: float) -> str:
    return f"{s:,.1f} s" if s >= 1 else f"{s * 1000:,.0f} ms"


def print_report(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:  # piped or redirected: don't squeeze into 80 columns
        console = Console(width=132)
    console.print(f"[bold]Machine:[/bold] {machine_line(report['machine'])}")
    console.print(f"[dim]{report['machine']['platform']}[/dim]\n")

    rates = Table(title="Rounds per second, one process (bigger is better)")
    for col in ("game", "bets", "batch path", "plain Python", "batch / plain",
                f"≥ {TARGET:g}x", "play (Round)", "mean return check"):
        rates.add_column(col, justify="left" if col in ("game",) else "right")
    for g in report["games"]:
        chk = g["check"]
        rates.add_row(
            g["game"], str(g["bets"]),
            f"{fmt_rate(g['batch']['rate'])}\n[dim]{g['batch']['rounds']:,} rds[/dim]",
            f"{fmt_rate(g['plain']['rate'])}\n[dim]{g['plain']['rounds']:,} rds, best of "
            f"{REPEATS}[/dim]",
            f"{g['ratio']:.1f}x",
            "[green]yes[/green]" if g["target_met"] else "[red]NO[/red]",
            f"{fmt_rate(g['play']['rate'])}\n[dim]{g['play']['rounds']:,} rds, best of "
            f"{REPEATS}[/dim]",
            ("[green]agrees[/green]" if chk["agrees"] else "[red]DISAGREES[/red]")
            + f"\n[dim]max |z| {chk['max_abs_z']:.2f}[/dim]",
        )
    console.print(rates)

    means = Table(title="Mean return per unit stake, averaged over the bets (sanity check)")
    for col in ("game", "exact", "batch path", "plain Python", "max |z|"):
        means.add_column(col, justify="left" if col == "game" else "right")
    for g in report["games"]:
        chk = g["check"]
        means.add_row(g["game"], f"{chk['mean_return_per_bet_exact']:.5f}",
                      f"{chk['mean_return_per_bet_batch']:.5f}",
                      f"{chk['mean_return_per_bet_plain']:.5f}", f"{chk['max_abs_z']:.2f}")
    console.print(means)

    for g in report["games"]:
        console.print(f"[bold]{g['game']}[/bold]: {g['note']}; plain loop draws "
                      f"{g['plain_draw']}; table built in "
                      f"{fmt_seconds(g['batch']['table_build_seconds'])}.")
    console.print(f"[dim]roulette C bets: {', '.join(report['games'][0]['spots'])}[/dim]")
    chunk = report["games"][0]["batch"]["chunk"]
    console.print(f"[dim]batch path: one pass, {chunk:,} rounds per draw_many/settle call; "
                  f"stake {STAKE} cents a bet[/dim]\n")

    s = report["summary"]
    sim = report["simulate"]
    console.print(f"[bold]Target (roulette C):[/bold] batch path {s['roulette_ratio']:.1f}x the "
                  f"plain loop: {'MET' if s['target_met'] else 'NOT MET'} (target "
                  f"{TARGET:g}x).")
    console.print(f"100 million roulette C rounds, batch path, one process: "
                  f"{fmt_seconds(s['projected_100M_batch_seconds'])}; plain loop: "
                  f"{fmt_seconds(s['projected_100M_plain_seconds'])}.")
    console.print(f"simulate(roulette C, rounds={sim['rounds']:,}, seed={sim['seed']}) on "
                  f"{sim['workers']} workers ({sim['bets_per_round']} bets a round, one per "
                  f"type, chunks of {sim['chunk']:,}): {fmt_seconds(sim['seconds'])} wall incl. "
                  f"process start-up = {fmt_rate(sim['rate'])}; projected 100M: "
                  f"{fmt_seconds(sim['projected_100M_seconds'])}; every bet within its 99 % "
                  f"interval: {sim['all_agree_with_exact']}.")
    console.print(f"The same simulate() on 1 worker: {fmt_seconds(sim['one_worker_seconds'])} "
                  f"({sim['workers']} workers are {sim['speedup_over_one_worker']:.2f}x as fast).")
    console.print(f"[dim]total benchmark time {fmt_seconds(report['total_seconds'])}[/dim]")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=20_000_000,
                    help="batch-path rounds per game (default 20,000,000)")
    ap.add_argument("--plain-rounds", type=int, default=None,
                    help="plain-loop rounds per repeat (default min(1,000,000, --rounds))")
    ap.add_argument("--play-rounds", type=int, default=2_000,
                    help="Round rounds per repeat, cut to ~--play-budget s (default 2,000)")
    ap.add_argument("--play-budget", type=float, default=1.5,
                    help="seconds one repeat of the play path may take (default 1.5)")
    ap.add_argument("--sim-rounds", type=int, default=None,
                    help="rounds for the full simulate() run (default: --rounds)")
    ap.add_argument("--workers", type=int, default=None,
                    help="simulate() workers (default: simulate's own, all cores)")
    ap.add_argument("--chunk", type=int, default=SIM_CHUNK,
                    help=f"batch-path rounds per draw_many/settle call (default {SIM_CHUNK}, "
                         "simulate's chunk)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = ap.parse_args(argv)
    plain_rounds = args.plain_rounds or min(1_000_000, args.rounds)
    sim_rounds = args.sim_rounds or args.rounds

    def say(text: str) -> None:
        if not args.json:
            print(text, file=sys.stderr, flush=True)

    start = time.perf_counter()
    games = []
    for make in (roulette_case, sic_bo_case, money_wheel_case):
        case = make()
        say(f"{case.label}: batch path, {args.rounds:,} rounds …")
        batch = bench_batch(case, args.rounds, args.chunk, args.seed)
        say(f"{case.label}: plain loop, {plain_rounds:,} rounds x {REPEATS} …")
        plain = bench_plain(case, plain_rounds, args.seed)
        say(f"{case.label}: play path …")
        play = bench_play(case, args.play_rounds, args.seed, args.play_budget)
        check = check_means(case, batch, plain)
        batch.pop("table")
        ratio = batch["rate"] / plain["rate"]
        games.append({"game": case.label, "bets": len(case.spots),
                      "bet_types": len({s.bet_type for s in case.spots}),
                      "spots": [s.key for s in case.spots], "note": case.note,
                      "plain_draw": case.plain_draw, "batch": batch, "plain": plain,
                      "play": play, "ratio": ratio, "target_met": ratio >= TARGET,
                      "check": check})
    say(f"simulate(roulette C, {sim_rounds:,} rounds) …")
    sim = bench_simulate(sim_rounds, args.seed, args.workers)
    roulette = games[0]
    report = {
        "machine": machine(),
        "stake_cents": STAKE,
        "target_ratio": TARGET,
        "games": games,
        "simulate": sim,
        "summary": {
            "roulette_ratio": roulette["ratio"],
            "target_met": roulette["target_met"],
            "projected_100M_batch_seconds": 1e8 / roulette["batch"]["rate"],
            "projected_100M_plain_seconds": 1e8 / roulette["plain"]["rate"],
            "projected_100M_simulate_seconds": sim["projected_100M_seconds"],
        },
        "total_seconds": time.perf_counter() - start,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 0 if all(g["check"]["agrees"] for g in games) else 1


if __name__ == "__main__":
    sys.exit(main())
