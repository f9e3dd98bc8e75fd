"""Oasis Stud Poker's exact count: the dealer's hands counted by inclusion-exclusion
against the hands themselves, one hand's return standing and exchanging against every
deal dealt out, the array strategy against the game's own, and the full count against
the Wizard of Odds' exact totals for Caribbean Stud (the strategies that never exchange);
then the best strategy on the player's cards alone (games/oasis_best.py): every choice of
a hand against every deal dealt out, and its count against the basic one's."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from typer.testing import CliRunner

from pelisali.analysis.oasis_simulate import simulate_oasis
from pelisali.cards import DECK
from pelisali.cli.main import app
from pelisali.games import oasis_best as oc_best
from pelisali.games import oasis_count as oc
from pelisali.games import oasis_stud
from pelisali.games.holdem_count import board_classes, combinations_array
from pelisali.poker.evaluate import high_values
from pelisali.rules.oasis import load_oasis

runner = CliRunner()
RULES = load_oasis()
PAYS = {"high_card": 1, "pair": 1, "two_pair": 2, "three_of_a_kind": 3, "straight": 4,
        "flush": 5, "full_house": 7, "four_of_a_kind": 20, "straight_flush": 50}
# The Wizard of Odds' Caribbean Stud page: the total loss in antes over all
# 19,933,230,517,200 = 5 C(52, 5) C(47, 5) deals (5: the dealer's up card, which these
# strategies do not look at), by the player's raising rule.
WIZARD_TOTAL_LOSS = {"A-K-J-8-3": 1_059_715_400_580, "pair": 1_090_272_101_460,
                     "everything": 3_310_360_338_060}


def indices(cards: str) -> list[int]:
    return [DECK.index(c) for c in cards.split()]


def dealer_values(seen: list[int]) -> npt.NDArray[np.int64]:
    """Every dealer hand of the cards not ``seen``, valued one by one by the evaluator."""
    rest = np.setdiff1d(np.arange(52), seen)
    return high_values(rest[combinations_array(len(rest), 5)]).astype(np.int64)


QUALIFIER = oasis_stud.qualifier()


@pytest.mark.parametrize(("hand", "also"), [
    ("Ah Ad Kc 7s 2d", ""),  # a pair
    ("Ac Kd 4h 3s 2c", ""),  # the least qualifying hand itself
    ("Qc Jd 9h 5s 3c", ""),  # below the qualifier: a qualifying dealer always wins
    ("Ts Js Qs Ks As", ""),  # the royal: only the others' qualifiers and the unqualified
    ("Ah Kh 7h 2h Qh", "9c"),  # after an exchange: the discarded card is seen too
    ("Th Jd Qc Ks Ac", "5c"),
    ("7h 7d 7c 2s 2h", "Kd"),
])
def test_the_dealer_hands_counted_by_inclusion_exclusion_are_those_dealt_out(
        hand: str, also: str) -> None:
    seen = indices(hand) + indices(also)
    theirs = dealer_values(seen)
    mine = int(high_values([indices(hand)])[0])
    qualified = theirs >= QUALIFIER
    expected = (int((~qualified).sum()), int((qualified & (theirs < mine)).sum()),
                int((qualified & (theirs == mine)).sum()),
                int((qualified & (theirs > mine)).sum()))
    assert oc.dealer_counts(hand.split(), also.split()) == expected
    assert sum(expected) == comb(52 - len(seen), 5)


def raised_total(mine: int, theirs: npt.NDArray[np.int64]) -> int:
    """The raise's return summed over the dealer's hands ``theirs``, from the rules as
    stated: 1 against no qualifier, -3 against a better one, 0 on a tie, 1 + 2 x pay."""
    royal = int(high_values([indices("Ts Js Qs Ks As")])[0])
    pay = 100 if mine == royal else PAYS[["high_card", "pair", "two_pair", "three_of_a_kind",
                                          "straight", "flush", "full_house",
                                          "four_of_a_kind", "straight_flush"][mine >> 20]]
    won = np.where(theirs < QUALIFIER, 1,
                   np.where(theirs > mine, -3, np.where(theirs == mine, 0, 1 + 2 * pay)))
    return int(won.sum())


@pytest.mark.parametrize(("hand", "exchange"), [
    ("Ah Kh 7h 2h 9c", "9c"),  # four to a flush (rule 2)
    ("Th Jd Qc Ks 5c", "5c"),  # four in a row, open at both ends (rule 3)
])
def test_an_exchange_returns_what_every_replacement_and_dealer_hand_dealt_out_return(
        hand: str, exchange: str) -> None:
    cards = hand.split()
    assert oasis_stud.exchange_choice(cards) == (exchange,)
    kept = [c for c in cards if c != exchange]
    values = high_values(combinations_array(52, 5)).astype(np.int64)  # by colex rank
    places = combinations_array(46, 5)
    binomials = np.array([[comb(n, k) for k in range(6)] for n in range(52)])
    total = 0
    for new in (c for c in range(52) if c not in indices(hand)):
        final = [*indices(" ".join(kept)), new]
        rest = np.setdiff1d(np.arange(52), [*indices(hand), new])
        dealt = rest[places]  # ascending rows: their colex ranks index ``values``
        theirs = values[sum(binomials[dealt[:, k], k + 1] for k in range(5))]
        mine = int(high_values([final])[0])
        if oasis_stud.raises([DECK[c] for c in final]):
            total += raised_total(mine, theirs)
        else:
            total -= len(theirs)
        total -= len(theirs)  # the fee, one ante
    assert oc.hand_return(cards, exchange) == Fraction(total, 47 * comb(46, 5))
    # standing instead: both fold (no pair below A-K-J-8-3)
    assert oc.hand_return(cards) == -1


@pytest.mark.parametrize("hand", ["Ah Ad Kc 7s 2d", "Ac Kd Jh 8s 3c", "9c 9d 9h 2s 2c"])
def test_a_hand_standing_returns_what_every_dealer_hand_dealt_out_returns(hand: str) -> None:
    mine = int(high_values([indices(hand)])[0])
    theirs = dealer_values(indices(hand))
    assert oc.hand_return(hand.split()) == Fraction(raised_total(mine, theirs), comb(47, 5))


def test_the_array_strategy_is_the_games_own_on_thousands_of_suit_patterns() -> None:
    boards, _weights = board_classes()
    tables = oc.tables()
    values = high_values(boards).astype(np.int64)
    position, rule = oc.exchange_positions(boards, values)
    exchanging = np.flatnonzero(position >= 0)
    chosen = np.union1d(np.arange(0, len(boards), 29), exchanging[::3])
    assert len(chosen) > 7000
    for row in chosen:
        cards = [DECK[c] for c in boards[row]]
        wanted = () if position[row] < 0 else (cards[position[row]],)
        assert oasis_stud.exchange_choice(cards) == wanted, cards
        assert oasis_stud.raises(cards) == (tables.class_of(int(values[row]))
                                            >= oc.raise_least()), cards
        if wanted:  # rule 2 (four to a flush) or rule 3, told apart
            suits = {c[1] for c in cards if c != wanted[0]}
            assert (rule[row] == 1) == (len(suits) == 1), cards


@pytest.fixture(scope="module")
def found() -> oc.Exact:
    return oc.exact()  # about 20 s: the tables, the suit patterns and the count


def test_never_exchanging_loses_exactly_the_wizard_of_odds_caribbean_stud_totals(
        found: oc.Exact) -> None:
    assert found.deals == comb(52, 5) * comb(47, 5) and found.classes == 134_459
    assert found.never_exchange == {k: v // 5 for k, v in WIZARD_TOTAL_LOSS.items()}
    assert all(v % 5 == 0 for v in WIZARD_TOTAL_LOSS.values())
    assert found.never_exchange_edge("A-K-J-8-3") == Fraction(211_943_080_116,
                                                               found.deals)


def test_the_oasis_figures_hold_together(found: oc.Exact) -> None:
    # no pair: four to a flush (4 suits x C(13, 4) x 27 odd cards, less 600 straights);
    # four in a row open at both ends (9 runs x 4^4 x 28 odd cards neither pairing nor
    # making a straight, less the 448 with four or five of a suit)
    four_flush, open_ended = found.exchanges["four-flush"], found.exchanges["open-ended"]
    assert four_flush.hands == 4 * comb(13, 4) * 27 - 600 == 76_620
    assert open_ended.hands == 9 * (4 ** 4 * 28 - 4 * 28 - 4 * 4 * 3 * 7) == 60_480
    assert found.shares["exchange"] == Fraction(76_620 + 60_480, comb(52, 5))
    assert sum(found.shares.values()) == 1
    assert found.average_fee == found.shares["exchange"] * RULES.fees[0]
    raises = found.shares["stand-raise"] + found.shares["exchange"] * found.raise_after_exchange
    assert found.average_wager == 1 + found.average_fee + 2 * raises
    assert found.element_of_risk == found.ante_edge / found.average_wager
    # every exchange of the strategy pays for its fee over standing (which folds these)
    assert open_ended.stand == -1 and four_flush.stand > -1
    assert four_flush.better == four_flush.hands and open_ended.better == open_ended.hands
    gained = sum((r.exchange - r.stand) * r.hands for r in found.exchanges.values())
    caribbean = found.never_exchange_edge("A-K-J-8-3")
    assert found.ante_edge == caribbean - gained / comb(52, 5)
    assert Fraction(1, 100) < found.ante_edge < caribbean
    # the engine played by the same strategy agrees, loosely (a short simulation)
    played = simulate_oasis(4000, seed=7)
    assert played.low <= -float(found.ante_edge) <= played.high


def test_a_fee_table_that_charges_the_same_for_one_card_counts_the_same(
        found: oc.Exact) -> None:
    assert load_oasis(fees="per-card").fees[0] == RULES.fees[0]
    assert oc.exact(fees="per-card") == found


def test_the_cache_keeps_the_figures_and_the_command_shows_them(
        found: oc.Exact, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first, kept = oc.cached_exact()
    again, kept_again = oc.cached_exact()
    assert (kept, kept_again) == (False, True) and first == again == found
    result = runner.invoke(app, ["odds", "oasis-stud", "--json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    assert shown["from_cache"] is True and shown["fees"] == "1-2-3-2-1"
    assert Fraction(shown["ante_edge"]) == found.ante_edge
    assert shown["never_exchange"]["A-K-J-8-3"]["total_loss"] == 211_943_080_116
    result = runner.invoke(app, ["odds", "oasis-stud"])
    assert result.exit_code == 0 and "Read from the cache" in result.output


@pytest.mark.parametrize(("args", "words"), [
    (["odds", "oasis-stud", "--set", "blind=1"], "takes the settings fees and pays"),
    (["odds", "oasis-stud", "--set", "fees=1-1-1"], "no fee table '1-1-1'"),
    (["odds", "oasis-stud", "--decks", "2"], "not Oasis Stud Poker's")])
def test_the_command_refuses_what_the_game_does_not_have(args: list[str], words: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code != 0 and words in " ".join(result.output.split())


# -- the best strategy that reads only the player's cards (games/oasis_best.py) ----------------
@pytest.fixture(scope="module")
def hand_values() -> npt.NDArray[np.int64]:
    """Every five-card hand's value from the evaluator, by colex rank."""
    return high_values(combinations_array(52, 5)).astype(np.int64)


def colex_of(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    binomials = np.array([[comb(n, k) for k in range(6)] for n in range(52)])
    ranks: npt.NDArray[np.int64] = sum(binomials[rows[:, k], k + 1]
                                       for k in range(rows.shape[1]))
    return ranks


def counted_total(mine: int, theirs: npt.NDArray[np.int64]) -> int:
    """:func:`raised_total` counted from the dealer's values in order (the same rules)."""
    royal = int(high_values([indices("Ts Js Qs Ks As")])[0])
    pay = 100 if mine == royal else PAYS[["high_card", "pair", "two_pair", "three_of_a_kind",
                                          "straight", "flush", "full_house",
                                          "four_of_a_kind", "straight_flush"][mine >> 20]]
    unqualified = int(np.searchsorted(theirs, QUALIFIER))
    if mine < QUALIFIER:
        return unqualified - 3 * (len(theirs) - unqualified)
    below, upto = (int(np.searchsorted(theirs, mine, side)) for side in ("left", "right"))
    return unqualified + (below - unqualified) * (1 + 2 * pay) - 3 * (len(theirs) - upto)


@pytest.mark.parametrize("hand", ["6c 7c 7d 9c Tc",  # breaks the pair for four to a straight flush
                                  "4c Th Qd Kd Ac",  # no pair: four to the ace, basic raises
                                  "3d 6c Jc Kc Ac"])  # four to a flush; raises differ after
def test_every_choice_of_a_hand_returns_what_every_deal_dealt_out_returns(
        hand: str, hand_values: npt.NDArray[np.int64]) -> None:
    cards = np.array(sorted(indices(hand)))
    rest = np.setdiff1d(np.arange(52), cards)
    dealt = rest[combinations_array(47, 5)]
    theirs = hand_values[colex_of(dealt)]
    order = np.argsort(theirs, kind="stable")
    theirs, dealt = theirs[order], dealt[order]
    mine = int(high_values([cards])[0])
    standing = counted_total(mine, theirs)
    assert standing == raised_total(mine, theirs)  # the counting helper is the rules
    exchange = np.zeros(5, dtype=np.int64)
    raises = np.zeros(5, dtype=np.int64)
    for new in rest:
        left = theirs[~(dealt == new).any(axis=1)]  # still in order
        for position in range(5):
            final = np.sort(np.append(np.delete(cards, position), new))
            total = counted_total(int(hand_values[colex_of(final[None])[0]]), left)
            raises[position] += total > -len(left)
            exchange[position] += max(total, -len(left)) - len(left)  # the fee, one ante
    values = oc_best.pattern_values(cards[None])
    assert values.stand.tolist() == [max(standing, -comb(47, 5)) * 42]
    assert values.stand_raises.tolist() == [standing > -comb(47, 5)]
    assert values.exchange[0].tolist() == exchange.tolist()
    assert values.exchange_raises[0].tolist() == raises.tolist()
    if hand == "6c 7c 7d 9c Tc":  # the basic strategy stands; the best exchanges the 7d
        assert int(values.best()[0][0]) == 2 and DECK[cards[2]] == "7d"
        assert values.exchange[0, 2] > values.basic_stand[0] == values.stand[0]
    if hand == "3d 6c Jc Kc Ac":  # both exchange the 3d; the best raises after more
        assert values.exchange_raises[0, 0] > values.basic_raises[0, 0]
        assert values.exchange[0, 0] > values.basic_exchange[0, 0]


@pytest.mark.parametrize("hand", ["Ah Kh 7h 2h 9c", "2c 2d 7h 9s Kd"])
def test_draws_of_two_to_five_cards_count_the_dealer_hands_dealt_out(
        hand: str, hand_values: npt.NDArray[np.int64]) -> None:
    cards = np.array(sorted(indices(hand)))
    rest = np.setdiff1d(np.arange(52), cards)
    for k in range(2, 6):
        new = rest[[3 * i + k for i in range(k)]]  # k of the 47, ascending
        left = np.setdiff1d(rest, new)
        theirs = np.sort(hand_values[colex_of(left[combinations_array(len(left), 5)])])
        kept = np.delete(cards, range(k))  # exchange the k lowest
        final = np.sort(np.concatenate([kept, new]))
        mine = int(hand_values[colex_of(final[None])[0]])
        finals = np.array([[[oc.tables().class_of(mine)]]])
        got = oc_best.raise_totals(cards[None], new[None, None], finals,
                                   oc.pay_array(RULES), 2)
        assert got.tolist() == [[[counted_total(mine, theirs)]]]


def test_exchanging_one_card_by_the_general_count_is_the_patterns_count() -> None:
    cards = ["Th", "Jd", "Qc", "Ks", "5c"]
    values = oc_best.pattern_values(np.array([sorted(indices(" ".join(cards)))]))
    one = oc_best.exchange_values(cards, 1)
    ordered = sorted(cards, key=DECK.index)
    assert [one[(c,)] for c in ordered] == values.per_ante(0)[1:]
    two = oc_best.exchange_values(cards, 2)  # fee 2: never near the best of one card
    assert len(two) == 10 and max(two.values()) < max(values.per_ante(0)) - 1


def test_the_tie_and_four_card_counts_agree_with_the_tables() -> None:
    rng = np.random.default_rng(11)
    t = oc.tables()
    sets = rng.integers(0, comb(52, 4), 5000)
    classes = rng.integers(0, len(t.values), 5000)
    expected = np.searchsorted(t.fours, sets * 8192 + classes) - 48 * sets
    assert (oc_best.four_counts().below(sets, classes) == expected).all()
    seen = np.sort(np.array([rng.choice(52, 6, replace=False) for _ in range(300)]), axis=1)
    mine = rng.integers(0, len(t.values) - 1, 300)
    ties = oc.dealer_below(seen, np.stack([mine, mine + 1], axis=1))
    assert (oc_best.class_hands(mine, seen) == ties[:, 1] - ties[:, 0]).all()


@pytest.fixture(scope="module")
def subset() -> tuple[tuple[int, ...], oc_best.BestBlind]:
    """Every 61st suit pattern and every one the basic strategy exchanges in a tenth of
    them: the full count (about a minute) runs in the command and the benchmark."""
    boards, _weights = board_classes()
    position, _rule = oc.exchange_positions(boards, high_values(boards).astype(np.int64))
    rows = tuple(int(r) for r in np.union1d(np.arange(0, len(boards), 61),
                                            np.flatnonzero(position >= 0)[::10]))
    return rows, oc_best.best_blind(rows=rows)


def test_the_best_blind_count_holds_the_basic_count_and_beats_it(
        subset: tuple[tuple[int, ...], oc_best.BestBlind]) -> None:
    rows, best = subset
    boards, weights = board_classes()
    hands, w = boards[list(rows)], weights[list(rows)]
    t = oc.tables()
    mine = t.classes[oc.colex(hands)].astype(np.int64)
    pays = oc.pay_array(RULES)
    stand = np.where(mine >= oc.raise_least(), oc.raise_returns(hands, mine, pays),
                     -comb(47, 5)) * 42
    position, _rule = oc.exchange_positions(hands, t.values[mine])
    swapped = np.flatnonzero(position >= 0)
    traded, _raises = oc._exchanges(hands[swapped], position[swapped], pays, 2, 1,
                                    oc.raise_least())
    stand[swapped] = traded
    total = int(w.sum())
    assert best.basic_edge == -Fraction(int((w * stand).sum()), total * 42 * comb(47, 5))
    assert best.classes == len(rows) and best.deals == total * comb(47, 5)
    assert best.ante_edge < best.basic_edge and best.gap > 0
    assert sum(best.shares.values()) == 1
    assert best.average_fee == best.shares["exchange"]
    raises = best.shares["stand-raise"] + best.shares["exchange"] * best.raise_after_exchange
    assert best.average_wager == 1 + best.average_fee + 2 * raises
    assert best.element_of_risk == best.ante_edge / best.average_wager
    assert sum(d.gain for d in best.differences) == best.gap
    assert all(d.gain >= 0 for d in best.differences)
    ex = best.exchanges
    assert Fraction(ex["both"] + ex["other-card"] + ex["best-only"], total) \
        == best.shares["exchange"]
    assert ex["basic-only"] == 0 and ex["best-only"] > 0  # every basic exchange is kept
    assert sum(best.choices.values()) == total


def test_the_command_shows_the_best_blind_figures_from_the_cache(
        subset: tuple[tuple[int, ...], oc_best.BestBlind], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    _rows, best = subset  # a subset's figures stand in the cache for the full count's
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = tmp_path / "pelisali" / f"oasis-best-blind-{oc_best._cache_key(RULES)}.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(oc_best.to_json(best)))
    assert oc_best.cached_best_blind() == (best, True)
    result = runner.invoke(app, ["odds", "oasis-stud", "--set", "strategy=best-blind",
                                 "--json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    assert shown["from_cache"] is True and Fraction(shown["ante_edge"]) == best.ante_edge
    assert Fraction(shown["gap"]) == best.gap
    result = runner.invoke(app, ["odds", "oasis-stud", "--set", "strategy=best-blind"])
    assert result.exit_code == 0, result.output
    assert f"by the basic strategy alone {best.exchanges['basic-only']:,}" \
        in " ".join(result.output.split())
    result = runner.invoke(app, ["odds", "oasis-stud", "--set", "strategy=optimal"])
    assert result.exit_code != 0 and "basic, best-blind" in result.output
