"""Chemin de fer in Debian's Chromium on two 360×740 phones against the real server: the
lobby's card opens the table, both players sit, the first is offered the bank; a bank
under the least is refused in Finnish with nothing debited; a bank put up reaches the
other player's page, who goes banco and, holding the largest stake, chooses on five with
the banker's first cards face down on their screen; both pages end with the coup
settled, each header's balance the server's to the cent, the money of both and the
house's commission adding up. Both pages follow the table over its socket (pushed, not
polled), show the decision clock's count, and when the server's clock (moved by the
test) runs out the bank offer both pages see it pass to the other player. Nothing
scrolls sideways and every target is at least 44 px; the test waits on the page's text
and attributes, never on time."""

from __future__ import annotations

from pathlib import Path

from test_browser_phone import check_page
from test_server_browser import Player, chromium, euros, page_fetch, serving, staff_post

from pelisali.rng import SeededRng

PHONE = (360, 740)
DEPOSIT = 100_000
SEED = 6  # the banco's cards: the player's hand 7 8 (5), the choice on five


def test_chemin_de_fer_is_played_by_two_players_on_phones(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with serving(tmp_path, rng=SeededRng(SEED)) as served, chromium() as browser:
        staff_post(served.url, "/api/staff/tables",
                   {"name": "cf-1", "game": "chemin-de-fer", "mode": "rng"})
        ann = Player(browser, served.url, "ann", deposit=DEPOSIT, viewport=PHONE)
        bob = Player(browser, served.url, "bob", deposit=DEPOSIT, viewport=PHONE)
        for player in (ann, bob):
            page = player.page
            card = page.locator('.chemin-card[data-table="cf-1"]')
            expect(card).to_contain_text("chemin de fer")
            card.locator("a.game-open").click()
            view = page.locator("#chemin-view")
            expect(view).to_have_attribute("data-seated", "false")
            expect(page.locator("#chemin-note")).to_contain_text(
                "RAY:n sääntökirjassa, sellaisena kuin se on poimittu, ei ole tämän pelin")
            page.locator("#chemin-sit").click()
            expect(view).to_have_attribute("data-seated", "true")
        a, b = ann.page, bob.page
        for page in (a, b):  # pushed over the socket, the poll stopped
            expect(page.locator("#chemin-view")).to_have_attribute("data-link", "socket")
        # the offer's clock runs from bob's sitting down, on the server's clock (at 0)
        offer_due = "1970-01-01T00:00:15+00:00"
        expect(a.locator("#chemin-view")).to_have_attribute("data-deadline", offer_due)
        expect(a.locator("#chemin-clock")).to_contain_text("ann:")
        expect(b.locator("#chemin-clock")).to_be_visible()
        # ann sat first: the bank is offered to her; her page learns that bob sat
        bank = a.locator('#chemin-controls [data-action="bank"]')
        expect(bank).to_be_visible()
        assert check_page(a, "chemin de fer, the bank offered", PHONE[0]) == []
        a.locator("#chemin-amount").fill("0.50")
        bank.click()
        expect(a.locator("#chemin-message")).to_contain_text("Pankki on")
        assert page_fetch(a, "/api/me")["body"]["balance"] == DEPOSIT
        a.locator("#chemin-amount").fill("20")
        bank.click()
        expect(a.locator("#chemin-view")).to_have_attribute("data-status", "playing")
        expect(a.locator("#chemin-view")).to_have_attribute("data-to-move", "bob")
        assert page_fetch(a, "/api/me")["body"]["balance"] == DEPOSIT - 2_000
        # bob's page follows the table: banco is his to call
        banco = b.locator('#chemin-controls [data-action="banco"]')
        expect(banco).to_be_visible()
        assert check_page(b, "chemin de fer, punting", PHONE[0]) == []
        banco.click()
        # the largest stake chooses on five: bob sees the player's cards, not the banker's
        expect(b.locator('#chemin-controls [data-action="stand"]')).to_be_visible()
        expect(b.locator(".chemin-player .pcard.face")).to_have_count(2)
        expect(b.locator(".chemin-banker .pcard.back")).to_have_count(2)
        expect(a.locator(".chemin-player .pcard.back")).to_have_count(2)
        assert check_page(b, "chemin de fer, the choice on five", PHONE[0]) == []
        b.locator('#chemin-controls [data-action="stand"]').click()
        for page in (a, b):
            expect(page.locator("#chemin-view")).to_have_attribute("data-status", "settled")
            expect(page.locator(".chemin-result")).to_be_visible()
            expect(page.locator(".chemin-banker .pcard.face")).to_have_count(
                page.locator(".chemin-banker .pcard").count())
        wallets = []
        for page in (a, b):
            held = page_fetch(page, "/api/me")["body"]["balance"]
            expect(page.locator("#balance")).to_have_text(euros(held))
            wallets.append(held)
        result = a.locator(".chemin-result").get_attribute("data-result")
        commission = 100 if result == "banker" else 0  # 5 % of the 20.00 won
        assert sum(wallets) + commission == 2 * DEPOSIT
        assert check_page(a, "chemin de fer, settled", PHONE[0]) == []
        # nobody answers the bank offer: at its deadline the house passes it on, and both
        # pages are told over their sockets
        holder = "bob" if result == "player" else "ann"
        other = "ann" if holder == "bob" else "bob"
        expect(a.locator(f'#chemin-seats li[data-seat="{holder}"] .badge')).to_be_visible()
        assert served.clock.tick() == 15.0
        for page in (a, b):
            expect(page.locator(f'#chemin-seats li[data-seat="{other}"] .badge')).to_be_visible()
            expect(page.locator("#chemin-view")).to_have_attribute(
                "data-deadline", "1970-01-01T00:00:30+00:00")
            expect(page.locator("#chemin-view")).to_have_attribute("data-link", "socket")
        assert check_page(b, "chemin de fer, the offer passed on", PHONE[0]) == []
