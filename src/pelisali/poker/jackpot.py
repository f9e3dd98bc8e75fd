"""The bad-beat jackpot exactly as RAY 2016 1.4.1.1.1 writes it; every number a setting.

- Contributions: a fixed sum from each hand at a jackpot table, only when the hand
  began with the posted minimum of players and reached the second betting round.
- The day's contributions are added to the jackpot at the end of the gaming day.
- A qualifying hand that loses to a better hand triggers it. With several
  qualifying hands the two best are the triggering hands (the best wins, the
  second is the losing hand). Equal qualifying hands share the part their hand
  earns and take one share each of the other players' part.
- Shares: the losing hand, the winning hand and the other players of the hand
  each get a percentage of the jackpot; the rest seeds the next jackpot, which
  the house guarantees at a minimum.
- The jackpot may be refused when a player revealed cards during the hand.

>>> from fractions import Fraction
>>> from pelisali.poker.hands import pack
>>> jp = BadBeatJackpot(BadBeatRules(qualifying=pack(7, [6]), min_players=4, contribution=100,
...     losing_share=Fraction(50, 100), winning_share=Fraction(25, 100),
...     table_share=Fraction(15, 100), guaranteed_minimum=10_000), amount=100_000)
>>> payout = jp.settle({"ann": pack(8, [7]), "bob": pack(7, [11]), "cid": pack(1, [3])},
...                    ["ann", "bob", "cid", "dan"])
>>> payout.shares
{'bob': 50000, 'ann': 25000, 'cid': 7500, 'dan': 7500}
>>> jp.amount
10000
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction


class JackpotError(ValueError):
    """A jackpot setting or operation the rules refuse."""


@dataclass(frozen=True)
class BadBeatRules:
    qualifying: int  # the weakest hand value that qualifies (e.g. four eights)
    min_players: int  # at the start of the hand
    contribution: int  # cents from each qualifying hand's pot
    losing_share: Fraction
    winning_share: Fraction
    table_share: Fraction  # split among the other players of the hand
    guaranteed_minimum: int  # the next jackpot starts at least here

    def __post_init__(self) -> None:
        total = self.losing_share + self.winning_share + self.table_share
        if not 0 <= total <= 1 or min(self.losing_share, self.winning_share,
                                      self.table_share) < 0:
            raise JackpotError("the shares must be percentages adding up to at most 100 %")
        if self.min_players < 2 or self.contribution < 0 or self.guaranteed_minimum < 0:
            raise JackpotError("invalid jackpot settings")


@dataclass(frozen=True)
class Payout:
    shares: dict[str, int]
    seed: int  # what starts the next jackpot (before the guarantee)


@dataclass
class BadBeatJackpot:
    rules: BadBeatRules
    amount: int = 0  # the jackpot now
    accrued_today: int = 0  # contributions waiting for the end of the gaming day
    house_topped_up: int = 0  # what the guarantee cost the house
    history: list[dict[str, object]] = field(default_factory=list)

    def contribution(self, players_at_start: int, reached_second_round: bool) -> int:
        """What a hand contributes (0 unless it qualifies)."""
        if players_at_start < self.rules.min_players or not reached_second_round:
            return 0
        return self.rules.contribution

    def contribute(self, amount: int) -> None:
        if amount < 0:
            raise JackpotError("a contribution cannot be negative")
        self.accrued_today += amount

    def end_of_day(self) -> None:
        """The day's accrual is added to the jackpot (RAY: at the end of the gaming day)."""
        self.amount += self.accrued_today
        self.history.append({"event": "end of day", "added": self.accrued_today,
                             "amount": self.amount})
        self.accrued_today = 0

    def settle(self, showdown: Mapping[str, int], participants: Sequence[str],
               cards_revealed: bool = False) -> Payout | None:
        """Pay the jackpot if the hand triggers it; ``showdown`` maps each player at the
        showdown to their best hand value. None when it does not trigger."""
        qualifying = sorted({v for v in showdown.values() if v >= self.rules.qualifying},
                            reverse=True)
        if len(participants) < self.rules.min_players or not qualifying:
            return None
        if len(qualifying) < 2:
            return None  # a qualifying hand must lose to a better one (equal hands tie)
        if cards_revealed:
            self.history.append({"event": "refused: cards revealed during the hand"})
            return None
        holders = {v: [p for p, pv in showdown.items() if pv == v] for v in qualifying[:2]}
        winners, losers = holders[qualifying[0]], holders[qualifying[1]]
        pot = self.amount
        shares: dict[str, int] = {}

        def give(names: Sequence[str], amount: int) -> None:
            part, odd = divmod(amount, len(names))
            for i, name in enumerate(names):
                shares[name] = shares.get(name, 0) + part + (odd if i == 0 else 0)

        give(losers, int(pot * self.rules.losing_share))
        give(winners, int(pot * self.rules.winning_share))
        others = [p for p in participants if p not in winners and p not in losers]
        # Equal qualifying hands take one share of the others' part between them.
        takers: list[str | tuple[str, ...]] = [*others]
        if len(losers) > 1:
            takers.append(tuple(losers))
        if len(winners) > 1:
            takers.append(tuple(winners))
        table_part = int(pot * self.rules.table_share)
        if takers:
            part, odd = divmod(table_part, len(takers))
            for i, taker in enumerate(takers):
                amount = part + (odd if i == 0 else 0)
                give([taker] if isinstance(taker, str) else list(taker), amount)
        paid = sum(shares.values())
        seed = pot - paid
        self.amount = max(seed, self.rules.guaranteed_minimum)
        self.house_topped_up += self.amount - seed
        self.history.append({"event": "paid", "shares": dict(shares), "seed": seed,
                             "amount": self.amount})
        return Payout(shares, seed)
