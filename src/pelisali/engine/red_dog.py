"""Red Dog under the engine contract: one hand for the whole table, antes and raises.

Standard rules (RAY 2016 1.4.2 names the game; its text is not in the rulebook as
extracted; :mod:`pelisali.games.red_dog` holds the spread and the returns). A round:
every seat bets an ante (:class:`~pelisali.engine.wager.PlaceBet` on ``ante``) and says
it is done; two cards are dealt face up for the table, each a chance outcome from the
shoe's composition (as a punto banco shoe deals). Consecutive ranks push every ante. A
pair draws a third card at once: three of a kind pays 11:1, anything else pushes.
Otherwise the spread is announced and each seat with an ante, in seat order, raises by
up to its ante (:class:`Raise`) or stands (:class:`Stand`); then the third card is
dealt and a card strictly between the two wins ante and raise by the spread's odds,
any other loses both. Every payout is whole, so no cent is rounded; nothing is hidden.

>>> from pelisali.engine import Seats
>>> state = RedDogEngine().new_state(Seats(1))
>>> for move in ["bet ante 1000", "done", "4s", "Td", "raise 1000", "7c"]:
...     state = state.apply(move).state
>>> state.is_terminal(), state.returns()   # spread 5 pays 1:1 on the ante and the raise
(True, (2000,))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from pelisali.engine.baccarat import ShoeChance, ShoeCounts, shoe_to_deal, take
from pelisali.engine.contract import CHANCE, Action, Event, Game, IllegalMove, Move, Seats, Step
from pelisali.engine.one_deck import (
    BankedEngine,
    BettingRound,
    Settings,
    house_seats,
    table_name,
    whole_number,
)
from pelisali.engine.wager import EndBetting, PlaceBet
from pelisali.games.red_dog import ORDER, spread
from pelisali.money import format_cents
from pelisali.rules.banked import RedDogRules, load_red_dog


@dataclass(frozen=True)
class Raise:
    """A raise of ``stake`` cents, up to the ante, after the spread is announced."""

    stake: int

    def text(self) -> str:
        return f"raise {self.stake}"


@dataclass(frozen=True)
class Stand:
    """No raise: the ante alone rides on the third card."""

    def text(self) -> str:
        return "stand"


@dataclass(frozen=True)
class RedDogBet:
    """A bet of a round: ``spot`` is ``ante`` or ``raise``."""

    bet_id: int
    seat: int
    spot: str
    stake: int


@dataclass(frozen=True)
class RedDogSettlement:
    """How a bet ended: ``paid`` whole cents back (stake included), ``result`` ``win``,
    ``lose`` or ``push``."""

    bet_id: int
    seat: int
    spot: str
    stake: int
    paid: int
    result: str


class RedDogEngine(BankedEngine):
    """Red Dog with its shoe, pay table (a hall's ``decks`` and ``pay_table``, as ``--set``
    gives them) and limits.

    >>> RedDogEngine.from_settings({"decks": "1"}).rules.decks
    1
    """

    family: ClassVar[str] = "red-dog"
    max_seats = 7
    game_name = "Red Dog"
    spots = ("ante",)
    setting_args: ClassVar[Settings] = {"decks": whole_number("decks is a whole number"),
                                        "pay_table": table_name}
    load_rules = staticmethod(load_red_dog)
    rules: RedDogRules

    @property
    def config(self) -> RedDogRules:
        """The rules in force (their ``decks`` say whether a card's label names one card)."""
        return self.rules

    def new_state(self, seats: Seats) -> RedDogState:
        return self.new_round(seats)

    def new_round(self, seats: Seats, shoe: Mapping[str, int] | None = None) -> RedDogState:
        """A new hand dealt from ``shoe`` (card -> count); a full shoe when ``None``. The
        shoe must hold the three cards a hand can need."""
        count = house_seats(self, seats)
        counts = shoe_to_deal(shoe, self.rules.decks, 3, "hand")
        return RedDogState(self, count, counts, done=(False,) * count,
                           decisions=(None,) * count)


@dataclass(frozen=True)
class RedDogState(ShoeChance, BettingRound):
    """A hand: the antes, the shoe left, the cards dealt, the raises, the settlements."""

    game: RedDogEngine
    seats: int
    shoe: ShoeCounts
    bets: tuple[RedDogBet, ...] = ()
    done: tuple[bool, ...] = ()
    cards: tuple[str, ...] = ()
    decisions: tuple[str | None, ...] = ()  # "raise" or "stand" for each seat with an ante
    settlements: tuple[RedDogSettlement, ...] = ()
    history: tuple[Move, ...] = field(default=())
    bet_type = RedDogBet
    round_name = "hand"
    spot_words: ClassVar[Mapping[str, str]] = {"ante": "the ante"}

    # -- the hand ---------------------------------------------------------------------
    def spread(self) -> int | None:
        """The ranks between the first two cards (0 consecutive, None a pair), once dealt."""
        return spread(self.cards[0], self.cards[1]) if len(self.cards) >= 2 else None

    def _deciding(self) -> list[int]:
        """Seats with an ante yet to raise or stand, once a spread is announced."""
        if len(self.cards) != 2 or not self.spread():
            return []
        return [s for s in range(self.seats)
                if self._stake(s, "ante") and self.decisions[s] is None]

    def _needs_card(self) -> bool:
        if len(self.cards) < 2:
            return True
        if len(self.cards) == 3:
            return False
        between = self.spread()
        return between is None or (between > 0 and not self._deciding())

    # -- who moves ---------------------------------------------------------------------
    def to_move(self) -> int | None:
        if not all(self.done):
            return self.done.index(False)
        if not self.bets or self.settlements:
            return None
        deciding = self._deciding()
        if deciding:
            return deciding[0]
        return CHANCE if self._needs_card() else None

    # -- what may happen ---------------------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            return ()
        if all(self.done):
            ante = self._stake(mover, "ante")
            return (Raise(1), Raise(ante), Stand()) if ante > 1 else (Raise(1), Stand())
        return (*self.betting_actions(mover, ("ante",)), EndBetting())

    def parse_action(self, text: str) -> Action:
        words = text.split()
        if words == ["done"]:
            return EndBetting()
        if words == ["stand"]:
            return Stand()
        if len(words) == 2 and words[0] == "raise":
            if not words[1].isdigit():
                raise IllegalMove(f"a raise is a whole number of cents, not {words[1]!r}")
            return Raise(int(words[1]))
        if len(words) == 3 and words[0] == "bet":
            if words[1].lower() != "ante":
                raise IllegalMove(f"Red Dog has no bet {words[1]!r} before the deal; bets: ante")
            if not words[2].isdigit():
                raise IllegalMove(f"a stake is a whole number of cents, not {words[2]!r}")
            return PlaceBet("ante", int(words[2]))
        raise IllegalMove(f"{text!r} is not an action here: 'bet ante CENTS', 'done', "
                          f"'raise CENTS' or 'stand'")

    def _check_action(self, action: Action) -> None:
        if isinstance(action, Raise | Stand):
            if not all(self.done):
                raise IllegalMove("a raise or a stand comes once the spread is announced")
            if isinstance(action, Raise):
                self._check_raise(action)
            return
        if all(self.done):
            raise IllegalMove("no more bets: raise or stand")
        if isinstance(action, EndBetting):
            return
        if not isinstance(action, PlaceBet) or action.spot != "ante":
            raise IllegalMove(f"{action.text()!r} is not an action of Red Dog")
        self._accept(action)

    def _check_raise(self, action: Raise) -> None:
        seat = self.to_move()
        if seat is None or seat == CHANCE:
            raise IllegalMove("no seat is to act")
        ante = self._stake(seat, "ante")
        stake = action.stake
        if isinstance(stake, bool) or not isinstance(stake, int):
            raise IllegalMove(f"a raise is a whole number of cents, not {stake!r}")
        if not 0 < stake <= ante:
            raise IllegalMove(f"a raise is 0.01 to the ante ({format_cents(ante)}), "
                              f"not {format_cents(stake)}")

    def _decide(self, mover: int, action: Action, history: tuple[Move, ...]) -> Step:
        if not isinstance(action, Raise | Stand):
            raise IllegalMove(f"{action.text()!r} is not an action of Red Dog")
        word = "raise" if isinstance(action, Raise) else "stand"
        decisions = tuple(word if i == mover else d for i, d in enumerate(self.decisions))
        state = replace(self, decisions=decisions, history=history)
        if isinstance(action, Raise):
            state = replace(state, bets=(*self.bets, RedDogBet(len(self.bets) + 1, mover,
                                                               "raise", action.stake)))
            event = Event("raise", f"seat {mover} raises {format_cents(action.stake)}",
                          (mover,))
        else:
            event = Event("stand", f"seat {mover} stands", (mover,))
        return Step(state, (event,))

    def _deal(self, card: str, history: tuple[Move, ...]) -> Step:
        if not self._needs_card() or card not in dict(self.shoe):
            raise IllegalMove(f"{card!r} cannot come up now")
        state = replace(self, shoe=take(self.shoe, card), cards=(*self.cards, card),
                        history=history)
        events = [Event("card", f"{card} (card {len(state.cards)})")]
        if len(state.cards) == 2:
            between = state.spread()
            events.append(Event("spread", "a pair: a third card is dealt" if between is None
                                else "consecutive: every ante pushes" if between == 0
                                else f"spread {between}: it pays "
                                     f"{self.game.rules.pays_for(between)}:1"))
        return state._step(*events)

    def _settle(self) -> tuple[RedDogState, list[Event]]:
        rules = self.game.rules
        between = self.spread()
        if between == 0:
            net, result = 0, "push"
        elif between is None:
            trips = self.cards[2][0] == self.cards[0][0]
            net, result = (rules.three_of_a_kind, "win") if trips else (0, "push")
        else:
            low, high = sorted(ORDER.index(c[0]) for c in self.cards[:2])
            inside = low < ORDER.index(self.cards[2][0]) < high
            net, result = (rules.pays_for(between), "win") if inside else (-1, "lose")
        out = [RedDogSettlement(b.bet_id, b.seat, b.spot, b.stake, b.stake * (1 + net), result)
               for b in self.bets]
        events = [Event("settled", f"bet {s.bet_id} on the {s.spot}: {s.result}, "
                                   f"{format_cents(s.paid)} back", (s.seat,), private=True)
                  for s in out]
        return replace(self, settlements=tuple(out)), events

    # -- what a seat sees and what it came to -----------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Public: who is to move, the cards, the spread and what it pays, the decisions,
        the total staked and the cards left in the shoe. A seat also sees its own bets
        and settlements."""
        mover = self.to_move()
        between = self.spread()
        out: dict[str, Any] = {
            "game": self.game.game_id,
            "to_move": "chance" if mover == CHANCE else mover,
            "cards": list(self.cards),
            "spread": between,
            "pays": self.game.rules.pays_for(between) if between else None,
            "decisions": list(self.decisions),
            "on_table": sum(b.stake for b in self.bets),
            "shoe_left": sum(n for _, n in self.shoe),
        }
        if seat is not None:
            out.update(self._seat_view(seat))
        return out

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        return frozenset()  # every card is dealt face up; the shoe's order is chance's


def red_dog_engines() -> dict[str, Game]:
    """Red Dog with the rule data's shoe and pay table.

    >>> list(red_dog_engines())
    ['red-dog']
    """
    return {"red-dog": RedDogEngine()}
