"""The tournament clock: which level or break the elapsed seconds fall in.

The clock reads no time itself. The caller gives it the tournament's elapsed
seconds (play time: a pause is the caller's, by not counting it), so a test or
a simulation can run a whole structure in an instant. Past the last level the
last level goes on: ``seconds_left`` is then None.

>>> from pelisali.rules.tournaments import load_structure
>>> clock = LevelClock(load_structure("regular"))
>>> reading = clock.reading(0)
>>> reading.level.number, reading.on_break, reading.seconds_left
(1, False, 1200)
>>> after_four = clock.reading(4 * 1200 + 10)  # the break after level 4
>>> after_four.on_break, after_four.level.number, after_four.seconds_left
(True, 5, 290)
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from pelisali.rules.tournaments import Break, Level, Structure


@dataclass(frozen=True)
class ClockReading:
    """Where the clock is: the item of the structure (``index``), the play level in
    force (on a break, the level that follows it), and the seconds left of the item
    (None past the end: the last level goes on)."""

    index: int
    level: Level
    on_break: bool
    seconds_left: int | None

    def shown(self) -> dict[str, Any]:
        """The level in force and the seconds to the next, as JSON-safe data (what the
        server and ``pelisali tournament status`` show).

        >>> from pelisali.rules.tournaments import load_structure
        >>> LevelClock(load_structure("sit-and-go")).reading(30).shown()
        {'number': 1, 'small_blind': 10, 'big_blind': 20, 'ante': 0, 'on_break': False, \
'seconds_left': 570}
        """
        level = self.level
        return {"number": level.number, "small_blind": level.small_blind,
                "big_blind": level.big_blind, "ante": level.ante,
                "on_break": self.on_break, "seconds_left": self.seconds_left}


class LevelClock:
    """Readings of a structure's levels and breaks by elapsed seconds."""

    def __init__(self, structure: Structure) -> None:
        self.structure = structure
        items = structure.levels
        self._starts = (0, *accumulate(item.seconds for item in items))
        # The play level in force at each item: a break shows the level after it (the
        # last level when a structure ended on a break, which the rule data refuses).
        levels = structure.play_levels
        self._level_at: list[Level] = []
        for i, item in enumerate(items):
            if isinstance(item, Level):
                self._level_at.append(item)
            else:
                after = next((x for x in items[i + 1:] if isinstance(x, Level)), levels[-1])
                self._level_at.append(after)

    def starts(self) -> tuple[int, ...]:
        """The second each item of the structure starts at.

        >>> from pelisali.rules.tournaments import load_structure
        >>> LevelClock(load_structure("sit-and-go")).starts()[:3]
        (0, 600, 1200)
        """
        return self._starts[:-1]

    def reading(self, elapsed: int) -> ClockReading:
        """The clock at ``elapsed`` seconds from the start."""
        if isinstance(elapsed, bool) or not isinstance(elapsed, int) or elapsed < 0:
            raise ValueError(f"elapsed seconds are a whole number, 0 or more: {elapsed!r}")
        items = self.structure.levels
        index = bisect_right(self._starts, elapsed) - 1
        if index >= len(items):  # past the end: the last level goes on
            last = max(i for i, item in enumerate(items) if isinstance(item, Level))
            return ClockReading(last, self._level_at[last], False, None)
        return ClockReading(index, self._level_at[index], isinstance(items[index], Break),
                            self._starts[index + 1] - elapsed)
