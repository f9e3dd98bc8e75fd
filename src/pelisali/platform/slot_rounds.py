"""RNG slots on the persistent wallet: a player's spins, free spins and their recovery.

A slot is played at the player's own slot table (:func:`create_slot_table`; the lobby's
``rng-slot-fruit-ann``, :func:`pelisali.platform.tables.own_table`). Each spin is a round
of the contract engine (:class:`~pelisali.engine.slots.SlotEngine`) through the table
layer: its record (version 2) keeps the bet and every stop drawn, so the round is
recalled by replay (:func:`recall_slot_round`), and one bet row (spot ``lines N``) makes
it a line of the player's history and of the day report.

**The money.** The stake is debited when the spin is taken (a keyed transfer checked
against the wallet, the player's status and loss limits: no credit, RAY 1.1). The round
is paid when its last spin is over: the base spin's win to the wallet, the free spins'
part to the bonus balance (:func:`pelisali.platform.bonus.grant`; GGPoker house rules,
RNG slots 5: free-spin winnings are wagered within 72 hours or forfeited). The win cap
cuts the free spins' part first. Every stake counts toward the player's bonus wagering.

**Free spins and interruptions.** A spin that triggers the feature leaves the round
``playing`` with its free spins to come; each free spin is one request of the player
(:func:`free_spin`), drawn and committed on its own, so a round interrupted mid-feature
resumes where it stopped (GGPoker RNG slots 2.3; :func:`playing`). A retried request
names the spins it has seen and is answered, not drawn again. Pending rounds are kept 24
hours from the player's last spin; then :func:`recover_slot_rounds` (``pelisali table
recover`` and the server's scheduler) plays the free spins left and credits the winnings.
A restart does not end a slot round early: 2.3 keeps it for its player for the 24 hours.

>>> from datetime import date
>>> from pelisali.platform import accounts
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform.ledger import balance, move
>>> from pelisali.rng import SeededRng
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
...     _ = accounts.deposit(s, "ann", 10_000, key="d1")
...     _ = move(s, "fund", "external:owner", "house:bank", 1_000_000, "funding")
...     _ = create_slot_table(s, "fruit-1", "slot-fruit")
...     done = spin(s, "fruit-1", "ann", lines=5, cents=10, key="s1", rng=SeededRng(3))
>>> done.stake, done.status, done.view["spins"][0]["stops"]
(50, 'settled', [25, 2, 5])
>>> with transaction(engine) as s:
...     wallet = balance(s, "player:ann")
...     wallet == 10_000 - 50 + done.paid, recall_slot_round(s, done.round_id).same
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from pelisali.engine import CHANCE, IllegalMove, Seats
from pelisali.engine.slots import SlotEngine, SlotState, Spin
from pelisali.money import format_cents
from pelisali.platform import accounts, bonus, fairness, metrics, table_layer
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import KeyConflict, append_audit, balance, now_utc
from pelisali.platform.models import BetRow, GameTable, RoundRow
from pelisali.platform.rounds import (
    PENDING_HOURS,
    Recall,
    TableError,
    find_table,
    open_rng_table,
    playing_row,
)
from pelisali.platform.slot_family import FAMILY, SLOT_GAMES, as_slot, bet_spot, slot_engine
from pelisali.platform.table_layer import RecordError, RoundRecord
from pelisali.rng import Rng, SecureRng

__all__ = ["SlotView", "complete_slot_round", "create_slot_table", "free_spin",
           "overdue_slot_rounds", "playing", "recall_slot_round", "recover_slot_rounds",
           "spin"]

PLAYING, SETTLED = RoundStatus.PLAYING, RoundStatus.SETTLED


@dataclass(frozen=True)
class SlotView:
    """A slot round as its player sees it: the engine's view (``spins`` with their stops,
    windows and line wins, ``free_left``, ``win``), the stake, what the round paid to the
    wallet and to the bonus balance (None while free spins are left), the wallet and the
    bonus balance (free-spin winnings still to wager)."""

    round_id: int
    table: str
    game: str
    status: str
    stake: int
    view: dict[str, Any]
    paid: int | None
    to_wallet: int | None
    to_bonus: int | None
    balance: int
    bonus: int

    @property
    def free_left(self) -> int:
        return int(self.view["free_left"])

    @property
    def spins_seen(self) -> int:
        return len(self.view["spins"])


# -- the tables ---------------------------------------------------------------------------
def _limits(engine: SlotEngine) -> tuple[int, int]:
    bets = engine.rules.bets
    return (min(bets.lines_played) * min(bets.cents_per_line),
            max(bets.lines_played) * max(bets.cents_per_line))


def create_slot_table(session: Session, name: str, game: str, actor: str = "system"
                      ) -> GameTable:
    """Open slot table ``name`` of ``game`` (``slot-fruit``, ``slot-video``); its limits
    are the rule file's smallest and largest total bets.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     made = create_slot_table(s, "v-1", "slot-video")
    ...     made.limit_min, made.limit_max
    (1, 1000)
    """
    try:
        engine = slot_engine(game)
    except RecordError as exc:
        raise TableError(str(exc)) from None
    low, high = _limits(engine)
    return open_rng_table(session, name, game, low, high, actor)


def _slot_table(session: Session, name: str, lock: bool = True) -> GameTable:
    table = find_table(session, name)
    if table.game not in SLOT_GAMES:
        raise TableError(f"{name} is a {table.game} table, not a slot")
    if lock:  # one round at a time at a player's machine
        session.scalars(select(GameTable).where(GameTable.id == table.id)
                        .with_for_update()).one()
    return table


# -- drawing ------------------------------------------------------------------------------
def _draw(state: SlotState, rng: Rng) -> SlotState:
    """Draw chance's moves up to the end of the spin in hand (each reel's stop in turn)."""
    spins = len(state.spins)
    while state.to_move() == CHANCE and len(state.spins) == spins:
        state = as_slot(state.apply(table_layer.draw_outcome(state, rng)).state)
    return state


def _fair_draw(session: Session, table: GameTable, player: str, state: SlotState,
               rng: Rng | None) -> tuple[SlotState, dict[str, Any] | None]:
    """:func:`_draw` with ``rng`` (the secure generator by default), or at a provably fair
    table with the player's seed pair, one nonce a spin: the state and the spin's proof."""
    fair = fairness.draw_rng(session, table, {player})
    if fair is None:
        return _draw(state, rng or SecureRng()), None
    return _draw(state, fair[0]), fairness.proof_of(*fair)


def _record(table: GameTable, row: RoundRow, player: str) -> RoundRecord:
    return RoundRecord(game=table.game, round_id=row.id, table=table.name, mode="rng",
                       opened_at=row.opened_at.isoformat(), status=PLAYING, players=[player])


def _write(row: RoundRow, record: RoundRecord, state: SlotState, at: datetime,
           proofs: list[dict[str, Any]] | None = None) -> None:
    status = SETTLED if state.is_terminal() else PLAYING
    done = record.with_state(state, status=status,
                             settlements=FAMILY.settlements(state, record))
    # A fair round's proofs, one a spin, carried from the record before this spin.
    fair = (fairness.proofs_of(row.record) if row.record != "{}" else []) + (proofs or [])
    row.record = table_layer.write_record(done, FAMILY.derived(state, done)
                                          | ({"fair": fair} if fair else {}))
    row.status = status
    # GGPoker RNG slots 2.3: a pending round is kept 24 hours from the interruption;
    # the player's last spin is when it may have been interrupted.
    row.deadline = at + timedelta(hours=PENDING_HOURS)
    if status == SETTLED:
        row.finished_at = at


def _restore(row: RoundRow) -> tuple[RoundRecord, SlotState]:
    record = table_layer.read_record(row.record, FAMILY)
    return record, as_slot(table_layer.rebuild(record, FAMILY))


def _split(state: SlotState) -> tuple[int, int]:
    """The round's win as the base spin's part and the free spins' part; the cap cuts the
    free spins' part first."""
    total = state.total_win()
    assert state.bet is not None  # noqa: S101 - a settled round has its bet
    base = min(state.spins[0].units(state.bet.lines) * state.bet.cents, total)
    return base, total - base


def _pay(session: Session, table: GameTable, row: RoundRow, player: str, state: SlotState,
         at: datetime) -> None:
    """Pay the finished round: the base win to the wallet, the free spins' to the bonus
    balance, and the bet row."""
    base, feature = _split(state)
    reason = f"{table.name} round {row.id}"
    if base:
        accounts.pay(session, player, base, key=f"settle:{row.id}:0", reason=reason,
                     round_id=row.id)
    if feature:
        _credit_feature(session, player, feature, row.id, at)
    bet = session.scalars(select(BetRow).where(BetRow.round_id == row.id)).one()
    bet.paid = base + feature
    bet.result = "win" if bet.paid > bet.stake else "push" if bet.paid == bet.stake else "lose"


def _credit_feature(session: Session, player: str, amount: int, round_id: int,
                    at: datetime) -> None:
    """The free spins' winnings become a bonus to wager within the deadline (GGPoker RNG
    slots 5); with no wagering asked (a multiple of 0) they go to the wallet."""
    bonus.grant(session, player, amount, round_id, key=f"settle:{round_id}:feature", at=at)


def _answer(session: Session, table: GameTable, row: RoundRow) -> SlotView:
    record, state = _restore(row)
    player = record.players[0]
    base, feature = _split(state) if state.is_terminal() else (None, None)
    return SlotView(row.id, table.name, table.game, str(row.status), state.stake(),
                    state.view(0), state.paid, base, feature,
                    balance(session, accounts.wallet_code(player)),
                    bonus.bonus_balance(session, player))


# -- the player's moves ------------------------------------------------------------------
def spin(session: Session, table_name: str, player: str, lines: int, cents: int, key: str,
         rng: Rng | None = None, at: datetime | None = None) -> SlotView:
    """Take ``player``'s spin of ``lines`` lines at ``cents`` a line at their slot table:
    debit the stake, draw the base spin's stops with ``rng`` (the secure generator by
    default) and pay the round, or leave it ``playing`` when it won free spins. The same
    ``key`` again answers the first spin; with another bet it is refused.

    >>> from datetime import date
    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
    ...     _ = create_slot_table(s, "f", "slot-fruit")
    ...     spin(s, "f", "ann", lines=6, cents=5, key="k")
    Traceback (most recent call last):
    ...
    pelisali.platform.rounds.TableError: 6 lines cannot be played; lines: 1, 2, 3, 4, 5
    """
    at = at or now_utc()
    table = _slot_table(session, table_name)
    engine = slot_engine(table.game)
    try:
        state = as_slot(engine.new_state(Seats(1)).apply(Spin(lines, cents)).state)
    except IllegalMove as exc:
        raise TableError(str(exc)) from None
    first = session.scalars(select(BetRow).where(BetRow.key == key)).first()
    if first is not None:
        return _again(session, first, table, player, state)
    if table.status != "open":
        raise TableError(f"{table.name} is closed")
    open_row = playing_row(session, table)
    if open_row is not None:
        left = _restore(open_row)[1].free_left
        raise TableError(f"{table.name}: round {open_row.id} has {left} free spins left; "
                         "play them first")
    accounts.find(session, player)
    stake = state.stake()
    wallet = accounts.wallet_code(player)
    held = balance(session, wallet)
    if stake > held:  # RAY 1.1: no credit
        raise TableError(f"{wallet} holds {format_cents(held)}, not {format_cents(stake)}: "
                         "no credit")
    row = RoundRow(table_id=table.id, status=PLAYING, gaming_day=table.gaming_day,
                   record="{}", opened_at=at, deadline=at + timedelta(hours=PENDING_HOURS))
    session.add(row)
    session.flush()
    accounts.stake(session, player, stake, key=f"stake:{row.id}:0",
                   reason=f"{table.name} round {row.id}", round_id=row.id)
    session.add(BetRow(round_id=row.id, number=0, player=player, spot=bet_spot(lines),
                       stake=stake, key=key, level=0, carried=False, created_at=at))
    _count_wagering(session, player, stake, key, at)
    metrics.count(session, metrics.BETS_ACCEPTED.labels("slot"))
    record = _record(table, row, player)
    return _step(session, table, row, record, *_fair_draw(session, table, player, state, rng),
                 at)


def _count_wagering(session: Session, player: str, stake: int, key: str, at: datetime) -> None:
    """A real-money slot stake counts toward the player's free-spin bonus wagering; the
    bonuses it completes go to the wallet in this transaction."""
    bonus.count_wagering(session, player, stake, key=f"slot:{key}", at=at)


def _again(session: Session, first: BetRow, table: GameTable, player: str,
           state: SlotState) -> SlotView:
    """The answer to a spin sent again under its key, or a refusal if it is another."""
    row = session.get(RoundRow, first.round_id)
    if (row is None or row.table_id != table.id or first.player != player
            or first.spot != bet_spot(state.bet.lines if state.bet else 0)
            or first.stake != state.stake()):
        raise KeyConflict(f"idempotency key {first.key!r} was used for another spin",
                          f"a spin of {first.spot} for {format_cents(first.stake)}")
    return _answer(session, table, row)


def _step(session: Session, table: GameTable, row: RoundRow, record: RoundRecord,
          state: SlotState, proof: dict[str, Any] | None, at: datetime) -> SlotView:
    """Write the round after a spin (with its proof at a provably fair table); pay it when
    its last spin is over."""
    if proof is not None:
        fairness.keep(session, table, row.id, proof)
    if state.is_terminal():
        _pay(session, table, row, record.players[0], state, at)
    _write(row, record, state, at, [proof] if proof is not None else None)
    session.flush()
    return _answer(session, table, row)


def playing(session: Session, table_name: str) -> SlotView | None:
    """The round in play at slot table ``table_name`` (free spins left), if any: what a
    player who logs in again resumes."""
    table = _slot_table(session, table_name, lock=False)
    row = session.scalars(select(RoundRow).where(RoundRow.table_id == table.id,
                                                 RoundRow.status == PLAYING)).first()
    return None if row is None else _answer(session, table, row)


def free_spin(session: Session, table_name: str, player: str, seen: int,
              rng: Rng | None = None, at: datetime | None = None) -> SlotView:
    """Play the next free spin of the round in play at ``player``'s slot table. ``seen`` is
    how many spins of the round the player has been shown: a request sent again after its
    spin was drawn (``seen`` one behind) is answered with that spin, not drawn again."""
    at = at or now_utc()
    table = _slot_table(session, table_name)
    row = playing_row(session, table)
    if row is None:
        last = session.scalars(select(RoundRow).where(RoundRow.table_id == table.id)
                               .order_by(RoundRow.id.desc())).first()
        if last is not None and _restore(last)[0].players == [player]:
            done = _answer(session, table, last)
            if done.spins_seen == seen + 1:  # the round's last free spin, sent again
                return done
        raise TableError(f"{table.name}: no free spins to play")
    record, state = _restore(row)
    if record.players != [player]:
        raise TableError(f"{table.name}: the round in play is another player's")
    if seen == len(state.spins) - 1:
        return _answer(session, table, row)
    if seen != len(state.spins):
        raise TableError(f"{table.name}: round {row.id} has shown {len(state.spins)} spins, "
                         f"not {seen}")
    return _step(session, table, row, record, *_fair_draw(session, table, player, state, rng),
                 at)


# -- recovery and recall ----------------------------------------------------------------
def overdue_slot_rounds(session: Session, at: datetime | None = None) -> list[int]:
    """The slot rounds pending past their 24-hour deadline at ``at`` (default: now)."""
    return list(session.scalars(
        select(RoundRow.id).join(GameTable, GameTable.id == RoundRow.table_id)
        .where(GameTable.game.in_(SLOT_GAMES), RoundRow.status == PLAYING,
               RoundRow.deadline <= (at or now_utc())).order_by(RoundRow.id)))


def complete_slot_round(session: Session, round_id: int, rng: Rng | None = None,
                        at: datetime | None = None) -> str | None:
    """Complete pending slot round ``round_id`` (GGPoker RNG slots 2.3: the system ends a
    game left 24 hours): every free spin left is drawn with ``rng`` and the winnings
    credited, and the audit says so. None if the round is no longer pending (another
    process completed it, or its player did)."""
    at = at or now_utc()
    row = session.scalars(select(RoundRow).where(RoundRow.id == round_id).with_for_update()
                          .execution_options(populate_existing=True)).first()
    if row is None or row.status != PLAYING:
        return None
    table = _slot_table(session, session.get_one(GameTable, row.table_id).name, lock=False)
    record, state = _restore(row)
    left = state.free_left
    proofs: list[dict[str, Any]] = []
    while not state.is_terminal():
        state, proof = _fair_draw(session, table, record.players[0], state, rng)
        if proof is not None:
            fairness.keep(session, table, row.id, proof)
            proofs.append(proof)
    _pay(session, table, row, record.players[0], state, at)
    _write(row, record, state, at, proofs)
    append_audit(session, "recovery", "slot_round_completed",
                 {"table": table.name, "round": row.id, "player": record.players[0],
                  "free_spins_drawn": left, "paid": state.paid,
                  "rule": "GGPoker house rules, RNG slots 2.3"})
    session.flush()
    return f"settled, {left} free spins completed"


def recover_slot_rounds(session: Session, rng: Rng | None = None,
                        at: datetime | None = None) -> list[tuple[int, str]]:
    """Complete every slot round pending past its 24-hour deadline
    (:func:`complete_slot_round`): each round's number and what became of it."""
    done = []
    for round_id in overdue_slot_rounds(session, at):
        what = complete_slot_round(session, round_id, rng, at)
        if what is not None:
            done.append((round_id, what))
    return done


def recall_slot_round(session: Session, round_id: int) -> Recall:
    """Replay a finished slot round from its record (the bet and every stop) through the
    engine and compare with the recorded settlement and spins."""
    row = session.get(RoundRow, round_id)
    table = session.get(GameTable, row.table_id) if row is not None else None
    if row is None or table is None:
        raise TableError(f"no round {round_id}")
    if table.game not in SLOT_GAMES:
        raise TableError(f"round {round_id} is a {table.game} round, not a slot round")
    if row.status != SETTLED:
        raise TableError(f"round {round_id} is still {row.status}")
    found = table_layer.recall(row.record, FAMILY)
    return Recall(round_id, found.recorded, found.replayed, found.problem or "")
