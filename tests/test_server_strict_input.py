"""Strict input at the HTTP API, against the real server: money is a JSON integer of
cents or a decimal string of euros and nothing else; a non-finite or unreadable body is
a 422 whose answer is JSON, never a 500; a spot follows one grammar; a registration
names a real country and a plausible birth date. Each refusal changes nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from dbfixtures import STAFF_PASSWORD, Fixed, casino
from fastapi.testclient import TestClient
from pydantic import ValidationError
from sqlalchemy import Engine, func, select

from pelisali.platform.db import transaction
from pelisali.platform.ledger import balance, check, verify_audit
from pelisali.platform.models import BetRow, Limit, Player
from pelisali.server.app import create_app
from pelisali.server.json_safe import UNREADABLE
from pelisali.server.schemas import LiveSlip, PokerMessage

AMOUNT = "an amount is whole cents"  # the refusal of an amount in another form


@pytest.fixture
def db(tmp_path: Path) -> Engine:
    return casino(tmp_path)


@pytest.fixture
def client(db: Engine) -> Iterator[TestClient]:
    # A server error is answered 500 here rather than raised, so a test sees what the
    # client would.
    yield TestClient(create_app(db, rng=Fixed(17)), raise_server_exceptions=False)


@pytest.fixture
def ann(client: TestClient) -> TestClient:
    """``client`` logged in as ann, with 100.00 in her wallet."""
    assert client.post("/api/register", json={"name": "ann", "password": STAFF_PASSWORD,
                                              "born": "1990-01-01", "country": "FI"}
                       ).status_code == 201
    assert client.post("/api/login", json={"name": "ann", "password": STAFF_PASSWORD}
                       ).status_code == 200
    assert client.post("/api/wallet/deposit", json={"amount": 10_000, "key": "d0"}
                       ).json() == {"balance": 10_000}
    return client


def post_raw(client: TestClient, path: str, body: bytes) -> Any:
    return client.post(path, content=body, headers={"content-type": "application/json"})


def messages(answer: Any) -> str:
    """Every ``msg`` of a 422, from a body that must parse as strict JSON."""
    detail = json.loads(answer.text, parse_constant=lambda token: pytest.fail(token))
    return " | ".join(d["msg"] for d in detail["detail"])


def unchanged(db: Engine, client: TestClient, wallet: int = 10_000) -> None:
    """ann's wallet holds ``wallet``, no bet was taken and the ledger is sound."""
    assert client.get("/api/me").json()["balance"] == wallet
    with transaction(db) as s:
        assert balance(s, "player:ann") == wallet
        assert s.scalar(select(func.count()).select_from(BetRow)) == 0
        assert check(s).ok and verify_audit(s).ok


# -- non-finite and unreadable bodies ------------------------------------------------------
@pytest.mark.parametrize(("path", "body", "message"), [
    ("/api/wallet/deposit", b'{"amount": NaN, "key": "k"}', f"{AMOUNT} .*, not NaN"),
    ("/api/wallet/deposit", b'{"amount": Infinity, "key": "k"}', "not Infinity"),
    ("/api/wallet/deposit", b'{"amount": -Infinity, "key": "k"}', "not -Infinity"),
    ("/api/wallet/deposit", b'{"amount": 1e400, "key": "k"}', "not Infinity"),
    ("/api/wallet/withdraw", b'{"amount": NaN, "key": "k"}', "not NaN"),
    ("/api/wallet/deposit", b"NaN", "valid dictionary"),
    ("/api/wallet/deposit", b"[Infinity]", "valid dictionary"),
    ("/api/wallet/deposit", b'{"amount": 100, "key": NaN}', "valid string"),
    ("/api/wallet/deposit", b'{"key": "k", "extra": NaN}', "Field required"),
    ("/api/limits", b'{"kind": "loss", "period": "day", "amount": NaN}', "not NaN"),
    ("/api/exclude", b'{"days": NaN}', "valid integer"),
    ("/api/play/roulette",
     b'{"variant": "C", "key": "r", "bets": [{"spot": "red", "amount": 1e400}]}',
     "not Infinity"),
    ("/api/play/roulette/choose", b'{"round_id": NaN, "bet_id": 1, "option": "half"}',
     "valid integer"),
    ("/api/wallet/deposit", b'{"amount": ' + b"1" * 5_000 + b', "key": "k"}', UNREADABLE),
    ("/api/wallet/deposit", b'{"amount": 100, "key": "\xff\xfe"}', UNREADABLE),
])
def test_a_non_finite_or_unreadable_body_is_a_422_in_json(
        ann: TestClient, db: Engine, path: str, body: bytes, message: str) -> None:
    answer = post_raw(ann, path, body)
    assert answer.status_code == 422, answer.text
    assert re.search(message, messages(answer)), answer.text
    unchanged(db, ann)
    assert ann.get("/api/me").json()["excluded_until"] is None


def test_the_server_still_serves_after_such_a_body(ann: TestClient, db: Engine) -> None:
    for body in (b'{"amount": NaN, "key": "k"}', b"Infinity", b'{"amount": 1e400}'):
        assert post_raw(ann, "/api/wallet/deposit", body).status_code == 422
    assert ann.post("/api/wallet/deposit", json={"amount": 1, "key": "k"}
                    ).json() == {"balance": 10_001}


# -- the two forms of an amount ------------------------------------------------------------
@pytest.mark.parametrize("amount", [
    True, False, None, 100.0, 1.5, 0.0, -1.0, [100], {"cents": 100},
    "12.505", "1,5", "1,50", "-1", "+1", "-0.50", "1e3", " 12", "12 ", "", "012",
    "012.50", "12.", ".5", "0x10", "1_000", "1 000", "NaN", "Infinity", "inf",
    "\u0661\u0662",  # Arabic-Indic digits: int() reads them, the API does not
    "12.50\n",
])
def test_an_amount_in_another_form_is_refused(ann: TestClient, db: Engine,
                                              amount: object) -> None:
    for path, body in (("/api/wallet/deposit", {"amount": amount, "key": "k"}),
                       ("/api/wallet/withdraw", {"amount": amount, "key": "k"}),
                       ("/api/play/roulette", {"variant": "C", "key": "r", "bets": [
                           {"spot": "red", "amount": amount}]}),
                       ("/api/limits", {"kind": "loss", "period": "day", "amount": amount}),
                       ("/api/cards/blackjack/act", {"action": "insure", "seat": 1,
                                                     "amount": amount})):
        if amount is None and path in ("/api/limits", "/api/cards/blackjack/act"):
            continue  # null is "no limit", "no amount" there
        answer = ann.post(path, json=body)
        assert answer.status_code == 422, (path, answer.text)
        assert AMOUNT in messages(answer), answer.text
    unchanged(db, ann)
    with transaction(db) as s:
        assert s.scalar(select(func.count()).select_from(Limit)) == 0


@pytest.mark.parametrize(("amount", "cents"), [
    ("12.50", 1_250), ("12.5", 1_250), ("7", 700), ("100", 10_000), ("0.05", 5), ("0.5", 50),
    ("1000000000", 10**11), (1_250, 1_250), (1, 1),
])
def test_decimal_euros_are_cents(ann: TestClient, amount: object, cents: int) -> None:
    assert ann.post("/api/wallet/deposit", json={"amount": amount, "key": "d1"}
                    ).json() == {"balance": 10_000 + cents}
    if cents <= 10_000:
        assert ann.post("/api/wallet/withdraw", json={"amount": amount, "key": "w1"}
                        ).json() == {"balance": 10_000}


def test_a_bet_and_a_limit_in_euros(ann: TestClient, db: Engine) -> None:
    played = ann.post("/api/play/roulette", json={"variant": "C", "key": "r1", "bets": [
        {"spot": "straight 17", "amount": "1.00"}, {"spot": "red", "amount": "2.5"}]}).json()
    assert [(s["spot"], s["stake"], s["paid"]) for s in played["settlements"]] == [
        ("straight 17", 100, 3_600), ("red", 250, 0)]
    assert played["balance"] == 10_000 - 350 + 3_600
    assert ann.post("/api/limits", json={"kind": "loss", "period": "day", "amount": "20.00"}
                    ).status_code == 200
    assert ann.post("/api/limits", json={"kind": "deposit", "period": "day", "amount": "0"}
                    ).status_code == 200  # a limit of nothing is a limit
    with transaction(db) as s:
        assert sorted(s.scalars(select(Limit.amount))) == [0, 2_000]


@pytest.mark.parametrize(("amount", "message"), [
    ("0", "greater than 0"), ("0.00", "greater than 0"), (0, "greater than 0"),
    (-100, "greater than 0"), ("1000000000.01", "less than or equal"),
    (10**11 + 1, "less than or equal"),
])
def test_the_bounds_hold_in_both_forms(ann: TestClient, db: Engine, amount: object,
                                       message: str) -> None:
    answer = ann.post("/api/wallet/deposit", json={"amount": amount, "key": "k"})
    assert answer.status_code == 422 and message in messages(answer), answer.text
    unchanged(db, ann)


@pytest.mark.parametrize("number", [True, 5.0, "5"])
def test_counts_and_ids_are_json_integers(ann: TestClient, db: Engine, number: object) -> None:
    for path, body in (("/api/exclude", {"days": number}),
                       ("/api/play/roulette/choose", {"round_id": number, "bet_id": 1,
                                                      "option": "half"}),
                       ("/api/cards/blackjack/act", {"action": "insure", "seat": number,
                                                     "amount": 0})):
        answer = ann.post(path, json=body)
        assert answer.status_code == 422, (path, answer.text)
        assert "Input should be a valid integer" in messages(answer)
    assert ann.get("/api/me").json()["excluded_until"] is None  # true was one day's ban
    unchanged(db, ann)


def test_the_socket_messages_take_amounts_alike() -> None:
    """The live and poker sockets validate with the same types as the HTTP bodies."""
    slip = {"type": "bet", "key": "k", "bets": [{"spot": "red", "amount": "1.50"}]}
    assert LiveSlip.model_validate(slip).bets[0].amount == 150
    assert PokerMessage.model_validate({"type": "sit", "amount": "20"}).amount == 2_000
    for amount in (True, 100.0, float("nan"), "1,5"):
        with pytest.raises(ValidationError, match=AMOUNT):
            PokerMessage.model_validate({"type": "sit", "amount": amount})
        with pytest.raises(ValidationError, match=AMOUNT):
            LiveSlip.model_validate({**slip, "bets": [{"spot": "red", "amount": amount}]})


def test_the_schema_tells_clients_both_forms(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    forms = schema["Money"]["properties"]["amount"]["anyOf"]
    assert forms[0] == {"type": "integer", "exclusiveMinimum": 0, "maximum": 10**11}
    assert forms[1]["type"] == "string"
    euros = re.compile(forms[1]["pattern"])  # more than nothing, at most two decimals
    assert [bool(euros.fullmatch(t)) for t in ("12.50", "0.05", "7", "0", "0.00", "1.234",
                                               "012", ".5")] == [True, True, True, False,
                                                                 False, False, False, False]


# -- spots -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("spot", "reason"), [
    ("straight -1", "numbers have no sign"),
    ("straight +1", "numbers have no sign"),
    ("straight 1.0", "numbers have no sign"),
    ("straight 01", "leading zeros"),
    ("-17", "numbers have no sign"),
    ("straight 17-", "numbers have no sign"),
    ("split 0--1", "numbers have no sign"),
    ("straight 17 please", "a spot is a bet type"),
    ("red-", "a spot is a bet type"),
    ("straight 37", "37 is not a pocket of this wheel"),
    ("straight 00", "00 is not a pocket of this wheel"),
    ("37", "37 is not a pocket of this wheel"),
    ("straight 17 18", "no betting spot"),
    ("red black", "no betting spot"),
])
def test_a_spot_outside_the_grammar_is_refused_with_the_reason(
        ann: TestClient, db: Engine, spot: str, reason: str) -> None:
    answer = ann.post("/api/play/roulette", json={"variant": "C", "key": "r", "bets": [
        {"spot": "red", "amount": 100}, {"spot": spot, "amount": 100}]})
    assert answer.status_code == 400, answer.text
    detail = answer.json()["detail"]
    assert f"no betting spot {spot!r}" in detail and reason in detail
    unchanged(db, ann)


def test_words_are_still_case_insensitive(ann: TestClient) -> None:
    played = ann.post("/api/play/roulette", json={"variant": "C", "key": "r1", "bets": [
        {"spot": "Straight 17", "amount": 100}, {"spot": "BLACK", "amount": 100},
        {"spot": "Split 18 - 17", "amount": 100}]}).json()
    assert [(s["spot"], s["paid"]) for s in played["settlements"]] == [
        ("straight 17", 3_600), ("black", 200), ("split 17-18", 1_800)]


# -- registration ----------------------------------------------------------------------------
@pytest.mark.parametrize(("born", "country", "status", "message"), [
    ("1990-01-01", "ZZ", 400, "'ZZ' is not an ISO 3166-1 country code"),
    ("1990-01-01", "XX", 400, "'XX' is not an ISO 3166-1 country code"),
    ("1990-01-01", "qq", 400, "'QQ' is not an ISO 3166-1 country code"),
    ("1990-01-01", "UK", 400, "'UK' is not an ISO 3166-1 country code"),  # it is GB
    ("1990-01-01", "f\u0131", 422, "should match pattern"),  # "fı".upper() is "FI"
    ("0001-01-01", "FI", 400, "a date of birth is from 1900-01-01 to today"),
    ("1899-12-31", "FI", 400, "a date of birth is from 1900-01-01 to today"),
    ((date.today() + timedelta(days=2)).isoformat(), "FI", 400,
     "a date of birth is from 1900-01-01 to today"),
])
def test_a_registration_names_a_country_and_a_plausible_birth(
        client: TestClient, db: Engine, born: str, country: str, status: int,
        message: str) -> None:
    answer = client.post("/api/register", json={"name": "eve", "password": STAFF_PASSWORD,
                                                "born": born, "country": country})
    assert answer.status_code == status, answer.text
    assert message in answer.text
    with transaction(db) as s:
        assert s.scalar(select(func.count()).select_from(Player)) == 0
    assert client.post("/api/register", json={"name": "eve", "password": STAFF_PASSWORD,
                                              "born": "1900-01-01", "country": "gb"}
                       ).status_code == 201
