"""The staff's endpoints: opening wager and poker tables, a table's status and limits,
voiding a round, a player's status, the day's report, and the anti-money-laundering
cases (scan, read, close, and void a joint-play case's excess)."""

from datetime import date
from fractions import Fraction
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from pelisali.platform import accounts, aml, colour_chips, queries, tables
from pelisali.platform.report import day_report
from pelisali.server.dependencies import AppState, Staff
from pelisali.server.links import link, links
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import (
    CaseClosing,
    PokerTableRequest,
    StatusRequest,
    TableRequest,
    TableSettingsRequest,
    VoidRequest,
)

router = APIRouter(tags=["staff"], route_class=RetryingRoute)


@router.post("/api/staff/poker-tables", status_code=201)
def open_poker_table(body: PokerTableRequest, login: Staff, state: AppState) -> dict[str, str]:
    with state.db() as session:
        table = queries.open_poker_table(
            session, body.name, body.game, small_blind=body.small_blind,
            big_blind=body.big_blind, min_buy_in=body.min_buy_in,
            rake=Fraction(body.rake_percent, 100), rake_cap=body.rake_cap,
            time_charge=body.time_charge, time_charge_minutes=body.time_charge_minutes,
            fold_when_check_free=body.fold_when_check_free, auto_muck=body.auto_muck,
            actor=login.name)
    return {"name": table.name}


@router.post("/api/staff/tables", status_code=201, responses=links(
    201, settings=link("/api/staff/tables/{name}/settings", "post",
                       parameters={"name": "$response.body#/name"},
                       request_body={"status": "closed"}),
    void=link("/api/staff/tables/{name}/void", "post",
              parameters={"name": "$response.body#/name"},
              request_body={"reason": "mis-spin"}),
    live=link("/api/live/{name}", "get", parameters={"name": "$response.body#/name"})))
def open_table(body: TableRequest, login: Staff, state: AppState) -> dict[str, str]:
    with state.db() as session:
        table = queries.open_table(session, body.name, body.game, body.variant,
                                   limit_min=body.min, limit_max=body.max, mode=body.mode,
                                   actor=login.name)
    return {"name": table.name}


@router.post("/api/staff/tables/{name}/settings")
def table_settings(name: str, body: TableSettingsRequest, login: Staff, state: AppState,
                   ) -> dict[str, Any]:
    """Open or close a table, set its limits, or the chips it takes (``value``,
    ``colour`` or ``both``: RAY 1.2.1, 1.2.2, 1.3.2)."""
    with state.db() as session:
        table = queries.change_table(session, name, login.name, status=body.status,
                                     limit_min=body.min, limit_max=body.max)
        if body.chips is not None:
            colour_chips.set_chips(session, name, body.chips, login.name)
        chips = colour_chips.chips_of(session, name)
    return {"name": table.name, "status": table.status, "min": table.min, "max": table.max,
            "chips": chips}


@router.post("/api/staff/tables/{name}/void")
def void_round(name: str, body: VoidRequest, login: Staff, state: AppState) -> dict[str, int]:
    with state.db() as session:
        return {"round_id": tables.void(session, name, body.reason, login.name)}


@router.post("/api/staff/players/{name}/status")
def player_status(name: str, body: StatusRequest, login: Staff, state: AppState,
                  ) -> dict[str, bool]:
    with state.db() as session:
        accounts.set_status(session, name, body.status, body.reason, login.name)
    return {"ok": True}


@router.get("/api/staff/report")
def report(login: Staff, state: AppState,
           day: Annotated[date | None, Query(alias="date")] = None) -> dict[str, Any]:
    chosen = day or date.today()
    with state.db() as session:
        rows = day_report(session, chosen)
    return {"date": chosen.isoformat(), "tables": [{
        "table": r.table, "game": r.game, "rounds": r.rounds, "bets": r.bets,
        "staked": r.staked, "paid": r.paid, "ggr": r.ggr, **r.lines,
        "observed_rtp": None if r.observed_rtp is None else str(r.observed_rtp),
        "theoretical_rtp": None if r.theoretical_rtp is None else str(r.theoretical_rtp),
    } for r in rows]}


@router.post("/api/staff/aml/scan")
def aml_scan(login: Staff, state: AppState) -> dict[str, Any]:
    """Run the monitoring rules now; the cases they opened (the server also runs them
    every ten minutes)."""
    with state.db() as session:
        return {"opened": [c.to_json() for c in aml.scan(session)]}


@router.get("/api/staff/aml/cases")
def aml_cases(login: Staff, state: AppState,
              everything: Annotated[bool, Query(alias="all")] = False) -> dict[str, Any]:
    """The open anti-money-laundering cases (``all=true``: the closed ones too)."""
    with state.db() as session:
        return {"cases": [c.to_json() for c in aml.cases(session, everything)]}


@router.post("/api/staff/aml/cases/{case_id}/close")
def aml_close(case_id: Annotated[int, Path(gt=0, le=2**62)], body: CaseClosing, login: Staff,
              state: AppState) -> dict[str, Any]:
    """Close a case with the staff member's note (in the audit chain)."""
    with state.db() as session:
        return aml.close_case(session, case_id, login.name, body.note).to_json()


@router.post("/api/staff/aml/cases/{case_id}/void")
def aml_void(case_id: Annotated[int, Path(gt=0, le=2**62)], body: CaseClosing, login: Staff,
             state: AppState) -> dict[str, Any]:
    """Void the excess over the maximum of a joint-play case (RAY 1.1) through the
    ledger, with the staff member's note; a case voided already answers what its void
    did, with ``already`` true, and changes nothing."""
    with state.db() as session:
        return aml.void_case(session, case_id, login.name, body.note).to_json()
