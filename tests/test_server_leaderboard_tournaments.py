"""Table-game and slot tournaments over the API: a roulette sprint from the staff's
announcement through three players' rounds to the leaderboard's prizes in their wallets,
with every cent on the ledger; a blackjack tournament decided hand by hand; a slot
tournament whose time limit, read from the server's manual clock, finishes it on the
next request; refunds on a cancellation; and the refusals: another player's entry, a
bet over the table limit, a key sent again with another request, a poker tournament's
id, a malformed body, a player who is not staff."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from test_server_tournaments import SNG, Headers, casino, people, wallet

from pelisali.platform import leaderboard_tournaments as boards
from pelisali.platform.db import transaction
from pelisali.platform.ledger import balance, check
from pelisali.rng import SeededRng
from pelisali.server.app import create_app
from pelisali.server.clock import ManualClock

SPRINT = {
    "structure": "roulette-sprint",
    "name": "Rulettisprintti",
    "rounds": 2,
    "buy_in": 1_000,
    "fee": 100,
    "capacity": 10,
}
PLAYERS = ("ann", "bob", "cid")


@pytest.fixture
def served(tmp_path: Path) -> tuple[Engine, ManualClock, Any]:
    engine = casino(tmp_path)
    clock = ManualClock(1_800_000_000.0)
    return engine, clock, create_app(engine, rng=SeededRng(7), clock=clock)


def entered(
    client: TestClient, h: Headers, tid: int, names: tuple[str, ...] = PLAYERS
) -> dict[str, str]:
    entries = {}
    for name in names:
        answer = client.post(
            f"/api/leaderboard-tournaments/{tid}/register",
            headers=h[name],
            json={"key": f"r-{name}"},
        )
        assert answer.status_code == 201, answer.text
        entries[name] = answer.json()["entry"]
    return entries


def test_a_roulette_sprint_is_played_to_its_prizes(served: tuple[Engine, ManualClock, Any]) -> None:
    engine, _, app = served
    with TestClient(app) as client:
        h = people(client)
        made = client.post("/api/staff/leaderboard-tournaments", headers=h["floor"], json=SPRINT)
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        lobby = client.get("/api/leaderboard-tournaments").json()["tournaments"]
        assert [(t["id"], t["kind"], t["game"], t["status"], t["rounds"]) for t in lobby] == [
            (tid, "table", "roulette-C", "registering", 2)
        ]
        entries = entered(client, h, tid)
        assert wallet(client, h["ann"]) == 10_000 - 1_100
        retry = client.post(
            f"/api/leaderboard-tournaments/{tid}/register", headers=h["ann"], json={"key": "r-ann"}
        )
        assert retry.status_code == 201 and retry.json()["entry"] == entries["ann"]
        assert wallet(client, h["ann"]) == 8_900  # the retry moved nothing
        early = client.post(
            f"/api/leaderboard-tournaments/{tid}/play",
            headers=h["ann"],
            json={"entry": entries["ann"], "bets": ["bet red 100"], "key": "p0"},
        )
        assert early.status_code == 409  # not started

        before = client.get(f"/api/leaderboard-tournaments/{tid}", headers=h["ann"]).json()
        assert before["choices"] == []  # offered only while it runs
        started = client.post(f"/api/staff/leaderboard-tournaments/{tid}/start", headers=h["floor"])
        assert started.status_code == 200, started.text
        offered = client.get(f"/api/leaderboard-tournaments/{tid}", headers=h["ann"]).json()
        choices = {c["bet"]: c["amounts"] for c in offered["choices"]}
        # every spot of the wheel, from 1 chip to the round's maximum (2,500)
        assert len(choices) == 157 and choices["bet red"] == [1, 2_500]
        assert choices["bet straight 17"] == choices["bet dozen 3"] == [1, 2_500]
        chips = {}
        for name, bets in (
            ("ann", ["bet red 2500"]),
            ("bob", ["bet black 100", "bet 17 100"]),
            ("cid", ["bet even 1000"]),
        ):
            for number in (1, 2):
                answer = client.post(
                    f"/api/leaderboard-tournaments/{tid}/play",
                    headers=h[name],
                    json={"entry": entries[name], "bets": bets, "key": f"{name}-{number}"},
                )
                assert answer.status_code == 200, answer.text
                body = answer.json()
                assert body["round"] == number and body["over"] is True
                assert body["chips"] == (chips.get(name, 10_000) - body["staked"] + body["paid"])
                chips[name] = body["chips"]
        again = client.post(
            f"/api/leaderboard-tournaments/{tid}/play",
            headers=h["ann"],
            json={"entry": entries["ann"], "bets": ["bet red 2500"], "key": "ann-2"},
        )
        assert again.status_code == 200 and again.json()["round"] == 2  # a retry, not a round
        results = client.get(f"/api/leaderboard-tournaments/{tid}/results").json()
        assert results["status"] == "finished" and results["pool"] == 3_000
        board = {row["player"]: row for row in results["places"]}
        assert {p: board[p]["chips"] for p in PLAYERS} == chips
        assert sum(row["prize"] for row in results["places"]) == 3_000
        for name in PLAYERS:
            assert wallet(client, h[name]) == 8_900 + board[name]["prize"]
        page = client.get(f"/api/leaderboard-tournaments/{tid}", headers=h["bob"]).json()
        assert page["mine"] == [
            {
                "entry": entries["bob"],
                "chips": chips["bob"],
                "rounds": 2,
                "done": True,
                "why_not": f"{entries['bob']} has played all 2 rounds",
                "open": None,
            }
        ]
        # each player reads their own rounds back, the staff every round
        bobs = client.get(f"/api/leaderboard-tournaments/{tid}/rounds", headers=h["bob"])
        assert bobs.status_code == 200, bobs.text
        kept = bobs.json()["rounds"]
        assert [(r["entry"], r["round"]) for r in kept] == [(entries["bob"], 1),
                                                            (entries["bob"], 2)]
        assert all(r["staked"] == 200 and any(m[0] == -1 for m in r["moves"]) for r in kept)
        assert 10_000 + sum(r["paid"] - r["staked"] for r in kept) == chips["bob"]
        every = client.get(f"/api/staff/leaderboard-tournaments/{tid}/rounds",
                           headers=h["floor"]).json()["rounds"]
        assert len(every) == 6
        refused = client.get(f"/api/staff/leaderboard-tournaments/{tid}/rounds",
                             headers=h["bob"])
        assert refused.status_code == 403
        assert client.get(f"/api/leaderboard-tournaments/{tid}/rounds").status_code == 401
    with transaction(engine) as s:
        assert balance(s, f"tournament:{tid}") == 0 and balance(s, "fee:tournaments") == 300
        assert boards.reconcile(s, tid) == [] and check(s).problems == []


def test_a_blackjack_round_is_decided_by_its_own_player(
    served: tuple[Engine, ManualClock, Any],
) -> None:
    _, _, app = served
    with TestClient(app) as client:
        h = people(client)
        tid = client.post(
            "/api/staff/leaderboard-tournaments",
            headers=h["floor"],
            json={"structure": "blackjack-100", "name": "BJ", "rounds": 3},
        ).json()["id"]
        entries = entered(client, h, tid, ("ann", "bob"))
        client.post(f"/api/staff/leaderboard-tournaments/{tid}/start", headers=h["floor"])
        ann = entries["ann"]
        for number in range(1, 4):
            body = client.post(
                f"/api/leaderboard-tournaments/{tid}/play",
                headers=h["ann"],
                json={"entry": ann, "bets": ["bet box 1 100"], "key": f"a{number}"},
            ).json()
            turn = 0
            while not body["over"]:
                assert "stand" in body["actions"]
                page = client.get(f"/api/leaderboard-tournaments/{tid}", headers=h["ann"]).json()
                assert page["mine"][0]["open"]["actions"] == body["actions"]
                theirs = client.post(
                    f"/api/leaderboard-tournaments/{tid}/decide",
                    headers=h["bob"],
                    json={"entry": ann, "action": "stand", "key": "x"},
                )
                assert theirs.status_code == 409
                assert theirs.json()["detail"] == f"{ann} is not your entry in tournament {tid}"
                turn += 1
                body = client.post(
                    f"/api/leaderboard-tournaments/{tid}/decide",
                    headers=h["ann"],
                    json={"entry": ann, "action": "stand", "key": f"a{number}-{turn}"},
                ).json()
            assert body["round"] == number
        page = client.get(f"/api/leaderboard-tournaments/{tid}", headers=h["ann"]).json()
        assert page["mine"][0]["rounds"] == 3 and page["mine"][0]["done"] is True


def test_the_time_limit_finishes_on_the_next_request(
    served: tuple[Engine, ManualClock, Any],
) -> None:
    engine, clock, app = served
    with TestClient(app) as client:
        h = people(client)
        tid = client.post(
            "/api/staff/leaderboard-tournaments",
            headers=h["floor"],
            json={
                "structure": "slot-10-minutes",
                "name": "Kymppi",
                "buy_in": 500,
                "guarantee": 5_000,
            },
        ).json()["id"]
        entries = entered(client, h, tid, ("ann", "bob"))
        client.post(f"/api/staff/leaderboard-tournaments/{tid}/start", headers=h["floor"])
        page = client.get(f"/api/leaderboard-tournaments/{tid}").json()
        assert page["status"] == "running" and page["seconds_left"] == 600
        clock.advance(599)
        assert client.get(f"/api/leaderboard-tournaments/{tid}").json()["seconds_left"] == 1
        assert (
            client.post(
                f"/api/staff/leaderboard-tournaments/{tid}/finish", headers=h["floor"]
            ).status_code
            == 409
        )  # not over yet
        clock.advance(1)
        late = client.post(
            f"/api/leaderboard-tournaments/{tid}/play",
            headers=h["ann"],
            json={"entry": entries["ann"], "bets": ["spin 1 1"], "key": "s1"},
        )
        assert late.status_code == 409  # the time is up: the round is refused
        assert late.json()["code"] == "board_time_up"
        page = client.get(f"/api/leaderboard-tournaments/{tid}").json()
        assert page["status"] == "finished" and page["seconds_left"] == 0
        # two entries tie on their starting credits and share the 5,000 guaranteed
        assert [row["prize"] for row in page["leaderboard"]] == [2_500, 2_500]
        assert wallet(client, h["ann"]) == 10_000 - 500 + 2_500
    with transaction(engine) as s:
        assert boards.reconcile(s, tid) == [] and check(s).problems == []


def test_a_cancellation_refunds_and_refusals_change_nothing(
    served: tuple[Engine, ManualClock, Any],
) -> None:
    _, _, app = served
    with TestClient(app) as client:
        h = people(client)
        tid = client.post(
            "/api/staff/leaderboard-tournaments", headers=h["floor"], json=SPRINT
        ).json()["id"]
        entries = entered(client, h, tid, ("ann", "bob"))
        client.post(f"/api/staff/leaderboard-tournaments/{tid}/start", headers=h["floor"])
        url = f"/api/leaderboard-tournaments/{tid}/play"
        over = client.post(
            url,
            headers=h["ann"],
            json={"entry": entries["ann"], "bets": ["bet red 2600"], "key": "k"},
        )
        assert over.status_code == 409
        assert (over.json()["code"], over.json()["params"]) == ("board_bet_most", {"chips": "2500"})
        reused = client.post(
            url,
            headers=h["ann"],
            json={"entry": entries["ann"], "bets": ["bet red 100"], "key": "k"},
        )
        assert reused.status_code == 200  # the refused request took no key
        other = client.post(
            url,
            headers=h["ann"],
            json={"entry": entries["ann"], "bets": ["bet black 100"], "key": "k"},
        )
        assert other.status_code == 409 and "send a new key" in other.json()["detail"]
        nowhere = client.post(
            url,
            headers=h["ann"],
            json={"entry": entries["ann"], "bets": ["bet purple 100"], "key": "q"},
        )
        assert nowhere.status_code == 409
        malformed = client.post(url, headers=h["ann"], json={"entry": entries["ann"], "bets": []})
        assert malformed.status_code == 422 and malformed.json()["code"] == "invalid"
        assert (
            client.post(
                "/api/staff/leaderboard-tournaments", headers=h["ann"], json=SPRINT
            ).status_code
            == 403
        )
        unknown = client.post(
            "/api/staff/leaderboard-tournaments",
            headers=h["floor"],
            json={**SPRINT, "structure": "bingo"},
        )
        assert unknown.status_code == 400
        negative = client.post(
            "/api/staff/leaderboard-tournaments", headers=h["floor"], json={**SPRINT, "buy_in": -1}
        )
        assert negative.status_code == 422
        poker = client.post("/api/staff/tournaments", headers=h["floor"], json=SNG).json()["id"]
        assert client.get(f"/api/leaderboard-tournaments/{poker}").status_code == 409
        assert client.get("/api/leaderboard-tournaments/99999").status_code == 404
        assert (
            client.post(
                f"/api/leaderboard-tournaments/{poker}/register",
                headers=h["cid"],
                json={"key": "c"},
            ).status_code
            == 409
        )
        assert wallet(client, h["cid"]) == 10_000

        cancelled = client.post(
            f"/api/staff/leaderboard-tournaments/{tid}/cancel", headers=h["floor"]
        )
        assert cancelled.status_code == 200
        assert cancelled.json()["owed"] == {"ann": 1_100, "bob": 1_100}
        assert wallet(client, h["ann"]) == wallet(client, h["bob"]) == 10_000
        assert (
            client.post(
                url,
                headers=h["ann"],
                json={"entry": entries["ann"], "bets": ["bet red 100"], "key": "z"},
            ).status_code
            == 409
        )
