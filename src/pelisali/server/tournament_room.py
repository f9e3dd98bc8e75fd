"""A running poker tournament in the server: its tables' hands dealt, the players' actions
taken in turn, the action timer, the level clock, and every change pushed to the players.

One :class:`TournamentRoom` runs each running tournament, in the process that started it
(or, after a restart, the first to be asked for it): it holds the engine
(:class:`~pelisali.tournaments.poker.PokerTournament`) with its hands in play, and books
each finished hand (:func:`pelisali.platform.tournament_tables.book`), the last one with
the prizes. A room that finds the record changed by another process stops rather than
overwrite it. A hand cut off by a crash is void: the tournament resumes from its last
booked hand (the engine's snapshot holds no hand in play).

The tournament's elapsed seconds come from the server's injected clock
(:mod:`pelisali.server.clock`): the level in force, the time to the next one and the
action timer run on it, so a test moves them without waiting.

A player acts on their own hand when it is their turn (``act``). A player with a socket
open who lets the action timer run out is checked when a check is free, else folded
(RULINGS: play goes on in their absence), and sits out: from then on, and whenever no
socket of theirs is open, the timer acts for them at each decision, or, in a tournament
started with ``bots`` (a demonstration's or a test's setting, not for money), a bot acts
for them at once. Any action of theirs brings them back.

Events go on the bus under the channel ``tournament-ID`` (:func:`channel`), as the
tables' do: each player present gets their own ``view`` (their hole cards only, their
legal actions when it is their turn); everyone gets ``level`` (a new level or break),
``hand-result``, ``bust`` (with the places), ``moved`` (balancing and breaking) and
``finished`` (the places and prizes).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy import Engine

from pelisali.platform import leases, tournament_tables, tournaments
from pelisali.platform.db import transaction
from pelisali.platform.leases import Lease
from pelisali.platform.ledger import LedgerError
from pelisali.platform.tournaments import Purchase
from pelisali.poker.selfplay import plausible_action
from pelisali.poker.table import PokerError
from pelisali.rng import Rng
from pelisali.server.bus import Bus, BusDown, LocalBus, NoResponder, Serving
from pelisali.server.clock import Clock, SystemClock, wait_for_event
from pelisali.server.live import AFTER, coded_reason
from pelisali.server.poker_room import apply_move
from pelisali.tournaments.clock import ClockReading
from pelisali.tournaments.poker import (
    Entry,
    Move,
    PokerTournament,
    TableHand,
    TournamentError,
)

log = logging.getLogger("pelisali.server")
NO_ACTION = "no hand is waiting for an action"


PREFIX = "tournament-"
"""What a tournament's channel and lease are named with, before its number."""


def channel(tournament_id: int) -> str:
    """The bus channel of a tournament's events.

    >>> channel(7)
    'tournament-7'
    """
    return f"{PREFIX}{tournament_id}"


def refused(reason: str) -> dict[str, Any]:
    """A refusal, with the message catalogue's code and params."""
    return {"type": "refused", **coded_reason(reason)}


def level_of(reading: ClockReading) -> dict[str, Any]:
    """The level in force (on a break, the one after it) and the seconds to the next."""
    return reading.shown()


@dataclass
class TournamentRoom:
    """One running tournament's play, paced by ``clock``; every method runs on the event
    loop, the ledger's work in a thread."""

    db: Engine
    tournament_id: int
    rng: Rng
    bus: Bus = field(default_factory=LocalBus)
    clock: Clock = field(default_factory=SystemClock)
    between_hands: float = 5.0  # a hand's result stays this long at a table with players
    bots: bool = False  # bots act for players sitting out (demonstrations and tests)
    seq: int = 0
    version: int = 0
    origin: float = 0.0  # the clock's time at the tournament's second 0
    present: Counter[str] = field(default_factory=Counter)  # sockets a player has open
    sitting_out: set[str] = field(default_factory=set)
    deadlines: dict[int, float] = field(default_factory=dict)  # table: the actor's time up
    resting: dict[int, float] = field(default_factory=dict)  # table: no deal before this
    stopped: str | None = None  # why the room stopped before the end
    # entry: the rebuy or add-on asked for while its table had a hand in play
    purchases: dict[str, Purchase] = field(default_factory=dict)
    _engine: PokerTournament | None = None
    _level: int = -1
    _task: asyncio.Task[None] | None = None
    _serving: Serving | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _chooser: random.Random = field(default_factory=random.Random)

    @property
    def name(self) -> str:
        return channel(self.tournament_id)

    @property
    def engine(self) -> PokerTournament:
        if self._engine is None:
            raise tournaments.TournamentRefused(f"tournament {self.tournament_id} is not open yet")
        return self._engine

    async def start(self) -> None:
        """Load the tournament as last booked, serve its channel and start dealing."""
        if self._task is not None:
            return
        self._engine, self.version = await asyncio.to_thread(self._load)
        self.origin = self.clock.now() - self.engine.elapsed
        self._chooser = random.Random(self.rng.randbelow(1 << 62))  # noqa: S311 - bots
        with contextlib.suppress(BusDown):
            self.seq, _ = await self.bus.last(self.name)
        with contextlib.suppress(BusDown):
            self._serving = await self.bus.serve(self.name, self.handle)
        self._task = asyncio.create_task(self._run(), name=self.name)

    def _load(self) -> tuple[PokerTournament, int]:
        with transaction(self.db) as session:
            record = tournaments.get(session, self.tournament_id)
            return tournaments.engine_of(record, self.rng), record.version

    async def stop(self) -> None:
        if self._serving is not None:
            with contextlib.suppress(Exception):
                await self._serving.stop()
            self._serving = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    @property
    def running(self) -> bool:
        return self._engine is not None and self.engine.status == "running" and not self.stopped

    # -- the clock -------------------------------------------------------------------------
    def elapsed(self) -> int:
        """The tournament's seconds now, by the clock (never less than it has reached)."""
        return max(self.engine.elapsed, int(self.clock.now() - self.origin))

    def reading(self) -> ClockReading:
        return self.engine.clock.reading(self.elapsed())

    # -- requests --------------------------------------------------------------------------
    async def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        """Answer a request of a player's socket (from any process), marked with the
        number of the last event published before the answer."""
        kind, player = message.get("type"), str(message.get("player", ""))
        if kind == "join":
            self.present[player] += 1
            answer = self.view(player)
        elif kind == "leave-socket":
            self.present[player] -= 1
            if self.present[player] <= 0:
                del self.present[player]
                self.sitting_out.add(player)  # the timer (or a bot) acts for them
                self._wake.set()
            answer = {"type": "left"}
        elif kind == "act":
            amount = message.get("amount")
            answer = await self.act(
                player,
                str(message.get("action") or ""),
                None if amount is None else int(amount),
                message.get("cards"),
            )
        elif kind == "back":
            answer = await self.back(player)
        elif kind in ("rebuy", "add-on"):
            answer = await self.buy(player, kind, str(message.get("key", "")))
        elif kind == "register":
            try:
                entry = await self.register(player, str(message.get("key", "")))
            except tournaments.TournamentRefused as exc:
                answer = refused(str(exc))
            else:
                answer = {"type": "registered", "entry": entry.entry_id}
        else:
            answer = self.view(player)
        return {**answer, AFTER: self.seq}

    def entry_of(self, player: str) -> Entry | None:
        """The player's entry still in, if any."""
        return next(
            (e for e in self.engine.entries.values() if e.player == player and not e.out), None
        )

    async def back(self, player: str) -> dict[str, Any]:
        """The player is back: the timer waits for them again."""
        if self.entry_of(player) is None:
            return refused(f"you are not playing in tournament {self.tournament_id}")
        self.sitting_out.discard(player)
        await self._show_table(self._table_of(player))
        return {"type": "back"}

    async def act(
        self, player: str, action: str, amount: int | None, cards: list[str] | None = None
    ) -> dict[str, Any]:
        """The player's action on their own hand, when it is their turn."""
        async with self._lock:
            if not self.running:
                return refused(f"tournament {self.tournament_id} is {self.engine.status}")
            entry = self.entry_of(player)
            if entry is None or entry.table is None:
                return refused(f"you are not playing in tournament {self.tournament_id}")
            playing = self.engine.hands.get(entry.table)
            if playing is None or playing.hand.finished or playing.hand.actor is None:
                return refused(NO_ACTION)
            hand, actor = playing.hand, playing.hand.actor
            to_act = self.engine.entries[playing.entries[actor]].player
            if to_act != player:
                return refused(f"it is {to_act}'s turn")
            try:
                apply_move(hand, action, amount, cards)
            except PokerError as exc:
                return refused(str(exc))
            self.sitting_out.discard(player)
            self.deadlines[entry.table] = self.clock.now() + self.engine.settings.action_seconds
            self._wake.set()
            await self._show_table(entry.table)
            return {"type": "acted", "action": action}

    async def register(self, player: str, key: str) -> Entry:
        """A late entry, seated at once (its ledger moves made in the same transaction
        as the engine is saved)."""
        async with self._lock:
            entry, self.version = await asyncio.to_thread(self._register, player, key)
            self._wake.set()
            return entry

    def _register(self, player: str, key: str) -> tuple[Entry, int]:
        with transaction(self.db) as session:
            return tournament_tables.register_live(
                session, self.tournament_id, self.engine, self.version, player, key
            )

    async def buy(self, player: str, what: Literal["rebuy", "add-on"], key: str) -> dict[str, Any]:
        """A rebuy or the add-on: taken at once when the player's table is between hands,
        else as the hand in play ends (a rebuy then saves a stack the hand busts). The
        answer is ``bought`` or ``pending`` (then a ``bought`` or ``refused`` event to
        the player follows), or ``refused`` with the reason."""
        async with self._lock:
            if not self.running:
                return refused(f"tournament {self.tournament_id} is {self.engine.status}")
            t = self.engine
            entry = self.entry_of(player)
            if entry is None:
                return refused(f"you are not playing in tournament {self.tournament_id}")
            purchase = Purchase(entry.entry_id, player, what, key)
            if await asyncio.to_thread(self._booked, purchase):
                return self._bought(purchase)
            why = _not_now(t, entry, what)
            if why is not None:
                return refused(why)
            if entry.table in t.hands:
                self.purchases[entry.entry_id] = purchase
                return {"type": "pending", "what": what, "entry": entry.entry_id}
            granted, refusals, _ = await self._take([purchase], table=None)
            if refusals:
                return refused(refusals[entry.entry_id])
            self._wake.set()
            await self._show_table(entry.table)
            return self._bought(granted[0])

    def _bought(self, purchase: Purchase) -> dict[str, Any]:
        entry = self.engine.entries[purchase.entry_id]
        return {"type": "bought", "what": purchase.what, "entry": entry.entry_id,
                "stack": entry.stack}

    def _booked(self, purchase: Purchase) -> bool:
        with transaction(self.db) as session:
            return tournaments.booked(session, self.tournament_id, self.engine, purchase)

    def _payable(self, wanted: list[Purchase]) -> tuple[list[Purchase], dict[str, str]]:
        with transaction(self.db) as session:
            return tournaments.payable(session, self.engine, wanted)

    async def _take(
        self, wanted: list[Purchase], table: int | None
    ) -> tuple[list[Purchase], dict[str, str], list[Move]]:
        """Give the chips of the ``wanted`` purchases the wallets can pay; the hand that
        ended at ``table`` (if any) is booked with them, a rebuy saving a busted stack.
        Books the engine and the costs in one transaction; the granted, the refused and
        the table moves the hand's end made."""
        t = self.engine
        allowed, refusals = await asyncio.to_thread(self._payable, wanted) if wanted else ([], {})
        moves: list[Move] = []
        granted = []
        if table is not None:
            broke = set(t.busted(table))
            saving = [p for p in allowed if p.what == "rebuy" and p.entry_id in broke
                      and t.rebuys_open]
            moves = t.finish_hand(table, rebuys=[p.entry_id for p in saving])
            granted.extend(saving)
            allowed = [p for p in allowed if p not in saving]
        for p in allowed:
            try:
                (t.rebuy if p.what == "rebuy" else t.add_on)(p.entry_id)
            except TournamentError as exc:
                refusals[p.entry_id] = str(exc)
            else:
                granted.append(p)
        self.version = await asyncio.to_thread(self._book, granted)
        return granted, refusals, moves

    # -- what a player sees ----------------------------------------------------------------
    def _table_of(self, player: str) -> int | None:
        entry = self.entry_of(player)
        return None if entry is None else entry.table

    def standings(self) -> list[dict[str, Any]]:
        """Every entry: those still in by their chips (as of their last hand booked), a
        place each by the chips; then those out by their place."""
        return standings(self.engine)

    def view(self, player: str | None) -> dict[str, Any]:
        """The tournament as ``player`` sees it: the level, the field, and their table
        with their own hand (never another player's hole cards)."""
        t = self.engine
        reading = self.reading()
        alive = t.alive()
        out: dict[str, Any] = {
            "type": "view",
            "tournament": self.tournament_id,
            "status": t.status,
            "level": level_of(reading),
            "left": len(alive),
            "entries": len(t.entries),
            "average": t.chips_in_play() // len(alive) if alive else 0,
            "you": player,
            "entry": None,
            "table": None,
            "seat": None,
            "place": None,
            "sitting_out": player in self.sitting_out,
            "hand": None,
            "players": [],
        }
        entry = self.entry_of(player) if player else None
        if entry is None:
            return out
        ranked = {row["entry"]: row["place"] for row in standings(t)}
        out.update(
            entry=entry.entry_id,
            table=entry.table,
            seat=entry.seat,
            place=ranked.get(entry.entry_id),
            stack=entry.stack,
        )
        if entry.table is None:
            return out
        playing = t.hands.get(entry.table)
        out["players"] = table_players(t, entry.table)
        if playing is None:
            return out
        hand = playing.hand
        names = [t.entries[e].player for e in playing.entries]
        # A late entry or a player moved in waits for the next hand: they watch this one.
        mine = playing.entries.index(entry.entry_id) if entry.entry_id in playing.entries else None
        shown = hand.view(mine)
        shown["players"] = names
        shown["number"] = playing.number
        out["hand"] = shown
        actor = hand.actor
        if actor is not None and not hand.finished:
            out["to_act"] = names[actor]
            out["seconds_left"] = max(0.0, self.deadlines.get(entry.table, 0.0) - self.clock.now())
            if mine == actor and not (hand.drawing or hand.discarding):
                legal = hand.legal()
                out["legal"] = {
                    "fold": legal.fold,
                    "check": legal.check,
                    "call": legal.call,
                    "raise_min": legal.raise_min,
                    "raise_max": legal.raise_max,
                }
        return out

    # -- the loop --------------------------------------------------------------------------
    async def _run(self) -> None:
        while self.running:
            try:
                await self._step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s", self.name)
                await self.clock.sleep(1)

    async def _step(self) -> None:
        self._wake.clear()
        async with self._lock:
            busy = await self._advance()
        if not self.running:
            return
        if busy:
            await asyncio.sleep(0)  # let the players' requests in between actions
            return
        await wait_for_event(self._wake, self.clock, self._next_wait())

    def _next_wait(self) -> float:
        """Seconds to the next thing the clock brings: an action timer, a table's next
        deal, the next level."""
        now = self.clock.now()
        times = [d for table, d in self.deadlines.items() if table in self.engine.hands]
        times += [r for r in self.resting.values() if r > now]
        left = self.reading().seconds_left
        if left is not None:
            times.append(now + left)
        return max(0.0, min(times) - now) if times else 3600.0

    async def _advance(self) -> bool:
        """Do what is due: a level, deals, one action at each table, the hands that
        ended; whether anything was done."""
        t = self.engine
        reading = t.tick(self.elapsed())
        if reading.index != self._level:
            self._level = reading.index
            await self._publish(None, {"type": "level", "level": level_of(reading)})
        now = self.clock.now()
        done = False
        for table in list(t.tables):
            if self.resting.get(table, 0.0) > now or t.can_deal(table) is not None:
                continue
            t.deal(table)
            self.deadlines[table] = now + t.settings.action_seconds
            await self._show_table(table)
            done = True
        for table, playing in list(t.hands.items()):
            if not playing.hand.finished and self._one_action(table, playing, now):
                await self._show_table(table)
                done = True
            if playing.hand.finished:
                await self._finish(table, playing)
                done = True
                if not self.running:
                    break
        return done

    def _one_action(self, table: int, playing: TableHand, now: float) -> bool:
        """The action due at ``table``: a bot's for a player sitting out (with bots), the
        timer's when it has run out; whether one was taken."""
        t, hand = self.engine, playing.hand
        actor = hand.actor
        if actor is None:
            return False
        player = t.entries[playing.entries[actor]].player
        if self.bots and player in self.sitting_out:
            if hand.drawing or hand.discarding:
                t.time_out(table)
            else:
                action, to = plausible_action(hand, self._chooser)
                hand.act(action, to)
        elif self.deadlines.get(table, 0.0) <= now:
            t.time_out(table)
            self.sitting_out.add(player)
        else:
            return False
        self.deadlines[table] = now + t.settings.action_seconds
        return True

    async def _finish(self, table: int, playing: TableHand) -> None:
        """Book the hand that ended at ``table``, and say what came of it."""
        t = self.engine
        hand = playing.hand
        names = [t.entries[e].player for e in playing.entries]
        view = hand.view(None)
        shown = {names[int(seat)]: cards for seat, cards in dict(view["shown"]).items()}  # type: ignore[call-overload]
        wanted = [p for p in self.purchases.values() if t.entries[p.entry_id].table == table]
        for p in wanted:
            del self.purchases[p.entry_id]
        broke = t.busted(table)
        self.deadlines.pop(table, None)
        try:
            granted, refusals, moves = await self._take(wanted, table)
        except LedgerError as exc:
            self.stopped = str(exc)
            log.error("%s stopped: %s", self.name, exc)
            return
        busted = [e for e in broke if t.entries[e].out]  # less those whose rebuy saved them
        for p in granted:
            await self._publish(p.player, self._bought(p))
        for entry_id, why in refusals.items():
            await self._publish(t.entries[entry_id].player, {**refused(why), "entry": entry_id})
        seated = [t.entries[e].player for e in t.players_at(table)] if table in t.tables else []
        if any(self.present[p] for p in seated):
            self.resting[table] = self.clock.now() + self.between_hands
        await self._publish(
            None,
            {
                "type": "hand-result",
                "table": table,
                "hand": playing.number,
                "chips": dict(zip(names, hand.stacks, strict=True)),
                "shown": shown,
            },
        )
        if moves:
            await self._publish(
                None,
                {
                    "type": "moved",
                    "moves": [
                        {
                            "player": t.entries[m.entry_id].player,
                            "from": m.from_table,
                            "to": m.to_table,
                            "seat": m.to_seat,
                            "reason": m.reason,
                        }
                        for m in moves
                    ],
                },
            )
        if busted:
            places = t.places()
            await self._publish(
                None,
                {
                    "type": "bust",
                    "players": [t.entries[e].player for e in busted],
                    "places": {t.entries[e].player: places.get(e) for e in busted},
                    "left": len(t.alive()),
                },
            )
        if t.status == "finished":
            await self._publish(None, {"type": "finished", "results": results_of(t)})
        for other in {table, *(m.to_table for m in moves)}:
            if other in t.tables:
                await self._show_table(other)

    def _book(self, bought: list[Purchase]) -> int:
        with transaction(self.db) as session:
            return tournament_tables.book(
                session, self.tournament_id, self.engine, self.version, bought
            )

    # -- sending -----------------------------------------------------------------------------
    async def _show_table(self, table: int | None) -> None:
        """Each player present at ``table`` their own view of it."""
        if table is None or table not in self.engine.tables:
            return
        stamp = self.seq
        for entry_id in self.engine.players_at(table):
            player = self.engine.entries[entry_id].player
            if self.present[player]:
                await self._publish(player, {**self.view(player), "seq": stamp})

    async def _publish(self, audience: str | None, body: dict[str, Any]) -> None:
        try:
            self.seq = await self.bus.publish(
                self.name, {**body, "audience": audience, "at": time.time()}
            )
        except BusDown:  # the hands go on and are booked; the views wait for the bus
            log.warning("%s: event %s not published, the bus is down", self.name, body.get("type"))


def _not_now(t: PokerTournament, entry: Entry, what: str) -> str | None:
    """Why ``entry`` cannot buy ``what`` at all now, whatever its hand in play does."""
    if what == "rebuy":
        return None if t.rebuys_open else "rebuys are closed"
    return t.add_on_refused(entry)


def table_players(t: PokerTournament, table: int) -> list[dict[str, Any]]:
    """The players at ``table`` by seat, with their chips behind (in a hand: what the
    hand leaves them now)."""
    playing = t.hands.get(table)
    now: dict[str, int] = {}
    if playing is not None:
        now = dict(zip(playing.entries, playing.hand.stacks, strict=True))
    return [
        {
            "seat": seat,
            "entry": entry_id,
            "player": t.entries[entry_id].player,
            "chips": now.get(entry_id, t.entries[entry_id].stack),
        }
        for seat, entry_id in enumerate(t.tables[table])
        if entry_id is not None
    ]


def standings(t: PokerTournament) -> list[dict[str, Any]]:
    """The leaderboard: the entries still in by their chips (as of their last hand
    booked), equal stacks sharing a place; then those out, by their place."""
    alive = sorted(t.alive(), key=lambda e: (-e.stack, e.entry_id))
    rows: list[dict[str, Any]] = []
    for i, e in enumerate(alive):
        place = rows[-1]["place"] if rows and rows[-1]["chips"] == e.stack else i + 1
        rows.append(
            {
                "entry": e.entry_id,
                "player": e.player,
                "chips": e.stack,
                "place": place,
                "out": False,
                "table": e.table,
            }
        )
    places = t.places()
    out = sorted(
        (e for e in t.entries.values() if e.out),
        key=lambda e: (places.get(e.entry_id, 0), e.entry_id),
    )
    rows += [
        {
            "entry": e.entry_id,
            "player": e.player,
            "chips": 0,
            "place": places.get(e.entry_id),
            "out": True,
            "table": None,
        }
        for e in out
    ]
    return rows


def results_of(t: PokerTournament) -> list[dict[str, Any]]:
    """A finished tournament's places with their prizes in cents, first place first."""
    places = t.places()
    prizes = t.prizes() if t.status == "finished" else {}
    return [
        {"place": places[e], "entry": e, "player": t.entries[e].player, "prize": prizes.get(e, 0)}
        for e in sorted(places, key=lambda e: (places[e], e))
    ]


@dataclass
class RemoteRoom:
    """A running tournament whose room another process holds the lease of: its players'
    requests go to that room over the bus, as a socket's do."""

    bus: Bus
    tournament_id: int
    running: bool = True

    async def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        """The holder's answer (a refusal, coded, when it cannot be reached now)."""
        try:
            return await self.bus.request(channel(self.tournament_id), message)
        except (NoResponder, BusDown) as exc:
            return {**refused(f"the tournament cannot be reached now: {exc}"), AFTER: 0}


class TournamentRooms:
    """The tournaments this process runs, one room each, opened when a tournament
    starts or when a running one is first asked for (after a restart).

    One process at a time runs a tournament: the holder of its lease
    (:mod:`pelisali.platform.leases`, named by its :func:`channel`). The others answer
    with a :class:`RemoteRoom`. The holder renews the lease every second and gives it
    up when the tournament ends or the server stops; if it dies, the lease runs out and
    the next process to look (a request, or its own keeper) takes the tournament over
    and resumes it from its last booked hand."""

    def __init__(self, db: Engine, rng: Rng, bus: Bus, clock: Clock, between_hands: float,
                 owner: str = "") -> None:
        self.db, self.rng, self.bus, self.clock = db, rng, bus, clock
        self.between_hands = between_hands
        self.owner = owner or f"tournaments-{id(self)}"
        self.rooms: dict[int, TournamentRoom] = {}
        self.leases: dict[int, Lease] = {}
        self.bots: set[int] = set()  # tournaments whose absent players bots play
        self._opening = asyncio.Lock()
        self._keeper: asyncio.Task[None] | None = None

    async def room(self, tournament_id: int) -> TournamentRoom | RemoteRoom | None:
        """The room of a running tournament (opened here if nobody runs it; another
        process's as a :class:`RemoteRoom`), or None when the tournament is not running."""
        async with self._opening:
            room = self.rooms.get(tournament_id)
            if room is not None and room.running:
                return room
            status = await asyncio.to_thread(self._status, tournament_id)
            if status != "running":
                return room  # a finished room still answers what it ended with
            lease = await asyncio.to_thread(self._acquire, tournament_id)
            if lease is None:
                return RemoteRoom(self.bus, tournament_id)
            self.leases[tournament_id] = lease
            if self._keeper is None:
                self._keeper = asyncio.get_running_loop().create_task(
                    self._keep(), name="tournament-leases")
            room = TournamentRoom(
                self.db,
                tournament_id,
                self.rng,
                self.bus,
                self.clock,
                between_hands=self.between_hands,
                bots=tournament_id in self.bots,
            )
            try:
                await room.start()
            except BaseException:
                self.leases.pop(tournament_id, None)
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(self._let_go, tournament_id, False)
                raise
            self.rooms[tournament_id] = room
            return room

    def _status(self, tournament_id: int) -> str:
        with transaction(self.db) as session:
            return tournaments.get(session, tournament_id).status

    def _acquire(self, tournament_id: int) -> Lease | None:
        with transaction(self.db) as session:
            return leases.acquire(session, channel(tournament_id), self.owner)

    def _let_go(self, tournament_id: int, hand_over: bool) -> None:
        with transaction(self.db) as session:
            if hand_over:
                leases.hand_over(session, channel(tournament_id), self.owner)
            else:
                leases.release(session, channel(tournament_id), self.owner)

    def _orphans(self) -> list[int]:
        """Tournaments whose runner died: their lease ran out without being given up."""
        with transaction(self.db) as session:
            names = leases.orphaned(session)
        return [int(n.removeprefix(PREFIX)) for n in names
                if n.startswith(PREFIX) and n.removeprefix(PREFIX).isdigit()]

    async def _keep(self) -> None:
        """Renew the leases of the rooms running here; give up those of tournaments
        ended; stop a room whose lease another process took (this one stalled past its
        end); take over the tournaments whose runner died."""
        while True:
            await asyncio.sleep(leases.RENEW_EVERY.total_seconds())
            await self.keep_once()

    async def keep_once(self) -> None:
        """One turn of the lease keeper (see :meth:`_keep`)."""
        for tournament_id in list(self.leases):
            room = self.rooms.get(tournament_id)
            try:
                if room is None or not room.running:
                    del self.leases[tournament_id]
                    await asyncio.to_thread(self._let_go, tournament_id, False)
                    continue
                lease = await asyncio.to_thread(self._acquire, tournament_id)
            except Exception:  # the database is away: try again at the next turn
                log.warning("lease of tournament %s not renewed", tournament_id, exc_info=True)
                continue
            if lease is None:
                log.error("lost the lease of tournament %s: another process runs it",
                          tournament_id)
                self.leases.pop(tournament_id, None)
                if (lost := self.rooms.pop(tournament_id, None)) is not None:
                    await lost.stop()
            else:
                self.leases[tournament_id] = lease
        try:
            orphans = await asyncio.to_thread(self._orphans)
        except Exception:
            log.warning("could not look for tournaments to take over", exc_info=True)
            return
        for tournament_id in orphans:
            try:
                if isinstance(await self.room(tournament_id), TournamentRoom):
                    log.warning("took over tournament %s: its runner stopped renewing",
                                tournament_id)
            except Exception:
                log.exception("could not take over tournament %s", tournament_id)

    async def stop(self) -> None:
        """Stop every room and hand the tournaments over: another process takes each at
        once and resumes it from its last booked hand."""
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
            self._keeper = None
        for tournament_id, room in list(self.rooms.items()):
            with contextlib.suppress(Exception):
                await room.stop()
            if tournament_id in self.leases:
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(self._let_go, tournament_id, True)
        self.rooms.clear()
        self.leases.clear()


__all__ = [
    "PREFIX",
    "RemoteRoom",
    "TournamentRoom",
    "TournamentRooms",
    "channel",
    "level_of",
    "refused",
    "results_of",
    "standings",
    "table_players",
]
