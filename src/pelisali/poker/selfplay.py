"""Self-play: bots play hand after hand at one table, the button moving clockwise.

Three bots: ``random`` takes a uniformly random legal action (a raise to a
random legal amount), as PokerKit's random bots do; ``rules`` raises the
minimum with a strong hand and calls with a fair one, with no cap on its
raises; ``plausible``, the default, plays plausible, bounded poker: it bets,
raises, calls and folds with fixed probabilities by the betting round and a
cheap measure of its hand, raises the minimum, half the pot or the pot, and
makes no more than :data:`MAX_RAISES` bets and raises a street. The deck is
drawn from one seeded generator and the bots' choices from another made from
the same seed, so a seed replays the session.

>>> result = selfplay(VARIANTS["holdem"], hands=20, seed=3, players=3)
>>> result.hands, sum(result.final_stacks) + result.fees == result.bought
(20, True)
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import accumulate

from pelisali.cards import DECK
from pelisali.poker.dealing import ShuffledCards
from pelisali.poker.evaluate import straight_tops
from pelisali.poker.games import make_variant
from pelisali.poker.table import (
    HOLDEM_LIMIT,
    HOLDEM_PL,
    OMAHA_NL,
    Legal,
    PokerHand,
    PokerVariant,
)
from pelisali.rng import SeededRng
from pelisali.rules.poker import POKER_GAME_IDS, load_poker_rules

_INDEX = {card: i for i, card in enumerate(DECK)}  # a card's index in the deck
_RANK = {card: i >> 2 for i, card in enumerate(DECK)}  # 0 deuce ... 12 ace
_BIT = {card: 1 << (i >> 2) for i, card in enumerate(DECK)}  # a card's bit in a rank mask
_SUIT_ONE = {card: 1 << 4 * (i & 3) for i, card in enumerate(DECK)}  # one in its suit's nibble
_STRAIGHTS = (straight_tops() >= 0).tobytes()  # by rank mask: 1 where a straight is made

VARIANTS: dict[str, PokerVariant] = {
    "holdem": make_variant("holdem"), "holdem-limit": HOLDEM_LIMIT,
    "holdem-pot-limit": HOLDEM_PL, "omaha": make_variant("omaha"),
    "omaha-no-limit": OMAHA_NL, "omaha-5": make_variant("omaha-5"),
    "courchevel": make_variant("courchevel"), "pineapple": make_variant("pineapple"),
    "crazy-pineapple": make_variant("crazy-pineapple"), "helsinki": make_variant("helsinki"),
    "double-flop": make_variant("double-flop"), "stud": make_variant("stud"),
    "razz": make_variant("razz"), "soko": make_variant("soko"), "draw": make_variant("draw"),
    "draw-openers": make_variant("draw", openers=True, draws=2),
    "lowball": make_variant("lowball"), "triple-draw": make_variant("triple-draw"),
    "holdem-low": make_variant("holdem", low=True),
    "omaha-hi-lo": make_variant("omaha", structure="limit", hi_lo=True,
                                low_rule="ace-to-five", qualifier="eight"),
    "stud-hi-lo": make_variant("stud", hi_lo=True, low_rule="ace-to-five", qualifier="eight"),
    "soko-hi-lo": make_variant("soko", hi_lo=True),
    "double-flop-hi-lo": make_variant("double-flop", hi_lo=True),
}


def forced_bets(variant: PokerVariant, big_blind: int) -> tuple[int, int]:
    """The ante and bring-in a game needs beyond the blinds, from its rule data
    (``rules/data/poker``): stud antes and a bring-in (half the small bet), jacks-or-better
    draw antes; none for the rest.

    >>> forced_bets(VARIANTS["stud"], 4), forced_bets(VARIANTS["holdem"], 4)
    ((1, 2), (0, 0))
    """
    game = variant.name.removesuffix("-low").removesuffix("-hi-lo")
    if game not in POKER_GAME_IDS:  # a variant made by hand: the rules of its kind
        game = {"board": "holdem", "stud": "stud", "draw": "draw"}[variant.kind]
    bets = load_poker_rules(game).forced_bets
    if variant.openers:
        return bets.openers_ante_of(big_blind), 0
    return bets.ante_of(big_blind), bets.bring_in_of(big_blind)


def draw_choice(hand: PokerHand, chooser: random.Random, bot: str) -> list[str]:
    """The cards a bot throws: ``random`` any subset; ``rules`` keeps pairs and better in a
    high game, and in a low game throws pairs and cards above eight."""
    seat = hand.actor
    if seat is None:
        raise RuntimeError("a bot draws only when a seat is to act")
    cards = hand.hole[seat]
    if bot == "random":
        return [c for c in cards if chooser.random() < 0.4]
    ranks = [c[0] for c in cards]
    if hand.variant.high is None:
        seen: set[str] = set()
        throw = []
        for card in cards:
            if card[0] in seen or card[0] in "9TJQK" or (card[0] == "A" and hand.variant.low
                                                          and "27" in hand.variant.low):
                throw.append(card)
            seen.add(card[0])
        return throw
    return [c for c, r in zip(cards, ranks, strict=True) if ranks.count(r) == 1]


def random_action(hand: PokerHand, chooser: random.Random) -> tuple[str, int | None]:
    legal = hand.legal()
    options: list[tuple[str, int | None]] = [("check", None) if legal.check else ("call", None)]
    if legal.fold:
        options.append(("fold", None))
    if legal.raise_min is not None and legal.raise_max is not None:
        options.append(("raise", chooser.randint(legal.raise_min, legal.raise_max)))
    return chooser.choice(options)


MAX_RAISES = 3  # bets and raises a street the rule-based bot makes way for; then it calls
RAISE_SIZES = ("min", "half-pot", "pot")
_SIZE_WEIGHTS = (3, 4, 3)
_SIZE_CUMULATIVE = tuple(accumulate(_SIZE_WEIGHTS))
_SIZE_TOTAL = _SIZE_CUMULATIVE[-1] + 0.0
# The rule-based bot's fixed probabilities by hand strength (weak, fair, strong): of betting
# when a check is free, on the first betting round and on later ones; and facing a bet, of
# raising and of calling (folding the rest), and of calling a bet of one big blind or less
# with a weak hand.
_BET_FIRST = (0.05, 0.25, 0.60)
_BET_LATER = (0.08, 0.30, 0.65)
_RAISE = (0.02, 0.08, 0.35)
_CALL = (0.12, 0.60, 0.62)
_CHEAP_CALL = 0.25


def _strong_fair(hand: PokerHand, seat: int) -> tuple[bool, bool]:
    """A cheap proxy of the seat's hand: whether it is strong, and whether fair. High games
    once five cards show: two pair or better strong, a pair or better fair; before: a pair
    or two queens or better strong, a jack or better fair. Low games: four (three)
    different cards of eight or lower."""
    hole, board, variant = hand.hole[seat], hand.board, hand.variant
    if variant.high is None:  # a low game: count the different cards eight or lower
        cards = [_INDEX[c] for c in hole]
        lows = {0 if c >> 2 == 12 else (c >> 2) + 1 for c in cards}
        lows = {r for r in lows if r <= 7}
        return len(lows) >= min(4, len(cards)), len(lows) >= min(3, len(cards))
    if variant.kind != "board" and len(hole) + len(board) >= 5:
        strength = _made_category_of([*hole, *board])
        return strength >= 2, strength >= 1
    if len(board) >= 3:
        strength = _made_category_of([*hole[:2], *board[:5]])
        return strength >= 2, strength >= 1
    if len(hole) == 2:  # the two ranks, the higher first, without sorting
        high, low = _RANK[hole[0]], _RANK[hole[1]]
        if low > high:
            high, low = low, high
        return high == low or low >= 10, high >= 9
    ranks = sorted([_RANK[c] for c in hole], reverse=True)
    return ranks[0] == ranks[1] or ranks[1] >= 10, ranks[0] >= 9


def _made_category_of(cards: list[str]) -> int:
    """:func:`made_category` of the cards themselves, without their indices."""
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a hand is 5 to 7 cards, not {len(cards)}")
    mask = repeats = suits = 0
    for c in cards:
        bit = _BIT[c]
        if mask & bit:
            repeats += 1
        mask |= bit
        suits += _SUIT_ONE[c]
    # two pair or better, a straight, or a flush: a suit's count of five or more (a
    # nibble of ``suits``, at most 7) sets the nibble's top bit once 3 is added
    if repeats >= 2 or _STRAIGHTS[mask] or (suits + 0x3333) & 0x8888:
        return 2
    return repeats


def made_category(cards: list[int]) -> int:
    """The category of the best high hand of 5 to 7 distinct cards (indices), up to two
    pair: 0 high card, 1 a pair, 2 two pair or better; what ``high_value(cards) >> 20``
    says of it, without the lookups.

    >>> made_category([_INDEX[c] for c in ("As", "Ks", "Qs", "Js", "9s")])
    2
    """
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a hand is 5 to 7 cards, not {len(cards)}")
    mask = repeats = 0
    for c in cards:
        bit = 1 << (c >> 2)
        if mask & bit:
            repeats += 1
        mask |= bit
    if repeats >= 2:  # two pair, three of a kind or better
        return 2
    if _STRAIGHTS[mask]:
        return 2
    suits = [c & 3 for c in cards]
    if suits.count(0) >= 5 or suits.count(1) >= 5 or suits.count(2) >= 5 or suits.count(3) >= 5:
        return 2  # a flush
    return repeats


def raises_this_street(hand: PokerHand) -> int:
    """The bets and raises made on this street so far (not the blinds)."""
    blinds = hand.street == 0 and hand.variant.kind != "stud" and not hand.variant.openers
    return hand.bets_this_street - blinds


def raise_to(hand: PokerHand, size: str) -> int:
    """The street total of a raise of ``size`` (``min``, ``half-pot``, ``pot``: the pot
    after calling), within what the rules allow now."""
    return _raise_to(hand, hand.legal(), size)


def _raise_to(hand: PokerHand, legal: Legal, size: str) -> int:
    """:func:`raise_to` with the hand's :class:`Legal` already at hand."""
    if legal.raise_min is None or legal.raise_max is None:
        raise RuntimeError("no raise is allowed now")
    if size == "min":
        return legal.raise_min
    pot = sum(hand.total_commit) + legal.call
    target = hand.current_bet + (pot if size == "pot" else pot // 2)
    return max(legal.raise_min, min(target, legal.raise_max))


def _size(chooser: random.Random) -> str:
    """A raise size drawn by :data:`_SIZE_WEIGHTS`: ``chooser.choices(RAISE_SIZES,
    _SIZE_WEIGHTS)[0]``, the same draw, without adding the weights up each time."""
    return RAISE_SIZES[bisect(_SIZE_CUMULATIVE, chooser.random() * _SIZE_TOTAL, 0,
                              len(RAISE_SIZES) - 1)]


def rules_action(hand: PokerHand, chooser: random.Random) -> tuple[str, int | None]:
    """The first rule-based bot: raise the minimum with a strong hand (:func:`_strong_fair`),
    call small bets with anything fair, fold the rest. Its raises have no cap, so two of
    them raise each other a big blind at a time; self-play's bots are ``plausible``."""
    legal = hand.legal()
    seat = hand.actor
    if seat is None:
        raise RuntimeError("a bot acts only when a seat is to act")
    strong, fair = _strong_fair(hand, seat)
    if strong and legal.raise_min is not None:
        return "raise", legal.raise_min
    if legal.check:
        return "check", None
    if fair or legal.call <= hand.big_blind:
        return "call", None
    return "fold", None


def plausible_action(hand: PokerHand, chooser: random.Random) -> tuple[str, int | None]:
    """A plausible, bounded player: bets, raises, calls and folds with fixed probabilities
    by the betting round and the strength of its hand (:func:`_strong_fair`); a raise is the
    minimum, half the pot or the pot; once a street has :data:`MAX_RAISES` bets and
    raises it only calls or folds. In stud it brings in, completing with a strong hand."""
    seat = hand.actor
    if seat is None:
        raise RuntimeError("a bot acts only when a seat is to act")
    return _plausible(hand, chooser, _strength(hand, seat))


def _strength(hand: PokerHand, seat: int) -> int:
    """:func:`_strong_fair` as one number: 2 strong, 1 fair, 0 weak."""
    strong, fair = _strong_fair(hand, seat)
    return 2 if strong else 1 if fair else 0


def _plausible(hand: PokerHand, chooser: random.Random, strength: int) -> tuple[str, int | None]:
    """:func:`plausible_action` for a hand of the given :func:`_strength`."""
    legal = hand.legal()
    raise_min = legal.raise_min
    draw = chooser.random()
    # Whether a raise is open is asked only when the draw would raise (the rarer case).
    if not (legal.fold or legal.check):  # the bring-in: post it or complete
        if draw < _RAISE[strength] and raise_min is not None and (
                raises_this_street(hand) < MAX_RAISES):
            return "raise", raise_min
        return "call", None
    if legal.check:
        bet = (_BET_FIRST if hand.street == 0 else _BET_LATER)[strength]
        if draw < bet and raise_min is not None and raises_this_street(hand) < MAX_RAISES:
            return "raise", _raise_to(hand, legal, _size(chooser))
        return "check", None
    if draw < _RAISE[strength] and raise_min is not None and (
            raises_this_street(hand) < MAX_RAISES):
        return "raise", _raise_to(hand, legal, _size(chooser))
    call = _CHEAP_CALL if strength == 0 and legal.call <= hand.big_blind else _CALL[strength]
    if draw < _RAISE[strength] + call:
        return "call", None
    return "fold", None


BOTS: dict[str, Callable[[PokerHand, random.Random], tuple[str, int | None]]] = {
    "random": random_action, "rules": rules_action, "plausible": plausible_action}


@dataclass
class SelfplayResult:
    variant: str
    hands: int
    seed: int
    bought: int  # every buy-in, the first and the top-ups
    final_stacks: list[int]
    fees: int = 0
    showdowns: int = 0
    actions: int = 0  # the players' decisions: bets, calls, checks, folds, discards, draws
    histories: list[str] = field(default_factory=list)


def selfplay(variant: PokerVariant, hands: int, seed: int, players: int = 6,
             stack: int = 200, small_blind: int = 1, big_blind: int = 2,
             bots: tuple[str, ...] = ("plausible",), keep_histories: bool = False,
             progress: Callable[[int], None] | None = None) -> SelfplayResult:
    """Play ``hands`` hands, seat ``s`` played by the bot ``bots[s % len(bots)]``; a player
    who busts is topped up to ``stack`` between hands (a new buy-in), so the table stays
    full."""
    rng = SeededRng(seed)
    chooser = random.Random(seed)  # noqa: S311 - the bots' choices; the deal is SeededRng
    stacks = [stack] * players
    bought = stack * players
    button = 0
    showdowns = fees = actions = 0
    histories: list[str] = []
    ante, bring_in = forced_bets(variant, big_blind)
    names = [bots[seat % len(bots)] for seat in range(players)]
    play = [BOTS[name] for name in names]
    plausible = [name == "plausible" for name in names]
    discards, draws = bool(variant.discard_after), variant.kind == "draw"
    for number in range(hands):
        for i, s in enumerate(stacks):
            if s < big_blind:  # buy in again between hands, never during one
                bought += stack - s
                stacks[i] = stack
        hand = PokerHand(variant, stacks, button, small_blind, big_blind, ShuffledCards(rng),
                         ante=ante, bring_in=bring_in)
        # A seat's cards change only between betting rounds (a street dealt, a draw, a
        # redeal), so the plausible bot values them once a round, however often it acts.
        strengths: dict[int, int] = {}
        while not hand.finished:
            actions += 1
            seat = hand.actor
            if seat is None:
                raise RuntimeError("a hand that is not finished has a seat to act")
            if discards and hand.discarding:  # the bots throw away their lowest card
                hand.discard(min(hand.hole[seat], key=_INDEX.__getitem__))
                continue
            if draws and hand.drawing:
                hand.draw(draw_choice(hand, chooser, names[seat]))
                continue
            if plausible[seat]:
                key = seat | hand.street << 4 | hand.redeals << 8  # seats < 16, streets < 16
                strength = strengths.get(key)
                if strength is None:
                    strength = strengths[key] = _strength(hand, seat)
                action, to = _plausible(hand, chooser, strength)
            else:
                action, to = play[seat](hand, chooser)
            hand.act(action, to)
        if hand.contested:  # the hands met at a showdown
            showdowns += 1
        fees += hand.fee
        if keep_histories:
            histories.append(hand.phh())
        stacks = hand.stacks
        button = (button + 1) % players
        if progress and (number % 128 == 127 or number + 1 == hands):
            progress(number + 1)  # a bar's update costs as much as a tenth of a hand
    return SelfplayResult(f"{variant.name} {variant.structure}", hands, seed, bought, stacks,
                          fees, showdowns, actions, histories)
