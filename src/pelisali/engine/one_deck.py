"""What the banked games share under the engine contract, from the most games to the
fewest.

- :class:`BankedEngine`, the game from its rule data: a hall's tables chosen by name
  as settings, seats that bring no chips (:func:`house_seats`), the bets named before
  the deal (Three Card Poker, Oasis Stud Poker, the hold'em games, Red Dog, chemin de
  fer).
- :class:`BankedRound`, the returns and accounts of a round's stakes and settlements
  (chemin de fer too); :class:`BettingRound`, the bets each seat places before the
  deal within the table's limits until it says it is done, each bet's and each
  settlement's event and what a seat sees of them (punto banco and Red Dog too).
- :class:`OneDeckRound`, a round dealt from one deck: chance as each card left at an
  equal share, the round's order (the bets, the cards, each box's decisions in seat
  order), the text of its actions, the folds.
- :class:`HoldemRound`, the hold'em games (Ultimate Texas Hold'em, Texas Hold'em
  Bonus): two cards to each box and to the dealer, the board, three decision points, a
  side bet and the progressive, bet only with an ante.

>>> from pelisali.engine import Seats
>>> from pelisali.engine.three_card import ThreeCardEngine
>>> state = ThreeCardEngine().new_state(Seats(1)).apply("bet ante 60000").state
>>> state.accounts()["seat 0"], [a.text() for a in state.betting_actions(0, ("ante",))]
(-50000, [])
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, ClassVar, Protocol, Self, cast

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
from pelisali.engine.wager import EndBetting, PlaceBet
from pelisali.games.round import Limits, RoundError
from pelisali.games.ultimate_texas import pay_category
from pelisali.money import format_cents
from pelisali.poker.evaluate import high_value

POOL_HANDS = {"royal_flush": "pool_percent_royal",
              "straight_flush": "pool_percent_straight_flush"}
"""The hold'em progressive's hands paid a share of its pool (the rule data's key for each)."""
FIXED_HANDS = ("four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind")
"""The hold'em progressive's hands paid a fixed multiple of its fee."""


class _Bet(Protocol):
    @property
    def bet_id(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def spot(self) -> str: ...
    @property
    def stake(self) -> int: ...


class _Settled(_Bet, Protocol):
    @property
    def paid(self) -> int: ...
    @property
    def result(self) -> str: ...


@dataclass(frozen=True)
class Check:
    """The box checks: no bet at this decision point (the hold'em games).

    >>> Check().text()
    'check'
    """

    def text(self) -> str:
        return "check"


@dataclass(frozen=True)
class Fold:
    """The box folds: it loses its ante and what its game loses with it (Ultimate's blind,
    Texas Hold'em Bonus's progressive; Pair Plus, Trips or the Bonus where the rule data
    says so); an exchange's fee paid at Oasis Stud Poker stays paid.

    >>> Fold().text()
    'fold'
    """

    def text(self) -> str:
        return "fold"


def others_cards(hands: Sequence[Sequence[str]], seat: int | None) -> set[str]:
    """The cards of every seat's hand in ``hands`` but ``seat``'s (``None``: everyone's).

    >>> sorted(others_cards((("As", "Kd"), ("2c",), ("9h",)), 1))
    ['9h', 'As', 'Kd']
    """
    return {card for s, cards in enumerate(hands) if s != seat for card in cards}


# -- the engine: rules, settings, seats, bets ---------------------------------------------
Settings = Mapping[str, Callable[[str], object]]
"""A banked game's settings by name (each the name of its rule loader's argument), with
how the setting's ``--set`` text becomes that argument."""


def table_name(text: str) -> str | None:
    """A setting naming one of the rule data's tables; empty, the file's own.

    >>> table_name("per-card"), table_name("")
    ('per-card', None)
    """
    return text or None


def whole_number(refusal: str) -> Callable[[str], int | None]:
    """A setting read as a whole number (empty: the rule data's own); anything else is
    refused in the words ``refusal``.

    >>> decks = whole_number("decks is a whole number")
    >>> decks("6"), decks("")
    (6, None)
    >>> decks("six")
    Traceback (most recent call last):
    ...
    pelisali.engine.contract.IllegalMove: decks is a whole number, not 'six'
    """
    def read(text: str) -> int | None:
        if text and not text.isdigit():
            raise IllegalMove(f"{refusal}, not {text!r}")
        return int(text) if text else None
    return read


def house_seats(game: Game, seats: Seats) -> int:
    """How many boxes ``seats`` holds, once checked: the game is played against the house,
    so seats bring no chips.

    >>> from pelisali.engine.three_card import ThreeCardEngine
    >>> house_seats(ThreeCardEngine(), Seats(2))
    2
    >>> house_seats(ThreeCardEngine(), Seats.with_stacks([1000]))
    Traceback (most recent call last):
    ...
    pelisali.engine.contract.IllegalMove: three-card-poker is played against the house;
    seats bring no chips
    """
    game.check_seats(seats)
    if seats.stacks:
        raise IllegalMove(f"{game.game_id} is played against the house; seats bring no chips")
    return seats.count


class BankedEngine(Game):
    """A game played against the house from its rule data (``rules``, with a hall's tables
    named in its settings) within the table's limits. The subclass names the game as its
    refusals say it (``game_name``), its bets before the deal (``spots``, and a note on
    them, ``spots_note``), its settings (``setting_args``) and its rule loader
    (``load_rules``, a static method). Its one version's id is its family's.

    >>> from pelisali.engine.oasis import OasisEngine
    >>> OasisEngine.from_settings({"fee": "per-card"})
    Traceback (most recent call last):
    ...
    pelisali.engine.contract.IllegalMove: Oasis Stud Poker has no setting 'fee';
    settings: fees, pays
    >>> OasisEngine().spot("Raise")
    Traceback (most recent call last):
    ...
    pelisali.engine.contract.IllegalMove: Oasis Stud Poker has no bet 'Raise' before the
    deal; bets: ante
    """

    game_name: ClassVar[str]
    spots: ClassVar[tuple[str, ...]] = ()
    spots_note: ClassVar[str] = ""
    setting_args: ClassVar[Settings]
    load_rules: ClassVar[Callable[..., Any]]
    rules: Any
    limits: Limits

    def __init__(self, game_id: str | None = None, rules: Any = None,
                 limits: Limits | None = None) -> None:
        self.game_id = self.family if game_id is None else game_id
        self.rules = rules or self.load_rules()
        self.limits = limits or Limits(*self.rules.limits)

    @classmethod
    def from_settings(cls, settings: Mapping[str, str | bool] | None = None,
                      game_id: str | None = None) -> Self:
        """The game with a hall's settings, as ``--set`` gives them; an unknown setting or
        table is an :class:`IllegalMove`, which names the settings."""
        from pelisali.rules.loader import RuleDataError

        chosen = dict(settings or {})
        unknown = set(chosen) - set(cls.setting_args)
        if unknown:
            raise IllegalMove(f"{cls.game_name} has no setting {sorted(unknown)[0]!r}; "
                              f"settings: {', '.join(cls.setting_args)}")
        args = {name: read(str(chosen.get(name) or ""))
                for name, read in cls.setting_args.items()}
        try:
            rules = cls.load_rules(**args)
        except RuleDataError as exc:
            raise IllegalMove(str(exc)) from None
        return cls(game_id, rules)

    def title(self) -> str:
        return self.game_name

    def spot(self, text: str) -> str:
        """The bet before the deal named ``text`` (``_`` read as ``-``);
        :class:`IllegalMove` if there is none such."""
        key = text.strip().lower().replace("_", "-")
        if key not in self.spots:
            raise IllegalMove(f"{self.game_name} has no bet {text!r} before the deal; "
                              f"bets: {', '.join(self.spots)}{self.spots_note}")
        return key


# -- the round's bets ----------------------------------------------------------------------
class BankedRound(State):
    """A round's stakes (``bets``) and how they were settled (``settlements``), each a
    seat's: what each seat and the house came to (the house takes what the seats lost, to
    the cent: a commission, the part of a cent a payout leaves)."""

    seats: int
    bets: Sequence[_Bet]
    settlements: Sequence[_Settled]

    def returns(self) -> tuple[int, ...]:
        out = [0] * self.seats
        for bet in self.bets:
            out[bet.seat] -= bet.stake
        for settled in self.settlements:
            out[settled.seat] += settled.paid
        return tuple(out)

    def accounts(self) -> Mapping[str, int]:
        out = {f"seat {i}": r for i, r in enumerate(self.returns())}
        out["table"] = 0 if self.settlements else sum(b.stake for b in self.bets)
        out["house"] = -sum(out.values())
        return out


class BettingRound(BankedRound):
    """Bets placed before the deal, seat by seat, each seat saying when it is done. The
    subclass (a frozen dataclass) holds ``game`` (with ``spot`` and ``limits``), ``seats``,
    ``bets``, ``done``, ``settlements`` and ``history``; it names its bet class
    (``bet_type``: bet id, seat, spot, stake), deals (:meth:`_deal`), takes the seats'
    other actions (:meth:`_decide`) and settles every bet (:meth:`_settle`)."""

    game: Any
    done: tuple[bool, ...]
    bet_type: ClassVar[type[Any]]
    round_name: ClassVar[str] = "round"
    """What is not dealt when nobody bets: a round, a hand, a coup."""
    spot_words: ClassVar[Mapping[str, str]] = {}
    """How the ``bet`` event names a spot where not by its key (``the ante``)."""
    goes_with: ClassVar[Mapping[str, str]] = {}
    """A bet that brings an equal one on another spot (Ultimate's blind with the ante)."""

    def _stake(self, seat: int, spot: str) -> int:
        return sum(b.stake for b in self.bets if b.seat == seat and b.spot == spot)

    def betting_actions(self, seat: int, spots: Sequence[str]) -> list[Action]:
        """The bets ``seat`` may still place on ``spots``: each range's two ends."""
        limits: Limits = self.game.limits
        out: list[Action] = []
        for spot in spots:
            already = self._stake(seat, spot)
            if already >= limits.maximum:
                continue
            low = max(1, limits.minimum - already)
            out.append(PlaceBet(spot, low))
            if limits.maximum - already != low:
                out.append(PlaceBet(spot, limits.maximum - already))
        return out

    def _accept(self, bet: PlaceBet) -> tuple[int, int]:
        """(accepted, returned): the limits hold for a seat's whole stake on a bet (RAY 1.1,
        GGPoker I 2.1.7), as :meth:`~pelisali.games.punto_banco.PuntoBancoTable.place`."""
        if isinstance(bet.stake, bool) or not isinstance(bet.stake, int) or bet.stake <= 0:
            raise IllegalMove(f"a stake is a positive whole number of cents, not {bet.stake!r}")
        spot = self.game.spot(bet.spot)
        seat = self.to_move()
        if seat is None or seat == CHANCE:
            raise IllegalMove("no seat is to act")
        try:
            accepted: tuple[int, int] = self.game.limits.accept(bet.stake,
                                                                self._stake(seat, spot), spot)
        except RoundError as error:
            raise IllegalMove(str(error)) from None
        return accepted

    def _check_bet(self, action: Action) -> None:
        """Before the deal: ``done``, or a bet within the table's limits."""
        if isinstance(action, EndBetting):
            return
        if not isinstance(action, PlaceBet):
            raise IllegalMove(f"{action.text()!r} is not an action of {self.game.title()}")
        self._accept(action)

    def _apply(self, action: Action) -> Step:
        mover = self.to_move()
        if mover is None:
            raise IllegalMove("the round is over; nothing more can happen")
        history = (*self.history, Move(mover, action))
        if isinstance(action, ChanceOutcome):
            return self._deal(action.label, history)
        if isinstance(action, PlaceBet):
            return self._place_bet(mover, action, history)
        if isinstance(action, EndBetting):
            return self._end_betting(mover, history)
        return self._decide(mover, action, history)

    @abstractmethod
    def _deal(self, card: str, history: tuple[Move, ...]) -> Step:
        """Chance's ``card``, dealt where the next card goes."""

    @abstractmethod
    def _decide(self, mover: int, action: Action, history: tuple[Move, ...]) -> Step:
        """``mover``'s checked action other than a bet before the deal or ``done``."""

    @abstractmethod
    def _settle(self) -> tuple[Any, list[Event]]:
        """This round with every bet settled, and the events that say how."""

    def _step(self, *events: Event) -> Step:
        """The step to this state with ``events``; once nobody is left to move, every bet
        is settled in it."""
        if self.to_move() is not None:
            return Step(self, events)
        state, settled = self._settle()
        return Step(state, (*events, *settled))

    def _place_bet(self, mover: int, action: PlaceBet, history: tuple[Move, ...]) -> Step:
        """``mover``'s bet: its stake within the table's limits (a progressive's is its fee,
        checked already by :meth:`OneDeckRound._check_progressive`), any bet that goes with
        it, and one ``bet`` event that says what was over the table maximum and returned."""
        spot = self.game.spot(action.spot)
        accepted, returned = (action.stake, 0) if spot == "progressive" \
            else self._accept(action)
        added = [self.bet_type(len(self.bets) + 1, mover, spot, accepted)]
        if spot in self.goes_with:
            added.append(self.bet_type(len(self.bets) + 2, mover, self.goes_with[spot],
                                       accepted))
        text = f"seat {mover}: " + " and ".join(
            f"{format_cents(b.stake)} on {self.spot_words.get(b.spot, b.spot)}" for b in added)
        if returned:
            text += f"; {format_cents(returned)} over the table maximum is void and returned"
        state = replace(cast(Any, self), bets=(*self.bets, *added), history=history)
        return Step(state, (Event("bet", text, (mover,)),))

    def _end_betting(self, seat: int, history: tuple[Move, ...]) -> Step:
        """``seat`` places no more bets; once every seat has, the cards come."""
        done = tuple(True if i == seat else d for i, d in enumerate(self.done))
        state = replace(cast(Any, self), done=done, history=history)
        events = [Event("done", f"seat {seat} places no more bets", (seat,))]
        if all(done):
            events.append(Event("no-more-bets", "no more bets" if self.bets
                                else f"no bets: no {self.round_name} is dealt"))
        return Step(state, tuple(events))

    def _settled(self, settle: Callable[[Any], _Settled], *first: Event
                 ) -> tuple[Any, list[Event]]:
        """The round with each bet settled by ``settle``, and its events: ``first``, then
        each settlement's, which its seat sees."""
        out = tuple(settle(bet) for bet in self.bets)
        events = [*first, *(Event("settled", f"bet {s.bet_id} on {s.spot}: {s.result}, "
                                             f"{format_cents(s.paid)} back", (s.seat,),
                                  private=True) for s in out)]
        return replace(cast(Any, self), settlements=out), events

    # -- what a seat sees and what it came to -----------------------------------------
    def _seat_view(self, seat: int) -> dict[str, Any]:
        """What a seat sees of its own bets and settlements (a share of a progressive's
        pool, where it won one)."""
        return {
            "bets": [{"bet_id": b.bet_id, "spot": b.spot, "stake": b.stake}
                     for b in self.bets if b.seat == seat],
            "settlements": [{"bet_id": s.bet_id, "spot": s.spot, "stake": s.stake,
                             "paid": s.paid, "result": s.result,
                             **({"pool_percent": pool} if (pool := getattr(
                                 s, "pool_percent", 0)) else {})}
                            for s in self.settlements if s.seat == seat],
        }


# -- one deck ------------------------------------------------------------------------------
class OneDeckRound(BettingRound):
    """The shared part of a round dealt from one deck: the subclass holds ``deck`` too,
    says where the next card goes (:meth:`_next_card`), which boxes are still to decide
    (:meth:`_deciding`), what they may decide (:meth:`_decisions`) and how the words of a
    decision read (:meth:`_parse_decision`, ``actions_hint``)."""

    deck: tuple[str, ...]
    boxes: tuple[tuple[str, ...], ...]
    dealer: tuple[str, ...]
    actions_hint: ClassVar[str]
    """The actions of the game, as a refused text is told them."""

    def _in_play(self) -> list[int]:
        """The boxes dealt cards: those with a bet, in seat order."""
        return sorted({b.seat for b in self.bets})

    @abstractmethod
    def _next_card(self) -> int | str | None:
        """Where the next card goes: a box (its seat), ``dealer`` or ``board``; ``None``
        when no card is to come now."""

    @abstractmethod
    def _deciding(self) -> list[int]:
        """The boxes still to decide now, in seat order."""

    @abstractmethod
    def _decisions(self, seat: int) -> tuple[Action, ...]:
        """What ``seat``, deciding, may do."""

    @abstractmethod
    def _parse_decision(self, words: list[str]) -> Action | None:
        """The decision ``words`` say, or ``None`` if they say none."""

    # -- who moves ---------------------------------------------------------------------
    def to_move(self) -> int | None:
        if not all(self.done):
            return self.done.index(False)
        if not self.bets or self.settlements:
            return None
        if self._next_card() is not None:
            return CHANCE
        deciding = self._deciding()
        return deciding[0] if deciding else None

    # -- what may happen ---------------------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            return ()
        if all(self.done):
            return self._decisions(mover)
        return tuple(self._bets_open(mover))

    def _bets_open(self, seat: int) -> list[Action]:
        """Before the deal: the bets ``seat`` may still place, and ``done``."""
        return [*self.betting_actions(seat, self.game.spots), EndBetting()]

    def parse_action(self, text: str) -> Action:
        words = text.split()
        if words == ["done"]:
            return EndBetting()
        if words == ["fold"]:
            return Fold()
        if len(words) == 3 and words[0] == "bet":
            if not words[2].isdigit():
                raise IllegalMove(f"a stake is a whole number of cents, not {words[2]!r}")
            return PlaceBet(self.game.spot(words[1]), int(words[2]))
        decision = self._parse_decision(words)
        if decision is None:
            raise IllegalMove(f"{text!r} is not an action here: {self.actions_hint}")
        return decision

    def _check_progressive(self, action: PlaceBet, fee: int) -> None:
        """A progressive side bet takes exactly its ``fee``, once a box (the table's limits
        are not its): the hold'em games' progressives."""
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            raise IllegalMove("no seat is to act")
        if self._stake(mover, "progressive"):
            raise IllegalMove("the progressive is bet once a round")
        if isinstance(action.stake, bool) or not isinstance(action.stake, int) \
                or action.stake != fee:
            given = format_cents(action.stake) if isinstance(action.stake, int) \
                else repr(action.stake)
            raise IllegalMove(f"the progressive takes its fee, {format_cents(fee)}, "
                              f"not {given}")

    # -- chance: each card left, equally likely ------------------------------------------
    def _deal(self, card: str, history: tuple[Move, ...]) -> Step:
        """``card`` dealt where the next card goes; once nobody is left to move (Three Card
        Poker with no ante: Pair Plus alone), every bet is settled."""
        where = self._next_card()
        if where is None or card not in self.deck:
            raise IllegalMove(f"{card!r} cannot come up now")
        dealt: dict[str, Any] = {"deck": tuple(c for c in self.deck if c != card),
                                 "history": history}
        if isinstance(where, int):
            dealt["boxes"] = tuple((*cards, card) if i == where else cards
                                   for i, cards in enumerate(self.boxes))
            event = Event("card", f"{card} to seat {where}", (where,), private=True)
        elif where == "dealer":
            dealt["dealer"] = (*self.dealer, card)
            event = Event("card", self._dealer_card(card, len(self.dealer) + 1))
        else:
            dealt["board"] = (*cast(Any, self).board, card)
            event = Event("board", f"{card} on the board")
        state: OneDeckRound = replace(cast(Any, self), **dealt)
        return state._step(event)

    def _dealer_card(self, card: str, number: int) -> str:
        """What everyone is told of the dealer's ``number``-th card, ``card``."""
        return "a card to the dealer, face down"

    def chance_outcomes(self) -> tuple[tuple[ChanceOutcome, Fraction], ...]:
        if self.to_move() != CHANCE:
            return ()
        share = Fraction(1, len(self.deck))
        return tuple((ChanceOutcome(card), share) for card in self.deck)

    def chance_weights(self) -> tuple[tuple[ChanceOutcome, ...], tuple[int, ...], int]:
        if self.to_move() != CHANCE:
            return (), (), 1
        return tuple(ChanceOutcome(c) for c in self.deck), (1,) * len(self.deck), len(self.deck)

    def can_come_up(self, outcome: ChanceOutcome) -> bool:
        return self.to_move() == CHANCE and outcome.label in self.deck


# -- the hold'em games -------------------------------------------------------------------
def progressive_hand(cards: tuple[str, ...]) -> str:
    """The hold'em progressive's name for five cards (the two hole cards and the flop).

    >>> progressive_hand(("As", "Ks", "Qs", "Js", "Ts"))
    'royal_flush'
    >>> progressive_hand(("2c", "2d", "2h", "5s", "9c"))
    'three_of_a_kind'
    """
    return pay_category(high_value([DECK.index(c) for c in cards]))


class HoldemRound(OneDeckRound):
    """A hold'em round against the dealer: two cards to each box with a bet, in seat
    order, and two to the dealer, face down; the board's cards as the boxes' decisions
    allow; the boxes that have not folded (:meth:`_live`) decide at each of three points
    (:meth:`street`, ``streets`` to name them) in seat order. Before the deal a box bets
    an ante and may add the side bet (``side_bet``) and the progressive, but not those
    alone (``alone`` says so). The subclass holds ``boxes``, ``dealer``, ``board`` and
    ``decided`` (each box's decision points passed) and names its decisions' classes
    (``decision_types``)."""

    board: tuple[str, ...]
    decided: tuple[int, ...]
    side_bet: ClassVar[str]
    streets: ClassVar[tuple[str, ...]]
    decision_types: ClassVar[tuple[type, ...]]
    alone: ClassVar[str]

    @abstractmethod
    def street(self) -> int:
        """The decision point the board stands at: 0, 1, 2; -1 when there is none."""

    @abstractmethod
    def _live(self) -> list[int]:
        """The boxes in play that have not folded, in seat order."""

    @abstractmethod
    def _boxes_view(self) -> dict[str, Any]:
        """What everyone sees of the boxes' decisions."""

    def _street_shown(self) -> bool:
        """Whether the view names the street: once the cards are dealt."""
        return self.street() >= 0 and all(self.done) and self._dealt()

    def _dealt(self) -> bool:
        """Whether every box and the dealer hold their two cards."""
        return len(self.dealer) == 2 and all(len(self.boxes[s]) == 2 for s in self._in_play())

    def _deciding(self) -> list[int]:
        """The boxes still to decide at this street, in seat order."""
        street = self.street()
        if street < 0 or not self._dealt():
            return []
        return [s for s in self._live() if self.decided[s] <= street]

    def _next_card(self) -> int | str | None:
        """Two cards to each box, in seat order, and two to the dealer; then the board's,
        once the boxes still in have decided."""
        for seat in self._in_play():
            if len(self.boxes[seat]) < 2:
                return seat
        if len(self.dealer) < 2:
            return "dealer"
        if len(self.board) == 5 or self._deciding() or not self._live():
            return None
        return "board"

    # -- what may happen ---------------------------------------------------------------
    def _side_bets(self, seat: int) -> bool:
        return bool(self._stake(seat, self.side_bet) or self._stake(seat, "progressive"))

    def _bets_open(self, seat: int) -> list[Action]:
        out = self.betting_actions(seat, ("ante", self.side_bet))
        if not self._stake(seat, "progressive"):
            out.append(PlaceBet("progressive", self.game.rules.progressive["fee"]))
        if self._stake(seat, "ante") or not self._side_bets(seat):
            out.append(EndBetting())  # not with a side bet alone
        return out

    def _check_action(self, action: Action) -> None:
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            raise IllegalMove("no seat is to act")
        if isinstance(action, self.decision_types):
            if not all(self.done):
                raise IllegalMove("a box decides once its cards are dealt")
            if action not in self._decisions(mover):
                offered = ", ".join(a.text() for a in self._decisions(mover))
                raise IllegalMove(f"{action.text()!r} is not open "
                                  f"{self.streets[self.street()]}; open: {offered}")
            return
        if all(self.done):
            raise IllegalMove("no more bets: "
                              + ", ".join(a.text() for a in self._decisions(mover)))
        if isinstance(action, EndBetting) and self._side_bets(mover) \
                and not self._stake(mover, "ante"):
            raise IllegalMove(self.alone)
        if isinstance(action, PlaceBet) and self.game.spot(action.spot) == "progressive":
            self._check_progressive(action, self.game.rules.progressive["fee"])
            return
        self._check_bet(action)

    # -- the showdown --------------------------------------------------------------------
    def value(self, cards: tuple[str, ...]) -> int:
        """A hand's value with the board (higher is better, equal ties)."""
        return high_value([DECK.index(c) for c in (*cards, *self.board)])

    def _progressive_return(self, seat: int, fee: int) -> tuple[int, str, int]:
        """(paid, result, percent of the pool) of the progressive of ``seat`` on its two
        cards and the flop: a fixed multiple of the fee, or a share of the pool (paid by
        the wallet's jackpot, so ``paid`` is then 0)."""
        table = self.game.rules.progressive
        hand = progressive_hand((*self.boxes[seat], *self.board[:3]))
        words = hand.replace("_", " ")
        if hand in POOL_HANDS:
            percent: int = table[POOL_HANDS[hand]]
            return 0, f"win, {words}: {percent} % of the pool", percent
        if hand in FIXED_HANDS:
            return table[hand] * fee, f"win, {words} {table[hand]}x the fee", 0
        return 0, "lose", 0

    # -- what a seat sees --------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Public: who is to move, the street, the board, the total staked and the boxes'
        decisions; the dealer's cards at the end, and every box's. A seat also sees its
        own cards, hand, bets and settlements."""
        mover = self.to_move()
        over = bool(self.settlements)
        out: dict[str, Any] = {
            "game": self.game.game_id,
            "to_move": "chance" if mover == CHANCE else mover,
            "street": self.streets[self.street()] if self._street_shown() else None,
            "board": list(self.board),
            "dealer": list(self.dealer) if over else [],
            "dealer_cards": len(self.dealer),
            "dealer_hand": pay_category(self.value(self.dealer))
            if over and len(self.board) == 5 else None,
            **self._boxes_view(),
            "on_table": sum(b.stake for b in self.bets),
        }
        if over:
            out["boxes"] = {str(s): list(self.boxes[s]) for s in self._in_play()}
        if seat is not None:
            cards = self.boxes[seat]
            out["cards"] = list(cards)
            out["hand"] = (pay_category(self.value(cards))
                           if len(cards) == 2 and len(self.board) >= 3 else None)
            out.update(self._seat_view(seat))
        return out

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The deck left; the dealer's cards and the other boxes' until the round is
        settled."""
        hidden = set(self.deck)
        if not self.settlements:
            hidden |= set(self.dealer) | others_cards(self.boxes, seat)
        return frozenset(hidden)
