"""Chemin de fer's engine (one coup of the contract): the bank put up or carried, banco
and the punters' stakes against it in turn, the part nobody covered given back, the
player's choice on five asked of the largest stake and the banker's in his option
cells, every other draw by the règle, ties void, even money either way with the
house's 5 % commission on the bank's wins to the cent, the face-down cards, refusals,
the bank passing on, and the engine walked over every deal to the exact odds of
:mod:`pelisali.games.chemin_de_fer`."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import pytest

from pelisali.engine import GAMES, IllegalMove, Seats
from pelisali.engine.chemin_de_fer import CheminEngine, CheminState, next_bank
from pelisali.games import chemin_de_fer as cdf
from pelisali.games.punto_banco import card_points, points

ENGINE = CheminEngine()


def coup(moves: list[str], seats: int = 3, banker: int = 0, bank: int = 0) -> CheminState:
    state = ENGINE.new_coup(Seats(seats), banker=banker, bank=bank)
    for move in moves:
        state = state.apply(move).state
    return state


def paid(state: CheminState) -> list[tuple[int, str, int, int]]:
    return [(s.seat, s.spot, s.stake, s.paid) for s in state.settlements]


def test_the_rule_data_is_marked_standard_and_the_engine_is_registered() -> None:
    assert GAMES["chemin-de-fer"].title() == "Baccara, chemin de fer"
    assert "not in the rulebook as extracted" in ENGINE.rules.standard
    assert ENGINE.rules.limits == (100, 100_000) and "RAY 2016 1.1" in \
        ENGINE.rules.sections["limits"]


def test_banco_against_the_whole_bank_won_by_the_player_s_hand() -> None:
    # player 9h Kc: a natural 9 against banker 2d 5s (7), shown at once
    state = coup(["bank 5000", "banco", "9h", "2d", "Kc", "5s"])
    assert state.is_terminal() and state.result() == "player"
    assert paid(state) == [(0, "bank", 5000, 0), (1, "banco", 5000, 10_000)]
    assert state.returns() == (-5000, 5000, 0) and state.accounts()["house"] == 0
    assert next_bank(state) == (1, 0)  # the bank passes to the next seat in turn


def test_the_bank_s_win_pays_the_commission_to_the_cent() -> None:
    # player 2h 3c (5) stands by choice; banker 4d 3s (7) stands
    state = coup(["bank 1001", "banco", "2h", "4d", "3c", "3s", "stand"], seats=2)
    settled = {s.spot: s for s in state.settlements}
    assert settled["bank"].paid == 1001 + 950 and settled["bank"].rounding == Fraction(95, 100)
    assert state.returns() == (950, -1001) and state.accounts()["house"] == 51
    assert next_bank(state) == (0, 1951) and next_bank(state, passes=True) == (1, 0)


def test_punters_in_turn_cover_parts_and_the_rest_goes_back_to_the_banker() -> None:
    # seats 1 and 2 cover 3,000 of a 10,000 bank; player Ks 7d (7) v banker 8c Th: natural 8
    asked = coup(["bank 10000", "bet 1000", "bet 2000"], seats=4)
    assert asked.to_move() == 3 and asked.bank - asked.covered == 7000
    state = asked
    for move in ["pass", "Ks", "8c", "7d", "Th"]:
        state = state.apply(move).state
    assert state.to_move() is None and state.covered == 3000
    assert paid(state) == [(0, "bank", 10_000, 10_000 + 2850), (1, "punt", 1000, 0),
                           (2, "punt", 2000, 0)]
    assert state.returns() == (2850, -1000, -2000, 0)


def test_betting_ends_when_the_bank_is_covered_and_a_tie_is_void() -> None:
    state = coup(["bank 3000", "bet 3000"], seats=4)
    assert state.is_chance()  # covered: seats 2 and 3 are not asked
    for card in ["4h", "4d", "3c", "3s"]:  # 7 against 7: both stand
        state = state.apply(card).state
    assert state.result() == "tie"
    assert paid(state) == [(0, "bank", 3000, 3000), (1, "punt", 3000, 3000)]
    assert next_bank(state) == (0, 3000)


def test_a_coup_nobody_bets_against_is_not_dealt() -> None:
    state = coup(["bank 2000", "pass", "pass"])
    assert state.is_terminal() and state.cards == () and state.result() is None
    assert state.returns() == (0, 0, 0) and next_bank(state) == (0, 2000)


def test_the_player_s_choice_on_five_is_the_largest_stake_s() -> None:
    state = coup(["bank 9000", "bet 2000", "bet 5000", "2h", "Kd", "3c", "Ks"])
    assert state.player_seat() == 2 and state.to_move() == 2  # player 5, banker 0
    assert [a.text() for a in state.legal_actions()] == ["draw", "stand"]
    with pytest.raises(IllegalMove, match="not seat 1's turn"):
        state.apply("draw", seat=1)
    drawn = state.apply("draw").state
    assert drawn.is_chance() and drawn.player_choice == "draw"
    stood = state.apply("stand").state
    assert stood.is_chance()  # the banker's 0 draws when the player stood


@pytest.mark.parametrize(("banker", "third"), [(("2d", "Ac"), "9h"), (("2d", "3c"), "4h")])
def test_the_banker_chooses_in_his_option_cells(banker: tuple[str, str], third: str) -> None:
    # player Kh Qc (0) draws; the banker's 3 against a 9, or 5 against a 4
    state = coup(["bank 5000", "banco", "Kh", banker[0], "Qc", banker[1], third], seats=2)
    assert state.to_move() == 0 and [a.text() for a in state.legal_actions()] == [
        "draw", "stand"]
    assert state.apply("stand").state.is_terminal()
    assert state.apply("draw").state.is_chance()


def test_outside_the_cells_the_tableau_draws_for_both() -> None:
    # player 4 draws, a 2; banker 4 against a 2 draws (no choice)
    state = coup(["bank 5000", "banco", "Ah", "2d", "3c", "2c", "2h"], seats=2)
    assert state.is_chance() and state._next() == "card"
    done = state.apply("9s").state
    assert done.is_terminal() and [c for side, c in done.cards if side == "banker"] == [
        "2d", "2c", "9s"]


def test_each_hand_s_first_cards_are_seen_by_its_holder_alone() -> None:
    state = coup(["bank 5000", "banco", "2h", "4d", "3c", "3s"], seats=3)
    assert state.to_move() == 1  # the player's hand on five
    assert state.view(1)["cards"] == [["player", "2h"], ["banker", None],
                                      ["player", "3c"], ["banker", None]]
    assert state.view(0)["cards"] == [["player", None], ["banker", "4d"],
                                      ["player", None], ["banker", "3s"]]
    assert all(card is None for _, card in state.view(2)["cards"])
    assert state.hidden_from(2) == {"2h", "4d", "3c", "3s"}
    over = state.apply("stand").state
    assert over.is_terminal() and over.hidden_from(2) == frozenset()
    assert over.view(2)["player_points"] == 5 and over.view(2)["banker_points"] == 7


def test_refusals_change_nothing() -> None:
    start = coup([])
    with pytest.raises(IllegalMove, match=r"a bank is 1\.00 to 1000\.00"):
        start.apply("bank 50")
    with pytest.raises(IllegalMove, match="the punters bet once the bank is up"):
        start.apply("banco")
    up = coup(["bank 5000"])
    with pytest.raises(IllegalMove, match="before the punters bet, once"):
        up.apply("bank 5000")
    with pytest.raises(IllegalMove, match=r"1\.00 to the 50\.00 left uncovered"):
        up.apply("bet 6000")
    with pytest.raises(IllegalMove, match="draw and stand are chosen on five"):
        up.apply("draw")
    part = up.apply("bet 1000").state
    with pytest.raises(IllegalMove, match="banco is called against the whole bank"):
        part.apply("banco")
    assert [a.text() for a in part.legal_actions()] == ["bet 100", "bet 4000", "pass"]
    with pytest.raises(IllegalMove, match="is not an action here"):
        part.parse_action("bet")
    with pytest.raises(IllegalMove, match="the banker is one of the seats 0-2"):
        ENGINE.new_coup(Seats(3), banker=3)
    with pytest.raises(IllegalMove, match="seats 2 to 12"):
        ENGINE.new_coup(Seats(1))
    with pytest.raises(IllegalMove, match="6 or 8 decks, not 4"):
        CheminEngine.from_settings({"decks": "4"})
    assert up.bank == 5000 and up.covered == 0 and up.to_move() == 1


def test_a_carried_bank_skips_putting_it_up() -> None:
    state = ENGINE.new_coup(Seats(3), banker=2, bank=1951)
    assert state.to_move() == 0 and state.punters() == [0, 1]
    assert [a.text() for a in state.legal_actions()][:1] == ["banco"]


def test_the_engine_walked_over_every_deal_gives_the_exact_odds() -> None:
    """Every deal from the full shoe, the chance outcomes grouped by card value (the
    règle reads values only), the rule data's choices (draw on five, the banker draws in
    both cells): the chances of :func:`cdf.outcome` exactly, and the bank's expectation
    after the commission, from the engine's own returns, that of :func:`cdf.exact`."""
    tally: dict[str | None, Fraction] = defaultdict(Fraction)
    bank_return = Fraction(0)

    def walk(state: CheminState, chance: Fraction) -> None:
        nonlocal bank_return
        if state.is_terminal():
            tally[state.result()] += chance
            bank_return += chance * state.returns()[0]
            return
        if not state.is_chance():
            choice = ENGINE.rules.player_choice if state._next() == "player" else \
                ENGINE.rules.options[(points(state.hand("banker")),
                                      card_points(state.cards[-1][1]))]
            walk(state.apply(choice).state, chance)
            return
        outcomes, weights, total = state.chance_weights()
        by_value: dict[int, list] = {}
        for outcome, weight in zip(outcomes, weights, strict=True):
            found = by_value.setdefault(card_points(outcome.label), [outcome, 0])
            found[1] += weight
        for outcome, weight in by_value.values():
            walk(state.apply(outcome).state, chance * Fraction(weight, total))

    walk(coup(["bank 1000", "banco"], seats=2), Fraction(1))
    expected = cdf.outcome(ENGINE.rules.player_choice, ENGINE.rules.options)
    assert (tally["banker"], tally["player"], tally["tie"]) == (
        expected.banker, expected.player, expected.tie)
    assert bank_return / 1000 == cdf.exact().banker_value


def test_the_simulation_plays_the_rule_datas_choices_and_agrees_with_the_exact_odds() -> None:
    """Coups through the engine by the rule data's choices (banco, draw on five, draw in
    both option cells): the punter's and the bank's observed returns within their 99 %
    intervals around the exact figures (the bank's after its 5 % commission)."""
    from pelisali.analysis.banked_simulate import simulate_chemin

    result = simulate_chemin(5_000, seed=3)
    punter, bank = result.rows
    assert punter.agrees and bank.agrees
    assert float(punter.exact_rtp) == pytest.approx(1 - 0.012374, abs=1e-6)
    assert float(bank.exact_rtp) == pytest.approx(1 - 0.010558, abs=1e-6)
    assert result == simulate_chemin(5_000, seed=3)  # the seed replays the coups


def test_simulate_chemin_de_fer_from_the_command_line() -> None:
    from typer.testing import CliRunner

    from pelisali.cli.main import app

    out = CliRunner().invoke(app, ["simulate", "chemin-de-fer", "--rounds", "300",
                                   "--seed", "2", "--set", "decks=8", "--json"])
    assert out.exit_code == 0, out.output
    assert '"game": "chemin-de-fer"' in out.output and '"decks": "8"' in out.output
    bad = CliRunner().invoke(app, ["simulate", "chemin-de-fer", "--rounds", "10",
                                   "--seed", "1", "--set", "decks=7"])
    assert bad.exit_code != 0 and "6 or 8 decks, not 7" in bad.output
