"""``pelisali odds texas-holdem-bonus``: Texas Hold'em Bonus's exact house edges under the
basic strategy, every deal counted, with the Bonus bet's and the progressive's returns."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

from rich.table import Table as RichTable

from pelisali.cli.common import console, fail, parse_sets, print_figures, progress_bar

if TYPE_CHECKING:
    from pelisali.rules.holdem_bonus import HoldemBonusRules

BOARD_PATTERNS = 134_459
"""The boards' suit patterns the count walks (its progress bar's length)."""
PUBLISHED = {"straight": ("2.037 %", "0.5335 %"), "flush": ("5.5935 %", None)}
"""The Wizard of Odds' figures for the optimal strategy, per ante and per unit wagered, by
ante rule (the flush rule's from Scott McIntosh as the Wizard quotes it)."""


def holdem_bonus_odds_command(sets: list[str] | None, as_json: bool) -> None:
    """Texas Hold'em Bonus's exact house edges under the basic strategy and the Bonus
    bet's, every deal counted (``--set ante=straight|flush bonus=TABLE``); kept in the
    user's cache."""
    from pelisali.games.holdem_bonus import (
        BASIC_STRATEGY,
        cached_exact,
        progressive_break_even,
        progressive_return,
    )
    from pelisali.money import format_cents
    from pelisali.rules.holdem_bonus import load_holdem_bonus
    from pelisali.rules.loader import RuleDataError

    settings = parse_sets(sets)
    unknown = sorted(set(settings) - {"ante", "bonus", "strategy"})
    if unknown:
        fail(f"texas-holdem-bonus takes the settings ante, bonus and strategy, not "
             f"{', '.join(unknown)}")
    strategy = str(settings.get("strategy", "basic"))
    if strategy not in ("basic", "optimal"):
        fail(f"strategy is basic or optimal, not {strategy!r}")
    try:
        rules = load_holdem_bonus(*(str(settings[k]) if k in settings else None
                                    for k in ("ante", "bonus")))
    except RuleDataError as exc:
        fail(str(exc))
    if strategy == "optimal":
        holdem_bonus_optimal_command(rules, as_json)
        return
    started = time.perf_counter()
    with progress_bar(as_json) as progress:
        task = progress.add_task("counting every deal (suit patterns of the board)",
                                 total=BOARD_PATTERNS)
        found, kept = cached_exact(rules.ante_rule, rules.bonus_table,
                                   progress=lambda n: progress.advance(task, n))
    seconds = time.perf_counter() - started
    seed, even = rules.progressive["seed"], progressive_break_even(rules)
    if as_json:
        print(json.dumps({
            "game": "texas-holdem-bonus", "standard": rules.standard,
            "ante": rules.ante_rule, "bonus": rules.bonus_table,
            "strategy": BASIC_STRATEGY, "ante_edge": str(found.ante_edge),
            "element_of_risk": str(found.element_of_risk),
            "average_wager": str(found.average_wager),
            "shares": {k: str(v) for k, v in found.shares.items()},
            "bonus_edge": str(found.bonus_edge), "deals": found.deals,
            "progressive": {"return_at_seed": str(progressive_return(seed, rules)),
                            "break_even_pool": even},
            "published_optimal": PUBLISHED[rules.ante_pays_from][0],
            "boards": found.boards, "from_cache": kept, "seconds": round(seconds, 3)},
            indent=2))
        return
    table = RichTable(title=f"Texas Hold'em Bonus: exact house edges, all {found.deals:,} "
                            f"deals in their 20 orders (ante paid from a "
                            f"{rules.ante_pays_from}, Bonus {rules.bonus_table})")
    for col in ("bet", "house edge", "", "measured"):
        table.add_column(col, justify="left" if col in ("bet", "measured") else "right")
    for bet, edge, what in (("ante, flop, turn and river (basic strategy)", found.ante_edge,
                             "per ante"),
                            ("ante, flop, turn and river (basic strategy)",
                             found.element_of_risk, "element of risk"),
                            ("Bonus", found.bonus_edge, "per bet")):
        table.add_row(bet, str(edge), f"{float(edge) * 100:.4f} %", what)
    console.print(table)
    console.print(f"average wager {float(found.average_wager):.4f} antes; bets: "
                  + ", ".join(f"{k} {float(v) * 100:.2f} %" for k, v in found.shares.items()))
    console.print(f"strategy: {BASIC_STRATEGY}")
    console.print(f"published for the optimal strategy (the Wizard of Odds): "
                  f"{PUBLISHED[rules.ante_pays_from][0]} per ante")
    console.print(f"progressive (player's two cards and the flop, fee "
                  f"{format_cents(rules.progressive['fee'])} €): returns "
                  f"{float(progressive_return(seed, rules)) * 100:.2f} % at the seeded pool of "
                  f"{format_cents(seed)} €, 100 % from a pool of {format_cents(even)} €")
    console.print(f"{rules.standard}. "
                  + (f"Read from the cache ({seconds:.2f} s)." if kept
                     else f"Counted in {seconds:.1f} s."))


def holdem_bonus_optimal_command(rules: HoldemBonusRules, as_json: bool) -> None:
    """Texas Hold'em Bonus's optimal strategy, every deal counted, beside the published
    figures; kept in the user's cache."""
    from pelisali.games.holdem_bonus_optimal import PUBLISHED_OPTIMAL, cached_optimal, to_json

    started = time.perf_counter()
    with progress_bar(as_json) as progress:
        tasks = {"boards": progress.add_task("the flops (suit patterns of the board)",
                                             total=BOARD_PATTERNS),
                 "turns": progress.add_task("the rivers (suit patterns of the turn board)",
                                            total=None)}
        found, kept = cached_optimal(rules.ante_rule, progress=lambda stage, done, total:
                                     progress.update(tasks[stage], completed=done,
                                                     total=total))
    seconds = time.perf_counter() - started
    published = PUBLISHED_OPTIMAL[rules.ante_pays_from]
    if as_json:
        print(json.dumps({"game": "texas-holdem-bonus", "standard": rules.standard,
                          "ante": rules.ante_rule, "strategy": "optimal", **to_json(found),
                          "published": published, "from_cache": kept,
                          "seconds": round(seconds, 3)}, indent=2))
        return
    print_figures(f"Texas Hold'em Bonus, the optimal strategy: all {found.deals:,} deals in "
                  f"their 20 orders (ante paid from a {rules.ante_pays_from})",
                  [("house edge per ante", found.ante_edge, published["ante_edge"]),
                   ("element of risk", found.element_of_risk, published["element_of_risk"])])
    wager = published["average_wager"]
    console.print(f"average wager {float(found.average_wager):.4f} antes"
                  + ("" if wager is None else f" (published {wager})") + "; bets: "
                  + ", ".join(f"{k} {float(v) * 100:.2f} %" for k, v in found.shares.items()))
    console.print(f"before the flop {found.folds} of the 1,326 pairs of hole cards fold; the "
                  "turn and the river are bet when the bet's return over every card to come "
                  "and every dealer hand is positive")
    console.print("published: the Wizard of Odds, \"Texas Hold'em Bonus\" "
                  "(wizardofodds.com/games/texas-hold-em-bonus/)")
    console.print(f"{rules.standard}. "
                  + (f"Read from the cache ({seconds:.2f} s)." if kept
                     else f"Counted in {seconds:.1f} s."))
