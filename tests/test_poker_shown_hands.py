"""PokerHand.shown_hands: the names of the hands shown at the showdown, by seat.

The decks are dealt in a fixed order (``deck=``): hole cards from the seat left of the
button, then the board (Double Flop: each street's cards for board 1, then board 2).
Heads-up, the button (seat 0) posts the small blind, so seat 1 is dealt first.
"""

from pelisali.poker.describe import describe
from pelisali.poker.evaluate import evaluate
from pelisali.poker.selfplay import VARIANTS
from pelisali.poker.table import DOUBLE_FLOP_NL, HOLDEM_NL, NO_LOW, PokerHand

LANGS = ("en", "fi", "sv")

# Hold'em: seat 1 Ah Kh makes a heart flush, seat 0 Jc Qd two pair on 2h 7h Jh Qc 7s.
HOLDEM_BOARD = ["2h", "7h", "Jh", "Qc", "7s"]
HOLDEM_DECK = ["Ah", "Kh", "Jc", "Qd", *HOLDEM_BOARD]
HOLDEM_NAMES = {
    "en": {0: "Two pair, queens and jacks", 1: "Flush, ace high"},
    "fi": {0: "Kaksi paria, kuningattaret ja sotilaat", 1: "Väri, korkeimpana ässä"},
    "sv": {0: "Två par, damer och knektar", 1: "Färg, ess högst"},
}


def check_down(hand: PokerHand) -> None:
    """Check or call until the hand is over; nobody is named before the showdown."""
    while not hand.finished:
        assert hand.shown_hands() == {}
        assert all(hand.shown_hands(lang) == {} for lang in LANGS)
        hand.act("check" if hand.legal().check else "call")


def holdem_hand() -> PokerHand:
    hand = PokerHand(HOLDEM_NL, [100, 100], 0, 1, 2, deck=HOLDEM_DECK)
    assert hand.hole == [["Jc", "Qd"], ["Ah", "Kh"]]
    return hand


def test_holdem_showdown_names_each_hand_in_each_language() -> None:
    hand = holdem_hand()
    check_down(hand)
    assert hand.board == HOLDEM_BOARD
    assert hand.shown == {0, 1}
    assert hand.stacks == [98, 102]  # the flush wins the 4-chip pot
    assert hand.shown_hands("en") == HOLDEM_NAMES["en"]
    assert hand.shown_hands() == HOLDEM_NAMES["en"]  # English by default
    assert hand.shown_hands("fi") == HOLDEM_NAMES["fi"]
    assert hand.shown_hands("sv") == HOLDEM_NAMES["sv"]
    for lang in ("fi", "sv"):
        names = hand.shown_hands(lang)
        assert all(names[s] != hand.shown_hands("en")[s] for s in names)
    # The same names as describe() gives the seats' values, and the evaluator gives.
    for lang in LANGS:
        for seat, name in hand.shown_hands(lang).items():
            value = hand.hand_value(seat)
            assert value is not None
            assert name == describe(value, lang, "high")
            evaluated = evaluate(hand.hole[seat], board=hand.board)
            assert evaluated is not None
            assert name == evaluated.describe(lang)
    # The seats named are the seats whose cards the table shows.
    assert set(hand.shown_hands()) == set(hand.view(None)["shown"])  # type: ignore[arg-type]


def test_nothing_is_named_before_the_showdown() -> None:
    hand = holdem_hand()
    assert hand.shown_hands() == {}  # pre-flop
    hand.act("call")
    hand.act("check")
    assert hand.street == 1 and hand.board == HOLDEM_BOARD[:3]
    assert hand.shown_hands() == {}  # the flop
    for _ in range(5):  # flop, turn and the river's first check
        hand.act("check")
    assert hand.street == 3 and not hand.finished
    assert hand.shown_hands() == {} and hand.shown_hands("fi") == {}
    hand.act("check")  # the last check: the showdown
    assert hand.finished
    assert hand.shown_hands() == HOLDEM_NAMES["en"]


def test_a_hand_won_by_a_fold_names_no_hand() -> None:
    preflop = holdem_hand()
    preflop.act("fold")
    assert preflop.finished and preflop.shown == set()
    assert all(preflop.shown_hands(lang) == {} for lang in LANGS)
    river = holdem_hand()
    river.act("call")
    river.act("check")
    for _ in range(5):
        river.act("check")
    river.act("raise", 10)  # seat 0 bets the river, seat 1 folds the flush
    river.act("fold")
    assert river.finished and river.stacks == [102, 98]
    assert all(river.shown_hands(lang) == {} for lang in LANGS)


def test_a_folded_hand_is_not_named() -> None:
    # Three players, button 0: seat 1 small blind, seat 2 big blind; dealt from seat 1.
    deck = ["Ah", "Kh", "9c", "9d", "Jc", "Qd", *HOLDEM_BOARD]
    hand = PokerHand(HOLDEM_NL, [100, 100, 100], 0, 1, 2, deck=deck)
    assert hand.hole == [["Jc", "Qd"], ["Ah", "Kh"], ["9c", "9d"]]
    hand.act("raise", 6, seat=0)
    hand.act("call", seat=1)
    hand.act("fold", seat=2)  # the big blind folds its nines to the raise
    check_down(hand)
    assert hand.shown == {0, 1}
    assert hand.shown_hands() == HOLDEM_NAMES["en"]
    assert hand.shown_hands("sv") == HOLDEM_NAMES["sv"]


def test_omaha_hi_lo_names_the_high_and_the_low() -> None:
    variant = VARIANTS["omaha-hi-lo"]
    assert (variant.high, variant.low) == ("high", "low-a5-8")
    board = ["3c", "5d", "8h", "Kh", "9s"]
    # Seat 1 As 2s Kd Kc: three kings, and the 8-5-3-2-A low.
    # Seat 0 Qh Qs Jh Td: a pair of queens and no card to make a low with.
    deck = ["As", "2s", "Kd", "Kc", "Qh", "Qs", "Jh", "Td", *board]
    hand = PokerHand(variant, [100, 100], 0, 1, 2, deck=deck)
    assert hand.hole == [["Qh", "Qs", "Jh", "Td"], ["As", "2s", "Kd", "Kc"]]
    check_down(hand)
    assert hand.board == board and hand.shown == {0, 1}
    assert hand.stacks == [98, 102]  # seat 1 scoops: the best high and the only low
    assert NO_LOW["en"] == "no low"
    assert hand.shown_hands("en") == {0: "Pair, queens / no low",
                                      1: "Three of a kind, kings / 8-5-3-2-A low"}
    assert hand.shown_hands("fi") == {0: "Pari, kuningattaret / ei low-kättä",
                                      1: "Kolmoset, kuninkaat / Matala 8-5-3-2-A"}
    assert hand.shown_hands("sv") == {0: "Par, damer / ingen low",
                                      1: "Triss, kungar / Låg 8-5-3-2-A"}
    for lang in LANGS:
        names = hand.shown_hands(lang)
        assert hand.hand_value(0, ranking="low-a5-8") is None
        assert names[0] == f"{describe(hand.hand_value(0) or 0, lang)} / {NO_LOW[lang]}"
        low = evaluate(hand.hole[1], "low-a5-8", board, exactly_two=True)
        high = evaluate(hand.hole[1], "high", board, exactly_two=True)
        assert low is not None and high is not None
        assert names[1] == f"{high.describe(lang)} / {low.describe(lang)}"


DOUBLE_FLOP_DECK = ["As", "Ad", "Ks", "Kd",
                    "Kh", "7c", "2d",  # flop, board 1
                    "Ah", "8c", "9d",  # flop, board 2
                    "4s", "5s",  # turns
                    "Jc", "Qh"]  # rivers


def test_double_flop_names_the_hand_on_each_board() -> None:
    hand = PokerHand(DOUBLE_FLOP_NL, [100, 100], 0, 1, 2, deck=DOUBLE_FLOP_DECK)
    assert hand.hole == [["Ks", "Kd"], ["As", "Ad"]]
    check_down(hand)
    assert hand.board == ["Kh", "7c", "2d", "4s", "Jc"]
    assert hand.second_board == ["Ah", "8c", "9d", "5s", "Qh"]
    assert hand.stacks == [100, 100]  # one board each
    # Board 1 first: the kings' set on board 1, the aces' set on board 2.
    assert hand.shown_hands("en") == {0: "Three of a kind, kings / Pair, kings",
                                      1: "Pair, aces / Three of a kind, aces"}
    assert hand.shown_hands("fi") == {0: "Kolmoset, kuninkaat / Pari, kuninkaat",
                                      1: "Pari, ässät / Kolmoset, ässät"}
    assert hand.shown_hands("sv") == {0: "Triss, kungar / Par, kungar",
                                      1: "Par, ess / Triss, ess"}
    for lang in LANGS:
        for seat, name in hand.shown_hands(lang).items():
            parts = []
            for board in (hand.board, hand.second_board):
                value = evaluate(hand.hole[seat], board=board)
                assert value is not None
                parts.append(value.describe(lang))
            assert name == " / ".join(parts)


def test_double_flop_hi_lo_names_high_and_low_board_by_board() -> None:
    variant = VARIANTS["double-flop-hi-lo"]
    assert variant.boards == 2 and variant.high == "high" and variant.low is not None
    hand = PokerHand(variant, [100, 100], 0, 1, 2, deck=DOUBLE_FLOP_DECK)
    check_down(hand)
    for lang in LANGS:
        for seat, name in hand.shown_hands(lang).items():
            parts = []
            for board in (hand.board, hand.second_board):
                for ranking in ("high", variant.low):
                    value = hand.hand_value(seat, board, ranking)
                    parts.append(NO_LOW[lang] if value is None
                                 else describe(value, lang, ranking))
            assert name == " / ".join(parts)
            assert len(name.split(" / ")) == 4
    assert hand.shown_hands("en")[0].startswith("Three of a kind, kings / ")
    assert hand.shown_hands("en")[1].split(" / ")[2] == "Three of a kind, aces"
