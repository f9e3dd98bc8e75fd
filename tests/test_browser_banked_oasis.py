"""Oasis Stud Poker in Debian's Chromium on a 360×740 phone against the real server, the
cards stacked: the lobby's card opens the game with its raise pay table and fee table in
the page's language; a deal takes the ante and shows the player's five cards as toggles
(each at least 44 px, nothing scrolling sideways), the dealer's up card with four face
down and an Exchange button that waits for a card; tapping cards shows the fee it will
cost in euros (one card 1x the ante, two 2x) before anything is sent; the exchange takes
the fee and deals the replacement (a flush), Raise takes 2x the ante, and the showdown
shows the dealer's five (ace-king, qualifying), the ante won 1:1, the fee kept and the
raise paid 5:1, the header's balance the server's to the cent; the hands follow a switch
to English. The test waits on the page's text and attributes, never on time. Three bet
requests: a deal and two decisions."""

from __future__ import annotations

from pathlib import Path

from test_browser_phone import TARGET, check_page
from test_platform_uth_progressive import Cards
from test_server_browser import Player, chromium, euros, page_fetch, serving

PHONE = (360, 740)
DEPOSIT = 100_000
ANTE = 500
# ann Ah Kh 7h 2h 9d; the dealer Ac Kd 9c 4s 3c (3c face up); the replacement 5h
CARDS = ["Ah", "Kh", "7h", "2h", "9d", "Ac", "Kd", "9c", "4s", "3c", "5h"]


def test_oasis_stud_poker_is_played_on_a_phone(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with serving(tmp_path, rng=Cards(list(CARDS))) as served, chromium() as browser:
        ann = Player(browser, served.url, "ann", deposit=DEPOSIT, viewport=PHONE)
        page = ann.page
        card = page.locator('.banked-card[data-game="oasis-stud"]')
        expect(card).to_contain_text("Oasis Stud -pokeri")
        card.locator("a.game-open").click()
        view = page.locator("#banked-view")
        expect(view).to_have_attribute("data-game", "oasis-stud")
        pays = page.locator("#banked-pays")
        expect(pays.locator('tr[data-table="raise"]')).to_have_count(10)
        expect(pays.locator('tr[data-table="raise"][data-hand="flush"]')).to_contain_text(
            "Korotus: Väri")
        expect(pays.locator('tr[data-table="raise"][data-hand="ace_king"]')).to_contain_text(
            "Ässä ja kuningas")
        expect(pays.locator('tr[data-table="fees"][data-cards="3"]')).to_contain_text(
            "3 kortin vaihto")

        page.locator("#banked-ante").fill("5")
        page.locator("#banked-deal").click()
        expect(view).to_have_attribute("data-status", "playing")
        expect(view).to_have_attribute("data-street", "exchange")
        picks = page.locator(".banked-player button.oasis-pick")
        expect(picks).to_have_count(5)
        assert [picks.nth(i).get_attribute("data-card") for i in range(5)] == CARDS[:5]
        expect(page.locator(".banked-dealer .pcard.back")).to_have_count(4)
        expect(page.locator(".banked-dealer .pcard.face")).to_have_attribute("data-card", "3c")
        expect(page.locator("#balance")).to_have_text(euros(DEPOSIT - ANTE))
        exchange = page.locator('.banked-decide button[data-action="exchange"]')
        expect(exchange).to_be_disabled()  # nothing chosen yet
        expect(page.locator('.banked-decide button[data-action="raise"]')).to_contain_text(
            euros(2 * ANTE))
        expect(page.locator('.banked-decide button[data-action="fold"]')).to_have_text(
            "Luovuta")
        for i in range(5):  # each card a finger-sized target on the phone
            box = picks.nth(i).bounding_box()
            assert box is not None and min(box["width"], box["height"]) >= TARGET, box
        assert check_page(page, "oasis stud before the exchange", PHONE[0]) == []

        # The fee is shown before anything is sent: 1 card 1x the ante, 2 cards 2x.
        page.locator('.oasis-pick[data-card="9d"]').click()
        expect(page.locator('.oasis-pick[data-card="9d"]')).to_have_attribute(
            "aria-pressed", "true")
        expect(exchange).to_have_attribute("data-fee", str(ANTE))
        expect(exchange).to_have_text(f"Vaihda 1 kortti · maksu {euros(ANTE)}")
        page.locator('.oasis-pick[data-card="7h"]').click()
        expect(exchange).to_have_attribute("data-fee", str(2 * ANTE))
        page.locator('.oasis-pick[data-card="7h"]').click()  # and chosen no longer
        expect(exchange).to_have_attribute("data-fee", str(ANTE))
        expect(page.locator("#balance")).to_have_text(euros(DEPOSIT - ANTE))

        exchange.click()
        expect(view).to_have_attribute("data-street", "raise")
        expect(page.locator(".banked-player .pcard.face")).to_have_count(5)
        expect(page.locator(".banked-player button.oasis-pick")).to_have_count(0)
        expect(page.locator('.banked-player .pcard[data-card="5h"]')).to_be_visible()
        expect(page.locator(".banked-player")).to_contain_text("Väri")
        expect(page.locator(".banked-discarded")).to_contain_text(f"9d · maksu {euros(ANTE)}")
        expect(page.locator('.banked-bets li[data-bet="exchange"]')).to_contain_text(
            euros(ANTE))
        expect(page.locator("#balance")).to_have_text(euros(DEPOSIT - 2 * ANTE))
        expect(page.locator('.banked-decide button[data-action="exchange"]')).to_have_count(0)
        assert check_page(page, "oasis stud after the exchange", PHONE[0]) == []

        page.locator('.banked-decide button[data-action="raise"]').click()
        expect(view).to_have_attribute("data-status", "settled")
        dealer = page.locator(".banked-dealer .pcard.face")
        expect(dealer).to_have_count(5)
        assert [dealer.nth(i).get_attribute("data-card") for i in range(5)] == CARDS[5:10]
        expect(page.locator(".banked-dealer")).to_contain_text("Jakaja: Korkein kortti")
        expected = {"ante": 2 * ANTE, "exchange": 0, "raise": 6 * 2 * ANTE}
        for spot, paid in expected.items():
            expect(page.locator(f'.banked-settlements li[data-bet="{spot}"]')).to_have_attribute(
                "data-paid", str(paid))
        expect(page.locator('.banked-settlements li[data-bet="exchange"]')).to_contain_text(
            "Vaihtomaksu: 5.00 € → 0.00 € (maksu)")
        expect(page.locator('.banked-settlements li[data-bet="raise"]')).to_contain_text(
            "voitto, Väri 5:1")
        paid = sum(expected.values())
        balance = DEPOSIT - 4 * ANTE + paid
        assert page_fetch(page, "/api/me")["body"]["balance"] == balance
        expect(page.locator("#balance")).to_have_text(euros(balance))
        expect(page.locator("#banked-deal")).to_be_visible()  # the next round's bets
        assert check_page(page, "oasis stud settled", PHONE[0]) == []

        page.click('#lang [data-lang="en"]')
        expect(page.locator('.banked-settlements li[data-bet="raise"]')).to_contain_text(
            "win, Flush 5:1")
        expect(page.locator('.banked-settlements li[data-bet="exchange"]')).to_contain_text(
            "Exchange fee: 5.00 € → 0.00 € (fee)")
        assert ann.errors == []
