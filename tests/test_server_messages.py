"""The refusals a player meets come with the message catalogue's code and parameters
(``pelisali.server.messages``), and the browser's catalogue (``web/static/messages.js``)
says every code in Finnish, Swedish and English: real refusals from the API, each
checked for its code and its amounts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from dbfixtures import STAFF_PASSWORD, casino, sign_up
from fastapi.testclient import TestClient

from pelisali.server.app import create_app
from pelisali.server.messages import CATALOGUE, coded

MESSAGES_JS = (Path(__file__).resolve().parents[1] / "src" / "pelisali" / "web" / "static"
               / "messages.js").read_text("utf-8")


def test_every_code_is_said_in_three_languages() -> None:
    for code in [*CATALOGUE, "invalid", "other", "busy"]:
        assert len(re.findall(rf'"err\.{code}":', MESSAGES_JS)) == 3, code


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    client = TestClient(create_app(casino(tmp_path)))
    sign_up(client, "ann", STAFF_PASSWORD, 10_000)
    return client


def play(client: TestClient, spot: str, amount: int, key: str = "k") -> dict[str, object]:
    answer = client.post("/api/play/roulette", json={
        "variant": "C", "key": key, "bets": [{"spot": spot, "amount": amount}]})
    assert answer.status_code in (400, 422), answer.text
    return dict(answer.json())


def test_real_refusals_carry_their_code_and_amounts(client: TestClient) -> None:
    over = play(client, "red", 20_000)
    assert (over["code"], over["params"]) == ("no_credit", {"held": "100.00",
                                                            "wanted": "200.00"})
    assert play(client, "nowhere", 100)["code"] == "no_spot"
    assert play(client, "nowhere", 100)["params"] == {"spot": "nowhere"}
    assert play(client, "red", 50)["params"] == {"stake": "0.50", "minimum": "1.00"}
    malformed = play(client, "red", -100)
    assert (malformed["code"], malformed["params"]) == ("invalid", {"fields": "bets"})
    assert isinstance(malformed["detail"], list)  # the validator's, for the API's users
    client.post("/api/limits", json={"kind": "loss", "period": "day", "amount": 500})
    assert play(client, "red", 600)["params"] == {"limit": "5.00", "period": "day"}
    client.post("/api/limits", json={"kind": "deposit", "period": "week", "amount": 1_000})
    deposit = client.post("/api/wallet/deposit", json={"amount": 2_000, "key": "d2"}).json()
    assert (deposit["code"], deposit["params"]) == ("deposit_limit", {
        "limit": "10.00", "period": "week"})
    client.post("/api/exclude", json={"days": 7})
    excluded = play(client, "red", 100, key="k2")
    assert excluded["code"] == "excluded" and excluded["params"]["until"][:2] == "20"


def test_registration_and_login_refusals(tmp_path: Path) -> None:
    client = TestClient(create_app(casino(tmp_path)))
    sign_up(client, "ann", STAFF_PASSWORD)
    client.post("/api/logout")

    def register(name: str, password: str, born: str = "1990-01-01",
                 country: str = "FI") -> dict[str, object]:
        answer = client.post("/api/register", json={
            "name": name, "password": password, "born": born, "country": country})
        assert answer.status_code in (400, 422), answer.text
        return dict(answer.json())

    assert register("ann", STAFF_PASSWORD)["code"] == "name_taken"
    assert register("a b", STAFF_PASSWORD) == {**register("a b", STAFF_PASSWORD),
                                               "code": "invalid", "params": {"fields": "name"}}
    assert register("kid", STAFF_PASSWORD, born="2020-01-01")["params"] == {"age": "18"}
    assert register("bob", "short")["params"] == {"least": "8"}
    assert register("bob", "password1")["code"] == "password_common"
    wrong = client.post("/api/login", json={"name": "ann", "password": "not-it-at-all"})
    assert wrong.status_code == 401 and wrong.json()["code"] == "login"


def test_a_sentence_the_catalogue_does_not_know_has_no_code() -> None:
    assert coded("the shoe is out of cards") is None
