"""A poker hand between players (RAY 1.4.1.1): blinds, betting structures, pots, showdown.

This first part of the table engine plays the community-card games with a
high ranking (hold'em; Omaha, Omaha 5: exactly two hole cards) under limit,
pot-limit and no-limit betting: blinds and antes, the minimum raise, a short
all-in that does not reopen the betting, the pot-limit maximum, uncalled bets
returned, side pots, showdown, odd chips, and the house fee. Every action is
checked; a refused action changes nothing. Chance enters only through the
hand's card source (:mod:`pelisali.poker.dealing`): the hand draws no
randomness itself. Every card dealt is in the action log, which is also
written as a PHH hand history.

>>> from pelisali.poker.dealing import ShuffledCards
>>> from pelisali.rng import SeededRng
>>> hand = PokerHand(HOLDEM_NL, [200, 200], button=1, small_blind=1, big_blind=2,
...                  cards=ShuffledCards(SeededRng(3)))
>>> hand.actor, hand.legal().call
(1, 1)
>>> hand.act("fold")
>>> hand.finished, hand.stacks   # the big blind wins the small blind
(True, [201, 199])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import combinations

from pelisali.cards import DECK
from pelisali.poker.dealing import CardSource, DealtCards, ShuffledCards
from pelisali.poker.describe import describe
from pelisali.poker.evaluate import high_value, ranked_value
from pelisali.poker.hands import unpack
from pelisali.poker.rankings import high_value_of, high_value_of_cards, omaha_best
from pelisali.poker.showing import bring_in_keys, showing_value, suit_tiebreak
from pelisali.poker.variants import (  # the games as rule data; names kept importable here
    COURCHEVEL_PL,
    CRAZY_PINEAPPLE_NL,
    DOUBLE_FLOP_NL,
    DRAW_LIMIT,
    HELSINKI_NL,
    HOLDEM_LIMIT,
    HOLDEM_NL,
    HOLDEM_PL,
    LOWBALL_NL,
    OMAHA5_PL,
    OMAHA_NL,
    OMAHA_PL,
    PINEAPPLE_NL,
    RAZZ_LIMIT,
    SOKO_LIMIT,
    STUD_LIMIT,
    TRIPLE_DRAW_LIMIT,
    Kind,
    PokerError,
    PokerVariant,
    Structure,
)

NO_LOW = {"en": "no low", "fi": "ei low-kättä", "sv": "ingen low"}  # a low that fails
_INDEX = {card: i for i, card in enumerate(DECK)}  # a card's index, without DECK.index's search
_ORDERS: dict[int, tuple[tuple[int, ...], ...]] = {}  # seats clockwise from each seat, by size


def _orders(players: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, every seat clockwise from it (itself first), at a table of ``players``."""
    orders = _ORDERS.get(players)
    if orders is None:
        orders = _ORDERS[players] = tuple(
            tuple((seat + i) % players for i in range(players)) for seat in range(players))
    return orders


@dataclass(frozen=True)
class Legal:
    """What the player to act may do: call amount, raise range (total street bet)."""

    fold: bool
    check: bool
    call: int  # chips to call (0 when checking)
    raise_min: int | None  # smallest total a bet or raise may make this street
    raise_max: int | None


# The same few answers come up action after action: one frozen Legal for each, kept.
_legal = lru_cache(maxsize=1 << 12)(Legal)


class _NoCards:
    """The card source of a hand given none: refuses to deal."""

    remaining = 0

    def deal(self, n: int) -> list[str]:
        raise PokerError("a hand needs its cards: cards= (a card source) or deck= "
                         "(a dealt order)")

    def reshuffle_in(self, cards: Sequence[str]) -> None:
        self.deal(0)

    def new_deck(self) -> None:
        self.deal(0)


@dataclass
class PokerHand:
    """One hand: ``cards`` deals it (:class:`~pelisali.poker.dealing.ShuffledCards` for a
    shuffled deck), or ``deck`` names the order it is dealt in.

    >>> hand = PokerHand(HOLDEM_NL, [100, 100], 1, 1, 2, deck=["As", "Ad", "Ks", "Kd"])
    >>> hand.hole, hand.cards.remaining
    ([['As', 'Ad'], ['Ks', 'Kd']], 48)
    >>> snapshot = hand.copy()
    >>> hand.act("fold")
    >>> snapshot.finished, hand.finished
    (False, True)
    """

    variant: PokerVariant
    starting_stacks: list[int]
    button: int
    small_blind: int
    big_blind: int
    cards: CardSource = field(default_factory=_NoCards)
    ante: int = 0
    fee_percent: Fraction = Fraction(0)  # of the chips bet in the hand (RAY 1.4.1.1.1 A)
    fee_cap: int | None = None
    jackpot_drop: int = 0  # bad-beat jackpot: taken from the pot of a hand that qualifies
    jackpot_min_players: int = 0
    jackpot_taken: int = 0
    bring_in: int = 0  # stud: the forced bet of the lowest up card (Razz: the highest)
    deck: list[str] | None = None  # a dealt order (a replay, a hall's physical shuffle)
    # Forced bets seat by seat, where a table or a hand history sets them (RULINGS: a
    # big-blind ante, a straddle, a dead blind): ``antes`` replaces ``ante`` (a dead blind
    # is an ante: in the pot, not in the player's bet); ``blinds`` replaces the small and
    # the big blind, straddles included, and the first to act sits left of the largest.
    antes: list[int] | None = None
    blinds: list[int] | None = None
    # RULINGS: folding when a check is free is allowed where the table says so; a losing
    # hand may be mucked at showdown (``auto_muck``: the table mucks every hand beaten by
    # one shown before it), and a player may give up the hand unshown (``mucks``).
    fold_when_check_free: bool = False
    auto_muck: bool = False
    mucks: set[int] = field(default_factory=set)
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
    contested: set[int] = field(default_factory=set)  # seats whose hands met at showdown
    up: list[list[str]] = field(init=False)  # stud: each seat's face-up cards
    redeals: int = 0  # draw with openers: deals nobody opened
    _drawing: list[int] = field(default_factory=list)  # draw games: players yet to draw
    _drawn: set[int] = field(default_factory=set)  # rounds whose draws are done
    _thrown: list[str] = field(default_factory=list)  # discards and folded hands
    _bring_in_due: bool = False
    _legal: Legal | None = field(default=None, compare=False, repr=False)  # a cache

    def __post_init__(self) -> None:
        n = len(self.starting_stacks)
        kind = self.variant.kind
        blinds_posted = self._blinds_posted
        if not 2 <= n <= 12:
            raise PokerError("a table seats 2 to 12 players (RAY 1.4.1.1.1)")
        if n > self.variant.max_seats:
            raise PokerError(f"{self.variant.name} seats at most {self.variant.max_seats} "
                             f"players: {self.variant.seats_reason}")
        if min(self.starting_stacks) <= 0:
            raise PokerError("every player needs chips on the table")
        if not 0 <= self.button < n:
            raise PokerError(f"the button must be at a seat 0 to {n - 1}")
        if blinds_posted and not 0 < self.small_blind <= self.big_blind:
            raise PokerError("blinds: 0 < small blind <= big blind")
        if self.big_blind <= 0:
            raise PokerError("the smallest bet (big_blind) must be positive")
        if kind == "stud" and not 0 < self.bring_in <= self.big_blind:
            raise PokerError("stud: 0 < bring-in <= the small bet (big_blind)")
        if kind != "stud" and self.bring_in:
            raise PokerError("a bring-in belongs to the stud games")
        if self.antes is not None or self.blinds is not None:
            for name, values in (("antes", self.antes), ("blinds", self.blinds)):
                if values is not None and (len(values) != n or any(
                        isinstance(v, bool) or not isinstance(v, int) or v < 0
                        for v in values)):
                    raise PokerError(f"{name}: one whole number of chips, 0 or more, a seat")
        if self.blinds is not None and (not blinds_posted or not any(self.blinds)):
            raise PokerError("blinds seat by seat belong to a blinds game, and one is posted")
        if self.mucks and any(not 0 <= s < n for s in self.mucks):
            raise PokerError(f"mucks: seats 0 to {n - 1}")
        if self.variant.openers and self.ante <= 0:
            raise PokerError("jacks or better to open is played with antes")
        self.stacks = list(self.starting_stacks)
        self.folded = [False] * n
        self.street_commit = [0] * n
        self.total_commit = [0] * n
        self.winnings = [0] * n
        self._level_acted = [-1] * n
        self.up = [[] for _ in range(n)]
        if type(self.cards) is not ShuffledCards and not all(
                hasattr(self.cards, name) for name in ("deal", "reshuffle_in", "new_deck")):
            raise PokerError(f"cards= takes a card source such as ShuffledCards(rng), "
                             f"not {type(self.cards).__name__}")
        if self.deck is not None:  # the given cards first, the rest after them in deck order
            if not isinstance(self.cards, _NoCards):
                raise PokerError("give the hand cards= or deck=, not both")
            seen: set[str] = set()
            for card in self.deck:
                if card not in _INDEX:
                    raise PokerError(f"deck: {card!r} is not a card of the 52-card deck")
                if card in seen:
                    raise PokerError(f"deck: a 1-deck shoe cannot hold {card} that often")
                seen.add(card)
            self.cards = DealtCards(self.deck)
        elif isinstance(self.cards, _NoCards):
            self.cards.deal(0)  # refused: a hand needs its cards
        self.hole = [[] for _ in range(n)]
        self._post_forced_bets()
        self._deal_first()
        self._start_round(preflop=True)

    def copy(self, cards: CardSource | None = None) -> PokerHand:
        """A snapshot that plays on apart from this hand; it deals from ``cards``, by default
        the same card source as this hand (which the two then share).

        >>> hand = PokerHand(HOLDEM_NL, [100, 100], 0, 1, 2, deck=[])
        >>> later = hand.copy()
        >>> later.act("raise", 10)
        >>> hand.stacks, later.stacks
        ([99, 98], [90, 98])
        """
        new = object.__new__(PokerHand)
        fields = dict(self.__dict__)
        for name in ("starting_stacks", "stacks", "board", "second_board", "folded",
                     "street_commit", "total_commit", "log", "winnings", "_pending",
                     "_level_acted", "_discarding", "_drawing", "_thrown"):
            fields[name] = list(fields[name])
        for name in ("_discarded", "shown", "_drawn", "mucks", "contested"):
            fields[name] = set(fields[name])
        fields["hole"] = [list(h) for h in self.hole]
        fields["up"] = [list(u) for u in self.up]
        if self.deck is not None:
            fields["deck"] = list(self.deck)
        if cards is not None:
            fields["cards"] = cards
        new.__dict__.update(fields)
        return new

    @property
    def stub_and_thrown(self) -> int:
        """The most cards a draw can replace now: the stub, the cards thrown so far and,
        when they run short, the drawer's own discards (RULINGS)."""
        own = len(self.hole[self._drawing[0]]) if self._drawing else 0
        return self.cards.remaining + len(self._thrown) + own

    @property
    def _blinds_posted(self) -> bool:
        """Blinds in the board games and the draw games; stud brings in, and draw with
        jacks or better to open is played on antes alone."""
        return self.variant.kind != "stud" and not self.variant.openers

    def _deal_first(self) -> None:
        """The first deal: hole cards (stud: down and up), Courchevel's first board card."""
        if self.variant.kind == "stud":
            self._deal_stud_street(0)
            return
        n, order = self.variant.hole_cards, self._order_from(self._left_of(self.button))
        # A shuffled deck deals them in one go, as a seat at a time would (see stud's).
        dealt = self.cards.deal(n * len(order)) if type(self.cards) is ShuffledCards else None
        hole, log = self.hole, self.log
        for i, seat in enumerate(order):  # the i-th seat from the dealer's left is p(i + 1)
            cards = hole[seat] = (self.cards.deal(n) if dealt is None
                                  else dealt[i * n:(i + 1) * n])
            log.append(f"d dh p{i + 1} {''.join(cards)}")
        if self.variant.board_streets and self.variant.board_streets[0]:
            cards = self.cards.deal(self.variant.board_streets[0])  # Courchevel
            self.board.extend(cards)
            self.log.append(f"d db {''.join(cards)}")

    def _deal_stud_street(self, street: int) -> None:
        """Every player still in gets the street's cards, from the dealer's left; when the
        deck cannot give each a card, one community card is dealt face up for all
        (RAY 2016 1.4.1.1.10)."""
        down, up = self.variant.stud_streets[street]
        folded = self.folded
        # From the dealer's left, the k-th seat is PHH player k + 1 (as _phh gives it).
        live = [(number, seat) for number, seat in
                enumerate(self._order_from(self._left_of(self.button)), 1) if not folded[seat]]
        n = down + up
        if self.cards.remaining < n * len(live):
            card = self.cards.deal(1)
            self.board.extend(card)
            self.log.append(f"d db {card[0]}")
            return
        hole, face_up, log = self.hole, self.up, self.log
        # A shuffled deck deals the street in one go, the cards each seat would get in turn;
        # other sources (chance, a given order) a seat at a time, so that a deal cut short
        # leaves the seats dealt so far with their cards.
        if type(self.cards) is ShuffledCards:
            dealt = self.cards.deal(n * len(live))
            start = 0
            for number, seat in live:
                cards = dealt[start:start + n]
                start += n
                hole[seat] += cards
                if up:
                    face_up[seat] += cards[down:]
                log.append(f"d dh p{number} {''.join(cards)}")
            return
        for number, seat in live:
            cards = self.cards.deal(n)
            hole[seat] += cards
            if up:
                face_up[seat] += cards[down:]
            log.append(f"d dh p{number} {''.join(cards)}")

    # -- seats -----------------------------------------------------------------------------
    @cached_property
    def players(self) -> int:
        return len(self.starting_stacks)

    def _left_of(self, seat: int) -> int:
        return (seat + 1) % self.players

    def _order_from(self, seat: int) -> tuple[int, ...]:
        orders = _ORDERS.get(self.players)
        return (orders or _orders(self.players))[seat]

    def _phh(self, seat: int) -> int:
        """PHH numbers players from the small blind (left of the button) to the button."""
        return (seat - self.button - 1) % self.players + 1

    def _in_hand(self) -> list[int]:
        folded = self.folded
        return [s for s in range(len(folded)) if not folded[s]]

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
        antes = self.antes if self.antes is not None else [self.ante] * self.players
        if any(antes):
            stacks, total = self.stacks, self.total_commit
            for seat, ante in enumerate(antes):  # what _commit does, the street then collected
                amount = min(ante, stacks[seat])
                stacks[seat] -= amount
                total[seat] += amount
            self._collect()
        self.last_raise = self.big_blind
        if not self._blinds_posted:  # stud's bring-in is posted as the first action
            return
        if self.blinds is not None:
            for seat in self._order_from(self._left_of(self.button)):
                self._commit(seat, self.blinds[seat])
        else:
            sb, bb = self._blind_seats()
            self._commit(sb, self.small_blind)
            self._commit(bb, self.big_blind)
        self.current_bet = max(self.street_commit)
        self.bets_this_street = 1

    def _first_to_act(self, preflop: bool) -> int:
        """Blinds: left of the big blind first, later the first left of the button. Stud:
        the bring-in, later the best showing hand (Razz: the lowest)."""
        if self.variant.kind == "stud":
            return self._bring_in_seat() if preflop else self._best_showing_seat()
        if preflop and self._blinds_posted:
            return self._left_of(self._largest_blind_seat())
        return self._left_of(self.button)

    def _largest_blind_seat(self) -> int:
        """The big blind, or the seat of the largest straddle (the last of equal ones in
        the order of posting, as PokerKit reads a hand history)."""
        if self.blinds is None:
            return self._blind_seats()[1]
        order = self._order_from(self._left_of(self.button))
        posted = [s for s in order if self.blinds[s] > 0]
        return max(reversed(posted), key=self.street_commit.__getitem__)

    def _showing_ranking(self) -> str:
        return self.variant.high or self.variant.low or "high"

    def _bring_in_seat(self) -> int:
        """The lowest up card brings in (a low game: the highest), suits breaking ties."""
        ranking = self._showing_ranking()
        keys, up = bring_in_keys(ranking), self.up
        pick = max if ranking.startswith("low") else min
        return pick(self._in_hand(), key=lambda s: keys[up[s][0]])

    def _best_showing_seat(self) -> int:
        ranking = self._showing_ranking()
        folded, up = self.folded, self.up
        tied: list[int] = []  # the seats showing the best hand, clockwise from the dealer's left
        best = 0
        for s in self._order_from(self._left_of(self.button)):
            if folded[s]:
                continue
            value = showing_value(up[s], ranking)
            if not tied or value > best:
                tied, best = [s], value
            elif value == best:
                tied.append(s)
        if self.variant.showing_ties == "suit" and len(tied) > 1:
            keys = {s: suit_tiebreak(self.up[s], ranking) for s in tied}
            pick = min if ranking.startswith("low") else max
            return pick(tied, key=keys.__getitem__)
        return tied[0]  # the first clockwise from the dealer's left

    def _start_round(self, preflop: bool = False) -> None:
        if not preflop:
            self._collect()
            self.current_bet = 0
            self.last_raise = self.big_blind
            self.bets_this_street = 0
        self.full_raises += 1
        first = self._first_to_act(preflop)
        self._opener = first
        folded, stacks = self.folded, self.stacks
        pending = self._pending = [s for s in self._order_from(first)
                                   if not folded[s] and stacks[s] > 0]
        # A round needs at least two players able to bet, or one facing a bet (the players
        # able to bet are the pending ones).
        if len(pending) < 2 and not (pending and self.street_commit[pending[0]] < self.current_bet):
            self._pending = []
        self._bring_in_due = (preflop and self.variant.kind == "stud" and bool(self._pending))
        self._advance()

    def _collect(self) -> None:
        self.street_commit = [0] * self.players

    def _advance(self) -> None:
        """Move to the next player to act, or close the round and deal the next street."""
        self._legal = None  # every change of state passes here
        while True:
            if self.folded.count(False) == 1:
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
            if (self.variant.openers and self.street == 0 and self.current_bet == 0
                    and sum(1 for s in self._in_hand() if self.stacks[s] > 0) >= 2):
                self._redeal()
                return
            if (self.variant.kind == "draw" and self.street < self.variant.draws
                    and self.street not in self._drawn):
                if not self._drawing:
                    self._drawing = [s for s in self._order_from(self._left_of(self.button))
                                     if not self.folded[s]]
                self.actor = self._drawing[0]
                return
            self.actor = None
            if self.street + 1 >= self.variant.rounds:
                self._showdown()
                return
            self.street += 1
            if self.variant.kind == "stud":
                self._deal_stud_street(self.street)
            elif self.variant.kind == "board":
                cards = self.cards.deal(self.variant.board_streets[self.street])
                self.board.extend(cards)
                self.log.append(f"d db {''.join(cards)}")
                if self.variant.boards == 2:
                    second = self.cards.deal(self.variant.board_streets[self.street])
                    self.second_board.extend(second)
                    self.log.append(f"d db2 {''.join(second)}")
            self._start_round()
            return

    def _redeal(self) -> None:
        """Nobody opened: the antes stay in the pot and the hand is dealt again from a
        freshly shuffled deck (RULINGS, Five Card Draw)."""
        self.redeals += 1
        self.log.append(f"# nobody opened: deal {self.redeals + 1}")
        self.cards.new_deck()
        self._thrown = []
        self.hole = [[] for _ in range(self.players)]
        self._deal_first()
        self._start_round(preflop=True)

    def _return_uncalled(self) -> None:
        commits = self.street_commit
        ordered = sorted(commits)
        extra = ordered[-1] - ordered[-2]  # the largest bet over the next largest
        if extra > 0:
            top = commits.index(ordered[-1])
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
        self._thrown.append(card)
        self.log.append(f"p{self._phh(actor)} discard {card}")
        self._discarding.pop(0)
        if not self._discarding:
            self._discarded.add(self.street)
        self._advance()

    @property
    def drawing(self) -> bool:
        """The player to act draws (discards 0-5 cards and is dealt as many)."""
        return bool(self._drawing)

    def draw(self, discards: list[str] | tuple[str, ...] = (),
             seat: int | None = None) -> list[str]:
        """Discard ``discards`` (none: stand pat) and be dealt as many new cards
        (RAY 2015 1.4.1.1.12). When the stub runs short, the discards and folded hands
        thrown so far are shuffled and dealt (RULINGS); this player's own discards join
        them only when the others cannot serve the draw, so that one deck serves ten
        players however they draw. Returns the new cards."""
        if not self._drawing:
            raise PokerError("nobody draws now")
        actor = self._drawing[0]
        if seat is not None and seat != actor:
            raise PokerError(f"seat {seat} is out of turn; seat {actor} draws")
        if isinstance(discards, str):
            raise PokerError("give the discards as a list of cards")
        if len(set(discards)) != len(discards):
            raise PokerError("a card is discarded twice")
        for card in discards:
            if card not in self.hole[actor]:
                raise PokerError(f"{card} is not a card seat {actor} holds: {self.hole[actor]}")
        p = self._phh(actor)
        self.log.append(f"p{p} sd {''.join(discards)}".rstrip())
        new: list[str] = []
        if discards:
            for card in discards:
                self.hole[actor].remove(card)
            from_stub = min(len(discards), self.cards.remaining)
            new = self.cards.deal(from_stub)
            if from_stub < len(discards):
                pile, own = self._thrown, len(discards) - from_stub > len(self._thrown)
                if own:  # the others' discards cannot serve it: the drawer's own join
                    pile = [*pile, *discards]
                self.log.append(f"# the stub ran out: {len(pile)} discards shuffled"
                                + (" (the drawer's own too)" if own else ""))
                self.cards.reshuffle_in(pile)
                self._thrown = []
                new += self.cards.deal(len(discards) - from_stub)
                if own:
                    discards = []  # in the stub already
            self.hole[actor].extend(new)
            self._thrown.extend(discards)
            self.log.append(f"d dh p{p} {''.join(new)}")
        self._drawing.pop(0)
        if not self._drawing:
            self._drawn.add(self.street)
        self._advance()
        return new

    def legal(self) -> Legal:
        """What the player to act may do now (worked out once per state)."""
        if self._legal is None:
            legal = self._work_out_legal()
            if self.fold_when_check_free and legal.check:
                legal = Legal(True, True, legal.call, legal.raise_min, legal.raise_max)
            self._legal = legal
        return self._legal

    def _work_out_legal(self) -> Legal:
        if self._discarding:
            raise PokerError("the player to act must discard a card first")
        if self._drawing:
            raise PokerError("the player to act must draw (or stand pat) first")
        if self.actor is None:
            raise PokerError("the hand is not waiting for a player")
        seat = self.actor
        if self._bring_in_due:  # post the bring-in (the "call") or complete to a full bet
            post = min(self.bring_in, self.stacks[seat])
            top = self.stacks[seat]
            if self.variant.structure == "limit":
                top = min(top, self.big_blind)
            elif self.variant.structure == "pot-limit":
                top = min(top, self.big_blind + sum(self.total_commit))
            can_complete = self.stacks[seat] > post and self.bring_in < self.big_blind
            return Legal(fold=False, check=False, call=post,
                         raise_min=min(self.big_blind, top) if can_complete else None,
                         raise_max=top if can_complete else None)
        stacks, commits, folded = self.stacks, self.street_commit, self.folded
        stack, current = stacks[seat], self.current_bet
        to_call = current - commits[seat]
        if to_call > stack:  # all-in to call
            to_call = stack
        if stack > to_call and self._level_acted[seat] < self.full_raises:
            # A raise needs an opponent still in with chips, and one who could put in more
            # than the bet now; the first opponent often shows both, ending the search.
            others_act = beyond = False
            for s in range(len(folded)):
                if s != seat and not folded[s]:
                    other = stacks[s]
                    if other > 0:
                        others_act = True
                    if commits[s] + other > current:
                        beyond = True
                    if others_act and beyond:
                        break
            if others_act and beyond:
                if (self.variant.openers and self.street == 0 and current == 0
                        and not self._has_openers(seat)):  # no openers: check (or fold)
                    return _legal(False, True, 0, None, None)
                raise_min, raise_max = self._raise_range(seat, to_call)
                return _legal(to_call > 0, to_call == 0, to_call, raise_min, raise_max)
        return _legal(to_call > 0, to_call == 0, to_call, None, None)

    def _raise_range(self, seat: int, to_call: int) -> tuple[int | None, int | None]:
        """The smallest and the largest total a raise may make now (None: no raise)."""
        variant, street, current = self.variant, self.street, self.current_bet
        all_in = most = self.street_commit[seat] + self.stacks[seat]
        completing = (variant.kind == "stud" and street == 0
                      and current < self.big_blind)  # over the bring-in
        if variant.structure == "limit":
            if self.bets_this_street < variant.raise_cap:
                size = self.big_blind * (2 if street >= variant.big_bet_from else 1)
                target = size if completing and street == 0 else current + size
                if target > most:  # all-in short of the bet
                    target = most
                return target, target
            return None, None
        smallest = current + max(self.last_raise, self.big_blind)
        if completing:
            smallest = self.big_blind
        top = most
        if variant.structure == "pot-limit":  # call, then raise the pot
            top = min(current + sum(self.total_commit) + to_call, most)
        if smallest <= top:
            return smallest, top
        if top == all_in:  # less than a full raise only all-in
            return top, top
        return None, None

    def act(self, action: str, to: int | None = None, seat: int | None = None) -> None:
        """``fold``, ``check``, ``call``, or ``raise`` (``bet``) to a street total ``to``."""
        if self.finished:
            raise PokerError("the hand is over")
        if self._discarding:
            raise PokerError(f"seat {self._discarding[0]} must discard a card first")
        if self._drawing:
            raise PokerError(f"seat {self._drawing[0]} must draw first")
        if seat is not None and seat != self.actor:
            raise PokerError(f"seat {seat} is out of turn; seat {self.actor} is to act")
        legal = self._legal
        if legal is None:
            legal = self.legal()
        actor = self.actor
        if actor is None:  # legal() has refused a hand waiting for nobody
            raise RuntimeError("a hand with legal actions has a seat to act")
        p = (actor - self.button - 1) % self.players + 1  # the actor's PHH number
        if action == "fold":
            if not legal.fold:
                raise PokerError("nothing to call: check instead of folding (this table "
                                 "does not take a fold when a check is free)")
            self.folded[actor] = True
            self._thrown.extend(self.hole[actor])  # into the muck: a draw may reuse them
            self.hole[actor] = []
            self.log.append(f"p{p} f")
        elif action == "check":
            if not legal.check:
                raise PokerError(f"{legal.call} to call: call, raise or fold")
            self.log.append(f"p{p} cc")
        elif action == "bring-in" or (action == "call" and self._bring_in_due):
            if not self._bring_in_due:
                raise PokerError("the bring-in is posted only by the first to act in stud")
            self._commit(actor, legal.call)
            self.current_bet = max(self.street_commit)
            self._bring_in_due = False
            self.log.append(f"p{p} pb")
        elif action == "call":
            if legal.check:
                raise PokerError("nothing to call: check")
            amount = legal.call  # what _commit does: the call is within the stack
            self.stacks[actor] -= amount
            self.street_commit[actor] += amount
            self.total_commit[actor] += amount
            self.log.append(f"p{p} cc")
        elif action in ("raise", "bet"):
            if legal.raise_min is None or legal.raise_max is None:
                raise PokerError("a raise is not allowed now")
            if to is None or isinstance(to, bool) or not isinstance(to, int):
                raise PokerError("a raise needs the street total to raise to")
            if not legal.raise_min <= to <= legal.raise_max:
                raise PokerError(f"raise to {to} is outside {legal.raise_min}..{legal.raise_max}")
            increment = to - self.current_bet
            full = (increment >= max(self.last_raise, self.big_blind)
                    or (self.variant.kind == "stud" and self.street == 0
                        and self.current_bet < self.big_blind <= to))  # a completion
            self._bring_in_due = False
            self._commit(actor, to - self.street_commit[actor])
            if full:  # a short all-in does not reopen the betting (RULINGS / world practice)
                self.last_raise = increment
                self.full_raises += 1
            self.current_bet = to
            self.bets_this_street += 1
            self.log.append(f"p{p} cbr {to}")
            self._opener = actor
            folded, stacks = self.folded, self.stacks
            self._pending = [s for s in self._order_from(self._left_of(actor))
                             if s != actor and not folded[s] and stacks[s] > 0]
        else:
            raise PokerError(f"unknown action {action!r}: fold, check, call, raise, bring-in")
        self._level_acted[actor] = self.full_raises
        pending = self._pending
        if pending and pending[0] == actor:
            pending.pop(0)
        stacks, folded = self.stacks, self.folded
        # Only the actor's chips and cards changed: the others still pending can still act
        # (a seat is made pending only while in the hand with chips).
        if (folded[actor] or stacks[actor] <= 0) and actor in pending:
            pending.remove(actor)
        # Nobody left to bet against: the one player with chips who owes nothing is not
        # asked to check (PokerKit and the card rooms agree). Two pending players, both able
        # to bet, settle it at once.
        if len(pending) == 1:
            able, count = -1, 0  # players with chips: none, one (``able``) or more
            for s in range(len(folded)):
                if not folded[s] and stacks[s] > 0:
                    count += 1
                    if count > 1:
                        break
                    able = s
            if count == 0 or (count == 1 and self.street_commit[able] >= self.current_bet):
                self._pending = []
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

    def _has_openers(self, seat: int) -> bool:
        """Jacks or better: a pair of jacks or any better hand."""
        category, ranks = unpack(high_value([_INDEX[c] for c in self.hole[seat]]))
        return category > 1 or (category == 1 and ranks[0] >= 9)

    def hand_value(self, seat: int, board_cards: list[str] | None = None,
                   ranking: str | None = None) -> int | None:
        """The seat's hand under ``ranking`` (default: the game's high, else its low);
        None when no low qualifies."""
        ranking = ranking or self.variant.high or self.variant.low
        if ranking is None:
            raise RuntimeError(f"{self.variant.name} has neither a high nor a low ranking")
        if ranking == "high" and not self.variant.exactly_two:  # by the cards' names
            names = [*self.hole[seat], *(self.board if board_cards is None else board_cards)]
            if 5 <= len(names) <= 7:
                return high_value_of_cards(names)
        hole = [_INDEX[c] for c in self.hole[seat]]
        board = [_INDEX[c] for c in (self.board if board_cards is None else board_cards)]
        if self.variant.exactly_two:
            return omaha_best(hole, board, ranking)
        cards = hole + board
        if ranking == "high" and len(cards) <= 7:
            return high_value_of(cards)
        return ranked_value(cards, ranking)

    def bad_beat_hands(self) -> list[dict[int, int]]:
        """The hands met at the showdown as the bad-beat jackpot judges them (a hand the
        table auto-mucked too; not one its player gave up unshown), one
        mapping of seat to hand value a board (RULINGS: the criteria vary by game): the
        high hand only (a hi/lo game's low is not judged; a low game has none), made
        with at least the game's ``bad_beat_hole_cards`` of the player's own cards
        (hold'em: both hole cards playing), on each board of its own where the game
        judges boards apart (Double Flop), else on the first."""
        if self.variant.high is None:
            return []
        boards = ([self.board, self.second_board]
                  if self.variant.boards == 2 and self.variant.bad_beat_per_board
                  else [self.board])
        return [{seat: value for seat in sorted(self.contested)
                 if (value := self._bad_beat_value(seat, board)) is not None}
                for board in boards]

    def _bad_beat_value(self, seat: int, board: list[str]) -> int | None:
        """The seat's best high hand on ``board`` using at least the game's number of its
        hole cards (None: no five cards do)."""
        need, ranking = self.variant.bad_beat_hole_cards, self.variant.high
        if self.variant.exactly_two or need == 0 or not board:
            return self.hand_value(seat, board, ranking)  # Omaha: two hole cards by its rule
        hole = [_INDEX[c] for c in self.hole[seat]]
        shared = [_INDEX[c] for c in board]
        best = None
        for used in range(min(need, len(hole)), min(5, len(hole)) + 1):
            for mine in combinations(hole, used):
                for rest in combinations(shared, 5 - used):
                    value = ranked_value([*mine, *rest], ranking or "high")
                    if value is not None and (best is None or value > best):
                        best = value
        return best

    def shown_hands(self, lang: str = "en") -> dict[int, str]:
        """The name of each hand shown at the showdown, by seat, in ``lang``: its high
        and its low (a hi/lo game; "no low" where none qualifies), on each board of
        Double Flop. No hand is named before the showdown, nor a hand not shown."""
        boards = ([self.board, self.second_board] if self.variant.boards == 2
                  else [self.board])
        names: dict[int, str] = {}
        for seat in sorted(self.shown):
            parts = []
            for board in boards:
                for ranking in (self.variant.high, self.variant.low):
                    if ranking is None:
                        continue
                    value = self.hand_value(seat, board, ranking)
                    parts.append(NO_LOW[lang] if value is None else describe(value, lang, ranking))
            names[seat] = " / ".join(parts)
        return names

    def _showdown(self) -> None:
        self._collect()
        self._take_fee()
        in_hand = self._in_hand()
        # A hand given up unshown is out of the contest, its chips dead money (RULINGS);
        # when every hand left was given up, they all show.
        live = [s for s in in_hand if s not in self.mucks] or in_hand
        self.contested = set(live)
        contributions = list(self.total_commit)
        # Antes that differ seat by seat (a big-blind ante, a dead blind) are dead money in
        # the main pot, which every hand contests; equal antes are part of each stake, so a
        # player all-in within the ante contests only what they matched.
        dead = 0
        if self.antes is not None and len(set(self.antes)) > 1:
            for seat in range(self.players):
                posted = min(self.antes[seat], self.starting_stacks[seat])
                contributions[seat] -= posted
                dead += posted
        boards = [self.board, self.second_board] if self.variant.boards == 2 else [self.board]
        # For each board, the high and the low values ("None" where a low fails to qualify).
        halves: list[list[dict[int, int | None]]] = []
        for board in boards:
            parts = []
            for ranking in (self.variant.high, self.variant.low):
                if ranking is not None:
                    parts.append({s: self.hand_value(s, board, ranking) for s in live})
            halves.append(parts)
        # Pots by the stakes of the players still in the hand; folded chips are dead money
        # in the pots they reach.
        levels = sorted({contributions[s] for s in live})
        pots: list[tuple[int, list[int]]] = []
        floor = 0
        for i, level in enumerate(levels):
            cap = max(contributions) if i == len(levels) - 1 else level
            pots.append((sum(min(c, cap) - min(c, floor) for c in contributions)
                         + (dead if i == 0 else 0),
                         [s for s in live if contributions[s] >= level]))
            floor = level
        # The last aggressor (or the first to act) shows first, then clockwise; with
        # auto-muck a hand beaten by one shown before it in every pot it contests is
        # mucked (the chips go as they would: a beaten hand wins nothing).
        for seat in self._order_from(self._opener):
            if seat not in in_hand:
                continue
            if seat not in live or (self.auto_muck and self._beaten(seat, pots, halves)):
                self.log.append(f"p{self._phh(seat)} sm")
            else:
                self.shown.add(seat)
                self.log.append(f"p{self._phh(seat)} sm {''.join(self.hole[seat])}")
        # A hand that wins no part of any pot is out of the contest; pots left with the same
        # contenders are one pot, split once (as a dealer pushes them, and as PokerKit does),
        # so odd chips are not split off pot by pot.
        winners = {s for amount, eligible in pots for parts in halves
                   for s in self._best(eligible, parts)}
        merged: list[tuple[int, list[int]]] = []
        for amount, eligible in pots:
            contenders = [s for s in eligible if s in winners]
            if merged and merged[-1][1] == contenders:
                amount += merged.pop()[0]
            merged.append((amount, contenders))
        fee_left = self.fee
        for pot, eligible in merged:
            taken = min(fee_left, pot)  # the fee comes out of the main pot first
            pot -= taken
            fee_left -= taken
            # Double Flop: half of each pot per board (the odd chip with the first board).
            per_board = [pot - pot // 2, pot // 2] if len(boards) == 2 else [pot]
            for part, board_parts in zip(per_board, halves, strict=True):
                self._split(part, eligible, board_parts)
        self.actor = None
        self.finished = True

    def _beaten(self, seat: int, pots: list[tuple[int, list[int]]],
                halves: list[list[dict[int, int | None]]]) -> bool:
        """Whether every part of every pot ``seat`` contests (each board, its high and its
        low) has a better hand among those shown so far."""
        for _amount, eligible in pots:
            if seat not in eligible:
                continue
            rivals = [s for s in self.shown if s in eligible]
            for parts in halves:
                for values in parts:
                    mine = values[seat]
                    if mine is None:
                        continue
                    best = max((v for s in rivals if (v := values[s]) is not None),
                               default=None)
                    if best is None or mine >= best:
                        return False
        return True

    def _best(self, eligible: list[int], parts: list[dict[int, int | None]]) -> list[int]:
        """The best hands among ``eligible`` in each of ``parts`` (high, low), clockwise
        from the button's left."""
        found: list[int] = []
        for values in parts:
            scored = [v for s in eligible if (v := values[s]) is not None]
            if scored:
                best = max(scored)
                found += [s for s in self._order_from(self._left_of(self.button))
                          if s in eligible and values[s] == best and s not in found]
        return found

    def _split(self, pot: int, eligible: list[int], parts: list[dict[int, int | None]]) -> None:
        """High/low: the pot halves between the best and the best low hand, the odd chip to
        the high half (RULINGS); a half nobody qualifies for goes to the other half."""
        contenders = [p for p in parts if any(p[s] is not None for s in eligible)]
        shares = [pot - pot // 2, pot // 2] if len(contenders) == 2 else [pot]
        for share, values in zip(shares, contenders, strict=True):
            winners = self._best(eligible, [values])
            each, odd = divmod(share, len(winners))
            for i, s in enumerate(winners):
                # Odd chips go to the first winner clockwise from the button (house
                # choice, as PokerKit and the card rooms do; RULINGS names only hi/lo).
                amount = each + (odd if i == 0 else 0)
                self.stacks[s] += amount
                self.winnings[s] += amount

    # -- what a player sees ------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, object]:
        """The table as ``seat`` sees it: its own cards, the board, stacks, bets and the
        public actions; no other player's hole cards unless shown at showdown, no deck.
        ``None`` is a spectator's view, which holds no hole card at all."""
        if seat is not None and not 0 <= seat < self.players:
            raise PokerError(f"no seat {seat}")
        label = {f"p{self._phh(s)}": s for s in range(self.players)}
        hidden = {name for name, s in label.items() if s != seat and s not in self.shown}
        actions = []
        for entry in self.log:
            words = entry.split()
            if words[:2] == ["d", "dh"] and words[2] in hidden:
                up = self.up[label[words[2]]]  # stud: up cards are for everyone to see
                cards = [words[3][i:i + 2] for i in range(0, len(words[3]), 2)]
                entry = f"d dh {words[2]} {''.join(c if c in up else '??' for c in cards)}"
            elif words[1:2] == ["discard"] and words[0] in hidden:
                entry = f"{words[0]} discard ??"
            elif words[1:2] == ["sd"] and len(words) > 2 and words[0] in hidden:
                entry = f"{words[0]} sd {'??' * (len(words[2]) // 2)}"
            actions.append(entry)
        return {
            "seat": seat,
            "hole": [] if seat is None else list(self.hole[seat]),
            "shown": {s: list(self.hole[s]) for s in sorted(self.shown) if s != seat},
            "up": {s: list(self.up[s]) for s in range(self.players) if self.up[s]},
            "board": list(self.board),
            "second_board": list(self.second_board),
            "stacks": list(self.stacks),
            "bets": list(self.street_commit),
            "pot": sum(self.total_commit) - sum(self.street_commit),
            "folded": list(self.folded),
            "button": self.button,
            "to_act": self.actor,
            "discarding": self.discarding,
            "drawing": self.drawing,
            "actions": actions,
            "finished": self.finished,
        }

    # -- records ---------------------------------------------------------------------------
    def phh(self) -> str:
        """The hand as a PHH file (PokerKit's notation), players from the dealer's left on.

        Games PHH has no code for are written in the same notation under a code of their
        own (``pelisali/<game>/<structure>``), with the game's parameters in ``_``-fields,
        the PHH way of adding fields; PokerKit cannot replay those.
        """
        order = self._order_from(self._left_of(self.button))
        variant = self.variant
        code = variant.phh_code or f"pelisali/{variant.name}/{variant.structure}"
        lines = [f'variant = "{code}"']
        if variant.phh_code is None:
            lines += [f'_kind = "{variant.kind}"', f'_high = "{variant.high or ""}"',
                      f'_low = "{variant.low or ""}"', f"_draws = {variant.draws}",
                      f"_openers = {str(variant.openers).lower()}"]
        # PHH lists a heads-up hand's forced bets the button's first and swaps them itself.
        listed = order[::-1] if self.players == 2 else order
        antes = self.antes if self.antes is not None else [self.ante] * self.players
        lines += [
            "ante_trimming_status = true",
            f"antes = {[antes[s] for s in listed]}",
        ]
        if self.variant.kind == "stud":
            lines.append(f"bring_in = {self.bring_in}")
        else:
            blinds = self.blinds
            if blinds is None:
                sb, bb = self._blind_seats()
                blinds = [self.small_blind if s == sb else self.big_blind if s == bb else 0
                          for s in range(self.players)]
            lines.append(f"blinds_or_straddles = {[blinds[s] for s in listed]}")
        if self.variant.structure == "limit":
            lines += [f"small_bet = {self.big_blind}", f"big_bet = {2 * self.big_blind}"]
        else:
            lines.append(f"min_bet = {self.big_blind}")
        lines += [
            f"starting_stacks = {[self.starting_stacks[s] for s in order]}",
            "actions = [" + ", ".join(f'"{a}"' for a in self._phh_actions()) + "]",
            f"finishing_stacks = {[self.stacks[s] for s in order]}",
        ]
        return "\n".join(lines) + "\n"

    def _phh_actions(self) -> list[str]:
        """The log in PHH order: in a draw, everyone discards before the new cards are
        dealt; notes are left out."""
        actions: list[str] = []
        deals: list[str] = []
        drawn: set[str] = set()  # players who drew in this draw
        for entry in self.log:
            words = entry.split()
            if entry.startswith("#"):
                continue
            if words[1] == "sd":
                if words[0] in drawn:  # the next draw began without betting (all-ins)
                    actions += deals
                    deals, drawn = [], set()
                drawn.add(words[0])
                actions.append(entry)
            elif drawn and words[:2] == ["d", "dh"]:
                deals.append(entry)
            else:
                actions += deals
                deals, drawn = [], set()
                actions.append(entry)
        return actions + deals


__all__ = [
    "COURCHEVEL_PL", "CRAZY_PINEAPPLE_NL", "DOUBLE_FLOP_NL", "DRAW_LIMIT", "HELSINKI_NL",
    "HOLDEM_LIMIT", "HOLDEM_NL", "HOLDEM_PL", "LOWBALL_NL", "OMAHA5_PL", "OMAHA_NL", "OMAHA_PL",
    "PINEAPPLE_NL", "RAZZ_LIMIT", "SOKO_LIMIT", "STUD_LIMIT", "TRIPLE_DRAW_LIMIT", "Kind",
    "Legal", "PokerError", "PokerHand", "PokerVariant", "Structure",
]
