"""PokerKit playing itself: random bots on PokerKit's own state machine, the yardstick
for how many actions a hand of a game takes when nobody plays well.

Each decision is uniformly one of what the player may do: check or call, fold (only
when facing a bet), or a bet or raise to a uniformly random legal amount; in stud the
bring-in or its completion; in a draw a discard of each card with probability 0.4.
These are the choices of :func:`pelisali.poker.selfplay.random_action`, so the two
engines' random bots play the same game. Cards come from PokerKit's own shuffle, which
draws on the global :mod:`random` generator: :func:`decisions_per_hand` seeds it and
puts its state back.

>>> round(decisions_per_hand("holdem", hands=20, seed=1), 1) > 1
True
"""

from __future__ import annotations

import random
import warnings

from pokerkit import (
    Automation,
    FixedLimitDeuceToSevenLowballTripleDraw,
    FixedLimitSevenCardStud,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
    State,
)

AUTOMATIONS = (Automation.ANTE_POSTING, Automation.BET_COLLECTION,
               Automation.BLIND_OR_STRADDLE_POSTING, Automation.CARD_BURNING,
               Automation.HOLE_DEALING, Automation.BOARD_DEALING,
               Automation.RUNOUT_COUNT_SELECTION, Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
               Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)

# The games of ``pelisali poker selfplay`` PokerKit plays, at self-play's stakes: blinds
# 1/2 (limit: bets 2/4), stud antes 1 and a bring-in of 1.
GAMES = ("holdem", "omaha", "stud", "triple-draw")


def new_state(game: str, players: int, stack: int = 200) -> State:
    stacks = (stack,) * players
    if game == "holdem":
        return NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (1, 2), 2, stacks,
                                               players)
    if game == "omaha":
        return PotLimitOmahaHoldem.create_state(AUTOMATIONS, True, 0, (1, 2), 2, stacks,
                                                players)
    if game == "stud":
        return FixedLimitSevenCardStud.create_state(AUTOMATIONS, True, 1, 1, 2, 4, stacks,
                                                    players)
    if game == "triple-draw":
        return FixedLimitDeuceToSevenLowballTripleDraw.create_state(
            AUTOMATIONS, True, 0, (1, 2), 2, 4, stacks, players)
    raise ValueError(f"no PokerKit game for {game!r}: {', '.join(GAMES)}")


def play_hand(state: State, chooser: random.Random) -> int:
    """Play ``state`` to its end with random decisions; the number of decisions."""
    decisions = 0
    while state.status:
        decisions += 1
        if state.can_stand_pat_or_discard():
            seat = state.stand_patter_or_discarder_index
            if seat is None:
                raise RuntimeError("a draw with nobody to draw")
            state.stand_pat_or_discard([c for c in state.hole_cards[seat]
                                        if chooser.random() < 0.4])
            continue
        options = []
        if state.can_post_bring_in():
            options.append("bring-in")
        else:
            options.append("call")
            if state.can_fold():
                options.append("fold")
        if state.can_complete_bet_or_raise_to():
            options.append("raise")
        choice = chooser.choice(options)
        if choice == "bring-in":
            state.post_bring_in()
        elif choice == "call":
            state.check_or_call()
        elif choice == "fold":
            state.fold()
        else:
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            if low is None or high is None:
                raise RuntimeError("a raise with no amounts")
            state.complete_bet_or_raise_to(chooser.randint(low, high))
    return decisions


def decisions_per_hand(game: str, hands: int, seed: int, players: int | None = None) -> float:
    """The mean decisions a hand of ``game`` over ``hands`` hands of PokerKit's random
    bots (stud at seven seats, the rest at six, unless ``players`` says)."""
    seats = players or (7 if game == "stud" else 6)
    chooser = random.Random(seed)
    saved = random.getstate()
    random.seed(seed)  # PokerKit's deck shuffle
    try:
        with warnings.catch_warnings():  # PokerKit warns when a reshuffled card is dealt
            warnings.simplefilter("ignore")
            total = sum(play_hand(new_state(game, seats), chooser) for _ in range(hands))
    finally:
        random.setstate(saved)
    return total / hands
