"""The poker games of RAY 1.4.1.1 as rule data: one TOML file a game in ``data/poker/``.

Each file gives the deal (hole cards, board streets, stud streets, draws,
discards), the hand making (the high ranking, the low, exactly two hole cards),
the usual betting structure and the raise cap, the forced bets, the seat limits
and the bad beat criteria, every part with the section it comes from.

>>> rules = load_poker_rules("omaha")
>>> rules.deal.hole_cards, rules.hand.exactly_two, rules.betting.structure
(4, True, 'pot-limit')
>>> rules.bad_beat.qualifying, rules.bad_beat.hole_cards_playing
('four_of_a_kind', 2)
>>> load_poker_rules("razz").forced_bets.ante_of(4)
1
>>> poker_game_ids()[:3]
('holdem', 'pineapple', 'crazy-pineapple')
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Literal, get_args

from pydantic import Field, ValidationError, field_validator, model_validator

from pelisali.rules.base import Names, Section, Strict
from pelisali.rules.loader import RuleDataError, data_dir, read_toml

# The order the commands list the games in.
POKER_GAME_IDS = ("holdem", "pineapple", "crazy-pineapple", "helsinki", "omaha", "omaha-5",
                  "courchevel", "double-flop", "stud", "razz", "soko", "draw", "lowball",
                  "triple-draw")
HandCategory = Literal["none", "high_card", "pair", "two_pair", "three_of_a_kind", "straight",
                       "flush", "full_house", "four_of_a_kind", "straight_flush"]
HAND_CATEGORIES: tuple[str, ...] = get_args(HandCategory)


class PokerDeal(Strict):
    """How the cards come: to the board before each betting round, or stud streets of
    (down, up) cards, or draws between betting rounds; discards after betting rounds."""

    kind: Literal["board", "stud", "draw"]
    hole_cards: int = Field(ge=2, le=7)
    board_streets: tuple[int, ...] = ()
    boards: int = Field(default=1, ge=1, le=2)
    discard_after: tuple[int, ...] = ()
    stud_streets: tuple[tuple[int, int], ...] = ()
    draws: int = Field(default=0, ge=0, le=3)
    section: Section

    @model_validator(mode="after")
    def _fits_the_kind(self) -> PokerDeal:
        if self.kind == "board" and not self.board_streets:
            raise ValueError("a board game deals board streets")
        if self.kind == "stud":
            if not self.stud_streets:
                raise ValueError("a stud game deals stud streets")
            if sum(down + up for down, up in self.stud_streets) != self.hole_cards:
                raise ValueError("the stud streets deal the hole cards")
        if self.kind == "draw" and not 1 <= self.draws <= 3:
            raise ValueError("Five Card Draw has one, two or three draws")
        return self


class PokerHandMaking(Strict):
    """The high ranking (absent in a low game), the low ranking (a low game's), the
    ranking of the game's low and high/low versions, and Omaha's two hole cards."""

    high: Literal["high", "soko"] | None = None
    low: Literal["low-a5", "low-27"] | None = None
    low_version: Literal["low-27", "low-a5", "low-soko"]
    exactly_two: bool = False
    section: Section

    @model_validator(mode="after")
    def _has_a_hand(self) -> PokerHandMaking:
        if self.high is None and self.low is None:
            raise ValueError("a game needs a high or a low hand")
        return self


class PokerBetting(Strict):
    structure: Literal["limit", "pot-limit", "no-limit"]
    raise_cap: int = Field(ge=2)
    section: Section


class PokerForcedBets(Strict):
    """Blinds, or antes and a bring-in as fractions of the small bet (at least one chip)."""

    blinds: bool
    ante: str
    bring_in: str
    openers_ante: str = "0"  # Five Card Draw with jacks or better to open: antes alone
    section: Section

    @field_validator("ante", "bring_in", "openers_ante")
    @classmethod
    def _a_fraction(cls, value: str) -> str:
        try:
            share = Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{value!r} is not a fraction like 1/4") from None
        if not 0 <= share <= 1:
            raise ValueError(f"{value} of the small bet must lie from 0 to 1")
        return value

    def ante_of(self, small_bet: int) -> int:
        """The ante at a table whose small bet is ``small_bet`` chips (0 when none)."""
        return _share(self.ante, small_bet)

    def bring_in_of(self, small_bet: int) -> int:
        return _share(self.bring_in, small_bet)

    def openers_ante_of(self, small_bet: int) -> int:
        return _share(self.openers_ante, small_bet)


def _share(text: str, small_bet: int) -> int:
    share = Fraction(text)
    return 0 if share == 0 else max(1, int(small_bet * share))


class PokerSeats(Strict):
    min: int = Field(ge=2)
    max: int = Field(le=12)
    section: Section


class BadBeatCriteria(Strict):
    """What a bad beat is at this game (RULINGS: criteria vary by game and are announced).

    ``qualifying`` is the weakest hand category that qualifies (``none``: no jackpot
    unless a table sets criteria); ``hole_cards_playing`` how many of the player's own
    cards the qualifying hand must use; ``per_board`` judges each board on its own.
    """

    qualifying: HandCategory
    hole_cards_playing: int = Field(ge=0, le=2)
    judge: Literal["high"]
    per_board: bool
    section: Section


class PokerGameRules(Strict):
    game: str
    section: Section
    name: Names
    deal: PokerDeal
    hand: PokerHandMaking
    betting: PokerBetting
    forced_bets: PokerForcedBets
    seats: PokerSeats
    bad_beat: BadBeatCriteria
    choices: tuple[str, ...] = ()


def poker_game_ids() -> tuple[str, ...]:
    """Every poker game with a rule file, in the commands' order."""
    return POKER_GAME_IDS


@cache
def load_poker_rules(game: str) -> PokerGameRules:
    """The rule file of ``game``; a missing or malformed file names the file and the key."""
    if game not in POKER_GAME_IDS:
        raise RuleDataError(f"no poker game {game!r}; games: {', '.join(POKER_GAME_IDS)}")
    path = data_dir("poker") / f"{game}.toml"
    raw = read_toml(path)
    try:
        rules = PokerGameRules.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RuleDataError(f"{path}: key {where!r}: {first['msg']}") from None
    if rules.game != game:
        raise RuleDataError(f"{path}: key 'game': {rules.game!r}, expected {game!r}")
    return rules
