"""Exact return to player by walking a game's chance outcomes with exact fractions.

Nothing here knows a payout: every value comes from
:meth:`~pelisali.games.base.WagerGame.resolve`. A bet that can be held over
(en prison) is a small Markov chain over its prison levels, solved exactly;
where the player chooses (roulette D with both zero rules) every choice
policy is solved and the best one kept.

>>> from pelisali.games import make_game
>>> rows = {row.bet: row for row in exact_odds(make_game("roulette", "C"))}
>>> rows["straight"].rtp, rows["red"].rtp
(Fraction(36, 37), Fraction(36, 37))
>>> d = {r.bet: r.rtp for r in exact_odds(make_game("roulette", "D", {"zero_rule": "en_prison"}))}
>>> d["red"]
Fraction(49302, 49987)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction

from pelisali.games.base import Choice, GameError, Held, Paid, Resolution, Spot, WagerGame

# A stake whose half and quarter are whole cents, so rounding plays no part in the value.
REFERENCE_STAKE = 400
MAX_POLICIES = 4096


@dataclass(frozen=True)
class BetValue:
    """The exact value of one spot: return per unit staked, from each prison level."""

    spot: Spot
    by_level: dict[int, Fraction]
    policy: dict[tuple[int, int], str] = field(default_factory=dict)

    @property
    def rtp(self) -> Fraction:
        return self.by_level[0]


@dataclass(frozen=True)
class BetOdds:
    bet: str
    payout: str
    rtp: Fraction
    spots: int
    policy: dict[tuple[int, int], str]

    @property
    def house_edge(self) -> Fraction:
        return 1 - self.rtp

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "bet": self.bet,
            "payout": self.payout,
            "rtp": f"{self.rtp.numerator}/{self.rtp.denominator}",
            "house_edge": float(self.house_edge),
            "spots": self.spots,
        }
        if self.policy:
            out["best_choices"] = {f"level {lv} zero": opt for (lv, _o), opt in
                                   sorted(self.policy.items())}
        return out


def spot_value(game: WagerGame, spot: Spot, stake: int = REFERENCE_STAKE) -> BetValue:
    """Exact expected return per unit of ``stake`` of a bet on ``spot``, from every level."""
    outcomes = list(game.outcomes())
    total = game.total_weight
    # Whole weights until the solve: one division a level instead of one an outcome.
    table: dict[int, list[tuple[int, Resolution]]] = {}
    pending, seen = [0], {0}
    while pending:
        level = pending.pop()
        rows = [(w, game.resolve(spot, stake, level, o)) for _, o, w in outcomes]
        table[level] = rows
        for _p, res in rows:
            options = [opt for _, opt in res.options] if isinstance(res, Choice) else [res]
            for opt in options:
                if isinstance(opt, Held) and opt.level not in seen:
                    seen.add(opt.level)
                    pending.append(opt.level)
    levels = sorted(table)
    decisions = [(lv, i, res) for lv in levels for i, (_p, res) in enumerate(table[lv])
                 if isinstance(res, Choice)]
    choice_sets = [res.names for _lv, _i, res in decisions]
    policies = itertools.islice(itertools.product(*choice_sets), MAX_POLICIES + 1)
    if len(list(policies)) > MAX_POLICIES:
        raise GameError(f"too many choice policies to solve exactly for {spot.key}")
    best: BetValue | None = None
    for picks in itertools.product(*choice_sets):
        chosen = {(lv, i): pick for (lv, i, _res), pick in zip(decisions, picks, strict=True)}
        values = _solve(levels, table, chosen, stake, total)
        # The best policy is best from every level at once; compare level 0 first.
        if best is None or [values[lv] for lv in levels] > [best.by_level[lv] for lv in levels]:
            best = BetValue(spot, values, chosen)
    if best is None:  # itertools.product of the choice sets was empty
        raise GameError(f"a choice on {spot.key} has no options")
    return best


def _solve(
    levels: list[int],
    table: dict[int, list[tuple[int, Resolution]]],
    chosen: dict[tuple[int, int], str],
    stake: int,
    total: int,
) -> dict[int, Fraction]:
    """Solve V[l] = sum p * (paid/stake or V[held level]) exactly (Gauss–Jordan), each
    outcome's probability its weight over ``total``."""
    index = {lv: k for k, lv in enumerate(levels)}
    n = len(levels)
    matrix = [[Fraction(int(r == c)) for c in range(n)] + [Fraction(0)] for r in range(n)]
    for lv in levels:
        row = matrix[index[lv]]
        paid = Fraction(0)  # sum of weight * amount paid
        held = [0] * n  # weight going to each held level
        for i, (w, res) in enumerate(table[lv]):
            final = res.option(chosen[(lv, i)]) if isinstance(res, Choice) else res
            if isinstance(final, Paid):
                paid += w * final.amount
            else:
                held[index[final.level]] += w
        row[n] = Fraction(paid, total * stake)
        for k, weight in enumerate(held):
            if weight:
                row[k] -= Fraction(weight, total)
    for col in range(n):
        pivot = next(r for r in range(col, n) if matrix[r][col] != 0)
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        head = matrix[col][col]
        matrix[col] = [x / head for x in matrix[col]]
        for r in range(n):
            if r != col and matrix[r][col] != 0:
                factor = matrix[r][col]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[col], strict=True)]
    return {lv: matrix[index[lv]][n] for lv in levels}


def exact_odds(game: WagerGame) -> list[BetOdds]:
    """Exact RTP of every bet type, checking that every spot of a type agrees."""
    out = []
    for bet_type in game.bet_types():
        spots = game.spots_of(bet_type)
        values = [spot_value(game, spot) for spot in spots]
        rtps = {v.rtp for v in values}
        if len(rtps) != 1:
            raise GameError(
                f"{game.title()}: spots of {bet_type} differ in value: "
                + ", ".join(f"{v.spot.key}={v.rtp}" for v in values)
            )
        out.append(BetOdds(bet_type, game.payout_label(bet_type), values[0].rtp, len(spots),
                           values[0].policy))
    return out


def held_values(game: WagerGame) -> dict[tuple[str, int], Fraction]:
    """Exact value per unit of a held bet of each type at each prison level (best play)."""
    out: dict[tuple[str, int], Fraction] = {}
    for bet_type in game.bet_types():
        value = spot_value(game, game.spots_of(bet_type)[0])
        for level, v in value.by_level.items():
            out[(bet_type, level)] = v
    return out
