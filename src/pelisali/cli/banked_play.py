"""Three Card Poker, Red Dog, Ultimate Texas Hold'em, Texas Hold'em Bonus, Oasis Stud
Poker and Pai Gow Poker at the terminal, on the wallet of
:mod:`pelisali.platform.banked_rounds`: a registered player's (``--account``) or a quick
one made for the session.

Three Card Poker: ``deal ANTE [PAIR_PLUS]`` (euros; an ante of 0 plays Pair Plus alone),
then ``play`` or ``fold``. Red Dog: ``deal ANTE``, then ``raise AMOUNT`` (up to the ante)
or ``stand``. Ultimate Texas Hold'em: ``deal ANTE [TRIPS] [progressive]`` (the blind, equal
to the ante, goes with it; the word ``progressive`` adds the progressive's fee, where the
casino runs it, as quick mode does), then street by street ``check`` or ``play N`` (N
times the ante: 3 or 4 before the flop, 2 on it, 1 after the river) or, after the river,
``fold``. Texas Hold'em Bonus: ``deal ANTE [BONUS] [progressive]`` (its progressive
likewise), then ``fold`` or ``bet`` (the flop bet, 2 times the ante) before the flop,
``check`` or ``bet`` (1 time the ante) on the flop and on the turn. Oasis Stud Poker:
``deal ANTE``, then once ``exchange 7h 2c`` (the cards to discard, for the fee shown),
then ``raise`` (2 times the ante) or ``fold``; an exchange of all five raises with it.
Pai Gow Poker: ``deal ANTE``, then ``set 7h 2c`` (the two cards of the low hand; the
joker is ``Jk``) or ``house`` (the house way, whose setting is shown beside the seven
cards). All: ``balance``, ``help``, ``quit``. A refusal is printed and changes nothing.
Leaving a quick session with a round waiting, the house completes it as it does after 24
hours (Three Card Poker folds, Red Dog stands, Ultimate Texas Hold'em checks and folds,
Texas Hold'em Bonus folds before the flop and checks after it, Oasis Stud Poker folds,
Pai Gow Poker is set by the house way); on an account the round waits for the player's
return.
"""

from __future__ import annotations

import uuid

from rich.markup import escape
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from pelisali.cli.common import console, euros, fail, next_command
from pelisali.cli.platform import open_database
from pelisali.cli.quick import PLAYER, quick_wallet
from pelisali.games import GameError
from pelisali.money import MoneyError, format_cents, parse_amount
from pelisali.platform import accounts, banked_rounds, tables
from pelisali.platform.banked_family import banked_engine
from pelisali.platform.banked_rounds import BankedView
from pelisali.platform.db import dry_run, transaction
from pelisali.platform.ledger import LedgerError, balance
from pelisali.platform.tables import TableError
from pelisali.rng import Rng, SecureRng, SeededRng

TITLES = {"three-card-poker": "Three Card Poker", "red-dog": "Red Dog",
          "ultimate-texas-holdem": "Ultimate Texas Hold'em",
          "texas-holdem-bonus": "Texas Hold'em Bonus", "oasis-stud": "Oasis Stud Poker",
          "pai-gow-poker": "Pai Gow Poker", "russian-poker": "Russian Poker"}
COMMANDS = {"three-card-poker": "deal ANTE [PAIR_PLUS], play, fold, balance, help, quit",
            "red-dog": "deal ANTE, raise AMOUNT, stand, balance, help, quit",
            "ultimate-texas-holdem": "deal ANTE [TRIPS] [progressive], check, play N, fold, "
                                     "balance, help, quit",
            "texas-holdem-bonus": "deal ANTE [BONUS] [progressive], fold, bet, check, balance, "
                                  "help, quit",
            "oasis-stud": "deal ANTE, exchange CARD [CARD ...], raise, fold, balance, help, "
                          "quit",
            "pai-gow-poker": "deal ANTE, bank AMOUNT (you bank against the dealer's hand), "
                             "set CARD CARD (the low hand), house (the house way), "
                             "balance, help, quit",
            "russian-poker": "deal ANTE, exchange CARD [CARD ...], sixth, raise (the bet), "
                             "fold, take, buy, balance, help, quit"}
PROMPTS = {"three-card-poker": "3cp> ", "red-dog": "red-dog> ", "ultimate-texas-holdem": "uth> ",
           "texas-holdem-bonus": "thb> ", "oasis-stud": "oasis> ", "pai-gow-poker": "pai-gow> ",
           "russian-poker": "russian> "}
SPOTS = {"three-card-poker": ("ante", "pair-plus"), "red-dog": ("ante",),
         "ultimate-texas-holdem": ("ante", "trips"), "texas-holdem-bonus": ("ante", "bonus"),
         "oasis-stud": ("ante",), "pai-gow-poker": ("ante",), "russian-poker": ("ante",)}
OASIS = "oasis-stud"
RUSSIAN = "russian-poker"
DRAWING = (OASIS, RUSSIAN)
"""The games whose box exchanges cards and raises 2 times the ante."""
PAI_GOW = "pai-gow-poker"
HOLDEM = ("ultimate-texas-holdem", "texas-holdem-bonus")
"""The games with a board, shown street by street."""


def play_banked(game: str, seed: int | None, *, account: str | None = None,
                table: str | None = None, start_balance: str = "1000") -> None:
    """Play ``game`` at the terminal: on ``account``'s wallet, or in quick mode on a
    temporary one holding ``start_balance`` euros."""
    name = table or f"{game}-terminal"
    rng: Rng = SeededRng(seed) if seed is not None else SecureRng()
    if account is not None:
        BankedTerminal(open_database(), game, account, name, rng).run()
        return
    start = euros(start_balance)
    with quick_wallet(start) as db:
        if game in banked_rounds.PROGRESSIVE_GAMES:  # the quick casino runs the progressive
            with transaction(db) as session:
                banked_rounds.open_progressive(session, game, actor="quick")
        terminal = BankedTerminal(db, game, PLAYER, name, rng,
                                  note=" (quick mode: a wallet for this session)")
        terminal.run()
        final = terminal.leave()
    console.print(f"Final balance {format_cents(final)} € (started with "
                  f"{format_cents(start)} €).")


class BankedTerminal:
    """One player's terminal at their banked game's table."""

    def __init__(self, db: Engine, game: str, player: str, table: str, rng: Rng,
                 note: str = "") -> None:
        self.db, self.game, self.player, self.table, self.rng = db, game, player, table, rng
        self.view: BankedView | None = None
        try:
            with transaction(db) as session:
                accounts.may_play(accounts.find(session, player))
                try:
                    found = tables.find(session, table)
                except LedgerError:
                    found = tables.create(session, table, game)
                if found.game != game:
                    raise TableError(f"{table} is a {found.game} table, not {game}")
                console.print(f"{TITLES[game]} (standard rules): {player} at {table}, "
                              f"balance {format_cents(self._wallet(session))} €{note}. "
                              f"Limits {format_cents(found.limit_min)} … "
                              f"{format_cents(found.limit_max)} € a bet.")
                self.view = banked_rounds.playing(session, table)
        except (LedgerError, GameError) as exc:
            fail(str(exc))
        console.print(f"Commands: {escape(COMMANDS[game])}.")
        if self.view is not None:
            console.print(f"round {self.view.round_id} waits for your decision")
            self._show(self.view)

    def _wallet(self, session: Session) -> int:
        return balance(session, accounts.wallet_code(self.player))

    def run(self) -> None:
        """Read and carry out commands until ``quit`` or the end of input."""
        while (step := next_command(PROMPTS[self.game])) is not None:
            try:
                self.handle(*step)
            except (LedgerError, MoneyError, GameError) as exc:
                console.print(f"[red]{escape(str(exc))}[/] (nothing changed)")

    def handle(self, command: str, args: list[str]) -> None:
        """Carry out one command; a refusal raises and changes nothing."""
        if command == "deal":
            self.deal(args)
        elif command == "bank" and self.game == PAI_GOW:
            if len(args) != 1:
                raise TableError("usage: bank AMOUNT (you bank: the dealer's hand plays "
                                 "against yours; copies are yours)")
            self._deal_bets({"bank": parse_amount(args[0])})
        elif (command in ("play", "fold", "stand", "raise", "check")
              and self.game != PAI_GOW) or (
                command == "bet" and self.game == "texas-holdem-bonus") or (
                command == "exchange" and self.game in DRAWING) or (
                command in ("sixth", "buy", "take") and self.game == RUSSIAN) or (
                command in ("set", "house") and self.game == PAI_GOW):
            self.decide(command, args)
        elif command == "balance":
            with dry_run(self.db) as session:
                console.print(f"Balance {format_cents(self._wallet(session))} €")
        elif command == "help":
            console.print(f"Commands: {escape(COMMANDS[self.game])}.")
        else:
            raise TableError(f"unknown command {command!r}; commands: {COMMANDS[self.game]}")

    def deal(self, args: list[str]) -> None:
        """Place the bets and deal."""
        spots = SPOTS[self.game]
        progressive = self.game in banked_rounds.PROGRESSIVE_GAMES and bool(args) \
            and args[-1].lower() == banked_rounds.PROGRESSIVE
        if progressive:
            args = args[:-1]
        if not 1 <= len(args) <= len(spots):
            extra = " progressive (ANTE alone will do)" \
                if self.game in banked_rounds.PROGRESSIVE_GAMES else ""
            raise TableError(f"usage: deal {' '.join(s.upper() for s in spots)}{extra}")
        bets = {spot: parse_amount(text) for spot, text in zip(spots, args, strict=False)}
        bets = {spot: amount for spot, amount in bets.items() if amount}
        if progressive:
            bets[banked_rounds.PROGRESSIVE] = banked_rounds.progressive_fee(self.game)
        self._deal_bets(bets)

    def _deal_bets(self, bets: dict[str, int]) -> None:
        """Deal a round with ``bets`` placed (spot to cents)."""
        with transaction(self.db) as session:
            self.view = banked_rounds.deal(session, self.table, self.player, bets,
                                           key=f"cli:{uuid.uuid4().hex}", rng=self.rng)
        asked = sum(bets.values())
        if self.view.staked < asked:  # a bet over the maximum is taken at the maximum
            console.print(f"the table's maximum took {format_cents(self.view.staked)} € of "
                          f"{format_cents(asked)} €; the rest was never debited")
        self._show(self.view)

    def decide(self, command: str, args: list[str]) -> None:
        """The decision of the round waiting."""
        if command == "exchange":  # the cards as typed: the engine names a wrong one
            if not args:
                raise TableError("usage: exchange CARD [CARD ...] (the cards to discard, "
                                 "e.g. exchange 7h 2c)")
            action = f"exchange {' '.join(args)}"
        elif command == "set":  # likewise: a wrong card or count is the engine's to name
            if not args:
                raise TableError("usage: set CARD CARD (the two cards of the low hand, "
                                 "e.g. set 7h 2c; the joker is Jk)")
            action = f"set {' '.join(args)}"
        elif command == "house":
            if args not in ([], ["way"]):
                raise TableError("usage: house (the house way sets your hand)")
            action = "house"
        elif command == "raise" and self.game in DRAWING:
            if args:
                raise TableError("usage: raise (2 times the ante)")
            action = "raise"
        elif command == "raise":
            if len(args) != 1:
                raise TableError("usage: raise AMOUNT")
            action = f"raise {parse_amount(args[0])}"
        elif command == "play" and self.game == "ultimate-texas-holdem":
            if len(args) != 1 or args[0] not in ("1", "2", "3", "4"):
                raise TableError("usage: play N (N times the ante: "
                                 f"{', '.join(self.view.actions) if self.view else 'play 4'})")
            action = f"play {args[0]}"
        elif command == "bet":  # the street's bet on offer (or the one named)
            offered = [a for a in (self.view.actions if self.view else ()) if a.startswith("bet ")]
            if len(args) > 1 or (args and args[0] not in ("flop", "turn", "river")):
                raise TableError(f"usage: bet (now: {', '.join(offered) or 'no bet open'})")
            action = f"bet {args[0]}" if args else (offered[0] if offered else "bet")
        elif args:
            raise TableError(f"usage: {command}")
        else:
            action = command
        with transaction(self.db) as session:
            self.view = banked_rounds.decide(session, self.table, self.player, action,
                                             key=f"cli:{uuid.uuid4().hex}", rng=self.rng)
        self._show(self.view)

    def leave(self) -> int:
        """Complete a round still waiting as the house does; the wallet after it."""
        with transaction(self.db) as session:
            waiting = banked_rounds.playing(session, self.table)
            while waiting is not None and waiting.status == "playing":
                decision = next(d for d in banked_rounds.DEFAULT_DECISION[self.game]
                                if d in waiting.actions)
                console.print(f"round {waiting.round_id} was waiting: the house decides "
                              f"{decision}")
                waiting = banked_rounds.decide(session, self.table, self.player, decision,
                                               key=f"cli:{uuid.uuid4().hex}", rng=self.rng)
                self._show(waiting)
            return self._wallet(session)

    def _show(self, view: BankedView) -> None:
        shown = view.view
        if self.game == OASIS:
            self._show_oasis(view)
            return
        if self.game == RUSSIAN:
            self._show_russian(view)
            return
        if self.game == PAI_GOW:
            self._show_pai_gow(view)
            return
        if self.game in HOLDEM:
            hand = f" ({shown['hand'].replace('_', ' ')})" if shown.get("hand") else ""
            console.print(f"Your cards: {' '.join(shown['cards'])}; board: "
                          f"{' '.join(shown['board']) or '-'}{hand}")
            if shown["dealer"]:
                named = shown.get("dealer_hand")  # none after a fold before the flop
                console.print(f"Dealer: {' '.join(shown['dealer'])}"
                              + (f" ({named.replace('_', ' ')})" if named else ""))
        elif self.game == "three-card-poker":
            console.print(f"Your cards: {' '.join(shown['cards'])} ({shown['hand']})")
            if shown["dealer"]:
                console.print(f"Dealer: {' '.join(shown['dealer'])} ({shown['dealer_hand']})")
        else:
            line = f"Cards: {' '.join(shown['cards'])}"
            if shown.get("spread") is not None:
                line += f", spread {shown['spread']}"
            if shown.get("pays"):
                line += f", pays {shown['pays']}:1"
            console.print(line)
        if view.status == "playing":
            raises = [int(a.split()[1]) for a in view.actions if a.startswith("raise ")]
            offered = [a for a in view.actions if not a.startswith("raise ")]
            if raises:  # a raise of any amount up to the ante
                offered.insert(0, f"raise {format_cents(min(raises))} … "
                                  f"{format_cents(max(raises))}")
            console.print(f"Staked {format_cents(view.staked)} €. Decide: {', '.join(offered)}")
            return
        for s in shown["settlements"]:
            console.print(f"  {s['spot']}: {format_cents(s['stake'])} € → "
                          f"{format_cents(s['paid'])} € ({s['result']})")
        if shown.get("jackpot"):
            won = shown["jackpot"]
            console.print(f"  [bold]{won['jackpot']}: {won['percent']} % of the pool, "
                          f"{format_cents(won['paid'])} €[/]")
        self._settled(view)

    def _settled(self, view: BankedView) -> None:
        console.print(f"round {view.round_id}: staked {format_cents(view.staked)} €, paid "
                      f"{format_cents(view.paid or 0)} €. Balance "
                      f"{format_cents(view.balance)} €")

    def _show_oasis(self, view: BankedView) -> None:
        """Oasis Stud Poker: the box's five cards and hand, the dealer's up card, what was
        exchanged and its fee; while waiting, the choices with what each costs (an
        exchange's fee by the number of cards); at the end the dealer's five and every
        bet."""
        shown = view.view
        hand = f" ({shown['hand'].replace('_', ' ')})" if shown.get("hand") else ""
        console.print(f"Your cards: {' '.join(shown['cards'])}{hand}; the dealer's up card: "
                      f"{shown['dealer_up']}")
        if shown["discarded"]:
            forced = " (all five: the raise goes with them)" \
                if len(shown["discarded"]) == 5 else ""
            console.print(f"Exchanged {' '.join(shown['discarded'])}: fee "
                          f"{format_cents(shown['fees'])} €{forced}")
        if view.status == "playing":
            ante = next(b["stake"] for b in shown["bets"] if b["spot"] == "ante")
            rules = getattr(banked_engine(OASIS), "rules")  # noqa: B009
            offered = ["fold", f"raise ({format_cents(rules.raise_multiple * ante)} €)"]
            if any(a.startswith("exchange ") for a in view.actions):
                fees = ", ".join(f"{n} {'card' if n == 1 else 'cards'} "
                                 f"{format_cents(rules.fee(n, ante))} €"
                                 for n in range(1, 6))
                offered.append(f"exchange CARDS (fee by the number of cards: {fees})")
            console.print(f"Staked {format_cents(view.staked)} €. Decide: {', '.join(offered)}")
            return
        named = (shown.get("dealer_hand") or "").replace("_", " ")
        console.print(f"Dealer: {' '.join(shown['dealer'])} ({named}"
                      f"{'' if shown['dealer_qualifies'] else ', does not qualify'})")
        for s in shown["settlements"]:
            console.print(f"  {s['spot']}: {format_cents(s['stake'])} € → "
                          f"{format_cents(s['paid'])} € ({s['result']})")
        self._settled(view)

    def _show_russian(self, view: BankedView) -> None:
        """Russian Poker: the box's cards and hand, the dealer's up card, the draw made and
        its price; while waiting, the choices with what each costs; when the dealer does
        not qualify, the dealer's five and the answer to give; at the end the dealer's
        hands (the first, and the bought game's), the combinations paid and every bet."""
        shown = view.view
        hand = f" ({shown['hand'].replace('_', ' ')})" if shown.get("hand") else ""
        console.print(f"Your cards: {' '.join(shown['cards'])}{hand}; the dealer's up card: "
                      f"{shown['dealer_up']}")
        if shown["discarded"]:
            console.print(f"Exchanged {' '.join(shown['discarded'])}")
        ante = next(b["stake"] for b in shown["bets"] if b["spot"] == "ante")
        rules = getattr(banked_engine(RUSSIAN), "rules")  # noqa: B009
        if view.status == "playing" and "take" in view.actions:
            console.print(f"Dealer: {' '.join(shown['dealer'])} (does not qualify)")
            console.print(f"Staked {format_cents(view.staked)} €. Decide: take (the ante "
                          f"paid 1:1), buy (a game for the dealer, "
                          f"{format_cents(rules.buy_price * ante)} €)")
            return
        if view.status == "playing":
            offered = ["fold", f"raise (the bet, {format_cents(rules.bet_multiple * ante)} €)"]
            price = format_cents(rules.draw_price * ante)
            if "sixth" in view.actions:
                offered.append(f"sixth (a sixth card, {price} €)")
            if any(a.startswith("exchange ") for a in view.actions):
                offered.append(f"exchange CARDS ({rules.exchange_least} to 5 cards, {price} €)")
            console.print(f"Staked {format_cents(view.staked)} €. Decide: {', '.join(offered)}")
            return
        first = shown["dealer_first"] or shown["dealer"]
        console.print(f"Dealer: {' '.join(first)}"
                      f"{'' if shown['dealer_qualifies'] else ' (does not qualify)'}")
        if shown["put_away"]:
            named = (shown.get("dealer_hand") or "").replace("_", " ")
            console.print(f"The bought game: put away {' '.join(shown['put_away'])}, "
                          f"{' '.join(shown['dealer'])} ({named}"
                          f"{'' if shown['bought_qualifies'] else ', does not qualify'})")
        if shown["combinations"] and shown["decisions"][0] == "raise":
            console.print("Your combinations: " + ", ".join(
                c.replace("_", " ") for c in shown["combinations"]))
        for s in shown["settlements"]:
            console.print(f"  {s['spot']}: {format_cents(s['stake'])} € → "
                          f"{format_cents(s['paid'])} € ({s['result']})")
        self._settled(view)

    def _show_pai_gow(self, view: BankedView) -> None:
        """Pai Gow Poker: the box's seven cards and, while it is to set them, the house
        way's setting of them; at the end both hands of the box (and whether its setting
        fouls) and of the dealer, the bet and the commission on a win."""
        shown = view.view
        banks = any(b["spot"] == "bank" for b in shown["bets"])
        console.print(f"Your cards: {' '.join(shown['cards'])}"
                      + (" (you bank: the dealer's hand plays against yours, copies are "
                         "yours)" if banks else ""))
        if view.status == "playing":
            way = shown["house_way"]
            console.print(f"The house way: high {' '.join(way['high'])} "
                          f"({_named(way['high'])}), low {' '.join(way['low'])}")
            console.print(f"Staked {format_cents(view.staked)} €. Decide: set CARD CARD "
                          "(your low hand), or house")
            return
        foul = " (fouls: the low hand ranks as high as the high hand, and loses)" \
            if shown["foul"] else ""
        console.print(f"Your hands: high {' '.join(shown['high'])} ({_named(shown['high'])}), "
                      f"low {' '.join(shown['low'])}{foul}")
        console.print(f"Dealer (set by the house way): high {' '.join(shown['dealer_high'])} "
                      f"({_named(shown['dealer_high'])}), low {' '.join(shown['dealer_low'])}")
        for s in shown["settlements"]:
            console.print(f"  {s['spot']}: {format_cents(s['stake'])} € → "
                          f"{format_cents(s['paid'])} € ({s['result']})")
        if shown["commission"]:
            rules = getattr(banked_engine(PAI_GOW), "rules")  # noqa: B009
            console.print(f"  commission: {format_cents(shown['commission'])} € "
                          f"({rules.commission_percent} % of the win, rounded "
                          f"{rules.commission_rounding} to the cent), to the house")
        console.print(f"round {view.round_id}: staked {format_cents(view.staked)} €, paid "
                      f"{format_cents(view.paid or 0)} €, commission "
                      f"{format_cents(shown['commission'])} €. Balance "
                      f"{format_cents(view.balance)} €")


def _named(cards: list[str]) -> str:
    """A Pai Gow Poker five-card hand's name in words (``five aces``, ``two pair``)."""
    from pelisali.games.pai_gow import hand_name

    wheel = getattr(banked_engine(PAI_GOW), "rules").wheel  # noqa: B009
    return hand_name(cards, wheel).replace("_", " ")
