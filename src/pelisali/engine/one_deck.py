"""What the banked games dealt from one deck share under the engine contract: the bets a
seat places before the deal within the table's limits, chance as each card left in the
deck at an equal share, and the returns and accounts of the bets and their settlements
(Three Card Poker, Ultimate Texas Hold'em).

>>> from pelisali.engine import Seats
>>> from pelisali.engine.three_card import ThreeCardEngine
>>> state = ThreeCardEngine().new_state(Seats(1)).apply("bet ante 60000").state
>>> state.accounts()["seat 0"], [a.text() for a in state.betting_actions(0, ("ante",))]
(-50000, [])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, Protocol, cast

from pelisali.engine.contract import (
    CHANCE,
    Action,
    ChanceOutcome,
    Event,
    IllegalMove,
    Move,
    State,
    Step,
)
from pelisali.engine.wager import PlaceBet
from pelisali.games.round import Limits, RoundError
from pelisali.money import format_cents


class _Bet(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def spot(self) -> str: ...
    @property
    def stake(self) -> int: ...


class _Settled(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def paid(self) -> int: ...


class OneDeckRound(State):
    """The shared part of a round dealt from one deck; the subclass (a frozen dataclass)
    holds ``game``, ``seats``, ``deck``, ``bets`` and ``settlements``."""

    game: Any
    seats: int
    deck: tuple[str, ...]
    bets: Sequence[_Bet]
    done: tuple[bool, ...]
    settlements: Sequence[_Settled]

    # -- the bets ----------------------------------------------------------------------
    def _stake(self, seat: int, spot: str) -> int:
        return sum(b.stake for b in self.bets if b.seat == seat and b.spot == spot)

    def _in_play(self) -> list[int]:
        """The boxes dealt cards: those with a bet, in seat order."""
        return sorted({b.seat for b in self.bets})

    def betting_actions(self, seat: int, spots: Sequence[str]) -> list[Action]:
        """The bets ``seat`` may still place on ``spots``: each range's two ends."""
        limits: Limits = self.game.limits
        out: list[Action] = []
        for spot in spots:
            already = self._stake(seat, spot)
            if already >= limits.maximum:
                continue
            low = max(1, limits.minimum - already)
            out.append(PlaceBet(spot, low))
            if limits.maximum - already != low:
                out.append(PlaceBet(spot, limits.maximum - already))
        return out

    def _accept(self, bet: PlaceBet) -> tuple[int, int]:
        """(accepted, returned): the limits hold for a seat's whole stake on a bet (RAY 1.1)."""
        if isinstance(bet.stake, bool) or not isinstance(bet.stake, int) or bet.stake <= 0:
            raise IllegalMove(f"a stake is a positive whole number of cents, not {bet.stake!r}")
        spot = self.game.spot(bet.spot)
        seat = self.to_move()
        if seat is None or seat == CHANCE:
            raise IllegalMove("no seat is to act")
        try:
            accepted: tuple[int, int] = self.game.limits.accept(bet.stake,
                                                                self._stake(seat, spot), spot)
        except RoundError as error:
            raise IllegalMove(str(error)) from None
        return accepted

    def _check_progressive(self, action: PlaceBet, fee: int) -> None:
        """A progressive side bet takes exactly its ``fee``, once a box (the table's limits
        are not its): the hold'em games' progressives."""
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            raise IllegalMove("no seat is to act")
        if self._stake(mover, "progressive"):
            raise IllegalMove("the progressive is bet once a round")
        if isinstance(action.stake, bool) or not isinstance(action.stake, int) \
                or action.stake != fee:
            given = format_cents(action.stake) if isinstance(action.stake, int) \
                else repr(action.stake)
            raise IllegalMove(f"the progressive takes its fee, {format_cents(fee)}, "
                              f"not {given}")

    def _end_betting(self, seat: int, history: tuple[Move, ...]) -> Step:
        """``seat`` places no more bets; once every seat has, the cards come."""
        done = tuple(True if i == seat else d for i, d in enumerate(self.done))
        state = replace(cast(Any, self), done=done, history=history)
        events = [Event("done", f"seat {seat} places no more bets", (seat,))]
        if all(done):
            events.append(Event("no-more-bets", "no more bets" if self.bets
                                else "no bets: no round is dealt"))
        return Step(state, tuple(events))

    # -- chance: each card left, equally likely ------------------------------------------
    def chance_outcomes(self) -> tuple[tuple[ChanceOutcome, Fraction], ...]:
        if self.to_move() != CHANCE:
            return ()
        share = Fraction(1, len(self.deck))
        return tuple((ChanceOutcome(card), share) for card in self.deck)

    def chance_weights(self) -> tuple[tuple[ChanceOutcome, ...], tuple[int, ...], int]:
        if self.to_move() != CHANCE:
            return (), (), 1
        return tuple(ChanceOutcome(c) for c in self.deck), (1,) * len(self.deck), len(self.deck)

    def can_come_up(self, outcome: ChanceOutcome) -> bool:
        return self.to_move() == CHANCE and outcome.label in self.deck

    # -- what it came to ---------------------------------------------------------------
    def returns(self) -> tuple[int, ...]:
        out = [0] * self.seats
        for bet in self.bets:
            out[bet.seat] -= bet.stake
        for settled in self.settlements:
            out[settled.seat] += settled.paid
        return tuple(out)

    def accounts(self) -> Mapping[str, int]:
        out = {f"seat {i}": r for i, r in enumerate(self.returns())}
        out["table"] = 0 if self.settlements else sum(b.stake for b in self.bets)
        out["house"] = -sum(out.values())
        return out
