"""One process at a time runs a tournament: two server processes on one database and
one NATS bus. The process whose request started the sit & go holds its lease and runs
its room; the other answers its players through that room over the bus (their seat,
their action) and never opens a second room. When the holder stops it hands the
tournament over, and the other takes it at its next request and resumes it from the
last booked hand, with every cent on the ledger."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from test_server_tournaments import PLAYERS, SNG, casino, people

from pelisali.platform import leases
from pelisali.platform.db import transaction
from pelisali.platform.ledger import check
from pelisali.rng import SeededRng
from pelisali.server.app import create_app
from pelisali.server.bus import NatsBus
from pelisali.server.clock import ManualClock
from pelisali.server.tournament_room import RemoteRoom, TournamentRoom, channel

NATS = "nats://127.0.0.1:4222"


def rooms(app: Any) -> dict[int, TournamentRoom]:
    return dict(app.state.tournaments.rooms)


def holder(engine: Any, tournament_id: int) -> str | None:
    with transaction(engine) as s:
        found = leases.holder(s, channel(tournament_id))
        return None if found is None else found.owner


def to_act(client: TestClient, h: dict[str, dict[str, str]], tid: int) -> str | None:
    """The player whose turn it is, by their own seat views."""
    for name in PLAYERS:
        view = client.get(f"/api/tournaments/{tid}/seat", headers=h[name])
        assert view.status_code == 200, view.text
        if view.json().get("legal"):
            return name
    return None


def test_the_second_process_asks_the_holder_and_takes_over_when_it_stops(
        tmp_path: Path) -> None:
    engine = casino(tmp_path)
    first = create_app(engine, rng=SeededRng(3), clock=ManualClock(), showdown_seconds=0,
                       bus=NatsBus(NATS))
    second = create_app(engine, rng=SeededRng(4), clock=ManualClock(), showdown_seconds=0,
                        bus=NatsBus(NATS))
    with TestClient(first) as a:
        h = people(a)
        tid = a.post("/api/staff/tournaments", headers=h["floor"],
                     json={**SNG, "bots": False}).json()["id"]
        with TestClient(second) as b:
            for name in PLAYERS[:2]:
                assert a.post(f"/api/tournaments/{tid}/register", headers=h[name],
                              json={"key": "r"}).status_code == 201
            last = b.post(f"/api/tournaments/{tid}/register", headers=h[PLAYERS[2]],
                          json={"key": "r"})  # fills the sit & go: the second starts it
            assert last.status_code == 201 and last.json()["status"] == "running"
            assert list(rooms(second)) == [tid] and rooms(first) == {}
            runner = holder(engine, tid)
            assert runner == second.state.pelisali.owner

            # the first process answers from the holder's room, over the bus
            seat = a.get(f"/api/tournaments/{tid}/seat", headers=h["ann"])
            assert seat.status_code == 200, seat.text
            assert seat.json()["entry"] == "ann" and seat.json()["hand"] is not None
            actor = to_act(a, h, tid)
            assert actor is not None and actor == seat.json()["to_act"]
            acted = a.post(f"/api/tournaments/{tid}/act", headers=h[actor],
                           json={"action": "fold"})
            assert acted.status_code == 200 and acted.json()["type"] == "acted", acted.text
            waiting = next(n for n in PLAYERS if n != to_act(a, h, tid))
            refused = a.post(f"/api/tournaments/{tid}/act", headers=h[waiting],
                             json={"action": "fold"})
            assert refused.status_code == 409 and refused.json()["code"]
            assert rooms(first) == {} and holder(engine, tid) == runner
        # the second process stopped and handed the tournament over
        seat = a.get(f"/api/tournaments/{tid}/seat", headers=h["bob"])
        assert seat.status_code == 200 and seat.json()["entry"] == "bob", seat.text
        assert list(rooms(first)) == [tid]
        assert holder(engine, tid) == first.state.pelisali.owner
        assert a.get(f"/api/tournaments/{tid}").json()["left"] == 3
    with transaction(engine) as s:
        assert check(s).ok


def test_a_remote_room_that_cannot_be_reached_refuses_clearly() -> None:
    import asyncio

    class Silent:
        async def request(self, table: str, message: dict[str, Any],
                          timeout: float = 5.0) -> dict[str, Any]:
            from pelisali.server.bus import NoResponder

            raise NoResponder(table)

    answer = asyncio.run(RemoteRoom(Silent(), 7).handle({"type": "view"}))  # type: ignore[arg-type]
    assert answer["type"] == "refused" and "cannot be reached" in answer["reason"]
