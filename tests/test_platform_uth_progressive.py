"""Ultimate Texas Hold'em's progressive as a jackpot on the ledger, on SQLite and
PostgreSQL: the casino starts it from the rule data (fee 1 €, half of it to the pool, a
10,000 € seed from the house); each fee is a stake whose share accrues and joins the
pool at the end of the gaming day; a royal flush on the box's two cards and the flop
wins the whole pool and a straight flush a tenth of it, paid from the pool (locked) with
the house topping it back up to the seed; the fixed wins come from the house. Nothing
is made or lost: the ledger checks, and the jackpot reconciles against every transfer."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from dbfixtures import setup, stored, wallet
from sqlalchemy import Engine, select

from pelisali.cards import DECK
from pelisali.platform import jackpots
from pelisali.platform.banked_rounds import (
    BankedView,
    create_banked_table,
    deal,
    decide,
    open_progressive,
    recall_banked_round,
)
from pelisali.platform.db import transaction
from pelisali.platform.ledger import balances, check, verify_audit
from pelisali.platform.models import BetRow, JackpotEntry
from pelisali.platform.rounds import TableError, reconcile_bets
from pelisali.rng import SeededRng

AT = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
MONEY = 100_000
TABLE = "uth-ann"
NAME = "ultimate-texas-holdem-progressive"
POOL, ACCRUAL = f"jackpot:{NAME}", f"jackpot:{NAME}:accrual"
SEED = 1_000_000


class Cards(SeededRng):
    """Deals the given cards in order (box, box, dealer, dealer, flop, turn, river),
    as the engine asks for them from the deck left."""

    def __init__(self, cards: list[str]) -> None:
        super().__init__(0)
        self.left = list(DECK)
        self.wanted = list(cards)

    def randbelow(self, n: int) -> int:
        assert n == len(self.left), "the test's deck and the engine's differ"
        card = self.wanted.pop(0)
        index = self.left.index(card)
        self.left.pop(index)
        return index


@pytest.fixture
def casino(engine: Engine) -> Engine:
    setup(engine, ("ann", "bob"), money=MONEY)
    with transaction(engine) as s:
        create_banked_table(s, TABLE, "ultimate-texas-holdem")
        create_banked_table(s, "uth-bob", "ultimate-texas-holdem")
    return engine


@pytest.fixture
def running(casino: Engine) -> Engine:
    with transaction(casino) as s:
        open_progressive(s, "ultimate-texas-holdem")
    return casino


def whole(engine: Engine) -> None:
    with transaction(engine) as s:
        assert check(s).ok and verify_audit(s).ok and reconcile_bets(s).ok
        assert jackpots.reconcile(s, NAME).balanced


def play(engine: Engine, cards: list[str], key: str, table: str = TABLE,
         player: str = "ann", ante: int = 500) -> BankedView:
    """A round with the progressive: the box plays 4x before the flop."""
    rng = Cards(cards)
    with transaction(engine) as s:
        deal(s, table, player, {"ante": ante, "progressive": 100}, key=key, rng=rng, at=AT)
        return decide(s, table, player, "play 4", key=f"{key}-play", rng=rng, at=AT)


def pools(engine: Engine) -> tuple[int, int, int]:
    with transaction(engine) as s:
        held = balances(s)
    return held.get(POOL, 0), held.get(ACCRUAL, 0), held["house:bank"]


def test_without_a_progressive_running_the_bet_is_refused_and_nothing_changes(
        casino: Engine) -> None:
    with transaction(casino) as s, pytest.raises(TableError, match="runs no progressive"):
        deal(s, TABLE, "ann", {"ante": 500, "progressive": 100}, key="k", rng=SeededRng(1))
    assert wallet(casino, "ann") == MONEY
    with transaction(casino) as s:
        assert s.scalars(select(BetRow)).first() is None


def test_starting_it_seeds_the_pool_from_the_house_once(casino: Engine) -> None:
    _, _, bank = pools(casino)
    with transaction(casino) as s:
        made = open_progressive(s, "ultimate-texas-holdem")
    assert (made.fee, made.share_percent, made.minimum) == (100, 50, SEED)
    assert pools(casino) == (SEED, 0, bank - SEED)
    with transaction(casino) as s, pytest.raises(TableError, match="has its progressive"):
        open_progressive(s, "ultimate-texas-holdem", name="another")
    with transaction(casino) as s, pytest.raises(TableError, match="has no progressive"):
        open_progressive(s, "red-dog")
    whole(casino)


@pytest.mark.parametrize("stake", [99, 101, 200])
def test_the_bet_is_exactly_its_fee(running: Engine, stake: int) -> None:
    with transaction(running) as s, pytest.raises(TableError, match=r"takes its fee, 1\.00"):
        deal(s, TABLE, "ann", {"ante": 500, "progressive": stake}, key="k", rng=SeededRng(1))
    assert wallet(running, "ann") == MONEY


def test_fees_accrue_half_to_the_pool_and_join_it_at_the_end_of_the_day(
        running: Engine) -> None:
    for number, table, player in ((1, TABLE, "ann"), (2, "uth-bob", "bob")):
        play(running, ["2c", "7d", "3h", "9s", "Kc", "Jd", "4s", "5h", "8c"],
             key=f"k{number}", table=table, player=player)
    assert pools(running)[:2] == (SEED, 100)  # both tables feed the one pool
    with transaction(running) as s:
        assert jackpots.close_day(s, NAME, date(2026, 12, 4)) == 100
    assert pools(running)[:2] == (SEED + 100, 0)
    with transaction(running) as s:
        entries = s.scalars(select(JackpotEntry).order_by(JackpotEntry.id)).all()
        assert [(e.player, e.paid) for e in entries] == [("ann", 0), ("bob", 0)]
    whole(running)


def test_a_royal_flush_wins_the_whole_pool_and_the_house_seeds_it_again(
        running: Engine) -> None:
    play(running, ["2c", "7d", "3h", "9s", "Kc", "Jd", "4s", "5h", "8c"], key="k0")
    with transaction(running) as s:
        jackpots.close_day(s, NAME, date(2026, 12, 4))
    before = wallet(running, "ann")
    # ann As Ks; dealer 2d 3c; flop Qs Js Ts: a royal flush on her two cards and the flop
    view = play(running, ["As", "Ks", "2d", "3c", "Qs", "Js", "Ts", "4h", "9c"], key="k1")
    record = stored(running, view.round_id)
    assert record["jackpot"] == {"jackpot": NAME, "percent": 100, "paid": SEED + 50}
    progressive = next(x for x in view.view["settlements"] if x["spot"] == "progressive")
    assert progressive["paid"] == 0 and progressive["pool_percent"] == 100
    engine_paid = sum(x["paid"] for x in view.view["settlements"])
    assert view.paid == engine_paid + SEED + 50
    assert wallet(running, "ann") == before - 500 - 500 - 100 - 2_000 + view.paid
    assert pools(running)[:2] == (SEED, 50)
    with transaction(running) as s:
        row = s.scalars(select(BetRow).where(BetRow.round_id == view.round_id,
                                             BetRow.spot == "progressive")).one()
        assert row.paid == 0  # the house paid nothing on it: the pool did
        entry = s.scalars(select(JackpotEntry).where(
            JackpotEntry.round_id == view.round_id)).one()
        assert entry.paid == SEED + 50
        assert recall_banked_round(s, view.round_id).same
        again = jackpots.reconcile(s, NAME)
    assert (again.paid, again.seeded) == (SEED + 50, 2 * SEED)
    whole(running)


def test_a_straight_flush_wins_a_tenth_of_the_pool(running: Engine) -> None:
    before = wallet(running, "ann")
    # ann 9h 8h, flop 7h 6h 5h: a straight flush; the dealer's 2c 3d do not qualify
    view = play(running, ["9h", "8h", "2c", "3d", "7h", "6h", "5h", "Kd", "Jc"], key="k")
    assert view.view["jackpot"] == {"jackpot": NAME, "percent": 10, "paid": SEED // 10}
    assert pools(running)[:2] == (SEED, 50)  # back to the seed
    # ante pushes (the dealer does not qualify); blind 50:1 on a straight flush; play 1:1
    assert view.paid == 500 + 500 * 51 + 2 * 2_000 + SEED // 10
    assert wallet(running, "ann") == before - 3_100 + view.paid
    whole(running)


@pytest.mark.parametrize(("cards", "hand", "times"), [
    (["9h", "9c", "2c", "3d", "9d", "9s", "5h", "Kd", "Jc"], "four of a kind", 300),
    (["9h", "9c", "2c", "3d", "9d", "5s", "5h", "Kd", "Jc"], "full house", 50),
    (["Ah", "9h", "2c", "3d", "6h", "4h", "Jh", "Kd", "Qc"], "flush", 40),
    (["9h", "8c", "2c", "3d", "7d", "6s", "5h", "Kd", "Jc"], "straight", 30),
    (["9h", "9c", "2c", "3d", "9d", "6s", "5h", "Kd", "Jc"], "three of a kind", 9),
    (["9h", "9c", "2c", "3d", "Td", "6s", "5h", "Kd", "Jc"], "lose", 0),
])
def test_the_fixed_wins_come_from_the_house_and_leave_the_pool(
        running: Engine, cards: list[str], hand: str, times: int) -> None:
    view = play(running, cards, key="k")
    progressive = next(x for x in view.view["settlements"] if x["spot"] == "progressive")
    assert progressive["paid"] == times * 100 and hand in progressive["result"]
    assert "jackpot" not in view.view
    assert pools(running)[:2] == (SEED, 50)
    whole(running)
