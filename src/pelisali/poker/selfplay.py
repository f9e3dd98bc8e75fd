"""Self-play: bots play hand after hand at one table, the button moving clockwise.

Two bots: ``random`` takes a uniformly random legal action (a raise to a
random legal amount); ``rules`` plays a simple rule-based game (raises with
strong cards, calls with fair ones, folds the rest). Everything, the deck
included, is drawn from one seeded generator, so a seed replays the session.

>>> result = selfplay(VARIANTS["holdem"], hands=20, seed=3, players=3)
>>> result.hands, sum(result.final_stacks) + result.fees == result.bought
(20, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from pelisali.cards import DECK
from pelisali.poker.dealing import ShuffledCards
from pelisali.poker.evaluate import high_value
from pelisali.poker.games import make_variant
from pelisali.poker.table import (
    HOLDEM_LIMIT,
    HOLDEM_PL,
    OMAHA_NL,
    PokerHand,
    PokerVariant,
)
from pelisali.rng import SeededRng

_INDEX = {card: i for i, card in enumerate(DECK)}  # a card's index in the deck
from pelisali.rules.poker import POKER_GAME_IDS, load_poker_rules

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


def rules_action(hand: PokerHand, chooser: random.Random) -> tuple[str, int | None]:
    """Raise the minimum with a pair or better (or two high cards pre-flop), call small
    bets with anything fair, fold the rest."""
    legal = hand.legal()
    seat = hand.actor
    if seat is None:
        raise RuntimeError("a bot acts only when a seat is to act")
    cards = [_INDEX[c] for c in hand.hole[seat]]
    if hand.variant.high is None:  # a low game: count the different cards eight or lower
        lows = {0 if c >> 2 == 12 else (c >> 2) + 1 for c in cards}
        lows = {r for r in lows if r <= 7}
        strong, fair = len(lows) >= min(4, len(cards)), len(lows) >= min(3, len(cards))
    elif hand.variant.kind != "board" and len(cards) + len(hand.board) >= 5:
        strength = high_value(cards + [_INDEX[c] for c in hand.board]) >> 20
        strong, fair = strength >= 2, strength >= 1
    elif len(hand.board) >= 3:
        strength = high_value(cards[:2] + [_INDEX[c] for c in hand.board][:5]) >> 20
        strong, fair = strength >= 2, strength >= 1
    else:
        ranks = sorted((c >> 2 for c in cards), reverse=True)
        strong = ranks[0] == ranks[1] or ranks[1] >= 10
        fair = ranks[0] >= 9
    if strong and legal.raise_min is not None:
        return "raise", legal.raise_min
    if legal.check:
        return "check", None
    if fair or legal.call <= hand.big_blind:
        return "call", None
    return "fold", None


BOTS: dict[str, Callable[[PokerHand, random.Random], tuple[str, int | None]]] = {
    "random": random_action, "rules": rules_action}


@dataclass
class SelfplayResult:
    variant: str
    hands: int
    seed: int
    bought: int  # every buy-in, the first and the top-ups
    final_stacks: list[int]
    fees: int = 0
    showdowns: int = 0
    histories: list[str] = field(default_factory=list)


def selfplay(variant: PokerVariant, hands: int, seed: int, players: int = 6,
             stack: int = 200, small_blind: int = 1, big_blind: int = 2,
             bots: tuple[str, ...] = ("random", "rules"), keep_histories: bool = False,
             progress: Callable[[int], None] | None = None) -> SelfplayResult:
    """Play ``hands`` hands; a player who busts is topped up to ``stack`` between hands
    (a new buy-in), so the table stays full."""
    rng = SeededRng(seed)
    chooser = random.Random(seed)  # noqa: S311 - the bots' choices; the deal is SeededRng
    stacks = [stack] * players
    bought = stack * players
    button = 0
    showdowns = fees = 0
    histories: list[str] = []
    ante, bring_in = forced_bets(variant, big_blind)
    for number in range(hands):
        for i, s in enumerate(stacks):
            if s < big_blind:  # buy in again between hands, never during one
                bought += stack - s
                stacks[i] = stack
        hand = PokerHand(variant, stacks, button, small_blind, big_blind, ShuffledCards(rng),
                         ante=ante, bring_in=bring_in)
        while not hand.finished:
            seat = hand.actor
            if seat is None:
                raise RuntimeError("a hand that is not finished has a seat to act")
            if hand.discarding:  # the bots throw away their lowest card
                hand.discard(min(hand.hole[seat], key=_INDEX.__getitem__))
                continue
            if hand.drawing:
                hand.draw(draw_choice(hand, chooser, bots[seat % len(bots)]))
                continue
            action, to = BOTS[bots[seat % len(bots)]](hand, chooser)
            hand.act(action, to)
        if hand.contested:  # the hands met at a showdown
            showdowns += 1
        fees += hand.fee
        if keep_histories:
            histories.append(hand.phh())
        stacks = hand.stacks
        button = (button + 1) % players
        if progress:
            progress(number + 1)
    return SelfplayResult(f"{variant.name} {variant.structure}", hands, seed, bought, stacks,
                          fees, showdowns, histories)
