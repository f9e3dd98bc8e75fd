"""The schema's closed vocabularies and restricting references, and the migration that
brings a database made by the previous version to them with its rows intact."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from dbfixtures import bare_engine
from sqlalchemy import Engine, select, text
from sqlalchemy.exc import IntegrityError, StatementError

from pelisali.platform.db import downgrade, transaction, upgrade
from pelisali.platform.kinds import AccountKind, RoundStatus, TransferKind
from pelisali.platform.models import Account, RoundRow, Transfer

NOW = "2026-11-30 12:00:00+00:00"


@pytest.fixture(params=["sqlite", "postgresql"])
def bare(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """An empty database of each kind, not yet migrated."""
    yield from bare_engine(request.param, tmp_path)


def _old_rows(engine: Engine) -> None:
    """What version 0006 wrote: two accounts, a stake between them, a table and a round."""
    with engine.begin() as connection:
        for code, kind in (("player:aino", "player"), ("house:bank", "house")):
            connection.execute(text(
                "insert into accounts (code, kind, balance, created_at) "
                "values (:c, :k, 500, :t)"), {"c": code, "k": kind, "t": NOW})
        connection.execute(text(
            "insert into transfers (key, digest, source_id, target_id, amount, kind, reason, "
            "created_at) values ('k1', 'd', 1, 2, 500, 'stake', '', :t)"), {"t": NOW})
        connection.execute(text(
            "insert into tables (name, game, variant, settings, limit_min, limit_max, mode, "
            "status, gaming_day, created_at) values ('r1', 'roulette', 'C', '{}', 100, 1000, "
            "'rng', 'open', '2026-11-30', :t)"), {"t": NOW})
        connection.execute(text(
            "insert into rounds (table_id, status, gaming_day, record, opened_at, deadline) "
            "values (1, 'deciding', '2026-11-30', '{}', :t, :t)"), {"t": NOW})


def test_a_database_of_the_previous_version_migrates_with_its_rows(bare: Engine) -> None:
    upgrade(bare, "0006")
    _old_rows(bare)
    upgrade(bare)
    with transaction(bare) as session:
        kinds = [a.kind for a in session.scalars(select(Account).order_by(Account.id))]
        assert kinds == [AccountKind.PLAYER, AccountKind.HOUSE]
        transfer = session.scalars(select(Transfer)).one()
        assert transfer.kind is TransferKind.STAKE and transfer.amount == 500
        assert session.scalars(select(RoundRow)).one().status is RoundStatus.DECIDING


def test_the_columns_refuse_words_outside_their_vocabulary(bare: Engine) -> None:
    upgrade(bare)
    _old_rows(bare)
    for statement in ("update transfers set kind = 'gift'",
                      "update accounts set kind = 'vault'",
                      "update rounds set status = 'lost'"):
        with pytest.raises(IntegrityError), bare.begin() as connection:
            connection.execute(text(statement))
    with pytest.raises(StatementError, match="not among the defined enum values"), \
            transaction(bare) as session:
        session.add(Account(code="x:1", kind="vault", balance=0, created_at=None))
        session.flush()


def test_nothing_referred_to_can_be_deleted(bare: Engine) -> None:
    upgrade(bare)
    _old_rows(bare)
    for statement in ("delete from accounts where id = 1",  # it has a transfer
                      "delete from tables where id = 1"):  # it has a round
        with pytest.raises(IntegrityError), bare.begin() as connection:
            connection.execute(text(statement))
    with bare.connect() as connection:
        assert connection.execute(text("select count(*) from accounts")).scalar_one() == 2


def test_the_migration_goes_back_down(bare: Engine) -> None:
    upgrade(bare)
    _old_rows(bare)
    downgrade(bare, "0006")
    with bare.begin() as connection:  # 0006 took any word
        connection.execute(text("update rounds set status = 'lost'"))


def test_a_transfer_is_never_edited_or_deleted_through_the_orm(bare: Engine) -> None:
    from pelisali.platform.models import ImmutableRowError

    upgrade(bare)
    _old_rows(bare)
    with pytest.raises(ImmutableRowError, match="never edited or deleted"), \
            transaction(bare) as session:
        session.scalars(select(Transfer)).one().amount = 1
    with pytest.raises(ImmutableRowError), transaction(bare) as session:
        session.delete(session.scalars(select(Transfer)).one())
    with transaction(bare) as session:
        assert session.scalars(select(Transfer)).one().amount == 500
