"""Game recall for any round: a wager round, a card round or a poker hand, each replayed
through its own engine from its record (either version: records written before the
table layer are read by their family).

>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     recall_round(s, 1)
Traceback (most recent call last):
...
pelisali.platform.rounds.TableError: no round 1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from pelisali.platform import card_rounds, poker_tables, rounds
from pelisali.platform.models import GameTable, RoundRow


@dataclass(frozen=True)
class RoundRecall:
    round_id: int
    game: str
    same: bool
    recorded: Any  # the settlements (a poker hand: stacks, rake, shares)
    replayed: Any
    problem: str = ""


def recall_round(session: Session, round_id: int) -> RoundRecall:
    """Replay round ``round_id`` through the engine of its game."""
    row = session.get(RoundRow, round_id)
    table = session.get(GameTable, row.table_id) if row else None
    if row is None or table is None:
        raise rounds.TableError(f"no round {round_id}")
    if table.game == poker_tables.GAME:
        hand = poker_tables.recall_hand(session, round_id)
        return RoundRecall(round_id, table.game, hand.same, hand.recorded, hand.replayed,
                           hand.problem)
    if table.game in card_rounds.CARD_GAMES:
        found = card_rounds.recall_card_round(session, round_id)
    else:
        found = rounds.recall(session, round_id)
    return RoundRecall(round_id, table.game, found.same, found.recorded, found.replayed,
                       found.problem)
