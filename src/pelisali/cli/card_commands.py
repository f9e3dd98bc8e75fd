"""``odds``, ``simulate`` and ``blackjack strategy`` for the banked card games."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table as RichTable

from pelisali.cli.common import console, fail, parse_sets, print_figures, progress_bar

if TYPE_CHECKING:
    from pelisali.analysis.simulate import SimResult
    from pelisali.games.blackjack_rules import BlackjackConfig
    from pelisali.rules.banked import UltimateRules

# The analysis and the card engines are imported by the commands that run them.

blackjack_app = typer.Typer(help="Blackjack analysis: basic strategy for a table's rules.",
                            no_args_is_help=True)


def baccarat_odds_command(sets: list[str] | None, decks: int | None, remaining: str | None,
                          as_json: bool) -> None:
    from pelisali.analysis.baccarat_odds import baccarat_odds, full_shoe, parse_composition
    from pelisali.games import GameError
    from pelisali.games.punto_banco import PuntoBancoConfig

    try:
        settings = parse_sets(sets)
        if decks is not None:
            settings["decks"] = str(decks)
        config = PuntoBancoConfig.from_settings(settings)
        composition = (parse_composition(remaining) if remaining is not None
                       else full_shoe(config.decks))
        started = time.perf_counter()
        result = baccarat_odds(composition, config)
        seconds = time.perf_counter() - started
    except GameError as exc:
        fail(str(exc))
    if as_json:
        data = result.to_json()
        data = {"game": "punto-banco", "variant": "", "settings": config.settings(), **data,
                "seconds": round(seconds, 3)}
        print(json.dumps(data, indent=2))
        return
    table = RichTable(title=f"Punto banco: exact odds from {sum(composition)} cards "
                            f"({'partly dealt shoe' if remaining else f'{config.decks} decks'})")
    for col in ("bet", "pays", "RTP", "", "house edge"):
        table.add_column(col, justify="right" if col else "left")
    pays = {"player": "1:1", "banker": "1:1 less 5 %", "tie": "8:1"}
    for bet, rtp in result.rtp.items():
        table.add_row(bet, pays[bet], str(rtp), f"{float(rtp):.6f}",
                      f"{float(1 - rtp) * 100:.4f} %")
    console.print(table)
    console.print("outcomes: " + ", ".join(f"{k} {float(v):.6f}"
                                            for k, v in result.outcomes.items())
                  + f"  ({seconds:.2f} s)")


def three_card_odds_command(sets: list[str] | None, as_json: bool) -> None:
    """Three Card Poker's exact house edges (``--set ante_bonus=1-3-5 pair_plus=...``)."""
    from pelisali.games.three_card_poker import PLAY_AT_LEAST, exact
    from pelisali.rules.banked import load_three_card_poker
    from pelisali.rules.loader import RuleDataError

    settings = parse_sets(sets)
    unknown = sorted(set(settings) - {"ante_bonus", "pair_plus"})
    if unknown:
        fail(f"three-card-poker takes the settings ante_bonus and pair_plus, not "
             f"{', '.join(unknown)}")
    bonus, plus = (str(settings[k]) if k in settings else None for k in ("ante_bonus",
                                                                          "pair_plus"))
    try:
        rules = load_three_card_poker(bonus, plus)
        found = exact(rules.ante_bonus_table, rules.pair_plus_table)
    except RuleDataError as exc:
        fail(str(exc))
    rows = [("ante and play (optimal)", found.ante_edge, "per ante"),
            ("ante and play (optimal)", found.element_of_risk, "element of risk"),
            ("Pair Plus", found.pair_plus_edge, "per bet")]
    if as_json:
        print(json.dumps({
            "game": "three-card-poker", "standard": rules.standard,
            "ante_bonus": rules.ante_bonus_table, "pair_plus": rules.pair_plus_table,
            "ante_edge": str(found.ante_edge), "element_of_risk": str(found.element_of_risk),
            "pair_plus_edge": str(found.pair_plus_edge), "play_share": str(found.play_share),
            "play_at_least": "-".join(PLAY_AT_LEAST), "deals": found.deals}, indent=2))
        return
    table = RichTable(title=f"Three Card Poker: exact house edges, all {found.deals:,} deals "
                            f"(ante bonus {rules.ante_bonus_table}, Pair Plus "
                            f"{rules.pair_plus_table})")
    for col in ("bet", "house edge", "", "measured"):
        table.add_column(col, justify="left" if col in ("bet", "measured") else "right")
    for bet, edge, what in rows:
        table.add_row(bet, str(edge), f"{float(edge) * 100:.4f} %", what)
    console.print(table)
    console.print(f"optimal play: play {'-'.join(PLAY_AT_LEAST)} or better, fold worse "
                  f"(played {float(found.play_share) * 100:.2f} % of hands)")
    console.print(rules.standard)


def ultimate_odds_command(sets: list[str] | None, as_json: bool) -> None:
    """Ultimate Texas Hold'em's exact house edges under the simple strategy and Trips',
    every deal counted (``--set blind=... trips=...``); kept in the user's cache."""
    from pelisali.games.ultimate_texas import (
        SIMPLE_STRATEGY,
        cached_exact,
        progressive_break_even,
        progressive_return,
    )
    from pelisali.money import format_cents
    from pelisali.rules.banked import load_ultimate
    from pelisali.rules.loader import RuleDataError

    settings = parse_sets(sets)
    unknown = sorted(set(settings) - {"blind", "trips", "strategy"})
    if unknown:
        fail(f"ultimate-texas-holdem takes the settings blind, trips and strategy, not "
             f"{', '.join(unknown)}")
    strategy = str(settings.get("strategy", "simple"))
    if strategy not in ("simple", "optimal"):
        fail(f"strategy is simple or optimal, not {strategy!r}")
    try:
        rules = load_ultimate(*(str(settings[k]) if k in settings else None
                                for k in ("blind", "trips")))
    except RuleDataError as exc:
        fail(str(exc))
    if strategy == "optimal":
        ultimate_optimal_command(rules, as_json)
        return
    started = time.perf_counter()
    with progress_bar(as_json) as progress:
        task = progress.add_task("counting every deal (suit patterns of the board)",
                                 total=134_459)
        found, kept = cached_exact(rules.blind_table, rules.trips_table,
                                   progress=lambda n: progress.advance(task, n))
    seconds = time.perf_counter() - started
    if as_json:
        print(json.dumps({
            "game": "ultimate-texas-holdem", "standard": rules.standard,
            "blind": rules.blind_table, "trips": rules.trips_table,
            "strategy": SIMPLE_STRATEGY, "ante_edge": str(found.ante_edge),
            "element_of_risk": str(found.element_of_risk),
            "shares": {k: str(v) for k, v in found.shares.items()},
            "trips_edge": str(found.trips_edge), "deals": found.deals,
            "progressive": {"return_at_seed": str(progressive_return(
                rules.progressive["seed"], rules)),
                "break_even_pool": progressive_break_even(rules)},
            "boards": found.boards, "from_cache": kept, "seconds": round(seconds, 3)},
            indent=2))
        return
    table = RichTable(title=f"Ultimate Texas Hold'em: exact house edges, all "
                            f"{found.deals:,} deals (blind {rules.blind_table}, Trips "
                            f"{rules.trips_table})")
    for col in ("bet", "house edge", "", "measured"):
        table.add_column(col, justify="left" if col in ("bet", "measured") else "right")
    for bet, edge, what in (("ante, blind and play (simple strategy)", found.ante_edge,
                             "per ante"),
                            ("ante, blind and play (simple strategy)", found.element_of_risk,
                             "element of risk"),
                            ("Trips", found.trips_edge, "per bet")):
        table.add_row(bet, str(edge), f"{float(edge) * 100:.4f} %", what)
    console.print(table)
    console.print("plays: " + ", ".join(f"{k} {float(v) * 100:.2f} %"
                                        for k, v in found.shares.items()))
    console.print(f"strategy: {SIMPLE_STRATEGY}")
    seed, even = rules.progressive["seed"], progressive_break_even(rules)
    console.print(f"progressive (player's two cards and the flop, fee "
                  f"{format_cents(rules.progressive['fee'])} €): returns "
                  f"{float(progressive_return(seed, rules)) * 100:.2f} % at the seeded pool of "
                  f"{format_cents(seed)} €, 100 % from a pool of {format_cents(even)} €")
    console.print(f"{rules.standard}. "
                  + (f"Read from the cache ({seconds:.2f} s)." if kept
                     else f"Counted in {seconds:.1f} s."))


def ultimate_optimal_command(rules: UltimateRules, as_json: bool) -> None:
    """Ultimate Texas Hold'em's optimal strategy, every deal counted, beside the published
    figures; kept in the user's cache."""
    from pelisali.games.ultimate_optimal import (
        PUBLISHED_OPTIMAL,
        PUBLISHED_SOURCE,
        cached_optimal,
        to_json,
    )

    started = time.perf_counter()
    with progress_bar(as_json) as progress:
        task = progress.add_task("the best play of every hand (suit patterns of the board)",
                                 total=134_459)
        found, kept = cached_optimal(rules.blind_table,
                                     progress=lambda n: progress.advance(task, n))
    seconds = time.perf_counter() - started
    if as_json:
        print(json.dumps({"game": "ultimate-texas-holdem", "standard": rules.standard,
                          "blind": rules.blind_table, "strategy": "optimal", **to_json(found),
                          "published": {**PUBLISHED_OPTIMAL, "source": PUBLISHED_SOURCE},
                          "from_cache": kept,
                          "seconds": round(seconds, 3)}, indent=2))
        return
    print_figures(f"Ultimate Texas Hold'em, the optimal strategy: all {found.deals:,} deals "
                  f"(blind {rules.blind_table})",
                  [("house edge per ante", found.ante_edge, PUBLISHED_OPTIMAL["ante_edge"]),
                   ("element of risk", found.element_of_risk,
                    PUBLISHED_OPTIMAL["element_of_risk"])])
    console.print("plays: " + ", ".join(f"{k} {float(v) * 100:.2f} %"
                                        for k, v in found.shares.items()))
    console.print(f"before the flop {found.preflop_4x} of the 1,326 pairs of hole cards play "
                  f"4 times and {found.preflop_3x} 3 times; of the checking hands' flops, "
                  f"{found.flop_2x:,} are played 2 times; each decision the better return "
                  "over every card to come and every dealer hand")
    console.print(f"published: {PUBLISHED_SOURCE}")
    console.print(f"{rules.standard}. "
                  + (f"Read from the cache ({seconds:.2f} s)." if kept
                     else f"Counted in {seconds:.1f} s."))


def red_dog_odds_command(decks: int | None, sets: list[str] | None, as_json: bool) -> None:
    """Red Dog's exact house edge with the optimal raise (``--decks``, ``--set
    pay_table=...``)."""
    from pelisali.games.red_dog import exact
    from pelisali.rules.banked import load_red_dog
    from pelisali.rules.loader import RuleDataError

    settings = parse_sets(sets)
    unknown = sorted(set(settings) - {"pay_table"})
    if unknown:
        fail(f"red-dog takes the setting pay_table and --decks, not {', '.join(unknown)}")
    table = str(settings["pay_table"]) if "pay_table" in settings else None
    try:
        rules = load_red_dog(decks, table)
        found = exact(rules.decks, rules.pay_table)
    except RuleDataError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps({
            "game": "red-dog", "standard": rules.standard, "decks": rules.decks,
            "pay_table": rules.pay_table, "edge": str(found.edge),
            "element_of_risk": str(found.element_of_risk),
            "raise_share": str(found.raise_share), "raise_from": found.raise_from,
            "deals": found.deals}, indent=2))
        return
    title = (f"Red Dog: exact house edge, {rules.decks} deck(s), all {found.deals:,} "
             f"two-card deals (pay table {rules.pay_table})")
    table_out = RichTable(title=title)
    for col in ("bet", "house edge", "", "measured"):
        table_out.add_column(col, justify="left" if col in ("bet", "measured") else "right")
    for edge, what in ((found.edge, "per ante"), (found.element_of_risk, "element of risk")):
        table_out.add_row("ante and raise (optimal)", str(edge), f"{float(edge) * 100:.4f} %",
                          what)
    console.print(table_out)
    console.print(f"optimal play: raise on a spread of {found.raise_from} or more "
                  f"(raised on {float(found.raise_share) * 100:.2f} % of hands)")
    console.print(rules.standard)


def chemin_de_fer_odds_command(decks: int | None, as_json: bool) -> None:
    """Chemin de fer's exact odds: the rule data's choices, every choice on five against
    every set of the banker's choices, and the best choices of both hands."""
    from pelisali.games.chemin_de_fer import equilibrium, exact, strategy_table
    from pelisali.rules.banked import load_chemin_de_fer
    from pelisali.rules.loader import RuleDataError

    try:
        rules = load_chemin_de_fer(decks)
        stated, table, best = exact(decks=decks), strategy_table(decks), equilibrium(decks)
    except RuleDataError as exc:
        fail(str(exc))

    def cells(choices: dict[tuple[int, int], str]) -> str:
        return ", ".join(f"banker {t} v {x}: {c}" for (t, x), c in sorted(choices.items()))

    if as_json:
        print(json.dumps({
            "game": "chemin-de-fer", "standard": rules.standard, "decks": rules.decks,
            "commission_percent": rules.commission_percent,
            "rows": [{"player_on_five": r.player_choice,
                      "banker": {f"{t} v {x}": c for (t, x), c in r.banker_choices.items()},
                      "banker_wins": str(r.outcome.banker), "player_wins": str(r.outcome.player),
                      "tie": str(r.outcome.tie), "player_value": str(r.player_value),
                      "banker_value": str(r.banker_value), "commission": str(r.commission)}
                     for r in table],
            "equilibrium": {"player_draws_on_five": str(best.draw), "player_value": str(best.value),
                            "banker_draws": {f"{t} v {x}": str(p)
                                             for (t, x), p in best.banker.items()}}},
            indent=2))
        return
    out = RichTable(title=f"Baccara, chemin de fer: exact odds, {rules.decks} decks, every "
                          f"deal counted; the house takes {rules.commission_percent} % of the "
                          "bank's wins")
    for col in ("on five", "banker's choices", "player", "bank (after commission)", "house"):
        out.add_column(col, justify="left" if col in ("on five", "banker's choices") else "right")
    for r in table:
        mark = " ◀ rule data" if (r.player_choice, r.banker_choices) == (
            stated.player_choice, stated.banker_choices) else ""
        out.add_row(r.player_choice, cells(r.banker_choices) + mark,
                    f"{float(r.player_value) * 100:.4f} %", f"{float(r.banker_value) * 100:.4f} %",
                    f"{float(r.commission) * 100:.4f} %")
    console.print(out)
    banker = ", ".join(f"banker {t} v {x} draws {float(p) * 100:.1f} %"
                       for (t, x), p in sorted(best.banker.items()))
    console.print(f"best play of both hands (commission aside): the player draws on five "
                  f"{float(best.draw) * 100:.1f} % of the time, {banker}; the player's "
                  f"expectation {float(best.value) * 100:.4f} % a unit "
                  f"({best.value.numerator}/{best.value.denominator})")
    console.print(f"the rule data's choices: {stated.player_choice} on five, "
                  f"{cells(stated.banker_choices)}: the chances of the bank, the player and a "
                  f"tie are {stated.outcome.banker}, {stated.outcome.player}, {stated.outcome.tie}")
    console.print(rules.standard)


def _blackjack_config(sets: list[str] | None) -> BlackjackConfig:
    from pelisali.games import GameError
    from pelisali.games.blackjack_rules import BlackjackConfig

    try:
        return BlackjackConfig.from_settings(parse_sets(sets))
    except GameError as exc:
        fail(str(exc))


def blackjack_odds_command(sets: list[str] | None, as_json: bool) -> None:
    from pelisali.analysis.blackjack_ca import basic_strategy, expected_return

    config = _blackjack_config(sets)
    with progress_bar(as_json) as progress:
        task = progress.add_task("combinatorial analysis", total=None)

        def step(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        started = time.perf_counter()
        strategy = basic_strategy(config)
        result = expected_return(config, strategy, progress=step)
        seconds = time.perf_counter() - started
    data = result.to_json()
    if as_json:
        print(json.dumps({"game": "blackjack", "variant": "", "settings": config.settings(),
                          **data, "seconds": round(seconds, 1)}, indent=2))
        return
    console.print(f"[bold]Blackjack, basic strategy, full {config.decks}-deck shoe[/]")
    rule_set = str(parse_sets(sets).get("rule_set", "ggpoker"))
    if rule_set != "ggpoker":
        from pelisali.rules.banked import blackjack_rule_set_marking

        console.print(blackjack_rule_set_marking(rule_set))
    console.print("settings: " + ", ".join(f"{k}={v}" for k, v in config.settings().items()))
    console.print(f"expected return {result.expected_return * 100:+.4f} % of the initial bet; "
                  f"house edge {result.edge * 100:.4f} % ({seconds:.1f} s)")


def simulate_card_command(game: str, rounds: int, seed: int, sets: list[str] | None,
                          workers: int | None, as_json: bool) -> SimResult:
    from pelisali.analysis.baccarat_odds import baccarat_odds, full_shoe
    from pelisali.analysis.card_simulate import simulate_cards
    from pelisali.games import GameError
    from pelisali.games.blackjack_rules import BlackjackConfig
    from pelisali.games.punto_banco import PuntoBancoConfig, PuntoBancoTable
    from pelisali.rng import SeededRng

    settings = parse_sets(sets)
    exact: dict[str, Fraction] = {}
    try:
        if game == "punto-banco":
            config = PuntoBancoConfig.from_settings(settings)
            PuntoBancoTable(SeededRng(0), config)  # the shoe settings fit together
            exact = dict(baccarat_odds(full_shoe(config.decks), config).rtp)
        else:
            from pelisali.analysis.blackjack_ca import basic_strategy, expected_return

            bj = BlackjackConfig.from_settings(settings)
            value = expected_return(bj, basic_strategy(bj)).expected_return
            exact = {"basic strategy": 1 + Fraction(value).limit_denominator(10**12)}
    except GameError as exc:
        fail(str(exc))
    with progress_bar(as_json) as progress:
        task = progress.add_task(f"simulating {game}", total=rounds)
        return simulate_cards(game, rounds, seed, settings, workers,
                              progress=lambda n: progress.advance(task, n), exact=exact)


@blackjack_app.command()
def strategy(
    sets: Annotated[list[str] | None, typer.Option("--set", help="table setting KEY=VALUE")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    chart: Annotated[Path | None, typer.Option(help="draw the chart to FILE.png or FILE.svg")]
    = None,
) -> None:
    """The basic strategy for the configured rules, from the engine's exact analysis."""
    from pelisali.analysis.blackjack_ca import basic_strategy
    from pelisali.cli.cards import strategy_table

    config = _blackjack_config(sets)
    if chart is not None and chart.suffix.lower() not in (".png", ".svg"):
        fail("--chart takes a .png or .svg file name")
    plan = basic_strategy(config)
    if as_json:
        print(json.dumps({"settings": config.settings(), **plan.to_json()}, indent=2))
    else:
        console.print("settings: " + ", ".join(f"{k}={v}" for k, v in config.settings().items()))
        for table in strategy_table(plan):
            console.print(table)
        console.print("H hit, S stand, D double (else hit), Ds double (else stand), P split. "
                      "Insurance: never.")
    if chart is not None:
        from pelisali.analysis.blackjack_chart import render_chart

        render_chart(plan, chart, title=f"Basic strategy: {config.decks} decks, "
                     f"blackjack {config.blackjack_pays}, "
                     f"{'DAS' if config.double_after_split else 'no DAS'}")
        if not as_json:
            console.print(f"chart written to {chart}")
