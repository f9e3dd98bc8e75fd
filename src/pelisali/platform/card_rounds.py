"""Punto banco and blackjack on the persistent wallet: the card tables' rounds.

The tables run the contract engines (:class:`~pelisali.engine.baccarat.BaccaratEngine`,
:class:`~pelisali.engine.blackjack.BlackjackEngine`) through the table layer
(:mod:`pelisali.platform.table_layer`): a round is its record (version 2: the seats'
players, the contract's history, the shoe it was dealt from), its state is rebuilt from
the record whenever a request needs it, each player's decision is applied with
``state.apply(action, seat=...)``, and the money a step moved is read from the states
before and after it (:func:`~pelisali.platform.table_layer.flows`).

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
positions the round dealt from and to (``shoe_positions``). Every card the engine asks
for (a chance node) is the next card of that shoe. The next round continues the shoe
from the last dealt round's record, so a restarted server deals on from the same shoe,
and recall checks that the round's cards are the shoe's. Those records are
server-side: what a player is shown is a view (:class:`BlackjackView`), never the order
of the shoe.

**A blackjack round in play** is its record: the shoe as it stood when the round began,
the seats' bets and every move since. Each request rebuilds the state from the record,
checks that its cards are the shoe's, and applies the new decision; after a restart the
round resumes where it stopped (GGPoker house rules 2.1). The engine asks the boxes for
their insurance answers in box order; an answer given before an earlier box has
answered is taken (and its stake debited) at once and held in the record until its turn.

**Cards entered by a dealer** (``stack``) are accepted at live tables only: they go on
top of the shoe, taken from the cards the shoe still holds, and the round's record and
the audit chain say so. An RNG table deals only from its shuffled shoe.

**Fractions of a cent** (the banker's 5 % commission, a 3:2 blackjack on an odd stake)
are paid down to the cent by the engine. A round's whole cents of them go from the bank
to the rounding account; the record keeps them exactly, each settlement's ``rounding``
and the round's sum in ``rounding`` (``"numerator/denominator"`` cents).

Records written before version 2 (free-form JSON) are read through
:meth:`CardFamily.upgrade`: their rounds recall, and a round left in play resumes.

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
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from pelisali.cards import CardError, Shoe, parse_card
from pelisali.engine import CHANCE, Action, ChanceOutcome, IllegalMove, Seats, State
from pelisali.engine.baccarat import BaccaratState
from pelisali.engine.blackjack import (
    BlackjackBox,
    BlackjackEngine,
    BlackjackHand,
    BlackjackState,
    Double,
    Hit,
    Insure,
    Split,
    Stand,
)
from pelisali.games.base import GameError, resolve_settings
from pelisali.games.blackjack_rules import BlackjackConfig, hand_total
from pelisali.games.punto_banco import BETS, PuntoBancoConfig, card_points, points
from pelisali.games.round import Receipt, Settlement
from pelisali.money import format_cents
from pelisali.platform import accounts, fairness, metrics, table_layer
from pelisali.platform.card_family import (
    FAMILY,
    CardBet,
    CardEngine,
    as_blackjack,
    as_coup,
    betting_moves,
    card_engine,
    fraction_text,
    seat_of,
)
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import Posting, append_audit, balance, now_utc, post
from pelisali.platform.models import BetRow, GameTable, RoundRow
from pelisali.platform.rounds import (
    PENDING_HOURS,
    Recall,
    TableError,
    find_table,
    rounding_posting,
)
from pelisali.platform.table_layer import (
    BANK,
    Flow,
    HeldMove,
    LimitsRecord,
    MoveRecord,
    RecordError,
    RoundRecord,
    SettlementRecord,
    cards_of,
)
from pelisali.rng import Rng, SecureRng
from pelisali.rules import load_rules

__all__ = [
    "CARD_GAMES",
    "BlackjackView",
    "CoupResult",
    "HandView",
    "act",
    "bet_spot",
    "blackjack_view",
    "create_card_table",
    "deal_blackjack",
    "deal_coup",
    "dealt_round",
    "insure",
    "place_card_bet",
    "recall_card_round",
    "recover_card_rounds",
    "void_card_round",
]

CARD_GAMES = {"punto-banco": "punto-banco", "baccarat": "punto-banco",
              "blackjack": "blackjack"}
OPEN, PLAYING = RoundStatus.OPEN, RoundStatus.PLAYING
SETTLED, VOID = RoundStatus.SETTLED, RoundStatus.VOID
VENUE = "pelisali"


# -- tables ------------------------------------------------------------------------------
def _check_cut(config: PuntoBancoConfig) -> None:
    """The largest burn is eleven cards; a few hands must fit before the cut card."""
    if config.cut_cards_from_back > 52 * config.decks - 30:
        raise GameError(f"cut_cards_from_back {config.cut_cards_from_back} leaves too "
                        f"few cards of {52 * config.decks} to deal before the shuffle")


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
        if kind == "punto-banco":  # a cut card that leaves too few cards is refused
            _check_cut(PuntoBancoConfig.from_settings(chosen))
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


def _table_engine(table: GameTable) -> CardEngine:
    """The engine of the table's game, settings and limits."""
    return card_engine(table.game, json.dumps(_settings(table), sort_keys=True),
                       table.limit_min, table.limit_max)


def _lock_table(session: Session, table: GameTable) -> None:
    """Rounds of one table are dealt one at a time: they share the shoe."""
    session.scalars(select(GameTable).where(GameTable.id == table.id).with_for_update()).one()


def _round(session: Session, table: GameTable, status: str, create: bool = False
           ) -> RoundRow | None:
    """The table's round in ``status``, locked for this transaction (opened if asked)."""
    query = (select(RoundRow).where(RoundRow.table_id == table.id, RoundRow.status == status)
             .order_by(RoundRow.id).with_for_update()
             # The locked row as it is now, not as this session may have read it before
             # the lock: another transaction may have changed it while we waited.
             .execution_options(populate_existing=True))
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


def _wallet(session: Session, player: str) -> int:
    return balance(session, accounts.wallet_code(player))


def _no_credit(session: Session, player: str, amount: int) -> None:
    """Refuse a stake the wallet cannot pay, as the tables always said it."""
    held = _wallet(session, player)
    if amount > held:
        raise TableError(f"{player}: balance {format_cents(held)}; chips are not sold on credit")


# -- the seats and the bets in the engine ------------------------------------------------------


def bet_spot(game: str, spot: str) -> str:
    """A bet's spot as a card table keeps it: a blackjack seat (``"3"`` is ``seat 3``),
    a punto banco side in lower case.

    >>> bet_spot("blackjack", "3"), bet_spot("punto-banco", " Banker")
    ('seat 3', 'banker')
    """
    return f"seat {seat_of(spot)}" if game == "blackjack" else spot.lower().strip()


def place_card_bet(session: Session, table_name: str, player: str, spot: str, amount: int,
                   key: str) -> Receipt:
    """Accept a bet before the deal and debit its stake in this transaction: punto banco
    ``player``, ``banker`` or ``tie``; blackjack a seat (``"3"`` or ``"seat 3"``, one bet a
    seat). The excess over the table maximum never leaves the wallet (RAY 1.1). A retried
    request (same key) returns the first receipt."""
    table = _card_table(session, table_name)
    blackjack = table.game == "blackjack"
    wanted = bet_spot(table.game, spot)
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
    if row is None:
        raise TableError(f"{table.name}: no round open for bets")
    bets = [CardBet.of(b) for b in _bets(session, row.id)]
    engine = _table_engine(table)
    number = seat_of(spot) if blackjack else len(bets) + 1
    _check_bet(engine, bets, player, number, wanted, amount)
    new = CardBet(number, player, wanted, amount)
    players, _numbers, moves = betting_moves(table.game, [*bets, new], done=False)
    seat = players.index(player)
    cut = next(i for i, (_, _, bet) in enumerate(moves) if bet is new)
    try:  # the bets before it in the engine's order, then the new one
        state: State = engine.new_state(Seats(len(players)))
        for mover, action, _ in moves[:cut]:
            state = state.apply(action, seat=mover).state
        after = state.apply(moves[cut][1], seat=seat).state
    except IllegalMove as exc:
        raise TableError(str(exc)) from None
    moved = table_layer.flows(state, after, FAMILY.paid)
    accepted = moved[seat].staked
    _no_credit(session, player, accepted)
    table_layer.book(session, table_layer.stake_postings(
        moved, players, key=lambda _seat: f"stake:{key}",
        reason=lambda _seat: f"{table.name} round {row.id} {wanted}", round_id=row.id))
    session.add(BetRow(round_id=row.id, number=number, player=player, spot=wanted,
                       stake=accepted, key=key, created_at=now_utc()))
    session.flush()
    metrics.count(session, metrics.BETS_ACCEPTED.labels("cards"))
    returned = amount - accepted
    where = f"in {wanted}" if blackjack else f"on {wanted}"
    return Receipt(number, accepted, returned, f"{format_cents(accepted)} {where}" + (
        f": {format_cents(returned)} over the table maximum is void and returned"
        if returned else ""))


def _check_bet(engine: CardEngine, bets: Sequence[CardBet], player: str, number: int,
               spot: str, amount: int) -> None:
    """What the tables refused before the engine sees the bet, in their words."""
    if isinstance(engine, BlackjackEngine):
        seats = engine.config.seats
        if not 1 <= number <= seats:
            raise TableError(f"seats are numbered 1 to {seats}")
        taken = next((b for b in bets if b.number == number), None)
        if taken is not None and taken.player != player:
            raise TableError(f"seat {number} is taken by {taken.player}")
        if taken is not None:
            raise TableError(f"seat {number} already has a bet; one bet a seat")
    elif spot not in BETS:
        raise TableError(f"punto banco has no bet {spot!r}; bets: {', '.join(BETS)}")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise TableError(f"a stake must be a positive number of cents, not {amount!r}")


# -- the shoe ----------------------------------------------------------------------------
def _shoe(session: Session, table: GameTable, engine: CardEngine, rng: Rng | None,
          bets: Sequence[BetRow] = ()) -> tuple[Shoe, list[dict[str, Any]]]:
    """The table's shoe where its last dealt round left it; shuffled (with ``rng``, the
    secure generator by default) and burned when none was dealt yet or the cut card has
    come out (that was the last hand before the shuffle). At a provably fair table the
    shuffle is drawn with the player of ``bets``' seed pair, and a shoe stands only while
    its seed is not revealed (:func:`pelisali.platform.fairness.shoe_stands`): with the
    shoe, the proof of its shuffle (none elsewhere)."""
    config = engine.config
    decks, cut = config.decks, config.cut_cards_from_back
    last = session.scalars(
        select(RoundRow).where(RoundRow.table_id == table.id,
                               RoundRow.status.in_((SETTLED, VOID, PLAYING)),
                               RoundRow.record.contains('"shuffle_order": "', autoescape=True))
        .order_by(RoundRow.id.desc()).limit(1)).one_or_none()
    number = 1
    if last is not None:
        shoe = Shoe(decks, cut)
        try:  # records of both versions keep the shoe in the same fields
            data = json.loads(last.record)
            shoe.load(cards_of(data["shuffle_order"]))
            shoe.position, shoe.shuffles = int(data["shoe_positions"][1]), int(data["shuffle"])
            shoe.burned = list(data["burned"])
        except (CardError, KeyError, TypeError, ValueError) as exc:
            raise TableError(f"round {last.id}: its record keeps no shoe to deal on from "
                             f"({exc})") from None
        kept = fairness.proofs_of(last.record)
        if not shoe.cut_card_out and fairness.shoe_stands(session, table, kept):
            return shoe, kept
        number = shoe.shuffles + 1
    shoe = Shoe(decks, cut)
    fair = fairness.draw_rng(session, table, {b.player for b in bets})
    shoe.shuffle(fair[0] if fair is not None else rng or SecureRng())
    proofs = [] if fair is None else [fairness.proof_of(*fair)]
    if fair is not None:
        fairness.keep(session, table, bets[0].round_id, proofs[0])
    if isinstance(config, PuntoBancoConfig):
        if config.burn_first_card_value:  # the first card's value in cards (a ten: ten)
            shoe.burn(card_points(shoe.burn(1)[0]) or 10)
    else:
        shoe.burn(config.burn_after_shuffle)
    shoe.shuffles = number
    return shoe, proofs


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


def _opened(table: GameTable, row: RoundRow, bets: Sequence[BetRow], shoe: Shoe,
            stacked: list[str] | None) -> RoundRecord:
    """The record of a round at "no more bets": its players and bets, and the shoe it is
    dealt from."""
    players, numbers, moves = betting_moves(table.game, [CardBet.of(b) for b in bets], done=True)
    return RoundRecord(
        game=table.game, round_id=row.id, table=table.name, venue=VENUE, mode=table.mode,
        opened_at=row.opened_at.isoformat(), status=PLAYING, settings=_settings(table),
        limits=LimitsRecord(min=table.limit_min, max=table.limit_max), players=players,
        bet_numbers=numbers, history=[MoveRecord(actor=s, text=a.text()) for s, a, _ in moves],
        shuffle=shoe.shuffles, shuffle_order="".join(shoe.cards), burned=list(shoe.burned),
        shoe_positions=[shoe.position, shoe.position], stacked=stacked)


def _deal(state: State, shoe: Shoe) -> State:
    """Every card the engine asks for, the next of the shoe, until a seat is to act or the
    round is over."""
    while state.to_move() == CHANCE:
        state = state.apply(ChanceOutcome(shoe.deal_one())).state
    return state


def _rounding(settlements: Sequence[Settlement]) -> str:
    return fraction_text(sum((s.rounding for s in settlements), Fraction(0)))


def _pay(session: Session, table: GameTable, row: RoundRow, players: Sequence[str],
         before: State, after: State, settlements: Sequence[SettlementRecord]) -> None:
    """Every payout of a round the engine settled from ``before`` to ``after``, each keyed
    by its bet, and the whole cents paid down to the rounding account. The payouts must
    move each wallet by what the engine paid its seat."""
    expected: dict[str, int] = {}
    for seat, flow in table_layer.flows(before, after, FAMILY.paid).items():
        code = accounts.wallet_code(players[seat])
        expected[code] = expected.get(code, 0) + flow.paid
        expected[BANK] = expected.get(BANK, 0) - flow.paid
    postings = table_layer.payout_postings(
        settlements, key=lambda bet: f"settle:{row.id}:{bet}",
        reason=lambda s: f"{table.name} round {row.id} {s.spot} {s.result}", round_id=row.id)
    table_layer.check_postings(postings, expected)
    table_layer.book(session, postings)
    metrics.count(session, metrics.BETS_SETTLED.labels("cards"), len(settlements))
    kept = rounding_posting(table.name, row.id, [s.settlement() for s in settlements])
    if kept is not None:
        post(session, [kept], actor="table:" + table.name, action="rounding")


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


def _describe(state: BaccaratState) -> str:
    player = " ".join(c for s, c in state.cards if s == "player")
    banker = " ".join(c for s, c in state.cards if s == "banker")
    return (f"player {player} ({points(state.player)}), banker {banker} "
            f"({points(state.banker)}): {state.result()}")


def deal_coup(session: Session, table_name: str, rng: Rng | None = None,
              stack: Sequence[str] | None = None) -> CoupResult:
    """No more bets (GGPoker I 2.1.6); deal the coup from the table's shoe by the
    third-card rule and pay every bet, with the round's record, in this transaction."""
    table = _card_table(session, table_name, "punto-banco")
    _lock_table(session, table)
    row, bets = _betting(session, table)
    shoe, fair = _shoe(session, table, _table_engine(table), rng, bets)
    stacked = _stack(table, shoe, stack) if stack is not None else None
    record = _opened(table, row, bets, shoe, stacked)
    start = shoe.position
    try:
        betting = table_layer.rebuild(record, FAMILY)
        state = as_coup(_deal(betting, shoe))
    except (RecordError, IllegalMove, CardError) as exc:  # a shoe too short changes nothing
        raise TableError(str(exc)) from None
    result = state.result()
    if result is None:
        raise TableError(f"round {row.id}: the coup did not finish")
    settlements = FAMILY.settlements(state, record)
    record = record.with_state(
        state, status=SETTLED, settlements=settlements,
        rounding=_rounding([s.settlement() for s in settlements]),
        shoe_positions=[start, shoe.position],
        last_hand_before_shuffle=shoe.cut_card_out)
    _pay(session, table, row, record.players, betting, state, settlements)
    by_number = {b.number: b for b in bets}
    for s in settlements:
        by_number[s.bet_id].paid, by_number[s.bet_id].result = s.paid, s.result
    derived = FAMILY.derived(state, record)
    row.status, row.finished_at = SETTLED, now_utc()
    row.record = table_layer.write_record(record, derived | fairness.part(fair))
    append_audit(session, "table:" + table.name, "settle", {
        "round": row.id, "cards": derived["cards"], "result": result,
        "shuffle": record.shuffle, "stacked": stacked, "bets": len(bets),
        "paid": sum(s.paid for s in settlements)})
    return CoupResult(row.id, tuple(state.cards), result, _describe(state),
                      tuple(s.settlement() for s in settlements), record.last_hand_before_shuffle)


def dealt_round(session: Session, round_id: int) -> CoupResult | BlackjackView | None:
    """Card round ``round_id`` as its table dealt it, for a retried slip's first answer:
    the punto banco coup, or the blackjack round as the players see it now; None while
    it is open for bets (the retry deals it). A void round is refused: its stakes went
    back, and there is nothing else to answer."""
    row = session.get(RoundRow, round_id)
    table = None if row is None else session.get(GameTable, row.table_id)
    if row is None or table is None:
        raise TableError(f"no round {round_id}")
    if row.status == OPEN:
        return None
    if row.status == VOID:
        raise TableError(f"round {row.id} at {table.name} is void: its stakes went back")
    if table.game == "blackjack":
        return _view(session, _restore(session, table, row, _bets(session, row.id)))
    try:
        record = table_layer.read_record(row.record, FAMILY)
        state = as_coup(table_layer.rebuild(record, FAMILY))
    except (RecordError, IllegalMove) as exc:
        raise TableError(f"round {row.id} cannot be read from its record: {exc}") from None
    result = state.result()
    if result is None:
        raise TableError(f"round {row.id}: the coup did not finish")
    return CoupResult(row.id, tuple(state.cards), result, _describe(state),
                      tuple(s.settlement() for s in FAMILY.settlements(state, record)),
                      bool(record.last_hand_before_shuffle))


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
    # When the decision waited for (or the insurance offer) runs out; how many decisions
    # the time limit has just made (the hand stood, insurance declined).
    deadline: datetime | None = None
    timed_out: int = 0

    def seconds_left(self, at: datetime | None = None) -> float | None:
        """The decision's time left at ``at`` (now), to a tenth of a second; None when
        nothing waits for a decision."""
        if self.deadline is None:
            return None
        return max(0.0, round((self.deadline - (at or now_utc())).total_seconds(), 1))


@dataclass
class _Play:
    """A blackjack round being played in this transaction: its row and bets, its record,
    the state rebuilt from it and the table's shoe where the round has dealt to."""

    table: GameTable
    row: RoundRow
    bets: list[BetRow]
    record: RoundRecord
    state: BlackjackState
    shoe: Shoe
    fair: list[dict[str, Any]] = field(default_factory=list)  # the shuffle's proof

    @property
    def players(self) -> list[str]:
        return self.record.players


def _describe_hand(hand: BlackjackHand) -> str:
    total, soft = hand_total(hand.values)
    label = "blackjack" if hand.blackjack else ("soft " if soft else "") + str(total)
    return f"{' '.join(hand.cards)} ({label})"


def _held(play: _Play) -> dict[int, HeldMove]:
    """The insurance answers held for their turn, by seat (box)."""
    return {int(h.turn.removeprefix("box ")): h for h in play.record.ahead}


def _choices(session: Session, play: _Play) -> tuple[str, ...]:
    """The decisions of the hand whose turn it is, as the tables offered them: the rules'
    (the engine's legal actions) and what the wallet can pay (a double takes anything
    left, a split the hand's bet)."""
    current = play.state.current()
    if current is None:
        return ()
    box, index = current
    wallet = _wallet(session, play.players[box.seat])
    out: list[str] = []
    for action in play.state.legal_actions():
        name = action.text().split()[0]
        if name in out or (name == "double" and wallet <= 0) or (
                name == "split" and wallet < box.hands[index].stake):
            continue
        out.append(name)
    return tuple(out)


def _view(session: Session, play: _Play) -> BlackjackView:
    state, players = play.state, play.players
    hands = tuple(HandView(box.box, players[box.seat], i + 1, hand.cards, hand.stake,
                           hand.doubled, hand.total, _describe_hand(hand))
                  for box in state.boxes for i, hand in enumerate(box.hands))
    turn, to_act = None, None
    current = state.current()
    if current is not None:
        turn, to_act = (current[0].box, current[1] + 1), players[current[0].seat]
    held = _held(play)
    pending = tuple(b.box for b in state.boxes if b.insurance is None and b.box not in held
                    ) if state.phase == "insurance" else ()
    bet_of = {b.box: b.bet for b in state.boxes}
    return BlackjackView(
        play.row.id, play.row.status,
        tuple(state.dealer) if state.is_terminal() else tuple(state.dealer[:1]),
        hands, pending, {n: bet_of[n] // 2 for n in pending}, turn, to_act,
        _choices(session, play),
        tuple(s.settlement() for s in FAMILY.settlements(state, play.record)),
        play.row.deadline if play.row.status == PLAYING else None)


def _restore(session: Session, table: GameTable, row: RoundRow, bets: list[BetRow]) -> _Play:
    """The round in play rebuilt from its record (either version), its cards checked
    against the shoe (GGPoker house rules 2.1: an RNG game resumes where it stopped)."""
    try:
        record = table_layer.read_record(row.record, FAMILY)
        state = as_blackjack(table_layer.rebuild(record, FAMILY))
    except (RecordError, IllegalMove) as exc:
        raise TableError(f"round {row.id} cannot be resumed from its record: {exc}") from None
    if table_layer.check_shoe(record) is not None:
        raise TableError(f"round {row.id}: the recorded cards are not the shoe's")
    engine = FAMILY.game(record)
    shoe = Shoe(engine.config.decks, engine.config.cut_cards_from_back)
    if record.shuffle_order is None or record.shoe_positions is None:
        raise TableError(f"round {row.id}: its record keeps no shoe to deal on from")
    shoe.load(cards_of(record.shuffle_order))
    shoe.position, shoe.shuffles = record.shoe_positions[1], record.shuffle or 0
    shoe.burned = list(record.burned or [])
    return _Play(table, row, bets, record, state, shoe, fairness.proofs_of(row.record))


def _advance(play: _Play, state: BlackjackState, ahead: Sequence[HeldMove]) -> None:
    """Go on from ``state``: every card the engine asks for from the shoe, and each held
    insurance answer when its box's turn comes, until a player is to decide or the round
    is over."""
    waiting = list(ahead)
    while True:
        if state.to_move() == CHANCE:
            state = as_blackjack(state.apply(ChanceOutcome(play.shoe.deal_one())).state)
            continue
        box = state.insurance_box()
        held = next((h for h in waiting if box is not None and h.turn == f"box {box.box}"),
                    None)
        if held is None:
            break
        waiting.remove(held)
        state = as_blackjack(state.apply(held.text, seat=held.actor).state)
    play.state = state
    play.record = play.record.model_copy(update={"ahead": waiting})


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
    shoe, fair = _shoe(session, table, _table_engine(table), rng, bets)
    stacked = _stack(table, shoe, stack) if stack is not None else None
    needed = 2 * len(bets) + 2
    if shoe.remaining < needed:  # a shoe too short for the deal changes nothing
        raise TableError(f"{needed} cards are needed and {shoe.remaining} are left")
    record = _opened(table, row, bets, shoe, stacked)
    try:
        play = _Play(table, row, bets, record,
                     as_blackjack(table_layer.rebuild(record, FAMILY)), shoe, fair)
        _advance(play, play.state, ())
    except (RecordError, IllegalMove, CardError) as exc:
        raise TableError(str(exc)) from None
    append_audit(session, "table:" + table.name, "deal", {
        "round": row.id, "shuffle": shoe.shuffles, "stacked": stacked,
        "seats": len(bets), "up": play.state.dealer[0]})
    return _after(session, play)


def decision_seconds(table: GameTable) -> int:
    """The time a blackjack table gives each decision and the insurance offer (its
    ``decision_seconds`` setting; RULINGS: default 15 s)."""
    engine = _table_engine(table)
    return engine.config.decision_seconds if isinstance(engine, BlackjackEngine) else 15


def _after(session: Session, play: _Play, deadline: datetime | None = None) -> BlackjackView:
    """Save the round in play, its next decision due by ``deadline`` (the table's time
    from now by default), or settle it when the dealer has played."""
    row, state = play.row, play.state
    start = (play.record.shoe_positions or [play.shoe.position])[0]
    record = play.record.with_state(state, shoe_positions=[start, play.shoe.position])
    if not state.is_terminal():
        play.record = record.model_copy(update={"status": PLAYING})
        row.status = PLAYING
        row.record = table_layer.write_record(play.record, FAMILY.derived(state, play.record)
                                              | fairness.part(play.fair))
        # RULINGS (GGPoker III 3.5.2-3.5.3, 3.7): each decision has its time, never the
        # 24 hours of an interrupted slot round; the clock restarts with every decision.
        row.deadline = deadline or now_utc() + timedelta(seconds=decision_seconds(play.table))
        return _view(session, play)
    play.record = record.model_copy(update={
        "last_hand_before_shuffle": play.shoe.cut_card_out})
    if state.phase == "void":  # the shoe ran out (GGPoker III 2.1.5): every stake goes back
        _void(session, play.table, row, play.bets, play, "the shoe ran out before the "
              "round was over", "table:" + play.table.name)
        return _view(session, play)
    settlements = FAMILY.settlements(state, play.record)
    _pay(session, play.table, row, play.players, FAMILY.start(play.record), state, settlements)
    by_seat = {b.number: b for b in play.bets}
    paid = {n: 0 for n in by_seat}
    results: dict[int, list[str]] = {n: [] for n in by_seat}
    for s in settlements:
        seat = seat_of(" ".join(s.spot.split()[:2]))
        paid[seat] += s.paid
        results[seat].append(s.result)
    for number, bet in by_seat.items():
        bet.paid, bet.result = paid[number], "/".join(results[number])[:16]
    play.record = play.record.model_copy(update={
        "status": SETTLED, "settlements": settlements,
        "rounding": _rounding([s.settlement() for s in settlements])})
    row.status, row.finished_at = SETTLED, now_utc()
    row.record = table_layer.write_record(play.record, FAMILY.derived(state, play.record)
                                          | fairness.part(play.fair))
    append_audit(session, "table:" + play.table.name, "settle", {
        "round": row.id, "dealer": list(state.dealer), "cards": len(play.record.dealt()),
        "bets": len(play.bets), "paid": sum(s.paid for s in settlements)})
    return _view(session, play)


def _playing(session: Session, table_name: str) -> _Play:
    table = _card_table(session, table_name, "blackjack")
    row = _round(session, table, PLAYING)
    if row is None:
        raise TableError(f"{table.name}: no round in play")
    return _restore(session, table, row, _bets(session, row.id))


def _box(state: BlackjackState, number: Any) -> BlackjackBox | None:
    return next((b for b in state.boxes if b.box == number), None)


def _insurance(play: _Play, box: BlackjackBox, amount: int
               ) -> tuple[BlackjackState, list[HeldMove], int]:
    """A box's insurance answer: applied if the engine is asking that box, else held for
    its turn. The state after it, the answers held, and the stake it takes."""
    state = play.state
    if state.phase != "insurance":
        raise TableError("insurance is offered only when the dealer's up card is an ace")
    held = _held(play)
    if box.insurance is not None or box.box in held:
        raise TableError(f"seat {box.box} has already answered the insurance offer")
    probe = state  # the round when this box's turn comes: the boxes before it answered
    try:
        while (waiting := probe.insurance_box()) is not None and waiting.box != box.box:
            earlier = held.get(waiting.box)
            probe = as_blackjack(probe.apply(earlier.text if earlier else Insure(0)).state)
        after = as_blackjack(probe.apply(Insure(amount), seat=box.seat).state)
    except IllegalMove as exc:
        raise TableError(str(exc)) from None
    staked = table_layer.flows(probe, after, FAMILY.paid).get(box.seat, Flow(0, 0)).staked
    if probe is state:
        return after, list(play.record.ahead), staked
    return state, [*play.record.ahead, HeldMove(actor=box.seat, text=Insure(amount).text(),
                                                turn=f"box {box.box}")], staked


def _decision(session: Session, play: _Play, decision: Sequence[Any]) -> Action:
    """A hand's decision (``["double", 500]``) as the engine's action, refused as the
    tables refused it: only the decisions :func:`_choices` offers."""
    offered = _choices(session, play)
    name = decision[0]
    if name not in offered:
        raise TableError(f"{name!r} is not allowed now; choose {', '.join(offered)}")
    if name == "double":
        return Double(decision[1])
    simple: dict[str, Action] = {"hit": Hit(), "stand": Stand(), "split": Split()}
    return simple[name]


def _decide(session: Session, play: _Play, decision: list[Any]) -> None:
    """One decision: the engine checks it, any extra stake is debited from the wallet
    (keyed, no credit), the cards it takes are dealt, and it joins the record."""
    state, row, table = play.state, play.row, play.table
    if decision[0] == "insure":
        found = _box(state, decision[1])
        if found is None:
            raise TableError(f"seat {decision[1]} has no bet")
        box, hand = found, 0
        after, ahead, staked = _insurance(play, box, decision[2])
    else:
        current = state.current()
        if current is None:
            raise TableError(f"round {row.id}: insurance is still to be answered")
        box, hand = current
        try:
            after = as_blackjack(state.apply(_decision(session, play, decision),
                                            seat=box.seat).state)
        except IllegalMove as exc:
            raise TableError(str(exc)) from None
        ahead = list(play.record.ahead)
        staked = table_layer.flows(state, after, FAMILY.paid).get(box.seat, Flow(0, 0)).staked
    player = play.players[box.seat]
    if staked:
        # RULINGS Everywhere: doubles, splits and insurance are the bets allowed after
        # "no more bets"; each is its own transfer, refused without the money (RAY 1.1).
        _no_credit(session, player, staked)
        key = {"insure": f"insure:{row.id}:{box.box}", "split": f"split:{row.id}:{box.box}",
               "double": f"double:{row.id}:{box.box}:{hand + 1}"}[str(decision[0])]
        table_layer.book(session, table_layer.stake_postings(
            {box.seat: Flow(staked, 0)}, play.players, key=lambda _seat: key,
            reason=lambda _seat: f"{table.name} round {row.id} seat {box.box} {decision[0]}",
            round_id=row.id))
        next(b for b in play.bets if b.number == box.box).stake += staked
    try:
        _advance(play, after, ahead)
    except (IllegalMove, CardError) as exc:
        raise TableError(str(exc)) from None
    append_audit(session, player, "decision", {"round": row.id, "seat": box.box,
                                               "hand": hand + 1, "decision": decision})


def _time_out(session: Session, play: _Play, at: datetime) -> int:
    """The decisions whose time ran out by ``at``, made as RULINGS says: the insurance
    offer declined for every seat still to answer it, the hand to act standing; each
    next decision's time from the end of the last. How many were made."""
    row = play.row
    if row.status != PLAYING:
        return 0
    step = timedelta(seconds=decision_seconds(play.table))
    deadline, made = row.deadline, 0
    while not play.state.is_terminal() and deadline <= at:
        _default_move(session, play)  # the insurance offer as a whole, or one hand
        deadline += step
        made += 1
    if made:
        append_audit(session, "table:" + play.table.name, "decision-time", {
            "round": row.id, "timed_out": made, "seconds": step.seconds})
        _after(session, play, deadline)
    return made


def time_out_round(session: Session, round_id: int, at: datetime | None = None
                   ) -> int | None:
    """Make the decisions of blackjack round ``round_id`` whose time ran out, the row
    locked first so that two processes do it once; None if it is not in play."""
    row = session.scalars(select(RoundRow).where(RoundRow.id == round_id).with_for_update()
                          .execution_options(populate_existing=True)).one_or_none()
    if row is None or row.status != PLAYING:
        return None
    table = session.get(GameTable, row.table_id)
    if table is None or table.game != "blackjack":
        return None
    return _time_out(session, _restore(session, table, row, _bets(session, row.id)),
                     at or now_utc())


def overdue_decisions(session: Session, at: datetime | None = None) -> list[int]:
    """The blackjack rounds in play whose decision time has run out, oldest first."""
    return list(session.scalars(
        select(RoundRow.id).join(GameTable, GameTable.id == RoundRow.table_id)
        .where(GameTable.game == "blackjack", RoundRow.status == PLAYING,
               RoundRow.deadline <= (at or now_utc())).order_by(RoundRow.id)))


def _timed(session: Session, play: _Play) -> BlackjackView | None:
    """The round after the decisions whose time ran out (None: none did): a decision
    sent after its time is not made, the player is told what the time limit did."""
    made = _time_out(session, play, now_utc())
    return replace(_view(session, play), timed_out=made) if made else None


def insure(session: Session, table_name: str, player: str, seat: int, amount: int
           ) -> BlackjackView:
    """Insurance under the dealer's ace, up to half the seat's bet; 0 declines
    (GGPoker III 2.5). The stake is debited now; too late, the offer was declined."""
    play = _playing(session, table_name)
    if (late := _timed(session, play)) is not None:
        return late
    found = _box(play.state, seat)
    if found is None or play.players[found.seat] != player:
        raise TableError(f"seat {seat} is not {player}'s")
    _decide(session, play, ["insure", seat, amount])
    return _after(session, play)


def act(session: Session, table_name: str, player: str, action: str,
        amount: int | None = None) -> BlackjackView:
    """The decision of the hand whose turn it is: ``hit``, ``stand``, ``double`` (for
    ``amount`` when less than the bet, GGPoker III 2.6) or ``split`` (III 2.7). A double
    or split is debited now; without the money it is refused and nothing changes. Sent
    after its time, it is not made: the hand stood (RULINGS)."""
    play = _playing(session, table_name)
    if (late := _timed(session, play)) is not None:
        return late
    current = play.state.current()
    if current is None:
        raise TableError(f"round {play.row.id}: insurance is still to be answered")
    owner = play.players[current[0].seat]
    if owner != player:
        raise TableError(f"it is {owner}'s turn (seat {current[0].box})")
    _decide(session, play, [action, amount])
    return _after(session, play)


def blackjack_view(session: Session, table_name: str) -> BlackjackView | None:
    """The table's round in play as the players see it, or None."""
    table = _card_table(session, table_name, "blackjack")
    row = _round(session, table, PLAYING)
    if row is None:
        return None
    play = _restore(session, table, row, _bets(session, row.id))
    return _timed(session, play) or _view(session, play)


def _stand_out(session: Session, table: GameTable, row: RoundRow) -> None:
    """Complete a round nobody finished: unanswered insurance declined, every open hand
    stands (the least the house can decide for a player: no new stake, no card taken)."""
    play = _restore(session, table, row, _bets(session, row.id))
    while not play.state.is_terminal():
        _default_move(session, play)
    _after(session, play)


def _default_move(session: Session, play: _Play) -> None:
    """What the house decides for a player who does not: the insurance offer declined
    for every seat still to answer it, else the hand to act stands (no card taken, no
    further stake)."""
    if play.state.insurance_box() is None:
        _decide(session, play, ["stand", None])
    while (waiting := play.state.insurance_box()) is not None:
        _decide(session, play, ["insure", waiting.box, 0])


# -- void, recovery, recall ------------------------------------------------------------------
def _void(session: Session, table: GameTable, row: RoundRow, bets: Sequence[BetRow],
          play: _Play | None, reason: str, actor: str) -> None:
    """Refund every stake of the round (doubles, splits and insurance included) and keep
    its record, void. With the round rebuilt (``play``), the refunds must return to each
    seat what the engine says it has on the table."""
    if play is not None:
        record = play.record.with_state(play.state, status=VOID, void_reason=reason,
                                        settlements=[])
        text = table_layer.write_record(record, FAMILY.derived(play.state, record)
                                        | fairness.part(play.fair))
    elif row.status == PLAYING:  # the record no longer replays: kept as it is, voided
        text = json.dumps({**json.loads(row.record), "status": str(VOID),
                           "void_reason": reason, "settlements": []}, sort_keys=True)
    else:
        players, numbers, moves = betting_moves(table.game, [CardBet.of(b) for b in bets],
                                                 done=False)
        record = RoundRecord(
            game=table.game, round_id=row.id, table=table.name, mode=table.mode,
            opened_at=row.opened_at.isoformat(), status=VOID, settings=_settings(table),
            limits=LimitsRecord(min=table.limit_min, max=table.limit_max), players=players,
            bet_numbers=numbers, void_reason=reason,
            history=[MoveRecord(actor=s, text=a.text()) for s, a, _ in moves])
        text = table_layer.write_record(record, {"bets": [
            {"bet_id": b.number, "player": b.player, "bet": b.spot, "stake": b.stake}
            for b in bets]})
    postings = [Posting(f"refund:{row.id}:{bet.number}", BANK, accounts.wallet_code(bet.player),
                        bet.stake, "refund", f"{table.name} round {row.id} void: {reason}",
                        row.id) for bet in bets]
    if play is not None:
        table_layer.check_postings(postings, _on_table(play))
    table_layer.book(session, postings)
    for bet in bets:
        bet.paid, bet.result = bet.stake, "refund"
    row.status, row.finished_at = VOID, now_utc()
    row.record = text
    append_audit(session, actor, "void", {"round": row.id, "reason": reason})


def _on_table(play: _Play) -> dict[str, int]:
    """What each wallet has on the table in the round as the engine holds it, with the
    insurance answers held for their turn: what a void gives back."""
    out: dict[str, int] = {}
    moved = table_layer.flows(FAMILY.start(play.record), play.state, FAMILY.paid)
    for seat, flow in moved.items():  # a round the engine voided has paid it all back
        code = accounts.wallet_code(play.players[seat])
        out[code] = out.get(code, 0) + flow.staked
    for held in play.record.ahead:
        code = accounts.wallet_code(play.players[held.actor])
        out[code] = out.get(code, 0) + int(held.text.split()[1])
    out[BANK] = -sum(out.values())
    return out


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
    play = None
    if row.status == PLAYING:
        try:
            play = _restore(session, table, row, bets)
        except TableError:  # the record no longer replays: it is kept as it is
            play = None
    _void(session, table, row, bets, play, reason, actor)
    return row.id


def recover_card_rounds(session: Session, rng: Rng | None = None, everything: bool = False,
                        at: datetime | None = None) -> list[tuple[int, str]]:
    """Finish card rounds left waiting: those past their 24-hour deadline, or all of them
    (``everything``, at a restart). GGPoker house rules 2.3: pending bets are kept 24
    hours, then the system completes the game. An open punto banco round is dealt; a
    blackjack round is dealt if it was not, and then every unanswered insurance offer is
    declined and every open hand stands (the text names no default; standing takes no
    card and no further stake) before the dealer plays and every bet is paid. ``at`` is
    the clock (now by default)."""
    now = at or now_utc()
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
        status = deal_blackjack(session, table.name, rng).status
        if status != PLAYING:  # settled at the deal (or void: the shoe ran out)
            return str(status)
    _stand_out(session, table, row)
    return "settled, open hands stood"


def recall_card_round(session: Session, round_id: int) -> Recall:
    """Replay a finished card round from its record (the bets, the cards, the decisions:
    the contract history) through the engine and compare with the recorded settlements;
    the cards are also checked against the shoe the record says they came from, and what
    a record shows besides its history against it. A record the engine cannot replay,
    or that does not agree with itself, gives a replay with the problem named, never
    the same."""
    row = session.get(RoundRow, round_id)
    if row is None:
        raise TableError(f"no round {round_id}")
    table = session.get(GameTable, row.table_id)
    if table is None:
        raise TableError(f"round {round_id} has no table")
    if table.game not in ("punto-banco", "blackjack"):
        raise TableError(f"round {round_id} is a {table.game} round, not a card round")
    if row.status not in (SETTLED, VOID):
        raise TableError(f"round {round_id} is still {row.status}")
    found = table_layer.recall(row.record, FAMILY)
    if row.status == VOID:
        return Recall(round_id, found.recorded, [])
    replayed = list(found.replayed)
    if found.problem:
        replayed.append({"problem": found.problem})
    return Recall(round_id, found.recorded, replayed)
