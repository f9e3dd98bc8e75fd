"""Pai Gow Poker's hands, the house way and the settlement of a bet.

Standard rules (RAY 2016 1.4.1.2 names the game; its text is not in the rulebook as
extracted; the rule data, :mod:`pelisali.rules.pai_gow`, cites the sources): 53 cards, a
deck and one joker (:data:`JOKER`, written ``Jk``). The box and the dealer each get seven
cards and set them into a five-card high hand and a two-card low hand; the high hand must
rank above the low hand, or the hand fouls and loses. Each of the box's hands is compared
with the dealer's: both higher wins the bet 1:1 less the commission, both lower or equal
(a copy is the dealer's) loses, one of each pushes. A player's bank, where the rule data
lets a player bank, is the engine's (:mod:`pelisali.engine.pai_gow`): the same settlement
with the copies the bank's.

The five-card hand (:func:`five_value`) ranks as in poker with the joker a limited wild
card: an ace, or any card that completes a straight, a flush or a straight flush (in a
flush the highest card of the suit not held); five aces (four aces and the joker) is the
best hand. A-2-3-4-5 is the second-highest straight by default (the rule data's
``wheel``). The two-card hand (:func:`two_value`): a pair beats no pair, the joker an
ace. Both values are integers on one scale (higher is better, equal ties), so a high and
a low hand compare directly.

The house way (:func:`house_way`) is the rule data's: its tables say when two pair and
four of a kind split, which three of a kind split, when five aces stay together, the
straight's ace exception and which full houses stay together; the rest is the published
way as written (the Wizard of Odds' Foxwoods house way). It reads the joker as an ace
when it counts pairs; straights and flushes are found with the joker completing them.

>>> five_value(["Jk", "As", "Ad", "Ah", "Ac"]) > five_value(["As", "Ks", "Qs", "Js", "Ts"])
True
>>> hand_name(["Jk", "Kh", "Qh", "Jh", "8h"]), hand_name(["Jk", "Kh", "Qd", "7c", "2s"])
('flush', 'high_card')
>>> house_way(["As", "Kd", "9h", "7c", "5s", "4d", "2h"])
(('As', '7c', '5s', '4d', '2h'), ('Kd', '9h'))
>>> settle(("Kc", "Kd", "7h", "5s", "2c"), ("Qh", "Jd"), ("Ac", "Qd", "8h", "6s", "3c"),
...        ("Js", "9d")).result
'win'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from pelisali.cards import DECK, RANKS, SUITS, CardError, parse_card
from pelisali.poker.evaluate import high_value
from pelisali.poker.hands import CATEGORIES, CATEGORY_SHIFT
from pelisali.rules.pai_gow import HouseWay, PaiGowRules, load_pai_gow

JOKER = "Jk"
"""The joker's label."""
PAI_GOW_DECK: tuple[str, ...] = (*DECK, JOKER)
"""The 53 cards: the deck and the joker."""
HIGH, LOW = 5, 2
"""Cards in the high hand and in the low hand; seven are dealt."""
DEALT = HIGH + LOW

ACE = 12
FIVE_ACES = (9 << CATEGORY_SHIFT) | (ACE << 16)
"""The value of five aces, above every straight flush."""
HAND_NAMES = ("five_aces", "royal_flush", *reversed(CATEGORIES))
"""The five-card hands, best first."""
_COMPLETE = frozenset({4, 5, 8})  # straight, flush, straight flush: what the joker completes
_INDEX = {card: i for i, card in enumerate(DECK)}
_ACES = tuple(_INDEX["A" + suit] for suit in SUITS)


def parse_pai_gow_card(text: str) -> str:
    """A card of the 53: the joker as ``Jk`` (or ``joker``), else as :func:`parse_card`.

    >>> parse_pai_gow_card("JOKER"), parse_pai_gow_card("10h")
    ('Jk', 'Th')
    """
    if text.strip().lower() in ("jk", "joker"):
        return JOKER
    return parse_card(text)


def rank(card: str) -> int:
    """A card's rank index (deuce 0 ... ace 12), the joker an ace."""
    return ACE if card == JOKER else RANKS.index(card[0])


def _strength(card: str) -> tuple[int, int]:
    """How cards are ordered in a setting: by rank, then suit; the joker after the aces."""
    return (ACE, -1) if card == JOKER else (RANKS.index(card[0]), SUITS.index(card[1]))


def _ordered(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=_strength, reverse=True))


def _check(cards: Sequence[str], size: int) -> tuple[str, ...]:
    hand = tuple(cards)
    if len(hand) != size or len(set(hand)) != size or not set(hand) <= set(PAI_GOW_DECK):
        raise CardError(f"{size} different cards of the 53, not {list(hand)!r}")
    return hand


# -- hand values -------------------------------------------------------------------------------
def _adjusted(value: int, wheel: str) -> int:
    """The evaluator's value (A-2-3-4-5 the lowest straight) with the wheel where the rule
    data ranks it: ``second``, one rank above the ace-high straight's top card, which
    moves up one more."""
    if wheel == "second" and value >> CATEGORY_SHIFT in (4, 8):
        top = value >> 16 & 0xF  # a straight is valued by its top card alone
        if top in (3, ACE):
            category = value >> CATEGORY_SHIFT << CATEGORY_SHIFT
            return category | ((ACE + 1 if top == ACE else ACE) << 16)
    return value


@lru_cache(maxsize=1 << 16)
def _five(hand: tuple[str, ...], wheel: str) -> int:
    """Five cards' value: the joker an ace, or the card completing a straight or flush that
    ranks highest; five aces above all."""
    if JOKER not in hand:
        return _adjusted(high_value([_INDEX[c] for c in hand]), wheel)
    others = [_INDEX[c] for c in hand if c != JOKER]
    missing_aces = [a for a in _ACES if a not in others]
    if not missing_aces:
        return FIVE_ACES
    best = _adjusted(high_value([*others, missing_aces[0]]), wheel)  # an ace: any hand
    for card in _completing(others):  # a card that may complete a straight or flush
        value = high_value([*others, card])
        if value >> CATEGORY_SHIFT in _COMPLETE:
            best = max(best, _adjusted(value, wheel))
    return best


def _completing(others: list[int]) -> list[int]:
    """The cards (indices) the joker could stand for beside four others to make a straight
    or a flush: each card of their suit they lack, if they are of one suit; one card of
    each rank they lack, if their four ranks differ (a card of a rank is ``rank * 4 +
    suit``)."""
    out: list[int] = []
    suits = {card & 3 for card in others}
    if len(suits) == 1:
        suit = suits.pop()
        out += [r * 4 + suit for r in range(13) if r * 4 + suit not in others]
    ranks = {card >> 2 for card in others}
    if len(ranks) == 4:
        out += [r * 4 for r in range(13) if r not in ranks]
    return out


def five_value(cards: Sequence[str], wheel: str | None = None) -> int:
    """The five cards' value (higher is better, equal ties); ``wheel`` is where A-2-3-4-5
    ranks (``second`` or ``low``; the rule data's by default).

    >>> wheel = five_value(["Jk", "2c", "3d", "4h", "5s"])  # the joker an ace
    >>> king, ace = five_value("Kc Qd Jh Ts 9c".split()), five_value("Ac Kd Qh Js Tc".split())
    >>> king < wheel < ace
    True
    >>> five_value("Ac 2d 3h 4s 5c".split(), "low") < five_value("6c 2d 3h 4s 5c".split(), "low")
    True
    """
    hand = _check(cards, HIGH)
    return _five(tuple(sorted(hand)), wheel or load_pai_gow().wheel)


def two_value(cards: Sequence[str]) -> int:
    """The two cards' value on the five-card scale: a pair's (the joker an ace), or the
    higher card's and then the lower's.

    >>> two_value(["Jk", "Ad"]) == two_value(["Ac", "Ah"]) > two_value(["Kc", "Kh"])
    True
    >>> two_value(["Jk", "Kd"]) == two_value(["As", "Kc"]) > two_value(["Qh", "Jd"])
    True
    """
    first, second = sorted((rank(c) for c in _check(cards, LOW)), reverse=True)
    if first == second:
        return (1 << CATEGORY_SHIFT) | (first << 16)
    return (first << 16) | (second << 12)


def hand_name(cards: Sequence[str], wheel: str | None = None) -> str:
    """The five cards' hand in :data:`HAND_NAMES`.

    >>> hand_name(["Jk", "As", "Ad", "Ah", "Ac"]), hand_name(["Jk", "Ks", "Qs", "Js", "Ts"])
    ('five_aces', 'royal_flush')
    >>> hand_name(["Jk", "Ks", "9d", "4h", "Ac"]), hand_name(["Jk", "2s", "3d", "4h", "6c"])
    ('pair', 'straight')
    """
    value = five_value(cards, wheel)
    if value == FIVE_ACES:
        return "five_aces"
    category = value >> CATEGORY_SHIFT
    top = value >> 16 & 0xF
    if category == 8 and top == (ACE + 1 if (wheel or load_pai_gow().wheel) == "second"
                                  else ACE):
        return "royal_flush"
    return CATEGORIES[category]


def fouls(high: Sequence[str], low: Sequence[str], wheel: str | None = None) -> bool:
    """Whether a setting fouls: its five-card hand does not rank above its two-card hand.

    >>> fouls("Kc 9d 7h 5s 2c".split(), ["Ah", "Qd"]), fouls("Kc Kd 7h 5s 2c".split(), ["Ah", "Qd"])
    (True, False)
    >>> fouls(["Qc", "Qd", "7h", "5s", "2c"], ["Jk", "As"])
    True
    """
    return five_value(high, wheel) <= two_value(low)


# -- the house way ------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Setting:
    front: tuple[str, ...]
    back: tuple[str, ...]
    front_value: int
    back_value: int


def _setting(cards: Sequence[str], front: Sequence[str], wheel: str) -> _Setting:
    back = tuple(c for c in cards if c not in front)
    return _Setting(tuple(front), back, two_value(front), _five(tuple(sorted(back)), wheel))


def _groups(cards: Sequence[str]) -> list[list[str]]:
    """The cards by rank (the joker an ace), the largest group first, then the highest;
    each group strongest first."""
    by_rank: dict[int, list[str]] = {}
    for card in _ordered(cards):
        by_rank.setdefault(rank(card), []).append(card)
    return sorted(by_rank.values(), key=lambda g: (len(g), rank(g[0])), reverse=True)


def _may_complete(cards: Sequence[str]) -> bool:
    """Whether five of the cards could be a straight or a flush (a quick test first)."""
    wild = JOKER in cards
    real = [c for c in cards if c != JOKER]
    if max(sum(c[1] == s for c in real) for s in SUITS) + wild >= HIGH:
        return True
    ranks = 0  # bit 0 the ace below the deuce (A-2-3-4-5), bits 1-13 deuce to ace
    for card in real:
        ranks |= 1 << RANKS.index(card[0]) + 1
    if ranks >> 13 & 1:
        ranks |= 1
    return any((ranks >> low & 0x1F).bit_count() + wild >= HIGH for low in range(10))


def _complete(cards: Sequence[str], wheel: str) -> list[_Setting]:
    """Every setting whose five-card hand is a straight, a flush or a straight flush."""
    if not _may_complete(cards):
        return []
    settings = [_setting(cards, front, wheel) for front in combinations(cards, LOW)]
    return [s for s in settings if s.back_value >> CATEGORY_SHIFT in _COMPLETE]


def _best_complete(complete: list[_Setting]) -> _Setting:
    """The highest front that leaves a complete hand in back; then the highest back."""
    return max(complete, key=lambda s: (s.front_value, s.back_value))


def _front(cards: Sequence[str], groups: list[list[str]], way: HouseWay,
           wheel: str) -> tuple[str, ...]:
    """The two cards the house way puts in front."""
    sizes = [len(g) for g in groups]
    singles = [g[0] for g in groups if len(g) == 1]  # strongest first
    pairs = [g for g in groups if len(g) == 2]
    if sizes[0] == 5:  # five aces
        rest = groups[1]
        if len(rest) == 2 and rank(rest[0]) >= way.five_aces_keep_with_pair:
            return tuple(rest)
        return tuple(groups[0][-2:])
    if sizes[0] == 4:
        if sizes[1] >= 2:  # with a pair (or three of a kind): the pair in front
            return tuple(groups[1][:2])
        least = way.four_of_a_kind[rank(groups[0][0])]
        if least is not None and rank(singles[0]) >= least:
            return tuple(singles[:2])
        return tuple(groups[0][-2:])
    if sizes[0] == 3 and sizes[1] == 3:  # two sets: the pair from the higher set
        return tuple(groups[0][:2])
    if sizes[0] == 3 and sizes[1] == 2:  # full house: the highest pair in front
        pair = groups[1]
        if (rank(pair[0]) in way.full_house_keep_pairs and len(singles) == 2
                and [rank(c) for c in singles] == [ACE, ACE - 1]):
            return tuple(singles)
        return tuple(pair)
    if len(pairs) <= 1:
        complete = _complete(cards, wheel)
        if complete:
            best = _best_complete(complete)
            if (len(pairs) == 1 and rank(pairs[0][0]) in way.straight_ace_exception
                    and singles and rank(singles[0]) == ACE
                    and two_value(singles[:2]) > best.front_value):
                return tuple(singles[:2])  # the ace exception: the one-pair way
            return best.front
    if sizes[0] == 3:  # three of a kind
        if rank(groups[0][0]) in way.trips_split:
            return (groups[0][-1], singles[0])
        return tuple(singles[:2])
    if len(pairs) == 3:
        return tuple(pairs[0])
    if len(pairs) == 2:
        least = way.two_pair[rank(pairs[0][0])]
        if least is not None and rank(singles[0]) >= least:
            return tuple(singles[:2])
        return tuple(pairs[1])
    if pairs:
        return tuple(singles[:2])
    return tuple(singles[1:3])


@lru_cache(maxsize=1 << 14)
def _house_way(hand: tuple[str, ...], way: HouseWay,
               wheel: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    front = _front(hand, _groups(hand), way, wheel)
    return _ordered([c for c in hand if c not in front]), _ordered(front)


def house_way(cards: Sequence[str], way: HouseWay | None = None,
              wheel: str | None = None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The seven cards set by the house way (the rule data's by default): ``(high, low)``,
    each strongest first. The house way never fouls.

    >>> house_way(["Ks", "Kd", "Qh", "7c", "5s", "4d", "2h"])  # one pair
    (('Ks', 'Kd', '5s', '4d', '2h'), ('Qh', '7c'))
    >>> house_way(["9s", "9d", "5h", "5c", "As", "8d", "2h"])  # two pair, nines: an ace keeps them
    (('9s', '9d', '5h', '5c', '2h'), ('As', '8d'))
    >>> house_way(["Js", "Jd", "5h", "5c", "As", "8d", "2h"])  # jacks: split
    (('As', 'Js', 'Jd', '8d', '2h'), ('5h', '5c'))
    >>> house_way(["Jk", "2c", "3d", "4h", "5s", "Kd", "Qc"])  # the wheel, K-Q in front
    (('Jk', '5s', '4h', '3d', '2c'), ('Kd', 'Qc'))
    """
    rules = load_pai_gow()
    hand = _check(cards, DEALT)
    return _house_way(tuple(sorted(hand)), way or rules.house_way, wheel or rules.wheel)


# -- the settlement -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Showdown:
    """A box's hands against the dealer's: ``result`` (``win``, ``push`` or ``lose``), who
    took each hand (``high`` and ``low``: ``box``, ``dealer`` or ``copy``, a copy being the
    dealer's), and whether the box's setting fouled (then it loses whatever the hands)."""

    result: str
    high: str
    low: str
    foul: bool = False


def _compare(box: int, dealer: int) -> str:
    return "box" if box > dealer else "dealer" if box < dealer else "copy"


def settle(player_high: Sequence[str], player_low: Sequence[str], dealer_high: Sequence[str],
           dealer_low: Sequence[str], wheel: str | None = None) -> Showdown:
    """What a box's setting comes to against the dealer's.

    >>> settle(("Kc", "Kd", "7h", "5s", "2c"), ("Qh", "Jd"), ("Ac", "Qd", "8h", "6s", "3c"),
    ...        ("Qs", "Jc"))  # the low hand a copy: the dealer's
    Showdown(result='push', high='box', low='copy', foul=False)
    >>> settle(("Kc", "9d", "7h", "5s", "2c"), ("Ah", "Qd"), ("Qc", "Jd", "8h", "6s", "3c"),
    ...        ("Ts", "9c")).result  # fouled: both hands would win, the bet loses
    'lose'
    """
    if fouls(dealer_high, dealer_low, wheel):
        raise ValueError("the dealer's setting fouls; the house way never does")
    high = _compare(five_value(player_high, wheel), five_value(dealer_high, wheel))
    low = _compare(two_value(player_low), two_value(dealer_low))
    foul = fouls(player_high, player_low, wheel)
    if foul or (high != "box" and low != "box"):
        result = "lose"
    else:
        result = "win" if high == low == "box" else "push"
    return Showdown(result, high, low, foul)


def payout(stake: int, result: str, rules: PaiGowRules | None = None) -> tuple[int, int]:
    """``(paid, commission)`` in cents on a bet of ``stake`` cents: a win pays 1:1 (the
    stake back and as much again) and the commission on the win is the house's; a push
    returns the stake; a loss nothing.

    >>> payout(1000, "win"), payout(1010, "win"), payout(1000, "push"), payout(1000, "lose")
    ((2000, 50), (2020, 51), (1000, 0), (0, 0))
    """
    rules = rules or load_pai_gow()
    if result == "win":
        return 2 * stake, rules.commission(stake)
    if result == "push":
        return stake, 0
    if result == "lose":
        return 0, 0
    raise ValueError(f"a result is win, push or lose, not {result!r}")
