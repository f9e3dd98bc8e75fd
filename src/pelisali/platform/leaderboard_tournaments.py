"""Table-game and slot tournaments on the wallet: entries and fees, the prize pool, the
overlay and the leaderboard's prizes on the ledger, and the engine's state kept after
every round so a tournament survives a crash.

They share the poker tournaments' table and accounts (:mod:`pelisali.platform.tournaments`):
a row of ``tournaments`` whose ``kind`` is ``table`` or ``slot``, the pool on the ledger
account ``tournament:ID``, the fee to ``fee:tournaments``, the overlay from
``house:bank``. The row's ``state`` holds the engine's snapshot with the wallet's own
notes: when the clock started, the registrations and the latest requests of each entry
by idempotency key. A round moves no money (tournament chips are never money), so its
key is kept there: a request retried with its key returns what it did the first time,
and the key sent with another request is refused (:class:`~pelisali.platform.ledger.
KeyConflict`).

>>> from datetime import date, datetime, timezone
>>> from pelisali.platform import accounts
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform.ledger import balance, move
>>> from pelisali.rng import SeededRng
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = move(s, "fund", "external:owner", "house:bank", 100_000, "funding")
...     for name in ("ann", "bob"):
...         _ = accounts.register(s, name, date(1990, 1, 1), "FI")
...         _ = accounts.deposit(s, name, 5_000, key=f"d-{name}")
...     made = create(s, LeaderboardSettings.from_rules(
...         "roulette-sprint", name="Ilta", rounds=1, buy_in=1_000, fee=100))
...     for name in ("ann", "bob"):
...         _ = register(s, made.id, name, key=f"r-{name}")
...     start(s, made.id, now=datetime(2026, 12, 3, 18, tzinfo=timezone.utc))
...     balance(s, f"tournament:{made.id}"), balance(s, "fee:tournaments")
(2000, 200)
>>> with transaction(engine) as s:
...     play_round(s, made.id, "ann", ["bet red 1000"], key="a1", draws=["1"]).chips
...     play_round(s, made.id, "bob", ["bet red 1000"], key="b1", draws=["2"]).chips
...     results(s, made.id).prizes, balance(s, "player:ann"), reconcile(s, made.id)
11000
9000
({'ann': 2000, 'bob': 0}, 5900, [])
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pelisali.platform.accounts import Refused, StakeCheck, find, wallet_code
from pelisali.platform.ledger import (
    KeyConflict,
    append_audit,
    balance,
    made_before,
    move,
    now_utc,
)
from pelisali.platform.models import Account, TournamentRecord, TournamentRoundRow, Transfer
from pelisali.platform.tournaments import FEES, HOUSE, TournamentRefused, pool_code
from pelisali.rng import Rng, SecureRng
from pelisali.tournaments.leaderboard import (
    Entry,
    LeaderboardSettings,
    LeaderboardTournament,
    Played,
    TournamentError,
)

KINDS = ("table", "slot")
"""The ``kind`` of a leaderboard tournament's row (a poker tournament's is ``poker``)."""
KEPT_REQUESTS = 32
"""The requests remembered for each entry by key: a retry comes back within these."""

T = TypeVar("T")


@dataclass
class Held:
    """A tournament as loaded for a request: its row, its engine, the wallet's notes."""

    record: TournamentRecord
    engine: LeaderboardTournament
    started_at: str | None
    registrations: dict[str, list[str]]  # key: [player, entry]
    requests: dict[str, list[list[Any]]]  # entry: [[key, digest, result], ...], oldest first
    paid: bool


# -- records -------------------------------------------------------------------------------
def create(
    session: Session,
    settings: LeaderboardSettings,
    starts_at: datetime | None = None,
    actor: str = "staff",
) -> TournamentRecord:
    """Announce a table-game or slot tournament: its settings are fixed from here on."""
    engine = LeaderboardTournament(settings)
    at = now_utc()
    record = TournamentRecord(
        name=settings.name,
        kind=settings.kind,
        settings=json.dumps(asdict(settings), sort_keys=True),
        status="registering",
        state="{}",
        version=0,
        created_at=at,
        starts_at=starts_at,
        updated_at=at,
    )
    session.add(record)
    session.flush()
    save(session, Held(record, engine, None, {}, {}, False))
    append_audit(
        session,
        actor,
        "tournament_created",
        {"tournament": record.id, "kind": settings.kind, "settings": asdict(settings)},
    )
    return record


def get(session: Session, tournament_id: int, lock: bool = False) -> TournamentRecord:
    """A leaderboard tournament's row; a poker tournament's id is refused."""
    query = select(TournamentRecord).where(TournamentRecord.id == tournament_id)
    if lock:
        query = query.with_for_update()
    record = session.scalars(query).one_or_none()
    if record is None:
        raise TournamentRefused(f"there is no tournament {tournament_id}")
    if record.kind not in KINDS:
        raise TournamentRefused(
            f"tournament {tournament_id} is a {record.kind} tournament, "
            "not a table-game or slot tournament"
        )
    return record


def lobby(session: Session) -> list[TournamentRecord]:
    """Every table-game and slot tournament, the newest first."""
    return list(
        session.scalars(
            select(TournamentRecord)
            .where(TournamentRecord.kind.in_(KINDS))
            .order_by(TournamentRecord.id.desc())
        )
    )


def settings_of(record: TournamentRecord) -> LeaderboardSettings:
    return LeaderboardSettings.from_json(json.loads(record.settings))


def load(record: TournamentRecord, rng: Rng | None = None) -> Held:
    """The tournament as last saved, drawing from ``rng`` (by default the OS's generator)."""
    state = json.loads(record.state)
    engine = LeaderboardTournament.restore(settings_of(record), state["engine"], rng or SecureRng())
    return Held(
        record,
        engine,
        state["started_at"],
        state["registrations"],
        state["requests"],
        state["paid"],
    )


def _recorded(session: Session, tournament_id: int) -> dict[str, tuple[int, int, int]]:
    """Each entry's rounds kept in ``tournament_rounds``: how many, staked and paid."""
    rows = session.execute(
        select(
            TournamentRoundRow.entry,
            func.count(),
            func.coalesce(func.sum(TournamentRoundRow.staked), 0),
            func.coalesce(func.sum(TournamentRoundRow.paid), 0),
        )
        .where(TournamentRoundRow.tournament_id == tournament_id)
        .group_by(TournamentRoundRow.entry)
    )
    return {entry: (int(n), int(staked), int(paid)) for entry, n, staked, paid in rows}


def _keep_rounds(session: Session, held: Held) -> None:
    """Write the rounds the entries ended since the last save. A save follows at most one
    ended round an entry (a play, a decision, or the close standing an open hand), so
    the entry's totals less what is kept are that round's."""
    kept = _recorded(session, held.record.id)
    for entry in held.engine.entries.values():
        rounds, staked, paid = kept.get(entry.entry_id, (0, 0, 0))
        if entry.rounds == rounds:
            continue
        if entry.rounds != rounds + 1:
            raise RuntimeError(f"{entry.entry_id}: {entry.rounds - rounds} rounds ended "
                               "between saves")
        session.add(TournamentRoundRow(
            tournament_id=held.record.id, entry=entry.entry_id, number=entry.rounds,
            staked=entry.staked - staked, paid=entry.paid - paid,
            moves=json.dumps(entry.last_round or []), played_at=now_utc()))


def rounds_of(session: Session, tournament_id: int,
              entry: str | None = None) -> list[TournamentRoundRow]:
    """The rounds kept of the tournament (of one entry), in the order they were played."""
    query = select(TournamentRoundRow).where(TournamentRoundRow.tournament_id == tournament_id)
    if entry is not None:
        query = query.where(TournamentRoundRow.entry == entry)
    return list(session.scalars(query.order_by(TournamentRoundRow.id)))


def save(session: Session, held: Held) -> None:
    record = held.record
    _keep_rounds(session, held)
    record.state = json.dumps(
        {
            "engine": held.engine.snapshot(),
            "started_at": held.started_at,
            "registrations": held.registrations,
            "requests": held.requests,
            "paid": held.paid,
        }
    )
    record.status = held.engine.status
    record.version += 1
    record.updated_at = now_utc()
    session.flush()


def _refusing(call: Callable[[], T]) -> T:
    try:
        return call()
    except TournamentError as exc:
        raise TournamentRefused(str(exc)) from None


def _check_key(key: str) -> None:
    if not isinstance(key, str) or not 1 <= len(key) <= 100:
        raise TournamentRefused("an idempotency key is 1 to 100 characters")


# -- entries -------------------------------------------------------------------------------
def register(session: Session, tournament_id: int, player: str, key: str) -> Entry:
    """Enter ``player`` (a re-entry when the settings allow it): the prize part to the pool
    and the fee to the house, within the player's limits. Retried with the same key, the
    entry already made."""
    _check_key(key)
    held = load(get(session, tournament_id, lock=True))
    engine = held.engine
    made = held.registrations.get(key)
    if made is not None:
        if made[0] != player:
            raise KeyConflict(
                f"idempotency key {key!r} was used for a different request: the entry of {made[0]}",
                f"the entry of {made[0]}",
            )
        return engine.entry(made[1])
    s = engine.settings
    find(session, player)
    check = StakeCheck(session, [player])
    refused = check.barred(player) or check.over_limit(player, s.buy_in + s.fee)
    if refused:
        raise Refused(refused)
    entry = _refusing(lambda: engine.register(player))
    reason = f"tournament {tournament_id} entry {entry.entry_id}"
    wallet, pool = wallet_code(player), pool_code(tournament_id)
    for part, target, amount, kind in (
        (f"{key}:entry", pool, s.buy_in, "stake"),
        (f"{key}:fee", FEES, s.fee, "fee"),
    ):
        if amount:  # a key once used for another transfer is refused by the ledger
            move(session, part, wallet, target, amount, kind, reason=reason, actor=player)
    held.registrations[key] = [player, entry.entry_id]
    save(session, held)
    return entry


def unregister(session: Session, tournament_id: int, player: str, key: str) -> None:
    """Take back a registration before the start: the prize part and the fee refunded.
    Retried with the same key, nothing more."""
    _check_key(key)
    held = load(get(session, tournament_id, lock=True))
    s = held.engine.settings
    wallet, pool = wallet_code(player), pool_code(tournament_id)
    if (
        s.buy_in
        and made_before(session, f"{key}:unentry", "refund", pool, wallet, s.buy_in) is not None
    ) or (
        s.fee and made_before(session, f"{key}:unfee", "refund", FEES, wallet, s.fee) is not None
    ):
        return  # a retry: refunded already
    entry = _refusing(lambda: held.engine.unregister(player))
    reason = f"tournament {tournament_id} unregistered {entry.entry_id}"
    if s.buy_in:
        move(session, f"{key}:unentry", pool, wallet, s.buy_in, "refund", reason=reason)
    if s.fee:
        move(session, f"{key}:unfee", FEES, wallet, s.fee, "refund", reason=reason)
    held.registrations = {k: v for k, v in held.registrations.items() if v[1] != entry.entry_id}
    save(session, held)


def start(
    session: Session,
    tournament_id: int,
    rng: Rng | None = None,
    now: datetime | None = None,
    actor: str = "staff",
) -> None:
    """Start the clock at ``now`` (by default the time now)."""
    held = load(get(session, tournament_id, lock=True), rng)
    _refusing(lambda: held.engine.start(rng or SecureRng()))
    held.started_at = (now or now_utc()).isoformat()
    save(session, held)
    append_audit(
        session,
        actor,
        "tournament_started",
        {"tournament": tournament_id, "entries": len(held.engine.entries)},
    )


# -- play ------------------------------------------------------------------------------------
def _tick(held: Held, now: datetime | None) -> None:
    if held.started_at is None or held.engine.status != "running":
        return
    elapsed = int(((now or now_utc()) - datetime.fromisoformat(held.started_at)).total_seconds())
    held.engine.tick(max(elapsed, held.engine.elapsed))  # a clock read late never goes back


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:32]


def _result(played: Played) -> dict[str, Any]:
    return {**asdict(played), "moves": [list(m) for m in played.moves]}


def _played(data: dict[str, Any]) -> Played:
    return Played(
        **{
            **data,
            "moves": tuple(tuple(m) for m in data["moves"]),
            "actions": tuple(data["actions"]),
        }
    )


def _retried(held: Held, entry_id: str, key: str, digest: str) -> Played | None:
    """What the request with ``key`` did, if it was made; a key used for another request
    is refused."""
    for owner, kept in held.requests.items():
        for made_key, made_digest, result in kept:
            if made_key != key:
                continue
            if owner != entry_id or made_digest != digest:
                first = f"round {result['round']} of {owner}"
                raise KeyConflict(
                    f"idempotency key {key!r} was used for a different request: {first}", first
                )
            return _played(result)
    return None


def _play(
    session: Session,
    tournament_id: int,
    entry_id: str,
    key: str,
    request: list[Any],
    call: Callable[[LeaderboardTournament], Played],
    rng: Rng | None,
    now: datetime | None,
) -> Played:
    _check_key(key)
    held = load(get(session, tournament_id, lock=True), rng)
    digest = _digest(*request)
    found = _retried(held, entry_id, key, digest)
    if found is not None:
        return found
    entry = _refusing(lambda: held.engine.entry(entry_id))
    check = StakeCheck(session, [entry.player])
    refused = check.barred(entry.player)
    if refused:
        raise Refused(refused)
    _tick(held, now)
    played = _refusing(lambda: call(held.engine))
    kept = held.requests.setdefault(entry_id, [])
    kept.append([key, digest, _result(played)])
    del kept[:-KEPT_REQUESTS]
    if held.engine.status == "finished":
        _pay(session, tournament_id, held)
    save(session, held)
    return played


def play_round(
    session: Session,
    tournament_id: int,
    entry_id: str,
    actions: Sequence[str],
    key: str,
    rng: Rng | None = None,
    draws: Sequence[str] | None = None,
    now: datetime | None = None,
) -> Played:
    """Play a round for ``entry_id`` with its bets (``bet red 500``, ``bet box 1 100``,
    ``spin 5 10``), chance from ``rng`` (or the ``draws`` entered). The clock is read at
    ``now`` first. The last round of the tournament pays the prizes in the same
    transaction. Retried with its key, the round already played."""
    bets = list(actions) if not isinstance(actions, str) else [actions]
    return _play(
        session,
        tournament_id,
        entry_id,
        key,
        ["play", entry_id, bets],
        lambda t: t.play(entry_id, bets, draws),
        rng,
        now,
    )


def decide(
    session: Session,
    tournament_id: int,
    entry_id: str,
    action: str,
    key: str,
    rng: Rng | None = None,
    draws: Sequence[str] | None = None,
    now: datetime | None = None,
) -> Played:
    """A decision in the round ``entry_id`` has in play (``hit``, ``stand``, ...), as
    :func:`play_round`."""
    return _play(
        session,
        tournament_id,
        entry_id,
        key,
        ["decide", entry_id, action],
        lambda t: t.decide(entry_id, action, draws),
        rng,
        now,
    )


def tick(session: Session, tournament_id: int, now: datetime | None = None) -> str:
    """Read the clock at ``now``: at the time limit (or with every entry done) the
    tournament finishes and pays. Its status after."""
    held = load(get(session, tournament_id, lock=True))
    _tick(held, now)
    if held.engine.status == "finished":
        _pay(session, tournament_id, held)
    save(session, held)
    return held.engine.status


def finish(
    session: Session, tournament_id: int, rng: Rng | None = None, now: datetime | None = None
) -> None:
    """Close a tournament whose play is over: hands still in play stand, and the prizes
    are paid."""
    held = load(get(session, tournament_id, lock=True), rng)
    _tick(held, now)
    if held.engine.status == "running":
        _refusing(held.engine.finish)
    if held.engine.status != "finished":
        raise TournamentRefused(f"tournament {tournament_id} is {held.engine.status}")
    _pay(session, tournament_id, held)
    save(session, held)


# -- the end -----------------------------------------------------------------------------------
def _pay(session: Session, tournament_id: int, held: Held) -> None:
    """The house funds the overlay, the pool pays the leaderboard's prizes (once)."""
    if held.paid:
        return
    engine = held.engine
    pool = engine.prize_pool()
    code = pool_code(tournament_id)
    if pool.overlay:
        move(
            session,
            f"t{tournament_id}:overlay",
            HOUSE,
            code,
            pool.overlay,
            "funding",
            reason=f"tournament {tournament_id} guarantee overlay",
        )
    places = engine.places()
    for entry_id, prize in engine.prizes().items():
        if prize:
            move(
                session,
                f"t{tournament_id}:prize:{entry_id}",
                code,
                wallet_code(engine.entries[entry_id].player),
                prize,
                "win",
                reason=f"tournament {tournament_id} place {places[entry_id]}",
            )
    held.paid = True
    append_audit(
        session,
        "system",
        "tournament_paid",
        {"tournament": tournament_id, "pool": pool.pool, "overlay": pool.overlay},
    )


def cancel(session: Session, tournament_id: int, actor: str = "staff") -> dict[str, int]:
    """Cancel: every entry's buy-in and fee refunded (RULINGS Tournaments)."""
    held = load(get(session, tournament_id, lock=True))
    engine = held.engine
    owed = _refusing(engine.cancel)
    s = engine.settings
    for entry in engine.entries.values():
        reason = f"tournament {tournament_id} cancelled: {entry.entry_id} refunded"
        if s.buy_in:
            move(
                session,
                f"t{tournament_id}:refund:{entry.entry_id}",
                pool_code(tournament_id),
                wallet_code(entry.player),
                s.buy_in,
                "refund",
                reason=reason,
            )
        if s.fee:
            move(
                session,
                f"t{tournament_id}:refund-fee:{entry.entry_id}",
                FEES,
                wallet_code(entry.player),
                s.fee,
                "refund",
                reason=reason,
            )
    save(session, held)
    append_audit(
        session, actor, "tournament_cancelled", {"tournament": tournament_id, "owed": owed}
    )
    return owed


@dataclass
class Results:
    status: str
    leaderboard: list[tuple[int, str, int]]  # place, entry, chips
    prizes: dict[str, int]  # by entry, cents
    pool: int
    overlay: int


def results(session: Session, tournament_id: int) -> Results:
    engine = load(get(session, tournament_id)).engine
    pool = engine.prize_pool()
    prizes = engine.prizes() if engine.status == "finished" else {}
    return Results(engine.status, engine.leaderboard(), prizes, pool.pool, pool.overlay)


def reconcile(session: Session, tournament_id: int) -> list[str]:
    """What does not add up between the tournament and its ledger account: the pool
    holds the prize parts staked and the overlay funded, less what it paid out; a
    finished or cancelled tournament's holds nothing; every entry's chips are its
    starting chips and its rounds' returns; the rounds kept in ``tournament_rounds`` add
    up to each entry's rounds, stakes and returns. Empty when all is well."""
    held = load(get(session, tournament_id))
    engine = held.engine
    code = pool_code(tournament_id)
    account = session.scalars(select(Account).where(Account.code == code)).one_or_none()
    problems: list[str] = []
    held_cents = balance(session, code) if account is not None else 0
    staked = paid = funded = 0
    if account is not None:
        # Two queries, in and out: a GROUP BY on "target_id = :id" is not one PostgreSQL
        # matches to the select list's (each bound parameter is its own).
        incoming = session.execute(
            select(Transfer.kind, func.sum(Transfer.amount))
            .where(Transfer.target_id == account.id)
            .group_by(Transfer.kind)
        )
        for kind, amount in incoming:
            if kind == "stake":
                staked += int(amount)
            elif kind == "funding":
                funded += int(amount)
        paid = int(
            session.scalar(
                select(func.coalesce(func.sum(Transfer.amount), 0)).where(
                    Transfer.source_id == account.id
                )
            )
            or 0
        )
    pool = engine.prize_pool()
    if engine.status in ("registering", "running") and staked - paid != pool.collected:
        problems.append(
            f"{code}: {staked - paid} staked less refunded, the entries' prize "
            f"parts {pool.collected}"
        )
    if held_cents != staked + funded - paid:
        problems.append(f"{code}: holds {held_cents}, transfers {staked + funded - paid}")
    if engine.status in ("finished", "cancelled") and held_cents != 0:
        problems.append(f"{code}: holds {held_cents} after the tournament")
    if engine.status == "finished":
        if funded != pool.overlay:
            problems.append(f"{code}: overlay funded {funded}, owed {pool.overlay}")
        if paid != pool.pool:
            problems.append(f"{code}: paid {paid}, the pool {pool.pool}")
    kept = _recorded(session, tournament_id)
    for entry in engine.entries.values():
        rounds, staked, paid = kept.get(entry.entry_id, (0, 0, 0))
        if (rounds, staked, paid) != (entry.rounds, entry.staked, entry.paid):
            problems.append(
                f"tournament {tournament_id}: {entry.entry_id} played {entry.rounds} rounds, "
                f"staked {entry.staked} and was paid {entry.paid}; the rounds kept: "
                f"{rounds}, {staked} and {paid}")
    problems.extend(f"tournament {tournament_id}: {p}" for p in engine.chip_problems())
    return problems


def reconcile_all(session: Session) -> dict[int, list[str]]:
    """:func:`reconcile` of every table-game and slot tournament with a problem."""
    found = {}
    for record in lobby(session):
        problems = reconcile(session, record.id)
        if problems:
            found[record.id] = problems
    return found
