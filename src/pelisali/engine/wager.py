"""Wheel and dice games (RAY 1.2–1.3) under the engine contract.

A round: every seat places bets (:class:`PlaceBet`) and says it is done
(:class:`EndBetting`); then chance draws each device of the game in order
(a wheel's pocket, each die, the money wheel's segment) with its exact
probability; then a seat whose bet offers a choice (roulette D with both zero
rules) makes it (:class:`Decide`); then the round is settled. Every payout
comes from :meth:`~pelisali.games.base.WagerGame.resolve`, the same one the
tables, odds and simulator use. A bet held in prison stays on the table and is
carried into the next round with :meth:`WagerEngine.new_round`.

>>> from pelisali.engine import GAMES, Seats
>>> state = GAMES["roulette-C"].new_state(Seats(1))
>>> state = state.apply("bet red 500").state
>>> state = state.apply("done").state
>>> state.is_chance(), state.chance_outcomes()[0]
(True, (ChanceOutcome(label='0'), Fraction(1, 37)))
>>> state = state.apply("3").state
>>> state.is_terminal(), state.returns()
(True, (500,))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar

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
)
from pelisali.games.base import Choice, GameError, Held, Paid, Resolution, Spot, WagerGame
from pelisali.games.round import Limits, RoundError
from pelisali.games.spot_grammar import is_number
from pelisali.money import format_cents


@dataclass(frozen=True)
class PlaceBet:
    """A bet of ``stake`` cents on the spot ``spot`` (its canonical key).

    >>> PlaceBet("split 0-1", 250).text()
    'bet split 0-1 250'
    """

    spot: str
    stake: int

    def text(self) -> str:
        return f"bet {self.spot} {self.stake}"


@dataclass(frozen=True)
class EndBetting:
    """The seat places no more bets this round."""

    def text(self) -> str:
        return "done"


@dataclass(frozen=True)
class Decide:
    """The owner's choice for a bet that offers one (``prison``, ``half``, ``quarter``)."""

    bet_id: int
    option: str

    def text(self) -> str:
        return f"choose {self.bet_id} {self.option}"


@dataclass(frozen=True)
class WagerBet:
    """A bet in a round; ``carried`` bets were staked in an earlier round (in prison)."""

    bet_id: int
    seat: int
    spot: str
    stake: int
    level: int = 0
    carried: bool = False


@dataclass(frozen=True)
class WagerSettlement:
    """How a bet ended: ``paid`` whole cents back (stake included), ``rounding`` the part of
    a cent the house keeps (RULINGS "Everywhere"), ``held_level`` > 0 if it stays in prison."""

    bet_id: int
    seat: int
    spot: str
    stake: int
    paid: int
    rounding: Fraction
    result: str
    held_level: int = 0


class WagerEngine(Game):
    """A wheel or dice game version with its settings, under the contract."""

    family: ClassVar[str] = "wager"
    max_seats = 12

    def __init__(self, game_id: str, game: WagerGame) -> None:
        self.game_id = game_id
        self.wager = game

    def title(self) -> str:
        return self.wager.title()

    @cached_property
    def spots_by_key(self) -> dict[str, Spot]:
        return {spot.key: spot for spot in self.wager.spots()}

    @cached_property
    def device_weights(self) -> tuple[tuple[tuple[ChanceOutcome, ...], tuple[int, ...], int], ...]:
        """Each device's faces with their slot counts and the slots in all (a rule, so
        worked out once)."""
        return tuple((tuple(ChanceOutcome(face) for face in device.faces), device.weights,
                      len(device.slots)) for device in self.wager.devices)

    def new_state(self, seats: Seats) -> WagerState:
        return self.new_round(seats)

    def new_round(self, seats: Seats, carried: Sequence[WagerBet] = ()) -> WagerState:
        """A new round; ``carried`` bets (in prison from an earlier round) stand in it."""
        self.check_seats(seats)
        if seats.stacks:
            raise IllegalMove(f"{self.game_id} is played against the house; seats bring no chips")
        bets = []
        for number, bet in enumerate(carried, start=1):
            if not 0 <= bet.seat < seats.count:
                raise IllegalMove(f"a carried bet belongs to seat {bet.seat}, not at this table")
            self._spot(bet.spot)
            bets.append(replace(bet, bet_id=number, carried=True))
        limits = self.wager.rules.limits
        return WagerState(self, seats.count, Limits(limits.min, limits.max), tuple(bets),
                          (False,) * seats.count)

    def _spot(self, key: str) -> str:
        if key in self.spots_by_key:  # already a spot's key: the common case, no parsing
            return key
        try:
            return self.wager.spot(key).key
        except GameError as error:
            raise IllegalMove(str(error)) from None


@dataclass(frozen=True)
class WagerState(State):
    game: WagerEngine
    seats: int
    limits: Limits
    bets: tuple[WagerBet, ...] = ()
    done: tuple[bool, ...] = ()
    faces: tuple[str, ...] = ()
    decisions: tuple[tuple[int, str], ...] = ()
    settlements: tuple[WagerSettlement, ...] = ()
    history: tuple[Move, ...] = field(default=())

    # -- who moves ---------------------------------------------------------------
    def to_move(self) -> int | None:
        if not all(self.done):
            return self.done.index(False)
        if len(self.faces) < len(self.game.wager.devices):
            return CHANCE
        pending = self._pending()
        if pending:
            return self._bet(next(iter(pending))).seat
        return None

    def _bet(self, bet_id: int) -> WagerBet:
        for bet in self.bets:
            if bet.bet_id == bet_id:
                return bet
        raise IllegalMove(f"this round has no bet {bet_id}")

    def _resolution(self, bet: WagerBet) -> Resolution:
        return self.game.wager.resolve(self.game.spots_by_key[bet.spot], bet.stake, bet.level,
                                       self.faces)

    def _pending(self) -> dict[int, list[str]]:
        """Bets whose owner still has to choose, with the options."""
        if len(self.faces) < len(self.game.wager.devices):
            return {}
        chosen = dict(self.decisions)
        out = {}
        for bet in self.bets:
            resolution = self._resolution(bet)
            if isinstance(resolution, Choice) and bet.bet_id not in chosen:
                out[bet.bet_id] = resolution.names
        return out

    # -- what may happen -------------------------------------------------------------
    def chance_outcomes(self) -> tuple[tuple[ChanceOutcome, Fraction], ...]:
        if self.to_move() != CHANCE:
            return ()
        outcomes, weights, total = self.game.device_weights[len(self.faces)]
        return tuple((o, Fraction(w, total)) for o, w in zip(outcomes, weights, strict=True))

    def chance_weights(self) -> tuple[tuple[ChanceOutcome, ...], tuple[int, ...], int]:
        if self.to_move() != CHANCE:
            return (), (), 1
        return self.game.device_weights[len(self.faces)]

    def legal_actions(self) -> tuple[Action, ...]:
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            return ()
        pending = self._pending()
        if pending:
            bet_id, options = next(iter(pending.items()))
            return tuple(Decide(bet_id, option) for option in options)
        out: list[Action] = []
        for spot in self.game.wager.spots():
            already = self._already(mover, spot.key)
            if already >= self.limits.maximum:
                continue
            low = max(1, self.limits.minimum - already)
            high = self.limits.maximum - already
            out.append(PlaceBet(spot.key, low))
            if high != low:
                out.append(PlaceBet(spot.key, high))
        out.append(EndBetting())
        return tuple(out)

    def _already(self, seat: int, spot: str) -> int:
        return sum(b.stake for b in self.bets if b.seat == seat and b.spot == spot and not b.level)

    def parse_action(self, text: str) -> Action:
        words = text.split()
        if words == ["done"]:
            return EndBetting()
        if len(words) >= 3 and words[0] == "bet":
            stake = words[-1]
            if not is_number(stake):  # isdigit() passes "05", "٥" and "²" (which int() refuses)
                raise IllegalMove(f"a stake is a whole number of cents, not {stake!r}")
            return PlaceBet(self.game._spot(" ".join(words[1:-1])), int(stake))
        if len(words) == 3 and words[0] == "choose" and is_number(words[1]):
            return Decide(int(words[1]), words[2])
        raise IllegalMove(f"{text!r} is not an action here: 'bet SPOT CENTS', 'done' "
                          f"or 'choose BET OPTION'")

    def _check_action(self, action: Action) -> None:
        pending = self._pending()
        if isinstance(action, Decide):
            if action.bet_id not in pending:
                raise IllegalMove(f"bet {action.bet_id} has no choice to make")
            if action.option not in pending[action.bet_id]:
                raise IllegalMove(f"{action.option!r} is not an option; choose "
                                  f"{' or '.join(pending[action.bet_id])}")
            if self._bet(action.bet_id).seat != self.to_move():
                raise IllegalMove(f"bet {action.bet_id} is not seat {self.to_move()}'s")
            return
        if all(self.done):
            raise IllegalMove("no more bets")
        if isinstance(action, EndBetting):
            return
        if not isinstance(action, PlaceBet):
            raise IllegalMove(f"{action.text()!r} is not an action of {self.game.title()}")
        self._accept(action)

    def _accept(self, bet: PlaceBet) -> tuple[int, int]:
        if isinstance(bet.stake, bool) or not isinstance(bet.stake, int) or bet.stake <= 0:
            raise IllegalMove(f"a stake is a positive whole number of cents, not {bet.stake!r}")
        key = self.game._spot(bet.spot)
        seat = self.to_move()
        if seat is None or seat == CHANCE:
            raise IllegalMove("no seat is to act")
        try:
            return self.limits.accept(bet.stake, self._already(seat, key), key)
        except RoundError as error:
            raise IllegalMove(str(error)) from None

    def _apply(self, action: Action) -> Step:
        mover = self.to_move()
        if mover is None:
            raise IllegalMove("the round is over; nothing more can happen")
        history = (*self.history, Move(mover, action))
        if isinstance(action, ChanceOutcome):
            state = replace(self, faces=(*self.faces, action.label), history=history)
            events = [Event("draw", f"{self.game.wager.devices[len(self.faces)].name} shows "
                                    f"{action.label}")]
            if state.to_move() is None:
                state, settled = state._settle()
                events += settled
            return Step(state, tuple(events))
        if isinstance(action, PlaceBet):
            accepted, returned = self._accept(action)
            bet = WagerBet(len(self.bets) + 1, mover, self.game._spot(action.spot), accepted)
            text = f"seat {mover}: {format_cents(accepted)} on {bet.spot}"
            if returned:
                text += f"; {format_cents(returned)} over the table maximum is void and returned"
            return Step(replace(self, bets=(*self.bets, bet), history=history),
                        (Event("bet", text, (mover,)),))
        if isinstance(action, EndBetting):
            done = tuple(True if i == mover else d for i, d in enumerate(self.done))
            state = replace(self, done=done, history=history)
            events = [Event("done", f"seat {mover} places no more bets", (mover,))]
            if all(done):
                events.append(Event("no-more-bets", "no more bets"))
            return Step(state, tuple(events))
        if not isinstance(action, Decide):
            raise IllegalMove(f"{action.text()!r} is not an action of {self.game.title()}")
        state = replace(self, decisions=(*self.decisions, (action.bet_id, action.option)),
                        history=history)
        events = [Event("choice", f"bet {action.bet_id} chooses {action.option}", (mover,))]
        if state.to_move() is None:
            state, settled = state._settle()
            events += settled
        return Step(state, tuple(events))

    def _settle(self) -> tuple[WagerState, list[Event]]:
        chosen = dict(self.decisions)
        out = []
        events = [Event("result", f"result {self.game.wager.describe(self.faces)}")]
        for bet in self.bets:
            resolution = self._resolution(bet)
            if isinstance(resolution, Choice):
                resolution = resolution.option(chosen[bet.bet_id])
            if isinstance(resolution, Paid):
                paid = resolution.amount.numerator // resolution.amount.denominator
                settled = WagerSettlement(bet.bet_id, bet.seat, bet.spot, bet.stake, paid,
                                          resolution.amount - paid, resolution.result)
            elif isinstance(resolution, Held):
                settled = WagerSettlement(bet.bet_id, bet.seat, bet.spot, bet.stake, 0,
                                          Fraction(0), resolution.result, resolution.level)
            else:
                raise GameError(f"bet {bet.bet_id} was settled before its choice was made")
            out.append(settled)
            events.append(Event("settled", f"bet {bet.bet_id} on {bet.spot}: {settled.result}, "
                                           f"{format_cents(settled.paid)} back", (bet.seat,),
                                private=True))
        return replace(self, settlements=tuple(out)), events

    # -- after the round -----------------------------------------------------------------
    def carried_forward(self) -> tuple[WagerBet, ...]:
        """The bets that stay on the table in prison, for :meth:`WagerEngine.new_round`."""
        bets = {b.bet_id: b for b in self.bets}
        return tuple(replace(bets[s.bet_id], level=s.held_level)
                     for s in self.settlements if s.held_level)

    def view(self, seat: int | None) -> dict[str, Any]:
        """Public: the phase, the faces drawn, the total staked. A seat also sees its own bets
        and settlements (GGPoker live roulette: each player their own)."""
        mover = self.to_move()
        out: dict[str, Any] = {
            "game": self.game.game_id,
            "to_move": "chance" if mover == CHANCE else mover,
            "faces": list(self.faces),
            "on_table": sum(b.stake for b in self.bets),
        }
        if seat is not None:
            out["bets"] = [{"bet_id": b.bet_id, "spot": b.spot, "stake": b.stake,
                            "level": b.level} for b in self.bets if b.seat == seat]
            out["settlements"] = [{"bet_id": s.bet_id, "paid": s.paid, "result": s.result,
                                   "held_level": s.held_level}
                                  for s in self.settlements if s.seat == seat]
            out["choices"] = {str(k): v for k, v in self._pending().items()
                              if self._bet(k).seat == seat}
        return out

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        return frozenset()  # nothing at a wheel or dice table is hidden

    def returns(self) -> tuple[int, ...]:
        out = [0] * self.seats
        for bet in self.bets:
            if not bet.carried:
                out[bet.seat] -= bet.stake
        for settled in self.settlements:
            out[settled.seat] += settled.paid
        return tuple(out)

    def accounts(self) -> Mapping[str, int]:
        decided = [s for s in self.settlements if not s.held_level]
        carried_in = sum(b.stake for b in self.bets if b.carried)
        if self.settlements:
            on_table = sum(s.stake for s in self.settlements if s.held_level)
        else:
            on_table = sum(b.stake for b in self.bets)
        out = {f"seat {i}": r for i, r in enumerate(self.returns())}
        out["table"] = on_table - carried_in
        out["house"] = sum(s.stake - s.paid for s in decided)
        return out


def wager_engines() -> dict[str, Game]:
    """Every wheel and dice game version: roulette A–I, boule, money wheel, Tuplanoppa, Sic Bo."""
    from pelisali.games import ROULETTE_VARIANTS, make_game

    out: dict[str, Game] = {}
    for variant in ROULETTE_VARIANTS:
        out[f"roulette-{variant}"] = WagerEngine(f"roulette-{variant}",
                                                 make_game("roulette", variant))
    for name in ("boule", "money-wheel", "tuplanoppa", "sic-bo"):
        out[name] = WagerEngine(name, make_game(name))
    return out


def with_settings(engine: WagerEngine, settings: Mapping[str, str | bool]) -> WagerEngine:
    """The same game with table settings (roulette D's zero rule, Tuplanoppa's drawing)."""
    from pelisali.games import make_game

    wager = engine.wager
    return WagerEngine(engine.game_id, make_game(wager.name, wager.variant or None,
                                                 {**wager.settings, **settings}))
