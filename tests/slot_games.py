"""Small slot games for the tests, built as rule data (the shipped games are in
``src/pelisali/rules/data/slots/``)."""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any

from pelisali.engine.slots import SlotEngine
from pelisali.rng import SeededRng
from pelisali.rules.slots import SlotRules, slot_rules_from

NAMES = {"fi": "Testi", "sv": "Test", "en": "Test"}


def tiny_raw(**changes: Any) -> dict[str, Any]:
    """A 3-reel, 2-row, 3-line game with a doubling wild, scatter pays and free spins,
    small enough to walk every stop combination (5 x 6 x 5 stops)."""
    raw: dict[str, Any] = {
        "game": "slot", "id": "tiny", "section": "test game", "rtp": "0",
        "name": NAMES, "description": NAMES, "rows": 2,
        "symbols": ["W", "S", "A", "B", "C"],
        "reels": {"section": "test game",
                  "base": [["A", "B", "S", "C", "A"], ["W", "A", "B", "S", "C", "B"],
                           ["A", "C", "W", "S", "B"]],
                  "free": [["A", "S", "B", "A", "C"], ["W", "A", "S", "B", "C"],
                           ["A", "W", "B", "S", "C"]]},
        "paylines": [[0, 0, 0], [1, 1, 1], [0, 1, 0]], "paylines_section": "test game",
        "pays_section": "test game",
        "pays": [{"symbol": "W", "count": 3, "pays": 50}, {"symbol": "A", "count": 3, "pays": 20},
                 {"symbol": "A", "count": 2, "pays": 2}, {"symbol": "B", "count": 3, "pays": 10},
                 {"symbol": "C", "count": 3, "pays": 5}],
        "wilds": [{"symbol": "W", "substitutes": ["A", "B", "C"], "multiplier": 2,
                   "section": "test game"}],
        "scatter": {"symbol": "S", "section": "test game",
                    "pays": [{"count": 2, "pays": 1}, {"count": 3, "pays": 5}]},
        "feature": {"trigger": 2, "spins": 2, "retrigger": 2, "multiplier": 2,
                    "section": "test game"},
        "cap": {"multiplier": 100000, "section": "test game"},
        "bets": {"cents_per_line": [1, 10], "lines_played": [1, 2, 3], "section": "test game"},
    }
    out = copy.deepcopy(raw)
    out.update(changes)
    return out


def tiny(**changes: Any) -> SlotRules:
    return slot_rules_from(tiny_raw(**changes))


def five_reel() -> SlotRules:
    """A 5-reel, 3-row, 6-line game with short strips: 4^2 x 5^3 = 2,000 stop combinations."""
    return tiny(
        rows=3, symbols=["W", "S", "A", "B", "C", "D"],
        reels={"section": "test game",
               "base": [["A", "B", "S", "C"], ["W", "A", "B", "D", "S"],
                        ["A", "C", "W", "B", "D"], ["B", "W", "A", "S", "C"], ["A", "D", "B", "C"]],
               "free": [["A", "S", "B", "D"], ["W", "A", "S", "B"], ["A", "W", "B", "S"],
                        ["S", "A", "B", "W"], ["A", "B", "C", "S"]]},
        paylines=[[1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [0, 1, 2, 1, 0],
                  [2, 1, 0, 1, 2], [1, 0, 1, 2, 1]],
        pays=[{"symbol": "W", "count": 5, "pays": 500}, {"symbol": "W", "count": 3, "pays": 40},
              {"symbol": "A", "count": 5, "pays": 100}, {"symbol": "A", "count": 4, "pays": 25},
              {"symbol": "A", "count": 3, "pays": 5}, {"symbol": "B", "count": 4, "pays": 15},
              {"symbol": "B", "count": 3, "pays": 4}, {"symbol": "C", "count": 3, "pays": 3},
              {"symbol": "D", "count": 3, "pays": 2}, {"symbol": "D", "count": 5, "pays": 60}],
        wilds=[{"symbol": "W", "substitutes": ["A", "B", "C", "D"], "multiplier": 2,
                "section": "test game"}],
        scatter={"symbol": "S", "section": "test game",
                 "pays": [{"count": 3, "pays": 2}, {"count": 4, "pays": 10}]},
        feature={"trigger": 3, "spins": 3, "retrigger": 3, "multiplier": 3,
                 "section": "test game"},
        bets={"cents_per_line": [1, 10], "lines_played": [1, 6], "section": "test game"},
    )


def tree_game() -> SlotRules:
    """The tiny game on one row and short free strips: its chance tree is small enough to walk
    through several free spins."""
    return tiny(rows=1, paylines=[[0, 0, 0]],
                reels={"section": "test game",
                       "base": [["A", "B", "S", "C", "A"], ["W", "A", "B", "S", "C", "B"],
                                ["A", "C", "W", "S", "B"]],
                       "free": [["A", "S", "B"], ["W", "S", "A"], ["S", "B", "W"]]},
                bets={"cents_per_line": [1], "lines_played": [1], "section": "test game"})


def five_reel_feature() -> SlotRules:
    """The 5-reel game with a feature that ends: free spins on the base strips, a retrigger
    adding one spin."""
    rules = five_reel().model_dump(mode="json")
    rules["reels"]["free"] = rules["reels"]["base"]
    rules["feature"]["retrigger"] = 1
    return slot_rules_from(rules)


def ways_raw(**changes: Any) -> dict[str, Any]:
    """A 3-reel, 3-row game that pays any-way: a doubling wild W for A, B and C, a plain wild
    V for A alone, a scatter S paying and starting free spins that retrigger; 7 x 8 x 7 base
    stops, small enough to walk every stop combination."""
    raw = tiny_raw(
        id="ways", rows=3, symbols=["W", "V", "S", "A", "B", "C"], ways=True,
        reels={"section": "test game",
               "base": [["A", "B", "S", "C", "A", "W", "B"],
                        ["W", "A", "B", "S", "C", "B", "V", "A"],
                        ["A", "C", "W", "S", "B", "C", "A"]],
               "free": [["A", "S", "B", "A", "C", "W"], ["W", "A", "C", "B", "V", "S", "B"],
                        ["B", "A", "W", "C", "A", "S"]]},
        pays=[{"symbol": "W", "count": 3, "pays": 40}, {"symbol": "W", "count": 2, "pays": 4},
              {"symbol": "V", "count": 3, "pays": 15},
              {"symbol": "A", "count": 3, "pays": 8}, {"symbol": "A", "count": 2, "pays": 1},
              {"symbol": "B", "count": 3, "pays": 5}, {"symbol": "C", "count": 3, "pays": 3},
              {"symbol": "C", "count": 1, "pays": 1}],
        wilds=[{"symbol": "W", "substitutes": ["A", "B", "C"], "multiplier": 2,
                "section": "test game"},
               {"symbol": "V", "substitutes": ["A"], "section": "test game"}],
        scatter={"symbol": "S", "section": "test game",
                 "pays": [{"count": 2, "pays": 1}, {"count": 3, "pays": 4}]},
        feature={"trigger": 3, "spins": 3, "retrigger": 3, "multiplier": 2,
                 "section": "test game"},
        bets={"cents_per_line": [1, 10], "lines_played": [1, 10, 25], "section": "test game"})
    del raw["paylines"], raw["paylines_section"]
    raw.update(changes)
    return raw


def ways_game(**changes: Any) -> SlotRules:
    return slot_rules_from(ways_raw(**changes))


def five_reel_ways() -> SlotRules:
    """The 5-reel test game (4^2 x 5^3 stops) paying any-way, a feature that ends."""
    raw = five_reel_feature().model_dump(mode="json")
    raw.update(id="five-ways", ways=True, paylines=[], paylines_section=None)
    raw["bets"]["lines_played"] = [1, 20]
    return slot_rules_from(raw)


def toml_text(raw: dict[str, Any]) -> str:
    """Rule data as a TOML file's text (every value inline; ``None`` left out)."""
    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{k} = {value(x)}" for k, x in v.items()
                                    if x is not None) + " }"
        if isinstance(v, list | tuple):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return json.dumps(v)
    return "".join(f"{k} = {value(v)}\n" for k, v in raw.items() if v is not None)


class Stops(SeededRng):
    """A generator that draws the given stops, then seeded ones."""

    def __init__(self, stops: Sequence[int], seed: int = 0) -> None:
        super().__init__(seed)
        self.stops = list(stops)

    def randbelow(self, n: int) -> int:
        return self.stops.pop(0) if self.stops else super().randbelow(n)


def scatter_stops(game: SlotEngine, reels: Sequence[int], free: bool = False) -> list[int]:
    """Stops that show the scatter on ``reels`` and not on the others."""
    rules = game.rules
    assert rules.scatter is not None
    strips = rules.reels.free if free else rules.reels.base
    out = []
    for reel, strip in enumerate(strips):
        want = reel in reels
        out.append(next(stop for stop in range(len(strip))
                        if (rules.scatter.symbol in
                            {strip[(stop + row) % len(strip)] for row in range(rules.rows)})
                        == want))
    return out
