"""The poker hand evaluator: the rulebook's ranking and tie-break text, best five of six and
seven, descriptions, the batch path, bad input, differential tests against PokerKit and the
five-card census.

Values are compared only within one ranking: higher is better, equal values tie. The
rulebook text is RAY 2016 (fi) / RAY 2015 (sv) 1.4.1.1.1 "Korttikäsien arvojärjestys" /
"Korthändernas rangordning" and RULINGS.md "Poker between players".
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from pelisali.cards import DECK, CardError, parse_cards
from pelisali.poker.batch import batch_values
from pelisali.poker.evaluate import (
    BATCH_CHUNK,
    HandValue,
    evaluate,
    high_value,
    high_values,
)
from pelisali.poker.hands import CATEGORIES, CATEGORY_SHIFT, pack
from pelisali.poker.rankings import (
    low_27_value,
    low_a5_eight_value,
    low_a5_value,
    omaha_best,
    soko_category,
    soko_value,
)

# --------------------------------------------------------------------------------------
# helpers


def idx(text: str) -> list[int]:
    return [DECK.index(c) for c in parse_cards(text)]


def hand(text: str, ranking: str = "high", board: str = "",
         exactly_two: bool = False) -> HandValue:
    result = evaluate(parse_cards(text), ranking, board=parse_cards(board) if board else (),
                      exactly_two=exactly_two)
    assert result is not None
    return result


def val(text: str, ranking: str = "high") -> int:
    return hand(text, ranking).value


def ranks_of(cards: Sequence[str]) -> str:
    return "".join(c[0] for c in cards)


def deal(rng: np.random.Generator, n: int, k: int) -> npt.NDArray[np.int8]:
    """n rows of k distinct cards each (one fresh deck a row)."""
    deck = np.tile(np.arange(52, dtype=np.int8), (n, 1))
    return rng.permuted(deck, axis=1)[:, :k]


def names(row: Sequence[int]) -> list[str]:
    return [DECK[c] for c in row]


# --------------------------------------------------------------------------------------
# 1.4.1.1.1: the high ranking and its tie-breaks

HIGH_BETTER = [
    # Korkein kortti / Högsta kortet: the highest card, then the next highest, and so on.
    ("As Kd 9c 5h 3s", "Ks Qd Jc 9h 7s", "high card: the highest card"),
    ("As Kd 9c 5h 3s", "Ad Qs Jc 9h 7s", "high card: the second card"),
    ("As Kd 9c 5h 3s", "Ad Ks 8c 7h 6s", "high card: the third card"),
    ("As Kd 9c 5h 3s", "Ad Ks 9d 4h 3c", "high card: the fourth card"),
    ("As Kd 9c 5h 3s", "Ad Ks 9d 5c 2h", "high card: the fifth card"),
    # Pari / Par: the highest pair; equal pairs by the third, fourth, fifth card.
    ("2s 2d Ac Kh Qs", "As Kd Qc Jh 9s", "pair beats high card"),
    ("Js Jd 4c 3h 2s", "Ts Td Ac Kh Qs", "pair: the higher pair, whatever the kickers"),
    ("Js Jd Ac 3h 2s", "Jh Jc Kc Qh Ts", "pair: the third card"),
    ("Js Jd Ac 9h 2s", "Jh Jc Ad 8h 7s", "pair: the fourth card"),
    ("Js Jd Ac 9h 3s", "Jh Jc Ad 9d 2s", "pair: the fifth card"),
    # Kaksi paria / Två par: the higher pair, then the second pair, then the fifth card.
    ("3s 3d 2c 2h 4s", "As Ad Kc Qh Js", "two pair beats a pair"),
    ("As Ad 3c 3h 2s", "Ks Kd Qc Qh Js", "two pair: the higher pair"),
    ("As Ad 4c 4h 2s", "Ah Ac 3c 3h Ks", "two pair: the second pair"),
    ("As Ad 4c 4h 6s", "Ah Ac 4d 4s 5s", "two pair: the fifth card"),
    # Kolmoset / Triss: the higher three, then the highest other cards.
    ("2s 2d 2c 4h 3s", "As Ad Kc Kh Qs", "three of a kind beats two pair"),
    ("8s 8d 8c 3h 2s", "7s 7d 7c Ah Ks", "three of a kind: the higher three"),
    ("7s 7d 7c Ah 2s", "7h 7d 7c Kh Qs", "three of a kind: the highest kicker"),
    ("7s 7d 7c Ah 3s", "7h 7d 7c Ad 2s", "three of a kind: the second kicker"),
    # Suora / Stege: the highest straight; ace 1 or 14, so A-2-3-4-5 is the lowest.
    ("5s 4d 3c 2h As", "As Ad Ac Kh Qs", "straight (even the wheel) beats three aces"),
    ("As Kd Qc Jh Ts", "Ks Qd Jc Th 9s", "straight: ace high is the highest"),
    ("7s 6d 5c 4h 3s", "6s 5d 4c 3h 2s", "straight: the higher top card"),
    ("6s 5d 4c 3h 2s", "5s 4d 3c 2h As", "straight: the wheel is the lowest straight"),
    # Väri / Färg: the highest card, then the second, third, fourth and fifth.
    ("2h 3h 4h 5h 7h", "As Kd Qc Jh Ts", "flush beats a straight"),
    ("Ah Kh 9h 5h 3h", "Kd Qd Jd 9d 7d", "flush: the highest card"),
    ("Ah Kh 9h 5h 3h", "Ad Qd Jd 9d 7d", "flush: the second card"),
    ("Ah Kh 9h 5h 3h", "Ad Kd 8d 7d 6d", "flush: the third card"),
    ("Ah Kh 9h 5h 3h", "Ad Kd 9d 4d 3d", "flush: the fourth card"),
    ("Ah Kh 9h 5h 3h", "Ad Kd 9d 5d 2d", "flush: the fifth card"),
    # Täyskäsi / Kåk: the higher three, then the higher pair.
    ("2s 2d 2c 3h 3s", "Ah Kh 9h 5h 3h", "full house beats a flush"),
    ("3s 3d 3c 2h 2s", "2s 2d 2c Ah As", "full house: the three decide first"),
    ("Ks Kd Kc Ah As", "Kh Kd Kc Qh Qs", "full house: then the pair"),
    # Neloset / Fyrtal: the higher four, then the fifth card.
    ("2s 2d 2c 2h 3s", "Ks Kd Kc Ah As", "four of a kind beats a full house"),
    ("9s 9d 9c 9h 2s", "8s 8d 8c 8h As", "four of a kind: the higher four"),
    ("9s 9d 9c 9h As", "9s 9d 9c 9h Ks", "four of a kind: the fifth card"),
    # Värisuora / Färgstege: the highest wins; A-10 (royal flush) is the best hand.
    ("5d 4d 3d 2d Ad", "As Ad Ac Ah Ks", "straight flush (even five high) beats four aces"),
    ("Ks Qs Js Ts 9s", "Qh Jh Th 9h 8h", "straight flush: the higher top card"),
    ("6d 5d 4d 3d 2d", "5c 4c 3c 2c Ac", "straight flush: five high is the lowest"),
    ("As Ks Qs Js Ts", "Ks Qs Js Ts 9s", "royal flush beats king-high straight flush"),
]

HIGH_TIES = [
    ("As Kd 9c 5h 3s", "Ad Kc 9h 5s 3d", "high card"),
    ("Js Jd Ac 9h 3s", "Jh Jc Ad 9d 3c", "pair"),
    ("As Ad 4c 4h 6s", "Ah Ac 4d 4s 6d", "two pair"),
    ("Ks Qd Jc Th 9s", "Kh Qc Jd Ts 9h", "straight"),
    ("5s 4d 3c 2h As", "5h 4c 3d 2s Ad", "the wheel"),
    ("Ah Kh 9h 5h 3h", "Ac Kc 9c 5c 3c", "flush"),
    ("9s 8s 7s 6s 5s", "9d 8d 7d 6d 5d", "straight flush"),
    ("As Ks Qs Js Ts", "Ah Kh Qh Jh Th", "royal flush"),
    # Only the best five cards count: the sixth and seventh cards never break a tie.
    ("As Ad Kc Qh Js 3c 2d", "Ah Ac Kd Qs Jh 4c 3d", "seven cards: pair, the sixth card"),
    ("Ah Kh 9h 5h 3h 2h Qd", "Ac Kc 9c 5c 3c 4d 2s", "seven cards: flush, the sixth card"),
]


@pytest.mark.parametrize(("better", "worse", "rule"), HIGH_BETTER,
                         ids=[r for _, _, r in HIGH_BETTER])
def test_rulebook_high_ranking(better: str, worse: str, rule: str) -> None:
    assert val(better) > val(worse), rule
    assert high_value(idx(better)) == val(better)


@pytest.mark.parametrize(("one", "other", "rule"), HIGH_TIES, ids=[r for _, _, r in HIGH_TIES])
def test_rulebook_equal_hands_tie(one: str, other: str, rule: str) -> None:
    assert val(one) == val(other), rule


def test_categories_in_rulebook_order() -> None:
    chain = ["Ac Qd 9s 4h 2c", "2c 2d 3h 4s 5d", "2c 2d 3h 3s 4d", "2c 2d 2h 3s 4d",
             "5c 4d 3h 2s Ac", "2c 3c 4c 5c 7c", "2c 2d 2h 3s 3d", "2c 2d 2h 2s 3d",
             "5c 4c 3c 2c Ac"]
    # each is the weakest hand of its category; the strongest of the one below loses to it
    best_below = [None, "Ac Kd Qs Jh 9c", "Ac Ad Ks Qh Jc", "Ac Ad Ks Kh Qc",
                  "Ac Ad Ah Ks Qc", "Ac Kd Qh Js Tc", "Ac Kc Qc Jc 9c", "Ac Ad Ah Ks Kc",
                  "Ac Ad Ah As Kc"]
    for i, (text, below) in enumerate(zip(chain, best_below, strict=True)):
        h = hand(text)
        assert h.category == CATEGORIES[i]
        if below is not None:
            assert val(below) < h.value, (below, text)
            assert hand(below).category == CATEGORIES[i - 1]


def test_royal_flush_is_the_best_hand_and_holdem_board_plays() -> None:
    royal = val("As Ks Qs Js Ts")
    assert royal == pack(8, [12])
    # both players play the board: a tie
    board = "As Ks Qs Js Ts"
    assert hand("2c 3d", board=board).value == hand("9h 9d", board=board).value == royal
    assert hand("2c 3d", board=board).describe("fi") == "Royal flush"


# --------------------------------------------------------------------------------------
# Sökö (RAY 2016 1.4.1.1.1; RULINGS: four-straight and four-flush between pair and two pair)

SOKO_BETTER = [
    ("9s 8d 7c 6h 2s", "As Ad Kc 9h 5s", "four-straight beats a pair of aces"),
    ("As 2d 3c 4h 9s", "Ks Kd 7c 4h 2s", "A-2-3-4 is a four-straight and beats a pair"),
    ("2h 3h 4h 6h 8c", "As Kd Qc Jh 9s", "lowest four-flush beats the highest four-straight"),
    ("3c 3d 2h 2s 4c", "Ah Kh Qh Jh 9c", "two pair beats a four-flush"),
    ("Ts 9d 8c 7h 2s", "9s 8d 7c 6h Ks", "four-straight: the higher four, not the fifth card"),
    ("9s 8d 7c 6h Ks", "9h 8c 7d 6s Qs", "four-straight: the fifth card breaks the tie"),
    ("5s 4d 3c 2h 9s", "As 2d 3c 4h Ks", "A-2-3-4 is the lowest four-straight"),
    ("Ah 9h 5h 2h 3c", "Kh Qh Jh 9h Ac", "four-flush: the highest card"),
    ("Ah Kh 4h 3h 2c", "As Qs 7s 5s 2d", "four-flush: the second card"),
    ("Ah Jh 8h 4h Kc", "As Js 8s 4s Qd", "four-flush: the fifth card breaks the tie"),
    ("9s 8d 7c 6h 6s", "As Ad Kc 9h 5s", "a pair with four in a row counts as the four-straight"),
    ("Ts 9d 8c 7h 6s", "3c 3d 2h 2s 4c", "a straight beats two pair"),
    ("2c 2d 5h 9s Jc", "Ac Kd Qh 9s 7c", "a pair beats high card"),
]

SOKO_TIES = [
    ("9s 8d 7c 6h Ks", "9h 8c 7d 6s Kd", "four-straight"),
    ("Ah Jh 8h 4h Kc", "As Js 8s 4s Kd", "four-flush"),
    ("Ac Ad 8h 8s 3c", "Ah As 8c 8d 3d", "two pair"),
]


@pytest.mark.parametrize(("better", "worse", "rule"), SOKO_BETTER,
                         ids=[r for _, _, r in SOKO_BETTER])
def test_rulebook_soko_ranking(better: str, worse: str, rule: str) -> None:
    assert val(better, "soko") > val(worse, "soko"), rule
    assert soko_value(idx(better)) == val(better, "soko")


@pytest.mark.parametrize(("one", "other", "rule"), SOKO_TIES, ids=[r for _, _, r in SOKO_TIES])
def test_soko_equal_hands_tie(one: str, other: str, rule: str) -> None:
    assert val(one, "soko") == val(other, "soko"), rule


@pytest.mark.parametrize(("text", "category"), [
    ("9s 8d 7c 6h Ks", "four_straight"),
    ("As 2d 3c 4h 9s", "four_straight"),
    ("Qs Kd Ac 2h 7s", "high_card"),  # no wrap round the ace
    ("Ah Kh 7h 2h 2c", "four_flush"),
    ("Ah Kh Qh Jh 9c", "four_flush"),  # four-flush and four-straight: the flush counts
    ("9s 8d 7c 6h 6s", "four_straight"),
    ("Kc Kd 8h 4s 2c", "pair"),
    ("Kc Kd 8h 8s 2c", "two_pair"),
    ("Ts 9d 8c 7h 6s", "straight"),
    ("Ah Kh 7h 2h 3h", "flush"),
])
def test_soko_categories(text: str, category: str) -> None:
    h = hand(text, "soko")
    assert h.category == category
    assert soko_category(h.value) == category


def test_soko_best_five_of_seven() -> None:
    # seven-card Sökö: a four-flush hiding in seven cards beats the pair
    h = hand("Kc Kd 2h 5h 9h Jh 3s", "soko")
    assert h.category == "four_flush"
    assert sorted(h.cards) == sorted(["Jh", "9h", "5h", "2h", "Kd"]) or \
        sorted(h.cards) == sorted(["Jh", "9h", "5h", "2h", "Kc"])
    assert soko_value(idx(" ".join(h.cards))) == h.value


def _ref_high_key(ranks: list[int], suits: list[int]) -> tuple[int, ...]:
    """An independent five-card high key from the rulebook text (category, tie-breaks)."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    ordered = tuple(r for r, _ in groups)
    shape = tuple(c for _, c in groups)
    distinct = sorted(counts, reverse=True)
    straight_top = -1
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        straight_top = distinct[0]
    elif distinct == [12, 3, 2, 1, 0]:
        straight_top = 3
    flush = len(set(suits)) == 1
    if straight_top >= 0 and flush:
        return (8, straight_top)
    if shape == (4, 1):
        return (7, *ordered)
    if shape == (3, 2):
        return (6, *ordered)
    if flush:
        return (5, *distinct)
    if straight_top >= 0:
        return (4, straight_top)
    return ({(3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1, (1, 1, 1, 1, 1): 0}[shape], *ordered)


def _ref_soko_key(cards: Sequence[int]) -> tuple[int, ...]:
    """Sökö from the rulebook text: four-straight and four-flush between pair and two pair."""
    ranks = [c >> 2 for c in cards]
    suits = [c & 3 for c in cards]
    high = _ref_high_key(ranks, suits)
    if high[0] >= 2:
        return (high[0] + 2, *high[1:])
    for suit in range(4):
        if suits.count(suit) == 4:
            four = sorted((r for r, s in zip(ranks, suits, strict=True) if s == suit),
                          reverse=True)
            fifth = next(r for r, s in zip(ranks, suits, strict=True) if s != suit)
            return (3, *four, fifth)
    present = set(ranks)
    for top in range(12, 1, -1):  # A-K-Q-J down to 4-3-2-A (ace 1 or 14), no wrap
        window = [top, top - 1, top - 2, top - 3] if top > 2 else [2, 1, 0, 12]
        if all(r in present for r in window):
            rest = list(ranks)
            for r in window:
                rest.remove(r)
            return (2, top, rest[0])
    return high


def test_soko_order_matches_a_reference_from_the_rulebook_text() -> None:
    rng = np.random.default_rng(2016)
    rows = deal(rng, 20_000, 5).tolist()
    ours = [soko_value(r) for r in rows]
    ref = [_ref_soko_key(r) for r in rows]
    cats = Counter(soko_category(v) for v in ours)
    assert cats["four_straight"] > 100 and cats["four_flush"] > 100
    order = sorted(range(len(rows)), key=lambda i: ours[i])
    perm = rng.permutation(len(rows))
    pairs = [*itertools.pairwise(order), *zip(perm[0::2], perm[1::2], strict=True)]
    bad = [(names(rows[i]), names(rows[j])) for i, j in pairs
           if _sign(ours[i], ours[j]) != _sign(ref[i], ref[j])]
    assert not bad, bad[:5]


# --------------------------------------------------------------------------------------
# the lows and the front hand, by rule


def test_ace_to_five_low_rules() -> None:
    wheel = val("As 2d 3c 4h 5s", "low-a5")
    assert wheel == val("Ah 2h 3h 4h 5h", "low-a5")  # straights and flushes do not count
    assert wheel > val("6s 4d 3c 2h As", "low-a5") > val("6s 5d 3c 2h As", "low-a5")
    assert val("Ks Qd Jc 9h 8s", "low-a5") > val("As Ad 2c 3h 4s", "low-a5")  # no pair first
    assert hand("As 2d 3c 4h 5s", "low-a5").category == "low:high_card"
    # seven cards (Razz): the best five
    assert hand("Ks Kd 2c 3h 4s 5d As", "low-a5").value == wheel


def test_eight_or_better_rules() -> None:
    assert evaluate(parse_cards("9s 7d 5c 3h 2s"), "low-a5-8") is None
    assert evaluate(parse_cards("8s 8d 5c 3h 2s"), "low-a5-8") is None
    assert val("8s 7d 5c 3h 2s", "low-a5-8") < val("7s 6d 5c 3h 2s", "low-a5-8")
    assert val("As 2d 3c 4h 5s", "low-a5-8") == val("As 2d 3c 4h 5s", "low-a5")
    # seven cards: five different ranks eight or lower make the low
    assert low_a5_eight_value(idx("Ks 8d 8c 7h 4s 2d As")) == val("8d 7h 4s 2d As", "low-a5")
    assert low_a5_eight_value(idx("Ks 9d 8c 7h 4s 4d As")) is None


def test_deuce_to_seven_rules() -> None:
    best = val("7s 5d 4c 3h 2s", "low-27")
    assert best > val("7s 6d 4c 3h 2s", "low-27") > val("8s 5d 4c 3h 2s", "low-27")
    assert best > val("7s 5s 4s 3s 2s", "low-27")  # a flush counts against the hand
    assert val("Ks Qd Jc 9h 7s", "low-27") > val("6s 5d 4c 3h 2s", "low-27")  # straight counts
    assert val("As Kd Qc Jh 9s", "low-27") > val("2s 2d 3c 4h 5s", "low-27")


def test_deuce_to_seven_a2345_is_ace_high_not_a_straight() -> None:
    wheel = hand("As 2d 3c 4h 5s", "low-27")
    assert wheel.category == "low:high_card"
    assert wheel.value > val("2c 2d 7h 8s 9c", "low-27")  # beats any pair
    assert wheel.value < val("Kc 5d 4h 3s 2c", "low-27")  # loses to king high
    assert wheel.value == val("As 5d 4c 3h 2s", "low-27")


def test_front_hand_has_no_straights_or_flushes() -> None:
    assert hand("Qs Jd Th", "front").category == "high_card"
    assert hand("2h 5h 9h", "front").category == "high_card"
    assert hand("Ah Ad Ks", "front").category == "pair"
    assert hand("2h 2d 2s", "front").category == "three_of_a_kind"
    assert val("2h 2d 2s", "front") > val("Ah Ad Ks", "front") > val("Ah Ad Qs", "front")
    assert val("Ah Ad Ks", "front") > val("Kh Kd As", "front") > val("As Kd Qh", "front")
    # comparable with five-card high values: three deuces lose to any straight
    assert val("2h 2d 2s", "front") < val("5c 4d 3h 2s Ac")


# --------------------------------------------------------------------------------------
# best five of six and seven, HandValue.cards and categories


@pytest.mark.parametrize(("text", "category", "ranks"), [
    ("Kh Kd Ks 3c 3d 9s 2h", "full_house", "KKK33"),
    ("Ks Kd Kc 3s 3d 3c 2h", "full_house", "KKK33"),  # two threes: the higher is the three
    ("As Ad Ac Ah Ks Kd Kh", "four_of_a_kind", "AAAAK"),
    ("9s 9d 9c 9h 2s 3s", "four_of_a_kind", "99993"),
    ("Ks Kd Qs Qd Js Jd 2c", "two_pair", "KKQQJ"),  # third pair gives the fifth card
    ("Ks Kd Qs Qd 2s 2d Ac", "two_pair", "KKQQA"),
    ("5h 6h 7h 8h 9h Tc Js", "straight_flush", "98765"),  # not the jack-high straight
    ("Ah Kh Qh Jh 9h 2h", "flush", "AKQJ9"),  # six of a suit: the best five
    ("2c 3d 4h 5s 6c 7d", "straight", "76543"),
    ("As 2d 3c 4h 5s Kd", "straight", "A5432"),  # the wheel, from six
    ("As 2d 3c 4h 5s 6d Kd", "straight", "65432"),
    ("7c 7d 7s Kh 2c 9d 4s", "three_of_a_kind", "777K9"),
    ("Jc Jd 9s 4h 2c 8d 6s", "pair", "JJ986"),
    ("Ac Qd 9s 4h 2c 8d 6s", "high_card", "AQ986"),
    ("Ac Qc 9c 4c 2d 8d 6d", "high_card", "AQ986"),  # two four-flushes are no flush
])
def test_best_five_of_six_and_seven(text: str, category: str, ranks: str) -> None:
    h = hand(text)
    assert h.category == category
    assert ranks_of(h.cards) == ranks
    assert len(set(h.cards)) == 5 and set(h.cards) <= set(parse_cards(text))
    assert high_value(idx(" ".join(h.cards))) == h.value


def test_lazy_evaluate_equals_the_hand_worked_out_at_once() -> None:
    """evaluate()'s high hands leave their five cards and descriptions until asked for;
    those equal the ones worked out at once from the best of every five, on random hands
    of 5 to 7 cards (a third of them four or more of one suit), split between hand and
    board at random, whichever is asked for first."""
    from pelisali.poker.describe import LANGS, describe
    from pelisali.poker.hands import five_of, value_category

    gen = np.random.default_rng(23)
    for trial in range(4000):
        size = int(gen.integers(5, 8))
        if trial % 3:
            ids = gen.choice(52, size, replace=False).tolist()
        else:
            suit = int(gen.integers(4))
            same = gen.choice(np.arange(suit, 52, 4), min(size, int(gen.integers(4, 8))),
                              replace=False).tolist()
            others = [c for c in range(52) if c not in same]
            ids = same + gen.choice(others, size - len(same), replace=False).tolist()
            gen.shuffle(ids)
        cards = [DECK[c] for c in ids]
        value = max(high_value(list(five)) for five in itertools.combinations(ids, 5))
        assert value == int(high_values([ids])[0])  # the batch path's own arithmetic
        eager = HandValue("high", value, value_category(value),
                          [DECK[c] for c in five_of(value, ids)])
        split = int(gen.integers(0, size + 1))
        lazy = evaluate(cards[:split], board=cards[split:])
        assert lazy is not None
        assert (lazy.ranking, lazy.value, lazy.category) == ("high", value, eager.category)
        assert lazy == eager and hash(lazy) == hash(eager) and not lazy < eager
        first_cards = trial % 2 == 0
        if first_cards:
            assert lazy.cards == eager.cards
        for lang in LANGS:
            assert lazy.describe(lang) == eager.describe(lang) == describe(value, lang)
            assert lazy.describe(lang) == eager.describe(lang)  # kept, not changed
        assert lazy.cards == eager.cards and set(lazy.cards) <= set(cards)
        assert high_value([DECK.index(c) for c in lazy.cards]) == value


def test_hand_values_are_read_only() -> None:
    h = hand("Kh Kd Ks 3c 3d 9s 2h")
    for name in ("value", "category", "ranking", "cards"):
        with pytest.raises(AttributeError):
            setattr(h, name, 0)
    with pytest.raises(AttributeError):
        h.other = 1  # type: ignore[attr-defined]


def test_omaha_exactly_two_hole_cards() -> None:
    # four hearts in the hole and one on the board make no flush in Omaha
    h = hand("Ah Kh Qh Jh", board="Th 2c 3d 8s 9c", exactly_two=True)
    assert h.category == "straight" and h.cards == ("Qh", "Jh", "Th", "9c", "8s")
    assert hand("Ah Kh Qh Jh", board="Th 2c 3d 8s 9c").category == "straight_flush"
    # the board cannot play on its own
    h = hand("2c 3d 4h 7c", board="As Ks Qs Js Ts", exactly_two=True)
    assert h.category == "high_card" and ranks_of(h.cards) == "AKQ74"
    assert omaha_best(idx("2c 3d 4h 7c"), idx("As Ks Qs Js Ts")) == h.value


@pytest.mark.parametrize("ranking", ["high", "soko", "low-a5", "low-27"])
def test_handvalue_cards_make_the_value(ranking: str) -> None:
    """For random seven cards the five returned cards make the value, which is the best of
    every five of the seven."""
    single = {"high": high_value, "soko": soko_value, "low-a5": low_a5_value,
              "low-27": low_27_value}[ranking]
    rng = np.random.default_rng(7)
    for row in deal(rng, 300, 7).tolist():
        h = evaluate(names(row), ranking)
        assert h is not None
        assert len(set(h.cards)) == 5 and set(h.cards) <= set(names(row))
        assert single(idx(" ".join(h.cards))) == h.value
        assert h.value == max(single(list(f)) for f in itertools.combinations(row, 5))


# --------------------------------------------------------------------------------------
# descriptions


@pytest.mark.parametrize(("text", "ranking", "en", "fi", "sv"), [
    ("Kh Kd Ks 3c 3d 9s 2h", "high", "Full house, kings full of threes",
     "Täyskäsi, kuninkaat ja kolmoset", "Kåk, kungar och treor"),
    ("Ah Kh Qh Jh Th", "high", "Royal flush", "Royal flush", "Royal flush"),
    ("As Ad 8c 8h 3d", "high", "Two pair, aces and eights", "Kaksi paria, ässät ja kasit",
     "Två par, ess och åttor"),
    ("Ks Qd Jc Th 9s", "high", "Straight, king high", "Suora, korkeimpana kuningas",
     "Stege, kung högst"),
    ("As 2d 3c 4h 5s", "high", "Straight, five high", "Suora, korkeimpana vitonen",
     "Stege, femma högst"),
    ("Ac Kc 9c 5c 3c", "high", "Flush, ace high", "Väri, korkeimpana ässä", "Färg, ess högst"),
    ("9d 8d 7d 6d 5d", "high", "Straight flush, nine high", "Värisuora, korkeimpana ysi",
     "Färgstege, nia högst"),
    ("9c 9d 9h 9s 2c", "high", "Four of a kind, nines", "Neloset, ysit", "Fyrtal, nior"),
    ("7c 7d 7s Kh 2c", "high", "Three of a kind, sevens", "Kolmoset, seiskat", "Triss, sjuor"),
    ("Jc Jd 9s 4h 2c", "high", "Pair, jacks", "Pari, sotilaat", "Par, knektar"),
    ("Ac Qd 9s 4h 2c", "high", "High card, ace", "Korkein kortti, ässä", "Högsta kortet, ess"),
    ("9s 8d 7c 6h Ks", "soko", "Four-card straight, nine high", "Neljän suora, korkeimpana ysi",
     "Stege med fyra kort, nia högst"),
    ("Ah Kh 7h 2h 2c", "soko", "Four-card flush, ace high", "Neljän väri, korkeimpana ässä",
     "Färg med fyra kort, ess högst"),
    ("Ac Ad 8h 8s 3c", "soko", "Two pair, aces and eights", "Kaksi paria, ässät ja kasit",
     "Två par, ess och åttor"),
])
def test_descriptions(text: str, ranking: str, en: str, fi: str, sv: str) -> None:
    h = hand(text, ranking)
    assert (h.describe("en"), h.describe("fi"), h.describe("sv")) == (en, fi, sv)


def test_description_language_is_checked() -> None:
    with pytest.raises(ValueError):
        hand("Ac Qd 9s 4h 2c").describe("de")


# --------------------------------------------------------------------------------------
# the batch path equals one at a time


@pytest.mark.parametrize(("k", "n"), [(5, 20_000), (6, 20_000), (7, 2 * BATCH_CHUNK + 123)])
def test_batch_equals_single(k: int, n: int) -> None:
    rng = np.random.default_rng(1000 + k)
    hands = deal(rng, n, k)
    batch = high_values(hands)  # threads on; the 7-card case spans three chunks
    assert batch.shape == (n,)
    assert batch.tolist() == [high_value(row) for row in hands.tolist()]
    assert np.array_equal(high_values(hands, threads=False), batch)
    assert np.array_equal(high_values(hands.astype(np.int64)), batch)
    assert np.array_equal(high_values(hands[:, ::-1]), batch)  # order and layout do not matter


def test_batch_of_lists_and_empty() -> None:
    rows = [idx("AsAdKsKd2c"), idx("9h8h7h6h5h")]
    assert high_values(rows).tolist() == [high_value(r) for r in rows]
    assert high_values(np.zeros((0, 7), dtype=np.int8)).shape == (0,)
    assert batch_values(np.zeros((0, 7), dtype=np.int8), "soko").shape == (0,)


def test_batch_tables_check_where_suits_start_to_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch tables value a five by its ranks below the rule's ``suited`` cards of one
    suit; a rule that says so wrongly (Sökö's four-card flush with ``suited`` 5) is
    refused when its tables are built, not ranked differently from one hand."""
    from pelisali.poker import batch, rankings

    monkeypatch.setitem(rankings.RULES, "soko-wrong", rankings.Rule(soko_value, 5))
    with pytest.raises(AssertionError, match="suits count below 5"):
        batch._five_tables("soko-wrong")


# --------------------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize("text", ["Ax", "1s", "As Kd Zz", "AsK", "As As", "As Kd as"])
def test_malformed_or_duplicated_cards(text: str) -> None:
    with pytest.raises(CardError):
        parse_cards(text)


@pytest.mark.parametrize(("cards", "kwargs"), [
    (["As", "As", "Kd", "Qd", "Jd"], {}),
    (["As", "Ks", "Kd", "Qd", "Jd"], {"board": ["As"]}),
    (["Xx", "Ks", "Kd", "Qd", "Jd"], {}),
    (["As", "Ks", "Kd", "Qd"], {}),
    (["As", "Ks", "Kd", "Qd", "Jd"], {"ranking": "badugi"}),
    (["As", "Ks", "Kd", "Qd"], {"board": ["2c", "2d"], "exactly_two": True, "ranking": "high"}),
    (["As", "Ks"], {"ranking": "front"}),
])
def test_evaluate_rejects_bad_hands(cards: list[str], kwargs: dict[str, Any]) -> None:
    with pytest.raises(CardError):
        evaluate(cards, **kwargs)


@pytest.mark.parametrize("bad", [
    [[0, 1, 2, 3, 52]],
    [[0, 1, 2, 3, -1]],
    np.array([[0, 1, 2, 3, 127]]),
    np.array([[0, 1, 2, 3, 51, 52, 4]]),
    [[0, 1, 2, 3]],  # four cards
    [[0, 1, 2, 3, 4, 5, 6, 7]],  # eight
    [0, 1, 2, 3, 4],  # one-dimensional
])
def test_high_values_rejects_bad_arrays(bad: Any) -> None:
    with pytest.raises(CardError):
        high_values(bad)


@pytest.mark.parametrize("bad", [
    np.array([[256, 257, 258, 259, 260]]),  # evaluates as 2c 2d 2h 2s 3c, four deuces
    np.array([[0, 1, 2, 3, 261]]),
    [[0, 1, 2, 3, 300]],
])
def test_high_values_rejects_indices_that_wrap_in_int8(bad: Any) -> None:
    with pytest.raises(CardError):
        high_values(bad)


# --------------------------------------------------------------------------------------
# differential tests against PokerKit


@pytest.fixture(scope="module")
def pk() -> Any:
    return pytest.importorskip("pokerkit")


def _sign(a: Any, b: Any) -> int:
    """Order of two values (or PokerKit hands); None (no qualifying low) is the lowest."""
    if a is None or b is None:
        return int(a is not None) - int(b is not None)
    return int(a > b) - int(a < b)


def _check_orders(ours: list[int | None], theirs: list[Any], labels: list[str],
                  rng: np.random.Generator,
                  extra_pairs: Sequence[tuple[int, int]] = ()) -> Counter[int]:
    """Compare the order of hand pairs: random pairs, the given pairs (players at one
    table), and neighbours in our sorted order. Agreement on the sorted neighbours means
    the two orders agree on every pair of the sample."""
    n = len(ours)
    perm = rng.permutation(n).tolist()
    order = sorted(range(n), key=lambda i: (ours[i] is not None, ours[i] or 0))
    pairs = [*zip(perm[0::2], perm[1::2], strict=False), *extra_pairs,
             *itertools.pairwise(order)]
    seen: Counter[int] = Counter()
    bad = []
    for i, j in pairs:
        mine, their = _sign(ours[i], ours[j]), _sign(theirs[i], theirs[j])
        seen[mine] += 1
        if mine != their:
            bad.append(f"{labels[i]} vs {labels[j]}: ours {mine:+d}, PokerKit {their:+d}")
    assert len(pairs) >= 2_000
    assert not bad, f"{len(bad)} of {len(pairs)} pairs differ: {bad[:5]}"
    return seen


def _values(rows: Sequence[Sequence[str]], ranking: str) -> list[int | None]:
    out: list[int | None] = []
    for row in rows:
        h = evaluate(row, ranking)
        out.append(None if h is None else h.value)
    return out


@pytest.mark.parametrize("k", [5, 6, 7])
def test_pokerkit_standard_high(pk: Any, k: int) -> None:
    rng = np.random.default_rng(50 + k)
    if k == 7:  # hold'em: two players on one board
        deals = deal(rng, 1_000, 9)
        arrays = np.concatenate([deals[:, [0, 1, 4, 5, 6, 7, 8]], deals[:, 2:9]])
        table = [(i, i + 1_000) for i in range(1_000)]
    else:
        arrays = deal(rng, 4_000 if k == 5 else 2_000, k)
        table = []
    rows = [names(r) for r in arrays.tolist()]
    ours = _values(rows, "high")
    assert high_values(arrays).tolist() == ours
    theirs = [pk.StandardHighHand.from_game("".join(r)) for r in rows]
    seen = _check_orders(ours, theirs, [" ".join(r) for r in rows], rng, table)
    assert seen[0] and seen[1] and seen[-1]  # ties as well as wins were compared


def test_pokerkit_omaha_high(pk: Any) -> None:
    rng = np.random.default_rng(60)
    deals = deal(rng, 1_000, 13).tolist()
    holes = [names(d[0:4]) for d in deals] + [names(d[4:8]) for d in deals]
    boards = [names(d[8:13]) for d in deals] * 2
    ours: list[int | None] = []
    for hole, board in zip(holes, boards, strict=True):
        h = evaluate(hole, board=board, exactly_two=True)
        assert h is not None
        ours.append(h.value)
        assert omaha_best(idx(" ".join(hole)), idx(" ".join(board))) == h.value
    theirs = [pk.OmahaHoldemHand.from_game("".join(h), "".join(b))
              for h, b in zip(holes, boards, strict=True)]
    labels = [f"{''.join(h)}|{''.join(b)}" for h, b in zip(holes, boards, strict=True)]
    seen = _check_orders(ours, theirs, labels, rng, [(i, i + 1_000) for i in range(1_000)])
    assert seen[0] and seen[1] and seen[-1]


def _is_a5432(row: Sequence[str]) -> bool:
    return sorted(c[0] for c in row) == sorted("A2345")


def test_pokerkit_deuce_to_seven(pk: Any) -> None:
    rng = np.random.default_rng(27)
    rows = [names(r) for r in deal(rng, 4_000, 5).tolist()]
    # (A-5-4-3-2, ace high in deuce-to-seven, has its own test below)
    ours = _values(rows, "low-27")
    theirs = [pk.StandardLowHand("".join(r)) for r in rows]
    seen = _check_orders(ours, theirs, [" ".join(r) for r in rows], rng)
    assert seen[0] and seen[1] and seen[-1]


def test_pokerkit_deuce_to_seven_with_a5432(pk: Any) -> None:
    rng = np.random.default_rng(28)
    rows = [names(r) for r in deal(rng, 2_000, 5).tolist()]
    ranks = ["A", "2", "3", "4", "5"]
    for _ in range(100):  # A-5-4-3-2 in random suits (some of them one suit)
        rows.append([r + "cdhs"[int(s)] for r, s in zip(ranks, rng.integers(0, 4, 5),
                                                          strict=True)])
        if len(set(rows[-1])) != 5:
            rows.pop()
    ours = _values(rows, "low-27")
    theirs = [pk.StandardLowHand("".join(r)) for r in rows]
    _check_orders(ours, theirs, [" ".join(r) for r in rows], rng)


@pytest.mark.parametrize("k", [5, 7])
def test_pokerkit_ace_to_five(pk: Any, k: int) -> None:
    rng = np.random.default_rng(15 + k)
    rows = [names(r) for r in deal(rng, 4_000 if k == 5 else 2_000, k).tolist()]
    ours = _values(rows, "low-a5")
    if k == 5:
        assert ours == [low_a5_value(idx(" ".join(r))) for r in rows]
    theirs = [pk.RegularLowHand.from_game("".join(r)) for r in rows]
    seen = _check_orders(ours, theirs, [" ".join(r) for r in rows], rng)
    assert seen[0] and seen[1] and seen[-1]


@pytest.mark.parametrize("k", [5, 7])
def test_pokerkit_eight_or_better(pk: Any, k: int) -> None:
    rng = np.random.default_rng(80 + k)
    rows = [names(r) for r in deal(rng, 4_000 if k == 5 else 2_000, k).tolist()]
    if k == 5:  # random five-card hands rarely qualify: add hands of A-8 only
        low_cards = [c for c in DECK if c[0] in "A2345678"]
        for _ in range(1_000):
            rows.append([str(c) for c in rng.choice(low_cards, 5, replace=False)])
    ours = _values(rows, "low-a5-8")
    direct = [low_a5_eight_value(idx(" ".join(r))) for r in rows]
    assert direct == ours
    theirs = [pk.EightOrBetterLowHand.from_game_or_none("".join(r)) for r in rows]
    # both sides agree which hands have no qualifying low
    no_low = [o is None for o in ours]
    assert no_low == [t is None for t in theirs]
    assert 100 < sum(no_low) < len(rows) - 100
    seen = _check_orders(ours, theirs, [" ".join(r) for r in rows], rng)
    assert seen[0] and seen[1] and seen[-1]


def test_pokerkit_omaha_eight_or_better(pk: Any) -> None:
    rng = np.random.default_rng(88)
    deals = deal(rng, 1_000, 13).tolist()
    holes = [names(d[0:4]) for d in deals] + [names(d[4:8]) for d in deals]
    boards = [names(d[8:13]) for d in deals] * 2
    ours: list[int | None] = []
    for hole, board in zip(holes, boards, strict=True):
        h = evaluate(hole, "low-a5-8", board=board, exactly_two=True)
        ours.append(None if h is None else h.value)
    theirs = [pk.OmahaEightOrBetterLowHand.from_game_or_none("".join(h), "".join(b))
              for h, b in zip(holes, boards, strict=True)]
    assert [o is None for o in ours] == [t is None for t in theirs]
    assert 100 < sum(o is None for o in ours) < len(ours) - 100
    labels = [f"{''.join(h)}|{''.join(b)}" for h, b in zip(holes, boards, strict=True)]
    _check_orders(ours, theirs, labels, rng, [(i, i + 1_000) for i in range(1_000)])


# --------------------------------------------------------------------------------------
# census of all C(52, 5) hands

TEXTBOOK = {"straight_flush": 40, "four_of_a_kind": 624, "full_house": 3744, "flush": 5108,
            "straight": 10200, "three_of_a_kind": 54912, "two_pair": 123552,
            "pair": 1098240, "high_card": 1302540}
# distinct hand values (equivalence classes) per category: 7,462 in all
CLASSES = {"straight_flush": 10, "four_of_a_kind": 156, "full_house": 156, "flush": 1277,
           "straight": 10, "three_of_a_kind": 858, "two_pair": 858, "pair": 2860,
           "high_card": 1277}


def test_census_of_all_five_card_hands() -> None:
    total = 2_598_960
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), 5)),
                       dtype=np.int8, count=5 * total)
    values = high_values(flat.reshape(total, 5))
    counts = np.bincount(values >> CATEGORY_SHIFT, minlength=len(CATEGORIES))
    assert dict(zip(CATEGORIES, counts.tolist(), strict=True)) == TEXTBOOK
    distinct = np.unique(values)
    per_class = np.bincount(distinct >> CATEGORY_SHIFT, minlength=len(CATEGORIES))
    assert dict(zip(CATEGORIES, per_class.tolist(), strict=True)) == CLASSES
    assert int(values.max()) == val("As Ks Qs Js Ts")
    assert int(values.min()) == val("7c 5d 4h 3s 2c")


@pytest.mark.parametrize("n", [6, 7])
def test_rank_table_of_six_and_seven_is_each_multisets_best_value(n: int) -> None:
    """rank_table(6) and (7) are built from the five-card table (the best of a hand's
    fives); every multiset must hold the value its rank counts give directly."""
    from pelisali.poker.evaluate import rank_multisets, rank_table
    from pelisali.poker.hands import best_value_of_counts, counts_of

    rows, keys = rank_multisets(n)
    table = rank_table(n)
    assert len(rows) == {6: 18395, 7: 49205}[n]
    for row, key in zip(rows.tolist(), keys.tolist(), strict=True):
        assert table[key] == best_value_of_counts(counts_of(row)), row
