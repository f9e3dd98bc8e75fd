"""The rejection scaling every secure and provably fair draw goes through: exact
uniformity over the whole raw range, checked by enumerating every word of a small word
size; Fisher–Yates over those draws; and the tree drawing game outcomes through
:mod:`pelisali.rng` alone."""

from __future__ import annotations

import re
from collections import Counter
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pelisali.rng import (
    FairRng,
    SecureRng,
    below,
    fair_word,
    limit,
    scale,
    scale_many,
    shuffle,
)

SRC = Path(__file__).resolve().parents[1] / "src" / "pelisali"


@pytest.mark.parametrize("bits", range(1, 11))
def test_every_bound_is_hit_equally_often_over_the_whole_raw_range(bits: int) -> None:
    """For each word size up to 10 bits and each bound up to 2**bits, every word is
    scaled: each outcome comes from exactly the same number of words, and fewer than
    ``n`` words are rejected."""
    for n in range(1, (1 << bits) + 1):
        hits = Counter(scale(word, n, bits) for word in range(1 << bits))
        rejected = hits.pop(None, 0)
        assert sorted(hits) == list(range(n))
        assert set(hits.values()) == {(1 << bits) // n}
        assert rejected == (1 << bits) % n < n
        assert rejected + n * ((1 << bits) // n) == 1 << bits


@pytest.mark.parametrize("bits", [4, 8, 12])
def test_the_array_scaling_is_the_word_scaling(bits: int) -> None:
    words = np.arange(1 << bits, dtype=np.uint64)
    for n in (1, 3, 5, 7, 10, 37, (1 << bits) - 1, 1 << bits):
        if n > 1 << bits:
            continue
        expected = [d for w in range(1 << bits) if (d := scale(w, n, bits)) is not None]
        assert scale_many(words, n, bits).tolist() == expected


def test_sixty_four_bit_limits() -> None:
    assert limit(1) == 1 << 64
    assert limit(37) == (1 << 64) - (1 << 64) % 37
    assert limit(1 << 63) == 1 << 64
    assert scale((1 << 64) - 1, 37) is None  # the top 12 words are thrown away
    assert scale(limit(37) - 1, 37) == (limit(37) - 1) % 37


def test_a_rejected_word_is_followed_by_the_next() -> None:
    words = iter([14, 15, 15, 2])  # 4-bit words, bound 7: 14 and 15 rejected
    assert below(lambda: next(words), 7, bits=4) == 2


def test_bad_words_and_bounds_are_refused() -> None:
    with pytest.raises(ValueError):
        scale(16, 3, bits=4)
    with pytest.raises(ValueError):
        scale(-1, 3, bits=4)
    with pytest.raises(ValueError):
        limit(17, bits=4)
    with pytest.raises(ValueError):
        SecureRng().randbelow(0)
    with pytest.raises(ValueError):
        FairRng("00" * 32, "c", 0).randbelow(0)


def test_a_shuffle_of_three_is_every_order_once_over_its_draws() -> None:
    """Fisher–Yates over unbiased draws: the 3 * 2 draw sequences give each of the six
    orders exactly once."""
    orders = Counter()

    class Scripted:
        name = "scripted"

        def __init__(self, draws: list[int]) -> None:
            self.left = list(draws)

        def randbelow(self, n: int) -> int:
            value = self.left.pop(0)
            assert value < n
            return value

        def randbelow_many(self, n: int, size: int) -> np.ndarray:  # type: ignore[type-arg]
            raise NotImplementedError

    for first in range(3):
        for second in range(2):
            orders[tuple(shuffle(["a", "b", "c"], Scripted([first, second])))] += 1
    assert set(orders) == set(permutations("abc")) and set(orders.values()) == {1}


@given(st.integers(1, (1 << 63) - 1), st.text(min_size=1, max_size=8), st.integers(0, 99))
def test_fair_draws_are_the_scaled_words_of_the_stream(n: int, client: str, nonce: int
                                                       ) -> None:
    seed = "ab" * 32
    rng = FairRng(seed, client, nonce)
    drawn = rng.randbelow(n)
    cursor, expected = 0, None
    while expected is None:
        expected = scale(fair_word(seed, client, nonce, cursor), n)
        cursor += 1
    assert drawn == expected and rng.cursor == cursor and rng.draws == [(n, drawn)]


def test_secure_draws_stay_in_range() -> None:
    rng = SecureRng()
    assert all(0 <= rng.randbelow(n) < n for n in (1, 2, 37, 1 << 62) for _ in range(50))
    many = rng.randbelow_many(37, 1000)
    assert many.dtype == np.int64 and many.size == 1000 and 0 <= many.min() <= many.max() < 37


# Uses of randomness outside pelisali/rng.py that are not a game's outcome, each with why.
NOT_OUTCOMES = {
    "platform/db.py": "a retry's jitter",
    "platform/logins.py": "session tokens and device ids",
    "server/tournament_room.py": "the bots' choices",
    "tournaments/poker.py": "the bots' choices",
    "poker/selfplay.py": "the bots' choices",
    "cli/play.py": "the bots' choices",
    "cli/poker.py": "the bots' choices",
    "analysis/slot_simulate.py": "a simulation's draws, never a played round",
}
# (a doctest's example line is not code that runs in play)
RANDOMNESS = re.compile(r"^\s*(?!>>>|\.\.\.)(import random|from random |import secrets|"
                        r"from secrets |.*os\.urandom|.*default_rng\()", re.M)


def test_game_outcomes_are_drawn_through_the_rng_module_alone() -> None:
    """No module but pelisali/rng.py reaches for a random source, except those listed
    with why they are not a game's outcome."""
    found = {path.relative_to(SRC).as_posix() for path in SRC.rglob("*.py")
             if RANDOMNESS.search(path.read_text())}
    assert found - {"rng.py"} <= set(NOT_OUTCOMES), sorted(found - set(NOT_OUTCOMES))
    assert "rng.py" in found
