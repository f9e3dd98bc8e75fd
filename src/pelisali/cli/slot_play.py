"""``pelisali play slot-fruit|slot-video``: the RNG slots at the terminal, on a wallet.

The same platform as the server (:mod:`pelisali.platform.slot_rounds`): with ``--account
NAME`` on that player's persistent wallet at their own slot table, without it in quick
mode on a temporary database (:func:`pelisali.cli.quick.quick_wallet`). Each spin and
each free spin is one transaction; the window is drawn with the winning lines' cells
marked, and the free-spin counter shown. With an account, a round left mid-feature
resumes at the next start (GGPoker RNG slots 2.3); in quick mode the house plays the
free spins left at the end.
"""

from __future__ import annotations

import uuid

from rich.table import Table as RichTable
from sqlalchemy import Engine

from pelisali.cli.common import console, euros, fail, split_command, take_lines
from pelisali.cli.platform import open_database
from pelisali.cli.quick import PLAYER, quick_wallet
from pelisali.engine.slots import SlotEngine
from pelisali.money import MoneyError, format_cents, parse_amount
from pelisali.platform import accounts, queries, slot_rounds, tables
from pelisali.platform.db import transaction
from pelisali.platform.ledger import LedgerError
from pelisali.platform.slot_family import slot_engine
from pelisali.platform.slot_rounds import SlotView
from pelisali.rng import Rng, SecureRng, SeededRng

HELP = """[bold]commands[/]
  spin [LINES] [BET]   spin LINES lines at BET euros a line (default: the last bet)
  free                 the next free spin; [cyan]free all[/] plays every one left
  pays                 the pay table and the lines
  balance | history | recall ROUND | help | quit"""


def play_slot(game: str, seed: int | None, *, account: str | None = None,
              table: str | None = None, balance: str = "1000") -> None:
    """Play slot ``game`` at the terminal: on ``account``'s wallet at their own slot
    table (or ``table``), or in quick mode on a temporary wallet holding ``balance``."""
    try:
        engine = slot_engine(game)
    except LedgerError as exc:
        fail(str(exc))
    rng: Rng = SeededRng(seed) if seed is not None else SecureRng()
    if account is not None:
        SlotTerminal(open_database(), engine, account, table, rng).run()
        return
    start = euros(balance)
    with quick_wallet(start) as db:
        terminal = SlotTerminal(db, engine, PLAYER, table, rng)
        terminal.run(note=" (quick mode: a wallet for this session)")
        terminal.finish()
        with transaction(db) as session:
            final = queries.wallet(session, PLAYER)
    console.print(f"Final balance {format_cents(final)} € (started with {format_cents(start)} €).")


class SlotTerminal:
    """One player at their slot machine; each command is one transaction."""

    def __init__(self, db: Engine, engine: SlotEngine, player: str, table: str | None,
                 rng: Rng) -> None:
        self.db, self.engine, self.player, self.rng = db, engine, player, rng
        self.table = table or tables.own_table_name(player, engine.game_id)
        bets = engine.rules.bets
        self.lines, self.cents = max(bets.lines_played), min(bets.cents_per_line)
        self.round: SlotView | None = None  # the round in play (free spins left)

    def run(self, note: str = "") -> None:
        """Sit at the machine, then take commands until the player leaves."""
        self.sit(note)
        take_lines("slot> ", self.handle)

    def sit(self, note: str = "") -> None:
        """Open the player's machine (the first time) and show it, with a round left in
        play; a refusal ends the command (exit 2)."""
        rules = self.engine.rules
        try:
            with transaction(self.db) as session:
                accounts.may_play(accounts.find(session, self.player))
                try:
                    tables.find(session, self.table)
                except LedgerError:
                    if self.table != tables.own_table_name(self.player, self.engine.game_id):
                        tables.create(session, self.table, self.engine.game_id)
                    else:
                        tables.own_table(session, self.player, self.engine.game_id)
                self.round = slot_rounds.playing(session, self.table)
                wallet = queries.wallet(session, self.player)
        except LedgerError as exc:
            fail(str(exc))
        console.print(f"[bold]{rules.name.en}[/] — {rules.description.en}")
        console.print(f"{self.player} at {self.table}: balance {format_cents(wallet)} €{note}. "
                      f"Lines {', '.join(map(str, rules.bets.lines_played))}; bets a line "
                      f"{', '.join(format_cents(c) for c in rules.bets.cents_per_line)} €. "
                      f"Draws: {self.rng.name}. Type [cyan]help[/] for help.")
        if self.round is not None:
            console.print(f"round {self.round.round_id}: {self.round.free_left} free spins "
                          "left; resuming where it stopped ([cyan]free[/])")

    def handle(self, line: str) -> bool:
        """Run one command line; False when the player leaves."""
        found = split_command(line)
        if found is None:
            return True
        command, args = found
        if command in ("quit", "exit", "q"):
            return False
        try:
            if command == "spin":
                self.spin(args)
            elif command == "free":
                self.free(all_left=args == ["all"])
            elif command == "pays":
                self.pays()
            elif command == "balance":
                with transaction(self.db) as session:
                    console.print(f"balance {format_cents(queries.wallet(session, self.player))} €")
            elif command == "history":
                self.history()
            elif command == "recall" and len(args) == 1 and args[0].isdigit():
                with transaction(self.db) as session:
                    recalled = tables.recall(session, int(args[0]))
                verdict = ("matches the record" if recalled.same
                           else f"DIFFERS: {recalled.problem}")
                console.print(f"round {recalled.round_id}: replay {verdict}")
            elif command == "help":
                console.print(HELP)
            else:
                console.print(f"[red]unknown command {line!r}; type help[/]")
        except (LedgerError, MoneyError) as exc:
            console.print(f"[red]{exc}[/]")
        return True

    # -- the spins ---------------------------------------------------------------------
    def spin(self, args: list[str]) -> None:
        if self.round is not None:
            console.print(f"[red]{self.round.free_left} free spins left: type free[/]")
            return
        if len(args) > 2 or (args and not args[0].isdigit()):
            console.print("[red]spin [LINES] [BET]: spin 20 0.05[/]")
            return
        lines = int(args[0]) if args else self.lines
        cents = parse_amount(args[1]) if len(args) > 1 else self.cents
        with transaction(self.db) as session:
            done = slot_rounds.spin(session, self.table, self.player, lines, cents,
                                    key=f"terminal:{uuid.uuid4()}", rng=self.rng)
        self.lines, self.cents = lines, cents
        self.show(done)

    def free(self, all_left: bool = False) -> None:
        while self.round is not None:
            with transaction(self.db) as session:
                done = slot_rounds.free_spin(session, self.table, self.player,
                                             self.round.spins_seen, rng=self.rng)
            self.show(done)
            if not all_left:
                return
        if not all_left:
            console.print("[red]no free spins to play: spin[/]")

    def finish(self) -> None:
        """Quick mode's end: the house plays the free spins left, as after 24 hours."""
        if self.round is not None:
            console.print("the free spins left are played out:")
            self.free(all_left=True)

    def show(self, done: SlotView) -> None:
        spin = done.view["spins"][-1]
        marked = {(row, reel) for win in spin["lines"]
                  for reel, row in enumerate(self.engine.rules.paylines[win["line"]])
                  if reel < win["count"]}
        scatter = self.engine.rules.scatter.symbol if self.engine.rules.scatter else None
        grid = RichTable(show_header=False, title=f"round {done.round_id}"
                         f"{' free spin' if spin['free'] else ''}: stops "
                         f"{' '.join(map(str, spin['stops']))}")
        for row, symbols in enumerate(spin["window"]):
            grid.add_row(*(f"[bold reverse]{s}[/]" if (row, reel) in marked
                           else f"[bold yellow]{s}[/]" if s == scatter else s
                           for reel, s in enumerate(symbols)))
        console.print(grid)
        bet = done.view["bet"]["cents"]
        for win in spin["lines"]:
            console.print(f"  line {win['line'] + 1}: {win['count']} x {win['symbol']} pays "
                          f"{format_cents(win['pays'] * bet)} €")
        for win in spin["ways"]:
            console.print(f"  {win['count']} x {win['symbol']} in {win['ways']} ways pays "
                          f"{format_cents(win['pays'] * bet)} €")
        if spin["scatters"] and scatter:
            console.print(f"  {spin['scatters']} x {scatter}")
        self.round = done if done.status == "playing" else None
        if self.round is not None:
            console.print(f"[bold]free spins left: {done.free_left}[/] — win so far "
                          f"{format_cents(done.view['win'])} €")
            return
        bonus = (f" ({format_cents(done.to_bonus or 0)} € of it free-spin winnings to the "
                 "bonus balance)" if done.to_bonus else "")
        console.print(f"stake {format_cents(done.stake)} €, won "
                      f"{format_cents(done.paid or 0)} €{bonus}; balance "
                      f"{format_cents(done.balance)} €")

    def pays(self) -> None:
        rules = self.engine.rules
        table = RichTable("symbol", "count", "pays (coins a way)" if rules.ways
                          else "pays (line bets)")
        for pay in rules.pays:
            table.add_row(pay.symbol, str(pay.count), str(pay.pays))
        if rules.scatter is not None:
            for scatter in rules.scatter.pays:
                table.add_row(rules.scatter.symbol, f"{scatter.count} anywhere",
                              f"{scatter.pays} x the total bet")
        console.print(table)
        for wild in rules.wilds:
            console.print(f"{wild.symbol} stands for {', '.join(wild.substitutes)}"
                          f"{f', x{wild.multiplier}' if wild.multiplier > 1 else ''}")
        if rules.feature is not None:
            feature = rules.feature
            console.print(f"{feature.trigger} x {rules.scatter.symbol if rules.scatter else ''}"
                          f" start {feature.spins} free spins (+{feature.retrigger} in the "
                          f"feature), wins x{feature.multiplier}")
        if rules.ways:
            console.print("any-way pays: a symbol's ways from the leftmost reel, anywhere in "
                          "each reel's column; pays are coins a way")
        else:
            console.print(f"lines (rows from the top, reel by reel): "
                          f"{'; '.join(''.join(map(str, line)) for line in rules.paylines)}")

    def history(self) -> None:
        with transaction(self.db) as session:
            found = queries.history(session, self.player)
        for bet in found.bets[:10]:
            console.print(f"round {bet.round_id}: {bet.spot}, stake {format_cents(bet.stake)} €, "
                          f"paid {format_cents(bet.paid or 0)} €")
