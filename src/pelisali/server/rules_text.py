"""The rules of a game version as players read them at the table (RAY 1.1: the rules
and limits are available at every table), in Finnish, Swedish or English, rendered
from the same rule data and engine the table plays: the names and descriptions from
the rule file, every bet type with what it pays and the section it comes from.

>>> from pelisali.games import make_game
>>> shown = rules_of(make_game("roulette", "C"), "fi")
>>> shown["title"], shown["lines"][0]
('Ruletti C', {'bet': 'Yksi numero', 'pays': '35:1', 'section': 'RAY 2016 1.2.1 C, Voitonmaksu'})
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pelisali.games.base import WagerGame
from pelisali.money import format_cents
from pelisali.rules.schema import BlackjackRules, PuntoBancoRules

LANGUAGES = ("fi", "sv", "en")

# What the bet types are called at the table: (Finnish, Swedish, English).
BET_NAMES: dict[str, tuple[str, str, str]] = {
    "straight": ("Yksi numero", "Plein", "Straight up"),
    "split": ("Kaksi numeroa", "Cheval", "Split"),
    "street": ("Kolme numeroa", "Transversale", "Street"),
    "corner": ("Neljä numeroa", "Carré", "Corner"),
    "sixline": ("Kuusi numeroa", "Sixain", "Six line"),
    "first_five": ("Viisi ensimmäistä", "De fem första", "First five"),
    "dozen": ("Tusina", "Dussin", "Dozen"),
    "column": ("Sarake", "Kolonn", "Column"),
    "red": ("Punainen", "Röd", "Red"),
    "black": ("Musta", "Svart", "Black"),
    "even": ("Parillinen", "Jämn", "Even"),
    "odd": ("Pariton", "Udda", "Odd"),
    "low": ("1-18", "1-18", "1-18"),
    "high": ("19-36", "19-36", "19-36"),
    "quarter": ("Neljännes", "Kvart", "Quarter"),
    "small": ("Pieni", "Liten", "Small"),
    "big": ("Suuri", "Stor", "Big"),
    "single": ("Yksi noppa", "En tärning", "Single number"),
    "two_dice": ("Kahden nopan yhdistelmä", "Tvåtärningskombination", "Two-dice combination"),
    "double": ("Pari", "Par", "Double"),
    "any_triple": ("Mikä tahansa kolmoset", "Vilken trippel som helst", "Any triple"),
    "specific_triple": ("Tietyt kolmoset", "Bestämd trippel", "Specific triple"),
    "any_pair": ("Mikä tahansa pari", "Vilket par som helst", "Any pair"),
    "under_7": ("Alle 7", "Under 7", "Under 7"),
    "over_7": ("Yli 7", "Över 7", "Over 7"),
    "joker": ("Jokeri", "Joker", "Joker"),
    "player": ("Pelaaja", "Spelare", "Player"),
    "banker": ("Pankkiiri", "Bank", "Banker"),
    "tie": ("Tasapeli", "Oavgjort", "Tie"),
    "win": ("Voittava käsi", "Vinnande hand", "Winning hand"),
    "blackjack": ("Blackjack", "Blackjack", "Blackjack"),
    "insurance": ("Vakuutus", "Försäkring", "Insurance"),
    "logo": ("Logo", "Logo", "Logo"),
}
HEADINGS = {
    "fi": {"bet": "Sijoitus", "pays": "Voitto", "limits": "Pöydän panosrajat"},
    "sv": {"bet": "Insats", "pays": "Vinst", "limits": "Bordets insatsgränser"},
    "en": {"bet": "Bet", "pays": "Pays", "limits": "Table limits"},
}


def _limits(low: int, high: int) -> dict[str, Any]:
    return {"min": low, "max": high, "text": f"{format_cents(low)} - {format_cents(high)} €"}


def bet_name(bet_type: str, lang: str) -> str:
    """A bet type's name in ``lang``; totals and sums by their number."""
    names = BET_NAMES.get(bet_type)
    if names is not None:
        return names[LANGUAGES.index(lang)]
    for prefix, words in (("total_", ("Summa", "Summa", "Total")),
                          ("sum_", ("Summa", "Summa", "Sum"))):
        if bet_type.startswith(prefix):
            return f"{words[LANGUAGES.index(lang)]} {bet_type.removeprefix(prefix)}"
    return bet_type  # the money wheel's symbols are their own names


def rules_of(game: WagerGame, lang: str) -> dict[str, Any]:
    """The rules page of ``game`` in ``lang`` (fi, sv or en)."""
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r}: fi, sv or en")
    rules = game.rules
    declared = getattr(rules, "bets", {}) or {}
    lines: list[dict[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for spot in game.spots():
        pays = game.payout_label(spot.bet_type)
        if (spot.bet_type, pays) in seen:
            continue
        seen.add((spot.bet_type, pays))
        rule = declared.get(spot.bet_type) if isinstance(declared, dict) else None
        lines.append({"bet": bet_name(spot.bet_type, lang), "pays": pays,
                      "section": getattr(rule, "section", None) or rules.section})
    return {
        "title": getattr(rules.name, lang), "description": getattr(rules.description, lang),
        "section": rules.section, "headings": HEADINGS[lang],
        "limits": _limits(rules.limits.min, rules.limits.max),
        "lines": lines,
        "notes": [zero_note(zero, lang)] if (zero := getattr(rules, "zero_rule", None))
        is not None else [],
    }


# What a zero does to the outside bets that do not cover it, in each language: the rule
# data's values (even chances: lose, half back or the table's setting of la partage or
# en prison; dozens and columns lose).
ZERO_WORDS: dict[str, dict[str, str]] = {
    "fi": {"lose": "Kun voittava numero on 0, tasapanokset häviävät",
           "half": "Kun voittava numero on 0, tasapanoksista palautetaan puolet (la partage)",
           "setting": "Kun voittava numero on 0, tasapanoksista palautetaan puolet (la partage) "
                      "tai ne jäävät vankilaan (en prison) pöydän tai pelaajan valinnan mukaan",
           "two_to_one": "tusinat ja sarakkeet häviävät; nollan kattavat panokset maksetaan "
                         "normaalisti."},
    "sv": {"lose": "När vinstnumret är 0 förlorar de enkla chanserna",
           "half": "När vinstnumret är 0 återbetalas hälften av de enkla chanserna (la partage)",
           "setting": "När vinstnumret är 0 återbetalas hälften av de enkla chanserna (la "
                      "partage) eller så hålls de i fängelse (en prison), efter bordets eller "
                      "spelarens val",
           "two_to_one": "dussin och kolumner förlorar; insatser som täcker noll betalas som "
                         "vanligt."},
    "en": {"lose": "When the winning number is 0, the even chances lose",
           "half": "When the winning number is 0, half of each even-chance bet comes back "
                   "(la partage)",
           "setting": "When the winning number is 0, half of each even-chance bet comes back "
                      "(la partage) or it is held in prison (en prison), as the table or the "
                      "player chooses",
           "two_to_one": "dozens and columns lose; bets covering zero are paid as usual."},
}


def zero_note(rule: Any, lang: str) -> str:
    """The zero rule in ``lang``, with its section (the rulebook's own words, which are
    Finnish, quoted only on the Finnish page).

    >>> from pelisali.rules import load_rules
    >>> zero_note(load_rules("roulette", "C").zero_rule, "en")[:60]
    'When the winning number is 0, the even chances lose; dozens '
    """
    words = ZERO_WORDS[lang]
    section = str(rule.section)
    # Elsewhere the references alone: each source before its quote or gloss.
    cited = section if lang == "fi" else "; ".join(
        part.split(":", 1)[0].strip() for part in section.split("; ")
        if part.startswith(("RAY", "GGPoker", "RULINGS")))
    return f"{words[rule.even_chance]}; {words['two_to_one']} ({cited})"


def card_rules_of(game: str, lang: str) -> dict[str, Any]:
    """The rules page of punto banco or blackjack in ``lang``: what each bet pays, with
    its section, and every table setting's source.

    >>> line = card_rules_of("punto-banco", "sv")["lines"][1]
    >>> line["bet"], line["pays"], line["section"][:15]
    ('Bank', '1:1', 'GGPoker I 2.2.2')
    """
    from pelisali.rules import load_rules

    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r}: fi, sv or en")
    rules = load_rules(game)
    if not isinstance(rules, PuntoBancoRules | BlackjackRules):
        raise ValueError(f"{game} is not a card game")
    lines = [{"bet": bet_name(name, lang), "pays": str(cited.odds), "section": cited.section}
             for name, cited in rules.payouts if hasattr(cited, "odds")]
    notes = [cited.section for _, cited in rules.payouts if not hasattr(cited, "odds")]
    notes += [setting.section for setting in (rules.settings or {}).values()]
    return {
        "title": getattr(rules.name, lang), "description": getattr(rules.description, lang),
        "section": rules.section, "headings": HEADINGS[lang],
        "limits": _limits(rules.limits.min, rules.limits.max),
        "lines": lines, "notes": notes,
    }


# The poker room's rules as RAY 2016 1.4.1.1.1 states them: (Finnish, Swedish, English).
POKER_RULES: tuple[tuple[tuple[str, str, str], str], ...] = (
    (("Pelaaja ostaa pöytään vähintään pöydän minimiostoksen verran pelimerkkejä.",
      "Spelaren köper in sig med minst bordets minsta inköp.",
      "A player buys in for at least the table's minimum."), "RAY 2016 1.4.1.1.1"),
    (("Käden aikana ei osteta pelimerkkejä; käsi pelataan pöydällä olevilla merkeillä.",
      "Inga marker köps under en hand; handen spelas med markerna på bordet.",
      "No chips are bought during a hand; it is played with the chips on the table."),
     "RAY 2016 1.4.1.1.1"),
    (("Talo ottaa joko prosenttiosuuden panoksista (enintään katon verran kädessä) tai "
      "aikamaksun pelaajalta; voimassa oleva tapa näytetään pöydässä.",
      "Huset tar antingen en procentandel av insatserna (högst taket per hand) eller en "
      "tidsavgift per spelare; den gällande regeln visas vid bordet.",
      "The house takes either a percentage of the chips bet (at most the cap a hand) or "
      "a time charge per player; the rule in force is shown at the table."),
     "RAY 2016 1.4.1.1.1"),
    (("Bad beat -jackpotin kertymä lisätään jackpot-summaan pelipäivän lopussa.",
      "Bad beat-jackpottens ackumulering läggs till jackpotten i slutet av speldagen.",
      "The bad-beat jackpot's accrual joins the jackpot at the end of the gaming day."),
     "RAY 2016 1.4.1.1.1"),
    (("Kaikkia pokeripelejä voidaan pelata myös low- tai high/low-versioina.",
      "Alla pokerspel kan också spelas som low- eller high/low-varianter.",
      "Every poker game can also be played as a low or high/low version."),
     "RAY 2016 1.4.1.1.1"),
)
POKER_TITLE = ("Pokeri", "Poker", "Poker")
# The room's own times (the rulebook is silent on timers): the server's settings.
HOUSE_RULE = ("Pelisalin talon sääntö", "Pelisalis husregel", "Pelisali house rule")
POKER_TIMERS = (
    ("Pelaajalla on {act} s aikaa toimia. Jos aika loppuu, hän passaa jos voi, muuten "
     "luovuttaa, ja jää tauolle seuraavasta kädestä.",
     "Spelaren har {act} s på sig att agera. Tar tiden slut checkar hen om det går, "
     "annars lägger hen sig, och står över från nästa hand.",
     "A player has {act} s to act. When the time runs out they check if they may, fold "
     "if not, and sit out from the next hand."),
    ("Näyttöön asti pelatun käden kädet nimetään ja tulos näkyy {showdown} s ennen "
     "seuraavaa kättä.",
     "Vid visningen namnges händerna och resultatet visas {showdown} s före nästa hand.",
     "At the showdown the hands are named, and the result stays {showdown} s before the "
     "next hand."),
    ("Jos yhteys katkeaa, pelaaja pitää paikkansa ja käsi pelataan ajastimella. Jos hän "
     "ei palaa {away} s kuluessa, hän jää tauolle ja hänen pelimerkkinsä siirretään "
     "pelitilille (käden päätyttyä, jos hän on kädessä).",
     "Om anslutningen bryts behåller spelaren sin plats och handen spelas vidare med "
     "timern. Kommer hen inte tillbaka inom {away} s står hen över och hens marker "
     "förs till spelkontot (när handen är slut, om hen är med i den).",
     "A player whose connection drops keeps the seat, and the hand is played on by the "
     "timer. If they are not back within {away} s they are sat out and their chips are "
     "cashed out to the wallet (when the hand ends, if they are in it)."),
)


@dataclass(frozen=True)
class Timers:
    """A poker table's times, in seconds: to act, a showdown's stay, away before the
    cash-out."""

    act: float = 20.0
    showdown: float = 5.0
    away: float = 120.0


def _seconds(value: float) -> str:
    return f"{value:g}"


def poker_rules_of(lang: str, timers: Timers | None = None) -> dict[str, Any]:
    """The poker room's rules in ``lang``, with the games it deals and the room's times.

    >>> poker_rules_of("en")["lines"][0]["bet"]
    "A player buys in for at least the table's minimum."
    >>> "not back within 90 s" in poker_rules_of("en", Timers(away=90))["lines"][-1]["bet"]
    True
    """
    from pelisali.poker.games import GAMES as POKER_GAMES

    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r}: fi, sv or en")
    times = timers or Timers()
    at = LANGUAGES.index(lang)
    return {"title": POKER_TITLE[at], "description": ", ".join(POKER_GAMES),
            "section": "RAY 2016 1.4.1.1", "headings": HEADINGS[lang], "limits": None,
            "lines": [{"bet": text[at], "pays": "", "section": section}
                      for text, section in POKER_RULES]
            + [{"bet": text[at].format(act=_seconds(times.act),
                                       showdown=_seconds(times.showdown),
                                       away=_seconds(times.away)),
                "pays": "", "section": HOUSE_RULE[at]} for text in POKER_TIMERS],
            "notes": []}
