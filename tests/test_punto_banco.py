"""Punto banco: the third-card table, settlement, limits, the cut card, burns, exact odds.

Every expected value is written from RULINGS "Punto banco / baccarat" and the
GGPoker live-casino rules part I (deal order P, B, P, B in 3.4.3; payouts in
2.2; the cut card in 1.3.1 and 3.5.4), or from published / hand-counted
figures. Nothing is computed by the code under test.
"""

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pelisali.analysis.baccarat_odds import baccarat_odds, full_shoe, parse_composition
from pelisali.cards import CardError
from pelisali.games.base import GameError
from pelisali.games.punto_banco import (
    PuntoBancoConfig,
    PuntoBancoTable,
    banker_draws,
    card_points,
    next_card,
    player_draws,
    points,
    replay_coup,
    winner,
)
from pelisali.games.round import RoundError
from pelisali.rng import SeededRng

# -- the third-card table, written out from RULINGS ------------------------------------------

# Player with two cards: draws on 0-5, stands on 6-7 (8-9 are naturals: the hand ends).
PLAYER_DRAWS = {0: True, 1: True, 2: True, 3: True, 4: True, 5: True, 6: False, 7: False}

# Banker after a standing player: draws on 0-5, stands on 6-7.
BANKER_DRAWS_PLAYER_STOOD = {0: True, 1: True, 2: True, 3: True, 4: True, 5: True,
                             6: False, 7: False}

# Banker after the player's third card. Row: banker total 0-7; column: the player's
# third card value 0 1 2 3 4 5 6 7 8 9. D = draws, S = stands.
#   0-2 draw; 3 draws unless the card is 8; 4 on 2-7; 5 on 4-7; 6 on 6-7; 7 stands.
BANKER_TABLE_TEXT = """
0 DDDDDDDDDD
1 DDDDDDDDDD
2 DDDDDDDDDD
3 DDDDDDDDSD
4 SSDDDDDDSS
5 SSSSDDDDSS
6 SSSSSSDDSS
7 SSSSSSSSSS
"""
BANKER_TABLE = {
    int(row.split()[0]): {third: mark == "D" for third, mark in enumerate(row.split()[1])}
    for row in BANKER_TABLE_TEXT.strip().splitlines()
}


def two_card_hands(total: int) -> list[tuple[int, int]]:
    """Two different two-card hands with this point total (one over ten, to test mod 10)."""
    return [(total, 0), ((total + 5) % 10, 5), (9, (total + 1) % 10)]


def test_banker_table_is_complete() -> None:
    assert sorted(BANKER_TABLE) == list(range(8))
    assert all(sorted(row) == list(range(10)) for row in BANKER_TABLE.values())


@pytest.mark.parametrize("total", range(8))
def test_player_draws_table(total: int) -> None:
    assert player_draws(total) is PLAYER_DRAWS[total]


@pytest.mark.parametrize("total", range(8))
def test_banker_after_standing_player(total: int) -> None:
    assert banker_draws(total, None) is BANKER_DRAWS_PLAYER_STOOD[total]


@pytest.mark.parametrize("banker", range(8))
@pytest.mark.parametrize("third", range(10))
def test_banker_after_players_third_card(banker: int, third: int) -> None:
    assert banker_draws(banker, third) is BANKER_TABLE[banker][third]


def test_deal_order_first_four_cards() -> None:
    # GGPoker I 3.4.3: first and third card to the player, second and fourth to the banker.
    assert next_card((), ()) == "player"
    assert next_card((3,), ()) == "banker"
    assert next_card((3,), (4,)) == "player"
    assert next_card((3, 1), (4,)) == "banker"


@pytest.mark.parametrize("p", range(10))
@pytest.mark.parametrize("b", range(10))
def test_every_two_card_position(p: int, b: int) -> None:
    """Player total p, banker total b after four cards: who draws next, every branch."""
    if p >= 8 or b >= 8:
        expected = None  # a natural ends the hand, no exceptions
    elif PLAYER_DRAWS[p]:
        expected = "player"
    elif BANKER_DRAWS_PLAYER_STOOD[b]:
        expected = "banker"
    else:
        expected = None
    for player in two_card_hands(p):
        for banker in two_card_hands(b):
            assert next_card(player, banker) == expected, (player, banker)
            if expected == "banker":  # the banker took a third card after a standing player
                for card in range(10):
                    assert next_card(player, (*banker, card)) is None


def expected_sides(p: int, b: int, third: int) -> list[str]:
    """Who takes a card after the first four, from the tables above; the player's third
    card (if any) has value ``third``."""
    if p >= 8 or b >= 8:
        return []
    if PLAYER_DRAWS[p]:
        return ["player", "banker"] if BANKER_TABLE[b][third] else ["player"]
    return ["banker"] if BANKER_DRAWS_PLAYER_STOOD[b] else []


@pytest.mark.parametrize("p", range(10))
@pytest.mark.parametrize("b", range(10))
def test_every_hand_with_every_third_card(p: int, b: int) -> None:
    """Player total p, banker total b, and each third-card value 0-9: the whole hand."""
    for third in range(10):
        expected = expected_sides(p, b, third)
        for player in two_card_hands(p):
            for banker in two_card_hands(b):
                hand_p, hand_b = list(player), list(banker)
                sides = []
                while (side := next_card(hand_p, hand_b)) is not None:
                    sides.append(side)
                    assert len(sides) <= 2, (player, banker, third)
                    (hand_p if side == "player" else hand_b).append(third)
                assert sides == expected, (player, banker, third)


def test_points_and_card_values() -> None:
    # GGPoker I 1.3.2: 2-9 face value, ten and faces 0, ace 1; examples a and b.
    assert [card_points(c) for c in ["Ah", "2c", "9d", "Ts", "Jh", "Qc", "Kd"]] == \
        [1, 2, 9, 0, 0, 0, 0]
    assert points([1, 2, 4]) == 7
    assert points([1, 2, 9]) == 2
    assert winner((9, 0), (4, 4)) == "player"
    assert winner((1, 2), (7, 0)) == "banker"
    assert winner((5, 5, 5), (2, 3)) == "tie"


# -- settlement through the table ---------------------------------------------------------

# Stacked hands, dealt P, B, P, B, ...
PLAYER_WINS = ["9h", "5c", "Kd", "Ts"]  # player 9 (natural) v banker 5
BANKER_WINS = ["2h", "9c", "Kd", "Ts"]  # player 2 v banker 9 (natural)
TIE = ["9h", "9c", "Kd", "Ts"]  # 9 v 9
STACKS = {"player": PLAYER_WINS, "banker": BANKER_WINS, "tie": TIE}


def table(settings: dict[str, str] | None = None, seed: int = 0) -> PuntoBancoTable:
    return PuntoBancoTable(SeededRng(seed), PuntoBancoConfig.from_settings(settings))


def test_deal_order_through_the_table() -> None:
    t = table()
    t.sit("ann", 10_000)
    t.place("ann", "player", 1000)
    coup, _ = t.deal(stacked=["9h", "2c", "Ts", "3d"])
    assert coup.cards == [("player", "9h"), ("banker", "2c"), ("player", "Ts"),
                          ("banker", "3d")]
    assert coup.player == [9, 0] and coup.banker == [2, 3]


def test_third_cards_through_the_table() -> None:
    # player 2+3 = 5 draws an 8 (13 -> 3); banker T+3 = 3 stands on a third card 8: tie 3-3.
    t = table()
    t.sit("ann", 10_000)
    t.place("ann", "tie", 1000)
    coup, settled = t.deal(stacked=["2h", "Tc", "3d", "3s", "8c"])
    assert coup.cards[-1] == ("player", "8c")
    assert t.history[-1]["result"] == "tie"
    assert settled[0].paid == 9000
    # player 0 draws a 4; banker 5 draws on a third card 4 (4-7) and gets a 3: banker 8 v 4.
    t.place("ann", "banker", 1000)
    coup, settled = t.deal(stacked=["Th", "2c", "Kd", "3s", "4c", "3h"])
    assert coup.cards[-2:] == [("player", "4c"), ("banker", "3h")]
    assert (settled[0].result, settled[0].paid) == ("win", 1950)
    # player 7 stands; banker 5 draws (stood player) a 4: banker 9 v 7.
    t.place("ann", "player", 1000)
    coup, settled = t.deal(stacked=["7h", "2c", "Kd", "3s", "4c"])
    assert coup.cards[-1] == ("banker", "4c")
    assert (settled[0].result, settled[0].paid) == ("lose", 0)


# (bet, result) -> (paid on a 1000 stake, outcome): GGPoker I 2.1.2-2.1.5 and 2.2.
EXPECTED_1000 = {
    ("player", "player"): (2000, "win"),
    ("player", "banker"): (0, "lose"),
    ("player", "tie"): (1000, "push"),
    ("banker", "player"): (0, "lose"),
    ("banker", "banker"): (1950, "win"),  # 1000 + 1000 - 5 % of 1000
    ("banker", "tie"): (1000, "push"),
    ("tie", "player"): (0, "lose"),
    ("tie", "banker"): (0, "lose"),
    ("tie", "tie"): (9000, "win"),  # 1000 + 8 x 1000
}


@pytest.mark.parametrize(("bet", "result"), sorted(EXPECTED_1000))
def test_every_bet_on_every_result(bet: str, result: str) -> None:
    t = table()
    t.sit("ann", 50_000)
    receipt = t.place("ann", bet, 1000)
    assert (receipt.accepted, receipt.returned) == (1000, 0)
    assert t.balances["ann"] == 49_000
    _, settled = t.deal(stacked=STACKS[result])
    paid, outcome = EXPECTED_1000[(bet, result)]
    assert len(settled) == 1
    s = settled[0]
    assert (s.player, s.spot, s.stake, s.paid, s.result, s.rounding) == \
        ("ann", bet, 1000, paid, outcome, 0)
    assert t.balances["ann"] == 49_000 + paid
    assert t.house_result == 1000 - paid
    assert t.history[-1]["result"] == result
    assert t.bets == [] and t.on_table == 0
    t.check_conservation()


def test_all_three_bets_on_one_hand() -> None:
    t = table()
    t.sit("ann", 10_000)
    t.sit("bob", 10_000)
    t.place("ann", "player", 600)
    t.place("ann", "banker", 700)
    t.place("bob", "tie", 500)
    _, settled = t.deal(stacked=TIE)
    assert [(s.player, s.spot, s.paid, s.result) for s in settled] == [
        ("ann", "player", 600, "push"), ("ann", "banker", 700, "push"),
        ("bob", "tie", 4500, "win")]
    assert t.balances == {"ann": 10_000, "bob": 14_000}
    assert t.house_result == -4000


def test_banker_commission_rounding_goes_to_the_house() -> None:
    t = table()
    t.sit("ann", 10_000)
    t.place("ann", "banker", 1001)
    _, settled = t.deal(stacked=BANKER_WINS)
    # exact 1001 + 1001 - 50.05 = 1951.95 cents: 1951 paid, 19/20 of a cent to the house
    assert settled[0].paid == 1951
    assert settled[0].rounding == Fraction(19, 20)
    assert t.house_rounding == Fraction(19, 20)
    assert t.balances["ann"] == 10_000 - 1001 + 1951
    assert t.history[-1]["settlements"][0]["rounding"] == "19/20"
    t.place("ann", "banker", 1001)
    t.deal(stacked=BANKER_WINS)
    assert t.house_rounding == Fraction(19, 10)
    t.check_conservation()


@pytest.mark.parametrize(("stake", "paid", "rounding"), [
    (500, 975, Fraction(0)), (510, 994, Fraction(1, 2)), (2000, 3900, Fraction(0)),
    (1234, 2406, Fraction(3, 10)), (100_000, 195_000, Fraction(0)),
])
def test_banker_commission_exact(stake: int, paid: int, rounding: Fraction) -> None:
    # stake + stake * 95/100, e.g. 1234 + 1172.3 = 2406.3
    exact, outcome = PuntoBancoConfig.from_settings().bet_return("banker", "banker", stake)
    assert outcome == "win"
    assert exact == paid + rounding


def test_tie_pays_eight_to_one() -> None:
    t = table()
    t.sit("ann", 10_000)
    t.place("ann", "tie", 500)
    _, settled = t.deal(stacked=TIE)
    assert (settled[0].paid, settled[0].result) == (4500, "win")
    assert t.balances["ann"] == 14_000


# -- limits and money -------------------------------------------------------------------------


def test_bet_under_the_minimum_refused() -> None:
    t = table()
    t.sit("ann", 10_000)
    with pytest.raises(RoundError, match="minimum"):
        t.place("ann", "player", 499)
    assert t.balances["ann"] == 10_000 and t.bets == []
    assert t.place("ann", "player", 500).accepted == 500


def test_bet_over_the_maximum_accepted_at_the_maximum() -> None:
    t = table()
    t.sit("ann", 300_000)
    receipt = t.place("ann", "banker", 150_000)
    assert (receipt.accepted, receipt.returned) == (100_000, 50_000)
    assert "returned" in receipt.message
    assert t.balances["ann"] == 200_000
    assert t.on_table == 100_000
    _, settled = t.deal(stacked=BANKER_WINS)
    assert settled[0].stake == 100_000 and settled[0].paid == 195_000


def test_no_credit() -> None:
    t = table()
    t.sit("ann", 1000)
    with pytest.raises(RoundError, match="credit"):
        t.place("ann", "player", 1001)
    assert t.balances["ann"] == 1000
    t.place("ann", "player", 600)
    with pytest.raises(RoundError, match="credit"):
        t.place("ann", "tie", 500)
    assert t.balances["ann"] == 400 and t.on_table == 600
    t.check_conservation()


@pytest.mark.parametrize("stake", [0, -500, True, 500.0, "500"])
def test_bad_stakes_refused(stake: object) -> None:
    t = table()
    t.sit("ann", 10_000)
    with pytest.raises(RoundError):
        t.place("ann", "player", stake)  # type: ignore[arg-type]
    assert t.balances["ann"] == 10_000


def test_unknown_bet_and_unseated_player_refused() -> None:
    t = table()
    t.sit("ann", 10_000)
    with pytest.raises(RoundError):
        t.place("ann", "dragon", 1000)
    with pytest.raises(GameError):
        t.place("bob", "player", 1000)
    with pytest.raises(GameError):
        t.sit("ann", 5)
    assert t.brought == 10_000


def test_withdraw_before_the_deal() -> None:
    t = table()
    t.sit("ann", 10_000)
    t.sit("bob", 10_000)
    receipt = t.place("ann", "player", 1000)
    with pytest.raises(RoundError):
        t.withdraw("bob", receipt.bet_id)  # not bob's bet
    with pytest.raises(RoundError):
        t.withdraw("ann", receipt.bet_id + 1)
    t.withdraw("ann", receipt.bet_id)
    assert t.balances["ann"] == 10_000 and t.bets == []
    with pytest.raises(RoundError, match="no bets"):
        t.deal(stacked=PLAYER_WINS)


@pytest.mark.parametrize(("stacked", "error"), [
    (["9h", "5c", "Kd"], RoundError),  # ends before the hand is complete
    (["9h", "5c", "Kd", "Ts", "2c"], RoundError),  # one card left over
    (["9h", "5c", "Kd", "Zz"], CardError),
])
def test_bad_stacked_cards_change_no_money(stacked: list[str], error: type) -> None:
    t = table()
    t.sit("ann", 10_000)
    t.place("ann", "player", 1000)
    with pytest.raises(error):
        t.deal(stacked=stacked)
    assert t.balances["ann"] == 9000 and t.on_table == 1000 and t.house_result == 0
    t.check_conservation()
    _, settled = t.deal(stacked=PLAYER_WINS)  # the bet is still there and settles
    assert settled[0].paid == 2000


# -- the cut card and burns ------------------------------------------------------------------


def test_cut_card_last_hand_then_shuffle() -> None:
    t = table({"decks": "1", "cut_cards_from_back": "7"}, seed=11)
    t.sit("ann", 10**9)
    assert len(t.shuffle_log) == 1 and t.shoe.shuffles == 1
    flagged = []
    for _ in range(40):
        t.place("ann", "banker", 500)
        shuffles_before = len(t.shuffle_log)
        t.deal()
        record = t.history[-1]
        start, end = record["shoe_positions"]
        assert 52 - start > 7  # no hand starts after the cut card came out
        if record["last_hand_before_shuffle"]:
            flagged.append(len(t.history))
            assert 52 - end <= 7  # the cut card (7 from the back) came out in this hand
            assert len(t.shuffle_log) == shuffles_before + 1  # shuffled right after it
            assert t.shoe.shuffles == record["shuffle"] + 1
            assert t.shoe.position == len(t.shoe.burned)  # fresh shoe, only burns gone
        else:
            assert 52 - end > 7
            assert len(t.shuffle_log) == shuffles_before
            assert t.shoe.shuffles == record["shuffle"]
    assert len(flagged) >= 2
    # the hand after a flagged one is dealt from the new shuffle
    after = t.history[flagged[0]]
    assert after["shuffle"] == t.history[flagged[0] - 1]["shuffle"] + 1


def test_last_hand_flag_visible_after_the_cut_card_hand() -> None:
    t = table({"decks": "1", "cut_cards_from_back": "7"}, seed=11)
    t.sit("ann", 10**9)
    for _ in range(20):
        t.place("ann", "player", 500)
        t.deal()
        if t.history[-1]["last_hand_before_shuffle"]:
            assert t.last_hand is True
            return
        assert t.last_hand is False
    pytest.fail("the cut card never came out")


def test_small_cut_card_never_runs_the_shoe_dry() -> None:
    # A hand can need six cards, so the cut card lies at least six from the back.
    with pytest.raises(GameError, match="cut_cards_from_back takes a whole number from 6"):
        table({"decks": "1", "cut_cards_from_back": "5"}, seed=3)
    t = table({"decks": "1", "cut_cards_from_back": "6"}, seed=3)
    t.sit("ann", 10**9)
    for _ in range(60):
        t.place("ann", "player", 500)
        t.deal()


# Burn after a shuffle: the first card, then as many cards as its value (ten-value: ten).
BURN_VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
              "T": 10, "J": 10, "Q": 10, "K": 10}


def test_burn_after_every_shuffle() -> None:
    seen_ten = seen_other = False
    for seed in range(30):
        t = table({"decks": "1", "cut_cards_from_back": "7"}, seed=seed)
        first = t.shoe.cards[0]
        expected = 1 + BURN_VALUE[first[0]]
        assert t.shoe.burned == t.shoe.cards[:expected]
        assert t.shoe.position == expected
        assert t.shoe.dealt == []
        assert t.shuffle_log[0]["burned"] == t.shoe.cards[:expected]
        seen_ten |= first[0] in "TJQK"
        seen_other |= first[0] not in "TJQK"
    assert seen_ten and seen_other


def test_burn_after_the_cut_card_reshuffle() -> None:
    t = table({"decks": "1", "cut_cards_from_back": "7"}, seed=5)
    t.sit("ann", 10**9)
    while len(t.shuffle_log) < 4:
        t.place("ann", "player", 500)
        t.deal()
    for entry in t.shuffle_log:
        order = [entry["order"][i:i + 2] for i in range(0, len(entry["order"]), 2)]
        assert entry["burned"] == order[:1 + BURN_VALUE[order[0][0]]]


def test_no_burn_setting() -> None:
    t = table({"burn_after_shuffle": "none"})
    assert t.shoe.burned == [] and t.shoe.position == 0
    assert t.shoe.remaining == 416


# -- money over many rounds, replays ----------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_money_conserved_over_random_rounds(seed: int, data: st.DataObject) -> None:
    t = table({"decks": "1"}, seed=seed)
    players = {"ann": 200_000, "bob": 30_000, "cid": 2_000}
    for name, balance in players.items():
        t.sit(name, balance)
    assert t.brought == sum(players.values())
    for _ in range(data.draw(st.integers(1, 25), label="rounds")):
        placed: list[tuple[str, int]] = []
        for _ in range(data.draw(st.integers(1, 4), label="bets")):
            who = data.draw(st.sampled_from(sorted(players)), label="who")
            bet = data.draw(st.sampled_from(["player", "banker", "tie"]), label="bet")
            stake = data.draw(st.integers(1, 150_000), label="stake")
            before = t.balances[who]
            # the limits hold for a player's whole stake on a bet
            already = sum(s for _i, p, b, s in t.bets if p == who and b == bet)
            try:
                receipt = t.place(who, bet, stake)
            except RoundError:
                assert t.balances[who] == before
                assert (stake + already < 500 or already >= 100_000
                        or min(stake, 100_000 - already) > before)
                continue
            assert receipt.accepted == min(stake, 100_000 - already)
            assert t.balances[who] == before - receipt.accepted
            placed.append((who, receipt.bet_id))
            t.check_conservation()
        if placed and data.draw(st.booleans(), label="withdraw one"):
            who, bet_id = placed.pop()
            t.withdraw(who, bet_id)
            t.check_conservation()
        if not t.bets:
            continue
        coup, settled = t.deal()
        t.check_conservation()
        assert all(b >= 0 for b in t.balances.values())
        assert t.on_table == 0
        record = t.history[-1]
        assert replay_coup(record) == settled
        # the coup's cards are the shoe's cards in order, from the recorded shuffle
        entry = next(e for e in t.shuffle_log if e["shuffle"] == record["shuffle"])
        start, end = record["shoe_positions"]
        assert "".join(c for _, c in coup.cards) == entry["order"][2 * start:2 * end]
    # within one shuffle no card comes out more often than the one deck holds
    per_shuffle: dict[int, Counter[str]] = {}
    for record in t.history:
        per_shuffle.setdefault(record["shuffle"], Counter()).update(c for _, c in record["cards"])
    for counts in per_shuffle.values():
        assert max(counts.values()) <= 1
    assert sum(t.balances.values()) + t.house_result == sum(players.values())


def test_replay_coup_equals_the_settlements() -> None:
    t = table(seed=21)
    t.sit("ann", 10**7)
    t.sit("bob", 10**7)
    results = set()
    for _ in range(60):
        t.place("ann", "player", 1000)
        t.place("bob", "banker", 1001)
        t.place("ann", "tie", 500)
        _, settled = t.deal()
        assert replay_coup(t.history[-1]) == settled
        results.add(t.history[-1]["result"])
    assert results == {"player", "banker", "tie"}
    t.place("ann", "banker", 1001)
    _, settled = t.deal(stacked=BANKER_WINS)
    assert replay_coup(t.history[-1]) == settled
    assert settled[0].rounding == Fraction(19, 20)


def test_replay_coup_refuses_a_tampered_record() -> None:
    t = table()
    t.sit("ann", 10_000)
    t.place("ann", "player", 1000)
    t.deal(stacked=["2h", "Tc", "3d", "3s", "8c"])
    record = t.history[-1]
    swapped = {**record, "cards": [["banker", "2h"], *record["cards"][1:]]}
    with pytest.raises(RoundError):
        replay_coup(swapped)
    short = {**record, "cards": record["cards"][:4]}
    with pytest.raises(RoundError, match="not complete"):
        replay_coup(short)


# -- exact odds ---------------------------------------------------------------------------------


def test_eight_deck_house_edges_match_published_values() -> None:
    result = baccarat_odds(full_shoe(8))
    edges = {bet: round(float(1 - rtp) * 100, 4) for bet, rtp in result.rtp.items()}
    assert edges == {"banker": 1.0579, "player": 1.2351, "tie": 14.3596}
    probabilities = {k: round(float(v), 6) for k, v in result.outcomes.items()}
    assert probabilities == {"banker": 0.458597, "player": 0.446247, "tie": 0.095156}
    assert sum(result.outcomes.values()) == 1


def test_six_deck_house_edges_match_published_values() -> None:
    result = baccarat_odds(full_shoe(6))
    edges = {bet: round(float(1 - rtp) * 100, 4) for bet, rtp in result.rtp.items()}
    assert edges == {"banker": 1.0558, "player": 1.2374, "tie": 14.4382}


def test_full_shoe_counts() -> None:
    assert full_shoe(8) == (128, 32, 32, 32, 32, 32, 32, 32, 32, 32)
    assert full_shoe(1) == (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)


def test_hand_counted_shoe_one_nine_five_tens() -> None:
    # Six cards: five ten-values and a 9; the 9 lies in each of the six places with 1/6.
    #   place 1 or 3: player natural 9 (player); place 2 or 4: banker natural 9 (banker);
    #   place 5: 0 v 0, the player draws the 9, the banker (0) draws a 0 (player);
    #   place 6: the player draws a 0, the banker draws the 9 (banker).
    result = baccarat_odds((5, 0, 0, 0, 0, 0, 0, 0, 0, 1))
    assert result.outcomes == {"player": Fraction(1, 2), "banker": Fraction(1, 2),
                               "tie": Fraction(0)}
    assert result.rtp == {"player": Fraction(1), "banker": Fraction(1, 2) * Fraction(39, 20),
                          "tie": Fraction(0)}


def test_hand_counted_shoe_two_fives_four_tens() -> None:
    # Six cards: four ten-values and two 5s; 15 equally likely pairs of places for the 5s.
    #   {1,3} or {2,4}: 0 v 0, both draw a 0: tie (2)
    #   one 5 with the player and one with the banker: 5 v 5, player draws 0, banker 5
    #     stands on a third card 0: tie (4)
    #   player 5, other 5 in place 5: player draws it (0), banker 0 draws 0: tie (2)
    #   player 5, other 5 in place 6: player draws 0 (5), banker 0 draws 5: tie (2)
    #   banker 5, other 5 in place 5: player draws 5, banker 5 draws on 5 and gets 0: tie (2)
    #   banker 5, other 5 in place 6: player draws 0; banker 5 stands on a third 0: banker (2)
    #   {5,6}: player draws 5, banker 0 draws 5: tie (1)
    result = baccarat_odds((4, 0, 0, 0, 0, 2, 0, 0, 0, 0))
    assert result.outcomes == {"player": Fraction(0), "banker": Fraction(2, 15),
                               "tie": Fraction(13, 15)}
    assert result.rtp["player"] == Fraction(13, 15)  # returned on a tie
    assert result.rtp["banker"] == Fraction(2, 15) * Fraction(39, 20) + Fraction(13, 15)
    assert result.rtp["tie"] == Fraction(13, 15) * 9


def test_all_ten_values_always_tie() -> None:
    result = baccarat_odds((6, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    assert result.outcomes == {"player": 0, "banker": 0, "tie": 1}


@pytest.mark.parametrize("composition", [
    (1, 1, 1, 1, 1), (5, 0, 0, 0, 0, 0, 0, 0, 0, 0), (6, 0, 0, 0, 0, 0, 0, 0, 0, -1),
    (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
])
def test_baccarat_odds_refuses_impossible_compositions(composition: tuple[int, ...]) -> None:
    with pytest.raises(GameError):
        baccarat_odds(composition)


def test_parse_composition_forms() -> None:
    eight = (128, 32, 32, 32, 32, 32, 32, 32, 32, 32)
    assert parse_composition("128,32,32,32,32,32,32,32,32,32") == eight
    assert parse_composition(
        "0=128,1=32,2=32,3=32,4=32,5=32,6=32,7=32,8=32,9=32") == eight
    assert parse_composition(
        "A=32,2=32,3=32,4=32,5=32,6=32,7=32,8=32,9=32,T=32,J=32,Q=32,K=32") == eight
    assert parse_composition(
        "A=1,2=0,3=0,4=0,5=0,6=0,7=0,8=0,9=2,T=1,J=1,Q=0,K=3") == (5, 1, 0, 0, 0, 0, 0, 0, 0, 2)


@pytest.mark.parametrize("text", [
    "1,2,3",  # not ten counts
    "1,2,3,4,5,6,7,8,9,x",
    "1,2,3,4,5,6,7,8,9,10,11",
    "A=4,A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=4,J=4,Q=4,K=4",  # given twice
    "A=4,X=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=4,J=4,Q=4,K=4",  # not a rank
    "A=4,2=4,3=4",  # ranks missing
    "0=1,1=1,2=1,3=1,4=1,5=1,6=1,7=1,8=1",  # value 9 missing
    "0=1,1=1,2=1,3=1,4=1,5=1,6=1,7=1,8=1,9=1,10=1",  # 10 is not a value
    "0=1,1=1,2=1,3=1,4=1,5=1,6=1,7=1,8=1,9=-1",  # negative
    "A=x,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=4,J=4,Q=4,K=4",
])
def test_parse_composition_errors(text: str) -> None:
    with pytest.raises(GameError):
        parse_composition(text)


def test_the_maximum_holds_for_a_players_whole_stake_on_a_bet() -> None:
    t = table({}, seed=1)
    t.sit("ann", 10**8)
    assert t.limits is not None
    top = t.limits.maximum
    t.place("ann", "banker", top - 500)
    receipt = t.place("ann", "banker", 1000)
    assert (receipt.accepted, receipt.returned) == (500, 500)
    before = dict(t.balances)
    with pytest.raises(RoundError, match="already holds the table maximum"):
        t.place("ann", "banker", 500)
    assert t.balances == before
    assert t.place("ann", "player", top).accepted == top
