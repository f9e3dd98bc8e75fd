"""Baccara, chemin de fer at the terminal, on the wallet of
:mod:`pelisali.platform.chemin_tables`.

Quick mode (no ``--account``): a wallet made for the session, and the player sits with
Aino and Bertil, two other players on wallets of their own who decide as the rule data
says (:data:`BOTS`: a banker puts up ten times the table's least bank and carries a
bank it won up to the table's most; a punter bets the least against the bank; on five and
in the banker's option cells, the rule file's choice). With ``--account NAME`` the
player sits at a shared table of the database (``--table``), where the other seats are
other players at their own terminals or in the browser, and ``table`` shows what they
did.

Commands: ``bank AMOUNT`` (euros: put up the bank when it is offered), ``carry`` (keep a
bank won last coup), ``pass`` (give up the bank between coups, or bet nothing in a coup),
``banco``, ``bet AMOUNT``, ``draw`` / ``stand`` (on five, and as banker in an option
cell), ``table``, ``history``, ``rules``, ``balance``, ``help``, ``quit``. A refusal is
printed and changes nothing. Leaving a quick session with a coup in play, the house
completes it as it does after 24 hours (the rule data's choices).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from pelisali.cli.common import console, euros, fail, next_command
from pelisali.cli.platform import open_database
from pelisali.cli.quick import PLAYER, quick_wallet
from pelisali.engine import IllegalMove
from pelisali.games import GameError
from pelisali.money import MoneyError, format_cents, parse_amount
from pelisali.platform import accounts, chemin_tables
from pelisali.platform.chemin_family import chemin_engine
from pelisali.platform.chemin_tables import CheminView
from pelisali.platform.db import dry_run, transaction
from pelisali.platform.ledger import LedgerError, balance
from pelisali.platform.rounds import TableError, find_table
from pelisali.rng import Rng, SecureRng, SeededRng

BOTS = ("Aino", "Bertil")
"""Quick mode's other players, on their own wallets."""
BOT_BANK = 10
"""A bot puts up this many times the table's least bank."""
MOST_COUPS = 5
"""Coups the other players play among themselves before the player is asked again."""
PROMPT = "chemin> "
COMMANDS = ("bank AMOUNT, carry, pass, banco, bet AMOUNT, draw, stand, table, history, "
            "rules, balance, help, quit")
HELP = """[bold]commands[/]
  bank AMOUNT   put up the bank when it is offered you (euros: [cyan]bank 20[/])
  carry         keep the bank you won last coup for the next
  pass          give up the bank between coups; in a coup, bet nothing
  banco         go banco: alone against the whole bank (the first punter in turn)
  bet AMOUNT    stake against what of the bank is still uncovered ([cyan]bet 5[/])
  draw | stand  your choice on five, or as banker in an option cell
  table         the table now     history   the last coups
  rules | balance | help | quit"""


def play_chemin(seed: int | None, *, account: str | None = None, table: str | None = None,
                start_balance: str = "1000", decks: int | None = None) -> None:
    """Play chemin de fer at the terminal: on ``account``'s wallet at a shared table, or
    in quick mode with Aino and Bertil on a temporary database."""
    name = table or "chemin-de-fer-terminal"
    rng: Rng = SeededRng(seed) if seed is not None else SecureRng()
    if account is not None:
        CheminTerminal(open_database(), account, name, rng, (), decks).run()
        return
    start = euros(start_balance)
    with quick_wallet(start, bots=BOTS) as db:
        terminal = CheminTerminal(db, PLAYER, name, rng, BOTS, decks,
                                  note=" (quick mode: a wallet for this session)")
        terminal.run()
        final = terminal.leave()
    console.print(f"Final balance {format_cents(final)} € (started with "
                  f"{format_cents(start)} €).")


def _key() -> str:
    return f"cli:{uuid.uuid4().hex}"


class CheminTerminal:
    """One player's terminal at a chemin de fer table (and, in quick mode, the other
    players' decisions)."""

    def __init__(self, db: Engine, player: str, table: str, rng: Rng,
                 bots: tuple[str, ...] = (), decks: int | None = None, note: str = "") -> None:
        self.db, self.player, self.table, self.rng, self.bots = db, player, table, rng, bots
        self.shown: int | None = None  # the last coup whose result was shown
        try:
            with transaction(db) as session:
                accounts.may_play(accounts.find(session, player))
                try:
                    found = find_table(session, table)
                except LedgerError:
                    found = chemin_tables.create_chemin_table(session, table, decks)
                if found.game != chemin_tables.GAME:
                    raise TableError(f"{table} is a {found.game} table, not chemin de fer")
                seated = chemin_tables.view(session, table, player).seats
                for who in (player, *bots):
                    if who not in seated:
                        chemin_tables.sit(session, table, who, key=_key())
                console.print(f"Baccara, chemin de fer (standard rules): {player} at "
                              f"{table}, balance {format_cents(self._wallet(session))} €"
                              f"{note}. A bank is {format_cents(found.limit_min)} … "
                              f"{format_cents(found.limit_max)} €; the house takes "
                              f"{chemin_engine().rules.commission_percent} % of the bank's "
                              "wins.")
        except (LedgerError, GameError) as exc:
            fail(str(exc))
        console.print(f"Commands: {COMMANDS}.")
        self.others()
        self.show()

    def _wallet(self, session: Session) -> int:
        return balance(session, accounts.wallet_code(self.player))

    def run(self) -> None:
        """Read and carry out commands until ``quit`` or the end of input."""
        while (step := next_command(PROMPT)) is not None:
            try:
                self.handle(*step)
            except (LedgerError, MoneyError, GameError, IllegalMove) as exc:
                console.print(f"[red]{exc}[/] (nothing changed)")

    def handle(self, command: str, args: list[str]) -> None:
        """Carry out one command; a refusal raises and changes nothing."""
        simple: dict[str, Callable[[], None]] = {
            "table": self.show, "history": self.history, "rules": self.rules,
            "balance": self.balance, "help": lambda: console.print(HELP)}
        if command in simple:
            if args:
                raise TableError(f"usage: {command}")
            simple[command]()
            return
        if command in ("bank", "bet"):
            if len(args) != 1:
                raise TableError(f"usage: {command} AMOUNT (euros)")
            self.move(command, parse_amount(args[0]))
        elif command in ("carry", "pass", "banco", "draw", "stand"):
            if args:
                raise TableError(f"usage: {command}")
            self.move(command, None)
        else:
            raise TableError(f"unknown command {command!r}; commands: {COMMANDS}")

    # -- moves ----------------------------------------------------------------------------
    def _view(self, session: Session, who: str | None = None) -> CheminView:
        return chemin_tables.view(session, self.table, who or self.player)

    def move(self, command: str, amount: int | None) -> None:
        """The player's move: between coups as banker, or in the coup on their turn."""
        with transaction(self.db) as session:
            now = self._view(session)
            if now.status == "playing":
                if command in ("bank", "carry"):
                    raise TableError(f"coup {now.round_id} is in play: {self._asked(now)}")
                text = command if amount is None else f"bet {amount}"
                chemin_tables.act(session, self.table, self.player, text, key=_key(),
                                  rng=self.rng)
            elif command == "bank" and amount is not None:
                chemin_tables.put_up(session, self.table, self.player, amount, key=_key(),
                                     rng=self.rng)
            elif command == "carry":
                chemin_tables.carry(session, self.table, self.player, key=_key(), rng=self.rng)
            elif command == "pass":
                chemin_tables.pass_bank(session, self.table, self.player, key=_key())
                console.print(f"you pass the bank{self._withdrawn(now)}")
            else:
                raise TableError(f"no coup is in play: {self._asked(now)}")
        self.others()
        self.show()

    @staticmethod
    def _withdrawn(now: CheminView) -> str:
        return f" and withdraw {format_cents(now.bank)} €" if now.bank else ""

    def others(self) -> None:
        """Quick mode: the other players decide until it is the player's turn (at most
        :data:`MOST_COUPS` coups without them)."""
        coups = 0
        while self.bots and coups < MOST_COUPS:
            with transaction(self.db) as session:
                now = self._view(session)
                who = now.to_move
                if who not in self.bots:
                    return
                if now.status != "playing":
                    self._show_result(session, now)
                    coups += 1
                said = self._bot(session, who, now)
            console.print(f"[dim]{who} {said}[/]")

    def _bot(self, session: Session, who: str, now: CheminView) -> str:
        """``who``'s move as the rule data and :data:`BOTS` say; what they did, in words."""
        mine = self._view(session, who)
        held = balance(session, accounts.wallet_code(who))
        limits = chemin_engine().limits
        if now.status != "playing":  # the bot holds the bank between coups
            if mine.bank and mine.bank <= min(held, limits.maximum):
                chemin_tables.carry(session, self.table, who, key=_key(), rng=self.rng)
                return f"carries the bank of {format_cents(mine.bank)} €"
            bank = min(BOT_BANK * limits.minimum, limits.maximum)
            if mine.bank or held < bank:
                chemin_tables.pass_bank(session, self.table, who, key=_key())
                return f"passes the bank{self._withdrawn(mine)}"
            chemin_tables.put_up(session, self.table, who, bank, key=_key(), rng=self.rng)
            return f"puts up a bank of {format_cents(bank)} €"
        bets = [int(a.split()[1]) for a in mine.actions if a.startswith("bet ")]
        if bets:
            least = min(bets)
            text = f"bet {least}" if least <= held else "pass"
        else:
            text = chemin_tables.rule_choice_now(session, self.table)
        chemin_tables.act(session, self.table, who, text, key=_key(), rng=self.rng)
        return {"pass": "passes", "draw": "draws", "stand": "stands"}.get(
            text, f"bets {format_cents(int(text.split()[-1]))} € against the bank")

    # -- what the player sees ---------------------------------------------------------------
    def _asked(self, now: CheminView) -> str:
        if now.to_move is None:
            return "the bank waits for a second player"
        if now.to_move != self.player:
            return f"waiting for {now.to_move}"
        offered = []
        for action in now.actions:
            word, _, cents = action.partition(" ")
            offered.append(f"{word} {format_cents(int(cents))}" if cents else word)
        return "your move: " + ", ".join(offered)

    def show(self) -> None:
        """The table now: the bank and the coup in play, or the last coup's result and who
        holds the bank."""
        with dry_run(self.db) as session:
            now = self._view(session)
            if now.status == "playing":
                coup = now.coup or {}
                stakes = ", ".join(f"{self._name(now, s['seat'])} "
                                   f"{'banco ' if s['spot'] == 'banco' else ''}"
                                   f"{format_cents(s['stake'])} €"
                                   for s in coup.get("stakes", []) if s["spot"] != "bank")
                console.print(f"coup {now.round_id}: {now.banker} holds a bank of "
                              f"{format_cents(now.bank)} €; against it: {stakes or 'nothing yet'}")
                if coup.get("cards"):
                    console.print(self._cards(coup))
            else:
                self._show_result(session, now)
                holder = "you" if now.banker == self.player else now.banker
                what = (f"a bank of {format_cents(now.bank)} € to carry or pass"
                        if now.bank else "the bank to put up or pass")
                console.print(f"{holder} {'hold' if holder == 'you' else 'holds'} {what}")
            console.print(self._asked(now))

    def _show_result(self, session: Session, now: CheminView) -> None:
        """The last coup's result, once."""
        if now.round_id is None or now.round_id == self.shown or now.coup is None:
            return
        self.shown = now.round_id
        coup = now.coup
        if coup["cards"]:
            console.print(self._cards(coup))
        result = coup["result"]
        console.print(f"coup {now.round_id}: " + (
            "nobody bet against the bank" if result is None else
            "égalité: the stakes stay" if result == "tie" else
            f"the {'player' if result == 'player' else 'bank'} wins"))
        for s in coup["settlements"]:
            console.print(f"  your {s['spot']}: {format_cents(s['stake'])} € → "
                          f"{format_cents(s['paid'])} € ({s['result']})")
        console.print(f"Balance {format_cents(self._wallet(session))} €")

    @staticmethod
    def _name(now: CheminView, seat: int) -> str:
        return now.seats[seat] if seat < len(now.seats) else f"seat {seat}"

    @staticmethod
    def _cards(coup: dict[str, object]) -> str:
        hands: dict[str, list[str]] = {"player": [], "banker": []}
        for side, card in coup["cards"]:  # type: ignore[attr-defined]
            hands[side].append(card or "??")
        points = {side: coup.get(f"{side}_points") for side in hands}
        shown = {side: f" ({points[side]})" if points[side] is not None else ""
                 for side in hands}
        return (f"player: {' '.join(hands['player'])}{shown['player']}   "
                f"banker: {' '.join(hands['banker']) or '-'}{shown['banker']}")

    def history(self) -> None:
        with dry_run(self.db) as session:
            lines = chemin_tables.coups(session, self.table, self.player)
        if not lines:
            console.print("no coup yet")
        for line in lines:
            banker = "your" if line.banker == self.player else f"{line.banker}'s"
            console.print(f"coup {line.round_id}: {banker} bank "
                          f"{format_cents(line.bank)} €, {line.cards}, {line.result}; you "
                          f"staked {format_cents(line.staked)} €, back "
                          f"{format_cents(line.paid)} €")

    def rules(self) -> None:
        rules = chemin_engine().rules
        limits = chemin_engine().limits
        console.print(f"{rules.name.fi} / {rules.name.sv} / {rules.name.en} "
                      f"({rules.sections.get('game', rules.standard)})")
        console.print(f"{rules.decks} decks. The bank passes among the players; the punters "
                      "bet against it in turn from the banker's right, the first may go "
                      "banco; what nobody covers goes back to the banker.")
        console.print(f"The player's hand: 0-{rules.player_draws_to} draws, "
                      f"{rules.player_option} is the choice of the largest stake "
                      f"(draw or stand), 6-7 stand, 8-9 are shown at once.")
        options = ", ".join(f"{total} against a third card {third}"
                            for total, third in sorted(rules.options))
        console.print(f"The banker draws by the tableau; the banker's choices: {options}.")
        console.print(f"Even money either way; a tie is void; the house takes "
                      f"{rules.commission_percent} % of the bank's wins. A bank is "
                      f"{format_cents(limits.minimum)} … {format_cents(limits.maximum)} €.")

    def balance(self) -> None:
        with dry_run(self.db) as session:
            console.print(f"Balance {format_cents(self._wallet(session))} €")

    def leave(self) -> int:
        """Complete a coup still in play as the house does after 24 hours; the wallet
        after it."""
        with transaction(self.db) as session:
            now = self._view(session)
            if now.status == "playing" and now.round_id is not None:
                done = chemin_tables.complete_coup(session, now.round_id, self.rng)
                console.print(f"coup {now.round_id} was in play: {done}")
        self.show()
        with dry_run(self.db) as session:
            return self._wallet(session)
