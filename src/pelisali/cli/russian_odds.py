"""``pelisali odds russian-poker``: Russian Poker's exact house edge under the basic
strategy, every deal counted, beside the best strategy that reads only the player's cards
and draws at most a sixth card, and the strategy that never draws (Caribbean Stud's)."""

from __future__ import annotations

import json
import time
from fractions import Fraction

from rich.table import Table as RichTable

from pelisali.cli.common import console, fail, parse_sets, progress_bar

SUIT_PATTERNS = 134_459
"""The player's hands' suit patterns the count walks (its progress bar's length)."""


def _percent(value: Fraction) -> str:
    return f"{float(value) * 100:.4f} %"


def russian_odds_command(sets: list[str] | None, as_json: bool) -> None:
    """Russian Poker's exact house edges, every deal counted (``--set pays=TABLE``); kept
    in the user's cache. A negative house edge is the player's advantage."""
    from pelisali.games.russian_count import BEST_BLIND, NEVER_DRAW, STRATEGY, cached_exact
    from pelisali.rules.loader import RuleDataError
    from pelisali.rules.russian import load_russian

    settings = parse_sets(sets)
    unknown = sorted(set(settings) - {"pays"})
    if unknown:
        fail(f"russian-poker takes the setting pays, not {', '.join(unknown)}")
    try:
        rules = load_russian(str(settings["pays"]) if "pays" in settings else None)
    except RuleDataError as exc:
        fail(str(exc))
    started = time.perf_counter()
    with progress_bar(as_json) as progress:
        task = progress.add_task("counting every deal (suit patterns of the player's hand)",
                                 total=SUIT_PATTERNS)
        found, kept = cached_exact(rules.pay_table,
                                   progress=lambda n: progress.advance(task, n))
    seconds = time.perf_counter() - started
    if as_json:
        print(json.dumps({
            "game": "russian-poker", "standard": rules.standard, "pays": rules.pay_table,
            "pay_odds": rules.pays, "combinations_paid": rules.most_combinations,
            "ante_on_win": rules.ante_on_win, "price": rules.draw_price,
            "strategy": STRATEGY, "ante_edge": str(found.ante_edge),
            "element_of_risk": str(found.element_of_risk),
            "average_wager": str(found.average_wager),
            "average_price": str(found.average_price),
            "shares": {k: str(v) for k, v in found.shares.items()},
            "bet_after_sixth": str(found.bet_after_sixth),
            "best_blind": {"strategy": BEST_BLIND, "ante_edge": str(found.best_edge),
                           "element_of_risk": str(found.best_element_of_risk),
                           "average_wager": str(found.best_average_wager),
                           "shares": {k: str(v) for k, v in found.best_shares.items()},
                           "bet_after_sixth": str(found.best_bet_after_sixth)},
            "never_draw": {"strategy": NEVER_DRAW, "total_loss": found.never_draw_loss,
                           "ante_edge": str(found.never_draw_edge)},
            "deals": found.deals, "classes": found.classes,
            "from_cache": kept, "seconds": round(seconds, 3)}, indent=2))
        return
    table = RichTable(title=f"Russian Poker: exact house edges, all {found.deals:,} deals and "
                            f"every sixth card (pays {rules.pay_table}, the two best "
                            "combinations paid)")
    for col in ("strategy", "house edge", "", "measured"):
        table.add_column(col, justify="left" if col in ("strategy", "measured") else "right")
    rows = (("basic strategy (rules 1-5)", found.ante_edge, "per ante"),
            ("basic strategy (rules 1-5)", found.element_of_risk, "element of risk"),
            ("best on the player's cards, a sixth card at most", found.best_edge, "per ante"),
            ("best on the player's cards, a sixth card at most", found.best_element_of_risk,
             "element of risk"),
            ("never draw, bet on A-K-J-8-3 or better", found.never_draw_edge, "per ante"))
    for words, value, measured in rows:
        table.add_row(words, str(value), _percent(value), measured)
    console.print(table)
    for name, shares, after, wager in (
            ("basic", found.shares, found.bet_after_sixth, found.average_wager),
            ("best", found.best_shares, found.best_bet_after_sixth, found.best_average_wager)):
        console.print(f"{name}: stand and bet {float(shares['stand-bet']) * 100:.2f} %, stand "
                      f"and fold {float(shares['stand-fold']) * 100:.2f} %, buy the sixth "
                      f"card {float(shares['sixth']) * 100:.2f} % (then bet "
                      f"{float(after) * 100:.2f} %); average wager {float(wager):.4f} antes")
    if found.ante_edge < 0:
        console.print("A negative house edge is the player's advantage.")
    console.print(f"strategy: {STRATEGY}")
    console.print(f"best: {BEST_BLIND}")
    console.print(f"{rules.standard}. "
                  + (f"Read from the cache ({seconds:.2f} s)." if kept
                     else f"Counted in {seconds:.1f} s."))
