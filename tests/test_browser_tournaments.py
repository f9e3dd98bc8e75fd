"""A poker sit & go in Debian's Chromium, three players on 360×740 phones against the
real server: each opens the tournaments from the bottom bar, opens the sit & go and
registers (the third entry fills it and it starts); each sees the level, the blinds,
the time to the next level, the players left, the average stack and their own place and
stack with their hole cards. Each follows the tournament over its socket (the page
stops reading it every two seconds), so when one player acts on her turn with the
page's buttons the others' pages change by the socket's push alone. The server's clock
then runs the action timers out, the absent players sit out and bots
play them to the end, and every page shows the final ranking with the prizes, which
the wallets received to the cent. On each phone nothing scrolls sideways and every
target is at least 44 px. The test waits on the page's text and attributes, never on
time."""

from __future__ import annotations

import time
from contextlib import suppress
from pathlib import Path

from test_browser_phone import check_page
from test_server_browser import Player, chromium, euros, page_fetch, serving, staff_post

PHONE = (360, 740)
SNG = {"name": "Ilta", "capacity": 3, "seats": 3, "starting_chips": 1500,
       "structure": "sit-and-go", "buy_in": 1_000, "fee": 100, "action_seconds": 30,
       "bots": True}
NAMES = ("ann", "bob", "cid")
DEPOSIT = 10_000


def test_three_players_play_a_sit_and_go_to_its_prizes_on_phones(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with serving(tmp_path) as served, chromium() as browser:
        tid = staff_post(served.url, "/api/staff/tournaments", SNG)["id"]
        players = [Player(browser, served.url, name, deposit=DEPOSIT, viewport=PHONE)
                   for name in NAMES]
        for player in players:
            page = player.page
            page.locator("#nav-tournaments").click()
            row = page.locator(f'[data-tournament="{tid}"]')
            expect(row).to_contain_text("Ilta")
            expect(row).to_contain_text(euros(1_000))
            assert check_page(page, "tournament lobby", PHONE[0]) == []
            row.locator("a.button").click()
            register = page.locator("button.tour-entry")
            expect(register).to_be_visible()
            register.click()
        for player in players:  # the third entry filled the sit & go: it runs
            page = player.page
            expect(page.locator("#tournaments-body")).to_have_attribute(
                "data-status", "running")
            level = page.locator(".tour-level")
            expect(level).to_contain_text("1")
            expect(level).to_contain_text("10/20")
            expect(page.locator(".tour-next")).to_contain_text(":")
            expect(page.locator(".tour-board")).to_contain_text("3")
            expect(page.locator(".tour-board")).to_contain_text("1500")
            expect(page.locator(".tour-you")).to_contain_text("1500")
            expect(page.locator(".tour-hole > *")).to_have_count(2)
            expect(page.locator("#tournaments-body")).to_have_attribute("data-follow", "socket")
            assert check_page(page, "tournament table", PHONE[0]) == []

        # whoever is to act presses a button of their own page
        acted = False
        for _ in range(100):
            for player in players:
                buttons = player.page.locator(".tour-actions button")
                if buttons.count():
                    assert check_page(player.page, "tournament turn", PHONE[0]) == []
                    choice = player.page.locator(
                        '.tour-actions button[data-action="check"], '
                        '.tour-actions button[data-action="fold"]').first
                    others = [p.page for p in players if p is not player]
                    before = [p.locator(".tour-seat").inner_text() for p in others]
                    choice.click()
                    # with no polling, only the socket's push can redraw the others
                    for other, seen in zip(others, before, strict=True):
                        expect(other.locator("#tournaments-body")).to_have_attribute(
                            "data-follow", "socket")
                        expect(other.locator(".tour-seat")).not_to_have_text(seen)
                    acted = True
                    break
            if acted:
                break
            players[0].page.wait_for_timeout(100)
        assert acted

        # the timers run out: the absent players sit out and bots play them to the end
        for _ in range(2_000):
            answer = page_fetch(players[0].page, f"/api/tournaments/{tid}/results")["body"]
            if answer["status"] == "finished":
                break
            served.clock.advance(30)
            time.sleep(0.01)
        assert answer["status"] == "finished"
        prizes = {row["player"]: row["prize"] for row in answer["places"]}
        assert sorted(prizes.values()) == [0, 0, 3_000]
        for player in players:
            page = player.page
            expect(page.locator(".tour-places li")).to_have_count(3, timeout=15_000)
            winner = next(name for name, prize in prizes.items() if prize)
            expect(page.locator(f'.tour-places li[data-player="{winner}"]')).to_contain_text(
                euros(3_000))
            assert check_page(page, "tournament ranking", PHONE[0]) == []
            me = page_fetch(page, "/api/me")["body"]
            assert me["balance"] == DEPOSIT - 1_100 + prizes[player.name]
            assert player.errors == []


def test_a_rebuy_is_asked_for_from_the_phone_and_taken_as_the_hand_ends(tmp_path: Path) -> None:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import expect

    rebuys = {**SNG, "capacity": 2, "seats": 2, "starting_chips": 1500, "entry": "rebuy",
              "rebuy_until_level": 2, "rebuy_chips": 1500, "rebuy_cost": 1_000, "bots": False}
    with serving(tmp_path) as served, chromium() as browser:
        tid = staff_post(served.url, "/api/staff/tournaments", rebuys)["id"]
        players = [Player(browser, served.url, name, deposit=DEPOSIT, viewport=PHONE)
                   for name in ("ann", "bob")]
        for player in players:
            player.page.goto(f"{served.url}/#/tournaments/{tid}")
            player.page.locator("button.tour-entry").click()
        ann = players[0].page
        expect(ann.locator("#tournaments-body")).to_have_attribute("data-status", "running")
        rebuy = ann.locator("button.tour-rebuy")
        expect(rebuy).to_contain_text("1500")
        expect(rebuy).to_contain_text(euros(1_000))
        assert check_page(ann, "tournament rebuy", PHONE[0]) == []
        rebuy.click()  # a hand is in play: the rebuy waits for its end
        expect(ann.locator(".tour-seat .message")).to_have_text("Otetaan tämän käden päättyessä.")
        assert page_fetch(ann, "/api/me")["body"]["balance"] == DEPOSIT - 1_100
        # Bob raises on his turn and Ann folds to it (or folds her small blind), so
        # Ann's stack cannot grow past the starting chips whichever seat the draw gave
        # the button: the rebuy is taken as the hand ends (a winner's is refused)
        bob = players[1].page
        for _ in range(300):
            if page_fetch(ann, "/api/me")["body"]["balance"] == DEPOSIT - 2_100:
                break
            fold = ann.locator('.tour-actions button[data-action="fold"]')
            check = ann.locator('.tour-actions button[data-action="check"]')
            raise_ = bob.locator('.tour-actions button[data-action="raise"]')
            button = next((b for b in (fold, check, raise_) if b.count()), None)
            if button is not None:
                with suppress(PlaywrightError):  # the page redrew under the click
                    button.first.click(timeout=2_000)
            ann.wait_for_timeout(100)
        assert page_fetch(ann, "/api/me")["body"]["balance"] == DEPOSIT - 2_100
        shown = page_fetch(ann, f"/api/tournaments/{tid}")["body"]
        assert shown["pool"] == 3_000
        expect(ann.locator(".tour-you")).not_to_contain_text(" 1500")
        assert players[0].errors == [] and players[1].errors == []
