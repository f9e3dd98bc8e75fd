"""Wheels and dice as a family of the table layer.

What the table layer (:mod:`pelisali.platform.table_layer`) needs to know of the wager
tables (roulette A–I, boule, money wheel, Tuplanoppa, Sic Bo): the contract engine of a
table's game, settings and limits (:func:`wager_engine`); where a round starts (a new
round of :class:`~pelisali.engine.wager.WagerEngine` with the bets carried in from
prison, :meth:`~pelisali.engine.wager.WagerEngine.new_round`); the engine's
settlements as the table records them (by the table's bet numbers); what a record shows
besides its history (``draws``, ``result``, ``bets``, ``decisions``, the same fields
the tables wrote before); and the records the tables wrote before version 2.

**A round at the table** (:class:`WagerRound`) is the engine's round taken seat by seat.
Every player has an engine seat, and a wager round is separable by seat: a seat's bets
are checked against its own bets alone (the limits hold for a player's stake on a
spot), each bet is settled against the same draw, and a seat's choices are its own. So
the table keeps each player's part of the round as a one-seat state of the same engine
(every bet, the draw and every choice applied with ``state.apply``), which costs the
same however many others bet: a bet is checked against its player's bets, not the
table's, and settling a round is linear in its bets. The round's record
(:meth:`WagerRound.record`) is the one contract history of the whole table (a seat for
each player in the order of their first bet, each placing its bets and saying it is
done, then the draw, then the choices in the order the engine asks for them; a choice
made before its turn is held in ``ahead``), and :func:`~pelisali.platform.table_layer.rebuild`
replays it through the same engine: recall checks that both give the same settlements.

**Records of version 1** are the free-form JSON of :meth:`pelisali.games.round.Round.record`
(``game`` and ``variant``, ``bets`` with ``carried`` and ``level``, ``draws`` with their
slots, ``decisions`` by bet, ``settlements``). :meth:`WagerFamily.upgrade` reads one as
version 2: the carried bets are the round's ``prison``, the other bets the seats'
moves, the draws the chance moves, and the decisions are taken where the engine asks
for them (a decision made before its turn is held).

>>> from pelisali.platform.table_layer import read_record, rebuild
>>> old = {"round_id": "3", "table": "r", "game": "roulette", "variant": "C",
...        "settings": {"quarters": False}, "limits": {"min": 100, "max": 50000},
...        "status": "settled", "void_reason": None, "decisions": {}, "bets": [
...        {"bet_id": 1, "player": "ann", "spot": "red", "stake": 500, "level": 0,
...         "carried": False}], "draws": [{"device": "wheel", "slot": 3, "face": "3"}],
...        "settlements": []}
>>> record = read_record(old, FAMILY)
>>> record.game, [m.text for m in record.history], record.players
('roulette-C', ['bet red 500', 'done', '3'], ['ann'])
>>> FAMILY.settlements(rebuild(record, FAMILY), record)[0].paid
1000
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

from pelisali.engine import CHANCE, ChanceOutcome, IllegalMove, Seats, State
from pelisali.engine.wager import Decide, EndBetting, PlaceBet, WagerBet, WagerEngine, WagerState
from pelisali.games import GameError, make_game
from pelisali.games.base import Draw, WagerGame
from pelisali.games.round import Limits, Receipt, Settlement
from pelisali.money import format_cents
from pelisali.platform import accounts, table_layer
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.table_layer import (
    BANK,
    LimitsRecord,
    RecordError,
    RoundRecord,
    SettlementRecord,
)

__all__ = [
    "FAMILY",
    "TableBet",
    "TableWager",
    "WagerFamily",
    "WagerRound",
    "as_wager",
    "base_record",
    "derived_of",
    "game_id_of",
    "rounding_of",
    "wager_engine",
]

VENUE = "pelisali"
BETTING, DECIDING = RoundStatus.BETTING, RoundStatus.DECIDING
SETTLED, VOID = RoundStatus.SETTLED, RoundStatus.VOID


# -- the engine of a table -----------------------------------------------------------------
class TableWager(WagerEngine):
    """A wager game as a table runs it: the rule file's game with the table's settings
    and limits (RAY 1.1: the limits are a table setting), seating everyone who bets (an
    online wheel has no chairs to run out of) and spinning when nobody does."""

    min_seats = 0
    max_seats = sys.maxsize


def game_id_of(game: str, variant: str | None) -> str:
    """The :data:`~pelisali.engine.GAMES` id of a table's game and version.

    >>> game_id_of("roulette", "C"), game_id_of("sic-bo", "")
    ('roulette-C', 'sic-bo')
    """
    return f"roulette-{variant or 'C'}" if game == "roulette" else game


def _name_and_variant(game_id: str) -> tuple[str, str | None]:
    if game_id.startswith("roulette-"):
        return "roulette", game_id.removeprefix("roulette-")
    return game_id, None


def _with_limits(game: WagerGame, low: int, high: int) -> WagerGame:
    """``game`` with the table's limits in place of the rule file's."""
    Limits(low, high)  # RoundError (a GameError) unless 0 < low <= high
    rules = game.rules.model_copy(update={
        "limits": game.rules.limits.model_copy(update={"min": low, "max": high})})
    return type(game)(rules, game.settings)


@lru_cache(maxsize=256)
def wager_engine(game_id: str, settings: str, low: int | None, high: int | None
                 ) -> TableWager:
    """The contract engine of a wager game (a :data:`~pelisali.engine.GAMES` id) with its
    settings (JSON) and limits; shared by the tables and rounds of one game, settings and
    limits (an engine holds only its rules and what it derives from them)."""
    name, variant = _name_and_variant(game_id)
    try:
        wager = make_game(name, variant, json.loads(settings))
        if low is not None and high is not None:
            wager = _with_limits(wager, low, high)
    except GameError as exc:
        raise RecordError(str(exc)) from None
    if game_id_of(wager.name, wager.variant) != game_id:
        raise RecordError(f"{game_id!r} is not a wager game")
    return TableWager(game_id, wager)


def as_wager(state: State) -> WagerState:
    if not isinstance(state, WagerState):
        raise RecordError("not a wager round")
    return state


def _fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


# -- the family ----------------------------------------------------------------------------
class WagerFamily(table_layer.Family):
    """Roulette A–I, boule, money wheel, Tuplanoppa and Sic Bo for the table layer."""

    def game(self, record: RoundRecord) -> TableWager:
        return wager_engine(*record.engine_key())

    def start(self, record: RoundRecord) -> State:
        """A new round for the record's players with the bets it carried in from prison."""
        carried = [WagerBet(0, p.seat, p.spot, p.stake, p.level) for p in record.prison]
        return self.game(record).new_round(record.seats(), carried)

    def settlements(self, state: State, record: RoundRecord) -> list[SettlementRecord]:
        found = as_wager(state)
        numbers = _numbers(record)
        return sorted((SettlementRecord(
            bet_id=numbers[s.bet_id - 1], player=record.players[s.seat], spot=s.spot,
            stake=s.stake, paid=s.paid, rounding=_fraction_text(s.rounding), result=s.result,
            held_level=s.held_level) for s in found.settlements), key=lambda s: s.bet_id)

    def paid(self, state: State) -> tuple[int, ...]:
        found = as_wager(state)
        out = [0] * found.seats
        for s in found.settlements:
            out[s.seat] += s.paid
        return tuple(out)

    def derived(self, state: State, record: RoundRecord) -> dict[str, Any]:
        """The draws with their devices and slots, the result, the bets by the table's
        numbers and the choices made, as the tables wrote them before version 2."""
        return derived_of(record, self.game(record).wager)

    def upgrade(self, data: Mapping[str, Any]) -> RoundRecord:
        try:
            return _from_v1(data)
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            # IllegalMove and GameError are ValueErrors too
            raise RecordError(f"the version-1 record does not read: {exc!r}") from None

    def theoretical_rtp(self, game: str, variant: str, settings: Mapping[str, Any]
                        ) -> Mapping[str, Fraction]:
        """Each spot's exact RTP by its bet type, from ``pelisali odds`` (the engine's
        outcomes walked with fractions)."""
        return _spot_rtp(game, variant, json.dumps(settings, sort_keys=True))


@lru_cache(maxsize=64)
def _spot_rtp(game: str, variant: str, settings: str) -> Mapping[str, Fraction]:
    from pelisali.analysis.odds import exact_odds

    wager = make_game(game, variant or None, json.loads(settings))
    return _SpotTypes(wager, {odds.bet: odds.rtp for odds in exact_odds(wager)})


class _SpotTypes(dict[str, Fraction]):
    """RTP looked up by a wager game's spot key (``straight 17``) through its bet type."""

    def __init__(self, wager: WagerGame, by_type: dict[str, Fraction]) -> None:
        super().__init__()
        self.wager, self.by_type = wager, by_type

    def __missing__(self, spot: str) -> Fraction:
        rtp = self.by_type[self.wager.spot(spot).bet_type]
        self[spot] = rtp
        return rtp


FAMILY = WagerFamily()


def _numbers(record: RoundRecord) -> list[int]:
    """The table's number of each bet of the round, in the engine's order: the bets
    carried in from prison, then the bets the history places."""
    placed = sum(1 for m in record.history if m.actor != CHANCE and m.text.startswith("bet "))
    numbers = record.bet_numbers or list(range(len(record.prison) + 1,
                                               len(record.prison) + placed + 1))
    if len(numbers) != placed:
        raise RecordError(f"the record numbers {len(numbers)} bets and places {placed}")
    return [p.number for p in record.prison] + list(numbers)


def _placed(text: str) -> tuple[str, int]:
    """A ``bet SPOT CENTS`` move's spot and stake."""
    spot, _, stake = text.removeprefix("bet ").rpartition(" ")
    return spot, int(stake)


def derived_of(record: RoundRecord, wager: WagerGame) -> dict[str, Any]:
    """What a wager record shows besides its history, from the record alone: ``draws``
    (each device, the slot that came up and its face), ``result`` (the faces joined by
    ``-``, as a jackpot reads it), ``bets`` (by the table's numbers, with their prison
    level and whether they were carried in) and ``decisions`` (the choices made, by the
    table's bet number, those held for their turn included)."""
    devices = wager.devices
    faces = record.dealt()
    slots = record.draw_slots
    if len(faces) > len(devices) or (slots and len(slots) != len(faces)):
        raise RecordError(f"{len(faces)} draws and {len(slots)} slots for "
                          f"{len(devices)} devices")
    draws = []
    for i, face in enumerate(faces):
        device = devices[i]
        slot = slots[i] if slots else (device.slots.index(face) if face in device.slots
                                       else -1)
        if not 0 <= slot < len(device.slots) or device.slots[slot] != face:
            raise RecordError(f"{device.name} has no slot {slot} showing {face!r}")
        draws.append({"device": device.name, "slot": slot, "face": face})
    numbers = _numbers(record)
    bets = [{"bet_id": p.number, "player": record.players[p.seat], "spot": p.spot,
             "stake": p.stake, "level": p.level, "carried": True} for p in record.prison]
    placed = (m for m in record.history if m.actor != CHANCE and m.text.startswith("bet "))
    for number, move in zip(numbers[len(record.prison):], placed, strict=True):
        spot, stake = _placed(move.text)
        bets.append({"bet_id": number, "player": record.players[move.actor], "spot": spot,
                     "stake": stake, "level": 0, "carried": False})
    decisions: dict[str, str] = {}
    for text in [m.text for m in record.history if m.text.startswith("choose ")] + [
            h.text for h in record.ahead]:
        _, bet, option = text.split()
        decisions[str(numbers[int(bet) - 1])] = option
    return {"draws": draws, "result": "-".join(faces),
            "bets": sorted(bets, key=lambda b: int(b["bet_id"])), "decisions": decisions}


# -- a round at the table, seat by seat ----------------------------------------------------
class TableBet(NamedTuple):
    """A bet as the table keeps it (a bet row): its number in the round, its owner, the
    spot's key, the stake; a bet ``carried`` in from prison has its level."""

    number: int
    player: str
    spot: str
    stake: int
    level: int = 0
    carried: bool = False


@dataclass
class _Seat:
    """One player's part of a round: their bets carried in from prison and placed here
    (the table's numbers), and a one-seat engine state of their own holding them."""

    player: str
    carried: list[TableBet]
    placed: list[TableBet]
    state: WagerState
    closed: WagerState | None = None  # after "no more bets", before the draw
    deciding: bool = False  # drawn, and a choice of the seat's is still to be made

    def first(self) -> int:
        return min(b.number for b in (*self.carried, *self.placed))

    def numbers(self) -> list[int]:
        """The table's number of each of the seat state's bets, by the engine's bet id."""
        return [b.number for b in self.carried] + [b.number for b in self.placed]

    def after_draw(self, state: WagerState) -> None:
        self.state = state
        # Settled once no choice is left: the engine settles every bet of the seat then.
        self.deciding = not state.settlements if state.bets else not state.is_terminal()


@dataclass
class WagerRound:
    """A wager round as the table plays it: each player's one-seat state of ``engine``
    (:class:`_Seat`), the draw, and the record's fixed part (``base``: the game, the
    round and table, settings and limits). Bets and choices go through the engine; the
    round's record is composed from the seats (:meth:`record`)."""

    engine: TableWager
    base: RoundRecord
    seats: dict[str, _Seat] = field(default_factory=dict)
    next_number: int = 1
    draws: list[Draw] = field(default_factory=list)
    closed: bool = False
    # the players who stake from another account than their wallet: colour chips
    # (:mod:`pelisali.platform.colour_chips`), player to account
    chip_accounts: dict[str, str] = field(default_factory=dict)
    # once closed: each bet's number to its player and the seat state's bet id
    _where: dict[int, tuple[str, int]] = field(default_factory=dict)

    @property
    def wager(self) -> WagerGame:
        return self.engine.wager

    @property
    def round_id(self) -> int:
        return self.base.round_id

    # -- building ------------------------------------------------------------------------
    def _state(self, carried: Sequence[TableBet], placed: Sequence[TableBet]) -> WagerState:
        state = self.engine.new_round(Seats(1), [WagerBet(0, 0, b.spot, b.stake, b.level)
                                                 for b in carried])
        for bet in placed:
            state = as_wager(state.apply(PlaceBet(bet.spot, bet.stake)).state)
            if state.bets[-1].stake != bet.stake:  # the engine would return part of it
                raise IllegalMove(f"bet {bet.number}: {format_cents(bet.stake)} on {bet.spot} "
                                  f"is over the round's maximum")
        return state

    @classmethod
    def of_bets(cls, engine: TableWager, base: RoundRecord, bets: Iterable[TableBet]
                ) -> WagerRound:
        """The round open for bets with ``bets`` (the table's bet rows): each player's
        carried bets and placed bets replayed through the engine in their seat.
        :class:`~pelisali.engine.IllegalMove` if a bet does not replay."""
        rnd = cls(engine, base)
        ordered = sorted(bets, key=lambda b: b.number)
        mine: dict[str, tuple[list[TableBet], list[TableBet]]] = {}
        for bet in ordered:
            carried, placed = mine.setdefault(bet.player, ([], []))
            (carried if bet.carried else placed).append(bet)
        for player, (carried, placed) in mine.items():
            rnd.seats[player] = _Seat(player, carried, placed, rnd._state(carried, placed))
        rnd.next_number = (ordered[-1].number + 1) if ordered else 1
        return rnd

    @classmethod
    def of_record(cls, engine: TableWager, record: RoundRecord) -> WagerRound:
        """A round from its version-2 record, seat by seat: each seat's carried and placed
        bets, the draw, and the choices made (those held for their turn too)."""
        rnd = cls(engine, record.model_copy(update={
            "players": [], "prison": [], "bet_numbers": [], "history": [], "ahead": [],
            "draw_slots": [], "settlements": [], "rounding": "0/1"}))
        numbers = _numbers(record)
        players = record.players
        carried: list[list[TableBet]] = [[] for _ in players]
        placed: list[list[TableBet]] = [[] for _ in players]
        where: list[tuple[int, int]] = []  # engine bet id - 1 -> (seat, the seat's bet id)
        for p in record.prison:
            carried[p.seat].append(TableBet(p.number, players[p.seat], p.spot, p.stake,
                                            p.level, True))
            where.append((p.seat, len(carried[p.seat])))
        parser = FAMILY.start(record)
        faces: list[str] = []
        choices: list[tuple[int, str]] = []
        done = [False] * len(players)
        moves = [m.move(parser) for m in record.history]
        for move in moves:
            action = move.action
            if move.actor == CHANCE:
                faces.append(move.action.text())
            elif isinstance(action, PlaceBet):
                number = numbers[len(where)]
                placed[move.actor].append(TableBet(number, players[move.actor],
                                                   action.spot, action.stake))
                where.append((move.actor, len(carried[move.actor]) + len(placed[move.actor])))
            elif isinstance(action, EndBetting):
                done[move.actor] = True
            elif isinstance(action, Decide):
                choices.append((action.bet_id, action.option))
        for held in record.ahead:
            _, bet, option = held.text.split()
            choices.append((int(bet), option))
        for seat, player in enumerate(players):
            if not carried[seat] and not placed[seat]:
                raise RecordError(f"seat {seat} ({player}) has no bet in the round")
            rnd.seats[player] = _Seat(player, carried[seat], placed[seat],
                                      rnd._state(carried[seat], placed[seat]))
        rnd.next_number = max(numbers, default=0) + 1
        if faces:
            if not all(done):
                raise RecordError("the record draws before every seat is done")
            devices = engine.wager.devices
            slots = record.draw_slots or [devices[i].slots.index(f)
                                          for i, f in enumerate(faces)]
            rnd.draw([Draw(devices[i].name, slot, face)
                      for i, (slot, face) in enumerate(zip(slots, faces, strict=True))])
        for bet_id, option in choices:
            if not 0 < bet_id <= len(where):
                raise RecordError(f"the record chooses for bet {bet_id}, which it does not have")
            seat, local = where[bet_id - 1]
            found = rnd.seats[players[seat]]
            found.after_draw(as_wager(found.state.apply(Decide(local, option), seat=0).state))
        return rnd

    # -- betting ------------------------------------------------------------------------
    def place_slip(self, player: str, bets: Sequence[tuple[str, int]]
                   ) -> tuple[list[Receipt], list[str], int]:
        """Place a player's slip in their seat, whole or not at all: the receipts (each
        with the table's number of its bet), the spots' keys, and what the engine says the
        player staked. A refusal (:class:`~pelisali.games.GameError`,
        :class:`~pelisali.engine.IllegalMove`) changes nothing."""
        seat = self.seats.get(player)
        state = seat.state if seat is not None else self.engine.new_round(Seats(1))
        before = state
        receipts: list[Receipt] = []
        keys: list[str] = []
        added: list[TableBet] = []
        number = self.next_number
        known = self.engine.spots_by_key
        for spot, amount in bets:
            key = spot if spot in known else self.wager.spot(spot).key
            state = as_wager(state.apply(PlaceBet(key, amount)).state)
            accepted = state.bets[-1].stake
            returned = amount - accepted
            message = f"{format_cents(accepted)} on {key}" + (
                f": {format_cents(returned)} over the table maximum is void and returned"
                if returned else "")
            receipts.append(Receipt(number, accepted, returned, message))
            keys.append(key)
            added.append(TableBet(number, player, key, accepted))
            number += 1
        moved = table_layer.flows(before, state, FAMILY.paid).get(0)
        staked = moved.staked if moved is not None else 0
        if staked != sum(r.accepted for r in receipts):
            raise RecordError(f"{player}: the engine took {staked} cents for bets of "
                              f"{sum(r.accepted for r in receipts)}")
        if seat is None:
            self.seats[player] = _Seat(player, [], added, state)
        else:
            seat.placed.extend(added)
            seat.state = state
        self.next_number = number
        return receipts, keys, staked

    def take_back(self, player: str, numbers: Iterable[int]) -> None:
        """Withdraw a player's bets before "no more bets" (a slip the wallet refused)."""
        seat = self.seats[player]
        gone = set(numbers)
        seat.placed = [b for b in seat.placed if b.number not in gone]
        if not seat.placed and not seat.carried:
            del self.seats[player]
        else:
            seat.state = self._state(seat.carried, seat.placed)

    def bet_count(self) -> int:
        return sum(len(s.carried) + len(s.placed) for s in self.seats.values())

    # -- the draw and the choices -------------------------------------------------------------
    def draw(self, draws: Sequence[Draw]) -> None:
        """No more bets, and the draw (each device's slot): every seat says it is done
        and the engine takes each face as a chance outcome."""
        if self.closed:
            raise IllegalMove(f"round {self.round_id} is closed: no more bets")
        faces = self.wager.outcome_of(draws)  # GameError unless each device's own slot
        outcomes = [ChanceOutcome(face) for face in faces]
        if not self.seats:  # nobody bet: the wheel still spins, and the engine checks it
            empty: State = self.engine.new_round(Seats(0))
            for outcome in outcomes:
                empty = empty.apply(outcome).state
        for seat in self.seats.values():
            state = as_wager(seat.state.apply(EndBetting()).state)
            seat.closed = state
            for outcome in outcomes:
                state = as_wager(state.apply(outcome).state)
            seat.after_draw(state)
        self.draws = list(draws)
        self.closed = True
        self._where = {number: (seat.player, local)
                       for seat in self.seats.values()
                       for local, number in enumerate(seat.numbers(), start=1)}

    def pending(self, player: str | None = None) -> dict[int, list[str]]:
        """The choices still to make, by the table's bet number (of ``player`` alone)."""
        out: dict[int, list[str]] = {}
        for seat in self.seats.values():
            if not seat.deciding or (player is not None and seat.player != player):
                continue
            numbers = seat.numbers()
            for bet, options in seat.state.view(0)["choices"].items():
                out[numbers[int(bet) - 1]] = list(options)
        return dict(sorted(out.items()))

    def decide(self, number: int, option: str) -> None:
        """The owner's choice for bet ``number``: :class:`~pelisali.engine.IllegalMove`
        unless the bet offers it."""
        found = self._where.get(number)
        if found is None or not self.seats[found[0]].deciding:
            raise IllegalMove(f"bet {number} has no choice to make")
        player, local = found
        seat = self.seats[player]
        try:
            step = seat.state.apply(Decide(local, option), seat=0)
        except IllegalMove as exc:  # the engine names the seat's own bet: name the table's
            if str(exc).startswith(f"bet {local} "):
                raise IllegalMove(f"bet {number} has no choice to make") from None
            raise
        seat.after_draw(as_wager(step.state))

    @property
    def settled(self) -> bool:
        return self.closed and not any(s.deciding for s in self.seats.values())

    # -- what it came to -----------------------------------------------------------------
    def settlements(self) -> list[Settlement]:
        """Every bet's settlement, by the table's bet number (the part of a cent kept
        exact, as the engine has it)."""
        out = []
        for seat in self.seats.values():
            numbers = seat.numbers()
            out += [Settlement(numbers[s.bet_id - 1], seat.player, s.spot, s.stake, s.paid,
                               s.rounding, s.result, s.held_level)
                    for s in seat.state.settlements]
        return sorted(out, key=lambda s: s.bet_id)

    def account_of(self, player: str) -> str:
        """The account the player stakes from and is paid to: the wallet, or their
        colour chips at this table."""
        return self.chip_accounts.get(player) or accounts.wallet_code(player)

    def payouts(self) -> dict[str, int]:
        """What the engine paid from the draw to the settlement, by ledger account: each
        wallet what its seat was paid, the bank the opposite (the stakes on the table
        and in prison are the bank's until then)."""
        out: dict[str, int] = {}
        for seat in self.seats.values():
            if seat.closed is None:
                continue
            moved = table_layer.flows(seat.closed, seat.state, FAMILY.paid).get(0)
            if moved is not None and moved.paid:
                code = self.account_of(seat.player)
                out[code] = out.get(code, 0) + moved.paid
                out[BANK] = out.get(BANK, 0) - moved.paid
        return out

    def staked(self) -> dict[str, int]:
        """What each wallet put on the table in this round, as the engine holds it (the
        bets carried in from prison were staked before): what a void gives back."""
        out: dict[str, int] = {}
        for seat in self.seats.values():
            start = self.engine.new_round(Seats(1), [WagerBet(0, 0, b.spot, b.stake, b.level)
                                                     for b in seat.carried])
            moved = table_layer.flows(start, seat.state, FAMILY.paid).get(0)
            if moved is not None and moved.staked:
                code = self.account_of(seat.player)
                out[code] = out.get(code, 0) + moved.staked
        if out:
            out[BANK] = -sum(out.values())
        return out

    def record(self, status: RoundStatus, settlements: Sequence[Settlement] = (),
               void_reason: str | None = None) -> RoundRecord:
        """The round's record: one contract history for the whole table (a seat for each
        player in the order of their first bet, each placing its bets and saying it is
        done; the draw; the choices in the order the engine asks for them, and the ones
        made before their turn held in ``ahead``)."""
        seats = sorted(self.seats.values(), key=_Seat.first)
        prison: list[dict[str, Any]] = sorted(
            ({"number": b.number, "seat": i, "spot": b.spot, "stake": b.stake, "level": b.level}
             for i, seat in enumerate(seats) for b in seat.carried), key=lambda p: p["number"])
        engine_id = {(p["seat"], p["number"]): n for n, p in enumerate(prison, start=1)}
        history: list[dict[str, Any]] = []
        numbers: list[int] = []
        done = EndBetting().text()
        for i, seat in enumerate(seats):
            for bet in seat.placed:
                history.append({"actor": i, "text": PlaceBet(bet.spot, bet.stake).text()})
                numbers.append(bet.number)
                engine_id[(i, bet.number)] = len(prison) + len(numbers)
            if self.closed or i < len(seats) - 1:
                history.append({"actor": i, "text": done})
        history += [{"actor": CHANCE, "text": d.face} for d in self.draws]
        # The choices, in the engine's order: bet by bet, each when its owner is asked.
        chosen: list[tuple[int, int, str | None]] = []  # engine bet id, seat, option
        for i, seat in enumerate(seats):
            if seat.closed is None or not (seat.state.decisions or seat.deciding):
                continue
            local = seat.numbers()
            made = dict(seat.state.decisions)
            waiting = seat.state.view(0)["choices"] if seat.deciding else {}
            for local_id in [*made, *(int(b) for b in waiting)]:
                chosen.append((engine_id[(i, local[local_id - 1])], i, made.get(local_id)))
        ahead: list[dict[str, Any]] = []
        asked = True
        for bet_id, seat_index, option in sorted(chosen):
            asked = asked and option is not None
            if option is None:
                continue
            text = Decide(bet_id, option).text()
            if asked:
                history.append({"actor": seat_index, "text": text})
            else:
                ahead.append({"actor": seat_index, "text": text, "turn": f"bet {bet_id}"})
        return RoundRecord.model_validate({
            **self._base, "status": status, "players": [s.player for s in seats],
            "prison": prison, "bet_numbers": numbers, "history": history, "ahead": ahead,
            "draw_slots": [d.slot for d in self.draws],
            "settlements": [s.to_json() for s in settlements],
            "rounding": _fraction_text(rounding_of(settlements)), "void_reason": void_reason})

    @cached_property
    def _base(self) -> dict[str, Any]:
        return self.base.model_dump()


def rounding_of(settlements: Iterable[Settlement]) -> Fraction:
    """The parts of a cent the settlements were paid down by, together."""
    return sum((s.rounding for s in settlements if s.rounding), Fraction(0))


def base_record(game_id: str, round_id: int, table: str, mode: str, opened_at: str | None,
                settings: Mapping[str, str | bool], limits: Limits) -> RoundRecord:
    """A wager round's record before any bet: the game and where and when it is played."""
    return RoundRecord(game=game_id, round_id=round_id, table=table, venue=VENUE, mode=mode,
                       opened_at=opened_at, status=BETTING, settings=dict(settings),
                       limits=LimitsRecord(min=limits.minimum, max=limits.maximum))


# -- records of version 1 ------------------------------------------------------------------
_V1_STATUS = {"settled": SETTLED, "void": VOID, "deciding": DECIDING}


def _from_v1(data: Mapping[str, Any]) -> RoundRecord:
    """A record as :meth:`pelisali.games.round.Round.record` wrote it, as version 2."""
    status = _V1_STATUS.get(str(data.get("status")))
    if status is None:
        raise RecordError(f"a version-1 wager record is settled, void or deciding, not "
                          f"{data.get('status')!r}")
    game_id = game_id_of(str(data["game"]), data.get("variant") or None)
    limits = data["limits"]
    engine = wager_engine(game_id, json.dumps(data.get("settings") or {}, sort_keys=True),
                          int(limits["min"]), int(limits["max"]))
    base = base_record(game_id, int(data["round_id"]), str(data.get("table") or ""),
                       str(data.get("mode") or "rng"), data.get("opened_at"),
                       data.get("settings") or {}, Limits(int(limits["min"]),
                                                          int(limits["max"])))
    base = base.model_copy(update={"venue": data.get("venue") or VENUE})
    bets = [TableBet(int(b["bet_id"]), str(b["player"]), str(b["spot"]), int(b["stake"]),
                     int(b.get("level") or 0), bool(b.get("carried")))
            for b in data["bets"]]
    rnd = WagerRound.of_bets(engine, base, bets)
    draws = [Draw(str(d["device"]), int(d["slot"]), str(d["face"]))
             for d in data.get("draws") or []]
    if draws:
        rnd.draw(draws)
        for number, option in sorted((int(n), str(o))
                                     for n, o in (data.get("decisions") or {}).items()):
            rnd.decide(number, option)
    settlements = [SettlementRecord.model_validate(s).settlement()
                   for s in data.get("settlements") or []]
    record = rnd.record(status, settlements, data.get("void_reason"))
    if status == SETTLED and not rnd.settled:
        raise RecordError("the recorded draws and decisions do not finish the round")
    return record
