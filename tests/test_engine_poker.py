"""The poker games under the engine contract, checked against the table engine and PokerKit.

Every game self-play offers is played through the contract: each card a chance
outcome drawn with :func:`~pelisali.engine.contract.sample_chance`, each seat's
action a random legal one. The same cards (as a :class:`DealtCards` order) and
the same actions then go through :class:`~pelisali.poker.table.PokerHand`
directly, and must give the same hand, card for card and chip for chip; where
PHH has a code for the game PokerKit replays the hand's history to the same
stacks. The rest is the contract: exact probabilities, refused moves that change
nothing, no hidden card in any view or event, replays, and chips neither made
nor lost.
"""

from __future__ import annotations

import json
import random
import re
import warnings
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from pelisali.cards import DECK, Shoe
from pelisali.engine.contract import (
    CHANCE,
    Action,
    ChanceOutcome,
    Event,
    IllegalMove,
    Move,
    Seats,
    State,
    replay,
    sample_chance,
)
from pelisali.engine.poker import (
    CheckCall,
    Discard,
    Draw,
    Fold,
    PokerEngine,
    PokerState,
    RaiseTo,
    poker_engines,
)
from pelisali.poker.dealing import CardsNeeded, ChanceCards, DealtCards, ShuffledCards
from pelisali.poker.games import GAMES as POKER_GAMES
from pelisali.poker.selfplay import VARIANTS
from pelisali.poker.table import PokerHand
from pelisali.rng import SeededRng, shuffle

ENGINES = poker_engines()
IDS = sorted(ENGINES)
EXTRA = {  # other structures and settings: a deal again, the rake and the jackpot, hi/lo
    "draw-openers": PokerEngine.for_variant(VARIANTS["draw-openers"]),
    "holdem-rake": PokerEngine.for_variant(VARIANTS["holdem"], 1, 2, game_id="holdem-rake",
                                           fee_percent=Fraction(5, 100), fee_cap=3,
                                           jackpot_drop=1, jackpot_min_players=3),
    "omaha-hi-lo": PokerEngine.for_variant(VARIANTS["omaha-hi-lo"]),
    "stud-hi-lo": PokerEngine.for_variant(VARIANTS["stud-hi-lo"]),
    "holdem-limit": PokerEngine.for_game("holdem", structure="limit"),
    "double-flop-hi-lo": PokerEngine.for_variant(VARIANTS["double-flop-hi-lo"]),
}
ALL = {**ENGINES, **EXTRA}
WORD = re.compile(r"[0-9A-Za-z?]+")


def engine_of(game: str) -> PokerEngine:
    engine = ALL[game]
    assert isinstance(engine, PokerEngine)
    return engine


def nxt(state: PokerState, action: Action | str) -> PokerState:
    after = state.apply(action).state
    assert isinstance(after, PokerState)
    return after


def seats_for(engine: PokerEngine, rng: random.Random) -> Seats:
    """2 to the most seats (at most 9), stacks from a few chips (all-ins, side pots) up."""
    players = rng.randint(2, min(engine.max_seats, 9))
    return Seats.with_stacks([rng.choice([rng.randint(3, 40), rng.randint(40, 400)])
                              for _ in range(players)], rng.randrange(players))


def choose(state: PokerState, rng: random.Random) -> Action:
    """A random legal action; a raise sometimes to an amount between the two ends."""
    legal = state.legal_actions()
    action = rng.choice(legal)
    raises = [a.amount for a in legal if isinstance(a, RaiseTo)]
    if isinstance(action, RaiseTo) and len(raises) == 2 and rng.random() < 0.5:
        action = RaiseTo(rng.randint(min(raises), max(raises)))
    return action


def play(game: str, seed: int) -> list[tuple[PokerState, tuple[Event, ...]]]:
    """A hand played at random: every state on the way with the events that made it."""
    engine = engine_of(game)
    rng, chance = random.Random(seed), SeededRng(seed)
    state = engine.new_state(seats_for(engine, rng))
    out: list[tuple[PokerState, tuple[Event, ...]]] = [(state, ())]
    while not state.is_terminal():
        action = sample_chance(state, chance) if state.is_chance() else choose(state, rng)
        step = state.apply(action)
        assert isinstance(step.state, PokerState)
        state = step.state
        out.append((state, step.events))
    return out


def table_hand(state: PokerState) -> PokerHand:
    """The same hand played on PokerHand: the cards chance dealt, in order, and the moves."""
    engine = state.game
    order = [m.action.text() for m in state.history if m.actor == CHANCE]
    hand = PokerHand(engine.variant, list(state.seats.stacks), state.seats.button,
                     engine.small_blind, engine.big_blind, DealtCards(order), ante=engine.ante,
                     bring_in=engine.bring_in, fee_percent=engine.fee_percent,
                     fee_cap=engine.fee_cap, jackpot_drop=engine.jackpot_drop,
                     jackpot_min_players=engine.jackpot_min_players)
    for move in state.history:
        if move.actor == CHANCE:
            continue
        assert hand.actor == move.actor
        action = move.action
        if isinstance(action, Fold):
            hand.act("fold", seat=move.actor)
        elif isinstance(action, CheckCall):
            hand.act("check" if hand.legal().check else "call", seat=move.actor)
        elif isinstance(action, RaiseTo):
            hand.act("raise", action.amount, seat=move.actor)
        elif isinstance(action, Discard):
            hand.discard(action.card, seat=move.actor)
        elif isinstance(action, Draw):
            hand.draw(list(action.cards), seat=move.actor)
        else:
            raise AssertionError(f"not a poker action: {action!r}")
    return hand


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


def card_tokens(texts: Iterator[str]) -> set[str]:
    """The cards named in ``texts`` as whole tokens: ``As``, or a run such as ``AsKd7c``."""
    found: set[str] = set()
    for text in texts:
        for word in WORD.findall(text):
            pairs = [word[i:i + 2] for i in range(0, len(word), 2)]
            if len(word) % 2 == 0 and all(p in DECK for p in pairs):
                found.update(pairs)
    return found


# -- the same hands as the table engine and PokerKit ----------------------------------------------


@pytest.mark.parametrize("game", sorted(ALL))
def test_same_cards_same_actions_same_hand_as_the_table(game: str) -> None:
    for seed in range(40):
        final = play(game, seed)[-1][0]
        hand = table_hand(final)
        assert hand.finished
        assert hand.log == final.hand.log
        assert hand.stacks == list(final.chips())
        assert (hand.fee, hand.jackpot_taken) == (final.hand.fee, final.hand.jackpot_taken)
        assert final.returns() == tuple(s - b for s, b in zip(hand.stacks, final.seats.stacks,
                                                              strict=True))
        accounts = final.accounts()
        assert sum(accounts.values()) == 0 and accounts["table"] == 0
        assert accounts["fee"] + accounts["jackpot"] == hand.fee


def test_every_kind_of_step_is_played() -> None:
    """The random hands above reach the rare steps: a stub reshuffled, a deal again, a stud
    community card, a showdown, a discard."""
    logs = [entry for game in ("triple-draw", "draw", "draw-openers", "stud", "razz",
                               "pineapple")
            for seed in range(40) for entry in play(game, seed)[-1][0].hand.log]
    assert any("the stub ran out" in e for e in logs)
    assert any("nobody opened" in e for e in logs)
    assert any(e.startswith("d db ") for e in logs)  # stud's community card
    assert any(" sm " in e for e in logs) and any(" discard " in e for e in logs)


@pytest.mark.parametrize("game", sorted(g for g in ALL if engine_of(g).variant.phh_code
                                         and not engine_of(g).fee_percent))  # PHH: no rake
def test_pokerkit_replays_the_contract_hands_to_the_same_stacks(game: str) -> None:
    notation = pytest.importorskip("pokerkit.notation")
    for seed in range(12):
        final = play(game, seed)[-1][0]
        hand = final.hand
        with warnings.catch_warnings():  # PokerKit warns when a reshuffled card is dealt
            warnings.simplefilter("ignore")
            last = list(notation.HandHistory.loads(hand.phh()))[-1]
        n = hand.players
        order = [(hand.button + 1 + i) % n for i in range(n)]
        stacks = [0] * n
        for index, seat in enumerate(order):
            stacks[seat] = last.stacks[index]
        assert stacks == list(final.chips()) == hand.stacks


# -- the contract ------------------------------------------------------------------------------


def test_the_games_are_selfplays_with_its_forced_bets() -> None:
    assert set(ENGINES) == set(POKER_GAMES) == {
        "holdem", "pineapple", "crazy-pineapple", "helsinki", "omaha", "omaha-5",
        "courchevel", "double-flop", "stud", "razz", "soko", "draw", "lowball", "triple-draw"}
    for game, engine in ENGINES.items():
        assert isinstance(engine, PokerEngine) and engine.game_id == game
        assert engine.variant == VARIANTS[game]
        assert (engine.small_blind, engine.big_blind) == (1, 2)
    stud = engine_of("stud")
    assert (stud.ante, stud.bring_in) == (1, 1)
    assert engine_of("draw-openers").ante == 1
    assert PokerEngine.for_game("stud", hi_lo=True, low_rule="ace-to-five",
                                qualifier="eight").game_id == "stud-hi-lo"
    assert [engine_of(g).max_seats for g in ("holdem", "omaha", "omaha-5", "draw", "stud")] \
        == [12, 11, 9, 10, 12]


@pytest.mark.parametrize("game", IDS)
def test_chance_is_exact_and_every_state_conserves_chips(game: str) -> None:
    for seed in range(8):
        for state, _ in play(game, seed):
            accounts = state.accounts()
            assert sum(accounts.values()) == 0
            assert accounts["table"] >= 0
            if not state.is_chance():
                assert state.chance_outcomes() == ()
                continue
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1
            cards = [o.label for o, _ in outcomes]
            assert len(set(cards)) == len(cards) and set(cards) <= set(DECK)
            assert len({p for _, p in outcomes}) == 1
            held = {c for h in state.hand.hole for c in h} | set(state.hand.board) \
                | set(state.hand.second_board) | set(state.supplied)
            assert not held & set(cards)
            assert state.legal_actions() == ()


@pytest.mark.parametrize("game", sorted(ALL))
def test_no_view_and_no_event_shows_a_hidden_card(game: str) -> None:
    for seed in range(10):
        path = play(game, seed)
        for state, events in path:
            n = state.seats.count
            for seat in [*range(n), None]:
                hidden = state.hidden_from(seat)
                view = state.view(seat)
                json.dumps(view)  # plain JSON data
                assert not card_tokens(strings(view)) & hidden, (seat, view)
                seen = state.events_for(events, seat)
                assert not card_tokens(e.text for e in seen) & hidden, (seat, seen)
            hand = state.hand
            if not any(e.startswith("#") for e in hand.log):  # nothing thrown came back
                assert set(state.pool) <= state.hidden_from(None)
                for seat in range(n):
                    for other in range(n):
                        if other != seat and other not in hand.shown:
                            down = set(hand.hole[other]) - set(hand.up[other])
                            assert down <= state.hidden_from(seat)
        final = path[-1][0]
        if final.hand.shown:  # the showdown shows the hands
            shown = {c for s in final.hand.shown for c in final.hand.hole[s]}
            assert not shown & final.hidden_from(None)


@pytest.mark.parametrize("game", IDS)
def test_replay_gives_the_same_hand(game: str) -> None:
    engine = engine_of(game)
    for seed in range(10):
        path = play(game, seed)
        final = path[-1][0]
        again = replay(engine, final.seats, final.history)
        assert again.returns() == final.returns()
        assert isinstance(again, PokerState) and again.hand.log == final.hand.log
        assert again == final
        middle = path[len(path) // 2][0]
        assert replay(engine, middle.seats, middle.history) == middle


def test_actions_are_written_and_read_back() -> None:
    for game in ("pineapple", "triple-draw", "stud", "holdem"):
        for seed in range(5):
            for state, _ in play(game, seed):
                for action in state.legal_actions():
                    assert state.parse_action(action.text()) == action
    assert [a.text() for a in (Fold(), CheckCall(), RaiseTo(12), Discard("As"),
                               Draw(("2c", "7d")), Draw(()))] \
        == ["fold", "check/call", "raise 12", "discard As", "draw 2c 7d", "draw"]


# -- refused moves change nothing ------------------------------------------------------------------


def refuses(state: State, action: Action | str, match: str = "") -> None:
    before = (state.view(None), state.history, state.to_move(), state.returns())
    with pytest.raises(IllegalMove, match=match):
        state.apply(action)
    assert (state.view(None), state.history, state.to_move(), state.returns()) == before


def dealt(game: str, stacks: list[int], cards: list[str], button: int = 0) -> PokerState:
    state = engine_of(game).new_state(Seats.with_stacks(stacks, button))
    for card in cards:
        state = nxt(state, card)
    assert not state.is_chance()
    return state


def test_illegal_bets_are_refused() -> None:
    # Three seats, button 0: seat 1 small blind, seat 2 big blind, seat 0 first to act.
    state = dealt("holdem", [100, 100, 100], ["As", "Ad", "Ks", "Kd", "Qs", "Qd"])
    assert state.to_move() == 0
    assert state.legal_actions() == (Fold(), CheckCall(), RaiseTo(4), RaiseTo(100))
    refuses(state, RaiseTo(3), "outside 4..100")  # below the minimum raise
    refuses(state, RaiseTo(101), "outside")
    refuses(state, "check", "2 to call")  # a check facing the big blind is not a call
    refuses(state, "raise lots", "whole number")
    refuses(state, "bring-in", "stud")
    refuses(state, Discard("As"), "not a bet")
    refuses(state, Draw(("As",)), "not a bet")
    refuses(state, "As", "not an action")  # a card is chance's, not a seat's
    refuses(state, ChanceOutcome("2c"), "a chance outcome cannot be applied")
    state = nxt(state, RaiseTo(7))  # any total between the two ends
    assert state.hand.current_bet == 7
    state = nxt(nxt(state, "fold"), "call")
    assert state.is_chance() and state.to_move() == CHANCE
    refuses(state, Fold(), "chance's turn")
    refuses(state, "fold", "cannot come up")
    refuses(state, ChanceOutcome("Zz"), "cannot come up")  # not a card of the deck
    refuses(state, ChanceOutcome("As"), "cannot come up")  # dealt already
    refuses(state, "Kd", "cannot come up")
    with pytest.raises(IllegalMove, match="is to move"):  # out of turn
        replay(state.game, state.seats, [*state.history[:6], Move(1, Fold())])
    for card in ("2c", "7d", "9h"):
        state = nxt(state, card)
    assert state.hand.board == ["2c", "7d", "9h"] and state.to_move() == 2
    refuses(state, Fold(), "check instead of folding")
    state = nxt(nxt(state, "check"), "check")
    assert state.is_chance()


def test_discards_and_draws_of_cards_not_held_are_refused() -> None:
    # Pineapple, button 1: seat 0 is dealt first; seat 1 (the button) posts the small blind.
    state = dealt("pineapple", [50, 50], ["As", "Ad", "Ah", "Ks", "Kd", "Kh"], button=1)
    state = nxt(nxt(state, "call"), "check")
    assert state.to_move() == 0 and state.hand.discarding
    assert state.legal_actions() == (Discard("As"), Discard("Ad"), Discard("Ah"))
    refuses(state, Discard("Ks"), "not a card seat 0 holds")  # the other seat's
    refuses(state, Discard("2c"), "not a card seat 0 holds")
    refuses(state, "discard Zz", "not a card")
    refuses(state, CheckCall(), "discards a card first")
    state = nxt(state, "discard Ah")
    assert state.hand.hole[0] == ["As", "Ad"] and state.to_move() == 1
    assert nxt(state, Discard("Kh")).is_chance()  # the flop

    cards = ["2c", "3c", "4c", "5c", "7d", "2d", "3d", "4d", "5d", "8h"]
    state = dealt("draw", [50, 50], cards, button=1)
    state = nxt(nxt(state, "call"), "check")
    assert state.hand.drawing and state.to_move() == 0
    assert len(state.legal_actions()) == 32
    refuses(state, Draw(("2d",)), "not a card seat 0 holds")
    refuses(state, Draw(("2c", "2c")), "twice")
    refuses(state, "draw 2c Zz", "not a card")
    refuses(state, RaiseTo(4), "draws")
    state = nxt(state, "draw 7d")
    assert state.is_chance() and state.pending == Draw(("7d",))
    refuses(state, ChanceOutcome("7d"), "cannot come up")  # one's own discard
    state = nxt(state, "6c")
    assert state.hand.hole[0] == ["2c", "3c", "4c", "5c", "6c"] and state.to_move() == 1
    state = nxt(state, "pat")
    assert state.to_move() == 0 and not state.hand.drawing


def test_a_stud_bring_in_is_a_call_not_a_fold() -> None:
    # Button 0: seat 1 is dealt first. Up cards: seat 1 the 2c, seat 0 the Kd.
    state = dealt("stud", [50, 50], ["Ah", "As", "2c", "Qh", "Qs", "Kd"])
    assert state.to_move() == 1
    assert state.legal_actions() == (CheckCall(), RaiseTo(2))
    refuses(state, Fold(), "bring-in")
    refuses(state, "check", "to bring in")
    step = state.apply("bring-in")
    assert [e.text for e in step.events] == ["seat 1 brings in for 1"]


def test_views_and_events_of_a_deal() -> None:
    state = engine_of("holdem").new_state(Seats.with_stacks([100, 100], button=1))
    assert state.hidden_from(0) == frozenset(DECK)
    state = nxt(state, "As")
    assert state.view(0)["hole"] == []  # the deal of two cards is not done
    step = state.apply("Ad")
    assert [(e.text, e.private) for e in step.events] == [
        ("seat 0 is dealt 2 cards face down", False), ("seat 0 is dealt As Ad", True)]
    state = step.state
    assert isinstance(state, PokerState)
    assert state.view(0)["hole"] == ["As", "Ad"] and state.view(1)["hole"] == []
    assert {"As", "Ad"} <= state.hidden_from(1) and not {"As", "Ad"} & state.hidden_from(0)
    with pytest.raises(IllegalMove, match="no seat 2"):
        state.view(2)
    state = nxt(nxt(state, "Ks"), "Kd")
    view = state.view(1)
    assert view["to_move"] == 1 and view["legal"] == ["fold", "check/call", "raise 4",
                                                       "raise 100"]
    assert "legal" not in state.view(0)


def test_new_state_refuses_bad_seats_and_settings() -> None:
    holdem = engine_of("holdem")
    for seats, match in [(Seats(2), "brings a stack"), (Seats.with_stacks([100]), "seats 2"),
                         (Seats.with_stacks([100, 0]), "positive"),
                         (Seats.with_stacks([100, 100], button=5), "button")]:
        with pytest.raises(IllegalMove, match=match):
            holdem.new_state(seats)
    with pytest.raises(IllegalMove, match="seats 2 to 10"):
        engine_of("draw").new_state(Seats.with_stacks([100] * 11))
    with pytest.raises(IllegalMove, match="bring-in"):
        PokerEngine.for_variant(VARIANTS["stud"], bring_in=0)
    with pytest.raises(IllegalMove, match="structure"):
        PokerEngine.for_game("holdem", structure="spread-limit")


# -- the card sources and the copy -----------------------------------------------------------------


def test_shuffled_cards_deal_what_the_shoe_always_dealt() -> None:
    cards, rng = ShuffledCards(SeededRng(9)), SeededRng(9)
    shoe = Shoe(1, 0)
    shoe.shuffle(rng)
    assert cards.deal(47) == shoe.deal(47) and cards.remaining == 5
    pile = ["2c", "9d", "Ah", "Kd"]
    assert cards.deal(5) == shoe.deal(5)
    cards.reshuffle_in(pile)
    assert cards.deal(4) == shuffle(pile, rng)
    cards.new_deck()
    shoe.shuffle(rng)
    assert cards.deal(52) == shoe.deal(52)


def test_dealt_and_chance_cards() -> None:
    cards = DealtCards(["Kd", "As"])
    assert cards.deal(3) == ["Kd", "As", "2c"]
    with pytest.raises(ValueError, match="not in the stub"):
        DealtCards(["Kd", "Kd"]).deal(2)
    chance = ChanceCards(supplied=["As"])
    with pytest.raises(CardsNeeded) as needed:
        chance.deal(2)
    assert len(needed.value.pool) == 51 and "As" not in needed.value.pool
    assert chance.remaining == 52  # a refused deal takes nothing


def test_a_copy_shares_no_list() -> None:
    hand = PokerHand(VARIANTS["helsinki"], [100, 100, 100], 0, 1, 2,
                     ShuffledCards(SeededRng(4)))
    hand.legal()
    copy = hand.copy()
    assert copy == hand
    for name, value in hand.__dict__.items():
        if isinstance(value, list | set | dict) and name != "variant":
            assert copy.__dict__[name] is not value, name
    for mine, theirs in zip(hand.hole, copy.hole, strict=True):
        assert mine is not theirs
    copy.act("call")
    assert copy.log != hand.log and hand.actor == 0
