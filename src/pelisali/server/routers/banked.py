"""Three Card Poker, Red Dog, Ultimate Texas Hold'em, Texas Hold'em Bonus, Oasis Stud
Poker, Pai Gow Poker and Russian Poker over the API, each player at their own RNG table
(:mod:`pelisali.platform.banked_rounds`): the game's rules and pay tables with the round
waiting for the player's decision (after a reload too: GGPoker house rules 2.3), a deal
(the bets, in cents, under a key), and the decisions. A retried deal or decision gets
its first answer and is taken once; its key sent with another request is refused with
409."""

from collections.abc import Callable
from itertools import combinations
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field, Strict
from sqlalchemy.orm import Session

from pelisali.cards import CardError, parse_card
from pelisali.engine import GAMES
from pelisali.engine.holdem_bonus import MULTIPLES
from pelisali.engine.ultimate import FIXED_HANDS
from pelisali.games.pai_gow import HAND_NAMES, fouls, hand_name, parse_pai_gow_card
from pelisali.platform import banked_rounds, jackpots
from pelisali.platform.banked_family import BANKED_GAMES
from pelisali.platform.banked_rounds import BankedView
from pelisali.platform.ledger import balance
from pelisali.server.dependencies import AppState, Bettor, Player
from pelisali.server.keys import bound_to_first
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import Key

router = APIRouter(tags=["banked games"], route_class=RetryingRoute)
Cents = Annotated[int, Strict(), Field(ge=0, le=10**9)]
SPOTS = {"three-card-poker": ("ante", "pair-plus"), "red-dog": ("ante",),
         "ultimate-texas-holdem": ("ante", "trips"), "texas-holdem-bonus": ("ante", "bonus"),
         "oasis-stud": ("ante",), "pai-gow-poker": ("ante", "bank"), "russian-poker": ("ante",)}
PAI_GOW = "pai-gow-poker"
DRAWING = ("oasis-stud", "russian-poker")
"""The games whose box exchanges cards and raises 2 times the ante (no amount)."""
Card = Annotated[str, Field(min_length=1, max_length=8)]


class DealRequest(BaseModel):
    """The bets of a round in cents (``{"ante": 500, "pair-plus": 200}``; Ultimate Texas
    Hold'em's blind goes with its ante; Texas Hold'em Bonus' ``bonus``; the ``progressive``
    of both is its fee; Pai Gow Poker's ``bank``, the player banking, instead of the
    ``ante``), under a key."""

    bets: Annotated[dict[Literal["ante", "pair-plus", "trips", "bonus", "progressive",
                                 "bank"], Cents],
                    Field(min_length=1, max_length=3)]
    key: Key


class DecideRequest(BaseModel):
    """The decision: ``play`` or ``fold``; ``raise`` (with ``amount`` in cents) or
    ``stand``; ``check``, ``play`` (with ``multiple``, times the ante) or ``fold``;
    Texas Hold'em Bonus' ``fold``, ``check`` or ``bet`` (with ``street``: ``flop``,
    ``turn`` or ``river``); Oasis Stud Poker's ``exchange`` (with ``cards``, the one to
    five to discard: ``["7h", "2c"]``), ``raise`` (no amount: 2 times the ante) or
    ``fold``; Pai Gow Poker's ``set`` (with ``cards``, the two of the low hand: ``["7h",
    "2c"]``, the joker ``"Jk"``) or ``house`` (the house way sets the hand); Russian
    Poker's ``exchange`` (as Oasis's), ``sixth`` (buy a sixth card), ``raise`` (the bet, 2
    times the ante) or ``fold``, and when the dealer does not qualify ``take`` (the ante
    paid 1:1) or ``buy`` (a game for the dealer); each under a key."""

    action: Literal["play", "fold", "raise", "stand", "check", "bet", "exchange", "set",
                    "house", "sixth", "buy", "take"]
    amount: Cents | None = None
    multiple: Annotated[int, Strict(), Field(ge=1, le=4)] | None = None
    street: Literal["flop", "turn", "river"] | None = None
    cards: Annotated[list[Card], Field(min_length=1, max_length=5)] | None = None
    key: Key


def _game(game: str) -> str:
    if game not in BANKED_GAMES:
        raise HTTPException(404, f"no game {game!r} here; games: {', '.join(BANKED_GAMES)}")
    return game


def _answer(view: BankedView) -> dict[str, Any]:
    shown = {"round_id": view.round_id, "game": view.game, "status": view.status,
             "staked": view.staked, "paid": view.paid, "actions": list(view.actions),
             "balance": view.balance, **view.view}
    if view.game == PAI_GOW and view.status == "playing":
        shown["settings"] = _settings(view.view["cards"])
    return shown


def _settings(cards: list[str]) -> list[dict[str, Any]]:
    """Pai Gow Poker: each of the 21 settings of the box's seven cards, so that the page
    tells the hand and a foul before the setting is sent: the low hand's two cards, the
    high hand's name and whether it fouls (taken, and lost)."""
    wheel = getattr(GAMES[PAI_GOW], "rules").wheel  # noqa: B009
    out: list[dict[str, Any]] = []
    for low in combinations(cards, 2):
        high = [card for card in cards if card not in low]
        out.append({"low": list(low), "high_hand": hand_name(high, wheel),
                    "foul": fouls(high, low, wheel)})
    return out


def _rules(game: str) -> dict[str, Any]:
    """What the page shows of the rule data: the name, the standard-rules note, the
    limits, the bets taken before the deal and the pay tables."""
    engine = GAMES[game]
    limits = getattr(engine, "limits")  # noqa: B009 - every banked engine has its limits
    spots = [s for s in SPOTS[game]
             if s != "bank" or getattr(engine, "rules").player_banks]  # noqa: B009
    shown: dict[str, Any] = {"game": game, "spots": spots,
                             "min": limits.minimum, "max": limits.maximum}
    rules = getattr(engine, "rules")  # noqa: B009
    shown.update(name=rules.name.model_dump(), standard=rules.standard)
    if game == "three-card-poker":
        shown["pays"] = {"ante_bonus": rules.ante_bonus, "pair_plus": rules.pair_plus,
                         "dealer_qualifies": rules.qualifier}
    elif game == "ultimate-texas-holdem":
        shown["pays"] = {"blind": {k: f"{v.numerator}:{v.denominator}"
                                   for k, v in rules.blind.items()},
                         "trips": rules.trips, "preflop": list(rules.preflop),
                         "dealer_qualifies": "pair"}
    elif game == "texas-holdem-bonus":
        shown["pays"] = {"ante_pays_from": rules.ante_pays_from, "bonus": rules.bonus,
                         "fold_loses_bonus": rules.fold_loses_bonus,
                         "street_bets": dict(MULTIPLES)}
    elif game == "oasis-stud":
        shown["pays"] = {"fees": list(rules.fees), "raise": rules.pays,
                         "raise_multiple": rules.raise_multiple,
                         "five_must_raise": rules.five_must_raise,
                         "dealer_qualifies": "ace_king"}
    elif game == "russian-poker":
        shown["pays"] = {"combinations": rules.pays, "most_combinations":
                         rules.most_combinations, "bet_multiple": rules.bet_multiple,
                         "draw_price": rules.draw_price, "exchange_least": rules.exchange_least,
                         "sixth_card": rules.sixth_card, "ante_on_win": rules.ante_on_win,
                         "buy_game": rules.buy_game, "buy_price": rules.buy_price,
                         "redraw_same_rank": rules.redraw_same_rank,
                         "dealer_qualifies": "ace_king"}
    elif game == PAI_GOW:
        shown["pays"] = {"win": "1:1", "commission_percent": rules.commission_percent,
                         "commission_rounding": rules.commission_rounding,
                         "wheel": rules.wheel, "copies": {"ante": "dealer", "bank": "bank"},
                         "jokers": 1,
                         "house_way": rules.house_way.name, "hands": list(HAND_NAMES),
                         "player_banks": rules.player_banks,
                         "bank_house_between": rules.house_between,
                         "bank_most_percent": rules.bank_most_percent}
    else:
        shown["pays"] = {"spread": {str(k): v for k, v in rules.pays.items()},
                         "three_of_a_kind": rules.three_of_a_kind, "decks": rules.decks}
    return shown


@router.get("/api/banked")
def games() -> dict[str, Any]:
    """The banked card games played here, with their names, limits and pay tables."""
    return {"games": [_rules(g) for g in BANKED_GAMES]}


def _progressive(session: Session, game: str) -> dict[str, Any] | None:
    """The game's progressive as the page shows it (its fee, pool now and table), or None
    where the casino runs none."""
    running = jackpots.game_progressive(session, game)
    if running is None:
        return None
    table = getattr(GAMES[game], "rules").progressive  # noqa: B009
    return {"name": running.name, "fee": running.fee,
            "pool": balance(session, jackpots.pool(running.name)),
            "pays": {"royal_flush": f"{table['pool_percent_royal']} %",
                     "straight_flush": f"{table['pool_percent_straight_flush']} %",
                     **{hand: table[hand] * running.fee for hand in FIXED_HANDS}}}


@router.get("/api/banked/{game}")
def table(game: str, login: Player, state: AppState) -> dict[str, Any]:
    """The game's rules, its progressive where one runs (the pool as it stands) and the
    player's round waiting for a decision, if any."""
    name = state.own_table(login.name, _game(game))
    with state.db() as session:
        found = banked_rounds.playing(session, name)
        progressive = _progressive(session, game) \
            if game in banked_rounds.PROGRESSIVE_GAMES else None
    return {**_rules(game), "progressive": progressive,
            "playing": None if found is None else _answer(found)}


@router.post("/api/banked/{game}/deal")
def deal(game: str, body: DealRequest, login: Bettor, state: AppState) -> dict[str, Any]:
    """Place the bets and deal; the answer is the round, waiting for the decision or
    settled."""
    name = state.own_table(login.name, _game(game))
    bets: dict[str, int] = {spot: amount for spot, amount in body.bets.items() if amount}
    with bound_to_first(body.key), state.db() as session:
        done = banked_rounds.deal(session, name, login.name, bets,
                                  key=f"web:{login.name}:{body.key}", rng=state.rng)
    return _answer(done)


@router.post("/api/banked/{game}/decide")
def decide(game: str, body: DecideRequest, login: Bettor, state: AppState) -> dict[str, Any]:
    """The decision of the round waiting; the answer is the round settled."""
    name = state.own_table(login.name, _game(game))
    oasis = game in DRAWING
    if (body.action in ("sixth", "buy", "take")) and game != "russian-poker":
        raise HTTPException(422, "sixth, buy and take are Russian Poker's decisions, and no "
                                 "other game's")
    if (game == PAI_GOW) != (body.action in ("set", "house")):
        raise HTTPException(422, "Pai Gow Poker's decision is set (with its two cards) or "
                                 "house, and no other game's")
    if (body.action == "set") != (body.cards is not None and game == PAI_GOW):
        raise HTTPException(422, "Pai Gow Poker's set names the two cards of the low hand; "
                                 "nothing else does")
    if (body.action == "raise" and not oasis) != (body.amount is not None):
        raise HTTPException(422, "a raise carries its amount in cents (Oasis Stud Poker's "
                                 "and Russian Poker's none: it is 2 times the ante); "
                                 "nothing else does")
    if (body.action == "exchange") != (body.cards is not None and game != PAI_GOW) or (
            body.action == "exchange" and not oasis):
        raise HTTPException(422, "Oasis Stud Poker's and Russian Poker's exchange names "
                                 "its cards; nothing else does")
    multiple_needed = body.action == "play" and game == "ultimate-texas-holdem"
    if multiple_needed != (body.multiple is not None):
        raise HTTPException(422, "Ultimate Texas Hold'em's play carries its multiple of the "
                                 "ante; nothing else does")
    if (body.action == "bet") != (body.street is not None) or (
            body.action == "bet" and game != "texas-holdem-bonus"):
        raise HTTPException(422, "Texas Hold'em Bonus' bet names its street (flop, turn, "
                                 "river); nothing else does")
    action = (f"raise {body.amount}" if body.action == "raise" and not oasis
              else _named("set", body.cards, parse_pai_gow_card)
              if body.cards is not None and game == PAI_GOW
              else _exchange(body.cards) if body.cards is not None
              else f"play {body.multiple}" if multiple_needed
              else f"bet {body.street}" if body.action == "bet" else body.action)
    with bound_to_first(body.key), state.db() as session:
        done = banked_rounds.decide(session, name, login.name, action,
                                    key=f"web:{login.name}:{body.key}", rng=state.rng)
    return _answer(done)


def _exchange(cards: list[str]) -> str:
    """Oasis Stud Poker's or Russian Poker's exchange of ``cards`` as the engine takes it
    (``exchange 7h Tc``); a word that is not a card is refused here (400, coded for the
    player), one not in the hand or named twice by the engine."""
    return _named("exchange", cards, parse_card)


def _named(word: str, cards: list[str], parse: Callable[[str], str]) -> str:
    """A decision naming ``cards`` as the engine takes it (``set Jk Td``); a word that is
    not a card is refused here (400, coded for the player), a card not in the hand, named
    twice or too many by the engine."""
    try:
        return f"{word} " + " ".join(parse(card) for card in cards)
    except CardError as exc:
        raise HTTPException(400, str(exc)) from None
