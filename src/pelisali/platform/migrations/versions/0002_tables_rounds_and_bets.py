"""tables, rounds and bets

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 22:53:58.341444
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('tables',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('game', sa.String(length=40), nullable=False),
    sa.Column('variant', sa.String(length=8), nullable=False),
    sa.Column('settings', sa.Text(), nullable=False),
    sa.Column('limit_min', sa.BigInteger(), nullable=False),
    sa.Column('limit_max', sa.BigInteger(), nullable=False),
    sa.Column('mode', sa.String(length=8), nullable=False),
    sa.Column('gaming_day', sa.Date(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name')
    )
    op.create_table('rounds',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=12), nullable=False),
    sa.Column('gaming_day', sa.Date(), nullable=False),
    sa.Column('record', sa.Text(), nullable=False),
    sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('deadline', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.create_index('ix_rounds_table_status', ['table_id', 'status'], unique=False)

    op.create_table('bets',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('player', sa.String(length=80), nullable=False),
    sa.Column('spot', sa.String(length=60), nullable=False),
    sa.Column('stake', sa.BigInteger(), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('paid', sa.BigInteger(), nullable=True),
    sa.Column('result', sa.String(length=16), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['round_id'], ['rounds.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('key')
    )
    with op.batch_alter_table('bets', schema=None) as batch_op:
        batch_op.create_index('ix_bets_player', ['player'], unique=False)
        batch_op.create_index('ix_bets_round', ['round_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('bets', schema=None) as batch_op:
        batch_op.drop_index('ix_bets_round')
        batch_op.drop_index('ix_bets_player')

    op.drop_table('bets')
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_index('ix_rounds_table_status')

    op.drop_table('rounds')
    op.drop_table('tables')
