"""Texas Hold'em Bonus's rules, its basic strategy and its exact odds.

Standard rules (RAY 2016 1.4.1.2 names the game; its text is not in the rulebook as
extracted): the player bets an ante (and may bet the Bonus). Player and dealer get two
cards each, with five community cards; each plays the best five of seven. After the two
cards the player folds, losing the ante, or bets the flop at 2 times the ante; after the
flop the player checks or bets the turn at 1 time, after the turn checks or bets the
river at 1 time. A winning hand wins the flop, turn and river bets 1:1 and the ante 1:1
with a straight or better (a flush or better where the rule data says so), the ante
pushing below; a losing hand loses them all and a tie pushes them. The Bonus pays by its
table on the player's two cards (and the dealer's, for aces against aces). The tables
are rule data (:mod:`pelisali.rules.holdem_bonus`).

The basic strategy (:data:`BASIC_STRATEGY`: Table Games Online's published strategy,
optimal before the flop and simplified after it, stated exactly here) is one definition,
used by the engine's bot, the simulator and the enumeration that gives its exact house
edge (:func:`exact`): 10,988,215,723/257,535,278,000 = 4.2667 % per ante, 1.1537 % per
unit wagered, beside the optimal strategy's 2.037 % and 0.5335 % that the Wizard of Odds
publishes: the simplified turn and river rules cost 2.23 % of the ante.

>>> plays(["2h", "7d"]), plays(["2h", "8d"]), plays(["2h", "7h"])
(False, True, True)
>>> bets_turn(["9h", "4d"], ["9c", "Kd", "2s"]), bets_turn(["Ah", "Kd"], ["9c", "7d", "2s"])
(True, False)
>>> board = ["5c", "Kd", "9s", "2h"]
>>> bets_river(["5h", "4d"], board), bets_river(["6h", "4d"], board)  # a pair below sixes
(False, False)
>>> bets_river(["Kh", "4d"], board), bets_river(["5h", "2d"], board)
(True, True)
>>> hand_return(["As", "Ad"], ["Kc", "Qd"], ["Ah", "Kd", "7s", "4h", "2c"], True, True)
Fraction(4, 1)
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pelisali.games.holdem_count import (
    DEALER_HANDS,
    PLAYER_HANDS,
    board_classes,
    card_indices,
    combinations_array,
    one_hand,
    showdown,
)
from pelisali.games.ultimate_texas import FIVE_CARD_HANDS, royal
from pelisali.poker.evaluate import high_values
from pelisali.poker.hands import CATEGORIES, CATEGORY_SHIFT
from pelisali.rules.holdem_bonus import HoldemBonusRules, load_holdem_bonus

BASIC_STRATEGY = (
    "Before the flop, fold 2-3, 2-4, 2-5, 2-6 and 2-7 of different suits and bet the flop "
    "(2 times the ante) with every other hand. On the flop, bet the turn (1 time) when a "
    "hole card is paired among the five cards (a pocket pair, or a hole card's rank on "
    "the flop), or the five cards hold four of one suit, or four consecutive ranks (the "
    "ace high or low); else check. On the turn, bet the river (1 time) when a hole card "
    "is paired among the six cards and either it is a six or higher or the six cards "
    "hold two pair or better; or the six cards hold a straight, five of one suit, or four "
    "cards of one suit in consecutive ranks that the board's four cards alone do not "
    "hold; else check.")
"""The strategy :func:`exact` values, in words (Table Games Online's basic strategy:
every hole card rule "only if at least one of your pocket cards is used" made exact)."""

_SIX = 4  # the rank index of a six (deuce 0 ... ace 12)
_FLOPS_OF_BOARD = combinations_array(5, 3)  # the ten flops of a board's five cards
_FOURS_OF_BOARD = combinations_array(5, 4)  # the five boards at the turn
_PAY_NAMES = (*CATEGORIES, "royal_flush")


def _runs(length: int) -> npt.NDArray[np.bool_]:
    """For every 14-bit rank mask (bit 0 the ace low, bits 1-13 deuce to ace): whether
    ``length`` consecutive bits are set."""
    masks = np.arange(1 << 14)
    found = np.zeros(1 << 14, dtype=bool)
    window = (1 << length) - 1
    for low in range(14 - length + 1):
        found |= (masks >> low) & window == window
    return found


_RUN4, _RUN5 = _runs(4), _runs(5)


def _low_ace(mask: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """A 13-bit rank mask (bit 0 the deuce ... bit 12 the ace) as 14 bits, the ace low too."""
    result: npt.NDArray[np.int64] = (mask << 1) | ((mask >> 12) & 1)
    return result


@dataclass(frozen=True)
class _Board:
    """What the strategy reads from the board's cards (shape ``(..., k)``): the ranks held
    (a 13-bit mask), the ranks held twice or more, the count of each rank packed four
    bits a rank, each suit's count and each suit's ranks (``(..., 4)``)."""

    ranks: npt.NDArray[np.int64]
    pairs: npt.NDArray[np.int64]
    packed: npt.NDArray[np.int64]
    suit_counts: npt.NDArray[np.int64]
    suit_ranks: npt.NDArray[np.int64]

    @classmethod
    def of(cls, board: npt.NDArray[np.int64]) -> _Board:
        ranks, suits = board >> 2, board & 3
        packed = np.left_shift(1, 4 * ranks).sum(axis=-1)
        pairs = np.zeros(packed.shape, dtype=np.int64)
        for rank in range(13):
            pairs |= (((packed >> (4 * rank)) & 15) >= 2).astype(np.int64) << rank
        by_suit = suits[..., None] == np.arange(4)  # (..., k, 4)
        bits = np.where(by_suit, np.left_shift(1, ranks)[..., None], 0)
        return cls(np.bitwise_or.reduce(np.left_shift(1, ranks), axis=-1), pairs, packed,
                   by_suit.sum(axis=-2), np.bitwise_or.reduce(bits, axis=-2))


def _hole(hole: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], ...]:
    """The two hole cards' ranks and suits, each of shape ``(...)``."""
    return hole[..., 0] >> 2, hole[..., 1] >> 2, hole[..., 0] & 3, hole[..., 1] & 3


# -- the strategy: one definition over arrays of card indices ------------------------------
def preflop_plays(hole: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """The basic strategy's flop bets among ``hole`` (an (N, 2) array of card indices):
    every hand but 2-3 to 2-7 of different suits."""
    ranks = np.sort(hole >> 2, axis=1)
    suited = (hole[:, 0] & 3) == (hole[:, 1] & 3)
    result: npt.NDArray[np.bool_] = suited | (ranks[:, 0] != 0) | (ranks[:, 1] > 5) \
        | (ranks[:, 1] == 0)
    return result


def turn_bets(hole: npt.NDArray[np.int64], flop: npt.NDArray[np.int64]
              ) -> npt.NDArray[np.bool_]:
    """The basic strategy's turn bets: ``hole`` (..., 2) and ``flop`` (..., 3) card
    indices, their leading shapes broadcast (every hole against every flop)."""
    a, b, sa, sb = _hole(hole)
    seen = _Board.of(flop)
    paired = (a == b) | (((seen.ranks >> a) & 1) == 1) | (((seen.ranks >> b) & 1) == 1)
    run = _RUN4[_low_ace(seen.ranks | (1 << a) | (1 << b))]
    suited = np.zeros(np.broadcast_shapes(a.shape, seen.ranks.shape), dtype=bool)
    for suit in range(4):
        suited |= seen.suit_counts[..., suit] + (sa == suit) + (sb == suit) >= 4
    result: npt.NDArray[np.bool_] = paired | run | suited
    return result


def river_bets(hole: npt.NDArray[np.int64], board: npt.NDArray[np.int64]
               ) -> npt.NDArray[np.bool_]:
    """The basic strategy's river bets: ``hole`` (..., 2) and the turn's ``board``
    (..., 4), their leading shapes broadcast."""
    a, b, sa, sb = _hole(hole)
    seen = _Board.of(board)
    both = (a == b).astype(np.int64)
    held_a = ((seen.packed >> (4 * a)) & 15) + 1 + both  # the hole card's rank among six
    held_b = ((seen.packed >> (4 * b)) & 15) + 1 + both
    bet = np.zeros(np.broadcast_shapes(a.shape, seen.ranks.shape), dtype=bool)
    for rank, held, other in ((a, held_a, held_b), (b, held_b, held_a)):
        # two pair or better with this card paired: trips, or another rank paired
        more = (held >= 3) | ((seen.pairs & ~(1 << rank)) != 0) | ((a != b) & (other >= 2))
        bet |= (held >= 2) & ((rank >= _SIX) | more)
    bet |= _RUN5[_low_ace(seen.ranks | (1 << a) | (1 << b))]
    for suit in range(4):
        bet |= seen.suit_counts[..., suit] + (sa == suit) + (sb == suit) >= 5
        alone = seen.suit_ranks[..., suit]
        mine = alone | ((sa == suit).astype(np.int64) << a) \
            | ((sb == suit).astype(np.int64) << b)
        bet |= _RUN4[_low_ace(mine)] & ~_RUN4[_low_ace(alone)]
    return bet


def plays(hole: Sequence[str]) -> bool:
    """Whether the basic strategy bets the flop on these two cards (else it folds)."""
    return bool(preflop_plays(np.array([card_indices(hole)]))[0])


def bets_turn(hole: Sequence[str], flop: Sequence[str]) -> bool:
    """Whether the basic strategy bets the turn on these two cards and this flop."""
    return one_hand(turn_bets, hole, flop)


def bets_river(hole: Sequence[str], board: Sequence[str]) -> bool:
    """Whether the basic strategy bets the river on these two cards and the turn's board."""
    return one_hand(river_bets, hole, board)


# -- what a hand pays --------------------------------------------------------------------
def ante_least(rules: HoldemBonusRules | None = None) -> int:
    """The least seven-card value whose win is paid on the ante (a straight's or a
    flush's).

    >>> ante_least() == CATEGORIES.index("straight") << CATEGORY_SHIFT
    True
    """
    rules = rules or load_holdem_bonus()
    return CATEGORIES.index(rules.ante_pays_from) << CATEGORY_SHIFT


def showdown_return(mine: int, theirs: int, turn: bool, river: bool,
                    rules: HoldemBonusRules | None = None) -> Fraction:
    """Ante, flop, turn and river bets' net return, in antes, from the two hands'
    seven-card values, the player having bet the flop.

    >>> showdown_return(ante_least() - 1, 0, turn=False, river=True)  # the ante pushes
    Fraction(3, 1)
    """
    units = 2 + int(turn) + int(river)
    if mine < theirs:
        return Fraction(-1 - units)
    if mine == theirs:
        return Fraction(0)
    return Fraction(units + (1 if mine >= ante_least(rules) else 0))


def hand_return(hole: Sequence[str], dealer: Sequence[str], board: Sequence[str],
                turn: bool, river: bool, rules: HoldemBonusRules | None = None,
                fold: bool = False) -> Fraction:
    """The main bets' net return, in antes, for one deal (``fold``: the player folded
    before the flop and lost the ante)."""
    cards = card_indices([*hole, *dealer, *board])
    if len(cards) != 9:
        raise ValueError("two cards each and five on the board")
    if fold:
        return Fraction(-1)
    mine, theirs = (int(v) for v in high_values([[*cards[:2], *cards[4:]], cards[2:]]))
    return showdown_return(mine, theirs, turn, river, rules)


def bonus_hand(hole: Sequence[str], dealer: Sequence[str] = ()) -> str | None:
    """The Bonus table's name for the player's two cards (the dealer's count only for
    aces against aces), or None when they win nothing.

    >>> bonus_hand(["As", "Ah"], ["Ad", "Ac"]), bonus_hand(["As", "Ah"], ["Kd", "Ac"])
    ('aces_against_aces', 'aces')
    >>> bonus_hand(["Qs", "Ah"]), bonus_hand(["Ts", "Th"]), bonus_hand(["Ks", "Qs"])
    ('ace_queen_or_jack', 'twos_to_tens', None)
    """
    cards = card_indices([*hole, *dealer])
    ranks = sorted((c >> 2 for c in cards[:2]), reverse=True)
    suited = (cards[0] & 3) == (cards[1] & 3)
    if ranks == [12, 12]:
        theirs = [c >> 2 for c in cards[2:]]
        return "aces_against_aces" if theirs == [12, 12] else "aces"
    if ranks[0] == ranks[1]:
        return "kings_queens_or_jacks" if ranks[0] >= 9 else "twos_to_tens"
    if ranks[0] == 12 and ranks[1] == 11:
        return "ace_king_suited" if suited else "ace_king"
    if ranks[0] == 12 and ranks[1] in (9, 10):
        return "ace_queen_or_jack_suited" if suited else "ace_queen_or_jack"
    return None


BONUS_WAYS = {"aces_against_aces": 6, "aces": 6 * 1224, "ace_king_suited": 4 * 1225,
              "ace_queen_or_jack_suited": 8 * 1225, "ace_king": 12 * 1225,
              "kings_queens_or_jacks": 18 * 1225, "ace_queen_or_jack": 24 * 1225,
              "twos_to_tens": 54 * 1225}
"""How many of the 1,326 x 1,225 deals of the player's and the dealer's two cards win each
of the Bonus table's hands (checked against every deal in the tests)."""
BONUS_DEALS = 1326 * 1225


def bonus_edge(rules: HoldemBonusRules | None = None) -> Fraction:
    """The Bonus bet's exact house edge, every deal of the player's and the dealer's two
    cards counted.

    >>> round(float(bonus_edge()) * 100, 4)
    8.5406
    """
    table = (rules or load_holdem_bonus()).bonus
    won = sum(ways * (table[name] + 1) for name, ways in BONUS_WAYS.items())
    return 1 - Fraction(won, BONUS_DEALS)


# -- the exact house edge of the basic strategy --------------------------------------------
@dataclass(frozen=True)
class Exact:
    """Every deal counted: 2,598,960 boards in their 20 orders (flop, turn, river) x 1,081
    player hands x 990 dealer hands, the boards one of each suit pattern weighted by its
    count.

    ``ante_edge``: the house edge per ante of the basic strategy; ``element_of_risk``: per
    unit wagered (ante, flop, turn and river bets); ``average_wager``: the units wagered
    per ante; ``shares``: the chance of each bet (flop, turn, river) and of a fold;
    ``bonus_edge``; ``categories``: the player's final hand distribution (seven cards,
    counted 21 ways each); ``boards``: the suit patterns."""

    ante_edge: Fraction
    element_of_risk: Fraction
    average_wager: Fraction
    shares: dict[str, Fraction]
    bonus_edge: Fraction
    categories: dict[str, int]
    deals: int
    boards: int


def _batch(boards: npt.NDArray[np.int64], rules: HoldemBonusRules, threads: bool = True
           ) -> dict[str, npt.NDArray[np.int64]]:
    """Per board of ``boards`` (N, 5), over every player hand and dealer hand and the
    board's 20 orders: the ante's return summed (``returns``), the units wagered summed
    over the orders (``wagered``), the bets made and the player's final categories."""
    count = len(boards)
    found = showdown(boards, threads)
    hole, mine = found.hole, found.mine
    wins, losses = found.less, found.above()
    per_play = wins - losses
    paid_ante = np.where(mine >= ante_least(rules), wins, 0)

    def each(parts: npt.NDArray[np.int64],
             rule: Callable[[npt.NDArray[np.int64], npt.NDArray[np.int64]],
                            npt.NDArray[np.bool_]]) -> npt.NDArray[np.int64]:
        """How many of a board's ``parts`` (its flops or its boards at the turn) the rule
        bets, for each player hand: every hand against every part by broadcasting."""
        bet = rule(hole[:, :, None, :], boards[:, parts][:, None, :, :])
        result: npt.NDArray[np.int64] = bet.sum(axis=2)
        return result

    played = preflop_plays(hole.reshape(-1, 2)).reshape(count, PLAYER_HANDS)
    flop_bets = each(_FLOPS_OF_BOARD, turn_bets)  # how many of the ten flops bet the turn
    river = each(_FOURS_OF_BOARD, river_bets)  # of the five boards at the turn
    # Of the 20 orders, each flop begins two and each turn board four.
    turn_units, river_units = 2 * flop_bets, 4 * river
    returns = np.where(played, 20 * (paid_ante - losses)
                       + (40 + turn_units + river_units) * per_play, -20 * DEALER_HANDS)
    wagered = np.where(played, 60 + turn_units + river_units, 20)
    names = np.where(mine == royal(), 9, mine >> CATEGORY_SHIFT)
    return {"returns": returns.sum(axis=1), "wagered": wagered.sum(axis=1),
            "played": played.sum(axis=1),
            "turns": np.where(played, turn_units, 0).sum(axis=1),
            "rivers": np.where(played, river_units, 0).sum(axis=1), "names": names}


@cache
def exact(ante: str | None = None, bonus: str | None = None,
          progress: Callable[[int], None] | None = None, threads: bool = True) -> Exact:
    """The basic strategy's exact house edge and the Bonus bet's, every deal counted
    (:class:`Exact`). ``progress`` is told the boards done, a batch at a time;
    ``threads=False`` keeps the count to one core."""
    rules = load_holdem_bonus(ante, bonus)
    boards, weights = board_classes()
    return count_boards(boards, weights, rules, progress, threads)


def count_boards(boards: npt.NDArray[np.int64], weights: npt.NDArray[np.int64],
                 rules: HoldemBonusRules, progress: Callable[[int], None] | None = None,
                 threads: bool = True) -> Exact:
    """:class:`Exact` over ``boards`` (N, 5, ascending) each standing for ``weights`` boards:
    what :func:`exact` adds up over every suit pattern."""
    returns = wagered = played = turns = rivers = 0
    names = np.zeros(10, dtype=np.int64)
    step = 64
    for start in range(0, len(boards), step):
        found = _batch(boards[start:start + step], rules, threads)
        w = weights[start:start + step]
        returns += int((found["returns"] * w).sum())
        wagered += int((found["wagered"] * w).sum())
        played += int((found["played"] * w).sum())
        turns += int((found["turns"] * w).sum())
        rivers += int((found["rivers"] * w).sum())
        names += np.bincount(found["names"].ravel(), weights=np.repeat(w, PLAYER_HANDS),
                             minlength=10).astype(np.int64)
        if progress:
            progress(len(w))
    hands = int(weights.sum()) * PLAYER_HANDS  # each seven-card hand 21 times
    deals = hands * DEALER_HANDS
    ante_return = Fraction(returns, 20 * deals)
    wager = Fraction(wagered, 20 * hands)
    categories = {name: int(n) for name, n in zip(_PAY_NAMES, names, strict=True)}
    shares = {"flop": Fraction(played, hands), "turn": Fraction(turns, 20 * hands),
              "river": Fraction(rivers, 20 * hands)}
    shares["fold"] = 1 - shares["flop"]
    return Exact(-ante_return, -ante_return / wager, wager, shares, bonus_edge(rules),
                 categories, deals, len(boards))


def board_returns(board: Sequence[str], rules: HoldemBonusRules | None = None) -> int:
    """The ante's return summed over every player hand, dealer hand and order of one
    board: what :func:`exact` adds up, for checking against a hand-by-hand count."""
    cards = np.array([sorted(card_indices(board))])
    return int(_batch(cards, rules or load_holdem_bonus())["returns"][0])


# -- the exact figures kept between runs ---------------------------------------------------
def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pelisali"


def _cache_key(rules: HoldemBonusRules) -> str:
    """What the figures depend on: this module's code, the shared count's and the ante
    rule (the Bonus edge is worked out again for the table named)."""
    from pelisali.games import holdem_count

    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update(Path(holdem_count.__file__).read_bytes())
    digest.update(rules.ante_pays_from.encode())
    return digest.hexdigest()[:24]


def cached_exact(ante: str | None = None, bonus: str | None = None,
                 progress: Callable[[int], None] | None = None,
                 directory: Path | None = None) -> tuple[Exact, bool]:
    """:func:`exact`, kept in the user's cache (``$XDG_CACHE_HOME/pelisali``) under a key
    of the code and the ante rule, so that it is counted once a machine: the figures and
    whether they were read from the cache."""
    rules = load_holdem_bonus(ante, bonus)
    path = (directory or _cache_dir()) / f"thb-exact-{_cache_key(rules)}.json"
    if path.exists():
        try:
            data = json.loads(path.read_text())
            return Exact(Fraction(data["ante_edge"]), Fraction(data["element_of_risk"]),
                         Fraction(data["average_wager"]),
                         {k: Fraction(v) for k, v in data["shares"].items()},
                         bonus_edge(rules),
                         {str(k): int(v) for k, v in data["categories"].items()},
                         int(data["deals"]), int(data["boards"])), True
        except (ValueError, KeyError, TypeError):
            pass  # a damaged cache is counted again
    found = exact(rules.ante_rule, rules.bonus_table, progress)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_text(json.dumps({
        "ante_edge": str(found.ante_edge), "element_of_risk": str(found.element_of_risk),
        "average_wager": str(found.average_wager),
        "shares": {k: str(v) for k, v in found.shares.items()},
        "categories": found.categories, "deals": found.deals, "boards": found.boards}))
    partial.replace(path)
    return found, False


# -- the progressive's return --------------------------------------------------------------
def progressive_return(pool: int, rules: HoldemBonusRules | None = None) -> Fraction:
    """The progressive's return per fee (1 is break-even) with ``pool`` cents in the
    pool, for a box that plays (the progressive's hand is the player's two cards and the
    flop, five cards dealt at random; a fold loses it).

    >>> rules = load_holdem_bonus()
    >>> float(round(progressive_return(rules.progressive["seed"], rules), 4))  # 10,000 €
    0.5598
    """
    return table_return(pool, (rules or load_holdem_bonus()).progressive)


def table_return(pool: int, table: Mapping[str, int]) -> Fraction:
    """A progressive table's return per fee on five random cards with ``pool`` cents in
    the pool."""
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


def progressive_break_even(rules: HoldemBonusRules | None = None) -> int:
    """The least pool, in cents, at which the progressive returns its fee or more."""
    table = (rules or load_holdem_bonus()).progressive
    base = table_return(0, table)
    needed = (1 - base) / (table_return(1, table) - base)
    return -(-needed.numerator // needed.denominator)
