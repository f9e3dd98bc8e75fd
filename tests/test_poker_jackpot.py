"""The bad-beat jackpot (RAY 2016 1.4.1.1.1), every number a setting."""

from fractions import Fraction

import pytest

from pelisali.poker.dealing import ShuffledCards
from pelisali.poker.hands import pack
from pelisali.poker.jackpot import BadBeatJackpot, BadBeatRules, JackpotError
from pelisali.poker.table import HOLDEM_NL, PokerHand
from pelisali.rng import SeededRng

QUADS_EIGHTS = pack(7, [6])
RULES = BadBeatRules(qualifying=QUADS_EIGHTS, min_players=4, contribution=100,
                     losing_share=Fraction(50, 100), winning_share=Fraction(25, 100),
                     table_share=Fraction(15, 100), guaranteed_minimum=10_000)
PLAYERS = ["ann", "bob", "cid", "dan", "eve"]


def test_contribution_needs_the_minimum_of_players_and_the_second_round() -> None:
    jackpot = BadBeatJackpot(RULES)
    assert jackpot.contribution(4, True) == 100
    assert jackpot.contribution(3, True) == 0
    assert jackpot.contribution(6, False) == 0


def test_accrual_is_added_at_the_end_of_the_gaming_day() -> None:
    jackpot = BadBeatJackpot(RULES, amount=50_000)
    for _ in range(7):
        jackpot.contribute(jackpot.contribution(5, True))
    assert (jackpot.amount, jackpot.accrued_today) == (50_000, 700)
    jackpot.end_of_day()
    assert (jackpot.amount, jackpot.accrued_today) == (50_700, 0)


def test_shares_and_the_seed_of_the_next_jackpot() -> None:
    jackpot = BadBeatJackpot(RULES, amount=100_001)
    showdown = {"ann": pack(8, [7]), "bob": pack(7, [11]), "cid": pack(7, [6])}
    payout = jackpot.settle(showdown, PLAYERS)
    assert payout is not None
    # The two best qualifying hands trigger it: ann's straight flush wins, bob's kings
    # lose; cid's qualifying eights and dan and eve share the table's 15 %.
    assert payout.shares["bob"] == 50_000  # int(100001 * 50 %)
    assert payout.shares["ann"] == 25_000
    assert [payout.shares[p] for p in ("cid", "dan", "eve")] == [5_000, 5_000, 5_000]
    assert payout.seed == 100_001 - 90_000
    assert jackpot.amount == 10_001  # above the guarantee
    poor = BadBeatJackpot(RULES, amount=20_000)
    poor.settle(showdown, PLAYERS)
    assert poor.amount == 10_000 and poor.house_topped_up == 10_000 - 2_000


def test_equal_qualifying_hands_share() -> None:
    jackpot = BadBeatJackpot(RULES, amount=100_000)
    showdown = {"ann": pack(8, [7]), "bob": pack(7, [11]), "cid": pack(7, [11])}
    payout = jackpot.settle(showdown, PLAYERS)
    assert payout is not None
    # bob and cid share the losing 50 % and one share of the table's 15 % between them
    # (three takers: dan, eve and the pair): 5,000 each taker.
    assert payout.shares["bob"] == payout.shares["cid"] == 25_000 + 2_500
    assert payout.shares["dan"] == payout.shares["eve"] == 5_000
    assert payout.shares["ann"] == 25_000


def test_no_trigger_and_refusal() -> None:
    jackpot = BadBeatJackpot(RULES, amount=100_000)
    one = {"ann": pack(7, [11]), "bob": pack(1, [3])}
    assert jackpot.settle(one, PLAYERS) is None  # nobody beat the qualifying hand
    tie = {"ann": pack(7, [11]), "bob": pack(7, [11])}
    assert jackpot.settle(tie, PLAYERS) is None  # equal hands: no loser
    beat = {"ann": pack(8, [7]), "bob": pack(7, [11])}
    assert jackpot.settle(beat, PLAYERS[:3]) is None  # fewer than four at the start
    assert jackpot.settle(beat, PLAYERS, cards_revealed=True) is None
    assert jackpot.amount == 100_000
    with pytest.raises(JackpotError):
        BadBeatRules(QUADS_EIGHTS, 4, 100, Fraction(60, 100), Fraction(30, 100),
                     Fraction(20, 100), 0)


def test_the_hand_takes_the_drop_only_when_it_qualifies() -> None:
    hand = PokerHand(HOLDEM_NL, [200] * 4, 0, 1, 2, ShuffledCards(SeededRng(1)), jackpot_drop=50,
                     jackpot_min_players=4)
    hand.act("fold")
    hand.act("fold")
    hand.act("fold")  # ends before the flop: no contribution
    assert hand.finished and hand.jackpot_taken == 0
    hand = PokerHand(HOLDEM_NL, [200] * 4, 0, 1, 2, ShuffledCards(SeededRng(1)), jackpot_drop=5,
                     jackpot_min_players=4)
    while not hand.finished:
        hand.act("check" if hand.legal().check else "call")
    assert hand.jackpot_taken == 5  # from the pot of 8
    short = PokerHand(HOLDEM_NL, [200] * 3, 0, 1, 2, ShuffledCards(SeededRng(1)), jackpot_drop=5,
                      jackpot_min_players=4)
    while not short.finished:
        short.act("check" if short.legal().check else "call")
    assert short.jackpot_taken == 0  # three players: under the minimum
    assert sum(hand.stacks) + hand.fee == 800


def test_a_jackpot_table_collects_and_pays() -> None:
    from pelisali.poker.session import PokerTable

    # Two pair qualifies here, so that bad beats come often enough for the test.
    jackpot = BadBeatJackpot(BadBeatRules(qualifying=pack(2, [1, 0]), min_players=3,
                                          contribution=2, losing_share=Fraction(1, 2),
                                          winning_share=Fraction(1, 4),
                                          table_share=Fraction(1, 10),
                                          guaranteed_minimum=100), amount=1000)
    table = PokerTable(HOLDEM_NL, 1, 2, min_buy_in=100, rng=SeededRng(12), jackpot=jackpot)
    for name in ("ann", "bob", "cid"):
        table.sit(name, 300)
    brought = 900 + 1000
    for number in range(200):
        hand = table.start_hand()
        while not hand.finished:
            hand.act("check" if hand.legal().check else "call")
        table.finish_hand()
        if number % 50 == 49:
            jackpot.end_of_day()
        # Nothing is lost or made, but what the house's guarantee added.
        total = table.chips() + table.house + jackpot.amount + jackpot.accrued_today
        assert total == brought + jackpot.house_topped_up
    assert any(entry["event"] == "end of day" for entry in jackpot.history)
    assert any(entry["event"] == "paid" for entry in jackpot.history)
    assert jackpot.amount + jackpot.accrued_today > 0
