"""A round refuses bad input with a clear error and changes nothing; the Tuplanoppa shooter."""

from __future__ import annotations

import copy
from fractions import Fraction

import numpy as np
import pytest

from pelisali.games import GameError, UnknownSpot, make_game
from pelisali.games.base import Draw
from pelisali.games.round import Limits, Round, RoundError, Status, replay
from pelisali.games.spot_grammar import GRAMMAR
from pelisali.games.table import ShooterRotation, Table
from pelisali.rng import SeededRng


class ScriptedRng:
    """Hands out a fixed list of draws, so a test knows every die and every rejection."""

    name = "scripted"

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)

    def randbelow(self, n: int) -> int:
        value = self.values.pop(0)
        assert 0 <= value < n, (value, n)
        return value

    def randbelow_many(self, n: int, size: int) -> np.ndarray:
        raise AssertionError("not used")


def snapshot(rnd: Round) -> dict[str, object]:
    """Everything a refused action must leave as it was."""
    return {
        "status": rnd.status,
        "bets": copy.deepcopy(rnd.bets),
        "draws": list(rnd.draws),
        "rejected": copy.deepcopy(rnd.rejected),
        "decisions": dict(rnd.decisions),
        "settlements": list(rnd.settlements),
        "events": list(rnd.events),
        "next_id": rnd._next_id,
    }


def roulette_round(variant: str = "C", **settings: str | bool) -> Round:
    return Round(make_game("roulette", variant, settings or None), "r1")


# ---------------------------------------------------------------------------
# Spots and stakes
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "variant", "text"),
    [
        ("roulette", "C", "37"),
        ("roulette", "C", "split 1-5"),
        ("roulette", "C", "first_five"),  # double-zero only
        ("roulette", "E", "corner 0-1-2-3"),  # no 0-1-2-3 corner on a double-zero wheel
        ("roulette", "G", "split 1-2"),  # straight-ups only
        ("boule", None, "10"),
        ("money-wheel", None, "7"),
        ("tuplanoppa", None, "sum_13"),
        ("sic-bo", None, "total_3"),
        ("sic-bo", None, "pass_line"),
    ],
)
def test_unknown_spot_names_the_bet_types(game: str, variant: str | None, text: str) -> None:
    g = make_game(game, variant)
    rnd = Round(g, "r1")
    before = snapshot(rnd)
    with pytest.raises(UnknownSpot) as info:
        rnd.place("ann", text, 500)
    message = str(info.value)
    assert repr(text) in message
    assert "bet types: " + ", ".join(g.bet_types()) in message
    assert snapshot(rnd) == before


@pytest.mark.parametrize(
    ("game", "variant", "text", "reason"),
    [
        ("roulette", "C", "straight -1", GRAMMAR),  # was settled as straight 1
        ("roulette", "C", "-17", GRAMMAR),
        ("roulette", "C", "straight +1", GRAMMAR),
        ("roulette", "C", "straight 1.0", GRAMMAR),
        ("roulette", "C", "straight 01", GRAMMAR),  # leading zeros: one spelling a spot
        ("roulette", "C", "01", GRAMMAR),
        ("roulette", "C", "straight 17-", GRAMMAR),
        ("roulette", "C", "split -0-1", GRAMMAR),
        ("roulette", "C", "split 1--2", GRAMMAR),
        ("roulette", "C", "red,", GRAMMAR),
        ("roulette", "C", "straight 17 please", GRAMMAR),
        ("roulette", "C", "straight \uff11\uff17", GRAMMAR),  # full-width digits
        ("roulette", "C", "straight 37", "37 is not a pocket of this wheel"),
        ("roulette", "C", "37", "37 is not a pocket of this wheel"),
        ("roulette", "C", "split 0-00", "00 is not a pocket of this wheel"),
        ("roulette", "E", "straight 000", GRAMMAR),
        ("boule", None, "-5", GRAMMAR),
        ("boule", None, "05", GRAMMAR),
        ("boule", None, "5.0", GRAMMAR),
        ("sic-bo", None, "two_dice -1-2", GRAMMAR),  # was two_dice 1-2
        ("sic-bo", None, "total -10", GRAMMAR),  # was total_10
        ("sic-bo", None, "total 010", GRAMMAR),
        ("tuplanoppa", None, "-7", GRAMMAR),
        ("tuplanoppa", None, "sum 07", GRAMMAR),
        ("money-wheel", None, "-20", GRAMMAR),
        ("money-wheel", None, "\u0662\u0660", GRAMMAR),  # Arabic-Indic 20
    ],
)
def test_a_spot_outside_the_grammar_is_refused_with_the_reason(
        game: str, variant: str | None, text: str, reason: str) -> None:
    rnd = Round(make_game(game, variant), "r1")
    before = snapshot(rnd)
    with pytest.raises(UnknownSpot) as info:
        rnd.place("ann", text, 500)
    assert f"has no betting spot {text!r} ({reason}); bet types: " in str(info.value)
    assert snapshot(rnd) == before


@pytest.mark.parametrize(
    ("game", "variant", "text", "key"),
    [
        ("roulette", "C", "17", "straight 17"),
        ("roulette", "C", "0", "straight 0"),
        ("roulette", "C", "Straight 17", "straight 17"),
        ("roulette", "C", "STRAIGHT:17", "straight 17"),
        ("roulette", "C", "  straight\t17 ", "straight 17"),
        ("roulette", "C", "split 2 - 1", "split 1-2"),
        ("roulette", "C", "split 2,1", "split 1-2"),
        ("roulette", "C", "split 1-0", "split 0-1"),
        ("roulette", "C", "corner 5 1 4 2", "corner 1-2-4-5"),
        ("roulette", "C", "Dozen 2", "dozen 2"),
        ("roulette", "C", "RED", "red"),
        ("roulette", "E", "00", "straight 00"),
        ("roulette", "E", "split 00-0", "split 0-00"),
        ("roulette", "E", "First_Five", "first_five"),
        ("boule", None, "5", "straight 5"),
        ("boule", None, "Red", "red"),
        ("sic-bo", None, "total 10", "total_10"),
        ("sic-bo", None, "TOTAL_4", "total_4"),
        ("sic-bo", None, "two_dice 2-1", "two_dice 1-2"),
        ("sic-bo", None, "Single 6", "single 6"),
        ("tuplanoppa", None, "7", "sum_7"),
        ("tuplanoppa", None, "sum 12", "sum_12"),
        ("tuplanoppa", None, "Under 7", "under_7"),
        ("tuplanoppa", None, "any pair", "any_pair"),
        ("money-wheel", None, "20", "20"),
        ("money-wheel", None, "Joker", "joker"),
    ],
)
def test_every_spelling_a_spot_had_still_means_it(game: str, variant: str | None, text: str,
                                                  key: str) -> None:
    assert make_game(game, variant).spot(text).key == key


def test_unknown_spot_is_a_game_error_and_quarters_follow_the_setting() -> None:
    assert issubclass(UnknownSpot, GameError)
    assert roulette_round("C", quarters=True).place("ann", "quarter 1", 100).accepted == 100
    rnd = roulette_round("C")
    with pytest.raises(UnknownSpot, match=r"bet types: .*red") as info:
        rnd.place("ann", "quarter 1", 100)
    assert "quarter" not in str(info.value).split("bet types:")[1]
    assert rnd.bets == []


def test_spot_object_from_another_layout_is_refused() -> None:
    e_spot = make_game("roulette", "E").spot("straight 00")
    rnd = roulette_round("C")
    before = snapshot(rnd)
    with pytest.raises(RoundError, match="not a spot of roulette C"):
        rnd.place("ann", e_spot, 500)
    assert snapshot(rnd) == before


@pytest.mark.parametrize(
    ("stake", "pattern"),
    [
        (0, "must be positive"),
        (-1, "must be positive"),
        (-500, "must be positive"),
        (5.0, "whole number of cents"),
        (500.0, "whole number of cents"),
        (True, "whole number of cents"),
        (False, "whole number of cents"),
        ("500", "whole number of cents"),
        (Fraction(500), "whole number of cents"),
        (None, "whole number of cents"),
    ],
)
def test_bad_stakes_are_refused(stake: object, pattern: str) -> None:
    rnd = roulette_round()
    rnd.place("bob", "black", 300)
    before = snapshot(rnd)
    with pytest.raises(RoundError, match=pattern):
        rnd.place("ann", "red", stake)  # type: ignore[arg-type]
    assert snapshot(rnd) == before
    with pytest.raises(RoundError, match=pattern):
        rnd.check("red", stake)  # type: ignore[arg-type]
    assert snapshot(rnd) == before


def test_stake_under_minimum_and_over_maximum() -> None:
    rnd = Round(make_game("roulette", "C"), "r1", Limits(200, 1000))
    before = snapshot(rnd)
    with pytest.raises(RoundError, match=r"1\.99 is under the table minimum 2\.00"):
        rnd.place("ann", "red", 199)
    assert snapshot(rnd) == before
    receipt = rnd.place("ann", "red", 1500)
    assert (receipt.accepted, receipt.returned) == (1000, 500)
    assert "5.00 over the table maximum is void and returned" in receipt.message
    assert rnd.bets[-1].stake == 1000
    exact = rnd.place("ann", "black", 1000)
    assert (exact.accepted, exact.returned) == (1000, 0)
    assert "void" not in exact.message


@pytest.mark.parametrize(("low", "high"), [(0, 100), (-5, 100), (200, 100)])
def test_invalid_limits(low: int, high: int) -> None:
    with pytest.raises(RoundError, match="invalid limits"):
        Limits(low, high)


# ---------------------------------------------------------------------------
# After "no more bets"
# ---------------------------------------------------------------------------


def test_no_bets_after_close() -> None:
    rnd = roulette_round()
    receipt = rnd.place("ann", "red", 500)
    rnd.close()
    before = snapshot(rnd)
    with pytest.raises(RoundError, match="is closed; that needs it to be betting"):
        rnd.place("ann", "black", 500)
    with pytest.raises(RoundError, match="closed"):
        rnd.withdraw(receipt.bet_id)
    with pytest.raises(RoundError, match="closed"):
        rnd.close()
    assert snapshot(rnd) == before


def test_no_bets_after_close_at_the_table() -> None:
    table = Table(make_game("roulette", "D", {"zero_rule": "both"}), SeededRng(1))
    table.sit("ann", 10_000)
    bet = table.place("ann", "red", 400)
    table.apply_draws(table.game.draws_for(("0",)))  # ann must choose: the round stays open
    assert table.round is not None and table.round.status is Status.DECIDING
    before = (dict(table.balances), snapshot(table.round))
    with pytest.raises(RoundError, match="deciding; that needs it to be betting"):
        table.place("ann", "black", 400)
    with pytest.raises(RoundError):
        table.withdraw("ann", bet.bet_id)
    assert (dict(table.balances), snapshot(table.round)) == before


def test_withdraw_then_unknown_bet() -> None:
    rnd = roulette_round()
    a = rnd.place("ann", "red", 500)
    b = rnd.place("ann", "black", 700)
    withdrawn = rnd.withdraw(a.bet_id)
    assert withdrawn.stake == 500
    assert [bet.bet_id for bet in rnd.bets] == [b.bet_id]
    before = snapshot(rnd)
    with pytest.raises(RoundError, match=f"has no bet {a.bet_id}"):
        rnd.withdraw(a.bet_id)
    assert snapshot(rnd) == before


def _imprisoned_table() -> tuple[Table, int]:
    """A roulette D table where ann's red bet is in prison at level 1."""
    table = Table(make_game("roulette", "D", {"zero_rule": "en_prison"}), SeededRng(3))
    table.sit("ann", 10_000)
    table.place("ann", "red", 1000)
    table.apply_draws(table.game.draws_for(("0",)))
    assert [(b.spot.key, b.level) for b in table.standing] == [("red", 1)]
    rnd = table.current()
    prisoner = rnd.bets[0]
    assert prisoner.level == 1 and prisoner.carried
    return table, prisoner.bet_id


def test_imprisoned_bet_cannot_be_withdrawn() -> None:
    table, bet_id = _imprisoned_table()
    rnd = table.current()
    before = (dict(table.balances), snapshot(rnd))
    with pytest.raises(RoundError, match="in prison and cannot be removed"):
        rnd.withdraw(bet_id)
    with pytest.raises(RoundError, match="in prison"):
        table.withdraw("ann", bet_id)
    assert (dict(table.balances), snapshot(rnd)) == before
    with pytest.raises(RoundError, match="bob has no bet"):
        table.withdraw("bob", bet_id)


def test_withdraw_of_another_players_bet_is_refused() -> None:
    table = Table(make_game("roulette", "C"), SeededRng(3))
    table.sit("ann", 1000)
    table.sit("bob", 1000)
    receipt = table.place("ann", "red", 500)
    before = (dict(table.balances), snapshot(table.current()))
    with pytest.raises(RoundError, match="bob has no bet"):
        table.withdraw("bob", receipt.bet_id)
    assert (dict(table.balances), snapshot(table.current())) == before
    table.withdraw("ann", receipt.bet_id)
    assert table.balances == {"ann": 1000, "bob": 1000}


# ---------------------------------------------------------------------------
# Choices (roulette D with both zero rules)
# ---------------------------------------------------------------------------


def _deciding_round() -> tuple[Round, int, int]:
    rnd = roulette_round("D", zero_rule="both")
    red = rnd.place("ann", "red", 400).bet_id
    straight = rnd.place("ann", "17", 400).bet_id
    rnd.close()
    rnd.apply_draws(rnd.game.draws_for(("0",)))
    assert rnd.status is Status.DECIDING
    assert rnd.pending_choices() == {red: ["prison", "half"]}
    return rnd, red, straight


def test_decide_on_a_bet_without_a_choice() -> None:
    rnd, _red, straight = _deciding_round()
    before = snapshot(rnd)
    with pytest.raises(RoundError, match=f"bet {straight} has no choice to make"):
        rnd.decide(straight, "half")
    with pytest.raises(RoundError, match="bet 99 has no choice"):
        rnd.decide(99, "half")
    assert snapshot(rnd) == before


def test_decide_with_an_invalid_option() -> None:
    rnd, red, _straight = _deciding_round()
    before = snapshot(rnd)
    for option in ("quarter", "HALF", "", "lose"):
        with pytest.raises(RoundError, match="is not an option; choose prison or half"):
            rnd.decide(red, option)
    assert snapshot(rnd) == before
    rnd.decide(red, "half")
    assert rnd.status is Status.DRAWN
    with pytest.raises(RoundError, match="drawn; that needs it to be deciding"):
        rnd.decide(red, "prison")
    assert rnd.decisions == {red: "half"}
    settled = {s.bet_id: s for s in rnd.settle()}
    assert (settled[red].paid, settled[red].result) == (200, "half")


def test_decide_before_the_draw_is_refused() -> None:
    rnd = roulette_round("D", zero_rule="both")
    bet = rnd.place("ann", "red", 400).bet_id
    with pytest.raises(RoundError, match="betting; that needs it to be deciding"):
        rnd.decide(bet, "half")
    assert rnd.decisions == {}


def test_settle_with_choices_open_is_refused() -> None:
    rnd, red, _ = _deciding_round()
    before = snapshot(rnd)
    with pytest.raises(RoundError, match="choices still open"):
        rnd.settle()
    assert snapshot(rnd) == before
    assert rnd.pending_choices() == {red: ["prison", "half"]}


def test_table_decide_checks_the_owner() -> None:
    table = Table(make_game("roulette", "D"), SeededRng(1))
    table.sit("ann", 10_000)
    table.sit("bob", 10_000)
    bet = table.place("ann", "red", 400).bet_id
    table.apply_draws(table.game.draws_for(("0",)))
    before = (dict(table.balances), snapshot(table.current()))
    with pytest.raises(RoundError, match="bob has no bet"):
        table.decide("bob", bet, "prison")
    assert (dict(table.balances), snapshot(table.current())) == before
    table.decide("ann", bet, "prison")
    assert table.round is not None and table.round.status is Status.SETTLED
    assert [(b.player, b.spot.key, b.stake, b.level) for b in table.standing] == [
        ("ann", "red", 400, 1)
    ]


# ---------------------------------------------------------------------------
# Draws and settlement
# ---------------------------------------------------------------------------


def test_settle_before_the_draw() -> None:
    rnd = roulette_round()
    rnd.place("ann", "red", 500)
    before = snapshot(rnd)
    with pytest.raises(RoundError, match="betting; that needs it to be drawn"):
        rnd.settle()
    assert snapshot(rnd) == before
    rnd.close()
    before = snapshot(rnd)
    with pytest.raises(RoundError, match="nothing drawn yet"):
        rnd.settle()
    assert snapshot(rnd) == before


def test_draw_before_close_is_refused() -> None:
    rnd = roulette_round()
    rnd.place("ann", "red", 500)
    before = snapshot(rnd)
    with pytest.raises(RoundError, match="needs it to be closed"):
        rnd.draw(SeededRng(1))
    with pytest.raises(RoundError, match="needs it to be closed"):
        rnd.apply_draws(rnd.game.draws_for(("3",)))
    assert snapshot(rnd) == before


@pytest.mark.parametrize(
    ("game", "variant", "draws", "pattern"),
    [
        ("roulette", "C", [], "draws must be one each of \\['wheel'\\]"),
        ("roulette", "C", [Draw("die1", 0, "1")], "draws must be one each of"),
        ("roulette", "C", [Draw("wheel", 0, "0"), Draw("wheel", 1, "1")], "one each"),
        ("roulette", "B", [Draw("wheel", 3, "3")], "\\['wheel', 'paytable'\\]"),
        ("roulette", "B", [Draw("paytable", 0, "1"), Draw("wheel", 3, "3")], "one each"),
        ("roulette", "G", [Draw("wheel", 3, "3")], "'multiplier'"),
        ("tuplanoppa", None, [Draw("die1", 0, "1")], "\\['die1', 'die2'\\]"),
        ("tuplanoppa", None, [Draw("die2", 0, "1"), Draw("die1", 0, "1")], "one each"),
        ("roulette", "C", [Draw("wheel", 3, "4")], "wheel has no slot 3 showing '4'"),
        ("roulette", "C", [Draw("wheel", 37, "37")], "wheel has no slot 37"),
        ("roulette", "C", [Draw("wheel", -1, "36")], "wheel has no slot -1"),
        ("tuplanoppa", None, [Draw("die1", 0, "1"), Draw("die2", 6, "7")], "die2 has no slot 6"),
        ("tuplanoppa", None, [Draw("die1", 0, "2"), Draw("die2", 0, "1")], "die1 has no slot 0"),
        ("money-wheel", None, [Draw("wheel", 0, "joker")], "wheel has no slot 0 showing 'joker'"),
        ("roulette", "B", [Draw("wheel", 3, "3"), Draw("paytable", 0, "2")], "paytable has no"),
    ],
)
def test_apply_draws_refuses_wrong_devices_and_mismatches(
    game: str, variant: str | None, draws: list[Draw], pattern: str
) -> None:
    g = make_game(game, variant)
    rnd = Round(g, "r1")
    rnd.place("ann", g.spots()[0].key, 500)
    rnd.close()
    before = snapshot(rnd)
    with pytest.raises(GameError, match=pattern):
        rnd.apply_draws(draws)
    assert snapshot(rnd) == before
    assert rnd._table is None and rnd.pending_choices() == {}
    with pytest.raises(RoundError, match="nothing drawn yet"):
        rnd.settle()


def test_table_apply_draws_refused_changes_no_balance() -> None:
    table = Table(make_game("tuplanoppa"), SeededRng(1))
    table.sit("ann", 1000)
    table.place("ann", "7", 500)
    with pytest.raises(GameError, match="die2 has no slot"):
        table.apply_draws([Draw("die1", 0, "1"), Draw("die2", 9, "6")])
    assert table.balances == {"ann": 500}
    assert table.house_result == 0 and table.on_table == 500
    table.apply_draws(table.game.draws_for(("3", "4")))
    assert table.balances == {"ann": 500 + 2500}


def test_draws_for_refuses_a_face_the_device_lacks() -> None:
    g = make_game("roulette", "C")
    with pytest.raises(GameError, match="wheel cannot show '00'"):
        g.draws_for(("00",))


def test_settled_round_refuses_everything() -> None:
    rnd = roulette_round()
    bet = rnd.place("ann", "red", 500).bet_id
    rnd.close()
    rnd.apply_draws(rnd.game.draws_for(("3",)))
    rnd.settle()
    before = snapshot(rnd)
    for action in (
        lambda: rnd.place("ann", "red", 500),
        lambda: rnd.withdraw(bet),
        lambda: rnd.close(),
        lambda: rnd.settle(),
        lambda: rnd.apply_draws(rnd.game.draws_for(("4",))),
        lambda: rnd.void("late"),
        lambda: rnd.reject_draw(rnd.game.draws_for(("4",)), "late"),
    ):
        with pytest.raises(RoundError, match="is settled"):
            action()
    assert snapshot(rnd) == before


def test_a_round_is_drawn_once() -> None:
    rnd = roulette_round()
    rnd.place("ann", "17", 500)
    rnd.close()
    first = rnd.apply_draws(rnd.game.draws_for(("3",)))
    assert first == ("3",)
    before = snapshot(rnd)
    with pytest.raises(RoundError):
        rnd.apply_draws(rnd.game.draws_for(("17",)))
    with pytest.raises(RoundError):
        rnd.draw(SeededRng(1))
    assert snapshot(rnd) == before


def test_void_round_refuses_draws_and_settlement() -> None:
    rnd = roulette_round()
    rnd.place("ann", "red", 500)
    standing = rnd.void("mis-spin")
    assert [b.stake for b in standing] == [500]
    for action in (lambda: rnd.close(), lambda: rnd.settle(), lambda: rnd.void("again"),
                   lambda: rnd.draw(SeededRng(1))):
        with pytest.raises(RoundError, match="is void"):
            action()
    assert rnd.settlements == [] and rnd.record()["void_reason"] == "mis-spin"
    assert replay(rnd.record()) == []


# ---------------------------------------------------------------------------
# The table: seats, credit, settings, games
# ---------------------------------------------------------------------------


def test_player_not_seated() -> None:
    table = Table(make_game("roulette", "C"), SeededRng(1))
    table.sit("ann", 1000)
    with pytest.raises(GameError, match="bob is not seated at this table"):
        table.place("bob", "red", 500)
    assert table.balances == {"ann": 1000}
    assert table.round is None or table.round.bets == []


def test_sit_twice_or_with_a_negative_balance() -> None:
    table = Table(make_game("roulette", "C"), SeededRng(1))
    table.sit("ann", 1000)
    with pytest.raises(GameError, match="already at the table"):
        table.sit("ann", 5000)
    with pytest.raises(GameError, match="cannot be negative"):
        table.sit("bob", -1)
    assert table.balances == {"ann": 1000} and table.brought == 1000


def test_chips_are_not_sold_on_credit() -> None:
    table = Table(make_game("roulette", "C"), SeededRng(1))
    table.sit("ann", 1000)
    table.place("ann", "red", 600)
    rnd = table.current()
    before = (dict(table.balances), snapshot(rnd))
    with pytest.raises(RoundError, match=r"ann.* 4\.00;.*not sold on credit"):
        table.place("ann", "black", 401)
    assert (dict(table.balances), snapshot(rnd)) == before
    table.place("ann", "black", 400)
    assert table.balances["ann"] == 0
    with pytest.raises(RoundError, match="not sold on credit"):
        table.place("ann", "odd", 100)


def test_over_the_maximum_needs_only_the_maximum_in_the_wallet() -> None:
    table = Table(make_game("roulette", "C"), SeededRng(1), limits=Limits(100, 1000))
    table.sit("ann", 1200)
    receipt = table.place("ann", "red", 5000)
    assert (receipt.accepted, receipt.returned) == (1000, 4000)
    assert table.balances["ann"] == 200


@pytest.mark.parametrize(
    ("game", "variant", "settings", "pattern"),
    [
        ("roulette", "C", {"zero_rule": "en_prison"}, "roulette C has no setting zero_rule "
         "\\(settings: quarters\\)"),
        ("roulette", "D", {"prison": "yes"}, "has no setting prison"),
        ("boule", None, {"quarters": True}, "boule has no setting quarters \\(settings: none\\)"),
        ("roulette", "D", {"zero_rule": "lose"}, "zero_rule takes one of la_partage, en_prison, "
         "both, not 'lose'"),
        ("roulette", "D", {"zero_rule": True}, "zero_rule takes a word, not True"),
        ("roulette", "C", {"quarters": 1}, "quarters takes true or false, not 1"),
        ("roulette", "C", {"quarters": "maybe"}, "quarters takes true or false, not 'maybe'"),
        ("roulette", "C", {"quarters": ""}, "quarters takes true or false"),
        ("tuplanoppa", None, {"drawing": "robot"}, "drawing takes one of cup, shooter"),
        ("tuplanoppa", None, {"drawing": "Shooter"}, "drawing takes one of"),
    ],
)
def test_make_game_refuses_bad_settings(
    game: str, variant: str | None, settings: dict[str, str | bool], pattern: str
) -> None:
    with pytest.raises(GameError, match=pattern):
        make_game(game, variant, settings)


@pytest.mark.parametrize(
    ("value", "expected"),
    [("true", True), ("Yes", True), (" on ", True), ("1", True), (True, True),
     ("false", False), ("NO", False), ("off", False), ("0", False), (False, False)],
)
def test_boolean_settings_parse(value: str | bool, expected: bool) -> None:
    game = make_game("roulette", "C", {"quarters": value})
    assert game.settings["quarters"] is expected
    assert ("quarter" in game.bet_types()) is expected


@pytest.mark.parametrize(
    ("game", "variant", "pattern"),
    [
        ("pachinko", None, "no game 'pachinko'; games: roulette, boule, money-wheel"),
        ("craps", "A", "no game 'craps'"),
        ("roulette", "J", "roulette has no version 'J'; versions: A to I"),
        ("roulette", "AB", "no version 'AB'"),
        ("roulette", "c ", "no version"),
        ("boule", "A", "boule has one version"),
        ("sic-bo", "C", "sic-bo has one version"),
        ("money-wheel", "B", "has one version"),
    ],
)
def test_make_game_refuses_unknown_games_and_versions(
    game: str, variant: str | None, pattern: str
) -> None:
    with pytest.raises(GameError, match=pattern):
        make_game(game, variant)


def test_make_game_names_are_case_insensitive() -> None:
    assert make_game("ROULETTE", "d").title() == "roulette D"
    assert make_game("roulette").title() == "roulette C"
    assert make_game("Sic-Bo").title() == "sic-bo"


def test_spin_with_no_bets() -> None:
    table = Table(make_game("roulette", "C"), SeededRng(1))
    table.sit("ann", 1000)
    with pytest.raises(RoundError, match="no bets on the table"):
        table.spin()
    assert table.current().status is Status.BETTING


# ---------------------------------------------------------------------------
# Tuplanoppa, drawing method B: the shooter
# ---------------------------------------------------------------------------


def _throwers(table: Table) -> list[str]:
    """Who threw in each recorded round, from the round events."""
    out = []
    for record in table.history:
        names = [e.removesuffix(" throws") for e in record["events"] if e.endswith(" throws")]
        assert len(names) == 1, record["events"]
        out.append(names[0])
    return out


def _shooter_table(rng, seats=("ann", "bob", "cid"), rate=Fraction(0)) -> Table:
    table = Table(make_game("tuplanoppa", None, {"drawing": "shooter"}), rng,
                  invalid_throw_rate=rate)
    for seat in seats:
        table.sit(seat, 1_000_000)
    return table


def test_shooter_rotation_unit() -> None:
    rot = ShooterRotation(["ann", "bob", "cid"])
    everyone = {"ann", "bob", "cid"}
    assert rot.shooter(everyone) == "ann"
    for total in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
        rot.after_throw(total)
        assert rot.shooter(everyone) == "ann"
    rot.after_throw(7)
    assert rot.shooter(everyone) == "bob"
    rot.pass_dice()
    assert rot.shooter(everyone) == "cid"
    rot.after_throw(7)
    assert rot.shooter(everyone) == "ann"  # clockwise, round the table
    assert rot.shooter({"cid"}) == "cid"  # only a player in the round throws
    assert rot.shooter({"bob", "cid"}) == "cid"  # the dice stay with cid now
    with pytest.raises(RoundError, match="nobody in this round may throw"):
        rot.shooter(set())
    with pytest.raises(RoundError, match="nobody"):
        ShooterRotation([]).shooter({"ann"})


def test_shooter_keeps_the_dice_until_a_seven() -> None:
    table = _shooter_table(SeededRng(8))
    seats = ["ann", "bob", "cid"]
    totals = []
    for _ in range(60):
        for seat in seats:
            table.place(seat, "over_7", 100)
        outcome = table.spin()
        totals.append(sum(int(x) for x in outcome))
    throwers = _throwers(table)
    assert 7 in totals and len(set(throwers)) == 3
    for k in range(1, len(throwers)):
        if totals[k - 1] == 7:
            expected = seats[(seats.index(throwers[k - 1]) + 1) % 3]
        else:
            expected = throwers[k - 1]
        assert throwers[k] == expected, (k, totals[k - 1])


def test_shooter_may_pass_and_only_the_holder_can() -> None:
    # die faces are slot + 1: 1+1 = 2 (no seven), so ann keeps the dice
    table = _shooter_table(ScriptedRng([0, 0, 0, 0, 0, 0]))
    table.place("ann", "any_pair", 100)
    table.place("bob", "any_pair", 100)
    table.spin()
    with pytest.raises(RoundError, match="bob does not hold the dice"):
        table.pass_dice("bob")
    table.pass_dice("ann")
    table.place("ann", "any_pair", 100)
    table.place("bob", "any_pair", 100)
    table.spin()
    assert _throwers(table) == ["ann", "bob"]


def test_pass_dice_needs_the_shooter_method() -> None:
    table = Table(make_game("tuplanoppa"), SeededRng(1))
    table.sit("ann", 1000)
    with pytest.raises(GameError, match="drawn by the dealer"):
        table.pass_dice("ann")
    assert table.shooter_rotation is None


def test_only_a_player_in_the_round_throws() -> None:
    table = _shooter_table(ScriptedRng([0, 0] * 3))
    table.place("cid", "sum_2", 100)  # ann holds the dice but has no bet in this round
    table.spin()
    table.place("bob", "sum_2", 100)
    table.place("cid", "sum_2", 100)
    table.spin()
    assert _throwers(table) == ["cid", "cid"]


def test_rejected_throws_are_recorded_and_do_not_settle() -> None:
    # Each throw: die1 slot, die2 slot, then the dealer's check randbelow(2)
    # (0 rejects at rate 1/2) and, for a rejection, the reason randbelow(3).
    script = [2, 3, 0, 1,  # 3+4 = 7 rejected: "the dice landed stacked"
              5, 5, 0, 2,  # 6+6 rejected: "a die landed cocked"
              0, 1, 1]     # 1+2 = 3 accepted
    table = _shooter_table(ScriptedRng(script), seats=("ann", "bob"), rate=Fraction(1, 2))
    table.place("ann", "sum_7", 100)
    table.place("ann", "sum_12", 100)
    table.place("bob", "sum_3", 100)
    outcome = table.spin()
    assert outcome == ("1", "2")
    record = table.history[-1]
    assert record["rejected_draws"] == [
        {"draws": [{"device": "die1", "slot": 2, "face": "3"},
                   {"device": "die2", "slot": 3, "face": "4"}],
         "reason": "the dice landed stacked"},
        {"draws": [{"device": "die1", "slot": 5, "face": "6"},
                   {"device": "die2", "slot": 5, "face": "6"}],
         "reason": "a die landed cocked"},
    ]
    assert record["draws"] == [{"device": "die1", "slot": 0, "face": "1"},
                               {"device": "die2", "slot": 1, "face": "2"}]
    results = {s["spot"]: (s["result"], s["paid"]) for s in record["settlements"]}
    assert results == {"sum_7": ("lose", 0), "sum_12": ("lose", 0), "sum_3": ("win", 1600)}
    assert table.balances == {"ann": 1_000_000 - 200, "bob": 1_000_000 + 1500}
    assert "throw rejected: the dice landed stacked" in record["events"]
    assert [s.to_json() for s in replay(record)] == record["settlements"]
    # a rejected seven does not pass the dice: ann still holds them
    table.pass_dice("ann")
    table.pass_dice("bob")


def test_reject_draw_on_a_round_leaves_it_undrawn() -> None:
    rnd = Round(make_game("tuplanoppa", None, {"drawing": "shooter"}), "r1")
    rnd.place("ann", "under_7", 101)
    rnd.close()
    draws = rnd.game.draws_for(("1", "1"))
    rnd.reject_draw(draws, "a die left the throwing area")
    assert rnd.status is Status.CLOSED and rnd.draws == []
    with pytest.raises(RoundError, match="nothing drawn yet"):
        rnd.settle()
    rnd.apply_draws(rnd.game.draws_for(("3", "4")))
    [settlement] = rnd.settle()
    assert (settlement.paid, settlement.rounding, settlement.result) == (50, Fraction(1, 2),
                                                                         "half")
    assert rnd.record()["rejected_draws"][0]["reason"] == "a die left the throwing area"


def test_the_maximum_holds_for_a_players_whole_stake_on_a_spot() -> None:
    """RAY 1.1: a stake is void beyond the maximum, however it is made up."""
    rnd = roulette_round("C")
    assert rnd.limits is not None
    top = rnd.limits.maximum
    assert rnd.place("ann", "red", top - 100).accepted == top - 100
    receipt = rnd.place("ann", "red", 500)
    assert (receipt.accepted, receipt.returned) == (100, 400)
    before = snapshot(rnd)
    with pytest.raises(RoundError, match="already holds the table maximum"):
        rnd.place("ann", "red", 100)
    assert snapshot(rnd) == before
    assert rnd.place("bob", "red", top).accepted == top  # another player's own limit
    assert rnd.place("ann", "black", top).accepted == top  # another spot


def test_a_small_addition_to_a_bet_is_not_under_the_minimum() -> None:
    rnd = roulette_round("C")
    rnd.place("ann", "17", 100)
    assert rnd.place("ann", "17", 50).accepted == 50
    with pytest.raises(RoundError, match="under the table minimum"):
        rnd.place("bob", "17", 50)


def test_no_void_after_the_result() -> None:
    """A void is declared while the round is in progress, before the result (RAY 1.2.1)."""
    rnd = roulette_round("C")
    rnd.place("ann", "red", 500)
    rnd.close()
    rnd.apply_draws(rnd.game.draws_for(("3",)))
    with pytest.raises(RoundError, match="is drawn; that needs it to be betting or closed"):
        rnd.void("changed my mind")
    assert rnd.status is Status.DRAWN
