"""Blackjack by combinatorial analysis: dealer odds, player values, basic strategy, house edge.

Every rule decision is made by :mod:`pelisali.games.blackjack_rules`, the same
functions the table engine plays by: when the dealer draws
(:func:`~pelisali.games.blackjack_rules.dealer_must_draw`), totals
(:func:`~pelisali.games.blackjack_rules.hand_total`), what a blackjack is,
whether the hole card is checked, whether a hand may be hit, doubled or split,
and what a finished hand is paid (:func:`~pelisali.games.blackjack_rules.settle_hand`).
This module only counts cards.

A *shoe* here is a tuple of ten counts, the cards of value 1 (ace) to 10
(T, J, Q, K together) still unseen. The combinatorics are exact (cards are
drawn without replacement from that shoe); the arithmetic is double precision.

**Dealer.** :func:`dealer_probabilities` gives the dealer's final totals from
a shoe and an up card. Under an ace the hole card has been checked, so the
odds are conditional on no dealer blackjack; under a ten it has not, and a
dealer blackjack is one of the outcomes.

>>> probs = dealer_probabilities(full_shoe(1), 6)
>>> round(probs["bust"], 4), probs["blackjack"]
(0.4217, 0.0)
>>> dealer_probabilities((0, 0, 0, 0, 0, 0, 4, 0, 0, 0), 10)["17"]   # only sevens left
1.0

**Player.** A hand is played when the dealer has no blackjack under an ace (the
peek) and, with ``dealer_blackjack_under_ten = original_only``, as if the same
held under a ten (a dealer blackjack then costs exactly the original bet
whatever the player did, so the decisions are those given no dealer
blackjack). With ``takes_all`` a hand under a ten is played unconditionally and
every stake on it, doubles and split hands included, is lost to a dealer
blackjack. Conditioning on the hole card changes the odds of the player's own
draws too; that is done exactly (see :func:`_draws`).

**Splits** are valued the standard way: a split is worth twice one split
hand, played from one pair card with the other pair card (and the up card and
nothing else) out of the shoe; the cards the other split hand draws are not
removed. For a strategy that plays each split hand on its own cards, as basic
strategy does, this loses nothing: the other hand's draws are a stopping time
on an exchangeable shoe, and the expected value of anything still to be drawn
is a martingale under draws, so by optional stopping neither hand's
expectation changes. A full enumeration of both hands agrees to 1e-13 (one
deck, every split the default basic strategy makes). It is a restriction only
for the composition-dependent values that derive the strategy
(:func:`player_evs`, ``composition_dependent_return``): there each split hand
is played best on its own cards, not on the other hand's too.

>>> from pelisali.games.blackjack_rules import BlackjackConfig
>>> evs = player_evs((1, 2), 1, BlackjackConfig(decks=1))  # Wizard of Odds, appendix 9
>>> round(evs.stand, 6), round(evs.hit, 6), round(evs.double, 6)
(-0.661732, -0.067808, -0.593281)
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from pelisali.games.blackjack_rules import (
    VALUES,
    BlackjackConfig,
    can_double,
    can_hit,
    can_split,
    dealer_checks_hole_card,
    dealer_must_draw,
    hand_total,
    is_blackjack,
    settle_hand,
)

Shoe = tuple[int, ...]
Hand = tuple[int, ...]
Progress = Callable[[int, int], None]

OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")
BUST, BLACKJACK = 5, 6
UP_CARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)  # chart order: 2 ... 10, ace
CARDS_PER_DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
ACTIONS = {"H": "hit", "S": "stand", "D": "double, else hit", "Ds": "double, else stand",
           "P": "split"}
SPLIT_APPROXIMATION = (
    "A split is valued as twice one split hand: the hand starts from one pair card, with the "
    "other pair card and the up card out of the shoe, and is played exactly (every draw "
    "without replacement, doubling after the split when allowed); the cards the other split "
    "hand draws are not removed. For a strategy that plays each split hand on its own cards "
    "(basic strategy) this is exact, by optional stopping on the exchangeable shoe, and a full "
    "enumeration of both hands agrees to 1e-13; the composition-dependent values play each "
    "split hand best on its own cards only."
)
TOTAL_DEPENDENT_RULE = (
    "Each table entry is the action with the highest expected value summed over every two-card "
    "hand making that total (pairs excluded, except where only a pair makes the total: hard 4, "
    "hard 20, soft 12), each weighted by its exact probability from the full shoe together with "
    "that up card (and no dealer blackjack, where the hand is only played then). Each two-card "
    "hand's values are composition dependent: its cards and the up card are out of the shoe and "
    "play after a hit is the best for the exact cards held. Multi-card hands use the same tables "
    "(D becomes H and Ds becomes S when doubling is not allowed). Hard and soft 21 stand."
)


def full_shoe(decks: int) -> Shoe:
    """The counts of values 1..10 in ``decks`` full decks.

    >>> full_shoe(1)
    (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
    """
    return tuple(n * decks for n in CARDS_PER_DECK)


def _take(shoe: Shoe, value: int) -> Shoe:
    i = value - 1
    return (*shoe[:i], shoe[i] - 1, *shoe[i + 1:])


def _add(hand: Hand, value: int) -> Hand:
    return tuple(sorted((*hand, value)))


def up_label(up: int) -> str:
    """``"A"`` for an ace, else the value: how charts head their columns."""
    return "A" if up == 1 else str(up)


# -- the dealer ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _DealerTable:
    """Every final dealer hand from one up card, by the cards drawn after the up card.

    A row's probability from a shoe of ``N`` cards is
    ``ways * prod_v falling(n_v, k_v) / falling(N, k)``: ``k_v`` cards of value
    ``v`` (``k`` in all) drawn without replacement, in any of the ``ways``
    orders in which the dealer does not stop early. ``picks`` holds, for each
    row and each distinct value drawn, the index ``(v - 1) * (depth + 1) + k_v``
    into a flattened table of falling factorials (padding points at a 1).
    """

    picks: npt.NDArray[np.intp]  # (distinct values drawn at most, rows)
    bins: npt.NDArray[np.intp]  # outcome * (depth + 1) + cards drawn
    ways: npt.NDArray[np.float64]
    hands: tuple[Hand, ...]
    outcomes: tuple[int, ...]
    depth: int


def _outcome(hand: Hand) -> int:
    if is_blackjack(hand):
        return BLACKJACK
    total, _ = hand_total(hand)
    return BUST if total > 21 else total - 17


@cache
def _dealer_table(up: int, hits_soft_17: bool = False) -> _DealerTable:
    pending: dict[Hand, int] = {(): 1}
    final: dict[Hand, int] = defaultdict(int)
    while pending:
        following: dict[Hand, int] = defaultdict(int)
        for drawn, ways in pending.items():
            for value in VALUES:
                cards = _add(drawn, value)
                if dealer_must_draw((up, *cards), hits_soft_17):
                    following[cards] += ways
                else:
                    final[cards] += ways
        pending = following
    rows = sorted(final)
    depth = max(len(row) for row in rows)
    width = max(len(set(row)) for row in rows)
    pad = len(VALUES) * (depth + 1)
    picks = np.full((width, len(rows)), pad, dtype=np.intp)
    for r, row in enumerate(rows):
        for i, value in enumerate(sorted(set(row))):
            picks[i, r] = (value - 1) * (depth + 1) + row.count(value)
    outcomes = tuple(_outcome((up, *row)) for row in rows)
    return _DealerTable(
        picks=picks,
        bins=np.array([o * (depth + 1) + len(row) for o, row in zip(outcomes, rows, strict=True)],
                      dtype=np.intp),
        ways=np.array([final[row] for row in rows], dtype=np.float64),
        hands=tuple((up, *row) for row in rows),
        outcomes=outcomes,
        depth=depth,
    )


@cache
def _dealer_raw(shoe: Shoe, up: int, hits_soft_17: bool = False) -> tuple[float, ...]:
    """Unconditional odds of the dealer's outcomes (hole card drawn from ``shoe``)."""
    table = _dealer_table(up, hits_soft_17)
    depth = table.depth
    steps = np.arange(depth, dtype=np.float64)
    # falling[v, k] = n_v (n_v - 1) ... (n_v - k + 1), zero once the cards run out; then a 1
    falling = np.ones((len(VALUES) * (depth + 1) + 1,))
    grid = falling[:-1].reshape(len(VALUES), depth + 1)
    np.cumprod(np.maximum(np.asarray(shoe, dtype=np.float64)[:, None] - steps, 0.0), axis=1,
               out=grid[:, 1:])
    picked = table.ways * np.take(falling, table.picks[0])
    for row in table.picks[1:]:
        picked *= np.take(falling, row)
    by_size = np.bincount(table.bins, weights=picked, minlength=len(OUTCOMES) * (depth + 1))
    whole = np.ones(depth + 1)
    np.cumprod(np.maximum(float(sum(shoe)) - steps, 0.0), out=whole[1:])
    inverse = np.divide(1.0, whole, out=np.zeros_like(whole), where=whole > 0)
    probs: list[float] = (by_size.reshape(len(OUTCOMES), depth + 1) @ inverse).tolist()
    return tuple(probs)


@cache
def _dealer_vector(shoe: Shoe, up: int, conditioned: bool, hits_soft_17: bool = False
                   ) -> tuple[float, ...]:
    raw = _dealer_raw(shoe, up, hits_soft_17)
    if not conditioned or raw[BLACKJACK] == 0.0:
        return raw
    rest = 1.0 - raw[BLACKJACK]
    if rest <= 0.0:
        return (0.0,) * len(OUTCOMES)  # only reached along branches of probability zero
    return (*(x / rest for x in raw[:BLACKJACK]), 0.0)


def dealer_probabilities(shoe: Sequence[int], up: int, peeked: bool | None = None,
                         hits_soft_17: bool = False) -> dict[str, float]:
    """The dealer's final outcome odds from ``shoe`` (cards unseen, up card excluded).

    ``peeked`` says whether the hole card is known not to make a blackjack;
    by default it follows :func:`dealer_checks_hole_card` (only under an ace).
    ``hits_soft_17``: the dealer hits a soft 17 (a rule set's), else stands on all 17s.

    >>> one = full_shoe(1)
    >>> under_ace = dealer_probabilities(_take(one, 1), 1)
    >>> under_ace["blackjack"], round(sum(under_ace.values()), 12)
    (0.0, 1.0)
    >>> round(dealer_probabilities(_take(one, 1), 1, peeked=False)["blackjack"], 6)  # 16/51
    0.313725
    >>> round(dealer_probabilities(_take(one, 10), 10)["blackjack"], 6)  # 4/51: no peek
    0.078431
    """
    if len(shoe) != len(VALUES):
        raise ValueError("a shoe is ten counts, aces first and ten-value cards last")
    peek = dealer_checks_hole_card(up) if peeked is None else peeked
    return dict(zip(OUTCOMES, _dealer_vector(tuple(shoe), up, peek, hits_soft_17), strict=True))


@cache
def _dealer_hands() -> tuple[Hand, ...]:
    """One real final dealer hand for each outcome, to settle player hands against."""
    found: dict[int, Hand] = {}
    for up in VALUES:
        table = _dealer_table(up)
        for outcome, hand in zip(table.outcomes, table.hands, strict=True):
            found.setdefault(int(outcome), hand)
    return tuple(found[i] for i in range(len(OUTCOMES)))


@cache
def _net(hand: Hand, from_split: bool) -> tuple[float, ...]:
    """Net result per unit of the hand's stake against each dealer outcome (settle_hand - 1)."""
    return tuple(float(settle_hand(hand, dealer, from_split)) - 1.0 for dealer in _dealer_hands())


@cache
def _draws(shoe: Shoe, not_hole: int) -> tuple[tuple[int, float], ...]:
    """Odds of the player's next card, given the hole card is not ``not_hole`` (0: none).

    The hole card is an unseen card like any other. Knowing it is not a ``h``
    (a shoe of ``N`` cards, ``n_h`` of them ``h``), the next card is ``v`` with
    probability ``n_v (N - 1 - n_h + [v = h]) / ((N - 1)(N - n_h))``.
    """
    total = sum(shoe)
    out: list[tuple[int, float]] = []
    held = shoe[not_hole - 1] if not_hole else 0
    denominator = (total - 1) * (total - held)
    for value, n in zip(VALUES, shoe, strict=True):
        if n == 0:
            continue
        if not_hole and denominator > 0:
            weight = n * (total - 1 - held + (value == not_hole)) / denominator
        else:
            weight = n / total
        if weight > 0:
            out.append((value, weight))
    return tuple(out)


# -- the player ---------------------------------------------------------------------------------


class _Round:
    """Hand values against one up card under one rule set, by best play or by a strategy."""

    def __init__(self, config: BlackjackConfig, up: int, strategy: Strategy | None = None):
        self.config = config
        self.up = up
        self.strategy = strategy
        holes = [v for v in VALUES if is_blackjack((up, v))]
        self.hole = holes[0] if holes else 0
        self.conditioned = bool(self.hole) and (dealer_checks_hole_card(up)
                                                or not config.dealer_blackjack_takes_all)
        self.not_hole = self.hole if self.conditioned else 0
        self.dealer_blackjack_hand = _dealer_hands()[BLACKJACK]
        self._values: dict[tuple[Hand, Shoe, bool, bool], float] = {}
        self._splits: dict[tuple[int, Shoe], float] = {}

    # value of a hand by each action (per unit of the hand's original stake)
    def stand(self, hand: Hand, shoe: Shoe, from_split: bool) -> float:
        net = _net(hand, from_split)
        if hand_total(hand)[0] > 21:
            return net[0]  # settle_hand: a bust loses whatever the dealer holds
        probs = _dealer_vector(shoe, self.up, self.conditioned, self.config.dealer_hits_soft_17)
        return sum([p * x for p, x in zip(probs, net, strict=True)])

    def hit(self, hand: Hand, shoe: Shoe, from_split: bool, split_aces: bool) -> float:
        value = self.value
        total = 0.0
        for v, w in _draws(shoe, self.not_hole):
            total += w * value(_add(hand, v), _take(shoe, v), from_split, split_aces)
        return total

    def double(self, hand: Hand, shoe: Shoe, from_split: bool) -> float:
        stand = self.stand
        total = 0.0
        for v, w in _draws(shoe, self.not_hole):
            total += w * stand(_add(hand, v), _take(shoe, v), from_split)
        return 2.0 * total

    def split(self, pair: int, shoe: Shoe) -> float:
        """Twice one split hand's value (SPLIT_APPROXIMATION); ``shoe`` lacks both pair cards."""
        key = (pair, shoe)
        if key not in self._splits:
            aces = pair == 1
            total = 0.0
            for v, w in _draws(shoe, self.not_hole):
                hand, rest = _add((pair,), v), _take(shoe, v)
                if self.strategy is None:
                    total += w * max(self.options(hand, rest, True, aces).values())
                else:
                    total += w * self.play(hand, rest, True, aces)[1]
            self._splits[key] = 2.0 * total
        return self._splits[key]

    def value(self, hand: Hand, shoe: Shoe, from_split: bool, split_aces: bool) -> float:
        """A hand that may only stand or hit: best play, or the strategy's."""
        key = (hand, shoe, from_split, split_aces)
        found = self._values.get(key)
        if found is not None:
            return found
        if hand_total(hand)[0] > 21:
            return _net(hand, from_split)[0]  # bust: settle_hand, whatever the dealer holds
        if not can_hit(hand, split_aces, self.config):
            result = self.stand(hand, shoe, from_split)
        elif self.strategy is None:
            result = max(self.stand(hand, shoe, from_split),
                         self.hit(hand, shoe, from_split, split_aces))
        elif self.strategy.action(hand, self.up, can_double=False, can_split=False) == "H":
            result = self.hit(hand, shoe, from_split, split_aces)
        else:
            result = self.stand(hand, shoe, from_split)
        self._values[key] = result
        return result

    def options(self, hand: Hand, shoe: Shoe, from_split: bool,
                split_aces: bool) -> dict[str, float]:
        """The value of every action the rules allow on a two-card hand."""
        out = {"S": self.stand(hand, shoe, from_split)}
        if can_hit(hand, split_aces, self.config):
            out["H"] = self.hit(hand, shoe, from_split, split_aces)
        if can_double(hand, from_split, split_aces, self.config):
            out["D"] = self.double(hand, shoe, from_split)
        if can_split(hand, 2 if from_split else 1):
            out["P"] = self.split(hand[0], shoe)
        return out

    def play(self, hand: Hand, shoe: Shoe, from_split: bool,
             split_aces: bool) -> tuple[str, float]:
        """The strategy's action on a two-card hand and the hand's value."""
        if self.strategy is None:
            raise RuntimeError("play() follows a strategy, and these hand values have none")
        if not can_hit(hand, split_aces, self.config):
            return "S", self.stand(hand, shoe, from_split)
        action = self.strategy.action(
            hand, self.up,
            can_double=can_double(hand, from_split, split_aces, self.config),
            can_split=can_split(hand, 2 if from_split else 1))
        if action == "P":
            return action, self.split(hand[0], shoe)
        if action == "D":
            return action, self.double(hand, shoe, from_split)
        if action == "H":
            return action, self.hit(hand, shoe, from_split, split_aces)
        return "S", self.stand(hand, shoe, from_split)

    # the round as a whole
    def dealer_blackjack(self, shoe: Shoe) -> float:
        """Probability the hole card makes a dealer blackjack (before any peek)."""
        return shoe[self.hole - 1] / sum(shoe) if self.hole else 0.0

    def round_value(self, hand: Hand, shoe: Shoe, hand_value: float) -> float:
        """Expected return of the round given the played hand's value (blackjacks, peek)."""
        p_bj = self.dealer_blackjack(shoe)
        loss = float(settle_hand(hand, self.dealer_blackjack_hand, False)) - 1.0
        if is_blackjack(hand):
            return p_bj * loss + (1.0 - p_bj) * float(self.config.blackjack_multiple - 1)
        if self.conditioned:
            return p_bj * loss + (1.0 - p_bj) * hand_value
        return hand_value

    def played_weight(self, shoe: Shoe) -> float:
        """Probability the hand is actually decided on the values computed here."""
        return 1.0 - self.dealer_blackjack(shoe) if self.conditioned else 1.0


@cache
def _deals(decks: int) -> tuple[tuple[int, Hand, Shoe, float], ...]:
    """Every (up card, two-card hand) with its exact probability from the full shoe."""
    shoe = full_shoe(decks)
    total = sum(shoe)
    out = []
    for up in UP_CARDS:
        for a in VALUES:
            for b in VALUES[a - 1:]:
                rest = _take(_take(_take(shoe, a), b), up)
                if min(rest) < 0:
                    continue
                p = Fraction(shoe[a - 1] * (shoe[b - 1] - (a == b))
                             * (shoe[up - 1] - (up == a) - (up == b)),
                             total * (total - 1) * (total - 2)) * (1 if a == b else 2)
                out.append((up, (a, b), rest, float(p)))
    return tuple(out)


@dataclass(frozen=True)
class HandEVs:
    """Composition-dependent values of a two-card hand per unit bet.

    Conditional on no dealer blackjack where the hand is only decided then
    (under an ace; under a ten with ``original_only``). ``None``: not allowed.
    """

    hand: Hand
    up: int
    stand: float
    hit: float | None
    double: float | None
    split: float | None

    @property
    def best(self) -> str:
        values = {"S": self.stand, "H": self.hit, "D": self.double, "P": self.split}
        return max((v, k) for k, v in values.items() if v is not None)[1]


def player_evs(hand: Sequence[int], up: int, config: BlackjackConfig,
               shoe: Sequence[int] | None = None) -> HandEVs:
    """Stand, hit (then best play), double and split values of a first two-card hand.

    ``shoe`` is the unseen cards; by default the full shoe less the hand and the up card.
    A blackjack is only given its standing value here; its payout is applied by
    :func:`expected_return`.

    >>> evs = player_evs((8, 8), 9, BlackjackConfig(decks=8))
    >>> evs.best, evs.double is not None
    ('P', True)
    >>> takes_all = player_evs((8, 8), 10, BlackjackConfig(decks=8))  # no peek under a ten
    >>> takes_all.best, round(takes_all.hit - takes_all.split, 3)
    ('H', 0.038)
    """
    cards = tuple(sorted(hand))
    if shoe is None:
        rest = full_shoe(config.decks)
        for v in (*cards, up):
            rest = _take(rest, v)
    else:
        rest = tuple(shoe)
    opts = _Round(config, up).options(cards, rest, False, False)
    return HandEVs(cards, up, opts["S"], opts.get("H"), opts.get("D"), opts.get("P"))


# -- basic strategy -----------------------------------------------------------------------------

Table = dict[int, dict[int, str]]


@dataclass(frozen=True)
class Strategy:
    """A total-dependent basic strategy: hard, soft and pair tables by dealer up card.

    Codes: H hit, S stand, D double else hit, Ds double else stand, P split.
    Insurance is never taken (``insurance`` is False; ``insurance_ev`` shows why).
    """

    hard: Table
    soft: Table
    pairs: Table
    settings: dict[str, str | bool]
    insurance: bool = False
    insurance_ev: float = 0.0
    best_insurance_ev: float = 0.0
    composition_dependent_return: float | None = None
    margins: dict[str, float] = field(default_factory=dict)

    def code(self, hand_values: Sequence[int], up_value: int, pair: bool = False) -> str:
        """The table's code for a hand (pair table if ``pair``)."""
        values = list(hand_values)
        if pair:
            return self.pairs[values[0]][up_value]
        total, soft = hand_total(values)
        if total >= 21:
            return "S"
        table = self.soft if soft else self.hard
        if total in table:
            return table[total][up_value]
        return "H" if total < min(table) else "S"

    def action(self, hand_values: Sequence[int], up_value: int, can_double: bool,
               can_split: bool) -> str:
        """What to do: ``"H"``, ``"S"``, ``"D"`` or ``"P"``, given what the rules allow now.

        >>> s = basic_strategy(BlackjackConfig(decks=8))
        >>> s.action([10, 6], 10, True, False), s.action([8, 8], 9, True, True)
        ('H', 'P')
        >>> s.action([8, 8], 9, True, False)   # after a split: no resplit, so play 16
        'H'
        >>> s.action([5, 6], 6, True, False), s.action([5, 6], 6, False, False)
        ('D', 'H')
        >>> s.action([1, 7], 9, True, False), s.action([1, 2, 4], 5, False, False)
        ('H', 'H')
        """
        values = list(hand_values)
        is_pair = len(values) == 2 and values[0] == values[1]
        code = None
        if is_pair:
            code = self.pairs[values[0]][up_value]
            if code == "P":
                if can_split:
                    return "P"
                code = None  # a pair that may not be split again plays its total
        if code is None:
            code = self.code(values, up_value)
        if code in ("D", "Ds"):
            return "D" if can_double else ("H" if code == "D" else "S")
        return code

    def to_json(self) -> dict[str, object]:
        def table(rows: Table, label: Callable[[int], str]) -> dict[str, dict[str, str]]:
            return {label(k): {up_label(u): row[u] for u in UP_CARDS} for k, row in rows.items()}

        def pair_label(v: int) -> str:
            name = {1: "A", 10: "T"}.get(v, str(v))
            return f"{name}-{name}"

        return {
            "rules": dict(self.settings),
            "codes": dict(ACTIONS),
            "hard": table(self.hard, str),
            "soft": table(self.soft, str),
            "pairs": table(self.pairs, pair_label),
            "insurance": self.insurance,
            "insurance_ev": self.insurance_ev,
            "best_insurance_ev": self.best_insurance_ev,
            "composition_dependent_return": self.composition_dependent_return,
            "derivation": TOTAL_DEPENDENT_RULE,
            "split_approximation": SPLIT_APPROXIMATION,
        }


def insurance_ev(config: BlackjackConfig, removed: Sequence[int] = ()) -> Fraction:
    """Expected return per unit of insurance under an ace, with ``removed`` cards also seen.

    From the full shoe (8 decks: 128 tens among 415 cards, paid 2:1) it is
    ``3 * 128/415 - 1 = -31/415``, about -7.5 %.

    >>> insurance_ev(BlackjackConfig(decks=8))
    Fraction(-31, 415)
    """
    shoe = _take(full_shoe(config.decks), 1)
    for v in removed:
        shoe = _take(shoe, v)
    tens = sum(n for v, n in zip(VALUES, shoe, strict=True) if is_blackjack((1, v)))
    return Fraction(tens, sum(shoe)) * config.insurance_pays.multiple - 1


def _code(evs: Mapping[str, float]) -> str:
    stand, hit = evs["S"], evs.get("H", -math.inf)
    double, split = evs.get("D", -math.inf), evs.get("P", -math.inf)
    if split > max(stand, hit, double):
        return "P"
    if double > max(stand, hit):
        return "D" if hit >= stand else "Ds"
    return "H" if hit > stand else "S"


def _margin(evs: Mapping[str, float]) -> float:
    ranked = sorted(evs.values(), reverse=True)
    return ranked[0] - ranked[1] if len(ranked) > 1 else math.inf


def _derive_column(config: BlackjackConfig, up: int) -> tuple[dict[tuple[str, int], str],
                                                              dict[tuple[str, int], float],
                                                              float]:
    """One up card's column of every table, its decision margins and its CD return."""
    rnd = _Round(config, up)
    plain: dict[tuple[str, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    paired: dict[tuple[str, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    cd_return = 0.0
    for deal_up, hand, shoe, p in _deals(config.decks):
        if deal_up != up:
            continue
        if is_blackjack(hand):
            cd_return += p * rnd.round_value(hand, shoe, 0.0)
            continue
        opts = rnd.options(hand, shoe, False, False)
        cd_return += p * rnd.round_value(hand, shoe, max(opts.values()))
        weight = p * rnd.played_weight(shoe)
        total, soft = hand_total(hand)
        row = ("soft" if soft else "hard", total)
        if hand[0] == hand[1]:
            for action, ev in opts.items():
                paired[("pair", hand[0])][action] += weight * ev
                if action != "P":
                    paired[row][action] += weight * ev
        else:
            for action, ev in opts.items():
                plain[row][action] += weight * ev
    rows = {**{k: v for k, v in paired.items() if k not in plain}, **plain}
    return ({k: _code(v) for k, v in rows.items()}, {k: _margin(v) for k, v in rows.items()},
            cd_return)


_STRATEGIES: dict[BlackjackConfig, Strategy] = {}


def basic_strategy(config: BlackjackConfig, progress: Progress | None = None) -> Strategy:
    """The total-dependent basic strategy for ``config``, derived by the analysis (cached).

    See ``TOTAL_DEPENDENT_RULE`` for how each entry is chosen.

    >>> s = basic_strategy(BlackjackConfig(decks=8))
    >>> s.hard[16][10], s.hard[12][4], s.hard[11][6], s.soft[18][9], s.pairs[10][6]
    ('H', 'S', 'D', 'H', 'S')
    >>> s.insurance, s.insurance_ev < 0
    (False, True)
    """
    if config in _STRATEGIES:
        if progress:
            progress(len(UP_CARDS), len(UP_CARDS))
        return _STRATEGIES[config]
    codes: dict[tuple[str, int], dict[int, str]] = defaultdict(dict)
    margins: dict[str, float] = {}
    cd_return = 0.0
    for done, up in enumerate(UP_CARDS, 1):
        column, margin, part = _derive_column(config, up)
        for key, code in column.items():
            codes[key][up] = code
            margins[f"{key[0]} {key[1]} v {up_label(up)}"] = margin[key]
        cd_return += part
        if progress:
            progress(done, len(UP_CARDS))
    hard = {t: codes[("hard", t)] for t in sorted(k for kind, k in codes if kind == "hard")}
    soft = {t: codes[("soft", t)] for t in sorted(k for kind, k in codes if kind == "soft")}
    pairs = {v: codes[("pair", v)] for v in VALUES}
    hard[21] = dict.fromkeys(UP_CARDS, "S")  # no two-card hand; can_hit is false at 21
    soft[21] = dict.fromkeys(UP_CARDS, "S")  # two cards: a blackjack; more: can_hit is false
    best_insurance = max(insurance_ev(config, (a, b)) for a in VALUES for b in VALUES[a - 1:])
    strategy = Strategy(
        hard=hard, soft=soft, pairs=pairs, settings=config.settings(),
        insurance=best_insurance > 0, insurance_ev=float(insurance_ev(config)),
        best_insurance_ev=float(best_insurance), composition_dependent_return=cd_return,
        margins=margins)
    _STRATEGIES[config] = strategy
    return strategy


# -- the house edge -----------------------------------------------------------------------------


@dataclass(frozen=True)
class UpCardReturn:
    up: int
    probability: float
    expected_return: float  # given this up card, per unit initial bet


@dataclass(frozen=True)
class BlackjackResult:
    """The exact expected return of a strategy per unit initial bet (insurance never taken)."""

    settings: dict[str, str | bool]
    expected_return: float
    by_up_card: tuple[UpCardReturn, ...]
    by_first_action: dict[str, tuple[float, float]]  # action: (probability, contribution)
    composition_dependent_return: float | None
    seconds: float
    strategy: Strategy

    @property
    def edge(self) -> float:
        """House edge: minus the expected return."""
        return -self.expected_return

    def to_json(self) -> dict[str, object]:
        return {
            "rules": dict(self.settings),
            "expected_return": self.expected_return,
            "house_edge": self.edge,
            "house_edge_percent": round(100 * self.edge, 4),
            "composition_dependent_return": self.composition_dependent_return,
            "by_up_card": {up_label(r.up): {"probability": r.probability,
                                            "expected_return": r.expected_return}
                           for r in self.by_up_card},
            "by_first_action": {k: {"probability": p, "contribution": c}
                                for k, (p, c) in self.by_first_action.items()},
            "method": ("combinatorial analysis: every two-card hand and up card with exact "
                       "draw-without-replacement odds; double precision arithmetic"),
            "split_approximation": SPLIT_APPROXIMATION,
            "insurance": "never taken",
            "seconds": round(self.seconds, 2),
        }


FIRST_ACTIONS = {"blackjack": "blackjack", "S": "stand", "H": "hit", "D": "double", "P": "split"}


def expected_return(config: BlackjackConfig, strategy: Strategy | None = None,
                    progress: Progress | None = None) -> BlackjackResult:
    """Exact expected return of playing ``strategy`` (default: its basic strategy) from a full shoe.

    ``progress(done, total)`` is called as up cards are finished (the strategy's
    derivation, when needed, counts as the first half).

    >>> result = expected_return(BlackjackConfig(decks=8))
    >>> 0.5 < 100 * result.edge < 0.65
    True
    """
    started = time.perf_counter()
    steps = len(UP_CARDS) * (2 if strategy is None else 1)
    offset = 0
    if strategy is None:
        def first_half(done: int, total: int) -> None:
            if progress:
                progress(done * len(UP_CARDS) // total, steps)
        strategy = basic_strategy(config, first_half)
        offset = len(UP_CARDS)
    by_action: dict[str, list[float]] = {name: [0.0, 0.0] for name in FIRST_ACTIONS.values()}
    rows = []
    for done, up in enumerate(UP_CARDS, 1):
        rnd = _Round(config, up, strategy)
        p_up = ev_up = 0.0
        for deal_up, hand, shoe, p in _deals(config.decks):
            if deal_up != up:
                continue
            if is_blackjack(hand):
                action, value = "blackjack", 0.0
            else:
                action, value = rnd.play(hand, shoe, False, False)
            ev = rnd.round_value(hand, shoe, value)
            p_up += p
            ev_up += p * ev
            by_action[FIRST_ACTIONS[action]][0] += p
            by_action[FIRST_ACTIONS[action]][1] += p * ev
        rows.append(UpCardReturn(up, p_up, ev_up / p_up))
        if progress:
            progress(offset + done, steps)
    return BlackjackResult(
        settings=config.settings(),
        expected_return=math.fsum(r.probability * r.expected_return for r in rows),
        by_up_card=tuple(rows),
        by_first_action={k: (v[0], v[1]) for k, v in by_action.items()},
        composition_dependent_return=strategy.composition_dependent_return,
        seconds=time.perf_counter() - started,
        strategy=strategy,
    )
