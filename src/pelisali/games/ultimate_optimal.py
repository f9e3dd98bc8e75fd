"""Ultimate Texas Hold'em's optimal strategy and its exact house edge, every deal counted.

The player decides three times, each time on what is seen: before the flop (play 4 or 3
times the ante, or check) on the two hole cards; on the flop (play 2 times, or check) on
the hole cards and the flop; after the river (play 1 time, or fold) on all seven. The
optimal strategy takes, at each decision, the choice whose return over every card still
to come and every dealer hand is the highest, the later decisions played the same way.

How the count works. On each board (by its suit pattern, as
:func:`pelisali.games.ultimate_texas.exact` counts the simple strategy) each of the 1,081
player hands has its return played 1 to 4 times or folded
(:func:`~pelisali.games.ultimate_texas.play_values`), so the river decision is read off
at once. The flop decision of hole cards ``H`` and flop ``F`` needs the sums over the
1,081 boards that hold ``F`` and not ``H``: of the return played 2 times, and of the
return with the river played best. These sums are equal for (H, F) pairs equal under a
renaming of the suits, so they are kept once a class (about 1.1 million classes of the
26 million pairs): a board pattern standing for ``w`` boards adds ``w`` times its values
to each of its (H, F) classes, and the class's total is then the class's size times its
pairs' sum (checked exactly: every total divides). The decision before the flop adds the
flop values of its 19,600 flops, against 10 times the return of playing 4 or 3 times
over its 2,118,760 boards (each board holds 10 flops).

>>> perms = suit_permutations()
>>> len(perms), sorted(perms[5].tolist())
(24, [0, 1, 2, 3])
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from math import comb
from pathlib import Path

import numba as nb
import numpy as np
import numpy.typing as npt

from pelisali.games import holdem_count, ultimate_texas
from pelisali.games.cache_files import (
    cache_folder,
    read_kept,
    save_arrays_atomically,
    write_text_atomically,
)
from pelisali.games.holdem_count import (
    DEALER_HANDS,
    board_classes,
    card_indices,
    combinations_array,
    flop_index,
    pair_index,
)
from pelisali.games.ultimate_texas import play_values
from pelisali.rules.banked import UltimateRules, load_ultimate

Int64s = npt.NDArray[np.int64]
Int32s = npt.NDArray[np.int32]
FOLD = -4 * DEALER_HANDS
"""A fold's return over the dealer's hands, in halves of the ante: ante and blind lost."""
BOARDS_OFF_HOLE = comb(50, 5)
"""The boards a pair of hole cards meets: 2,118,760."""
TURNS_AND_RIVERS = comb(47, 2)
"""The boards holding one flop and not the hole cards: 1,081."""
_FLOPS_OF_BOARD = combinations_array(5, 3)
PUBLISHED_OPTIMAL = {"ante_edge": 2.19, "element_of_risk": 0.53}
"""The published figures of the optimal strategy, blind 500-50-10-3-3/2-1, in per cent."""
PUBLISHED_SOURCE = ("the Wizard of Odds, \"Ultimate Texas Hold 'Em\" (wizardofodds.com/games/"
                    "ultimate-texas-hold-em/): 2.19 % per ante with optimal play; "
                    "beatingbonuses.com, \"Ultimate Texas Hold'em\": 0.53 % per unit wagered")
"""Where :data:`PUBLISHED_OPTIMAL` is published."""


def suit_permutations() -> Int64s:
    """The 24 renamings of the four suits, each a row (old suit -> new suit)."""
    return np.array(list(permutations(range(4))), dtype=np.int64)


@nb.njit(cache=True)
def _least_key(cards: Int64s, split: int, perms: Int64s) -> int:
    """The least code of the cards over every renaming of the suits: the first ``split``
    cards (the hole) and the rest (the flop), each as a sorted run of 6-bit cards."""
    best = -1
    n = len(cards)
    renamed = np.empty(n, dtype=np.int64)
    for p in range(len(perms)):
        for i in range(n):
            card = (cards[i] & ~3) | perms[p, cards[i] & 3]
            # insertion into its run (the hole's or the flop's), kept ascending
            start = 0 if i < split else split
            j = i
            while j > start and renamed[j - 1] > card:
                renamed[j] = renamed[j - 1]
                j -= 1
            renamed[j] = card
        code = 0
        for i in range(n):
            code = (code << 6) | renamed[i]
        if best < 0 or code < best:
            best = code
    return best


@nb.njit(cache=True, parallel=True)
def _hole_flop_keys(pairs: Int64s, flops: Int64s, perms: Int64s) -> Int64s:
    """The class code of every (pair, flop), -1 where they share a card."""
    keys = np.full((len(pairs), len(flops)), -1, dtype=np.int64)
    for p in nb.prange(len(pairs)):
        cards = np.empty(5, dtype=np.int64)
        a, b = pairs[p, 0], pairs[p, 1]
        for f in range(len(flops)):
            c, d, e = flops[f, 0], flops[f, 1], flops[f, 2]
            if a in (c, d, e) or b in (c, d, e):
                continue
            cards[0], cards[1], cards[2], cards[3], cards[4] = a, b, c, d, e
            keys[p, f] = _least_key(cards, 2, perms)
    return keys


@dataclass(frozen=True)
class Classes:
    """The classes of (hole, flop) pairs and of hole pairs under the suits' renamings:
    ``of_pair_flop`` (1,326 x 22,100, -1 where they share a card) and ``of_pair``
    (1,326) give a class number, ``sizes`` and ``pair_sizes`` how many pairs each
    class holds."""

    of_pair_flop: Int32s
    sizes: Int64s
    of_pair: Int64s
    pair_sizes: Int64s


def classes() -> Classes:
    """The classes, found by the least code over the 24 renamings."""
    pairs, flops = combinations_array(52, 2), combinations_array(52, 3)
    perms = suit_permutations()
    keys = _hole_flop_keys(pairs, flops, perms)
    valid = keys >= 0
    _, inverse, sizes = np.unique(keys[valid], return_inverse=True, return_counts=True)
    of_pair_flop = np.full(keys.shape, -1, dtype=np.int32)
    of_pair_flop[valid] = inverse.astype(np.int32)
    del keys
    of_pair, pair_sizes = hole_classes()
    return Classes(of_pair_flop, sizes.astype(np.int64), of_pair, pair_sizes)


def hole_classes() -> tuple[Int64s, Int64s]:
    """The class of each of the 1,326 pairs of hole cards (by pair index) under the
    suits' renamings, and each class's size: 169 classes."""
    perms = suit_permutations()
    pair_keys = np.array([_least_key(pair, 2, perms) for pair in combinations_array(52, 2)],
                         dtype=np.int64)
    _, of_pair, pair_sizes = np.unique(pair_keys, return_inverse=True, return_counts=True)
    return of_pair.astype(np.int64), pair_sizes.astype(np.int64)


@nb.njit(cache=True)
def _accumulate(of_pair_flop: Int32s, of_pair: Int64s, pair_ids: Int64s, flop_ids: Int64s,
                fixed: Int64s, per_play: Int64s, weights: Int64s, twice: Int64s,
                checked: Int64s, river_plays: Int64s, hole_fixed: Int64s,
                hole_play: Int64s) -> None:
    """Add a batch of board patterns' values, each ``weights`` times, to the classes:
    per (hole, flop) class the return played 2 times (``twice``), the return with the
    river played best (``checked``) and the boards where the river is played; per hole
    class the return of ante and blind and of one play unit."""
    for board in range(pair_ids.shape[0]):
        w = weights[board]
        for hand in range(pair_ids.shape[1]):
            pair = pair_ids[board, hand]
            value, unit = fixed[board, hand], per_play[board, hand]
            played = value + unit
            best = played if played > FOLD else FOLD
            plays = 1 if played > FOLD else 0
            hole_class = of_pair[pair]
            hole_fixed[hole_class] += w * value
            hole_play[hole_class] += w * unit
            for flop in range(flop_ids.shape[1]):
                c = of_pair_flop[pair, flop_ids[board, flop]]
                twice[c] += w * (value + 2 * unit)
                checked[c] += w * best
                river_plays[c] += w * plays


@dataclass(frozen=True)
class Optimal:
    """The optimal strategy's figures, every deal counted: ``ante_edge`` per ante,
    ``element_of_risk`` per unit wagered, ``shares`` of each play (``4x``, ``3x``,
    ``2x``, ``1x``, ``fold``), ``deals`` and how many hole pairs play 4 times
    (``preflop_4x``, of 1,326) and 3 times (``preflop_3x``); ``flop_2x``, of the flops
    a checking hand sees, how many are played 2 times."""

    ante_edge: Fraction
    element_of_risk: Fraction
    shares: dict[str, Fraction]
    deals: int
    preflop_4x: int
    preflop_3x: int
    flop_2x: int
    classes: int


def exact_division(total: Int64s, sizes: Int64s, what: str) -> Int64s:
    """A class total over its size: the sum of each of its pairs, which must divide."""
    if np.any(total % sizes):
        raise ArithmeticError(f"the {what} totals do not divide by their classes' sizes")
    result: Int64s = total // sizes
    return result


@dataclass
class Totals:
    """What the boards add to each class (see :func:`_accumulate`), in halves of the ante
    over the dealer's hands: per (hole, flop) class ``twice``, ``checked`` and
    ``river_plays``; per hole class ``hole_fixed`` and ``hole_play``."""

    twice: Int64s
    checked: Int64s
    river_plays: Int64s
    hole_fixed: Int64s
    hole_play: Int64s

    @classmethod
    def zeros(cls, found: Classes) -> Totals:
        count, holes = len(found.sizes), len(found.pair_sizes)
        return cls(*(np.zeros(n, dtype=np.int64) for n in (count, count, count, holes,
                                                           holes)))

    def add(self, found: Classes, boards: Int64s, weights: Int64s,
            rules: UltimateRules) -> None:
        """Add the boards (N, 5), each standing for ``weights`` boards."""
        values = play_values(boards, rules)
        hole = values.showdown.hole
        pair_ids = pair_index(hole[:, :, 0], hole[:, :, 1])
        flop_cards = boards[:, _FLOPS_OF_BOARD]
        flop_ids = flop_index(flop_cards[:, :, 0], flop_cards[:, :, 1], flop_cards[:, :, 2])
        _accumulate(found.of_pair_flop, found.of_pair, pair_ids, flop_ids, values.fixed,
                    values.per_play, weights, self.twice, self.checked, self.river_plays,
                    self.hole_fixed, self.hole_play)

    def sums(self, found: Classes) -> tuple[Int64s, Int64s, Int64s, Int64s, Int64s]:
        """Each class total over its size: per (hole, flop) class the sums over its
        1,081 boards of the return played 2 times, with the river played best, and the
        river plays; per hole pair (1,326, by pair index) the sums over its 2,118,760
        boards of the ante and blind's return and one play unit's."""
        sizes = found.sizes
        return (exact_division(self.twice, sizes, "flop"),
                exact_division(self.checked, sizes, "river"),
                exact_division(self.river_plays, sizes, "river play"),
                exact_division(self.hole_fixed, found.pair_sizes, "hole")[found.of_pair],
                exact_division(self.hole_play, found.pair_sizes, "hole play")[found.of_pair])


def class_totals(rules: UltimateRules, progress: Callable[[int], None] | None = None
                 ) -> tuple[Classes, Totals]:
    """Every board pattern added to the classes."""
    found = classes()
    totals = Totals.zeros(found)
    boards, weights = board_classes()
    step = 64
    for start in range(0, len(boards), step):
        totals.add(found, boards[start:start + step], weights[start:start + step], rules)
        if progress:
            progress(len(boards[start:start + step]))
    return found, totals


@dataclass(frozen=True)
class Plays:
    """The optimal strategy's decisions before the river: ``preflop`` (1,326 hole pairs by
    pair index) plays 4 times, ``preflop_3x`` 3 times, else checks; ``flop`` (1,326 x
    22,100 by pair and flop index) plays 2 times. After the river the strategy plays 1
    time when that returns more than a fold (:func:`river_plays`)."""

    preflop: npt.NDArray[np.bool_]
    preflop_3x: npt.NDArray[np.bool_]
    flop: npt.NDArray[np.bool_]


def optimal(blind: str | None = None, progress: Callable[[int], None] | None = None,
            rules: UltimateRules | None = None) -> Optimal:
    """The optimal strategy's exact figures (see the module's text). ``progress`` is told
    the board patterns done, a batch at a time."""
    return count_optimal(rules or load_ultimate(blind), progress)[0]


def count_optimal(rules: UltimateRules, progress: Callable[[int], None] | None = None
                  ) -> tuple[Optimal, Plays]:
    """The figures and the decisions."""
    return _decide(*class_totals(rules, progress))


def river_plays(hole: Sequence[str], board: Sequence[str],
                rules: UltimateRules | None = None) -> bool:
    """Whether the optimal strategy plays 1 time after the river: when that returns more,
    over the dealer's 990 hands, than folding ante and blind.

    >>> river_plays(["4h", "3d"], ["Kc", "Qd", "9s", "8h", "6c"])  # the board plays
    False
    >>> river_plays(["Kh", "2d"], ["Kc", "Qd", "9s", "8h", "6c"])
    True
    """
    cards = card_indices([*hole, *board])
    if len(cards) != 7:
        raise ValueError("two hole cards and five on the board")
    values = play_values(np.array([sorted(cards[2:])]), rules or load_ultimate(), False)
    held = values.showdown.hole[0]
    low, high = sorted(cards[:2])
    at = int(np.flatnonzero((held[:, 0] == low) & (held[:, 1] == high))[0])
    return bool(values.fixed[0, at] + values.per_play[0, at] > FOLD)


def _decide(found: Classes, totals: Totals) -> tuple[Optimal, Plays]:
    """The decisions from the class totals, and the figures."""
    sizes = found.sizes
    twice_sum, checked_sum, plays_sum, fixed_sum, play_sum = totals.sums(found)
    bets = twice_sum > checked_sum
    flop_value = np.maximum(twice_sum, checked_sum)
    # each pair's flops: the flop values and, to count the wager, its plays
    valid = found.of_pair_flop >= 0
    at = np.where(valid, found.of_pair_flop, 0)
    check_value = np.where(valid, flop_value[at], 0).sum(axis=1)
    flops_2x = np.where(valid, bets[at], False).sum(axis=1)
    river_1x = np.where(valid & ~bets[at], plays_sum[at], 0).sum(axis=1)
    four = 10 * (fixed_sum + 4 * play_sum)
    three = 10 * (fixed_sum + 3 * play_sum)
    plays_4x = (four >= three) & (four >= check_value)
    plays_3x = ~plays_4x & (three >= check_value)
    checks = ~plays_4x & ~plays_3x
    total = int(np.where(plays_4x, four, np.where(plays_3x, three, check_value)).sum())
    # in flops seen: a pair meets 19,600 flops, each with 1,081 turns and rivers
    seen = 10 * BOARDS_OFF_HOLE
    pairs = len(found.of_pair)
    units = (6 * seen * int(plays_4x.sum()) + 5 * seen * int(plays_3x.sum())
             + int((checks * (2 * seen + 2 * TURNS_AND_RIVERS * flops_2x + river_1x)).sum()))
    hands = pairs * seen
    deals = pairs * BOARDS_OFF_HOLE * DEALER_HANDS
    ante_return = Fraction(total, 20 * deals)
    wager = Fraction(units, hands)
    shares = {"4x": Fraction(int(plays_4x.sum()), pairs),
              "3x": Fraction(int(plays_3x.sum()), pairs),
              "2x": Fraction(int((checks * flops_2x).sum()) * TURNS_AND_RIVERS, hands),
              "1x": Fraction(int((checks * river_1x).sum()), hands)}
    shares["fold"] = 1 - sum(shares.values(), Fraction(0))
    figures = Optimal(-ante_return, -ante_return / wager, shares, deals,
                      int(plays_4x.sum()), int(plays_3x.sum()),
                      int((checks * flops_2x).sum()), len(sizes))
    return figures, Plays(plays_4x, plays_3x, valid & bets[at])


def _cache_key(rules: UltimateRules) -> str:
    """What the figures depend on: this module's code, the counts' and the blind table."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for module in (ultimate_texas, holdem_count):
        digest.update(Path(str(module.__file__)).read_bytes())
    digest.update(json.dumps([rules.blind_table, {k: str(v) for k, v in rules.blind.items()}],
                             sort_keys=True).encode())
    return digest.hexdigest()[:24]


def to_json(found: Optimal) -> dict[str, object]:
    """The figures as JSON (fractions as strings)."""
    return {"ante_edge": str(found.ante_edge), "element_of_risk": str(found.element_of_risk),
            "shares": {k: str(v) for k, v in found.shares.items()}, "deals": found.deals,
            "preflop_4x": found.preflop_4x, "preflop_3x": found.preflop_3x,
            "flop_2x": found.flop_2x, "classes": found.classes}


def from_json(data: dict[str, object]) -> Optimal:
    """:func:`to_json` read back."""
    shares = data["shares"]
    if not isinstance(shares, dict):
        raise TypeError("shares is a table")
    return Optimal(Fraction(str(data["ante_edge"])), Fraction(str(data["element_of_risk"])),
                   {str(k): Fraction(str(v)) for k, v in shares.items()},
                   int(str(data["deals"])), int(str(data["preflop_4x"])),
                   int(str(data["preflop_3x"])), int(str(data["flop_2x"])),
                   int(str(data["classes"])))


def _cache_paths(rules: UltimateRules, directory: Path | None) -> tuple[Path, Path]:
    base = cache_folder(directory)
    key = _cache_key(rules)
    return base / f"uth-optimal-{key}.json", base / f"uth-optimal-plays-{key}.npz"


def _count_and_keep(rules: UltimateRules, progress: Callable[[int], None] | None,
                    directory: Path | None) -> tuple[Optimal, Plays]:
    found, plays = count_optimal(rules, progress)
    figures, decisions = _cache_paths(rules, directory)
    save_arrays_atomically(decisions, preflop=plays.preflop, preflop_3x=plays.preflop_3x,
                           flop=np.packbits(plays.flop, axis=1))
    write_text_atomically(figures, json.dumps(to_json(found)))
    return found, plays


def cached_optimal(blind: str | None = None, progress: Callable[[int], None] | None = None,
                   directory: Path | None = None) -> tuple[Optimal, bool]:
    """:func:`optimal`, kept in the user's cache (``$XDG_CACHE_HOME/pelisali``) under a key
    of the code and the blind table, with its decisions: the figures and whether they
    were read from it."""
    rules = load_ultimate(blind)
    figures, _ = _cache_paths(rules, directory)
    kept = read_kept(figures, lambda path: from_json(json.loads(path.read_text())))
    if kept is not None:
        return kept, True
    return _count_and_keep(rules, progress, directory)[0], False


def cached_plays(blind: str | None = None, progress: Callable[[int], None] | None = None,
                 directory: Path | None = None) -> Plays:
    """The optimal strategy's decisions (:class:`Plays`), from the user's cache or
    counted (and kept) when missing."""
    rules = load_ultimate(blind)
    _, decisions = _cache_paths(rules, directory)
    kept = read_kept(decisions, _read_plays)
    return kept if kept is not None else _count_and_keep(rules, progress, directory)[1]


def _read_plays(path: Path) -> Plays:
    with np.load(path) as kept:
        flop = np.unpackbits(kept["flop"], axis=1, count=22_100).astype(bool)
        return Plays(kept["preflop"].astype(bool), kept["preflop_3x"].astype(bool), flop)


def hole_and_flop(cards: Sequence[int]) -> tuple[int, int | None]:
    """The pair index of the first two card indices and, with three more, the flop index
    (the decision tables' rows and columns).

    >>> hole_and_flop([51, 0]), hole_and_flop([1, 0, 4, 3, 2])
    ((1275, None), (0, 9))
    """
    low, high = sorted(cards[:2])
    pair = int(pair_index(np.array([low]), np.array([high]))[0])
    if len(cards) != 5:
        return pair, None
    a, b, c = sorted(cards[2:])
    return pair, int(flop_index(np.array([a]), np.array([b]), np.array([c]))[0])


def plays_from(plays: Plays, hole: Sequence[str], board: Sequence[str],
               rules: UltimateRules | None = None) -> int:
    """The optimal play (4, 3, 2, 1 or 0 to check, or -1 to fold) with ``hole`` and the
    board's cards so far (none, the flop, or all five), by :class:`Plays` and, after the
    river, :func:`river_plays` under ``rules`` (the blind table the plays were counted
    for)."""
    pair, flop = hole_and_flop(card_indices([*hole, *board]))
    if not board:
        return 4 if plays.preflop[pair] else 3 if plays.preflop_3x[pair] else 0
    if flop is not None:
        return 2 if plays.flop[pair, flop] else 0
    if len(board) == 5:
        return 1 if river_plays(hole, board, rules) else -1
    raise ValueError("a decision comes with no board, the flop or all five cards")
