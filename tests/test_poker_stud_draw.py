"""Stud, Razz, Sökö, the draw games and high/low: scripted hands with exact chips.

The rules are RAY 2015 1.4.1.1.10-12 (Swedish text) and RULINGS "Poker between players".
Every deck is scripted: ``deck=[...]`` deals the given cards first. Seats are dealt from
the dealer's left (button 0: seat 1, seat 2, ..., seat 0). Where PokerKit plays the game,
the hand's PHH is replayed there to the same final stacks.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from typing import Literal

import pytest

from pelisali.poker.dealing import ShuffledCards
from pelisali.poker.games import make_variant
from pelisali.poker.table import (
    DRAW_LIMIT,
    LOWBALL_NL,
    RAZZ_LIMIT,
    SOKO_LIMIT,
    STUD_LIMIT,
    TRIPLE_DRAW_LIMIT,
    PokerError,
    PokerHand,
    PokerVariant,
)
from pelisali.rng import SeededRng

OMAHA_HI_LO = make_variant("omaha", structure="limit", hi_lo=True, low_rule="ace-to-five",
                           qualifier="eight")
STUD_HI_LO = make_variant("stud", hi_lo=True, low_rule="ace-to-five", qualifier="eight")
JACKS_OR_BETTER = make_variant("draw", openers=True)


# -- helpers ---------------------------------------------------------------------------------
def deal_order(players: int, button: int) -> list[int]:
    """Seats in dealing order: the dealer's left first, the button last."""
    return [(button + 1 + i) % players for i in range(players)]


def stud_deck(hands: Mapping[int, str], button: int, first: int = 3) -> list[str]:
    """The deck that deals each seat its cards in the order given: ``first`` cards each at
    the first deal (stud: down, down, up; Sökö: down, up), then one card a street. A hand
    that folds is given only the cards it gets before it folds."""
    cards = {seat: text.split() for seat, text in hands.items()}
    order = deal_order(len(hands), button)
    deck = [c for seat in order for c in cards[seat][:first]]
    longest = max(len(c) for c in cards.values())
    for street in range(first, longest):
        deck += [cards[seat][street] for seat in order if len(cards[seat]) > street]
    return deck


def stud(variant: PokerVariant, hands: Mapping[int, str], button: int = 0,
         stacks: list[int] | None = None, small_bet: int = 2, bring_in: int = 1,
         ante: int = 0, extra: str = "") -> PokerHand:
    """A scripted stud hand (no blinds); ``extra`` cards follow the players' cards."""
    first = 2 if variant.stud_streets[0] == (1, 1) else 3
    deck = stud_deck(hands, button, first) + extra.split()
    return PokerHand(variant, stacks or [100] * len(hands), button, 0, small_bet,
                     ante=ante, bring_in=bring_in, deck=deck)


def dealt(hands: Mapping[int, str], button: int, then: str = "") -> list[str]:
    """A deck for the draw and board games: each seat's hole cards from the dealer's left,
    then ``then`` (draw cards or the board) in order."""
    order = deal_order(len(hands), button)
    return [c for seat in order for c in hands[seat].split()] + then.split()


def cards(text: str) -> list[str]:
    return text.split()


def replayed(hand: PokerHand) -> list[int]:
    """The final stacks PokerKit reaches replaying the hand's PHH, by seat."""
    notation = pytest.importorskip("pokerkit.notation")
    final = list(notation.HandHistory.loads(hand.phh()))[-1]
    stacks = [0] * hand.players
    for index, seat in enumerate(deal_order(hand.players, hand.button)):
        stacks[seat] = final.stacks[index]
    return stacks


def play(hand: PokerHand, *actions: str) -> None:
    """Actions in turn (``call``, ``check``, ``fold``, ``bring-in``, ``raise N``), each by
    whichever seat the engine has to act."""
    for action in actions:
        word, _, amount = action.partition(" ")
        hand.act(word, to=int(amount) if amount else None)


def log_cards(hand: PokerHand) -> list[str]:
    """Every card the log shows dealt, to players and to the board."""
    out = []
    for entry in hand.log:
        if entry.startswith(("d dh", "d db")):
            text = entry.split()[-1]
            out += [text[i:i + 2] for i in range(0, len(text), 2)]
    return out


def value(hand: PokerHand, seat: int, board: list[str] | None = None) -> int:
    """The seat's hand value under the game's ranking (board None: the hand's board)."""
    result = hand.hand_value(seat, board)
    assert result is not None
    return result


def snapshot(hand: PokerHand) -> tuple[object, ...]:
    return (list(hand.stacks), [list(h) for h in hand.hole], list(hand.street_commit),
            hand.actor, list(hand.log), hand.cards.remaining, hand.street, hand.drawing)


# -- 1. the bring-in -------------------------------------------------------------------------
def test_lowest_up_card_brings_in_and_a_rank_tie_goes_by_suit() -> None:
    # Up cards (the third card): seat 1 5s, seat 2 5c, seat 0 9d. The fives tie in rank;
    # clubs is the lowest suit, so seat 2 brings in although seat 1 is dealt first.
    hand = stud(STUD_LIMIT, {1: "Ah Kh 5s", 2: "Ad Kd 5c", 0: "As Ks 9d"}, ante=1)
    assert hand.up == [["9d"], ["5s"], ["5c"]]
    assert hand.actor == 2
    legal = hand.legal()
    assert (legal.fold, legal.check, legal.call, legal.raise_min, legal.raise_max) == (
        False, False, 1, 2, 2)  # post 1, or complete to the small bet 2
    before = snapshot(hand)
    for refused in ("fold", "check"):
        with pytest.raises(PokerError):
            hand.act(refused)
        assert snapshot(hand) == before
    hand.act("raise", to=2)  # seat 2 completes
    assert hand.actor == 0
    legal = hand.legal()
    assert (legal.call, legal.raise_min, legal.raise_max) == (2, 4, 4)  # 2x the small bet
    play(hand, "raise 4", "fold", "fold")
    # Pot: antes 3, seat 2's completion 2 and 2 of seat 0's 4 (the other 2 is uncalled and
    # comes back): 7. Seat 0: 100 - 1 - 4 + 2 + 7 = 104.
    assert hand.finished
    assert hand.stacks == [104, 99, 97]
    assert hand.winnings == [7, 0, 0]
    assert hand.log[3:] == ["p2 cbr 2", "p3 cbr 4", "p1 f", "p2 f"]
    assert replayed(hand) == hand.stacks


def test_razz_highest_up_card_brings_in_king_over_queen_ace_low() -> None:
    # Up cards: seat 1 Qs, seat 2 Kc, seat 0 As. In Razz the ace is the lowest card, so
    # the king brings in (even in clubs against the queen of spades).
    hand = stud(RAZZ_LIMIT, {1: "2h 3h Qs", 2: "2d 3d Kc", 0: "4h 5h As"}, ante=1)
    assert hand.actor == 2
    hand.act("call")  # the same as "bring-in"
    assert hand.log[-1] == "p2 pb"
    assert hand.street_commit == [0, 0, 1]
    assert hand.actor == 0
    assert hand.legal().raise_min == 2  # a completion
    play(hand, "raise 2", "fold", "fold")
    # Pot: antes 3 + bring-in 1 + 1 of seat 0's 2 called; 1 uncalled returns.
    # Seat 0: 100 - 1 - 2 + 1 + 5 = 103.
    assert hand.stacks == [103, 99, 98]
    assert replayed(hand) == hand.stacks


def test_razz_ace_never_brings_in_against_a_deuce() -> None:
    # Razz: As is the best card; the highest up card is the 2, which brings in.
    hand = stud(RAZZ_LIMIT, {1: "9h Th As", 0: "9d Td 2c"})
    assert hand.actor == 0


@pytest.mark.parametrize(("variant", "hands", "seat"), [
    (RAZZ_LIMIT, {1: "2h 3h Kc", 2: "2d 3d Ks", 0: "4h 5h Kd"}, 2),  # kings: the spade
    (RAZZ_LIMIT, {1: "2h 3h Ks", 2: "2d 3d Kc", 0: "4h 5h Kd"}, 1),
    (STUD_LIMIT, {1: "2h 3h 4s", 2: "2d 3d 4c", 0: "5h 6h 4d"}, 2),  # fours: the club
], ids=["razz-spade-at-2", "razz-spade-at-1", "stud-club"])
def test_bring_in_suit_order(variant: PokerVariant, hands: dict[int, str], seat: int) -> None:
    # Clubs < diamonds < hearts < spades: stud's lowest card is the lowest suit, Razz's
    # highest card the highest suit.
    hand = stud(variant, hands, ante=1)
    assert hand.actor == seat
    play(hand, "bring-in", "fold", "fold")
    # The others fold: the bring-in comes back uncalled and the seat wins the 3 antes.
    assert hand.stacks == [102 if s == seat else 99 for s in range(3)]
    assert replayed(hand) == hand.stacks


def test_bring_in_sizes() -> None:
    deal = {1: "Ah Kh 2c", 2: "Ad Kd 5d", 0: "As Ks 9s"}
    with pytest.raises(PokerError, match="bring-in"):
        stud(STUD_LIMIT, deal, small_bet=2, bring_in=3)
    with pytest.raises(PokerError, match="bring-in"):
        PokerHand(STUD_LIMIT, [100] * 3, 0, 0, 2, deck=stud_deck(deal, 0))
    # A bring-in of the full small bet leaves nothing to complete.
    hand = stud(STUD_LIMIT, deal, small_bet=2, bring_in=2)
    legal = hand.legal()
    assert (legal.call, legal.raise_min, legal.raise_max) == (2, None, None)
    hand.act("bring-in")
    assert (hand.actor, hand.legal().call, hand.legal().raise_min) == (2, 2, 4)


# -- 3. limit bet sizes and the cap ------------------------------------------------------------
def test_stud_limit_bet_sizes_and_the_cap_of_four_bets() -> None:
    hands = {1: "Ah Kh 2c 3c 4c", 2: "Ad Kd 5d 6d 7d", 0: "As Ks 9s Ts Js"}
    hand = stud(STUD_LIMIT, hands)
    assert hand.actor == 1  # 2c brings in
    # Third street: completion 2 is the first bet, then 4, 6, 8: four bets, no more.
    play(hand, "raise 2", "raise 4", "raise 6", "raise 8")
    assert hand.actor == 2
    legal = hand.legal()
    assert (legal.call, legal.raise_min, legal.raise_max) == (4, None, None)
    play(hand, "call", "call")
    # Fourth street: 9s Ts (ten high) shows best and opens; the small bet 2.
    assert (hand.street, hand.actor) == (1, 0)
    legal = hand.legal()
    assert (legal.check, legal.raise_min, legal.raise_max) == (True, 2, 2)
    play(hand, "raise 2", "call", "call")
    # Fifth street: J-T-9 opens; the big bet 4 from here on, capped at 4 bets = 16.
    assert (hand.street, hand.actor) == (2, 0)
    assert (hand.legal().raise_min, hand.legal().raise_max) == (4, 4)
    play(hand, "raise 4", "raise 8", "raise 12", "raise 16")
    assert hand.actor == 1
    assert (hand.legal().call, hand.legal().raise_min) == (8, None)
    play(hand, "fold", "fold")
    # Street totals: 8 each, 2 each, then seat 0 16 (4 uncalled back), seat 1 8, seat 2 12.
    # Pot 24 + 6 + 12 + 8 + 12 = 62; seat 0: 100 - 8 - 2 - 12 + 62 = 140.
    assert hand.stacks == [140, 82, 78]
    assert replayed(hand) == hand.stacks


# -- 2. who opens the later streets ----------------------------------------------------------
def test_best_showing_hand_opens_pair_beats_ace_high() -> None:
    hands = {1: "3h 4h 2c 2d 2h 3d 4d", 2: "5h 6h As Kh 2s 3s 4s", 0: "7h 8h Qs Js 3c 4c"}
    hand = stud(STUD_LIMIT, hands)
    play(hand, "bring-in", "call", "call")
    # Fourth street showing: seat 1 2c 2d (a pair), seat 2 As Kh, seat 0 Qs Js.
    assert hand.up == [["Qs", "Js"], ["2c", "2d"], ["As", "Kh"]]
    assert (hand.street, hand.actor) == (1, 1)
    play(hand, "raise 2", "raise 4", "call", "call")
    # Fifth street: seat 1 shows trip deuces and opens.
    assert (hand.street, hand.actor) == (2, 1)
    play(hand, "check", "check", "check")
    # Sixth street: 2c 2d 2h 3d against As Kh 2s 3s and Qs Js 3c 4c.
    assert (hand.street, hand.actor) == (3, 1)
    play(hand, "raise 4", "call", "fold")
    assert (hand.street, hand.actor) == (4, 1)  # seventh street, the same showing hands
    play(hand, "check", "check")
    # Seat 1: three deuces, a pair of threes and a pair of fours: deuces full of fours.
    # Pot: 3 + 12 + 8 = 23; seat 1: 100 - 1 - 4 - 4 + 23 = 114; seat 2 91, seat 0 95.
    assert hand.stacks == [95, 114, 91]
    assert replayed(hand) == hand.stacks


def test_razz_lowest_showing_hand_opens() -> None:
    # Up: seat 1 Kd (brings in), seat 2 Qs, seat 0 As; fourth street: K-2, Q-3, A-A.
    # The lowest showing hand is Q-3 (the pair of aces is worse than any no-pair low).
    hands = {1: "9h Th Kd 2c", 2: "9d Td Qs 3c", 0: "9c Tc As Ac"}
    hand = stud(RAZZ_LIMIT, hands)
    assert hand.actor == 1
    play(hand, "bring-in", "call", "call")
    assert (hand.street, hand.actor) == (1, 2)


@pytest.mark.parametrize(("ties", "opener"), [("position", 2), ("suit", 0)])
def test_equal_showing_hands(ties: Literal["position", "suit"], opener: int) -> None:
    # Fourth street: seat 2 shows Kc 9c and seat 0 Ks 9d, equal by rank. By position the
    # first clockwise from the dealer's left (seat 2) opens; by suit the king of spades.
    variant = dataclasses.replace(STUD_LIMIT, showing_ties=ties)
    hands = {1: "5h 6h 3c 4d", 2: "7h 8h Kc 9c", 0: "Jh Th Ks 9d"}
    hand = stud(variant, hands)
    assert hand.actor == 1
    play(hand, "bring-in", "call", "call")
    assert (hand.street, hand.actor) == (1, opener)


def test_equal_showing_hands_by_position_replays_in_pokerkit() -> None:
    hands = {1: "5h 6h 3c 4d 2s 7c 8c", 2: "7h 8h Kc 9c 4h Qh Ad",
             0: "Jh Th Ks 9d 5s 6s 2d"}
    hand = stud(STUD_LIMIT, hands, ante=1)
    play(hand, "bring-in", "call", "call")
    assert hand.actor == 2
    play(hand, "raise 2", "call", "fold")
    # Fifth street: seat 2 Kc 9c 4h, seat 0 Ks 9d 5s: seat 0 has the K-9-5 and opens.
    assert (hand.street, hand.actor) == (2, 0)
    play(hand, "check", "check", "check", "check", "check", "check")
    # Seat 2: Kc 9c 4h Qh Ad 7h 8h: ace high (A-K-Q-9-8); seat 0: Ks 9d 5s 6s 2d Jh Th:
    # king high. Pot: antes 3, third street 1 + 1 + 1, fourth 2 + 2: 10.
    # Seat 2: 100 - 1 - 1 - 2 + 10 = 106; seat 0 96; seat 1 98.
    assert hand.stacks == [96, 98, 106]
    assert replayed(hand) == hand.stacks


# -- 4. the stud community card ----------------------------------------------------------------
def test_eight_players_share_one_community_card_on_seventh_street() -> None:
    # 8 players: 24 cards on third street and 8 on each of fourth, fifth and sixth leave
    # 52 - 48 = 4 cards for 8 players, so seventh street is one card face up for all.
    hands = {
        1: "2d 3s 5d 6s 8h Th", 2: "2h 4c 5h 7c 9c Ts", 3: "Ah Ad 2c Ac 7d 9h",
        4: "2s 4d 5s 7h 9d Jc", 5: "Kh Kd Ks Qc Qd 8s", 6: "3c 4h 6c 7s 9s Jd",
        7: "3d 4s 6d 8c Tc Jh", 0: "3h 5c 6h 8d Td Js",
    }
    hand = stud(STUD_LIMIT, hands, ante=1, extra="As")
    assert hand.actor == 3  # the 2c brings in
    play(hand, "bring-in", *["call"] * 7)
    assert (hand.street, hand.actor) == (1, 3)  # Ac 2c: ace high shows best
    play(hand, *["check"] * 8)
    assert (hand.street, hand.actor) == (2, 5)  # Ks Qc Qd: a pair of queens
    play(hand, *["check"] * 8)
    play(hand, *["check"] * 8)
    assert hand.street == 4 and hand.cards.remaining == 3
    assert hand.board == ["As"]
    assert all(len(hand.hole[s]) == 6 for s in range(8))
    assert hand.log[-1] == "d db As"
    assert hand.actor == 5
    assert (hand.legal().raise_min, hand.legal().raise_max) == (4, 4)
    play(hand, "raise 4", *["call"] * 7)
    # Seat 3 makes four aces with the community As; without it seat 5's kings full would win.
    assert value(hand, 3) > value(hand, 5)
    assert value(hand, 3, []) < value(hand, 5, [])
    # Pot: antes 8, bring-in and calls 8, seventh street 8 x 4 = 32: 48.
    # Seat 3: 100 - 1 - 1 - 4 + 48 = 142; everyone else 94.
    assert hand.stacks == [94, 94, 94, 142, 94, 94, 94, 94]
    assert hand.winnings == [0, 0, 0, 48, 0, 0, 0, 0]
    every = [c for h in hand.hole for c in h] + hand.board
    assert len(every) == 49 and len(set(every)) == 49
    logged = log_cards(hand)
    assert len(logged) == 49 and Counter(logged).most_common(1)[0][1] == 1
    assert sum(1 for e in hand.log if e.startswith("d db")) == 1
    assert replayed(hand) == hand.stacks


# -- 5. Sökö ---------------------------------------------------------------------------------------
def test_soko_four_flush_beats_a_pair_and_loses_to_two_pair() -> None:
    # Sökö: one down and one up, then an up card a street to four up; four betting rounds.
    # Seat 1 (3 chips): Qc | 2c Qd 2d 7s, two pair. Seat 2: Jc | Js 8d 5c 4s, a pair of
    # jacks. Seat 0: Kc | 9h 6h 3h Ah, a four-card flush (RAY 2016 1.4.1.1.1: Sökö only).
    hands = {1: "Qc 2c Qd 2d 7s", 2: "Jc Js 8d 5c 4s", 0: "Kc 9h 6h 3h Ah"}
    hand = stud(SOKO_LIMIT, hands, stacks=[100, 3, 100])
    assert hand.up == [["9h"], ["2c"], ["Js"]]
    assert hand.actor == 1  # the 2c brings in
    play(hand, "bring-in", "raise 2", "call", "call")
    assert (hand.street, hand.actor) == (1, 1)  # 2c Qd: queen high shows best
    play(hand, "check", "raise 2", "call", "call")  # seat 1 all in for its last chip
    assert hand.stacks[1] == 0
    # Fifth card: seat 1 shows a pair of deuces and opens, but is all in: seat 2 acts.
    assert (hand.street, hand.actor) == (2, 2)
    play(hand, "check", "check")
    # Last round: 9h 6h 3h Ah shows a four-card flush, above the pair of deuces: seat 0.
    assert (hand.street, hand.actor) == (3, 0)
    assert (hand.legal().raise_min, hand.legal().raise_max) == (4, 4)
    play(hand, "raise 4", "call")
    assert hand.finished
    assert all(len(hand.hole[s]) == 5 for s in range(3))
    assert value(hand, 0) > value(hand, 2)  # four-flush over a pair
    assert value(hand, 1) > value(hand, 0)  # two pair over the four-flush
    # Seat 1 put in 3, seats 2 and 0 put in 2 + 2 + 4 = 8 each. Main pot 3 x 3 = 9 to the
    # two pair; side pot 5 x 2 = 10 to the four-flush over the pair of jacks.
    assert hand.stacks == [102, 9, 92]
    assert hand.winnings == [10, 9, 0]
    assert hand.variant.rounds == 4
    assert [e.split()[2] for e in hand.log if e.startswith("d dh")] == [
        "p1", "p2", "p3"] * 4  # two cards each, then one a street: five cards in four deals


def test_soko_four_flush_over_four_straight_over_a_pair() -> None:
    # Seat 1 Ah | 2c Kd Qs Jc: the four-straight A-K-Q-J (ace high, the best high card).
    # Seat 2 Kc | 5s Ks 8d 7c: a pair of kings. Seat 0 9h | 4d 6h 3h 2h: the four-flush
    # 9-6-3-2 of hearts, nine high. Read as plain high hands the pair would win.
    hands = {1: "Ah 2c Kd Qs Jc", 2: "Kc 5s Ks 8d 7c", 0: "9h 4d 6h 3h 2h"}
    hand = stud(SOKO_LIMIT, hands)
    assert hand.actor == 1  # 2c
    play(hand, "bring-in", "call", "call")
    while not hand.finished:
        hand.act("check")
    assert hand.street == 3
    assert value(hand, 0) > value(hand, 1) > value(hand, 2)
    # Pot 3 to the four-flush: 100 - 1 + 3 = 102.
    assert hand.stacks == [102, 99, 99]


# -- 6. the draw games -------------------------------------------------------------------------
def test_five_card_draw_one_draw_two_rounds_and_refused_draws() -> None:
    # Heads-up, button 0: seat 0 posts the small blind 1, seat 1 the big blind 2; seat 1 is
    # dealt first. Seat 1: a pair of aces; seat 0: three kings. Seat 1 draws three.
    deck = dealt({1: "Ah Ad 7c 4d 2s", 0: "Kh Kd Ks 9c 3h"}, 0, then="As 8h 5c")
    hand = PokerHand(DRAW_LIMIT, [100, 100], 0, 1, 2, deck=deck)
    assert hand.variant.rounds == 2
    assert (hand.actor, hand.street_commit) == (0, [1, 2])
    play(hand, "call", "check")
    assert hand.drawing and hand.actor == 1
    before = snapshot(hand)
    with pytest.raises(PokerError, match="must draw"):
        hand.act("check")
    with pytest.raises(PokerError, match="must draw"):
        hand.act("raise", to=2)
    with pytest.raises(PokerError):
        hand.legal()
    with pytest.raises(PokerError, match="out of turn"):
        hand.draw([], seat=0)
    with pytest.raises(PokerError, match="not a card seat 1 holds"):
        hand.draw(["7c", "Kh"])  # the second card is seat 0's
    with pytest.raises(PokerError, match="twice"):
        hand.draw(["7c", "7c"])
    with pytest.raises(PokerError, match="list"):
        hand.draw("7c")  # type: ignore[arg-type]
    assert snapshot(hand) == before
    assert hand.draw(["7c", "4d", "2s"], seat=1) == ["As", "8h", "5c"]
    assert hand.hole[1] == ["Ah", "Ad", "As", "8h", "5c"]
    assert hand.drawing and hand.actor == 0
    assert hand.draw([]) == []  # stands pat
    assert hand.hole[0] == ["Kh", "Kd", "Ks", "9c", "3h"]
    assert not hand.drawing
    assert (hand.street, hand.actor) == (1, 1)  # after the draw: the dealer's left first
    play(hand, "check", "check")
    assert hand.finished
    assert hand.stacks == [98, 102]  # three aces over three kings: the pot of 4
    assert hand.log[4:7] == ["p1 sd 7c4d2s", "d dh p1 As8h5c", "p2 sd"]
    with pytest.raises(PokerError):
        hand.draw([])


def test_triple_draw_three_draws_four_rounds() -> None:
    # Deuce-to-seven triple draw, heads-up. Seat 1: Kc Qd 9h 5s 3c; seat 0: 8h 6d 4s 3d 2c.
    # Draw 1: seat 1 throws K Q for 7d 2h (9-7-5-3-2); seat 0 pat.
    # Draw 2: seat 1 throws 9h for 4c (7-5-4-3-2); seat 0 throws 8h for 5h: 6-5-4-3-2, a
    # straight, which is bad in deuce-to-seven. Draw 3: seat 1 pat; seat 0 throws 6d for 8c.
    deck = dealt({1: "Kc Qd 9h 5s 3c", 0: "8h 6d 4s 3d 2c"}, 0, then="7d 2h 4c 5h 8c")
    hand = PokerHand(TRIPLE_DRAW_LIMIT, [100, 100], 0, 1, 2, deck=deck)
    assert hand.variant.rounds == 4
    play(hand, "call", "check")
    assert hand.draw(["Kc", "Qd"]) == ["7d", "2h"]
    assert hand.draw([]) == []
    assert (hand.street, hand.actor) == (1, 1)
    assert (hand.legal().raise_min, hand.legal().raise_max) == (2, 2)  # the small bet
    play(hand, "check", "raise 2", "call")
    assert hand.draw(["9h"]) == ["4c"]
    assert hand.draw(["8h"]) == ["5h"]
    assert sorted(hand.hole[0]) == sorted(["6d", "4s", "3d", "2c", "5h"])
    assert hand.street == 2
    assert (hand.legal().raise_min, hand.legal().raise_max) == (4, 4)  # the big bet
    play(hand, "raise 4", "raise 8", "call")
    assert hand.draw([]) == []
    assert hand.draw(["6d"]) == ["8c"]
    assert hand.street == 3
    play(hand, "raise 4", "call")
    assert hand.finished
    assert sum(1 for e in hand.log if " sd" in e) == 6  # two players, three draws
    # 7-5-4-3-2 beats 8-5-4-3-2. Pot 4 + 4 + 16 + 8 = 32; seat 1: 100 - 16 + 32 = 116.
    assert hand.stacks == [84, 116]
    assert replayed(hand) == hand.stacks


def test_stub_runs_out_folded_hands_and_discards_are_reshuffled() -> None:
    # Nine players, the deck in its plain order (2c 2d ... As). 45 cards dealt leave a stub
    # of seven: Kd Kh Ks Ac Ad Ah As. Seats 3, 4 and 5 fold; the other six throw all five.
    hand = PokerHand(DRAW_LIMIT, [100] * 9, 0, 1, 2, deck=[])
    mucked = [c for s in (3, 4, 5) for c in hand.hole[s]]
    play(hand, "fold", "fold", "fold", "call", "call", "call", "call", "call", "check")
    assert hand.drawing and hand.cards.remaining == 7
    order = []
    first_thrown: list[str] = []
    while hand.drawing:
        seat = hand.actor
        assert seat is not None
        order.append(seat)
        thrown = list(hand.hole[seat])
        new = hand.draw(thrown)
        if seat == 1:  # five of the stub
            assert new == ["Kd", "Kh", "Ks", "Ac", "Ad"]
            first_thrown = thrown
        if seat == 2:  # the stub's last two, then three from the muck and seat 1's discards
            assert new[:2] == ["Ah", "As"]
            assert set(new[2:]) <= set(mucked + first_thrown)
        assert not set(new) & set(thrown)  # never one's own discards back
        held = [c for h in hand.hole for c in h]
        assert len(held) == len(set(held))
        assert all(len(hand.hole[s]) == 5 for s in range(9) if not hand.folded[s])
    assert order == [1, 2, 6, 7, 8, 0]
    notes = [e for e in hand.log if e.startswith("#")]
    # The 15 mucked cards and seat 1's five; later the 20 discards of seats 2, 6, 7, 8.
    assert notes == ["# the stub ran out: 20 discards shuffled"] * 2
    while not hand.finished:
        hand.act("check")
    assert sum(hand.stacks) == 900


@pytest.mark.parametrize("seed", range(3))
def test_ten_players_each_draw_five_and_eleven_cannot_sit(seed: int) -> None:
    """52 - 5 x 10 = 2: the first to draw five takes the stub's two, then (no one else has
    thrown a card yet) three from their own discards shuffled (RULINGS: the discards are
    shuffled and dealt); everyone after draws five from the others' discards. Eleven
    hands of five are more than a deck."""
    with pytest.raises(PokerError, match="at most 10 players"):
        PokerHand(DRAW_LIMIT, [100] * 11, 0, 1, 2, ShuffledCards(SeededRng(seed)))
    hand = PokerHand(DRAW_LIMIT, [100] * 10, 0, 1, 2, ShuffledCards(SeededRng(seed)))
    while not hand.drawing:
        hand.act("check" if hand.legal().check else "call")
    assert hand.cards.remaining == 2
    first = True
    while hand.drawing:
        seat = hand.actor
        assert seat is not None and hand.stub_and_thrown >= 5
        new = hand.draw(list(hand.hole[seat]))
        assert len(new) == 5
        held = [c for h in hand.hole for c in h]
        assert len(held) == len(set(held)) == 50  # no card twice, none lost
        if first:
            assert any("the drawer's own too" in line for line in hand.log)
            first = False
    assert all(len(h) == 5 for h in hand.hole)
    thrown = [c for line in hand.log if " sd " in line for c in
              (line.split()[2][i:i + 2] for i in range(0, len(line.split()[2]), 2))]
    assert len(thrown) == 50


# -- 7. jacks or better --------------------------------------------------------------------------
def test_jacks_or_better_only_openers_may_bet_first() -> None:
    # Antes 1, no blinds. Seat 1 holds tens (no openers), seat 2 jacks, seat 0 ace high.
    hands = {1: "Th Tc 7d 4s 2c", 2: "Jh Js 9c 6d 3h", 0: "Ad Kc 8s 5h 3c"}
    deck = dealt(hands, 0, then="Td 8c 5d Kd Qd 2h")
    with pytest.raises(PokerError, match="antes"):
        PokerHand(JACKS_OR_BETTER, [100] * 3, 0, 0, 2, deck=deck)
    hand = PokerHand(JACKS_OR_BETTER, [100] * 3, 0, 0, 2, ante=1, deck=deck)
    assert hand.stacks == [99, 99, 99] and hand.street_commit == [0, 0, 0]
    assert hand.actor == 1
    legal = hand.legal()
    assert (legal.check, legal.raise_min, legal.raise_max) == (True, None, None)
    before = snapshot(hand)
    with pytest.raises(PokerError):
        hand.act("bet", to=2)
    assert snapshot(hand) == before
    hand.act("check")
    assert (hand.legal().raise_min, hand.legal().raise_max) == (2, 2)  # seat 2 can open
    play(hand, "bet 2", "fold", "call")  # seat 1 may call without openers
    assert hand.draw(["7d", "4s", "2c"]) == ["Td", "8c", "5d"]  # three tens
    assert hand.draw(["9c", "6d", "3h"]) == ["Kd", "Qd", "2h"]
    play(hand, "check", "check")
    # Pot: antes 3 + 2 + 2 = 7 to seat 1: 100 - 1 - 2 + 7 = 104.
    assert hand.stacks == [99, 104, 97]
    assert hand.redeals == 0


def test_jacks_or_better_nobody_opens_the_hand_is_dealt_again() -> None:
    hands = {1: "Th Tc 7d 4s 2c", 2: "9h 9s 8c 6d 3h", 0: "Ad Kc 8s 5h 3c"}
    hand = PokerHand(JACKS_OR_BETTER, [100] * 3, 0, 0, 2, ante=1,
                     deck=dealt(hands, 0))
    for _ in range(3):
        assert hand.legal().raise_min is None
        hand.act("check")
    assert hand.redeals == 1
    assert "# nobody opened: deal 2" in hand.log
    assert (hand.street, hand.actor, hand.finished) == (0, 1, False)
    assert hand.stacks == [99, 99, 99]  # the antes stay in the pot
    pot = hand.view(0)["pot"]
    assert pot == 3
    assert sum(hand.stacks) + pot == 300
    held = [c for h in hand.hole for c in h]
    assert [len(h) for h in hand.hole] == [5, 5, 5] and len(set(held)) == 15


# -- 8. deuce-to-seven lowball -------------------------------------------------------------------
@pytest.mark.parametrize(("seat1", "seat0", "winner"), [
    ("7s 5d 4c 3h 2c", "8s 6d 4d 3s 2d", 1),  # 7-5 beats 8-6
    ("Ah 2d 3c 4s 5h", "Kc 9d 7h 4h 3s", 0),  # A-2-3-4-5 is ace high, worse than king high
    ("6c 5d 4h 3s 2c", "2d 2h 8s 5c 3d", 0),  # a straight is worse than a pair
    ("Kc Qd Jh 9s 8c", "9h 8h 6h 4h 2h", 1),  # a flush is worse than king high
], ids=["seven-five", "wheel-is-ace-high", "straight-is-bad", "flush-is-bad"])
def test_deuce_to_seven_showdowns(seat1: str, seat0: str, winner: int) -> None:
    hand = PokerHand(LOWBALL_NL, [100, 100], 0, 1, 2,
                     deck=dealt({1: seat1, 0: seat0}, 0))
    play(hand, "call", "check")
    assert hand.draw([]) == [] and hand.draw([]) == []  # both stand pat
    play(hand, "check", "raise 10", "call")
    # Pot 2 + 2 + 10 + 10 = 24: the winner 100 - 12 + 24 = 112.
    expected = [88, 88]
    expected[winner] = 112
    assert hand.stacks == expected
    assert replayed(hand) == expected


# -- 9. high/low ----------------------------------------------------------------------------------
BOARD = "2c 5d 7h Kc Qd"


def omaha_hi_lo(hands: Mapping[int, str], board: str) -> PokerHand:
    # Three players, button 0: seat 1 small blind 1, seat 2 big blind 2, seat 0 first.
    return PokerHand(OMAHA_HI_LO, [100] * 3, 0, 1, 2,
                     deck=dealt(hands, 0, then=board))


def check_down(hand: PokerHand) -> None:
    while not hand.finished:
        hand.act("check")


def test_omaha_hi_lo_splits_an_odd_pot_odd_chip_to_the_high() -> None:
    # Board 2c 5d 7h Kc Qd. Seat 0 Ks Kh 9s 9d: three kings, no low. Seat 2 Ac 3d Jh Js:
    # the low 7-5-3-2-A (A 3 with 2 5 7). Seat 1 folds its small blind.
    hands = {1: "4c 6s Th 8c", 2: "Ac 3d Jh Js", 0: "Ks Kh 9s 9d"}
    hand = omaha_hi_lo(hands, BOARD)
    assert hand.variant.phh_code == "FO/8"
    play(hand, "call", "fold", "check")
    check_down(hand)
    assert hand.board == cards(BOARD)
    # Pot 2 + 1 + 2 = 5: 3 to the high (the odd chip), 2 to the low.
    assert hand.winnings == [3, 0, 2]
    assert hand.stacks == [101, 99, 100]
    assert replayed(hand) == hand.stacks


def test_omaha_hi_lo_low_needs_exactly_two_hole_cards() -> None:
    # Board 2c 7d Kh Qs Js: two low cards only. Seat 0 holds Ad 3h 4s 5c: A-3-4 with 2-7
    # would be a low with three hole cards, but Omaha uses exactly two: no low at all, and
    # seat 2's three kings (Kd Ks with Kh) take the whole pot.
    hands = {1: "Tc 9d 6h 8s", 2: "Kd Ks 8c 6c", 0: "Ad 3h 4s 5c"}
    hand = omaha_hi_lo(hands, "2c 7d Kh Qs Js")
    play(hand, "raise 4", "fold", "call")
    check_down(hand)
    # Pot 4 + 1 + 4 = 9, all to seat 2: 100 - 4 + 9 = 105.
    assert hand.winnings == [0, 0, 9]
    assert hand.stacks == [96, 99, 105]
    assert replayed(hand) == hand.stacks


def test_omaha_hi_lo_scoop() -> None:
    # Seat 0 Ac 3d Kh Ks: three kings and 7-5-3-2-A. Seat 2 4d 6s Qh Qs: three queens and
    # 7-6-5-4-2. Seat 0 has the best high and the best low and takes the whole pot.
    hands = {1: "Tc 9d Th 8s", 2: "4d 6s Qh Qs", 0: "Ac 3d Kh Ks"}
    hand = omaha_hi_lo(hands, BOARD)
    play(hand, "call", "fold", "check")
    check_down(hand)
    assert hand.winnings == [5, 0, 0]
    assert hand.stacks == [103, 99, 98]
    assert replayed(hand) == hand.stacks


def test_omaha_hi_lo_side_pot_without_a_low_goes_to_the_high() -> None:
    # Seat 0 (4 chips) is all in with the low 7-5-3-2-A and a pair of jacks. Seats 1 and 2
    # bet on: seat 1 three kings, seat 2 three queens, neither has a low.
    hands = {1: "Ks Kh 9s 9d", 2: "Qh Qs Td Tc", 0: "Ac 3d Jh Js"}
    deck = dealt(hands, 0, then=BOARD)
    hand = PokerHand(OMAHA_HI_LO, [4, 100, 100], 0, 1, 2, deck=deck)
    play(hand, "raise 4", "call", "call")  # seat 0 all in
    play(hand, "raise 2", "call", "raise 4", "call", "check", "check")
    # Main pot 3 x 4 = 12: 6 to the high (seat 1), 6 to the low (seat 0). Side pot
    # 2 x (2 + 4) = 12 between seats 1 and 2: no low there, all 12 to seat 1.
    # (PokerKit 0.7.7 hands half of such a side pot to the players without a low.)
    assert hand.winnings == [6, 18, 0]
    assert hand.stacks == [6, 108, 90]


def test_stud_hi_lo_splits_with_the_odd_chip_to_the_high() -> None:
    # Seat 1: Ac 2d | 6c 3h 4d Kh | Qs: the low 6-4-3-2-A, ace-king high.
    # Seat 2: Kc Kd | 9s 9h Jc Td | 7s: kings and nines, no low. Seat 0 folds fourth street.
    hands = {1: "Ac 2d 6c 3h 4d Kh Qs", 2: "Kc Kd 9s 9h Jc Td 7s", 0: "Qh Jh 8s 7c"}
    hand = stud(STUD_HI_LO, hands, ante=1)
    assert hand.variant.phh_code == "F7S/8"
    assert hand.actor == 1  # 6c is the lowest up card
    play(hand, "bring-in", "raise 2", "call", "call")
    assert (hand.street, hand.actor) == (1, 2)  # 9s 9h
    play(hand, "raise 2", "fold", "call")
    assert (hand.street, hand.actor) == (2, 2)
    play(hand, "raise 4", "call")
    check_down(hand)
    # Pot: antes 3, third street 6, fourth 4, fifth 8: 21; high 11, low 10.
    assert hand.winnings == [0, 10, 11]
    assert hand.stacks == [97, 101, 102]
    assert replayed(hand) == hand.stacks


def test_lowball_all_in_small_blind_replays_in_pokerkit() -> None:
    # Heads-up: seat 0, the button, posts the small blind with 2 chips and calls all in.
    deck = dealt({1: "Kc Qd Jh 9s 8c", 0: "7s 5d 4c 3h 2c"}, 0)
    hand = PokerHand(LOWBALL_NL, [2, 100], 0, 1, 2, deck=deck)
    hand.act("call")
    while not hand.drawing:
        hand.act("check")
    hand.draw([])
    hand.draw([])
    assert hand.finished
    assert hand.stacks == [4, 98]  # 7-5-4-3-2 wins the pot of 4
    assert replayed(hand) == [4, 98]


# -- 10. what a seat sees -----------------------------------------------------------------------
RAZZ_HANDS = {2: "2c 3c Kd 9s Jh Qh Td", 0: "Ah 4h 5d 6s 7d 8h Kc", 1: "2d 3d 8c 9c"}


def razz_to_seventh_street() -> PokerHand:
    # Button 1: seat 2 is dealt first (p1), then seat 0 (p2), then seat 1 (p3).
    hand = stud(RAZZ_LIMIT, RAZZ_HANDS, button=1, stacks=[50, 60, 70])
    assert hand.actor == 2  # Kd is the highest up card
    play(hand, "bring-in", "raise 2", "call", "call")
    assert (hand.street, hand.actor) == (1, 0)  # 6-5 is the lowest showing hand
    play(hand, "raise 2", "fold", "call")
    assert (hand.street, hand.actor) == (2, 0)
    play(hand, "raise 4", "call", "check", "check")
    assert (hand.street, hand.actor) == (4, 0)
    return hand


def test_stud_view_shows_up_cards_and_hides_down_cards() -> None:
    hand = razz_to_seventh_street()
    view = hand.view(2)
    assert view["hole"] == cards("2c 3c Kd 9s Jh Qh Td")
    assert view["up"] == {0: cards("5d 6s 7d 8h"), 1: cards("8c 9c"),
                          2: cards("Kd 9s Jh Qh")}
    actions = view["actions"]
    assert isinstance(actions, list)
    deals = [a for a in actions if a.startswith("d dh")]
    assert deals == [
        "d dh p1 2c3cKd", "d dh p2 ????5d", "d dh p3 ????8c",
        "d dh p1 9s", "d dh p2 6s", "d dh p3 9c",
        "d dh p1 Jh", "d dh p2 7d", "d dh p1 Qh", "d dh p2 8h",
        "d dh p1 Td", "d dh p2 ??",
    ]
    assert "Ah" not in str(view) and "2d" not in str(view) and "Kc" not in str(view)


def test_draw_view_hides_discards_but_shows_how_many() -> None:
    deck = dealt({1: "Ah Ad 7c 4d 2s", 0: "Kh Kd Ks 9c 3h"}, 0, then="As 8h 5c")
    hand = PokerHand(DRAW_LIMIT, [100, 100], 0, 1, 2, deck=deck)
    play(hand, "call", "check")
    hand.draw(["7c", "4d", "2s"])
    seen_by_0 = hand.view(0)["actions"]
    seen_by_1 = hand.view(1)["actions"]
    assert isinstance(seen_by_0, list) and isinstance(seen_by_1, list)
    assert seen_by_0[:2] == ["d dh p1 ??????????", "d dh p2 KhKdKs9c3h"]
    assert seen_by_0[-2:] == ["p1 sd ??????", "d dh p1 ??????"]  # three cards, unseen
    assert seen_by_1[-2:] == ["p1 sd 7c4d2s", "d dh p1 As8h5c"]
    assert hand.view(0)["hole"] == cards("Kh Kd Ks 9c 3h")
    assert hand.view(1)["hole"] == cards("Ah Ad As 8h 5c")


# -- 11. PHH ------------------------------------------------------------------------------------
def test_razz_phh_numbers_players_from_the_dealers_left_and_replays() -> None:
    hand = razz_to_seventh_street()
    play(hand, "check", "check")
    # Seat 0's 7-6-5-4-A beats seat 2's J-T-9-3-2. Pot: third street 6, fourth 4, fifth 8.
    # Seat 0: 50 - 8 + 18 = 60; seat 1: 60 - 2 = 58; seat 2: 70 - 8 = 62.
    assert hand.stacks == [60, 58, 62]
    text = hand.phh()
    assert 'variant = "FR"' in text
    assert "starting_stacks = [70, 50, 60]" in text  # p1 = seat 2, p2 = seat 0, p3 = seat 1
    assert "finishing_stacks = [62, 60, 58]" in text
    assert '"p1 pb"' in text and '"p2 cbr 2"' in text
    assert replayed(hand) == [60, 58, 62]
