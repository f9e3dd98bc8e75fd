"""Registration, login and logout, and who is logged in."""

from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response

from pelisali.platform import accounts, logins, queries
from pelisali.server.auth import COOKIE, SESSION_HOURS, AuthError, add_login, log_out, who
from pelisali.server.dependencies import AppState, Current
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import Credentials, Registration

router = APIRouter(tags=["players"], route_class=RetryingRoute)


@router.post("/api/register", status_code=201)
def register(body: Registration, state: AppState) -> dict[str, str]:
    accounts.check_registration(body.name, body.born, body.country)
    hashed = logins.hash_password(body.password)  # slow on purpose: outside the transaction
    with state.db() as session:
        accounts.register(session, body.name, body.born, body.country.upper())
        add_login(session, body.name, body.password, "player", actor=body.name,
                  hashed=hashed)
    return {"name": body.name}


@router.post("/api/login")
def login(body: Credentials, request: Request, response: Response, state: AppState,
          ) -> dict[str, str]:
    address = request.client.host if request.client else "?"
    if not state.logins.allow(f"{body.name}@{address}"):
        raise HTTPException(429, "too many attempts: wait a minute")
    with state.db() as session:
        stored = logins.stored_hash(session, body.name)
    if not logins.password_matches(stored, body.password):  # outside any transaction
        raise AuthError("wrong name or password")
    with state.db() as session:
        token = logins.start_session(session, body.name)
        found = who(session, token)
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict",
                        max_age=SESSION_HOURS * 3600)
    return {"name": found.name, "role": found.role}


@router.post("/api/logout")
def logout(request: Request, response: Response, state: AppState) -> dict[str, bool]:
    with state.db() as session:
        log_out(session, request.cookies.get(COOKIE))
    response.delete_cookie(COOKIE)
    return {"ok": True}


@router.get("/api/me")
def me(login: Current, state: AppState) -> dict[str, Any]:
    if login.role != "player":
        return {"name": login.name, "role": login.role}
    with state.db() as session:
        found = queries.profile(session, login.name)
    return {"name": login.name, "role": login.role, "balance": found.balance,
            "status": found.status,
            "excluded_until": ("forever" if found.excluded_forever else
                               found.excluded_until.isoformat()
                               if found.excluded_until else None)}
