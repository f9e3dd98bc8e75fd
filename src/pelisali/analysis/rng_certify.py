"""One certification run: draw every source with the games' own code, run the battery and
the outside batteries, correct for multiple tests, and keep what the report shows.

>>> from pelisali.rng import SeededRng
>>> run = certify(SeededRng(7), ["roulette"], draws=20_000, shuffle_count=0,
...               dieharder_tests=(), nist_bits=0)
>>> run.passed, [r.test for r in run.results][:3]
(True, ['chi-square fit', 'serial pairs', 'serial triples'])
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata

import numpy as np

from pelisali.analysis import rng_battery as battery
from pelisali.analysis.rng_battery import Corrected, Floats, Ints, TestResult
from pelisali.analysis.rng_external import DIEHARDER_TESTS, NotRun, run_dieharder, run_nist
from pelisali.analysis.rng_sources import (
    SHUFFLE,
    SOURCES,
    WAGER_GAMES,
    Drawer,
    chance_nodes,
    chance_streams,
    shuffles,
    wager_streams,
)
from pelisali.engine import sample_chance
from pelisali.rng import Rng

Start = Callable[[str, int], Callable[[int], None]]
"""Starts a progress task (label, total) and gives the function that advances it."""
SMALL_DECKS = (4, 5)  # every order of 4 and 5 cards: 24 and 120 cells


def _no_progress(_: str, __: int) -> Callable[[int], None]:
    return lambda _: None


@dataclass(frozen=True)
class Observed:
    """What a stream showed, for the report's histograms."""

    source: str
    drawn_by: str
    samples: int
    counts: Ints
    probabilities: Floats


@dataclass
class Certification:
    """A battery run: the generator, when and where, sample sizes, every result, the
    Holm-corrected verdict."""

    generator: str
    started: dt.datetime
    draws: int
    shuffle_count: int
    nist_bits: int
    drawer: str
    results: list[TestResult] = field(default_factory=list)
    not_run: list[NotRun] = field(default_factory=list)
    observed: list[Observed] = field(default_factory=list)
    drawn_by: dict[str, str] = field(default_factory=dict)  # source: the code that drew it
    positions: Ints | None = None
    finished: dt.datetime | None = None
    corrected: list[Corrected] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """No test fails after the Holm correction at 99 % family confidence."""
        return all(c.passed for c in self.corrected)

    @property
    def machine(self) -> dict[str, str]:
        return machine()


def machine() -> dict[str, str]:
    """Where the run happened: host, system, processor, Python and library versions."""
    versions = {}
    for package in ("numpy", "scipy", "nistrng"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = "absent"
    return {"host": platform.node(), "system": platform.platform(),
            "processor": platform.machine(), "cores": str(os.cpu_count()),
            "python": sys.version.split()[0],
            **versions}


def certify(rng: Rng, games: Sequence[str] = SOURCES, draws: int = 1_000_000,
            shuffle_count: int = 20_000, draw: Drawer = sample_chance,
            dieharder_tests: Sequence[int] = DIEHARDER_TESTS, nist_bits: int = 1_000_000,
            start: Start = _no_progress, variant: str | None = None) -> Certification:
    """The battery on ``games`` (default every source): ``draws`` rounds of each game,
    ``shuffle_count`` shuffles of a 52-card deck (and ten times as many of the small
    decks), dieharder's ``dieharder_tests`` and NIST on ``nist_bits`` bits (0: none) of
    the raw stream."""
    unknown = [g for g in games if g not in SOURCES]
    if unknown:
        raise ValueError(f"no RNG source {unknown[0]!r}; sources: {', '.join(SOURCES)}")
    run = Certification(getattr(rng, "name", type(rng).__name__), _now(), draws, shuffle_count,
                        nist_bits, f"{draw.__module__}.{getattr(draw, '__name__', 'draw')}")
    for game in games:
        if game == SHUFFLE:
            continue
        if game in WAGER_GAMES:
            streams = wager_streams(game, rng, draws, variant if game == "roulette" else None,
                                    start(f"drawing {game}", draws))
        else:
            streams = chance_streams(game, rng, draws, draw, start(
                f"drawing {game}", draws * len(chance_nodes(game))))
        advance = start(f"testing {game}", len(streams))
        for stream in streams:
            run.drawn_by[stream.source] = stream.drawn_by
            run.results.extend(battery.stream_tests(stream.source, stream.outcomes,
                                                    stream.probabilities, raw=stream.raw))
            run.observed.append(Observed(
                stream.source, stream.drawn_by, int(stream.outcomes.size),
                np.bincount(stream.outcomes, minlength=stream.probabilities.size),
                stream.probabilities))
            advance(1)
    if SHUFFLE in games and shuffle_count:
        deck = shuffles(rng, shuffle_count, progress=start("shuffling decks", shuffle_count))
        run.drawn_by[deck.source] = deck.drawn_by
        run.results.append(battery.card_positions(deck.source, deck.orders))
        run.positions = battery.position_counts(deck.orders)
        for cards in SMALL_DECKS:
            small = shuffles(rng, 10 * shuffle_count, cards,
                             progress=start(f"shuffling {cards} cards", 10 * shuffle_count))
            run.drawn_by[small.source] = "rng.shuffle (Fisher–Yates; Shoe.shuffle calls it)"
            run.results.append(battery.permutations(small.source, small.orders))
    own = [r.p_value for r in run.results]
    run.drawn_by.update(dict.fromkeys(("dieharder (raw words)", "NIST SP 800-22 (raw bits)"),
                                      "randbelow_many(2**32): the raw 32-bit words"))
    if dieharder_tests:
        found, missing = run_dieharder(rng, dieharder_tests,
                                       start("dieharder", len(dieharder_tests)))
        run.results.extend(found)
        run.not_run.extend(missing)
    if nist_bits:
        from pelisali.analysis.rng_external import nist_tests

        found, missing = run_nist(rng, nist_bits, start("NIST SP 800-22", len(nist_tests())))
        run.results.extend(found)
        run.not_run.extend(missing)
    if len(own) >= 2:  # the battery's own: NIST's combined p-values lean high by design
        run.results.append(battery.ks_uniform("all tests", "p-values uniform (KS)", own))
    run.corrected = battery.holm(run.results)
    run.finished = _now()
    return run


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(microsecond=0)
