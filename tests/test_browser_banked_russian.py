"""Russian Poker in Debian's Chromium on a 360×740 phone against the real server, four
rounds of stacked cards: the lobby's card opens the game with its pay table (the bet
paid by combination, two combinations paid) in the page's language. A sixth card: its
price in euros is on its button before it is sent and then debited, the six cards make
two pair and ace-king, the bet (2x the ante) wins 2:1 + 1:1 and the ante pushes (the rule
data's default, in the notes beside the pay table). An exchange: the cards are toggles
(each at least 44 px, nothing scrolling sideways), the price is one ante for one card or
two, the replacements are dealt, then a fold. A dealer who does not qualify: the five
are turned, Take the ante and Buy the dealer a game offered with their amounts; a game
bought puts the dealer's queen away, and the queen drawn next too, and the bought game
(a pair of jacks) loses to three of a kind paid 3:1 + 1:1, the ante pushing; the ante
taken instead wins 1:1 with the bet pushed. After every round the header's balance is
the server's to the cent, and a round waiting for its answer comes back on a reload; the
settlements follow a switch to English and to Swedish. The test waits on the page's text
and attributes, never on time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from banked_fixtures import StackedDeck
from test_browser_phone import TARGET, check_page
from test_server_browser import Player, chromium, euros, page_fetch, serving

PHONE = (360, 740)
DEPOSIT = 100_000
ANTE = 500
SIXTH = ("Kc Kd Ah 9s 2d", "Ac Kh 5d 4s 2c", "9c")  # box, dealer (2c up), the sixth card
EXCHANGE = ("Ah Kh 7h 2h 9d", "Qc Jd 9c 4s 3c", "5c 6d")  # 9d and 2h exchanged for 5c 6d
BUY = ("7c 7d 7h Ks Ad", "Qc Jd 9c 4h 3c", "Qh Jh")  # Qc put away, Qh of its rank too
TAKE = ("Ts Td 5c 4d 2s", "Qs Js 8h 6c 3d")


def cards_of(locator: Any) -> list[str]:
    """The data-card of each card (or card toggle) in ``locator``, in order."""
    return [str(locator.nth(i).get_attribute("data-card")) for i in range(locator.count())]


def balance_is(page: Any, cents: int) -> None:
    """The server's balance is ``cents`` and the header shows it."""
    from playwright.sync_api import expect

    assert page_fetch(page, "/api/me")["body"]["balance"] == cents
    expect(page.locator("#balance")).to_have_text(euros(cents))


def paid(page: Any, expected: dict[str, int]) -> None:
    """Each settlement of the round shown, with what it paid back."""
    from playwright.sync_api import expect

    rows = page.locator(".banked-settlements li")
    expect(rows).to_have_count(len(expected))
    for spot, cents in expected.items():
        expect(page.locator(f'.banked-settlements li[data-bet="{spot}"]')).to_have_attribute(
            "data-paid", str(cents))


def deal(page: Any) -> None:
    from playwright.sync_api import expect

    page.locator("#banked-ante").fill("5")
    page.locator("#banked-deal").click()
    expect(page.locator("#banked-view")).to_have_attribute("data-status", "playing")


def targets_fit(page: Any, where: str) -> None:
    """Every toggle and button a finger-sized target; nothing scrolls sideways."""
    picks = page.locator(".banked-player button.oasis-pick")
    for i in range(picks.count()):
        box = picks.nth(i).bounding_box()
        assert box is not None and min(box["width"], box["height"]) >= TARGET, box
    assert check_page(page, where, PHONE[0]) == []


def test_russian_poker_is_played_on_a_phone(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    rng = StackedDeck(*SIXTH, *EXCHANGE, *BUY, *TAKE)
    with serving(tmp_path, rng=rng) as served, chromium() as browser:
        ann = Player(browser, served.url, "ann", deposit=DEPOSIT, viewport=PHONE)
        page = ann.page
        card = page.locator('.banked-card[data-game="russian-poker"]')
        expect(card).to_contain_text("Venäläinen pokeri")
        expect(card.locator(".game-art")).to_have_text("♢")
        assert check_page(page, "the lobby with Russian Poker", PHONE[0]) == []
        card.locator("a.game-open").click()
        view = page.locator("#banked-view")
        expect(view).to_have_attribute("data-game", "russian-poker")
        expect(page.locator("#banked-title")).to_have_text("Venäläinen pokeri")
        pays = page.locator("#banked-pays")
        expect(pays.locator('tr[data-table="combinations"]')).to_have_count(10)
        for hand, named, odds in (("royal_flush", "Royal Flush", "100:1"),
                                  ("two_pair", "Kaksi paria", "2:1"),
                                  ("ace_king", "Ässä ja kuningas", "1:1")):
            row = pays.locator(f'tr[data-hand="{hand}"] td')
            expect(row.nth(0)).to_have_text(f"Panos: {named}")
            expect(row.nth(1)).to_have_text(odds)
        expect(pays.locator("li").nth(2)).to_have_text(
            "Voittava panos maksetaan kahdesta parhaasta yhdistelmästä, joista toisessa on "
            "kortti, jota ensimmäisessä ei ole; ässä ja kuningas on yhdistelmä.")
        expect(pays.locator("li").nth(3)).to_have_text(
            "Voittavalla kädellä ante on tasapeli; vain panos maksetaan.")
        decide = page.locator(".banked-decide")
        balance = DEPOSIT

        # 1. A sixth card: its price on the button before it is sent, then debited.
        deal(page)
        expect(view).to_have_attribute("data-street", "draw")
        picks = page.locator(".banked-player button.oasis-pick")
        expect(picks).to_have_count(5)
        assert cards_of(picks) == SIXTH[0].split()
        expect(page.locator(".banked-dealer .pcard.back")).to_have_count(4)
        expect(page.locator(".banked-dealer .pcard.face")).to_have_attribute("data-card", "2c")
        expect(page.locator(".banked-player")).to_contain_text("Sinun korttisi: Pari")
        expect(page.locator(".russian-combinations")).to_have_text(
            "Yhdistelmät: Pari + Ässä ja kuningas")
        expect(decide.locator('[data-action="exchange"]')).to_be_disabled()
        sixth = decide.locator('[data-action="sixth"]')
        expect(sixth).to_have_text(f"Kuudes kortti · maksu {euros(ANTE)}")
        expect(sixth).to_have_attribute("data-fee", str(ANTE))
        expect(decide.locator('[data-action="raise"]')).to_have_text(f"Panos · {euros(2 * ANTE)}")
        expect(decide.locator('[data-action="fold"]')).to_have_text("Luovuta")
        balance -= ANTE
        balance_is(page, balance)
        targets_fit(page, "russian poker before the draw")

        sixth.click()
        expect(view).to_have_attribute("data-street", "bet")
        mine = page.locator(".banked-player .pcard.face")
        expect(mine).to_have_count(6)
        assert cards_of(mine) == [*SIXTH[0].split(), SIXTH[2]]
        expect(page.locator(".banked-player button.oasis-pick")).to_have_count(0)
        expect(page.locator(".banked-player")).to_contain_text("Sinun korttisi: Kaksi paria")
        expect(page.locator(".russian-combinations")).to_have_attribute(
            "data-combinations", "two_pair ace_king")
        expect(page.locator(".banked-discarded")).to_have_text(
            f"Kuudes kortti ostettu · maksu {euros(ANTE)}")
        expect(page.locator('.banked-bets li[data-bet="sixth"]')).to_have_text(
            f"Kuudes kortti: {euros(ANTE)}")
        expect(decide.locator('[data-action="sixth"]')).to_have_count(0)
        expect(decide.locator('[data-action="exchange"]')).to_have_count(0)
        balance -= ANTE
        balance_is(page, balance)
        targets_fit(page, "russian poker with six cards")

        decide.locator('[data-action="raise"]').click()
        expect(view).to_have_attribute("data-status", "settled")
        dealer = page.locator(".banked-dealer .pcard.face")
        expect(dealer).to_have_count(5)
        assert cards_of(dealer) == SIXTH[1].split()
        expect(page.locator(".banked-dealer")).to_contain_text("Jakaja: Korkein kortti")
        expect(page.locator(".banked-dealer")).not_to_contain_text("ei pelaa")
        # The ante back; the bet 1 + 2 (two pair) + 1 (ace-king) times; the price kept.
        paid(page, {"ante": ANTE, "sixth": 0, "raise": 4 * 2 * ANTE})
        expect(page.locator('.banked-settlements li[data-bet="ante"]')).to_have_text(
            f"Ante: {euros(ANTE)} → {euros(ANTE)} (tasapeli, vain panos maksetaan)")
        expect(page.locator('.banked-settlements li[data-bet="raise"]')).to_have_text(
            f"Panos: {euros(2 * ANTE)} → {euros(8 * ANTE)} "
            "(voitto, Kaksi paria 2:1 + Ässä ja kuningas 1:1)")
        expect(page.locator('.banked-settlements li[data-bet="sixth"]')).to_have_text(
            f"Kuudes kortti: {euros(ANTE)} → {euros(0)} (maksu)")
        balance += -2 * ANTE + ANTE + 8 * ANTE
        balance_is(page, balance)
        assert check_page(page, "russian poker settled", PHONE[0]) == []

        # 2. An exchange: one ante for one card or for two; then a fold.
        deal(page)
        exchange = decide.locator('[data-action="exchange"]')
        expect(exchange).to_be_disabled()
        expect(exchange).to_have_text("Valitse vaihdettavat kortit")
        page.locator('.oasis-pick[data-card="9d"]').click()
        expect(page.locator('.oasis-pick[data-card="9d"]')).to_have_attribute(
            "aria-pressed", "true")
        expect(exchange).to_have_text(f"Vaihda 1 kortti · maksu {euros(ANTE)}")
        page.locator('.oasis-pick[data-card="2h"]').click()
        expect(exchange).to_have_text(f"Vaihda 2 korttia · maksu {euros(ANTE)}")
        expect(exchange).to_have_attribute("data-fee", str(ANTE))
        balance -= ANTE
        balance_is(page, balance)  # nothing is sent by choosing
        targets_fit(page, "russian poker choosing an exchange")
        exchange.click()
        expect(view).to_have_attribute("data-street", "bet")
        assert cards_of(page.locator(".banked-player .pcard.face")) == \
            ["Ah", "Kh", "7h", *EXCHANGE[2].split()]
        expect(page.locator(".banked-player")).to_contain_text("Sinun korttisi: Korkein kortti")
        expect(page.locator(".russian-combinations")).to_have_text("Yhdistelmät: Ässä ja kuningas")
        expect(page.locator(".banked-discarded")).to_have_text(
            f"Vaihdettu 9d 2h · maksu {euros(ANTE)}")
        balance -= ANTE
        balance_is(page, balance)
        decide.locator('[data-action="fold"]').click()
        expect(view).to_have_attribute("data-status", "settled")
        assert cards_of(page.locator(".banked-dealer .pcard.face")) == EXCHANGE[1].split()
        expect(page.locator(".banked-dealer")).to_contain_text("Jakaja: Korkein kortti, ei pelaa")
        paid(page, {"ante": 0, "exchange": 0})
        expect(page.locator('.banked-settlements li[data-bet="ante"]')).to_have_text(
            f"Ante: {euros(ANTE)} → {euros(0)} (luovutettu)")
        balance_is(page, balance)

        # 3. The dealer does not qualify: the game bought, two queens put away.
        deal(page)
        decide.locator('[data-action="raise"]').click()
        expect(view).to_have_attribute("data-street", "buy")
        assert cards_of(page.locator(".banked-dealer .pcard.face")) == BUY[1].split()
        expect(page.locator(".banked-dealer")).to_contain_text("Jakaja: Korkein kortti, ei pelaa")
        expect(page.locator(".russian-no-game")).to_be_visible()
        take = decide.locator('[data-action="take"]')
        buy = decide.locator('[data-action="buy"]')
        expect(take).to_have_text(f"Ota ante 1:1 · {euros(ANTE)}")
        expect(buy).to_have_text(f"Osta jakajalle peli · {euros(ANTE)}")
        expect(buy).to_have_attribute("data-fee", str(ANTE))
        expect(decide.locator("button")).to_have_count(2)
        balance -= 3 * ANTE
        balance_is(page, balance)
        targets_fit(page, "russian poker, the dealer does not qualify")
        buy.click()
        expect(view).to_have_attribute("data-status", "settled")
        first = page.locator(".russian-first")
        expect(first).to_contain_text("Jakajan ensimmäinen käsi: Korkein kortti, ei pelaa")
        assert cards_of(first.locator(".pcard")) == BUY[1].split()
        assert cards_of(page.locator(".russian-put-away .pcard")) == ["Qc", "Qh"]
        bought = page.locator(".russian-bought")
        expect(bought).to_contain_text("Jakajalle ostettu peli: Pari")
        expect(bought).not_to_contain_text("ei pelaa")
        assert cards_of(bought.locator(".pcard")) == ["Jd", "9c", "4h", "3c", "Jh"]
        expect(page.locator(".russian-combinations")).to_have_text(
            "Yhdistelmät: Kolmoset + Ässä ja kuningas")
        paid(page, {"ante": ANTE, "raise": 5 * 2 * ANTE, "buy": 0})
        expect(page.locator('.banked-settlements li[data-bet="raise"]')).to_contain_text(
            "(voitto, Kolmoset 3:1 + Ässä ja kuningas 1:1)")
        expect(page.locator('.banked-settlements li[data-bet="buy"]')).to_have_text(
            f"Jakajan peli: {euros(ANTE)} → {euros(0)} (maksu)")
        balance += -ANTE + ANTE + 10 * ANTE
        balance_is(page, balance)
        assert check_page(page, "russian poker, a game bought", PHONE[0]) == []

        # 4. The dealer does not qualify: the answer waits across a reload; the ante
        # taken, the bet pushed.
        deal(page)
        decide.locator('[data-action="raise"]').click()
        expect(view).to_have_attribute("data-street", "buy")
        page.reload()
        expect(view).to_have_attribute("data-street", "buy")
        expect(page.locator("#banked-message")).to_have_text("Kierros odottaa päätöstäsi.")
        assert cards_of(page.locator(".banked-dealer .pcard.face")) == TAKE[1].split()
        decide.locator('[data-action="take"]').click()
        expect(view).to_have_attribute("data-status", "settled")
        expect(page.locator(".russian-put-away")).to_have_count(0)
        assert cards_of(page.locator(".banked-dealer .pcard.face")) == TAKE[1].split()
        paid(page, {"ante": 2 * ANTE, "raise": 2 * ANTE})
        expect(page.locator('.banked-settlements li[data-bet="raise"]')).to_have_text(
            f"Panos: {euros(2 * ANTE)} → {euros(2 * ANTE)} (tasapeli, jakaja ei pelaa)")
        balance += -3 * ANTE + 4 * ANTE
        balance_is(page, balance)
        assert balance == DEPOSIT + 11 * ANTE  # +5, -2, +7 and +1 antes

        page.click('#lang [data-lang="en"]')
        expect(page.locator('.banked-settlements li[data-bet="raise"]')).to_have_text(
            f"Bet: {euros(2 * ANTE)} → {euros(2 * ANTE)} (push, the dealer does not qualify)")
        expect(page.locator('.banked-settlements li[data-bet="ante"]')).to_contain_text(
            "(win, the dealer does not qualify)")
        expect(pays.locator('tr[data-hand="ace_king"] td').first).to_have_text("Bet: Ace-king")
        page.click('#lang [data-lang="sv"]')
        expect(page.locator('.banked-settlements li[data-bet="raise"]')).to_have_text(
            f"Insats: {euros(2 * ANTE)} → {euros(2 * ANTE)} "
            "(oavgjort, given kvalificerar inte)")
        expect(page.locator("#banked-title")).to_have_text("Rysk poker")
        assert ann.errors == []
