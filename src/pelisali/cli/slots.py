"""``pelisali odds slot NAME``: a slot game's exact par sheet at the terminal, as JSON or
as a spreadsheet."""

from __future__ import annotations

import json
import time
from pathlib import Path

from rich.table import Table as RichTable

from pelisali.analysis.slots import par_sheet, summary, write_par_sheet
from pelisali.cli.common import console, fail
from pelisali.rules import RuleDataError
from pelisali.rules.slots import load_slot_rules, slot_game_ids


def slot_odds_command(name: str | None, lines: int | None, par_file: Path | None,
                      as_json: bool) -> None:
    """Print (and write) the par sheet of slot ``name`` (``fruit`` or ``slot-fruit``)."""
    if not name:
        fail(f"name the slot game: pelisali odds slot NAME ({', '.join(slot_game_ids())})")
    try:
        rules = load_slot_rules(name.removeprefix("slot-"))
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
    combos = RichTable(title="winning combinations (one line; scatters and the feature on "
                             "the total bet)")
    for col in ("kind", "combination", "pays", "count", "probability", "RTP share"):
        combos.add_column(col, justify="left" if col in ("kind", "combination") else "right")
    for c in sheet.combos:
        combos.add_row(c.kind, c.label(), str(c.pays) if c.pays else "",
                       f"{c.combinations:,}", f"{float(c.probability):.4e}",
                       f"{float(c.contribution) * 100:.4f} %")
    console.print(combos)
    console.print(f"counted in {seconds:.2f} s"
                  + (f"; par sheet written to {par_file}" if par_file else ""))
