"""Basic strategy played at the real blackjack table: the simulation's player.

One seat, a flat bet of :data:`UNIT` cents, insurance always declined, every
decision taken from the strategy for the table's rules and carried out with
:meth:`~pelisali.games.blackjack.BlackjackTable.act`, so the simulation runs
through the play code: real shoes, cut card, burns and reshuffles.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

import numpy as np

from pelisali.games.blackjack import BlackjackTable, Phase
from pelisali.games.blackjack_rules import BlackjackConfig, card_value
from pelisali.rng import SeededRng

UNIT = 1000

_CODES = {"H": "hit", "S": "stand", "D": "double", "Ds": "double", "P": "split",
          "hit": "hit", "stand": "stand", "double": "double", "split": "split"}
_FALLBACK = {"D": "hit", "Ds": "stand", "P": "hit"}


@cache
def _strategy(settings: tuple[tuple[str, str | bool], ...]) -> object:
    from pelisali.analysis.blackjack_ca import basic_strategy

    return basic_strategy(BlackjackConfig.from_settings(dict(settings)))


def choose(strategy: object, table: BlackjackTable) -> str:
    """The strategy's decision for the hand whose turn it is, among the legal actions."""
    turn = table.current()
    if turn is None:
        raise RuntimeError("choose() is called only while a hand is to play")
    _seat, hand = turn
    legal = table.legal_actions()
    code = strategy.action(  # type: ignore[attr-defined]
        hand.values, card_value(table.up_card), "double" in legal, "split" in legal)
    action = _CODES[code]
    if action not in legal:
        action = _CODES[_FALLBACK.get(code, "stand")]
        if action not in legal:
            action = "stand"
    return action


def play_strategy_rounds(settings: Mapping[str, str | bool], seed: int, chunk: int,
                         size: int) -> tuple[int, int]:
    """Sum and sum of squares of each round's return per ``UNIT`` bet (stake back included)."""
    frozen = tuple(sorted(settings.items()))
    config = BlackjackConfig.from_settings(dict(settings))
    strategy = _strategy(frozen)
    table = BlackjackTable(SeededRng(np.random.SeedSequence(seed, spawn_key=(chunk,))), config,
                           keep_history=False)
    table.sit("sim", 1 << 62)
    total = square = 0
    for _ in range(size):
        before = table.balances["sim"]
        table.place("sim", 1, UNIT)
        table.deal()
        while table.phase is Phase.INSURANCE:
            table.insure(table.insurance_pending()[0], 0)
        while table.phase is Phase.PLAYING:
            table.act(choose(strategy, table))
        value = table.balances["sim"] - before + UNIT  # net result plus the bet
        total += value
        square += value * value
        table.next_round()
    return total, square
