"""Anti-money-laundering monitoring (GGPoker house rules, "Rahanpesun torjunta"): rules
as settings (``[aml]`` in ``platform/settings.toml``), each reading the ledger and
opening a case for staff with its evidence.

- ``cumulative_deposits``: deposits in the window reach the threshold (EU AMLD: EUR 2,000
  for casinos, single or linked transactions);
- ``little_play``: a withdrawal after deposits that were hardly staked;
- ``rapid_cash``: most of a deposit withdrawn within minutes of it.

A case counts the transfers up to its ``through``: the same money opens no second case
of the same rule, and while a case of a rule is open for a player no other opens; new
money after it is closed may open a new one. Staff close a case with a note, in the
audit chain. The rules read the ledger alone, so a scan can run at any time, in any
process (the server runs one every ten minutes; ``pelisali aml scan``).

>>> from datetime import date
>>> from pelisali.platform import accounts
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
...     _ = accounts.deposit(s, "ann", 150_000, key="d1")
...     _ = accounts.deposit(s, "ann", 60_000, key="d2")
...     [(c.rule, c.player, c.evidence["deposited"]) for c in scan(s)], scan(s)
([('cumulative_deposits', 'ann', 210000)], [])
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from pelisali.platform import accounts
from pelisali.platform.ledger import LedgerError, append_audit, now_utc
from pelisali.platform.models import Account, AmlCase, Player, Transfer

__all__ = ["RULES", "AmlError", "AmlSettings", "Case", "cases", "close_case", "scan",
           "settings"]

RULES = ("cumulative_deposits", "little_play", "rapid_cash")


class AmlError(LedgerError):
    """A case that is not there, or a closing without the staff member or the note."""


@dataclass(frozen=True)
class AmlSettings:
    deposit_threshold: int
    deposit_window_days: int
    little_play_withdrawal: int
    little_play_share: Fraction
    rapid_minutes: int
    rapid_share: Fraction
    rapid_minimum: int


@cache
def settings() -> AmlSettings:
    """The operator's monitoring rules (``[aml]`` of ``platform/settings.toml``)."""
    data = tomllib.loads((Path(__file__).parent / "settings.toml").read_text("utf-8"))["aml"]
    return AmlSettings(int(data["deposit_threshold"]), int(data["deposit_window_days"]),
                       int(data["little_play_withdrawal"]),
                       Fraction(str(data["little_play_share"])), int(data["rapid_minutes"]),
                       Fraction(str(data["rapid_share"])), int(data["rapid_minimum"]))


@dataclass(frozen=True)
class Case:
    """A case as staff read it."""

    id: int
    rule: str
    player: str
    evidence: dict[str, Any]
    status: str
    opened_at: datetime
    closed_by: str | None = None
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """The case as the API and ``aml cases --json`` give it."""
        return {"id": self.id, "rule": self.rule, "player": self.player,
                "evidence": self.evidence, "status": self.status,
                "opened_at": self.opened_at.isoformat(), "closed_by": self.closed_by,
                "note": self.note}


def _case(row: AmlCase) -> Case:
    return Case(row.id, row.rule, row.player, json.loads(row.evidence), row.status,
                row.opened_at, row.closed_by, row.note)


@dataclass(frozen=True)
class _Move:
    id: int
    kind: str
    amount: int
    at: datetime


def _moves(session: Session, account_id: int, since: datetime) -> list[_Move]:
    """The player's deposits, withdrawals and stakes (buy-ins too) since ``since``."""
    rows = session.execute(
        select(Transfer.id, Transfer.kind, Transfer.amount, Transfer.created_at)
        .where(((Transfer.target_id == account_id) & (Transfer.kind == "deposit"))
               | ((Transfer.source_id == account_id)
                  & Transfer.kind.in_(("withdrawal", "stake", "buy_in"))),
               Transfer.created_at >= since)
        .order_by(Transfer.id)).all()
    return [_Move(r.id, str(r.kind), int(r.amount), r.created_at) for r in rows]


def _findings(moves: list[_Move], rules: AmlSettings) -> list[tuple[str, int, dict[str, Any]]]:
    """What the rules find in a player's moves: (rule, the last transfer counted,
    evidence)."""
    found: list[tuple[str, int, dict[str, Any]]] = []
    deposits = [m for m in moves if m.kind == "deposit"]
    total = sum(m.amount for m in deposits)
    if deposits and total >= rules.deposit_threshold:
        found.append(("cumulative_deposits", deposits[-1].id, {
            "deposited": total, "threshold": rules.deposit_threshold,
            "days": rules.deposit_window_days, "transfers": [m.id for m in deposits]}))
    for w in (m for m in moves if m.kind == "withdrawal"):
        before = [m for m in moves if m.id < w.id]
        paid_in = sum(m.amount for m in before if m.kind == "deposit")
        staked = sum(m.amount for m in before if m.kind in ("stake", "buy_in"))
        if (w.amount >= rules.little_play_withdrawal and paid_in
                and staked < rules.little_play_share * paid_in):
            found.append(("little_play", w.id, {
                "withdrawn": w.amount, "deposited": paid_in, "staked": staked,
                "share": str(rules.little_play_share), "withdrawal": w.id}))
        window = timedelta(minutes=rules.rapid_minutes)
        for d in (m for m in before if m.kind == "deposit" and w.at - m.at <= window):
            if d.amount >= rules.rapid_minimum and w.amount >= rules.rapid_share * d.amount:
                found.append(("rapid_cash", w.id, {
                    "deposit": d.id, "deposited": d.amount, "withdrawal": w.id,
                    "withdrawn": w.amount, "seconds": int((w.at - d.at).total_seconds())}))
                break
    return found


def scan(session: Session, at: datetime | None = None) -> list[Case]:
    """Run every rule over every player's moves in the window; open a case for each
    finding no case of the same rule and player has counted yet. The new cases."""
    rules, at = settings(), at or now_utc()
    since = at - timedelta(days=rules.deposit_window_days)
    opened = []
    players = session.execute(select(Player.name, Player.account_id)
                              .join(Account, Account.id == Player.account_id)).all()
    for name, account_id in players:
        moves = _moves(session, account_id, since)
        if not moves:
            continue
        for rule, through, evidence in _findings(moves, rules):
            last = session.scalars(select(AmlCase).where(
                AmlCase.player == name, AmlCase.rule == rule)
                .order_by(AmlCase.through.desc()).limit(1)).one_or_none()
            if last is not None and (last.through >= through or last.status == "open"):
                continue  # counted already, or staff have an open case of it to read
            row = AmlCase(rule=rule, player=name, evidence=json.dumps(evidence),
                          through=through, status="open", opened_at=at, note="")
            session.add(row)
            session.flush()
            append_audit(session, "aml", "aml-case", {"case": row.id, "rule": rule,
                                                      "player": name})
            opened.append(_case(row))
    return opened


def cases(session: Session, everything: bool = False) -> list[Case]:
    """The open cases (``everything``: the closed ones too), oldest first."""
    query = select(AmlCase).order_by(AmlCase.id)
    if not everything:
        query = query.where(AmlCase.status == "open")
    return [_case(row) for row in session.scalars(query)]


def close_case(session: Session, case_id: int, staff: str, note: str) -> Case:
    """Staff close a case with what they found (both required), in the audit chain."""
    if not staff or not note.strip():
        raise AmlError("closing a case needs the staff member and a note")
    row = session.get(AmlCase, case_id)
    if row is None:
        raise AmlError(f"no case {case_id}")
    if row.status != "open":
        raise AmlError(f"case {case_id} is closed already")
    row.status, row.closed_by, row.closed_at, row.note = "closed", staff, now_utc(), note
    append_audit(session, staff, "aml-close", {"case": case_id, "note": note})
    accounts.find(session, row.player)  # the player is still there to be read
    return _case(row)
