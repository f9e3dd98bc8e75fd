"""``pelisali play punto-banco|blackjack``: the card games at the terminal, on a wallet.

One loop for both modes, on the platform's card tables (:mod:`pelisali.platform.card_rounds`):
with ``--account NAME`` on that player's persistent wallet, without it in quick mode on a
temporary database (:func:`pelisali.cli.quick.quick_wallet`). The bets a player puts
down are held by the terminal until ``deal``, as chips on the layout before "no more
bets": each is checked at once by placing it with the others held in a transaction that
rolls back, and ``deal`` places them all and deals in one transaction. A blackjack
decision (insurance, hit, stand, double, split) is one transaction. With an account, a
blackjack round left in play resumes at the next start; in quick mode the house
completes it at the end (insurance declined, open hands stand).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass

from rich.table import Table as RichTable
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from pelisali.cli.common import console, euros, fail, next_command
from pelisali.cli.platform import open_database, remind
from pelisali.cli.quick import PLAYER, quick_wallet
from pelisali.games import GameError
from pelisali.games.blackjack_rules import BlackjackConfig
from pelisali.games.punto_banco import BETS, PuntoBancoConfig
from pelisali.games.round import Receipt
from pelisali.money import MoneyError, format_cents, parse_amount
from pelisali.platform import accounts, queries, tables
from pelisali.platform.card_rounds import BlackjackView, CoupResult
from pelisali.platform.db import dry_run, transaction
from pelisali.platform.ledger import LedgerError, now_utc
from pelisali.platform.models import GameTable
from pelisali.platform.tables import Played, TableError
from pelisali.rng import Rng, SecureRng, SeededRng
from pelisali.rules.banked import blackjack_rule_set_marking

COMMANDS = {
    "punto-banco": "bet player|banker|tie AMOUNT, remove ID, bets, deal, balance, history, "
                   "help, quit",
    "blackjack": "bet SEAT AMOUNT, remove SEAT, bets, deal, insure AMOUNT, no, hit, stand, "
                 "double [AMOUNT], split, balance, history, help, quit",
}
HELP = {
    "punto-banco": """[bold]commands[/]
  bet player|banker|tie AMOUNT   put a bet down: [cyan]bet banker 10[/]
  remove ID                      take a bet back before the deal
  bets                           the bets you have down
  deal                           no more bets: the bets are placed, the coup dealt and paid
  balance | history | help | quit""",
    "blackjack": """[bold]commands[/]
  bet SEAT AMOUNT      put a bet down on a seat (1-7, as many as you like): [cyan]bet 1 10[/]
  remove SEAT          take a bet back before the deal
  bets                 the bets you have down
  deal                 no more bets: the bets are placed and the cards dealt
  insure AMOUNT | no   answer the insurance offer under the dealer's ace
  hit | stand | double [AMOUNT] | split   the decisions offered
  balance | history | help | quit""",
}
ROUNDS_SHOWN = 10


@dataclass(frozen=True)
class HeldBet:
    """A bet put down at the terminal and not yet placed: ``number`` is the bet's number
    shown (punto banco) or its seat (blackjack)."""

    number: int
    spot: str
    amount: int  # as asked
    stake: int  # as the table accepts it: the excess over the maximum is returned


def play_cards(kind: str, settings: dict[str, str | bool], seed: int | None, *,
               account: str | None = None, table: str | None = None,
               balance: str = "1000") -> None:
    """Play ``kind`` (``punto-banco`` or ``blackjack``) at the terminal: on ``account``'s
    wallet, or in quick mode on a temporary one holding ``balance`` euros. The table
    (``table``, by default ``KIND-terminal``) is created with ``settings`` if missing."""
    name = table or f"{kind}-terminal"
    rng: Rng = SeededRng(seed) if seed is not None else SecureRng()
    if account is not None:
        terminal = CardTerminal(open_database(), kind, account, name, rng)
        terminal.sit(settings)
        terminal.run()
        return
    start = euros(balance)
    with quick_wallet(start) as db:
        terminal = CardTerminal(db, kind, PLAYER, name, rng)
        terminal.sit(settings, note=" (quick mode: a wallet for this session)")
        terminal.run()
        final = terminal.finish_round()
    console.print(f"Final balance {format_cents(final)} € "
                  f"(started with {format_cents(start)} €).")


class CardTerminal:
    """One player's terminal at a punto banco or blackjack table of the database."""

    def __init__(self, db: Engine, game: str, player: str, table: str, rng: Rng) -> None:
        self.db, self.game, self.player, self.table, self.rng = db, game, player, table, rng
        self.held: dict[int, HeldBet] = {}
        self.next_number = 1  # punto banco: the number of the next bet put down
        self.view: BlackjackView | None = None  # blackjack: the round in play
        self.started = now_utc()

    # -- the session ---------------------------------------------------------------------
    def sit(self, settings: dict[str, str | bool], note: str = "") -> None:
        """Sit at the table (created with ``settings`` if missing), show it, and pick up a
        blackjack round left in play; a refusal ends the command (exit 2)."""
        wallet = 0
        try:
            with transaction(self.db) as session:
                accounts.may_play(accounts.find(session, self.player))
                try:
                    table = tables.find(session, self.table)
                except LedgerError:
                    table = tables.create(session, self.table, self.game, settings=settings)
                if table.game != self.game:
                    raise TableError(f"{self.table} is a {table.game} table, not {self.game}")
                console.print(f"{self.player} at table {self.table}: balance "
                              f"{format_cents(self._wallet(session))} €{note}. "
                              f"Limits {format_cents(table.limit_min)} … "
                              f"{format_cents(table.limit_max)} € a bet.")
                console.print(_rules_line(table))
                if self.game == "blackjack":
                    self.view = tables.waiting(session, self.table, self.player).dealt
                    wallet = self._wallet(session)
        except (LedgerError, GameError) as exc:
            fail(str(exc))
        console.print(f"Commands: {COMMANDS[self.game]}.")
        if isinstance(self.view, BlackjackView) and self.view.timed_out:
            self._after_decision(self.view, wallet)  # its time ran out while away
        if self.view is not None and self.view.status == "playing":
            console.print(f"round {self.view.round_id} in play: resuming where it stopped")

    def run(self) -> None:
        """Read and carry out commands until ``quit`` or the end of input."""
        while True:
            if self.view is not None and self.view.status == "playing":
                self._show_turn(self.view)
            step = next_command(f"{'baccarat' if self.game == 'punto-banco' else 'blackjack'}> ")
            if step is None:
                return
            try:
                self._remind()
                self.handle(*step)
            except (LedgerError, MoneyError, GameError) as exc:
                console.print(f"[red]{exc}[/] (nothing changed)")

    def handle(self, command: str, args: list[str]) -> None:
        """Carry out one command; a refusal raises and changes nothing."""
        common = {"bet": self.bet, "remove": self.remove, "bets": self.bets,
                  "deal": self.deal, "balance": self.balance, "history": self.history,
                  "help": self.help}
        decisions = {"insure": self.insure, "no": self.insure, "hit": self.decide,
                     "stand": self.decide, "double": self.decide, "split": self.decide}
        if command in common:
            common[command](args)
        elif self.game == "blackjack" and command in decisions:
            decisions[command](command, args)
        else:
            raise TableError(f"unknown command {command!r}; commands: {COMMANDS[self.game]}")

    def finish_round(self) -> int:
        """Complete a blackjack round still in play as the house does (insurance declined,
        open hands stand); the player's wallet after it."""
        view = None
        try:
            with transaction(self.db) as session:
                if self.game == "blackjack":
                    view = tables.waiting(session, self.table, self.player).dealt
                while view is not None and view.status == "playing":
                    view = _blackjack(tables.decide(
                        session, self.table, self.player,
                        tables.Insurance(view.insurance_pending[0], 0) if view.insurance_pending
                        else tables.HandDecision("stand")))
        except LedgerError as exc:  # the stakes of the round stay on the table
            console.print(f"[red]{exc}[/]")
            view = None
        with dry_run(self.db) as session:
            wallet = self._wallet(session)
        if view is not None:
            console.print(f"round {view.round_id} was in play: the house completes it "
                          "(insurance declined, open hands stand)")
            self._show_blackjack(view, wallet, then="")
        return wallet

    # -- the bets held until the deal --------------------------------------------------
    def bet(self, args: list[str]) -> None:
        """Put a bet down: checked at once with those held, kept until the deal."""
        if self.game == "blackjack":
            if len(args) != 2 or not args[0].isdigit():
                raise TableError("usage: bet SEAT AMOUNT")
            number, spot = int(args[0]), args[0]
        else:
            if len(args) != 2:
                raise TableError(f"usage: bet {'|'.join(BETS)} AMOUNT")
            number, spot = self.next_number, args[0].lower()
        amount = parse_amount(args[1])
        new = HeldBet(number, spot, amount, amount)
        with dry_run(self.db) as session:
            receipt = self._place(session, [*self.held.values(), new])[-1]
            after = self._wallet(session)
        self.held[number] = HeldBet(number, spot, amount, receipt.accepted)
        if self.game == "punto-banco":
            self.next_number += 1
            console.print(f"bet {number}: {receipt.message}. Balance {format_cents(after)} €")
        else:
            console.print(f"{receipt.message}. Balance {format_cents(after)} €")

    def remove(self, args: list[str]) -> None:
        """Take a held bet back."""
        what = "SEAT" if self.game == "blackjack" else "ID"
        if len(args) != 1 or not args[0].isdigit():
            raise TableError(f"usage: remove {what}")
        bet = self.held.pop(int(args[0]), None)
        if bet is None:
            raise TableError(f"no bet {args[0]} is down" if self.game == "punto-banco"
                             else f"seat {args[0]} has no bet of yours down")
        with dry_run(self.db) as session:
            left = self._wallet(session) - self._held_total()
        console.print(f"{format_cents(bet.stake)} € returned. Balance {format_cents(left)} €")

    def bets(self, args: list[str]) -> None:
        """The bets held for the next deal."""
        if not self.held:
            console.print("no bets down")
        for bet in self.held.values():
            where = f"seat {bet.number}" if self.game == "blackjack" else f"bet {bet.number}"
            console.print(f"  {where}: {format_cents(bet.stake)} €"
                          + ("" if self.game == "blackjack" else f" on {bet.spot}"))

    def deal(self, args: list[str]) -> None:
        """No more bets: place every held bet and deal, in one transaction."""
        with transaction(self.db) as session:
            self._place(session, list(self.held.values()))
            dealt = tables.play_round(session, self.table, self.rng).dealt
            # The table's game is this terminal's (checked when it sat down).
            coup = dealt if isinstance(dealt, CoupResult) else None
            view = dealt if isinstance(dealt, BlackjackView) else None
            wallet = self._wallet(session)
        self.held.clear()
        self.next_number = 1
        if coup is not None:
            self._show_coup(coup, wallet)
        elif view is not None:
            self.view = view
            if view.status == "playing":
                for hand in view.hands:
                    console.print(f"Seat {hand.seat}: {hand.text}")
                console.print(f"Dealer: {view.dealer[0]} and a card face down")
            else:
                self._show_blackjack(view, wallet)

    # -- blackjack decisions ----------------------------------------------------------
    def insure(self, command: str, args: list[str]) -> None:
        """Answer the insurance offer of the player's first seat asked: an amount, or no."""
        if command == "insure" and len(args) != 1:
            raise TableError("usage: insure AMOUNT, or no")
        amount = 0 if command == "no" else parse_amount(args[0])
        with transaction(self.db) as session:
            view = tables.waiting(session, self.table, self.player).dealt
            mine = [] if view is None else [
                n for n in view.insurance_pending
                if any(h.seat == n and h.player == self.player for h in view.hands)]
            if not mine:
                raise TableError("no insurance is waiting for your answer")
            view = _blackjack(tables.decide(session, self.table, self.player,
                                            tables.Insurance(mine[0], amount)))
            wallet = self._wallet(session)
        self._after_decision(view, wallet)

    def decide(self, command: str, args: list[str]) -> None:
        """Hit, stand, double (for AMOUNT when less than the bet) or split."""
        extra = parse_amount(args[0]) if command == "double" and args else None
        with transaction(self.db) as session:
            view = _blackjack(tables.decide(session, self.table, self.player,
                                            tables.HandDecision(command, extra)))
            wallet = self._wallet(session)
        self._after_decision(view, wallet)

    def _after_decision(self, view: BlackjackView, wallet: int) -> None:
        self.view = view
        if view.timed_out:
            console.print(f"[yellow]The time to decide ran out: {view.timed_out} "
                          f"decision{'s' if view.timed_out > 1 else ''} made for you (the "
                          "hand stands, insurance is declined); what you sent after it was "
                          "not made.[/]")
        if view.status != "playing":
            self._show_blackjack(view, wallet)

    # -- what the player asks to see ----------------------------------------------------
    def balance(self, args: list[str]) -> None:
        with dry_run(self.db) as session:
            wallet = self._wallet(session)
        held = self._held_total()
        console.print(f"Balance {format_cents(wallet - held)} €" + (
            f" ({format_cents(held)} € down for the next deal)" if held else ""))

    def history(self, args: list[str]) -> None:
        """The player's last rounds at this table, oldest first."""
        with dry_run(self.db) as session:
            lines = queries.recent_rounds(session, self.player, self.table, ROUNDS_SHOWN)
        if not lines:
            console.print("no rounds played yet")
        for line in lines:
            console.print(f"round {line.round_id}: {line.summary}; " + ", ".join(
                f"{spot} {format_cents(stake)}→{'…' if paid is None else format_cents(paid)}"
                for spot, stake, paid in line.bets))

    def help(self, args: list[str]) -> None:
        console.print(HELP[self.game])

    # -- helpers -----------------------------------------------------------------------
    def _place(self, session: Session, bets: list[HeldBet]) -> list[Receipt]:
        # Nothing held: the deal itself says there are no bets on the table.
        return tables.place(session, self.table, self.player,
                            [(bet.spot, bet.amount) for bet in bets],
                            f"cli-{uuid.uuid4()}") if bets else []

    def _wallet(self, session: Session) -> int:
        return queries.wallet(session, self.player)

    def _held_total(self) -> int:
        return sum(bet.stake for bet in self.held.values())

    def _remind(self) -> None:
        with dry_run(self.db) as session:
            self.started = remind(accounts.find(session, self.player), self.started)

    def _show_coup(self, coup: CoupResult, wallet: int) -> None:
        console.print(f"[bold]{coup.description}[/]")
        mine = [s for s in coup.settlements if s.player == self.player]
        for s in mine:
            console.print(f"  {s.spot}: {s.result}, stake {format_cents(s.stake)} €, paid "
                          f"{format_cents(s.paid)} €"
                          + (f" (house rounding {s.rounding} cent)" if s.rounding else ""))
        console.print(f"round {coup.round_id}: paid {format_cents(sum(s.paid for s in mine))}"
                      f" €; balance {format_cents(wallet)} €")
        if coup.last_hand:
            console.print("[yellow]The cut card came out: that was the last hand before the "
                          "shuffle.[/]")

    def _show_turn(self, view: BlackjackView) -> None:
        """What is waiting, and for whom."""
        if view.insurance_pending:
            seat = view.insurance_pending[0]
            console.print(f"Dealer shows {view.dealer[0]}. Seat {seat}: insurance? "
                          f"[cyan]insure AMOUNT[/] (up to "
                          f"{format_cents(view.insurance_max[seat])}) or [cyan]no[/]"
                          + _time_left(view))
        elif view.turn is not None:
            seat, number = view.turn
            hand = next(h for h in view.hands if (h.seat, h.hand) == view.turn)
            which = f" hand {number}" if sum(h.seat == seat for h in view.hands) > 1 else ""
            whose = "" if view.to_act == self.player else f" ({view.to_act})"
            console.print(f"Seat {seat}{which}{whose}: {hand.text} against dealer "
                          f"{view.dealer[0]}. Choose: [cyan]{', '.join(view.actions)}[/]"
                          + ("  (double AMOUNT for less)" if "double" in view.actions else "")
                          + _time_left(view))

    def _show_blackjack(self, view: BlackjackView, wallet: int,
                        then: str = " Place bets for the next round.") -> None:
        """A finished round: the dealer's cards, the hands and what they were paid."""
        if view.status == "void":
            console.print(f"[yellow]round {view.round_id} is void: the shoe ran out; every "
                          f"stake is returned.[/] Balance {format_cents(wallet)} €")
            return
        console.print(f"[bold]Dealer: {' '.join(view.dealer)}[/]")
        for hand in view.hands:
            split = sum(h.seat == hand.seat for h in view.hands) > 1
            console.print(f"  Seat {hand.seat}" + (f" hand {hand.hand}" if split else "")
                          + f": {hand.text}")
        mine = [s for s in view.settlements if s.player == self.player]
        for s in mine:
            colour = {"win": "green", "blackjack": "green", "lose": "red"}.get(s.result, "cyan")
            console.print(f"  [{colour}]{s.spot}: {s.result}[/], stake "
                          f"{format_cents(s.stake)} €, paid {format_cents(s.paid)} €")
        console.print(f"round {view.round_id}: paid {format_cents(sum(s.paid for s in mine))}"
                      f" €; balance {format_cents(wallet)} €.{then}")


def _time_left(view: BlackjackView) -> str:
    """The decision's time, as the table counts it (RULINGS: then the hand stands)."""
    left = view.seconds_left()
    if left is None:
        return ""
    return f"  [dim]({round(left)} s to decide, then the hand stands)[/]"


def _rules_line(table: GameTable) -> str:
    settings: dict[str, str | bool] = json.loads(table.settings)
    if table.game == "punto-banco":
        pb = PuntoBancoConfig.from_settings(settings)
        return (f"[bold]Punto banco[/] — player 1:1, banker 1:1 less 5 % commission, tie 8:1;"
                f" player and banker bets are returned on a tie. {pb.decks} decks, cut card "
                f"{pb.cut_cards_from_back} cards from the back.")
    bj = BlackjackConfig.from_settings(settings)
    rule_set = str(settings.get("rule_set", "ggpoker"))
    marking = "" if rule_set == "ggpoker" else f" {blackjack_rule_set_marking(rule_set)}."
    seventeen = "hits soft 17" if bj.dealer_hits_soft_17 else "stands on all 17s"
    return (f"[bold]Blackjack[/] — dealer draws to 16 and {seventeen}; blackjack pays "
            f"{bj.blackjack_pays}, insurance {bj.insurance_pays}. {bj.decks} decks. Each "
            f"decision and the insurance offer has {bj.decision_seconds} s; then the hand "
            f"stands and insurance is declined.{marking}")


    return None


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


def _blackjack(played: Played) -> BlackjackView:
    """The blackjack round a decision left (the table is this terminal's blackjack table,
    checked when it sat down)."""
    if not isinstance(played.dealt, BlackjackView):
        raise TableError(f"round {played.round_id} is not a blackjack round")
    return played.dealt
