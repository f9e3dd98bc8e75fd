"""A poker table over many hands: seats, buy-ins, sitting out, leaving, the time charge.

RAY 1.4.1.1.1: a player buys at least the table's minimum to sit; no chips are
bought during a hand, which is played with the chips on the table before the
antes; the house takes either a percentage of the chips bet (with an optional
cap per hand) or a time charge per player, and the rule in force is shown.

>>> from pelisali.poker.table import HOLDEM_NL
>>> from pelisali.rng import SeededRng
>>> table = PokerTable(HOLDEM_NL, small_blind=1, big_blind=2, min_buy_in=100, rng=SeededRng(1))
>>> table.sit("ann", 150), table.sit("bob", 100)   # their seats
(0, 1)
>>> hand = table.start_hand()
>>> hand.players
2
>>> table.buy_chips("ann", 50)
Traceback (most recent call last):
...
pelisali.poker.variants.PokerError: no chips are bought during a hand (RAY 1.4.1.1.1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from pelisali.poker.dealing import ShuffledCards
from pelisali.poker.jackpot import BadBeatJackpot
from pelisali.poker.table import PokerError, PokerHand, PokerVariant
from pelisali.rng import Rng

MAX_SEATS = 12


@dataclass
class Seat:
    player: str
    chips: int
    sitting_out: bool = False


@dataclass
class PokerTable:
    variant: PokerVariant
    small_blind: int
    big_blind: int
    min_buy_in: int
    rng: Rng
    ante: int = 0
    bring_in: int = 0  # stud games
    fee_percent: Fraction = Fraction(0)
    fee_cap: int | None = None
    seats: list[Seat | None] = field(default_factory=lambda: [None] * MAX_SEATS)
    button: int = -1
    hand: PokerHand | None = None
    house: int = 0  # fees and time charges taken
    jackpot: BadBeatJackpot | None = None  # a bad-beat jackpot table
    revealed: bool = False  # set by the dealer when a player showed cards during the hand
    time_charge_amount: int = 0  # RAY 1.4.1.1.1 B: chips a player every so many minutes
    time_charge_minutes: int = 30
    _in_hand: list[int] = field(default_factory=list)

    def fee_rule(self) -> str:
        """The house's charge, as shown to players (RAY 1.4.1.1.1: its principle and its
        amount)."""
        if self.fee_percent:
            cap = f", at most {self.fee_cap} a hand" if self.fee_cap is not None else ""
            return f"{float(self.fee_percent) * 100:g} % of the chips bet{cap}"
        if self.time_charge_amount:
            return (f"a time charge of {self.time_charge_amount} per player every "
                    f"{self.time_charge_minutes} minutes")
        return "no charge"

    def _playing(self) -> bool:
        return self.hand is not None and not self.hand.finished

    def sit(self, player: str, buy_in: int, seat: int | None = None) -> int:
        if self._playing():
            raise PokerError("players sit down between hands")
        if any(s is not None and s.player == player for s in self.seats):
            raise PokerError(f"{player} is already seated")
        if buy_in < self.min_buy_in:
            raise PokerError(f"the minimum buy-in is {self.min_buy_in}")
        free = [i for i, s in enumerate(self.seats) if s is None]
        if not free:
            raise PokerError("the table is full (12 seats)")
        chosen = free[0] if seat is None else seat
        if chosen not in free:
            raise PokerError(f"seat {chosen} is taken")
        self.seats[chosen] = Seat(player, buy_in)
        return chosen

    def _seat_of(self, player: str) -> int:
        for i, s in enumerate(self.seats):
            if s is not None and s.player == player:
                return i
        raise PokerError(f"{player} is not at the table")

    def buy_chips(self, player: str, amount: int) -> None:
        if self._playing():
            raise PokerError("no chips are bought during a hand (RAY 1.4.1.1.1)")
        if amount <= 0:
            raise PokerError("buy a positive amount of chips")
        seat = self.seats[self._seat_of(player)]
        if seat is None:
            raise RuntimeError("_seat_of() finds an occupied seat")
        seat.chips += amount

    def sit_out(self, player: str, out: bool = True) -> None:
        seat = self.seats[self._seat_of(player)]
        if seat is None:
            raise RuntimeError("_seat_of() finds an occupied seat")
        seat.sitting_out = out  # takes effect from the next hand

    def leave(self, player: str) -> int:
        """Leave between hands with the chips on the table."""
        if self._playing() and self._seat_of(player) in self._in_hand:
            raise PokerError("players leave between hands")
        index = self._seat_of(player)
        seat = self.seats[index]
        if seat is None:
            raise RuntimeError("_seat_of() finds an occupied seat")
        self.seats[index] = None
        return seat.chips

    def time_charge(self, amount: int | None = None) -> None:
        """The time charge (the table's own by default), taken from every seated player
        between hands."""
        amount = self.time_charge_amount if amount is None else amount
        if self._playing():
            raise PokerError("the time charge is taken between hands")
        for seat in self.seats:
            if seat is not None and not seat.sitting_out:
                taken = min(amount, seat.chips)
                seat.chips -= taken
                self.house += taken

    def start_hand(self) -> PokerHand:
        """Deal a hand to every seated player with chips who is not sitting out; the
        button moves clockwise to the next of them."""
        if self._playing():
            raise PokerError("a hand is in progress")
        active = [i for i, s in enumerate(self.seats)
                  if s is not None and not s.sitting_out and s.chips > 0]
        if len(active) < 2:
            raise PokerError("a hand needs two players with chips")
        after = [i for i in active if i > self.button]
        self.button = after[0] if after else active[0]
        self._in_hand = active
        stacks = []
        for i in active:
            seat = self.seats[i]
            if seat is None:
                raise RuntimeError("the seats dealt in are occupied")
            stacks.append(seat.chips)
        jp = self.jackpot
        self.revealed = False
        self.hand = PokerHand(self.variant, stacks, active.index(self.button), self.small_blind,
                              self.big_blind, ShuffledCards(self.rng), ante=self.ante,
                              bring_in=self.bring_in, fee_percent=self.fee_percent,
                              fee_cap=self.fee_cap,
                              jackpot_drop=jp.rules.contribution if jp else 0,
                              jackpot_min_players=jp.rules.min_players if jp else 0)
        return self.hand

    def finish_hand(self) -> None:
        """Take the finished hand's stacks and fee back to the seats."""
        if self.hand is None or not self.hand.finished:
            raise PokerError("no finished hand")
        hand = self.hand
        for position, index in enumerate(self._in_hand):
            seat = self.seats[index]
            if seat is None:
                raise RuntimeError("the seats in the hand are occupied till it ends")
            seat.chips = hand.stacks[position]
        self.house += hand.fee - hand.jackpot_taken
        if self.jackpot is not None:
            self.jackpot.contribute(hand.jackpot_taken)
            names = {position: self._name(index) for position, index in enumerate(self._in_hand)}
            # Judged by the game's criteria, each board that is judged apart in turn;
            # the first to trigger the jackpot pays it.
            payout = None
            for board in hand.bad_beat_hands():
                showdown = {names[p]: value for p, value in board.items()}
                payout = self.jackpot.settle(showdown, list(names.values()), self.revealed)
                if payout is not None:
                    break
            if payout is not None:  # paid to the players at this table
                for name, amount in payout.shares.items():
                    seat = self.seats[self._seat_of(name)]
                    if seat is None:
                        raise RuntimeError("_seat_of() finds an occupied seat")
                    seat.chips += amount
        self._in_hand = []

    def _name(self, index: int) -> str:
        seat = self.seats[index]
        if seat is None:
            raise RuntimeError("the seats in the hand are occupied till it ends")
        return seat.player

    def chips(self) -> int:
        return sum(s.chips for s in self.seats if s is not None)
