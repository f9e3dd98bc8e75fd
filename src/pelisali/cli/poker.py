"""``pelisali poker``: rank and compare hands, count every hand (census), self-play,
and play against bots (``play``: one terminal loop on a wallet, a player's persistent
one with ``--account``, else a quick one on a temporary database)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table as RichTable

from pelisali.cards import CardError, parse_cards
from pelisali.cli.common import console, euros, fail, progress_bar, read_line

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from pelisali.poker.evaluate import HandValue
    from pelisali.poker.table import PokerHand, PokerVariant
    from pelisali.rng import Rng

# The evaluator, the census and the table engine (and NumPy under them) are imported by
# the commands that use them.

poker_app = typer.Typer(help="Poker hands: rank, compare, census.", no_args_is_help=True)

# game -> (ranking, exactly two hole cards, low ranking for the hi/lo split or None)
GAMES: dict[str, tuple[str, bool]] = {
    "holdem": ("high", False), "pineapple": ("high", False), "crazy-pineapple": ("high", False),
    "helsinki": ("high", False), "double-flop": ("high", False), "stud": ("high", False),
    "draw": ("high", False), "omaha": ("high", True), "omaha-5": ("high", True),
    "courchevel": ("high", True), "soko": ("soko", False), "razz": ("low-a5", False),
    "lowball": ("low-27", False), "triple-draw": ("low-27", False),
    "chinese-front": ("front", False),
}
# The rankings the census counts, as pelisali.analysis.census.CENSUS_RANKINGS (a test
# holds them equal), written out so the help does not import the census.
CENSUS_RANKINGS = ("high", "soko", "low-a5", "low-27")
RANKING_CHOICES = ("high", "soko", "low-a5", "low-a5-8", "low-27", "low-27-8", "low-soko", "front")

GameOpt = Annotated[str, typer.Option("--game", help=f"one of {', '.join(GAMES)}")]
BoardOpt = Annotated[str | None, typer.Option("--board", help="board cards, e.g. 'Ts 9s 2d'")]
LangOpt = Annotated[str, typer.Option("--lang", help="en, fi or sv")]
RankingOpt = Annotated[str | None, typer.Option(
    "--ranking", help=f"override the game's ranking: {', '.join(RANKING_CHOICES)}; "
                      "rank also takes hi-lo (the high hand and the eight-or-better low)")]


def _rank(cards: str, board: str | None, game: str, ranking: str | None) -> HandValue | None:
    if game not in GAMES:
        fail(f"no game {game!r}; games: {', '.join(GAMES)}")
    default, exactly_two = GAMES[game]
    chosen = ranking or default
    if chosen not in RANKING_CHOICES:
        fail(f"no ranking {chosen!r}; rankings: {', '.join(RANKING_CHOICES)}")
    try:
        hole = parse_cards(cards)
        shared = parse_cards(board) if board else []
        if len(shared) > 5:
            raise CardError(f"a board has at most five cards, not {len(shared)}")
        if exactly_two and not 4 <= len(hole) <= 5:
            raise CardError(f"{game} hands are four or five hole cards, not {len(hole)}")
        from pelisali.poker.evaluate import evaluate

        return evaluate(hole, chosen, shared, exactly_two)
    except CardError as exc:
        fail(str(exc))


# The analysis commands' hi-lo is the game as usually dealt (Omaha hi-lo: ace-to-five,
# eight or better); a table's --hi-lo without a low rule is RULINGS' literal reversal
# (deuce-to-seven, no qualifier). The help names both, and a table's description says
# which low it plays.
LOW_HELP = ("the low of hi-lo: ace-to-five or deuce-to-seven (default ace-to-five eight or "
            "better, as Omaha hi-lo is usually dealt; a table's --hi-lo without --low-rule "
            "plays RULINGS' literal reversal: deuce-to-seven, no qualifier)")
LowRuleOpt = Annotated[str, typer.Option("--low-rule", help=LOW_HELP)]
QualifierOpt = Annotated[str, typer.Option(help="the low's qualifier: none or eight")]


def _low_ranking(low_rule: str, qualifier: str) -> str:
    """RULINGS ``low_rule`` with its optional eight-or-better qualifier, as a ranking."""
    from pelisali.poker.games import LOW_RULES

    if low_rule not in LOW_RULES or qualifier not in ("none", "eight"):
        fail("--low-rule takes ace-to-five or deuce-to-seven; --qualifier none or eight")
    return LOW_RULES[low_rule] + ("-8" if qualifier == "eight" else "")


@poker_app.command()
def rank(cards: Annotated[str, typer.Argument(help="the hand, e.g. 'As Kd' or 'AsKd'")],
         board: BoardOpt = None, game: GameOpt = "holdem", ranking: RankingOpt = None,
         low_rule: LowRuleOpt = "ace-to-five", qualifier: QualifierOpt = "eight",
         lang: LangOpt = "en", as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """The best hand: category, the cards that make it, its value and a description."""
    if lang not in ("en", "fi", "sv"):
        fail("--lang takes en, fi or sv")
    if board and "|" in board:  # Double Flop Hold'em: the hand on each board
        if game != "double-flop":
            fail("two boards ('A|B') are for --game double-flop")
        first, second = board.split("|", 1)
        try:
            parse_cards(f"{cards} {first} {second}")
        except CardError as exc:
            fail(str(exc))
        for n, one in enumerate((first, second), start=1):
            hand = _rank(cards, one, game, ranking)
            if hand is None:  # a low --ranking: as for one board
                console.print(f"board {n}: no qualifying low")
                continue
            console.print(f"board {n}: {hand.describe(lang)}: {' '.join(hand.cards)}")
        return
    if ranking == "hi-lo":  # high/low: the high hand and the eight-or-better low
        low_ranking = _low_ranking(low_rule, qualifier)
        high = _rank(cards, board, game, "high")
        low = _rank(cards, board, game, low_ranking)
        if high is None:
            raise RuntimeError("the high ranking makes a hand of any cards")
        if as_json:
            print(json.dumps({"high": {"category": high.category, "cards": list(high.cards),
                                       "value": high.value, "description": high.describe(lang)},
                              "low": None if low is None else {
                                  "category": low.category, "cards": list(low.cards),
                                  "value": low.value, "description": low.describe(lang)}},
                             ensure_ascii=False))
            return
        console.print(f"high: {high.describe(lang)}: {' '.join(high.cards)}")
        console.print(f"low: {low.describe(lang)}: {' '.join(low.cards)}" if low is not None
                      else "low: no qualifying low")
        return
    hand = _rank(cards, board, game, ranking)
    if hand is None:
        message = "no qualifying low"
        print(json.dumps({"hand": None, "reason": message}) if as_json else message)
        return
    if as_json:
        print(json.dumps({"ranking": hand.ranking, "category": hand.category,
                          "cards": list(hand.cards), "value": hand.value,
                          "description": {lg: hand.describe(lg) for lg in ("en", "fi", "sv")}},
                         ensure_ascii=False))
        return
    console.print(f"{hand.describe(lang)}: {' '.join(hand.cards)} "
                  f"[dim]({hand.ranking}, value {hand.value})[/]")


@poker_app.command()
def compare(hands: Annotated[list[str], typer.Argument(help="two or more hands")],
            board: BoardOpt = None, game: GameOpt = "holdem", ranking: RankingOpt = None,
            low_rule: LowRuleOpt = "ace-to-five", qualifier: QualifierOpt = "eight",
            lang: LangOpt = "en") -> None:
    """Rank hands against each other (with a shared board); ties share. Two boards
    ('A | B', Double Flop) and hi-lo (the high and the low) are ranked part by part."""
    if len(hands) < 2:
        fail("compare takes two or more hands")
    boards = board.split("|") if board and "|" in board else [board]
    if len(boards) > 1 and game != "double-flop":
        fail("two boards ('A | B') are for --game double-flop")
    try:  # a card may not be in two hands, or in a hand and on a board
        every = [c for h in hands for c in parse_cards(h)]
        every += [c for b in boards if b for c in parse_cards(b)]
        parse_cards(" ".join(every))
    except CardError as exc:
        fail(str(exc))
    parts = ([("high", "high"), ("low", _low_ranking(low_rule, qualifier))]
             if ranking == "hi-lo" else [("", ranking)])
    for n, one in enumerate(boards, start=1):
        for label, part in parts:
            title = " ".join(x for x in (f"board {n}" if len(boards) > 1 else "", label) if x)
            _compare_table(hands, one, game, part, lang, title)


def _compare_table(hands: list[str], board: str | None, game: str, ranking: str | None,
                   lang: str, title: str) -> None:
    ranked = [(text, _rank(text, board, game, ranking)) for text in hands]
    best = max((h.value for _t, h in ranked if h is not None), default=None)
    heading = f"{game}{f', board {board.strip()}' if board else ''}"
    table = RichTable(title=f"{heading}{f' ({title})' if title else ''}")
    for col in ("hand", "best five", "description", ""):
        table.add_column(col)
    for text, hand in ranked:
        if hand is None:
            table.add_row(text, "", "no qualifying low", "")
            continue
        mark = "[bold green]wins[/]" if hand.value == best else ""
        if mark and sum(1 for _t, h in ranked if h is not None and h.value == best) > 1:
            mark = "[bold yellow]ties[/]"
        table.add_row(text, " ".join(hand.cards), hand.describe(lang), mark)
    console.print(table)


@poker_app.command(name="equity")
def equity_command(
    hands: Annotated[list[str], typer.Argument(help="two or more hands, e.g. AsAh KdKc")],
    board: BoardOpt = None,
    dead: Annotated[str | None, typer.Option("--dead", help="cards out of play")] = None,
    game: GameOpt = "holdem",
    ranking: RankingOpt = None,
    low_rule: LowRuleOpt = "ace-to-five",
    qualifier: Annotated[str, typer.Option(help="hi-lo and lows: none or eight")] = "eight",
    exact: Annotated[bool, typer.Option("--exact", help="enumerate every board")] = False,
    trials: Annotated[int | None, typer.Option("--trials", help="Monte Carlo boards")] = None,
    seed: Annotated[int, typer.Option(help="Monte Carlo seed")] = 1,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Win, tie and lose shares: exact where feasible, Monte Carlo otherwise."""
    from pelisali.analysis.equity import double_board_equity, equity, stud_equity

    board_games = ("holdem", "pineapple", "crazy-pineapple", "helsinki", "omaha", "omaha-5",
                   "courchevel")
    stud_games = {"stud": "high", "razz": "low-a5"}
    if game not in (*board_games, *stud_games, "double-flop"):
        fail(f"equity games: {', '.join((*board_games, *stud_games, 'double-flop'))}")
    if game in stud_games and ranking is None:
        ranking = stud_games[game]
    if low_rule not in ("ace-to-five", "deuce-to-seven") or qualifier not in ("none", "eight"):
        fail("--low-rule takes ace-to-five or deuce-to-seven; --qualifier none or eight")
    low_ranking = {"ace-to-five": "low-a5", "deuce-to-seven": "low-27"}[low_rule] + (
        "-8" if qualifier == "eight" else "")
    main_ranking, low = "high", None
    if ranking == "hi-lo":
        low = low_ranking
    elif ranking is not None:
        if ranking not in ("high", "low-a5", "low-a5-8", "low-27", "low-27-8"):
            fail("equity rankings: high, low-a5, low-a5-8, low-27, low-27-8, hi-lo")
        main_ranking = ranking
    if exact and trials is not None:
        fail("--exact and --trials exclude each other")
    if trials is not None and trials <= 0:
        fail("--trials must be positive")
    try:
        parsed = [parse_cards(h) for h in hands]
        shared = parse_cards(board) if board and "|" not in board else []
        out = parse_cards(dead) if dead else []
        with progress_bar(as_json) as progress:
            task = progress.add_task("equity", total=None)

            def step(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)

            if exact and (game in stud_games or game == "double-flop"):
                fail(f"{game} equity is by Monte Carlo (--trials)")
            if game in stud_games:
                result = stud_equity(parsed, out, trials or 200_000, seed, step,
                                     ranking=main_ranking, low=low)
            elif game == "double-flop":
                if not board or "|" not in board:
                    fail("double-flop takes two boards: --board 'A | B' (either may be empty)")
                first, second = board.split("|", 1)
                result = double_board_equity(
                    parsed, (parse_cards(first) if first.strip() else [],
                             parse_cards(second) if second.strip() else []),
                    out, trials or 200_000, seed, step)
            else:
                result = equity(parsed, shared, out, exactly_two=GAMES[game][1],
                            exact=True if exact else (False if trials else None),
                            trials=trials or 200_000, seed=seed,
                            progress=lambda d, t: progress.update(task, completed=d, total=t),
                            ranking=main_ranking, low=low)
    except CardError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps({"game": game, "ranking": ranking or "high", "low": low,
                          "board": shared, **result.to_json()}, indent=2))
        return
    how = "exact" if result.exact else f"Monte Carlo, seed {seed}"
    table = RichTable(title=f"{game} equity: {result.boards:,} boards ({how})")
    for col in ("hand", "win", "tie", "lose", "equity"):
        table.add_column(col, justify="right" if col != "hand" else "left")
    for s in result.shares:
        table.add_row(s.hand, f"{s.win:.4%}", f"{s.tie:.4%}", f"{s.lose:.4%}", f"{s.equity:.4%}")
    console.print(table)


GAME_NAMES = ("holdem pineapple crazy-pineapple helsinki omaha omaha-5 courchevel double-flop "
              "stud razz soko draw lowball triple-draw chinese")
GameOption = Annotated[str, typer.Option("--game", help=GAME_NAMES)]
StructureOption = Annotated[str | None, typer.Option(
    "--structure", help="limit, pot-limit or no-limit (default: the game's usual)")]
LowOption = Annotated[bool, typer.Option("--low", help="the low version")]
HiLoOption = Annotated[bool, typer.Option("--hi-lo", help="the high/low version")]
LowRuleOption = Annotated[str | None, typer.Option(
    "--low-rule", help="deuce-to-seven or ace-to-five (RULINGS defaults otherwise)")]
QualifierOption = Annotated[str | None, typer.Option("--qualifier", help="none or eight")]
DrawsOption = Annotated[int | None, typer.Option("--draws", help="draw games: 1, 2 or 3")]
OpenersOption = Annotated[bool, typer.Option(
    "--openers", help="Five Card Draw: jacks or better to open, antes only")]


def _game_variant(game: str, structure: str | None, low: bool, hi_lo: bool,
                  low_rule: str | None, qualifier: str | None, draws: int | None,
                  openers: bool) -> PokerVariant:
    from pelisali.poker.games import make_variant
    from pelisali.poker.table import PokerError

    try:
        return make_variant(game, structure, low=low, hi_lo=hi_lo, low_rule=low_rule,
                            qualifier=qualifier, draws=draws, openers=openers)
    except PokerError as exc:
        fail(str(exc))


@poker_app.command()
def selfplay(
    game: GameOption = "holdem",
    hands: Annotated[int, typer.Option(help="hands to play")] = 1000,
    seed: Annotated[int, typer.Option(help="the same seed gives the same hands")] = 1,
    players: Annotated[int, typer.Option(help="2 to 12 seats (Chinese Poker 2 to 4)")] = 6,
    phh: Annotated[str | None, typer.Option(help="write the hand histories to FILE")] = None,
    structure: StructureOption = None, low: LowOption = False, hi_lo: HiLoOption = False,
    low_rule: LowRuleOption = None, qualifier: QualifierOption = None,
    draws: DrawsOption = None, openers: OpenersOption = False,
    point_value: Annotated[int, typer.Option(help="Chinese Poker: cents a point")] = 100,
) -> None:
    """Rule-based bots (bounded raises, plausible frequencies) play N hands."""
    from pelisali.poker.selfplay import selfplay as run_selfplay

    if hands <= 0 or not 2 <= players <= 12 or seed < 0:
        fail("--hands must be positive, --players 2 to 12, --seed 0 or more")
    if game == "chinese":
        _chinese_selfplay(hands, seed, players, point_value, phh)
        return
    variant = _game_variant(game, structure, low, hi_lo, low_rule, qualifier, draws, openers)
    if players > variant.max_seats:
        fail(f"{variant.name} seats at most {variant.max_seats} players: {variant.seats_reason}")
    with progress_bar() as progress:
        task = progress.add_task(f"self-play {variant.name}", total=hands)
        result = run_selfplay(variant, hands, seed, players=players, keep_histories=bool(phh),
                              progress=lambda n: progress.update(task, completed=n))
    if phh:
        with open(phh, "w", encoding="utf-8") as handle:
            handle.write("\n".join(f"[{i + 1}]\n{h}" for i, h in enumerate(result.histories)))
    console.print(f"{result.hands:,} hands of {result.variant}, seed {seed}: "
                  f"{result.actions:,} actions, {result.showdowns:,} showdowns; "
                  f"chips bought {result.bought:,}, at the table "
                  f"{sum(result.final_stacks):,}, fees {result.fees:,}")
    console.print("final stacks: " + ", ".join(str(s) for s in result.final_stacks))
    if phh:
        note = "" if variant.phh_code else (
            f" (code pelisali/{variant.name}/{variant.structure}: PHH has none for this "
            "game, so PokerKit cannot replay it)")
        console.print(f"hand histories written to {phh}{note}")


def _chinese_selfplay(rounds: int, seed: int, players: int, point_value: int,
                      phh: str | None) -> None:
    from pelisali.poker.chinese import selfplay as chinese_selfplay

    if phh:
        fail("PHH has no Chinese Poker; the rounds are scored, not bet")
    if not 2 <= players <= 4 or point_value <= 0:
        fail("Chinese Poker: --players 2 to 4 and a positive --point-value")
    with progress_bar() as progress:
        task = progress.add_task("self-play chinese", total=rounds)
        result = chinese_selfplay(rounds, seed, players, point_value,
                                  progress=lambda n: progress.update(task, completed=n))
    console.print(f"{rounds:,} rounds of Chinese Poker (1-3 scoring, {point_value} cents a "
                  f"point), seed {seed}: {result.missets:,} misset hands; chips bought "
                  f"{result.bought:,}, at the table {sum(result.final_chips):,}")
    console.print("final chips: " + ", ".join(str(c) for c in result.final_chips))


@poker_app.command()
def replay(
    files: Annotated[list[str], typer.Argument(help="PHH files (.phh one hand, .phhs many)")],
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object a hand")] = False,
    show: Annotated[str, typer.Option(
        "--show", help="which hands the table lists: all, or problems (the rest counted)")
    ] = "problems",
) -> None:
    """Replay hand histories of other rooms through the table engine and check each
    hand's finishing stacks (exit status 1 when a hand differs or is refused)."""
    from rich.progress import MofNCompleteColumn, Progress, TextColumn

    from pelisali.poker.replay import replay_files

    if show not in ("all", "problems"):
        fail("--show takes all or problems")
    results = []
    try:
        with Progress(TextColumn("[bold]{task.description}"), MofNCompleteColumn(),
                      console=console, transient=True, disable=as_json) as progress:
            task = progress.add_task("replaying hands", total=None)
            for result in replay_files(files):
                results.append(result)
                progress.update(task, completed=len(results))
    except ValueError as exc:
        fail(str(exc))
    counts = {v: sum(r.verdict == v for r in results)
              for v in ("agrees", "differs", "refused", "unchecked", "unsupported")}
    if as_json:
        print(json.dumps({"hands": [r.to_json() for r in results], "summary": counts},
                         ensure_ascii=False))
    else:
        listed = [r for r in results if show == "all" or r.verdict != "agrees"]
        if listed:
            table = RichTable("hand", "game", "players", "verdict", "detail")
            for r in listed:
                table.add_row(r.source, r.variant, str(r.players), r.verdict, r.detail)
            console.print(table)
        by_game: dict[str, list[int]] = {}
        for r in results:
            row = by_game.setdefault(r.variant, [0, 0])
            row[0] += 1
            row[1] += r.verdict == "agrees"
        summary = RichTable("game", "hands", "agree")
        for game, (hands, agree) in sorted(by_game.items()):
            summary.add_row(game, str(hands), str(agree))
        console.print(summary)
        console.print(", ".join(f"{n} {verdict}" for verdict, n in counts.items()))
    if counts["differs"] or counts["refused"]:
        raise typer.Exit(1)


@poker_app.command(name="census")
def census_command(
    ranking: Annotated[str, typer.Option(help=f"one of {', '.join(CENSUS_RANKINGS)}")] = "high",
    cards: Annotated[int, typer.Option(help="5 or 7")] = 5,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """How many of all possible hands fall into each category (every hand evaluated)."""
    from pelisali.analysis.census import census

    with progress_bar(as_json) as progress:
        task = progress.add_task(f"{ranking} {cards}-card census", total=None)
        try:
            result = census(ranking, cards,
                            progress=lambda done, total: progress.update(task, completed=done,
                                                                         total=total))
        except CardError as exc:
            fail(str(exc))
    if as_json:
        print(json.dumps(result.to_json(), indent=2))
        return
    table = RichTable(title=f"{ranking} census, {cards} cards: {result.total:,} hands "
                            f"({result.seconds:.1f} s)")
    table.add_column("category")
    table.add_column("hands", justify="right")
    table.add_column("share", justify="right")
    for name, count in result.counts.items():
        table.add_row(name, f"{count:,}", f"{count / result.total:.6%}")
    console.print(table)
    if result.qualifying is not None:
        console.print(f"eight or better: {result.qualifying:,} hands")


@poker_app.command()
def play(
    game: GameOption = "holdem",
    players: Annotated[int, typer.Option(help="2 to 12 seats, you and the bots")] = 4,
    stack: Annotated[int | None, typer.Option(
        help="deprecated: the buy-in as this many big blinds (--big-blind); "
             "use --buy-in")] = None,
    seed: Annotated[int | None, typer.Option(help="seeded cards and bots")] = None,
    structure: StructureOption = None, low: LowOption = False, hi_lo: HiLoOption = False,
    low_rule: LowRuleOption = None, qualifier: QualifierOption = None,
    draws: DrawsOption = None, openers: OpenersOption = False,
    account: Annotated[str | None, typer.Option(
        help="play on this player's persistent wallet (the database); without it, on a "
             "quick wallet (a temporary database) holding the buy-in")] = None,
    table: Annotated[str | None, typer.Option(
        help="the table (default poker-ACCOUNT; quick mode poker-terminal)")] = None,
    buy_in: Annotated[str, typer.Option("--buy-in", help="euros to sit with")] = "20",
    big_blind: Annotated[str, typer.Option(
        "--big-blind", help="a new table: the big blind in euros (the minimum buy-in is "
                            "20 of them)")] = "0.20",
    rake: Annotated[int, typer.Option(
        help="a new table: the rake, percent of the chips bet")] = 5,
    rake_cap: Annotated[str, typer.Option(
        "--rake-cap", help="a new table: the most rake a hand, euros")] = "1",
) -> None:
    """Play at the terminal against bots; you see your own view of the table only. Every
    hand is played on a wallet and recorded: a registered player's with --account, else
    a quick one made for the session. The bots play the house's money. (Chinese Poker is
    scored in points, not on a wallet.)"""
    import random

    from pelisali.rng import SecureRng, SeededRng

    if not 2 <= players <= 12 or (stack is not None and stack < 1):
        fail("--players 2 to 12, --stack at least one big blind")
    rng = SeededRng(seed) if seed is not None else SecureRng()

    def ask(prompt: str) -> str | None:
        return read_line(f"{prompt}> ")

    if game == "chinese":
        if account is not None:
            fail("Chinese Poker is scored in points, not played on the wallet")
        _play_chinese(players, rng, ask)
        return
    variant = _game_variant(game, structure, low, hi_lo, low_rule, qualifier, draws, openers)
    if players > variant.max_seats:
        fail(f"{variant.name} seats at most {variant.max_seats} players: "
             f"{variant.seats_reason}")
    blind = euros(big_blind)
    chips = euros(buy_in) if stack is None else stack * blind
    settings = dict(game=game, structure=structure, low=low, hi_lo=hi_lo, low_rule=low_rule,
                    qualifier=qualifier, draws=draws, openers=openers)
    stakes = (chips, blind, rake, euros(rake_cap))
    if account is not None:
        from pelisali.platform.db import database_url, make_engine, upgrade

        db = make_engine()
        try:
            upgrade(db)
        except Exception as exc:  # the database is unreachable or not ours
            fail(f"database {database_url()}: {exc}")
        _play_on_wallet(db, account, table or f"poker-{account}", variant, players, rng,
                        random.Random(seed),  # noqa: S311 - the bots' choices, not the deal
                        ask, *stakes, settings)
        return
    from pelisali.cli.quick import PLAYER, quick_wallet

    with quick_wallet(chips) as db:  # the wallet holds the buy-in: bust, and the game ends
        _play_on_wallet(db, PLAYER, table or "poker-terminal", variant, players, rng,
                        random.Random(seed),  # noqa: S311 - the bots' choices, not the deal
                        ask, *stakes, settings)


def _play_hand(hand: PokerHand, mine: int, labels: list[str], bots: random.Random,
               ask: Callable[[str], str | None]) -> bool:
    """Play one hand, the bots' turns and yours (amounts in euros); True when you quit. A
    quit plays your hand out by checking or folding (the hand still counts)."""
    from pelisali.cards import DECK
    from pelisali.money import MoneyError, parse_amount
    from pelisali.money import format_cents as show
    from pelisali.poker.selfplay import draw_choice, rules_action
    from pelisali.poker.table import PokerError

    redeals = 0
    quitting = False
    while not hand.finished:
        actor = hand.actor
        if actor is None:
            raise RuntimeError("a hand that is not finished has a seat to act")
        if hand.redeals != redeals:
            redeals = hand.redeals
            console.print("nobody opened: the antes stay and the cards are dealt again")
        if actor != mine or quitting:
            if hand.discarding:
                hand.discard(min(hand.hole[actor], key=DECK.index))
            elif hand.drawing:
                hand.draw([] if actor == mine else draw_choice(hand, bots, "rules"))
            elif actor == mine:  # leaving: check when free, else fold (stud: bring in)
                legal = hand.legal()
                hand.act("check" if legal.check else "fold" if legal.fold else "call")
            else:
                action, to = rules_action(hand, bots)
                hand.act(action, to)
            continue
        view = hand.view(mine)
        up, stacks, pot = view["up"], view["stacks"], view["pot"]
        if not (isinstance(up, dict) and isinstance(stacks, list) and isinstance(pot, int)):
            raise RuntimeError(f"a hand's view has up cards, stacks and a pot, not {view}")
        shown = "; ".join(f"{labels[s]} {' '.join(c)}" for s, c in up.items()
                          if s != mine and not hand.folded[s])
        console.print(f"you {' '.join(hand.hole[mine])} | board {' '.join(hand.board)}"
                      + (f" | showing {shown}" if shown else "")
                      + f" | pot {show(pot)} | stacks "
                      + ", ".join(f"{labels[s]} {show(c)}" for s, c in enumerate(stacks)))
        if hand.discarding:
            prompt = "discard a card"
        elif hand.drawing:
            prompt = "draw the cards to throw (none: stand pat)"
        else:
            legal = hand.legal()
            raise_text = (f", raise {show(legal.raise_min)}..{show(legal.raise_max or 0)}"
                          if legal.raise_min is not None else "")
            prompt = ("check" if legal.check else
                      f"bring-in {show(legal.call)}" if not legal.fold and legal.call
                      else f"call {show(legal.call)}, fold") + raise_text
        line = ask(prompt)
        words = [] if line is None else line.split()
        if line is None or (words and words[0] == "quit"):
            quitting = True
            continue
        if not words and not hand.drawing:
            continue
        try:
            if hand.drawing and (not words or words[0] == "draw"):
                hand.draw(words[1:], seat=mine)
            elif words[0] == "discard" and len(words) == 2:
                hand.discard(words[1], seat=mine)
            elif words[0] == "raise" and len(words) == 2:
                to = parse_amount(words[1])
                limits = None if hand.discarding or hand.drawing else hand.legal()
                if (limits is not None and limits.raise_min is not None
                        and limits.raise_max is not None
                        and not limits.raise_min <= to <= limits.raise_max):
                    raise PokerError(f"raise to {show(to)} is outside "
                                     f"{show(limits.raise_min)}..{show(limits.raise_max)}")
                hand.act("raise", to, seat=mine)
            elif len(words) == 1:
                hand.act(words[0], seat=mine)
            else:
                raise PokerError("commands: fold, check, call, bring-in, raise N, "
                                 "discard CARD, draw [CARDS]")
        except (PokerError, MoneyError) as exc:
            console.print(f"[red]{exc}[/] (nothing changed)")
    for seat in sorted(hand.shown - {mine}):  # what the showdown showed everyone
        console.print(f"{labels[seat]} shows {' '.join(hand.hole[seat])}")
    return quitting


def _play_on_wallet(db: Engine, account: str, name: str, variant: PokerVariant,
                    players: int, rng: Rng, bots: random.Random,
                    ask: Callable[[str], str | None], buy_in: int, big_blind: int,
                    rake: int, rake_cap: int, game: dict[str, Any]) -> None:
    """``poker play`` on the database ``db``: ``account`` sits at table ``name`` (made
    with ``game`` and the stakes when new) with ``buy_in`` from the wallet, the bots'
    chips from ``house:poker-bots`` (funded from the house bank: the bots play the house's
    money), every hand recorded with its rake, every chip cashed out at quit."""
    import uuid
    from fractions import Fraction

    from pelisali.cli.quick import PLAYER
    from pelisali.money import format_cents
    from pelisali.platform import accounts
    from pelisali.platform import poker_tables as pt
    from pelisali.platform.db import transaction
    from pelisali.platform.ledger import LedgerError, balance, now_utc

    def key() -> str:
        return f"cli-{uuid.uuid4()}"

    def seat_bot(bot: str, amount: int) -> None:
        try:
            with transaction(db) as s:
                pt.fund_house_seats(s, amount, key())
        except pt.PokerTableError as exc:
            raise pt.PokerTableError(f"{exc} (pelisali house fund AMOUNT --staff NAME)"
                                     ) from None
        ct.buy_in(bot, amount, key())

    def leave_all() -> None:
        for player, chips in ct.chips().items():
            ct.cash_out(player, key())
            if player == account:
                console.print(f"{account} cashed out {format_cents(chips)}")

    try:
        with transaction(db) as s:
            accounts.may_play(accounts.find(s, account))
            try:
                pt.find_table(s, name)
            except LedgerError:
                pt.create_table(s, name, **game, small_blind=max(1, big_blind // 2),
                                big_blind=big_blind, min_buy_in=20 * big_blind,
                                rake=Fraction(rake, 100), rake_cap=rake_cap)
        ct = pt.CashTable.open(db, name, rng)
    except LedgerError as exc:
        fail(str(exc))
    if ct.settings.variant() != variant:
        fail(f"table {name} plays {ct.settings.describe()}; choose another --table")
    bot_stack = max(buy_in, ct.settings.min_buy_in)
    try:  # the house's seats first: a refusal then leaves the player's wallet untouched
        for i in range(1, players):
            if f"bot:{i}" not in ct.chips():
                seat_bot(f"bot:{i}", bot_stack)
        if account not in ct.chips():
            ct.buy_in(account, buy_in, key())
    except LedgerError as exc:
        leave_all()
        fail(str(exc))
    bb = ct.settings.big_blind
    console.print(f"[bold]{account} {'sit' if account == PLAYER else 'sits'} at {name} with "
                  f"{format_cents(ct.chips()[account])}[/]: {ct.settings.describe()}; "
                  f"{len(ct.chips()) - 1} bots play the house's money. Commands: fold, check, "
                  "call, bring-in, raise EUROS, discard CARD, draw [CARDS], quit (cashes "
                  "out).")
    started = now_utc()
    quitting = False
    try:
        while not quitting:
            for player, chips in ct.chips().items():  # a bust bot buys again
                if pt.is_house_seat(player) and chips < bb:
                    seat_bot(player, bot_stack - chips)
            if ct.chips().get(account, 0) == 0:
                console.print("you have no chips left")
                break
            hand = ct.start_hand()
            names = ct.in_hand
            labels = ["you" if n == account else n.replace(":", " ") for n in names]
            quitting = _play_hand(hand, names.index(account), labels, bots, ask)
            done = ct.finish_hand()
            console.print(f"hand {done.hand}: "
                          + (f"board {' '.join(hand.board)}; " if hand.board else "") + "rake "
                          f"{format_cents(done.rake)}; your chips "
                          f"{format_cents(ct.chips()[account])}")
            with transaction(db) as s:
                if accounts.reminder_due(accounts.find(s, account), started):
                    console.print(f"[yellow]you have played "
                                  f"{(now_utc() - started).seconds // 60} minutes[/]")
                    started = now_utc()
    except LedgerError as exc:
        console.print(f"[red]{exc}[/]")
        ct.void_hand()
    leave_all()
    with transaction(db) as s:
        console.print(f"wallet {format_cents(balance(s, accounts.wallet_code(account)))}")


def _play_chinese(players: int, rng: Rng, ask: Callable[[str], str | None]) -> None:
    """Chinese Poker at the terminal: set your thirteen cards as front | middle | back."""
    from pelisali.poker.chinese import ChineseTable, best_set, set_hand

    if not 2 <= players <= 4:
        fail("Chinese Poker seats 2 to 4 players")
    point_value = 100
    table = ChineseTable(point_value, [3 * point_value * (players - 1) * 5] * players)
    console.print(f"[bold]Chinese Poker[/], 1-3 scoring at {point_value} cents a point, "
                  f"{players} seats; you are seat 0. Set: 'F F F | M M M M M | B B B B B', "
                  "or 'auto', or 'quit'.")
    while all(c >= table.minimum for c in table.chips):
        cards = table.deal(rng)
        while True:
            console.print(f"your cards: {' '.join(cards[0])}")
            line = ask("set front | middle | back")
            if line is None or line.strip() == "quit":
                return
            try:
                if line.strip() == "auto":
                    mine = best_set(cards[0])
                else:
                    parts = [parse_cards(part) for part in line.split("|")]
                    if len(parts) != 3:
                        raise CardError("three parts: front | middle | back")
                    mine = set_hand(*parts)
                table.place(0, mine)
                break
            except CardError as exc:
                console.print(f"[red]{exc}[/] (nothing changed)")
        for seat in range(1, players):
            table.place(seat, best_set(cards[seat]))
        if mine.misset:
            console.print("[red]your hand is misset: it loses all three hands[/]")
        if table.last is None:
            raise RuntimeError("every seat has set a hand, so the table has scored them")
        console.print("nets: " + ", ".join(f"seat {s} {n:+}" for s, n in table.last.items())
                      + f"; chips {table.chips}")
    console.print(f"Game over: your chips {table.chips[0]}.")
