"""A client's idempotency key stands for its whole request.

The same key with the same request is a retry and gets its first answer; the same key
with another request (another amount, game, spot; a deposit's key sent for a
withdrawal) is refused with 409, naming what the key was first used for, and nothing
changes. The platform finds the conflict (:class:`~pelisali.platform.ledger.KeyConflict`,
a :class:`~pelisali.platform.ledger.LedgerError`, which the app would answer with 400);
the routes that take a key turn it into 409 here, so the app registers nothing for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fastapi import HTTPException

from pelisali.platform.ledger import KeyConflict

__all__ = ["bound_to_first", "used_for"]


def used_for(key: str, conflict: KeyConflict) -> str:
    """The refusal's words: the client's own key and what it was first used for.

    >>> used_for("k1", KeyConflict("", "a deposit of 10.00 €"))
    'key k1 was used for a deposit of 10.00 €; send a new key'
    """
    return f"key {key} was used for {conflict.first}; send a new key"


@contextmanager
def bound_to_first(key: str) -> Iterator[None]:
    """Refuse with 409 (:func:`used_for`) the request under the client's ``key`` when
    the platform finds the key used for another request. Put it around the request's
    transaction, so that the transaction has rolled back before the answer."""
    try:
        yield
    except KeyConflict as exc:
        raise HTTPException(409, used_for(key, exc)) from None
