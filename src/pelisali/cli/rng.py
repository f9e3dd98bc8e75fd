"""``pelisali rng test``: the RNG certification battery and its report.

Every game's outcomes are drawn by its own production code (the wheels' and dice'
:meth:`WagerGame.draw`, the platform's :func:`~pelisali.platform.table_layer.draw_outcome`
for cards and reel stops, :meth:`Shoe.shuffle` for decks) from the chosen generator, then
tested at 99 % confidence; dieharder and NIST SP 800-22 test the raw stream. Exit 0 when
the Holm-corrected verdict passes, 1 when it fails, 2 on a bad option::

    pelisali rng test --report rng-report.html
    pelisali rng test --game roulette --draws 200000 --seed 7 --no-dieharder --nist-bits 0
    pelisali rng test --generator fair --game sic-bo --draws 100000 --dieharder none
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table as RichTable

from pelisali.cli.common import console, fail, progress_bar

rng_app = typer.Typer(help="RNG certification: the statistical battery and its report.",
                      no_args_is_help=True, add_completion=False)


@rng_app.command("test")
def run_battery(
    game: Annotated[list[str] | None, typer.Option(
        "--game", help="a source (repeat for more): roulette, boule, money-wheel, tuplanoppa, "
                       "sic-bo, slot-fruit, slot-video, punto-banco, blackjack, red-dog, "
                       "three-card-poker, ultimate-texas-holdem, texas-holdem-bonus, "
                       "oasis-stud, pai-gow-poker, russian-poker, chemin-de-fer, shuffle "
                       "(default: every one)")] = None,
    draws: Annotated[int, typer.Option(help="rounds drawn for each game")] = 1_000_000,
    shuffles: Annotated[int, typer.Option(
        help="shuffles of a 52-card deck (ten times as many of 4 and 5 cards)")] = 20_000,
    generator: Annotated[str | None, typer.Option(
        help="secure (OS entropy, as played), seeded (PCG64, needs --seed) or fair (the "
             "provably fair HMAC-SHA256 rounds: a new seed pair, or one from --seed) "
             "(default: seeded with --seed, else secure)")] = None,
    seed: Annotated[int | None, typer.Option(
        help="test the seeded generator (PCG64) from this seed (default: the secure "
             "generator, OS entropy, as played)")] = None,
    variant: Annotated[str | None, typer.Option(help="roulette version A-I")] = None,
    report: Annotated[Path | None, typer.Option(help="write the HTML report to FILE.html")]
    = None,
    dieharder: Annotated[str, typer.Option(
        help="dieharder test numbers, comma-separated, or 'none'")] = "0,1,3,8,10,15,100,101",
    nist_bits: Annotated[int, typer.Option(help="NIST SP 800-22 bits (0: none)")] = 1_000_000,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Run the battery on each game's own draws; print every test, write the report."""
    from pelisali.analysis.rng_certify import certify
    from pelisali.analysis.rng_fair import FairRounds
    from pelisali.analysis.rng_sources import SHUFFLE, SOURCES
    from pelisali.platform.table_layer import draw_outcome
    from pelisali.rng import Rng, SecureRng, SeededRng

    games = game or list(SOURCES)
    unknown = [g for g in games if g not in SOURCES]
    if unknown:
        fail(f"no RNG source {unknown[0]!r}; sources: {', '.join(SOURCES)}")
    if draws < 10_000:
        fail("--draws must be at least 10000 (the serial triples and poker cells need it)")
    if shuffles < 0 or nist_bits < 0:
        fail("--shuffles and --nist-bits must be 0 or more")
    if 0 < shuffles < 2_000:
        fail("--shuffles must be 0 or at least 2000 (five a card-position cell)")
    if seed is not None and seed < 0:
        fail("--seed must be 0 or more")
    kind = generator or ("secure" if seed is None else "seeded")
    if kind not in ("secure", "seeded", "fair"):
        fail("--generator is secure, seeded or fair")
    if kind == "seeded" and seed is None:
        fail("--generator seeded needs --seed")
    if kind == "secure" and seed is not None:
        fail("--seed seeds the seeded or the fair generator, not the secure one")
    if variant is not None and (len(variant) != 1 or variant.upper() not in "ABCDEFGHI"):
        fail("--variant is a roulette version A-I")
    tests: tuple[int, ...] = ()
    if dieharder.strip().lower() != "none":
        try:
            tests = tuple(int(t) for t in dieharder.split(",") if t.strip())
        except ValueError:
            fail("--dieharder takes test numbers like 0,1,100 or 'none'")
    if games == [SHUFFLE] * len(games) and not shuffles:
        fail("--shuffles 0 leaves the shuffle nothing to test")
    if report is not None and report.suffix.lower() not in (".html", ".htm"):
        fail("--report writes FILE.html")
    rng: Rng = (FairRounds.from_seed(seed) if kind == "fair"
                else SecureRng() if seed is None else SeededRng(seed))
    with progress_bar(as_json) as progress:
        def start(label: str, total: int) -> Callable[[int], None]:
            task = progress.add_task(label, total=total)
            return lambda n: progress.advance(task, n)

        run = certify(rng, games, draws, shuffles, draw_outcome, tests, nist_bits, start,
                      variant.upper() if variant else None)
    if report is not None:
        from pelisali.analysis.rng_report import render

        report.write_text(render(run), encoding="utf-8")
    if as_json:
        print(json.dumps({
            "generator": run.generator, "passed": run.passed, "correction": "holm",
            "alpha": 0.01, "draws": draws, "shuffles": shuffles, "nist_bits": nist_bits,
            "tests": [{"source": c.result.source, "test": c.result.test,
                       "p_value": c.result.p_value, "holm_p_value": c.adjusted,
                       "passed": c.passed} for c in run.corrected],
            "not_run": [{"battery": n.battery, "test": n.test, "reason": n.reason}
                        for n in run.not_run]}, indent=2))
    else:
        table = RichTable(title=f"RNG battery: {run.generator}, {draws:,} rounds a game")
        for col in ("source", "test", "p-value", "Holm p", ""):
            table.add_column(col)
        for c in run.corrected:
            flag = "[green]pass[/]" if c.passed else "[bold red]FAIL[/]"
            if c.passed and not c.result.passed:
                flag = "[yellow]below 0.01 alone[/]"
            table.add_row(c.result.source, c.result.test, f"{c.result.p_value:.4g}",
                          f"{c.adjusted:.4g}", flag)
        console.print(table)
        for n in run.not_run:
            console.print(f"not run: {n.battery} {n.test}: {n.reason}")
        verdict = "[green]PASS[/]" if run.passed else "[bold red]FAIL[/]"
        console.print(f"{verdict}: {len(run.results)} tests at 99 %, Holm–Bonferroni "
                      "corrected" + (f"; report: {report}" if report else ""))
    if not run.passed:
        raise typer.Exit(1)
