"""Tables and rounds on the persistent wallet: bets debited as they are accepted, the
draw and every settlement credited in one transaction with the round's record.

A crash can therefore leave a round only in one of two whole states: open with its
stakes taken, or settled. :func:`recover` finishes the open ones as the rules say
(GGPoker house rules 2: an RNG round resumes where it stopped and is completed
automatically after 24 hours; a live table's bets stand and are settled in the
player's absence). A void round refunds every stake. Payouts carry idempotency keys
(``settle:ROUND:PLAYER``: a player's payouts of a round are one transfer), so no bet
is ever paid twice.

The tables run the contract engine of their game (:class:`~pelisali.engine.wager.WagerEngine`,
roulette A–I, boule, money wheel, Tuplanoppa, Sic Bo) through the table layer
(:mod:`pelisali.platform.table_layer`, the family in :mod:`pelisali.platform.wager_family`):
every bet is a ``PlaceBet`` the engine accepts (its limits, the excess over the maximum
returned), the draw is the engine's chance outcomes, roulette D's choices are its
``Decide`` actions, and every settlement is the engine's. A round is kept seat by seat
(:class:`~pelisali.platform.wager_family.WagerRound`: each player's own state of the
engine), so a bet costs the same however many others are on the table. The stakes and
payouts booked are checked against what the engine moved. Once drawn, a round is its
record (version 2: the ``GAMES`` id, the players in the engine's seats, the bets it
carried in from prison, the contract history, the settlements), which recall replays
through the engine; records written before version 2 are read, recalled and finished.
A round's limits are the table's when it opened: limits set while a round has bets
apply from the next one.

>>> from datetime import date
>>> from pelisali.platform import accounts, jackpots
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform.ledger import move
>>> from pelisali.rng import SeededRng
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
...     _ = accounts.deposit(s, "ann", 10_000, key="d1")
...     _ = move(s, "fund", "external:owner", "house:bank", 1_000_000, "funding")
...     _ = create_table(s, "roulette-1", "roulette", "C")
...     place_bet(s, "roulette-1", "ann", "red", 1_000, key="b1").accepted
1000
>>> with transaction(engine) as s:
...     round_id, settled = settle(s, "roulette-1", SeededRng(2))
...     recall(s, round_id).same
True
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import Connection, Table, bindparam, func, insert, or_, select, update
from sqlalchemy.orm import Session

from pelisali.engine import IllegalMove
from pelisali.games import GameError, make_game
from pelisali.games.base import WagerGame
from pelisali.games.round import Limits, Receipt, Settlement
from pelisali.money import format_cents
from pelisali.platform import accounts, colour_chips, fairness, jackpots, metrics, table_layer
from pelisali.platform.db import after_commit
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import (
    KeyConflict,
    LedgerError,
    Posting,
    append_audit,
    expire,
    lock_accounts,
    now_utc,
    post,
)
from pelisali.platform.models import Account, BetRow, GameTable, Player, RoundRow, Transfer
from pelisali.platform.table_layer import RecordError
from pelisali.platform.wager_family import (
    FAMILY,
    TableBet,
    WagerRound,
    base_record,
    derived_of,
    game_id_of,
    rounding_of,
    wager_engine,
)
from pelisali.rng import Rng, SecureRng

# GGPoker house rules 2.3: pending bets are kept 24 hours, then completed automatically.
PENDING_HOURS = 24
OPEN = ("betting",)
DECIDING = RoundStatus.DECIDING
SETTLED, VOID = RoundStatus.SETTLED, RoundStatus.VOID
# A choice not made by the deadline: la partage (half back at once), the choice that
# leaves nothing pending (RULINGS lets the player choose; the text names no default).
# A bet in prison hit by zero again offers prison or a quarter back: the quarter.
DEFAULT_CHOICE = "half"
DEFAULT_CHOICES = (DEFAULT_CHOICE, "quarter")
BANK = "house:bank"
ROUNDING = "rounding:house"
_ACCOUNTS = cast(Table, Account.__table__)


class TableError(LedgerError):
    """A table or round request refused; nothing changed."""


class SlipConflict(TableError, KeyConflict):
    """A slip's key sent again with another slip (another table, game or version, other
    spots or amounts): refused, nothing taken (:func:`first_slip`)."""


def _game(table: GameTable) -> WagerGame:
    return _cached_game(table.game, table.variant, table.settings)


@lru_cache(maxsize=256)
def _cached_game(game: str, variant: str, settings: str) -> WagerGame:
    # An engine holds only its rules and what it derives from them, so the tables of
    # one game and version share it, and its derived tables are built once.
    return make_game(game, variant or None, json.loads(settings))


def create_table(session: Session, name: str, game: str, variant: str | None = None,
                 settings: dict[str, str | bool] | None = None, limit_min: int | None = None,
                 limit_max: int | None = None, mode: str = "rng",
                 actor: str = "system") -> GameTable:
    """A table of a wager game (roulette, boule, money wheel, Tuplanoppa, Sic Bo)."""
    try:
        engine = make_game(game, variant, settings or {})
    except GameError as exc:
        raise TableError(str(exc)) from None
    if mode not in ("rng", "live"):
        raise TableError(f"mode {mode!r}: rng or live")
    lo = engine.rules.limits.min if limit_min is None else limit_min
    hi = engine.rules.limits.max if limit_max is None else limit_max
    if not 0 < lo <= hi:
        raise TableError("limits: 0 < minimum <= maximum")
    if session.scalars(select(GameTable).where(GameTable.name == name)).one_or_none():
        raise TableError(f"a table called {name!r} exists")
    table = GameTable(name=name, game=engine.name, variant=engine.variant or "",
                      settings=json.dumps(dict(engine.settings), sort_keys=True),
                      limit_min=lo, limit_max=hi, mode=mode,
                      gaming_day=now_utc().date(), created_at=now_utc())
    session.add(table)
    session.flush()
    append_audit(session, actor, "table", {"table": name, "game": table.game,
                                           "variant": table.variant, "min": lo, "max": hi,
                                           "mode": mode})
    return table


def set_table(session: Session, name: str, actor: str, status: str | None = None,
              limit_min: int | None = None, limit_max: int | None = None) -> GameTable:
    """Staff open or close a table, or set its limits (RAY 1.1: the limits are shown at
    the table). A table is closed only with no bets on it; new limits apply from the
    next round (a live table's desk reads them when it opens one)."""
    table = find_table(session, name)
    if status is not None:
        if status not in ("open", "closed"):
            raise TableError(f"status {status!r}: open or closed")
        if status == "closed":
            row = session.scalars(select(RoundRow).where(
                RoundRow.table_id == table.id,
                RoundRow.status.in_((*OPEN, "deciding")))).first()
            if row is not None and (row.status == "deciding" or _bets(session, row.id)):
                raise TableError(f"round {row.id} at {name} has bets: settle or void it "
                                 "before closing the table")
        table.status = status
    lo = table.limit_min if limit_min is None else limit_min
    hi = table.limit_max if limit_max is None else limit_max
    if not 0 < lo <= hi:
        raise TableError("limits: 0 < minimum <= maximum")
    if (lo, hi) != (table.limit_min, table.limit_max):
        _keep_limits(session, table)
    table.limit_min, table.limit_max = lo, hi
    session.flush()
    append_audit(session, actor, "table-settings", {"table": name, "status": table.status,
                                                    "min": lo, "max": hi})
    return table


def _keep_limits(session: Session, table: GameTable) -> None:
    """The table's round open for bets keeps the limits its bets were placed under: they
    are written in its record before the table's change (the engine replays the round's
    bets under its limits)."""
    for row in session.scalars(select(RoundRow).where(RoundRow.table_id == table.id,
                                                      RoundRow.status.in_(OPEN))):
        if "limits" not in json.loads(row.record or "{}"):
            row.record = json.dumps({"limits": {"min": table.limit_min,
                                                "max": table.limit_max}})


def round_limits(table: GameTable, row: RoundRow) -> Limits:
    """The limits of a round open for bets: those it kept when the table's changed, else
    the table's."""
    kept = json.loads(row.record).get("limits") if row.record not in ("", "{}") else None
    if isinstance(kept, dict):
        return Limits(int(kept["min"]), int(kept["max"]))
    return Limits(table.limit_min, table.limit_max)


def find_table(session: Session, name: str) -> GameTable:
    table = session.scalars(select(GameTable).where(GameTable.name == name)).one_or_none()
    if table is None:
        raise TableError(f"no table {name!r}")
    return table


def open_rng_table(session: Session, name: str, game: str, limit_min: int, limit_max: int,
                   actor: str = "system") -> GameTable:
    """Open a player's RNG table ``name`` of ``game``, whose bets and limits are its rule
    file's (a slot, Three Card Poker, Red Dog); refused if the name is taken."""
    if session.scalars(select(GameTable).where(GameTable.name == name)).first():
        raise TableError(f"table {name!r} exists")
    now = now_utc()
    table = GameTable(name=name, game=game, variant="", settings="{}", limit_min=limit_min,
                      limit_max=limit_max, mode="rng", status="open", gaming_day=now.date(),
                      created_at=now)
    session.add(table)
    session.flush()
    append_audit(session, actor, "table_opened",
                 {"table": name, "game": game, "mode": "rng", "limit_min": limit_min,
                  "limit_max": limit_max})
    return table


def playing_row(session: Session, table: GameTable) -> RoundRow | None:
    """The table's round in play (waiting for its player), locked and read afresh."""
    return session.scalars(
        select(RoundRow).where(RoundRow.table_id == table.id,
                               RoundRow.status == RoundStatus.PLAYING)
        .order_by(RoundRow.id).with_for_update()
        .execution_options(populate_existing=True)).first()


def open_round(session: Session, table: GameTable, lock: bool = True) -> RoundRow:
    """The table's round open for bets (opened when none is), locked for this
    transaction."""
    query = select(RoundRow).where(RoundRow.table_id == table.id,
                                   RoundRow.status.in_(OPEN)).order_by(RoundRow.id)
    # A locked row is read as it now is, not as this session may have read it before the
    # lock (another transaction may have settled it while we waited).
    fresh = {"populate_existing": True}
    found = session.scalars((query.with_for_update() if lock else query)
                            .execution_options(**fresh)).first()
    if found is None:  # lock the table so that two first bets open one round, not two
        lock_table(session, table)
        found = session.scalars(query.with_for_update().execution_options(**fresh)).first()
    return found or new_round(session, table)


def new_round(session: Session, table: GameTable) -> RoundRow:
    """Open a new round at ``table``; the caller holds the table's lock."""
    now = now_utc()
    values = {"table_id": table.id, "status": "betting", "gaming_day": table.gaming_day,
              "record": "{}", "opened_at": now,
              "deadline": now + timedelta(hours=PENDING_HOURS)}
    round_id = session.connection().execute(_NEW_ROUND, values).scalar_one()
    return RoundRow(id=round_id, **values)  # a detached copy; the row is in the database


def lock_round(session: Session, round_id: int) -> tuple[str, str]:
    """Lock a round's row for this transaction; its status and its table's (open or
    closed), read in the same statement."""
    row = session.connection().execute(_LOCK_ROUND, {"round": round_id}).one()
    return str(row[0]), str(row[1])


def lock_table(session: Session, table: GameTable) -> tuple[int, int, str]:
    """Lock the table's row (whoever opens a round at a table holds it first); its limits
    and status as they are now."""
    row = session.connection().execute(_LOCK_TABLE, {"table": table.id}).one()
    return int(row[0]), int(row[1]), str(row[2])


@lru_cache(maxsize=1024)
def settings_text(settings: str) -> str:
    """A table's settings as the engines are cached by: JSON, keys sorted."""
    return json.dumps(json.loads(settings), sort_keys=True)


def _engine_round(table: GameTable, row: RoundRow, bets: Sequence[BetRow]) -> WagerRound:
    """The round open for bets at ``table`` as the engine holds it: each player's bets
    (those carried in from prison too) in their seat, under the round's limits."""
    limits = round_limits(table, row)
    game_id = game_id_of(table.game, table.variant)
    try:
        engine = wager_engine(game_id, settings_text(table.settings), limits.minimum,
                              limits.maximum)
        base = base_record(game_id, row.id, table.name, table.mode,
                           row.opened_at.isoformat(), json.loads(table.settings), limits)
        return WagerRound.of_bets(engine, base, [
            TableBet(b.number, b.player, b.spot, b.stake, b.level, b.carried) for b in bets])
    except (RecordError, IllegalMove, GameError) as exc:
        raise TableError(f"round {row.id} at {table.name}: {exc}") from None


def bet_count(session: Session, round_id: int) -> int:
    """How many bets round ``round_id`` holds (those carried in from prison too)."""
    return int(session.connection().execute(_COUNT_BETS, {"round": round_id}).scalar_one())


def _bets(session: Session, round_id: int) -> list[BetRow]:
    return list(session.scalars(select(BetRow).where(BetRow.round_id == round_id)
                                .order_by(BetRow.number)))


@dataclass(frozen=True)
class Slip:
    """A player's bets for one round, sent together under one idempotency key: the chips
    a player puts down before "no more bets"."""

    player: str
    bets: tuple[tuple[str, int], ...]  # (spot, amount in cents)
    key: str

    def bet_key(self, index: int) -> str:
        return self.key if len(self.bets) == 1 else f"{self.key}/{index}"


@dataclass
class SlipResult:
    """The receipts of an accepted slip, or why it was refused (nothing of it was taken)."""

    receipts: list[Receipt]
    refused: LedgerError | None = None


_BETS = cast(Table, BetRow.__table__)
_ROUNDS = cast(Table, RoundRow.__table__)
_TABLES = cast(Table, GameTable.__table__)
# The hot paths' statements, built once.
_USED_KEYS = select(_BETS.c.key).where(_BETS.c.key.in_(bindparam("keys", expanding=True)))
_INSERT_BETS = insert(_BETS)
_PAY_BETS = (update(_BETS).where(_BETS.c.round_id == bindparam("round"),
                                 _BETS.c.number == bindparam("bet_number"))
             .values(paid=bindparam("bet_paid"), result=bindparam("bet_result")))
_SETTLED = (update(_ROUNDS).where(_ROUNDS.c.id == bindparam("round"))
            .values(status="settled", finished_at=bindparam("at"), record=bindparam("rec")))
_LOCK_ROUND = (select(_ROUNDS.c.status, _TABLES.c.status)
               .join(_TABLES, _TABLES.c.id == _ROUNDS.c.table_id)
               .where(_ROUNDS.c.id == bindparam("round")).with_for_update(of=_ROUNDS))
_LOCK_TABLE = (select(_TABLES.c.limit_min, _TABLES.c.limit_max, _TABLES.c.status)
               .where(_TABLES.c.id == bindparam("table")).with_for_update())
_NEW_ROUND = insert(_ROUNDS).returning(_ROUNDS.c.id)
_COUNT_BETS = select(func.count()).select_from(_BETS).where(_BETS.c.round_id == bindparam("round"))


def accept_slips(session: Session, table: GameTable, round_id: int, rnd: WagerRound,
                 slips: Sequence[Slip], check_keys: bool = True) -> list[SlipResult]:
    """Check every slip with the engine and debit the accepted ones, all in this
    transaction and in a fixed number of statements, however many slips: the players'
    status and loss limits, their wallets (locked), the stakes and the bet rows.

    ``rnd`` is the round as the engine holds it; accepted bets are added to it (each in
    its player's seat, so a slip costs the same however many bets the table holds), and
    the stakes booked are checked against what the engine took. A slip
    is taken whole or refused whole (a spot that does not exist, a limit, no money); a
    retried slip (a key seen before) gets its first receipts. Without ``check_keys`` the
    look-up is left to the keys' unique constraints: a key used before then fails the
    whole transaction, and the caller tries again with the look-up.
    """
    session.flush()
    connection = session.connection()  # Core statements, without the ORM's overhead
    if table.status != "open":
        return [SlipResult([], TableError(f"{table.name} is closed")) for _ in slips]
    results: list[SlipResult | None] = [None] * len(slips)
    # A slip's first bet is keyed ``KEY`` alone or ``KEY/0``: either one seen means the
    # key was used before, whatever the slip held then.
    firsts = [k for slip in slips for k in (slip.key, f"{slip.key}/0")] if check_keys else []
    used: set[str] = set()
    for start in range(0, len(firsts), 500):
        used.update(connection.execute(_USED_KEYS, {"keys": firsts[start:start + 500]})
                    .scalars())
    check = accounts.StakeCheck(session, [slip.player for slip in slips])
    chipped = colour_chips.stakes_from(session, table, [slip.player for slip in slips])
    placed: dict[int, list[Receipt]] = {}
    spots: dict[int, list[str]] = {}
    engine_took: dict[int, int] = {}
    for n, slip in enumerate(slips):
        barred = check.barred(slip.player)
        if barred:  # the player first, then the table
            results[n] = SlipResult([], accounts.Refused(barred))
            continue
        if not slip.bets:
            results[n] = SlipResult([], TableError("a slip holds at least one bet"))
            continue
        if slip.key in used or f"{slip.key}/0" in used:
            results[n] = placed_before(connection, rnd, slip, table.id)
            continue
        chips = colour_chips.refusal(table, chipped.get(slip.player),
                                     [amount for _, amount in slip.bets])
        if chips:
            results[n] = SlipResult([], colour_chips.ChipError(chips))
            continue
        try:  # the engine takes the slip whole, or nothing of it
            placed[n], spots[n], engine_took[n] = rnd.place_slip(slip.player, slip.bets)
        except (GameError, IllegalMove) as exc:
            results[n] = SlipResult([], TableError(str(exc)))
            continue
        chips = colour_chips.refusal(table, chipped.get(slip.player),
                                     [r.accepted for r in placed[n]])
        if chips:  # cut to the maximum, and no longer whole chips
            rnd.take_back(slip.player, [r.bet_id for r in placed.pop(n)])
            results[n] = SlipResult([], colour_chips.ChipError(chips))
    # The players may stake (status, exclusion, loss limits) and hold the money.
    totals: dict[str, int] = {}
    for n, receipts in placed.items():
        totals[slips[n].player] = (totals.get(slips[n].player, 0)
                                   + sum(r.accepted for r in receipts))
    refusals = {player: reason for player, total in totals.items()
                if (reason := check.over_limit(player, total))}
    rnd.chip_accounts.update({p: stack.code for p, stack in chipped.items()})
    locked = lock_accounts(session, [rnd.account_of(p) for p in totals])
    wallets = {code: row.balance for code, row in locked.items()}
    postings: list[Posting] = []
    rows: list[dict[str, Any]] = []
    at = now_utc()
    expected: dict[str, int] = {}
    for n, receipts in placed.items():
        slip = slips[n]
        wallet = rnd.account_of(slip.player)
        total = sum(r.accepted for r in receipts)
        held = wallets.get(wallet, 0)
        if slip.player in refusals or held < total:
            rnd.take_back(slip.player, [r.bet_id for r in receipts])
            results[n] = SlipResult([], accounts.Refused(refusals[slip.player])
                                    if slip.player in refusals else LedgerError(
                f"{wallet} holds {format_cents(held)}, not {format_cents(total)}: no credit"))
            continue
        wallets[wallet] = held - total
        results[n] = SlipResult(receipts)
        # The slip is one stake, as the player made it; its bets' shares are the rows.
        postings.append(Posting(f"stake:{slip.key}", wallet, BANK, total, "stake",
                                f"{table.name} round {round_id}: bets "
                                + ",".join(str(r.bet_id) for r in receipts), round_id))
        expected[wallet] = expected.get(wallet, 0) - engine_took[n]
        expected[BANK] = expected.get(BANK, 0) + engine_took[n]
        for i, (receipt, spot) in enumerate(zip(receipts, spots[n], strict=True)):
            rows.append({"round_id": round_id, "number": receipt.bet_id,
                         "player": slip.player, "spot": spot,
                         "stake": receipt.accepted, "key": slip.bet_key(i), "level": 0,
                         "carried": False, "created_at": at})
    if postings:  # the bets first: the ledger's end of the transaction is the busy part
        metrics.count(session, metrics.BETS_ACCEPTED.labels("wager"), len(rows))
        table_layer.check_postings(postings, expected)
        connection.execute(_INSERT_BETS, rows)
        post(session, postings, actor="table:" + table.name, action="bets",
             note={"round": round_id}, fresh=True, locked=locked)
    return [r if r is not None else SlipResult([], TableError("not placed"))
            for r in results]


def placed_before(connection: Connection, rnd: WagerRound, slip: Slip,
                  table_id: int) -> SlipResult:
    """A slip whose key was used: its first receipts if it is the same slip again at
    table ``table_id`` (:func:`first_slip`), else refused with :class:`SlipConflict`."""
    try:
        first = first_slip(connection, table_id, slip, lambda spot: rnd.wager.spot(spot).key)
    except SlipConflict as exc:
        return SlipResult([], exc)
    return SlipResult(first or [])


_SLIP_LIMITS = (select(_ROUNDS.c.record, _TABLES.c.limit_max)
                .join(_TABLES, _TABLES.c.id == _ROUNDS.c.table_id)
                .where(_ROUNDS.c.id == bindparam("round")))
_STAKED_BEFORE = (select(func.coalesce(func.sum(_BETS.c.stake), 0))
                  .where(_BETS.c.round_id == bindparam("round"),
                         _BETS.c.player == bindparam("player"),
                         _BETS.c.spot == bindparam("spot"),
                         _BETS.c.number < bindparam("number"), _BETS.c.level == 0))


def first_slip(connection: Connection, table_id: int, slip: Slip,
               spot_key: Callable[[str], str]) -> list[Receipt] | None:
    """The receipts of the slip first placed under ``slip.key`` (its bets keyed ``KEY``
    alone or ``KEY/0``, ``KEY/1``...), if ``slip`` is that slip again: at the same table,
    by the same player, the same bets in the same order, each on the same spot
    (``spot_key`` names it as the table does) for the same amount. None if the key is
    new. Anything else is another request under a used key, and a retry's answer would
    be the first slip's round: :class:`SlipConflict`, naming the first slip.

    An amount the table's maximum cut is the same request when it is at least what was
    taken: the first one was more than the maximum let in, and so is this one.
    """
    rows = connection.execute(
        select(_BETS.c.key, _BETS.c.number, _BETS.c.player, _BETS.c.spot, _BETS.c.stake,
               _BETS.c.round_id, _ROUNDS.c.table_id, _TABLES.c.name)
        .join(_ROUNDS, _ROUNDS.c.id == _BETS.c.round_id)
        .join(_TABLES, _TABLES.c.id == _ROUNDS.c.table_id)
        .where(or_(_BETS.c.key == slip.key,
                   _BETS.c.key.startswith(f"{slip.key}/", autoescape=True)))).all()
    by_index: dict[int, Any] = {}
    for row in rows:  # KEY/n is the slip's bet n; KEY/x would be another key's bet
        suffix = row.key[len(slip.key) + 1:]
        if row.key == slip.key or suffix.isdigit():
            by_index[0 if row.key == slip.key else int(suffix)] = row
    if not by_index:
        return None
    first = [by_index[i] for i in sorted(by_index)]

    def same_bet(row: Any, spot: str, amount: int) -> bool:
        try:
            if row.player != slip.player or row.spot != spot_key(spot):
                return False
        except (GameError, LedgerError, ValueError):  # a spot the table does not know
            return False
        return amount == row.stake or (amount > row.stake and _cut(connection, row))

    if not (sorted(by_index) == list(range(len(slip.bets)))
            and all(row.table_id == table_id for row in first)
            and all(same_bet(row, spot, amount)
                    for row, (spot, amount) in zip(first, slip.bets, strict=True))):
        bets = ", ".join(f"{format_cents(row.stake)} € on {row.spot}" for row in first)
        used_for = f"a slip of {bets} at {first[0].name}"
        raise SlipConflict(f"bet key {slip.key!r} was used for a different bet: {used_for}",
                           used_for)
    return [Receipt(row.number, row.stake, 0, "already placed") for row in first]


def _cut(connection: Connection, row: Any) -> bool:
    """Whether bet ``row`` was cut to its round's maximum: with the player's bets on its
    spot before it, it holds the maximum (as :meth:`pelisali.games.round.Limits.accept`
    cuts)."""
    found = connection.execute(_SLIP_LIMITS, {"round": row.round_id}).one()
    kept = json.loads(found.record).get("limits") if found.record not in ("", "{}") else None
    maximum = int(kept["max"]) if isinstance(kept, dict) else int(found.limit_max)
    before = connection.execute(_STAKED_BEFORE, {
        "round": row.round_id, "player": row.player, "spot": row.spot,
        "number": row.number}).scalar_one()
    return int(before) + int(row.stake) >= maximum


def place_bets(session: Session, table_name: str, player: str,
               bets: Sequence[tuple[str, int]], key: str) -> list[Receipt]:
    """Accept a player's bets on several spots (one slip) and debit their stakes, in one
    transaction; refused whole with the reason, or accepted whole. An amount over the
    table maximum is accepted up to it; the rest never leaves the wallet."""
    table = find_table(session, table_name)
    row = open_round(session, table)
    rnd = _engine_round(table, row, _bets(session, row.id))
    result = accept_slips(session, table, row.id, rnd, [Slip(player, tuple(bets), key)])[0]
    if result.refused is not None:
        raise result.refused
    return result.receipts


def place_bet(session: Session, table_name: str, player: str, spot: str, amount: int,
              key: str) -> Receipt:
    """Accept one bet and debit its stake in one transaction; a retried request (same
    key) returns the first receipt."""
    return place_bets(session, table_name, player, [(spot, amount)], key)[0]


def settle(session: Session, table_name: str, rng: Rng | None = None,
           round_id: int | None = None) -> tuple[int, list[Settlement]]:
    """No more bets, the draw, and every payout, in this one transaction."""
    table = find_table(session, table_name)
    if round_id is None:
        row = open_round(session, table)
    else:
        found = session.scalars(select(RoundRow).where(RoundRow.id == round_id)
                                .with_for_update()
                                .execution_options(populate_existing=True)).one_or_none()
        if found is None or found.table_id != table.id:
            raise TableError(f"no round {round_id} at {table_name}")
        row = found
    if row.status not in OPEN:
        raise TableError(f"round {row.id} is {row.status}")
    rnd = _engine_round(table, row, _bets(session, row.id))
    return row.id, draw_and_settle(session, table, row.id, rnd, rng)


def draw_and_settle(session: Session, table: GameTable, round_id: int, rnd: WagerRound,
                    rng: Rng | None = None) -> list[Settlement]:
    """No more bets, the draw, and every payout of ``rnd``, the open round ``round_id``
    (locked by the caller); an empty list while players still have to choose. The draw
    is each device's slot drawn with ``rng`` (the secure generator by default), which the
    engine takes as its chance outcomes; at a provably fair table, with the player's seed
    pair (:mod:`pelisali.platform.fairness`), whose proof the record keeps."""
    started = time.perf_counter()
    fair = fairness.draw_rng(session, table, {seat.player for seat in rnd.seats.values()})
    try:
        rnd.draw(rnd.wager.draw(fair[0] if fair is not None else rng or SecureRng()))
    except (GameError, IllegalMove) as exc:
        raise TableError(str(exc)) from None
    proof: dict[str, Any] = {}
    if fair is not None:
        proof["fair"] = [fairness.proof_of(*fair)]
        fairness.keep(session, table, round_id, proof["fair"][0])
    choices = rnd.pending()
    if choices:  # roulette D, both zero rules: the players choose first
        record = rnd.record(DECIDING)
        derived = derived_of(record, rnd.wager) | with_chips(session, table, rnd) | proof
        _update_round(session, round_id, status=DECIDING,
                      record=table_layer.write_record(record, derived))
        append_audit(session, "table:" + table.name, "draw", {
            "round": round_id, "draws": derived["draws"],
            "choices": {str(k): v for k, v in choices.items()}})
        return []
    settled = _finish(session, table, round_id, rnd, proof)
    took = time.perf_counter() - started
    metrics.count(session, metrics.BETS_SETTLED.labels("wager"), len(settled))
    after_commit(session, lambda: metrics.SETTLE_SECONDS.labels("wager").observe(took))
    return settled


def with_chips(session: Session, table: GameTable, rnd: WagerRound) -> dict[str, object]:
    """The round's colour chips: each player who plays them stakes from and is paid to
    their stack (set in ``rnd``), and the record keeps their colour and bets (RULINGS
    "Colour chips"). Nothing at a table of value chips only."""
    if table.chips == "value":
        return {}
    bets = sorted((b.number, seat.player) for seat in rnd.seats.values()
                  for b in (*seat.carried, *seat.placed))
    chipped = colour_chips.stakes_from(session, table, {p for _, p in bets})
    rnd.chip_accounts.update({p: stack.code for p, stack in chipped.items()})
    return colour_chips.record_of(chipped, bets)


def _update_round(session: Session, round_id: int, **values: Any) -> None:
    session.connection().execute(update(_ROUNDS).where(_ROUNDS.c.id == round_id)
                                 .values(**values))
    expire(session, RoundRow, {round_id})


def _finish(session: Session, table: GameTable, round_id: int,
            rnd: WagerRound, proof: dict[str, Any] | None = None) -> list[Settlement]:
    """Pay the settled round; bets held in prison move to the table's open round, their
    stakes staying with the house until they are released or lost. The fractions of a
    cent the payouts were paid down by go, in whole cents, to the rounding account. The
    payouts must move each wallet by what the engine paid its seat."""
    if not rnd.settled:
        raise TableError(f"round {round_id}: choices are still to be made")
    settlements = rnd.settlements()
    record = rnd.record(SETTLED, settlements)
    derived = derived_of(record, rnd.wager) | with_chips(session, table, rnd) | (proof or {})
    session.flush()
    connection = session.connection()
    if settlements:
        connection.execute(_PAY_BETS, [{"round": round_id, "bet_number": s.bet_id,
                                        "bet_paid": s.paid, "bet_result": s.result}
                                       for s in settlements])
        expire(session, BetRow, {s.bet_id for s in settlements}, "number")
    won: dict[str, list[Settlement]] = {}
    for s in settlements:
        if s.paid:
            won.setdefault(s.player, []).append(s)
    # A player's payouts of the round are one transfer; the bet rows carry each bet's part.
    payouts = [Posting(f"settle:{round_id}:{player}", BANK, rnd.account_of(player),
                       sum(s.paid for s in paid), "win",
                       f"{table.name} round {round_id}: bets "
                       + ",".join(str(s.bet_id) for s in paid), round_id)
               for player, paid in won.items()]
    table_layer.check_postings(payouts, rnd.payouts())
    kept = rounding_posting(table.name, round_id, settlements)
    if kept is not None:
        payouts.append(kept)
    jackpots.settle_round(session, table, round_id, derived["result"])
    connection.execute(_SETTLED, {"round": round_id, "at": now_utc(),
                                  "rec": table_layer.write_record(record, derived)})
    expire(session, RoundRow, {round_id})
    held = [(round_id, s.bet_id, s.player, s.spot, s.stake, s.held_level)
            for s in settlements if s.held_level]
    _carry(session, table, held)
    post(session, payouts, actor="table:" + table.name, action="settle", note={
        "round": round_id, "draws": derived["draws"], "bets": len(settlements),
        "paid": sum(s.paid for s in settlements), "held": len(held)}, fresh=True)
    return settlements


def rounding_posting(table_name: str, round_id: int, settlements: Sequence[Settlement],
                     ) -> Posting | None:
    """The whole cents a round's payouts were paid down by, from the bank to the rounding
    account (RULINGS "Everywhere": fractions are paid down); the rest of a cent stays
    written in the round's record.

    >>> from fractions import Fraction
    >>> from pelisali.games.round import Settlement
    >>> half = Settlement(1, "ann", "banker", 1_010, 1_969, Fraction(1, 2), "win")
    >>> rounding_posting("pb-1", 7, [half, half, half]).amount
    1
    """
    kept = rounding_of(settlements)
    if kept < 1:
        return None
    return Posting(f"rounding:{round_id}", BANK, ROUNDING, int(kept), "rounding",
                   f"{table_name} round {round_id}: paid down to whole cents", round_id)


def _carry(session: Session, table: GameTable,
           held: list[tuple[int, int, str, str, int, int]]) -> None:
    """Bets held in prison (round, bet, player, spot, stake, level) join the table's open
    round at their level; their stakes were taken when they were first placed."""
    if not held:
        return
    following = open_round(session, table)
    top = max((b.number for b in _bets(session, following.id)), default=0)
    for from_round, number, player, spot, stake, level in held:
        top += 1
        session.add(BetRow(round_id=following.id, number=top, player=player,
                           spot=spot, stake=stake, key=f"carry:{from_round}:{number}",
                           level=level, carried=True, created_at=now_utc()))
    session.flush()


def decide(session: Session, table_name: str, round_id: int, bet_number: int, option: str,
           player: str) -> list[Settlement]:
    """A player's choice for a bet hit by zero (roulette D, both rules: ``prison`` or
    ``half``). When the last choice is made the round is settled; until then, nothing.
    The engine asks for the choices bet by bet; a choice made before its turn is held in
    the round's record until then."""
    table = find_table(session, table_name)
    row = session.scalars(select(RoundRow).where(RoundRow.id == round_id)
                          .with_for_update()
                          .execution_options(populate_existing=True)).one_or_none()
    if row is None or row.table_id != table.id:
        raise TableError(f"no round {round_id} at {table_name}")
    if row.status != DECIDING:
        raise TableError(f"round {round_id} is {row.status}, not waiting for a choice")
    owner = {b.number: b.player for b in _bets(session, row.id)}
    if owner.get(bet_number) != player:
        raise TableError(f"bet {bet_number} of round {round_id} is not {player}'s")
    rnd = _restore(table, row)
    try:
        rnd.decide(bet_number, option)
    except (GameError, IllegalMove) as exc:
        raise TableError(str(exc)) from None
    if rnd.pending():
        record = rnd.record(DECIDING)
        row.record = table_layer.write_record(
            record, derived_of(record, rnd.wager) | with_chips(session, table, rnd))
        return []
    return _finish(session, table, row.id, rnd)


def pending_choices(session: Session, round_id: int, player: str) -> dict[int, list[str]]:
    """The choices ``player`` still has to make in a round waiting for them: bet number
    to its options (roulette D, both zero rules)."""
    row = session.get(RoundRow, round_id)
    if row is None or row.status != DECIDING:
        return {}
    table = session.get(GameTable, row.table_id)
    if table is None:
        raise TableError(f"round {round_id} has no table")
    return _restore(table, row).pending(player)


def _restore(table: GameTable, row: RoundRow) -> WagerRound:
    """A round waiting for choices, rebuilt from its record (either version), seat by
    seat: the bets, the draw, the choices made."""
    try:
        record = table_layer.read_record(row.record, FAMILY)
        return WagerRound.of_record(FAMILY.game(record), record)
    except (RecordError, IllegalMove, GameError) as exc:
        raise TableError(f"round {row.id} cannot be resumed from its record: {exc}") from None


def void(session: Session, table_name: str, reason: str, actor: str) -> int:
    """Void the open round (mis-spin, device fault): every stake placed in it goes back;
    a bet in prison stays in prison (RAY 1.2.1) and is carried to the next round."""
    if not reason:
        raise TableError("a void needs its reason")
    table = find_table(session, table_name)
    row = open_round(session, table)
    bets = _bets(session, row.id)
    rnd = _engine_round(table, row, bets)
    record = rnd.record(VOID, void_reason=reason)
    chipped = with_chips(session, table, rnd)
    postings = [Posting(f"refund:{row.id}:{bet.number}", BANK, rnd.account_of(bet.player),
                        bet.stake, "refund", f"{table.name} round {row.id} void: {reason}",
                        row.id) for bet in bets if not bet.carried]
    table_layer.check_postings(postings, rnd.staked())
    table_layer.book(session, [p for p in postings if p.target.startswith("player:")])
    if any(not p.target.startswith("player:") for p in postings):  # colour chips back
        post(session, [p for p in postings if not p.target.startswith("player:")],
             actor=actor, action="refunds", note={"round": row.id})
    held = [bet for bet in bets if bet.carried]
    for bet in bets:
        if not bet.carried:
            bet.paid, bet.result = bet.stake, "refund"
    jackpots.refund_entries(session, row.id, f"void: {reason}", actor)
    row.status, row.finished_at = VOID, now_utc()
    row.record = table_layer.write_record(record, derived_of(record, rnd.wager) | chipped)
    for bet in held:
        bet.result = "prison"
    _carry(session, table, [(row.id, bet.number, bet.player, bet.spot, bet.stake, bet.level)
                            for bet in held])
    append_audit(session, actor, "void", {"round": row.id, "reason": reason})
    return row.id


def overdue(session: Session, at: datetime | None = None) -> list[int]:
    """The rounds left open or waiting for a choice past their 24-hour deadline
    (GGPoker house rules 2.3), oldest first."""
    return list(session.scalars(select(RoundRow.id).where(
        RoundRow.status.in_((*OPEN, DECIDING)), RoundRow.deadline <= (at or now_utc()))
        .order_by(RoundRow.id)))


def finish_round(session: Session, round_id: int, rng: Rng | None = None) -> str | None:
    """Finish round ``round_id`` if it is still open with bets or waiting for a choice:
    settled in full, a choice nobody made la partage, half back (a bet in prison hit by
    zero again: a quarter back). What was done, or None if there was nothing to do (it
    was finished meanwhile, by another process among them: the row is locked first)."""
    row = session.scalars(select(RoundRow).where(RoundRow.id == round_id).with_for_update()
                          .execution_options(populate_existing=True)).one_or_none()
    if row is None or row.status not in (*OPEN, DECIDING):
        return None
    table = session.get(GameTable, row.table_id)
    if table is None:
        raise TableError(f"round {row.id} has no table")
    if row.status == DECIDING:  # nobody chose in time: la partage, half back
        rnd = _restore(table, row)
        for number, options in rnd.pending().items():
            rnd.decide(number, next((o for o in DEFAULT_CHOICES if o in options), options[0]))
        _finish(session, table, row.id, rnd)
        append_audit(session, "system", "default-choice",
                     {"round": row.id, "choice": DEFAULT_CHOICE})
        return f"settled, unchosen bets {DEFAULT_CHOICE}"
    if not _bets(session, row.id):
        return None
    settle(session, table.name, rng, round_id=row.id)
    return "settled"


def recover(session: Session, rng: Rng | None = None, everything: bool = False,
            at: datetime | None = None) -> list[tuple[int, str]]:
    """Finish rounds left open with bets: those past their 24-hour deadline at ``at``
    (now by default), or all of them (``everything``, at a restart after a crash), each
    as :func:`finish_round` does."""
    ids = (list(session.scalars(select(RoundRow.id).where(
        RoundRow.status.in_((*OPEN, DECIDING))).order_by(RoundRow.id)))
        if everything else overdue(session, at))
    done: list[tuple[int, str]] = []
    for round_id in ids:
        what = finish_round(session, round_id, rng)
        if what is not None:
            done.append((round_id, what))
    return done


@dataclass(frozen=True)
class Recall:
    """A recorded round replayed: its settlements as recorded and as replayed, and the
    problem when the record does not replay or does not agree with itself."""

    round_id: int
    recorded: list[dict[str, Any]]
    replayed: list[dict[str, Any]]
    problem: str = ""

    @property
    def same(self) -> bool:
        return not self.problem and self.recorded == self.replayed


def recall(session: Session, round_id: int) -> Recall:
    """Replay a recorded round through the engine (its contract history, from the bets it
    carried in from prison) and compare with the recorded settlements; what the record
    shows besides its history (the draws, the bets, the choices) is checked against it.
    A void round has nothing to replay."""
    row = session.get(RoundRow, round_id)
    if row is None:
        raise TableError(f"no round {round_id}")
    if row.status not in (SETTLED, VOID):
        raise TableError(f"round {round_id} is still {row.status}")
    found = table_layer.recall(row.record, FAMILY)
    if row.status == VOID:
        return Recall(round_id, found.recorded, [])
    return Recall(round_id, found.recorded, found.replayed, found.problem or "")


@dataclass
class BetReconciliation:
    """Bet rows against the ledger, per round and player."""

    pairs: int
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def reconcile_bets(session: Session) -> BetReconciliation:
    """Every bet row agrees with the ledger: for each round and player, the stakes of the
    bets placed there (not those carried in from prison) equal the stake transfers, and
    what the bets were paid equals the win and refund transfers (and a slot round's
    free-spin winnings granted as a bonus). A slip is one stake
    transfer and a player's payouts of a round one win transfer; the rows carry each
    bet's part, and this proves the parts add up.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     reconcile_bets(s).ok
    True
    """
    def totals(query: Any) -> dict[tuple[int, str], int]:
        return {(round_id, player): int(total) for round_id, player, total in
                session.execute(query)}

    def ledger(kinds: tuple[str, ...], side: Any) -> dict[tuple[int, str], int]:
        return totals(select(Transfer.round_id, Player.name, func.sum(Transfer.amount))
                      .join(Player, Player.account_id == side)
                      .where(Transfer.kind.in_(kinds), Transfer.round_id.is_not(None))
                      .group_by(Transfer.round_id, Player.name))

    placed = totals(select(BetRow.round_id, BetRow.player, func.sum(BetRow.stake))
                    .where(BetRow.carried.is_(False)).group_by(BetRow.round_id, BetRow.player))
    paid = totals(select(BetRow.round_id, BetRow.player, func.sum(BetRow.paid))
                  .where(BetRow.paid > 0).group_by(BetRow.round_id, BetRow.player))
    returned = ledger(("win", "refund"), Transfer.target_id)
    # A slot round's free-spin winnings are paid to the player's bonus account.
    for row in session.execute(
            select(Transfer.round_id, Account.code, func.sum(Transfer.amount))
            .join(Account, Account.id == Transfer.target_id)
            .where(Transfer.kind == "bonus_grant", Transfer.round_id.is_not(None))
            .group_by(Transfer.round_id, Account.code)):
        pair = (int(row[0] or 0), str(row[1]).removeprefix("bonus:"))
        returned[pair] = returned.get(pair, 0) + int(row[2])
    problems = []
    for name, rows, moved in (
            ("staked", placed, ledger(("stake",), Transfer.source_id)),
            ("paid", paid, returned)):
        for pair in sorted(set(rows) | set(moved)):
            if rows.get(pair, 0) != moved.get(pair, 0):
                problems.append(f"round {pair[0]}, {pair[1]}: bets {name} {rows.get(pair, 0)}, "
                                f"ledger {moved.get(pair, 0)}")
    return BetReconciliation(len(set(placed) | set(paid)), problems)


def history(session: Session, player: str, limit: int = 50, before: int | None = None
            ) -> list[tuple[RoundRow, BetRow]]:
    """A player's bets, newest first, with their rounds (those older than bet id
    ``before``, when given: the next page)."""
    accounts.find(session, player)
    query = (select(RoundRow, BetRow).join(BetRow, BetRow.round_id == RoundRow.id)
             .where(BetRow.player == player))
    if before is not None:
        query = query.where(BetRow.id < before)
    rows = session.execute(query.order_by(BetRow.id.desc()).limit(limit)).all()
    return [(r, b) for r, b in rows]
