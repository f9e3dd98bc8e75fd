"""The provably fair generator as the platform runs it, for the RNG battery: one server
seed and client seed pair, and a fresh :class:`~pelisali.rng.FairRng` for every round
under nonce 0, 1, 2, … (as :mod:`pelisali.platform.fairness` counts the nonce up), each
round's draws at cursor 0, 1, 2, ….

The battery's sources call :meth:`FairRounds.next_round` where a round begins (a wheel
spin, a card game's round, a shuffle). A stream with no rounds of its own (the raw
32-bit words for dieharder and NIST) is cut into rounds of :data:`RAW_ROUND_DRAWS` draws,
the draws of a one-deck shuffle.

>>> rounds = FairRounds("11" * 32, "lucky")
>>> first = rounds.randbelow(37)
>>> rounds.next_round()
>>> second = rounds.randbelow(37)
>>> from pelisali.rng import FairRng
>>> [first, second] == [FairRng("11" * 32, "lucky", n).randbelow(37) for n in (0, 1)]
True
>>> rounds.nonce
1
"""

from __future__ import annotations

import hashlib

import numpy as np
import numpy.typing as npt

from pelisali.rng import SEED_BYTES, FairRng, new_client_seed, new_server_seed

RAW_ROUND_DRAWS = 51  # a one-deck Fisher–Yates shuffle: the most a round draws here
TEST_CLIENT_SEED = "rng-battery"  # the client seed of a seeded fair run


class FairRounds:
    """Rounds of provably fair draws from one seed pair, the nonce counted up a round."""

    name = "fair"

    def __init__(self, server_seed: str, client_seed: str,
                 round_draws: int = RAW_ROUND_DRAWS) -> None:
        if round_draws < 1:
            raise ValueError("a round makes at least one draw")
        self.server_seed, self.client_seed = server_seed, client_seed
        self.round_draws = round_draws
        self.nonce = 0
        self._round = FairRng(server_seed, client_seed, 0)
        self._drawn = 0  # draws made in this round

    @classmethod
    def from_seed(cls, seed: int | None) -> FairRounds:
        """A fresh pair from the OS (as a new player gets), or with ``seed`` a server
        seed derived from it, so a run can be repeated.

        >>> FairRounds.from_seed(7).server_seed == FairRounds.from_seed(7).server_seed
        True
        """
        if seed is None:
            return cls(new_server_seed(), new_client_seed())
        server = hashlib.sha256(f"pelisali rng test {seed}".encode()).digest()[:SEED_BYTES]
        return cls(server.hex(), TEST_CLIENT_SEED)

    def next_round(self) -> None:
        """The next round: a new :class:`FairRng` at the next nonce, cursor 0."""
        self.nonce += 1
        self._round = FairRng(self.server_seed, self.client_seed, self.nonce)
        self._drawn = 0

    def randbelow(self, n: int) -> int:
        drawn = self._round.randbelow(n)
        self._round.draws.clear()  # a verifier's record; the battery keeps no round
        self._drawn += 1
        return drawn

    def randbelow_many(self, n: int, size: int) -> npt.NDArray[np.int64]:
        """``size`` draws in rounds of :attr:`round_draws`, the current round first."""
        out = np.empty(size, dtype=np.int64)
        for i in range(size):
            if self._drawn >= self.round_draws:
                self.next_round()
            out[i] = self.randbelow(n)
        return out
