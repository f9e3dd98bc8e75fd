"""The one grammar of a betting spot as a player writes it, for every wager game.

A spot is a bet type's name, the numbers it covers, or both: ``red``, ``17``,
``straight 17``, ``split 0-1``, ``corner 5 1 4 2``, ``dozen 2``, ``under 7``. Names are
ASCII words, case-insensitive; ``:`` and runs of whitespace read as one space. Numbers
stand after the name, separated by a space, ``-`` or ``,``, and a separator stands only
between two numbers: ``straight -1`` is refused, never read as ``straight 1``.

A number is written as the layout writes it: ASCII digits, no sign, no decimals, and no
leading zero. ``01`` is refused rather than read as 1, so that each spot has one
spelling and nothing the player typed is guessed at; ``0`` and the double zero ``00``
are the names of pockets, not numbers with a leading zero.

>>> spot_words("Split 2 - 1"), spot_words("17"), spot_words("any pair")
(('split', ('2', '1')), ('', ('17',)), ('any pair', ()))
>>> [spot_words(t) for t in ("straight -1", "straight 01", "straight 1.0", "17 red")]
[None, None, None, None]
"""

from __future__ import annotations

import re

__all__ = ["GRAMMAR", "is_number", "spot_words"]

GRAMMAR = ("a spot is a bet type and the numbers it covers, e.g. 'straight 17' or "
           "'split 0-1'; numbers have no sign, decimals or leading zeros")

_WORD = r"[a-z][a-z0-9_]*"
_NUMBER = r"00|0|[1-9][0-9]*"
_SEPARATOR = r" ?[-,] ?| "
_NUMBERS = rf"(?:{_NUMBER})(?:(?:{_SEPARATOR})(?:{_NUMBER}))*"
_SPOT = re.compile(rf"(?P<name>{_WORD}(?: {_WORD})*)(?: (?P<after>{_NUMBERS}))?"
                   rf"|(?P<alone>{_NUMBERS})")


def is_number(text: str) -> bool:
    """A number as the grammar writes it (``0``, ``17``; not ``017``, ``+1`` or ``١``).

    >>> is_number("7"), is_number("07"), is_number("-7"), is_number("00")
    (True, False, False, False)
    """
    return re.fullmatch(r"0|[1-9][0-9]*", text) is not None


def spot_words(text: str) -> tuple[str, tuple[str, ...]] | None:
    """The bet type's name (lower case, ``""`` for numbers alone) and the numbers in
    ``text``, or None when ``text`` follows no spot's grammar."""
    if not text.isascii():
        return None
    match = _SPOT.fullmatch(" ".join(text.lower().replace(":", " ").split()))
    if match is None:
        return None
    numbers = match["after"] or match["alone"]
    return match["name"] or "", tuple(re.split(_SEPARATOR, numbers)) if numbers else ()
