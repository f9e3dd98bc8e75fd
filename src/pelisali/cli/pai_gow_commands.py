"""``pelisali simulate pai-gow-poker``: Pai Gow Poker played through its engine, the box
setting by the house way, beside the published figures; ``pelisali odds pai-gow-poker``:
the exact house edge, every deal of the box's seven cards and the dealer's seven counted
(:mod:`pelisali.games.pai_gow_count`), and every seven-card hand of the 53 counted by its
best five-card hand."""

from __future__ import annotations

import json
import time

from rich.table import Table as RichTable

from pelisali.cli.common import console, fail, parse_sets, progress_bar


def pai_gow_simulate_command(rounds: int, seed: int, sets: list[str] | None,
                             as_json: bool) -> None:
    """``rounds`` rounds of one box by the house way (``--set house_way=NAME wheel=low``;
    ``side=bank`` for the box banking against the dealer's hand, copies the box's)."""
    from pelisali.analysis.pai_gow_simulate import PUBLISHED, STAKE, simulate_pai_gow
    from pelisali.engine import IllegalMove
    from pelisali.engine.pai_gow import PaiGowEngine
    from pelisali.games.pai_gow_count import cached_count
    from pelisali.money import format_cents

    with progress_bar(as_json) as progress:
        task = progress.add_task("simulating Pai Gow Poker", total=rounds)
        try:
            found = simulate_pai_gow(rounds, seed, parse_sets(sets),
                                     progress=lambda n: progress.advance(task, n))
        except (IllegalMove, ValueError) as exc:
            fail(str(exc))
        # the same rules' exact figures, every deal counted (read from the cache once
        # counted on this machine)
        rules = PaiGowEngine.from_settings({"house_way": found.settings["house_way"],
                                            "wheel": found.settings["wheel"]}).rules
        counting = progress.add_task("the exact count (once a machine)", total=None)
        exact, _ = cached_count(rules, progress=lambda _, done, total: progress.update(
            counting, completed=done, total=total))
    banks = found.settings["side"] == "bank"
    exact_return = exact.bank_return if banks else exact.box_return
    # the bank's wins are the deals the box loses, copies included, and the other way
    exact_share = {"win": exact.share("lose" if banks else "win"), "push": exact.share("push"),
                   "lose": exact.share("win" if banks else "lose")}
    agrees = found.low <= exact_return <= found.high
    if as_json:
        print(json.dumps({**found.to_json(), "exact_return_per_bet": str(exact_return),
                          "exact_shares": {k: str(v) for k, v in exact_share.items()},
                          "agrees": agrees}, indent=2))
        return
    console.print(f"Pai Gow Poker: {rounds:,} rounds, seed {seed}, the box and the dealer "
                  f"setting by the {found.settings['house_way']} house way, through the engine "
                  f"(bet {format_cents(STAKE)} €, A-2-3-4-5 {found.settings['wheel']}, "
                  + ("the box banking against the dealer's hand, copies to the box)" if banks
                     else "the house banking, copies to the dealer)"))
    console.print(f"mean net return per bet {found.mean:+.6f}, 99 % interval "
                  f"{found.low:+.6f} … {found.high:+.6f} (the house edge per bet is its "
                  "negative)")
    console.print(f"exact return per bet {float(exact_return):+.6f} (every deal counted), "
                  + ("inside" if agrees else "OUTSIDE") + " the interval")
    table = RichTable(title="the box's results")
    for col in ("result", "rounds", "share", "99 % interval", "exact", *PUBLISHED):
        table.add_column(col, justify="left" if col == "result" else "right")
    for result in ("win", "push", "lose"):
        share, half = found.share(result)
        table.add_row(result, f"{round(share * rounds):,}", f"{share * 100:.3f} %",
                      f"{(share - half) * 100:.3f} … {(share + half) * 100:.3f} %",
                      f"{float(exact_share[result]) * 100:.3f} %",
                      *(f"{p.share(result) * 100:.2f} %" for p in PUBLISHED.values()))
    table.add_row("house edge", "", f"{-found.mean * 100:.3f} %",
                  f"{-found.high * 100:.3f} … {-found.low * 100:.3f} %",
                  f"{float(-exact_return) * 100:.3f} %",
                  *(f"{p.house_edge * 100:.2f} %" for p in PUBLISHED.values()))
    console.print(table)
    console.print(f"copies: high hand {found.high_copies / rounds * 100:.3f} %, low hand "
                  f"{found.low_copies / rounds * 100:.3f} % of rounds; fouls {found.fouls}; "
                  f"commission {found.commissions / (rounds * STAKE):.5f} bets a round")
    for name, published in PUBLISHED.items():
        console.print(f"{name}: {published.source}"
                      + (" (the player's side against the house's bank, for comparison)"
                         if banks else ""))


def pai_gow_odds_command(sets: list[str] | None, as_json: bool) -> None:
    """The exact house edge of the house way against the house way (``--set
    house_way=NAME wheel=low``), beside the published exact figures, then the count of
    seven-card hands."""
    from pelisali.analysis.pai_gow_census import PUBLISHED, TOTAL, census_pai_gow
    from pelisali.engine import IllegalMove
    from pelisali.engine.pai_gow import PaiGowEngine
    from pelisali.games.pai_gow_count import PUBLISHED_EXACT, cached_count, to_json

    chosen = parse_sets(sets)
    unknown = sorted(set(chosen) - {"house_way", "wheel"})
    if unknown:
        fail(f"pai-gow-poker's odds take house_way and wheel, not {', '.join(unknown)}")
    try:
        rules = PaiGowEngine.from_settings(chosen).rules
    except (IllegalMove, ValueError) as exc:
        fail(str(exc))
    started = time.perf_counter()
    with progress_bar(as_json) as progress:
        setting = progress.add_task("setting each class of seven-card hands by the house way",
                                    total=None)
        counting = progress.add_task("counting the deals (card sets by inclusion-exclusion)",
                                     total=8)

        def told(stage: str, done: int, total: int) -> None:
            progress.update(setting if stage == "setting" else counting, completed=done,
                            total=total)

        exact, cached = cached_count(rules, progress=told)
        seconds = time.perf_counter() - started
        task = progress.add_task("counting every seven-card hand of the 53", total=TOTAL)
        found = census_pai_gow(progress=lambda done, _: progress.update(task, completed=done))
    published = PUBLISHED_EXACT if (rules.house_way.name, rules.wheel) == (
        "foxwoods", "second") else None
    if as_json:
        print(json.dumps({**found.to_json(), "exact": {
            **to_json(exact), "house_way": rules.house_way.name, "wheel": rules.wheel,
            "box_edge": str(-exact.box_return), "bank_return": str(exact.bank_return),
            "cached": cached, "seconds": round(seconds, 2),
            "published": published.to_json() if published else None}}, indent=2))
        return
    console.print(f"Pai Gow Poker, exactly: all {exact.deals:,} deals of the box's seven "
                  f"cards and the dealer's seven, both setting by the {rules.house_way.name} "
                  f"house way (A-2-3-4-5 {rules.wheel}), the commission "
                  f"{exact.commission * 100} % of a win; "
                  + ("read from the cache" if cached else
                     f"{exact.classes:,} classes of hands set, counted in {seconds:.0f} s"))
    table = RichTable(title="the box's results against the house's bank")
    columns = ["result", "deals", "probability"] + (["published (exact)"] if published else [])
    for col in columns:
        table.add_column(col, justify="left" if col == "result" else "right")
    shown = {"push": published.push} if published else {}
    for result, count in (("win", exact.wins), ("push", exact.pushes),
                          ("lose", exact.losses)):
        table.add_row(result, f"{count:,}", f"{float(exact.share(result)) * 100:.4f} %",
                      *([f"{shown[result] * 100:.4f} %" if result in shown else "—"]
                        if published else []))
    table.add_row("house edge", "", f"{float(-exact.box_return) * 100:.4f} %",
                  *([f"{published.box_edge * 100:.4f} %"] if published else []))
    table.add_row("the bank's return", "", f"{float(exact.bank_return) * 100:+.4f} %",
                  *(["—"] if published else []))
    console.print(table)
    console.print(f"house edge per bet {-exact.box_return} (the box's return "
                  f"{float(exact.box_return):+.6f}); a box banking against the dealer's hand, "
                  f"copies its own: {float(exact.bank_return):+.6f} a unit banked")
    if published:
        console.print(f"published: {published.source}")
    console.print(f"Every seven-card hand of the 53 by its best five-card hand, counted in "
                  f"{found.seconds:.1f} s:")
    hands = RichTable(title="seven-card hands by the best five")
    for col in ("hand", "hands", "probability", "published"):
        hands.add_column(col, justify="left" if col == "hand" else "right")
    for name, count in found.counts.items():
        hands.add_row(name.replace("_", " "), f"{count:,}", f"{count / found.total:.8f}",
                      f"{PUBLISHED[name]:,}")
    console.print(hands)
    console.print("published: Brian Alspach, \"7-Card Poker Hands with Joker\" "
                  "(people.math.sfu.ca/~alspach/comp40/)"
                  + ("; the royal flushes differ: see pelisali.analysis.pai_gow_census"
                     if found.differences() else ""))
