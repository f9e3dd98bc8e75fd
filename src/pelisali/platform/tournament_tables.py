"""A tournament played live: a late entry into the engine a server holds in memory, and
each hand booked as it ends.

:mod:`pelisali.platform.tournaments` keeps the tournament between hands in the
database. While a tournament runs on a server, the engine in the server's memory is the
one that counts (it holds the hands in play): a late entry goes into it
(:func:`register_live`), and each finished hand saves it (:func:`book`), refused when
another process has changed the tournament meanwhile.

>>> from datetime import date
>>> from pelisali.platform import accounts, tournaments
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform.ledger import LedgerError
>>> from pelisali.tournaments.poker import TournamentSettings
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
...     _ = accounts.deposit(s, "ann", 5_000, key="d-ann")
...     made = tournaments.create(s, TournamentSettings(name="Ilta", capacity=3,
...         starting_chips=1500, structure="sit-and-go", buy_in=1_000, fee=100))
...     _ = tournaments.register(s, made.id, "ann", "k1")
...     tournaments.unregister(s, made.id, "ann", "k2")
>>> with transaction(engine) as s:
...     tournaments.register(s, made.id, "ann", "k1")
Traceback (most recent call last):
...
pelisali.platform.tournaments.TournamentRefused: this key was used for an entry since \
taken back; send a new key
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from pelisali.platform.tournaments import (
    Purchase,
    TournamentRefused,
    charge,
    enter,
    get,
    save,
    settle,
)
from pelisali.tournaments.poker import Entry, PokerTournament

__all__ = ["STALE", "book", "register_live"]

STALE = "was changed by another process"


def register_live(
    session: Session,
    tournament_id: int,
    engine: PokerTournament,
    version: int,
    player: str,
    key: str,
) -> tuple[Entry, int]:
    """A late entry into the running ``engine`` a server holds (seated at once), its
    prize part and fee booked as :func:`~pelisali.platform.tournaments.register` books
    them, and the engine saved; the entry and the record's new version. Retried with
    its key, the entry made."""
    record = get(session, tournament_id, lock=True)
    if record.version != version:
        raise TournamentRefused(f"tournament {tournament_id} {STALE}")
    entry, new = enter(session, tournament_id, engine, player, key)
    if new:
        save(session, record, engine)
    return entry, record.version


def book(session: Session, tournament_id: int, engine: PokerTournament, version: int,
         bought: Sequence[Purchase] = ()) -> int:
    """Save the running ``engine`` after a hand (and pay the prizes when it has
    finished), with the cost of each rebuy and add-on ``bought`` into the pool; the
    record's new version. Refused if the record is not at ``version``."""
    record = get(session, tournament_id, lock=True)
    if record.version != version:
        raise TournamentRefused(f"tournament {tournament_id} {STALE}: resume it")
    charge(session, tournament_id, engine, bought)
    save(session, record, engine)
    if engine.status == "finished":
        settle(session, tournament_id, engine)
    return record.version
