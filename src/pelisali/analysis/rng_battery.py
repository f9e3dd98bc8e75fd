"""The RNG battery: statistical tests of the outcomes a game's own drawing code makes.

Each test takes a stream of outcomes (integers ``0 … k-1``, with the exact probability
of each) or a set of shuffles, and gives a :class:`TestResult` with its statistic and
p-value. Every test is two-sided where that makes sense and is judged at 99 %
confidence (:data:`ALPHA` = 0.01); :func:`holm` corrects the whole family for multiple
testing (Holm–Bonferroni, which bounds the chance of any false alarm by ``ALPHA``).
docs/rng.md explains each test and the sample sizes it needs.

>>> import numpy as np
>>> from pelisali.rng import SeededRng
>>> rng = SeededRng(1)
>>> fair = rng.randbelow_many(37, 50_000)
>>> chi_square_fit("wheel", fair, uniform(37)).passed
True
>>> biased = rng.randbelow_many(256, 50_000) % 37  # modulo bias: 0-33 too often
>>> chi_square_fit("wheel", biased, uniform(37)).passed
False
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from scipy import stats

ALPHA = 0.01
"""Each test's significance level: 99 % confidence (GLI-19, UKGC RTS 7)."""
MIN_EXPECTED = 5.0
"""Chi-square cells expecting fewer outcomes are pooled (the usual rule of five)."""
Z99 = 2.5758293035489004
"""The two-sided 99 % normal quantile."""

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class TestResult:
    """One test of one source: its statistic, degrees of freedom (where it has them),
    p-value and the samples it used.

    >>> TestResult("dice", "chi-square fit", 4.2, 5, 0.52, 600).passed
    True
    """

    __test__ = False  # not a pytest test class

    source: str
    test: str
    statistic: float
    df: int | None
    p_value: float
    samples: int
    detail: str = ""

    @property
    def passed(self) -> bool:
        return self.p_value >= ALPHA


@dataclass(frozen=True)
class Corrected:
    """A result with its Holm-adjusted p-value; it fails the family when that is below
    :data:`ALPHA`."""

    result: TestResult
    adjusted: float

    @property
    def passed(self) -> bool:
        return self.adjusted >= ALPHA


def uniform(k: int) -> Floats:
    """Equal probabilities of ``k`` outcomes.

    >>> uniform(4).tolist()
    [0.25, 0.25, 0.25, 0.25]
    """
    return np.full(k, 1.0 / k)


def probabilities(weights: Sequence[int]) -> Floats:
    """Exact integer weights as probabilities.

    >>> probabilities([1, 3]).tolist()
    [0.25, 0.75]
    """
    total = sum(weights)
    return np.array([w / total for w in weights], dtype=np.float64)


def chi_square(observed: npt.ArrayLike, expected: npt.ArrayLike, lost_df: int = 0
               ) -> tuple[float, int, float]:
    """Pearson's statistic, degrees of freedom and p-value; cells expecting fewer than
    :data:`MIN_EXPECTED` are pooled into one first.

    >>> stat, df, p = chi_square([10, 10, 10], [10, 10, 10])
    >>> stat, df, p
    (0.0, 2, 1.0)
    """
    obs = np.asarray(observed, dtype=np.float64).ravel()
    exp = np.asarray(expected, dtype=np.float64).ravel()
    keep = exp >= MIN_EXPECTED
    if not keep.all():
        small = np.flatnonzero(~keep)
        pooled_obs, pooled_exp = obs[small].sum(), exp[small].sum()
        big = np.flatnonzero(keep)
        big = big[np.argsort(exp[big])]
        taken = 0
        while pooled_exp < MIN_EXPECTED and taken < big.size:  # grow the pool to five
            pooled_obs += obs[big[taken]]
            pooled_exp += exp[big[taken]]
            taken += 1
        obs = np.append(obs[big[taken:]], pooled_obs)
        exp = np.append(exp[big[taken:]], pooled_exp)
    df = obs.size - 1 - lost_df
    if df < 1:
        raise ValueError("too few samples for a chi-square test: draw more")
    stat = float(((obs - exp) ** 2 / exp).sum())
    return stat, df, float(stats.chi2.sf(stat, df))


def chi_square_fit(source: str, x: Ints, p: Floats) -> TestResult:
    """Every outcome comes up at its exact probability (after scaling to the game)."""
    stat, df, pv = chi_square(np.bincount(x, minlength=p.size), x.size * p)
    return TestResult(source, "chi-square fit", stat, df, pv, int(x.size),
                      f"{p.size} outcomes")


def coarsen(x: Ints, p: Floats, classes: int) -> tuple[Ints, Floats]:
    """Neighbouring outcomes grouped into at most ``classes`` classes of about equal
    probability, for tests whose cells would otherwise be too many.

    >>> x, p = coarsen(np.arange(6), uniform(6), 3)
    >>> x.tolist(), p.round(3).tolist()
    ([0, 0, 1, 1, 2, 2], [0.333, 0.333, 0.333])
    """
    if p.size <= classes:
        return x, p
    before = np.concatenate([[0.0], np.cumsum(p)[:-1]])
    label = np.minimum((before * classes + 1e-9).astype(np.int64), classes - 1)
    _, inverse = np.unique(label, return_inverse=True)
    label = inverse.astype(np.int64)
    grouped: Floats = np.bincount(label, weights=p).astype(np.float64)
    return label[x], grouped


def serial(source: str, x: Ints, p: Floats, d: int, max_cells: int = 4096) -> TestResult:
    """Non-overlapping ``d``-tuples of consecutive outcomes fit the product of their
    probabilities: outcomes do not depend on the ones before (pairs ``d = 2``, triples
    ``d = 3``).

    >>> from pelisali.rng import SeededRng
    >>> x = SeededRng(2).randbelow_many(6, 30_000)
    >>> serial("die", x, uniform(6), 2).passed
    True
    >>> serial("die", np.repeat(x[:15_000], 2), uniform(6), 2).passed  # each twice
    False
    """
    n = x.size // d
    cells = min(max_cells, n // (2 * int(MIN_EXPECTED)))  # ten tuples a cell on average
    classes = 2
    while (classes + 1) ** d <= cells:
        classes += 1
    xs, ps = coarsen(x, p, classes)
    k = ps.size
    tuples = xs[: n * d].reshape(n, d)
    index = np.zeros(n, dtype=np.int64)
    expected = np.ones(1)
    for column in range(d):
        index = index * k + tuples[:, column]
        expected = np.multiply.outer(expected, ps).ravel()
    stat, df, pv = chi_square(np.bincount(index, minlength=k**d), n * expected)
    name = {2: "serial pairs", 3: "serial triples"}.get(d, f"serial {d}-tuples")
    grouped = f", {k} classes" if k < p.size else ""
    return TestResult(source, name, stat, df, pv, n, f"{k**d} cells{grouped}")


def half_set(p: Floats) -> npt.NDArray[np.bool_]:
    """The outcomes making up about half the probability (the lowest ones), for tests
    of a two-valued sequence; the likeliest outcome alone if one has half or more.

    >>> half_set(uniform(4)).tolist()
    [True, True, False, False]
    """
    before = np.concatenate([[0.0], np.cumsum(p)[:-1]])
    inside = before + p <= 0.5 + 1e-12
    if not inside.any() or inside.all():
        inside = np.zeros(p.size, dtype=bool)
        inside[int(np.argmax(p))] = True
    return inside


def runs(source: str, x: Ints, p: Floats) -> TestResult:
    """Wald–Wolfowitz runs test: outcomes in the lower half (by probability) against the
    rest; too few runs means clustering, too many means alternation.

    >>> runs("coin", np.arange(10_000) % 2, uniform(2)).passed  # 0 1 0 1 ...
    False
    """
    b = half_set(p)[x]
    n1 = int(b.sum())
    n2 = int(b.size - n1)
    n = n1 + n2
    r = 1 + int(np.count_nonzero(b[1:] != b[:-1]))
    if n1 == 0 or n2 == 0:  # one run: its chance is that of every outcome in one half
        q = float(p[half_set(p)].sum())
        return TestResult(source, "runs", math.inf, None, q ** n + (1 - q) ** n, n,
                          "1 run: every outcome in one half")
    mean = 2 * n1 * n2 / n + 1
    var = 2 * n1 * n2 * (2 * n1 * n2 - n) / (n * n * (n - 1))
    z = (r - mean) / math.sqrt(var)
    return TestResult(source, "runs", z, None, float(2 * stats.norm.sf(abs(z))), n,
                      f"{r} runs, expected {mean:.1f} (z)")


def gaps(source: str, x: Ints, p: Floats, max_gap: int = 512) -> TestResult:
    """Gap test: the number of outcomes between two appearances of outcome 0 (the
    zero pocket, an ace) is geometric.

    >>> gaps("die", np.arange(30_000) % 6, uniform(6)).passed  # a one every sixth
    False
    """
    q = float(p[0])
    mark = x == 0
    if q < 1e-3:  # too rare: use half the probability instead
        mark = half_set(p)[x]
        q = float(p[half_set(p)].sum())
    where = np.flatnonzero(mark)
    gap = np.diff(where) - 1
    if gap.size < 2 * MIN_EXPECTED:  # too few gaps to fit: the chance of so few marks
        return TestResult(source, "gaps", float(where.size), None,
                          float(stats.binom.cdf(where.size, x.size, q)), int(x.size),
                          f"outcome 0 only {where.size} times (p = {q:.4f}; binomial)")
    t = min(max_gap, max(1, math.ceil(math.log(MIN_EXPECTED / max(gap.size, 1))
                                      / math.log(1 - q))))
    observed = np.bincount(np.minimum(gap, t), minlength=t + 1)
    probs = q * (1 - q) ** np.arange(t + 1)
    probs[t] = (1 - q) ** t
    stat, df, pv = chi_square(observed, gap.size * probs)
    return TestResult(source, "gaps", stat, df, pv, int(gap.size),
                      f"gaps before outcome 0 (p = {q:.4f}), 0 to {t}+")


def distinct_distribution(p: Floats, hand: int = 5) -> Floats:
    """The chance that ``hand`` independent outcomes show exactly ``r`` distinct values,
    ``r = 0 … hand`` (exact, by exponential generating functions).

    >>> distinct_distribution(uniform(2), 2).round(3).tolist()
    [0.0, 0.5, 0.5]
    """
    # dp[r][j]: over the outcomes so far, r of them used, j draws, as t^j / j! terms
    dp = np.zeros((hand + 1, hand + 1))
    dp[0][0] = 1.0
    factorial = np.array([math.factorial(m) for m in range(hand + 1)], dtype=np.float64)
    for pi in p:
        new = dp.copy()
        powers = pi ** np.arange(hand + 1) / factorial
        for r in range(hand):
            for j in range(hand):
                if dp[r][j]:
                    m = np.arange(1, hand - j + 1)
                    new[r + 1][j + m] += dp[r][j] * powers[m]
        dp = new
    out: Floats = dp[:, hand] * math.factorial(hand)
    return out


def poker(source: str, x: Ints, p: Floats, hand: int = 5) -> TestResult:
    """Poker test: hands of five consecutive outcomes, counted by how many distinct
    values they show, fit the exact distribution.

    >>> from pelisali.rng import SeededRng
    >>> poker("die", SeededRng(3).randbelow_many(6, 30_000), uniform(6)).passed
    True
    """
    n = x.size // hand
    hands = np.sort(x[: n * hand].reshape(n, hand), axis=1)
    distinct = 1 + np.count_nonzero(hands[:, 1:] != hands[:, :-1], axis=1)
    stat, df, pv = chi_square(np.bincount(distinct, minlength=hand + 1)[1:],
                              n * distinct_distribution(p, hand)[1:])
    return TestResult(source, "poker", stat, df, pv, n, f"hands of {hand}")


def birthday_spacings(source: str, x: Ints, k: int) -> TestResult:
    """Marsaglia's birthday spacings on a uniform stream: consecutive outcomes make
    birthdays in a year of ``k**d >= 2**24`` days; the repeated spacings between ``m``
    sorted birthdays are Poisson with mean ``m**3 / (4 k**d)`` (about 2 here).

    >>> from pelisali.rng import SeededRng
    >>> x = SeededRng(4).randbelow_many(37, 100_000)
    >>> birthday_spacings("wheel", x, 37).passed
    True
    """
    d = max(1, math.ceil(24 / math.log2(k)))
    days = k**d
    m = round((8 * days) ** (1 / 3))
    lam = m**3 / (4 * days)
    samples = x.size // (m * d)
    if samples < 1:
        raise ValueError("too few draws for birthday spacings")
    digits = x[: samples * m * d].reshape(samples, m, d).astype(np.float64)
    # base-k numbers of d digits; float64 is exact below 2**53
    birthdays = (digits * (float(k) ** np.arange(d - 1, -1, -1))).sum(axis=2)
    spacings = np.sort(np.diff(np.sort(birthdays, axis=1), axis=1, prepend=0), axis=1)
    repeats = int(np.count_nonzero(spacings[:, 1:] == spacings[:, :-1]))
    mean = lam * samples
    pv = min(1.0, 2 * min(float(stats.poisson.cdf(repeats, mean)),
                          float(stats.poisson.sf(repeats - 1, mean))))
    return TestResult(source, "birthday spacings", repeats, None, pv, samples,
                      f"{m} birthdays in {days:,} days, expected {mean:.1f} repeats")


def block_uniformity(source: str, x: Ints, p: Floats, blocks: int = 20) -> TestResult:
    """The chi-square fit of each of ``blocks`` equal parts: their p-values are uniform
    (Kolmogorov–Smirnov), as they are for a sound generator at every scale."""
    size = x.size // blocks
    values = [chi_square_fit(source, x[i * size:(i + 1) * size], p).p_value
              for i in range(blocks)]
    return ks_uniform(source, "block p-values (KS)", values)


def ks_uniform(source: str, test: str, p_values: Sequence[float]) -> TestResult:
    """Kolmogorov–Smirnov: the p-values are uniform on [0, 1].

    >>> ks_uniform("all", "KS", [0.1, 0.3, 0.5, 0.7, 0.9]).passed
    True
    """
    found = stats.kstest(np.asarray(p_values, dtype=np.float64), "uniform")
    return TestResult(source, test, float(found.statistic), None, float(found.pvalue),
                      len(p_values), f"{len(p_values)} p-values")


def stream_tests(source: str, x: Ints, p: Floats, *, raw: bool) -> list[TestResult]:
    """The whole battery on one stream; ``raw`` streams (every outcome equally likely,
    before any scaling) also get birthday spacings."""
    found = [chi_square_fit(source, x, p), serial(source, x, p, 2), serial(source, x, p, 3),
             runs(source, x, p), gaps(source, x, p), poker(source, x, p),
             block_uniformity(source, x, p)]
    if raw:
        found.append(birthday_spacings(source, x, p.size))
    return found


# -- shuffles ----------------------------------------------------------------------------
def card_positions(source: str, orders: Ints) -> TestResult:
    """Where each card lies after the shuffle: every card at every position equally
    often (a ``n × n`` table of ``shuffles / n`` each; ``(n - 1)**2`` degrees of
    freedom, its margins being fixed).

    >>> from pelisali.rng import SeededRng, shuffle
    >>> rng = SeededRng(5)
    >>> card_positions("deck", np.array([shuffle(list(range(8)), rng)
    ...                                  for _ in range(800)])).passed
    True
    >>> card_positions("cut", np.array([np.roll(np.arange(8), 3)] * 800)).passed
    False
    """
    shuffles, n = orders.shape
    counts = position_counts(orders)
    expected = shuffles / n
    stat = float(((counts - expected) ** 2 / expected).sum())
    df = (n - 1) ** 2
    return TestResult(source, "card positions", stat, df, float(stats.chi2.sf(stat, df)),
                      shuffles, f"{n} cards × {n} positions")


def position_counts(orders: Ints) -> Ints:
    """How often each position (row) held each card (column).

    >>> position_counts(np.array([[1, 0], [1, 0]])).tolist()
    [[0, 2], [2, 0]]
    """
    n = orders.shape[1]
    counts = np.zeros((n, n), dtype=np.int64)
    np.add.at(counts, (np.broadcast_to(np.arange(n), orders.shape), orders), 1)
    return counts


def permutation_rank(orders: Ints) -> Ints:
    """Each order's index among the ``n!`` permutations (Lehmer code).

    >>> permutation_rank(np.array([[0, 1, 2], [2, 1, 0]])).tolist()
    [0, 5]
    """
    shuffles, n = orders.shape
    rank = np.zeros(shuffles, dtype=np.int64)
    for i in range(n):
        smaller_after = (orders[:, i + 1:] < orders[:, i:i + 1]).sum(axis=1)
        rank = rank * (n - i) + smaller_after
    return rank


def permutations(source: str, orders: Ints) -> TestResult:
    """Every order of a small deck comes up equally often (all ``n!`` of them).

    >>> from pelisali.rng import SeededRng, shuffle
    >>> rng = SeededRng(6)
    >>> permutations("deck", np.array([shuffle([0, 1, 2], rng) for _ in range(600)])).passed
    True
    """
    shuffles, n = orders.shape
    cells = math.factorial(n)
    stat, df, pv = chi_square(np.bincount(permutation_rank(orders), minlength=cells),
                              np.full(cells, shuffles / cells))
    return TestResult(source, f"permutations of {n}", stat, df, pv, shuffles,
                      f"{cells} orders")


# -- the family --------------------------------------------------------------------------
def holm(results: Sequence[TestResult]) -> list[Corrected]:
    """Holm–Bonferroni adjusted p-values, in the given order: the family fails when any
    adjusted p-value is below :data:`ALPHA`.

    >>> found = [TestResult("a", "t", 0, None, p, 1) for p in (0.004, 0.02, 0.5)]
    >>> [round(c.adjusted, 3) for c in holm(found)]
    [0.012, 0.04, 0.5]
    """
    m = len(results)
    order = sorted(range(m), key=lambda i: results[i].p_value)
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * results[i].p_value))
        adjusted[i] = running
    return [Corrected(r, a) for r, a in zip(results, adjusted, strict=True)]


# -- sample sizes --------------------------------------------------------------------------
def return_variance(p_win: Fraction, pays: int) -> Fraction:
    """The variance of one unit bet's return (the stake back plus ``pays`` to one on a
    win).

    >>> return_variance(Fraction(18, 37), 1)
    Fraction(1368, 1369)
    """
    mean = p_win * (pays + 1)
    return p_win * (pays + 1) ** 2 - mean**2


def rounds_needed(p_win: Fraction, pays: int, margin: float = 0.001, z: float = Z99) -> int:
    """Rounds for the observed RTP to lie within ``margin`` of the true one at the
    confidence of ``z``: ``n = (z σ / margin)²``.

    >>> f"{rounds_needed(Fraction(18, 37), 1) / 1e6:.1f} M"  # single-zero even money
    '6.6 M'
    >>> f"{rounds_needed(Fraction(1, 37), 35) / 1e6:.0f} M"  # single-zero straight-up
    '226 M'
    """
    return math.ceil(z * z * float(return_variance(p_win, pays)) / (margin * margin))
