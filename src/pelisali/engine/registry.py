"""The registry of every game and version: the one place a game id is looked up.

Each family adds its engines here, with its default version set once.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from pelisali.engine.baccarat import baccarat_engines
from pelisali.engine.blackjack import blackjack_engines
from pelisali.engine.chemin_de_fer import chemin_engines
from pelisali.engine.chinese import chinese_engines
from pelisali.engine.contract import Game, IllegalMove
from pelisali.engine.holdem_bonus import holdem_bonus_engines
from pelisali.engine.oasis import oasis_engines
from pelisali.engine.pai_gow import pai_gow_engines
from pelisali.engine.poker import poker_engines
from pelisali.engine.red_dog import red_dog_engines
from pelisali.engine.russian import russian_engines
from pelisali.engine.slots import slot_engines
from pelisali.engine.three_card import three_card_engines
from pelisali.engine.ultimate import ultimate_engines
from pelisali.engine.wager import wager_engines


def _build() -> dict[str, Game]:
    games: dict[str, Game] = {}
    for family in (wager_engines, baccarat_engines, blackjack_engines, poker_engines,
                   chinese_engines, slot_engines, three_card_engines, red_dog_engines,
                   ultimate_engines, chemin_engines, holdem_bonus_engines, oasis_engines,
                   pai_gow_engines, russian_engines):
        games.update(family())
    return games


GAMES: Mapping[str, Game] = MappingProxyType(_build())
"""Every game and version by id: ``roulette-A`` … ``roulette-I``, ``boule``, ``money-wheel``,
``tuplanoppa``, ``sic-bo``, ``punto-banco``, ``blackjack``, the poker games, ``chinese``, the
slots ``slot-fruit`` and ``slot-video``, ``three-card-poker``, ``red-dog``,
``ultimate-texas-holdem``, ``chemin-de-fer``, ``texas-holdem-bonus``, ``oasis-stud``,
``pai-gow-poker`` and ``russian-poker``."""


def game(game_id: str) -> Game:
    """The game with this id; an unknown id is an :class:`IllegalMove` naming the ids.

    >>> game("roulette-C").title()
    'roulette C'
    """
    found = GAMES.get(game_id)
    if found is None:
        raise IllegalMove(f"no game {game_id!r}; games: {', '.join(GAMES)}")
    return found
