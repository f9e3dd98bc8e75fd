"""Random draws: a secure default, a provably fair one, a seeded generator for tests
and replays. Every game draws through this module and nothing else.

Every draw is an unbiased integer below ``n`` (no modulo bias). The secure generator
(the operating system's CSPRNG) and the provably fair one (an HMAC-SHA256 stream,
:class:`FairRng`) scale raw 64-bit words by rejection through the one function
:func:`scale`; the seeded one uses NumPy's PCG64 with Lemire's bounded-integer method.
Shuffles are Fisher–Yates over those draws.

>>> SeededRng(7).randbelow(37) == SeededRng(7).randbelow(37)
True
>>> shuffle(list(range(5)), SeededRng(1)) == shuffle(list(range(5)), SeededRng(1))
True
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Callable
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
        return below(_os_word, n)

    def randbelow_many(self, n: int, size: int) -> npt.NDArray[np.int64]:
        import numpy as np

        _check_bound(n)
        out = np.empty(0, dtype=np.int64)
        while out.size < size:
            words = np.frombuffer(os.urandom(8 * (size - out.size + 16)), dtype=np.uint64)
            out = np.concatenate([out, scale_many(words, n)])
        return out[:size]


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
WORD_BITS = 64  # the raw words the secure and the fair generators scale
_BOUNDS: dict[int, npt.NDArray[np.int64]] = {}  # a shuffle's bounds n, n - 1, ..., 2, by n


def _check_bound(n: int) -> None:
    if not 0 < n <= MAX_BOUND:
        raise ValueError(f"cannot draw below {n}: the bound must be 1 to 2**63 - 1")


def limit(n: int, bits: int = WORD_BITS) -> int:
    """The largest multiple of ``n`` that fits in ``bits`` bits: the words below it are
    kept, the rest thrown away, so each of the ``n`` results comes from exactly
    ``limit // n`` words.

    >>> limit(37), (1 << 64) - limit(37)
    (18446744073709551604, 12)
    >>> limit(3, bits=4)
    15
    """
    if not 0 < n <= 1 << bits:
        raise ValueError(f"cannot draw below {n} from {bits}-bit words")
    return (1 << bits) - (1 << bits) % n


def scale(word: int, n: int, bits: int = WORD_BITS) -> int | None:
    """A raw ``bits``-bit word as a draw below ``n``, or None when the word is rejected
    (at or above :func:`limit`): the only place a raw word becomes an outcome, so every
    range is free of modulo bias.

    >>> [scale(w, 3, bits=4) for w in (0, 1, 2, 13, 14, 15)]
    [0, 1, 2, 1, 2, None]
    """
    if not 0 <= word < 1 << bits:
        raise ValueError(f"a {bits}-bit word is 0 to 2**{bits} - 1, not {word}")
    return word % n if word < limit(n, bits) else None


def below(word: Callable[[], int], n: int, bits: int = WORD_BITS) -> int:
    """A uniform integer in ``[0, n)``: words from ``word`` are :func:`scale`-d until one
    is kept (for a bound below 2**32, fewer than one 64-bit word in 2**32 is thrown away).

    >>> words = iter([15, 15, 7])
    >>> below(lambda: next(words), 3, bits=4)
    1
    """
    _check_bound(n)
    while True:
        drawn = scale(word(), n, bits)
        if drawn is not None:
            return drawn


def scale_many(words: npt.NDArray[np.uint64], n: int, bits: int = WORD_BITS
               ) -> npt.NDArray[np.int64]:
    """:func:`scale` over an array of words: the kept words' draws, in order.

    >>> import numpy as np
    >>> scale_many(np.array([0, 13, 14, 15], dtype=np.uint64), 3, bits=4).tolist()
    [0, 1, 2]
    """
    import numpy as np

    kept = words[words < np.uint64(limit(n, bits))] if limit(n, bits) < 1 << bits else words
    return (kept % np.uint64(n)).astype(np.int64)


def _os_word() -> int:
    return int.from_bytes(os.urandom(8), "big")


# -- provably fair draws ---------------------------------------------------------------------
SEED_BYTES = 32  # a server seed: 32 bytes from the OS CSPRNG, shown as 64 hex digits


def new_server_seed() -> str:
    """A fresh server seed from the OS CSPRNG: 64 hex digits.

    >>> len(new_server_seed()), new_server_seed() != new_server_seed()
    (64, True)
    """
    return os.urandom(SEED_BYTES).hex()


def new_client_seed() -> str:
    """The client seed a pair starts with until the player sets their own: 16 hex digits.

    >>> len(new_client_seed())
    16
    """
    return os.urandom(8).hex()


def commitment(server_seed: str) -> str:
    """The commitment to a server seed (64 hex digits): SHA-256 of its 32 bytes, in hex.

    >>> commitment("00" * 32)
    '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
    """
    return hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()


def fair_word(server_seed: str, client_seed: str, nonce: int, cursor: int) -> int:
    """The raw word at ``cursor`` of a round's stream: the first 8 bytes, big-endian, of
    HMAC-SHA256 keyed with the server seed's bytes over ``"client_seed:nonce:cursor"``.

    >>> fair_word("00" * 32, "abc", 0, 0) == fair_word("00" * 32, "abc", 0, 0)
    True
    >>> fair_word("00" * 32, "abc", 0, 0) == fair_word("00" * 32, "abc", 0, 1)
    False
    """
    return _word_of(bytes.fromhex(server_seed), client_seed, nonce, cursor)


def _word_of(key: bytes, client_seed: str, nonce: int, cursor: int) -> int:
    message = f"{client_seed}:{nonce}:{cursor}".encode()
    return int.from_bytes(hmac.digest(key, message, "sha256")[:8], "big")


class FairRng:
    """Provably fair draws for one round: the words of the HMAC-SHA256 stream of a
    server seed, a client seed and the round's nonce, at cursor 0, 1, 2, ..., scaled by
    :func:`scale` as the secure generator's are. ``draws`` keeps each ``(bound, draw)``:
    what a verifier recomputes from the revealed seed.

    >>> a, b = FairRng("11" * 32, "lucky", 3), FairRng("11" * 32, "lucky", 3)
    >>> [a.randbelow(37) for _ in range(4)] == [b.randbelow(37) for _ in range(4)]
    True
    >>> a.draws == b.draws and [n for n, _ in a.draws] == [37] * 4
    True
    >>> c = FairRng("11" * 32, "lucky", 4)
    >>> c.randbelow(1 << 40) != FairRng("11" * 32, "lucky", 3).randbelow(1 << 40)
    True
    """

    name = "fair"

    def __init__(self, server_seed: str, client_seed: str, nonce: int) -> None:
        if len(bytes.fromhex(server_seed)) != SEED_BYTES:
            raise ValueError(f"a server seed is {2 * SEED_BYTES} hex digits")
        self.server_seed, self.client_seed, self.nonce = server_seed, client_seed, nonce
        self._key = bytes.fromhex(server_seed)
        self.cursor = 0  # the next word's place in the stream
        self.draws: list[tuple[int, int]] = []

    def _word(self) -> int:
        word = _word_of(self._key, self.client_seed, self.nonce, self.cursor)
        self.cursor += 1
        return word

    def randbelow(self, n: int) -> int:
        drawn = below(self._word, n)
        self.draws.append((n, drawn))
        return drawn

    def randbelow_many(self, n: int, size: int) -> npt.NDArray[np.int64]:
        import numpy as np

        return np.array([self.randbelow(n) for _ in range(size)], dtype=np.int64)


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
