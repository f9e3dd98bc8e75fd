"""Oasis Stud Poker's best strategy that reads only the player's cards: the count's time
and rate, exchanges of two to five cards valued exactly on a sample of hands, and what a
strategy that also reads the dealer's up card would cost to count.

Run from the repository root::

    .venv/bin/python benchmarks/bench_oasis_best.py [--json] [--no-count] [--no-five]

* the tables (:func:`pelisali.games.oasis_count.tables`, the suit patterns and
  :func:`pelisali.games.oasis_best.four_counts`), then the best-blind count
  (:func:`pelisali.games.oasis_best.best_blind`) over all 134,459 suit patterns, its
  figures, its look-ups and their rate (``--no-count`` leaves it out; the rate is then
  measured on every 50th suit pattern);
* for each hand of :data:`SAMPLE`, the exact return of every exchange of two, three and
  four cards (:func:`pelisali.games.oasis_best.exchange_values`) and, for the hands of
  :data:`FIVE`, of exchanging all five (about half a minute each; ``--no-five`` leaves
  them out), beside the hand's best choice of one card at most;
* the size and time of the count that would read the dealer's up card too, from the
  rate measured here.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any

import numpy as np
from machine import cpu_line  # benchmarks/machine.py, beside this script

from pelisali.cards import DECK
from pelisali.games import oasis_best, oasis_count
from pelisali.games.holdem_count import board_classes

SAMPLE = ("Ac Kc Qc 7d 2h", "Jc Tc 9c 4d 2h", "2c 2d 7h 9s Kd", "Ac 9d 7h 4s 2c",
          "2c 3d 5h 8s Tc", "Kc Jd 8h 5s 2c", "Ac Qd 9h 6s 3c")
"""Hands where keeping three or two cards looks most promising (three to a royal flush,
to a straight flush, a low pair, a lone ace) and hands that fold whatever one card
brings (nothing better than -1: where a costlier exchange would have to beat folding)."""
FIVE = ("2c 3d 5h 8s Tc", "Kc Jd 8h 5s 2c", "Ac Qd 9h 6s 3c")
"""The hands whose five-card exchange (fee 1, the raise forced) is counted exactly."""
LOOKUPS_A_PAIR = {0: 28, 1: 59}
"""Table look-ups for each pair of a draw and a class the count makes, by cards drawn:
the 32 subsets of the hand (its five four-card subsets in one search) and, with one
card drawn, the 31 subsets of the hand that the card joins."""


class Counter:
    """Counts the pairs :func:`pelisali.games.oasis_best.dealer_below` is asked for."""

    def __init__(self) -> None:
        self.pairs = {0: 0, 1: 0}
        self.rows = 0
        self._inner = oasis_best.dealer_below

    def __call__(self, hands: Any, new: Any, at: Any, thresholds: Any) -> Any:
        self.pairs[new.shape[2]] = self.pairs.get(new.shape[2], 0) + len(at)
        if new.shape[2] == 1:
            self.rows += new.shape[0] * new.shape[1]
        return self._inner(hands, new, at, thresholds)

    def lookups(self) -> int:
        return sum(LOOKUPS_A_PAIR.get(k, 0) * n for k, n in self.pairs.items())


def fraction_text(value: Fraction) -> str:
    return f"{value} = {float(value) * 100:.4f} %"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-count", action="store_true")
    parser.add_argument("--no-five", action="store_true")
    args = parser.parse_args()
    out: dict[str, Any] = {"when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
                           "machine": cpu_line()}
    start = time.perf_counter()
    oasis_count.tables()
    boards, _weights = board_classes()
    oasis_best.four_counts()
    out["tables_seconds"] = round(time.perf_counter() - start, 2)

    counter = Counter()
    oasis_best.dealer_below = counter  # counted, then restored
    try:
        start = time.perf_counter()
        if args.no_count:
            rows = tuple(range(0, len(boards), 50))
            oasis_best.best_blind(rows=rows)
        else:
            found = oasis_best.best_blind()
            out["best_blind"] = {
                "ante_edge": fraction_text(found.ante_edge),
                "element_of_risk": fraction_text(found.element_of_risk),
                "basic_edge": fraction_text(found.basic_edge),
                "gap": fraction_text(found.gap),
                "basic_equals_oasis_count": found.basic_edge == oasis_count.exact().ante_edge}
        seconds = time.perf_counter() - start
    finally:
        oasis_best.dealer_below = counter._inner
    patterns = len(boards) if not args.no_count else len(range(0, len(boards), 50))
    rate = counter.lookups() / seconds
    out["count"] = {"patterns": patterns, "seconds": round(seconds, 1),
                    "replacement_rows": counter.rows, "pairs": counter.pairs,
                    "lookups": counter.lookups(), "lookups_a_second": round(rate)}

    # The dealer's up card read too: each pattern against each of the 47 up cards, the
    # dealer's hands holding it; the exchanges' rows 47 x 46 a pattern instead of 47, each
    # pair making 26 look-ups for the sets with the replacement and 31 for those without.
    rows_up = len(boards) * 47 * 46
    pairs_a_row = counter.pairs[1] / max(counter.rows, 1)
    lookups_up = rows_up * pairs_a_row * (26 + 31)
    out["up_card_estimate"] = {
        "patterns_by_up_card": len(boards) * 47,
        "replacement_rows": rows_up, "lookups": round(lookups_up),
        "seconds_at_this_rate": round(lookups_up / rate),
        "minutes_at_this_rate": round(lookups_up / rate / 60, 1)}

    sample: list[dict[str, Any]] = []
    for text in SAMPLE:
        cards = text.split()
        hand = np.array([sorted(DECK.index(c) for c in cards)])
        values = oasis_best.pattern_values(hand)
        choice, best = values.best()
        entry: dict[str, Any] = {
            "hand": text, "best_one": float(Fraction(int(best[0]), oasis_best.UNIT)),
            "best_choice": ("stand" if choice[0] < 0 else
                            f"exchange {DECK[hand[0, choice[0]]]}")}
        for k in (2, 3, 4) + ((5,) if text in FIVE and not args.no_five else ()):
            start = time.perf_counter()
            found_k = oasis_best.exchange_values(cards, k)
            top = max(found_k, key=found_k.__getitem__)
            entry[f"exchange_{k}"] = {"best": " ".join(top),
                                      "value": float(found_k[top]),
                                      "exact": str(found_k[top]),
                                      "seconds": round(time.perf_counter() - start, 2)}
        sample.append(entry)
    out["sample"] = sample
    seconds_k = {k: np.mean([e[f"exchange_{k}"]["seconds"] for e in sample
                             if f"exchange_{k}" in e]) for k in (2, 3, 4, 5)
                 if any(f"exchange_{k}" in e for e in sample)}
    out["multi_card_estimate_hours"] = {
        k: round(float(s) * len(boards) / 3600, 1) for k, s in seconds_k.items()}
    out["multi_card_draws"] = {k: comb(47, k) for k in (2, 3, 4, 5)}
    out["discards"] = {k: len(list(combinations(range(5), k))) for k in (2, 3, 4, 5)}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['machine']}, {out['when']}")
    print(f"tables and suit patterns: {out['tables_seconds']} s")
    if "best_blind" in out:
        for name, value in out["best_blind"].items():
            print(f"{name}: {value}")
    c = out["count"]
    print(f"count: {c['patterns']:,} suit patterns in {c['seconds']} s; "
          f"{c['replacement_rows']:,} replacement rows, {sum(c['pairs'].values()):,} pairs, "
          f"{c['lookups']:,} look-ups, {c['lookups_a_second']:,} a second")
    u = out["up_card_estimate"]
    print(f"reading the up card too: {u['replacement_rows']:,} replacement rows, "
          f"{u['lookups']:,} look-ups, about {u['minutes_at_this_rate']} minutes at this rate")
    for entry in sample:
        parts = [f"{entry['hand']}: best of one card at most {entry['best_one']:+.4f} "
                 f"({entry['best_choice']})"]
        for k in (2, 3, 4, 5):
            if f"exchange_{k}" in entry:
                e = entry[f"exchange_{k}"]
                parts.append(f"{k} cards {e['value']:+.4f} ({e['best']}, {e['seconds']} s)")
        print("; ".join(parts))
    print("every exchange of k cards, every suit pattern, would take about (hours): "
          + ", ".join(f"{k}: {h}" for k, h in out["multi_card_estimate_hours"].items()))


if __name__ == "__main__":
    main()
