"""The history in Debian's Chromium on a 360×640 phone: 55 bets show as a page of 50 and,
on "Older bets", the last 5; a round's number opens its recall, which shows what the
round drew, each bet as recorded and as the engine replayed it, and the replay check.
Both pages fit the screen with targets a finger can use."""

from __future__ import annotations

from pathlib import Path

from test_browser_phone import check_page
from test_platform_pai_gow_rounds import DEALER, Stacked
from test_server_browser import (  # noqa: F401 - served: the real server, a fixture
    Player,
    Served,
    chromium,
    page_fetch,
    served,
    serving,
)

SPOTS = ["red", "black", "even", "odd", "low"]
PLAY = """async ([key, spots]) => {
    const r = await fetch("/api/play/roulette", {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({variant: "C", key,
                              bets: spots.map((spot) => ({spot, amount: 100}))})});
    return r.status;
}"""
POST = """async ([path, body]) => (await fetch(path, {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})).status"""


def test_the_history_pages_and_a_round_opens_its_recall(served: Served) -> None:  # noqa: F811
    from playwright.sync_api import expect

    with chromium() as browser:
        aino = Player(browser, served.url, "aino", viewport=(360, 640))
        page = aino.page
        page.click('#lang [data-lang="en"]')
        for n in range(11):
            assert page.evaluate(PLAY, [f"h{n}", SPOTS]) == 200
        page.click("#nav-history")
        rows = page.locator("#history-rows tr")
        expect(rows).to_have_count(50)
        expect(page.locator("#hands-empty")).to_have_text("No poker hands.")
        faults = check_page(page, "history", 360)
        page.click("#history-more")
        expect(rows).to_have_count(55)
        expect(page.locator("#history-more")).to_be_hidden()
        bets = page_fetch(page, "/api/history?limit=100")["body"]["bets"]
        assert rows.evaluate_all("rs => rs.map(r => +r.dataset.round)") == [
            b["round_id"] for b in bets]

        oldest = bets[-1]["round_id"]
        page.click(f'#history-rows tr[data-round="{oldest}"] .recall-link')
        expect(page.locator("#recall-view")).to_be_visible()
        assert page.url.endswith(f"#/recall/{oldest}")
        expect(page.locator("#recall-title")).to_have_text(f"Round #{oldest}")
        recalled = page_fetch(page, f"/api/recall/{oldest}")["body"]
        expect(page.locator(".recall-outcome")).to_have_text(f"Outcome: {recalled['summary']}")
        expect(page.locator("#recall-rows tr")).to_have_count(5)
        expect(page.locator("#recall-check")).to_have_text(
            "Replay check: the round was replayed from its record and came out as recorded.")
        faults += check_page(page, "recall", 360)
        page.reload()  # the recall is an address of its own
        expect(page.locator("#recall-rows tr")).to_have_count(5)
        page.click("#recall-view .back")
        expect(page.locator("#history-view")).to_be_visible()
        assert faults == [], "\n".join(faults)
        assert aino.errors == []


def test_a_pai_gow_win_shows_its_commission_beside_what_was_paid(tmp_path: Path) -> None:
    """The win paid 1:1 in full (10.00 € on 5.00 €) and the 5 % commission taken back
    (0.25 €) beside it, in the page's language."""
    from playwright.sync_api import expect

    with serving(tmp_path, rng=Stacked(f"Kc Kd Qh 9s 7d 4c 2h {DEALER}")) as running, \
            chromium() as browser:
        aino = Player(browser, running.url, "aino", viewport=(360, 640))
        page = aino.page
        assert page.evaluate(POST, ["/api/banked/pai-gow-poker/deal",
                                    {"bets": {"ante": 500}, "key": "g1"}]) == 200
        assert page.evaluate(POST, ["/api/banked/pai-gow-poker/decide",
                                    {"action": "house", "key": "g2"}]) == 200
        page.click("#nav-history")
        paid = page.locator("#history-rows tr .paid")
        expect(paid).to_have_text("10.00 € (provisio 0.25 €)")
        for lang, word in (("sv", "provision"), ("en", "commission")):
            page.click(f'#lang [data-lang="{lang}"]')
            page.click("#nav-lobby")
            page.click("#nav-history")
            expect(paid).to_have_text(f"10.00 € ({word} 0.25 €)")
        assert aino.errors == []
