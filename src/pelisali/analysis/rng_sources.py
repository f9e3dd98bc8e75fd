"""The outcomes the RNG battery tests, each made by the game's own drawing code.

- The wheels and dice (roulette, boule, money wheel, tuplanoppa, sic bo):
  :meth:`WagerGame.draw <pelisali.games.base.WagerGame.draw>`, as every round the
  platform plays draws them. Two streams a game: the raw slot (pocket, die face), where
  every value is equally likely, and the face after scaling to the game (boule's
  numbers, the money wheel's multipliers), at its own probability.
- The engine games' chance draws, a card by its count in the shoe and a reel stop by
  its weight, as the platform's rounds draw them (``draw``:
  :func:`~pelisali.platform.table_layer.draw_outcome`, or the engine's
  :func:`~pelisali.engine.contract.sample_chance` that simulation uses; both walk the
  exact weights with one uniform integer).
- The shuffle every shoe makes (:meth:`Shoe.shuffle <pelisali.cards.Shoe.shuffle>`,
  Fisher–Yates in :func:`pelisali.rng.shuffle`): orders of a 52-card deck, and of small
  decks whose every permutation is counted.

>>> from pelisali.rng import SeededRng
>>> stream = wager_streams("sic-bo", SeededRng(1), 100)[0]
>>> stream.source, stream.outcomes.size, stream.raw
('sic-bo die', 300, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from pelisali.analysis.rng_battery import Floats, Ints, probabilities, uniform
from pelisali.cards import Shoe
from pelisali.engine import GAMES, ChanceOutcome, State, sample_chance
from pelisali.rng import Rng, shuffle

Drawer = Callable[[State, Rng], ChanceOutcome]
Progress = Callable[[int], None]

WAGER_GAMES = ("roulette", "boule", "money-wheel", "tuplanoppa", "sic-bo")
CARD_GAMES = ("punto-banco", "blackjack", "red-dog", "three-card-poker",
              "ultimate-texas-holdem", "texas-holdem-bonus", "oasis-stud", "pai-gow-poker",
              "russian-poker", "chemin-de-fer")
SLOT_GAMES = ("slot-fruit", "slot-video")
SHUFFLE = "shuffle"
SOURCES = (*WAGER_GAMES, *SLOT_GAMES, *CARD_GAMES, SHUFFLE)
"""Every source the battery knows, by the name ``--game`` takes."""


@dataclass(frozen=True)
class Stream:
    """Outcomes ``0 … k-1`` of one source in the order drawn, with their exact
    probabilities; ``raw`` when every value is equally likely before any scaling."""

    source: str
    outcomes: Ints
    probabilities: Floats
    raw: bool
    drawn_by: str


@dataclass(frozen=True)
class Shuffles:
    """Orders of ``cards`` cards as the shuffle left them (card ``i`` is the ``i``-th of
    the unshuffled deck)."""

    source: str
    orders: Ints
    drawn_by: str


def _ignore(_: int) -> None:
    return None


def _no_round() -> None:
    return None


def round_starter(rng: Rng) -> Callable[[], None]:
    """What starts the next round of a generator that has rounds (the provably fair
    one's next nonce, :class:`~pelisali.analysis.rng_fair.FairRounds`); else nothing.

    >>> from pelisali.rng import SeededRng
    >>> round_starter(SeededRng(1))() is None
    True
    """
    start: Callable[[], None] | None = getattr(rng, "next_round", None)
    return start if start is not None else _no_round


def wager_streams(game: str, rng: Rng, rounds: int, variant: str | None = None,
                  progress: Progress = _ignore) -> list[Stream]:
    """``rounds`` rounds of a wheel or dice game drawn by :meth:`WagerGame.draw`: its
    devices' slots in the order drawn (the dice of a round one after another) and, when
    a slot shows a face that several slots share, the faces too."""
    from pelisali.games import make_game

    engine = make_game(game, variant, {})
    devices = engine.devices
    slots = np.empty((rounds, len(devices)), dtype=np.int64)
    step = max(1, rounds // 100)
    next_round = round_starter(rng)
    for i in range(rounds):
        slots[i] = [draw.slot for draw in engine.draw(rng)]
        next_round()
        if (i + 1) % step == 0:
            progress(step)
    progress(rounds % step)
    device = devices[0]
    if any(d.slots != device.slots for d in devices):
        raise ValueError(f"{game}: devices differ; test them one by one")
    name = f"{game}{'-' + variant if variant else ''} {device.name.rstrip('0123456789')}"
    drawn_by = "WagerGame.draw (the platform's rounds)"
    raw = Stream(name, slots.ravel(), uniform(len(device.slots)), True, drawn_by)
    faces = sorted(set(device.slots), key=device.slots.index)
    if len(faces) == len(device.slots):
        return [raw]
    face_of = np.array([faces.index(face) for face in device.slots], dtype=np.int64)
    weights = [device.slots.count(face) for face in faces]
    return [raw, Stream(f"{name} face", face_of[raw.outcomes], probabilities(weights), False,
                        drawn_by)]


def first_chance(game_id: str) -> State:
    """The first chance node of a round with the usual seats and the first bets: the first
    card, or the first reel stop.

    >>> first_chance("red-dog").is_chance()
    True
    """
    game = GAMES[game_id]
    state = game.new_state(game.default_seats())
    for turn in range(8):
        if state.is_chance():
            return state
        actions = state.legal_actions()
        done = [a for a in actions if a.text() == "done"]
        state = state.apply(done[0] if done and turn else actions[0]).state
    raise ValueError(f"{game_id}: no chance node after the opening bets")


def chance_nodes(game_id: str) -> list[State]:
    """The chance nodes tested: a card game's first card; a slot's every reel (a reel's
    strip does not depend on the stops before it, so each node is reached by stopping
    the reels before at their first stop).

    >>> len(chance_nodes("slot-video")), len(chance_nodes("red-dog"))
    (5, 1)
    """
    nodes = [first_chance(game_id)]
    if game_id in SLOT_GAMES:
        while True:
            after = nodes[-1].apply(nodes[-1].chance_weights()[0][0]).state
            if not after.is_chance():
                break
            nodes.append(after)
    return nodes


def chance_streams(game_id: str, rng: Rng, rounds: int, draw: Drawer = sample_chance,
                   progress: Progress = _ignore) -> list[Stream]:
    """The first chance draw of ``rounds`` rounds (a card from a full shoe) or, for a
    slot, every reel's stop, each drawn by ``draw`` at the node the round reaches.

    >>> from pelisali.rng import SeededRng
    >>> [s.source for s in chance_streams("slot-fruit", SeededRng(1), 10)]
    ['slot-fruit reel 1 stop', 'slot-fruit reel 2 stop', 'slot-fruit reel 3 stop']
    """
    streams = []
    step = max(1, rounds // 100)
    next_round = round_starter(rng)
    for number, node in enumerate(chance_nodes(game_id), start=1):
        outcomes, weights, _ = node.chance_weights()
        index = {outcome: i for i, outcome in enumerate(outcomes)}
        fixed = cast(State, _Weighed(node.chance_weights()))
        x = np.empty(rounds, dtype=np.int64)
        for i in range(rounds):
            x[i] = index[draw(fixed, rng)]
            next_round()
            if (i + 1) % step == 0:
                progress(step)
        progress(rounds % step)
        what = f"reel {number} stop" if game_id in SLOT_GAMES else "first card"
        equal = len(set(weights)) == 1
        streams.append(Stream(f"{game_id} {what}", x, probabilities(weights), equal,
                              f"{getattr(draw, '__name__', 'draw')} (the engine's weights)"))
    return streams


class _Weighed:
    """A chance node's weights, asked of the engine once: the drawer runs as in a round
    (one uniform integer below the total, walked through the weights), without the
    engine building the same weights again for every draw."""

    def __init__(self, weights: tuple[tuple[ChanceOutcome, ...], tuple[int, ...], int]
                 ) -> None:
        self._weights = weights

    def chance_weights(self) -> tuple[tuple[ChanceOutcome, ...], tuple[int, ...], int]:
        return self._weights


def shuffles(rng: Rng, count: int, cards: int = 52, progress: Progress = _ignore,
             shuffler: Callable[[list[int], Rng], list[int]] = shuffle) -> Shuffles:
    """``count`` shuffles of a deck of ``cards``: of the shoe itself for 52 cards (one
    deck, :meth:`Shoe.shuffle`), else of ``0 … cards-1`` by ``shuffler``.

    >>> from pelisali.rng import SeededRng
    >>> deck = shuffles(SeededRng(1), 3)
    >>> deck.source, deck.orders.shape, sorted(deck.orders[0]) == list(range(52))
    ('shoe shuffle (one deck)', (3, 52), True)
    """
    orders = np.empty((count, cards), dtype=np.int64)
    step = max(1, count // 100)
    next_round = round_starter(rng)
    if cards == 52 and shuffler is shuffle:
        position = {card: i for i, card in enumerate(_deck())}
        shoe = Shoe(1, 0)
        for i in range(count):
            shoe.shuffle(rng)
            next_round()
            orders[i] = [position[c] for c in shoe.cards]
            if (i + 1) % step == 0:
                progress(step)
        progress(count % step)
        return Shuffles("shoe shuffle (one deck)", orders, "Shoe.shuffle (Fisher–Yates)")
    deck = list(range(cards))
    for i in range(count):
        orders[i] = shuffler(deck, rng)
        next_round()
        if (i + 1) % step == 0:
            progress(step)
    progress(count % step)
    return Shuffles(f"shuffle of {cards}", orders, getattr(shuffler, "__name__", "shuffle"))


def _deck() -> Sequence[str]:
    from pelisali.cards import DECK

    return DECK
