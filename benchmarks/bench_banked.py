"""The banked games' exact analyses: how long each takes, and its figure beside the
published one (the Wizard of Odds' pages for each game, where the rules match).

Run from the repository root::

    .venv/bin/python benchmarks/bench_banked.py [--repeat K] [--json]

* Three Card Poker: :func:`pelisali.games.three_card_poker.exact`, all 407,170,400 deals
  (each player hand by its suit pattern against every dealer hand of the 49 cards left),
  for each ante bonus and Pair Plus table of the rule data;
* Red Dog: :func:`pelisali.games.red_dog.exact`, every ordered two-card deal by rank and
  every third card, for each shoe of the rule data;
* Baccara, chemin de fer: :func:`pelisali.games.chemin_de_fer.exact`, every deal of up to
  six cards by value for the rule data's choices (the house edges shown as positive);
* Ultimate Texas Hold'em: :func:`pelisali.games.ultimate_texas.exact`, the simple
  strategy over all 2,781,381,002,400 deals (134,459 board suit patterns, each against
  every player and dealer hand), counted once (``--no-ultimate`` leaves it out: it takes
  about two minutes); its board patterns and flop table are timed apart as ``tables``;
  and :func:`pelisali.games.ultimate_optimal.optimal`, the optimal strategy over the same
  deals (each flop decision over its 1,081 turns and rivers, each decision before the
  flop over its 19,600 flops);
* Texas Hold'em Bonus: :func:`pelisali.games.holdem_bonus.exact`, the basic strategy over
  all 2,781,381,002,400 deals in their 20 orders of flop, turn and river (the same board
  patterns and dealer counts), counted once (``--no-holdem-bonus`` leaves it out: it takes
  about three minutes), and the Bonus bet's exact edge; and
  :func:`pelisali.games.holdem_bonus_optimal.optimal`, the optimal strategy over the same
  deals (about five and a half minutes);
* Oasis Stud Poker: :func:`pelisali.games.oasis_count.exact`, the basic strategy over every
  player hand (134,459 suit patterns), every replacement card and every dealer hand,
  counted once (``--no-oasis`` leaves it out); its dealer-count tables and the hand
  patterns are timed apart (``oasis_tables_seconds``). The strategies that never exchange
  are Caribbean Stud's: the one raising on A-K-J-8-3 or better is shown beside the Wizard
  of Odds' exact total;
* Russian Poker: :func:`pelisali.games.russian_count.exact`, the basic strategy, the best
  strategy on the player's cards (a sixth card at most) and never drawing, over every
  player hand, every sixth card and every dealer hand, counted once (``--no-russian``
  leaves it out); the tables it reads that are not yet built (Oasis Stud's, and the
  four-card counts) are timed apart (``russian_tables_seconds``);
* RAY's Blackjack: :func:`pelisali.analysis.blackjack_ca.expected_return`, the exact
  combinatorial analysis of the basic strategy for the rule set ``ray``
  (``banked/ray-blackjack.toml``), and the cost of each of its rules that differ from
  the common six-deck game, beside the Wizard of Odds' rule costs;
* Pai Gow Poker: :func:`pelisali.games.pai_gow_count.count_pai_gow`, all
  8,250,459,031,214,400 deals of the box's seven cards and the dealer's seven, both by
  the house way, over the machine's cores, counted once (``--no-pai-gow`` leaves it out);
  the compiled loops are compiled (or read from numba's cache) first, on a small deck.

Times are wall seconds, the best of ``--repeat`` runs in this process, each counting
afresh (the first run of Three Card Poker also builds its hand tables: it is timed
apart as ``first``).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from machine import cpu_line  # benchmarks/machine.py, beside this script

from pelisali.analysis.blackjack_ca import expected_return
from pelisali.games import (
    chemin_de_fer,
    holdem_bonus,
    holdem_bonus_optimal,
    holdem_count,
    oasis_best,
    oasis_count,
    pai_gow_count,
    red_dog,
    russian_count,
    three_card_poker,
    ultimate_optimal,
    ultimate_texas,
)
from pelisali.games.blackjack_rules import BlackjackConfig

# (what, published house edge in per cent): the Wizard of Odds' figures for these rules.
PUBLISHED_THREE_CARD = {("1-4-5", "ante"): 3.37, ("1-4-5", "element of risk"): 2.01,
                        ("1-4-6-30-40", "pair plus"): 2.32, ("1-3-6-30-40", "pair plus"): 7.28}
PUBLISHED_RED_DOG = {1: 3.155, 2: 3.077, 4: 2.88, 6: 2.80, 8: 2.75}
# With every choice drawing, chemin de fer's tableau is punto banco's: its bets' edges.
PUBLISHED_PUNTO_BANCO = {(6, "player"): 1.24, (6, "banker"): 1.06, (8, "player"): 1.24,
                         (8, "banker"): 1.06}
# Trips 50-40-30-8-6-5-3; the ante's published 2.19 % is the optimal strategy's, which
# costs less than the simple one counted here.
PUBLISHED_ULTIMATE = {"trips": 1.90, "optimal ante": 2.19, "optimal element of risk": 0.53}
# Las Vegas rules (the ante paid from a straight): the optimal strategy's house edge and
# element of risk; the basic strategy counted here bets the turn and river less well.
PUBLISHED_HOLDEM_BONUS = {"optimal ante": 2.037, "optimal element of risk": 0.5335}
# Caribbean Stud raising on A-K-J-8-3 or better: the Wizard of Odds' exact total loss,
# 1,059,715,400,580 antes over 19,933,230,517,200 deals; no Oasis figure for this strategy.
PUBLISHED_CARIBBEAN_AKJ83 = 5.3163
# The cost of each of RAY's blackjack rules against the common six-deck game, in per cent:
# the Wizard of Odds' rule variations.
PUBLISHED_BLACKJACK_COSTS = {("dealer_soft_17", "hit"): 0.22, ("double_on", "9-11"): 0.09,
                             ("double_after_split", False): 0.14}


def timed(repeat: int, work: Any) -> tuple[float, Any]:
    best, found = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        found = work()
        best = min(best, time.perf_counter() - start)
    return best, found


def fresh_three_card(bonus: str, pairs: str) -> three_card_poker.Exact:
    """The count itself, not its answer kept from the last call (the hand tables stay)."""
    clear = getattr(three_card_poker.exact, "cache_clear", None)
    if clear is not None:
        clear()
    return three_card_poker.exact(bonus, pairs)


def percent(value: Fraction) -> float:
    return round(float(value) * 100, 4)


def edge_rows(game: str, rules: str, found: Any, published: tuple[float | None, float | None],
              seconds: float) -> list[dict[str, Any]]:
    """The rows of a count's house edge per ante and element of risk (``found`` has
    ``ante_edge`` and ``element_of_risk``), beside the published figures of each."""
    return [{"game": game, "rules": rules, "figure": "ante", "pelisali": percent(found.ante_edge),
             "exact": str(found.ante_edge), "published": published[0], "seconds": seconds},
            {"game": game, "rules": "the same", "figure": "element of risk",
             "pelisali": percent(found.element_of_risk), "exact": str(found.element_of_risk),
             "published": published[1], "seconds": seconds}]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-ultimate", action="store_true")
    parser.add_argument("--no-holdem-bonus", action="store_true")
    parser.add_argument("--no-oasis", action="store_true")
    parser.add_argument("--no-russian", action="store_true")
    parser.add_argument("--no-pai-gow", action="store_true")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    start = time.perf_counter()
    three_card_poker.exact()
    first = time.perf_counter() - start
    for bonus, pairs in (("1-4-5", "1-4-6-30-40"), ("1-3-5", "1-3-6-30-40"),
                         ("1-4-5", "1-4-5-30-40")):
        seconds, odds = timed(args.repeat, lambda b=bonus, p=pairs: fresh_three_card(b, p))
        rows += [
            {"game": "Three Card Poker", "rules": f"ante bonus {bonus}", "figure": "ante",
             "pelisali": percent(odds.ante_edge), "exact": str(odds.ante_edge),
             "published": PUBLISHED_THREE_CARD.get((bonus, "ante")), "seconds": seconds},
            {"game": "Three Card Poker", "rules": f"ante bonus {bonus}",
             "figure": "element of risk", "pelisali": percent(odds.element_of_risk),
             "exact": str(odds.element_of_risk),
             "published": PUBLISHED_THREE_CARD.get((bonus, "element of risk")),
             "seconds": seconds},
            {"game": "Three Card Poker", "rules": f"Pair Plus {pairs}", "figure": "pair plus",
             "pelisali": percent(odds.pair_plus_edge), "exact": str(odds.pair_plus_edge),
             "published": PUBLISHED_THREE_CARD.get((pairs, "pair plus")), "seconds": seconds}]
    for decks in (1, 2, 4, 6, 8):
        seconds, found = timed(args.repeat, lambda d=decks: red_dog.exact(decks=d))
        rows.append({"game": "Red Dog", "rules": f"{decks} deck{'s' if decks > 1 else ''}, "
                     "5-4-2-1, trips 11:1", "figure": "ante", "pelisali": percent(found.edge),
                     "exact": str(found.edge), "published": PUBLISHED_RED_DOG[decks],
                     "seconds": seconds})
    for decks in (6, 8):
        def count(d: int = decks) -> chemin_de_fer.CheminOdds:
            chemin_de_fer.parts.cache_clear()  # the count itself, not its kept answer
            return chemin_de_fer.exact(decks=d)
        seconds, chem = timed(args.repeat, count)
        rows.append({"game": "Chemin de fer", "rules": f"{decks} decks, draw on five",
                     "figure": "player", "pelisali": percent(-chem.player_value),
                     "exact": str(-chem.player_value),
                     "published": PUBLISHED_PUNTO_BANCO[(decks, "player")], "seconds": seconds})
        rows.append({"game": "Chemin de fer", "rules": f"{decks} decks, 5 % commission",
                     "figure": "bank", "pelisali": percent(-chem.banker_value),
                     "exact": str(-chem.banker_value),
                     "published": PUBLISHED_PUNTO_BANCO[(decks, "banker")], "seconds": seconds})
    tables = 0.0
    if not args.no_ultimate:
        start = time.perf_counter()
        ultimate_texas.board_classes()
        ultimate_texas.flop_table()
        tables = time.perf_counter() - start
        seconds, uth = timed(1, ultimate_texas.exact)
        rows += [{"game": "Ultimate Texas", "rules": "simple strategy, blind 500-50-10-3-3/2-1",
                  "figure": "ante", "pelisali": percent(uth.ante_edge),
                  "exact": str(uth.ante_edge),
                  "published": PUBLISHED_ULTIMATE["optimal ante"], "seconds": seconds},
                 {"game": "Ultimate Texas", "rules": "the same", "figure": "element of risk",
                  "pelisali": percent(uth.element_of_risk), "exact": str(uth.element_of_risk),
                  "published": None, "seconds": seconds},
                 {"game": "Ultimate Texas", "rules": "Trips 50-40-30-8-6-5-3",
                  "figure": "trips", "pelisali": percent(uth.trips_edge),
                  "exact": str(uth.trips_edge), "published": PUBLISHED_ULTIMATE["trips"],
                  "seconds": seconds}]
        seconds, best = timed(1, ultimate_optimal.optimal)
        rows += edge_rows("Ultimate Texas", "the optimal strategy", best,
                          (PUBLISHED_ULTIMATE["optimal ante"],
                           PUBLISHED_ULTIMATE["optimal element of risk"]), seconds)
    if not args.no_holdem_bonus:
        seconds, thb = timed(1, holdem_bonus.exact)
        rows += [{"game": "Hold'em Bonus", "rules": "basic strategy, ante from a straight",
                  "figure": "ante", "pelisali": percent(thb.ante_edge),
                  "exact": str(thb.ante_edge),
                  "published": PUBLISHED_HOLDEM_BONUS["optimal ante"], "seconds": seconds},
                 {"game": "Hold'em Bonus", "rules": "the same", "figure": "element of risk",
                  "pelisali": percent(thb.element_of_risk), "exact": str(thb.element_of_risk),
                  "published": PUBLISHED_HOLDEM_BONUS["optimal element of risk"],
                  "seconds": seconds},
                 {"game": "Hold'em Bonus", "rules": "Bonus 1000-30-25-20-15-10-5-3",
                  "figure": "bonus", "pelisali": percent(thb.bonus_edge),
                  "exact": str(thb.bonus_edge), "published": None, "seconds": seconds}]
        seconds, best_thb = timed(1, holdem_bonus_optimal.optimal)
        rows += edge_rows("Hold'em Bonus", "the optimal strategy", best_thb,
                          (PUBLISHED_HOLDEM_BONUS["optimal ante"],
                           PUBLISHED_HOLDEM_BONUS["optimal element of risk"]), seconds)
    oasis_tables = 0.0
    if not args.no_oasis:
        start = time.perf_counter()
        oasis_count.tables()
        oasis_count.board_classes()
        oasis_tables = time.perf_counter() - start
        seconds, oasis = timed(1, oasis_count.exact)
        rows += [{"game": "Oasis Stud", "rules": "basic strategy, fees 1-2-3-2-1",
                  "figure": "ante", "pelisali": percent(oasis.ante_edge),
                  "exact": str(oasis.ante_edge), "published": None, "seconds": seconds},
                 {"game": "Oasis Stud", "rules": "the same", "figure": "element of risk",
                  "pelisali": percent(oasis.element_of_risk),
                  "exact": str(oasis.element_of_risk), "published": None,
                  "seconds": seconds},
                 {"game": "Oasis Stud", "rules": "never exchange, A-K-J-8-3",
                  "figure": "ante", "pelisali": percent(oasis.never_exchange_edge("A-K-J-8-3")),
                  "exact": str(oasis.never_exchange_edge("A-K-J-8-3")),
                  "published": PUBLISHED_CARIBBEAN_AKJ83, "seconds": seconds}]
    russian_tables = 0.0
    if not args.no_russian:
        start = time.perf_counter()
        oasis_count.tables()
        holdem_count.board_classes()
        oasis_best.four_counts()
        russian_tables = time.perf_counter() - start
        seconds, russian = timed(1, russian_count.exact)
        rows += [{"game": "Russian Poker", "rules": "basic strategy, pays 100-...-1-1",
                  "figure": "ante", "pelisali": percent(russian.ante_edge),
                  "exact": str(russian.ante_edge), "published": None, "seconds": seconds},
                 {"game": "Russian Poker", "rules": "the same", "figure": "element of risk",
                  "pelisali": percent(russian.element_of_risk),
                  "exact": str(russian.element_of_risk), "published": None,
                  "seconds": seconds},
                 {"game": "Russian Poker", "rules": "best on the player's cards",
                  "figure": "ante", "pelisali": percent(russian.best_edge),
                  "exact": str(russian.best_edge), "published": None, "seconds": seconds},
                 {"game": "Russian Poker", "rules": "never draw, A-K-J-8-3",
                  "figure": "ante", "pelisali": percent(russian.never_draw_edge),
                  "exact": str(russian.never_draw_edge), "published": None,
                  "seconds": seconds}]
    # RAY's Blackjack: the rule set, and each of its rules' cost from the six-deck base
    base_config = BlackjackConfig.from_settings({"decks": "6"})
    seconds, ray = timed(args.repeat, lambda: expected_return(
        BlackjackConfig.from_settings({"rule_set": "ray"})))
    rows.append({"game": "RAY's Blackjack", "rules": "6 decks, S17, 9-11, no DAS, 3:2",
                 "figure": "basic strategy", "pelisali": percent(Fraction(ray.edge)),
                 "exact": str(ray.edge), "published": None, "seconds": seconds})
    base = expected_return(base_config).edge
    for change, published in PUBLISHED_BLACKJACK_COSTS.items():
        key, value = change
        seconds, found = timed(1, lambda k=key, v=value: expected_return(
            BlackjackConfig.from_settings({"decks": "6", k: v})))
        rows.append({"game": "Blackjack, 6 decks", "rules": f"{key}={value}",
                     "figure": "rule cost", "pelisali": round((found.edge - base) * 100, 4),
                     "exact": str(found.edge - base), "published": published,
                     "seconds": seconds})
    if not args.no_pai_gow:
        pai_gow_count.count_pai_gow(deck=pai_gow_count.small_deck("TJQKA", "cdh"))
        workers = os.cpu_count() or 1
        seconds, pai_gow = timed(1, lambda: pai_gow_count.count_pai_gow(workers=workers))
        published = pai_gow_count.PUBLISHED_EXACT
        rows += [{"game": "Pai Gow Poker", "rules": "house way both sides, Foxwoods",
                  "figure": "bet", "pelisali": percent(-pai_gow.box_return),
                  "exact": str(-pai_gow.box_return),
                  "published": round(published.box_edge * 100, 4), "seconds": seconds},
                 {"game": "Pai Gow Poker", "rules": "the same, the box banking",
                  "figure": "bank", "pelisali": percent(-pai_gow.bank_return),
                  "exact": str(-pai_gow.bank_return),
                  "published": None, "seconds": seconds}]
    out = {"machine": f"{cpu_line()}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
           "three_card_first_seconds": first, "ultimate_tables_seconds": tables,
           "oasis_tables_seconds": oasis_tables, "russian_tables_seconds": russian_tables,
           "rows": rows}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(out["machine"])
    print(f"Three Card Poker, first run (hand tables built): {first:.2f} s")
    if tables:
        print(f"Ultimate Texas Hold'em, board patterns and flop table: {tables:.2f} s "
              "(its published ante figure is the optimal strategy's)")
    if oasis_tables:
        print(f"Oasis Stud Poker, dealer-count tables and hand patterns: {oasis_tables:.2f} s")
    if russian_tables:
        print(f"Russian Poker, the dealer-count tables not yet built: {russian_tables:.2f} s")
    print(f"{'game':17s} {'rules':30s} {'figure':16s} {'pelisali %':>11s} {'published':>10s} "
          f"{'seconds':>8s}")
    for r in rows:
        shown = "—" if r["published"] is None else f"{r['published']:.3f}"
        print(f"{r['game']:17s} {r['rules']:30s} {r['figure']:16s} {r['pelisali']:11.4f} "
              f"{shown:>10s} {r['seconds']:8.3f}")


if __name__ == "__main__":
    main()
