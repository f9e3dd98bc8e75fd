"""Punto banco (baccarat) by the GGPoker live-casino rules, with RULINGS' third-card table.

The deal order and every drawing decision come from :func:`next_card`, which
play, the exact enumeration and the simulation all follow.

>>> next_card((), ())
'player'
>>> next_card((3, 2), (7, 0))     # player 5 draws
'player'
>>> next_card((3, 2, 8), (1, 2))  # banker 3 stands on a player's third card 8
>>> winner((9, 0), (4, 4))
'player'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, Literal

from pelisali.cards import Shoe, parse_card
from pelisali.games.base import GameError, resolve_settings
from pelisali.games.round import Limits, Receipt, RoundError, Settlement
from pelisali.money import Odds, format_cents, pay_exact
from pelisali.rng import Rng
from pelisali.rules import PuntoBancoRules, RuleDataError, load_rules

Side = Literal["player", "banker"]
BETS = ("player", "banker", "tie")
BACCARAT_VALUE = {"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0, **{str(n): n for n in range(2, 10)}}


def card_points(card: str) -> int:
    """Baccarat value of a card: ace 1, 2-9 face value, ten and faces 0 (GGPoker I 1.3.2)."""
    return BACCARAT_VALUE[card[0]]


def points(values: Sequence[int]) -> int:
    """A hand's points: the last digit of its total (GGPoker I 1.1)."""
    return sum(values) % 10


@cache
def player_draws(player_points: int) -> bool:
    """The player draws on 0-5 and stands on 6-7 (RULINGS Punto banco)."""
    return player_points <= 5


@cache
def banker_draws(banker_points: int, player_third: int | None) -> bool:
    """The banker's rule; ``player_third`` is None when the player stood (RULINGS)."""
    if player_third is None:
        return banker_points <= 5
    if banker_points <= 2:
        return True
    if banker_points == 3:
        return player_third != 8
    if banker_points == 4:
        return 2 <= player_third <= 7
    if banker_points == 5:
        return 4 <= player_third <= 7
    if banker_points == 6:
        return player_third in (6, 7)
    return False  # 7 stands


def next_card(player: Sequence[int], banker: Sequence[int]) -> Side | None:
    """Who gets the next card, or None when the hand is complete.

    First player, banker, player, banker (GGPoker I 3.4.3); a natural 8 or 9
    on either side ends the hand; then the third-card rules.
    """
    in_player, in_banker = len(player), len(banker)
    if in_player + in_banker < 4:
        return "player" if in_player == in_banker else "banker"
    p = (player[0] + player[1]) % 10
    b = (banker[0] + banker[1]) % 10
    if p >= 8 or b >= 8:
        return None
    if in_banker == 2:
        if in_player == 2:
            if player_draws(p):
                return "player"
            return "banker" if banker_draws(b, None) else None
        return "banker" if banker_draws(b, player[2]) else None
    return None


def winner(player: Sequence[int], banker: Sequence[int]) -> str:
    p, b = sum(player) % 10, sum(banker) % 10
    return "player" if p > b else "banker" if b > p else "tie"


@dataclass(frozen=True)
class PuntoBancoConfig:
    decks: int = 8
    cut_cards_from_back: int = 7
    burn_first_card_value: bool = True
    player_pays: Odds = Odds(1)
    banker_pays: Odds = Odds(1)
    tie_pays: Odds = Odds(8)
    commission_percent: int = 5

    @classmethod
    def from_settings(cls, settings: Mapping[str, str | bool] | None = None) -> PuntoBancoConfig:
        rules = load_rules("punto-banco")
        if not isinstance(rules, PuntoBancoRules):
            raise RuleDataError(f"the punto-banco rule file holds {type(rules).__name__}")
        values = resolve_settings(rules, settings, "punto banco")
        return cls(
            decks=int(str(values["decks"])),
            cut_cards_from_back=int(str(values["cut_cards_from_back"])),
            burn_first_card_value=values["burn_after_shuffle"] == "first_card_value",
            player_pays=Odds.parse(rules.payouts.player.odds),
            banker_pays=Odds.parse(rules.payouts.banker.odds),
            tie_pays=Odds.parse(rules.payouts.tie.odds),
            commission_percent=rules.payouts.commission.percent,
        )

    def settings(self) -> dict[str, str | bool]:
        return {"decks": str(self.decks), "cut_cards_from_back": str(self.cut_cards_from_back),
                "burn_after_shuffle": ("first_card_value" if self.burn_first_card_value
                                       else "none")}

    def bet_return(self, bet: str, result: str, stake: int) -> tuple[Fraction, str]:
        """Exact total returned to a bet on ``result``, and what happened to it."""
        if bet == "tie":
            return ((self.tie_pays.total_return_exact(stake), "win") if result == "tie"
                    else (Fraction(0), "lose"))
        if result == "tie":
            return Fraction(stake), "push"  # player and banker bets are returned on a tie
        if bet != result:
            return Fraction(0), "lose"
        if bet == "player":
            return self.player_pays.total_return_exact(stake), "win"
        win = self.banker_pays.total_return_exact(stake) - stake
        commission = win * Fraction(self.commission_percent, 100)
        return stake + win - commission, "win"


@dataclass
class Coup:
    """One hand of punto banco: the cards as dealt, in order."""

    cards: list[tuple[Side, str]] = field(default_factory=list)

    @property
    def player(self) -> list[int]:
        return [card_points(c) for side, c in self.cards if side == "player"]

    @property
    def banker(self) -> list[int]:
        return [card_points(c) for side, c in self.cards if side == "banker"]

    def complete(self) -> bool:
        return next_card(self.player, self.banker) is None

    def add(self, card: str) -> Side:
        side = next_card(self.player, self.banker)
        if side is None:
            raise RoundError("the hand is complete; no more cards")
        self.cards.append((side, card))
        return side

    def describe(self) -> str:
        p = " ".join(c for s, c in self.cards if s == "player")
        b = " ".join(c for s, c in self.cards if s == "banker")
        return (f"player {p} ({points(self.player)}), banker {b} ({points(self.banker)}): "
                f"{winner(self.player, self.banker)}")


@dataclass
class PuntoBancoTable:
    """A punto banco table: shoe, rounds and in-memory balances (no credit)."""

    rng: Rng
    config: PuntoBancoConfig = field(default_factory=PuntoBancoConfig)
    limits: Limits | None = None
    table_id: str = "PB1"
    balances: dict[str, int] = field(default_factory=dict)
    brought: int = 0
    house_result: int = 0
    house_rounding: Fraction = Fraction(0)
    history: list[dict[str, Any]] = field(default_factory=list)
    keep_history: bool = True  # simulations turn the per-round record off
    shuffle_log: list[dict[str, Any]] = field(default_factory=list)
    bets: list[tuple[int, str, str, int]] = field(default_factory=list)
    rounds_played: int = 0
    shoe: Shoe = field(init=False)
    last_hand: bool = False
    venue: str = ""
    clock: Callable[[], str] | None = None  # date and time for round records
    _next_bet: int = 1

    def __post_init__(self) -> None:
        if self.limits is None:
            rules = load_rules("punto-banco")
            self.limits = Limits(rules.limits.min, rules.limits.max)
        # The largest burn is eleven cards; a few hands must fit before the cut card.
        if self.config.cut_cards_from_back > 52 * self.config.decks - 30:
            raise GameError(f"cut_cards_from_back {self.config.cut_cards_from_back} leaves too "
                            f"few cards of {52 * self.config.decks} to deal before the shuffle")
        self.shoe = Shoe(self.config.decks, self.config.cut_cards_from_back)
        self._shuffle()

    def _shuffle(self) -> None:
        """Shuffle, cut seven from the back, burn; the whole order goes into the log."""
        self.shoe.shuffle(self.rng)
        if self.config.burn_first_card_value:
            first = self.shoe.burn(1)[0]
            value = card_points(first) or 10  # a ten-value card burns ten
            self.shoe.burn(value)
        if self.keep_history:
            self.shuffle_log.append({**self.shoe.record(), "burned": list(self.shoe.burned)})
        self.last_hand = False

    def sit(self, player: str, balance: int) -> None:
        if player in self.balances:
            raise GameError(f"{player} is already at the table")
        self.balances[player] = balance
        self.brought += balance

    def place(self, player: str, bet: str, stake: int) -> Receipt:
        if player not in self.balances:
            raise GameError(f"{player} is not seated at this table")
        if bet not in BETS:
            raise RoundError(f"punto banco has no bet {bet!r}; bets: {', '.join(BETS)}")
        if isinstance(stake, bool) or not isinstance(stake, int) or stake <= 0:
            raise RoundError(f"a stake must be a positive number of cents, not {stake!r}")
        if self.limits is None:
            raise RuntimeError("__post_init__ sets the limits")
        # The limits hold for a player's whole stake on a bet (RAY 1.1, GGPoker I 2.1.7).
        already = sum(s for _i, p, b, s in self.bets if p == player and b == bet)
        accepted, returned = self.limits.accept(stake, already, bet)
        if accepted > self.balances[player]:
            raise RoundError(f"{player}: balance {format_cents(self.balances[player])}; "
                             "chips are not sold on credit")
        bet_id = self._next_bet
        self._next_bet += 1
        self.bets.append((bet_id, player, bet, accepted))
        self.balances[player] -= accepted
        message = f"{format_cents(accepted)} on {bet}" + (
            f": {format_cents(returned)} over the table maximum is void and returned"
            if returned else "")
        return Receipt(bet_id, accepted, returned, message)

    def void(self, reason: str) -> None:
        """A system malfunction voids the round before the deal: every bet goes back
        (GGPoker I 2.1.8)."""
        for _bet_id, player, _bet, stake in self.bets:
            self.balances[player] += stake
        if self.keep_history:
            self.history.append({"round_id": f"{self.table_id}-void-{len(self.history) + 1}",
                                 "game": "punto-banco", "void_reason": reason,
                                 "bets": [{"bet_id": i, "player": p, "bet": b, "stake": s}
                                          for i, p, b, s in self.bets]})
        self.bets = []

    def withdraw(self, player: str, bet_id: int) -> None:
        for bet in self.bets:
            if bet[0] == bet_id and bet[1] == player:
                self.bets.remove(bet)
                self.balances[player] += bet[3]
                return
        raise RoundError(f"{player} has no bet {bet_id} on the table")

    @property
    def on_table(self) -> int:
        return sum(b[3] for b in self.bets)

    def deal(self, stacked: Sequence[str] | None = None) -> tuple[Coup, list[Settlement]]:
        """No more bets; deal one hand from the shoe (or a dealer's entered cards) and settle."""
        if not self.bets:
            raise RoundError("no bets on the table")
        self.rounds_played += 1
        self.last_hand = False
        coup = Coup()
        start = self.shoe.position
        entered = [parse_card(c) for c in stacked] if stacked is not None else None
        while not coup.complete():
            if entered is not None:
                if not entered:
                    raise RoundError("the entered cards end before the hand is complete")
                coup.add(entered.pop(0))
            else:
                coup.add(self.shoe.deal_one())
        if entered:
            raise RoundError(f"{len(entered)} entered card(s) left over: the hand was complete")
        result = winner(coup.player, coup.banker)
        settlements = []
        for bet_id, player, bet, stake in self.bets:
            exact, outcome = self.config.bet_return(bet, result, stake)
            paid, rounding = pay_exact(exact)
            self.balances[player] += paid
            self.house_result += stake - paid
            self.house_rounding += rounding
            settlements.append(Settlement(bet_id, player, bet, stake, paid, rounding, outcome))
        cut_out = stacked is None and self.shoe.cut_card_out
        if self.keep_history:
            self.history.append({
                "round_id": f"{self.table_id}-{self.rounds_played}",
                "venue": self.venue,
                "table": self.table_id,
                "opened_at": self.clock() if self.clock else None,
                "game": "punto-banco",
                "settings": self.config.settings(),
                "limits": {"min": self.limits.minimum, "max": self.limits.maximum}
                if self.limits else {},
                "shuffle": self.shoe.shuffles,
                "shoe_positions": [start, self.shoe.position] if stacked is None else None,
                "bets": [{"bet_id": i, "player": p, "bet": b, "stake": s}
                         for i, p, b, s in self.bets],
                "cards": [[side, card] for side, card in coup.cards],
                "result": result,
                "last_hand_before_shuffle": cut_out,
                "shuffle_order": self.shoe.record()["order"] if stacked is None else None,
                "burned": list(self.shoe.burned) if stacked is None else None,
                "settlements": [s.to_json() for s in settlements],
            })
        self.bets = []
        if cut_out:  # the cut card came out: this was the last hand before the shuffle
            self._shuffle()
            self.last_hand = True
        return coup, settlements

    def check_conservation(self) -> None:
        total = sum(self.balances.values()) + self.house_result + self.on_table
        if total != self.brought:
            raise AssertionError(f"money not conserved: {total} != {self.brought}")


def replay_coup(record: Mapping[str, Any]) -> list[Settlement]:
    """Re-settle a recorded punto banco round from its cards."""
    config = PuntoBancoConfig.from_settings(record["settings"])
    coup = Coup()
    for side, card in record["cards"]:
        if coup.add(card) != side:
            raise RoundError("the recorded cards do not follow the drawing rules")
    if not coup.complete():
        raise RoundError("the recorded hand is not complete")
    result = winner(coup.player, coup.banker)
    out = []
    for bet in record["bets"]:
        exact, outcome = config.bet_return(bet["bet"], result, bet["stake"])
        paid, rounding = pay_exact(exact)
        out.append(Settlement(bet["bet_id"], bet["player"], bet["bet"], bet["stake"], paid,
                              rounding, outcome))
    return out
