"""accounts, ledger, players, limits, audit

Revision ID: 0001
Revises: -
Create Date: 2026-11-29 22:37:43.601733
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('accounts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('code', sa.String(length=120), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('balance', sa.BigInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("kind = 'external' OR balance >= 0", name='no_credit'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('code')
    )
    op.create_table('audit',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('actor', sa.String(length=80), nullable=False),
    sa.Column('action', sa.String(length=40), nullable=False),
    sa.Column('payload', sa.Text(), nullable=False),
    sa.Column('previous', sa.String(length=64), nullable=False),
    sa.Column('hash', sa.String(length=64), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('hash')
    )
    op.create_table('audit_head',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('hash', sa.String(length=64), nullable=False),
    sa.Column('entries', sa.BigInteger(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.execute("INSERT INTO audit_head (id, hash, entries) VALUES (1, '" + "0" * 64 + "', 0)")
    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('born', sa.Date(), nullable=False),
    sa.Column('country', sa.String(length=2), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('status_reason', sa.Text(), nullable=False),
    sa.Column('excluded_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('excluded_forever', sa.Boolean(), nullable=False),
    sa.Column('session_reminder_minutes', sa.Integer(), nullable=True),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name')
    )
    op.create_table('transfers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('digest', sa.String(length=64), nullable=False),
    sa.Column('source_id', sa.Integer(), nullable=False),
    sa.Column('target_id', sa.Integer(), nullable=False),
    sa.Column('amount', sa.BigInteger(), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=True),
    sa.Column('corrects_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('amount > 0', name='positive_amount'),
    sa.CheckConstraint('source_id <> target_id', name='two_accounts'),
    sa.ForeignKeyConstraint(['corrects_id'], ['transfers.id'], ),
    sa.ForeignKeyConstraint(['source_id'], ['accounts.id'], ),
    sa.ForeignKeyConstraint(['target_id'], ['accounts.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('key')
    )
    with op.batch_alter_table('transfers', schema=None) as batch_op:
        batch_op.create_index('ix_transfers_source', ['source_id', 'created_at'], unique=False)
        batch_op.create_index('ix_transfers_target', ['target_id', 'created_at'], unique=False)

    op.create_table('limits',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('period', sa.String(length=8), nullable=False),
    sa.Column('amount', sa.BigInteger(), nullable=True),
    sa.Column('effective_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('limits', schema=None) as batch_op:
        batch_op.create_index('ix_limits_player', ['player_id', 'kind', 'period'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('limits', schema=None) as batch_op:
        batch_op.drop_index('ix_limits_player')

    op.drop_table('limits')
    with op.batch_alter_table('transfers', schema=None) as batch_op:
        batch_op.drop_index('ix_transfers_target')
        batch_op.drop_index('ix_transfers_source')

    op.drop_table('transfers')
    op.drop_table('players')
    op.drop_table('audit_head')
    op.drop_table('audit')
    op.drop_table('accounts')
