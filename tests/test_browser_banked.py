"""Three Card Poker and Red Dog in Debian's Chromium on a 360×740 phone against the real
server: the lobby's cards open each game; a bet under the minimum is refused in Finnish
with nothing debited; a deal shows the player's three cards with Play and Fold, the
round comes back after a reload, and Play settles every bet, the header's balance the
server's to the cent; at Red Dog a deal with a spread offers a raise up to the ante,
which settles the hand. Nothing scrolls sideways and every target is at least 44 px; the
test waits on the page's text and attributes, never on time."""

from __future__ import annotations

from pathlib import Path

from test_browser_phone import check_page
from test_server_browser import Player, chromium, euros, page_fetch, serving

PHONE = (360, 740)
DEPOSIT = 100_000


def test_three_card_poker_and_red_dog_are_played_on_a_phone(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with serving(tmp_path) as served, chromium() as browser:
        ann = Player(browser, served.url, "ann", deposit=DEPOSIT, viewport=PHONE)
        page = ann.page
        card = page.locator('.banked-card[data-game="three-card-poker"]')
        expect(card).to_contain_text("Three Card Poker")
        card.locator("a.game-open").click()
        view = page.locator("#banked-view")
        expect(view).to_be_visible()
        expect(view).to_have_attribute("data-status", "none")
        assert check_page(page, "three card poker", PHONE[0]) == []
        page.locator("#banked-ante").fill("0.50")
        page.locator("#banked-deal").click()
        expect(page.locator("#banked-message")).to_contain_text("vähimmäispanoksen")
        assert page_fetch(page, "/api/me")["body"]["balance"] == DEPOSIT
        page.locator("#banked-ante").fill("5")
        page.locator("#banked-pair-plus").fill("2")
        page.locator("#banked-deal").click()
        expect(view).to_have_attribute("data-status", "playing")
        expect(page.locator(".banked-player .pcard.face")).to_have_count(3)
        expect(page.locator(".banked-dealer .pcard.face")).to_have_count(0)  # face down
        expect(page.locator("#balance")).to_have_text(euros(DEPOSIT - 700))
        assert check_page(page, "three card poker decision", PHONE[0]) == []
        page.reload()  # the round waits for its decision across a reload
        expect(view).to_have_attribute("data-status", "playing")
        expect(page.locator("#banked-message")).to_contain_text("odottaa")
        page.locator('.banked-decide button[data-action="play"]').click()
        expect(view).to_have_attribute("data-status", "settled")
        expect(page.locator(".banked-dealer .pcard.face")).to_have_count(3)
        expect(page.locator(".banked-settlements li")).to_have_count(3)
        paid = sum(int(li.get_attribute("data-paid") or 0)
                   for li in page.locator(".banked-settlements li").all())
        balance = DEPOSIT - 1_200 + paid
        assert page_fetch(page, "/api/me")["body"]["balance"] == balance
        expect(page.locator("#balance")).to_have_text(euros(balance))
        assert check_page(page, "three card poker settled", PHONE[0]) == []

        page.goto(f"{served.url}/#/banked/red-dog")
        expect(view).to_have_attribute("data-game", "red-dog")
        for _ in range(30):  # deal until a hand shows a spread (pairs and neighbours settle)
            page.locator("#banked-ante").fill("3")
            before = int(view.get_attribute("data-round") or 0)
            page.locator("#banked-deal").click()
            # the new round drawn: its number on the page, waiting or settled
            expect(view).not_to_have_attribute("data-round", str(before))
            if view.get_attribute("data-status") == "playing":
                break
        raise_box = page.locator("#banked-raise-amount")
        expect(raise_box).to_have_value("3.00")
        assert check_page(page, "red dog decision", PHONE[0]) == []
        raise_box.fill("3.01")
        page.locator('.banked-decide button[data-action="raise"]').click()
        expect(page.locator("#banked-message")).to_contain_text("Korotus on 0,01 €")
        raise_box.fill("2")
        page.locator('.banked-decide button[data-action="raise"]').click()
        expect(view).to_have_attribute("data-status", "settled")
        expect(page.locator('.banked-settlements li[data-bet="raise"]')).to_contain_text(
            euros(200))
        server = page_fetch(page, "/api/me")["body"]["balance"]
        expect(page.locator("#balance")).to_have_text(euros(server))
        assert check_page(page, "red dog settled", PHONE[0]) == []
        assert ann.errors == []
