"""The closed vocabularies of the platform's tables: account kinds, transfer kinds, round status.

Each is a :class:`~enum.StrEnum`, so a member is also its plain string (``"stake"``)
and reads the same in JSON, logs and SQL; the database column is an enum type that
refuses any other value.

>>> TransferKind("stake") is TransferKind.STAKE
True
>>> RoundStatus.SETTLED == "settled"
True
>>> [kind.value for kind in AccountKind][:3]
['player', 'house', 'fee']
"""

from __future__ import annotations

import enum


class AccountKind(enum.StrEnum):
    """What a ledger account holds. Every kind but ``external`` is kept at zero or above."""

    PLAYER = "player"
    HOUSE = "house"
    FEE = "fee"  # poker rake and time charges
    JACKPOT = "jackpot"
    ROUNDING = "rounding"  # whole cents of paid-down fractions
    EXTERNAL = "external"  # money outside the casino: payments in and out, capital
    TABLE = "table"  # chips at a poker table, the players' money in the table's custody
    BONUS = "bonus"  # a player's free-spin winnings, locked until wagered (bonus.py)
    TOURNAMENT = "tournament"  # a tournament's prize pool, paid in by entries and overlay


class TransferKind(enum.StrEnum):
    """Why money moved."""

    DEPOSIT = "deposit"
    WITHDRAWAL = "withdrawal"
    STAKE = "stake"
    WIN = "win"
    REFUND = "refund"
    COMMISSION = "commission"
    FEE = "fee"
    JACKPOT_CONTRIBUTION = "jackpot_contribution"
    JACKPOT_PAYOUT = "jackpot_payout"
    ROUNDING = "rounding"
    CORRECTION = "correction"
    FUNDING = "funding"
    BUY_IN = "buy_in"
    CASH_OUT = "cash_out"
    BONUS_GRANT = "bonus_grant"  # free-spin winnings locked on the player's bonus account
    BONUS_RELEASE = "bonus_release"  # wagered through: to the player's wallet
    BONUS_FORFEIT = "bonus_forfeit"  # not wagered in time: back to the house


class RoundStatus(enum.StrEnum):
    """Where a round or hand stands.

    A wager round is ``betting`` until "no more bets", ``deciding`` while a player
    must choose (roulette D), then ``settled`` or ``void``. A card round is ``open``
    for bets and ``playing`` once dealt. A poker hand is recorded ``settled``.
    """

    BETTING = "betting"
    OPEN = "open"
    PLAYING = "playing"
    DECIDING = "deciding"
    SETTLED = "settled"
    VOID = "void"


def values(kind: type[enum.StrEnum]) -> list[str]:
    """The stored strings of an enum, in declaration order (SQLAlchemy's ``values_callable``)."""
    return [member.value for member in kind]
