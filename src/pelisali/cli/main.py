"""``pelisali``: games, exact odds, simulation and terminal play."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table as RichTable
from typer.core import TyperGroup

from pelisali.cli.common import CARD_GAMES, console, fail, load_game, parse_sets, progress_bar

if TYPE_CHECKING:
    from pelisali.analysis.simulate import SimResult
    from pelisali.engine import Game

# Each command imports what it runs (the engines, the analysis, the platform, NumPy,
# SQLAlchemy) when it runs, so `pelisali --help` and a light command start quickly. The
# command groups and the commands kept in other modules are found by name, each built
# when it is asked for (LAZY): a command run builds its own options, not every one's.
LAZY: dict[str, tuple[str, str]] = {  # the commands first, then the groups, as listed
    "history": ("pelisali.cli.platform", "history_command"),
    "recall": ("pelisali.cli.platform", "recall_command"),
    "verify-round": ("pelisali.cli.fair", "verify_round_command"),
    "serve": ("pelisali.cli.serve", "serve"),
    "blackjack": ("pelisali.cli.card_commands", "blackjack_app"),
    "poker": ("pelisali.cli.poker", "poker_app"),
    "tournament": ("pelisali.cli.tournament", "tournament_app"),
    "account": ("pelisali.cli.platform", "account_app"),
    "wallet": ("pelisali.cli.platform", "wallet_app"),
    "ledger": ("pelisali.cli.platform", "ledger_app"),
    "audit": ("pelisali.cli.platform", "audit_app"),
    "db": ("pelisali.cli.platform", "db_app"),
    "table": ("pelisali.cli.platform", "table_app"),
    "house": ("pelisali.cli.platform", "house_app"),
    "report": ("pelisali.cli.platform", "report_app"),
    "jackpot": ("pelisali.cli.platform", "jackpot_app"),
    "aml": ("pelisali.cli.platform", "aml_app"),
    "bonus": ("pelisali.cli.platform", "bonus_app"),
    "fair": ("pelisali.cli.fair", "fair_app"),
    "rng": ("pelisali.cli.rng", "rng_app"),
    "login": ("pelisali.cli.serve", "login_app"),
}


class _LazyGroup(TyperGroup):
    """The top-level group: its own commands, and those of :data:`LAZY` imported and
    built when named (listing them for ``--help`` builds them all, as before)."""

    # (``Any``: Typer's own Click types, vendored under a private name)
    def list_commands(self, ctx: Any) -> list[str]:
        return [*super().list_commands(ctx), *(n for n in LAZY if n not in self.commands)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name in self.commands or cmd_name not in LAZY:
            return super().get_command(ctx, cmd_name)
        module, attribute = LAZY[cmd_name]
        target: Any = getattr(importlib.import_module(module), attribute)
        command: Any
        if isinstance(target, typer.Typer):  # a group, as add_typer makes it
            command = typer.main.get_group(target)
        else:  # a single command, as app.command makes it
            single = typer.Typer(add_completion=False)
            single.command(name=cmd_name)(target)
            command = typer.main.get_command(single)
        command.name = cmd_name
        self.commands[cmd_name] = command
        return command


app = typer.Typer(help="Pelisali: the RAY and GGPoker casino rulebooks as exact, auditable games.",
                  no_args_is_help=True, add_completion=False, cls=_LazyGroup)

GameArg = Annotated[str, typer.Argument(
    help="roulette, boule, money-wheel, tuplanoppa, sic-bo, baccarat (punto-banco), blackjack, "
         "three-card-poker, red-dog, ultimate-texas-holdem, texas-holdem-bonus, "
         "oasis-stud, pai-gow-poker, russian-poker, chemin-de-fer (odds) "
         "or slot")]
VariantOpt = Annotated[str | None, typer.Option("--variant", "-v", help="roulette version A-I")]
SetOpt = Annotated[list[str] | None, typer.Option("--set", help="table setting KEY=VALUE")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]


@app.command()
def games(as_json: JsonOpt = False) -> None:
    """Every game and version with its rulebook section."""
    from pelisali.rules import available, load_rules

    rows = []
    for game, variant in available():
        rules = load_rules(game, variant)
        rows.append({"game": game, "variant": variant, "name": rules.name.en,
                     "section": rules.section, "description": rules.description.en,
                     "settings": {k: {"default": s.default, "choices": s.choices}
                                  for k, s in rules.settings.items()}})
    if as_json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    table = RichTable(title="Pelisali games")
    for col in ("game", "version", "section", "description"):
        table.add_column(col)
    for row in rows:
        table.add_row(str(row["game"]), str(row["variant"]), str(row["section"]),
                      str(row["description"]))
    console.print(table)


@app.command()
def odds(
    game: GameArg,
    name: Annotated[str | None, typer.Argument(
        help="slot: the slot game (fruit, video) or a slot rule file FILE.toml")] = None,
    variant: VariantOpt = None,
    sets: SetOpt = None,
    decks: Annotated[int | None, typer.Option(
        help="baccarat, red-dog, chemin-de-fer: decks in a full shoe")] = None,
    remaining: Annotated[str | None, typer.Option(
        help="baccarat: the shoe's remaining cards, e.g. 'A=31,2=32,...,K=30' or ten counts "
             "for values 0-9")] = None,
    lines: Annotated[int | None, typer.Option(
        help="slot: lines played, or a ways game's bet multiplier (default: the most)")] = None,
    par_file: Annotated[Path | None, typer.Option(
        "--par-sheet", help="slot: write the par sheet to FILE.csv or FILE.xlsx")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Exact RTP and house edge of every bet type, from the engine's own outcomes; for
    ``slot NAME`` the exact par sheet."""
    if game.lower() == "slot":
        from pelisali.cli.slots import slot_odds_command

        slot_odds_command(name, lines, par_file, as_json)
        return
    if name is not None or lines is not None or par_file is not None:
        fail("a second name, --lines and --par-sheet are for 'odds slot NAME'")
    if game.lower() == "chemin-de-fer":
        if remaining is not None or variant is not None or sets:
            fail("chemin de fer takes --decks (6 or 8) and --json only")
        from pelisali.cli.card_commands import chemin_de_fer_odds_command

        chemin_de_fer_odds_command(decks, as_json)
        return
    if game.lower() == "red-dog":
        if remaining is not None or variant is not None:
            fail("--remaining and --variant are not Red Dog's")
        from pelisali.cli.card_commands import red_dog_odds_command

        red_dog_odds_command(decks, sets, as_json)
        return
    if game.lower() == "ultimate-texas-holdem":
        if decks is not None or remaining is not None or variant is not None:
            fail("--decks, --remaining and --variant are not Ultimate Texas Hold'em's")
        from pelisali.cli.card_commands import ultimate_odds_command

        ultimate_odds_command(sets, as_json)
        return
    if game.lower() == "texas-holdem-bonus":
        if decks is not None or remaining is not None or variant is not None:
            fail("--decks, --remaining and --variant are not Texas Hold'em Bonus's")
        from pelisali.cli.holdem_bonus_commands import holdem_bonus_odds_command

        holdem_bonus_odds_command(sets, as_json)
        return
    if game.lower() == "oasis-stud":
        if decks is not None or remaining is not None or variant is not None:
            fail("--decks, --remaining and --variant are not Oasis Stud Poker's")
        from pelisali.cli.oasis_odds import oasis_odds_command

        oasis_odds_command(sets, as_json)
        return
    if game.lower() == "russian-poker":
        if decks is not None or remaining is not None or variant is not None:
            fail("--decks, --remaining and --variant are not Russian Poker's")
        from pelisali.cli.russian_odds import russian_odds_command

        russian_odds_command(sets, as_json)
        return
    if game.lower() == "pai-gow-poker":
        if decks is not None or remaining is not None or variant is not None:
            fail("--decks, --remaining and --variant are not Pai Gow Poker's")
        from pelisali.cli.pai_gow_commands import pai_gow_odds_command

        pai_gow_odds_command(sets, as_json)
        return
    if game.lower() == "three-card-poker":
        if decks is not None or remaining is not None or variant is not None:
            fail("--decks, --remaining and --variant are not Three Card Poker's")
        from pelisali.cli.card_commands import three_card_odds_command

        three_card_odds_command(sets, as_json)
        return
    kind = CARD_GAMES.get(game.lower())
    if kind == "punto-banco":
        from pelisali.cli.card_commands import baccarat_odds_command

        baccarat_odds_command(sets, decks, remaining, as_json)
        return
    if kind == "blackjack":
        if remaining is not None:
            fail("--remaining is for baccarat")
        from pelisali.cli.card_commands import blackjack_odds_command

        blackjack_odds_command([*(sets or []), *([f"decks={decks}"] if decks else [])], as_json)
        return
    if decks is not None or remaining is not None:
        fail("--decks and --remaining are for baccarat")
    from pelisali.analysis.odds import exact_odds

    engine = load_game(game, variant, sets)
    rows = exact_odds(engine)
    if as_json:
        print(json.dumps({"game": engine.name, "variant": engine.variant,
                          "settings": engine.settings,
                          "bets": [row.to_json() for row in rows]}, ensure_ascii=False, indent=2))
        return
    table = RichTable(title=f"{engine.rules.name.en}: exact odds ({engine.rules.section})")
    for col, justify in (("bet", "left"), ("payout", "right"), ("spots", "right"),
                         ("RTP", "right"), ("", "right"), ("house edge", "right")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for row in rows:
        table.add_row(row.bet, row.payout, str(row.spots), str(row.rtp), f"{float(row.rtp):.6f}",
                      f"{float(row.house_edge) * 100:.4f} %")
    console.print(table)
    if engine.settings:
        console.print("settings: " + ", ".join(f"{k}={v}" for k, v in engine.settings.items()))


@app.command()
def simulate(
    game: GameArg,
    seed: Annotated[int, typer.Option(help="seed: the same seed gives the same output")],
    name: Annotated[str | None, typer.Argument(
        help="slot: the slot game (fruit, video) or a slot rule file FILE.toml")] = None,
    rounds: Annotated[int | None, typer.Option(help="rounds to simulate")] = None,
    spins: Annotated[int | None, typer.Option(
        help="slot: rounds to simulate (a paid spin and the free spins it starts)")] = None,
    lines: Annotated[int | None, typer.Option(
        help="slot: lines played, or a ways game's bet multiplier (default: the most)")] = None,
    strips: Annotated[Path | None, typer.Option(
        help="slot: play the strips of this rule file against NAME's par sheet")] = None,
    variant: VariantOpt = None,
    sets: SetOpt = None,
    workers: Annotated[int, typer.Option(
        help="processes (slot: threads) (default: every core)")] = 0,
    seats: Annotated[int | None, typer.Option(
        help="engine games (poker): seats at the table, each with the default chips")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Monte Carlo through the round code: observed RTP with its 99 % interval.

    Any other game id of the engine registry (the poker games: holdem, stud, ...) is
    self-played through the engine contract with random legal actions. ``slot NAME
    --spins N`` simulates a slot in NumPy batches beside its exact par sheet and exits 1
    when they disagree."""
    if seed < 0:
        fail("--seed must be 0 or more")
    if workers < 0:
        fail("--workers must be 0 (every core) or more")
    if game.lower() == "slot":
        count = spins if spins is not None else rounds
        if count is None or count <= 0 or (spins is not None and rounds is not None):
            fail("give a positive --spins (or --rounds) for 'simulate slot NAME'")
        if variant is not None or sets or seats is not None:
            fail("--variant, --set and --seats are not for 'simulate slot NAME'")
        from pelisali.cli.slots import slot_simulate_command

        slot_simulate_command(name, count, seed, lines, workers, strips, as_json)
        return
    if name is not None or spins is not None or lines is not None or strips is not None:
        fail("a second name, --spins, --lines and --strips are for 'simulate slot NAME'")
    if rounds is None:
        fail("Missing option '--rounds'")
    if rounds <= 0:
        fail("--rounds must be positive")
    if game.lower() == "oasis-stud":
        if seats is not None or variant is not None:
            fail("oasis-stud is simulated with one seat; --seats and --variant do not apply")
        from pelisali.cli.oasis_simulate import oasis_simulate_command

        oasis_simulate_command(rounds, seed, sets, as_json)
        return
    if game.lower() == "russian-poker":
        if seats is not None or variant is not None:
            fail("russian-poker is simulated with one seat; --seats and --variant do not apply")
        from pelisali.cli.russian_simulate import russian_simulate_command

        russian_simulate_command(rounds, seed, sets, as_json)
        return
    if game.lower() == "pai-gow-poker":
        if seats is not None or variant is not None:
            fail("pai-gow-poker is simulated with one seat; --seats and --variant do not apply")
        from pelisali.cli.pai_gow_commands import pai_gow_simulate_command

        pai_gow_simulate_command(rounds, seed, sets, as_json)
        return
    if game.lower() in BANKED_SIMULATIONS:
        if seats is not None or variant is not None:
            fail(f"{game.lower()} is simulated with one seat; --seats and --variant do not "
                 "apply")
        from pelisali.analysis import banked_simulate, holdem_bonus_simulate
        from pelisali.engine import IllegalMove

        title = BANKED_SIMULATIONS[game.lower()]
        run = {"three-card-poker": banked_simulate.simulate_three_card,
               "red-dog": banked_simulate.simulate_red_dog,
               "ultimate-texas-holdem": banked_simulate.simulate_ultimate,
               "chemin-de-fer": banked_simulate.simulate_chemin,
               "texas-holdem-bonus": holdem_bonus_simulate.simulate_holdem_bonus,
               }[game.lower()]
        with progress_bar(as_json) as progress:
            task = progress.add_task(f"simulating {title}", total=rounds)
            try:
                found = run(rounds, seed, parse_sets(sets),
                            progress=lambda n: progress.advance(task, n))
            except (IllegalMove, ValueError) as exc:
                fail(str(exc))
        played = {"ultimate-texas-holdem": f"the {found.settings.get('strategy')} strategy",
                  "texas-holdem-bonus": f"the {found.settings.get('strategy')} strategy",
                  "chemin-de-fer": "the rule data's choices"}.get(game.lower(), "optimal play")
        _print_simulation(found, f"{title}: {rounds:,} rounds, seed {seed}, {played}, "
                                 "through the engine", as_json)
        return
    from pelisali.engine import GAMES as ENGINE_GAMES

    if game in ENGINE_GAMES and game.lower() not in (*LEGACY_SIMULATIONS, *CARD_GAMES):
        _simulate_contract(ENGINE_GAMES[game], rounds, seed, seats, as_json)
        return
    if seats is not None:
        fail("--seats is for the games simulated through the engine contract (poker)")
    if game.lower() in CARD_GAMES:
        from pelisali.cli.card_commands import simulate_card_command

        result = simulate_card_command(CARD_GAMES[game.lower()], rounds, seed, sets,
                                       workers or None, as_json)
        _print_simulation(result, f"{CARD_GAMES[game.lower()]}: {rounds:,} rounds, seed {seed}",
                          as_json)
        return

    from pelisali.analysis.simulate import simulate as run_simulation

    engine = load_game(game, variant, sets)
    with progress_bar(as_json) as progress:
        task = progress.add_task(f"simulating {engine.title()}", total=rounds)
        result = run_simulation(engine, rounds, seed, workers or None,
                                progress=lambda n: progress.advance(task, n))
    _print_simulation(result, f"{engine.rules.name.en}: {rounds:,} rounds, seed {seed}", as_json)


BANKED_SIMULATIONS = {"three-card-poker": "Three Card Poker", "red-dog": "Red Dog",
                      "ultimate-texas-holdem": "Ultimate Texas Hold'em",
                      "chemin-de-fer": "Baccara (chemin de fer)",
                      "texas-holdem-bonus": "Texas Hold'em Bonus"}
LEGACY_SIMULATIONS = ("roulette", "boule", "money-wheel", "tuplanoppa", "sic-bo")


def _simulate_contract(game: Game, rounds: int, seed: int, seats: int | None,
                       as_json: bool) -> None:

    from pelisali.analysis.walk import simulate as simulate_contract
    from pelisali.engine import Seats
    from pelisali.rng import SeededRng

    usual = game.default_seats()
    if seats is not None:
        if not game.min_seats <= seats <= game.max_seats:
            fail(f"{game.game_id} seats {game.min_seats} to {game.max_seats}, not {seats}")
        stacks = (usual.stacks[0],) * seats if usual.stacks else ()
        usual = Seats(seats, stacks, usual.button)
    with progress_bar(as_json) as progress:
        task = progress.add_task(f"self-play {game.title()}", total=rounds)
        result = simulate_contract(game, usual, rounds, SeededRng(seed),
                                   progress=lambda n: progress.advance(task, n))
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
        return
    unit = "chips" if usual.stacks else "cents"
    table = RichTable(title=f"{game.title()}: {rounds:,} rounds, seed {seed}, random legal play")
    for col in ("party", f"total ({unit})", "mean a round"):
        table.add_column(col, justify="right")
    for party, total in sorted(result.totals.items()):
        table.add_row(party, f"{total:,}", f"{float(result.mean(party)):.4f}")
    console.print(table)


def _print_simulation(result: SimResult, title: str, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
        return
    table = RichTable(title=title)
    for col in ("bet", "spot", "exact RTP", "observed", "99 % interval", ""):
        table.add_column(col)
    for row in result.rows:
        if result.disagrees(row):
            flag = "[bold red]DISAGREES[/]"
        else:
            flag = "[green]agrees[/]" if row.agrees else "[yellow]outside 99 % (chance)[/]"
        table.add_row(row.bet, row.spot, f"{float(row.exact_rtp):.6f}", f"{row.observed_rtp:.6f}",
                      f"{row.low:.6f} … {row.high:.6f}", flag)
    console.print(table)
    if not all(row.agrees for row in result.rows):
        console.print(f"DISAGREES: outside the simultaneous 99 % band over all "
                      f"{len(result.rows)} bet types (|z| > {result.family_z:.2f}); one row in a "
                      "hundred falls outside its own 99 % interval by chance.")


@app.command()
def play(
    game: GameArg,
    name: Annotated[str | None, typer.Argument(
        help="slot: the slot game (fruit, video) or a slot rule file FILE.toml")] = None,
    variant: VariantOpt = None,
    sets: SetOpt = None,
    balance: Annotated[str, typer.Option(
        help="quick mode: the wallet's starting balance in euros")] = "1000",
    seed: Annotated[int | None, typer.Option(help="seeded draws (default: OS entropy)")] = None,
    account: Annotated[str | None, typer.Option(
        help="play on this player's persistent wallet (the database)")] = None,
    table: Annotated[str | None, typer.Option(help="with --account: the table to sit at")]
    = None,
) -> None:
    """Play at the terminal on a wallet: a registered player's with --account, else a
    quick one made for the session (a temporary SQLite database) holding --balance;
    ``slot NAME`` plays a slot machine."""
    if seed is not None and seed < 0:
        fail("--seed must be 0 or more")
    if game.lower() == "slot":
        from pelisali.cli.slot_play import play_slot

        if name is None or variant or sets:
            fail("play slot NAME: the slot game (fruit, video); slots have no versions "
                 "or settings")
        play_slot(f"slot-{name.lower()}", seed, account=account, table=table,
                  balance=balance)
        return
    if name is not None:
        fail("a second name is for 'play slot NAME'")
    if game.lower() == "chemin-de-fer":  # player against player, the bank passing on
        from pelisali.cli.chemin_play import play_chemin

        decks = parse_sets(sets).get("decks")
        if variant or set(parse_sets(sets)) - {"decks"} or (
                decks is not None and not str(decks).isdigit()):
            fail("chemin-de-fer plays its rule file's standard rules; the one setting is "
                 "--set decks=6 or 8")
        play_chemin(seed, account=account, table=table, start_balance=balance,
                    decks=int(str(decks)) if decks is not None else None)
        return
    if game.lower() in (*BANKED_SIMULATIONS, "oasis-stud", "pai-gow-poker",
                        "russian-poker"):  # banked games
        from pelisali.cli.banked_play import play_banked

        if variant or sets:
            fail(f"{game.lower()} plays its rule file's standard rules: no versions or "
                 "settings here")
        play_banked(game.lower(), seed, account=account, table=table, start_balance=balance)
        return
    kind = CARD_GAMES.get(game.lower())
    if kind is not None:
        from pelisali.cli.cards import play_cards

        play_cards(kind, parse_sets(sets), seed, account=account, table=table,
                   balance=balance)
        return
    from pelisali.cli.play import play_wager

    play_wager(load_game(game, variant, sets), game, variant, parse_sets(sets), seed,
               account=account, table=table, balance=balance)


if __name__ == "__main__":
    app()
