"""Pai Gow Poker in Debian's Chromium on a 360×740 phone against the real server, the
cards stacked: the lobby's card opens the game with its hand ranking (five aces first)
in the page's language; a deal takes the ante and shows the player's seven cards as
toggles (the joker with its own face; each at least 44 px, in two rows, nothing
scrolling sideways), the dealer's seven face down and the house way's setting; Set waits
for two cards; two that foul are warned of before anything is sent; two that do not
show the high hand they leave; the setting is sent and the showdown shows both hands of
the dealer and of the player, the bet won 1:1 and the commission in euros, the header's
balance the server's to the cent; the result follows a switch to English. The test waits
on the page's text and attributes, never on time. Two bet requests: a deal and the
setting."""

from __future__ import annotations

from pathlib import Path

from test_browser_phone import TARGET, check_page
from test_platform_pai_gow_rounds import DEALER, Stacked
from test_server_browser import Player, chromium, euros, page_fetch, serving

PHONE = (360, 740)
DEPOSIT = 100_000
ANTE = 500
BOX = ["Jk", "As", "Kh", "Qd", "7c", "4h", "2s"]  # the joker an ace: a pair of aces


def test_pai_gow_poker_is_played_on_a_phone(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with serving(tmp_path, rng=Stacked(f"{' '.join(BOX)} {DEALER}")) as served, \
            chromium() as browser:
        ann = Player(browser, served.url, "ann", deposit=DEPOSIT, viewport=PHONE)
        page = ann.page
        card = page.locator('.banked-card[data-game="pai-gow-poker"]')
        expect(card).to_contain_text("Pai Gow -pokeri")
        card.locator("a.game-open").click()
        view = page.locator("#banked-view")
        expect(view).to_have_attribute("data-game", "pai-gow-poker")
        pays = page.locator("#banked-pays")
        expect(pays.locator('tr[data-table="hands"]')).to_have_count(11)
        expect(pays.locator('tr[data-table="hands"]').first).to_contain_text("Viisi ässää")

        page.locator("#banked-ante").fill("5")
        page.locator("#banked-deal").click()
        expect(view).to_have_attribute("data-status", "playing")
        expect(view).to_have_attribute("data-street", "set")
        picks = page.locator(".banked-player button.paigow-pick")
        expect(picks).to_have_count(7)
        assert [picks.nth(i).get_attribute("data-card") for i in range(7)] == BOX
        expect(page.locator('.paigow-pick[data-card="Jk"] .pcard.joker')).to_have_attribute(
            "aria-label", "Jokeri")
        expect(page.locator(".banked-dealer .pcard.back")).to_have_count(7)
        expect(page.locator(".paigow-house-way")).to_have_attribute("data-low", "Kh Qd")
        expect(page.locator(".paigow-house-way")).to_contain_text("(Pari)")
        expect(page.locator("#balance")).to_have_text(euros(DEPOSIT - ANTE))
        setting = page.locator('.banked-decide button[data-action="set"]')
        expect(setting).to_be_disabled()  # nothing chosen yet
        expect(page.locator('.banked-decide button[data-action="house"]')).to_have_text(
            "Talon tapa")
        tops = set()
        for i in range(7):  # each card a finger-sized target on the phone
            box = picks.nth(i).bounding_box()
            assert box is not None and min(box["width"], box["height"]) >= TARGET, box
            tops.add(round(box["y"]))
        assert len(tops) == 2, tops  # seven cards in two rows
        assert check_page(page, "pai gow before the setting", PHONE[0]) == []

        # Aces in front of king high: the foul is told before anything is sent.
        page.locator('.paigow-pick[data-card="Jk"]').click()
        expect(setting).to_be_disabled()  # one card is not a low hand
        page.locator('.paigow-pick[data-card="As"]').click()
        expect(page.locator(".paigow-foul")).to_be_visible()
        expect(setting).to_have_attribute("data-foul", "true")
        expect(setting).to_contain_text("Aseta silti")
        page.locator('.paigow-pick[data-card="Jk"]').click()
        page.locator('.paigow-pick[data-card="As"]').click()
        expect(setting).to_be_disabled()
        page.locator('.paigow-pick[data-card="Kh"]').click()
        page.locator('.paigow-pick[data-card="Qd"]').click()
        expect(page.locator(".paigow-foul")).to_have_count(0)
        expect(page.locator(".paigow-preview")).to_have_attribute("data-hand", "pair")
        expect(setting).to_be_enabled()
        expect(setting).to_have_attribute("data-foul", "false")
        expect(page.locator("#balance")).to_have_text(euros(DEPOSIT - ANTE))

        setting.click()
        expect(view).to_have_attribute("data-status", "settled")
        dealer = page.locator(".banked-dealer")
        expect(dealer).to_contain_text("Jakaja: Korkein kortti")
        expect(dealer.locator('[data-hand="high"] .pcard.face')).to_have_count(5)
        assert [dealer.locator('[data-hand="low"] .pcard').nth(i).get_attribute("data-card")
                for i in range(2)] == ["Jd", "8h"]
        mine = page.locator(".banked-player")
        expect(mine).to_contain_text("Sinun korttisi: Pari")
        assert [mine.locator('[data-hand="low"] .pcard').nth(i).get_attribute("data-card")
                for i in range(2)] == ["Kh", "Qd"]
        expect(mine.locator('[data-hand="high"] .pcard.joker')).to_have_count(1)
        won = page.locator('.banked-settlements li[data-bet="ante"]')
        expect(won).to_have_attribute("data-paid", str(2 * ANTE))
        expect(won).to_contain_text("voitto: viiden kortin käsi sinun, kahden kortin käsi sinun")
        commission = page.locator(".paigow-commission")
        expect(commission).to_have_attribute("data-commission", "25")  # 5 % of 5.00 €
        expect(commission).to_contain_text(f"Provisio {euros(25)} (5 % voitosta)")
        balance = DEPOSIT - ANTE + 2 * ANTE - 25
        assert page_fetch(page, "/api/me")["body"]["balance"] == balance
        expect(page.locator("#balance")).to_have_text(euros(balance))
        expect(page.locator("#banked-deal")).to_be_visible()  # the next round's bet
        assert check_page(page, "pai gow settled", PHONE[0]) == []

        page.click('#lang [data-lang="en"]')
        expect(won).to_contain_text("win: high hand yours, low hand yours")
        expect(commission).to_contain_text(f"Commission {euros(25)} (5 % of the win)")
        assert ann.errors == []
