"""Money in and out through a payment adapter (a card acquirer, a bank, the cage).

An adapter charges or pays out and says whether it did. The ledger records the
transfer against ``external:<adapter name>`` in the same transaction, with the
request's idempotency key. So a retried request is neither charged nor paid twice:
the key is looked up before the adapter is asked again. A key the ledger holds for
another request (another amount, a withdrawal's key sent for a deposit) is refused with
:class:`~pelisali.platform.ledger.KeyConflict` before anyone is asked anything. Deposits
are checked against the player's limits before anyone is charged.

>>> from datetime import date
>>> from pelisali.platform import accounts
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> cage = Cage()
>>> with transaction(engine) as s:
...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
...     deposit_via(s, cage, "ann", 2_000, key="dep-1").provider_ref
...     deposit_via(s, cage, "ann", 2_000, key="dep-1").provider_ref   # a retry
'cage-1'
'cage-1'
>>> len(cage.calls)
1
>>> with transaction(engine) as s:
...     deposit_via(s, cage, "ann", 3_000, key="dep-1")   # the key, another amount
Traceback (most recent call last):
...
pelisali.platform.ledger.KeyConflict: idempotency key 'dep-1' was used for a different \
transfer: a deposit of 20.00 €
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from sqlalchemy.orm import Session

from pelisali.platform import accounts
from pelisali.platform.ledger import append_audit, made_before, move


@dataclass(frozen=True)
class PaymentResult:
    ok: bool
    provider_ref: str = ""
    reason: str = ""


class PaymentAdapter(Protocol):
    """What Pelisali needs of a payment provider."""

    name: str

    def charge(self, player: str, amount: int, reference: str) -> PaymentResult:
        """Take ``amount`` cents from the player's payment method."""

    def payout(self, player: str, amount: int, reference: str) -> PaymentResult:
        """Send ``amount`` cents to the player's payment method."""


@dataclass
class Cage:
    """The hall's cash desk as an adapter: every request succeeds, and each is logged."""

    name: str = "cage"
    calls: list[tuple[str, str, int, str]] = field(default_factory=list)

    def charge(self, player: str, amount: int, reference: str) -> PaymentResult:
        self.calls.append(("charge", player, amount, reference))
        return PaymentResult(True, f"{self.name}-{len(self.calls)}")

    def payout(self, player: str, amount: int, reference: str) -> PaymentResult:
        self.calls.append(("payout", player, amount, reference))
        return PaymentResult(True, f"{self.name}-{len(self.calls)}")


def deposit_via(session: Session, adapter: PaymentAdapter, name: str, amount: int,
                key: str, others: Sequence[str] = ()) -> PaymentResult:
    """Charge through ``adapter`` and credit the wallet; refused by the limits first.
    ``others``: the keys the same client key takes for another request (a withdrawal),
    which must not have been used either."""
    done = made_before(session, key, "deposit", f"external:{adapter.name}",
                       accounts.wallet_code(name), amount, others)
    if done is not None:
        return PaymentResult(True, done.reason)
    accounts.check_deposit(session, name, amount)
    result = adapter.charge(name, amount, key)
    if not result.ok:
        raise accounts.Refused(f"{adapter.name} declined the deposit: {result.reason}")
    accounts.deposit(session, name, amount, key=key, actor=adapter.name,
                     source=f"external:{adapter.name}", reason=result.provider_ref)
    return result


def withdraw_via(session: Session, adapter: PaymentAdapter, name: str, amount: int,
                 key: str, others: Sequence[str] = ()) -> PaymentResult:
    """Debit the wallet and pay out through ``adapter``; if the adapter fails, the debit
    is rolled back with the transaction. ``others`` as for :func:`deposit_via`."""
    done = made_before(session, key, "withdrawal", accounts.wallet_code(name),
                       f"external:{adapter.name}", amount, others)
    if done is not None:
        return PaymentResult(True, done.reason)
    accounts.find(session, name)
    move(session, key, accounts.wallet_code(name), f"external:{adapter.name}", amount,
         "withdrawal", actor=adapter.name)
    result = adapter.payout(name, amount, key)
    if not result.ok:
        raise accounts.Refused(f"{adapter.name} could not pay out: {result.reason}")
    append_audit(session, adapter.name, "payout", {"key": key, "player": name,
                                                   "amount": amount,
                                                   "provider_ref": result.provider_ref})
    return result
