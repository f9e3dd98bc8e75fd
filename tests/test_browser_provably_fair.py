"""A provably fair round's recall in Debian's Chromium on a 360×640 phone: the proof
(commitment, client seed, nonce) with the seed hidden; the rotate button reveals it,
and the page itself recomputes the draws from the seeds (WebCrypto HMAC-SHA256, the
same rejection scaling) and says they match, beside the server's replay. The page fits
the screen with targets a finger can use."""

from __future__ import annotations

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


def test_a_fair_rounds_recall_shows_its_proof_and_checks_it_in_the_browser(
        served: Served) -> None:  # noqa: F811
    from playwright.sync_api import expect

    with chromium() as browser:
        aino = Player(browser, served.url, "aino", viewport=(360, 640))
        page = aino.page
        page.click('#lang [data-lang="en"]')
        send = lambda *args: page.evaluate(SEND, list(args))  # noqa: E731
        assert send("PUT", "/api/fair/tables/sic-bo", {"on": True})["status"] == 200
        assert send("PUT", "/api/fair/client-seed", {"client_seed": "aino-phone"}
                    )["status"] == 200
        played = send("POST", "/api/play/sic-bo", {"key": "f1",
                                                   "bets": [{"spot": "big", "amount": 100}]})
        assert played["status"] == 200, played
        round_id = played["body"]["round_id"]
        commitment = page_fetch(page, "/api/fair")["body"]["current"]["commitment"]

        page.goto(f"{served.url}/#/recall/{round_id}")
        proof = page.locator("#fair-proof")
        expect(proof).to_be_visible()
        expect(proof).to_contain_text(commitment)
        expect(proof).to_contain_text("aino-phone")
        expect(page.locator("#fair-check")).to_have_text(
            "The server seed is revealed when you rotate your seed pair.")
        faults = check_page(page, "recall, seed hidden", 360)

        page.click("#fair-rotate")
        check = page.locator("#fair-check")
        expect(check).to_have_class("message ok")
        verified = page_fetch(page, f"/api/fair/rounds/{round_id}")["body"]
        step = verified["steps"][0]
        draws = " ".join(str(d) for _, d in step["draws"])
        expect(check).to_have_text(
            "Checked in your browser: the seed is the commitment's and the draws computed "
            f"from the seeds ({draws}) are the recorded ones. The server's replay: "
            f"{' '.join(verified['recomputed'])}.")
        expect(proof).to_contain_text(step["server_seed"])
        # The page's own computation, not the server's word: a changed draw is caught.
        mine = page.evaluate("""async ([seed, client, nonce, bounds]) => {
            const { fairDraws } = await import("/static/fair.js");
            return fairDraws(seed, client, nonce, bounds);
        }""", [step["server_seed"], "aino-phone", 0, [6, 6, 6, 37, 1 << 40]])
        assert mine[:3] == [d for _, d in step["draws"]]
        assert 0 <= mine[3] < 37 and 0 <= mine[4] < 1 << 40
        faults += check_page(page, "recall, seed revealed", 360)
        assert faults == [], "\n".join(faults)
        assert aino.errors == []
