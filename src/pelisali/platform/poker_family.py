"""The poker cash tables as a family of the table layer.

What the table layer (:mod:`pelisali.platform.table_layer`) needs to know of a poker
table, and how a table plays a hand on the contract engine:

- **The engine** of a table is :meth:`PokerEngine.for_variant
  <pelisali.engine.poker.PokerEngine.for_variant>` with the table's game, stakes, rake
  and bad-beat drop (:func:`poker_engine`); a record keeps them as its ``settings``
  (:func:`engine_settings`).
- **A hand in play** (:class:`HandInPlay`) is an immutable value: the contract state,
  the players in the engine's seats with their seats at the table, and the deck the
  table shuffled for the hand. Each move makes the next value; whenever the engine asks
  chance for a card, the next card of that deck is dealt (:meth:`HandInPlay.dealt`). A
  deck is shuffled with the table's generator as the hand engine always shuffled it, so
  a seed deals the cards it always dealt; when a draw game's stub runs short, the cards
  thrown so far are shuffled in deck order, and a deal nobody opened gets a fresh deck.
- :class:`TableHand` is the hand a cash table hands out: a
  :class:`~pelisali.poker.table.PokerHand` to read, as clients always read one, whose
  moves (``act``, ``discard``, ``draw``) are applied to the contract state.
- **A hand's record** is a :class:`~pelisali.platform.table_layer.RoundRecord` of
  version 2: the engine's id and settings, the players in its seats, their ``stacks``
  and the ``button`` at the start, the contract history, the status, and ``poker``
  (:class:`PokerHandRecord`): the table's hand number, each player's seat at the
  table, the seats not dealt in, the bad-beat jackpot as the hand found it, the result
  (finishing stacks, rake, jackpot drop, shares, the house's top-up) and the last
  transfer the table account had when the hand was recorded. The record shows beside
  it, for readers, as the tables wrote them before (:meth:`PokerFamily.derived`,
  checked by recall): the table's ``hand`` number, the hand as a PHH text (``phh``, with
  its players), the ``rake``, the ``jackpot`` and the table's ``seats`` after the hand.
- **Records of version 1** (the PHH-based JSON :mod:`pelisali.platform.poker_tables`
  wrote before) are read by :meth:`PokerFamily.upgrade`: the PHH's cards become chance
  outcomes and its actions the seats' moves where the engine asks for them.

>>> from pelisali.rng import SeededRng
>>> settings = TableSettings("holdem", "no-limit", 1, 2, 100)
>>> engine = poker_engine(engine_settings(settings, 0, 0))
>>> start = engine.new_state(Seats.with_stacks([100, 100], button=1))
>>> play = HandInPlay(("ann", "bob"), (0, 4), start, start,
...                   tuple(["As", "Ad", "Ks", "Kd"] + [c for c in DECK if c[0] not in "AK"]))
>>> hand = TableHand(play.dealt(SeededRng(1)), SeededRng(1))
>>> hand.hole, hand.actor   # seat 0, left of the button, is dealt first
([['As', 'Ad'], ['Ks', 'Kd']], 1)
>>> hand.act("fold")
>>> hand.finished, hand.stacks, [m.text() for m in hand.play.state.history][-1]
(True, [101, 99], 'seat 1: fold')
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from fractions import Fraction
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pelisali.cards import DECK
from pelisali.engine import CHANCE, Action, ChanceOutcome, IllegalMove, Seats, State
from pelisali.engine.poker import CheckCall, Discard, Draw, Fold, PokerEngine, PokerState, RaiseTo
from pelisali.money import format_cents
from pelisali.platform import table_layer
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.table_layer import MoveRecord, RecordError, RoundRecord, SettlementRecord
from pelisali.poker.dealing import CardSource, ChanceCards
from pelisali.poker.games import low_name, make_variant
from pelisali.poker.jackpot import BadBeatJackpot, BadBeatRules, JackpotError
from pelisali.poker.table import PokerError, PokerHand, PokerVariant
from pelisali.rng import Rng, shuffle

__all__ = [
    "FAMILY",
    "HandInPlay",
    "JackpotRecord",
    "Outcome",
    "PokerFamily",
    "PokerHandRecord",
    "ResultRecord",
    "Seat",
    "SeatRecord",
    "TableHand",
    "TableSettings",
    "as_poker",
    "bad_beat_rules",
    "engine_settings",
    "outcome",
    "phh_text",
    "poker_engine",
    "recall_view",
    "rules_json",
]

VENUE = "pelisali"


# -- the table's settings and its engine --------------------------------------------------
@dataclass(frozen=True)
class TableSettings:
    """A poker table's settings, as kept in ``GameTable.settings`` (JSON)."""

    game: str
    structure: str
    small_blind: int
    big_blind: int
    min_buy_in: int
    ante: int = 0
    bring_in: int = 0
    rake: Fraction = Fraction(0)  # of the chips bet in a hand (RAY 1.4.1.1.1 A)
    rake_cap: int | None = None
    low: bool = False
    hi_lo: bool = False
    low_rule: str | None = None
    qualifier: str | None = None
    draws: int | None = None
    jackpot: str | None = None  # the bad-beat jackpot's name
    bad_beat: dict[str, Any] | None = None  # qualifying, min_players, the three shares
    openers: bool = False  # Five Card Draw: jacks or better to open, on antes alone
    # RAY 1.4.1.1.1 B: a time charge per player, in cents every so many minutes (announced)
    time_charge: int | None = None
    time_charge_minutes: int | None = None
    # RULINGS: a fold when a check is free (the client asks to confirm), and losing hands
    # mucked at showdown rather than shown (online play)
    fold_when_check_free: bool = False
    auto_muck: bool = False

    def variant(self) -> PokerVariant:
        return make_variant(self.game, self.structure, low=self.low, hi_lo=self.hi_lo,
                            low_rule=self.low_rule, qualifier=self.qualifier,
                            draws=self.draws, openers=self.openers)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "structure": self.structure,
                "small_blind": self.small_blind, "big_blind": self.big_blind,
                "min_buy_in": self.min_buy_in, "ante": self.ante, "bring_in": self.bring_in,
                "rake": str(self.rake), "rake_cap": self.rake_cap, "low": self.low,
                "hi_lo": self.hi_lo, "low_rule": self.low_rule, "qualifier": self.qualifier,
                "draws": self.draws, "jackpot": self.jackpot, "bad_beat": self.bad_beat,
                "openers": self.openers}
        if self.time_charge is not None:  # a table without one is stored as it always was
            out["time_charge"] = self.time_charge
            out["time_charge_minutes"] = self.time_charge_minutes
        for name in ("fold_when_check_free", "auto_muck"):  # likewise
            if getattr(self, name):
                out[name] = True
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        """The settings as stored; a table stored before ``openers`` was a setting has
        none (``openers=False``)."""
        return cls(**{**data, "rake": Fraction(data["rake"])})

    def describe(self) -> str:
        """The table as shown to players: game, blinds, buy-in and the fee rule."""
        fee = (f"rake {float(self.rake) * 100:g} %"
               + (f" (at most {format_cents(self.rake_cap)} a hand)"
                  if self.rake_cap is not None else "")) if self.rake else "no rake"
        if self.time_charge is not None:  # RAY 1.4.1.1.1 B: the amount is announced
            fee = (f"time charge {format_cents(self.time_charge)} per player every "
                   f"{self.time_charge_minutes} min")
        if self.openers:
            forced = (f"antes {format_cents(self.ante)}, jacks or better to open, smallest "
                      f"bet {format_cents(self.big_blind)}")
        elif self.bring_in:  # stud: antes and a bring-in, no blinds
            forced = (f"antes {format_cents(self.ante)}, bring-in "
                      f"{format_cents(self.bring_in)}, smallest bet "
                      f"{format_cents(self.big_blind)}")
        else:
            forced = (f"blinds {format_cents(self.small_blind)}/"
                      f"{format_cents(self.big_blind)}"
                      + (f", antes {format_cents(self.ante)}" if self.ante else ""))
        variant = self.variant()
        if variant.low is not None:  # which low is played, so no one has to guess
            half = "low" if variant.high is None else "hi/lo"
            forced = f"{half} ({low_name(variant.low)}), {forced}"
        return (f"{self.game} {self.structure}, {forced}, minimum buy-in "
                f"{format_cents(self.min_buy_in)}, {fee}"
                + (f", bad-beat jackpot {self.jackpot}" if self.jackpot else "")
                + (", a fold when a check is free is taken" if self.fold_when_check_free
                   else "")
                + (", losing hands are mucked at showdown" if self.auto_muck else ""))


def rules_json(rules: BadBeatRules) -> dict[str, Any]:
    """A bad-beat jackpot's rules as a table's settings keep them (the contribution and
    the guaranteed minimum are the ``Jackpot`` row's)."""
    return {"qualifying": rules.qualifying, "min_players": rules.min_players,
            "losing_share": str(rules.losing_share), "winning_share": str(rules.winning_share),
            "table_share": str(rules.table_share)}


def bad_beat_rules(data: Mapping[str, Any], contribution: int, minimum: int) -> BadBeatRules:
    return BadBeatRules(int(data["qualifying"]), int(data["min_players"]), contribution,
                        Fraction(data["losing_share"]), Fraction(data["winning_share"]),
                        Fraction(data["table_share"]), minimum)


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def engine_settings(table: TableSettings, jackpot_drop: int, jackpot_min_players: int
                    ) -> dict[str, str | bool]:
    """What makes a table's engine, as a record keeps it: the game and its version, the
    stakes, the rake and the bad-beat drop (numbers as text; settings left unset are
    left out, and ``openers`` unless the table has it, so a record of a table without
    it reads as before).

    >>> engine_settings(TableSettings("stud", "limit", 50, 100, 2_000, 10, 50), 0, 0)["bring_in"]
    '50'
    """
    out: dict[str, str | bool] = {
        "game": table.game, "structure": table.structure, "low": table.low,
        "hi_lo": table.hi_lo, "small_blind": str(table.small_blind),
        "big_blind": str(table.big_blind), "ante": str(table.ante),
        "bring_in": str(table.bring_in), "rake": _fraction(table.rake),
        "jackpot_drop": str(jackpot_drop), "jackpot_min_players": str(jackpot_min_players)}
    for name, value in (("low_rule", table.low_rule), ("qualifier", table.qualifier),
                        ("draws", table.draws), ("rake_cap", table.rake_cap)):
        if value is not None:
            out[name] = str(value)
    for name in ("openers", "fold_when_check_free", "auto_muck"):
        if getattr(table, name):
            out[name] = True
    return out


def poker_engine(settings: Mapping[str, str | bool]) -> PokerEngine:
    """The contract engine of a record's (or a table's) :func:`engine_settings`."""
    return _engine(json.dumps(dict(settings), sort_keys=True))


@lru_cache(maxsize=256)
def _engine(settings: str) -> PokerEngine:
    """Shared by the tables and hands of one game and stakes (an engine holds only rules)."""
    chosen = json.loads(settings)

    def number(name: str) -> int | None:
        value = chosen.get(name)
        return None if value is None else int(value)

    try:
        variant = make_variant(chosen["game"], chosen["structure"], low=bool(chosen["low"]),
                               hi_lo=bool(chosen["hi_lo"]), low_rule=chosen.get("low_rule"),
                               qualifier=chosen.get("qualifier"), draws=number("draws"),
                               openers=bool(chosen.get("openers", False)))
        return PokerEngine.for_variant(
            variant, int(chosen["small_blind"]), int(chosen["big_blind"]),
            ante=int(chosen["ante"]), bring_in=int(chosen["bring_in"]),
            fee_percent=Fraction(chosen["rake"]), fee_cap=number("rake_cap"),
            jackpot_drop=int(chosen["jackpot_drop"]),
            jackpot_min_players=int(chosen["jackpot_min_players"]),
            fold_when_check_free=bool(chosen.get("fold_when_check_free", False)),
            auto_muck=bool(chosen.get("auto_muck", False)))
    except (PokerError, IllegalMove, KeyError, ValueError, TypeError) as exc:
        raise RecordError(f"no poker engine for these settings: {exc}") from None


def as_poker(state: State) -> PokerState:
    if not isinstance(state, PokerState):
        raise RecordError("not a poker hand")
    return state


# -- the record ----------------------------------------------------------------------------
class SeatRecord(BaseModel):
    """A seat of the table: its number, player, chips and whether they sit out."""

    model_config = ConfigDict(frozen=True)

    seat: int
    player: str
    chips: int
    sitting_out: bool = False


class JackpotRecord(BaseModel):
    """The bad-beat jackpot as the hand found it: its rules, the drop a qualifying hand
    pays (``drop``), the guaranteed ``minimum``, the ``pool`` before the hand, and whether
    a player showed cards during the hand (``revealed``: the jackpot is refused)."""

    model_config = ConfigDict(frozen=True)

    name: str
    qualifying: int
    min_players: int
    losing_share: str
    winning_share: str
    table_share: str
    drop: int
    minimum: int
    pool: int
    revealed: bool = False

    @classmethod
    def of(cls, name: str, rules: BadBeatRules, pool: int, revealed: bool) -> JackpotRecord:
        return cls(name=name, **rules_json(rules), drop=rules.contribution,
                   minimum=rules.guaranteed_minimum, pool=pool, revealed=revealed)

    def rules(self) -> BadBeatRules:
        return bad_beat_rules(self.model_dump(), self.drop, self.minimum)


class ResultRecord(BaseModel):
    """A hand's result: each engine seat's finishing stack, the house's rake, the
    bad-beat jackpot's drop, the jackpot's shares by player and what the house added to
    the pool for its guaranteed minimum."""

    model_config = ConfigDict(frozen=True)

    finishing_stacks: list[int]
    rake: int
    jackpot_drop: int = 0
    shares: dict[str, int] = Field(default_factory=dict)
    topped_up: int = 0


class PokerHandRecord(BaseModel):
    """What a poker hand's record holds besides the contract's (``RoundRecord.poker``).

    ``table_seats``: each engine seat's seat at the table; ``others``: the seated players
    not dealt in; ``sitting_out``: which of the engine's seats sat out when the hand was
    recorded (a player whose time ran out); ``after_transfer``: the last transfer of the
    table account when the hand was recorded (the buy-ins and cash-outs after it are
    the seats' since).
    """

    model_config = ConfigDict(frozen=True)

    hand: int
    table_seats: list[int]
    sitting_out: list[bool] = Field(default_factory=list)
    others: list[SeatRecord] = Field(default_factory=list)
    jackpot: JackpotRecord | None = None
    result: ResultRecord
    after_transfer: int = 0

    @classmethod
    def of(cls, record: RoundRecord) -> PokerHandRecord:
        if record.poker is None:
            raise RecordError(f"round {record.round_id} is not a poker hand's record")
        try:
            return cls.model_validate(record.poker)
        except ValidationError as exc:
            raise RecordError(f"the poker record does not read: {exc.errors()[0]['loc']} "
                              f"{exc.errors()[0]['msg']}") from None

    def seats_after(self, players: Sequence[str]) -> list[SeatRecord]:
        """The table's seats after the hand: the players of the hand with their finishing
        stacks and jackpot shares, and the others as they were."""
        result = self.result
        dealt = [SeatRecord(seat=seat, player=name,
                            chips=result.finishing_stacks[i] + result.shares.get(name, 0),
                            sitting_out=bool(self.sitting_out and self.sitting_out[i]))
                 for i, (seat, name) in enumerate(zip(self.table_seats, players, strict=True))]
        return sorted([*dealt, *self.others], key=lambda s: s.seat)


@dataclass(frozen=True)
class Outcome:
    """What a finished hand came to: the finishing stacks (by engine seat), the rake, the
    jackpot's drop, and the bad-beat jackpot's settlement (shares, top-up, events)."""

    finishing_stacks: list[int]
    rake: int
    drop: int
    shares: dict[str, int]
    topped_up: int
    events: list[str]

    def result(self) -> ResultRecord:
        return ResultRecord(finishing_stacks=self.finishing_stacks, rake=self.rake,
                            jackpot_drop=self.drop, shares=self.shares,
                            topped_up=self.topped_up)


def outcome(state: PokerState, players: Sequence[str], jackpot: JackpotRecord | None
            ) -> Outcome:
    """A finished hand's :class:`Outcome`; the bad-beat jackpot settles with the pool the
    hand found, judged by the game's criteria (:meth:`PokerHand.bad_beat_hands`: high
    hands with the game's hole cards playing, each Double Flop board on its own). The
    first board that triggers it pays it; the jackpot pays once a hand."""
    hand = state.hand
    accounts = state.accounts()
    shares: dict[str, int] = {}
    topped_up = 0
    events: list[str] = []
    if jackpot is not None:
        pool = BadBeatJackpot(jackpot.rules(), amount=jackpot.pool)
        for board in hand.bad_beat_hands():
            showdown = {players[p]: value for p, value in board.items()}
            payout = pool.settle(showdown, list(players), jackpot.revealed)
            if payout is not None:
                shares = dict(payout.shares)
                topped_up = pool.amount - payout.seed
                break
        events = [str(e["event"]) for e in pool.history]
    return Outcome(list(hand.stacks), accounts["fee"], accounts["jackpot"], shares,
                   topped_up, events)


def phh_text(state: PokerState, players: Sequence[str]) -> str:
    """The hand as a PHH file, with its players from the dealer's left (the button last)."""
    hand = state.hand
    n = hand.players
    order = [(hand.button + 1 + i) % n for i in range(n)]
    return hand.phh() + f"players = {json.dumps([players[p] for p in order])}\n"


def recall_view(record: RoundRecord, result: ResultRecord) -> dict[str, Any]:
    """A hand's result as recall shows it (as the tables always showed it): the finishing
    stacks from the dealer's left, the rake, the jackpot's contribution and shares, and
    the chips each player of the hand had after it."""
    stacks, shares, n = result.finishing_stacks, result.shares, len(record.players)
    if len(stacks) != n:
        raise RecordError(f"{len(stacks)} finishing stacks for {n} players")
    order = [(record.button + 1 + i) % n for i in range(n)]
    return {"finishing_stacks": [stacks[p] for p in order], "rake": result.rake,
            "contribution": result.jackpot_drop, "shares": dict(shares),
            "chips": {name: stacks[p] + shares.get(name, 0)
                      for p, name in enumerate(record.players)}}


# -- the family ----------------------------------------------------------------------------
class PokerFamily(table_layer.Family):
    """Poker cash tables for the table layer."""

    def game(self, record: RoundRecord) -> PokerEngine:
        engine = poker_engine(record.settings)
        if engine.game_id != record.game:
            raise RecordError(f"the settings make {engine.game_id!r}, the record says "
                              f"{record.game!r}")
        return engine

    def settlements(self, state: State, record: RoundRecord) -> list[SettlementRecord]:
        """None: a poker hand settles no bets; its result is the chips
        (:class:`ResultRecord`)."""
        return []

    def paid(self, state: State) -> tuple[int, ...]:
        """The chips each seat took from the pots."""
        return tuple(as_poker(state).hand.winnings)

    def derived(self, state: State, record: RoundRecord) -> dict[str, Any]:
        """As the tables wrote them before version 2: the table's ``hand`` number, the hand
        as PHH, the rake, the bad-beat jackpot, and the table's seats after the hand
        (``[seat, player, chips, sitting out]``)."""
        found = as_poker(state)
        poker = PokerHandRecord.of(record)
        result = outcome(found, record.players, poker.jackpot)
        jp = poker.jackpot
        after = poker.model_copy(update={"result": result.result()})
        return {
            "hand": poker.hand,
            "phh": phh_text(found, record.players),
            "rake": result.rake,
            "jackpot": None if jp is None else {
                "name": jp.name, "rules": rules_json(jp.rules()),
                "contribution_rule": jp.drop, "minimum": jp.minimum, "pool": jp.pool,
                "contribution": result.drop, "revealed": jp.revealed,
                "shares": result.shares, "topped_up": result.topped_up,
                "events": result.events},
            "seats": [[s.seat, s.player, s.chips, s.sitting_out]
                      for s in after.seats_after(record.players)],
        }

    def upgrade(self, data: Mapping[str, Any]) -> RoundRecord:
        try:
            return _from_v1(data)
        except (RecordError, PokerError, JackpotError):
            raise
        except (KeyError, TypeError, ValueError, IndexError,
                tomllib.TOMLDecodeError) as exc:  # IllegalMove is a ValueError
            raise RecordError(f"the version-1 record does not read: {exc!r}") from None


FAMILY = PokerFamily()


# -- records of version 1 ----------------------------------------------------------------
def _cards(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def _from_v1(data: Mapping[str, Any]) -> RoundRecord:
    """A hand as the tables recorded it before version 2 (the table's ``settings``, the
    ``players`` by their place in the hand, the PHH text with its players from the dealer's
    left, the ``rake``, the ``jackpot``, the table's ``seats`` after the hand, its
    ``button`` and ``after_transfer``) as version 2: the PHH's cards are dealt where the
    engine asks chance for a card and its actions taken where it asks a seat."""
    settings = TableSettings.from_json(dict(data["settings"]))
    phh = tomllib.loads(data["phh"])
    names: list[str] = list(data["players"])  # by their place in the hand (engine seats)
    in_phh: list[str] = list(phh["players"])  # from the dealer's left; the button is last
    n = len(names)
    if sorted(names) != sorted(in_phh) or len(phh["starting_stacks"]) != n:
        raise RecordError("the PHH's players are not the hand's")
    button = names.index(in_phh[-1])
    order = [(button + 1 + i) % n for i in range(n)]  # PHH player k is engine seat order[k-1]
    if [names[p] for p in order] != in_phh:
        raise RecordError("the PHH's seating order is not the table's")
    starting = [0] * n
    finishing = [0] * n
    for k, seat in enumerate(order):
        starting[seat] = int(phh["starting_stacks"][k])
        finishing[seat] = int(phh["finishing_stacks"][k])
    jp = data.get("jackpot")
    jackpot = None
    if jp is not None:
        rules = bad_beat_rules(jp["rules"], int(jp["contribution_rule"]), int(jp["minimum"]))
        jackpot = JackpotRecord.of(str(jp["name"]), rules, int(jp["pool"]),
                                   bool(jp["revealed"]))
    seated = {name: (int(seat), int(chips), bool(out))
              for seat, name, chips, out in data["seats"]}
    if any(name not in seated for name in names):
        raise RecordError("a player of the hand is not in the table's seats")
    shares = {str(k): int(v) for k, v in (jp["shares"] if jp else {}).items()}
    for seat, name in enumerate(names):  # the chips after the hand are its result
        if seated[name][1] != finishing[seat] + shares.get(name, 0):
            raise RecordError(f"the record's seats give {name} {seated[name][1]}, the hand "
                              f"{finishing[seat] + shares.get(name, 0)}")
    poker = PokerHandRecord(
        hand=int(data["hand"]), table_seats=[seated[name][0] for name in names],
        sitting_out=[seated[name][2] for name in names],
        others=[SeatRecord(seat=s, player=name, chips=c, sitting_out=o)
                for name, (s, c, o) in seated.items() if name not in names],
        jackpot=jackpot,
        result=ResultRecord(finishing_stacks=finishing, rake=int(data["rake"]),
                            jackpot_drop=int(jp["contribution"]) if jp else 0, shares=shares,
                            topped_up=int(jp["topped_up"]) if jp else 0),
        after_transfer=int(data.get("after_transfer", 0)))
    drop, least = (jackpot.drop, jackpot.min_players) if jackpot else (0, 0)
    record = RoundRecord(
        game=poker_engine(engine_settings(settings, drop, least)).game_id,
        round_id=int(data["round_id"]), table=str(data.get("table") or ""), venue=VENUE,
        status=RoundStatus.SETTLED, settings=engine_settings(settings, drop, least),
        players=names, stacks=starting, button=button,
        poker=poker.model_dump(mode="json"))
    state = table_layer.rebuild(record, FAMILY)
    return record.with_state(_walk_v1(as_poker(state), phh["actions"], order))


def _walk_v1(state: PokerState, actions: Sequence[str], order: Sequence[int]) -> PokerState:
    """Deal a version-1 PHH's cards and take its actions where the engine asks for them.
    The PHH lists a draw's new cards after everyone's discards; the engine deals each
    player's at once, so cards and actions are taken from two queues."""
    cards: list[str] = []
    moves: list[tuple[int, Action]] = []
    for entry in actions:
        words = entry.split()
        if words[0] == "d" and words[1] in ("dh", "db", "db2"):
            cards += _cards(words[-1])
        elif words[1] != "sm":  # a show is the engine's own
            moves.append((order[int(words[0].removeprefix("p")) - 1], _v1_action(words)))
    dealt, taken = iter(cards), iter(moves)
    while (mover := state.to_move()) is not None:
        if mover == CHANCE:
            card = next(dealt, None)
            if card is None:
                break
            state = as_poker(state.apply(ChanceOutcome(card)).state)
            continue
        move = next(taken, None)
        if move is None:
            break
        seat, action = move
        state = as_poker(state.apply(action, seat=seat).state)
    if next(dealt, None) is not None or next(taken, None) is not None:
        raise RecordError("the PHH's cards and actions do not fit the hand")
    if not state.is_terminal():
        raise RecordError("the recorded actions do not finish the hand")
    return state


def _v1_action(words: Sequence[str]) -> Action:
    verb = words[1]
    if verb == "f":
        return Fold()
    if verb in ("cc", "pb"):  # check or call; the bring-in
        return CheckCall()
    if verb == "cbr":
        return RaiseTo(int(words[2]))
    if verb == "discard":
        return Discard(words[2])
    if verb == "sd":
        return Draw(tuple(_cards(words[2]) if len(words) > 2 else ()))
    raise RecordError(f"unknown PHH action {' '.join(words)!r}")


# -- a hand in play --------------------------------------------------------------------------
@dataclass(frozen=True)
class Seat:
    """A seat at a cash table: a value; a change of chips or sitting out makes another."""

    player: str
    chips: int
    sitting_out: bool = False


@dataclass(frozen=True)
class HandInPlay:
    """A hand at a cash table between two moves: the players in the engine's seats and
    their seats at the table, the state the hand started in and the state now (contract
    states, immutable), the deck's cards still to come and the deals nobody opened so
    far. Every move makes the next value (:meth:`then`)."""

    players: tuple[str, ...]
    table_seats: tuple[int, ...]
    start: PokerState
    state: PokerState
    deck: tuple[str, ...]
    redeals: int = 0
    started: datetime | None = None

    @classmethod
    def deal(cls, engine: PokerEngine, players: Sequence[str], table_seats: Sequence[int],
             stacks: Sequence[int], button: int, rng: Rng,
             started: datetime | None = None) -> HandInPlay:
        """A new hand: the forced bets posted and the cards dealt from a deck shuffled with
        ``rng``, up to the first seat's decision."""
        start = engine.new_state(Seats.with_stacks(list(stacks), button))
        play = cls(tuple(players), tuple(table_seats), start, start,
                   tuple(shuffle(list(DECK), rng)), 0, started)
        return play.dealt(rng)

    def then(self, action: Action, rng: Rng) -> HandInPlay:
        """The hand after the seat to move takes ``action`` and chance deals what it asks
        for. Refused: :class:`~pelisali.engine.IllegalMove`, and this value is unchanged."""
        return replace(self, state=as_poker(self.state.apply(action).state)).dealt(rng)

    def dealt(self, rng: Rng) -> HandInPlay:
        """Whenever the engine asks chance for a card, the next card of the deck: after a
        deal nobody opened, of a fresh deck shuffled with ``rng``; when the deck is out
        (a draw game's stub ran short), of the cards the engine offers (those thrown so
        far) shuffled with ``rng``."""
        state, deck, redeals = self.state, self.deck, self.redeals
        while state.is_chance():
            if state.hand.redeals > redeals:
                redeals, deck = state.hand.redeals, tuple(shuffle(list(DECK), rng))
            pool = [o.label for o, _ in state.chance_outcomes()]
            if not deck:
                deck = tuple(shuffle(pool, rng))
            if deck[0] not in pool:
                raise IllegalMove(f"the deck deals {deck[0]}, which the hand cannot take")
            state = as_poker(state.apply(ChanceOutcome(deck[0])).state)
            deck = deck[1:]
        return replace(self, state=state, deck=deck, redeals=redeals)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    def record(self, round_id: int, table: str, settings: Mapping[str, str | bool],
               poker: PokerHandRecord) -> RoundRecord:
        """The hand's record (version 2)."""
        hand = self.start.hand
        return RoundRecord(
            game=self.state.game.game_id, round_id=round_id, table=table,
            opened_at=None if self.started is None else self.started.isoformat(),
            status=RoundStatus.SETTLED if self.finished else RoundStatus.PLAYING,
            settings=dict(settings), players=list(self.players),
            stacks=list(hand.starting_stacks), button=hand.button,
            history=[MoveRecord.of(m) for m in self.state.history],
            poker=poker.model_dump(mode="json"))


class TableHand(PokerHand):
    """The hand a cash table deals, read as the engine's
    :class:`~pelisali.poker.table.PokerHand` always was (``actor``, ``legal()``,
    ``hole``, ``view(seat)``, ``phh()`` ...): a copy of the contract state's hand, made
    again after every move. Its moves (:meth:`act`, :meth:`discard`, :meth:`draw`) are
    contract actions applied to the :class:`HandInPlay` (``play``), with the refusals the
    hand engine always gave; nothing is changed by a refused one."""

    play: HandInPlay
    _rng: Rng

    def __init__(self, play: HandInPlay, rng: Rng) -> None:  # the hand is the state's
        self._show(play, rng)

    def _show(self, play: HandInPlay, rng: Rng) -> None:
        state = play.state
        shown = state.hand.copy(ChanceCards(state.stub))  # reading it changes no state
        self.__dict__.clear()
        self.__dict__.update(shown.__dict__)
        self.play, self._rng = play, rng

    def copy(self, cards: CardSource | None = None) -> PokerHand:
        """A snapshot that plays on apart, as the hand engine's (a plain
        :class:`~pelisali.poker.table.PokerHand`, dealing from ``cards``)."""
        state = self.play.state
        return state.hand.copy(ChanceCards(state.stub) if cards is None else cards)

    def _then(self, action: Action) -> None:
        try:
            after = self.play.then(action, self._rng)
        except IllegalMove as exc:
            raise PokerError(str(exc)) from None
        self._show(after, self._rng)

    def _turn(self, seat: int | None) -> int:
        actor = self.play.state.to_move()
        if actor is None or actor == CHANCE:
            raise PokerError("the hand is over")
        if seat is not None and seat != actor:
            raise PokerError(f"seat {seat} is out of turn; seat {actor} is to act")
        return actor

    def act(self, action: str, to: int | None = None, seat: int | None = None) -> None:
        """``fold``, ``check``, ``call``, ``bring-in``, or ``raise`` (``bet``) to a street
        total ``to``."""
        self._then(self._betting(action, to, seat))

    def _betting(self, action: str, to: int | None, seat: int | None) -> Action:
        if self.finished:
            raise PokerError("the hand is over")
        if self.discarding:
            raise PokerError(f"seat {self.actor} must discard a card first")
        if self.drawing:
            raise PokerError(f"seat {self.actor} must draw first")
        self._turn(seat)
        legal = self.legal()
        bring_in_due = not legal.fold and not legal.check
        if action == "fold":
            return Fold()
        if action == "check":
            if not legal.check:
                raise PokerError(f"{legal.call} to call: call, raise or fold")
            return CheckCall()
        if action == "bring-in":
            if not bring_in_due:
                raise PokerError("the bring-in is posted only by the first to act in stud")
            return CheckCall()
        if action == "call":
            if legal.check:
                raise PokerError("nothing to call: check")
            return CheckCall()
        if action in ("raise", "bet"):
            if to is None or isinstance(to, bool) or not isinstance(to, int):
                raise PokerError("a raise needs the street total to raise to")
            return RaiseTo(to)
        raise PokerError(f"unknown action {action!r}: fold, check, call, raise, bring-in")

    def discard(self, card: str, seat: int | None = None) -> None:
        """Throw away one hole card (RAY 1.4.1.1.3-1.4.1.1.5)."""
        if not self.discarding:
            raise PokerError("nobody discards now")
        self._turn(seat)
        self._then(Discard(card))

    def draw(self, discards: list[str] | tuple[str, ...] = (),
             seat: int | None = None) -> list[str]:
        """Discard ``discards`` (none: stand pat) and be dealt as many new cards; returns
        them."""
        if not self.drawing:
            raise PokerError("nobody draws now")
        actor = self._turn(seat)
        if isinstance(discards, str):
            raise PokerError("give the discards as a list of cards")
        self._then(Draw(tuple(discards)))
        held = self.hole[actor]
        return held[len(held) - len(discards):] if discards else []
