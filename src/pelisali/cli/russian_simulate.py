"""``pelisali simulate russian-poker``: Russian Poker played through its engine by the basic
strategy, the mean return per ante with its 99 % interval beside the exact figure, and the
final hands' frequencies."""

from __future__ import annotations

import json

from rich.table import Table as RichTable

from pelisali.cli.common import console, fail, parse_sets, progress_bar


def russian_simulate_command(rounds: int, seed: int, sets: list[str] | None,
                             as_json: bool) -> None:
    """``rounds`` rounds of one box by the basic strategy (``--set pays=TABLE``,
    ``strategy=refined`` for the refined one, and ``buy=trips`` to buy a non-qualifying
    dealer a game with three of a kind or better)."""
    from pelisali.analysis.russian_simulate import STAKE, simulate_russian
    from pelisali.engine import IllegalMove
    from pelisali.games.russian_poker import BASIC_STRATEGY, BUY_WITH_TRIPS, REFINED_STRATEGY
    from pelisali.money import format_cents

    with progress_bar(as_json) as progress:
        task = progress.add_task("simulating Russian Poker", total=rounds)
        try:
            found = simulate_russian(rounds, seed, parse_sets(sets),
                                     progress=lambda n: progress.advance(task, n))
        except (IllegalMove, ValueError) as exc:
            fail(str(exc))
    refined = found.settings["strategy"] == "refined"
    words = REFINED_STRATEGY if refined else BASIC_STRATEGY
    strategy = words if found.settings["buy"] == "never" \
        else f"{words} Instead of never buying a game: {BUY_WITH_TRIPS}"
    exact_return = None
    if found.settings["buy"] == "never":  # a bought game is not counted exactly
        from pelisali.games.russian_count import cached_exact

        counted = cached_exact(pays=str(found.settings["pays"]))[0]
        exact_return = -(counted.refined_edge if refined else counted.ante_edge)
    agrees = exact_return is not None and found.low <= exact_return <= found.high
    if as_json:
        print(json.dumps({**found.to_json(), "strategy": strategy,
                          "exact_return_per_ante": None if exact_return is None
                          else str(exact_return),
                          "agrees": agrees if exact_return is not None else None}, indent=2))
        return
    console.print(f"Russian Poker: {rounds:,} rounds, seed {seed}, the "
                  f"{found.settings['strategy']} strategy"
                  f"{'' if exact_return is not None else ' buying a game with trips'}, "
                  f"through the engine (ante {format_cents(STAKE)} €, pays "
                  f"{found.settings['pays']})")
    console.print(f"mean net return per ante {found.mean:+.6f}, 99 % interval "
                  f"{found.low:+.6f} … {found.high:+.6f} (the house edge per ante is its "
                  f"negative)")
    if exact_return is not None:
        console.print(f"exact return per ante {float(exact_return):+.6f} (every deal "
                      f"counted, 'odds russian-poker'): "
                      f"{'inside' if agrees else 'OUTSIDE'} the interval")
    else:
        console.print("a bought game is simulated only: no exact figure to set beside it")
    table = RichTable(title="the box's final hand (its best five)")
    for col in ("hand", "rounds", "share"):
        table.add_column(col, justify="left" if col == "hand" else "right")
    for name, count in found.hands.items():
        table.add_row(name.replace("_", " "), f"{count:,}", f"{count / rounds * 100:.4f} %")
    console.print(table)
    console.print("draws: " + ", ".join(f"{k} {v / rounds * 100:.2f} %"
                                        for k, v in found.draws.items() if v)
                  + f"; bet {found.raised / rounds * 100:.2f} %; games bought "
                    f"{found.bought / rounds * 100:.2f} %; prices "
                    f"{found.prices / (rounds * STAKE):.4f} antes a round")
    console.print(f"strategy: {strategy}")
