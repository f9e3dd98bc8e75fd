"""``pelisali play`` for the wheel and dice games: one terminal loop on the wallet.

With ``--account`` the loop plays on a registered player's wallet in the database;
without it on a quick wallet (:mod:`pelisali.cli.quick`). Either way every bet, draw,
choice and payout goes through the platform's table functions
(:mod:`pelisali.platform.tables`, :mod:`pelisali.platform.rounds`), so a terminal round
is recorded, settled in the ledger and recalled exactly as one played in the browser.

The chips a player puts down are held by the terminal until the draw, as on a layout
before "no more bets": each bet is checked at once by placing the held bets in a
transaction that rolls back (so a refusal shows at once and changes nothing), a bet
can be taken back, and the draw places them all and settles in one transaction.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from rich.table import Table as RichTable
from rich.text import Text
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from pelisali.cli.common import console, euros, fail, split_command, take_lines
from pelisali.cli.platform import open_database, remind
from pelisali.cli.quick import PLAYER, quick_wallet
from pelisali.games import GameError, WagerGame
from pelisali.games.dice import ShooterRotation
from pelisali.games.roulette import Roulette
from pelisali.games.round import Settlement
from pelisali.money import MoneyError, format_cents, parse_amount
from pelisali.platform import accounts, queries, tables
from pelisali.platform.db import dry_run, transaction
from pelisali.platform.ledger import LedgerError, balance, now_utc
from pelisali.rng import Rng, SecureRng, SeededRng

BOTS = ("Aino", "Bertil")  # quick mode's other players at a shooter table
REJECTED_THROW = 12  # shooter method: the dealer rejects about one throw in twelve
THROW_FAULTS = ("a die left the throwing area", "the dice landed stacked",
                "a die landed cocked")

HELP = """[bold]commands[/]
  bet SPOT AMOUNT   put a bet down: [cyan]bet red 5[/], [cyan]bet split 0-1 2.50[/]
  bets              your bets on the table
  remove ID         take a bet back before the draw
  spin | roll       no more bets: the bets are placed, drawn and settled
  choose ID OPTION  answer a choice (roulette D: prison, half or quarter)
  pass              hand the dice on (Tuplanoppa, shooter method)
  void REASON       quick mode, as the dealer: declare the round void before the draw
  jackpot NAME      take part in the table's jackpot this round
  layout            the betting spots and their odds
  balance | history | rules | help | quit"""


@dataclass
class HeldBet:
    """A bet put down and not yet placed: the number it will have in the round."""

    number: int
    spot: str  # as the player typed it
    amount: int  # as accepted (an amount over the table maximum is cut to it)
    label: str  # "5.00 on red"


def play_wager(game: WagerGame, name: str, variant: str | None,
               settings: dict[str, str | bool], seed: int | None, *, account: str | None,
               table: str | None, balance: str) -> None:
    """The terminal loop of a wheel or dice game, on ``account``'s wallet, or on a quick
    wallet holding ``balance`` euros when ``account`` is None."""
    rng: Rng = SeededRng(seed) if seed is not None else SecureRng()
    table_name = table or f"{name}{'-' + variant if variant else ''}-terminal"
    if account is not None:
        db = open_database()
        WagerTerminal(db, account, table_name, game, rng, seed).run(name, variant, settings)
        return
    start = euros(balance)
    shooter = game.settings.get("drawing") == "shooter"
    with quick_wallet(start, bots=BOTS if shooter else ()) as db:
        terminal = WagerTerminal(db, PLAYER, table_name, game, rng, seed,
                                 bots=BOTS if shooter else (), dealer=True)
        terminal.run(name, variant, settings)
        with transaction(db) as session:
            final = balance_of(session, PLAYER)
    console.print(f"Final balance {format_cents(final)} € (started with {format_cents(start)} €).")


def balance_of(session: Session, player: str) -> int:
    return balance(session, accounts.wallet_code(player))


class WagerTerminal:
    """One player's terminal at a wager table; each command is one transaction."""

    def __init__(self, db: Engine, player: str, table_name: str, game: WagerGame, rng: Rng,
                 seed: int | None, bots: tuple[str, ...] = (), dealer: bool = False) -> None:
        self.db, self.player, self.table_name, self.game = db, player, table_name, game
        self.rng, self.bots, self.dealer = rng, bots, dealer
        self.bot_choice = random.Random(seed)  # noqa: S311 - the bots' choices; draws use self.rng
        self.held: list[HeldBet] = []
        self.deciding = 0  # the round waiting for this player's choices
        self.rotation = (ShooterRotation([player, *bots])
                         if game.settings.get("drawing") == "shooter" else None)
        self.started = now_utc()

    def run(self, name: str, variant: str | None, settings: dict[str, str | bool]) -> None:
        try:
            with transaction(self.db) as session:
                accounts.may_play(accounts.find(session, self.player))
                try:
                    found = tables.find(session, self.table_name)
                except LedgerError:
                    found = tables.create(session, self.table_name, name, variant,
                                          settings=settings)
                if (found.game, found.variant or None) != (self.game.name,
                                                           self.game.variant or None):
                    raise tables.TableError(f"{self.table_name} plays {found.game} "
                                            f"{found.variant or ''}; choose another --table")
                wallet = balance_of(session, self.player)
                low, high = found.limit_min, found.limit_max
        except LedgerError as exc:
            fail(str(exc))
        rules = self.game.rules
        console.print(f"[bold]{rules.name.en}[/] — {rules.description.en}")
        console.print(f"Rules: {rules.section}. {self.player} at table {self.table_name}, "
                      f"balance {format_cents(wallet)} €. Limits per bet {format_cents(low)} … "
                      f"{format_cents(high)} €. Draws: {self.rng.name}. Type [cyan]help[/] "
                      "for help.")
        show_layout(self.game)
        take_lines("pelisali> ", self.handle)

    def handle(self, line: str) -> bool:
        """Run one command line; False when the player leaves."""
        found = split_command(line)
        if found is None:
            return True
        command, args = found
        if command in ("quit", "exit", "q"):
            return False
        handler: Callable[[Session, list[str]], None] | None = getattr(
            self, f"cmd_{command}", None)
        try:
            if handler is None:
                raise GameError(f"unknown command {command!r}; type help")
            with transaction(self.db) as session:
                self.started = remind(accounts.find(session, self.player), self.started)
                handler(session, args)
        except (LedgerError, GameError, MoneyError) as exc:
            console.print(f"[red]{exc}[/] (nothing changed)")
        return True

    # -- what the player sees ----------------------------------------------------------
    def cmd_help(self, session: Session, args: list[str]) -> None:
        console.print(HELP)

    def cmd_layout(self, session: Session, args: list[str]) -> None:
        show_layout(self.game)

    def cmd_rules(self, session: Session, args: list[str]) -> None:
        rules = self.game.rules
        console.print(f"{rules.name.fi} / {rules.name.sv} / {rules.name.en} ({rules.section})")
        console.print(rules.description.fi)
        for choice in rules.choices:
            console.print(f"  • {choice}")
        for key, value in self.game.settings.items():
            console.print(f"  setting {key} = {value}")

    def cmd_balance(self, session: Session, args: list[str]) -> None:
        console.print(f"Balance {format_cents(self._available(session))} €, "
                      f"on the table {format_cents(self._on_table(session))} €")

    def cmd_bets(self, session: Session, args: list[str]) -> None:
        standing = tables.standing_bets(session, self.table_name, self.player)
        if not standing and not self.held:
            console.print("no bets")
        for bet in standing:
            prison = f" [yellow](in prison, level {bet.level})[/]" if bet.level else ""
            console.print(f"  {bet.number}: {format_cents(bet.stake)} € on {bet.spot}{prison}")
        for held in self.held:
            console.print(f"  {held.number}: {held.label}")

    def cmd_history(self, session: Session, args: list[str]) -> None:
        for line in queries.recent_rounds(session, self.player, self.table_name):
            console.print(f"round {line.round_id}: {line.summary}; " + ", ".join(
                f"{spot} {format_cents(stake)}→{'…' if paid is None else format_cents(paid)}"
                for spot, stake, paid in line.bets))

    # -- betting ----------------------------------------------------------------------
    def cmd_bet(self, session: Session, args: list[str]) -> None:
        if len(args) < 2:
            raise GameError("usage: bet SPOT AMOUNT")
        spot, amount = " ".join(args[:-1]), parse_amount(args[-1])
        if self.deciding:
            raise GameError("the round waits for your choice: choose ID OPTION")
        with dry_run(session) as trial:  # every held bet and this one, as the draw places them
            receipts = tables.place(trial, self.table_name, self.player,
                                    [*self._slip(), (spot, amount)], _key())
        receipt = receipts[-1]
        self.held.append(HeldBet(receipt.bet_id, spot, receipt.accepted, receipt.message))
        console.print(f"bet {receipt.bet_id}: {receipt.message}. "
                      f"Balance {format_cents(self._available(session))} €")

    def cmd_remove(self, session: Session, args: list[str]) -> None:
        if len(args) != 1 or not args[0].isdigit():
            raise GameError("usage: remove ID")
        held = next((h for h in self.held if h.number == int(args[0])), None)
        if held is None:
            raise GameError(f"{self.player} has no bet {args[0]} to take back before the draw")
        self.held = [h for h in self.held if h is not held]
        self._renumber(session)
        console.print(f"bet {args[0]} returned. Balance "
                      f"{format_cents(self._available(session))} €")

    def cmd_jackpot(self, session: Session, args: list[str]) -> None:
        from pelisali.platform.jackpots import join

        if len(args) != 1:
            raise GameError("usage: jackpot NAME")
        join(session, args[0], self.player, _key())
        console.print(f"in the {args[0]} jackpot this round")

    # -- the draw -----------------------------------------------------------------------
    def cmd_spin(self, session: Session, args: list[str]) -> None:
        if self.deciding:
            raise GameError("the round waits for your choice: choose ID OPTION")
        standing = tables.standing_bets(session, self.table_name, self.player)
        if not self.held and not standing:
            raise GameError("no bets on the table")
        self._place(session)
        if self.rotation is not None:
            self._bots_bet(session)
        played = tables.play_round(session, self.table_name, self.rng)
        round_id, settled = played.round_id, list(played.settlements)
        faces = queries.round_result(session, round_id)
        console.print(Text(f"Result: {self.game.describe(tuple(faces.split('-')))}",
                           style="bold"))
        if self.rotation is not None:
            total = sum(int(face) for face in faces.split("-"))
            self.rotation.after_throw(total)
            if total == 7:
                console.print("A seven: the dice pass to the next player.")
        if not settled:
            self.deciding = round_id
            for bet_id, options in tables.waiting(session, self.table_name, self.player,
                                                  round_id).choices.items():
                console.print(f"bet {bet_id}: zero — choose {' or '.join(options)} "
                              f"(choose {bet_id} OPTION)")
            return
        self._show_settlement(session, settled)

    cmd_roll = cmd_draw = cmd_spin

    def _bots_bet(self, session: Session) -> None:
        """The other players bet the minimum on under or over 7; then the shooter throws,
        the dealer sending back a throw that does not count."""
        if self.rotation is None:
            raise RuntimeError("bots bet only at a table with a shooter rotation")
        minimum = tables.find(session, self.table_name).limit_min
        for bot in self.bots:
            spot = ("under_7", "over_7")[self.bot_choice.randrange(2)]
            tables.place(session, self.table_name, bot, [(spot, minimum)], _key())
        shooter = self.rotation.shooter({self.player, *self.bots})
        console.print("You hold the dice." if shooter == self.player
                      else f"{shooter} holds the dice and throws.")
        while self.rng.randbelow(REJECTED_THROW) == 0:
            fault = THROW_FAULTS[self.rng.randbelow(len(THROW_FAULTS))]
            console.print(f"[yellow]Dealer: throw rejected ({fault}); thrown again.[/]")

    def cmd_choose(self, session: Session, args: list[str]) -> None:
        if len(args) != 2 or not args[0].isdigit():
            raise GameError("usage: choose ID OPTION")
        if not self.deciding:
            raise GameError("no round is waiting for a choice")
        settled = list(tables.decide(session, self.table_name, self.player,
                                     tables.ZeroChoice(self.deciding, int(args[0]),
                                                       args[1])).settlements)
        if settled:
            self.deciding = 0
            self._show_settlement(session, settled)
        else:
            console.print("choice made")

    def cmd_pass(self, session: Session, args: list[str]) -> None:
        if self.rotation is None:
            raise GameError("this table's dice are drawn by the dealer")
        if self.rotation.shooter({self.player, *self.bots}) != self.player:
            raise GameError(f"{self.player} does not hold the dice")
        self.rotation.pass_dice()
        console.print("You pass the dice to the next player.")

    def cmd_void(self, session: Session, args: list[str]) -> None:
        if not self.dealer:
            raise GameError("only the staff void a round: pelisali table void")
        if self.deciding:
            raise GameError("the draw is made: a round is void before its draw")
        reason = " ".join(args) or "mis-spin"
        held = len(self.held)
        if not held and not tables.standing_bets(session, self.table_name, self.player):
            raise GameError("no bets on the table")
        self._place(session, keep=True)
        tables.void(session, self.table_name, reason, actor="dealer")
        self._renumber(session)
        if self.game.rules.void_rule == "respin":
            console.print(f"Spin void ({reason}): nothing is paid; the wheel is spun again "
                          f"with the {held} bet(s) standing — type spin.")
        else:
            console.print(f"Round void ({reason}): nothing is paid; {held} bet(s) stand for "
                          "the next round (remove one to take it back, or bet more).")

    # -- helpers --------------------------------------------------------------------------
    def _slip(self) -> list[tuple[str, int]]:
        return [(h.spot, h.amount) for h in self.held]

    def _place(self, session: Session, keep: bool = False) -> None:
        """Place the held bets as one slip (``keep``: and hold them for the next round)."""
        if self.held:
            tables.place(session, self.table_name, self.player, self._slip(), _key())
        if not keep:
            self.held = []

    def _renumber(self, session: Session) -> None:
        """The numbers the held bets take when placed now."""
        if not self.held:
            return
        with dry_run(session) as trial:
            receipts = tables.place(trial, self.table_name, self.player, self._slip(), _key())
        for bet, receipt in zip(self.held, receipts, strict=True):
            bet.number = receipt.bet_id

    def _on_table(self, session: Session) -> int:
        standing = tables.standing_bets(session, self.table_name, self.player)
        return sum(b.stake for b in standing) + sum(h.amount for h in self.held)

    def _available(self, session: Session) -> int:
        return balance_of(session, self.player) - sum(h.amount for h in self.held)

    def _show_settlement(self, session: Session, settled: list[Settlement]) -> None:
        for s in settled:
            if s.player != self.player:
                continue
            colour = {"win": "green", "lose": "red", "prison": "yellow"}.get(s.result, "cyan")
            console.print(f"  [{colour}]{s.spot}: {s.result}[/], stake "
                          f"{format_cents(s.stake)} €, paid {format_cents(s.paid)} €")
        console.print(f"Balance {format_cents(balance_of(session, self.player))} €")


def _key() -> str:
    return f"cli-{uuid.uuid4()}"


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
