"""Reel-strip slots as a family of the table layer.

What the table layer (:mod:`pelisali.platform.table_layer`) needs to know of a slot
round: its engine (:class:`~pelisali.engine.slots.SlotEngine`, one of
:data:`~pelisali.engine.GAMES`), the one settlement a round makes (the bet ``lines N``
and the round's whole win, free spins and cap included) and, for readers of the record,
each spin's stops, window and line wins. The day report's theoretical return is the
par sheet's (:func:`pelisali.analysis.slots.par_sheet`) for the lines played.

>>> from pelisali.engine import GAMES, Seats
>>> state = GAMES["slot-fruit"].new_state(Seats(1)).apply("spin 5 10").state
>>> for stop in ("0", "0", "0"):
...     state = state.apply(stop).state
>>> record = RoundRecord(game="slot-fruit", round_id=7, table="t", status="settled",
...                      players=["ann"])
>>> [(s.spot, s.stake, s.paid, s.result) for s in FAMILY.settlements(state, record)]
[('lines 5', 50, 30, 'lose')]
>>> FAMILY.theoretical_rtp("slot-fruit", "", {})["lines 5"]
Fraction(15593, 16384)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from pelisali.engine import GAMES, State
from pelisali.engine.slots import SlotEngine, SlotState
from pelisali.platform.table_layer import Family, RecordError, RoundRecord, SettlementRecord

__all__ = ["FAMILY", "SLOT_GAMES", "SlotFamily", "as_slot", "bet_spot", "slot_engine"]

SLOT_GAMES: tuple[str, ...] = tuple(g for g, e in GAMES.items() if isinstance(e, SlotEngine))
"""Every slot game's id (``slot-fruit``, ``slot-video``)."""


def slot_engine(game: str) -> SlotEngine:
    """The engine of slot ``game``; :class:`RecordError` if it is not a slot."""
    found = GAMES.get(game)
    if not isinstance(found, SlotEngine):
        raise RecordError(f"{game!r} is not a slot; slots: {', '.join(SLOT_GAMES)}")
    return found


def as_slot(state: State) -> SlotState:
    if not isinstance(state, SlotState):
        raise RecordError(f"not a slot round: {type(state).__name__}")
    return state


def bet_spot(lines: int) -> str:
    """A slot bet's spot as the tables keep it: the lines played.

    >>> bet_spot(20)
    'lines 20'
    """
    return f"lines {lines}"


def _result(stake: int, paid: int) -> str:
    return "win" if paid > stake else "push" if paid == stake else "lose"


class SlotFamily(Family):
    """Slots for the table layer."""

    def game(self, record: RoundRecord) -> SlotEngine:
        return slot_engine(record.game)

    def settlements(self, state: State, record: RoundRecord) -> list[SettlementRecord]:
        found = as_slot(state)
        if found.bet is None or found.paid is None:
            return []
        return [SettlementRecord(bet_id=0, player=record.players[0],
                                 spot=bet_spot(found.bet.lines), stake=found.stake(),
                                 paid=found.paid, rounding="0/1",
                                 result=_result(found.stake(), found.paid))]

    def paid(self, state: State) -> tuple[int, ...]:
        return (as_slot(state).paid or 0,)

    def derived(self, state: State, record: RoundRecord) -> dict[str, Any]:
        """Each settled spin's stops, window and line wins, the free spins left and the
        round's win so far: what history and recall show."""
        view = as_slot(state).view(0)
        return {"spins": view["spins"], "free_left": view["free_left"], "win": view["win"]}

    def theoretical_rtp(self, game: str, variant: str, settings: Mapping[str, Any]
                        ) -> Mapping[str, Fraction]:
        """The par sheet's exact RTP for each number of lines (spot ``lines N``)."""
        return _rtp_by_lines(game)


@lru_cache(maxsize=8)
def _rtp_by_lines(game: str) -> Mapping[str, Fraction]:
    return _ParSheets(game)


class _ParSheets(dict[str, Fraction]):
    """RTP by spot, each par sheet computed when a day first has a bet on it (a 5-reel
    game's takes a second or two)."""

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def __missing__(self, spot: str) -> Fraction:
        from pelisali.analysis.slots import par_sheet

        rules = slot_engine(self.game).rules
        lines = int(spot.removeprefix("lines "))
        if lines not in rules.bets.lines_played:
            raise KeyError(spot)
        self[spot] = rtp = par_sheet(rules, lines).rtp
        return rtp


FAMILY = SlotFamily()
