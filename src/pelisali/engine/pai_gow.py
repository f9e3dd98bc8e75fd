"""Pai Gow Poker under the engine contract: the bet, seven cards to each box and to the
dealer from 53, each box's setting, the dealer's by the house way, and the settlement
with the commission.

Standard rules (RAY 2016 1.4.1.2 names the game; its text is not in the rulebook as
extracted; :mod:`pelisali.games.pai_gow` holds the hands, the house way and the
settlement). The house banks, and a box plays one bet against the dealer (``ante``); or,
where the rule data lets players bank, a box banks (``bank``): the dealer's hand, set by
the house way, plays against it for as much, and copies are the bank's. A bank plays the
dealer's hand alone: no other box bets in its round. A round: every
seat places its bet (:class:`~pelisali.engine.wager.PlaceBet` on ``ante`` or ``bank``,
not both) and says it is done. The cards are
chance nodes, one at a time from the 53: seven to each box with a bet, in seat order, then
seven to the dealer, face down. Each box in turn, in seat order, sets its hand, naming its
two-card low hand (``set 7h 2c``; the joker is ``Jk``) or asking for the house way
(``house``). A setting whose low hand ranks as high as its high hand fouls: it is taken,
with a warning, and loses. Once every box has set, the dealer's cards are set by the house
way and shown, and every bet settled: both hands higher wins 1:1, and the commission on
the win (the rule data's percent, rounded to the cent its way: up) is the house's, kept as its own
item (:class:`PaiGowCommission`); one higher and one lower pushes; both lower or equal (a
copy is the dealer's) loses. A seat sees its own cards; the dealer's and the other boxes'
at the end. At most six boxes: 49 of the 53 cards are dealt.

>>> from pelisali.engine import Seats
>>> state = PaiGowEngine().new_state(Seats(1))
>>> box = ["Kc", "Kd", "Qh", "9s", "7d", "4c", "2h"]
>>> dealer = ["Ac", "Jd", "8h", "6s", "5d", "3c", "2c"]
>>> for move in ["bet ante 1000", "done", *box, *dealer, "set Qh 9s"]:
...     state = state.apply(move).state
>>> state.dealer_high, state.dealer_low
(('Ac', '6s', '5d', '3c', '2c'), ('Jd', '8h'))
>>> state.returns(), [c.amount for c in state.commissions]  # 1:1 less 5 %
((950,), [50])
>>> state = PaiGowEngine().new_state(Seats(1))
>>> box, dealer = "Ac Jd 8h 6s 5d 3c 2c".split(), "Kc Kd Qh 9s 7d 4c 2h".split()
>>> for move in ["bet bank 1000", "done", *box, *dealer, "set Jd 8h"]:
...     state = state.apply(move).state
>>> state.dealer_high, state.dealer_low  # the dealer plays K-K and Q-9 against the bank
(('Kd', 'Kc', '7d', '4c', '2h'), ('Qh', '9s'))
>>> state.returns(), state.settlements[0].result  # the bank loses both hands
((-1000,), 'lose: high dealer, low dealer')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, ClassVar

from pelisali.cards import CardError
from pelisali.engine.contract import CHANCE, Action, Event, Game, IllegalMove, Move, Seats, Step
from pelisali.engine.one_deck import (
    BankedEngine,
    OneDeckRound,
    Settings,
    house_seats,
    others_cards,
    table_name,
)
from pelisali.engine.wager import EndBetting, PlaceBet
from pelisali.games.pai_gow import (
    DEALT,
    LOW,
    PAI_GOW_DECK,
    Showdown,
    fouls,
    hand_name,
    house_way,
    parse_pai_gow_card,
    payout,
    settle,
)
from pelisali.money import format_cents
from pelisali.rules.pai_gow import PaiGowRules, load_pai_gow

SPOTS = ("ante", "bank")
"""The bets a box places, one of them: against the house's bank, or banking itself."""
BANK = "bank"
"""A box's bet when it banks against the dealer's hand."""
_TAKEN_BY_BANK = {"box": "dealer", "dealer": "box", "copy": "copy"}
"""Who took a hand, read from the dealer's side (the dealer's hand as the player's
against the bank) back to the bank's."""


@dataclass(frozen=True)
class SetHand:
    """The box sets its hand: ``low`` its two-card hand, the other five its high hand."""

    low: tuple[str, ...]

    def text(self) -> str:
        return "set " + " ".join(self.low)


@dataclass(frozen=True)
class SetHouseWay:
    """The box asks for the house way: its hand is set as the dealer's would be."""

    def text(self) -> str:
        return "house"


@dataclass(frozen=True)
class PaiGowBet:
    """A bet of a round: ``spot`` is ``ante``."""

    bet_id: int
    seat: int
    spot: str
    stake: int


@dataclass(frozen=True)
class PaiGowSettlement:
    """How a bet ended: ``paid`` whole cents back (stake included, before the commission)
    and ``result`` in words (``win``, ``push`` or ``lose``, with who took each hand);
    ``outcome`` is that first word, ``high`` and ``low`` who took each hand (``box``,
    ``dealer`` or ``copy``, the dealer's), ``foul`` whether the box's setting fouled."""

    bet_id: int
    seat: int
    spot: str
    stake: int
    paid: int
    result: str
    outcome: str = ""
    high: str = ""
    low: str = ""
    foul: bool = False


@dataclass(frozen=True)
class PaiGowCommission:
    """The house's commission on a box's win: ``percent`` of ``win`` cents, rounded to
    ``amount`` whole cents the rule data's way."""

    seat: int
    win: int
    percent: int
    amount: int


def load_hall_rules(house_way: str | None = None, wheel: str | None = None) -> PaiGowRules:
    """The rules with a hall's house way (by name) and where its A-2-3-4-5 ranks
    (``second`` or ``low``); ``None``, the rule data's own.

    >>> load_hall_rules(wheel="low").wheel
    'low'
    >>> load_hall_rules(wheel="first")
    Traceback (most recent call last):
    ...
    pelisali.engine.contract.IllegalMove: A-2-3-4-5 ranks second or low, not 'first'
    """
    rules = load_pai_gow(house_way)
    if wheel is None:
        return rules
    if wheel not in ("second", "low"):
        raise IllegalMove(f"A-2-3-4-5 ranks second or low, not {wheel!r}")
    return replace(rules, wheel=wheel)


class PaiGowEngine(BankedEngine):
    """Pai Gow Poker with its limits, where A-2-3-4-5 ranks, the commission and the house
    way (a hall's house way and wheel by name, as ``--set`` gives them: ``house_way``,
    ``wheel``).

    >>> PaiGowEngine.from_settings({"wheel": "low"}).rules.wheel
    'low'
    """

    family: ClassVar[str] = "pai-gow-poker"
    max_seats = 6  # 7 hands of 7 cards: 49 of the 53
    game_name = "Pai Gow Poker"
    spots = SPOTS
    setting_args: ClassVar[Settings] = {"house_way": table_name, "wheel": table_name}
    load_rules = staticmethod(load_hall_rules)
    rules: PaiGowRules

    def new_state(self, seats: Seats) -> PaiGowState:
        count = house_seats(self, seats)
        return PaiGowState(self, count, PAI_GOW_DECK, done=(False,) * count,
                           boxes=((),) * count, lows=(None,) * count)

    def spot(self, text: str) -> str:
        """The bet named ``text``; :class:`IllegalMove` if there is none such, in this
        game's own words (its bets are all placed before the deal, so the refusal names no
        time), or if it is the bank where the rules let no player bank."""
        key = text.strip().lower()
        offered = SPOTS if self.rules.player_banks else SPOTS[:1]
        if key not in offered:
            raise IllegalMove(f"Pai Gow Poker has no bet {text!r}; bets: {', '.join(offered)}")
        return key


@dataclass(frozen=True)
class PaiGowState(OneDeckRound):
    """A round: the bets, the cards left, each box's seven cards and its low hand once set
    (``lows``), the dealer's seven and, at the end, the dealer's setting, the settlements
    and the commissions. The bets, the deal from the 53 and the turns are those of every
    one-deck round; a box's decision is its setting, and the commissions come off its
    returns."""

    game: PaiGowEngine
    seats: int
    deck: tuple[str, ...]  # the cards not yet dealt, in deck order
    bets: tuple[PaiGowBet, ...] = ()
    done: tuple[bool, ...] = ()
    boxes: tuple[tuple[str, ...], ...] = ()
    lows: tuple[tuple[str, ...] | None, ...] = ()
    dealer: tuple[str, ...] = ()
    dealer_high: tuple[str, ...] = ()
    dealer_low: tuple[str, ...] = ()
    settlements: tuple[PaiGowSettlement, ...] = ()
    commissions: tuple[PaiGowCommission, ...] = ()
    history: tuple[Move, ...] = field(default=())
    bet_type = PaiGowBet
    actions_hint = "'bet ante CENTS', 'done', 'set CARD CARD' (the low hand) or 'house'"

    # -- who moves ---------------------------------------------------------------------
    def _next_card(self) -> int | str | None:
        """Where the next card goes: a box's seat, ``dealer``, or ``None``."""
        for seat in self._in_play():
            if len(self.boxes[seat]) < DEALT:
                return seat
        return "dealer" if len(self.dealer) < DEALT else None

    def _deciding(self) -> list[int]:
        """The boxes still to set their hands, in seat order."""
        return [s for s in self._in_play() if self.lows[s] is None]

    def high_of(self, seat: int) -> tuple[str, ...]:
        """The seat's high hand once set (its five cards not in the low hand)."""
        low = self.lows[seat] or ()
        return tuple(c for c in self.boxes[seat] if c not in low) if low else ()

    # -- what may happen ---------------------------------------------------------------
    def _decisions(self, seat: int) -> tuple[Action, ...]:
        return (SetHouseWay(), *(SetHand(low) for low in combinations(self.boxes[seat], LOW)))

    def parse_action(self, text: str) -> Action:
        """As every one-deck round reads it, but a box sets its hand instead of folding."""
        if text.split() == ["fold"]:
            raise IllegalMove(f"{text!r} is not an action here: {self.actions_hint}")
        return super().parse_action(text)

    def _parse_decision(self, words: list[str]) -> Action | None:
        if words in (["house"], ["house", "way"]):
            return SetHouseWay()
        if words and words[0] == "set":
            if len(words) == 1:
                raise IllegalMove("name the two cards of the low hand: 'set 7h 2c'")
            try:
                return SetHand(tuple(parse_pai_gow_card(w) for w in words[1:]))
            except CardError as exc:
                raise IllegalMove(str(exc)) from None
        return None

    def _check_action(self, action: Action) -> None:
        mover = self.to_move()
        if mover is None or mover == CHANCE:
            raise IllegalMove("no seat is to act")
        if isinstance(action, SetHand | SetHouseWay):
            if not all(self.done):
                raise IllegalMove("a box sets its hand once its cards are dealt; now: "
                                  "'bet ante CENTS' or 'done'")
            if isinstance(action, SetHand):
                self._check_setting(mover, action)
            return
        if all(self.done):
            raise IllegalMove("no more bets: 'set CARD CARD' (the low hand) or 'house'")
        self._check_bet(action)
        if isinstance(action, PlaceBet):
            spot = self.game.spot(action.spot)
            if any(b.seat == mover and b.spot != spot for b in self.bets):
                raise IllegalMove("a box bets against the bank or banks, not both")
            banker = next((b.seat for b in self.bets if b.spot == BANK), None)
            if banker is not None and banker != mover:
                raise IllegalMove(f"seat {banker} banks this round against the dealer's "
                                  "hand alone: no other box plays")
            if spot == BANK and any(b.seat != mover for b in self.bets):
                raise IllegalMove("a box banks against the dealer's hand alone: other "
                                  "boxes have bet this round")

    def _bets_open(self, seat: int) -> list[Action]:
        """Before the deal: the bet ``seat`` placed (more of it), or either bet, and
        ``done``; a bank only where no other box has bet, and nothing beside another
        box's bank (a box banks against the dealer's hand alone: the house plays that
        hand, so a second box would have no banker of its own)."""
        placed = {b.spot for b in self.bets if b.seat == seat}
        others = {b.spot for b in self.bets if b.seat != seat}
        offered = tuple(placed) or (SPOTS if self.game.rules.player_banks else SPOTS[:1])
        if BANK in others:
            offered = ()
        elif others:
            offered = tuple(s for s in offered if s != BANK)
        return [*self.betting_actions(seat, offered), EndBetting()]

    def _check_setting(self, seat: int, action: SetHand) -> None:
        low = action.low
        if not isinstance(low, tuple) or len(low) != LOW:
            raise IllegalMove(f"the low hand is {LOW} cards, not {len(low)}")
        if low[0] == low[1]:
            raise IllegalMove(f"{low[0]} is named twice; the low hand is two cards")
        hand = self.boxes[seat]
        for card in low:
            if card not in hand:
                raise IllegalMove(f"{card!s} is not in seat {seat}'s hand ({' '.join(hand)})")

    def _decide(self, mover: int, action: Action, history: tuple[Move, ...]) -> Step:
        if isinstance(action, SetHouseWay):
            rules = self.game.rules
            low = house_way(self.boxes[mover], rules.house_way, rules.wheel)[1]
            return self._set(mover, low, history, "by the house way")
        if isinstance(action, SetHand):
            return self._set(mover, action.low, history, "")
        raise IllegalMove(f"{action.text()!r} is not an action of Pai Gow Poker")

    def _set(self, seat: int, low: tuple[str, ...], history: tuple[Move, ...],
             how: str) -> Step:
        lows = tuple(low if i == seat else s for i, s in enumerate(self.lows))
        state = replace(self, lows=lows, history=history)
        high = state.high_of(seat)
        words = f" {how}" if how else ""
        events = [Event("set", f"seat {seat} sets its hand{words}", (seat,)),
                  Event("setting", f"seat {seat}: high {' '.join(high)}, low {' '.join(low)}",
                        (seat,), private=True)]
        if fouls(high, low, self.game.rules.wheel):
            events.append(Event("foul", f"seat {seat}'s two-card hand ranks as high as its "
                                        "five-card hand: the setting fouls and loses",
                                (seat,), private=True))
        return state._step(*events)

    # -- the showdown --------------------------------------------------------------------
    def _settle(self) -> tuple[PaiGowState, list[Event]]:
        """Each box's bets settled, each box's events followed by its commission's."""
        rules = self.game.rules
        high, low = house_way(self.dealer, rules.house_way, rules.wheel)
        events = [Event("dealer", f"dealer sets high {' '.join(high)} "
                                  f"({hand_name(high, rules.wheel).replace('_', ' ')}), "
                                  f"low {' '.join(low)}")]
        out: list[PaiGowSettlement] = []
        commissions: list[PaiGowCommission] = []
        for seat in self._in_play():
            shown = self._showdown(seat, high, low)
            banks = self._stake(seat, BANK) > 0
            copies = " (the bank's)" if banks and "copy" in (shown.high, shown.low) else ""
            how = ", fouled" if shown.foul else \
                f": high {shown.high}, low {shown.low}{copies}"
            if banks:
                events.append(Event("bank", f"the dealer plays its hand against seat {seat}'s "
                                            "bank", (seat,)))
            for bet in (b for b in self.bets if b.seat == seat):
                paid, _ = payout(bet.stake, shown.result, rules)
                out.append(PaiGowSettlement(bet.bet_id, seat, bet.spot, bet.stake, paid,
                                            shown.result + how, shown.result, shown.high,
                                            shown.low, shown.foul))
                events.append(Event("settled", f"bet {bet.bet_id} on {bet.spot}: "
                                               f"{shown.result}{how}, {format_cents(paid)} back",
                                    (seat,), private=True))
            if shown.result == "win":  # the commission on the box's whole win, once
                win = self._stake(seat, BANK if banks else "ante")
                amount = rules.commission(win)
                commissions.append(PaiGowCommission(seat, win, rules.commission_percent,
                                                    amount))
                events.append(Event("commission", f"seat {seat}: commission "
                                                  f"{format_cents(amount)}, "
                                                  f"{rules.commission_percent} % of the win "
                                                  f"{format_cents(win)} rounded "
                                                  f"{rules.commission_rounding} to the cent",
                                    (seat,), private=True))
        state = replace(self, dealer_high=high, dealer_low=low, settlements=tuple(out),
                        commissions=tuple(commissions))
        return state, events

    def _showdown(self, seat: int, dealer_high: tuple[str, ...],
                  dealer_low: tuple[str, ...]) -> Showdown:
        """The seat's setting against the dealer's: as a bet against the house's bank
        (copies the dealer's), or as a bank against the dealer's hand (copies the bank's:
        the dealer's hand is settled as a player's against it, and read back); a fouled
        bank loses."""
        rules = self.game.rules
        seat_high, seat_low = self.high_of(seat), self.lows[seat] or ()
        if not self._stake(seat, BANK):
            return settle(seat_high, seat_low, dealer_high, dealer_low, rules.wheel)
        if fouls(seat_high, seat_low, rules.wheel):
            return Showdown("lose", "dealer", "dealer", True)
        theirs = settle(dealer_high, dealer_low, seat_high, seat_low, rules.wheel)
        result = {"win": "lose", "lose": "win"}.get(theirs.result, theirs.result)
        return Showdown(result, _TAKEN_BY_BANK[theirs.high], _TAKEN_BY_BANK[theirs.low], False)

    # -- what a seat sees and what it came to -----------------------------------------
    def returns(self) -> tuple[int, ...]:
        """Each seat's stakes out, what its bets paid back in, its commission out (the
        house's, among its share of the accounts)."""
        out = list(super().returns())
        for commission in self.commissions:
            out[commission.seat] -= commission.amount
        return tuple(out)

    def view(self, seat: int | None) -> dict[str, Any]:
        """Public: who is to move, how many cards the dealer holds, which boxes have set,
        the total staked; at the end the dealer's setting and every box's, and the
        commissions. A seat also sees its own cards, its setting (and whether it fouls),
        the house way's setting of its cards while it is to set, its bets, settlements and
        commission."""
        mover = self.to_move()
        over = bool(self.settlements)
        wheel = self.game.rules.wheel
        out: dict[str, Any] = {
            "game": self.game.game_id,
            "to_move": "chance" if mover == CHANCE else mover,
            "dealer_cards": len(self.dealer),
            "dealer_high": list(self.dealer_high),
            "dealer_low": list(self.dealer_low),
            "dealer_hand": hand_name(self.dealer_high, wheel) if over else None,
            "set": [low is not None for low in self.lows],
            "on_table": sum(b.stake for b in self.bets),
            "commissions": sum(c.amount for c in self.commissions),
        }
        if over:
            out["boxes"] = {str(s): {"high": list(self.high_of(s)),
                                     "low": list(self.lows[s] or ())}
                            for s in self._in_play()}
        if seat is not None:
            cards = self.boxes[seat]
            low = self.lows[seat]
            high = self.high_of(seat)
            out["cards"] = list(cards)
            out["high"], out["low"] = list(high), list(low or ())
            out["high_hand"] = hand_name(high, wheel) if low else None
            out["foul"] = fouls(high, low, wheel) if low else None
            if mover == seat and all(self.done):
                suggested = house_way(cards, self.game.rules.house_way, wheel)
                out["house_way"] = {"high": list(suggested[0]), "low": list(suggested[1])}
            out.update(self._seat_view(seat))
            out["commission"] = sum(c.amount for c in self.commissions if c.seat == seat)
        return out

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The cards left; until the round is settled, the dealer's cards and the other
        boxes'."""
        hidden = set(self.deck)
        if not self.settlements:
            hidden |= set(self.dealer) | others_cards(self.boxes, seat)
        return frozenset(hidden)


def pai_gow_engines() -> dict[str, Game]:
    """Pai Gow Poker with the rule data's house way.

    >>> list(pai_gow_engines())
    ['pai-gow-poker']
    """
    return {"pai-gow-poker": PaiGowEngine()}
