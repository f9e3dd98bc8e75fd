"""Monte Carlo of a slot game in NumPy batches, paying exactly as the engine pays.

The simulator is built from the engine's own judgement, so there is one source
of truth for what a window pays:

* a line's symbols, one a reel, are numbered as a tuple ``sum(code[r] * K**r)``
  (``K`` the symbols); :func:`line_pay_lookup` holds
  :meth:`~pelisali.engine.slots.Paytable.line_pay` (wild multipliers included)
  for every tuple, filled by walking the open prefixes with
  :meth:`~pelisali.engine.slots.Paytable.line_open` so a settled prefix fills
  all its extensions at once (the same judgement the par sheet counts with);
* neighbouring reels are taken together (up to 4,096 joint stops): for every
  joint stop, the part of each played line's tuple number the group adds, and
  the scatters it shows;
* a spin is one uniform draw per group; each line's tuple number is the sum of
  the groups' parts, its pay one lookup, the lines' pays summed by a float32
  matrix product (exact: every partial sum is a whole number below 2**24, else
  an integer sum is used); the scatters are summed the same way.

A game that pays any-way is judged from
:meth:`~pelisali.engine.slots.Paytable.column_ways`: for every joint stop of
a group, each symbol's run within the group, its ways and wild-only products
and whether the run covers the whole group (:func:`ways_group_tables`); a
spin chains its groups as a run goes reel by reel, and each symbol pays its
pay for the run's length times its ways less its wild-only ways.

A round is the base spin; a base spin with ``trigger`` scatters starts the
free spins, played on the free strips in vectorised rounds (every round still
in its feature plays one more spin each time, each win times the feature's
multiplier, a retrigger adding spins) until none remain. The cap cuts each
round's total, as :meth:`~pelisali.engine.slots.SlotState.total_win` does.

Spins are cut into blocks of :data:`BLOCK`; block ``i`` draws from
``SeedSequence(seed, spawn_key=(i,))``, so the result depends only on the seed
and the spin count, not on the threads that run the blocks. Memory stays a
few tens of MB a thread whatever the spin count.

The check (:func:`check_sample`) sets the observed RTP, hit frequency and
feature frequency with their 99 % intervals (from the sample's own standard
deviation of one round) beside the par sheet's exact values. The game's true
RTP lies between the par sheet's ``rtp - cap_bound`` and ``rtp`` (the cap's cut
on feature rounds is bounded, not computed), so the RTP counts as inside when
its interval meets that range. The verdict is a disagreement when some figure
lies outside the simultaneous 99 % band over the figures checked (Bonferroni),
as ``pelisali simulate`` does for the other games.

>>> from pelisali.rules.slots import load_slot_rules
>>> sample = simulate_slot(load_slot_rules("fruit"), spins=100_000, seed=1)
>>> sample.spins, round(sample.rtp, 2)
(100000, 0.95)
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from pelisali.analysis.simulate import Z99, family_z
from pelisali.analysis.slots import ParSheet
from pelisali.engine.slots import Paytable
from pelisali.rules.slots import SlotRules

BLOCK = 1 << 18
"""Spins a block: the free spins of a block's rounds are played together, so the passes'
overhead is shared by many rounds."""
CHUNK = 1 << 13
"""Spins a chunk of a block: a chunk's ``(spins, lines)`` arrays stay in the core's cache."""
GROUP_STOPS = 4096
"""The most joint stops of a group of neighbouring reels (64 x 64)."""
MAX_TUPLES = 1 << 25
"""The largest line lookup (symbols ** reels) the simulator builds."""

Int = npt.NDArray[np.int64]
Groups = list[npt.NDArray[np.int64]]
"""A spin's stops as one joint index per reel group (``(spins,)`` each)."""
Drawer = Callable[[int, npt.NDArray[np.int64]], Groups]
"""``draw(strip_set, rounds)``: the stops of one spin for each round named (0: base, 1:
free strips), as joint group indices."""


def line_pay_lookup(table: Paytable) -> npt.NDArray[np.int32]:
    """The pay (line bets, wild multipliers applied) of every tuple of symbols a line can
    show, indexed by ``sum(code[r] * K**r)`` with ``code`` the position in the rules'
    symbols and ``K`` their number. Built from ``Paytable.line_pay`` and ``line_open``.

    >>> from pelisali.rules.slots import load_slot_rules
    >>> rules = load_slot_rules("fruit")
    >>> pays = line_pay_lookup(Paytable(rules))
    >>> code = {s: i for i, s in enumerate(rules.symbols)}
    >>> int(pays[code["SEVEN"] + code["WILD"] * 8 + code["SEVEN"] * 64])
    150
    """
    rules = table.rules
    k, reels = len(rules.symbols), rules.reel_count
    if k ** reels > MAX_TUPLES:
        raise ValueError(f"{rules.id}: {k} symbols on {reels} reels make {k ** reels:,} line "
                         f"tuples; the simulator builds at most {MAX_TUPLES:,}")
    out = np.zeros(k ** reels, dtype=np.int32)
    todo: list[tuple[tuple[str, ...], int]] = [((), 0)]
    while todo:
        prefix, at = todo.pop()
        step = k ** len(prefix)
        for code, symbol in enumerate(rules.symbols):
            grown, index = (*prefix, symbol), at + code * step
            if table.line_open(grown):
                todo.append((grown, index))
            else:
                out[index::step * k] = table.line_pay(grown)[2]
    return out


def reel_groups(lengths: Sequence[int]) -> list[tuple[int, ...]]:
    """Neighbouring reels taken together while their joint stops stay within
    :data:`GROUP_STOPS`.

    >>> reel_groups([64] * 5), reel_groups([32] * 3)
    ([(0, 1), (2, 3), (4,)], [(0, 1), (2,)])
    """
    groups: list[tuple[int, ...]] = []
    current: list[int] = []
    for r, n in enumerate(lengths):
        if current and math.prod(lengths[i] for i in current) * n > GROUP_STOPS:
            groups.append(tuple(current))
            current = []
        current.append(r)
    groups.append(tuple(current))
    return groups


@dataclass(frozen=True)
class StripTables:
    """One strip set ready for batches: for each reel group, each played line's part of the
    tuple number at every joint stop (``(joint stops, lines)``), and the scatters shown."""

    lengths: tuple[int, ...]
    groups: tuple[tuple[int, ...], ...]
    rows: tuple[npt.NDArray[np.int32], ...]
    scatters: tuple[npt.NDArray[np.int32], ...]
    ways: tuple[npt.NDArray[np.int64], ...] = ()
    """A ways game's groups: :func:`ways_group_tables`."""

    def joint(self, stops: npt.NDArray[np.int64]) -> Groups:
        """Per-reel stops ``(spins, reels)`` as joint group indices (the first reel of a
        group most significant).

        >>> from pelisali.rules.slots import load_slot_rules
        >>> tables = BatchSlot(load_slot_rules("fruit")).tables[0]
        >>> tables.groups, [int(g[0]) for g in tables.joint(np.array([[1, 2, 3]]))]
        (((0, 1), (2,)), [34, 3])
        """
        out = []
        for group in self.groups:
            index = np.zeros(len(stops), dtype=np.int64)
            for r in group:
                index = index * self.lengths[r] + stops[:, r]
            out.append(index)
        return out

    def sizes(self) -> list[int]:
        return [math.prod(self.lengths[r] for r in g) for g in self.groups]


def ways_group_tables(table: Paytable, strips: Sequence[Sequence[str]],
                      group: Sequence[int]) -> npt.NDArray[np.int64]:
    """A ways game's reel group at every joint stop (the first reel most significant), for
    each of ``Paytable.ways_symbols``: ``[reels of its run within the group, the run's ways
    product, its wild-only product, 1 if the run covers the whole group]``, from
    ``Paytable.column_ways``; groups chain as a run does reel by reel.

    >>> from pelisali.rules.slots import load_slot_rules
    >>> rules = load_slot_rules("fruit")  # judged as if it paid any-way
    >>> table = Paytable(rules)
    >>> ways_group_tables(table, rules.reels.base, (0, 1)).shape
    (1024, 8, 4)
    """
    rows = table.rules.rows
    width = len(table.ways_symbols)
    run = np.zeros((1, width), dtype=np.int64)
    ways = np.ones((1, width), dtype=np.int64)
    wild = np.ones((1, width), dtype=np.int64)
    full = np.ones((1, width), dtype=bool)
    for r in group:
        strip = strips[r]
        factors = np.array([table.column_ways([strip[(stop + row) % len(strip)]
                                               for row in range(rows)])
                            for stop in range(len(strip))], dtype=np.int64).reshape(
                                len(strip), width, 2)  # (stops, symbols, 2)
        grows = full[:, None, :] & (factors[None, :, :, 0] > 0)  # (joint, stops, symbols)
        run = (run[:, None, :] + grows).reshape(-1, width)
        ways = np.where(grows, ways[:, None, :] * factors[None, :, :, 0],
                        ways[:, None, :]).reshape(-1, width)
        wild = np.where(grows, wild[:, None, :] * factors[None, :, :, 1],
                        wild[:, None, :]).reshape(-1, width)
        full = grows.reshape(-1, width)
    return np.stack([run, ways, wild, full.astype(np.int64)], axis=2)


def _strip_tables(rules: SlotRules, strips: Sequence[Sequence[str]], lines: int,
                  scatter: str | None, table: Paytable | None = None) -> StripTables:
    """``table`` given: a ways game (``lines`` then 0: no paylines)."""
    k = len(rules.symbols)
    codes = {s: i for i, s in enumerate(rules.symbols)}
    paylines = rules.paylines[:lines]
    lengths = tuple(len(s) for s in strips)
    groups = reel_groups(lengths)
    parts, scatters = [], []
    for group in groups:
        part = np.zeros((lines, 1), dtype=np.int64)
        seen = np.zeros(1, dtype=np.int64)
        for r in group:
            strip = strips[r]
            n = len(strip)
            reel = np.array([[codes[strip[(stop + line[r]) % n]] * k ** r for line in paylines]
                             for stop in range(n)], dtype=np.int64).T  # (lines, stops)
            shown = np.array([sum(strip[(stop + row) % n] == scatter for row in range(rules.rows))
                              for stop in range(n)], dtype=np.int64)
            part = (part[:, :, None] + reel[:, None, :]).reshape(lines, part.shape[1] * n)
            seen = (seen[:, None] + shown[None, :]).ravel()
        parts.append(np.ascontiguousarray(part.T, dtype=np.int32))
        scatters.append(seen.astype(np.int32))
    ways = tuple(ways_group_tables(table, strips, g) for g in groups) if table else ()
    return StripTables(lengths, tuple(groups), tuple(parts), tuple(scatters), ways)


class BatchSlot:
    """A slot game's batch model for ``lines`` lines played: every figure in line bets.

    >>> from pelisali.rules.slots import load_slot_rules
    >>> model = BatchSlot(load_slot_rules("fruit"), 5)
    >>> units, scatters = model.spin_units(0, model.tables[0].joint(np.array([[0, 0, 0]])))
    >>> int(units[0]), int(scatters[0])
    (3, 0)
    """

    def __init__(self, rules: SlotRules, lines: int | None = None) -> None:
        lines = rules.bets.lines_played[-1] if lines is None else lines
        if lines not in rules.bets.lines_played:
            raise ValueError(f"{lines} lines cannot be played in {rules.id}; lines: "
                             f"{', '.join(map(str, rules.bets.lines_played))}")
        self.rules, self.lines = rules, lines
        table = Paytable(rules)
        self.ways = rules.ways
        # a ways game: each symbol's pay by run length, flat, and where each symbol's row
        # starts
        self.ways_pay = np.array(table.ways_pay, dtype=np.int64).ravel()
        self.ways_at = np.arange(len(table.ways_symbols), dtype=np.int64) * (
            rules.reel_count + 1)
        pays = np.zeros(1, dtype=np.int32) if self.ways else line_pay_lookup(table)
        # summed over the lines by a float32 matrix product: exact while every partial sum
        # is a whole number below 2**24; else by an integer sum
        self.exact_float = int(pays.max(initial=0)) * lines < 1 << 24
        self.pays: npt.NDArray[Any] = pays.astype(np.float32) if self.exact_float else pays
        self.ones = np.ones(lines, dtype=np.float32)
        self.scatter = table.scatter
        most = rules.rows * rules.reel_count
        self.scatter_units = np.array([table.scatter_pays(c) * lines for c in range(most + 1)],
                                      dtype=np.int64)
        sets = [rules.reels.base, *([rules.reels.free] if rules.reels.free else [])]
        self.tables = [_strip_tables(rules, s, 0, self.scatter, table) if self.ways
                       else _strip_tables(rules, s, lines, self.scatter) for s in sets]
        self.cap = rules.cap.multiplier * lines

    def spin_units(self, strip_set: int, groups: Groups) -> tuple[Int, Int]:
        """Each spin's win in line bets (lines and scatters, no free-spin multiplier) and its
        scatters, from its joint group stops; worked in chunks of :data:`CHUNK` spins, whose
        arrays stay in the core's cache."""
        tables = self.tables[strip_set]
        n = len(groups[0])
        units = np.empty(n, dtype=np.int64)
        for start in range(0, n if self.ways else 0, CHUNK):
            units[start:start + CHUNK] = self._ways_units(
                tables, [g[start:start + CHUNK] for g in groups])
        for start in range(0, 0 if self.ways else n, CHUNK):
            part = [g[start:start + CHUNK] for g in groups]
            index = tables.rows[0].take(part[0], axis=0)
            for rows, joint in zip(tables.rows[1:], part[1:], strict=True):
                index += rows.take(joint, axis=0)
            pays = self.pays.take(index, mode="clip")
            units[start:start + CHUNK] = (pays @ self.ones if self.exact_float
                                          else pays.sum(axis=1))
        if self.scatter is None:
            return units, np.zeros(n, dtype=np.int64)
        seen = tables.scatters[0].take(groups[0]).astype(np.int64)
        for counts, joint in zip(tables.scatters[1:], groups[1:], strict=True):
            seen += counts.take(joint)
        return units + self.scatter_units.take(seen), seen

    def _ways_units(self, tables: StripTables, groups: Groups) -> Int:
        """A chunk's ways wins in coins: each symbol's run chained group by group (a group
        extends only the runs that covered every reel before it), then its pay for the run's
        length times its ways less its wild-only ways."""
        first = tables.ways[0].take(groups[0], axis=0)  # (spins, symbols, 4)
        run, ways, wild, full = (first[:, :, i] for i in range(4))
        for part, joint in zip(tables.ways[1:], groups[1:], strict=True):
            got = part.take(joint, axis=0)
            more = full.astype(bool)
            run = run + np.where(more, got[:, :, 0], 0)
            ways = np.where(more, ways * got[:, :, 1], ways)
            wild = np.where(more, wild * got[:, :, 2], wild)
            full = full * got[:, :, 3]
        pays = self.ways_pay.take(self.ways_at + run)
        won: Int = (pays * (ways - wild)).sum(axis=1)
        return won

    def play(self, spins: int, draw: Drawer) -> RoundsPlayed:
        """Play ``spins`` rounds, the feature included, with stops from ``draw``.

        >>> from pelisali.rules.slots import load_slot_rules
        >>> model = BatchSlot(load_slot_rules("video"))
        >>> played = model.play(1000, uniform_drawer(model, np.random.default_rng(1)))
        >>> len(played.paid), bool((played.paid <= model.cap).all())
        (1000, True)
        """
        base, seen = self.spin_units(0, draw(0, np.arange(spins, dtype=np.int64)))
        feature = self.rules.feature
        total = base.copy()
        played = 0
        triggers = np.zeros(spins, dtype=bool)
        if feature is not None:
            triggers = seen >= feature.trigger
            rounds = np.flatnonzero(triggers)
            left = np.full(len(rounds), feature.spins, dtype=np.int64)
            while len(rounds):
                won, shown = self.spin_units(1, draw(1, rounds))
                total[rounds] += won * feature.multiplier
                played += len(rounds)
                left += (shown >= feature.trigger) * feature.retrigger - 1
                keep = left > 0
                rounds, left = rounds[keep], left[keep]
        paid = np.minimum(total, self.cap)
        return RoundsPlayed(paid, triggers | (base > 0), triggers, played,
                            int(np.count_nonzero(total > self.cap)))


@dataclass(frozen=True)
class RoundsPlayed:
    """A batch of rounds: each round's paid win (line bets, capped), whether it hit, whether
    it started the feature; the free spins played and the rounds the cap cut."""

    paid: Int
    hits: npt.NDArray[np.bool_]
    triggers: npt.NDArray[np.bool_]
    free_spins: int
    capped: int


def uniform_drawer(model: BatchSlot, rng: np.random.Generator) -> Drawer:
    """Stops uniform over each strip: one draw a reel group.

    >>> from pelisali.rules.slots import load_slot_rules
    >>> model = BatchSlot(load_slot_rules("video"))
    >>> [g.shape for g in uniform_drawer(model, np.random.default_rng(1))(0, np.arange(4))]
    [(4,), (4,), (4,)]
    """
    sizes = [t.sizes() for t in model.tables]

    def draw(strip_set: int, rounds: npt.NDArray[np.int64]) -> Groups:
        return [rng.integers(0, n, len(rounds), dtype=np.int64) for n in sizes[strip_set]]
    return draw


@dataclass(frozen=True)
class SlotSample:
    """What a simulation saw, in line bets: sums kept as whole numbers."""

    game: str
    lines: int
    spins: int
    seed: int
    total: int
    square: int
    hits: int
    features: int
    free_spins: int
    capped: int
    top: int
    seconds: float

    @property
    def rtp(self) -> float:
        return self.total / (self.spins * self.lines)

    @property
    def sigma(self) -> float:
        """The sample standard deviation of one round's win, in total bets."""
        mean = self.total / self.spins
        var = (self.square - self.spins * mean * mean) / max(self.spins - 1, 1)
        return math.sqrt(max(var, 0.0)) / self.lines

    @property
    def spins_per_second(self) -> float:
        return self.spins / self.seconds if self.seconds else math.inf


@cache
def _model(rules: SlotRules, lines: int) -> BatchSlot:
    return BatchSlot(rules, lines)


def simulate_slot(rules: SlotRules, spins: int, seed: int, lines: int | None = None,
                  workers: int | None = None,
                  progress: Callable[[int], None] | None = None) -> SlotSample:
    """Simulate ``spins`` rounds of ``rules`` with stops drawn uniformly, seeded: the same
    seed and spins give the same sample whatever ``workers`` (threads, default: every core).

    >>> from pelisali.rules.slots import load_slot_rules
    >>> a = simulate_slot(load_slot_rules("video"), 20_000, seed=3, workers=1)
    >>> b = simulate_slot(load_slot_rules("video"), 20_000, seed=3, workers=2)
    >>> (a.total, a.square, a.features) == (b.total, b.square, b.features)
    True
    """
    if spins <= 0:
        raise ValueError("spins must be positive")
    started = time.perf_counter()
    lines = rules.bets.lines_played[-1] if lines is None else lines
    model = _model(rules, lines)
    blocks = [(i, min(BLOCK, spins - i * BLOCK)) for i in range(-(-spins // BLOCK))]

    def run(job: tuple[int, int]) -> tuple[int, int, int, int, int, int, int, int]:
        index, size = job
        # A simulation's draws, never a played round's (those go through pelisali.rng).
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
        got = model.play(size, uniform_drawer(model, rng))
        paid = got.paid
        return (size, int(paid.sum()), int(np.dot(paid, paid)), int(got.hits.sum()),
                int(got.triggers.sum()), got.free_spins, got.capped, int(paid.max()))

    sums = [0] * 7
    threads = workers or os.cpu_count() or 1
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for size, *figures in pool.map(run, blocks):
            for i, value in enumerate(figures[:6]):
                sums[i] += value
            sums[6] = max(sums[6], figures[6])
            if progress is not None:
                progress(size)
    total, square, hits, features, free_spins, capped, top = sums
    return SlotSample(f"slot-{rules.id}", lines, spins, seed, total, square, hits, features,
                      free_spins, capped, top, time.perf_counter() - started)


@dataclass(frozen=True)
class Figure:
    """An observed figure beside its exact value: the exact value is a range ``low`` to
    ``exact`` (one point but for the RTP, whose cap cut on feature rounds is bounded)."""

    name: str
    exact: Fraction
    low: Fraction
    observed: float
    half_width: float
    """Of the 99 % interval."""

    @property
    def z_score(self) -> float:
        """Standard errors from the observed value to the nearest exact value."""
        nearest = min(max(self.observed, float(self.low)), float(self.exact))
        error = self.half_width / Z99
        diff = self.observed - nearest
        return diff / error if error else (0.0 if diff == 0 else math.inf)

    @property
    def inside(self) -> bool:
        """The exact value (range) meets the 99 % interval."""
        return abs(self.z_score) <= Z99

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "exact": str(self.exact), "exact_value": float(self.exact),
                "exact_low": float(self.low), "observed": self.observed,
                "ci99": [self.observed - self.half_width, self.observed + self.half_width],
                "inside": self.inside, "z": self.z_score}


@dataclass(frozen=True)
class SlotCheck:
    """A sample against a par sheet."""

    sample: SlotSample
    sheet: ParSheet
    figures: tuple[Figure, ...]

    @property
    def family_z(self) -> float:
        return family_z(len(self.figures))

    @property
    def agrees(self) -> bool:
        """No figure outside the simultaneous 99 % band of the figures checked."""
        return all(abs(f.z_score) <= self.family_z for f in self.figures)

    def verdict(self) -> str:
        """One line an operator or auditor can act on: ``AGREES: ...`` or ``DISAGREES: ...``.

        >>> from pelisali.analysis.slots import par_sheet
        >>> from pelisali.rules.slots import load_slot_rules
        >>> rules = load_slot_rules("fruit")
        >>> check = check_sample(simulate_slot(rules, 100_000, seed=1), par_sheet(rules))
        >>> check.verdict().split(":")[0]
        'AGREES'
        """
        z = self.family_z
        if self.agrees:
            return (f"AGREES: every exact figure lies within the simultaneous 99 % band "
                    f"(|z| <= {z:.2f}) of {self.sample.spins:,} simulated spins")
        off = ", ".join(f"{f.name} (z = {f.z_score:+.1f})" for f in self.figures
                        if abs(f.z_score) > z)
        return (f"DISAGREES: {off} outside the simultaneous 99 % band (|z| > {z:.2f}): the "
                f"strips played are not the strips of the par sheet, or a 1-in-100 chance; "
                f"run again with another seed")

    def to_json(self) -> dict[str, Any]:
        s = self.sample
        return {"game": s.game, "lines": s.lines, "spins": s.spins, "seed": s.seed,
                "figures": [f.to_json() for f in self.figures], "agrees": self.agrees,
                "family_z": self.family_z, "verdict": self.verdict(),
                "free_spins": s.free_spins, "capped_rounds": s.capped,
                "top_win_total_bets": str(Fraction(s.top, s.lines)),
                "sigma_observed": s.sigma, "sigma_exact": self.sheet.sigma,
                "seconds": round(s.seconds, 3), "spins_per_second": round(s.spins_per_second)}


def _proportion(name: str, exact: Fraction, count: int, n: int) -> Figure:
    p = count / n
    return Figure(name, exact, exact, p, Z99 * math.sqrt(p * (1 - p) / n))


def check_sample(sample: SlotSample, sheet: ParSheet) -> SlotCheck:
    """Set a sample's RTP, hit frequency and feature frequency beside the par sheet's.

    >>> from pelisali.analysis.slots import par_sheet
    >>> from pelisali.rules.slots import load_slot_rules
    >>> rules = load_slot_rules("fruit")
    >>> check = check_sample(simulate_slot(rules, 200_000, seed=2), par_sheet(rules))
    >>> [f.name for f in check.figures], check.agrees
    (['RTP', 'hit frequency'], True)
    """
    if sample.lines != sheet.lines:
        raise ValueError(f"the sample plays {sample.lines} lines, the par sheet {sheet.lines}")
    n = sample.spins
    figures = [Figure("RTP", sheet.rtp, sheet.rtp - sheet.cap_bound, sample.rtp,
                      Z99 * sample.sigma / math.sqrt(n)),
               _proportion("hit frequency", sheet.hit_frequency, sample.hits, n)]
    if sheet.feature_frequency is not None:
        figures.append(_proportion("feature frequency", sheet.feature_frequency,
                                   sample.features, n))
    return SlotCheck(sample, sheet, tuple(figures))
