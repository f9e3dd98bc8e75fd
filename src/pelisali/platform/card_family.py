"""Punto banco and blackjack as a family of the table layer.

What the table layer (:mod:`pelisali.platform.table_layer`) needs to know of the card
tables: the contract engine of a table's game, settings and limits
(:func:`card_engine`); the engine's seats for a round's bets (:func:`betting_moves`: a
seat for each player, in the order of their first bet, each placing its bets in turn);
a round's start (a new round dealt from the shoe as the table's last round left it);
the engine's settlements as the table records them (a blackjack ``box 3`` is the
table's ``seat 3``; punto banco bets keep the table's numbers); what a record shows
besides its history; and the records the tables wrote before version 2.

**Records of version 1** are the free-form JSON :mod:`pelisali.platform.card_rounds`
wrote before the table layer: punto banco ``bets`` and ``cards`` (``[side, card]``),
blackjack ``seats`` (boxes), ``cards`` in dealing order and ``decisions``
(``["hit", None]``, ``["double", 500]``, ``["insure", SEAT, CENTS]``), each with the shoe
(``shuffle_order``, ``shoe_positions``, ``shuffle``, ``burned``), and a void of a round
not yet dealt with its ``bets`` alone. :meth:`CardFamily.upgrade` reads one as version
2: the bets, then the cards and decisions where the engine asks for them (insurance
answers in box order; an answer whose box's turn has not come is held).

>>> from pelisali.platform.table_layer import read_record, rebuild
>>> old = {"game": "punto-banco", "round_id": 3, "table": "pb", "limits": {"min": 100,
...        "max": 100000}, "settings": {"decks": "8"}, "bets": [
...        {"bet_id": 1, "player": "ann", "bet": "banker", "stake": 1010}],
...        "cards": [["player", "Tc"], ["banker", "9h"], ["player", "2d"], ["banker", "Th"]],
...        "result": "banker", "settlements": []}
>>> record = read_record(old, FAMILY)
>>> record.version, [m.text for m in record.history], record.players
(2, ['bet banker 1010', 'done', 'Tc', '9h', '2d', 'Th'], ['ann'])
>>> FAMILY.settlements(rebuild(record, FAMILY), record)[0].paid
1969
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from pelisali.engine import CHANCE, Action, ChanceOutcome, State
from pelisali.engine.baccarat import BaccaratEngine, BaccaratState
from pelisali.engine.blackjack import (
    BetBox,
    BlackjackEngine,
    BlackjackState,
    Double,
    Hit,
    Insure,
    Split,
    Stand,
)
from pelisali.engine.wager import EndBetting, PlaceBet
from pelisali.games.base import GameError
from pelisali.games.blackjack_rules import BlackjackConfig
from pelisali.games.punto_banco import PuntoBancoConfig
from pelisali.games.round import Limits
from pelisali.games.spot_grammar import is_number
from pelisali.platform import table_layer
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.models import BetRow
from pelisali.platform.rounds import TableError
from pelisali.platform.table_layer import (
    HeldMove,
    LimitsRecord,
    MoveRecord,
    RecordError,
    RoundRecord,
    SettlementRecord,
)

__all__ = [
    "FAMILY",
    "CardBet",
    "CardEngine",
    "CardFamily",
    "as_blackjack",
    "as_coup",
    "bet_action",
    "betting_moves",
    "card_engine",
    "fraction_text",
    "seat_of",
]

VENUE = "pelisali"
PLAYING, SETTLED, VOID = RoundStatus.PLAYING, RoundStatus.SETTLED, RoundStatus.VOID


CardEngine = BaccaratEngine | BlackjackEngine


# -- the family ------------------------------------------------------------------------------

@dataclass(frozen=True)
class CardBet:
    """A bet as the table numbers it: punto banco in the order placed, blackjack by seat."""

    number: int
    player: str
    spot: str  # punto banco: player, banker or tie; blackjack: "seat N"
    stake: int

    @classmethod
    def of(cls, row: BetRow) -> CardBet:
        return cls(row.number, row.player, row.spot, row.stake)


@lru_cache(maxsize=256)
def card_engine(game: str, settings: str, low: int | None, high: int | None) -> CardEngine:
    """The contract engine of a card game with its settings (JSON) and limits; shared by
    the tables and rounds of one game, settings and limits (an engine holds only rules)."""
    chosen = json.loads(settings)
    try:
        limits = None if low is None or high is None else Limits(low, high)
        if game == "punto-banco":
            return BaccaratEngine(game, PuntoBancoConfig.from_settings(chosen), limits)
        if game == "blackjack":
            return BlackjackEngine(game, BlackjackConfig.from_settings(chosen), limits)
    except GameError as exc:  # RoundError (limits) is a GameError too
        raise RecordError(str(exc)) from None
    raise RecordError(f"{game!r} is not a card game")


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _seat_name(spot: str) -> str:
    """The engine's ``box 3 hand 2`` as the table says it: ``seat 3 hand 2``."""
    return "seat" + spot.removeprefix("box") if spot.startswith("box") else spot


def as_coup(state: State) -> BaccaratState:
    if not isinstance(state, BaccaratState):
        raise RecordError("not a punto banco round")
    return state


def as_blackjack(state: State) -> BlackjackState:
    if not isinstance(state, BlackjackState):
        raise RecordError("not a blackjack round")
    return state


class CardFamily(table_layer.Family):
    """Punto banco and blackjack for the table layer."""

    def game(self, record: RoundRecord) -> CardEngine:
        return card_engine(*record.engine_key())

    def start(self, record: RoundRecord) -> State:
        """A new round for the record's players, dealt from the shoe as it stood when the
        round began (a full shoe when the record names none)."""
        return self.game(record).new_round(record.seats(), shoe=record.shoe_left())

    def settlements(self, state: State, record: RoundRecord) -> list[SettlementRecord]:
        players = record.players
        if isinstance(state, BaccaratState):
            numbers = record.bet_numbers or [b.bet_id for b in state.bets]
            return sorted((SettlementRecord(
                bet_id=numbers[s.bet_id - 1], player=players[s.seat], spot=s.spot,
                stake=s.stake, paid=s.paid, rounding=fraction_text(s.rounding), result=s.result)
                for s in state.settlements), key=lambda s: s.bet_id)
        found = as_blackjack(state)
        if found.phase == "void":  # a void round is refunded; it settles nothing
            return []
        return [SettlementRecord(bet_id=s.bet_id, player=players[s.seat],
                                 spot=_seat_name(s.spot), stake=s.stake, paid=s.paid,
                                 rounding=fraction_text(s.rounding), result=s.result)
                for s in found.settlements]

    def paid(self, state: State) -> tuple[int, ...]:
        found: BaccaratState | BlackjackState = (
            state if isinstance(state, BaccaratState) else as_blackjack(state))
        out = [0] * found.seats
        for s in found.settlements:
            out[s.seat] += s.paid
        return tuple(out)

    def derived(self, state: State, record: RoundRecord) -> dict[str, Any]:
        """Punto banco: the cards with their sides, the result and the bets; blackjack: the
        cards in dealing order, the decisions (as the tables wrote them before version 2;
        insurance answers held for their turn last) and the dealer's cards."""
        if isinstance(state, BaccaratState):
            numbers = record.bet_numbers or [b.bet_id for b in state.bets]
            return {"cards": [[side, card] for side, card in state.cards],
                    "result": state.result(),
                    "bets": sorted(({"bet_id": numbers[b.bet_id - 1],
                                     "player": record.players[b.seat], "bet": b.spot,
                                     "stake": b.stake} for b in state.bets),
                                   key=lambda b: int(b["bet_id"]))}
        found = as_blackjack(state)
        held = [["insure", int(h.turn.removeprefix("box ")), int(h.text.split()[1])]
                for h in record.ahead]  # answers given before their turn, not yet applied
        return {"cards": [m.action.text() for m in found.history if m.actor == CHANCE],
                "decisions": _decisions(found) + held, "dealer": list(found.dealer)}

    def upgrade(self, data: Mapping[str, Any]) -> RoundRecord:
        try:
            return _from_v1(data)
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError) as exc:  # IllegalMove is a ValueError
            raise RecordError(f"the version-1 record does not read: {exc!r}") from None

    def theoretical_rtp(self, game: str, variant: str, settings: Mapping[str, Any]
                        ) -> Mapping[str, Fraction] | None:
        """Punto banco: the exact odds of a full shoe; blackjack's return depends on the
        players' decisions, so it has none."""
        if game != "punto-banco":
            return None
        return _baccarat_rtp(json.dumps(settings, sort_keys=True))


@lru_cache(maxsize=16)
def _baccarat_rtp(settings: str) -> Mapping[str, Fraction]:
    from pelisali.analysis.baccarat_odds import baccarat_odds, full_shoe

    config = PuntoBancoConfig.from_settings(json.loads(settings))
    return dict(baccarat_odds(full_shoe(config.decks), config).rtp)


FAMILY = CardFamily()


def _decisions(state: BlackjackState) -> list[list[Any]]:
    """The seats' decisions as the version-1 records wrote them: ``["insure", SEAT,
    CENTS]``, ``["double", CENTS or None]``, ``["hit", None]``. The engine asks for the
    insurance answers in box order, so the n-th answer is the n-th box's."""
    boxes = iter(state.boxes)
    out: list[list[Any]] = []
    for move in state.history:
        action = move.action
        if isinstance(action, Insure):
            out.append(["insure", next(boxes).box, action.amount])
        elif isinstance(action, Double):
            out.append(["double", action.amount])
        elif isinstance(action, Hit | Stand | Split):
            out.append([action.text(), None])
    return out


# -- records of version 1 ------------------------------------------------------------------
def _v1_action(decision: Sequence[Any]) -> Action:
    name = decision[0]
    if name == "double":
        return Double(None if decision[1] is None else int(decision[1]))
    simple: dict[str, Action] = {"hit": Hit(), "stand": Stand(), "split": Split()}
    if name not in simple:
        raise RecordError(f"{decision!r} is not a blackjack decision")
    return simple[name]


def _from_v1(data: Mapping[str, Any]) -> RoundRecord:
    """A record as the tables wrote it before version 2 (``game``, ``bets`` or ``seats``,
    ``cards``, ``decisions``, the shoe) as version 2: the contract history is the bets,
    then the cards and decisions in the order the engine asks for them."""
    game = data.get("game")
    if game not in ("punto-banco", "blackjack"):
        raise RecordError(f"{game!r} is not a card game")
    settings = {k: v for k, v in (data.get("settings") or {}).items()
                if not (game == "blackjack" and k == "cut_cards_from_back")}
    limits = data.get("limits")
    if game == "blackjack" and "seats" in data:
        bets = [CardBet(int(s["seat"]), s["player"], f"seat {s['seat']}", int(s["bet"]))
                for s in data["seats"]]
    else:
        bets = [CardBet(int(b["bet_id"]), b["player"], b["bet"], int(b["stake"]))
                for b in data["bets"]]
    dealt = data.get("cards") is not None
    players, numbers, moves = betting_moves(game, bets, done=dealt)
    void = data.get("void_reason") is not None
    status = VOID if void else SETTLED if ("result" in data or "dealer" in data) else PLAYING
    record = RoundRecord(
        game=game, round_id=int(data["round_id"]), table=str(data.get("table") or ""),
        venue=data.get("venue") or VENUE, mode=data.get("mode") or "rng",
        opened_at=data.get("opened_at"), status=status, settings=settings,
        limits=LimitsRecord(min=limits["min"], max=limits["max"]) if limits else None,
        players=players, bet_numbers=numbers,
        history=[MoveRecord(actor=seat, text=action.text()) for seat, action, _ in moves],
        settlements=[SettlementRecord.model_validate(s) for s in data.get("settlements", [])],
        rounding=data.get("rounding") or "0/1", void_reason=data.get("void_reason"),
        shuffle=data.get("shuffle"), shuffle_order=data.get("shuffle_order"),
        burned=data.get("burned"), shoe_positions=data.get("shoe_positions"),
        last_hand_before_shuffle=bool(data.get("last_hand_before_shuffle")),
        stacked=data.get("stacked"))
    if not dealt:
        return record
    state = table_layer.rebuild(record, FAMILY)
    if game == "punto-banco":
        for _side, card in data["cards"]:
            state = state.apply(ChanceOutcome(card)).state
        if FAMILY.derived(state, record)["cards"] != [list(c) for c in data["cards"]]:
            raise RecordError("the recorded cards do not follow the drawing rules")
        return record.with_state(state)
    round_state, ahead = _walk_v1(as_blackjack(state), data)
    return record.with_state(round_state, ahead=ahead)


def _walk_v1(state: BlackjackState, data: Mapping[str, Any]
             ) -> tuple[BlackjackState, list[HeldMove]]:
    """Deal a version-1 blackjack record's cards and take its decisions where the engine
    asks for them; insurance answers go in box order, and an answer whose box's turn has
    not come is held."""
    cards = iter(data["cards"])
    insurance = {int(d[1]): int(d[2]) for d in data["decisions"] if d[0] == "insure"}
    plays = iter([d for d in data["decisions"] if d[0] != "insure"])
    while (mover := state.to_move()) is not None:
        if mover == CHANCE:
            card = next(cards, None)
            if card is None:
                break
            state = as_blackjack(state.apply(ChanceOutcome(card)).state)
            continue
        waiting = state.insurance_box()
        if waiting is not None:
            if waiting.box not in insurance:
                break
            state = as_blackjack(state.apply(Insure(insurance.pop(waiting.box)),
                                            seat=mover).state)
            continue
        decision = next(plays, None)
        if decision is None:
            break
        state = as_blackjack(state.apply(_v1_action(decision), seat=mover).state)
    if next(cards, None) is not None or next(plays, None) is not None:
        raise RecordError("the recorded cards and decisions do not fit the round")
    ahead = []
    for number, amount in sorted(insurance.items()):
        box = state.box(number)
        if state.phase != "insurance" or box.insurance is not None:
            raise RecordError(f"seat {number}'s insurance answer does not fit the round")
        ahead.append(HeldMove(actor=box.seat, text=Insure(amount).text(), turn=f"box {number}"))
    return state, ahead


# -- the seats and the bets in the engine ------------------------------------------------------
def seat_of(spot: str) -> int:
    words = spot.lower().split()
    if words and words[0] == "seat":
        words = words[1:]
    if len(words) != 1 or not is_number(words[0]):  # not "03", "+3" or "٣": one spelling
        raise TableError(f"a blackjack bet is on a seat: 'seat 3' or '3', not {spot!r}")
    return int(words[0])


def bet_action(game: str, bet: CardBet) -> Action:
    if game == "blackjack":
        return BetBox(seat_of(bet.spot), bet.stake)
    return PlaceBet(bet.spot, bet.stake)


def betting_moves(game: str, bets: Sequence[CardBet], done: bool
                   ) -> tuple[list[str], list[int], list[tuple[int, Action, CardBet | None]]]:
    """The engine's seats for a round's bets: a seat for each player, in the order of
    their first bet (by the table's number), each placing its bets in that order and
    saying it is done (the last one only when ``done``: no more bets). The players, the
    table's number of each bet in the order placed (punto banco: the engine numbers them
    by seat), and the moves (each seat's, its action and the bet it places)."""
    seating: dict[str, list[CardBet]] = {}
    for bet in sorted(bets, key=lambda b: b.number):
        seating.setdefault(bet.player, []).append(bet)
    moves: list[tuple[int, Action, CardBet | None]] = []
    numbers: list[int] = []
    for seat, mine in enumerate(seating.values()):
        for bet in mine:
            moves.append((seat, bet_action(game, bet), bet))
            numbers.append(bet.number)
        if done or seat < len(seating) - 1:
            moves.append((seat, EndBetting(), None))
    return list(seating), numbers if game == "punto-banco" else [], moves
