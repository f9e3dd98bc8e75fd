"""The browser client against the real server, in Debian's Chromium (never a downloaded one).

A player registers, logs in, deposits, plays roulette C through the layout, sees the result
and each bet's settlement, sees a slip over the balance refused, and finds the round in the
history. Another plays a round of every other game against the house through its table:
boule, the money wheel, Tuplanoppa, Sic Bo, punto banco and blackjack to its end. Two
players in two browser contexts play a poker hand against each other, each seeing only
their own hole cards, and bet on the same live roulette round, reconnecting after a
dropped connection. The page's balance is checked against what the server answered and
against ``GET /api/me`` fetched by the page itself. With ``PELISALI_SCREENSHOTS=1`` the
tests write their screenshots to ``docs/screenshots`` (otherwise to a scratch folder, so
that a test run leaves the checkout as it was).

No test waits real seconds for a table: the server's tables keep time by a
:class:`~pelisali.server.clock.ManualClock` that the tests move (a betting window closes,
a result's pause ends, when the test says), and where a page's countdown must show
something, the page's clock is Playwright's, installed before the page loads and moved
by the test too.
"""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from pelisali.server.clock import ManualClock

CHROMIUM = Path("/usr/bin/chromium")
DOCS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
NAME, PASSWORD = "aino_pelaaja", "kissa-koira-123"
STAFF, STAFF_PASSWORD = "floor", "lattia-pomo-456"
# The tables' timings, in seconds of the server's ManualClock: they cost no real time.
WINDOW, PAUSE, ACT = 15.0, 4.0, 20.0
# A page's clock (Playwright's) starts here as the page loads, and stands still an hour
# later, from when the test moves it.
PAGE_TIME = datetime(2025, 6, 2, 12, 0, tzinfo=UTC)
WHEEL_MS = 1_500  # the wheel turns for 1.35 s of the page's time (table.js settleWheel)
RETRY_MS = 1_000  # a dropped live connection tries again after 0.4 s (live.js)


def euros(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d} €"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Served:
    url: str
    clock: ManualClock  # the clock the live and poker tables keep time by


@contextmanager
def serving(folder: Path, rng: Any = None) -> Iterator[Served]:
    """The real app on a fresh SQLite file in ``folder`` with a funded house bank and a
    staff login, served by uvicorn, its tables paced by a clock that moves only when
    the test says, its RNG games drawn with ``rng`` (the secure generator by default)."""
    import uvicorn

    from pelisali.platform import ledger
    from pelisali.platform.db import make_engine, transaction, upgrade
    from pelisali.server.app import create_app
    from pelisali.server.auth import add_login

    engine = make_engine(f"sqlite:///{folder}/casino.db")
    upgrade(engine)
    with transaction(engine) as session:
        ledger.move(session, "fund", "external:owner", "house:bank", 10**9, "funding")
        add_login(session, STAFF, STAFF_PASSWORD, "staff")
    port = free_port()
    clock = ManualClock()
    app = create_app(engine, live_window=WINDOW, live_pause=PAUSE, act_seconds=ACT,
                     clock=clock, rng=rng)
    uv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=uv.run, name="uvicorn", daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                assert answer.status == 200
                break
        except (urllib.error.URLError, ConnectionError):
            if not thread.is_alive() or time.monotonic() > deadline:
                pytest.fail(f"the server did not answer at {url}")
            time.sleep(0.05)
    try:
        yield Served(url, clock)
    finally:
        uv.should_exit = True
        thread.join(10)
        engine.dispose()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """The real app (:func:`serving`) with the secure generator."""
    with serving(tmp_path) as running:
        yield running


@pytest.fixture
def server(served: Served) -> str:
    """The server's address."""
    return served.url


@pytest.fixture
def table_clock(served: Served) -> ManualClock:
    """The server's tables' clock: ``advance`` or ``tick`` it to move their time."""
    return served.clock


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


def shots_dir(tmp_path: Path) -> Path:
    shots = DOCS if os.environ.get("PELISALI_SCREENSHOTS") else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def need_chromium() -> None:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package "
                    "(apt-get install chromium); this test never downloads a browser")


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium through Playwright (never a downloaded browser), closed after."""
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            yield browser
        finally:
            browser.close()


def staff_post(url: str, path: str, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
    """POST ``body`` to a staff endpoint with a logged-in staff session; the answer must
    have ``status`` (201: made; 200 for a change of settings)."""
    address = url.removeprefix("http://")  # the served fixture's plain-http address
    if address == url:
        raise ValueError(f"not an http:// address: {url}")

    def post(target: str, data: dict[str, Any], cookie: str = "") -> Any:
        return urllib.request.urlopen(urllib.request.Request(
            f"http://{address}{target}", data=json.dumps(data).encode(), method="POST",
            headers={"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})}),
            timeout=10)

    with post("/api/login", {"name": STAFF, "password": STAFF_PASSWORD}) as answer:
        cookie = answer.headers["set-cookie"].split(";", 1)[0]
    with post(path, body, cookie) as answer:
        assert answer.status == status
        made: dict[str, Any] = json.load(answer)
        return made


class Player:
    """A player in a browser context of their own: registered, logged in and funded
    through the API (the first test does it through the forms), with the page open at
    the lobby, every page error and every websocket frame recorded. With ``still_clock``
    the page's clock is Playwright's, standing still from the lobby on: only the test's
    ``page.clock.run_for`` moves it."""

    def __init__(self, browser: Any, url: str, name: str, deposit: int = 100_000,
                 still_clock: bool = False, viewport: tuple[int, int] = (1280, 900),
                 bypass_csp: bool = False) -> None:
        from playwright.sync_api import expect

        self.name = name
        width, height = viewport
        self.context = browser.new_context(viewport={"width": width, "height": height},
                                           has_touch=width < 600, bypass_csp=bypass_csp)
        if still_clock:  # installed before the page loads; it runs while it loads
            self.context.clock.install(time=PAGE_TIME)
        api = self.context.request
        registered = api.post(f"{url}/api/register", data={
            "name": name, "password": PASSWORD, "born": "1991-03-04", "country": "FI"})
        assert registered.status == 201, registered.text()
        assert api.post(f"{url}/api/login", data={"name": name, "password": PASSWORD}).ok
        assert api.post(f"{url}/api/wallet/deposit",
                        data={"amount": deposit, "key": f"first-{name}"}).ok
        self.page = self.context.new_page()
        self.page.set_default_timeout(12_000)
        self.errors: list[str] = []
        self.received: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("websocket", self._watch)
        self.page.goto(f"{url}/#/lobby")
        expect(self.page.locator("#lobby-view")).to_be_visible()
        expect(self.page.locator("#balance")).to_have_text(euros(deposit))
        if still_clock:
            # Past the load, short of the hour the session reminder waits from the login
            # (a jump to its due time would fire it, however long the page took to load).
            self.page.clock.pause_at(PAGE_TIME + timedelta(minutes=30))

    def _watch(self, socket: Any) -> None:
        def keep(into: list[dict[str, Any]]) -> Any:
            def record(payload: Any) -> None:
                if isinstance(payload, str):
                    into.append(json.loads(payload))
            return record
        socket.on("framereceived", keep(self.received))
        socket.on("framesent", keep(self.sent))

    def frame(self, test: Callable[[dict[str, Any]], Any], timeout: float = 12.0,
              sent: bool = False) -> dict[str, Any]:
        """The first frame received (or ``sent``) that passes ``test``, waiting for it
        (while Playwright delivers the page's events)."""
        frames = self.sent if sent else self.received
        deadline = time.monotonic() + timeout
        while True:
            for message in frames:
                if test(message):
                    return message
            if time.monotonic() > deadline:
                pytest.fail(f"{self.name}: no such frame in {frames[-5:]}")
            self.page.wait_for_timeout(50)

    def balance_matches_server(self) -> int:
        me = page_fetch(self.page, "/api/me")["body"]
        assert shown_cents(self.page) == me["balance"]
        return int(me["balance"])


def top_shot(page: Any, path: Path) -> None:
    """A full-page picture from the top (the sticky bar where it belongs), once the
    result's animations have run."""
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function("""() => document.getAnimations().every(a =>
        !(a instanceof CSSAnimation) || a.playState !== "running"
        || a.effect.getTiming().iterations === Infinity)""")
    page.screenshot(path=str(path), full_page=True, animations="disabled")


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
            answer = refused.value.json()
            message = page.locator("#table-message")
            expect(message).to_have_class(re.compile(r"\berror\b"))
            # The catalogue's words in the page's language, the amounts in euros: never
            # the platform's own sentence.
            assert answer["code"] == "no_credit", answer
            expect(message).to_have_text(re.compile(r"^Saldosi ei riitä: pelitililläsi on "
                                                    r"\d+\.\d\d €, tarvitaan 500\.00 €\.$"))
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


def place(page: Any, chip: int, spots: list[str]) -> None:
    from playwright.sync_api import expect

    page.click(f'#chips .chip[data-value="{chip}"]')
    for key in spots:
        page.click(f'#layout [data-spot="{key}"]')
        expect(page.locator(f'#layout [data-spot="{key}"]')).to_have_attribute(
            "data-amount", str(chip))
    expect(page.locator("#bet-total")).to_have_text(euros(chip * len(spots)))


def settled_on_page(page: Any, round_: dict[str, Any]) -> None:
    """Each bet's settlement in the table under the felt, and the balance in the bar."""
    from playwright.sync_api import expect

    expect(page.locator("#round-id")).to_have_text(f"#{round_['round_id']}")
    expect(page.locator("#settlements tr")).to_have_count(len(round_["settlements"]))
    for s in round_["settlements"]:
        row = page.locator(f'#settlements tr[data-bet-id="{s["bet_id"]}"]')
        expect(row.locator(".stake")).to_have_text(euros(s["stake"]))
        expect(row.locator(".paid")).to_have_text(euros(s["paid"]))
    expect(page.locator("#balance")).to_have_text(euros(round_["balance"]))


def test_a_player_plays_every_game_against_the_house(server: str, tmp_path: Path) -> None:
    need_chromium()
    from playwright.sync_api import expect, sync_playwright

    shots = shots_dir(tmp_path)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            aino = Player(browser, server, "aino")
            page = aino.page
            balance = 100_000

            # Boule, the money wheel, Tuplanoppa and Sic Bo: every spot the server offers
            # is on the felt, two bets, the result drawn as the game draws it.
            slips = {"boule": ["red", "straight 5"], "money-wheel": ["1", "joker"],
                     "tuplanoppa": ["sum_7", "any_pair"], "sic-bo": ["small", "total_10"]}
            for game, slip in slips.items():
                page.click("#nav-lobby")
                page.click(f'#lobby-games .game-card[data-game="{game}"] a.game-open')
                expect(page.locator("#table-view")).to_have_attribute("data-game", game)
                layout = page_fetch(page, f"/api/layout/{game}")["body"]
                on_page = page.locator("#layout [data-spot]").evaluate_all(
                    "nodes => nodes.map(n => n.dataset.spot)")
                assert sorted(on_page) == sorted(s["key"] for s in layout["spots"])
                place(page, 500, slip)
                with page.expect_response(f"**/api/play/{game}") as played:
                    page.click("#spin")
                assert played.value.status == 200, played.value.text()
                round_ = played.value.json()
                faces = round_["result"].split("-")
                number = page.locator(f'#result-number[data-round="{round_["round_id"]}"]')
                if game == "boule":
                    expect(number).to_have_text(faces[0])
                    expect(page.locator(f'#layout [data-spot="straight {faces[0]}"]')) \
                        .to_have_class(re.compile(r"\bwinner\b"))
                elif game == "money-wheel":
                    expect(number).to_have_attribute("data-symbol", faces[0])
                    expect(page.locator(f'#layout [data-spot="{faces[0]}"]')) \
                        .to_have_class(re.compile(r"\bwinner\b"))
                else:  # the dice, as dice, and their total
                    expect(number).to_have_text(str(sum(int(f) for f in faces)))
                    assert len(faces) == (2 if game == "tuplanoppa" else 3)
                    expect(page.locator("#dice .die.landed")).to_have_count(len(faces))
                    assert page.locator("#dice .die").evaluate_all(
                        "nodes => nodes.map(n => n.dataset.face)") == faces
                    for i, face in enumerate(faces):
                        expect(page.locator("#dice .die").nth(i).locator(".pip")) \
                            .to_have_count(int(face))
                settled_on_page(page, round_)
                staked = sum(s["stake"] for s in round_["settlements"])
                paid = sum(s["paid"] for s in round_["settlements"])
                assert staked == 1_000 and round_["balance"] == balance - staked + paid
                balance = round_["balance"]
                assert aino.balance_matches_server() == balance
                page.click("#rebet")  # the same chips again, for the picture
                top_shot(page, shots / f"{game}.png")
                page.click("#clear")

            # The language switch reaches the new tables' own words.
            page.click('#lang [data-lang="en"]')
            expect(page.locator("#spin")).to_have_text("Roll")
            expect(page.locator('#layout [data-spot="small"] strong')).to_have_text("Small")
            page.click('#lang [data-lang="sv"]')
            expect(page.locator("#spin")).to_have_text("Kasta")
            page.click('#lang [data-lang="fi"]')
            expect(page.locator("#spin")).to_have_text("Heitä")
            expect(page.locator('#layout [data-spot="small"] strong')).to_have_text("Pieni")

            # Punto banco: the player, banker and tie boxes; the cards dealt as cards.
            page.click("#nav-lobby")
            page.click('#lobby-games .game-card[data-game="punto-banco"] a.game-open')
            expect(page.locator("#table-view")).to_have_attribute("data-game", "punto-banco")
            expect(page.locator("#layout [data-spot]")).to_have_count(3)
            place(page, 500, ["banker", "tie"])
            with page.expect_response("**/api/cards/punto-banco") as dealt:
                page.click("#spin")
            assert dealt.value.status == 200, dealt.value.text()
            coup = dealt.value.json()
            for side in ("player", "banker"):
                cards = [c["card"] for c in coup["cards"] if c["side"] == side]
                expect(page.locator(f"#cards .pb-{side} .pcard")).to_have_count(len(cards))
                assert page.locator(f"#cards .pb-{side} .pcard").evaluate_all(
                    "nodes => nodes.map(n => n.dataset.card)") == cards
            expect(page.locator("#result-number")).to_have_attribute("data-result", coup["result"])
            expect(page.locator(f'#layout [data-spot="{coup["result"]}"]')).to_have_class(
                re.compile(r"\bwinner\b"))
            settled_on_page(page, coup)
            balance = coup["balance"]
            assert aino.balance_matches_server() == balance
            top_shot(page, shots / "punto-banco.png")

            # Blackjack: chips on two seats, the deal, the actions the rules allow (the
            # dealer's hole card face down meanwhile), to the round's end.
            page.click("#nav-lobby")
            page.click('#lobby-games .game-card[data-game="blackjack"] a.game-open')
            expect(page.locator("#table-view")).to_have_attribute("data-game", "blackjack")
            expect(page.locator("#layout [data-spot]")).to_have_count(7)
            place(page, 500, ["3", "5"])
            with page.expect_response("**/api/cards/blackjack/deal") as dealt:
                page.click("#spin")
            assert dealt.value.status == 200, dealt.value.text()
            view = dealt.value.json()
            assert page_fetch(page, "/api/me")["body"]["balance"] == balance - 1_000
            pictured = False
            for _ in range(20):
                if view["status"] != "playing":
                    break
                # One up card and one face down, while the dealer waits.
                expect(page.locator("#cards .bj-dealer .pcard")).to_have_count(2)
                expect(page.locator("#cards .bj-dealer .pcard.back")).to_have_count(1)
                for hand in view["hands"]:
                    cards = page.locator(f'#layout .bj-hand[data-seat="{hand["seat"]}"]'
                                         f'[data-hand="{hand["hand"]}"] .pcard')
                    expect(cards).to_have_count(len(hand["cards"]))
                if view["insurance"]:
                    seat = next(iter(view["insurance"]))
                    button = page.locator(
                        f'#bj-actions [data-action="no-insurance"][data-seat="{seat}"]')
                else:
                    expect(page.locator("#bj-actions button")).to_have_count(len(view["actions"]))
                    turn = next(h for h in view["hands"] if [h["seat"], h["hand"]] == view["turn"])
                    action = "hit" if "hit" in view["actions"] and turn["total"] <= 11 else "stand"
                    button = page.locator(f'#bj-actions [data-action="{action}"]')
                if not pictured:
                    top_shot(page, shots / "blackjack.png")
                    pictured = True
                with page.expect_response("**/api/cards/blackjack/act") as acted:
                    button.click()
                assert acted.value.status == 200, acted.value.text()
                view = acted.value.json()
            assert view["status"] == "settled"
            expect(page.locator("#bj-actions")).to_be_hidden()
            expect(page.locator("#cards .bj-dealer .pcard.back")).to_have_count(0)
            expect(page.locator("#cards .bj-dealer .pcard")).to_have_count(len(view["dealer"]))
            settled_on_page(page, view)
            assert aino.balance_matches_server() == view["balance"]
            if not pictured:
                top_shot(page, shots / "blackjack.png")

            # The table's rules, one version only.
            page.click("#table-rules")
            expect(page.locator("#rules-view")).to_be_visible()
            expect(page.locator("#rules-title")).to_have_text("Blackjack")
            expect(page.locator("#rules-lines tr").first).to_be_visible()
            expect(page.locator("#rules-variant")).to_be_hidden()

            # Every round is in the history.
            page.click("#nav-history")
            expect(page.locator("#history-rows tr")).to_have_count(
                len(page_fetch(page, "/api/history")["body"]["bets"]))
            assert aino.errors == []
        finally:
            browser.close()


def test_two_players_bet_on_the_same_live_roulette_round(server: str, table_clock: ManualClock,
                                                        tmp_path: Path) -> None:
    need_chromium()
    from playwright.sync_api import expect, sync_playwright

    shots = shots_dir(tmp_path)
    assert staff_post(server, "/api/staff/tables", {
        "name": "live-1", "game": "roulette", "variant": "C", "mode": "live"}) == {"name": "live-1"}
    seconds = f"{WINDOW:.0f} s"  # the full window on a countdown
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            aino, bertil = (Player(browser, server, name, still_clock=True)
                            for name in ("aino", "bertil"))
            players = (aino, bertil)
            for player in players:
                page = player.page
                page.click("#nav-lobby")
                page.click('#lobby-tables .table-card[data-table="live-1"] a.table-open')
                expect(page.locator("#table-view")).to_have_attribute("data-mode", "live")
                expect(page.locator("#live-box")).to_have_attribute("data-connected", "true")
                layout = page_fetch(page, "/api/layout/roulette?variant=C")["body"]
                expect(page.locator("#layout [data-spot]")).to_have_count(len(layout["spots"]))
            bertil.page.click('#lang [data-lang="sv"]')  # the table's words follow the switch
            expect(bertil.page.locator("#spin")).to_have_text("Satsa")
            bertil.page.click('#lang [data-lang="en"]')
            expect(bertil.page.locator("#spin")).to_have_text("Place bets")
            # Chips on the layout whenever; they go to the table in a betting window.
            place(aino.page, 500, ["red", "straight 17"])
            place(bertil.page, 2500, ["black"])

            # The window opened when the first of them came to the table, and stays open
            # until the table's clock moves: the same round for both, its countdown at the
            # full window (the pages' clocks stand still too).
            box = aino.page.locator("#live-box")
            expect(box).to_have_attribute("data-phase", "betting")
            round_id = box.get_attribute("data-round")
            assert round_id and round_id != "0"
            for player in players:
                expect(player.page.locator("#live-box")).to_have_attribute("data-round", round_id)
                expect(player.page.locator("#live-box")).to_have_attribute("data-phase", "betting")
                expect(player.page.locator("#live-countdown")).to_have_text(seconds)
                player.page.click("#spin")
            for player in players:  # it counts down as the page's time goes by
                player.page.clock.run_for(int((WINDOW - 1) * 1000))
                expect(player.page.locator("#live-countdown")).to_have_text("1 s")
            for player, spots, chip in ((aino, ["red", "straight 17"], 500),
                                        (bertil, ["black"], 2500)):
                expect(player.page.locator("#table-message")).to_have_class(re.compile(r"\bok\b"))
                for key in spots:
                    expect(player.page.locator(f'#layout [data-spot="{key}"]')).to_have_attribute(
                        "data-confirmed", str(chip))
                expect(player.page.locator("#bet-total")).to_have_text(euros(0))
            expect(aino.page.locator("#balance")).to_have_text(euros(100_000 - 1_000))
            expect(bertil.page.locator("#balance")).to_have_text(euros(100_000 - 2_500))
            top_shot(aino.page, shots / "live-roulette.png")

            # The window's time runs out on the table's clock: no more bets, then the same
            # result for both, as the server sent it, once each page's wheel has turned.
            assert table_clock.tick() == WINDOW
            for player in players:
                expect(player.page.locator("#live-box")).to_have_attribute("data-phase", "closed")
                # The result has come: the wheel no longer waits for it, it turns.
                expect(player.page.locator("#wheel")).not_to_have_class(re.compile(r"\bbusy\b"))
                player.page.clock.run_for(WHEEL_MS)
            shown = []
            for player in players:
                result = player.frame(lambda m: m.get("type") == "result"
                                      and str(m.get("round_id")) == round_id)
                pocket = result["result"].split("-")[0]
                number = player.page.locator(f'#result-number[data-round="{round_id}"]')
                expect(number).to_have_text(pocket)
                shown.append(number.inner_text())
                expect(player.page.locator(f'#layout [data-spot="straight {pocket}"]')) \
                    .to_have_class(re.compile(r"\bwinner\b"))
                expect(player.page.locator("#live-box")).to_have_attribute("data-phase", "result")
            assert shown[0] == shown[1]

            # Each player's own settlement, and the balance the server holds.
            for player, staked in ((aino, 1_000), (bertil, 2_500)):
                settled = player.frame(lambda m: m.get("type") == "settled"
                                       and str(m.get("round_id")) == round_id)
                assert sum(s["stake"] for s in settled["settlements"]) == staked
                settled_on_page(player.page, {**settled, "round_id": int(round_id)})
                assert player.balance_matches_server() == settled["balance"]

            # A dropped connection comes back by itself (after a moment of the page's time)
            # and asks for what it missed.
            page = aino.page
            live_box = page.locator("#live-box")
            seq = int(live_box.get_attribute("data-seq") or 0)
            assert seq > 0
            page.evaluate("window.pelisaliLive.drop()")
            expect(live_box).to_have_attribute("data-reconnects", "1")
            expect(live_box).to_have_attribute("data-connected", "false")
            page.clock.run_for(RETRY_MS)
            expect(live_box).to_have_attribute("data-connected", "true")
            hello = aino.frame(lambda m: m.get("type") == "hello", sent=True)
            assert hello["since"] >= seq
            # and follows the table on: when the result's pause is over on the table's
            # clock, the next round's window reaches it.
            assert table_clock.tick() == WINDOW + PAUSE
            expect(live_box).not_to_have_attribute("data-round", round_id)
            expect(live_box).to_have_attribute("data-phase", "betting")
            expect(page.locator("#live-countdown")).to_have_text(seconds)
            assert aino.errors == [] and bertil.errors == []
        finally:
            browser.close()


def test_two_players_play_a_poker_hand_against_each_other(server: str, tmp_path: Path) -> None:
    need_chromium()
    from playwright.sync_api import expect, sync_playwright

    shots = shots_dir(tmp_path)
    opened = staff_post(server, "/api/staff/poker-tables", {
        "name": "nl-1", "small_blind": 50, "big_blind": 100, "min_buy_in": 2000})
    assert opened == {"name": "nl-1"}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            aino, bertil = Player(browser, server, "aino"), Player(browser, server, "bertil")
            players = {player.name: player for player in (aino, bertil)}
            other = {"aino": bertil, "bertil": aino}
            for player in players.values():
                page = player.page
                page.click("#nav-lobby")
                page.click('#lobby-tables .table-card[data-table="nl-1"] a.table-open')
                expect(page.locator("#poker-view")).to_be_visible()
                expect(page.locator("#poker-sit-form")).to_be_visible()
                page.fill("#poker-buyin", "50")
                page.click("#poker-sit-btn")
                expect(page.locator(f'#poker-table .p-seat.me[data-player="{player.name}"]')) \
                    .to_be_visible()
                expect(page.locator("#balance")).to_have_text(euros(100_000 - 5_000))
                assert player.balance_matches_server() == 95_000
            bertil.page.click('#lang [data-lang="en"]')  # the table's words follow the switch
            expect(bertil.page.locator("#poker-title")).to_have_text("Poker table nl-1")
            expect(bertil.page.locator("#poker-leave")).to_have_text("Leave the table")
            bertil.page.click('#lang [data-lang="sv"]')
            expect(bertil.page.locator("#poker-leave")).to_have_text("Lämna bordet")

            # The hand starts: your own two cards face up, the other's two face down, and
            # the other's real cards nowhere in your page.
            for player in players.values():
                expect(player.page.locator("#poker-table")).to_have_attribute("data-hand", "on")
            hole = {}
            for name, player in players.items():
                mine = player.page.locator("#poker-table .p-seat.me .p-cards .pcard")
                expect(mine).to_have_count(2)
                hole[name] = mine.evaluate_all("nodes => nodes.map(n => n.dataset.card)")
                dealt = player.frame(lambda m: m.get("type") == "view" and m.get("hand"))
                assert hole[name] == dealt["hand"]["hole"]
                # The timer stands at the full time to act: the table's clock moves only
                # when a test moves it, so no player times out on a slow machine.
                assert dealt["seconds_left"] == ACT
                theirs = player.page.locator(
                    f'#poker-table .p-seat[data-player="{other[name].name}"] .p-cards .pcard')
                expect(theirs).to_have_count(2)
                expect(theirs.and_(player.page.locator(".back"))).to_have_count(2)
            for name in players:
                html = other[name].page.content()
                for card in hole[name]:
                    assert f'data-card="{card}"' not in html
                    face = ("10" if card[0] == "T" else card[0]) + "♠♥♦♣"["shdc".index(card[1])]
                    assert f'title="{face}"' not in html

            # Play to the end: a raise with the slider, a call, then check it down. Both
            # sit out before the river (from the next hand), to leave afterwards.
            table = aino.page.locator("#poker-table")
            raised = sat_out = pictured = False
            for _ in range(30):
                aino.page.wait_for_function(
                    """() => { const t = document.querySelector('#poker-table');
                               return t.dataset.toAct || t.dataset.results !== '0'; }""")
                if table.get_attribute("data-results") != "0":
                    break
                board = aino.page.locator("#poker-board .pcard[data-card]").count()
                if board == 3 and not pictured:
                    top_shot(aino.page, shots / "poker.png")
                    pictured = True
                if board == 5 and not sat_out:
                    for player in players.values():
                        player.page.click("#poker-sitout")
                        expect(player.page.locator("#poker-sitout")).to_have_attribute(
                            "data-out", "true")
                    sat_out = True
                actor = players[table.get_attribute("data-to-act") or ""]
                page = actor.page
                expect(page.locator("#poker-actions")).to_be_visible()
                expect(page.locator("#poker-turn")).not_to_be_empty()
                expect(other[actor.name].page.locator("#poker-actions")).to_be_hidden()
                expect(page.locator("#poker-table .p-seat.to-act .p-timer-bar")).to_have_count(1)
                before = int(page.locator("#poker-table").get_attribute("data-seq") or 0)
                if not raised:
                    page.fill("#poker-raise-range", "300")
                    expect(page.locator("#poker-raise-amount")).to_have_text(euros(300))
                    page.click("#poker-raise")
                    raised = True
                else:
                    page.click("#poker-check-call")
                for player in players.values():
                    player.page.wait_for_function(
                        "seq => +document.querySelector('#poker-table').dataset.seq > seq",
                        arg=before)
            else:
                pytest.fail("the hand did not end")
            assert raised and sat_out and pictured

            # The hand's result: the chips the server counted, on both pages.
            results = {}
            for name, player in players.items():
                results[name] = player.frame(lambda m: m.get("type") == "hand-result")
                expect(player.page.locator("#poker-result")).to_be_visible()
            assert results["aino"] == results["bertil"]
            chips = results["aino"]["chips"]
            assert sum(chips.values()) == 10_000 and results["aino"]["rake"] == 0
            assert set(results["aino"]["shown"]) == {"aino", "bertil"}  # a showdown
            # Each hand shown is named, in the page's language (bertil's is Swedish).
            assert bertil.page.evaluate("document.documentElement.lang") == "sv"
            for player in (aino, bertil):
                lang = player.page.evaluate("document.documentElement.lang")
                for name, named in results["aino"]["hands"].items():
                    expect(player.page.locator(
                        f'#poker-result .p-hand-name[data-player="{name}"]')).to_have_text(
                        f"{name}: {named[lang]}")
            for player in players.values():
                for name, count in chips.items():
                    expect(player.page.locator(
                        f'#poker-table .p-seat[data-player="{name}"] .p-chips')).to_have_text(
                        euros(count))
                # At the showdown both hands face up.
                for name, cards in results["aino"]["shown"].items():
                    assert player.page.locator(
                        f'#poker-table .p-seat[data-player="{name}"] .pcard[data-card]'
                    ).evaluate_all("nodes => nodes.map(n => n.dataset.card)") == cards

            # Both leave with their chips: the wallets hold what the table counted.
            for name, player in players.items():
                player.page.click("#poker-leave")
                expect(player.page.locator("#poker-sit-form")).to_be_visible()
                expect(player.page.locator("#balance")).to_have_text(euros(95_000 + chips[name]))
                assert player.balance_matches_server() == 95_000 + chips[name]
            # The hand is in the history, and opens its recall with the replay check.
            aino.page.click("#nav-history")
            hand = aino.page.locator("#hands-rows tr.hand-row")
            expect(hand).to_have_count(1)
            expect(hand.locator(".table-name")).to_have_text("nl-1")
            expect(hand.locator(".chips")).to_have_text(euros(chips["aino"]))
            hand.locator(".recall-link").click()
            expect(aino.page.locator("#recall-rows tr")).to_have_count(2)
            expect(aino.page.locator("#recall-check")).to_have_class(re.compile(r"\bok\b"))
            assert aino.errors == [] and bertil.errors == []
        finally:
            browser.close()
