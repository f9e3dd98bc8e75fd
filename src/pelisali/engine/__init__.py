"""One engine contract for every game, and :data:`GAMES`, the registry of every game version.

>>> from pelisali.engine import GAMES, Seats
>>> "roulette-D" in GAMES and "boule" in GAMES
True
>>> GAMES["sic-bo"].new_state(Seats(2)).to_move()
0
"""

from pelisali.engine.contract import (
    CHANCE,
    Action,
    ChanceOutcome,
    Event,
    Game,
    IllegalMove,
    Move,
    Seats,
    State,
    Step,
    replay,
    sample_chance,
)
from pelisali.engine.registry import GAMES, game

__all__ = [
    "CHANCE",
    "GAMES",
    "Action",
    "ChanceOutcome",
    "Event",
    "Game",
    "IllegalMove",
    "Move",
    "Seats",
    "State",
    "Step",
    "game",
    "replay",
    "sample_chance",
]
