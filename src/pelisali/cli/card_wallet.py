"""``pelisali play punto-banco|blackjack --account NAME``: the card games on the wallet.

Each command is one transaction on the database: a bet is debited when accepted, a
coup is dealt and paid in full, a blackjack double, split or insurance is debited when
taken. A blackjack round left in play (the terminal closed, the server restarted) is
shown again at the next start and resumes where it stopped.
"""

from __future__ import annotations

import shlex
import sys
import uuid

from sqlalchemy.orm import Session

from pelisali.cli.common import console, fail
from pelisali.cli.platform import _engine, remind
from pelisali.games import GameError
from pelisali.money import MoneyError, format_cents, parse_amount
from pelisali.platform import accounts
from pelisali.platform.card_rounds import (
    BlackjackView,
    act,
    blackjack_view,
    create_card_table,
    deal_blackjack,
    deal_coup,
    insure,
    place_card_bet,
)
from pelisali.platform.db import transaction
from pelisali.platform.ledger import LedgerError, balance, now_utc
from pelisali.platform.rounds import TableError, find_table
from pelisali.rng import Rng, SecureRng, SeededRng

COMMANDS = {
    "punto-banco": "bet player|banker|tie AMOUNT, deal, balance, quit",
    "blackjack": "bet SEAT AMOUNT, deal, insure AMOUNT, no, hit, stand, double [AMOUNT], "
                 "split, balance, quit",
}


def _wallet(session: Session, account: str) -> str:
    return format_cents(balance(session, accounts.wallet_code(account)))


def play_cards_on_wallet(game: str, account: str, table_name: str | None, seed: int | None,
                         settings: dict[str, str | bool]) -> None:
    """The terminal loop of punto banco or blackjack on ``account``'s wallet, at
    ``table_name`` (created with ``settings`` when it does not exist)."""
    engine = _engine()
    name = table_name or f"{game}-terminal"
    rng: Rng = SeededRng(seed) if seed is not None else SecureRng()
    view: BlackjackView | None = None
    try:
        with transaction(engine) as session:
            accounts.may_play(accounts.find(session, account))
            try:
                table = find_table(session, name)
            except LedgerError:
                table = create_card_table(session, name, game, settings)
            if table.game != game:
                raise TableError(f"{name} is a {table.game} table, not {game}")
            console.print(f"{account} at table {name}: balance {_wallet(session, account)}. "
                          f"Limits {format_cents(table.limit_min)} … "
                          f"{format_cents(table.limit_max)}. Commands: {COMMANDS[game]}.")
            view = blackjack_view(session, name) if game == "blackjack" else None
            if view is not None:
                console.print(f"round {view.round_id} in play: resuming where it stopped")
    except LedgerError as exc:
        fail(str(exc))
    started = now_utc()
    interactive = sys.stdin.isatty()
    while True:
        if view is not None and view.status == "playing":
            _prompt(view, account)
        try:
            line = input("> " if interactive else "")
        except EOFError:
            return
        if not interactive:
            console.print(f"[dim]> {line}[/]")
        try:
            words = shlex.split(line)
        except ValueError as exc:
            console.print(f"[red]{exc}[/]")
            continue
        if not words:
            continue
        command, args = words[0].lower(), words[1:]
        if command in ("quit", "exit", "q"):
            return
        try:
            with transaction(engine) as session:
                started = remind(accounts.find(session, account), started)
                if command == "balance":
                    console.print(_wallet(session, account))
                elif game == "punto-banco":
                    _punto_banco(session, name, account, command, args, rng)
                else:
                    view = _blackjack(session, name, account, command, args, rng, view)
        except (LedgerError, MoneyError, GameError) as exc:
            console.print(f"[red]{exc}[/] (nothing changed)")


def _punto_banco(session: Session, table: str, account: str, command: str, args: list[str],
                 rng: Rng) -> None:
    if command == "bet":
        if len(args) != 2:
            raise TableError("usage: bet player|banker|tie AMOUNT")
        receipt = place_card_bet(session, table, account, args[0], parse_amount(args[1]),
                                 f"cli-{uuid.uuid4()}")
        console.print(f"bet {receipt.bet_id}: {receipt.message}. "
                      f"Balance {_wallet(session, account)}")
    elif command == "deal":
        coup = deal_coup(session, table, rng)
        console.print(f"[bold]{coup.description}[/]")
        for s in coup.settlements:
            if s.player == account:
                console.print(f"  {s.spot}: {s.result}, stake {format_cents(s.stake)}, paid "
                              f"{format_cents(s.paid)}"
                              + (f" (house rounding {s.rounding} cent)" if s.rounding else ""))
        paid = sum(s.paid for s in coup.settlements if s.player == account)
        console.print(f"round {coup.round_id}: paid {format_cents(paid)}; "
                      f"balance {_wallet(session, account)}")
        if coup.last_hand:
            console.print("[yellow]The cut card came out: that was the last hand before the "
                          "shuffle.[/]")
    else:
        raise TableError(f"commands: {COMMANDS['punto-banco']}")


def _blackjack(session: Session, table: str, account: str, command: str, args: list[str],
               rng: Rng, view: BlackjackView | None) -> BlackjackView | None:
    if command == "bet":
        if len(args) != 2:
            raise TableError("usage: bet SEAT AMOUNT")
        receipt = place_card_bet(session, table, account, args[0], parse_amount(args[1]),
                                 f"cli-{uuid.uuid4()}")
        console.print(f"{receipt.message}. Balance {_wallet(session, account)}")
        return view
    if command == "deal":
        view = deal_blackjack(session, table, rng)
    elif command in ("insure", "no"):
        view = blackjack_view(session, table)
        mine = [] if view is None else [
            n for n in view.insurance_pending
            if any(h.seat == n and h.player == account for h in view.hands)]
        if not mine:
            raise TableError("no insurance is waiting for your answer")
        if command == "insure" and len(args) != 1:
            raise TableError("usage: insure AMOUNT, or no")
        view = insure(session, table, account, mine[0],
                      0 if command == "no" else parse_amount(args[0]))
    elif command in ("hit", "stand", "double", "split"):
        extra = parse_amount(args[0]) if command == "double" and args else None
        view = act(session, table, account, command, extra)
    else:
        raise TableError(f"commands: {COMMANDS['blackjack']}")
    if view.status == "settled":
        _show_result(session, view, account)
    elif command == "deal":
        for hand in view.hands:
            console.print(f"Seat {hand.seat}: {hand.text}")
        console.print(f"Dealer: {view.dealer[0]} and a card face down")
    return view


def _prompt(view: BlackjackView, account: str) -> None:
    """What is waiting, and for whom."""
    if view.insurance_pending:
        seat = view.insurance_pending[0]
        console.print(f"Dealer shows {view.dealer[0]}. Seat {seat}: insurance? "
                      f"[cyan]insure AMOUNT[/] (up to {format_cents(view.insurance_max[seat])})"
                      " or [cyan]no[/]")
    elif view.turn is not None:
        seat, number = view.turn
        hand = next(h for h in view.hands if (h.seat, h.hand) == view.turn)
        which = f" hand {number}" if sum(h.seat == seat for h in view.hands) > 1 else ""
        whose = "" if view.to_act == account else f" ({view.to_act})"
        console.print(f"Seat {seat}{which}{whose}: {hand.text} against dealer "
                      f"{view.dealer[0]}. Choose: [cyan]{', '.join(view.actions)}[/]"
                      + ("  (double AMOUNT for less)" if "double" in view.actions else ""))


def _show_result(session: Session, view: BlackjackView, account: str) -> None:
    console.print(f"[bold]Dealer: {' '.join(view.dealer)}[/]")
    for hand in view.hands:
        split = sum(h.seat == hand.seat for h in view.hands) > 1
        console.print(f"  Seat {hand.seat}" + (f" hand {hand.hand}" if split else "")
                      + f": {hand.text}")
    for s in view.settlements:
        colour = {"win": "green", "blackjack": "green", "lose": "red"}.get(s.result, "cyan")
        console.print(f"  [{colour}]{s.spot}: {s.result}[/], stake {format_cents(s.stake)}, "
                      f"paid {format_cents(s.paid)}")
    paid = sum(s.paid for s in view.settlements if s.player == account)
    console.print(f"round {view.round_id}: paid {format_cents(paid)}; "
                  f"balance {_wallet(session, account)}. Place bets for the next round.")
