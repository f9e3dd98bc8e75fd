"""``pelisali simulate oasis-stud``: Oasis Stud Poker played through its engine by the basic
strategy, the mean return per ante with its 99 % interval and the final hands' frequencies."""

from __future__ import annotations

import json

from rich.table import Table as RichTable

from pelisali.cli.common import console, fail, parse_sets, progress_bar


def oasis_simulate_command(rounds: int, seed: int, sets: list[str] | None,
                           as_json: bool) -> None:
    """``rounds`` rounds of one box by the basic strategy (``--set fees=TABLE pays=TABLE``)."""
    from pelisali.analysis.oasis_simulate import STAKE, simulate_oasis
    from pelisali.engine import IllegalMove
    from pelisali.games.oasis_stud import BASIC_STRATEGY
    from pelisali.money import format_cents

    with progress_bar(as_json) as progress:
        task = progress.add_task("simulating Oasis Stud Poker", total=rounds)
        try:
            found = simulate_oasis(rounds, seed, parse_sets(sets),
                                   progress=lambda n: progress.advance(task, n))
        except IllegalMove as exc:
            fail(str(exc))
    from pelisali.games.oasis_count import cached_exact

    # the same strategy's exact return, counted over every deal (read from the cache once
    # a machine has counted it), beside the simulated one
    exact_return = -cached_exact(fees=str(found.settings["fees"]),
                                 pays=str(found.settings["pays"]))[0].ante_edge
    agrees = found.low <= exact_return <= found.high
    if as_json:
        print(json.dumps({**found.to_json(), "exact_return_per_ante": str(exact_return),
                          "agrees": agrees, "strategy": BASIC_STRATEGY}, indent=2))
        return
    console.print(f"Oasis Stud Poker: {rounds:,} rounds, seed {seed}, the basic strategy, "
                  f"through the engine (ante {format_cents(STAKE)} €, fees "
                  f"{found.settings['fees']}, raise pays {found.settings['pays']})")
    console.print(f"mean net return per ante {found.mean:+.6f}, 99 % interval "
                  f"{found.low:+.6f} … {found.high:+.6f} (the house edge per ante is its "
                  f"negative)")
    console.print(f"exact return per ante {float(exact_return):+.6f} (every deal counted, "
                  f"'odds oasis-stud'): {'inside' if agrees else 'OUTSIDE'} the interval")
    table = RichTable(title="the box's final hand")
    for col in ("hand", "rounds", "share"):
        table.add_column(col, justify="left" if col == "hand" else "right")
    for name, count in found.hands.items():
        table.add_row(name.replace("_", " "), f"{count:,}", f"{count / rounds * 100:.4f} %")
    console.print(table)
    console.print("cards exchanged: " + ", ".join(
        f"{k} {v / rounds * 100:.2f} %" for k, v in found.exchanged.items() if v)
        + f"; raised {found.raised / rounds * 100:.2f} %; fees "
          f"{found.fees / (rounds * STAKE):.4f} antes a round")
    console.print(f"strategy: {BASIC_STRATEGY}")
