"""The battery on the provably fair generator as the platform runs it: one seed pair, a
new FairRng each round under the next nonce. It passes at a small size, and a generator
that reuses a nonce fails it."""

from __future__ import annotations

from typer.testing import CliRunner

from pelisali.analysis.rng_certify import certify
from pelisali.analysis.rng_external import run_nist
from pelisali.analysis.rng_fair import FairRounds
from pelisali.analysis.rng_sources import wager_streams
from pelisali.cli.main import app
from pelisali.platform.table_layer import draw_outcome
from pelisali.rng import FairRng

SERVER, CLIENT = "5a" * 32, "player-7"


def test_each_round_is_the_platforms_fair_rng_at_the_next_nonce() -> None:
    rounds = FairRounds(SERVER, CLIENT)
    dice = wager_streams("sic-bo", rounds, 4)[0].outcomes.reshape(4, 3)
    for nonce in range(4):
        fair = FairRng(SERVER, CLIENT, nonce)
        assert dice[nonce].tolist() == [fair.randbelow(6) for _ in range(3)]
    assert rounds.nonce == 4


def test_raw_words_come_in_rounds_of_a_shuffles_draws() -> None:
    rounds = FairRounds(SERVER, CLIENT, round_draws=3)
    words = rounds.randbelow_many(1 << 32, 7).tolist()
    expected = [FairRng(SERVER, CLIENT, nonce).randbelow_many(1 << 32, 3).tolist()
                for nonce in range(3)]
    assert words == [w for batch in expected for w in batch][:7]
    assert rounds.nonce == 2
    assert FairRounds.from_seed(3).server_seed != FairRounds.from_seed(4).server_seed


def test_the_fair_generator_passes_the_battery() -> None:
    run = certify(FairRounds.from_seed(2026),
                  ["roulette", "sic-bo", "texas-holdem-bonus", "shuffle"], draws=20_000,
                  shuffle_count=2_000, draw=draw_outcome, dieharder_tests=(), nist_bits=0)
    assert run.generator == "fair"
    assert run.passed, [(c.result.source, c.result.test, c.adjusted)
                        for c in run.corrected if not c.passed]
    assert ("texas-holdem-bonus first card", "chi-square fit") in {
        (r.source, r.test) for r in run.results}
    found, missing = run_nist(FairRounds.from_seed(2026), 100_000, only=[
        "monobit", "overlapping_template_matching", "linear_complexity"])
    assert missing == [] and len(found) == 3 and all(r.passed for r in found)


class NonceReused(FairRounds):
    """A server that forgets to count the nonce up: every round draws the same."""

    def next_round(self) -> None:
        self.nonce -= 1
        super().next_round()


def test_a_reused_nonce_fails_the_battery() -> None:
    run = certify(NonceReused(SERVER, CLIENT), ["roulette"], draws=20_000, shuffle_count=0,
                  dieharder_tests=(), nist_bits=0)
    assert not run.passed


runner = CliRunner()


def test_rng_test_takes_the_fair_generator() -> None:
    result = runner.invoke(app, ["rng", "test", "--generator", "fair", "--seed", "3",
                                 "--game", "tuplanoppa", "--draws", "10000",
                                 "--dieharder", "none", "--nist-bits", "0", "--json"])
    assert result.exit_code == 0, result.output
    assert '"generator": "fair"' in result.output
    for bad in (["--generator", "fair-ish"], ["--generator", "seeded"],
                ["--generator", "secure", "--seed", "1"]):
        assert runner.invoke(app, ["rng", "test", *bad]).exit_code == 2
