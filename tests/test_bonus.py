"""Free-spin bonuses (GGPoker house rules, RNG slots 5): winnings locked until wagered
within 72 hours, released at the requirement, forfeited after the deadline; on SQLite
and PostgreSQL, with the moments injected."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from dbfixtures import HOUSE, bare_engine, setup
from sqlalchemy import Engine, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from pelisali.platform import accounts, bonus, queries
from pelisali.platform.bonus import BonusSettings, Grant
from pelisali.platform.db import downgrade, transaction, upgrade
from pelisali.platform.ledger import (
    KeyConflict,
    LedgerError,
    balance,
    balances,
    check,
    verify_audit,
)
from pelisali.platform.models import AuditEntry, BonusWager, Transfer
from pelisali.platform.queries import BonusLine
from pelisali.platform.rounds import reconcile_bets

SPINS = datetime(2026, 12, 1, 12, tzinfo=UTC)  # the free spins redeemed
DEADLINE = SPINS + timedelta(hours=72)
MONEY = 1_000_000  # each player's deposit (dbfixtures.setup)


def hours(n: float) -> datetime:
    return SPINS + timedelta(hours=n)


def slot_stake(s: Session, player: str, amount: int, key: str, at: datetime) -> list[Grant]:
    """A real-money slot stake, moved on the ledger and counted toward the bonuses."""
    accounts.stake(s, player, amount, key=key, reason="slot")
    return bonus.count_wagering(s, player, amount, key, at=at)


def transfers(s: Session, kind: str) -> list[tuple[str, int]]:
    return [(t.key, t.amount) for t in s.scalars(
        select(Transfer).where(Transfer.kind == kind).order_by(Transfer.id))]


def assert_conserved(engine: Engine, bets: bool = False) -> None:
    """No money made or lost: the casino's accounts hold what the owner and the players
    put in, every balance equals its transfers, the bets reconcile where asked (``bets``:
    these tests' grants name rounds without bet rows, so they have none to be matched
    to; ``tests/test_platform_slots.py`` reconciles real slot rounds' grants) and the
    audit holds."""
    with transaction(engine) as s:
        held = balances(s)
        assert sum(held.values()) == 0
        assert sum(v for code, v in held.items() if not code.startswith("external:")) == \
            -sum(v for code, v in held.items() if code.startswith("external:"))
        report = check(s)
        assert report.ok, report.problems
        assert reconcile_bets(s).ok or not bets
        assert verify_audit(s).ok


def test_the_settings_are_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    assert bonus.settings() == BonusSettings(wagering_multiple=1, deadline_hours=72)
    with pytest.raises(ValueError, match="wagering_multiple"):
        BonusSettings(-1, 72)
    with pytest.raises(ValueError, match="deadline_hours"):
        BonusSettings(1, 0)


def test_stakes_fill_the_oldest_grant_first_and_release_each_at_its_requirement(
        engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        first = bonus.grant(s, "ann", 1_000, round_id=11, key="fs-11", at=SPINS)
        second = bonus.grant(s, "ann", 500, round_id=12, key="fs-12", at=hours(0.5))
        assert first is not None and second is not None
        assert (first.required, first.wagered, first.status) == (1_000, 0, "active")
        assert first.deadline == DEADLINE and second.deadline == hours(72.5)
        assert bonus.bonus_balance(s, "ann") == 1_500
        assert balance(s, "player:ann") == MONEY  # locked: not in the wallet
    with transaction(engine) as s:
        assert slot_stake(s, "ann", 600, "b1", hours(1)) == []
        assert slot_stake(s, "ann", 399, "b2", hours(2)) == []
        assert [(g.wagered, g.status) for g in bonus.grants(s, "ann")] == [
            (999, "active"), (0, "active")]  # the second waits for the first
        [released] = slot_stake(s, "ann", 1, "b3", hours(3))  # exactly the requirement
        assert (released.id, released.wagered, released.status, released.closed_at) == (
            first.id, 1_000, "released", hours(3))
        assert bonus.bonus_balance(s, "ann") == 500
        assert slot_stake(s, "ann", 300, "b4", hours(4)) == []
        # 200 of the 250 fill the second grant; the 50 beyond it count for nothing
        [released] = slot_stake(s, "ann", 250, "b5", hours(5))
        assert (released.id, released.wagered, released.status) == (second.id, 500, "released")
        counted = {w.key: w.counted for w in s.scalars(select(BonusWager))}
        assert counted == {"b1": 600, "b2": 399, "b3": 1, "b4": 300, "b5": 200}
        assert transfers(s, "bonus_release") == [
            (f"bonus-release:{first.id}", 1_000), (f"bonus-release:{second.id}", 500)]
        assert bonus.bonus_balance(s, "ann") == 0
        assert balance(s, "player:ann") == MONEY - 1_550 + 1_500
        assert balance(s, "house:bank") == HOUSE - 1_500 + 1_550
        assert slot_stake(s, "ann", 700, "b6", hours(6)) == []  # no grant left to count
        assert s.scalars(select(BonusWager).where(BonusWager.key == "b6")).first() is None
        assert queries.history(s, "ann").bonuses == [
            BonusLine(hours(5), "released", 500, hours(72.5), 12, second.id),
            BonusLine(hours(3), "released", 1_000, DEADLINE, 11, first.id),
            BonusLine(hours(0.5), "granted", 500, hours(72.5), 12, second.id),
            BonusLine(SPINS, "granted", 1_000, DEADLINE, 11, first.id)]
    assert_conserved(engine)


def test_the_requirement_is_the_winnings_times_the_multiple(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bonus, "settings", lambda: BonusSettings(3, 24))
    setup(engine)
    with transaction(engine) as s:
        made = bonus.grant(s, "ann", 200, round_id=1, key="fs-1", at=SPINS)
        assert made is not None
        assert (made.required, made.deadline) == (600, hours(24))
        assert slot_stake(s, "ann", 599, "b1", hours(1)) == []
        assert [g.status for g in slot_stake(s, "ann", 1, "b2", hours(2))] == ["released"]
        assert balance(s, "player:ann") == MONEY - 600 + 200
    assert_conserved(engine)


def test_a_multiple_of_zero_pays_the_winnings_to_the_wallet(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bonus, "settings", lambda: BonusSettings(0, 72))
    setup(engine)
    with transaction(engine) as s:
        assert bonus.grant(s, "ann", 700, round_id=5, key="fs-5", at=SPINS) is None
        assert bonus.grant(s, "ann", 700, round_id=5, key="fs-5", at=SPINS) is None  # retry
        assert bonus.grants(s, "ann") == [] and bonus.bonus_balance(s, "ann") == 0
        assert balance(s, "player:ann") == MONEY + 700
        assert transfers(s, "win") == [("free-spins:fs-5", 700)]
        assert s.scalars(select(Transfer.round_id).where(Transfer.kind == "win")).one() == 5
    with pytest.raises(KeyConflict), transaction(engine) as s:
        bonus.grant(s, "ann", 800, round_id=5, key="fs-5", at=SPINS)
    assert_conserved(engine)


def test_an_unwagered_grant_is_forfeited_after_its_deadline_audited_and_in_the_history(
        engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        made = bonus.grant(s, "ann", 1_000, round_id=21, key="fs-21", at=SPINS)
        assert made is not None
        assert slot_stake(s, "ann", 300, "b1", hours(1)) == []
        assert bonus.forfeit_expired(s, at=DEADLINE) == []  # the 72nd hour is still in time
    with transaction(engine) as s:
        late = DEADLINE + timedelta(seconds=1)
        [lost] = bonus.forfeit_expired(s, at=late, actor="scheduler")
        assert (lost.id, lost.amount, lost.wagered, lost.status, lost.closed_at) == (
            made.id, 1_000, 300, "forfeited", late)
        assert bonus.forfeit_expired(s, at=late + timedelta(hours=1)) == []  # once
        assert transfers(s, "bonus_forfeit") == [(f"bonus-forfeit:{made.id}", 1_000)]
        assert bonus.bonus_balance(s, "ann") == 0
        assert balance(s, "player:ann") == MONEY - 300
        assert balance(s, "house:bank") == HOUSE + 300
        found = queries.history(s, "ann")
        assert (found.bets, found.hands, found.bets_before, found.hands_before) == (
            [], [], None, None)
        assert found.bonuses == [BonusLine(late, "forfeited", 1_000, DEADLINE, 21, made.id),
                                 BonusLine(SPINS, "granted", 1_000, DEADLINE, 21, made.id)]
    with transaction(engine) as s:
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "bonus forfeit"))
        data = json.loads(entry.payload)
        assert entry.actor == "scheduler"
        assert {k: data[k] for k in ("player", "grant", "amount", "required", "wagered",
                                     "rule")} == {
            "player": "ann", "grant": made.id, "amount": 1_000, "required": 1_000,
            "wagered": 300, "rule": "GGPoker house rules, RNG slots 5"}
    assert_conserved(engine)


def test_stakes_outside_a_grants_time_do_not_count(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        old = bonus.grant(s, "ann", 1_000, round_id=1, key="fs-1", at=SPINS)
        assert old is not None
        assert slot_stake(s, "ann", 100, "before", hours(-1)) == []  # before the spins
        assert slot_stake(s, "ann", 400, "at-deadline", DEADLINE) == []  # counts
        assert slot_stake(s, "ann", 600, "late", DEADLINE + timedelta(microseconds=1)) == []
        assert [g.wagered for g in bonus.grants(s, "ann")] == [400]
        # a newer grant takes the stakes the expired one, not yet forfeited, cannot
        new = bonus.grant(s, "ann", 500, round_id=2, key="fs-2", at=hours(71))
        assert new is not None
        [released] = slot_stake(s, "ann", 500, "b2", hours(73))
        assert released.id == new.id
        assert [(g.wagered, g.status) for g in bonus.grants(s, "ann")] == [
            (400, "active"), (500, "released")]
        assert [g.id for g in bonus.forfeit_expired(s, at=hours(73))] == [old.id]
        counted = {w.key: w.counted for w in s.scalars(select(BonusWager))}
        assert counted == {"before": 0, "at-deadline": 400, "late": 0, "b2": 500}
    assert_conserved(engine)


def test_keys_make_grants_and_stakes_count_once(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        made = bonus.grant(s, "ann", 1_000, round_id=1, key="fs-1", at=SPINS)
    with transaction(engine) as s:
        assert bonus.grant(s, "ann", 1_000, round_id=1, key="fs-1", at=hours(1)) == made
        assert len(bonus.grants(s, "ann")) == 1 and bonus.bonus_balance(s, "ann") == 1_000
        assert transfers(s, "bonus_grant") == [("free-spins:fs-1", 1_000)]
    for other in (("ann", 999, 1), ("bob", 1_000, 1), ("ann", 1_000, 2)):
        with pytest.raises(LedgerError, match="used for a different grant"), \
                transaction(engine) as s:
            bonus.grant(s, other[0], other[1], round_id=other[2], key="fs-1", at=SPINS)
    with transaction(engine) as s:
        assert slot_stake(s, "ann", 600, "b1", hours(1)) == []
        assert bonus.count_wagering(s, "ann", 600, "b1", at=hours(1)) == []  # a retry
        assert bonus.grants(s, "ann")[0].wagered == 600
        [released] = slot_stake(s, "ann", 400, "b2", hours(2))
    with transaction(engine) as s:  # retried later: the same answer, nothing more moved
        assert bonus.count_wagering(s, "ann", 400, "b2", at=hours(3)) == [released]
        assert transfers(s, "bonus_release") == [(f"bonus-release:{released.id}", 1_000)]
    for player, stake in (("ann", 401), ("bob", 400)):
        with pytest.raises(LedgerError, match="used for a different stake"), \
                transaction(engine) as s:
            bonus.count_wagering(s, player, stake, "b2", at=hours(3))
    with transaction(engine) as s:
        assert balance(s, "player:ann") == MONEY - 1_000 + 1_000
    assert_conserved(engine)


@pytest.mark.parametrize("amount", [-1, 1.5, True, "10"])
def test_bad_winnings_are_refused(engine: Engine, amount: object) -> None:
    setup(engine)
    with pytest.raises(LedgerError, match="whole number of cents"), transaction(engine) as s:
        bonus.grant(s, "ann", amount, round_id=1, key="fs", at=SPINS)  # type: ignore[arg-type]


def test_no_winnings_and_no_stake_change_nothing_and_bad_ones_are_refused(
        engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        assert bonus.grant(s, "ann", 0, round_id=1, key="fs-0", at=SPINS) is None
        assert bonus.grants(s, "ann") == [] and transfers(s, "bonus_grant") == []
        assert bonus.grant(s, "ann", 1_000, round_id=2, key="fs-2", at=SPINS) is not None
        assert bonus.count_wagering(s, "ann", 0, "b0", at=hours(1)) == []
        assert s.scalars(select(BonusWager)).first() is None
    for call, message in (
            (lambda s: bonus.count_wagering(s, "ann", -5, "b1", at=hours(1)), "0 or more"),
            (lambda s: bonus.count_wagering(s, "ann", True, "b1", at=hours(1)), "0 or more"),
            (lambda s: bonus.count_wagering(s, "ann", 5, "", at=hours(1)), "1 to 200"),
            (lambda s: bonus.count_wagering(s, "ann", 5, "b1", at=datetime(2026, 12, 2)),
             "time zone"),
            (lambda s: bonus.grant(s, "ann", 5, round_id=None, key="fs-3"),  # type: ignore[arg-type]
             "round id"),
            (lambda s: bonus.grant(s, "nobody", 5, round_id=3, key="fs-3"), "no player")):
        with pytest.raises(LedgerError, match=message), transaction(engine) as s:
            call(s)
    with transaction(engine) as s:
        assert [g.wagered for g in bonus.grants(s, "ann")] == [0]
    assert_conserved(engine)


def test_bonus_money_can_be_neither_staked_nor_withdrawn_until_released(
        engine: Engine) -> None:
    setup(engine, players=("ann",), money=100)
    with transaction(engine) as s:
        assert bonus.grant(s, "ann", 5_000, round_id=1, key="fs-1", at=SPINS) is not None
    for call in (lambda s: accounts.stake(s, "ann", 101, key="b1", reason="slot"),
                 lambda s: accounts.withdraw(s, "ann", 101, key="w1")):
        with pytest.raises(LedgerError, match="no credit"), transaction(engine) as s:
            call(s)
    with transaction(engine) as s:
        assert balance(s, "player:ann") == 100 and bonus.bonus_balance(s, "ann") == 5_000
    assert_conserved(engine)


def test_money_is_conserved_through_grants_releases_and_forfeits(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        before = sum(v for code, v in balances(s).items() if not code.startswith("external:"))
        for n, (player, amount) in enumerate((("ann", 1_234), ("bob", 50), ("ann", 9))):
            bonus.grant(s, player, amount, round_id=n, key=f"fs-{n}", at=hours(n))
        slot_stake(s, "ann", 1_240, "a1", hours(5))
        slot_stake(s, "bob", 20, "b1", hours(5))
        bonus.forfeit_expired(s, at=hours(100))
        assert [(g.player, g.status) for p in ("ann", "bob") for g in bonus.grants(s, p)] == [
            ("ann", "released"), ("ann", "forfeited"), ("bob", "forfeited")]
        after = sum(v for code, v in balances(s).items() if not code.startswith("external:"))
        assert before == after
        assert balances(s)["bonus:ann"] == balances(s)["bonus:bob"] == 0
    assert_conserved(engine)


# -- the migration -------------------------------------------------------------------------
@pytest.fixture(params=["sqlite", "postgresql"])
def bare(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """An empty database of each kind, not yet migrated."""
    yield from bare_engine(request.param, tmp_path)


def _version(engine: Engine) -> str:
    with engine.connect() as connection:
        return str(connection.execute(text("select version_num from alembic_version"))
                   .scalar_one())


def _bonus_account(engine: Engine) -> None:
    with engine.begin() as connection:
        connection.execute(text("insert into accounts (code, kind, balance, created_at) "
                                "values ('bonus:x', 'bonus', 0, '2026-12-01 12:00:00+00:00')"))


def test_the_migration_goes_up_and_down(bare: Engine) -> None:
    upgrade(bare, "0012")
    with pytest.raises(IntegrityError):  # 0012 knows no bonus accounts
        _bonus_account(bare)
    upgrade(bare, "0013")
    assert _version(bare) == "0013"
    _bonus_account(bare)
    with bare.begin() as connection:
        connection.execute(text("delete from accounts where code = 'bonus:x'"))
    downgrade(bare, "0012")
    assert _version(bare) == "0012"
    with bare.connect() as connection:
        for table in ("bonus_grants", "bonus_wagers"):
            with pytest.raises(Exception, match=table), connection.begin():
                connection.execute(text(f"select count(*) from {table}"))  # noqa: S608
    with pytest.raises(IntegrityError):
        _bonus_account(bare)
    upgrade(bare)
    setup(bare, players=("ann",))
    with transaction(bare) as s:
        assert bonus.grant(s, "ann", 100, round_id=1, key="fs-1", at=SPINS) is not None


def test_going_down_is_refused_while_bonus_money_is_recorded(bare: Engine) -> None:
    upgrade(bare, "0013")
    setup(bare, players=("ann",))
    with transaction(bare) as s:
        made = bonus.grant(s, "ann", 100, round_id=1, key="fs-1", at=SPINS)
    with pytest.raises(IntegrityError):
        downgrade(bare, "0012")
    assert _version(bare) == "0013"
    with transaction(bare) as s:  # nothing lost
        assert bonus.grants(s, "ann") == [made]
        assert check(s).ok


def test_registering_takes_no_bonus(engine: Engine) -> None:
    with transaction(engine) as s:
        accounts.register(s, "cy", date(1990, 1, 1), "FI")
        assert bonus.bonus_balance(s, "cy") == 0 and queries.history(s, "cy").bonuses == []
