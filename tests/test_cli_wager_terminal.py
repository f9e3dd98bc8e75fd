"""``pelisali play`` for the wheel and dice games: one loop on the wallet, in quick mode
on a temporary database or on a registered player's wallet."""

from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select
from typer.testing import CliRunner

from pelisali.cli.main import app
from pelisali.cli.play import WagerTerminal
from pelisali.cli.quick import PLAYER, quick_wallet
from pelisali.games import make_game
from pelisali.platform import rounds
from pelisali.platform.db import transaction
from pelisali.platform.ledger import balance, check, verify_audit
from pelisali.platform.models import RoundRow
from pelisali.rng import SeededRng

runner = CliRunner()
START = 10_000


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, " ".join(result.output.split())


def terminal(db: Engine, game: str = "roulette", variant: str | None = "C",
             seed: int = 3, dealer: bool = True) -> WagerTerminal:
    wager = make_game(game, variant, {})
    name = f"{game}-test"
    with transaction(db) as session:
        rounds.create_table(session, name, game, variant)
    return WagerTerminal(db, PLAYER, name, wager, SeededRng(seed), seed, dealer=dealer)


def wallet(db: Engine, player: str = PLAYER) -> int:
    with transaction(db) as session:
        return balance(session, f"player:{player}")


def round_count(db: Engine) -> int:
    with transaction(db) as session:
        return session.scalar(select(func.count()).select_from(RoundRow)) or 0


def test_quick_mode_settles_every_spin_in_the_ledger_and_recalls_it() -> None:
    with quick_wallet(START) as db:
        term = terminal(db, seed=5)
        for _ in range(30):
            assert term.handle("bet red 2")
            assert term.handle("bet 17 1")
            assert term.handle("spin")
        with transaction(db) as session:
            played = session.scalars(select(RoundRow)).all()
            assert len(played) == 30 and {r.status for r in played} == {"settled"}
            assert all(rounds.recall(session, r.id).same for r in played)
            bets = rounds.history(session, PLAYER, limit=100)
            paid = sum(bet.paid or 0 for _, bet in bets)
            staked = sum(bet.stake for _, bet in bets)
            assert staked == 30 * 300
            # The wallet moved by exactly what the bets' settlements say; the ledger agrees.
            assert balance(session, "player:you") == START - staked + paid
            assert check(session).ok and verify_audit(session).ok


def test_a_bet_put_down_is_checked_at_once_and_taken_back_whole(
        capsys: pytest.CaptureFixture[str]) -> None:
    with quick_wallet(START) as db:
        term = terminal(db)
        term.handle("bet red 5")
        term.handle("bet 17 2")
        term.handle("bet red 500")  # more than the wallet holds once 7.00 is down
        out = capsys.readouterr().out
        assert "bet 1: 5.00 on red" in out and "bet 2: 2.00 on straight 17" in out
        assert "no credit" in out and "(nothing changed)" in out
        assert [h.number for h in term.held] == [1, 2]
        assert round_count(db) == 0 and wallet(db) == START  # nothing placed before the draw
        term.handle("remove 1")
        assert "bet 1 returned. Balance 98.00 €" in capsys.readouterr().out
        assert [(h.number, h.label) for h in term.held] == [(1, "2.00 on straight 17")]
        term.handle("remove 7")
        assert "no bet 7" in capsys.readouterr().out
        term.handle("spin")
        with transaction(db) as session:
            [(_, bet)] = rounds.history(session, PLAYER)
        assert (bet.spot, bet.stake) == ("straight 17", 200)
        assert wallet(db) == START - 200 + (bet.paid or 0)


def test_the_dealer_voids_before_the_draw_and_the_bets_stand(
        capsys: pytest.CaptureFixture[str]) -> None:
    with quick_wallet(START) as db:
        term = terminal(db)
        term.handle("void mis-spin")
        assert "no bets on the table" in capsys.readouterr().out
        term.handle("bet black 3")
        term.handle("void ball left the wheel")
        out = capsys.readouterr().out
        assert "Round void (ball left the wheel): nothing is paid; 1 bet(s) stand" in out
        with transaction(db) as session:
            [row] = session.scalars(select(RoundRow)).all()
            assert row.status == "void"
            assert balance(session, "player:you") == START  # the stake came back
        assert [h.label for h in term.held] == ["3.00 on black"]
        term.handle("spin")
        assert wallet(db) in (START - 300, START + 300)
    with quick_wallet(START) as db:
        player = terminal(db, dealer=False)
        player.handle("bet black 3")
        player.handle("void because")
        assert "only the staff void a round" in capsys.readouterr().out


def test_tuplanoppa_shooter_bots_bet_on_their_own_wallets() -> None:
    with quick_wallet(START, bots=("Aino", "Bertil")) as db:
        wager = make_game("tuplanoppa", None, {"drawing": "shooter"})
        with transaction(db) as session:
            rounds.create_table(session, "dice", "tuplanoppa", None, {"drawing": "shooter"})
        term = WagerTerminal(db, PLAYER, "dice", wager, SeededRng(2), 2,
                             bots=("Aino", "Bertil"), dealer=True)
        for _ in range(10):
            term.handle("bet over_7 1.01")
            term.handle("roll")
        with transaction(db) as session:
            moved = sum(balance(session, f"player:{p}") for p in (PLAYER, "Aino", "Bertil"))
            house = balance(session, "house:bank")
            assert moved + house == START + 2 * 100_000 + 100_000_000
            assert len(rounds.history(session, "Aino")) == 10
            assert check(session).ok


def test_play_on_a_registered_players_wallet(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PELISALI_DATABASE_URL", f"sqlite:///{tmp_path / 'casino.db'}")
    assert run("account", "create", "ann", "--born", "1990-05-01", "--country", "FI")[0] == 0
    assert run("wallet", "deposit", "ann", "50")[0] == 0
    assert run("house", "fund", "1000", "--staff", "owner")[0] == 0
    code, out = run("play", "money-wheel", "--account", "ann", "--seed", "4",
                    stdin="bet 1 2\nspin\nvoid mistake\nbalance\nquit\n")
    assert code == 0, out
    assert "ann at table money-wheel-terminal, balance 50.00 €" in out
    assert "Result:" in out and "only the staff void a round" in out
    code, out = run("history", "ann")
    assert code == 0 and "the last 1 bets" in out and "settled" in out
    code, out = run("recall", "1")
    assert code == 0 and "replay gives the same settlement" in out
    code, out = run("play", "roulette", "--account", "ann", "--table",
                    "money-wheel-terminal", stdin="quit\n")
    assert code == 2 and "choose another --table" in out
