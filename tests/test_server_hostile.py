"""A hostile client against the real server, on SQLite and PostgreSQL: forged cross-site
requests, bodies and socket messages too large or too many, login spraying, weak
passwords, registration floods. Each probe gets the safe answer, and nothing of it
moves money. (docs/security.md names what each limit defends.)"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from dbfixtures import Fixed, sign_up
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from starlette.websockets import WebSocketDisconnect

from pelisali.platform import logins
from pelisali.platform.db import transaction
from pelisali.platform.ledger import check, move, verify_audit
from pelisali.server.app import COOKIE, create_app
from pelisali.server.auth import LoginGuard, add_login
from pelisali.server.clock import ManualClock
from pelisali.server.security import HEADERS, Security

PASSWORD = "correct horse battery"
EVIL = "https://evil.example"


def make(engine: Engine, security: Security | None = None,
         base_url: str = "http://testserver") -> TestClient:
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", 10**9, "funding")
        add_login(s, "floor", PASSWORD, "staff")
    app = create_app(engine, rng=Fixed(17), live_window=2.0, live_pause=1.0,
                     clock=ManualClock(), security=security)
    return TestClient(app, base_url=base_url)


@pytest.fixture
def client(engine: Engine) -> Iterator[TestClient]:
    with make(engine) as c:
        yield c


def player(client: TestClient, name: str = "ann", deposit: int = 10_000) -> None:
    sign_up(client, name, PASSWORD, deposit, key="d")


def balance(client: TestClient) -> int:
    return int(client.get("/api/me").json()["balance"])


def sound(engine: Engine) -> None:
    with transaction(engine) as s:
        assert check(s).ok and verify_audit(s).ok


# -- forged requests -----------------------------------------------------------------------
def test_a_foreign_origin_moves_no_money(client: TestClient, engine: Engine) -> None:
    """A page elsewhere posting with the player's cookie (CSRF) is refused; the
    server's own page, and an API client that sends no Origin, are not."""
    player(client)
    for path, body in (("/api/wallet/withdraw", {"amount": 5_000, "key": "w1"}),
                       ("/api/play/roulette", {"variant": "C", "key": "s1",
                                               "bets": [{"spot": "red", "amount": 100}]}),
                       ("/api/logout", {})):
        for origin in (EVIL, "null", "http://testserver.evil.example"):
            refused = client.post(path, json=body, headers={"Origin": origin})
            assert refused.status_code == 403, (path, origin)
            assert "is not allowed here" in refused.json()["detail"]
    assert balance(client) == 10_000
    assert client.post("/api/wallet/withdraw", json={"amount": 1_000, "key": "w2"},
                       headers={"Origin": "http://testserver"}).status_code == 200
    assert client.post("/api/wallet/withdraw", json={"amount": 1_000, "key": "w3"}
                       ).status_code == 200  # no Origin: not a browser's cross-site post
    assert balance(client) == 8_000
    # Reading is not changing: a GET from anywhere is answered (the cookie is SameSite).
    assert client.get("/api/me", headers={"Origin": EVIL}).status_code == 200
    sound(engine)


def test_an_allowed_origin_is_a_setting(engine: Engine) -> None:
    shop = "https://www.casino.example"
    with make(engine, Security(allowed_origins=frozenset({shop}))) as client:
        player(client, deposit=0)
        assert client.post("/api/wallet/deposit", json={"amount": 500, "key": "d2"},
                           headers={"Origin": shop}).status_code == 200
        assert client.post("/api/wallet/deposit", json={"amount": 500, "key": "d3"},
                           headers={"Origin": EVIL}).status_code == 403
        assert balance(client) == 500


def test_a_table_socket_from_a_foreign_origin_is_refused(client: TestClient) -> None:
    player(client)
    token = client.cookies[COOKIE]
    client.cookies.clear()
    staff = client.post("/api/login", json={"name": "floor", "password": PASSWORD})
    assert client.post("/api/staff/tables", json={
        "name": "live-1", "game": "roulette", "variant": "C", "min": 100, "max": 50_000,
        "mode": "live"}).status_code == 201, staff.text
    client.cookies.clear()
    headers = {"cookie": f"{COOKIE}={token}"}
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(
            "/ws/live/live-1", headers={**headers, "origin": EVIL}) as ws:
        ws.receive_json()
    assert refused.value.code == 4403 and "not allowed" in refused.value.reason
    with client.websocket_connect("/ws/live/live-1",
                                  headers={**headers, "origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "state"


# -- sizes and headers ---------------------------------------------------------------------
def test_a_body_past_the_limit_is_refused_before_it_is_read(client: TestClient) -> None:
    player(client)
    huge = {"amount": 100, "key": "x" * 70_000}
    answer = client.post("/api/wallet/deposit", json=huge)
    assert answer.status_code == 413 and "at most 65536 bytes" in answer.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        yield b'{"amount": 100, "key": "'
        for _ in range(20):
            yield b"y" * 8_192
        yield b'"}'

    chunked = client.post("/api/wallet/deposit", content=chunks(),
                          headers={"content-type": "application/json"})
    assert chunked.status_code == 413
    lying = client.post("/api/wallet/deposit", content=b"{}",
                        headers={"content-length": "999999999999",
                                 "content-type": "application/json"})
    assert lying.status_code == 413
    assert balance(client) == 10_000


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for answer in (client.get("/"), client.get("/api/lobby"),
                   client.post("/api/login", json={"name": "x", "password": "y" * 8}),
                   client.post("/api/login", headers={"Origin": EVIL}, json={})):
        for name, value in HEADERS.items():
            assert answer.headers[name] == value
    assert "frame-ancestors 'none'" in HEADERS["content-security-policy"]


def test_the_session_cookie_is_secure_over_https_or_by_setting(engine: Engine) -> None:
    def cookie_of(client: TestClient) -> str:
        player(client, deposit=0)
        client.post("/api/logout")
        answer = client.post("/api/login", json={"name": "ann", "password": PASSWORD})
        return answer.headers["set-cookie"].lower()

    with make(engine) as plain:
        header = cookie_of(plain)
    assert "httponly" in header and "samesite=strict" in header and "secure" not in header
    # `pelisali serve` on an address other than this machine's own: Secure by default.
    every_interface = "0.0.0.0"  # noqa: S104 - an address to judge; this test binds nothing
    assert Security.from_environment(every_interface).secure_cookies
    assert not Security.from_environment("127.0.0.1").secure_cookies


@pytest.mark.parametrize("how", ["https", "setting"])
def test_secure_cookies(engine: Engine, how: str) -> None:
    security = Security(secure_cookies=how == "setting")
    base = "https://testserver" if how == "https" else "http://testserver"
    with make(engine, security, base_url=base) as client:
        assert client.post("/api/register", json={"name": "ann", "password": PASSWORD,
                                                  "born": "1990-01-01", "country": "FI"}
                           ).status_code == 201
        answer = client.post("/api/login", json={"name": "ann", "password": PASSWORD})
        assert answer.status_code == 200
        assert "; secure" in answer.headers["set-cookie"].lower()


# -- logins and registrations --------------------------------------------------------------
def test_spraying_one_password_over_many_names_is_slowed_down(client: TestClient) -> None:
    """From one address: twenty failures over twenty names, then each try waits; a
    flood from everywhere is counted too."""
    now = [0.0]
    state = client.app.state.pelisali  # type: ignore[attr-defined]
    state.logins = LoginGuard(per_name=5, per_address=20, total=30, now=lambda: now[0])
    answers = [client.post("/api/login", json={"name": f"user{n}", "password": "Summer2026!"})
               .status_code for n in range(22)]
    assert answers == [401] * 20 + [429] * 2
    now[0] = 1.0  # the wait is over: one more try, then a longer wait
    assert client.post("/api/login", json={"name": "user0", "password": "x" * 8}
                       ).status_code == 401
    assert client.post("/api/login", json={"name": "user1", "password": "x" * 8}
                       ).status_code == 429
    # A flood from everywhere is held back by the total (the address here is fixed).
    state.logins = LoginGuard(per_name=5, per_address=100, total=10, now=lambda: now[0])
    answers = [client.post("/api/login", json={"name": f"user{n}", "password": "Summer2026!"})
               .status_code for n in range(12)]
    assert answers == [401] * 10 + [429] * 2


def test_an_unknown_name_costs_one_password_check_as_a_known_one_does(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    player(client, deposit=0)
    client.post("/api/logout")
    checked: list[str] = []
    real = logins._HASHER

    class Counting:
        def verify(self, stored: str, password: str) -> Any:
            checked.append(stored)
            return real.verify(stored, password)

        def hash(self, password: str) -> str:
            return real.hash(password)

    monkeypatch.setattr(logins, "_HASHER", Counting())
    assert client.post("/api/login", json={"name": "ann", "password": "wrong password"}
                       ).status_code == 401
    assert client.post("/api/login", json={"name": "nobody", "password": "wrong password"}
                       ).status_code == 401
    assert len(checked) == 2 and checked[1] == logins._NOBODY  # a real argon2 check each
    assert checked[0].startswith("$argon2") and checked[1].startswith("$argon2")


def test_registrations_are_limited(engine: Engine) -> None:
    with make(engine, Security(registrations_per_address=3)) as client:
        answers = [client.post("/api/register", json={
            "name": f"p{n}", "password": PASSWORD, "born": "1990-01-01",
            "country": "FI"}) for n in range(5)]
        assert [a.status_code for a in answers] == [201, 201, 201, 429, 429]
        assert answers[3].headers["Retry-After"] == "60"


@pytest.mark.parametrize(("password", "reason"), [
    ("password", "one of the most common"),
    ("        ", "spaces only"),
    ("12345678", "one of the most common"),
    ("Salasana1", "one of the most common"),
    ("qwertyqwerty", "too easy to guess"),
    ("annannann", "not the login's name"),
    ("short", "at least 8 characters"),
])
def test_weak_passwords_are_refused(client: TestClient, password: str, reason: str) -> None:
    """NIST SP 800-63B 5.1.1.2: length, a blocklist of common passwords, and the
    strength estimate; the account is not made."""
    answer = client.post("/api/register", json={"name": "ann", "password": password,
                                                "born": "1990-01-01", "country": "FI"})
    assert answer.status_code == 400 and reason in answer.json()["detail"], answer.text
    assert client.post("/api/login", json={"name": "ann", "password": password}
                       ).status_code == 401


# -- table sockets -------------------------------------------------------------------------
def live_table(client: TestClient) -> dict[str, str]:
    """A live table and ann's socket headers."""
    player(client)
    token = client.cookies[COOKIE]
    client.cookies.clear()
    client.post("/api/login", json={"name": "floor", "password": PASSWORD})
    assert client.post("/api/staff/tables", json={
        "name": "live-1", "game": "roulette", "variant": "C", "min": 100, "max": 50_000,
        "mode": "live"}).status_code == 201
    client.cookies.clear()
    return {"cookie": f"{COOKIE}={token}"}


def test_a_socket_message_past_the_limit_closes_the_socket(client: TestClient) -> None:
    ann = live_table(client)
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(
            "/ws/live/live-1", headers=ann) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_text(json.dumps({"type": "hello", "since": 0, "pad": "x" * 9_000}))
        while True:
            ws.receive_json()
    assert closed.value.code == 1009 and "at most 8192 bytes" in closed.value.reason


def test_a_flood_of_socket_messages_is_slowed_then_closed(engine: Engine) -> None:
    with make(engine, Security(ws_rate=3, ws_account_rate=100)) as client:
        ann = live_table(client)
        errors = 0
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(
                "/ws/live/live-1", headers=ann) as ws:
            assert ws.receive_json()["type"] == "state"
            for _ in range(20):
                ws.send_json({"type": "nothing"})
            while True:
                message = ws.receive_json()
                errors += message.get("reason") == "too many messages: slow down"
        assert errors >= 1
        assert closed.value.code == 1008 and "more than 9 messages" in closed.value.reason


def test_a_player_holds_a_bounded_number_of_sockets(engine: Engine) -> None:
    with make(engine, Security(ws_max_sockets=2)) as client:
        ann = live_table(client)
        with client.websocket_connect("/ws/live/live-1", headers=ann) as one, \
                client.websocket_connect("/ws/live/live-1", headers=ann) as two:
            assert one.receive_json()["type"] == two.receive_json()["type"] == "state"
            with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(
                    "/ws/live/live-1", headers=ann) as three:
                three.receive_json()
            assert refused.value.code == 4429 and "at most 2" in refused.value.reason
        with client.websocket_connect("/ws/live/live-1", headers=ann) as again:
            assert again.receive_json()["type"] == "state"  # the first two are closed


def test_a_hello_resends_a_bounded_number_of_events(engine: Engine) -> None:
    """5,000 hellos used to resend every stored event each: now a hello from far
    behind gets a notice and the last events only."""
    with make(engine, Security(hello_resend=2, ws_rate=1_000, ws_account_rate=1_000)
              ) as client:
        ann = live_table(client)
        state = client.app.state.pelisali  # type: ignore[attr-defined]
        with client.websocket_connect("/ws/live/live-1", headers=ann) as ws:
            assert ws.receive_json()["type"] == "state"
            ws.receive_json()  # the round's window opens for her
        for n in range(6):  # events the table kept meanwhile
            client.portal.call(state.bus.publish, "live-1", {"type": "note", "n": n,
                                                             "audience": None})
        with client.websocket_connect("/ws/live/live-1", headers=ann) as ws:
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "hello", "since": 0})
            notice = ws.receive_json()
            assert notice["code"] == "too-far-behind" and "last 2 events" in notice["reason"]
            resent = [ws.receive_json() for _ in range(2)]
            assert [m.get("n") for m in resent] == [4, 5]
