"""``pelisali odds russian-poker``: Russian Poker's exact house edge under the basic
strategy, every deal counted, beside the refined basic strategy, the best strategy that
reads only the player's cards and draws at most a sixth card, and the strategy that never
draws (Caribbean Stud's); and the groups of hands where the best strategy's choices differ
from the basic one's."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from typing import TYPE_CHECKING

from rich.table import Table as RichTable

from pelisali.cli.common import console, fail, parse_sets, progress_bar

if TYPE_CHECKING:
    from pelisali.games.russian_count import GroupRow

SUIT_PATTERNS = 134_459
"""The player's hands' suit patterns the count walks (its progress bar's length)."""


def _percent(value: Fraction) -> str:
    return f"{float(value) * 100:.4f} %"


def _taken(taken: dict[str, int]) -> str:
    """The choice a strategy takes on a group, its share of the hands where it takes
    another on some."""
    words = {"stand-bet": "bet", "stand-fold": "fold", "sixth": "sixth"}
    most = max(taken, key=lambda k: taken[k])
    share = Fraction(taken[most], sum(taken.values()))
    return words[most] if share == 1 else f"{words[most]} {share * 100 // 1} %"  # 99 %, not 100


def _groups_table(rows: list[GroupRow]) -> RichTable:
    """The groups where the best strategy's choices or return differ from the basic
    one's: each choice's return per hand, each strategy's choice, and the gains per ante
    and hand of all C(52, 5)."""
    table = RichTable(title="Where the best strategy differs from the basic one: the return "
                            "per hand of the group of betting standing and of the sixth card "
                            "(then bet or fold as returns more), each strategy's choice, and "
                            "what the refined and the best strategy gain per hand of all "
                            "C(52, 5), in % of the ante")
    table.add_column("group", min_width=22)
    for col in ("hands", "bet", "sixth", "basic", "refined", "best", "refined +",
                "best +"):
        table.add_column(col, justify="left" if col in ("basic", "refined", "best")
                         else "right")
    for row in rows:
        table.add_row(row.name, f"{row.hands:,}", f"{float(row.choices['stand-bet']):+.2f}",
                      f"{float(row.choices['sixth-best']):+.2f}",
                      *(_taken(row.taken[s]) for s in ("basic", "refined", "best")),
                      f"{float(row.gains['refined']) * 100:.3f}",
                      f"{float(row.gains['best']) * 100:.3f}")
    return table


def russian_odds_command(sets: list[str] | None, as_json: bool) -> None:
    """Russian Poker's exact house edges, every deal counted (``--set pays=TABLE``); kept
    in the user's cache. A negative house edge is the player's advantage."""
    from pelisali.games.russian_count import (
        BEST_BLIND,
        NEVER_DRAW,
        REFINED,
        STRATEGY,
        cached_exact,
        group_report,
    )
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
    differing = group_report(found.groups, differing=True)
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
            "refined": {"strategy": REFINED, "ante_edge": str(found.refined_edge),
                        "element_of_risk": str(found.refined_element_of_risk),
                        "average_wager": str(found.refined_average_wager),
                        "shares": {k: str(v) for k, v in found.refined_shares.items()},
                        "bet_after_sixth": str(found.refined_bet_after_sixth)},
            "groups_differing": [
                {"group": row.name, "hands": row.hands,
                 "choices": {k: str(v) for k, v in row.choices.items()},
                 "returns": {k: str(v) for k, v in row.returns.items()},
                 "taken": row.taken, "gains": {k: str(v) for k, v in row.gains.items()}}
                for row in differing],
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
            ("refined basic strategy (rules 1-6)", found.refined_edge, "per ante"),
            ("refined basic strategy (rules 1-6)", found.refined_element_of_risk,
             "element of risk"),
            ("best on the player's cards, a sixth card at most", found.best_edge, "per ante"),
            ("best on the player's cards, a sixth card at most", found.best_element_of_risk,
             "element of risk"),
            ("never draw, bet on A-K-J-8-3 or better", found.never_draw_edge, "per ante"))
    for words, value, measured in rows:
        table.add_row(words, str(value), _percent(value), measured)
    console.print(table)
    for name, shares, after, wager in (
            ("basic", found.shares, found.bet_after_sixth, found.average_wager),
            ("refined", found.refined_shares, found.refined_bet_after_sixth,
             found.refined_average_wager),
            ("best", found.best_shares, found.best_bet_after_sixth, found.best_average_wager)):
        console.print(f"{name}: stand and bet {float(shares['stand-bet']) * 100:.2f} %, stand "
                      f"and fold {float(shares['stand-fold']) * 100:.2f} %, buy the sixth "
                      f"card {float(shares['sixth']) * 100:.2f} % (then bet "
                      f"{float(after) * 100:.2f} %); average wager {float(wager):.4f} antes")
    console.print(_groups_table(differing))
    if found.ante_edge < 0:
        console.print("A negative house edge is the player's advantage.")
    console.print(f"strategy: {STRATEGY}")
    console.print(f"refined: {REFINED}")
    console.print(f"best: {BEST_BLIND}")
    console.print(f"{rules.standard}. "
                  + (f"Read from the cache ({seconds:.2f} s)." if kept
                     else f"Counted in {seconds:.1f} s."))
