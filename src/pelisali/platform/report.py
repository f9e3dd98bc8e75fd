"""The day's report per table: rounds, bets, stakes, payouts, gross gaming revenue, and
the observed return to player against the theoretical one for the bets actually made.

The theoretical RTP weighs each bet type's exact RTP (``pelisali odds``, the engine's
own outcomes walked with fractions) by the stakes placed on it that day.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from sqlalchemy import select
from sqlalchemy.orm import Session

from pelisali.analysis.odds import exact_odds
from pelisali.games import make_game
from pelisali.platform.models import BetRow, GameTable, RoundRow


@dataclass
class TableDay:
    table: str
    game: str
    rounds: int
    bets: int
    staked: int
    paid: int
    theoretical_rtp: Fraction | None

    @property
    def ggr(self) -> int:
        """Gross gaming revenue: stakes less payouts (refunds of void rounds excluded)."""
        return self.staked - self.paid

    @property
    def observed_rtp(self) -> Fraction | None:
        return Fraction(self.paid, self.staked) if self.staked else None


def day_report(session: Session, day: date) -> list[TableDay]:
    """Every table that settled a round on gaming day ``day``."""
    out = []
    for table in session.scalars(select(GameTable).order_by(GameTable.name)):
        rounds = session.scalars(select(RoundRow).where(
            RoundRow.table_id == table.id, RoundRow.gaming_day == day,
            RoundRow.status == "settled")).all()
        if not rounds:
            continue
        bets = session.scalars(select(BetRow).where(
            BetRow.round_id.in_([r.id for r in rounds]))).all()
        game = make_game(table.game, table.variant or None, json.loads(table.settings))
        rtp = {odds.bet: odds.rtp for odds in exact_odds(game)}
        staked = sum(b.stake for b in bets)
        expected = sum((rtp[game.spot(b.spot).bet_type] * b.stake for b in bets), Fraction(0))
        out.append(TableDay(table.name, f"{table.game} {table.variant}".strip(), len(rounds),
                            len(bets), staked, sum(b.paid or 0 for b in bets),
                            expected / staked if staked else None))
    return out
