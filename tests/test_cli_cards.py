"""The card-game commands as a user runs them."""

import json
import re
from dataclasses import dataclass

import pytest
from dbfixtures import keep_quick_ends
from sqlalchemy import select
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from pelisali.cli import cards
from pelisali.cli.main import app
from pelisali.money import parse_amount
from pelisali.platform import card_rounds
from pelisali.platform.ledger import check
from pelisali.platform.models import BetRow, RoundRow
from pelisali.platform.queries import wallet
from pelisali.platform.rounds import TableError, reconcile_bets

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
    assert "round 1:" in out


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


def test_play_blackjack_with_ray_s_rule_set_says_what_it_is() -> None:
    code, out = run("play", "blackjack", "--seed", "3", "--set", "rule_set=ray",
                    stdin="quit")
    assert code == 0, out
    shown = " ".join(out.split())
    assert "Blackjack (RAY): standard hall rules; RAY's text for this game is not in the " \
           "rulebook as extracted" in shown
    assert "6 decks" in shown
    code, out = run("play", "blackjack", "--seed", "3", stdin="quit")
    assert code == 0 and "RAY" not in out


def test_simulate_baccarat_is_reproducible() -> None:
    args = ("simulate", "baccarat", "--rounds", "10000", "--seed", "4", "--workers", "1",
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


# -- quick mode: the platform wallet on a temporary database --------------------------------
@dataclass(frozen=True)
class QuickEnd:
    """What the quick database held when the session ended."""

    wallet: int
    bets: list[tuple[str, int, int | None]]  # spot, stake, paid
    statuses: list[str]
    ledger_ok: bool
    bets_ok: bool


@pytest.fixture
def quick_end(monkeypatch: pytest.MonkeyPatch) -> list[QuickEnd]:
    """Read the quick database at the end of each session, before it is deleted."""

    def read(s: Session) -> QuickEnd:
        bets = s.scalars(select(BetRow).where(BetRow.player == "you")
                         .order_by(BetRow.id)).all()
        return QuickEnd(
            wallet(s, "you"), [(b.spot, b.stake, b.paid) for b in bets],
            [r.status for r in s.scalars(select(RoundRow).order_by(RoundRow.id))],
            check(s).ok, reconcile_bets(s).ok)

    return keep_quick_ends(monkeypatch, cards, read)


def final_balance(out: str) -> int:
    found = re.search(r"Final balance (\S+) € \(started with (\S+) €\)", out)
    assert found, out
    return parse_amount(found[1])


def test_quick_baccarat_settles_every_coup_in_the_ledger(quick_end: list[QuickEnd]) -> None:
    lines = []
    for spots in (["banker"], ["player", "tie"], ["banker", "tie"]) * 8:
        lines += [f"bet {spot} {5 + i}" for i, spot in enumerate(spots)] + ["deal"]
    code, out = run("play", "baccarat", "--seed", "5", "--balance", "200",
                    stdin="\n".join([*lines, "history"]))
    assert code == 0, out
    [end] = quick_end
    assert end.statuses == ["settled"] * 24
    assert end.ledger_ok and end.bets_ok
    staked = sum(stake for _, stake, _ in end.bets)
    paid = sum(p or 0 for _, _, p in end.bets)
    assert staked == (24 * 5 + 16 * 6) * 100
    assert end.wallet == 20_000 - staked + paid == final_balance(out)
    assert "round 24: P:" in out and "round 14:" not in out.split("> history")[1]


def test_remove_gives_the_stake_back(quick_end: list[QuickEnd]) -> None:
    code, out = run("play", "baccarat", "--seed", "2", stdin="bet banker 10\nbet tie 5\n"
                    "remove 1\nremove 1\nbets\ndeal\n")
    assert code == 0, out
    assert "10.00 € returned. Balance 995.00 €" in out
    assert "no bet 1 is down (nothing changed)" in out
    assert "bet 2: 5.00 € on tie" in out
    [end] = quick_end
    assert [(spot, stake) for spot, stake, _ in end.bets] == [("tie", 500)]
    assert end.wallet == 100_000 - 500 + (end.bets[0][2] or 0) == final_balance(out)


def test_a_refused_bet_changes_nothing(quick_end: list[QuickEnd]) -> None:
    code, out = run("play", "baccarat", "--balance", "20", "--seed", "1",
                    stdin="bet banker 10\nbet player 15\nbalance\nbet player 10\ndeal\n")
    assert code == 0, out
    assert "you: balance 10.00; chips are not sold on credit (nothing changed)" in out
    assert "Balance 10.00 € (10.00 € down for the next deal)" in out
    [end] = quick_end
    assert [(spot, stake) for spot, stake, _ in end.bets] == [("banker", 1000),
                                                               ("player", 1000)]
    assert end.ledger_ok and end.wallet == sum(p or 0 for _, _, p in end.bets)


def test_a_refused_deal_places_no_bet(quick_end: list[QuickEnd],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    def jammed(*args: object, **kwargs: object) -> None:
        raise TableError("the shoe is jammed")

    monkeypatch.setattr(card_rounds, "deal_coup", jammed)  # the deal platform.tables calls
    code, out = run("play", "baccarat", stdin="bet banker 10\ndeal\nbets\n")
    assert code == 0, out
    assert "the shoe is jammed (nothing changed)" in out
    assert "bet 1: 10.00 € on banker" in out.split("> bets")[1]
    [end] = quick_end
    assert end.bets == [] and end.wallet == 100_000 == final_balance(out)


def test_quick_blackjack_plays_rounds_to_the_end(quick_end: list[QuickEnd]) -> None:
    lines = []
    for _ in range(15):
        lines += ["bet 1 10", "bet 4 10", "deal", "no", "no", *["stand"] * 4]
    code, out = run("play", "blackjack", "--seed", "7", stdin="\n".join(lines))
    assert code == 0, out
    [end] = quick_end
    assert end.statuses == ["settled"] * 15
    assert end.ledger_ok and end.bets_ok
    assert sorted({spot for spot, _, _ in end.bets}) == ["seat 1", "seat 4"]
    staked = sum(stake for _, stake, _ in end.bets)
    assert staked == 15 * 2 * 1000  # standing never adds a stake
    assert end.wallet == 100_000 - staked + sum(p or 0 for _, _, p in end.bets)
    assert end.wallet == final_balance(out)
    assert out.count("Place bets for the next round.") == 15


def test_quick_blackjack_completes_a_round_left_in_play(quick_end: list[QuickEnd]) -> None:
    for seed in range(40):  # a seed whose round waits for a decision
        code, out = run("play", "blackjack", "--seed", str(seed), stdin="bet 2 10\ndeal\n")
        assert code == 0, out
        if "Choose:" in out:
            break
    assert "the house completes it" in out
    end = quick_end[-1]
    assert end.statuses == ["settled"] and end.ledger_ok
    assert end.wallet == 100_000 - 1000 + (end.bets[0][2] or 0) == final_balance(out)
