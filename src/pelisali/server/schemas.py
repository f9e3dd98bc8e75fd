"""What clients send the server, checked at the edge: the request bodies of the HTTP
API and the messages of the live and poker sockets. An amount is whole cents (a JSON
integer) or euros as a decimal string ("12.50"); keys are the client's idempotency keys
(the server prefixes them with the player's name)."""

import contextlib
import json
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, Field, Strict, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from pelisali.money import MoneyError, parse_decimal

MAX_CENTS = 10**11  # a billion euros: far above any limit, far below any overflow
_AMOUNT = 'an amount is whole cents (an integer such as 1250) or euros in a string such as "12.50"'


def _shown(value: object) -> str:
    """``value`` as the client wrote it, short and JSON-safe (the error echoes it)."""
    if value is None or isinstance(value, bool | float):
        return json.dumps(value)  # true, 100.0, NaN, Infinity: as JSON spells them
    if isinstance(value, str):
        return repr(value[:40])
    return f"a {type(value).__name__}"


def _cents(value: object) -> object:
    """Whole cents from a JSON integer or a decimal string of euros; nothing else. A
    boolean or a float is refused even when whole (``true``, ``100.0``): a client that
    sends one has mixed up its units, and a float cannot hold every amount exactly."""
    if isinstance(value, str):
        with contextlib.suppress(MoneyError):  # refused below, with what was sent
            return parse_decimal(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        return value
    raise PydanticCustomError("amount", f"{_AMOUNT}, not {{given}}", {"given": _shown(value)})


# Either form of an amount, in the bounds the client is told (the schema shows both).
_Euros = Annotated[str, Field(pattern=r"^(0|[1-9][0-9]{0,14})(\.[0-9]{1,2})?$")]
# More than nothing: "0", "0.0" and "0.00" are left out of the pattern too.
_PositiveEuros = Annotated[str, Field(
    pattern=r"^(0\.(0[1-9]|[1-9][0-9]?)|[1-9][0-9]{0,14}(\.[0-9]{1,2})?)$")]
_Positive = Annotated[int, Field(gt=0, le=MAX_CENTS)]
_NonNegative = Annotated[int, Field(ge=0, le=MAX_CENTS)]
Cents = Annotated[_Positive, BeforeValidator(
    _cents, json_schema_input_type=_Positive | _PositiveEuros)]
# Nothing is an amount too where it means "none": a limit of 0, insurance declined.
CentsOrZero = Annotated[_NonNegative, BeforeValidator(
    _cents, json_schema_input_type=_NonNegative | _Euros)]
Key = Annotated[str, Field(min_length=1, max_length=100)]
# Counts and ids are Strict() JSON integers: lax pydantic reads true, 5.0 and "5" as 1 and 5.


class Registration(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
    password: Annotated[str, Field(min_length=1, max_length=200)]
    born: date
    # ASCII letters only: the server upper-cases the code, and "fı".upper() is "FI".
    country: Annotated[str, Field(min_length=2, max_length=2, pattern=r"^[A-Za-z]{2}$")]


class Credentials(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=80)]
    password: Annotated[str, Field(min_length=1, max_length=200)]


class Money(BaseModel):
    amount: Cents
    key: Key


class LimitRequest(BaseModel):
    """A deposit or loss limit in cents a period, or the session-time limit in minutes
    (kind and period ``session``)."""

    kind: Literal["deposit", "loss", "session"]
    period: Literal["day", "week", "month", "session"]
    amount: CentsOrZero | None

    @field_validator("amount", mode="before")
    @classmethod
    def _minutes(cls, amount: Any, info: ValidationInfo) -> Any:
        """A session-time limit is whole minutes, a JSON integer: never euros."""
        if info.data.get("kind") == "session" and amount is not None and (
                isinstance(amount, bool) or not isinstance(amount, int)):
            raise PydanticCustomError("minutes", "a session-time limit is whole minutes")
        return amount


class Exclusion(BaseModel):
    days: Annotated[int, Strict(), Field(gt=0, le=36_500)] | None


class Reminder(BaseModel):
    """The reality check's period, in minutes of a session."""

    minutes: Annotated[int, Strict(), Field(ge=5, le=240)]


class BetRequest(BaseModel):
    spot: Annotated[str, Field(min_length=1, max_length=60)]
    amount: Cents


class Slip(BaseModel):
    variant: Annotated[str, Field(max_length=2)] | None = None
    bets: Annotated[list[BetRequest], Field(min_length=1, max_length=200)]
    key: Key


class Choice(BaseModel):
    round_id: Annotated[int, Strict(), Field(gt=0, le=2**62)]
    bet_id: Annotated[int, Strict(), Field(gt=0, le=2**31)]
    option: Annotated[str, Field(max_length=20)]


class TableRequest(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=60, pattern=r"^[A-Za-z0-9_.-]+$")]
    game: Annotated[str, Field(max_length=20)]
    variant: Annotated[str, Field(max_length=2)] | None = None
    min: Cents | None = None
    max: Cents | None = None
    mode: Literal["rng", "live"] = "live"


class TableSettingsRequest(BaseModel):
    status: Literal["open", "closed"] | None = None
    min: Cents | None = None
    max: Cents | None = None
    # RAY 1.2.1, 1.2.2, 1.3.2 "Pelipanokset": the chips the table takes
    chips: Literal["value", "colour", "both"] | None = None


class ColourChipsRequest(BaseModel):
    """A stack of colour chips bought at a table: its colour, the value of one chip, how
    many."""

    colour: Annotated[str, Field(min_length=1, max_length=16)]
    unit: Cents
    chips: Annotated[int, Strict(), Field(gt=0, le=1_000)]
    key: Key


class KeyOnly(BaseModel):
    key: Key


class VoidRequest(BaseModel):
    reason: Annotated[str, Field(min_length=1, max_length=200)]


class CaseClosing(BaseModel):
    """What staff found on an anti-money-laundering case, and did."""

    note: Annotated[str, Field(min_length=1, max_length=2000)]


class StatusRequest(BaseModel):
    status: Literal["active", "restricted", "barred"]
    reason: Annotated[str, Field(min_length=1, max_length=200)]


class CardSlip(BaseModel):
    bets: Annotated[list[BetRequest], Field(min_length=1, max_length=7)]
    key: Key


class Decision(BaseModel):
    action: Literal["hit", "stand", "double", "split", "insure"]
    amount: CentsOrZero | None = None
    seat: Annotated[int, Strict(), Field(ge=1, le=7)] | None = None


class PokerMessage(BaseModel):
    type: Literal["hello", "sit", "sit-out", "sit-in", "leave", "act"]
    action: Literal["fold", "check", "call", "bet", "raise", "draw", "discard"] | None = None
    amount: CentsOrZero | None = None
    cards: Annotated[list[Annotated[str, Field(max_length=3)]], Field(max_length=5)] | None = None
    key: Key | None = None
    since: Annotated[int, Strict(), Field(ge=0, le=2**62)] | None = None


class PokerTableRequest(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=60, pattern=r"^[A-Za-z0-9_-]+$")]
    game: Annotated[str, Field(max_length=20)] = "holdem"
    small_blind: Cents
    big_blind: Cents
    min_buy_in: Cents
    rake_percent: Annotated[int, Strict(), Field(ge=0, le=10)] = 0
    rake_cap: Cents | None = None
    # RAY 1.4.1.1.1 B: a time charge per player instead of a rake, every so many minutes
    time_charge: Cents | None = None
    time_charge_minutes: Annotated[int, Strict(), Field(ge=1, le=1440)] | None = None
    # RULINGS: a fold when a check is free, and losing hands mucked at showdown
    fold_when_check_free: Annotated[bool, Strict()] = False
    auto_muck: Annotated[bool, Strict()] = False


class LiveSlip(BaseModel):
    type: Literal["bet"]
    bets: Annotated[list[BetRequest], Field(min_length=1, max_length=200)]
    key: Key


def settlement(s: Any) -> dict[str, Any]:
    """A settled bet as a player is shown it (a wager or card round's settlement)."""
    return {"bet_id": s.bet_id, "spot": s.spot, "stake": s.stake, "paid": s.paid,
            "result": s.result}
