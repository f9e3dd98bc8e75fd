"""The banked card games of RAY 1.4.1.2 and 1.4.2 (Three Card Poker, Red Dog, Ultimate
Texas Hold'em, Texas Hold'em Bonus, Oasis Stud Poker, Pai Gow Poker) as a family of the
table layer.

What the table layer (:mod:`pelisali.platform.table_layer`) needs to know of such a
round: its engine (one of :data:`~pelisali.engine.GAMES`, standard rules from
``rules/data/banked/``), each bet's settlement as the engine makes it (the ante, Pair
Plus and play bets; Red Dog's ante and raise; Ultimate Texas Hold'em's ante, blind, play
and Trips, a blind's 3:2 kept to the cent with its fraction; Texas Hold'em Bonus' ante,
Bonus, flop, turn and river bets; Oasis Stud Poker's ante, raise and exchange fee, the
fee settled with nothing back; Pai Gow Poker's one bet, a win paid 1:1 in full and the
commission on it the engine's item of its own, :func:`commission`) and, for readers of
the record, the cards.
The players' decisions (play or fold, raise or stand) make the return, so the day report
has no theoretical return for these tables.

>>> from pelisali.engine import GAMES, Seats
>>> state = GAMES["red-dog"].new_state(Seats(1))
>>> for move in ("bet ante 500", "done", "2s", "9d", "stand", "5h"):
...     state = state.apply(move).state
>>> record = RoundRecord(game="red-dog", round_id=7, table="t", status="settled",
...                      players=["ann"])
>>> [(s.spot, s.stake, s.paid, s.result) for s in FAMILY.settlements(state, record)]
[('ante', 500, 1000, 'win')]
>>> FAMILY.derived(state, record)["cards"]
['2s', '9d', '5h']
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol

from pelisali.engine import GAMES, Game, State
from pelisali.platform.table_layer import Family, RecordError, RoundRecord, SettlementRecord

__all__ = ["BANKED_GAMES", "FAMILY", "BankedFamily", "banked_engine", "commission",
           "short_result"]

BANKED_GAMES: tuple[str, ...] = ("three-card-poker", "red-dog", "ultimate-texas-holdem",
                                  "texas-holdem-bonus", "oasis-stud", "pai-gow-poker",
                                  "russian-poker")
"""The banked card games played on the wallet, by id."""


class _Settled(Protocol):
    bet_id: int
    spot: str
    stake: int
    paid: int
    result: str


def _rounding(settled: _Settled) -> str:
    """The part of a cent the house kept on a bet (Ultimate Texas Hold'em's 3:2 blind)."""
    part = getattr(settled, "rounding", Fraction(0))
    return f"{part.numerator}/{part.denominator}"


def banked_engine(game: str) -> Game:
    """The engine of banked game ``game``; :class:`RecordError` if it is not one."""
    if game not in BANKED_GAMES:
        raise RecordError(f"{game!r} is not a banked card game; they are: "
                          f"{', '.join(BANKED_GAMES)}")
    return GAMES[game]


def settled(state: State) -> tuple[_Settled, ...]:
    """The engine's settlements of the round (empty until it is over)."""
    found: tuple[_Settled, ...] = tuple(getattr(state, "settlements", ()))
    return found


def commission(state: State) -> int:
    """What the house takes of the player's win besides the settlements (Pai Gow Poker's
    commission on a box's win; 0 in the other games and until the round is over).

    >>> from pelisali.engine import GAMES, Seats
    >>> state = GAMES["pai-gow-poker"].new_state(Seats(1))
    >>> box, dealer = "Kc Kd Qh 9s 7d 4c 2h".split(), "Ac Jd 8h 6s 5d 3c 2c".split()
    >>> for move in ["bet ante 1000", "done", *box, *dealer, "set Qh 9s"]:
    ...     state = state.apply(move).state
    >>> commission(state), [s.paid for s in settled(state)]
    (50, [2000])
    """
    return sum(int(c.amount) for c in getattr(state, "commissions", ()))


def short_result(result: str) -> str:
    """A bet's result as a history line keeps it: the engine's word without its detail
    (after a comma, or Pai Gow Poker's colon).

    >>> short_result("win, ante bonus 5:1"), short_result("push: high box, low dealer")
    ('win', 'push')
    """
    return result.split(",", 1)[0].split(": ", 1)[0][:16]


class BankedFamily(Family):
    """The banked card games for the table layer."""

    def game(self, record: RoundRecord) -> Game:
        return banked_engine(record.game)

    def settlements(self, state: State, record: RoundRecord) -> list[SettlementRecord]:
        return [SettlementRecord(bet_id=s.bet_id, player=record.players[0], spot=s.spot,
                                 stake=s.stake, paid=s.paid, rounding=_rounding(s),
                                 result=s.result)
                for s in settled(state)]

    def paid(self, state: State) -> tuple[int, ...]:
        return (sum(s.paid for s in settled(state)),)

    def derived(self, state: State, record: RoundRecord) -> dict[str, Any]:
        """The player's cards, the dealer's as the player sees them now and the board
        (Red Dog has one hand for the table: ``cards``); Pai Gow Poker's dealer as set,
        the high hand then the low, and the commission taken."""
        view = state.view(0)
        dealer = view.get("dealer", [*view.get("dealer_high", []), *view.get("dealer_low", [])])
        return {"cards": view.get("cards", []), "dealer": dealer,
                **({"board": view["board"]} if "board" in view else {}),
                **({"commission": view["commission"]} if "commission" in view else {})}


FAMILY = BankedFamily()
