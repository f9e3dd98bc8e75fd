"""bets carried in prison

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29 23:20:35.070604
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('bets', schema=None) as batch_op:
        batch_op.add_column(sa.Column('level', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('carried', sa.Boolean(), server_default='0', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('bets', schema=None) as batch_op:
        batch_op.drop_column('carried')
        batch_op.drop_column('level')
