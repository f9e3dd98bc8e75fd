"""Baccara, chemin de fer on the persistent wallet: players against each other, the bank
passing among them, the house dealing and taking its commission.

A chemin de fer table (:func:`create_chemin_table`, limits from the rule data) seats
players in order (:func:`sit`, :func:`leave`); its seating (who sits where, who holds or
is offered the bank and the bank carried from the last coup) is the table's settings.
Between coups the banker decides: :func:`put_up` a new bank (the table's least to most),
:func:`carry` the bank won last coup, or :func:`pass_bank` (passer la main: the bank is
offered to the next seat in turn; a won bank is withdrawn, its money already in the
banker's wallet). Putting up or carrying starts a coup, a round of the engine
(:mod:`pelisali.engine.chemin_de_fer`) whose players are the seats at that moment.

**Money.** Every stake is a keyed, no-credit transfer to the table's escrow account
``table:NAME`` (``chemin:stake:ROUND:BET``, through :func:`pelisali.platform.accounts.stake`,
so status and loss limits are checked): the bank when it is put up or carried, each
punter's ``banco`` or ``bet N`` as it is made. The cards are drawn with the injected
generator from a full shoe (an RNG table shuffles every coup). When the coup is over the
escrow pays each stake what the engine settles (``chemin:settle:ROUND:BET``: even money
between the punters and the bank, the part of the bank nobody covered back to the
banker, a tie void) and the house's commission on the bank's win goes to ``house:bank``
as its own transfer (``chemin:commission:ROUND``, the fraction of a cent the house's);
the escrow is then empty. :func:`act` takes a seat's move when it is that seat's turn
(``banco``, ``bet N``, ``pass``; ``draw`` or ``stand`` on five and in the banker's option
cells).

**The bank passes** as :func:`pelisali.engine.chemin_de_fer.next_bank` says: a bank that
lost goes to the next seat in turn, to be put up anew; one that won (or tied, or that
nobody bet against) stays with its banker, who carries it (staked again from the wallet
it was paid to) or withdraws it.

**The decision clock.** Each decision a seat owes the table has the rule data's
``decision_seconds`` (15; a house choice after RULINGS Blackjack's decision time): the
bank offered to its holder between coups, a punter's turn, the choice on five and the
banker's option cell. The time runs from the moment the decision falls to the seat (the
offer from the end of the last coup, or from the change of the seating that offered
it); when it runs out, :func:`time_out` acts for the seat as the house: the offered bank
passes to the next seat in turn (a won bank is withdrawn, its money already in the
wallet), a punter passes, a choice takes the rule data's (:func:`rule_choice`); the next
decision's time runs from then. An offer that has gone round every seat unanswered
stops the clock (the table rests until a seat acts or a player sits down).
:func:`decision_due` tells when the decision waited for is due; the server keeps time
with its own clock and passes it in as ``at``.

**Interruptions.** A coup waiting for a seat is kept 24 hours from the last move (GGPoker
house rules 2.3) when nothing kept its decision clock (the server was down), then
:func:`complete_coup` finishes it with the rule data's choices: a punter who has not bet
passes, the player's hand on five and the banker in an option cell take the choice the
rule file gives (:func:`rule_choice`). Every coup's record is a
version-2 round record (:mod:`pelisali.platform.chemin_family`), recalled by replay
(:func:`recall_coup`); every transfer and every change of the seating is in the audit
chain.

>>> from datetime import date
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.rng import SeededRng
>>> db = make_engine("sqlite://")
>>> upgrade(db)
>>> with transaction(db) as s:
...     for name in ("ann", "bob"):
...         _ = accounts.register(s, name, date(1990, 1, 1), "FI")
...         _ = accounts.deposit(s, name, 10_000, key=f"d-{name}")
...     _ = create_chemin_table(s, "cf-1")
...     _ = sit(s, "cf-1", "ann", key="s1"); _ = sit(s, "cf-1", "bob", key="s2")
...     up = put_up(s, "cf-1", "ann", 2_000, key="b1", rng=SeededRng(2))
...     up.to_move, up.actions, balance(s, "table:cf-1")
('bob', (), 2000)
>>> with transaction(db) as s:
...     view(s, "cf-1", "bob").actions
('banco', 'bet 100', 'bet 2000', 'pass')
>>> with transaction(db) as s:
...     done = act(s, "cf-1", "bob", "banco", key="p1", rng=SeededRng(2))
...     done.status, balance(s, "table:cf-1"), recall_coup(s, done.round_id).same
('settled', 0, True)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from pelisali.engine import CHANCE, IllegalMove, State
from pelisali.engine.chemin_de_fer import CheminEngine, CheminState, next_bank
from pelisali.games.punto_banco import points
from pelisali.money import format_cents
from pelisali.platform import accounts, table_layer
from pelisali.platform.chemin_family import CARRIED, FAMILY, GAME, as_coup, chemin_engine
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import (
    KeyConflict,
    LedgerError,
    append_audit,
    balance,
    move,
    now_utc,
    open_account,
)
from pelisali.platform.models import BetRow, GameTable, RoundRow
from pelisali.platform.rounds import (
    PENDING_HOURS,
    Recall,
    TableError,
    find_table,
    open_rng_table,
    playing_row,
)
from pelisali.platform.table_layer import LimitsRecord, RecordError, RoundRecord
from pelisali.rng import Rng, SecureRng

__all__ = [
    "GAME",
    "HOUSE",
    "CheminView",
    "CoupLine",
    "Seating",
    "act",
    "carry",
    "complete_coup",
    "coups",
    "create_chemin_table",
    "decision_due",
    "leave",
    "overdue_coups",
    "overdue_tables",
    "pass_bank",
    "put_up",
    "recall_coup",
    "recover_chemin_coups",
    "rule_choice",
    "rule_choice_now",
    "seating_request",
    "sit",
    "table_account",
    "time_out",
    "view",
]

PLAYING, SETTLED = RoundStatus.PLAYING, RoundStatus.SETTLED
HOUSE = "house:bank"
KEYS_KEPT = 200
"""How many seating requests' keys a table remembers (a retry follows its first soon)."""


def table_account(name: str) -> str:
    """The escrow holding a coup's stakes at table ``name`` while it is played.

    >>> table_account("cf-1")
    'table:cf-1'
    """
    return f"table:{name}"


# -- the seating ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Seating:
    """Who sits at the table in turn, who holds (or is offered) the bank, the bank
    carried from the last coup (0: the banker puts one up), the shoe's decks, the keys
    of the seating requests lately made (``[key, request]``), when the bank was offered
    to its holder (``offered``, ISO 8601; empty: no clock runs) and how many offers in a
    row ran out of time (``lapsed``).

    >>> Seating.from_json(Seating(("ann", "bob"), "bob", 1950, 6).to_json()).after("bob")
    'ann'
    """

    seats: tuple[str, ...] = ()
    banker: str | None = None
    bank: int = 0
    decks: int = 6
    keys: tuple[tuple[str, str], ...] = field(default=())
    offered: str = ""
    lapsed: int = 0

    def to_json(self) -> str:
        return json.dumps({"seats": list(self.seats), "banker": self.banker,
                           "bank": self.bank, "decks": self.decks,
                           "keys": [list(k) for k in self.keys],
                           "offered": self.offered, "lapsed": self.lapsed}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Seating:
        data = json.loads(text or "{}")
        return cls(tuple(data.get("seats", [])), data.get("banker"), int(data.get("bank", 0)),
                   int(data.get("decks", 6)),
                   tuple((str(k), str(r)) for k, r in data.get("keys", [])),
                   str(data.get("offered", "")), int(data.get("lapsed", 0)))

    def after(self, player: str) -> str | None:
        """The seat in turn after ``player`` (themselves when alone; None when empty)."""
        if player not in self.seats:
            return self.seats[0] if self.seats else None
        return self.seats[(self.seats.index(player) + 1) % len(self.seats)]

    def keyed(self, key: str, request: str) -> Seating:
        return replace(self, keys=((key, request), *self.keys)[:KEYS_KEPT])

    def offer_from(self, before: Seating, at: datetime) -> Seating:
        """This seating with its bank offer's clock, changed from ``before`` at ``at``:
        it starts when the bank is offered to another seat or when a second player sits
        down to a table that had no clock; a table of one has none.

        >>> now = datetime(2026, 1, 1)
        >>> Seating(("ann", "bob"), "ann").offer_from(Seating(("ann",), "ann"), now).offered
        '2026-01-01T00:00:00'
        """
        if len(self.seats) < 2:
            return replace(self, offered="", lapsed=0)
        if self.banker != before.banker or len(before.seats) < 2 or not before.offered:
            return replace(self, offered=at.isoformat(), lapsed=0)
        return replace(self, offered=before.offered, lapsed=before.lapsed)


def create_chemin_table(session: Session, name: str, decks: int | None = None,
                        actor: str = "system") -> GameTable:
    """Open chemin de fer table ``name`` with a shoe of ``decks`` (6 or 8; the rule
    data's by default), its limits the least and most a bank is put up with.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     made = create_chemin_table(s, "cf-9", decks=8)
    ...     made.limit_min, made.limit_max, Seating.from_json(made.settings).decks
    (100, 100000, 8)
    """
    try:
        engine = chemin_engine(decks)
    except IllegalMove as exc:
        raise TableError(str(exc)) from None
    table = open_rng_table(session, name, GAME, engine.limits.minimum, engine.limits.maximum,
                           actor)
    table.settings = Seating(decks=engine.rules.decks).to_json()
    open_account(session, table_account(name), "table")
    return table


def _table(session: Session, name: str, lock: bool = True) -> tuple[GameTable, Seating]:
    table = find_table(session, name)
    if table.game != GAME:
        raise TableError(f"{name} is a {table.game} table, not chemin de fer")
    if lock:  # one change at a time at a table: its seating and its coup
        session.scalars(select(GameTable).where(GameTable.id == table.id).with_for_update()
                        .execution_options(populate_existing=True)).one()
    return table, Seating.from_json(table.settings)


def _save(session: Session, table: GameTable, seating: Seating, actor: str, action: str,
          detail: dict[str, object], at: datetime | None = None) -> None:
    before = Seating.from_json(table.settings)
    seating = seating.offer_from(before, at or now_utc())
    table.settings = seating.to_json()
    append_audit(session, actor, action, {"table": table.name, **detail,
                                          "seats": list(seating.seats),
                                          "banker": seating.banker, "bank": seating.bank})
    session.flush()


def _other_request(session: Session, table: GameTable, seating: Seating, key: str,
                   kind: str) -> None:
    """A key is bound to one request whatever its kind: ``key`` sent for a ``kind``
    (``seating``, ``stake`` or ``decision``) request is a conflict if a request of another
    kind at this table was made under it (a seating request, a stake's bet row, or a
    move without a stake in the last coup)."""
    made: str | None = None
    if kind != "seating":
        made = dict(seating.keys).get(key)
    if made is None and kind != "stake":
        row = session.scalars(select(BetRow).where(BetRow.key == key)).first()
        if row is not None:
            made = f"{row.player}: {row.spot} {format_cents(row.stake)}"
    if made is None and kind != "decision":
        last = _last_row(session, table)
        made = dict(_decision_keys(last)).get(key) if last is not None else None
    if made is not None:
        raise KeyConflict(f"idempotency key {key!r} was used for another request", made)


def _retried(seating: Seating, key: str, request: str) -> bool:
    """Whether ``key`` made this seating request before (a conflict if another)."""
    for made, what in seating.keys:
        if made == key:
            if what != request:
                raise KeyConflict(f"idempotency key {key!r} was used for another request", what)
            return True
    return False


def seating_request(session: Session, name: str, key: str) -> str | None:
    """What seating request (sit, leave, pass the bank) ``key`` made at ``name``, if any."""
    return dict(_table(session, name, lock=False)[1].keys).get(key)


def sit(session: Session, name: str, player: str, key: str, at: datetime | None = None
        ) -> CheminView:
    """``player`` takes the next free seat (during a coup: from the next one); the first
    to sit is offered the bank."""
    table, seating = _table(session, name)
    _other_request(session, table, seating, key, "seating")
    if _retried(seating, key, f"{player} sits"):
        return view(session, name, player)
    accounts.may_play(accounts.find(session, player))
    if player in seating.seats:
        raise TableError(f"{player} already sits at {name}")
    if len(seating.seats) >= CheminEngine.max_seats:
        raise TableError(f"{name} is full ({CheminEngine.max_seats} seats)")
    seated = Seating((*seating.seats, player), seating.banker or player,
                     seating.bank, seating.decks, seating.keys).keyed(key, f"{player} sits")
    _save(session, table, seated, player, "chemin_seat", {"player": player, "sits": True},
          at)
    return view(session, name, player)


def leave(session: Session, name: str, player: str, key: str, at: datetime | None = None
          ) -> CheminView:
    """``player`` leaves; not during a coup they play. A banker leaving passes the bank
    on (a bank they won is theirs, already in their wallet)."""
    table, seating = _table(session, name)
    _other_request(session, table, seating, key, "seating")
    if _retried(seating, key, f"{player} leaves"):
        return view(session, name, player)
    if player not in seating.seats:
        raise TableError(f"{player} does not sit at {name}")
    row = playing_row(session, table)
    if row is not None and player in _restore(row)[0].players:
        raise TableError(f"{player} plays coup {row.id}: leave when it is over")
    banker, bank = seating.banker, seating.bank
    if banker == player:
        banker, bank = seating.after(player), 0
    seats = tuple(s for s in seating.seats if s != player)
    left = Seating(seats, banker if seats else None, bank, seating.decks,
                   seating.keys).keyed(key, f"{player} leaves")
    _save(session, table, left, player, "chemin_seat", {"player": player, "sits": False},
          at)
    return view(session, name, player)


def pass_bank(session: Session, name: str, player: str, key: str,
              at: datetime | None = None) -> CheminView:
    """The banker gives up the bank between coups (passer la main): it is offered to the
    next seat in turn, to be put up anew."""
    table, seating = _table(session, name)
    _other_request(session, table, seating, key, "seating")
    if _retried(seating, key, f"{player} passes the bank"):
        return view(session, name, player)
    _banker_between_coups(session, table, seating, player)
    passed = Seating(seating.seats, seating.after(player), 0, seating.decks,
                     seating.keys).keyed(key, f"{player} passes the bank")
    _save(session, table, passed, player, "chemin_bank",
          {"player": player, "passes": True, "withdrawn": seating.bank}, at)
    return view(session, name, player)


def _banker_between_coups(session: Session, table: GameTable, seating: Seating,
                          player: str) -> None:
    row = playing_row(session, table)
    if row is not None:
        raise TableError(f"coup {row.id} is in play at {table.name}")
    if seating.banker != player:
        raise TableError(f"the bank is {seating.banker or 'nobody'}'s to put up or pass, "
                         f"not {player}'s")


# -- a coup ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CheminView:
    """The table as ``player`` sees it: the seats, the banker and the bank, the coup in
    play or the last one (its number, ``playing`` or ``settled``, whose turn it is and
    the engine's view of the player's seat), what the player may do now, their wallet,
    and when the decision waited for is due (``deadline``; None: no clock runs).
    Between coups ``to_move`` is the banker (put up, carry or pass)."""

    table: str
    player: str
    seats: tuple[str, ...]
    banker: str | None
    bank: int
    round_id: int | None
    status: str
    to_move: str | None
    actions: tuple[str, ...]
    coup: dict[str, Any] | None
    balance: int
    deadline: datetime | None = None


def _restore(row: RoundRow) -> tuple[RoundRecord, CheminState]:
    record = table_layer.read_record(row.record, FAMILY)
    return record, as_coup(table_layer.rebuild(record, FAMILY))


def _last_row(session: Session, table: GameTable) -> RoundRow | None:
    return session.scalars(select(RoundRow).where(RoundRow.table_id == table.id)
                           .order_by(RoundRow.id.desc()).limit(1)).first()


def view(session: Session, name: str, player: str) -> CheminView:
    """Table ``name`` as ``player`` sees it now (any name: a spectator sees what is
    public)."""
    table, seating = _table(session, name, lock=False)
    row = _last_row(session, table)
    try:
        wallet = balance(session, accounts.wallet_code(player))
    except LedgerError:  # a spectator without a wallet, or the house completing a coup
        wallet = 0
    if row is not None and row.status == PLAYING:
        record, state = _restore(row)
        seat = record.players.index(player) if player in record.players else None
        mover = state.to_move()
        who = None if mover is None or mover == CHANCE else record.players[mover]
        offered = tuple(a.text() for a in state.legal_actions()) if who == player else ()
        return CheminView(name, player, seating.seats, record.players[state.banker],
                          state.bank, row.id, "playing", who, offered, state.view(seat), wallet,
                          _due(row))
    coup: dict[str, Any] | None = None
    if row is not None:
        record, state = _restore(row)
        coup = state.view(record.players.index(player) if player in record.players else None)
    actions: tuple[str, ...] = ()
    if seating.banker == player and len(seating.seats) >= 2:
        limits = chemin_engine(seating.decks).limits
        actions = (("carry",) if seating.bank else
                   (f"bank {limits.minimum}", f"bank {limits.maximum}")) + ("pass",)
    return CheminView(name, player, seating.seats, seating.banker, seating.bank,
                      None if row is None else row.id,
                      "settled" if row is not None else "no coup yet",
                      seating.banker if len(seating.seats) >= 2 else None, actions, coup,
                      wallet, _offer_due(seating))


def put_up(session: Session, name: str, player: str, amount: int, key: str,
           rng: Rng | None = None, at: datetime | None = None) -> CheminView:
    """The banker puts up a bank of ``amount`` cents (the table's least to most) and the
    coup begins; the same ``key`` again answers it."""
    return _begin(session, name, player, amount, key, rng, at)


def carry(session: Session, name: str, player: str, key: str, rng: Rng | None = None,
          at: datetime | None = None) -> CheminView:
    """The banker carries the bank won last coup into the next (staked again from the
    wallet it was paid to) and the coup begins."""
    return _begin(session, name, player, None, key, rng, at)


def _begin(session: Session, name: str, player: str, amount: int | None, key: str,
           rng: Rng | None, at: datetime | None) -> CheminView:
    at = at or now_utc()
    table, seating = _table(session, name)
    _other_request(session, table, seating, key, "stake")
    first = session.scalars(select(BetRow).where(BetRow.key == key)).first()
    if first is not None:
        if first.player != player or first.spot != "bank" or (
                amount is not None and first.stake != amount):
            raise KeyConflict(f"idempotency key {key!r} was used for another request",
                              f"{first.player}: {first.spot} {format_cents(first.stake)}")
        return view(session, name, player)
    _banker_between_coups(session, table, seating, player)
    if table.status != "open":
        raise TableError(f"{name} is closed")
    if len(seating.seats) < 2:
        raise TableError(f"{name}: a coup needs the banker and at least one punter")
    if amount is None and not seating.bank:
        raise TableError("there is no bank to carry: put one up ('bank AMOUNT') or pass")
    if amount is not None and seating.bank:
        raise TableError(f"{player} holds a bank of {format_cents(seating.bank)} €: carry it "
                         "or pass (withdraw) it")
    accounts.may_play(accounts.find(session, player))
    carried = seating.bank if amount is None else 0
    banker = seating.seats.index(player)
    record = RoundRecord(game=GAME, round_id=0, table=name, mode="rng",
                         opened_at=at.isoformat(), status=PLAYING,
                         settings={"decks": str(seating.decks), CARRIED: str(carried)},
                         limits=LimitsRecord(min=table.limit_min, max=table.limit_max),
                         players=list(seating.seats), button=banker)
    start = as_coup(FAMILY.start(record))
    try:
        state = start if amount is None else as_coup(
            start.apply(f"bank {amount}", seat=banker).state)
    except IllegalMove as exc:
        raise TableError(str(exc)) from None
    row = RoundRow(table_id=table.id, status=PLAYING, gaming_day=table.gaming_day,
                   record="{}", opened_at=at, deadline=at + timedelta(hours=PENDING_HOURS))
    session.add(row)
    session.flush()
    record = record.model_copy(update={"round_id": row.id})
    _book_stakes(session, table, row, record, _no_bets(state), state, key, at)
    append_audit(session, player, "chemin_bank",
                 {"table": name, "round": row.id, "player": player,
                  "bank": state.bank, "carried": bool(carried)})
    return _step(session, table, row, record, _draw(state, rng), at, player)


def _no_bets(state: CheminState) -> CheminState:
    """``state`` with no stake yet: what the bank's debit is booked against."""
    return replace(state, bets=())


def act(session: Session, name: str, player: str, action: str, key: str,
        rng: Rng | None = None, at: datetime | None = None) -> CheminView:
    """``player``'s move in the coup in play when it is their turn: ``banco``, ``bet
    CENTS`` or ``pass`` (a punter), ``draw`` or ``stand`` (the player's hand on five, the
    banker in an option cell). A stake is debited under ``key``; the same key again
    answers the move. The cards are drawn to the next seat's turn or to the end, and the
    coup paid."""
    at = at or now_utc()
    table, seating = _table(session, name)
    if dict(seating.keys).get(key) is not None:
        raise KeyConflict(f"idempotency key {key!r} was used for another request",
                          dict(seating.keys)[key])
    request = f"{player}: {action.strip()}"
    staked = session.scalars(select(BetRow).where(BetRow.key == key)).first()
    if staked is not None:
        words = action.split()
        same = staked.player == player and (
            (words == ["banco"] and staked.spot == "banco")
            or (words == ["bet", str(staked.stake)] and staked.spot == "punt"))
        if not same:
            raise KeyConflict(f"idempotency key {key!r} was used for another move",
                              f"{staked.player}: {staked.spot} {format_cents(staked.stake)}")
        return view(session, name, player)
    row = playing_row(session, table)
    last = row or _last_row(session, table)
    if last is not None:
        made = dict(_decision_keys(last))
        if key in made:
            if made[key] != request:
                raise KeyConflict(f"idempotency key {key!r} was used for another move",
                                  made[key])
            return view(session, name, player)
    if row is None:
        raise TableError(f"no coup is in play at {name}")
    record, before = _restore(row)
    if player not in record.players:
        raise TableError(f"{player} does not play coup {row.id}")
    seat = record.players.index(player)
    mover = before.to_move()
    if mover != seat:
        raise TableError(f"it is {record.players[mover]}'s turn, not {player}'s"
                         if mover is not None and mover != CHANCE else
                         f"coup {row.id} waits for nobody's move")
    try:
        after = before.apply(action, seat=seat).state
    except IllegalMove as exc:
        raise TableError(str(exc)) from None
    _book_stakes(session, table, row, record, before, as_coup(after), key, at)
    return _step(session, table, row, record, _draw(as_coup(after), rng), at, player,
                 None if _stakes(after).keys() - _stakes(before).keys() else (key, request))


def _draw(state: CheminState, rng: Rng | None) -> CheminState:
    """Draw the cards until a seat is to move or the coup is over."""
    rng = rng or SecureRng()
    found: State = state
    while found.to_move() == CHANCE:
        found = found.apply(table_layer.draw_outcome(found, rng)).state
    return as_coup(found)


def _stakes(state: State) -> dict[int, tuple[int, str, int]]:
    return {b.bet_id: (b.seat, b.spot, b.stake) for b in as_coup(state).bets}


def _decision_keys(row: RoundRow) -> list[tuple[str, str]]:
    """The keys of the moves without a stake a coup took, with the move each made."""
    try:
        found = json.loads(row.record).get("decision_keys", [])
    except (ValueError, AttributeError):
        return []
    return [(str(k), str(r)) for k, r in found] if isinstance(found, list) else []


def _book_stakes(session: Session, table: GameTable, row: RoundRow, record: RoundRecord,
                 before: CheminState, after: CheminState, key: str, at: datetime) -> None:
    """Debit each stake ``after`` has that ``before`` had not, wallet to escrow, keyed
    ``chemin:stake:ROUND:BET``; one bet row each, the first under the request's key."""
    old = _stakes(before)
    new = [(bet, *made) for bet, made in _stakes(after).items() if bet not in old]
    for number, (bet, seat, spot, stake) in enumerate(new):
        who = record.players[seat]
        held = balance(session, accounts.wallet_code(who))
        if stake > held:
            raise TableError(f"{accounts.wallet_code(who)} holds {format_cents(held)}, not "
                             f"{format_cents(stake)}: no credit")
        accounts.stake(session, who, stake, key=f"chemin:stake:{row.id}:{bet}",
                       reason=f"{table.name} coup {row.id}: {spot}", round_id=row.id,
                       house=table_account(table.name))
        session.add(BetRow(round_id=row.id, number=bet, player=who, spot=spot, stake=stake,
                           key=key if number == 0 else f"{key}:{bet}", created_at=at))


def _step(session: Session, table: GameTable, row: RoundRow, record: RoundRecord,
          state: CheminState, at: datetime, actor: str,
          decision: tuple[str, str] | None = None, due: datetime | None = None
          ) -> CheminView:
    """Write the coup after a move, the next decision due by ``due`` (the rule data's
    time from ``at`` by default); when it is over pay it from the escrow, the house's
    commission to the house, and pass the bank on."""
    if state.is_terminal():
        _settle(session, table, row, record, state, actor, at)
    due = due or at + timedelta(seconds=state.game.rules.decision_seconds)
    status = SETTLED if state.is_terminal() else PLAYING
    done = record.with_state(state, status=status,
                             settlements=FAMILY.settlements(state, record))
    keys = _decision_keys(row) + ([decision] if decision else [])
    row.record = table_layer.write_record(done, {
        **FAMILY.derived(state, done), "decision_keys": [list(k) for k in keys],
        "decision_due": None if state.is_terminal() else due.isoformat()})
    row.status = status
    row.deadline = at + timedelta(hours=PENDING_HOURS)  # from the last move
    if status == SETTLED:
        row.finished_at = at
    session.flush()
    return view(session, table.name, actor)


def _settle(session: Session, table: GameTable, row: RoundRow, record: RoundRecord,
            state: CheminState, actor: str, at: datetime) -> None:
    escrow, reason = table_account(table.name), f"{table.name} coup {row.id}"
    rows = {b.number: b for b in session.scalars(
        select(BetRow).where(BetRow.round_id == row.id))}
    for s in state.settlements:
        who = record.players[s.seat]
        if s.paid:
            accounts.pay(session, who, s.paid, key=f"chemin:settle:{row.id}:{s.bet_id}",
                         kind="win" if s.paid > s.stake else "refund",
                         reason=f"{reason}: {s.spot} {s.result}", round_id=row.id,
                         house=escrow)
        rows[s.bet_id].paid, rows[s.bet_id].result = s.paid, s.result.split(",", 1)[0][:16]
    commission = state.accounts()["house"]
    if commission:
        move(session, f"chemin:commission:{row.id}", escrow, HOUSE, commission, "commission",
             reason=f"{reason}: {state.game.rules.commission_percent} % of the bank's win",
             round_id=row.id)
    _, seating = _table(session, table.name, lock=False)
    seat, bank = next_bank(state)
    banker = record.players[state.banker]
    # a bank that lost goes to the next seat in turn now, whoever sat meanwhile
    holder = seating.after(banker) if state.result() == "player" else record.players[seat]
    table.settings = Seating(seating.seats, holder, bank if holder == banker else 0,
                             seating.decks, seating.keys,
                             at.isoformat() if len(seating.seats) >= 2 else "").to_json()
    append_audit(session, actor, "chemin_coup",
                 {"table": table.name, "round": row.id, "result": state.result(),
                  "banker": banker, "bank": state.bank, "covered": state.covered,
                  "commission": commission, "next_banker": holder,
                  "returns": dict(zip(record.players, state.returns(), strict=True))})


# -- the decision clock ------------------------------------------------------------------------
def _due(row: RoundRow) -> datetime | None:
    """When the decision the coup in ``row`` waits for is due (None: none is)."""
    try:
        found = json.loads(row.record).get("decision_due")
    except (ValueError, AttributeError):
        return None
    return datetime.fromisoformat(found) if isinstance(found, str) else None


def _offer_due(seating: Seating) -> datetime | None:
    """When the bank offered between coups is due (None: no clock runs)."""
    if not seating.offered or len(seating.seats) < 2:
        return None
    step = chemin_engine(seating.decks).rules.decision_seconds
    return datetime.fromisoformat(seating.offered) + timedelta(seconds=step)


def decision_due(session: Session, name: str) -> datetime | None:
    """When the decision table ``name`` waits for is due: the turn in the coup in play,
    or the bank offered between coups; None when no clock runs."""
    table, seating = _table(session, name, lock=False)
    row = playing_row(session, table)
    if row is not None:
        return _due(row)
    return _offer_due(seating) if table.status == "open" else None


def time_out(session: Session, name: str, at: datetime | None = None,
             rng: Rng | None = None) -> list[str]:
    """Act as the house for each seat at ``name`` whose decision time ran out by ``at``:
    in the coup a punter passes and a choice takes the rule data's (the cards drawn on,
    the coup paid when it is over); between coups the offered bank passes to the next
    seat in turn, until it has gone round every seat. Each next decision's time runs
    from the end of the last. What the house did, in order (empty: nothing was due)."""
    at = at or now_utc()
    made: list[str] = []
    first = decision_due(session, name)
    if first is None or first > at:  # the usual case: no lock taken
        return made
    table, seating = _table(session, name)
    row = playing_row(session, table)
    if row is not None:
        due = _due(row)
        if due is None or due > at:
            return made
        record, state = _restore(row)
        step = timedelta(seconds=state.game.rules.decision_seconds)
        when = due
        while not state.is_terminal() and due <= at:
            mover, choice, when = state.to_move(), rule_choice(state), due
            made.append(f"{record.players[mover or 0]} {choice}")
            state = _draw(as_coup(state.apply(choice).state), rng)
            due = when + step
        append_audit(session, "system", "chemin_decision_time",
                     {"table": name, "round": row.id, "decisions": made,
                      "seconds": int(step.total_seconds()),
                      "section": state.game.rules.sections["clock"][:80]})
        _step(session, table, row, record, state, when, "system", due=due)
        if not state.is_terminal():
            return made
        seating = Seating.from_json(table.settings)
    if table.status != "open":
        return made
    while (due := _offer_due(seating)) is not None and due <= at:
        lapsed = seating.lapsed + 1
        banker = seating.banker or seating.seats[0]
        made.append(f"{banker} passes the bank")
        append_audit(session, "system", "chemin_bank",
                     {"table": name, "player": banker, "passes": True, "timed_out": True,
                      "withdrawn": seating.bank})
        seating = replace(seating, banker=seating.after(banker), bank=0, lapsed=lapsed,
                          offered="" if lapsed >= len(seating.seats) else due.isoformat())
    table.settings = seating.to_json()
    session.flush()
    return made


def overdue_tables(session: Session, at: datetime | None = None) -> list[str]:
    """The open chemin de fer tables whose decision time has run out by ``at``."""
    at = at or now_utc()
    names = session.scalars(select(GameTable.name).where(
        GameTable.game == GAME, GameTable.status == "open").order_by(GameTable.name)).all()
    return [name for name in names
            if (due := decision_due(session, name)) is not None and due <= at]


# -- the rule data's choices, the 24 hours, recall -------------------------------------------
def rule_choice(state: CheminState) -> str:
    """What the rule data decides for a seat that does not: a punter passes; the
    player's hand on five and the banker in an option cell take the rule file's choice.

    >>> from pelisali.engine import Seats
    >>> state = chemin_engine().new_coup(Seats(2), bank=1000)
    >>> rule_choice(state)
    'pass'
    """
    waiting = state.view(None)["waiting"]
    if waiting == "punter":
        return "pass"
    rules = state.game.rules
    if waiting == "player":
        return rules.player_choice
    if waiting == "banker":
        third = state.hand("player")[2]
        return rules.options[(points(state.hand("banker")), third)]
    raise TableError(f"the coup waits for {waiting or 'nothing'}, not a seat's choice")


def rule_choice_now(session: Session, name: str) -> str:
    """The rule data's choice (:func:`rule_choice`) for the seat the coup in play at
    ``name`` waits for: what a seat that follows the rule file does."""
    table, _seating = _table(session, name, lock=False)
    row = _last_row(session, table)
    if row is None or row.status != PLAYING:
        raise TableError(f"no coup is in play at {name}")
    return rule_choice(_restore(row)[1])


def overdue_coups(session: Session, at: datetime | None = None) -> list[int]:
    """The coups waiting for a seat past their 24 hours, oldest first."""
    at = at or now_utc()
    return list(session.scalars(
        select(RoundRow.id).join(GameTable, GameTable.id == RoundRow.table_id)
        .where(GameTable.game == GAME, RoundRow.status == PLAYING, RoundRow.deadline <= at)
        .order_by(RoundRow.id)))


def complete_coup(session: Session, round_id: int, rng: Rng | None = None,
                  at: datetime | None = None) -> str | None:
    """Finish a coup left waiting: each seat to move takes the rule data's choice
    (:func:`rule_choice`), the cards are drawn and the coup paid. None if it was not
    waiting."""
    at = at or now_utc()
    row = session.get(RoundRow, round_id, with_for_update=True)
    if row is None or row.status != PLAYING:
        return None
    table = session.get(GameTable, row.table_id)
    if table is None or table.game != GAME:
        return None
    _table(session, table.name)  # lock the table as every move does
    record, state = _restore(row)
    made = []
    while not state.is_terminal():
        mover = state.to_move()
        choice = rule_choice(state)
        made.append(f"{record.players[mover or 0]} {choice}")
        state = _draw(as_coup(state.apply(choice).state), rng)
    _step(session, table, row, record, state, at, "system")
    decided = ", ".join(made)
    append_audit(session, "system", "chemin_coup_completed",
                 {"round": row.id, "table": table.name, "decisions": decided,
                  "section": "GGPoker house rules 2.3"})
    return f"settled, the house decided {decided}"


def recover_chemin_coups(session: Session, rng: Rng | None = None,
                         at: datetime | None = None) -> list[tuple[int, str]]:
    """Complete every coup past its 24 hours: each coup's number and what became of it."""
    done = []
    for round_id in overdue_coups(session, at):
        what = complete_coup(session, round_id, rng, at)
        if what is not None:
            done.append((round_id, what))
    return done


def recall_coup(session: Session, round_id: int) -> Recall:
    """Game recall: the coup replayed through its engine from its record."""
    row = session.get(RoundRow, round_id)
    table = None if row is None else session.get(GameTable, row.table_id)
    if row is None or table is None or table.game != GAME:
        raise TableError(f"there is no coup {round_id}")
    found = table_layer.recall(row.record, FAMILY)
    return Recall(round_id, found.recorded, found.replayed, found.problem or "")


# -- history -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class CoupLine:
    """A settled coup as a player's history shows it: the banker and the bank, the
    cards, the result, what the player staked and was paid back."""

    round_id: int
    banker: str
    bank: int
    cards: str
    result: str
    staked: int
    paid: int


def coups(session: Session, name: str, player: str, limit: int = 10) -> list[CoupLine]:
    """The last ``limit`` settled coups at table ``name``, newest first, as ``player``
    sees them."""
    table, _seating = _table(session, name, lock=False)
    rows = session.scalars(select(RoundRow).where(RoundRow.table_id == table.id,
                                                  RoundRow.status == SETTLED)
                           .order_by(RoundRow.id.desc()).limit(limit)).all()
    out = []
    for row in rows:
        try:
            record, state = _restore(row)
        except RecordError:
            continue
        seat = record.players.index(player) if player in record.players else None
        mine = [s for s in state.settlements if s.seat == seat]
        cards = " ".join(f"{side[0].upper()}:{card}" for side, card in state.cards)
        out.append(CoupLine(row.id, record.players[state.banker], state.bank, cards or "-",
                            state.result() or "no coup", sum(s.stake for s in mine),
                            sum(s.paid for s in mine)))
    return out
