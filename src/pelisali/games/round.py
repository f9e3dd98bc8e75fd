"""One round of a wager game: bets, "no more bets", the draws, settlement or a void.

The round is the only way bets meet the engine. Each bet is checked against
the table's limits as it is placed (RAY 1.1: an excess over the maximum is
void and returned, a bet under the minimum is refused). After "no more bets"
nothing can be added, removed or changed. The draws are made with an
injected generator (or entered from a physical device) and recorded; the
settlement runs through :class:`~pelisali.games.batch.SettlementTable`, the
same path the simulator uses. :meth:`Round.record` holds everything needed to
replay the round with :func:`replay`.

>>> from pelisali.games import make_game
>>> from pelisali.rng import SeededRng
>>> rnd = Round(make_game("roulette", "C"), "r1")
>>> rnd.place("ann", "red", 500).accepted
500
>>> rnd.close()
>>> _ = rnd.apply_draws(rnd.game.draws_for(("3",)))
>>> [(s.spot, s.paid) for s in rnd.settle()]
[('red', 1000)]
>>> replay(rnd.record()) == rnd.settlements
True
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from pelisali.games.base import Choice, Draw, GameError, Held, Outcome, Paid, Spot, WagerGame
from pelisali.games.batch import UNDECIDED, SettlementTable
from pelisali.money import format_cents
from pelisali.rng import Rng


class RoundError(GameError):
    """An action the round's state or the table's limits refuse; nothing was changed."""


class Status(enum.Enum):
    BETTING = "betting"
    CLOSED = "closed"  # no more bets
    DECIDING = "deciding"  # drawn; a player must choose (roulette D, both zero rules)
    DRAWN = "drawn"  # drawn and every choice made: ready to settle
    SETTLED = "settled"
    VOID = "void"


@dataclass(frozen=True)
class Limits:
    """Per-bet table minimum and maximum, in cents."""

    minimum: int
    maximum: int

    def __post_init__(self) -> None:
        if not 0 < self.minimum <= self.maximum:
            raise RoundError(f"invalid limits {self.minimum}..{self.maximum}")

    def accept(self, stake: int, already: int, spot: str) -> tuple[int, int]:
        """(accepted, returned) of ``stake`` on a spot where the player has ``already``.

        The limits hold for a player's whole stake on a spot (RAY 1.1): under the
        minimum is refused, the excess over the maximum is void and returned.
        """
        if stake + already < self.minimum:
            raise RoundError(f"{format_cents(stake)} is under the table minimum "
                             f"{format_cents(self.minimum)}")
        if already >= self.maximum:
            raise RoundError(f"{spot} already holds the table maximum "
                             f"{format_cents(self.maximum)}")
        accepted = min(stake, self.maximum - already)
        return accepted, stake - accepted


@dataclass
class Bet:
    bet_id: int
    player: str
    spot: Spot
    stake: int
    level: int = 0  # prison level carried in from an earlier round
    carried: bool = False  # stake was taken in an earlier round


@dataclass(frozen=True)
class Receipt:
    """What happened to a placed bet: the amount accepted and any excess returned."""

    bet_id: int
    accepted: int
    returned: int
    message: str


@dataclass(frozen=True)
class Settlement:
    bet_id: int
    player: str
    spot: str
    stake: int
    paid: int  # whole cents returned to the player, stake included
    rounding: Fraction  # fraction of a cent kept by the house (RULINGS "Everywhere")
    result: str  # win, lose, half, quarter, release, prison
    held_level: int = 0  # > 0: the bet stays on the table in prison

    def to_json(self) -> dict[str, Any]:
        return {
            "bet_id": self.bet_id, "player": self.player, "spot": self.spot,
            "stake": self.stake, "paid": self.paid,
            "rounding": f"{self.rounding.numerator}/{self.rounding.denominator}",
            "result": self.result, "held_level": self.held_level,
        }


@dataclass
class Round:
    game: WagerGame
    round_id: str
    limits: Limits | None = None
    carried: Sequence[Bet] = ()
    status: Status = Status.BETTING
    bets: list[Bet] = field(default_factory=list)
    draws: list[Draw] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    decisions: dict[int, str] = field(default_factory=dict)
    settlements: list[Settlement] = field(default_factory=list)
    void_reason: str | None = None
    events: list[str] = field(default_factory=list)
    venue: str = ""  # where and when, given by the table: engines read no clock
    table_id: str = ""
    opened_at: str | None = None
    _next_id: int = 1
    _table: SettlementTable | None = None
    _outcome_index: int | None = None

    def __post_init__(self) -> None:
        if self.limits is None:
            lim = self.game.rules.limits
            self.limits = Limits(lim.min, lim.max)
        for bet in self.carried:
            self.bets.append(Bet(self._take_id(), bet.player, bet.spot, bet.stake, bet.level,
                                 carried=True))

    def _take_id(self) -> int:
        self._next_id += 1
        return self._next_id - 1

    def _require(self, *allowed: Status) -> None:
        if self.status not in allowed:
            raise RoundError(f"round {self.round_id} is {self.status.value}; "
                             f"that needs it to be {' or '.join(s.value for s in allowed)}")

    # -- betting ---------------------------------------------------------------
    def check(self, spot: str | Spot, stake: int,
              player: str | None = None) -> tuple[Spot, int, int, str]:
        """Validate a bet without placing it: (spot, accepted, returned, message).

        The limits hold for a player's whole stake on a spot, so a second bet on
        the same spot cannot pass the maximum (RAY 1.1: the excess is void).
        """
        self._require(Status.BETTING)
        if isinstance(stake, bool) or not isinstance(stake, int):
            raise RoundError(f"a stake is a whole number of cents, not {stake!r}")
        if stake <= 0:
            raise RoundError(f"a stake must be positive, not {format_cents(stake)}")
        resolved = spot if isinstance(spot, Spot) else self.game.spot(spot)
        if not self.game.has_spot(resolved):
            raise RoundError(f"{resolved.key} is not a spot of {self.game.title()}")
        if self.limits is None:
            raise RuntimeError("__post_init__ sets the limits")
        already = sum(b.stake for b in self.bets
                      if b.player == player and b.spot == resolved and not b.level)
        accepted, returned = self.limits.accept(stake, already, resolved.key)
        message = (f"{format_cents(accepted)} on {resolved.key}" if not returned else
                   f"{format_cents(accepted)} on {resolved.key}: {format_cents(returned)} over "
                   f"the table maximum is void and returned")
        return resolved, accepted, returned, message

    def place(self, player: str, spot: str | Spot, stake: int) -> Receipt:
        """Place a bet while betting is open; refused bets change nothing."""
        resolved, accepted, returned, message = self.check(spot, stake, player)
        bet = Bet(self._take_id(), player, resolved, accepted)
        self.bets.append(bet)
        self.events.append(f"bet {bet.bet_id} {player} {message}")
        return Receipt(bet.bet_id, accepted, returned, message)

    def withdraw(self, bet_id: int) -> Bet:
        """Take a bet back before "no more bets" (never an imprisoned one)."""
        self._require(Status.BETTING)
        bet = self._bet(bet_id)
        if bet.level:
            raise RoundError(f"bet {bet_id} is in prison and cannot be removed or changed")
        self.bets.remove(bet)
        self.events.append(f"bet {bet_id} withdrawn")
        return bet

    def _bet(self, bet_id: int) -> Bet:
        for bet in self.bets:
            if bet.bet_id == bet_id:
                return bet
        raise RoundError(f"round {self.round_id} has no bet {bet_id}")

    def close(self) -> None:
        """No more bets."""
        self._require(Status.BETTING)
        self.status = Status.CLOSED
        self.events.append("no more bets")

    # -- draws and settlement ------------------------------------------------------
    def draw(self, rng: Rng) -> Outcome:
        """Draw every device with ``rng`` and record it."""
        self._require(Status.CLOSED)
        return self.apply_draws(self.game.draw(rng))

    def reject_draw(self, draws: Sequence[Draw], reason: str) -> None:
        """A throw the dealer rejects (off the area, stacked, cocked): recorded, not used."""
        self._require(Status.CLOSED)
        self.rejected.append({"draws": [d.to_json() for d in draws], "reason": reason})
        self.events.append(f"throw rejected: {reason}")

    def apply_draws(self, draws: Sequence[Draw]) -> Outcome:
        """Use recorded or dealer-entered draws; the round then settles or awaits choices."""
        self._require(Status.CLOSED)
        outcome = self.game.outcome_of(draws)
        self.draws = list(draws)
        self._table = SettlementTable(self.game, [(b.spot, b.stake, b.level) for b in self.bets])
        self._outcome_index = self.game.outcome_index(outcome)
        self.events.append(f"result {self.game.describe(outcome)}")
        self.status = Status.DECIDING if self.pending_choices() else Status.DRAWN
        return outcome

    def pending_choices(self) -> dict[int, list[str]]:
        """Bets whose owner must choose before settlement, with their options."""
        if self._table is None or self._outcome_index is None:
            return {}
        out = {}
        for b, bet in enumerate(self.bets):
            res = self._table.resolution(self._outcome_index, b)
            if isinstance(res, Choice) and bet.bet_id not in self.decisions:
                out[bet.bet_id] = res.names
        return out

    def decide(self, bet_id: int, option: str) -> None:
        """The player's choice for a bet that offers one (e.g. prison or half back)."""
        self._require(Status.DECIDING)
        choices = self.pending_choices()
        if bet_id not in choices:
            raise RoundError(f"bet {bet_id} has no choice to make")
        if option not in choices[bet_id]:
            raise RoundError(f"'{option}' is not an option; choose {' or '.join(choices[bet_id])}")
        self.decisions[bet_id] = option
        self.events.append(f"bet {bet_id} chooses {option}")
        if not self.pending_choices():
            self.status = Status.DRAWN

    def settle(self) -> list[Settlement]:
        """Settle every bet on the drawn outcome (a batch of one through the batch path)."""
        if self.status is Status.DECIDING:
            raise RoundError(f"choices still open: {self.pending_choices()}")
        if self.status is Status.CLOSED:
            raise RoundError("nothing drawn yet")
        self._require(Status.DRAWN)
        if self._table is None or self._outcome_index is None:
            raise RuntimeError("a drawn round has its settlement table and outcome")
        index = np.array([self._outcome_index], dtype=np.int64)
        paid_row = self._table.settle(index)[0]
        held_row = self._table.held_levels(index)[0]
        out = []
        for b, bet in enumerate(self.bets):
            res = self._table.resolution(self._outcome_index, b)
            paid, held = int(paid_row[b]), int(held_row[b])
            rounding = self._table.rounding_of(self._outcome_index, b)
            if held == UNDECIDED:
                if not isinstance(res, Choice):
                    raise RuntimeError(f"an undecided bet rests on a choice, not {res!r}")
                res = res.option(self.decisions[bet.bet_id])
                if isinstance(res, Paid):
                    paid = res.amount.numerator // res.amount.denominator
                    rounding, held = res.amount - paid, 0
                else:
                    held = res.level
            result = res.result if isinstance(res, Paid | Held) else "prison"
            out.append(Settlement(bet.bet_id, bet.player, bet.spot.key, bet.stake, paid,
                                  rounding, result, held))
        self.settlements = out
        self.status = Status.SETTLED
        self.events.append("settled")
        return out

    def void(self, reason: str) -> list[Bet]:
        """Void the round (mis-spin, device fault): nothing is paid; every bet stands.

        Returns the standing bets: the table carries them to the next round or
        returns them to their players, who may also change them (RAY 1.2.1);
        imprisoned bets stay in prison.
        """
        # A void is declared while the round is still in progress, before the result
        # (RAY 1.2.1: "pelikierroksen ollessa vielä kesken").
        self._require(Status.BETTING, Status.CLOSED)
        self.status = Status.VOID
        self.void_reason = reason
        self.events.append(f"void: {reason}")
        return list(self.bets)

    # -- accounting and records ------------------------------------------------------
    @property
    def new_stakes(self) -> int:
        """Cents taken from players in this round (not counting bets carried in)."""
        return sum(b.stake for b in self.bets if not b.carried)

    def record(self) -> dict[str, Any]:
        """Everything needed to replay the round: settings, bets, draws, choices, results."""
        if self.limits is None:
            raise RuntimeError("__post_init__ sets the limits")
        return {
            "round_id": self.round_id,
            "venue": self.venue,
            "table": self.table_id,
            "opened_at": self.opened_at,
            "game": self.game.name,
            "variant": self.game.variant,
            "settings": dict(self.game.settings),
            "limits": {"min": self.limits.minimum, "max": self.limits.maximum},
            "status": self.status.value,
            "void_reason": self.void_reason,
            "bets": [{"bet_id": b.bet_id, "player": b.player, "spot": b.spot.key,
                      "stake": b.stake, "level": b.level, "carried": b.carried}
                     for b in self.bets],
            "rejected_draws": list(self.rejected),
            "draws": [d.to_json() for d in self.draws],
            "decisions": {str(k): v for k, v in self.decisions.items()},
            "settlements": [s.to_json() for s in self.settlements],
            "events": list(self.events),
        }


def replay(record: Mapping[str, Any]) -> list[Settlement]:
    """Re-run a recorded round through the engine and return its settlements."""
    from pelisali.games import make_game

    game = make_game(record["game"], record["variant"] or None, record["settings"])
    limits = Limits(record["limits"]["min"], record["limits"]["max"])
    rnd = Round(game, record["round_id"], limits, venue=record.get("venue", ""),
                table_id=record.get("table", ""), opened_at=record.get("opened_at"))
    for raw in record["bets"]:
        rnd.bets.append(Bet(raw["bet_id"], raw["player"], game.spot(raw["spot"]), raw["stake"],
                            raw["level"], raw["carried"]))
    if record["status"] == Status.VOID.value:
        return []
    rnd.close()
    rnd.apply_draws([Draw(d["device"], d["slot"], d["face"]) for d in record["draws"]])
    for bet_id, option in record["decisions"].items():
        rnd.decide(int(bet_id), option)
    return rnd.settle()
