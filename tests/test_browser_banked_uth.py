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
from test_platform_uth_progressive import Cards
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
        # the rule data's marking, in the player's language
        expect(page.locator("#banked-note")).to_contain_text(
            "Vakiosäännöt: RAY:n sääntökirjassa, sellaisena kuin se on poimittu, ei ole tämän "
            "pelin tekstiä")
        pays = page.locator("#banked-pays")
        expect(pays.locator('tr[data-table="blind"][data-hand="royal_flush"]')).to_contain_text(
            "500:1")
        expect(pays.locator('tr[data-table="blind"][data-hand="flush"]')).to_contain_text("3:2")
        expect(pays.locator('tr[data-table="trips"]')).to_have_count(7)
        expect(pays.locator('tr[data-table="trips"][data-hand="three_of_a_kind"]')).to_contain_text(
            "3:1")
        # The hands are named in the page's language, as RAY 2016 1.4.1.1.1 names them.
        expect(pays.locator('tr[data-table="trips"][data-hand="three_of_a_kind"]')).to_contain_text(
            "Trips: Kolmoset")
        expect(pays.locator('tr[data-table="blind"][data-hand="full_house"]')).to_contain_text(
            "Täyskäsi")
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


def test_the_progressive_is_a_toggle_with_its_pool_and_a_royal_flush_wins_it(
        tmp_path: Path) -> None:
    """The casino runs the progressive: its toggle shows the fee and the pool, its table
    the shares and sums; pressed, the deal takes its fee too. The cards are stacked for a
    royal flush on the player's two cards and the flop: the page says the pool was paid,
    the balance is the server's and the toggle shows the pool seeded again. Three bet
    requests: a deal and one play."""
    from playwright.sync_api import expect

    from pelisali.platform.banked_rounds import open_progressive
    from pelisali.platform.db import make_engine, transaction

    seed = 1_000_000
    # ann As Ks; dealer 2d 3c; flop Qs Js Ts; turn and river 4h 9c
    cards = Cards(["As", "Ks", "2d", "3c", "Qs", "Js", "Ts", "4h", "9c"])
    with serving(tmp_path, rng=cards) as served, chromium() as browser:
        db = make_engine(f"sqlite:///{tmp_path}/casino.db")
        with transaction(db) as session:
            open_progressive(session, "ultimate-texas-holdem")
        db.dispose()
        ann = Player(browser, served.url, "ann", deposit=DEPOSIT, viewport=PHONE)
        page = ann.page
        page.locator('.banked-card[data-game="ultimate-texas-holdem"] a.game-open').click()
        toggle = page.locator("#banked-progressive")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        expect(toggle).to_contain_text(euros(100))
        expect(toggle).to_contain_text(euros(seed).replace(" €", ""))
        pays = page.locator("#banked-pays")
        expect(pays.locator('tr[data-table="progressive"]')).to_have_count(7)
        expect(pays.locator('tr[data-table="progressive"][data-hand="royal_flush"]')
               ).to_contain_text("100 %")
        expect(pays.locator('tr[data-table="progressive"][data-hand="four_of_a_kind"]')
               ).to_contain_text(euros(30_000))
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        assert check_page(page, "ultimate texas hold'em with the progressive", PHONE[0]) == []

        page.locator("#banked-ante").fill("5")
        page.locator("#banked-deal").click()
        view = page.locator("#banked-view")
        expect(view).to_have_attribute("data-street", "preflop")
        expect(page.locator('.banked-bets li[data-bet="progressive"]')).to_contain_text(
            euros(100))
        expect(page.locator("#balance")).to_have_text(euros(DEPOSIT - 2 * ANTE - 100))
        page.locator('.banked-decide button[data-multiple="4"]').click()
        expect(view).to_have_attribute("data-status", "settled")
        won = page.locator(".banked-jackpot")
        expect(won).to_have_attribute("data-paid", str(seed))
        expect(won).to_contain_text("100 %")
        settled = page.locator(".banked-settlements li")
        paid = sum(int(li.get_attribute("data-paid") or 0) for li in settled.all()) + seed
        balance = DEPOSIT - 6 * ANTE - 100 + paid
        assert page_fetch(page, "/api/me")["body"]["balance"] == balance
        expect(page.locator("#balance")).to_have_text(euros(balance))
        expect(page.locator(".banked-summary")).to_contain_text(euros(paid))
        expect(toggle).to_have_attribute("data-pool", str(seed))  # seeded again
        expect(toggle).to_have_attribute("aria-pressed", "true")  # as the player left it
        assert check_page(page, "ultimate texas hold'em, the progressive won", PHONE[0]) == []
        assert ann.errors == []
