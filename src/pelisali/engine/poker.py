"""The player-vs-player poker games (RAY 1.4.1.1) under the engine contract.

Every game ``pelisali poker selfplay`` offers, by id: ``holdem``, ``pineapple``,
``crazy-pineapple``, ``helsinki``, ``omaha``, ``omaha-5``, ``courchevel``,
``double-flop``, ``stud``, ``razz``, ``soko``, ``draw``, ``lowball`` and
``triple-draw``, each with its usual structure and the forced bets self-play
uses (blinds 1/2; stud antes 1 and a bring-in of 1). Other structures, low and
high/low versions and stakes: :meth:`PokerEngine.for_game` and
:meth:`PokerEngine.for_variant`.

A hand is the table engine's :class:`~pelisali.poker.table.PokerHand`, played
with no generator: whenever the hand needs a card the state is a chance node
offering every card left in the stub at an equal probability, one card at a
time. The state keeps the hand as it was before the step that needs the cards
(the deal, or a seat's action that ends a betting round or draws); each card
chance supplies replays that step on a fresh copy, until the step has all its
cards. A seat bets (:class:`Fold`, :class:`CheckCall`, :class:`RaiseTo` a street
total), discards in the Pineapple games (:class:`Discard`) and draws in the
draw games (:class:`Draw`). A seat sees what
:meth:`~pelisali.poker.table.PokerHand.view` shows it; :meth:`PokerState.returns`
are the chips each seat won or lost, and the rake and the bad-beat drop are in
:meth:`PokerState.accounts`.

>>> from pelisali.engine import Seats
>>> state = poker_engines()["holdem"].new_state(Seats.with_stacks([100, 100], button=1))
>>> state.is_chance(), state.chance_outcomes()[0]
(True, (ChanceOutcome(label='2c'), Fraction(1, 52)))
>>> for card in ["As", "Ad", "Ks", "Kd"]:   # seat 0 is dealt first: left of the button
...     state = state.apply(card).state
>>> state.to_move(), [a.text() for a in state.legal_actions()]
(1, ['fold', 'check/call', 'raise 4', 'raise 100'])
>>> state = state.apply("fold").state
>>> state.is_terminal(), state.returns()
(True, (1, -1))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Any, ClassVar

from pelisali.cards import DECK, CardError, parse_card, parse_cards
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
from pelisali.poker.dealing import CardsNeeded, ChanceCards
from pelisali.poker.games import GAMES as POKER_GAMES
from pelisali.poker.games import make_variant
from pelisali.poker.selfplay import forced_bets
from pelisali.poker.table import PokerError, PokerHand, PokerVariant

# -- actions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fold:
    """Give up the hand (only when there is a bet to call).

    >>> Fold().text()
    'fold'
    """

    def text(self) -> str:
        return "fold"


@dataclass(frozen=True)
class CheckCall:
    """Check when nothing is owed, else call (stud's first actor: post the bring-in).

    ``parse_action`` also reads ``check`` (refused when there is a bet to call),
    ``call``, ``cc`` and ``bring-in``.

    >>> CheckCall().text()
    'check/call'
    """

    def text(self) -> str:
        return "check/call"


@dataclass(frozen=True)
class RaiseTo:
    """Bet, raise or complete to a street total of ``amount`` chips (PokerHand's ``to``).

    >>> RaiseTo(40).text()
    'raise 40'
    """

    amount: int

    def text(self) -> str:
        return f"raise {self.amount}"


@dataclass(frozen=True)
class Discard:
    """Throw away one hole card (Pineapple, Crazy Pineapple, Helsinki).

    >>> Discard("7c").text()
    'discard 7c'
    """

    card: str

    def text(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True)
class Draw:
    """Throw ``cards`` and be dealt as many (none: stand pat), in the draw games.

    >>> Draw(("2c", "Kd")).text(), Draw(()).text()
    ('draw 2c Kd', 'draw')
    """

    cards: tuple[str, ...] = ()

    def __post_init__(self) -> None:  # a list given in code becomes a tuple: a value
        object.__setattr__(self, "cards", tuple(self.cards))

    def text(self) -> str:
        return " ".join(("draw", *self.cards))


@dataclass(frozen=True)
class _Deal:
    """The step of a new hand: forced bets and the first deal (never a seat's action)."""

    def text(self) -> str:
        return "deal"


_DEAL = _Deal()

# -- games ----------------------------------------------------------------------------------


class PokerEngine(Game):
    """A poker game with its structure and stakes, under the contract.

    Blinds ``small_blind``/``big_blind`` (in limit the small bet, twice it the big);
    ``ante`` and ``bring_in`` default to self-play's forced bets for the game
    (:func:`~pelisali.poker.selfplay.forced_bets`). ``fee_percent`` of the chips bet,
    at most ``fee_cap`` a hand, is the house's rake; ``jackpot_drop`` is taken for a
    bad-beat jackpot from a hand of at least ``jackpot_min_players`` that sees a
    second betting round. ``fold_when_check_free`` and ``auto_muck`` are the table
    settings of RULINGS (a fold when a check is free; losing hands mucked at showdown).

    >>> stud = poker_engines()["stud"]
    >>> stud.title(), stud.ante, stud.bring_in, stud.max_seats
    ('stud limit', 1, 1, 12)
    >>> PokerEngine.for_game("omaha", structure="limit", hi_lo=True, low_rule="ace-to-five",
    ...                      qualifier="eight").game_id
    'omaha-hi-lo-limit'
    """

    family: ClassVar[str] = "poker"
    min_seats = 2

    def __init__(self, game_id: str, variant: PokerVariant, small_blind: int = 1,
                 big_blind: int = 2, ante: int | None = None, bring_in: int | None = None,
                 fee_percent: Fraction = Fraction(0), fee_cap: int | None = None,
                 jackpot_drop: int = 0, jackpot_min_players: int = 0,
                 fold_when_check_free: bool = False, auto_muck: bool = False) -> None:
        default_ante, default_bring_in = forced_bets(variant, big_blind)
        self.game_id = game_id
        self.variant = variant
        self.small_blind = small_blind
        self.big_blind = big_blind
        self.ante = default_ante if ante is None else ante
        self.bring_in = default_bring_in if bring_in is None else bring_in
        self.fee_percent = Fraction(fee_percent)
        self.fee_cap = fee_cap
        self.jackpot_drop = jackpot_drop
        self.jackpot_min_players = jackpot_min_players
        self.fold_when_check_free = fold_when_check_free  # RULINGS: table settings
        self.auto_muck = auto_muck
        self.max_seats = variant.max_seats  # the rule data: as many as one deck serves
        try:  # the table engine's own checks of the stakes and forced bets
            self._hand([2 * big_blind + self.ante] * 2, 0, ChanceCards(supplied=DECK))
        except (PokerError, CardError) as error:
            raise IllegalMove(str(error)) from None

    def default_seats(self) -> Seats:
        """Six seats (fewer where the deck serves fewer), each with 100 big blinds."""
        return Seats.with_stacks([100 * self.big_blind] * min(6, self.max_seats))

    @classmethod
    def for_variant(cls, variant: PokerVariant, small_blind: int = 1, big_blind: int = 2, *,
                    game_id: str | None = None, **settings: Any) -> PokerEngine:
        """The game ``variant`` (:func:`~pelisali.poker.games.make_variant`) at these blinds;
        ``settings`` are the other arguments of :class:`PokerEngine`. The id defaults to
        the variant's name, with what differs from the game's usual settings.

        >>> from pelisali.poker.selfplay import VARIANTS
        >>> PokerEngine.for_variant(VARIANTS["draw-openers"]).game_id
        'draw-openers-2-draws'
        """
        if game_id is None:
            base = POKER_GAMES.get(variant.name.removesuffix("-low").removesuffix("-hi-lo"))
            game_id = variant.name
            if variant.openers:
                game_id += "-openers"
            if base is not None and base.draws != variant.draws:
                game_id += f"-{variant.draws}-draws"
            if base is not None and base.structure != variant.structure:
                game_id += f"-{variant.structure}"
        return cls(game_id, variant, small_blind, big_blind, **settings)

    @classmethod
    def for_game(cls, game: str, *, structure: str | None = None, low: bool = False,
                 hi_lo: bool = False, low_rule: str | None = None, qualifier: str | None = None,
                 draws: int | None = None, openers: bool = False, small_blind: int = 1,
                 big_blind: int = 2, **settings: Any) -> PokerEngine:
        """A game by name with the table settings of ``pelisali poker selfplay``: structure,
        low or high/low version, low rule and qualifier, draws, jacks or better."""
        try:
            variant = make_variant(game, structure, low, hi_lo, low_rule, qualifier, draws,
                                   openers)
        except PokerError as error:
            raise IllegalMove(str(error)) from None
        return cls.for_variant(variant, small_blind, big_blind, **settings)

    def title(self) -> str:
        return f"{self.variant.name} {self.variant.structure}"

    def new_state(self, seats: Seats) -> PokerState:
        """A hand for ``seats`` (:meth:`Seats.with_stacks`, the button at ``seats.button``):
        the forced bets are posted and chance is to deal the first card."""
        self.check_seats(seats)
        if len(seats.stacks) != seats.count:
            raise IllegalMove(f"poker is played for chips: each of the {seats.count} seats "
                              f"brings a stack (Seats.with_stacks)")
        for seat, stack in enumerate(seats.stacks):
            if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
                raise IllegalMove(f"seat {seat} brings {stack!r}: a stack is a positive "
                                  f"whole number of chips")
        if isinstance(seats.button, bool) or not isinstance(seats.button, int):
            raise IllegalMove(f"the button is a seat number, not {seats.button!r}")
        return _run(self, seats, tuple(DECK), None, _DEAL, (), None, ())[0]

    def _hand(self, stacks: list[int], button: int, cards: ChanceCards,
              into: PokerHand | None = None) -> PokerHand:
        """A new hand (built ``into`` a given object, so a deal cut short by
        :class:`CardsNeeded` leaves the hand as far as it got)."""
        hand = object.__new__(PokerHand) if into is None else into
        PokerHand.__init__(hand, self.variant, stacks, button, self.small_blind,
                           self.big_blind, cards, ante=self.ante, bring_in=self.bring_in,
                           fee_percent=self.fee_percent, fee_cap=self.fee_cap,
                           jackpot_drop=self.jackpot_drop,
                           jackpot_min_players=self.jackpot_min_players,
                           fold_when_check_free=self.fold_when_check_free,
                           auto_muck=self.auto_muck)
        return hand


# -- states ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PokerState(State):
    """A hand between steps, or at a chance node in the middle of one.

    ``hand`` is the hand as far as it has got (what views show; never changed once the
    state is made). At a chance node ``base`` is the hand before the step that needs the
    cards (``None``: before the deal), ``pending`` that step, ``supplied`` the cards
    chance has dealt towards it and ``pool`` the cards that may come next; ``stub`` is
    what was left of the deck before the step (between steps: now).

    >>> from pelisali.engine import Seats
    >>> state = poker_engines()["razz"].new_state(Seats.with_stacks([50, 50, 50]))
    >>> len(state.chance_outcomes()), state.returns(), state.accounts()["table"]
    (52, (-1, -1, -1), 3)
    >>> len(state.hidden_from(0)), state.view(0)["hole"]
    (52, [])
    """

    game: PokerEngine
    seats: Seats
    hand: PokerHand
    base: PokerHand | None
    pending: Action | None
    stub: tuple[str, ...]
    supplied: tuple[str, ...] = ()
    pool: tuple[str, ...] = ()
    history: tuple[Move, ...] = field(default=())

    # -- who moves ---------------------------------------------------------------
    def to_move(self) -> int | None:
        if self.pool:
            return CHANCE
        if self.hand.finished:
            return None
        return self.hand.actor

    def chips(self) -> tuple[int, ...]:
        """Each seat's chips in front of it now (bets in the pot not counted)."""
        return tuple(self.hand.stacks)

    # -- what may happen -------------------------------------------------------------
    def chance_outcomes(self) -> tuple[tuple[ChanceOutcome, Fraction], ...]:
        if not self.pool:
            return ()
        p = Fraction(1, len(self.pool))
        return tuple((ChanceOutcome(card), p) for card in self.pool)

    def chance_weights(self) -> tuple[tuple[ChanceOutcome, ...], tuple[int, ...], int]:
        if not self.pool:
            return (), (), 1
        return tuple(ChanceOutcome(card) for card in self.pool), (1,) * len(self.pool), \
            len(self.pool)

    def can_come_up(self, outcome: ChanceOutcome) -> bool:
        return outcome.label in self.pool

    def legal_actions(self) -> tuple[Action, ...]:
        """Betting: fold (when facing a bet), check or call, and the smallest and largest
        raise (:meth:`check` takes any total between). Discarding: each hole card. Drawing:
        every set of hole cards the stub and the thrown cards can replace."""
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            return ()
        hand = self.hand
        held = hand.hole[mover]
        if hand.discarding:
            return tuple(Discard(card) for card in held)
        if hand.drawing:
            most = min(len(held), hand.stub_and_thrown)
            return tuple(Draw(cards) for n in range(most + 1) for cards in combinations(held, n))
        legal = hand.legal()
        out: list[Action] = [Fold()] if legal.fold else []
        out.append(CheckCall())
        if legal.raise_min is not None and legal.raise_max is not None:
            out.append(RaiseTo(legal.raise_min))
            if legal.raise_max != legal.raise_min:
                out.append(RaiseTo(legal.raise_max))
        return tuple(out)

    def parse_action(self, text: str) -> Action:
        words = text.split()
        verb = words[0].lower() if words else ""
        rest = " ".join(words[1:])
        try:
            if verb == "fold" and not rest:
                return Fold()
            if verb in ("check", "call", "cc", "check/call", "bring-in") and not rest:
                return self._check_call(verb)
            if verb in ("raise", "bet", "complete") and len(words) == 2:
                if not words[1].isdigit():
                    raise IllegalMove(f"raise to a whole number of chips, not {words[1]!r}")
                return RaiseTo(int(words[1]))
            if verb == "discard" and len(words) == 2:
                return Discard(parse_card(words[1]))
            if verb == "draw":
                return Draw(tuple(parse_cards(rest, allow_duplicates=True)))
            if verb in ("pat", "stand") and rest in ("", "pat"):
                return Draw(())
        except CardError as error:
            raise IllegalMove(str(error)) from None
        raise IllegalMove(f"{text!r} is not an action here: fold, check, call, bring-in, "
                          f"raise N, discard CARD, draw [CARDS]")

    def _check_call(self, verb: str) -> CheckCall:
        """``check`` facing a bet and ``bring-in`` when none is due are refused, not called."""
        hand = self.hand
        if self.to_move() in (None, CHANCE) or hand.discarding or hand.drawing:
            return CheckCall()  # refused as a bet by the checks
        legal = hand.legal()
        bring_in = not legal.fold and not legal.check
        if verb == "check" and not legal.check:
            raise IllegalMove(f"{legal.call} to "
                              f"{'bring in' if bring_in else 'call'}: not a check")
        if verb == "bring-in" and not bring_in:
            raise IllegalMove("the bring-in is posted only by the first to act in stud")
        return CheckCall()

    def _check_action(self, action: Action) -> None:
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            raise IllegalMove("no seat is to act")
        hand = self.hand
        held = hand.hole[mover]
        if hand.discarding:
            if not isinstance(action, Discard):
                raise IllegalMove(f"seat {mover} discards a card first, not "
                                  f"{action.text()!r}")
            if action.card not in held:
                raise IllegalMove(f"{action.card!r} is not a card seat {mover} holds: "
                                  f"{' '.join(held)}")
            return
        if hand.drawing:
            if not isinstance(action, Draw):
                raise IllegalMove(f"seat {mover} draws (or stands pat) first, not "
                                  f"{action.text()!r}")
            strangers = [c for c in action.cards if c not in held]
            if strangers:
                raise IllegalMove(f"{strangers[0]!r} is not a card seat {mover} holds: "
                                  f"{' '.join(held)}")
            if len(set(action.cards)) != len(action.cards):
                raise IllegalMove("a card is discarded twice")
            if len(action.cards) > hand.stub_and_thrown:
                raise IllegalMove(f"the stub and the thrown cards hold "
                                  f"{hand.stub_and_thrown}, not {len(action.cards)}")
            return
        legal = hand.legal()
        if isinstance(action, Fold):
            if not legal.fold:
                raise IllegalMove("nothing to call: check instead of folding"
                                  if legal.check else "the bring-in is posted, not folded")
        elif isinstance(action, RaiseTo):
            amount = action.amount
            if legal.raise_min is None or legal.raise_max is None:
                raise IllegalMove("a raise is not allowed now")
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise IllegalMove(f"raise to a whole number of chips, not {amount!r}")
            if not legal.raise_min <= amount <= legal.raise_max:
                raise IllegalMove(f"raise to {amount} is outside "
                                  f"{legal.raise_min}..{legal.raise_max}")
        elif not isinstance(action, CheckCall):
            raise IllegalMove(f"{action.text()!r} is not a bet: fold, check/call or raise")

    # -- moving on ---------------------------------------------------------------------
    def _apply(self, action: Action) -> Step:
        mover = self.to_move()
        if mover is None:
            raise IllegalMove("the hand is over; nothing more can happen")
        history = (*self.history, Move(mover, action))
        if isinstance(action, ChanceOutcome):
            if self.pending is None:
                raise IllegalMove("no step is waiting for cards")
            state, events = _run(self.game, self.seats, self.stub, self.base, self.pending,
                                 (*self.supplied, action.label), self.hand, history)
        else:
            said = _said(self.hand, mover, action)
            state, events = _run(self.game, self.seats, self.stub, self.hand, action, (),
                                 self.hand, history)
            events = [said, *events]
        return Step(state, tuple(events))

    def __hash__(self) -> int:  # equal states have equal histories
        return hash((self.game.game_id, self.seats, self.history))

    # -- what a seat sees and what it all came to ---------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """:meth:`PokerHand.view <pelisali.poker.table.PokerHand.view>` of the hand as far
        as it has got (seat keys as text), with who is to move and, for the seat to act,
        its legal actions."""
        self._check_seat(seat)
        mover = self.to_move()
        out: dict[str, Any] = {"game": self.game.game_id,
                               "to_move": "chance" if mover == CHANCE else mover}
        for key, value in self.hand.view(seat).items():
            out[key] = {str(k): v for k, v in value.items()} if isinstance(value, dict) else value
        if seat is not None and seat == mover:
            out["legal"] = [a.text() for a in self.legal_actions()]
        return out

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """Every card the seat has not seen: the stub, the others' down cards and the
        cards they threw, unless shown at the showdown. What a seat has once held it has
        seen, wherever the card went after (a draw's reshuffled discards, a deal again)."""
        self._check_seat(seat)
        return frozenset(DECK) - _seen(self.hand, seat)

    def _check_seat(self, seat: int | None) -> None:
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < self.seats.count):
            raise IllegalMove(f"no seat {seat!r} at this table of {self.seats.count}")

    def returns(self) -> tuple[int, ...]:
        """Chips now less chips brought: a bet counts from when it is made."""
        return tuple(now - brought for now, brought
                     in zip(self.hand.stacks, self.seats.stacks, strict=True))

    def accounts(self) -> Mapping[str, int]:
        """The seats, the chips in the pot (``table``, until the hand is over), the house's
        rake (``fee``) and the bad-beat jackpot's drop (``jackpot``)."""
        hand = self.hand
        out = {f"seat {i}": r for i, r in enumerate(self.returns())}
        out["table"] = 0 if hand.finished else sum(hand.total_commit)
        out["fee"] = hand.fee - hand.jackpot_taken
        out["jackpot"] = hand.jackpot_taken
        return out


# -- helpers -------------------------------------------------------------------------------


def _run(game: PokerEngine, seats: Seats, stub: tuple[str, ...], base: PokerHand | None,
         step: Action, supplied: tuple[str, ...], before: PokerHand | None,
         history: tuple[Move, ...]) -> tuple[PokerState, list[Event]]:
    """Run ``step`` (a seat's action, or the deal when ``base`` is None) on a copy of
    ``base`` dealing from ``stub`` the cards ``supplied``: the state after it, or a chance
    node if it needs another card. The events are what ``before`` (the hand as far as it had
    got) did not show yet."""
    cards = ChanceCards(stub, supplied)
    hand = object.__new__(PokerHand) if base is None else base.copy(cards)
    try:
        if base is None:  # built into ``hand``, so a deal cut short leaves what was dealt
            game._hand(list(seats.stacks), seats.button, cards, into=hand)
        else:
            _act(hand, step)
    except CardsNeeded as needed:
        state = PokerState(game, seats, hand, base, step, stub, supplied, needed.pool, history)
        return state, _events(before, hand)
    except (PokerError, CardError) as error:
        raise IllegalMove(str(error)) from None
    if cards.unused:  # chance deals a card only when asked for one
        raise IllegalMove(f"chance dealt {cards.unused} card(s) the hand did not need")
    state = PokerState(game, seats, hand, None, None, tuple(cards.stub), history=history)
    events = _events(before, hand)
    if hand.finished:
        events += [Event("settled", f"seat {seat} {_net(net)}", (seat,))
                   for seat, net in enumerate(state.returns())]
    return state, events


def _act(hand: PokerHand, action: Action) -> None:
    """Play a checked seat action on ``hand``."""
    if isinstance(action, Fold):
        hand.act("fold")
    elif isinstance(action, CheckCall):
        hand.act("check" if hand.legal().check else "call")
    elif isinstance(action, RaiseTo):
        hand.act("raise", action.amount)
    elif isinstance(action, Discard):
        hand.discard(action.card)
    elif isinstance(action, Draw):
        hand.draw(list(action.cards))
    else:
        raise IllegalMove(f"{action.text()!r} is not an action of poker")


def _said(hand: PokerHand, seat: int, action: Action) -> Event:
    """The public line for a seat's action (a discard's and a draw's cards stay private)."""
    if isinstance(action, Discard):
        return Event("discard", f"seat {seat} discards a card", (seat,))
    if isinstance(action, Draw):
        n = len(action.cards)
        return Event("draw", f"seat {seat} " + (f"draws {n}" if n else "stands pat"), (seat,))
    legal = hand.legal()
    if isinstance(action, Fold):
        return Event("fold", f"seat {seat} folds", (seat,))
    if isinstance(action, CheckCall):
        if legal.check:
            return Event("check", f"seat {seat} checks", (seat,))
        if not legal.fold:
            return Event("bring-in", f"seat {seat} brings in for {legal.call}", (seat,))
        return Event("call", f"seat {seat} calls {legal.call}", (seat,))
    if isinstance(action, RaiseTo):
        verb = "raises" if hand.current_bet else "bets"
        return Event("raise", f"seat {seat} {verb} to {action.amount}", (seat,))
    raise IllegalMove(f"{action.text()!r} is not an action of poker")


def _net(net: int) -> str:
    return f"wins {net}" if net > 0 else f"loses {-net}" if net < 0 else "breaks even"


def _split(text: str) -> list[str]:
    """``"AsKd"`` as ``["As", "Kd"]``."""
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def _seats_by_label(hand: PokerHand) -> dict[str, int]:
    """PHH labels (``p1`` is the seat left of the button) to seats."""
    n = hand.players
    return {f"p{(s - hand.button - 1) % n + 1}": s for s in range(n)}


def _events(before: PokerHand | None, after: PokerHand) -> list[Event]:
    """The deals, the shows and the notes in ``after``'s log since ``before``'s (a seat's
    bets are told by :func:`_said`): a down card is private to its seat."""
    start = 0 if before is None else len(before.log)
    label = _seats_by_label(after)
    out = []
    for entry in after.log[start:]:
        words = entry.split()
        if words[0] == "#":
            out.append(Event("note", entry[2:]))
        elif words[:2] == ["d", "dh"]:
            seat = label[words[2]]
            cards = _split(words[3])
            up = [c for c in cards if c in after.up[seat]]
            down = len(cards) - len(up)
            public = f"seat {seat} is dealt " + " and ".join(
                ([f"{down} card{'s' * (down > 1)} face down"] if down else [])
                + ([" ".join(up) + " face up"] if up else []))
            out.append(Event("deal", public, (seat,)))
            if down:
                out.append(Event("hole", f"seat {seat} is dealt {' '.join(cards)}", (seat,),
                                 private=True))
        elif words[:2] in (["d", "db"], ["d", "db2"]):
            board = "the second board" if words[1] == "db2" else "the board"
            out.append(Event("board", f"{board}: {' '.join(_split(words[2]))}"))
        elif words[1] == "sm":
            seat = label[words[0]]
            out.append(Event("show", f"seat {seat} shows {' '.join(_split(words[2]))}",
                             (seat,)))
        elif words[1] in ("discard", "sd") and len(words) > 2:
            seat = label[words[0]]
            out.append(Event("thrown", f"seat {seat} throws {' '.join(_split(words[2]))}",
                             (seat,), private=True))
    return out


def _seen(hand: PokerHand, seat: int | None) -> frozenset[str]:
    """The cards ``seat`` has seen (``None``: a spectator): the boards, every up card, the
    hands shown, and every card dealt to the seat or thrown by it."""
    label = _seats_by_label(hand)
    open_to = set(hand.shown) | ({seat} if seat is not None else set())
    seen = set(hand.board) | set(hand.second_board)
    for up in hand.up:
        seen.update(up)
    for entry in hand.log:
        words = entry.split()
        if words[:2] == ["d", "dh"]:
            owner, cards = words[2], words[3]
        elif len(words) == 3 and words[1] in ("discard", "sd", "sm"):
            owner, cards = words[0], words[2]
        else:
            continue
        if label[owner] in open_to:
            seen.update(_split(cards))
    return frozenset(seen)


def poker_engines() -> dict[str, Game]:
    """Every poker game self-play offers, with its usual structure and forced bets."""
    return {game: PokerEngine(game, make_variant(game)) for game in POKER_GAMES}
