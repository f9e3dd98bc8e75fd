"""Reel-strip slot games under the engine contract, played from their rule data.

A round: the seat chooses its bet (:class:`Spin`: lines played and cents a
line); chance then draws each reel's stop in turn, uniform over its strip (an
exact :class:`~fractions.Fraction` per stop); the window is settled: every
played line's best left-to-right pay, then the scatters anywhere in the window.
Enough scatters award free spins, played in the same state as further chance
draws on the free-spin strips, each win multiplied by the feature's multiplier;
a free spin with enough scatters adds more spins. The round's total win is cut
to the cap (a multiple of the total bet) and paid when the last spin is over.

The wild rule (the issue leaves it open; this is the house's choice):

* a wild stands for each symbol it lists, never for a scatter or another wild;
* a line win of symbol ``X`` is the longest run from the leftmost reel of ``X``
  or wilds standing for ``X``, with at least one natural ``X`` in it; its pay
  is multiplied by the multiplier of every wild in the run (two doubling wilds:
  four times);
* a run of wilds alone pays the wild's own line pay, without multiplier;
* a line pays one win only: the largest of these (ties: the earlier entry of
  the pay table).

Every pay is a whole multiple of the line bet, so every win is whole cents.

The any-way rule (``ways = true``; the house's choice):

* a game that pays any-way has no paylines; symbol ``X`` pays for its longest
  run of consecutive reels from the leftmost in which ``X``, or a wild
  standing for ``X``, shows anywhere in the reel's column;
* the win is the pay table's entry for ``X`` and that run length (none: no
  win) times the ways: the product over the run's reels of the cells showing
  ``X`` or a wild for ``X``, each wild cell counted as its multiplier (a way
  through a doubling wild pays double), less the ways made of wilds alone;
* those pay instead as the wild's own: the longest run of reels showing the
  wild, its pay for that length times the product of the wild's cells, no
  multiplier (as on a line);
* every symbol pays its own ways, so one spin may pay several symbols;
* the bet is ``lines`` coins (the bet multiplier) of ``cents`` each; a ways
  pay is in coins, so a ways win is ``pays x ways x cents``: whole cents.

>>> from pelisali.engine import GAMES, Seats
>>> state = GAMES["slot-fruit"].new_state(Seats(1))
>>> state = state.apply("spin 5 10").state
>>> state.returns(), state.chance_outcomes()[0][1]
((-50,), Fraction(1, 32))
>>> for stop in ("0", "0", "0"):
...     state = state.apply(stop).state
>>> state.is_terminal(), state.window()[1], state.returns()
(True, ('PLUM', 'BELL', 'ORANGE'), (-20,))
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
from pelisali.money import format_cents
from pelisali.rules.slots import SlotRules, load_slot_rules, slot_game_ids

Window = tuple[tuple[str, ...], ...]
"""A window by rows: ``window[row][reel]``."""


@dataclass(frozen=True)
class LineWin:
    """A played line's win: ``count`` of ``symbol`` from the left, ``pays`` line bets (the wild
    multipliers applied; the free-spin multiplier not)."""

    line: int
    symbol: str
    count: int
    pays: int


@dataclass(frozen=True)
class WaysWin:
    """An any-way win: ``symbol`` on the first ``count`` reels in ``ways`` ways, paying
    ``pays`` coins (the pay table's entry times the ways; the free-spin multiplier not)."""

    symbol: str
    count: int
    ways: int
    pays: int


@dataclass(frozen=True)
class SpinResult:
    """One spin's window settled, in line bets before the free-spin multiplier."""

    stops: tuple[int, ...]
    lines: tuple[LineWin, ...]
    scatters: int
    scatter_pays: int
    """Multiples of the total bet."""
    triggers: bool
    ways: tuple[WaysWin, ...] = ()
    """A ways game's wins (its ``lines`` are empty)."""

    def units(self, lines_played: int) -> int:
        """The spin's win in line bets (coins in a ways game): the line or ways wins and the
        scatter pay on the total bet."""
        return (sum(w.pays for w in self.lines) + sum(w.pays for w in self.ways)
                + self.scatter_pays * lines_played)


class Paytable:
    """A game's pays made quick to look up, and the one place a line is judged.

    >>> table = Paytable(load_slot_rules("fruit"))
    >>> table.line_pay(("SEVEN", "WILD", "SEVEN"))
    ('SEVEN', 3, 150)
    >>> table.line_pay(("WILD", "WILD", "WILD"))
    ('WILD', 3, 400)
    >>> table.line_pay(("CHERRY", "BAR", "BAR"))
    ('CHERRY', 1, 1)
    """

    def __init__(self, rules: SlotRules) -> None:
        self.rules = rules
        self.reels = rules.reel_count
        self.pay: dict[str, dict[int, int]] = {}
        for entry in rules.pays:
            self.pay.setdefault(entry.symbol, {})[entry.count] = entry.pays
        self.wild_mult = {w.symbol: w.multiplier for w in rules.wilds}
        self.wilds_for: dict[str, frozenset[str]] = {
            s: frozenset(w.symbol for w in rules.wilds if s in w.substitutes)
            for s in rules.symbols}
        self.order = [s for s in self.pay if s not in self.wild_mult]
        self.wild_order = [s for s in self.pay if s in self.wild_mult]
        self.scatter = rules.scatter.symbol if rules.scatter else None
        self.scatter_pay = {p.count: p.pays for p in rules.scatter.pays} if rules.scatter else {}
        # any-way pays: the natural symbols, then the wilds paying alone
        self.ways_symbols = (*self.order, *self.wild_order)
        self.ways_pay = tuple(tuple(self.pay[s].get(n, 0) for n in range(self.reels + 1))
                              for s in self.ways_symbols)
        """``ways_pay[i][n]``: the pay of ``ways_symbols[i]`` on a run of ``n`` reels."""

    def line_pay(self, symbols: Sequence[str]) -> tuple[str, int, int]:
        """The best pay of the symbols on a line, read from the left: ``(symbol, count,
        line bets)``, or ``("", 0, 0)`` when the line does not pay. Also right for the first
        reels of a line alone: runs are counted within what is given."""
        best = ("", 0, 0)
        for symbol in self.order:
            count, mult, natural = 0, 1, False
            wilds = self.wilds_for[symbol]
            for s in symbols:
                if s == symbol:
                    natural = True
                elif s in wilds:
                    mult *= self.wild_mult[s]
                else:
                    break
                count += 1
            if natural:
                pays = self.pay[symbol].get(count, 0) * mult
                if pays > best[2]:
                    best = (symbol, count, pays)
        for wild in self.wild_order:
            count = 0
            for s in symbols:
                if s != wild:
                    break
                count += 1
            pays = self.pay[wild].get(count, 0)
            if pays > best[2]:
                best = (wild, count, pays)
        return best

    def line_open(self, prefix: Sequence[str]) -> bool:
        """Whether more reels could still change the pay of a line that starts so: some run
        (of a symbol with its wilds, or of a wild alone) covers the whole prefix."""
        if len(prefix) >= self.reels:
            return False
        for symbol in self.order:
            wilds = self.wilds_for[symbol]
            if all(s == symbol or s in wilds for s in prefix):
                return True
        return any(all(s == wild for s in prefix) for wild in self.wild_order)

    def column_ways(self, column: Sequence[str]) -> tuple[tuple[int, int], ...]:
        """What one reel's column gives each of :attr:`ways_symbols` in a ways game:
        ``(ways, wild ways)``, the cells showing the symbol or a wild for it (each wild cell
        counted as its multiplier) and the part of that from wild cells. A wild's own entry
        counts its cells, with no wild part: its ways are wilds alone. The one place a column
        is judged: the engine, the par sheet and the simulator all read it.

        >>> table = Paytable(load_slot_rules("fruit"))  # its WILD stands for all, no multiplier
        >>> dict(zip(table.ways_symbols, table.column_ways(("SEVEN", "WILD", "BAR"))))["SEVEN"]
        (2, 1)
        """
        out = []
        for symbol in self.order:
            wild = sum(self.wild_mult[s] for s in column if s in self.wilds_for[symbol])
            out.append((column.count(symbol) + wild, wild))
        out.extend((column.count(wild), 0) for wild in self.wild_order)
        return tuple(out)

    def ways_wins(self, columns: Sequence[Sequence[str]]) -> tuple[WaysWin, ...]:
        """The any-way wins of a window given by reel columns (the engine docstring's rule).

        >>> table = Paytable(load_slot_rules("fruit"))  # BAR pays 3 only: its run of 2 no win
        >>> table.ways_wins([("SEVEN", "BAR", "PLUM"), ("WILD", "SEVEN", "BAR"),
        ...                  ("SEVEN", "LEMON", "CHERRY")])
        (WaysWin(symbol='SEVEN', count=3, ways=2, pays=300),)
        """
        wins = []
        for i, reels in enumerate(zip(*map(self.column_ways, columns), strict=True)):
            count, ways, wild = 0, 1, 1
            for total, wilds in reels:
                if not total:
                    break
                count, ways, wild = count + 1, ways * total, wild * wilds
            ways -= wild  # the ways of wilds alone pay as the wild's own
            pays = self.ways_pay[i][count] * ways
            if pays:
                wins.append(WaysWin(self.ways_symbols[i], count, ways, pays))
        return tuple(wins)

    def scatter_pays(self, scatters: int) -> int:
        """Total bets paid for ``scatters`` scatters anywhere in the window."""
        pays = 0
        for count, amount in self.scatter_pay.items():
            if scatters >= count:
                pays = amount
        return pays

    def settle(self, strips: Sequence[Sequence[str]], stops: Sequence[int],
               lines_played: int) -> SpinResult:
        """The window at ``stops`` (each the strip index on the top row) settled."""
        window = window_at(strips, stops, self.rules.rows)
        wins = []
        ways = self.ways_wins(list(zip(*window, strict=True))) if self.rules.ways else ()
        for index, rows in enumerate(self.rules.paylines[:lines_played]):
            symbol, count, pays = self.line_pay([window[row][r] for r, row in enumerate(rows)])
            if pays:
                wins.append(LineWin(index, symbol, count, pays))
        scatters = sum(row.count(self.scatter) for row in window) if self.scatter else 0
        feature = self.rules.feature
        return SpinResult(tuple(stops), tuple(wins), scatters, self.scatter_pays(scatters),
                          feature is not None and scatters >= feature.trigger, ways)


def window_at(strips: Sequence[Sequence[str]], stops: Sequence[int], rows: int) -> Window:
    """The symbols in view: row ``i`` of reel ``r`` is the strip's symbol ``stops[r] + i``
    (strips wrap round).

    >>> window_at([("A", "B", "C")], [2], 2)
    (('C',), ('A',))
    """
    return tuple(tuple(strip[(stop + row) % len(strip)] for strip, stop in zip(strips, stops,
                                                                                strict=True))
                 for row in range(rows))


@dataclass(frozen=True)
class Spin:
    """The bet: ``lines`` lines played at ``cents`` a line.

    >>> Spin(20, 5).text()
    'spin 20 5'
    """

    lines: int
    cents: int

    def text(self) -> str:
        return f"spin {self.lines} {self.cents}"


class SlotEngine(Game):
    """A slot game from its rule data."""

    family: ClassVar[str] = "slot"
    min_seats = 1
    max_seats = 1

    def __init__(self, game_id: str, rules: SlotRules) -> None:
        self.game_id = game_id
        self.rules = rules

    def title(self) -> str:
        return self.rules.name.en

    @cached_property
    def paytable(self) -> Paytable:
        return Paytable(self.rules)

    def new_state(self, seats: Seats) -> SlotState:
        self.check_seats(seats)
        if seats.stacks:
            raise IllegalMove(f"{self.game_id} is played against the house; seats bring no chips")
        return SlotState(self)


@dataclass(frozen=True)
class SlotState(State):
    """A slot round: the bet, the stops drawn so far, the spins settled."""

    game: SlotEngine
    bet: Spin | None = None
    stops: tuple[int, ...] = ()
    """The current spin's stops drawn so far."""
    spins: tuple[SpinResult, ...] = ()
    """Every settled spin: the base spin first, then the free spins."""
    free_left: int = 0
    free_awarded: int = 0
    paid: int | None = None
    history: tuple[Move, ...] = field(default=())

    # -- who moves ---------------------------------------------------------------
    def to_move(self) -> int | None:
        if self.bet is None:
            return 0
        if self.paid is None:
            return CHANCE
        return None

    def in_feature(self) -> bool:
        """Whether the spin being drawn is a free spin."""
        return bool(self.spins)

    def _strips(self) -> tuple[tuple[str, ...], ...]:
        reels = self.game.rules.reels
        return reels.free if self.in_feature() else reels.base

    # -- what may happen -------------------------------------------------------------
    def chance_outcomes(self) -> tuple[tuple[ChanceOutcome, Fraction], ...]:
        outcomes, _, total = self.chance_weights()
        return tuple((o, Fraction(1, total)) for o in outcomes)

    def chance_weights(self) -> tuple[tuple[ChanceOutcome, ...], tuple[int, ...], int]:
        if self.to_move() != CHANCE:
            return (), (), 1
        strip = self._strips()[len(self.stops)]
        return tuple(ChanceOutcome(str(i)) for i in range(len(strip))), (1,) * len(strip), \
            len(strip)

    def legal_actions(self) -> tuple[Action, ...]:
        if self.to_move() != 0:
            return ()
        bets = self.game.rules.bets
        return tuple(Spin(lines, cents) for lines in bets.lines_played
                     for cents in bets.cents_per_line)

    def parse_action(self, text: str) -> Action:
        words = text.split()
        if len(words) == 3 and words[0] == "spin" and all(w.isascii() and w.isdigit()
                                                           for w in words[1:]):
            return Spin(int(words[1]), int(words[2]))
        raise IllegalMove(f"{text!r} is not an action here: 'spin LINES CENTS_PER_LINE'")

    def _check_action(self, action: Action) -> None:
        if not isinstance(action, Spin):
            raise IllegalMove(f"{action.text()!r} is not an action of {self.game.title()}")
        bets = self.game.rules.bets
        ways = self.game.rules.ways  # a ways game bets coins of a value, not lines
        if action.lines not in bets.lines_played:
            what = "coins" if ways else "lines"
            raise IllegalMove(f"{action.lines} {what} cannot be played; {what}: "
                              f"{', '.join(map(str, bets.lines_played))}")
        if action.cents not in bets.cents_per_line:
            what = "a coin" if ways else "a line"
            raise IllegalMove(f"{action.cents} cents {what} is not a bet level; levels: "
                              f"{', '.join(map(str, bets.cents_per_line))}")

    def _apply(self, action: Action) -> Step:
        mover = self.to_move()
        if mover is None:
            raise IllegalMove("the round is over; nothing more can happen")
        history = (*self.history, Move(mover, action))
        if isinstance(action, Spin):
            unit = "coins" if self.game.rules.ways else "lines"
            return Step(replace(self, bet=action, history=history),
                        (Event("bet", f"{action.lines} {unit} at "
                                      f"{format_cents(action.cents)}: "
                                      f"{format_cents(action.lines * action.cents)}", (0,)),))
        if not isinstance(action, ChanceOutcome):
            raise IllegalMove(f"{action.text()!r} is not an action of {self.game.title()}")
        stops = (*self.stops, int(action.label))
        state = replace(self, stops=stops, history=history)
        if len(stops) < self.game.rules.reel_count:
            return Step(state)
        return state._settle_spin()

    def _settle_spin(self) -> Step:
        assert self.bet is not None  # noqa: S101 - only reached after the bet
        rules = self.game.rules
        result = self.game.paytable.settle(self._strips(), self.stops, self.bet.lines)
        free = self.in_feature()
        free_left = self.free_left - 1 if free else 0
        awarded = self.free_awarded
        events = [Event("spin", f"{'free spin' if free else 'spin'}: stops "
                                f"{' '.join(map(str, self.stops))}")]
        for win in result.lines:
            events.append(Event("line", f"line {win.line + 1}: {win.count} x {win.symbol} pays "
                                        f"{win.pays} x the line bet"))
        for way in result.ways:
            events.append(Event("ways", f"{way.count} x {way.symbol} in {way.ways} ways pays "
                                        f"{way.pays} coins"))
        if result.scatter_pays:
            events.append(Event("scatter", f"{result.scatters} scatters pay "
                                           f"{result.scatter_pays} x the total bet"))
        if result.triggers and rules.feature is not None:
            more = rules.feature.retrigger if free else rules.feature.spins
            if more:
                free_left += more
                awarded += more
                events.append(Event("feature", f"{more} free spins awarded"))
        state = replace(self, stops=(), spins=(*self.spins, result), free_left=free_left,
                        free_awarded=awarded)
        if free_left:
            return Step(state, tuple(events))
        paid = state.total_win()
        events.append(Event("paid", f"round win {format_cents(paid)}", (0,)))
        return Step(replace(state, paid=paid), tuple(events))

    # -- the money -----------------------------------------------------------------
    def stake(self) -> int:
        return 0 if self.bet is None else self.bet.lines * self.bet.cents

    def uncapped_units(self) -> int:
        """The spins' wins so far in line bets, free spins multiplied, before the cap."""
        if self.bet is None:
            return 0
        feature = self.game.rules.feature
        mult = feature.multiplier if feature else 1
        return sum(spin.units(self.bet.lines) * (mult if i else 1)
                   for i, spin in enumerate(self.spins))

    def total_win(self) -> int:
        """The round's win in cents so far: the spins' wins cut to the cap."""
        if self.bet is None:
            return 0
        cap = self.game.rules.cap.multiplier * self.stake()
        return min(self.uncapped_units() * self.bet.cents, cap)

    def window(self, spin: int = -1) -> Window:
        """The window of a settled spin (default: the last)."""
        if not self.spins:
            raise IllegalMove("no spin has been settled")
        strips = self.game.rules.reels
        index = spin % len(self.spins)
        return window_at(strips.free if index else strips.base, self.spins[index].stops,
                         self.game.rules.rows)

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything is public at a slot: the bet, the stops, the windows, the wins."""
        mover = self.to_move()
        return {
            "game": self.game.game_id,
            "to_move": "chance" if mover == CHANCE else mover,
            "bet": None if self.bet is None else {"lines": self.bet.lines,
                                                  "cents": self.bet.cents},
            "stops": list(self.stops),
            "spins": [{"stops": list(s.stops), "window": [list(r) for r in self.window(i)],
                       "lines": [{"line": w.line, "symbol": w.symbol, "count": w.count,
                                  "pays": w.pays} for w in s.lines],
                       "ways": [{"symbol": w.symbol, "count": w.count, "ways": w.ways,
                                 "pays": w.pays} for w in s.ways],
                       "scatters": s.scatters, "free": bool(i)}
                      for i, s in enumerate(self.spins)],
            "free_left": self.free_left,
            "win": self.total_win(),
            "paid": self.paid,
        }

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        return frozenset()

    def returns(self) -> tuple[int, ...]:
        return (-self.stake() + (self.paid or 0),)

    def accounts(self) -> Mapping[str, int]:
        settled = self.paid is not None
        return {"seat 0": self.returns()[0],
                "table": 0 if settled else self.stake(),
                "house": self.stake() - self.paid if self.paid is not None else 0}


def slot_engines() -> dict[str, Game]:
    """Every slot game: ``slot-fruit``, ``slot-video``."""
    return {f"slot-{name}": SlotEngine(f"slot-{name}", load_slot_rules(name))
            for name in slot_game_ids()}
