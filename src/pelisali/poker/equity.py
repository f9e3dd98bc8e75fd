"""Equity: win, tie and lose shares of hands against each other, exact or by Monte Carlo.

Exact enumeration deals every way the board can be completed from the cards
left; Monte Carlo samples boards with a seeded generator. Either way every
board is settled with the batch evaluator.

>>> from pelisali.cards import parse_cards
>>> r = equity([parse_cards("As Ah"), parse_cards("Kd Kc")], board=parse_cards("2c 7d 9h Js"))
>>> [round(s.win, 4) for s in r.shares], r.boards
([0.9545, 0.0455], 44)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pelisali.cards import DECK, CardError
from pelisali.poker.census import colex_combinations
from pelisali.poker.evaluate import high_values

EXACT_LIMIT = 3_000_000  # boards; above this, Monte Carlo unless --exact is asked for
CHUNK = 1 << 16


@dataclass(frozen=True)
class Share:
    hand: str
    win: float  # won alone
    tie: float  # shared the best hand
    lose: float
    equity: float  # pot share: wins plus split shares

    def to_json(self) -> dict[str, object]:
        return {"hand": self.hand, "win": self.win, "tie": self.tie, "lose": self.lose,
                "equity": self.equity}


@dataclass(frozen=True)
class EquityResult:
    shares: list[Share]
    boards: int
    exact: bool
    seed: int | None

    def to_json(self) -> dict[str, object]:
        return {"exact": self.exact, "boards": self.boards, "seed": self.seed,
                "hands": [s.to_json() for s in self.shares]}


def _values(hole: npt.NDArray[np.int8], boards: npt.NDArray[np.int8],
            exactly_two: bool) -> npt.NDArray[np.int32]:
    """Each board's value for one hand (hold'em: best five of seven; Omaha: two plus three)."""
    n = len(boards)
    if not exactly_two:
        cards = np.hstack([np.broadcast_to(hole, (n, len(hole))), boards])
        return high_values(cards, threads=False)
    best = np.zeros(n, dtype=np.int32)
    for two in itertools.combinations(range(len(hole)), 2):
        for three in itertools.combinations(range(boards.shape[1]), 3):
            cards = np.hstack([np.broadcast_to(hole[list(two)], (n, 2)), boards[:, list(three)]])
            best = np.maximum(best, high_values(cards, threads=False))
    return best


def equity(hands: Sequence[Sequence[str]], board: Sequence[str] = (), dead: Sequence[str] = (),
           exactly_two: bool = False, exact: bool | None = None, trials: int = 200_000,
           seed: int = 1, progress: Callable[[int, int], None] | None = None) -> EquityResult:
    """Win/tie/lose shares of ``hands`` (high ranking) over every completion of the board.

    ``exact=None`` enumerates when the boards number at most ``EXACT_LIMIT``.
    """
    if len(hands) < 2:
        raise CardError("equity needs two or more hands")
    known = [c for h in hands for c in h] + list(board) + list(dead)
    if len(set(known)) != len(known):
        dup = next(c for c in known if known.count(c) > 1)
        raise CardError(f"card {dup} is named more than once")
    if len(board) > 5:
        raise CardError("a board has at most five cards")
    if exactly_two and any(len(h) < 2 for h in hands):
        raise CardError("Omaha hands need two or more hole cards")
    rest = np.array([i for i, c in enumerate(DECK) if c not in set(known)], dtype=np.int8)
    need = 5 - len(board)
    total = math.comb(len(rest), need)
    use_exact = total <= EXACT_LIMIT if exact is None else exact
    holes = [np.array([DECK.index(c) for c in h], dtype=np.int8) for h in hands]
    fixed = np.array([DECK.index(c) for c in board], dtype=np.int8)
    wins = np.zeros(len(hands))
    ties = np.zeros(len(hands))
    shares = np.zeros(len(hands))
    count = total if use_exact else trials
    gen = np.random.default_rng(seed)
    combos = colex_combinations(len(rest), need) if use_exact else None
    done = 0
    while done < count:
        size = min(CHUNK, count - done)
        if combos is not None:
            drawn = rest[combos[done:done + size]]
        else:
            keys = gen.random((size, len(rest)))
            drawn = rest[np.argpartition(keys, need, axis=1)[:, :need]] if need else \
                np.zeros((size, 0), dtype=np.int8)
        boards = np.hstack([np.broadcast_to(fixed, (size, len(fixed))), drawn]).astype(np.int8)
        values = np.stack([_values(h, boards, exactly_two) for h in holes])
        best = values.max(axis=0)
        top = values == best
        winners = top.sum(axis=0)
        wins += (top & (winners == 1)).sum(axis=1)
        ties += (top & (winners > 1)).sum(axis=1)
        shares += (top / winners).sum(axis=1)
        done += size
        if progress:
            progress(done, count)
    out = [Share(" ".join(h), float(w / count), float(t / count), float(1 - (w + t) / count),
                 float(s / count)) for h, w, t, s in zip(hands, wins, ties, shares, strict=True)]
    return EquityResult(out, count, use_exact, None if use_exact else seed)
