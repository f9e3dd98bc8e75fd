"""Punto banco and blackjack on the persistent wallet: the card tables' rounds.

The money moves as in :mod:`pelisali.platform.rounds`: a bet's stake is debited in
the transaction that accepts it; a blackjack double, split or insurance is debited when
it is taken, each a keyed transfer checked against the wallet (no credit, RAY 1.1);
the dealing of the last cards, every payout (keys ``settle:ROUND:BET``) and the round's
record are written in one transaction. A round is open (``open``), in play (blackjack:
``playing``), ``settled`` or ``void``.

**The shoe.** Each table deals from one persistent shoe, as a casino table does: the
shoe is shuffled with the round's generator (the secure one by default) at the first
deal and whenever the cut card has come out (GGPoker I 3.3.4, III 3.2.2), and every
dealt round's record keeps the shoe's whole order (``shuffle_order``), the cards burned
after the shuffle (``burned``), the shuffle's number at the table (``shuffle``) and the
positions the round dealt from and to (``shoe_positions``), just as the engines record
it. The next round continues the shoe from the last dealt round's record, so a
restarted server deals on from the same shoe, and recall can check that the round's
cards are the shoe's. Those records are server-side: what a player is shown is a view
(:class:`BlackjackView`), never the order of the shoe.

**A blackjack round in play** is its record: the shoe as it stood when the round began,
the seats' bets and the decisions so far. Each request rebuilds the engine by dealing
the same cards from that shoe and replaying the decisions, checks that the cards agree
with those recorded, and applies the new decision; after a restart the round resumes
where it stopped (GGPoker house rules 2.1).

**Cards entered by a dealer** (``stack``) are accepted at live tables only: they go on
top of the shoe, taken from the cards the shoe still holds, and the round's record and
the audit chain say so. An RNG table deals only from its shuffled shoe.

**Fractions of a cent** (the banker's 5 % commission, a 3:2 blackjack on an odd stake)
are paid down to the cent by the engine. A round's whole cents of them go from the bank
to the rounding account; the record keeps them exactly, each settlement's ``rounding``
and the round's sum in ``rounding`` (``"numerator/denominator"`` cents).

>>> from datetime import date
>>> from pelisali.platform import accounts
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform.ledger import balance, move
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
...     _ = accounts.deposit(s, "ann", 10_000, key="d1")
...     _ = move(s, "fund", "external:owner", "house:bank", 1_000_000, "funding")
...     _ = create_card_table(s, "pb-1", "punto-banco", mode="live")
...     place_card_bet(s, "pb-1", "ann", "banker", 1_010, key="b1").accepted
1010
>>> with transaction(engine) as s:  # player 9h 2c: 1; banker Ts 8d: a natural 8
...     coup = deal_coup(s, "pb-1", stack=["9h", "Ts", "2c", "8d"])
...     coup.result, [(x.paid, str(x.rounding)) for x in coup.settlements]
('banker', [(1969, '1/2')])
>>> with transaction(engine) as s:
...     balance(s, "player:ann"), recall_card_round(s, coup.round_id).same
(10959, True)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy import select
from sqlalchemy.orm import Session

from pelisali.cards import CardError, Shoe, parse_card
from pelisali.games.base import GameError, resolve_settings
from pelisali.games.blackjack import BlackjackTable, Phase, replay_blackjack
from pelisali.games.blackjack_rules import BlackjackConfig
from pelisali.games.punto_banco import (
    PuntoBancoConfig,
    PuntoBancoTable,
    replay_coup,
    winner,
)
from pelisali.games.round import Limits, Receipt, Settlement
from pelisali.platform import accounts
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import append_audit, balance, now_utc, post
from pelisali.platform.models import BetRow, GameTable, RoundRow
from pelisali.platform.rounds import (
    PENDING_HOURS,
    Recall,
    TableError,
    find_table,
    rounding_posting,
)
from pelisali.rng import Rng, SecureRng
from pelisali.rules import load_rules

__all__ = [
    "CARD_GAMES",
    "BlackjackView",
    "CoupResult",
    "HandView",
    "act",
    "blackjack_view",
    "create_card_table",
    "deal_blackjack",
    "deal_coup",
    "insure",
    "place_card_bet",
    "recall_card_round",
    "recover_card_rounds",
    "void_card_round",
]

CARD_GAMES = {"punto-banco": "punto-banco", "baccarat": "punto-banco",
              "blackjack": "blackjack"}
OPEN, PLAYING = RoundStatus.OPEN, RoundStatus.PLAYING
VENUE = "pelisali"


class _NoDraws:
    """A generator that is never meant to be used: the table's shoe is loaded from the
    record, so the engine's own shuffle at construction is thrown away unrandomised."""

    name = "none"

    def randbelow(self, n: int) -> int:
        return 0

    def randbelow_many(self, n: int, size: int) -> npt.NDArray[np.int64]:
        return np.zeros(size, dtype=np.int64)


# -- tables ------------------------------------------------------------------------------
def create_card_table(session: Session, name: str, game: str,
                      settings: dict[str, str | bool] | None = None,
                      limit_min: int | None = None, limit_max: int | None = None,
                      mode: str = "rng", actor: str = "system") -> GameTable:
    """A punto banco (``baccarat``) or blackjack table; the settings are checked by the
    engine's configuration and the limits default to the rule data's."""
    kind = CARD_GAMES.get(game.lower())
    if kind is None:
        raise TableError(f"no card game {game!r}; card games: punto-banco, blackjack")
    if mode not in ("rng", "live"):
        raise TableError(f"mode {mode!r}: rng or live")
    rules = load_rules(kind)
    chosen = dict(settings or {})
    try:
        values = resolve_settings(rules, chosen, kind)
        if kind == "punto-banco":  # the engine refuses a cut card that leaves too few cards
            PuntoBancoTable(_NoDraws(), PuntoBancoConfig.from_settings(chosen))
        else:
            BlackjackConfig.from_settings(chosen)
    except GameError as exc:
        raise TableError(str(exc)) from None
    lo = rules.limits.min if limit_min is None else limit_min
    hi = rules.limits.max if limit_max is None else limit_max
    if not 0 < lo <= hi:
        raise TableError("limits: 0 < minimum <= maximum")
    if session.scalars(select(GameTable).where(GameTable.name == name)).one_or_none():
        raise TableError(f"a table called {name!r} exists")
    # Only the chosen settings are kept (normalised): the rest follow the rule file, and a
    # blackjack cut card given in decks differs from the default half shoe.
    kept = {key: values[key] for key in chosen}
    table = GameTable(name=name, game=kind, variant="", settings=json.dumps(kept, sort_keys=True),
                      limit_min=lo, limit_max=hi, mode=mode, gaming_day=now_utc().date(),
                      created_at=now_utc())
    session.add(table)
    session.flush()
    append_audit(session, actor, "table", {"table": name, "game": kind, "variant": "",
                                           "settings": kept, "min": lo, "max": hi,
                                           "mode": mode})
    return table


def _card_table(session: Session, name: str, game: str | None = None) -> GameTable:
    table = find_table(session, name)
    if table.game not in ("punto-banco", "blackjack"):
        raise TableError(f"{name} is a {table.game} table, not a card table")
    if game is not None and table.game != game:
        raise TableError(f"{name} is a {table.game} table, not {game}")
    return table


def _settings(table: GameTable) -> dict[str, str | bool]:
    loaded: dict[str, str | bool] = json.loads(table.settings)
    return loaded


def _limits(table: GameTable) -> Limits:
    return Limits(table.limit_min, table.limit_max)


def _lock_table(session: Session, table: GameTable) -> None:
    """Rounds of one table are dealt one at a time: they share the shoe."""
    session.scalars(select(GameTable).where(GameTable.id == table.id).with_for_update()).one()


def _round(session: Session, table: GameTable, status: str, create: bool = False
           ) -> RoundRow | None:
    """The table's round in ``status``, locked for this transaction (opened if asked)."""
    query = (select(RoundRow).where(RoundRow.table_id == table.id, RoundRow.status == status)
             .order_by(RoundRow.id).with_for_update())
    found = session.scalars(query).first()
    if found is None and create:
        _lock_table(session, table)  # two first bets open one round, not two
        found = session.scalars(query).first()
        if found is None:
            now = now_utc()
            found = RoundRow(table_id=table.id, status=status, gaming_day=table.gaming_day,
                             record="{}", opened_at=now,
                             deadline=now + timedelta(hours=PENDING_HOURS))
            session.add(found)
            session.flush()
    return found


def _betting(session: Session, table: GameTable) -> tuple[RoundRow, list[BetRow]]:
    """The round open for bets and its bets, or a refusal when there are none."""
    row = _round(session, table, OPEN)
    bets = _bets(session, row.id) if row is not None else []
    if row is None or not bets:
        raise TableError(f"{table.name}: no bets on the table")
    return row, bets


def _bets(session: Session, round_id: int) -> list[BetRow]:
    return list(session.scalars(select(BetRow).where(BetRow.round_id == round_id)
                                .order_by(BetRow.number)))


def _balances(session: Session, bets: Sequence[BetRow], also: str | None = None
              ) -> dict[str, int]:
    """What each player had when the round began: the wallet now plus the round's stakes
    (so that replaying the round leaves the engine's balance equal to the wallet)."""
    names = sorted({b.player for b in bets} | ({also} if also else set()))
    out = {name: balance(session, accounts.wallet_code(name)) for name in names}
    for bet in bets:
        out[bet.player] += bet.stake
    return out


# -- the shoe ----------------------------------------------------------------------------
def _cards_of(order: str) -> list[str]:
    return [order[i:i + 2] for i in range(0, len(order), 2)]


def _load_shoe(record: dict[str, Any], decks: int, cut: int, at: int) -> Shoe:
    """The shoe of a record, at position ``at``."""
    shoe = Shoe(decks, cut)
    shoe.load(_cards_of(record["shuffle_order"]))
    shoe.position, shoe.shuffles = at, int(record["shuffle"])
    shoe.burned = list(record["burned"])
    return shoe


def _table_shoe(session: Session, table: GameTable, decks: int, cut: int
                ) -> tuple[Shoe | None, int]:
    """The shoe as the table's last dealt round left it, or None when a new shuffle is
    due (the first deal, or the cut card came out); and that shuffle's number."""
    last = session.scalars(
        select(RoundRow).where(RoundRow.table_id == table.id,
                               RoundRow.status.in_(("settled", "void", PLAYING)),
                               RoundRow.record.contains('"shuffle_order": "', autoescape=True))
        .order_by(RoundRow.id.desc()).limit(1)).one_or_none()
    if last is None:
        return None, 1
    record = json.loads(last.record)
    shoe = _load_shoe(record, decks, cut, int(record["shoe_positions"][1]))
    if shoe.cut_card_out:  # that was the last hand before the shuffle
        return None, shoe.shuffles + 1
    return shoe, shoe.shuffles


def _stack(table: GameTable, shoe: Shoe, cards: Sequence[str]) -> list[str]:
    """A live dealer's cards on top of the shoe, each taken from the cards it still holds."""
    if table.mode != "live":
        raise TableError(f"{table.name} is an RNG table: it deals only from its shuffled shoe")
    try:
        stacked = [parse_card(c) for c in cards]
    except CardError as exc:
        raise TableError(str(exc)) from None
    rest = shoe.cards[shoe.position:]
    for card in stacked:
        if card not in rest:
            raise TableError(f"{card} is not left in the shoe")
        rest.remove(card)
    shoe.cards = shoe.cards[:shoe.position] + stacked + rest
    return stacked


def _shoe_check(record: dict[str, Any], cards: Sequence[str]) -> str | None:
    """Whether a record's cards are the ones its shoe held where the round dealt them."""
    order, positions = record.get("shuffle_order"), record.get("shoe_positions")
    if not order or not positions:
        return None
    start, end = int(positions[0]), int(positions[1])
    if _cards_of(order)[start:end] != list(cards):
        return "the round's cards are not the shoe's"
    return None


def _keep_rounding(session: Session, table_name: str, round_id: int,
                   settlements: Sequence[Settlement]) -> None:
    kept = rounding_posting(table_name, round_id, settlements)
    if kept is not None:
        post(session, [kept], actor="table:" + table_name, action="rounding")


def _rounding(settlements: Sequence[Settlement]) -> str:
    total = sum((s.rounding for s in settlements), Fraction(0))
    return f"{total.numerator}/{total.denominator}"


# -- bets --------------------------------------------------------------------------------
def _seat_of(spot: str) -> int:
    words = spot.lower().split()
    if words and words[0] == "seat":
        words = words[1:]
    if len(words) != 1 or not words[0].isdigit():
        raise TableError(f"a blackjack bet is on a seat: 'seat 3' or '3', not {spot!r}")
    return int(words[0])


def place_card_bet(session: Session, table_name: str, player: str, spot: str, amount: int,
                   key: str) -> Receipt:
    """Accept a bet before the deal and debit its stake in this transaction: punto banco
    ``player``, ``banker`` or ``tie``; blackjack a seat (``"3"`` or ``"seat 3"``, one bet a
    seat). The excess over the table maximum never leaves the wallet (RAY 1.1). A retried
    request (same key) returns the first receipt."""
    table = _card_table(session, table_name)
    blackjack = table.game == "blackjack"
    wanted = f"seat {_seat_of(spot)}" if blackjack else spot.lower().strip()
    done = session.scalars(select(BetRow).where(BetRow.key == key)).one_or_none()
    if done is not None:
        if (done.player, done.spot) != (player, wanted):
            raise TableError(f"bet key {key!r} was used for a different bet")
        return Receipt(done.number, done.stake, 0, "already placed")
    accounts.may_play(accounts.find(session, player))
    if blackjack and _round(session, table, PLAYING) is not None:
        # No bets once the first card is out (GGPoker III 2.1.2, 2.1.3).
        raise TableError(f"{table.name}: a round is in play; bets are for the next one")
    row = _round(session, table, OPEN, create=True)
    assert row is not None
    bets = _bets(session, row.id)
    money = _balances(session, bets, player)
    try:
        if blackjack:
            table_engine = _blackjack(table, money, _NoDraws())
            for bet in bets:
                table_engine.place(bet.player, bet.number, bet.stake)
            receipt = table_engine.place(player, _seat_of(spot), amount)
        else:
            receipt = _punto_banco(table, bets, money, _NoDraws()).place(player, wanted, amount)
    except GameError as exc:
        raise TableError(str(exc)) from None
    accounts.stake(session, player, receipt.accepted, key=f"stake:{key}",
                   reason=f"{table.name} round {row.id} {wanted}", round_id=row.id)
    session.add(BetRow(round_id=row.id, number=receipt.bet_id, player=player, spot=wanted,
                       stake=receipt.accepted, key=key, created_at=now_utc()))
    session.flush()
    return receipt


def _punto_banco(table: GameTable, bets: Sequence[BetRow], money: dict[str, int],
                 rng: Rng) -> PuntoBancoTable:
    """The engine with the round's bets placed again, in their order (so their ids)."""
    engine = PuntoBancoTable(rng, PuntoBancoConfig.from_settings(_settings(table)),
                             _limits(table), table_id=table.name, venue=VENUE)
    for name, amount in money.items():
        engine.sit(name, amount)
    for bet in bets:
        engine.place(bet.player, bet.spot, bet.stake)
    return engine


def _blackjack(table: GameTable, money: dict[str, int], rng: Rng) -> BlackjackTable:
    """The engine with the round's players seated; their bets are placed by the caller
    (the original amounts: doubles, splits and insurance are replayed as decisions)."""
    engine = BlackjackTable(rng, BlackjackConfig.from_settings(_settings(table)),
                            _limits(table), table_id=table.name, venue=VENUE)
    for name, amount in money.items():
        engine.sit(name, amount)
    return engine


# -- punto banco -------------------------------------------------------------------------
@dataclass(frozen=True)
class CoupResult:
    """A dealt and settled punto banco round."""

    round_id: int
    cards: tuple[tuple[str, str], ...]  # (side, card) in dealing order
    result: str  # player, banker or tie
    description: str
    settlements: tuple[Settlement, ...]
    last_hand: bool  # the cut card came out: the next coup is dealt from a new shoe


def deal_coup(session: Session, table_name: str, rng: Rng | None = None,
              stack: Sequence[str] | None = None) -> CoupResult:
    """No more bets (GGPoker I 2.1.6); deal the coup from the table's shoe by the
    third-card rule and pay every bet, with the round's record, in this transaction."""
    table = _card_table(session, table_name, "punto-banco")
    _lock_table(session, table)
    row, bets = _betting(session, table)
    config = PuntoBancoConfig.from_settings(_settings(table))
    shoe, number = _table_shoe(session, table, config.decks, config.cut_cards_from_back)
    money = {b.player: 0 for b in bets}
    for bet in bets:
        money[bet.player] += bet.stake
    engine = _punto_banco(table, bets, money,
                          (rng or SecureRng()) if shoe is None else _NoDraws())
    if shoe is None:
        engine.shoe.shuffles = number  # a new shoe: shuffled and burned by the engine
    else:
        engine.shoe = shoe
    # The engine shuffles at once when the cut card comes out; this table shuffles at
    # the next deal instead, so that shuffle is a throwaway and uses no real draws.
    engine.rng = _NoDraws()
    stacked = _stack(table, engine.shoe, stack) if stack is not None else None
    try:
        coup, settlements = engine.deal()
    except (GameError, CardError) as exc:
        raise TableError(str(exc)) from None
    record = dict(engine.history[-1])
    record.update(round_id=row.id, table=table.name, opened_at=row.opened_at.isoformat(),
                  mode=table.mode, stacked=stacked, rounding=_rounding(settlements))
    by_number = {b.number: b for b in bets}
    for s in settlements:
        bet = by_number[s.bet_id]
        bet.paid, bet.result = s.paid, s.result
        if s.paid:
            accounts.pay(session, s.player, s.paid, key=f"settle:{row.id}:{s.bet_id}",
                         reason=f"{table.name} round {row.id} {s.spot} {s.result}",
                         round_id=row.id)
    _keep_rounding(session, table.name, row.id, settlements)
    row.status, row.finished_at = RoundStatus.SETTLED, now_utc()
    row.record = json.dumps(record, sort_keys=True)
    append_audit(session, "table:" + table.name, "settle", {
        "round": row.id, "cards": record["cards"], "result": record["result"],
        "shuffle": record["shuffle"], "stacked": stacked, "bets": len(bets),
        "paid": sum(s.paid for s in settlements)})
    return CoupResult(row.id, tuple((side, card) for side, card in coup.cards),
                      winner(coup.player, coup.banker), coup.describe(), tuple(settlements),
                      bool(record["last_hand_before_shuffle"]))


# -- blackjack ---------------------------------------------------------------------------
@dataclass(frozen=True)
class HandView:
    seat: int
    player: str
    hand: int  # 1, or 2 for the second hand of a split
    cards: tuple[str, ...]
    stake: int
    doubled: int
    total: int
    text: str


@dataclass(frozen=True)
class BlackjackView:
    """A blackjack round as the players see it: the hole card stays hidden until the
    dealer plays."""

    round_id: int
    status: str  # playing, settled or void
    dealer: tuple[str, ...]
    hands: tuple[HandView, ...]
    insurance_pending: tuple[int, ...]  # seats still to answer the insurance offer
    insurance_max: dict[int, int]  # by seat: half the bet (GGPoker III 2.5)
    turn: tuple[int, int] | None  # (seat, hand) whose decision it is
    to_act: str | None
    actions: tuple[str, ...]
    settlements: tuple[Settlement, ...]


def _view(row: RoundRow, engine: BlackjackTable) -> BlackjackView:
    hands = tuple(HandView(seat.number, seat.player, i + 1, tuple(hand.cards), hand.stake,
                           hand.doubled, hand.total, hand.describe())
                  for seat in (engine.seats[n] for n in sorted(engine.seats))
                  for i, hand in enumerate(seat.hands))
    settled = engine.phase is Phase.SETTLED
    turn, to_act = None, None
    current = engine.current()
    if current is not None:
        seat, hand = current
        turn = (seat.number, next(i for i, h in enumerate(seat.hands) if h is hand) + 1)
        to_act = seat.player
    pending = tuple(engine.insurance_pending()) if engine.phase is Phase.INSURANCE else ()
    return BlackjackView(
        row.id, row.status, tuple(engine.dealer) if settled else tuple(engine.dealer[:1]),
        hands, pending, {n: engine.seats[n].bet // 2 for n in pending}, turn, to_act,
        tuple(engine.legal_actions()), tuple(engine.settlements))


def _progress(table: GameTable, row: RoundRow, engine: BlackjackTable, start: int,
              decisions: list[list[Any]], stacked: list[str] | None) -> dict[str, Any]:
    """The record of a round in play: enough to deal it again and resume it."""
    assert engine.limits is not None
    return {
        "round_id": row.id, "game": "blackjack", "venue": VENUE, "table": table.name,
        "opened_at": row.opened_at.isoformat(), "mode": table.mode,
        "settings": engine.config.settings(),
        "limits": {"min": engine.limits.minimum, "max": engine.limits.maximum},
        "shuffle": engine.shoe.shuffles, "shuffle_order": "".join(engine.shoe.cards),
        "burned": list(engine.shoe.burned), "shoe_positions": [start, engine.shoe.position],
        "stacked": stacked,
        "seats": [{"seat": s.number, "player": s.player, "bet": s.bet}
                  for s in (engine.seats[n] for n in sorted(engine.seats))],
        "cards": list(engine.shoe.dealt), "decisions": decisions, "settlements": [],
    }


def _restore(session: Session, table: GameTable, row: RoundRow, bets: Sequence[BetRow]
             ) -> tuple[BlackjackTable, dict[str, Any]]:
    """The round in play rebuilt: its cards dealt again from the recorded shoe and its
    decisions replayed (GGPoker house rules 2.1: an RNG game resumes where it stopped)."""
    record: dict[str, Any] = json.loads(row.record)
    engine = _blackjack(table, _balances(session, bets), _NoDraws())
    start = int(record["shoe_positions"][0])
    engine.shoe = _load_shoe(record, engine.config.decks, engine.config.cut_cards_from_back,
                             start)
    try:
        for seat in record["seats"]:
            engine.place(seat["player"], int(seat["seat"]), int(seat["bet"]))
        engine.deal()
        for decision in record["decisions"]:
            _apply(engine, decision)
    except (GameError, CardError) as exc:
        raise TableError(f"round {row.id} cannot be resumed from its record: {exc}") from None
    if list(engine.shoe.dealt) != record["cards"]:
        raise TableError(f"round {row.id}: the recorded cards are not the shoe's")
    return engine, record


def _apply(engine: BlackjackTable, decision: Sequence[Any]) -> None:
    if decision[0] == "insure":
        engine.insure(int(decision[1]), int(decision[2]))
    else:
        engine.act(str(decision[0]), None if decision[1] is None else int(decision[1]))


def deal_blackjack(session: Session, table_name: str, rng: Rng | None = None,
                   stack: Sequence[str] | None = None) -> BlackjackView:
    """No more bets; deal a card to each seat, the dealer's up card, a second card to each
    seat and the hole card (GGPoker III 3.4). A round with nothing left to decide is
    settled at once; otherwise it waits, recorded, for the players' decisions."""
    table = _card_table(session, table_name, "blackjack")
    _lock_table(session, table)
    if _round(session, table, PLAYING) is not None:
        raise TableError(f"{table.name}: a round is already in play")
    row, bets = _betting(session, table)
    config = BlackjackConfig.from_settings(_settings(table))
    shoe, number = _table_shoe(session, table, config.decks, config.cut_cards_from_back)
    engine = _blackjack(table, _balances(session, bets),
                        (rng or SecureRng()) if shoe is None else _NoDraws())
    if shoe is None:
        engine.shoe.shuffles = number  # a new shoe: shuffled and burned by the engine
    else:
        engine.shoe = shoe
    stacked = _stack(table, engine.shoe, stack) if stack is not None else None
    start = engine.shoe.position
    try:
        for bet in bets:
            engine.place(bet.player, bet.number, bet.stake)
        engine.deal()
    except (GameError, CardError) as exc:  # a shoe too short for the round changes nothing
        raise TableError(str(exc)) from None
    record = _progress(table, row, engine, start, [], stacked)
    append_audit(session, "table:" + table.name, "deal", {
        "round": row.id, "shuffle": engine.shoe.shuffles, "stacked": stacked,
        "seats": len(bets), "up": engine.up_card})
    return _after(session, table, row, engine, record, bets)


def _after(session: Session, table: GameTable, row: RoundRow, engine: BlackjackTable,
           record: dict[str, Any], bets: Sequence[BetRow]) -> BlackjackView:
    """Save the round in play, or settle it when the dealer has played."""
    if engine.phase is not Phase.SETTLED:
        record["cards"] = list(engine.shoe.dealt)
        record["shoe_positions"][1] = engine.shoe.position
        row.status = PLAYING
        row.record = json.dumps(record, sort_keys=True)
        # GGPoker house rules 2.3: pending bets are kept 24 hours from the interruption;
        # the clock restarts with every decision.
        row.deadline = now_utc() + timedelta(hours=PENDING_HOURS)
        return _view(row, engine)
    final = dict(engine.history[-1])
    final.update(round_id=row.id, table=table.name, opened_at=record["opened_at"],
                 mode=table.mode, stacked=record["stacked"],
                 rounding=_rounding(engine.settlements))
    by_seat = {b.number: b for b in bets}
    paid = {n: 0 for n in by_seat}
    results: dict[int, list[str]] = {n: [] for n in by_seat}
    for s in engine.settlements:
        seat = _seat_of(" ".join(s.spot.split()[:2]))
        paid[seat] += s.paid
        results[seat].append(s.result)
        if s.paid:
            accounts.pay(session, s.player, s.paid, key=f"settle:{row.id}:{s.bet_id}",
                         reason=f"{table.name} round {row.id} {s.spot} {s.result}",
                         round_id=row.id)
    _keep_rounding(session, table.name, row.id, engine.settlements)
    for number, bet in by_seat.items():
        bet.paid, bet.result = paid[number], "/".join(results[number])[:16]
    row.status, row.finished_at = RoundStatus.SETTLED, now_utc()
    row.record = json.dumps(final, sort_keys=True)
    append_audit(session, "table:" + table.name, "settle", {
        "round": row.id, "dealer": list(engine.dealer), "cards": len(final["cards"]),
        "bets": len(bets), "paid": sum(s.paid for s in engine.settlements)})
    return _view(row, engine)


def _playing(session: Session, table_name: str
             ) -> tuple[GameTable, RoundRow, list[BetRow], BlackjackTable, dict[str, Any]]:
    table = _card_table(session, table_name, "blackjack")
    row = _round(session, table, PLAYING)
    if row is None:
        raise TableError(f"{table.name}: no round in play")
    bets = _bets(session, row.id)
    engine, record = _restore(session, table, row, bets)
    return table, row, bets, engine, record


def _decide(session: Session, table: GameTable, row: RoundRow, bets: Sequence[BetRow],
            engine: BlackjackTable, record: dict[str, Any], decision: list[Any]) -> None:
    """One decision: the engine checks it, any extra stake is debited from the wallet
    (keyed, no credit), and it joins the record."""
    current = engine.current()
    if decision[0] == "insure":
        seat, hand = engine.seats[int(decision[1])], 0
    elif current is None:
        raise TableError(f"round {row.id}: insurance is still to be answered")
    else:
        seat = current[0]
        hand = next(i for i, h in enumerate(seat.hands) if h is current[1])
    number = seat.number
    before = seat.staked
    try:
        _apply(engine, decision)
    except (GameError, CardError) as exc:
        raise TableError(str(exc)) from None
    extra = seat.staked - before
    if extra:
        # RULINGS Everywhere: doubles, splits and insurance are the bets allowed after
        # "no more bets"; each is its own transfer, refused without the money (RAY 1.1).
        key = {"insure": f"insure:{row.id}:{number}", "split": f"split:{row.id}:{number}",
               "double": f"double:{row.id}:{number}:{hand + 1}"}[str(decision[0])]
        accounts.stake(session, seat.player, extra, key=key,
                       reason=f"{table.name} round {row.id} seat {number} {decision[0]}",
                       round_id=row.id)
        next(b for b in bets if b.number == number).stake += extra
    record["decisions"].append(decision)
    append_audit(session, seat.player, "decision", {"round": row.id, "seat": number,
                                                    "hand": hand + 1, "decision": decision})


def insure(session: Session, table_name: str, player: str, seat: int, amount: int
           ) -> BlackjackView:
    """Insurance under the dealer's ace, up to half the seat's bet; 0 declines
    (GGPoker III 2.5). The stake is debited now."""
    table, row, bets, engine, record = _playing(session, table_name)
    found = engine.seats.get(seat)
    if found is None or found.player != player:
        raise TableError(f"seat {seat} is not {player}'s")
    _decide(session, table, row, bets, engine, record, ["insure", seat, amount])
    return _after(session, table, row, engine, record, bets)


def act(session: Session, table_name: str, player: str, action: str,
        amount: int | None = None) -> BlackjackView:
    """The decision of the hand whose turn it is: ``hit``, ``stand``, ``double`` (for
    ``amount`` when less than the bet, GGPoker III 2.6) or ``split`` (III 2.7). A double
    or split is debited now; without the money it is refused and nothing changes."""
    table, row, bets, engine, record = _playing(session, table_name)
    current = engine.current()
    if current is None:
        raise TableError(f"round {row.id}: insurance is still to be answered")
    if current[0].player != player:
        raise TableError(f"it is {current[0].player}'s turn (seat {current[0].number})")
    _decide(session, table, row, bets, engine, record, [action, amount])
    return _after(session, table, row, engine, record, bets)


def blackjack_view(session: Session, table_name: str) -> BlackjackView | None:
    """The table's round in play as the players see it, or None."""
    table = _card_table(session, table_name, "blackjack")
    row = _round(session, table, PLAYING)
    if row is None:
        return None
    engine, _record = _restore(session, table, row, _bets(session, row.id))
    return _view(row, engine)


def _stand_out(session: Session, table: GameTable, row: RoundRow) -> None:
    """Complete a round nobody finished: unanswered insurance declined, every open hand
    stands (the least the house can decide for a player: no new stake, no card taken)."""
    bets = _bets(session, row.id)
    engine, record = _restore(session, table, row, bets)
    while engine.phase is not Phase.SETTLED:
        if engine.phase is Phase.INSURANCE:
            decision: list[Any] = ["insure", engine.insurance_pending()[0], 0]
        else:
            decision = ["stand", None]
        _decide(session, table, row, bets, engine, record, decision)
    _after(session, table, row, engine, record, bets)


# -- void, recovery, recall ------------------------------------------------------------------
def void_card_round(session: Session, table_name: str, reason: str, actor: str) -> int:
    """Void the table's round in play or open for bets (a system malfunction voids the
    round, GGPoker I 2.1.8, III 2.1.5): every stake, doubles, splits and insurance
    included, goes back. Cards already dealt are discarded: the shoe deals on after them."""
    if not reason:
        raise TableError("a void needs its reason")
    table = _card_table(session, table_name)
    _lock_table(session, table)
    row = _round(session, table, PLAYING) or _round(session, table, OPEN)
    if row is None:
        raise TableError(f"{table.name}: no round to void")
    bets = _bets(session, row.id)
    if row.status == PLAYING:
        try:
            engine, progress = _restore(session, table, row, bets)
        except TableError:  # the record no longer replays: keep it as it is, voided
            record = {**json.loads(row.record), "void_reason": reason, "settlements": []}
        else:
            engine.void(reason)
            record = dict(engine.history[-1])
            record.update(round_id=row.id, table=table.name, opened_at=progress["opened_at"],
                          mode=table.mode, stacked=progress["stacked"])
    else:
        record = {"round_id": row.id, "game": table.game, "venue": VENUE, "table": table.name,
                  "opened_at": row.opened_at.isoformat(), "void_reason": reason,
                  "bets": [{"bet_id": b.number, "player": b.player, "bet": b.spot,
                            "stake": b.stake} for b in bets], "settlements": []}
    for bet in bets:
        accounts.pay(session, bet.player, bet.stake, key=f"refund:{row.id}:{bet.number}",
                     kind="refund", reason=f"{table.name} round {row.id} void: {reason}",
                     round_id=row.id)
        bet.paid, bet.result = bet.stake, "refund"
    row.status, row.finished_at = RoundStatus.VOID, now_utc()
    row.record = json.dumps(record, sort_keys=True)
    append_audit(session, actor, "void", {"round": row.id, "reason": reason})
    return row.id


def recover_card_rounds(session: Session, rng: Rng | None = None, everything: bool = False
                        ) -> list[tuple[int, str]]:
    """Finish card rounds left waiting: those past their 24-hour deadline, or all of them
    (``everything``, at a restart). GGPoker house rules 2.3: pending bets are kept 24
    hours, then the system completes the game. An open punto banco round is dealt; a
    blackjack round is dealt if it was not, and then every unanswered insurance offer is
    declined and every open hand stands (the text names no default; standing takes no
    card and no further stake) before the dealer plays and every bet is paid."""
    now = now_utc()
    done: list[tuple[int, str]] = []
    rows = session.execute(
        select(RoundRow, GameTable).join(GameTable, GameTable.id == RoundRow.table_id)
        .where(GameTable.game.in_(("punto-banco", "blackjack")),
               RoundRow.status.in_((OPEN, PLAYING))).order_by(RoundRow.id)).all()
    for row, table in rows:
        if not (everything or row.deadline <= now):
            continue
        if row.status == OPEN and not _bets(session, row.id):
            continue
        try:
            with session.begin_nested():  # a round that cannot finish leaves no trace
                done.append((row.id, _complete(session, table, row, rng)))
        except TableError as exc:
            # The engine cannot finish it (a shoe too short, a record that no longer
            # replays): a malfunction voids the round and returns every stake
            # (GGPoker I 2.1.8, III 2.1.5).
            void_card_round(session, table.name, f"cannot be completed: {exc}", "recovery")
            done.append((row.id, "void"))
    return done


def _complete(session: Session, table: GameTable, row: RoundRow, rng: Rng | None) -> str:
    if row.status == OPEN:
        if table.game == "punto-banco":
            deal_coup(session, table.name, rng)
            return "settled"
        if deal_blackjack(session, table.name, rng).status == "settled":
            return "settled"
    _stand_out(session, table, row)
    return "settled, open hands stood"


def recall_card_round(session: Session, round_id: int) -> Recall:
    """Replay a finished card round from its record (the cards, the decisions) through the
    engine and compare with the recorded settlements; the cards are also checked against
    the shoe the record says they came from. A record the engine cannot replay, or whose
    cards are not the shoe's, gives a replay with the problem named, never the same."""
    row = session.get(RoundRow, round_id)
    if row is None:
        raise TableError(f"no round {round_id}")
    table = session.get(GameTable, row.table_id)
    assert table is not None
    if table.game not in ("punto-banco", "blackjack"):
        raise TableError(f"round {round_id} is a {table.game} round, not a card round")
    if row.status not in ("settled", "void"):
        raise TableError(f"round {round_id} is still {row.status}")
    record = json.loads(row.record)
    recorded = list(record.get("settlements", []))
    if row.status == "void":
        return Recall(round_id, recorded, [])
    replayed: list[dict[str, Any]] = []
    try:
        if table.game == "punto-banco":
            replayed = [s.to_json() for s in replay_coup(record)]
            cards = [card for _side, card in record["cards"]]
        else:
            replayed = [s.to_json() for s in replay_blackjack(record)]
            cards = list(record["cards"])
        problem = _shoe_check(record, cards)
    except (GameError, CardError, KeyError, TypeError, ValueError) as exc:
        problem = f"the record does not replay: {exc}"
    if problem:
        replayed.append({"problem": problem})
    return Recall(round_id, recorded, replayed)
