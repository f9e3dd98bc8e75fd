"""The lobby (the games, and the tables players share), a wager game's layout, and the
rules of every game version in Finnish, Swedish or English."""

from typing import Annotated, Any

from fastapi import APIRouter, Query

from pelisali.games import GAMES, ROULETTE_VARIANTS, make_game
from pelisali.games.base import WagerGame
from pelisali.platform import queries
from pelisali.server.dependencies import AppState, wager_game
from pelisali.server.retry import RetryingRoute
from pelisali.server.rules_text import Timers, card_rules_of, poker_rules_of, rules_of

router = APIRouter(tags=["lobby"], route_class=RetryingRoute)


@router.get("/api/lobby")
def lobby(state: AppState) -> dict[str, Any]:
    with state.db() as session:
        tables = queries.lobby_tables(session)
    listed = [{"name": t.name, "game": t.game, "variant": t.variant, "mode": t.mode,
               "min": t.min, "max": t.max} for t in tables]
    games = [{"game": g, "variants": list(ROULETTE_VARIANTS) if g == "roulette" else [],
              "title": make_game(g, "C" if g == "roulette" else None).rules.name.en,
              "versions": [_version(g, v) for v in ROULETTE_VARIANTS] if g == "roulette"
              else []}
             for g in GAMES] + [
        {"game": "punto-banco", "variants": [], "title": "Punto banco"},
        {"game": "blackjack", "variants": [], "title": "Blackjack"}]
    return {"games": games, "tables": listed}


def _version(game: str, variant: str) -> dict[str, Any]:
    """A version in a line for the lobby, in each language, with its limits."""
    rules = make_game(game, variant).rules
    return {"variant": variant, "min": rules.limits.min, "max": rules.limits.max,
            "description": {lang: getattr(rules.description, lang) for lang in ("fi", "sv", "en")}}


@router.get("/api/layout/{game}")
def layout(game: str, variant: Annotated[str | None, Query(max_length=2)] = None,
           ) -> dict[str, Any]:
    engine = wager_game(game, variant)
    out: dict[str, Any] = {
        "game": engine.name, "variant": engine.variant or "",
        "min": engine.rules.limits.min, "max": engine.rules.limits.max,
        "spots": [{"key": s.key, "bet_type": s.bet_type,
                   "pays": engine.payout_label(s.bet_type)} for s in engine.spots()]}
    if engine.name == "roulette":
        out["numbers"] = _numbers(engine)
    return out


@router.get("/api/rules/{game}")
def rules(game: str, state: AppState,
          variant: Annotated[str | None, Query(max_length=2)] = None,
          lang: Annotated[str, Query(pattern="^(fi|sv|en)$")] = "fi") -> dict[str, Any]:
    if game in ("punto-banco", "blackjack"):
        return card_rules_of(game, lang)
    if game == "poker":
        return poker_rules_of(lang, Timers(state.act_seconds, state.showdown_seconds,
                                           state.away_seconds))
    return rules_of(wager_game(game, variant), lang)


def _numbers(game: WagerGame) -> list[dict[str, str]]:
    red = set(game.rules.groups.red)  # type: ignore[attr-defined]
    out = []
    for number in game.pockets:  # type: ignore[attr-defined]
        colour = ("green" if not number.isdigit() or int(number) == 0 else
                  "red" if int(number) in red else "black")
        out.append({"number": number, "colour": colour})
    return out
