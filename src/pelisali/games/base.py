"""What every wager game shares: chance devices, betting spots and resolutions.

A game is pure: it lists its chance devices (each a set of equally likely
physical slots: wheel pockets, die faces, multiplier tiles), the spots a bet
can go on, and how a bet on a spot resolves for one outcome of the devices.
Play, exact odds and simulation all call :meth:`WagerGame.resolve`; nothing
else knows a payout.
"""

from __future__ import annotations

import itertools
import math
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING

from pelisali.games.spot_grammar import GRAMMAR, spot_words
from pelisali.rules.schema import GameRulesBase, Setting

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from pelisali.rng import Rng


class GameError(ValueError):
    """A request the game's rules refuse; the message says why."""


class UnknownSpot(GameError):
    """A bet on a spot the layout does not have."""


@dataclass(frozen=True)
class Device:
    """A physical chance device whose slots are equally likely.

    >>> die = Device("die", tuple("123456"))
    >>> die.faces, die.weights
    (('1', '2', '3', '4', '5', '6'), (1, 1, 1, 1, 1, 1))
    >>> Device("drum", ("5:1", "5:1", "7:1")).weights
    (2, 1)
    """

    name: str
    slots: tuple[str, ...]

    @cached_property
    def faces(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.slots))

    @cached_property
    def weights(self) -> tuple[int, ...]:
        return tuple(self.slots.count(face) for face in self.faces)

    @cached_property
    def slot_face_index(self) -> npt.NDArray[np.int64]:
        import numpy as np

        index = {face: i for i, face in enumerate(self.faces)}
        return np.array([index[s] for s in self.slots], dtype=np.int64)


@dataclass(frozen=True)
class Draw:
    """One recorded chance draw: which slot of which device came up."""

    device: str
    slot: int
    face: str

    def to_json(self) -> dict[str, object]:
        return {"device": self.device, "slot": self.slot, "face": self.face}


@dataclass(frozen=True)
class Spot:
    """A place a bet can go: its bet type, canonical key and the faces it covers."""

    bet_type: str
    key: str
    covers: frozenset[str] = field(default_factory=frozenset)

    def __str__(self) -> str:
        return self.key


@dataclass(frozen=True)
class Paid:
    """The bet is decided: ``amount`` (exact, stake included) goes back to the player."""

    amount: Fraction
    result: str  # win, lose, half, quarter, release


@dataclass(frozen=True)
class Held:
    """The bet stays on the table in prison at ``level`` (roulette D, en prison)."""

    level: int
    result: str = "prison"


@dataclass(frozen=True)
class Choice:
    """The player decides between options (roulette D with both zero rules)."""

    options: tuple[tuple[str, Paid | Held], ...]

    def option(self, name: str) -> Paid | Held:
        for key, value in self.options:
            if key == name:
                return value
        raise GameError(f"'{name}' is not an option here; choose one of {self.names}")

    @property
    def names(self) -> list[str]:
        return [key for key, _ in self.options]


Resolution = Paid | Held | Choice
Outcome = tuple[str, ...]
LOST = Fraction(0)


def parse_setting(name: str, spec: Setting, value: str | bool) -> str | bool:
    if isinstance(spec.default, bool):
        if isinstance(value, bool):
            return value
        if not isinstance(value, str):
            raise GameError(f"setting {name} takes true or false, not {value!r}")
        lowered = value.strip().lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise GameError(f"setting {name} takes true or false, not {value!r}")
    if not isinstance(value, str):
        raise GameError(f"setting {name} takes a word, not {value!r}")
    text = value
    if spec.choices is not None and text not in spec.choices:
        raise GameError(f"setting {name} takes one of {', '.join(spec.choices)}, not {text!r} "
                        f"({spec.section})")
    if spec.minimum is not None:
        top = "" if spec.maximum is None else f" to {spec.maximum}"
        if not text.strip().isdigit() or int(text) < spec.minimum or (
                spec.maximum is not None and int(text) > spec.maximum):
            raise GameError(f"setting {name} takes a whole number from {spec.minimum}{top}, "
                            f"not {text!r}")
        text = str(int(text))
    return text


def resolve_settings(rules: GameRulesBase, settings: Mapping[str, str | bool] | None,
                     title: str) -> dict[str, str | bool]:
    """Every setting of a game: the chosen values checked, the rule file's defaults for the
    rest. An unknown setting or a value it does not take is a :class:`GameError`."""
    chosen = dict(settings or {})
    unknown = set(chosen) - set(rules.settings)
    if unknown:
        known = ", ".join(sorted(rules.settings)) or "none"
        raise GameError(f"{title} has no setting {', '.join(sorted(unknown))} (settings: {known})")
    return {key: parse_setting(key, spec, chosen.get(key, spec.default))
            for key, spec in rules.settings.items()}


class WagerGame(ABC):
    """A house-banked game of independent bets settled by chance devices."""

    name: str

    def __init__(self, rules: GameRulesBase, settings: Mapping[str, str | bool] | None = None):
        self.rules = rules
        self.settings: dict[str, str | bool] = resolve_settings(rules, settings, self.title())

    @property
    def variant(self) -> str:
        return self.rules.variant

    def title(self) -> str:
        return f"{self.name} {self.variant}".strip()

    # -- what subclasses provide ------------------------------------------------
    @property
    @abstractmethod
    def devices(self) -> tuple[Device, ...]:
        """The chance devices drawn each round, in draw order."""

    @abstractmethod
    def spots(self) -> Sequence[Spot]:
        """Every spot a bet may be placed on under the current settings."""

    @abstractmethod
    def bet_types(self) -> list[str]:
        """Bet type names in layout order."""

    @abstractmethod
    def payout_label(self, bet_type: str) -> str:
        """The odds a bet type pays, as shown to players."""

    @abstractmethod
    def resolve(self, spot: Spot, stake: int, level: int, outcome: Outcome) -> Resolution:
        """How a bet of ``stake`` cents on ``spot`` (prison ``level``) fares on ``outcome``."""

    def describe(self, outcome: Outcome) -> str:
        return " ".join(outcome)

    def resolution_column(self, spot: Spot, stake: int, level: int) -> tuple[Resolution, ...]:
        """``resolve`` for every outcome in index order, cached (the engine is pure)."""
        key = (spot.key, stake, level)
        column = self._columns.get(key)
        if column is None:
            column = tuple(self.resolve(spot, stake, level, o) for o in self.outcome_list)
            if len(self._columns) >= 4096:
                self._columns.clear()
            self._columns[key] = column
        return column

    @cached_property
    def _columns(self) -> dict[tuple[str, int, int], tuple[Resolution, ...]]:
        return {}

    def parse_spot_text(self, text: str) -> str:
        """Turn what a player types into a spot key (games refine this)."""
        name, numbers = self.spot_words(text)
        return " ".join([name, *numbers]).strip()

    def spot_words(self, text: str) -> tuple[str, tuple[str, ...]]:
        """The bet type's name and the numbers in ``text``
        (:mod:`~pelisali.games.spot_grammar`); refused, saying so, when it follows no
        spot's grammar."""
        words = spot_words(text)
        if words is None:
            raise self.unknown_spot(text, GRAMMAR)
        return words

    def unknown_spot(self, text: str, reason: str = "") -> UnknownSpot:
        """The refusal of a bet on ``text``: the spot, why when known, the bet types."""
        why = f" ({reason})" if reason else ""
        return UnknownSpot(f"{self.title()} has no betting spot {text!r}{why}; bet types: "
                           + ", ".join(self.bet_types()))

    # -- shared machinery -------------------------------------------------------
    @cached_property
    def _spot_index(self) -> dict[str, Spot]:
        return {spot.key: spot for spot in self.spots()}

    def spot(self, text: str) -> Spot:
        """Find a spot from its key or a player's way of writing it.

        Raises :class:`UnknownSpot` naming the bet types when nothing matches.
        """
        key = self.parse_spot_text(text)
        found = self._spot_index.get(key)
        if found is None:
            raise self.unknown_spot(text)
        return found

    def has_spot(self, spot: Spot) -> bool:
        return self._spot_index.get(spot.key) == spot

    def spots_of(self, bet_type: str) -> list[Spot]:
        return [s for s in self.spots() if s.bet_type == bet_type]

    @cached_property
    def radix(self) -> tuple[int, ...]:
        return tuple(len(d.faces) for d in self.devices)

    @cached_property
    def outcome_count(self) -> int:
        return math.prod(self.radix)

    @cached_property
    def total_weight(self) -> int:
        return math.prod(len(d.slots) for d in self.devices)

    def outcomes(self) -> Iterator[tuple[int, Outcome, int]]:
        """Every distinct outcome with its index and weight (slots that show it)."""
        ranges = [range(n) for n in self.radix]
        for index, faces in enumerate(itertools.product(*ranges)):
            weight = 1
            for device, f in zip(self.devices, faces, strict=True):
                weight *= device.weights[f]
            outcome = tuple(d.faces[f] for d, f in zip(self.devices, faces, strict=True))
            yield index, outcome, weight

    @cached_property
    def outcome_list(self) -> list[Outcome]:
        return [o for _, o, _ in self.outcomes()]

    def outcome_index(self, outcome: Outcome) -> int:
        index = 0
        for device, face, n in zip(self.devices, outcome, self.radix, strict=True):
            index = index * n + device.faces.index(face)
        return index

    def draw(self, rng: Rng) -> list[Draw]:
        """Draw every device once, recording the slot that came up."""
        out = []
        for device in self.devices:
            slot = rng.randbelow(len(device.slots))
            out.append(Draw(device.name, slot, device.slots[slot]))
        return out

    def draw_many(self, rng: Rng, size: int) -> npt.NDArray[np.int64]:
        """Outcome indices of ``size`` independent rounds (the batch path's draws)."""
        import numpy as np

        index = np.zeros(size, dtype=np.int64)
        for device, n in zip(self.devices, self.radix, strict=True):
            slots = rng.randbelow_many(len(device.slots), size)
            index = index * n + device.slot_face_index[slots]
        return index

    def outcome_of(self, draws: Sequence[Draw]) -> Outcome:
        """The outcome a list of recorded draws shows, checked against the devices."""
        if [d.device for d in draws] != [d.name for d in self.devices]:
            raise GameError(
                f"draws must be one each of {[d.name for d in self.devices]}, "
                f"got {[d.device for d in draws]}"
            )
        faces = []
        for device, draw in zip(self.devices, draws, strict=True):
            if not 0 <= draw.slot < len(device.slots) or device.slots[draw.slot] != draw.face:
                raise GameError(f"{device.name} has no slot {draw.slot} showing {draw.face!r}")
            faces.append(draw.face)
        return tuple(faces)

    def draws_for(self, outcome: Outcome) -> list[Draw]:
        """Draws showing ``outcome`` (the first slot with each face): a live dealer's input."""
        out = []
        for device, face in zip(self.devices, outcome, strict=True):
            if face not in device.slots:
                raise GameError(f"{device.name} cannot show {face!r}")
            out.append(Draw(device.name, device.slots.index(face), face))
        return out
