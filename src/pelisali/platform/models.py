"""The tables: ledger accounts and transfers, players, the audit chain.

Money columns are integer cents (BigInteger); nothing here is ever a float.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Enum,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    SmallInteger,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    event,
    false,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from pelisali.platform.kinds import AccountKind, RoundStatus, TransferKind, values


class UTCDateTime(TypeDecorator[datetime]):
    """A moment, always read back zone-aware in UTC (SQLite stores no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_result_value(self, value: datetime | None, dialect: Dialect
                             ) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


class Base(DeclarativeBase):
    """The declarative base of every platform table."""


ACCOUNT_KINDS = tuple(values(AccountKind))


def _enum(kind: type[AccountKind] | type[TransferKind] | type[RoundStatus], name: str,
          length: int) -> Enum:
    """A column type that stores an enum's strings and refuses any other (a CHECK
    constraint named ``name``, the same on SQLite and PostgreSQL)."""
    return Enum(kind, name=name, native_enum=False, create_constraint=True, length=length,
                values_callable=values, validate_strings=True)


def _restrict(target: str) -> ForeignKey:
    """A reference whose row may not be deleted while it is referred to."""
    return ForeignKey(target, ondelete="RESTRICT")


class Account(Base):
    """A ledger account. Every kind but ``external`` (money outside the casino: payments
    in and out, the owner's capital) may never go below zero."""

    __tablename__ = "accounts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(120), unique=True)
    kind: Mapped[AccountKind] = mapped_column(_enum(AccountKind, "account_kind", 16))
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    __table_args__ = (
        CheckConstraint("kind = 'external' OR balance >= 0", name="no_credit"),
    )


class BalanceShard(Base):
    """A part of a busy house account's balance (PostgreSQL): the account's balance is its
    own row's plus its shards', and concurrent rounds each move a shard of their own
    instead of waiting for one row. A shard may be below zero; the sum may not."""

    __tablename__ = "balance_shards"
    account_id: Mapped[int] = mapped_column(_restrict("accounts.id"))
    shard: Mapped[int] = mapped_column(SmallInteger)
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    __table_args__ = (PrimaryKeyConstraint("account_id", "shard"),)


class Transfer(Base):
    """One movement of money from one account to another; never edited or deleted."""

    __tablename__ = "transfers"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)  # idempotency key
    digest: Mapped[str] = mapped_column(String(64))  # of the content, to spot a reused key
    source_id: Mapped[int] = mapped_column(_restrict("accounts.id"))
    target_id: Mapped[int] = mapped_column(_restrict("accounts.id"))
    amount: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[TransferKind] = mapped_column(_enum(TransferKind, "transfer_kind", 32))
    reason: Mapped[str] = mapped_column(Text, default="")
    round_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    corrects_id: Mapped[int | None] = mapped_column(_restrict("transfers.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    __table_args__ = (
        CheckConstraint("amount > 0", name="positive_amount"),
        CheckConstraint("source_id <> target_id", name="two_accounts"),
        Index("ix_transfers_source", "source_id", "created_at"),
        Index("ix_transfers_target", "target_id", "created_at"),
    )


class Player(Base):
    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    born: Mapped[date] = mapped_column(Date)
    country: Mapped[str] = mapped_column(String(2))
    status: Mapped[str] = mapped_column(String(16), default="active")  # restricted, barred
    status_reason: Mapped[str] = mapped_column(Text, default="")
    excluded_until: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                            nullable=True)
    excluded_forever: Mapped[bool] = mapped_column(default=False)
    session_reminder_minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    account_id: Mapped[int] = mapped_column(_restrict("accounts.id"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class Limit(Base):
    """A deposit or loss limit per day, week or month; a raise waits its cooling-off time,
    so each change is a new row effective from its time."""

    __tablename__ = "limits"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(_restrict("players.id"))
    kind: Mapped[str] = mapped_column(String(16))  # deposit or loss
    period: Mapped[str] = mapped_column(String(8))  # day, week, month
    amount: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # None: no limit
    effective_at: Mapped[datetime] = mapped_column(UTCDateTime())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    __table_args__ = (Index("ix_limits_player", "player_id", "kind", "period"),)


class AuditEntry(Base):
    """The tamper-evident log: each entry's hash covers its content and the previous hash
    of its chain. There are several chains (PostgreSQL appends to whichever is free), each
    a line of its own; one chain on SQLite."""

    __tablename__ = "audit"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chain: Mapped[int] = mapped_column(SmallInteger, default=1, server_default="1")
    at: Mapped[datetime] = mapped_column(UTCDateTime())
    actor: Mapped[str] = mapped_column(String(80))
    action: Mapped[str] = mapped_column(String(40))
    payload: Mapped[str] = mapped_column(Text)  # canonical JSON
    previous: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64), unique=True)
    __table_args__ = (Index("ix_audit_chain", "chain", "id"),)


class AuditHead(Base):
    """A chain's last hash and length, one row a chain (``id`` is the chain), locked by
    whoever appends to it."""

    __tablename__ = "audit_head"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hash: Mapped[str] = mapped_column(String(64))
    entries: Mapped[int] = mapped_column(BigInteger, default=0)


class Lease(Base):
    """Which process runs a shared table (live or poker) now: its holder, the fencing
    token each new holder raises, and when the lease runs out unless renewed."""

    __tablename__ = "leases"
    table_name: Mapped[str] = mapped_column(String(80), primary_key=True)
    owner: Mapped[str] = mapped_column(String(120))
    token: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())


class GameTable(Base):
    """A table: a game and version, its settings and limits, and its gaming day."""

    __tablename__ = "tables"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    game: Mapped[str] = mapped_column(String(40))
    variant: Mapped[str] = mapped_column(String(8), default="")
    settings: Mapped[str] = mapped_column(Text, default="{}")  # JSON
    limit_min: Mapped[int] = mapped_column(BigInteger)
    limit_max: Mapped[int] = mapped_column(BigInteger)
    mode: Mapped[str] = mapped_column(String(8), default="rng")  # rng or live
    status: Mapped[str] = mapped_column(String(8), default="open",
                                        server_default="open")  # open or closed
    gaming_day: Mapped[date] = mapped_column(Date)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # RAY 1.2.1, 1.2.2, 1.3.2 "Pelipanokset": value chips, colour chips, or both
    chips: Mapped[str] = mapped_column(String(8), default="value", server_default="value")
    # Provably fair draws (docs/provably-fair.md): each round from its player's seed pair
    fair: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ColourStack(Base):
    """A player's colour chips at one table (RAY 1.2.1, 1.2.2, 1.3.2 "Pelipanokset"):
    their colour, the value of one chip the player chose at buy-in, and when the stack
    was bought and exchanged back to value chips (``closed_at``; None while it is
    played). The chips' money is the ledger account ``table:TABLE/chips:PLAYER``."""

    __tablename__ = "colour_stacks"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(_restrict("tables.id"))
    player: Mapped[str] = mapped_column(String(80))
    colour: Mapped[str] = mapped_column(String(16))
    unit: Mapped[int] = mapped_column(BigInteger)  # cents a chip
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime())
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    bought_key: Mapped[str] = mapped_column(String(200))  # the first buy's key
    closed_key: Mapped[str | None] = mapped_column(String(200), nullable=True, unique=True)
    __table_args__ = (Index("ix_colour_stacks_table_player", "table_id", "player"),)


class FairSeed(Base):
    """A player's provably fair seed pair: the server seed (secret until the pair is
    rotated, ``revealed_at``), its SHA-256 ``commitment`` (shown from the start), the
    player's client seed and the nonce of the next round drawn with the pair."""

    __tablename__ = "fair_seeds"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(String(80))
    server_seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64), unique=True)
    client_seed: Mapped[str] = mapped_column(String(64))
    nonce: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    revealed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    __table_args__ = (Index("ix_fair_seeds_player", "player", "revealed_at"),)


class RoundRow(Base):
    """A round: open for bets, then settled or refunded; its engine record as JSON."""

    __tablename__ = "rounds"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(_restrict("tables.id"))
    status: Mapped[RoundStatus] = mapped_column(_enum(RoundStatus, "round_status", 12),
                                                default=RoundStatus.BETTING)
    gaming_day: Mapped[date] = mapped_column(Date)
    record: Mapped[str] = mapped_column(Text, default="{}")
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime())
    deadline: Mapped[datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                         nullable=True)
    __table_args__ = (Index("ix_rounds_table_status", "table_id", "status"),)


class BetRow(Base):
    __tablename__ = "bets"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(_restrict("rounds.id"))
    number: Mapped[int] = mapped_column(Integer)  # the engine's bet id in the round
    player: Mapped[str] = mapped_column(String(80))
    spot: Mapped[str] = mapped_column(String(60))
    stake: Mapped[int] = mapped_column(BigInteger)
    key: Mapped[str] = mapped_column(String(200), unique=True)
    paid: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    result: Mapped[str | None] = mapped_column(String(16), nullable=True)
    level: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # en prison
    carried: Mapped[bool] = mapped_column(default=False, server_default="0")  # from a round
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    __table_args__ = (Index("ix_bets_round", "round_id"), Index("ix_bets_player", "player"))


class Jackpot(Base):
    """A table-game jackpot (RAY 1.2.1): a side game with an optional participation fee,
    won by a stated result; a fixed sum, a sum by odds, or a progressive pool with a
    guaranteed minimum. Contributions accrue and join the pool at the end of the day.
    A progressive of a whole game (``game``, no table) is fed and won at every table of
    that game."""

    __tablename__ = "jackpots"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    table_id: Mapped[int | None] = mapped_column(_restrict("tables.id"), nullable=True)
    game: Mapped[str | None] = mapped_column(String(40), nullable=True, index=True)
    kind: Mapped[str] = mapped_column(String(12))  # fixed, odds, progressive
    fee: Mapped[int] = mapped_column(BigInteger)  # participation fee a round, cents
    amount: Mapped[int] = mapped_column(BigInteger, default=0)  # fixed: the sum
    odds: Mapped[int] = mapped_column(Integer, default=0)  # odds: k times the fee
    share_percent: Mapped[int] = mapped_column(Integer, default=0)  # of the fee to the pool
    minimum: Mapped[int] = mapped_column(BigInteger, default=0)  # progressive: guaranteed
    faces: Mapped[str] = mapped_column(Text)  # JSON list of winning results
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class JackpotEntry(Base):
    __tablename__ = "jackpot_entries"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    jackpot_id: Mapped[int] = mapped_column(_restrict("jackpots.id"))
    round_id: Mapped[int] = mapped_column(_restrict("rounds.id"))
    player: Mapped[str] = mapped_column(String(80))
    key: Mapped[str] = mapped_column(String(200), unique=True)
    paid: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    __table_args__ = (Index("ix_jackpot_entries_round", "round_id"),)


class Credential(Base):
    """A login: a player's, or a staff member's (who is no player and holds no wallet).
    Only an argon2 hash of the password is kept."""

    __tablename__ = "credentials"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    role: Mapped[str] = mapped_column(String(8))  # player or staff
    password_hash: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class WebSession(Base):
    """A signed-in browser: only the SHA-256 of its token is kept."""

    __tablename__ = "web_sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    role: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    __table_args__ = (Index("ix_web_sessions_name", "name"),)


class LogIn(Base):
    """A log-in, kept after its session ends: who, when, the browser's device (only the
    SHA-256 of its long-lived device cookie) and the client's address (None where the
    server was not told one). The linked-accounts monitoring reads them."""

    __tablename__ = "log_ins"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    role: Mapped[str] = mapped_column(String(8))
    device: Mapped[str | None] = mapped_column(String(64), nullable=True)
    address: Mapped[str | None] = mapped_column(String(45), nullable=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime())
    __table_args__ = (Index("ix_log_ins_name", "name"), Index("ix_log_ins_device", "device"),
                      Index("ix_log_ins_address", "address"))


class AmlCase(Base):
    """A case the anti-money-laundering monitoring opened for staff (GGPoker house rules,
    "Rahanpesun torjunta"): the rule, the player, its evidence as JSON, and how staff
    closed it. ``through`` is the last transfer the evidence counted, so that the same
    money opens no second case."""

    __tablename__ = "aml_cases"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    rule: Mapped[str] = mapped_column(String(32))
    player: Mapped[str] = mapped_column(String(80))
    evidence: Mapped[str] = mapped_column(Text)
    through: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(8), default="open")  # open, closed, voided
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime())
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    closed_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
    note: Mapped[str] = mapped_column(Text, default="")
    __table_args__ = (Index("ix_aml_cases_player_rule", "player", "rule"),
                      # two processes scanning at once open a finding's case once
                      UniqueConstraint("player", "rule", "through", name="one_case_a_finding"))


BONUS_STATUSES = ("active", "released", "forfeited")


class BonusGrant(Base):
    """Free-spin winnings locked until wagered (GGPoker house rules, RNG slots 5): the
    money is on the ledger account ``bonus:PLAYER`` while ``active``; ``released`` to the
    wallet once ``wagered`` reaches ``required``, ``forfeited`` to the house if the
    ``deadline`` passes first. ``key`` is the caller's idempotency key of the grant;
    ``released_by`` the wager key that completed it."""

    __tablename__ = "bonus_grants"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)
    player: Mapped[str] = mapped_column(String(80))
    round_id: Mapped[int] = mapped_column(Integer)  # the free spins' round
    amount: Mapped[int] = mapped_column(BigInteger)
    required: Mapped[int] = mapped_column(BigInteger)
    wagered: Mapped[int] = mapped_column(BigInteger, default=0)
    status: Mapped[str] = mapped_column(String(12), default="active")
    granted_at: Mapped[datetime] = mapped_column(UTCDateTime())
    deadline: Mapped[datetime] = mapped_column(UTCDateTime())
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    released_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    __table_args__ = (
        CheckConstraint("amount > 0", name="bonus_positive_amount"),
        CheckConstraint("required > 0", name="bonus_required"),
        CheckConstraint("wagered >= 0 AND wagered <= required", name="bonus_wagered"),
        CheckConstraint(f"status IN ({', '.join(repr(s) for s in BONUS_STATUSES)})",
                        name="bonus_status"),
        Index("ix_bonus_grants_player_status", "player", "status"),
        Index("ix_bonus_grants_status_deadline", "status", "deadline"),
    )


class BonusWager(Base):
    """A real-money stake counted toward a player's bonus grants, kept by its key so
    that a retried stake is counted once: the stake and how much of it counted."""

    __tablename__ = "bonus_wagers"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)
    player: Mapped[str] = mapped_column(String(80))
    stake: Mapped[int] = mapped_column(BigInteger)
    counted: Mapped[int] = mapped_column(BigInteger)
    at: Mapped[datetime] = mapped_column(UTCDateTime())


TOURNAMENT_STATUSES = ("registering", "running", "finished", "cancelled")


class TournamentRecord(Base):
    """A tournament: its announced settings and, after every hand booked, the engine's
    snapshot (entries, stacks, seats, level time), from which it resumes after a crash.
    Its money is on the ledger account ``tournament:ID``; ``version`` rises with every
    save, so two processes cannot both advance one tournament."""

    __tablename__ = "tournaments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(12), default="poker")
    settings: Mapped[str] = mapped_column(Text)  # JSON: TournamentSettings
    status: Mapped[str] = mapped_column(String(12), default="registering")
    state: Mapped[str] = mapped_column(Text, default="{}")  # JSON: the engine's snapshot
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    starts_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())
    __table_args__ = (
        CheckConstraint(f"status IN ({', '.join(repr(s) for s in TOURNAMENT_STATUSES)})",
                        name="tournament_status"),
    )


class TournamentRoundRow(Base):
    """A round or spin an entry of a table-game or slot tournament played to its end: the
    chips staked and paid back, and the engine's moves with every chance draw
    (``[actor, text]``, chance -1), for the auditor. Written once, never edited."""

    __tablename__ = "tournament_rounds"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(_restrict("tournaments.id"))
    entry: Mapped[str] = mapped_column(String(80))
    number: Mapped[int] = mapped_column(Integer)  # the entry's round, from 1
    staked: Mapped[int] = mapped_column(BigInteger)  # tournament chips, never money
    paid: Mapped[int] = mapped_column(BigInteger)
    moves: Mapped[str] = mapped_column(Text)  # JSON
    played_at: Mapped[datetime] = mapped_column(UTCDateTime())
    __table_args__ = (UniqueConstraint("tournament_id", "entry", "number",
                                       name="uq_tournament_rounds_entry_number"),)


class ImmutableRowError(ValueError):
    """A transfer, an audit entry or a tournament round was changed or deleted through the ORM."""


@event.listens_for(Session, "before_flush")
def _append_only(session: Session, _context: object, _instances: object) -> None:
    """Transfers, audit entries and tournament rounds are append-only: a correction is a
    new transfer."""
    for row in (*session.dirty, *session.deleted):
        if not isinstance(row, Transfer | AuditEntry | TournamentRoundRow):
            continue
        if row in session.deleted or session.is_modified(row):
            what = ("transfer" if isinstance(row, Transfer) else "audit entry"
                    if isinstance(row, AuditEntry) else "tournament round")
            raise ImmutableRowError(f"a {what} is never edited or deleted; "
                                    "correct it with a new transfer")
