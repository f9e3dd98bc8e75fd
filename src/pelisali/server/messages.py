"""The player-facing refusals as codes with parameters, so that the browser says each in
Finnish, Swedish or English, with amounts in euros: every error answer carries
``detail`` (the platform's English sentence, for logs and the API's users), and, where
the sentence is one of the catalogue's, ``code`` and ``params`` (amounts as the euros
the sentence gave, names and spots as they are). A malformed request (422) never
answers with the validator's words for a player: its ``code`` is ``invalid`` and its
``params`` name the field.

>>> coded("player:ann holds 1003.50, not 9999.00: no credit")
('no_credit', {'held': '1003.50', 'wanted': '9999.00'})
>>> coded("ann: self-excluded until 2026-12-08 01:29:42.411029+00:00")
('excluded', {'until': '2026-12-08T01:29:42.411029+00:00'})
>>> coded("something else entirely")
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

__all__ = ["CATALOGUE", "coded", "invalid"]

_EUROS = r"-?\d[\d ]*\.\d\d"
# code: the sentences it stands for (each a pattern whose named groups are its params)
CATALOGUE: dict[str, tuple[str, ...]] = {
    "no_credit": (rf"\S+ holds (?P<held>{_EUROS}), not (?P<wanted>{_EUROS}): no credit",),
    "excluded": (r"\S+: self-excluded(?: until (?P<until>.+))?$",
                 r"\S+: no deposits while barred or self-excluded$"),
    "account": (r"\S+: account (?P<status>restricted|barred)",),
    "loss_limit": (rf"\S+: loss limit (?P<limit>{_EUROS}) a (?P<period>day|week|month)",),
    "deposit_limit": (rf"\S+: deposit limit (?P<limit>{_EUROS}) a (?P<period>day|week|month)",),
    "under_minimum": (rf"(?P<stake>{_EUROS}) is under the table minimum (?P<minimum>{_EUROS})",),
    "no_spot": (r"has no betting spot '(?P<spot>[^']*)'",),
    "closed": (r"\S+ is closed$", r"is closed: no more bets", r"^no more bets$"),
    "deciding": (r"round (?P<round>\d+) is still deciding", r"waits for a choice"),
    "buy_in": (rf"the minimum buy-in is (?P<minimum>{_EUROS}|\d+)$",),
    "name_taken": (r"a (?:player|login) called '(?P<name>[^']*)' exists",),
    "name_form": (r"a player name is 1-80 letters",),
    "under_age": (r"\S+: under (?P<age>\d+) may not play",),
    "restricted_country": (r"\S+: residents of (?P<country>[A-Z]{2}) may not register",),
    "country": (r"country '[^']*'",),
    "born": (r"a date of birth is from",),
    "password_short": (r"a password has at least (?P<least>\d+) characters",),
    "password_long": (r"a password has at most (?P<most>\d+) characters",),
    "password_common": (r"one of the most common ones", r"password of spaces only"),
    "password_name": (r"a password is not the login's name",),
    "password_weak": (r"this password is too easy to guess",),
    "login": (r"^wrong name or password$",),
    "logged_out": (r"^not logged in$",),
    "too_many_logins": (r"too many failed logins: try again in (?P<seconds>\d+) s",),
    "too_many_accounts": (r"too many new accounts",),
    "too_fast": (r"too many (?:slips|bets|messages)",),
    "key_reused": (r"was first used for", r"already used"),
}
_COMPILED = [(code, re.compile(p)) for code, patterns in CATALOGUE.items() for p in patterns]


def coded(text: str) -> tuple[str, dict[str, str]] | None:
    """The catalogue's code for the sentence ``text`` and its parameters, or None."""
    for code, pattern in _COMPILED:
        found = pattern.search(text)
        if found:
            params = {k: v for k, v in found.groupdict().items() if v is not None}
            if "until" in params:  # a moment as ISO 8601, for the page's own time zone
                try:
                    params["until"] = datetime.fromisoformat(params["until"]).isoformat()
                except ValueError:
                    del params["until"]
            return code, params
    return None


def answer(detail: Any) -> dict[str, Any]:
    """An error answer's body: ``detail``, and its ``code`` and ``params`` if the
    catalogue knows it."""
    body: dict[str, Any] = {"detail": detail}
    found = coded(detail) if isinstance(detail, str) else None
    if found is not None:
        body["code"], body["params"] = found
    return body


def invalid(errors: Sequence[Any]) -> dict[str, Any]:
    """A 422's body: the validator's findings as ``detail`` (for the API's users), and
    for a player ``code`` ``invalid`` with the fields named."""
    fields = []
    for error in errors:
        where = [str(p) for p in error.get("loc", ()) if p not in ("body", "query", "path")]
        if where and where[0] not in fields:
            fields.append(where[0])
    return {"detail": list(errors), "code": "invalid", "params": {"fields": ",".join(fields)}}
