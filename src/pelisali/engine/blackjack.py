"""Blackjack (GGPoker live casino III) under the engine contract.

A round: every seat places one bet in each box it takes (:class:`BetBox`; seven
boxes, a seat may take several, one bet a box, as at
:class:`~pelisali.games.blackjack.BlackjackTable`) and says it is done
(:class:`~pelisali.engine.wager.EndBetting`). Then chance deals one card at a
time in the table's order (III 3.4): a card to each box, the dealer's up card,
a second card to each box, the dealer's hole card face down. Under an ace each
box is offered insurance (:class:`Insure`, up to half the bet; 0 declines) and
the dealer then checks the hole card (III 3.7). Each hand in box order then
decides (:class:`Hit`, :class:`Stand`, :class:`Double`, :class:`Split`),
exactly as the rules of :mod:`pelisali.games.blackjack_rules` allow; the cards
a decision takes, and then the dealer's draws, are chance nodes. The round is
settled as the table settles it: the same payouts, results and house rounding.

The shoe is part of the state: at a chance node each distinct card left is an
outcome, with probability its count over the cards left. The hole card is in
:meth:`BlackjackState.hidden_from` for every seat and spectator, and in no view
or public event, until the dealer turns it. A shoe that runs out before the
round is over voids it: every stake goes back (GGPoker III 2.1.5).

>>> from pelisali.engine import Seats
>>> state = blackjack_engines()["blackjack"].new_state(Seats(1))
>>> state = state.apply("bet box 1 1000").state
>>> state = state.apply("done").state
>>> for card in ["9h", "Ts", "9c", "7d"]:   # box 1 9 9, dealer T up, 7 in the hole
...     state = state.apply(card).state
>>> [action.text() for action in state.legal_actions()]
['hit', 'stand', 'double', 'double 1', 'split']
>>> state.hidden_from(0), state.view(0)["dealer"]
(frozenset({'7d'}), ['Ts'])
>>> state = state.apply("stand").state
>>> state.is_terminal(), state.returns(), state.view(None)["dealer"]
(True, (1000,), ['Ts', '7d'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, ClassVar, Final, Literal

from pelisali.engine.baccarat import (
    ShoeChance,
    ShoeCounts,
    full_shoe,
    shoe_counts,
    take,
)
from pelisali.engine.contract import (
    CHANCE,
    Action,
    ChanceOutcome,
    Event,
    Game,
    IllegalMove,
    Move,
    Seats,
    Step,
)
from pelisali.engine.wager import EndBetting
from pelisali.games.blackjack_rules import (
    BlackjackConfig,
    can_double,
    can_hit,
    can_split,
    card_value,
    dealer_checks_hole_card,
    dealer_must_draw,
    hand_total,
    is_blackjack,
    settle_hand,
)
from pelisali.games.round import Limits, RoundError
from pelisali.money import format_cents, pay_exact
from pelisali.rules import load_rules

Phase = Literal["betting", "dealing", "insurance", "playing", "dealer", "settled", "void"]
"""Where a round is: ``dealing`` the first four cards a box, ``dealer`` the dealer's draws,
``void`` over with every stake returned."""

DEALER: Final = (0, 0)
"""Where a card goes when it goes to the dealer (boxes are numbered from 1)."""


# -- actions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class BetBox:
    """A bet of ``stake`` cents in box ``box`` (1 to 7), one bet a box.

    >>> BetBox(3, 1000).text()
    'bet box 3 1000'
    """

    box: int
    stake: int

    def text(self) -> str:
        return f"bet box {self.box} {self.stake}"


@dataclass(frozen=True)
class Insure:
    """Insurance of ``amount`` cents for the box whose answer is awaited; 0 declines.

    >>> Insure(500).text(), Insure(0).text()
    ('insure 500', 'insure 0')
    """

    amount: int

    def text(self) -> str:
        return f"insure {self.amount}"


@dataclass(frozen=True)
class Hit:
    """One more card to the hand whose turn it is."""

    def text(self) -> str:
        return "hit"


@dataclass(frozen=True)
class Stand:
    """No more cards to the hand whose turn it is."""

    def text(self) -> str:
        return "stand"


@dataclass(frozen=True)
class Double:
    """Double the hand's bet and take one card; ``amount`` doubles for less (III 2.6).

    >>> Double().text(), Double(400).text()
    ('double', 'double 400')
    """

    amount: int | None = None

    def text(self) -> str:
        return "double" if self.amount is None else f"double {self.amount}"


@dataclass(frozen=True)
class Split:
    """Split a pair into two hands, the second for as much again (III 2.7)."""

    def text(self) -> str:
        return "split"


# -- the round ------------------------------------------------------------------------------


@dataclass(frozen=True)
class BlackjackHand:
    """A hand in a box: its cards, its stake, a double's extra stake, whether it stood."""

    cards: tuple[str, ...]
    stake: int
    from_split: bool = False
    split_aces: bool = False
    doubled: int = 0
    stood: bool = False

    @property
    def values(self) -> list[int]:
        return [card_value(c) for c in self.cards]

    @property
    def total(self) -> int:
        return hand_total(self.values)[0]

    @property
    def blackjack(self) -> bool:
        return is_blackjack(self.values, self.from_split)


@dataclass(frozen=True)
class BlackjackBox:
    """A box with a bet: whose it is, the bet, its hands once dealt, the insurance answer
    (``None`` until given)."""

    box: int
    seat: int
    bet: int
    hands: tuple[BlackjackHand, ...] = ()
    insurance: int | None = None

    @property
    def staked(self) -> int:
        """Everything staked in the box: the bet, a split's, doubles and insurance."""
        if not self.hands:
            return self.bet
        return sum(h.stake + h.doubled for h in self.hands) + (self.insurance or 0)

    def name(self, index: int) -> str:
        return f"box {self.box}" + (f" hand {index + 1}" if len(self.hands) > 1 else "")


@dataclass(frozen=True)
class BlackjackSettlement:
    """How a stake ended, as :class:`~pelisali.games.blackjack.BlackjackTable` settles it.

    ``spot`` is ``box N``, ``box N hand I`` or ``box N insurance``; ``paid`` whole cents
    back (stake included), ``rounding`` the part of a cent the house keeps; ``result``
    ``win``, ``lose``, ``push``, ``blackjack`` or (a voided round) ``void``.
    """

    bet_id: int
    seat: int
    spot: str
    stake: int
    paid: int
    rounding: Fraction
    result: str


class BlackjackEngine(Game):
    """Blackjack with its settings (decks, payouts, doubles, splits) and table limits.

    >>> engine = BlackjackEngine.from_settings({"decks": "2", "blackjack_pays": "8:5"})
    >>> engine.config.blackjack_multiple, sum(engine.new_state(Seats(1)).shoe_left().values())
    (Fraction(13, 5), 104)
    >>> BlackjackEngine.from_settings({"blackjack_pays": "7:5"})
    Traceback (most recent call last):
    ...
    pelisali.games.base.GameError: setting blackjack_pays takes one of 3:2, 8:5, 2:1, not '7:5'
    (GGPoker III 2.3.1: ... (at least 3:2; ...))
    """

    family: ClassVar[str] = "blackjack"

    def __init__(self, game_id: str = "blackjack", config: BlackjackConfig | None = None,
                 limits: Limits | None = None) -> None:
        self.game_id = game_id
        self.config = config or BlackjackConfig.from_settings()
        if limits is None:
            rules = load_rules("blackjack")
            limits = Limits(rules.limits.min, rules.limits.max)
        self.limits = limits
        self.max_seats = self.config.seats

    @classmethod
    def from_settings(cls, settings: Mapping[str, str | bool] | None = None,
                      game_id: str = "blackjack") -> BlackjackEngine:
        """The game with table settings (``decks``, ``blackjack_pays``, ...)."""
        return cls(game_id, BlackjackConfig.from_settings(settings))

    def title(self) -> str:
        return "blackjack"

    def new_state(self, seats: Seats) -> BlackjackState:
        return self.new_round(seats)

    def new_round(self, seats: Seats, shoe: Mapping[str, int] | None = None) -> BlackjackState:
        """A new round dealt from ``shoe`` (card -> count); a full shoe of the configured decks
        when ``None``."""
        self.check_seats(seats)
        if seats.stacks:
            raise IllegalMove(f"{self.game_id} is played against the house; seats bring no chips")
        counts = shoe_counts(full_shoe(self.config.decks) if shoe is None else shoe,
                             self.config.decks)
        return BlackjackState(self, seats.count, counts, done=(False,) * seats.count)


@dataclass(frozen=True)
class BlackjackState(ShoeChance):
    """A blackjack round: the boxes and their hands, the dealer's cards, the shoe left.

    ``deal_to`` lists where the cards chance deals next go, ``(box, hand)`` or
    :data:`DEALER`; ``turn`` the ``(box, hand)`` still to decide, the first deciding now.
    """

    game: BlackjackEngine
    seats: int
    shoe: ShoeCounts
    done: tuple[bool, ...] = ()
    boxes: tuple[BlackjackBox, ...] = ()
    phase: Phase = "betting"
    dealer: tuple[str, ...] = ()
    revealed: bool = False
    deal_to: tuple[tuple[int, int], ...] = ()
    turn: tuple[tuple[int, int], ...] = ()
    settlements: tuple[BlackjackSettlement, ...] = ()
    history: tuple[Move, ...] = field(default=())

    # -- reading the state ---------------------------------------------------------
    def shoe_left(self) -> Counter[str]:
        """The cards left in the shoe (a copy)."""
        return Counter(dict(self.shoe))

    def box(self, number: int) -> BlackjackBox:
        """The box ``number`` with its bet; :class:`IllegalMove` if it has none."""
        for box in self.boxes:
            if box.box == number:
                return box
        raise IllegalMove(f"box {number} has no bet")

    def insurance_box(self) -> BlackjackBox | None:
        """The first box whose insurance answer is awaited."""
        if self.phase != "insurance":
            return None
        return next((b for b in self.boxes if b.insurance is None), None)

    def current(self) -> tuple[BlackjackBox, int] | None:
        """The box and the index of the hand that decides now, if one does."""
        if self.phase != "playing" or self.deal_to or not self.turn:
            return None
        number, index = self.turn[0]
        return self.box(number), index

    def _cards_left(self) -> int:
        return sum(n for _, n in self.shoe)

    # -- who moves -------------------------------------------------------------------
    def to_move(self) -> int | None:
        if self.phase == "betting":
            return self.done.index(False) if not all(self.done) else None
        if self.phase in ("settled", "void"):
            return None
        if self.deal_to or self.phase == "dealer":
            return CHANCE
        if self.phase == "insurance":
            box = self.insurance_box()
            return None if box is None else box.seat
        current = self.current()
        return None if current is None else current[0].seat

    # -- what may happen -------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            return ()
        if self.phase == "betting":
            taken = {b.box for b in self.boxes}
            limits = self.game.limits
            out: list[Action] = []
            for number in range(1, self.game.config.seats + 1):
                if number not in taken:
                    out.append(BetBox(number, limits.minimum))
                    if limits.maximum != limits.minimum:
                        out.append(BetBox(number, limits.maximum))
            out.append(EndBetting())
            return tuple(out)
        insured = self.insurance_box()
        if insured is not None:
            most = insured.bet // 2
            return (Insure(0), Insure(most)) if most else (Insure(0),)
        return self._decisions()

    def _decisions(self) -> tuple[Action, ...]:
        """The decisions the rules allow the hand whose turn it is (the table's
        :meth:`~pelisali.games.blackjack.BlackjackTable.legal_actions`), as far as the
        shoe holds the cards they take."""
        current = self.current()
        if current is None:
            return ()
        box, index = current
        hand = box.hands[index]
        config = self.game.config
        left = self._cards_left()
        out: list[Action] = []
        if can_hit(hand.values, hand.split_aces, config) and left >= 1:
            out.append(Hit())
        out.append(Stand())
        if can_double(hand.values, hand.from_split, hand.split_aces, config) and left >= 1:
            out.append(Double())
            if hand.stake > 1:
                out.append(Double(1))
        if can_split(hand.values, len(box.hands)) and left >= 2:
            out.append(Split())
        return tuple(out)

    def parse_action(self, text: str) -> Action:
        words = text.lower().split()
        simple: dict[str, Action] = {"done": EndBetting(), "hit": Hit(), "stand": Stand(),
                                     "split": Split(), "double": Double()}
        if len(words) == 1 and words[0] in simple:
            return simple[words[0]]
        if len(words) == 2 and words[0] in ("double", "insure"):
            if not words[1].isdigit():
                raise IllegalMove(f"an amount is a whole number of cents, not {words[1]!r}")
            return Double(int(words[1])) if words[0] == "double" else Insure(int(words[1]))
        if len(words) == 4 and words[:2] == ["bet", "box"]:
            if not words[2].isdigit():
                raise IllegalMove(f"a box is a number 1 to {self.game.config.seats}, "
                                  f"not {words[2]!r}")
            if not words[3].isdigit():
                raise IllegalMove(f"a stake is a whole number of cents, not {words[3]!r}")
            return BetBox(int(words[2]), int(words[3]))
        raise IllegalMove(f"{text!r} is not an action here: 'bet box BOX CENTS', 'done', "
                          f"'insure CENTS', 'hit', 'stand', 'double [CENTS]' or 'split'")

    def _check_action(self, action: Action) -> None:
        if self.phase == "betting":
            if isinstance(action, EndBetting):
                return
            if not isinstance(action, BetBox):
                raise IllegalMove(f"{action.text()!r}: the cards are not dealt yet; "
                                  f"'bet box BOX CENTS' or 'done'")
            self._accept(action)
            return
        insured = self.insurance_box()
        if insured is not None:
            if not isinstance(action, Insure):
                raise IllegalMove(f"{action.text()!r}: box {insured.box} is to answer the "
                                  f"insurance offer ('insure CENTS', 0 declines)")
            amount = action.amount
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
                raise IllegalMove("insurance is a whole number of cents, 0 to decline")
            if amount > insured.bet // 2:
                raise IllegalMove(f"insurance is at most half the bet: "
                                  f"{format_cents(insured.bet // 2)}")
            return
        current = self.current()
        if current is None:
            raise IllegalMove("no hand is waiting for a decision")
        legal = self._decisions()
        if isinstance(action, Double):
            if Double() not in legal:
                raise IllegalMove(f"{action.text()!r} is not allowed now; choose "
                                  f"{', '.join(a.text() for a in legal)}")
            stake = current[0].hands[current[1]].stake
            extra = action.amount
            if extra is not None and (isinstance(extra, bool) or not isinstance(extra, int)
                                      or not 0 < extra <= stake):
                raise IllegalMove(f"a double is more than 0 and at most the bet "
                                  f"{format_cents(stake)}")
            return
        if action not in legal:
            raise IllegalMove(f"{action.text()!r} is not allowed now; choose "
                              f"{', '.join(a.text() for a in legal)}")

    def _accept(self, bet: BetBox) -> tuple[int, int]:
        """(accepted, returned) as :meth:`~pelisali.games.blackjack.BlackjackTable.place`."""
        boxes = self.game.config.seats
        if isinstance(bet.box, bool) or not isinstance(bet.box, int) or \
                not 1 <= bet.box <= boxes:
            raise IllegalMove(f"boxes are numbered 1 to {boxes}, not {bet.box!r}")
        for box in self.boxes:
            if box.box == bet.box:
                if box.seat != self.to_move():
                    raise IllegalMove(f"box {bet.box} is taken by seat {box.seat}")
                raise IllegalMove(f"box {bet.box} already has a bet; one bet a box")
        if isinstance(bet.stake, bool) or not isinstance(bet.stake, int) or bet.stake <= 0:
            raise IllegalMove(f"a stake is a positive whole number of cents, not {bet.stake!r}")
        try:
            return self.game.limits.accept(bet.stake, 0, f"box {bet.box}")
        except RoundError as error:
            raise IllegalMove(str(error)) from None

    # -- applying ----------------------------------------------------------------------
    def _apply(self, action: Action) -> Step:
        mover = self.to_move()
        if mover is None:
            raise IllegalMove("the round is over; nothing more can happen")
        state = replace(self, history=(*self.history, Move(mover, action)))
        events: list[Event]
        if isinstance(action, ChanceOutcome):
            if action.label not in dict(self.shoe):
                raise IllegalMove(f"{action.label!r} cannot come up now")
            state, events = state._card(action.label)
        elif isinstance(action, BetBox):
            state, events = state._bet(mover, action)
        elif isinstance(action, EndBetting):
            state, events = state._end_betting(mover)
        elif isinstance(action, Insure):
            state, events = state._insure(action.amount)
        elif isinstance(action, Hit | Stand | Double | Split):
            state, events = state._decide(mover, action)
        else:
            raise IllegalMove(f"{action.text()!r} is not an action of blackjack")
        if state.to_move() == CHANCE and not state.shoe:
            state, voided = state._void("the shoe ran out before the round was over")
            events += voided
        return Step(state, tuple(events))

    def _bet(self, mover: int, action: BetBox) -> tuple[BlackjackState, list[Event]]:
        accepted, returned = self._accept(action)
        box = BlackjackBox(action.box, mover, accepted)
        boxes = tuple(sorted((*self.boxes, box), key=lambda b: b.box))
        text = f"seat {mover}: {format_cents(accepted)} in box {action.box}"
        if returned:
            text += f"; {format_cents(returned)} over the table maximum is void and returned"
        return replace(self, boxes=boxes), [Event("bet", text, (mover,))]

    def _end_betting(self, mover: int) -> tuple[BlackjackState, list[Event]]:
        done = tuple(True if i == mover else d for i, d in enumerate(self.done))
        events = [Event("done", f"seat {mover} places no more bets", (mover,))]
        if not all(done):
            return replace(self, done=done), events
        if not self.boxes:
            events.append(Event("no-more-bets", "no bets: no cards are dealt"))
            return replace(self, done=done, phase="settled"), events
        # The deal (III 3.4): each box, the dealer's up card, each box, the hole card.
        first = tuple((b.box, 0) for b in self.boxes)
        boxes = tuple(replace(b, hands=(BlackjackHand((), b.bet),)) for b in self.boxes)
        events.append(Event("no-more-bets", "no more bets"))
        return replace(self, done=done, boxes=boxes, phase="dealing",
                       deal_to=(*first, DEALER, *first, DEALER)), events

    def _with_hand(self, number: int, index: int, hand: BlackjackHand) -> BlackjackState:
        boxes = tuple(replace(b, hands=tuple(hand if i == index else h
                                             for i, h in enumerate(b.hands)))
                      if b.box == number else b for b in self.boxes)
        return replace(self, boxes=boxes)

    def _card(self, card: str) -> tuple[BlackjackState, list[Event]]:
        """Deal ``card`` where the next card goes, then go on as the table does."""
        target = self.deal_to[0] if self.deal_to else DEALER
        state = replace(self, shoe=take(self.shoe, card), deal_to=self.deal_to[1:])
        if target == DEALER:
            state = replace(state, dealer=(*self.dealer, card))
            if self.phase == "dealing" and len(self.dealer) == 1:
                event = Event("card", "the dealer's hole card, face down")
            else:
                event = Event("card", f"{card} to the dealer")
        else:
            number, index = target
            box = self.box(number)
            hand = box.hands[index]
            state = state._with_hand(number, index, replace(hand, cards=(*hand.cards, card)))
            event = Event("card", f"{card} to {box.name(index)}", (box.seat,))
        events = [event]
        if state.deal_to:
            return state, events
        if state.phase == "dealing":
            state = replace(state, turn=tuple((b.box, 0) for b in state.boxes))
            if dealer_checks_hole_card(card_value(state.dealer[0])):
                events.append(Event("insurance", "insurance offered"))
                return replace(state, phase="insurance"), events
            state = replace(state, phase="playing")
        if state.phase == "playing":
            state, more = state._advance()
            return state, events + more
        # the dealer draws
        if dealer_must_draw([card_value(c) for c in state.dealer],
                            self.game.config.dealer_hits_soft_17):
            return state, events
        state, more = state._settle()
        return state, events + more

    def _insure(self, amount: int) -> tuple[BlackjackState, list[Event]]:
        box = self.insurance_box()
        if box is None:
            raise IllegalMove("insurance is offered only when the dealer's up card is an ace")
        boxes = tuple(replace(b, insurance=amount) if b.box == box.box else b
                      for b in self.boxes)
        state = replace(self, boxes=boxes)
        text = (f"box {box.box} insures {format_cents(amount)}" if amount
                else f"box {box.box} declines insurance")
        events = [Event("insure", text, (box.seat,))]
        if state.insurance_box() is not None:
            return state, events
        # After insurance the dealer looks at the hole card under an ace (III 3.7).
        events.append(Event("peek", "the dealer checks the hole card"))
        if is_blackjack([card_value(c) for c in state.dealer]):
            state, more = replace(state, turn=())._finish()
            return state, events + more
        events.append(Event("peek", "the dealer has no blackjack"))
        state, more = replace(state, phase="playing")._advance()
        return state, events + more

    def _decide(self, mover: int, action: Action) -> tuple[BlackjackState, list[Event]]:
        current = self.current()
        if current is None:
            raise IllegalMove("no hand is waiting for a decision")
        box, index = current
        hand = box.hands[index]
        events = [Event("decision", f"{box.name(index)}: {action.text()}", (mover,))]
        if isinstance(action, Hit):
            return replace(self, deal_to=((box.box, index),)), events
        if isinstance(action, Stand):
            state, more = self._with_hand(box.box, index, replace(hand, stood=True))._advance()
            return state, events + more
        if isinstance(action, Double):
            extra = hand.stake if action.amount is None else action.amount
            state = self._with_hand(box.box, index, replace(hand, doubled=extra, stood=True))
            return replace(state, deal_to=((box.box, index),)), events  # one card (III 2.6)
        if not isinstance(action, Split):
            raise IllegalMove(f"{action.text()!r} is not a decision")
        aces = hand.values[0] == 1
        first = BlackjackHand(hand.cards[:1], hand.stake, from_split=True, split_aces=aces)
        second = BlackjackHand(hand.cards[1:], hand.stake, from_split=True, split_aces=aces)
        boxes = tuple(replace(b, hands=(first, second)) if b.box == box.box else b
                      for b in self.boxes)
        turn = (self.turn[0], (box.box, 1), *self.turn[1:])
        return replace(self, boxes=boxes, turn=turn,
                       deal_to=((box.box, 0), (box.box, 1))), events

    def _advance(self) -> tuple[BlackjackState, list[Event]]:
        """Skip hands with nothing to decide; when none is left, the dealer plays."""
        config = self.game.config
        turn = list(self.turn)
        while turn:
            hand = self.box(turn[0][0]).hands[turn[0][1]]
            done = hand.stood or hand.blackjack or (
                not can_hit(hand.values, hand.split_aces, config)
                and not can_double(hand.values, hand.from_split, hand.split_aces, config))
            if not done:
                return replace(self, turn=tuple(turn)), []
            turn.pop(0)
        return replace(self, turn=())._finish()

    def _finish(self) -> tuple[BlackjackState, list[Event]]:
        """The dealer turns the hole card and draws if any hand is left to decide."""
        values = [card_value(c) for c in self.dealer]
        total, soft = hand_total(values)
        label = "blackjack" if is_blackjack(values) else ("soft " if soft else "") + str(total)
        events = [Event("reveal", f"the dealer turns the hole card {self.dealer[1]}: "
                                  f"{' '.join(self.dealer)} ({label})")]
        state = replace(self, revealed=True)
        open_hands = [h for b in self.boxes for h in b.hands if h.total <= 21 and not h.blackjack]
        if (not is_blackjack(values) and open_hands
                and dealer_must_draw(values, self.game.config.dealer_hits_soft_17)):
            return replace(state, phase="dealer"), events
        state, more = state._settle()
        return state, events + more

    def _settle(self) -> tuple[BlackjackState, list[Event]]:
        """Settle every stake as :meth:`~pelisali.games.blackjack.BlackjackTable._settle` does."""
        config = self.game.config
        dealer_values = [card_value(c) for c in self.dealer]
        dealer_bj = is_blackjack(dealer_values)
        out: list[BlackjackSettlement] = []

        def pay(box: BlackjackBox, spot: str, stake: int, exact: Fraction, result: str) -> None:
            paid, rounding = pay_exact(exact)
            out.append(BlackjackSettlement(len(out) + 1, box.seat, spot, stake, paid, rounding,
                                           result))

        for box in self.boxes:
            if box.insurance:
                exact = (config.insurance_pays.total_return_exact(box.insurance)
                         if dealer_bj else Fraction(0))
                pay(box, f"box {box.box} insurance", box.insurance, exact,
                    "win" if dealer_bj else "lose")
            original_only = dealer_bj and not config.dealer_blackjack_takes_all
            for index, hand in enumerate(box.hands):
                stake = hand.stake + hand.doubled
                if hand.blackjack and not dealer_bj:
                    exact, result = hand.stake * config.blackjack_multiple, "blackjack"
                elif hand.blackjack:
                    exact, result = Fraction(hand.stake), "push"
                elif original_only:
                    # Under a ten, "original bet only": the original bet is lost and every
                    # later stake goes back, as the table settles it.
                    exact = Fraction(stake - box.bet if index == 0 else stake)
                    result = "lose" if index == 0 else "push"
                else:
                    multiple = settle_hand(hand.values, dealer_values, hand.from_split)
                    exact = stake * multiple
                    result = {0: "lose", 1: "push", 2: "win"}[int(multiple)]
                pay(box, box.name(index), stake, exact, result)
        return replace(self, phase="settled", settlements=tuple(out)), self._settled_events(out)

    def _void(self, reason: str) -> tuple[BlackjackState, list[Event]]:
        """Every stake goes back (GGPoker III 2.1.5)."""
        out: list[BlackjackSettlement] = []
        for box in self.boxes:
            if box.insurance:
                out.append(BlackjackSettlement(len(out) + 1, box.seat, f"box {box.box} insurance",
                                               box.insurance, box.insurance, Fraction(0), "void"))
            for index, hand in enumerate(box.hands or (BlackjackHand((), box.bet),)):
                stake = hand.stake + hand.doubled
                out.append(BlackjackSettlement(len(out) + 1, box.seat, box.name(index), stake,
                                               stake, Fraction(0), "void"))
        state = replace(self, phase="void", revealed=True, deal_to=(), turn=(),
                        settlements=tuple(out))
        return state, [Event("void", f"the round is void: {reason}; every stake goes back"),
                       *self._settled_events(out)]

    @staticmethod
    def _settled_events(settlements: list[BlackjackSettlement]) -> list[Event]:
        return [Event("settled", f"{s.spot}: {s.result}, {format_cents(s.paid)} back", (s.seat,),
                      private=True) for s in settlements]

    # -- what a seat sees and what it came to ---------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Public: the phase, every box's cards (all dealt face up), the dealer's up card and,
        once turned, the hole card and the draws; whose turn it is. A seat also sees its own
        stakes, its settlements and, on its turn, its choices."""
        mover = self.to_move()
        shown = list(self.dealer) if self.revealed else list(self.dealer[:1])
        out: dict[str, Any] = {
            "game": self.game.game_id,
            "phase": self.phase,
            "to_move": "chance" if mover == CHANCE else mover,
            "dealer": shown,
            "dealer_total": hand_total([card_value(c) for c in shown])[0] if shown else None,
            "hole_card": ("face down" if len(self.dealer) >= 2 and not self.revealed
                          else None),
            "boxes": [{"box": b.box, "seat": b.seat,
                       "insured": bool(b.insurance),
                       "hands": [{"cards": list(h.cards), "total": h.total,
                                  "blackjack": h.blackjack, "doubled": bool(h.doubled),
                                  "stood": h.stood} for h in b.hands]}
                      for b in self.boxes],
            "turn": list(self.turn[0]) if self.current() is not None else None,
            "on_table": 0 if self.settlements else sum(b.staked for b in self.boxes),
            "shoe_left": self._cards_left(),
        }
        if seat is not None:
            out["stakes"] = [{"box": b.box, "bet": b.bet, "insurance": b.insurance,
                              "hands": [h.stake + h.doubled for h in b.hands]}
                             for b in self.boxes if b.seat == seat]
            out["settlements"] = [{"bet_id": s.bet_id, "spot": s.spot, "stake": s.stake,
                                   "paid": s.paid, "result": s.result}
                                  for s in self.settlements if s.seat == seat]
            out["actions"] = ([a.text() for a in self.legal_actions()] if mover == seat
                              else [])
        return out

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The dealer's hole card until it is turned, from everybody alike."""
        if len(self.dealer) >= 2 and not self.revealed:
            return frozenset({self.dealer[1]})
        return frozenset()

    def returns(self) -> tuple[int, ...]:
        out = [0] * self.seats
        for box in self.boxes:
            out[box.seat] -= box.staked
        for settled in self.settlements:
            out[settled.seat] += settled.paid
        return tuple(out)

    def accounts(self) -> Mapping[str, int]:
        out = {f"seat {i}": r for i, r in enumerate(self.returns())}
        out["table"] = (0 if self.phase in ("settled", "void")
                        else sum(b.staked for b in self.boxes))
        out["house"] = sum(s.stake - s.paid for s in self.settlements)
        return out


def blackjack_engines() -> dict[str, Game]:
    """Blackjack with the rule data's default settings.

    >>> list(blackjack_engines())
    ['blackjack']
    """
    return {"blackjack": BlackjackEngine()}
