"""Exact punto banco odds by enumerating every way a hand can be dealt from a shoe.

The shoe is a composition: how many cards of each baccarat value (0 for ten
and faces, 1 for aces, 2-9) remain. The walk follows
:func:`pelisali.games.punto_banco.next_card` card by card, so the drawing
rules are the engine's own, and settles each finished hand with the table's
:meth:`~pelisali.games.punto_banco.PuntoBancoConfig.bet_return`. Every path's
weight is an integer count of ordered card sequences, so the result is exact.

>>> result = baccarat_odds(full_shoe(8))
>>> result.rtp["banker"], round(float(1 - result.rtp["banker"]), 6)
(Fraction(10732465128097, 10847218479825), 0.010579)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pelisali.games.base import GameError
from pelisali.games.punto_banco import BETS, PuntoBancoConfig, next_card, winner

RANK_TO_VALUE = {"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0, **{str(n): n for n in range(2, 10)}}
REFERENCE_STAKE = 2000  # 5 % of it is whole cents, so rounding plays no part


def full_shoe(decks: int) -> tuple[int, ...]:
    """Counts of values 0-9 in ``decks`` full decks (16 ten-value cards a deck)."""
    return (16 * decks, *([4 * decks] * 9))


def parse_composition(text: str) -> tuple[int, ...]:
    """``"A=31,2=32,...,K=32"`` (by rank), ``"0=128,1=32,..."`` (by value), or ten counts.

    >>> parse_composition("128,32,32,32,32,32,32,32,32,32") == full_shoe(8)
    True
    >>> parse_composition("A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=4,J=4,Q=4,K=4") == full_shoe(1)
    True
    """
    parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    if parts and all("=" not in p for p in parts):
        if len(parts) != 10 or not all(p.isdigit() for p in parts):
            raise GameError("give ten counts, for values 0 (ten and faces) to 9, "
                            "or KEY=COUNT pairs by rank (A 2-9 T J Q K) or by value (0-9)")
        return tuple(int(p) for p in parts)
    counts = [0] * 10
    seen: set[str] = set()
    by_rank = any(p.split("=")[0].strip().upper() in "ATJQK" for p in parts)
    for part in parts:
        key, _, value = part.partition("=")
        key, value = key.strip().upper(), value.strip()
        if not value.isdigit():
            raise GameError(f"{part!r}: the count must be a whole number")
        if key in seen:
            raise GameError(f"{key} is given twice")
        seen.add(key)
        if by_rank:
            if key not in RANK_TO_VALUE:
                raise GameError(f"{key!r} is not a rank (A 2-9 T J Q K)")
            counts[RANK_TO_VALUE[key]] += int(value)
        else:
            if not key.isdigit() or not 0 <= int(key) <= 9:
                raise GameError(f"{key!r} is not a baccarat value 0-9")
            counts[int(key)] = int(value)
    expected = set("A23456789TJQK") if by_rank else {str(v) for v in range(10)}
    missing = expected - seen
    if missing:
        raise GameError(f"counts missing for {', '.join(sorted(missing))}")
    return tuple(counts)


@dataclass(frozen=True)
class BaccaratOdds:
    composition: tuple[int, ...]
    outcomes: dict[str, Fraction]  # player, banker, tie probabilities
    rtp: dict[str, Fraction]

    def to_json(self) -> dict[str, object]:
        return {
            "composition": {str(v): n for v, n in enumerate(self.composition)},
            "cards": sum(self.composition),
            "outcomes": {k: f"{v.numerator}/{v.denominator}" for k, v in self.outcomes.items()},
            "bets": [{"bet": bet, "rtp": f"{r.numerator}/{r.denominator}",
                      "house_edge": float(1 - r)} for bet, r in self.rtp.items()],
        }


def baccarat_odds(composition: tuple[int, ...],
                  config: PuntoBancoConfig | None = None) -> BaccaratOdds:
    """Exact outcome probabilities and RTP of each bet for a shoe ``composition``."""
    config = config or PuntoBancoConfig()
    if len(composition) != 10 or any(c < 0 for c in composition):
        raise GameError("a composition is ten non-negative counts, values 0-9")
    total_cards = sum(composition)
    if total_cards < 6:
        raise GameError("a hand can need six cards; the shoe holds fewer")
    counts = list(composition)
    tally = {"player": 0, "banker": 0, "tie": 0}
    # Weight of a finished hand of k cards: ordered ways to draw it, times the ways
    # to draw the unused 6-k cards, so every hand shares the denominator N(N-1)...(N-5).
    falling = [_falling(total_cards - dealt, 6 - dealt) for dealt in range(7)]

    def walk(player: tuple[int, ...], banker: tuple[int, ...], weight: int) -> None:
        """Deal every possible next card to whoever :func:`next_card` says gets it."""
        side = next_card(player, banker)
        dealt = len(player) + len(banker) + 1
        for value in range(10):
            n = counts[value]
            if n == 0:
                continue
            if side == "player":
                child_player, child_banker = (*player, value), banker
            else:
                child_player, child_banker = player, (*banker, value)
            if next_card(child_player, child_banker) is None:  # a finished hand
                tally[winner(child_player, child_banker)] += weight * n * falling[dealt]
                continue
            counts[value] = n - 1
            walk(child_player, child_banker, weight * n)
            counts[value] = n

    walk((), (), 1)
    denominator = _falling(total_cards, 6)
    outcomes = {k: Fraction(v, denominator) for k, v in tally.items()}
    rtp = {}
    for bet in BETS:
        value = Fraction(0)
        for result, p in outcomes.items():
            returned, _ = config.bet_return(bet, result, REFERENCE_STAKE)
            value += p * returned
        rtp[bet] = value / REFERENCE_STAKE
    return BaccaratOdds(tuple(composition), outcomes, rtp)


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out
