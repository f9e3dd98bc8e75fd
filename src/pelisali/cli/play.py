"""Terminal play: one player at a table, against the house, with an in-memory balance."""

from __future__ import annotations

import random
import shlex
import sys
from datetime import UTC, datetime
from fractions import Fraction

from rich.table import Table as RichTable
from rich.text import Text

from pelisali.cli.common import console, fail
from pelisali.games import GameError, WagerGame
from pelisali.games.roulette import Roulette
from pelisali.games.round import Status
from pelisali.games.table import Table
from pelisali.money import MoneyError, format_cents, parse_amount
from pelisali.rng import Rng, SecureRng, SeededRng

PLAYER = "you"
BOTS = ("Aino", "Bertil")

HELP = """[bold]commands[/]
  bet SPOT AMOUNT   place a bet: [cyan]bet red 5[/], [cyan]bet split 0-1 2.50[/], [cyan]bet 17 1[/]
  bets              the bets on the table
  remove ID         take a bet back before the draw
  spin | roll       no more bets, draw, settle
  choose ID OPTION  answer a choice (roulette D: prison, half or quarter)
  pass              hand the dice on (Tuplanoppa, shooter method)
  void REASON       as the dealer: declare the round void (mis-spin, device fault)
  layout            the betting spots and their odds
  balance | history | rules | help | quit"""


def play_terminal(game: WagerGame, balance_text: str, seed: int | None) -> None:
    try:
        start = parse_amount(balance_text)
    except MoneyError as exc:
        fail(str(exc))
    rng: Rng = SeededRng(seed) if seed is not None else SecureRng()
    table = Table(game, rng, invalid_throw_rate=Fraction(1, 12), venue="terminal",
                  clock=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    table.sit(PLAYER, start)
    if table.shooter_rotation is not None:  # two more players share the dice rotation
        for bot in BOTS:
            table.sit(bot, 100_000)
    console.print(f"[bold]{game.rules.name.en}[/] — {game.rules.description.en}")
    limits = game.rules.limits
    console.print(f"Rules: {game.rules.section}. Limits per bet {format_cents(limits.min)} … "
                  f"{format_cents(limits.max)} €. Draws: {rng.name}. Type [cyan]help[/] for help.")
    show_layout(game)
    session = Session(table, seed)
    interactive = sys.stdin.isatty()
    while True:
        try:
            line = input("pelisali> " if interactive else "")
        except EOFError:
            break
        if not interactive:
            console.print(f"[dim]> {line}[/]")
        if not session.handle(line):
            break
    console.print(f"Final balance {format_cents(table.balances[PLAYER])} € "
                  f"(started with {format_cents(start)} €).")


class Session:
    def __init__(self, table: Table, seed: int | None = None) -> None:
        self.table = table
        self.game = table.game
        self.bot_choice = random.Random(seed)  # the other players' choices, not a game draw

    def handle(self, line: str) -> bool:
        try:
            words = shlex.split(line)
        except ValueError as exc:
            console.print(f"[red]{exc}[/]")
            return True
        if not words:
            return True
        command, args = words[0].lower(), words[1:]
        try:
            if command in ("quit", "exit", "q"):
                return False
            handler = getattr(self, f"cmd_{command}", None)
            if handler is None:
                raise GameError(f"unknown command {command!r}; type help")
            handler(args)
        except (GameError, MoneyError) as exc:
            console.print(f"[red]{exc}[/] (nothing changed)")
        return True

    # -- commands --------------------------------------------------------------------
    def cmd_help(self, args: list[str]) -> None:
        console.print(HELP)

    def cmd_layout(self, args: list[str]) -> None:
        show_layout(self.game)

    def cmd_rules(self, args: list[str]) -> None:
        rules = self.game.rules
        console.print(f"{rules.name.fi} / {rules.name.sv} / {rules.name.en} ({rules.section})")
        console.print(rules.description.fi)
        for choice in rules.choices:
            console.print(f"  • {choice}")
        for key, value in self.game.settings.items():
            console.print(f"  setting {key} = {value}")

    def cmd_balance(self, args: list[str]) -> None:
        console.print(f"Balance {format_cents(self.table.balances[PLAYER])} €, "
                      f"on the table {format_cents(self.table.on_table)} €")

    def cmd_bet(self, args: list[str]) -> None:
        if len(args) < 2:
            raise GameError("usage: bet SPOT AMOUNT")
        spot, amount = " ".join(args[:-1]), parse_amount(args[-1])
        receipt = self.table.place(PLAYER, spot, amount)
        console.print(f"bet {receipt.bet_id}: {receipt.message}. "
                      f"Balance {format_cents(self.table.balances[PLAYER])} €")

    def cmd_bets(self, args: list[str]) -> None:
        rnd = self.table.current()
        if not rnd.bets:
            console.print("no bets")
        for bet in rnd.bets:
            prison = f" [yellow](in prison, level {bet.level})[/]" if bet.level else ""
            console.print(f"  {bet.bet_id}: {format_cents(bet.stake)} € on {bet.spot.key}{prison}")

    def cmd_remove(self, args: list[str]) -> None:
        if len(args) != 1 or not args[0].isdigit():
            raise GameError("usage: remove ID")
        self.table.withdraw(PLAYER, int(args[0]))
        balance = format_cents(self.table.balances[PLAYER])
        console.print(f"bet {args[0]} returned. Balance {balance} €")

    def cmd_spin(self, args: list[str]) -> None:
        rnd = self.table.current()
        rotation = self.table.shooter_rotation
        if rotation is not None and rnd.status is Status.BETTING and rnd.bets:
            for bot in BOTS:  # the other players bet the minimum on under or over 7
                spot = ("under_7", "over_7")[self.bot_choice.randrange(2)]
                self.table.place(bot, spot, self.table.game.rules.limits.min)
            shooter = rotation.shooter({b.player for b in rnd.bets})
            console.print("You hold the dice." if shooter == PLAYER
                          else f"{shooter} holds the dice and throws.")
        outcome = self.table.spin()
        for event in rnd.events:
            if event.startswith("throw rejected"):
                console.print(f"[yellow]Dealer: {event}; thrown again.[/]")
        console.print(Text(f"Result: {self.game.describe(outcome)}", style="bold"))
        if rotation is not None and sum(int(x) for x in outcome) == 7:
            console.print("A seven: the dice pass to the next player.")
        if rnd.status is Status.DECIDING:
            for bet_id, options in rnd.pending_choices().items():
                console.print(f"bet {bet_id}: zero — choose {' or '.join(options)} "
                              f"(choose {bet_id} OPTION)")
            return
        self._show_settlement()

    cmd_roll = cmd_spin

    def cmd_choose(self, args: list[str]) -> None:
        if len(args) != 2 or not args[0].isdigit():
            raise GameError("usage: choose ID OPTION")
        self.table.decide(PLAYER, int(args[0]), args[1])
        if self.table.round is not None and self.table.round.status is Status.SETTLED:
            self._show_settlement()

    def cmd_pass(self, args: list[str]) -> None:
        self.table.pass_dice(PLAYER)
        console.print("You pass the dice to the next player.")

    def cmd_void(self, args: list[str]) -> None:
        reason = " ".join(args) or "mis-spin"
        bets = self.table.void(reason, keep_bets=True)
        if self.game.rules.void_rule == "respin":
            console.print(f"Spin void ({reason}): nothing is paid; the wheel is spun again with "
                          f"the {len(bets)} bet(s) standing — type spin.")
        else:
            console.print(f"Round void ({reason}): nothing is paid; {len(bets)} bet(s) stand for "
                          "the next round (remove one to take it back, or bet more).")

    def cmd_history(self, args: list[str]) -> None:
        for record in self.table.history[-10:]:
            mine = [s for s in record["settlements"] if s["player"] == PLAYER]
            result = (record["events"][-2] if record["status"] == "settled"
                      else f"void ({record['void_reason']})")
            bets = ", ".join(f"{s['spot']} {format_cents(s['stake'])}→{format_cents(s['paid'])}"
                             for s in mine)
            console.print(f"{record['round_id']} {record['opened_at'] or ''}: {result}"
                          + (f"; {bets}" if bets else ""))

    def _show_settlement(self) -> None:
        record = self.table.history[-1]
        for s in record["settlements"]:
            if s["player"] != PLAYER:
                continue
            colour = {"win": "green", "lose": "red", "prison": "yellow"}.get(s["result"], "cyan")
            console.print(f"  [{colour}]{s['spot']}: {s['result']}[/], stake "
                          f"{format_cents(s['stake'])} €, paid {format_cents(s['paid'])} €")
        console.print(f"Balance {format_cents(self.table.balances[PLAYER])} €")


def show_layout(game: WagerGame) -> None:
    if isinstance(game, Roulette):
        columns = game.r.wheel.numbers // 3
        grid = RichTable(show_header=False, box=None, padding=(0, 1))
        for _ in range(columns + 1):
            grid.add_column(justify="right")
        for row in (3, 2, 1):
            cells = [Text(" / ".join(game.zeros) if row == 2 else "", style="bold white on green")]
            for col in range(columns):
                n = 3 * col + row
                style = "bold white on red" if n in game.r.groups.red else "bold white on black"
                cells.append(Text(f"{n:>2}", style=style))
            grid.add_row(*cells)
        console.print(grid)
    odds = RichTable(show_header=True, box=None)
    odds.add_column("bet type")
    odds.add_column("pays", justify="right")
    odds.add_column("example")
    for bet_type in game.bet_types():
        odds.add_row(bet_type, game.payout_label(bet_type), game.spots_of(bet_type)[0].key)
    console.print(odds)
