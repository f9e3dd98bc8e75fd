"""The batch path: a set of bets resolved against every outcome once, then looked up.

Play settles a batch of one round and simulation a batch of millions through
the same :class:`SettlementTable`, built by calling the game's own
:meth:`~pelisali.games.base.WagerGame.resolve` for each distinct outcome, so
speed never needs a second settlement.

>>> from pelisali.games import make_game
>>> from pelisali.rng import SeededRng
>>> game = make_game("roulette", "C")
>>> table = SettlementTable(game, [(game.spot("red"), 100, 0)])
>>> int(table.settle(game.draw_many(SeededRng(1), 1000)).sum()) % 200
0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from weakref import WeakKeyDictionary

import numpy as np
import numpy.typing as npt

from pelisali.games.base import Choice, Held, Paid, Resolution, Spot, WagerGame

# Chooses an option for a Choice resolution: (spot, stake, level, choice) -> option name.
Policy = Callable[[Spot, int, int, Choice], str]

UNDECIDED = -1
_Column = tuple[npt.NDArray[np.int64], npt.NDArray[np.object_], npt.NDArray[np.int64]]


class SettlementTable:
    """Resolutions of ``bets`` (spot, stake, prison level) for every outcome of ``game``.

    ``paid[o, b]`` is the whole cents bet ``b`` returns on outcome ``o`` and
    ``held[o, b]`` the prison level it is held at instead (0 when decided).
    Choices are taken by ``policy``; without one they are left undecided
    (``held == -1``) for the player to make.
    """

    def __init__(
        self,
        game: WagerGame,
        bets: Sequence[tuple[Spot, int, int]],
        policy: Policy | None = None,
    ) -> None:
        self.game = game
        self.bets = list(bets)
        n_out, n_bets = game.outcome_count, len(self.bets)
        self.resolutions: list[tuple[Resolution, ...]] = [
            game.resolution_column(spot, stake, level) for spot, stake, level in self.bets
        ]
        self.paid = np.zeros((n_out, n_bets), dtype=np.int64)
        self.rounding = np.zeros((n_out, n_bets), dtype=object)
        self.held = np.zeros((n_out, n_bets), dtype=np.int64)
        for b, (spot, stake, level) in enumerate(self.bets):
            key = (spot.key, stake, level)
            cached = _UNDECIDED_COLUMNS.get(game, {}).get(key) if policy is None else None
            if cached is None:
                cached = _numeric_column(self.resolutions[b], spot, stake, level, policy)
                if policy is None:
                    _UNDECIDED_COLUMNS.setdefault(game, {})[key] = cached
            self.paid[:, b], self.rounding[:, b], self.held[:, b] = cached

    @property
    def can_hold(self) -> bool:
        """Whether any bet can be held over (prison) or await a choice on some outcome."""
        return bool(self.held.any())

    def settle(self, outcomes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Whole cents returned to each bet (columns) in each round (rows)."""
        return self.paid[outcomes]

    def held_levels(self, outcomes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        return self.held[outcomes]

    def resolution(self, outcome: int, bet: int) -> Resolution:
        return self.resolutions[bet][outcome]

    def rounding_of(self, outcome: int, bet: int) -> Fraction:
        value = self.rounding[outcome, bet]
        return value if isinstance(value, Fraction) else Fraction(0)


# Numeric columns of play's tables (no policy), per game, so a round of play costs a lookup.
_UNDECIDED_COLUMNS: WeakKeyDictionary[WagerGame, dict[tuple[str, int, int], _Column]] = (
    WeakKeyDictionary())


def _numeric_column(
    column: Sequence[Resolution], spot: Spot, stake: int, level: int, policy: Policy | None
) -> _Column:
    paid = np.zeros(len(column), dtype=np.int64)
    rounding = np.zeros(len(column), dtype=object)
    held = np.zeros(len(column), dtype=np.int64)
    for o, resolution in enumerate(column):
        if isinstance(resolution, Choice):
            if policy is None:
                held[o] = UNDECIDED
                continue
            resolution = resolution.option(policy(spot, stake, level, resolution))
        if isinstance(resolution, Paid):
            whole = resolution.amount.numerator // resolution.amount.denominator
            paid[o] = whole
            rounding[o] = resolution.amount - whole
        else:
            held[o] = resolution.level
    return paid, rounding, held


def choose_by_value(values: dict[tuple[str, int], Fraction]) -> Policy:
    """A policy taking the option worth most, valuing a Held bet by ``values``.

    ``values[(bet_type, level)]`` is the exact expected return per unit of
    stake of a bet held at ``level`` (found by :mod:`pelisali.analysis.odds`).
    """

    def policy(spot: Spot, stake: int, level: int, choice: Choice) -> str:
        def worth(option: Paid | Held) -> Fraction:
            if isinstance(option, Paid):
                return option.amount
            return values[(spot.bet_type, option.level)] * stake

        return max(choice.options, key=lambda kv: worth(kv[1]))[0]

    return policy
