"""Ultimate Texas Hold'em's rules, its simple strategy and its exact odds.

Standard rules (RAY 2016 1.4.1.2 names the game; its text is not in the rulebook as
extracted): the player bets an ante and an equal blind (and may bet Trips). Player and
dealer get two cards each, with five community cards; each plays the best five of
seven. The player makes one play bet a hand: 3 or 4 times the ante before the flop,
2 times after it, or, having checked twice, 1 time after the river, else folds and
loses ante and blind. The dealer qualifies with a pair or better; if not, the ante
pushes. A winning hand wins the ante (if the dealer qualifies) and the play bet 1:1, and
the blind by its table on a straight or better (pushing below). A losing hand loses
ante, blind and play; a tie pushes them. Trips pays by its table on the player's final
three of a kind or better. The tables are rule data (:mod:`pelisali.rules.banked`).

The simple strategy (:data:`SIMPLE_STRATEGY`, the one the Wizard of Odds publishes,
stated exactly here) is one definition, used by the engine's bot, the simulator and the
enumeration that gives its exact house edge (:func:`exact`):

>>> preflop_raise(["Kh", "5d"]), preflop_raise(["Kh", "4d"]), preflop_raise(["Kh", "4h"])
(True, False, True)
>>> flop_raise(["9h", "4d"], ["9c", "Kd", "2s"]), flop_raise(["2h", "2d"], ["9c", "Kd", "5s"])
(True, False)
>>> river_bet(["4h", "3d"], ["Kc", "Qd", "9s", "8h", "6c"])  # the board plays; 31 outs
False
>>> hand_return(["As", "Ad"], ["Kc", "Qd"], ["Ah", "Kd", "7s", "4h", "2c"], play=4)
Fraction(5, 1)
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pelisali.cards import DECK
from pelisali.games.holdem_count import (
    DEALER_HANDS,
    Showdown,
    board_classes,
    card_indices,
    flop_index,
    one_hand,
    pair_index,
    showdown,
)
from pelisali.games.holdem_count import combinations_array as _combinations
from pelisali.poker.evaluate import high_values
from pelisali.poker.hands import CATEGORIES, CATEGORY_SHIFT
from pelisali.rules.banked import UltimateRules, load_ultimate

SIMPLE_STRATEGY = (
    "Before the flop, play 4 times the ante with any pair of threes or better, any ace, "
    "K-5 or better (K-2 suited), Q-8 or better (Q-6 suited) and J-T (J-8 suited); never "
    "3 times. On the flop, play 2 times with two pair or better to which a hole card "
    "adds (the hand ranks above the flop alone), a hidden pair (a pocket pair other than "
    "deuces, or a hole card pairing the flop), or four to a flush with a hole card of "
    "that suit ten or higher. After the river, play 1 time with a hidden pair or better "
    "(the hand ranks in a higher category than the board alone) or when fewer than 21 of "
    "the 45 unseen cards would give the dealer, with the board, a hand beating the "
    "player's; otherwise fold.")
"""The strategy :func:`exact` values, in words."""

PAIR = 1 << CATEGORY_SHIFT
"""The least value of a pair: the dealer qualifies at it or above."""


@cache
def royal() -> int:
    """The value of a royal flush (the highest straight flush), found when first asked."""
    return int(high_values([[DECK.index(c) for c in ("As", "Ks", "Qs", "Js", "Ts")]])[0])


DEALER_OUTS_BELOW = 21
"""The river rule: play with fewer dealer outs than this."""
_PAY_NAMES = (*CATEGORIES, "royal_flush")


def pay_category(value: int) -> str:
    """The name a pay table uses for a hand value (``royal_flush`` apart).

    >>> pay_category(royal()), pay_category(PAIR)
    ('royal_flush', 'pair')
    """
    return "royal_flush" if value == royal() else CATEGORIES[value >> CATEGORY_SHIFT]


# -- the strategy: one definition over arrays of card indices ------------------------------
def preflop_raises(hole: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """The simple strategy's 4x hands among ``hole`` (an (N, 2) array of card indices)."""
    ranks = np.sort(hole >> 2, axis=1)
    low, high = ranks[:, 0], ranks[:, 1]
    suited = (hole[:, 0] & 3) == (hole[:, 1] & 3)
    king = (high == 11) & ((low >= 3) | suited)
    queen = (high == 10) & ((low >= 6) | (suited & (low >= 4)))
    jack = (high == 9) & ((low == 8) | (suited & (low >= 6)))
    result: npt.NDArray[np.bool_] = ((low == high) & (low >= 1)) | (high == 12) | king \
        | queen | jack
    return result


def flop_raises(hole: npt.NDArray[np.int64], flop: npt.NDArray[np.int64]
                ) -> npt.NDArray[np.bool_]:
    """The simple strategy's 2x hands: ``hole`` (N, 2) and ``flop`` (N, 3) card indices."""
    value = high_values(np.concatenate([hole, flop], axis=1)) >> CATEGORY_SHIFT
    flop_ranks, hole_ranks = flop >> 2, hole >> 2
    alone = np.where((flop_ranks[:, 0] == flop_ranks[:, 1]) & (flop_ranks[:, 1] ==
                                                             flop_ranks[:, 2]), 3,
                     np.where((flop_ranks[:, 0] == flop_ranks[:, 1])
                              | (flop_ranks[:, 1] == flop_ranks[:, 2])
                              | (flop_ranks[:, 0] == flop_ranks[:, 2]), 1, 0))
    made = (value >= 2) & (value > alone)
    pocket = (hole_ranks[:, 0] == hole_ranks[:, 1]) & (hole_ranks[:, 0] >= 1)
    pairs_flop = (hole_ranks[:, :, None] == flop_ranks[:, None, :]).any(axis=(1, 2))
    suits = np.concatenate([hole, flop], axis=1) & 3
    draw = np.zeros(len(hole), dtype=bool)
    for suit in range(4):
        four = (suits == suit).sum(axis=1) >= 4
        high_hole = (((hole & 3) == suit) & (hole_ranks >= 8)).any(axis=1)
        draw |= four & high_hole
    result: npt.NDArray[np.bool_] = made | pocket | pairs_flop | draw
    return result


def river_rule(player: npt.ArrayLike, board: npt.ArrayLike, outs: npt.ArrayLike
               ) -> npt.NDArray[np.bool_]:
    """The river rule from the player's seven-card value, the board's own value and the
    dealer outs: a hidden pair or better, or fewer than 21 outs."""
    mine = np.asarray(player) >> CATEGORY_SHIFT
    theirs = np.asarray(board) >> CATEGORY_SHIFT
    result: npt.NDArray[np.bool_] = ((mine >= 1) & (mine > theirs)) \
        | (np.asarray(outs) < DEALER_OUTS_BELOW)
    return result


def preflop_raise(hole: Sequence[str]) -> bool:
    """Whether the simple strategy plays 4x on these two cards."""
    return bool(preflop_raises(np.array([card_indices(hole)]))[0])


def flop_raise(hole: Sequence[str], flop: Sequence[str]) -> bool:
    """Whether the simple strategy plays 2x on these two cards and this flop."""
    return one_hand(flop_raises, hole, flop)


def dealer_outs(hole: Sequence[str], board: Sequence[str]) -> int:
    """The unseen cards (of 45) with which the board beats the player's hand: each would
    give the dealer a better hand, whatever the other card.

    >>> dealer_outs(["Ah", "3d"], ["Kc", "Kd", "8s", "7h", "2c"])  # an 8, 7, 2 or king
    11
    """
    cards = card_indices([*hole, *board])
    mine = int(high_values([cards])[0])
    unseen = [c for c in range(52) if c not in cards]
    sixes = high_values([[*cards[2:], c] for c in unseen])
    return int(np.count_nonzero(sixes > mine))


def river_bet(hole: Sequence[str], board: Sequence[str]) -> bool:
    """Whether the simple strategy plays 1x after the river (else it folds)."""
    cards = card_indices([*hole, *board])
    mine, alone = int(high_values([cards])[0]), int(high_values([cards[2:]])[0])
    return bool(river_rule(mine, alone, dealer_outs(hole, board)))


# -- what a hand pays --------------------------------------------------------------------
def hand_return(hole: Sequence[str], dealer: Sequence[str], board: Sequence[str],
                play: int, rules: UltimateRules | None = None) -> Fraction:
    """Ante, blind and play's net return, in antes, for one deal: ``play`` the play
    bet's multiple of the ante (0: the player folded)."""
    rules = rules or load_ultimate()
    cards = card_indices([*hole, *dealer, *board])
    if len(cards) != 9:
        raise ValueError("two cards each and five on the board")
    if play == 0:
        return Fraction(-2)
    mine, theirs = (int(v) for v in high_values([[*cards[:2], *cards[4:]], cards[2:]]))
    return showdown_return(mine, theirs, play, rules)


def showdown_return(mine: int, theirs: int, play: int, rules: UltimateRules | None = None
                    ) -> Fraction:
    """:func:`hand_return` from the two hands' seven-card values (``play`` 0: a fold).

    >>> showdown_return(PAIR + 5, PAIR - 1, 1)  # the dealer does not qualify: the ante pushes
    Fraction(1, 1)
    """
    rules = rules or load_ultimate()
    if play == 0:
        return Fraction(-2)
    if mine < theirs:
        return Fraction(-(1 if theirs < PAIR else 2) - play)
    if mine == theirs:
        return Fraction(0)
    return Fraction(1 if theirs >= PAIR else 0) + play + rules.blind.get(pay_category(mine), 0)


def trips_return(value: int, rules: UltimateRules | None = None) -> int:
    """Trips' net return to one on the player's final hand value."""
    return (rules or load_ultimate()).trips.get(pay_category(value), -1)


# -- the exact house edge of the simple strategy -------------------------------------------
@dataclass(frozen=True)
class Exact:
    """Every deal counted: 2,598,960 boards x 1,081 player hands x 990 dealer hands, the
    boards one of each suit pattern weighted by its count.

    ``ante_edge``: the house edge per ante of the simple strategy; ``element_of_risk``:
    per unit wagered (ante, blind and the play bet); ``shares``: the chance of each play
    (4x, 2x, 1x, fold); ``trips_edge``; ``categories``: the player's final hand
    distribution (seven cards, counted 21 ways each); ``boards``: the suit patterns."""

    ante_edge: Fraction
    element_of_risk: Fraction
    shares: dict[str, Fraction]
    trips_edge: Fraction
    categories: dict[str, int]
    deals: int
    boards: int


@cache
def flop_table() -> npt.NDArray[np.bool_]:
    """The flop rule for every pair (colex index, 1,326) and flop (22,100)."""
    pairs, flops = _combinations(52, 2), _combinations(52, 3)
    table = np.zeros((len(pairs), len(flops)), dtype=bool)
    step = 600
    for start in range(0, len(flops), step):
        chunk = flops[start:start + step]
        hole = np.repeat(pairs, len(chunk), axis=0)
        flop = np.tile(chunk, (len(pairs), 1))
        apart = ~(hole[:, :, None] == flop[:, None, :]).any(axis=(1, 2))
        found = np.zeros(len(hole), dtype=bool)
        found[apart] = flop_raises(hole[apart], flop[apart])
        table[:, start:start + len(chunk)] = found.reshape(len(pairs), len(chunk))
    return table


_FLOPS_OF_BOARD = _combinations(5, 3)  # the ten flops a board's five cards can make


@dataclass(frozen=True)
class PlayValues:
    """Per board of a batch (N) and player hand (1,081), summed over the dealer's 990
    hands in halves of the ante: ``fixed``, what the ante and blind return when the hand
    is played; ``per_play``, what one unit of play bet returns. A hand played ``k`` times
    returns ``fixed + k * per_play``; folded, ``-4`` a dealer hand. ``showdown`` is the
    batch's :class:`~pelisali.games.holdem_count.Showdown`; ``names`` the player's final
    category (9 a royal flush)."""

    showdown: Showdown
    fixed: npt.NDArray[np.int64]
    per_play: npt.NDArray[np.int64]
    names: npt.NDArray[np.int64]


def play_values(boards: npt.NDArray[np.int64], rules: UltimateRules, threads: bool = True
                ) -> PlayValues:
    """The :class:`PlayValues` of each board of ``boards`` (N, 5)."""
    found = showdown(boards, threads)
    mine, less, ties = found.mine, found.less, found.ties
    unqualified = found.dealer_below(PAIR)
    qualified_player = mine >= PAIR
    wins_unq = np.where(qualified_player, unqualified, less)
    wins_q = np.where(qualified_player, less - unqualified, 0)
    losses_q = np.where(qualified_player, DEALER_HANDS - less - ties,
                        DEALER_HANDS - unqualified)
    losses_unq = np.where(qualified_player, 0, unqualified - less - ties)
    names = np.where(mine == royal(), 9, mine >> CATEGORY_SHIFT)
    blind = np.array([2 * rules.blind.get(name, 0) for name in _PAY_NAMES], dtype=np.int64)
    double_blind = blind[names]
    fixed = wins_q * (2 + double_blind) + wins_unq * double_blind - 4 * losses_q \
        - 2 * losses_unq  # twice the return of ante and blind
    per_play = 2 * (wins_q + wins_unq - losses_q - losses_unq)  # twice a play unit's
    return PlayValues(found, fixed, per_play, names)


def _batch(boards: npt.NDArray[np.int64], rules: UltimateRules, threads: bool = True
           ) -> dict[str, npt.NDArray[np.int64]]:
    """Per board of ``boards`` (N, 5), over every player hand and dealer hand: twenty
    times the ante's return summed (``returns``), ten times the units wagered
    (``wagered``), the plays made and the player's final categories."""
    count = len(boards)
    values = play_values(boards, rules, threads)
    found, fixed, per_play, names = values.showdown, values.fixed, values.per_play, \
        values.names
    rest, hole, mine = found.rest, found.hole, found.mine
    sixes = np.concatenate([rest[:, :, None], np.broadcast_to(boards[:, None, :],
                                                              (count, 47, 5))], axis=2)
    six = np.sort(high_values(sixes.reshape(-1, 6), threads).astype(np.int64)
                  .reshape(count, 47), 1)
    alone = high_values(boards).astype(np.int64)
    shift = np.arange(count, dtype=np.int64)[:, None] << 32

    pair_ids = pair_index(hole[:, :, 0], hole[:, :, 1])
    four = preflop_raises(hole.reshape(-1, 2)).reshape(count, 1081)
    flop_cards = boards[:, _FLOPS_OF_BOARD]
    flop_ids = flop_index(flop_cards[:, :, 0], flop_cards[:, :, 1], flop_cards[:, :, 2])
    twos = flop_table()[pair_ids[:, :, None], flop_ids[:, None, :]].sum(axis=2)
    outs = 47 - np.searchsorted((six + shift).ravel(), mine + shift, side="right") \
        + np.arange(count)[:, None] * 47
    ones = river_rule(mine, alone[:, None], outs)
    river = np.where(ones, fixed + per_play, -4 * DEALER_HANDS)
    returns = np.where(four, 10 * (fixed + 4 * per_play),
                       twos * (fixed + 2 * per_play) + (10 - twos) * river)
    checked = (10 - twos) * ~four
    wagered = 20 + np.where(four, 40, 2 * twos + checked * ones)
    return {"returns": returns.sum(axis=1), "wagered": wagered.sum(axis=1),
            "fours": four.sum(axis=1), "twos": (twos * ~four).sum(axis=1),
            "ones": (checked * ones).sum(axis=1), "names": names}


@cache
def exact(blind: str | None = None, trips: str | None = None,
          progress: Callable[[int], None] | None = None, threads: bool = True) -> Exact:
    """The simple strategy's exact house edge and Trips', every deal counted
    (:class:`Exact`). ``progress`` is told the boards done, a batch at a time;
    ``threads=False`` keeps the count to one core (beside other work)."""
    rules = load_ultimate(blind, trips)
    boards, weights = board_classes()
    flop_table()
    returns = wagered = fours = twos = ones = 0
    names = np.zeros(10, dtype=np.int64)
    step = 64
    for start in range(0, len(boards), step):
        found = _batch(boards[start:start + step], rules, threads)
        w = weights[start:start + step]
        returns += int((found["returns"] * w).sum())
        wagered += int((found["wagered"] * w).sum())
        fours += int((found["fours"] * w).sum())
        twos += int((found["twos"] * w).sum())
        ones += int((found["ones"] * w).sum())
        names += np.bincount(found["names"].ravel(),
                             weights=np.repeat(w, 1081), minlength=10).astype(np.int64)
        if progress:
            progress(len(w))
    hands = int(weights.sum()) * 1081  # each seven-card hand 21 times
    deals = hands * DEALER_HANDS
    ante_return = Fraction(returns, 20 * deals)
    wager = Fraction(wagered, 10 * hands)
    categories = {name: int(n) for name, n in zip(_PAY_NAMES, names, strict=True)}
    shares = {"4x": Fraction(fours, hands), "2x": Fraction(twos, 10 * hands),
              "1x": Fraction(ones, 10 * hands)}
    shares["fold"] = 1 - sum(shares.values(), Fraction(0))
    return Exact(-ante_return, -ante_return / wager, shares, trips_edge(categories, rules),
                 categories, deals, len(boards))


def trips_edge(categories: dict[str, int], rules: UltimateRules) -> Fraction:
    """Trips' house edge from the player's final hands counted by category."""
    paid = sum(count * rules.trips.get(name, -1) for name, count in categories.items())
    return -Fraction(paid, sum(categories.values()))


def board_returns(board: Sequence[str], rules: UltimateRules | None = None) -> int:
    """Twenty times the ante's return summed over every player and dealer hand on one
    board: what :func:`exact` adds up, for checking against a hand-by-hand count."""
    cards = np.array([sorted(card_indices(board))])
    return int(_batch(cards, rules or load_ultimate())["returns"][0])


# -- the exact figures kept between runs ---------------------------------------------------
def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pelisali"


def _cache_key(rules: UltimateRules) -> str:
    """What the figures depend on: this module's code, the shared count's and the blind
    table (Trips' edge is worked out from the categories kept)."""
    from pelisali.games import holdem_count

    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update(Path(holdem_count.__file__).read_bytes())
    digest.update(json.dumps([rules.blind_table, {k: str(v) for k, v in rules.blind.items()}],
                             sort_keys=True).encode())
    return digest.hexdigest()[:24]


def cached_exact(blind: str | None = None, trips: str | None = None,
                 progress: Callable[[int], None] | None = None,
                 directory: Path | None = None) -> tuple[Exact, bool]:
    """:func:`exact`, kept in the user's cache (``$XDG_CACHE_HOME/pelisali``) under a key
    of this module's code and the tables, so that it is counted once a machine: the
    figures and whether they were read from the cache.

    The cache holds a blind table's figures; Trips' edge is worked out again from the
    categories for the table named."""
    rules = load_ultimate(blind, trips)
    path = (directory or _cache_dir()) / f"uth-exact-{_cache_key(rules)}.json"
    if path.exists():
        try:
            data = json.loads(path.read_text())
            categories = {str(k): int(v) for k, v in data["categories"].items()}
            return Exact(Fraction(data["ante_edge"]), Fraction(data["element_of_risk"]),
                         {k: Fraction(v) for k, v in data["shares"].items()},
                         trips_edge(categories, rules), categories, int(data["deals"]),
                         int(data["boards"])), True
        except (ValueError, KeyError, TypeError):
            pass  # a damaged cache is counted again
    found = exact(rules.blind_table, rules.trips_table, progress)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_text(json.dumps({
        "ante_edge": str(found.ante_edge), "element_of_risk": str(found.element_of_risk),
        "shares": {k: str(v) for k, v in found.shares.items()},
        "categories": found.categories,
        "deals": found.deals, "boards": found.boards}))
    partial.replace(path)
    return found, False


# -- the progressive's return --------------------------------------------------------------
FIVE_CARD_HANDS = {"royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624,
                   "full_house": 3_744, "flush": 5_108, "straight": 10_200,
                   "three_of_a_kind": 54_912}
"""How many of the 2,598,960 five-card hands are each kind the progressive pays: its hand
is the player's two cards and the flop, five cards dealt at random."""


def progressive_return(pool: int, rules: UltimateRules | None = None) -> Fraction:
    """The progressive's return per fee (1 is break-even) with ``pool`` cents in the
    pool: the fixed wins as multiples of the fee, the royal flush and straight flush
    their shares of the pool.

    >>> rules = load_ultimate()
    >>> float(round(progressive_return(rules.progressive["seed"], rules), 4))  # 10,000 €
    0.5598
    >>> progressive_break_even(rules)  # cents: the pool at which the fee is returned
    16053053
    """
    table = (rules or load_ultimate()).progressive
    fee = table["fee"]
    won = Fraction(0)
    for name, count in FIVE_CARD_HANDS.items():
        if name == "royal_flush":
            prize = Fraction(pool * table["pool_percent_royal"], 100 * fee)
        elif name == "straight_flush":
            prize = Fraction(pool * table["pool_percent_straight_flush"], 100 * fee)
        else:
            prize = Fraction(table[name])
        won += count * prize
    return won / 2_598_960


def progressive_break_even(rules: UltimateRules | None = None) -> int:
    """The least pool, in cents, at which the progressive returns its fee or more."""
    rules = rules or load_ultimate()
    base, per_cent = progressive_return(0, rules), progressive_return(1, rules) - \
        progressive_return(0, rules)
    needed = (1 - base) / per_cent
    return -(-needed.numerator // needed.denominator)
