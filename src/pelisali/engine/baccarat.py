"""Punto banco (baccarat, GGPoker live casino I) under the engine contract.

A round: every seat places bets on ``player``, ``banker`` or ``tie``
(:class:`~pelisali.engine.wager.PlaceBet`, the same action as at a wheel) and
says it is done (:class:`~pelisali.engine.wager.EndBetting`); then the coup is
dealt one card at a time as chance nodes, each card to the side
:func:`~pelisali.games.punto_banco.next_card` names (player, banker, player,
banker, then the third-card rules); then every bet is settled with
:meth:`~pelisali.games.punto_banco.PuntoBancoConfig.bet_return`, the same
return the table, the exact odds and the simulator use, the fraction of a cent
going to the house (RULINGS "Everywhere"). The shoe is part of the state: at a
chance node each distinct card left in it is an outcome, with probability its
count over the cards left. Nothing at a punto banco table is hidden: every card
is dealt face up.

>>> from pelisali.engine import Seats
>>> state = baccarat_engines()["punto-banco"].new_state(Seats(1))
>>> state = state.apply("bet banker 1000").state
>>> state = state.apply("done").state
>>> state.is_chance(), state.chance_outcomes()[0]
(True, (ChanceOutcome(label='2c'), Fraction(1, 52)))
>>> for card in ["Kc", "9h", "7d", "Ts"]:   # player K 7 (7), banker 9 T (a natural 9)
...     state = state.apply(card).state
>>> state.is_terminal(), state.returns()    # banker wins 1:1 less 5 % commission
(True, (950,))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, ClassVar

from pelisali.cards import DECK
from pelisali.engine.contract import (
    CHANCE,
    Action,
    ChanceOutcome,
    Event,
    Game,
    IllegalMove,
    Move,
    Seats,
    State,
    Step,
)
from pelisali.engine.one_deck import BettingRound, house_seats
from pelisali.engine.wager import EndBetting, PlaceBet
from pelisali.games.punto_banco import (
    BETS,
    PuntoBancoConfig,
    Side,
    card_points,
    next_card,
    points,
    winner,
)
from pelisali.games.round import Limits
from pelisali.money import pay_exact
from pelisali.rules import load_rules

MOST_CARDS = 6
"""The most cards a coup can take (two hands of three): a shoe must hold them."""

ShoeCounts = tuple[tuple[str, int], ...]
"""A shoe's composition as a value: ``(card, count)`` in :data:`~pelisali.cards.DECK` order,
counts positive."""


def shoe_counts(shoe: Mapping[str, int], decks: int) -> ShoeCounts:
    """The composition ``shoe`` as a state holds it; :class:`IllegalMove` if no ``decks``-deck
    shoe can hold it.

    >>> shoe_counts(Counter({"As": 2, "Kd": 1, "2c": 0}), 8)
    (('Kd', 1), ('As', 2))
    >>> shoe_counts({"As": 9}, 8)
    Traceback (most recent call last):
    ...
    pelisali.engine.contract.IllegalMove: a 8-deck shoe holds at most 8 of As, not 9
    """
    for card, count in shoe.items():
        if card not in DECK:
            raise IllegalMove(f"{card!r} is not a card (rank 2-9 T J Q K A, suit c d h s)")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise IllegalMove(f"the count of {card} is a whole number, not {count!r}")
        if count > decks:
            raise IllegalMove(f"a {decks}-deck shoe holds at most {decks} of {card}, "
                              f"not {count}")
    return tuple((card, shoe[card]) for card in DECK if shoe.get(card, 0) > 0)


def shoe_to_deal(shoe: Mapping[str, int] | None, decks: int, need: int,
                 what: str) -> ShoeCounts:
    """The shoe a ``what`` (a coup, a hand) is dealt from: ``shoe`` (card -> count) as
    :func:`shoe_counts` checks it, or every card of ``decks`` decks when ``None``. It must
    hold the ``need`` cards a ``what`` can need.

    >>> len(shoe_to_deal(None, 1, 6, "coup"))
    52
    >>> shoe_to_deal({"As": 1, "Kd": 1}, 8, 6, "coup")
    Traceback (most recent call last):
    ...
    pelisali.engine.contract.IllegalMove: a coup can need 6 cards; the shoe holds 2
    """
    counts = shoe_counts(full_shoe(decks) if shoe is None else shoe, decks)
    if sum(n for _, n in counts) < need:
        raise IllegalMove(f"a {what} can need {need} cards; the shoe holds "
                          f"{sum(n for _, n in counts)}")
    return counts


def full_shoe(decks: int) -> Counter[str]:
    """Every card of ``decks`` decks.

    >>> full_shoe(8)["As"], sum(full_shoe(8).values())
    (8, 416)
    """
    return Counter({card: decks for card in DECK})


def take(shoe: ShoeCounts, card: str) -> ShoeCounts:
    """The shoe with one ``card`` taken out (it must be in it).

    >>> take((("Kd", 1), ("As", 2)), "As"), take((("Kd", 1), ("As", 2)), "Kd")
    ((('Kd', 1), ('As', 1)), (('As', 2),))
    """
    return tuple((c, n - 1 if c == card else n) for c, n in shoe if c != card or n > 1)


def shoe_weights(shoe: ShoeCounts) -> tuple[tuple[ChanceOutcome, ...], tuple[int, ...], int]:
    """Each distinct card left, its count and the cards left: the shoe's chance as weights.

    >>> shoe_weights((("Kd", 1), ("As", 2)))[1:]
    ((1, 2), 3)
    """
    return (tuple(ChanceOutcome(card) for card, _ in shoe), tuple(n for _, n in shoe),
            sum(n for _, n in shoe))


def shoe_outcomes(shoe: ShoeCounts) -> tuple[tuple[ChanceOutcome, Fraction], ...]:
    """Each distinct card left with its probability: its count over the cards left.

    >>> shoe_outcomes((("Kd", 1), ("As", 2)))[1]
    (ChanceOutcome(label='As'), Fraction(2, 3))
    """
    total = sum(n for _, n in shoe)
    return tuple((ChanceOutcome(card), Fraction(n, total)) for card, n in shoe)


@dataclass(frozen=True)
class BaccaratBet:
    """A bet in a coup: ``spot`` is ``player``, ``banker`` or ``tie``."""

    bet_id: int
    seat: int
    spot: str
    stake: int


@dataclass(frozen=True)
class BaccaratSettlement:
    """How a bet ended, as :meth:`~pelisali.games.punto_banco.PuntoBancoTable.deal` settles it:
    ``paid`` whole cents back (stake included), ``rounding`` the part of a cent the house
    keeps, ``result`` ``win``, ``lose`` or ``push``."""

    bet_id: int
    seat: int
    spot: str
    stake: int
    paid: int
    rounding: Fraction
    result: str


class BaccaratEngine(Game):
    """Punto banco with its settings (decks, payouts, commission) and table limits.

    >>> engine = BaccaratEngine.from_settings({"decks": "6"})
    >>> sum(engine.new_state(Seats(2)).shoe_left().values())
    312
    """

    family: ClassVar[str] = "baccarat"
    max_seats = 12

    def __init__(self, game_id: str = "punto-banco", config: PuntoBancoConfig | None = None,
                 limits: Limits | None = None) -> None:
        self.game_id = game_id
        self.config = config or PuntoBancoConfig.from_settings()
        if limits is None:
            rules = load_rules("punto-banco")
            limits = Limits(rules.limits.min, rules.limits.max)
        self.limits = limits

    @classmethod
    def from_settings(cls, settings: Mapping[str, str | bool] | None = None,
                      game_id: str = "punto-banco") -> BaccaratEngine:
        """The game with table settings (``decks``, ...), as ``--set`` gives them."""
        return cls(game_id, PuntoBancoConfig.from_settings(settings))

    def title(self) -> str:
        return "punto banco"

    def new_state(self, seats: Seats) -> BaccaratState:
        return self.new_round(seats)

    def new_round(self, seats: Seats, shoe: Mapping[str, int] | None = None) -> BaccaratState:
        """A new coup dealt from ``shoe`` (card -> count); a full shoe of the configured decks
        when ``None``. The shoe must hold the six cards a coup can need."""
        count = house_seats(self, seats)
        counts = shoe_to_deal(shoe, self.config.decks, MOST_CARDS, "coup")
        return BaccaratState(self, count, counts, done=(False,) * count)

    def spot(self, text: str) -> str:
        """The bet named ``text``; :class:`IllegalMove` if punto banco has none such."""
        key = text.strip().lower()
        if key not in BETS:
            raise IllegalMove(f"punto banco has no bet {text!r}; bets: {', '.join(BETS)}")
        return key


class ShoeChance(State):
    """Chance from a shoe's composition (``shoe``): each distinct card left, at its count
    over the cards left. Punto banco and blackjack deal this way."""

    shoe: ShoeCounts

    def chance_outcomes(self) -> tuple[tuple[ChanceOutcome, Fraction], ...]:
        if self.to_move() != CHANCE:
            return ()
        return shoe_outcomes(self.shoe)

    def chance_weights(self) -> tuple[tuple[ChanceOutcome, ...], tuple[int, ...], int]:
        if self.to_move() != CHANCE:
            return (), (), 1
        return shoe_weights(self.shoe)

    def can_come_up(self, outcome: ChanceOutcome) -> bool:
        return self.to_move() == CHANCE and any(card == outcome.label and n
                                                for card, n in self.shoe)


@dataclass(frozen=True)
class BaccaratState(ShoeChance, BettingRound):
    """A punto banco coup: the bets, the shoe left, the cards dealt, then the settlements."""

    game: BaccaratEngine
    seats: int
    shoe: ShoeCounts
    bets: tuple[BaccaratBet, ...] = ()
    done: tuple[bool, ...] = ()
    cards: tuple[tuple[Side, str], ...] = ()
    settlements: tuple[BaccaratSettlement, ...] = ()
    history: tuple[Move, ...] = field(default=())
    bet_type = BaccaratBet
    round_name = "coup"

    # -- the hand --------------------------------------------------------------------
    @property
    def player(self) -> tuple[int, ...]:
        return tuple(card_points(c) for side, c in self.cards if side == "player")

    @property
    def banker(self) -> tuple[int, ...]:
        return tuple(card_points(c) for side, c in self.cards if side == "banker")

    def shoe_left(self) -> Counter[str]:
        """The cards left in the shoe (a copy)."""
        return Counter(dict(self.shoe))

    def result(self) -> str | None:
        """``player``, ``banker`` or ``tie`` once the coup is complete."""
        if not self.cards or next_card(self.player, self.banker) is not None:
            return None
        return winner(self.player, self.banker)

    # -- who moves ---------------------------------------------------------------------
    def to_move(self) -> int | None:
        if not all(self.done):
            return self.done.index(False)
        if not self.bets:
            return None  # no bets, no coup (the table deals none)
        if next_card(self.player, self.banker) is not None:
            return CHANCE
        return None

    # -- what may happen ---------------------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            return ()
        return (*self.betting_actions(mover, BETS), EndBetting())

    def parse_action(self, text: str) -> Action:
        words = text.split()
        if words == ["done"]:
            return EndBetting()
        if len(words) == 3 and words[0] == "bet":
            if not words[2].isdigit():
                raise IllegalMove(f"a stake is a whole number of cents, not {words[2]!r}")
            return PlaceBet(self.game.spot(words[1]), int(words[2]))
        raise IllegalMove(f"{text!r} is not an action here: 'bet player|banker|tie CENTS' "
                          f"or 'done'")

    def _check_action(self, action: Action) -> None:
        if all(self.done):
            raise IllegalMove("no more bets")
        self._check_bet(action)

    def _decide(self, mover: int, action: Action, history: tuple[Move, ...]) -> Step:
        raise IllegalMove(f"{action.text()!r} is not an action of punto banco")

    def _deal(self, label: str, history: tuple[Move, ...]) -> Step:
        card = label
        side = next_card(self.player, self.banker)
        if side is None or card not in dict(self.shoe):
            raise IllegalMove(f"{label!r} cannot come up now")
        state = replace(self, shoe=take(self.shoe, card), cards=(*self.cards, (side, card)),
                        history=history)
        return state._step(Event("card", f"{card} to the {side}"))

    def _settle(self) -> tuple[BaccaratState, list[Event]]:
        """Settle every bet as :meth:`~pelisali.games.punto_banco.PuntoBancoTable.deal` does."""
        result = winner(self.player, self.banker)
        player = " ".join(c for s, c in self.cards if s == "player")
        banker = " ".join(c for s, c in self.cards if s == "banker")

        def settle(bet: BaccaratBet) -> BaccaratSettlement:
            exact, outcome = self.game.config.bet_return(bet.spot, result, bet.stake)
            paid, rounding = pay_exact(exact)
            return BaccaratSettlement(bet.bet_id, bet.seat, bet.spot, bet.stake, paid,
                                      rounding, outcome)

        return self._settled(settle, Event("result", f"player {player} ({points(self.player)}), "
                                                     f"banker {banker} ({points(self.banker)}): "
                                                     f"{result}"))

    # -- what a seat sees and what it came to ---------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Public: the phase, every card dealt with the points, the result, the total staked
        and how many cards are left. A seat also sees its own bets and settlements."""
        mover = self.to_move()
        out: dict[str, Any] = {
            "game": self.game.game_id,
            "to_move": "chance" if mover == CHANCE else mover,
            "cards": [[side, card] for side, card in self.cards],
            "player_points": points(self.player),
            "banker_points": points(self.banker),
            "result": self.result(),
            "on_table": sum(b.stake for b in self.bets),
            "shoe_left": sum(n for _, n in self.shoe),
        }
        if seat is not None:
            out.update(self._seat_view(seat))
        return out

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        return frozenset()  # every card of a coup is dealt face up


def baccarat_engines() -> dict[str, Game]:
    """Punto banco with the rule data's default settings.

    >>> list(baccarat_engines())
    ['punto-banco']
    """
    return {"punto-banco": BaccaratEngine()}
