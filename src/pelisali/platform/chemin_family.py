"""Baccara, chemin de fer as a family of the table layer: one coup a round.

What the table layer (:mod:`pelisali.platform.table_layer`) needs to know of a coup: its
engine (:class:`~pelisali.engine.chemin_de_fer.CheminEngine` with the table's shoe of 6
or 8 decks), where the coup starts (the players seated in the engine's seats, the banker
in ``button``, a bank carried from the last coup in the settings' ``carried``; a bank put
up anew is the banker's first move of the history), each stake's settlement with the
player whose it is, and, for readers, the cards and the result.

>>> from pelisali.platform.table_layer import RoundRecord
>>> record = RoundRecord(game="chemin-de-fer", round_id=1, table="cf", status="playing",
...                      players=["ann", "bob"], button=1, settings={"carried": "1950"})
>>> state = FAMILY.start(record)
>>> state.banker, state.bank, state.to_move()
(1, 1950, 0)
>>> for move in ["banco", "9h", "Kc", "Kd", "5s"]:   # ann's natural 9 against 5
...     state = state.apply(move).state
>>> [(s.player, s.spot, s.stake, s.paid) for s in FAMILY.settlements(state, record)]
[('bob', 'bank', 1950, 0), ('ann', 'banco', 1950, 3900)]
>>> FAMILY.derived(state, record)["result"]
'player'
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from pelisali.engine import Game, State
from pelisali.engine.chemin_de_fer import CheminEngine, CheminState
from pelisali.platform.table_layer import Family, RecordError, RoundRecord, SettlementRecord

__all__ = ["CARRIED", "FAMILY", "GAME", "CheminFamily", "as_coup", "chemin_engine"]

GAME = "chemin-de-fer"
CARRIED = "carried"
"""The record's setting for a bank carried into the coup from the last one (cents)."""


@cache
def chemin_engine(decks: int | None = None) -> CheminEngine:
    """The engine with a shoe of ``decks`` (None: the rule data's).

    >>> chemin_engine(8).rules.decks
    8
    """
    return CheminEngine.from_settings({"decks": str(decks)} if decks else None)


def as_coup(state: State) -> CheminState:
    """``state`` as a coup; :class:`RecordError` if it is another game's."""
    if not isinstance(state, CheminState):
        raise RecordError(f"not a coup of chemin de fer: {type(state).__name__}")
    return state


def carried(record: RoundRecord) -> int:
    """The bank carried into the coup (0: the banker put one up in the history)."""
    text = str(record.settings.get(CARRIED, "0"))
    if not text.isdigit():
        raise RecordError(f"a carried bank is a whole number of cents, not {text!r}")
    return int(text)


class CheminFamily(Family):
    """Chemin de fer for the table layer."""

    def game(self, record: RoundRecord) -> Game:
        if record.game != GAME:
            raise RecordError(f"{record.game!r} is not chemin de fer")
        decks = str(record.settings.get("decks", ""))
        return chemin_engine(int(decks) if decks.isdigit() else None)

    def start(self, record: RoundRecord) -> State:
        engine = self.game(record)
        if not isinstance(engine, CheminEngine):  # pragma: no cover - game() makes one
            raise RecordError("not chemin de fer")
        return engine.new_coup(record.seats(), banker=record.button, bank=carried(record))

    def settlements(self, state: State, record: RoundRecord) -> list[SettlementRecord]:
        return [SettlementRecord(bet_id=s.bet_id, player=record.players[s.seat], spot=s.spot,
                                 stake=s.stake, paid=s.paid,
                                 rounding=_fraction(s.rounding), result=s.result)
                for s in as_coup(state).settlements]

    def paid(self, state: State) -> tuple[int, ...]:
        coup = as_coup(state)
        out = [0] * coup.seats
        for s in coup.settlements:
            out[s.seat] += s.paid
        return tuple(out)

    def derived(self, state: State, record: RoundRecord) -> dict[str, Any]:
        """Every card of the coup (face down ones included: the record is the house's),
        the result and the house's commission so far."""
        coup = as_coup(state)
        return {"cards": [[side, card] for side, card in coup.cards],
                "result": coup.result(), "commission": coup.accounts()["house"]}


def _fraction(part: Fraction) -> str:
    return f"{part.numerator}/{part.denominator}"


FAMILY = CheminFamily()
