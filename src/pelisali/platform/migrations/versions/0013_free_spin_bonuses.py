"""free-spin bonuses

GGPoker house rules, RNG slots 5: winnings from slot free spins must be wagered within
72 hours of the free spins being redeemed, or they are forfeited. The winnings are held
on a ledger account of the new kind ``bonus`` (``bonus:PLAYER``) while they are locked;
three new transfer kinds move them there (``bonus_grant``), to the wallet once wagered
through (``bonus_release``) and back to the house when the deadline passes
(``bonus_forfeit``). ``bonus_grants`` keeps each grant's requirement, what has been
wagered and its deadline; ``bonus_wagers`` the stakes counted, by key, so that a retried
stake counts once.

The kinds' CHECK constraints (0007) are widened, the same on SQLite (the table rebuilt)
and PostgreSQL. Going down narrows them again: a database that holds bonus accounts or
transfers stops there with the constraint's error, so no money's record is lost.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03 06:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0013'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACCOUNT_KINDS = ("player", "house", "fee", "jackpot", "rounding", "external", "table")
TRANSFER_KINDS = ("deposit", "withdrawal", "stake", "win", "refund", "commission", "fee",
                  "jackpot_contribution", "jackpot_payout", "rounding", "correction", "funding",
                  "buy_in", "cash_out")
NEW_ACCOUNT_KINDS = ("bonus",)
NEW_TRANSFER_KINDS = ("bonus_grant", "bonus_release", "bonus_forfeit")


def _vocabularies(accounts: Sequence[str], transfers: Sequence[str]) -> None:
    for table, name, allowed in (("accounts", "account_kind", accounts),
                                 ("transfers", "transfer_kind", transfers)):
        with op.batch_alter_table(table) as batch:
            batch.drop_constraint(name, type_="check")
            listed = ", ".join(f"'{value}'" for value in allowed)
            batch.create_check_constraint(name, f"kind IN ({listed})")


def upgrade() -> None:
    _vocabularies(ACCOUNT_KINDS + NEW_ACCOUNT_KINDS, TRANSFER_KINDS + NEW_TRANSFER_KINDS)
    op.create_table(
        'bonus_grants',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('key', sa.String(length=200), nullable=False, unique=True),
        sa.Column('player', sa.String(length=80), nullable=False),
        sa.Column('round_id', sa.Integer(), nullable=False),
        sa.Column('amount', sa.BigInteger(), nullable=False),
        sa.Column('required', sa.BigInteger(), nullable=False),
        sa.Column('wagered', sa.BigInteger(), nullable=False),
        sa.Column('status', sa.String(length=12), nullable=False),
        sa.Column('granted_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('deadline', sa.DateTime(timezone=True), nullable=False),
        sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('released_by', sa.String(length=200), nullable=True),
        sa.CheckConstraint('amount > 0', name='bonus_positive_amount'),
        sa.CheckConstraint('required > 0', name='bonus_required'),
        sa.CheckConstraint('wagered >= 0 AND wagered <= required', name='bonus_wagered'),
        sa.CheckConstraint("status IN ('active', 'released', 'forfeited')",
                           name='bonus_status'),
    )
    op.create_index('ix_bonus_grants_player_status', 'bonus_grants', ['player', 'status'])
    op.create_index('ix_bonus_grants_status_deadline', 'bonus_grants', ['status', 'deadline'])
    op.create_table(
        'bonus_wagers',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('key', sa.String(length=200), nullable=False, unique=True),
        sa.Column('player', sa.String(length=80), nullable=False),
        sa.Column('stake', sa.BigInteger(), nullable=False),
        sa.Column('counted', sa.BigInteger(), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('bonus_wagers')
    op.drop_index('ix_bonus_grants_status_deadline', table_name='bonus_grants')
    op.drop_index('ix_bonus_grants_player_status', table_name='bonus_grants')
    op.drop_table('bonus_grants')
    _vocabularies(ACCOUNT_KINDS, TRANSFER_KINDS)
