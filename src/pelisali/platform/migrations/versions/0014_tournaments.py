"""tournaments

RAY 3, 6, 7.8.3 and 10.3 name tournaments; RULINGS Tournaments settles their rules.
A tournament's money is on a ledger account of the new kind ``tournament``
(``tournament:ID``): the prize part of each entry, rebuy and add-on is staked to it,
the house's overlay funded to it, and the prizes paid from it. ``tournaments`` keeps
each tournament's settings and, after every hand, the engine's snapshot it resumes
from.

Going down narrows the account kinds again: a database that holds tournament accounts
stops there with the constraint's error, so no money's record is lost.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03 15:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0014'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACCOUNT_KINDS = ("player", "house", "fee", "jackpot", "rounding", "external", "table", "bonus")
NEW_ACCOUNT_KINDS = ("tournament",)


def _account_kinds(allowed: Sequence[str]) -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("account_kind", type_="check")
        listed = ", ".join(f"'{value}'" for value in allowed)
        batch.create_check_constraint("account_kind", f"kind IN ({listed})")


def upgrade() -> None:
    _account_kinds(ACCOUNT_KINDS + NEW_ACCOUNT_KINDS)
    op.create_table(
        'tournaments',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('kind', sa.String(length=12), nullable=False),
        sa.Column('settings', sa.Text(), nullable=False),
        sa.Column('status', sa.String(length=12), nullable=False),
        sa.Column('state', sa.Text(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('starts_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("status IN ('registering', 'running', 'finished', 'cancelled')",
                           name='tournament_status'),
    )


def downgrade() -> None:
    op.drop_table('tournaments')
    _account_kinds(ACCOUNT_KINDS)
