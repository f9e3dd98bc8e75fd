"""Pai Gow Poker on the persistent wallet, on SQLite and PostgreSQL: the ante debited at
the deal, the setting (the two cards of the low hand, or the house way) staking nothing,
every bet paid exactly what the engine settles (hands stacked, worked out by hand: a win
1:1 with the 5 % commission rounded up to the cent taken back as a transfer of its own,
a push, a loss, copies to the dealer, a foul losing what would have won, the joker an
ace), retries answered once, a key sent with another request refused, illegal settings
refused with nothing changed, a round left waiting set by the house way after 24 hours
(GGPoker house rules 2.3), a provably fair round dealt from its own 53-card deck (checked
by the standard-library script too), the commission the house's revenue and the
player's loss, recall by replay, and the ledger whole throughout."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from banked_fixtures import StackedDeck, house, whole
from banked_fixtures import replayed as replayed_round
from dbfixtures import setup, stored, wallet
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, select
from sqlalchemy.orm import aliased

from pelisali.engine.pai_gow import PaiGowState
from pelisali.games.pai_gow import PAI_GOW_DECK, house_way
from pelisali.platform import accounts, fairness, queries, tables
from pelisali.platform.banked_rounds import (
    create_banked_table,
    deal,
    decide,
    playing,
    recall_banked_round,
    recover_banked_rounds,
)
from pelisali.platform.db import transaction
from pelisali.platform.ledger import KeyConflict, balance
from pelisali.platform.models import Account, AuditEntry, BetRow, GameTable, Transfer
from pelisali.platform.report import day_report
from pelisali.platform.rounds import TableError
from pelisali.platform.table_layer import cards_of
from pelisali.rng import SeededRng

AT = datetime(2026, 12, 8, 12, 0, tzinfo=UTC)
MONEY = 200_000
TABLE = "pai-gow-ann"
SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "verify_round.py"
# The dealer's seven in every stacked round: no pair, no straight, no flush, so the house
# way puts the ace in back with the three lowest and the second and third highest in
# front: high Ac 6s 5d 3c 2c (ace high), low Jd 8h.
DEALER = "Ac Jd 8h 6s 5d 3c 2c"


Stacked = partial(StackedDeck, deck=PAI_GOW_DECK)
replayed = partial(replayed_round, "pai-gow-poker", kind=PaiGowState)


@pytest.fixture
def casino(engine: Engine) -> Engine:
    setup(engine, ("ann", "bob"), money=MONEY)
    with transaction(engine) as s:
        create_banked_table(s, TABLE, "pai-gow-poker")
        create_banked_table(s, "pai-gow-bob", "pai-gow-poker")
    return engine


def moved(engine: Engine, round_id: int) -> list[tuple[str, str, str, int]]:
    """The round's transfers: kind, from, to, amount, in order."""
    source, target = aliased(Account), aliased(Account)
    with transaction(engine) as s:
        return [(str(kind), a, b, amount) for kind, a, b, amount in s.execute(
            select(Transfer.kind, source.code, target.code, Transfer.amount)
            .join(source, source.id == Transfer.source_id)
            .join(target, target.id == Transfer.target_id)
            .where(Transfer.round_id == round_id).order_by(Transfer.id))]


# Each: the ante, the box's seven, the setting, what the bet paid back, the commission
# and the result, worked out by hand against DEALER (high A-6-5-3-2, low J-8).
HANDS = [
    pytest.param(  # kings over ace high, Q-9 over J-8: 1:1, 5 % of 10.10 is 0.505 → 0.51
        1_010, "Kc Kd Qh 9s 7d 4c 2h", "set Qh 9s", 2_020, 51,
        "win: high box, low box", id="win-commission-rounded-up"),
    pytest.param(  # the same hand set by the house way (the pair in back, Q-9 in front);
        # 5 % of 9.99 is 0.4995 → 0.50
        999, "Kc Kd Qh 9s 7d 4c 2h", "house", 1_998, 50, "win: high box, low box",
        id="house-way-win"),
    pytest.param(  # kings win, 7-4 loses to J-8: a push, no commission
        1_000, "Kc Kd Qh 9s 7d 4c 2h", "set 7d 4c", 1_000, 0,
        "push: high box, low dealer", id="push"),
    pytest.param(  # kings win, J-8 against J-8 is a copy, the dealer's: a push, not a win
        1_000, "Kc Kd Js 8c 7d 4c 2h", "set Js 8c", 1_000, 0,
        "push: high box, low copy", id="low-copy-pushes"),
    pytest.param(  # A-6-5-3-2 and J-8 against the same: both copies, the dealer's: lost
        1_000, "As 6c 5h 3s 2d Jc 8s", "set Jc 8s", 0, 0, "lose: high copy, low copy",
        id="copies-lose"),
    pytest.param(  # ten high and 9-8: both below
        1_000, "Tc 8d 6h 4s 3d 2h 9h", "set 9h 8d", 0, 0, "lose: high dealer, low dealer",
        id="loss"),
    pytest.param(  # kings in front, A-Q-9-7-4 behind: both would beat the dealer's, but
        # the low hand ranks above the high hand: a foul, taken and lost
        1_000, "Kc Kd Ah Qs 9d 7c 4h", "set Kc Kd", 0, 0, "lose, fouled", id="foul"),
    pytest.param(  # the joker an ace: a pair of aces behind, K-Q in front
        2_000, "Jk As Kh Qd 7c 4h 2s", "set Kh Qd", 4_000, 100, "win: high box, low box",
        id="joker"),
]


@pytest.mark.parametrize(("ante", "box", "setting", "paid", "commission", "result"), HANDS)
def test_each_setting_is_paid_exactly_and_the_commission_is_its_own_transfer(
        casino: Engine, ante: int, box: str, setting: str, paid: int, commission: int,
        result: str) -> None:
    rng = Stacked(f"{box} {DEALER}")
    bank = house(casino)
    with transaction(casino) as s:
        view = deal(s, TABLE, "ann", {"ante": ante}, key="k0", rng=rng, at=AT)
    assert (view.status, view.staked, len(view.actions)) == ("playing", ante, 22)
    assert view.actions[0] == "house" and all(a.startswith("set ") for a in view.actions[1:])
    shown = view.view
    assert shown["cards"] == box.split() and shown["dealer_high"] == []
    assert shown["dealer_low"] == [] and shown["dealer_hand"] is None
    high, low = house_way(box.split())
    assert shown["house_way"] == {"high": list(high), "low": list(low)}  # the suggestion
    assert wallet(casino, "ann") == MONEY - ante
    with transaction(casino) as s:
        done = decide(s, TABLE, "ann", setting, key="k1", rng=rng, at=AT)
    assert rng.cards == []  # every card stacked was dealt, none more
    assert done.status == "settled" and done.actions == ()
    assert (done.staked, done.paid, done.view["commission"]) == (ante, paid, commission)
    assert done.view["dealer_high"] == ["Ac", "6s", "5d", "3c", "2c"]
    assert done.view["dealer_low"] == ["Jd", "8h"] and done.view["dealer_hand"] == "high_card"
    mine = low if setting == "house" else tuple(setting.split()[1:])
    assert done.view["low"] == list(mine) and done.view["foul"] == (result == "lose, fouled")
    assert [(x["spot"], x["stake"], x["paid"], x["result"]) for x in done.view["settlements"]] \
        == [("ante", ante, paid, result)]
    assert wallet(casino, "ann") == MONEY - ante + paid - commission == done.balance
    assert house(casino) == bank + ante - paid + commission
    ann = accounts.wallet_code("ann")
    assert moved(casino, done.round_id) == [
        ("stake", ann, "house:bank", ante),
        *([("win", "house:bank", ann, paid)] if paid else []),
        *([("commission", ann, "house:bank", commission)] if commission else [])]
    record = stored(casino, done.round_id)
    assert record["commission"] == commission
    assert record["dealer"] == ["Ac", "6s", "5d", "3c", "2c", "Jd", "8h"]
    engine = replayed(record)
    assert engine.returns() == (paid - commission - ante,)
    assert [c.amount for c in engine.commissions] == ([commission] if commission else [])
    with transaction(casino) as s:
        (row,) = s.scalars(select(BetRow).where(BetRow.round_id == done.round_id)).all()
        assert (row.spot, row.stake, row.paid, row.result) == (
            "ante", ante, paid, result.split(",")[0].split(":")[0])
        assert recall_banked_round(s, done.round_id).same and tables.recall(s, done.round_id).same
    whole(casino)


def test_a_player_banks_after_a_round_against_the_house_for_at_most_its_bet_and_10_percent(
        casino: Engine) -> None:
    """The bank (rule data ``[banking]``): refused before any round against the house's
    bank, above that round's bet and 10 %, and twice running; within them the dealer's hand
    plays against the player's, copies the bank's, a win 1:1 with the commission taken
    back as its own transfer."""
    with transaction(casino) as s, pytest.raises(TableError, match="a player banks after"):
        deal(s, TABLE, "ann", {"bank": 1_000}, key="b0", at=AT)
    rng = Stacked(f"Kc Kd Qh 9s 7d 4c 2h {DEALER}")
    with transaction(casino) as s:
        deal(s, TABLE, "ann", {"ante": 1_000}, key="a1", rng=rng, at=AT)
        decide(s, TABLE, "ann", "house", key="a2", rng=rng, at=AT)
    before = (wallet(casino, "ann"), house(casino))
    for bets, words in (({"bank": 1_101}, r"at most 11\.00: your last bet against the "
                                           r"house's bank, 10\.00, and 10 % more; not 11\.01"),
                        ({"bank": 500, "ante": 500}, "not both")):
        with transaction(casino) as s, pytest.raises(TableError, match=words):
            deal(s, TABLE, "ann", bets, key="b1", at=AT)
    assert (wallet(casino, "ann"), house(casino)) == before
    # the bank's A-6-5-3-2 and J-8 copy the dealer's both ways: the copies are the bank's
    rng = Stacked(f"Ah 6h 5s 3s 2d Jc 8d {DEALER}")
    with transaction(casino) as s:
        dealt = deal(s, TABLE, "ann", {"bank": 1_100}, key="b2", rng=rng, at=AT)
        assert dealt.view["bets"] == [{"bet_id": 1, "spot": "bank", "stake": 1_100}]
        done = decide(s, TABLE, "ann", "house", key="b3", rng=rng, at=AT)
    assert (done.status, done.paid, done.view["commission"]) == ("settled", 2_200, 55)
    assert done.view["settlements"][0]["result"] == "win: high copy, low copy (the bank's)"
    assert wallet(casino, "ann") == before[0] - 1_100 + 2_200 - 55 == done.balance
    assert house(casino) == before[1] + 1_100 - 2_200 + 55
    ann = accounts.wallet_code("ann")
    assert moved(casino, done.round_id) == [("stake", ann, "house:bank", 1_100),
                                            ("win", "house:bank", ann, 2_200),
                                            ("commission", ann, "house:bank", 55)]
    assert replayed(stored(casino, done.round_id)).returns() == (1_100 - 55,)
    with transaction(casino) as s, pytest.raises(TableError, match="every other round"):
        deal(s, TABLE, "ann", {"bank": 1_000}, key="b4", at=AT)
    with transaction(casino) as s:
        assert recall_banked_round(s, done.round_id).same
    whole(casino)


def test_retries_are_answered_once_keys_are_bound_and_refusals_change_nothing(
        casino: Engine) -> None:
    with transaction(casino) as s, pytest.raises(TableError, match="no round waits"):
        decide(s, TABLE, "ann", "house", key="early", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="no bet 'bonus'"):
        deal(s, TABLE, "ann", {"ante": 500, "bonus": 500}, key="t0", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="under the table minimum"):
        deal(s, TABLE, "ann", {"ante": 50}, key="t1", at=AT)
    rng = Stacked(f"Jk As Kh Qd 7c 4h 2s {DEALER}")
    with transaction(casino) as s:
        first = deal(s, TABLE, "ann", {"ante": 1_000}, key="d1", rng=rng, at=AT)
    with transaction(casino) as s:
        assert deal(s, TABLE, "ann", {"ante": 1_000}, key="d1", at=AT) == first
        with pytest.raises(KeyConflict):
            deal(s, TABLE, "ann", {"ante": 2_000}, key="d1", at=AT)
        with pytest.raises(KeyConflict):  # the deal's key sent with a setting
            decide(s, TABLE, "ann", "set Kh Qd", key="d1", at=AT)
    for action, words in (("set 7h 2c", r"7h is not in seat 0's hand \(Jk As Kh Qd 7c 4h 2s\)"),
                          ("set Kh", "the low hand is 2 cards, not 1"),
                          ("set Kh Qd 2s", "the low hand is 2 cards, not 3"),
                          ("set joker JK", "Jk is named twice; the low hand is two cards"),
                          ("set Zz Kh", "'Zz' is not a card"),
                          ("set", "name the two cards of the low hand"),
                          ("fold", "is not an action here"),
                          ("bet ante 500", "no more bets")):
        with transaction(casino) as s, pytest.raises(TableError, match=words):
            decide(s, TABLE, "ann", action, key=f"bad-{action}", at=AT)
    with transaction(casino) as s, pytest.raises(TableError, match="is ann's"):
        decide(s, TABLE, "bob", "house", key="bob-1", at=AT)  # not bob's round
    with transaction(casino) as s:  # nothing changed: the round waits as it was dealt
        assert playing(s, TABLE) == first
    assert wallet(casino, "ann") == MONEY - 1_000 and wallet(casino, "bob") == MONEY
    with transaction(casino) as s:  # the cards named in any case, the joker as a word
        done = decide(s, TABLE, "ann", "set KH qd", key="s1", rng=rng, at=AT)
    assert done.status == "settled" and (done.paid, done.view["commission"]) == (2_000, 50)
    with transaction(casino) as s:  # the answer lost: sent again, answered, taken once
        assert decide(s, TABLE, "ann", "set Kh Qd", key="s1", rng=SeededRng(5), at=AT) == done
        for other in ("house", "set 7c 4h"):  # the setting's key with another setting
            with pytest.raises(KeyConflict):
                decide(s, TABLE, "ann", other, key="s1", at=AT)
        with pytest.raises(KeyConflict):  # and with a deal: it staked nothing, still bound
            deal(s, TABLE, "ann", {"ante": 1_000}, key="s1", at=AT)
        assert deal(s, TABLE, "ann", {"ante": 1_000}, key="d1", at=AT) == done  # as it is now
    with transaction(casino) as s, pytest.raises(TableError, match="no round waits"):
        decide(s, TABLE, "ann", "house", key="late", at=AT)
    assert wallet(casino, "ann") == MONEY - 1_000 + 2_000 - 50
    assert [m["text"] for m in stored(casino, done.round_id)["history"] if m["actor"] == 0] \
        == ["bet ante 1000", "done", "set Kh Qd"]
    whole(casino)


@pytest.mark.parametrize(("box", "paid", "commission"), [
    pytest.param("Kc Kd Qh 9s 7d 4c 2h", 2_000, 50, id="win"),  # Q-9 in front: both win
    pytest.param("Tc 8d 6h 4s 3d 2h 9h", 0, 0, id="loss"),  # 9-8 in front: both lose
])
def test_a_round_left_waiting_is_set_by_the_house_way_after_24_hours(
        casino: Engine, box: str, paid: int, commission: int) -> None:
    rng = Stacked(f"{box} {DEALER}")
    with transaction(casino) as s:
        dealt = deal(s, TABLE, "ann", {"ante": 1_000}, key="w1", rng=rng, at=AT)
    with transaction(casino) as s:
        assert recover_banked_rounds(s, rng=rng, at=AT + timedelta(hours=23)) == []
    with transaction(casino) as s:
        done = recover_banked_rounds(s, rng=rng, at=AT + timedelta(hours=24))
        assert done == [(dealt.round_id, "settled, the house decided house")]
    with transaction(casino) as s:
        entry = s.scalars(select(AuditEntry).where(
            AuditEntry.action == "banked_round_completed")).one()
        assert "GGPoker house rules 2.3" in entry.payload
        assert json.loads(entry.payload)["decision"] == "house"
        assert playing(s, TABLE) is None and recall_banked_round(s, dealt.round_id).same
    engine = replayed(stored(casino, dealt.round_id))
    assert engine.lows[0] == house_way(box.split())[1]  # the house way's front, as shown
    assert [(x.stake, x.paid) for x in engine.settlements] == [(1_000, paid)]
    assert [c.amount for c in engine.commissions] == ([commission] if commission else [])
    assert wallet(casino, "ann") == MONEY - 1_000 + paid - commission
    whole(casino)


def test_the_commission_is_the_house_s_revenue_and_the_player_s_loss(casino: Engine) -> None:
    """A win pays 1:1 in full and takes the commission back: the loss limits count it as
    lost, and the day report counts it in the gross gaming revenue."""
    rng = Stacked(f"Kc Kd Qh 9s 7d 4c 2h {DEALER}")
    with transaction(casino) as s:
        deal(s, TABLE, "ann", {"ante": 1_000}, key="c0", rng=rng, at=AT)
        done = decide(s, TABLE, "ann", "set Qh 9s", key="c1", rng=rng, at=AT)
    assert (done.paid, done.view["commission"]) == (2_000, 50)
    with transaction(casino) as s:
        player = accounts.find(s, "ann")
        assert accounts.lost(s, player, datetime(2000, 1, 1, tzinfo=UTC)) == -950
        table = s.scalars(select(GameTable).where(GameTable.name == TABLE)).one()
        (day,) = [r for r in day_report(s, table.gaming_day) if r.table == TABLE]
    assert (day.staked, day.paid, day.lines.get("commission"), day.ggr) == (
        1_000, 2_000, 50, -950)


def test_the_history_shows_the_win_paid_in_full_and_the_commission_taken(
        casino: Engine) -> None:
    """A win's line: paid the gross 1:1, its commission (5 % of 10.10 rounded up: 0.51)
    beside it; a push's none. Each on its bet, on whichever page it falls."""
    rng = Stacked(f"Kc Kd Qh 9s 7d 4c 2h {DEALER}", f"Kc Kd Qh 9s 7d 4c 2h {DEALER}")
    with transaction(casino) as s:
        deal(s, TABLE, "ann", {"ante": 1_010}, key="h0", rng=rng, at=AT)
        won = decide(s, TABLE, "ann", "set Qh 9s", key="h1", rng=rng, at=AT)
        deal(s, TABLE, "ann", {"ante": 1_000}, key="h2", rng=rng, at=AT)
        pushed = decide(s, TABLE, "ann", "set 7d 4c", key="h3", rng=rng, at=AT)
    with transaction(casino) as s:
        found = queries.history(s, "ann")
        first = queries.history(s, "ann", limit=1)
        rest = queries.history(s, "ann", bets_before=first.bets_before, limit=1)
        assert queries.history(s, "bob").bets == []
    assert [(b.round_id, b.spot, b.stake, b.paid, b.commission, b.result)
            for b in found.bets] == [
        (pushed.round_id, "ante", 1_000, 1_000, 0, "push"),
        (won.round_id, "ante", 1_010, 2_020, 51, "win")]
    assert first.bets + rest.bets == found.bets and rest.bets_before is None
    assert wallet(casino, "ann") == MONEY - 1_010 + 2_020 - 51


def test_a_fair_round_is_dealt_from_its_own_53_card_deck(casino: Engine, tmp_path: Path
                                                          ) -> None:
    """At a provably fair table the round's deck, the 52 and the joker after them, is
    shuffled from the seed pair: the box's seven, then the dealer's, in order; the
    revealed seed recomputes every card, in the package and in the standard-library
    script."""
    with transaction(casino) as s:
        name = fairness.set_fair(s, "ann", "pai-gow-poker", None, True)
        view = deal(s, name, "ann", {"ante": 500}, key="fair-1", at=AT)
        cards = view.view["cards"]
        view = decide(s, name, "ann", "house", key="fair-2", at=AT)
    record = stored(casino, view.round_id)
    order = cards_of(record["shuffle_order"])
    (proof,) = record["fair"]
    assert sorted(order) == sorted(PAI_GOW_DECK) and len(order) == 53
    assert [n for n, _ in proof["draws"]] == list(range(53, 1, -1))
    assert proof["nonce"] == 0 and record["shoe_positions"] == [0, 14]
    assert cards == order[:7]
    assert sorted(view.view["dealer_high"] + view.view["dealer_low"]) == sorted(order[7:14])
    with transaction(casino) as s:
        fairness.rotate(s, "ann")
    with transaction(casino) as s:
        found = fairness.verify(s, view.round_id)
        assert found.matches, found.problem
        assert found.recomputed == found.recorded == order[:14]
        assert found.shoe == {"decks": 1, "first": 0, "jokers": 1}
        proven = found.proof()
    path = tmp_path / "proof.json"

    def run(changed: dict[str, Any]) -> subprocess.CompletedProcess[str]:
        path.write_text(json.dumps(changed))
        return subprocess.run([sys.executable, "-I", "-S", str(SCRIPT), str(path)],
                              capture_output=True, text=True, check=False)

    good = run(proven)
    assert good.returncode == 0, good.stdout + good.stderr
    assert f"(1 deck(s) and 1 joker(s), top first): {' '.join(order)}\n" in good.stdout
    no_joker = run(proven | {"shoe": {"decks": 1, "first": 0}})
    assert no_joker.returncode == 1 and "not a shuffle of 52 cards" in no_joker.stdout
    whole(casino)


ROUNDS = itertools.count()  # each round's keys its own, across the examples
PLAN = st.lists(st.tuples(st.integers(0, 2**16), st.integers(100, 5_000),
                          st.integers(0, 21)), min_size=1, max_size=4)


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(plan=PLAN)
def test_money_is_conserved_over_random_rounds(
        casino: Engine, plan: list[tuple[int, int, int]]) -> None:
    """Whatever the cards and the setting (the house way or any of the 21, fouls
    included), the wallet moves by what was paid less the stake and the commission, the
    house's by the opposite, the commission is 5 % of a win rounded up and nothing goes
    negative."""
    for seed, ante, choice in plan:
        with transaction(casino) as s:
            start = (balance(s, accounts.wallet_code("ann")), balance(s, "house:bank"))
            rng = SeededRng(seed)
            key = f"p{next(ROUNDS)}"
            view = deal(s, TABLE, "ann", {"ante": ante}, key=key, rng=rng, at=AT)
            view = decide(s, TABLE, "ann", view.actions[choice], key=f"{key}-s", rng=rng,
                          at=AT)
        assert view.status == "settled"
        (settled,) = view.view["settlements"]
        commission, paid = view.view["commission"], view.paid or 0
        won = settled["result"].startswith("win")
        assert paid == {"win": 2 * ante, "push": ante, "lose": 0}[settled["result"][:4].strip(":,")]
        assert commission == (-(-ante * 5 // 100) if won else 0)
        assert not (view.view["foul"] and paid)  # a foul loses
        assert wallet(casino, "ann") == start[0] - ante + paid - commission >= 0
        assert house(casino) == start[1] + ante - paid + commission
    whole(casino)
