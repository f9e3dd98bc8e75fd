"""Ultimate Texas Hold'em in Debian's Chromium on a 360×740 phone against the real server:
the lobby's card opens the game with its blind and Trips tables; a deal with an ante and
Trips takes the equal blind with them, the header's balance down by all three, and shows
the player's two cards and the board's five places empty with Check, Play 3× and Play 4×;
a check turns the flop and offers Check or Play 2×, the round comes back on the flop
after a reload; a second check turns the turn and the river and offers Play 1× or Fold;
Play 1× settles every bet with the dealer's cards shown, the header's balance the
server's to the cent. Nothing scrolls sideways and every target is at least 44 px; the
test waits on the page's text and attributes, never on time (the page keeps no clock of
its own here). Four bet requests in all: a deal and three decisions."""

from __future__ import annotations

from pathlib import Path

from test_browser_phone import check_page
from test_server_browser import Player, chromium, euros, page_fetch, serving

PHONE = (360, 740)
DEPOSIT = 100_000
ANTE, TRIPS = 500, 200  # the blind equals the ante


def test_ultimate_texas_holdem_is_played_on_a_phone(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with serving(tmp_path) as served, chromium() as browser:
        ann = Player(browser, served.url, "ann", deposit=DEPOSIT, viewport=PHONE)
        page = ann.page
        card = page.locator('.banked-card[data-game="ultimate-texas-holdem"]')
        expect(card).to_contain_text("Ultimate Texas Hold'em")
        card.locator("a.game-open").click()
        view = page.locator("#banked-view")
        expect(view).to_have_attribute("data-game", "ultimate-texas-holdem")
        expect(view).to_have_attribute("data-status", "none")
        expect(page.locator("#banked-note")).to_contain_text("Vakiosäännöt")
        pays = page.locator("#banked-pays")
        expect(pays.locator('tr[data-table="blind"][data-hand="royal_flush"]')).to_contain_text(
            "500:1")
        expect(pays.locator('tr[data-table="blind"][data-hand="flush"]')).to_contain_text("3:2")
        expect(pays.locator('tr[data-table="trips"]')).to_have_count(7)
        expect(pays.locator('tr[data-table="trips"][data-hand="three_of_a_kind"]')).to_contain_text(
            "3:1")
        assert check_page(page, "ultimate texas hold'em", PHONE[0]) == []

        page.locator("#banked-ante").fill("5")
        page.locator("#banked-trips").fill("2")
        page.locator("#banked-deal").click()
        expect(view).to_have_attribute("data-status", "playing")
        expect(view).to_have_attribute("data-street", "preflop")
        round_id = view.get_attribute("data-round")
        expect(page.locator(".banked-player .pcard.face")).to_have_count(2)
        expect(page.locator(".banked-dealer .pcard.face")).to_have_count(0)  # face down
        expect(page.locator(".banked-dealer .pcard.back")).to_have_count(2)
        expect(page.locator(".banked-board .pcard")).to_have_count(5)
        expect(page.locator(".banked-board .pcard.face")).to_have_count(0)
        for spot, stake in (("ante", ANTE), ("blind", ANTE), ("trips", TRIPS)):
            expect(page.locator(f'.banked-bets li[data-bet="{spot}"]')).to_contain_text(
                euros(stake))
        expect(page.locator("#balance")).to_have_text(euros(DEPOSIT - 2 * ANTE - TRIPS))
        decide = page.locator(".banked-decide button")
        expect(decide).to_have_count(3)
        expect(page.locator('.banked-decide button[data-multiple="4"]')).to_contain_text(
            euros(4 * ANTE))
        expect(page.locator('.banked-decide button[data-multiple="3"]')).to_contain_text(
            euros(3 * ANTE))
        assert check_page(page, "ultimate texas hold'em before the flop", PHONE[0]) == []

        page.locator('.banked-decide button[data-action="check"]').click()
        expect(view).to_have_attribute("data-street", "flop")  # the flop turned
        expect(page.locator(".banked-board .pcard.face")).to_have_count(3)
        expect(decide).to_have_count(2)
        expect(page.locator('.banked-decide button[data-multiple="2"]')).to_contain_text(
            euros(2 * ANTE))
        flop = [page.locator(".banked-board .pcard.face").nth(i).get_attribute("data-card")
                for i in range(3)]
        assert check_page(page, "ultimate texas hold'em on the flop", PHONE[0]) == []

        page.reload()  # the round waits on the flop across a reload, its buttons with it
        expect(view).to_have_attribute("data-status", "playing")
        expect(view).to_have_attribute("data-street", "flop")
        expect(view).to_have_attribute("data-round", round_id or "")
        expect(page.locator("#banked-message")).to_contain_text("odottaa")
        expect(page.locator(".banked-board .pcard.face")).to_have_count(3)
        assert [page.locator(".banked-board .pcard.face").nth(i).get_attribute("data-card")
                for i in range(3)] == flop
        expect(page.locator('.banked-decide button[data-action="check"]')).to_be_visible()
        expect(page.locator('.banked-decide button[data-multiple="2"]')).to_be_visible()
        expect(page.locator("#balance")).to_have_text(euros(DEPOSIT - 2 * ANTE - TRIPS))

        page.locator('.banked-decide button[data-action="check"]').click()
        expect(view).to_have_attribute("data-street", "river")  # the turn and the river
        expect(page.locator(".banked-board .pcard.face")).to_have_count(5)
        expect(page.locator('.banked-decide button[data-action="fold"]')).to_be_visible()
        play = page.locator('.banked-decide button[data-action="play"]')
        expect(play).to_have_count(1)
        expect(play).to_have_attribute("data-multiple", "1")
        assert check_page(page, "ultimate texas hold'em after the river", PHONE[0]) == []

        play.click()
        expect(view).to_have_attribute("data-status", "settled")
        expect(view).to_have_attribute("data-round", round_id or "")
        expect(page.locator(".banked-board .pcard.face")).to_have_count(5)
        expect(page.locator(".banked-dealer .pcard.face")).to_have_count(2)
        expect(page.locator(".banked-dealer")).to_contain_text(":")  # the dealer's hand named
        settled = page.locator(".banked-settlements li")
        expect(settled).to_have_count(4)  # ante, blind, Trips, play
        expect(page.locator('.banked-settlements li[data-bet="play"]')).to_contain_text(
            euros(ANTE))
        paid = sum(int(li.get_attribute("data-paid") or 0) for li in settled.all())
        balance = DEPOSIT - 3 * ANTE - TRIPS + paid
        assert page_fetch(page, "/api/me")["body"]["balance"] == balance
        expect(page.locator("#balance")).to_have_text(euros(balance))
        expect(page.locator(".banked-summary")).to_contain_text(euros(paid))
        expect(page.locator("#banked-deal")).to_be_visible()  # the next round's bets
        assert check_page(page, "ultimate texas hold'em settled", PHONE[0]) == []
        assert ann.errors == []
