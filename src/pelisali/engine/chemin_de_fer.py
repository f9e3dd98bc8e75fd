"""Baccara, chemin de fer under the engine contract: one coup between the bank, held by
one of the players, and the punters who bet against it.

Standard rules (RAY 2016 4.4.2.3 names the game; its text is not in the rulebook as
extracted; the règle is rule data, :func:`pelisali.rules.banked.load_chemin_de_fer`).
A coup:

1. The banker (``banker``, a seat) puts up the bank (``bank CENTS``), unless the bank
   is carried from the last coup (:func:`next_bank`).
2. The punters decide in turn from the banker's right (the next seats in order): the
   first may go ``banco``, alone against the whole bank; otherwise each may ``bet
   CENTS`` against what of the bank is still uncovered, or ``pass``. Betting ends when
   the bank is covered or every punter has decided. What no punter covered is not at
   stake and goes back to the banker; a coup nobody bets against is not dealt.
3. Chance deals player, banker, player, banker from the shoe. An 8 or 9 is shown at
   once (abattage) and nobody draws.
4. The player's hand is played by the punter with the largest stake (the first of them
   in turn): 0-4 draws, 6-7 stands, and on 5 that punter chooses ``draw`` or ``stand``.
5. The banker draws as the tableau says; in its option cells (3 against a third card 9,
   5 against a 4) the banker chooses ``draw`` or ``stand``.
6. A tie (égalité) is void. When the player's hand wins, each punter is paid even money
   from the bank; when the bank wins, it takes the punters' stakes and the house takes
   its commission (5 %) on that win, paid down to the cent, the fraction the house's.

Each hand's first two cards are seen only by the seat that plays it until the coup is
over (an 8 or a 9 is turned at once); third cards are dealt face up.

>>> from pelisali.engine import Seats
>>> state = CheminEngine().new_state(Seats(3))   # seat 0 holds the bank
>>> for move in ["bank 10000", "bet 4000", "bet 6000", "9h", "Kc", "4d", "5s"]:
...     state = state.apply(move).state
>>> state.is_terminal(), state.returns()   # player 3, banker 5: the stakes are out
(False, (-10000, -4000, -6000))
>>> state.to_move(), [a.text() for a in state.legal_actions()]   # player 3 draws: chance
(-1, [])
>>> state = state.apply("Ac").state        # the player's 4; banker 5 against an ace stands
>>> state.is_terminal(), state.returns(), state.accounts()["house"]
(True, (9500, -4000, -6000), 500)
>>> next_bank(state)                       # the bank won: it stays, grown
(0, 19500)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, ClassVar

from pelisali.engine.baccarat import MOST_CARDS, ShoeChance, ShoeCounts, shoe_to_deal, take
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
from pelisali.engine.one_deck import BankedEngine, BankedRound, Settings, whole_number
from pelisali.games.punto_banco import Side, card_points, points
from pelisali.money import format_cents, pay_exact
from pelisali.rules.banked import CheminRules, load_chemin_de_fer


@dataclass(frozen=True)
class PutUpBank:
    """The banker puts up the bank: ``amount`` cents at stake against the punters."""

    amount: int

    def text(self) -> str:
        return f"bank {self.amount}"


@dataclass(frozen=True)
class Banco:
    """The punter goes banco: alone against the whole bank."""

    def text(self) -> str:
        return "banco"


@dataclass(frozen=True)
class Punt:
    """The punter stakes ``amount`` cents against the part of the bank still uncovered."""

    amount: int

    def text(self) -> str:
        return f"bet {self.amount}"


@dataclass(frozen=True)
class Pass:
    """The punter does not bet this coup."""

    def text(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Draw:
    """The hand with a choice (the player on five, the banker in an option cell) draws."""

    def text(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Stand:
    """The hand with a choice stands."""

    def text(self) -> str:
        return "stand"


@dataclass(frozen=True)
class CheminBet:
    """A stake of the coup: the bank's (``bank``), or a punter's (``banco`` or ``punt``)."""

    bet_id: int
    seat: int
    spot: str
    stake: int


@dataclass(frozen=True)
class CheminSettlement:
    """How a stake ended: ``paid`` whole cents back (stake included), ``rounding`` the
    part of a cent the house keeps of its commission, ``result``."""

    bet_id: int
    seat: int
    spot: str
    stake: int
    paid: int
    result: str
    rounding: Fraction = Fraction(0)


class CheminEngine(BankedEngine):
    """Chemin de fer with its règle (rule data; a hall's shoe, ``decks``: 6 or 8, as
    ``--set`` gives it) and the limits of a bank and a stake. Its stakes are moves of the
    coup (``bank``, ``banco``, ``bet``), not bets before a deal, so it names no ``spots``.

    >>> CheminEngine.from_settings({"decks": "8"}).rules.decks
    8
    """

    family: ClassVar[str] = "chemin-de-fer"
    min_seats = 2  # the banker and at least one punter
    max_seats = 12
    game_name = "chemin de fer"
    setting_args: ClassVar[Settings] = {"decks": whole_number("decks is a number of decks")}
    load_rules = staticmethod(load_chemin_de_fer)
    rules: CheminRules

    def title(self) -> str:
        return "Baccara, chemin de fer"

    def new_state(self, seats: Seats) -> CheminState:
        return self.new_coup(seats)

    def new_coup(self, seats: Seats, banker: int = 0, bank: int = 0,
                 shoe: Mapping[str, int] | None = None) -> CheminState:
        """A coup with ``banker`` holding the bank: ``bank`` cents carried from the last
        coup, or 0 for the banker to put it up; dealt from ``shoe`` (a full one if None)."""
        self.check_seats(seats)
        if seats.stacks:
            raise IllegalMove("the stakes of chemin de fer are the seats' bets; seats bring "
                              "no chips")
        if not 0 <= banker < seats.count:
            raise IllegalMove(f"the banker is one of the seats 0-{seats.count - 1}, not {banker}")
        if isinstance(bank, bool) or not isinstance(bank, int) or bank < 0:
            raise IllegalMove(f"a bank is a whole number of cents, not {bank!r}")
        counts = shoe_to_deal(shoe, self.rules.decks, MOST_CARDS, "coup")
        bets = (CheminBet(1, banker, "bank", bank),) if bank else ()
        return CheminState(self, seats.count, counts, banker, bets,
                           decided=tuple(s == banker for s in range(seats.count)))


@dataclass(frozen=True)
class CheminState(ShoeChance, BankedRound):
    """A coup: the banker, the stakes, the shoe left, the cards dealt with the choices
    made, then the settlements."""

    game: CheminEngine
    seats: int
    shoe: ShoeCounts
    banker: int
    bets: tuple[CheminBet, ...] = ()
    decided: tuple[bool, ...] = ()
    cards: tuple[tuple[Side, str], ...] = ()
    player_choice: str | None = None
    banker_choice: str | None = None
    settlements: tuple[CheminSettlement, ...] = ()
    history: tuple[Move, ...] = field(default=())

    # -- the stakes ----------------------------------------------------------------------
    @property
    def bank(self) -> int:
        """What the banker put up (0 until then)."""
        return sum(b.stake for b in self.bets if b.spot == "bank")

    @property
    def covered(self) -> int:
        """What the punters have staked against the bank."""
        return sum(b.stake for b in self.bets if b.spot != "bank")

    def punters(self) -> list[int]:
        """The seats in turn from the banker's right (the next seats in order)."""
        return [(self.banker + i) % self.seats for i in range(1, self.seats)]

    def _betting(self) -> bool:
        if not self.bank:
            return True
        banco = any(b.spot == "banco" for b in self.bets)
        return not banco and self.covered < self.bank and not all(self.decided)

    def player_seat(self) -> int | None:
        """The punter who plays the player's hand: the largest stake, the first in turn."""
        staked = {s: sum(b.stake for b in self.bets if b.seat == s and b.spot != "bank")
                  for s in self.punters()}
        top = max(staked.values(), default=0)
        return next((s for s in self.punters() if top and staked[s] == top), None)

    # -- the hands -----------------------------------------------------------------------
    def hand(self, side: Side) -> tuple[int, ...]:
        return tuple(card_points(c) for s, c in self.cards if s == side)

    def _third(self) -> int | None:
        player = [c for s, c in self.cards if s == "player"]
        return card_points(player[2]) if len(player) == 3 else None

    def _natural(self) -> bool:
        return len(self.cards) >= 4 and (points(self.hand("player")[:2]) >= 8
                                         or points(self.hand("banker")[:2]) >= 8)

    def _next(self) -> str | None:
        """What the coup waits for: ``bank``, ``punter``, ``card``, ``player`` (a
        choice on five), ``banker`` (a choice in an option cell), or None (over)."""
        if self.settlements:
            return None
        if not self.bank:
            return "bank"
        if self._betting():
            return "punter"
        if not self.covered:
            return None
        if len(self.cards) < 4:
            return "card"
        if self._natural():
            return None
        rules = self.game.rules
        player, banker = self.hand("player"), self.hand("banker")
        total = points(player[:2])
        if len(player) == 2:
            if total == rules.player_option and self.player_choice is None:
                return "player"
            if rules.player_draws(total, self.player_choice):
                return "card"
        if len(banker) == 3:
            return None
        third = self._third()
        if len(player) == 3 and (points(banker), third) in rules.options \
                and self.banker_choice is None:
            return "banker"
        choices = {(points(banker), third): self.banker_choice} \
            if self.banker_choice and third is not None else None
        return "card" if rules.banker_draws(points(banker), third, choices) else None

    # -- who moves -----------------------------------------------------------------------
    def to_move(self) -> int | None:
        waiting = self._next()
        if waiting == "bank":
            return self.banker
        if waiting == "punter":
            return next(s for s in self.punters() if not self.decided[s])
        if waiting == "card":
            return CHANCE
        if waiting == "player":
            return self.player_seat()
        if waiting == "banker":
            return self.banker
        return None

    def legal_actions(self) -> tuple[Action, ...]:
        waiting = self._next()
        limits = self.game.limits
        if waiting == "bank":
            low, high = limits.minimum, limits.maximum
            return (PutUpBank(low), PutUpBank(high))
        if waiting == "punter":
            left = self.bank - self.covered
            out: list[Action] = [Banco()] if not self.covered else []
            least = min(left, limits.minimum)
            out.append(Punt(least))
            if left != least:
                out.append(Punt(left))
            return (*out, Pass())
        if waiting in ("player", "banker"):
            return (Draw(), Stand())
        return ()

    def parse_action(self, text: str) -> Action:
        words = text.split()
        simple: dict[str, Action] = {"banco": Banco(), "pass": Pass(), "draw": Draw(),
                                     "stand": Stand()}
        if len(words) == 1 and words[0] in simple:
            return simple[words[0]]
        if len(words) == 2 and words[0] in ("bank", "bet"):
            if not words[1].isdigit():
                raise IllegalMove(f"a stake is a whole number of cents, not {words[1]!r}")
            amount = int(words[1])
            return PutUpBank(amount) if words[0] == "bank" else Punt(amount)
        raise IllegalMove(f"{text!r} is not an action here: 'bank CENTS', 'banco', "
                          "'bet CENTS', 'pass', 'draw' or 'stand'")

    def _check_action(self, action: Action) -> None:
        waiting = self._next()
        limits = self.game.limits
        if isinstance(action, PutUpBank):
            if waiting != "bank":
                raise IllegalMove("the bank is put up before the punters bet, once")
            if isinstance(action.amount, bool) or not isinstance(action.amount, int) \
                    or not limits.minimum <= action.amount <= limits.maximum:
                raise IllegalMove(f"a bank is {format_cents(limits.minimum)} to "
                                  f"{format_cents(limits.maximum)}")
            return
        if isinstance(action, Banco | Punt | Pass):
            if waiting != "punter":
                raise IllegalMove("the punters bet once the bank is up, before the cards")
            if isinstance(action, Banco) and self.covered:
                raise IllegalMove("banco is called against the whole bank, before any stake")
            if isinstance(action, Punt):
                left = self.bank - self.covered
                least = min(left, limits.minimum)
                if isinstance(action.amount, bool) or not isinstance(action.amount, int) \
                        or not least <= action.amount <= left:
                    raise IllegalMove(f"a stake against the bank is {format_cents(least)} to "
                                      f"the {format_cents(left)} left uncovered")
            return
        if isinstance(action, Draw | Stand):
            if waiting not in ("player", "banker"):
                raise IllegalMove("draw and stand are chosen on five (the player's hand) "
                                  "and in the banker's option cells")
            return
        raise IllegalMove(f"{action.text()!r} is not an action of chemin de fer")

    # -- what happens --------------------------------------------------------------------
    def _apply(self, action: Action) -> Step:
        mover = self.to_move()
        if mover is None:
            raise IllegalMove("the coup is over; nothing more can happen")
        history = (*self.history, Move(mover, action))
        if isinstance(action, ChanceOutcome):
            return self._deal(action.label, history)
        state, event = self._decide(mover, action, history)
        return state._after([event])

    def _decide(self, mover: int, action: Action, history: tuple[Move, ...]
                ) -> tuple[CheminState, Event]:
        if isinstance(action, PutUpBank):
            return (replace(self, bets=(CheminBet(1, mover, "bank", action.amount),),
                            history=history),
                    Event("bank", f"seat {mover} puts up a bank of "
                                  f"{format_cents(action.amount)}", (mover,)))
        decided = tuple(True if i == mover else d for i, d in enumerate(self.decided))
        if isinstance(action, Banco | Punt):
            amount = self.bank if isinstance(action, Banco) else action.amount
            spot = "banco" if isinstance(action, Banco) else "punt"
            bet = CheminBet(len(self.bets) + 1, mover, spot, amount)
            words = "banco" if spot == "banco" else f"{format_cents(amount)} against the bank"
            return (replace(self, bets=(*self.bets, bet), decided=decided, history=history),
                    Event("bet", f"seat {mover}: {words}", (mover,)))
        if isinstance(action, Pass):
            return (replace(self, decided=decided, history=history),
                    Event("pass", f"seat {mover} passes", (mover,)))
        choice = "draw" if isinstance(action, Draw) else "stand"
        if self._next() == "player":
            return (replace(self, player_choice=choice, history=history),
                    Event("choice", f"the player's hand (seat {mover}) {choice}s on five"))
        return (replace(self, banker_choice=choice, history=history),
                Event("choice", f"the banker (seat {mover}) {choice}s"))

    def _deal(self, card: str, history: tuple[Move, ...]) -> Step:
        if card not in dict(self.shoe):
            raise IllegalMove(f"{card!r} cannot come up now")
        dealt = len(self.cards)
        side: Side
        if dealt < 4:
            side = ("player", "banker")[dealt % 2]
        else:
            side = "player" if len(self.hand("player")) == 2 and self._next_is_player_card() \
                else "banker"
        state = replace(self, shoe=take(self.shoe, card), cards=(*self.cards, (side, card)),
                        history=history)
        face_up = dealt >= 4
        return state._after([Event("card", f"{card} to the {side}" if face_up
                                   else f"a card to the {side}, face down")])

    def _next_is_player_card(self) -> bool:
        """After four cards: whether the player's hand is the one drawing."""
        total = points(self.hand("player"))
        return self.game.rules.player_draws(total, self.player_choice)

    def _after(self, events: list[Event]) -> Step:
        if self._next() is None and not self.settlements:
            state, settled = self._settle()
            return Step(state, (*events, *settled))
        return Step(self, tuple(events))

    def _settle(self) -> tuple[CheminState, list[Event]]:
        """Pay the coup: void when nobody bet or on a tie; else even money either way, the
        house's commission on the bank's win."""
        out: list[CheminSettlement] = []
        if not self.covered:
            bank = self.bets[0]
            out.append(CheminSettlement(bank.bet_id, bank.seat, "bank", bank.stake,
                                        bank.stake, "void, nobody bet against the bank"))
            return replace(self, settlements=tuple(out)), [
                Event("result", "nobody bets against the bank: no coup")]
        player, banker = points(self.hand("player")), points(self.hand("banker"))
        result = "banker" if banker > player else "player" if player > banker else "tie"
        shown = {s: " ".join(c for side, c in self.cards if side == s)
                 for s in ("player", "banker")}
        events = [Event("result", f"player {shown['player']} ({player}), banker "
                                  f"{shown['banker']} ({banker}): {result}")]
        rate = Fraction(self.game.rules.commission_percent, 100)
        for bet in self.bets:
            if bet.spot == "bank":
                left = bet.stake - self.covered  # the part nobody covered goes back
                if result == "tie":
                    paid, rounding, text = bet.stake, Fraction(0), "push, égalité"
                elif result == "player":
                    paid, rounding, text = left, Fraction(0), "lose"
                else:
                    paid, rounding = pay_exact(bet.stake + self.covered * (1 - rate))
                    text = f"win, less the {self.game.rules.commission_percent} % commission"
            elif result == "tie":
                paid, rounding, text = bet.stake, Fraction(0), "push, égalité"
            elif result == "player":
                paid, rounding, text = 2 * bet.stake, Fraction(0), "win"
            else:
                paid, rounding, text = 0, Fraction(0), "lose"
            out.append(CheminSettlement(bet.bet_id, bet.seat, bet.spot, bet.stake, paid, text,
                                        rounding))
            events.append(Event("settled", f"bet {bet.bet_id} ({bet.spot}): {text}, "
                                           f"{format_cents(paid)} back", (bet.seat,)))
        return replace(self, settlements=tuple(out)), events

    # -- what a seat sees and what it came to -------------------------------------------
    def result(self) -> str | None:
        """``player``, ``banker`` or ``tie`` once the coup is dealt out; None before, and
        for a coup nobody bet against."""
        if not self.settlements or not self.cards:
            return None
        player, banker = points(self.hand("player")), points(self.hand("banker"))
        return "banker" if banker > player else "player" if player > banker else "tie"

    def _face_down(self, seat: int | None) -> set[int]:
        """The places (in ``cards``) of the hands' first two cards that ``seat`` does not
        hold, face down until the coup is over or a natural is shown."""
        if self.settlements or self._natural():
            return set()
        holders = {"player": self.player_seat(), "banker": self.banker}
        return {i for i, (side, _card) in enumerate(self.cards[:4])
                if seat is None or holders[side] != seat}

    def view(self, seat: int | None) -> dict[str, Any]:
        """Public: the banker, the bank and what is covered, each stake, who is to move
        and the cards as the seat may see them (``null`` for a card face down), the
        points of what is shown, the result. Every seat's stakes are public."""
        mover = self.to_move()
        down = self._face_down(seat)
        cards = [[side, None if i in down else card]
                 for i, (side, card) in enumerate(self.cards)]
        out: dict[str, Any] = {
            "game": self.game.game_id,
            "to_move": "chance" if mover == CHANCE else mover,
            "waiting": self._next(),
            "banker": self.banker, "bank": self.bank, "covered": self.covered,
            "player_seat": self.player_seat(),
            "stakes": [{"bet_id": b.bet_id, "seat": b.seat, "spot": b.spot, "stake": b.stake}
                       for b in self.bets],
            "cards": cards,
            "result": self.result(),
            "shoe_left": sum(n for _, n in self.shoe),
        }
        for side in ("player", "banker"):
            shown = [card_points(c) for s, c in cards if s == side and c is not None]
            out[f"{side}_points"] = points(shown) if shown and len(shown) == sum(
                1 for s, _c in cards if s == side) else None
        out["settlements"] = [{"bet_id": s.bet_id, "seat": s.seat, "spot": s.spot,
                               "stake": s.stake, "paid": s.paid, "result": s.result}
                              for s in self.settlements
                              if seat is None or s.seat == seat]
        return out

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The hands' face-down cards the seat does not hold (the shoe's order is the
        table's, as at punto banco and blackjack, not the engine's)."""
        down = self._face_down(seat)
        return frozenset(c for i, (_s, c) in enumerate(self.cards) if i in down)

    def shoe_left(self) -> Counter[str]:
        """The cards left in the shoe (a copy)."""
        return Counter(dict(self.shoe))


def next_bank(state: CheminState, passes: bool = False) -> tuple[int, int]:
    """Who holds the bank for the next coup, and what it holds (0: the new banker puts it
    up). A bank that won stays with its banker, grown by the win less the commission,
    unless the banker ``passes`` it on (passer la main); a bank that lost passes to the
    next seat in turn; a tie or a coup nobody bet against leaves it as it was.

    >>> from pelisali.engine import Seats
    >>> state = CheminEngine().new_state(Seats(2))
    >>> for move in ["bank 1000", "banco", "2h", "9c", "Kd", "Ks"]:  # player 2, banker 9
    ...     state = state.apply(move).state
    >>> next_bank(state), next_bank(state, passes=True)
    ((0, 1950), (1, 0))
    """
    if not state.is_terminal():
        raise IllegalMove("the bank passes when the coup is over")
    following = (state.banker + 1) % state.seats
    result = state.result()
    if result == "player" or passes:
        return following, 0
    bank = next(s for s in state.settlements if s.spot == "bank")
    return state.banker, bank.paid


def chemin_engines() -> dict[str, Game]:
    """Chemin de fer with the rule data's règle.

    >>> list(chemin_engines())
    ['chemin-de-fer']
    """
    return {"chemin-de-fer": CheminEngine()}
