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

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pelisali.analysis.census import colex_combinations
from pelisali.cards import DECK, CardError
from pelisali.poker.batch import NO_HAND, batch_values, omaha_batch_values

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
            exactly_two: bool, ranking: str) -> npt.NDArray[np.int64]:
    """Each board's value for one hand (hold'em: best five of seven; Omaha: two plus three)."""
    if exactly_two:
        return omaha_batch_values(hole, boards, ranking)
    n = len(boards)
    return batch_values(np.hstack([np.broadcast_to(hole, (n, len(hole))), boards]), ranking)


def _pot_shares(high: npt.NDArray[np.int64],
                low: npt.NDArray[np.int64] | None) -> npt.NDArray[np.float64]:
    """Each hand's share of the pot on each board; a hi/lo pot halves, the low half going
    to the high hand when no low qualifies (RULINGS: high/low)."""
    top = high == high.max(axis=0)
    share: npt.NDArray[np.float64] = top / top.sum(axis=0)
    if low is None:
        return share
    best_low = low.max(axis=0)
    qualified = best_low != NO_HAND
    low_top = (low == best_low) & qualified
    low_share = np.where(qualified, low_top / np.maximum(low_top.sum(axis=0), 1), share)
    halves: npt.NDArray[np.float64] = 0.5 * share + 0.5 * low_share
    return halves


def equity(hands: Sequence[Sequence[str]], board: Sequence[str] = (), dead: Sequence[str] = (),
           exactly_two: bool = False, exact: bool | None = None, trials: int = 200_000,
           seed: int = 1, progress: Callable[[int, int], None] | None = None,
           ranking: str = "high", low: str | None = None) -> EquityResult:
    """Win/tie/lose shares of ``hands`` over every completion of the board.

    ``ranking`` ranks the hands (``high`` or a low); with ``low`` the pot is high/low:
    half to the best ``ranking`` hand, half to the best qualifying ``low``. A win is the
    whole pot, a tie part of it. ``exact=None`` enumerates when the boards number at most
    ``EXACT_LIMIT``.
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
        high = np.stack([_values(h, boards, exactly_two, ranking) for h in holes])
        lows = (np.stack([_values(h, boards, exactly_two, low) for h in holes])
                if low is not None else None)
        share = _pot_shares(high, lows)
        wins += (share == 1).sum(axis=1)
        ties += ((share > 0) & (share < 1)).sum(axis=1)
        shares += share.sum(axis=1)
        done += size
        if progress:
            progress(done, count)
    out = [Share(" ".join(h), float(w / count), float(t / count), float(1 - (w + t) / count),
                 float(s / count)) for h, w, t, s in zip(hands, wins, ties, shares, strict=True)]
    return EquityResult(out, count, use_exact, None if use_exact else seed)


def _sample(gen: np.random.Generator, rest: npt.NDArray[np.int8], size: int,
            need: int) -> npt.NDArray[np.int8]:
    """``size`` draws of ``need`` different cards from ``rest``."""
    if need > len(rest):
        raise CardError(f"{need} cards are needed and {len(rest)} are left in the deck")
    if need == 0:
        return np.zeros((size, 0), dtype=np.int8)
    keys = gen.random((size, len(rest)))
    drawn: npt.NDArray[np.int8] = rest[np.argpartition(keys, need - 1, axis=1)[:, :need]]
    return drawn


def _tally(share: npt.NDArray[np.float64], sums: list[npt.NDArray[np.float64]]) -> None:
    sums[0] += (share == 1).sum(axis=1)
    sums[1] += ((share > 0) & (share < 1)).sum(axis=1)
    sums[2] += share.sum(axis=1)


def _result(hands: Sequence[Sequence[str]], sums: list[npt.NDArray[np.float64]], count: int,
            seed: int) -> EquityResult:
    wins, ties, shares = sums
    out = [Share(" ".join(h), float(w / count), float(t / count), float(1 - (w + t) / count),
                 float(s / count)) for h, w, t, s in zip(hands, wins, ties, shares, strict=True)]
    return EquityResult(out, count, False, seed)


def _rest(known: Sequence[str]) -> npt.NDArray[np.int8]:
    if len(set(known)) != len(known):
        dup = next(c for c in known if known.count(c) > 1)
        raise CardError(f"card {dup} is named more than once")
    return np.array([i for i, c in enumerate(DECK) if c not in set(known)], dtype=np.int8)


def stud_equity(hands: Sequence[Sequence[str]], dead: Sequence[str] = (), trials: int = 200_000,
                seed: int = 1, progress: Callable[[int, int], None] | None = None,
                ranking: str = "high", low: str | None = None) -> EquityResult:
    """Seven-card games without a board (stud, Razz): each hand is dealt up to seven
    cards at random, by Monte Carlo."""
    if len(hands) < 2:
        raise CardError("equity needs two or more hands")
    if any(not 1 <= len(h) <= 7 for h in hands):
        raise CardError("a stud hand holds one to seven cards")
    rest = _rest([c for h in hands for c in h] + list(dead))
    needs = [7 - len(h) for h in hands]
    known = [np.array([DECK.index(c) for c in h], dtype=np.int8) for h in hands]
    gen = np.random.default_rng(seed)
    sums = [np.zeros(len(hands)) for _ in range(3)]
    done = 0
    while done < trials:
        size = min(CHUNK, trials - done)
        drawn = _sample(gen, rest, size, sum(needs))
        full, at = [], 0
        for cards, need in zip(known, needs, strict=True):
            full.append(np.hstack([np.broadcast_to(cards, (size, len(cards))),
                                   drawn[:, at:at + need]]).astype(np.int8))
            at += need
        high = np.stack([batch_values(h, ranking) for h in full])
        lows = np.stack([batch_values(h, low) for h in full]) if low is not None else None
        _tally(_pot_shares(high, lows), sums)
        done += size
        if progress:
            progress(done, trials)
    return _result(hands, sums, trials, seed)


def double_board_equity(hands: Sequence[Sequence[str]], boards: tuple[Sequence[str],
                        Sequence[str]], dead: Sequence[str] = (), trials: int = 200_000,
                        seed: int = 1,
                        progress: Callable[[int, int], None] | None = None) -> EquityResult:
    """Double Flop Hold'em: half the pot on each of two boards (RULINGS), by Monte Carlo."""
    if len(hands) < 2:
        raise CardError("equity needs two or more hands")
    if any(len(b) > 5 for b in boards):
        raise CardError("each board has at most five cards")
    rest = _rest([c for h in hands for c in h] + [c for b in boards for c in b] + list(dead))
    fixed = [np.array([DECK.index(c) for c in b], dtype=np.int8) for b in boards]
    needs = [5 - len(b) for b in boards]
    holes = [np.array([DECK.index(c) for c in h], dtype=np.int8) for h in hands]
    gen = np.random.default_rng(seed)
    sums = [np.zeros(len(hands)) for _ in range(3)]
    done = 0
    while done < trials:
        size = min(CHUNK, trials - done)
        drawn = _sample(gen, rest, size, sum(needs))
        share = np.zeros((len(hands), size))
        at = 0
        for cards, need in zip(fixed, needs, strict=True):
            board = np.hstack([np.broadcast_to(cards, (size, len(cards))),
                               drawn[:, at:at + need]]).astype(np.int8)
            at += need
            high = np.stack([_values(h, board, False, "high") for h in holes])
            share += 0.5 * _pot_shares(high, None)
        _tally(share, sums)
        done += size
        if progress:
            progress(done, trials)
    return _result(hands, sums, trials, seed)
