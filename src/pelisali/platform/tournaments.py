"""Tournaments on the wallet: entries, fees, the prize pool, overlay and prizes on the
ledger, and the engine's state kept after every hand so a tournament survives a crash.

Each tournament has a ledger account ``tournament:ID``, its prize pool. An entry
stakes the prize part from the player's wallet to it and pays the fee to
``fee:tournaments``; a rebuy or an add-on stakes its cost to it. When the
tournament ends the house funds any overlay (the guarantee above what was
collected) from ``house:bank`` and the pool pays each prize to the winners'
wallets, leaving the account at zero. A cancellation refunds entries and fees, or
pays the pool by the chip counts. Tournament chips never touch the ledger.

Every money move has an idempotency key: a request retried with its key is
applied once, and the key sent with another request is refused.

>>> from datetime import date
>>> from pelisali.platform import accounts
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform.ledger import balance, move
>>> from pelisali.rng import SeededRng
>>> from pelisali.tournaments.poker import TournamentSettings
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = move(s, "fund", "external:owner", "house:bank", 100_000, "funding")
...     for name in ("ann", "bob", "cid"):
...         _ = accounts.register(s, name, date(1990, 1, 1), "FI")
...         _ = accounts.deposit(s, name, 5_000, key=f"d-{name}")
...     made = create(s, TournamentSettings(name="Ilta", capacity=3, starting_chips=1500,
...                                         structure="sit-and-go", buy_in=1_000, fee=100))
...     for name in ("ann", "bob", "cid"):
...         _ = register(s, made.id, name, key=f"r-{name}")
...     balance(s, f"tournament:{made.id}"), balance(s, "fee:tournaments")
(3000, 300)
>>> with transaction(engine) as s:
...     start(s, made.id, SeededRng(1))
>>> play_bots(engine, made.id, SeededRng(2))
>>> with transaction(engine) as s:
...     sorted(results(s, made.id).prizes.values()), balance(s, f"tournament:{made.id}")
...     reconcile(s, made.id)
([0, 0, 3000], 0)
[]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from pelisali.money import format_cents
from pelisali.platform.accounts import Refused, StakeCheck, find, wallet_code
from pelisali.platform.db import transaction
from pelisali.platform.ledger import (
    LedgerError,
    append_audit,
    balance,
    made_before,
    move,
    now_utc,
)
from pelisali.platform.models import Account, TournamentRecord, Transfer
from pelisali.rng import Rng, SecureRng
from pelisali.tournaments.poker import (
    Entry,
    PokerTournament,
    TableHand,
    TournamentError,
    TournamentSettings,
    play_out,
)

FEES = "fee:tournaments"
HOUSE = "house:bank"


class TournamentRefused(LedgerError):
    """A tournament request refused: the message says why, and nothing changed."""


def pool_code(tournament_id: int) -> str:
    return f"tournament:{tournament_id}"


# -- records -------------------------------------------------------------------------------
def create(session: Session, settings: TournamentSettings, starts_at: datetime | None = None,
           actor: str = "staff") -> TournamentRecord:
    """Announce a tournament: its settings are fixed from here on."""
    engine = PokerTournament(settings)
    at = now_utc()
    record = TournamentRecord(name=settings.name, kind="poker",
                              settings=json.dumps(asdict(settings), sort_keys=True),
                              status="registering", state=json.dumps(engine.snapshot()),
                              version=0, created_at=at, starts_at=starts_at, updated_at=at)
    session.add(record)
    session.flush()
    append_audit(session, actor, "tournament_created",
                 {"tournament": record.id, "settings": asdict(settings)})
    return record


def get(session: Session, tournament_id: int, lock: bool = False) -> TournamentRecord:
    query = select(TournamentRecord).where(TournamentRecord.id == tournament_id)
    if lock:
        query = query.with_for_update()
    record = session.scalars(query).one_or_none()
    if record is None:
        raise TournamentRefused(f"there is no tournament {tournament_id}")
    return record


def lobby(session: Session) -> list[TournamentRecord]:
    """Every poker tournament, the newest first (table-game and slot tournaments share the
    table: ``platform.leaderboard_tournaments``)."""
    return list(session.scalars(select(TournamentRecord)
                                .where(TournamentRecord.kind == "poker")
                                .order_by(TournamentRecord.id.desc())))


def settings_of(record: TournamentRecord) -> TournamentSettings:
    return TournamentSettings(**json.loads(record.settings))


def engine_of(record: TournamentRecord, rng: Rng | None = None) -> PokerTournament:
    """The tournament's engine as last saved, dealing from ``rng`` (by default the OS's
    generator) once running."""
    state = json.loads(record.state)
    return PokerTournament.restore(settings_of(record), state, rng or SecureRng())


def save(session: Session, record: TournamentRecord, engine: PokerTournament) -> None:
    record.state = json.dumps(engine.snapshot())
    record.status = engine.status
    record.version += 1
    record.updated_at = now_utc()
    session.flush()


# -- entries -------------------------------------------------------------------------------
def _refusing(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except TournamentError as exc:
        raise TournamentRefused(str(exc)) from None


def register(session: Session, tournament_id: int, player: str, key: str) -> Entry:
    """Enter ``player``: the prize part to the pool and the fee to the house, within the
    player's limits. Retried with the same key, the entry already made; a key whose entry
    has been taken back since is refused (see :func:`enter`)."""
    record = get(session, tournament_id, lock=True)
    engine = engine_of(record)
    entry, new = enter(session, tournament_id, engine, player, key)
    if new:
        save(session, record, engine)
    return entry


def enter(session: Session, tournament_id: int, engine: PokerTournament, player: str,
          key: str) -> tuple[Entry, bool]:
    """Book an entry of ``player`` into ``engine`` (the caller saves it): the entry, and
    whether it is new. Retried with its key, the entry the key made; refused when that
    entry has been taken back since (the ledger would answer the old transfer and move
    nothing, entering the player free)."""
    s = engine.settings
    pool, wallet = pool_code(tournament_id), wallet_code(player)
    entry_key, fee_key = f"{key}:entry", f"{key}:fee"
    if s.buy_in and made_before(session, entry_key, "stake", wallet, pool, s.buy_in,
                                others=[f"{key}:rebuy", f"{key}:add-on"]) is not None:
        made = [e for e in engine.entries.values() if e.player == player]
        if not made:
            raise TournamentRefused("this key was used for an entry since taken back; "
                                    "send a new key")
        return made[-1], False
    find(session, player)
    check = StakeCheck(session, [player])
    refused = check.barred(player) or check.over_limit(player, s.buy_in + s.fee)
    if refused:
        raise Refused(refused)
    entry: Entry = _refusing(lambda: engine.register(player))
    reason = f"tournament {tournament_id} entry {entry.entry_id}"
    if s.buy_in:
        move(session, entry_key, wallet, pool, s.buy_in, "stake", reason=reason, actor=player)
    if s.fee:
        move(session, fee_key, wallet, FEES, s.fee, "fee", reason=reason, actor=player)
    return entry, True


def unregister(session: Session, tournament_id: int, player: str, key: str) -> None:
    """Take back a registration before the start: the prize part and the fee refunded."""
    record = get(session, tournament_id, lock=True)
    engine = engine_of(record)
    s = engine.settings
    if s.buy_in and made_before(session, f"{key}:entry", "refund", pool_code(tournament_id),
                                wallet_code(player), s.buy_in) is not None:
        return  # a retry: refunded already
    entry: Entry = _refusing(lambda: engine.unregister(player))
    reason = f"tournament {tournament_id} unregistered {entry.entry_id}"
    if s.buy_in:
        move(session, f"{key}:entry", pool_code(tournament_id), wallet_code(player), s.buy_in,
             "refund", reason=reason)
    if s.fee:
        move(session, f"{key}:fee", FEES, wallet_code(player), s.fee, "refund", reason=reason)
    save(session, record, engine)


def rebuy(session: Session, tournament_id: int, entry_id: str, key: str) -> None:
    """A rebuy between hands: its cost to the pool, its chips to the stack. Retried with
    the same key, nothing more."""
    _buy_chips(session, tournament_id, entry_id, key, "rebuy")


def add_on(session: Session, tournament_id: int, entry_id: str, key: str) -> None:
    """The add-on at the break after the rebuy period, as :func:`rebuy`."""
    _buy_chips(session, tournament_id, entry_id, key, "add-on")


@dataclass(frozen=True)
class Purchase:
    """A rebuy or the add-on a player asked for with ``key``: taken at once if their
    table is between hands, else as the hand in play ends (a rebuy then saves a stack
    the hand busted)."""

    entry_id: str
    player: str
    what: Literal["rebuy", "add-on"]
    key: str


def booked(session: Session, tournament_id: int, engine: PokerTournament,
           purchase: Purchase) -> bool:
    """Whether ``purchase`` was bought already (its key's stake is on the ledger); a key
    used for an entry or the other purchase is refused
    (:class:`~pelisali.platform.ledger.KeyConflict`)."""
    cost = engine.settings.rebuy_cost
    other = "add-on" if purchase.what == "rebuy" else "rebuy"
    return bool(cost) and made_before(
        session, _ledger_key(purchase), "stake", wallet_code(purchase.player),
        pool_code(tournament_id), cost,
        others=[f"{purchase.key}:entry", f"{purchase.key}:fee", f"{purchase.key}:{other}"],
    ) is not None


def _ledger_key(purchase: Purchase) -> str:
    return f"{purchase.key}:{purchase.what}"


def payable(session: Session, engine: PokerTournament,
            purchases: Sequence[Purchase]) -> tuple[list[Purchase], dict[str, str]]:
    """The purchases the players' wallets and limits allow now, and why each of the
    others is refused (by entry): an excluded player, a loss limit, a wallet short of
    the cost (no credit)."""
    cost = engine.settings.rebuy_cost
    if not cost:
        return list(purchases), {}
    check = StakeCheck(session, [p.player for p in purchases])
    allowed, refused = [], {}
    for p in purchases:
        why = check.barred(p.player) or check.over_limit(p.player, cost)
        held = balance(session, wallet_code(p.player))
        if why is None and held < cost:
            why = (f"{wallet_code(p.player)} holds {format_cents(held)}, not "
                   f"{format_cents(cost)}: no credit")
        if why is None:
            allowed.append(p)
        else:
            refused[p.entry_id] = why
    return allowed, refused


def charge(session: Session, tournament_id: int, engine: PokerTournament,
           bought: Sequence[Purchase]) -> None:
    """Book the cost of each purchase ``bought`` from the wallet to the pool."""
    cost = engine.settings.rebuy_cost
    for p in bought if cost else ():
        move(session, _ledger_key(p), wallet_code(p.player), pool_code(tournament_id), cost,
             "stake", reason=f"tournament {tournament_id} {p.what} {p.entry_id}", actor=p.player)


def _buy_chips(session: Session, tournament_id: int, entry_id: str, key: str,
               what: Literal["rebuy", "add-on"]) -> None:
    record = get(session, tournament_id, lock=True)
    engine = engine_of(record)
    entry = engine.entries.get(entry_id)
    if entry is None:
        raise TournamentRefused(f"{entry_id} is not in tournament {tournament_id}")
    purchase = Purchase(entry_id, entry.player, what, key)
    if booked(session, tournament_id, engine, purchase):
        return  # a retry: bought already
    _refusing(lambda: engine.rebuy(entry_id) if what == "rebuy" else engine.add_on(entry_id))
    _, refused = payable(session, engine, [purchase])
    if refused:
        raise Refused(refused[entry_id])
    charge(session, tournament_id, engine, [purchase])
    save(session, record, engine)


# -- play ------------------------------------------------------------------------------------
def start(session: Session, tournament_id: int, rng: Rng | None = None,
          actor: str = "staff") -> None:
    """Seat the entries and start the clock."""
    record = get(session, tournament_id, lock=True)
    engine = engine_of(record, rng)
    _refusing(lambda: engine.start(rng or SecureRng()))
    save(session, record, engine)
    append_audit(session, actor, "tournament_started",
                 {"tournament": tournament_id, "entries": len(engine.entries)})


def play_bots(engine_db: Engine, tournament_id: int, rng: Rng, seconds_a_hand: int = 60,
              hands: int | None = None,
              on_hand: Callable[[PokerTournament, TableHand], None] | None = None) -> None:
    """Play a running tournament with bots in every seat, every table a hand a round,
    the clock moving ``seconds_a_hand`` a round. Each hand is saved in its own
    transaction as it is booked (the last one with the prizes), so a crash loses at
    most the hand in play: void, the tournament resumes from the hand before.
    ``hands``: stop after so many. Another process changing the tournament meanwhile
    stops the play with a refusal rather than overwrite it. Resumed (hands were played
    before), the clock first moves on for the round the last play stopped or was cut in,
    as an uninterrupted play would after it: else play stopped after every hand would
    never raise the blinds."""
    with transaction(engine_db) as session:
        record = get(session, tournament_id)
        engine, version = engine_of(record, rng), record.version
    if engine.status != "running":
        raise TournamentRefused(f"tournament {tournament_id} is {engine.status}")
    if engine.hands_dealt:
        engine.tick(engine.elapsed + seconds_a_hand)

    def booked(playing: TableHand) -> None:
        nonlocal version
        with transaction(engine_db) as session:
            record = get(session, tournament_id, lock=True)
            if record.version != version:
                raise TournamentRefused(f"tournament {tournament_id} was changed by another "
                                        "process: resume it")
            save(session, record, engine)
            if engine.status == "finished":
                settle(session, tournament_id, engine)
            version = record.version
        if on_hand is not None:
            on_hand(engine, playing)

    play_out(engine, rng, seconds_a_hand=seconds_a_hand, on_hand=booked, hands=hands)


# -- the end -----------------------------------------------------------------------------------
@dataclass
class Results:
    status: str
    places: dict[str, int]
    prizes: dict[str, int]  # by entry, cents
    pool: int
    overlay: int


def settle(session: Session, tournament_id: int, engine: PokerTournament) -> None:
    """Pay a finished tournament: the house funds the overlay, the pool pays the prizes."""
    pool = engine.prize_pool()
    code = pool_code(tournament_id)
    if pool.overlay:
        move(session, f"t{tournament_id}:overlay", HOUSE, code, pool.overlay, "funding",
             reason=f"tournament {tournament_id} guarantee overlay")
    for entry_id, prize in engine.prizes().items():
        if prize:
            player = engine.entries[entry_id].player
            move(session, f"t{tournament_id}:prize:{entry_id}", code, wallet_code(player),
                 prize, "win", reason=f"tournament {tournament_id} place "
                 f"{engine.places()[entry_id]}")
    append_audit(session, "system", "tournament_paid",
                 {"tournament": tournament_id, "pool": pool.pool, "overlay": pool.overlay})


def cancel(session: Session, tournament_id: int, actor: str = "staff") -> dict[str, int]:
    """Cancel: refund every entry (and fee), or pay the pool by the chip counts."""
    record = get(session, tournament_id, lock=True)
    engine = engine_of(record)
    before = engine.status
    owed: dict[str, int] = _refusing(engine.cancel)
    code = pool_code(tournament_id)
    s = engine.settings
    if before == "registering" or s.cancel_pays == "refund":
        for entry in engine.entries.values():
            reason = f"tournament {tournament_id} cancelled: {entry.entry_id} refunded"
            extra = (entry.rebuys + entry.add_on) * s.rebuy_cost
            if s.buy_in + extra:
                move(session, f"t{tournament_id}:refund:{entry.entry_id}", code,
                     wallet_code(entry.player), s.buy_in + extra, "refund", reason=reason)
            if s.fee:
                move(session, f"t{tournament_id}:refund-fee:{entry.entry_id}", FEES,
                     wallet_code(entry.player), s.fee, "refund", reason=reason)
    else:
        overlay = engine.prize_pool().overlay
        if overlay:
            move(session, f"t{tournament_id}:overlay", HOUSE, code, overlay, "funding",
                 reason=f"tournament {tournament_id} guarantee overlay")
        for player, amount in owed.items():
            if amount:
                move(session, f"t{tournament_id}:chips:{player}", code, wallet_code(player),
                     amount, "win", reason=f"tournament {tournament_id} cancelled: by chips")
    save(session, record, engine)
    append_audit(session, actor, "tournament_cancelled",
                 {"tournament": tournament_id, "owed": owed})
    return owed


def results(session: Session, tournament_id: int) -> Results:
    engine = engine_of(get(session, tournament_id))
    pool = engine.prize_pool()
    prizes = engine.prizes() if engine.status == "finished" else {}
    return Results(engine.status, engine.places(), prizes, pool.pool, pool.overlay)


def reconcile(session: Session, tournament_id: int) -> list[str]:
    """What does not add up between the tournament and its ledger account: the pool
    holds the prize parts staked and the overlay funded, less what it paid; a finished
    or cancelled tournament's holds nothing. Empty when all is well."""
    record = get(session, tournament_id)
    engine = engine_of(record)
    code = pool_code(tournament_id)
    account = session.scalars(select(Account).where(Account.code == code)).one_or_none()
    problems: list[str] = []
    held = balance(session, code) if account is not None else 0
    staked = paid = funded = 0
    if account is not None:
        # Grouped by the target itself: PostgreSQL refuses to group by a comparison with a
        # bound parameter (each use of it is a parameter of its own).
        rows = session.execute(
            select(Transfer.kind, Transfer.target_id, func.sum(Transfer.amount))
            .where((Transfer.target_id == account.id) | (Transfer.source_id == account.id))
            .group_by(Transfer.kind, Transfer.target_id))
        for kind, target, amount in rows:
            incoming = target == account.id
            if incoming and kind == "stake":
                staked += int(amount)
            elif incoming and kind == "funding":
                funded += int(amount)
            elif not incoming:
                paid += int(amount)
    pool = engine.prize_pool()
    if engine.status in ("registering", "running") and staked - paid != pool.collected:
        problems.append(f"{code}: {staked - paid} staked less refunded, the entries' prize "
                        f"parts {pool.collected}")
    if held != staked + funded - paid:
        problems.append(f"{code}: holds {held}, transfers {staked + funded - paid}")
    if engine.status in ("finished", "cancelled") and held != 0:
        problems.append(f"{code}: holds {held} after the tournament")
    if engine.status == "finished":
        if funded != pool.overlay:
            problems.append(f"{code}: overlay funded {funded}, owed {pool.overlay}")
        if paid != pool.pool:
            problems.append(f"{code}: paid {paid}, the pool {pool.pool}")
    if engine.status == "running" and engine.chips_in_play() != engine.chips_issued():
        problems.append(f"tournament {tournament_id}: {engine.chips_in_play()} chips in "
                        f"play, {engine.chips_issued()} issued")
    return problems


def reconcile_all(session: Session) -> dict[int, list[str]]:
    """:func:`reconcile` of every tournament with a problem."""
    found = {}
    for record in lobby(session):
        problems = reconcile(session, record.id)
        if problems:
            found[record.id] = problems
    return found
