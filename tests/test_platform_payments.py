"""Deposits and withdrawals through a payment adapter, on SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

import pytest
from sqlalchemy import Engine

from pelisali.platform import accounts
from pelisali.platform.db import transaction
from pelisali.platform.ledger import balance, check
from pelisali.platform.payments import PaymentResult, deposit_via, withdraw_via


@dataclass
class Acquirer:
    """A card acquirer that declines charges over its limit and payouts when down."""

    name: str = "acquirer"
    limit: int = 50_000
    down: bool = False
    calls: list[tuple[str, int]] = field(default_factory=list)

    def charge(self, player: str, amount: int, reference: str) -> PaymentResult:
        self.calls.append(("charge", amount))
        if amount > self.limit:
            return PaymentResult(False, reason="card limit")
        return PaymentResult(True, f"auth-{len(self.calls)}")

    def payout(self, player: str, amount: int, reference: str) -> PaymentResult:
        self.calls.append(("payout", amount))
        if self.down:
            return PaymentResult(False, reason="bank unreachable")
        return PaymentResult(True, f"payout-{len(self.calls)}")


def test_payments_are_charged_once_checked_first_and_rolled_back_on_failure(
        engine: Engine) -> None:
    card = Acquirer()
    with transaction(engine) as s:
        accounts.register(s, "ann", date(1990, 1, 1), "FI")
        assert deposit_via(s, card, "ann", 20_000, key="d1").provider_ref == "auth-1"
        deposit_via(s, card, "ann", 20_000, key="d1")  # a retry: not charged again
        assert card.calls == [("charge", 20_000)]
        accounts.set_limit(s, "ann", "deposit", "day", 30_000)
    with pytest.raises(accounts.Refused, match="deposit limit"), transaction(engine) as s:
        deposit_via(s, card, "ann", 20_000, key="d2")  # refused before any charge
    assert len(card.calls) == 1
    with pytest.raises(accounts.Refused, match="declined the deposit: card limit"), \
            transaction(engine) as s:
        card.limit = 5_000
        deposit_via(s, card, "ann", 6_000, key="d3")
    card.down = True
    with pytest.raises(accounts.Refused, match="could not pay out"), transaction(engine) as s:
        withdraw_via(s, card, "ann", 5_000, key="w1")
    with transaction(engine) as s:
        assert balance(s, "player:ann") == 20_000  # the failed payout debited nothing
    card.down = False
    with transaction(engine) as s:
        withdraw_via(s, card, "ann", 5_000, key="w2")
        withdraw_via(s, card, "ann", 5_000, key="w2")
        assert balance(s, "player:ann") == 15_000
        assert balance(s, "external:acquirer") == -15_000
        assert [c for c in card.calls if c[0] == "payout"] == [("payout", 5_000)] * 2
        assert check(s).ok
