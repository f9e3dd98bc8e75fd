"""Poker tournaments (RULINGS Tournaments; Poker TDA 2024): seating, levels, busts and
places, balancing and breaking, hand for hand, entries, prizes, cancellation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pelisali.poker.dealing import DealtCards
from pelisali.rng import SeededRng
from pelisali.rules.poker import POKER_GAME_IDS
from pelisali.rules.tournaments import Level
from pelisali.tournaments.poker import (
    PokerTournament,
    TableHand,
    TournamentError,
    TournamentSettings,
    play_out,
)


def sit_and_go(players: int = 6, **changes: object) -> PokerTournament:
    options: dict[str, object] = {"name": "SNG", "capacity": players, "starting_chips": 1500,
                                  "structure": "sit-and-go", "buy_in": 1000, "fee": 100,
                                  "seats": max(2, min(players, 9))}
    options.update(changes)
    t = PokerTournament(TournamentSettings(**options))  # type: ignore[arg-type]
    for i in range(players):
        t.register(f"p{i}")
    return t


def multi_table(players: int, seats: int = 9, **changes: object) -> PokerTournament:
    options: dict[str, object] = {"name": "MTT", "capacity": 10_000, "starting_chips": 5000,
                                  "structure": "turbo", "buy_in": 2000, "fee": 200,
                                  "format": "scheduled", "seats": seats}
    options.update(changes)
    t = PokerTournament(TournamentSettings(**options))  # type: ignore[arg-type]
    for i in range(players):
        t.register(f"p{i:04d}")
    return t


def balanced(t: PokerTournament) -> None:
    counts = [len(t.players_at(table)) for table in t.tables]
    assert max(counts) <= t.settings.seats
    if not t.hands and not t.hand_for_hand_waiting:
        # every table between hands, no hand-for-hand round half played: balanced
        assert max(counts) - min(counts) <= 1


def assert_places_cover_the_field(places: dict[str, int]) -> None:
    """Places run 1, 2, ...; a tie of k at place p is followed by place p + k."""
    counts: dict[int, int] = {}
    for place in places.values():
        counts[place] = counts.get(place, 0) + 1
    expected = 1
    for place in sorted(counts):
        assert place == expected
        expected += counts[place]
    assert expected == len(places) + 1


def next_hand_order(t: PokerTournament, table: int) -> list[str]:
    """The entries of ``table`` in the next hand's seat order: from the first blind round
    to the button."""
    row = t.tables[table]
    return [e for e in (row[s] for s in t.next_positions(table).dealt) if e is not None]


def test_a_sit_and_go_plays_to_the_prizes_with_every_chip_kept() -> None:
    t = sit_and_go(6)
    t.start(SeededRng(3))
    issued = t.chips_issued()
    assert issued == 6 * 1500

    def check(playing: TableHand) -> None:
        assert t.chips_in_play() == issued

    play_out(t, SeededRng(4), on_hand=check)
    assert t.status == "finished"
    prizes = t.prizes()
    pool = t.prize_pool()
    assert pool.collected == pool.pool == 6000 and pool.overlay == 0
    assert sum(prizes.values()) == 6000
    places = t.places()
    assert set(places) == set(t.entries)
    assert_places_cover_the_field(places)
    winner = min(places, key=places.__getitem__)
    assert places[winner] == 1 and t.entries[winner].stack == issued
    assert prizes[winner] == max(prizes.values())


def test_a_sit_and_go_starts_only_when_full_and_refuses_a_second_registration() -> None:
    t = PokerTournament(TournamentSettings(name="S", capacity=3, starting_chips=100,
                                           structure="sit-and-go"))
    t.register("a")
    with pytest.raises(TournamentError, match="already in"):
        t.register("a")
    t.register("b")
    with pytest.raises(TournamentError, match="starts when full: 2 of 3"):
        t.start(SeededRng(1))
    t.register("c")
    with pytest.raises(TournamentError, match="registration is closed"):
        t.register("d")
    t.start(SeededRng(1))
    with pytest.raises(TournamentError, match="running"):
        t.start(SeededRng(1))


@pytest.mark.parametrize(("changes", "message"), [
    ({"capacity": 1}, "capacity"), ({"starting_chips": 0}, "starting chips"),
    ({"fee": -1}, "negative"), ({"seats": 11}, "seats 2 to 10"),
    ({"max_entries": 2}, "re-entry"), ({"entry": "rebuy"}, "rebuy_until_level"),
    ({"late_registration_level": 3}, "no late registration"),
])
def test_settings_refuse_what_cannot_be_run(changes: dict[str, object], message: str) -> None:
    options: dict[str, object] = {"name": "X", "capacity": 10, "starting_chips": 100,
                                  "structure": "sit-and-go"}
    options.update(changes)
    with pytest.raises(TournamentError, match=message):
        TournamentSettings(**options)  # type: ignore[arg-type]


def test_the_seat_draw_spreads_the_field_evenly_and_each_table_gets_a_button() -> None:
    t = multi_table(40)
    t.start(SeededRng(9))
    assert sorted(len(t.players_at(n)) for n in t.tables) == [8, 8, 8, 8, 8]
    seated = [e for n in t.tables for e in t.players_at(n)]
    assert sorted(seated) == sorted(t.entries)
    for number, row in t.tables.items():
        assert row[t.buttons[number]] is not None
    again = multi_table(40)
    again.start(SeededRng(9))
    assert again.tables == t.tables  # a seed replays the draw


def test_levels_come_from_the_clock_and_a_break_stops_the_dealing() -> None:
    t = multi_table(20)
    t.start(SeededRng(1))
    first = t.level_reading().level
    playing = t.deal(1)
    assert (playing.hand.small_blind, playing.hand.big_blind) == (first.small_blind,
                                                                  first.big_blind)
    with pytest.raises(TournamentError, match="backwards"):
        t.tick(-1)
    starts = t.clock.starts()
    structure = t.clock.structure.levels
    breaks = [i for i, item in enumerate(structure) if not hasattr(item, "big_blind")]
    if breaks:
        t.tick(starts[breaks[0]])
        assert t.level_reading().on_break
        assert t.can_deal(2) == "the tournament is on a break"
        with pytest.raises(TournamentError, match="break"):
            t.deal(2)
    second = next(item for item in structure[1:] if hasattr(item, "big_blind"))
    t2 = multi_table(20)
    t2.start(SeededRng(1))
    t2.tick(starts[structure.index(second)])
    assert t2.deal(1).hand.big_blind == second.big_blind


def at_the_first_ante_level() -> tuple[PokerTournament, Level]:
    """Two tables of nine, the clock at the first level with a big-blind ante."""
    t = multi_table(18)
    t.start(SeededRng(2))
    level = next(item for item in t.clock.structure.levels
                 if isinstance(item, Level) and item.ante)
    t.tick(t.clock.starts()[t.clock.structure.levels.index(level)])
    return t, level


def test_the_big_blind_ante_is_posted_by_the_big_blind_after_the_blind() -> None:
    t, level = at_the_first_ante_level()
    playing = t.deal(1)
    hand = playing.hand
    bb = 0 if len(playing.entries) == 2 else 1
    assert hand.total_commit[bb] == level.big_blind + level.ante
    assert sum(hand.total_commit) == (level.small_blind + level.big_blind
                                      + level.ante)


def test_a_short_big_blind_posts_the_blind_before_the_ante() -> None:
    t, level = at_the_first_ante_level()
    order = next_hand_order(t, 1)
    bb_entry = order[1]  # the small blind, the big blind, ..., the button
    short = level.big_blind + 1
    moved = t.entries[bb_entry].stack - short
    t.entries[bb_entry].stack = short
    t.entries[order[0]].stack += moved
    hand = t.deal(1).hand
    assert hand.total_commit[1] == short  # the whole blind and 1 chip of ante
    assert hand.stacks[1] == 0


def test_busts_in_one_hand_place_by_their_starting_stacks_and_equal_stacks_share() -> None:
    t = sit_and_go(4, seats=4, buy_in=2500, fee=0)
    t.start(SeededRng(5))
    # Make the field: stacks 3000 / 1000 / 1000 / 1000 (chips kept: 6000 all told).
    ids = next_hand_order(t, 1)
    stacks = {ids[0]: 1000, ids[1]: 1000, ids[2]: 1000, ids[3]: 3000}
    for entry_id, stack in stacks.items():
        t.entries[entry_id].stack = stack
    deck = ["2c", "3c", "Kd", "Kh", "8s", "9s", "As", "Ah",
            "Qc", "Jd", "4h", "7s", "5d"]
    playing = t.deal(1, cards=DealtCards(deck))
    hand = playing.hand
    assert hand.hole[3] == ["As", "Ah"]
    # Everyone all in: the button (3,000 chips) wins with aces.
    while not hand.finished:
        legal = hand.legal()
        if legal.raise_max is not None:
            hand.act("raise", legal.raise_max)
        else:
            hand.act("call")
    t.finish_hand(1)
    assert t.status == "finished"
    places = t.places()
    assert places[ids[3]] == 1
    assert places[ids[0]] == places[ids[1]] == places[ids[2]] == 2  # tied: 2nd to 4th
    prizes = t.prizes()
    # 4 entries of 25 euros pay 65 % and 35 %: the three tied for 2nd to 4th share the
    # 35 euros of 2nd place, the two cents left over one each to the first two listed.
    assert t.place_prizes() == (6500, 3500)
    assert prizes[ids[3]] == 6500
    assert [prizes[i] for i in t.finish[-2]] == [1167, 1167, 1166]
    assert sum(prizes.values()) == t.prize_pool().pool == 10_000


def test_busts_with_different_stacks_in_one_hand_place_the_larger_higher() -> None:
    t = sit_and_go(3, seats=3, buy_in=1000, fee=0)
    t.start(SeededRng(8))
    ids = next_hand_order(t, 1)
    for entry_id, stack in zip(ids, (500, 800, 3200), strict=True):
        t.entries[entry_id].stack = stack
    deck = ["2c", "7d", "3c", "8d", "As", "Ah", "Kc", "Qd", "4h", "9s", "5d"]
    hand = t.deal(1, cards=DealtCards(deck)).hand
    assert hand.hole[2] == ["As", "Ah"]
    while not hand.finished:
        legal = hand.legal()
        hand.act("raise", legal.raise_max) if legal.raise_max is not None else hand.act("call")
    t.finish_hand(1)
    places = t.places()
    assert (places[ids[2]], places[ids[1]], places[ids[0]]) == (1, 2, 3)


def test_an_absent_player_is_folded_by_the_timer_and_keeps_paying_blinds() -> None:
    t = sit_and_go(6)
    t.start(SeededRng(11))
    away = "p0"
    paid = []

    def watch(playing: TableHand) -> None:
        if away in playing.entries:
            seat = playing.entries.index(away)
            paid.append(playing.hand.total_commit[seat])
            # never acting, the player never puts in more than the forced bets
            forced = playing.hand.big_blind + max(playing.hand.antes or [0])
            assert playing.hand.total_commit[seat] <= forced

    play_out(t, SeededRng(12), absent=[away], on_hand=watch)
    assert t.places()[away] >= 2
    assert any(paid) and sum(paid) >= 1500  # the blinds took the stack


def test_re_entry_is_allowed_while_late_registration_is_open() -> None:
    t = multi_table(12, entry="re-entry", max_entries=2, late_registration_level=2)
    t.start(SeededRng(1))
    assert t.registration_open
    late = t.register("late")
    assert late.table in t.tables and t.tables[late.table][late.seat] == "late"  # type: ignore[index]
    entry = t.entries["p0000"]
    with pytest.raises(TournamentError, match="already in"):
        t.register("p0000")
    entry.out = True  # as a bust leaves it
    t.tables[entry.table][entry.seat] = None  # type: ignore[index]
    again = t.register("p0000")
    assert again.entry_id == "p0000#2" and again.number == 2
    with pytest.raises(TournamentError, match="every entry allowed"):
        again.out = True
        t.register("p0000")
    starts = t.clock.starts()
    third = next(i for i, item in enumerate(t.clock.structure.levels)
             if getattr(item, "number", 0) == 3)
    t.tick(starts[third])
    assert not t.registration_open
    with pytest.raises(TournamentError, match="closed"):
        t.register("later")


def test_rebuys_and_the_add_on_add_chips_and_prize_money() -> None:
    t = multi_table(10, entry="rebuy", rebuy_until_level=2, rebuy_chips=5000,
                    rebuy_cost=2000, add_on_chips=7000)
    t.start(SeededRng(4))
    t.rebuy("p0001")  # at the starting stack: allowed
    assert t.entries["p0001"].stack == 10000
    with pytest.raises(TournamentError, match="at or below"):
        t.rebuy("p0001")
    with pytest.raises(TournamentError, match="break after"):
        t.add_on("p0002")
    levels = t.clock.structure.levels
    after = [i for i, item in enumerate(levels)
             if not hasattr(item, "big_blind") and getattr(item, "after_level", 0) == 2]
    if after:
        t.tick(t.clock.starts()[after[0]])
        t.add_on("p0002")
        with pytest.raises(TournamentError, match="taken the add-on"):
            t.add_on("p0002")
        assert t.add_ons == 1
    assert t.chips_issued() == 10 * 5000 + 5000 + 7000 * t.add_ons
    assert t.prize_pool().collected == 10 * 2000 + (1 + t.add_ons) * 2000
    past = next(i for i, item in enumerate(levels) if getattr(item, "number", 0) == 3)
    t.tick(t.clock.starts()[past])
    with pytest.raises(TournamentError, match="closed"):
        t.rebuy("p0003")


def test_a_busted_player_rebuys_as_the_hand_ends_or_is_out() -> None:
    t = sit_and_go(3, seats=3, entry="rebuy", rebuy_until_level=3, rebuy_chips=1500,
                   rebuy_cost=1000)
    t.start(SeededRng(8))
    ids = next_hand_order(t, 1)
    deck = ["2c", "7d", "3c", "8d", "As", "Ah", "Kc", "Qd", "4h", "9s", "5d"]
    hand = t.deal(1, cards=DealtCards(deck)).hand
    while not hand.finished:
        legal = hand.legal()
        hand.act("raise", legal.raise_max) if legal.raise_max is not None else hand.act("call")
    assert sorted(t.busted(1)) == sorted(ids[:2])
    with pytest.raises(TournamentError, match="only a player the hand busted"):
        t.finish_hand(1, rebuys=[ids[2]])
    t.finish_hand(1, rebuys=[ids[0]])
    assert t.entries[ids[0]].stack == 1500 and not t.entries[ids[0]].out
    assert t.entries[ids[1]].out
    assert t.chips_in_play() == t.chips_issued()


def test_hand_for_hand_holds_each_table_to_one_hand_a_round_at_the_bubble() -> None:
    t = multi_table(30, seats=6)
    t.start(SeededRng(21))
    paid = len(t.payout_places())
    rounds_seen = []
    before = len(t.alive())  # the field as the hand was dealt (hands are played in turn)

    def watch(playing: TableHand) -> None:
        nonlocal before
        balanced_seats = max(len(t.players_at(n)) for n in t.tables)
        assert balanced_seats <= 6
        if playing.hand_for_hand:
            rounds_seen.append((playing.number, playing.table, before))
        before = len(t.alive())

    play_out(t, SeededRng(22), on_hand=watch)
    assert t.status == "finished"
    assert rounds_seen, "the bubble was played hand for hand"
    # Hand for hand only while the field was one more than the places paid.
    assert {alive for _, _, alive in rounds_seen} == {paid + 1}
    assert sum(t.prizes().values()) == t.prize_pool().pool


def test_a_table_waits_for_the_others_in_a_hand_for_hand_round() -> None:
    t = multi_table(30, seats=6)
    t.start(SeededRng(21))
    chooser = random.Random(5)
    from pelisali.poker.selfplay import plausible_action

    while not t.hand_for_hand and t.status == "running":
        for table in list(t.tables):
            if table in t.tables and t.can_deal(table) is None:
                hand = t.deal(table, cards=None).hand
                while not hand.finished:
                    hand.act(*plausible_action(hand, chooser))
                t.finish_hand(table)
                if t.hand_for_hand:
                    break
        t.tick(t.elapsed + 60)
    assert t.hand_for_hand and len(t.tables) > 1
    first, *others = sorted(t.tables)
    hand = t.deal(first).hand
    while not hand.finished:
        hand.act(*plausible_action(hand, chooser))
    t.finish_hand(first)
    if t.hand_for_hand and others:
        assert t.can_deal(first) == "hand for hand: the other tables are finishing their hands"


@settings(max_examples=12, deadline=None)
@given(players=st.integers(10, 70), seats=st.sampled_from([6, 8, 9, 10]),
       seed=st.integers(0, 2**32 - 1))
def test_tables_stay_balanced_and_every_chip_is_kept(players: int, seats: int,
                                                     seed: int) -> None:
    t = multi_table(players, seats=seats)
    t.start(SeededRng(seed))
    issued = t.chips_issued()
    moves_checked = 0

    def check(playing: TableHand) -> None:
        nonlocal moves_checked
        assert t.chips_in_play() == issued
        balanced(t)
        moves_checked += 1

    play_out(t, SeededRng(seed + 1), on_hand=check)
    assert t.status == "finished"
    assert sum(t.prizes().values()) == t.prize_pool().pool
    assert sum(e.stack for e in t.entries.values() if not e.out) == issued
    for move in t.moves:
        assert move.from_table != move.to_table
    places = t.places()
    assert len(places) == players
    assert_places_cover_the_field(places)


def test_balancing_moves_the_next_big_blind_to_the_shortest_table() -> None:
    t = multi_table(18, seats=9)
    t.start(SeededRng(6))
    # Empty three seats of table 2 (as busts would), leaving 9 against 6.
    row2 = t.tables[2]
    for seat in [s for s, e in enumerate(row2) if e is not None][:3]:
        entry = t.entries[row2[seat]]  # type: ignore[index]
        entry.out = True
        t.finish.append([entry.entry_id])
        row2[seat] = None
    big_blind_next = t.tables[1][t.next_positions(1).big_blind]
    moves = t._arrange()
    first = moves[0]
    assert (first.entry_id, first.from_table, first.to_table, first.reason) == (
        big_blind_next, 1, 2, "balance")
    assert sorted(len(t.players_at(n)) for n in t.tables) == [7, 8]


def test_the_last_tables_break_into_a_final_table() -> None:
    t = multi_table(12, seats=6)
    t.start(SeededRng(7))
    assert len(t.tables) == 2

    def check(playing: TableHand) -> None:
        if len(t.alive()) <= 6:
            assert not t.hands or len(t.tables) == 1 or playing.table in t.tables

    play_out(t, SeededRng(8), on_hand=check)
    assert any(m.reason == "final table" for m in t.moves)


def test_cancelling_refunds_buy_ins_and_fees_or_pays_by_chips() -> None:
    t = multi_table(5)
    assert t.cancel() == {f"p{i:04d}": 2200 for i in range(5)}
    assert t.status == "cancelled"
    chips = multi_table(4, cancel_pays="chips")
    chips.start(SeededRng(1))
    for entry_id, stack in zip(sorted(chips.entries), (8000, 6000, 4000, 2000), strict=True):
        chips.entries[entry_id].stack = stack
    owed = chips.cancel()
    assert owed == {"p0000": 3200, "p0001": 2400, "p0002": 1600, "p0003": 800}
    assert sum(owed.values()) == chips.prize_pool().pool
    with pytest.raises(TournamentError, match="cancelled"):
        chips.cancel()


def test_a_guarantee_the_entries_do_not_reach_is_paid_by_the_house() -> None:
    t = multi_table(20, guarantee=100_000)
    pool = t.prize_pool()
    assert (pool.collected, pool.pool, pool.overlay) == (40_000, 100_000, 60_000)


def test_requests_out_of_place_are_refused_and_change_nothing() -> None:
    t = sit_and_go(4, seats=4)
    with pytest.raises(TournamentError, match=r"has not started|registering"):
        t.deal(1)
    t.start(SeededRng(2))
    with pytest.raises(TournamentError, match="no table 7"):
        t.deal(7)
    with pytest.raises(TournamentError, match="no hand in play"):
        t.finish_hand(1)
    t.deal(1)
    with pytest.raises(TournamentError, match="has a hand in play"):
        t.deal(1)
    with pytest.raises(TournamentError, match="not finished"):
        t.finish_hand(1)
    with pytest.raises(TournamentError, match="unregister only before"):
        t.unregister("p0")
    with pytest.raises(TournamentError, match="prizes are paid when"):
        t.prizes()
    with pytest.raises(TournamentError, match="between hands"):
        t.cancel()
    assert t.status == "running"


@pytest.mark.parametrize("game", POKER_GAME_IDS)
def test_every_poker_game_of_the_tables_plays_a_sit_and_go_to_its_prizes(game: str) -> None:
    """A tournament is made of the tables' own hands: each game's sit & go plays to one
    winner holding every chip, with the pool paid out in full."""
    t = sit_and_go(4, game=game)
    t.start(SeededRng(3))
    issued = t.chips_issued()

    def check(playing: TableHand) -> None:
        assert t.chips_in_play() == issued

    play_out(t, SeededRng(4), on_hand=check)
    assert t.status == "finished"
    places = t.places()
    assert_places_cover_the_field(places)
    winner = min(places, key=places.__getitem__)
    assert t.entries[winner].stack == issued
    assert sum(t.prizes().values()) == t.prize_pool().pool == 4000
