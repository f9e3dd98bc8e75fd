"""Hand histories of other rooms (PHH, PokerKit's notation) replayed through the table engine.

Each hand's deal and actions go through :class:`~pelisali.poker.table.PokerHand`, which
checks every action as at a Pelisali table; the chips it ends with are compared with the
file's ``finishing_stacks``. A hand that agrees shows that the engine plays that room's
rules; one that does not is reported with the first action the engine refuses or the
first stack that differs.

What a file may hold, and how it is read:

- the games: no-limit and fixed-limit hold'em (``NT``, ``FT``), pot-limit Omaha (``PO``),
  Omaha hi-lo (``FO/8``), stud and stud hi-lo (``F7S``, ``F7S/8``), Razz (``FR``), 2-7
  single draw (``N2L1D``) and 2-7 triple draw (``F2L3D``);
- forced bets seat by seat: antes (the big-blind ante of modern tournaments), blinds and
  straddles; a dead blind is written as an ante, and so is read as one;
- decimal chip amounts (``0.25``), read exactly and counted in the smallest unit used;
- unknown cards (``????``): a hole card shown later is the card shown; one never shown is
  any card the file does not name, which no showdown reads;
- a hand mucked at showdown (``sm`` with no cards) is given up unshown;
- a fold when a check was free.

The minimum raise after a straddle is the big blind over the largest bet, as PokerKit
reads a hand history (rooms that raise the minimum to the straddle accept it too).

>>> text = '''variant = "NT"
... antes = [0, 0, 0]
... blinds_or_straddles = [0.5, 1, 0]
... min_bet = 1
... starting_stacks = [20, 30.25, 40]
... actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 AsAd", "p3 cbr 3", "p1 f", "p2 f"]
... finishing_stacks = [19.5, 29.25, 41.5]
... '''
>>> [(r.verdict, r.got) for r in replay_text(text, "hand.phh")]
[('agrees', ['19.50', '29.25', '41.50'])]
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

from pelisali.cards import DECK
from pelisali.poker.games import make_variant
from pelisali.poker.table import PokerError, PokerHand
from pelisali.poker.variants import PokerVariant

__all__ = ["GAME_CODES", "ReplayResult", "Verdict", "replay_files", "replay_text"]

Verdict = Literal["agrees", "differs", "refused", "unchecked", "unsupported"]

# PHH variant codes -> the engine's games (name, structure, high/low).
GAME_CODES: dict[str, tuple[str, str, bool]] = {
    "NT": ("holdem", "no-limit", False),
    "FT": ("holdem", "limit", False),
    "PO": ("omaha", "pot-limit", False),
    "FO/8": ("omaha", "limit", True),
    "F7S": ("stud", "limit", False),
    "F7S/8": ("stud", "limit", True),
    "FR": ("razz", "limit", False),
    "N2L1D": ("lowball", "no-limit", False),
    "F2L3D": ("triple-draw", "limit", False),
}
UNKNOWN = "??"


@dataclass
class ReplayResult:
    """One hand's replay: ``verdict`` and what it rests on, stacks in the file's units."""

    source: str  # the file and, in a .phhs, the hand's table name
    variant: str
    players: int
    verdict: Verdict
    detail: str = ""
    expected: list[str] | None = None
    got: list[str] | None = None
    actions: int = 0  # the file's actions the engine took

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "variant": self.variant, "players": self.players,
                "verdict": self.verdict, "detail": self.detail, "expected": self.expected,
                "got": self.got, "actions": self.actions}


class _Unsupported(Exception):
    """The file holds what the engine does not play; the reason is the message."""


@dataclass
class _Amounts:
    """Chip amounts as whole numbers of the file's smallest unit."""

    scale: int
    places: int

    def chips(self, value: Any, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            raise _Unsupported(f"{what}: {value!r} is not a number of chips")
        exact = Decimal(value) * self.scale
        if exact != exact.to_integral_value() or exact < 0:
            raise _Unsupported(f"{what}: {value} is not a whole, non-negative amount")
        return int(exact)

    def text(self, chips: int) -> str:
        if not self.places:
            return str(chips)
        whole, part = divmod(chips, self.scale)
        return f"{whole}.{part:0{self.places}d}"


def _amounts(hand: dict[str, Any]) -> _Amounts:
    values: list[Decimal] = []
    for key in ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks"):
        values += [Decimal(v) for v in hand.get(key) or [] if isinstance(v, int | Decimal)]
    for key in ("bring_in", "small_bet", "big_bet", "min_bet"):
        if isinstance(hand.get(key), int | Decimal):
            values.append(Decimal(hand[key]))
    for action in hand.get("actions", []):
        words = str(action).split("#")[0].split()
        if len(words) == 3 and words[1] == "cbr":
            try:
                values.append(Decimal(words[2]))
            except ArithmeticError:
                raise _Unsupported(f"{action!r}: {words[2]!r} is not an amount") from None
    places = max([0, *(-int(v.as_tuple().exponent) for v in values
                       if v.is_finite() and int(v.as_tuple().exponent) < 0)])
    return _Amounts(10 ** places, places)


def _cards(text: str) -> list[str]:
    if len(text) % 2:
        raise _Unsupported(f"{text!r} is not a list of two-letter cards")
    cards = [text[i:i + 2] for i in range(0, len(text), 2)]
    for card in cards:
        if card != UNKNOWN and card not in DECK:
            raise _Unsupported(f"{card!r} is not a card of the 52-card deck")
    return cards


def _player(word: str, n: int) -> int:
    if not (word.startswith("p") and word[1:].isdigit() and 1 <= int(word[1:]) <= n):
        raise _Unsupported(f"{word!r} is not a player p1 to p{n}")
    return int(word[1:]) - 1


def _variant(code: str) -> PokerVariant:
    if code not in GAME_CODES:
        raise _Unsupported(f"variant {code!r} is not a game the tables play; replayed: "
                           f"{', '.join(GAME_CODES)}")
    game, structure, hi_lo = GAME_CODES[code]
    return make_variant(game, structure, hi_lo=hi_lo,
                        low_rule="ace-to-five" if hi_lo else None,
                        qualifier="eight" if hi_lo else None)


@dataclass
class _Plan:
    """The hand worked out before it is played: the dealt order with the unknown cards
    filled in, the mucks, and the seats whose unknown cards a showdown would need."""

    deck: list[str]
    mucks: set[int] = field(default_factory=set)
    unknown_at_showdown: list[int] = field(default_factory=list)


def _spare_order(variant: PokerVariant) -> list[str]:
    """The order unknown cards are filled in. In stud, cards that do not bring in (a
    player whose up cards went unrecorded folded early, and the file says who brought
    in): aces first at high stud, where the lowest card brings in; at Razz, where the
    highest does, aces and deuces first. Else the deck's order."""
    if variant.kind != "stud":
        return list(DECK)
    by_rank = sorted(DECK, key=lambda c: "23456789TJQKA".index(c[0]))  # deuces first
    if variant.high is None:  # Razz: the highest card brings in; aces are low
        return [c for c in by_rank if c[0] == "A"] + [c for c in by_rank if c[0] != "A"]
    return by_rank[::-1]  # high stud: the lowest card brings in, so fill in aces first


def _plan(actions: Sequence[list[str]], n: int, variant: PokerVariant) -> _Plan:
    deals: list[tuple[int | None, list[str]]] = []  # (player or None for the board, cards)
    shown: dict[int, list[str]] = {}
    mucks: set[int] = set()
    named: set[str] = set()
    for words in actions:
        if words[:2] in (["d", "dh"], ["d", "db"]):
            if len(words) != (4 if words[1] == "dh" else 3):
                raise _Unsupported(f"{' '.join(words)!r}: a deal names its cards")
            who = _player(words[2], n) if words[1] == "dh" else None
            cards = _cards(words[-1])
            deals.append((who, cards))
            named.update(c for c in cards if c != UNKNOWN)
        elif len(words) >= 2 and words[1] == "sm":
            seat = _player(words[0], n)
            if len(words) == 2:
                mucks.add(seat)
            elif words[2] != "-":
                shown[seat] = _cards(words[2])
                named.update(c for c in shown[seat] if c != UNKNOWN)
        elif len(words) == 3 and words[1] == "sd":
            named.update(c for c in _cards(words[2]) if c != UNKNOWN)
    # A card shown at the showdown fills the player's unknown cards in the order dealt.
    known = {seat: {c for who, cards in deals if who == seat for c in cards if c != UNKNOWN}
             for seat in range(n)}
    revealed = {seat: [c for c in cards if c != UNKNOWN and c not in known[seat]]
                for seat, cards in shown.items()}
    spare = iter(c for c in _spare_order(variant) if c not in named)
    deck: list[str] = []
    unknown_at_showdown = {seat for seat, cards in shown.items() if UNKNOWN in cards}
    for who, cards in deals:
        for card in cards:
            if card != UNKNOWN:
                deck.append(card)
            elif who is not None and revealed.get(who):
                deck.append(revealed[who].pop(0))
            else:
                deck.append(next(spare))
    return _Plan(deck, mucks, sorted(unknown_at_showdown))


def _hand(data: dict[str, Any], variant: PokerVariant, amounts: _Amounts,
          plan: _Plan) -> PokerHand:
    n = len(data["starting_stacks"])
    stacks = [amounts.chips(v, "starting_stacks") for v in data["starting_stacks"]]

    def per_seat(key: str) -> list[int]:
        values = data.get(key) or [0] * n
        if not isinstance(values, list) or len(values) != n:
            raise _Unsupported(f"{key}: one amount a player ({n})")
        chips = [amounts.chips(v, key) for v in values]
        return chips[::-1] if n == 2 else chips  # PHH swaps a heads-up hand's forced bets

    antes = per_seat("antes")
    button = n - 1  # PHH numbers players from the button's left: p1 is engine seat 0
    if variant.structure == "limit":
        small_bet = amounts.chips(data.get("small_bet", 0), "small_bet")
        big_bet = amounts.chips(data.get("big_bet", 0), "big_bet")
        if not small_bet or big_bet != 2 * small_bet:
            raise _Unsupported(f"limit: the big bet {big_bet} must be twice the small bet "
                               f"{small_bet}, as the tables play it")
        minimum = small_bet
    else:
        minimum = amounts.chips(data.get("min_bet", 0), "min_bet")
    if variant.kind == "stud":
        bring_in = amounts.chips(data.get("bring_in", 0), "bring_in")
        return PokerHand(variant, stacks, button, minimum, minimum, bring_in=bring_in,
                         antes=antes, deck=plan.deck, mucks=plan.mucks,
                         fold_when_check_free=True)
    blinds = per_seat("blinds_or_straddles")
    positive = sorted(b for b in blinds if b)
    if not positive:
        raise _Unsupported("a blinds game needs its blinds")
    small = min(positive[0], minimum)
    return PokerHand(variant, stacks, button, small, minimum, blinds=blinds, antes=antes,
                     deck=plan.deck, mucks=plan.mucks, fold_when_check_free=True)


def _repair(hand: PokerHand, words: list[str], later: Sequence[list[str]],
            repairs: list[str]) -> None:
    """Fold a player the file leaves out, as PokerKit does: one whose turn it is who never
    acts again in the file (hand histories of televised hands skip such folds)."""
    seat = _player(words[0], hand.players)
    acting = {w[0] for w in later if w[0] != "d"} | {words[0]}
    while (not hand.finished and hand.actor is not None and hand.actor != seat
           and not hand.drawing and not hand.discarding
           and f"p{hand.actor + 1}" not in acting):
        repairs.append(f"p{hand.actor + 1}'s fold added (the file leaves it out)")
        hand.act("fold")


def _act(hand: PokerHand, words: list[str], amounts: _Amounts, final_shown: set[str]) -> None:
    n = hand.players
    seat = _player(words[0], n)
    verb = words[1]
    if verb == "f":
        hand.act("fold", seat=seat)
    elif verb == "cc":
        hand.act("check" if hand.legal().check else "call", seat=seat)
    elif verb == "cbr" and len(words) == 3:
        to = amounts.chips(Decimal(words[2]), "cbr")
        legal = hand.legal()
        cover = max((hand.street_commit[s] + hand.stacks[s] for s in range(n)
                     if s != seat and not hand.folded[s]), default=0)
        if (legal.raise_min is not None and cover <= to < legal.raise_min
                and hand.variant.structure == "limit"):
            # A limit raise cut to what the one opponent left can call: the same chips
            # change hands as the full raise, whose excess comes back uncalled.
            to = legal.raise_min
        hand.act("raise", to, seat=seat)
    elif verb == "pb":
        hand.act("bring-in", seat=seat)
    elif verb == "sd":
        discards = _cards(words[2]) if len(words) == 3 else []
        if UNKNOWN in discards:  # unknown discards: cards the player does not show later
            free = [c for c in hand.hole[seat] if c not in final_shown and c not in discards]
            if len(free) < discards.count(UNKNOWN):
                raise _Unsupported(f"{' '.join(words)!r}: the unknown discards cannot be "
                                   "told from the cards shown")
            discards = [c if c != UNKNOWN else free.pop(0) for c in discards]
        hand.draw(discards, seat=seat)
    else:
        raise _Unsupported(f"{' '.join(words)!r} is not an action of the notation")


def _replay(data: dict[str, Any], source: str) -> ReplayResult:
    code = str(data.get("variant", ""))
    n = len(data.get("starting_stacks") or [])
    result = ReplayResult(source, code, n, "unsupported")
    try:
        variant = _variant(code)
        if not 2 <= n <= variant.max_seats:
            raise _Unsupported(f"{n} players: {variant.name} seats 2 to {variant.max_seats}")
        amounts = _amounts(data)
        actions = [str(a).split("#")[0].split() for a in data.get("actions", [])]
        actions = [words for words in actions if words]
        plan = _plan(actions, n, variant)
        try:
            hand = _hand(data, variant, amounts, plan)
        except PokerError as exc:
            raise _Unsupported(f"the hand's set-up: {exc}") from None
        final_shown = {c for words in actions if len(words) == 3 and words[1] == "sm"
                       for c in _cards(words[2]) if words[2] != "-"}
        dealt = 0
        repairs: list[str] = []
        for index, words in enumerate(actions):
            if words[0] == "d":
                dealt += 1
                engine_deals = [e for e in hand.log if e.startswith(("d dh", "d db "))]
                mismatch = _deal_mismatch(words, engine_deals[dealt - 1]
                                          if dealt <= len(engine_deals) else None)
                if mismatch:
                    result.verdict = "refused"
                    result.detail = f"action {result.actions + 1} {' '.join(words)!r}: {mismatch}"
                    return result
                result.actions += 1
                continue
            if len(words) >= 2 and words[1] == "sm":
                result.actions += 1  # the showdown is the engine's once betting ends
                continue
            try:
                _repair(hand, words, actions[index + 1:], repairs)
                _act(hand, words, amounts, final_shown)
            except PokerError as exc:
                result.verdict = "refused"
                result.detail = f"action {result.actions + 1} {' '.join(words)!r}: {exc}"
                return result
            result.actions += 1
        if not hand.finished:
            result.verdict = "refused"
            result.detail = "the file ends before the hand does"
            return result
        needed = [s for s in plan.unknown_at_showdown if s in hand.contested
                  and len(hand.contested) > 1]
        result.got = [amounts.text(s) for s in hand.stacks]
        if needed:
            result.verdict = "unchecked"
            result.detail = (f"the showdown needs p{needed[0] + 1}'s cards, which the file "
                             "does not give")
            return result
        _compare(result, data, hand, amounts)
        if repairs:
            result.detail = "; ".join(filter(None, [result.detail, *repairs]))
        return result
    except (_Unsupported, PokerError) as exc:
        result.verdict = "unsupported"
        result.detail = str(exc)
        return result


def _deal_mismatch(words: list[str], engine: str | None) -> str:
    """Why the file's deal is not the one the table made at this point ("" when it is)."""
    if engine is None:
        return "the table deals nothing now"
    theirs = engine.split()
    if theirs[:-1] != words[:-1]:
        return f"the table deals {engine!r} here"
    mine, dealt = _cards(words[-1]), _cards(theirs[-1])
    if len(mine) != len(dealt) or any(a not in (UNKNOWN, b) for a, b in zip(mine, dealt,
                                                                            strict=True)):
        return f"the table deals {engine!r} here"
    return ""


def _compare(result: ReplayResult, data: dict[str, Any], hand: PokerHand,
             amounts: _Amounts) -> ReplayResult:
    if data.get("finishing_stacks") is not None:
        expected = [amounts.chips(v, "finishing_stacks") for v in data["finishing_stacks"]]
        got = hand.stacks
    else:
        # Rooms' ``winnings`` are not compared: they are net of a rake the file does
        # not give, and converters count a walk's uncalled blind in them or not.
        result.verdict = "unchecked"
        result.detail = "played to the end; the file gives no finishing stacks"
        return result
    result.expected = [amounts.text(s) for s in expected]
    if len(expected) != len(got):
        result.verdict = "differs"
        result.detail = f"the file lists {len(expected)} stacks for {len(got)} players"
        return result
    for seat, (want, have) in enumerate(zip(expected, got, strict=True)):
        if want != have:
            result.verdict = "differs"
            result.detail = (f"p{seat + 1}'s stack: the file {amounts.text(want)}, the "
                             f"table {amounts.text(have)}")
            return result
    result.verdict = "agrees"
    return result


def _hands(text: str, source: str) -> Iterator[tuple[dict[str, Any], str]]:
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{source}: not a PHH file (TOML): {exc}") from None
    if "actions" in data or "variant" in data:
        yield data, source
        return
    for name, hand in data.items():  # .phhs: one table a hand
        if isinstance(hand, dict):
            yield hand, f"{source} [{name}]"


def replay_text(text: str, source: str = "<text>") -> list[ReplayResult]:
    """Replay every hand of one PHH or PHHS text; ``source`` names it in the results."""
    return [_replay(hand, name) for hand, name in _hands(text, source)]


def replay_files(paths: Sequence[str | Path]) -> Iterator[ReplayResult]:
    """Replay every hand of each file in turn (``.phh`` one hand, ``.phhs`` many)."""
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"{path}: cannot be read: {exc}") from None
        yield from replay_text(text, str(path))
