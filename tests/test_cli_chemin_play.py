"""``pelisali play chemin-de-fer`` as a user runs it: a quick wallet at a table with Aino
and Bertil on wallets of their own, the bank put up, carried and passed, banco, stakes
and the choice on five at the player's commands, the house's commission in the ledger,
refusals that change nothing, and two registered players at one table of the database
from their own terminals."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from dbfixtures import keep_quick_ends
from sqlalchemy import select
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from pelisali.cli import chemin_play
from pelisali.cli.main import app
from pelisali.cli.quick import BOT_BALANCE, HOUSE_BANK
from pelisali.money import parse_amount
from pelisali.platform.chemin_tables import recall_coup
from pelisali.platform.db import make_engine, transaction
from pelisali.platform.ledger import balance, balances, check, verify_audit
from pelisali.platform.models import BetRow, RoundRow, Transfer
from pelisali.platform.queries import wallet
from pelisali.platform.rounds import reconcile_bets

runner = CliRunner()
PLAYERS = ("you", "Aino", "Bertil")


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None
        ) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=stdin, env=env)
    return result.exit_code, result.output


@dataclass
class QuickEnd:
    wallets: dict[str, int]
    house: int
    escrow: int
    commission: int
    bets: list[tuple[str, str, int, int | None]]  # player, spot, stake, paid
    statuses: list[str]
    whole: bool


@pytest.fixture
def quick_end(monkeypatch: pytest.MonkeyPatch) -> list[QuickEnd]:
    """Read the quick database at the end of each session, before it is deleted."""

    def read(s: Session) -> QuickEnd:
        bets = s.scalars(select(BetRow).order_by(BetRow.id)).all()
        rounds = s.scalars(select(RoundRow).order_by(RoundRow.id)).all()
        commission = sum(t.amount for t in s.scalars(
            select(Transfer).where(Transfer.kind == "commission")))
        return QuickEnd(
            {name: wallet(s, name) for name in PLAYERS}, balance(s, "house:bank"),
            balance(s, "table:chemin-de-fer-terminal"), commission,
            [(b.player, b.spot, b.stake, b.paid) for b in bets],
            [str(r.status) for r in rounds],
            check(s).ok and verify_audit(s).ok and reconcile_bets(s).ok
            and all(recall_coup(s, r.id).same for r in rounds))

    return keep_quick_ends(monkeypatch, chemin_play, read)


def final_balance(out: str) -> int:
    found = re.search(r"Final balance (\S+) € \(started with (\S+) €\)", out)
    assert found, out
    return parse_amount(found[1])


def conserved(end: QuickEnd, start: int) -> None:
    """The players' money and the house's commission add up to what they began with, and
    each player's wallet is what their bets staked and were paid."""
    assert end.whole and end.escrow == 0
    assert sum(end.wallets.values()) + end.house == start + 2 * BOT_BALANCE + HOUSE_BANK
    assert end.house - HOUSE_BANK == end.commission
    for name in PLAYERS:
        mine = [(stake, paid or 0) for who, _spot, stake, paid in end.bets if who == name]
        began = start if name == "you" else BOT_BALANCE
        assert end.wallets[name] == began - sum(s for s, _ in mine) + sum(p for _, p in mine)


def test_a_quick_session_puts_up_the_bank_and_the_bank_wins_less_the_commission(
        quick_end: list[QuickEnd]) -> None:
    code, out = run("play", "chemin-de-fer", "--seed", "4",
                    stdin="help\nbank 20\ntable\nhistory\nrules\n")
    assert code == 0, out
    assert "your move: bank 1.00, bank 1000.00, pass" in out
    assert "Aino bets 1.00 € against the bank" in out
    assert "Bertil bets 1.00 € against the bank" in out
    assert "player: Jd Kd (0)   banker: Ad 8h (9)" in out
    # 20.00 against 2.00 covered: the bank wins 2.00 less 5 %, the uncovered 18.00 back
    assert "your bank: 20.00 € → 21.90 € (win, less the 5 % commission)" in out
    assert "you hold a bank of 21.90 € to carry or pass" in out
    assert "coup 1: your bank 20.00 €, P:Jd B:Ad P:Kd B:8h, banker" in out
    assert "the house takes 5 % of the bank's wins" in out
    [end] = quick_end
    assert end.statuses == ["settled"] and end.commission == 10
    assert end.wallets == {"you": 100_190, "Aino": BOT_BALANCE - 100,
                           "Bertil": BOT_BALANCE - 100}
    conserved(end, 100_000)
    assert final_balance(out) == 100_190


def test_punting_and_the_choice_on_five_with_the_bank_passing_among_the_others(
        quick_end: list[QuickEnd]) -> None:
    lines = ["pass", "bet 9", "stand", "bet 9", "bet 9", "stand", "bet 9", "stand"]
    code, out = run("play", "chemin-de-fer", "--seed", "1", stdin="\n".join(lines))
    assert code == 0, out
    assert "you pass the bank\nAino puts up a bank of 10.00 €" in out
    assert "Aino carries the bank of 19.50 €" in out  # 10 + 9.50 of the 10 it won
    assert "Bertil puts up a bank of 10.00 €" in out  # Aino's bank lost: on to Bertil
    assert "draw and stand are chosen on five" in out and "(nothing changed)" in out
    # the largest stake plays the player's hand: its first cards are the player's to see
    assert "player: Kd 5h (5)   banker: ?? ??\nyour move: draw, stand" in out
    assert "player: Kd 5h (5)   banker: 7d Qh (7)" in out
    [end] = quick_end
    mine = [(spot, stake, paid) for who, spot, stake, paid in end.bets if who == "you"]
    assert mine == [("punt", 900, 0), ("punt", 900, 1_800), ("punt", 900, 0),
                    ("punt", 900, 0)]
    conserved(end, 100_000)
    assert final_balance(out) == end.wallets["you"] == 100_000 - 1_800


@pytest.mark.parametrize(("line", "said"), [
    ("bet 5", "no coup is in play: your move: bank 1.00, bank 1000.00, pass"),
    ("bank 0.5", "a bank is 1.00 to 1000.00"),
    ("bank 2000", "a bank is 1.00 to 1000.00"),
    ("bank 50", "player:you holds 10.00, not 50.00: no credit"),
    ("bank", "usage: bank AMOUNT"),
    ("bank five", "five"),
    ("carry", "there is no bank to carry"),
    ("draw", "no coup is in play"),
    ("banco now", "usage: banco"),
    ("hit", "unknown command 'hit'"),
])
def test_refusals_at_the_terminal_change_nothing(quick_end: list[QuickEnd], line: str,
                                                 said: str) -> None:
    code, out = run("play", "chemin-de-fer", "--balance", "10", stdin=line)
    assert code == 0, out
    assert said in out and "(nothing changed)" in out
    [end] = quick_end
    assert end.bets == [] and end.wallets["you"] == 1_000 == final_balance(out)


def test_a_coup_left_in_play_is_completed_by_the_rule_data_at_the_end(
        quick_end: list[QuickEnd]) -> None:
    code, out = run("play", "chemin-de-fer", "--seed", "1", stdin="pass\n")
    assert code == 0, out
    assert "coup 1 was in play: settled, the house decided you pass" in out
    [end] = quick_end
    assert end.statuses == ["settled"]
    conserved(end, 100_000)


def test_settings_other_than_the_shoe_are_refused() -> None:
    code, out = run("play", "chemin-de-fer", "--set", "commission=4")
    assert code == 2 and "decks=6 or 8" in out
    code, out = run("play", "chemin-de-fer", "--set", "decks=7", stdin="")
    assert code == 2 and "6 or 8 decks, not 7" in out


def test_two_registered_players_at_one_table_from_their_own_terminals(tmp_path: Path
                                                                      ) -> None:
    env = {"PELISALI_DATABASE_URL": f"sqlite:///{tmp_path}/casino.db"}
    commands: list[list[str]] = [["db", "upgrade"]]
    for name in ("ann", "bob"):
        commands += [["account", "create", name, "--born", "1990-01-01", "--country", "FI"],
                     ["wallet", "deposit", name, "50"]]
    for command in commands:
        code, out = run(*command, env=env)
        assert code == 0, (command, out)
    code, out = run("play", "chemin-de-fer", "--account", "ann", "--table", "cf",
                    stdin="bank 10\n", env=env)
    assert code == 0, out
    assert "the bank waits for a second player" in out
    assert "a coup needs the banker and at least one punter (nothing changed)" in out
    code, out = run("play", "chemin-de-fer", "--account", "bob", "--table", "cf",
                    stdin="table\n", env=env)
    assert code == 0 and "ann holds the bank to put up or pass\nwaiting for ann" in out
    code, out = run("play", "chemin-de-fer", "--account", "ann", "--table", "cf",
                    "--seed", "2", stdin="bank 10\n", env=env)
    assert code == 0, out
    assert "coup 1: ann holds a bank of 10.00 €; against it: nothing yet\nwaiting for bob" \
        in out
    code, out = run("play", "chemin-de-fer", "--account", "bob", "--table", "cf",
                    "--seed", "3", stdin="banco\n", env=env)
    assert code == 0, out
    assert "your move: banco, bet 1.00, bet 10.00, pass" in out
    found = re.search(r"your banco: 10\.00 € → (\S+) €", out)
    assert found and found[1] in ("0.00", "10.00", "20.00"), out
    db = make_engine(env["PELISALI_DATABASE_URL"])
    with transaction(db) as s:
        ann, bob = wallet(s, "ann"), wallet(s, "bob")
        house = balances(s).get("house:bank", 0)
        assert check(s).ok and verify_audit(s).ok and recall_coup(s, 1).same
    db.dispose()
    assert ann + bob + house == 10_000  # the commission, if the bank won, is the house's
    assert bob == 5_000 - 1_000 + parse_amount(found[1])
