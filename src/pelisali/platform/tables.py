"""What staff and operators do to any table, whatever its family: open a table, void
the round in play, finish the rounds a crash or a 24-hour wait left open. The table's family
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
from pelisali.platform.families import CARDS, FAMILIES, POKER, family_of
from pelisali.platform.ledger import LedgerError
from pelisali.platform.models import GameTable
from pelisali.rng import Rng

__all__ = ["create", "recover", "void"]

CARD_NAMES = {"baccarat": "punto-banco"}  # a name players use for punto banco


def create(session: Session, name: str, game: str, variant: str | None = None, *,
           settings: dict[str, str | bool] | None = None, limit_min: int | None = None,
           limit_max: int | None = None, mode: str = "rng", actor: str = "system",
           ) -> GameTable:
    """Open a table of any game but poker (whose stakes and rake are its own:
    :func:`pelisali.platform.poker_tables.create_table`): a wheel or dice game, punto
    banco or blackjack, RNG or live, with its settings and limits (the rule file's
    when not given).

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     made = [create(s, "t1", "roulette", "C").game, create(s, "t2", "baccarat").game]
    >>> made
    ['roulette', 'punto-banco']
    """
    game = CARD_NAMES.get(game, game)
    try:
        family = family_of(game)
    except LedgerError:
        raise rounds.TableError(f"no game {game!r}; games: "
                                f"{', '.join(sorted(FAMILIES))}") from None
    if family is POKER:
        raise rounds.TableError("a poker table takes its blinds, buy-in and rake: open it "
                                "as a poker table")
    if family is CARDS:
        if variant:
            raise rounds.TableError(f"{game} has no versions")
        return card_rounds.create_card_table(session, name, game, settings,
                                             limit_min=limit_min, limit_max=limit_max,
                                             mode=mode, actor=actor)
    return rounds.create_table(session, name, game, variant, settings, limit_min=limit_min,
                               limit_max=limit_max, mode=mode, actor=actor)


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
