"""Poker tables on the persistent wallet (RAY 2016 1.4.1.1.1: buy-in, rake, the bad-beat
jackpot), on SQLite and PostgreSQL: exact money per move, the table account equal to the
chips, the ledger and audit chain sound after many bot hands, recall of recorded hands."""

from __future__ import annotations

import copy
import json
import random
import tomllib
import warnings
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from dbfixtures import fresh_engine
from sqlalchemy import Engine, func, select
from typer.testing import CliRunner

from pelisali.cards import DECK
from pelisali.engine import CHANCE
from pelisali.platform import accounts, jackpots
from pelisali.platform.db import transaction
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import (
    LedgerError,
    balance,
    balances,
    check,
    move,
    now_utc,
    open_account,
    verify_audit,
)
from pelisali.platform.models import GameTable, Jackpot, RoundRow, Transfer
from pelisali.platform.poker_family import (
    FAMILY,
    PokerHandRecord,
    ResultRecord,
    TableSettings,
    as_poker,
)
from pelisali.platform.poker_tables import (
    HOUSE_SEATS,
    CashTable,
    HandRecall,
    PokerTableError,
    close_day,
    create_table,
    find_table,
    fund_house_seats,
    recall_hand,
    reconcile_jackpot,
    reconcile_table,
    settings_of,
)
from pelisali.platform.table_layer import read_record, rebuild, write_record
from pelisali.poker.hands import pack
from pelisali.poker.jackpot import BadBeatJackpot, BadBeatRules
from pelisali.poker.selfplay import BOTS, draw_choice
from pelisali.poker.session import PokerTable
from pelisali.poker.table import PokerError, PokerHand
from pelisali.rng import SeededRng

PLAYERS = ("ann", "bob", "cid", "dan", "eve", "fay")
DEPOSIT = 100_000
HOUSE = 10_000_000
RAKE = Fraction(5, 100)
QUADS_EIGHTS = BadBeatRules(qualifying=pack(7, [6]), min_players=4, contribution=100,
                            losing_share=Fraction(50, 100), winning_share=Fraction(25, 100),
                            table_share=Fraction(15, 100), guaranteed_minimum=10_000)


def setup(engine: Engine, table: str = "t1", game: str = "holdem",
          bad_beat: BadBeatRules | None = None, **kw: object) -> None:
    with transaction(engine) as s:
        move(s, "fund", "external:owner", "house:bank", HOUSE, "funding")
        for name in PLAYERS:
            accounts.register(s, name, date(1990, 1, 1), "FI")
            accounts.deposit(s, name, DEPOSIT, key=f"d-{name}")
        create_table(s, table, game, small_blind=50, big_blind=100, min_buy_in=2_000,
                     rake=RAKE, rake_cap=300, jackpot="bb" if bad_beat else None,
                     bad_beat=bad_beat, **kw)  # type: ignore[arg-type]


def money(engine: Engine) -> dict[str, int]:
    with transaction(engine) as s:
        return balances(s)  # a sharded house bank's shards summed


def transfers(engine: Engine) -> int:
    with transaction(engine) as s:
        return int(s.scalar(select(func.count()).select_from(Transfer)) or 0)


def held(engine: Engine, table: str = "t1") -> int:
    with transaction(engine) as s:
        return balance(s, f"table:{table}")


class Stacked:
    """Shuffles that deal the given cards first, one deck a hand (Fisher-Yates backwards:
    each draw picks the card the order wants at that place)."""

    def __init__(self, *decks: list[str]) -> None:
        self.draws: list[int] = []
        for first in decks:
            order = first + [c for c in DECK if c not in first]
            cards = list(DECK)
            for i in range(len(cards) - 1, 0, -1):
                j = cards.index(order[i])
                assert j <= i
                self.draws.append(j)
                cards[i], cards[j] = cards[j], cards[i]
            assert cards == order

    def randbelow(self, n: int) -> int:
        return self.draws.pop(0)

    def randbelow_many(self, n: int, size: int) -> npt.NDArray[np.int64]:
        return np.array([self.randbelow(n) for _ in range(size)], dtype=np.int64)


def play_out(hand: PokerHand, chooser: random.Random, bots: tuple[str, ...]) -> None:
    while not hand.finished:
        seat = hand.actor
        assert seat is not None
        bot = bots[seat % len(bots)]
        if hand.discarding:
            hand.discard(min(hand.hole[seat], key=DECK.index))
        elif hand.drawing:
            hand.draw(draw_choice(hand, chooser, bot))
        else:
            action, to = BOTS[bot](hand, chooser)
            hand.act(action, to)


def call_down(hand: PokerHand) -> None:
    while not hand.finished:
        hand.act("check" if hand.legal().check else "call")


# -- buy-in and cash-out ----------------------------------------------------------------------
def test_buy_in_and_cash_out_move_exact_amounts(engine: Engine) -> None:
    setup(engine)
    table = CashTable.open(engine, "t1", SeededRng(1))
    assert table.buy_in("ann", 5_000, key="a1") == 0
    assert table.buy_in("ann", 5_000, key="a1") == 0  # a retry: applied once
    assert table.buy_in("ann", 5_000, key="a2") == 0  # a top-up between hands
    assert table.buy_in("bob", 2_000, key="b1") == 1
    lost = copy.copy(table.table)  # bob's answer was lost: the retry finds his chips
    lost.seats = list(lost.seats)
    lost.seats[1] = None
    table.table = lost
    assert table.buy_in("bob", 2_000, key="b1") == 1
    after = money(engine)
    assert after["player:ann"] == DEPOSIT - 10_000 and after["player:bob"] == DEPOSIT - 2_000
    assert after["table:t1"] == 12_000 == table.chips_on_table()
    assert table.chips() == {"ann": 10_000, "bob": 2_000}
    assert table.cash_out("ann", key="a-out") == 10_000
    assert table.cash_out("bob", key="b-out") == 2_000
    assert table.cash_out("bob", key="b-out") == 2_000  # a retry: nothing more moves
    after = money(engine)
    assert (after["player:ann"], after["player:bob"], after["table:t1"]) == (
        DEPOSIT, DEPOSIT, 0)
    with transaction(engine) as s:
        report = reconcile_table(s, "t1")
        assert (report.bought, report.cashed, report.held) == (12_000, 12_000, 0)
        assert report.balanced and check(s).ok and verify_audit(s).ok


def test_players_sitting_down_at_once_all_sit(engine: Engine) -> None:
    """Each sit comes on a thread of its own (the server's): all of them sit, each once,
    and the table's account holds every chip (before: one sat, the rest were told to
    reopen the table)."""
    import threading

    setup(engine)
    table = CashTable.open(engine, "t1", SeededRng(1))
    seats: dict[str, int] = {}
    failures: list[Exception] = []

    def sit(name: str) -> None:
        try:
            seats[name] = table.buy_in(name, 3_000, key=f"sit-{name}")
        except Exception as exc:  # the assertion below shows what went wrong
            failures.append(exc)

    threads = [threading.Thread(target=sit, args=(name,)) for name in PLAYERS]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == [] and sorted(seats.values()) == list(range(len(PLAYERS)))
    assert held(engine) == 3_000 * len(PLAYERS) == table.chips_on_table()
    with transaction(engine) as s:
        assert reconcile_table(s, "t1").balanced and check(s).ok


def test_a_refused_buy_in_changes_nothing(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        accounts.exclude(s, "cid", 30)
        accounts.set_status(s, "dan", "barred", "fraud", "floor")
        accounts.set_limit(s, "eve", "loss", "day", 3_000)
    table = CashTable.open(engine, "t1", SeededRng(1))
    table.buy_in("eve", 2_000, key="e1")  # within her loss limit
    before, count = money(engine), transfers(engine)
    for player, amount, message in (
            ("cid", 5_000, "self-excluded"),
            ("dan", 5_000, "account barred"),
            ("ann", DEPOSIT + 1, "no credit"),
            ("bob", 1_999, "minimum buy-in is 20.00|minimum buy-in is 1999|minimum"),
            ("eve", 1_500, "loss limit 30.00 a day"),  # 20.00 at the table already
            ("nobody", 5_000, "no player 'nobody'")):
        with pytest.raises(LedgerError, match=message):
            table.buy_in(player, amount, key=f"refused-{player}")
        assert money(engine) == before and transfers(engine) == count
        assert table.chips() == {"eve": 2_000}
    table.buy_in("ann", 2_000, key="a1")
    table.start_hand()
    with pytest.raises(PokerTableError, match="during a hand"):
        table.buy_in("bob", 5_000, key="b-mid")
    with pytest.raises(PokerTableError, match="between hands"):
        table.cash_out("ann", key="a-mid")
    assert money(engine)["table:t1"] == 4_000 == table.chips_on_table()


def test_the_house_seats_buy_from_their_own_account(engine: Engine) -> None:
    setup(engine)
    with transaction(engine) as s:
        fund_house_seats(s, 10_000, key="f1")
    table = CashTable.open(engine, "t1", SeededRng(1))
    table.buy_in("bot:1", 4_000, key="bot-1")
    assert money(engine)[HOUSE_SEATS] == 6_000
    assert table.cash_out("bot:1", key="bot-1-out") == 4_000
    assert money(engine)[HOUSE_SEATS] == 10_000


# -- rake and the time charge -----------------------------------------------------------------
def test_rake_is_exact_per_hand_and_applied_once(engine: Engine) -> None:
    setup(engine)
    table = CashTable.open(engine, "t1", SeededRng(5))
    for name in ("ann", "bob", "cid"):
        table.buy_in(name, 10_000, key=name)
    hand = table.start_hand()
    assert held(engine) == table.chips_on_table() == 30_000
    call_down(hand)  # three call 100 and check it down: 5 % of 300
    assert table.chips_on_table() == held(engine) == 30_000  # the fee not yet taken
    saved = (table.table, table.hands, table._hand)
    result = table.finish_hand()
    assert result.rake == 15 and result.hand == 1
    assert held(engine) == 30_000 - 15 == sum(table.chips().values())
    with transaction(engine) as s:
        rake = s.scalars(select(Transfer).where(Transfer.key == "rake:t1:1")).one()
        assert (rake.amount, rake.kind, rake.round_id) == (15, "fee", result.round_id)
        again = move(s, "rake:t1:1", "table:t1", "fee:t1", 15, "fee",
                     reason="t1 hand 1: rake", round_id=result.round_id)
        assert again.id == rake.id  # the same key: applied once
        assert balance(s, "fee:t1") == 15
    # The commit was lost as far as this process knows: the retry finds the record.
    table.table, table.hands, table._hand = saved
    assert table.finish_hand() == result
    assert money(engine)["fee:t1"] == 15 and held(engine) == 29_985
    with pytest.raises(PokerTableError, match="no finished hand"):
        table.finish_hand()
    # A big pot: the cap (3.00) holds.
    hand = table.start_hand()
    hand.act("raise", 2_000)
    hand.act("call")
    hand.act("call")
    call_down(hand)
    assert table.finish_hand().rake == 300
    assert money(engine)["fee:t1"] == 315


def test_the_time_charge(engine: Engine) -> None:
    setup(engine)
    table = CashTable.open(engine, "t1", SeededRng(5))
    table.buy_in("ann", 5_000, key="a")
    table.buy_in("bob", 2_000, key="b")
    table.buy_in("cid", 2_000, key="c")
    table.sit_out("cid")
    assert table.charge_time(150, key="hour-1") == {"ann": 150, "bob": 150}
    assert money(engine)["fee:t1"] == 300
    assert held(engine) == 8_700 == table.chips_on_table()
    assert CashTable.open(engine, "t1", SeededRng(5)).chips() == table.chips()


def test_a_time_charge_table_announces_its_amount_and_takes_it(engine: Engine) -> None:
    """RAY 1.4.1.1.1 B: the principle and the amount of the house's fee are announced; a
    time-charge table takes that amount, no other, and has no rake besides."""
    setup(engine)
    with transaction(engine) as s:
        create_table(s, "t2", small_blind=50, big_blind=100, min_buy_in=2_000,
                     time_charge=200, time_charge_minutes=30)
        described = settings_of(find_table(s, "t2")).describe()
    assert described.endswith("minimum buy-in 20.00, time charge 2.00 per player every 30 min")
    for kw, message in (({"time_charge": 200}, "every 1 to 1440 minutes"),
                        ({"time_charge": 0, "time_charge_minutes": 30}, "positive amount"),
                        ({"time_charge": 200, "time_charge_minutes": 30, "rake": RAKE},
                         "not both")):
        with pytest.raises(PokerTableError, match=message), transaction(engine) as s:
            create_table(s, "t3", small_blind=50, big_blind=100, min_buy_in=2_000,
                         **kw)  # type: ignore[arg-type]
    table = CashTable.open(engine, "t2", SeededRng(5))
    table.buy_in("ann", 5_000, key="a")
    table.buy_in("bob", 2_000, key="b")
    with pytest.raises(PokerTableError, match=r"announced time charge is 2\.00, not 1\.50"):
        table.charge_time(150, key="h0")
    assert table.charge_time(None, key="h1") == {"ann": 200, "bob": 200}
    assert money(engine)["fee:t2"] == 400
    with pytest.raises(PokerTableError, match="announces no time charge"):
        CashTable.open(engine, "t1", SeededRng(5)).charge_time(None, key="h2")


def test_a_table_may_take_a_fold_when_a_check_is_free_and_muck_losing_hands(
        engine: Engine) -> None:
    """RULINGS: both are table settings, announced with the table; the hand's record
    keeps them, so its recall plays by them too. Off, the fold is refused."""
    setup(engine)
    with transaction(engine) as s:
        create_table(s, "t2", small_blind=50, big_blind=100, min_buy_in=2_000,
                     fold_when_check_free=True, auto_muck=True)
        described = settings_of(find_table(s, "t2")).describe()
    assert described.endswith("a fold when a check is free is taken, losing hands are "
                              "mucked at showdown")
    table = CashTable.open(engine, "t2", SeededRng(5))
    for name in ("ann", "bob"):
        table.buy_in(name, 5_000, key=name)
    hand = table.start_hand()
    hand.act("call")
    assert hand.legal().check and hand.legal().fold
    hand.act("fold")  # the big blind folds a free check
    assert hand.finished
    result = table.finish_hand()
    assert sorted(table.chips().values()) == [4_900, 5_100]
    assert held(engine, "t2") == 10_000  # no rake: the hand saw no flop
    strict = CashTable.open(engine, "t1", SeededRng(5))
    for name in ("cid", "dan"):
        strict.buy_in(name, 5_000, key=name)
    hand = strict.start_hand()
    hand.act("call")
    with pytest.raises(PokerError, match="check instead of folding"):
        hand.act("fold")
    assert result.hand == 1


# -- the table account, the ledger and the audit after many hands -------------------------------
@pytest.mark.parametrize("game", ["holdem", "omaha", "stud", "draw"])
def test_selfplay_keeps_the_ledger_and_the_chips_equal(engine: Engine, game: str) -> None:
    two_pair = BadBeatRules(qualifying=pack(2, [1, 0]), min_players=3, contribution=20,
                            losing_share=Fraction(1, 2), winning_share=Fraction(1, 4),
                            table_share=Fraction(1, 10), guaranteed_minimum=2_000)
    setup(engine, game=game, bad_beat=two_pair)
    seeded = money(engine)["jackpot:bb"]
    table = CashTable.open(engine, "t1", SeededRng(11))
    chooser = random.Random(11)
    seated = list(PLAYERS[:5])
    for name in seated:
        table.buy_in(name, 3_000, key=f"in-{name}")
    hands = 60 if game == "holdem" else 25
    paid = 0
    for number in range(hands):
        for name, chips in table.chips().items():  # a bust player buys in again
            if chips < 100:
                table.buy_in(name, 2_000, key=f"re-{name}-{number}")
        if number % 10 == 5:  # fay comes and goes
            if "fay" in table.chips():
                table.cash_out("fay", key=f"out-fay-{number}")
            else:
                table.buy_in("fay", 2_500, key=f"in-fay-{number}")
        hand = table.start_hand()
        play_out(hand, chooser, ("random", "rules"))
        assert held(engine) == table.chips_on_table()
        result = table.finish_hand()
        paid += sum(result.shares.values())
        assert held(engine) == table.chips_on_table() == sum(table.chips().values())
        if number % 7 == 6:
            with transaction(engine) as s:
                close_day(s, "bb", date(2026, 12, 1 + number // 7))
    for name in list(table.chips()):
        table.cash_out(name, key=f"leave-{name}")
    after = money(engine)
    assert after["table:t1"] == 0
    wallets = sum(after[f"player:{p}"] for p in PLAYERS)
    house_fees = after["fee:t1"]
    pool = after["jackpot:bb"] + after["jackpot:bb:accrual"]
    with transaction(engine) as s:
        rounds = s.scalars(select(RoundRow).order_by(RoundRow.id)).all()
        assert [json.loads(r.record)["hand"] for r in rounds] == list(range(1, hands + 1))
        assert all(r.status == "settled" for r in rounds)
        jackpot = reconcile_jackpot(s, "bb")
        assert jackpot.balanced and jackpot.paid == paid
        # Money is conserved: only the deposits and the house's jackpot money came in.
        assert wallets + house_fees + pool == len(PLAYERS) * DEPOSIT + jackpot.seeded
        assert after["house:bank"] == HOUSE - jackpot.seeded and jackpot.seeded >= seeded
        assert reconcile_table(s, "t1").balanced
        ledger = check(s)
        assert ledger.ok, ledger.problems
        assert verify_audit(s).ok
        for row in rounds[:: max(1, len(rounds) // 8)]:
            assert recall_hand(s, row.id).same, recall_hand(s, row.id)


# -- the bad-beat jackpot -----------------------------------------------------------------------
NO_BEAT = ["Kc", "Qd", "7h", "2s", "9c", "4d", "Jh", "3c", "2d", "6s", "Tc", "5h", "8c"]
# Button bob: cid, dan, ann, bob are dealt in turn; ann's four eights lose to bob's aces.
BAD_BEAT = ["2c", "3d", "4c", "5d", "8s", "8h", "As", "Ah", "8d", "8c", "Ad", "Ac", "Kd"]


def test_a_bad_beat_pays_exact_shares_and_the_house_tops_up(engine: Engine) -> None:
    setup(engine, bad_beat=QUADS_EIGHTS)
    assert money(engine)["jackpot:bb"] == 10_000  # seeded to the guaranteed minimum
    table = CashTable.open(engine, "t1", Stacked(NO_BEAT, BAD_BEAT))  # type: ignore[arg-type]
    for name in ("ann", "bob", "cid", "dan"):
        table.buy_in(name, 10_000, key=name)
    call_down(table.start_hand())  # button ann: bob, cid, dan, ann; cid's deuces win
    first = table.finish_hand()
    assert (first.rake, first.contribution, first.shares) == (20, 100, {})
    assert table.chips() == {"ann": 9_900, "bob": 9_900, "cid": 10_180, "dan": 9_900}
    with transaction(engine) as s:
        assert balance(s, "jackpot:bb:accrual") == 100
        assert balance(s, "jackpot:bb") == 10_000  # the accrual waits for the day's end
        assert close_day(s, "bb", date(2026, 12, 1)) == 100
        assert balance(s, "jackpot:bb") == 10_100
    hand = table.start_hand()
    call_down(hand)
    beat = table.finish_hand()
    # 10,100 in the pool: the losing hand 50 %, the winning 25 %, the other two share 15 %
    # (the odd cent to the first of them); the house adds what the seed lacks.
    assert beat.shares == {"ann": 5_050, "bob": 2_525, "cid": 758, "dan": 757}
    assert beat.topped_up == 10_000 - (10_100 - 9_090)
    assert table.chips() == {"ann": 9_800 + 5_050, "bob": 9_800 + 280 + 2_525,
                             "cid": 10_080 + 758, "dan": 9_800 + 757}
    after = money(engine)
    assert after["jackpot:bb"] == 10_000 and after["jackpot:bb:accrual"] == 100
    assert after["house:bank"] == HOUSE - 10_000 - 8_990
    assert after["table:t1"] == sum(table.chips().values()) == table.chips_on_table()
    with transaction(engine) as s:
        report = reconcile_jackpot(s, "bb")
        assert (report.contributed, report.seeded, report.paid) == (200, 18_990, 9_090)
        assert report.balanced
        assert reconcile_table(s, "t1").balanced
        recall = recall_hand(s, beat.round_id)
        assert recall.same and recall.replayed["shares"] == beat.shares
        assert check(s).ok and verify_audit(s).ok


# The criteria of each game (RULINGS: they vary by game). Button ann: bob, cid, dan and
# ann are dealt in turn, then the board (Double Flop: flop 1, flop 2, the turns, the rivers).
QUADS_ON_BOARD = ["Ah", "Ad", "2c", "3d", "4c", "5d", "Kh", "Qc",
                  "8h", "8d", "8c", "8s", "Kd"]
QUADS_BEATEN_ON_BOARD_2 = ["9s", "9c", "2c", "3d", "4c", "5d", "Ad", "Ah",
                           "3c", "4d", "7h",  # flop 1
                           "9h", "9d", "Ac",  # flop 2
                           "Td", "As",  # the turns
                           "2h", "2s"]  # the rivers


def test_hold_em_quads_must_use_both_hole_cards(engine: Engine) -> None:
    """Four eights on the board are every player's quads if any five of seven cards may
    play, but hold'em's bad beat needs both hole cards playing: nobody qualifies."""
    setup(engine, bad_beat=QUADS_EIGHTS)
    table = CashTable.open(engine, "t1", Stacked(QUADS_ON_BOARD))  # type: ignore[arg-type]
    for name in ("ann", "bob", "cid", "dan"):
        table.buy_in(name, 10_000, key=name)
    hand = table.start_hand()
    call_down(hand)
    assert hand.board == ["8h", "8d", "8c", "8s", "Kd"]
    assert all((hand.hand_value(seat) or 0) >= QUADS_EIGHTS.qualifying for seat in hand.shown)
    [judged] = hand.bad_beat_hands()
    assert max(judged.values()) < QUADS_EIGHTS.qualifying  # aces full at best
    assert table.finish_hand().shares == {}


def test_double_flop_judges_each_board_on_its_own(engine: Engine) -> None:
    """Quad nines beaten by quad aces on the second board pay the jackpot: bob's losing
    hand half of it, ann's winning hand a quarter, cid and dan 7.5 % each."""
    setup(engine, game="double-flop", bad_beat=QUADS_EIGHTS)
    table = CashTable.open(engine, "t1",
                           Stacked(QUADS_BEATEN_ON_BOARD_2))  # type: ignore[arg-type]
    for name in ("ann", "bob", "cid", "dan"):
        table.buy_in(name, 10_000, key=name)
    hand = table.start_hand()
    call_down(hand)
    assert hand.second_board == ["9h", "9d", "Ac", "As", "2s"]
    first, second = hand.bad_beat_hands()
    assert max(first.values()) < QUADS_EIGHTS.qualifying  # nothing on the first board
    assert sorted(v >= QUADS_EIGHTS.qualifying for v in second.values()) == [
        False, False, True, True]
    result = table.finish_hand()
    assert result.shares == {"bob": 5_000, "ann": 2_500, "cid": 750, "dan": 750}
    with transaction(engine) as s:
        assert recall_hand(s, result.round_id).same
        assert reconcile_jackpot(s, "bb").balanced and check(s).ok


def test_a_table_says_which_low_it_plays(engine: Engine) -> None:
    """A table's --hi-lo alone is RULINGS' literal reversal, not the analysis commands'
    default ace-to-five eight-or-better: its description names the low it plays."""
    setup(engine)
    with transaction(engine) as s:
        for name, kw, said in (
                ("o1", {"game": "omaha", "hi_lo": True}, "hi/lo (deuce-to-seven, no qualifier)"),
                ("o2", {"game": "omaha", "hi_lo": True, "low_rule": "ace-to-five",
                        "qualifier": "eight"}, "hi/lo (ace-to-five, eight or better)"),
                ("r1", {"game": "razz"}, "low (ace-to-five, no qualifier)"),
                ("h1", {"game": "holdem"}, "holdem no-limit, blinds")):
            create_table(s, name, small_blind=50, big_blind=100, min_buy_in=2_000,
                         **kw)  # type: ignore[arg-type]
            assert said in settings_of(find_table(s, name)).describe(), name


# -- recall and crash safety ----------------------------------------------------------------------
def test_recall_gives_the_same_stacks_and_catches_an_edited_record(engine: Engine) -> None:
    setup(engine, bad_beat=QUADS_EIGHTS)
    table = CashTable.open(engine, "t1", Stacked(NO_BEAT, BAD_BEAT))  # type: ignore[arg-type]
    for name in ("ann", "bob", "cid", "dan"):
        table.buy_in(name, 10_000, key=name)
    call_down(table.start_hand())
    table.finish_hand()
    call_down(table.start_hand())
    round_id = table.finish_hand().round_id
    with transaction(engine) as s:
        good = recall_hand(s, round_id)
        assert good.same
        assert good.recorded["finishing_stacks"] == good.replayed["finishing_stacks"]
        original = s.get(RoundRow, round_id).record  # type: ignore[union-attr]

    def edited(change: str, to: str) -> bool:
        with transaction(engine) as s:
            row = s.get(RoundRow, round_id)
            assert row is not None
            record = json.loads(original)
            if change == "phh":
                record["phh"] = record["phh"].replace(*to.split("|"))
            elif change == "rake":
                record["rake"] = int(to)
            elif change == "seats":
                record["seats"][0][2] += int(to)
            else:
                record["jackpot"]["shares"]["ann"] += int(to)
            row.record = json.dumps(record)
        with transaction(engine) as s:
            return recall_hand(s, round_id).same

    stacks = json.loads(original)["phh"].split("finishing_stacks = ")[1].split("\n")[0]
    assert not edited("phh", f"finishing_stacks = {stacks}|finishing_stacks = "
                             f"{stacks.replace('9', '8', 1)}")
    assert not edited("phh", "8s8h|8s7h")  # a card changed: ann's quads are gone
    assert not edited("rake", "25")
    assert not edited("seats", "100")
    assert not edited("jackpot", "1")
    with transaction(engine) as s:
        row = s.get(RoundRow, round_id)
        assert row is not None
        row.record = original
    with transaction(engine) as s:
        assert recall_hand(s, round_id).same


def test_a_crash_mid_hand_voids_it_and_reopening_restores_the_seats(engine: Engine) -> None:
    setup(engine)
    table = CashTable.open(engine, "t1", SeededRng(3))
    for name in ("ann", "bob", "cid"):
        table.buy_in(name, 5_000, key=name)
    call_down(table.start_hand())
    table.finish_hand()
    button = table.table.button
    table.buy_in("dan", 3_000, key="dan")  # after the last record: restored from the ledger
    table.cash_out("bob", key="bob-out")
    table.sit_out("cid")
    start = table.chips()
    hand = table.start_hand()
    hand.act("raise", 1_000)
    hand.act("call")  # chips committed, then the process dies
    assert held(engine) == table.chips_on_table() == sum(start.values())
    again = CashTable.open(engine, "t1", SeededRng(4))
    assert again.chips() == start and again.hands == 1
    assert again.table.button == button  # as after the last recorded hand
    assert [s.sitting_out for s in again.table.seats if s] == [False, False, False]
    next_hand = again.start_hand()
    call_down(next_hand)
    assert again.finish_hand().hand == 2
    assert held(engine) == again.chips_on_table()
    for name in list(again.chips()):
        again.cash_out(name, key=f"{name}-final")
    assert held(engine) == 0
    assert CashTable.open(engine, "t1", SeededRng(5)).chips() == {}
    with transaction(engine) as s:
        assert check(s).ok and reconcile_table(s, "t1").balanced


def test_bad_settings_are_refused(engine: Engine) -> None:
    setup(engine)
    for kwargs, message in (
            ({"name": "t1"}, "exists"),
            ({"name": "bad name"}, "table name"),
            ({"game": "bridge"}, "unknown game"),
            ({"min_buy_in": 50}, "at least the big blind"),
            ({"small_blind": 200}, "blinds"),
            ({"jackpot": "x"}, "both its name and its rules"),
            # a low game's bad beat would be judged on high hands that win no pot
            ({"game": "razz", "jackpot": "x", "bad_beat": QUADS_EIGHTS}, "razz is a low game"),
            ({"game": "triple-draw", "jackpot": "x", "bad_beat": QUADS_EIGHTS}, "low game")):
        args: dict[str, object] = {"name": "t2", "game": "holdem", "small_blind": 50,
                                   "big_blind": 100, "min_buy_in": 2_000, **kwargs}
        with pytest.raises(PokerTableError, match=message), transaction(engine) as s:
            create_table(s, **args)  # type: ignore[arg-type]
    with pytest.raises(PokerTableError, match="no poker table"):
        CashTable.open(engine, "nowhere", SeededRng(1))


# -- the terminal ----------------------------------------------------------------------------------
def test_poker_play_on_the_wallet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pelisali.cli.main import app
    from pelisali.platform.db import make_engine

    url = f"sqlite:///{tmp_path / 'casino.db'}"
    monkeypatch.setenv("PELISALI_DATABASE_URL", url)
    runner = CliRunner()

    def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
        result = runner.invoke(app, list(args), input=stdin)
        return result.exit_code, " ".join(result.output.split())

    assert run("account", "create", "ann", "--born", "1990-05-01", "--country", "FI")[0] == 0
    assert run("wallet", "deposit", "ann", "100")[0] == 0
    code, out = run("poker", "play", "--account", "ann", "--seed", "3", stdin="quit\n")
    assert code == 2 and "house fund" in out  # the bots need the house's money
    assert money(make_engine(url))["player:ann"] == 10_000  # and nothing moved
    assert run("house", "fund", "1000", "--staff", "owner")[0] == 0
    code, out = run("poker", "play", "--account", "ann", "--buy-in", "1", stdin="quit\n")
    assert code == 2 and "minimum buy-in" in out
    script = "\n".join(["call", "check", "check", "check", "raise 5", "fold", "dance",
                        "call", "quit"])
    code, out = run("poker", "play", "--account", "ann", "--seed", "3", "--players", "3",
                    "--buy-in", "20", stdin=script)
    assert code == 0, out
    assert "ann sits at poker-ann with 20.00" in out and "(nothing changed)" in out
    assert "cashed out" in out
    db = make_engine(url)
    after = money(db)
    assert after["table:poker-ann"] == 0
    with transaction(db) as s:
        rounds = s.scalars(select(RoundRow)).all()
        assert rounds and all(recall_hand(s, r.id).same for r in rounds)
        assert after["player:ann"] + after["fee:poker-ann"] + after[HOUSE_SEATS] + after[
            "house:bank"] == 10_000 + 100_000
        assert check(s).ok and verify_audit(s).ok
    assert f"wallet {after['player:ann'] // 100}." in out
    code, out = run("recall", str(rounds[0].id))
    assert code == 0 and "replay gives the same settlement" in out and "finishing_stacks" in out
    code, out = run("report", "day", "--date", rounds[0].gaming_day.isoformat(), "--json")
    [day] = json.loads(out)
    assert day["game"].startswith("poker") and (day["rounds"], day["bets"]) == (len(rounds), 0)
    assert day["fee"] == after["fee:poker-ann"] and day["ggr"] == day["fee"]
    assert day["theoretical_rtp"] is None
    code, out = run("poker", "play", "--account", "ann", "--game", "stud", stdin="quit\n")
    assert code == 2 and "choose another --table" in out  # poker-ann deals hold'em
    code, out = run("poker", "play", "--account", "ann", "--game", "stud", "--seed", "3",
                    "--players", "3", "--table", "stud-ann", stdin="fold\nquit\n")
    assert code == 0 and "ann cashed out" in out, out  # leaving posts the bring-in due
    code, out = run("poker", "play", "--account", "bob", stdin="quit\n")
    assert code == 2 and "no player 'bob'" in out
    # jacks or better to open on the wallet: a deal nobody opens is dealt again, recorded
    code, out = run("poker", "play", "--account", "ann", "--game", "draw", "--openers",
                    "--seed", "2", "--players", "3", "--table", "jb-ann",
                    stdin="check\nquit\n")
    assert code == 0 and "nobody opened: the antes stay" in out, out
    with transaction(db) as s:
        table_id = find_table(s, "jb-ann").id
        hands = s.scalars(select(RoundRow).where(RoundRow.table_id == table_id)).all()
        assert hands and all(recall_hand(s, r.id).same for r in hands)
        assert reconcile_table(s, "jb-ann").balanced and check(s).ok


def test_an_openers_table_deals_again_records_and_recalls_the_same(engine: Engine) -> None:
    """Five Card Draw, jacks or better to open, on the wallet: a deal nobody opens is dealt
    again from a fresh deck with the antes in the pot; the record keeps every card of
    every deal, so recall replays the hand, and an edited card of a later deal shows."""
    setup(engine, "jb", "draw", openers=True)
    table = CashTable.open(engine, "jb", SeededRng(7))
    assert table.settings.openers and table.engine.game_id == "draw-openers"
    assert table.settings.ante == 50 and "jacks or better to open" in table.settings.describe()
    with transaction(engine) as s:
        stored_settings = json.loads(find_table(s, "jb").settings)
        assert find_table(s, "jb").variant == "fl5dj" and stored_settings["openers"] is True
    del stored_settings["openers"]  # a table stored before the setting: no openers
    assert TableSettings.from_json(stored_settings).openers is False
    for name in PLAYERS[:4]:
        table.buy_in(name, 10_000, key=name)
    chooser = random.Random(1)
    redealt: list[tuple[int, int]] = []
    for _ in range(10):
        hand = table.start_hand()
        play_out(hand, chooser, ("rules",))
        done = table.finish_hand()
        if hand.redeals:
            redealt.append((done.round_id, hand.redeals))
    assert redealt
    with transaction(engine) as s:
        assert all(recall_hand(s, r.id).same for r in s.scalars(select(RoundRow)))
        assert reconcile_table(s, "jb").balanced
    round_id, redeals = redealt[0]
    data = stored(engine, round_id)
    record = read_record(data, FAMILY)
    assert as_poker(rebuild(record, FAMILY)).hand.redeals == redeals
    again = CashTable.open(engine, "jb", SeededRng(8))
    assert (again.chips(), again.hands) == (table.chips(), table.hands)
    # Two cards of the second deal (the first cards after the seats' checks) swapped
    # between two players: the record no longer recalls the same.
    history = data["history"]
    acted = next(i for i, m in enumerate(history) if m["actor"] != CHANCE)
    second = next(i for i in range(acted, len(history)) if history[i]["actor"] == CHANCE)
    swap = second + 5  # the next player's first card: five cards each
    assert all(history[i]["actor"] == CHANCE for i in range(second, swap + 1))
    history[second]["text"], history[swap]["text"] = (history[swap]["text"],
                                                      history[second]["text"])
    with transaction(engine) as s:
        row = s.get(RoundRow, round_id)
        assert row is not None
        row.record = json.dumps(data)
    with transaction(engine) as s:
        assert not recall_hand(s, round_id).same


# -- the table layer: the version-2 record, version 1, the hand engine before -----------------
V1 = json.loads((Path(__file__).parent / "data" / "poker_tables_v1.json").read_text())


@pytest.fixture
def sqlite(tmp_path: Path) -> Iterator[Engine]:
    yield from fresh_engine("sqlite", tmp_path)


def stored(engine: Engine, round_id: int) -> dict[str, Any]:
    with transaction(engine) as s:
        row = s.get(RoundRow, round_id)
        assert row is not None
        found: dict[str, Any] = json.loads(row.record)
        return found


def test_a_hand_is_a_version_2_record_rebuilt_by_replay(sqlite: Engine) -> None:
    setup(sqlite)
    table = CashTable.open(sqlite, "t1", SeededRng(1))
    table.buy_in("ann", 10_000, key="a")
    table.buy_in("bob", 8_000, key="b")
    hand = table.start_hand()
    with pytest.raises(PokerError, match="50 to call: call, raise or fold"):
        hand.act("check")  # ann, the small blind, owes 50: refused as the hand engine did
    before = hand.play
    with pytest.raises(PokerError, match="outside"):
        hand.act("raise", 99_999)
    assert hand.play is before  # nothing changed
    hand.act("raise", 300)
    hand.act("fold")
    done = table.finish_hand()
    data = stored(sqlite, done.round_id)
    record = read_record(data, FAMILY)
    assert (record.version, record.game, record.status) == (2, "holdem", "settled")
    assert (record.players, record.stacks, record.button) == (["ann", "bob"], [10_000, 8_000], 0)
    assert [m.text for m in record.history if m.actor != CHANCE] == ["raise 300", "fold"]
    assert len(record.dealt()) == 4  # two hole cards each, one at a time
    poker = PokerHandRecord.of(record)
    assert (poker.hand, poker.table_seats, poker.jackpot) == (1, [0, 1], None)
    assert poker.result == ResultRecord(finishing_stacks=[10_090, 7_900], rake=10)
    assert (data["hand"], data["rake"], data["seats"]) == (
        1, 10, [[0, "ann", 10_090, False], [1, "bob", 7_900, False]])
    assert data["phh"].endswith('players = ["bob", "ann"]\n')  # from the dealer's left
    state = rebuild(record, FAMILY)
    assert state.is_terminal() and state.returns() == (90, -100)
    assert dict(state.accounts()) == {"seat 0": 90, "seat 1": -100, "table": 0, "fee": 10,
                                      "jackpot": 0}
    assert write_record(record, FAMILY.derived(state, record)) == json.dumps(data,
                                                                             sort_keys=True)


def test_the_tables_deal_and_settle_as_the_hand_engine_did(sqlite: Engine) -> None:
    """The same generator deals the same cards, the same decisions make the same hands:
    every hand's PHH, the chips after it and the rake, against the hand engine's own table
    (:class:`pelisali.poker.session.PokerTable`), in games whose deck cannot run out."""
    two_pair = BadBeatRules(qualifying=pack(2, [1, 0]), min_players=3, contribution=20,
                            losing_share=Fraction(1, 2), winning_share=Fraction(1, 4),
                            table_share=Fraction(1, 10), guaranteed_minimum=2_000)
    games: list[tuple[str, dict[str, Any], int]] = [
        ("holdem", {"bad_beat": two_pair}, 6), ("omaha", {}, 5), ("stud", {}, 5),
        ("razz", {}, 4), ("pineapple", {}, 3), ("crazy-pineapple", {}, 3),
        ("courchevel", {}, 4), ("double-flop", {}, 3), ("draw", {}, 4), ("lowball", {}, 4),
        ("triple-draw", {}, 2),
        ("omaha", {"structure": "limit", "hi_lo": True, "low_rule": "ace-to-five",
                   "qualifier": "eight"}, 4)]
    with transaction(sqlite) as s:
        move(s, "fund", "external:owner", "house:bank", HOUSE, "funding")
        for name in PLAYERS:
            accounts.register(s, name, date(1990, 1, 1), "FI")
            accounts.deposit(s, name, 10 * DEPOSIT, key=f"d-{name}")
    for number, (game, kw, seated) in enumerate(games):
        name = f"d{number}"
        with transaction(sqlite) as s:
            create_table(s, name, game, small_blind=50, big_blind=100, min_buy_in=2_000,
                         rake=RAKE, rake_cap=300, jackpot="j" + name if kw.get("bad_beat")
                         else None, **kw)
            settings = settings_of(find_table(s, name))
        table = CashTable.open(sqlite, name, SeededRng(number))
        old = PokerTable(settings.variant(), 50, 100, 2_000, SeededRng(number),
                         ante=settings.ante, bring_in=settings.bring_in, fee_percent=RAKE,
                         fee_cap=300, jackpot=BadBeatJackpot(two_pair, amount=2_000)
                         if kw.get("bad_beat") else None)
        for player in PLAYERS[:seated]:
            table.buy_in(player, 3_000, key=f"{name}-{player}")
            old.sit(player, 3_000)
        new_bots, old_bots = random.Random(number), random.Random(number)
        for count in range(8):
            hand, before = table.start_hand(), old.start_hand()
            play_out(hand, new_bots, ("random", "rules"))
            play_out(before, old_bots, ("random", "rules"))
            result = table.finish_hand()
            old.finish_hand()
            assert stored(sqlite, result.round_id)["phh"].startswith(before.phh()), (game,
                                                                                   count)
            assert result.rake == before.fee - before.jackpot_taken
            assert result.chips == {s.player: s.chips for s in old.seats if s is not None}
            for player, chips in result.chips.items():  # a bust player buys in again
                if chips < 100:
                    table.buy_in(player, 2_000, key=f"{name}-{player}-{count}")
                    old.buy_chips(player, 2_000)
        with transaction(sqlite) as s:
            assert reconcile_table(s, name).balanced


def test_pokerkit_replays_a_recorded_hand(sqlite: Engine) -> None:
    """The record's PHH (a table without rake: PHH has none) replays in PokerKit to the
    finishing stacks; a draw game's reshuffled stub included."""
    notation = pytest.importorskip("pokerkit.notation")
    for game in ("holdem", "triple-draw"):
        with transaction(sqlite) as s:
            if game == "holdem":
                move(s, "fund", "external:owner", "house:bank", HOUSE, "funding")
                for name in PLAYERS:
                    accounts.register(s, name, date(1990, 1, 1), "FI")
                    accounts.deposit(s, name, DEPOSIT, key=f"d-{name}")
            create_table(s, game, game, small_blind=50, big_blind=100, min_buy_in=2_000)
        table = CashTable.open(sqlite, game, SeededRng(31))
        for name in PLAYERS:
            table.buy_in(name, 3_000, key=f"{game}-{name}")
        chooser = random.Random(31)
        for _ in range(6):
            play_out(table.start_hand(), chooser, ("random", "rules"))
            data = stored(sqlite, table.finish_hand().round_id)
            with warnings.catch_warnings():  # PokerKit warns when a reshuffled card is dealt
                warnings.simplefilter("ignore")
                last = list(notation.HandHistory.loads(data["phh"]))[-1]
            assert list(last.stacks) == tomllib.loads(data["phh"])["finishing_stacks"]


def load_v1(engine: Engine) -> None:
    """The database the version-1 tables wrote (``tests/data/poker_tables_v1.json``): its
    players, its tables and jackpot as they were made, every round's record as written and
    every transfer again in its order, each with the id it had."""
    with transaction(engine) as s:
        for name in V1["setup"]["players"]:
            accounts.register(s, name, date.fromisoformat(V1["setup"]["born"]),
                              V1["setup"]["country"])
        for t in V1["tables"]:
            name, now = t["create"]["name"], now_utc()
            row = GameTable(name=name, game="poker", variant=t["variant"],
                            settings=t["settings"], limit_min=t["limit_min"],
                            limit_max=t["limit_max"], mode="rng", gaming_day=now.date(),
                            created_at=now)
            s.add(row)
            s.flush()
            open_account(s, f"table:{name}", "table")
            open_account(s, f"fee:{name}", "fee")
            if t["jackpot"] is not None:
                s.add(Jackpot(table_id=row.id, created_at=now, **t["jackpot"]))
                s.flush()
                for code in (jackpots.pool(t["jackpot"]["name"]),
                             jackpots.accrual(t["jackpot"]["name"])):
                    open_account(s, code, "jackpot")
    with transaction(engine) as s:
        tables = {t.name: t for t in s.scalars(select(GameTable))}
        for r in V1["rounds"]:
            table, now = tables[r["table"]], now_utc()
            found = RoundRow(table_id=table.id, status=RoundStatus(r["status"]),
                             gaming_day=table.gaming_day, opened_at=now,
                             deadline=now + timedelta(hours=24), finished_at=now,
                             record=json.dumps(r["record"], sort_keys=True))
            s.add(found)
            s.flush()
            assert found.id == r["id"]
        for t in V1["transfers"]:
            made = move(s, t["key"], t["source"], t["target"], t["amount"], t["kind"],
                        reason=t["reason"], round_id=t["round_id"])
            assert made.id == t["id"]
    assert money(engine) == V1["balances"]


def test_every_version_1_hand_reads_as_version_2() -> None:
    """Each hand the tables recorded before version 2 reads as a version-2 record whose
    history replays to the hand the PHH tells: what the record shows for readers is what
    the version-1 record held (the PHH, rake, jackpot, seats and hand number)."""
    for r in V1["rounds"]:
        old = r["record"]
        record = read_record({**old, "round_id": r["id"]}, FAMILY)
        assert (record.version, record.round_id, record.players) == (2, r["id"],
                                                                   old["players"])
        poker = PokerHandRecord.of(record)
        assert poker.table_seats[record.button] == old["button"]
        state = rebuild(record, FAMILY)
        assert state.is_terminal()
        derived = json.loads(json.dumps(FAMILY.derived(state, record)))
        assert {k: derived[k] for k in ("hand", "phh", "rake", "jackpot", "seats")} == {
            k: old[k] for k in ("hand", "phh", "rake", "jackpot", "seats")}, r["id"]
        assert read_record(write_record(record, derived), FAMILY) == record


def test_a_version_1_database_recalls_restores_and_plays_on(engine: Engine) -> None:
    load_v1(engine)
    with transaction(engine) as s:
        for r in V1["rounds"]:
            found = recall_hand(s, r["id"])
            assert found.same, (r["id"], found)
            before = V1["recalled"][str(r["id"])]
            assert found.recorded == before["recorded"]
            if before["same"]:
                assert found.replayed == before["replayed"]
            else:  # its stub ran out: the hand engine could not replay the reshuffled cards
                assert "cannot hold" in before["problem"]
    for name, then in V1["next"].items():
        table = CashTable.open(engine, name, SeededRng(99))
        assert (table.chips(), table.hands, table.table.button) == (
            then["chips"], then["hands"], then["button"])
        assert [s.player for s in table.table.seats if s and s.sitting_out] == \
            then["sitting_out"]
        if "result" not in then:
            continue
        hand = table.start_hand()
        assert table.in_hand == then["in_hand"]
        play_out(hand, random.Random(99), ("random", "rules"))
        result, was = table.finish_hand(), then["result"]
        assert (result.hand, result.rake, result.contribution, result.shares,
                result.topped_up, result.chips) == (
            was["hand"], was["rake"], was["contribution"], was["shares"], was["topped_up"],
            was["chips"]), name
        data = stored(engine, result.round_id)
        assert data["version"] == 2 and data["phh"].startswith(was["phh"])
        with transaction(engine) as s:
            assert recall_hand(s, result.round_id).same
            assert reconcile_table(s, name).balanced
        again = CashTable.open(engine, name, SeededRng(1))
        assert (again.chips(), again.hands) == (table.chips(), table.hands)
    with transaction(engine) as s:
        assert reconcile_jackpot(s, "bb").balanced
        ledger = check(s)
        assert ledger.ok, ledger.problems
        assert verify_audit(s).ok


def test_an_edited_version_1_hand_does_not_recall_the_same(sqlite: Engine) -> None:
    load_v1(sqlite)
    beat = next(r for r in V1["rounds"] if r["record"]["jackpot"]
                and r["record"]["jackpot"]["shares"])

    def recalled(change: Callable[[dict[str, Any]], None]) -> HandRecall:
        record = copy.deepcopy(beat["record"])
        change(record)
        with transaction(sqlite) as s:
            row = s.get(RoundRow, beat["id"])
            assert row is not None
            row.record = json.dumps(record)
        with transaction(sqlite) as s:
            return recall_hand(s, beat["id"])

    assert recalled(lambda r: None).same

    def card(r: dict[str, Any]) -> None:
        r["phh"] = r["phh"].replace("8s8h", "8s7h")  # ann's four eights are gone

    def rake(r: dict[str, Any]) -> None:
        r["rake"] += 1

    def seats(r: dict[str, Any]) -> None:
        r["seats"][0][2] += 100

    def shares(r: dict[str, Any]) -> None:
        r["jackpot"]["shares"]["ann"] += 1

    def action(r: dict[str, Any]) -> None:
        r["phh"] = r["phh"].replace('"p4 sm AsAh"]', '"p4 sm AsAh", "p1 cc"]')

    for change in (card, rake, seats, shares):
        assert not recalled(change).same, change.__name__
    found = recalled(action)
    assert not found.same and "do not fit the hand" in found.problem
