"""The slots in Debian's Chromium, on a 360×740 phone (the reels turning) and a 1366×768
desktop (reduced motion: the reels stop at once), against the real server drawing
scripted stops: a line win, then three stars.

A player opens Star Treasure from the lobby, plays 20 lines at 5 cents; the first spin's
answer is lost on the way back and the spin sent again under the same key is charged
once. The window shows the symbols the server drew, the winning line's cells lit and
the line listed with its pay in euros. The stars give free spins: the counter shows
what is left and the button turns into "Free spin"; a double tap sends one spin; a
reload mid-feature finds the counter where it was; the last free spin shows the total
win and what went to the wallet and to the bonus balance. On the phone nothing scrolls
sideways and every target is at least 44 px. The tests wait on the page's attributes
and text, never on time."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from slot_games import Stops, scatter_stops
from test_browser_phone import check_page
from test_server_browser import Player, Served, chromium, euros, page_fetch, serving

from pelisali.engine import GAMES
from pelisali.engine.slots import SlotEngine
from pelisali.rng import SeededRng

VIDEO = GAMES["slot-video"]
assert isinstance(VIDEO, SlotEngine)
LINES, CENTS = 20, 5
SIZES = {"phone": (360, 740), "desktop": (1366, 768)}
NAMES = {"K": "K", "Q": "Q", "J": "J", "A": "A", "TEN": "10", "WILD": "Wild", "CROWN": "Crown",
         "DIAMOND": "Diamond", "RUBY": "Ruby", "EMERALD": "Emerald", "STAR": "Star"}


def winning_stops() -> list[int]:
    """Base-game stops with a line win on 20 lines and no star in the window."""
    draw = SeededRng(3)
    strips = VIDEO.rules.reels.base
    while True:
        stops = [draw.randbelow(len(strip)) for strip in strips]
        result = VIDEO.paytable.settle(strips, stops, LINES)
        if result.lines and result.scatters == 0:
            return stops


WIN = winning_stops()
FEATURE = scatter_stops(VIDEO, (0, 2, 4))


@pytest.fixture
def scripted(tmp_path: Path) -> Iterator[Served]:
    """The real server, its slots drawing a line win, then the feature, then seeded stops."""
    with serving(tmp_path, rng=Stops(WIN + FEATURE, seed=11)) as running:
        yield running


SHOWN = """() => [...document.querySelectorAll('#slot-window .slot-cell')].map((c) =>
    [+c.dataset.reel, +c.dataset.row, c.dataset.symbol, c.classList.contains('win'),
     c.classList.contains('scatter')])"""
TAP_TWICE = """() => { const b = document.querySelector('#slot-spin'); b.click(); b.click(); }"""
SMALL_SUMMARY = """() => { const r = document.querySelector('#slot-paytable summary')
    .getBoundingClientRect(); return [r.width, r.height]; }"""


def cells(page: Any) -> dict[tuple[int, int], tuple[str, bool, bool]]:
    """What the window shows: (reel, row) -> (symbol, lit as a line win, marked scatter)."""
    return {(r, row): (s, win, scatter) for r, row, s, win, scatter in page.evaluate(SHOWN)}


def settled_on_page(page: Any, answer: dict[str, Any]) -> None:
    """The page has shown the answer's last spin: its window, symbol for symbol."""
    from playwright.sync_api import expect

    view = page.locator("#slot-view")
    expect(view).to_have_attribute("data-shown", str(len(answer["spins"])))
    expect(view).to_have_attribute("data-busy", "false")
    expect(view).to_have_attribute("data-status", answer["status"])
    window = answer["spins"][-1]["window"]
    shown = cells(page)
    assert len(shown) == VIDEO.rules.rows * VIDEO.rules.reel_count
    assert {k: v[0] for k, v in shown.items()} == {
        (reel, row): window[row][reel] for row in range(len(window))
        for reel in range(len(window[row]))}
    expect(page.locator("#balance")).to_have_text(euros(answer["balance"]))


def spin(page: Any, path: str = "spin", twice: bool = False) -> dict[str, Any]:
    """Tap Spin (Free spin) and wait for the page to show the answer."""
    with page.expect_response(lambda r: r.url.endswith(f"/api/slots/slot-video/{path}")
                              and r.request.method == "POST") as got:
        if twice:
            page.evaluate(TAP_TWICE)  # a double tap: the second lands on a disabled button
        else:
            page.click("#slot-spin")
    answer: dict[str, Any] = got.value.json()
    settled_on_page(page, answer)
    return answer


@pytest.mark.parametrize("size", list(SIZES))
def test_a_player_spins_wins_plays_the_free_spins_and_resumes_after_a_reload(
        scripted: Served, size: str) -> None:
    from playwright.sync_api import expect

    width, height = SIZES[size]
    phone = width < 600
    faults: list[str] = []

    def fits(where: str) -> None:
        if phone:
            faults.extend(check_page(page, where, width))
            box = page.evaluate(SMALL_SUMMARY)
            if box[0] and (box[0] < 44 or box[1] < 44):
                faults.append(f"{where}: the pay table's summary is {box}")

    with chromium() as browser:
        aino = Player(browser, scripted.url, "aino", viewport=(width, height))
        page = aino.page
        if not phone:
            page.emulate_media(reduced_motion="reduce")
        posted: list[dict[str, Any]] = []
        page.on("request", lambda r: posted.append({"url": r.url, **json.loads(r.post_data)})
                if r.method == "POST" and "/api/slots/" in r.url else None)
        page.click('#lang [data-lang="en"]')
        card = page.locator('.slot-card[data-game="slot-video"]')
        expect(card.locator("h3")).to_have_text("Star Treasure")
        fits("lobby")
        card.locator("a.game-open").click()
        view = page.locator("#slot-view")
        expect(view).to_be_visible()
        assert page.url.endswith("#/slot/slot-video")
        expect(page.locator("#slot-title")).to_have_text("Star Treasure")
        expect(page.locator("#slot-window .slot-cell")).to_have_count(15)
        expect(page.locator("#slot-spin")).to_have_text("Spin")
        page.select_option("#slot-lines", str(LINES))
        page.select_option("#slot-level", str(CENTS))
        expect(page.locator("#slot-total")).to_have_text(euros(LINES * CENTS))
        fits("slot before a spin")

        # The first spin's answer is lost on the way back: sent again, the same key, one stake.
        lost = {"done": False}

        def lose_once(route: Any) -> None:
            if lost["done"]:
                route.continue_()
                return
            lost["done"] = True
            route.fetch()  # the server takes the spin ...
            route.abort("connectionreset")  # ... and its answer never arrives

        page.route("**/api/slots/slot-video/spin", lose_once)
        page.click("#slot-spin")
        expect(page.locator("#slot-message")).to_contain_text("Tap Spin to send it again")
        expect(view).to_have_attribute("data-busy", "false")
        first = spin(page)
        page.unroute("**/api/slots/slot-video/spin")
        spins_sent = [p for p in posted if p["url"].endswith("/spin")]
        assert len(spins_sent) == 2 and spins_sent[0]["key"] == spins_sent[1]["key"]
        assert (spins_sent[0]["lines"], spins_sent[0]["cents"]) == (LINES, CENTS)
        assert first["status"] == "settled" and first["spins"][0]["stops"] == WIN
        assert first["balance"] == 100_000 - LINES * CENTS + first["win"]
        assert aino.balance_matches_server() == first["balance"]

        # The winning lines lit and listed.
        wins = first["spins"][0]["lines"]
        assert wins
        shown = cells(page)
        lit = {(reel, row) for win in wins
               for reel, row in enumerate(VIDEO.rules.paylines[win["line"]][:win["count"]])}
        assert {k for k, v in shown.items() if v[1]} == lit
        listed = page.locator("#slot-lines-won li")
        expect(listed).to_have_count(len(wins))
        for n, win in enumerate(wins):
            expect(listed.nth(n)).to_have_text(
                f"Line {win['line'] + 1}: {win['count']} × {NAMES[win['symbol']]} pays "
                f"{euros(win['pays'] * CENTS)}")
        expect(page.locator("#slot-win")).to_have_text(f"Win {euros(first['win'])}")
        fits("slot after a win")

        # Three stars: the feature. A double tap sends one spin.
        before = len(posted)
        feature = spin(page, twice=True)
        assert len(posted) == before + 1
        assert feature["status"] == "playing" and feature["spins"][0]["stops"] == FEATURE
        window = feature["spins"][0]["window"]
        assert {k for k, v in cells(page).items() if v[2]} == {
            (reel, row) for row in range(3) for reel in range(5) if window[row][reel] == "STAR"}
        free = page.locator("#slot-free")
        expect(free).to_contain_text("Free spins left: 10")
        expect(free).to_contain_text("10 free spins!")
        expect(page.locator("#slot-spin")).to_have_text("Free spin")
        expect(page.locator("#slot-lines")).to_be_disabled()
        fits("slot in the feature")

        answer = spin(page, "free-spin", twice=True)
        assert len(answer["spins"]) == 2 and len(posted) == before + 2
        assert posted[-1]["seen"] == 1
        expect(free).to_contain_text(f"Free spins left: {answer['free_left']}")

        # A reload mid-feature: the counter resumes where it was.
        page.reload()
        expect(view).to_be_visible()
        expect(view).to_have_attribute("data-shown", "2")
        settled_on_page(page, answer)
        expect(free).to_contain_text(f"Free spins left: {answer['free_left']}")
        expect(page.locator("#slot-message")).to_have_text(
            "The unfinished round goes on: play out the free spins.")
        expect(page.locator("#slot-spin")).to_have_text("Free spin")
        expect(page.locator("#slot-total")).to_have_text(euros(LINES * CENTS))

        while answer["status"] == "playing":
            seen = len(answer["spins"])
            answer = spin(page, "free-spin")
            assert posted[-1]["seen"] == seen and len(answer["spins"]) == seen + 1
            if answer["status"] == "playing":
                expect(free).to_contain_text(f"Free spins left: {answer['free_left']}")
        expect(free).to_be_hidden()
        summary = page.locator("#slot-summary")
        expect(summary).to_have_text(
            f"Round {answer['round_id']}: Total win {euros(answer['win'])}: "
            f"{euros(answer['to_wallet'])} to the wallet, {euros(answer['to_bonus'])} "
            "to the bonus balance.")
        assert answer["to_wallet"] + answer["to_bonus"] == answer["win"]
        expect(page.locator("#slot-spin")).to_have_text("Spin")
        expect(page.locator("#slot-lines")).to_be_enabled()
        assert aino.balance_matches_server() == answer["balance"]
        fits("slot after the feature")

        page.click('#lang [data-lang="fi"]')  # every string in the player's language
        expect(summary).to_contain_text("Voitit yhteensä")
        expect(page.locator("#slot-spin")).to_have_text("Pyöräytä")
        page.click('#lang [data-lang="sv"]')
        expect(summary).to_contain_text("Du vann totalt")
        expect(page.locator("#slot-spin")).to_have_text("Snurra")

        # The fruit machine: three reels, no feature.
        page.goto(f"{scripted.url}/#/slot/slot-fruit")
        expect(view).to_have_attribute("data-game", "slot-fruit")
        expect(page.locator("#slot-window .slot-cell")).to_have_count(9)
        machine = page_fetch(page, "/api/slots/slot-fruit")["body"]
        assert machine["playing"] is None
        fits("fruit slot")
        assert aino.errors == []
    assert faults == [], "\n".join(faults)


PLAY = """async (body) => (await fetch("/api/slots/slot-video/spin", {method: "POST",
    credentials: "same-origin", headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body)})).json()"""
REFUSED = """async ([path, body]) => {
    const r = await fetch(path, {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    const m = await import('/static/messages.js');
    const core = await import('/static/core.js');
    const said = {};
    for (const lang of ["fi", "sv", "en"]) {
        core.state.lang = lang;
        said[lang] = m.errorText(r.status, await r.clone().json());
    }
    core.state.lang = "en";
    return said;
}"""


def test_the_slot_refusals_in_the_players_language(scripted: Served) -> None:
    """A bet off the rule lists and a free spin with none to play, as the server refuses
    them, said in Finnish, Swedish and English with the amounts in euros; a spin refused
    while free spins are left, said on the page, which turns to the round in play."""
    from playwright.sync_api import expect

    with chromium() as browser:
        aino = Player(browser, scripted.url, "aino", viewport=SIZES["phone"])
        page = aino.page
        lines = page.evaluate(REFUSED, ["/api/slots/slot-video/spin",
                                        {"lines": 7, "cents": 5, "key": "r1"}])
        assert lines == {"fi": "7 linjaa ei voi pelata. Linjoja voi pelata 1, 5, 10, 15, 20.",
                         "sv": "Det går inte att spela 7 linjer. Linjer: 1, 5, 10, 15, 20.",
                         "en": "7 lines cannot be played. Lines: 1, 5, 10, 15, 20."}
        level = page.evaluate(REFUSED, ["/api/slots/slot-fruit/spin",
                                        {"lines": 5, "cents": 3, "key": "r2"}])
        levels = "0.01 €, 0.02 €, 0.05 €, 0.10 €, 0.20 €, 0.50 €, 1.00 €"
        assert level["en"] == f"0.03 € a line is not a bet level. Levels: {levels}."
        assert level["fi"] == f"0.03 € linjaa kohden ei ole panostaso. Tasot: {levels}."
        assert level["sv"] == f"0.03 € per linje är ingen insatsnivå. Nivåer: {levels}."
        none = page.evaluate(REFUSED, ["/api/slots/slot-fruit/free-spin", {"seen": 1}])
        assert none == {"fi": "Pelattavia ilmaiskierroksia ei ole.",
                        "sv": "Det finns inga gratissnurr att spela.",
                        "en": "There are no free spins to play."}

        # Free spins won in another tab: this page's Spin is refused, in the player's
        # language, and the page turns to the round in play.
        page.click('#lang [data-lang="fi"]')
        page.goto(f"{scripted.url}/#/slot/slot-video")
        view = page.locator("#slot-view")
        expect(view).to_have_attribute("data-status", "none")
        for key in ("t1", "t2"):  # the line win, then the stars
            played = page.evaluate(PLAY, {"lines": LINES, "cents": CENTS, "key": key})
        assert played["status"] == "playing"
        page.click("#slot-spin")
        expect(page.locator("#slot-message")).to_have_text(
            f"Kierroksella {played['round_id']} on 10 ilmaiskierrosta jäljellä: pelaa ne ensin.")
        expect(view).to_have_attribute("data-status", "playing")
        expect(page.locator("#slot-free")).to_contain_text("Ilmaiskierroksia jäljellä: 10")
        expect(page.locator("#slot-spin")).to_have_text("Ilmaiskierros")
        settled_on_page(page, played)
        assert aino.errors == []


FEATURE_ONLY_SPIN = """async () => {
    const post = async (path, body) => (await fetch(path, {method: "POST",
        credentials: "same-origin", headers: {"Content-Type": "application/json"},
        body: JSON.stringify(body)})).json();
    let done = await post("/api/slots/slot-video/spin", {lines: 20, cents: 5, key: "b1"});
    while (done.status === "playing") {
        done = await post("/api/slots/slot-video/free-spin", {seen: done.spins.length});
    }
    return done;
}"""


@pytest.fixture
def feature_first(tmp_path: Path) -> Iterator[Served]:
    """The real server, its slots drawing the feature first, then seeded stops."""
    with serving(tmp_path, rng=Stops(FEATURE, seed=11)) as running:
        yield running


def test_the_history_shows_the_free_spin_bonus_and_its_deadline(
        feature_first: Served) -> None:
    from playwright.sync_api import expect

    with chromium() as browser:
        aino = Player(browser, feature_first.url, "aino", viewport=(360, 740))
        page = aino.page
        page.click('#lang [data-lang="en"]')
        done = page.evaluate(FEATURE_ONLY_SPIN)
        assert done["to_bonus"] > 0
        page.click("#nav-history")
        row = page.locator("#bonus-rows tr.bonus-granted")
        expect(row).to_have_count(1)
        expect(row.locator(".bonus-kind")).to_have_text("Granted")
        expect(row.locator(".amount")).to_have_text(euros(done["to_bonus"]))
        assert row.get_attribute("data-round") == str(done["round_id"])
        expect(page.locator("#bonus-balance")).to_contain_text(
            f"Bonus balance {euros(done['to_bonus'])}:")
        expect(page.locator("#bonus-empty")).to_be_hidden()
        assert check_page(page, "history", 360) == []
        page.click('#lang [data-lang="fi"]')
        expect(row.locator(".bonus-kind")).to_have_text("Myönnetty")
