"""Anti-money-laundering monitoring (GGPoker house rules, "Rahanpesun torjunta"; RAY 1.1 on
joint play): rules as settings (``[aml]`` in ``platform/settings.toml``), each reading
the ledger, the poker hands, the bets or the log-ins and opening a case for staff with
its evidence.

- ``cumulative_deposits``: deposits in the window reach the threshold (EU AMLD: EUR 2,000
  for casinos, single or linked transactions);
- ``little_play``: a withdrawal after deposits that were hardly staked;
- ``rapid_cash``: most of a deposit withdrawn within minutes of it;
- ``chip_dumping`` (poker): one player's chips going steadily to one other player. In
  each recorded hand, each winner's gain (chips after the hand less before, the
  jackpot's shares apart) came from the hand's losers in proportion to what each lost,
  rounded down to the cent; the rake is the rest. A loser is flagged, with the winner
  named, when within ``chip_dumping_window_days`` (30) the two were dealt into at least
  ``chip_dumping_hands`` (20) hands together, the chips that went from the loser to the
  winner less those that came back reach ``chip_dumping_amount`` (500 EUR), and at least
  ``chip_dumping_share`` (0.8; more than a half, so a loser has one such winner at most)
  of all the loser lost in the window went to that winner. The house's seats (bots) are
  never flagged, and what went to them counts in the loser's losses;
- ``linked_accounts``: players who logged in from the same device (the server's
  long-lived ``pelisali_device`` cookie) or the same address within
  ``linked_window_days`` (90); ``linked_signals`` (both by default) says which count;
- ``joint_play`` (RAY 1.1: "Yhteispeli, jonka tarkoituksena on ylittää pelaajakohtainen
  enimmäispanos, ei ole sallittua"): at the wheel, dice and card tables, a settled round
  in which two or more linked players (``joint_play_linked_only = false``: any players)
  together staked more than the round's per-player maximum on one spot. Each player of
  such a group is flagged when it happened in at least ``joint_play_rounds`` (3) rounds
  within ``joint_play_window_days`` (30).

A case counts what it read up to its ``through`` (a transfer, a hand's or a round's id,
a log-in's): the same finding opens no second case of the same rule, and while a case
of a rule is open for a player no other opens; something new after it is closed may
open a new one. Staff close a case with a note, in the audit chain. The rules read the
database alone, so a scan can run at any time, in any process (the server runs one
every ten minutes; ``pelisali aml scan``).

**Voiding the excess of a joint-play case** (:func:`void_case`). RAY 1.1: "Panos on
mitätön siltä osin, kuin se ylittää sallitun enimmäispanoksen" (a stake is void in so
far as it exceeds the maximum). On each spot of the evidence the group's stakes are
taken in the order they were placed; those up to the maximum stand, and what came after
is the excess (the latest stakes first), each bet's part of it in the evidence. A void
treats the case's player's part of each bet as never accepted: the bet's net result
(paid less staked; a bet held in prison, its result when it came out) times the part
over the stake, rounded toward zero to the cent, is reversed between the player and the
house bank, one ``correction`` transfer a round keyed ``aml-void:CASE:ROUND``, all in
one batch (all or none: a player who can no longer pay back a win is refused, nothing
moves). The case is then ``voided`` with the staff member's note, in the audit chain; a
second void finds it so, changes nothing and says so.

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
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from pelisali.platform import accounts
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import LedgerError, Posting, append_audit, now_utc, post
from pelisali.platform.models import (
    Account,
    AmlCase,
    BetRow,
    GameTable,
    LogIn,
    Player,
    RoundRow,
    Transfer,
)
from pelisali.platform.poker_tables import GAME as POKER
from pelisali.platform.poker_tables import is_house_seat
from pelisali.platform.table_layer import record_version

__all__ = ["RULES", "SIGNALS", "AmlError", "AmlSettings", "Case", "Voided", "cases",
           "close_case", "scan", "settings", "void_case"]

RULES = ("cumulative_deposits", "little_play", "rapid_cash", "chip_dumping", "linked_accounts",
         "joint_play")
SIGNALS = ("device", "address")  # what links two accounts
BANK = "house:bank"  # where the stakes went and the wins came from
VOID_KEY = "aml-void"


class AmlError(LedgerError):
    """A case that is not there, a closing or void without the staff member or the note,
    a void of a case that is not joint play's or cannot be voided now."""


@dataclass(frozen=True)
class AmlSettings:
    deposit_threshold: int
    deposit_window_days: int
    little_play_withdrawal: int
    little_play_share: Fraction
    rapid_minutes: int
    rapid_share: Fraction
    rapid_minimum: int
    chip_dumping_window_days: int = 30
    chip_dumping_hands: int = 20
    chip_dumping_amount: int = 50_000
    chip_dumping_share: Fraction = Fraction(4, 5)
    linked_window_days: int = 90
    linked_signals: tuple[str, ...] = SIGNALS
    joint_play_window_days: int = 30
    joint_play_rounds: int = 3
    joint_play_linked_only: bool = True

    def __post_init__(self) -> None:
        days = (self.deposit_window_days, self.chip_dumping_window_days,
                self.linked_window_days, self.joint_play_window_days)
        if min(days) < 1 or self.chip_dumping_hands < 1 or self.joint_play_rounds < 1:
            raise ValueError("[aml]: windows, hands and rounds are 1 or more")
        if not Fraction(1, 2) < self.chip_dumping_share <= 1:
            raise ValueError("[aml] chip_dumping_share is more than 1/2 and at most 1: the "
                             "share of a loser's losses that went to one winner")
        if self.chip_dumping_amount < 1:
            raise ValueError("[aml] chip_dumping_amount is 1 cent or more")
        unknown = set(self.linked_signals) - set(SIGNALS)
        if unknown:
            raise ValueError(f"[aml] linked_signals: {', '.join(SIGNALS)}, not "
                             f"{', '.join(sorted(unknown))}")


@cache
def settings() -> AmlSettings:
    """The operator's monitoring rules (``[aml]`` of ``platform/settings.toml``)."""
    data = tomllib.loads((Path(__file__).parent / "settings.toml").read_text("utf-8"))["aml"]
    return AmlSettings(int(data["deposit_threshold"]), int(data["deposit_window_days"]),
                       int(data["little_play_withdrawal"]),
                       Fraction(str(data["little_play_share"])), int(data["rapid_minutes"]),
                       Fraction(str(data["rapid_share"])), int(data["rapid_minimum"]),
                       chip_dumping_window_days=int(data["chip_dumping_window_days"]),
                       chip_dumping_hands=int(data["chip_dumping_hands"]),
                       chip_dumping_amount=int(data["chip_dumping_amount"]),
                       chip_dumping_share=Fraction(str(data["chip_dumping_share"])),
                       linked_window_days=int(data["linked_window_days"]),
                       linked_signals=tuple(str(x) for x in data["linked_signals"]),
                       joint_play_window_days=int(data["joint_play_window_days"]),
                       joint_play_rounds=int(data["joint_play_rounds"]),
                       joint_play_linked_only=bool(data["joint_play_linked_only"]))


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


Finding = tuple[str, str, int, dict[str, Any]]  # rule, player, through, evidence


# -- the ledger's rules ---------------------------------------------------------------------
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


def _ledger_findings(session: Session, at: datetime, rules: AmlSettings) -> list[Finding]:
    since = at - timedelta(days=rules.deposit_window_days)
    found: list[Finding] = []
    players = session.execute(select(Player.name, Player.account_id)
                              .join(Account, Account.id == Player.account_id)).all()
    for name, account_id in players:
        moves = _moves(session, account_id, since)
        found += [(rule, name, through, evidence)
                  for rule, through, evidence in _findings(moves, rules)]
    return found


# -- chip dumping at poker ----------------------------------------------------------------
def hand_nets(data: dict[str, Any]) -> tuple[int, dict[str, int]]:
    """A recorded poker hand's number at its table and each player's net chips: after
    the hand less before (the bad-beat jackpot's shares apart), from either version of
    the record.

    >>> hand_nets({"version": 2, "players": ["ann", "bob"], "stacks": [900, 1100],
    ...            "poker": {"hand": 7, "result": {"finishing_stacks": [1000, 995]}}})
    (7, {'ann': 100, 'bob': -105})
    """
    if record_version(data) == 1:  # the PHH-based JSON: its stacks from the dealer's left
        phh = tomllib.loads(data["phh"])
        names, before, after = phh["players"], phh["starting_stacks"], phh["finishing_stacks"]
        number = int(data["hand"])
    else:
        names, before = data["players"], data["stacks"]
        after = data["poker"]["result"]["finishing_stacks"]
        number = int(data["poker"]["hand"])
    return number, {str(name): int(b) - int(a)
                    for name, a, b in zip(names, before, after, strict=True)}


def chip_flows(nets: dict[str, int]) -> dict[tuple[str, str], int]:
    """Whose chips went to whom in a hand, (loser, winner) to cents: each winner's gain
    came from the losers in proportion to what each lost, rounded down to the cent (the
    rake, and those fractions, are the rest).

    >>> chip_flows({"ann": 138, "bob": -50, "cid": -100})
    {('bob', 'ann'): 46, ('cid', 'ann'): 92}
    >>> chip_flows({"ann": 100, "bob": -50, "cid": -55, "dan": 0})  # 47.62 and 52.38
    {('bob', 'ann'): 47, ('cid', 'ann'): 52}
    """
    losers = {p: -n for p, n in nets.items() if n < 0}
    lost = sum(losers.values())
    return {(loser, winner): part
            for winner, gain in nets.items() if gain > 0
            for loser, amount in losers.items()
            if (part := gain * amount // lost) > 0}


def _chip_dumping(session: Session, at: datetime, rules: AmlSettings) -> list[Finding]:
    since = at - timedelta(days=rules.chip_dumping_window_days)
    rows = session.execute(
        select(RoundRow.id, RoundRow.record, GameTable.name)
        .join(GameTable, GameTable.id == RoundRow.table_id)
        .where(GameTable.game == POKER, RoundRow.status == RoundStatus.SETTLED,
               RoundRow.finished_at >= since, RoundRow.finished_at <= at)
        .order_by(RoundRow.id))
    lost: Counter[str] = Counter()
    together: Counter[tuple[str, str]] = Counter()
    gave: Counter[tuple[str, str]] = Counter()
    hands: defaultdict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for round_id, record, table in rows:
        number, nets = hand_nets(json.loads(record))
        together.update((a, b) for a in nets for b in nets if a != b)
        lost.update({p: -n for p, n in nets.items() if n < 0})
        for pair, part in chip_flows(nets).items():
            gave[pair] += part
            hands[pair].append({"round": round_id, "table": table, "hand": number,
                                "lost": -nets[pair[0]], "to_winner": part})
    found: list[Finding] = []
    for (loser, winner), given in sorted(gave.items()):
        if is_house_seat(loser) or is_house_seat(winner):
            continue
        back = gave[(winner, loser)]
        share = Fraction(given, lost[loser])
        if (together[(loser, winner)] >= rules.chip_dumping_hands
                and given - back >= rules.chip_dumping_amount
                and share >= rules.chip_dumping_share):
            found.append(("chip_dumping", loser, hands[(loser, winner)][-1]["round"], {
                "winner": winner, "hands_together": together[(loser, winner)],
                "lost": lost[loser], "to_winner": given, "back": back,
                "transferred": given - back, "share": str(share),
                "minimum_share": str(rules.chip_dumping_share),
                "minimum_hands": rules.chip_dumping_hands,
                "minimum_amount": rules.chip_dumping_amount,
                "days": rules.chip_dumping_window_days, "hands": hands[(loser, winner)]}))
    return found


# -- linked accounts ----------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Link:
    """Another player a player shares a device or an address with: by which signal, the
    value (an address; a device as the first 12 hexadecimal digits of its id's SHA-256),
    and the log-in that made the link (the later of the two players' first log-ins with
    it)."""

    other: str
    signal: str
    value: str
    log_in: int


def links(session: Session, at: datetime, rules: AmlSettings) -> dict[str, list[Link]]:
    """Each player's links: the players who logged in with the same device or address
    (``rules.linked_signals``), both within ``linked_window_days`` before ``at``."""
    since = at - timedelta(days=rules.linked_window_days)
    found: defaultdict[str, set[Link]] = defaultdict(set)
    for signal in rules.linked_signals:
        column = LogIn.device if signal == "device" else LogIn.address
        seen: defaultdict[str, list[tuple[str, int]]] = defaultdict(list)
        for name, value, first, last in session.execute(
                select(LogIn.name, column, func.min(LogIn.id), func.max(LogIn.at))
                .where(LogIn.role == "player", column.is_not(None), LogIn.at <= at)
                .group_by(LogIn.name, column)):
            if last >= since:
                seen[str(value)].append((str(name), int(first)))
        for value, names in seen.items():
            if len(names) < 2:
                continue
            shown = value[:12] if signal == "device" else value
            for a, first_a in names:
                found[a].update(Link(b, signal, shown, max(first_a, first_b))
                                for b, first_b in names if b != a)
    return {name: sorted(made) for name, made in found.items()}


def _linked_accounts(linked: dict[str, list[Link]], rules: AmlSettings) -> list[Finding]:
    return [("linked_accounts", name, max(link.log_in for link in made), {
        "linked": [{"player": link.other, "by": link.signal, "value": link.value}
                   for link in made],
        "signals": list(rules.linked_signals), "days": rules.linked_window_days})
        for name, made in sorted(linked.items())]


# -- joint play over the per-player maximum -----------------------------------------------
def _groups(players: list[str], linked: dict[str, list[Link]], linked_only: bool
            ) -> list[set[str]]:
    """The players of a spot who play together: those linked to one another, directly
    or through others (``linked_only``), or all of them."""
    if not linked_only:
        return [set(players)]
    group = {p: {p} for p in players}
    for p in players:
        for link in linked.get(p, ()):
            if link.other in group and group[link.other] is not group[p]:
                merged = group[p] | group[link.other]
                for q in merged:
                    group[q] = merged
    unique = {id(g): g for g in group.values()}
    return [g for g in unique.values() if len(g) > 1]


def _maximum(record: str, table_max: int) -> int:
    """A round's per-player maximum: the limits its record kept, else the table's."""
    kept = json.loads(record).get("limits") if record not in ("", "{}") else None
    return int(kept["max"]) if isinstance(kept, dict) else table_max


def _joint_play(session: Session, at: datetime, rules: AmlSettings,
                linked: dict[str, list[Link]]) -> list[Finding]:
    since = at - timedelta(days=rules.joint_play_window_days)
    placed = ((RoundRow.status == RoundStatus.SETTLED) & (RoundRow.finished_at >= since)
              & (RoundRow.finished_at <= at) & (GameTable.game != POKER)
              & (BetRow.level == 0) & BetRow.carried.is_(False))
    shared = session.execute(
        select(BetRow.round_id, BetRow.spot)
        .join(RoundRow, RoundRow.id == BetRow.round_id)
        .join(GameTable, GameTable.id == RoundRow.table_id).where(placed)
        .group_by(BetRow.round_id, BetRow.spot)
        .having(func.count(BetRow.player.distinct()) > 1)).all()
    if not shared:
        return []
    spots = {(int(r), str(spot)) for r, spot in shared}
    round_ids = sorted({r for r, _ in spots})
    by_spot: defaultdict[tuple[int, str], list[BetRow]] = defaultdict(list)
    rounds: dict[int, tuple[str, int]] = {}
    for start in range(0, len(round_ids), 500):
        chunk = round_ids[start:start + 500]
        for bet in session.scalars(select(BetRow).where(
                BetRow.round_id.in_(chunk), BetRow.level == 0, BetRow.carried.is_(False))
                .order_by(BetRow.id)):
            if (bet.round_id, bet.spot) in spots:
                by_spot[(bet.round_id, bet.spot)].append(bet)
        for round_id, record, name, table_max in session.execute(
                select(RoundRow.id, RoundRow.record, GameTable.name, GameTable.limit_max)
                .join(GameTable, GameTable.id == RoundRow.table_id)
                .where(RoundRow.id.in_(chunk))):
            rounds[round_id] = (name, _maximum(record, int(table_max)))
    entries: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
    for (round_id, spot), bets in sorted(by_spot.items()):
        table, maximum = rounds[round_id]
        for group in _groups(sorted({b.player for b in bets}), linked,
                             rules.joint_play_linked_only):
            mine = [b for b in bets if b.player in group]  # in the order they were placed
            combined = sum(b.stake for b in mine)
            if combined <= maximum:
                continue
            running, shown = 0, []
            for b in mine:
                running += b.stake
                shown.append({"bet": b.number, "player": b.player, "stake": b.stake,
                              "excess": min(b.stake, max(0, running - maximum))})
            entry = {"round": round_id, "table": table, "spot": spot, "maximum": maximum,
                     "combined": combined, "excess": combined - maximum, "bets": shown}
            for player in sorted(group):
                entries[player].append(entry)
    found: list[Finding] = []
    for player, made in sorted(entries.items()):
        joint = sorted({e["round"] for e in made})
        if len(joint) < rules.joint_play_rounds:
            continue
        others = sorted({b["player"] for e in made for b in e["bets"]} - {player})
        found.append(("joint_play", player, joint[-1], {
            "rounds": made, "joint_rounds": len(joint),
            "excess": sum(b["excess"] for e in made for b in e["bets"] if b["player"] == player),
            "minimum_rounds": rules.joint_play_rounds, "days": rules.joint_play_window_days,
            "linked_only": rules.joint_play_linked_only,
            "linked": {o: sorted({link.signal for link in linked.get(player, ())
                                  if link.other == o}) for o in others}}))
    return found


# -- the scan ---------------------------------------------------------------------------------
def scan(session: Session, at: datetime | None = None,
         rules: AmlSettings | None = None) -> list[Case]:
    """Run every rule over its window before ``at`` (now); open a case for each finding
    no case of the same rule and player has counted yet. The new cases. ``rules`` are
    the settings' unless given."""
    rules, at = rules or settings(), at or now_utc()
    linked = links(session, at, rules)
    findings = [*_ledger_findings(session, at, rules), *_chip_dumping(session, at, rules),
                *_linked_accounts(linked, rules), *_joint_play(session, at, rules, linked)]
    opened = []
    for rule, name, through, evidence in findings:
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
    """The open cases (``everything``: the closed and voided ones too), oldest first."""
    query = select(AmlCase).order_by(AmlCase.id)
    if not everything:
        query = query.where(AmlCase.status == "open")
    return [_case(row) for row in session.scalars(query)]


def _locked_case(session: Session, case_id: int) -> AmlCase:
    row = session.get(AmlCase, case_id, with_for_update=True, populate_existing=True)
    if row is None:
        raise AmlError(f"no case {case_id}")
    return row


def close_case(session: Session, case_id: int, staff: str, note: str) -> Case:
    """Staff close a case with what they found (both required), in the audit chain."""
    if not staff or not note.strip():
        raise AmlError("closing a case needs the staff member and a note")
    row = _locked_case(session, case_id)
    if row.status != "open":
        raise AmlError(f"case {case_id} is {row.status} already")
    row.status, row.closed_by, row.closed_at, row.note = "closed", staff, now_utc(), note
    append_audit(session, staff, "aml-close", {"case": case_id, "note": note})
    accounts.find(session, row.player)  # the player is still there to be read
    return _case(row)


# -- voiding the excess of a joint-play case ------------------------------------------------
@dataclass(frozen=True)
class Voided:
    """What a void did: the case, each of its player's bets with a part over the
    maximum (its stake, the part, what it paid, its net result and what was reversed:
    positive from the player to the house, negative to the player), the transfers, and
    whether the case had been voided already (nothing changed)."""

    case: Case
    bets: list[dict[str, Any]]
    transfers: list[dict[str, Any]]
    already: bool

    def to_json(self) -> dict[str, Any]:
        return {"case": self.case.to_json(), "bets": self.bets,
                "transfers": self.transfers, "already": self.already}


def reversed_part(net: int, excess: int, stake: int) -> int:
    """The net result of a bet's part over the maximum, rounded toward zero to the cent:
    a straight up of 1 € won at 35:1, all of it over; a banker bet of 3.01 € won (2.85 €
    after the commission), 1 € of it over; a bet of 7.01 € half lost (la partage), 4 € of
    it over.

    >>> reversed_part(3_500, 100, 100), reversed_part(285, 100, 301), reversed_part(-351, 400, 701)
    (3500, 94, -200)
    """
    part = abs(net) * excess // stake
    return part if net >= 0 else -part


def _paid(session: Session, case_id: int, bet: BetRow) -> int:
    """What a bet paid in the end: a bet held in prison, what it paid when it came out."""
    while bet.result == "prison" or bet.paid is None:
        carried = session.scalars(select(BetRow).where(
            BetRow.key == f"carry:{bet.round_id}:{bet.number}")).one_or_none()
        if carried is None or carried.paid is None:
            raise AmlError(f"case {case_id}: bet {bet.number} of round {bet.round_id} is still "
                           "in prison; void the case once it is settled")
        bet = carried
    return int(bet.paid)


def _excess_bets(session: Session, row: AmlCase) -> list[dict[str, Any]]:
    """The case's player's bets with a part over the maximum, with what each paid and
    the part of its result to reverse."""
    found = []
    for entry in json.loads(row.evidence)["rounds"]:
        for shown in entry["bets"]:
            if shown["player"] != row.player or not shown["excess"]:
                continue
            bet = session.scalars(select(BetRow).where(
                BetRow.round_id == entry["round"], BetRow.number == shown["bet"])
                ).one_or_none()
            if bet is None or (bet.player, bet.spot, bet.stake) != (
                    row.player, entry["spot"], shown["stake"]):
                raise AmlError(f"case {row.id}: bet {shown['bet']} of round {entry['round']} "
                               "is not the bet its evidence names")
            paid = _paid(session, row.id, bet)
            net = paid - bet.stake
            found.append({"round": entry["round"], "table": entry["table"],
                          "spot": entry["spot"], "bet": bet.number, "stake": bet.stake,
                          "excess": shown["excess"], "paid": paid, "net": net,
                          "reversed": reversed_part(net, shown["excess"], bet.stake)})
    return found


def _void_transfers(session: Session, case_id: int) -> list[dict[str, Any]]:
    source, target = aliased(Account), aliased(Account)
    rows = session.execute(
        select(Transfer.key, source.code, target.code, Transfer.amount, Transfer.round_id)
        .join(source, source.id == Transfer.source_id)
        .join(target, target.id == Transfer.target_id)
        .where(Transfer.key.startswith(f"{VOID_KEY}:{case_id}:", autoescape=True))
        .order_by(Transfer.id))
    return [{"key": key, "from": came_from, "to": went_to, "amount": int(amount),
             "round": round_id} for key, came_from, went_to, amount, round_id in rows]


def void_case(session: Session, case_id: int, staff: str, note: str) -> Voided:
    """Void the excess over the maximum of a joint-play case (see the module's text):
    its player's part of each bet over the maximum treated as never accepted, its net
    result reversed between the player and the house bank; the case ``voided`` with the
    staff member's note, in the audit chain. A case voided already: nothing changes,
    and ``already`` says so."""
    if not staff or not note.strip():
        raise AmlError("voiding a case needs the staff member and a note")
    row = _locked_case(session, case_id)
    if row.rule != "joint_play":
        raise AmlError(f"case {case_id} is a {row.rule} case: only a joint_play case is "
                       "voided")
    if row.status == "voided":
        return Voided(_case(row), _excess_bets(session, row), _void_transfers(session, case_id),
                      already=True)
    if row.status != "open":
        raise AmlError(f"case {case_id} is {row.status} already")
    bets = _excess_bets(session, row)
    by_round: Counter[int] = Counter()
    for bet in bets:
        by_round[bet["round"]] += bet["reversed"]
    wallet = accounts.wallet_code(row.player)
    reason = f"AML case {case_id}: {row.player}'s stake over the maximum is void (RAY 1.1)"
    postings = [Posting(f"{VOID_KEY}:{case_id}:{round_id}",
                        wallet if amount > 0 else BANK, BANK if amount > 0 else wallet,
                        abs(amount), "correction", f"{reason}, round {round_id}", round_id)
                for round_id, amount in sorted(by_round.items()) if amount]
    try:
        post(session, postings, actor=staff, action="aml-void", note={
            "case": case_id, "player": row.player, "note": note,
            "reversed": [[r, a] for r, a in sorted(by_round.items())]})
    except LedgerError as exc:
        raise AmlError(f"case {case_id} cannot be voided: {exc}; nothing was voided"
                       ) from None
    row.status, row.closed_by, row.closed_at, row.note = "voided", staff, now_utc(), note
    return Voided(_case(row), bets, _void_transfers(session, case_id), already=False)
