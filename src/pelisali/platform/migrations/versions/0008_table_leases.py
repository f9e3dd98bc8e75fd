"""table leases

Which process runs each shared table (a live or a poker table): one lease row a table,
with its holder, the fencing token each new holder raises, and when it runs out unless
renewed.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 07:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'leases',
        sa.Column('table_name', sa.String(length=80), primary_key=True),
        sa.Column('owner', sa.String(length=120), nullable=False),
        sa.Column('token', sa.BigInteger(), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('leases')
