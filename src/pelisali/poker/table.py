"""A poker hand between players (RAY 1.4.1.1): blinds, betting structures, pots, showdown.

This first part of the table engine plays the community-card games with a
high ranking (hold'em; Omaha, Omaha 5: exactly two hole cards) under limit,
pot-limit and no-limit betting: blinds and antes, the minimum raise, a short
all-in that does not reopen the betting, the pot-limit maximum, uncalled bets
returned, side pots, showdown, odd chips, and the house fee. Every action is
checked; a refused action changes nothing. Chance enters only through the
shuffled deck, and every card dealt is in the action log, which is also
written as a PHH hand history.

>>> from pelisali.rng import SeededRng
>>> hand = PokerHand(HOLDEM_NL, [200, 200], button=1, small_blind=1, big_blind=2,
...                  rng=SeededRng(3))
>>> hand.actor, hand.legal().call
(1, 1)
>>> hand.act("fold")
>>> hand.finished, hand.stacks   # the big blind wins the small blind
(True, [201, 199])
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from pelisali.cards import DECK, CardError, Shoe
from pelisali.poker.evaluate import high_value
from pelisali.rng import Rng

Structure = Literal["limit", "pot-limit", "no-limit"]


class PokerError(ValueError):
    """An action the rules refuse; nothing was changed."""


@dataclass(frozen=True)
class PokerVariant:
    """A community-card game as parameters: hole cards, boards, hand making, betting."""

    name: str
    hole_cards: int
    board_streets: tuple[int, ...]  # cards dealt to the board before each betting round
    exactly_two: bool
    structure: Structure
    raise_cap: int = 4  # limit: a bet and three raises a round (table setting)
    phh_code: str | None = None  # PokerKit's variant code, where it has one
    discard_after: tuple[int, ...] = ()  # betting rounds after which each player discards one
    boards: int = 1  # Double Flop Hold'em: two boards, half the pot on each


HOLDEM_NL = PokerVariant("holdem", 2, (0, 3, 1, 1), False, "no-limit", phh_code="NT")
HOLDEM_LIMIT = PokerVariant("holdem", 2, (0, 3, 1, 1), False, "limit", phh_code="FT")
HOLDEM_PL = PokerVariant("holdem", 2, (0, 3, 1, 1), False, "pot-limit")
OMAHA_PL = PokerVariant("omaha", 4, (0, 3, 1, 1), True, "pot-limit", phh_code="PO")
OMAHA_NL = PokerVariant("omaha", 4, (0, 3, 1, 1), True, "no-limit")
OMAHA5_PL = PokerVariant("omaha-5", 5, (0, 3, 1, 1), True, "pot-limit")
# RAY 2016 1.4.1.1.8: five hole cards and one board card at the first deal, two on the flop.
COURCHEVEL_PL = PokerVariant("courchevel", 5, (1, 2, 1, 1), True, "pot-limit")
# 1.4.1.1.3: three hole cards, one discarded after the first betting round.
PINEAPPLE_NL = PokerVariant("pineapple", 3, (0, 3, 1, 1), False, "no-limit", discard_after=(0,))
# 1.4.1.1.4: three hole cards, one discarded after the flop's betting round.
CRAZY_PINEAPPLE_NL = PokerVariant("crazy-pineapple", 3, (0, 3, 1, 1), False, "no-limit",
                                  discard_after=(1,))
# 1.4.1.1.5 (Swedish 2015 text, RULINGS): four hole cards, a discard after the first and
# after the flop's betting round; hold'em hand making.
HELSINKI_NL = PokerVariant("helsinki", 4, (0, 3, 1, 1), False, "no-limit", discard_after=(0, 1))
# 1.4.1.1.9 and RULINGS: two boards; half the pot for the best hand on each.
DOUBLE_FLOP_NL = PokerVariant("double-flop", 2, (0, 3, 1, 1), False, "no-limit", boards=2)


@dataclass(frozen=True)
class Legal:
    """What the player to act may do: call amount, raise range (total street bet)."""

    fold: bool
    check: bool
    call: int  # chips to call (0 when checking)
    raise_min: int | None  # smallest total a bet or raise may make this street
    raise_max: int | None


@dataclass
class PokerHand:
    variant: PokerVariant
    starting_stacks: list[int]
    button: int
    small_blind: int
    big_blind: int
    rng: Rng
    ante: int = 0
    fee_percent: Fraction = Fraction(0)  # of the chips bet in the hand (RAY 1.4.1.1.1 A)
    fee_cap: int | None = None
    jackpot_drop: int = 0  # bad-beat jackpot: taken from the pot of a hand that qualifies
    jackpot_min_players: int = 0
    jackpot_taken: int = 0
    stacks: list[int] = field(init=False)
    hole: list[list[str]] = field(init=False)
    board: list[str] = field(default_factory=list)
    second_board: list[str] = field(default_factory=list)  # Double Flop
    folded: list[bool] = field(init=False)
    street_commit: list[int] = field(init=False)
    total_commit: list[int] = field(init=False)
    log: list[str] = field(default_factory=list)
    street: int = 0
    actor: int | None = None
    current_bet: int = 0
    last_raise: int = 0
    full_raises: int = 0
    bets_this_street: int = 0
    finished: bool = False
    fee: int = 0
    winnings: list[int] = field(init=False)
    _pending: list[int] = field(default_factory=list)
    _level_acted: list[int] = field(init=False)
    _opener: int = 0  # the last street's opener or last aggressor: shows first
    _discarding: list[int] = field(default_factory=list)  # players yet to discard this street
    _discarded: set[int] = field(default_factory=set)  # streets whose discards are done
    shown: set[int] = field(default_factory=set)  # seats whose cards were shown

    def __post_init__(self) -> None:
        n = len(self.starting_stacks)
        if not 2 <= n <= 12:
            raise PokerError("a table seats 2 to 12 players (RAY 1.4.1.1.1)")
        if any(s <= 0 for s in self.starting_stacks):
            raise PokerError("every player needs chips on the table")
        if not 0 <= self.button < n:
            raise PokerError(f"the button must be at a seat 0 to {n - 1}")
        if not 0 < self.small_blind <= self.big_blind:
            raise PokerError("blinds: 0 < small blind <= big blind")
        self.stacks = list(self.starting_stacks)
        self.folded = [False] * n
        self.street_commit = [0] * n
        self.total_commit = [0] * n
        self.winnings = [0] * n
        self._level_acted = [-1] * n
        self.shoe = Shoe(1, 0)
        self.shoe.shuffle(self.rng)
        self.hole = [[] for _ in range(n)]
        self._post_forced_bets()
        for seat in self._order_from(self._left_of(self.button)):
            self.hole[seat] = self.shoe.deal(self.variant.hole_cards)
            self.log.append(f"d dh p{self._phh(seat)} {''.join(self.hole[seat])}")
        if self.variant.board_streets[0]:  # Courchevel: a board card with the hole cards
            cards = self.shoe.deal(self.variant.board_streets[0])
            self.board.extend(cards)
            self.log.append(f"d db {''.join(cards)}")
        self._start_round(preflop=True)

    # -- seats -----------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return len(self.stacks)

    def _left_of(self, seat: int) -> int:
        return (seat + 1) % self.players

    def _order_from(self, seat: int) -> list[int]:
        return [(seat + i) % self.players for i in range(self.players)]

    def _phh(self, seat: int) -> int:
        """PHH numbers players from the small blind (left of the button) to the button."""
        return (seat - self.button - 1) % self.players + 1

    def _in_hand(self) -> list[int]:
        return [s for s in range(self.players) if not self.folded[s]]

    def _can_act(self, seat: int) -> bool:
        return not self.folded[seat] and self.stacks[seat] > 0

    # -- forced bets and rounds --------------------------------------------------------------
    def _commit(self, seat: int, amount: int) -> None:
        amount = min(amount, self.stacks[seat])
        self.stacks[seat] -= amount
        self.street_commit[seat] += amount
        self.total_commit[seat] += amount

    def _blind_seats(self) -> tuple[int, int]:
        if self.players == 2:  # heads-up: the button posts the small blind
            return self.button, self._left_of(self.button)
        sb = self._left_of(self.button)
        return sb, self._left_of(sb)

    def _post_forced_bets(self) -> None:
        if self.ante:
            for seat in range(self.players):
                self._commit(seat, self.ante)
            self._collect()
        sb, bb = self._blind_seats()
        self._commit(sb, self.small_blind)
        self._commit(bb, self.big_blind)
        self.current_bet = max(self.street_commit)
        self.last_raise = self.big_blind
        self.bets_this_street = 1

    def _start_round(self, preflop: bool = False) -> None:
        if not preflop:
            self._collect()
            self.current_bet = 0
            self.last_raise = self.big_blind
            self.bets_this_street = 0
        self.full_raises += 1
        # Pre-flop the player left of the big blind opens; later the first left of the button.
        first = self._left_of(self._blind_seats()[1] if preflop else self.button)
        self._opener = first
        self._pending = [s for s in self._order_from(first) if self._can_act(s)]
        # A round needs at least two players able to bet, or one facing a bet.
        able = [s for s in self._in_hand() if self.stacks[s] > 0]
        if len(able) < 2 and not (able and self.street_commit[able[0]] < self.current_bet):
            self._pending = []
        self._advance()

    def _collect(self) -> None:
        self.street_commit = [0] * self.players

    def _advance(self) -> None:
        """Move to the next player to act, or close the round and deal the next street."""
        while True:
            if len(self._in_hand()) == 1:
                self._return_uncalled()
                self._award_single()
                return
            if self._pending:
                self.actor = self._pending[0]
                return
            self._return_uncalled()
            if self.street in self.variant.discard_after and self.street not in self._discarded:
                if not self._discarding:
                    self._discarding = [s for s in self._order_from(self._left_of(self.button))
                                        if not self.folded[s]]
                self.actor = self._discarding[0]
                return
            self.actor = None
            if self.street + 1 >= len(self.variant.board_streets):
                self._showdown()
                return
            self.street += 1
            cards = self.shoe.deal(self.variant.board_streets[self.street])
            self.board.extend(cards)
            self.log.append(f"d db {''.join(cards)}")
            if self.variant.boards == 2:
                second = self.shoe.deal(self.variant.board_streets[self.street])
                self.second_board.extend(second)
                self.log.append(f"d db2 {''.join(second)}")
            self._start_round()
            return

    def _return_uncalled(self) -> None:
        ranked = sorted(range(self.players), key=lambda s: -self.street_commit[s])
        top, second = ranked[0], ranked[1]
        extra = self.street_commit[top] - self.street_commit[second]
        if extra > 0:
            self.street_commit[top] -= extra
            self.total_commit[top] -= extra
            self.stacks[top] += extra

    # -- actions -------------------------------------------------------------------------
    @property
    def discarding(self) -> bool:
        """The player to act discards a card (pineapple games) rather than bets."""
        return bool(self._discarding)

    def discard(self, card: str, seat: int | None = None) -> None:
        """Throw away one hole card (RAY 1.4.1.1.3-1.4.1.1.5)."""
        if not self._discarding:
            raise PokerError("nobody discards now")
        actor = self._discarding[0]
        if seat is not None and seat != actor:
            raise PokerError(f"seat {seat} is out of turn; seat {actor} discards")
        if card not in self.hole[actor]:
            raise PokerError(f"{card} is not a card seat {actor} holds: {self.hole[actor]}")
        self.hole[actor].remove(card)
        self.log.append(f"p{self._phh(actor)} discard {card}")
        self._discarding.pop(0)
        if not self._discarding:
            self._discarded.add(self.street)
        self._advance()

    def legal(self) -> Legal:
        if self._discarding:
            raise PokerError("the player to act must discard a card first")
        if self.actor is None:
            raise PokerError("the hand is not waiting for a player")
        seat = self.actor
        to_call = min(self.current_bet - self.street_commit[seat], self.stacks[seat])
        can_raise = (self.stacks[seat] > to_call and self._level_acted[seat] < self.full_raises
                     and any(self._can_act(s) for s in self._in_hand() if s != seat))
        raise_min = raise_max = None
        if can_raise:
            # A raise needs an opponent who could put in more than the bet now.
            cover = max(self.street_commit[s] + self.stacks[s] for s in self._in_hand()
                        if s != seat)
            all_in = most = self.street_commit[seat] + self.stacks[seat]
            if cover <= self.current_bet:
                return Legal(fold=to_call > 0, check=to_call == 0, call=to_call,
                             raise_min=None, raise_max=None)
            if self.variant.structure == "limit":
                if self.bets_this_street < self.variant.raise_cap:
                    size = self.big_blind * (2 if self.street >= 2 else 1)
                    raise_min = raise_max = min(self.current_bet + size, most)
            else:
                smallest = self.current_bet + max(self.last_raise, self.big_blind)
                top = most
                if self.variant.structure == "pot-limit":  # call, then raise the pot
                    top = min(self.current_bet + sum(self.total_commit) + to_call, most)
                if smallest <= top:
                    raise_min, raise_max = smallest, top
                elif top == all_in:  # less than a full raise only all-in
                    raise_min = raise_max = top
        return Legal(fold=to_call > 0, check=to_call == 0, call=to_call,
                     raise_min=raise_min, raise_max=raise_max)

    def act(self, action: str, to: int | None = None, seat: int | None = None) -> None:
        """``fold``, ``check``, ``call``, or ``raise`` (``bet``) to a street total ``to``."""
        if self.finished:
            raise PokerError("the hand is over")
        if self._discarding:
            raise PokerError(f"seat {self._discarding[0]} must discard a card first")
        if seat is not None and seat != self.actor:
            raise PokerError(f"seat {seat} is out of turn; seat {self.actor} is to act")
        legal = self.legal()
        actor = self.actor
        assert actor is not None
        p = self._phh(actor)
        if action == "fold":
            if not legal.fold:
                raise PokerError("nothing to call: check instead of folding")
            self.folded[actor] = True
            self.log.append(f"p{p} f")
        elif action == "check":
            if not legal.check:
                raise PokerError(f"{legal.call} to call: call, raise or fold")
            self.log.append(f"p{p} cc")
        elif action == "call":
            if legal.check:
                raise PokerError("nothing to call: check")
            self._commit(actor, legal.call)
            self.log.append(f"p{p} cc")
        elif action in ("raise", "bet"):
            if legal.raise_min is None or legal.raise_max is None:
                raise PokerError("a raise is not allowed now")
            if to is None or isinstance(to, bool) or not isinstance(to, int):
                raise PokerError("a raise needs the street total to raise to")
            if not legal.raise_min <= to <= legal.raise_max:
                raise PokerError(f"raise to {to} is outside {legal.raise_min}..{legal.raise_max}")
            increment = to - self.current_bet
            full = increment >= max(self.last_raise, self.big_blind) or \
                self.variant.structure == "limit"
            self._commit(actor, to - self.street_commit[actor])
            if full:  # a short all-in does not reopen the betting (RULINGS / world practice)
                self.last_raise = increment
                self.full_raises += 1
            self.current_bet = to
            self.bets_this_street += 1
            self.log.append(f"p{p} cbr {to}")
            self._opener = actor
            self._pending = [s for s in self._order_from(self._left_of(actor))
                             if s != actor and self._can_act(s)]
        else:
            raise PokerError(f"unknown action {action!r}: fold, check, call, raise")
        self._level_acted[actor] = self.full_raises
        if self._pending and self._pending[0] == actor:
            self._pending.pop(0)
        self._pending = [s for s in self._pending if self._can_act(s)]
        self._advance()

    # -- the end ---------------------------------------------------------------------------
    def _take_fee(self) -> None:
        """The house fee, and the jackpot contribution when the hand had the minimum of
        players at its start and reached the second betting round (RAY 1.4.1.1.1)."""
        if self.fee_percent:
            amount = int(sum(self.total_commit) * self.fee_percent)
            self.fee = amount if self.fee_cap is None else min(amount, self.fee_cap)
        if (self.jackpot_drop and self.players >= self.jackpot_min_players
                and self.street >= 1):
            self.jackpot_taken = min(self.jackpot_drop, sum(self.total_commit) - self.fee)
            self.fee += self.jackpot_taken  # taken from the pot with the fee

    def _award_single(self) -> None:
        [winner] = self._in_hand()
        self._collect()
        self._take_fee()
        pot = sum(self.total_commit) - self.fee
        self.stacks[winner] += pot
        self.winnings[winner] += pot
        self.actor = None
        self.finished = True

    def hand_value(self, seat: int, board_cards: list[str] | None = None) -> int:
        hole = [DECK.index(c) for c in self.hole[seat]]
        board = [DECK.index(c) for c in (self.board if board_cards is None else board_cards)]
        if self.variant.exactly_two:
            return max(high_value([*two, *three]) for two in itertools.combinations(hole, 2)
                       for three in itertools.combinations(board, 3))
        return high_value(hole + board)

    def _showdown(self) -> None:
        self._collect()
        self._take_fee()
        for seat in self._order_from(self._opener):  # the opener shows first, then clockwise
            if not self.folded[seat]:
                self.shown.add(seat)
                self.log.append(f"p{self._phh(seat)} sm {''.join(self.hole[seat])}")
        contributions = list(self.total_commit)
        boards = [self.board, self.second_board] if self.variant.boards == 2 else [self.board]
        per_board = [{s: self.hand_value(s, b) for s in self._in_hand()} for b in boards]
        values = per_board[0]
        fee_left = self.fee
        # Pots by the stakes of the players still in the hand; folded chips are dead money
        # in the pots they reach.
        levels = sorted({contributions[s] for s in values})
        floor = 0
        for i, level in enumerate(levels):
            cap = max(contributions) if i == len(levels) - 1 else level
            pot = sum(min(c, cap) - min(c, floor) for c in contributions)
            eligible = [s for s in values if contributions[s] >= level]
            floor = level
            taken = min(fee_left, pot)  # the fee comes out of the main pot first
            pot -= taken
            fee_left -= taken
            # Double Flop: half of each pot per board (the odd chip with the first board).
            halves = [pot - pot // 2, pot // 2] if len(per_board) == 2 else [pot]
            for part, board_values in zip(halves, per_board, strict=True):
                best = max(board_values[s] for s in eligible)
                winners = [s for s in self._order_from(self._left_of(self.button))
                           if s in eligible and board_values[s] == best]
                share, odd = divmod(part, len(winners))
                for i, s in enumerate(winners):
                    # Odd chips go to the first winner clockwise from the button (house
                    # choice, as PokerKit and the card rooms do; RULINGS names only hi/lo).
                    amount = share + (odd if i == 0 else 0)
                    self.stacks[s] += amount
                    self.winnings[s] += amount
        self.actor = None
        self.finished = True

    # -- what a player sees ------------------------------------------------------------------
    def view(self, seat: int) -> dict[str, object]:
        """The table as ``seat`` sees it: its own cards, the board, stacks, bets and the
        public actions; no other player's hole cards unless shown at showdown, no deck."""
        if not 0 <= seat < self.players:
            raise PokerError(f"no seat {seat}")
        hidden = {f"p{self._phh(s)}" for s in range(self.players)
                  if s != seat and s not in self.shown}
        actions = []
        for entry in self.log:
            words = entry.split()
            if words[:2] == ["d", "dh"] and words[2] in hidden:
                entry = f"d dh {words[2]} {'??' * (len(words[3]) // 2)}"
            elif words[1:2] == ["discard"] and words[0] in hidden:
                entry = f"{words[0]} discard ??"
            actions.append(entry)
        return {
            "seat": seat,
            "hole": list(self.hole[seat]),
            "shown": {s: list(self.hole[s]) for s in sorted(self.shown) if s != seat},
            "board": list(self.board),
            "second_board": list(self.second_board),
            "stacks": list(self.stacks),
            "bets": list(self.street_commit),
            "pot": sum(self.total_commit) - sum(self.street_commit),
            "folded": list(self.folded),
            "button": self.button,
            "to_act": self.actor,
            "discarding": self.discarding,
            "actions": actions,
            "finished": self.finished,
        }

    # -- records ---------------------------------------------------------------------------
    def phh(self) -> str:
        """The hand as a PHH file (PokerKit's notation), players from the small blind on."""
        if self.variant.phh_code is None:
            raise CardError(f"PHH has no variant code for {self.variant.name} "
                            f"{self.variant.structure}")
        order = self._order_from(self._left_of(self.button))
        sb, bb = self._blind_seats()
        blinds = [self.small_blind if s == sb else self.big_blind if s == bb else 0
                  for s in order]
        if self.players == 2:  # PHH lists heads-up blinds small first and swaps them itself
            blinds = [self.small_blind, self.big_blind]
        lines = [
            f'variant = "{self.variant.phh_code}"',
            "ante_trimming_status = true",
            f"antes = {[self.ante] * self.players}",
            f"blinds_or_straddles = {blinds}",
        ]
        if self.variant.structure == "limit":
            lines += [f"small_bet = {self.big_blind}", f"big_bet = {2 * self.big_blind}"]
        else:
            lines.append(f"min_bet = {self.big_blind}")
        lines += [
            f"starting_stacks = {[self.starting_stacks[s] for s in order]}",
            "actions = [" + ", ".join(f'"{a}"' for a in self.log) + "]",
            f"finishing_stacks = {[self.stacks[s] for s in order]}",
        ]
        return "\n".join(lines) + "\n"
