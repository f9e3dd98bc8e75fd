"""axe-core (the copy axe-playwright-python ships) run in the page on every page and
table, on a 390×844 phone and at 1366×768: no serious or critical violation. Plus what
axe cannot see: a skip link to the chips and Spin, spoken names of the spots with the
amount bet on them, and chips removed by keyboard and by touch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import axe_playwright_python
from test_browser_phone import SIZES, TWO_FRAMES, tables_of
from test_server_browser import (  # noqa: F401 - served: the real server, a fixture
    Player,
    Served,
    chromium,
    served,
    staff_post,
)

AXE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text("utf-8")
SERIOUS = ("serious", "critical")


def violations(page: Any, where: str) -> list[str]:
    """axe-core's serious and critical findings on the page as it stands."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE)
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ["violations"]});
        return r.violations.map((v) => ({id: v.id, impact: v.impact,
            nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}));
    }""")
    return [f"{where}: {v['id']} ({v['impact']}) at {', '.join(v['nodes'])}"
            for v in found if v["impact"] in SERIOUS]


def test_no_serious_violation_on_any_page(served: Served) -> None:  # noqa: F811
    """Each page opened on a 390×844 phone and checked, then the window made 1366×768
    and checked again (the layout follows the width, as when a tablet turns)."""
    from playwright.sync_api import expect

    site = served.url
    phone, desktop = SIZES["390x844"], SIZES["1366x768"]
    staff_post(site, "/api/staff/tables", {
        "name": "live-1", "game": "roulette", "variant": "C", "mode": "live"})
    staff_post(site, "/api/staff/poker-tables", {
        "name": "nl-1", "small_blind": 50, "big_blind": 100, "min_buy_in": 2000})
    found: list[str] = []

    def both_sizes(page: Any, where: str) -> None:
        nonlocal found
        found += violations(page, f"{where} at 390x844")
        page.set_viewport_size({"width": desktop[0], "height": desktop[1]})
        page.evaluate(TWO_FRAMES)
        found += violations(page, f"{where} at 1366x768")
        page.set_viewport_size({"width": phone[0], "height": phone[1]})

    with chromium() as browser:
        logged_out = browser.new_page(viewport={"width": phone[0], "height": phone[1]},
                                      bypass_csp=True)  # to inject axe
        logged_out.goto(f"{site}/")
        expect(logged_out.locator("#auth-view")).to_be_visible()
        both_sizes(logged_out, "log-in")
        aino = Player(browser, site, "aino", viewport=phone, bypass_csp=True)
        page = aino.page
        for view in ("lobby", "wallet", "history", "rules/roulette/C", "limits"):
            page.goto(f"{site}/#/{view}")
            page.wait_for_timeout(300)
            both_sizes(page, view)
        for where in tables_of(page):
            page.goto(f"{site}/{where}")
            page.wait_for_timeout(300)
            both_sizes(page, where)
    assert found == [], "\n".join(found)


def test_the_keyboard_and_a_finger_reach_and_remove_chips(served: Served) -> None:  # noqa: F811
    """The first Tab at a table reaches the skip link, which takes the focus to the
    chips; a spot's spoken name carries what is on it; Delete takes a chip off a
    focused spot, and on a phone the Remove mode takes one off with a tap."""
    from playwright.sync_api import expect

    site = served.url
    with chromium() as browser:
        aino = Player(browser, site, "aino", viewport=(390, 844))
        page = aino.page
        page.click('#lang [data-lang="en"]')
        page.goto(f"{site}/#/table/roulette/C")
        page.reload()  # the focus at the start of the page, as a player arrives
        expect(page.locator("#layout [data-spot]").first).to_be_visible()
        page.keyboard.press("Tab")
        expect(page.locator("#skip-to-chips")).to_be_focused()
        expect(page.locator("#skip-to-chips")).to_have_text("Skip to the chips")
        page.keyboard.press("Enter")
        expect(page.locator("#chips .chip.selected")).to_be_focused()

        red = page.locator('#layout [data-spot="red"]')
        page.click('#chips .chip[data-value="500"]')
        red.click()
        red.click()
        expect(red).to_have_attribute("aria-label", "Red, 1:1, chips 10.00 €")
        red.focus()
        page.keyboard.press("Delete")
        expect(red).to_have_attribute("data-amount", "500")
        expect(red).to_have_attribute("aria-label", "Red, 1:1, chips 5.00 €")

        page.click("#remove")
        expect(page.locator("#remove")).to_have_attribute("aria-pressed", "true")
        box = red.bounding_box()
        assert box is not None
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        expect(red).not_to_have_attribute("data-amount", "500")
        expect(page.locator("#bet-total")).to_have_text("0.00 €")
        page.click('#chips .chip[data-value="500"]')  # a chip chosen: placing again
        expect(page.locator("#remove")).to_have_attribute("aria-pressed", "false")
        red.click()
        expect(red).to_have_attribute("data-amount", "500")
        assert aino.errors == []
