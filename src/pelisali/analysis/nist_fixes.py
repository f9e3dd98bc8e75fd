"""Three NIST SP 800-22 rev 1a tests written out here because ``nistrng`` 1.2.3 gets them
wrong: the overlapping template matching test (§2.8), the linear complexity test (§2.10)
and the random excursions test (§2.14). The others still come from ``nistrng``.

Each takes the bits as a sequence of 0/1 and gives its statistic and P-value (the
excursions test one of each for every state x = -4 … -1, 1 … 4).

>>> bits = [int(b) for b in "1101011110001"]  # §2.10.4: L = 4
>>> berlekamp_massey(bits)
4
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.special import gammaincc

Bits = npt.NDArray[np.int64]

OVERLAP_PI = (0.364091, 0.185659, 0.139381, 0.100571, 0.0704323, 0.139865)
"""§2.8.4 step (4): P(0 … 4, ≥ 5 matches of 111111111 in 1032 bits), the corrected
values of Hamano and Kaneko (2007) that rev 1a prints (§3.8)."""
OVERLAP_TEMPLATE_BITS = 9  # §2.8.7: m = 9
OVERLAP_BLOCK = 1032  # §2.8.7: M = 1032, the block OVERLAP_PI is for
LINEAR_PI = (0.010417, 0.03125, 0.125, 0.5, 0.25, 0.0625, 0.020833)  # §2.10.4 step (6)
LINEAR_BLOCK = 500  # §2.10.7: 500 ≤ M ≤ 5000
LINEAR_MIN_BLOCKS = 200  # §2.10.7: N ≥ 200
EXCURSION_STATES = (-4, -3, -2, -1, 1, 2, 3, 4)  # §2.14.4 step (5)


@dataclass(frozen=True)
class ChiSquare:
    """A chi-square test's class counts ν, statistic χ² and P-value."""

    counts: tuple[int, ...]
    statistic: float
    p_value: float


def _as_bits(bits: Sequence[int] | npt.NDArray[np.integer]) -> Bits:
    array = np.asarray(bits, dtype=np.int64)
    if array.ndim != 1 or np.any((array != 0) & (array != 1)):
        raise ValueError("bits are a flat sequence of 0 and 1")
    return array


def chi_square(counts: Sequence[int], pi: Sequence[float], total: int) -> ChiSquare:
    expected = total * np.asarray(pi, dtype=np.float64)
    observed = np.asarray(counts, dtype=np.float64)
    statistic = float(np.sum((observed - expected) ** 2 / expected))
    degrees = len(pi) - 1
    return ChiSquare(tuple(int(c) for c in counts), statistic,
                     float(gammaincc(degrees / 2, statistic / 2)))


def compound_poisson_pi(m: int, block: int, classes: int = 6) -> tuple[float, ...]:
    """§3.8's compound Poisson approximation of P(U = u) matches of m ones in a block,
    η = (block − m + 1)/2^(m+1); the last class is "u or more". Rev 1a's own
    :data:`OVERLAP_PI` are more accurate; the §2.8.4 and §2.8.8 worked examples used
    these.

    >>> [round(p, 6) for p in compound_poisson_pi(9, 1032)]
    [0.367879, 0.18394, 0.137955, 0.099634, 0.069935, 0.140657]
    """
    eta = (block - m + 1) / 2 ** m / 2
    pi = [math.exp(-eta)]
    for u in range(1, classes - 1):
        pi.append(math.exp(-eta) / 2 ** u * sum(
            math.comb(u - 1, k - 1) * eta ** k / math.factorial(k) for k in range(1, u + 1)))
    return (*pi, 1 - sum(pi))


def overlapping_template(bits: Sequence[int] | npt.NDArray[np.integer],
                         m: int = OVERLAP_TEMPLATE_BITS, block: int = OVERLAP_BLOCK,
                         pi: Sequence[float] = OVERLAP_PI) -> ChiSquare:
    """§2.8: the bits in blocks of ``block``; in each the overlapping matches of ``m``
    ones are counted, and the blocks with 0, 1, … , ≥ len(pi) − 1 matches fit ``pi``.

    >>> eps = [int(b) for b in "10111011110010110100011100101110111110000101101001"]
    >>> found = overlapping_template(eps, 2, 10, compound_poisson_pi(2, 10))
    >>> found.counts
    (0, 2, 0, 1, 1, 1)
    """
    array = _as_bits(bits)
    n_blocks = array.size // block
    if n_blocks == 0:
        raise ValueError(f"needs at least {block} bits")
    blocks = array[:n_blocks * block].reshape(n_blocks, block)
    sums = np.cumsum(np.pad(blocks, ((0, 0), (1, 0))), axis=1)
    matches = np.count_nonzero(sums[:, m:] - sums[:, :-m] == m, axis=1)
    top = len(pi) - 1
    counts = np.bincount(np.minimum(matches, top), minlength=top + 1)
    return chi_square(counts.tolist(), pi, n_blocks)


def berlekamp_massey(bits: Sequence[int] | npt.NDArray[np.integer]) -> int:
    """The linear complexity of ``bits`` over GF(2): the length of the shortest linear
    feedback shift register that makes them (§2.10, Berlekamp–Massey). Polynomials are
    Python integers (bit i the coefficient of D^i), so every step is a few word
    operations, and nothing is shared between the polynomials kept.

    >>> berlekamp_massey([1, 0, 1, 0, 1, 0]), berlekamp_massey([0, 0, 0, 1])
    (2, 4)
    """
    connection, previous, length, shift = 1, 1, 0, -1
    window = 0  # bit i is the bit i places before the current one
    for n, bit in enumerate(bits):
        window = (window << 1) | int(bit)
        if (connection & window).bit_count() & 1:  # the discrepancy
            before = connection
            connection ^= previous << (n - shift)
            if 2 * length <= n:
                length, shift, previous = n + 1 - length, n, before
    return length


def linear_complexity(bits: Sequence[int] | npt.NDArray[np.integer],
                      block: int = LINEAR_BLOCK,
                      pi: Sequence[float] = LINEAR_PI) -> ChiSquare:
    """§2.10: each block's linear complexity L against its mean μ, as
    T = (−1)^M (L − μ) + 2/9 in seven classes (≤ −2.5, … , > 2.5) that fit ``pi``.

    >>> linear_complexity([int(b) for b in "1101011110001"], 13).counts
    (0, 0, 0, 0, 0, 0, 1)
    """
    array = _as_bits(bits)
    n_blocks = array.size // block
    if n_blocks == 0:
        raise ValueError(f"needs at least {block} bits")
    mean = (block / 2 + (9 + (-1) ** (block + 1)) / 36
            - (block / 3 + 2 / 9) / 2 ** block)
    edges = (-2.5, -1.5, -0.5, 0.5, 1.5, 2.5)
    counts = [0] * 7
    for row in array[:n_blocks * block].reshape(n_blocks, block):
        t = (-1) ** block * (berlekamp_massey(row.tolist()) - mean) + 2 / 9
        counts[sum(t > edge for edge in edges)] += 1
    return chi_square(counts, pi, n_blocks)


def excursion_pi(x: int) -> tuple[float, ...]:
    """§3.14: the chance that a cycle of the random walk visits state ``x`` k = 0 … 4
    times, and 5 or more.

    >>> [round(p, 6) for p in excursion_pi(1)]
    [0.5, 0.25, 0.125, 0.0625, 0.03125, 0.03125]
    """
    stay = 1 - 1 / (2 * abs(x))
    return (stay, *(1 / (4 * x * x) * stay ** (k - 1) for k in range(1, 5)),
            1 / (2 * abs(x)) * stay ** 4)


@dataclass(frozen=True)
class Excursions:
    """The random excursions test: J cycles, and for each state its χ² test."""

    cycles: int
    states: dict[int, ChiSquare]


def random_excursions(bits: Sequence[int] | npt.NDArray[np.integer]) -> Excursions:
    """§2.14: the walk of ±1 steps, cut into J cycles at its zeros (a zero added at
    either end); for each state x, the cycles that visit x exactly 0 … 4 times and 5 or
    more times fit :func:`excursion_pi`. A cycle with more than four visits counts once,
    under "5 or more" only.

    >>> found = random_excursions([int(b) for b in "0110110101"])  # §2.14.4
    >>> found.cycles, found.states[1].counts, round(found.states[1].statistic, 6)
    (3, (1, 1, 0, 1, 0, 0), 4.333333)
    """
    array = _as_bits(bits)
    walk = np.concatenate(([0], np.cumsum(2 * array - 1), [0]))
    zeros = walk == 0
    cycle = np.cumsum(zeros)[1:-1] - 1  # the cycle each step of the walk lies in
    cycles = int(np.count_nonzero(zeros)) - 1
    inner = walk[1:-1]
    states: dict[int, ChiSquare] = {}
    for x in EXCURSION_STATES:
        visits = np.bincount(cycle[inner == x], minlength=cycles)
        counts = np.bincount(np.minimum(visits, 5), minlength=6)
        states[x] = chi_square(counts.tolist(), excursion_pi(x), cycles)
    return Excursions(cycles, states)
