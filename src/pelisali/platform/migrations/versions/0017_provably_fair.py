"""provably fair seed pairs

A table may draw provably fair (``tables.fair``): each round from its player's seed pair
in ``fair_seeds`` (the server seed, its SHA-256 commitment, the client seed and the
nonce of the next round; the server seed revealed when the pair is rotated).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-06 23:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0017'
down_revision: str | None = '0016'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'fair_seeds',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player', sa.String(length=80), nullable=False),
        sa.Column('server_seed', sa.String(length=64), nullable=False),
        sa.Column('commitment', sa.String(length=64), nullable=False),
        sa.Column('client_seed', sa.String(length=64), nullable=False),
        sa.Column('nonce', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('revealed_at', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('commitment'),
    )
    op.create_index('ix_fair_seeds_player', 'fair_seeds', ['player', 'revealed_at'],
                    unique=False)
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('fair', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('fair')
    op.drop_index('ix_fair_seeds_player', table_name='fair_seeds')
    op.drop_table('fair_seeds')
