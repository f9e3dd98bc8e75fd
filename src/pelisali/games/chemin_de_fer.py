"""Baccara, chemin de fer: the exact odds of the player (the punto) against the bank for
any choices, and the choices each side should make.

Standard rules (RAY 2016 4.4.2.3 names the game; its text is not in the rulebook as
extracted; the règle is rule data, :func:`pelisali.rules.banked.load_chemin_de_fer`).
The player chooses on five, the banker in the tableau's option cells (3 against a third
card 9, 5 against a 4). Every deal of up to six cards from the shoe is counted by card
value, each weighted by the ordered ways it comes out, so every figure is a fraction.
A tie (égalité) is void. The house takes its commission on the bank's wins.

The choices meet only where the player drew and the banker sits in an option cell, so
an outcome is the sum of what the hands outside the cells give and each cell's part for
the banker's choice there: one walk of the deals for each choice on five gives every
combination (:func:`parts`). The player's best mix on five against a banker who answers
each cell at his best, commission aside (a zero-sum game between the two hands), is
:func:`equilibrium`.

>>> odds = exact()
>>> round(float(odds.player_value) * 100, 4), round(float(odds.banker_value) * 100, 4)
(-1.2374, -1.0558)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

from pelisali.rules.banked import load_chemin_de_fer

CHOICES = ("draw", "stand")
Cell = tuple[int, int]


@dataclass(frozen=True)
class Outcome:
    """The chances of a deal: the bank wins, the player wins, a tie."""

    banker: Fraction
    player: Fraction
    tie: Fraction


@dataclass(frozen=True)
class CheminOdds:
    """The figures of one choice on five and one set of banker's choices: the chances,
    the player's expectation per unit staked (ties void), the bank's after the house's
    commission on its wins, and the house's commission per unit."""

    player_choice: str
    banker_choices: dict[Cell, str]
    outcome: Outcome
    player_value: Fraction
    banker_value: Fraction
    commission: Fraction


@dataclass(frozen=True)
class Parts:
    """What the hands outside the option cells give, and each cell's part by the
    banker's choice there, as weighted counts over ``denominator`` (banker, player,
    tie)."""

    base: tuple[int, int, int]
    cells: dict[Cell, dict[str, tuple[int, int, int]]]
    denominator: int


def full_shoe(decks: int) -> tuple[int, ...]:
    """Counts of values 0-9 in ``decks`` decks (16 ten-value cards a deck)."""
    return (16 * decks, *([4 * decks] * 9))


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


@cache
def parts(player_choice: str, decks: int | None = None) -> Parts:
    """One walk of every deal with the player choosing ``player_choice`` on five."""
    rules = load_chemin_de_fer(decks)
    counts = list(full_shoe(rules.decks))
    total = sum(counts)
    falling = [_falling(total - k, 6 - k) for k in range(7)]
    base = [0, 0, 0]
    cells: dict[Cell, dict[str, list[int]]] = {
        cell: {c: [0, 0, 0] for c in CHOICES} for cell in rules.options}

    def settle(into: list[int], player: int, banker: int, weight: int) -> None:
        into[0 if banker > player else 1 if player > banker else 2] += weight

    def banker_third(into: list[int], player: int, banker: int, weight: int) -> None:
        for card in range(10):
            n = counts[card]
            if n:
                settle(into, player, (banker + card) % 10, weight * n * falling[6])

    for p1, b1, p2, b2 in product(range(10), repeat=4):
        weight = 1
        for card in (p1, b1, p2, b2):  # taken in the order dealt
            weight *= counts[card]
            counts[card] -= 1
        if weight:
            player, banker = (p1 + p2) % 10, (b1 + b2) % 10
            if player >= 8 or banker >= 8:  # a natural: nobody draws
                settle(base, player, banker, weight * falling[4])
            elif not rules.player_draws(player, player_choice):
                if rules.banker_draws(banker, None):
                    for card in range(10):
                        n = counts[card]
                        if n:
                            settle(base, player, (banker + card) % 10, weight * n * falling[5])
                else:
                    settle(base, player, banker, weight * falling[4])
            else:
                for third in range(10):
                    n = counts[third]
                    if not n:
                        continue
                    counts[third] -= 1
                    drawn, w = (player + third) % 10, weight * n
                    cell = (banker, third)
                    if cell in cells:  # both choices, each into its own part
                        banker_third(cells[cell]["draw"], drawn, banker, w)
                        settle(cells[cell]["stand"], drawn, banker, w * falling[5])
                    elif rules.banker_draws(banker, third):
                        banker_third(base, drawn, banker, w)
                    else:
                        settle(base, drawn, banker, w * falling[5])
                    counts[third] += 1
        for card in (p1, b1, p2, b2):
            counts[card] += 1
    return Parts((base[0], base[1], base[2]),
                 {cell: {c: (v[0], v[1], v[2]) for c, v in by.items()}
                  for cell, by in cells.items()}, _falling(total, 6))


def outcome(player_choice: str, banker_choices: dict[Cell, str],
            decks: int | None = None) -> Outcome:
    """The chances for these choices (every option cell named in ``banker_choices``)."""
    found = parts(player_choice, decks)
    tally = list(found.base)
    for cell, by in found.cells.items():
        for i, v in enumerate(by[banker_choices[cell]]):
            tally[i] += v
    return Outcome(*(Fraction(v, found.denominator) for v in tally))


def exact(player_choice: str | None = None, banker_choices: dict[Cell, str] | None = None,
          decks: int | None = None) -> CheminOdds:
    """The figures of the choices given, else the rule data's."""
    rules = load_chemin_de_fer(decks)
    choice = player_choice or rules.player_choice
    choices = {**rules.options, **(banker_choices or {})}
    found = outcome(choice, choices, decks)
    rate = Fraction(rules.commission_percent, 100)
    return CheminOdds(choice, choices, found, found.player - found.banker,
                      found.banker * (1 - rate) - found.player, found.banker * rate)


def strategy_table(decks: int | None = None) -> list[CheminOdds]:
    """Every choice on five against every set of the banker's choices."""
    rules = load_chemin_de_fer(decks)
    cells = sorted(rules.options)
    return [exact(choice, dict(zip(cells, picks, strict=True)), decks)
            for choice in CHOICES for picks in product(CHOICES, repeat=len(cells))]


@dataclass(frozen=True)
class Equilibrium:
    """The player's best mix on five (``draw``: the chance of drawing) against a banker
    answering each option cell at his best, commission aside; ``value``: the player's
    expectation then; ``banker``: the banker's mix in each cell (the chance of drawing)
    that leaves the player nothing better."""

    draw: Fraction
    value: Fraction
    banker: dict[Cell, Fraction]


def _gain(by: dict[str, tuple[int, int, int]], choice: str) -> int:
    """A part's player-minus-banker count for the banker's ``choice``."""
    return by[choice][1] - by[choice][0]


def equilibrium(decks: int | None = None) -> Equilibrium:
    """The zero-sum game of the two hands: the player mixes draw and stand on five; in
    each option cell the banker takes what leaves the player least. The player's value
    is concave and piecewise linear in the mix, so its best is at an end or where a
    cell's two choices meet; there the banker mixes that cell so the player is
    indifferent.

    >>> found = equilibrium()  # draw on five; the banker draws in both cells
    >>> found.draw, sorted(found.banker.items())
    (Fraction(1, 1), [((3, 9), Fraction(1, 1)), ((5, 4), Fraction(1, 1))])
    """
    draw, stand = parts("draw", decks), parts("stand", decks)
    cells = sorted(draw.cells)
    denominator = draw.denominator

    def value(q: Fraction) -> Fraction:
        total = q * (draw.base[1] - draw.base[0]) + (1 - q) * (stand.base[1] - stand.base[0])
        for cell in cells:
            total += min(q * _gain(draw.cells[cell], c) + (1 - q) * _gain(stand.cells[cell], c)
                         for c in CHOICES)
        return total / denominator

    candidates = {Fraction(0), Fraction(1)}
    for cell in cells:
        # where the banker's two choices give the player the same: a + q (b - a) equal
        a = _gain(stand.cells[cell], "draw") - _gain(stand.cells[cell], "stand")
        b = _gain(draw.cells[cell], "draw") - _gain(draw.cells[cell], "stand")
        if b != a:
            q = Fraction(-a, b - a)
            if 0 < q < 1:
                candidates.add(q)
    best = max(sorted(candidates), key=value)
    # Each cell the banker's best reply at the best mix; the cell the mix sits on (both
    # replies alike) is mixed so that drawing and standing on five give the player the same.
    banker: dict[Cell, Fraction] = {}
    gap = (draw.base[1] - draw.base[0]) - (stand.base[1] - stand.base[0])
    open_cells = []
    for cell in cells:
        at = {c: best * _gain(draw.cells[cell], c) + (1 - best) * _gain(stand.cells[cell], c)
              for c in CHOICES}
        banker[cell] = Fraction(1) if at["draw"] < at["stand"] else Fraction(0)
        if at["draw"] == at["stand"] and 0 < best < 1:
            open_cells.append(cell)
        else:
            c = "draw" if banker[cell] == 1 else "stand"
            gap += _gain(draw.cells[cell], c) - _gain(stand.cells[cell], c)
    if len(open_cells) == 1:
        cell = open_cells[0]
        d = _gain(draw.cells[cell], "draw") - _gain(stand.cells[cell], "draw")
        s = _gain(draw.cells[cell], "stand") - _gain(stand.cells[cell], "stand")
        if d != s:  # r d + (1 - r) s + gap = 0
            banker[cell] = Fraction(-(gap + s), d - s)
    return Equilibrium(best, value(best), banker)
