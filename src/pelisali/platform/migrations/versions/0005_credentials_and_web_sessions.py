"""credentials and web sessions

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 01:05:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'credentials',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('role', sa.String(length=8), nullable=False),
        sa.Column('password_hash', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name'),
    )
    op.create_table(
        'web_sessions',
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('role', sa.String(length=8), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True),
                  nullable=False),
        sa.PrimaryKeyConstraint('token_hash'),
    )
    op.create_index('ix_web_sessions_name', 'web_sessions', ['name'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_web_sessions_name', table_name='web_sessions')
    op.drop_table('web_sessions')
    op.drop_table('credentials')
