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
setting. A second test banks: the side chosen beside the stake, a bank refused before a
round against the house's bank, above that bet and 10 % and twice running, and one within
them played with the copies the bank's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


AGAINST = "Kc Kd Qh 9s 7d 4c 2h"  # K-K and Q-9 by the house way: both hands above DEALER's
COPIES = ["Ah", "6h", "5s", "3s", "2d", "Jc", "8d"]  # A-6-5-3-2 and J-8: DEALER's both ways


def test_a_player_banks_after_a_round_against_the_house_on_a_phone(tmp_path: Path) -> None:
    """The deal's side beside the stake, two finger-sized buttons, with the rule under
    them: a bank first is refused; a round against the house's bank (5.00 €) won and its
    commission taken; a bank above 5.50 € refused with the amounts, one of 5.50 € sent as
    {"bank": 550}, the dealer's hand played against it and the copies the bank's (won 1:1,
    the commission 0.28 €); a bank again at once refused. Every refusal in Finnish with
    nothing taken, the header's balance the server's, the bank's result in English too."""
    from playwright.sync_api import expect

    with serving(tmp_path, rng=Stacked(f"{AGAINST} {DEALER} {' '.join(COPIES)} {DEALER}")) \
            as served, chromium() as browser:
        ann = Player(browser, served.url, "ann", deposit=DEPOSIT, viewport=PHONE)
        page = ann.page
        page.locator('.banked-card[data-game="pai-gow-poker"] a.game-open').click()
        view = page.locator("#banked-view")
        expect(view).to_have_attribute("data-game", "pai-gow-poker")
        house = page.locator('.paigow-sides button[data-side="house"]')
        bank = page.locator('.paigow-sides button[data-side="bank"]')
        expect(house).to_have_text("Pelaa talon pankkia vastaan")
        expect(house).to_have_attribute("aria-pressed", "true")
        expect(bank).to_have_text("Ole pankki")
        expect(bank).to_have_attribute("aria-pressed", "false")
        expect(page.locator("#banked-bank")).to_have_count(0)  # one stake, not two
        stake_label = page.locator("label:has(#banked-ante) span")
        expect(stake_label).to_have_text("Ante (€)")
        rule = page.locator(".banked-controls .paigow-bank-rule")
        expect(rule).to_contain_text("kopiot ovat pankin")
        expect(rule).to_contain_text("talon pankkia vastaan pelatun kierroksen jälkeen, "
                                     "enintään sen panos + 10 %")
        expect(page.locator("#banked-pays li.paigow-bank-rule")).to_contain_text(
            "kopiot ovat pankin")
        for side in (house, bank):
            box = side.bounding_box()
            assert box is not None and min(box["width"], box["height"]) >= TARGET, box
        assert check_page(page, "pai gow's deal with the side", PHONE[0]) == []
        message = page.locator("#banked-message")

        def deal(euros_typed: str) -> Any:
            """Deal with the stake typed; the bets the page sent."""
            page.locator("#banked-ante").fill(euros_typed)
            with page.expect_request(lambda r: r.url.endswith("/deal")) as sent:
                page.locator("#banked-deal").click()
            return sent.value.post_data_json["bets"]

        bank.click()  # no round against the house's bank yet
        expect(bank).to_have_attribute("aria-pressed", "true")
        expect(house).to_have_attribute("aria-pressed", "false")
        expect(stake_label).to_have_text("Pankki (€)")
        assert deal("5") == {"bank": ANTE}
        expect(message).to_have_text("Voit olla pankki, kun olet ensin pelannut kierroksen "
                                     "talon pankkia vastaan.")
        assert page_fetch(page, "/api/me")["body"]["balance"] == DEPOSIT
        expect(view).to_have_attribute("data-status", "none")

        house.click()
        expect(stake_label).to_have_text("Ante (€)")
        assert deal("5") == {"ante": ANTE}
        expect(view).to_have_attribute("data-status", "playing")
        expect(page.locator(".paigow-banking")).to_have_count(0)
        page.locator('.banked-decide button[data-action="house"]').click()
        expect(view).to_have_attribute("data-status", "settled")
        expect(page.locator('.banked-settlements li[data-bet="ante"]')).to_have_attribute(
            "data-paid", str(2 * ANTE))
        expect(page.locator(".paigow-commission")).to_have_attribute("data-commission", "25")
        expect(page.locator(".paigow-banked")).to_have_count(0)
        balance = DEPOSIT - ANTE + 2 * ANTE - 25
        assert page_fetch(page, "/api/me")["body"]["balance"] == balance
        expect(page.locator("#balance")).to_have_text(euros(balance))

        bank.click()  # the most is the last bet and 10 %: 5.50 €
        assert deal("5.51") == {"bank": 551}
        expect(message).to_have_text(f"Pankki on enintään {euros(550)}: viimeisin panoksesi "
                                     f"talon pankkia vastaan ({euros(500)}) ja 10 % lisää; "
                                     f"ei {euros(551)}.")
        assert page_fetch(page, "/api/me")["body"]["balance"] == balance
        assert deal("5.50") == {"bank": 550}
        expect(view).to_have_attribute("data-status", "playing")
        expect(page.locator(".paigow-banking")).to_have_text(
            "Olet pankki: jakajan käsi pelaa sinun kättäsi vastaan, ja kopiot ovat pankin.")
        expect(page.locator('.banked-bets li[data-bet="bank"]')).to_have_text(
            f"Pankki: {euros(550)}")
        expect(page.locator("#balance")).to_have_text(euros(balance - 550))
        page.locator('.paigow-pick[data-card="Jc"]').click()
        page.locator('.paigow-pick[data-card="8d"]').click()
        page.locator('.banked-decide button[data-action="set"]').click()
        expect(view).to_have_attribute("data-status", "settled")
        dealer = page.locator(".banked-dealer")
        assert [dealer.locator('[data-hand="low"] .pcard').nth(i).get_attribute("data-card")
                for i in range(2)] == ["Jd", "8h"]
        won = page.locator('.banked-settlements li[data-bet="bank"]')
        expect(won).to_have_attribute("data-paid", "1100")
        expect(won).to_have_text(f"Pankki: {euros(550)} → {euros(1_100)} (voitto: viiden "
                                 "kortin käsi tasan, pankin, kahden kortin käsi tasan, pankin)")
        expect(page.locator(".paigow-banked")).to_contain_text("kopiot olivat pankin")
        commission = page.locator(".paigow-commission")
        expect(commission).to_have_attribute("data-commission", "28")  # 5 % of 5.50, up
        expect(commission).to_contain_text(f"Provisio {euros(28)} (5 % voitosta)")
        balance += -550 + 1_100 - 28
        assert page_fetch(page, "/api/me")["body"]["balance"] == balance
        expect(page.locator("#balance")).to_have_text(euros(balance))

        expect(bank).to_have_attribute("aria-pressed", "true")  # kept from the last deal
        assert deal("5") == {"bank": ANTE}  # twice running: the house banks between
        expect(message).to_have_text("Talo on pankkina joka toisella kierroksella: pelaa sen "
                                     "pankkia vastaan ennen kuin olet taas pankki.")
        assert page_fetch(page, "/api/me")["body"]["balance"] == balance
        expect(page.locator("#balance")).to_have_text(euros(balance))
        expect(view).to_have_attribute("data-status", "settled")  # the bank's round shown
        assert check_page(page, "pai gow's bank settled", PHONE[0]) == []

        page.click('#lang [data-lang="en"]')
        expect(won).to_have_text(f"Bank: {euros(550)} → {euros(1_100)} (win: high hand a "
                                 "copy, the bank's, low hand a copy, the bank's)")
        expect(page.locator(".paigow-banked")).to_contain_text("copies were the bank's")
        expect(bank).to_have_text("Be the bank")
        expect(bank).to_have_attribute("aria-pressed", "true")
        expect(page.locator("label:has(#banked-ante) span")).to_have_text("Bank (€)")
        assert ann.errors == []
