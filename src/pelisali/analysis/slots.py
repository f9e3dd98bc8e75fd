"""Exact par sheets of the slot games, counted from the strips the engine plays.

Nothing here samples. A spin's outcome is counted over every combination of
stops (the product of the strip lengths), without visiting them one by one:

* each reel is reduced to its distinct window columns with how many stops show
  each (at most 64);
* the reels are walked left to right keeping, for every class of partial
  spins, the line wins already settled, the scatters seen and the lines still
  "open" (their run from the left may still grow) with the symbols they have so
  far; classes that reach the same state are merged and their counts added;
* a spin whose lines are all settled only needs the scatters of the reels
  left, which each reel's scatter counts give by convolution.

What decides a line's pay is :meth:`~pelisali.engine.slots.Paytable.line_pay`
itself, the function the engine pays with; a test checks the counting
against a walk over every stop combination of a small game.

A game that pays any-way (``ways = true``) is counted by :func:`ways_counts`
the same way round: each reel reduced to its distinct columns as
:meth:`~pelisali.engine.slots.Paytable.column_ways` judges them (each symbol's
cells with wilds counted as their multipliers, and the wild part), a class of
partial spins keyed by the win settled so far, the scatters seen and, for each
symbol whose run still grows, its ways product and wild-only product; a run
that ends settles ``pay(symbol, length) * (ways - wild ways)``, classes that
meet are merged, and a class with every run settled takes the later reels'
scatters by convolution. Its counts feed the same par sheet, free-spin
solution and cap bound.

The free-spin feature with retriggers is solved exactly. Let one free spin
win ``w`` line bets (its multiplier applied) and retrigger with probability
``p``, adding ``R`` spins. Free spins are independent and alike, so the win
``T1`` that one awarded spin brings, with everything it retriggers, satisfies
``T1 = w + [retrigger] (T1' + ... + T1^(R))`` with independent copies. Taking
expectations, ``mu = E[w] + p R mu``, so ``mu = E[w] / (1 - p R)``
(finite when ``p R < 1``); the second moment follows the same way:
``m2 (1 - p R) = E[w^2] + 2 R mu E[w; retrigger] + p R (R - 1) mu^2``. A
feature of ``S`` spins wins ``S mu`` on average, with second moment
``S m2 + S (S - 1) mu^2``, and plays ``S / (1 - p R)`` spins on average.

The cap cuts a round's total. In a round without the feature it is applied
exactly. A feature's total is unbounded (retriggers), so the part the cap cuts
from feature rounds is not computed exactly but bounded: for ``X >= 0`` and any
``m >= 2``, ``max(X - C, 0) <= X^m (m - 1)^(m - 1) / (m^m C^(m - 1))`` (the
right side touches the left at ``X = m C / (m - 1)``), so the cut is at most
``E[X^m; feature] (m - 1)^(m - 1) / (m^m C^(m - 1))`` for each ``m``; the par
sheet takes the least of these for ``m`` up to :data:`CAP_MOMENTS`. The moments
are exact: the renewal equation above, raised to the ``k``-th power, gives
``E[T1^k] (1 - p R)`` from the lower moments (:func:`lineage_moments`). The par
sheet gives the RTP without that cut and the bound (``cap_bound``): the game's
true RTP lies within it below.

The volatility index is ``1.645 sigma`` with ``sigma`` the standard deviation of
one round's win in total bets: 1.645 standard deviations either side hold 90 %
of a normal law, so over ``n`` rounds the observed RTP lies within
``1.645 sigma / sqrt(n)`` of the exact RTP 9 times out of 10;
``half_width_1m`` is that for a million rounds.
"""

from __future__ import annotations

import csv
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pelisali.engine.slots import Paytable
from pelisali.rules.slots import SlotRules

CAP_MOMENTS = 16
"""The highest moment of a feature round's win the cap's bound is taken from."""

CAP_BOUND_UNIT = 10**15
"""The cap's bound is rounded up to a whole part in this of the total bet."""

Z90 = Fraction(1645, 1000)
"""The two-sided 90 % normal quantile used by the volatility index."""

LineTables = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]
"""A line's walk over its open prefixes: :func:`line_tables`."""


@dataclass(frozen=True)
class SpinCounts:
    """How many stop combinations give each (line wins in line bets, scatters in view)."""

    combinations: int
    counts: dict[tuple[int, int], int]


def spin_counts(table: Paytable, strips: Sequence[Sequence[str]], lines: int,
                tables: LineTables | None = None) -> SpinCounts:
    """Count every stop combination of ``strips`` by its line wins and scatters, with
    ``lines`` lines played; ``tables`` are :func:`line_tables` when already made.

    >>> from pelisali.rules.slots import load_slot_rules
    >>> rules = load_slot_rules("fruit")
    >>> counted = spin_counts(Paytable(rules), rules.reels.base, 1)
    >>> counted.combinations == 32 ** 3 == sum(counted.counts.values())
    True
    """
    rules = table.rules
    paylines = np.array(rules.paylines[:lines], dtype=np.int64)  # (lines, reels)
    codes = {s: i for i, s in enumerate(rules.symbols)}
    width = len(codes)
    nxt, pay = line_tables(table) if tables is None else tables
    nxt_flat = nxt.astype(np.int32).ravel()
    pay_flat = pay.astype(np.int32).ravel()
    reels = [_columns(strip, rules.rows, codes, table.scatter) for strip in strips]
    sc_top = sum(int(sc.max(initial=0)) for _, _, sc in reels) + 1
    # the scatters the reels after each reel add, for spins already settled
    later: list[Counter[int]] = [Counter({0: 1})]
    for _, mult, sc in reversed(reels[1:]):
        grown: Counter[int] = Counter()
        for have, n in later[-1].items():
            for extra, m in zip(sc.tolist(), mult.tolist(), strict=True):
                grown[have + extra] += n * m
        later.append(grown)
    later.reverse()
    classes = np.ones((1, lines), dtype=np.int32)
    won = np.zeros(1, dtype=np.int64)
    seen = np.zeros(1, dtype=np.int64)
    count = np.ones(1, dtype=np.int64)
    out: Counter[tuple[int, int]] = Counter()
    last = len(reels) - 1
    for r, (cols, mult, sc) in enumerate(reels):
        k = len(mult)
        sym = cols[:, paylines[:, r]].astype(np.int32).T  # (lines, columns)
        # only the open lines move: (row, line, class) of each, rows in order
        rows_at, lines_at = np.nonzero(classes)
        flat = (classes[rows_at, lines_at] * width)[:, None] + sym[lines_at]  # (open, k)
        starts = np.flatnonzero(np.r_[True, rows_at[1:] != rows_at[:-1]])
        won = (won[:, None] + np.add.reduceat(pay_flat[flat], starts, axis=0)).ravel()
        seen = (seen[:, None] + sc[None, :]).ravel()
        count = (count[:, None] * mult[None, :]).ravel()
        if r == last:
            _settle(out, won, seen, count, sc_top, later[r])
            classes = np.zeros((0, lines), dtype=np.int32)
            count = count[:0]
            break
        moved = nxt_flat[flat]  # (open, k)
        grown_classes = np.zeros((len(classes), k, lines), dtype=np.int32)
        grown_classes[rows_at, :, lines_at] = moved
        classes = grown_classes.reshape(-1, lines)
        open_rows = np.logical_or.reduceat(moved != 0, starts, axis=0).ravel()
        done = ~open_rows
        if done.any():
            _settle(out, won[done], seen[done], count[done], sc_top, later[r])
        classes, won, seen, count = _merge(classes[open_rows], won[open_rows],
                                           seen[open_rows], count[open_rows])
    assert not len(count)  # noqa: S101 - every line is settled on the last reel
    return SpinCounts(math.prod(len(s) for s in strips), dict(out))


def _settle(out: Counter[tuple[int, int]], won: npt.NDArray[np.int64],
            seen: npt.NDArray[np.int64], count: npt.NDArray[np.int64], sc_top: int,
            later: Counter[int]) -> None:
    """Add settled spins to ``out`` by (line wins, scatters), with the scatters of the reels
    still to come."""
    keys = won * sc_top + seen
    span = int(keys.max(initial=0)) + 1
    if span <= 1 << 25:  # a dense count is quicker than sorting
        sums = np.bincount(keys, weights=count.astype(np.float64), minlength=span)
        uniq = np.flatnonzero(sums)
        sums = sums[uniq]
    else:
        uniq, where = np.unique(keys, return_inverse=True)
        sums = np.bincount(where.ravel(), weights=count.astype(np.float64))
    for key, total in zip(uniq.tolist(), sums.tolist(), strict=True):
        w, s = divmod(key, sc_top)
        for extra, m in later.items():
            out[w, s + extra] += int(total) * m


def _columns(strip: Sequence[str], rows: int, codes: dict[str, int], scatter: str | None
             ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """A reel's distinct window columns (symbol codes by row), how many stops show each,
    and the scatters in each."""
    found = Counter(tuple(strip[(stop + row) % len(strip)] for row in range(rows))
                    for stop in range(len(strip)))
    cols = np.array([[codes[s] for s in col] for col in found], dtype=np.int64)
    mult = np.array(list(found.values()), dtype=np.int64)
    sc = np.array([col.count(scatter) if scatter else 0 for col in found], dtype=np.int64)
    return cols, mult, sc


def _merge(classes: npt.NDArray[np.int32], won: npt.NDArray[np.int64],
           seen: npt.NDArray[np.int64], count: npt.NDArray[np.int64]
           ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64], npt.NDArray[np.int64],
                      npt.NDArray[np.int64]]:
    """Partial spins in the same state (open lines' classes, wins, scatters) made one, their
    counts added (whole numbers below 2**53, so the float sum is exact)."""
    if not len(count):
        return classes, won, seen, count
    record = np.ascontiguousarray(np.concatenate(
        [classes.astype(np.int64), won[:, None], seen[:, None]], axis=1))
    rows = record.view(np.dtype((np.void, record.dtype.itemsize * record.shape[1]))).ravel()
    _, first, where = np.unique(rows, return_index=True, return_inverse=True)
    sums = np.bincount(where.ravel(), weights=count.astype(np.float64))
    return classes[first], won[first], seen[first], sums.astype(np.int64)


def line_tables(table: Paytable) -> LineTables:
    """A line read from the left as a walk over classes of open prefixes: ``nxt[c, s]`` the
    class after one more symbol (0: settled, 1: the empty prefix), ``pay[c, s]`` what the
    line pays if that symbol settles it. Built from the engine's own judgement."""
    names = table.rules.symbols
    prefixes: list[tuple[str, ...]] = [(), ()]
    index: dict[tuple[str, ...], int] = {(): 1}
    rows_next: list[list[int]] = [[0] * len(names), []]
    rows_pay: list[list[int]] = [[0] * len(names), []]
    todo = [1]
    while todo:
        c = todo.pop()
        nexts, pays = [], []
        for s in names:
            grown = (*prefixes[c], s)
            if table.line_open(grown):
                if grown not in index:
                    index[grown] = len(prefixes)
                    prefixes.append(grown)
                    rows_next.append([])
                    rows_pay.append([])
                    todo.append(index[grown])
                nexts.append(index[grown])
                pays.append(0)
            else:
                nexts.append(0)
                pays.append(table.line_pay(grown)[2])
        rows_next[c], rows_pay[c] = nexts, pays
    return np.array(rows_next, dtype=np.int64), np.array(rows_pay, dtype=np.int64)


WaysRuns = tuple[tuple[int, int] | None, ...]
"""For each of :attr:`~pelisali.engine.slots.Paytable.ways_symbols`: its run's (ways, wild
ways) products so far, or ``None`` once settled."""


def _ways_reels(table: Paytable, strips: Sequence[Sequence[str]]
                ) -> list[list[tuple[tuple[tuple[int, int], ...], int, int]]]:
    """Each reel's distinct (column's ways factors, scatters) with how many stops show them:
    columns that judge alike are one."""
    rows, scatter = table.rules.rows, table.scatter
    out = []
    for strip in strips:
        found: Counter[tuple[tuple[tuple[int, int], ...], int]] = Counter()
        for stop in range(len(strip)):
            column = [strip[(stop + row) % len(strip)] for row in range(rows)]
            found[table.column_ways(column), column.count(scatter) if scatter else 0] += 1
        out.append([(factors, sc, n) for (factors, sc), n in found.items()])
    return out


def ways_counts(table: Paytable, strips: Sequence[Sequence[str]]) -> SpinCounts:
    """Count every stop combination of a ways game's ``strips`` by its ways wins (coins) and
    scatters, exactly: the reels walked left to right, a class of partial spins keyed by the
    win settled so far, the scatters seen and each symbol's running (ways, wild ways)
    products, classes that meet merged; a class with every run settled takes the scatters of
    the reels left by convolution.

    >>> from pelisali.rules.slots import load_slot_rules
    >>> rules = load_slot_rules("fruit")  # counted as if it paid any-way
    >>> counted = ways_counts(Paytable(rules), rules.reels.base)
    >>> counted.combinations == 32 ** 3 == sum(counted.counts.values())
    True
    """
    reels = _ways_reels(table, strips)
    pays = table.ways_pay
    last = len(reels)
    # the longest run that can still pay: a run past it is settled at no pay at once
    reach = [max((n for n in range(last + 1) if row[n]), default=0) for row in pays]
    later: list[Counter[int]] = [Counter({0: 1})]
    for reel in reversed(reels[1:]):
        grown: Counter[int] = Counter()
        for have, n in later[-1].items():
            for _, sc, m in reel:
                grown[have + sc] += n * m
        later.append(grown)
    later.reverse()
    start: WaysRuns = tuple((1, 1) if reach[i] else None for i in range(len(pays)))
    # classes by their runs, then by (win settled, scatters seen): a run's step depends on
    # the runs and the column alone, so it is taken once for all the wins and scatters
    classes: dict[WaysRuns, Counter[tuple[int, int]]] = {start: Counter({(0, 0): 1})}
    out: Counter[tuple[int, int]] = Counter()
    for r, reel in enumerate(reels):
        by_factors: defaultdict[tuple[tuple[int, int], ...], Counter[int]] = defaultdict(Counter)
        for factors, sc, m in reel:
            by_factors[factors][sc] += m
        grown_classes: defaultdict[WaysRuns, Counter[tuple[int, int]]] = defaultdict(Counter)
        for runs, sub in classes.items():
            alive = [(i, run) for i, run in enumerate(runs) if run is not None]
            for factors, scatters in by_factors.items():
                gain = 0
                moved = list(runs)
                for i, (ways, wilds) in alive:
                    total, wild = factors[i]
                    if not total:  # the run ends on reel r: r reels long
                        gain += pays[i][r] * (ways - wilds)
                        moved[i] = None
                    elif r + 1 == last:
                        gain += pays[i][last] * (ways * total - wilds * wild)
                        moved[i] = None
                    elif r + 1 > reach[i]:
                        moved[i] = None  # running past its longest pay: it pays nothing
                    else:
                        moved[i] = (ways * total, wilds * wild)
                if any(run is not None for run in moved):
                    target = grown_classes[tuple(moved)]
                    for (won, seen), n in sub.items():
                        for sc, m in scatters.items():
                            target[won + gain, seen + sc] += n * m
                else:
                    for (won, seen), n in sub.items():
                        for sc, m in scatters.items():
                            for extra, k in later[r].items():
                                out[won + gain, seen + sc + extra] += n * m * k
        classes = grown_classes
    assert not classes  # noqa: S101 - every run is settled on the last reel
    return SpinCounts(math.prod(len(s) for s in strips), dict(out))


def ways_combinations(table: Paytable, strips: Sequence[Sequence[str]],
                      lines: int) -> list[Combination]:
    """Every symbol's ways win by run length: the stop combinations that give it and its
    share of the RTP at ``lines`` coins bet (each symbol walked alone: a symbol's ways do not
    depend on the others').

    >>> from pelisali.rules.slots import load_slot_rules
    >>> rules = load_slot_rules("fruit")  # counted as if it paid any-way
    >>> top = ways_combinations(Paytable(rules), rules.reels.base, 1)[0]
    >>> top.kind, top.symbol, top.count, top.pays
    ('ways', 'WILD', 3, 400)
    """
    reels = _ways_reels(table, strips)
    total_stops = math.prod(len(s) for s in strips)
    rows = []
    for i, symbol in enumerate(table.ways_symbols):
        live: Counter[tuple[int, int]] = Counter({(1, 1): 1})
        hits: Counter[int] = Counter()
        ways: Counter[int] = Counter()
        for r, reel in enumerate(reels):
            rest = math.prod(len(s) for s in strips[r + 1:])
            grown: Counter[tuple[int, int]] = Counter()
            for (t, w), n in live.items():
                for factors, _, m in reel:
                    total, wild = factors[i]
                    if total:
                        grown[t * total, w * wild] += n * m
                    elif table.ways_pay[i][r] and t > w:
                        hits[r] += n * m * rest
                        ways[r] += n * m * rest * (t - w)
            live = grown
        for (t, w), n in live.items():
            if table.ways_pay[i][len(reels)] and t > w:
                hits[len(reels)] += n
                ways[len(reels)] += n * (t - w)
        for count, n in hits.items():
            pay = table.ways_pay[i][count]
            rows.append(Combination("ways", symbol, count, pay, n, Fraction(n, total_stops),
                                    Fraction(pay * ways[count], total_stops * lines)))
    rows.sort(key=lambda c: (-c.pays, c.symbol, -c.count))
    return rows


@dataclass(frozen=True)
class Combination:
    """A winning combination on one line (or of scatters, or the feature) for the par sheet."""

    kind: str
    symbol: str
    count: int
    pays: int
    """Line bets (lines) or total bets (scatters)."""
    combinations: int
    probability: Fraction
    contribution: Fraction
    """To the RTP, as a fraction of the total bet."""
    multiplier: int = 1
    """The wilds' multiplier in a line win (its pay is the pay table's times this)."""

    def label(self) -> str:
        """``3 x RUBY``, ``3 x RUBY (wild x4)``."""
        text = f"{self.count} x {self.symbol}"
        return text + (f" (wild x{self.multiplier})" if self.multiplier > 1 else "")


def line_combinations(table: Paytable, strips: Sequence[Sequence[str]]) -> list[Combination]:
    """Every winning combination on one line with how many stop combinations give it: the
    same on every line, as each row of a uniformly stopped strip shows each stop alike.

    >>> from pelisali.rules.slots import load_slot_rules
    >>> rules = load_slot_rules("fruit")
    >>> top = line_combinations(Paytable(rules), rules.reels.base)[0]
    >>> top.symbol, top.count, top.pays
    ('WILD', 3, 400)
    """
    total = math.prod(len(s) for s in strips)
    per_reel = [Counter(strip) for strip in strips]
    live: dict[tuple[str, ...], int] = {(): 1}
    found: defaultdict[tuple[str, int, int], int] = defaultdict(int)
    for r, symbols in enumerate(per_reel):
        rest = math.prod(len(s) for s in strips[r + 1:])
        nxt: dict[tuple[str, ...], int] = {}
        for prefix, n in live.items():
            for symbol, m in symbols.items():
                grown = (*prefix, symbol)
                if table.line_open(grown):
                    nxt[grown] = n * m
                else:
                    won = table.line_pay(grown)
                    if won[2]:
                        found[won] += n * m * rest
        live = nxt
    rows = [Combination("line", symbol, count, pays, n, Fraction(n, total),
                        Fraction(n * pays, total), pays // table.pay[symbol][count])
            for (symbol, count, pays), n in found.items()]
    rows.sort(key=lambda c: (-c.pays, c.symbol, -c.count))
    return rows


@dataclass(frozen=True)
class FreeSpins:
    """The free-spin feature solved exactly (every figure in line bets)."""

    spin_mean: Fraction
    """E[w]: one free spin's win, multiplier applied."""
    spin_second: Fraction
    retrigger: Fraction
    """p: the chance a free spin retriggers."""
    spins_mean: Fraction
    """Free spins a feature plays on average."""
    mean: Fraction
    """E[T]: a feature's total win."""
    second: Fraction
    """E[T^2]."""


def solve_free_spins(rules: SlotRules, counted: SpinCounts, lines: int) -> FreeSpins:
    """The feature's mean and second moment from one free spin's counted outcomes, by the
    renewal argument of this module's docstring."""
    feature = rules.feature
    if feature is None:
        raise ValueError(f"{rules.id} has no free spins")
    table = Paytable(rules)
    sum_w = sum_w2 = sum_wr = hits = 0  # whole numbers: one division at the end
    for (won, sc), count in counted.counts.items():
        w = (won + table.scatter_pays(sc) * lines) * feature.multiplier
        sum_w += count * w
        sum_w2 += count * w * w
        if sc >= feature.trigger:
            hits += count
            sum_wr += count * w
    n = counted.combinations
    ew, ew2, ewr, p = (Fraction(sum_w, n), Fraction(sum_w2, n), Fraction(sum_wr, n),
                       Fraction(hits, n))
    big_r, s = feature.retrigger, feature.spins
    if p * big_r >= 1:
        raise ValueError(f"{rules.id}: free spins retrigger {p * big_r} spins a spin; the "
                         f"feature never ends on average")
    mu = ew / (1 - p * big_r)
    m2 = (ew2 + 2 * big_r * mu * ewr + p * big_r * (big_r - 1) * mu * mu) / (1 - p * big_r)
    return FreeSpins(ew, ew2, p, s / (1 - p * big_r), s * mu, s * m2 + s * (s - 1) * mu * mu)


def _power_series(coeffs: Sequence[Fraction], power: int) -> list[Fraction]:
    """``(sum c_k t^k) ** power``, truncated to the degree of ``coeffs``."""
    order = len(coeffs)
    out = [Fraction(1)] + [Fraction(0)] * (order - 1)
    base, left = list(coeffs), power
    while left:
        if left & 1:
            out = [sum((out[i] * base[k - i] for i in range(k + 1)), Fraction(0))
                   for k in range(order)]
        left >>= 1
        if left:
            base = [sum((base[i] * base[k - i] for i in range(k + 1)), Fraction(0))
                    for k in range(order)]
    return out


def sum_moments(moments: Sequence[Fraction], copies: int) -> list[Fraction]:
    """``E[(Y_1 + ... + Y_n)^k]`` for ``k = 0, 1, ...`` from ``E[Y^k]`` (``moments[0] == 1``)
    of ``n`` independent copies, by the exponential generating function's power.

    >>> sum_moments([Fraction(1), Fraction(1, 2), Fraction(1, 2)], 2)  # two fair coins
    [Fraction(1, 1), Fraction(1, 1), Fraction(3, 2)]
    """
    egf = [m / math.factorial(k) for k, m in enumerate(moments)]
    return [c * math.factorial(k) for k, c in enumerate(_power_series(egf, copies))]


def lineage_moments(rules: SlotRules, counted: SpinCounts, lines: int,
                    order: int) -> list[Fraction]:
    """``E[T1^k]`` for ``k = 0 .. order``: the moments of what one awarded free spin wins
    with everything it retriggers, in line bets, exact (this module's docstring)."""
    feature = rules.feature
    if feature is None:
        raise ValueError(f"{rules.id} has no free spins")
    table = Paytable(rules)
    plain = [0] * (order + 1)  # sum of count * w^k
    retriggered = [0] * (order + 1)  # the same over the spins that retrigger
    for (won, sc), count in counted.counts.items():
        w = (won + table.scatter_pays(sc) * lines) * feature.multiplier
        power = count
        for k in range(order + 1):
            plain[k] += power
            if sc >= feature.trigger:
                retriggered[k] += power
            power *= w
    n = counted.combinations
    ew = [Fraction(x, n) for x in plain]
    ewr = [Fraction(x, n) for x in retriggered]
    big_r, p = feature.retrigger, ewr[0]
    moments = [Fraction(1)]
    for k in range(1, order + 1):
        # E[S^j] for the R copies a retrigger adds, with E[T1^k] still unknown (0): the
        # unknown enters E[S^k] once, as R E[T1^k].
        partial = sum_moments([*moments, Fraction(0)], big_r)
        known = ew[k] + sum((math.comb(k, j) * ewr[k - j] * partial[j] for j in range(1, k + 1)),
                            Fraction(0))
        moments.append(known / (1 - p * big_r))
    return moments


def cap_cut_bound(trigger_wins: Counter[int], feature_moments: Sequence[Fraction],
                  cap: int) -> Fraction:
    """The least bound on ``sum_b n_b E[max(b + T - cap, 0)]`` (whole counts ``n_b`` of
    feature rounds whose base spin won ``b``) over the moments ``m = 2 ..`` of
    ``X = b + T``, ``T`` the feature's win with moments ``feature_moments``.

    >>> cap_cut_bound(Counter({0: 1}), [Fraction(1), Fraction(1), Fraction(1)], 1)
    Fraction(1, 4)
    """
    best: Fraction | None = None
    for m in range(2, len(feature_moments)):
        moment = sum((n * sum((math.comb(m, j) * Fraction(b) ** (m - j) * feature_moments[j]
                               for j in range(m + 1)), Fraction(0))
                      for b, n in trigger_wins.items()), Fraction(0))
        bound = moment * Fraction((m - 1) ** (m - 1), m ** m * cap ** (m - 1))
        best = bound if best is None else min(best, bound)
    return best if best is not None else Fraction(0)


@dataclass(frozen=True)
class ParSheet:
    """A slot game's exact figures for ``lines`` lines played (fractions of the total bet
    unless named otherwise)."""

    rules: SlotRules
    lines: int
    combinations: int
    rtp: Fraction
    rtp_lines: Fraction
    rtp_scatter: Fraction
    rtp_feature: Fraction
    cap_cut: Fraction
    """What the cap takes from rounds without the feature (exact), already out of ``rtp``."""
    cap_bound: Fraction
    """At most this more is cut by the cap from feature rounds (see the module docstring)."""
    hit_frequency: Fraction
    feature_frequency: Fraction | None
    free_spins: FreeSpins | None
    variance: Fraction
    wins: tuple[tuple[Fraction, Fraction], ...]
    """Every distinct win of a round without the feature, in total bets, and its chance;
    the feature rounds are :attr:`feature_frequency`."""
    combos: tuple[Combination, ...]

    @property
    def sigma(self) -> float:
        return math.sqrt(self.variance)

    @property
    def volatility_index(self) -> float:
        """1.645 standard deviations of one round, in total bets."""
        return float(Z90) * self.sigma

    @property
    def half_width_1m(self) -> float:
        """The 90 % half-width of the observed RTP over 1,000,000 rounds."""
        return self.volatility_index / 1000

    @property
    def mean_spins_between_features(self) -> Fraction | None:
        return None if not self.feature_frequency else 1 / self.feature_frequency

    @property
    def top_win(self) -> tuple[Fraction, Fraction]:
        """The largest win of a round without the feature, with its chance."""
        return self.wins[-1]

    def to_json(self) -> dict[str, Any]:
        def f(x: Fraction | None) -> dict[str, Any] | None:
            return None if x is None else {"exact": str(x), "value": float(x)}
        free = self.free_spins
        return {
            "game": f"slot-{self.rules.id}", "name": self.rules.name.en,
            "ways": self.rules.ways, "lines": self.lines, "combinations": self.combinations,
            "rtp": f(self.rtp), "rtp_lines": f(self.rtp_lines),
            "rtp_scatter": f(self.rtp_scatter), "rtp_feature": f(self.rtp_feature),
            "cap": self.rules.cap.multiplier, "cap_cut": f(self.cap_cut),
            "cap_bound": f(self.cap_bound),
            "hit_frequency": f(self.hit_frequency),
            "feature_frequency": f(self.feature_frequency),
            "mean_spins_between_features": f(self.mean_spins_between_features),
            "free_spins_mean": f(free.spins_mean) if free else None,
            "feature_mean_total_bets": f(free.mean / self.lines) if free else None,
            "variance": f(self.variance), "sigma": self.sigma,
            "volatility_index": self.volatility_index, "half_width_1m": self.half_width_1m,
            "top_win": {"total_bets": str(self.top_win[0]), "probability": f(self.top_win[1])},
            "wins": [{"total_bets": str(w), "probability": str(p)} for w, p in self.wins],
        }


def par_sheet(rules: SlotRules, lines: int | None = None) -> ParSheet:
    """The exact par sheet of a slot game, by counting (no sampling); ``lines`` are the lines
    played, or a ways game's bet multiplier (coins), by default the most.

    >>> from pelisali.rules.slots import load_slot_rules
    >>> sheet = par_sheet(load_slot_rules("fruit"))
    >>> sheet.rtp == Fraction(sheet.rules.rtp)
    True
    """
    lines = rules.bets.lines_played[-1] if lines is None else lines
    if lines not in rules.bets.lines_played:
        raise ValueError(f"{lines} lines cannot be played in {rules.id}")
    table = Paytable(rules)
    if rules.ways:
        def count(strips: Sequence[Sequence[str]]) -> SpinCounts:
            return ways_counts(table, strips)
    else:
        tables = line_tables(table)

        def count(strips: Sequence[Sequence[str]]) -> SpinCounts:
            return spin_counts(table, strips, lines, tables)
    base = count(rules.reels.base)
    big_n = base.combinations
    cap = rules.cap.multiplier * lines
    feature = rules.feature
    free_counts = count(rules.reels.free) if feature else None
    free = solve_free_spins(rules, free_counts, lines) if free_counts is not None else None
    e_lines = e_scatter = e_x = e_x2 = e_cut = 0  # whole line bets until the end
    hits = trig = trig_b = trig_b2 = 0
    wins: Counter[int] = Counter()
    trigger_wins: Counter[int] = Counter()  # feature rounds by their base spin's win
    for (won, sc), n in base.counts.items():
        b = won + table.scatter_pays(sc) * lines
        e_lines += n * won
        e_scatter += n * table.scatter_pays(sc) * lines
        if feature is not None and sc >= feature.trigger:
            trig += n
            trig_b += n * b
            trig_b2 += n * b * b
            trigger_wins[b] += n
            hits += n
            continue
        paid = min(b, cap)
        e_cut += n * (b - paid)
        e_x += n * paid
        e_x2 += n * paid * paid
        if paid:
            hits += n
            wins[paid] += n
    rtp_feature = Fraction(0)
    bound = Fraction(0)
    sum_x, sum_x2 = Fraction(e_x), Fraction(e_x2)
    if free is not None and free_counts is not None and trig:
        sum_x += trig_b + trig * free.mean
        x2 = trig_b2 + 2 * trig_b * free.mean + trig * free.second
        sum_x2 += x2
        rtp_feature = trig * free.mean / big_n / lines
        moments = lineage_moments(rules, free_counts, lines, CAP_MOMENTS)
        spun = sum_moments(moments, rules.feature.spins if rules.feature else 0)
        # Rounded up to a whole 1e-15 of the total bet: still a bound, and readable.
        exact = cap_cut_bound(trigger_wins, spun, cap) / big_n / lines
        bound = Fraction(math.ceil(exact * CAP_BOUND_UNIT), CAP_BOUND_UNIT)
    mean = sum_x / big_n
    variance = (sum_x2 / big_n - mean * mean) / (lines * lines)
    combos = (ways_combinations(table, rules.reels.base, lines) if rules.ways
              else line_combinations(table, rules.reels.base))
    if rules.scatter:
        sc_counts: Counter[int] = Counter()
        for (_, sc), n in base.counts.items():
            sc_counts[sc] += n
        for sc, n in sorted(sc_counts.items(), reverse=True):
            pays = table.scatter_pays(sc)
            if pays:
                combos.append(Combination("scatter", rules.scatter.symbol, sc, pays, n,
                                          Fraction(n, big_n), Fraction(n * pays, big_n)))
    if free is not None:
        combos.append(Combination("feature", "free spins", feature.trigger if feature else 0,
                                  0, trig, Fraction(trig, big_n), rtp_feature))
    return ParSheet(
        rules, lines, big_n, mean / lines, Fraction(e_lines, big_n * lines),
        Fraction(e_scatter, big_n * lines), rtp_feature, Fraction(e_cut, big_n * lines), bound,
        Fraction(hits, big_n), Fraction(trig, big_n) if feature else None, free, variance,
        tuple((Fraction(w, lines), Fraction(n, big_n)) for w, n in sorted(wins.items())),
        tuple(combos))


PAR_COLUMNS = ("section", "kind", "symbol", "count", "wild multiplier", "pays", "combinations",
               "probability", "contribution")


def par_rows(sheet: ParSheet) -> list[list[str]]:
    """The par sheet as rows under :data:`PAR_COLUMNS`: the strips, the symbol counts per
    reel, every winning combination, the headline figures."""
    rules = sheet.rules
    out: list[list[str]] = []
    for name, strips in (("base", rules.reels.base), ("free", rules.reels.free)):
        for r, strip in enumerate(strips):
            out.append([f"reel {r + 1} {name}", "strip", " ".join(strip), str(len(strip)),
                        "", "", "", "", ""])
    for name, strips in (("base", rules.reels.base), ("free", rules.reels.free)):
        for symbol in rules.symbols:
            counts = [Counter(strip)[symbol] for strip in strips]
            if strips:
                out.append([f"symbol counts {name}", "count", symbol,
                            " ".join(map(str, counts)), "", "", "", "", ""])
    for c in sheet.combos:
        out.append(["combination", c.kind, c.symbol, str(c.count), str(c.multiplier),
                    str(c.pays), str(c.combinations), str(c.probability),
                    f"{float(c.contribution):.10f}"])
    for key, value in summary(sheet):
        out.append(["summary", key, value, "", "", "", "", "", ""])
    return out


def summary(sheet: ParSheet) -> list[tuple[str, str]]:
    """The headline figures as (name, text) pairs."""
    def both(x: Fraction) -> str:
        return f"{x} = {float(x):.8f}"
    ways = sheet.rules.ways
    out = [("bet multiplier (coins), any-way pays" if ways else "lines played",
            str(sheet.lines)), ("stop combinations", f"{sheet.combinations:,}"),
           ("RTP", both(sheet.rtp)), ("RTP ways pays" if ways else "RTP line pays",
                                      both(sheet.rtp_lines)),
           ("RTP scatter pays", both(sheet.rtp_scatter)),
           ("RTP free-spin feature", both(sheet.rtp_feature)),
           ("max win (cap)", f"{sheet.rules.cap.multiplier} x total bet"),
           ("cap cut (rounds without feature)", both(sheet.cap_cut)),
           ("cap cut from feature rounds at most", f"{float(sheet.cap_bound):.3e}"),
           ("hit frequency", both(sheet.hit_frequency))]
    if sheet.feature_frequency is not None and sheet.free_spins is not None:
        between = sheet.mean_spins_between_features
        out += [("feature frequency", both(sheet.feature_frequency)),
                ("mean spins between features", f"{float(between or 0):.4f}"),
                ("free spins a feature plays (mean)", both(sheet.free_spins.spins_mean)),
                ("free-spin retrigger chance", both(sheet.free_spins.retrigger)),
                ("feature win (mean, total bets)",
                 f"{float(sheet.free_spins.mean / sheet.lines):.6f}")]
    top, p = sheet.top_win
    out += [("variance (total bets squared)", f"{float(sheet.variance):.6f}"),
            ("standard deviation", f"{sheet.sigma:.6f}"),
            ("volatility index (1.645 sigma)", f"{sheet.volatility_index:.6f}"),
            ("90 % half-width, 1,000,000 rounds", f"{sheet.half_width_1m:.6f}"),
            ("distinct wins (no feature)", str(len(sheet.wins))),
            ("top win (no feature)", f"{top} x total bet, probability {p} = {float(p):.3e}")]
    return out


def write_par_sheet(sheet: ParSheet, path: Path) -> None:
    """Write the par sheet as ``.csv`` or ``.xlsx`` (a sheet for the combinations, one for the
    distinct wins)."""
    rows = par_rows(sheet)
    wins = [[str(w), f"{float(w):.4f}", str(p), f"{float(p):.6e}"] for w, p in sheet.wins]
    if path.suffix.lower() == ".csv":
        with path.open("w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(PAR_COLUMNS)
            writer.writerows(rows)
        return
    if path.suffix.lower() != ".xlsx":
        raise ValueError(f"{path}: a par sheet is .csv or .xlsx")
    from openpyxl import Workbook

    book = Workbook()
    first = book.active
    assert first is not None  # noqa: S101 - a new workbook has a sheet
    first.title = "par sheet"
    _fill(first, PAR_COLUMNS, rows)
    _fill(book.create_sheet("wins"), ("total bets", "value", "probability", "float"), wins)
    book.save(path)


def _fill(sheet: Any, header: Iterable[str], rows: Iterable[Sequence[str]]) -> None:
    sheet.append(list(header))
    for row in rows:
        sheet.append(list(row))
