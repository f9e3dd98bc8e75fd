"""Table-game jackpots in the ledger (RAY 2016 1.2.1: "Kaikissa pöytäpeleissä on
mahdollista jakaa myös ... jackpotvoittoja").

A jackpot is a side game at a table. A player joins a round by paying its
participation fee and wins when the round's result is one of the jackpot's
winning results. The win is one of three kinds:
- ``fixed``: an announced sum, paid by the house;
- ``odds``: a multiple of the fee, paid by the house;
- ``progressive``: the pool, shared equally by the round's winning participants,
  with the remainder cent staying in the pool.

For a progressive jackpot, ``share_percent`` of each fee accrues to
``jackpot:NAME:accrual`` and the rest goes to the house. The accrual joins the pool
(``jackpot:NAME``) at the end of the gaming day, as RAY writes for the poker
jackpot. After a win the house tops the pool up to its guaranteed minimum
(``minimum``).

A progressive of a whole game (:func:`create_game_progressive`: Ultimate Texas Hold'em's)
has no table of its own. Every table of the game takes its fee (:func:`contribute`) and
pays a winning hand its share of the pool (:func:`pay_share`).

>>> from datetime import date
>>> from pelisali.platform import accounts
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform.ledger import balance, move
>>> from pelisali.platform.rounds import create_table
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = move(s, "fund", "external:owner", "house:bank", 1_000_000, "funding")
...     _ = create_table(s, "r1", "roulette", "C")
...     _ = create_jackpot(s, "zero", "r1", "progressive", fee=100, share_percent=50,
...                        minimum=10_000, faces=["0"])
...     balance(s, "jackpot:zero")
10000
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from datetime import date
from typing import cast

from sqlalchemy import Table, bindparam, func, select
from sqlalchemy.orm import Session

from pelisali.games.base import WagerGame
from pelisali.platform import accounts
from pelisali.platform.ledger import (
    LedgerError,
    append_audit,
    balance,
    correct,
    locked_balance,
    move,
    now_utc,
    open_account,
)
from pelisali.platform.models import GameTable, Jackpot, JackpotEntry, Transfer

KINDS = ("fixed", "odds", "progressive")


_ANY_JACKPOT = (select(cast(Table, Jackpot.__table__).c.id)
                .where(cast(Table, Jackpot.__table__).c.table_id == bindparam("table")).limit(1))


POOLS = ("progressive", "bad-beat")


class JackpotError(LedgerError):
    """A jackpot request refused; nothing changed."""


def pool(name: str) -> str:
    return f"jackpot:{name}"


def accrual(name: str) -> str:
    return f"jackpot:{name}:accrual"


def create_jackpot(session: Session, name: str, table_name: str, kind: str, fee: int,
                   faces: list[str], amount: int = 0, odds: int = 0, share_percent: int = 0,
                   minimum: int = 0, actor: str = "system") -> Jackpot:
    """A jackpot at a table; a progressive one is seeded to its guaranteed minimum."""
    from pelisali.platform.rounds import _game, find_table

    table = find_table(session, table_name)
    if kind not in KINDS:
        raise JackpotError(f"jackpot kind {kind!r}: {', '.join(KINDS)}")
    if fee < 0 or amount < 0 or odds < 0 or minimum < 0 or not 0 <= share_percent <= 100:
        raise JackpotError("fee, amount, odds and minimum are 0 or more; share 0-100 %")
    if kind == "fixed" and amount <= 0:
        raise JackpotError("a fixed jackpot needs its announced sum")
    if kind == "odds" and (odds <= 0 or fee <= 0):
        raise JackpotError("a jackpot by odds needs odds and a fee to multiply")
    if kind == "progressive" and minimum <= 0:
        raise JackpotError("a progressive jackpot needs its guaranteed minimum")
    if not faces:
        raise JackpotError("a jackpot needs the results that win it")
    known = results_of(_game(table))
    unknown = [f for f in faces if f not in known]
    if unknown:
        raise JackpotError(f"{unknown[0]!r} is not a result of {table.game}")
    if session.scalars(select(Jackpot).where(Jackpot.name == name)).one_or_none():
        raise JackpotError(f"a jackpot called {name!r} exists")
    jackpot = Jackpot(name=name, table_id=table.id, kind=kind, fee=fee, amount=amount,
                      odds=odds, share_percent=share_percent, minimum=minimum,
                      faces=json.dumps(sorted(faces)), created_at=now_utc())
    session.add(jackpot)
    session.flush()
    append_audit(session, actor, "jackpot", {"jackpot": name, "table": table.name,
                                             "kind": kind, "fee": fee, "faces": faces})
    if kind == "progressive":
        move(session, f"jackpot-seed:{name}:0", "house:bank", pool(name), minimum, "funding",
             reason=f"{name}: the guaranteed minimum")
    return jackpot


def create_game_progressive(session: Session, name: str, game: str, fee: int,
                            share_percent: int, minimum: int, hands: list[str],
                            actor: str = "system") -> Jackpot:
    """A progressive jackpot of a whole ``game``, fed and won at each of its tables (every
    player's own table): ``share_percent`` of each ``fee`` accrues to it, ``hands`` are
    the results it pays, and the house seeds it to ``minimum``.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> from pelisali.platform.ledger import balance, move
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     _ = move(s, "fund", "external:owner", "house:bank", 2_000_000, "funding")
    ...     made = create_game_progressive(s, "uth", "ultimate-texas-holdem", 100, 50,
    ...                                    1_000_000, ["royal_flush", "straight_flush"])
    ...     game_progressive(s, "ultimate-texas-holdem").name, balance(s, "jackpot:uth")
    ('uth', 1000000)
    """
    if fee <= 0 or minimum <= 0 or not 0 <= share_percent <= 100:
        raise JackpotError("a progressive needs a fee and a guaranteed minimum above 0 and "
                           "a share of 0-100 %")
    if not hands:
        raise JackpotError("a jackpot needs the results that win it")
    if game_progressive(session, game) is not None:
        raise JackpotError(f"{game} has its progressive already")
    if session.scalars(select(Jackpot).where(Jackpot.name == name)).one_or_none():
        raise JackpotError(f"a jackpot called {name!r} exists")
    jackpot = Jackpot(name=name, table_id=None, game=game, kind="progressive", fee=fee,
                      amount=0, odds=0, share_percent=share_percent, minimum=minimum,
                      faces=json.dumps(sorted(hands)), created_at=now_utc())
    session.add(jackpot)
    session.flush()
    append_audit(session, actor, "jackpot", {"jackpot": name, "game": game,
                                             "kind": "progressive", "fee": fee,
                                             "faces": sorted(hands)})
    move(session, f"jackpot-seed:{name}:0", "house:bank", pool(name), minimum, "funding",
         reason=f"{name}: the guaranteed minimum")
    return jackpot


def game_progressive(session: Session, game: str) -> Jackpot | None:
    """The progressive jackpot of ``game``'s tables, if the casino runs one."""
    found: Jackpot | None = session.scalars(
        select(Jackpot).where(Jackpot.game == game)).one_or_none()
    return found


def contribute(session: Session, jackpot: Jackpot, key: str, fee: int, round_id: int,
               actor: str) -> int:
    """A progressive's share of a fee the house took as a stake, moved from the house to
    the accrual (which joins the pool at the end of the day). Returns the share."""
    share = fee * jackpot.share_percent // 100
    if share:
        move(session, f"jackpot-fee:{key}", "house:bank", accrual(jackpot.name), share,
             "jackpot_contribution", reason=f"{jackpot.name} round {round_id}",
             round_id=round_id, actor=actor)
    return share


def pay_share(session: Session, jackpot: Jackpot, key: str, player: str, percent: int,
              round_id: int, reason: str) -> int:
    """Pay ``player`` ``percent`` of the pool as it stands (locked, so two tables winning
    at once are paid one after the other), then top the pool up to its minimum. The sum
    paid."""
    won = locked_balance(session, pool(jackpot.name)) * percent // 100
    if won:
        move(session, f"jackpot-win:{key}", pool(jackpot.name), accounts.wallet_code(player),
             won, "jackpot_payout", reason=reason, round_id=round_id)
    _restore_minimum(session, jackpot, key)
    return won


def _restore_minimum(session: Session, jackpot: Jackpot, key: str) -> None:
    """After a win the house tops the pool up to its guaranteed minimum."""
    short = jackpot.minimum - balance(session, pool(jackpot.name))
    if short > 0:
        move(session, f"jackpot-seed:{jackpot.name}:{key}", "house:bank",
             pool(jackpot.name), short, "funding",
             reason=f"{jackpot.name}: back to the guaranteed minimum")


def results_of(game: WagerGame) -> set[str]:
    """Every result of the game's devices, written as a round's result is: faces joined
    by '-' (roulette "17"; Sic Bo "1-2-6")."""
    return {"-".join(faces) for faces in itertools.product(*(d.faces for d in game.devices))}


def refund_entries(session: Session, round_id: int, reason: str, actor: str) -> None:
    """A void round gives the jackpot fees back (each a correction of its fee)."""
    for entry in entries_of(session, round_id):
        for prefix in ("jackpot-fee", "jackpot-house"):
            fee = session.scalars(select(Transfer).where(
                Transfer.key == f"{prefix}:{entry.key}")).one_or_none()
            if fee is not None:
                correct(session, f"refund-{prefix}:{entry.key}", fee.id, reason, actor)
        entry.paid = 0


def find_jackpot(session: Session, name: str) -> Jackpot:
    found = session.scalars(select(Jackpot).where(Jackpot.name == name)).one_or_none()
    if found is None:
        raise JackpotError(f"no jackpot {name!r}")
    return found


def join(session: Session, name: str, player: str, key: str) -> JackpotEntry:
    """Join the table's open round's jackpot game, paying the participation fee."""
    from pelisali.platform.rounds import open_round

    jackpot = find_jackpot(session, name)
    done = session.scalars(select(JackpotEntry).where(JackpotEntry.key == key)).one_or_none()
    if done is not None:
        if (done.jackpot_id, done.player) != (jackpot.id, player):
            raise JackpotError(f"key {key!r} was used for a different entry")
        return done
    accounts.may_play(accounts.find(session, player))
    table = session.get(GameTable, jackpot.table_id)
    if table is None:
        raise JackpotError(f"{name} has no table")
    row = open_round(session, table)
    if jackpot.fee:
        to_pool = jackpot.fee * jackpot.share_percent // 100 \
            if jackpot.kind == "progressive" else 0
        if to_pool:
            move(session, f"jackpot-fee:{key}", accounts.wallet_code(player), accrual(name),
                 to_pool, "jackpot_contribution", reason=f"{name} round {row.id}",
                 round_id=row.id, actor=player)
        if jackpot.fee - to_pool:
            move(session, f"jackpot-house:{key}", accounts.wallet_code(player), "house:bank",
                 jackpot.fee - to_pool, "fee", reason=f"{name} round {row.id}",
                 round_id=row.id, actor=player)
    entry = JackpotEntry(jackpot_id=jackpot.id, round_id=row.id, player=player, key=key,
                         created_at=now_utc())
    session.add(entry)
    session.flush()
    return entry


def settle_round(session: Session, table: GameTable, round_id: int, result: str) -> int:
    """Pay every jackpot of the table that ``result`` wins; the total paid."""
    total = 0
    if session.connection().execute(_ANY_JACKPOT, {"table": table.id}).first() is None:
        return 0  # the common case, in one light statement
    for jackpot in session.scalars(select(Jackpot).where(Jackpot.table_id == table.id)):
        entries = session.scalars(select(JackpotEntry).where(
            JackpotEntry.jackpot_id == jackpot.id, JackpotEntry.round_id == round_id)
            .order_by(JackpotEntry.id)).all()
        won = result in json.loads(jackpot.faces)
        for entry in entries:
            entry.paid = 0
        if not won or not entries:
            continue
        if jackpot.kind == "progressive":
            each = balance(session, pool(jackpot.name)) // len(entries)
            source = pool(jackpot.name)
        else:
            each = jackpot.amount if jackpot.kind == "fixed" else jackpot.fee * jackpot.odds
            source = "house:bank"
        for entry in entries:
            if each:
                move(session, f"jackpot-win:{jackpot.name}:{round_id}:{entry.id}", source,
                     accounts.wallet_code(entry.player), each, "jackpot_payout",
                     reason=f"{jackpot.name} round {round_id}: {result}", round_id=round_id)
            entry.paid = each
            total += each
        if jackpot.kind == "progressive":
            _restore_minimum(session, jackpot, str(round_id))
    return total


def close_day(session: Session, name: str, day: date, actor: str = "system") -> int:
    """The end of the gaming day: the day's accrual joins the pool. Returns it."""
    jackpot = find_jackpot(session, name)
    # A pool (a progressive jackpot, the poker bad-beat jackpot) takes its day's accrual.
    amount = balance(session, accrual(name)) if jackpot.kind in POOLS else 0
    if amount:
        move(session, f"jackpot-accrual:{name}:{day.isoformat()}", accrual(name), pool(name),
             amount, "jackpot_contribution", reason=f"{name}: accrual of {day}", actor=actor)
    return amount


@dataclass
class Reconciliation:
    name: str
    pool: int
    accrual: int
    contributed: int  # all fees' pool shares ever taken, less those refunded
    seeded: int  # all the house put in for the minimum
    paid: int  # all jackpot wins from the pool

    @property
    def balanced(self) -> bool:
        """Pool and accrual together hold what came in less what was paid."""
        return self.pool + self.accrual == self.contributed + self.seeded - self.paid


def reconcile(session: Session, name: str) -> Reconciliation:
    """The jackpot's accounts against every transfer into and out of them."""
    find_jackpot(session, name)
    for code in (pool(name), accrual(name)):
        open_account(session, code, "jackpot")

    def total(kind: str, target: str | None = None, source: str | None = None) -> int:
        from pelisali.platform.models import Account

        query = select(func.coalesce(func.sum(Transfer.amount), 0)).where(Transfer.kind == kind)
        if target:
            query = query.where(Transfer.target_id == select(Account.id).where(
                Account.code == target).scalar_subquery())
        if source:
            query = query.where(Transfer.source_id == select(Account.id).where(
                Account.code == source).scalar_subquery())
        return int(session.scalar(query) or 0)

    return Reconciliation(
        name, balance(session, pool(name)), balance(session, accrual(name)),
        total("jackpot_contribution", target=accrual(name))
        - total("correction", source=accrual(name)),  # fees refunded in void rounds
        total("funding", target=pool(name)),
        total("jackpot_payout", source=pool(name)))


def entries_of(session: Session, round_id: int) -> list[JackpotEntry]:
    return list(session.scalars(select(JackpotEntry).where(JackpotEntry.round_id == round_id)))

