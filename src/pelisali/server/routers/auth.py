"""Registration, login and logout, and who is logged in."""

import math
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response

from pelisali.platform import accounts, logins, queries
from pelisali.server.auth import (
    COOKIE,
    DEVICE_COOKIE,
    DEVICE_DAYS,
    SESSION_HOURS,
    AuthError,
    add_login,
    log_out,
    who,
)
from pelisali.server.dependencies import AppState, Current
from pelisali.server.links import link, links
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import Credentials, Registration

router = APIRouter(tags=["players"], route_class=RetryingRoute)


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


@router.post("/api/register", status_code=201, responses=links(
    201, login=link("/api/login", "post", request_body={
        "name": "$request.body#/name", "password": "$request.body#/password"})))
def register(body: Registration, request: Request, state: AppState) -> dict[str, str]:
    if not getattr(request.state, "registration_counted", False):  # once, not a try
        request.state.registration_counted = True
        if not (state.registrations.allow(_address(request))
                and state.all_registrations.allow("all")):
            raise HTTPException(429, "too many new accounts: try again later",
                                headers={"Retry-After": "60"})
    accounts.check_registration(body.name, body.born, body.country)
    hashed = logins.hash_password(body.password, body.name)  # slow: outside the transaction
    with state.db() as session:
        accounts.register(session, body.name, body.born, body.country.upper())
        add_login(session, body.name, body.password, "player", actor=body.name,
                  hashed=hashed)
    return {"name": body.name}


@router.post("/api/login")
def login(body: Credentials, request: Request, response: Response, state: AppState,
          ) -> dict[str, str]:
    address = _address(request)
    wait = state.logins.wait(body.name, address)
    if wait > 0:
        seconds = math.ceil(wait)
        raise HTTPException(429, f"too many failed logins: try again in {seconds} s",
                            headers={"Retry-After": str(seconds)})
    with state.db() as session:
        stored = logins.stored_hash(session, body.name)
    # An unknown name is checked against a hash too, so it takes as long as a known one.
    if not logins.password_matches(stored, body.password):  # outside any transaction
        state.logins.failed(body.name, address)
        raise AuthError("wrong name or password")
    state.logins.succeeded(body.name)
    # The browser's device id: the one it holds, or a new one if it holds none of ours.
    device = request.cookies.get(DEVICE_COOKIE)
    fresh = not logins.valid_device(device)
    if fresh:
        device = logins.new_device()
    with state.db() as session:
        token = logins.start_session(session, body.name, device=device, address=address)
        found = who(session, token)
    secure = state.security.secure_cookies or request.url.scheme == "https"
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", secure=secure,
                        max_age=SESSION_HOURS * 3600)
    if fresh and device:
        response.set_cookie(DEVICE_COOKIE, device, httponly=True, samesite="strict",
                            secure=secure, max_age=DEVICE_DAYS * 24 * 3600)
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
