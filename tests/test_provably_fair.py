"""Provably fair draws (platform/fairness.py, rng.FairRng, scripts/verify_round.py):
a fair table's rounds are drawn from the player's seed pair, nonce by nonce; the
commitment is in the audit chain before the round and in the round's record; rotating
reveals the seed, and the revealed seed recomputes every round, in the package, at the
terminal and with the standard library alone; a changed record is caught."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from dbfixtures import setup, stored, wallet
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, func, select, update
from typer.testing import CliRunner

from pelisali.engine import CHANCE, Seats
from pelisali.engine.registry import GAMES
from pelisali.platform import fairness, tables
from pelisali.platform.db import transaction
from pelisali.platform.ledger import check, verify_audit
from pelisali.platform.models import AuditEntry, FairSeed, GameTable, RoundRow
from pelisali.platform.rng_desk import RngSlip, play_slips
from pelisali.platform.table_layer import cards_of
from pelisali.rng import FairRng, commitment, fair_word, scale

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "verify_round.py"
START = 1_000_000


def verifier() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_round", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fair_table(engine: Engine, player: str = "ann", game: str = "roulette",
               variant: str | None = "C", client: str | None = "ann-seed-1") -> str:
    with transaction(engine) as s:
        name = fairness.set_fair(s, player, game, variant, True)
        if client is not None:
            fairness.set_client_seed(s, player, client)
        return name


def play(engine: Engine, table: str, bets: list[tuple[str, int]], key: str,
         player: str = "ann") -> int:
    with transaction(engine) as s:
        tables.place(s, table, player, bets, key)
        return tables.play_round(s, table).round_id


def audit(engine: Engine, action: str) -> list[tuple[int, dict[str, Any]]]:
    with transaction(engine) as s:
        return [(i, json.loads(p)) for i, p in s.execute(
            select(AuditEntry.id, AuditEntry.payload).where(AuditEntry.action == action)
            .order_by(AuditEntry.id))]


def rotate(engine: Engine, player: str = "ann") -> str:
    with transaction(engine) as s:
        old, _ = fairness.rotate(s, player)
        return old.server_seed


def expected_slot(seed: str, client: str, nonce: int, n: int) -> int:
    """The first draw below ``n`` of a round's stream, computed here word by word."""
    cursor = 0
    while (drawn := scale(fair_word(seed, client, nonce, cursor), n)) is None:
        cursor += 1
    return drawn


def test_fair_roulette_rounds_are_the_seeds_rounds(engine: Engine) -> None:
    """Three rounds at ann's fair roulette C: nonces 0, 1, 2 under one commitment, each
    pocket the first draw below 37 of its stream, paid as any round is; after rotation
    each verifies, and the commitment was in the audit chain before the first round."""
    setup(engine, ("ann",), START)
    name = fair_table(engine)
    ids = [play(engine, name, [("red", 1_000), ("straight 17", 100)], f"k{i}")
           for i in range(3)]
    records = [stored(engine, i) for i in ids]
    assert [r["fair"][0]["nonce"] for r in records] == [0, 1, 2]
    assert {r["fair"][0]["client_seed"] for r in records} == {"ann-seed-1"}
    (committed_at, committed), = audit(engine, "fair-commit")
    assert {r["fair"][0]["commitment"] for r in records} == {committed["commitment"]}
    rounds = audit(engine, "fair-round")
    assert [e["round"] for _, e in rounds] == ids and committed_at < rounds[0][0]
    assert [e["draws"] for _, e in rounds] == [r["fair"][0]["draws"] for r in records]
    with transaction(engine) as s:
        assert all(not fairness.verify(s, i).matches for i in ids)  # not revealed yet
        assert fairness.verify(s, ids[0]).steps[0]["server_seed"] is None
    seed = rotate(engine)
    assert commitment(seed) == committed["commitment"]
    (_, reveal), = audit(engine, "fair-reveal")
    assert (reveal["server_seed"], reveal["rounds"]) == (seed, 3)
    wheel = GAMES["roulette-C"].wager.devices[0].slots  # type: ignore[attr-defined]
    paid = 0
    for nonce, (round_id, record) in enumerate(zip(ids, records, strict=True)):
        slot = expected_slot(seed, "ann-seed-1", nonce, 37)
        assert record["draw_slots"] == [slot] and record["fair"][0]["draws"] == [[37, slot]]
        face = wheel[slot]
        assert [d["face"] for d in record["draws"]] == [face]
        with transaction(engine) as s:
            found = fairness.verify(s, round_id)
            assert found.matches, found.problem
            assert found.recomputed == found.recorded == [face]
            assert tables.recall(s, round_id).same
        paid += sum(x["paid"] for x in record["settlements"])
    assert wallet(engine, "ann") == START - 3 * 1_100 + paid
    with transaction(engine) as s:
        assert check(s).ok and verify_audit(s).ok


def test_a_new_client_seed_keeps_counting_the_nonce(engine: Engine) -> None:
    """The nonce never starts again under one server seed, so no stream is drawn twice
    even when a player sets an earlier client seed again."""
    setup(engine, ("ann",), START)
    name = fair_table(engine, client="first")
    first = play(engine, name, [("red", 100)], "a")
    with transaction(engine) as s:
        fairness.set_client_seed(s, "ann", "second")
    second = play(engine, name, [("red", 100)], "b")
    with transaction(engine) as s:
        fairness.set_client_seed(s, "ann", "first")
    third = play(engine, name, [("red", 100)], "c")
    proofs = [stored(engine, i)["fair"][0] for i in (first, second, third)]
    assert [(p["client_seed"], p["nonce"]) for p in proofs] == [
        ("first", 0), ("second", 1), ("first", 2)]
    rotate(engine)
    with transaction(engine) as s:
        assert all(fairness.verify(s, i).matches for i in (first, second, third))
        current = fairness.pair(s, "ann")
        assert (current.nonce, current.client_seed, current.revealed_at) == (0, "first", None)


def test_sic_bo_three_dice_are_three_draws_of_one_stream(engine: Engine) -> None:
    setup(engine, ("ann",), START)
    name = fair_table(engine, game="sic-bo", variant=None)
    round_id = play(engine, name, [("big", 500)], "d1")
    record = stored(engine, round_id)
    assert [n for n, _ in record["fair"][0]["draws"]] == [6, 6, 6]
    seed = rotate(engine)
    rng = FairRng(seed, "ann-seed-1", 0)
    assert [rng.randbelow(6) for _ in range(3)] == record["draw_slots"]
    with transaction(engine) as s:
        assert fairness.verify(s, round_id).matches


def test_the_rng_desk_draws_a_fair_table_from_the_seeds(engine: Engine) -> None:
    setup(engine, ("ann", "bob"), START)
    name = fair_table(engine)
    with transaction(engine) as s:
        plain = tables.own_table(s, "bob", "roulette", "C")
        done = play_slips(s, [RngSlip(name, "ann", (("red", 200),), "a1"),
                              RngSlip(plain, "bob", (("red", 200),), "b1")])
    assert "fair" in stored(engine, done[0].round_id or 0)
    assert "fair" not in stored(engine, done[1].round_id or 0)
    rotate(engine)
    with transaction(engine) as s:
        assert fairness.verify(s, done[0].round_id or 0).matches
        with pytest.raises(fairness.FairError, match="not drawn provably fair"):
            fairness.verify(s, done[1].round_id or 0)


def tamper(engine: Engine, round_id: int, change: Any) -> None:
    with transaction(engine) as s:
        row = s.get(RoundRow, round_id)
        assert row is not None
        data = json.loads(row.record)
        change(data)
        s.execute(update(RoundRow).where(RoundRow.id == round_id)
                  .values(record=json.dumps(data, sort_keys=True)))


DRAWS_DIFFER = "the recorded draws are not the seeds' draws"
NOT_CHAINED = "the audit chain's proof is not the record's"


@pytest.mark.parametrize(("change", "problems"), [
    (lambda d: d.update(draw_slots=[(d["draw_slots"][0] + 1) % 37]),
     {"the recorded outcome is not the seeds' outcome"}),
    # (another nonce draws the same pocket once in 37: the audit chain still differs)
    (lambda d: d["fair"][0].update(nonce=d["fair"][0]["nonce"] + 1),
     {DRAWS_DIFFER, NOT_CHAINED}),
    (lambda d: d["fair"][0].update(draws=[[37, (d["fair"][0]["draws"][0][1] + 1) % 37]]),
     {DRAWS_DIFFER}),
    (lambda d: d["fair"][0].update(commitment="0" * 64),
     {"no seed pair has the round's commitment"}),
])
def test_a_changed_record_does_not_verify(engine: Engine, change: Any, problems: set[str]
                                          ) -> None:
    setup(engine, ("ann",), START)
    name = fair_table(engine)
    round_id = play(engine, name, [("red", 100)], "k")
    rotate(engine)
    tamper(engine, round_id, change)
    with transaction(engine) as s:
        found = fairness.verify(s, round_id)
    assert not found.matches and found.problem in problems


def test_a_record_whose_proof_is_not_the_audit_chains_does_not_verify(engine: Engine
                                                                      ) -> None:
    """A record whose client seed, nonce and draws were rewritten consistently (as the
    revealed seed would draw them) still differs from the audit chain's proof."""
    setup(engine, ("ann",), START)
    name = fair_table(engine)
    round_id = play(engine, name, [("red", 100)], "k")
    seed = rotate(engine)
    slot = expected_slot(seed, "other", 0, 37)

    def rewrite(d: dict[str, Any]) -> None:
        d["fair"][0].update(client_seed="other", draws=[[37, slot]])
        d["draw_slots"] = [slot]
        face = GAMES["roulette-C"].wager.devices[0].slots[slot]  # type: ignore[attr-defined]
        d["draws"][0].update(slot=slot, face=face)
        for move in d["history"]:
            if move["actor"] == -1:
                move["text"] = face

    tamper(engine, round_id, rewrite)
    with transaction(engine) as s:
        found = fairness.verify(s, round_id)
    assert found.problem == NOT_CHAINED


@pytest.mark.parametrize("bad", ["", "a" * 65, "a:b", "space here", "ä", "semi;colon"])
def test_a_bad_client_seed_is_refused_and_changes_nothing(engine: Engine, bad: str) -> None:
    setup(engine, ("ann",), START)
    fair_table(engine, client="kept")
    with transaction(engine) as s:
        entries = s.scalar(select(func.count()).select_from(AuditEntry))
    with pytest.raises(fairness.FairError, match="1 to 64 letters, digits, - or _"), \
            transaction(engine) as s:
        fairness.set_client_seed(s, "ann", bad)
    with transaction(engine) as s:
        assert fairness.pair(s, "ann").client_seed == "kept"
        assert s.scalar(select(func.count()).select_from(AuditEntry)) == entries


def test_fairness_is_offered_where_a_round_is_one_draw(engine: Engine) -> None:
    setup(engine, ("ann",), START)
    with pytest.raises(fairness.FairError, match="not chemin-de-fer"), \
            transaction(engine) as s:
        fairness.set_fair(s, "ann", "chemin-de-fer", None, True)
    with pytest.raises(fairness.FairError, match="players choose"), transaction(engine) as s:
        fairness.set_fair(s, "ann", "roulette", "D", True)
    name = fair_table(engine)
    with transaction(engine) as s:
        fairness.set_fair(s, "ann", "roulette", "C", False)
        assert s.scalar(select(GameTable.fair).where(GameTable.name == name)) is False
    round_id = play(engine, name, [("red", 100)], "k")
    assert "fair" not in stored(engine, round_id)
    assert [e["fair"] for _, e in audit(engine, "fair-table")] == [True, False]


def test_the_standard_library_verifier_checks_a_real_round(engine: Engine,
                                                           tmp_path: Path) -> None:
    """scripts/verify_round.py run by a bare interpreter (-I -S: no site-packages)."""
    setup(engine, ("ann",), START)
    name = fair_table(engine, game="sic-bo", variant=None)
    round_id = play(engine, name, [("big", 500)], "k")
    rotate(engine)
    with transaction(engine) as s:
        proof = fairness.verify(s, round_id).proof()
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(proof))
    good = subprocess.run([sys.executable, "-I", "-S", str(SCRIPT), str(path)],
                          capture_output=True, text=True, check=False)
    assert good.returncode == 0, good.stderr
    assert f"round {round_id} matches" in good.stdout and good.stdout.count("matches") == 4
    proof["steps"][0]["draws"][1][1] = (proof["steps"][0]["draws"][1][1] + 1) % 6
    path.write_text(json.dumps(proof))
    bad = subprocess.run([sys.executable, "-I", "-S", str(SCRIPT), "-"], input=path.read_text(),
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 1 and "draw 2 is" in bad.stdout
    proof["steps"][0]["server_seed"] = "11" * 32
    path.write_text(json.dumps(proof))
    wrong = subprocess.run([sys.executable, "-I", "-S", str(SCRIPT), str(path)],
                           capture_output=True, text=True, check=False)
    assert wrong.returncode == 1 and "not the commitment" in wrong.stdout


@settings(max_examples=60)
@given(st.binary(min_size=32, max_size=32), st.from_regex(fairness.CLIENT_SEED, fullmatch=True),
       st.integers(0, 10**6), st.lists(st.integers(1, (1 << 63) - 1), max_size=8))
def test_the_script_draws_what_the_package_draws(seed: bytes, client: str, nonce: int,
                                                 bounds: list[int]) -> None:
    rng = FairRng(seed.hex(), client, nonce)
    assert verifier().draws(seed, client, nonce, bounds) == [rng.randbelow(n) for n in bounds]


def test_verify_round_at_the_terminal(engine: Engine, monkeypatch: pytest.MonkeyPatch
                                      ) -> None:
    from pelisali.cli import platform as cli_platform
    from pelisali.cli.main import app

    monkeypatch.setattr(cli_platform, "open_database", lambda: engine)
    setup(engine, ("ann",), START)
    runner = CliRunner()
    assert runner.invoke(app, ["fair", "table", "ann", "roulette", "--variant", "C"]
                         ).exit_code == 0
    assert runner.invoke(app, ["fair", "client-seed", "ann", "a:b"]).exit_code == 2
    assert runner.invoke(app, ["fair", "client-seed", "ann", "cli-seed"]).exit_code == 0
    round_id = play(engine, "rng-roulette-C-ann", [("red", 100)], "k")
    waiting = runner.invoke(app, ["verify-round", str(round_id)])
    assert waiting.exit_code == 1 and "revealed when the player rotates" in waiting.output
    assert runner.invoke(app, ["fair", "rotate", "ann"]).exit_code == 0
    shown = runner.invoke(app, ["verify-round", str(round_id)])
    assert shown.exit_code == 0 and "the round matches its revealed seeds" in shown.output
    proof = json.loads(runner.invoke(app, ["verify-round", str(round_id), "--json"]).output)
    assert proof["steps"][0]["client_seed"] == "cli-seed" and proof["steps"][0]["nonce"] == 0
    with transaction(engine) as s:
        assert s.scalar(select(func.count()).select_from(FairSeed)) == 2


SEED = "5e" * 32


def feature_client_seed() -> str:
    """A client seed whose first spin of slot-video (20 lines) under :data:`SEED` starts
    the free spins, found through the engine."""
    from pelisali.engine.slots import Spin
    from pelisali.platform.slot_family import as_slot, slot_engine
    from pelisali.platform.table_layer import draw_outcome

    for n in range(20_000):
        client, rng = f"c{n}", FairRng(SEED, f"c{n}", 0)
        state = as_slot(slot_engine("slot-video").new_state(Seats(1)).apply(Spin(20, 5)).state)
        while state.to_move() == CHANCE and len(state.spins) == 0:
            state = as_slot(state.apply(draw_outcome(state, rng)).state)
        if state.free_left:
            return client
    raise AssertionError("no client seed starts the free spins")


def test_a_fair_slot_round_draws_each_spin_under_a_nonce_of_its_own(
        engine: Engine, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The base spin and every free spin: one proof each, nonces 0, 1, 2, ...; replayed
    through the slot engine with the revealed seed, every reel stop is the record's; the
    standard-library script checks every step; a changed stop is caught."""
    from pelisali.platform.slot_rounds import free_spin, spin
    from pelisali.rng import new_server_seed

    seeds = iter([SEED])
    monkeypatch.setattr(fairness, "new_server_seed", lambda: next(seeds, None)
                        or new_server_seed())
    client = feature_client_seed()
    setup(engine, ("ann",), START)
    name = fair_table(engine, game="slot-video", variant=None, client=client)
    with transaction(engine) as s:
        done = spin(s, name, "ann", 20, 5, key="f1")
    assert done.status == "playing" and done.free_left == 10
    seen = 1
    while done.status != "settled":
        with transaction(engine) as s:
            done = free_spin(s, name, "ann", seen=seen)
        seen += 1
    record = stored(engine, done.round_id)
    assert [p["nonce"] for p in record["fair"]] == list(range(seen))
    assert {p["commitment"] for p in record["fair"]} == {commitment(SEED)}
    rotate(engine)
    with transaction(engine) as s:
        found = fairness.verify(s, done.round_id)
        assert found.matches, found.problem
        assert found.recomputed == found.recorded and len(found.recorded) == 5 * seen
        assert tables.recall(s, done.round_id).same
    path = tmp_path / "slot.json"
    path.write_text(json.dumps(found.proof()))
    script = subprocess.run([sys.executable, "-I", "-S", str(SCRIPT), str(path)],
                            capture_output=True, text=True, check=False)
    assert script.returncode == 0 and f"{seen} step(s)" in script.stdout, script.stdout

    def other_stop(d: dict[str, Any]) -> None:
        chance = [m for m in d["history"] if m["actor"] == -1]
        chance[-1]["text"] = str((int(chance[-1]["text"]) + 1) % 20)

    tamper(engine, done.round_id, other_stop)
    with transaction(engine) as s:
        assert not fairness.verify(s, done.round_id).matches


def status(engine: Engine, round_id: int) -> str:
    with transaction(engine) as s:
        row = s.get(RoundRow, round_id)
        assert row is not None
        return str(row.status)


def test_a_fair_punto_banco_shoe_is_one_shuffle_its_coups_share(engine: Engine) -> None:
    """The shoe is shuffled once under nonce 0 (its 415 Fisher–Yates draws the proof of
    every coup dealt from it); rotating reveals the seed, the next coup is dealt from a
    new shoe under the new commitment, and every coup verifies with its revealed seed."""
    setup(engine, ("ann",), START)
    name = fair_table(engine, game="punto-banco", variant=None)
    first = [play(engine, name, [("banker", 1_000)], f"a{i}") for i in range(3)]
    proofs = [stored(engine, i)["fair"] for i in first]
    assert proofs[0] == proofs[1] == proofs[2] and proofs[0][0]["nonce"] == 0
    assert [n for n, _ in proofs[0][0]["draws"]] == list(range(416, 1, -1))
    assert len({stored(engine, i)["shuffle"] for i in first}) == 1
    assert len(audit(engine, "fair-round")) == 1  # one shuffle, one proof
    seed = rotate(engine)
    later = play(engine, name, [("player", 1_000)], "b")
    record = stored(engine, later)
    assert record["shuffle"] == stored(engine, first[0])["shuffle"] + 1
    assert record["fair"][0]["commitment"] != proofs[0][0]["commitment"]
    assert record["shoe_positions"][0] > 0  # dealt after the burn of the new shoe
    with transaction(engine) as s:
        for round_id in first:
            found = fairness.verify(s, round_id)
            assert found.matches, found.problem
            assert found.recomputed == found.recorded and found.recorded
            assert tables.recall(s, round_id).same
        assert found.steps[0]["server_seed"] == seed
        assert not fairness.verify(s, later).matches  # its seed is not revealed yet
    rotate(engine)
    with transaction(engine) as s:
        assert fairness.verify(s, later).matches
        assert check(s).ok and verify_audit(s).ok

    def other_order(d: dict[str, Any]) -> None:  # two cards after the round's swapped
        cards, end = cards_of(d["shuffle_order"]), d["shoe_positions"][1]
        other = next(i for i in range(end + 1, len(cards)) if cards[i] != cards[end])
        cards[end], cards[other] = cards[other], cards[end]
        d["shuffle_order"] = "".join(cards)

    tamper(engine, later, other_order)
    with transaction(engine) as s:
        changed = fairness.verify(s, later)
    assert changed.problem == "the recorded outcome is not the seeds' outcome"


def test_a_fair_blackjack_round_in_play_keeps_its_seed_until_it_ends(engine: Engine) -> None:
    """A round waiting for a decision refuses the rotation (its seed tells the cards to
    come); once the hand stands and the round settles, the seed is revealed and every
    round verifies through the shoe's order."""
    from pelisali.platform.card_rounds import BlackjackView
    from pelisali.platform.tables import HandDecision, Insurance

    setup(engine, ("ann",), START)
    name = fair_table(engine, game="blackjack", variant=None)
    waited = False
    ids = []
    for n in range(12):
        round_id = play(engine, name, [("seat 1", 1_000)], f"k{n}")
        ids.append(round_id)
        while status(engine, round_id) == "playing":
            if not waited:
                with pytest.raises(fairness.FairError, match="finish the round in play"), \
                        transaction(engine) as s:
                    fairness.rotate(s, "ann")
                waited = True
            with transaction(engine) as s:
                view = tables.dealt(s, round_id)
                assert isinstance(view, BlackjackView)
                tables.decide(s, name, "ann", Insurance(1, 0) if view.insurance_pending
                              else HandDecision("stand"))
        if waited:
            break
    assert waited
    rotate(engine)
    with transaction(engine) as s:
        for round_id in ids:
            found = fairness.verify(s, round_id)
            assert found.matches, (round_id, found.problem)
            assert found.recomputed == found.recorded
        assert check(s).ok and verify_audit(s).ok


def test_the_verifier_in_the_docs_draws_what_the_package_draws() -> None:
    """docs/provably-fair.md's code block, run as it is printed."""
    import re

    text = (ROOT / "docs" / "provably-fair.md").read_text()
    (code,) = re.findall(r"```python\n(.*?)```", text, re.S)
    space: dict[str, Any] = {}
    exec(code, space)  # noqa: S102 - the project's own document
    for seed, client, nonce, bounds in (("ab" * 32, "x", 3, [37, 6, 52]),
                                        ("00" * 32, "a-b_C", 0, list(range(416, 1, -1)))):
        rng = FairRng(seed, client, nonce)
        assert space["draws"](bytes.fromhex(seed), client, nonce, bounds) == [
            rng.randbelow(n) for n in bounds]


def test_two_pairs_made_at_once_are_both_revealed(engine: Engine) -> None:
    """Two first looks in two transactions at once can each make a pair; a round drawn
    with the older is still verified after one rotation."""
    setup(engine, ("ann",), START)
    name = fair_table(engine, client=None)
    round_id = play(engine, name, [("red", 100)], "k")
    with transaction(engine) as s:  # as the other transaction would have made it
        fairness._new_pair(s, "ann", "late")
    rotate(engine)
    with transaction(engine) as s:
        assert fairness.verify(s, round_id).matches
        assert s.scalar(select(func.count()).select_from(FairSeed)
                        .where(FairSeed.revealed_at.is_(None))) == 1
    assert len(audit(engine, "fair-reveal")) == 2
