"""Hypothesis state machine over the ledger on both databases: random deposits, bets at
a roulette table, settlements, void rounds, ledger stakes and wins, corrections and
retries with the same key; after every step the ledger sums to zero, every balance
equals its transfers, none is negative, and each matches a model."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from dbfixtures import Fixed, fresh_engine
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from sqlalchemy import Engine, select

from pelisali.platform import accounts
from pelisali.platform.db import transaction
from pelisali.platform.ledger import LedgerError, balance, check, correct, move, verify_audit
from pelisali.platform.models import BetRow
from pelisali.platform.rounds import create_table, place_bet, settle, void

PLAYERS = ["player:ann", "player:bob", "player:cid"]
SPOTS = ["red", "straight 0", "dozen 3", "split 0-1", "odd"]




def make_machine(kind: str) -> type[RuleBasedStateMachine]:
    class LedgerMachine(RuleBasedStateMachine):
        engine: Engine
        model: dict[str, int]

        @initialize()
        def open_database(self) -> None:
            self._dir = tempfile.TemporaryDirectory()
            self._engines: Iterator[Engine] = fresh_engine(kind, Path(self._dir.name))
            self.engine = next(self._engines)
            self.model = dict.fromkeys([*PLAYERS, "house:bank"], 0)
            # key, (source, target, amount, kind, reason, corrects)
            self.done: list[tuple[str, tuple[str, str, int, str, str, int | None]]] = []
            self.transfers: list[int] = []
            self.bets = 0
            with transaction(self.engine) as s:
                move(s, "fund", "external:owner", "house:bank", 1_000_000, "funding")
                create_table(s, "r1", "roulette", "C")
                for player in PLAYERS:
                    accounts.register(s, player.split(":")[1], date(1990, 1, 1), "FI")
            self.model["house:bank"] = 1_000_000

        def teardown(self) -> None:
            if hasattr(self, "_engines"):
                for _ in self._engines:  # drops the PostgreSQL schema
                    pass
                self._dir.cleanup()

        def _move(self, key: str, source: str, target: str, amount: int, kind_: str) -> None:
            paying = self.model.get(source)
            try:
                with transaction(self.engine) as s:
                    made = move(s, key, source, target, amount, kind_)
                    made_id = made.id
            except LedgerError:
                assert paying is not None and paying < amount  # refused only for want of money
                return
            assert paying is None or paying >= amount
            if source in self.model:
                self.model[source] -= amount
            self.model[target] += amount
            self.done.append((key, (source, target, amount, kind_, "", None)))
            self.transfers.append(made_id)

        @rule(player=st.sampled_from(PLAYERS), amount=st.integers(1, 3_000))
        def deposit(self, player: str, amount: int) -> None:
            self._move(f"d{len(self.done)}-{amount}", "external:payments", player, amount,
                       "deposit")

        @rule(player=st.sampled_from(PLAYERS), amount=st.integers(1, 3_000))
        def stake(self, player: str, amount: int) -> None:
            self._move(f"s{len(self.done)}-{player}-{amount}", player, "house:bank", amount,
                       "stake")

        @rule(player=st.sampled_from(PLAYERS), amount=st.integers(1, 3_000))
        def win(self, player: str, amount: int) -> None:
            self._move(f"w{len(self.done)}-{player}-{amount}", "house:bank", player, amount,
                       "win")

        @rule(data=st.data())
        def retry(self, data: st.DataObject) -> None:
            """A request sent again with its key changes nothing; the key with other
            content is refused."""
            if not self.done:
                return
            key, (source, target, amount, kind_, reason, corrects) = data.draw(
                st.sampled_from(self.done))
            with transaction(self.engine) as s:
                move(s, key, source, target, amount, kind_, reason=reason,
                     corrects_id=corrects)
            with pytest.raises(LedgerError, match="different transfer"), \
                    transaction(self.engine) as s:
                move(s, key, source, target, amount + 1, kind_, reason=reason,
                     corrects_id=corrects)

        @rule(data=st.data())
        def void(self, data: st.DataObject) -> None:
            """A correction reverses a transfer if the money is still there."""
            if not self.done:
                return
            index = data.draw(st.integers(0, len(self.done) - 1))
            key, (source, target, amount, *_) = self.done[index]
            holder = self.model.get(target)  # None: an external account, never short
            fix_key = f"fix-{key}-{len(self.done)}"
            try:
                with transaction(self.engine) as s:
                    made = correct(s, fix_key, self.transfers[index], reason="void",
                                   actor="auditor")
                    made_id = made.id
            except LedgerError:
                assert holder is not None and holder < amount
                return
            if target in self.model:
                self.model[target] -= amount
            if source in self.model:
                self.model[source] += amount
            self.done.append((fix_key, (target, source, amount, "correction", "void",
                                        self.transfers[index])))
            self.transfers.append(made_id)

        @rule(player=st.sampled_from(PLAYERS), spot=st.sampled_from(SPOTS),
              amount=st.integers(100, 2_000))
        def bet(self, player: str, spot: str, amount: int) -> None:
            """A bet at the roulette table: debited when accepted, or refused whole."""
            name = player.split(":")[1]
            self.bets += 1
            key = f"bet{self.bets}-{name}"
            try:
                with transaction(self.engine) as s:
                    receipt = place_bet(s, "r1", name, spot, amount, key=key)
            except LedgerError:
                assert self.model[player] < amount
                return
            self.model[player] -= receipt.accepted
            self.model["house:bank"] += receipt.accepted

        @rule(number=st.integers(0, 36))
        def spin(self, number: int) -> None:
            """Settle the open round: every payout from the house, once."""
            with transaction(self.engine) as s:
                _, settled = settle(s, "r1", Fixed(number))
            for x in settled:
                self.model[f"player:{x.player}"] += x.paid
                self.model["house:bank"] -= x.paid

        @rule()
        def void_round(self) -> None:
            with transaction(self.engine) as s:
                round_id = void(s, "r1", "device fault", "dealer")
                stakes = s.scalars(select(BetRow).where(BetRow.round_id == round_id)).all()
            for bet in stakes:
                self.model[f"player:{bet.player}"] += bet.stake
                self.model["house:bank"] -= bet.stake

        @invariant()
        def ledger_holds(self) -> None:
            if not hasattr(self, "engine"):
                return
            with transaction(self.engine) as s:
                report = check(s)
                assert report.ok, report.problems
                for code, expected in self.model.items():
                    if expected or code == "house:bank":
                        assert balance(s, code) == expected

        @invariant()
        def audit_holds(self) -> None:
            if hasattr(self, "engine"):
                with transaction(self.engine) as s:
                    assert verify_audit(s).ok

    return LedgerMachine


TestLedgerSQLite = make_machine("sqlite").TestCase
TestLedgerSQLite.settings = settings(max_examples=12, stateful_step_count=25, deadline=None)
TestLedgerPostgres = make_machine("postgresql").TestCase
TestLedgerPostgres.settings = settings(max_examples=12, stateful_step_count=25, deadline=None)
