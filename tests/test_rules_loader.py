"""Rule files: every packaged file loads; a malformed file names its path and the key."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import pelisali.rules
from pelisali.rules import (
    BlackjackRules,
    BouleRules,
    MoneyWheelRules,
    PuntoBancoRules,
    RouletteRules,
    RuleDataError,
    SicBoRules,
    TuplanoppaRules,
    available,
    load_file,
    load_rules,
)

DATA = Path(pelisali.rules.__file__).parent / "data"
FILES = sorted(DATA.glob("*.toml"))
MODELS = {
    "roulette": RouletteRules,
    "boule": BouleRules,
    "money-wheel": MoneyWheelRules,
    "tuplanoppa": TuplanoppaRules,
    "sic-bo": SicBoRules,
    "blackjack": BlackjackRules,
    "punto-banco": PuntoBancoRules,
}


def test_the_package_ships_every_game_version() -> None:
    names = {p.name for p in FILES}
    expected = {f"roulette-{v}.toml" for v in "ABCDEFGHI"} | {
        "boule.toml", "money-wheel.toml", "tuplanoppa.toml", "sic-bo.toml",
        "blackjack.toml", "punto-banco.toml"}
    assert names == expected


def test_available_lists_every_file_once() -> None:
    found = available()
    assert len(found) == len(FILES) == len(set(found))
    assert sorted(found) == sorted(
        [("roulette", v) for v in "ABCDEFGHI"]
        + [("boule", ""), ("money-wheel", ""), ("tuplanoppa", ""), ("sic-bo", "")]
        + [("blackjack", ""), ("punto-banco", "")]
    )


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_packaged_file_loads_and_matches_its_name(path: Path) -> None:
    rules = load_file(path)
    assert isinstance(rules, MODELS[rules.game])
    stem = f"{rules.game}-{rules.variant}" if rules.variant else rules.game
    assert path.stem == stem
    assert load_rules(rules.game, rules.variant) == rules
    assert 0 < rules.limits.min <= rules.limits.max


def test_load_rules_unknown_version() -> None:
    with pytest.raises(RuleDataError, match="no rules for game 'roulette' version 'Z'"):
        load_rules("roulette", "Z")
    with pytest.raises(RuleDataError, match="no rules for game 'craps' version '\\(none\\)'"):
        load_rules("craps")


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(RuleDataError) as info:
        load_file(path)
    assert str(info.value) == f"{path}: no such rule file"


# ---------------------------------------------------------------------------
# Every value carries a rulebook citation
# ---------------------------------------------------------------------------

# Metadata, not rule values.
_META = {"game", "variant", "section", "name", "description", "choices"}
# Top-level values cited by a sibling ``*_section`` key instead of their own ``section``.
_CITED_BY = {
    "boule": {"numbers": "wheel_section", "copies": "wheel_section",
              "excluded_number": "wheel_section", "groups": "wheel_section"},
    "money-wheel": {"sectors": "wheel_section", "symbols": "wheel_section"},
    "tuplanoppa": {"seven_rule": "seven_rule_section"},
    "sic-bo": {"single": "single_section", "totals": "totals_section"},
    "blackjack": {"seats": "seats_section"},
}
_CITED_BY["money-wheel"]["void_rule"] = "void_section"
_SOURCES = ("RAY 2016", "RAY 2015", "GGPoker", "RULINGS")


def _check_citation(text: object, where: str) -> None:
    assert isinstance(text, str), f"{where}: section is not text"
    assert text.strip(), f"{where}: empty section"
    assert any(source in text for source in _SOURCES), f"{where}: cites no source: {text!r}"


def _uncited(raw: dict[str, Any]) -> list[str]:
    """Paths of rule values with no citation of their own or from a cited parent."""
    missing = []
    cited_by = _CITED_BY.get(raw["game"], {})
    for key, value in raw.items():
        if key in _META or key.endswith("_section"):
            continue
        if key in cited_by:
            if not str(raw.get(cited_by[key], "")).strip():
                missing.append(key)
            continue
        if not isinstance(value, dict):
            missing.append(key)
            continue
        if "section" in value:
            continue  # the table cites a section for everything inside it
        # a collection of cited entries: [bets] and [settings]
        for name, entry in value.items():
            if not (isinstance(entry, dict) and str(entry.get("section", "")).strip()):
                missing.append(f"{key}.{name}")
    return missing


def _sections(node: object, where: str = "") -> list[tuple[str, object]]:
    out = []
    if isinstance(node, dict):
        for key, value in node.items():
            path = f"{where}.{key}" if where else key
            if key == "section" or key.endswith("_section"):
                out.append((path, value))
            else:
                out.extend(_sections(value, path))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(_sections(value, f"{where}[{i}]"))
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_value_cites_a_rulebook_section(path: Path) -> None:
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    _check_citation(raw.get("section"), f"{path.name}: section")
    assert _uncited(raw) == [], f"{path.name}: values without a section"
    sections = _sections(raw)
    assert sections
    for where, text in sections:
        _check_citation(text, f"{path.name}: {where}")


def test_the_citation_check_can_fail() -> None:
    raw = tomllib.loads((DATA / "roulette-C.toml").read_text(encoding="utf-8"))
    assert _uncited(raw) == []
    raw["bets"]["straight"] = {"odds": "35:1"}
    raw["wheel"] = {"numbers": 36, "zeros": ["0"]}
    raw["spins"] = 3
    assert set(_uncited(raw)) == {"bets.straight", "wheel.numbers", "wheel.zeros", "spins"}
    boule = tomllib.loads((DATA / "boule.toml").read_text(encoding="utf-8"))
    boule["wheel_section"] = " "
    assert set(_uncited(boule)) == {"numbers", "copies", "excluded_number", "groups"}
    with pytest.raises(AssertionError, match="cites no source"):
        _check_citation("see above", "x")


def test_parsed_sections_are_non_empty() -> None:
    for game, variant in available():
        rules = load_rules(game, variant)
        assert rules.section.strip() and rules.limits.section.strip()
        for name, bet in getattr(rules, "bets", {}).items():
            assert bet.section.strip(), (game, variant, name)
        for name, setting in rules.settings.items():
            assert setting.section.strip(), (game, variant, name)


# ---------------------------------------------------------------------------
# Malformed files
# ---------------------------------------------------------------------------


def _write(tmp_path: Path, source: str, edit: Callable[[str], str]) -> Path:
    original = (DATA / source).read_text(encoding="utf-8")
    text = edit(original)
    assert text != original, "the edit did not change the file"
    path = tmp_path / f"broken-{source}"
    path.write_text(text, encoding="utf-8")
    return path


def _sub(pattern: str, replacement: str, count: int = 1) -> Callable[[str], str]:
    def edit(text: str) -> str:
        new, n = re.subn(pattern, replacement, text, count=count, flags=re.M | re.S)
        assert n, f"pattern {pattern!r} not found"
        return new

    return edit


def _drop_table(name: str) -> Callable[[str], str]:
    return _sub(rf"^\[{re.escape(name)}\]\n.*?(?=^\[|\Z)", "")


CASES = [
    # (id, source file, edit, text the message must contain after the path)
    ("odds-with-dash", "roulette-C.toml",
     _sub(r'straight = \{ odds = "35:1"', 'straight = { odds = "35-1"'),
     ["key 'bets.straight.odds'", "'35-1'"]),
    ("odds-missing-per", "tuplanoppa.toml",
     _sub(r'sum_2 = \{ odds = "32:1"', 'sum_2 = { odds = "32"'),
     ["key 'bets.sum_2.odds'", "'32'"]),
    ("odds-zero-per", "boule.toml",
     _sub(r'straight = \{ odds = "7:1"', 'straight = { odds = "7:0"'),
     ["key 'bets.straight.odds'", "invalid odds 7:0"]),
    ("paytable-odds", "roulette-B.toml", _sub(r'split = "30:1"', 'split = "30 to 1"'),
     ["key 'paytable_device.odds.split'"]),
    ("multiplier-odds", "roulette-G.toml", _sub(r'"24:1"', '"24x"'),
     ["key 'multiplier.faces.3.odds'"]),
    ("symbol-odds", "money-wheel.toml", _sub(r'odds = "45:1"', 'odds = "45"'),
     ["key 'symbols.5.odds'"]),
    ("sic-bo-total-odds", "sic-bo.toml", _sub(r'^4 = "60:1"', '4 = "sixty"'),
     ["key 'totals.4'"]),
    ("sic-bo-single-odds", "sic-bo.toml", _sub(r'"12:1"\]', '"12-1"]'),
     ["key 'single.2'"]),
    ("missing-limits", "roulette-C.toml", _drop_table("limits"),
     ["key 'limits'", "Field required"]),
    ("missing-wheel", "roulette-E.toml", _drop_table("wheel"), ["key 'wheel'", "required"]),
    ("missing-zero-rule", "roulette-A.toml", _drop_table("zero_rule"), ["key 'zero_rule'"]),
    ("missing-bets", "tuplanoppa.toml", _drop_table("bets"), ["key 'bets'", "required"]),
    ("missing-limits-section", "sic-bo.toml",
     _sub(r'(\[limits\]\nmin = 100\nmax = 50000\n)section = [^\n]*\n', r"\1"),
     ["key 'limits.section'", "required"]),
    ("empty-section", "roulette-C.toml",
     _sub(r'^section = "RAY 2016 1.2.1 C; GGPoker live casino roulette 2.2"$', 'section = ""'),
     ["key 'section'", "at least 3 characters"]),
    ("bet-without-section", "boule.toml",
     _sub(r'red = \{ odds = "1:1", section = "[^"]*" \}', 'red = { odds = "1:1" }'),
     ["key 'bets.red.section'", "required"]),
    ("unknown-bet-type", "roulette-C.toml",
     _sub(r"^\[bets\]\n", '[bets]\npass_line = { odds = "1:1", section = "RAY 2016 x" }\n'),
     ["unknown bet types ['pass_line']"]),
    ("unknown-key", "roulette-C.toml", _sub(r"^\[wheel\]\n", '[wheel]\ncolour = "red"\n'),
     ["key 'wheel.colour'", "Extra inputs are not permitted"]),
    ("unknown-top-level-key", "boule.toml", _sub(r"^numbers = 9\n", "numbers = 9\nballs = 2\n"),
     ["key 'balls'", "Extra inputs"]),
    ("limits-min-above-max", "roulette-C.toml", _sub(r"^min = 100$", "min = 200000"),
     ["key 'limits'", "min 200000 is above max 100000"]),
    ("limits-zero", "money-wheel.toml", _sub(r"^min = 100$", "min = 0"),
     ["key 'limits.min'", "greater than 0"]),
    ("limits-not-a-number", "boule.toml", _sub(r"^max = 50000$", 'max = "lots"'),
     ["key 'limits.max'", "integer"]),
    ("money-wheel-sectors-53", "money-wheel.toml", _sub(r"sectors = 23", "sectors = 22"),
     ["key 'symbols': cover 53 sectors, the wheel has 54"]),
    ("money-wheel-sectors-55", "money-wheel.toml", _sub(r"sectors = 15", "sectors = 16"),
     ["key 'symbols': cover 55 sectors, the wheel has 54"]),
    ("money-wheel-wheel-size", "money-wheel.toml", _sub(r"^sectors = 54$", "sectors = 50"),
     ["key 'symbols': cover 54 sectors, the wheel has 50"]),
    ("money-wheel-duplicate-symbol", "money-wheel.toml", _sub(r'name = "logo"', 'name = "joker"'),
     ["key 'symbols': names must differ"]),
    ("money-wheel-zero-sectors", "money-wheel.toml", _sub(r"sectors = 1\n", "sectors = 0\n"),
     ["key 'symbols.5.sectors'"]),
    ("sic-bo-missing-total", "sic-bo.toml", _sub(r'^17 = "60:1"\n', ""),
     ["key 'totals'", "4 to 17"]),
    ("sic-bo-two-singles", "sic-bo.toml", _sub(r'^single = \["1:1", "2:1", "12:1"\]',
                                                'single = ["1:1", "2:1"]'),
     ["key 'single'"]),
    ("first-five-single-zero", "roulette-C.toml",
     _sub(r"^\[bets\]\n", '[bets]\nfirst_five = { odds = "6:1", section = "RAY 2016 x" }\n'),
     ["first_five needs a double-zero wheel"]),
    ("group-wrong-size", "roulette-C.toml", _sub(r"^red = \[1, 3, ", "red = ["),
     ["key 'groups.red': must be half of the numbers 1-36"]),
    ("device-odds-without-multiplier", "roulette-G.toml", _drop_table("multiplier"),
     ["key 'bets.straight': odds 'device' needs a [multiplier] device"]),
    ("tuplanoppa-missing-sum", "tuplanoppa.toml", _sub(r"^sum_2 = .*\n", ""),
     ["key 'bets': must be exactly"]),
    ("sic-bo-missing-double", "sic-bo.toml", _sub(r"^double = .*\n", ""),
     ["key 'bets': must be exactly"]),
    ("boule-group-with-five", "boule.toml", _sub(r"^red = \[2, 4, 7, 9\]", "red = [2, 4, 5, 9]"),
     ["key 'groups.red': only numbers 1-9 other than 5"]),
    ("zero-rule-setting-missing", "roulette-D.toml", _drop_table("settings.zero_rule"),
     ["needs a settings.zero_rule entry"]),
    ("setting-default-not-a-choice", "tuplanoppa.toml", _sub(r'default = "cup"',
                                                            'default = "robot"'),
     ["key 'settings.drawing'", "default 'robot' is not one of ['cup', 'shooter']"]),
    ("zero-rule-unknown", "roulette-A.toml", _sub(r'even_chance = "lose"',
                                                  'even_chance = "refund"'),
     ["key 'zero_rule.even_chance'"]),
    ("seven-rule-unknown", "tuplanoppa.toml", _sub(r'seven_rule = "half"',
                                                   'seven_rule = "push"'),
     ["key 'seven_rule'"]),
    ("unknown-game", "boule.toml", _sub(r'^game = "boule"', 'game = "craps"'),
     ["key 'game': must be one of ['blackjack', 'boule', 'money-wheel', 'punto-banco', "
      "'roulette', 'sic-bo', "
      "'tuplanoppa'], got 'craps'"]),
    ("missing-game", "boule.toml", _sub(r'^game = "boule"\n', ""),
     ["key 'game'", "got None"]),
    ("game-not-text", "boule.toml", _sub(r'^game = "boule"', "game = 3"),
     ["key 'game'", "got 3"]),
    ("invalid-toml-duplicate-table", "roulette-C.toml", lambda t: t + "\n[bets]\n",
     ["not valid TOML"]),
    ("invalid-toml-unclosed", "roulette-C.toml", _sub(r"^\[wheel\]", "[wheel"),
     ["not valid TOML"]),
    ("invalid-toml-bare-word", "sic-bo.toml", _sub(r'^4 = "60:1"', "4 = 60:1"),
     ["not valid TOML"]),
    ("invalid-toml-duplicate-key", "money-wheel.toml", _sub(r"^sectors = 54$",
                                                            "sectors = 54\nsectors = 54"),
     ["not valid TOML"]),
]


@pytest.mark.parametrize(("source", "edit", "expected"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_malformed_file_names_the_path_and_the_key(
    tmp_path: Path, source: str, edit: Callable[[str], str], expected: list[str]
) -> None:
    path = _write(tmp_path, source, edit)
    with pytest.raises(RuleDataError) as info:
        load_file(path)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    for part in expected:
        assert part in message, message


def test_unedited_copy_loads(tmp_path: Path) -> None:
    """The broken copies above fail because of the edit, not because they were copied."""
    for source in FILES:
        copy = tmp_path / source.name
        copy.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
        assert load_file(copy) == load_file(source)


def test_file_not_in_utf8_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "roulette-C.toml"
    path.write_bytes((DATA / "roulette-C.toml").read_text(encoding="utf-8").encode("latin-1"))
    with pytest.raises(RuleDataError) as info:
        load_file(path)
    assert str(path) in str(info.value)
