"""Blackjack's rules as pure functions over card values (GGPoker live casino III).

Everything that decides a blackjack hand lives here, so the table engine,
the exact analysis and the strategy all follow one set of rules. A card's
value is 1 for an ace (counted 11 when that does not bust) and 10 for
T, J, Q, K.

>>> hand_total([1, 6])
(17, True)
>>> hand_total([1, 6, 10])
(17, False)
>>> dealer_must_draw([1, 6])   # soft 17: the dealer stands on all 17s
False
>>> is_blackjack([1, 10], from_split=True)
False
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from pelisali.money import Odds
from pelisali.rules import BlackjackRules, RuleDataError, load_rules

VALUES = tuple(range(1, 11))  # 1 = ace, 10 = ten-value card
RANK_VALUE = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10, **{str(n): n for n in range(2, 10)}}


def card_value(card: str) -> int:
    """The blackjack value of a card such as ``"Kd"`` (aces count 1 here)."""
    return RANK_VALUE[card[0]]


def hand_total(values: Sequence[int]) -> tuple[int, bool]:
    """Best total and whether it is soft (an ace counted as 11)."""
    total = sum(values)
    if 1 in values and total + 10 <= 21:
        return total + 10, True
    return total, False


def is_blackjack(values: Sequence[int], from_split: bool = False) -> bool:
    """An ace and a ten-value card as the first two cards; never after a split (2.7)."""
    return not from_split and len(values) == 2 and sorted(values) == [1, 10]


def dealer_must_draw(values: Sequence[int], hits_soft_17: bool = False) -> bool:
    """The dealer draws to 16 and stands on all 17s, soft or hard (III 1.2.3, 4.4.2); at a
    table whose rule set has the dealer hit a soft 17 (``hits_soft_17``), on that too.

    >>> dealer_must_draw([1, 6], hits_soft_17=True), dealer_must_draw([10, 7], True)
    (True, False)
    """
    total, soft = hand_total(values)
    return total < 17 or (hits_soft_17 and soft and total == 17)


def dealer_checks_hole_card(up_value: int) -> bool:
    """The hole card is looked at for blackjack only under an ace (III 3.7)."""
    return up_value == 1


@dataclass(frozen=True)
class BlackjackConfig:
    """A table's blackjack rules: the rule data's payouts with the table's settings."""

    decks: int = 8
    cut_cards_from_back: int = 208  # four decks of eight: half the shoe
    blackjack_pays: Odds = Odds(3, 2)
    insurance_pays: Odds = Odds(2, 1)
    double_after_split: bool = True
    split_aces_one_card: bool = True
    dealer_blackjack_takes_all: bool = True  # under a ten: doubles and splits lost too
    burn_after_shuffle: int = 1
    seats: int = 7
    decision_seconds: int = 15  # each decision and the insurance offer (RULINGS)
    dealer_hits_soft_17: bool = False  # GGPoker III 1.2.3: the dealer stands on all 17s
    double_on: str = "any"  # the first two cards a double takes: any, 9-11 or 10-11 (hard)

    @classmethod
    def from_settings(cls, settings: Mapping[str, str | bool] | None = None,
                      rules: BlackjackRules | None = None) -> BlackjackConfig:
        """Read settings (``--set`` values or the rule file's defaults)."""
        from pelisali.games.base import GameError, resolve_settings

        rules = rules or _rules()
        chosen = dict(settings or {})
        values = resolve_settings(rules, chosen, "blackjack")
        if values["rule_set"] != "ggpoker":  # a named rule set's values, but those chosen
            from pelisali.rules.banked import load_blackjack_rule_set

            preset = load_blackjack_rule_set(str(values["rule_set"]))
            values = resolve_settings(rules, {**preset, **chosen}, "blackjack")
        decks = int(str(values["decks"]))
        if "cut_decks_from_back" in chosen:
            cut_decks = int(str(values["cut_decks_from_back"]))
            if cut_decks >= decks:
                raise GameError(f"cut_decks_from_back must be under the {decks} decks of the "
                                "shoe, or the shoe would be shuffled after every hand")
            cut = 52 * cut_decks
        else:
            cut = 26 * decks  # the text's four decks of eight: half the shoe, whatever its size
        return cls(
            decks=decks,
            cut_cards_from_back=cut,
            blackjack_pays=Odds.parse(str(values["blackjack_pays"])),
            insurance_pays=Odds.parse(rules.payouts.insurance.odds),
            double_after_split=bool(values["double_after_split"]),
            split_aces_one_card=bool(values["split_aces_one_card"]),
            dealer_blackjack_takes_all=values["dealer_blackjack_under_ten"] == "takes_all",
            burn_after_shuffle=int(str(values["burn_after_shuffle"])),
            seats=rules.seats,
            decision_seconds=int(str(values["decision_seconds"])),
            dealer_hits_soft_17=values["dealer_soft_17"] == "hit",
            double_on=str(values["double_on"]),
        )

    def settings(self) -> dict[str, str | bool]:
        return {
            "decks": str(self.decks),
            "cut_cards_from_back": str(self.cut_cards_from_back),
            "blackjack_pays": str(self.blackjack_pays),
            "double_after_split": self.double_after_split,
            "split_aces_one_card": self.split_aces_one_card,
            "dealer_blackjack_under_ten": ("takes_all" if self.dealer_blackjack_takes_all
                                           else "original_only"),
            "burn_after_shuffle": str(self.burn_after_shuffle),
            "decision_seconds": str(self.decision_seconds),
            "dealer_soft_17": "hit" if self.dealer_hits_soft_17 else "stand",
            "double_on": self.double_on,
        }

    @property
    def blackjack_multiple(self) -> Fraction:
        """Total return per unit on a player blackjack (3:2 -> 5/2)."""
        return self.blackjack_pays.multiple


def _rules() -> BlackjackRules:
    rules = load_rules("blackjack")
    if not isinstance(rules, BlackjackRules):
        raise RuleDataError(f"the blackjack rule file holds {type(rules).__name__}")
    return rules


def can_double(values: Sequence[int], from_split: bool, split_aces: bool,
               config: BlackjackConfig) -> bool:
    """Double on any first two cards (III 2.6), or at a table whose rule set says so on a
    hard 9 to 11 (``9-11``) or 10 and 11 (``10-11``) only; after a split only if the table
    allows it."""
    if len(values) != 2:
        return False
    if from_split and (not config.double_after_split or
                       (split_aces and config.split_aces_one_card)):
        return False
    total, soft = hand_total(values)
    if config.double_on != "any":
        low, high = (int(n) for n in config.double_on.split("-"))
        return not soft and low <= total <= high
    return total < 21


def can_split(values: Sequence[int], hands_in_seat: int) -> bool:
    """Two cards of equal value, once: no resplit, aces included (III 2.7)."""
    return len(values) == 2 and values[0] == values[1] and hands_in_seat == 1


def can_hit(values: Sequence[int], from_split_aces: bool, config: BlackjackConfig) -> bool:
    """More cards while the total is under 21 (III 4.4.1); split aces take one card each."""
    if from_split_aces and config.split_aces_one_card and len(values) >= 2:
        return False
    return hand_total(values)[0] < 21


def settle_hand(player: Sequence[int], dealer: Sequence[int], from_split: bool) -> Fraction:
    """Return per unit of the hand's (possibly doubled) stake, blackjack payout aside.

    Returns 2 for a win, 1 for a push, 0 for a loss; a player blackjack is
    handled by the caller (it pays the table's blackjack odds).
    """
    p_total, _ = hand_total(player)
    d_total, _ = hand_total(dealer)
    player_bj = is_blackjack(player, from_split)
    dealer_bj = is_blackjack(dealer)
    if p_total > 21:
        return Fraction(0)  # a bust loses even if the dealer busts (2.2)
    if dealer_bj:
        return Fraction(1) if player_bj else Fraction(0)
    if d_total > 21 or p_total > d_total:
        return Fraction(2)
    if p_total == d_total:
        return Fraction(1)
    return Fraction(0)
