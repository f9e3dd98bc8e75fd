"""A table: rounds one after another, players' balances, standing and imprisoned bets.

This is the reference model of a wager table, in memory: no table of the
platform or the terminal plays it; the property tests run on it and the wager
engine is checked against its rounds (``tests/test_engine_wager.py``). A
stake is taken from the balance when the bet is accepted (no credit) and the
settlement paid back into it, so the balances, the house result and the
stakes still on the table always add up to what was brought to the table.

>>> from pelisali.games import make_game
>>> from pelisali.rng import SeededRng
>>> table = Table(make_game("money-wheel"), SeededRng(3))
>>> table.sit("ann", 10_000)
>>> _ = table.place("ann", "1", 1_000)
>>> table.balances["ann"]
9000
>>> _ = table.spin()
>>> table.balances["ann"] + table.house_result + table.on_table == 10_000
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pelisali.games.base import Draw, GameError, Outcome, WagerGame
from pelisali.games.dice import ShooterRotation
from pelisali.games.round import Bet, Limits, Receipt, Round, RoundError, Settlement, Status
from pelisali.money import format_cents
from pelisali.rng import Rng


@dataclass
class Table:
    game: WagerGame
    rng: Rng
    limits: Limits | None = None
    table_id: str = "T1"
    invalid_throw_rate: Fraction = Fraction(0)  # shooter method: share of throws the dealer rejects
    balances: dict[str, int] = field(default_factory=dict)
    brought: int = 0
    house_result: int = 0
    house_rounding: Fraction = Fraction(0)
    standing: list[Bet] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    round: Round | None = None
    shooter_rotation: ShooterRotation | None = None
    rounds_played: int = 0
    venue: str = ""
    clock: Callable[[], str] | None = None  # the date and time for round records

    def __post_init__(self) -> None:
        if not 0 <= self.invalid_throw_rate < 1:
            raise GameError("the share of rejected throws must be at least 0 and below 1")
        if self.game.settings.get("drawing") == "shooter":
            self.shooter_rotation = ShooterRotation([])

    # -- players and money -------------------------------------------------------
    def sit(self, player: str, balance: int) -> None:
        if player in self.balances:
            raise GameError(f"{player} is already at the table")
        if balance < 0:
            raise GameError("a balance cannot be negative")
        self.balances[player] = balance
        self.brought += balance
        if self.shooter_rotation is not None:
            self.shooter_rotation.seats.append(player)

    @property
    def on_table(self) -> int:
        """Stakes taken but not yet decided (the open round's bets and standing bets)."""
        rnd = self.round
        is_open = rnd is not None and rnd.status not in (Status.SETTLED, Status.VOID)
        open_bets = rnd.bets if rnd is not None and is_open else []
        # Standing bets move into the next round when it opens, so nothing counts twice.
        return sum(b.stake for b in open_bets) + sum(b.stake for b in self.standing)

    def current(self) -> Round:
        if self.round is None or self.round.status in (Status.SETTLED, Status.VOID):
            self.rounds_played += 1
            self.round = Round(self.game, f"{self.table_id}-{self.rounds_played}", self.limits,
                               carried=self.standing, venue=self.venue, table_id=self.table_id,
                               opened_at=self.clock() if self.clock else None)
            self.standing = []
        return self.round

    # -- betting -------------------------------------------------------------------
    def place(self, player: str, spot: str, stake: int) -> Receipt:
        """Place a bet, taking the accepted stake from the balance; refusals change nothing."""
        if player not in self.balances:
            raise GameError(f"{player} is not seated at this table")
        rnd = self.current()
        _spot, accepted, _returned, _message = rnd.check(spot, stake, player)
        if accepted > self.balances[player]:
            raise RoundError(f"{player}: balance {format_cents(self.balances[player])}; "
                             f"chips are not sold on credit")
        receipt = rnd.place(player, spot, stake)
        self.balances[player] -= receipt.accepted
        return receipt

    def withdraw(self, player: str, bet_id: int) -> None:
        rnd = self.current()
        bet = next((b for b in rnd.bets if b.bet_id == bet_id), None)
        if bet is None or bet.player != player:
            raise RoundError(f"{player} has no bet {bet_id} in this round")
        rnd.withdraw(bet_id)
        self.balances[player] += bet.stake

    # -- the draw ------------------------------------------------------------------
    def spin(self) -> Outcome:
        """No more bets, then the draw; settles at once unless a player must choose."""
        rnd = self.current()
        if not rnd.bets:
            raise RoundError("no bets on the table")
        if rnd.status is Status.BETTING:
            rnd.close()
        if self.shooter_rotation is not None:
            outcome = self._shooter_throw(rnd)
        else:
            outcome = rnd.draw(self.rng)
        if rnd.status is Status.DRAWN:
            self.settle()
        return outcome

    def _shooter_throw(self, rnd: Round) -> Outcome:
        if self.shooter_rotation is None:
            raise RuntimeError("only a table with a shooter rotation has a shooter throw")
        shooter = self.shooter_rotation.shooter({b.player for b in rnd.bets})
        rnd.events.append(f"{shooter} throws")
        while True:
            draws = self.game.draw(self.rng)
            if self.invalid_throw_rate and self._chance(self.invalid_throw_rate):
                reason = ("a die left the throwing area", "the dice landed stacked",
                          "a die landed cocked")[self.rng.randbelow(3)]
                rnd.reject_draw(draws, reason)
                continue
            outcome = rnd.apply_draws(draws)
            self.shooter_rotation.after_throw(sum(int(x) for x in outcome))
            return outcome

    def _chance(self, p: Fraction) -> bool:
        return self.rng.randbelow(p.denominator) < p.numerator

    def pass_dice(self, player: str) -> None:
        """The shooter passes the dice to the next player (Tuplanoppa method B)."""
        if self.shooter_rotation is None:
            raise GameError("this table's dice are drawn by the dealer")
        rnd = self.current()
        in_round = {b.player for b in rnd.bets} or set(self.balances)
        if self.shooter_rotation.shooter(in_round) != player:
            raise RoundError(f"{player} does not hold the dice")
        self.shooter_rotation.pass_dice()

    def apply_draws(self, draws: list[Draw]) -> Outcome:
        """A live dealer's result entered by hand."""
        rnd = self.current()
        if rnd.status is Status.BETTING:
            rnd.close()
        outcome = rnd.apply_draws(draws)
        if rnd.status is Status.DRAWN:
            self.settle()
        return outcome

    def decide(self, player: str, bet_id: int, option: str) -> None:
        rnd = self.current()
        bet = next((b for b in rnd.bets if b.bet_id == bet_id), None)
        if bet is None or bet.player != player:
            raise RoundError(f"{player} has no bet {bet_id} in this round")
        rnd.decide(bet_id, option)
        if rnd.status is Status.DRAWN:
            self.settle()

    def settle(self) -> list[Settlement]:
        rnd = self.current()
        settlements = rnd.settle()
        for s in settlements:
            bet = next(b for b in rnd.bets if b.bet_id == s.bet_id)
            if s.held_level:
                self.standing.append(Bet(0, bet.player, bet.spot, bet.stake, s.held_level))
                continue
            self.balances[s.player] += s.paid
            self.house_result += s.stake - s.paid
            self.house_rounding += s.rounding
        self.history.append(rnd.record())
        return settlements

    def void(self, reason: str, keep_bets: bool = True) -> list[Bet]:
        """Void the open round: nothing paid; bets stand for the next round or go back.

        Imprisoned bets always stay in prison.
        """
        rnd = self.current()
        respin = self.game.rules.void_rule == "respin"
        if respin and not keep_bets:
            raise RoundError("a void spin is spun again with the bets standing (RAY 1.2.3)")
        bets = rnd.void(reason)
        for bet in bets:
            if keep_bets or bet.level:
                self.standing.append(Bet(0, bet.player, bet.spot, bet.stake, bet.level,
                                         carried=bet.carried))
            else:
                self.balances[bet.player] += bet.stake
        self.history.append(rnd.record())
        if respin:  # the next spin takes the same bets; nothing may be added or removed
            self.current().close()
        return bets

    def check_conservation(self) -> None:
        """Balances + house result + stakes on the table = what was brought (exactly)."""
        total = sum(self.balances.values()) + self.house_result + self.on_table
        if total != self.brought:
            raise AssertionError(f"money not conserved: {total} != {self.brought}")
