"""Every bet on every outcome pays what the rulebook says, for every wheel and dice game.

The expected payouts below are copied by hand from the rulebook
(``/work/shared/rulebook/ray-rules-2016-fi.txt``, sections 1.2.1 Ruletti,
1.2.2 Boule, 1.2.3 Onnenpyörä, 1.3.1 Tuplanoppa, 1.3.2 Sic Bo) and from
``RULINGS.md`` where the extracted text is garbled. Nothing here reads the
package's rule data: the tables, the group memberships and the settlement
logic are written out independently, and the engine's
:meth:`~pelisali.games.base.WagerGame.resolve` is compared against them for
every spot and every distinct outcome of the chance devices.

Odds are written as ``k`` meaning ``k:1``: a winning stake ``s`` returns
``s * (k + 1)`` (stake included, RULINGS "Everywhere").
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from pelisali.games import make_game
from pelisali.games.base import Choice, Held, Paid, Spot, WagerGame

# Stakes: 400 cents halves and quarters into whole cents; 101 does not, so a
# half back is an exact Fraction(101, 2) and the D "both" rule cannot offer halving.
STAKES = (400, 101)


def win(stake: int, odds: Fraction | int) -> Paid:
    """A k:1 win returns the stake plus k times the stake."""
    return Paid(Fraction(stake) * (1 + Fraction(odds)), "win")


def lose() -> Paid:
    return Paid(Fraction(0), "lose")


def half(stake: int) -> Paid:
    return Paid(Fraction(stake, 2), "half")


def check_every_spot_and_outcome(game: WagerGame, expected, stake: int, level: int = 0) -> int:
    """Compare ``game.resolve`` with ``expected(spot, stake, outcome)`` everywhere.

    Collects every mismatch so a failure lists them all. Returns the number of
    (spot, outcome) pairs checked.
    """
    wrong = []
    checked = 0
    for spot in game.spots():
        for outcome in game.outcome_list:
            want = expected(spot, stake, outcome)
            got = game.resolve(spot, stake, level, outcome)
            checked += 1
            if got != want:
                wrong.append(f"{spot.key} on {outcome}: expected {want}, got {got}")
    assert not wrong, f"{len(wrong)} wrong payouts, e.g.:\n" + "\n".join(wrong[:25])
    return checked


# =============================================================================
# 1.2.1 Ruletti
# =============================================================================

# Odds tables per version, literally from 1.2.1 "Voitonmaksu" of each version.
# (k means k:1.)

# 1.2.1 A: Plein 30:1, Cheval 15:1, Transversal 10:1, Carré 7:1, Simple/Sixline 4:1,
# Tusina 2:1, Sarake 2:1, even chances 1:1.
ODDS_A = {
    "straight": 30, "split": 15, "street": 10, "corner": 7, "sixline": 4,
    "dozen": 2, "column": 2,
    "even": 1, "odd": 1, "black": 1, "red": 1, "low": 1, "high": 1,
}
# 1.2.1 B, table 1 (drawn 29 times in 30): same as A.
ODDS_B1 = {
    "straight": 30, "split": 15, "street": 10, "corner": 7, "sixline": 4,
    "dozen": 2, "column": 2,
    "even": 1, "odd": 1, "black": 1, "red": 1, "low": 1, "high": 1,
}
# 1.2.1 B, table 2 (drawn on average every 30th round; RULINGS: probability 1/30):
# inside bets doubled 60, 30, 20, 14, 8; outside unchanged.
ODDS_B2 = {
    "straight": 60, "split": 30, "street": 20, "corner": 14, "sixline": 8,
    "dozen": 2, "column": 2,
    "even": 1, "odd": 1, "black": 1, "red": 1, "low": 1, "high": 1,
}
# 1.2.1 C: 35, 17, 11, 8, 5, 2, 2, 1 (also the GGPoker live roulette, RULINGS).
ODDS_C = {
    "straight": 35, "split": 17, "street": 11, "corner": 8, "sixline": 5,
    "dozen": 2, "column": 2,
    "even": 1, "odd": 1, "black": 1, "red": 1, "low": 1, "high": 1,
}
# 1.2.1 D: same odds as C (zero rule differs).
ODDS_D = {
    "straight": 35, "split": 17, "street": 11, "corner": 8, "sixline": 5,
    "dozen": 2, "column": 2,
    "even": 1, "odd": 1, "black": 1, "red": 1, "low": 1, "high": 1,
}
# 1.2.1 E: double zero; adds First five (0, 00, 1, 2, 3) at 6:1.
ODDS_E = {
    "straight": 35, "split": 17, "street": 11, "corner": 8, "first_five": 6, "sixline": 5,
    "dozen": 2, "column": 2,
    "even": 1, "odd": 1, "black": 1, "red": 1, "low": 1, "high": 1,
}
# 1.2.1 F: same odds as E (zero rule differs).
ODDS_F = {
    "straight": 35, "split": 17, "street": 11, "corner": 8, "first_five": 6, "sixline": 5,
    "dozen": 2, "column": 2,
    "even": 1, "odd": 1, "black": 1, "red": 1, "low": 1, "high": 1,
}
# 1.2.1 G: 0-12, straight-ups at the drawn multiplier; side bets fixed:
# Musta 1:1, Punainen 1:1, Pieni 1:1, Iso 1:1.
ODDS_G = {"straight": "multiplier", "black": 1, "red": 1, "low": 1, "high": 1}
# 1.2.1 H and I: as G plus Sarake (columns) 2:1.
ODDS_H = {"straight": "multiplier", "column": 2, "black": 1, "red": 1, "low": 1, "high": 1}
ODDS_I = {"straight": "multiplier", "column": 2, "black": 1, "red": 1, "low": 1, "high": 1}

ROULETTE_ODDS = {
    "A": ODDS_A, "B": ODDS_B1, "C": ODDS_C, "D": ODDS_D, "E": ODDS_E, "F": ODDS_F,
    "G": ODDS_G, "H": ODDS_H, "I": ODDS_I,
}

# 1.2.1 (all versions): quarter bets 1-9, 10-18, 19-27, 28-36 pay 3:1 and lose on
# zero. RULINGS: an option on any version; on this product versions A-F (0-36).
QUARTER_ODDS = 3
QUARTER_VERSIONS = "ABCDEF"

# 1.2.1 G, H, I multiplier devices ("lukumäärä voittokerroin").
MULTIPLIER_SLOTS = {
    "G": {"5:1": 6, "7:1": 3, "9:1": 2, "24:1": 1, "49:1": 1},
    "H": {"8:1": 8, "10:1": 4, "12:1": 2, "25:1": 2},
    "I": {"6:1": 8, "8:1": 4, "10:1": 2, "25:1": 1, "50:1": 1},
}

# What a zero (0 or 00) does to an even-chance (1:1) bet that does not cover it.
# Dozens, columns and quarters (2:1, 3:1) lose on zero in every version.
EVEN_CHANCE_ON_ZERO = {
    "A": "lose",  # 1.2.1 A: 1:1 and 2:1 bets lose
    "B": "lose",  # 1.2.1 B: same, both tables
    "C": "lose",  # 1.2.1 C
    "D": "setting",  # 1.2.1 D: lose half (la partage) or en prison, or both (table setting)
    "E": "lose",  # 1.2.1 E: on 0 or 00, 1:1 and 2:1 bets lose
    "F": "half",  # 1.2.1 F per the Swedish text (RULINGS): dozens/columns lose, 1:1 lose half
    "G": "lose",  # 1.2.1 G: on 0, 1:1 bets lose
    "H": "half",  # 1.2.1 H: on 0, 2:1 bets lose, 1:1 bets lose half
    "I": "half",  # 1.2.1 I: same as H
}

EVEN_CHANCES = ("red", "black", "even", "odd", "low", "high")
INSIDE = ("straight", "split", "street", "corner", "sixline", "first_five")

# Red numbers on the 0-36 layout.
RED_36 = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
# 1.2.1 G/H/I: "Musta (numerot 2, 4, 6, 8, 10 ja 12)", "Punainen (numerot 1, 3, 5, 7, 9
# ja 11)", "Pieni (numerot 1-6)", "Iso (numerot 7-12)".
RED_12 = {1, 3, 5, 7, 9, 11}
BLACK_12 = {2, 4, 6, 8, 10, 12}

ZEROS = {
    "A": ("0",), "B": ("0",), "C": ("0",), "D": ("0",),
    "E": ("0", "00"), "F": ("0", "00"),
    "G": ("0",), "H": ("0",), "I": ("0",),
}
TOP_NUMBER = {v: 12 if v in "GHI" else 36 for v in "ABCDEFGHI"}

# RULINGS Roulette: the inside bets that cover a zero.
ZERO_GROUPS_SINGLE = {
    "split": {frozenset({"0", "1"}), frozenset({"0", "2"}), frozenset({"0", "3"})},
    "street": {frozenset({"0", "1", "2"}), frozenset({"0", "2", "3"})},
    "corner": {frozenset({"0", "1", "2", "3"})},
}
ZERO_GROUPS_DOUBLE = {
    "split": {frozenset({"0", "00"})},
    "street": {
        frozenset({"0", "1", "2"}), frozenset({"0", "00", "2"}), frozenset({"00", "2", "3"}),
    },
    "first_five": {frozenset({"0", "00", "1", "2", "3"})},
}

# Inside-bet counts on the layout (brief / RULINGS).
INSIDE_COUNTS_SINGLE = {"straight": 37, "split": 60, "street": 14, "corner": 23, "sixline": 11}
INSIDE_COUNTS_DOUBLE = {
    "straight": 38, "split": 58, "street": 15, "corner": 22, "sixline": 11, "first_five": 1,
}
INSIDE_COUNTS_12 = {"straight": 13}


def outside_members(version: str) -> dict[str, set[int]]:
    """Numbers each outside spot covers, by spot key, from the rulebook's descriptions."""
    top = TOP_NUMBER[version]
    numbers = set(range(1, top + 1))
    groups: dict[str, set[int]] = {}
    if top == 36:
        groups["red"] = set(RED_36)
        groups["black"] = numbers - RED_36
        groups["even"] = {n for n in numbers if n % 2 == 0}
        groups["odd"] = {n for n in numbers if n % 2 == 1}
        groups["low"] = set(range(1, 19))  # "1-18"
        groups["high"] = set(range(19, 37))  # "19-36"
        for d in (1, 2, 3):
            groups[f"dozen {d}"] = set(range(12 * d - 11, 12 * d + 1))
        for c in (1, 2, 3):
            groups[f"column {c}"] = {n for n in numbers if n % 3 == c % 3}
        for q in (1, 2, 3, 4):  # 1-9, 10-18, 19-27, 28-36
            groups[f"quarter {q}"] = set(range(9 * q - 8, 9 * q + 1))
    else:
        groups["red"] = set(RED_12)
        groups["black"] = set(BLACK_12)
        groups["low"] = set(range(1, 7))
        groups["high"] = set(range(7, 13))
        if "column" in ROULETTE_ODDS[version]:
            # 1.2.1 H/I: 1. sarake 1, 4, 7, 10; 2. sarake 2, 5, 8, 11; 3. sarake 3, 6, 9, 12
            groups["column 1"] = {1, 4, 7, 10}
            groups["column 2"] = {2, 5, 8, 11}
            groups["column 3"] = {3, 6, 9, 12}
    return groups


def parse_odds(face: str) -> Fraction:
    """'24:1' -> 24."""
    num, den = face.split(":")
    return Fraction(int(num), int(den))


def roulette_expected(version: str, zero_rule: str | None = None):
    """Build the expected-resolution function for a roulette version (level 0)."""
    outside = outside_members(version)
    zeros = ZEROS[version]
    on_zero = EVEN_CHANCE_ON_ZERO[version]
    if on_zero == "setting":
        on_zero = zero_rule

    def odds_for(bet_type: str, outcome: tuple[str, ...]) -> Fraction:
        if bet_type == "quarter":
            return Fraction(QUARTER_ODDS)
        if version == "B":
            table = ODDS_B2 if outcome[1] == "2" else ODDS_B1
            return Fraction(table[bet_type])
        odds = ROULETTE_ODDS[version][bet_type]
        if odds == "multiplier":
            return parse_odds(outcome[1])
        return Fraction(odds)

    def expected(spot: Spot, stake: int, outcome: tuple[str, ...]):
        pocket = outcome[0]
        if spot.bet_type in INSIDE:
            covered = pocket in spot.covers  # layout verified in test_roulette_layout
        else:
            covered = pocket not in zeros and int(pocket) in outside[spot.key]
        if covered:
            return win(stake, odds_for(spot.bet_type, outcome))
        if pocket in zeros and spot.bet_type in EVEN_CHANCES:
            if on_zero == "half" or on_zero == "la_partage":
                return half(stake)
            if on_zero == "en_prison":
                return Held(1)
            if on_zero == "both":
                # RULINGS D: player chooses prison or half back, if the chips halve.
                if stake % 2 == 0:
                    return Choice((("prison", Held(1)), ("half", half(stake))))
                return Held(1)
            assert on_zero == "lose"
        return lose()

    return expected


# ---- layout ---------------------------------------------------------------------

def _cell(n: int) -> tuple[int, int]:
    """(row, column) of number n on the 3-column layout: row 0 is 1-2-3."""
    return (n - 1) // 3, (n - 1) % 3


def _is_rectangle(cells: set[tuple[int, int]], height: int, width: int) -> bool:
    """True when ``cells`` fill exactly a height x width block of adjacent cells."""
    if len(cells) != height * width:
        return False
    rows = sorted({r for r, _ in cells})
    cols = sorted({c for _, c in cells})
    return (
        len(rows) == height
        and len(cols) == width
        and rows == list(range(rows[0], rows[0] + height))
        and cols == list(range(cols[0], cols[0] + width))
        and cells == set(itertools.product(rows, cols))
    )


def is_valid_inside_group(bet_type: str, members: frozenset[str], zeros: tuple[str, ...]) -> bool:
    """Own geometric check of an inside bet on the 0-36 three-column layout."""
    if bet_type == "straight":
        return len(members) == 1
    if members & {"0", "00"}:
        allowed = ZERO_GROUPS_DOUBLE if "00" in zeros else ZERO_GROUPS_SINGLE
        return members in allowed.get(bet_type, set())
    numbers = {int(m) for m in members}
    if len(numbers) != len(members) or not all(1 <= n <= 36 for n in numbers):
        return False
    cells = {_cell(n) for n in numbers}
    if bet_type == "split":
        return _is_rectangle(cells, 1, 2) or _is_rectangle(cells, 2, 1)
    if bet_type == "street":
        return _is_rectangle(cells, 1, 3)
    if bet_type == "corner":
        return _is_rectangle(cells, 2, 2)
    if bet_type == "sixline":
        return _is_rectangle(cells, 2, 3)
    return False


@pytest.mark.parametrize("version", list("ABCDEFGHI"))
def test_roulette_layout(version: str) -> None:
    """1.2.1 and RULINGS: pockets, bet types and the inside-bet layout of each version."""
    game = make_game("roulette", version, with_quarters(version))
    zeros = ZEROS[version]
    top = TOP_NUMBER[version]
    pockets = {*zeros, *(str(n) for n in range(1, top + 1))}

    # The wheel: every pocket once; every outcome is checked in the payout tests.
    wheel = game.devices[0]
    assert wheel.name == "wheel"
    assert Counter(wheel.slots) == Counter(pockets)
    assert {o[0] for o in game.outcome_list} == pockets

    # Bet types: the rulebook table, plus quarters on A-F when the table adds them.
    quarters = {"quarter"} if version in QUARTER_VERSIONS else set()
    want_types = set(ROULETTE_ODDS[version]) | quarters
    assert set(game.bet_types()) == want_types

    spots = list(game.spots())
    keys = [s.key for s in spots]
    assert len(keys) == len(set(keys)), "duplicate spot keys"

    # Inside bets: counts, geometry, no duplicate groups, key names its members.
    counts = INSIDE_COUNTS_12 if top == 12 else (
        INSIDE_COUNTS_DOUBLE if "00" in zeros else INSIDE_COUNTS_SINGLE
    )
    inside = [s for s in spots if s.bet_type in INSIDE]
    assert Counter(s.bet_type for s in inside) == Counter(counts)
    assert len({(s.bet_type, s.covers) for s in inside}) == len(inside)
    for s in inside:
        assert s.covers <= pockets, s
        assert is_valid_inside_group(s.bet_type, s.covers, zeros), f"invalid group {s}"
        if s.bet_type == "first_five":
            assert s.key == "first_five"
        else:
            kind, members = s.key.split(" ")
            assert kind == s.bet_type
            assert set(members.split("-")) == set(s.covers), s
        assert game.spot(s.key) == s
    straights = {next(iter(s.covers)) for s in inside if s.bet_type == "straight"}
    assert straights == pockets

    # Every zero-covering group from RULINGS is on the layout.
    if top == 36:
        zero_groups = ZERO_GROUPS_DOUBLE if "00" in zeros else ZERO_GROUPS_SINGLE
        present = {(s.bet_type, s.covers) for s in inside}
        for bet_type, groups in zero_groups.items():
            for group in groups:
                assert (bet_type, group) in present, (bet_type, sorted(group))
        assert game.spot("split 0-1" if "00" not in zeros else "split 0-00").covers <= pockets

    # Outside bets: exactly the rulebook's spots.
    outside_keys = {s.key for s in spots if s.bet_type not in INSIDE}
    want_outside = set(outside_members(version))
    if version not in QUARTER_VERSIONS:
        assert not any(k.startswith("quarter") for k in want_outside)
    assert outside_keys == want_outside


@pytest.mark.parametrize("version", list(QUARTER_VERSIONS))
def test_roulette_quarters_can_be_switched_off(version: str) -> None:
    """1.2.1: quarters are an option ("voidaan lisätä"); off, the layout has none."""
    game = make_game("roulette", version, {"quarters": False})
    assert "quarter" not in game.bet_types()
    assert not [s for s in game.spots() if s.bet_type == "quarter"]
    on = make_game("roulette", version, {"quarters": True})
    assert len([s for s in on.spots() if s.bet_type == "quarter"]) == 4
    # Off unless a table adds them ("Mikäli neljännekset on lisätty peliversioon").
    assert "quarter" not in make_game("roulette", version).bet_types()


def test_roulette_b_paytable_device() -> None:
    """1.2.1 B / RULINGS: table 2 is drawn with probability 1/30, otherwise table 1."""
    device = make_game("roulette", "B").devices[1]
    assert device.name == "paytable"
    assert len(device.slots) == 30
    assert Counter(device.slots) == {"1": 29, "2": 1}


@pytest.mark.parametrize("version", list("GHI"))
def test_roulette_multiplier_device(version: str) -> None:
    """1.2.1 G/H/I: the multiplier device holds the listed count of each multiplier."""
    game = make_game("roulette", version)
    assert [d.name for d in game.devices] == ["wheel", "multiplier"]
    assert Counter(game.devices[1].slots) == MULTIPLIER_SLOTS[version]
    assert {o[1] for o in game.outcome_list} == set(MULTIPLIER_SLOTS[version])


# ---- payouts --------------------------------------------------------------------

def with_quarters(version: str) -> dict[str, str | bool]:
    """Settings that add the quarter bets where the layout has them (A-F)."""
    return {"quarters": True} if version in QUARTER_VERSIONS else {}


ROULETTE_CASES = [
    pytest.param(v, None, id=v) for v in "ABCEFGHI"
] + [
    pytest.param("D", rule, id=f"D-{rule}") for rule in ("la_partage", "en_prison", "both")
]


@pytest.mark.parametrize("stake", STAKES)
@pytest.mark.parametrize(("version", "zero_rule"), ROULETTE_CASES)
def test_roulette_payouts(version: str, zero_rule: str | None, stake: int) -> None:
    """1.2.1: every spot on every outcome (pocket x paytable/multiplier) of each version."""
    settings: dict[str, str | bool] = with_quarters(version)
    if zero_rule:
        settings["zero_rule"] = zero_rule
    game = make_game("roulette", version, settings)
    checked = check_every_spot_and_outcome(game, roulette_expected(version, zero_rule), stake)
    assert checked == len(game.spots()) * len(game.outcome_list) > 0


def test_roulette_d_default_zero_rule_is_both() -> None:
    """1.2.1 D: with no setting the table uses both rules (the player chooses)."""
    game = make_game("roulette", "D")
    assert game.resolve(game.spot("red"), 400, 0, ("0",)) == Choice(
        (("prison", Held(1)), ("half", Paid(Fraction(200), "half")))
    )


@pytest.mark.parametrize("zero_rule", ["en_prison", "both"])
@pytest.mark.parametrize("stake", [400, 101, 402])
@pytest.mark.parametrize("level", [1, 2])
def test_roulette_d_prison_levels(zero_rule: str, stake: int, level: int) -> None:
    """1.2.1 D en prison, as RULINGS' two-level prison.

    Level 1: a win releases the stake (no winnings), a loss loses it, a zero
    moves it to level 2 (under "both": or a quarter back if the chips halve twice).
    Level 2: a win moves it back to level 1, a loss or a (third) zero loses it.
    """
    game = make_game("roulette", "D", {"zero_rule": zero_rule})
    members = outside_members("D")

    def expected(spot: Spot, stake: int, outcome: tuple[str, ...]):
        pocket = outcome[0]
        won = pocket != "0" and int(pocket) in members[spot.key]
        if level == 1:
            if won:
                return Paid(Fraction(stake), "release")
            if pocket == "0":
                if zero_rule == "both" and stake % 4 == 0:
                    return Choice((("prison", Held(2)),
                                   ("quarter", Paid(Fraction(stake, 4), "quarter"))))
                return Held(2)
            return lose()
        return Held(1) if won else lose()

    wrong = []
    for spot in game.spots():
        if spot.bet_type not in EVEN_CHANCES:
            continue
        for outcome in game.outcome_list:
            want, got = expected(spot, stake, outcome), game.resolve(spot, stake, level, outcome)
            if want != got:
                wrong.append(f"{spot.key} on {outcome}: expected {want}, got {got}")
    assert not wrong, "\n".join(wrong[:25])


def test_roulette_half_back_is_exact() -> None:
    """RULINGS: half a stake is computed exactly (101 cents -> 50.5)."""
    for version, settings in (("D", {"zero_rule": "la_partage"}), ("F", None), ("H", None),
                              ("I", None)):
        game = make_game("roulette", version, settings)
        outcome = game.outcome_list[0]
        assert outcome[0] == "0"
        assert game.resolve(game.spot("red"), 101, 0, outcome).amount == Fraction(101, 2)
    f = make_game("roulette", "F")
    assert f.resolve(f.spot("black"), 101, 0, ("00",)) == Paid(Fraction(101, 2), "half")


def test_roulette_d_both_odd_stake_goes_to_prison() -> None:
    """1.2.1 D: with both rules, chips that cannot be halved go to prison, no choice."""
    game = make_game("roulette", "D", {"zero_rule": "both"})
    assert game.resolve(game.spot("odd"), 401, 0, ("0",)) == Held(1)
    assert game.resolve(game.spot("odd"), 402, 1, ("0",)) == Held(2)


def test_roulette_spot_examples() -> None:
    """A few hand-worked examples, independent of the loops above."""
    c = make_game("roulette", "C", {"quarters": True})
    assert c.resolve(c.spot("split 0-1"), 100, 0, ("0",)) == Paid(Fraction(1800), "win")
    assert c.resolve(c.spot("corner 0-1-2-3"), 100, 0, ("3",)) == Paid(Fraction(900), "win")
    assert c.resolve(c.spot("dozen 1"), 100, 0, ("0",)) == Paid(Fraction(0), "lose")
    assert c.resolve(c.spot("quarter 3"), 100, 0, ("27",)) == Paid(Fraction(400), "win")
    b = make_game("roulette", "B")
    assert b.resolve(b.spot("straight 17"), 100, 0, ("17", "2")) == Paid(Fraction(6100), "win")
    assert b.resolve(b.spot("straight 17"), 100, 0, ("17", "1")) == Paid(Fraction(3100), "win")
    assert b.resolve(b.spot("dozen 2"), 100, 0, ("17", "2")) == Paid(Fraction(300), "win")
    e = make_game("roulette", "E")
    assert e.resolve(e.spot("first_five"), 100, 0, ("00",)) == Paid(Fraction(700), "win")
    assert e.resolve(e.spot("red"), 100, 0, ("00",)) == Paid(Fraction(0), "lose")
    g = make_game("roulette", "G")
    assert g.resolve(g.spot("straight 0"), 100, 0, ("0", "49:1")) == Paid(Fraction(5000), "win")
    assert g.resolve(g.spot("red"), 100, 0, ("11", "5:1")) == Paid(Fraction(200), "win")
    i = make_game("roulette", "I")
    assert i.resolve(i.spot("column 2"), 100, 0, ("0", "6:1")) == Paid(Fraction(0), "lose")
    assert i.resolve(i.spot("high"), 100, 0, ("0", "6:1")) == Paid(Fraction(50), "half")


# =============================================================================
# 1.2.2 Boule
# =============================================================================

# 1.2.2 Voitonmaksu: Plein 7:1; even chances 1:1; all even chances lose on 5.
BOULE_ODDS = {
    "straight": 7, "even": 1, "odd": 1, "black": 1, "red": 1, "low": 1, "high": 1,
}
# 1.2.2: punainen 2, 4, 7, 9; musta 1, 3, 6, 8; pieni 1-4; iso 6-9;
# parillinen 2, 4, 6, 8; pariton 1, 3, 7, 9. 5 is in no group.
BOULE_GROUPS = {
    "red": {2, 4, 7, 9},
    "black": {1, 3, 6, 8},
    "low": {1, 2, 3, 4},
    "high": {6, 7, 8, 9},
    "even": {2, 4, 6, 8},
    "odd": {1, 3, 7, 9},
}


def test_boule_wheel() -> None:
    """1.2.2: numbers 1-9, each four times (36 pockets)."""
    game = make_game("boule")
    assert len(game.devices) == 1
    assert Counter(game.devices[0].slots) == {str(n): 4 for n in range(1, 10)}
    want = {f"straight {n}" for n in range(1, 10)} | set(BOULE_GROUPS)
    assert {s.key for s in game.spots()} == want


@pytest.mark.parametrize("stake", STAKES)
def test_boule_payouts(stake: int) -> None:
    """1.2.2: straight 7:1 (5 included), even chances 1:1, all lose on 5."""
    game = make_game("boule")

    def expected(spot: Spot, stake: int, outcome: tuple[str, ...]):
        n = int(outcome[0])
        if spot.bet_type == "straight":
            return win(stake, BOULE_ODDS["straight"]) if spot.key == f"straight {n}" else lose()
        if n in BOULE_GROUPS[spot.key]:
            return win(stake, BOULE_ODDS[spot.key])
        return lose()

    check_every_spot_and_outcome(game, expected, stake)


# =============================================================================
# 1.2.3 Onnenpyörä (Big Six, Money Wheel)
# =============================================================================

# 1.2.3 Voitonmaksu and RULINGS: symbol -> (sectors of 54, odds k:1).
MONEY_WHEEL = {
    "1": (23, 1),
    "2": (15, 2),
    "5": (8, 5),
    "10": (4, 10),
    "20": (2, 20),
    "joker": (1, 45),
    "logo": (1, 45),
}


def test_money_wheel_sectors() -> None:
    """1.2.3: 54 equal sectors: 23, 15, 8, 4, 2, 1, 1."""
    game = make_game("money-wheel")
    assert len(game.devices) == 1
    slots = game.devices[0].slots
    assert len(slots) == 54
    assert Counter(slots) == {sym: n for sym, (n, _) in MONEY_WHEEL.items()}
    assert {s.key for s in game.spots()} == set(MONEY_WHEEL)


@pytest.mark.parametrize("stake", STAKES)
def test_money_wheel_payouts(stake: int) -> None:
    """1.2.3: a bet on a symbol wins at that symbol's odds when it comes, else loses."""
    game = make_game("money-wheel")

    def expected(spot: Spot, stake: int, outcome: tuple[str, ...]):
        return win(stake, MONEY_WHEEL[spot.key][1]) if outcome[0] == spot.key else lose()

    check_every_spot_and_outcome(game, expected, stake)


# =============================================================================
# 1.3.1 Tuplanoppa
# =============================================================================

# 1.3.1 Voitonmaksu: "Summa 2 tai 12 32:1" etc.; each sum is its own spot (RULINGS).
TUPLANOPPA_SUM_ODDS = {
    2: 32, 12: 32,
    3: 15, 11: 15,
    4: 10, 10: 10,
    5: 7, 9: 7,
    6: 5, 8: 5,
    7: 4,
}
TUPLANOPPA_ODDS = {"any_pair": 4, "under_7": 1, "over_7": 1}


def test_tuplanoppa_layout() -> None:
    """1.3.1: two dice; sums 2-12, all pairs, under 7, over 7."""
    game = make_game("tuplanoppa")
    assert [Counter(d.slots) for d in game.devices] == [{str(f): 1 for f in range(1, 7)}] * 2
    want = {f"sum_{n}" for n in range(2, 13)} | set(TUPLANOPPA_ODDS)
    assert {s.key for s in game.spots()} == want
    assert len(game.outcome_list) == 36


@pytest.mark.parametrize("drawing", ["cup", "shooter"])
@pytest.mark.parametrize("stake", STAKES)
def test_tuplanoppa_payouts(stake: int, drawing: str) -> None:
    """1.3.1: sums, any pair 4:1, under/over 7 1:1 losing half on a seven."""
    game = make_game("tuplanoppa", None, {"drawing": drawing})

    def expected(spot: Spot, stake: int, outcome: tuple[str, ...]):
        a, b = (int(x) for x in outcome)
        total = a + b
        if spot.key.startswith("sum_"):
            n = int(spot.key.removeprefix("sum_"))
            return win(stake, TUPLANOPPA_SUM_ODDS[n]) if total == n else lose()
        if spot.key == "any_pair":
            return win(stake, TUPLANOPPA_ODDS["any_pair"]) if a == b else lose()
        if total == 7:  # "summa alle 7 ja summa yli 7 ... häviävät puolet arvostaan"
            return half(stake)
        wins = total < 7 if spot.key == "under_7" else total > 7
        return win(stake, TUPLANOPPA_ODDS[spot.key]) if wins else lose()

    check_every_spot_and_outcome(game, expected, stake)


# =============================================================================
# 1.3.2 Sic Bo
# =============================================================================

# 1.3.2 Voitonmaksu.
SIC_BO_ODDS = {
    "small": 1,  # totals 4-10, lose on any triple
    "big": 1,  # totals 11-17, lose on any triple
    "two_dice": 6,  # "TWO DIE 6:1"
    "double": 11,
    "any_triple": 30,
    "specific_triple": 180,
}
# ONE ... SIX: 1:1 if one die shows it, 2:1 if two, 12:1 if all three.
SIC_BO_SINGLE_ODDS = {1: 1, 2: 2, 3: 12}
# THREE DICE TOTALS.
SIC_BO_TOTAL_ODDS = {
    4: 60, 5: 30, 6: 18, 7: 12, 8: 8, 9: 6, 10: 6,
    11: 6, 12: 6, 13: 8, 14: 12, 15: 18, 16: 30, 17: 60,
}


def test_sic_bo_layout() -> None:
    """1.3.2: three dice; the spots of the rulebook's table and no others."""
    game = make_game("sic-bo")
    assert [Counter(d.slots) for d in game.devices] == [{str(f): 1 for f in range(1, 7)}] * 3
    assert len(game.outcome_list) == 216
    want = {"small", "big", "any_triple"}
    want |= {f"single {f}" for f in range(1, 7)}
    want |= {f"two_dice {a}-{b}" for a, b in itertools.combinations(range(1, 7), 2)}
    want |= {f"double {f}" for f in range(1, 7)}
    want |= {f"specific_triple {f}" for f in range(1, 7)}
    want |= {f"total_{t}" for t in SIC_BO_TOTAL_ODDS}
    assert {s.key for s in game.spots()} == want
    assert len(want) == 2 + 6 + 15 + 6 + 1 + 6 + 14


@pytest.mark.parametrize("stake", STAKES)
def test_sic_bo_payouts(stake: int) -> None:
    """1.3.2: every spot on all 216 ordered throws of three dice."""
    game = make_game("sic-bo")

    def expected(spot: Spot, stake: int, outcome: tuple[str, ...]):
        dice = [int(x) for x in outcome]
        total = sum(dice)
        triple = dice[0] == dice[1] == dice[2]
        kind, _, arg = spot.key.partition(" ")
        if kind == "small":
            return win(stake, SIC_BO_ODDS["small"]) if 4 <= total <= 10 and not triple else lose()
        if kind == "big":
            return win(stake, SIC_BO_ODDS["big"]) if 11 <= total <= 17 and not triple else lose()
        if kind == "single":
            count = dice.count(int(arg))
            return win(stake, SIC_BO_SINGLE_ODDS[count]) if count else lose()
        if kind == "two_dice":
            a, b = (int(x) for x in arg.split("-"))
            return win(stake, SIC_BO_ODDS["two_dice"]) if a in dice and b in dice else lose()
        if kind == "double":  # the third die does not matter
            return win(stake, SIC_BO_ODDS["double"]) if dice.count(int(arg)) >= 2 else lose()
        if kind == "any_triple":
            return win(stake, SIC_BO_ODDS["any_triple"]) if triple else lose()
        if kind == "specific_triple":
            hit = dice.count(int(arg)) == 3
            return win(stake, SIC_BO_ODDS["specific_triple"]) if hit else lose()
        if kind.startswith("total_"):
            n = int(kind.removeprefix("total_"))
            return win(stake, SIC_BO_TOTAL_ODDS[n]) if total == n else lose()
        raise AssertionError(f"unexpected spot {spot.key}")

    check_every_spot_and_outcome(game, expected, stake)
