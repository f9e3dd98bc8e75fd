"""The raw generator through two well-known outside batteries: Debian's ``dieharder``
(reading raw 32-bit words from its standard input, ``-g 200``) and NIST SP 800-22
(the ``nistrng`` package, with three of its tests from
:mod:`~pelisali.analysis.nist_fixes`).

The raw stream is the generator's own uniform draws below ``2**32``
(:meth:`Rng.randbelow_many <pelisali.rng.Rng.randbelow_many>`), as little-endian 32-bit
words. Each outside test gives a :class:`~pelisali.analysis.rng_battery.TestResult`
like the battery's own, so the report and the Holm correction treat them alike.

>>> from pelisali.rng import SeededRng
>>> len(raw_words(SeededRng(1), 4))
16
"""

from __future__ import annotations

import contextlib
import math
import shutil
import subprocess
import threading
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pelisali.analysis import nist_fixes as fixes
from pelisali.analysis.rng_battery import TestResult
from pelisali.rng import Rng

DIEHARDER_TESTS = (0, 1, 3, 8, 10, 15, 100, 101)
"""dieharder's birthdays, 5-permutations, 6×8 rank, bytes' 1s count, parking lot,
runs, and the STS monobit and runs tests: about a minute on one core."""
NIST_OWN = ("overlapping_template_matching", "linear_complexity", "random_excursion")
"""nistrng's tests that are wrong (its overlapping template test fails on every input with
NumPy 2, its random excursions test counts a cycle with five or more visits under every
visit count, its Berlekamp–Massey keeps a view where it needs a copy): these run from
:mod:`pelisali.analysis.nist_fixes` instead."""
OVERLAP_MIN_BLOCKS = 72  # §2.8: each class expects five blocks, 72 × 0.0704323 ≥ 5
EXCURSION_TESTS = frozenset({"random_excursion", "random_excursion_variant"})
MIN_CYCLES = 500  # SP 800-22 2.15.7: the excursion tests need J >= 500 zero crossings
CHUNK_WORDS = 1 << 18  # a megabyte of raw words at a time


@dataclass(frozen=True)
class NotRun:
    """An outside test that could not run, and why (shown in the report)."""

    battery: str
    test: str
    reason: str


def raw_words(rng: Rng, count: int) -> bytes:
    """``count`` raw 32-bit words of ``rng`` as little-endian bytes."""
    words = rng.randbelow_many(1 << 32, count).astype("<u4")
    return words.tobytes()


def dieharder_path() -> str | None:
    """The ``dieharder`` program, if installed (Debian: ``apt-get install dieharder``)."""
    return shutil.which("dieharder")


def parse_dieharder(text: str) -> list[tuple[str, int, int, float]]:
    """dieharder's result rows: test name, ntup, psamples and p-value.

    >>> parse_dieharder('''   test_name   |ntup| tsamples |psamples|  p-value |Assessment
    ...    diehard_birthdays|   0|       100|     100|0.70091640|  PASSED  ''')
    [('diehard_birthdays', 0, 100, 0.7009164)]
    """
    rows = []
    for line in text.splitlines():
        fields = [f.strip() for f in line.split("|")]
        if len(fields) < 6 or fields[0] == "test_name":
            continue
        try:
            rows.append((fields[0], int(fields[1]), int(fields[3]), float(fields[4])))
        except ValueError:
            continue
    return rows


def run_dieharder(rng: Rng, tests: Sequence[int] = DIEHARDER_TESTS,
                  progress: Callable[[int], None] | None = None
                  ) -> tuple[list[TestResult], list[NotRun]]:
    """Each dieharder test on a fresh raw stream of ``rng`` fed to its standard input
    for as long as it reads; progress advances by one a test."""
    program = dieharder_path()
    if program is None:
        return [], [NotRun("dieharder", "all", "dieharder is not installed "
                           "(apt-get install dieharder)")]
    results: list[TestResult] = []
    missing: list[NotRun] = []
    for number in tests:
        # a fixed program found on PATH, fixed arguments, no shell
        process = subprocess.Popen([program, "-g", "200", "-d", str(number)],  # noqa: S603
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL)
        feeder = threading.Thread(target=_feed, args=(process, rng), daemon=True)
        feeder.start()
        output = (process.stdout.read() if process.stdout else b"").decode("utf-8", "replace")
        process.wait()
        feeder.join()
        rows = parse_dieharder(output)
        if not rows:
            missing.append(NotRun("dieharder", f"-d {number}",
                                  f"no result (exit {process.returncode})"))
        for name, ntup, psamples, p in rows:
            label = f"{name}" + (f" (ntup {ntup})" if ntup else "")
            results.append(TestResult("dieharder (raw words)", label, math.nan, None, p,
                                      psamples, f"KS of {psamples} p-values, -d {number}"))
        if progress is not None:
            progress(1)
    return results, missing


def _feed(process: subprocess.Popen[bytes], rng: Rng) -> None:
    stdin = process.stdin
    if stdin is None:
        return
    try:
        while process.poll() is None:
            stdin.write(raw_words(rng, CHUNK_WORDS))
    except (BrokenPipeError, OSError):
        pass  # dieharder has read what it needs and closed its input
    finally:
        with contextlib.suppress(OSError):
            stdin.close()


def nist_tests() -> list[str]:
    """The NIST SP 800-22 tests nistrng has, in its order."""
    from nistrng import SP800_22R1A_BATTERY

    return list(SP800_22R1A_BATTERY)


def run_nist(rng: Rng, bits: int, progress: Callable[[int], None] | None = None,
             only: Sequence[str] | None = None) -> tuple[list[TestResult], list[NotRun]]:
    """NIST SP 800-22 on ``bits`` raw bits of ``rng`` (1 000 000 as NIST advises): each
    test's p-value, or for a test giving several (templates, excursion states) the
    smallest times their number (Bonferroni within the test).

    >>> from pelisali.rng import SeededRng
    >>> found, _ = run_nist(SeededRng(1), 20_000, only=["monobit"])
    >>> found[0].test, found[0].passed
    ('monobit', True)
    """
    from nistrng import SP800_22R1A_BATTERY

    words = np.frombuffer(raw_words(rng, math.ceil(bits / 32)), dtype="<u4")
    # int64: nistrng's cumulative sums add the bits as NumPy scalars of the input's type,
    # which wrap at 127 for int8
    sequence = np.unpackbits(words.view(np.uint8), bitorder="little")[:bits].astype(np.int64)
    cycles = int(np.count_nonzero(np.cumsum(2 * sequence - 1) == 0)) + 1
    results: list[TestResult] = []
    missing: list[NotRun] = []
    for name, test in SP800_22R1A_BATTERY.items():
        if only is not None and name not in only:
            continue
        if name in EXCURSION_TESTS and cycles < MIN_CYCLES:
            missing.append(NotRun("NIST SP 800-22", name, f"{cycles} cycles; it needs "
                                  f"{MIN_CYCLES} (more bits)"))
        elif name in NIST_OWN:
            own = _run_own(name, sequence)
            if own is None:
                missing.append(NotRun("NIST SP 800-22", name,
                                      f"needs more than {bits:,} bits"))
            else:
                results.append(TestResult("NIST SP 800-22 (raw bits)", name, math.nan, None,
                                          own[0], bits, own[1]))
        elif not test.is_eligible(sequence.copy()):
            missing.append(NotRun("NIST SP 800-22", name, f"needs more than {bits:,} bits"))
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # nistrng divides by zero on some states
                # a copy each: nistrng's binary matrix rank test rewrites its input
                result, _ = test.run(sequence.copy())
            # Result keeps every p-value only in a private field; .score is their mean
            found = np.asarray(result._score_list, dtype=np.float64).ravel()
            found = found[~np.isnan(found)]
            if found.size == 0:
                missing.append(NotRun("NIST SP 800-22", name, "no p-value (too few cycles)"))
            else:
                p = min(1.0, float(found.min()) * found.size)
                detail = (f"{found.size} p-values, smallest × {found.size}" if found.size > 1
                          else "one p-value")
                results.append(TestResult("NIST SP 800-22 (raw bits)", name, math.nan, None,
                                          p, bits, detail))
        if progress is not None:
            progress(1)
    return results, missing


def _run_own(name: str, sequence: npt.NDArray[np.int64]) -> tuple[float, str] | None:
    """One of :data:`NIST_OWN` by :mod:`~pelisali.analysis.nist_fixes`: its p-value (for
    the excursions the smallest of the eight states' times eight) and a note, or None when
    the bits are too few."""
    if name == "overlapping_template_matching":
        if sequence.size // fixes.OVERLAP_BLOCK < OVERLAP_MIN_BLOCKS:
            return None
        found = fixes.overlapping_template(sequence)
        return found.p_value, f"one p-value, χ² {found.statistic:.4f} (§2.8, m = 9)"
    if name == "linear_complexity":
        if sequence.size // fixes.LINEAR_BLOCK < fixes.LINEAR_MIN_BLOCKS:
            return None
        found = fixes.linear_complexity(sequence)
        return found.p_value, f"one p-value, χ² {found.statistic:.4f} (§2.10, M = 500)"
    excursions = fixes.random_excursions(sequence)
    states = len(excursions.states)
    smallest = min(s.p_value for s in excursions.states.values())
    return (min(1.0, smallest * states),
            f"{states} p-values, smallest × {states} ({excursions.cycles} cycles, §2.14)")
