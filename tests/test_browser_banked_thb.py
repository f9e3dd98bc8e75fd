"""Texas Hold'em Bonus in Debian's Chromium on a 360×740 phone against the real server,
the cards stacked: the lobby's card opens the game with its Bonus table, the hands named
in the page's language, and the ante rule; a deal with an ante and a Bonus takes both,
the header's balance down by them, and shows the player's two cards, the dealer's two
face down and the board's five places empty with Fold and the flop bet (2× the ante); the
flop bet turns the flop and offers Check or the turn bet (1×), the round comes back on the
flop after a reload; the turn bet turns the turn and offers Check or the river bet; a
check settles every bet with the dealer's cards shown: three aces against the dealer's
kings, the ante pushed below a straight, the Bonus paid 30:1 on the pair of aces, the
flop and turn bets 1:1, the header's balance the server's to the cent; the hands follow
a switch to Swedish and English, and the history names the round's bets. Nothing scrolls
sideways and every target is at least 44 px; the test waits on the page's text and
attributes, never on time. Five bet requests in all: a deal refused (the Bonus alone,
said in Finnish), a deal and three decisions."""

from __future__ import annotations

from pathlib import Path

from test_browser_phone import check_page
from test_platform_uth_progressive import Cards
from test_server_browser import Player, chromium, euros, page_fetch, serving

PHONE = (360, 740)
DEPOSIT = 100_000
ANTE, BONUS = 500, 100
# ann As Ad; the dealer Kc Qd; the flop Ah Kd 7s; the turn 4h; the river 2c
CARDS = ["As", "Ad", "Kc", "Qd", "Ah", "Kd", "7s", "4h", "2c"]


def test_texas_holdem_bonus_is_played_on_a_phone(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with serving(tmp_path, rng=Cards(list(CARDS))) as served, chromium() as browser:
        ann = Player(browser, served.url, "ann", deposit=DEPOSIT, viewport=PHONE)
        page = ann.page
        card = page.locator('.banked-card[data-game="texas-holdem-bonus"]')
        expect(card).to_contain_text("Texas Hold'em Bonus")
        card.locator("a.game-open").click()
        view = page.locator("#banked-view")
        expect(view).to_have_attribute("data-game", "texas-holdem-bonus")
        expect(view).to_have_attribute("data-status", "none")
        pays = page.locator("#banked-pays")
        expect(pays.locator('tr[data-table="bonus"]')).to_have_count(8)
        expect(pays.locator('tr[data-table="bonus"][data-hand="aces_against_aces"]')
               ).to_contain_text("1000:1")
        # The Bonus table's hands and the ante rule's in the page's language.
        expect(pays.locator('tr[data-table="bonus"][data-hand="aces"]')).to_contain_text(
            "Bonus: Ässäpari")
        expect(pays.locator('tr[data-table="bonus"][data-hand="twos_to_tens"]')
               ).to_contain_text("Pari kakkosista kymppeihin")
        expect(pays).to_contain_text("kun se on Suora tai parempi")
        expect(page.locator("#banked-trips")).to_have_count(0)
        expect(page.locator("#banked-progressive")).to_have_count(0)  # none runs yet
        assert check_page(page, "texas hold'em bonus", PHONE[0]) == []

        page.locator("#banked-ante").fill("")  # the Bonus alone: refused in Finnish
        page.locator("#banked-bonus").fill("1")
        page.locator("#banked-deal").click()
        expect(page.locator("#banked-message")).to_have_text(
            "Bonus-panos pelataan vain anten kanssa.")
        expect(view).to_have_attribute("data-status", "none")
        expect(page.locator("#balance")).to_have_text(euros(DEPOSIT))

        page.locator("#banked-ante").fill("5")
        page.locator("#banked-deal").click()
        expect(view).to_have_attribute("data-status", "playing")
        expect(view).to_have_attribute("data-street", "preflop")
        round_id = view.get_attribute("data-round")
        player = page.locator(".banked-player .pcard.face")
        expect(player).to_have_count(2)
        assert [player.nth(i).get_attribute("data-card") for i in range(2)] == CARDS[:2]
        expect(page.locator(".banked-dealer .pcard.face")).to_have_count(0)  # face down
        expect(page.locator(".banked-dealer .pcard.back")).to_have_count(2)
        expect(page.locator(".banked-board .pcard")).to_have_count(5)
        expect(page.locator(".banked-board .pcard.face")).to_have_count(0)
        for spot, stake in (("ante", ANTE), ("bonus", BONUS)):
            expect(page.locator(f'.banked-bets li[data-bet="{spot}"]')).to_contain_text(
                euros(stake))
        expect(page.locator("#balance")).to_have_text(euros(DEPOSIT - ANTE - BONUS))
        decide = page.locator(".banked-decide button")
        expect(decide).to_have_count(2)
        expect(page.locator('.banked-decide button[data-action="fold"]')).to_have_text("Luovuta")
        flop_bet = page.locator('.banked-decide button[data-street="flop"]')
        expect(flop_bet).to_contain_text(euros(2 * ANTE))
        assert check_page(page, "texas hold'em bonus before the flop", PHONE[0]) == []

        flop_bet.click()
        expect(view).to_have_attribute("data-street", "flop")  # the flop turned
        board = page.locator(".banked-board .pcard.face")
        expect(board).to_have_count(3)
        assert [board.nth(i).get_attribute("data-card") for i in range(3)] == CARDS[4:7]
        expect(decide).to_have_count(2)
        expect(page.locator('.banked-decide button[data-action="check"]')).to_be_visible()
        expect(page.locator('.banked-decide button[data-street="turn"]')).to_contain_text(
            euros(ANTE))
        expect(page.locator('.banked-bets li[data-bet="flop"]')).to_contain_text(euros(2 * ANTE))
        expect(page.locator("#balance")).to_have_text(euros(DEPOSIT - 3 * ANTE - BONUS))
        expect(page.locator(".banked-player")).to_contain_text("Kolmoset")
        assert check_page(page, "texas hold'em bonus on the flop", PHONE[0]) == []

        page.reload()  # the round waits on the flop across a reload, its buttons with it
        expect(view).to_have_attribute("data-status", "playing")
        expect(view).to_have_attribute("data-street", "flop")
        expect(view).to_have_attribute("data-round", round_id or "")
        expect(page.locator("#banked-message")).to_contain_text("odottaa")
        expect(board).to_have_count(3)
        expect(page.locator(".banked-dealer .pcard.back")).to_have_count(2)
        expect(page.locator("#balance")).to_have_text(euros(DEPOSIT - 3 * ANTE - BONUS))

        page.locator('.banked-decide button[data-street="turn"]').click()
        expect(view).to_have_attribute("data-street", "turn")
        expect(board).to_have_count(4)
        expect(page.locator('.banked-decide button[data-street="river"]')).to_contain_text(
            euros(ANTE))
        expect(page.locator("#balance")).to_have_text(euros(DEPOSIT - 4 * ANTE - BONUS))
        assert check_page(page, "texas hold'em bonus on the turn", PHONE[0]) == []

        page.locator('.banked-decide button[data-action="check"]').click()
        expect(view).to_have_attribute("data-status", "settled")
        expect(view).to_have_attribute("data-round", round_id or "")
        expect(board).to_have_count(5)
        dealer = page.locator(".banked-dealer .pcard.face")
        expect(dealer).to_have_count(2)
        assert [dealer.nth(i).get_attribute("data-card") for i in range(2)] == CARDS[2:4]
        expect(page.locator(".banked-dealer")).to_contain_text("Jakaja: Pari")
        settled = page.locator(".banked-settlements li")
        expect(settled).to_have_count(4)  # ante, Bonus, flop, turn
        expected = {"ante": ANTE, "bonus": 31 * BONUS, "flop": 4 * ANTE, "turn": 2 * ANTE}
        for spot, paid in expected.items():
            expect(page.locator(f'.banked-settlements li[data-bet="{spot}"]')).to_have_attribute(
                "data-paid", str(paid))
        expect(page.locator('.banked-settlements li[data-bet="ante"]')).to_contain_text(
            "tasapeli, pienempi kuin Suora")
        expect(page.locator('.banked-settlements li[data-bet="bonus"]')).to_contain_text(
            "Ässäpari 30:1")
        paid = sum(expected.values())
        balance = DEPOSIT - 4 * ANTE - BONUS + paid
        assert page_fetch(page, "/api/me")["body"]["balance"] == balance
        expect(page.locator("#balance")).to_have_text(euros(balance))
        expect(page.locator(".banked-summary")).to_contain_text(euros(paid))
        expect(page.locator("#banked-deal")).to_be_visible()  # the next round's bets
        assert check_page(page, "texas hold'em bonus settled", PHONE[0]) == []

        # The hands follow the page's language: Swedish, then English.
        aces = pays.locator('tr[data-table="bonus"][data-hand="aces"]')
        page.click('#lang [data-lang="sv"]')
        expect(aces).to_contain_text("Bonus: Par i ess")
        expect(page.locator('.banked-settlements li[data-bet="bonus"]')).to_contain_text(
            "Par i ess 30:1")
        expect(page.locator('.banked-settlements li[data-bet="ante"]')).to_contain_text(
            "lägre än Stege")
        expect(pays).to_contain_text("med Stege eller bättre")
        page.click('#lang [data-lang="en"]')
        expect(aces).to_contain_text("Bonus: Pair of aces")
        expect(page.locator('.banked-settlements li[data-bet="ante"]')).to_contain_text(
            "below Straight")
        assert check_page(page, "texas hold'em bonus settled, in English", PHONE[0]) == []

        page.click("#nav-history")  # the round's bets by their names in the history
        names = page.locator("#history-rows tr .spot-name")
        expect(names).to_have_count(4)
        assert sorted(names.all_inner_texts()) == ["Ante", "Bonus", "Flop bet", "Turn bet"]
        assert ann.errors == []


def test_the_progressive_is_a_toggle_and_a_royal_flush_on_the_flop_wins_the_pool(
        tmp_path: Path) -> None:
    """The casino runs Texas Hold'em Bonus' progressive: its toggle shows the fee and the
    pool, its table the shares and sums with the note that a fold loses it; pressed, the
    deal takes its fee too. A royal flush on the player's two cards and the flop: the
    page says the pool was paid, the balance is the server's and the toggle shows the
    pool seeded again. Four bet requests: a deal and three decisions."""
    from playwright.sync_api import expect

    from pelisali.platform.banked_rounds import open_progressive
    from pelisali.platform.db import make_engine, transaction

    seed = 1_000_000
    # ann As Ks; the dealer 2d 3c; the flop Qs Js Ts; the turn and river 4h 9c
    cards = Cards(["As", "Ks", "2d", "3c", "Qs", "Js", "Ts", "4h", "9c"])
    with serving(tmp_path, rng=cards) as served, chromium() as browser:
        db = make_engine(f"sqlite:///{tmp_path}/casino.db")
        with transaction(db) as session:
            open_progressive(session, "texas-holdem-bonus")
        db.dispose()
        ann = Player(browser, served.url, "ann", deposit=DEPOSIT, viewport=PHONE)
        page = ann.page
        page.locator('.banked-card[data-game="texas-holdem-bonus"] a.game-open').click()
        toggle = page.locator("#banked-progressive")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        expect(toggle).to_contain_text(euros(100))
        expect(toggle).to_have_attribute("data-pool", str(seed))
        pays = page.locator("#banked-pays")
        expect(pays.locator('tr[data-table="progressive"]')).to_have_count(7)
        expect(pays.locator('tr[data-table="progressive"][data-hand="royal_flush"]')
               ).to_contain_text("100 %")
        expect(pays.locator('tr[data-table="progressive"][data-hand="flush"]')
               ).to_contain_text(euros(4_000))
        expect(pays.locator(".banked-progressive-note")).to_have_text(
            "Jackpot maksaa kahdesta kortistasi ja flopista; jos luovutat, menetät sen.")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        assert check_page(page, "texas hold'em bonus with the progressive", PHONE[0]) == []

        page.locator("#banked-ante").fill("5")
        page.locator("#banked-deal").click()
        view = page.locator("#banked-view")
        expect(view).to_have_attribute("data-street", "preflop")
        expect(page.locator('.banked-bets li[data-bet="progressive"]')).to_contain_text(
            euros(100))
        expect(page.locator("#balance")).to_have_text(euros(DEPOSIT - ANTE - 100))
        page.locator('.banked-decide button[data-street="flop"]').click()
        expect(view).to_have_attribute("data-street", "flop")
        page.locator('.banked-decide button[data-action="check"]').click()
        expect(view).to_have_attribute("data-street", "turn")
        page.locator('.banked-decide button[data-action="check"]').click()
        expect(view).to_have_attribute("data-status", "settled")
        won = page.locator(".banked-jackpot")
        expect(won).to_have_attribute("data-paid", str(seed))
        expect(won).to_contain_text("100 %")
        expect(page.locator('.banked-settlements li[data-bet="progressive"]')
               ).to_have_attribute("data-paid", "0")  # the pool paid it, not the house
        # the ante (a royal flush wins it 1:1) and the flop bet, 1:1, with the pool
        paid = 2 * ANTE + 4 * ANTE + seed
        balance = DEPOSIT - 3 * ANTE - 100 + paid
        assert page_fetch(page, "/api/me")["body"]["balance"] == balance
        expect(page.locator("#balance")).to_have_text(euros(balance))
        expect(page.locator(".banked-summary")).to_contain_text(euros(paid))
        expect(toggle).to_have_attribute("data-pool", str(seed))  # seeded again
        expect(toggle).to_have_attribute("aria-pressed", "true")  # as the player left it
        assert check_page(page, "texas hold'em bonus, the progressive won", PHONE[0]) == []
        assert ann.errors == []
