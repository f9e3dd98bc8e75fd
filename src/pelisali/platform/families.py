"""Which family of the table layer a table's game belongs to: the one place that maps a
table's ``game`` to the code that knows it.

>>> [family_of(g) for g in ("roulette", "blackjack", "slot-video", "red-dog")] == [
...     WAGER, CARDS, SLOTS, BANKED]
True
>>> family_of("bridge")
Traceback (most recent call last):
...
pelisali.platform.ledger.LedgerError: no family of games plays 'bridge'
"""

from __future__ import annotations

from pelisali.games import GAMES
from pelisali.platform.banked_family import BANKED_GAMES
from pelisali.platform.banked_family import FAMILY as BANKED
from pelisali.platform.card_family import FAMILY as CARDS
from pelisali.platform.chemin_family import FAMILY as CHEMIN
from pelisali.platform.chemin_family import GAME as CHEMIN_GAME
from pelisali.platform.ledger import LedgerError
from pelisali.platform.poker_family import FAMILY as POKER
from pelisali.platform.slot_family import FAMILY as SLOTS
from pelisali.platform.slot_family import SLOT_GAMES
from pelisali.platform.table_layer import Family
from pelisali.platform.wager_family import FAMILY as WAGER

__all__ = ["BANKED", "CARDS", "CHEMIN", "FAMILIES", "POKER", "SLOTS", "WAGER", "family_of"]

FAMILIES: dict[str, Family] = {
    **{game: WAGER for game in GAMES}, "punto-banco": CARDS, "blackjack": CARDS,
    "poker": POKER, **{game: SLOTS for game in SLOT_GAMES},
    **{game: BANKED for game in BANKED_GAMES}, CHEMIN_GAME: CHEMIN,
}


def family_of(game: str) -> Family:
    """The family of a table whose ``game`` column is ``game``."""
    try:
        return FAMILIES[game]
    except KeyError:
        raise LedgerError(f"no family of games plays {game!r}") from None
