"""What staff and operators do to any table, whatever its family: void the round in
play, finish the rounds a crash or a 24-hour wait left open. The table's family
(:mod:`pelisali.platform.families`) says which family module does it.

>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform import card_rounds
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = card_rounds.create_card_table(s, "bj-1", "blackjack")
...     void(s, "bj-1", "shoe dropped", "floor")
Traceback (most recent call last):
...
pelisali.platform.rounds.TableError: bj-1: no round to void
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from pelisali.platform import card_rounds, rounds
from pelisali.platform.families import CARDS, POKER, family_of
from pelisali.rng import Rng

__all__ = ["recover", "void"]


def void(session: Session, table_name: str, reason: str, actor: str) -> int:
    """Void ``table_name``'s round in play (a mis-spin, a device fault, a dropped
    shoe): every stake goes back, a bet in prison stays there. The round's number."""
    table = rounds.find_table(session, table_name)
    family = family_of(table.game)
    if family is CARDS:
        return card_rounds.void_card_round(session, table_name, reason, actor)
    if family is POKER:
        raise rounds.TableError(f"{table_name}: a poker hand is void only when its table "
                                "fails mid-hand; it then reopens with the stacks before it")
    return rounds.void(session, table_name, reason, actor)


def recover(session: Session, rng: Rng | None = None, everything: bool = False
            ) -> list[tuple[int, str]]:
    """Finish the rounds left open with bets at every table, as their rules say: those
    past their 24-hour deadline, or all of them (``everything``: at a restart after a
    crash). Each round's number and what became of it."""
    done = rounds.recover(session, rng, everything=everything)
    done += card_rounds.recover_card_rounds(session, rng, everything=everything)
    return sorted(done)
