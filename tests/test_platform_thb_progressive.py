"""Texas Hold'em Bonus' progressive as a jackpot on the ledger, on SQLite and PostgreSQL,
through the same code as Ultimate Texas Hold'em's: the casino starts it from the game's
rule data (fee 1 €, half of it to the pool, a 10,000 € seed from the house), a pool of
its own; each fee is a stake whose share accrues and joins the pool at the end of the
gaming day; a royal flush on the box's two cards and the flop wins the whole pool and a
straight flush a tenth of it, paid from the pool with the house topping it back up to
the seed; the fixed wins come from the house; the turn and the river do not count, and a
fold before the flop loses it. Nothing is made or lost: the ledger checks, and the
jackpot reconciles against every transfer."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from dbfixtures import setup, stored, wallet
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, select
from test_platform_thb_rounds import Stacked

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

AT = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
MONEY = 100_000
TABLE = "thb-ann"
GAME = "texas-holdem-bonus"
NAME = f"{GAME}-progressive"
POOL, ACCRUAL = f"jackpot:{NAME}", f"jackpot:{NAME}:accrual"
SEED = 1_000_000
ANTE = 500
# ann 2c 7d, the dealer 3h 9s, the flop Kc Jd 4s: no progressive hand
NOTHING = ["2c", "7d", "3h", "9s", "Kc", "Jd", "4s", "5h", "8c"]


@pytest.fixture
def casino(engine: Engine) -> Engine:
    setup(engine, ("ann", "bob"), money=MONEY)
    with transaction(engine) as s:
        create_banked_table(s, TABLE, GAME)
        create_banked_table(s, "thb-bob", GAME)
    return engine


@pytest.fixture
def running(casino: Engine) -> Engine:
    with transaction(casino) as s:
        open_progressive(s, GAME)
    return casino


def whole(engine: Engine) -> None:
    with transaction(engine) as s:
        assert check(s).ok and verify_audit(s).ok and reconcile_bets(s).ok
        assert jackpots.reconcile(s, NAME).balanced


def play(engine: Engine, cards: list[str], key: str, table: str = TABLE,
         player: str = "ann", bonus: int = 0) -> BankedView:
    """A round with the progressive: the box bets the flop, then checks to the end."""
    rng = Stacked(*cards)
    bets = {"ante": ANTE, "progressive": 100, **({"bonus": bonus} if bonus else {})}
    with transaction(engine) as s:
        view = deal(s, table, player, bets, key=key, rng=rng, at=AT)
    for number, action in enumerate(("bet flop", "check", "check")):
        with transaction(engine) as s:
            view = decide(s, table, player, action, key=f"{key}-{number}", rng=rng, at=AT)
    assert view.status == "settled"
    return view


def pools(engine: Engine) -> tuple[int, int, int]:
    with transaction(engine) as s:
        held = balances(s)
    return held.get(POOL, 0), held.get(ACCRUAL, 0), held["house:bank"]


def progressive_of(view: BankedView) -> dict[str, object]:
    found: dict[str, object] = next(x for x in view.view["settlements"]
                                    if x["spot"] == "progressive")
    return found


def test_without_a_progressive_running_the_bet_is_refused_and_nothing_changes(
        casino: Engine) -> None:
    with transaction(casino) as s:
        open_progressive(s, "ultimate-texas-holdem")  # another game's does not serve
    with transaction(casino) as s, pytest.raises(TableError, match="runs no progressive at "
                                                 "its texas-holdem-bonus tables"):
        deal(s, TABLE, "ann", {"ante": ANTE, "progressive": 100}, key="k", rng=SeededRng(1))
    assert wallet(casino, "ann") == MONEY
    with transaction(casino) as s:
        assert s.scalars(select(BetRow)).first() is None


def test_starting_it_seeds_a_pool_of_its_own_from_the_house_once(casino: Engine) -> None:
    _, _, bank = pools(casino)
    with transaction(casino) as s:
        made = open_progressive(s, GAME)
        uth = open_progressive(s, "ultimate-texas-holdem")
    assert (made.name, made.fee, made.share_percent, made.minimum) == (NAME, 100, 50, SEED)
    assert uth.name != made.name
    assert pools(casino) == (SEED, 0, bank - 2 * SEED)
    with transaction(casino) as s, pytest.raises(TableError, match="has its progressive"):
        open_progressive(s, GAME, name="another")
    play(casino, NOTHING, key="k")
    with transaction(casino) as s:
        held = balances(s)
    uth_pool = "jackpot:ultimate-texas-holdem-progressive"
    assert (held[uth_pool], held.get(f"{uth_pool}:accrual", 0)) == (SEED, 0)  # its own
    assert pools(casino)[:2] == (SEED, 50)
    whole(casino)


@pytest.mark.parametrize("stake", [99, 101, 200])
def test_the_bet_is_exactly_its_fee(running: Engine, stake: int) -> None:
    with transaction(running) as s, pytest.raises(TableError, match=r"takes its fee, 1\.00"):
        deal(s, TABLE, "ann", {"ante": ANTE, "progressive": stake}, key="k", rng=SeededRng(1))
    with transaction(running) as s, pytest.raises(TableError, match="bet with an ante"):
        deal(s, TABLE, "ann", {"progressive": 100}, key="k2", rng=SeededRng(1))
    assert wallet(running, "ann") == MONEY


def test_fees_are_staked_half_accrues_and_joins_the_pool_at_the_end_of_the_day(
        running: Engine) -> None:
    _, _, bank = pools(running)
    for number, table, player in ((1, TABLE, "ann"), (2, "thb-bob", "bob")):
        view = play(running, NOTHING, key=f"k{number}", table=table, player=player)
        assert progressive_of(view)["stake"] == 100 and progressive_of(view)["paid"] == 0
        # the dealer's K-J-9 beats ann's K-J-7: ante 500 and flop 1,000 lost, fee lost
        assert view.paid == 0 and wallet(running, player) == MONEY - 1_600
    assert pools(running) == (SEED, 100, bank + 2 * 1_600 - 100)  # both tables feed one
    with transaction(running) as s:
        rows = s.scalars(select(BetRow).where(BetRow.spot == "progressive")).all()
        assert [(b.player, b.stake, b.paid) for b in rows] == [("ann", 100, 0), ("bob", 100, 0)]
        assert jackpots.close_day(s, NAME, date(2026, 12, 7)) == 100
        entries = s.scalars(select(JackpotEntry).order_by(JackpotEntry.id)).all()
        assert [(e.player, e.paid) for e in entries] == [("ann", 0), ("bob", 0)]
    assert pools(running)[:2] == (SEED + 100, 0)
    whole(running)


def test_a_royal_flush_wins_the_whole_pool_and_the_house_seeds_it_again(
        running: Engine) -> None:
    play(running, NOTHING, key="k0")
    with transaction(running) as s:
        jackpots.close_day(s, NAME, date(2026, 12, 7))
    before = wallet(running, "ann")
    # ann As Ks (the Bonus' A-K suited, 25:1); the dealer 2d 3c; the flop Qs Js Ts
    view = play(running, ["As", "Ks", "2d", "3c", "Qs", "Js", "Ts", "4h", "9c"], key="k1",
                bonus=100)
    record = stored(running, view.round_id)
    assert record["jackpot"] == {"jackpot": NAME, "percent": 100, "paid": SEED + 50}
    assert view.view["jackpot"] == record["jackpot"]
    assert [(x["spot"], x["stake"], x["paid"]) for x in view.view["settlements"]] == [
        ("ante", 500, 1_000), ("progressive", 100, 0), ("bonus", 100, 2_600),
        ("flop", 1_000, 2_000)]
    assert progressive_of(view)["pool_percent"] == 100
    assert view.paid == 1_000 + 2_600 + 2_000 + SEED + 50
    assert wallet(running, "ann") == before - 500 - 100 - 100 - 1_000 + view.paid
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
    # ann 9h 8h, the flop 7h 6h 5h: a straight flush; ante and flop bet win 1:1
    view = play(running, ["9h", "8h", "2c", "3d", "7h", "6h", "5h", "Kd", "Jc"], key="k")
    assert view.view["jackpot"] == {"jackpot": NAME, "percent": 10, "paid": SEED // 10}
    assert pools(running)[:2] == (SEED, 50)  # back to the seed
    assert view.paid == 2 * 500 + 2 * 1_000 + SEED // 10
    assert wallet(running, "ann") == before - 1_600 + view.paid
    whole(running)


@pytest.mark.parametrize(("cards", "hand", "times"), [
    (["9h", "9c", "2c", "3d", "9d", "9s", "5h", "Kd", "Jc"], "four of a kind", 300),
    (["9h", "9c", "2c", "3d", "9d", "5s", "5h", "Kd", "Jc"], "full house", 50),
    (["Ah", "9h", "2c", "3d", "6h", "4h", "Jh", "Kd", "Qc"], "flush", 40),
    (["9h", "8c", "2c", "3d", "7d", "6s", "5h", "Kd", "Jc"], "straight", 30),
    (["9h", "9c", "2c", "3d", "9d", "6s", "5h", "Kd", "Jc"], "three of a kind", 9),
    (["9h", "9c", "2c", "3d", "Td", "6s", "5h", "Kd", "Jc"], "lose", 0),
    # a straight made on the turn: the progressive's hand is the two cards and the flop
    (["9h", "8c", "2c", "3d", "7d", "6s", "Kh", "5h", "Jc"], "lose", 0),
])
def test_the_fixed_wins_come_from_the_house_and_leave_the_pool(
        running: Engine, cards: list[str], hand: str, times: int) -> None:
    _, _, bank = pools(running)
    view = play(running, cards, key="k")
    progressive = progressive_of(view)
    assert progressive["paid"] == times * 100 and hand in str(progressive["result"])
    assert "jackpot" not in view.view
    assert pools(running) == (SEED, 50, bank + view.staked - 50 - view.paid)
    whole(running)


def test_a_fold_before_the_flop_loses_the_progressive(running: Engine) -> None:
    rng = Stacked("As", "Ks", "2d", "3c")  # the flop is never dealt
    with transaction(running) as s:
        deal(s, TABLE, "ann", {"ante": ANTE, "progressive": 100}, key="k", rng=rng, at=AT)
        view = decide(s, TABLE, "ann", "fold", key="k-fold", rng=rng, at=AT)
    assert view.status == "settled" and view.view["board"] == []
    assert [(x["spot"], x["paid"], x["result"]) for x in view.view["settlements"]] == [
        ("ante", 0, "fold"), ("progressive", 0, "fold")]
    assert view.paid == 0 and wallet(running, "ann") == MONEY - 600
    assert pools(running)[:2] == (SEED, 50)  # the fee's share accrued all the same
    with transaction(running) as s:
        entry = s.scalars(select(JackpotEntry)).one()
        assert (entry.player, entry.paid) == ("ann", 0)
    whole(running)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), plan=st.sampled_from([
    ("fold",), ("bet flop", "check", "check"), ("bet flop", "bet turn", "bet river")]),
    bonus=st.sampled_from([0, 100]))
def test_money_is_conserved_whatever_the_cards(running: Engine, seed: int,
                                               plan: tuple[str, ...], bonus: int) -> None:
    """The wallets, the house, the pool and its accrual hold together what they held."""
    with transaction(running) as s:
        total = sum(v for k, v in balances(s).items() if not k.startswith("external:"))
        number = len(s.scalars(select(BetRow)).all())
    rng = SeededRng(seed)
    bets = {"ante": ANTE, "progressive": 100, **({"bonus": bonus} if bonus else {})}
    key = f"p{number}"
    with transaction(running) as s:
        view = deal(s, TABLE, "ann", bets, key=key, rng=rng, at=AT)
    for step, action in enumerate(plan):
        with transaction(running) as s:
            view = decide(s, TABLE, "ann", action, key=f"{key}-{step}", rng=rng, at=AT)
    assert view.status == "settled"
    pool, _, _ = pools(running)
    assert pool >= SEED  # the seed restored after any share paid
    won = int(view.view.get("jackpot", {}).get("paid", 0))
    assert view.paid == sum(x["paid"] for x in view.view["settlements"]) + won
    with transaction(running) as s:
        assert sum(v for k, v in balances(s).items()
                   if not k.startswith("external:")) == total
    whole(running)
