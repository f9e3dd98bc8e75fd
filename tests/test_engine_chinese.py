"""Chinese Poker under the engine contract, checked against ChineseTable and settle."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from pelisali.cards import DECK
from pelisali.cards import parse_cards as p
from pelisali.engine.chinese import ChineseEngine, ChineseState, SetHand, chinese_engines
from pelisali.engine.contract import (
    CHANCE,
    Action,
    ChanceOutcome,
    Event,
    IllegalMove,
    Move,
    Seats,
    replay,
    sample_chance,
)
from pelisali.poker.chinese import ChineseHand, ChineseTable, best_set, random_set, settle
from pelisali.rng import SeededRng

CARD = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][cdhs](?![0-9A-Za-z])")


def nxt(state: ChineseState, action: Action | str) -> ChineseState:
    """The next state, typed as the engine's own."""
    after = state.apply(action).state
    assert isinstance(after, ChineseState)
    return after


def dealt(engine: ChineseEngine, stacks: list[int], cards: list[list[str]]) -> ChineseState:
    state = engine.new_state(Seats.with_stacks(stacks))
    for card in (c for hand in cards for c in hand):
        state = nxt(state, ChanceOutcome(card))
    return state


def strings(data: Any) -> Iterator[str]:
    """Every string in a view, keys included."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield str(key)
            yield from strings(value)
    elif isinstance(data, list | tuple):
        for item in data:
            yield from strings(item)


def card_tokens(data: Any) -> set[str]:
    return {token for text in strings(data) for token in CARD.findall(text)}


def test_same_cards_same_hands_same_chips_as_chinese_table() -> None:
    misset_rounds = 0
    for seed in range(60):
        players = 2 + seed % 3
        point_value = (100, 25, 500)[seed % 3]
        minimum = 3 * point_value * (players - 1)
        table = ChineseTable(point_value, [minimum + 7 * seat * point_value
                                           for seat in range(players)])
        engine = ChineseEngine(point_value)
        state = engine.new_state(Seats.with_stacks(list(table.chips)))
        rng = SeededRng(seed)
        cards = table.deal(rng)
        for card in (c for hand in cards for c in hand):
            state = nxt(state, ChanceOutcome(card))
        assert [list(state.cards(seat)) for seat in range(players)] == cards
        hands: dict[int, ChineseHand] = {}
        for seat in range(players):
            assert state.to_move() == seat
            hand = best_set(cards[seat]) if (seed + seat) % 2 else random_set(cards[seat], rng)
            hands[seat] = hand
            table.place(seat, hand)
            # alternate typed actions and their text, so both paths settle alike
            action = SetHand.of(hand)
            state = nxt(state, action.text() if seat % 2 else action)
        misset_rounds += any(h.misset for h in hands.values())
        assert state.is_terminal()
        assert table.last == dict(enumerate(state.returns()))
        assert table.chips == list(state.chips())
        direct = settle({str(s): h for s, h in hands.items()}, point_value)
        assert state.returns() == tuple(direct[str(s)] for s in range(players))
        accounts = state.accounts()
        assert set(accounts) == {f"seat {s}" for s in range(players)}
        assert sum(accounts.values()) == 0
        shown = state.view(None)["hands"]
        assert [(tuple(h["front"]), tuple(h["middle"]), tuple(h["back"]), h["misset"])
                for h in shown] == [(h.front, h.middle, h.back, h.misset)
                                    for h in hands.values()]
    assert misset_rounds > 10  # the random sets miss often: misset hands were settled too


def test_chance_deals_the_rest_of_the_deck_at_exact_equal_odds() -> None:
    engine = ChineseEngine()
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        state = engine.new_state(Seats.with_stacks([engine.minimum(players)] * players))
        rng = SeededRng(seed)
        while state.is_chance():
            outcomes = state.chance_outcomes()
            assert sum(prob for _, prob in outcomes) == Fraction(1)
            assert {prob for _, prob in outcomes} == {Fraction(1, 52 - len(state.dealt))}
            assert sorted(o.label for o, _ in outcomes) == sorted(set(DECK) - set(state.dealt))
            assert state.legal_actions() == ()
            state = nxt(state, sample_chance(state, rng))
        assert len(state.dealt) == 13 * players == len(set(state.dealt))
        assert state.chance_outcomes() == ()
        assert [state.history[i].actor for i in range(13 * players)] == [CHANCE] * 13 * players


def play(seed: int, players: int) -> Iterator[tuple[ChineseState, tuple[Event, ...]]]:
    """Every state of a round with the events that led to it."""
    engine = ChineseEngine(50)
    state = engine.new_state(Seats.with_stacks([engine.minimum(players)] * players))
    rng = SeededRng(seed)
    yield state, ()
    while not state.is_terminal():
        if state.is_chance():
            step = state.apply(sample_chance(state, rng))
        else:
            actions = state.legal_actions()
            step = state.apply(actions[rng.randbelow(len(actions))])
        assert isinstance(step.state, ChineseState)
        state = step.state
        yield state, step.events


def test_views_never_show_a_hidden_card() -> None:
    for seed, players in ((4, 2), (5, 3), (6, 4)):
        seen_settled = False
        for state, events in play(seed, players):
            for seat in (None, *range(players)):
                hidden = state.hidden_from(seat)
                view = state.view(seat)
                json.dumps(view)  # plain JSON data
                assert not card_tokens(view) & hidden, (seat, view)
                shown = [e.text for e in state.events_for(events, seat)]
                assert not card_tokens(shown) & hidden, (seat, shown)
                own = set(state.cards(seat)) if seat is not None else set()
                if not state.is_terminal():  # the others' cards until the showdown
                    assert set(state.dealt) - own <= hidden
                if seat is not None:
                    assert view["cards"] == list(state.cards(seat))
                    assert set(state.cards(seat)).isdisjoint(hidden)
                if not state.is_terminal():  # the undealt deck and the others' cards are hidden
                    assert set(DECK) - set(state.dealt) <= hidden
            if state.is_terminal():
                seen_settled = True
                assert state.hidden_from(None) == frozenset(DECK) - frozenset(state.dealt)
                assert card_tokens(state.view(None)) == set(state.dealt)
        assert seen_settled


def test_a_seats_set_hand_stays_its_own_until_the_showdown() -> None:
    cards = [list(DECK[13 * s:13 * (s + 1)]) for s in range(3)]
    state = dealt(ChineseEngine(), [600] * 3, cards)
    state = nxt(state, SetHand.of(best_set(cards[0])))
    assert state.view(0)["hand"] is not None and state.view(0)["set"] == [True, False, False]
    assert state.view(1)["hand"] is None and "hands" not in state.view(1)
    assert not card_tokens(state.view(1)) & set(cards[0])


def test_replay_gives_an_equal_state() -> None:
    for seed, players in ((7, 2), (8, 3), (9, 4)):
        engine = ChineseEngine(50)
        seats = Seats.with_stacks([engine.minimum(players) + seed] * players)
        for number, (state, _) in enumerate(play(seed, players)):
            if number % 9 and not state.is_terminal() and state.to_move() == CHANCE:
                continue
            recalled = replay(state.game, Seats.with_stacks(list(state.stacks)), state.history)
            assert recalled == state
        assert recalled.is_terminal()
        deal = tuple(Move(CHANCE, ChanceOutcome(card)) for card in DECK[:13 * players])
        with pytest.raises(IllegalMove, match="but seat 0 is to move"):  # seat 1 out of turn
            replay(engine, seats, (*deal, Move(1, SetHand.of(best_set(DECK[13:26])))))
        with pytest.raises(IllegalMove, match="but chance is to move"):
            replay(engine, seats, (*deal[:5], Move(0, SetHand.of(best_set(DECK[:13])))))


def refused(state: ChineseState, action: Any, match: str) -> None:
    before = copy.deepcopy(state, {id(state.game): state.game})  # the same engine
    with pytest.raises(IllegalMove, match=match):
        state.apply(action)
    assert state == before


def test_illegal_moves_are_refused_and_change_nothing() -> None:
    engine = ChineseEngine(100)
    cards = [list(DECK[26:39]), list(DECK[:13]), list(DECK[39:])[::-1]]
    state = engine.new_state(Seats.with_stacks([600, 600, 600]))
    state = nxt(state, "Qc")
    # chance: a dealt card, no card, a seat acting during the deal
    refused(state, "Qc", "cannot come up")
    refused(state, "Xx", "cannot come up")
    refused(state, ChanceOutcome("1s"), "cannot come up")
    refused(state, SetHand.of(best_set(cards[0])), "chance's turn")
    refused(state, "set 2c 2d 2h / 3c 3d 3h 3s 4c / 4d 4h 4s 5c 5d", "cannot come up")

    state = dealt(engine, [600, 600, 600], cards)
    assert state.to_move() == 0
    mine = tuple(cards[0])
    refused(state, SetHand.of(best_set(cards[1])), "seat 0 does not hold")  # seat 1's hand
    refused(state, SetHand(mine[:3], mine[3:8], (*mine[8:12], cards[2][0])), "does not hold")
    refused(state, SetHand(mine[:3], mine[3:8], (*mine[8:12], mine[0])), "set twice")
    refused(state, SetHand(mine[:4], mine[4:8], mine[8:]), "not 4/4/5")
    refused(state, SetHand(mine[:3], mine[3:8], mine[8:12]), "not 3/5/4")
    refused(state, SetHand(mine[:3], mine[3:8], (*mine[8:12], "Zz")), "'Zz' is not a card")
    text = SetHand(mine[:3], mine[3:8], mine[8:]).text()
    refused(state, text.replace(mine[0], mine[1]), "set twice")
    refused(state, text.replace("/", " ", 1), "not an action here")
    refused(state, text.replace(mine[0], "Xq"), "not a card")
    refused(state, "fold", "not an action here")
    refused(state, ChanceOutcome(cards[0][0]), "chance outcome cannot be applied")
    before = copy.deepcopy(state, {id(state.game): state.game})
    for seat in (1, 2):  # a seat sending its own hand before its turn
        with pytest.raises(IllegalMove, match=f"not seat {seat}'s turn; seat 0 is to move"):
            state.apply(SetHand.of(best_set(cards[seat])), seat=seat)
    assert state == before

    state = nxt(state, text)  # the cards as dealt: legal even when misset
    refused(state, text, "seat 1 does not hold")  # seat 0 again, out of turn
    with pytest.raises(IllegalMove, match="not seat 0's turn"):
        state.apply(text, seat=0)
    state = nxt(state, SetHand.of(best_set(cards[1])))
    state = nxt(state, SetHand.of(best_set(cards[2])))
    assert state.is_terminal() and state.legal_actions() == () and state.chance_outcomes() == ()
    refused(state, SetHand.of(best_set(cards[2])), "round is over")
    refused(state, "2c", "round is over")
    with pytest.raises(IllegalMove, match="no seat 3"):
        state.view(3)


def test_legal_actions_include_the_best_set_and_any_arrangement_checks() -> None:
    cards = [list(DECK[:13]), list(DECK[13:26])]
    state = dealt(ChineseEngine(), [300, 300], cards)
    actions = state.legal_actions()
    assert SetHand.of(best_set(cards[0])) in actions and len(set(actions)) >= 2
    for action in actions:
        state.check(action)
        assert state.parse_action(action.text()) == action
    mine = tuple(cards[0])
    misset = SetHand(mine[10:], mine[:5], mine[5:10])  # three 4s etc. in front
    state.check(misset)
    after = nxt(state, misset)
    after = nxt(after, after.legal_actions()[0])
    assert after.hands[0] is not None and after.hands[0].misset
    assert after.returns() == (-300, 300)  # a misset hand loses all three


def test_seats_must_bring_a_round_of_chips() -> None:
    engine = ChineseEngine(100)
    with pytest.raises(IllegalMove, match="less than the 600"):
        engine.new_state(Seats.with_stacks([600, 599, 900]))
    with pytest.raises(IllegalMove, match="played for chips"):
        engine.new_state(Seats(3))
    with pytest.raises(IllegalMove, match="2 to 4"):
        engine.new_state(Seats.with_stacks([900] * 5))
    with pytest.raises(IllegalMove, match="2 to 4"):
        engine.new_state(Seats.with_stacks([900]))
    with pytest.raises(IllegalMove, match="positive whole money value"):
        ChineseEngine(0)
    state = engine.new_state(Seats.with_stacks([300, 300]))
    assert state.to_move() == CHANCE and state.returns() == (0, 0)
    assert state.view(None)["stacks"] == [300, 300]


def test_registry_entry() -> None:
    games = chinese_engines()
    assert list(games) == ["chinese"]
    game = games["chinese"]
    assert isinstance(game, ChineseEngine) and game.point_value == 100
    assert game.title() == "Chinese Poker" and game.min_seats == 2 and game.max_seats == 4
    usual = game.default_seats()
    assert usual.count == 4 and game.new_state(usual).to_move() == CHANCE
    # the worked example in chinese.py's docstring, through the contract
    ann = p("2c 2d 3h 9s 9h 9d 4c 4d As Ks Qs Js Ts")
    bob = p("Ac Kd 7h 8s 8h 5d 5c 6d Qh Qd Qc 3c 3d")
    state = dealt(ChineseEngine(500), [1500, 1500], [ann, bob])
    state = nxt(state, "set 2c 2d 3h / 9s 9h 9d 4c 4d / As Ks Qs Js Ts")
    state = nxt(state, "set Ac Kd 7h / 8s 8h 5d 5c 6d / Qh Qd Qc 3c 3d")
    assert state.returns() == (1500, -1500) and state.chips() == (3000, 0)
