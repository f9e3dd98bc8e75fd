"""Blackjack's decision time in Debian's Chromium (RULINGS, GGPoker III 3.5.2-3.5.3, 3.7):
the table counts down the 15 s of each decision by the server's count, and when they
are over it asks the server, which has made the decision (the hand stands, insurance is
declined) and says so. The page's clock is Playwright's, moved by the test; the
server's is the wall clock, so the test moves the round's deadline into the past."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import select
from test_server_browser import (  # noqa: F401 - served: the real server, a fixture
    Player,
    Served,
    chromium,
    page_fetch,
    place,
    served,
)

from pelisali.platform.db import make_engine, transaction
from pelisali.platform.models import RoundRow


def test_the_decision_time_counts_down_and_the_hand_stands(served: Served,  # noqa: F811
                                                          tmp_path: Path) -> None:
    from playwright.sync_api import expect

    engine = make_engine(f"sqlite:///{tmp_path}/casino.db")  # the served database
    with chromium() as browser:
        aino = Player(browser, served.url, "aino", still_clock=True)
        page = aino.page
        page.click('#lang [data-lang="en"]')
        page.goto(f"{served.url}/#/table/blackjack")
        expect(page.locator("#layout [data-spot]")).to_have_count(7)
        for _ in range(20):  # a deal that waits for a decision (not a blackjack at once)
            place(page, 500, ["1"])
            with page.expect_response("**/api/cards/blackjack/deal") as dealt:
                page.click("#spin")
            view = dealt.value.json()
            page.clock.run_for(2_000)  # the deal's animation, on the page's clock
            if view["status"] == "playing":
                break
            page.click("#clear")
        assert view["status"] == "playing" and view["seconds_left"] is not None
        countdown = page.locator("#bj-countdown")
        # From the server's count when it answered (whole seconds up), counted down by
        # the page's clock, which only the test moves.
        expect(countdown).to_contain_text(" s to decide")
        shown = int(countdown.inner_text().split()[0])
        assert shown <= math.ceil(view["seconds_left"])
        if shown > 1:
            page.clock.run_for(1_000)
            expect(countdown).to_have_text(f"{shown - 1} s to decide")
        with transaction(engine) as s:  # the server's time is over too
            row = s.scalars(select(RoundRow).where(RoundRow.status == "playing")).one()
            row.deadline = datetime.now(UTC) - timedelta(seconds=1)
        with page.expect_response("**/api/cards/blackjack") as asked:
            page.clock.run_for(15_000)
        answer = asked.value.json()
        assert answer["timed_out"] == 1
        expect(page.locator("#table-message")).to_contain_text(
            "The time to decide ran out: the hand stood and insurance was declined.")
        mine = [h for h in answer["hands"] if h["seat"] == 1]
        assert all(len(h["cards"]) == 2 for h in mine)  # nothing was hit for the player
        if answer["status"] == "settled":
            expect(page.locator("#bj-actions")).to_be_hidden()
        assert page_fetch(page, "/api/me")["body"]["balance"] == answer["balance"]
        assert aino.errors == []
    engine.dispose()
