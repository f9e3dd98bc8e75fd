"""Terminal play and reports for punto banco and blackjack."""

from __future__ import annotations

import shlex
import sys

from rich.table import Table as RichTable

from pelisali.cli.common import console, fail
from pelisali.games import GameError
from pelisali.games.blackjack import BlackjackTable, Phase
from pelisali.games.blackjack_rules import BlackjackConfig
from pelisali.games.punto_banco import BETS, PuntoBancoConfig, PuntoBancoTable
from pelisali.money import MoneyError, format_cents, parse_amount
from pelisali.rng import Rng, SecureRng, SeededRng

PLAYER = "you"
CARD_GAMES = {"baccarat": "punto-banco", "punto-banco": "punto-banco", "blackjack": "blackjack"}


def _read(prompt: str) -> str | None:
    interactive = sys.stdin.isatty()
    try:
        line = input(prompt if interactive else "")
    except EOFError:
        return None
    if not interactive:
        console.print(f"[dim]> {line}[/]")
    return line


def _command(prompt: str) -> tuple[str, list[str]] | None:
    """The next command and its arguments; None at the end of input or on quit."""
    while (line := _read(prompt)) is not None:
        try:
            words = shlex.split(line)
        except ValueError as exc:
            console.print(f"[red]{exc}[/]")
            continue
        if not words:
            continue
        command = words[0].lower()
        return None if command in ("quit", "exit", "q") else (command, words[1:])
    return None


def _rng(seed: int | None) -> Rng:
    return SeededRng(seed) if seed is not None else SecureRng()


def play_baccarat(settings: dict[str, str | bool], balance_text: str, seed: int | None) -> None:
    try:
        start = parse_amount(balance_text)
        config = PuntoBancoConfig.from_settings(settings)
        table = PuntoBancoTable(_rng(seed), config)
    except (MoneyError, GameError) as exc:
        fail(str(exc))
    table.sit(PLAYER, start)
    assert table.limits is not None
    console.print("[bold]Punto banco[/] — player 1:1, banker 1:1 less 5 % commission, tie 8:1; "
                  "player and banker bets are returned on a tie.")
    console.print(f"{config.decks} decks, cut card {config.cut_cards_from_back} cards from the "
                  f"back. Limits {format_cents(table.limits.minimum)} … "
                  f"{format_cents(table.limits.maximum)} €. Commands: bet player|banker|tie "
                  "AMOUNT, remove ID, deal, balance, history, quit.")
    while (step := _command("baccarat> ")) is not None:
        command, args = step
        try:
            if command == "bet":
                if len(args) != 2:
                    raise GameError(f"usage: bet {'|'.join(BETS)} AMOUNT")
                receipt = table.place(PLAYER, args[0].lower(), parse_amount(args[1]))
                console.print(f"bet {receipt.bet_id}: {receipt.message}. "
                              f"Balance {format_cents(table.balances[PLAYER])} €")
            elif command == "remove":
                if len(args) != 1 or not args[0].isdigit():
                    raise GameError("usage: remove ID")
                table.withdraw(PLAYER, int(args[0]))
                console.print(f"returned. Balance {format_cents(table.balances[PLAYER])} €")
            elif command == "deal":
                coup, settlements = table.deal()
                console.print(f"[bold]{coup.describe()}[/]")
                for s in settlements:
                    console.print(f"  {s.spot}: {s.result}, stake {format_cents(s.stake)} €, "
                                  f"paid {format_cents(s.paid)} €"
                                  + (f" (house rounding {s.rounding} cent)" if s.rounding else ""))
                if table.last_hand:
                    console.print("[yellow]The cut card came out: that was the last hand "
                                  "before the shuffle. The shoe is shuffled.[/]")
                console.print(f"Balance {format_cents(table.balances[PLAYER])} €")
            elif command == "balance":
                console.print(f"Balance {format_cents(table.balances[PLAYER])} €, cards left "
                              f"{table.shoe.remaining}")
            elif command == "history":
                for record in table.history[-10:]:
                    cards = " ".join(f"{side[0].upper()}:{card}" for side, card in record["cards"])
                    console.print(f"{record['round_id']}: {cards} → {record['result']}")
            else:
                raise GameError(f"unknown command {command!r}")
        except (GameError, MoneyError) as exc:
            console.print(f"[red]{exc}[/] (nothing changed)")
    console.print(f"Final balance {format_cents(table.balances[PLAYER])} € "
                  f"(started with {format_cents(start)} €).")


def play_blackjack(settings: dict[str, str | bool], balance_text: str, seed: int | None) -> None:
    try:
        start = parse_amount(balance_text)
        config = BlackjackConfig.from_settings(settings)
        table = BlackjackTable(_rng(seed), config)
    except (MoneyError, GameError) as exc:
        fail(str(exc))
    table.sit(PLAYER, start)
    assert table.limits is not None
    console.print(f"[bold]Blackjack[/] — dealer draws to 16 and stands on all 17s; blackjack "
                  f"pays {config.blackjack_pays}, insurance {config.insurance_pays}. "
                  f"{config.decks} decks. Limits {format_cents(table.limits.minimum)} … "
                  f"{format_cents(table.limits.maximum)} €.")
    console.print("Commands: bet SEAT AMOUNT (seats 1-7, as many as you like), remove SEAT, "
                  "deal; then the decisions offered; balance, quit.")
    while True:
        prompt = "blackjack> "
        if table.phase is Phase.INSURANCE:
            seat = table.insurance_pending()[0]
            limit = format_cents(table.seats[seat].bet // 2)
            console.print(f"Dealer shows {table.up_card}. Seat {seat}: insurance? "
                          f"[cyan]insure AMOUNT[/] (up to {limit}) or [cyan]no[/]")
        elif table.phase is Phase.PLAYING:
            turn = table.current()
            assert turn is not None
            seat_obj, hand = turn
            which = f" hand {seat_obj.hands.index(hand) + 1}" if len(seat_obj.hands) > 1 else ""
            console.print(f"Seat {seat_obj.number}{which}: {hand.describe()} against dealer "
                          f"{table.up_card}. Choose: [cyan]{', '.join(table.legal_actions())}[/]"
                          + ("  (double AMOUNT for less)" if "double" in table.legal_actions()
                             else ""))
        step = _command(prompt)
        if step is None:
            break
        try:
            _blackjack_command(table, *step)
        except (GameError, MoneyError) as exc:
            console.print(f"[red]{exc}[/] (nothing changed)")
    console.print(f"Final balance {format_cents(table.balances[PLAYER])} € "
                  f"(started with {format_cents(start)} €).")


def _blackjack_command(table: BlackjackTable, command: str, args: list[str]) -> None:
    if command == "bet":
        if len(args) != 2 or not args[0].isdigit():
            raise GameError("usage: bet SEAT AMOUNT")
        if table.phase is Phase.SETTLED:
            table.next_round()
        receipt = table.place(PLAYER, int(args[0]), parse_amount(args[1]))
        console.print(f"{receipt.message}. Balance {format_cents(table.balances[PLAYER])} €")
    elif command == "remove":
        if len(args) != 1 or not args[0].isdigit():
            raise GameError("usage: remove SEAT")
        table.withdraw(PLAYER, int(args[0]))
    elif command == "deal":
        if table.phase is Phase.SETTLED:
            raise GameError("place your bets for the next round first")
        table.deal()
        for number in sorted(table.seats):
            console.print(f"Seat {number}: {table.seats[number].hands[0].describe()}")
        console.print(f"Dealer: {table.up_card} and a card face down")
    elif command in ("insure", "no"):
        if table.phase is not Phase.INSURANCE:
            raise GameError("insurance is offered only under a dealer's ace")
        if command == "insure" and len(args) != 1:
            raise GameError("usage: insure AMOUNT, or no")
        table.insure(table.insurance_pending()[0], 0 if command == "no" else parse_amount(args[0]))
    elif command in ("hit", "stand", "double", "split"):
        extra = parse_amount(args[0]) if command == "double" and args else None
        table.act(command, extra)
    elif command == "balance":
        console.print(f"Balance {format_cents(table.balances[PLAYER])} €")
        return
    else:
        raise GameError(f"unknown command {command!r}")
    if table.phase is Phase.SETTLED:
        _show_blackjack_result(table)


def _show_blackjack_result(table: BlackjackTable) -> None:
    dealer = " ".join(table.dealer)
    console.print(f"[bold]Dealer: {dealer}[/]")
    for number in sorted(table.seats):
        for i, hand in enumerate(table.seats[number].hands):
            label = f"Seat {number}" + (f" hand {i + 1}" if len(table.seats[number].hands) > 1
                                        else "")
            console.print(f"  {label}: {hand.describe()}")
    for s in table.settlements:
        colour = {"win": "green", "blackjack": "green", "lose": "red"}.get(s.result, "cyan")
        console.print(f"  [{colour}]{s.spot}: {s.result}[/], stake {format_cents(s.stake)} €, "
                      f"paid {format_cents(s.paid)} €")
    console.print(f"Balance {format_cents(table.balances[PLAYER])} €. Place bets for the next "
                  "round.")
    if table.shoe.cut_card_out:
        console.print("[yellow]The cut card came out: the shoe is shuffled for the next round.[/]")


def strategy_table(strategy: object) -> list[RichTable]:
    """Rich tables of a basic strategy (hard, soft, pairs)."""
    data = strategy.to_json()  # type: ignore[attr-defined]
    out = []
    for part in ("hard", "soft", "pairs"):
        rows = data[part]
        table = RichTable(title=f"{part} totals" if part != "pairs" else "pairs")
        table.add_column("hand")
        ups = list(next(iter(rows.values())).keys())
        for up in ups:
            table.add_column(str(up), justify="center")
        colours = {"H": "white on red", "S": "black on yellow", "D": "white on blue",
                   "Ds": "white on dark_cyan", "P": "black on green", "Ph": "black on green"}
        for hand, actions in rows.items():
            table.add_row(str(hand), *[f"[{colours.get(a, 'white')}] {a} [/]"
                                       for a in actions.values()])
        out.append(table)
    return out
