"""A blackjack table by the GGPoker live-casino rules: up to seven seats, one shoe.

The rules themselves are the pure functions of
:mod:`pelisali.games.blackjack_rules`; this module deals the cards, offers
each seat exactly the decisions those rules allow, plays the dealer and
settles, recording every card and decision so the round replays.

>>> from pelisali.rng import SeededRng
>>> table = BlackjackTable(SeededRng(5))
>>> table.sit("ann", 100_000)
>>> _ = table.place("ann", 1, 1_000)
>>> table.deal(stack=["9h", "Ts", "9c", "7d", "3s"])   # ann 9 9, dealer T up, 7 in the hole
>>> table.legal_actions()
['hit', 'stand', 'double', 'split']
>>> table.act("stand")
>>> [(s.result, s.paid) for s in table.settlements]
[('win', 2000)]
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pelisali.cards import Shoe, parse_card
from pelisali.games.base import GameError
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
from pelisali.games.round import Limits, Receipt, RoundError, Settlement
from pelisali.money import format_cents, pay_exact
from pelisali.rng import Rng
from pelisali.rules import BlackjackRules, RuleDataError, load_rules


class Phase(enum.Enum):
    BETTING = "betting"
    INSURANCE = "insurance"
    PLAYING = "playing"
    SETTLED = "settled"


@dataclass
class Hand:
    cards: list[str]
    stake: int
    from_split: bool = False
    split_aces: bool = False
    doubled: int = 0  # the extra stake of a double (at most the hand's bet)
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

    def describe(self) -> str:
        total, soft = hand_total(self.values)
        label = "blackjack" if self.blackjack else ("soft " if soft else "") + str(total)
        return f"{' '.join(self.cards)} ({label})"


@dataclass
class Seat:
    number: int
    player: str
    bet: int
    hands: list[Hand] = field(default_factory=list)
    insurance: int | None = None  # None: not yet decided

    @property
    def staked(self) -> int:
        return sum(h.stake + h.doubled for h in self.hands) + (self.insurance or 0)


@dataclass
class BlackjackTable:
    rng: Rng
    config: BlackjackConfig = field(default_factory=BlackjackConfig)
    limits: Limits | None = None
    table_id: str = "BJ1"
    balances: dict[str, int] = field(default_factory=dict)
    brought: int = 0
    house_result: int = 0
    house_rounding: Fraction = Fraction(0)
    seats: dict[int, Seat] = field(default_factory=dict)
    dealer: list[str] = field(default_factory=list)
    phase: Phase = Phase.BETTING
    history: list[dict[str, Any]] = field(default_factory=list)
    keep_history: bool = True  # simulations turn the per-round record off
    shuffle_log: list[dict[str, Any]] = field(default_factory=list)
    settlements: list[Settlement] = field(default_factory=list)
    rounds_played: int = 0
    _turn: list[tuple[int, int]] = field(default_factory=list)  # (seat, hand) still to act
    _events: list[str] = field(default_factory=list)
    _stack: list[str] | None = None
    _start: int = 0
    _dealt: list[str] = field(default_factory=list)  # this round's cards, in dealing order
    _decisions: list[list[object]] = field(default_factory=list)
    venue: str = ""
    clock: Callable[[], str] | None = None  # date and time for round records

    def __post_init__(self) -> None:
        if self.limits is None:
            rules = load_rules("blackjack")
            if not isinstance(rules, BlackjackRules):
                raise RuleDataError(f"the blackjack rule file holds {type(rules).__name__}")
            self.limits = Limits(rules.limits.min, rules.limits.max)
        self.shoe = Shoe(self.config.decks, self.config.cut_cards_from_back)
        self._shuffle()

    # -- shoe ------------------------------------------------------------------------
    def _shuffle(self) -> None:
        self.shoe.shuffle(self.rng)
        self.shoe.burn(self.config.burn_after_shuffle)
        if self.keep_history:
            self.shuffle_log.append({**self.shoe.record(), "burned": list(self.shoe.burned)})

    def _card(self, to: str) -> str:
        if self._stack is not None:
            if not self._stack:
                raise RoundError("the entered cards ran out before the round ended")
            card = self._stack.pop(0)
        else:
            card = self.shoe.deal_one()
        self._events.append(f"card {card} to {to}")
        self._dealt.append(card)
        return card

    # -- players and bets ----------------------------------------------------------------
    def sit(self, player: str, balance: int) -> None:
        if player in self.balances:
            raise GameError(f"{player} is already at the table")
        if balance < 0:
            raise GameError("a balance cannot be negative")
        self.balances[player] = balance
        self.brought += balance

    def _check_funds(self, player: str, amount: int) -> None:
        if amount > self.balances[player]:
            raise RoundError(f"{player}: balance {format_cents(self.balances[player])}; "
                             "chips are not sold on credit")

    def _check_cards(self, n: int) -> None:
        available = len(self._stack) if self._stack is not None else self.shoe.remaining
        if available < n:
            raise RoundError(f"{n} cards are needed and {available} are left")

    def _debit(self, player: str, amount: int) -> None:
        self._check_funds(player, amount)
        self.balances[player] -= amount

    def place(self, player: str, seat: int, stake: int) -> Receipt:
        """A bet in a seat's box before the first card (III 2.1.1)."""
        if self.phase is not Phase.BETTING:
            raise RoundError("no more bets: the cards are being dealt")
        if player not in self.balances:
            raise GameError(f"{player} is not at this table")
        if not 1 <= seat <= self.config.seats:
            raise RoundError(f"seats are numbered 1 to {self.config.seats}")
        if seat in self.seats and self.seats[seat].player != player:
            raise RoundError(f"seat {seat} is taken by {self.seats[seat].player}")
        if seat in self.seats:
            raise RoundError(f"seat {seat} already has a bet; one bet a seat")
        if isinstance(stake, bool) or not isinstance(stake, int) or stake <= 0:
            raise RoundError(f"a stake must be a positive number of cents, not {stake!r}")
        if self.limits is None:
            raise RuntimeError("__post_init__ sets the limits")
        accepted, returned = self.limits.accept(stake, 0, f"seat {seat}")  # one bet a seat
        self._debit(player, accepted)
        self.seats[seat] = Seat(seat, player, accepted)
        message = f"{format_cents(accepted)} in seat {seat}" + (
            f": {format_cents(returned)} over the table maximum is void and returned"
            if returned else "")
        return Receipt(seat, accepted, returned, message)

    def withdraw(self, player: str, seat: int) -> None:
        if self.phase is not Phase.BETTING:
            raise RoundError("no more bets: the cards are being dealt")
        found = self.seats.get(seat)
        if found is None or found.player != player:
            raise RoundError(f"{player} has no bet in seat {seat}")
        del self.seats[seat]
        self.balances[player] += found.bet

    @property
    def on_table(self) -> int:
        """Stakes taken and not yet settled."""
        if self.phase is Phase.SETTLED:
            return 0
        return sum(s.bet if not s.hands else s.staked for s in self.seats.values())

    # -- the deal --------------------------------------------------------------------------
    def deal(self, stack: Sequence[str] | None = None) -> None:
        """No more bets; deal (III 3.4): a card to each seat, the dealer's up card, a second
        card to each seat, the dealer's hole card face down. ``stack`` enters the cards a
        live dealer dealt (or a replay's), in dealing order, instead of the shoe."""
        if self.phase is not Phase.BETTING:
            raise RoundError(f"the round is {self.phase.value}")
        if not self.seats:
            raise RoundError("no bets on the table")
        self._stack = [parse_card(c) for c in stack] if stack is not None else None
        self._start = self.shoe.position
        self._events = []
        self._dealt = []
        self._decisions = []
        self._opened_at = self.clock() if self.clock else None
        self.settlements = []
        self.rounds_played += 1
        order = sorted(self.seats)
        for seat in order:
            self.seats[seat].hands = [Hand([self._card(f"seat {seat}")], self.seats[seat].bet)]
        self.dealer = [self._card("dealer (up)")]
        for seat in order:
            self.seats[seat].hands[0].cards.append(self._card(f"seat {seat}"))
        self.dealer.append(self._card("dealer (hole, face down)"))
        self._turn = [(seat, 0) for seat in order]
        if dealer_checks_hole_card(card_value(self.dealer[0])):
            self.phase = Phase.INSURANCE
            self._events.append("insurance offered")
        else:
            self.phase = Phase.PLAYING
            self._advance()

    @property
    def up_card(self) -> str:
        return self.dealer[0]

    def insurance_pending(self) -> list[int]:
        return [n for n in sorted(self.seats) if self.seats[n].insurance is None]

    def insure(self, seat: int, amount: int) -> None:
        """Insurance under an ace, up to half the original bet; 0 declines (III 2.5)."""
        if self.phase is not Phase.INSURANCE:
            raise RoundError("insurance is offered only when the dealer's up card is an ace")
        found = self.seats.get(seat)
        if found is None:
            raise RoundError(f"seat {seat} has no bet")
        if found.insurance is not None:
            raise RoundError(f"seat {seat} has already answered the insurance offer")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise RoundError("insurance is a whole number of cents, 0 to decline")
        if amount > found.bet // 2:
            raise RoundError(f"insurance is at most half the bet: {format_cents(found.bet // 2)}")
        self._debit(found.player, amount)
        found.insurance = amount
        self._decisions.append(["insure", seat, amount])
        self._events.append(f"seat {seat} insures {format_cents(amount)}")
        if not self.insurance_pending():
            self._peek()

    def _peek(self) -> None:
        """After insurance the dealer looks at the hole card under an ace (III 3.7)."""
        self._events.append("dealer checks the hole card")
        if is_blackjack([card_value(c) for c in self.dealer]):
            self._events.append("dealer has blackjack")
            self._turn = []
            self._finish()
            return
        self.phase = Phase.PLAYING
        self._advance()

    # -- playing -----------------------------------------------------------------------------
    def current(self) -> tuple[Seat, Hand] | None:
        if self.phase is not Phase.PLAYING or not self._turn:
            return None
        seat, hand = self._turn[0]
        return self.seats[seat], self.seats[seat].hands[hand]

    def legal_actions(self) -> list[str]:
        """Exactly the decisions the rules allow the hand whose turn it is."""
        turn = self.current()
        if turn is None:
            return []
        seat, hand = turn
        values = hand.values
        actions = []
        if can_hit(values, hand.split_aces, self.config):
            actions.append("hit")
        actions.append("stand")
        if can_double(values, hand.from_split, hand.split_aces, self.config) and \
                self.balances[seat.player] > 0:
            actions.append("double")
        if can_split(values, len(seat.hands)) and self.balances[seat.player] >= hand.stake:
            actions.append("split")
        return actions

    def act(self, action: str, amount: int | None = None) -> None:
        """Hit, stand, double (``amount``: for less than the bet) or split."""
        turn = self.current()
        if turn is None:
            raise RoundError("no hand is waiting for a decision")
        seat, hand = turn
        if action not in self.legal_actions():
            raise RoundError(f"{action!r} is not allowed now; choose "
                             f"{', '.join(self.legal_actions())}")
        label = f"seat {seat.number}" + (f" hand {self._turn[0][1] + 1}"
                                         if len(seat.hands) > 1 else "")
        if action == "hit":
            hand.cards.append(self._card(label))
        elif action == "stand":
            hand.stood = True
        elif action == "double":
            extra = hand.stake if amount is None else amount
            if isinstance(extra, bool) or not isinstance(extra, int) or not 0 < extra <= hand.stake:
                raise RoundError(f"a double is more than 0 and at most the bet "
                                 f"{format_cents(hand.stake)}")
            self._check_funds(seat.player, extra)
            card = self._card(label)  # drawn before any money moves, so a failure changes nothing
            self._debit(seat.player, extra)
            hand.doubled = extra
            hand.cards.append(card)
            hand.stood = True  # one card only (III 2.6)
        elif action == "split":
            self._check_funds(seat.player, hand.stake)
            self._check_cards(2)
            self._debit(seat.player, hand.stake)
            aces = hand.values[0] == 1
            second = Hand([hand.cards.pop()], hand.stake, from_split=True, split_aces=aces)
            hand.from_split, hand.split_aces = True, aces
            seat.hands.append(second)
            self._turn.insert(1, (seat.number, 1))
            hand.cards.append(self._card(f"seat {seat.number} hand 1"))
            second.cards.append(self._card(f"seat {seat.number} hand 2"))
        self._decisions.append([action, amount])
        self._events.append(f"{label} {action}" + (f" {format_cents(amount)}"
                                                    if amount is not None else ""))
        self._advance()

    def _advance(self) -> None:
        """Skip hands with nothing to decide; when none is left, the dealer plays."""
        while self._turn:
            seat, index = self._turn[0]
            hand = self.seats[seat].hands[index]
            done = hand.stood or hand.blackjack or (not can_hit(
                hand.values, hand.split_aces, self.config) and not can_double(
                hand.values, hand.from_split, hand.split_aces, self.config))
            if not done:
                return
            self._turn.pop(0)
        self._finish()

    def _finish(self) -> None:
        """The dealer reveals the hole card and draws if any hand is left to decide."""
        dealer_values = [card_value(c) for c in self.dealer]
        dealer_bj = is_blackjack(dealer_values)
        open_hands = [h for s in self.seats.values() for h in s.hands
                      if h.total <= 21 and not h.blackjack]
        if not dealer_bj and open_hands:
            while dealer_must_draw([card_value(c) for c in self.dealer],
                                   self.config.dealer_hits_soft_17):
                self.dealer.append(self._card("dealer"))
        self._settle(dealer_bj)

    def _settle(self, dealer_bj: bool) -> None:
        dealer_values = [card_value(c) for c in self.dealer]
        out: list[Settlement] = []
        bet_id = 0
        for number in sorted(self.seats):
            seat = self.seats[number]
            if seat.insurance:
                bet_id += 1
                exact = (self.config.insurance_pays.total_return_exact(seat.insurance)
                         if dealer_bj else Fraction(0))
                out.append(self._pay(bet_id, seat, f"seat {number} insurance", seat.insurance,
                                     exact, "win" if dealer_bj else "lose"))
            original_only = dealer_bj and not self.config.dealer_blackjack_takes_all
            for index, hand in enumerate(seat.hands):
                bet_id += 1
                stake = hand.stake + hand.doubled
                name = f"seat {number}" + (f" hand {index + 1}" if len(seat.hands) > 1 else "")
                if hand.blackjack and not dealer_bj:
                    exact, result = hand.stake * self.config.blackjack_multiple, "blackjack"
                elif hand.blackjack:
                    exact, result = Fraction(hand.stake), "push"
                elif original_only:
                    # Dealer blackjack under a ten, "original bet only": the round settles
                    # as if the dealer had looked at once: the seat loses its original bet
                    # and every later stake (doubles, the split hand) goes back, busted or
                    # not. The exact analysis counts it the same way.
                    exact = Fraction(stake - seat.bet if index == 0 else stake)
                    result = "lose" if index == 0 else "push"
                else:
                    multiple = settle_hand(hand.values, dealer_values, hand.from_split)
                    exact = stake * multiple
                    result = {0: "lose", 1: "push", 2: "win"}[int(multiple)]
                out.append(self._pay(bet_id, seat, name, stake, exact, result))
        self.settlements = out
        self.phase = Phase.SETTLED
        self._record(dealer_bj)

    def _pay(self, bet_id: int, seat: Seat, name: str, stake: int, exact: Fraction,
             result: str) -> Settlement:
        paid, rounding = pay_exact(exact)
        self.balances[seat.player] += paid
        self.house_result += stake - paid
        self.house_rounding += rounding
        return Settlement(bet_id, seat.player, name, stake, paid, rounding, result)

    def _record(self, dealer_bj: bool) -> None:
        if self.limits is None:
            raise RuntimeError("__post_init__ sets the limits")
        if self.keep_history:
            self.history.append({
                "round_id": f"{self.table_id}-{self.rounds_played}",
                "venue": self.venue,
                "table": self.table_id,
                "opened_at": getattr(self, "_opened_at", None),
                "game": "blackjack",
                "settings": self.config.settings(),
                "limits": {"min": self.limits.minimum, "max": self.limits.maximum},
                "shuffle": self.shoe.shuffles if self._stack is None else None,
                "shoe_positions": ([self._start, self.shoe.position]
                                   if self._stack is None else None),
                "seats": [{"seat": s.number, "player": s.player, "bet": s.bet,
                           "insurance": s.insurance,
                           "hands": [{"cards": h.cards, "stake": h.stake, "doubled": h.doubled,
                                      "from_split": h.from_split} for h in s.hands]}
                          for s in (self.seats[n] for n in sorted(self.seats))],
                "dealer": list(self.dealer),
                "dealer_blackjack": dealer_bj,
                "cards": list(self._dealt),  # every card of the round, in dealing order
                "decisions": [list(d) for d in self._decisions],
                "shuffle_order": self.shoe.record()["order"] if self._stack is None else None,
                "burned": list(self.shoe.burned) if self._stack is None else None,
                "last_hand_before_shuffle": self._stack is None and self.shoe.cut_card_out,
                "void_reason": None,
                "events": list(self._events),
                "settlements": [s.to_json() for s in self.settlements],
            })

    def void(self, reason: str) -> None:
        """A system malfunction voids the round: every stake goes back (GGPoker III 2.1.5)."""
        if self.phase is Phase.SETTLED:
            raise RoundError("the round is already settled")
        for seat in self.seats.values():
            self.balances[seat.player] += seat.bet if not seat.hands else seat.staked
        self.settlements = []
        self.phase = Phase.SETTLED
        self._record(False)
        if self.keep_history:
            self.history[-1]["void_reason"] = reason
        self._events.append(f"void: {reason}")

    def next_round(self) -> bool:
        """Clear the table; shuffle if the cut card came out (III 3.2.2). True if shuffled."""
        if self.phase is not Phase.SETTLED:
            raise RoundError("the round is not finished")
        self.seats = {}
        self.dealer = []
        self.phase = Phase.BETTING
        self._stack = None
        if self.shoe.cut_card_out:
            self._shuffle()
            return True
        return False

    def check_conservation(self) -> None:
        total = sum(self.balances.values()) + self.house_result + self.on_table
        if total != self.brought:
            raise AssertionError(f"money not conserved: {total} != {self.brought}")


def replay_blackjack(record: Mapping[str, Any]) -> list[Settlement]:
    """Re-play a recorded blackjack round from its cards and decisions; its settlements."""
    config = BlackjackConfig.from_settings(
        {k: v for k, v in record["settings"].items() if k != "cut_cards_from_back"})
    table = BlackjackTable(_ReplayRng(), config, keep_history=False,
                           limits=Limits(record["limits"]["min"], record["limits"]["max"]))
    for seat in record["seats"]:
        if seat["player"] not in table.balances:
            table.sit(seat["player"], 10**15)
        table.place(seat["player"], seat["seat"], seat["bet"])
    table.deal(stack=record["cards"])
    for decision in record["decisions"]:
        if decision[0] == "insure":
            table.insure(int(decision[1]), int(decision[2]))
        else:
            table.act(str(decision[0]), None if decision[1] is None else int(decision[1]))
    if table.phase is not Phase.SETTLED:
        raise RoundError("the recorded decisions do not finish the round")
    return table.settlements


class _ReplayRng:
    """A stand-in generator: a replay takes every card from the record."""

    name = "replay"

    def randbelow(self, n: int) -> int:
        return 0

    def randbelow_many(self, n: int, size: int) -> Any:
        import numpy as np

        return np.zeros(size, dtype=np.int64)
