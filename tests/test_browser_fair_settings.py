"""A player's provably fair settings (#/fair, web/static/fair_settings.js) in Debian's
Chromium on a 360×640 phone, opened from the history page: the current commitment, a
client seed the server refuses (its words in the player's language, Finnish and English)
and one it takes, the setting turned on at their own Three Card Poker table, a rotation
refused while the round dealt there waits for its decision, then the rotation that
reveals the seed (its SHA-256 is the commitment shown before) and one that has nothing
to reveal. The page fits the screen with targets a finger can use at every step."""

from __future__ import annotations

import hashlib

from test_browser_phone import check_page
from test_server_browser import (  # noqa: F401 - served: the real server, a fixture
    Player,
    Served,
    chromium,
    page_fetch,
    served,
)

SEND = """async ([method, path, body]) => {
    const r = await fetch(path, {method, credentials: "same-origin",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    return {status: r.status, body: await r.json()};
}"""


def test_a_player_sets_their_seeds_and_tables_on_a_phone(served: Served) -> None:  # noqa: F811
    from playwright.sync_api import expect

    with chromium() as browser:
        aino = Player(browser, served.url, "aino", viewport=(360, 640))
        page = aino.page
        page.click('#lang [data-lang="en"]')
        send = lambda *args: page.evaluate(SEND, list(args))  # noqa: E731
        fair = lambda: page_fetch(page, "/api/fair")["body"]  # noqa: E731

        page.goto(f"{served.url}/#/history")
        page.click("#history-fair")
        view = page.locator("#fair-view")
        expect(view).to_be_visible()
        before = fair()["current"]
        expect(page.locator("#fair-commitment")).to_have_text(before["commitment"])
        expect(page.locator("#fair-client-seed")).to_have_value(before["client_seed"])
        faults = check_page(page, "fair settings", 360)

        status = page.locator("#fair-status")
        page.fill("#fair-client-seed", "two words")
        page.click("#fair-seed-save")
        expect(status).to_have_text("A client seed is 1 to 64 letters, digits, - or _ "
                                    "(no spaces or accented letters).")
        expect(status).to_have_class("message error")
        page.click('#lang [data-lang="fi"]')
        expect(page.locator("#fair-settings-title")).to_have_text("Todistettavasti reilu peli")
        page.fill("#fair-client-seed", "ääkkönen")
        page.click("#fair-seed-save")
        expect(status).to_have_text("Asiakassiemen on 1–64 kirjainta, numeroa, - tai _ "
                                    "(ei ääkkösiä eikä välilyöntejä).")
        assert fair()["current"]["client_seed"] == before["client_seed"]  # nothing changed
        faults += check_page(page, "fair settings, a seed refused", 360)
        page.click('#lang [data-lang="en"]')
        expect(page.locator("#fair-settings-title")).to_have_text("Provably fair play")

        page.fill("#fair-client-seed", "aino-phone_2")
        page.click("#fair-seed-save")
        expect(status).to_have_text("Client seed saved: aino-phone_2.")
        assert fair()["current"]["client_seed"] == "aino-phone_2"

        toggle = page.locator('.fair-toggle[data-game="three-card-poker"]')
        expect(toggle).to_have_attribute("aria-pressed", "false")
        toggle.click()
        expect(status).to_have_text("Three Card Poker: fair draws on.")
        expect(toggle).to_have_attribute("aria-pressed", "true")
        assert [x["game"] for x in fair()["tables"] if x["fair"]] == ["three-card-poker"]
        faults += check_page(page, "fair settings, a table on", 360)

        dealt = send("POST", "/api/banked/three-card-poker/deal",
                     {"key": "fair-1", "bets": {"ante": 100}})
        assert dealt["status"] == 200, dealt
        page.click("#fair-rotate-pair")
        expect(status).to_have_text("A round is still in play: finish it, then the seed can "
                                    "be revealed and the round checked.")
        assert fair()["current"]["commitment"] == before["commitment"]
        folded = send("POST", "/api/banked/three-card-poker/decide",
                      {"key": "fair-2", "action": "fold"})
        assert folded["status"] == 200, folded

        page.click("#fair-rotate-pair")
        expect(status).to_contain_text("Seed revealed: ")  # the rotation answered first
        after = fair()
        (shown,) = after["revealed"]
        assert shown["commitment"] == before["commitment"] and shown["rounds"] == 1
        assert hashlib.sha256(bytes.fromhex(shown["server_seed"])).hexdigest() \
            == before["commitment"]
        expect(status).to_have_text(f"Seed revealed: {shown['server_seed']}. New commitment: "
                                    f"{after['current']['commitment']}.")
        expect(page.locator("#fair-commitment")).to_have_text(after["current"]["commitment"])
        expect(page.locator("#fair-revealed")).to_contain_text(shown["server_seed"])
        faults += check_page(page, "fair settings, a seed revealed", 360)

        page.click("#fair-rotate-pair")
        expect(status).to_have_text(
            "The seed pair has drawn no round yet: there is nothing to reveal.")
        assert len(fair()["revealed"]) == 1
        round_id = dealt["body"]["round_id"]
        assert page_fetch(page, f"/api/fair/rounds/{round_id}")["body"]["matches"] is True
        assert faults == [], "\n".join(faults)
        assert aino.errors == []
