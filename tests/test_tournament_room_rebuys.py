"""A rebuy asked for during a hand, driven through the room step by step (no event loop
of a server, no racing): heads-up, both players all in every hand, each with a rebuy
asked for; as the hand ends the busted player's rebuy saves the stack, the winner's is
refused (above the starting chips), and the cost is on the ledger with the hand."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

from pelisali.platform import accounts, tournaments
from pelisali.platform.db import make_engine, transaction, upgrade
from pelisali.platform.ledger import balance, check
from pelisali.platform.tournaments import Purchase
from pelisali.rng import SeededRng
from pelisali.server.clock import ManualClock
from pelisali.server.tournament_room import TournamentRoom
from pelisali.tournaments.poker import TournamentSettings

SETTINGS = TournamentSettings(
    name="Rebuy", capacity=2, seats=2, starting_chips=100, structure="regular",
    format="scheduled", entry="rebuy", rebuy_until_level=4, rebuy_chips=100, rebuy_cost=100,
)


def test_a_rebuy_asked_for_during_a_hand_saves_the_stack_the_hand_busts(tmp_path: Path) -> None:
    db = make_engine(f"sqlite:///{tmp_path / 'casino.db'}")
    upgrade(db)
    with transaction(db) as s:
        for name in ("ann", "bob"):
            accounts.register(s, name, date(1990, 1, 1), "FI")
            accounts.deposit(s, name, 10_000, key=f"d-{name}")
        tid = tournaments.create(s, SETTINGS).id
        for name in ("ann", "bob"):
            tournaments.register(s, tid, name, key=f"r-{name}")
        tournaments.start(s, tid, SeededRng(5))
    room = TournamentRoom(db, tid, SeededRng(5), clock=ManualClock())

    async def play() -> list[tuple[str, int]]:
        room._engine, room.version = room._load()
        t = room.engine
        saved = []
        for number in range(40):
            playing = t.deal(1)
            for name in ("ann", "bob"):
                room.purchases[name] = Purchase(name, name, "rebuy", f"b-{name}-{number}")
            hand = playing.hand
            while not hand.finished:  # all in, and called
                legal = hand.legal()
                if legal.raise_max is not None:
                    hand.act("raise", to=legal.raise_max)
                else:
                    hand.act("call" if legal.call else "check")
            broke = t.busted(1)
            await room._finish(1, playing)
            assert room.stopped is None
            saved += [(e, t.entries[e].stack) for e in broke]
            if saved:
                return saved
        return saved

    saved = asyncio.run(play())
    t = room.engine
    assert len(saved) == 1  # a busted stack, saved by its rebuy: 100 chips, still in
    busted, stack = saved[0]
    assert stack == 100 and not t.entries[busted].out
    assert t.status == "running" and len(t.alive()) == 2
    with transaction(db) as s:
        bought = 100 * t.rebuys
        assert t.rebuys == 1  # the winner's 200 chips are over the starting stack: refused
        assert balance(s, f"tournament:{tid}") == bought  # no buy-in: the rebuys alone
        assert balance(s, "player:ann") + balance(s, "player:bob") == 20_000 - bought
        assert tournaments.reconcile(s, tid) == [] and check(s).ok
