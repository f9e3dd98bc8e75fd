"""Game engines. :func:`make_game` builds any wheel or dice game by name and version.

>>> make_game("roulette", "c").title()
'roulette C'
>>> make_game("pachinko")
Traceback (most recent call last):
...
pelisali.games.base.GameError: no game 'pachinko'; games: roulette, boule, ...
"""

from __future__ import annotations

from collections.abc import Mapping

from pelisali.games.base import GameError, UnknownSpot, WagerGame

GAMES = ("roulette", "boule", "money-wheel", "tuplanoppa", "sic-bo")
ROULETTE_VARIANTS = tuple("ABCDEFGHI")


def make_game(
    name: str, variant: str | None = None, settings: Mapping[str, str | bool] | None = None
) -> WagerGame:
    """A game engine for ``name`` (and ``variant`` for roulette) with table ``settings``.

    Each game's module is imported when it is asked for, so a command that plays one
    game loads neither the others nor the batch code (NumPy) they bring."""
    name = name.lower()
    if name == "roulette":
        from pelisali.games.roulette import roulette

        chosen = (variant or "C").upper()
        if chosen not in ROULETTE_VARIANTS:
            raise GameError(f"roulette has no version {variant!r}; versions: A to I")
        return roulette(chosen, settings)
    if name not in GAMES:
        raise GameError(f"no game {name!r}; games: {', '.join(GAMES)}")
    if variant:
        raise GameError(f"{name} has one version; drop --variant")
    from pelisali.games.boule import boule
    from pelisali.games.dice import sic_bo, tuplanoppa
    from pelisali.games.money_wheel import money_wheel

    factory = {"boule": boule, "money-wheel": money_wheel, "tuplanoppa": tuplanoppa,
               "sic-bo": sic_bo}[name]
    return factory(settings)


__all__ = ["GAMES", "ROULETTE_VARIANTS", "GameError", "UnknownSpot", "WagerGame", "make_game"]
