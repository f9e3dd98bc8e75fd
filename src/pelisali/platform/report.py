"""The day's report per table: rounds, bets, stakes, payouts, fees, jackpots, rounding,
gross gaming revenue, and the observed return to player against the theoretical one
for the bets actually made.

The theoretical RTP weighs each bet type's exact RTP by the stakes placed on it that
day, as the table's family gives it
(:meth:`~pelisali.platform.table_layer.Family.theoretical_rtp`): for the wager games
``pelisali odds`` (the engine's own outcomes walked with fractions), for punto banco the
exact odds of a full shoe. Blackjack's depends on the players' decisions and poker has
none, so neither gets one.

Gross gaming revenue is what the players staked less what they were paid, plus the
fees the house took (poker rake and time charges, jackpot participation fees) and the
commissions it took from the players' wallets (Pai Gow Poker's on a win, paid in full
and then taken back: line ``commission``; chemin de fer's comes out of the coup's escrow,
so it is already stakes less payouts). The
jackpot lines are shown beside it: contributions to a pool are the players' money held
for a later winner, not revenue, and a pool's payouts are not the house's cost.

>>> from datetime import date
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     day_report(s, date(2026, 1, 1))
[]
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pelisali.platform.families import family_of
from pelisali.platform.models import Account, BetRow, GameTable, RoundRow, Transfer

# Ledger lines a table's rounds carry besides stakes and payouts.
LINES = ("fee", "jackpot_contribution", "jackpot_payout", "rounding")


@dataclass
class TableDay:
    table: str
    game: str
    rounds: int
    bets: int
    staked: int
    paid: int
    theoretical_rtp: Fraction | None
    lines: dict[str, int] = field(default_factory=dict)  # LINES, in cents

    @property
    def fees(self) -> int:
        return self.lines.get("fee", 0)

    @property
    def ggr(self) -> int:
        """Gross gaming revenue: stakes less payouts (refunds of void rounds excluded),
        plus the fees and the commissions taken from the wallets."""
        return self.staked - self.paid + self.fees + self.lines.get("commission", 0)

    @property
    def observed_rtp(self) -> Fraction | None:
        return Fraction(self.paid, self.staked) if self.staked else None


def day_report(session: Session, day: date) -> list[TableDay]:
    """Every table that settled a round on gaming day ``day``."""
    out = []
    for table in session.scalars(select(GameTable).order_by(GameTable.name)):
        rounds = list(session.scalars(select(RoundRow.id).where(
            RoundRow.table_id == table.id, RoundRow.gaming_day == day,
            RoundRow.status == "settled")))
        if not rounds:
            continue
        bets = session.scalars(select(BetRow).where(BetRow.round_id.in_(rounds))).all()
        lines = {str(kind): int(total) for kind, total in session.execute(
            select(Transfer.kind, func.sum(Transfer.amount))
            .where(Transfer.round_id.in_(rounds), Transfer.kind.in_(LINES))
            .group_by(Transfer.kind))}
        taken = session.scalar(  # commissions from the players' wallets, not an escrow's
            select(func.coalesce(func.sum(Transfer.amount), 0))
            .join(Account, Account.id == Transfer.source_id)
            .where(Transfer.round_id.in_(rounds), Transfer.kind == "commission",
                   Account.kind == "player"))
        if taken:
            lines["commission"] = int(taken)
        staked = sum(b.stake for b in bets if not b.carried)
        rtp = family_of(table.game).theoretical_rtp(table.game, table.variant,
                                                    json.loads(table.settings))
        weighted: Fraction | None = None
        if rtp is not None and staked:
            weighted = sum((rtp[b.spot] * b.stake for b in bets if not b.carried),
                           Fraction(0)) / staked
        out.append(TableDay(table.name, f"{table.game} {table.variant}".strip(), len(rounds),
                            len(bets), staked, sum(b.paid or 0 for b in bets), weighted,
                            lines))
    return out
