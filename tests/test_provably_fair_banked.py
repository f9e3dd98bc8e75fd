"""Provably fair draws at the banked card tables (every game of
platform/banked_family.py): a fair round shuffles its own full deck or shoe with the
player's seed pair, one nonce a round, and is dealt from it in order across the player's
decisions; the proof is in the record and the audit chain; the rotation waits for a
round in play; the revealed seed recomputes the deck and the cards in the package and
with the standard library alone; a changed record is caught."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from dbfixtures import setup, stored
from sqlalchemy import Engine, select, update

from pelisali.cards import DECK
from pelisali.platform import banked_rounds, fairness, tables
from pelisali.platform.banked_family import BANKED_GAMES
from pelisali.platform.db import transaction
from pelisali.platform.ledger import check, now_utc, verify_audit
from pelisali.platform.models import AuditEntry, RoundRow
from pelisali.platform.table_layer import cards_of
from pelisali.rng import FairRng, shuffle

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "verify_round.py"
START = 1_000_000
DECKS = {"three-card-poker": 1, "red-dog": 6, "ultimate-texas-holdem": 1}
JOKERS = {"pai-gow-poker": 1}  # its 53 cards: the deck and a joker after it
DRAWS_DIFFER = "the recorded draws are not the seeds' draws"
NOT_CHAINED = "the audit chain's proof is not the record's"
OUTCOME_DIFFERS = "the recorded outcome is not the seeds' outcome"


def fair_banked(engine: Engine, game: str, client: str = "ann-cards") -> str:
    with transaction(engine) as s:
        name = fairness.set_fair(s, "ann", game, None, True)
        fairness.set_client_seed(s, "ann", client)
        return name


def deal(engine: Engine, name: str, key: str) -> banked_rounds.BankedView:
    with transaction(engine) as s:
        return banked_rounds.deal(s, name, "ann", {"ante": 500}, key=key)


def play_out(engine: Engine, name: str, key: str, pick: int = 0) -> int:
    """A round dealt and played to its end, taking the ``pick``-th decision offered."""
    view = deal(engine, name, key)
    step = 0
    while view.status == "playing":
        with transaction(engine) as s:
            choice = view.actions[min(pick, len(view.actions) - 1)]
            view = banked_rounds.decide(s, name, "ann", choice, key=f"{key}-{step}")
        step += 1
    return view.round_id


def rotate(engine: Engine) -> str:
    with transaction(engine) as s:
        old, _ = fairness.rotate(s, "ann")
        return old.server_seed


def tamper(engine: Engine, round_id: int, change: Any) -> None:
    with transaction(engine) as s:
        row = s.get(RoundRow, round_id)
        assert row is not None
        data = json.loads(row.record)
        change(data)
        s.execute(update(RoundRow).where(RoundRow.id == round_id)
                  .values(record=json.dumps(data, sort_keys=True)))


def chance_cards(record: dict[str, Any]) -> list[str]:
    return [m["text"] for m in record["history"] if m["actor"] == -1]


@pytest.mark.parametrize("game", BANKED_GAMES)
def test_a_fair_banked_round_is_dealt_from_its_own_shuffled_deck(engine: Engine, game: str
                                                                ) -> None:
    """Three rounds under nonces 0, 1, 2, each a Fisher–Yates shuffle of the full deck or
    shoe (bounds 52·decks down to 2) dealt from in order across the decisions; the draws
    are withheld until the rotation reveals the seed, and the test's own shuffle with the
    revealed seed is the recorded order."""
    setup(engine, ("ann",), START)
    name = fair_banked(engine, game)
    ids = [play_out(engine, name, f"r{n}", pick=n) for n in range(3)]
    records = [stored(engine, i) for i in ids]
    decks, jokers = DECKS.get(game, 1), JOKERS.get(game, 0)
    fresh = list(DECK) * decks + ["Jk"] * jokers
    for nonce, record in enumerate(records):
        (proof,) = record["fair"]
        assert proof["nonce"] == nonce and proof["client_seed"] == "ann-cards"
        assert [n for n, _ in proof["draws"]] == list(range(len(fresh), 1, -1))
        order = cards_of(record["shuffle_order"])
        assert sorted(order) == sorted(fresh)
        dealt = chance_cards(record)
        assert dealt == order[:len(dealt)] and record["shoe_positions"] == [0, len(dealt)]
    with transaction(engine) as s:
        chained = [json.loads(p) for p in s.scalars(
            select(AuditEntry.payload).where(AuditEntry.action == "fair-round")
            .order_by(AuditEntry.id))]
        hidden = fairness.verify(s, ids[0])
    assert [c["round"] for c in chained] == ids
    assert [c["draws"] for c in chained] == [r["fair"][0]["draws"] for r in records]
    assert not hidden.matches and hidden.steps[0]["draws"] is None  # not before the reveal
    seed = rotate(engine)
    with transaction(engine) as s:
        for nonce, (round_id, record) in enumerate(zip(ids, records, strict=True)):
            found = fairness.verify(s, round_id)
            assert found.matches, found.problem
            assert found.recomputed == found.recorded == chance_cards(record)
            assert found.proof()["shoe"] == {"decks": decks, "first": 0,
                                             **({"jokers": jokers} if jokers else {})}
            mine = shuffle(fresh, FairRng(seed, "ann-cards", nonce))
            assert "".join(mine) == record["shuffle_order"]
            assert tables.recall(s, round_id).same
        assert check(s).ok and verify_audit(s).ok


def test_a_fair_round_in_play_keeps_its_seed_and_its_deck(engine: Engine) -> None:
    """While a round waits for its decision its seed is not revealed (it tells the
    dealer's cards and the cards to come) and it is not verified; the house's decision
    after 24 hours deals on from the same deck."""
    setup(engine, ("ann",), START)
    name = fair_banked(engine, "three-card-poker")
    view = deal(engine, name, "k")
    assert view.status == "playing"
    with pytest.raises(fairness.FairError, match="finish the round in play"), \
            transaction(engine) as s:
        fairness.rotate(s, "ann")
    with pytest.raises(fairness.FairError, match="in play"), transaction(engine) as s:
        fairness.verify(s, view.round_id)
    with transaction(engine) as s:
        done = banked_rounds.recover_banked_rounds(s, at=now_utc() + timedelta(hours=25))
    assert [round_id for round_id, _ in done] == [view.round_id]
    record = stored(engine, view.round_id)
    assert chance_cards(record) == cards_of(record["shuffle_order"])[:6]
    rotate(engine)
    with transaction(engine) as s:
        assert fairness.verify(s, view.round_id).matches


def test_a_banked_table_not_fair_draws_as_before(engine: Engine) -> None:
    setup(engine, ("ann",), START)
    with transaction(engine) as s:
        name = tables.own_table(s, "ann", "red-dog")
    round_id = play_out(engine, name, "k")
    record = stored(engine, round_id)
    assert "fair" not in record and record["shuffle_order"] is None
    with pytest.raises(fairness.FairError, match="not drawn provably fair"), \
            transaction(engine) as s:
        fairness.verify(s, round_id)


def swap_dealt(d: dict[str, Any]) -> None:
    """The round's first two cards exchanged, in its history and its shown cards."""
    chance = [m for m in d["history"] if m["actor"] == -1]
    chance[0]["text"], chance[1]["text"] = chance[1]["text"], chance[0]["text"]


def other_order(d: dict[str, Any]) -> None:
    """Two cards the round did not deal exchanged in the recorded deck order."""
    cards = cards_of(d["shuffle_order"])
    end = d["shoe_positions"][1]
    cards[end], cards[-1] = cards[-1], cards[end]
    d["shuffle_order"] = "".join(cards)


@pytest.mark.parametrize(("change", "problems"), [
    (swap_dealt, {OUTCOME_DIFFERS}),
    (other_order, {OUTCOME_DIFFERS}),
    (lambda d: d["fair"][0]["draws"][5].__setitem__(1, (d["fair"][0]["draws"][5][1] + 1) % 47),
     {DRAWS_DIFFER}),
    (lambda d: d["fair"][0].update(nonce=d["fair"][0]["nonce"] + 1), {DRAWS_DIFFER}),
    (lambda d: d["fair"][0].update(commitment="0" * 64),
     {"no seed pair has the round's commitment"}),
])
def test_a_changed_banked_record_does_not_verify(engine: Engine, change: Any,
                                                 problems: set[str]) -> None:
    setup(engine, ("ann",), START)
    name = fair_banked(engine, "three-card-poker")
    round_id = play_out(engine, name, "k")
    rotate(engine)
    tamper(engine, round_id, change)
    with transaction(engine) as s:
        found = fairness.verify(s, round_id)
    assert not found.matches and found.problem in problems


def test_a_banked_record_rewritten_for_another_client_seed_is_not_the_chains(
        engine: Engine) -> None:
    """The deck, cards and draws rewritten as the revealed seed would draw them under
    another client seed: the record agrees with itself, not with the audit chain."""
    setup(engine, ("ann",), START)
    name = fair_banked(engine, "three-card-poker")  # its decisions do not hang on the cards
    round_id = play_out(engine, name, "k", pick=1)
    seed = rotate(engine)

    def rewrite(d: dict[str, Any]) -> None:
        rng = FairRng(seed, "other", 0)
        order = shuffle(list(DECK), rng)
        d["shuffle_order"] = "".join(order)
        d["fair"][0].update(client_seed="other", draws=[[n, k] for n, k in rng.draws])
        chance = [m for m in d["history"] if m["actor"] == -1]
        for move, card in zip(chance, order, strict=False):
            move["text"] = card

    tamper(engine, round_id, rewrite)
    with transaction(engine) as s:
        found = fairness.verify(s, round_id)
    assert found.recomputed == found.recorded and found.problem == NOT_CHAINED


def test_the_standard_library_verifier_recomputes_the_deck_and_the_cards(
        engine: Engine, tmp_path: Path) -> None:
    """scripts/verify_round.py under a bare interpreter (-I -S) on a real round of
    Ultimate Texas Hold'em: the shuffled order from the draws, the cards dealt from it."""
    setup(engine, ("ann",), START)
    name = fair_banked(engine, "ultimate-texas-holdem")
    round_id = play_out(engine, name, "k")
    rotate(engine)
    with transaction(engine) as s:
        proof = fairness.verify(s, round_id).proof()
    record = stored(engine, round_id)
    path = tmp_path / "proof.json"

    def run(changed: dict[str, Any]) -> subprocess.CompletedProcess[str]:
        path.write_text(json.dumps(changed))
        return subprocess.run([sys.executable, "-I", "-S", str(SCRIPT), str(path)],
                              capture_output=True, text=True, check=False)

    good = run(proof)
    assert good.returncode == 0, good.stdout + good.stderr
    assert f"top first): {' '.join(cards_of(record['shuffle_order']))}\n" in good.stdout
    assert f"recorded {' '.join(chance_cards(record))}: matches" in good.stdout
    assert f"round {round_id} matches its seeds" in good.stdout
    first, second = proof["outcome"][:2]
    bad = run(proof | {"outcome": [second, first, *proof["outcome"][2:]]})
    assert bad.returncode == 1 and "the cards dealt are not the shuffled order's" in bad.stdout
    short = run(proof | {"shoe": {"decks": 2, "first": 0}})
    assert short.returncode == 1 and "not a shuffle of 104 cards" in short.stdout
