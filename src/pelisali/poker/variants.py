"""The poker games as parameters over the one hand engine, built from their rule data.

A :class:`PokerVariant` is what the hand engine reads: the deal, the hand
making, the betting structure and raise cap, and the seat limit. The games'
own variants come from ``rules/data/poker/*.toml`` (:mod:`pelisali.rules.poker`),
where every number cites its section; nothing here repeats a number of them.
PokerKit's PHH codes are not rules, so they stay here.

>>> HOLDEM_NL.hole_cards, HOLDEM_NL.structure, HOLDEM_NL.phh_code, HOLDEM_NL.max_seats
(2, 'no-limit', 'NT', 12)
>>> OMAHA5_PL.max_seats, DRAW_LIMIT.max_seats, STUD_LIMIT.stud_streets[0]
(9, 10, (2, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from pelisali.rules.poker import POKER_GAME_IDS, PokerGameRules, load_poker_rules

Structure = Literal["limit", "pot-limit", "no-limit"]
Kind = Literal["board", "stud", "draw"]


class PokerError(ValueError):
    """An action the rules refuse; nothing was changed."""


@dataclass(frozen=True)
class PokerVariant:
    """A game as parameters: hole cards, boards, hand making, betting, seats."""

    name: str
    hole_cards: int
    board_streets: tuple[int, ...]  # cards dealt to the board before each betting round
    exactly_two: bool
    structure: Structure
    raise_cap: int = 4  # limit: a bet and three raises a round (table setting)
    phh_code: str | None = None  # PokerKit's variant code, where it has one
    discard_after: tuple[int, ...] = ()  # betting rounds after which each player discards one
    boards: int = 1  # Double Flop Hold'em: two boards, half the pot on each
    kind: Kind = "board"
    stud_streets: tuple[tuple[int, int], ...] = ()  # stud: (down, up) cards a street
    draws: int = 0  # draw games: draws, each after a betting round
    openers: bool = False  # draw: jacks or better to open, antes only (RULINGS)
    high: str | None = "high"  # the ranking of the high hand, None in a low game
    low: str | None = None  # the ranking of the low hand (low and high/low games)
    showing_ties: Literal["position", "suit"] = "position"  # stud: equal showing hands
    max_seats: int = 12  # RAY 2016 1.4.1.1.1: at most twelve; fewer where one deck serves fewer
    seats_reason: str = "RAY 2016 1.4.1.1.1"
    # The bad beat's criteria (RULINGS: they vary by game): how many hole cards the
    # qualifying hand must use, and whether each board is judged on its own.
    bad_beat_hole_cards: int = 0
    bad_beat_per_board: bool = False

    def __post_init__(self) -> None:
        if self.high is None and self.low is None:
            raise PokerError("a game needs a high or a low hand")
        if self.high is None and self.low is not None and self.low.endswith("-8"):
            raise PokerError("a qualifier for the low needs a high half to go to")
        if self.kind == "draw" and not 1 <= self.draws <= 3:
            raise PokerError("Five Card Draw has one, two or three draws (RAY 2015 1.4.1.1.12)")
        if not 2 <= self.max_seats <= 12:
            raise PokerError("a table seats 2 to 12 players (RAY 1.4.1.1.1)")

    @cached_property  # a frozen game's: worked out once, asked every action
    def rounds(self) -> int:
        """Betting rounds in a hand."""
        if self.kind == "stud":
            return len(self.stud_streets)
        if self.kind == "draw":
            return self.draws + 1
        return len(self.board_streets)

    @cached_property
    def big_bet_from(self) -> int:
        """Limit: the first betting round at the big bet (the turn, stud's fifth street,
        the round after a single draw, after the second of two or three draws)."""
        return min(2, self.rounds - 1)

    @property
    def split(self) -> bool:
        """High/low: half the pot to the best hand, half to the best low."""
        return self.high is not None and self.low is not None


# PokerKit's codes for the games it plays (PHH): (game, structure, high, low) -> code.
PHH_CODES = {
    ("holdem", "no-limit", "high", None): "NT",
    ("holdem", "limit", "high", None): "FT",
    ("omaha", "pot-limit", "high", None): "PO",
    ("omaha", "limit", "high", "low-a5-8"): "FO/8",
    ("stud", "limit", "high", None): "F7S",
    ("stud", "limit", "high", "low-a5-8"): "F7S/8",
    ("razz", "limit", None, "low-a5"): "FR",
    ("lowball", "no-limit", None, "low-27"): "N2L1D",
    ("triple-draw", "limit", None, "low-27"): "F2L3D",
}


def variant_from_rules(rules: PokerGameRules, structure: Structure | None = None
                       ) -> PokerVariant:
    """The engine's parameters for a game's rule data, at its usual structure or another."""
    chosen: Structure = structure or rules.betting.structure
    deal, hand = rules.deal, rules.hand
    return PokerVariant(
        rules.game, deal.hole_cards, deal.board_streets, hand.exactly_two, chosen,
        raise_cap=rules.betting.raise_cap,
        phh_code=PHH_CODES.get((rules.game, chosen, hand.high, hand.low)),
        discard_after=deal.discard_after, boards=deal.boards, kind=deal.kind,
        stud_streets=deal.stud_streets, draws=deal.draws, high=hand.high, low=hand.low,
        max_seats=rules.seats.max, seats_reason=rules.seats.section,
        bad_beat_hole_cards=rules.bad_beat.hole_cards_playing,
        bad_beat_per_board=rules.bad_beat.per_board)


def game_variant(game: str, structure: Structure | None = None) -> PokerVariant:
    """A game of ``rules/data/poker`` by id, at its usual structure or ``structure``."""
    return variant_from_rules(load_poker_rules(game), structure)


# The games at their usual structures (and the other structures the tests and commands name).
GAME_VARIANTS: dict[str, PokerVariant] = {game: game_variant(game) for game in POKER_GAME_IDS}
HOLDEM_NL = GAME_VARIANTS["holdem"]
HOLDEM_LIMIT = game_variant("holdem", "limit")
HOLDEM_PL = game_variant("holdem", "pot-limit")
OMAHA_PL = GAME_VARIANTS["omaha"]
OMAHA_NL = game_variant("omaha", "no-limit")
OMAHA5_PL = GAME_VARIANTS["omaha-5"]
COURCHEVEL_PL = GAME_VARIANTS["courchevel"]
PINEAPPLE_NL = GAME_VARIANTS["pineapple"]
CRAZY_PINEAPPLE_NL = GAME_VARIANTS["crazy-pineapple"]
HELSINKI_NL = GAME_VARIANTS["helsinki"]
DOUBLE_FLOP_NL = GAME_VARIANTS["double-flop"]
STUD_LIMIT = GAME_VARIANTS["stud"]
RAZZ_LIMIT = GAME_VARIANTS["razz"]
SOKO_LIMIT = GAME_VARIANTS["soko"]
DRAW_LIMIT = GAME_VARIANTS["draw"]
LOWBALL_NL = GAME_VARIANTS["lowball"]
TRIPLE_DRAW_LIMIT = GAME_VARIANTS["triple-draw"]

