"""Provably fair draws over the HTTP API: the player's commitment before any round,
their client seed (bad input refused in the catalogue's words, nothing changed), the
setting at their own table, a round played and verified only after rotation reveals
the seed, and no one else's round shown."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from dbfixtures import STAFF_PASSWORD, casino, sign_up
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from pelisali.server.app import create_app


@pytest.fixture
def db(tmp_path: Path) -> Engine:
    return casino(tmp_path)


@pytest.fixture
def client(db: Engine) -> Iterator[TestClient]:
    client = TestClient(create_app(db))
    sign_up(client, "ann", STAFF_PASSWORD, 10_000)
    yield client


def test_a_fair_roulette_round_is_verified_once_its_seed_is_revealed(
        client: TestClient, db: Engine) -> None:
    seeds = client.get("/api/fair").json()
    current = seeds["current"]
    assert len(current["commitment"]) == 64 and current["server_seed"] is None
    assert (current["nonce"], seeds["revealed"]) == (0, [])
    assert client.put("/api/fair/client-seed", json={"client_seed": "ann-1"}).json()[
        "client_seed"] == "ann-1"
    assert client.put("/api/fair/tables/roulette", json={"on": True}).json() == {
        "table": "rng-roulette-C-ann", "fair": True}
    played = client.post("/api/play/roulette", json={
        "variant": "C", "bets": [{"spot": "red", "amount": 100}], "key": "p1"}).json()
    round_id = played["round_id"]
    hidden = client.get(f"/api/fair/rounds/{round_id}").json()
    assert hidden["matches"] is False and hidden["steps"][0]["server_seed"] is None
    assert hidden["steps"][0]["commitment"] == current["commitment"]
    assert hidden["outcome"] == [played["result"]] and hidden["recomputed"] == []
    rotated = client.post("/api/fair/rotate").json()
    seed = rotated["revealed"]["server_seed"]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == current["commitment"]
    assert rotated["revealed"]["rounds"] == 1
    assert rotated["current"]["commitment"] != current["commitment"]
    shown = client.get(f"/api/fair/rounds/{round_id}").json()
    assert shown["matches"] is True and shown["problem"] is None
    assert shown["recomputed"] == shown["outcome"] == [played["result"]]
    assert shown["steps"][0] | {"draws": None} == {
        "commitment": current["commitment"], "client_seed": "ann-1", "nonce": 0,
        "server_seed": seed, "draws": None}
    assert client.get("/api/fair").json()["revealed"][0]["server_seed"] == seed
    other = TestClient(client.app)
    sign_up(other, "bob", STAFF_PASSWORD)
    assert other.get(f"/api/fair/rounds/{round_id}").status_code == 404


def test_bad_requests_are_refused_in_the_catalogues_words(client: TestClient) -> None:
    before = client.get("/api/fair").json()
    for bad in ("two words", "a:b", "ä", ""):
        answer = client.put("/api/fair/client-seed", json={"client_seed": bad})
        assert answer.status_code == 400 and answer.json()["code"] == "fair_client_seed"
    assert client.put("/api/fair/client-seed",
                      json={"client_seed": "x" * 201}).status_code == 422
    assert client.put("/api/fair/client-seed",
                      json={"client_seed": "ok", "nonce": 0}).status_code == 422
    refused = client.post("/api/fair/rotate")
    assert refused.status_code == 400 and refused.json()["code"] == "fair_nothing_to_reveal"
    for game, code in (("chemin-de-fer", "fair_not_offered"),
                       ("roulette", "fair_not_offered")):
        answer = client.put(f"/api/fair/tables/{game}",
                            json={"on": True, "variant": "D" if game == "roulette" else None})
        assert answer.status_code == 400 and answer.json()["code"] == code
    assert client.put("/api/fair/tables/roulette", json={"on": "yes please"}
                      ).status_code == 422
    assert client.get("/api/fair").json() == before
    plain = client.post("/api/play/roulette", json={
        "variant": "C", "bets": [{"spot": "red", "amount": 100}], "key": "p1"}).json()
    answer = client.get(f"/api/fair/rounds/{plain['round_id']}")
    assert answer.status_code == 400 and answer.json()["code"] == "fair_not_fair"
