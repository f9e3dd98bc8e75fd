"""Cards and the shoe: parsing, the multiset of an N-deck shoe, dealing, burning, the cut card.

Expected values are written from the card conventions in ``cards.py``'s contract
(ranks 2-9 T J Q K A, suits c d h s; an N-deck shoe holds every card N times)
and from the rulebook's cut card (GGPoker I 1.3.1, III 3.3), not computed by
the code under test.
"""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pelisali.cards import DECK, CardError, Shoe, ShoeError, parse_card, parse_cards
from pelisali.rng import SeededRng

# The 52 cards written out by hand: 13 ranks x 4 suits.
ALL_CARDS = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def full_shoe(decks: int) -> Counter[str]:
    return Counter({card: decks for card in ALL_CARDS})


def accounted(shoe: Shoe) -> Counter[str]:
    """Every card the shoe has handed out or still holds."""
    return Counter(shoe.dealt) + Counter(shoe.burned) + Counter(shoe.cards[shoe.position:])


# -- parsing -------------------------------------------------------------------------------


def test_deck_is_the_52_distinct_cards() -> None:
    assert len(DECK) == 52
    assert sorted(DECK) == sorted(ALL_CARDS)


@pytest.mark.parametrize(("text", "card"), [
    ("As", "As"), ("as", "As"), ("AS", "As"), (" kd ", "Kd"), ("Tc", "Tc"), ("tc", "Tc"),
    ("10h", "Th"), ("10S", "Ts"), ("2c", "2c"), ("9D", "9d"),
])
def test_parse_card_normalises(text: str, card: str) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize("text", [
    "1x", "Zz", "", "  ", "A", "10", "1h", "11h", "Ax", "0s", "As ks", "10hx", "AAs", "Xs",
])
def test_parse_card_rejects_malformed(text: str) -> None:
    with pytest.raises(CardError):
        parse_card(text)


def test_parse_cards_splits_joined_and_separated_cards() -> None:
    assert parse_cards("AsKd") == ["As", "Kd"]
    assert parse_cards("As Kd, 10h") == ["As", "Kd", "Th"]
    assert parse_cards("10h9c") == ["Th", "9c"]
    assert parse_cards("As10hKd") == ["As", "Th", "Kd"]
    assert parse_cards("") == []


@pytest.mark.parametrize("text", ["AsAs", "As as", "Th 10h", "2c,3c,2C"])
def test_parse_cards_refuses_a_card_named_twice(text: str) -> None:
    with pytest.raises(CardError, match="more than once"):
        parse_cards(text)


def test_parse_cards_duplicates_allowed_on_request() -> None:
    assert parse_cards("AsAs", allow_duplicates=True) == ["As", "As"]


@pytest.mark.parametrize("text", ["1x", "Zz", "AsK", "As Kx", "Asx", "10"])
def test_parse_cards_rejects_malformed(text: str) -> None:
    with pytest.raises(CardError):
        parse_cards(text)


# -- the shoe ---------------------------------------------------------------------------------


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_shuffled_shoe_holds_each_card_exactly_n_times(decks: int, seed: int) -> None:
    shoe = Shoe(decks=decks, cut_from_back=0)
    shoe.shuffle(SeededRng(seed))
    assert len(shoe.cards) == 52 * decks == shoe.size == shoe.remaining
    assert Counter(shoe.cards) == full_shoe(decks)
    assert shoe.composition() == Counter({r: 4 * decks for r in "23456789TJQKA"})


def test_shuffle_is_seeded_and_resets_the_shoe() -> None:
    a, b = Shoe(2, 10), Shoe(2, 10)
    a.shuffle(SeededRng(9))
    b.shuffle(SeededRng(9))
    assert a.cards == b.cards
    assert a.cards != sorted(a.cards)  # actually shuffled
    a.deal(5)
    a.burn(2)
    first = list(a.cards)
    a.shuffle(SeededRng(10))
    assert a.shuffles == 2
    assert (a.position, a.dealt, a.burned) == (0, [], [])
    assert Counter(a.cards) == full_shoe(2)
    assert a.cards != first


def test_deal_takes_from_the_front_in_order() -> None:
    shoe = Shoe(1, 0)
    shoe.shuffle(SeededRng(3))
    order = list(shoe.cards)
    assert shoe.burn(1) == order[:1]
    assert shoe.deal(3) == order[1:4]
    assert shoe.deal_one() == order[4]
    assert shoe.dealt == order[1:5]
    assert shoe.burned == order[:1]
    assert shoe.remaining == 47


@settings(max_examples=150, deadline=None)
@given(
    decks=st.integers(1, 8),
    seed=st.integers(0, 2**32 - 1),
    steps=st.lists(st.tuples(st.sampled_from(["deal", "burn", "one"]), st.integers(1, 12)),
                   max_size=60),
)
def test_dealing_never_invents_or_loses_a_card(decks: int, seed: int,
                                               steps: list[tuple[str, int]]) -> None:
    shoe = Shoe(decks=decks, cut_from_back=0)
    shoe.shuffle(SeededRng(seed))
    handed_out: list[str] = []
    burned: list[str] = []
    for kind, n in steps:
        n = min(n, shoe.remaining)  # requests the shoe can meet (overdraw: separate test)
        if n == 0:
            break
        if kind == "burn":
            got = shoe.burn(n)
            burned += got
        elif kind == "one":
            got = [shoe.deal_one()]
        else:
            got = shoe.deal(n)
        assert len(got) == (1 if kind == "one" else n)
        if kind != "burn":
            handed_out += got
        # never more of a card than the shoe holds
        out = Counter(handed_out) + Counter(burned)
        assert all(count <= decks and card in ALL_CARDS for card, count in out.items())
        # dealt + burned + remaining is always the full shoe
        assert shoe.dealt == handed_out
        assert shoe.burned == burned
        assert accounted(shoe) == full_shoe(decks)
        assert shoe.remaining == 52 * decks - len(handed_out) - len(burned)
        remaining_ranks = full_shoe(decks) - out
        assert shoe.composition() == Counter(
            {r: sum(n for c, n in remaining_ranks.items() if c[0] == r) for r in "23456789TJQKA"}
        ) - Counter()


def test_dealing_the_whole_shoe_then_empty() -> None:
    shoe = Shoe(2, 0)
    shoe.shuffle(SeededRng(4))
    cards = shoe.deal(104)
    assert Counter(cards) == full_shoe(2)
    assert shoe.remaining == 0
    with pytest.raises(ShoeError, match="holds 0 card"):
        shoe.deal_one()
    with pytest.raises(ShoeError, match="holds 0 card"):
        shoe.burn()
    assert shoe.dealt == cards  # the refused deal changed nothing


def test_unshuffled_shoe_refuses_to_deal() -> None:
    shoe = Shoe(1, 5)
    assert shoe.cut_card_out is False
    assert shoe.remaining == 0
    with pytest.raises(ShoeError, match="not been shuffled"):
        shoe.deal_one()
    with pytest.raises(ShoeError, match="not been shuffled"):
        shoe.burn()
    assert (shoe.dealt, shoe.burned, shoe.position) == ([], [], 0)


def test_overdraw_is_refused_without_losing_cards() -> None:
    shoe = Shoe(1, 0)
    shoe.shuffle(SeededRng(1))
    shoe.deal(50)
    with pytest.raises(ShoeError):
        shoe.deal(3)
    assert shoe.remaining == 2
    assert accounted(shoe) == full_shoe(1)


@pytest.mark.parametrize(("decks", "cut"), [(1, 10), (1, 0), (2, 7), (8, 208)])
def test_cut_card_comes_out_cut_cards_from_the_back(decks: int, cut: int) -> None:
    shoe = Shoe(decks, cut)
    shoe.shuffle(SeededRng(2))
    in_front = 52 * decks - cut  # cards in front of the cut card
    if in_front > 1:
        shoe.deal(in_front - 1)
        assert shoe.remaining == cut + 1
        assert shoe.cut_card_out is False  # one card still before the cut card
    shoe.deal(1)
    assert shoe.remaining == cut
    assert shoe.cut_card_out is True  # the cut card is reached
    if cut:
        shoe.deal(1)
        assert shoe.cut_card_out is True


def test_burned_cards_count_toward_the_cut_card() -> None:
    shoe = Shoe(1, 10)
    shoe.shuffle(SeededRng(8))
    shoe.burn(40)
    shoe.deal(1)
    assert shoe.cut_card_out is False  # 11 left
    shoe.burn(1)
    assert shoe.cut_card_out is True  # 10 left


@pytest.mark.parametrize(("decks", "cut"), [(0, 0), (-1, 0), (1, 52), (1, -1), (2, 104)])
def test_impossible_shoe_refused(decks: int, cut: int) -> None:
    with pytest.raises(ShoeError):
        Shoe(decks, cut)


def test_largest_cut_inside_the_shoe_accepted() -> None:
    assert Shoe(1, 51).cut_from_back == 51
    assert Shoe(8, 415).size == 416


# -- stacking the shoe -------------------------------------------------------------------------


def test_load_stacks_the_given_order() -> None:
    shoe = Shoe(1, 0)
    shoe.load(["As", "Kd", "2c"])
    assert shoe.remaining == 3
    assert shoe.deal(3) == ["As", "Kd", "2c"]
    with pytest.raises(ShoeError, match="holds 0 card"):
        shoe.deal_one()


def test_load_accepts_up_to_the_shoes_multiplicity() -> None:
    shoe = Shoe(2, 0)
    shoe.load(["As", "As", "Kd"])
    assert shoe.deal(3) == ["As", "As", "Kd"]
    whole = Shoe(2, 0)
    whole.load(ALL_CARDS * 2)
    assert whole.remaining == 104


@pytest.mark.parametrize(("decks", "order"), [
    (1, ["As", "As"]),
    (2, ["Kd", "Kd", "Kd"]),
    (1, ["Xx"]),
    (1, ["as"]),  # load takes canonical cards only
    (1, ["10h"]),
    (1, [*ALL_CARDS, "2c"]),  # 53 cards in one deck
])
def test_load_refuses_impossible_stacks(decks: int, order: list[str]) -> None:
    shoe = Shoe(decks, 0)
    shoe.shuffle(SeededRng(5))
    shoe.deal(2)
    before = (list(shoe.cards), shoe.position, list(shoe.dealt))
    with pytest.raises(ShoeError):
        shoe.load(order)
    assert (shoe.cards, shoe.position, shoe.dealt) == before  # nothing changed
