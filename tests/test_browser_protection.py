"""Responsible gaming in the browser, in Debian's Chromium on a 390×844 phone: a player
sets a loss limit (at once), raises it (waiting 24 h, shown with its local time),
sees the reality check after the minutes they chose with the session's time and net
result, and takes a 7-day break, after which the lobby tells them until when in their
language and the games are closed to them. Each step is checked against the server's
own answer (``GET /api/protection``)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from test_server_browser import (  # noqa: F401 - served: the real server, a fixture
    Player,
    Served,
    chromium,
    page_fetch,
    served,
)


def test_limits_a_reality_check_and_a_break(served: Served) -> None:  # noqa: F811
    from playwright.sync_api import expect

    with chromium() as browser:
        aino = Player(browser, served.url, "aino", viewport=(390, 844), still_clock=True)
        page = aino.page
        page.click('#lang [data-lang="en"]')
        page.click("#nav-limits")
        expect(page.locator("#limits-view")).to_be_visible()
        expect(page.locator("#limit-list")).to_have_text("No limits.")

        # A loss limit of 50 € a day applies at once.
        page.select_option("#limit-kind", "loss")
        page.select_option("#limit-period", "day")
        page.fill("#limit-amount", "50")
        page.click("#limit-set")
        expect(page.locator("#limits-status")).to_have_text("The limit applies now.")
        row = page.locator('#limit-list [data-kind="loss"][data-period="day"]')
        expect(row).to_contain_text("used 0.00 € of 50.00 €")
        # A raise to 80 € waits 24 hours; the page says from when, in local time.
        page.fill("#limit-amount", "80")
        page.click("#limit-set")
        expect(page.locator("#limits-status")).to_contain_text("The limit applies from ")
        seen = page_fetch(page, "/api/protection")["body"]
        (limit,) = seen["limits"]
        assert (limit["amount"], limit["waiting"]) == (5_000, 8_000)
        waits = datetime.fromisoformat(limit["waiting_from"]) - datetime.now(UTC)
        assert timedelta(hours=23, minutes=59) < waits <= timedelta(hours=24)
        expect(row).to_contain_text("80.00 €")
        # A session-time limit is minutes, with no period to choose.
        page.select_option("#limit-kind", "session")
        expect(page.locator("#limit-period")).to_be_hidden()
        expect(page.locator("#limit-amount-name")).to_have_text("Minutes")
        page.fill("#limit-amount", "1.5")
        page.click("#limit-set")
        expect(page.locator("#limits-status")).to_have_text("Give whole minutes, 1 to 1440.")
        page.fill("#limit-amount", "240")
        page.click("#limit-set")
        expect(page.locator("#limits-status")).to_have_text("The limit applies now.")
        expect(page.locator('#limit-list [data-kind="session"]')).to_contain_text(
            "Session-time limit (session) used 0 of 240 min")

        # A 1.00 € bet lost or won: the reality check after 15 minutes tells the
        # session's net as the server counts it.
        page.select_option("#reminder-minutes", "15")
        expect(page.locator("#limits-status")).to_have_text("Saved.")
        assert page_fetch(page, "/api/protection")["body"]["reminder_minutes"] == 15
        page.goto(f"{served.url}/#/table/roulette/C")
        page.click('#chips .chip[data-value="100"]')
        page.click('#layout [data-spot="red"]')
        with page.expect_response("**/api/play/roulette") as played:
            page.click("#spin")
        net = sum(s["paid"] - s["stake"] for s in played.value.json()["settlements"])
        page.clock.run_for(16 * 60 * 1000)
        dialog = page.locator("#reality")
        expect(dialog).to_be_visible()
        sign = "+" if net > 0 else "-" if net < 0 else ""
        shown = f"{sign}{abs(net) // 100}.{abs(net) % 100:02d} €"
        expect(page.locator("#reality-text")).to_contain_text(
            f"Result this session: {shown}")
        assert page_fetch(page, "/api/protection")["body"]["session_net"] == net
        page.click("#reality-continue")
        expect(dialog).to_be_hidden()

        # A 7-day break: the lobby says until when (local time) and closes the games.
        page.click("#nav-limits")
        page.once("dialog", lambda d: d.accept())
        page.click('#limits-view [data-days="7"]')
        expect(page.locator("#lobby-view")).to_be_visible()
        message = page.locator("#lobby-message")
        expect(message).to_contain_text("You are on a break or have excluded yourself until")
        expect(page.locator("#lobby-view")).to_have_class(re.compile(r"\bclosed\b"))
        until = page_fetch(page, "/api/protection")["body"]["excluded_until"]
        local = page.evaluate("""(iso) => new Intl.DateTimeFormat("en-GB",
            {dateStyle: "short", timeStyle: "short"}).format(new Date(iso))""", until)
        expect(message).to_contain_text(local)
        page.click('#lang [data-lang="fi"]')
        expect(message).to_contain_text("Olet pelitauolla")
        assert aino.errors == []
