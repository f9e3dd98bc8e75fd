"""The dead button (Poker TDA 2024, "Dead Button"; heads-up, "Heads-up and the button"):
the big blind moves one player a hand, a bust leaves a dead small blind or a dead
button, new players between the button and the small blind wait, and heads-up the
button posts the small blind."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pelisali.poker.dealing import DealtCards
from pelisali.rng import SeededRng
from pelisali.tournaments.poker import (
    PokerTournament,
    Positions,
    TableHand,
    TournamentSettings,
    play_out,
)

SMALL, BIG = 10, 20  # the sit & go structure's first level


def started(players: int, seed: int = 1, seats: int | None = None) -> PokerTournament:
    t = PokerTournament(TournamentSettings(
        name="DB", capacity=players, starting_chips=1500, structure="sit-and-go",
        buy_in=1000, fee=0, seats=seats or players))
    for i in range(players):
        t.register(f"p{i}")
    t.start(SeededRng(seed))
    return t


def fold_round(t: PokerTournament, table: int = 1) -> tuple[TableHand, dict[str, int]]:
    """Deal a hand and fold it to the big blind; the hand and what each player posted
    before the first action (the blinds)."""
    playing = t.deal(table)
    blinds = dict(zip(playing.entries, playing.hand.total_commit, strict=True))
    while not playing.hand.finished:
        playing.hand.act("fold")
    t.finish_hand(table)
    return playing, blinds


def seat_of(t: PokerTournament, entry_id: str) -> int:
    seat = t.entries[entry_id].seat
    assert seat is not None
    return seat


def test_with_nobody_out_each_player_pays_the_big_blind_once_an_orbit() -> None:
    t = started(6)
    row = t.tables[1]
    big_blinds = []
    for _ in range(12):
        at = t.next_positions(1)
        assert at.small_blind is not None and row[at.button] is not None
        playing = t.deal(1)
        blinds = [c for c in playing.hand.total_commit]
        # The hand's seat 0 posts the small blind, seat 1 the big one, the last is the button.
        assert blinds[:2] == [SMALL, BIG] and sum(blinds) == SMALL + BIG
        assert playing.seats == list(at.dealt) and at.dealt[-1] == at.button
        big_blinds.append(playing.entries[1])
        while not playing.hand.finished:
            playing.hand.act("fold")
        t.finish_hand(1)
    order = big_blinds[:6]
    assert sorted(order) == sorted(t.entries)  # everybody once in the first orbit
    assert big_blinds[6:] == order  # and the same order again
    seats = [seat_of(t, e) for e in order]
    assert seats == sorted(seats, key=lambda s: (s - seats[0]) % 6)  # clockwise


def bust(t: PokerTournament, loser: str, winner: str, cards: list[str]) -> TableHand:
    """Deal a hand in which ``loser`` goes all in with the blind and ``winner`` calls,
    everyone else folding, the deck ``cards`` making ``winner`` the better hand."""
    playing = t.deal(1, cards=DealtCards(cards))
    hand = playing.hand
    while not hand.finished:
        actor = playing.entries[hand.actor] if hand.actor is not None else None
        legal = hand.legal()
        if actor == winner:
            hand.act("call" if legal.call else "check")
        else:
            hand.act("check" if legal.check and actor == loser else "fold")
    t.finish_hand(1)
    assert t.entries[loser].out
    return playing


def deck_for(order: list[str], loser: str, winner: str) -> list[str]:
    """Hole cards in the hand's seat order (two each), the loser's deuce-three against
    the winner's aces, then a board that helps neither."""
    holes = {loser: ["2c", "3d"], winner: ["As", "Ah"]}
    spare = iter(["Kc", "Kd", "Qc", "Qd", "Jc", "Jd", "Tc", "Td"])
    cards = [c for e in order for c in (holes.get(e) or [next(spare), next(spare)])]
    return [*cards, "9h", "8h", "7s", "5s", "4c"]


def test_a_busted_big_blind_leaves_a_dead_small_blind_and_no_one_misses_the_big() -> None:
    t = started(4, seed=2)
    row = t.tables[1]
    first = t.next_positions(1)
    small, big, under_the_gun, button = (row[s] for s in first.dealt)
    assert small and big and under_the_gun and button
    t.entries[big].stack, t.entries[button].stack = BIG, 1500 + 1500 - BIG
    bust(t, big, under_the_gun, deck_for([small, big, under_the_gun, button], big,
                                         under_the_gun))
    # The big blind moves on to the next player; its old seat, the small blind's, is
    # empty: no small blind is posted, and the button stays with the last small blind.
    at = t.next_positions(1)
    assert at == Positions(button=seat_of(t, small), small_blind=None,
                           big_blind=seat_of(t, under_the_gun),
                           dealt=(seat_of(t, under_the_gun), seat_of(t, button),
                                  seat_of(t, small)))
    _, blinds = fold_round(t)
    assert blinds == {under_the_gun: BIG, button: 0, small: 0}
    # Next the last button pays the big blind, the last big blind the small one, and
    # the button is dead: the empty seat of the busted player.
    at = t.next_positions(1)
    assert (at.button, at.small_blind, at.big_blind) == (
        first.dealt[1], seat_of(t, under_the_gun), seat_of(t, button))
    assert t.tables[1][at.button] is None
    playing, blinds = fold_round(t)
    assert blinds == {under_the_gun: SMALL, button: BIG, small: 0}
    assert playing.hand.button == playing.entries.index(small)  # acts last after the flop


def test_a_busted_small_blind_leaves_a_dead_button() -> None:
    t = started(4, seed=3)
    row = t.tables[1]
    first = t.next_positions(1)
    small, big, under_the_gun, button = (row[s] for s in first.dealt)
    assert small and big and under_the_gun and button
    t.entries[small].stack, t.entries[button].stack = SMALL, 1500 + 1500 - SMALL
    playing = t.deal(1, cards=DealtCards(deck_for([small, big, under_the_gun, button],
                                                  small, big)))
    hand = playing.hand
    while not hand.finished:  # the big blind checks it down against the all-in blind
        actor = playing.entries[hand.actor] if hand.actor is not None else None
        hand.act("check" if actor == big else "fold")
    t.finish_hand(1)
    assert t.entries[small].out
    at = t.next_positions(1)
    assert at.button == first.dealt[0] and t.tables[1][at.button] is None  # dead button
    assert (at.small_blind, at.big_blind) == (seat_of(t, big), seat_of(t, under_the_gun))
    playing, blinds = fold_round(t)
    assert blinds == {big: SMALL, under_the_gun: BIG, button: 0}
    # The button of last hand acts last: the player before the blinds.
    assert playing.entries[playing.hand.button] == button


@pytest.mark.parametrize("out", ["small", "big", "button"])
def test_heads_up_the_button_posts_the_small_blind_and_nobody_pays_the_big_twice(
        out: str) -> None:
    t = started(3, seed=4)
    row = t.tables[1]
    first = t.next_positions(1)
    small, big, button = (row[s] for s in first.dealt)
    assert small and big and button
    names = {"small": small, "big": big, "button": button}
    loser = names[out]
    winner = big if loser != big else button
    t.entries[loser].stack = SMALL if loser == small else BIG
    t.entries[winner].stack = 4500 - t.entries[loser].stack - 1500
    if loser == button:  # the button is all in for its whole stack, the big blind calls
        playing = t.deal(1, cards=DealtCards(deck_for([small, big, button], loser, winner)))
        hand = playing.hand
        while not hand.finished:
            actor = playing.entries[hand.actor] if hand.actor is not None else None
            legal = hand.legal()
            if actor == button:
                hand.act("raise", legal.raise_max) if legal.raise_max else hand.act("call")
            elif actor == big:
                hand.act("call" if legal.call else "check")
            else:
                hand.act("fold")
        t.finish_hand(1)
    else:
        bust(t, loser, winner, deck_for([small, big, button], loser, winner))
    assert t.entries[loser].out and len(t.players_at(1)) == 2
    at = t.next_positions(1)
    assert at.heads_up and at.button == at.small_blind
    assert t.tables[1][at.big_blind] != big  # the last big blind is not the big blind again
    for _ in range(4):  # and then the big blind alternates
        playing, blinds = fold_round(t)
        button_entry = playing.entries[playing.hand.button]
        assert blinds[button_entry] == SMALL
        after = t.next_positions(1)
        assert t.tables[1][after.big_blind] == button_entry


def test_a_player_seated_between_the_button_and_the_small_blind_waits_for_the_button(
) -> None:
    for seed in range(50):  # a seating with an empty seat there after the first hand
        t = PokerTournament(TournamentSettings(
            name="L", capacity=7, starting_chips=1500, structure="sit-and-go", buy_in=1000,
            fee=0, format="scheduled", min_players=6, seats=9, late_registration_level=1))
        for i in range(6):
            t.register(f"p{i}")
        t.start(SeededRng(seed))
        fold_round(t)
        at = t.next_positions(1)
        first = at.small_blind if at.small_blind is not None else at.big_blind
        between = [s for s in range(9) if t.tables[1][s] is None
                   and 0 < (s - at.button) % 9 < (first - at.button) % 9]
        if between:
            break
    else:
        raise AssertionError("no seating left a seat between the button and the blind")
    late = t.register("late")  # a late entry, seated at random: put it in the gap
    assert late.seat is not None
    t.tables[1][late.seat] = None
    t._sit(late, 1, between[0])
    waiting = t.next_positions(1)
    assert waiting.waiting == (between[0],)
    small = t.tables[1][first]
    playing, _ = fold_round(t)
    assert "late" not in playing.entries
    # The button has passed it, to the last small blind: dealt in, just before the button.
    playing, _ = fold_round(t)
    assert playing.entries[-2:] == ["late", small]


@settings(max_examples=15, deadline=None)
@given(players=st.integers(min_value=3, max_value=27), seed=st.integers(0, 10_000))
def test_at_every_table_the_big_blind_moves_to_the_next_player_seated(
        players: int, seed: int) -> None:
    """Whatever busts and moves happen, a table's big blind goes to the first seat after
    the last big blind with a player in it, and a live small blind sits where the last
    big blind sat."""
    t = PokerTournament(TournamentSettings(
        name="P", capacity=players, starting_chips=1000, structure="turbo", buy_in=100,
        fee=0, format="scheduled", seats=9))
    for i in range(players):
        t.register(f"p{i}")
    t.start(SeededRng(seed))
    last: dict[int, tuple[int, list[str | None]]] = {}
    deal = t.deal

    def checked_deal(table: int, cards: object = None) -> TableHand:
        at = t.next_positions(table)
        row = list(t.tables[table])
        if table in last and sum(e is not None for e in row) > 2:
            last_big, _ = last[table]
            size = len(row)
            first_taken = next(s for s in ((last_big + k) % size for k in range(1, size + 1))
                               if row[s] is not None)
            assert at.big_blind == first_taken
            if at.small_blind is not None:
                assert at.small_blind == last_big
        playing = deal(table)
        last[table] = (at.big_blind, row)
        return playing

    t.deal = checked_deal  # type: ignore[method-assign]
    play_out(t, SeededRng(seed + 1))
    assert t.status == "finished"
