"""Money in integer cents, payout odds, and exact rounding (RULINGS "Everywhere").

Every amount is an ``int`` of cents. Where a rule produces a fraction of a cent
(half a stake back, 5 % commission) the exact amount is a ``Fraction``; the
player is paid the whole cents and the remainder is recorded as the house's
rounding.

>>> parse_amount("12.50")
1250
>>> format_cents(1250)
'12.50'
>>> Odds.parse("35:1").total_return(100)
3600
>>> pay_exact(Fraction(101, 2))
(50, Fraction(1, 2))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import total_ordering

_AMOUNT = re.compile(r"^(\d{1,15})(?:[.,](\d{1,2}))?$")


class MoneyError(ValueError):
    """An amount that is not a valid, non-negative sum of money."""


def parse_amount(text: str) -> int:
    """Parse ``"12"``, ``"12.5"`` or ``"12,50"`` (euros) into cents.

    >>> parse_amount("7")
    700
    >>> parse_amount("0.05")
    5
    >>> parse_amount("-1")
    Traceback (most recent call last):
    ...
    pelisali.money.MoneyError: not an amount of money: '-1' (use euros like 12 or 12.50)
    """
    match = _AMOUNT.match(text.strip())
    if not match:
        raise MoneyError(f"not an amount of money: {text!r} (use euros like 12 or 12.50)")
    euros, cents = match.group(1), (match.group(2) or "0").ljust(2, "0")
    return int(euros) * 100 + int(cents)


# The API's form of euros: what a program sends, so one spelling only. No sign, comma,
# space, exponent or leading zero, ASCII digits, at most two decimals: "12.50" is 1250
# cents and nothing else is read as it.
_DECIMAL = re.compile(r"(0|[1-9][0-9]{0,14})(?:\.([0-9]{1,2}))?")


def parse_decimal(text: str) -> int:
    """Parse the API's decimal euros into cents, strictly (people's input goes through
    :func:`parse_amount`, which forgives commas and spaces).

    >>> parse_decimal("12.5"), parse_decimal("0.05"), parse_decimal("7")
    (1250, 5, 700)
    >>> parse_decimal("1,5")
    Traceback (most recent call last):
    ...
    pelisali.money.MoneyError: not euros with at most 2 decimals: '1,5' (write 12 or 12.50)
    """
    match = _DECIMAL.fullmatch(text)
    if not match:
        raise MoneyError(f"not euros with at most 2 decimals: {text[:40]!r} "
                         "(write 12 or 12.50)")
    return int(match.group(1)) * 100 + int((match.group(2) or "0").ljust(2, "0"))


def format_cents(cents: int) -> str:
    """Format cents as euros with two decimals.

    >>> format_cents(-5)
    '-0.05'
    """
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}"


def pay_exact(amount: Fraction) -> tuple[int, Fraction]:
    """Split an exact amount into the whole cents paid and the house's rounding.

    >>> pay_exact(Fraction(400))
    (400, Fraction(0, 1))
    """
    if amount < 0:
        raise MoneyError(f"a payment cannot be negative: {amount}")
    paid = amount.numerator // amount.denominator
    return paid, amount - paid


_ODDS = re.compile(r"^\s*(\d+)\s*:\s*(\d+)\s*$")


@total_ordering
@dataclass(frozen=True)
class Odds:
    """Payout odds ``win:per``: a winning stake returns itself plus ``win/per`` times itself.

    >>> str(Odds(17))
    '17:1'
    >>> Odds.parse("3:2").total_return_exact(100)
    Fraction(250, 1)
    """

    win: int
    per: int = 1

    def __post_init__(self) -> None:
        if self.win < 0 or self.per <= 0:
            raise MoneyError(f"invalid odds {self.win}:{self.per}")

    @classmethod
    def parse(cls, text: str) -> Odds:
        match = _ODDS.match(text)
        if not match:
            raise MoneyError(f"odds must look like '35:1', got {text!r}")
        return cls(int(match.group(1)), int(match.group(2)))

    @property
    def multiple(self) -> Fraction:
        """Total return per unit staked (stake included)."""
        return 1 + Fraction(self.win, self.per)

    def total_return_exact(self, stake: int) -> Fraction:
        return stake * self.multiple

    def total_return(self, stake: int) -> int:
        """Whole cents returned on a winning stake (rounding down; see :func:`pay_exact`)."""
        return pay_exact(self.total_return_exact(stake))[0]

    def __lt__(self, other: object) -> bool:
        """Odds order by what they pay: 3:2 pays less than 2:1."""
        if not isinstance(other, Odds):
            return NotImplemented
        return self.multiple < other.multiple

    def __str__(self) -> str:
        return f"{self.win}:{self.per}"
