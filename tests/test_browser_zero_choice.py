"""Roulette D's choice after a zero in the browser (RAY 1.2.1 D: en prison or la
partage), on a 390×844 phone, against a wheel that always lands on zero: the choice
names each bet by its spot and stake and shows the deadline, Spin stays disabled until
it is made, and it survives a reload and a trip to the lobby and back. Then the
server applies la partage (RULINGS: the default) to a choice left past its deadline."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from dbfixtures import Fixed
from test_server_browser import Player, Served, chromium, page_fetch, serving


@pytest.fixture
def zero_wheel(tmp_path: Path) -> Iterator[Served]:
    with serving(tmp_path, rng=Fixed(0)) as running:  # pocket 0 of the wheel: zero
        yield running


def test_the_zero_choice_survives_a_reload_and_blocks_the_next_spin(
        zero_wheel: Served) -> None:
    from playwright.sync_api import expect

    site = zero_wheel.url
    with chromium() as browser:
        aino = Player(browser, site, "aino", viewport=(390, 844))
        page = aino.page
        page.click('#lang [data-lang="en"]')
        page.goto(f"{site}/#/table/roulette/D")
        expect(page.locator("#table-title")).to_contain_text("D")
        page.click('#chips .chip[data-value="500"]')
        page.click('#layout [data-spot="red"]')
        page.click('#chips .chip[data-value="2500"]')
        page.click('#layout [data-spot="black"]')
        with page.expect_response("**/api/play/roulette") as played:
            page.click("#spin")
        answer = played.value.json()
        assert answer["result"].split("-")[0] == "0" and len(answer["pending"]) == 2

        def shows_the_choice() -> None:
            choices = page.locator("#choices .choice")
            expect(choices).to_have_count(2)
            expect(page.locator("#choices")).to_contain_text("Red, 5.00 €")
            expect(page.locator("#choices")).to_contain_text("Black, 25.00 €")
            expect(page.locator(".choice-deadline")).to_contain_text("Choose by ")
            expect(page.locator("#spin")).to_be_disabled()
            expect(page.locator("#table-message")).to_contain_text("choose first")

        shows_the_choice()
        page.reload()
        expect(page.locator("#table-view")).to_be_visible()
        shows_the_choice()
        page.click("#nav-lobby")
        expect(page.locator("#lobby-view")).to_be_visible()
        page.goto(f"{site}/#/table/roulette/D")
        shows_the_choice()

        red = page.locator('#choices .choice:has-text("Red") [data-option="half"]')
        red.click()
        expect(page.locator("#choices .choice")).to_have_count(1)
        expect(page.locator("#spin")).to_be_disabled()
        page.locator('#choices .choice:has-text("Black") [data-option="prison"]').click()
        expect(page.locator("#choices")).to_be_hidden()
        expect(page.locator("#table-message")).to_have_class(re.compile(r"\bok\b"))
        expect(page.locator("#spin")).to_be_enabled()
        waiting = page_fetch(page, "/api/play/roulette/waiting?variant=D")["body"]
        assert waiting["round_id"] is None
        assert aino.errors == []


def test_a_choice_left_past_its_deadline_is_la_partage(tmp_path: Path) -> None:
    """The server's sweep finishes a round whose choice nobody made by its deadline:
    half of each undecided bet back, once, however many processes sweep."""
    from dbfixtures import casino, sign_up
    from fastapi.testclient import TestClient
    from sqlalchemy import update

    from pelisali.platform.db import transaction
    from pelisali.platform.ledger import now_utc
    from pelisali.platform.models import RoundRow
    from pelisali.server.app import create_app

    engine = casino(tmp_path)
    app = create_app(engine, rng=Fixed(0))
    client = TestClient(app)
    sign_up(client, "ann", "kissa-koira-123", 10_000)
    answer = client.post("/api/play/roulette", json={
        "variant": "D", "key": "z", "bets": [{"spot": "red", "amount": 1_000}]}).json()
    assert answer["pending"] and answer["deadline"]
    state = app.state.pelisali
    assert state.sweep_deadlines() == []  # not yet due
    with transaction(engine) as session:
        session.execute(update(RoundRow).where(RoundRow.id == answer["round_id"])
                        .values(deadline=now_utc() - timedelta(minutes=1)))
    assert state.sweep_deadlines() == [(answer["round_id"], "settled, unchosen bets half")]
    assert state.sweep_deadlines() == []  # once
    assert client.get("/api/me").json()["balance"] == 10_000 - 1_000 + 500
    assert client.get("/api/play/roulette/waiting?variant=D").json()["round_id"] is None
