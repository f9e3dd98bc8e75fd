"""``pelisali odds oasis-stud --set strategy=best-blind``: Oasis Stud Poker's best strategy
among those that read only the player's cards and exchange one card at most, every deal
counted, set beside the basic strategy: its house edge, what it does, and where the two
differ."""

from __future__ import annotations

import json
import math
import time
from fractions import Fraction

from rich.table import Table as RichTable

from pelisali.cli.common import console, progress_bar
from pelisali.rules.oasis import OasisRules

SUIT_PATTERNS = 134_459
"""The player's hands' suit patterns the count walks (its progress bar's length)."""
HANDS = 2_598_960


def multi_card_words(fees: tuple[int, ...]) -> str:
    """Why exchanging more than one card is left out, for a fee table.

    >>> multi_card_words((1, 2, 3, 2, 1))[:60]
    'Exchanging two to five cards is never better on the hands ch'
    """
    return (f"Exchanging two to five cards is never better on the hands checked exactly "
            f"(docs/banked-games.md): their fees ({fees[1]}, {fees[2]}, {fees[3]} antes) "
            f"outweigh what two to four new cards bring, and five new cards (fee {fees[4]}, "
            f"the raise forced) return less than folding.")


def _percent(value: Fraction) -> str:
    """Per cent to four places, or to two significant figures below a thousandth.

    >>> _percent(Fraction(1149, 1000000)), _percent(Fraction(33, 100000000))
    ('0.1149 %', '0.000033 %')
    """
    share = float(value) * 100
    places = 4 if share == 0 or abs(share) >= 0.001 else 1 - math.floor(math.log10(abs(share)))
    return f"{share:.{places}f} %"


def oasis_best_odds_command(rules: OasisRules, as_json: bool) -> None:
    """The best-blind figures for ``rules`` (counted once a machine, about a minute, then
    read from the user's cache), as a table or JSON."""
    from pelisali.games.oasis_best import STRATEGY, cached_best_blind, to_json

    started = time.perf_counter()
    with progress_bar(as_json) as progress:
        task = progress.add_task("counting every deal, every choice (suit patterns of the "
                                 "player's hand)", total=SUIT_PATTERNS)
        found, kept = cached_best_blind(rules.fee_table, rules.pay_table,
                                        progress=lambda n: progress.advance(task, n))
    seconds = time.perf_counter() - started
    if as_json:
        print(json.dumps({"game": "oasis-stud", "standard": rules.standard,
                          "fees": rules.fee_table, "fee_antes": list(rules.fees),
                          "pays": rules.pay_table, "strategy": "best-blind",
                          "strategy_words": STRATEGY, **to_json(found),
                          "multi_card": multi_card_words(rules.fees), "from_cache": kept,
                          "seconds": round(seconds, 3)}, indent=2))
        return
    table = RichTable(title=f"Oasis Stud Poker: the best strategy that reads only the "
                            f"player's cards, all {found.deals:,} deals and every "
                            f"replacement (fees {rules.fee_table}, raise pays "
                            f"{rules.pay_table})")
    for col in ("strategy", "house edge", "", "measured"):
        table.add_column(col, justify="left" if col in ("strategy", "measured") else "right")
    table.add_row("best blind (one card at most)", str(found.ante_edge),
                  _percent(found.ante_edge), "per ante")
    table.add_row("best blind (one card at most)", str(found.element_of_risk),
                  _percent(found.element_of_risk), "element of risk")
    table.add_row("basic strategy (the same count)", str(found.basic_edge),
                  _percent(found.basic_edge), "per ante")
    table.add_row("the basic strategy gives up", str(found.gap), _percent(found.gap),
                  "per ante")
    console.print(table)
    console.print(f"stand and raise {float(found.shares['stand-raise']) * 100:.2f} %, stand "
                  f"and fold {float(found.shares['stand-fold']) * 100:.2f} %, exchange "
                  f"{float(found.shares['exchange']) * 100:.2f} % (then raise "
                  f"{float(found.raise_after_exchange) * 100:.2f} %); average fee "
                  f"{float(found.average_fee):.4f} antes, average wager "
                  f"{float(found.average_wager):.4f} antes")
    chosen = RichTable(title="What the best strategy does")
    for col in ("choice", "hands", "share"):
        chosen.add_column(col, justify="left" if col == "choice" else "right")
    for words, count in found.choices.items():
        chosen.add_row(words, f"{count:,}", f"{count / HANDS * 100:.3f} %")
    console.print(chosen)
    differ = RichTable(title="Where it differs from the basic strategy (the largest gain "
                             "first)")
    for col in ("player's hand", "best strategy", "basic strategy", "hands",
                "gain, all hands", "gain a hand"):
        differ.add_column(col, justify="right" if col.startswith(("hands", "gain")) else "left")
    for d in found.differences:
        differ.add_row(d.hand, d.best, d.basic, f"{d.hands:,}", _percent(d.gain),
                       f"{float(d.gain_each):+.4f}")
    console.print(differ)
    ex = found.exchanges
    console.print(f"hands exchanged: the same card by both strategies {ex['both']:,}, "
                  f"another card {ex['other-card']:,}, by the best strategy alone "
                  f"{ex['best-only']:,}, by the basic strategy alone {ex['basic-only']:,}")
    console.print(multi_card_words(rules.fees))
    console.print(f"strategy: {STRATEGY}")
    console.print(f"{rules.standard}. "
                  + (f"Read from the cache ({seconds:.2f} s)." if kept
                     else f"Counted in {seconds:.1f} s."))
