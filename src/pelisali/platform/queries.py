"""What the server reads and opens, as plain values: tables, a player's profile and
wallet, a round's result, a slip's first answer, a player's history and recall.

The server never holds an ORM row nor parses a round record: each function here
reads what one answer needs, in the caller's transaction, and returns frozen
dataclasses, strings and numbers. Where the data is another platform module's, the
function is a thin wrapper that turns its row into a value.

>>> from datetime import date
>>> from pelisali.platform import accounts, tables
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
...     live = open_table(s, "live-1", "roulette", "C", mode="live")
...     own = tables.own_table(s, "ann", "roulette", "C")
...     lobby = lobby_tables(s)
...     wallet(s, "ann")
0
>>> live.name, live.mode, live.status, live.min, live.max
('live-1', 'live', 'open', 100, 100000)
>>> [t.name for t in lobby]  # the player's own RNG table is not in the lobby
['live-1']
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from pelisali.platform import accounts, bonus, poker_tables, rounds, tables
from pelisali.platform.kinds import RoundStatus, TransferKind
from pelisali.platform.ledger import balance
from pelisali.platform.models import Account, BetRow, GameTable, RoundRow, Transfer
from pelisali.platform.tables import RoundRecall

HANDS_SHOWN = 200  # the poker hands looked through for a page of a player's history
HANDS_RECALLED = 10_000  # a poker hand older than this many is not recalled by its player


# -- tables ------------------------------------------------------------------------------
@dataclass(frozen=True)
class TableInfo:
    """A table as the lobby and the staff see it."""

    name: str
    game: str
    variant: str
    mode: str  # rng or live
    status: str  # open or closed
    min: int
    max: int


def _info(row: GameTable) -> TableInfo:
    return TableInfo(row.name, row.game, row.variant, row.mode, row.status, row.limit_min,
                     row.limit_max)


def table(session: Session, name: str) -> TableInfo:
    """The table called ``name`` (:class:`~pelisali.platform.rounds.TableError` if
    there is none)."""
    return _info(rounds.find_table(session, name))


def poker_table(session: Session, name: str) -> TableInfo:
    """The poker table called ``name``
    (:class:`~pelisali.platform.poker_tables.PokerTableError` if there is none)."""
    return _info(poker_tables.find_table(session, name))


def lobby_tables(session: Session) -> list[TableInfo]:
    """The open tables players join together: the live tables and the poker tables, by
    name (a player's own RNG tables are not among them)."""
    rows = session.scalars(select(GameTable).where(
        or_(GameTable.mode == "live", GameTable.game == poker_tables.GAME),
        GameTable.status == "open").order_by(GameTable.name))
    return [_info(row) for row in rows]


def round_table(session: Session, round_id: int) -> TableInfo | None:
    """The table round ``round_id`` was played at, if there is such a round."""
    row = session.get(RoundRow, round_id)
    found = session.get(GameTable, row.table_id) if row is not None else None
    return None if found is None else _info(found)


def open_table(session: Session, name: str, game: str, variant: str | None = None, *,
               limit_min: int | None = None, limit_max: int | None = None,
               mode: str = "rng", actor: str = "system") -> TableInfo:
    """A new table of any game but poker (:func:`pelisali.platform.tables.create`)."""
    return _info(tables.create(session, name, game, variant, limit_min=limit_min,
                               limit_max=limit_max, mode=mode, actor=actor))


def change_table(session: Session, name: str, actor: str, status: str | None = None,
                 limit_min: int | None = None, limit_max: int | None = None) -> TableInfo:
    """Open or close a table or set its limits (:func:`pelisali.platform.rounds.set_table`)."""
    return _info(rounds.set_table(session, name, actor, status=status, limit_min=limit_min,
                                  limit_max=limit_max))


def open_poker_table(session: Session, name: str, game: str, *, small_blind: int,
                     big_blind: int, min_buy_in: int, rake: Fraction = Fraction(0),
                     rake_cap: int | None = None, time_charge: int | None = None,
                     time_charge_minutes: int | None = None,
                     fold_when_check_free: bool = False, auto_muck: bool = False,
                     actor: str = "system") -> TableInfo:
    """A new poker table (:func:`pelisali.platform.poker_tables.create_table`)."""
    return _info(poker_tables.create_table(
        session, name, game, small_blind=small_blind, big_blind=big_blind,
        min_buy_in=min_buy_in, rake=rake, rake_cap=rake_cap, time_charge=time_charge,
        time_charge_minutes=time_charge_minutes, fold_when_check_free=fold_when_check_free,
        auto_muck=auto_muck, actor=actor))


# -- players -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Profile:
    """A player's standing and wallet."""

    name: str
    status: str  # active, restricted or barred
    excluded_until: datetime | None
    excluded_forever: bool
    balance: int


def profile(session: Session, name: str) -> Profile:
    """Player ``name``'s standing and wallet balance."""
    found = accounts.find(session, name)
    return Profile(found.name, found.status, found.excluded_until, found.excluded_forever,
                   wallet(session, name))


def wallet(session: Session, name: str) -> int:
    """The balance of player ``name``'s wallet, in cents."""
    return balance(session, accounts.wallet_code(name))


def wallets(session: Session, names: Iterable[str]) -> dict[str, int]:
    """The wallet balances of the players ``names``."""
    return {name: wallet(session, name) for name in names}


# -- rounds ------------------------------------------------------------------------------
def _faces(record: dict[str, Any]) -> str:
    return "-".join(draw["face"] for draw in record.get("draws", []))


def round_result(session: Session, round_id: int) -> str:
    """What round ``round_id`` drew, as shown at the table: the faces joined by ``-``
    (``"17"``, ``"2-5"``); empty while nothing is drawn."""
    row = session.get(RoundRow, round_id)
    if row is None:
        raise rounds.TableError(f"no round {round_id}")
    return _faces(json.loads(row.record))


@dataclass(frozen=True)
class Choosing:
    """A round waiting for ``player``'s choices (roulette D after a zero): each bet's
    options, spot and stake, and the deadline after which the default is applied."""

    round_id: int
    result: str
    choices: dict[int, list[str]]
    bets: dict[int, tuple[str, int]]  # bet number: (spot, stake)
    deadline: datetime


def choosing(session: Session, table_name: str, player: str,
             round_id: int | None = None) -> Choosing | None:
    """The round at ``table_name`` (or round ``round_id``) that waits for ``player``'s
    choices, or None: so that a player who reloads or comes back finds their choice."""
    waiting = tables.waiting(session, table_name, player, round_id)
    if waiting.round_id is None or not waiting.choices:
        return None
    row = session.get(RoundRow, waiting.round_id)
    if row is None:
        return None
    bets = {int(b.number): (b.spot, int(b.stake)) for b in session.scalars(
        select(BetRow).where(BetRow.round_id == row.id, BetRow.player == player))}
    return Choosing(row.id, _faces(json.loads(row.record)), dict(waiting.choices),
                    {n: bets[n] for n in waiting.choices if n in bets}, row.deadline)


@dataclass(frozen=True)
class DrawnRound:
    """A settled round as its table announces it: what was drawn and each bet's
    settlement (``bet_id``, ``player``, ``spot``, ``stake``, ``paid``, ``result``)."""

    round_id: int
    result: str
    settlements: list[dict[str, Any]]


def drawn_round(session: Session, round_id: int) -> DrawnRound | None:
    """Round ``round_id`` as announced once it is settled (None before)."""
    row = session.get(RoundRow, round_id)
    if row is None or row.status != RoundStatus.SETTLED:
        return None
    record = json.loads(row.record)
    return DrawnRound(row.id, _faces(record), [
        {k: s[k] for k in ("bet_id", "player", "spot", "stake", "paid", "result")}
        for s in record.get("settlements", [])])


def open_round_counts(session: Session) -> dict[str, int]:
    """How many rounds are open in the database, by status (betting, deciding,
    playing): what the monitoring watches for rounds left behind."""
    return {str(status): int(number) for status, number in session.execute(
        select(RoundRow.status, func.count()).where(
            RoundRow.status.not_in([RoundStatus.SETTLED, RoundStatus.VOID]))
        .group_by(RoundRow.status))}


@dataclass(frozen=True)
class SlipAnswer:
    """A settled slip as its player was first answered: the round, what it drew and
    the player's settlements of the slip's bets."""

    round_id: int
    result: str
    settlements: list[dict[str, Any]]  # bet_id, spot, stake, paid, result


def slip_round(session: Session, key: str) -> int | None:
    """The round the slip with idempotency key ``key`` was placed in (None: no such
    slip)."""
    return session.scalars(select(BetRow.round_id).where(
        or_(BetRow.key == key, BetRow.key.startswith(f"{key}/", autoescape=True)))
        .limit(1)).first()


def settled_slip(session: Session, key: str, player: str) -> SlipAnswer | None:
    """The first answer to the slip with idempotency key ``key`` (its bets are ``key``
    or ``key/n``), if its round is settled."""
    bets = session.scalars(select(BetRow).where(
        or_(BetRow.key == key, BetRow.key.startswith(f"{key}/", autoescape=True)))
        .order_by(BetRow.number)).all()
    row = session.get(RoundRow, bets[0].round_id) if bets else None
    if row is None or row.status != RoundStatus.SETTLED:
        return None
    record = json.loads(row.record)
    numbers = {bet.number for bet in bets}
    return SlipAnswer(row.id, _faces(record), [
        {k: s[k] for k in ("bet_id", "spot", "stake", "paid", "result")}
        for s in record["settlements"] if s["player"] == player and s["bet_id"] in numbers])


# -- history and recall ------------------------------------------------------------------
@dataclass(frozen=True)
class BetLine:
    """One bet in a player's history."""

    id: int  # the bet's own, for paging
    round_id: int
    table: str
    spot: str
    stake: int
    paid: int | None
    result: str | None
    at: datetime
    # taken back from the wallet apart from ``paid`` (Pai Gow Poker's on a win): the
    # player got ``paid - commission``
    commission: int = 0


@dataclass(frozen=True)
class HandLine:
    """One poker hand in a player's history: the chips they finished it with."""

    round_id: int
    table: str
    at: datetime | None
    chips: int | None


@dataclass(frozen=True)
class BonusLine:
    """A free-spin bonus's step in a player's history (GGPoker house rules, RNG slots 5):
    ``granted`` (locked until wagered by ``deadline``), ``released`` to the wallet or
    ``forfeited`` to the house, with the free spins' round."""

    at: datetime
    kind: str  # granted, released or forfeited
    amount: int
    deadline: datetime
    round_id: int
    grant_id: int


@dataclass(frozen=True)
class History:
    """A page of a player's bets and poker hands, newest first, and where the next page
    of each starts (``bets_before``, ``hands_before``; None: there is no more); and the
    steps of their free-spin bonuses, newest first."""

    bets: list[BetLine]
    hands: list[HandLine]
    bets_before: int | None = None
    hands_before: int | None = None
    bonuses: list[BonusLine] = field(default_factory=list)


@dataclass(frozen=True)
class RoundLine:
    """One of a player's rounds at a table: what it drew or dealt, and their bets in it
    as (spot, stake, paid; None while unsettled)."""

    round_id: int
    summary: str
    bets: list[tuple[str, int, int | None]]


def _summary(row: RoundRow) -> str:
    """What a round's record says happened: the draw (``17``, ``2-5``), punto banco's
    cards and result, blackjack's dealer; void with its reason, or still in play."""
    try:
        record: dict[str, Any] = json.loads(row.record)
    except ValueError:
        record = {}
    if row.status == RoundStatus.VOID:
        return f"void ({record.get('void_reason', '')})"
    if row.status != RoundStatus.SETTLED:
        return "in play"
    if record.get("draws"):
        return _faces(record)
    if "result" in record:  # punto banco: the cards with their sides
        cards = " ".join(f"{side[0].upper()}:{card}" for side, card in record.get("cards", []))
        return f"{cards} → {record['result']}"
    dealer = " ".join(record.get("dealer", []))
    return f"dealer {dealer}" if dealer else "settled"


def round_summary(session: Session, round_id: int) -> tuple[str, str]:
    """Round ``round_id``'s table and what it drew or dealt (:func:`_summary`; nothing for
    a poker hand, whose recall is its stacks); empty strings for a round not there."""
    row = session.get(RoundRow, round_id)
    table = session.get(GameTable, row.table_id) if row else None
    if row is None or table is None:
        return "", ""
    return table.name, "" if table.game == poker_tables.GAME else _summary(row)


def recent_rounds(session: Session, player: str, table_name: str, count: int = 10
                  ) -> list[RoundLine]:
    """``player``'s last ``count`` rounds at ``table_name``, oldest first."""
    table_id = rounds.find_table(session, table_name).id
    found: dict[int, tuple[RoundRow, list[tuple[str, int, int | None]]]] = {}
    for row, bet in rounds.history(session, player, limit=20 * count):
        if row.table_id != table_id:
            continue
        if row.id not in found and len(found) == count:
            break
        found.setdefault(row.id, (row, []))[1].insert(0, (bet.spot, bet.stake, bet.paid))
    return [RoundLine(row.id, _summary(row), bets)
            for row, bets in sorted(found.values(), key=lambda pair: pair[0].id)]


def _poker_hands(session: Session, player: str, limit: int, before: int | None = None
                 ) -> tuple[list[tuple[RoundRow, dict[str, Any]]], int | None]:
    """The recorded poker hands ``player`` played, newest first: up to ``limit`` of them
    among the :data:`HANDS_SHOWN` hands before round ``before``, and the round the next
    page starts before (None: no older hands)."""
    query = (select(RoundRow).join(GameTable, GameTable.id == RoundRow.table_id)
             .where(GameTable.game == poker_tables.GAME, RoundRow.status == RoundStatus.SETTLED))
    if before is not None:
        query = query.where(RoundRow.id < before)
    rows = session.scalars(query.order_by(RoundRow.id.desc()).limit(HANDS_SHOWN)).all()
    hands = []
    for row in rows:
        record = json.loads(row.record)
        if player in record.get("players", []):
            hands.append((row, record))
            if len(hands) == limit:
                return hands, row.id
    return hands, rows[-1].id if len(rows) == HANDS_SHOWN else None


def bonus_lines(session: Session, player: str, limit: int = 50) -> list[BonusLine]:
    """The newest ``limit`` steps of ``player``'s free-spin bonuses, newest first: each
    grant, and its release or forfeit.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     bonus_lines(s, "ann")
    []
    """
    lines = []
    for found in bonus.grants(session, player):
        lines.append(BonusLine(found.granted_at, "granted", found.amount, found.deadline,
                               found.round_id, found.id))
        if found.closed_at is not None:
            lines.append(BonusLine(found.closed_at, found.status, found.amount,
                                   found.deadline, found.round_id, found.id))
    # a grant's close sorts after its grant even at the same moment
    lines.sort(key=lambda line: (line.at, line.grant_id, line.kind != "granted"),
               reverse=True)
    return lines[:limit]


def _commissions(session: Session, player: str, round_ids: set[int]) -> dict[int, int]:
    """The commissions taken from ``player``'s wallet in rounds ``round_ids`` (Pai Gow
    Poker's on a win), by the id of the player's first bet in each round: one query.
    A banked round has one bet; were there several, the round's commission is on its
    first (lowest id), so it shows once whichever page that bet is on."""
    if not round_ids:
        return {}
    first_bet = (select(func.min(BetRow.id))
                 .where(BetRow.round_id == Transfer.round_id, BetRow.player == player)
                 .scalar_subquery())
    wallet_id = (select(Account.id).where(Account.code == accounts.wallet_code(player))
                 .scalar_subquery())
    return {int(bet): int(total) for bet, total in session.execute(
        select(first_bet, func.sum(Transfer.amount))
        .where(Transfer.source_id == wallet_id, Transfer.kind == TransferKind.COMMISSION,
               Transfer.round_id.in_(round_ids))
        .group_by(Transfer.round_id)) if bet is not None}


def history(session: Session, player: str, bets_before: int | None = None,
            hands_before: int | None = None, limit: int = 50) -> History:
    """A page of ``player``'s bets (:func:`pelisali.platform.rounds.history`) and of the
    poker hands they played, ``limit`` of each at most, older than bet ``bets_before``
    and round ``hands_before`` when given; and the newest ``limit`` steps of their
    free-spin bonuses (:func:`bonus_lines`). A bet line's ``commission`` is what the
    round took back from the wallet apart from ``paid`` (:func:`_commissions`).

    >>> from datetime import date
    >>> from pelisali.platform import accounts
    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
    ...     history(s, "ann")
    History(bets=[], hands=[], bets_before=None, hands_before=None, bonuses=[])
    """
    found = rounds.history(session, player, limit + 1, bets_before)
    bets = found[:limit]
    more_bets = bets[-1][1].id if len(found) > limit else None
    hands, more_hands = _poker_hands(session, player, limit, hands_before)
    ids = {r.table_id for r, _ in bets} | {r.table_id for r, _ in hands}
    names: dict[int, str] = {}
    if ids:
        names = {row.id: row.name for row in session.execute(
            select(GameTable.id, GameTable.name).where(GameTable.id.in_(ids)))}
    commissions = _commissions(session, player, {r.id for r, _ in bets})
    return History(
        [BetLine(b.id, r.id, names.get(r.table_id, ""), b.spot, b.stake, b.paid, b.result,
                 b.created_at, commissions.get(b.id, 0)) for r, b in bets],
        [HandLine(row.id, names.get(row.table_id, ""), row.finished_at,
                  next((seat[2] for seat in record.get("seats", []) if seat[1] == player),
                       None)) for row, record in hands],
        more_bets, more_hands, bonus_lines(session, player, limit))


def _played_hand(session: Session, player: str, round_id: int) -> bool:
    """Round ``round_id`` is a settled poker hand ``player`` played, among the newest
    :data:`HANDS_RECALLED` hands."""
    row = session.get(RoundRow, round_id)
    if row is None or row.status != RoundStatus.SETTLED:
        return False
    found = session.get(GameTable, row.table_id)
    if found is None or found.game != poker_tables.GAME:
        return False
    if player not in json.loads(row.record).get("players", []):
        return False
    newer = session.scalar(select(func.count()).select_from(RoundRow)
                           .join(GameTable, GameTable.id == RoundRow.table_id)
                           .where(GameTable.game == poker_tables.GAME,
                                  RoundRow.status == RoundStatus.SETTLED,
                                  RoundRow.id > round_id))
    return (newer or 0) < HANDS_RECALLED


def recall_for(session: Session, round_id: int, player: str) -> RoundRecall | None:
    """Round ``round_id`` replayed for ``player``: their own settlements of a round they
    bet in; a poker hand they played whole (its stacks, rake and shares are the
    table's; no cards are in them). None if the round is not theirs."""
    mine = session.scalar(select(BetRow.id).where(BetRow.round_id == round_id,
                                                  BetRow.player == player).limit(1))
    if mine is None:
        return tables.recall(session, round_id) if _played_hand(session, player,
                                                                round_id) else None
    found = tables.recall(session, round_id)
    return RoundRecall(found.round_id, found.game, found.same,
                       [s for s in found.recorded if s.get("player") == player],
                       [s for s in found.replayed if s.get("player") == player], found.problem)
