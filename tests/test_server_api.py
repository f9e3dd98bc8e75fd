"""The HTTP API as a browser, a player and a member of staff use it, and as an attacker
tries it: registration, login, the wallet, the RNG games, history and recall, the
rules, the staff's endpoints, and bad input that must change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from dbfixtures import STAFF_PASSWORD, Fixed, casino, sign_up
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from pelisali.platform.db import transaction
from pelisali.platform.ledger import balance, check, verify_audit
from pelisali.platform.rounds import reconcile_bets
from pelisali.server.app import create_app
from pelisali.server.auth import LoginGuard
from pelisali.server.routers import wallet as wallet_router

PASSWORD = STAFF_PASSWORD  # the staff's, and the players' in these tests


@pytest.fixture
def db(tmp_path: Path) -> Engine:
    return casino(tmp_path)


@pytest.fixture
def client(db: Engine) -> Iterator[TestClient]:
    yield TestClient(create_app(db, rng=Fixed(17)))


def player(client: TestClient, name: str = "ann", deposit: int = 10_000) -> TestClient:
    sign_up(client, name, PASSWORD, deposit)
    return client


def test_register_log_in_deposit_play_and_see_the_history(client: TestClient, db: Engine) -> None:
    player(client)
    again = client.post("/api/wallet/deposit", json={"amount": 10_000, "key": "d1"})
    assert again.json() == {"balance": 10_000}  # a retried deposit is taken once
    played = client.post("/api/play/roulette", json={
        "variant": "C", "key": "r1",
        "bets": [{"spot": "red", "amount": 1_000}, {"spot": "straight 17", "amount": 100},
                 {"spot": "dozen 2", "amount": 500}]}).json()
    assert played["result"] == "17"  # black, in the second dozen
    assert [(s["spot"], s["paid"], s["result"]) for s in played["settlements"]] == [
        ("red", 0, "lose"), ("straight 17", 3_600, "win"), ("dozen 2", 1_500, "win")]
    assert played["balance"] == 10_000 - 1_600 + 5_100
    replayed = client.post("/api/play/roulette", json={
        "variant": "C", "key": "r1",
        "bets": [{"spot": "red", "amount": 1_000}, {"spot": "straight 17", "amount": 100},
                 {"spot": "dozen 2", "amount": 500}]}).json()
    assert replayed == played  # a retried request gets its first answer, taken once
    assert client.get("/api/me").json()["balance"] == played["balance"]
    history = client.get("/api/history").json()["bets"]
    assert [(b["spot"], b["stake"], b["paid"], b["commission"]) for b in history] == [
        ("dozen 2", 500, 1_500, 0), ("straight 17", 100, 3_600, 0), ("red", 1_000, 0, 0)]
    recalled = client.get(f"/api/recall/{played['round_id']}").json()
    assert recalled["same"] and len(recalled["recorded"]) == 3
    with transaction(db) as s:
        assert check(s).ok and verify_audit(s).ok and reconcile_bets(s).ok


def test_the_history_pages_past_fifty_bets_and_a_round_opens_its_recall(
        client: TestClient) -> None:
    """55 bets: a page of 50 (newest first) says where the next starts, the next has the
    last 5 and says there is no more; bad paging is refused; a round's recall names its
    table and what it drew."""
    player(client, deposit=100_000)
    spots = ["red", "black", "even", "odd", "low"]
    for n in range(11):
        assert client.post("/api/play/roulette", json={
            "variant": "C", "key": f"p{n}",
            "bets": [{"spot": spot, "amount": 100} for spot in spots]}).status_code == 200
    first = client.get("/api/history").json()
    assert len(first["bets"]) == 50 and first["more"]["hands_before"] is None
    cursor = first["more"]["bets_before"]
    assert cursor is not None
    rest = client.get(f"/api/history?bets_before={cursor}").json()
    assert len(rest["bets"]) == 5 and rest["more"]["bets_before"] is None
    rounds = [b["round_id"] for b in first["bets"] + rest["bets"]]
    assert rounds == sorted(rounds, reverse=True) and len(set(rounds)) == 11
    assert [b["spot"] for b in rest["bets"]] == spots[::-1]  # the first slip's, newest first
    small = client.get("/api/history?limit=3").json()
    assert [b["spot"] for b in small["bets"]] == spots[::-1][:3]
    for bad in ("limit=0", "limit=101", "bets_before=0", "bets_before=x", "hands_before=-1"):
        answer = client.get(f"/api/history?{bad}")
        assert answer.status_code == 422 and answer.json()["code"] == "invalid", bad
    recalled = client.get(f"/api/recall/{rounds[-1]}").json()
    assert recalled["same"] and recalled["summary"] == "17"
    assert recalled["table"] == "rng-roulette-C-ann" and len(recalled["recorded"]) == 5


def test_refusals_change_nothing(client: TestClient, db: Engine) -> None:
    player(client)
    for body, status, message in (
            ({"variant": "C", "key": "x", "bets": [{"spot": "red", "amount": 20_000}]}, 400,
             "no credit"),
            ({"variant": "C", "key": "x", "bets": [{"spot": "nowhere", "amount": 100}]}, 400,
             "no betting spot"),
            ({"variant": "C", "key": "x", "bets": [{"spot": "red", "amount": -100}]}, 422, ""),
            ({"variant": "C", "key": "x", "bets": [{"spot": "red", "amount": 10**30}]}, 422, ""),
            ({"variant": "C", "key": "x", "bets": [{"spot": "red", "amount": "ten"}]}, 422, ""),
            ({"variant": "C", "key": "x", "bets": []}, 422, ""),
            ({"variant": "Z", "key": "x", "bets": [{"spot": "red", "amount": 100}]}, 400,
             "no version"),
            ({"variant": "C", "key": "x", "bets": [{"spot": "red", "amount": 50}]}, 400,
             "minimum")):
        answer = client.post("/api/play/roulette", json=body)
        assert answer.status_code == status, (body, answer.text)
        assert message in answer.text
    assert client.post("/api/play/baccarat-royale", json={
        "key": "x", "bets": [{"spot": "red", "amount": 100}]}).status_code == 404
    malformed = client.post("/api/play/roulette", content=b"{not json",
                            headers={"content-type": "application/json"})
    assert malformed.status_code == 422
    assert client.post("/api/wallet/withdraw", json={"amount": 10_001, "key": "w"}
                       ).status_code == 400
    assert client.get("/api/me").json()["balance"] == 10_000
    with transaction(db) as s:
        assert balance(s, "player:ann") == 10_000 and check(s).ok


def test_a_player_reaches_only_their_own(client: TestClient, db: Engine) -> None:
    player(client, "ann")
    ann_round = client.post("/api/play/roulette", json={
        "variant": "C", "key": "k", "bets": [{"spot": "red", "amount": 100}]}).json()["round_id"]
    client.post("/api/logout")
    assert client.get("/api/me").status_code == 401
    player(client, "bob")
    assert client.get(f"/api/recall/{ann_round}").status_code == 404
    # the same key as ann's is bob's own key: a new slip, not ann's
    mine = client.post("/api/play/roulette", json={
        "variant": "C", "key": "k", "bets": [{"spot": "black", "amount": 100}]})
    assert mine.status_code == 200 and mine.json()["round_id"] != ann_round
    assert client.post("/api/play/roulette/choose", json={
        "round_id": ann_round, "bet_id": 1, "option": "half"}).status_code == 404
    for path in ("/api/staff/report",):
        assert client.get(path).status_code == 403
    assert client.post("/api/staff/tables", json={"name": "t", "game": "roulette"}
                       ).status_code == 403
    assert client.post("/api/staff/players/ann/status", json={
        "status": "barred", "reason": "x"}).status_code == 403


def test_logins_are_rate_limited_and_passwords_checked(client: TestClient) -> None:
    player(client, deposit=0)
    client.post("/api/logout")
    now = [0.0]  # the guard's clock: no time passes unless the test moves it
    state = client.app.state.pelisali  # type: ignore[attr-defined]
    state.logins = LoginGuard(now=lambda: now[0])
    answers = [client.post("/api/login", json={"name": "ann", "password": "wrong password"})
               for _ in range(7)]
    # Five failures are let through; then each try waits, twice as long after each.
    assert [a.status_code for a in answers] == [401] * 5 + [429] * 2
    assert answers[5].headers["Retry-After"] == "1" and "try again in 1 s" in answers[5].text
    now[0] = 1.0
    assert client.post("/api/login", json={"name": "ann", "password": "wrong password"}
                       ).status_code == 401
    late = client.post("/api/login", json={"name": "ann", "password": PASSWORD})
    assert late.status_code == 429 and late.headers["Retry-After"] == "2"
    now[0] = 3.0  # the right password, once the wait is over, logs in and forgets
    assert client.post("/api/login", json={"name": "ann", "password": PASSWORD}
                       ).status_code == 200
    assert client.post("/api/login", json={"name": "ann", "password": "wrong password"}
                       ).status_code == 401
    weak = client.post("/api/register", json={"name": "kid", "password": "x",
                                              "born": "2015-01-01", "country": "FI"})
    assert weak.status_code == 400 and "under 18" in weak.text
    short = client.post("/api/register", json={"name": "joe", "password": "short",
                                               "born": "1980-01-01", "country": "FI"})
    assert short.status_code == 400 and "at least 8" in short.text
    assert client.post("/api/register", json={"name": "joe", "password": PASSWORD,
                                              "born": "1980-01-01", "country": "KP"}
                       ).status_code == 400


def test_limits_and_self_exclusion_are_enforced(client: TestClient) -> None:
    player(client)
    assert client.post("/api/limits", json={"kind": "loss", "period": "day",
                                            "amount": 500}).status_code == 200
    refused = client.post("/api/play/roulette", json={
        "variant": "C", "key": "k", "bets": [{"spot": "red", "amount": 600}]})
    assert refused.status_code == 400 and "loss limit" in refused.text
    assert client.post("/api/exclude", json={"days": 30}).status_code == 200
    refused = client.post("/api/play/roulette", json={
        "variant": "C", "key": "k2", "bets": [{"spot": "red", "amount": 100}]})
    assert refused.status_code == 400 and "self-excluded" in refused.text
    until = datetime.fromisoformat(client.get("/api/me").json()["excluded_until"])
    assert timedelta(days=29, hours=23) < until - datetime.now(UTC) <= timedelta(days=30)


def test_the_protection_read_shows_limits_waiting_raises_and_the_session(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """``GET /api/protection``: a cut at once, a raise waiting with its time, what the
    day used, the reality check's period (set and refused outside 5-240 minutes), and
    the session's net result from the ledger."""
    player(client)
    assert client.get("/api/protection").json()["limits"] == []
    cut = client.post("/api/limits", json={"kind": "loss", "period": "day", "amount": 5_000})
    assert cut.json()["at_once"] is True
    raised = client.post("/api/limits", json={"kind": "loss", "period": "day",
                                              "amount": 8_000}).json()
    assert raised["at_once"] is False
    played = client.post("/api/play/roulette", json={
        "variant": "C", "key": "p1", "bets": [{"spot": "red", "amount": 300}]}).json()
    net = sum(s["paid"] - s["stake"] for s in played["settlements"])
    seen = client.get("/api/protection").json()
    assert seen["limits"] == [{"kind": "loss", "period": "day", "amount": 5_000,
                               "used": max(0, -net), "waiting": 8_000,
                               "waiting_from": raised["effective"]}]
    assert seen["session_net"] == net
    # the server's count of the session so far: from its log-in to when it answers
    started = datetime.fromisoformat(seen["session_started"])
    monkeypatch.setattr(wallet_router, "now_utc", lambda: started + timedelta(seconds=754.9))
    assert client.get("/api/protection").json()["session_seconds"] == 754
    monkeypatch.undo()
    assert seen["reminder_minutes"] == 60 and seen["excluded_until"] is None
    assert client.post("/api/reminder", json={"minutes": 15}).json() == {"minutes": 15}
    assert client.get("/api/protection").json()["reminder_minutes"] == 15
    for bad in (4, 241, "15", None):
        assert client.post("/api/reminder", json={"minutes": bad}).status_code == 422
    assert client.get("/api/protection").json()["reminder_minutes"] == 15
    assert client.post("/api/exclude", json={"days": 7}).status_code == 200
    until = datetime.fromisoformat(client.get("/api/protection").json()["excluded_until"])
    assert timedelta(days=6, hours=23) < until - datetime.now(UTC) <= timedelta(days=7)


def test_a_session_time_limit_stops_play_when_the_session_has_lasted_it(
        client: TestClient, db: Engine) -> None:
    """The session-time limit: minutes from the player's earliest log-in still open. A
    cut applies at once, a raise waits; past it every stake is refused (RNG, cards,
    a poker buy-in) with what the session has used, and the rest of the account works."""
    from sqlalchemy import update

    from pelisali.platform import accounts, poker_tables
    from pelisali.platform.models import WebSession

    player(client)
    slip = {"variant": "C", "bets": [{"spot": "red", "amount": 100}]}
    limit = client.post("/api/limits", json={"kind": "session", "period": "session",
                                             "amount": 30})
    assert limit.json()["at_once"] is True
    assert client.post("/api/play/roulette", json={**slip, "key": "s1"}).status_code == 200
    seen = client.get("/api/protection").json()["limits"]
    assert seen == [{"kind": "session", "period": "session", "amount": 30, "used": 0,
                     "waiting": None, "waiting_from": None}]
    for bad, status in (({"kind": "session", "period": "session", "amount": "30"}, 422),
                        ({"kind": "session", "period": "session", "amount": "0.30"}, 422),
                        ({"kind": "session", "period": "session", "amount": 0}, 400),
                        ({"kind": "session", "period": "session", "amount": 1_441}, 400),
                        ({"kind": "session", "period": "day", "amount": 30}, 400),
                        ({"kind": "loss", "period": "session", "amount": 30}, 400)):
        answer = client.post("/api/limits", json=bad)
        assert answer.status_code == status, bad
        if status == 422:  # the player is told which field
            assert answer.json()["params"] == {"fields": "amount"}
    with transaction(db) as s:  # the session began 31 minutes ago
        s.execute(update(WebSession).where(WebSession.name == "ann").values(
            created_at=datetime.now(UTC) - timedelta(minutes=31, seconds=10)))
    before = client.get("/api/me").json()["balance"]
    refused = client.post("/api/play/roulette", json={**slip, "key": "s2"})
    assert refused.status_code == 400
    assert refused.json()["detail"] == ("ann: session-time limit 30 min reached "
                                        "(logged in 31 min)")
    assert client.post("/api/cards/punto-banco", json={
        "key": "s3", "bets": [{"spot": "banco", "amount": 100}]}).status_code == 400
    raised = client.post("/api/limits", json={"kind": "session", "period": "session",
                                              "amount": 120}).json()
    assert raised["at_once"] is False  # a raise waits: still refused
    assert client.post("/api/play/roulette", json={**slip, "key": "s4"}).status_code == 400
    [shown] = client.get("/api/protection").json()["limits"]
    assert (shown["amount"], shown["used"], shown["waiting"]) == (30, 31, 120)
    assert client.get("/api/me").json()["balance"] == before
    with transaction(db) as s, pytest.raises(accounts.Refused, match="session-time limit"):
        poker_tables._check_buy_in(s, "ann", 2_000)
    assert client.post("/api/wallet/withdraw", json={"amount": 100, "key": "w"}
                       ).status_code == 200  # the money stays the player's to take out
    client.post("/api/logout")  # a new session starts the count again
    client.post("/api/login", json={"name": "ann", "password": PASSWORD})
    assert client.post("/api/play/roulette", json={**slip, "key": "s5"}).status_code == 200


def test_staff_open_a_table_restrict_a_player_and_read_the_report(client: TestClient) -> None:
    player(client)
    client.post("/api/play/roulette", json={"variant": "C", "key": "k",
                                            "bets": [{"spot": "red", "amount": 1_000}]})
    client.post("/api/logout")
    assert client.post("/api/login", json={"name": "floor", "password": PASSWORD}
                       ).json() == {"name": "floor", "role": "staff"}
    opened = client.post("/api/staff/tables", json={"name": "live-1", "game": "roulette",
                                                    "variant": "C", "min": 100, "max": 50_000})
    assert opened.status_code == 201
    assert [t["name"] for t in client.get("/api/lobby").json()["tables"]] == ["live-1"]
    changed = client.post("/api/staff/tables/live-1/settings", json={"min": 500, "max": 20_000})
    assert changed.json() == {"name": "live-1", "status": "open", "min": 500, "max": 20_000,
                              "chips": "value"}
    assert client.post("/api/staff/tables/live-1/settings", json={"min": 30_000}
                       ).status_code == 400
    closed = client.post("/api/staff/tables/live-1/settings", json={"status": "closed"})
    assert closed.json()["status"] == "closed"
    assert client.get("/api/lobby").json()["tables"] == []
    assert client.post("/api/staff/players/ann/status",
                       json={"status": "restricted", "reason": "checks"}).status_code == 200
    report = client.get("/api/staff/report").json()["tables"]
    assert [(r["table"], r["staked"], r["paid"]) for r in report] == [
        ("rng-roulette-C-ann", 1_000, 0)]
    assert client.post("/api/play/roulette", json={"key": "k", "bets": []}).status_code == 403


def test_the_rules_and_the_layout_of_every_version(client: TestClient) -> None:
    for variant in "ABCDEFGHI":
        for lang in ("fi", "sv", "en"):
            shown = client.get(f"/api/rules/roulette?variant={variant}&lang={lang}").json()
            assert shown["title"] and shown["lines"] and all(x["section"] for x in shown["lines"])
        layout = client.get(f"/api/layout/roulette?variant={variant}").json()
        assert {"number": "0", "colour": "green"} in layout["numbers"]
    assert client.get("/api/rules/roulette?variant=C&lang=sv").json()["lines"][0] == {
        "bet": "Plein", "pays": "35:1", "section": "RAY 2016 1.2.1 C, Voitonmaksu"}
    for game in ("boule", "money-wheel", "tuplanoppa", "sic-bo"):
        assert client.get(f"/api/rules/{game}?lang=en").json()["lines"]
    banker = client.get("/api/rules/punto-banco?lang=fi").json()["lines"][1]
    assert (banker["bet"], banker["pays"]) == ("Pankkiiri", "1:1")
    blackjack = client.get("/api/rules/blackjack?lang=en").json()
    assert [(x["bet"], x["pays"]) for x in blackjack["lines"]] == [
        ("Winning hand", "1:1"), ("Blackjack", "3:2"), ("Insurance", "2:1")]
    assert client.get("/api/rules/roulette?lang=de").status_code == 422
    poker = client.get("/api/rules/poker?lang=sv").json()
    assert poker["title"] == "Poker" and "holdem" in poker["description"]
    # the rulebook's lines, then the room's own times (the rulebook is silent on timers)
    assert [x["section"] for x in poker["lines"]] == ["RAY 2016 1.4.1.1.1"] * 5 + [
        "Pelisalis husregel"] * 3
    assert client.get("/openapi.json").json()["info"]["title"] == "Pelisali"


def test_punto_banco_and_blackjack_against_the_house(db: Engine) -> None:
    from pelisali.rng import SeededRng

    client = player(TestClient(create_app(db, rng=SeededRng(7))), deposit=100_000)
    results = set()
    wallet = 100_000
    for n in range(8):
        coup = client.post("/api/cards/punto-banco", json={"key": f"pb{n}", "bets": [
            {"spot": "player", "amount": 1_000}, {"spot": "banker", "amount": 2_000},
            {"spot": "tie", "amount": 500}]}).json()
        results.add(coup["result"])
        paid = {s["spot"]: s["paid"] for s in coup["settlements"]}
        if coup["result"] == "tie":  # player and banker pushed, the tie pays 8:1
            assert paid == {"player": 1_000, "banker": 2_000, "tie": 4_500}
        elif coup["result"] == "banker":  # 1:1 less the 5 % commission
            assert paid == {"player": 0, "banker": 3_900, "tie": 0}
        else:
            assert paid == {"player": 2_000, "banker": 0, "tie": 0}
        wallet += sum(paid.values()) - 3_500
        assert coup["balance"] == wallet and len(coup["cards"]) >= 4
    assert len(results) > 1
    recalled = client.get(f"/api/recall/{coup['round_id']}").json()
    assert recalled["game"] == "punto-banco" and recalled["same"]
    refused = client.post("/api/cards/punto-banco", json={"key": "x", "bets": [
        {"spot": "player", "amount": 1_000}, {"spot": "tie", "amount": 100}]})
    assert refused.status_code == 400 and "minimum" in refused.text
    assert client.get("/api/me").json()["balance"] == wallet  # the slip was refused whole
    view = client.post("/api/cards/blackjack/deal", json={"key": "bj1", "bets": [
        {"spot": "1", "amount": 1_000}]}).json()
    wallet -= 1_000
    for _ in range(12):
        if view["status"] != "playing":
            break
        assert len(view["dealer"]) == 1  # the hole card stays hidden while players decide
        if view["insurance"]:
            view = client.post("/api/cards/blackjack/act", json={
                "action": "insure", "seat": 1, "amount": 0}).json()
            continue
        assert view["your_turn"] and "stand" in view["actions"]
        assert client.get("/api/cards/blackjack").json()["round_id"] == view["round_id"]
        view = client.post("/api/cards/blackjack/act", json={"action": "stand"}).json()
    assert view["status"] == "settled" and len(view["dealer"]) >= 2
    wallet += sum(s["paid"] for s in view["settlements"])
    assert view["balance"] == wallet == client.get("/api/me").json()["balance"]
    with transaction(db) as s:
        assert check(s).ok and verify_audit(s).ok and reconcile_bets(s).ok


def test_a_blackjack_decision_has_its_time_over_http(db: Engine) -> None:
    """RULINGS (GGPoker III 3.5.2-3.5.3, 3.7): the answer gives the decision's seconds
    left; past them the server stands the hand, at the player's next request or at its
    own sweep, and says how many decisions the time limit made."""
    from sqlalchemy import select, update

    from pelisali.platform.models import RoundRow
    from pelisali.rng import SeededRng

    app = create_app(db, rng=SeededRng(3))
    client = player(TestClient(app), deposit=100_000)

    def playing(key: str) -> dict[str, Any]:
        for n in range(30):
            view = client.post("/api/cards/blackjack/deal", json={
                "key": f"{key}{n}", "bets": [{"spot": "1", "amount": 1_000}]}).json()
            if view["status"] == "playing":
                return view
        raise AssertionError("no deal waited for a decision")

    def past() -> None:
        with transaction(db) as s:
            s.execute(update(RoundRow).where(RoundRow.status == "playing").values(
                deadline=datetime.now(UTC) - timedelta(seconds=1)))

    view = playing("a")
    assert view["seconds_left"] is not None and view["timed_out"] == 0
    with transaction(db) as s:  # the decision is due the table's 15 s after the deal
        row = s.get(RoundRow, view["round_id"])
        assert row is not None and row.deadline - row.opened_at >= timedelta(seconds=15)
    past()
    late = client.post("/api/cards/blackjack/act", json={"action": "hit"})
    assert late.status_code == 200 and late.json()["timed_out"] >= 1
    view = playing("b")
    past()
    state = app.state.pelisali
    [(round_id, made)] = state.sweep_decisions()
    assert round_id == view["round_id"] and made >= 1
    with transaction(db) as s:
        row = s.get(RoundRow, round_id)
        assert row is not None and (row.status == "settled" or row.deadline > datetime.now(UTC))
        assert check(s).ok and verify_audit(s).ok and reconcile_bets(s).ok
        assert not s.scalars(select(RoundRow).where(
            RoundRow.status == "playing", RoundRow.deadline <= datetime.now(UTC))).first()


def test_a_login_checking_its_password_holds_no_lock_bets_need(
        db: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """While argon2 checks a password (here held until the bet is done), a player's bet
    goes through: the check runs outside every transaction (on SQLite a transaction
    holds the one writer's lock the bet needs)."""
    import threading

    from pelisali.platform import logins

    bettor = player(TestClient(create_app(db, rng=Fixed(17))), "bob")
    other = player(TestClient(create_app(db)), "ann", deposit=0)
    other.post("/api/logout")
    checking, bet_done = threading.Event(), threading.Event()
    real = logins._HASHER

    class SlowHasher:
        def hash(self, password: str) -> str:
            return real.hash(password)

        def verify(self, stored: str, password: str) -> bool:
            checking.set()
            bet_done.wait(timeout=10)  # the bet below must not need this check to end
            return real.verify(stored, password)

    monkeypatch.setattr(logins, "_HASHER", SlowHasher())
    answers: list[int] = []
    login = threading.Thread(target=lambda: answers.append(other.post(
        "/api/login", json={"name": "ann", "password": PASSWORD}).status_code))
    login.start()
    assert checking.wait(timeout=30)
    played = bettor.post("/api/play/roulette", json={
        "variant": "C", "key": "during-login", "bets": [{"spot": "red", "amount": 100}]})
    assert login.is_alive() and answers == []  # the bet did not wait for the check
    bet_done.set()
    login.join()
    assert played.status_code == 200 and played.json()["settlements"][0]["result"] == "lose"
    assert answers == [200]


def test_staff_open_card_tables_and_players_find_them(client: TestClient) -> None:
    client.post("/api/login", json={"name": "floor", "password": PASSWORD})
    made = client.post("/api/staff/tables", json={"name": "pb-hall", "game": "baccarat",
                                                  "mode": "rng", "min": 500})
    assert made.status_code == 201 and made.json() == {"name": "pb-hall"}
    bad = client.post("/api/staff/tables", json={"name": "bj-x", "game": "blackjack",
                                                 "variant": "A"})
    assert bad.status_code == 400 and "no versions" in bad.text
    poker = client.post("/api/staff/tables", json={"name": "p-x", "game": "poker"})
    assert poker.status_code == 400 and "poker table" in poker.text
    nothing = client.post("/api/staff/tables", json={"name": "n-x", "game": "bridge"})
    assert nothing.status_code == 400 and "no game 'bridge'" in nothing.text
    closed = client.post("/api/staff/tables/pb-hall/settings", json={"status": "closed"})
    assert closed.json() == {"name": "pb-hall", "status": "closed", "min": 500,
                             "max": closed.json()["max"], "chips": "value"}


def test_the_zero_rule_is_in_the_pages_language(client: TestClient) -> None:
    """The English and Swedish rules pages say the zero rule in their own words and
    cite its sources; only the Finnish page quotes the rulebook (RAY 2016 1.2.1)."""
    words = {"en": "When the winning number is 0", "sv": "När vinstnumret är 0",
             "fi": "Kun voittava numero on 0"}
    for variant in "ABCDEFGHI":
        for lang, opening in words.items():
            page = client.get(f"/api/rules/roulette?variant={variant}&lang={lang}").json()
            (note,) = page["notes"]
            assert note.startswith(opening), (variant, lang, note)
            assert f"RAY 2016 1.2.1 {variant}" in note
            if lang != "fi":
                assert "Kun voittava" not in str(page) and "häviävät" not in note
