"""The blackjack table: every decision, every settlement, seats, dealing order and money.

Expected values are written from RULINGS "Blackjack" and the GGPoker live-casino
rules part III (dealing order 3.4; push and exceptions 2.2; payouts 2.3;
insurance 2.5; doubling 2.6; splitting 2.7; the dealer's hole card 3.7; the
dealer's drawing 4.4), not computed by the code under test. Hands are set up
with ``deal(stack=...)``: the cards in dealing order (each seat, the dealer's up
card, each seat, the hole card), then the cards the decisions and the dealer draw.
"""

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pelisali.games.base import GameError
from pelisali.games.blackjack import BlackjackTable, Phase
from pelisali.games.blackjack_rules import BlackjackConfig
from pelisali.games.round import RoundError
from pelisali.rng import SeededRng

START = 100_000


def make(settings: dict[str, str | bool] | None = None, *, bets: dict[int, int] | None = None,
         balance: int = START, seed: int = 0) -> BlackjackTable:
    """A table with ann seated and a bet in each seat of ``bets`` (default: 1000 in seat 1)."""
    table = BlackjackTable(SeededRng(seed), BlackjackConfig.from_settings(settings))
    table.sit("ann", balance)
    for seat, stake in ({1: 1000} if bets is None else bets).items():
        table.place("ann", seat, stake)
    return table


def one_seat(player: tuple[str, str], dealer: tuple[str, str], *rest: str,
             settings: dict[str, str | bool] | None = None, stake: int = 1000,
             balance: int = START) -> BlackjackTable:
    """Seat 1 gets ``player``, the dealer ``dealer`` (up, hole); ``rest`` follow."""
    table = make(settings, bets={1: stake}, balance=balance)
    table.deal(stack=[player[0], dealer[0], player[1], dealer[1], *rest])
    return table


def paid(table: BlackjackTable) -> list[tuple[str, int, str]]:
    return [(s.spot, s.paid, s.result) for s in table.settlements]


# -- seats, bets and the deal ------------------------------------------------------------------


def test_dealing_order_each_seat_up_each_seat_hole() -> None:
    table = make(bets={7: 1000, 1: 1000, 4: 1000})  # placed out of order
    table.deal(stack=["2c", "3c", "4c", "5d", "6d", "7d", "8d", "9h"])
    assert table.seats[1].hands[0].cards == ["2c", "6d"]
    assert table.seats[4].hands[0].cards == ["3c", "7d"]
    assert table.seats[7].hands[0].cards == ["4c", "8d"]
    assert table.dealer == ["5d", "9h"]
    assert table.up_card == "5d"
    assert table.current()[0].number == 1  # seat 1 decides first


def test_dealing_order_from_the_shoe() -> None:
    table = make(bets={2: 1000, 5: 1000})
    start = table.shoe.position
    order = table.shoe.cards[start:start + 6]
    table.deal()
    assert table.seats[2].hands[0].cards[:2] == [order[0], order[3]]
    assert table.seats[5].hands[0].cards[:2] == [order[1], order[4]]
    assert table.dealer[:2] == [order[2], order[5]]


def test_burn_one_card_after_the_shuffle() -> None:
    table = make()
    assert table.shoe.burned == table.shoe.cards[:1]
    assert table.shoe.position == 1
    assert make({"burn_after_shuffle": "0"}).shoe.position == 0


@pytest.mark.parametrize("seat", [0, 8, -1, 100])
def test_seats_are_one_to_seven(seat: int) -> None:
    table = make(bets={})
    with pytest.raises(RoundError):
        table.place("ann", seat, 1000)
    assert table.balances["ann"] == START and table.seats == {}


def test_all_seven_seats_and_seat_taken() -> None:
    table = make(bets={})
    table.sit("bob", START)
    for seat in range(1, 8):
        assert table.place("ann", seat, 500).accepted == 500
    assert table.balances["ann"] == START - 3500
    with pytest.raises(RoundError, match="taken"):
        table.place("bob", 3, 1000)
    with pytest.raises(RoundError):
        table.place("ann", 3, 1000)  # one bet a seat
    assert table.balances == {"ann": START - 3500, "bob": START}
    table.deal()
    assert sum(len(s.hands[0].cards) for s in table.seats.values()) == 14


def test_bets_after_the_deal_refused() -> None:
    table = one_seat(("Th", "7c"), ("9s", "8d"))
    table.sit("bob", START)
    for who, seat in [("bob", 2), ("ann", 2), ("ann", 1)]:
        with pytest.raises(RoundError, match="no more bets"):
            table.place(who, seat, 1000)
    with pytest.raises(RoundError):
        table.withdraw("ann", 1)
    with pytest.raises(RoundError):
        table.deal()
    assert table.balances == {"ann": START - 1000, "bob": START}
    # also while insurance is being offered
    table = one_seat(("Th", "7c"), ("As", "8d"))
    assert table.phase is Phase.INSURANCE
    with pytest.raises(RoundError, match="no more bets"):
        table.place("ann", 2, 1000)


def test_limits_and_credit() -> None:
    table = make(bets={}, balance=150_000)
    with pytest.raises(RoundError, match="minimum"):
        table.place("ann", 1, 499)
    receipt = table.place("ann", 1, 120_000)
    assert (receipt.accepted, receipt.returned) == (100_000, 20_000)
    assert table.balances["ann"] == 50_000
    with pytest.raises(RoundError, match="credit"):
        table.place("ann", 2, 50_001)
    with pytest.raises(GameError):
        table.place("bob", 3, 1000)
    table.withdraw("ann", 1)
    assert table.balances["ann"] == 150_000
    with pytest.raises(RoundError, match="no bets"):
        table.deal()


# -- legal actions ---------------------------------------------------------------------------

TEN_UP = ("9s", "8d")  # dealer 17 without an ace up: no insurance, stands


@pytest.mark.parametrize(("cards", "actions"), [
    (("9h", "7c"), ["hit", "stand", "double"]),
    (("Th", "2c"), ["hit", "stand", "double"]),
    (("Ah", "6c"), ["hit", "stand", "double"]),  # soft 17
    (("Ah", "9c"), ["hit", "stand", "double"]),  # soft 20
    (("8h", "8c"), ["hit", "stand", "double", "split"]),
    (("5h", "5c"), ["hit", "stand", "double", "split"]),
    (("Ah", "Ac"), ["hit", "stand", "double", "split"]),
    (("Kh", "Qc"), ["hit", "stand", "double", "split"]),  # equal value ten-value cards
    (("Th", "Jc"), ["hit", "stand", "double", "split"]),
    (("Tc", "Td"), ["hit", "stand", "double", "split"]),
])
def test_legal_actions_on_two_cards(cards: tuple[str, str], actions: list[str]) -> None:
    table = one_seat(cards, TEN_UP)
    assert table.phase is Phase.PLAYING
    assert table.legal_actions() == actions


def test_blackjack_stands_automatically() -> None:
    table = one_seat(("Ah", "Kc"), ("Ts", "6d"))
    assert table.current() is None and table.legal_actions() == []
    assert table.phase is Phase.SETTLED


def test_no_double_on_three_cards() -> None:
    table = one_seat(("2h", "3c"), TEN_UP, "4d")
    table.act("hit")
    assert table.current()[1].cards == ["2h", "3c", "4d"]
    assert table.legal_actions() == ["hit", "stand"]
    with pytest.raises(RoundError):
        table.act("double")


def test_three_card_21_stands_automatically() -> None:
    table = one_seat(("5h", "6c"), TEN_UP, "Td")
    table.act("hit")
    assert table.phase is Phase.SETTLED
    assert paid(table) == [("seat 1", 2000, "win")]  # 21 v 17


def test_split_then_no_resplit() -> None:
    table = one_seat(("8h", "8c"), TEN_UP, "8s", "3c")
    table.act("split")
    assert table.balances["ann"] == START - 2000
    seat, _ = table.current()
    assert [h.cards for h in seat.hands] == [["8h", "8s"], ["8c", "3c"]]
    assert table.legal_actions() == ["hit", "stand", "double"]  # 8 8 again: no resplit
    table.act("stand")
    assert table.current()[1].cards == ["8c", "3c"]
    assert table.legal_actions() == ["hit", "stand", "double"]


@pytest.mark.parametrize(("das", "actions"), [(True, ["hit", "stand", "double"]),
                                              (False, ["hit", "stand"])])
def test_double_after_split_setting(das: bool, actions: list[str]) -> None:
    table = one_seat(("9h", "9c"), TEN_UP, "2s", "Tc", settings={"double_after_split": das})
    table.act("split")
    assert table.legal_actions() == actions  # 9 2
    table.act("stand")
    assert table.legal_actions() == actions  # 9 T


def test_split_aces_get_one_card_each() -> None:
    table = one_seat(("Ah", "Ac"), ("9s", "8d"), "5c", "Kd")
    table.act("split")
    # no decision on either ace: the dealer (17) stands and the round settles
    assert table.current() is None and table.phase is Phase.SETTLED
    assert [h.cards for h in table.seats[1].hands] == [["Ah", "5c"], ["Ac", "Kd"]]
    # soft 16 loses to 17; ace-king after a split is 21, not a blackjack: 1:1
    assert paid(table) == [("seat 1 hand 1", 0, "lose"), ("seat 1 hand 2", 2000, "win")]
    assert table.balances["ann"] == START


@pytest.mark.parametrize(("das", "actions"), [(True, ["hit", "stand", "double"]),
                                              (False, ["hit", "stand"])])
def test_split_aces_may_draw_when_the_setting_is_off(das: bool, actions: list[str]) -> None:
    table = one_seat(("Ah", "Ac"), TEN_UP, "5c", "Kd", "3h",
                     settings={"split_aces_one_card": False, "double_after_split": das})
    table.act("split")
    assert table.current()[1].cards == ["Ah", "5c"]
    assert table.legal_actions() == actions
    table.act("hit")
    assert table.seats[1].hands[0].cards == ["Ah", "5c", "3h"]
    assert table.legal_actions() == ["hit", "stand"]
    table.act("stand")
    # the second ace has 21 (A K): it stands by itself and is paid 1:1
    assert table.phase is Phase.SETTLED
    assert paid(table) == [("seat 1 hand 1", 2000, "win"), ("seat 1 hand 2", 2000, "win")]


def test_double_and_split_need_balance() -> None:
    table = one_seat(("8h", "8c"), TEN_UP, balance=1000)  # nothing left after the bet
    assert table.legal_actions() == ["hit", "stand"]
    for action in ("double", "split"):
        with pytest.raises(RoundError):
            table.act(action)
    table = one_seat(("8h", "8c"), TEN_UP, "3c", balance=1500)  # 500 left: double for less
    assert table.legal_actions() == ["hit", "stand", "double"]
    with pytest.raises(RoundError, match="credit"):
        table.act("double")  # the full 1000 is not there
    assert table.balances["ann"] == 500 and table.current()[1].doubled == 0
    table.act("double", 500)
    assert table.seats[1].hands[0].cards == ["8h", "8c", "3c"]  # 19 v 17
    assert [(s.stake, s.paid) for s in table.settlements] == [(1500, 3000)]
    assert table.balances["ann"] == 3000


def test_illegal_actions_change_nothing() -> None:
    table = one_seat(("9h", "7c"), TEN_UP, "2d")

    def state() -> tuple[object, ...]:
        seat, hand = table.current()
        return (dict(table.balances), list(hand.cards), hand.doubled, hand.stood,
                len(seat.hands), table.phase, table.legal_actions(), table.on_table)

    before = state()
    for action, amount in [("split", None), ("surrender", None), ("", None),
                           ("double", 0), ("double", -5), ("double", 1001),
                           ("double", True), ("double", 500.0)]:
        with pytest.raises(RoundError):
            table.act(action, amount)  # type: ignore[arg-type]
        assert state() == before, (action, amount)
    table.act("hit")  # the next entered card is still the first one
    assert table.current()[1].cards == ["9h", "7c", "2d"]


def test_actions_refused_when_no_hand_is_waiting() -> None:
    table = one_seat(("9h", "7c"), ("As", "8d"))
    assert table.phase is Phase.INSURANCE and table.current() is None
    assert table.legal_actions() == []
    with pytest.raises(RoundError):
        table.act("stand")
    table = one_seat(("9h", "Tc"), TEN_UP)
    table.act("stand")
    assert table.phase is Phase.SETTLED
    with pytest.raises(RoundError):
        table.act("hit")


# -- settlement ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("player", "dealer", "expected"), [
    (("Th", "9c"), ("Ts", "8d"), ("seat 1", 2000, "win")),  # 19 v 18
    (("Th", "8c"), ("Ts", "8d"), ("seat 1", 1000, "push")),  # 18 v 18
    (("Th", "7c"), ("Ts", "8d"), ("seat 1", 0, "lose")),  # 17 v 18
    (("Ah", "7c"), ("Ts", "8d"), ("seat 1", 1000, "push")),  # soft 18 v 18
    (("Ah", "9c"), ("9s", "Kd"), ("seat 1", 2000, "win")),  # soft 20 v 19
])
def test_stand_outcomes(player: tuple[str, str], dealer: tuple[str, str],
                        expected: tuple[str, int, str]) -> None:
    table = one_seat(player, dealer)
    table.act("stand")
    assert paid(table) == [expected]
    assert table.balances["ann"] == START - 1000 + expected[1]
    assert table.house_result == 1000 - expected[1]
    table.check_conservation()


def test_player_wins_when_the_dealer_busts() -> None:
    table = one_seat(("Th", "5c"), ("Ts", "6d"), "Kc")
    table.act("stand")
    assert table.dealer == ["Ts", "6d", "Kc"]
    assert paid(table) == [("seat 1", 2000, "win")]


def test_bust_loses_even_when_the_dealer_busts() -> None:
    table = make(bets={1: 1000, 2: 1000})
    # seat 1 T 6, seat 2 T 8, dealer T (up) 6 (hole); seat 1 hits a T; the dealer draws a 9
    table.deal(stack=["Tc", "Th", "Td", "6c", "8h", "6d", "Ts", "9c"])
    table.act("hit")
    assert table.current()[0].number == 2  # the bust hand is done
    table.act("stand")
    assert table.dealer == ["Td", "6d", "9c"]  # 25: the dealer busts too
    assert paid(table) == [("seat 1", 0, "lose"), ("seat 2", 2000, "win")]
    assert table.balances["ann"] == START


@pytest.mark.parametrize("pays", ["6:5", "7:5", "1:1", "3:1"])
def test_a_blackjack_payout_under_three_to_two_is_refused(pays: str) -> None:
    """GGPoker III 2.3.1: blackjack is paid at least three to two (RULINGS: higher
    only); the refusal cites the section."""
    with pytest.raises(GameError, match=r"blackjack_pays takes one of 3:2, 8:5, 2:1.*III 2\.3\.1"):
        BlackjackConfig.from_settings({"blackjack_pays": pays})


@pytest.mark.parametrize(("pays", "stake", "expected", "rounding"), [
    ("3:2", 1000, 2500, Fraction(0)),
    ("3:2", 1001, 2502, Fraction(1, 2)),  # exact 2502.5
    ("3:2", 500, 1250, Fraction(0)),
    ("8:5", 1000, 2600, Fraction(0)),
    ("8:5", 1001, 2602, Fraction(3, 5)),  # exact 1001 * 13/5 = 2602.6
    ("2:1", 1000, 3000, Fraction(0)),
    ("2:1", 1001, 3003, Fraction(0)),
])
def test_blackjack_pays(pays: str, stake: int, expected: int, rounding: Fraction) -> None:
    table = one_seat(("Ah", "Kc"), ("Ts", "6d"), "9c",
                     settings={"blackjack_pays": pays}, stake=stake)
    assert table.phase is Phase.SETTLED
    assert table.dealer == ["Ts", "6d"]  # nothing left to decide: the dealer draws nothing
    (s,) = table.settlements
    assert (s.stake, s.paid, s.rounding, s.result) == (stake, expected, rounding, "blackjack")
    assert table.house_rounding == rounding
    assert table.balances["ann"] == START - stake + expected
    table.check_conservation()


def test_21_after_a_split_is_not_a_blackjack() -> None:
    table = one_seat(("Kh", "Kc"), ("9s", "Td"), "Ah", "Ac")
    table.act("split")
    assert table.phase is Phase.SETTLED  # both hands have 21 and stand by themselves
    assert paid(table) == [("seat 1 hand 1", 2000, "win"), ("seat 1 hand 2", 2000, "win")]
    assert table.balances["ann"] == START + 2000


def test_21_after_a_split_loses_to_a_dealer_blackjack() -> None:
    table = one_seat(("Kh", "Kc"), ("Ts", "Ad"), "Ah", "Ac")
    table.act("split")
    assert paid(table) == [("seat 1 hand 1", 0, "lose"), ("seat 1 hand 2", 0, "lose")]


def test_doubles() -> None:
    table = one_seat(("6h", "5c"), ("Ts", "8d"), "9c")  # 11, doubles, gets 9: 20 v 18
    table.act("double")
    assert table.seats[1].hands[0].cards == ["6h", "5c", "9c"]
    assert paid(table) == [("seat 1", 4000, "win")]
    assert table.settlements[0].stake == 2000
    table = one_seat(("6h", "5c"), ("Ts", "8d"), "6c")  # 17 v 18
    table.act("double")
    assert paid(table) == [("seat 1", 0, "lose")]
    assert table.balances["ann"] == START - 2000


def test_double_for_less() -> None:
    table = one_seat(("6h", "5c"), ("Ts", "8d"), "9c")
    table.act("double", 400)
    assert table.phase is Phase.SETTLED  # one card only
    (s,) = table.settlements
    assert (s.stake, s.paid, s.result) == (1400, 2800, "win")
    assert table.balances["ann"] == START + 1400


def test_double_one_card_then_stands_even_under_21() -> None:
    table = one_seat(("2h", "3c"), ("Ts", "8d"), "4c")
    table.act("double")
    assert table.seats[1].hands[0].cards == ["2h", "3c", "4c"]  # 9, no more decisions
    assert paid(table) == [("seat 1", 0, "lose")]


# -- insurance and the dealer's blackjack -------------------------------------------------------


def test_insurance_limited_to_half_the_bet() -> None:
    table = one_seat(("Th", "9c"), ("As", "Kd"), stake=1001)
    assert table.phase is Phase.INSURANCE and table.insurance_pending() == [1]
    for amount in (501, 1001, -1, True):
        with pytest.raises(RoundError):
            table.insure(1, amount)  # type: ignore[arg-type]
    assert table.balances["ann"] == START - 1001
    with pytest.raises(RoundError):
        table.insure(2, 0)  # no bet in seat 2
    table.insure(1, 500)
    with pytest.raises(RoundError):
        table.insure(1, 0)  # answered already


def test_insurance_needs_balance() -> None:
    table = one_seat(("Th", "9c"), ("As", "7d"), balance=1200)
    with pytest.raises(RoundError, match="credit"):
        table.insure(1, 500)
    assert table.balances["ann"] == 200 and table.phase is Phase.INSURANCE
    table.insure(1, 200)  # less than half is allowed
    assert table.balances["ann"] == 0


def test_insurance_not_offered_without_an_ace() -> None:
    table = one_seat(("Th", "9c"), ("Ks", "Ad"))
    assert table.phase is Phase.PLAYING
    with pytest.raises(RoundError, match="ace"):
        table.insure(1, 500)


def test_dealer_blackjack_under_an_ace() -> None:
    table = make(bets={1: 1000, 2: 1000, 3: 1000, 4: 1000})
    # seat 1 A K (blackjack), seat 2 T 9, seat 3 T 9 insured, seat 4 T 9 insured for less;
    # dealer A (up) K (hole)
    table.deal(stack=["Ah", "Th", "Tc", "Td", "As", "Kc", "9h", "9c", "9d", "Kd"])
    assert table.phase is Phase.INSURANCE
    table.insure(1, 0)
    table.insure(2, 0)
    table.insure(3, 500)
    table.insure(4, 200)
    # the hole card is checked after insurance: the round ends, nothing is played
    assert table.phase is Phase.SETTLED and table.current() is None
    assert table.dealer == ["As", "Kd"]
    assert paid(table) == [
        ("seat 1", 1000, "push"),  # blackjack against blackjack
        ("seat 2", 0, "lose"),
        ("seat 3 insurance", 1500, "win"),  # 2:1
        ("seat 3", 0, "lose"),
        ("seat 4 insurance", 600, "win"),
        ("seat 4", 0, "lose"),
    ]
    # insured for half: the bet and the insurance come to nothing lost
    assert table.balances["ann"] == START - 4000 - 700 + 1000 + 1500 + 600
    table.check_conservation()


def test_insurance_lost_when_the_dealer_has_no_blackjack() -> None:
    table = one_seat(("Th", "Tc"), ("As", "7d"))
    table.insure(1, 500)
    assert table.phase is Phase.PLAYING
    assert table.on_table == 1500
    table.check_conservation()
    table.act("stand")
    assert table.dealer == ["As", "7d"]  # soft 18 stands
    assert paid(table) == [("seat 1 insurance", 0, "lose"), ("seat 1", 2000, "win")]
    assert table.balances["ann"] == START + 500


def test_player_blackjack_under_an_ace_without_dealer_blackjack() -> None:
    table = one_seat(("Ah", "Kc"), ("As", "7d"))
    table.insure(1, 0)
    assert table.phase is Phase.SETTLED
    assert paid(table) == [("seat 1", 2500, "blackjack")]


def two_seats_under_a_ten(setting: str) -> BlackjackTable:
    """Seat 1 doubles 11 (gets a K: 21), seat 2 splits 8s and stands on both, seat 3 has a
    blackjack, seat 4 stands on 20; the dealer has T up and an ace in the hole."""
    table = make({"dealer_blackjack_under_ten": setting},
                 bets={1: 1000, 2: 1000, 3: 1000, 4: 1000})
    table.deal(stack=["6h", "8h", "Ah", "Th", "Td", "5c", "8c", "Kc", "Jd", "Ad",
                      "Ks", "Tc", "Qs"])
    assert table.phase is Phase.PLAYING  # no peek under a ten
    table.act("double")
    table.act("split")
    table.act("stand")
    table.act("stand")
    table.act("stand")  # seat 4 (seat 3's blackjack is skipped)
    assert table.phase is Phase.SETTLED
    assert table.dealer == ["Td", "Ad"]
    return table


def test_dealer_blackjack_under_a_ten_takes_all() -> None:
    table = two_seats_under_a_ten("takes_all")
    assert paid(table) == [
        ("seat 1", 0, "lose"),  # doubled 21 loses to a blackjack
        ("seat 2 hand 1", 0, "lose"),
        ("seat 2 hand 2", 0, "lose"),
        ("seat 3", 1000, "push"),
        ("seat 4", 0, "lose"),
    ]
    assert table.balances["ann"] == START - 5000  # 6000 staked, the blackjack's 1000 back
    table.check_conservation()


def test_dealer_blackjack_under_a_ten_original_only() -> None:
    table = two_seats_under_a_ten("original_only")
    assert [(s.spot, s.stake, s.paid) for s in table.settlements] == [
        ("seat 1", 2000, 1000),  # the double comes back
        ("seat 2 hand 1", 1000, 0),  # the original bet
        ("seat 2 hand 2", 1000, 1000),  # the split stake comes back
        ("seat 3", 1000, 1000),  # blackjack pushes
        ("seat 4", 1000, 0),
    ]
    assert table.balances["ann"] == START - 3000
    table.check_conservation()


@pytest.mark.parametrize(("setup", "stack", "action", "expected"), [
    # split 8s: hand 1 stands on 18, hand 2 (8 5) hits a K: 23, bust. The dealer's
    # blackjack costs the original bet only, as if the dealer had looked at once.
    ("split", ["8h", "Ts", "8c", "Ad", "Tc", "5c", "Kd"], ["split", "stand", "hit"],
     [("seat 1 hand 1", 0, "lose"), ("seat 1 hand 2", 1000, "push")]),
    # 12 doubled, gets a K: 22, bust: the double comes back, the bet is lost
    ("double", ["7h", "Ts", "5c", "Ad", "Kd"], ["double"], [("seat 1", 1000, "lose")]),
])
def test_original_only_costs_exactly_the_original_bet(
        setup: str, stack: list[str], action: list[str],
        expected: list[tuple[str, int, str]]) -> None:
    table = make({"dealer_blackjack_under_ten": "original_only"})
    table.deal(stack=stack)
    for a in action:
        table.act(a)
    assert table.phase is Phase.SETTLED
    assert paid(table) == expected


def test_non_blackjack_21_loses_to_dealer_blackjack() -> None:
    table = one_seat(("7h", "4c"), ("Ts", "Ad"), "Kc")
    table.act("hit")  # 21 with three cards
    assert paid(table) == [("seat 1", 0, "lose")]


# -- the dealer's drawing ------------------------------------------------------------------------


@pytest.mark.parametrize(("dealer", "draws", "final"), [
    (("Ts", "6d"), ["Ac"], ["Ts", "6d", "Ac"]),  # 16 draws; T 6 A is hard 17
    (("Ts", "7d"), ["Ac"], ["Ts", "7d"]),  # hard 17 stands
    (("6s", "Ad"), ["Ac"], ["6s", "Ad"]),  # soft 17 stands
    (("5s", "Ad"), ["Tc", "2h", "9c"], ["5s", "Ad", "Tc", "2h"]),  # soft 16, hard 16, 18
    (("2s", "3d"), ["2c", "Ah", "9c"], ["2s", "3d", "2c", "Ah"]),  # 5, 7, soft 18
    (("Ts", "2d"), ["4c", "Kh"], ["Ts", "2d", "4c", "Kh"]),  # 12, 16, 26 bust
    (("9s", "2d"), ["Ac", "5h", "Kh"], ["9s", "2d", "Ac", "5h"]),  # 11, 12, 17
])
def test_dealer_draws_to_16_and_stands_on_all_17s(dealer: tuple[str, str], draws: list[str],
                                                   final: list[str]) -> None:
    table = one_seat(("Th", "8c"), dealer, *draws)
    table.act("stand")
    assert table.dealer == final


def test_dealer_stands_on_soft_17_under_an_ace() -> None:
    table = one_seat(("Th", "8c"), ("As", "6d"), "5c")
    table.insure(1, 0)
    table.act("stand")
    assert table.dealer == ["As", "6d"]
    assert paid(table) == [("seat 1", 2000, "win")]  # 18 v soft 17


def test_dealer_draws_nothing_when_every_hand_is_bust_or_blackjack() -> None:
    table = make(bets={1: 1000, 2: 1000})
    # seat 1 A K, seat 2 T 6 hits a K; dealer T 6 would draw but nothing is left to decide
    table.deal(stack=["Ah", "Th", "Td", "Kc", "6h", "6d", "Ks", "5c"])
    table.act("hit")
    assert table.phase is Phase.SETTLED
    assert table.dealer == ["Td", "6d"]
    assert paid(table) == [("seat 1", 2500, "blackjack"), ("seat 2", 0, "lose")]


def test_dealer_draws_when_a_21_is_left() -> None:
    table = one_seat(("7h", "4c"), ("Ts", "6d"), "Kc", "5s")
    table.act("hit")  # 21 (not a blackjack) still needs the dealer's hand
    assert table.dealer == ["Ts", "6d", "5s"]
    assert paid(table) == [("seat 1", 1000, "push")]  # 21 v 21


# -- entered cards running out ------------------------------------------------------------------


def test_double_without_a_card_changes_nothing() -> None:
    table = one_seat(("6h", "5c"), ("Ts", "7d"))  # no card entered for the double
    for _ in range(2):
        with pytest.raises(RoundError):
            table.act("double")
        assert table.balances["ann"] == START - 1000
        assert table.current()[1].doubled == 0
        table.check_conservation()


# -- rounds, the shoe and money ------------------------------------------------------------------


def test_next_round_clears_the_table() -> None:
    table = one_seat(("Th", "9c"), ("Ts", "8d"))
    with pytest.raises(RoundError):
        table.next_round()  # still playing
    table.act("stand")
    assert table.next_round() is False  # the stack used no shoe cards
    assert table.phase is Phase.BETTING and table.seats == {} and table.dealer == []
    table.place("ann", 1, 1000)
    table.deal()
    assert table.rounds_played == 2


def test_reshuffle_after_the_cut_card() -> None:
    table = make({"decks": "2", "cut_decks_from_back": "1"}, bets={})
    rounds = shuffled = 0
    while shuffled < 2:
        table.place("ann", 1, 500)
        table.deal()
        while table.phase is not Phase.SETTLED:
            if table.phase is Phase.INSURANCE:
                table.insure(1, 0)
            else:
                table.act("stand")
        end = table.history[-1]["shoe_positions"][1]
        cut_out = 104 - end <= 52  # the cut card one deck from the back came out
        before = table.shoe.shuffles
        assert table.next_round() is cut_out
        assert table.shoe.shuffles == before + cut_out
        shuffled += cut_out
        rounds += 1
    assert len(table.shuffle_log) == 3
    assert rounds > 4


def test_cut_card_at_the_back_never_runs_the_shoe_dry() -> None:
    with pytest.raises(GameError, match="cut_decks_from_back takes a whole number from 1"):
        make({"decks": "1", "cut_decks_from_back": "0"}, bets={}, seed=3)
    table = make({"decks": "2", "cut_decks_from_back": "1"}, bets={}, seed=3)
    for _ in range(40):
        table.place("ann", 1, 500)
        table.deal()
        while table.phase is not Phase.SETTLED:
            if table.phase is Phase.INSURANCE:
                table.insure(1, 0)
            else:
                table.act("hit" if "hit" in table.legal_actions() else "stand")
        table.next_round()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_money_and_cards_over_random_play(seed: int, data: st.DataObject) -> None:
    table = BlackjackTable(SeededRng(seed), BlackjackConfig.from_settings(
        {"decks": "2", "cut_decks_from_back": "1",
         "double_after_split": data.draw(st.booleans(), label="das"),
         "split_aces_one_card": data.draw(st.booleans(), label="one card"),
         "dealer_blackjack_under_ten": data.draw(st.sampled_from(["takes_all",
                                                                   "original_only"]))}))
    wallets = {"ann": 300_000, "bob": 4_000}
    for name, balance in wallets.items():
        table.sit(name, balance)
    brought = sum(wallets.values())

    def conserved() -> None:
        table.check_conservation()
        assert sum(table.balances.values()) + table.house_result + table.on_table == brought
        assert all(b >= 0 for b in table.balances.values())

    for _ in range(data.draw(st.integers(1, 12), label="rounds")):
        for seat in data.draw(st.sets(st.integers(1, 7), min_size=1, max_size=4),
                              label="seats"):
            who = data.draw(st.sampled_from(sorted(wallets)), label="who")
            before = table.balances[who]
            try:
                table.place(who, seat, data.draw(st.integers(1, 120_000), label="stake"))
            except RoundError:
                assert table.balances[who] == before  # refused: nothing taken
            conserved()
        if not table.seats:
            continue
        table.deal()
        conserved()
        while table.phase is not Phase.SETTLED:
            if table.phase is Phase.INSURANCE:
                seat = table.insurance_pending()[0]
                bet = table.seats[seat].bet
                try:
                    table.insure(seat, data.draw(st.integers(0, bet // 2), label="insure"))
                except RoundError:
                    table.insure(seat, 0)
            else:
                actions = table.legal_actions()
                assert actions and "stand" in actions
                action = data.draw(st.sampled_from(actions), label="action")
                amount = None
                if action == "double":
                    amount = data.draw(st.none() | st.integers(1, table.current()[1].stake),
                                       label="double")
                try:
                    table.act(action, amount)
                except RoundError:
                    assert action == "double"  # only a double for more than the balance
                    table.act("stand")
            conserved()
        assert table.on_table == 0
        table.next_round()
        conserved()
    # every card dealt in a round is the shoe's next card, from the recorded shuffle, and no
    # shuffle gives out a card more often than its two decks hold
    per_shuffle = {e["shuffle"]: Counter(e["burned"]) for e in table.shuffle_log}
    for record in table.history:
        entry = next(e for e in table.shuffle_log if e["shuffle"] == record["shuffle"])
        start, end = record["shoe_positions"]
        events = [e.split()[1] for e in record["events"] if e.startswith("card ")]
        assert "".join(events) == entry["order"][2 * start:2 * end]
        dealt = [c for s in record["seats"] for h in s["hands"] for c in h["cards"]]
        assert Counter(dealt) + Counter(record["dealer"]) == Counter(events)
        per_shuffle[record["shuffle"]].update(events)
    for counts in per_shuffle.values():
        assert max(counts.values()) <= 2
