"""Poker tables on the persistent wallet: buy-ins, rake and the bad-beat jackpot in the
ledger, every hand recorded (RAY 2016 1.4.1.1.1).

A :class:`CashTable` is a :class:`~pelisali.poker.session.PokerTable` whose chips are
money held in the ledger account ``table:NAME``:

- **Buy-in** (RAY 1.4.1.1.1 "Minimiosto": at least the table's minimum to sit, no chips
  bought during a hand): ``player:NAME -> table:NAME`` after the responsible-gaming
  checks (:func:`accounts.may_play`, and the loss limits, which count the chips a player
  has at poker tables as money at risk). **Cash-out** when leaving: ``table:NAME ->
  player:NAME``, every chip.
- **During a hand** nothing moves: chips won and lost between players stay in the table
  account, which always holds every seat's chips (a hand in progress counted as its
  stacks plus the chips committed to it; see :meth:`CashTable.chips_on_table`).
- **At the end of a hand**, in one transaction with its :class:`RoundRow` (status
  ``settled``; the record holds the PHH text with finishing stacks, the seats after
  the hand and every money move): the fee ("korvaus pelin järjestämisestä", A: a
  percentage of the chips bet, capped per hand) ``table -> fee:NAME`` keyed
  ``rake:TABLE:HAND``; the bad-beat contribution ``table -> jackpot:J:accrual``;
  a bad beat's shares ``jackpot:J -> table`` (to the winners' chips at this table, as
  RAY pays it among the players of the table and as the engine's ``PokerTable`` does),
  and the house's top-up to the guaranteed minimum ``house:bank -> jackpot:J``.
  The time charge (B) is :meth:`CashTable.charge_time`, ``table -> fee:NAME`` per player.
- **Seats the house fills** (the terminal's bots; names with a ':') buy in from and cash
  out to ``house:poker-bots``, which :func:`fund_house_seats` fills from the house bank.
- **The gaming day**: :func:`close_day` adds the day's accrual to the pool, as RAY
  writes; :func:`reconcile_jackpot` and :func:`reconcile_table` check the accounts
  against every transfer.

The bad-beat jackpot is a ``Jackpot`` row of kind ``bad-beat`` (``fee`` is the
contribution per qualifying hand, all of it to the pool; ``minimum`` the guaranteed
minimum); the rest of its rules (qualifying hand, players, shares) is kept with the
table's settings. Its accounts follow :mod:`pelisali.platform.jackpots`.

**Crash policy.** Only a recorded hand counts. A hand is recorded in one transaction;
a crash before its commit leaves no trace in the ledger, so the hand is void: every
player has the chips they had at its start, which the table account still holds.
:meth:`CashTable.open` rebuilds the seats from the last hand's record and the buy-ins,
cash-outs and time charges after it, and checks them against the table account. The
in-memory table adopts a change only after its transaction commits; a retry of a
hand whose commit was lost finds the record and adopts it rather than charging twice.
Players without chips are not restored to their seats.

>>> from datetime import date
>>> from fractions import Fraction
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform.ledger import balance, move
>>> from pelisali.rng import SeededRng
>>> db = make_engine("sqlite://")
>>> upgrade(db)
>>> with transaction(db) as s:
...     for name in ("ann", "bob"):
...         _ = accounts.register(s, name, date(1990, 1, 1), "FI")
...         _ = accounts.deposit(s, name, 50_000, key=f"d-{name}")
...     _ = create_table(s, "nl-1", small_blind=50, big_blind=100, min_buy_in=2_000,
...                      rake=Fraction(5, 100), rake_cap=300)
>>> table = CashTable.open(db, "nl-1", SeededRng(1))
>>> table.buy_in("ann", 10_000, key="ann-1"), table.buy_in("bob", 10_000, key="bob-1")
(0, 1)
>>> hand = table.start_hand()
>>> hand.act("raise", 300); hand.act("fold")   # ann raises, bob folds
>>> done = table.finish_hand()
>>> done.rake, table.chips()   # 5 % of the 200 called; the uncalled 200 came back
(10, {'ann': 10090, 'bob': 9900})
>>> with transaction(db) as s:
...     balance(s, "table:nl-1"), balance(s, "fee:nl-1"), recall_hand(s, done.round_id).same
(19990, 10, True)
>>> table.cash_out("ann", key="ann-out")
10090
"""

from __future__ import annotations

import copy
import json
import re
import tomllib
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from fractions import Fraction
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session, aliased

from pelisali.money import format_cents
from pelisali.platform import accounts, jackpots
from pelisali.platform.db import transaction
from pelisali.platform.ledger import (
    LedgerError,
    append_audit,
    balance,
    move,
    now_utc,
    open_account,
)
from pelisali.platform.models import (
    Account,
    GameTable,
    Jackpot,
    Player,
    RoundRow,
    Transfer,
)
from pelisali.poker.describe import describe
from pelisali.poker.games import make_variant
from pelisali.poker.jackpot import BadBeatJackpot, BadBeatRules, JackpotError
from pelisali.poker.selfplay import forced_bets
from pelisali.poker.session import PokerTable, Seat
from pelisali.poker.table import PokerError, PokerHand, PokerVariant
from pelisali.rng import Rng

GAME = "poker"
JACKPOT_KIND = "bad-beat"
# A buy-in and a cash-out move the player's own money into and out of the table's
# custody: neither a stake nor a win.
BUY_IN_KIND = "buy_in"
CASH_OUT_KIND = "cash_out"
# Seats the house fills (the terminal's bots) buy in from, and cash out to, this account;
# their names hold a ':', which no player's name can, so a seat is never mistaken.
HOUSE_SEATS = "house:poker-bots"
HOUSE_BANK = "house:bank"
# GameTable.variant holds 8 characters: structure + game code (+ "-lo" or "-hl").
GAME_CODES = {"holdem": "he", "pineapple": "pi", "crazy-pineapple": "cp", "helsinki": "hk",
              "omaha": "o", "omaha-5": "o5", "courchevel": "co", "double-flop": "df",
              "stud": "7s", "razz": "rz", "soko": "so", "draw": "5d", "lowball": "27",
              "triple-draw": "273d"}
STRUCTURE_CODES = {"no-limit": "nl", "pot-limit": "pl", "limit": "fl"}
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,60}$")
_REASON = re.compile(r"^(?P<who>\S+) at (?P<table>\S+) seat (?P<seat>\d+): "
                     r"(?P<what>buy-in|cash-out|time charge)$")


class PokerTableError(LedgerError):
    """A poker table request refused; nothing changed."""


def table_account(name: str) -> str:
    """The account holding the chips at table ``name``."""
    return f"table:{name}"


def fee_account(name: str) -> str:
    """The account of the house's fees (rake, time charge) at table ``name``."""
    return f"fee:{name}"


def is_house_seat(name: str) -> bool:
    """A seat the house fills (a bot): its name holds a ':'."""
    return ":" in name


# -- settings ------------------------------------------------------------------------------
@dataclass(frozen=True)
class TableSettings:
    """A poker table's settings, as kept in ``GameTable.settings`` (JSON)."""

    game: str
    structure: str
    small_blind: int
    big_blind: int
    min_buy_in: int
    ante: int = 0
    bring_in: int = 0
    rake: Fraction = Fraction(0)  # of the chips bet in a hand (RAY 1.4.1.1.1 A)
    rake_cap: int | None = None
    low: bool = False
    hi_lo: bool = False
    low_rule: str | None = None
    qualifier: str | None = None
    draws: int | None = None
    jackpot: str | None = None  # the bad-beat jackpot's name
    bad_beat: dict[str, Any] | None = None  # qualifying, min_players, the three shares

    def variant(self) -> PokerVariant:
        return make_variant(self.game, self.structure, low=self.low, hi_lo=self.hi_lo,
                            low_rule=self.low_rule, qualifier=self.qualifier,
                            draws=self.draws)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "structure": self.structure,
                "small_blind": self.small_blind, "big_blind": self.big_blind,
                "min_buy_in": self.min_buy_in, "ante": self.ante, "bring_in": self.bring_in,
                "rake": str(self.rake), "rake_cap": self.rake_cap, "low": self.low,
                "hi_lo": self.hi_lo, "low_rule": self.low_rule, "qualifier": self.qualifier,
                "draws": self.draws, "jackpot": self.jackpot, "bad_beat": self.bad_beat}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        return cls(**{**data, "rake": Fraction(data["rake"])})

    def describe(self) -> str:
        """The table as shown to players: game, blinds, buy-in and the fee rule."""
        fee = (f"rake {float(self.rake) * 100:g} %"
               + (f" (at most {format_cents(self.rake_cap)} a hand)"
                  if self.rake_cap is not None else "")) if self.rake else "no rake"
        return (f"{self.game} {self.structure}, blinds {format_cents(self.small_blind)}/"
                f"{format_cents(self.big_blind)}, minimum buy-in "
                f"{format_cents(self.min_buy_in)}, {fee}"
                + (f", bad-beat jackpot {self.jackpot}" if self.jackpot else ""))


def _rules_json(rules: BadBeatRules) -> dict[str, Any]:
    return {"qualifying": rules.qualifying, "min_players": rules.min_players,
            "losing_share": str(rules.losing_share), "winning_share": str(rules.winning_share),
            "table_share": str(rules.table_share)}


def _rules(data: dict[str, Any], contribution: int, minimum: int) -> BadBeatRules:
    return BadBeatRules(int(data["qualifying"]), int(data["min_players"]), contribution,
                        Fraction(data["losing_share"]), Fraction(data["winning_share"]),
                        Fraction(data["table_share"]), minimum)


def create_table(session: Session, name: str, game: str = "holdem", *, small_blind: int,
                 big_blind: int, min_buy_in: int, structure: str | None = None,
                 low: bool = False, hi_lo: bool = False, low_rule: str | None = None,
                 qualifier: str | None = None, draws: int | None = None,
                 ante: int | None = None, bring_in: int | None = None,
                 rake: Fraction = Fraction(0), rake_cap: int | None = None,
                 jackpot: str | None = None, bad_beat: BadBeatRules | None = None,
                 actor: str = "system") -> GameTable:
    """A poker table (a ``GameTable`` of game ``poker``); with ``jackpot`` and
    ``bad_beat``, its bad-beat jackpot, seeded from the house bank to the guaranteed
    minimum. Antes and a stud bring-in default to the self-play table's."""
    if not _NAME.match(name):
        raise PokerTableError(f"a table name is 1-60 letters, digits, '-' or '_', not {name!r}")
    try:
        variant = make_variant(game, structure, low=low, hi_lo=hi_lo, low_rule=low_rule,
                               qualifier=qualifier, draws=draws)
    except PokerError as exc:
        raise PokerTableError(str(exc)) from None
    default_ante, default_bring_in = forced_bets(variant, big_blind)
    ante = default_ante if ante is None else ante
    bring_in = default_bring_in if bring_in is None else bring_in
    if not 0 < small_blind <= big_blind or ante < 0 or bring_in < 0:
        raise PokerTableError("blinds: 0 < small blind <= big blind; antes 0 or more")
    if min_buy_in < big_blind:
        raise PokerTableError("the minimum buy-in is at least the big blind")
    if not 0 <= rake < 1 or (rake_cap is not None and rake_cap < 0):
        raise PokerTableError("the rake is a fraction from 0 to under 1, its cap 0 or more")
    if (jackpot is None) != (bad_beat is None):
        raise PokerTableError("a bad-beat jackpot needs both its name and its rules")
    if session.scalars(select(GameTable).where(GameTable.name == name)).one_or_none():
        raise PokerTableError(f"a table called {name!r} exists")
    settings = TableSettings(game, variant.structure, small_blind, big_blind, min_buy_in,
                             ante, bring_in, Fraction(rake), rake_cap, low, hi_lo, low_rule,
                             qualifier, draws, jackpot,
                             None if bad_beat is None else _rules_json(bad_beat))
    try:  # the engine's own checks of the forced bets (stud needs its bring-in)
        PokerHand(variant, [big_blind * 2] * 2, 0, small_blind, big_blind, ante=ante,
                  bring_in=bring_in, deck=[])
    except PokerError as exc:
        raise PokerTableError(str(exc)) from None
    code = STRUCTURE_CODES[variant.structure] + GAME_CODES[game] + (
        "-lo" if low else "-hl" if hi_lo else "")
    now = now_utc()
    table = GameTable(name=name, game=GAME, variant=code,
                      settings=json.dumps(settings.to_json(), sort_keys=True),
                      limit_min=small_blind, limit_max=big_blind, mode="rng",
                      gaming_day=now.date(), created_at=now)
    session.add(table)
    session.flush()
    open_account(session, table_account(name), "table")
    open_account(session, fee_account(name), "fee")
    append_audit(session, actor, "table", {"table": name, "game": GAME, "variant": code,
                                           "settings": settings.to_json()})
    if jackpot is not None and bad_beat is not None:
        _create_jackpot(session, jackpot, table, bad_beat, actor)
    return table


def _create_jackpot(session: Session, name: str, table: GameTable, rules: BadBeatRules,
                    actor: str) -> None:
    if session.scalars(select(Jackpot).where(Jackpot.name == name)).one_or_none():
        raise PokerTableError(f"a jackpot called {name!r} exists")
    if rules.guaranteed_minimum <= 0:
        raise PokerTableError("a bad-beat jackpot needs its guaranteed minimum")
    session.add(Jackpot(name=name, table_id=table.id, kind=JACKPOT_KIND, fee=rules.contribution,
                        share_percent=100, minimum=rules.guaranteed_minimum,
                        faces=json.dumps([f"{describe(rules.qualifying)} or better, beaten"]),
                        created_at=now_utc()))
    session.flush()
    for code in (jackpots.pool(name), jackpots.accrual(name)):
        open_account(session, code, "jackpot")
    append_audit(session, actor, "jackpot", {"jackpot": name, "table": table.name,
                                             "kind": JACKPOT_KIND, **_rules_json(rules)})
    move(session, f"jackpot-seed:{name}:0", HOUSE_BANK, jackpots.pool(name),
         rules.guaranteed_minimum, "funding", reason=f"{name}: the guaranteed minimum",
         actor=actor)


def find_table(session: Session, name: str) -> GameTable:
    """The poker table called ``name``."""
    table = session.scalars(select(GameTable).where(GameTable.name == name)).one_or_none()
    if table is None or table.game != GAME:
        raise PokerTableError(f"no poker table {name!r}")
    return table


def settings_of(table: GameTable) -> TableSettings:
    return TableSettings.from_json(json.loads(table.settings))


def _jackpot_rules(session: Session, settings: TableSettings) -> BadBeatRules | None:
    if settings.jackpot is None or settings.bad_beat is None:
        return None
    row = jackpots.find_jackpot(session, settings.jackpot)
    return _rules(settings.bad_beat, row.fee, row.minimum)


# -- the table ------------------------------------------------------------------------------
@dataclass(frozen=True)
class HandResult:
    """A recorded hand: its round, the house's fee, the jackpot's moves, the chips after."""

    round_id: int
    hand: int  # the table's hand number
    rake: int
    contribution: int  # to the bad-beat jackpot's accrual
    shares: dict[str, int]  # a bad beat's payout, by player
    topped_up: int  # what the house added to the pool for its guaranteed minimum
    chips: dict[str, int]  # every seat's chips after the hand


def _reason(who: str, table: str, seat: int, what: str) -> str:
    return f"{who} at {table} seat {seat}: {what}"


class CashTable:
    """A poker table on the ledger: the engine's :class:`PokerTable` in memory, its money
    in ``table:NAME``. Each method runs its own transaction and changes the table in
    memory only after it commits. One process deals at a table at a time."""

    def __init__(self, db: Engine, table: GameTable, settings: TableSettings,
                 poker: PokerTable, hands: int) -> None:
        self.db = db
        self.name = table.name
        self.table_id = table.id
        self.settings = settings
        self.table = poker
        self.hands = hands  # hands recorded at this table
        self._dealt: list[int] = []  # the seats of the hand in progress
        self._started: datetime | None = None

    @classmethod
    def open(cls, db: Engine, name: str, rng: Rng) -> CashTable:
        """The table as the ledger has it: the seats of the last recorded hand, with the
        buy-ins, cash-outs and time charges since (a hand cut off by a crash is void)."""
        with transaction(db) as session:
            row = find_table(session, name)
            settings = settings_of(row)
            rules = _jackpot_rules(session, settings)
            poker = PokerTable(settings.variant(), settings.small_blind, settings.big_blind,
                               settings.min_buy_in, rng, ante=settings.ante,
                               bring_in=settings.bring_in, fee_percent=settings.rake,
                               fee_cap=settings.rake_cap,
                               jackpot=None if rules is None else BadBeatJackpot(rules))
            hands = _restore(session, row, poker)
        return cls(db, row, settings, poker, hands)

    # -- in memory --------------------------------------------------------------------------
    def _trial(self) -> PokerTable:
        """A copy to try a change on; adopted only when the ledger has committed it."""
        trial = copy.copy(self.table)
        trial.seats = copy.deepcopy(self.table.seats)
        trial.jackpot = copy.deepcopy(self.table.jackpot)
        return trial

    def _seat_index(self, player: str, table: PokerTable | None = None) -> int | None:
        for i, seat in enumerate((table or self.table).seats):
            if seat is not None and seat.player == player:
                return i
        return None

    @property
    def hand(self) -> PokerHand | None:
        """The hand in progress (or finished and not yet recorded)."""
        return self.table.hand if self._dealt else None

    @property
    def in_hand(self) -> list[str]:
        """The players of the hand in progress, by their position in it."""
        return [self._name(i) for i in self._dealt]

    def chips(self) -> dict[str, int]:
        """Every seated player's chips (a hand in progress: as at its start)."""
        return {s.player: s.chips for s in self.table.seats if s is not None}

    def chips_on_table(self) -> int:
        """What ``table:NAME`` must hold: the seats' chips, a hand in progress counted as
        its stacks plus the chips committed to it (before it is recorded, its fee too)."""
        hand = self.hand
        if hand is None:
            return sum(self.chips().values())
        others = sum(s.chips for i, s in enumerate(self.table.seats)
                     if s is not None and i not in self._dealt)
        in_pot = hand.fee if hand.finished else sum(hand.total_commit)
        return others + sum(hand.stacks) + in_pot

    # -- money in and out -------------------------------------------------------------------
    def buy_in(self, player: str, amount: int, key: str) -> int:
        """Sit ``player`` with ``amount`` of chips from their wallet, or add chips between
        hands when seated; a house seat (a name with ':') buys from ``house:poker-bots``.
        Returns the seat. Refused, with nothing changed: a player who may not play or is
        over a loss limit, too little money, under the table minimum, during a hand. A
        retried request (the same key) changes nothing more."""
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise PokerTableError("a buy-in is a positive whole number of cents")
        if self.hand is not None:
            raise PokerTableError("no chips are bought during a hand (RAY 1.4.1.1.1)")
        with transaction(self.db) as session:
            if _done(session, f"buy-in:{key}"):
                trial = self._resynced(session)
            else:
                trial = self._trial()
                try:
                    seat = self._seat_index(player)
                    if seat is None:
                        seat = trial.sit(player, amount)
                    else:
                        trial.buy_chips(player, amount)
                except PokerError as exc:
                    raise PokerTableError(str(exc)) from None
                if is_house_seat(player):
                    source = HOUSE_SEATS
                else:
                    _check_buy_in(session, player, amount)
                    source = accounts.wallet_code(player)
                move(session, f"buy-in:{key}", source, table_account(self.name), amount,
                     BUY_IN_KIND, reason=_reason(player, self.name, seat, "buy-in"),
                     actor=player)
            self._check_balance(session, trial)
        self.table = trial
        found = self._seat_index(player)
        assert found is not None
        return found

    def cash_out(self, player: str, key: str) -> int:
        """``player`` leaves between hands; every chip goes back to where it came from
        (the wallet; a house seat's to ``house:poker-bots``). Returns the amount. A
        retried request (the same key) returns the first one's amount."""
        seat = self._seat_index(player)
        if self.hand is not None and seat in self._dealt:
            raise PokerTableError("players leave between hands")
        with transaction(self.db) as session:
            done = _done(session, f"cash-out:{key}")
            if done is not None:
                trial, chips = self._resynced(session), done.amount
            else:
                trial = self._trial()
                try:
                    chips = trial.leave(player)
                except PokerError as exc:
                    raise PokerTableError(str(exc)) from None
                assert seat is not None
                target = HOUSE_SEATS if is_house_seat(player) else accounts.wallet_code(player)
                if chips:
                    move(session, f"cash-out:{key}", table_account(self.name), target, chips,
                         CASH_OUT_KIND, reason=_reason(player, self.name, seat, "cash-out"),
                         actor=player)
                else:
                    append_audit(session, player, "leave", {"table": self.name, "seat": seat})
            self._check_balance(session, trial)
        self.table = trial
        return chips

    def _resynced(self, session: Session) -> PokerTable:
        """The seats as the ledger has them (after a retried request whose first answer
        was lost)."""
        trial = self._trial()
        table = session.get(GameTable, self.table_id)
        assert table is not None
        self.hands = _restore(session, table, trial)
        return trial

    def sit_out(self, player: str, out: bool = True) -> None:
        """Sit out from the next hand (or back in); the seat and chips stay."""
        try:
            self.table.sit_out(player, out)
        except PokerError as exc:
            raise PokerTableError(str(exc)) from None

    def charge_time(self, amount: int, key: str) -> dict[str, int]:
        """The time charge (RAY 1.4.1.1.1 B), between hands, from every seated player not
        sitting out, at most their chips; each moves ``table -> fee``. Returns them."""
        if amount <= 0:
            raise PokerTableError("a time charge is a positive amount")
        if self.hand is not None:
            raise PokerTableError("the time charge is taken between hands")
        trial = self._trial()
        try:
            trial.time_charge(amount)
        except PokerError as exc:
            raise PokerTableError(str(exc)) from None
        taken: dict[str, int] = {}
        with transaction(self.db) as session:
            for index, (before, after) in enumerate(zip(self.table.seats, trial.seats,
                                                        strict=True)):
                if before is None or after is None or before.chips == after.chips:
                    continue
                taken[before.player] = before.chips - after.chips
                move(session, f"time:{self.name}:{key}:{before.player}",
                     table_account(self.name), fee_account(self.name),
                     taken[before.player], "fee",
                     reason=_reason(before.player, self.name, index, "time charge"))
            self._check_balance(session, trial)
        self.table = trial
        return taken

    def _check_balance(self, session: Session, trial: PokerTable) -> None:
        held = balance(session, table_account(self.name))
        chips = sum(s.chips for s in trial.seats if s is not None)
        if held != chips:  # refuse rather than let memory and ledger part ways
            raise PokerTableError(f"{table_account(self.name)} holds {format_cents(held)}, "
                                  f"the seats {format_cents(chips)}: reopen the table")

    # -- hands ------------------------------------------------------------------------------
    def start_hand(self) -> PokerHand:
        """Deal the next hand (nothing is written until it is finished)."""
        if self.hand is not None:
            raise PokerTableError("a hand is in progress")
        # PokerTable deals every seated player with chips who is not sitting out.
        dealt = [i for i, s in enumerate(self.table.seats)
                 if s is not None and not s.sitting_out and s.chips > 0]
        try:
            hand = self.table.start_hand()
        except PokerError as exc:
            raise PokerTableError(str(exc)) from None
        assert len(dealt) == hand.players
        self._dealt, self._started = dealt, now_utc()
        return hand

    def void_hand(self) -> None:
        """Forget the hand in progress: nothing was written, every stack is as at its
        start (the crash policy, on purpose)."""
        self.table.hand = None
        self._dealt = []

    def finish_hand(self) -> HandResult:
        """Record the finished hand: its fee, jackpot moves and round, in one transaction."""
        hand = self.hand
        if hand is None or not hand.finished:
            raise PokerTableError("no finished hand to record")
        number = self.hands + 1
        trial = self._trial()
        with transaction(self.db) as session:
            _lock(session, table_account(self.name))
            done = _last_record(session, self.table_id)
            if done is not None and done[1]["hand"] == number:  # a retry: it was recorded
                row, record = done
                trial = self._trial()
                _seat(trial, record)
                result = _result(row.id, record)
            else:
                result = self._record(session, trial, hand, number)
        self.table, self.hands, self._dealt = trial, number, []
        return result

    def _record(self, session: Session, trial: PokerTable, hand: PokerHand,
                number: int) -> HandResult:
        names = [self._name(i) for i in self._dealt]
        jackpot = trial.jackpot
        pool_before = 0
        history = 0
        if jackpot is not None:  # the pool as the ledger has it (close_day, other tables)
            jackpot.amount = pool_before = balance(session, jackpots.pool(self._jp))
            jackpot.accrued_today = balance(session, jackpots.accrual(self._jp))
            history = len(jackpot.history)
        trial.finish_hand()
        contribution = hand.jackpot_taken
        rake = hand.fee - contribution
        shares: dict[str, int] = {}
        topped_up = 0
        events = jackpot.history[history:] if jackpot is not None else []
        for event in events:
            if event["event"] == "paid":
                paid = event["shares"]
                assert isinstance(paid, dict)
                shares = {str(k): int(v) for k, v in paid.items()}
                seed = event["seed"]
                assert isinstance(seed, int) and jackpot is not None
                topped_up = jackpot.amount - seed
        now = now_utc()
        started = self._started or now
        table = session.get(GameTable, self.table_id)
        assert table is not None
        row = RoundRow(table_id=self.table_id, status="settled", gaming_day=table.gaming_day,
                       record="{}", opened_at=started, deadline=started + timedelta(hours=24),
                       finished_at=now)
        session.add(row)
        session.flush()
        here, label = table_account(self.name), f"{self.name} hand {number}"
        if rake:
            move(session, f"rake:{self.name}:{number}", here, fee_account(self.name), rake,
                 "fee", reason=f"{label}: rake", round_id=row.id)
        if contribution:
            move(session, f"jackpot-drop:{self.name}:{number}", here,
                 jackpots.accrual(self._jp), contribution, "jackpot_contribution",
                 reason=f"{label}: bad-beat contribution", round_id=row.id)
        for player, amount in shares.items():
            if amount:
                move(session, f"jackpot-win:{self._jp}:{self.name}:{number}:{player}",
                     jackpots.pool(self._jp), here, amount, "jackpot_payout",
                     reason=f"{label}: bad beat, {player}", round_id=row.id)
        if topped_up:
            move(session, f"jackpot-seed:{self._jp}:{self.name}:{number}", HOUSE_BANK,
                 jackpots.pool(self._jp), topped_up, "funding",
                 reason=f"{self._jp}: back to the guaranteed minimum", round_id=row.id)
        order = [(hand.button + 1 + i) % hand.players for i in range(hand.players)]
        phh = hand.phh() + f"players = {json.dumps([names[p] for p in order])}\n"
        record: dict[str, Any] = {
            "table": self.name, "hand": number, "settings": self.settings.to_json(),
            "players": names, "phh": phh, "rake": rake,
            "seats": [[i, s.player, s.chips, s.sitting_out]
                      for i, s in enumerate(trial.seats) if s is not None],
            "button": trial.button,
            "jackpot": None if jackpot is None else {
                "name": self._jp, "rules": _rules_json(jackpot.rules),
                "contribution_rule": jackpot.rules.contribution,
                "minimum": jackpot.rules.guaranteed_minimum, "pool": pool_before,
                "contribution": contribution, "revealed": self.table.revealed,
                "shares": shares, "topped_up": topped_up,
                "events": [e["event"] for e in events]},
        }
        record["after_transfer"] = _last_transfer(session, here)
        row.record = json.dumps(record, sort_keys=True)
        self._check_balance(session, trial)
        append_audit(session, f"table:{self.name}", "poker-hand", {
            "round": row.id, "hand": number, "rake": rake, "contribution": contribution,
            "jackpot": shares, "chips": {s.player: s.chips for s in trial.seats if s}})
        return _result(row.id, record)

    @property
    def _jp(self) -> str:
        assert self.settings.jackpot is not None
        return self.settings.jackpot

    def _name(self, index: int) -> str:
        seat = self.table.seats[index]
        assert seat is not None
        return seat.player


def _result(round_id: int, record: dict[str, Any]) -> HandResult:
    jp = record["jackpot"] or {}
    return HandResult(round_id, int(record["hand"]), int(record["rake"]),
                      int(jp.get("contribution", 0)), dict(jp.get("shares", {})),
                      int(jp.get("topped_up", 0)),
                      {name: chips for _i, name, chips, _out in record["seats"]})


def _lock(session: Session, code: str) -> None:
    """Lock the account for this transaction: hands and seat changes at a table queue."""
    open_account(session, code, "table")
    session.scalars(select(Account).where(Account.code == code).with_for_update()
                    .execution_options(populate_existing=True)).one()


def _done(session: Session, key: str) -> Transfer | None:
    return session.scalars(select(Transfer).where(Transfer.key == key)).one_or_none()


def _last_record(session: Session, table_id: int) -> tuple[RoundRow, dict[str, Any]] | None:
    row = session.scalars(select(RoundRow).where(RoundRow.table_id == table_id)
                          .order_by(RoundRow.id.desc()).limit(1)).one_or_none()
    return None if row is None else (row, json.loads(row.record))


def _last_transfer(session: Session, code: str) -> int:
    account = session.scalars(select(Account.id).where(Account.code == code)).one()
    found = session.scalar(select(func.max(Transfer.id)).where(
        (Transfer.source_id == account) | (Transfer.target_id == account)))
    return int(found or 0)


def _seat(poker: PokerTable, record: dict[str, Any]) -> None:
    poker.seats = [None] * len(poker.seats)
    for index, name, chips, out in record["seats"]:
        poker.seats[index] = Seat(name, chips, out)
    poker.button = int(record["button"])
    poker.hand = None


def _restore(session: Session, row: GameTable, poker: PokerTable) -> int:
    """Seat ``poker`` as the ledger says; the number of hands recorded."""
    last = _last_record(session, row.id)
    after, hands = 0, 0
    poker.seats, poker.hand = [None] * len(poker.seats), None
    if last is not None:
        _seat(poker, last[1])
        after, hands = int(last[1]["after_transfer"]), int(last[1]["hand"])
    code = table_account(row.name)
    open_account(session, code, "table")
    source, target = aliased(Account), aliased(Account)
    moves = session.execute(
        select(Transfer, source.code, target.code)
        .join(source, Transfer.source_id == source.id)
        .join(target, Transfer.target_id == target.id)
        .where((source.code == code) | (target.code == code), Transfer.id > after)
        .order_by(Transfer.id)).all()
    for transfer, _source, _target in moves:
        found = _REASON.match(transfer.reason)
        if found is None or found["table"] != row.name:
            raise PokerTableError(f"transfer {transfer.id} ({transfer.reason!r}) is not a "
                                  f"seat's move at {row.name}: the table does not reconcile")
        who, index, what = found["who"], int(found["seat"]), found["what"]
        seat = next((s for s in poker.seats if s is not None and s.player == who), None)
        if what == "buy-in":
            if seat is None:
                if poker.seats[index] is not None:  # the seat was taken: the first free one
                    index = poker.seats.index(None)
                seat = poker.seats[index] = Seat(who, 0)
            seat.chips += transfer.amount
        elif seat is None or seat.chips < transfer.amount or (
                what == "cash-out" and seat.chips != transfer.amount):
            raise PokerTableError(f"transfer {transfer.id}: {who} has no such chips")
        elif what == "cash-out":
            poker.seats[poker.seats.index(seat)] = None
        else:
            seat.chips -= transfer.amount
    for i, seat in enumerate(poker.seats):
        if seat is not None and seat.chips == 0:  # gone with nothing to cash out
            poker.seats[i] = None
    held = balance(session, code)
    chips = sum(s.chips for s in poker.seats if s is not None)
    if held != chips:
        raise PokerTableError(f"{code} holds {format_cents(held)}, the seats rebuilt from "
                              f"the ledger {format_cents(chips)}")
    return hands


# -- responsible gaming ----------------------------------------------------------------------
def _at_tables(session: Session, player: Player, since: datetime) -> int:
    """Chips bought in at poker tables since ``since`` less chips cashed out: money still
    at risk, or lost."""
    table = aliased(Account)

    def total(out: bool) -> int:
        mine = Transfer.source_id if out else Transfer.target_id
        theirs = Transfer.target_id if out else Transfer.source_id
        found = session.scalar(select(func.coalesce(func.sum(Transfer.amount), 0))
                               .select_from(Transfer).join(table, theirs == table.id)
                               .where(mine == player.account_id, table.kind == "table",
                                      Transfer.created_at >= since))
        return int(found or 0)

    return total(out=True) - total(out=False)


def _check_buy_in(session: Session, name: str, amount: int) -> None:
    """RAY 1.1 at the buy-in: the player may play, and the chips taken to the table fit
    the loss limits (counted with the casino games' losses, as money at risk)."""
    player = accounts.find(session, name)
    now = now_utc()
    accounts.may_play(player, now)
    for period in accounts.PERIODS:
        limit = accounts.current_limit(session, player, "loss", period, now)
        if limit is None:
            continue
        since = accounts.period_start(period, now)
        so_far = accounts.lost(session, player, since) + _at_tables(session, player, since)
        if so_far + amount > limit:
            raise accounts.Refused(f"{name}: loss limit {format_cents(limit)} a {period} "
                                   f"(lost or at the tables {format_cents(max(so_far, 0))}, "
                                   f"buy-in {format_cents(amount)})")


def fund_house_seats(session: Session, amount: int, key: str, actor: str = "system") -> int:
    """Bring ``house:poker-bots`` up to ``amount`` from the house bank, for the seats the
    house fills; returns what moved."""
    short = amount - open_account(session, HOUSE_SEATS, "house").balance
    if short <= 0:
        return 0
    bank = open_account(session, HOUSE_BANK, "house").balance
    if bank < short:
        raise PokerTableError(f"the house bank holds {format_cents(bank)}, not the "
                              f"{format_cents(short)} the house's seats need: fund it first")
    move(session, f"bots:{key}", HOUSE_BANK, HOUSE_SEATS, short, "funding",
         reason="chips for the house's poker seats", actor=actor)
    return short


# -- the gaming day and reconciliation --------------------------------------------------------
def close_day(session: Session, jackpot: str, day: date, actor: str = "system") -> int:
    """The end of the gaming day (RAY 1.4.1.1.1: "kertymä lisätään jackpot-summaan
    pelipäivän lopussa"): the day's accrual joins the pool. Returns it."""
    if jackpots.find_jackpot(session, jackpot).kind != JACKPOT_KIND:
        raise PokerTableError(f"{jackpot} is not a bad-beat jackpot")
    return jackpots.close_day(session, jackpot, day, actor)


def reconcile_jackpot(session: Session, jackpot: str) -> jackpots.Reconciliation:
    """The bad-beat pool and accrual against every transfer (as for the table jackpots)."""
    if jackpots.find_jackpot(session, jackpot).kind != JACKPOT_KIND:
        raise PokerTableError(f"{jackpot} is not a bad-beat jackpot")
    return jackpots.reconcile(session, jackpot)


@dataclass
class TableReconciliation:
    table: str
    held: int  # the table account now
    bought: int
    cashed: int
    fees: int  # rake and time charges
    contributed: int  # to the bad-beat accrual
    jackpot_paid: int  # bad-beat shares to the table
    problems: list[str] = field(default_factory=list)

    @property
    def balanced(self) -> bool:
        """The table holds what was bought less what left, with the jackpot's shares."""
        return not self.problems and self.held == (self.bought - self.cashed - self.fees
                                                   - self.contributed + self.jackpot_paid)


def reconcile_table(session: Session, name: str) -> TableReconciliation:
    """The table account against every transfer into and out of it, by purpose."""
    find_table(session, name)
    code = table_account(name)
    account = open_account(session, code, "table")
    rows = session.execute(select(Transfer.source_id, Transfer.kind, Transfer.reason,
                                  Transfer.amount)
                           .where((Transfer.source_id == account.id)
                                  | (Transfer.target_id == account.id))).all()
    report = TableReconciliation(name, balance(session, code), 0, 0, 0, 0, 0)
    for source, kind, reason, amount in rows:
        out = source == account.id
        seat_move = _REASON.match(reason)
        if seat_move and seat_move["what"] == "buy-in" and not out:
            report.bought += amount
        elif seat_move and seat_move["what"] == "cash-out" and out:
            report.cashed += amount
        elif kind == "fee" and out:
            report.fees += amount
        elif kind == "jackpot_contribution" and out:
            report.contributed += amount
        elif kind == "jackpot_payout" and not out:
            report.jackpot_paid += amount
        else:
            report.problems.append(f"{kind} {amount} ({reason}) is no table move")
    return report


# -- game recall ------------------------------------------------------------------------------
@dataclass(frozen=True)
class HandRecall:
    """A recorded hand replayed through the engine: the same result, or not."""

    round_id: int
    recorded: dict[str, Any]
    replayed: dict[str, Any]
    problem: str = ""  # why the record could not be replayed

    @property
    def same(self) -> bool:
        return not self.problem and self.recorded == self.replayed


def _cards(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def recall_hand(session: Session, round_id: int) -> HandRecall:
    """Replay a recorded hand's PHH (every card dealt, every action) through the engine
    with the table's settings: the finishing stacks, the rake, the jackpot contribution
    and shares, and the chips after the hand must all come out as recorded."""
    row = session.get(RoundRow, round_id)
    if row is None:
        raise PokerTableError(f"no round {round_id}")
    table = session.get(GameTable, row.table_id)
    if table is None or table.game != GAME:
        raise PokerTableError(f"round {round_id} is not a poker hand")
    record = json.loads(row.record)
    recorded: dict[str, Any] = {}
    try:
        phh = tomllib.loads(record["phh"])
        jp = record["jackpot"]
        seats = {name: chips for _i, name, chips, _out in record["seats"]}
        recorded = {"finishing_stacks": phh["finishing_stacks"], "rake": record["rake"],
                    "contribution": jp["contribution"] if jp else 0,
                    "shares": jp["shares"] if jp else {},
                    "chips": {name: seats.get(name) for name in record["players"]}}
        return HandRecall(round_id, recorded, _replay(record, phh))
    except (KeyError, TypeError, ValueError, tomllib.TOMLDecodeError, PokerError,
            JackpotError) as exc:
        return HandRecall(round_id, recorded, {}, f"{type(exc).__name__}: {exc}")


def _replay(record: dict[str, Any], phh: dict[str, Any]) -> dict[str, Any]:
    settings = TableSettings.from_json(record["settings"])
    names: list[str] = record["players"]  # by position in the hand (seat order)
    in_phh: list[str] = phh["players"]  # from the dealer's left; the button is last
    n = len(names)
    if sorted(names) != sorted(in_phh) or len(phh["starting_stacks"]) != n:
        raise ValueError("the PHH's players are not the hand's")
    button = names.index(in_phh[-1])
    order = [(button + 1 + i) % n for i in range(n)]  # PHH player k is position order[k-1]
    if [names[p] for p in order] != in_phh:
        raise ValueError("the PHH's seating order is not the table's")
    starting = [0] * n
    for k, position in enumerate(order):
        starting[position] = phh["starting_stacks"][k]
    deck: list[str] = []
    for action in phh["actions"]:
        words = action.split()
        if words[0] == "d" and words[1] in ("dh", "db", "db2"):
            deck += _cards(words[-1])
    jp = record["jackpot"]
    rules = None if jp is None else _rules(jp["rules"], jp["contribution_rule"], jp["minimum"])
    hand = PokerHand(settings.variant(), starting, button, settings.small_blind,
                     settings.big_blind, ante=settings.ante,
                     bring_in=settings.bring_in, fee_percent=settings.rake,
                     fee_cap=settings.rake_cap,
                     jackpot_drop=rules.contribution if rules else 0,
                     jackpot_min_players=rules.min_players if rules else 0, deck=deck)
    for action in phh["actions"]:
        words = action.split()
        if words[0] == "d" or words[1] == "sm":  # deals and showdowns: the engine's own
            continue
        seat = order[int(words[0][1:]) - 1]
        if words[1] == "f":
            hand.act("fold", seat=seat)
        elif words[1] == "cc":
            hand.act("check" if hand.legal().check else "call", seat=seat)
        elif words[1] == "cbr":
            hand.act("raise", int(words[2]), seat=seat)
        elif words[1] == "pb":
            hand.act("bring-in", seat=seat)
        elif words[1] == "discard":
            hand.discard(words[2], seat=seat)
        elif words[1] == "sd":
            hand.draw(_cards(words[2]) if len(words) > 2 else [], seat=seat)
        else:
            raise ValueError(f"unknown PHH action {action!r}")
    if not hand.finished:
        raise ValueError("the recorded actions do not finish the hand")
    shares: dict[str, int] = {}
    if rules is not None and jp is not None:
        jackpot = BadBeatJackpot(rules, amount=int(jp["pool"]))
        showdown = {names[p]: value for p in sorted(hand.shown)
                    if (value := hand.hand_value(p, ranking="high")) is not None}
        payout = jackpot.settle(showdown, names, bool(jp["revealed"]))
        shares = {} if payout is None else payout.shares
    return {"finishing_stacks": [hand.stacks[p] for p in order],
            "rake": hand.fee - hand.jackpot_taken, "contribution": hand.jackpot_taken,
            "shares": shares,
            "chips": {names[p]: hand.stacks[p] + shares.get(names[p], 0) for p in range(n)}}
