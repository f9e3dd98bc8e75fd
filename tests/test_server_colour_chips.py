"""Colour chips over the HTTP API: staff set a table's chips, a player buys a stack,
plays it at a live-mode table through the platform, sees it in the table's view and
exchanges it; every refusal is a 400 (409 for a key reused) with its message code,
and changes nothing."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from dbfixtures import STAFF_PASSWORD, Fixed, casino, sign_up
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from pelisali.platform import accounts, colour_chips
from pelisali.platform.db import transaction
from pelisali.platform.ledger import balance, balances, check
from pelisali.platform.rounds import place_bet, settle
from pelisali.server.app import create_app


@pytest.fixture
def db(tmp_path: Path) -> Engine:
    return casino(tmp_path)


def staff(client: TestClient) -> None:
    assert client.post("/api/login", json={"name": "floor", "password": STAFF_PASSWORD}
                       ).status_code == 200


def test_buy_play_see_and_exchange_colour_chips(db: Engine) -> None:
    client = TestClient(create_app(db, rng=Fixed(17)))
    staff(client)
    for name, game in (("live-1", "roulette"), ("mw-1", "money-wheel"), ("dd-1", "tuplanoppa")):
        assert client.post("/api/staff/tables", json={
            "name": name, "game": game, "min": 100, "max": 20_000, "mode": "live"}
                           ).status_code == 201
    refused = client.post("/api/staff/tables/mw-1/settings", json={"chips": "colour"})
    assert (refused.status_code, refused.json()["code"], refused.json()["params"]) == (
        400, "chips_value_only", {"section": "RAY 1.2.3"})
    refused = client.post("/api/staff/tables/dd-1/settings", json={"chips": "both"})
    assert refused.json()["params"] == {"section": "RAY 1.3.1"}
    changed = client.post("/api/staff/tables/live-1/settings", json={"chips": "colour"})
    assert changed.json() == {"name": "live-1", "status": "open", "min": 100, "max": 20_000,
                              "chips": "colour"}
    client.post("/api/logout")
    with transaction(db) as s:  # bob plays red at the table
        accounts.register(s, "bob", date(1990, 1, 1), "FI")
        accounts.deposit(s, "bob", 10_000, key="d-bob")
        colour_chips.buy(s, "live-1", "bob", "red", 100, 5, key="b1")
    sign_up(client, "ann", STAFF_PASSWORD, 10_000)
    with transaction(db) as s:
        before = balances(s)
    for body, status, code, params in (
            ({"colour": "gold", "unit": 500, "chips": 2, "key": "k1"}, 400,
             "chips_no_colour", {"colour": "gold"}),
            ({"colour": "red", "unit": 500, "chips": 2, "key": "k2"}, 400,
             "chips_colour_taken", {"colour": "red"}),
            ({"colour": "blue", "unit": 50, "chips": 2, "key": "k3"}, 400,
             "chips_unit", {"minimum": "1.00", "maximum": "200.00"}),
            ({"colour": "blue", "unit": 500, "chips": 0, "key": "k4"}, 422, "invalid",
             {"fields": "chips"})):
        answer = client.post("/api/tables/live-1/colour-chips", json=body)
        assert (answer.status_code, answer.json()["code"], answer.json()["params"]) == (
            status, code, params), body
    answer = client.post("/api/tables/mw-1/colour-chips", json={
        "colour": "blue", "unit": 500, "chips": 2, "key": "k5"})
    assert (answer.json()["code"], answer.json()["params"]) == (
        "chips_value_only", {"section": "RAY 1.2.3"})
    answer = client.post("/api/tables/live-1/colour-chips/exchange", json={"key": "x0"})
    assert answer.json()["code"] == "chips_none"
    with transaction(db) as s:
        assert balances(s) == before  # nothing changed
    bought = client.post("/api/tables/live-1/colour-chips", json={
        "colour": "blue", "unit": 500, "chips": 6, "key": "a1"}).json()
    assert bought["balance"] == 7_000 and bought["stack"]["held"] == 3_000
    assert bought["stack"]["names"] == {"fi": "sininen", "sv": "blå", "en": "blue"}
    reused = client.post("/api/tables/live-1/colour-chips", json={
        "colour": "blue", "unit": 500, "chips": 7, "key": "a1"})
    assert (reused.status_code, reused.json()["code"]) == (409, "key_reused")
    view = client.get("/api/tables/live-1/colour-chips").json()
    assert view["chips"] == "colour" and view["mine"]["chips"] == 6
    assert [(s["player"], s["colour"]) for s in view["stacks"]] == [("bob", "red"),
                                                                    ("ann", "blue")]
    assert [c["colour"] for c in view["palette"] if c["taken"]] == ["red", "blue"]
    with transaction(db) as s:  # the round as the live table plays it
        place_bet(s, "live-1", "ann", "straight 17", 500, key="bet-1")
        settle(s, "live-1", Fixed(17))
        assert balance(s, colour_chips.account_code("live-1", "ann")) == 2_500 + 18_000
    out = client.post("/api/tables/live-1/colour-chips/exchange", json={"key": "x1"}).json()
    assert out == {"exchanged": 20_500, "colour": "blue", "balance": 27_500}
    again = client.post("/api/tables/live-1/colour-chips/exchange", json={"key": "x1"}).json()
    assert again["balance"] == 27_500  # exchanged once
    with transaction(db) as s:
        assert check(s).ok
