"""``pelisali poker`` as a user runs it, and the census figures."""

import json
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import Engine, select
from typer.testing import CliRunner

from pelisali.analysis import census as census_module
from pelisali.analysis.census import CENSUS_RANKINGS, census, colex_combinations, hand_blocks
from pelisali.cli.main import app
from pelisali.poker.hands import CATEGORIES as CATEGORIES_HIGH

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_rank_in_three_languages() -> None:
    code, out = run("poker", "rank", "Kh Kd Ks 3c 3d 9s 2h", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["category"] == "full_house"
    assert data["cards"] == ["Ks", "Kh", "Kd", "3d", "3c"]
    assert data["description"] == {"en": "Full house, kings full of threes",
                                   "fi": "Täyskäsi, kuninkaat ja kolmoset",
                                   "sv": "Kåk, kungar och treor"}


def test_rank_with_a_board_and_omaha_hand_making() -> None:
    code, out = run("poker", "rank", "AsKd", "--board", "Ts 9s 2s Qs 3h", "--json")
    assert json.loads(out)["category"] == "flush"
    # Omaha: exactly two hole cards, so one spade in the hand makes no flush.
    code, out = run("poker", "rank", "As Kd Qh Jc", "--board", "Ts 9s 2s 3s 4s", "--game",
                    "omaha", "--json")
    assert code == 0 and json.loads(out)["category"] == "high_card"


def test_rank_errors() -> None:
    code, out = run("poker", "rank", "AsAs")
    assert code == 2 and "named more than once" in out
    code, out = run("poker", "rank", "Ax Kd")
    assert code == 2 and "is not a card" in out
    code, out = run("poker", "rank", "As Kd", "--board", "As 2c 3d")
    assert (code == 2 and "named more than once" in out) or "appears twice" in out
    code, out = run("poker", "rank", "As Kd Qd Jd Td", "--game", "bridge")
    assert code == 2 and "no game 'bridge'" in out
    code, out = run("poker", "compare", "AsKd")
    assert code == 2 and "two or more hands" in out
    code, out = run("poker", "compare", "AsKd", "AsQd", "--board", "2c 3c 4c")
    assert code == 2 and "more than once" in out


def test_compare_marks_the_winner_and_ties() -> None:
    code, out = run("poker", "compare", "AsAd", "KsKd", "7h2c", "--board", "Kh 9d 2s")
    assert code == 0
    assert "Three of a kind, kings" in out and "wins" in out
    code, out = run("poker", "compare", "AsKd", "AhKc", "--board", "2c 3d 7h 8s Ts")
    assert "ties" in out


def test_razz_and_lowball() -> None:
    code, out = run("poker", "rank", "As 2d 3c 4h 5s 9d Kc", "--game", "razz", "--lang", "sv")
    assert "Låg 5-4-3-2-A" in out
    code, out = run("poker", "rank", "8s 7d 5c 3h 2s", "--game", "lowball")
    assert code == 0 and "8-7-5-3-2 low" in out


def test_colex_blocks_cover_every_hand_once() -> None:
    rows = colex_combinations(8, 3)
    assert len(rows) == math.comb(8, 3) == len({tuple(r) for r in rows.tolist()})
    assert all(list(r) == sorted(r) for r in rows.tolist())
    assert rows[: math.comb(5, 3)].max() < 5  # subsets of range(5) come first


def test_census_five_card_figures() -> None:
    high = census("high", 5)
    assert high.total == 2_598_960
    assert high.counts == {"high_card": 1302540, "pair": 1098240, "two_pair": 123552,
                           "three_of_a_kind": 54912, "straight": 10200, "flush": 5108,
                           "full_house": 3744, "four_of_a_kind": 624, "straight_flush": 40}
    soko = census("soko", 5)
    # four of one suit and one other, less the 600 of them that are straights
    assert soko.counts["four_flush"] == 4 * math.comb(13, 4) * 39 - 600
    assert sum(soko.counts.values()) == 2_598_960
    a5 = census("low-a5", 5)
    # ace-to-five: straights and flushes are no-pair lows; eight or better: 8 ranks choose 5
    assert a5.counts["high_card"] == 1302540 + 10200 + 5108 + 40
    assert a5.qualifying == math.comb(8, 5) * 4**5
    low27 = census("low-27", 5)
    assert low27.qualifying == (math.comb(7, 5) - 3) * (4**5 - 4)


def test_hand_blocks_hold_every_hand_once_and_a_bounded_block_at_a_time() -> None:
    import numpy as np

    for k, rows in ((5, census_module.SUB_BLOCK), (5, 1000), (3, 7), (7, 1 << 16)):
        sizes, seen, ordered = [], 0, True
        keys = []
        for block in hand_blocks(k, rows):
            sizes.append(len(block))
            seen += len(block)
            ordered &= bool((np.diff(block, axis=1) > 0).all())
            if k < 7:
                keys.append(block.astype(np.int64) @ (52 ** np.arange(k)))
        assert max(sizes) <= rows  # the most hands held at once, whatever k
        assert all(size == rows for size in sizes[:-1])  # blocks are filled
        assert seen == math.comb(52, k) and ordered
        if keys:
            assert len(np.unique(np.concatenate(keys))) == math.comb(52, k)


@pytest.mark.parametrize("ranking", CENSUS_RANKINGS)
def test_streamed_census_equals_every_hand_evaluated_at_once(
        ranking: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The block-streamed counts equal those of all 2,598,960 hands in one array, also
    with small blocks (many boundaries, split and joined groups)."""
    import itertools

    import numpy as np

    from pelisali.poker.batch import NO_HAND, batch_values
    from pelisali.poker.rankings import SOKO_CATEGORIES

    every = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), 5)),
                        dtype=np.int8).reshape(-1, 5)
    values = batch_values(every, ranking)
    names = SOKO_CATEGORIES if ranking == "soko" else CATEGORIES_HIGH
    cats = np.bincount((-values if ranking.startswith("low") else values) >> 20,
                       minlength=len(names))
    expected = dict(zip(names, cats.tolist(), strict=True))
    qualifying = (int((batch_values(every, f"{ranking}-8") != NO_HAND).sum())
                  if ranking.startswith("low") else None)
    streamed = census(ranking, 5)
    assert (streamed.total, streamed.counts, streamed.qualifying) == (
        len(every), expected, qualifying)
    if ranking == "high":
        monkeypatch.setattr(census_module, "SUB_BLOCK", 3000)
        small = census(ranking, 5)
        assert (small.total, small.counts) == (len(every), expected)


@pytest.mark.slow
def test_census_seven_card_high() -> None:
    result = census("high", 7)
    assert result.total == 133_784_560
    assert result.counts == {"high_card": 23294460, "pair": 58627800, "two_pair": 31433400,
                             "three_of_a_kind": 6461620, "straight": 6180020,
                             "flush": 4047644, "full_house": 3473184,
                             "four_of_a_kind": 224848, "straight_flush": 41584}


def test_census_refuses_what_it_cannot_count() -> None:
    code, out = run("poker", "census", "--cards", "6")
    assert code == 2 and "5 or 7" in out
    code, out = run("poker", "census", "--ranking", "badugi")
    assert code == 2 and "census rankings" in out


def test_seven_card_batch_values_equal_the_single_hand_rankings() -> None:
    """The batch Sökö and deuce-to-seven fives-of-seven (the census's) agree with the
    one-hand evaluators, flush-heavy hands included."""
    import numpy as np

    from pelisali.poker.batch import batch_values
    from pelisali.poker.rankings import low_27_value, soko_value

    gen = np.random.default_rng(5)
    hands = np.argsort(gen.random((3000, 52)), axis=1)[:, :7].astype(np.int8)
    suited = []
    for suit in gen.integers(0, 4, 600):
        same = gen.choice(np.arange(suit, 52, 4), 5, replace=False)
        other = gen.choice([c for c in range(52) if c % 4 != suit], 2, replace=False)
        suited.append([*same, *other])
    hands = np.vstack([hands, np.array(suited, dtype=np.int8)])
    rows = [list(map(int, r)) for r in hands]
    assert batch_values(hands, "soko").tolist() == [soko_value(r) for r in rows]
    assert batch_values(hands, "low-27").tolist() == [low_27_value(r) for r in rows]


@pytest.mark.slow
def test_census_seven_card_lows() -> None:
    a5 = census("low-a5", 7)
    assert a5.total == 133_784_560
    assert a5.counts["full_house"] == 13 * 12 * 4  # quads and trips: no better five
    assert a5.qualifying == 24_530_944
    # Deuce-to-seven on five cards: the ace plays high, so A-2-3-4-5 of a suit is a flush
    # and a straight flush needs five in a row from 2-6 up to T-A: 9 a suit.
    low27 = census("low-27", 5)
    assert low27.counts["straight_flush"] == 4 * 9
    assert low27.counts["flush"] == 4 * math.comb(13, 5) - 4 * 9


def test_double_flop_ranks_the_hand_on_each_board() -> None:
    code, out = run("poker", "rank", "As Ks", "--game", "double-flop", "--board",
                    "Qs Js Ts 2d 3c | 2h 2s 7c 9d 4h")
    assert code == 0, out
    assert "board 1: Royal flush" in out and "board 2: Pair, deuces" in out
    code, out = run("poker", "rank", "As Ks", "--board", "Qs Js Ts | 2h 2s 7c")
    assert code == 2 and "double-flop" in out
    code, out = run("poker", "rank", "As Ks", "--game", "double-flop", "--board",
                    "Qs Js Ts | As 2s 7c")
    assert code == 2 and "more than once" in out


def test_equity_exact_and_monte_carlo() -> None:
    code, out = run("poker", "equity", "AsAh", "KdKc", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["exact"] and data["boards"] == math.comb(48, 5)
    aces, kings = data["hands"]
    assert round(aces["equity"], 4) == 0.8126 and round(kings["equity"], 4) == 0.1874
    assert abs(aces["win"] + aces["tie"] + aces["lose"] - 1) < 1e-12
    mc = run("poker", "equity", "AsAh", "KdKc", "--trials", "20000", "--seed", "3", "--json")
    again = run("poker", "equity", "AsAh", "KdKc", "--trials", "20000", "--seed", "3", "--json")
    assert mc == again
    share = json.loads(mc[1])["hands"][0]["equity"]
    assert abs(share - 0.8126) < 0.015


def test_equity_matches_a_brute_force_river() -> None:
    from pelisali.analysis.equity import equity
    from pelisali.cards import DECK, parse_cards
    from pelisali.poker.evaluate import evaluate

    hands = [parse_cards("Ah Kh"), parse_cards("Qs Qd"), parse_cards("9c 8c")]
    board = parse_cards("Th 7c 2h 6d")
    result = equity(hands, board)
    used = {c for h in hands for c in h} | set(board)
    wins = [0, 0, 0]
    for card in (c for c in DECK if c not in used):
        values = [evaluate(h, "high", [*board, card]).value for h in hands]  # type: ignore[union-attr]
        best = max(values)
        if values.count(best) == 1:
            wins[values.index(best)] += 1
    assert [round(s.win * result.boards) for s in result.shares] == wins


def test_equity_errors() -> None:
    code, out = run("poker", "equity", "AsAh")
    assert code == 2 and "two or more" in out
    code, out = run("poker", "equity", "AsAh", "AsKd")
    assert code == 2 and "more than once" in out
    code, out = run("poker", "equity", "AsAh", "KdKc", "--exact", "--trials", "10")
    assert code == 2 and "exclude" in out
    code, out = run("poker", "equity", "AsAh", "KdKc", "--game", "lowball")
    assert code == 2 and "equity games" in out


def test_hi_lo_shows_the_high_and_the_low() -> None:
    code, out = run("poker", "rank", "As 2d Qh Jc", "--board", "3s 9s 5c Kd 4s", "--game",
                    "omaha", "--ranking", "hi-lo", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["high"]["category"] == "straight"  # A 2 with 3 4 5: exactly two hole cards
    assert data["low"]["description"] == "5-4-3-2-A low"
    code, out = run("poker", "rank", "Ks Qd Jh 9c", "--board", "Ts 9s 2s Kh 4s", "--game",
                    "omaha", "--ranking", "hi-lo")
    assert "no qualifying low" in out


def test_batch_values_equal_the_single_hand_rankings() -> None:
    import numpy as np

    from pelisali.poker.batch import NO_HAND, batch_values
    from pelisali.poker.evaluate import ranked_value as _value

    gen = np.random.default_rng(11)
    for k in (5, 6, 7):
        hands = np.argsort(gen.random((800, 52)), axis=1)[:, :k].astype(np.int8)
        for ranking in ("high", "soko", "low-soko", "low-a5", "low-a5-8", "low-27",
                        "low-27-8"):
            single = [_value(list(map(int, row)), ranking) for row in hands]
            expected = [NO_HAND if v is None else v for v in single]
            assert batch_values(hands, ranking).tolist() == expected, (k, ranking)


def test_hi_lo_equity_halves_the_pot_and_scoops_without_a_low() -> None:
    code, out = run("poker", "equity", "As 2d Kh Qs", "Ac 3c 9h 9s", "--game", "omaha",
                    "--ranking", "hi-lo", "--board", "4s 5d Jc Tc", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["exact"] and data["low"] == "low-a5-8"
    first, second = data["hands"]
    assert abs(first["equity"] + second["equity"] - 1) < 1e-12
    # A river without a qualifying low gives the whole pot to the high hand: Ac 3c make
    # a flush with Jc Tc 9c, against three kings.
    code, out = run("poker", "equity", "As 2d Kh Qs", "Ac 3c 9h 9s", "--game", "omaha",
                    "--ranking", "hi-lo", "--board", "Ks Kd Jc Tc 9c", "--json")
    first, second = json.loads(out)["hands"]
    assert (first["win"], second["win"]) == (0.0, 1.0)


def test_razz_and_double_flop_equity_by_monte_carlo() -> None:
    code, out = run("poker", "equity", "As 2d 3c", "Kh Kd 9s", "--game", "razz", "--trials",
                    "20000", "--json")
    assert code == 0, out
    wheel_draw, kings = json.loads(out)["hands"]
    assert abs(wheel_draw["equity"] + kings["equity"] - 1) < 1e-9
    assert wheel_draw["equity"] > 0.85  # three low cards against a pair of kings showing
    code, out = run("poker", "equity", "AsKs", "QdQh", "--game", "double-flop", "--board",
                    "Qs Js Ts 9s 2d | 2h 2c 7c 9d 4h", "--trials", "50", "--json")
    aces, queens = json.loads(out)["hands"]
    # Royal flush on board 1 (half), two pair queens on board 2 (half): a split every time.
    assert aces["equity"] == queens["equity"] == 0.5
    code, out = run("poker", "equity", "AsKs", "QdQh", "--game", "double-flop", "--exact")
    assert code == 2 and "Monte Carlo" in out


def test_rank_low_rule_and_qualifier() -> None:
    code, out = run("poker", "rank", "Ks Qd 8h 7c", "--board", "5s 4d 3c 2h Jd", "--game",
                    "omaha", "--ranking", "hi-lo", "--low-rule", "deuce-to-seven", "--json")
    assert code == 0, out
    assert json.loads(out)["low"]["description"] == "8-7-4-3-2 low"  # 8 7 with 4 3 2
    code, out = run("poker", "rank", "Ks Qd 9h 9c", "--board", "5s 4d 3c 2h Jd", "--game",
                    "omaha", "--ranking", "hi-lo", "--low-rule", "deuce-to-seven",
                    "--qualifier", "eight", "--json")
    assert json.loads(out)["low"] is None
    code, out = run("poker", "rank", "As Kd", "--ranking", "hi-lo", "--low-rule", "badugi")
    assert code == 2 and "--low-rule" in out


def test_poker_play_at_the_terminal_shows_only_my_cards() -> None:
    script = "\n".join(["call", "check", "check", "check", "check", "fold", "raise 1",
                        "dance", "quit"])
    result = runner.invoke(app, ["poker", "play", "--seed", "3", "--players", "3"],
                           input=script)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "you sit at poker-terminal with 20.00" in out and "you " in out
    assert "(nothing changed)" in out  # a refused command
    code, bad = run("poker", "play", "--game", "bridge")
    assert code == 2 and "games:" in bad


GAMES = ["holdem", "pineapple", "crazy-pineapple", "helsinki", "omaha", "omaha-5",
         "courchevel", "double-flop", "stud", "razz", "soko", "draw", "lowball",
         "triple-draw", "chinese"]


@pytest.mark.parametrize("game", GAMES)
def test_selfplay_every_game_by_its_command_name(game: str) -> None:
    args = ("poker", "selfplay", "--game", game, "--hands", "30", "--seed", "4",
            "--players", "3" if game == "chinese" else "5")
    code, out = run(*args)
    assert code == 0, out
    again = run(*args)[1]
    assert out == again  # the same seed gives the same hands
    import re

    found = re.search(r"chips bought ([\d,]+), at the table ([\d,]+)(?:, fees ([\d,]+))?",
                      " ".join(out.split()))
    assert found, out
    bought, table, fees = (int((g or "0").replace(",", "")) for g in found.groups())
    assert bought == table + fees > 0  # nothing made or lost


def test_selfplay_versions_and_their_refusals(tmp_path: pytest.TempPathFactory) -> None:
    code, out = run("poker", "selfplay", "--game", "omaha", "--structure", "limit", "--hi-lo",
                    "--low-rule", "ace-to-five", "--qualifier", "eight", "--hands", "20")
    assert code == 0 and "omaha-hi-lo limit" in out, out
    code, out = run("poker", "selfplay", "--game", "holdem", "--low", "--hands", "20")
    assert code == 0 and "holdem-low no-limit" in out, out
    for args, message in ((("--game", "razz", "--hi-lo"), "stud --hi-lo"),
                          (("--game", "holdem", "--qualifier", "eight"), "--low or --hi-lo"),
                          (("--game", "holdem", "--low", "--qualifier", "eight"),
                           "needs a high half"),
                          (("--game", "stud", "--structure", "spread"), "structure"),
                          (("--game", "holdem", "--draws", "2"), "draw games"),
                          (("--game", "stud", "--openers"), "Five Card Draw"),
                          (("--game", "chinese", "--players", "6"), "2 to 4"),
                          (("--game", "bridge"), "games:")):
        code, out = run("poker", "selfplay", "--hands", "5", *args)
        assert code == 2 and message in out, (args, out)


def test_selfplay_phh_for_a_game_pokerkit_lacks(tmp_path: object) -> None:
    import pathlib
    import tomllib

    path = pathlib.Path(str(tmp_path)) / "soko.phh"
    code, out = run("poker", "selfplay", "--game", "soko", "--hands", "3", "--phh", str(path))
    assert code == 0 and "PokerKit cannot replay it" in " ".join(out.split()), out
    first = path.read_text().split("[2]")[0].removeprefix("[1]\n")
    data = tomllib.loads(first)
    assert data["variant"] == "pelisali/soko/limit" and data["_high"] == "soko"
    assert sum(data["finishing_stacks"]) == sum(data["starting_stacks"])


def test_selfplay_phh_for_stud_replays_in_pokerkit(tmp_path: object) -> None:
    import pathlib
    import re

    notation = pytest.importorskip("pokerkit.notation")
    path = pathlib.Path(str(tmp_path)) / "stud.phh"
    code, out = run("poker", "selfplay", "--game", "stud", "--hands", "25", "--seed", "8",
                    "--players", "7", "--phh", str(path))
    assert code == 0, out
    texts = [t for t in re.split(r"\[\d+\]\n", path.read_text()) if t.strip()]
    assert len(texts) == 25
    for text in texts:
        assert 'variant = "F7S"' in text and "bring_in = 1" in text
        found = re.search(r"finishing_stacks = \[(.*)\]", text)
        assert found
        want = [int(n) for n in found.group(1).split(",")]
        assert list(list(notation.HandHistory.loads(text))[-1].stacks) == want


def test_play_stud_draw_and_chinese_at_the_terminal() -> None:
    result = runner.invoke(app, ["poker", "play", "--game", "stud", "--seed", "2",
                                 "--players", "3"],
                           input="bring-in\ncall\nraise 99\ncall\nquit\n")
    assert result.exit_code == 0, result.output
    assert "showing bot 1 Tc; bot 2 8s" in result.output  # others' up cards, not down
    assert "only by the first to act" in result.output
    result = runner.invoke(app, ["poker", "play", "--game", "draw", "--openers", "--seed",
                                 "2", "--players", "3"], input="check\ndraw Xx\nquit\n")
    assert result.exit_code == 0, result.output
    assert "jacks or better to open" in " ".join(result.output.split())  # as rich wraps it
    assert "nobody opened: the antes stay" in result.output
    result = runner.invoke(app, ["poker", "play", "--game", "chinese", "--seed", "2",
                                 "--players", "3"], input="auto\nAs Kd\nquit\n")
    assert result.exit_code == 0, result.output
    assert "nets: seat 0 +0, seat 1 -400, seat 2 +400" in result.output
    assert "three parts: front | middle | back (nothing changed)" in result.output


# -- quick mode: the terminal's one loop on a wallet of its own ----------------------------------
def quick_play(monkeypatch: pytest.MonkeyPatch, *args: str,
               stdin: str) -> tuple[int, str, dict[str, Any]]:
    """``poker play ARGS`` without ``--account``, with what its quick wallet's database
    held at the end (its accounts, each hand's recall and redeals, the ledger's checks),
    read before the database is deleted."""
    from pelisali.cli import quick
    from pelisali.platform.db import transaction
    from pelisali.platform.ledger import balances, check, verify_audit
    from pelisali.platform.models import RoundRow
    from pelisali.platform.poker_family import FAMILY, as_poker
    from pelisali.platform.poker_tables import recall_hand
    from pelisali.platform.table_layer import read_record, rebuild

    seen: dict[str, Any] = {}
    real = quick.quick_wallet

    @contextmanager
    def keeping(start: int, bots: Sequence[str] = ()) -> Iterator[Engine]:
        with real(start, bots) as db:
            yield db
            with transaction(db) as s:
                seen["start"] = start
                seen["money"] = balances(s)
                rows = s.scalars(select(RoundRow).order_by(RoundRow.id)).all()
                seen["same"] = [recall_hand(s, r.id).same for r in rows]
                seen["redeals"] = [as_poker(rebuild(read_record(r.record, FAMILY), FAMILY))
                                   .hand.redeals for r in rows]
                seen["ledger"] = check(s).ok and verify_audit(s).ok

    monkeypatch.setattr(quick, "quick_wallet", keeping)
    result = runner.invoke(app, ["poker", "play", *args], input=stdin)
    return result.exit_code, " ".join(result.output.split()), seen


def test_quick_mode_records_every_hand_and_keeps_the_money(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from pelisali.cli.quick import HOUSE_BANK
    from pelisali.money import format_cents

    script = "\n".join(["call", "check", "raise 1", "call", "check", "check", "fold",
                        "fold", "quit"])
    code, out, seen = quick_play(monkeypatch, "--seed", "5", "--players", "4",
                                 "--big-blind", "0.50", "--buy-in", "30", stdin=script)
    assert code == 0, out
    assert "you sit at poker-terminal with 30.00" in out and "blinds 0.25/0.50" in out
    money = seen["money"]
    assert seen["start"] == 3_000 and len(seen["same"]) >= 2 and all(seen["same"])
    assert money["table:poker-terminal"] == 0 and money["fee:poker-terminal"] > 0
    assert (money["player:you"] + money["table:poker-terminal"] + money["fee:poker-terminal"]
            + money["house:poker-bots"] + money["house:bank"]) == 3_000 + HOUSE_BANK
    assert seen["ledger"]
    assert f"you cashed out {format_cents(money['player:you'])}" in out
    assert out.endswith(f"wallet {format_cents(money['player:you'])}")
    # --stack, deprecated: the buy-in in big blinds
    code, out, seen = quick_play(monkeypatch, "--stack", "50", "--big-blind", "0.10",
                                 stdin="quit\n")
    assert code == 0 and "you sit at poker-terminal with 5.00" in out, out
    code, out, seen = quick_play(monkeypatch, "--buy-in", "1", stdin="quit\n")
    assert code == 2 and "minimum buy-in is 4.00" in out and seen == {}


def test_quick_mode_jacks_or_better_deals_again_and_recalls_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, seen = quick_play(monkeypatch, "--game", "draw", "--openers", "--seed", "2",
                                 "--players", "3", stdin="check\ncheck\nquit\n")
    assert code == 0, out
    assert "jacks or better to open" in out and "nobody opened: the antes stay" in out
    assert seen["redeals"] and seen["redeals"][0] > 0 and all(seen["same"])
    assert seen["ledger"] and seen["money"]["table:poker-terminal"] == 0
