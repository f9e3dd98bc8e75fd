"""The quick mode of terminal play: a wallet on a temporary SQLite database.

``pelisali play roulette`` without ``--account`` plays exactly as a registered player
does, on the same platform functions (bets debited, rounds recorded and settled in the
ledger), but on a database made for the session and deleted at its end: the player
``you`` is registered and deposits the starting balance, the house bank is funded, and
the bots a table needs are seated with money of their own.

>>> with quick_wallet(10_000, bots=("Aino",)) as db:
...     with transaction(db) as session:
...         balance(session, "player:you"), balance(session, "player:Aino")
(10000, 100000)
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from pathlib import Path

from sqlalchemy import Engine

from pelisali.platform import accounts
from pelisali.platform.db import make_engine, transaction, upgrade
from pelisali.platform.ledger import balance, move

__all__ = ["HOUSE_BANK", "PLAYER", "balance", "quick_wallet", "transaction"]

PLAYER = "you"
HOUSE_BANK = 100_000_000  # a million euros: the house pays every win of a session
BOT_BALANCE = 100_000  # a thousand euros each
_BORN = date(1990, 1, 1)


@contextmanager
def quick_wallet(start: int, bots: Sequence[str] = ()) -> Iterator[Engine]:
    """A fresh database holding the player ``you`` with ``start`` cents, the ``bots``
    with a thousand euros each and a funded house bank; deleted when the block ends."""
    with tempfile.TemporaryDirectory(prefix="pelisali-quick-") as folder:
        db = make_engine(f"sqlite:///{Path(folder) / 'quick.db'}")
        try:
            upgrade(db)
            with transaction(db) as session:
                move(session, "quick:house", "external:owner", "house:bank", HOUSE_BANK,
                     "funding", actor="quick")
                for name, amount in ((PLAYER, start), *((bot, BOT_BALANCE) for bot in bots)):
                    accounts.register(session, name, _BORN, "FI", actor="quick")
                    if amount:
                        accounts.deposit(session, name, amount, f"quick:deposit:{name}",
                                         actor="quick")
            yield db
        finally:
            db.dispose()
