"""Random draws: a secure default, a seeded generator for tests and replays.

Every draw is an unbiased integer below ``n`` (no modulo bias): the secure
generator uses :func:`secrets.randbelow`, the seeded one NumPy's PCG64 with
Lemire's bounded-integer method. Shuffles are Fisher–Yates over those draws.

>>> SeededRng(7).randbelow(37) == SeededRng(7).randbelow(37)
True
>>> shuffle(list(range(5)), SeededRng(1)) == shuffle(list(range(5)), SeededRng(1))
True
"""

from __future__ import annotations

import os
import secrets
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

T = TypeVar("T")


class Rng(Protocol):
    """The source of every chance draw an engine makes."""

    name: str

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        ...

    def randbelow_many(self, n: int, size: int) -> npt.NDArray[np.int64]:
        """``size`` independent uniform integers in ``[0, n)``."""
        ...


class SecureRng:
    """Operating-system entropy; the default for real play.

    >>> 0 <= SecureRng().randbelow(6) < 6
    True
    """

    name = "secure"

    def randbelow(self, n: int) -> int:
        _check_bound(n)
        return secrets.randbelow(n)

    def randbelow_many(self, n: int, size: int) -> npt.NDArray[np.int64]:
        import numpy as np

        _check_bound(n)
        # Rejection sampling on 64-bit words: accept only below the largest
        # multiple of n, so every residue is equally likely.
        excess = (1 << 64) % n
        out = np.empty(0, dtype=np.uint64)
        while out.size < size:
            words = np.frombuffer(os.urandom(8 * (size - out.size + 16)), dtype=np.uint64)
            if excess:
                words = words[words < np.uint64((1 << 64) - excess)]
            out = np.concatenate([out, words])
        return (out[:size] % np.uint64(n)).astype(np.int64)


class SeededRng:
    """Deterministic draws from a seed (PCG64); the same seed gives the same draws.

    >>> a, b = SeededRng(42), SeededRng(42)
    >>> [a.randbelow(37) for _ in range(5)] == [b.randbelow(37) for _ in range(5)]
    True
    """

    def __init__(self, seed: int | np.random.SeedSequence) -> None:
        import numpy as np

        self.seed = seed
        self.name = f"seeded:{seed}" if isinstance(seed, int) else "seeded"
        self._gen = np.random.Generator(np.random.PCG64(seed))

    def randbelow(self, n: int) -> int:
        _check_bound(n)
        return int(self._gen.integers(0, n))

    def randbelow_many(self, n: int, size: int) -> npt.NDArray[np.int64]:
        import numpy as np

        _check_bound(n)
        return self._gen.integers(0, n, size=size, dtype=np.int64)

    def shuffle_draws(self, n: int) -> list[int]:
        """A Fisher–Yates shuffle's draws for ``n`` items, below ``i + 1`` for ``i`` from
        ``n - 1`` down to 1, in one call: the very draws of that many :meth:`randbelow`
        calls, from the same stream (NumPy bounds each element as it bounds one).

        >>> a, b = SeededRng(5), SeededRng(5)
        >>> a.shuffle_draws(52) == [b.randbelow(i + 1) for i in range(51, 0, -1)]
        True
        """
        if n < 2:
            return []
        bounds = _BOUNDS.get(n)
        if bounds is None:
            _check_bound(n)
            import numpy as np

            bounds = _BOUNDS[n] = np.arange(n, 1, -1, dtype=np.int64)
        draws: list[int] = self._gen.integers(0, bounds).tolist()
        return draws


MAX_BOUND = (1 << 63) - 1  # draws are int64
_BOUNDS: dict[int, npt.NDArray[np.int64]] = {}  # a shuffle's bounds n, n - 1, ..., 2, by n


def _check_bound(n: int) -> None:
    if not 0 < n <= MAX_BOUND:
        raise ValueError(f"cannot draw below {n}: the bound must be 1 to 2**63 - 1")


def shuffle(items: list[T], rng: Rng) -> list[T]:
    """Fisher–Yates: a new list in uniformly random order.

    >>> sorted(shuffle([3, 1, 2], SecureRng()))
    [1, 2, 3]
    """
    out = list(items)
    if isinstance(rng, SeededRng) and type(rng).randbelow is SeededRng.randbelow:
        draws = rng.shuffle_draws(len(out))  # every draw in one call
        for i, j in zip(range(len(out) - 1, 0, -1), draws, strict=True):
            out[i], out[j] = out[j], out[i]
        return out
    for i in range(len(out) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
