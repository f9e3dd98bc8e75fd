"""Group commit for RNG slips: the wager games a player plays alone at their own table,
one slip a round, drawn at once.

A slip alone costs two transactions and some 25 statements (:func:`tables.place
<pelisali.platform.tables.place>`, then :func:`tables.play_round
<pelisali.platform.tables.play_round>`). :func:`play_slips` takes the slips of many
players at their own tables and, in one transaction and a fixed number of statements
however many there are, checks each with the engine, debits the stakes, opens a round
for each, draws it, and pays it: the same rows, records, transfers and audit as the two
steps write, so history, recall, the day report and ``ledger check`` read them alike.
:class:`RngDesk` gathers the slips that arrive from many threads while a batch is being
written into the next batch (one thread writes at a time, and it is always one of the
players' own).

A slip the batch does not take on its own way is played the usual two steps inside the
batch's transaction: a key used before (its first answer), a table with a round already
open (bets carried in from prison, a round waiting for roulette D's choices), a table
whose zero rule can hold a bet in prison or ask for a choice (roulette D en prison or
both), a table with a jackpot, a provably fair table, or any table but a wheel's or
dice's.

>>> from datetime import date
>>> from pelisali.platform import accounts, tables
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform.ledger import move
>>> from pelisali.rng import SeededRng
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = move(s, "fund", "external:owner", "house:bank", 1_000_000, "funding")
...     for name in ("ann", "bob"):
...         _ = accounts.register(s, name, date(1990, 1, 1), "FI")
...         _ = accounts.deposit(s, name, 10_000, key=f"d-{name}")
...         _ = tables.own_table(s, name, "roulette", "C")
>>> with transaction(engine) as s:
...     done = play_slips(s, [RngSlip("rng-roulette-C-ann", "ann", (("red", 1_000),), "a1"),
...                           RngSlip("rng-roulette-C-bob", "bob", (("nowhere", 100),), "b1")],
...                       SeededRng(3))
>>> [(x.settlements[0].spot, x.settlements[0].stake) for x in done[:1]]
[('red', 1000)]
>>> str(done[1].refused).split(";")[0]
"roulette C has no betting spot 'nowhere'"
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any, cast

from sqlalchemy import Engine, Table, bindparam, exists, insert, select, update
from sqlalchemy.orm import Session

from pelisali.engine import IllegalMove
from pelisali.games import GameError
from pelisali.games.round import Limits, Receipt, Settlement
from pelisali.money import format_cents
from pelisali.platform import accounts, metrics, table_layer
from pelisali.platform.db import RETRIES, after_commit, retry_wait, transaction, transient
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import LedgerError, Posting, lock_accounts, now_utc, post
from pelisali.platform.models import BetRow, GameTable, Jackpot, RoundRow
from pelisali.platform.rounds import (
    BANK,
    PENDING_HOURS,
    Slip,
    TableError,
    placed_before,
    rounding_posting,
    settings_text,
)
from pelisali.platform.table_layer import RecordError
from pelisali.platform.wager_family import (
    WagerRound,
    base_record,
    derived_of,
    game_id_of,
    wager_engine,
)
from pelisali.rng import Rng, SecureRng

__all__ = ["RngDesk", "RngOutcome", "RngSlip", "play_slips"]

_TABLES = cast(Table, GameTable.__table__)
_ROUNDS = cast(Table, RoundRow.__table__)
_BETS = cast(Table, BetRow.__table__)
_JACKPOTS = cast(Table, Jackpot.__table__)

# The batch's tables locked, each with whether it has a round open or a jackpot (either
# sends its slip the usual way), and whether any of the slips' first keys was used (the
# rare case that needs _USED_KEYS): one round trip for what the batch reads first.
_LOCK_TABLES = (select(
    _TABLES,
    exists().where(_ROUNDS.c.table_id == _TABLES.c.id,
                   _ROUNDS.c.status.in_((RoundStatus.BETTING, RoundStatus.DECIDING)))
    .label("round_open"),
    exists().where(_JACKPOTS.c.table_id == _TABLES.c.id).label("jackpot"),
    exists().where(_BETS.c.key.in_(bindparam("keys", expanding=True))).label("key_used"))
    .where(_TABLES.c.name.in_(bindparam("names", expanding=True)))
    .order_by(_TABLES.c.id).with_for_update(of=_TABLES))
_USED_KEYS = select(_BETS.c.key).where(_BETS.c.key.in_(bindparam("keys", expanding=True)))
_NEW_ROUNDS = insert(_ROUNDS).returning(_ROUNDS.c.id, sort_by_parameter_order=True)
_INSERT_BETS = insert(_BETS)
_SETTLED = (update(_ROUNDS).where(_ROUNDS.c.id == bindparam("round"))
            .values(status=RoundStatus.SETTLED, finished_at=bindparam("at"),
                    record=bindparam("rec")))
_WAGER_GAMES = frozenset({"roulette", "boule", "money-wheel", "tuplanoppa", "sic-bo"})


@dataclass(frozen=True)
class RngSlip:
    """A player's slip of ``(spot, cents)`` bets at their own RNG table, under one
    idempotency key (its bets keyed as :class:`pelisali.platform.rounds.Slip` keys
    them)."""

    table: str
    player: str
    bets: tuple[tuple[str, int], ...]
    key: str

    def bet_key(self, index: int) -> str:
        return self.key if len(self.bets) == 1 else f"{self.key}/{index}"


@dataclass(frozen=True)
class RngOutcome:
    """What became of a slip: refused (nothing of it taken), or taken with its
    receipts and its round drawn: settled (its settlements), or waiting for the
    player's choices (roulette D after a zero: ``deciding``). ``again``: its key was
    used before; its first answer is its round's."""

    round_id: int | None = None
    receipts: tuple[Receipt, ...] = ()
    settlements: tuple[Settlement, ...] = ()
    result: str = ""  # the faces drawn, joined by "-"
    deciding: bool = False
    again: bool = False
    refused: LedgerError | None = None
    balance: int | None = None  # the player's wallet after the batch (a slip it played)


@dataclass
class _Taken:
    """A slip the batch takes: its table, the engine round, what it staked."""

    index: int
    slip: RngSlip
    table: Any  # the table's row
    round: WagerRound
    receipts: list[Receipt]
    spots: list[str]
    took: int
    round_id: int = 0


def _engine(table: Any) -> Any:
    return wager_engine(game_id_of(table.game, table.variant), settings_text(table.settings),
                        table.limit_min, table.limit_max)


def _new_round(table: Any, round_id: int, opened: str | None) -> WagerRound:
    game_id = game_id_of(table.game, table.variant)
    return WagerRound.of_bets(_engine(table), base_record(
        game_id, round_id, table.name, table.mode, opened, json.loads(table.settings),
        Limits(table.limit_min, table.limit_max)), [])


def _holds_or_asks(table: Any) -> bool:
    """Whether a zero at ``table`` can hold a bet in prison or wait for a player's choice
    (roulette D en prison or both, RAY 1.2.1 D): such rounds carry bets into the next."""
    try:
        return getattr(_engine(table).wager, "zero_rule", None) in ("prison", "both")
    except RecordError:
        return True  # the usual way says what is wrong with the table


def _again(connection: Any, table: Any, slip: RngSlip) -> RngOutcome:
    """A slip whose key was used: its first receipts if it is the same slip again at
    this table (its round's answer is the first one), else refused with the
    :class:`~pelisali.platform.rounds.SlipConflict` that names the first slip; nothing is
    opened or moved."""
    first = placed_before(connection, _new_round(table, 0, None),
                           Slip(slip.player, slip.bets, slip.key), table.id)
    if first.refused is not None:
        return RngOutcome(refused=first.refused)
    return RngOutcome(receipts=tuple(first.receipts), again=True)


def _usual_way(session: Session, slip: RngSlip, rng: Rng) -> RngOutcome:
    """The slip placed and its round drawn as :mod:`pelisali.platform.tables` does,
    inside a savepoint: refused whole, or taken."""
    from pelisali.platform import tables  # tables sits above this module's callers

    try:
        with session.begin_nested():
            receipts = tables.place(session, slip.table, slip.player, list(slip.bets),
                                    slip.key)
    except LedgerError as exc:
        return RngOutcome(refused=exc)
    if receipts and receipts[0].message == "already placed":  # raced in meanwhile
        return RngOutcome(receipts=tuple(receipts), again=True)
    round_id = session.scalar(select(_BETS.c.round_id).where(
        _BETS.c.key == slip.bet_key(0)))
    played = tables.play_round(session, slip.table, rng, round_id=round_id)
    row = session.get(RoundRow, played.round_id)
    faces = _faces(json.loads(row.record)) if row is not None else ""
    return RngOutcome(played.round_id, tuple(receipts), played.settlements, faces,
                      deciding=not played.settlements)


def play_slips(session: Session, slips: Sequence[RngSlip], rng: Rng | None = None
               ) -> list[RngOutcome]:
    """Play every slip at its own table in this transaction, each a round of its own
    drawn with ``rng`` (the secure generator by default): one outcome a slip, in their
    order. A slip is refused whole (a spot that does not exist, a limit, no money, a
    closed table, a player barred or over a loss limit) without touching the others.
    Two slips at one table are played one after the other, the later the usual way."""
    rng = rng or SecureRng()
    started = time.perf_counter()
    outcomes: list[RngOutcome | None] = [None] * len(slips)
    connection = session.connection()
    session.flush()
    firsts = [k for slip in slips for k in (slip.key, f"{slip.key}/0")]
    found = {row.name: row for row in connection.execute(
        _LOCK_TABLES, {"names": sorted({s.table for s in slips}), "keys": firsts})}
    busy = {row.id for row in found.values() if row.round_open or row.jackpot}
    used = (set(connection.execute(_USED_KEYS, {"keys": firsts}).scalars())
            if any(row.key_used for row in found.values()) else set())
    usual: list[int] = []
    seen: set[str] = set()
    candidates: list[int] = []
    for n, slip in enumerate(slips):
        table = found.get(slip.table)
        if table is None:
            outcomes[n] = RngOutcome(refused=TableError(f"no table {slip.table!r}"))
        elif (table.game in _WAGER_GAMES and table.mode == "rng"
              and (slip.key in used or f"{slip.key}/0" in used)):
            outcomes[n] = _again(connection, table, slip)
        elif (table.id in busy or slip.table in seen or table.game not in _WAGER_GAMES
              or table.mode != "rng" or _holds_or_asks(table)
              or table.chips != "value" or table.fair):  # colour chips, fair: the usual way
            usual.append(n)
        else:
            seen.add(slip.table)
            candidates.append(n)
    check = accounts.StakeCheck(session, [slips[n].player for n in candidates], lock=True)
    taken: list[_Taken] = []
    opened = now_utc()
    for n in candidates:
        slip, table = slips[n], found[slips[n].table]
        reason = check.barred(slip.player)
        if reason:
            outcomes[n] = RngOutcome(refused=accounts.Refused(reason))
        elif table.status != "open":
            outcomes[n] = RngOutcome(refused=TableError(f"{table.name} is closed"))
        elif not slip.bets:
            outcomes[n] = RngOutcome(refused=TableError("a slip holds at least one bet"))
        else:
            try:  # the engine takes the slip whole, or nothing of it
                rnd = _new_round(table, 0, opened.isoformat())
                receipts, spots, took = rnd.place_slip(slip.player, slip.bets)
            except (GameError, IllegalMove, RecordError) as exc:
                outcomes[n] = RngOutcome(refused=TableError(str(exc)))
                continue
            taken.append(_Taken(n, slip, table, rnd, receipts, spots, took))
    # The players may stake (loss limits) and hold the money: one slip a player's table,
    # but a player may have tables of several games in one batch.
    totals: dict[str, int] = {}
    for t in taken:
        totals[t.slip.player] = totals.get(t.slip.player, 0) + sum(
            r.accepted for r in t.receipts)
    refusals = {p: reason for p, total in totals.items()
                if (reason := check.over_limit(p, total))}
    codes = [accounts.wallet_code(p) for p in totals]
    locked: dict[str, Any] = {c: check.wallets[c] for c in codes if c in check.wallets}
    if len(locked) < len(codes):  # a wallet not the player's own row: locked the usual way
        locked = lock_accounts(session, codes)
    wallets = {code: int(row.balance) for code, row in locked.items()}
    kept: list[_Taken] = []
    for t in taken:
        wallet = accounts.wallet_code(t.slip.player)
        total = sum(r.accepted for r in t.receipts)
        if t.slip.player in refusals:
            outcomes[t.index] = RngOutcome(refused=accounts.Refused(refusals[t.slip.player]))
        elif wallets[wallet] < total:
            outcomes[t.index] = RngOutcome(refused=LedgerError(
                f"{wallet} holds {format_cents(wallets[wallet])}, not "
                f"{format_cents(total)}: no credit"))
        else:
            wallets[wallet] -= total
            kept.append(t)
    if kept:
        _play(session, kept, opened, rng, locked, outcomes)
        metrics.count(session, metrics.BETS_ACCEPTED.labels("wager"),
                      sum(len(t.receipts) for t in kept))
    for n in usual:  # after the batch's own: a second slip at a table follows its first
        outcomes[n] = _usual_way(session, slips[n], rng)
    seconds = time.perf_counter() - started
    rounds = sum(1 for o in outcomes if o is not None and o.balance is not None)

    def observe() -> None:  # a round of the batch is settled in the batch's time
        for _ in range(rounds):
            metrics.SETTLE_SECONDS.labels("wager").observe(seconds)

    if rounds:
        after_commit(session, observe)
    return [o if o is not None else RngOutcome(refused=TableError("not played"))
            for o in outcomes]


def _play(session: Session, kept: list[_Taken], opened: Any, rng: Rng,
          locked: dict[str, Any], outcomes: list[RngOutcome | None]) -> None:
    """Open a round for each slip taken, write its bets, draw it and pay it: a fixed
    number of statements for the lot."""
    connection = session.connection()
    deadline = opened + timedelta(hours=PENDING_HOURS)
    rows = [{"table_id": t.table.id, "status": RoundStatus.BETTING,
             "gaming_day": t.table.gaming_day, "record": "{}", "opened_at": opened,
             "deadline": deadline} for t in kept]
    for t, made in zip(kept, connection.execute(_NEW_ROUNDS, rows).scalars(), strict=True):
        t.round_id = int(made)
        # The round the check placed the slip in, now with its number (which only the
        # record's fixed part carries).
        t.round.base = t.round.base.model_copy(update={"round_id": t.round_id})
    stakes: list[Posting] = []
    postings: list[Posting] = []
    expected: dict[str, int] = {}
    drawn: list[dict[str, Any]] = []
    bets: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    at = now_utc()
    settled_bets = 0
    for t in kept:
        wallet = accounts.wallet_code(t.slip.player)
        name, rid = t.table.name, t.round_id
        stakes.append(Posting(f"stake:{t.slip.key}", wallet, BANK,
                              sum(r.accepted for r in t.receipts), "stake",
                              f"{name} round {rid}: bets "
                              + ",".join(str(r.bet_id) for r in t.receipts), rid))
        expected[wallet] = expected.get(wallet, 0) - t.took
        expected[BANK] = expected.get(BANK, 0) + t.took
        try:
            t.round.draw(t.round.wager.draw(rng))
        except (GameError, IllegalMove) as exc:
            raise TableError(str(exc)) from None
        if t.round.pending():  # a table that asks goes the usual way
            raise TableError(f"{name} round {rid} waits for a choice")
        settlements = t.round.settlements()
        settled_bets += len(settlements)
        if any(s.held_level for s in settlements):  # a table that holds goes the usual way
            raise TableError(f"{name} round {rid} holds a bet in prison")
        record = t.round.record(RoundStatus.SETTLED, settlements)
        derived = derived_of(record, t.round.wager)
        # The bets are written once drawn, with what they paid: no update after.
        outcome = {s.bet_id: s for s in settlements}
        for i, (r, spot) in enumerate(zip(t.receipts, t.spots, strict=True)):
            got = outcome.get(r.bet_id)
            bets.append({"round_id": rid, "number": r.bet_id, "player": t.slip.player,
                         "spot": spot, "stake": r.accepted, "key": t.slip.bet_key(i),
                         "level": 0, "carried": False, "created_at": opened,
                         "paid": None if got is None else got.paid,
                         "result": None if got is None else got.result})
        won = [s for s in settlements if s.paid]
        payouts = [Posting(f"settle:{rid}:{t.slip.player}", BANK, wallet,
                           sum(s.paid for s in won), "win",
                           f"{name} round {rid}: bets " + ",".join(str(s.bet_id) for s in won),
                           rid)] if won else []
        table_layer.check_postings(payouts, t.round.payouts())
        rounding = rounding_posting(name, rid, settlements)
        postings += payouts + ([rounding] if rounding is not None else [])
        drawn.append({"round": rid, "at": at, "rec": table_layer.write_record(record, derived)})
        notes.append({"round": rid, "table": name, "draws": derived["draws"],
                      "bets": len(settlements), "paid": sum(s.paid for s in settlements)})
        outcomes[t.index] = RngOutcome(rid, tuple(t.receipts), tuple(settlements),
                                       _faces(derived))
    table_layer.check_postings(stakes, expected)
    connection.execute(_INSERT_BETS, bets)
    connection.execute(_SETTLED, drawn)
    post(session, stakes + postings, actor="rng-desk", action="rounds",
         note={"rounds": notes}, fresh=True, locked=locked)
    # Each wallet was locked before the batch; after it, it holds what it held then and
    # what the batch moved.
    after = {code: int(row.balance) for code, row in locked.items()}
    for p in stakes + postings:
        for code, delta in ((p.source, -p.amount), (p.target, p.amount)):
            if code in after:
                after[code] += delta
    for t in kept:
        done = outcomes[t.index]
        if done is not None:
            outcomes[t.index] = replace(done, balance=after[accounts.wallet_code(t.slip.player)])
    metrics.count(session, metrics.BETS_SETTLED.labels("wager"), settled_bets)


def _faces(drawn: dict[str, Any]) -> str:
    """The faces a record (or its derived part) drew, joined by "-"."""
    return "-".join(d["face"] for d in drawn.get("draws", []))


@dataclass
class _Ticket:
    slip: RngSlip
    done: threading.Event = field(default_factory=threading.Event)
    outcome: RngOutcome | None = None
    error: BaseException | None = None
    lead: bool = False


class RngDesk:
    """Slips from many threads played together: a thread whose slip arrives while
    another batch is being written waits, and its slip goes into the next batch with the
    others that arrived meanwhile (at most ``most``, one a table). The thread that writes
    a batch is one of its players'; when it is done, the next waiting thread writes the
    next.

    A batch that fails on the database (a deadlock, a dropped connection) is tried again
    whole, nothing of it having committed, and after the last try fails for each of its
    slips; a batch that fails otherwise is played again slip by slip, so that one slip's
    fault is its own.

    >>> from pelisali.platform.db import make_engine, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> RngDesk(engine).play(RngSlip("rng-roulette-C-ann", "ann", (("red", 100),), "k"))
    RngOutcome(round_id=None, receipts=(), settlements=(), result='', deciding=False, \
again=False, refused=TableError("no table 'rng-roulette-C-ann'"), balance=None)
    """

    def __init__(self, engine: Engine, rng: Rng | None = None, most: int = 64) -> None:
        self.engine, self.rng, self.most = engine, rng, most
        self._lock = threading.Lock()
        self._waiting: list[_Ticket] = []
        self._writing = False
        self.batches = 0  # how many batches were written, and how many slips in them
        self.slips = 0

    def play(self, slip: RngSlip) -> RngOutcome:
        """Play ``slip`` in the next batch; its outcome once that batch has committed."""
        ticket = _Ticket(slip)
        with self._lock:
            self._waiting.append(ticket)
            if not self._writing:
                self._writing = ticket.lead = True
        while not ticket.lead:
            ticket.done.wait()
            if ticket.outcome is not None or ticket.error is not None:
                break
        if ticket.lead and ticket.outcome is None and ticket.error is None:
            self._write()
        if ticket.error is not None:
            raise ticket.error
        if ticket.outcome is None:  # cannot be: every ticket taken gets one or the other
            raise TableError("the slip was not played: send it again")
        return ticket.outcome

    def _take(self) -> list[_Ticket]:
        batch: list[_Ticket] = []
        tables: set[str] = set()
        left: list[_Ticket] = []
        for ticket in self._waiting:
            if len(batch) < self.most and ticket.slip.table not in tables:
                tables.add(ticket.slip.table)
                batch.append(ticket)
            else:
                left.append(ticket)
        self._waiting = left
        return batch

    def _write(self) -> None:
        """Write one batch (this thread's slip in it), then hand the writing on."""
        with self._lock:
            batch = self._take()
        try:
            self._run(batch)
        finally:
            with self._lock:
                following = self._waiting[0] if self._waiting else None
                if following is None:
                    self._writing = False
                else:
                    following.lead = True
            if following is not None:
                following.done.set()

    def _run(self, batch: list[_Ticket]) -> None:
        slips = [t.slip for t in batch]
        for attempt in range(1, RETRIES + 1):
            try:
                with transaction(self.engine) as session:
                    outcomes = play_slips(session, slips, self.rng)
                break
            except Exception as exc:
                if transient(exc) and attempt < RETRIES:  # nothing of it committed
                    metrics.DB_RETRIES.labels(transient(exc)).inc()
                    time.sleep(retry_wait(attempt))
                    continue
                if transient(exc) or len(batch) == 1:
                    for ticket in batch:
                        ticket.error = exc
                        ticket.done.set()
                    return
                for ticket in batch:  # one slip's fault is its own
                    self._run([ticket])
                return
        self.batches += 1
        self.slips += len(batch)
        for ticket, outcome in zip(batch, outcomes, strict=True):
            ticket.outcome = outcome
            ticket.done.set()
