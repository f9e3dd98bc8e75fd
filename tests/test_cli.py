"""The pelisali command as a user runs it."""

import json
from fractions import Fraction

from typer.testing import CliRunner

from pelisali.cli.main import app

runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.output


def test_games_lists_every_version_with_its_section() -> None:
    code, out = run("games", "--json")
    assert code == 0
    rows = json.loads(out)
    pairs = {(r["game"], r["variant"]) for r in rows}
    assert {("roulette", v) for v in "ABCDEFGHI"} <= pairs
    assert {("boule", ""), ("money-wheel", ""), ("tuplanoppa", ""), ("sic-bo", "")} <= pairs
    assert all(r["section"].startswith(("RAY 2016 1.", "GGPoker live casino")) for r in rows)
    assert {("blackjack", ""), ("punto-banco", "")} <= pairs


def test_odds_json_shape() -> None:
    code, out = run("odds", "roulette", "--variant", "D", "--set", "zero_rule=la_partage",
                    "--set", "quarters=true", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["game"] == "roulette" and data["variant"] == "D"
    assert data["settings"]["zero_rule"] == "la_partage"
    bets = {b["bet"]: b for b in data["bets"]}
    assert list(bets) == ["straight", "split", "street", "corner", "sixline", "dozen", "column",
                          "red", "black", "even", "odd", "low", "high", "quarter"]
    assert bets["straight"]["payout"] == "35:1"
    assert bets["straight"]["rtp"] == "36/37"
    assert bets["red"]["rtp"] == "73/74"
    assert abs(bets["red"]["house_edge"] - 1 / 74) < 1e-15
    for bet in bets.values():
        assert Fraction(bet["rtp"]) == 1 - Fraction(bet["house_edge"]).limit_denominator(10**6)


def test_odds_bet_names_per_game() -> None:
    expected = {
        "boule": ["straight", "red", "black", "low", "high", "even", "odd"],
        "money-wheel": ["1", "2", "5", "10", "20", "joker", "logo"],
        "tuplanoppa": [f"sum_{n}" for n in range(2, 13)] + ["any_pair", "under_7", "over_7"],
        "sic-bo": ["small", "big", "single", "two_dice", "double", "any_triple",
                   "specific_triple"] + [f"total_{n}" for n in range(4, 18)],
    }
    for game, names in expected.items():
        code, out = run("odds", game, "--json")
        assert code == 0, out
        assert [b["bet"] for b in json.loads(out)["bets"]] == names
    code, out = run("odds", "roulette", "--variant", "E", "--json")
    assert "first_five" in [b["bet"] for b in json.loads(out)["bets"]]


def test_bad_arguments_exit_2_with_a_clear_message() -> None:
    code, out = run("odds", "roulette", "--variant", "Z")
    assert code == 2 and "no version 'Z'" in out
    code, out = run("odds", "craps")
    assert code == 2 and "no game 'craps'" in out
    code, out = run("odds", "roulette", "--variant", "G", "--set", "quarters=true")
    assert code == 2 and "no setting quarters" in out
    code, out = run("odds", "roulette", "--set", "zero_rule")
    assert code == 2 and "KEY=VALUE" in out
    code, out = run("simulate", "boule", "--rounds", "0", "--seed", "1")
    assert code == 2 and "positive" in out


def test_simulate_is_reproducible() -> None:
    args = ("simulate", "tuplanoppa", "--rounds", "300000", "--seed", "5", "--workers", "1",
            "--json")
    code1, out1 = run(*args)
    code2, out2 = run(*args)
    assert code1 == code2 == 0
    assert out1 == out2
    data = json.loads(out1)
    assert data["rounds"] == 300000 and len(data["bets"]) == 14
    assert all(row["agrees"] for row in data["bets"])


def test_play_a_session_at_the_terminal() -> None:
    script = "\n".join([
        "bet red 5", "bet nowhere 5", "bet red -1", "bet black 0.10", "bets", "spin",
        "balance", "history", "quit",
    ])
    code, out = run("play", "roulette", "--variant", "C", "--seed", "3", "--balance", "100",
                    stdin=script)
    assert code == 0, out
    assert "bet 1: 5.00 on red" in out
    assert "no betting spot 'nowhere'" in out
    assert "not an amount of money" in out
    assert "under the table minimum" in out
    assert "Result:" in out
    assert "Final balance" in out


def test_play_roulette_d_asks_for_the_choice_on_zero() -> None:
    # Play red until a zero comes (seed 1: within 80 spins); take half back (RULINGS:
    # both rules in use).
    lines = []
    for _ in range(80):
        lines += ["bet red 4", "spin", "choose 1 half"]
    code, out = run("play", "roulette", "--variant", "D", "--seed", "1", "--balance", "10000",
                    stdin="\n".join(lines))
    assert code == 0
    assert "zero — choose prison or half" in out
    assert "red: half, stake 4.00 €, paid 2.00 €" in out


def test_play_tuplanoppa_shooter() -> None:
    lines = ["pass"] + ["bet under_7 1.01", "roll"] * 80 + ["quit"]
    code, out = run("play", "tuplanoppa", "--set", "drawing=shooter", "--seed", "2",
                    stdin="\n".join(lines))
    assert code == 0, out
    # You pass; Aino keeps the dice until a seven; then Bertil, then you.
    assert "You pass the dice to the next player." in out
    first_seven = out.index("A seven: the dice pass to the next player.")
    assert "Aino holds the dice and throws." in out[:first_seven]
    assert "Bertil holds the dice" not in out[:first_seven]
    assert "You hold the dice" not in out[:first_seven]
    assert "Bertil holds the dice and throws." in out[first_seven:]
    assert "thrown again" in out  # the dealer rejected at least one throw in 80
