"""Chinese Poker: setting, the misset rule and 1-3 scoring (RAY 2015 1.4.1.1.13, RULINGS)."""

import pytest

from pelisali.cards import CardError
from pelisali.cards import parse_cards as p
from pelisali.poker.chinese import deal, score, set_hand, settle
from pelisali.rng import SeededRng

ANN = set_hand(p("2c 2d 3h"), p("9s 9h 9d 4c 4d"), p("As Ks Qs Js Ts"))  # pair, full, royal
BOB = set_hand(p("Ac Kd 7h"), p("8s 8h 5d 5c 6d"), p("Qh Qd Qc 3c 3d"))  # ace high, 2 pair, full
# front pair of aces above a middle of one pair: misset
MISSET = set_hand(p("Ah Ad 4h"), p("Kh Kc 6h 7s 2h"), p("Th Tc Td 8d 8c"))


def test_scoring_one_and_three_points() -> None:
    assert score(ANN, BOB) == 3 and score(BOB, ANN) == -3  # all three hands
    # cid wins the front and the back, loses the middle: 2 to 1 is one point
    cid = set_hand(p("3s 3h 2h"), p("7c 7d Ts 4s 5h"), p("9c 9h 9s 9d Jc"))
    assert not cid.misset
    assert score(cid, BOB) == 1 and score(BOB, cid) == -1


def test_a_tied_hand_counts_for_neither() -> None:
    a = set_hand(p("2c 3d 5h"), p("9s 9h 4d 6c 7d"), p("As Ks Qs Js 8s"))
    b = set_hand(p("2d 3c 5s"), p("9d 9c 4h 6d 7c"), p("Ah Kh Qh Jh 8h"))
    assert score(a, b) == 0  # every hand ties


def test_misset_hands() -> None:
    assert MISSET.misset and not ANN.misset
    assert score(MISSET, BOB) == -3 and score(BOB, MISSET) == 3
    other = set_hand(p("Qs Qh Jd"), p("Js Jh 2d 3d 4s"), p("9c 8h 7d 6s 5c"))
    assert other.misset  # front queens above the middle's jacks
    assert score(MISSET, other) == 0  # two misset hands score nothing


def test_settlement_is_zero_sum_at_the_point_value() -> None:
    net = settle({"ann": ANN, "bob": BOB}, point_value=250)
    assert net == {"ann": 750, "bob": -750}
    with pytest.raises(CardError, match="positive money value"):
        settle({"ann": ANN, "bob": BOB}, point_value=0)
    with pytest.raises(CardError, match="two players"):
        settle({"ann": ANN, "ann2": ANN}, point_value=1)


def test_bad_settings_and_deals() -> None:
    with pytest.raises(CardError, match="front of 3"):
        set_hand(p("2c 2d"), p("9s 9h 9d 4c 4d"), p("As Ks Qs Js Ts"))
    with pytest.raises(CardError, match="must all differ"):
        set_hand(p("2c 2d 3h"), p("2c 9h 9d 4c 4d"), p("As Ks Qs Js Ts"))
    hands = deal(SeededRng(1), 4)
    assert all(len(h) == 13 for h in hands) and len({c for h in hands for c in h}) == 52
    with pytest.raises(CardError, match="two to four"):
        deal(SeededRng(1), 5)


def test_chinese_table_buy_in_covers_a_round_and_refuses_bad_sets() -> None:
    from pelisali.poker.chinese import ChineseTable, best_set

    with pytest.raises(CardError, match="less than the 600"):
        ChineseTable(point_value=100, chips=[600, 599, 900])  # 3 points x 2 opponents
    table = ChineseTable(point_value=100, chips=[600, 600, 600])
    with pytest.raises(CardError, match="no round is in play"):
        table.place(0, best_set(p("As Ad Ah Ks Kd 2c 3c 4c 5c 7c 9h Jh Qd")))
    cards = table.deal(SeededRng(5))
    with pytest.raises(CardError, match="must be settled first"):
        table.deal(SeededRng(6))
    with pytest.raises(CardError, match="exactly the thirteen cards dealt"):
        table.place(0, best_set(cards[1]))
    table.place(0, best_set(cards[0]))
    with pytest.raises(CardError, match="already set"):
        table.place(0, best_set(cards[0]))
    good = best_set(cards[1])
    misset = set_hand(good.front, good.back, good.middle)  # the stronger five in the middle
    assert misset.misset
    table.place(1, misset)
    table.place(2, best_set(cards[2]))
    assert table.last is not None and sum(table.last.values()) == 0
    assert table.last[1] <= -600  # a misset hand loses all three hands to both others
    assert sum(table.chips) == 1800  # nothing made or lost


def test_best_set_is_never_misset() -> None:
    from pelisali.poker.chinese import best_set

    for seed in range(40):
        for cards in deal(SeededRng(seed), 4):
            hand = best_set(cards)
            assert not hand.misset
            assert sorted((*hand.front, *hand.middle, *hand.back)) == sorted(cards)
