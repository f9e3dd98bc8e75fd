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
import functools
import json
from collections.abc import AsyncIterator
from typing import Any, Protocol

__all__ = ["STREAM", "SUBJECT", "Bus", "LocalBus", "NatsBus"]

STREAM = "PELISALI_TABLES"
SUBJECT = "pelisali.tables"
Event = dict[str, Any]


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

    async def close(self) -> None:
        return None


class NatsBus:
    """The bus on NATS JetStream (``nats://127.0.0.1:4222`` by default)."""

    def __init__(self, url: str = "nats://127.0.0.1:4222", stream: str = STREAM,
                 subject: str = SUBJECT, keep_seconds: float = 24 * 3600) -> None:
        self.url, self.stream, self.subject, self.keep_seconds = (url, stream, subject,
                                                                   keep_seconds)
        self._nc: Any = None
        self._js: Any = None

    async def _jetstream(self) -> Any:
        if self._js is None:
            import nats
            from nats.js.api import StreamConfig

            self._nc = await nats.connect(self.url, connect_timeout=2,
                                          max_reconnect_attempts=-1)
            self._js = self._nc.jetstream()
            await self._js.add_stream(StreamConfig(
                name=self.stream, subjects=[f"{self.subject}.>"],
                max_age=self.keep_seconds))
        return self._js

    def _subject(self, table: str) -> str:
        return f"{self.subject}.{table}"

    async def publish(self, table: str, event: Event) -> int:
        js = await self._jetstream()
        ack = await js.publish(self._subject(table), json.dumps(event).encode(),
                               stream=self.stream)
        return int(ack.seq)

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
        subscription = await self._subscribe(table, seq)
        try:
            async for msg in subscription.messages:
                yield int(msg.metadata.sequence.stream), json.loads(msg.data)
        finally:
            await subscription.unsubscribe()

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
