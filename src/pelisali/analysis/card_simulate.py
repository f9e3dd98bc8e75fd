"""Simulation of the banked card games through their tables: real shoes, cut cards, reshuffles.

Each chunk of rounds is dealt at its own table from a freshly shuffled shoe
(seeded from ``SeedSequence(seed).spawn`` child ``chunk``), so the result
depends only on the seed and the round count. The exact values beside the
observed ones are for a full shoe; the cut card changes them by far less than
the intervals here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from pelisali.analysis.simulate import SimResult, SimRow, sum_chunks
from pelisali.games.punto_banco import BETS, PuntoBancoConfig, PuntoBancoTable
from pelisali.rng import SeededRng

CHUNK = 20_000
BACCARAT_STAKE = 2000


@dataclass(frozen=True)
class _Job:
    game: str
    settings: tuple[tuple[str, str | bool], ...]
    seed: int
    chunk: int
    size: int


def _baccarat_chunk(job: _Job) -> tuple[list[int], list[int]]:
    config = PuntoBancoConfig.from_settings(dict(job.settings))
    rng = SeededRng(np.random.SeedSequence(job.seed, spawn_key=(job.chunk,)))
    table = PuntoBancoTable(rng, config, keep_history=False)
    table.sit("sim", 1 << 62)
    sums, squares = [0] * len(BETS), [0] * len(BETS)
    for _ in range(job.size):
        for bet in BETS:
            table.place("sim", bet, BACCARAT_STAKE)
        _coup, settlements = table.deal()
        for i, s in enumerate(settlements):
            sums[i] += s.paid
            squares[i] += s.paid * s.paid
    return sums, squares


def _blackjack_chunk(job: _Job) -> tuple[list[int], list[int]]:
    from pelisali.analysis.blackjack_play import play_strategy_rounds

    total, square = play_strategy_rounds(dict(job.settings), job.seed, job.chunk, job.size)
    return [total], [square]


def simulate_cards(
    game: str,
    rounds: int,
    seed: int,
    settings: Mapping[str, str | bool] | None = None,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    exact: Mapping[str, Fraction] | None = None,
) -> SimResult:
    """Simulate ``rounds`` rounds of punto banco (all three bets) or blackjack (basic strategy)."""
    if rounds <= 0:
        raise ValueError("rounds must be positive")
    frozen = tuple(sorted((settings or {}).items()))
    jobs = [_Job(game, frozen, seed, i, min(CHUNK, rounds - start))
            for i, start in enumerate(range(0, rounds, CHUNK))]
    if game == "punto-banco":
        names, stake, run = list(BETS), BACCARAT_STAKE, _baccarat_chunk
    elif game == "blackjack":
        names, stake, run = ["basic strategy"], 0, _blackjack_chunk
    else:
        raise ValueError(f"no card simulation for {game!r}")
    sums, squares = sum_chunks(jobs, run, len(names), workers, progress)
    if game == "blackjack":
        from pelisali.analysis.blackjack_play import UNIT

        stake = UNIT
    rows = [SimRow.from_sums(name, name, (exact or {}).get(name, Fraction(0)), sums[i],
                             squares[i], rounds, stake) for i, name in enumerate(names)]
    return SimResult(game, "", dict(settings or {}), rounds, seed, rows)
