"""anti-money-laundering cases

The cases the monitoring rules open for staff: the rule, the player, the evidence, the
last transfer it counted, and how staff closed it.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02 07:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'aml_cases',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('rule', sa.String(length=32), nullable=False),
        sa.Column('player', sa.String(length=80), nullable=False),
        sa.Column('evidence', sa.Text(), nullable=False),
        sa.Column('through', sa.BigInteger(), nullable=False),
        sa.Column('status', sa.String(length=8), nullable=False),
        sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('closed_by', sa.String(length=80), nullable=True),
        sa.Column('note', sa.Text(), nullable=False),
        sa.UniqueConstraint('player', 'rule', 'through', name='one_case_a_finding'),
    )
    op.create_index('ix_aml_cases_player_rule', 'aml_cases', ['player', 'rule'])


def downgrade() -> None:
    op.drop_index('ix_aml_cases_player_rule', table_name='aml_cases')
    op.drop_table('aml_cases')
