"""A poker tournament, sit & go or multi-table, as a pure state machine.

The tournament seats its entries, deals each table's hands as ordinary
:class:`~pelisali.poker.table.PokerHand` s played with tournament chips, and after
each hand takes out the busted players, places them, breaks and balances the
tables and decides when hand-for-hand play begins. It reads no clock: the caller
tells it the tournament's elapsed seconds (:meth:`PokerTournament.tick`), and the
level in force comes from the structure. Chance (the seat draw, the cards) comes
from an injected generator. Money is not its business: it reports entries, prize
parts, fees and the prizes, which the wallet books (tournament chips are never
money).

The rules are those of ``RULINGS.md`` (Tournaments), the Poker TDA rules (2024)
where they speak; each choice is a setting or is named in ``docs/tournaments.md``.

>>> from pelisali.rng import SeededRng
>>> settings = TournamentSettings(name="Demo", capacity=6, starting_chips=1500,
...                               structure="sit-and-go", buy_in=1000, fee=100)
>>> t = PokerTournament(settings)
>>> for name in "abcdef":
...     _ = t.register(name)
>>> t.start(SeededRng(1))
>>> [len(t.players_at(table)) for table in t.tables]
[6]
>>> play_out(t, SeededRng(2))
>>> t.status, sorted(t.prizes().values(), reverse=True)[:2]
('finished', [3900, 2100])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from pelisali.poker.dealing import CardSource, ShuffledCards
from pelisali.poker.games import make_variant
from pelisali.poker.selfplay import forced_bets
from pelisali.poker.table import PokerError, PokerHand, PokerVariant
from pelisali.rng import Rng, shuffle
from pelisali.rules.tournaments import load_payouts, load_structure
from pelisali.tournaments.clock import ClockReading, LevelClock
from pelisali.tournaments.prizes import PrizePool, award, place_prizes, places_of

EntryKind = Literal["freezeout", "re-entry", "rebuy"]
Status = Literal["registering", "running", "finished", "cancelled"]


class TournamentError(ValueError):
    """A request the tournament refuses: the message says why, and nothing changed."""


@dataclass(frozen=True)
class TournamentSettings:
    """What a tournament announces before it starts. Amounts are cents; chips are chips.

    ``capacity`` seats a sit & go (it starts when full) or caps a scheduled
    tournament's entries. ``entry``: a ``freezeout`` enters once; ``re-entry`` lets a
    busted player enter again (a new entry, a new seat) while late registration is
    open, ``max_entries`` in all; ``rebuy`` lets a player at or below the starting
    stack buy ``rebuy_chips`` between hands until ``rebuy_until_level``, and take one
    add-on of ``add_on_chips`` at the break after it.
    """

    name: str
    capacity: int
    starting_chips: int
    structure: str = "regular"
    buy_in: int = 0  # the prize part of an entry, in cents
    fee: int = 0  # the house's part of an entry, in cents
    guarantee: int = 0  # the least prize pool; the house pays any overlay
    format: Literal["sit-and-go", "scheduled"] = "sit-and-go"
    game: str = "holdem"
    seats: int = 9  # seats a table
    entry: EntryKind = "freezeout"
    max_entries: int = 1  # entries a player may make (re-entry)
    late_registration_level: int = 0  # registration stays open through this level
    rebuy_until_level: int = 0
    rebuy_chips: int = 0
    rebuy_cost: int = 0  # the prize part of a rebuy or an add-on, in cents
    add_on_chips: int = 0
    min_players: int = 2
    payouts: str = "standard"
    action_seconds: int = 30  # the action timer: an absent player is folded at its end
    cancel_pays: Literal["refund", "chips"] = "refund"

    def __post_init__(self) -> None:
        checks = (
            (2 <= self.capacity <= 100_000, "capacity: 2 to 100,000 entries"),
            (self.starting_chips > 0, "starting chips must be positive"),
            (min(self.buy_in, self.fee, self.guarantee, self.rebuy_cost) >= 0,
             "buy-in, fee, guarantee and rebuy cost cannot be negative"),
            (2 <= self.seats <= 10, "a tournament table seats 2 to 10 players"),
            (self.max_entries >= 1, "max_entries is at least 1"),
            (self.entry == "re-entry" or self.max_entries == 1,
             "more than one entry a player needs entry = 're-entry'"),
            (self.entry != "rebuy" or (self.rebuy_until_level >= 1 and self.rebuy_chips > 0),
             "a rebuy tournament needs rebuy_until_level and rebuy_chips"),
            (self.entry == "rebuy" or not (self.rebuy_chips or self.add_on_chips),
             "rebuy and add-on chips belong to a rebuy tournament"),
            (2 <= self.min_players <= self.capacity, "min_players: 2 to the capacity"),
            (self.format == "scheduled" or self.late_registration_level == 0,
             "a sit & go starts when full: it has no late registration"),
            (self.action_seconds > 0, "the action timer must be positive"),
        )
        for ok, message in checks:
            if not ok:
                raise TournamentError(message)
        load_structure(self.structure)  # refuses an unknown structure
        load_payouts(self.payouts)


@dataclass
class Entry:
    """One buy-in of a player: its chips, its seat, its rebuys and add-on, its place."""

    entry_id: str
    player: str
    number: int  # the player's first entry is 1, a re-entry 2, ...
    stack: int
    table: int | None = None
    seat: int | None = None
    rebuys: int = 0
    add_on: bool = False
    out: bool = False
    busted_in: int | None = None  # the elimination round the entry busted in


@dataclass
class TableHand:
    """A hand in play at a tournament table: the engine's hand and whose seats it holds."""

    table: int
    number: int
    hand: PokerHand
    entries: list[str]  # entry ids by the hand's seat
    seats: list[int]  # the table's seat number by the hand's seat
    start_stacks: list[int]
    level: int
    hand_for_hand: bool


@dataclass(frozen=True)
class Positions:
    """Where the next hand at a table puts the button and the blinds (TDA's dead button).

    ``small_blind`` is None when the small blind is dead (its seat is empty); ``button``
    may be an empty seat (a dead button). ``dealt`` are the seats dealt in, in the hand's
    order from the first blind round to the button; ``waiting`` are players seated between
    the button and the small blind since the last hand, dealt in once the button passes.
    """

    button: int
    small_blind: int | None
    big_blind: int
    dealt: tuple[int, ...]
    waiting: tuple[int, ...] = ()

    @property
    def heads_up(self) -> bool:
        """Two players: the button posts the small blind (TDA: heads-up)."""
        return self.small_blind == self.button


@dataclass(frozen=True)
class Move:
    """A player moved to balance the tables, or from a broken table."""

    entry_id: str
    from_table: int
    to_table: int
    to_seat: int
    reason: Literal["balance", "break", "final table"]


@dataclass
class PokerTournament:
    """A poker tournament from registration to the prizes; see the module's doctest."""

    settings: TournamentSettings
    status: Status = "registering"
    entries: dict[str, Entry] = field(default_factory=dict)
    tables: dict[int, list[str | None]] = field(default_factory=dict)  # seats: entry ids
    # table: the button's seat (of the last hand; before the first, the drawn button)
    buttons: dict[int, int] = field(default_factory=dict)
    # table: the last hand's small and big blind seats, from which the dead button moves
    # the blinds (a table without them yet takes them from its button)
    small_blinds: dict[int, int] = field(default_factory=dict)
    big_blinds: dict[int, int] = field(default_factory=dict)
    hands: dict[int, TableHand] = field(default_factory=dict)  # hands in play
    elapsed: int = 0  # the tournament's seconds, from the start (the injected clock)
    hands_dealt: int = 0
    moves: list[Move] = field(default_factory=list)
    finish: list[list[str]] = field(default_factory=list)  # busts, last out first
    hand_for_hand: bool = False
    rebuys: int = 0
    add_ons: int = 0
    _round: int = 0  # elimination rounds: hands, or hand-for-hand rounds
    _pending_busts: list[tuple[str, int]] = field(default_factory=list)  # entry, start stack
    _h4h_waiting: set[int] = field(default_factory=set)  # tables yet to play this h4h hand
    _rng: Rng | None = None

    def __post_init__(self) -> None:
        self.clock = LevelClock(load_structure(self.settings.structure))
        try:
            self.variant: PokerVariant = make_variant(self.settings.game)
        except PokerError as exc:  # an unknown game is a setting refused, like the others
            raise TournamentError(str(exc)) from None

    # -- registration ------------------------------------------------------------------
    @property
    def registration_open(self) -> bool:
        """Before the start, or while the late registration level has not passed."""
        if self.status == "registering":
            return len(self.entries) < self.settings.capacity
        return (self.status == "running" and self.settings.late_registration_level > 0
                and self.level_reading().level.number <= self.settings.late_registration_level
                and len(self.entries) < self.settings.capacity)

    def register(self, player: str) -> Entry:
        """Enter ``player`` (a re-entry if the player has busted and may enter again).

        A late entry is seated at once at the table with the fewest players."""
        if not player or len(player) > 64:
            raise TournamentError("a player's name is 1 to 64 characters")
        if not self.registration_open:
            raise TournamentError("registration is closed")
        own = [e for e in self.entries.values() if e.player == player]
        if any(not e.out for e in own):
            raise TournamentError(f"{player} is already in the tournament")
        if len(own) >= self.settings.max_entries:
            raise TournamentError(f"{player} has made every entry allowed "
                                  f"({self.settings.max_entries})")
        number = len(own) + 1
        entry_id = player if number == 1 else f"{player}#{number}"
        entry = Entry(entry_id, player, number, self.settings.starting_chips)
        self.entries[entry_id] = entry
        if self.status == "running":
            self._seat_late(entry)
        return entry

    def unregister(self, player: str) -> Entry:
        """Take back a registration before the start (the caller refunds it)."""
        if self.status != "registering":
            raise TournamentError("a player can unregister only before the start")
        entry = self.entries.pop(player, None)
        if entry is None:
            raise TournamentError(f"{player} is not registered")
        return entry

    @property
    def full(self) -> bool:
        return len(self.entries) >= self.settings.capacity

    # -- the start ---------------------------------------------------------------------
    def start(self, rng: Rng) -> None:
        """Seat the entries at random, draw each table's button, and start the clock.

        A sit & go starts only when full; a scheduled tournament with ``min_players``."""
        if self.status != "registering":
            raise TournamentError(f"the tournament is {self.status}")
        if self.settings.format == "sit-and-go" and not self.full:
            raise TournamentError(f"a sit & go starts when full: {len(self.entries)} of "
                                  f"{self.settings.capacity} seats taken")
        if len(self.entries) < self.settings.min_players:
            raise TournamentError(f"{len(self.entries)} entries: the tournament needs "
                                  f"{self.settings.min_players}")
        self._rng = rng
        seats = self.settings.seats
        count = len(self.entries)
        tables = -(-count // seats)
        # Deal the entries round the tables as evenly as they go, then draw the seats.
        order = shuffle(list(self.entries), rng)
        for number in range(1, tables + 1):
            self.tables[number] = [None] * seats
        for i, entry_id in enumerate(order):
            number = i % tables + 1
            free = [s for s, e in enumerate(self.tables[number]) if e is None]
            self._sit(self.entries[entry_id], number, free[rng.randbelow(len(free))])
        for number, row in self.tables.items():
            taken = [s for s, e in enumerate(row) if e is not None]
            self.buttons[number] = taken[rng.randbelow(len(taken))]
        self.status = "running"
        self.elapsed = 0
        self._update_hand_for_hand()

    def _sit(self, entry: Entry, table: int, seat: int) -> None:
        self.tables[table][seat] = entry.entry_id
        entry.table, entry.seat = table, seat

    def _seat_late(self, entry: Entry) -> None:
        rng = self._need_rng()
        counts = {t: len(self.players_at(t)) for t in self.tables}
        fewest = min(counts.values())
        if fewest >= self.settings.seats:  # every table full: open a new one
            number = max(self.tables) + 1
            self.tables[number] = [None] * self.settings.seats
            self.buttons[number] = 0
            counts[number] = fewest = 0
        choices = [t for t, n in counts.items() if n == fewest]
        table = choices[rng.randbelow(len(choices))]
        free = [s for s, e in enumerate(self.tables[table]) if e is None]
        self._sit(entry, table, free[rng.randbelow(len(free))])

    def _need_rng(self) -> Rng:
        if self._rng is None:
            raise TournamentError("the tournament has not started")
        return self._rng

    # -- the clock ---------------------------------------------------------------------
    def tick(self, elapsed: int) -> ClockReading:
        """Tell the tournament its elapsed seconds (never backwards); the level now."""
        if elapsed < self.elapsed:
            raise TournamentError("the tournament clock does not run backwards")
        self.elapsed = elapsed
        return self.level_reading()

    def level_reading(self) -> ClockReading:
        return self.clock.reading(self.elapsed)

    # -- seats ---------------------------------------------------------------------------
    def players_at(self, table: int) -> list[str]:
        """The entries seated at ``table``, in seat order."""
        return [e for e in self.tables[table] if e is not None]

    def alive(self) -> list[Entry]:
        """The entries still in, in registration order."""
        return [e for e in self.entries.values() if not e.out]

    def chips_in_play(self) -> int:
        """Every chip: the stacks of the players between hands, and the stacks and the pot
        of each hand in play (its players' stacks are booked when it finishes)."""
        in_hands = {e for playing in self.hands.values() for e in playing.entries}
        total = sum(e.stack for e in self.entries.values()
                    if not e.out and e.entry_id not in in_hands)
        for playing in self.hands.values():
            hand = playing.hand
            total += sum(hand.stacks) + (0 if hand.finished else sum(hand.total_commit))
        return total

    def chips_issued(self) -> int:
        s = self.settings
        return (len(self.entries) * s.starting_chips + self.rebuys * s.rebuy_chips
                + self.add_ons * s.add_on_chips)

    # -- hands -----------------------------------------------------------------------------
    def can_deal(self, table: int) -> str | None:
        """Why ``table`` cannot deal a hand now, or None when it can."""
        if self.status != "running":
            return f"the tournament is {self.status}"
        if table not in self.tables:
            return f"there is no table {table}"
        if table in self.hands:
            return f"table {table} has a hand in play"
        if self.level_reading().on_break:
            return "the tournament is on a break"
        if len(self.players_at(table)) < 2:
            return f"table {table} waits for players"
        if self.hand_for_hand and table not in self._h4h_waiting:
            return "hand for hand: the other tables are finishing their hands"
        return None

    def next_positions(self, table: int) -> Positions:
        """The button, the blinds and the seats dealt in for the next hand at ``table``.

        The dead button (TDA): the big blind moves to the next player after last hand's
        big blind, the small blind sits where that big blind sat (dead if the seat is now
        empty, as after a bust), and the button where that small blind sat (possibly an
        empty seat, the last player before the blinds then acting last). Nobody so pays
        the big blind twice in a row or misses it. Heads-up the button posts the small
        blind and the big blind alternates. Stud has no blinds: its button moves to the
        next player.
        """
        row = self.tables[table]
        taken = [s for s, e in enumerate(row) if e is not None]
        first_hand = table not in self.big_blinds
        if self.variant.kind == "stud":
            button = self.buttons[table]
            if not first_hand or row[button] is None:
                button = _next_taken(row, button)
            order = (*_clockwise(taken, button)[1:], button)
            return Positions(button, None, order[0], order)
        if first_hand:  # the small blind left of the drawn button, the big blind next
            last_small = self.buttons[table]
            if row[last_small] is None:
                last_small = _next_taken(row, last_small)
            last_big = last_small if len(taken) == 2 else _next_taken(row, last_small)
        else:
            last_small, last_big = self.small_blinds[table], self.big_blinds[table]
        big = _next_taken(row, last_big)
        if len(taken) == 2:
            other = _next_taken(row, big)
            return Positions(other, other, big, (big, other))
        small = last_big if row[last_big] is not None and last_big != big else None
        button = last_small
        first = big if small is None else small
        order = _clockwise(taken, first)
        # Seats strictly between the button and the first blind: new players wait there.
        waiting = tuple(s for s in order
                        if s != big and _strictly_between(button, s, first, len(row)))
        dealt = tuple(s for s in order if s not in waiting)
        if len(dealt) < 2:
            dealt, waiting = order, ()
        return Positions(button, small, big, dealt, waiting)

    def deal(self, table: int, cards: CardSource | None = None) -> TableHand:
        """Deal the next hand at ``table`` at the level in force, the button and blinds
        where :meth:`next_positions` puts them."""
        reason = self.can_deal(table)
        if reason is not None:
            raise TournamentError(reason)
        row = self.tables[table]
        at = self.next_positions(table)
        # The seat of this hand's small blind, dead or not, is the next hand's button.
        dead_small = self.big_blinds.get(table, at.button)
        self.buttons[table] = at.button
        self.small_blinds[table] = dead_small if at.small_blind is None else at.small_blind
        self.big_blinds[table] = at.big_blind
        seats = list(at.dealt)
        ids = [row[s] for s in seats]
        entries = [self.entries[i] for i in ids if i is not None]
        stacks = [e.stack for e in entries]
        level = self.level_reading().level
        n = len(entries)
        hand_button = n - 1  # the hand's seat 0 is the first blind, as PHH
        ante, bring_in, antes, blinds = 0, 0, None, None
        if self.variant.kind == "stud":  # the level's big blind is the small bet
            ante, bring_in = forced_bets(self.variant, level.big_blind)
        else:
            big_index = seats.index(at.big_blind)
            if not at.heads_up:  # the blinds seat by seat: a dead small blind posts none
                blinds = [0] * n
                blinds[big_index] = level.big_blind
                if at.small_blind is not None:
                    blinds[seats.index(at.small_blind)] = level.small_blind
            if level.ante:  # the big-blind ante: the big blind first, then the ante
                antes = [0] * n
                antes[big_index] = min(level.ante,
                                       max(0, stacks[big_index] - level.big_blind))
        hand = PokerHand(self.variant, stacks, hand_button, level.small_blind,
                         level.big_blind, cards or ShuffledCards(self._need_rng()),
                         ante=ante, bring_in=bring_in, antes=antes, blinds=blinds)
        self.hands_dealt += 1
        playing = TableHand(table, self.hands_dealt, hand, [e.entry_id for e in entries],
                            seats, stacks, level.number, self.hand_for_hand)
        self.hands[table] = playing
        return playing

    def time_out(self, table: int) -> None:
        """The action timer ran out on the player to act at ``table``: the hand checks
        when a check is free, else folds (RULINGS: play goes on in their absence)."""
        playing = self.hands.get(table)
        if playing is None or playing.hand.finished or playing.hand.actor is None:
            raise TournamentError(f"nobody is to act at table {table}")
        hand, actor = playing.hand, playing.hand.actor
        if hand.discarding:
            hand.discard(hand.hole[actor][-1])
        elif hand.drawing:
            hand.draw([])
        elif hand.legal().check:
            hand.act("check")
        else:
            hand.act("fold")

    def busted(self, table: int) -> list[str]:
        """The entries the finished hand at ``table`` has busted (those who may rebuy
        before :meth:`finish_hand` takes them out)."""
        playing = self.hands.get(table)
        if playing is None or not playing.hand.finished:
            raise TournamentError(f"table {table} has no finished hand")
        return [e for e, stack in zip(playing.entries, playing.hand.stacks, strict=True)
                if stack == 0]

    @property
    def rebuys_open(self) -> bool:
        s = self.settings
        return (s.entry == "rebuy" and self.status == "running"
                and self.level_reading().level.number <= s.rebuy_until_level)

    def finish_hand(self, table: int, rebuys: Iterable[str] = ()) -> list[Move]:
        """Book a finished hand: the stacks, the busted players (less those who rebuy,
        while rebuys are open), and then what the tables need (breaking, balancing,
        hand for hand). Returns the moves made."""
        playing = self.hands.get(table)
        if playing is None:
            raise TournamentError(f"table {table} has no hand in play")
        if not playing.hand.finished:
            raise TournamentError(f"the hand at table {table} is not finished")
        rebuying = set(rebuys)
        broke = set(self.busted(table))
        if rebuying - broke:
            raise TournamentError("only a player the hand busted rebuys as it ends: "
                                  + ", ".join(sorted(rebuying - broke)))
        if rebuying and not self.rebuys_open:
            raise TournamentError("rebuys are closed")
        del self.hands[table]
        busted = []
        for entry_id, stack, start in zip(playing.entries, playing.hand.stacks,
                                          playing.start_stacks, strict=True):
            entry = self.entries[entry_id]
            entry.stack = stack
            if entry_id in rebuying:
                self._take_rebuy(entry)
            elif stack == 0:
                busted.append((entry_id, start))
        if playing.hand_for_hand:
            self._h4h_waiting.discard(table)
            self._pending_busts.extend(busted)
            if self._h4h_waiting:  # the round goes on: no one is out, no one moves yet
                return []
            busted, self._pending_busts = self._pending_busts, []
        self._eliminate(busted)
        moves = self._arrange()
        self._update_hand_for_hand()
        return moves

    def _eliminate(self, busted: list[tuple[str, int]]) -> None:
        """Take out the busted entries; busts of one hand (hand for hand: one round)
        place by their stacks at its start, higher first; equal stacks tie."""
        if not busted:
            return
        self._round += 1
        by_stack: dict[int, list[str]] = {}
        for entry_id, start in busted:
            entry = self.entries[entry_id]
            if entry.table is not None and entry.seat is not None:
                self.tables[entry.table][entry.seat] = None
            entry.out, entry.table, entry.seat, entry.busted_in = True, None, None, self._round
            by_stack.setdefault(start, []).append(entry_id)
        # The smallest stack is the first out: it takes the lowest place.
        for start in sorted(by_stack):
            self.finish.append(by_stack[start])
        alive = self.alive()
        if len(alive) == 1:
            self.finish.append([alive[0].entry_id])
            self.status = "finished"

    # -- rebuys and add-ons --------------------------------------------------------------
    def rebuy(self, entry_id: str) -> None:
        """Buy ``rebuy_chips`` more between hands, at or below the starting stack, until
        the rebuy level ends (the caller takes the rebuy's cost)."""
        entry = self._entry_between_hands(entry_id)
        s = self.settings
        if not self.rebuys_open:
            raise TournamentError("rebuys are closed")
        if entry.stack > s.starting_chips:
            raise TournamentError("a rebuy is for a stack at or below the starting chips")
        self._take_rebuy(entry)

    def _take_rebuy(self, entry: Entry) -> None:
        entry.stack += self.settings.rebuy_chips
        entry.rebuys += 1
        self.rebuys += 1

    def add_on_refused(self, entry: Entry) -> str | None:
        """Why ``entry`` cannot take the add-on now (its table's hand aside), or None."""
        s = self.settings
        reading = self.level_reading()
        if not s.add_on_chips or not (reading.on_break
                                      and reading.level.number == s.rebuy_until_level + 1):
            return "the add-on is taken at the break after the rebuy period"
        if entry.add_on:
            return f"{entry.entry_id} has taken the add-on"
        return None

    def add_on(self, entry_id: str) -> None:
        """Take the one add-on at the break after the rebuy period."""
        entry = self._entry_between_hands(entry_id)
        why = self.add_on_refused(entry)
        if why is not None:
            raise TournamentError(why)
        entry.stack += self.settings.add_on_chips
        entry.add_on = True
        self.add_ons += 1

    def _entry_between_hands(self, entry_id: str) -> Entry:
        entry = self.entries.get(entry_id)
        if entry is None or entry.out:
            raise TournamentError(f"{entry_id} is not in the tournament")
        if entry.table in self.hands:
            raise TournamentError(f"{entry_id}'s table has a hand in play")
        return entry

    # -- the tables: break, balance, hand for hand ---------------------------------------
    @property
    def hand_for_hand_waiting(self) -> frozenset[int]:
        """The tables yet to play this hand-for-hand round (none between rounds)."""
        return frozenset(self._h4h_waiting)

    def _idle(self, table: int) -> bool:
        return table not in self.hands

    def _arrange(self) -> list[Move]:
        """Break and balance the tables that are between hands (RULINGS): a table breaks
        when the others can seat its players, highest number first, its players seated
        at random; then the fullest table gives the player who would be big blind next to
        the shortest, to the seat nearest the same position."""
        if self.status != "running":
            return []
        moves: list[Move] = []
        seats = self.settings.seats
        while len(self.tables) > 1:
            players = len(self.alive())
            if players > (len(self.tables) - 1) * seats:
                break
            breaking = max(self.tables)
            if not self._idle(breaking):
                break
            reason: Literal["break", "final table"] = (
                "final table" if len(self.tables) == 2 else "break")
            moves += self._break(breaking, reason)
        while True:
            counts = {t: len(self.players_at(t)) for t in self.tables}
            if max(counts.values()) - min(counts.values()) <= 1:
                break
            short = min(counts, key=lambda t: (counts[t], t))
            givers = [t for t in counts if counts[t] == max(counts.values()) and self._idle(t)]
            if not givers:
                break
            moves.append(self._balance_move(min(givers), short))
        self.moves += moves
        return moves

    def _break(self, table: int, reason: Literal["break", "final table"]) -> list[Move]:
        rng = self._need_rng()
        moving = shuffle(self.players_at(table), rng)
        del self.tables[table]
        for record in (self.buttons, self.small_blinds, self.big_blinds):
            record.pop(table, None)
        moves = []
        for entry_id in moving:
            counts = {t: len(self.players_at(t)) for t in self.tables}
            fewest = min(counts.values())
            target = min(t for t in counts if counts[t] == fewest)
            free = [s for s, e in enumerate(self.tables[target]) if e is None]
            seat = free[rng.randbelow(len(free))]
            self._sit(self.entries[entry_id], target, seat)
            moves.append(Move(entry_id, table, target, seat, reason))
        return moves

    def _balance_move(self, source: int, target: int) -> Move:
        """Move the player who would be big blind next at ``source`` to the free seat of
        ``target`` nearest the same position: where the player is the next big blind
        there, or failing that as soon after it as the free seats allow."""
        row = self.tables[source]
        seat = self.next_positions(source).big_blind
        entry_id = row[seat]
        if entry_id is None:
            raise RuntimeError("the big blind's seat is empty")
        row[seat] = None
        target_row = self.tables[target]
        size = len(target_row)
        # The free seats after the target's last big blind come first: the first of them
        # before the next big blind makes the moved player the big blind next.
        last_big = self.big_blinds.get(target)
        if last_big is None:  # no hand yet: the seat before its first big blind
            first = self.next_positions(target) if any(target_row) else None
            last_big = 0 if first is None else (
                first.button if first.small_blind is None else first.small_blind)
        free = [s for s, e in enumerate(target_row) if e is None]
        to_seat = min(free, key=lambda s: ((s - last_big - 1) % size, s))
        self._sit(self.entries[entry_id], target, to_seat)
        return Move(entry_id, source, target, to_seat, "balance")

    def _update_hand_for_hand(self) -> None:
        """Hand for hand from the bubble on: while the players left are one more than
        the places paid, on more than one table, every table plays one hand a round."""
        if self.status != "running":
            self.hand_for_hand = False
            return
        if self._h4h_waiting:  # a round is being played
            return
        paid = len(self.payout_places())
        self.hand_for_hand = len(self.alive()) == paid + 1 and len(self.tables) > 1
        if self.hand_for_hand and not self.hands:
            # A round starts once every table is between hands; until then the tables
            # that are wait for those still playing a hand dealt before the bubble.
            self._h4h_waiting = set(self.tables)

    # -- a snapshot, for the record and for recovery -----------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The tournament as JSON-safe data, as it stands between hands: a hand in play
        is left out, its players at the stacks it started with (a hand cut short by a
        crash is void, and the tournament resumes before it)."""
        return {
            "status": self.status, "elapsed": self.elapsed, "hands_dealt": self.hands_dealt,
            "entries": [asdict(e) for e in self.entries.values()],
            "tables": {str(n): row for n, row in self.tables.items()},
            "buttons": {str(n): seat for n, seat in self.buttons.items()},
            "small_blinds": {str(n): seat for n, seat in self.small_blinds.items()},
            "big_blinds": {str(n): seat for n, seat in self.big_blinds.items()},
            "moves": [asdict(m) for m in self.moves], "finish": self.finish,
            "hand_for_hand": self.hand_for_hand, "rebuys": self.rebuys,
            "add_ons": self.add_ons, "round": self._round,
            "pending_busts": [list(b) for b in self._pending_busts],
            "h4h_waiting": sorted(self._h4h_waiting),
        }

    @classmethod
    def restore(cls, settings: TournamentSettings, data: dict[str, Any],
                rng: Rng | None = None) -> PokerTournament:
        """The tournament of a :meth:`snapshot`, dealing from ``rng`` once running."""
        t = cls(settings)
        t.status = data["status"]
        t.elapsed, t.hands_dealt = data["elapsed"], data["hands_dealt"]
        t.entries = {e["entry_id"]: Entry(**e) for e in data["entries"]}
        t.tables = {int(n): list(row) for n, row in data["tables"].items()}
        t.buttons = {int(n): seat for n, seat in data["buttons"].items()}
        # A snapshot from before the dead button has none: each table starts afresh.
        t.small_blinds = {int(n): seat for n, seat in data.get("small_blinds", {}).items()}
        t.big_blinds = {int(n): seat for n, seat in data.get("big_blinds", {}).items()}
        t.moves = [Move(**m) for m in data["moves"]]
        t.finish = [list(group) for group in data["finish"]]
        t.hand_for_hand, t.rebuys, t.add_ons = (data["hand_for_hand"], data["rebuys"],
                                                data["add_ons"])
        t._round = data["round"]
        t._pending_busts = [(entry_id, start) for entry_id, start in data["pending_busts"]]
        t._h4h_waiting = set(data["h4h_waiting"])
        t._rng = rng
        return t

    # -- prizes --------------------------------------------------------------------------
    def prize_pool(self) -> PrizePool:
        s = self.settings
        collected = len(self.entries) * s.buy_in + (self.rebuys + self.add_ons) * s.rebuy_cost
        pool = max(collected, s.guarantee)
        return PrizePool(collected=collected, pool=pool, overlay=pool - collected)

    def payout_places(self) -> tuple[int, ...]:
        """The basis points of each paid place for this field (announced at the start)."""
        table = load_payouts(self.settings.payouts)
        places = table.places_for(max(2, len(self.entries)))
        return places[:len(self.entries)]

    def place_prizes(self) -> tuple[int, ...]:
        return place_prizes(self.prize_pool().pool, self.payout_places())

    def places(self) -> dict[str, int]:
        """The place of each entry out so far (and the winner's, when finished): those
        out in one hand with equal stacks share the best place they cover.

        While the tournament runs, the places count from the players still in; late
        entries can still lower them."""
        if self.status == "finished":
            return places_of(list(reversed(self.finish)))
        place = len(self.alive()) + 1
        places: dict[str, int] = {}
        for group in reversed(self.finish):
            for entry_id in group:
                places[entry_id] = place
            place += len(group)
        return places

    def prizes(self) -> dict[str, int]:
        """Each entry's prize in cents, once the tournament is finished."""
        if self.status != "finished":
            raise TournamentError("prizes are paid when the tournament is finished")
        return award(list(reversed(self.finish)), self.place_prizes())

    def cancel(self) -> dict[str, int]:
        """Cancel the tournament: what each player is owed, in cents. Before the start, or
        with ``cancel_pays = "refund"``, every entry's buy-in and fee (and rebuys); else
        the pool shared by the chip counts (RULINGS), cents left over to the larger
        stacks first."""
        if self.status in ("finished", "cancelled"):
            raise TournamentError(f"the tournament is {self.status}")
        if self.hands:
            raise TournamentError("hands are in play: cancel between hands")
        s = self.settings
        owed: dict[str, int] = {}
        if self.status == "registering" or s.cancel_pays == "refund":
            for entry in self.entries.values():
                extra = (entry.rebuys + entry.add_on) * s.rebuy_cost
                owed[entry.player] = owed.get(entry.player, 0) + s.buy_in + s.fee + extra
        else:
            alive = self.alive()
            chips = sum(e.stack for e in alive)
            pool = self.prize_pool().pool
            shares = {e.entry_id: pool * e.stack // chips for e in alive}
            left = pool - sum(shares.values())
            for entry in sorted(alive, key=lambda e: -e.stack)[:left]:
                shares[entry.entry_id] += 1
            for entry in alive:
                owed[entry.player] = owed.get(entry.player, 0) + shares[entry.entry_id]
        self.status = "cancelled"
        return owed


def _clockwise(taken: list[int], first: int) -> tuple[int, ...]:
    """The occupied seats ``taken`` (in seat order) clockwise from ``first``."""
    return tuple([s for s in taken if s >= first] + [s for s in taken if s < first])


def _strictly_between(start: int, seat: int, end: int, size: int) -> bool:
    """Whether ``seat`` comes after ``start`` and before ``end``, clockwise."""
    return 0 < (seat - start) % size < (end - start) % size


def _next_taken(row: list[str | None], seat: int) -> int:
    """The first occupied seat clockwise after ``seat``."""
    size = len(row)
    for step in range(1, size + 1):
        if row[(seat + step) % size] is not None:
            return (seat + step) % size
    raise RuntimeError("an empty table has no next seat")


Bot = Callable[[PokerHand, random.Random], tuple[str, int | None]]


def play_out(tournament: PokerTournament, rng: Rng, seconds_a_hand: int = 60,
             bot: Bot | None = None, absent: Iterable[str] = (),
             on_hand: Callable[[TableHand], None] | None = None,
             hands: int | None = None) -> None:
    """Play a started tournament to the end with bots, every table dealing a hand a
    round and the clock moving ``seconds_a_hand`` a round (breaks skipped). Players in
    ``absent`` never act: the timer folds them. ``on_hand`` sees each hand once the
    tournament has booked it; ``hands`` stops the play after so many."""
    from pelisali.poker.selfplay import plausible_action

    play = bot or plausible_action
    away = set(absent)
    chooser = random.Random(rng.randbelow(1 << 62))  # noqa: S311 - bots' choices
    played = 0
    while tournament.status == "running":
        reading = tournament.level_reading()
        if reading.on_break and reading.seconds_left is not None:
            tournament.tick(tournament.elapsed + reading.seconds_left)
            continue
        dealt = False
        for table in list(tournament.tables):
            if table not in tournament.tables or tournament.can_deal(table) is not None:
                continue
            playing = tournament.deal(table)
            hand = playing.hand
            while not hand.finished:
                actor = hand.actor
                if actor is None:
                    raise RuntimeError("a hand in play has a player to act")
                if playing.entries[actor] in away or hand.discarding or hand.drawing:
                    tournament.time_out(table)
                else:
                    action, to = play(hand, chooser)
                    hand.act(action, to)
            tournament.finish_hand(table)
            if on_hand is not None:
                on_hand(playing)
            dealt = True
            played += 1
            if tournament.status != "running" or played == hands:
                return
        if not dealt and tournament.status == "running":
            raise RuntimeError("no table could deal a hand")
        tournament.tick(tournament.elapsed + seconds_a_hand)


__all__ = ["Entry", "Move", "PokerError", "PokerTournament", "Positions", "TableHand",
           "TournamentError", "TournamentSettings", "play_out"]
