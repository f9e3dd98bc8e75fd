"""Equity: win, tie and lose shares of hands against each other, exact or by Monte Carlo.

Exact enumeration deals every way the board can be completed from the cards
left; Monte Carlo samples boards with a seeded generator. Either way every
board is settled with the batch evaluator, in blocks of BLOCK boards on the
evaluator's threads: the board's card keys are summed once and each hand adds
its own (:func:`pelisali.poker.batch.key_values`).

A Monte Carlo board is one draw below C(n, k), the rank of a k-subset of the n
cards left (:func:`draw_sets`): every board equally likely, no duplicates to
reject. Cards dealt to several hands or boards (stud, Double Flop) are a partial
Fisher–Yates shuffle (:func:`draw_ordered`). Block b draws from its own stream,
``stream(seed, b)`` (PCG64 from SeedSequence(seed, spawn_key=(b,))), so a seed
gives one result whatever the threads do.

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
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from pelisali.analysis.census import colex_combinations
from pelisali.cards import DECK, CardError
from pelisali.poker.batch import NO_HAND_32, key_values, prepare_key_values
from pelisali.poker.evaluate import CARD_KEY, CARD_SUIT, pool_map
from pelisali.poker.rankings import RULES
from pelisali.rng import SeededRng

EXACT_LIMIT = 3_000_000  # boards; above this, Monte Carlo unless --exact is asked for
BLOCK = 1 << 16  # boards a block; Monte Carlo block b draws from its own stream (seed, b)


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


Values = list[npt.NDArray[np.int32]]  # per ranking, (hands, boards)
Positions = npt.NDArray[np.uint8]  # (boards, cards drawn): positions in the deck left
Settle = Callable[[Positions], npt.NDArray[np.float64]]
Cards = Callable[[npt.NDArray[np.intp]], npt.NDArray[np.int8]]  # rows -> their cards


@lru_cache(maxsize=4)  # at most 14 MB each (C(48, 5) words)
def _subsets(n: int, k: int) -> npt.NDArray[np.uint64]:
    """Every k-subset of range(n) (k at most 8), colex order, a row's positions packed in
    the bytes of one word (a draw is one gather); read-only, shared by the calls."""
    packed = np.zeros((math.comb(n, k), 8), dtype=np.uint8)
    packed[:, :k] = colex_combinations(n, k)
    words = packed.view(np.uint64).ravel()
    words.setflags(write=False)
    return words


def _unpack(words: npt.NDArray[np.uint64], k: int) -> Positions:
    return words.view(np.uint8).reshape(len(words), 8)[:, :k]


def stream(seed: int, block: int) -> SeededRng:
    """The seeded stream of Monte Carlo block ``block``: its own, so blocks can run on
    any thread in any order and a seed still gives one result."""
    return SeededRng(np.random.SeedSequence(seed, spawn_key=(block,)))


def draw_sets(rng: SeededRng, n: int, k: int, size: int) -> Positions:
    """``size`` k-subsets of range(n), each equally likely, as increasing rows: one draw
    below C(n, k) each, the subset's rank in colex order. For cards that go to one board
    (order does not matter); C(n, k) at most EXACT_LIMIT."""
    total = math.comb(n, k)
    if total > EXACT_LIMIT or k > 8:
        raise ValueError(f"C({n}, {k}) subsets are too many to rank")
    return _unpack(_subsets(n, k).take(rng.randbelow_many(total, size)), k)


def draw_ordered(rng: SeededRng, n: int, k: int, size: int) -> Positions:
    """``size`` sequences of k different positions in range(n), each equally likely: a
    partial Fisher–Yates shuffle of every row, step i swapping position i with one drawn
    from i to n - 1. For cards dealt to several hands or boards."""
    if k > n:
        raise CardError(f"{k} cards are needed and {n} are left in the deck")
    order = np.tile(np.arange(n, dtype=np.uint8), size)
    here = np.arange(0, size * n, n)
    for i in range(k):
        there = here + rng.randbelow_many(n - i, size)
        picked = order[there]
        order[there] = order[here]
        order[here] = picked
        here += 1
    return np.ascontiguousarray(order.reshape(size, n)[:, :k])


def _pot_shares(high: npt.NDArray[np.int32],
                low: npt.NDArray[np.int32] | None) -> npt.NDArray[np.float64]:
    """Each hand's share of the pot on each board; a hi/lo pot halves, the low half going
    to the high hand when no low qualifies (RULINGS: high/low)."""
    top = high == high.max(axis=0)
    share: npt.NDArray[np.float64] = top / top.sum(axis=0)
    if low is None:
        return share
    best_low = low.max(axis=0)
    qualified = best_low != NO_HAND_32
    low_top = (low == best_low) & qualified
    low_share = np.where(qualified, low_top / np.maximum(low_top.sum(axis=0), 1), share)
    halves: npt.NDArray[np.float64] = 0.5 * share + 0.5 * low_share
    return halves


def _share_sums(share: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """(wins, ties, pot shares) summed over the boards, a row each, from each hand's share
    of each board's pot: a win is the whole pot, a tie part of it."""
    return np.stack([(share == 1).sum(axis=1), ((share > 0) & (share < 1)).sum(axis=1),
                     share.sum(axis=1)]).astype(np.float64)


def _sums(values: Values) -> npt.NDArray[np.float64]:
    """(wins, ties, pot shares) over a block of boards from the hands' values (one
    ranking, or a high and a low)."""
    high = values[0]
    if len(values) > 1:
        return _share_sums(_pot_shares(high, values[1]))
    if len(high) == 2:  # heads-up: a win is the higher value, a tie half the pot
        wins = np.array([np.count_nonzero(high[0] > high[1]),
                         np.count_nonzero(high[1] > high[0])])
        ties = high.shape[1] - wins.sum()
        return np.stack([wins, [ties, ties], wins + ties / 2]).astype(np.float64)
    top = high == high.max(axis=0)
    n = top.sum(axis=0)
    wins = (top & (n == 1)).sum(axis=1)
    split = np.flatnonzero(n > 1)  # rare: the shares are only worked out here
    shares = wins + (top[:, split] / n[split]).sum(axis=1)
    return np.stack([wins, top.sum(axis=1) - wins, shares]).astype(np.float64)


def _may_hold_suited(cards: npt.NDArray[np.int8], others: int, ranking: str) -> bool:
    """Whether ``cards`` with ``others`` more can hold the ranking's ``suited`` of a suit."""
    suited = RULES[ranking].suited
    most = int(np.bincount(CARD_SUIT[cards], minlength=4).max()) if len(cards) else 0
    return suited is not None and most + others >= suited


class _Boards:
    """A block of boards: the known cards and, per board, positions drawn from the deck
    left. The card keys come from the positions; the cards only for the rows asked."""

    def __init__(self, fixed: npt.NDArray[np.int8], rest: npt.NDArray[np.int8],
                 drawn: Positions) -> None:
        self.fixed, self.rest, self.drawn, self.size = fixed, rest, drawn, len(drawn)
        self.rest_keys = CARD_KEY[rest]

    def card_keys(self) -> list[npt.NDArray[np.int64]]:
        """Each board card's CARD_KEY, a column each."""
        return ([np.full(self.size, CARD_KEY[c]) for c in self.fixed]
                + [self.rest_keys.take(self.drawn[:, j]) for j in range(self.drawn.shape[1])])

    def key(self) -> npt.NDArray[np.int64]:
        """The sum of each board's card keys."""
        total = np.full(self.size, CARD_KEY[self.fixed].sum())
        for j in range(self.drawn.shape[1]):
            total += self.rest_keys.take(self.drawn[:, j])
        return total

    def cards(self, at: npt.NDArray[np.intp]) -> npt.NDArray[np.int8]:
        """The (len(at), 5) cards of the boards ``at``."""
        return np.hstack([np.broadcast_to(self.fixed, (len(at), len(self.fixed))),
                          self.rest.take(self.drawn[at])])


def _board_values(holes: list[npt.NDArray[np.int8]], boards: _Boards,
                  rankings: tuple[str, ...]) -> Values:
    """Each hand's value on each board, best five of hole and board cards: the board's
    card keys summed once, each hand adding its own."""
    board_key = boards.key()
    out: Values = [np.empty((len(holes), boards.size), dtype=np.int32) for _ in rankings]
    for h, hole in enumerate(holes):
        keys = board_key + CARD_KEY[hole].sum()

        def cards_of(at: npt.NDArray[np.intp], hole: npt.NDArray[np.int8] = hole
                     ) -> npt.NDArray[np.int8]:
            return np.hstack([np.broadcast_to(hole, (len(at), len(hole))), boards.cards(at)])
        for r, ranking in enumerate(rankings):
            out[r][h] = key_values(keys, len(hole) + 5, ranking, cards_of)
    return out


def _omaha_values(holes: list[npt.NDArray[np.int8]], boards: _Boards,
                  rankings: tuple[str, ...]) -> Values:
    """Each hand's value on each board making exactly two hole and three board cards:
    every pair of hole cards with every three of the board, the board threes' keys
    summed once for all hands."""
    card_keys = boards.card_keys()
    threes = list(itertools.combinations(range(5), 3))
    three_keys = [card_keys[a] + card_keys[b] + card_keys[c] for a, b, c in threes]
    out: Values = [np.full((len(holes), boards.size), NO_HAND_32, dtype=np.int32)
                   for _ in rankings]
    for h, hole in enumerate(holes):
        for two in itertools.combinations(hole.tolist(), 2):
            pair = np.array(two, dtype=np.int8)
            suited = [_may_hold_suited(pair, 3, ranking) for ranking in rankings]
            for three, key in zip(threes, three_keys, strict=True):
                keys = key + CARD_KEY[pair].sum()

                def cards_of(at: npt.NDArray[np.intp], pair: npt.NDArray[np.int8] = pair,
                             three: tuple[int, ...] = three) -> npt.NDArray[np.int8]:
                    return np.hstack([np.broadcast_to(pair, (len(at), 2)),
                                      boards.cards(at)[:, list(three)]])
                for r, ranking in enumerate(rankings):
                    np.maximum(out[r][h], key_values(keys, 5, ranking,
                                                     cards_of if suited[r] else None),
                               out=out[r][h])
    return out


def _run(settle: Settle, rest: npt.NDArray[np.int8], need: int, count: int, seed: int,
         how: str, hands: int, progress: Callable[[int, int], None] | None
         ) -> npt.NDArray[np.float64]:
    """Sums of ``settle`` over ``count`` deals of ``need`` cards from ``rest`` in blocks of
    BLOCK on the pool's threads, added in block order: ``how`` is ``exact`` (every subset,
    colex order), ``sets`` (uniform subsets) or ``ordered`` (uniform sequences)."""
    def block(b: int) -> npt.NDArray[np.float64]:
        start = b * BLOCK
        size = min(BLOCK, count - start)
        if how == "exact":
            drawn = _unpack(_subsets(len(rest), need)[start:start + size], need)
        elif how == "sets":
            drawn = draw_sets(stream(seed, b), len(rest), need, size)
        else:
            drawn = draw_ordered(stream(seed, b), len(rest), need, size)
        return settle(drawn)

    sums = np.zeros((3, hands))
    for b, part in enumerate(pool_map(block, range(-(-count // BLOCK)))):
        sums += part
        if progress:
            progress(min(count, (b + 1) * BLOCK), count)
    return sums


def _prepare(rankings: tuple[str, ...], *sizes: int) -> None:
    for ranking in rankings:
        for k in sizes:
            prepare_key_values(ranking, k)


def _result(hands: Sequence[Sequence[str]], sums: npt.NDArray[np.float64], count: int,
            exact: bool, seed: int) -> EquityResult:
    wins, ties, shares = sums
    out = [Share(" ".join(h), float(w / count), float(t / count), float(1 - (w + t) / count),
                 float(s / count)) for h, w, t, s in zip(hands, wins, ties, shares, strict=True)]
    return EquityResult(out, count, exact, None if exact else seed)


def _rest(known: Sequence[str]) -> npt.NDArray[np.int8]:
    if len(set(known)) != len(known):
        dup = next(c for c in known if known.count(c) > 1)
        raise CardError(f"card {dup} is named more than once")
    return np.array([i for i, c in enumerate(DECK) if c not in set(known)], dtype=np.int8)


def _indices(cards: Sequence[str]) -> npt.NDArray[np.int8]:
    return np.array([DECK.index(c) for c in cards], dtype=np.int8)


def equity(hands: Sequence[Sequence[str]], board: Sequence[str] = (), dead: Sequence[str] = (),
           exactly_two: bool = False, exact: bool | None = None, trials: int = 200_000,
           seed: int = 1, progress: Callable[[int, int], None] | None = None,
           ranking: str = "high", low: str | None = None) -> EquityResult:
    """Win/tie/lose shares of ``hands`` over every completion of the board.

    ``ranking`` ranks the hands (``high`` or a low); with ``low`` the pot is high/low:
    half to the best ``ranking`` hand, half to the best qualifying ``low``. A win is the
    whole pot, a tie part of it. ``exact=None`` enumerates when the boards number at most
    ``EXACT_LIMIT``. Monte Carlo draws each board as a uniform subset of the cards left
    (:func:`draw_sets`), block b of BLOCK boards from ``stream(seed, b)``.
    """
    if len(hands) < 2:
        raise CardError("equity needs two or more hands")
    rest = _rest([c for h in hands for c in h] + list(board) + list(dead))
    if len(board) > 5:
        raise CardError("a board has at most five cards")
    if exactly_two and any(len(h) < 2 for h in hands):
        raise CardError("Omaha hands need two or more hole cards")
    if not exactly_two and any(len(h) > 2 for h in hands):
        raise CardError("hands play at most two hole cards with a five-card board "
                        "(Omaha games play exactly two of more)")
    need = 5 - len(board)
    total = math.comb(len(rest), need)
    use_exact = total <= EXACT_LIMIT if exact is None else exact
    holes = [_indices(h) for h in hands]
    fixed = _indices(board)
    rankings = (ranking,) if low is None else (ranking, low)
    values = _omaha_values if exactly_two else _board_values
    _prepare(rankings, 5) if exactly_two else _prepare(rankings, *{len(h) + 5 for h in holes})

    def settle(drawn: Positions) -> npt.NDArray[np.float64]:
        return _sums(values(holes, _Boards(fixed, rest, drawn), rankings))

    count = total if use_exact else trials
    sums = _run(settle, rest, need, count, seed, "exact" if use_exact else "sets",
                len(hands), progress)
    return _result(hands, sums, count, use_exact, seed)


def stud_equity(hands: Sequence[Sequence[str]], dead: Sequence[str] = (), trials: int = 200_000,
                seed: int = 1, progress: Callable[[int, int], None] | None = None,
                ranking: str = "high", low: str | None = None) -> EquityResult:
    """Seven-card games without a board (stud, Razz): each hand is dealt up to seven
    cards at random, by Monte Carlo (:func:`draw_ordered`, block b from
    ``stream(seed, b)``)."""
    if len(hands) < 2:
        raise CardError("equity needs two or more hands")
    if any(not 1 <= len(h) <= 7 for h in hands):
        raise CardError("a stud hand holds one to seven cards")
    rest = _rest([c for h in hands for c in h] + list(dead))
    needs = [7 - len(h) for h in hands]
    if sum(needs) > len(rest):
        raise CardError(f"{sum(needs)} cards are needed and {len(rest)} are left in the deck")
    known = [_indices(h) for h in hands]
    starts = np.cumsum([0, *needs]).tolist()
    rankings = (ranking,) if low is None else (ranking, low)
    _prepare(rankings, 7)

    def settle(drawn: Positions) -> npt.NDArray[np.float64]:
        out: Values = [np.empty((len(hands), len(drawn)), dtype=np.int32) for _ in rankings]
        for h, cards in enumerate(known):
            own = rest.take(drawn[:, starts[h]:starts[h + 1]])
            keys = np.full(len(drawn), CARD_KEY[cards].sum())
            for j in range(own.shape[1]):
                keys += CARD_KEY.take(own[:, j])

            def cards_of(at: npt.NDArray[np.intp], cards: npt.NDArray[np.int8] = cards,
                         own: npt.NDArray[np.int8] = own) -> npt.NDArray[np.int8]:
                return np.hstack([np.broadcast_to(cards, (len(at), len(cards))), own[at]])
            for r, name in enumerate(rankings):
                out[r][h] = key_values(keys, 7, name, cards_of)
        return _sums(out)

    return _result(hands, _run(settle, rest, sum(needs), trials, seed, "ordered", len(hands),
                               progress), trials, False, seed)


def double_board_equity(hands: Sequence[Sequence[str]], boards: tuple[Sequence[str],
                        Sequence[str]], dead: Sequence[str] = (), trials: int = 200_000,
                        seed: int = 1,
                        progress: Callable[[int, int], None] | None = None) -> EquityResult:
    """Double Flop Hold'em: half the pot on each of two boards (RULINGS), by Monte Carlo
    (:func:`draw_ordered`, block b from ``stream(seed, b)``)."""
    if len(hands) < 2:
        raise CardError("equity needs two or more hands")
    if any(len(b) > 5 for b in boards):
        raise CardError("each board has at most five cards")
    if any(len(h) > 2 for h in hands):
        raise CardError("Double Flop Hold'em hands hold two cards")
    rest = _rest([c for h in hands for c in h] + [c for b in boards for c in b] + list(dead))
    fixed = [_indices(b) for b in boards]
    needs = [5 - len(b) for b in boards]
    if sum(needs) > len(rest):
        raise CardError(f"{sum(needs)} cards are needed and {len(rest)} are left in the deck")
    holes = [_indices(h) for h in hands]
    _prepare(("high",), *{len(h) + 5 for h in holes})

    def settle(drawn: Positions) -> npt.NDArray[np.float64]:
        share = np.zeros((len(hands), len(drawn)))
        at = 0
        for cards, need in zip(fixed, needs, strict=True):
            board = _Boards(cards, rest, drawn[:, at:at + need])
            at += need
            share += 0.5 * _pot_shares(_board_values(holes, board, ("high",))[0], None)
        return _share_sums(share)

    return _result(hands, _run(settle, rest, sum(needs), trials, seed, "ordered", len(hands),
                               progress), trials, False, seed)
