"""Chips on a 390×844 phone. Live roulette: chips put on the felt but not sent before
"no more bets" leave it with a notice naming what they came to, and are never carried
into the next round (a slip sent in time is placed; one chip added after it is not).
An RNG bet over the table's maximum is told (what was taken, what came back), and no
chip under a table's minimum is offered."""

from __future__ import annotations

import re

from test_server_browser import (  # noqa: F401 - served and table_clock: fixtures
    PAUSE,
    WHEEL_MS,
    WINDOW,
    Player,
    chromium,
    euros,
    served,
    server,
    staff_post,
    table_clock,
)

from pelisali.server.clock import ManualClock


def test_chips_not_sent_in_time_leave_the_felt(server: str,  # noqa: F811 - fixtures
                                               table_clock: ManualClock) -> None:  # noqa: F811
    from playwright.sync_api import expect

    staff_post(server, "/api/staff/tables", {
        "name": "live-1", "game": "roulette", "variant": "C", "mode": "live"})
    with chromium() as browser:
        aino = Player(browser, server, "aino", viewport=(390, 844), still_clock=True)
        page = aino.page
        page.click('#lang [data-lang="en"]')
        page.goto(f"{server}/#/live/live-1")
        box = page.locator("#live-box")
        expect(box).to_have_attribute("data-connected", "true")
        expect(box).to_have_attribute("data-phase", "betting")
        # 5 € on red sent in time; then 25 € on black and 5 € more on red, not sent.
        page.click('#chips .chip[data-value="500"]')
        page.click('#layout [data-spot="red"]')
        page.click("#spin")
        expect(page.locator('#layout [data-spot="red"]')).to_have_attribute(
            "data-confirmed", "500")
        page.click('#chips .chip[data-value="2500"]')
        page.click('#layout [data-spot="black"]')
        page.click('#chips .chip[data-value="500"]')
        page.click('#layout [data-spot="red"]')
        expect(page.locator("#bet-total")).to_have_text(euros(3_000))

        assert table_clock.tick() == WINDOW  # no more bets
        expect(box).to_have_attribute("data-phase", re.compile("closed|result"))
        message = page.locator("#table-message")
        expect(message).to_contain_text("chips not sent in time (30.00 €) were taken off")
        expect(page.locator("#bet-total")).to_have_text(euros(0))
        expect(page.locator('#layout [data-spot="black"]')).not_to_have_attribute(
            "data-amount", re.compile("."))
        expect(page.locator("#balance")).to_have_text(euros(100_000 - 500))

        # The next round opens with nothing of them on the felt or sent. The result has
        # come once the wheel no longer waits for it; then it turns on the page's clock.
        expect(page.locator("#wheel")).not_to_have_class(re.compile(r"\bbusy\b"))
        page.clock.run_for(WHEEL_MS)
        expect(box).to_have_attribute("data-phase", "result")
        assert table_clock.tick() == WINDOW + PAUSE
        expect(box).to_have_attribute("data-phase", "betting")
        expect(page.locator("#bet-total")).to_have_text(euros(0))
        expect(page.locator("#layout .stack")).to_have_count(0)
        assert aino.errors == []


def test_an_excess_is_told_and_no_chip_is_under_the_minimum(server: str) -> None:  # noqa: F811
    from playwright.sync_api import expect

    with chromium() as browser:
        aino = Player(browser, server, "aino", viewport=(390, 844), deposit=200_000)
        page = aino.page
        page.click('#lang [data-lang="en"]')
        page.goto(f"{server}/#/table/roulette/C")  # 1.00 € to 1,000.00 € a bet
        expect(page.locator('#chips .chip[data-value="100"]')).to_be_visible()
        page.click('#chips .chip[data-value="50000"]')
        for _ in range(3):
            page.click('#layout [data-spot="red"]')
        with page.expect_response("**/api/play/roulette") as played:
            page.click("#spin")
        (settled,) = played.value.json()["settlements"]
        assert settled["stake"] == 100_000
        expect(page.locator("#table-message")).to_contain_text(
            "Red: the table takes at most 1000.00 €, 500.00 € was returned")
        expect(page.locator("#balance")).to_have_text(
            euros(200_000 - 100_000 + settled["paid"]))
        page.click('#chips .chip[data-value="100"]')
        page.goto(f"{server}/#/table/punto-banco")  # from 5.00 €: no 1 € chip
        expect(page.locator('#chips .chip[data-value="100"]')).to_be_hidden()
        expect(page.locator('#chips .chip[data-value="500"]')).to_have_attribute(
            "aria-pressed", "true")  # the least chip the table takes, instead
        assert aino.errors == []
