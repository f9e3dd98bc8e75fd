"""``pelisali odds slot NAME``: a slot game's exact par sheet at the terminal, as JSON or
as a spreadsheet; ``pelisali simulate slot NAME``: the batch simulation beside it."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path

import typer
from rich.table import Table as RichTable

from pelisali.analysis.slot_simulate import check_sample, simulate_slot
from pelisali.analysis.slots import par_sheet, summary, write_par_sheet
from pelisali.cli.common import console, fail, progress_bar
from pelisali.rules import RuleDataError
from pelisali.rules.slots import SlotRules, load_slot_file, load_slot_rules, slot_game_ids


def slot_rules_named(name: str) -> SlotRules:
    """A shipped slot game (``fruit`` or ``slot-fruit``) or, for a name ending ``.toml``, the
    slot rule file at that path (a game being designed, a test game).

    >>> slot_rules_named("slot-fruit").id
    'fruit'
    """
    if name.lower().endswith(".toml"):
        return load_slot_file(Path(name))
    return load_slot_rules(name.removeprefix("slot-"))


def slot_odds_command(name: str | None, lines: int | None, par_file: Path | None,
                      as_json: bool) -> None:
    """Print (and write) the par sheet of slot ``name`` (``fruit``, ``slot-fruit`` or a rule
    file ``FILE.toml``)."""
    if not name:
        fail(f"name the slot game: pelisali odds slot NAME ({', '.join(slot_game_ids())} or "
             f"FILE.toml)")
    try:
        rules = slot_rules_named(name)
    except RuleDataError as error:
        fail(str(error))
    if par_file is not None and par_file.suffix.lower() not in (".csv", ".xlsx"):
        fail(f"--par-sheet: {par_file} is not a .csv or .xlsx file")
    started = time.perf_counter()
    try:
        sheet = par_sheet(rules, lines)
    except ValueError as error:
        fail(str(error))
    seconds = time.perf_counter() - started
    if par_file is not None:
        write_par_sheet(sheet, par_file)
    if as_json:
        print(json.dumps({**sheet.to_json(), "seconds": round(seconds, 3)},
                         ensure_ascii=False, indent=2))
        return
    table = RichTable(title=f"{rules.name.en} (slot-{rules.id}): exact par sheet, "
                            f"{rules.section}")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in summary(sheet):
        table.add_row(key, value)
    console.print(table)
    combos = RichTable(title="winning combinations (" + (
        "ways pays in coins, their RTP share on the bet" if rules.ways else "one line")
        + "; scatters and the feature on the total bet)")
    for col in ("kind", "combination", "pays", "count", "probability", "RTP share"):
        combos.add_column(col, justify="left" if col in ("kind", "combination") else "right")
    for c in sheet.combos:
        combos.add_row(c.kind, c.label(), str(c.pays) if c.pays else "",
                       f"{c.combinations:,}", f"{float(c.probability):.4e}",
                       f"{float(c.contribution) * 100:.4f} %")
    console.print(combos)
    console.print(f"counted in {seconds:.2f} s"
                  + (f"; par sheet written to {par_file}" if par_file else ""))


def slot_simulate_command(name: str | None, spins: int, seed: int, lines: int | None,
                          workers: int, strips_file: Path | None, as_json: bool) -> None:
    """Simulate slot ``name`` and set the observed figures beside the exact par sheet; exit 1
    when they disagree (see :class:`~pelisali.analysis.slot_simulate.SlotCheck`).

    With ``strips_file`` (a slot rule file of the same game) the spins are played on that
    file's strips, against the par sheet of the packaged game: the strips found on a
    machine checked against the par sheet filed for it."""
    if not name:
        fail(f"name the slot game: pelisali simulate slot NAME ({', '.join(slot_game_ids())} "
             f"or FILE.toml)")
    try:
        rules = slot_rules_named(name)
        played = rules if strips_file is None else load_slot_file(strips_file)
    except RuleDataError as error:
        fail(str(error))
    if played is not rules:
        same = ("rows", "symbols", "paylines", "ways", "pays", "wilds", "scatter", "feature",
                "cap", "bets")
        differ = [key for key in same if getattr(played, key) != getattr(rules, key)]
        if played.reel_count != rules.reel_count:
            differ.insert(0, "reels")
        if differ:
            fail(f"--strips: {strips_file} is not slot-{rules.id} with other strips; it "
                 f"differs in {', '.join(differ)}")
    try:
        sheet = par_sheet(rules, lines)
    except ValueError as error:
        fail(str(error))
    with progress_bar(as_json) as progress:
        task = progress.add_task(f"simulating {rules.name.en}", total=spins)
        sample = simulate_slot(played, spins, seed, sheet.lines, workers or None,
                               progress=lambda n: progress.advance(task, n))
    check = check_sample(sample, sheet)
    if as_json:
        data = check.to_json()
        if strips_file is not None:
            data["strips"] = str(strips_file)
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        where = f" on the strips of {strips_file}" if strips_file is not None else ""
        bet = f"{sheet.lines} coins a spin, any-way pays" if rules.ways else \
            f"{sheet.lines} lines"
        table = RichTable(title=f"{rules.name.en} (slot-{rules.id}): {spins:,} spins{where}, "
                                f"{bet}, seed {seed}")
        for col in ("figure", "exact", "observed", "99 % interval", ""):
            table.add_column(col, justify="left" if col == "figure" else "right")
        for f in check.figures:
            exact = (f"{float(f.low):.6f} … {float(f.exact):.6f}" if f.low != f.exact
                     else f"{float(f.exact):.6f}")
            if abs(f.z_score) > check.family_z:
                flag = "[bold red]DISAGREES[/]"
            else:
                flag = "[green]inside[/]" if f.inside else "[yellow]outside 99 % (chance)[/]"
            table.add_row(f.name, exact, f"{f.observed:.6f}",
                          f"{f.observed - f.half_width:.6f} … {f.observed + f.half_width:.6f}",
                          flag)
        console.print(table)
        console.print(f"free spins played {sample.free_spins:,}; rounds cut by the cap "
                      f"{sample.capped:,}; top win {Fraction(sample.top, sample.lines)} x "
                      f"total bet; sigma {sample.sigma:.4f} (exact {sheet.sigma:.4f})")
        console.print(f"{sample.spins_per_second:,.0f} spins/s ({sample.seconds:.2f} s)")
        console.print(("[green]" if check.agrees else "[bold red]") + check.verdict() + "[/]")
    if not check.agrees:
        raise typer.Exit(1)
