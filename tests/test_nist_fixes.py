"""The three NIST SP 800-22 rev 1a tests written out in ``nist_fixes``, against the worked
examples SP 800-22 prints: the small ones of §2.8.4, §2.10.4 and §2.14.4, and the first
1 000 000 binary digits of e (§2.8.8, §2.10.8, §2.14.8). e is computed here exactly
(binary splitting of Σ 1/k!), so the test needs no data file."""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt
import pytest

from pelisali.analysis import nist_fixes as fixes
from pelisali.rng import SeededRng

E_BITS = 1_000_000


def _series(a: int, b: int) -> tuple[int, int]:
    """Σ_{k=a+1}^{b} a!/k! as P/Q, Q = (a+1)…b."""
    if b - a == 1:
        return 1, b
    middle = (a + b) // 2
    p1, q1 = _series(a, middle)
    p2, q2 = _series(middle, b)
    return p1 * q2 + p2, q1 * q2


@functools.cache
def e_bits() -> npt.NDArray[np.int64]:
    """e = 10.1011011111… in binary, its first 10^6 digits (the integer part's two
    included, as NIST's data.e has them). 70 000 terms of Σ 1/k! err by less than
    2^-10^6 by far."""
    p, q = _series(0, 70_000)
    digits = bin(((p + q) << (E_BITS - 2)) // q)[2:]
    return np.frombuffer(digits.encode(), dtype=np.uint8).astype(np.int64) - ord("0")


def _bits(text: str) -> list[int]:
    return [int(b) for b in text]


def test_e_starts_as_sp800_22_prints_it() -> None:
    bits = e_bits()
    assert bits.size == E_BITS
    assert "".join(map(str, bits[:20])) == "10101101111110000101"
    assert int(bits.sum()) == 500_029  # §2.1.8: S_n = 58 over 10^6 bits of e


# -- §2.8 overlapping template matching ---------------------------------------------------
def test_overlapping_template_small_example() -> None:
    eps = _bits("10111011110010110100011100101110111110000101101001")
    # §2.8.4 step (4): η = 1.125 and these π0 … π4
    pi = fixes.compound_poisson_pi(2, 10)
    assert [round(p, 6) for p in pi][:5] == [0.324652, 0.182617, 0.142670, 0.106645,
                                             0.077147]
    # the printed sequence's second block, 0010110100, has one match of 11, not the two
    # §2.8.4's tally ν = (0, 1, 1, 1, 1, 1) gives it; counted as printed:
    assert fixes.overlapping_template(eps, 2, 10, pi).counts == (0, 2, 0, 1, 1, 1)
    # the tally as §2.8.4 prints it gives its χ² = 3.167729 (to the π rounded there)
    assert round(fixes.chi_square((0, 1, 1, 1, 1, 1), pi, 5).statistic, 4) == 3.1677


def test_overlapping_template_on_e() -> None:
    # §2.8.8 used the compound Poisson π (π0 = e^-1): its counts, χ² and P-value
    published = fixes.overlapping_template(e_bits(), pi=fixes.compound_poisson_pi(9, 1032))
    assert published.counts == (329, 164, 150, 111, 78, 136)
    assert round(published.statistic, 6) == 8.965859
    assert round(published.p_value, 6) == 0.110434
    # the test as run: rev 1a's corrected π of §2.8.4 on the same counts
    corrected = fixes.overlapping_template(e_bits())
    assert corrected.counts == published.counts
    assert round(corrected.statistic, 6) == 7.949657
    assert round(corrected.p_value, 6) == 0.159032


# -- §2.10 linear complexity ---------------------------------------------------------------
def test_berlekamp_massey_against_a_register() -> None:
    assert fixes.berlekamp_massey(_bits("1101011110001")) == 4  # §2.10.4 step (2)
    # a 20-bit register x_n = x_{n-3} + x_{n-20} from a random fill has complexity 20
    fill = SeededRng(5).randbelow_many(2, 20).tolist()
    while len(fill) < 400:
        fill.append(fill[-3] ^ fill[-20])
    assert fixes.berlekamp_massey(fill) == 20
    assert fixes.berlekamp_massey([0] * 50) == 0
    assert fixes.berlekamp_massey([0] * 49 + [1]) == 50


def test_linear_complexity_on_e() -> None:
    # §2.10.8, M = 1000: ν as printed; its χ² and P-value come from the π0 = 0.01047
    # that SP 800-22's reference code has (§2.10.4 prints 0.010417)
    reference = (0.01047, 0.03125, 0.125, 0.5, 0.25, 0.0625, 0.020833)
    published = fixes.linear_complexity(e_bits(), 1000, reference)
    assert published.counts == (11, 31, 116, 501, 258, 57, 26)
    assert round(published.statistic, 6) == 2.700348
    assert round(published.p_value, 6) == 0.845406
    corrected = fixes.linear_complexity(e_bits(), 1000)
    assert round(corrected.p_value, 6) == 0.844721


# -- §2.14 random excursions ---------------------------------------------------------------
def test_random_excursions_small_example() -> None:
    found = fixes.random_excursions(_bits("0110110101"))
    assert found.cycles == 3  # §2.14.4 step (4)
    assert found.states[1].counts == (1, 1, 0, 1, 0, 0)  # §2.14.4 step (5), x = +1
    # §2.14.4 prints χ² = 4.333033 and P = 0.502529; ν and π give 13/3 exactly
    assert found.states[1].statistic == pytest.approx(13 / 3)
    assert round(found.states[1].p_value, 6) == 0.502488


def test_random_excursions_on_e() -> None:
    found = fixes.random_excursions(e_bits())
    assert found.cycles == 1490  # §2.14.8: J = 1490
    # §2.14.8's negative states, χ² and P-value as printed
    printed = {-4: (3.835698, 0.573306), -3: (7.318707, 0.197996),
               -2: (7.861927, 0.164011), -1: (15.692617, 0.007779)}
    for x, (statistic, p) in printed.items():
        assert round(found.states[x].statistic, 6) == statistic
        assert round(found.states[x].p_value, 6) == p
    # the positive states as the SP 800-22 reference code gives them for e (§2.14.8's
    # text prints other values for these four, not consistent with its own ν and π)
    reference = {1: 0.786868, 2: 0.440912, 3: 0.797854, 4: 0.778186}
    for x, p in reference.items():
        assert round(found.states[x].p_value, 6) == p


def test_a_cycle_with_many_visits_counts_once() -> None:
    # the first cycle visits +1 seven times and +2 six times; the second only -1
    found = fixes.random_excursions(_bits("1" + "10" * 6 + "0" + "0"))
    assert found.cycles == 2
    assert found.states[1].counts == (1, 0, 0, 0, 0, 1)
    assert found.states[2].counts == (1, 0, 0, 0, 0, 1)
    assert found.states[-1].counts == (1, 1, 0, 0, 0, 0)
