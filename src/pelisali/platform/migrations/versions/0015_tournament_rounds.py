"""tournament rounds

Each round or spin an entry of a table-game or slot tournament plays to its end is
kept in ``tournament_rounds``: the chips staked and paid back and the engine's moves
with every chance draw, so an auditor can replay any round and `ledger check` can add
the rounds up to each entry's chips. The rows are append-only.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-04 06:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0015'
down_revision: str | None = '0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'tournament_rounds',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('tournament_id', sa.Integer(),
                  sa.ForeignKey('tournaments.id', ondelete='RESTRICT'), nullable=False),
        sa.Column('entry', sa.String(length=80), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('staked', sa.BigInteger(), nullable=False),
        sa.Column('paid', sa.BigInteger(), nullable=False),
        sa.Column('moves', sa.Text(), nullable=False),
        sa.Column('played_at', sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('tournament_id', 'entry', 'number',
                            name='uq_tournament_rounds_entry_number'),
    )


def downgrade() -> None:
    op.drop_table('tournament_rounds')
