"""The bus carrying table events between server processes: the in-process one and NATS
JetStream pass the same tests (order, one table's events only, resuming from a
sequence number with nothing missed and nothing twice, another connection seeing
them)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable

import pytest

from pelisali.server.bus import Bus, BusDown, LocalBus, NatsBus, NoResponder

Maker = Callable[[], Bus]


@pytest.fixture(params=["local", "nats"])
def make_bus(request: pytest.FixtureRequest) -> Maker:
    if request.param == "local":
        shared = LocalBus()
        return lambda: shared  # one process: every room shares the one bus
    stream, subject = f"TEST_{uuid.uuid4().hex[:10]}", f"test{uuid.uuid4().hex[:10]}"
    return lambda: NatsBus(stream=stream, subject=subject)


async def take(events: AsyncIterator[tuple[int, dict[str, object]]], count: int
               ) -> list[tuple[int, dict[str, object]]]:
    out = []
    async for item in events:
        out.append(item)
        if len(out) == count:
            break
    return out


async def cleanup(bus: Bus) -> None:
    if isinstance(bus, NatsBus):
        js = await bus._jetstream()
        await js.delete_stream(bus.stream)
    await bus.close()


def test_events_come_in_order_per_table(make_bus: Maker) -> None:
    async def main() -> None:
        bus = make_bus()
        try:
            first = await bus.publish("live-1", {"type": "betting", "round": 1})
            await bus.publish("poker-1", {"type": "view"})
            third = await bus.publish("live-1", {"type": "result", "round": 1})
            assert first < third
            assert await bus.since("live-1", 0) == [
                (first, {"type": "betting", "round": 1}), (third, {"type": "result", "round": 1})]
            assert await bus.since("live-1", first) == [(third, {"type": "result", "round": 1})]
            assert await bus.since("live-1", third) == []
            assert await bus.since("nobody", 0) == []
        finally:
            await cleanup(bus)

    asyncio.run(main())


def test_a_follower_resumes_from_its_sequence_with_nothing_missed_or_twice(
        make_bus: Maker) -> None:
    async def main() -> None:
        publisher, follower = make_bus(), make_bus()  # another process's connection
        try:
            sent = [await publisher.publish("live-1", {"n": n}) for n in range(3)]
            got = await take(follower.follow("live-1", 0), 3)
            assert [seq for seq, _ in got] == sent
            # The client drops; the table goes on; it comes back with its last number.
            sent += [await publisher.publish("live-1", {"n": n}) for n in range(3, 5)]
            resumed = asyncio.ensure_future(take(follower.follow("live-1", got[-1][0]), 3))
            await asyncio.sleep(0.1)
            sent.append(await publisher.publish("live-1", {"n": 5}))  # while it follows
            again = await asyncio.wait_for(resumed, 10)
            assert [seq for seq, _ in got + again] == sent
            assert [event["n"] for _, event in got + again] == [0, 1, 2, 3, 4, 5]
        finally:
            await cleanup(publisher)
            if follower is not publisher:
                await follower.close()

    asyncio.run(main())


def test_a_request_reaches_the_process_that_runs_the_table(make_bus: Maker) -> None:
    """A player's bet on any process goes to the table's runner, which answers it; with
    nobody running the table the asker is told so at once."""

    async def main() -> None:
        runner, asker = make_bus(), make_bus()
        try:
            with pytest.raises(NoResponder):
                await asker.request("live-1", {"type": "bet"}, timeout=1)

            async def handle(message: dict[str, object]) -> dict[str, object]:
                return {"type": "bet-accepted", "asked": message}

            serving = await runner.serve("live-1", handle)
            try:
                assert await asker.request("live-1", {"type": "bet", "n": 1}) == {
                    "type": "bet-accepted", "asked": {"type": "bet", "n": 1}}
                with pytest.raises(NoResponder):  # another table is nobody's
                    await asker.request("live-2", {"type": "bet"}, timeout=1)
            finally:
                await serving.stop()
            with pytest.raises(NoResponder):
                await asker.request("live-1", {"type": "bet"}, timeout=1)
        finally:
            await cleanup(runner)
            if asker is not runner:
                await asker.close()

    asyncio.run(main())


def test_the_last_event_of_a_table(make_bus: Maker) -> None:
    async def main() -> None:
        bus = make_bus()
        try:
            assert await bus.last("live-1") == (0, None)
            await bus.publish("live-1", {"n": 1})
            second = await bus.publish("live-1", {"n": 2})
            await bus.publish("live-2", {"n": 3})
            assert await bus.last("live-1") == (second, {"n": 2})
        finally:
            await cleanup(bus)

    asyncio.run(main())


def test_a_bus_out_of_reach_says_so() -> None:
    async def main() -> None:
        bus = NatsBus(url="nats://127.0.0.1:1")  # nothing listens there
        with pytest.raises(BusDown, match="cannot be reached"):
            await bus.publish("live-1", {"n": 1})

    asyncio.run(main())
