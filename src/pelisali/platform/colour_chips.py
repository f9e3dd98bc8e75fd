"""Colour chips at the wheel and dice tables (RAY 2016 1.2.1 Ruletti, 1.2.2 Boule, 1.3.2
Sic Bo, each under "Pelipanokset"; RULINGS "Colour chips").

Stakes are value chips or colour chips, which carry no printed value; a table takes
value chips only, colour chips only, or both (``GameTable.chips``; value only by
default, so a table plays as it always has). Money wheel (RAY 1.2.3) and Tuplanoppa
(1.3.1) take value chips only. A player buys a stack at a table: a colour of the
:data:`PALETTE` no other player at that table holds, the value of one chip within the
table's limits, and a number of chips. The money moves from the wallet to the stack's
account (``table:TABLE/chips:PLAYER``); while the stack is held every bet the player
places at that table is staked from it in whole chips, and is paid and refunded back
into it. The chips are only good at their table: another table never sees them. On
leaving, the stack is exchanged back to value chips: its whole balance goes to the
wallet.

>>> from datetime import date
>>> from pelisali.platform import accounts, rounds
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform.ledger import balance, check, move
>>> from pelisali.rng import SeededRng
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
...     _ = accounts.deposit(s, "ann", 10_000, key="d1")
...     _ = move(s, "fund", "external:owner", "house:bank", 1_000_000, "funding")
...     _ = rounds.create_table(s, "r-1", "roulette", "C", limit_min=100, limit_max=10_000)
...     _ = set_chips(s, "r-1", "colour", actor="staff")
...     buy(s, "r-1", "ann", "green", 200, 10, key="k1").chips
10
>>> with transaction(engine) as s:
...     balance(s, "player:ann"), balance(s, "table:r-1/chips:ann")
(8000, 2000)
>>> with transaction(engine) as s:
...     rounds.place_bet(s, "r-1", "ann", "red", 400, key="b1").accepted
400
>>> with transaction(engine) as s:
...     balance(s, "player:ann"), balance(s, "table:r-1/chips:ann")
(8000, 1600)
>>> with transaction(engine) as s:
...     exchange(s, "r-1", "ann", key="x1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pelisali.platform.colour_chips.ChipError: ann has bets standing at r-1: ... settled
>>> with transaction(engine) as s:
...     _ = rounds.settle(s, "r-1", SeededRng(2))
...     back = exchange(s, "r-1", "ann", key="x1")
...     balance(s, "table:r-1/chips:ann"), check(s).ok
(0, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from pelisali.money import format_cents
from pelisali.platform import accounts
from pelisali.platform.ledger import (
    LedgerError,
    Posting,
    append_audit,
    balance,
    now_utc,
    post,
)
from pelisali.platform.models import BetRow, ColourStack, GameTable, RoundRow, Transfer

CHIPS = ("value", "colour", "both")
# The games whose own section says value chips only.
VALUE_ONLY = {"money-wheel": "RAY 1.2.3", "tuplanoppa": "RAY 1.3.1"}
SECTIONS = {"roulette": "RAY 1.2.1", "boule": "RAY 1.2.2", "sic-bo": "RAY 1.3.2"}
# The colours a table's stacks are drawn from: name, (fi, sv, en), the layout's colour.
PALETTE: dict[str, tuple[tuple[str, str, str], str]] = {
    "red": (("punainen", "röd", "red"), "#c62828"),
    "blue": (("sininen", "blå", "blue"), "#1565c0"),
    "green": (("vihreä", "grön", "green"), "#2e7d32"),
    "yellow": (("keltainen", "gul", "yellow"), "#f9a825"),
    "purple": (("violetti", "lila", "purple"), "#6a1b9a"),
    "orange": (("oranssi", "orange", "orange"), "#ef6c00"),
    "pink": (("vaaleanpunainen", "rosa", "pink"), "#d81b60"),
    "brown": (("ruskea", "brun", "brown"), "#5d4037"),
}
MOST_CHIPS = 1_000  # chips bought at once
_STANDING = ("betting", "deciding")


class ChipError(LedgerError):
    """A colour-chip request refused; nothing changed."""


def account_code(table: str, player: str) -> str:
    """The ledger account of a player's colour chips at a table.

    >>> account_code("roulette-1", "ann")
    'table:roulette-1/chips:ann'
    """
    return f"table:{table}/chips:{player}"


@dataclass(frozen=True)
class Stack:
    """A player's colour chips at a table, as they stand."""

    table: str
    player: str
    colour: str
    unit: int  # cents a chip
    held: int  # cents in the stack's account

    @property
    def chips(self) -> int:
        return self.held // self.unit

    @property
    def change(self) -> int:
        """Cents under one chip (a payout paid down, half of a chip back): exchanged too."""
        return self.held % self.unit

    @property
    def code(self) -> str:
        return account_code(self.table, self.player)

    def to_json(self) -> dict[str, object]:
        names, shown = PALETTE[self.colour]
        return {"player": self.player, "colour": self.colour, "names": dict(
            zip(("fi", "sv", "en"), names, strict=True)), "css": shown, "unit": self.unit,
            "held": self.held, "chips": self.chips, "change": self.change}


def _table(session: Session, name: str, lock: bool = False) -> GameTable:
    query = select(GameTable).where(GameTable.name == name)
    if lock:
        query = query.with_for_update()
    table = session.scalars(query).one_or_none()
    if table is None:
        raise ChipError(f"no table {name!r}")
    return table


def _open_stacks(session: Session, table: GameTable) -> list[ColourStack]:
    return list(session.scalars(select(ColourStack).where(
        ColourStack.table_id == table.id, ColourStack.closed_at.is_(None))
        .order_by(ColourStack.id)))


def set_chips(session: Session, name: str, chips: str, actor: str) -> GameTable:
    """Staff set which chips a table takes: ``value``, ``colour`` or ``both``. Money
    wheel and Tuplanoppa take value chips only; a table goes back to value chips only
    once every stack at it is exchanged."""
    table = _table(session, name, lock=True)
    if chips not in CHIPS:
        raise ChipError(f"chips {chips!r}: value, colour or both")
    if chips != "value" and table.game in VALUE_ONLY:
        raise ChipError(f"{table.game} is played with value chips only "
                        f"({VALUE_ONLY[table.game]})")
    if chips != "value" and table.game not in SECTIONS:
        raise ChipError(f"{table.game} is played with value chips only")
    if chips == "value" and _open_stacks(session, table):
        raise ChipError(f"{name} has colour chips in play: they are exchanged first")
    table.chips = chips
    session.flush()
    append_audit(session, actor, "table-chips", {"table": name, "chips": chips})
    return table


def _standing(session: Session, table: GameTable, player: str) -> bool:
    """Whether the player has a bet at the table not yet settled (prison too)."""
    return session.scalar(select(BetRow.id).join(RoundRow, RoundRow.id == BetRow.round_id)
                          .where(RoundRow.table_id == table.id,
                                 RoundRow.status.in_(_STANDING),
                                 BetRow.player == player, BetRow.paid.is_(None))
                          .limit(1)) is not None


def _stack(session: Session, table: GameTable, row: ColourStack) -> Stack:
    return Stack(table.name, row.player, row.colour, row.unit,
                 _held(session, account_code(table.name, row.player)))


def _held(session: Session, code: str) -> int:
    try:
        return balance(session, code)
    except LedgerError:  # never opened: nothing held
        return 0


def buy(session: Session, name: str, player: str, colour: str, unit: int, chips: int,
        key: str) -> Stack:
    """Buy ``chips`` colour chips of ``unit`` cents each at table ``name``, in ``colour``:
    the money from the wallet to the stack. A player holding a stack there buys more of
    the same colour and value. The key is bound to the whole request: the same one again
    is answered with the stack, another request under it is refused."""
    table = _table(session, name, lock=True)
    amount = unit * chips if isinstance(unit, int) and isinstance(chips, int) else 0
    code = account_code(name, player)
    posting = Posting(f"chips:{key}", accounts.wallet_code(player), code, max(amount, 1),
                      "buy_in", f"{name}: {chips} {colour} colour chips of "
                      f"{format_cents(unit) if isinstance(unit, int) else unit} €")
    if session.scalar(select(Transfer.id).where(Transfer.key == posting.key)) is not None:
        post(session, [posting], actor=player, action="colour-chips")  # a retry, or refused
        held = [s for s in _open_stacks(session, table) if s.player == player]
        if held:
            return _stack(session, table, held[0])
        return Stack(name, player, colour, unit, 0)
    if table.chips == "value":
        raise ChipError(f"{name} takes value chips only "
                        f"({VALUE_ONLY.get(table.game) or SECTIONS.get(table.game, 'RAY')})")
    if colour not in PALETTE:
        raise ChipError(f"no colour {colour!r}; colours: {', '.join(PALETTE)}")
    if isinstance(unit, bool) or not isinstance(unit, int) or not (
            table.limit_min <= unit <= table.limit_max):
        raise ChipError(f"a colour chip's value is within the table's limits "
                        f"{format_cents(table.limit_min)} to {format_cents(table.limit_max)}")
    if isinstance(chips, bool) or not isinstance(chips, int) or not 0 < chips <= MOST_CHIPS:
        raise ChipError(f"colour chips are bought 1 to {MOST_CHIPS} at a time")
    stacks = _open_stacks(session, table)
    mine = next((s for s in stacks if s.player == player), None)
    if mine is not None and (mine.colour, mine.unit) != (colour, unit):
        raise ChipError(f"{player} plays {mine.colour} chips of {format_cents(mine.unit)} "
                        f"at {name}: more are bought in that colour and value")
    if mine is None:
        if any(s.colour == colour for s in stacks):
            raise ChipError(f"{colour} is taken at {name}; free colours: "
                            + ", ".join(c for c in PALETTE if c not in
                                        {s.colour for s in stacks}))
        if _standing(session, table, player):
            raise ChipError(f"{player} has bets standing at {name}: colour chips are "
                            "bought when they are settled")
    refused = accounts.StakeCheck(session, [player]).barred(player)
    if refused:
        raise accounts.Refused(refused)
    post(session, [posting], actor=player, action="colour-chips",
         note={"table": name, "colour": colour, "unit": unit, "chips": chips})
    if mine is None:
        mine = ColourStack(table_id=table.id, player=player, colour=colour, unit=unit,
                           opened_at=now_utc(), bought_key=key)
        session.add(mine)
        session.flush()
    return _stack(session, table, mine)


def exchange(session: Session, name: str, player: str, key: str) -> Stack:
    """The player's colour chips at ``name`` exchanged back to value chips: the stack's
    whole balance (whole chips and any change) to the wallet, and the stack closed, its
    colour free again. Refused while the player has bets standing at the table."""
    table = _table(session, name, lock=True)
    done = session.scalars(select(ColourStack).where(ColourStack.closed_key == key)
                           ).one_or_none()
    if done is not None:  # a retry
        if done.table_id != table.id or done.player != player:
            raise ChipError(f"key {key} was used for another exchange; send a new key")
        return Stack(name, player, done.colour, done.unit, 0)
    mine = next((s for s in _open_stacks(session, table) if s.player == player), None)
    if mine is None:
        raise ChipError(f"{player} holds no colour chips at {name}")
    if _standing(session, table, player):
        raise ChipError(f"{player} has bets standing at {name}: colour chips are exchanged "
                        "when they are settled")
    stack = _stack(session, table, mine)
    if stack.held:
        post(session, [Posting(f"chips-back:{key}", stack.code, accounts.wallet_code(player),
                               stack.held, "cash_out",
                               f"{name}: {stack.chips} {stack.colour} colour chips of "
                               f"{format_cents(stack.unit)} € exchanged")],
             actor=player, action="colour-chips", note={"table": name})
    mine.closed_at, mine.closed_key = now_utc(), key
    session.flush()
    return stack


def stacks(session: Session, name: str) -> list[Stack]:
    """The colour chips in play at a table, stack by stack."""
    table = _table(session, name)
    return [_stack(session, table, row) for row in _open_stacks(session, table)]


def chips_of(session: Session, name: str) -> str:
    """Which chips the table takes: value, colour or both."""
    return _table(session, name).chips


def view(session: Session, name: str, player: str | None = None) -> dict[str, object]:
    """The table's chips as a client shows them: what it takes, the palette (each colour
    with its names and whether it is taken), every stack in play, and the player's own."""
    table = _table(session, name)
    held = [_stack(session, table, row) for row in _open_stacks(session, table)]
    taken = {s.colour for s in held}
    own = next((s for s in held if s.player == player), None)
    return {"table": name, "chips": table.chips, "min": table.limit_min,
            "max": table.limit_max,
            "palette": [{"colour": c, "names": dict(zip(("fi", "sv", "en"), names,
                                                        strict=True)),
                         "css": css, "taken": c in taken}
                        for c, (names, css) in PALETTE.items()],
            "stacks": [{"player": s.player, "colour": s.colour, "css": PALETTE[s.colour][1]}
                       for s in held],
            "mine": None if own is None else own.to_json()}


def stakes_from(session: Session, table: GameTable, players: Iterable[str]
                ) -> dict[str, Stack]:
    """The players of ``players`` who play colour chips at ``table``, with their stacks
    (unlocked balances); nothing at a table of value chips only."""
    wanted = set(players)
    if table.chips == "value" or not wanted:
        return {}
    rows = session.scalars(select(ColourStack).where(
        ColourStack.table_id == table.id, ColourStack.closed_at.is_(None),
        ColourStack.player.in_(sorted(wanted))))
    return {row.player: Stack(table.name, row.player, row.colour, row.unit, 0) for row in rows}


def refusal(table: GameTable, stack: Stack | None, amounts: Iterable[int]) -> str | None:
    """Why a slip of ``amounts`` may not be staked at ``table`` with ``stack`` (None: the
    player plays value chips there), or None."""
    if stack is None:
        return (f"{table.name} takes colour chips only: buy a stack first"
                if table.chips == "colour" else None)
    for amount in amounts:
        if amount % stack.unit:
            return (f"a stake in colour chips is whole chips of {format_cents(stack.unit)}, "
                    f"not {format_cents(amount)}")
    return None


def record_of(chipped: dict[str, Stack], bets: Iterable[tuple[int, str]]
              ) -> dict[str, object]:
    """What a round's record keeps of its colour chips, beside the engine's record: for
    each player who played them, the colour, the chip's value and the bets' numbers."""
    numbers: dict[str, list[int]] = {}
    for number, player in bets:
        if player in chipped:
            numbers.setdefault(player, []).append(number)
    out = {player: {"colour": chipped[player].colour, "unit": chipped[player].unit,
                    "bets": got} for player, got in numbers.items()}
    return {"colour_chips": out} if out else {}
