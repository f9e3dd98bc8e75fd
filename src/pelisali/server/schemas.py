"""What clients send the server, checked at the edge: the request bodies of the HTTP
API and the messages of the live and poker sockets. Amounts are whole cents, keys are
the client's idempotency keys (the server prefixes them with the player's name)."""

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

MAX_CENTS = 10**11  # a billion euros: far above any limit, far below any overflow
Cents = Annotated[int, Field(gt=0, le=MAX_CENTS)]
Key = Annotated[str, Field(min_length=1, max_length=100)]


class Registration(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
    password: Annotated[str, Field(min_length=1, max_length=200)]
    born: date
    country: Annotated[str, Field(min_length=2, max_length=2)]


class Credentials(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=80)]
    password: Annotated[str, Field(min_length=1, max_length=200)]


class Money(BaseModel):
    amount: Cents
    key: Key


class LimitRequest(BaseModel):
    kind: Literal["deposit", "loss"]
    period: Literal["day", "week", "month"]
    amount: Annotated[int, Field(ge=0, le=MAX_CENTS)] | None


class Exclusion(BaseModel):
    days: Annotated[int, Field(gt=0, le=36_500)] | None


class BetRequest(BaseModel):
    spot: Annotated[str, Field(min_length=1, max_length=60)]
    amount: Cents


class Slip(BaseModel):
    variant: Annotated[str, Field(max_length=2)] | None = None
    bets: Annotated[list[BetRequest], Field(min_length=1, max_length=200)]
    key: Key


class Choice(BaseModel):
    round_id: Annotated[int, Field(gt=0, le=2**62)]
    bet_id: Annotated[int, Field(gt=0, le=2**31)]
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


class VoidRequest(BaseModel):
    reason: Annotated[str, Field(min_length=1, max_length=200)]


class StatusRequest(BaseModel):
    status: Literal["active", "restricted", "barred"]
    reason: Annotated[str, Field(min_length=1, max_length=200)]


class CardSlip(BaseModel):
    bets: Annotated[list[BetRequest], Field(min_length=1, max_length=7)]
    key: Key


class Decision(BaseModel):
    action: Literal["hit", "stand", "double", "split", "insure"]
    amount: Annotated[int, Field(ge=0, le=MAX_CENTS)] | None = None
    seat: Annotated[int, Field(ge=1, le=7)] | None = None


class PokerMessage(BaseModel):
    type: Literal["hello", "sit", "sit-out", "sit-in", "leave", "act"]
    action: Literal["fold", "check", "call", "bet", "raise", "draw", "discard"] | None = None
    amount: Annotated[int, Field(ge=0, le=MAX_CENTS)] | None = None
    cards: Annotated[list[Annotated[str, Field(max_length=3)]], Field(max_length=5)] | None = None
    key: Key | None = None
    since: Annotated[int, Field(ge=0, le=2**62)] | None = None


class PokerTableRequest(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=60, pattern=r"^[A-Za-z0-9_-]+$")]
    game: Annotated[str, Field(max_length=20)] = "holdem"
    small_blind: Cents
    big_blind: Cents
    min_buy_in: Cents
    rake_percent: Annotated[int, Field(ge=0, le=10)] = 0
    rake_cap: Cents | None = None


class LiveSlip(BaseModel):
    type: Literal["bet"]
    bets: Annotated[list[BetRequest], Field(min_length=1, max_length=200)]
    key: Key


def settlement(s: Any) -> dict[str, Any]:
    """A settled bet as a player is shown it (a wager or card round's settlement)."""
    return {"bet_id": s.bet_id, "spot": s.spot, "stake": s.stake, "paid": s.paid,
            "result": s.result}
