"""The browser client against the real server, in Debian's Chromium (never a downloaded one).

A player registers, logs in, deposits, plays roulette C through the layout, sees the result
and each bet's settlement, sees a slip over the balance refused, and finds the round in the
history. The page's balance is checked against what the server answered and against
``GET /api/me`` fetched by the page itself. With ``PELISALI_SCREENSHOTS=1`` the test
writes its screenshots to ``docs/screenshots`` (otherwise to a scratch folder, so that a
test run leaves the checkout as it was).
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
DOCS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
NAME, PASSWORD = "aino_pelaaja", "kissa-koira-123"


def euros(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d} €"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The real app on a fresh SQLite file with a funded house bank, served by uvicorn."""
    import uvicorn

    from pelisali.platform import ledger
    from pelisali.platform.db import make_engine, transaction, upgrade
    from pelisali.server.app import create_app

    engine = make_engine(f"sqlite:///{tmp_path}/casino.db")
    upgrade(engine)
    with transaction(engine) as session:
        ledger.move(session, "fund", "external:owner", "house:bank", 10**9, "funding")
    port = free_port()
    uv = uvicorn.Server(uvicorn.Config(create_app(engine), host="127.0.0.1", port=port,
                                       log_level="warning"))
    thread = threading.Thread(target=uv.run, name="uvicorn", daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(f"{url}/", timeout=2) as answer:
                assert answer.status == 200
                break
        except (urllib.error.URLError, ConnectionError):
            if not thread.is_alive() or time.monotonic() > deadline:
                pytest.fail(f"the server did not answer at {url}")
            time.sleep(0.05)
    try:
        yield url
    finally:
        uv.should_exit = True
        thread.join(10)
        engine.dispose()


def page_fetch(page: Any, path: str) -> dict[str, Any]:
    """GET ``path`` with the page's own fetch (and so its session cookie)."""
    answer: dict[str, Any] = page.evaluate(
        """async (path) => {
            const r = await fetch(path, {credentials: "same-origin"});
            return {status: r.status, body: await r.json()};
        }""", path)
    return answer


def shown_cents(page: Any) -> int:
    text = page.locator("#balance").inner_text()
    match = re.fullmatch(r"(-?)(\d+)\.(\d\d) €", text.strip())
    assert match, f"the balance reads {text!r}"
    cents = int(match[2]) * 100 + int(match[3])
    return -cents if match[1] else cents


def test_a_player_registers_deposits_plays_roulette_and_finds_the_round(server: str,
                                                                         tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package "
                    "(apt-get install chromium); this test never downloads a browser")
    from playwright.sync_api import expect, sync_playwright

    shots = DOCS if os.environ.get("PELISALI_SCREENSHOTS") else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(10_000)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{server}/")

            # Not logged in: the forms, in Finnish by default; the language switch works.
            expect(page.locator("#auth-view")).to_be_visible()
            expect(page.locator("html")).to_have_attribute("lang", "fi")
            expect(page.locator("#login-submit")).to_have_text("Kirjaudu sisään")
            page.click('#lang [data-lang="en"]')
            expect(page.locator("#login-submit")).to_have_text("Log in")
            page.click('#lang [data-lang="sv"]')
            expect(page.locator("#login-submit")).to_have_text("Logga in")
            page.click('#lang [data-lang="fi"]')
            expect(page.locator("#login-submit")).to_have_text("Kirjaudu sisään")

            # Register, then log in.
            page.fill("#register-name", NAME)
            page.fill("#register-password", PASSWORD)
            page.fill("#register-born", "1990-05-17")
            page.select_option("#register-country", "FI")
            with page.expect_response("**/api/register") as registered:
                page.click("#register-submit")
            assert registered.value.status == 201, registered.value.text()
            expect(page.locator("#login-name")).to_have_value(NAME)
            page.fill("#login-password", PASSWORD)
            page.click("#login-submit")
            expect(page.locator("#lobby-view")).to_be_visible()
            expect(page.locator("#player-name")).to_have_text(NAME)
            expect(page.locator("#balance")).to_have_text("0.00 €")

            # The lobby lists the server's games and tables.
            lobby = page_fetch(page, "/api/lobby")["body"]
            for game in lobby["games"]:
                expect(page.locator(f'#lobby-games .game-card[data-game="{game["game"]}"]')) \
                    .to_be_visible()
            expect(page.locator("#lobby-tables .table-card")).to_have_count(len(lobby["tables"]))

            # Deposit 100 € in the wallet.
            page.click("#nav-wallet")
            page.fill("#wallet-amount", "100")
            page.click("#deposit")
            expect(page.locator("#balance")).to_have_text("100.00 €")
            expect(page.locator("#wallet-balance")).to_have_text("100.00 €")
            page.click("#nav-lobby")
            expect(page.locator("#lobby-view")).to_be_visible()
            page.screenshot(path=str(shots / "lobby.png"), full_page=True)

            # Roulette C: every spot the server offers is on the layout, and only those.
            page.click('#lobby-games a[data-game="roulette"][data-variant="C"]')
            expect(page.locator("#table-view")).to_be_visible()
            layout = page_fetch(page, "/api/layout/roulette?variant=C")["body"]
            on_page = page.locator("#layout [data-spot]").evaluate_all(
                "nodes => nodes.map(n => n.dataset.spot)")
            assert sorted(on_page) == sorted(s["key"] for s in layout["spots"])
            colours = page.locator("#layout .num[data-spot]").evaluate_all(
                """nodes => Object.fromEntries(nodes.map(n => [n.dataset.spot.split(" ")[1],
                    ["red", "black", "green"].find(c => n.classList.contains(c))]))""")
            assert colours == {n["number"]: n["colour"] for n in layout["numbers"]}

            # The 5 € chip on red, on 17 and on the second dozen.
            chip = page.locator('#chips .chip[data-value="500"]')
            chip.click()
            expect(chip).to_have_class(re.compile(r"\bselected\b"))
            expect(page.locator("#chips .chip.selected")).to_have_count(1)
            slip = ["red", "straight 17", "dozen 2"]
            for key in slip:
                page.click(f'#layout [data-spot="{key}"]')
                spot = page.locator(f'#layout [data-spot="{key}"]')
                expect(spot).to_have_attribute("data-amount", "500")
                expect(spot.locator(".stack-total")).to_have_text("5")
            page.click('#layout [data-spot="red"]')  # a second chip: 10 € on red
            expect(page.locator('#layout [data-spot="red"] .stack-total')).to_have_text("10")
            expect(page.locator("#bet-total")).to_have_text("20.00 €")

            before = shown_cents(page)
            assert before == 10_000
            with page.expect_response("**/api/play/roulette") as played:
                page.click("#spin")
            assert played.value.status == 200, played.value.text()
            round_ = played.value.json()
            result, settlements = round_["result"], round_["settlements"]
            pocket = result.split("-")[0]  # the wheel's face; other devices' follow
            assert sorted(s["spot"] for s in settlements) == sorted(slip)

            # The winning number, big and on the layout; each bet's settlement; the balance.
            expect(page.locator("#result-number")).to_have_text(pocket)
            expect(page.locator("#round-id")).to_have_text(f"#{round_['round_id']}")
            expect(page.locator(f'#layout [data-spot="straight {pocket}"]')).to_have_class(
                re.compile(r"\bwinner\b"))
            rows = page.locator("#settlements tr")
            expect(rows).to_have_count(len(settlements))
            for s in settlements:
                row = page.locator(f'#settlements tr[data-spot="{s["spot"]}"]')
                expect(row.locator(".stake")).to_have_text(euros(s["stake"]))
                expect(row.locator(".paid")).to_have_text(euros(s["paid"]))
                expect(row.locator(".result")).not_to_be_empty()
            staked = sum(s["stake"] for s in settlements)
            paid = sum(s["paid"] for s in settlements)
            assert staked == 2_000
            assert round_["balance"] == before - staked + paid
            expect(page.locator("#balance")).to_have_text(euros(round_["balance"]))
            assert shown_cents(page) == before - staked + paid
            me = page_fetch(page, "/api/me")
            assert me["status"] == 200 and me["body"]["balance"] == round_["balance"]

            # The same bets again, for the picture.
            page.click("#rebet")
            expect(page.locator("#bet-total")).to_have_text("20.00 €")
            page.screenshot(path=str(shots / "roulette.png"), full_page=True)
            page.click("#clear")
            expect(page.locator("#bet-total")).to_have_text("0.00 €")
            expect(page.locator("#layout .stack")).to_have_count(0)

            # A slip over the balance: the server's refusal shows, nothing is taken, and
            # the chips stay on the layout.
            page.click('#chips .chip[data-value="50000"]')
            page.click('#layout [data-spot="black"]')
            with page.expect_response("**/api/play/roulette") as refused:
                page.click("#spin")
            assert 400 <= refused.value.status < 500, refused.value.text()
            detail = refused.value.json()["detail"]
            message = page.locator("#table-message")
            expect(message).to_have_class(re.compile(r"\berror\b"))
            if isinstance(detail, str):
                expect(message).to_have_text(detail)
            else:
                expect(message).not_to_be_empty()
            expect(page.locator('#layout [data-spot="black"]')).to_have_attribute(
                "data-amount", "50000")
            expect(page.locator("#balance")).to_have_text(euros(round_["balance"]))
            assert page_fetch(page, "/api/me")["body"]["balance"] == round_["balance"]

            # The history lists the round's bets.
            page.click("#nav-history")
            expect(page.locator("#history-view")).to_be_visible()
            mine = page.locator(f'#history-rows tr[data-round="{round_["round_id"]}"]')
            expect(mine).to_have_count(len(settlements))
            expect(mine.first.locator(".round")).to_have_text(f"#{round_['round_id']}")
            expect(mine.locator(".stake")).to_have_text(
                [euros(s["stake"]) for s in page_fetch(page, "/api/history")["body"]["bets"]
                 if s["round_id"] == round_["round_id"]])

            # The rules render as a table.
            page.click("#nav-rules")
            expect(page.locator("#rules-view")).to_be_visible()
            expect(page.locator("#rules-lines tr").first).to_be_visible()

            assert errors == []
        finally:
            browser.close()
