"""The prize pool and its places, in whole cents (RULINGS Tournaments).

The pool is the prize parts of every entry, rebuy and add-on, or the announced
guarantee if that is larger: the house pays the overlay. Each paid place has
its share of the pool in basis points from the payout table; a place's prize
is its share rounded down to the cent, and the cents left over go to first
place, so the places add up to the pool exactly. Players out in the same hand
with equal stacks tie: they share the prizes of the places they cover, in equal
whole cents, the cents left over one each to the tied players in the order
given.

>>> pool = prize_pool(entries=7, prize_per_entry=1000, guarantee=10_000)
>>> pool.collected, pool.pool, pool.overlay
(7000, 10000, 3000)
>>> place_prizes(10_001, (5000, 3000, 2000))
(5001, 3000, 2000)
>>> award([["ann"], ["bob", "cid"], ["dan"]], (5001, 3000, 2000))
{'ann': 5001, 'bob': 2500, 'cid': 2500, 'dan': 0}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class PrizePool:
    """What the entries paid into the pool, the pool paid out, and the house's overlay."""

    collected: int
    pool: int
    overlay: int


def prize_pool(entries: int, prize_per_entry: int, guarantee: int = 0) -> PrizePool:
    """The pool of ``entries`` prize parts (buy-ins, re-entries, rebuys, add-ons alike)."""
    if min(entries, prize_per_entry, guarantee) < 0:
        raise ValueError("entries, the prize part and the guarantee cannot be negative")
    collected = entries * prize_per_entry
    pool = max(collected, guarantee)
    return PrizePool(collected, pool, pool - collected)


def place_prizes(pool: int, basis_points: Sequence[int]) -> tuple[int, ...]:
    """Each paid place's prize in cents: its share rounded down, the rest to first place."""
    if pool < 0:
        raise ValueError("a prize pool cannot be negative")
    if not basis_points or any(b <= 0 for b in basis_points) or sum(basis_points) != 10_000:
        raise ValueError("place shares are positive basis points adding up to 10000")
    prizes = [pool * b // 10_000 for b in basis_points]
    prizes[0] += pool - sum(prizes)
    return tuple(prizes)


def _check_finish(finish: Sequence[Sequence[str]]) -> None:
    players = [p for group in finish for p in group]
    if len(set(players)) != len(players):
        raise ValueError("a player finishes once")
    if any(not group for group in finish):
        raise ValueError("a finishing group has at least one player")


def places_of(finish: Sequence[Sequence[str]]) -> dict[str, int]:
    """Each player's place; tied players all take the best place they cover.

    >>> places_of([["ann"], ["bob", "cid"], ["dan"]])
    {'ann': 1, 'bob': 2, 'cid': 2, 'dan': 4}
    """
    _check_finish(finish)
    places: dict[str, int] = {}
    place = 1
    for group in finish:
        for player in group:
            places[player] = place
        place += len(group)
    return places


def award(finish: Sequence[Sequence[str]], prizes: Sequence[int]) -> dict[str, int]:
    """Each player's prize: ``finish`` is the finishing order in groups of tied players,
    first place first; ``prizes`` the prize of each paid place."""
    _check_finish(finish)
    if any(p < 0 for p in prizes):
        raise ValueError("a prize cannot be negative")
    players = sum(len(group) for group in finish)
    if players < len(prizes):
        raise ValueError(f"{len(prizes)} places paid and only {players} players placed")
    won: dict[str, int] = {}
    place = 0
    for group in finish:
        covered = sum(prizes[place:place + len(group)])
        share, left = divmod(covered, len(group))
        for i, player in enumerate(group):
            won[player] = share + (1 if i < left else 0)
        place += len(group)
    return won
