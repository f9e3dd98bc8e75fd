"""A tournament played live: entries checked against their keys, a late entry into the
engine a server holds in memory, and each hand booked as it ends.

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
...     _ = register_checked(s, made.id, "ann", "k1")
...     tournaments.unregister(s, made.id, "ann", "k2")
>>> with transaction(engine) as s:
...     register_checked(s, made.id, "ann", "k1")
Traceback (most recent call last):
...
pelisali.platform.tournaments.TournamentRefused: this key was used for an entry since \
taken back; send a new key
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from pelisali.platform.accounts import Refused, StakeCheck, find, wallet_code
from pelisali.platform.ledger import made_before, move
from pelisali.platform.tournaments import (
    FEES,
    TournamentRefused,
    engine_of,
    get,
    pool_code,
    register,
    save,
    settle,
)
from pelisali.tournaments.poker import Entry, PokerTournament, TournamentError

__all__ = ["STALE", "book", "register_checked", "register_live"]

STALE = "was changed by another process"


def _reused(
    session: Session, tournament_id: int, player: str, key: str, engine: PokerTournament
) -> Entry | None:
    """The entry ``key`` made, if it stands; refused when the entry it made has been
    taken back (the key again must not enter the player free: the ledger would answer
    the old transfer and move nothing)."""
    s = engine.settings
    wallet, pool = wallet_code(player), pool_code(tournament_id)
    if not (
        s.buy_in
        and made_before(session, f"{key}:entry", "stake", wallet, pool, s.buy_in) is not None
    ):
        return None
    made = [e for e in engine.entries.values() if e.player == player]
    if not made:
        raise TournamentRefused("this key was used for an entry since taken back; send a new key")
    return made[-1]


def register_checked(session: Session, tournament_id: int, player: str, key: str) -> Entry:
    """:func:`pelisali.platform.tournaments.register`, and a key that entered the
    player once, whose entry was taken back since, refused."""
    engine = engine_of(get(session, tournament_id, lock=True))
    return _reused(session, tournament_id, player, key, engine) or register(
        session, tournament_id, player, key
    )


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
    made = _reused(session, tournament_id, player, key, engine)
    if made is not None:
        return made, record.version
    s = engine.settings
    find(session, player)
    check = StakeCheck(session, [player])
    refused = check.barred(player) or check.over_limit(player, s.buy_in + s.fee)
    if refused:
        raise Refused(refused)
    try:
        entry = engine.register(player)
    except TournamentError as exc:
        raise TournamentRefused(str(exc)) from None
    reason = f"tournament {tournament_id} entry {entry.entry_id}"
    wallet = wallet_code(player)
    if s.buy_in:
        move(
            session,
            f"{key}:entry",
            wallet,
            pool_code(tournament_id),
            s.buy_in,
            "stake",
            reason=reason,
            actor=player,
        )
    if s.fee:
        move(session, f"{key}:fee", wallet, FEES, s.fee, "fee", reason=reason, actor=player)
    save(session, record, engine)
    return entry, record.version


def book(session: Session, tournament_id: int, engine: PokerTournament, version: int) -> int:
    """Save the running ``engine`` after a hand (and pay the prizes when it has
    finished); the record's new version. Refused if the record is not at ``version``."""
    record = get(session, tournament_id, lock=True)
    if record.version != version:
        raise TournamentRefused(f"tournament {tournament_id} {STALE}: resume it")
    save(session, record, engine)
    if engine.status == "finished":
        settle(session, tournament_id, engine)
    return record.version
