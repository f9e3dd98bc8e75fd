"""game-wide progressive jackpots

A progressive jackpot may belong to a game rather than to one table: every table of the
game (each player's own Ultimate Texas Hold'em table) feeds and pays the one pool.
``jackpots.game`` names that game, and such a jackpot has no ``table_id``.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04 23:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0016'
down_revision: str | None = '0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('jackpots', schema=None) as batch_op:
        batch_op.add_column(sa.Column('game', sa.String(length=40), nullable=True))
        batch_op.alter_column('table_id', existing_type=sa.Integer(), nullable=True)
        batch_op.create_index('ix_jackpots_game', ['game'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('jackpots', schema=None) as batch_op:
        batch_op.drop_index('ix_jackpots_game')
        batch_op.alter_column('table_id', existing_type=sa.Integer(), nullable=False)
        batch_op.drop_column('game')
