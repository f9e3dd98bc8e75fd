"""Hypothesis state machine: through any sequence of legal actions, chips are conserved
(stacks + pots + fee + jackpot) and no card is dealt twice."""

from collections import Counter
from fractions import Fraction

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from pelisali.poker.dealing import ShuffledCards
from pelisali.poker.selfplay import VARIANTS, forced_bets
from pelisali.poker.table import PokerError, PokerHand
from pelisali.rng import SeededRng


class HandMachine(RuleBasedStateMachine):
    hand: PokerHand
    brought: int

    @initialize(game=st.sampled_from(sorted(VARIANTS)), players=st.integers(2, 7),
                stacks=st.lists(st.integers(3, 500), min_size=7, max_size=7),
                button=st.integers(0, 6), seed=st.integers(0, 2**32 - 1),
                fee=st.sampled_from([0, 5]), ante=st.sampled_from([0, 1]))
    def deal(self, game: str, players: int, stacks: list[int], button: int, seed: int,
             fee: int, ante: int) -> None:
        variant = VARIANTS[game]
        game_ante, bring_in = forced_bets(variant, 2)
        self.hand = PokerHand(variant, stacks[:players], button % players, 1, 2,
                              ShuffledCards(SeededRng(seed)), fee_percent=Fraction(fee, 100),
                              fee_cap=3 if fee else None, jackpot_drop=1, jackpot_min_players=3,
                              ante=max(ante, game_ante), bring_in=bring_in)
        self.brought = sum(stacks[:players])

    @precondition(lambda self: not self.hand.finished and not self.hand.discarding
                  and not self.hand.drawing)
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        legal = self.hand.legal()
        options: list[tuple[str, int | None]] = [
            ("check", None) if legal.check else ("call", None)]
        if legal.fold:
            options.append(("fold", None))
        if legal.raise_min is not None and legal.raise_max is not None:
            options.append(("raise", data.draw(st.integers(legal.raise_min, legal.raise_max))))
        self.hand.act(*data.draw(st.sampled_from(options)))

    @precondition(lambda self: not self.hand.finished and not self.hand.discarding
                  and not self.hand.drawing)
    @rule(data=st.data())
    def illegal(self, data: st.DataObject) -> None:
        """A refused action changes nothing."""
        before = (list(self.hand.stacks), list(self.hand.street_commit), self.hand.actor,
                  len(self.hand.log))
        legal = self.hand.legal()
        action, to = data.draw(st.sampled_from([
            ("raise", (legal.raise_max or 0) + 1), ("raise", 0),
            ("check", None) if not legal.check else ("fold", None), ("dance", None),
            ("bring-in", None)]))
        try:
            self.hand.act(action, to)
        except PokerError:
            after = (list(self.hand.stacks), list(self.hand.street_commit), self.hand.actor,
                     len(self.hand.log))
            assert after == before
        # (folding with nothing to call, or a raise that was legal after all, may pass)

    @precondition(lambda self: self.hand.finished)
    @rule(seed=st.integers(0, 2**32 - 1))
    def next_hand(self, seed: int) -> None:
        """The next hand with the chips the players have now (busted players leave)."""
        hand = self.hand
        stacks = [s for s in hand.stacks if s > 0]
        if len(stacks) < 2:
            stacks = [100, 100]
        ante, bring_in = forced_bets(hand.variant, 2)
        self.hand = PokerHand(hand.variant, stacks, 0, 1, 2, ShuffledCards(SeededRng(seed)),
                              jackpot_drop=1, jackpot_min_players=3, ante=ante, bring_in=bring_in)
        self.brought = sum(stacks)

    @precondition(lambda self: not self.hand.finished and self.hand.discarding)
    @rule(data=st.data())
    def discard(self, data: st.DataObject) -> None:
        seat = self.hand.actor
        assert seat is not None
        self.hand.discard(data.draw(st.sampled_from(self.hand.hole[seat])))

    @precondition(lambda self: not self.hand.finished and self.hand.drawing)
    @rule(data=st.data())
    def draw(self, data: st.DataObject) -> None:
        seat = self.hand.actor
        assert seat is not None
        held = list(self.hand.hole[seat])
        self.hand.draw(data.draw(st.lists(st.sampled_from(held), unique=True, max_size=5)))
        assert len(self.hand.hole[seat]) == 5

    @precondition(lambda self: not self.hand.finished and self.hand.drawing)
    @rule(data=st.data())
    def bad_draw(self, data: st.DataObject) -> None:
        """A draw of a card not held, or of one card twice, is refused and changes nothing."""
        seat = self.hand.actor
        assert seat is not None
        held = list(self.hand.hole[seat])
        stranger = next(c for c in ("2c", "3d", "4h", "5s", "6c", "7d") if c not in held)
        before = (list(self.hand.hole[seat]), len(self.hand.log), self.hand.cards.remaining)
        throw = data.draw(st.sampled_from([[stranger], [held[0], held[0]]]))
        try:
            self.hand.draw(throw)
        except PokerError:
            pass
        else:
            raise AssertionError(f"a draw of {throw} was accepted")
        assert (list(self.hand.hole[seat]), len(self.hand.log), self.hand.cards.remaining) == before

    @invariant()
    def chips_are_conserved(self) -> None:
        hand = self.hand
        on_table = sum(hand.total_commit) if not hand.finished else hand.fee
        assert sum(hand.stacks) + on_table == self.brought

    @invariant()
    def no_card_twice(self) -> None:
        hand = self.hand
        seen = Counter([c for h in hand.hole for c in h] + hand.board + hand.second_board)
        assert all(n == 1 for n in seen.values())
        assert len(set(hand.cards.shoe.cards)) == 52


TestHand = HandMachine.TestCase
# 100 hands of up to 60 steps: every invariant after each step of each.
TestHand.settings = settings(max_examples=100, stateful_step_count=60, deadline=None)
