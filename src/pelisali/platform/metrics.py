"""What an operator's monitoring reads of the platform's work, in Prometheus's terms.

The counters count what was kept: each is moved when its transaction commits
(:func:`~pelisali.platform.db.after_commit`), so a dry run, a refused request or a
retried one counts once or not at all. The server exposes them, with its own request
latencies and the tables it runs, at ``/metrics``.

>>> from pelisali.platform.db import make_engine, transaction
>>> engine = make_engine("sqlite://")
>>> before = BETS_ACCEPTED.labels("wager")._value.get()
>>> with transaction(engine) as session:
...     count(session, BETS_ACCEPTED.labels("wager"), 3)
>>> BETS_ACCEPTED.labels("wager")._value.get() - before
3.0
"""

from __future__ import annotations

from prometheus_client import Counter, Histogram
from sqlalchemy.orm import Session

from pelisali.platform.db import after_commit

__all__ = ["BETS_ACCEPTED", "BETS_SETTLED", "DB_RETRIES", "LIMIT_REFUSALS", "LOGIN_FAILURES",
           "POSTINGS", "SETTLE_SECONDS", "count"]

BETS_ACCEPTED = Counter("pelisali_bets_accepted", "Bets accepted and their stakes taken",
                        ["family"])
BETS_SETTLED = Counter("pelisali_bets_settled", "Bets settled and paid", ["family"])
SETTLE_SECONDS = Histogram(
    "pelisali_settle_seconds", "Drawing and settling one round, in its transaction",
    ["family"], buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))
POSTINGS = Counter("pelisali_ledger_postings", "Transfers written to the ledger")
LOGIN_FAILURES = Counter("pelisali_login_failures", "Logins refused: wrong name or password")
LIMIT_REFUSALS = Counter("pelisali_limit_refusals",
                         "Stakes refused by responsible gaming: a loss limit, an exclusion, "
                         "a barred or restricted player", ["reason"])
DB_RETRIES = Counter("pelisali_db_retries",
                     "Requests tried again after a transient database failure", ["reason"])


def count(session: Session, counter: Counter, amount: float = 1) -> None:
    """Add ``amount`` to ``counter`` (with its labels chosen) when the transaction of
    ``session`` commits."""
    if amount:
        after_commit(session, lambda: counter.inc(amount))
