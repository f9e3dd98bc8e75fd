"""Poker tables over WebSocket: seats bought from the wallet, hands dealt as soon as two
players are in, an action timer, sitting out, leaving, and reconnection.

Each client receives only its own view, made by the engine for its seat
(:meth:`pelisali.poker.table.PokerHand.view`): its own hole cards, the board, the
stacks and the public actions; never another player's hole cards (unless shown at
the showdown) and never the deck. A spectator's view holds no hole card at all.

The money is the platform's (:class:`pelisali.platform.poker_tables.CashTable`): a
buy-in moves from the wallet to the table's account, every finished hand is recorded
with its rake in one transaction, and leaving cashes the chips out. ``sit`` and
``leave`` move money, so each carries the client's idempotency key: without one it is
refused; the same key again gets its first answer and moves nothing; the key used for
another request (another amount or table, a sit's key sent to leave) is refused. A sit
of a player already seated, or a leave of one not seated, is refused with the reason.

When the timer runs out the player checks if they may and folds if not, and sits out
from the next hand until they say they are back. A player who disconnects keeps the
seat; their hand is played on by the timer, and if they have not come back after
``away_seconds`` they are sat out and cashed out to the wallet (at the end of the hand,
if they are in one). A player who leaves during a hand is cashed out when it ends. At
the showdown the hands shown are named in each language, and the result stays on the
table ``between_hands`` seconds before the next hand. These are the common online-poker
practice, written in the rules page with the table's times; RAY 1.4.1.1.1 says nothing
of timers.

The room runs in the process that holds the table's lease. Its players' sockets may be
on any process: what they do reaches the room as requests (:meth:`PokerRoom.handle`),
and each player's view and every hand's result go out on the bus, a view only to its
player. A room that starts where another runner left off (it died mid-hand) opens the
table as the ledger has it: a hand cut off is void and every stack is as at its start
(RULINGS.md: a round void by a system malfunction pays nothing and the stakes go back),
and it says ``resumed`` with ``hand_void`` so that the players' sockets tell it again
who is at the table and the players are told.
"""

import asyncio
import contextlib
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine

from pelisali.platform.ledger import KeyConflict, LedgerError
from pelisali.platform.poker_tables import CashTable, PokerTableError
from pelisali.poker.describe import LANGS
from pelisali.poker.table import PokerError, PokerHand
from pelisali.rng import Rng
from pelisali.server.bus import Bus, BusDown, LocalBus
from pelisali.server.clock import Clock, SystemClock, wait_for_event
from pelisali.server.live import AFTER, coded_reason, keep_going, log


@dataclass
class PokerRoom:
    """One poker table's play in the server process, its action timer and the breath
    between hands paced by its ``clock``; every method runs on the event loop, the
    ledger's work in a thread."""

    engine: Engine
    table: str
    rng: Rng
    bus: Bus = field(default_factory=LocalBus)
    act_seconds: float = 20.0
    between_hands: float = 5.0  # the showdown's result stays this long (a setting)
    clock: Clock = field(default_factory=SystemClock)
    away_seconds: float = 120.0  # a seated player gone this long is cashed out
    seq: int = 0  # the number of the last event published
    deadline: float = 0.0
    present: Counter[str] = field(default_factory=Counter)  # sockets a player has open
    # Players who asked to leave during a hand, each with the key of their request: the
    # cash-out at the hand's end is made under it, so the request retried gets its answer.
    leaving: dict[str, str] = field(default_factory=dict)
    # Seated players with no socket open, each with the number of their going: the timer
    # cashes them out only if that going is still the last (they did not come back).
    away: dict[str, int] = field(default_factory=dict)
    _goings: int = 0
    _cash: CashTable | None = None
    _task: asyncio.Task[None] | None = None
    _timers: set[asyncio.Task[None]] = field(default_factory=set)
    _wake: asyncio.Event = field(default_factory=asyncio.Event)

    async def start(self) -> None:
        if self._task is None:
            self._cash = await asyncio.to_thread(CashTable.open, self.engine, self.table,
                                                 self.rng)
            try:
                self.seq, last = await self.bus.last(self.table)
            except BusDown:
                last = None
            if last is not None:  # another runner was here: its hand, if any, is void
                cut_off = last.get("type") == "view" and last.get("hand") is not None
                await self._publish(None, {
                    "type": "resumed", "hand_void": cut_off,
                    "reason": "the table moved to another server process"
                              + (": the hand in play is void and every stack is as at "
                                 "its start" if cut_off else "")})
            self._task = asyncio.create_task(self._run(), name=f"poker-{self.table}")
            for seat in self.cash.table.seats:  # each has the time to come back here
                if seat is not None and not self.present[seat.player]:
                    self._gone(seat.player)

    async def stop(self) -> None:
        for task in [*self._timers, *([self._task] if self._task else [])]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    @property
    def cash(self) -> CashTable:
        if self._cash is None:  # refused until start() has opened the table
            raise PokerTableError(f"poker table {self.table} is not open yet")
        return self._cash

    # -- what players ask, from any process ----------------------------------------------
    async def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        """Answer a player's request (:meth:`answer`), marked with the number of the
        last event published before the answer."""
        answer = await self.answer(message)
        return {**answer, AFTER: self.seq}

    async def answer(self, message: dict[str, Any]) -> dict[str, Any]:
        """Answer a request of a player's socket: ``join`` and ``leave-socket`` (a socket
        opened or closed), ``view``, ``sit``, ``sit-out``, ``sit-in``, ``leave`` and
        ``act``; each answer is the player's view or what came of their request."""
        kind, player = message.get("type"), str(message.get("player", ""))
        key = str(message.get("key", ""))
        if kind == "join":
            self.present[player] += 1
            self.away.pop(player, None)
            return self.view(player)
        if kind == "leave-socket":
            self.present[player] -= 1
            if self.present[player] <= 0:
                del self.present[player]
                self._gone(player)
            return {"type": "left"}
        if kind == "sit":
            return await self.sit(player, int(message.get("amount") or 0), key)
        if kind in ("sit-out", "sit-in"):
            return await self.sit_out(player, kind == "sit-out")
        if kind == "leave":
            return await self.leave(player, key)
        if kind == "act":
            amount = message.get("amount")
            return await self.act(player, str(message.get("action") or ""),
                                  None if amount is None else int(amount),
                                  message.get("cards"))
        return self.view(player)

    def view(self, player: str | None, seq: int | None = None) -> dict[str, Any]:
        """The table as ``player`` sees it (None: a spectator), numbered ``seq`` (the
        last event's number by default)."""
        cash = self.cash
        hand = cash.hand
        seats = [{"seat": i, "player": s.player, "chips": s.chips,
                  "sitting_out": s.sitting_out}
                 for i, s in enumerate(cash.table.seats) if s is not None]
        out: dict[str, Any] = {"type": "view", "seq": self.seq if seq is None else seq,
                               "table": self.table,
                               "game": cash.settings.describe(), "seats": seats,
                               "you": player, "hand": None}
        if hand is None:
            return out
        names = cash.in_hand
        mine = names.index(player) if player in names else None
        shown = hand.view(mine)
        shown["players"] = names
        out["hand"] = shown
        actor = hand.actor
        if actor is not None and not hand.finished:
            out["to_act"] = names[actor]
            out["seconds_left"] = max(0.0, self.deadline - self.clock.now())
            if mine == actor and not (hand.drawing or hand.discarding):
                legal = hand.legal()
                out["legal"] = {"fold": legal.fold, "check": legal.check, "call": legal.call,
                                "raise_min": legal.raise_min, "raise_max": legal.raise_max}
        return out

    # -- what players do ---------------------------------------------------------------
    async def sit(self, player: str, amount: int, key: str) -> dict[str, Any]:
        """Buy in under ``key``; a seated player is refused (a second sit is a replay or a
        mistake, never a top-up), but the same key again is its first answer."""
        if not key:
            return _refused(NO_KEY.format(what="a sit (buy-in)"))
        try:
            seat = await asyncio.to_thread(self.cash.buy_in, player, amount, key, top_up=False)
        except KeyConflict as exc:
            return _refused(f"this key was used for {exc.first}; send a new key")
        except (LedgerError, PokerError) as exc:
            return _refused(str(exc))
        self._wake.set()
        await self._broadcast()
        return {"type": "seated", "seat": seat}

    async def sit_out(self, player: str, out: bool) -> dict[str, Any]:
        try:
            self.cash.sit_out(player, out)
        except LedgerError as exc:
            return _refused(str(exc))
        self._wake.set()
        await self._broadcast()
        return {"type": "sitting-out" if out else "sitting-in"}

    async def leave(self, player: str, key: str) -> dict[str, Any]:
        """Cash out under ``key`` (when the hand ends for a player in it). A cash-out
        made under the key is its first answer, and nothing moves again; a player not
        seated is refused: there is nothing to cash out."""
        if not key:
            return _refused(NO_KEY.format(what="a leave (cash-out)"))
        try:
            paid = await asyncio.to_thread(self.cash.cashed_out, player, key)
        except KeyConflict as exc:
            return _refused(f"this key was used for {exc.first}; send a new key")
        except LedgerError as exc:
            return _refused(str(exc))
        if paid is not None:  # a retry: what the cash-out under this key paid
            return {"type": "cashed-out", "amount": paid}
        if player in self.leaving:
            return {"type": "leaving", "reason": "you leave when this hand ends"}
        if self.cash.table.index(player) is None:
            return _refused(f"you are not seated at {self.table}: nothing to cash out")
        if player in self.cash.in_hand and self.cash.hand is not None:
            self.leaving[player] = key  # cashed out under it when the hand ends
            with contextlib.suppress(LedgerError):
                self.cash.sit_out(player, True)
            return {"type": "leaving", "reason": "you leave when this hand ends"}
        return await self._cash_out(player, key)

    async def act(self, player: str, action: str, amount: int | None,
                  cards: list[str] | None = None) -> dict[str, Any]:
        hand = self.cash.hand
        names = self.cash.in_hand
        if hand is None or hand.finished or hand.actor is None:
            return _refused("no hand is waiting for an action")
        if names[hand.actor] != player:
            return _refused(f"it is {names[hand.actor]}'s turn")
        try:
            apply_move(hand, action, amount, cards)
        except PokerError as exc:
            return _refused(str(exc))
        self.deadline = self.clock.now() + self.act_seconds
        self._wake.set()
        await self._broadcast()
        return {"type": "acted", "action": action}

    # -- the table's loop ----------------------------------------------------------------
    async def _run(self) -> None:
        await keep_going(self._step, f"poker table {self.table}", self.clock)

    async def _step(self) -> None:
        """One turn of the table: deal, wait for the player to act, or record."""
        cash = self.cash
        hand = cash.hand
        if hand is None:
            ready = [s for s in cash.table.seats
                     if s is not None and not s.sitting_out and s.chips > 0]
            if len(ready) < 2:
                self._wake.clear()
                await self._wake.wait()
                return
            try:
                cash.start_hand()
            except LedgerError:
                self._wake.clear()
                await self._wake.wait()
                return
            self.deadline = self.clock.now() + self.act_seconds
            await self._broadcast()
            return
        if hand.finished:
            names = cash.in_hand
            shown = {names[seat]: cards for seat, cards in
                     _shown(hand.view(None)).items()}
            named = {lang: hand.shown_hands(lang) for lang in LANGS}
            hands = {names[seat]: {lang: named[lang][seat] for lang in LANGS}
                     for seat in named["en"]}
            result = await asyncio.to_thread(cash.finish_hand)
            await self._publish(None, {"type": "hand-result", "round_id": result.round_id,
                                       "rake": result.rake, "chips": result.chips,
                                       "shown": shown, "hands": hands})
            for name, key in sorted(self.leaving.items()):
                await self._cash_out(name, key)  # refused: still seated, sitting out
                self.leaving.pop(name, None)
            await self._broadcast()
            await self.clock.sleep(self.between_hands)
            return
        self._wake.clear()
        if not await wait_for_event(self._wake, self.clock,
                                    max(0.0, self.deadline - self.clock.now())):
            await self._timed_out()

    async def _timed_out(self) -> None:
        hand = self.cash.hand
        if hand is None or hand.finished or hand.actor is None:
            return
        player = self.cash.in_hand[hand.actor]
        if hand.drawing:
            hand.draw([])  # stands pat
        elif hand.discarding:
            hand.discard(hand.hole[hand.actor][-1])
        else:
            hand.act("check" if hand.legal().check else "fold")
        with contextlib.suppress(LedgerError):
            self.cash.sit_out(player, True)
        self.deadline = self.clock.now() + self.act_seconds
        await self._broadcast()

    def _gone(self, player: str) -> None:
        """``player`` has no socket open here: if they are seated and do not come back
        within ``away_seconds``, they are sat out and cashed out."""
        if self._cash is None or self.cash.table.index(player) is None:
            return
        self._goings += 1
        self.away[player] = self._goings
        timer = asyncio.create_task(self._away(player, self._goings),
                                    name=f"poker-{self.table}-away-{player}")
        self._timers.add(timer)
        timer.add_done_callback(self._timers.discard)

    async def _away(self, player: str, going: int) -> None:
        await self.clock.sleep(self.away_seconds)
        if self.away.get(player) != going or self.present[player] > 0:
            return  # back meanwhile (or gone again later: that going's timer decides)
        del self.away[player]
        if self.cash.table.index(player) is None or player in self.leaving:
            return
        answer = await self.leave(player, f"away-{uuid.uuid4().hex}")
        log.info("%s: %s away %.0f s: %s", self.table, player, self.away_seconds,
                 answer.get("type"))

    async def _cash_out(self, player: str, key: str) -> dict[str, Any]:
        try:
            chips = await asyncio.to_thread(self.cash.cash_out, player, key)
        except (PokerTableError, LedgerError) as exc:
            log.warning("%s: %s not cashed out: %s", self.table, player, exc)
            return _refused(str(exc))
        self.leaving.pop(player, None)
        await self._broadcast()
        return {"type": "cashed-out", "amount": chips}

    # -- sending -----------------------------------------------------------------------
    async def _broadcast(self) -> None:
        """Each player at the table (on any process) their own view of it, all the views
        of one change under one number."""
        stamp = self.seq
        for player in sorted(self.present):
            await self._publish(player, self.view(player, stamp))

    async def _publish(self, audience: str | None, body: dict[str, Any]) -> None:
        try:
            self.seq = await self.bus.publish(self.table, {**body, "audience": audience,
                                                           "at": time.time()})
        except BusDown:  # the hands go on and are recorded; the views wait for the bus
            log.warning("%s: event %s not published, the bus is down", self.table,
                        body.get("type"))


def apply_move(hand: PokerHand, action: str, amount: int | None,
               cards: list[str] | None) -> None:
    """A player's move on ``hand``: a draw, a discard, or a betting action (the hand
    raises :class:`PokerError` for a move it does not allow)."""
    if action == "draw":
        hand.draw(cards or [])
    elif action == "discard":
        hand.discard((cards or [""])[0])
    else:
        hand.act(action, to=amount)


def _refused(reason: str) -> dict[str, Any]:
    """A refusal, with the message catalogue's code and params for the page's language."""
    return {"type": "refused", **coded_reason(reason)}


NO_KEY = ("{what} moves money, so it carries a key: a new one for each request, the "
          "same one to send it again")


def _shown(view: dict[str, object]) -> dict[int, list[str]]:
    """The hole cards shown at the showdown, by seat (none if the view holds none)."""
    shown = view.get("shown")
    if not isinstance(shown, dict):
        return {}
    return {int(seat): list(cards) for seat, cards in shown.items()}
