"""Players and responsible gaming: who may play, and how much may move.

Registration refuses under-18s and residents of restricted countries (GGPoker
house rules; RULINGS "Everywhere"). A player can exclude themself for a period
or for good and set deposit and loss limits per day, week and month; staff can
restrict or bar a player (RAY 1.1). Each rule is enforced at the moment money
would move, with the reason in the refusal.

>>> from datetime import date
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     ann = register(s, "ann", date(1990, 5, 1), "FI", today=date(2026, 11, 29))
...     deposit(s, "ann", 10_000, key="d1")
...     set_limit(s, "ann", "loss", "day", 2_000)
...     stake(s, "ann", 1_500, key="b1", reason="roulette")
...     stake(s, "ann", 1_000, key="b2", reason="roulette")
Traceback (most recent call last):
...
pelisali.platform.accounts.Refused: ann: loss limit 20.00 a day (lost 15.00, stake 10.00)
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, fields
from datetime import UTC, date, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import NamedTuple, cast
from zoneinfo import ZoneInfo

from sqlalchemy import Table, and_, bindparam, func, select
from sqlalchemy.orm import Session

from pelisali.money import format_cents
from pelisali.platform import countries, metrics
from pelisali.platform.ledger import LedgerError, append_audit, move, now_utc, open_account
from pelisali.platform.models import Account, Limit, Player, Transfer, WebSession

PERIODS = ("day", "week", "month")
LIMIT_KINDS = ("deposit", "loss")  # money limits, in cents a period
# The session-time limit: minutes of one session (from the player's earliest log-in still
# open), its kind and its period both "session"; a cut applies at once, a raise waits.
SESSION = "session"
MAX_SESSION_MINUTES = 24 * 60
STATUSES = ("active", "restricted", "barred")
EARLIEST_BIRTH = date(1900, 1, 1)  # before it, a typo or a probe: no one that old plays


class Refused(LedgerError):
    """A responsible-gaming or account rule refuses the request; nothing changed."""


@dataclass(frozen=True)
class Settings:
    minimum_age: int
    restricted_countries: tuple[str, ...]
    timezone: str
    limit_raise_delay_hours: int
    session_reminder_minutes: int


@cache
def settings() -> Settings:
    """The operator's settings (``platform/settings.toml``, each value explained there)."""
    data = tomllib.loads((Path(__file__).parent / "settings.toml").read_text("utf-8"))
    return Settings(int(data["minimum_age"]), tuple(data["restricted_countries"]),
                    str(data["timezone"]), int(data["limit_raise_delay_hours"]),
                    int(data["session_reminder_minutes"]))


def age_on(born: date, day: date) -> int:
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def wallet_code(name: str) -> str:
    return f"player:{name}"


def check_registration(name: str, born: date, country: str, today: date | None = None
                       ) -> None:
    """Refused: a name that is not one, a birth date no one living has or the under-age,
    a country that is not one or is restricted (what needs no database; :func:`register`
    checks the rest).

    >>> check_registration("kid", date(2020, 1, 1), "FI", today=date(2026, 1, 1))
    Traceback (most recent call last):
    ...
    pelisali.platform.accounts.Refused: kid: under 18 may not play (born 2020-01-01)
    >>> check_registration("ann", date(1990, 1, 1), "ZZ")
    Traceback (most recent call last):
    ...
    pelisali.platform.accounts.Refused: country 'ZZ' is not an ISO 3166-1 country code
    """
    rules = settings()
    today = today or datetime.now(ZoneInfo(rules.timezone)).date()
    if not name or not name.replace("-", "").replace("_", "").isalnum() or len(name) > 80:
        raise Refused(f"a player name is 1-80 letters, digits, '-' or '_', not {name!r}")
    # ASCII before upper(): "fı".upper() is "FI"
    if len(country) != 2 or not country.isascii() or not country.isalpha():
        raise Refused(f"country {country!r}: an ISO 3166 two-letter code")
    country = country.upper()
    if country not in countries.CODES:
        raise Refused(f"country {country!r} is not an ISO 3166-1 country code")
    if not EARLIEST_BIRTH <= born <= today:
        raise Refused(f"{name}: a date of birth is from {EARLIEST_BIRTH} to today "
                      f"({today}), not {born}")
    if age_on(born, today) < rules.minimum_age:
        raise Refused(f"{name}: under {rules.minimum_age} may not play (born {born})")
    if country in rules.restricted_countries:
        raise Refused(f"{name}: residents of {country} may not register (restricted country)")


def register(session: Session, name: str, born: date, country: str,
             today: date | None = None, actor: str = "system") -> Player:
    """A new player with a wallet; refused for the under-age and restricted countries."""
    check_registration(name, born, country, today)
    country = country.upper()
    if session.scalars(select(Player).where(Player.name == name)).one_or_none() is not None:
        raise Refused(f"a player called {name!r} exists")
    account = open_account(session, wallet_code(name), "player")
    player = Player(name=name, born=born, country=country, account_id=account.id,
                    created_at=now_utc())
    session.add(player)
    session.flush()
    append_audit(session, actor, "register", {"player": name, "born": born.isoformat(),
                                              "country": country})
    return player


def find(session: Session, name: str) -> Player:
    player = session.scalars(select(Player).where(Player.name == name)).one_or_none()
    if player is None:
        raise Refused(f"no player {name!r}")
    return player


# -- periods and totals -------------------------------------------------------------------
def period_start(period: str, at: datetime) -> datetime:
    """The start of the calendar day, ISO week or month containing ``at``, in the casino's
    time zone, as UTC."""
    local = at.astimezone(ZoneInfo(settings().timezone))
    start = local.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        start -= timedelta(days=start.weekday())
    elif period == "month":
        start = start.replace(day=1)
    elif period != "day":
        raise Refused(f"period {period!r}: day, week or month")
    return start.astimezone(UTC)


def _moved(session: Session, account_id: int, kinds: tuple[str, ...], since: datetime,
           incoming: bool) -> int:
    side = Transfer.target_id if incoming else Transfer.source_id
    total = session.scalar(select(func.coalesce(func.sum(Transfer.amount), 0))
                           .where(side == account_id, Transfer.kind.in_(kinds),
                                  Transfer.created_at >= since))
    return int(total or 0)


def deposited(session: Session, player: Player, since: datetime) -> int:
    return _moved(session, player.account_id, ("deposit",), since, incoming=True)


def lost(session: Session, player: Player | Standing, since: datetime) -> int:
    """Net loss since ``since``: stakes, and commissions taken from the wallet (Pai Gow
    Poker's on a win), less what came back (wins, refunds, corrections, free-spin bonuses
    wagered through and released to the wallet)."""
    staked = _moved(session, player.account_id, ("stake", "commission"), since,
                    incoming=False)
    back = _moved(session, player.account_id, ("win", "refund", "correction", "bonus_release"),
                  since, incoming=True)
    return staked - back


# -- limits -------------------------------------------------------------------------------
def current_limit(session: Session, player: Player, kind: str, period: str,
                  at: datetime | None = None) -> int | None:
    at = at or now_utc()
    row = session.scalars(select(Limit).where(
        Limit.player_id == player.id, Limit.kind == kind, Limit.period == period,
        Limit.effective_at <= at).order_by(Limit.effective_at.desc(), Limit.id.desc())
        .limit(1)).one_or_none()
    return None if row is None else row.amount


def set_limit(session: Session, name: str, kind: str, period: str, amount: int | None,
              actor: str | None = None) -> datetime:
    """Set a deposit or loss limit in cents (None removes it), or the session-time limit
    in minutes (kind and period :data:`SESSION`); a lower limit applies at once, a
    higher one (or removing it) after the cooling-off time. Returns when it applies."""
    if kind == SESSION:
        if period != SESSION:
            raise Refused(f"a session-time limit is per session, not per {period!r}")
        if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)
                                   or not 1 <= amount <= MAX_SESSION_MINUTES):
            raise Refused(f"a session-time limit is 1 to {MAX_SESSION_MINUTES} minutes, "
                          f"not {amount!r}")
    elif kind not in LIMIT_KINDS:
        raise Refused(f"limit {kind!r}: deposit, loss or session")
    elif period not in PERIODS:
        raise Refused(f"period {period!r}: day, week or month")
    elif amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)
                                 or amount < 0):
        raise Refused(f"a limit is a whole number of cents, 0 or more, not {amount!r}")
    player = find(session, name)
    now = now_utc()
    old = current_limit(session, player, kind, period, now)
    tighter = amount is not None and (old is None or amount <= old)
    effective = now if tighter else now + timedelta(hours=settings().limit_raise_delay_hours)
    session.add(Limit(player_id=player.id, kind=kind, period=period, amount=amount,
                      effective_at=effective, created_at=now))
    session.flush()
    append_audit(session, actor or name, "limit", {
        "player": name, "kind": kind, "period": period, "amount": amount,
        "effective": effective.isoformat()})
    return effective


def exclude(session: Session, name: str, days: int | None, actor: str | None = None) -> None:
    """Self-exclusion for ``days`` days, or for good with None. It cannot be shortened."""
    player = find(session, name)
    if days is None:
        player.excluded_forever = True
    else:
        if isinstance(days, bool) or not isinstance(days, int) or days <= 0:
            raise Refused("an exclusion is a positive number of days, or for good")
        until = now_utc() + timedelta(days=days)
        current = player.excluded_until
        if current is None or until > current:
            player.excluded_until = until
    append_audit(session, actor or name, "exclude", {"player": name, "days": days})


def set_status(session: Session, name: str, status: str, reason: str, staff: str) -> None:
    """Staff restrict or bar a player, or make them active again (RAY 1.1)."""
    if status not in STATUSES:
        raise Refused(f"status {status!r}: {', '.join(STATUSES)}")
    if not reason or not staff:
        raise Refused("a status change needs the staff member and the reason")
    player = find(session, name)
    player.status, player.status_reason = status, reason
    append_audit(session, staff, "status", {"player": name, "status": status,
                                            "reason": reason})


def excluded(player: Player | Standing, at: datetime) -> bool:
    if player.excluded_forever:
        return True
    until = player.excluded_until
    return until is not None and at < until


def session_started(session: Session, name: str, at: datetime | None = None
                    ) -> datetime | None:
    """When player ``name``'s session began: their earliest log-in still open (None: not
    logged in, as at the terminal)."""
    found = session.scalar(select(func.min(WebSession.created_at)).where(
        WebSession.name == name, WebSession.role == "player",
        WebSession.expires_at > (at or now_utc())))
    return found


def session_time_over(session: Session, name: str, minutes: int | None,
                      at: datetime | None = None) -> str | None:
    """Why player ``name`` may not stake now under a session-time limit of ``minutes``
    (None: no limit), or None.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     _ = register(s, "ann", date(1990, 1, 1), "FI")
    ...     s.add(WebSession(token_hash="t", name="ann", role="player",
    ...                      created_at=now_utc() - timedelta(minutes=61),
    ...                      expires_at=now_utc() + timedelta(hours=1)))
    ...     session_time_over(s, "ann", 60), session_time_over(s, "ann", 90)
    ('ann: session-time limit 60 min reached (logged in 61 min)', None)
    """
    if minutes is None:
        return None
    at = at or now_utc()
    started = session_started(session, name, at)
    if started is None:
        return None
    played = int((at - started).total_seconds() // 60)
    if played < minutes:
        return None
    metrics.LIMIT_REFUSALS.labels("session-time limit").inc()
    return f"{name}: session-time limit {minutes} min reached (logged in {played} min)"


def may_play(player: Player | Standing, at: datetime | None = None) -> None:
    """Refuse a player who is excluded, barred or restricted."""
    at = at or now_utc()
    if player.status != "active":
        raise Refused(f"{player.name}: account {player.status}"
                      + (f" ({player.status_reason})" if player.status_reason else ""))
    if excluded(player, at):
        raise Refused(f"{player.name}: self-excluded"
                      + ("" if player.excluded_forever else f" until {player.excluded_until}"))


# -- money that moves ---------------------------------------------------------------------
def check_deposit(session: Session, name: str, amount: int) -> None:
    """Refuse a deposit the player's status or deposit limits do not allow."""
    player = find(session, name)
    now = now_utc()
    if player.status == "barred" or excluded(player, now):
        raise Refused(f"{name}: no deposits while barred or self-excluded")
    for period in PERIODS:
        limit = current_limit(session, player, "deposit", period, now)
        if limit is not None:
            done = deposited(session, player, period_start(period, now))
            if done + amount > limit:
                raise Refused(f"{name}: deposit limit {format_cents(limit)} a {period} "
                              f"(deposited {format_cents(done)}, deposit "
                              f"{format_cents(amount)})")


def deposit(session: Session, name: str, amount: int, key: str, actor: str = "payments",
            source: str = "external:payments", reason: str = "") -> Account:
    """Money in from a payment adapter or staff, within the player's deposit limits."""
    check_deposit(session, name, amount)
    move(session, key, source, wallet_code(name), amount, "deposit", reason=reason,
         actor=actor)
    return open_account(session, wallet_code(name))


def withdraw(session: Session, name: str, amount: int, key: str, actor: str = "payments",
             target: str = "external:payments") -> Account:
    """Money out to the player; allowed whatever the player's status (it is theirs)."""
    find(session, name)
    move(session, key, wallet_code(name), target, amount, "withdrawal", actor=actor)
    return open_account(session, wallet_code(name))


@dataclass(frozen=True)
class Standing:
    """What deciding whether a player may stake needs of them, read without the ORM."""

    id: int
    name: str
    status: str
    status_reason: str
    excluded_until: datetime | None
    excluded_forever: bool
    account_id: int


class Wallet(NamedTuple):
    """A wallet's row as :func:`pelisali.platform.ledger.post` takes those it locked."""

    code: str
    id: int
    kind: str
    balance: int


_PLAYERS = cast(Table, Player.__table__)
_LIMITS = cast(Table, Limit.__table__)
# The players with their loss limits in force, in one statement.
_STANDINGS = (select(*(_PLAYERS.c[f.name] for f in fields(Standing)), _LIMITS.c.period,
                     _LIMITS.c.amount)
              .outerjoin(_LIMITS, and_(_LIMITS.c.player_id == _PLAYERS.c.id,
                                       _LIMITS.c.kind.in_(("loss", SESSION)),
                                       _LIMITS.c.effective_at <= bindparam("at")))
              .where(_PLAYERS.c.name.in_(bindparam("names", expanding=True)))
              .order_by(_PLAYERS.c.id, _LIMITS.c.effective_at, _LIMITS.c.id))
_WALLETS = cast(Table, Account.__table__)
# The same, each with their wallet locked (in id order: the order every transfer locks in),
# for a caller that moves their money next: one round trip instead of two.
_STANDINGS_LOCKED = (
    select(*(_PLAYERS.c[f.name] for f in fields(Standing)), _LIMITS.c.period,
           _LIMITS.c.amount, *(_WALLETS.c[f].label(f"wallet_{f}") for f in Wallet._fields))
    .join(_WALLETS, _WALLETS.c.id == _PLAYERS.c.account_id)
    .outerjoin(_LIMITS, and_(_LIMITS.c.player_id == _PLAYERS.c.id,
                             _LIMITS.c.kind.in_(("loss", SESSION)),
                             _LIMITS.c.effective_at <= bindparam("at")))
    .where(_PLAYERS.c.name.in_(bindparam("names", expanding=True)))
    .order_by(_WALLETS.c.id, _LIMITS.c.effective_at, _LIMITS.c.id)
    .with_for_update(of=_WALLETS))


class StakeCheck:
    """Who of some players may stake now, and how much: their status, exclusion, loss
    limits and session-time limit, loaded in two queries however many players there are
    (a third for each player with a session-time limit).

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     _ = register(s, "ann", date(1990, 1, 1), "FI")
    ...     _ = set_limit(s, "ann", "loss", "day", 1_000)
    ...     check = StakeCheck(s, ["ann", "bob"])
    ...     check.barred("bob"), check.barred("ann"), check.over_limit("ann", 1_500)
    ("no player 'bob'", None, 'ann: loss limit 10.00 a day (lost 0.00, stake 15.00)')
    """

    def __init__(self, session: Session, names: Iterable[str],
                 at: datetime | None = None, lock: bool = False) -> None:
        """``lock``: also lock the players' wallets, read into :attr:`wallets`."""
        self.session, self.at = session, at or now_utc()
        session.flush()
        connection = session.connection()
        self.players: dict[str, Standing] = {}
        self.limits: dict[tuple[int, str], int | None] = {}
        self.wallets: dict[str, Wallet] = {}  # by code: the wallets locked
        width = len(fields(Standing))
        for row in connection.execute(_STANDINGS_LOCKED if lock else _STANDINGS,
                                      {"names": sorted(set(names)), "at": self.at}):
            standing = Standing(*row[:width])
            self.players[standing.name] = standing
            period, amount = row[width:width + 2]
            if lock:
                wallet = Wallet(*row[width + 2:])
                self.wallets[wallet.code] = wallet
            if period is not None:  # rows come oldest limit first: the latest wins
                self.limits[(standing.id, period)] = amount  # the session's, per "session"

    def barred(self, name: str) -> str | None:
        """Why ``name`` may not play at all now (unknown, restricted, excluded), or None."""
        player = self.players.get(name)
        if player is None:
            return f"no player {name!r}"
        try:
            may_play(player, self.at)
        except Refused as exc:
            metrics.LIMIT_REFUSALS.labels("barred or excluded").inc()
            return str(exc)
        return session_time_over(self.session, name, self.limits.get((player.id, SESSION)),
                                 self.at)

    def over_limit(self, name: str, amount: int) -> str | None:
        """Why staking ``amount`` more would break one of the player's loss limits."""
        player = self.players[name]
        for period in PERIODS:
            limit = self.limits.get((player.id, period))
            if limit is not None:
                so_far = lost(self.session, player, period_start(period, self.at))
                if so_far + amount > limit:
                    metrics.LIMIT_REFUSALS.labels("loss limit").inc()
                    return (f"{name}: loss limit {format_cents(limit)} a {period} (lost "
                            f"{format_cents(so_far)}, stake {format_cents(amount)})")
        return None


def stake(session: Session, name: str, amount: int, key: str, reason: str = "",
          round_id: int | None = None, house: str = "house:bank") -> None:
    """Take a stake from the wallet to the house, within the player's loss limits."""
    check = StakeCheck(session, [name])
    refused = check.barred(name) or check.over_limit(name, amount)
    if refused:
        raise Refused(refused)
    move(session, key, wallet_code(name), house, amount, "stake", reason=reason,
         round_id=round_id, actor=name)


def pay(session: Session, name: str, amount: int, key: str, kind: str = "win",
        reason: str = "", round_id: int | None = None, house: str = "house:bank") -> None:
    """Pay a win or a refund from the house to the wallet."""
    find(session, name)
    move(session, key, house, wallet_code(name), amount, kind, reason=reason,
         round_id=round_id)


def reminder_due(player: Player, session_started: datetime, at: datetime | None = None) -> bool:
    """The session time reminder: due once every reminder period of play."""
    at = at or now_utc()
    minutes = player.session_reminder_minutes or settings().session_reminder_minutes
    return (at - session_started) >= timedelta(minutes=minutes)
