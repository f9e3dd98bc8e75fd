"""Texas Hold'em Bonus's optimal strategy and its exact house edge, every deal counted.

The player decides three times on what is seen: before the flop, fold (losing the ante)
or bet the flop at 2 times the ante; on the flop, bet the turn at 1 time or check; on the
turn, bet the river at 1 time or check. A turn or river bet returns its own showdown,
whatever else is bet, so the optimal strategy bets the river on a turn board ``Q`` (four
cards) when the bet's return over the 46 rivers and every dealer hand is positive, the
turn on a flop ``F`` when its return over the 1,081 turns and rivers is, and plays before
the flop when the hand's return so played beats the fold's.

How the count works. The boards by suit pattern give, for every player hand, the bets'
returns over the dealer's 990 hands (:func:`pelisali.games.holdem_count.showdown`): the
ante and flop bet's, and one unit's. The flop's sums over the boards holding it are kept
once a class of (hole cards, flop) under the suits' renamings, as
:mod:`pelisali.games.ultimate_optimal` keeps them, each class's total its size times its
pairs' sum. The river's sums over the 46 rivers of each turn board are counted from the
turn boards by their own suit patterns (:func:`turn_board_classes`), each with its 48
rivers, and each hand's best river value added to its hole cards' class.

A board's five cards come in 20 orders of flop, turn and river: each flop begins 2 of
them and each turn board 4, the scale the sums below are kept in.

>>> boards, weights = turn_board_classes()
>>> int(weights.sum()), boards.shape[1]
(270725, 4)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import permutations
from math import comb
from pathlib import Path

import numba as nb
import numpy as np
import numpy.typing as npt

from pelisali.games import holdem_bonus, holdem_count, ultimate_optimal
from pelisali.games.cache_files import (
    cache_folder,
    read_kept,
    save_arrays_atomically,
    write_text_atomically,
)
from pelisali.games.holdem_bonus import ante_least
from pelisali.games.holdem_count import (
    DEALER_HANDS,
    board_classes,
    card_indices,
    combinations_array,
    flop_index,
    pair_index,
    showdown,
)
from pelisali.games.ultimate_optimal import Classes, classes, exact_division, hole_and_flop
from pelisali.rules.holdem_bonus import HoldemBonusRules, load_holdem_bonus

Int64s = npt.NDArray[np.int64]
BOARDS_OFF_HOLE = comb(50, 5)
"""The boards a pair of hole cards meets: 2,118,760."""
ORDERS = 20
"""A board's orders of flop, turn and river."""
_FLOPS_OF_BOARD = combinations_array(5, 3)
PUBLISHED_OPTIMAL: dict[str, dict[str, float | None]] = {
    "straight": {"ante_edge": 2.037, "element_of_risk": 0.5335, "average_wager": 3.8181},
    "flush": {"ante_edge": 5.5935, "element_of_risk": None, "average_wager": None}}
"""The published figures of the optimal strategy by the ante rule, in per cent and antes:
the Wizard of Odds, "Texas Hold'em Bonus" (wizardofodds.com/games/texas-hold-em-bonus/),
the flush rule's from Scott McIntosh as the Wizard quotes him."""


@cache
def turn_board_classes() -> tuple[Int64s, Int64s]:
    """One four-card turn board of each suit pattern (ascending card indices) and how
    many turn boards share it: the 270,725 under the 24 renamings of the suits."""
    boards = combinations_array(52, 4)
    least = np.full(len(boards), np.iinfo(np.int64).max)
    for order in permutations(range(4)):
        renamed = (boards >> 2) * 4 + np.array(order)[boards & 3]
        least = np.minimum(least, np.left_shift(1, renamed).sum(axis=1))
    masks, weights = np.unique(least, return_counts=True)
    bits = np.unpackbits(masks.astype("<i8").view(np.uint8).reshape(-1, 8), axis=1,
                         bitorder="little")
    return np.nonzero(bits)[1].reshape(-1, 4).astype(np.int64), weights.astype(np.int64)


@nb.njit(cache=True)
def _add_flops(of_pair_flop: npt.NDArray[np.int32], of_pair: Int64s, pair_ids: Int64s,
               flop_ids: Int64s, base: Int64s, per_play: Int64s, weights: Int64s,
               flop_sums: Int64s, hole_base: Int64s) -> None:
    """Add board patterns, each ``weights`` times: one unit's return to each (hole,
    flop) class the board holds, the ante and flop bet's to the hole class."""
    for board in range(pair_ids.shape[0]):
        w = weights[board]
        for hand in range(pair_ids.shape[1]):
            pair = pair_ids[board, hand]
            hole_base[of_pair[pair]] += w * base[board, hand]
            for flop in range(flop_ids.shape[1]):
                flop_sums[of_pair_flop[pair, flop_ids[board, flop]]] += w * per_play[board,
                                                                                     hand]


@nb.njit(cache=True)
def _add_turn_boards(of_pair: Int64s, pair_ids: Int64s, per_play: Int64s, weights: Int64s,
                     rivers: int, river_value: Int64s, river_bets: Int64s) -> None:
    """For turn board patterns whose boards come ``rivers`` at a time in the batch: each
    hand's river sum (one unit's return over the rivers), its best (bet or check) added
    ``weights`` times to its hole class, and whether it bets."""
    sums = np.zeros(1326, dtype=np.int64)
    held = np.zeros(1326, dtype=np.bool_)
    for turn in range(len(weights)):
        sums[:] = 0
        held[:] = False
        for board in range(turn * rivers, (turn + 1) * rivers):
            for hand in range(pair_ids.shape[1]):
                pair = pair_ids[board, hand]
                sums[pair] += per_play[board, hand]
                held[pair] = True
        w = weights[turn]
        for pair in range(1326):
            if held[pair] and sums[pair] > 0:
                river_value[of_pair[pair]] += w * sums[pair]
                river_bets[of_pair[pair]] += w


def bet_values(boards: Int64s, rules: HoldemBonusRules) -> tuple[Int64s, Int64s, Int64s]:
    """Per board (N, 5) and player hand (1,081): the pair index of the hand, the ante and
    flop bet's return and one unit's, each summed over the dealer's 990 hands."""
    found = showdown(boards)
    wins, losses = found.less, found.above()
    per_play = wins - losses
    paid_ante = np.where(found.mine >= ante_least(rules), wins, 0)
    base = paid_ante - losses + 2 * per_play
    hole = found.hole
    return pair_index(hole[:, :, 0], hole[:, :, 1]), base, per_play


@dataclass(frozen=True)
class Optimal:
    """The optimal strategy's figures, every deal counted: ``ante_edge`` per ante,
    ``element_of_risk`` per unit wagered, ``average_wager`` in antes, ``shares`` of each
    bet (``flop``, ``turn``, ``river``, ``fold``), ``deals``, and how many of the 1,326
    pairs of hole cards fold (``folds``)."""

    ante_edge: Fraction
    element_of_risk: Fraction
    average_wager: Fraction
    shares: dict[str, Fraction]
    deals: int
    folds: int


def optimal(ante: str | None = None, progress: Callable[[str, int, int], None] | None = None,
            rules: HoldemBonusRules | None = None) -> Optimal:
    """The optimal strategy's exact figures (see the module's text). ``progress(stage,
    done, total)`` is told the board patterns (``boards``), then the turn board patterns
    (``turns``), done."""
    return count_optimal(rules or load_holdem_bonus(ante), progress)[0]


def count_optimal(rules: HoldemBonusRules,
                  progress: Callable[[str, int, int], None] | None = None
                  ) -> tuple[Optimal, Plays]:
    """The figures and the decisions before the turn."""
    found = classes()
    flop_sums = np.zeros(len(found.sizes), dtype=np.int64)
    hole_base = np.zeros(len(found.pair_sizes), dtype=np.int64)
    boards, weights = board_classes()
    step = 64
    for start in range(0, len(boards), step):
        batch = boards[start:start + step]
        pair_ids, base, per_play = bet_values(batch, rules)
        flop_cards = batch[:, _FLOPS_OF_BOARD]
        flop_ids = flop_index(flop_cards[:, :, 0], flop_cards[:, :, 1], flop_cards[:, :, 2])
        _add_flops(found.of_pair_flop, found.of_pair, pair_ids, flop_ids, base, per_play,
                   weights[start:start + step], flop_sums, hole_base)
        if progress:
            progress("boards", start + len(batch), len(boards))
    river_value, river_bets = turn_totals(found, rules, progress)
    return _decide(found, flop_sums, hole_base, river_value, river_bets)


@dataclass(frozen=True)
class Plays:
    """The optimal strategy's decisions before the turn: ``flop`` (1,326 hole pairs by
    pair index) bets the flop, else folds; ``turn`` (1,326 x 22,100 by pair and flop
    index) bets the turn. On the turn the river bet is counted on the spot
    (:func:`bets_river`)."""

    flop: npt.NDArray[np.bool_]
    turn: npt.NDArray[np.bool_]


def bets_river(hole: Sequence[str], board: Sequence[str],
               rules: HoldemBonusRules | None = None) -> bool:
    """Whether the optimal strategy bets the river on the turn's four cards: when one
    unit's return over the 46 rivers and every dealer hand is positive.

    >>> bets_river(["Ah", "Ad"], ["Ac", "Kd", "7s", "2h"]), bets_river(["3h", "2d"],
    ...                                                                ["Ac", "Kd", "7s", "9h"])
    (True, False)
    """
    cards = card_indices([*hole, *board])
    if len(cards) != 6:
        raise ValueError("two hole cards and the turn's four")
    turn = np.array(sorted(cards[2:]), dtype=np.int64)
    rivers = np.array([c for c in range(52) if c not in cards], dtype=np.int64)
    boards = np.sort(np.concatenate([np.repeat(turn[None, :], len(rivers), axis=0),
                                     rivers[:, None]], axis=1), axis=1)
    pair_ids, _, per_play = bet_values(boards, rules or load_holdem_bonus())
    held = pair_ids == hole_and_flop(cards[:2])[0]
    return int(per_play[held].sum()) > 0


def turn_totals(found: Classes, rules: HoldemBonusRules,
                progress: Callable[[str, int, int], None] | None = None,
                turns: Int64s | None = None, weights: Int64s | None = None
                ) -> tuple[Int64s, Int64s]:
    """Per hole class, over the turn boards (their patterns, each standing for
    ``weights`` boards; all of them by default): the best river values summed, and how
    many turn boards bet the river."""
    if turns is None or weights is None:
        turns, weights = turn_board_classes()
    river_value = np.zeros(len(found.pair_sizes), dtype=np.int64)
    river_bets = np.zeros(len(found.pair_sizes), dtype=np.int64)
    step = 24
    for start in range(0, len(turns), step):
        batch = turns[start:start + step]
        off = np.ones((len(batch), 52), dtype=bool)
        np.put_along_axis(off, batch, False, axis=1)
        rivers = np.nonzero(off)[1].reshape(len(batch), 48)
        boards = np.sort(np.concatenate([np.repeat(batch, 48, axis=0),
                                         rivers.reshape(-1, 1)], axis=1), axis=1)
        pair_ids, _, per_play = bet_values(boards, rules)
        _add_turn_boards(found.of_pair, pair_ids, per_play, weights[start:start + step], 48,
                         river_value, river_bets)
        if progress:
            progress("turns", start + len(batch), len(turns))
    return river_value, river_bets


def _decide(found: Classes, flop_sums: Int64s, hole_base: Int64s, river_value: Int64s,
            river_bets: Int64s) -> tuple[Optimal, Plays]:
    """The decisions from the class totals, and the figures (in the 20 orders' scale)."""
    flop_sum = exact_division(flop_sums, found.sizes, "flop")
    base = exact_division(hole_base, found.pair_sizes, "hole")[found.of_pair]
    rivers = exact_division(river_value, found.pair_sizes, "river")[found.of_pair]
    river_turns = exact_division(river_bets, found.pair_sizes, "river bet")[found.of_pair]
    valid = found.of_pair_flop >= 0
    at = np.where(valid, found.of_pair_flop, 0)
    turn_value = np.where(valid, np.maximum(flop_sum[at], 0), 0).sum(axis=1)
    turn_flops = np.where(valid, flop_sum[at] > 0, False).sum(axis=1)
    played_value = ORDERS * base + 2 * turn_value + 4 * rivers
    fold_value = -ORDERS * BOARDS_OFF_HOLE * DEALER_HANDS
    plays = played_value > fold_value
    total = int(np.where(plays, played_value, fold_value).sum())
    pairs = len(found.of_pair)
    orders = ORDERS * BOARDS_OFF_HOLE  # a pair's (flop, turn, river) orders
    turn_count = turn_flops * 47 * 46  # each flop's orders
    river_count = river_turns * 4 * 46  # each turn board's orders
    units = int(np.where(plays, 3 * orders + turn_count + river_count, orders).sum())
    hands = pairs * orders
    deals = pairs * BOARDS_OFF_HOLE * DEALER_HANDS
    ante_return = Fraction(total, ORDERS * deals)
    wager = Fraction(units, hands)
    shares = {"flop": Fraction(int(plays.sum()), pairs),
              "turn": Fraction(int((plays * turn_count).sum()), hands),
              "river": Fraction(int((plays * river_count).sum()), hands)}
    shares["fold"] = 1 - shares["flop"]
    figures = Optimal(-ante_return, -ante_return / wager, wager, shares, deals,
                      int((~plays).sum()))
    return figures, Plays(plays, valid & (flop_sum[at] > 0))


def _cache_key(rules: HoldemBonusRules) -> str:
    """What the figures depend on: this module's code, the counts' and the ante rule."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for module in (holdem_bonus, holdem_count, ultimate_optimal):
        digest.update(Path(str(module.__file__)).read_bytes())
    digest.update(rules.ante_pays_from.encode())
    return digest.hexdigest()[:24]


def to_json(found: Optimal) -> dict[str, object]:
    """The figures as JSON (fractions as strings)."""
    return {"ante_edge": str(found.ante_edge), "element_of_risk": str(found.element_of_risk),
            "average_wager": str(found.average_wager),
            "shares": {k: str(v) for k, v in found.shares.items()}, "deals": found.deals,
            "folds": found.folds}


def from_json(data: dict[str, object]) -> Optimal:
    """:func:`to_json` read back."""
    shares = data["shares"]
    if not isinstance(shares, dict):
        raise TypeError("shares is a table")
    return Optimal(Fraction(str(data["ante_edge"])), Fraction(str(data["element_of_risk"])),
                   Fraction(str(data["average_wager"])),
                   {str(k): Fraction(str(v)) for k, v in shares.items()},
                   int(str(data["deals"])), int(str(data["folds"])))


def _cache_paths(rules: HoldemBonusRules, directory: Path | None) -> tuple[Path, Path]:
    base = cache_folder(directory)
    key = _cache_key(rules)
    return base / f"thb-optimal-{key}.json", base / f"thb-optimal-plays-{key}.npz"


def _count_and_keep(rules: HoldemBonusRules,
                    progress: Callable[[str, int, int], None] | None,
                    directory: Path | None) -> tuple[Optimal, Plays]:
    found, plays = count_optimal(rules, progress)
    figures, decisions = _cache_paths(rules, directory)
    save_arrays_atomically(decisions, flop=plays.flop, turn=np.packbits(plays.turn, axis=1))
    write_text_atomically(figures, json.dumps(to_json(found)))
    return found, plays


def cached_optimal(ante: str | None = None,
                   progress: Callable[[str, int, int], None] | None = None,
                   directory: Path | None = None) -> tuple[Optimal, bool]:
    """:func:`optimal`, kept in the user's cache (``$XDG_CACHE_HOME/pelisali``) under a key
    of the code and the ante rule, with its decisions: the figures and whether they were
    read from it."""
    rules = load_holdem_bonus(ante)
    figures, _ = _cache_paths(rules, directory)
    kept = read_kept(figures, lambda path: from_json(json.loads(path.read_text())))
    if kept is not None:
        return kept, True
    return _count_and_keep(rules, progress, directory)[0], False


def cached_plays(ante: str | None = None,
                 progress: Callable[[str, int, int], None] | None = None,
                 directory: Path | None = None) -> Plays:
    """The optimal strategy's decisions (:class:`Plays`), from the user's cache or
    counted (and kept) when missing."""
    rules = load_holdem_bonus(ante)
    _, decisions = _cache_paths(rules, directory)
    kept = read_kept(decisions, _read_plays)
    return kept if kept is not None else _count_and_keep(rules, progress, directory)[1]


def _read_plays(path: Path) -> Plays:
    with np.load(path) as kept:
        return Plays(kept["flop"].astype(bool),
                     np.unpackbits(kept["turn"], axis=1, count=22_100).astype(bool))


def plays_from(plays: Plays, hole: Sequence[str], board: Sequence[str],
               rules: HoldemBonusRules | None = None) -> bool:
    """Whether the optimal strategy bets (the flop, the turn or the river) with ``hole``
    and the board's cards so far (none, the flop, or the turn's four), by :class:`Plays`
    and, on the turn, :func:`bets_river` under ``rules``."""
    pair, flop = hole_and_flop(card_indices([*hole, *board]))
    if not board:
        return bool(plays.flop[pair])
    if flop is not None:
        return bool(plays.turn[pair, flop])
    if len(board) == 4:
        return bets_river(hole, board, rules)
    raise ValueError("a decision comes with no board, the flop or the turn's four cards")
