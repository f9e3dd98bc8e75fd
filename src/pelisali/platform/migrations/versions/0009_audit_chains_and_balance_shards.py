"""audit chains and balance shards

The audit log becomes sixteen chains, each a line of its own with its own head row: a
committing transaction on PostgreSQL appends to whichever chain no other is appending
to, so commits no longer wait in one line. Existing entries are chain 1, whose head is
the old single head; chains 2 to 16 start at the genesis hash.

The house bank's balance is split into sixteen shards on PostgreSQL (``balance_shards``):
its balance is its own row's plus its shards'. Concurrent rounds each move a shard
instead of waiting for one row. SQLite, written by one process, keeps one row.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHAINS = 16
SHARDS = 16
SHARDED = ("house:bank",)
GENESIS = "0" * 64


def upgrade() -> None:
    op.add_column('audit', sa.Column('chain', sa.SmallInteger(), nullable=False,
                                     server_default='1'))
    op.create_index('ix_audit_chain', 'audit', ['chain', 'id'])
    head = sa.text("INSERT INTO audit_head (id, hash, entries) VALUES (:id, :hash, 0)")
    for chain in range(2, CHAINS + 1):
        op.execute(head.bindparams(id=chain, hash=GENESIS))
    op.create_table(
        'balance_shards',
        sa.Column('account_id', sa.Integer(),
                  sa.ForeignKey('accounts.id', name='balance_shards_account_id_fkey',
                                ondelete='RESTRICT'), nullable=False),
        sa.Column('shard', sa.SmallInteger(), nullable=False),
        sa.Column('balance', sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint('account_id', 'shard'),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(sa.text(
            "INSERT INTO balance_shards (account_id, shard, balance) "
            "SELECT accounts.id, shard, 0 FROM accounts, "
            "generate_series(0, :last) AS shard WHERE accounts.code IN :codes"
        ).bindparams(sa.bindparam("codes", list(SHARDED), expanding=True), last=SHARDS - 1))


def downgrade() -> None:
    # The shards' sums go back into their accounts' rows, and every chain is kept as
    # entries: a downgrade loses the chain column, so verify the chains before it.
    op.execute("UPDATE accounts SET balance = balance + (SELECT COALESCE(SUM(balance), 0) "
               "FROM balance_shards WHERE balance_shards.account_id = accounts.id)")
    op.drop_table('balance_shards')
    op.execute("DELETE FROM audit_head WHERE id > 1")
    op.drop_index('ix_audit_chain', 'audit')
    with op.batch_alter_table('audit') as batch:
        batch.drop_column('chain')
