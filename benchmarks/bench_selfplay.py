"""Self-play actions per second: Pelisali's table engine and PokerKit on the same hands.

Pelisali plays N hands of six-handed no-limit hold'em, six-handed pot-limit Omaha,
seven-handed limit stud and six-handed deuce-to-seven triple draw, once with random
legal actions (``random``) and once with the bots ``pelisali poker selfplay`` plays by
default (``plausible``); PokerKit then plays the very same hands, action for action,
by replaying their PHH histories through its state machine. Both are timed in this
one run, and the ratio of the times is the ratio per action. Times are CPU seconds
(``time.process_time``, a child's user and system time), which other work on a shared
machine does not stretch as it stretches the wall clock. The actions a hand are
set beside those of PokerKit's own random bots (``pokerkit_bots.py``) in each game;
the command line's ``poker selfplay`` is timed as a process, start-up included. The
engine alone is timed too: the same hands, recorded with their decks and actions,
dealt again and played through ``PokerHand.act`` without the bots, as PokerKit replays
them (draw games, whose reshuffled discards come from the generator, excepted).

    .venv/bin/python benchmarks/bench_selfplay.py [--hands N] [--cli-hands N]
                                                  [--repeat K] [--games G,...]
                                                  [--bots B,...] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest.mock import patch

from machine import cpu_line
from pokerkit.notation import HandHistory
from pokerkit_bots import decisions_per_hand

from pelisali.poker.dealing import ShuffledCards
from pelisali.poker.evaluate import rank_table, tables
from pelisali.poker.rankings import high_value_of, omaha_best
from pelisali.poker.selfplay import VARIANTS, selfplay
from pelisali.poker.table import PokerHand

GAMES = {"holdem": "six-handed no-limit hold'em", "omaha": "six-handed pot-limit Omaha",
         "stud": "seven-handed limit stud",
         "triple-draw": "six-handed limit deuce-to-seven triple draw"}
BOTS = ("random", "plausible")
PELISALI = Path(sys.executable).with_name("pelisali")


def seats(game: str) -> int:
    return 7 if VARIANTS[game].kind == "stud" else 6


def measure(game: str, bot: str, hands: int, repeat: int) -> dict[str, float]:
    """Both engines on the same ``hands`` hands of ``game`` played by ``bot``: seconds,
    actions a second and a hand, and the ratio per action (the best of ``repeat``)."""
    variant, players = VARIANTS[game], seats(game)
    ours = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        selfplay(variant, hands, seed=1, players=players, bots=(bot,))
        ours = min(ours, time.process_time() - start)
    result = selfplay(variant, hands, seed=1, players=players, bots=(bot,),
                      keep_histories=True)
    parsed = [HandHistory.loads(text) for text in result.histories]
    theirs = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        with warnings.catch_warnings():  # PokerKit warns when a reshuffled card is dealt
            warnings.simplefilter("ignore")
            for history in parsed:
                for _state in history:
                    pass
        theirs = min(theirs, time.process_time() - start)
    replay: dict[str, float] = {}
    if variant.kind != "draw":  # a draw's reshuffled discards come from the generator
        replayed, replay_actions = replay_seconds(game, record(game, bot, hands), repeat)
        if replay_actions != result.actions:
            raise RuntimeError(f"the recording holds {replay_actions} actions, "
                               f"not {result.actions}")
        replay = {"pelisali_replay_actions_per_second": result.actions / replayed,
                  "replay_ratio": theirs / replayed}
    return {**replay, "actions_per_hand": result.actions / hands,
            "pelisali_actions_per_second": result.actions / ours,
            "pokerkit_actions_per_second": result.actions / theirs,
            "pelisali_hands_per_second": hands / ours,
            "pokerkit_hands_per_second": hands / theirs,
            "ratio": theirs / ours}


@dataclass
class _Recorded:
    """A hand as self-play dealt and played it: enough to replay it through the engine."""

    stacks: list[int]
    button: int
    ante: int
    bring_in: int
    deck: list[str] = field(default_factory=list)
    moves: list[tuple[str, Any]] = field(default_factory=list)  # act, discard, draw


def record(game: str, bot: str, hands: int) -> list[_Recorded]:
    """The ``hands`` hands self-play plays, each with its whole shuffled deck and the
    bots' actions, caught by a subclass of the table engine (not timed)."""
    import pelisali.poker.selfplay as module

    kept: list[_Recorded] = []

    class Recording(PokerHand):
        def __post_init__(self) -> None:
            kept.append(_Recorded(list(self.starting_stacks), self.button, self.ante,
                                  self.bring_in))
            super().__post_init__()
            cards = self.cards
            if not isinstance(cards, ShuffledCards):
                raise TypeError("self-play deals from a shuffled deck")
            kept[-1].deck = list(cards.shoe.cards)

        def act(self, action: str, to: int | None = None, seat: int | None = None) -> None:
            kept[-1].moves.append((action, to))
            super().act(action, to, seat)

        def discard(self, card: str, seat: int | None = None) -> None:
            kept[-1].moves.append(("discard", card))
            super().discard(card, seat)

        def draw(self, discards: list[str] | tuple[str, ...] = (),
                 seat: int | None = None) -> list[str]:
            kept[-1].moves.append(("draw", list(discards)))
            return super().draw(discards, seat)

    with patch.object(module, "PokerHand", Recording):
        selfplay(VARIANTS[game], hands, seed=1, players=seats(game), bots=(bot,))
    return kept


def replay_seconds(game: str, recorded: list[_Recorded], repeat: int) -> tuple[float, int]:
    """The engine alone on the recorded hands: each dealt from its deck (``deck=``) and
    played action by action, every action checked, as PokerKit replays a history.
    Returns the best CPU seconds and the actions."""
    variant = VARIANTS[game]
    best = float("inf")
    actions = sum(len(r.moves) for r in recorded)
    for _ in range(repeat):
        start = time.process_time()
        for r in recorded:
            hand = PokerHand(variant, r.stacks, r.button, 1, 2, deck=r.deck, ante=r.ante,
                             bring_in=r.bring_in)
            act = hand.act
            for action, to in r.moves:
                if action == "draw":
                    hand.draw(to)
                elif action == "discard":
                    hand.discard(to)
                else:
                    act(action, to)
            if not hand.finished:
                raise RuntimeError("a replayed hand did not finish")
        best = min(best, time.process_time() - start)
    return best, actions


def measure_cli(game: str, hands: int) -> dict[str, float]:
    """``pelisali poker selfplay`` as a process, start-up and imports included (its CPU
    seconds, user and system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([str(PELISALI), "poker", "selfplay", "--game", game, "--hands",
                          str(hands), "--seed", "1", "--players", str(seats(game))],
                         capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    found = re.search(r"([\d,]+) actions", out)
    if found is None:
        raise RuntimeError(f"no action count in {out!r}")
    actions = int(found.group(1).replace(",", ""))
    return {"hands_per_second": hands / seconds, "actions_per_second": actions / seconds,
            "actions_per_hand": actions / hands}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--cli-hands", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=1, help="best of K timings")
    parser.add_argument("--games", default=",".join(GAMES), help="of " + ", ".join(GAMES))
    parser.add_argument("--bots", default=",".join(BOTS), help="of " + ", ".join(BOTS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bots = tuple(args.bots.split(","))
    tables(), rank_table(7), omaha_best([0, 1, 2, 3], [4, 5, 6])  # built once, not timed
    high_value_of([0, 5, 10, 15, 20, 25, 30])
    games: dict[str, dict[str, object]] = {}
    for game in args.games.split(","):
        figures: dict[str, object] = {bot: measure(game, bot, args.hands, args.repeat)
                                      for bot in bots}
        figures["pokerkit_random_bots_actions_per_hand"] = decisions_per_hand(
            game, hands=500, seed=1, players=seats(game))
        if args.cli_hands:
            figures["cli"] = measure_cli(game, args.cli_hands)
        games[game] = figures
    out = {"machine": f"{cpu_line()}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
           "hands": args.hands, "cli_hands": args.cli_hands, "games": games}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['machine']}\n{args.hands} hands a game and bot, the same hands in both "
          f"engines (target 10x per action)")
    for game, figures in games.items():
        print(f"{GAMES[game]}: PokerKit's random bots "
              f"{figures['pokerkit_random_bots_actions_per_hand']:.1f} actions a hand")
        for bot in bots:
            f = figures[bot]
            assert isinstance(f, dict)
            print(f"  {bot:9s} {f['actions_per_hand']:5.1f} actions/hand; pelisali "
                  f"{f['pelisali_actions_per_second']:8,.0f} actions/s "
                  f"({f['pelisali_hands_per_second']:6,.0f} hands/s); PokerKit "
                  f"{f['pokerkit_actions_per_second']:7,.0f} actions/s "
                  f"({f['pokerkit_hands_per_second']:5,.0f} hands/s); ratio {f['ratio']:.1f}x")
            if "replay_ratio" in f:
                print(f"  {'':9s} the engine alone, replaying the same hands: pelisali "
                      f"{f['pelisali_replay_actions_per_second']:8,.0f} actions/s; ratio "
                      f"{f['replay_ratio']:.1f}x")
        if "cli" in figures and "plausible" in figures:
            cli, plausible = figures["cli"], figures["plausible"]
            assert isinstance(cli, dict) and isinstance(plausible, dict)
            print(f"  CLI poker selfplay --hands {args.cli_hands}: "
                  f"{cli['hands_per_second']:,.0f} hands/s, "
                  f"{cli['actions_per_second']:,.0f} actions/s; "
                  f"{cli['actions_per_second'] / plausible['pokerkit_actions_per_second']:.1f}x "
                  f"PokerKit's actions/s")


if __name__ == "__main__":
    main()
