"""enum kinds and restricting references

Account kind, transfer kind and round status become closed vocabularies: a CHECK
constraint refuses any other string. Every foreign key says ON DELETE RESTRICT:
nothing referred to (an account with transfers, a table with rounds) can be
deleted. Existing rows keep their values; a database holding a value outside
the vocabulary stops here with the constraint's error, so it is found, not lost.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 03:10:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# PostgreSQL's own names for unnamed foreign keys; SQLite's reflected ones get the same.
NAMING = {"fk": "%(table_name)s_%(column_0_name)s_fkey"}

ACCOUNT_KINDS = ("player", "house", "fee", "jackpot", "rounding", "external", "table")
TRANSFER_KINDS = ("deposit", "withdrawal", "stake", "win", "refund", "commission", "fee",
                  "jackpot_contribution", "jackpot_payout", "rounding", "correction", "funding",
                  "buy_in", "cash_out")
ROUND_STATUSES = ("betting", "open", "playing", "deciding", "settled", "void")

CHECKS = {
    "accounts": ("account_kind", "kind", ACCOUNT_KINDS),
    "transfers": ("transfer_kind", "kind", TRANSFER_KINDS),
    "rounds": ("round_status", "status", ROUND_STATUSES),
}
REFERENCES = {
    "accounts": [],
    "players": [("account_id", "accounts")],
    "transfers": [("source_id", "accounts"), ("target_id", "accounts"),
                  ("corrects_id", "transfers")],
    "limits": [("player_id", "players")],
    "rounds": [("table_id", "tables")],
    "bets": [("round_id", "rounds")],
    "jackpots": [("table_id", "tables")],
    "jackpot_entries": [("jackpot_id", "jackpots"), ("round_id", "rounds")],
}


def _rebuild(ondelete: str | None, with_checks: bool) -> None:
    for table, references in REFERENCES.items():
        with op.batch_alter_table(table, naming_convention=NAMING) as batch:
            for column, target in references:
                name = f"{table}_{column}_fkey"
                batch.drop_constraint(name, type_="foreignkey")
                batch.create_foreign_key(name, target, [column], ["id"], ondelete=ondelete)
            if table in CHECKS:
                name, column, allowed = CHECKS[table]
                if with_checks:
                    listed = ", ".join(f"'{value}'" for value in allowed)
                    batch.create_check_constraint(name, f"{column} IN ({listed})")
                else:
                    batch.drop_constraint(name, type_="check")


def upgrade() -> None:
    _rebuild("RESTRICT", with_checks=True)


def downgrade() -> None:
    _rebuild(None, with_checks=False)
