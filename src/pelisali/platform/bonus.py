"""Free-spin bonuses: winnings locked until wagered, forfeited if not wagered in time.

GGPoker house rules, "Kasinon, pöytäpelien sekä RNG-kolikkopelien säännöt" 5: "Kaikki
kolikkopelien ilmaiskierroksista saadut voitot on kierrätettävä 72 tunnin kuluessa
ilmaiskierrosten lunastamisesta, muuten kaikki voitot menetetään" (all winnings from
slot free spins must be wagered within 72 hours of the free spins being redeemed,
otherwise all the winnings are forfeited).

A grant (:func:`grant`) moves the winnings from the house bank to the player's bonus
account ``bonus:PLAYER`` and sets its requirement (the winnings times
``[bonus] wagering_multiple`` of ``platform/settings.toml``) and its deadline
(``deadline_hours`` after the free spins). Real-money stakes count toward the player's
grants, the oldest first (:func:`count_wagering`); a grant whose requirement is met is
released to the wallet. One whose deadline passes first goes back to the house
(:func:`forfeit_expired`), with an audit entry that says why.

Bonus money is locked: it is on its own account, not the wallet, so it can be neither
staked nor withdrawn until it is released (every stake and withdrawal moves the wallet
``player:PLAYER`` only). Only real-money stakes therefore ever count. A stake counts
while its moment is within the grant's time, from the grant to its deadline inclusive;
the part of a stake beyond every live grant's requirement counts for nothing.

>>> from datetime import UTC, date, datetime, timedelta
>>> from pelisali.platform import accounts
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform.ledger import move
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> spins = datetime(2026, 12, 1, 12, tzinfo=UTC)
>>> with transaction(engine) as s:
...     _ = move(s, "fund", "external:owner", "house:bank", 100_000, "funding")
...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
...     accounts.deposit(s, "ann", 5_000, key="d1").balance
...     won = grant(s, "ann", 1_200, round_id=7, key="spins-7", at=spins)
...     won.required, won.deadline, bonus_balance(s, "ann")
...     accounts.stake(s, "ann", 1_000, key="bet-1", reason="slot")
...     count_wagering(s, "ann", 1_000, key="bet-1", at=spins + timedelta(hours=1))
...     accounts.stake(s, "ann", 500, key="bet-2", reason="slot")
...     [g.status for g in count_wagering(s, "ann", 500, key="bet-2",
...                                       at=spins + timedelta(hours=2))]
...     bonus_balance(s, "ann"), balance(s, "player:ann")
5000
(1200, datetime.datetime(2026, 12, 4, 12, 0, tzinfo=datetime.timezone.utc), 1200)
[]
['released']
(0, 4700)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from pelisali.money import format_cents
from pelisali.platform import accounts
from pelisali.platform.kinds import TransferKind
from pelisali.platform.ledger import (
    KeyConflict,
    LedgerError,
    append_audit,
    balance,
    described,
    move,
    now_utc,
)
from pelisali.platform.models import BonusGrant, BonusWager

RULE = "GGPoker house rules, RNG slots 5"
HOUSE = "house:bank"
GRANT_KEY = "free-spins:{key}"  # the ledger key of a grant's (or a direct win's) transfer
RELEASE_KEY = "bonus-release:{id}"
FORFEIT_KEY = "bonus-forfeit:{id}"


@dataclass(frozen=True)
class BonusSettings:
    """``[bonus]`` of ``platform/settings.toml``, each value explained there."""

    wagering_multiple: int = 1
    deadline_hours: int = 72

    def __post_init__(self) -> None:
        if self.wagering_multiple < 0:
            raise ValueError("[bonus] wagering_multiple is a whole number, 0 or more")
        if self.deadline_hours < 1:
            raise ValueError("[bonus] deadline_hours is 1 or more")


@cache
def settings() -> BonusSettings:
    """The operator's bonus rules (``[bonus]`` of ``platform/settings.toml``).

    >>> settings()
    BonusSettings(wagering_multiple=1, deadline_hours=72)
    """
    data = tomllib.loads((Path(__file__).parent / "settings.toml").read_text("utf-8"))["bonus"]
    return BonusSettings(int(data["wagering_multiple"]), int(data["deadline_hours"]))


@dataclass(frozen=True)
class Grant:
    """A free-spin bonus as it stands: ``amount`` cents locked until ``wagered`` reaches
    ``required`` by ``deadline``; ``status`` is ``active``, ``released`` or
    ``forfeited`` (``closed_at`` says when)."""

    id: int
    player: str
    round_id: int
    amount: int
    required: int
    wagered: int
    status: str
    granted_at: datetime
    deadline: datetime
    closed_at: datetime | None


def bonus_code(player: str) -> str:
    """The ledger account of ``player``'s locked bonus money.

    >>> bonus_code("ann")
    'bonus:ann'
    """
    return f"bonus:{player}"


def _view(row: BonusGrant) -> Grant:
    return Grant(row.id, row.player, row.round_id, row.amount, row.required, row.wagered,
                 row.status, row.granted_at, row.deadline, row.closed_at)


def _moment(at: datetime | None) -> datetime:
    """``at`` (now by default) in UTC: moments are compared as stored, in UTC."""
    at = at or now_utc()
    if at.tzinfo is None:
        raise LedgerError(f"a moment needs its time zone, not {at!r}")
    return at.astimezone(UTC)


def _cents(amount: object, what: str) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise LedgerError(f"{what} is a whole number of cents, 0 or more, not {amount!r}")
    return amount


def _key(key: str) -> str:
    if not isinstance(key, str) or not key or len(key) > 200:
        raise LedgerError("an idempotency key is 1 to 200 characters")
    return key


def grant(session: Session, player: str, amount: int, round_id: int, key: str,
          at: datetime | None = None) -> Grant | None:
    """Lock ``amount`` cents of free-spin winnings (of round ``round_id``, the spins
    redeemed at ``at``) for ``player`` until wagered: the grant, or None for no
    winnings. With a wagering multiple of 0 there is nothing to wager, and the winnings
    are paid to the wallet as a win (None). The same ``key`` again returns the same
    grant; used for other winnings, it is refused (:class:`~.ledger.KeyConflict`).

    >>> from datetime import UTC, date, datetime
    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> at = datetime(2026, 12, 1, 12, tzinfo=UTC)
    >>> with transaction(engine) as s:
    ...     _ = move(s, "fund", "external:owner", "house:bank", 10_000, "funding")
    ...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
    ...     first = grant(s, "ann", 800, round_id=3, key="fs-3", at=at)
    ...     grant(s, "ann", 800, round_id=3, key="fs-3") == first  # a retry
    ...     grant(s, "ann", 0, round_id=4, key="fs-4", at=at)  # no winnings: no grant
    True
    >>> with transaction(engine) as s:
    ...     grant(s, "ann", 900, round_id=3, key="fs-3")
    Traceback (most recent call last):
    ...
    pelisali.platform.ledger.KeyConflict: idempotency key 'fs-3' was used for a different \
grant: a bonus grant of 8.00 € to ann
    """
    amount = _cents(amount, "free-spin winnings")
    if isinstance(round_id, bool) or not isinstance(round_id, int):
        raise LedgerError(f"a round id is a whole number, not {round_id!r}")
    key = _key(key)
    at = _moment(at)
    found = session.scalars(select(BonusGrant).where(BonusGrant.key == key)).one_or_none()
    if found is not None:
        if (found.player, found.amount, found.round_id) != (player, amount, round_id):
            first = f"{described(TransferKind.BONUS_GRANT, found.amount)} to {found.player}"
            raise KeyConflict(f"idempotency key {key!r} was used for a different grant: "
                              f"{first}", first)
        return _view(found)
    if amount == 0:
        return None
    accounts.find(session, player)
    rules = settings()
    required = amount * rules.wagering_multiple
    if required == 0:
        # A win of the round, as any other: the round's bet was paid the free spins too.
        move(session, GRANT_KEY.format(key=key), HOUSE, accounts.wallet_code(player), amount,
             TransferKind.WIN, reason=f"free spins of round {round_id}, no wagering required",
             round_id=round_id)
        return None
    deadline = at + timedelta(hours=rules.deadline_hours)
    move(session, GRANT_KEY.format(key=key), HOUSE, bonus_code(player), amount,
         TransferKind.BONUS_GRANT, reason=f"free spins of round {round_id}",
         round_id=round_id)
    row = BonusGrant(key=key, player=player, round_id=round_id, amount=amount,
                     required=required, wagered=0, status="active", granted_at=at,
                     deadline=deadline)
    session.add(row)
    session.flush()
    append_audit(session, "system", "bonus grant", {
        "player": player, "grant": row.id, "round": round_id, "amount": amount,
        "required": required, "deadline": deadline.isoformat(), "rule": RULE})
    return _view(row)


def _active(session: Session, player: str | None = None,
            expired_at: datetime | None = None) -> list[BonusGrant]:
    """Active grants, oldest first, locked for this transaction (PostgreSQL): of
    ``player``, or (all players) those whose deadline is before ``expired_at``."""
    query = select(BonusGrant).where(BonusGrant.status == "active")
    if player is not None:
        query = query.where(BonusGrant.player == player)
    if expired_at is not None:
        query = query.where(BonusGrant.deadline < expired_at)
    return list(session.scalars(query.order_by(BonusGrant.granted_at, BonusGrant.id)
                                .with_for_update().execution_options(populate_existing=True)))


def count_wagering(session: Session, player: str, stake: int, key: str,
                   at: datetime | None = None) -> list[Grant]:
    """Count ``player``'s real-money stake of ``stake`` cents (placed at ``at``) toward
    their live grants, the oldest first, each filled before the next; the grants it
    completes are released to the wallet and returned. A grant past its deadline at
    ``at`` takes nothing. A stake's ``key`` counts once: sent again, nothing more is
    counted and the grants it released are returned again. A stake of 0 counts nothing;
    below 0 it is refused.

    >>> from datetime import UTC, date, datetime, timedelta
    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> at = datetime(2026, 12, 1, 12, tzinfo=UTC)
    >>> with transaction(engine) as s:
    ...     _ = move(s, "fund", "external:owner", "house:bank", 10_000, "funding")
    ...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
    ...     _ = grant(s, "ann", 300, round_id=1, key="fs-1", at=at)
    ...     _ = grant(s, "ann", 500, round_id=2, key="fs-2", at=at + timedelta(minutes=1))
    ...     [g.id for g in count_wagering(s, "ann", 400, "b1", at + timedelta(hours=1))]
    ...     [g.id for g in count_wagering(s, "ann", 400, "b1", at + timedelta(hours=1))]
    ...     [(g.required, g.wagered, g.status) for g in grants(s, "ann")]
    [1]
    [1]
    [(300, 300, 'released'), (500, 100, 'active')]
    """
    stake = _cents(stake, "a stake")
    key = _key(key)
    at = _moment(at)
    done = session.scalars(select(BonusWager).where(BonusWager.key == key)).one_or_none()
    if done is not None:
        if (done.player, done.stake) != (player, stake):
            first = f"a stake of {format_cents(done.stake)} € by {done.player}"
            raise KeyConflict(f"idempotency key {key!r} was used for a different stake: "
                              f"{first}", first)
        return [_view(row) for row in session.scalars(
            select(BonusGrant).where(BonusGrant.released_by == key,
                                     BonusGrant.status == "released")
            .order_by(BonusGrant.granted_at, BonusGrant.id))]
    if stake == 0:
        return []
    active = _active(session, player)
    if not active:
        # Nothing could count: no record is kept, so a player without a bonus costs
        # every stake one look-up and no write.
        return []
    left, released = stake, []
    for row in active:
        if left == 0:
            break
        if not row.granted_at <= at <= row.deadline:
            continue
        taken = min(left, row.required - row.wagered)
        row.wagered += taken
        left -= taken
        if row.wagered == row.required:
            move(session, RELEASE_KEY.format(id=row.id), bonus_code(player),
                 accounts.wallet_code(player), row.amount, TransferKind.BONUS_RELEASE,
                 reason=f"bonus {row.id} wagered through", round_id=row.round_id)
            row.status, row.closed_at, row.released_by = "released", at, key
            released.append(row)
    session.add(BonusWager(key=key, player=player, stake=stake, counted=stake - left, at=at))
    session.flush()
    return [_view(row) for row in released]


def forfeit_expired(session: Session, at: datetime | None = None,
                    actor: str = "system") -> list[Grant]:
    """Forfeit every active grant whose deadline is before ``at`` (GGPoker house rules,
    RNG slots 5: "muuten kaikki voitot menetetään"): its winnings go back to the house
    bank, and an audit entry names the player, the grant, the amount, the requirement
    and what was wagered. The grants forfeited; a second run finds none.

    >>> from datetime import UTC, date, datetime, timedelta
    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> at = datetime(2026, 12, 1, 12, tzinfo=UTC)
    >>> with transaction(engine) as s:
    ...     _ = move(s, "fund", "external:owner", "house:bank", 10_000, "funding")
    ...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
    ...     _ = grant(s, "ann", 300, round_id=1, key="fs-1", at=at)
    ...     forfeit_expired(s, at + timedelta(hours=72))  # the deadline itself: in time
    ...     [(g.amount, g.status) for g in forfeit_expired(s, at + timedelta(hours=73))]
    ...     forfeit_expired(s, at + timedelta(hours=74)), balance(s, "house:bank")
    []
    [(300, 'forfeited')]
    ([], 10000)
    """
    at = _moment(at)
    forfeited = []
    for row in _active(session, expired_at=at):
        move(session, FORFEIT_KEY.format(id=row.id), bonus_code(row.player), HOUSE,
             row.amount, TransferKind.BONUS_FORFEIT,
             reason=f"bonus {row.id} not wagered by {row.deadline.isoformat()}",
             round_id=row.round_id, actor=actor)
        row.status, row.closed_at = "forfeited", at
        append_audit(session, actor, "bonus forfeit", {
            "player": row.player, "grant": row.id, "round": row.round_id,
            "amount": row.amount, "required": row.required, "wagered": row.wagered,
            "deadline": row.deadline.isoformat(), "rule": RULE})
        forfeited.append(row)
    session.flush()
    return [_view(row) for row in forfeited]


def grants(session: Session, player: str) -> list[Grant]:
    """All of ``player``'s grants, oldest first.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     grants(s, "ann")
    []
    """
    return [_view(row) for row in session.scalars(
        select(BonusGrant).where(BonusGrant.player == player)
        .order_by(BonusGrant.granted_at, BonusGrant.id))]


def bonus_balance(session: Session, player: str) -> int:
    """The locked bonus money ``player`` holds, in cents (their bonus account's balance:
    the amounts of their active grants).

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     bonus_balance(s, "ann")
    0
    """
    try:
        return balance(session, bonus_code(player))
    except LedgerError:  # no account: never granted a bonus
        return 0
