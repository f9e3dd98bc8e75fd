"""Every page and table at phone and desktop sizes, in Debian's Chromium: 360×640 and
390×844 (phones, touch) and 1366×768 (a laptop).

At each size, on every page (log-in, lobby, wallet, history, rules, limits) and every
table (each roulette version, boule, the money wheel, Tuplanoppa, Sic Bo, punto banco,
blackjack, live roulette, poker): nothing scrolls sideways, the top bar is at most 56 px
tall on a phone, and every button, chip, betting spot and form control a player taps is
at least 44×44 CSS px there. On a phone a tap at the centre of every roulette
number places a straight-up on that number. With ``PELISALI_SCREENSHOTS=1`` what a
390×844 phone shows of every table (one roulette layout of each kind) is written to
``docs/screenshots/phone-*.png``; the desktop pictures are test_server_browser's.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_server_browser import (  # noqa: F401 - served: the real server, a fixture
    Player,
    Served,
    chromium,
    euros,
    page_fetch,
    served,
    shots_dir,
    staff_post,
)

SIZES = {"360x640": (360, 640), "390x844": (390, 844), "1366x768": (1366, 768)}
PHONE = 600  # narrower than this is a phone's layout
# Roulette versions drawn as another is (the same spots): no picture of their own.
SAME_PICTURE = {f"table-roulette-{v}" for v in "ABDFHI"}
TARGET = 44  # CSS px, WCAG 2.5.5 (AAA) and the platforms' guidelines

# What a player taps: each must be 44×44 on a phone (inline links in text are not).
TAPPABLE = ("button:not([hidden]), .chip, [data-spot]:not(.hot), input, select, "
            "#nav a, a.button, a.back, a.rules-link, a.recall-link")

MEASURE = """(selector) => {
  const visible = (e) => {
    const r = e.getBoundingClientRect();
    const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none";
  };
  const small = [...document.querySelectorAll(selector)].filter(visible).map((e) => {
    const r = e.getBoundingClientRect();
    return {what: e.id || e.dataset.spot || e.dataset.value || e.className || e.tagName,
            width: Math.round(r.width), height: Math.round(r.height)};
  });
  const bar = document.querySelector(".topbar").getBoundingClientRect();
  const over = [...document.querySelectorAll("body *")]
    .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
    .map((e) => `${e.tagName}#${e.id}.${e.getAttribute("class") ?? ""}`).slice(0, 4);
  return {scrollWidth: document.documentElement.scrollWidth, width: innerWidth,
          bar: bar.height, targets: small, over};
}"""


@pytest.fixture
def site(served: Served) -> str:  # noqa: F811 - the fixture imported above
    """The real server's address."""
    return served.url


def check_page(page: Any, where: str, width: int) -> list[str]:
    """What is wrong with the page as it stands: sideways scrolling, a tall top bar,
    small targets (on a phone)."""
    got = page.evaluate(MEASURE, TAPPABLE)
    faults = []
    if got["scrollWidth"] > got["width"]:
        faults.append(f"{where}: {got['scrollWidth']} px wide on a {got['width']} px screen "
                      f"({', '.join(got['over'])} reach past it)")
    if width < PHONE:
        if got["bar"] > 56:
            faults.append(f"{where}: the top bar is {got['bar']:.0f} px tall")
        faults += [f"{where}: {t['what']} is {t['width']}×{t['height']}"
                   for t in got["targets"] if t["width"] < TARGET - 0.5
                   or t["height"] < TARGET - 0.5]
    return faults


def tables_of(page: Any) -> list[str]:
    """The hash of every table a player can open from the lobby."""
    lobby = page_fetch(page, "/api/lobby")["body"]
    hashes = []
    for game in lobby["games"]:
        for variant in game["variants"] or [""]:
            hashes.append(f"#/table/{game['game']}" + (f"/{variant}" if variant else ""))
    for table in lobby["tables"]:
        kind = "poker" if table["game"] == "poker" else "live"
        hashes.append(f"#/{kind}/{table['name']}")
    return hashes


# Both phones in one browser: each page opened at 360×640 and checked, then at 390×844
# (the same phone layout, drawn again by the width) and checked; the laptop on its own.
SCREENS = {"phones": ["360x640", "390x844"], "laptop": ["1366x768"]}
# After the window changes size: two frames, so that the layout of the new size is drawn.
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_page_fits_the_screen(site: str, screen: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    sizes = SCREENS[screen]
    width, height = SIZES[sizes[0]]
    staff_post(site, "/api/staff/tables", {
        "name": "live-1", "game": "roulette", "variant": "C", "mode": "live"})
    staff_post(site, "/api/staff/poker-tables", {
        "name": "nl-1", "small_blind": 50, "big_blind": 100, "min_buy_in": 2000})
    shots = shots_dir(tmp_path)
    faults: list[str] = []
    with chromium() as browser:

        def at_each_size(page: Any, where: str) -> list[str]:
            found = []
            for size in sizes:
                w, h = SIZES[size]
                if (w, h) != (page.viewport_size["width"], page.viewport_size["height"]):
                    page.set_viewport_size({"width": w, "height": h})
                    page.evaluate(TWO_FRAMES)
                found += check_page(page, f"{where} at {size}", w)
                name = where.strip("#/").replace("/", "-")
                if size == "390x844" and where.startswith("#/") and name not in SAME_PICTURE:
                    page.screenshot(path=str(shots / f"phone-{name}.png"),
                                    animations="disabled")  # what a phone shows
            if len(sizes) > 1:
                page.set_viewport_size({"width": width, "height": height})
            return found

        logged_out = browser.new_page(viewport={"width": width, "height": height})
        logged_out.goto(f"{site}/")
        expect(logged_out.locator("#auth-view")).to_be_visible()
        faults += at_each_size(logged_out, "log-in")
        aino = Player(browser, site, "aino", viewport=(width, height))
        page = aino.page
        for view in ("lobby", "wallet", "history", "rules/roulette/C", "limits"):
            page.goto(f"{site}/#/{view}")
            page.wait_for_timeout(300)
            faults += at_each_size(page, view)
            if view == "lobby":  # each roulette version in a line, with its limits
                versions = page.locator('.game-card[data-game="roulette"] .versions li')
                expect(versions).to_have_count(9)
                expect(versions.nth(6)).to_contain_text("0-12")
                expect(versions.nth(2)).to_contain_text("1.00 €–1000.00 €")
        for where in tables_of(page):
            page.goto(f"{site}/{where}")
            view = "#poker-view" if where.startswith("#/poker") else "#table-view"
            expect(page.locator(view)).to_be_visible()
            page.wait_for_timeout(300)
            faults += at_each_size(page, where)
            if where.startswith("#/poker"):  # the rules a step away, as at every table
                page.click("#poker-rules")
                expect(page.locator("#rules-view")).to_be_visible()
                expect(page.locator("#rules-title")).to_contain_text("Poker")
        assert aino.errors == []
    assert faults == [], "\n".join(faults)


# A number scrolled to the middle of the screen (clear of the top bar, the rail and the
# tab bar), and its box where it is now.
SCROLLED_BOX = """(spot) => {
    const e = document.querySelector(`#layout [data-spot="${spot}"]`);
    if (!e) return null;
    e.scrollIntoView({block: 'center'});
    const r = e.getBoundingClientRect();
    return r.width > 0 ? {x: r.left, y: r.top, width: r.width, height: r.height} : null;
}"""
# After a tap: the spots holding chips, the layout cleared for the next tap, and the next
# number scrolled into view with its box (one round trip).
PLACED_THEN_NEXT = """([next]) => {
    const placed = [...document.querySelectorAll('#layout [data-spot][data-amount]')]
        .map((e) => e.dataset.spot);
    document.querySelector('#clear').click();
    return {placed, box: next === undefined ? null : (""" + SCROLLED_BOX + """)(next)};
}"""
CENTRES = """() => [...document.querySelectorAll('#layout [data-spot^="straight "]')].map((e) => {
    const r = e.getBoundingClientRect();
    return {spot: e.dataset.spot, x: r.left + r.width / 2, y: r.top + r.height / 2};
})"""


def tap(page: Any, x: float, y: float, touch: bool) -> None:
    if touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


@pytest.mark.parametrize("size", ["360x640", "1366x768"])  # the narrowest phone, a desktop
def test_a_tap_at_the_centre_of_a_number_bets_on_it(site: str, size: str) -> None:
    """Every number of every roulette layout, tapped at its centre, takes a straight-up
    on itself (and nothing else), on a phone also with the bets between numbers shown.
    The versions that offer the same spots are drawn alike: one of each is tapped."""
    from playwright.sync_api import expect

    width, height = SIZES[size]
    with chromium() as browser:
        aino = Player(browser, site, "aino", viewport=(width, height))
        page = aino.page
        variants = next(g for g in page_fetch(page, "/api/lobby")["body"]["games"]
                        if g["game"] == "roulette")["variants"]
        layouts = {}
        for variant in variants:
            layout = page_fetch(page, f"/api/layout/roulette?variant={variant}")["body"]
            layouts.setdefault(tuple(sorted(s["key"] for s in layout["spots"])),
                               (variant, layout))
        wrong: list[str] = []
        for variant, layout in layouts.values():
            page.goto(f"{site}/#/table/roulette/{variant}")
            straights = sorted(s["key"] for s in layout["spots"]
                               if s["key"].startswith("straight "))
            # This version's layout drawn, not the last one's: G and H have as many
            # numbers, so their count alone does not tell them apart.
            expect(page.locator("#table-view")).to_have_attribute("data-variant", variant)
            expect(page.locator('#layout [data-spot^="straight "]')).to_have_count(
                len(straights))
            between = page.locator("#between").count() > 0
            if width < PHONE and any(s["key"].split(" ")[0] in ("split", "corner")
                                     for s in layout["spots"]):
                assert between, f"roulette {variant}: no way to the bets between numbers"
            modes = ["plain", "between"] if between else ["plain"]
            for mode in modes:
                if mode == "between":
                    page.click("#between")
                    expect(page.locator("#between")).to_have_attribute("aria-pressed", "true")
                spots = [c["spot"] for c in page.evaluate(CENTRES)]
                box = page.evaluate(SCROLLED_BOX, spots[0])
                for n, spot in enumerate(spots):
                    if box is None:  # the layout was being drawn again: once it shows
                        expect(page.locator(f'#layout [data-spot="{spot}"]')).to_be_visible()
                        box = page.evaluate(SCROLLED_BOX, spot)
                    if box is None:
                        wrong.append(f"{variant} {spot}: not on the page")
                        continue
                    tap(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2,
                        touch=width < PHONE)
                    after = page.evaluate(PLACED_THEN_NEXT, spots[n + 1:n + 2])
                    box = after["box"]
                    if after["placed"] != [spot]:
                        wrong.append(f"{variant} {mode} {spot}: took {after['placed']}")
        assert aino.errors == []
    assert wrong == []


IN_VIEW = """(selector) => {
    const e = document.querySelector(selector);
    const r = e.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const top = document.elementFromPoint(x, y);
    return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && e.contains(top);
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_the_outcome_and_a_refusal_show_where_the_player_bets(site: str, size: str) -> None:
    """A bet on 36 (at the far end of the layout, scrolled to), then the spin: the round's
    outcome shows in view without scrolling, and so does the server's refusal of a slip
    over the balance."""
    from playwright.sync_api import expect

    width, height = SIZES[size]
    with chromium() as browser:
        aino = Player(browser, site, "aino", viewport=(width, height), deposit=60_000)
        page = aino.page
        page.goto(f"{site}/#/table/roulette/C")
        spot = page.locator('#layout [data-spot="straight 36"]')
        spot.evaluate("(e) => e.scrollIntoView({block: 'center'})")
        page.click('#chips .chip[data-value="100"]')
        spot.click()
        with page.expect_response("**/api/play/roulette") as played:
            page.click("#spin")
        round_ = played.value.json()
        message = page.locator("#table-message")
        expect(message).to_have_class(re.compile(r"\bok\b"))
        paid = sum(s["paid"] for s in round_["settlements"])
        expect(message).to_contain_text(f"{paid // 100}.{paid % 100:02d} €")
        assert page.evaluate(IN_VIEW, "#table-message"), "the outcome is out of view"
        page.click('#chips .chip[data-value="50000"]')
        # 1,000 € (the table's maximum, so nothing is cut) on a wallet of at most 635 €
        # (600 €, less the 1 € lost or plus the 35 € won on 36)
        for _ in range(2):
            spot.click()
        with page.expect_response("**/api/play/roulette") as refused:
            page.click("#spin")
        assert refused.value.status == 400
        expect(message).to_have_class(re.compile(r"\berror\b"))
        assert page.evaluate(IN_VIEW, "#table-message"), "the refusal is out of view"
        assert aino.errors == []


def test_colour_chips_at_a_live_table_on_a_phone(site: str) -> None:
    """RAY 1.2.1 "Pelipanokset": at a live roulette that takes colour chips a player buys
    a stack of a free colour at 360 px, bets with it (the chip drawn in the colour), and
    every control of the colour panel is a 44 px target."""
    from playwright.sync_api import expect

    staff_post(site, "/api/staff/tables", {
        "name": "live-colour", "game": "roulette", "variant": "C", "mode": "live"})
    staff_post(site, "/api/staff/tables/live-colour/settings", {"chips": "colour"}, status=200)
    with chromium() as browser:
        eino = Player(browser, site, "eino", viewport=(360, 640), still_clock=True)
        page = eino.page
        page.click('#lang [data-lang="en"]')
        page.goto(f"{site}/#/live/live-colour")
        expect(page.locator("#live-box")).to_have_attribute("data-phase", "betting")
        colour = page.locator("#colour-box")
        expect(colour).to_be_visible()
        assert check_page(page, "live-colour", 360) == []
        colour.locator("select").select_option("green")
        colour.locator("input").nth(0).fill("5")
        colour.locator("input").nth(1).fill("10")
        colour.locator("button").click()
        expect(colour).to_contain_text("green: 10 × 5.00")
        expect(page.locator("#balance")).to_have_text(euros(100_000 - 5_000))
        red = page.locator('#layout [data-spot="red"]')
        red.evaluate("(e) => e.scrollIntoView({block: 'center'})")
        red.click()
        page.click("#spin")
        expect(red).to_have_attribute("data-confirmed", "500")
        expect(colour).to_contain_text("green: 9 × 5.00")
        drawn = red.locator(".stack-chip").evaluate(
            "(e) => getComputedStyle(e).getPropertyValue('--c')")
        assert drawn.strip() == "#2e7d32"  # the palette's green
        assert eino.errors == []
