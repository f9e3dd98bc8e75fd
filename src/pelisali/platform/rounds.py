"""Tables and rounds on the persistent wallet: bets debited as they are accepted, the
draw and every settlement credited in one transaction with the round's record.

A crash can therefore leave a round only in one of two whole states: open with its
stakes taken, or settled. :func:`recover` finishes the open ones as the rules say
(GGPoker house rules 2: an RNG round resumes where it stopped and is completed
automatically after 24 hours; a live table's bets stand and are settled in the
player's absence). A void round refunds every stake. Payouts carry idempotency keys
(``settle:ROUND:BET``), so no bet is ever paid twice.

>>> from datetime import date
>>> from pelisali.platform import accounts, jackpots
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform.ledger import move
>>> from pelisali.rng import SeededRng
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
...     _ = accounts.deposit(s, "ann", 10_000, key="d1")
...     _ = move(s, "fund", "external:owner", "house:bank", 1_000_000, "funding")
...     _ = create_table(s, "roulette-1", "roulette", "C")
...     place_bet(s, "roulette-1", "ann", "red", 1_000, key="b1").accepted
1000
>>> with transaction(engine) as s:
...     round_id, settled = settle(s, "roulette-1", SeededRng(2))
...     recall(s, round_id).same
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from pelisali.games import GameError, make_game
from pelisali.games.base import WagerGame
from pelisali.games.round import Bet, Limits, Receipt, Round, Settlement, replay
from pelisali.platform import accounts, jackpots
from pelisali.platform.ledger import LedgerError, append_audit, now_utc
from pelisali.platform.models import BetRow, GameTable, RoundRow
from pelisali.rng import Rng, SecureRng

# GGPoker house rules 2.3: pending bets are kept 24 hours, then completed automatically.
PENDING_HOURS = 24
OPEN = ("betting",)
# A choice not made by the deadline: la partage (half back at once), the choice that
# leaves nothing pending (RULINGS lets the player choose; the text names no default).
DEFAULT_CHOICE = "half"


class TableError(LedgerError):
    """A table or round request refused; nothing changed."""


def _game(table: GameTable) -> WagerGame:
    return make_game(table.game, table.variant or None, json.loads(table.settings))


def create_table(session: Session, name: str, game: str, variant: str | None = None,
                 settings: dict[str, str | bool] | None = None, limit_min: int | None = None,
                 limit_max: int | None = None, mode: str = "rng",
                 actor: str = "system") -> GameTable:
    """A table of a wager game (roulette, boule, money wheel, Tuplanoppa, Sic Bo)."""
    try:
        engine = make_game(game, variant, settings or {})
    except GameError as exc:
        raise TableError(str(exc)) from None
    if mode not in ("rng", "live"):
        raise TableError(f"mode {mode!r}: rng or live")
    lo = engine.rules.limits.min if limit_min is None else limit_min
    hi = engine.rules.limits.max if limit_max is None else limit_max
    if not 0 < lo <= hi:
        raise TableError("limits: 0 < minimum <= maximum")
    if session.scalars(select(GameTable).where(GameTable.name == name)).one_or_none():
        raise TableError(f"a table called {name!r} exists")
    table = GameTable(name=name, game=engine.name, variant=engine.variant or "",
                      settings=json.dumps(dict(engine.settings), sort_keys=True),
                      limit_min=lo, limit_max=hi, mode=mode,
                      gaming_day=now_utc().date(), created_at=now_utc())
    session.add(table)
    session.flush()
    append_audit(session, actor, "table", {"table": name, "game": table.game,
                                           "variant": table.variant, "min": lo, "max": hi,
                                           "mode": mode})
    return table


def find_table(session: Session, name: str) -> GameTable:
    table = session.scalars(select(GameTable).where(GameTable.name == name)).one_or_none()
    if table is None:
        raise TableError(f"no table {name!r}")
    return table


def open_round(session: Session, table: GameTable, lock: bool = True) -> RoundRow:
    """The table's round open for bets (opened when none is), locked for this
    transaction."""
    query = select(RoundRow).where(RoundRow.table_id == table.id,
                                   RoundRow.status.in_(OPEN)).order_by(RoundRow.id)
    found = session.scalars(query.with_for_update() if lock else query).first()
    if found is None:  # lock the table so that two first bets open one round, not two
        session.scalars(select(GameTable).where(GameTable.id == table.id)
                        .with_for_update()).one()
        found = session.scalars(query.with_for_update()).first()
    if found is None:
        now = now_utc()
        found = RoundRow(table_id=table.id, status="betting", gaming_day=table.gaming_day,
                         record="{}", opened_at=now,
                         deadline=now + timedelta(hours=PENDING_HOURS))
        session.add(found)
        session.flush()
    return found


def _engine_round(table: GameTable, row: RoundRow, bets: list[BetRow]) -> Round:
    game = _game(table)
    rnd = Round(game, str(row.id), Limits(table.limit_min, table.limit_max),
                venue="pelisali", table_id=table.name, opened_at=row.opened_at.isoformat())
    for bet in sorted(bets, key=lambda b: b.number):
        rnd.bets.append(Bet(bet.number, bet.player, game.spot(bet.spot), bet.stake,
                            level=bet.level, carried=bet.carried))
    rnd._next_id = max((b.number for b in bets), default=0) + 1
    return rnd


def _bets(session: Session, round_id: int) -> list[BetRow]:
    return list(session.scalars(select(BetRow).where(BetRow.round_id == round_id)
                                .order_by(BetRow.number)))


def place_bet(session: Session, table_name: str, player: str, spot: str, amount: int,
              key: str) -> Receipt:
    """Accept a bet and debit its stake in one transaction; an amount over the table
    maximum is accepted up to it, the rest never leaves the wallet. A retried request
    (same key) returns the first receipt."""
    table = find_table(session, table_name)
    done = session.scalars(select(BetRow).where(BetRow.key == key)).one_or_none()
    if done is not None:
        if (done.player, done.spot) != (player, _game(table).spot(spot).key):
            raise TableError(f"bet key {key!r} was used for a different bet")
        return Receipt(done.number, done.stake, 0, "already placed")
    accounts.may_play(accounts.find(session, player))  # the player first, then the table
    row = open_round(session, table)
    bets = _bets(session, row.id)
    rnd = _engine_round(table, row, bets)
    try:
        receipt = rnd.place(player, spot, amount)
    except GameError as exc:
        raise TableError(str(exc)) from None
    accounts.stake(session, player, receipt.accepted, key=f"stake:{key}",
                   reason=f"{table.name} round {row.id} {rnd.bets[-1].spot.key}",
                   round_id=row.id)
    session.add(BetRow(round_id=row.id, number=receipt.bet_id, player=player,
                       spot=rnd.bets[-1].spot.key, stake=receipt.accepted, key=key,
                       created_at=now_utc()))
    session.flush()
    return receipt


def settle(session: Session, table_name: str, rng: Rng | None = None,
           round_id: int | None = None) -> tuple[int, list[Settlement]]:
    """No more bets, the draw, and every payout, in this one transaction."""
    table = find_table(session, table_name)
    if round_id is None:
        row = open_round(session, table)
    else:
        found = session.scalars(select(RoundRow).where(RoundRow.id == round_id)
                                .with_for_update()).one_or_none()
        if found is None or found.table_id != table.id:
            raise TableError(f"no round {round_id} at {table_name}")
        row = found
    if row.status not in OPEN:
        raise TableError(f"round {row.id} is {row.status}")
    bets = _bets(session, row.id)
    rnd = _engine_round(table, row, bets)
    rnd.close()
    rnd.draw(rng or SecureRng())
    if rnd.pending_choices():  # roulette D, both zero rules: the players choose first
        row.status = "deciding"
        row.record = json.dumps(rnd.record(), sort_keys=True)
        append_audit(session, "table:" + table.name, "draw", {
            "round": row.id, "draws": rnd.record()["draws"],
            "choices": {str(k): v for k, v in rnd.pending_choices().items()}})
        return row.id, []
    return row.id, _finish(session, table, row, rnd, bets)


def _finish(session: Session, table: GameTable, row: RoundRow, rnd: Round,
            bets: list[BetRow]) -> list[Settlement]:
    """Pay the settled round; bets held in prison move to the table's open round, their
    stakes staying with the house until they are released or lost."""
    settlements = rnd.settle()
    by_number = {b.number: b for b in bets}
    carried = []
    for s in settlements:
        bet = by_number[s.bet_id]
        bet.paid, bet.result = s.paid, s.result
        if s.paid:
            accounts.pay(session, s.player, s.paid, key=f"settle:{row.id}:{s.bet_id}",
                         reason=f"{table.name} round {row.id} {s.spot} {s.result}",
                         round_id=row.id)
        if s.held_level:
            carried.append((bet, s.held_level))
    result = "-".join(d.face for d in rnd.draws)
    jackpots.settle_round(session, table, row.id, result)
    row.status, row.finished_at = "settled", now_utc()
    row.record = json.dumps(rnd.record(), sort_keys=True)
    _carry(session, table, carried)
    append_audit(session, "table:" + table.name, "settle", {
        "round": row.id, "draws": rnd.record()["draws"], "bets": len(bets),
        "paid": sum(s.paid for s in settlements), "held": len(carried)})
    return settlements


def _carry(session: Session, table: GameTable, held: list[tuple[BetRow, int]]) -> None:
    """Bets held in prison join the table's open round at their level; their stakes were
    taken when they were first placed."""
    if not held:
        return
    following = open_round(session, table)
    numbers = [b.number for b in _bets(session, following.id)]
    for bet, level in held:
        numbers.append(max(numbers, default=0) + 1)
        session.add(BetRow(round_id=following.id, number=numbers[-1], player=bet.player,
                           spot=bet.spot, stake=bet.stake, key=f"carry:{bet.id}",
                           level=level, carried=True, created_at=now_utc()))
    session.flush()


def decide(session: Session, table_name: str, round_id: int, bet_number: int, option: str,
           player: str) -> list[Settlement]:
    """A player's choice for a bet hit by zero (roulette D, both rules: ``prison`` or
    ``half``). When the last choice is made the round is settled; until then, nothing."""
    table = find_table(session, table_name)
    row = session.scalars(select(RoundRow).where(RoundRow.id == round_id)
                          .with_for_update()).one_or_none()
    if row is None or row.table_id != table.id:
        raise TableError(f"no round {round_id} at {table_name}")
    if row.status != "deciding":
        raise TableError(f"round {round_id} is {row.status}, not waiting for a choice")
    bets = _bets(session, row.id)
    owner = {b.number: b.player for b in bets}
    if owner.get(bet_number) != player:
        raise TableError(f"bet {bet_number} of round {round_id} is not {player}'s")
    rnd = _restore(table, row, bets)
    try:
        rnd.decide(bet_number, option)
    except GameError as exc:
        raise TableError(str(exc)) from None
    if rnd.pending_choices():
        row.record = json.dumps(rnd.record(), sort_keys=True)
        return []
    return _finish(session, table, row, rnd, bets)


def _restore(table: GameTable, row: RoundRow, bets: list[BetRow]) -> Round:
    """A round waiting for choices, rebuilt from its record: bets, draws, choices made."""
    from pelisali.games.base import Draw

    record = json.loads(row.record)
    rnd = _engine_round(table, row, bets)
    rnd.close()
    rnd.apply_draws([Draw(d["device"], d["slot"], d["face"]) for d in record["draws"]])
    for number, option in record["decisions"].items():
        rnd.decide(int(number), option)
    return rnd


def void(session: Session, table_name: str, reason: str, actor: str) -> int:
    """Void the open round (mis-spin, device fault): every stake goes back."""
    if not reason:
        raise TableError("a void needs its reason")
    table = find_table(session, table_name)
    row = open_round(session, table)
    bets = _bets(session, row.id)
    rnd = _engine_round(table, row, bets)
    rnd.void(reason)
    held = [bet for bet in bets if bet.carried]
    for bet in bets:
        if bet.carried:  # a bet in prison stays in prison (RAY 1.2.1)
            continue
        accounts.pay(session, bet.player, bet.stake, key=f"refund:{row.id}:{bet.number}",
                     kind="refund", reason=f"{table.name} round {row.id} void: {reason}",
                     round_id=row.id)
        bet.paid, bet.result = bet.stake, "refund"
    jackpots.refund_entries(session, row.id, f"void: {reason}", actor)
    row.status, row.finished_at = "void", now_utc()
    row.record = json.dumps(rnd.record(), sort_keys=True)
    for bet in held:
        bet.result = "prison"
    _carry(session, table, [(bet, bet.level) for bet in held])
    append_audit(session, actor, "void", {"round": row.id, "reason": reason})
    return row.id


def recover(session: Session, rng: Rng | None = None, everything: bool = False,
            ) -> list[tuple[int, str]]:
    """Finish rounds left open with bets: those past their 24-hour deadline, or all of
    them (``everything``, at a restart after a crash). Each is settled in full."""
    now = now_utc()
    done: list[tuple[int, str]] = []
    rows = session.scalars(select(RoundRow).where(RoundRow.status.in_((*OPEN, "deciding")))
                           .order_by(RoundRow.id)).all()
    for row in rows:
        if row.status == "deciding":  # nobody chose in time: la partage, half back
            if everything or row.deadline <= now:
                table = session.get(GameTable, row.table_id)
                assert table is not None
                bets = _bets(session, row.id)
                rnd = _restore(table, row, bets)
                for number in list(rnd.pending_choices()):
                    rnd.decide(number, DEFAULT_CHOICE)
                _finish(session, table, row, rnd, bets)
                done.append((row.id, f"settled, unchosen bets {DEFAULT_CHOICE}"))
            continue
        if not _bets(session, row.id) or not (everything or row.deadline <= now):
            continue
        table = session.get(GameTable, row.table_id)
        assert table is not None
        settle(session, table.name, rng, round_id=row.id)
        done.append((row.id, "settled"))
    return done


@dataclass(frozen=True)
class Recall:
    round_id: int
    recorded: list[dict[str, Any]]
    replayed: list[dict[str, Any]]

    @property
    def same(self) -> bool:
        return self.recorded == self.replayed


def recall(session: Session, round_id: int) -> Recall:
    """Replay a recorded round through the engine: the same settlement, or not."""
    row = session.get(RoundRow, round_id)
    if row is None:
        raise TableError(f"no round {round_id}")
    if row.status not in ("settled", "void"):
        raise TableError(f"round {round_id} is still {row.status}")
    record = json.loads(row.record)
    again = [s.to_json() for s in replay(record)]
    return Recall(round_id, list(record["settlements"]), again)


def history(session: Session, player: str, limit: int = 50) -> list[tuple[RoundRow, BetRow]]:
    """A player's bets, newest first, with their rounds."""
    accounts.find(session, player)
    rows = session.execute(select(RoundRow, BetRow).join(BetRow, BetRow.round_id == RoundRow.id)
                           .where(BetRow.player == player)
                           .order_by(BetRow.id.desc()).limit(limit)).all()
    return [(r, b) for r, b in rows]
