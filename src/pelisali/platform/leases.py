"""Which process runs each shared table: a lease in the database.

A live or poker table is run by one process at a time, its holder. The holder renews
the lease well before it runs out; a process that dies stops renewing, and once the
lease has run out another process takes the table (its token one higher: a fencing
token, so work stamped with an older token is known to come from a holder that lost
the table). Moments are the processes' UTC clocks, kept in step by NTP; the time to
live covers what they may differ by.

>>> from datetime import UTC, datetime, timedelta
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> t0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
>>> with transaction(engine) as s:
...     first = acquire(s, "live-1", "a", TTL, now=t0)
...     other = acquire(s, "live-1", "b", TTL, now=t0 + timedelta(seconds=1))
...     later = acquire(s, "live-1", "b", TTL, now=t0 + timedelta(seconds=5))
>>> first.token, other, later.owner, later.token
(1, None, 'b', 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from pelisali.platform.ledger import now_utc
from pelisali.platform.models import Lease as LeaseRow

__all__ = ["NOBODY", "RENEW_EVERY", "TTL", "Lease", "abandon", "acquire", "hand_over",
           "held_by", "holder", "orphaned", "release"]

TTL = timedelta(seconds=4)  # a table is taken over within this after its holder dies
RENEW_EVERY = timedelta(seconds=1)
NOBODY = ""  # the owner of a lease given up


@dataclass(frozen=True)
class Lease:
    """A table's lease as granted: its holder, fencing token and end."""

    table: str
    owner: str
    token: int
    expires_at: datetime

    def seconds_left(self, now: datetime | None = None) -> float:
        return (self.expires_at - (now or now_utc())).total_seconds()


def _lease(row: LeaseRow) -> Lease:
    return Lease(row.table_name, row.owner, row.token, row.expires_at)


def _locked(session: Session, table: str) -> LeaseRow | None:
    return session.scalars(select(LeaseRow).where(LeaseRow.table_name == table)
                           .with_for_update()
                           .execution_options(populate_existing=True)).one_or_none()


def acquire(session: Session, table: str, owner: str, ttl: timedelta = TTL,
            now: datetime | None = None) -> Lease | None:
    """Take or renew ``table``'s lease for ``owner`` until ``now + ttl``: granted when
    nobody holds it, when it has run out, or when ``owner`` holds it already; None
    while another holds it. A new holder's token is one higher than the last."""
    now = now or now_utc()
    row = _locked(session, table)
    if row is None:
        try:
            with session.begin_nested():
                row = LeaseRow(table_name=table, owner=owner, token=1,
                               expires_at=now + ttl)
                session.add(row)
            return _lease(row)
        except IntegrityError:  # another process made it meanwhile
            row = _locked(session, table)
            if row is None:
                raise
    if row.owner != owner:
        if row.expires_at > now:
            return None
        row.owner, row.token = owner, row.token + 1
    row.expires_at = now + ttl
    session.flush()
    return _lease(row)


def release(session: Session, table: str, owner: str, now: datetime | None = None) -> None:
    """``owner`` gives ``table`` up (a process stopping): another may take it at once."""
    row = _locked(session, table)
    if row is not None and row.owner == owner:
        row.owner, row.expires_at = NOBODY, now or now_utc()
        session.flush()


def hand_over(session: Session, table: str, owner: str, now: datetime | None = None) -> None:
    """``owner`` stops running ``table`` (a process shutting down) and leaves it to be
    taken over at once, as a dead holder's is (:func:`orphaned`), by any process."""
    row = _locked(session, table)
    if row is not None and row.owner == owner:
        row.expires_at = now or now_utc()
        session.flush()


def orphaned(session: Session, now: datetime | None = None) -> list[str]:
    """The tables whose holder stopped renewing without giving them up (it died): they
    wait for another process to take them over.

    >>> from datetime import UTC, datetime, timedelta
    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> t0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    >>> with transaction(engine) as s:
    ...     _ = acquire(s, "live-1", "a", TTL, now=t0)
    ...     _ = acquire(s, "live-2", "b", TTL, now=t0)
    ...     release(s, "live-2", "b", now=t0)
    ...     orphaned(s, now=t0 + timedelta(seconds=5))
    ['live-1']
    """
    rows = session.scalars(select(LeaseRow.table_name).where(
        LeaseRow.owner != NOBODY, LeaseRow.expires_at <= (now or now_utc()))
        .order_by(LeaseRow.table_name))
    return list(rows)


def abandon(session: Session, table: str, now: datetime | None = None) -> None:
    """Give up a dead holder's lease of a table nobody can run (it was closed or
    removed since), so that nobody tries to take it over again."""
    row = _locked(session, table)
    if row is not None and row.expires_at <= (now or now_utc()):
        row.owner = NOBODY
        session.flush()


def holder(session: Session, table: str, now: datetime | None = None) -> Lease | None:
    """Who runs ``table`` now (None: nobody, or a lease run out)."""
    row = session.get(LeaseRow, table)
    if row is None or row.expires_at <= (now or now_utc()):
        return None
    return _lease(row)


def held_by(session: Session, owner: str, now: datetime | None = None) -> list[Lease]:
    """The leases ``owner`` holds now."""
    rows = session.scalars(select(LeaseRow).where(LeaseRow.owner == owner,
                                                  LeaseRow.expires_at > (now or now_utc()))
                           .order_by(LeaseRow.table_name))
    return [_lease(row) for row in rows]
