"""The card engines (punto banco, blackjack) under the engine contract.

The settlements are checked against the existing tables, which have their own
tests written from the rules: the same bets, decisions and stacked cards go
through :class:`~pelisali.games.punto_banco.PuntoBancoTable` /
:class:`~pelisali.games.blackjack.BlackjackTable` and through the engine (the
cards as chance outcomes), and every settlement must match to the fraction of a
cent. Punto banco's chance tree is walked exhaustively from a small shoe and
compared with :func:`~pelisali.analysis.baccarat_odds.baccarat_odds`. The rest
is the contract: exact probabilities, refused moves, hidden cards, replays and
money that is neither made nor lost.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pelisali.analysis.baccarat_odds import baccarat_odds
from pelisali.cards import DECK
from pelisali.engine.baccarat import BaccaratEngine, BaccaratState, baccarat_engines
from pelisali.engine.blackjack import (
    BetBox,
    BlackjackEngine,
    BlackjackState,
    Double,
    Hit,
    Insure,
    Split,
    Stand,
    blackjack_engines,
)
from pelisali.engine.contract import (
    CHANCE,
    ChanceOutcome,
    Event,
    IllegalMove,
    Move,
    Seats,
    State,
    replay,
    sample_chance,
)
from pelisali.engine.wager import EndBetting, PlaceBet
from pelisali.games.blackjack import BlackjackTable, Phase
from pelisali.games.blackjack_rules import BlackjackConfig
from pelisali.games.punto_banco import PuntoBancoConfig, PuntoBancoTable, card_points
from pelisali.games.round import RoundError
from pelisali.rng import SeededRng

RICH = 10**12  # the tables' balances: never the reason a bet or a decision is refused
FAST = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def check_chance(state: State) -> None:
    """At a chance node the outcomes are distinct, positive and sum to exactly 1."""
    outcomes = state.chance_outcomes()
    assert outcomes
    assert len({o for o, _ in outcomes}) == len(outcomes)
    assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
    assert sum(p for _, p in outcomes) == 1


def check_money(state: State) -> None:
    accounts = state.accounts()
    assert sum(accounts.values()) == 0
    assert tuple(accounts[f"seat {i}"] for i in range(len(state.returns()))) == state.returns()


def shuffled(decks: int, seed: int) -> list[str]:
    order = list(DECK) * decks
    random.Random(seed).shuffle(order)
    return order


# -- punto banco: the same coups through the engine and the table -----------------------------


@FAST
@given(seed=st.integers(0, 2**32 - 1), decks=st.sampled_from([1, 6, 8]))
def test_punto_banco_settles_as_the_table(seed: int, decks: int) -> None:
    rng = random.Random(seed)
    seats = rng.randint(1, 4)
    engine = BaccaratEngine.from_settings({"decks": str(decks)})
    table = PuntoBancoTable(SeededRng(seed), PuntoBancoConfig.from_settings({"decks": str(decks)}))
    for seat in range(seats):
        table.sit(f"p{seat}", RICH)
    state = engine.new_state(Seats(seats))
    # Bets in seat order; some under the minimum, over the maximum, odd for rounding.
    for seat in range(seats):
        for _ in range(rng.randint(0, 4)):
            spot = rng.choice(["player", "banker", "tie"])
            stake = rng.choice([rng.randint(1, 600), rng.randint(500, 5000),
                                rng.randint(90_000, 150_000)])
            try:
                receipt = table.place(f"p{seat}", spot, stake)
            except RoundError:
                with pytest.raises(IllegalMove):
                    state.apply(PlaceBet(spot, stake))
                continue
            state = state.apply(f"bet {spot} {stake}").state
            assert state.bets[-1].stake == receipt.accepted
            assert state.bets[-1].bet_id == receipt.bet_id
        assert state.to_move() == seat
        state = state.apply("done").state
    if not table.bets:
        assert state.is_terminal() and state.returns() == (0,) * seats
        return
    order = shuffled(decks, seed)
    dealt = []
    while state.is_chance():
        check_chance(state)
        check_money(state)
        card = order[len(dealt)]
        dealt.append(card)
        state = state.apply(card).state
    assert state.is_terminal()
    coup, settlements = table.deal(stacked=dealt)
    assert [list(c) for c in state.cards] == [list(c) for c in coup.cards]
    assert [(s.bet_id, s.seat, s.spot, s.stake, s.paid, s.rounding, s.result)
            for s in state.settlements] == [
        (s.bet_id, int(s.player[1:]), s.spot, s.stake, s.paid, s.rounding, s.result)
        for s in settlements]
    check_money(state)
    assert state.returns() == tuple(table.balances[f"p{i}"] - RICH for i in range(seats))
    assert state.accounts()["house"] == table.house_result
    assert state.shoe_left() == Counter(list(DECK) * decks) - Counter(dealt)


def test_punto_banco_commission_rounding_goes_to_the_house() -> None:
    state = BaccaratEngine().new_state(Seats(1))
    for move in ["bet banker 1001", "done", "Kc", "9h", "7d", "Ts"]:
        state = state.apply(move).state
    (settled,) = state.settlements
    # 1001 + 1001 * 0.95 = 1951.95: 1951 paid, 0.95 cents kept by the house
    assert (settled.paid, settled.rounding, settled.result) == (1951, Fraction(19, 20), "win")
    assert state.accounts() == {"seat 0": 950, "table": 0, "house": -950}


# -- punto banco: the whole chance tree of a small shoe ---------------------------------------


def expected_paid(state: BaccaratState) -> dict[str, Fraction]:
    """Expected total paid to each bet, walking every chance outcome from ``state``."""
    if state.is_terminal():
        return {s.spot: s.paid + s.rounding for s in state.settlements}
    check_chance(state)
    out: dict[str, Fraction] = Counter()
    for outcome, p in state.chance_outcomes():
        for spot, value in expected_paid(state.apply(outcome).state).items():
            out[spot] += p * value
    return out


def exact_walk(shoe: Counter[str]) -> None:
    engine = BaccaratEngine()
    state = engine.new_round(Seats(3), shoe=shoe)
    for move in ["bet player 2000", "done", "bet banker 2000", "done", "bet tie 2000", "done"]:
        state = state.apply(move).state
    composition = [0] * 10
    for card, count in shoe.items():
        composition[card_points(card)] += count
    odds = baccarat_odds(tuple(composition), engine.config)
    assert {spot: value / 2000 for spot, value in expected_paid(state).items()} == odds.rtp


def test_punto_banco_exact_return_of_a_partly_dealt_shoe() -> None:
    # 18 cards, six distinct: two of value 0 (K, T), and 3, 5, 6, 9.
    exact_walk(Counter({"Kd": 4, "Ts": 3, "3c": 3, "5h": 3, "6s": 3, "9d": 2}))


@settings(max_examples=8, deadline=None)
@given(counts=st.lists(st.integers(1, 4), min_size=3, max_size=4),
       cards=st.permutations(["As", "2c", "4h", "7d", "Qs", "9c"]))
def test_punto_banco_exact_return_of_small_shoes(counts: list[int], cards: list[str]) -> None:
    shoe = Counter(dict(zip(cards, counts, strict=False)))
    if sum(shoe.values()) < 6:
        shoe[cards[0]] += 6 - sum(shoe.values())
    exact_walk(shoe)


# -- punto banco: refused moves ------------------------------------------------------------------


def refuses(state: State, action: object) -> None:
    """``action`` is refused and the state is as it was (equal to a replay of its history)."""
    twin = replay(state.game, Seats(len(state.returns())), state.history)
    with pytest.raises(IllegalMove):
        state.apply(action)  # type: ignore[arg-type]
    assert state == twin


def test_punto_banco_refuses_illegal_moves() -> None:
    state = BaccaratEngine().new_state(Seats(2))
    for text in ["bet dragon 500", "bet banker -500", "bet banker 5.5", "bet banker", "hit",
                 "Kc"]:
        refuses(state, text)
    refuses(state, PlaceBet("dragon", 500))
    refuses(state, PlaceBet("banker", -500))
    refuses(state, PlaceBet("banker", 0))
    refuses(state, PlaceBet("banker", 499))  # under the table minimum
    refuses(state, ChanceOutcome("Kc"))      # a seat is to act, not chance
    state = state.apply("bet banker 100000").state
    refuses(state, PlaceBet("banker", 500))  # the seat's banker stake is at the maximum
    state = state.apply("bet player 600").state.apply("done").state
    assert state.to_move() == 1
    state = state.apply("done").state
    assert state.is_chance()
    refuses(state, PlaceBet("tie", 500))     # no more bets
    refuses(state, EndBetting())
    refuses(state, "Xx")
    with pytest.raises(IllegalMove):         # out of turn: seat 1's move when chance is to move
        replay(state.game, Seats(2), [*state.history, Move(1, EndBetting())])


def test_punto_banco_refuses_a_card_not_in_the_shoe() -> None:
    shoe = Counter({card: 1 for card in DECK if card[0] != "A"})
    state = BaccaratEngine().new_round(Seats(1), shoe=shoe)
    state = state.apply("bet tie 500").state.apply("done").state
    with pytest.raises(IllegalMove):
        state.apply("As")
    state = state.apply("Kc").state
    with pytest.raises(IllegalMove):
        state.apply("Kc")  # the only Kc is dealt
    assert "Kc" not in state.shoe_left() and state.to_move() == CHANCE
    with pytest.raises(IllegalMove):
        BaccaratEngine().new_round(Seats(1), shoe=Counter({"As": 5}))  # under six cards
    with pytest.raises(IllegalMove):
        BaccaratEngine().new_round(Seats(1), shoe=Counter({"As": 9, "Kd": 8}))  # 8 decks


def test_punto_banco_views_and_terminal() -> None:
    state = BaccaratEngine().new_state(Seats(2))
    for move in ["bet player 700", "done", "bet tie 500", "done", "2c", "3d", "4h", "3s"]:
        state = state.apply(move).state
    assert state.is_terminal() and state.hidden_from(0) == frozenset()
    assert state.view(None)["result"] == "tie" and "bets" not in state.view(None)
    assert [b["spot"] for b in state.view(0)["bets"]] == ["player"]
    assert [s["result"] for s in state.view(1)["settlements"]] == ["win"]
    assert state.returns() == (0, 4000)
    refuses(state, "done")


def test_no_bets_no_coup() -> None:
    state = baccarat_engines()["punto-banco"].new_state(Seats(1)).apply("done").state
    assert state.is_terminal() and state.returns() == (0,) and state.cards == ()


# -- blackjack: the same rounds through the engine and the table -----------------------------


SETTINGS_CHOICES: dict[str, list[str | bool]] = {
    "decks": ["1", "2", "6", "8"],
    "blackjack_pays": ["3:2", "8:5", "2:1"],
    "double_after_split": [True, False],
    "split_aces_one_card": [True, False],
    "dealer_blackjack_under_ten": ["takes_all", "original_only"],
}


def rich_order(rng: random.Random, decks: int, size: int) -> list[str]:
    """``size`` cards of a ``decks``-deck shoe drawn from a few ranks, so that pairs, aces,
    blackjacks and dealer draws come up often; or the whole shoe shuffled."""
    if rng.random() < 0.3:
        return shuffled(decks, rng.randrange(2**32))
    ranks = rng.sample("A23456789TJQK", rng.randint(3, 6))
    pool = [card for card in DECK if card[0] in ranks] * decks
    rng.shuffle(pool)
    return pool[:size]


def decide(rng: random.Random, state: BlackjackState) -> tuple[object, tuple[str, int | None]]:
    """A random legal decision: the engine's action and the table's call."""
    legal = state.legal_actions()
    action = rng.choice(legal)
    if isinstance(action, Insure):
        amount = rng.randint(0, legal[-1].amount if isinstance(legal[-1], Insure) else 0)
        return Insure(amount), ("insure", amount)
    if isinstance(action, Double):
        current = state.current()
        assert current is not None
        stake = current[0].hands[current[1]].stake
        amount = rng.choice([None, None, rng.randint(1, stake)])
        return Double(amount), ("double", amount)
    return action, (action.text(), None)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_blackjack_settles_as_the_table(seed: int) -> None:
    rng = random.Random(seed)
    chosen = {key: rng.choice(values) for key, values in SETTINGS_CHOICES.items()}
    engine = BlackjackEngine.from_settings(chosen)
    table = BlackjackTable(SeededRng(seed), BlackjackConfig.from_settings(chosen))
    seats = rng.randint(1, 3)
    for seat in range(seats):
        table.sit(f"p{seat}", RICH)
    order = rich_order(rng, engine.config.decks, rng.randint(16, 70))
    state = engine.new_round(Seats(seats), shoe=Counter(order))
    for seat in range(seats):
        for _ in range(rng.randint(0, 2)):
            box = rng.randint(1, 7)
            stake = rng.choice([rng.randint(400, 5001), rng.randint(99_000, 120_000)])
            try:
                receipt = table.place(f"p{seat}", box, stake)
            except RoundError:
                refuses_blackjack(state, BetBox(box, stake))
                continue
            state = state.apply(BetBox(box, stake)).state
            assert state.box(box).bet == receipt.accepted
        state = state.apply(EndBetting()).state
    if not table.seats:
        assert state.is_terminal() and state.returns() == (0,) * seats
        return
    table.deal(stack=order)
    used = 0
    try:
        while not state.is_terminal():
            check_money(state)
            if state.is_chance():
                check_chance(state)
                state = state.apply(order[used]).state
                used += 1
                continue
            if state.phase == "insurance":
                assert table.phase is Phase.INSURANCE
                assert table.insurance_pending()[0] == state.insurance_box().box
            else:
                current = state.current()
                assert current is not None
                assert table._turn[0] == (current[0].box, current[1])
                if len(order) - used >= 2:  # the table offers what the shoe cannot give
                    assert [a.text() for a in state.legal_actions()
                            if not (isinstance(a, Double) and a.amount is not None)] \
                        == table.legal_actions()
            action, (name, amount) = decide(rng, state)
            state = state.apply(action).state  # type: ignore[arg-type]
            if name == "insure":
                assert amount is not None
                table.insure(table.insurance_pending()[0], amount)
            else:
                table.act(name, amount)
    except RoundError:
        # The table ran out of entered cards drawing for the dealer: the engine deals the
        # same cards and voids the round when it needs one more.
        while state.is_chance():
            state = state.apply(order[used]).state
            used += 1
        assert state.phase == "void" and used == len(order)
        assert all(s.paid == s.stake for s in state.settlements)
        check_money(state)
        return
    assert state.phase == "settled", state.phase
    assert table.phase is Phase.SETTLED
    assert list(state.dealer) == table.dealer
    assert [(s.bet_id, s.seat, s.spot, s.stake, s.paid, s.rounding, s.result)
            for s in state.settlements] == [
        (s.bet_id, int(s.player[1:]), s.spot.replace("seat", "box"), s.stake, s.paid,
         s.rounding, s.result) for s in table.settlements]
    check_money(state)
    assert state.returns() == tuple(table.balances[f"p{i}"] - RICH for i in range(seats))
    assert state.accounts()["house"] == table.house_result
    table.check_conservation()


def refuses_blackjack(state: BlackjackState, action: object) -> None:
    twin = replay_round(state)
    with pytest.raises(IllegalMove):
        state.apply(action)  # type: ignore[arg-type]
    assert state == twin


def replay_round(state: BlackjackState) -> BlackjackState:
    """``state`` rebuilt from its own shoe at the start and its history."""
    start = state.shoe_left() + Counter(move.action.text() for move in state.history
                                        if move.actor == CHANCE)
    twin = state.game.new_round(Seats(state.seats), shoe=start)
    for move in state.history:
        assert move.actor == twin.to_move()
        twin = twin.apply(move.action).state
    assert isinstance(twin, BlackjackState)
    return twin


# -- blackjack: particular rounds -------------------------------------------------------------


def one_box(*cards: str, stake: int = 1000, settings: dict[str, str | bool] | None = None,
            insure: int | None = None) -> BlackjackState:
    """Box 1 of seat 0 with ``stake``, the first four cards dealt from a full shoe."""
    state = BlackjackEngine.from_settings(settings).new_state(Seats(1))
    state = state.apply(BetBox(1, stake)).state.apply("done").state
    for card in cards[:4]:
        state = state.apply(card).state
    if insure is not None:
        state = state.apply(Insure(insure)).state
    for card in cards[4:]:
        state = state.apply(card).state
    return state


def test_blackjack_refuses_illegal_moves() -> None:
    state = BlackjackEngine().new_state(Seats(2))
    for action in [Hit(), Insure(0), Double(), ChanceOutcome("As"), BetBox(0, 1000),
                   BetBox(8, 1000), BetBox(1, -1000), BetBox(1, 0), BetBox(1, 499)]:
        refuses_blackjack(state, action)
    for text in ["bet box one 1000", "bet 1 1000", "double half", "fold"]:
        refuses_blackjack(state, text)
    state = state.apply(BetBox(1, 1000)).state
    refuses_blackjack(state, BetBox(1, 1000))  # one bet a box
    state = state.apply("done").state
    refuses_blackjack(state, BetBox(1, 1000))  # seat 1 may not bet in seat 0's box
    state = state.apply("done").state
    refuses_blackjack(state, Stand())          # chance is to deal
    # 8 8 against an ace: insurance first, at most half the bet.
    for card in ["8c", "Ah", "8d"]:
        state = state.apply(card).state
    refuses_blackjack(state, "Zz")
    state = state.apply("6s").state
    assert state.phase == "insurance" and state.to_move() == 0
    for action in [Insure(501), Insure(-1), Stand(), Hit(), Split()]:
        refuses_blackjack(state, action)
    state = state.apply("insure 0").state
    assert [a.text() for a in state.legal_actions()] == \
        ["hit", "stand", "double", "double 1", "split"]
    for action in [Double(0), Double(1001), Double(-5), Insure(0), BetBox(2, 1000)]:
        refuses_blackjack(state, action)
    state = state.apply("hit").state.apply("2c").state   # 8 8 2: no double, no split now
    for action in [Double(), Double(500), Split()]:
        refuses_blackjack(state, action)
    with pytest.raises(IllegalMove):  # out of turn: seat 1 has no box
        replay(state.game, Seats(2), [*state.history, Move(1, Stand())])


def test_blackjack_no_double_after_split_when_the_table_says_so() -> None:
    state = one_box("9c", "Th", "9d", "7s", settings={"double_after_split": False})
    state = state.apply("split").state.apply("2c").state.apply("2d").state
    assert [a.text() for a in state.legal_actions()] == ["hit", "stand"]
    refuses_blackjack(state, Double())
    # split aces take one card each: nothing to decide, the dealer stands on 17
    state = one_box("Ac", "Th", "Ad", "7s").apply("split").state
    state = state.apply("Kc").state.apply("5d").state
    assert state.is_terminal()
    assert [(s.spot, s.paid, s.result) for s in state.settlements] == \
        [("box 1 hand 1", 2000, "win"), ("box 1 hand 2", 0, "lose")]


@pytest.mark.parametrize("rule", ["takes_all", "original_only"])
def test_blackjack_dealer_blackjack_under_a_ten_after_a_split_and_a_double(rule: str) -> None:
    chosen: dict[str, str | bool] = {"dealer_blackjack_under_ten": rule}
    cards = ["8c", "Th", "8d", "As", "3c", "9d", "Kc"]
    state = one_box(*cards[:4], settings=chosen)
    for move in ["split", "3c", "9d", "double", "Kc", "stand"]:  # 8 3 doubled to 21; 8 9
        state = state.apply(move).state
    table = BlackjackTable(SeededRng(0), BlackjackConfig.from_settings(chosen))
    table.sit("p0", RICH)
    table.place("p0", 1, 1000)
    table.deal(stack=cards)
    for name in ["split", "double", "stand"]:
        table.act(name)
    assert state.is_terminal() and state.revealed and table.phase is Phase.SETTLED
    assert [(s.spot, s.stake, s.paid, s.result) for s in state.settlements] == \
        [(s.spot.replace("seat", "box"), s.stake, s.paid, s.result) for s in table.settlements]
    assert state.returns() == ((-3000,) if rule == "takes_all" else (-1000,))
    check_money(state)


def test_blackjack_insurance_and_dealer_blackjack_conserve_money() -> None:
    state = one_box("Tc", "Ah", "9d", "Ks", insure=500)  # dealer blackjack under the ace
    assert state.is_terminal() and state.revealed
    assert [(s.spot, s.stake, s.paid, s.result) for s in state.settlements] == \
        [("box 1 insurance", 500, 1500, "win"), ("box 1", 1000, 0, "lose")]
    assert state.returns() == (0,)
    check_money(state)


def test_blackjack_a_shoe_that_runs_out_voids_the_round() -> None:
    engine = BlackjackEngine()
    state = engine.new_round(Seats(1), shoe=Counter({"9c": 1, "5d": 1, "7h": 1, "6s": 1}))
    state = state.apply("bet box 3 1000").state.apply("done").state
    refuses_blackjack(state, "As")  # not in the shoe
    for card in ["9c", "5d", "7h", "6s"]:  # 16 against a 5, with nothing left in the shoe
        state = state.apply(card).state
    assert [a.text() for a in state.legal_actions()] == ["stand"]
    refuses_blackjack(state, Hit())
    state = state.apply("stand").state  # the dealer must draw from an empty shoe
    assert state.phase == "void" and state.is_terminal()
    assert state.returns() == (0,) and state.accounts()["house"] == 0


# -- blackjack: the hole card stays hidden ----------------------------------------------------


def play_randomly(state: State, rng: random.Random, seed: int) -> list[tuple[State, list[Event]]]:
    """Every state on a random path to the end, with the events that led to it."""
    chance = SeededRng(seed)
    path: list[tuple[State, list[Event]]] = [(state, [])]
    while not state.is_terminal():
        if state.is_chance():
            check_chance(state)
            action: object = sample_chance(state, chance)
        else:
            action = rng.choice(state.legal_actions())
        step = state.apply(action)  # type: ignore[arg-type]
        state = step.state
        path.append((state, list(step.events)))
        check_money(state)
    return path


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(1, 3))
def test_blackjack_the_hole_card_never_shows_before_the_dealer_plays(seed: int,
                                                                    seats: int) -> None:
    rng = random.Random(seed)
    engine = BlackjackEngine.from_settings({"decks": "1"})  # one deck: every card is unique
    state = engine.new_round(Seats(seats), shoe=Counter(DECK))
    for seat in range(seats):
        state = state.apply(BetBox(seat + 1, rng.choice([500, 1000, 2500]))).state
        state = state.apply("done").state
    seen: list[Event] = []
    for now, events in play_randomly(state, rng, seed):
        assert isinstance(now, BlackjackState)
        seen += events
        hole = now.dealer[1] if len(now.dealer) >= 2 else None
        for who in [None, *range(seats)]:
            hidden = now.hidden_from(who)
            if hole is None or now.revealed:
                assert hidden == frozenset()
                continue
            assert hidden == {hole}
            text = json.dumps(now.view(who)) + json.dumps(
                [e.text for e in now.events_for(seen, who)])
            assert hole not in text
            assert hole not in now.view(who)["dealer"]
        if now.revealed and now.phase != "void":
            assert now.view(None)["dealer"][:2] == list(now.dealer[:2])


# -- replays -------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["punto-banco", "blackjack"]))
def test_replay_gives_an_equal_state(seed: int, game: str) -> None:
    rng = random.Random(seed)
    engines = {**baccarat_engines(), **blackjack_engines()}
    seats = Seats(rng.randint(1, 3))
    state = engines[game].new_state(seats)
    while state.to_move() not in (None, CHANCE):
        legal = [a for a in state.legal_actions() if not isinstance(a, EndBetting)]
        if legal and rng.random() < 0.6:
            state = state.apply(rng.choice(legal)).state
        else:
            state = state.apply("done").state
    for now, _ in play_randomly(state, rng, seed):
        again = replay(engines[game], seats, now.history)
        assert again == now
        assert again.view(0) == now.view(0) and again.returns() == now.returns()
