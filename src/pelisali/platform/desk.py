"""A live table's desk: one writer per table that takes the bets of many players
together (group commit) and holds the open round in memory between them.

At a live table every seated player puts chips down in the same betting window. Each
bet must be debited before it is accepted, but nothing requires one transaction per
bet: the desk gathers the slips that arrive while it is writing and accepts them in
the next transaction, in a fixed number of statements however many there are
(:func:`pelisali.platform.rounds.accept_slips`). Every caller still gets their own
answer, after the transaction that took their money has committed.

The desk owns its table's open round in this process, as the engine holds it (each
player's own state of :class:`~pelisali.engine.wager.WagerEngine`,
:class:`~pelisali.platform.wager_family.WagerRound`: a slip is checked against its
player's bets, not the table's); the round row is locked in every transaction, and a
round changed from elsewhere (a void by staff through the command line) is reloaded
from the database before the next batch.

>>> from datetime import date
>>> from pelisali.platform import accounts
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform.ledger import move
>>> from pelisali.platform.rounds import create_table
>>> from pelisali.rng import SeededRng
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = move(s, "fund", "external:owner", "house:bank", 1_000_000, "funding")
...     _ = create_table(s, "live-1", "roulette", "C", mode="live")
...     for name in ("ann", "bob"):
...         _ = accounts.register(s, name, date(1990, 1, 1), "FI")
...         _ = accounts.deposit(s, name, 10_000, key=f"d-{name}")
>>> desk = TableDesk(engine, "live-1")
>>> [r.accepted for r in desk.bet("ann", [("red", 1_000), ("straight 17", 100)], key="a1")]
[1000, 100]
>>> desk.bet("bob", [("nowhere", 100)], key="b1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pelisali.platform.rounds.TableError: roulette C has no betting spot 'nowhere'; ...
>>> round_id, settled = desk.spin(SeededRng(2))
>>> len(settled)
2
>>> desk.close()
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from pelisali.games.round import Receipt, Settlement
from pelisali.platform import colour_chips
from pelisali.platform.db import transaction
from pelisali.platform.models import GameTable
from pelisali.platform.rounds import (
    Slip,
    SlipResult,
    TableError,
    _bets,
    _engine_round,
    accept_slips,
    bet_count,
    draw_and_settle,
    find_table,
    lock_round,
    lock_table,
    new_round,
    open_round,
)
from pelisali.platform.wager_family import WagerRound
from pelisali.rng import Rng

MAX_BATCH = 256  # slips accepted in one transaction at most


@dataclass
class _Request:
    kind: str  # bet, spin or stop
    slip: Slip | None = None
    rng: Rng | None = None
    done: Future[Any] = field(default_factory=Future)


class TableDesk:
    """The one writer of a table's rounds in this process; thread-safe to call."""

    def __init__(self, engine: Engine, table_name: str, max_batch: int = MAX_BATCH) -> None:
        self.engine, self.table_name, self.max_batch = engine, table_name, max_batch
        self._queue: queue.Queue[_Request] = queue.Queue()
        with transaction(engine) as session:
            self._load(session)
        self._thread = threading.Thread(target=self._run, name=f"desk-{table_name}",
                                        daemon=True)
        self._thread.start()

    # -- what callers use ----------------------------------------------------------------
    def bet(self, player: str, bets: Sequence[tuple[str, int]], key: str,
            timeout: float = 60) -> list[Receipt]:
        """Place a slip; returns once its stakes are debited and committed, or raises the
        reason it was refused (nothing of it taken)."""
        result = self.submit(player, bets, key).result(timeout)
        if result.refused is not None:
            raise result.refused
        return result.receipts

    def submit(self, player: str, bets: Sequence[tuple[str, int]], key: str,
               ) -> Future[SlipResult]:
        """Place a slip without waiting: the future's result is the slip's answer, set
        once its transaction has committed (or failed)."""
        request = _Request("bet", slip=Slip(player, tuple(bets), key))
        self._queue.put(request)
        return request.done

    def spin(self, rng: Rng | None = None, timeout: float = 60,
             ) -> tuple[int, list[Settlement]]:
        """No more bets, the draw and every payout; the next round opens at once."""
        request = _Request("spin", rng=rng)
        self._queue.put(request)
        answer: tuple[int, list[Settlement]] = request.done.result(timeout)
        return answer

    @property
    def round_id(self) -> int:
        return self._round_id

    @property
    def bets(self) -> int:
        """How many bets the open round holds (accepted, or carried in prison)."""
        return self._round.bet_count()

    def close(self) -> None:
        self._queue.put(_Request("stop"))
        self._thread.join()

    # -- the writer ----------------------------------------------------------------------
    def _load(self, session: Session) -> None:
        self.table: GameTable = find_table(session, self.table_name)
        row = open_round(session, self.table)
        self._round_id = row.id
        self._round: WagerRound = _engine_round(self.table, row, _bets(session, row.id))
        self._stale = False

    def _run(self) -> None:
        waiting: _Request | None = None
        while True:
            first = waiting or self._queue.get()
            waiting = None
            if first.kind == "stop":
                first.done.set_result(None)
                return
            if first.kind == "spin":
                self._answer([first], self._spin)
                continue
            batch = [first]
            while len(batch) < self.max_batch:
                try:
                    following = self._queue.get_nowait()
                except queue.Empty:
                    break
                if following.kind != "bet":
                    waiting = following
                    break
                batch.append(following)
            self._accept(batch)

    def _answer(self, requests: list[_Request], work: Any) -> None:
        try:
            with transaction(self.engine) as session:
                answer = work(session, requests[0])
        except Exception as exc:  # the request's error goes back to its caller
            self._reload()
            for request in requests:
                request.done.set_exception(exc)
            return
        requests[0].done.set_result(answer)

    def _spin(self, session: Session, request: _Request) -> tuple[int, list[Settlement]]:
        round_id = self._round_id
        if self._lock_round(session)[0] != "betting":
            raise TableError(f"round {round_id} at {self.table_name} was closed elsewhere")
        if bet_count(session, round_id) != self._round.bet_count():
            # A round finished elsewhere (a choice, recovery) carried bets in prison into
            # this one: the round is read again so that they are settled with it.
            self._load(session)
        settled = draw_and_settle(session, self.table, round_id, self._round, request.rng)
        if not settled or any(s.held_level for s in settled):
            self._load(session)  # waiting for choices, or bets carried into the next round
            return round_id, settled
        # Staff may have set new limits: the next round takes them.
        self.table.limit_min, self.table.limit_max, self.table.status = lock_table(
            session, self.table)
        # and the chips it takes (colour chips: RAY 1.2.1, 1.2.2, 1.3.2)
        self.table.chips = colour_chips.chips_of(session, self.table_name)
        row = new_round(session, self.table)
        self._round_id, self._round = row.id, _engine_round(self.table, row, [])
        return round_id, settled

    def _lock_round(self, session: Session) -> tuple[str, str]:
        return lock_round(session, self._round_id)

    def _accept(self, batch: list[_Request], check_keys: bool = False) -> None:
        slips = [request.slip for request in batch if request.slip is not None]
        try:
            with transaction(self.engine) as session:
                round_status, table_status = self._lock_round(session)
                if round_status != "betting" or self._stale:  # changed from elsewhere
                    self._load(session)
                self.table.status = table_status  # closed by staff: no more slips
                results = accept_slips(session, self.table, self._round_id, self._round,
                                       slips, check_keys=check_keys)
        except Exception as exc:
            # Nothing committed, but the engine's round may hold the batch's bets: read it
            # again, and try each slip alone, keys looked up (a retried slip's key is the
            # usual cause), so that one failing slip fails only itself.
            self._reload()
            if check_keys:
                batch[0].done.set_exception(exc)
            else:
                for request in batch:
                    self._accept([request], check_keys=True)
            return
        for request, result in zip(batch, results, strict=True):
            request.done.set_result(result)

    def _reload(self) -> None:
        try:
            with transaction(self.engine) as session:
                self._load(session)
        except Exception:  # the database is away: the next request reads the round first
            self._stale = True
