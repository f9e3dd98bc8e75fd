"""The table layer: one round record, and what every family of tables does with it.

A table on the platform runs a game of :data:`pelisali.engine.GAMES` through the engine
contract (:mod:`pelisali.engine.contract`) and keeps the wallet. What a round was is
its **record** (:class:`RoundRecord`, version 2): the game's id and settings, who sat in
each of the engine's seats, what the round started from (a card table's persistent
shoe; a poker hand's stacks and button; a wheel's bets carried in from prison), the
contract's history as ``{actor, text}`` moves, its status and its settlements. The
state of a round is never stored: it is :func:`rebuild` from the record, through
:func:`pelisali.engine.replay`, whenever it is needed, so a round survives any restart
in the state its last committed record left it (GGPoker house rules 2.1).

A **family** (:class:`Family`: the card tables now; the wager rounds and poker hands
next) tells the layer how to make its engine from a record, where its rounds start, how
the engine's settlements read at the table, what the record shows besides its history
(``cards``, ``decisions``: written for readers, never read back as the truth, and
checked by :func:`recall`) and how its version-1 records read.

**Money.** The contract's :meth:`~pelisali.engine.contract.State.returns` is each seat's
net gain; a ledger books stakes and payouts as separate transfers, so :func:`flows`
splits a step's change into what each seat staked and what it was paid (the payouts
come from the family), and :func:`stake_postings` / :func:`payout_postings` turn those
into :class:`~pelisali.platform.ledger.Posting` values that :func:`book` writes (a stake
through :func:`pelisali.platform.accounts.stake`, with the responsible-gaming checks).
:func:`party_moves` maps :meth:`~pelisali.engine.contract.State.accounts` onto ledger
accounts, and :func:`check_postings` refuses a batch that does not move exactly that.

**Records.** :func:`write_record` writes JSON (keys sorted); :func:`read_record` reads
version 2, and a version-1 record (no ``version``: the free-form JSON the tables wrote
before) through its family's :meth:`Family.upgrade`.

>>> record = RoundRecord(game="roulette-C", round_id=7, table="r-1", status="settled",
...                      players=["ann"], history=[MoveRecord(actor=0, text="bet red 500"),
...                                                MoveRecord(actor=0, text="done"),
...                                                MoveRecord(actor=-1, text="3")])
>>> text = write_record(record, {"result": "3"})
>>> read_record(text) == record, json.loads(text)["version"], json.loads(text)["result"]
(True, 2, '3')
>>> from pelisali.engine import GAMES
>>> class Wheel(Family):
...     def game(self, record): return GAMES[record.game]
...     def settlements(self, state, record): return []
...     def paid(self, state): return tuple(max(r, 0) * 2 for r in state.returns())
>>> state = rebuild(record, Wheel())
>>> state.is_terminal(), state.returns()
(True, (500,))
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.orm import Session

from pelisali.engine import CHANCE, ChanceOutcome, Game, IllegalMove, Move, Seats, State
from pelisali.engine import replay as replay_history
from pelisali.games.round import Settlement
from pelisali.platform import accounts
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import LedgerError, Posting
from pelisali.rng import Rng

__all__ = [
    "BANK",
    "RECORD_VERSION",
    "Family",
    "Flow",
    "HeldMove",
    "LimitsRecord",
    "MoveRecord",
    "PrisonBetRecord",
    "RecallResult",
    "RecordError",
    "RoundRecord",
    "SettlementRecord",
    "book",
    "cards_of",
    "check_postings",
    "check_shoe",
    "draw_outcome",
    "flows",
    "party_moves",
    "payout_postings",
    "read_record",
    "rebuild",
    "recall",
    "record_version",
    "stake_postings",
    "write_record",
]

RECORD_VERSION: Final = 2
VENUE: Final = "pelisali"
BANK: Final = "house:bank"


class RecordError(LedgerError):
    """A round record that cannot be read, or whose history does not replay."""


# -- the record ------------------------------------------------------------------------------
class MoveRecord(BaseModel):
    """One move of the contract's history: ``actor`` a seat or ``-1`` (chance) and the
    action as text (``"hit"``, ``"bet banker 1000"``, a card ``"Kd"``).

    >>> from pelisali.engine.blackjack import Double
    >>> MoveRecord.of(Move(0, Double(500)))
    MoveRecord(actor=0, text='double 500')
    """

    model_config = ConfigDict(frozen=True)

    actor: int
    text: str

    @classmethod
    def of(cls, move: Move) -> MoveRecord:
        return cls(actor=move.actor, text=move.action.text())

    def move(self, parser: State) -> Move:
        """The typed move; a seat's text is read by ``parser`` (any state of the round:
        :meth:`~pelisali.engine.contract.State.parse_action` does not depend on where the
        round is in any engine)."""
        if self.actor == CHANCE:
            return Move(CHANCE, ChanceOutcome(self.text))
        return Move(self.actor, parser.parse_action(self.text))


class HeldMove(BaseModel):
    """A move a seat sent before its turn, held until the turn it answers (``turn``, the
    family's name for it: ``"box 3"``) comes; it is then applied as the seat's move."""

    model_config = ConfigDict(frozen=True)

    actor: int
    text: str
    turn: str


class LimitsRecord(BaseModel):
    """The table limits the round was played under, in cents."""

    model_config = ConfigDict(frozen=True)

    min: int
    max: int


class PrisonBetRecord(BaseModel):
    """A wheel's bet that stands in prison at the start of the round, carried in from an
    earlier one: the table's number of the bet in this round, the engine seat of its
    owner, the spot, the stake (taken when the bet was first placed) and the prison level."""

    model_config = ConfigDict(frozen=True)

    number: int
    seat: int
    spot: str
    stake: int
    level: int


class SettlementRecord(BaseModel):
    """How one bet ended, as the table reads the engine's settlement: the table's bet
    number, the player's name, the spot, whole cents paid back (stake included), the
    part of a cent the house kept (``"numerator/denominator"``) and the result. The same
    JSON as :meth:`pelisali.games.round.Settlement.to_json`."""

    model_config = ConfigDict(frozen=True)

    bet_id: int
    player: str
    spot: str
    stake: int
    paid: int
    rounding: str
    result: str
    held_level: int = 0

    @classmethod
    def of(cls, settlement: Settlement) -> SettlementRecord:
        return cls(**settlement.to_json())

    def settlement(self) -> Settlement:
        return Settlement(self.bet_id, self.player, self.spot, self.stake, self.paid,
                          Fraction(self.rounding), self.result, self.held_level)


class RoundRecord(BaseModel):
    """A round or hand as the platform keeps it (version 2).

    The truth is ``history`` from the start the other fields describe; everything else a
    family writes beside it (:meth:`Family.derived`) is for readers. Fields:

    - ``game``: a :data:`~pelisali.engine.GAMES` id; ``settings`` and ``limits`` make the
      engine (:meth:`Family.game`).
    - ``players``: the player in each of the engine's seats, seat 0 first; ``stacks`` and
      ``button`` (poker) complete :class:`~pelisali.engine.Seats`.
    - ``bet_numbers``: the table's number of each bet, in the order the history places
      them, where the table numbers bets otherwise than the engine (empty: the same).
    - ``prison`` (wheels and dice): the bets carried in from prison that the round starts
      from, each with the table's number (the engine numbers them first, in this order);
      ``draw_slots``: the physical slot of each chance outcome (a money wheel's segment).
    - ``history``: the contract's moves; ``ahead``: moves sent before their turn.
    - ``status``, ``settlements``, ``rounding`` (the sum of the settlements' fractions of
      a cent), ``void_reason``.
    - The persistent shoe, where the round was dealt from one: ``shuffle_order`` (the
      whole shuffled order, two characters a card, as dealt), ``shuffle`` (that shuffle's
      number at the table), ``burned``, ``shoe_positions`` (where the round's first card
      was, and where the next card is), ``last_hand_before_shuffle`` (the cut card came
      out), ``stacked`` (a live dealer's cards put on top).
    - ``poker``: a poker hand's side of the table (the table's hand number and seats, the
      bad-beat jackpot, the result: finishing stacks, rake, jackpot drop and shares), as
      :class:`pelisali.platform.poker_family.PokerHandRecord` reads it.
    """

    model_config = ConfigDict(frozen=True, extra="ignore")

    version: Literal[2] = RECORD_VERSION
    game: str
    round_id: int
    table: str
    venue: str = VENUE
    mode: str = "rng"
    opened_at: str | None = None
    status: RoundStatus
    settings: dict[str, str | bool] = Field(default_factory=dict)
    limits: LimitsRecord | None = None
    players: list[str] = Field(default_factory=list)
    stacks: list[int] = Field(default_factory=list)
    button: int = 0
    bet_numbers: list[int] = Field(default_factory=list)
    prison: list[PrisonBetRecord] = Field(default_factory=list)
    draw_slots: list[int] = Field(default_factory=list)
    history: list[MoveRecord] = Field(default_factory=list)
    ahead: list[HeldMove] = Field(default_factory=list)
    settlements: list[SettlementRecord] = Field(default_factory=list)
    rounding: str = "0/1"
    void_reason: str | None = None
    shuffle: int | None = None
    shuffle_order: str | None = None
    burned: list[str] | None = None
    shoe_positions: list[int] | None = None
    last_hand_before_shuffle: bool = False
    stacked: list[str] | None = None
    poker: dict[str, Any] | None = None

    def engine_key(self) -> tuple[str, str, int | None, int | None]:
        """What the families' cached engines are made from: the game, the settings as
        sorted JSON, the limits' minimum and maximum (None: the rule file's)."""
        limits = self.limits
        return (self.game, json.dumps(self.settings, sort_keys=True),
                None if limits is None else limits.min, None if limits is None else limits.max)

    def seats(self) -> Seats:
        """The engine's seats: one a player, with the chips they brought (poker)."""
        return Seats(len(self.players), tuple(self.stacks), self.button)

    def with_state(self, state: State, **changes: Any) -> RoundRecord:
        """This record with ``state``'s history (and ``changes``)."""
        return self.model_copy(update={"history": [MoveRecord.of(m) for m in state.history],
                                       **changes})

    def dealt(self) -> list[str]:
        """The chance outcomes of the history, in order (a card game: its cards)."""
        return [m.text for m in self.history if m.actor == CHANCE]

    def shoe_left(self) -> Counter[str] | None:
        """The cards the persistent shoe held when the round began; None without a shoe."""
        if self.shuffle_order is None or self.shoe_positions is None:
            return None
        return Counter(cards_of(self.shuffle_order)[self.shoe_positions[0]:])


def cards_of(order: str) -> list[str]:
    """A shoe's order as its cards.

    >>> cards_of("AsKd9c")
    ['As', 'Kd', '9c']
    """
    return [order[i:i + 2] for i in range(0, len(order), 2)]


def record_version(data: Mapping[str, Any]) -> int:
    """The version of a record's JSON: 1 when it says none (the tables' free-form JSON)."""
    version = data.get("version", 1)
    if isinstance(version, bool) or not isinstance(version, int):
        raise RecordError(f"a record's version is a whole number, not {version!r}")
    return version


def write_record(record: RoundRecord, derived: Mapping[str, Any] | None = None) -> str:
    """The record as JSON, keys sorted, with the family's ``derived`` fields beside it."""
    data = record.model_dump(mode="json")
    clash = set(derived or {}) & set(data)
    if clash:
        raise RecordError(f"derived fields may not replace the record's: {sorted(clash)}")
    data.update(derived or {})
    return json.dumps(data, sort_keys=True)


def read_record(text: str | Mapping[str, Any], family: Family | None = None) -> RoundRecord:
    """A record from its JSON (or the parsed JSON): version 2 as it is, version 1 through
    ``family``'s :meth:`Family.upgrade`."""
    try:
        data = json.loads(text) if isinstance(text, str) else dict(text)
    except ValueError as exc:
        raise RecordError(f"the record is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    version = record_version(data)
    if version == 1:
        if family is None:
            raise RecordError("a version-1 record is read by its family")
        return family.upgrade(data)
    if version != RECORD_VERSION:
        raise RecordError(f"record version {version}: this server reads 1 and {RECORD_VERSION}")
    try:
        return RoundRecord.model_validate(data)
    except ValidationError as exc:
        raise RecordError(f"the record is not a version-{RECORD_VERSION} record: "
                          f"{exc.errors()[0]['loc']} {exc.errors()[0]['msg']}") from None


# -- families, rebuilding, recall -----------------------------------------------------------
class Family(ABC):
    """What the table layer needs to know of a family of games."""

    @abstractmethod
    def game(self, record: RoundRecord) -> Game:
        """The engine of ``record``'s game with its settings and limits."""

    def start(self, record: RoundRecord) -> State:
        """The state the round began in, before its history: by default the game's new
        state for the record's seats. A card table's round starts from its shoe."""
        return self.game(record).new_state(record.seats())

    @abstractmethod
    def settlements(self, state: State, record: RoundRecord) -> list[SettlementRecord]:
        """The engine's settlements of ``state`` as the table records them."""

    @abstractmethod
    def paid(self, state: State) -> tuple[int, ...]:
        """What each seat has been paid back in ``state`` (stakes included): with
        :meth:`~pelisali.engine.contract.State.returns`, it splits a seat's net gain into
        stakes and payouts."""

    def derived(self, state: State, record: RoundRecord) -> dict[str, Any]:
        """What the record shows besides its history, for readers (``cards``, ...)."""
        return {}

    def upgrade(self, data: Mapping[str, Any]) -> RoundRecord:
        """A version-1 record of this family as version 2."""
        raise RecordError(f"no version-1 reader for {data.get('game', 'this game')!r}")

    def theoretical_rtp(self, game: str, variant: str, settings: Mapping[str, Any]
                        ) -> Mapping[str, Fraction] | None:
        """The exact return to player of each spot a table of ``game`` takes bets on,
        for the day report; None where the players' decisions or the pot decide it."""
        return None


def rebuild(record: RoundRecord, family: Family) -> State:
    """The state ``record``'s history leads to from where the round began, by
    :func:`pelisali.engine.replay`: how a round in play resumes and how it is recalled.
    :class:`RecordError` if the history does not replay."""
    try:
        start = family.start(record)
        moves = [m.move(start) for m in record.history]
        return replay_history(start.game, record.seats(), moves, start=start)
    except IllegalMove as exc:
        raise RecordError(str(exc)) from None


def check_shoe(record: RoundRecord) -> str | None:
    """Whether the round's chance outcomes are the cards its shoe held where the round was
    dealt (None: they are, or the round was dealt from no recorded shoe)."""
    if not record.shuffle_order or not record.shoe_positions:
        return None
    start, end = record.shoe_positions
    if cards_of(record.shuffle_order)[start:end] != record.dealt():
        return "the round's cards are not the shoe's"
    return None


@dataclass(frozen=True)
class RecallResult:
    """A recorded round replayed: the settlements as recorded and as replayed (JSON), and
    the problem when the record does not replay or does not agree with itself."""

    recorded: list[dict[str, Any]]
    replayed: list[dict[str, Any]]
    problem: str | None = None

    @property
    def same(self) -> bool:
        return self.problem is None and self.recorded == self.replayed


def recall(text: str, family: Family) -> RecallResult:
    """Replay a finished round from its record and compare its settlements; the cards are
    checked against the shoe the record names, and a version-2 record's derived fields
    against its history. A void round has nothing to replay."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        return RecallResult([], [], f"the record is not JSON: {exc}")
    recorded = list(data.get("settlements", [])) if isinstance(data, dict) else []
    if isinstance(data, dict) and (data.get("status") == RoundStatus.VOID
                                   or data.get("void_reason")):
        return RecallResult(recorded, [])
    replayed: list[dict[str, Any]] = []
    try:
        record = read_record(data, family)
        state = rebuild(record, family)
        replayed = [s.model_dump() for s in family.settlements(state, record)]
        if not state.is_terminal():
            return RecallResult(recorded, replayed,
                                "the record does not replay: the history does not finish the "
                                "round")
        problem = check_shoe(record)
        if problem is None and record_version(data) >= RECORD_VERSION:
            derived = json.loads(json.dumps(family.derived(state, record)))
            wrong = sorted(key for key, value in derived.items() if data.get(key) != value)
            if wrong:
                problem = f"the record's {', '.join(wrong)} are not its history's"
    except (RecordError, IllegalMove, ValidationError, KeyError, TypeError, ValueError) as exc:
        problem = f"the record does not replay: {exc}"
    return RecallResult(recorded, replayed, problem)


def draw_outcome(state: State, rng: Rng) -> ChanceOutcome:
    """Chance's next move at ``state``, drawn by ``rng`` by the weights the engine gives
    (:meth:`~pelisali.engine.contract.State.chance_weights`): a card by its count in the
    shoe, a reel stop by its weight.

    >>> from pelisali.engine import GAMES, Seats
    >>> from pelisali.rng import SeededRng
    >>> state = GAMES["red-dog"].new_state(Seats(1))
    >>> for move in ("bet ante 100", "done"):
    ...     state = state.apply(move).state
    >>> card = draw_outcome(state, SeededRng(1))
    >>> card in state.chance_weights()[0], state.can_come_up(card)
    (True, True)
    """
    outcomes, weights, total = state.chance_weights()
    pick, index = rng.randbelow(total), 0
    while pick >= weights[index]:
        pick -= weights[index]
        index += 1
    return outcomes[index]


# -- money ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Flow:
    """A seat's money between two states of a round: what it put on the table (from its
    wallet) and what it was paid back (to its wallet)."""

    staked: int
    paid: int


def flows(before: State, after: State, paid: Callable[[State], Sequence[int]]
          ) -> dict[int, Flow]:
    """Each seat's stakes and payouts from ``before`` to ``after`` (seats that moved money
    only): the change of :meth:`~pelisali.engine.contract.State.returns` split with the
    family's ``paid``. :class:`RecordError` if money went where it cannot."""
    out: dict[int, Flow] = {}
    was, now = before.returns(), after.returns()
    paid_before, paid_after = paid(before), paid(after)
    for seat, (old, new) in enumerate(zip(was, now, strict=True)):
        back = paid_after[seat] - paid_before[seat]
        staked = back - (new - old)
        if staked < 0 or back < 0:
            raise RecordError(f"seat {seat}: the engine took back {-min(staked, back)} "
                              f"cents it had not moved")
        if staked or back:
            out[seat] = Flow(staked, back)
    return out


def party_moves(before: State, after: State, ledger: Mapping[str, str]) -> dict[str, int]:
    """The change of :meth:`~pelisali.engine.contract.State.accounts` from ``before`` to
    ``after``, each party (``seat 0``, ``house``, ``table``, ``fee``, ...) booked to its
    ledger account by ``ledger`` (several parties may share one); accounts that do not
    move are left out. :class:`RecordError` if the engine made or lost money or moved a
    party ``ledger`` does not name."""
    out: dict[str, int] = {}
    was, now = before.accounts(), after.accounts()
    for state in (before, after):
        if sum(state.accounts().values()) != 0:
            raise RecordError("the engine's accounts do not sum to zero")
    for party in set(was) | set(now):
        change = now.get(party, 0) - was.get(party, 0)
        if not change:
            continue
        if party not in ledger:
            raise RecordError(f"{party} moved {change} cents and has no ledger account")
        code = ledger[party]
        out[code] = out.get(code, 0) + change
    return {code: change for code, change in out.items() if change}


def stake_postings(moved: Mapping[int, Flow], players: Sequence[str],
                   key: Callable[[int], str], reason: Callable[[int], str],
                   round_id: int | None, house: str = BANK) -> list[Posting]:
    """A ``stake`` transfer from the wallet to ``house`` for each seat that staked."""
    return [Posting(key(seat), accounts.wallet_code(players[seat]), house, flow.staked,
                    "stake", reason(seat), round_id)
            for seat, flow in sorted(moved.items()) if flow.staked]


def payout_postings(settlements: Iterable[SettlementRecord], key: Callable[[int], str],
                    reason: Callable[[SettlementRecord], str], round_id: int | None,
                    kind: str = "win", house: str = BANK) -> list[Posting]:
    """A transfer from ``house`` to the wallet for each settlement that paid anything,
    keyed by its bet (``key(bet_id)``)."""
    return [Posting(key(s.bet_id), house, accounts.wallet_code(s.player), s.paid, kind,
                    reason(s), round_id)
            for s in settlements if s.paid]


def check_postings(postings: Iterable[Posting], expected: Mapping[str, int]) -> None:
    """Refuse (:class:`RecordError`) postings whose net change of each account is not
    ``expected`` (what :func:`party_moves` or :func:`flows` says the engine moved)."""
    net: dict[str, int] = {}
    for p in postings:
        net[p.source] = net.get(p.source, 0) - p.amount
        net[p.target] = net.get(p.target, 0) + p.amount
    got = {code: change for code, change in net.items() if change}
    want = {code: change for code, change in expected.items() if change}
    if got != want:
        raise RecordError(f"the ledger would move {got}; the engine moved {want}")


def book(session: Session, postings: Iterable[Posting], actor: str = "system") -> None:
    """Write postings to the ledger, each as its own keyed transfer (a retry is applied
    once): a stake through :func:`pelisali.platform.accounts.stake`, which checks the
    player's status and loss limits first; anything paid to a wallet through
    :func:`pelisali.platform.accounts.pay`."""
    for p in postings:
        if p.kind == "stake" and p.source.startswith("player:"):
            accounts.stake(session, p.source.removeprefix("player:"), p.amount, key=p.key,
                           reason=p.reason, round_id=p.round_id, house=p.target)
        elif p.target.startswith("player:"):
            accounts.pay(session, p.target.removeprefix("player:"), p.amount, key=p.key,
                         kind=p.kind, reason=p.reason, round_id=p.round_id, house=p.source)
        else:
            raise RecordError(f"{p.key}: book moves money to and from players' wallets; "
                              f"post {p.source} -> {p.target} with the ledger")

