"""Every player-vs-player game of RAY 1.4.1.1 by name, with its structure and its low and
high/low versions ("Kaikkia pokerikorttipelejä voidaan pelata myös low- tai
high-/low-versioina", RAY 2016 1.4.1.1.1).

A game is a handful of parameters over the one table engine. The low rule
follows RULINGS: Razz is ace-to-five; Lowball and Triple Draw Lowball are
deuce-to-seven; the low and high/low versions of the other games read the
text's literal reversal (deuce-to-seven; Sökö's own ranking reversed) with no
qualifier unless the table sets ace-to-five or eight-or-better.

>>> make_variant("omaha", structure="limit", hi_lo=True, low_rule="ace-to-five",
...              qualifier="eight").phh_code
'FO/8'
>>> make_variant("stud").phh_code, make_variant("razz").low
('F7S', 'low-a5')
"""

from __future__ import annotations

from dataclasses import replace

from pelisali.poker.variants import GAME_VARIANTS, PHH_CODES, PokerError, PokerVariant, Structure
from pelisali.rules.poker import load_poker_rules

# The game names of the commands, each at its usual structure (a table setting), from the
# rule data (``rules/data/poker``).
GAMES: dict[str, PokerVariant] = dict(GAME_VARIANTS)
# Already the low versions of their games: Razz, Lowball, Triple Draw Lowball.
LOW_GAMES = tuple(game for game, variant in GAMES.items() if variant.high is None)
STRUCTURES: tuple[Structure, ...] = ("limit", "pot-limit", "no-limit")
LOW_RULES = {"deuce-to-seven": "low-27", "ace-to-five": "low-a5"}

__all__ = ["GAMES", "LOW_GAMES", "LOW_RULES", "PHH_CODES", "STRUCTURES", "low_name",
           "low_ranking", "make_variant"]


def low_name(ranking: str) -> str:
    """A low ranking as the rules name it, so that a table says which low it plays.

    >>> low_name("low-27"), low_name("low-a5-8"), low_name("low-soko")
    ('deuce-to-seven, no qualifier', 'ace-to-five, eight or better', "Sökö's low, no qualifier")
    """
    names = {"low-27": "deuce-to-seven", "low-a5": "ace-to-five", "low-soko": "Sökö's low"}
    base = ranking.removesuffix("-8")
    return (f"{names.get(base, base)}, "
            f"{'eight or better' if ranking.endswith('-8') else 'no qualifier'}")


def low_ranking(game: str, low_rule: str | None, qualifier: str | None) -> str:
    """The ranking name of a game's low hand under the table's low rule and qualifier."""
    if low_rule is None:
        base: str = load_poker_rules(game).hand.low_version
    elif low_rule in LOW_RULES:
        base = LOW_RULES[low_rule]
    else:
        raise PokerError(f"low rule {low_rule!r}: deuce-to-seven or ace-to-five")
    if qualifier in (None, "none"):
        return base
    if qualifier != "eight":
        raise PokerError(f"qualifier {qualifier!r}: none or eight")
    if base == "low-soko":
        raise PokerError("Sökö's low has no eight-or-better rule; choose a low rule")
    return base + "-8"


def make_variant(game: str, structure: str | None = None, low: bool = False,
                 hi_lo: bool = False, low_rule: str | None = None,
                 qualifier: str | None = None, draws: int | None = None,
                 openers: bool = False) -> PokerVariant:
    """The game ``game`` as table parameters; every refusal names what is allowed."""
    if game not in GAMES:
        raise PokerError(f"unknown game {game!r}; games: {', '.join(GAMES)}, chinese")
    base = GAMES[game]
    if structure is not None and structure not in STRUCTURES:
        raise PokerError(f"structure {structure!r}: {', '.join(STRUCTURES)}")
    chosen: Structure = base.structure
    for option in STRUCTURES:
        if option == structure:
            chosen = option
    if low and hi_lo:
        raise PokerError("choose --low or --hi-lo, not both")
    high, low_hand = base.high, base.low
    if game in LOW_GAMES:
        if hi_lo:
            raise PokerError(f"{game} is a low game; its high/low version is "
                             f"{'stud' if game == 'razz' else 'draw'} --hi-lo")
        if low_rule or qualifier:
            low_hand = low_ranking(game, low_rule, qualifier)
            if low_hand.endswith("-8"):
                raise PokerError("a qualifier for the low needs a high half to go to")
    elif low:
        high, low_hand = None, low_ranking(game, low_rule, qualifier)
        if low_hand.endswith("-8"):
            raise PokerError("a qualifier for the low needs a high half to go to")
    elif hi_lo:
        low_hand = low_ranking(game, low_rule, qualifier)
    elif low_rule or qualifier:
        raise PokerError("a low rule or qualifier needs --low or --hi-lo")
    if draws is not None and base.kind != "draw":
        raise PokerError("draws belong to the draw games")
    if openers and game != "draw":
        raise PokerError("jacks or better to open is a Five Card Draw setting")
    name = game + ("-low" if low else "-hi-lo" if hi_lo else "")
    code = PHH_CODES.get((game, chosen, high, low_hand))
    variant = replace(base, name=name, structure=chosen, high=high, low=low_hand,
                      draws=base.draws if draws is None else draws, openers=openers,
                      phh_code=code)
    if variant.draws != base.draws:
        variant = replace(variant, phh_code=None)
    return variant
