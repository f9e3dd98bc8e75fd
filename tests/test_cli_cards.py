"""The card-game commands as a user runs them."""

import json

from typer.testing import CliRunner

from pelisali.cli.main import app

runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.output


def test_odds_baccarat_full_shoe_json() -> None:
    code, out = run("odds", "baccarat", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["cards"] == 416
    bets = {b["bet"]: b for b in data["bets"]}
    # Published 8-deck house edges: banker 1.0579 %, player 1.2351 %, tie 14.3596 %.
    assert round(bets["banker"]["house_edge"] * 100, 4) == 1.0579
    assert round(bets["player"]["house_edge"] * 100, 4) == 1.2351
    assert round(bets["tie"]["house_edge"] * 100, 4) == 14.3596


def test_odds_baccarat_decks_and_a_partly_dealt_shoe() -> None:
    code, six = run("odds", "baccarat", "--decks", "6", "--json")
    assert code == 0 and json.loads(six)["cards"] == 312
    code, out = run("odds", "punto-banco", "--remaining",
                    "A=24,2=24,3=24,4=24,5=24,6=24,7=24,8=10,9=10,T=24,J=24,Q=24,K=24", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["cards"] == 24 * 11 + 20
    assert data["composition"]["8"] == 10 and data["composition"]["0"] == 96


def test_odds_baccarat_bad_composition() -> None:
    code, out = run("odds", "baccarat", "--remaining", "A=4,2=x")
    assert code == 2 and "whole number" in out
    code, out = run("odds", "baccarat", "--remaining", "1,2,3")
    assert code == 2 and "ten counts" in out
    code, out = run("odds", "roulette", "--remaining", "1,2,3")
    assert code == 2 and "for baccarat" in out


def test_play_baccarat() -> None:
    script = "\n".join(["bet banker 10", "bet tie 5", "bet dragon 5", "bet player -1", "deal",
                        "history", "quit"])
    code, out = run("play", "baccarat", "--seed", "3", stdin=script)
    assert code == 0, out
    assert "punto banco has no bet 'dragon'" in out
    assert "not an amount of money" in out
    assert "banker:" in out and "tie:" in out
    assert "PB1-1:" in out


def test_play_blackjack_offers_only_legal_decisions() -> None:
    lines = []
    for _ in range(12):
        lines += ["bet 1 10", "bet 3 10", "deal", "no", "no", "split", "double", "stand",
                  "stand", "stand", "stand", "stand"]
    code, out = run("play", "blackjack", "--seed", "11", stdin="\n".join([*lines, "quit"]))
    assert code == 0, out
    assert "Seat 1:" in out and "Dealer:" in out
    assert "Choose: hit, stand" in out
    assert "is not allowed now; choose" in out  # e.g. a split without a pair
    assert "Balance" in out


def test_simulate_baccarat_is_reproducible() -> None:
    args = ("simulate", "baccarat", "--rounds", "30000", "--seed", "4", "--workers", "1",
            "--json")
    code1, out1 = run(*args)
    code2, out2 = run(*args)
    assert code1 == code2 == 0, out1
    assert out1 == out2
    rows = {r["bet"]: r for r in json.loads(out1)["bets"]}
    assert set(rows) == {"player", "banker", "tie"}
    assert not any(r["disagrees"] for r in rows.values())


def test_shoe_settings_that_do_not_fit_are_refused() -> None:
    code, out = run("play", "baccarat", "--set", "decks=1", "--set", "cut_cards_from_back=100")
    assert code == 2 and "too few cards" in out
    code, out = run("simulate", "baccarat", "--rounds", "10", "--seed", "1", "--set", "decks=1",
                    "--set", "cut_cards_from_back=100")
    assert code == 2 and "too few cards" in out
    code, out = run("play", "blackjack", "--set", "decks=2", "--set", "cut_decks_from_back=2")
    assert code == 2 and "under the 2 decks" in out


def test_small_blackjack_shoes_are_cut_at_half() -> None:
    from pelisali.games.blackjack import BlackjackTable, Phase
    from pelisali.games.blackjack_rules import BlackjackConfig
    from pelisali.rng import SeededRng

    for decks, most_shuffles in (("1", 15), ("2", 8), ("8", 3)):
        table = BlackjackTable(SeededRng(1), BlackjackConfig.from_settings({"decks": decks}))
        assert table.shoe.cut_from_back == 26 * int(decks)
        table.sit("a", 10**7)
        for _ in range(50):
            table.place("a", 1, 1000)
            table.deal()
            while table.phase is Phase.INSURANCE:
                table.insure(1, 0)
            while table.phase is Phase.PLAYING:
                table.act("stand")
            table.next_round()
        assert len(table.shuffle_log) <= most_shuffles  # not a shuffle every hand


def test_odds_blackjack_takes_decks() -> None:
    code, out = run("odds", "blackjack", "--decks", "6", "--json")
    assert code == 0 and json.loads(out)["settings"]["decks"] == "6"
    code, out = run("odds", "blackjack", "--remaining", "1,2")
    assert code == 2 and "for baccarat" in out
