"""Self-play's default bots play plausible, bounded poker: at most MAX_RAISES bets and
raises a street, each the minimum, half the pot or the pot; the same seed plays the same
hands; and a hand takes about as many decisions as one between PokerKit's random bots."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from pelisali.cards import DECK
from pelisali.poker.dealing import ShuffledCards
from pelisali.poker.selfplay import (
    MAX_RAISES,
    VARIANTS,
    draw_choice,
    forced_bets,
    plausible_action,
    selfplay,
)
from pelisali.poker.table import PokerHand
from pelisali.rng import SeededRng

BENCHMARKS = str(Path(__file__).resolve().parents[1] / "benchmarks")


def sizes(hand: PokerHand) -> set[int]:
    """The street totals of a minimum, a half-pot and a pot raise, within the legal range."""
    legal = hand.legal()
    assert legal.raise_min is not None and legal.raise_max is not None
    pot = sum(hand.total_commit) + legal.call
    return {legal.raise_min, *(max(legal.raise_min, min(hand.current_bet + p, legal.raise_max))
                               for p in (pot // 2, pot))}


@pytest.mark.parametrize("game", ["holdem", "holdem-limit", "omaha", "omaha-no-limit", "stud",
                                  "triple-draw", "lowball"])
def test_raises_a_street_are_bounded_and_sized_from_the_set(game: str) -> None:
    variant = VARIANTS[game]
    players = 7 if variant.kind == "stud" else 6
    ante, bring_in = forced_bets(variant, 2)
    rng, chooser = SeededRng(4), random.Random(4)
    raised, capped = Counter[str](), 0
    for button in range(200):
        hand = PokerHand(variant, [200] * players, button % players, 1, 2, ShuffledCards(rng),
                         ante=ante, bring_in=bring_in)
        per_street = Counter[int]()
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            if hand.discarding:
                hand.discard(min(hand.hole[seat], key=DECK.index))
                continue
            if hand.drawing:
                hand.draw(draw_choice(hand, chooser, "plausible"))
                continue
            allowed = sizes(hand) if hand.legal().raise_min is not None else set()
            action, to = plausible_action(hand, chooser)
            if action == "raise":
                assert to in allowed, (hand.log, to, allowed)
                per_street[hand.street] += 1
                raised[game] += 1
            hand.act(action, to)
        assert max(per_street.values(), default=0) <= MAX_RAISES, hand.log
        capped += MAX_RAISES in per_street.values()
    assert raised[game] > 50 and capped > 0  # the bots do raise, up to the cap


def test_the_same_seed_plays_the_same_hands() -> None:
    one = selfplay(VARIANTS["holdem"], hands=40, seed=12, keep_histories=True)
    two = selfplay(VARIANTS["holdem"], hands=40, seed=12, keep_histories=True)
    other = selfplay(VARIANTS["holdem"], hands=40, seed=13, keep_histories=True)
    assert one.histories == two.histories and one.final_stacks == two.final_stacks
    assert one.actions == two.actions
    assert one.histories != other.histories


# PokerKit's random bots (benchmarks/pokerkit_bots.py), 500 hands, seed 1: 10.2 decisions a
# hand of six-handed no-limit hold'em, 14.4 of pot-limit Omaha, 20.9 of seven-handed stud.
@pytest.mark.parametrize("game", ["holdem", "omaha", "stud"])
def test_a_hand_takes_as_many_actions_as_between_pokerkits_random_bots(game: str) -> None:
    pytest.importorskip("pokerkit")
    sys.path.insert(0, BENCHMARKS)
    try:
        from pokerkit_bots import decisions_per_hand
    finally:
        sys.path.remove(BENCHMARKS)
    players = 7 if game == "stud" else 6
    theirs = decisions_per_hand(game, hands=500, seed=1, players=players)
    ours = selfplay(VARIANTS[game], hands=500, seed=1, players=players).actions / 500
    assert theirs / 2 <= ours <= 2 * theirs, (ours, theirs)
    # Pelisali's random bots choose as PokerKit's do: their hands are as long.
    randoms = selfplay(VARIANTS[game], hands=500, seed=1, players=players,
                       bots=("random",)).actions / 500
    assert 0.8 * theirs <= randoms <= 1.25 * theirs, (randoms, theirs)
