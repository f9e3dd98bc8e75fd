"""Table-game and slot tournaments (RULINGS Tournaments): rounds played through the games'
own engines with tournament chips, the limits, the clock, entries, the leaderboard with
shared places, prizes, cancellation and the snapshot."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pelisali.engine import GAMES, Seats
from pelisali.games.round import Limits
from pelisali.rng import SeededRng
from pelisali.rules.loader import RuleDataError
from pelisali.rules.tournaments import leaderboard_ids, load_leaderboard
from pelisali.tournaments.leaderboard import (
    LeaderboardSettings,
    LeaderboardTournament,
    Played,
    TournamentError,
)


def tournament(
    structure: str = "roulette-sprint", players: int = 2, **changes: Any
) -> LeaderboardTournament:
    options: dict[str, Any] = {"name": "Test", "buy_in": 1000, "fee": 100}
    options.update(changes)
    t = LeaderboardTournament(LeaderboardSettings.from_rules(structure, **options))
    for i in range(players):
        t.register(f"p{i}")
    t.start(SeededRng(1))
    return t


def frozen(t: LeaderboardTournament) -> str:
    return json.dumps(t.snapshot(), sort_keys=True)


# -- the rule data ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", leaderboard_ids())
def test_every_leaderboard_rule_file_makes_a_tournament(name: str) -> None:
    rules = load_leaderboard(name)
    made = LeaderboardSettings.from_rules(name, name="T")
    assert made.game in GAMES and made.structure == name
    assert (made.rounds, made.seconds) == (rules.rounds, rules.seconds)
    assert 0 < made.min_bet <= made.max_bet <= made.starting_chips
    assert "RAY 2016 10.3" in rules.entry_fee_section


def test_the_shipped_tournaments() -> None:
    assert set(leaderboard_ids()) >= {
        "roulette-sprint",
        "blackjack-100",
        "slot-200-spins",
        "slot-10-minutes",
    }
    assert LeaderboardSettings.from_rules("slot-200-spins", name="S").kind == "slot"
    assert LeaderboardSettings.from_rules("blackjack-100", name="B").kind == "table"
    assert load_leaderboard("slot-10-minutes").seconds == 600


def test_a_malformed_leaderboard_file_names_its_key(tmp_path: Any) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'leaderboard = "bad"\nsection = "test"\ngame = "roulette-C"\n'
        'starting_chips = 100\n[name]\nfi = "a"\nsv = "a"\nen = "a"\n'
        '[limits]\nmin_bet = 10\nmax_bet = 20\nsection = "test"\n'
        '[entry_fee]\nmax = 10\nsection = "test"\n',
        encoding="utf-8",
    )
    with pytest.raises(RuleDataError, match="rounds, minutes or both"):
        load_leaderboard("bad", bad)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"game": "holdem"}, "no game 'holdem' for a leaderboard"),
        ({"game": "roulette-D"}, "en prison carries bets"),
        ({"game": "roulette-D", "game_settings": {"zero_rule": "en_prison"}}, "en prison"),
        ({"game": "roulette-C", "game_settings": {"speed": "fast"}}, "no setting speed"),
        ({"game": "slot-fruit", "game_settings": {"x": "y"}}, "takes no settings"),
        ({"rounds": 0, "seconds": 0}, "rounds, a time limit or both"),
        ({"min_bet": 3000}, "min_bet <= max_bet"),
        ({"buy_in": 9000, "fee": 1001}, r"at most 10000 cents \(RAY 10.3\)"),
        ({"max_entries": 2}, "entry = 're-entry'"),
        ({"payouts": "nowhere"}, "no payout table"),
        ({"starting_chips": 10.5}, "whole numbers"),
    ],
)
def test_settings_that_cannot_be_played_are_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        LeaderboardSettings.from_rules("roulette-sprint", name="T", **changes)


def test_roulette_d_plays_la_partage_and_blackjack_takes_its_settings() -> None:
    d = tournament(game="roulette-D", game_settings={"zero_rule": "la_partage"})
    assert d.play("p0", ["bet red 1000"], draws=["0"]).chips == 9500  # half back
    bj = tournament("blackjack-100", game_settings={"decks": "2"})
    assert bj.play("p0", ["bet box 1 100"], draws=["Th", "7c", "Ts", "9d"]).view["shoe_left"] == 100


# -- exact chips for known draws ----------------------------------------------------------------
def test_a_roulette_round_pays_each_bet_as_the_game_does() -> None:
    t = tournament()
    played = t.play(
        "p0", ["bet red 500", "bet straight 17 100", "bet dozen 2 200"], draws=["17"]
    )  # 17: black, second dozen
    assert played == Played(
        "p0", 1, 800, 3600 + 600, played.moves, True, 10_000 - 800 + 4200, (), played.view
    )
    assert [s["paid"] for s in played.view["settlements"]] == [0, 3600, 600]
    assert played.moves == (
        (0, "bet red 500"),
        (0, "bet straight 17 100"),
        (0, "bet dozen 2 200"),
        (0, "done"),
        (-1, "17"),
    )
    assert t.entry("p0").chips == 13_400 and t.entry("p0").rounds == 1
    assert t.play("p0", ["bet high 2500"], draws=["0"]).chips == 10_900  # zero: even chances lose


def test_blackjack_rounds_wait_for_decisions_and_pay_as_the_table() -> None:
    t = tournament("blackjack-100")
    played = t.play("p0", ["bet box 1 1000"], draws=["Th", "7c", "Ts", "9d"])  # 20 v 7 + hole
    assert not played.over and played.round == 1 and "stand" in played.actions
    assert t.entry("p0").chips == 10_000  # nothing settled yet
    with pytest.raises(TournamentError, match="has a round in play"):
        t.play("p0", ["bet box 1 100"])
    done = t.decide("p0", "stand", draws=["5h"])  # the dealer 7 9 5: 21
    assert done.over and done.chips == 9000 and done.paid == 0
    natural = t.play("p0", ["bet box 1 200"], draws=["As", "7c", "Kd", "9h"])
    assert natural.over and natural.chips == 9000 + 300  # 3:2
    doubled = t.play("p0", ["bet box 1 500"], draws=["5h", "6c", "6s", "Td"])  # 11 v 6
    assert doubled.actions == ("hit", "stand", "double", "double 1")
    won = t.decide("p0", "double", draws=["Th", "9c"])  # 21; the dealer 16 draws 9: 25
    assert (won.staked, won.paid, won.chips) == (1000, 2000, 10_300)


def test_blackjack_insurance_and_a_split_are_paid_from_the_chips() -> None:
    t = tournament("blackjack-100", starting_chips=1000, min_bet=100, max_bet=1000)
    t.play("p0", ["bet box 1 400"], draws=["8h", "As", "8c", "Kd"])  # 8 8 under an ace
    with pytest.raises(TournamentError, match="insurance is at most half the bet"):
        t.decide("p0", "insure 300")
    done = t.decide("p0", "insure 200")  # the dealer has blackjack: insurance 2:1
    assert done.over and (done.staked, done.paid, done.chips) == (600, 600, 1000)
    split = t.play("p0", ["bet box 1 500"], draws=["8h", "Ts", "8c", "7d"])
    assert "split" in split.actions
    after = t.decide("p0", "split", draws=["3h", "2c"])  # 8 3 and 8 2: two hands of 500
    assert after.staked == 1000 and not after.over
    with pytest.raises(TournamentError, match="has 1000 chips; the round would stake 1500"):
        t.decide("p0", "double")
    t.decide("p0", "stand")
    last = t.decide("p0", "stand", draws=[])  # the dealer stands on 17: both hands lose
    assert last.over and last.chips == 0


def test_a_slot_spin_pays_its_window() -> None:
    t = tournament("slot-200-spins")
    played = t.play("p0", ["spin 5 10"], draws=["0", "0", "0"])
    state = GAMES["slot-fruit"].new_state(Seats(1))
    for text in ("spin 5 10", "0", "0", "0"):
        state = state.apply(text).state
    assert played.chips == 10_000 + state.returns()[0] == 9980
    assert (played.staked, played.paid) == (50, 30)


# -- refusals: a clear error, and nothing changes ---------------------------------------------
@pytest.mark.parametrize(
    ("structure", "changes", "actions", "draws", "message"),
    [
        ("roulette-sprint", {}, ["bet red 2600"], ["1"], "at most 2500 chips"),
        ("roulette-sprint", {}, ["bet red 1500", "bet black 1500"], ["1"], "at most 2500"),
        ("roulette-sprint", {}, ["bet red 50"], ["1"], "at least 100 chips, not 50"),
        (
            "roulette-sprint",
            {"starting_chips": 1000},
            ["bet red 1500"],
            ["1"],
            "has 1000 chips; the round would stake 1500",
        ),
        ("roulette-sprint", {}, ["bet purple 100"], ["1"], "purple"),
        ("roulette-sprint", {}, ["bet red 1x"], ["1"], "whole number"),
        ("roulette-sprint", {}, ["bet red 100", "done", "bet black 100"], ["1"], "bets are closed"),
        ("roulette-sprint", {}, [], ["1"], "needs its bets"),
        ("roulette-sprint", {}, ["bet red 100"], ["37"], "'37' cannot come up"),
        ("roulette-sprint", {}, ["bet red 100"], [], "more draws are needed"),
        ("roulette-sprint", {}, ["bet red 100"], ["1", "2"], "1 draws left over"),
        ("blackjack-100", {}, ["bet box 1 1500"], None, "at most 1000 chips"),
        ("blackjack-100", {}, ["bet box 9 100"], None, "boxes are numbered 1 to 7"),
        ("blackjack-100", {}, ["hit"], None, "the cards are not dealt yet"),
        ("slot-200-spins", {}, ["spin 5 20"], None, "at most 50 chips, not 100"),
        ("slot-200-spins", {}, ["spin 3 1"], None, "at least 5 chips, not 3"),
        ("slot-200-spins", {}, ["spin 6 1"], None, "6 lines cannot be played"),
        ("slot-200-spins", {}, ["spin 5 3"], None, "not a bet level"),
    ],
)
def test_a_bet_not_allowed_is_refused_and_changes_nothing(
    structure: str,
    changes: dict[str, Any],
    actions: list[str],
    draws: list[str] | None,
    message: str,
) -> None:
    t = tournament(structure, **changes)
    before = frozen(t)
    with pytest.raises(TournamentError, match=message):
        t.play("p0", actions, draws=draws)
    assert frozen(t) == before and t.open_round("p0") is None


def test_no_round_after_the_last_round_or_for_an_entry_out_of_chips() -> None:
    t = tournament(rounds=1, players=3, starting_chips=1000, min_bet=100, max_bet=1000)
    t.play("p0", ["bet red 100"], draws=["1"])
    with pytest.raises(TournamentError, match="has played all 1 rounds"):
        t.play("p0", ["bet red 100"], draws=["1"])
    t = tournament(rounds=5, players=3, starting_chips=1000, min_bet=100, max_bet=1000)
    t.play("p1", ["bet red 950"], draws=["2"])  # 2 is black: 50 chips left
    before = frozen(t)
    with pytest.raises(TournamentError, match="50 chips, under the least bet 100: out"):
        t.play("p1", ["bet red 50"], draws=["1"])
    with pytest.raises(TournamentError, match="'p9' is not in the tournament"):
        t.play("p9", ["bet red 100"], draws=["1"])
    with pytest.raises(TournamentError, match="has no round in play"):
        t.decide("p0", "stand")
    assert frozen(t) == before


def test_nothing_is_played_before_the_start_or_after_the_end() -> None:
    t = LeaderboardTournament(LeaderboardSettings.from_rules("roulette-sprint", name="T", rounds=1))
    t.register("a")
    with pytest.raises(TournamentError, match="is registering"):
        t.play("a", ["bet red 100"], draws=["1"])
    with pytest.raises(TournamentError, match="1 entries: the tournament needs 2"):
        t.start(SeededRng(1))
    t.register("b")
    t.start(SeededRng(1))
    t.play("a", ["bet red 100"], draws=["1"])
    t.play("b", ["bet red 100"], draws=["1"])
    assert t.status == "finished"
    with pytest.raises(TournamentError, match="is finished"):
        t.play("a", ["bet red 100"], draws=["1"])
    with pytest.raises(TournamentError, match="registration is closed"):
        t.register("c")


# -- the clock ------------------------------------------------------------------------------------
def test_the_time_limit_stops_new_rounds_and_finishes_the_tournament() -> None:
    t = tournament("slot-10-minutes")
    t.tick(599)
    t.play("p0", ["spin 20 1"], draws=["0"] * 5)
    with pytest.raises(TournamentError, match="does not run backwards"):
        t.tick(10)
    t.tick(600)  # no round in play: the tournament is over
    assert t.status == "finished" and t.entry("p0").rounds == 1


def test_a_hand_under_way_at_the_time_limit_is_finished_or_stands_at_the_close() -> None:
    t = tournament("blackjack-100", rounds=0, seconds=300)
    t.play("p0", ["bet box 1 500"], draws=["Th", "7c", "Ts", "9d"])
    t.play("p1", ["bet box 1 500"], draws=["5h", "6c", "6s", "Td"])
    t.tick(300)
    assert t.status == "running" and t.over()
    with pytest.raises(TournamentError, match="the time is up"):
        t.play("p0", ["bet box 2 100"])
    assert t.decide("p0", "stand", draws=["2h"]).chips == 10_500  # the dealer 7 9 2: 18
    t.finish()  # p1's 11 stands; the dealer's 16 draws from the generator
    assert t.status == "finished" and t.open_round("p1") is None
    assert t.entry("p1").rounds == 1 and t.chip_problems() == []


def test_finish_before_the_end_is_refused() -> None:
    t = tournament()
    with pytest.raises(TournamentError, match="not over"):
        t.finish()


# -- entries ------------------------------------------------------------------------------------
def test_re_entry_after_the_last_entry_is_out_within_late_registration() -> None:
    t = tournament(
        players=2,
        starting_chips=1000,
        min_bet=100,
        max_bet=1000,
        entry="re-entry",
        max_entries=2,
        rounds=0,
        seconds=900,
        late_registration_seconds=300,
    )
    with pytest.raises(TournamentError, match="p0 is already in the tournament"):
        t.register("p0")
    t.play("p0", ["bet red 1000"], draws=["2"])  # black: out
    again = t.register("p0")
    assert again.entry_id == "p0#2" and again.chips == 1000 and again.number == 2
    t.play("p0#2", ["bet red 1000"], draws=["2"])
    with pytest.raises(TournamentError, match="every entry allowed"):
        t.register("p0")
    t.tick(300)
    with pytest.raises(TournamentError, match="registration is closed"):
        t.register("late")
    assert len(t.entries) == 3 and t.prize_pool().collected == 3000


def test_a_freezeout_enters_once_and_unregistering_is_before_the_start() -> None:
    t = LeaderboardTournament(LeaderboardSettings.from_rules("roulette-sprint", name="T"))
    t.register("a")
    with pytest.raises(TournamentError, match="already in"):
        t.register("a")
    assert t.unregister("a").player == "a" and not t.entries
    with pytest.raises(TournamentError, match="1 to 64 characters"):
        t.register("")


# -- the leaderboard and the prizes ----------------------------------------------------------
def test_equal_stacks_share_the_places_they_cover() -> None:
    t = tournament(players=4, rounds=1, buy_in=1000, fee=0)  # pool 4000: one place (65/35)
    t.play("p0", ["bet red 1000"], draws=["1"])  # 11000
    t.play("p1", ["bet red 1000"], draws=["3"])  # 11000
    t.play("p2", ["bet black 1000"], draws=["1"])  # 9000
    t.play("p3", ["bet black 1000"], draws=["0"])  # 9000
    assert t.status == "finished"
    assert t.leaderboard() == [
        (1, "p0", 11_000),
        (1, "p1", 11_000),
        (3, "p2", 9000),
        (3, "p3", 9000),
    ]
    assert t.payout_places() == (6500, 3500)
    assert t.prizes() == {"p0": 2000, "p1": 2000, "p2": 0, "p3": 0}


def test_a_guarantee_lifts_the_pool_and_cancelling_refunds_everything() -> None:
    t = tournament(players=3, guarantee=10_000)
    assert t.prize_pool().pool == 10_000 and t.prize_pool().overlay == 7000
    t.play("p0", ["bet red 100"], draws=["1"])
    with pytest.raises(TournamentError, match="paid when the tournament is finished"):
        t.prizes()
    assert t.cancel() == {"p0": 1100, "p1": 1100, "p2": 1100}
    with pytest.raises(TournamentError, match="is cancelled"):
        t.cancel()


# -- the snapshot ---------------------------------------------------------------------------------
def test_a_snapshot_restores_a_round_in_play() -> None:
    t = tournament("blackjack-100")
    t.play("p0", ["bet box 1 1000"], draws=["5h", "7c", "6s", "9d"])
    t.play("p1", ["bet box 1 100"], draws=["Th", "7c", "Ts", "9d"])
    data = json.loads(json.dumps(t.snapshot()))
    back = LeaderboardTournament.restore(t.settings, data, SeededRng(5))
    assert json.dumps(back.snapshot(), sort_keys=True) == frozen(t)
    assert back.open_round("p0") is not None
    a = t.decide("p0", "double", draws=["Th", "Kd"])
    b = back.decide("p0", "double", draws=["Th", "Kd"])
    assert a == b and a.chips == 12_000
    settings_back = LeaderboardSettings.from_json(json.loads(json.dumps(t.settings.__dict__)))
    assert settings_back == t.settings
    with pytest.raises(TournamentError, match="no tournament setting colour"):
        LeaderboardSettings.from_json({**t.settings.__dict__, "colour": "red"})


# -- properties ---------------------------------------------------------------------------------
SPOTS = (
    "red",
    "black",
    "odd",
    "even",
    "low",
    "high",
    "dozen 1",
    "column 3",
    "straight 0",
    "straight 17",
    "split 0-1",
    "corner 1-2-4-5",
)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rounds=st.lists(
        st.tuples(
            st.integers(0, 2),
            st.lists(
                st.tuples(st.sampled_from(SPOTS), st.integers(1, 1500)), min_size=1, max_size=4
            ),
        ),
        max_size=25,
    ),
)
def test_chips_change_only_by_the_game_s_payouts(
    seed: int, rounds: list[tuple[int, list[tuple[str, int]]]]
) -> None:
    t = tournament(players=3, rounds=10, starting_chips=3000, min_bet=100, max_bet=2500)
    t._rng = SeededRng(seed)
    engine = GAMES["roulette-C"]
    expected = {f"p{i}": 3000 for i in range(3)}
    for who, bets in rounds:
        entry = f"p{who}"
        before = frozen(t)
        try:
            played = t.play(entry, [f"bet {spot} {stake}" for spot, stake in bets])
        except TournamentError:
            assert frozen(t) == before  # a refusal changes nothing
            continue
        # The same round through the game alone, at the tournament's limits.
        state = replace(engine.new_state(Seats(1)), limits=Limits(1, 2500))
        for actor, text in played.moves:
            assert actor == state.to_move()
            state = state.apply(text).state
        assert state.is_terminal()
        expected[entry] += state.returns()[0]
        assert played.chips == expected[entry] == t.entry(entry).chips
        assert 100 <= played.staked <= min(2500, played.chips - state.returns()[0])
    assert t.chip_problems() == []
    assert {e: t.entry(e).chips for e in expected} == expected


@settings(max_examples=60, deadline=None)
@given(
    pockets=st.lists(st.sampled_from(["0", "1", "2"]), min_size=2, max_size=60),
    buy_in=st.integers(0, 5000),
    guarantee=st.integers(0, 200_000),
)
def test_prizes_add_up_to_the_pool_however_ties_fall(
    pockets: list[str], buy_in: int, guarantee: int
) -> None:
    t = tournament(players=len(pockets), rounds=1, buy_in=buy_in, fee=0, guarantee=guarantee)
    for i, pocket in enumerate(pockets):  # red wins on 1, loses on 2 and 0: many ties
        t.play(f"p{i}", ["bet red 1000"], draws=[pocket])
    assert t.status == "finished"
    prizes = t.prizes()
    assert sum(prizes.values()) == t.prize_pool().pool == max(buy_in * len(pockets), guarantee)
    for group in t.standings():  # tied stacks get the same prize to the cent
        shares = [prizes[e] for e in group]
        assert max(shares) - min(shares) <= 1
    ranked = [prizes[e] for group in t.standings() for e in group]
    assert all(a >= b - 1 for a, b in itertools.pairwise(ranked))
