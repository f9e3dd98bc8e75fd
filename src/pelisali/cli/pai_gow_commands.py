"""``pelisali simulate pai-gow-poker``: Pai Gow Poker played through its engine, the box
setting by the house way, beside the published figures; ``pelisali odds pai-gow-poker``:
every seven-card hand of the 53 counted by its best five-card hand (the exact house edge
is out of reach: about 8 x 10^15 deals)."""

from __future__ import annotations

import json

from rich.table import Table as RichTable

from pelisali.cli.common import console, fail, parse_sets, progress_bar


def pai_gow_simulate_command(rounds: int, seed: int, sets: list[str] | None,
                             as_json: bool) -> None:
    """``rounds`` rounds of one box by the house way (``--set house_way=NAME wheel=low``;
    ``side=bank`` for the box banking against the dealer's hand, copies the box's)."""
    from pelisali.analysis.pai_gow_simulate import PUBLISHED, STAKE, simulate_pai_gow
    from pelisali.engine import IllegalMove
    from pelisali.money import format_cents

    with progress_bar(as_json) as progress:
        task = progress.add_task("simulating Pai Gow Poker", total=rounds)
        try:
            found = simulate_pai_gow(rounds, seed, parse_sets(sets),
                                     progress=lambda n: progress.advance(task, n))
        except (IllegalMove, ValueError) as exc:
            fail(str(exc))
    if as_json:
        print(json.dumps(found.to_json(), indent=2))
        return
    banks = found.settings["side"] == "bank"
    console.print(f"Pai Gow Poker: {rounds:,} rounds, seed {seed}, the box and the dealer "
                  f"setting by the {found.settings['house_way']} house way, through the engine "
                  f"(bet {format_cents(STAKE)} €, A-2-3-4-5 {found.settings['wheel']}, "
                  + ("the box banking against the dealer's hand, copies to the box)" if banks
                     else "the house banking, copies to the dealer)"))
    console.print(f"mean net return per bet {found.mean:+.6f}, 99 % interval "
                  f"{found.low:+.6f} … {found.high:+.6f} (the house edge per bet is its "
                  "negative)")
    table = RichTable(title="the box's results")
    for col in ("result", "rounds", "share", "99 % interval", *PUBLISHED):
        table.add_column(col, justify="left" if col == "result" else "right")
    for result in ("win", "push", "lose"):
        share, half = found.share(result)
        table.add_row(result, f"{round(share * rounds):,}", f"{share * 100:.3f} %",
                      f"{(share - half) * 100:.3f} … {(share + half) * 100:.3f} %",
                      *(f"{p.share(result) * 100:.2f} %" for p in PUBLISHED.values()))
    table.add_row("house edge", "", f"{-found.mean * 100:.3f} %",
                  f"{-found.high * 100:.3f} … {-found.low * 100:.3f} %",
                  *(f"{p.house_edge * 100:.2f} %" for p in PUBLISHED.values()))
    console.print(table)
    console.print(f"copies: high hand {found.high_copies / rounds * 100:.3f} %, low hand "
                  f"{found.low_copies / rounds * 100:.3f} % of rounds; fouls {found.fouls}; "
                  f"commission {found.commissions / (rounds * STAKE):.5f} bets a round")
    for name, published in PUBLISHED.items():
        console.print(f"{name}: {published.source}"
                      + (" (the player's side against the house's bank, for comparison)"
                         if banks else ""))


def pai_gow_census_command(sets: list[str] | None, as_json: bool) -> None:
    """Every seven-card hand of the 53 by its best five-card hand, beside the published
    count."""
    from pelisali.analysis.pai_gow_census import PUBLISHED, TOTAL, census_pai_gow

    if sets:
        fail("pai-gow-poker's count of hands takes no settings")
    with progress_bar(as_json) as progress:
        task = progress.add_task("counting every seven-card hand of the 53", total=TOTAL)
        found = census_pai_gow(progress=lambda done, _: progress.update(task, completed=done))
    if as_json:
        print(json.dumps(found.to_json(), indent=2))
        return
    console.print(f"Pai Gow Poker: all {found.total:,} seven-card hands of the 53 cards by "
                  f"their best five-card hand, counted in {found.seconds:.1f} s. The exact "
                  "house edge is not counted (about 8 x 10^15 deals): see 'pelisali "
                  "simulate pai-gow-poker'.")
    table = RichTable(title="seven-card hands by the best five")
    for col in ("hand", "hands", "probability", "published"):
        table.add_column(col, justify="left" if col == "hand" else "right")
    for name, count in found.counts.items():
        table.add_row(name.replace("_", " "), f"{count:,}", f"{count / found.total:.8f}",
                      f"{PUBLISHED[name]:,}")
    console.print(table)
    console.print("published: Brian Alspach, \"7-Card Poker Hands with Joker\" "
                  "(people.math.sfu.ca/~alspach/comp40/)"
                  + ("; the royal flushes differ: see pelisali.analysis.pai_gow_census"
                     if found.differences() else ""))
