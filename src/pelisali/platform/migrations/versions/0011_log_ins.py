"""log-ins with their device and address

Every log-in is kept after its session ends: the login's name and role, when, the
SHA-256 of the browser's long-lived device cookie and the client's address. The
anti-money-laundering rules read them to find linked accounts (issue 16: the same
device or address), and the joint-play rule the players so linked.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'log_ins',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('role', sa.String(length=8), nullable=False),
        sa.Column('device', sa.String(length=64), nullable=True),
        sa.Column('address', sa.String(length=45), nullable=True),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index('ix_log_ins_name', 'log_ins', ['name'])
    op.create_index('ix_log_ins_device', 'log_ins', ['device'])
    op.create_index('ix_log_ins_address', 'log_ins', ['address'])


def downgrade() -> None:
    op.drop_index('ix_log_ins_address', table_name='log_ins')
    op.drop_index('ix_log_ins_device', table_name='log_ins')
    op.drop_index('ix_log_ins_name', table_name='log_ins')
    op.drop_table('log_ins')
