"""Poker tables on the persistent wallet: buy-ins, rake and the bad-beat jackpot in the
ledger, every hand recorded (RAY 2016 1.4.1.1.1).

A :class:`CashTable` plays the poker contract engine (:mod:`pelisali.engine.poker`)
through the table layer (:mod:`pelisali.platform.table_layer`, the family
:mod:`pelisali.platform.poker_family`); its chips are money held in the ledger account
``table:NAME``:

- **Buy-in** (RAY 1.4.1.1.1 "Minimiosto": at least the table's minimum to sit, no chips
  bought during a hand): ``player:NAME -> table:NAME`` after the responsible-gaming
  checks (:func:`accounts.may_play`, and the loss limits, which count the chips a player
  has at poker tables as money at risk). **Cash-out** when leaving: ``table:NAME ->
  player:NAME``, every chip.
- **During a hand** nothing moves: chips won and lost between players stay in the table
  account, which always holds every seat's chips (a hand in progress counted as its
  stacks plus the chips committed to it; see :meth:`CashTable.chips_on_table`). The
  seats bring their chips into the engine's state (``Seats.with_stacks``); the hand is a
  contract state, and each move makes the next one.
- **At the end of a hand**, in one transaction with its :class:`RoundRow` (status
  ``settled``; the record is a version-2 round record, see below): the fee ("korvaus
  pelin järjestämisestä", A: a percentage of the chips bet, capped per hand) ``table ->
  fee:NAME`` keyed ``rake:TABLE:HAND``; the bad-beat contribution ``table ->
  jackpot:J:accrual`` (both checked against what the engine's accounts moved: its
  ``fee`` and ``jackpot``); a bad beat's shares ``jackpot:J -> table`` (to the winners'
  chips at this table, as RAY pays it among the players of the table), and the house's
  top-up to the guaranteed minimum ``house:bank -> jackpot:J``. The time charge (B) is
  :meth:`CashTable.charge_time`, ``table -> fee:NAME`` per player.
- **Seats the house fills** (the terminal's bots; names with a ':') buy in from and cash
  out to ``house:poker-bots``, which :func:`fund_house_seats` fills from the house bank.
- **The gaming day**: :func:`close_day` adds the day's accrual to the pool, as RAY
  writes; :func:`reconcile_jackpot` and :func:`reconcile_table` check the accounts
  against every transfer.

The bad-beat jackpot is a ``Jackpot`` row of kind ``bad-beat`` (``fee`` is the
contribution per qualifying hand, all of it to the pool; ``minimum`` the guaranteed
minimum); the rest of its rules (qualifying hand, players, shares) is kept with the
table's settings. Its accounts follow :mod:`pelisali.platform.jackpots`.

**Records.** A hand's record is a :class:`~pelisali.platform.table_layer.RoundRecord` of
version 2: the engine's id and settings, the players in its seats, their stacks and
the button at the start, the contract's history, and the table's side of the hand
(:class:`~pelisali.platform.poker_family.PokerHandRecord`: the hand's number, the
seats, the jackpot, the result); beside it, for readers, the hand as PHH (which
PokerKit replays), the rake, the jackpot and the seats after the hand. Recall
(:func:`recall_hand`) rebuilds the hand by replaying its history from
``PokerEngine.new_state(Seats.with_stacks(stacks, button))``. Records the tables wrote
before (version 1, the PHH-based JSON) are read, recalled and restored from as they are.

**Crash policy.** Only a recorded hand counts. A hand is recorded in one transaction;
a crash before its commit leaves no trace in the ledger, so the hand is void: every
player has the chips they had at its start, which the table account still holds.
:meth:`CashTable.open` rebuilds the seats from the last hand's record and the buy-ins,
cash-outs and time charges after it, and checks them against the table account. The
in-memory table adopts a change only after its transaction commits (its seats are a
value, :class:`Seating`, that each change replaces); a retry of a hand whose commit was
lost finds the record and adopts it rather than charging twice. Players without chips
are not restored to their seats.

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

import functools
import json
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from fractions import Fraction
from typing import Any, TypeVar, cast

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session, aliased

from pelisali.engine import IllegalMove
from pelisali.engine.poker import PokerEngine
from pelisali.money import format_cents
from pelisali.platform import accounts, jackpots, table_layer
from pelisali.platform.db import transaction
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import (
    LedgerError,
    Posting,
    append_audit,
    balance,
    made_before,
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
from pelisali.platform.poker_family import (
    FAMILY,
    HandInPlay,
    JackpotRecord,
    PokerHandRecord,
    Seat,
    SeatRecord,
    TableHand,
    TableSettings,
    as_poker,
    bad_beat_rules,
    engine_settings,
    outcome,
    poker_engine,
    recall_view,
    rules_json,
)
from pelisali.platform.table_layer import (
    check_postings,
    party_moves,
    read_record,
    rebuild,
    record_version,
    write_record,
)
from pelisali.poker.describe import describe
from pelisali.poker.games import make_variant
from pelisali.poker.jackpot import BadBeatRules, JackpotError
from pelisali.poker.selfplay import forced_bets
from pelisali.poker.table import PokerError
from pelisali.rng import Rng

__all__ = [
    "BUY_IN_KIND",
    "CASH_OUT_KIND",
    "GAME",
    "HOUSE_BANK",
    "HOUSE_SEATS",
    "JACKPOT_KIND",
    "MAX_SEATS",
    "CashTable",
    "HandRecall",
    "HandResult",
    "PokerTableError",
    "Seat",
    "Seating",
    "TableHand",
    "TableReconciliation",
    "TableSettings",
    "close_day",
    "create_table",
    "fee_account",
    "find_table",
    "fund_house_seats",
    "is_house_seat",
    "recall_hand",
    "reconcile_jackpot",
    "reconcile_table",
    "settings_of",
    "table_account",
]

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
MAX_SEATS = 12  # RAY 1.4.1.1.1: a table seats 2 to 12 players
# GameTable.variant holds 8 characters: structure + game code (+ "j": jacks or better to
# open) (+ "-lo" or "-hl").
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
# TableSettings (the table's settings as GameTable.settings keeps them) is the family's:
# pelisali.platform.poker_family.TableSettings, imported above.


def create_table(session: Session, name: str, game: str = "holdem", *, small_blind: int,
                 big_blind: int, min_buy_in: int, structure: str | None = None,
                 low: bool = False, hi_lo: bool = False, low_rule: str | None = None,
                 qualifier: str | None = None, draws: int | None = None,
                 openers: bool = False, ante: int | None = None, bring_in: int | None = None,
                 rake: Fraction = Fraction(0), rake_cap: int | None = None,
                 jackpot: str | None = None, bad_beat: BadBeatRules | None = None,
                 time_charge: int | None = None, time_charge_minutes: int | None = None,
                 fold_when_check_free: bool = False, auto_muck: bool = False,
                 actor: str = "system") -> GameTable:
    """A poker table (a ``GameTable`` of game ``poker``); with ``jackpot`` and
    ``bad_beat``, its bad-beat jackpot, seeded from the house bank to the guaranteed
    minimum. ``time_charge`` (cents a player every ``time_charge_minutes``) is the house's
    fee by time (RAY 1.4.1.1.1 B) instead of a rake (A), announced in the table's
    description. Antes and a stud bring-in default to the self-play table's. ``openers``
    (Five Card Draw): jacks or better to open, on antes alone; a deal nobody opens is
    dealt again from a fresh deck, every card in the hand's record.
    ``fold_when_check_free`` takes a fold when a check is free and ``auto_muck`` mucks a
    hand beaten by one shown before it (RULINGS; both off unless the table sets them)."""
    if not _NAME.match(name):
        raise PokerTableError(f"a table name is 1-60 letters, digits, '-' or '_', not {name!r}")
    try:
        variant = make_variant(game, structure, low=low, hi_lo=hi_lo, low_rule=low_rule,
                               qualifier=qualifier, draws=draws, openers=openers)
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
    if (time_charge is None) != (time_charge_minutes is None) or (
            time_charge is not None and (time_charge <= 0 or not 1 <= (time_charge_minutes
                                                                         or 0) <= 24 * 60)):
        raise PokerTableError("a time charge is a positive amount every 1 to 1440 minutes")
    if time_charge is not None and rake:
        raise PokerTableError("the house takes a percentage (A) or a time charge (B), not "
                              "both (RAY 2016 1.4.1.1.1)")
    if bad_beat is not None and variant.high is None:
        raise PokerTableError(
            f"{variant.name} is a low game: its bad beat would be judged on high hands that "
            "win no pot, so it has no bad-beat jackpot (RAY 2016 1.4.1.1.1: the criteria "
            "vary by game; RULINGS)")
    if session.scalars(select(GameTable).where(GameTable.name == name)).one_or_none():
        raise PokerTableError(f"a table called {name!r} exists")
    settings = TableSettings(game, variant.structure, small_blind, big_blind, min_buy_in,
                             ante, bring_in, Fraction(rake), rake_cap, low, hi_lo, low_rule,
                             qualifier, draws, jackpot,
                             None if bad_beat is None else rules_json(bad_beat), openers,
                             time_charge, time_charge_minutes, fold_when_check_free,
                             auto_muck)
    try:  # the engine's own checks of the stakes and forced bets (stud needs its bring-in)
        PokerEngine.for_variant(variant, small_blind, big_blind, ante=ante, bring_in=bring_in,
                                fee_percent=Fraction(rake), fee_cap=rake_cap)
    except IllegalMove as exc:
        raise PokerTableError(str(exc)) from None
    code = (STRUCTURE_CODES[variant.structure] + GAME_CODES[game] + ("j" if openers else "")
            + ("-lo" if low else "-hl" if hi_lo else ""))
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
                                             "kind": JACKPOT_KIND, **rules_json(rules)})
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
    return bad_beat_rules(settings.bad_beat, row.fee, row.minimum)


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


@dataclass
class Seating:
    """A cash table's seats (``None``: free), its button and whether a player showed
    cards during the hand in play (the bad-beat jackpot is then refused). A value: the
    table never changes one in place; each change (:meth:`sit`, :meth:`buy_chips`,
    :meth:`sitting_out`, :meth:`leave`, :meth:`time_charge`) makes the next, which the
    table adopts once the ledger has committed it.

    >>> seating, seat = Seating().sit("ann", 2_000, min_buy_in=1_000)
    >>> seat, seating.buy_chips("ann", 500).seats[0], seating.seats[0].chips
    (0, Seat(player='ann', chips=2500, sitting_out=False), 2000)
    """

    seats: Sequence[Seat | None] = field(default_factory=lambda: (None,) * MAX_SEATS)
    button: int = -1
    revealed: bool = False

    def index(self, player: str) -> int | None:
        """The seat ``player`` sits in, if any."""
        return next((i for i, s in enumerate(self.seats) if s is not None and s.player == player),
                    None)

    def _seat_of(self, player: str) -> tuple[int, Seat]:
        index = self.index(player)
        seat = None if index is None else self.seats[index]
        if index is None or seat is None:
            raise PokerTableError(f"{player} is not at the table")
        return index, seat

    def _with(self, index: int, seat: Seat | None) -> Seating:
        seats = list(self.seats)
        seats[index] = seat
        return replace(self, seats=tuple(seats))

    def chips(self) -> dict[str, int]:
        return {s.player: s.chips for s in self.seats if s is not None}

    def sit(self, player: str, buy_in: int, min_buy_in: int,
            seat: int | None = None) -> tuple[Seating, int]:
        """``player`` sits down with ``buy_in`` of chips (at least ``min_buy_in``), at the
        first free seat or ``seat``."""
        if self.index(player) is not None:
            raise PokerTableError(f"{player} is already seated")
        if buy_in < min_buy_in:
            raise PokerTableError(f"the minimum buy-in is {format_cents(min_buy_in)}")
        free = [i for i, s in enumerate(self.seats) if s is None]
        if not free:
            raise PokerTableError(f"the table is full ({len(self.seats)} seats)")
        chosen = free[0] if seat is None else seat
        if chosen not in free:
            raise PokerTableError(f"seat {chosen} is taken")
        return self._with(chosen, Seat(player, buy_in)), chosen

    def buy_chips(self, player: str, amount: int) -> Seating:
        if amount <= 0:
            raise PokerTableError("buy a positive amount of chips")
        index, seat = self._seat_of(player)
        return self._with(index, replace(seat, chips=seat.chips + amount))

    def sitting_out(self, player: str, out: bool = True) -> Seating:
        """``player`` sits out from the next hand (or back in)."""
        index, seat = self._seat_of(player)
        return self._with(index, replace(seat, sitting_out=out))

    def leave(self, player: str) -> tuple[Seating, int, int]:
        """``player`` leaves with the chips on the table: the seating after, their chips
        and the seat they left."""
        index, seat = self._seat_of(player)
        return self._with(index, None), seat.chips, index

    def time_charge(self, amount: int) -> tuple[Seating, dict[int, int]]:
        """The time charge from every seated player not sitting out, at most their chips:
        the seating after and what each seat paid."""
        seats = list(self.seats)
        taken: dict[int, int] = {}
        for i, seat in enumerate(seats):
            if seat is not None and not seat.sitting_out and min(amount, seat.chips):
                taken[i] = min(amount, seat.chips)
                seats[i] = replace(seat, chips=seat.chips - taken[i])
        return replace(self, seats=tuple(seats)), taken

    def ready(self) -> list[int]:
        """The seats a hand deals in: seated, not sitting out, with chips."""
        return [i for i, s in enumerate(self.seats)
                if s is not None and not s.sitting_out and s.chips > 0]

    def next_button(self, ready: Sequence[int]) -> int:
        """The button moves clockwise to the next of ``ready``."""
        after = [i for i in ready if i > self.button]
        return after[0] if after else ready[0]

    def after_hand(self, play: HandInPlay, stacks: Sequence[int],
                   shares: dict[str, int]) -> Seating:
        """The seats after a hand: its players with their finishing ``stacks`` and their
        jackpot ``shares``."""
        seats = list(self.seats)
        for index, name, chips in zip(play.table_seats, play.players, stacks, strict=True):
            seat = seats[index]
            if seat is None or seat.player != name:
                raise PokerTableError(f"{name} left seat {index} during the hand")
            seats[index] = replace(seat, chips=chips + shares.get(name, 0))
        return replace(self, seats=tuple(seats))


F = TypeVar("F", bound=Callable[..., Any])


def _one_change_at_a_time(method: F) -> F:
    """A :class:`CashTable` method that runs alone at its table in this process."""

    @functools.wraps(method)
    def alone(self: CashTable, *args: Any, **kwargs: Any) -> Any:
        with self._changing:
            return method(self, *args, **kwargs)

    return cast(F, alone)


class CashTable:
    """A poker table on the ledger: its seats in memory (:class:`Seating`, a value each
    change replaces), the hand in play a contract state
    (:class:`~pelisali.platform.poker_family.HandInPlay`, read through the
    :class:`~pelisali.platform.poker_family.TableHand` it hands out), its money in
    ``table:NAME``. Each method runs its own transaction and adopts its change only
    after it commits. One process deals at a table at a time."""

    def __init__(self, db: Engine, table: GameTable, settings: TableSettings,
                 seating: Seating, hands: int, rng: Rng,
                 rules: BadBeatRules | None = None) -> None:
        self.db = db
        self.name = table.name
        self.table_id = table.id
        self.settings = settings
        self.table = seating
        self.hands = hands  # hands recorded at this table
        self.rng = rng
        self.rules = rules  # the bad-beat jackpot's
        self.engine_settings = engine_settings(
            settings, 0 if rules is None else rules.contribution,
            0 if rules is None else rules.min_players)
        self.engine: PokerEngine = poker_engine(self.engine_settings)
        self._hand: TableHand | None = None  # the hand in play
        # The seats in memory and the ledger change together: one change at a time, so
        # players sitting down at once (each on a thread of the server) all sit.
        self._changing = threading.RLock()

    @classmethod
    def open(cls, db: Engine, name: str, rng: Rng) -> CashTable:
        """The table as the ledger has it: the seats of the last recorded hand, with the
        buy-ins, cash-outs and time charges since (a hand cut off by a crash is void)."""
        with transaction(db) as session:
            row = find_table(session, name)
            settings = settings_of(row)
            rules = _jackpot_rules(session, settings)
            seating, hands = _restore(session, row)
        return cls(db, row, settings, seating, hands, rng, rules)

    # -- in memory --------------------------------------------------------------------------
    @property
    def hand(self) -> TableHand | None:
        """The hand in progress (or finished and not yet recorded)."""
        return self._hand

    @property
    def in_hand(self) -> list[str]:
        """The players of the hand in progress, by their position in it."""
        return [] if self._hand is None else list(self._hand.play.players)

    def chips(self) -> dict[str, int]:
        """Every seated player's chips (a hand in progress: as at its start)."""
        return self.table.chips()

    def chips_on_table(self) -> int:
        """What ``table:NAME`` must hold: the seats' chips, a hand in progress counted as
        its stacks plus the chips committed to it (before it is recorded, its fee and
        jackpot drop too)."""
        if self._hand is None:
            return sum(self.chips().values())
        play = self._hand.play
        others = sum(s.chips for i, s in enumerate(self.table.seats)
                     if s is not None and i not in play.table_seats)
        held = play.state.accounts()
        return (others + sum(play.state.chips()) + held["table"] + held["fee"]
                + held["jackpot"])

    # -- money in and out -------------------------------------------------------------------
    @_one_change_at_a_time
    def buy_in(self, player: str, amount: int, key: str, top_up: bool = True) -> int:
        """Sit ``player`` with ``amount`` of chips from their wallet, or add chips between
        hands when seated (unless ``top_up`` is False: then a seated player is refused);
        a house seat (a name with ':') buys from ``house:poker-bots``. Returns the seat.
        Refused, with nothing changed: a player who may not play or is over a loss
        limit, too little money, under the table minimum, during a hand. A retried
        request (the same key, the same amount at this table) changes nothing more, a
        hand in play or not; the key used for anything else (another amount or table, a
        cash-out) is refused with :class:`~pelisali.platform.ledger.KeyConflict`."""
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise PokerTableError("a buy-in is a positive whole number of cents")
        hands = self.hands
        source = HOUSE_SEATS if is_house_seat(player) else accounts.wallet_code(player)
        with transaction(self.db) as session:
            done = made_before(session, f"buy-in:{key}", BUY_IN_KIND, source,
                               table_account(self.name), amount, others=(f"cash-out:{key}",))
            if done is not None and self._hand is not None:
                seating = self.table  # the seats are the hand's: nothing to read again
            elif done is not None:
                seating, hands = self._resynced(session)
            elif self._hand is not None:
                raise PokerTableError("no chips are bought during a hand (RAY 1.4.1.1.1)")
            else:
                seat = self.table.index(player)
                if seat is None:
                    seating, seat = self.table.sit(player, amount, self.settings.min_buy_in)
                elif not top_up:
                    raise PokerTableError(f"{player} is already seated at {self.name}: "
                                          "leave the table first")
                else:
                    seating = self.table.buy_chips(player, amount)
                if not is_house_seat(player):
                    _check_buy_in(session, player, amount)
                move(session, f"buy-in:{key}", source, table_account(self.name), amount,
                     BUY_IN_KIND, reason=_reason(player, self.name, seat, "buy-in"),
                     actor=player)
            self._check_balance(session, seating)
        self.table, self.hands = seating, hands
        found = self.table.index(player)
        if found is None:  # a retried buy-in of a player who has left since
            raise PokerTableError(f"{player} is not at the table")
        return found

    @_one_change_at_a_time
    def cash_out(self, player: str, key: str) -> int:
        """``player`` leaves between hands; every chip goes back to where it came from
        (the wallet; a house seat's to ``house:poker-bots``). Returns the amount. A
        retried request (the same key) returns the first one's amount."""
        seat = self.table.index(player)
        hands = self.hands
        with transaction(self.db) as session:
            done = self._cashed_out(session, player, key)
            if done is not None and self._hand is not None:
                seating, chips = self.table, done  # the seats are the hand's
            elif done is not None:
                (seating, hands), chips = self._resynced(session), done
            elif self._hand is not None and seat in self._hand.play.table_seats:
                raise PokerTableError("players leave between hands")
            else:
                seating, chips, index = self.table.leave(player)
                target = HOUSE_SEATS if is_house_seat(player) else accounts.wallet_code(player)
                if chips:
                    move(session, f"cash-out:{key}", table_account(self.name), target, chips,
                         CASH_OUT_KIND, reason=_reason(player, self.name, index, "cash-out"),
                         actor=player)
                else:
                    append_audit(session, player, "leave", {"table": self.name, "seat": index})
            self._check_balance(session, seating)
        self.table, self.hands = seating, hands
        return chips

    def cashed_out(self, player: str, key: str) -> int | None:
        """What the cash-out of ``player`` under ``key`` paid, if it was made (None: the
        key is new, or the player left with no chips); a retried leave's first answer.
        :class:`~pelisali.platform.ledger.KeyConflict` if the key was used for anything
        else (a buy-in, another player's or table's cash-out)."""
        with transaction(self.db) as session:
            return self._cashed_out(session, player, key)

    def _cashed_out(self, session: Session, player: str, key: str) -> int | None:
        target = HOUSE_SEATS if is_house_seat(player) else accounts.wallet_code(player)
        done = made_before(session, f"cash-out:{key}", CASH_OUT_KIND,
                           table_account(self.name), target, others=(f"buy-in:{key}",))
        return None if done is None else done.amount

    def _resynced(self, session: Session) -> tuple[Seating, int]:
        """The seats as the ledger has them, and the hands recorded (after a retried
        request whose first answer was lost)."""
        table = session.get(GameTable, self.table_id)
        if table is None:
            raise PokerTableError(f"no poker table {self.name!r}")
        return _restore(session, table, len(self.table.seats))

    @_one_change_at_a_time
    def sit_out(self, player: str, out: bool = True) -> None:
        """Sit out from the next hand (or back in); the seat and chips stay."""
        self.table = self.table.sitting_out(player, out)

    @_one_change_at_a_time
    def charge_time(self, amount: int | None, key: str) -> dict[str, int]:
        """The time charge (RAY 1.4.1.1.1 B), between hands, from every seated player not
        sitting out, at most their chips; each moves ``table -> fee``. Returns them. A
        table that announces its time charge takes that amount (None: it), no other."""
        announced = self.settings.time_charge
        if amount is None:
            if announced is None:
                raise PokerTableError(f"{self.name} announces no time charge: give the amount")
            amount = announced
        if announced is not None and amount != announced:
            raise PokerTableError(f"{self.name}'s announced time charge is "
                                  f"{format_cents(announced)}, not {format_cents(amount)}")
        if amount <= 0:
            raise PokerTableError("a time charge is a positive amount")
        if self._hand is not None:
            raise PokerTableError("the time charge is taken between hands")
        seating, charged = self.table.time_charge(amount)
        taken: dict[str, int] = {}
        with transaction(self.db) as session:
            for index, paid in charged.items():
                seat = self.table.seats[index]
                if seat is None:
                    continue
                taken[seat.player] = paid
                move(session, f"time:{self.name}:{key}:{seat.player}",
                     table_account(self.name), fee_account(self.name), paid, "fee",
                     reason=_reason(seat.player, self.name, index, "time charge"))
            self._check_balance(session, seating)
        self.table = seating
        return taken

    def _check_balance(self, session: Session, seating: Seating) -> None:
        held = balance(session, table_account(self.name))
        chips = sum(seating.chips().values())
        if held != chips:  # refuse rather than let memory and ledger part ways
            raise PokerTableError(f"{table_account(self.name)} holds {format_cents(held)}, "
                                  f"the seats {format_cents(chips)}: reopen the table")

    # -- hands ------------------------------------------------------------------------------
    @_one_change_at_a_time
    def start_hand(self) -> TableHand:
        """Deal the next hand to every seated player with chips who is not sitting out;
        the button moves clockwise to the next of them (nothing is written until the
        hand is finished)."""
        if self._hand is not None:
            raise PokerTableError("a hand is in progress")
        ready = self.table.ready()
        if len(ready) < 2:
            raise PokerTableError("a hand needs two players with chips")
        button = self.table.next_button(ready)
        seats = [s for s in (self.table.seats[i] for i in ready) if s is not None]
        try:
            play = HandInPlay.deal(self.engine, [s.player for s in seats], ready,
                                   [s.chips for s in seats], ready.index(button), self.rng,
                                   now_utc())
        except (IllegalMove, PokerError) as exc:
            raise PokerTableError(str(exc)) from None
        self.table = replace(self.table, button=button, revealed=False)
        self._hand = TableHand(play, self.rng)
        return self._hand

    @_one_change_at_a_time
    def void_hand(self) -> None:
        """Forget the hand in progress: nothing was written, every stack is as at its
        start (the crash policy, on purpose)."""
        self._hand = None

    @_one_change_at_a_time
    def finish_hand(self) -> HandResult:
        """Record the finished hand: its fee, jackpot moves and round, in one transaction."""
        hand = self._hand
        if hand is None or not hand.play.finished:
            raise PokerTableError("no finished hand to record")
        number = self.hands + 1
        with transaction(self.db) as session:
            _lock(session, table_account(self.name))
            done = _last_record(session, self.table_id)
            if done is not None and _after(*done).hand == number:  # a retry: it was recorded
                row, data = done
                after = _after(row, data)
                seating = replace(self.table, seats=after.seats(len(self.table.seats)),
                                  button=after.button)
                result = _result(row, data)
            else:
                seating, result = self._record(session, hand.play, number)
        self.table, self.hands, self._hand = seating, number, None
        return result

    def _record(self, session: Session, play: HandInPlay, number: int
                ) -> tuple[Seating, HandResult]:
        state, names = play.state, list(play.players)
        jackpot = None
        if self.rules is not None:  # the pool as the ledger has it (close_day, other tables)
            jackpot = JackpotRecord.of(self._jp, self.rules,
                                       balance(session, jackpots.pool(self._jp)),
                                       self.table.revealed)
        found = outcome(state, names, jackpot)
        seating = self.table.after_hand(play, found.finishing_stacks, found.shares)
        now = now_utc()
        started = play.started or now
        table = session.get(GameTable, self.table_id)
        if table is None:
            raise PokerTableError(f"no poker table {self.name!r}")
        row = RoundRow(table_id=self.table_id, status=RoundStatus.SETTLED,
                       gaming_day=table.gaming_day, record="{}", opened_at=started,
                       deadline=started + timedelta(hours=24), finished_at=now)
        session.add(row)
        session.flush()
        here, label = table_account(self.name), f"{self.name} hand {number}"
        # The rake and the drop are what the engine's accounts say the hand moved.
        fees: list[Posting] = []
        if found.rake:
            fees.append(Posting(f"rake:{self.name}:{number}", here, fee_account(self.name),
                                found.rake, "fee", f"{label}: rake", row.id))
        if found.drop:
            fees.append(Posting(f"jackpot-drop:{self.name}:{number}", here,
                                jackpots.accrual(self._jp), found.drop,
                                "jackpot_contribution", f"{label}: bad-beat contribution",
                                row.id))
        parties = {f"seat {i}": here for i in range(len(names))}
        parties.update(table=here, fee=fee_account(self.name))
        if jackpot is not None:
            parties["jackpot"] = jackpots.accrual(self._jp)
        check_postings(fees, party_moves(play.start, state, parties))
        for p in fees:
            move(session, p.key, p.source, p.target, p.amount, p.kind, reason=p.reason,
                 round_id=p.round_id)
        for player, amount in found.shares.items():
            if amount:
                move(session, f"jackpot-win:{self._jp}:{self.name}:{number}:{player}",
                     jackpots.pool(self._jp), here, amount, "jackpot_payout",
                     reason=f"{label}: bad beat, {player}", round_id=row.id)
        if found.topped_up:
            move(session, f"jackpot-seed:{self._jp}:{self.name}:{number}", HOUSE_BANK,
                 jackpots.pool(self._jp), found.topped_up, "funding",
                 reason=f"{self._jp}: back to the guaranteed minimum", round_id=row.id)
        poker = PokerHandRecord(
            hand=number, table_seats=list(play.table_seats),
            sitting_out=[bool(s and s.sitting_out)
                         for s in (seating.seats[i] for i in play.table_seats)],
            others=[SeatRecord(seat=i, player=s.player, chips=s.chips,
                               sitting_out=s.sitting_out)
                    for i, s in enumerate(seating.seats)
                    if s is not None and i not in play.table_seats],
            jackpot=jackpot,
            result=found.result(),
            after_transfer=_last_transfer(session, here))
        record = play.record(row.id, self.name, self.engine_settings, poker)
        row.record = write_record(record, FAMILY.derived(state, record))
        self._check_balance(session, seating)
        chips = seating.chips()
        append_audit(session, f"table:{self.name}", "poker-hand", {
            "round": row.id, "hand": number, "rake": found.rake,
            "contribution": found.drop, "jackpot": found.shares, "chips": chips})
        return seating, HandResult(row.id, number, found.rake, found.drop,
                                   dict(found.shares), found.topped_up, chips)

    @property
    def _jp(self) -> str:
        if self.settings.jackpot is None:
            raise PokerTableError(f"{self.name} has no bad-beat jackpot")
        return self.settings.jackpot


# -- the last record: what the table was after it -----------------------------------------------
@dataclass(frozen=True)
class _After:
    """A recorded hand's number, the table's seats and button after it, and the last
    transfer of the table account when it was recorded."""

    hand: int
    seated: list[SeatRecord]
    button: int
    after_transfer: int

    def seats(self, size: int) -> tuple[Seat | None, ...]:
        seats: list[Seat | None] = [None] * max(size, 1 + max(
            (s.seat for s in self.seated), default=-1))
        for s in self.seated:
            seats[s.seat] = Seat(s.player, s.chips, s.sitting_out)
        return tuple(seats)


def _stored(row: RoundRow, data: dict[str, Any]) -> dict[str, Any]:
    """A record's JSON as the table layer reads it: a version-1 hand did not write its
    round's id."""
    return {**data, "round_id": row.id} if record_version(data) == 1 else data


def _after(row: RoundRow, data: dict[str, Any]) -> _After:
    """The table after the hand ``data`` records (either version)."""
    if record_version(data) == 1:
        return _After(int(data["hand"]),
                      [SeatRecord(seat=i, player=name, chips=chips, sitting_out=out)
                       for i, name, chips, out in data["seats"]],
                      int(data["button"]), int(data["after_transfer"]))
    record = read_record(data, FAMILY)
    poker = PokerHandRecord.of(record)
    return _After(poker.hand, poker.seats_after(record.players),
                  poker.table_seats[record.button], poker.after_transfer)


def _result(row: RoundRow, data: dict[str, Any]) -> HandResult:
    if record_version(data) == 1:
        jp = data["jackpot"] or {}
        return HandResult(row.id, int(data["hand"]), int(data["rake"]),
                          int(jp.get("contribution", 0)), dict(jp.get("shares", {})),
                          int(jp.get("topped_up", 0)),
                          {name: chips for _i, name, chips, _out in data["seats"]})
    record = read_record(data, FAMILY)
    poker = PokerHandRecord.of(record)
    result = poker.result
    return HandResult(row.id, poker.hand, result.rake, result.jackpot_drop,
                      dict(result.shares), result.topped_up,
                      {s.player: s.chips for s in poker.seats_after(record.players)})


def _lock(session: Session, code: str) -> None:
    """Lock the account for this transaction: hands and seat changes at a table queue."""
    open_account(session, code, "table")
    session.scalars(select(Account).where(Account.code == code).with_for_update()
                    .execution_options(populate_existing=True)).one()


def _last_record(session: Session, table_id: int) -> tuple[RoundRow, dict[str, Any]] | None:
    row = session.scalars(select(RoundRow).where(RoundRow.table_id == table_id)
                          .order_by(RoundRow.id.desc()).limit(1)).one_or_none()
    return None if row is None else (row, json.loads(row.record))


def _last_transfer(session: Session, code: str) -> int:
    account = session.scalars(select(Account.id).where(Account.code == code)).one()
    found = session.scalar(select(func.max(Transfer.id)).where(
        (Transfer.source_id == account) | (Transfer.target_id == account)))
    return int(found or 0)


def _restore(session: Session, row: GameTable, size: int = MAX_SEATS) -> tuple[Seating, int]:
    """The table's seating as the ledger says, and the number of hands recorded."""
    last = _last_record(session, row.id)
    after = _After(0, [], -1, 0) if last is None else _after(*last)
    seats = list(after.seats(size))
    code = table_account(row.name)
    open_account(session, code, "table")
    source, target = aliased(Account), aliased(Account)
    moves = session.execute(
        select(Transfer, source.code, target.code)
        .join(source, Transfer.source_id == source.id)
        .join(target, Transfer.target_id == target.id)
        .where((source.code == code) | (target.code == code),
               Transfer.id > after.after_transfer)
        .order_by(Transfer.id)).all()
    for transfer, _source, _target in moves:
        found = _REASON.match(transfer.reason)
        if found is None or found["table"] != row.name:
            raise PokerTableError(f"transfer {transfer.id} ({transfer.reason!r}) is not a "
                                  f"seat's move at {row.name}: the table does not reconcile")
        who, index, what = found["who"], int(found["seat"]), found["what"]
        at = next((i for i, s in enumerate(seats) if s is not None and s.player == who), None)
        seat = None if at is None else seats[at]
        if what == "buy-in":
            if at is None or seat is None:
                if seats[index] is not None:  # the seat was taken: the first free one
                    index = seats.index(None)
                at, seat = index, Seat(who, 0)
            seats[at] = replace(seat, chips=seat.chips + transfer.amount)
        elif at is None or seat is None or seat.chips < transfer.amount or (
                what == "cash-out" and seat.chips != transfer.amount):
            raise PokerTableError(f"transfer {transfer.id}: {who} has no such chips")
        elif what == "cash-out":
            seats[at] = None
        else:
            seats[at] = replace(seat, chips=seat.chips - transfer.amount)
    seats = [s if s is not None and s.chips > 0 else None  # gone with nothing to cash out
             for s in seats]
    held = balance(session, code)
    chips = sum(s.chips for s in seats if s is not None)
    if held != chips:
        raise PokerTableError(f"{code} holds {format_cents(held)}, the seats rebuilt from "
                              f"the ledger {format_cents(chips)}")
    return Seating(tuple(seats), after.button), after.hand


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
    over = accounts.session_time_over(
        session, name, accounts.current_limit(session, player, accounts.SESSION,
                                              accounts.SESSION, now), now)
    if over:
        raise accounts.Refused(over)
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
    open_account(session, HOUSE_BANK, "house")
    bank = balance(session, HOUSE_BANK)
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


def recall_hand(session: Session, round_id: int) -> HandRecall:
    """Replay a recorded hand through the engine: its history (a version-1 record: its
    PHH's cards and actions) from its players' stacks and button, with the table's
    settings. The finishing stacks, the rake, the jackpot contribution and shares, and
    the chips after the hand must all come out as recorded, and what a version-2 record
    shows for readers (the PHH, the rake, the jackpot, the seats) as its history gives
    it."""
    row = session.get(RoundRow, round_id)
    if row is None:
        raise PokerTableError(f"no round {round_id}")
    table = session.get(GameTable, row.table_id)
    if table is None or table.game != GAME:
        raise PokerTableError(f"round {round_id} is not a poker hand")
    recorded: dict[str, Any] = {}
    try:
        data = _stored(row, json.loads(row.record))
        record = read_record(data, FAMILY)
        poker = PokerHandRecord.of(record)
        recorded = recall_view(record, poker.result)
        checked = table_layer.recall(json.dumps(data), FAMILY)
        if checked.problem is not None:
            return HandRecall(round_id, recorded, {}, checked.problem)
        state = as_poker(rebuild(record, FAMILY))
        replayed = outcome(state, record.players, poker.jackpot).result()
        return HandRecall(round_id, recorded, recall_view(record, replayed))
    except (LedgerError, IllegalMove, PokerError, JackpotError, KeyError, TypeError,
            ValueError) as exc:  # RecordError is a LedgerError
        return HandRecall(round_id, recorded, {}, f"{type(exc).__name__}: {exc}")
