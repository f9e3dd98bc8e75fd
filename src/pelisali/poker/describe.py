"""Hand descriptions in English, Finnish and Swedish (the rulebook's own names).

>>> from pelisali.poker.hands import pack
>>> describe(pack(6, [11, 1]), "sv")
'Kåk, kungar och treor'
>>> describe(pack(2, [12, 6, 3]), "fi")
'Kaksi paria, ässät ja kasit'
"""

from __future__ import annotations

from pelisali.poker.hands import unpack

LANGS = ("en", "fi", "sv")
SINGULAR = {
    "en": ["deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
           "queen", "king", "ace"],
    "fi": ["kakkonen", "kolmonen", "nelonen", "vitonen", "kutonen", "seiska", "kasi", "ysi",
           "kymppi", "sotilas", "kuningatar", "kuningas", "ässä"],
    "sv": ["tvåa", "trea", "fyra", "femma", "sexa", "sjua", "åtta", "nia", "tia", "knekt", "dam",
           "kung", "ess"],
}
PLURAL = {
    "en": ["deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
           "jacks", "queens", "kings", "aces"],
    "fi": ["kakkoset", "kolmoset", "neloset", "vitoset", "kutoset", "seiskat", "kasit", "ysit",
           "kympit", "sotilaat", "kuningattaret", "kuninkaat", "ässät"],
    "sv": ["tvåor", "treor", "fyror", "femmor", "sexor", "sjuor", "åttor", "nior", "tior",
           "knektar", "damer", "kungar", "ess"],
}
# Category names as in RAY 2016 (fi) and 2015 (sv) 1.4.1.1.1.
NAMES = {
    "en": ["High card", "Pair", "Two pair", "Three of a kind", "Straight", "Flush", "Full house",
           "Four of a kind", "Straight flush"],
    "fi": ["Korkein kortti", "Pari", "Kaksi paria", "Kolmoset", "Suora", "Väri", "Täyskäsi",
           "Neloset", "Värisuora"],
    "sv": ["Högsta kortet", "Par", "Två par", "Triss", "Stege", "Färg", "Kåk", "Fyrtal",
           "Färgstege"],
}
AND = {"en": "and", "fi": "ja", "sv": "och"}
HIGH = {"en": "{} high", "fi": "korkeimpana {}", "sv": "{} högst"}


def describe(value: int, lang: str = "en", ranking: str = "high") -> str:
    if lang not in LANGS:
        raise ValueError(f"language must be one of {', '.join(LANGS)}")
    if ranking not in ("high", "front"):
        return describe_ranked(value, lang, ranking)
    category, ranks = unpack(value)
    name = NAMES[lang][category]
    one, many = SINGULAR[lang], PLURAL[lang]
    if category == 8 and ranks[0] == 12:
        return "Royal flush"
    if category == 0:
        return f"{name}, {one[ranks[0]]}"
    if category in (1, 3, 7):
        return f"{name}, {many[ranks[0]]}"
    if category in (2, 6):
        if lang == "en" and category == 6:
            return f"{name}, {many[ranks[0]]} full of {many[ranks[1]]}"
        return f"{name}, {many[ranks[0]]} {AND[lang]} {many[ranks[1]]}"
    return f"{name}, {HIGH[lang].format(one[ranks[0]])}"

SOKO_EXTRA = {
    "en": ["Four-card straight", "Four-card flush"],
    "fi": ["Neljän suora", "Neljän väri"],
    "sv": ["Stege med fyra kort", "Färg med fyra kort"],
}
LOW = {"en": "{} low", "fi": "Matala {}", "sv": "Låg {}"}
A5_RANK = "A23456789TJQK"
HIGH_RANK = "23456789TJQKA"


def describe_ranked(value: int, lang: str, ranking: str) -> str:
    """Descriptions for the rankings beyond plain high."""
    if ranking == "soko":
        category, ranks = unpack(value)
        if category in (2, 3):
            name = SOKO_EXTRA[lang][category - 2]
            return f"{name}, {HIGH[lang].format(SINGULAR[lang][ranks[0]])}"
        back = {0: 0, 1: 1, 4: 2, 5: 3, 6: 4, 7: 5, 8: 6, 9: 7, 10: 8}[category]
        return describe(value - ((category - back) << 20), lang)
    if ranking == "low-soko":
        return f"{describe_ranked(-value, lang, 'soko')} ({LOW[lang].format('').strip()})"
    if ranking.startswith("low"):
        category, ranks = unpack(-value)
        symbols = A5_RANK if ranking.startswith("low-a5") else HIGH_RANK
        if ranking == "low-27":
            if category in (0, 5):  # no pair: the five cards read high to low
                text = "-".join(symbols[r] for r in ranks)
                return LOW[lang].format(text) + ("" if category == 0 else f" ({NAMES[lang][5]})")
            return f"{describe(-value, lang)} ({LOW[lang].format('').strip()})"
        if category == 0:
            return LOW[lang].format("-".join(symbols[r] for r in ranks))
        return f"{NAMES[lang][category]} ({LOW[lang].format('').strip()})"
    if ranking == "front":
        return describe(value, lang)
    raise ValueError(f"no descriptions for ranking {ranking!r}")
