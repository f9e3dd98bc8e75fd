"""Pai Gow Poker's exact house edge: every deal of the box's seven cards and the dealer's
seven counted, both setting by the house way.

Standard rules (RAY 2016 1.4.1.2 names the game; its text is not in the rulebook as
extracted; :mod:`pelisali.games.pai_gow` holds the hands, the house way and the
settlement). The box's seven and the dealer's seven come from 53 cards: C(53, 7) C(46, 7)
= 8,250,459,031,214,390 deals, too many to walk one by one. The count takes them by the
hands' values instead:

1. Every seven-card hand is set by the house way, :func:`pelisali.games.pai_gow.house_way`
   itself, once for each class of hands it treats alike: hands equal under a permutation
   of the suits, and, where no five of a suit (the joker counted) can make a flush, hands
   of the same ranks. Each hand then has a point (high hand's value, low hand's value).
2. The box wins a deal when its point is above the dealer's in both (a copy is the
   dealer's), and loses when the dealer's is as high or higher in both; the rest push.
   Counting pairs of hands that may share no card is done by inclusion-exclusion over the
   cards they share: ``sum over card sets S of (-1)^|S| x`` the ordered pairs among the
   hands holding ``S``. Each such count is a two-dimensional dominance count of points
   (:mod:`pelisali.games.pai_gow_kernels`), and sets equal under a permutation of the
   suits count alike, so one set of each kind is counted, times their number.

The total is exact: integer counts of deals, checked in the tests against every deal of
small decks played one by one. The box's return is ``(1 - commission) x wins - losses``
over all deals; a box that banks against the dealer's hand takes the copies, so its wins
are the box's losses and its losses the box's wins.

>>> found = count_pai_gow(deck=small_deck("TJQKA", "cdh"))
>>> found.deals == comb(16, 7) * comb(9, 7) == found.wins + found.pushes + found.losses
True
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np

from pelisali.cards import DECK, RANKS, SUITS
from pelisali.games import pai_gow, pai_gow_kernels
from pelisali.games.cache_files import cache_folder, read_kept, write_text_atomically
from pelisali.games.pai_gow import JOKER, _five, _house_way, two_value
from pelisali.games.pai_gow_kernels import JOKER_ID, SIZE, binomials
from pelisali.rules.pai_gow import PaiGowRules, load_pai_gow

FULL_DECK = (*range(52), JOKER_ID)
"""The 53 card ids: ``rank * 4 + suit`` and the joker."""


@dataclass(frozen=True)
class PaiGowCount:
    """Every deal's result for the box, both setting by the house way: ``wins`` (both
    hands higher), ``losses`` (both as high or higher for the dealer, copies included) and
    ``pushes``, of ``deals``; ``commission`` is the share of a win the house keeps."""

    deals: int
    wins: int
    pushes: int
    losses: int
    commission: Fraction
    classes: int
    """The classes of hands the house way was applied to (one hand of each)."""

    @property
    def box_return(self) -> Fraction:
        """The box's mean net return per unit bet against the house's bank."""
        return ((1 - self.commission) * self.wins - self.losses) / self.deals

    @property
    def bank_return(self) -> Fraction:
        """A box's mean net return per unit banked against the dealer's hand (copies the
        bank's)."""
        return ((1 - self.commission) * self.losses - self.wins) / self.deals

    def share(self, result: str) -> Fraction:
        """The probability of ``win``, ``push`` or ``lose``."""
        counts = {"win": self.wins, "push": self.pushes, "lose": self.losses}
        return Fraction(counts[result], self.deals)


@dataclass(frozen=True)
class PublishedExact:
    """A published exact analysis of the house way against the house way: the share of
    pushes and the house edge per bet against the house's bank."""

    push: float
    box_edge: float
    source: str

    def to_json(self) -> dict[str, object]:
        return {"push": self.push, "box_edge": self.box_edge, "source": self.source}


PUBLISHED_EXACT = PublishedExact(
    0.404958, 0.027212,
    "the Wizard of Odds, \"Pai Gow Poker\" (wizardofodds.com/games/pai-gow-poker/): JB's "
    "combinatorial analysis (2013) of the Foxwoods house way on both sides, not banking; "
    "as quoted from that page, which was not reachable here itself")
"""The published exact figures, for the Foxwoods house way with A-2-3-4-5 second."""


def small_deck(ranks: str, suits: str, joker: bool = True) -> tuple[int, ...]:
    """The card ids of a deck of these ranks in these suits (and the joker): the count's
    own tests play such decks deal by deal.

    >>> small_deck("A2", "cd")
    (0, 1, 48, 49, 52)
    """
    ids = sorted(RANKS.index(r) * 4 + SUITS.index(s) for r in ranks for s in suits)
    return (*ids, JOKER_ID) if joker else tuple(ids)


def card_label(card_id: int) -> str:
    """A card id's label (``52`` is the joker)."""
    return JOKER if card_id == JOKER_ID else DECK[card_id]


def _set_chunk(args: tuple[list[tuple[str, ...]], PaiGowRules]) -> list[tuple[int, int]]:
    """The (high, low) values of hands set by the house way."""
    hands, rules = args
    out = []
    for hand in hands:
        high, low = _house_way(tuple(sorted(hand)), rules.house_way, rules.wheel)
        out.append((_five(tuple(sorted(high)), rules.wheel), two_value(low)))
    return out


def class_values(deck: Sequence[int], rules: PaiGowRules, workers: int = 1,
                 progress: Callable[[int, int], None] | None = None
                 ) -> tuple[np.ndarray, int, int, int]:
    """Every seven-card hand's point, in colexicographic order of the deck's positions:
    ``high * lows + low``, with the values ranked ``0 .. highs - 1`` and ``0 .. lows - 1``;
    and ``(table, highs, lows, classes)``. ``progress(done, classes)`` is told as the
    classes are set, over ``workers`` processes."""
    ids = np.asarray(deck, dtype=np.int64)
    keys = pai_gow_kernels.subset_keys(ids, SIZE, True)
    unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    del keys
    binom = binomials(len(ids))
    hands = [tuple(card_label(int(ids[p]))
                   for p in pai_gow_kernels.unrank(int(i), SIZE, binom)) for i in first]
    chunk = 20_000
    parts = [(hands[i:i + chunk], rules) for i in range(0, len(hands), chunk)]
    values: list[tuple[int, int]] = []
    if workers > 1 and len(parts) > 1:
        # spawned, not forked: a process that has run the compiled parallel loops holds
        # threads that a fork would copy half-way
        with ProcessPoolExecutor(max_workers=workers,
                                 mp_context=multiprocessing.get_context("spawn")) as pool:
            for found in pool.map(_set_chunk, parts):
                values += found
                if progress:
                    progress(len(values), len(hands))
    else:
        for part in parts:
            values += _set_chunk(part)
            if progress:
                progress(len(values), len(hands))
    high_values, low_values = (np.array(v, dtype=np.int64) for v in zip(*values, strict=True))
    highs, high_rank = np.unique(high_values, return_inverse=True)
    lows, low_rank = np.unique(low_values, return_inverse=True)
    point = (high_rank * len(lows) + low_rank).astype(np.int32)
    return point[inverse], len(highs), len(lows), len(unique)


def count_pai_gow(rules: PaiGowRules | None = None, deck: Sequence[int] = FULL_DECK,
                  workers: int = 1, progress: Callable[[str, int, int], None] | None = None
                  ) -> PaiGowCount:
    """Every deal of the deck counted (see the module's text). ``progress(stage, done,
    total)`` is told as the count goes: ``setting`` the classes of hands, then
    ``counting`` the card sets.

    >>> found = count_pai_gow(deck=small_deck("A234", "cdhs"))  # quads, the wheel, 5 aces
    >>> found.deals, found.wins, found.losses
    (2333760, 217824, 672864)
    """
    rules = rules or load_pai_gow()
    n = len(deck)
    if n < 2 * SIZE:
        raise ValueError(f"a deal needs {2 * SIZE} cards, not {n}")

    def told(stage: str, done: int, total: int) -> None:
        if progress:
            progress(stage, done, total)

    table, highs, lows, classes = class_values(
        deck, rules, workers, lambda done, total: told("setting", done, total))
    binom = binomials(n)
    ids = np.asarray(deck, dtype=np.int64)
    strict, weak = pai_gow_kernels.strict_and_weak_grid(table, highs, lows)
    wins, losses = int(strict), int(weak)
    told("counting", 1, SIZE + 1)
    for size in range(1, SIZE):
        keys = pai_gow_kernels.subset_keys(ids, size, False)
        _, first, orbit = np.unique(keys, return_index=True, return_counts=True)
        del keys
        subsets = np.array([pai_gow_kernels.unrank(int(i), size, binom) for i in first],
                           dtype=np.int64).reshape(len(first), size)
        strict_s, weak_s = pai_gow_kernels.level_counts(subsets, n, table, binom, highs, lows)
        sign = -1 if size % 2 else 1
        wins += sign * int(np.dot(strict_s, orbit))
        losses += sign * int(np.dot(weak_s, orbit))
        told("counting", size + 1, SIZE + 1)
    # a set of seven is one hand, paired with itself: a copy of both hands, the dealer's
    losses -= comb(n, SIZE)
    told("counting", SIZE + 1, SIZE + 1)
    deals = comb(n, SIZE) * comb(n - SIZE, SIZE)
    commission = Fraction(rules.commission_percent, 100)
    return PaiGowCount(deals, wins, deals - wins - losses, losses, commission, classes)


def _cache_key(rules: PaiGowRules) -> str:
    """What the figures depend on: this module's code, the kernels', the hands' and the
    house way's, and the rules' numbers."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for module in (pai_gow, pai_gow_kernels):
        digest.update(Path(str(module.__file__)).read_bytes())
    digest.update(repr((rules.house_way, rules.wheel, rules.commission_percent)).encode())
    return digest.hexdigest()[:24]


def to_json(found: PaiGowCount) -> dict[str, object]:
    """The counts as JSON."""
    return {"deals": found.deals, "wins": found.wins, "pushes": found.pushes,
            "losses": found.losses, "commission": str(found.commission),
            "classes": found.classes}


def from_json(data: dict[str, object]) -> PaiGowCount:
    """:func:`to_json` read back."""
    return PaiGowCount(int(str(data["deals"])), int(str(data["wins"])),
                       int(str(data["pushes"])), int(str(data["losses"])),
                       Fraction(str(data["commission"])), int(str(data["classes"])))


def cached_count(rules: PaiGowRules | None = None, workers: int | None = None,
                 progress: Callable[[str, int, int], None] | None = None,
                 directory: Path | None = None) -> tuple[PaiGowCount, bool]:
    """:func:`count_pai_gow` of the 53 cards, kept in the user's cache
    (``$XDG_CACHE_HOME/pelisali``) under a key of the code and the rules, so that it is
    counted once a machine: the counts and whether they were read from the cache."""
    rules = rules or load_pai_gow()
    path = cache_folder(directory) / f"pai-gow-exact-{_cache_key(rules)}.json"
    kept = read_kept(path, lambda at: from_json(json.loads(at.read_text())))
    if kept is not None:
        return kept, True
    found = count_pai_gow(rules, workers=workers or os.cpu_count() or 1, progress=progress)
    write_text_atomically(path, json.dumps(to_json(found)))
    return found, False
