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
from pelisali.poker.evaluate import high_value
from pelisali.poker.table import (
    COURCHEVEL_PL,
    CRAZY_PINEAPPLE_NL,
    DOUBLE_FLOP_NL,
    HELSINKI_NL,
    HOLDEM_LIMIT,
    HOLDEM_NL,
    HOLDEM_PL,
    OMAHA5_PL,
    OMAHA_NL,
    OMAHA_PL,
    PINEAPPLE_NL,
    PokerHand,
    PokerVariant,
)
from pelisali.rng import SeededRng

VARIANTS: dict[str, PokerVariant] = {
    "holdem": HOLDEM_NL, "holdem-limit": HOLDEM_LIMIT, "holdem-pot-limit": HOLDEM_PL,
    "omaha": OMAHA_PL, "omaha-no-limit": OMAHA_NL, "omaha-5": OMAHA5_PL,
    "courchevel": COURCHEVEL_PL, "pineapple": PINEAPPLE_NL,
    "crazy-pineapple": CRAZY_PINEAPPLE_NL, "helsinki": HELSINKI_NL,
    "double-flop": DOUBLE_FLOP_NL,
}


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
    assert seat is not None
    cards = [DECK.index(c) for c in hand.hole[seat]]
    if len(hand.board) >= 3:
        strength = high_value(cards[:2] + [DECK.index(c) for c in hand.board][:5]) >> 20
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
    chooser = random.Random(seed)
    stacks = [stack] * players
    bought = stack * players
    button = 0
    showdowns = fees = 0
    histories: list[str] = []
    for number in range(hands):
        for i, s in enumerate(stacks):
            if s < big_blind:  # buy in again between hands, never during one
                bought += stack - s
                stacks[i] = stack
        hand = PokerHand(variant, stacks, button, small_blind, big_blind, rng)
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            if hand.discarding:  # the bots throw away their lowest card
                hand.discard(min(hand.hole[seat], key=DECK.index))
                continue
            action, to = BOTS[bots[seat % len(bots)]](hand, chooser)
            hand.act(action, to)
        if any(a.split()[1] == "sm" for a in hand.log):
            showdowns += 1
        fees += hand.fee
        if keep_histories and variant.phh_code:
            histories.append(hand.phh())
        stacks = hand.stacks
        button = (button + 1) % players
        if progress:
            progress(number + 1)
    return SelfplayResult(f"{variant.name} {variant.structure}", hands, seed, bought, stacks,
                          fees, showdowns, histories)
