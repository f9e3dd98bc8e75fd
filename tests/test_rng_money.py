"""Money (integer cents, odds, exact rounding) and the random number generators."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pelisali.rng as rng_module
from pelisali.money import MoneyError, Odds, format_cents, parse_amount, parse_decimal, pay_exact
from pelisali.rng import SecureRng, SeededRng, shuffle

# ---------------------------------------------------------------------------
# parse_amount / format_cents
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("0", 0),
        ("7", 700),
        ("12.5", 1250),
        ("12.50", 1250),
        ("12,5", 1250),
        ("12,05", 1205),
        ("0.05", 5),
        ("0.5", 50),
        ("0,01", 1),
        ("007", 700),
        ("  3.10\t", 310),
        ("999999999999999.99", 99_999_999_999_999_999),
    ],
)
def test_parse_amount_valid(text: str, cents: int) -> None:
    value = parse_amount(text)
    assert value == cents
    assert type(value) is int


@pytest.mark.parametrize(
    "text",
    [
        "", " ", "-1", "+1", "-0.05", "1.234", "12.", ".5", ",5", "1e3", "1 000", "1_000",
        "abc", "12.5.0", "1,000.00", "1000000000000000", "nan", "inf", "12 .50", "€12",
        "12€", "0x10", "1.2.", "1/2",
    ],
)
def test_parse_amount_rejects(text: str) -> None:
    with pytest.raises(MoneyError, match="not an amount of money"):
        parse_amount(text)


@pytest.mark.parametrize(("text", "cents"), [
    ("0", 0), ("7", 700), ("12.5", 1250), ("12.50", 1250), ("0.05", 5), ("0.5", 50),
    ("1000000000", 10**11), ("999999999999999.99", 99_999_999_999_999_999),
])
def test_parse_decimal_valid(text: str, cents: int) -> None:
    value = parse_decimal(text)
    assert value == cents and type(value) is int


@pytest.mark.parametrize("text", [
    "", " ", "12,5", "1,5", "12.505", "-1", "+1", "007", "012.50", "00", " 12", "12 ",
    "12\n", "12.", ".5", "1e3", "1 000", "1_000", "nan", "inf", "0x10", "\u0661\u0662",
    "1000000000000000",
])
def test_parse_decimal_rejects_all_but_one_spelling(text: str) -> None:
    with pytest.raises(MoneyError, match="not euros with at most 2 decimals"):
        parse_decimal(text)


def test_money_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_amount("-1")


@pytest.mark.parametrize(
    ("cents", "text"),
    [
        (0, "0.00"), (1, "0.01"), (5, "0.05"), (10, "0.10"), (99, "0.99"), (100, "1.00"),
        (1250, "12.50"), (-5, "-0.05"), (-100, "-1.00"), (-12345, "-123.45"),
        (10**17 - 1, "999999999999999.99"),
    ],
)
def test_format_cents(cents: int, text: str) -> None:
    assert format_cents(cents) == text


@given(st.integers(min_value=0, max_value=10**17 - 1))
@settings(max_examples=100, deadline=None)
def test_format_then_parse_round_trips(cents: int) -> None:
    text = format_cents(cents)
    assert parse_amount(text) == cents
    assert parse_amount(text.replace(".", ",")) == cents


@given(st.integers(min_value=1, max_value=10**15))
@settings(max_examples=50, deadline=None)
def test_negative_formatted_amounts_do_not_parse(cents: int) -> None:
    text = format_cents(-cents)
    assert text.startswith("-")
    with pytest.raises(MoneyError):
        parse_amount(text)


# ---------------------------------------------------------------------------
# pay_exact
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("amount", "paid", "rest"),
    [
        (Fraction(0), 0, Fraction(0)),
        (Fraction(400), 400, Fraction(0)),
        (Fraction(101, 2), 50, Fraction(1, 2)),
        (Fraction(1, 3), 0, Fraction(1, 3)),
        (Fraction(99, 100), 0, Fraction(99, 100)),
        (Fraction(1999, 20), 99, Fraction(19, 20)),  # 5 % commission style remainder
    ],
)
def test_pay_exact_examples(amount: Fraction, paid: int, rest: Fraction) -> None:
    got_paid, got_rest = pay_exact(amount)
    assert (got_paid, got_rest) == (paid, rest)
    assert type(got_paid) is int


@pytest.mark.parametrize("amount", [Fraction(-1), Fraction(-1, 2), Fraction(-1, 10**9)])
def test_pay_exact_refuses_negative(amount: Fraction) -> None:
    with pytest.raises(MoneyError, match="cannot be negative"):
        pay_exact(amount)


@given(st.fractions(min_value=0, max_value=10**12, max_denominator=10**6))
@settings(max_examples=100, deadline=None)
def test_pay_exact_is_whole_cents_plus_house_rounding(amount: Fraction) -> None:
    paid, rest = pay_exact(amount)
    assert type(paid) is int
    assert paid + rest == amount  # nothing lost, nothing invented
    assert 0 <= rest < 1
    assert paid == math.floor(amount)


# ---------------------------------------------------------------------------
# Odds
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "win", "per"),
    [("35:1", 35, 1), ("1:1", 1, 1), ("3:2", 3, 2), (" 6 : 5 ", 6, 5), ("0:1", 0, 1),
     ("180:1", 180, 1)],
)
def test_odds_parse(text: str, win: int, per: int) -> None:
    odds = Odds.parse(text)
    assert (odds.win, odds.per) == (win, per)
    assert str(odds) == f"{win}:{per}"


@pytest.mark.parametrize(
    "text", ["35-1", "35", "35:", ":1", "-1:1", "1:-1", "1:0", "1.5:1", "35:1:1", "", "a:b",
             "35/1", "35 1"],
)
def test_odds_parse_rejects(text: str) -> None:
    with pytest.raises(MoneyError):
        Odds.parse(text)


@pytest.mark.parametrize(("win", "per"), [(-1, 1), (1, 0), (1, -2)])
def test_odds_constructor_rejects(win: int, per: int) -> None:
    with pytest.raises(MoneyError, match="invalid odds"):
        Odds(win, per)


def test_odds_returns() -> None:
    assert Odds(35).total_return(100) == 3600
    assert Odds(1).total_return(101) == 202
    assert Odds(0).total_return(100) == 100  # 0:1 returns the stake only
    three_two = Odds.parse("3:2")
    assert three_two.multiple == Fraction(5, 2)
    assert three_two.total_return_exact(101) == Fraction(505, 2)
    assert three_two.total_return(101) == 252  # whole cents, rounding down
    assert pay_exact(three_two.total_return_exact(101)) == (252, Fraction(1, 2))
    assert str(Odds(17)) == "17:1"


@given(
    st.integers(min_value=0, max_value=500),
    st.integers(min_value=1, max_value=50),
    st.integers(min_value=0, max_value=10**9),
)
@settings(max_examples=100, deadline=None)
def test_odds_total_return_is_exact_then_floored(win: int, per: int, stake: int) -> None:
    odds = Odds(win, per)
    exact = odds.total_return_exact(stake)
    assert exact == stake + Fraction(stake * win, per)
    assert odds.total_return(stake) == (stake * (win + per)) // per
    assert Odds.parse(str(odds)) == odds


def test_odds_order_follows_the_payout() -> None:
    assert Odds(3, 2) < Odds(2, 1)
    assert max([Odds(2, 1), Odds(3, 2)]) == Odds(2, 1)


# ---------------------------------------------------------------------------
# Random number generators
# ---------------------------------------------------------------------------


def chi_square(counts: Counter[int] | list[int], n: int, total: int) -> float:
    """Pearson's statistic for ``total`` draws that should be uniform over ``range(n)``."""
    expected = total / n
    observed = [counts[i] for i in range(n)]
    assert sum(observed) == total, "draws outside range(n)"
    return sum((o - expected) ** 2 / expected for o in observed)


def chi_square_limit(n: int) -> float:
    """A generous bound: mean (df) plus 8 standard deviations (sqrt(2 df))."""
    df = n - 1
    return df + 8 * math.sqrt(2 * df) + 10


def test_chi_square_helper_detects_bias() -> None:
    """The uniformity check below can fail: a modulo-biased draw is caught."""
    n = 37
    draws = SeededRng(5).randbelow_many(n + n // 2, 20_000) % n
    assert chi_square(Counter(draws.tolist()), n, 20_000) > chi_square_limit(n)


GENERATORS = [pytest.param(lambda: SeededRng(2024), id="seeded"),
              pytest.param(SecureRng, id="secure")]


@pytest.mark.parametrize("make_rng", GENERATORS)
@pytest.mark.parametrize("n", [2, 6, 37, 38])
def test_randbelow_roughly_uniform(make_rng, n: int) -> None:
    rng = make_rng()
    total = 300 * n
    draws = [rng.randbelow(n) for _ in range(total)]
    assert all(type(x) is int for x in draws)
    assert chi_square(Counter(draws), n, total) < chi_square_limit(n)


@pytest.mark.parametrize("make_rng", GENERATORS)
@pytest.mark.parametrize("n", [2, 6, 30, 37, 38, 54, 64, 1000])
def test_randbelow_many_roughly_uniform(make_rng, n: int) -> None:
    rng = make_rng()
    total = 400 * n
    draws = rng.randbelow_many(n, total)
    assert draws.shape == (total,)
    assert draws.dtype == np.int64
    assert draws.min() >= 0 and draws.max() < n
    assert chi_square(Counter(draws.tolist()), n, total) < chi_square_limit(n)


@pytest.mark.parametrize("make_rng", GENERATORS)
@given(n=st.integers(min_value=1, max_value=2**62))
@settings(max_examples=60, deadline=None)
def test_randbelow_in_range(make_rng, n: int) -> None:
    rng = make_rng()
    assert 0 <= rng.randbelow(n) < n
    many = rng.randbelow_many(n, 50)
    assert many.shape == (50,) and many.dtype == np.int64
    assert bool(np.all((many >= 0) & (many < n)))


@pytest.mark.parametrize("make_rng", GENERATORS)
def test_randbelow_one_is_always_zero(make_rng) -> None:
    rng = make_rng()
    assert {rng.randbelow(1) for _ in range(50)} == {0}
    assert rng.randbelow_many(1, 100).tolist() == [0] * 100


@pytest.mark.parametrize("make_rng", GENERATORS)
@pytest.mark.parametrize("n", [0, -1, -37])
def test_randbelow_refuses_empty_range(make_rng, n: int) -> None:
    rng = make_rng()
    with pytest.raises(ValueError, match="cannot draw below"):
        rng.randbelow(n)
    with pytest.raises(ValueError, match="cannot draw below"):
        rng.randbelow_many(n, 5)


@pytest.mark.parametrize("make_rng", GENERATORS)
def test_randbelow_many_size_zero(make_rng) -> None:
    out = make_rng().randbelow_many(37, 0)
    assert out.shape == (0,)


# -- SecureRng.randbelow_many rejection sampling --------------------------------------


@pytest.mark.parametrize("n", [1, 2, 4, 8, 64, 256, 2**32, 2**62])
def test_secure_many_n_dividing_2_pow_64(n: int) -> None:
    assert (1 << 64) % n == 0
    draws = SecureRng().randbelow_many(n, 4000)
    assert draws.dtype == np.int64
    assert draws.min() >= 0 and draws.max() < n
    if 1 < n <= 256:
        assert chi_square(Counter(draws.tolist()), n, 4000) < chi_square_limit(n)
    if n >= 2**32:
        assert len(set(draws.tolist())) > 3990  # a huge range barely repeats


@pytest.mark.parametrize("n", [3, 6, 37, 38, 54, 1000, 2**32 + 1, 3 * 2**61])
def test_secure_many_n_not_dividing_2_pow_64(n: int) -> None:
    assert (1 << 64) % n != 0
    draws = SecureRng().randbelow_many(n, 4000)
    assert draws.dtype == np.int64
    assert draws.min() >= 0 and draws.max() < n
    if n <= 1000:
        assert chi_square(Counter(draws.tolist()), n, 4000) < chi_square_limit(n)


def _scripted_urandom(monkeypatch: pytest.MonkeyPatch, words: list[int]) -> list[int]:
    """Make os.urandom yield ``words`` (then zeros) as native 64-bit words."""
    queue = list(words)
    requests: list[int] = []

    def fake(count: int) -> bytes:
        requests.append(count)
        assert count % 8 == 0
        chunk = [queue.pop(0) if queue else 0 for _ in range(count // 8)]
        return np.array(chunk, dtype=np.uint64).tobytes()

    monkeypatch.setattr(rng_module.os, "urandom", fake)
    return requests


def test_secure_many_rejects_words_at_or_above_the_last_full_multiple(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    top = (1 << 64) - 1
    # n = 3: 2**64 % 3 == 1, so only the word 2**64 - 1 is above the last multiple of 3.
    _scripted_urandom(monkeypatch, [top, top - 1, 7, top, 5])
    out = SecureRng().randbelow_many(3, 4)
    assert out.tolist() == [(top - 1) % 3, 7 % 3, 5 % 3, 0]
    # n = 10: 2**64 % 10 == 6, so the six words 2**64-6 .. 2**64-1 are all rejected.
    _scripted_urandom(monkeypatch, [top - k for k in range(7)] + [13])
    out = SecureRng().randbelow_many(10, 2)
    assert out.tolist() == [(top - 6) % 10, 3]


def test_secure_many_accepts_every_word_when_n_divides_2_pow_64(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    top = (1 << 64) - 1
    _scripted_urandom(monkeypatch, [top, top - 1, 0, 1 << 63])
    out = SecureRng().randbelow_many(4, 4)
    assert out.tolist() == [3, 2, 0, 0]
    _scripted_urandom(monkeypatch, [top, 12345])
    assert SecureRng().randbelow_many(1 << 62, 2).tolist() == [(1 << 62) - 1, 12345]


def test_secure_many_draws_again_after_rejections(monkeypatch: pytest.MonkeyPatch) -> None:
    top = (1 << 64) - 1
    # 1 + 16 words are asked for at first; all rejected, so it must ask again.
    requests = _scripted_urandom(monkeypatch, [top] * 17 + [4])
    out = SecureRng().randbelow_many(3, 1)
    assert out.tolist() == [1]
    assert len(requests) == 2


def test_secure_many_huge_bound_is_refused_or_in_range() -> None:
    n = 3 * 2**62
    try:
        draws = SecureRng().randbelow_many(n, 64)
    except ValueError:
        return
    assert bool(np.all(draws >= 0))


# -- SeededRng determinism ---------------------------------------------------------------


@given(seed=st.integers(min_value=0, max_value=2**63), n=st.integers(min_value=1, max_value=10**9))
@settings(max_examples=60, deadline=None)
def test_seeded_same_seed_same_draws(seed: int, n: int) -> None:
    a, b = SeededRng(seed), SeededRng(seed)
    assert [a.randbelow(n) for _ in range(20)] == [b.randbelow(n) for _ in range(20)]
    assert np.array_equal(a.randbelow_many(n, 100), b.randbelow_many(n, 100))
    assert shuffle(list(range(20)), a) == shuffle(list(range(20)), b)
    assert a.name == b.name == f"seeded:{seed}"


def test_seeded_different_seeds_differ() -> None:
    first = [SeededRng(seed).randbelow_many(10**9, 8).tolist() for seed in range(20)]
    assert len({tuple(x) for x in first}) == 20


def test_seeded_accepts_a_seed_sequence() -> None:
    a = SeededRng(np.random.SeedSequence(99))
    b = SeededRng(np.random.SeedSequence(99))
    assert a.name == "seeded"
    assert a.randbelow_many(1000, 30).tolist() == b.randbelow_many(1000, 30).tolist()


def test_seeded_stream_is_not_reset_between_calls() -> None:
    rng = SeededRng(11)
    draws = [rng.randbelow(10**12) for _ in range(10)]
    assert len(set(draws)) == 10


def test_secure_is_not_constant() -> None:
    rng = SecureRng()
    assert len({rng.randbelow(10**12) for _ in range(10)}) == 10
    assert rng.name == "secure"


# ---------------------------------------------------------------------------
# shuffle
# ---------------------------------------------------------------------------


@given(items=st.lists(st.integers()), seed=st.integers(min_value=0, max_value=2**32))
@settings(max_examples=100, deadline=None)
def test_shuffle_is_a_permutation_and_leaves_input_alone(items: list[int], seed: int) -> None:
    original = list(items)
    out = shuffle(items, SeededRng(seed))
    assert items == original
    assert out is not items
    assert Counter(out) == Counter(original)


@pytest.mark.parametrize("make_rng", GENERATORS)
def test_shuffle_reaches_every_permutation_of_three_evenly(make_rng) -> None:
    rng = make_rng()
    total = 6000
    seen = Counter(tuple(shuffle(["a", "b", "c"], rng)) for _ in range(total))
    perms = list(itertools.permutations("abc"))
    assert set(seen) == set(perms)
    index = {p: i for i, p in enumerate(perms)}
    counts = Counter({index[p]: c for p, c in seen.items()})
    assert chi_square(counts, 6, total) < chi_square_limit(6)


def test_shuffle_is_fisher_yates_over_the_draws() -> None:
    class Scripted:
        name = "scripted"

        def __init__(self, values: list[int]) -> None:
            self.values = values
            self.bounds: list[int] = []

        def randbelow(self, n: int) -> int:
            self.bounds.append(n)
            return self.values.pop(0)

        def randbelow_many(self, n: int, size: int) -> np.ndarray:
            raise AssertionError("not used")

    rng = Scripted([0, 1, 0])
    # i=3: swap 3,0 -> d b c a; i=2: swap 2,1 -> d c b a; i=1: swap 1,0 -> c d b a
    assert shuffle(["a", "b", "c", "d"], rng) == ["c", "d", "b", "a"]
    assert rng.bounds == [4, 3, 2]
    assert shuffle([], Scripted([])) == []
    assert shuffle(["x"], Scripted([])) == ["x"]


def test_os_urandom_unpatched() -> None:
    """The monkeypatched tests above must not leak into later draws."""
    assert len(set(SecureRng().randbelow_many(2**40, 100).tolist())) == 100
