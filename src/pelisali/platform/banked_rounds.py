"""Three Card Poker, Red Dog and Ultimate Texas Hold'em on the persistent wallet: a
player's rounds at their own RNG table, each a round of the game's contract engine
through the table layer; Texas Hold'em Bonus, Oasis Stud Poker and Pai Gow Poker the
same way.

A round is dealt when the player places their bets (:func:`deal`: Three Card Poker's ante
and Pair Plus, Red Dog's ante, Ultimate Texas Hold'em's ante with its blind and Trips):
each stake is a keyed transfer checked against the
wallet, the player's status and loss limits (no credit, RAY 1.1), one bet row a bet, and
the cards are drawn by the generator from a full deck or shoe (an RNG table shuffles
every round). The round then waits for the player's decision (:func:`decide`: ``play`` or
``fold``; ``raise N`` or ``stand``; ``check``, ``play N`` or ``fold``, street by street;
Texas Hold'em Bonus' ``fold`` or ``bet flop``, then ``check`` or ``bet turn``, ``check``
or ``bet river``; Oasis Stud Poker's ``exchange 7h 2c`` once, then ``raise`` or
``fold``); a play, raise or street bet is debited as it is made, and so is an exchange's
fee (a bet on ``exchange`` settled with nothing back). A box that exchanges all five cards
must raise: that raise is taken with the exchange, one request, both stakes covered by
the wallet or neither taken, so that no round waits for a move the player could not
refuse (and the house could not make for them after 24 hours). Pai Gow Poker's
decision, ``set 7h 2c`` (the two cards of the low hand) or ``house`` (the house way sets
it), stakes nothing; a setting that fouls is taken and loses, as the rules say. When the
round is over every bet is paid (keys ``settle:ROUND:BET``) and the record (version 2)
keeps every move and card drawn, so the round is recalled by replay
(:func:`recall_banked_round`). Pai Gow Poker's win is paid 1:1 in full, as the engine
settles the bet, and the commission on it goes back from the wallet to the house as a
transfer of its own (kind ``commission``, key ``commission:ROUND``), so the ledger, the
bet rows and the engine's settlement each say the same.

**The progressive** of Ultimate Texas Hold'em and of Texas Hold'em Bonus
(:func:`open_progressive`, :data:`PROGRESSIVE_GAMES`) is a jackpot of the game, fed and
paid at every one of its tables, its table from the game's rule data (both judge it on
the box's two cards and the flop; a Texas Hold'em Bonus fold, before the flop, loses it):
its fee is staked as a bet, and its share
moves from the house to the jackpot's accrual in the same transaction. A royal or
straight flush is paid its share of the pool from the pool itself, after which the house
restores the seed; the fixed wins are the engine's settlement, paid by the house.

**Interruptions.** A round waiting for its decision is kept 24 hours (GGPoker house rules
2.3: pending bets are kept, then the system completes the game). The text names no
default decision; the house takes the one that asks nothing more of the player:
Three Card Poker folds (as live tables fold a hand whose player does not act, losing the
ante, and Pair Plus as the rule data says), Red Dog stands (no raise), Ultimate Texas
Hold'em checks and, after the river, folds (no play bet; Trips stands as the rule data
says), Texas Hold'em Bonus folds before the flop (the ante lost, the Bonus as the rule
data says) and checks after it (no turn or river bet), Oasis Stud Poker folds (no
exchange and no raise: the ante lost, a fee already paid stays paid), Pai Gow Poker's
box is set by the house way (``house``: as the dealer's hand is set, so it never fouls).
:func:`recover_banked_rounds` does it (``pelisali table recover`` and the server's
scheduler, through :func:`pelisali.platform.tables.recover`).

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
...     _ = create_banked_table(s, "rd-ann", "red-dog")
...     dealt = deal(s, "rd-ann", "ann", {"ante": 500}, key="r1", rng=SeededRng(3))
>>> dealt.status, dealt.staked, dealt.actions
('playing', 500, ('raise 1', 'raise 500', 'stand'))
>>> with transaction(engine) as s:
...     done = decide(s, "rd-ann", "ann", "raise 500", key="r1-raise", rng=SeededRng(4))
...     wallet = balance(s, "player:ann")
>>> done.status, done.staked, wallet == 10_000 - 1_000 + done.paid
('settled', 1000, True)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from pelisali.cards import CardError, parse_card
from pelisali.engine import CHANCE, IllegalMove, Seats, State
from pelisali.engine.pai_gow import BANK
from pelisali.engine.ultimate import POOL_HANDS
from pelisali.games.pai_gow import parse_pai_gow_card
from pelisali.money import format_cents
from pelisali.platform import accounts, fairness, jackpots, metrics, table_layer
from pelisali.platform.banked_family import (
    BANKED_GAMES,
    FAMILY,
    banked_engine,
    commission,
    settled,
    short_result,
)
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import KeyConflict, append_audit, balance, move, now_utc
from pelisali.platform.models import BetRow, GameTable, Jackpot, JackpotEntry, RoundRow
from pelisali.platform.rounds import (
    PENDING_HOURS,
    Recall,
    TableError,
    find_table,
    open_rng_table,
    playing_row,
)
from pelisali.platform.table_layer import RecordError, RoundRecord
from pelisali.rng import Rng, SecureRng

PLAYING, SETTLED = RoundStatus.PLAYING, RoundStatus.SETTLED
DEFAULT_DECISION = {"three-card-poker": ("fold",), "red-dog": ("stand",),
                    "ultimate-texas-holdem": ("check", "fold"),
                    "texas-holdem-bonus": ("fold", "check"), "oasis-stud": ("fold",),
                    "pai-gow-poker": ("house",), "russian-poker": ("fold", "take")}
"""What the house decides for a player who does not (the round's 24 hours past): the
first of these open at each decision, until the round is over."""


@dataclass(frozen=True)
class BankedView:
    """A round as its player sees it: the stakes so far, what its bets paid (once over:
    Pai Gow Poker's commission on a win is taken apart, ``view["commission"]``), the
    engine's view of seat 0, the decisions open now and the wallet after."""

    round_id: int
    table: str
    game: str
    status: str
    staked: int
    paid: int | None
    view: dict[str, Any]
    actions: tuple[str, ...]
    balance: int


def create_banked_table(session: Session, name: str, game: str, actor: str = "system"
                        ) -> GameTable:
    """Open RNG table ``name`` of a banked game (:data:`BANKED_GAMES`), its limits
    a bet's least and most from the rule data.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     made = create_banked_table(s, "tcp-1", "three-card-poker")
    ...     made.limit_min, made.limit_max
    (100, 50000)
    """
    try:
        engine = banked_engine(game)
    except RecordError as exc:
        raise TableError(str(exc)) from None
    limits = getattr(engine, "limits")  # noqa: B009 - every banked engine has its limits
    return open_rng_table(session, name, game, limits.minimum, limits.maximum, actor)


def _table(session: Session, name: str, lock: bool = True) -> GameTable:
    table = find_table(session, name)
    if table.game not in BANKED_GAMES:
        raise TableError(f"{name} is a {table.game} table, not "
                         f"{' or '.join(BANKED_GAMES)}")
    if lock:  # one round at a time at a player's table
        session.scalars(select(GameTable).where(GameTable.id == table.id)
                        .with_for_update()).one()
    return table


def _draw(state: State, rng: Rng, order: str | None = None) -> State:
    """Draw chance's moves (the cards) until a player is to decide or the round is over;
    at a provably fair table, the next cards of the round's shuffled deck ``order``."""
    while state.to_move() == CHANCE:
        state = state.apply(fairness.deal_from(order, state) if order
                            else table_layer.draw_outcome(state, rng)).state
    return state


def _forced(state: State, rng: Rng, order: str | None = None) -> State:
    """Take every decision the game leaves the player no choice in (Oasis Stud Poker's
    raise after all five cards are exchanged), drawing on after each: the round then
    waits only for a real choice."""
    while state.to_move() == 0 and len(open_now := state.legal_actions()) == 1:
        state = _draw(state.apply(open_now[0], seat=0).state, rng, order)
    return state


def _canonical(action: str) -> str:
    """A decision as the engine writes it, so that a retry matches its first however the
    cards were typed (Pai Gow Poker's joker as ``Jk``); a word that is not a card is left
    for the engine to refuse.

    >>> _canonical("exchange 7H 10c"), _canonical("exchange Zz"), _canonical("raise")
    ('exchange 7h Tc', 'exchange Zz', 'raise')
    >>> _canonical("set joker 10D"), _canonical("house way")
    ('set Jk Td', 'house')
    """
    words = action.split()
    if words == ["house", "way"]:
        return "house"
    if words[:1] not in (["exchange"], ["set"]):
        return action
    parse = parse_pai_gow_card if words[0] == "set" else parse_card
    try:
        return " ".join([words[0], *(parse(word) for word in words[1:])])
    except CardError:
        return action


def offered(actions: tuple[str, ...]) -> list[str]:
    """The decisions open, as a line names them: Oasis Stud Poker's exchanges (one for
    each set of cards) as one ``exchange CARDS``, Pai Gow Poker's settings as one ``set
    CARD CARD``.

    >>> offered(("fold", "raise", "exchange 7h", "exchange 7h 2c"))
    ['fold', 'raise', 'exchange CARDS']
    >>> offered(("house", "set 7h 2c", "set 7h Jk"))
    ['house', 'set CARD CARD']
    """
    out = list(actions)
    for word, named in (("exchange ", "exchange CARDS"), ("set ", "set CARD CARD")):
        kept = [a for a in out if not a.startswith(word)]
        out = [*kept, named] if len(kept) < len(out) else kept
    return out


def _stakes(state: State) -> dict[int, tuple[str, int]]:
    """Each bet on the table by the engine's bet id: its spot and stake."""
    return {b.bet_id: (b.spot, b.stake) for b in getattr(state, "bets", ())}


def _decision_keys(row: RoundRow) -> list[str]:
    """The keys of the decisions a round took (staked or not), as its record keeps them."""
    try:
        found = json.loads(row.record).get("decision_keys", [])
    except (ValueError, AttributeError):
        return []
    return [str(k) for k in found] if isinstance(found, list) else []


def _decided(row: RoundRow) -> dict[str, str]:
    """Each decision's key with the decision taken under it, so that a key sent again
    with another decision is refused rather than answered (rounds recorded before this
    was kept have none)."""
    try:
        found = json.loads(row.record).get("decisions", {})
    except (ValueError, AttributeError):
        return {}
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


def _same_decision(row: RoundRow, key: str, action: str) -> None:
    """Refuse ``key`` unless it was a decision of ``row`` and that decision was
    ``action``: a key is bound to its whole request, so the deal's key (or one of its
    bets' keys) sent with a decision, or a decision's key with another decision, is a
    conflict, never a retry that silently takes nothing."""
    if key not in _decision_keys(row):
        raise KeyConflict(f"idempotency key {key!r} was used for the deal of round {row.id}",
                          f"the deal of round {row.id}")
    first = _decided(row).get(key)
    if first is not None and first != action:
        raise KeyConflict(f"idempotency key {key!r} was used for another decision", first)


def _write(row: RoundRow, record: RoundRecord, state: State, at: datetime,
           key: str | None = None, jackpot: dict[str, Any] | None = None,
           action: str | None = None) -> None:
    status = SETTLED if state.is_terminal() else PLAYING
    done = record.with_state(state, status=status, settlements=FAMILY.settlements(state, record))
    if done.shuffle_order:  # a provably fair round: how far its own deck is dealt
        done = done.model_copy(update={"shoe_positions": [0, len(done.dealt())]})
    keys = _decision_keys(row) + ([key] if key else [])
    decisions = {**_decided(row), **({key: action} if key and action else {})}
    row.record = table_layer.write_record(done, {**FAMILY.derived(state, done),
                                                 **fairness.part(fairness.proofs_of(row.record)),
                                                 "decision_keys": keys,
                                                 "decisions": decisions,
                                                 **({"jackpot": jackpot} if jackpot else {})})
    row.status = status
    row.deadline = at + timedelta(hours=PENDING_HOURS)  # from the player's last move
    if status == SETTLED:
        row.finished_at = at


def _restore(row: RoundRow) -> tuple[RoundRecord, State]:
    record = table_layer.read_record(row.record, FAMILY)
    return record, table_layer.rebuild(record, FAMILY)


def _jackpot_won(row: RoundRow) -> dict[str, Any]:
    """The progressive's pool share a settled round paid, as its record keeps it."""
    try:
        found = json.loads(row.record).get("jackpot")
    except (ValueError, AttributeError):
        return {}
    return found if isinstance(found, dict) else {}


def _answer(session: Session, table: GameTable, row: RoundRow) -> BankedView:
    record, state = _restore(row)
    player = record.players[0]
    over = state.is_terminal()
    actions = () if over else tuple(a.text() for a in state.legal_actions())
    view = state.view(0)
    won = _jackpot_won(row)
    if won:
        view["jackpot"] = won
    return BankedView(row.id, table.name, table.game, str(row.status),
                      sum(stake for _spot, stake in _stakes(state).values()),
                      FAMILY.paid(state)[0] + int(won.get("paid", 0)) if over else None,
                      view, actions, balance(session, accounts.wallet_code(player)))


def _covered(session: Session, player: str, needed: int) -> None:
    """Refuse a stake the wallet does not hold (RAY 1.1: no credit), before anything is
    written."""
    wallet = accounts.wallet_code(player)
    held = balance(session, wallet)
    if needed > held:
        raise TableError(f"{wallet} holds {format_cents(held)}, not {format_cents(needed)}: "
                         "no credit")


def _book_stakes(session: Session, table: GameTable, row: RoundRow, player: str,
                 before: State, after: State, key: str, at: datetime) -> None:
    """Debit each bet ``after`` has that ``before`` had not (keyed ``stake:ROUND:BET``),
    one bet row each, the first under the request's ``key``."""
    old = _stakes(before)
    new = [(bet, spot, stake) for bet, (spot, stake) in _stakes(after).items() if bet not in old]
    _covered(session, player, sum(stake for _b, _s, stake in new))
    for number, (bet, spot, stake) in enumerate(new):
        accounts.stake(session, player, stake, key=f"stake:{row.id}:{bet}",
                       reason=f"{table.name} round {row.id}", round_id=row.id)
        session.add(BetRow(round_id=row.id, number=bet, player=player, spot=spot, stake=stake,
                           key=key if number == 0 else f"{key}:{bet}", created_at=at))
        if spot == PROGRESSIVE:  # its share of the fee goes on to the jackpot's accrual
            jackpot = _progressive(session, table)
            jackpots.contribute(session, jackpot, f"{row.id}:{bet}", stake, row.id, player)
            session.add(JackpotEntry(jackpot_id=jackpot.id, round_id=row.id, player=player,
                                     key=f"progressive:{row.id}:{bet}", created_at=at))
    if new:
        metrics.count(session, metrics.BETS_ACCEPTED.labels("banked"), len(new))


def _step(session: Session, table: GameTable, row: RoundRow, record: RoundRecord,
          state: State, at: datetime, key: str | None = None,
          action: str | None = None) -> BankedView:
    """Write the round after a move; pay every bet when the round is over."""
    won: dict[str, Any] = {}
    if state.is_terminal():
        reason = f"{table.name} round {row.id}"
        rows = {b.number: b for b in session.scalars(
            select(BetRow).where(BetRow.round_id == row.id))}
        for s in settled(state):
            if s.paid:
                accounts.pay(session, record.players[0], s.paid, key=f"settle:{row.id}:{s.bet_id}",
                             reason=reason, round_id=row.id)
            rows[s.bet_id].paid, rows[s.bet_id].result = s.paid, short_result(s.result)
            if s.spot == PROGRESSIVE:  # a pool share is the jackpot entry's, not the bet's
                won = _progressive_paid(session, table, row, record.players[0], s,
                                        f"{reason}: {s.result}")
        taken = commission(state)
        if taken:  # Pai Gow Poker's, on the win just paid: back to the house, on its own
            rules = getattr(state.game, "rules")  # noqa: B009
            move(session, f"commission:{row.id}", accounts.wallet_code(record.players[0]),
                 "house:bank", taken, "commission", round_id=row.id,
                 reason=f"{reason}: {rules.commission_percent} % of the win, rounded "
                        f"{rules.commission_rounding} to the cent")
    _write(row, record, state, at, key, won, action)
    session.flush()
    return _answer(session, table, row)


# -- the progressive -------------------------------------------------------------------
PROGRESSIVE = "progressive"
"""The progressive: a side bet of its fee feeding the game's pool."""


PROGRESSIVE_GAMES = ("ultimate-texas-holdem", "texas-holdem-bonus")
"""The banked games with a progressive side bet (each engine settles it from its rule
data's ``[progressive]`` table; the pool's hands are :data:`POOL_HANDS` for both)."""


def open_progressive(session: Session, game: str, name: str | None = None,
                     actor: str = "system") -> Jackpot:
    """Start ``game``'s progressive with the rule data's fee, share of it and seed (the
    house puts the seed in the pool): from now on every table of the game takes the bet.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> from pelisali.platform.ledger import balance, move
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     _ = move(s, "fund", "external:owner", "house:bank", 2_000_000, "funding")
    ...     made = open_progressive(s, "ultimate-texas-holdem")
    ...     made.name, made.fee, made.share_percent, balance(s, "jackpot:" + made.name)
    ('ultimate-texas-holdem-progressive', 100, 50, 1000000)
    """
    if game not in PROGRESSIVE_GAMES:
        raise TableError(f"{game} has no progressive; the games with one: "
                         f"{', '.join(PROGRESSIVE_GAMES)}")
    table = getattr(banked_engine(game), "rules").progressive  # noqa: B009
    try:
        return jackpots.create_game_progressive(
            session, name or f"{game}-progressive", game, table["fee"],
            table["share_percent"], table["seed"], sorted(POOL_HANDS), actor)
    except jackpots.JackpotError as exc:
        raise TableError(str(exc)) from None


def progressive_fee(game: str) -> int:
    """The progressive's fee at ``game``'s tables, from the rule data (cents).

    >>> progressive_fee("ultimate-texas-holdem"), progressive_fee("texas-holdem-bonus")
    (100, 100)
    """
    if game not in PROGRESSIVE_GAMES:
        raise TableError(f"{game} has no progressive")
    fee: int = getattr(banked_engine(game), "rules").progressive["fee"]  # noqa: B009
    return fee


def _progressive(session: Session, table: GameTable) -> Jackpot:
    found = jackpots.game_progressive(session, table.game)
    if found is None:
        raise TableError(f"the casino runs no progressive at its {table.game} tables")
    return found


def _progressive_paid(session: Session, table: GameTable, row: RoundRow, player: str,
                      settlement: Any, reason: str) -> dict[str, Any]:
    """Pay a progressive's pool share (a royal or straight flush), record the entry's win
    and say what the pool paid (``{"jackpot", "percent", "paid"}``)."""
    jackpot = _progressive(session, table)
    percent = int(getattr(settlement, "pool_percent", 0))
    key = f"{row.id}:{settlement.bet_id}"
    won = jackpots.pay_share(session, jackpot, f"{jackpot.name}:{key}", player, percent,
                             row.id, reason) if percent else 0
    entry = session.scalars(select(JackpotEntry).where(
        JackpotEntry.key == f"progressive:{key}")).one_or_none()
    if entry is not None:
        entry.paid = settlement.paid + won
    return {"jackpot": jackpot.name, "percent": percent, "paid": won} if percent else {}


# -- the player's moves ------------------------------------------------------------------
def deal(session: Session, table_name: str, player: str, bets: Mapping[str, int], key: str,
         rng: Rng | None = None, at: datetime | None = None) -> BankedView:
    """Place ``player``'s ``bets`` (spot to cents: ``{"ante": 500, "pair-plus": 200}``) at
    their table, debit them and deal with ``rng`` (the secure generator by default). The
    same ``key`` again answers the first deal; with other bets it is refused. A bet the
    game does not take, one under the table's minimum or one the wallet does not hold is
    refused and changes nothing; one over the maximum is taken at the maximum (as every
    table takes it: RAY 1.1), the rest never debited.
    """
    at = at or now_utc()
    table = _table(session, table_name)
    engine = banked_engine(table.game)
    if not bets:
        raise TableError("a round needs a bet")
    start = engine.new_state(Seats(1))
    try:
        state = start
        for spot, amount in bets.items():
            state = state.apply(f"bet {spot} {amount}", seat=0).state
        state = state.apply("done", seat=0).state
    except IllegalMove as exc:
        raise TableError(str(exc)) from None
    placed = dict(_stakes(state).values())  # as the table took them (a maximum cuts)
    first = session.scalars(select(BetRow).where(BetRow.key == key)).first()
    if first is not None:
        return _again(session, first, table, player, placed)
    waiting = playing_row(session, table)
    decided = _retried_decision(session, table, waiting, key)
    if decided is not None:  # a decision's key that staked nothing (a fold, a setting)
        raise KeyConflict(f"idempotency key {key!r} was used for a decision of round "
                          f"{decided.id}", f"a decision of round {decided.id}")
    if table.status != "open":
        raise TableError(f"{table.name} is closed")
    if waiting is not None:
        actions = ", ".join(offered(_answer(session, table, waiting).actions))
        raise TableError(f"{table.name}: round {waiting.id} waits for a decision ({actions})")
    accounts.find(session, player)
    if BANK in placed:
        _bank_allowed(session, table, placed[BANK], getattr(engine, "rules"))  # noqa: B009
    if PROGRESSIVE in placed:
        _progressive(session, table)  # refused before anything is written
    _covered(session, player, sum(placed.values()))
    row = RoundRow(table_id=table.id, status=PLAYING, gaming_day=table.gaming_day,
                   record="{}", opened_at=at, deadline=at + timedelta(hours=PENDING_HOURS))
    session.add(row)
    session.flush()
    _book_stakes(session, table, row, player, start, state, key, at)
    # a provably fair table shuffles the round's own deck with the player's seed pair
    order, proofs = fairness.shuffled_deck(session, table, player, state, row.id)
    row.record = json.dumps(fairness.part(proofs))  # kept by every write of the round
    record = RoundRecord(game=table.game, round_id=row.id, table=table.name, mode="rng",
                         opened_at=at.isoformat(), status=PLAYING, players=[player],
                         shuffle_order=order)
    return _step(session, table, row, record, _draw(state, rng or SecureRng(), order), at)


def _bank_allowed(session: Session, table: GameTable, stake: int, rules: Any) -> None:
    """Pai Gow Poker's bank at a player's table: after a round the player bet against the
    house's bank (where the rules send every other round back to the house: the round
    just before), for at most that bet and the rules' share more (goldstarschool.com,
    chukchansigold.com; the rule data's ``[banking]``)."""
    rounds = session.scalars(select(RoundRow.id).where(RoundRow.table_id == table.id)
                             .order_by(RoundRow.id.desc()))
    last_bet = None
    for round_id in rounds:
        spots = {b.spot: b.stake for b in session.scalars(
            select(BetRow).where(BetRow.round_id == round_id))}
        if "ante" in spots:
            last_bet = spots["ante"]
            break
        if rules.house_between:
            raise TableError("the house banks every other round: bet against its bank "
                             "before you bank again")
    if last_bet is None:
        raise TableError("a player banks after a round bet against the house's bank")
    most = rules.bank_most(last_bet)
    if stake > most:
        raise TableError(f"a bank is at most {format_cents(most)}: your last bet against "
                         f"the house's bank, {format_cents(last_bet)}, and "
                         f"{rules.bank_most_percent - 100} % more; not {format_cents(stake)}")


def _again(session: Session, first: BetRow, table: GameTable, player: str,
           bets: Mapping[str, int]) -> BankedView:
    """The answer to a deal sent again under its key, or a refusal if it is another."""
    row = session.get(RoundRow, first.round_id)
    placed = {b.spot: b.stake for b in session.scalars(
        select(BetRow).where(BetRow.round_id == first.round_id,
                             BetRow.spot.in_(list(bets))))}
    if row is None or row.table_id != table.id or first.player != player \
            or placed != dict(bets) or first.key in _decision_keys(row):  # a decision's key
        raise KeyConflict(f"idempotency key {first.key!r} was used for another round",
                          ", ".join(f"{spot} {format_cents(stake)}"
                                    for spot, stake in placed.items()))
    return _answer(session, table, row)


def decide(session: Session, table_name: str, player: str, action: str, key: str,
           rng: Rng | None = None, at: datetime | None = None) -> BankedView:
    """The decision of the round waiting at ``player``'s table: ``play`` or ``fold``
    (Three Card Poker), ``raise N`` or ``stand`` (Red Dog), ``check``, ``play N`` or
    ``fold`` (Ultimate Texas Hold'em: the play bet N times the ante), Texas Hold'em
    Bonus' street bets, Oasis Stud Poker's ``exchange CARDS``, ``raise`` or ``fold``,
    Pai Gow Poker's ``set CARD CARD`` or ``house``. A play, raise, bet or exchange fee
    is debited under ``key`` (a second stake of the same request, the raise an exchange
    of five forces, under ``KEY:N``); the same key again answers it, and so does a
    decision's key that staked nothing, as long as the decision is the same. The cards
    are drawn to the next decision, or to the end and every bet paid."""
    at = at or now_utc()
    action = _canonical(action)
    table = _table(session, table_name)
    again = session.scalars(select(BetRow).where(BetRow.key == key)).first()
    if again is not None:
        row = session.get(RoundRow, again.round_id)
        if row is None or row.table_id != table.id or again.player != player:
            raise KeyConflict(f"idempotency key {key!r} was used for another decision",
                              again.spot)
        _same_decision(row, key, action)
        return _answer(session, table, row)
    row = playing_row(session, table)
    retried = _retried_decision(session, table, row, key)
    if retried is not None:  # a decision without a stake (fold, stand, check) sent again
        if _restore(retried)[0].players[0] != player:
            raise KeyConflict(f"idempotency key {key!r} was used for another decision", "")
        _same_decision(retried, key, action)
        return _answer(session, table, retried)
    if row is None:
        raise TableError(f"no round waits for a decision at {table.name}")
    record, before = _restore(row)
    if record.players[0] != player:
        raise TableError(f"round {row.id} is {record.players[0]}'s")
    try:
        after = before.apply(action, seat=0).state
    except IllegalMove as exc:
        raise TableError(str(exc)) from None
    drawn = rng or SecureRng()
    after = _forced(_draw(after, drawn, record.shuffle_order), drawn, record.shuffle_order)
    _book_stakes(session, table, row, player, before, after, key, at)  # or nothing, refused
    return _step(session, table, row, record, after, at, key, action)


RETRY_ROUNDS = 20
"""How many of a table's latest rounds a decision's key is looked for in: a retry follows
its first within a round or two."""


def _retried_decision(session: Session, table: GameTable, row: RoundRow | None,
                      key: str) -> RoundRow | None:
    """The round that took a decision under ``key``: the one waiting, or one of the table's
    :data:`RETRY_ROUNDS` latest (a retry that comes after the next round was dealt is the
    earlier round's, answered there, never taken as the next round's decision). Every
    decision asks, so the search is bounded rather than reading the table's whole past."""
    if row is not None and key in _decision_keys(row):
        return row
    for earlier in session.scalars(select(RoundRow).where(RoundRow.table_id == table.id)
                                   .order_by(RoundRow.id.desc()).limit(RETRY_ROUNDS)):
        if earlier is not row and key in _decision_keys(earlier):
            return earlier
    return None


def playing(session: Session, table_name: str) -> BankedView | None:
    """The round waiting for its decision at ``table_name``, if any: what a player who
    comes back resumes."""
    table = _table(session, table_name, lock=False)
    row = session.scalars(select(RoundRow).where(RoundRow.table_id == table.id,
                                                 RoundRow.status == PLAYING)).first()
    return None if row is None else _answer(session, table, row)


# -- recovery and recall -----------------------------------------------------------------
def overdue_banked_rounds(session: Session, at: datetime | None = None) -> list[int]:
    """The rounds waiting for a decision past their 24 hours, oldest first."""
    at = at or now_utc()
    return list(session.scalars(
        select(RoundRow.id).join(GameTable, GameTable.id == RoundRow.table_id)
        .where(GameTable.game.in_(BANKED_GAMES), RoundRow.status == PLAYING,
               RoundRow.deadline <= at).order_by(RoundRow.id)))


def complete_banked_round(session: Session, round_id: int, rng: Rng | None = None,
                          at: datetime | None = None) -> str | None:
    """Finish a round its player left: the house's decision (:data:`DEFAULT_DECISION`),
    then the cards and the payouts. None if it was not waiting."""
    at = at or now_utc()
    row = session.get(RoundRow, round_id, with_for_update=True)
    if row is None or row.status != PLAYING:
        return None
    table = session.get(GameTable, row.table_id)
    if table is None or table.game not in BANKED_GAMES:
        return None
    record, state = _restore(row)
    made = []
    while not state.is_terminal():
        offered = {a.text() for a in state.legal_actions()}
        decision = next(d for d in DEFAULT_DECISION[table.game] if d in offered)
        made.append(decision)
        state = _draw(state.apply(decision, seat=0).state, rng or SecureRng(),
                      record.shuffle_order)
    decision = ", ".join(made)
    view = _step(session, table, row, record, state, at)
    append_audit(session, "system", "banked_round_completed",
                 {"round": row.id, "table": table.name, "decision": decision,
                  "paid": view.paid, "section": "GGPoker house rules 2.3"})
    return f"settled, the house decided {decision}"


def recover_banked_rounds(session: Session, rng: Rng | None = None,
                          at: datetime | None = None) -> list[tuple[int, str]]:
    """Complete every round past its 24 hours (:func:`complete_banked_round`): each
    round's number and what became of it."""
    done = []
    for round_id in overdue_banked_rounds(session, at):
        what = complete_banked_round(session, round_id, rng, at)
        if what is not None:
            done.append((round_id, what))
    return done


def recall_banked_round(session: Session, round_id: int) -> Recall:
    """Game recall: the round replayed through its engine from its record."""
    row = session.get(RoundRow, round_id)
    if row is None:
        raise TableError(f"there is no round {round_id}")
    found = table_layer.recall(row.record, FAMILY)
    return Recall(round_id, found.recorded, found.replayed, found.problem or "")
