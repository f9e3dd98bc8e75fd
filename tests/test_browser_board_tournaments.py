"""Table-game and slot tournaments in Debian's Chromium, on 360×740 phones against the
real server. A roulette sprint of two rounds: two players find it under the poker
tournaments, open it and register (the buy-in and fee leave their wallets); the staff
start it and each page offers the bets of the wheel with the tournament chips; each
player plays both rounds with the page's bet and amount, sees each round's stake and
return and their chips change, and once both have played the tournament finishes by
itself: both pages show the final leaderboard with the prizes, which the wallets
received to the cent. A blackjack tournament of one round: the hand in play shows its
cards and the decisions the hand allows, and a decision from the page settles it. A
slot tournament offers the slot's lines and levels. On each phone nothing scrolls
sideways and every target is at least 44 px; the test waits on the page's text and
attributes, never on time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_browser_phone import check_page
from test_server_browser import Player, chromium, euros, page_fetch, serving, staff_post

PHONE = (360, 740)
DEPOSIT = 10_000
BOARDS = "/api/staff/leaderboard-tournaments"


def _open_from_the_lobby(page: Any, tid: int) -> None:
    from playwright.sync_api import expect

    page.locator("#nav-tournaments").click()
    row = page.locator(f'[data-board="{tid}"]')
    expect(row).to_be_visible()
    row.locator("a.button").click()
    expect(page.locator("#tournaments-body")).to_have_attribute("data-board", str(tid))


def test_two_players_play_a_roulette_sprint_to_its_prizes_on_phones(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    sprint = {"structure": "roulette-sprint", "name": "Sprintti", "capacity": 2,
              "min_players": 2, "buy_in": 1_000, "fee": 100, "rounds": 2}
    with serving(tmp_path) as served, chromium() as browser:
        tid = staff_post(served.url, BOARDS, sprint)["id"]
        players = [Player(browser, served.url, name, deposit=DEPOSIT, viewport=PHONE)
                   for name in ("ann", "bob")]
        for player in players:
            page = player.page
            _open_from_the_lobby(page, tid)
            expect(page.locator(".board-facts")).to_contain_text("10000")
            expect(page.locator(".board-facts")).to_contain_text("2")
            assert check_page(page, "board tournament lobby", PHONE[0]) == []
            page.locator("button.tour-entry").click()
            expect(page.locator(".board-entry")).to_contain_text("10000")
            assert page_fetch(page, "/api/me")["body"]["balance"] == DEPOSIT - 1_100
        staff_post(served.url, f"{BOARDS}/{tid}/start", {}, status=200)
        for player in players:
            page = player.page
            expect(page.locator("#tournaments-body")).to_have_attribute("data-status", "running")
            bets = page.locator("select.board-bet option")
            expect(bets.first).to_be_attached()
            texts = bets.all_inner_texts()
            assert {"bet red", "bet black", "bet straight 17"} <= set(texts)
            assert check_page(page, "board tournament round", PHONE[0]) == []
        for player, bet in zip(players, ("bet red", "bet straight 17"), strict=True):
            page = player.page
            for number in (1, 2):
                page.locator("select.board-bet").select_option(label=bet)
                page.locator("input.board-amount").fill("500")
                page.locator("button.board-play").click()
                message = page.locator(".board-page > .message")
                expect(message).to_contain_text(f"Kierros {number}: panos 500")
                expect(page.locator(".board-entry")).to_contain_text(f"pelattu {number}")
            shown = page_fetch(page, f"/api/leaderboard-tournaments/{tid}")["body"]
            mine = shown["mine"][0]
            expect(page.locator(".board-entry")).to_contain_text(str(mine["chips"]))
        results = page_fetch(players[0].page, f"/api/leaderboard-tournaments/{tid}/results")
        assert results["body"]["status"] == "finished"
        places = {row["player"]: row for row in results["body"]["places"]}
        assert sum(row["prize"] for row in places.values()) == 2_000
        for player in players:
            page = player.page
            expect(page.locator("#tournaments-body")).to_have_attribute(
                "data-status", "finished")
            row = page.locator(f'.board-places li[data-player="{player.name}"]')
            expect(row).to_contain_text(euros(places[player.name]["prize"]))
            expect(row).to_have_attribute("data-chips", str(places[player.name]["chips"]))
            assert check_page(page, "board tournament results", PHONE[0]) == []
            me = page_fetch(page, "/api/me")["body"]
            assert me["balance"] == DEPOSIT - 1_100 + places[player.name]["prize"]
            assert player.errors == []


def test_a_blackjack_hand_is_decided_and_a_slot_offers_its_levels_on_a_phone(
        tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with serving(tmp_path) as served, chromium() as browser:
        bj = staff_post(served.url, BOARDS, {"structure": "blackjack-100", "name": "BJ",
                                            "capacity": 2, "min_players": 2,
                                            "rounds": 20})["id"]
        slot = staff_post(served.url, BOARDS, {"structure": "slot-200-spins", "name": "Kela",
                                              "capacity": 2, "min_players": 2})["id"]
        players = [Player(browser, served.url, name, deposit=DEPOSIT, viewport=PHONE)
                   for name in ("ann", "bob")]
        for tid in (bj, slot):
            for player in players:
                player.page.goto(f"{served.url}/#/tournaments/board/{tid}")
                body = player.page.locator("#tournaments-body")
                expect(body).to_have_attribute("data-board", str(tid))
                player.page.locator("button.tour-entry").click()
                # registered: this tournament's page now offers to take it back
                expect(player.page.locator("button.tour-entry")).to_have_text(
                    "Peru ilmoittautuminen")
            staff_post(served.url, f"{BOARDS}/{tid}/start", {}, status=200)
        ann = players[0].page
        ann.goto(f"{served.url}/#/tournaments/board/{bj}")
        expect(ann.locator("#tournaments-body")).to_have_attribute("data-status", "running")
        # rounds until one waits for a decision (a blackjack is settled at once)
        decided = False
        for number in range(1, 21):
            ann.locator("select.board-bet").select_option(label="bet box 1")
            ann.locator("input.board-amount").fill("100")
            ann.locator("button.board-play").click()
            expect(ann.locator(".board-page > .message")).to_contain_text(f"Kierros {number}")
            # the page redrawn: the hand waits for a decision, or the round is counted
            settled = ann.locator(f'.board-entry:has-text("pelattu {number}")')
            expect(ann.locator(".board-decide").or_(settled)).to_be_visible()
            if ann.locator(".board-decide button").count():
                expect(ann.locator(".board-entry")).to_contain_text(f"pelattu {number - 1}")
                expect(ann.locator(".board-hand .pcard")).to_have_count(2)
                expect(ann.locator(".board-dealer .pcard.face")).to_have_count(1)
                assert check_page(ann, "board tournament decision", PHONE[0]) == []
                insurance = ann.locator('.board-decide button[data-action="insure 0"]')
                if insurance.count():  # an ace up: insurance is answered first (declined)
                    insurance.click()
                    expect(insurance).to_have_count(0)
                if ann.locator('.board-decide button[data-action="stand"]').count() == 0:
                    # the hand ended with the insurance answer (the dealer's blackjack)
                    expect(ann.locator(".board-entry")).to_contain_text(f"pelattu {number}")
                    continue
                ann.locator('.board-decide button[data-action="stand"]').click()
                expect(ann.locator(".board-decide button")).to_have_count(0)
                expect(ann.locator(".board-entry")).to_contain_text(f"pelattu {number}")
                decided = True
                break
        assert decided
        ann.goto(f"{served.url}/#/tournaments/board/{slot}")
        expect(ann.locator("#tournaments-body")).to_have_attribute("data-board", str(slot))
        levels = ann.locator("select.board-amount option")
        expect(levels.first).to_be_attached()
        assert len(levels.all_inner_texts()) > 2
        assert check_page(ann, "slot tournament", PHONE[0]) == []
        assert players[0].errors == [] and players[1].errors == []
