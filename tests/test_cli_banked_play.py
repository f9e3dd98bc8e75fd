"""``pelisali play three-card-poker``, ``red-dog``, ``ultimate-texas-holdem``,
``texas-holdem-bonus``, ``oasis-stud``, ``pai-gow-poker`` and ``russian-poker`` as a user
runs them: a quick wallet whose ledger holds every round, the house's decision for a round
left waiting, refusals that change nothing, and a registered player's round that waits on
their account for their return."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from dbfixtures import keep_quick_ends
from sqlalchemy import select
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from pelisali.cli import banked_play
from pelisali.cli.main import app
from pelisali.money import parse_amount
from pelisali.platform.ledger import check
from pelisali.platform.models import BetRow, RoundRow
from pelisali.platform.queries import wallet
from pelisali.platform.rounds import reconcile_bets

runner = CliRunner()


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None
        ) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=stdin, env=env)
    return result.exit_code, result.output


@dataclass
class QuickEnd:
    wallet: int
    bets: list[tuple[str, int, int | None]]  # spot, stake, paid
    statuses: list[str]
    whole: bool


@pytest.fixture
def quick_end(monkeypatch: pytest.MonkeyPatch) -> list[QuickEnd]:
    """Read the quick database at the end of each session, before it is deleted."""

    def read(s: Session) -> QuickEnd:
        bets = s.scalars(select(BetRow).where(BetRow.player == "you")
                         .order_by(BetRow.id)).all()
        return QuickEnd(
            wallet(s, "you"), [(b.spot, b.stake, b.paid) for b in bets],
            [str(r.status) for r in s.scalars(select(RoundRow).order_by(RoundRow.id))],
            check(s).ok and reconcile_bets(s).ok)

    return keep_quick_ends(monkeypatch, banked_play, read)


def final_balance(out: str) -> int:
    found = re.search(r"Final balance (\S+) € \(started with (\S+) €\)", out)
    assert found, out
    return parse_amount(found[1])


def test_three_card_poker_at_the_terminal_keeps_every_round_in_the_ledger(
        quick_end: list[QuickEnd]) -> None:
    lines = ["deal 5 2", "play", "deal 5", "fold", "deal 0 3", "deal 10 1", "play",
             "deal 4"]  # the last left waiting: the house folds it
    code, out = run("play", "three-card-poker", "--seed", "3", "--balance", "200",
                    stdin="\n".join(lines))
    assert code == 0, out
    [end] = quick_end
    assert end.whole and end.statuses == ["settled"] * 5
    spots = [(spot, stake) for spot, stake, _ in end.bets]
    assert sorted(spots) == sorted([("ante", 500), ("pair-plus", 200), ("play", 500),
                                    ("ante", 500), ("pair-plus", 300), ("ante", 1_000),
                                    ("pair-plus", 100), ("play", 1_000), ("ante", 400)])
    staked = sum(stake for _, stake in spots)
    paid = sum(p or 0 for _, _, p in end.bets)
    assert end.wallet == 20_000 - staked + paid == final_balance(out)
    assert "round 5 was waiting: the house decides fold" in out
    assert "Decide: play, fold" in out and "Dealer:" in out


def test_red_dog_at_the_terminal_raises_up_to_the_ante(quick_end: list[QuickEnd]) -> None:
    lines = [f"deal 5\nraise {r}" for r in ("6", "5", "0.01", "2.50")] + ["stand"] * 4
    code, out = run("play", "red-dog", "--seed", "4", stdin="\n".join(lines))
    assert code == 0, out
    [end] = quick_end
    assert end.whole
    assert "a raise is 0.01 to the ante (5.00), not 6.00 (nothing changed)" in out
    raises = sorted(stake for spot, stake, _ in end.bets if spot == "raise")
    assert set(raises) <= {500, 1, 250} and raises
    staked = sum(stake for _, stake, _ in end.bets)
    paid = sum(p or 0 for _, _, p in end.bets)
    assert end.wallet == 100_000 - staked + paid == final_balance(out)
    assert "Decide: raise 0.01 … 5.00, stand" in out


@pytest.mark.parametrize(("game", "line", "said"), [
    ("three-card-poker", "deal", "usage: deal ANTE PAIR-PLUS"),
    ("three-card-poker", "deal 0.5", "under the table minimum"),
    ("three-card-poker", "deal -5", "-5"),
    ("three-card-poker", "deal five", "five"),
    ("three-card-poker", "play", "no round waits for a decision"),
    ("three-card-poker", "deal 5000", "no credit"),
    ("red-dog", "deal 5 5", "usage: deal ANTE"),
    ("red-dog", "stand", "no round waits for a decision"),
    ("red-dog", "hit", "unknown command 'hit'"),
])
def test_refusals_at_the_terminal_change_nothing(
        quick_end: list[QuickEnd], game: str, line: str, said: str) -> None:
    code, out = run("play", game, "--balance", "10", stdin=line)
    assert code == 0, out
    assert said in out and "(nothing changed)" in out
    [end] = quick_end
    assert end.bets == [] and end.wallet == 1_000 == final_balance(out)


def test_versions_and_settings_are_refused() -> None:
    code, out = run("play", "red-dog", "--set", "decks=1")
    assert code == 2 and "standard rules" in out


def test_a_registered_player_s_round_waits_on_their_account(tmp_path: Path) -> None:
    env = {"PELISALI_DATABASE_URL": f"sqlite:///{tmp_path}/casino.db"}
    for command in (["db", "upgrade"], ["account", "create", "ann", "--born", "1990-01-01",
                                        "--country", "FI"],
                    ["wallet", "deposit", "ann", "50"],
                    ["house", "fund", "1000", "--staff", "floor"]):
        code, out = run(*command, env=env)
        assert code == 0, (command, out)
    code, out = run("play", "three-card-poker", "--account", "ann", "--seed", "1",
                    stdin="deal 5\nquit\n", env=env)
    assert code == 0, out
    assert "Decide: play, fold" in out and "house decides" not in out
    code, out = run("play", "three-card-poker", "--account", "ann", "--seed", "2",
                    stdin="play\n", env=env)
    assert code == 0, out
    assert "round 1 waits for your decision" in out
    assert re.search(r"round 1: staked 10\.00 €, paid \d+\.\d\d €", out), out


def test_ultimate_texas_hold_em_at_the_terminal_street_by_street(
        quick_end: list[QuickEnd]) -> None:
    lines = ["deal 5 1", "play 4", "deal 5", "check", "check", "play 1", "deal 2", "play 7",
             "check"]  # the last left waiting: the house checks and folds it
    code, out = run("play", "ultimate-texas-holdem", "--seed", "5", "--balance", "200",
                    stdin="\n".join(lines))
    assert code == 0, out
    [end] = quick_end
    assert end.whole and end.statuses == ["settled"] * 3
    spots = [(spot, stake) for spot, stake, _ in end.bets]
    assert sorted(spots) == sorted([("ante", 500), ("blind", 500), ("trips", 100),
                                    ("play", 2_000), ("ante", 500), ("blind", 500),
                                    ("play", 500), ("ante", 200), ("blind", 200)])
    assert "usage: play N" in out and "(nothing changed)" in out
    assert "the house decides check" in out and "the house decides fold" in out
    staked = sum(stake for _, stake in spots)
    paid = sum(p or 0 for _, _, p in end.bets)
    assert end.wallet == 20_000 - staked + paid == final_balance(out)


def test_ultimate_texas_hold_em_s_progressive_at_the_terminal(
        quick_end: list[QuickEnd]) -> None:
    lines = ["help", "deal 5 progressive", "play 4", "deal 5 1 progressive", "play 4",
             "deal progressive"]  # the last has no ante: a usage line, nothing changed
    code, out = run("play", "ultimate-texas-holdem", "--seed", "5", "--balance", "200",
                    stdin="\n".join(lines))
    assert code == 0, out
    # the commands name the progressive, at the start and on help (the brackets are
    # text, not the terminal's markup)
    assert out.count("Commands: deal ANTE [TRIPS] [progressive], check") == 2, out
    [end] = quick_end
    assert end.whole and end.statuses == ["settled"] * 2
    progressive = [(stake, paid) for spot, stake, paid in end.bets if spot == "progressive"]
    assert [stake for stake, _ in progressive] == [100, 100]
    assert "usage: deal ANTE TRIPS progressive" in out and "(nothing" in out
    assert out.count("progressive: 1.00 €") == 2
    staked = sum(stake for _, stake, _ in end.bets)
    paid = sum(p or 0 for _, _, p in end.bets)
    assert end.wallet == 20_000 - staked + paid == final_balance(out)


def test_texas_hold_em_bonus_s_progressive_at_the_terminal(
        quick_end: list[QuickEnd]) -> None:
    lines = ["deal 5 1 progressive", "bet", "check", "check", "deal 5 progressive", "fold"]
    code, out = run("play", "texas-holdem-bonus", "--seed", "5", "--balance", "200",
                    stdin="\n".join(lines))
    assert code == 0, out
    [end] = quick_end
    assert end.whole and end.statuses == ["settled"] * 2
    progressive = [(stake, paid) for spot, stake, paid in end.bets if spot == "progressive"]
    assert [stake for stake, _ in progressive] == [100, 100]
    assert progressive[1][1] in (0, None)  # the fold before the flop loses it
    assert out.count("progressive: 1.00 €") == 2
    staked = sum(stake for _, stake, _ in end.bets)
    paid = sum(p or 0 for _, _, p in end.bets)
    assert end.wallet == 20_000 - staked + paid == final_balance(out)


def test_texas_hold_em_bonus_at_the_terminal_street_by_street(
        quick_end: list[QuickEnd]) -> None:
    lines = ["deal 5 1", "check", "bet", "check", "bet", "deal 5", "fold", "deal 2",
             "bet river", "bet", "check"]  # the last left on the turn: the house checks it
    code, out = run("play", "texas-holdem-bonus", "--seed", "5", "--balance", "200",
                    stdin="\n".join(lines))
    assert code == 0, out
    [end] = quick_end
    assert end.whole and end.statuses == ["settled"] * 3
    spots = [(spot, stake) for spot, stake, _ in end.bets]
    assert sorted(spots) == sorted([("ante", 500), ("bonus", 100), ("flop", 1_000),
                                    ("river", 500), ("ante", 500), ("ante", 200),
                                    ("flop", 400)])
    assert "'check' is not open before the flop" in out and "(nothing changed)" in out
    assert "'bet river' is not open before the flop" in out
    assert "the house decides check" in out and "Decide: check, bet river" in out
    staked = sum(stake for _, stake in spots)
    paid = sum(p or 0 for _, _, p in end.bets)
    assert end.wallet == 20_000 - staked + paid == final_balance(out)


def test_oasis_stud_poker_at_the_terminal_exchanges_raises_and_folds(
        quick_end: list[QuickEnd]) -> None:
    # seed 5: the first box Th Qh 2d Qd 7s, the second 7d 3h 2h 2c 3c
    lines = ["deal 5", "exchange Th 2d 7S", "raise", "deal 5", "exchange Zz", "raise 3",
             "exchange 4d", "deal 2", "exchange 7d 3h 2h 2c 3c",
             "deal 3"]  # the last left waiting: the house folds it
    code, out = run("play", "oasis-stud", "--seed", "5", "--balance", "200",
                    stdin="\n".join(lines))
    assert code == 0, out
    [end] = quick_end
    assert end.whole and end.statuses == ["settled"] * 3
    assert [(spot, stake) for spot, stake, _ in end.bets] == [
        ("ante", 500), ("exchange", 1_500), ("raise", 1_000),  # a fee of 3 antes
        ("ante", 500), ("exchange", 500), ("raise", 1_000),  # all five: 1 ante, the raise
        ("ante", 300)]
    assert all(paid == 0 for spot, _, paid in end.bets if spot == "exchange")
    assert "Your cards: Th Qh 2d Qd 7s (pair)" in out and "3 cards 15.00 €" in out
    assert "Exchanged Th 2d 7s: fee 15.00 €" in out  # the card typed 7S
    assert "Exchanged 7d 3h 2h 2c 3c: fee 5.00 € (all five: the raise goes with them)" in out
    assert "'Zz' is not a card" in out and "usage: raise (2 times the ante)" in out
    assert "4d is not in seat 0's hand" in out and "(nothing changed)" in out
    assert "round 2 waits for a decision (fold, raise, exchange CARDS)" in out
    assert "the house decides fold" in out
    staked = sum(stake for _, stake, _ in end.bets)
    paid = sum(p or 0 for _, _, p in end.bets)
    assert end.wallet == 20_000 - staked + paid == final_balance(out)


def test_pai_gow_poker_at_the_terminal_sets_by_hand_and_by_the_house_way(
        quick_end: list[QuickEnd]) -> None:
    # seed 4: four aces (the house way splits them), then 9h 4d Jc Kh 4s 9c 6d, then a
    # hand with the joker, then one left waiting
    lines = ["deal 10.10", "house", "deal 5", "set Zz 4d", "set 7h 4d", "set 9h", "fold",
             "set 9H 9c", "deal 2", "set JOKER ks",
             "deal 3"]  # the last left waiting: the house sets it by the house way
    code, out = run("play", "pai-gow-poker", "--seed", "4", "--balance", "200",
                    stdin="\n".join(lines))
    assert code == 0, out
    [end] = quick_end
    assert end.whole and end.statuses == ["settled"] * 4
    assert end.bets == [("ante", 1_010, 2_020), ("ante", 500, 0), ("ante", 200, 400),
                        ("ante", 300, 0)]
    assert "Your cards: Jh Ah Kd 8d Ad As Ac" in out
    assert "The house way: high As Ah Kd Jh 8d (pair), low Ad Ac" in out
    assert "Dealer (set by the house way): high 9s 9d 6d 5d 2s (pair), low Qc 7d" in out
    assert "ante: 10.10 € → 20.20 € (win: high box, low box)" in out
    assert "commission: 0.51 € (5 % of the win, rounded up to the cent)" in out  # 0.505 up
    assert "'Zz' is not a card" in out and "7h is not in seat 0's hand" in out
    assert "the low hand is 2 cards, not 1" in out and "unknown command 'fold'" in out
    assert "low 9h 9c (fouls" in out  # a foul is taken, and lost
    assert "ante: 5.00 € → 0.00 € (lose, fouled)" in out
    assert "Your hands: high As 6h Jc Ad 8s (pair), low Jk Ks" in out  # the joker typed out
    assert "round 3: staked 2.00 €, paid 4.00 €, commission 0.10 €" in out
    assert "round 4 was waiting: the house decides house" in out
    assert end.wallet == 20_000 - 2_010 + 2_420 - 61 == final_balance(out)


def test_russian_poker_at_the_terminal_draws_bets_and_buys_the_dealer_a_game(
        quick_end: list[QuickEnd]) -> None:
    # seed 3: the first box Qh 3c 4d 5d 4h (a sixth card, 6s), the dealer without a game;
    # the third 7c Kh 8h 7d 7h against Ts 9h 3s Js Qc, the bought game still without one
    lines = ["deal 10", "sixth", "raise", "take", "deal 10", "fold", "deal 10",
             "exchange 2c", "raise 5", "buy", "raise", "buy",
             "deal 3"]  # the last left waiting: the house folds it
    code, out = run("play", "russian-poker", "--seed", "3", "--balance", "200",
                    stdin="\n".join(lines))
    assert code == 0, out
    out = " ".join(out.split())  # the console's line breaks apart
    [end] = quick_end
    assert end.whole and end.statuses == ["settled"] * 4
    assert end.bets == [
        ("ante", 1_000, 2_000), ("sixth", 1_000, 0), ("raise", 2_000, 2_000),  # taken
        ("ante", 1_000, 0),  # folded
        ("ante", 1_000, 2_000), ("raise", 2_000, 2_000), ("buy", 1_000, 0),  # no game again
        ("ante", 300, 0)]  # folded by the house
    assert "Your cards: Qh 3c 4d 5d 4h 6s (pair)" in out
    assert "sixth (a sixth card, 10.00 €)" in out and "exchange CARDS (1 to 5 cards" in out
    assert "Dealer: Ts 9h 3s Js Qc (does not qualify)" in out
    assert "The bought game: put away Qc, Ts 9h 3s Js Ah (high card, does not qualify)" in out
    assert "2c is not in seat 0's hand" in out and "usage: raise (2 times the ante)" in out
    assert "a box may buy when the dealer does not qualify" in out
    assert "the house decides fold" in out
    assert end.wallet == 20_000 - 1_300 == final_balance(out)


def test_pai_gow_poker_at_the_terminal_banks_after_a_round_against_the_house(
        quick_end: list[QuickEnd]) -> None:
    # seed 32: Kh 4c Kc 9d 7d 6s 5h against the house's bank (lost), then the bank's
    # Jd Th 9c Kc Ad 7h 9h, whose A-K copies the dealer's; then 7d 7h 2s 9h Td 7c Ts
    # against the house's bank, then a bank left waiting
    lines = ["bank 5", "deal 10", "bank 5", "house", "bank", "bank 5 5", "bank 11.01",
             "bank 11", "house", "bank 5", "deal 4", "house",
             "bank 4.40"]  # the last left waiting: the house sets it by the house way
    code, out = run("play", "pai-gow-poker", "--seed", "32", "--balance", "200",
                    stdin="\n".join(lines))
    assert code == 0, out
    out = " ".join(out.split())  # the console's line breaks apart
    [end] = quick_end
    assert end.whole and end.statuses == ["settled"] * 4
    assert end.bets == [("ante", 1_000, 0), ("bank", 1_100, 2_200), ("ante", 400, 800),
                        ("bank", 440, 440)]
    assert "bank AMOUNT (you bank against the dealer's hand)" in out
    assert "> bank 5 a player banks after a round bet against the house's bank " \
           "(nothing changed)" in out
    assert "round 1 waits for a decision (house, set CARD CARD)" in out
    assert out.count("usage: bank AMOUNT (you bank: the dealer's hand plays against yours; "
                     "copies are yours) (nothing changed)") == 2
    assert "a bank is at most 11.00: your last bet against the house's bank, 10.00, and " \
           "10 % more; not 11.01 (nothing changed)" in out
    assert "Your cards: Jd Th 9c Kc Ad 7h 9h (you bank: the dealer's hand plays against " \
           "yours, copies are yours)" in out
    assert "Dealer (set by the house way): high 9s 8h 8d 5h 4s (pair), low Ac Kd" in out
    assert "bank: 11.00 € → 22.00 € (win: high box, low copy (the bank's))" in out
    assert "commission: 0.55 € (5 % of the win, rounded up to the cent)" in out  # 5 % of 11
    assert "> bank 5 the house banks every other round: bet against its bank before you " \
           "bank again (nothing changed)" in out
    assert "round 4 was waiting: the house decides house" in out
    assert "bank: 4.40 € → 4.40 € (push: high box, low dealer)" in out
    commissions = sum(-(-stake * 5 // 100) for spot, stake, paid in end.bets
                      if paid == 2 * stake)  # on each win, rounded up to the cent
    assert commissions == 55 + 20
    staked = sum(stake for _, stake, _ in end.bets)
    paid = sum(p or 0 for _, _, p in end.bets)
    assert end.wallet == 20_000 - staked + paid - commissions == final_balance(out) == 20_425
