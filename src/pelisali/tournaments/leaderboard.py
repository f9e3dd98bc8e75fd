"""Table-game and slot tournaments: a leaderboard of tournament chips (RULINGS Tournaments).

Every entry starts with the same tournament chips (slot credits) and plays its own
rounds of one game, a wheel, a card table or a slot: a fixed number of rounds or
spins, a time limit, or both, each round staking between the least and the most a
round. The largest stacks at the end win the announced prizes; equal stacks tie and
share the prizes of the places they cover (:func:`~pelisali.tournaments.prizes.award`).

A round is the game's own: it is played through the game's engine under the
contract (:mod:`pelisali.engine`), its chance drawn from the tournament's injected
generator (or entered, as a live dealer or a test does), and the entry's chips change
by that round's :meth:`~pelisali.engine.State.returns` and by nothing else. The
tournament reads no clock: the caller tells it the elapsed seconds
(:meth:`LeaderboardTournament.tick`). Money is not its business either: it reports the
entries, the prize pool and the prizes, which the wallet books (tournament chips are
never money).

The choices where the rules are silent:

- the tournament's limits hold for a round's bets together (all the spots of a wheel,
  all the boxes of a blackjack round, a slot's lines times credits a line); a blackjack
  double, split or insurance needs only the chips, not the limit;
- a blackjack round is dealt from a fresh shoe (each round shuffled anew, as an RNG
  table is) and en prison is not played (a round settles in the round);
- an entry is out when its chips are below the least bet; a re-entry is a new entry
  with its own place on the leaderboard, made once the player's last entry is out or
  has played its rounds, while registration is open;
- at the time limit no round starts; one under way may be finished, and when the
  tournament is closed any hand still open stands (insurance declined), as an absent
  poker player's hand is folded when the action timer ends.

>>> from pelisali.rng import SeededRng
>>> t = LeaderboardTournament(LeaderboardSettings.from_rules(
...     "roulette-sprint", name="Demo", rounds=2, buy_in=1000, fee=100))
>>> for name in ("ann", "bob"):
...     _ = t.register(name)
>>> t.start(SeededRng(1))
>>> t.play("ann", ["bet red 1000"], draws=["3"]).chips     # 3 is red: 1:1
11000
>>> t.play("ann", ["bet straight 17 100"], draws=["17"]).chips   # 35:1
14500
>>> t.play("bob", ["bet black 2500"], draws=["0"]).chips
7500
>>> t.play("bob", ["bet even 100"], draws=["2"]).chips
7600
>>> t.status, t.leaderboard()
('finished', [(1, 'ann', 14500), (2, 'bob', 7600)])
>>> t.prizes()
{'ann': 2000, 'bob': 0}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal

from pelisali.engine import GAMES, Game, IllegalMove, Seats, State, sample_chance
from pelisali.engine.blackjack import BlackjackEngine, BlackjackState, Insure, Stand
from pelisali.engine.slots import SlotState
from pelisali.engine.wager import EndBetting, WagerEngine, WagerState, with_settings
from pelisali.games.base import GameError
from pelisali.games.blackjack_rules import BlackjackConfig
from pelisali.games.round import Limits
from pelisali.rng import Rng
from pelisali.rules.loader import RuleDataError
from pelisali.rules.tournaments import load_leaderboard, load_payouts
from pelisali.tournaments.poker import TournamentError
from pelisali.tournaments.prizes import PrizePool, award, place_prizes, places_of, prize_pool

EntryKind = Literal["freezeout", "re-entry"]
Status = Literal["registering", "running", "finished", "cancelled"]
FAMILIES = ("wager", "blackjack", "slot")
"""The engine families a leaderboard tournament plays: wheels and dice, blackjack, slots."""


@dataclass(frozen=True)
class LeaderboardSettings:
    """What a table-game or slot tournament announces before it starts. Amounts are cents;
    chips are tournament chips.

    ``rounds``: the rounds (spins) each entry plays, 0 for no fixed number; ``seconds``:
    the time limit from the start, 0 for none (one of them at least). ``min_bet`` and
    ``max_bet``: the least and most a round's bets stake together. ``entry``: a
    ``freezeout`` enters once; ``re-entry`` lets a player whose entry is out or has
    played its rounds enter again while registration is open, ``max_entries`` in all.
    Registration closes at the start, or ``late_registration_seconds`` after it.
    """

    name: str
    game: str  # a game id of the engine registry: roulette-C, blackjack, slot-fruit, ...
    starting_chips: int
    min_bet: int
    max_bet: int
    rounds: int = 0
    seconds: int = 0
    game_settings: dict[str, str] = field(default_factory=dict)
    capacity: int = 1000
    min_players: int = 2
    buy_in: int = 0  # the prize part of an entry, in cents
    fee: int = 0  # the house's part of an entry, in cents
    guarantee: int = 0  # the least prize pool; the house pays any overlay
    entry: EntryKind = "freezeout"
    max_entries: int = 1
    late_registration_seconds: int = 0
    payouts: str = "standard"
    max_entry_fee: int = 0  # the most an entry may cost, buy-in and fee (RAY 10.3); 0: none
    structure: str = ""  # the rule data the tournament was made from, if any

    def __post_init__(self) -> None:
        numbers = (
            self.starting_chips,
            self.min_bet,
            self.max_bet,
            self.rounds,
            self.seconds,
            self.capacity,
            self.min_players,
            self.buy_in,
            self.fee,
            self.guarantee,
            self.max_entries,
            self.late_registration_seconds,
            self.max_entry_fee,
        )
        if any(isinstance(n, bool) or not isinstance(n, int) for n in numbers):
            raise TournamentError("chips, bets, rounds, seconds and amounts are whole numbers")
        checks = (
            (bool(self.name) and len(self.name) <= 80, "a tournament's name is 1 to 80 characters"),
            (self.starting_chips > 0, "starting chips must be positive"),
            (0 < self.min_bet <= self.max_bet, "bets: 0 < min_bet <= max_bet"),
            (self.min_bet <= self.starting_chips, "min_bet is above the starting chips"),
            (
                min(self.rounds, self.seconds) >= 0 and (self.rounds or self.seconds) > 0,
                "a tournament needs a number of rounds, a time limit or both",
            ),
            (2 <= self.capacity <= 100_000, "capacity: 2 to 100,000 entries"),
            (2 <= self.min_players <= self.capacity, "min_players: 2 to the capacity"),
            (
                min(self.buy_in, self.fee, self.guarantee, self.max_entry_fee) >= 0,
                "buy-in, fee, guarantee and the largest entry fee cannot be negative",
            ),
            (
                not self.max_entry_fee or self.buy_in + self.fee <= self.max_entry_fee,
                f"an entry costs at most {self.max_entry_fee} cents (RAY 10.3), not "
                f"{self.buy_in + self.fee}",
            ),
            (self.max_entries >= 1, "max_entries is at least 1"),
            (
                self.entry == "re-entry" or self.max_entries == 1,
                "more than one entry a player needs entry = 're-entry'",
            ),
            (self.late_registration_seconds >= 0, "late registration cannot be negative"),
            (
                not self.seconds or self.late_registration_seconds < self.seconds,
                "late registration ends before the time limit",
            ),
        )
        for ok, message in checks:
            if not ok:
                raise TournamentError(message)
        if not isinstance(self.game_settings, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in self.game_settings.items()
        ):
            raise TournamentError("game settings are names and values, as text")
        try:
            load_payouts(self.payouts)
        except RuleDataError as exc:
            raise TournamentError(str(exc)) from None
        engine = make_engine(self)
        if engine.family == "slot" and self.game_settings:
            raise TournamentError(f"{self.game} takes no settings")

    @classmethod
    def from_rules(cls, structure: str, **changes: Any) -> LeaderboardSettings:
        """Settings from the rule data ``structure`` (``roulette-sprint``, ...), with the
        tournament's own name, money and any change.

        >>> LeaderboardSettings.from_rules("blackjack-100", name="BJ").rounds
        100
        """
        try:
            rules = load_leaderboard(structure)
        except RuleDataError as exc:
            raise TournamentError(str(exc)) from None
        options: dict[str, Any] = {
            "game": rules.game,
            "game_settings": dict(rules.game_settings),
            "starting_chips": rules.starting_chips,
            "rounds": rules.rounds,
            "seconds": rules.seconds,
            "min_bet": rules.min_bet,
            "max_bet": rules.max_bet,
            "payouts": rules.payouts,
            "max_entry_fee": rules.max_entry_fee,
            "structure": structure,
        }
        options.update(changes)
        return cls(**options)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LeaderboardSettings:
        """Settings from :func:`dataclasses.asdict` data; unknown keys are refused."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise TournamentError(f"no tournament setting {', '.join(unknown)}")
        try:
            return cls(**data)
        except TypeError as exc:
            raise TournamentError(f"tournament settings: {exc}") from None

    @property
    def kind(self) -> Literal["table", "slot"]:
        """``slot`` for a slot tournament, ``table`` for a wheel, dice or card table."""
        return "slot" if make_engine(self).family == "slot" else "table"


def make_engine(settings: LeaderboardSettings) -> Game:
    """The game's engine with the tournament's table settings and limits.

    >>> make_engine(LeaderboardSettings.from_rules("blackjack-100", name="BJ")).limits
    Limits(minimum=1, maximum=1000)
    >>> make_engine(LeaderboardSettings.from_rules("roulette-sprint", name="R", game="poker"))
    Traceback (most recent call last):
    ...
    pelisali.tournaments.poker.TournamentError: no game 'poker' for a leaderboard ...
    """
    engine = GAMES.get(settings.game)
    if engine is None or engine.family not in FAMILIES:
        playable = [g for g, e in GAMES.items() if e.family in FAMILIES]
        raise TournamentError(
            f"no game {settings.game!r} for a leaderboard tournament; games: {', '.join(playable)}"
        )
    # The tournament's limits hold for a round's bets together (checked here); the
    # engine's own per-spot limits are opened up to them.
    limits = Limits(1, settings.max_bet)
    try:
        if isinstance(engine, WagerEngine):
            if settings.game_settings:
                engine = with_settings(engine, settings.game_settings)
            if getattr(engine.wager, "zero_rule", None) in ("prison", "both"):
                raise TournamentError(
                    f"{settings.game}: en prison carries bets into the next "
                    "round; a tournament plays la partage (zero_rule = "
                    "'la_partage')"
                )
            return engine
        if isinstance(engine, BlackjackEngine):
            return BlackjackEngine(
                engine.game_id, BlackjackConfig.from_settings(settings.game_settings), limits
            )
    except GameError as exc:
        raise TournamentError(str(exc)) from None
    return engine


@dataclass
class Entry:
    """One buy-in of a player: its chips, the rounds it has played, what it staked and won
    back, and the moves of the round it has in play (``[actor, text]``, chance -1)."""

    entry_id: str
    player: str
    number: int  # the player's first entry is 1, a re-entry 2, ...
    chips: int
    rounds: int = 0
    staked: int = 0
    paid: int = 0
    round_moves: list[list[Any]] | None = None
    last_round: list[list[Any]] | None = None


@dataclass(frozen=True)
class Played:
    """What a request to play did: the entry's round (``round`` from 1), the chips it
    staked and got back so far, the moves (``[actor, text]``), whether it is over, and the
    entry's chips after it. An open round waits for the decision ``actions`` lists."""

    entry_id: str
    round: int
    staked: int
    paid: int
    moves: tuple[tuple[int, str], ...]
    over: bool
    chips: int
    actions: tuple[str, ...] = ()
    view: dict[str, Any] = field(default_factory=dict)


@dataclass
class LeaderboardTournament:
    """A table-game or slot tournament from registration to the prizes; see the module's
    doctest."""

    settings: LeaderboardSettings
    status: Status = "registering"
    entries: dict[str, Entry] = field(default_factory=dict)
    elapsed: int = 0
    _rng: Rng | None = None
    _open: dict[str, State] = field(default_factory=dict)  # rounds in play, by entry

    def __post_init__(self) -> None:
        self.engine = make_engine(self.settings)

    # -- registration ------------------------------------------------------------------
    @property
    def time_up(self) -> bool:
        return bool(self.settings.seconds) and self.elapsed >= self.settings.seconds

    @property
    def registration_open(self) -> bool:
        """Before the start while there is room, or within late registration."""
        if len(self.entries) >= self.settings.capacity:
            return False
        if self.status == "registering":
            return True
        return (
            self.status == "running"
            and not self.time_up
            and self.elapsed < self.settings.late_registration_seconds
        )

    def register(self, player: str) -> Entry:
        """Enter ``player``; a re-entry once the player's last entry is out or done."""
        if not isinstance(player, str) or not player or len(player) > 64 or "#" in player:
            raise TournamentError("a player's name is 1 to 64 characters, without '#'")
        if not self.registration_open:
            raise TournamentError("registration is closed")
        own = [e for e in self.entries.values() if e.player == player]
        if any(self.why_not_playing(e) is None or e.entry_id in self._open for e in own):
            raise TournamentError(f"{player} is already in the tournament")
        if len(own) >= self.settings.max_entries:
            raise TournamentError(
                f"{player} has made every entry allowed ({self.settings.max_entries})"
            )
        number = len(own) + 1
        entry_id = player if number == 1 else f"{player}#{number}"
        entry = Entry(entry_id, player, number, self.settings.starting_chips)
        self.entries[entry_id] = entry
        return entry

    def unregister(self, player: str) -> Entry:
        """Take back a registration before the start (the caller refunds it)."""
        if self.status != "registering":
            raise TournamentError("a player can unregister only before the start")
        entry = self.entries.pop(player, None)
        if entry is None:
            raise TournamentError(f"{player} is not registered")
        return entry

    def start(self, rng: Rng) -> None:
        """Start the clock (elapsed 0); the rounds draw their chance from ``rng``."""
        if self.status != "registering":
            raise TournamentError(f"the tournament is {self.status}")
        if len(self.entries) < self.settings.min_players:
            raise TournamentError(
                f"{len(self.entries)} entries: the tournament needs {self.settings.min_players}"
            )
        self._rng = rng
        self.status = "running"
        self.elapsed = 0

    def tick(self, elapsed: int) -> None:
        """Tell the tournament its elapsed seconds (never backwards). At the time limit,
        or once registration is closed and every entry is done, it finishes (a round
        still in play first waits for its decisions or :meth:`finish`)."""
        if isinstance(elapsed, bool) or not isinstance(elapsed, int) or elapsed < 0:
            raise TournamentError(f"elapsed seconds are a whole number, 0 or more: {elapsed!r}")
        if elapsed < self.elapsed:
            raise TournamentError("the tournament clock does not run backwards")
        self.elapsed = elapsed
        self._maybe_finish()

    # -- play ----------------------------------------------------------------------------
    def entry(self, entry_id: str) -> Entry:
        found = self.entries.get(entry_id)
        if found is None:
            raise TournamentError(f"{entry_id!r} is not in the tournament")
        return found

    def why_not_playing(self, entry: Entry) -> str | None:
        """Why ``entry`` cannot start a round (it may still finish one in play), or None."""
        if self.settings.rounds and entry.rounds >= self.settings.rounds:
            return f"{entry.entry_id} has played all {self.settings.rounds} rounds"
        if entry.chips < self.settings.min_bet:
            return (
                f"{entry.entry_id} has {entry.chips} chips, under the least bet "
                f"{self.settings.min_bet}: out"
            )
        return None

    def done(self, entry: Entry) -> bool:
        """Whether ``entry`` can play no more: out, or every round played."""
        return entry.entry_id not in self._open and self.why_not_playing(entry) is not None

    def bet_choices(self) -> list[tuple[str, tuple[int, ...]]]:
        """The bets a round may open with, as a page offers them: each bet in the game's
        words without its amount, and the amounts its legal actions name (a range's two
        ends, or a slot's levels), in the engine's order.

        >>> board = LeaderboardTournament(LeaderboardSettings.from_rules("blackjack-100",
        ...                                                               name="BJ"))
        >>> board.bet_choices()[0]
        ('bet box 1', (1, 1000))
        """
        found: dict[str, set[int]] = {}
        for action in self._new_round().legal_actions():
            bet, _, amount = action.text().rpartition(" ")
            if bet and amount.isdigit():
                found.setdefault(bet, set()).add(int(amount))
        return [(bet, tuple(sorted(amounts))) for bet, amounts in found.items()]

    def open_round(self, entry_id: str) -> State | None:
        """The round ``entry_id`` has in play, if any (a contract state)."""
        return self._open.get(entry_id)

    def play(
        self, entry_id: str, actions: Sequence[str], draws: Sequence[str] | None = None
    ) -> Played:
        """Start a round for ``entry_id`` with its bets, in the game's own words: ``bet
        SPOT CHIPS`` at a wheel, ``bet box N CHIPS`` at blackjack, ``spin LINES
        CREDITS`` at a slot. The bets are closed, chance is drawn (``draws``: the
        outcomes' labels in order, as a dealer enters them; else the tournament's
        generator), and the round is settled or waits for a decision (:meth:`decide`).
        A bet that is not allowed is refused and nothing changes."""
        self._need_running()
        if self.time_up:
            raise TournamentError("the time is up: no more rounds")
        entry = self.entry(entry_id)
        if entry_id in self._open:
            raise TournamentError(
                f"{entry_id} has a round in play: decide "
                f"({', '.join(self._actions(self._open[entry_id]))})"
            )
        why = self.why_not_playing(entry)
        if why is not None:
            raise TournamentError(why)
        if isinstance(actions, str) or not actions:
            raise TournamentError("a round needs its bets, a list of actions")
        state = self._new_round()
        for text in actions:
            if not isinstance(text, str):
                raise TournamentError(f"an action is text, not {text!r}")
            if state.to_move() != 0:
                raise TournamentError(f"{text!r}: the bets are closed")
            self._within_max(state, text)
            state = self._apply(state, text)
            self._afford(entry, state)
        if state.to_move() == 0 and EndBetting() in state.legal_actions():
            state = state.apply(EndBetting()).state
        stake = _stakes(state)
        if stake < self.settings.min_bet:
            raise TournamentError(
                f"a round stakes at least {self.settings.min_bet} chips, not {stake}"
            )
        if stake > self.settings.max_bet:
            raise TournamentError(
                f"a round stakes at most {self.settings.max_bet} chips, not {stake}"
            )
        return self._run(entry, state, draws)

    def decide(self, entry_id: str, action: str, draws: Sequence[str] | None = None) -> Played:
        """A decision in the round ``entry_id`` has in play (blackjack's ``hit``,
        ``stand``, ``double``, ``split``, ``insure N``), then chance as in :meth:`play`.
        A decision the round does not allow, or that the chips cannot pay, is refused and
        nothing changes. Allowed after the time limit: it finishes a round under way."""
        self._need_running()
        entry = self.entry(entry_id)
        state = self._open.get(entry_id)
        if state is None:
            raise TournamentError(f"{entry_id} has no round in play")
        if not isinstance(action, str):
            raise TournamentError(f"an action is text, not {action!r}")
        state = self._apply(state, action)
        self._afford(entry, state)
        return self._run(entry, state, draws)

    def finish(self) -> None:
        """Close the tournament at its end (the time limit, or every entry done): any hand
        still in play stands, insurance declined, and is settled with the generator's
        cards."""
        self._need_running()
        if not self.over():
            raise TournamentError(
                "the tournament is not over: entries still have rounds "
                "to play and the time is not up"
            )
        for entry_id in list(self._open):
            state = self._open[entry_id]
            while not state.is_terminal():
                if state.is_chance():
                    state = state.apply(sample_chance(state, self._need_rng())).state
                    continue
                legal = state.legal_actions()
                choice = next((a for a in (Insure(0), Stand(), EndBetting()) if a in legal), None)
                if choice is None:
                    raise TournamentError(
                        f"{entry_id}'s round cannot be closed: {', '.join(a.text() for a in legal)}"
                    )
                state = state.apply(choice).state
            self._settle(self.entries[entry_id], state)
        self.status = "finished"

    def over(self) -> bool:
        """Whether play is over: the time is up, or registration is closed and every entry
        is done."""
        if self.status != "running":
            return self.status == "finished"
        if self.time_up:
            return True
        return not self.registration_open and all(self.done(e) for e in self.entries.values())

    # -- the round, through the engine -------------------------------------------------------
    def _new_round(self) -> State:
        state = self.engine.new_state(Seats(1))
        if isinstance(state, WagerState):
            state = replace(state, limits=Limits(1, self.settings.max_bet))
        return state

    @staticmethod
    def _apply(state: State, text: str) -> State:
        try:
            return state.apply(text, seat=None if state.is_chance() else 0).state
        except (IllegalMove, GameError) as exc:
            raise TournamentError(str(exc)) from None

    def _within_max(self, state: State, text: str) -> None:
        """Refuse a bet that would take the round over the most a round stakes (a table
        would take the maximum and return the rest: a tournament refuses the bet)."""
        try:
            action = state.parse(text)
        except (IllegalMove, GameError) as exc:
            raise TournamentError(str(exc)) from None
        stake = getattr(action, "stake", None)
        if isinstance(stake, int) and _stakes(state) + stake > self.settings.max_bet:
            raise TournamentError(
                f"a round stakes at most {self.settings.max_bet} chips, "
                f"not {_stakes(state) + stake}"
            )

    def _afford(self, entry: Entry, state: State) -> None:
        staked = _stakes(state)
        if staked > entry.chips:
            raise TournamentError(
                f"{entry.entry_id} has {entry.chips} chips; the round would stake {staked}"
            )

    @staticmethod
    def _actions(state: State) -> list[str]:
        return [a.text() for a in state.legal_actions()]

    def _run(self, entry: Entry, state: State, draws: Sequence[str] | None) -> Played:
        """Draw chance until a decision or the end; then keep the round open or settle it.
        Nothing is kept unless every draw fits."""
        queue = list(draws) if draws is not None else None
        while state.is_chance():
            if queue is None:
                state = state.apply(sample_chance(state, self._need_rng())).state
            elif not queue:
                raise TournamentError("more draws are needed: the round is not over")
            else:
                state = self._apply(state, queue.pop(0))
        if queue:
            raise TournamentError(f"{len(queue)} draws left over: the round needs fewer")
        if state.is_terminal():
            self._open.pop(entry.entry_id, None)
            self._settle(entry, state)
            self._maybe_finish()
            return self._played(entry, state, entry.rounds)
        self._open[entry.entry_id] = state
        entry.round_moves = _moves(state)
        return self._played(entry, state, entry.rounds + 1)

    def _settle(self, entry: Entry, state: State) -> None:
        stake = _stakes(state)
        change = state.returns()[0]
        entry.chips += change
        entry.staked += stake
        entry.paid += stake + change
        entry.rounds += 1
        entry.round_moves = None
        entry.last_round = _moves(state)
        self._open.pop(entry.entry_id, None)

    def _played(self, entry: Entry, state: State, number: int) -> Played:
        over = state.is_terminal()
        stake = _stakes(state)
        return Played(
            entry.entry_id,
            number,
            stake,
            stake + state.returns()[0] if over else 0,
            tuple((a, t) for a, t in _moves(state)),
            over,
            entry.chips,
            () if over else tuple(self._actions(state)),
            state.view(0),
        )

    def _maybe_finish(self) -> None:
        if self.status == "running" and not self._open and self.over():
            self.status = "finished"

    def _need_running(self) -> None:
        if self.status != "running":
            why = ": the time is up" if self.status == "finished" and self.time_up else ""
            raise TournamentError(f"the tournament is {self.status}{why}")

    def _need_rng(self) -> Rng:
        if self._rng is None:
            raise TournamentError("the tournament has no generator to draw from")
        return self._rng

    # -- the leaderboard and the prizes --------------------------------------------------------
    def standings(self) -> list[list[str]]:
        """The entries in groups of equal chips, the most chips first."""
        groups: dict[int, list[str]] = {}
        for entry in self.entries.values():
            groups.setdefault(entry.chips, []).append(entry.entry_id)
        return [groups[chips] for chips in sorted(groups, reverse=True)]

    def leaderboard(self) -> list[tuple[int, str, int]]:
        """``(place, entry, chips)``, the most chips first; equal chips share a place."""
        places = places_of(self.standings())
        return [(places[e], e, self.entries[e].chips) for group in self.standings() for e in group]

    def prize_pool(self) -> PrizePool:
        s = self.settings
        return prize_pool(len(self.entries), s.buy_in, s.guarantee)

    def payout_places(self) -> tuple[int, ...]:
        """The basis points of each paid place for this field."""
        places = load_payouts(self.settings.payouts).places_for(max(2, len(self.entries)))
        return places[: len(self.entries)]

    def place_prizes(self) -> tuple[int, ...]:
        return place_prizes(self.prize_pool().pool, self.payout_places())

    def places(self) -> dict[str, int]:
        return places_of(self.standings())

    def prizes(self) -> dict[str, int]:
        """Each entry's prize in cents, once the tournament is finished: tied stacks share
        the prizes of the places they cover."""
        if self.status != "finished":
            raise TournamentError("prizes are paid when the tournament is finished")
        return award(self.standings(), self.place_prizes())

    def cancel(self) -> dict[str, int]:
        """Cancel: each player's buy-ins and fees, in cents, to refund (RULINGS). Rounds in
        play are dropped: chips are not money."""
        if self.status in ("finished", "cancelled"):
            raise TournamentError(f"the tournament is {self.status}")
        owed: dict[str, int] = {}
        for entry in self.entries.values():
            owed[entry.player] = (
                owed.get(entry.player, 0) + self.settings.buy_in + self.settings.fee
            )
        self._open.clear()
        self.status = "cancelled"
        return owed

    def chip_problems(self) -> list[str]:
        """What does not add up in the chips: each entry's chips are its starting chips
        and what its rounds paid back, less what they staked."""
        problems = []
        for entry in self.entries.values():
            expected = self.settings.starting_chips + entry.paid - entry.staked
            if entry.chips != expected or entry.chips < 0:
                problems.append(
                    f"{entry.entry_id}: {entry.chips} chips, its rounds give {expected}"
                )
        return problems

    # -- a snapshot, for the record and for recovery ----------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The tournament as JSON-safe data; a round in play is kept as its moves, and
        replayed through the engine on :meth:`restore`."""
        for entry_id, state in self._open.items():
            self.entries[entry_id].round_moves = _moves(state)
        return {
            "status": self.status,
            "elapsed": self.elapsed,
            "entries": [asdict(e) for e in self.entries.values()],
        }

    @classmethod
    def restore(
        cls, settings: LeaderboardSettings, data: Mapping[str, Any], rng: Rng | None = None
    ) -> LeaderboardTournament:
        """The tournament of a :meth:`snapshot`, drawing from ``rng``."""
        t = cls(settings)
        t.status = data["status"]
        t.elapsed = data["elapsed"]
        t.entries = {e["entry_id"]: Entry(**e) for e in data["entries"]}
        t._rng = rng
        for entry in t.entries.values():
            if entry.round_moves:
                state = t._new_round()
                for actor, text in entry.round_moves:
                    if actor != state.to_move():
                        raise TournamentError(
                            f"{entry.entry_id}'s round does not replay: {text!r} by {actor}"
                        )
                    state = t._apply(state, text)
                t._open[entry.entry_id] = state
        return t


def _moves(state: State) -> list[list[Any]]:
    return [[m.actor, m.action.text()] for m in state.history]


def _stakes(state: State) -> int:
    """Everything the seat has staked in the round. No engine pays before the round is
    settled, so until then it is the return turned round; after, the settled stakes."""
    if not state.is_terminal():
        return -state.returns()[0]
    if isinstance(state, SlotState):
        return state.stake()
    if isinstance(state, WagerState | BlackjackState):
        return sum(s.stake for s in state.settlements)
    raise TournamentError(f"{state.game.game_id} is not a leaderboard game")


__all__ = [
    "FAMILIES",
    "Entry",
    "LeaderboardSettings",
    "LeaderboardTournament",
    "Played",
    "TournamentError",
    "make_engine",
]
