"""Monte Carlo through the round code's batch path, on both cores, reproducible by seed.

Each bet type gets its own 99 % confidence interval. With many bet types a
few of those miss the exact value by chance (one in a hundred), so a clear
disagreement is flagged only outside a simultaneous 99 % band over all the
bet types of the run (Bonferroni).

Each simulated round places one bet on a representative spot of every bet
type and settles them all on the same draw with the
:class:`~pelisali.games.batch.SettlementTable` that play uses. A bet held in
prison (roulette D) is carried through further spins until it is decided, and
its return counts for the round it was placed in. Rounds are cut into fixed
chunks, chunk ``i`` drawing from ``SeedSequence(seed).spawn`` child ``i``, so
the result depends only on the seed and the round count, not on scheduling.

>>> from pelisali.games import make_game
>>> result = simulate(make_game("sic-bo"), rounds=20_000, seed=1, workers=1)
>>> result.rows[0].bet, result.rounds
('small', 20000)
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from statistics import NormalDist
from typing import Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from pelisali.analysis.odds import REFERENCE_STAKE, exact_odds, held_values
from pelisali.games.base import Spot, WagerGame
from pelisali.games.batch import SettlementTable, choose_by_value
from pelisali.rng import SeededRng

CHUNK = 1 << 18
Z99 = 2.5758293035489004  # two-sided 99 % normal quantile


def mean_interval(total: int, square: int, rounds: int, stake: int) -> tuple[float, float]:
    """The mean return per ``stake`` of ``rounds`` bets of ``stake`` cents from the sum of
    their returns and of their squares, and its 99 % interval's half width.

    >>> mean_interval(total=-40, square=400, rounds=4, stake=10)  # lost every time
    (-1.0, 0.0)
    >>> mean, half = mean_interval(total=0, square=400, rounds=4, stake=10)  # two won, two lost
    >>> mean, round(half, 4)
    (0.0, 1.2879)
    """
    mean = total / (rounds * stake)
    variance = max(square / (rounds * stake * stake) - mean * mean, 0.0)
    return mean, Z99 * math.sqrt(variance / rounds)


class MeanInterval:
    """A simulated mean per stake (``mean``) with its 99 % interval's half width
    (``half_width``): the interval's two ends. The dataclasses of the banked games'
    simulations take it in.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Found(MeanInterval):
    ...     mean: float
    ...     half_width: float
    >>> Found(-0.02, 0.005).low, Found(-0.02, 0.005).high
    (-0.025, -0.015)
    """

    mean: float
    half_width: float

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width


@dataclass(frozen=True)
class SimRow:
    bet: str
    spot: str
    exact_rtp: Fraction
    observed_rtp: float
    half_width: float  # of the 99 % confidence interval

    @property
    def low(self) -> float:
        return self.observed_rtp - self.half_width

    @property
    def high(self) -> float:
        return self.observed_rtp + self.half_width

    @classmethod
    def from_sums(cls, bet: str, spot: str, exact: Fraction, total: int, square: int,
                  rounds: int, stake: int) -> SimRow:
        """A row from the sums of the returns and of their squares over ``rounds`` bets."""
        return cls(bet, spot, exact, *mean_interval(total, square, rounds, stake))

    @property
    def agrees(self) -> bool:
        """Exact value inside this bet's own 99 % interval."""
        return self.low <= float(self.exact_rtp) <= self.high

    @property
    def z_score(self) -> float:
        """Standard errors between observed and exact (0 when the return never varies)."""
        error = self.half_width / Z99
        diff = self.observed_rtp - float(self.exact_rtp)
        return diff / error if error else (0.0 if diff == 0 else math.inf)

    def to_json(self) -> dict[str, object]:
        return {
            "bet": self.bet, "spot": self.spot,
            "exact_rtp": f"{self.exact_rtp.numerator}/{self.exact_rtp.denominator}",
            "exact": float(self.exact_rtp), "observed": self.observed_rtp,
            "ci99": [self.low, self.high], "agrees": self.agrees,
        }


@dataclass(frozen=True)
class SimResult:
    game: str
    variant: str
    settings: Mapping[str, str | bool]
    rounds: int
    seed: int
    rows: list[SimRow]

    @property
    def family_z(self) -> float:
        """z of a simultaneous 99 % band over all bet types of the run (Bonferroni)."""
        return family_z(len(self.rows))

    def disagrees(self, row: SimRow) -> bool:
        """A clear disagreement: outside the simultaneous band, not a 1-in-100 chance."""
        return abs(row.z_score) > self.family_z

    def to_json(self) -> dict[str, object]:
        bets = []
        for row in self.rows:
            data = row.to_json()
            data["disagrees"] = self.disagrees(row)
            bets.append(data)
        return {"game": self.game, "variant": self.variant, "settings": dict(self.settings),
                "rounds": self.rounds, "seed": self.seed, "bets": bets}


def family_z(comparisons: int, confidence: float = 0.99) -> float:
    """Bonferroni z: every one of ``comparisons`` intervals holds with ``confidence`` jointly.

    >>> round(family_z(1), 4), round(family_z(21), 2)
    (2.5758, 3.49)
    """
    return NormalDist().inv_cdf(1 - (1 - confidence) / (2 * comparisons))


@dataclass(frozen=True)
class _Job:
    game: str
    variant: str
    settings: tuple[tuple[str, str | bool], ...]
    seed: int
    chunk: int
    size: int


@cache
def _prepare(
    game_name: str, variant: str, settings: tuple[tuple[str, str | bool], ...]
) -> tuple[WagerGame, list[SettlementTable]]:
    """Per process: the game and one settlement table per prison level."""
    from pelisali.games import make_game

    game = make_game(game_name, variant or None, dict(settings))
    values = held_values(game)
    policy = choose_by_value(values)
    levels = sorted({lv for (_t, lv) in values})
    spots = [representative(game, t) for t in game.bet_types()]
    tables = [SettlementTable(game, [(s, REFERENCE_STAKE, lv) for s in spots], policy)
              for lv in range(max(levels) + 1)]
    return game, tables


def _run_chunk(job: _Job) -> tuple[list[int], list[int]]:
    """Sums of returns and of squared returns per bet for one chunk of rounds."""
    game, tables = _prepare(job.game, job.variant, job.settings)
    rng = SeededRng(np.random.SeedSequence(job.seed, spawn_key=(job.chunk,)))
    outcomes = game.draw_many(rng, job.size)
    totals = tables[0].settle(outcomes)
    if tables[0].can_hold:
        held = tables[0].held_levels(outcomes)
        if held.any():
            _carry_prison(game, tables, rng, held, totals)
    sums = totals.sum(axis=0, dtype=np.int64)
    # Returns are at most a few hundred thousand cents, so squares summed over a
    # chunk stay far inside int64: exact, no floating point.
    squares = np.einsum("ij,ij->j", totals, totals)
    return [int(x) for x in sums], [int(x) for x in squares]


def _carry_prison(game: WagerGame, tables: list[SettlementTable], rng: SeededRng,
                  held: npt.NDArray[np.int64], totals: npt.NDArray[np.int64]) -> None:
    """Spin again for every held bet until each is decided, adding what it returns."""
    rows, cols = np.nonzero(held)
    levels = held[rows, cols]
    while rows.size:
        outcomes = game.draw_many(rng, rows.size)
        new_levels = np.zeros_like(levels)
        for level in np.unique(levels):
            mask = levels == level
            totals[rows[mask], cols[mask]] += tables[level].paid[outcomes[mask], cols[mask]]
            new_levels[mask] = tables[level].held[outcomes[mask], cols[mask]]
        keep = new_levels != 0
        rows, cols, levels = rows[keep], cols[keep], new_levels[keep]


def representative(game: WagerGame, bet_type: str) -> Spot:
    """The spot simulated for a bet type: the middle one, so that the rows of different
    types do not all cover zero (every spot of a type has the same exact value)."""
    spots = game.spots_of(bet_type)
    return spots[len(spots) // 2]


class Chunk(Protocol):
    @property
    def size(self) -> int: ...


ChunkT = TypeVar("ChunkT", bound=Chunk)


def sum_chunks(jobs: Sequence[ChunkT], run: Callable[[ChunkT], tuple[list[int], list[int]]],
               width: int, workers: int | None = None,
               progress: Callable[[int], None] | None = None) -> tuple[list[int], list[int]]:
    """Run chunks of rounds (on every core unless ``workers`` says otherwise) and add up
    their per-bet sums of returns and of squared returns, in job order."""
    sums, squares = [0] * width, [0] * width
    workers = workers or min(len(jobs), os.cpu_count() or 1)

    def add(job: ChunkT, result: tuple[list[int], list[int]]) -> None:
        for i, (s, q) in enumerate(zip(*result, strict=True)):
            sums[i] += s
            squares[i] += q
        if progress:
            progress(job.size)

    if workers <= 1 or len(jobs) == 1:
        for job in jobs:
            add(job, run(job))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for job, result in zip(jobs, pool.map(run, jobs), strict=True):
                add(job, result)
    return sums, squares


def simulate(
    game: WagerGame,
    rounds: int,
    seed: int,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimResult:
    """Simulate ``rounds`` rounds with one bet of every type; exact RTP alongside."""
    if rounds <= 0:
        raise ValueError("rounds must be positive")
    settings = tuple(sorted(game.settings.items()))
    jobs = []
    for chunk, start in enumerate(range(0, rounds, CHUNK)):
        jobs.append(_Job(game.name, game.variant, settings, seed, chunk,
                         min(CHUNK, rounds - start)))
    types = game.bet_types()
    sums, squares = sum_chunks(jobs, _run_chunk, len(types), workers, progress)
    exact = {row.bet: row.rtp for row in exact_odds(game)}
    rows = [SimRow.from_sums(bet_type, representative(game, bet_type).key, exact[bet_type],
                             sums[i], squares[i], rounds, REFERENCE_STAKE)
            for i, bet_type in enumerate(types)]
    return SimResult(game.name, game.variant, dict(game.settings), rounds, seed, rows)
