"""A refusal in the browser is the catalogue's, in the page's language: a name the
registration form does not take, in Finnish and in Swedish, never the validator's
words; a password that is too short, with its number; a split seat's results."""

from __future__ import annotations

from test_server_browser import (  # noqa: F401 - server: the real server, a fixture
    chromium,
    served,
    server,
)


def test_registration_refusals_in_the_players_language(server: str) -> None:  # noqa: F811
    from playwright.sync_api import expect

    with chromium() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(f"{server}/")
        expect(page.locator("#auth-view")).to_be_visible()
        message = page.locator("#register-message")
        page.fill("#register-name", "ux tester")
        page.fill("#register-password", "kissa-koira-123")
        page.fill("#register-born", "1990-05-17")
        page.click("#register-submit")
        expect(message).to_have_text("Tarkista kenttä: nimi.")
        page.click('#lang [data-lang="sv"]')
        page.click("#register-submit")
        expect(message).to_have_text("Kontrollera fältet: namn.")
        page.fill("#register-name", "ux_tester")
        page.fill("#register-password", "kissa")
        page.click("#register-submit")
        expect(message).to_have_text("Lösenordet måste ha minst 8 tecken.")
        assert "String should" not in page.content()
        # A split blackjack seat's results, hand by hand, in the page's language.
        page.click('#lang [data-lang="fi"]')
        label = page.evaluate(
            "async () => (await import('/static/core.js')).resultLabel('lose/win')")
        assert label == "Häviö / Voitto"
        # A table socket the server closed (no catalogue code can ride on a close
        # frame): said by its close code, in the page's language.
        closed = page.evaluate("""async () => {
            const m = await import('/static/messages.js');
            return [m.closeText(4403, 'not logged in'), m.closeText(4403, "no poker table 'x'"),
                    m.closeText(4429, 'at most 4 table connections at once: close one'),
                    m.closeText(1000, '')];
        }""")
        assert closed[0] == "Et ole kirjautunut sisään."
        assert closed[1] == "Tämä pöytä ei ole avoinna sinulle."
        assert "4" in closed[2] and closed[3] is None
