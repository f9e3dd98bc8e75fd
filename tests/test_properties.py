"""Properties of play at a table, checked with Hypothesis over every game and version.

Money is conserved exactly, limits hold, a void pays nothing, a seed replays a
round, a record replays to its settlement, and the batch path agrees with
``resolve``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pelisali.games import make_game
from pelisali.games.base import Choice, Held, Paid, Spot, WagerGame
from pelisali.games.batch import UNDECIDED, SettlementTable
from pelisali.games.round import Limits, Round, RoundError, Settlement, Status, replay
from pelisali.games.table import Table
from pelisali.rng import SeededRng

# (game, variant, settings, invalid throw rate)
CONFIGS: list[tuple[str, str | None, dict[str, str | bool], Fraction]] = [
    *[("roulette", v, {}, Fraction(0)) for v in "ABCDEFGHI"],
    ("roulette", "C", {"quarters": False}, Fraction(0)),
    ("roulette", "D", {"zero_rule": "la_partage"}, Fraction(0)),
    ("roulette", "D", {"zero_rule": "en_prison"}, Fraction(0)),
    ("boule", None, {}, Fraction(0)),
    ("money-wheel", None, {}, Fraction(0)),
    ("tuplanoppa", None, {}, Fraction(0)),
    ("tuplanoppa", None, {"drawing": "shooter"}, Fraction(0)),
    ("tuplanoppa", None, {"drawing": "shooter"}, Fraction(1, 3)),
    ("sic-bo", None, {}, Fraction(0)),
]
CONFIG_IDS = [
    "-".join([g, *([v] if v else []), *(f"{k}={x}" for k, x in s.items()),
              *([f"invalid={r}"] if r else [])])
    for g, v, s, r in CONFIGS
]
# roulette D's default zero rule is "both"
PRISON_CONFIGS = [c for c in CONFIGS
                  if c[1] == "D" and c[2].get("zero_rule", "both") in ("en_prison", "both")]
PLAYERS = ("ann", "bob", "cid")

_GAMES: dict[int, WagerGame] = {}


def game_of(index: int) -> WagerGame:
    if index not in _GAMES:
        name, variant, chosen, _rate = CONFIGS[index]
        _GAMES[index] = make_game(name, variant, chosen)
    return _GAMES[index]


def new_table(index: int, seed: int, limits: Limits | None = None) -> Table:
    return Table(game_of(index), SeededRng(seed), limits=limits,
                 invalid_throw_rate=CONFIGS[index][3])


def is_shooter(table: Table) -> bool:
    return table.shooter_rotation is not None


def total_money(table: Table) -> int:
    return sum(table.balances.values()) + table.house_result + table.on_table


def assert_conserved(table: Table) -> None:
    assert total_money(table) == table.brought
    table.check_conservation()


def zero_heavy_outcomes(game: WagerGame) -> st.SearchStrategy[tuple[str, ...]]:
    """Any outcome, with roulette zeros much more often than the wheel gives them."""
    everything = st.sampled_from(game.outcome_list)
    zeros = [o for o in game.outcome_list if o[0] in getattr(game, "zeros", ())]
    return st.one_of(st.sampled_from(zeros), everything) if zeros else everything


def stakes(limits: Limits) -> st.SearchStrategy[int]:
    low, high = limits.minimum, limits.maximum
    return st.one_of(
        st.integers(low, min(high, low * 20)),  # odd cents make halves and quarters round
        st.sampled_from(sorted({low, low + 1, high, high + 1, 4 * low})),
        st.integers(low, 2 * high),
        st.integers(1, low),  # under the minimum (or exactly it)
    )


def settle_pending(table: Table, data: st.DataObject) -> None:
    """Answer every open choice at the table (roulette D with both zero rules)."""
    rnd = table.round
    assert rnd is not None
    while rnd.pending_choices():
        assert rnd.status is Status.DECIDING
        assert_conserved(table)
        bet_id, options = sorted(rnd.pending_choices().items())[0]
        owner = next(b.player for b in rnd.bets if b.bet_id == bet_id)
        table.decide(owner, bet_id, data.draw(st.sampled_from(options), label="option"))
    assert rnd.status is Status.SETTLED


def play_round(table: Table, data: st.DataObject, *, may_void: bool = True) -> Round:
    """Random bets, then a spin, an entered result or a void; checks money after each step."""
    game = table.game
    limits = table.current().limits
    assert limits is not None
    for _ in range(data.draw(st.integers(0, 5), label="bets")):
        player = data.draw(st.sampled_from(PLAYERS), label="player")
        spot = data.draw(st.sampled_from(list(game.spots())), label="spot")
        stake = data.draw(stakes(limits), label="stake")
        before = dict(table.balances)
        n_bets = len(table.current().bets)
        already = sum(b.stake for b in table.current().bets
                      if b.player == player and b.spot == spot and not b.level)
        try:
            receipt = table.place(player, spot.key, stake)
        except RoundError:
            assert table.balances == before
            assert len(table.current().bets) == n_bets
        else:
            # The maximum holds for a player's whole stake on a spot (RAY 1.1).
            assert receipt.accepted == min(stake, limits.maximum - already)
            assert already + receipt.accepted <= limits.maximum
            assert before[player] - table.balances[player] == receipt.accepted
        assert_conserved(table)
    rnd = table.current()
    action = data.draw(st.sampled_from(["spin", "spin", "spin", "void", "refund"])
                       if may_void else st.just("spin"), label="action")
    if not rnd.bets:
        return rnd
    if action == "spin":
        before = dict(table.balances)
        if is_shooter(table) or data.draw(st.booleans(), label="rng draw"):
            table.spin()
        else:
            outcome = data.draw(zero_heavy_outcomes(game), label="outcome")
            table.apply_draws(game.draws_for(outcome))
        settle_pending(table, data)
        # Balances grew by exactly what the settlements paid out (held bets pay nothing).
        paid = {p: 0 for p in table.balances}
        for s in rnd.settlements:
            if not s.held_level:
                paid[s.player] += s.paid
        assert {p: table.balances[p] - before[p] for p in before} == paid
        held = sorted((s.player, s.spot, s.stake, s.held_level)
                      for s in rnd.settlements if s.held_level)
        assert sorted((b.player, b.spot.key, b.stake, b.level) for b in table.standing) == held
    else:
        # The money wheel is spun again with the bets standing (RAY 1.2.3).
        respin = game.rules.void_rule == "respin"
        before = dict(table.balances)
        table.void("mis-spin", keep_bets=action == "void" or respin)
        if respin:
            assert table.balances == before
            assert_conserved(table)
            with pytest.raises(RoundError):
                table.place(PLAYERS[0], next(iter(game.spots())).key, limits.minimum)
            table.spin()
    assert_conserved(table)
    return rnd


def seat_players(table: Table, data: st.DataObject) -> None:
    for player in PLAYERS:
        table.sit(player, data.draw(st.integers(0, 400_000), label=f"balance {player}"))


PROPERTY = settings(max_examples=50, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------
# Money is conserved
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=CONFIG_IDS)
@PROPERTY
@given(seed=st.integers(0, 2**32), data=st.data())
def test_money_conserved_over_one_round(index: int, seed: int, data: st.DataObject) -> None:
    table = new_table(index, seed)
    seat_players(table, data)
    assert_conserved(table)
    rnd = play_round(table, data)
    if rnd.status is Status.SETTLED:
        # Every settled stake is either paid out, kept by the house or still in prison.
        decided = [s for s in rnd.settlements if not s.held_level]
        assert table.house_result == sum(s.stake - s.paid for s in decided)
        assert table.on_table == sum(s.stake for s in rnd.settlements if s.held_level)
        for s in rnd.settlements:
            assert 0 <= s.rounding < 1
            assert s.paid >= 0


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=CONFIG_IDS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_money_conserved_over_many_rounds(index: int, seed: int, data: st.DataObject) -> None:
    table = new_table(index, seed)
    seat_players(table, data)
    rounds = data.draw(st.integers(2, 10), label="rounds")
    for _ in range(rounds):
        play_round(table, data)
        assert_conserved(table)
    # and a second sitting joins mid-session
    table.sit("dan", 5_000)
    assert_conserved(table)


@pytest.mark.parametrize("index", [CONFIGS.index(c) for c in PRISON_CONFIGS],
                         ids=[CONFIG_IDS[CONFIGS.index(c)] for c in PRISON_CONFIGS])
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_money_conserved_through_prison(index: int, seed: int, data: st.DataObject) -> None:
    """Roulette D, en prison or both: zeros come often, so bets go in and out of prison."""
    table = new_table(index, seed)
    table.sit("ann", 1_000_000)
    game = table.game
    for _ in range(data.draw(st.integers(3, 10), label="rounds")):
        for spot in data.draw(st.lists(st.sampled_from(["red", "black", "even", "odd", "low",
                                                         "high", "17", "dozen 1"]),
                                       max_size=3), label="spots"):
            table.place("ann", spot, data.draw(st.integers(100, 2000), label="stake"))
        rnd = table.current()
        if not rnd.bets:
            continue
        zero = data.draw(st.booleans(), label="zero")
        outcome = ("0",) if zero else data.draw(st.sampled_from(game.outcome_list))
        table.apply_draws(game.draws_for(outcome))
        settle_pending(table, data)
        assert_conserved(table)
        for s in rnd.settlements:
            assert s.held_level in (0, 1, 2)
            if s.held_level:
                assert s.spot in ("red", "black", "even", "odd", "low", "high")
                assert s.result == "prison" and s.paid == 0


# ---------------------------------------------------------------------------
# Limits
# ---------------------------------------------------------------------------


@st.composite
def table_limits(draw: st.DrawFn) -> Limits | None:
    if draw(st.booleans()):
        return None  # the rule file's limits
    low = draw(st.integers(1, 5_000))
    return Limits(low, draw(st.integers(low, low * 100)))


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=CONFIG_IDS)
@PROPERTY
@given(seed=st.integers(0, 2**16), limits=table_limits(), data=st.data())
def test_stake_under_the_minimum_changes_nothing(
    index: int, seed: int, limits: Limits | None, data: st.DataObject
) -> None:
    table = new_table(index, seed, limits)
    table.sit("ann", 10**7)
    table.place("ann", table.game.spots()[0].key, table.current().limits.maximum)
    lim = table.current().limits
    assert lim is not None
    if lim.minimum == 1:
        return  # nothing is under a minimum of one cent
    # a spot without a bet of ann's: a small addition to her own bet is not under the minimum
    spot = data.draw(st.sampled_from(list(table.game.spots())[1:]))
    stake = data.draw(st.one_of(st.just(lim.minimum - 1), st.integers(1, lim.minimum - 1)))
    rnd = table.current()
    before = (dict(table.balances), [(b.bet_id, b.spot, b.stake) for b in rnd.bets],
              list(rnd.events))
    with pytest.raises(RoundError, match="under the table minimum"):
        table.place("ann", spot.key, stake)
    with pytest.raises(RoundError, match="under the table minimum"):
        rnd.place("ann", spot.key, stake)
    assert (dict(table.balances), [(b.bet_id, b.spot, b.stake) for b in rnd.bets],
            list(rnd.events)) == before
    assert_conserved(table)
    assert table.place("ann", spot.key, lim.minimum).accepted == lim.minimum  # the minimum is fine


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=CONFIG_IDS)
@PROPERTY
@given(seed=st.integers(0, 2**16), limits=table_limits(), data=st.data())
def test_stake_over_the_maximum_takes_exactly_the_maximum(
    index: int, seed: int, limits: Limits | None, data: st.DataObject
) -> None:
    table = new_table(index, seed, limits)
    lim = table.current().limits
    assert lim is not None
    stake = data.draw(st.integers(lim.maximum + 1, lim.maximum * 5))
    balance = data.draw(st.integers(lim.maximum, stake + 1000))
    table.sit("ann", balance)
    spot = data.draw(st.sampled_from(list(table.game.spots())))
    receipt = table.place("ann", spot.key, stake)
    assert receipt.accepted == lim.maximum
    assert receipt.returned == stake - lim.maximum
    assert "over the table maximum is void and returned" in receipt.message
    assert table.balances["ann"] == balance - lim.maximum
    [bet] = table.current().bets
    assert (bet.spot, bet.stake) == (spot, lim.maximum)
    assert_conserved(table)
    # the spot is full for ann; a stake within the limits on another spot is taken whole
    with pytest.raises(RoundError, match="already holds the table maximum"):
        table.place("ann", spot.key, lim.minimum)
    other = data.draw(st.sampled_from([s for s in table.game.spots() if s != spot]))
    ok = data.draw(st.integers(lim.minimum, lim.maximum))
    if ok <= table.balances["ann"]:
        again = table.place("ann", other.key, ok)
        assert (again.accepted, again.returned) == (ok, 0)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=CONFIG_IDS)
@PROPERTY
@given(seed=st.integers(0, 2**16), data=st.data())
def test_maximum_beyond_the_balance_is_refused(
    index: int, seed: int, data: st.DataObject
) -> None:
    table = new_table(index, seed)
    lim = table.current().limits
    assert lim is not None
    balance = data.draw(st.integers(0, lim.maximum - 1))
    table.sit("ann", balance)
    with pytest.raises(RoundError, match="not sold on credit"):
        table.place("ann", table.game.spots()[0].key,
                    data.draw(st.integers(max(balance + 1, lim.minimum), lim.maximum * 3)))
    assert table.balances == {"ann": balance}
    assert table.current().bets == []


# ---------------------------------------------------------------------------
# Void rounds
# ---------------------------------------------------------------------------


def place_some(table: Table, data: st.DataObject, least: int = 1) -> list[tuple[str, str, int]]:
    game = table.game
    placed = []
    for _ in range(data.draw(st.integers(least, 5), label="bets")):
        player = data.draw(st.sampled_from(PLAYERS), label="player")
        spot = data.draw(st.sampled_from(list(game.spots())), label="spot")
        stake = data.draw(st.integers(100, 3000), label="stake")
        receipt = table.place(player, spot.key, stake)
        placed.append((player, spot.key, receipt.accepted))
    return placed


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=CONFIG_IDS)
@PROPERTY
@given(seed=st.integers(0, 2**32), data=st.data())
def test_void_with_refund_gives_every_stake_back(
    index: int, seed: int, data: st.DataObject
) -> None:
    table = new_table(index, seed)
    for player in PLAYERS:
        table.sit(player, 100_000)
    start = dict(table.balances)
    place_some(table, data)
    rnd = table.current()
    if data.draw(st.booleans(), label="close first"):
        rnd.close()
    if table.game.rules.void_rule == "respin":  # RAY 1.2.3: spun again, bets standing
        before = dict(table.balances)
        with pytest.raises(RoundError, match="spun again with the bets standing"):
            table.void("device fault", keep_bets=False)
        assert table.balances == before and rnd.status is not Status.VOID
        return
    table.void("device fault", keep_bets=False)
    assert table.balances == start
    assert table.house_result == 0 and table.on_table == 0 and table.standing == []
    assert rnd.status is Status.VOID and rnd.settlements == []
    assert table.history[-1]["status"] == "void"
    assert replay(table.history[-1]) == []
    assert_conserved(table)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=CONFIG_IDS)
@PROPERTY
@given(seed=st.integers(0, 2**32), data=st.data())
def test_void_keeping_bets_carries_them_to_the_next_round(
    index: int, seed: int, data: st.DataObject
) -> None:
    table = new_table(index, seed)
    for player in PLAYERS:
        table.sit(player, 100_000)
    placed = place_some(table, data)
    after_bets = dict(table.balances)
    voided = table.current()
    table.void("mis-spin", keep_bets=True)
    assert table.balances == after_bets  # a void pays nothing and takes nothing
    assert table.house_result == 0
    respin = table.game.rules.void_rule == "respin"
    if not respin:  # (a re-spin has already taken the standing bets into the next round)
        assert sorted((b.player, b.spot.key, b.stake) for b in table.standing) == sorted(placed)
    assert_conserved(table)
    nxt = table.current()
    # The money wheel is spun again at once with the bets standing (RAY 1.2.3).
    assert nxt is not voided
    assert nxt.status is (Status.CLOSED if respin else Status.BETTING)
    assert sorted((b.player, b.spot.key, b.stake) for b in nxt.bets) == sorted(placed)
    assert all(b.carried for b in nxt.bets) and table.standing == []
    assert nxt.new_stakes == 0
    assert_conserved(table)
    # the carried stakes are settled like new ones
    before = dict(table.balances)
    if respin:
        table.spin()
    else:
        play_round(table, data, may_void=False)
    assert nxt.status is Status.SETTLED
    assert {s.bet_id for s in nxt.settlements} >= {b.bet_id for b in nxt.bets if b.carried}
    credited = sum(s.paid for s in nxt.settlements if not s.held_level)
    new = sum(b.stake for b in nxt.bets if not b.carried)
    assert sum(table.balances.values()) == sum(before.values()) - new + credited
    assert_conserved(table)


@pytest.mark.parametrize("index", [CONFIGS.index(c) for c in PRISON_CONFIGS],
                         ids=[CONFIG_IDS[CONFIGS.index(c)] for c in PRISON_CONFIGS])
@PROPERTY
@given(seed=st.integers(0, 2**32), keep=st.booleans(), data=st.data())
def test_void_leaves_imprisoned_bets_in_prison(
    index: int, seed: int, keep: bool, data: st.DataObject
) -> None:
    table = new_table(index, seed)
    for player in PLAYERS:
        table.sit(player, 100_000)
    stake = data.draw(st.integers(100, 3000))
    table.place("ann", "red", stake)
    table.apply_draws(table.game.draws_for(("0",)))
    rnd = table.round
    assert rnd is not None
    for bet_id in rnd.pending_choices():  # both rules: ann chooses prison
        table.decide("ann", bet_id, "prison")
    assert rnd.status is Status.SETTLED
    [prisoner] = table.standing
    assert prisoner.level == 1
    start = dict(table.balances)
    extra = place_some(table, data, least=0)
    table.void("mis-spin", keep_bets=keep)
    standing = sorted((b.player, b.spot.key, b.stake, b.level) for b in table.standing)
    expected = [("ann", "red", prisoner.stake, 1)]
    if keep:
        expected += [(p, k, s, 0) for p, k, s in extra]
        assert table.balances == {p: start[p] - sum(s for q, _k, s in extra if q == p)
                                  for p in start}
    else:
        assert table.balances == start
    assert standing == sorted(expected)
    assert_conserved(table)
    rnd = table.current()
    prison_bet = next(b for b in rnd.bets if b.level)
    with pytest.raises(RoundError, match="in prison"):
        table.withdraw("ann", prison_bet.bet_id)


# ---------------------------------------------------------------------------
# Determinism and replay
# ---------------------------------------------------------------------------


@st.composite
def scripts(draw: st.DrawFn, index: int) -> list[list[tuple[str, str, int]] | str]:
    """A session as data: each round a list of bets, or a void instruction."""
    game = game_of(index)
    spots = [s.key for s in game.spots()]
    out: list[list[tuple[str, str, int]] | str] = []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.integers(0, 5)) == 0:
            out.append(draw(st.sampled_from(["void", "refund"])))
            continue
        out.append(draw(st.lists(st.tuples(st.sampled_from(PLAYERS), st.sampled_from(spots),
                                           st.integers(100, 5000)), min_size=1, max_size=5)))
    return out


def run_script(index: int, seed: int, script: Sequence[Any]) -> Table:
    """Play a script; choices are always the first option, so both runs choose alike."""
    table = new_table(index, seed)
    for player in PLAYERS:
        table.sit(player, 500_000)
    for step in script:
        if isinstance(step, str):
            if table.current().bets:
                respin = table.game.rules.void_rule == "respin"
                table.void("mis-spin", keep_bets=step == "void" or respin)
                if respin:
                    table.spin()
            continue
        for player, spot, stake in step:
            table.place(player, spot, stake)
        table.spin()
        rnd = table.round
        assert rnd is not None
        while rnd.pending_choices():
            bet_id, options = sorted(rnd.pending_choices().items())[0]
            owner = next(b.player for b in rnd.bets if b.bet_id == bet_id)
            table.decide(owner, bet_id, options[0])
    return table


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=CONFIG_IDS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63), data=st.data())
def test_same_seed_replays_the_same_rounds(index: int, seed: int, data: st.DataObject) -> None:
    script = data.draw(scripts(index))
    first, second = run_script(index, seed, script), run_script(index, seed, script)
    assert first.history == second.history
    assert first.balances == second.balances
    assert (first.house_result, first.house_rounding) == (second.house_result,
                                                          second.house_rounding)
    assert [(b.player, b.spot, b.stake, b.level) for b in first.standing] == [
        (b.player, b.spot, b.stake, b.level) for b in second.standing]
    assert_conserved(first)


def test_different_seeds_give_different_rounds() -> None:
    """The seed matters: the determinism above is not a constant generator."""
    index = CONFIGS.index(("roulette", "C", {}, Fraction(0)))
    script = [[("ann", "red", 100)]] * 20
    draws = {str([r["draws"] for r in run_script(index, seed, script).history])
             for seed in range(5)}
    assert len(draws) == 5


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=CONFIG_IDS)
@PROPERTY
@given(seed=st.integers(0, 2**32), data=st.data())
def test_record_replays_to_the_same_settlement(
    index: int, seed: int, data: st.DataObject
) -> None:
    table = new_table(index, seed)
    seat_players(table, data)
    for _ in range(data.draw(st.integers(1, 4), label="rounds")):
        rnd = play_round(table, data)
        if rnd.status not in (Status.SETTLED, Status.VOID):
            continue
        record = rnd.record()
        # (after a money-wheel void the re-spin's record follows the void's)
        assert record == next(h for h in table.history if h["round_id"] == record["round_id"])
        expected = rnd.settlements
        assert replay(record) == expected
        via_json = json.loads(json.dumps(record))
        assert replay(via_json) == expected
        assert [s.to_json() for s in expected] == record["settlements"]
        if rnd.status is Status.VOID:
            assert expected == []


@pytest.mark.parametrize("rule", ["both", "en_prison"])
def test_roulette_d_decisions_replay(rule: str) -> None:
    """A record with decisions and prison levels replays the same, also through JSON."""
    table = Table(make_game("roulette", "D", {"zero_rule": rule}), SeededRng(7))
    table.sit("ann", 100_000)
    table.sit("bob", 100_000)
    game = table.game
    records, settlements = [], []

    def play(bets: list[tuple[str, str, int]], pocket: str, choose: dict[str, str]) -> None:
        for player, spot, stake in bets:
            table.place(player, spot, stake)
        table.apply_draws(game.draws_for((pocket,)))
        rnd = table.round
        assert rnd is not None
        for bet_id in sorted(rnd.pending_choices()):
            bet = next(b for b in rnd.bets if b.bet_id == bet_id)
            table.decide(bet.player, bet_id, choose[bet.spot.key])
        assert rnd.status is Status.SETTLED
        records.append(rnd.record())
        settlements.append(rnd.settlements)

    play([("ann", "red", 400), ("bob", "black", 400), ("ann", "odd", 101), ("bob", "17", 100)],
         "0", {"red": "prison", "black": "half"})
    play([("bob", "even", 200)], "0", {"red": "quarter", "even": "half"})
    play([], "2", {})
    if rule == "both":
        assert records[0]["decisions"] and records[1]["decisions"]
        assert any(s.result == "quarter" for s in settlements[1])
    assert any(b["level"] for b in records[1]["bets"])
    for record, expected in zip(records, settlements, strict=True):
        assert replay(record) == expected
        assert replay(json.loads(json.dumps(record))) == expected
    assert_conserved(table)


def test_replay_follows_the_recorded_draws() -> None:
    """Replay recomputes from draws, bets and choices; it does not copy the settlements."""
    rnd = Round(make_game("roulette", "D", {"zero_rule": "both"}), "r1")
    rnd.place("ann", "17", 100)
    rnd.place("ann", "red", 400)
    rnd.close()
    rnd.apply_draws(rnd.game.draws_for(("0",)))
    rnd.decide(2, "half")
    rnd.settle()
    record = json.loads(json.dumps(rnd.record()))
    assert [(s.paid, s.result) for s in replay(record)] == [(0, "lose"), (200, "half")]
    record["decisions"] = {"2": "prison"}
    assert [(s.paid, s.result, s.held_level) for s in replay(record)] == [
        (0, "lose", 0), (0, "prison", 1)]
    record["decisions"] = {}
    record["draws"] = [{"device": "wheel", "slot": 17, "face": "17"}]
    assert [(s.paid, s.result) for s in replay(record)] == [(3600, "win"), (0, "lose")]
    record["bets"][0]["stake"] = 200
    assert replay(record)[0].paid == 7200


# ---------------------------------------------------------------------------
# The batch path equals resolve
# ---------------------------------------------------------------------------


@st.composite
def batch_bets(draw: st.DrawFn, game: WagerGame) -> list[tuple[Spot, int, int]]:
    prison = getattr(game, "zero_rule", None) in ("prison", "both")
    bets = []
    for spot in draw(st.lists(st.sampled_from(list(game.spots())), min_size=1, max_size=8)):
        level = 0
        if prison and spot.bet_type in ("red", "black", "even", "odd", "low", "high"):
            level = draw(st.integers(0, 2))
        bets.append((spot, draw(st.integers(1, 10**6)), level))
    return bets


def expected_cell(res: Paid | Held | Choice) -> tuple[int, int, Fraction]:
    """(paid, held, rounding) the batch table should hold for one resolution."""
    if isinstance(res, Paid):
        whole = res.amount.numerator // res.amount.denominator
        return whole, 0, res.amount - whole
    if isinstance(res, Held):
        return 0, res.level, Fraction(0)
    return 0, UNDECIDED, Fraction(0)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=CONFIG_IDS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_batch_settle_equals_resolve(index: int, seed: int, data: st.DataObject) -> None:
    game = game_of(index)
    bets = data.draw(batch_bets(game))
    table = SettlementTable(game, bets)
    outcomes = game.draw_many(SeededRng(seed), 200)
    outcomes = np.concatenate([outcomes, np.arange(game.outcome_count, dtype=np.int64)])
    paid, held = table.settle(outcomes), table.held_levels(outcomes)
    assert paid.shape == held.shape == (len(outcomes), len(bets))
    for row, o in enumerate(outcomes.tolist()):
        outcome = game.outcome_list[o]
        for b, (spot, stake, level) in enumerate(bets):
            res = game.resolve(spot, stake, level, outcome)
            want_paid, want_held, want_rounding = expected_cell(res)
            assert (int(paid[row, b]), int(held[row, b])) == (want_paid, want_held)
            assert table.rounding_of(o, b) == want_rounding
            assert table.resolution(o, b) == res


@pytest.mark.parametrize("index", [CONFIGS.index(c) for c in PRISON_CONFIGS],
                         ids=[CONFIG_IDS[CONFIGS.index(c)] for c in PRISON_CONFIGS])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_batch_policy_takes_the_chosen_option(index: int, data: st.DataObject) -> None:
    game = game_of(index)
    bets = data.draw(batch_bets(game))
    pick = data.draw(st.sampled_from(["first", "last"]))

    def policy(spot: Spot, stake: int, level: int, choice: Choice) -> str:
        return choice.names[0] if pick == "first" else choice.names[-1]

    table = SettlementTable(game, bets, policy)
    everything = np.arange(game.outcome_count, dtype=np.int64)
    paid, held = table.settle(everything), table.held_levels(everything)
    assert not (held == UNDECIDED).any()
    for o, outcome in enumerate(game.outcome_list):
        for b, (spot, stake, level) in enumerate(bets):
            res = game.resolve(spot, stake, level, outcome)
            if isinstance(res, Choice):
                res = res.option(policy(spot, stake, level, res))
            want_paid, want_held, _ = expected_cell(res)
            assert (int(paid[o, b]), int(held[o, b])) == (want_paid, want_held)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=CONFIG_IDS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_round_settles_like_resolve(index: int, data: st.DataObject) -> None:
    """A one-round batch (the play path) pays what resolve says, to the cent."""
    game = game_of(index)
    rnd = Round(game, "r1", Limits(1, 10**6))
    bets = data.draw(batch_bets(game))
    for i, (spot, stake, _level) in enumerate(bets):
        rnd.place(f"player {i}", spot, stake)  # one player a bet: each within its own limit
    rnd.close()
    outcome = data.draw(zero_heavy_outcomes(game))
    rnd.apply_draws(game.draws_for(outcome))
    for bet_id, options in sorted(rnd.pending_choices().items()):
        rnd.decide(bet_id, data.draw(st.sampled_from(options)))
    settled: list[Settlement] = rnd.settle()
    for bet, s in zip(rnd.bets, settled, strict=True):
        res = game.resolve(bet.spot, bet.stake, 0, outcome)
        if isinstance(res, Choice):
            res = res.option(rnd.decisions[bet.bet_id])
        want_paid, want_held, want_rounding = expected_cell(res)
        assert (s.paid, s.held_level, s.rounding) == (want_paid, want_held, want_rounding)
        assert s.paid + s.rounding == (res.amount if isinstance(res, Paid) else 0)


# ---------------------------------------------------------------------------
# Layout and outcome bookkeeping the replay relies on
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=CONFIG_IDS)
def test_spot_keys_and_outcomes_round_trip(index: int) -> None:
    game = game_of(index)
    keys = [s.key for s in game.spots()]
    assert len(keys) == len(set(keys))
    for spot in game.spots():
        assert game.spot(spot.key) == spot
    assert len(game.outcome_list) == game.outcome_count
    for i, outcome in enumerate(game.outcome_list):
        assert game.outcome_index(outcome) == i
        assert game.outcome_of(game.draws_for(outcome)) == outcome
    assert sum(w for _, _, w in game.outcomes()) == game.total_weight
