"""The message bus that carries a shared table's events to every server process.

The process that runs a table (it holds the table's lease) publishes each event of the
table once; a socket on any process follows the table from a sequence number, so a
client that reconnects, to this process or another, asks for what it missed and gets
each event after it once, in order.

Two implementations behind one interface (:class:`Bus`):

- :class:`LocalBus`, in the process: the embedded default (SQLite, one process);
- :class:`NatsBus`, NATS JetStream: a stream ``PELISALI_TABLES`` on the subjects
  ``pelisali.tables.<table>``; the sequence numbers are the stream's, which JetStream
  keeps across restarts, and a follower resumes with a consumer that starts at
  ``since + 1``. (Why NATS and not Redis Streams: ``docs/scaling.md``.)

A table's players may be connected to any process; what they ask of the table (a bet,
a seat, an action) goes to the process that runs it as a request (:meth:`Bus.request`)
which that process answers (:meth:`Bus.serve`): NATS request and reply, or a call in
the process. A request nobody answers raises :class:`NoResponder`; a bus that cannot
be reached raises :class:`BusDown`.

>>> import asyncio
>>> async def tour() -> list[tuple[int, dict[str, object]]]:
...     bus = LocalBus()
...     await bus.publish("live-1", {"type": "betting"})
...     await bus.publish("live-2", {"type": "other table"})
...     await bus.publish("live-1", {"type": "result"})
...     return await bus.since("live-1", 1)
>>> asyncio.run(tour())
[(3, {'type': 'result'})]
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

from nats.errors import Error as NatsError

log = logging.getLogger("pelisali.server")

__all__ = ["STREAM", "SUBJECT", "Bus", "BusDown", "LocalBus", "NatsBus", "NoResponder"]

STREAM = "PELISALI_TABLES"
SUBJECT = "pelisali.tables"
Event = dict[str, Any]
Handler = Callable[[Event], Awaitable[Event]]


class BusDown(Exception):
    """The bus cannot be reached: events are not carried and requests not answered."""


class NoResponder(Exception):
    """No process answers for the table (none runs it, or its runner has just died)."""


class Serving(Protocol):
    async def stop(self) -> None:
        """Answer no more requests."""
        ...


def token(table: str) -> str:
    """A table's name as one token of a NATS subject (no dots, spaces or wildcards).

    >>> token("live-1"), token("ruletti 1.A")
    ('live-1', 'ruletti_20_1_2e_A')
    """
    return re.sub(r"[^A-Za-z0-9-]", lambda m: f"_{ord(m.group()):02x}_", table)


class Bus(Protocol):
    """Where a table's events go, and from where they are followed."""

    async def publish(self, table: str, event: Event) -> int:
        """Append ``event`` to ``table``'s events; its sequence number (ever higher)."""
        ...

    async def since(self, table: str, seq: int) -> list[tuple[int, Event]]:
        """``table``'s events after ``seq``, oldest first."""
        ...

    def follow(self, table: str, seq: int) -> AsyncIterator[tuple[int, Event]]:
        """``table``'s events after ``seq``: those kept, then each as it comes."""
        ...

    async def last(self, table: str) -> tuple[int, Event | None]:
        """``table``'s latest event and its number ((0, None): none yet)."""
        ...

    async def serve(self, table: str, handler: Handler) -> Serving:
        """Answer ``table``'s requests with ``handler`` (this process runs the table)."""
        ...

    async def request(self, table: str, message: Event, timeout: float = 5.0) -> Event:
        """Ask the process that runs ``table``; its answer."""
        ...

    @property
    def connected(self) -> bool:
        """Connected to the bus now."""
        ...

    async def close(self) -> None:
        """Let go of the connection."""
        ...


class LocalBus:
    """The bus inside one process: every table's events in memory, numbered across the
    tables as the stream numbers them."""

    def __init__(self, keep: int = 10_000) -> None:
        self.keep = keep  # the events kept a table, for followers that were away
        self._seq = 0
        self._events: dict[str, list[tuple[int, Event]]] = {}
        self._changed = asyncio.Condition()
        self._handlers: dict[str, Handler] = {}

    async def publish(self, table: str, event: Event) -> int:
        async with self._changed:
            self._seq += 1
            kept = self._events.setdefault(table, [])
            kept.append((self._seq, event))
            del kept[:-self.keep]
            self._changed.notify_all()
            return self._seq

    async def since(self, table: str, seq: int) -> list[tuple[int, Event]]:
        return [(n, e) for n, e in self._events.get(table, []) if n > seq]

    async def follow(self, table: str, seq: int) -> AsyncIterator[tuple[int, Event]]:
        while True:
            async with self._changed:
                await self._changed.wait_for(functools.partial(self._newer, table, seq))
                fresh = [(n, e) for n, e in self._events[table] if n > seq]
            for n, event in fresh:
                seq = n
                yield n, event

    def _newer(self, table: str, seq: int) -> bool:
        kept = self._events.get(table)
        return bool(kept) and kept[-1][0] > seq  # type: ignore[index]

    connected = True  # nothing to lose in one process

    async def last(self, table: str) -> tuple[int, Event | None]:
        kept = self._events.get(table)
        return kept[-1] if kept else (0, None)

    async def serve(self, table: str, handler: Handler) -> Serving:
        self._handlers[table] = handler
        return _LocalServing(self, table, handler)

    async def request(self, table: str, message: Event, timeout: float = 5.0) -> Event:
        handler = self._handlers.get(table)
        if handler is None:
            raise NoResponder(f"no process runs {table}")
        return await asyncio.wait_for(handler(message), timeout)

    async def close(self) -> None:
        return None


class _LocalServing:
    def __init__(self, bus: LocalBus, table: str, handler: Handler) -> None:
        self.bus, self.table, self.handler = bus, table, handler

    async def stop(self) -> None:
        if self.bus._handlers.get(self.table) is self.handler:
            del self.bus._handlers[self.table]


class NatsBus:
    """The bus on NATS JetStream (``nats://127.0.0.1:4222`` by default)."""

    def __init__(self, url: str = "nats://127.0.0.1:4222", stream: str = STREAM,
                 subject: str = SUBJECT, keep_seconds: float = 24 * 3600) -> None:
        self.url, self.stream, self.subject, self.keep_seconds = (url, stream, subject,
                                                                   keep_seconds)
        self._nc: Any = None
        self._lost = asyncio.Event()  # set while the connection is down
        self._js: Any = None

    async def _jetstream(self) -> Any:
        if self._js is None:
            import nats
            from nats.js.api import StreamConfig

            try:
                # Once connected the client reconnects for ever; the first connection
                # is tried for a few seconds only, so a bus out of reach is said.
                nc = await asyncio.wait_for(nats.connect(
                    self.url, connect_timeout=2, max_reconnect_attempts=-1,
                    allow_reconnect=True, reconnect_time_wait=0.5,
                    error_cb=self._error, disconnected_cb=self._disconnected,
                    reconnected_cb=self._reconnected), 5)
                js = nc.jetstream()
                await js.add_stream(StreamConfig(
                    name=self.stream, subjects=[f"{self.subject}.>"],
                    max_age=self.keep_seconds))
            except (OSError, TimeoutError, NatsError) as exc:
                raise BusDown(f"the message bus at {self.url} cannot be reached: "
                              f"{exc!r}") from exc
            self._nc, self._js = nc, js
        return self._js

    def _subject(self, table: str) -> str:
        return f"{self.subject}.{token(table)}"

    def _requests(self, table: str) -> str:
        return f"{self.subject}-requests.{token(table)}"

    async def publish(self, table: str, event: Event) -> int:
        js = await self._jetstream()
        try:
            ack = await js.publish(self._subject(table), json.dumps(event).encode(),
                                   stream=self.stream, timeout=2)
        except (TimeoutError, ConnectionError, NatsError) as exc:
            raise BusDown(f"the message bus is down: {exc!r}") from exc
        return int(ack.seq)

    async def last(self, table: str) -> tuple[int, Event | None]:
        from nats.js.errors import NotFoundError

        js = await self._jetstream()
        try:
            msg = await js.get_last_msg(self.stream, self._subject(table))
        except NotFoundError:
            return 0, None
        return int(msg.seq), json.loads(msg.data)

    async def serve(self, table: str, handler: Handler) -> Serving:
        await self._jetstream()

        async def answer(msg: Any) -> None:
            try:
                reply = await handler(json.loads(msg.data))
            except Exception as exc:  # the asker gets the reason, not a timeout
                reply = {"type": "refused", "reason": f"the table failed: {exc}"}
            with contextlib.suppress(Exception):  # the asker went away
                await msg.respond(json.dumps(reply).encode())

        subscription = await self._nc.subscribe(self._requests(table), cb=answer)
        # The server has the subscription once it answers a ping: a request from another
        # connection right after this returns finds the runner, not "no responders".
        await self._nc.flush()
        return _NatsServing(self._nc, subscription)

    async def request(self, table: str, message: Event, timeout: float = 5.0) -> Event:
        from nats.errors import NoRespondersError

        await self._jetstream()
        try:
            msg = await self._nc.request(self._requests(table), json.dumps(message).encode(),
                                         timeout=timeout)
        except NoRespondersError:
            raise NoResponder(f"no process runs {table}") from None
        except TimeoutError:
            raise NoResponder(f"the process that runs {table} does not answer") from None
        except (ConnectionError, NatsError) as exc:
            raise BusDown(f"the message bus is down: {exc!r}") from exc
        answer: Event = json.loads(msg.data)
        return answer

    async def since(self, table: str, seq: int) -> list[tuple[int, Event]]:
        """Each next message of the table's subject, read by sequence until there is
        none (JetStream's get of the next message by subject: no consumer, no wait)."""
        from nats.js.errors import NotFoundError

        js = await self._jetstream()
        out: list[tuple[int, Event]] = []
        while True:
            try:
                msg = await js.get_msg(self.stream, seq=seq + 1, subject=self._subject(table),
                                       next=True)
            except NotFoundError:
                return out
            seq = int(msg.seq)
            out.append((seq, json.loads(msg.data)))

    async def follow(self, table: str, seq: int) -> AsyncIterator[tuple[int, Event]]:
        """The table's events after ``seq``; raises :class:`BusDown` when the
        connection is lost, or is not up yet (the follower then follows again from its
        last number, and can say the events are back once it is)."""
        if not self.connected:  # a subscription made now would wait for the connection
            raise BusDown("the connection to the message bus is down")
        try:
            subscription = await self._subscribe(table, seq)
        except (TimeoutError, ConnectionError, NatsError) as exc:
            raise BusDown(f"the message bus is down: {exc!r}") from exc
        messages = subscription.messages.__aiter__()
        try:
            while True:
                if not self.connected:
                    raise BusDown("the connection to the message bus was lost")
                following = asyncio.ensure_future(messages.__anext__())
                lost = asyncio.ensure_future(self._lost.wait())
                done, _ = await asyncio.wait({following, lost},
                                             return_when=asyncio.FIRST_COMPLETED)
                lost.cancel()
                if following not in done:
                    following.cancel()
                    raise BusDown("the connection to the message bus was lost")
                msg = following.result()
                yield int(msg.metadata.sequence.stream), json.loads(msg.data)
        finally:
            with contextlib.suppress(Exception):
                await subscription.unsubscribe()

    @property
    def connected(self) -> bool:
        """Connected to the bus now (or not yet tried)."""
        return self._nc is None or bool(self._nc.is_connected)

    async def _disconnected(self) -> None:
        self._lost.set()

    async def _error(self, exc: Exception) -> None:
        if not self._lost.is_set():  # said once a loss, not at every try to reconnect
            log.warning("message bus %s: %r", self.url, exc)

    async def _reconnected(self) -> None:
        self._lost.clear()

    async def _subscribe(self, table: str, seq: int) -> Any:
        from nats.js.api import ConsumerConfig, DeliverPolicy

        js = await self._jetstream()
        config = ConsumerConfig(deliver_policy=DeliverPolicy.BY_START_SEQUENCE,
                                opt_start_seq=seq + 1)
        return await js.subscribe(self._subject(table), stream=self.stream, config=config,
                                  ordered_consumer=True)

    async def close(self) -> None:
        if self._nc is not None:
            await self._nc.close()
            self._nc = self._js = None


class _NatsServing:
    def __init__(self, nc: Any, subscription: Any) -> None:
        self.nc, self.subscription = nc, subscription

    async def stop(self) -> None:
        with contextlib.suppress(Exception):  # the connection is gone already
            await self.subscription.unsubscribe()
            await self.nc.flush()  # no request is routed here once stop returns
