"""``pelisali odds oasis-stud``: Oasis Stud Poker's exact house edge under the basic
strategy, every deal counted, with what each exchange rule gains and the strategies that
never exchange (Caribbean Stud's) beside the Wizard of Odds' exact totals."""

from __future__ import annotations

import json
import time

from rich.table import Table as RichTable

from pelisali.cli.common import console, fail, parse_sets, progress_bar

SUIT_PATTERNS = 134_459
"""The player's hands' suit patterns the count walks (its progress bar's length)."""
PUBLISHED_TOTAL_LOSS = {"A-K-J-8-3": 211_943_080_116, "pair": 218_054_420_292,
                        "everything": 662_072_067_612}
"""The Wizard of Odds' exact Caribbean Stud totals (the player's loss in antes over
5 C(52, 5) C(47, 5) deals, the dealer's up card among them), divided by 5: over the
C(52, 5) C(47, 5) deals counted here, for the pay table 100-50-20-7-5-4-3-2-1-1."""
PUBLISHED_PAYS = "100-50-20-7-5-4-3-2-1-1"
"""The pay table the published totals are for."""
NEVER_EXCHANGE_WORDS = {"A-K-J-8-3": "raise on A-K-J-8-3 or better",
                        "pair": "raise on a pair or better", "everything": "always raise"}
STRATEGIES = ("basic", "best-blind")
"""``--set strategy=``: the stated basic strategy, or the best that reads only the player's
cards and exchanges one card at most (:mod:`pelisali.cli.oasis_best_odds`)."""
EXCHANGE_WORDS = {"four-flush": "four to a flush (rule 2)",
                  "open-ended": "four in a row open at both ends (rule 3)"}


def oasis_odds_command(sets: list[str] | None, as_json: bool) -> None:
    """Oasis Stud Poker's exact house edge under the basic strategy, every deal counted
    (``--set fees=TABLE pays=TABLE``, ``strategy=best-blind`` for the best strategy that
    reads only the player's cards); kept in the user's cache."""
    from pelisali.games.oasis_count import STRATEGY, cached_exact
    from pelisali.rules.loader import RuleDataError
    from pelisali.rules.oasis import load_oasis

    settings = parse_sets(sets)
    unknown = sorted(set(settings) - {"fees", "pays", "strategy"})
    if unknown:
        fail(f"oasis-stud takes the settings fees and pays (and strategy), not "
             f"{', '.join(unknown)}")
    strategy = str(settings.get("strategy", "basic"))
    if strategy not in STRATEGIES:
        fail(f"strategy is one of {', '.join(STRATEGIES)}, not {strategy!r}")
    try:
        rules = load_oasis(*(str(settings[k]) if k in settings else None
                             for k in ("fees", "pays")))
    except RuleDataError as exc:
        fail(str(exc))
    if strategy == "best-blind":
        from pelisali.cli.oasis_best_odds import oasis_best_odds_command

        oasis_best_odds_command(rules, as_json)
        return
    started = time.perf_counter()
    with progress_bar(as_json) as progress:
        task = progress.add_task("counting every deal (suit patterns of the player's hand)",
                                 total=SUIT_PATTERNS)
        found, kept = cached_exact(rules.fee_table, rules.pay_table,
                                   progress=lambda n: progress.advance(task, n))
    seconds = time.perf_counter() - started
    published = rules.pay_table == PUBLISHED_PAYS
    never = {name: {"total_loss": loss, "edge": str(found.never_exchange_edge(name)),
                    "published_total_loss": PUBLISHED_TOTAL_LOSS[name] if published else None}
             for name, loss in found.never_exchange.items()}
    if as_json:
        print(json.dumps({
            "game": "oasis-stud", "standard": rules.standard, "fees": rules.fee_table,
            "fee_antes": list(rules.fees), "pays": rules.pay_table,
            "strategy": STRATEGY, "ante_edge": str(found.ante_edge),
            "element_of_risk": str(found.element_of_risk),
            "average_wager": str(found.average_wager),
            "average_fee": str(found.average_fee),
            "shares": {k: str(v) for k, v in found.shares.items()},
            "raise_after_exchange": str(found.raise_after_exchange),
            "exchanges": {k: {"hands": v.hands, "exchange": str(v.exchange),
                              "stand": str(v.stand), "better": v.better}
                          for k, v in found.exchanges.items()},
            "never_exchange": never, "deals": found.deals, "classes": found.classes,
            "from_cache": kept, "seconds": round(seconds, 3)}, indent=2))
        return
    table = RichTable(title=f"Oasis Stud Poker: exact house edges, all {found.deals:,} deals "
                            f"and every replacement card (fees {rules.fee_table}, raise "
                            f"pays {rules.pay_table})")
    for col in ("strategy", "house edge", "", "measured"):
        table.add_column(col, justify="left" if col in ("strategy", "measured") else "right")
    table.add_row("basic strategy (exchanges one card)", str(found.ante_edge),
                  f"{float(found.ante_edge) * 100:.4f} %", "per ante")
    table.add_row("basic strategy (exchanges one card)", str(found.element_of_risk),
                  f"{float(found.element_of_risk) * 100:.4f} %", "element of risk")
    for name, words in NEVER_EXCHANGE_WORDS.items():
        edge = found.never_exchange_edge(name)
        table.add_row(f"never exchange, {words}", str(edge), f"{float(edge) * 100:.4f} %",
                      "per ante")
    console.print(table)
    console.print(f"stand and raise {float(found.shares['stand-raise']) * 100:.2f} %, stand "
                  f"and fold {float(found.shares['stand-fold']) * 100:.2f} %, exchange "
                  f"{float(found.shares['exchange']) * 100:.2f} % (then raise "
                  f"{float(found.raise_after_exchange) * 100:.2f} %); average fee "
                  f"{float(found.average_fee):.4f} antes, average wager "
                  f"{float(found.average_wager):.4f} antes")
    for name, rule in found.exchanges.items():
        console.print(f"{EXCHANGE_WORDS[name]}: {rule.hands:,} hands; exchanging returns "
                      f"{float(rule.exchange):+.4f} per ante (fee included), standing "
                      f"{float(rule.stand):+.4f}; exchanging is better in {rule.better:,}")
    if published:
        same = all(v["total_loss"] == v["published_total_loss"] for v in never.values())
        console.print("never exchanging, the total losses over these deals "
                      + ("equal" if same else "DIFFER FROM")
                      + " the Wizard of Odds' exact Caribbean Stud totals (divided by 5 "
                        "for the dealer's up card): "
                      + ", ".join(f"{v['total_loss']:,}" for v in never.values()))
    console.print(f"strategy: {STRATEGY}")
    console.print(f"{rules.standard}. "
                  + (f"Read from the cache ({seconds:.2f} s)." if kept
                     else f"Counted in {seconds:.1f} s."))
