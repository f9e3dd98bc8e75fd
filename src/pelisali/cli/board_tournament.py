"""``pelisali tournament board``: table-game and slot tournaments on the wallet at the
terminal (RULINGS Tournaments).

Every entry starts with the same tournament chips and plays its own rounds of one game
(a wheel, a dice table, blackjack or a slot) for a number of rounds, a time limit or
both; the largest stacks win the announced prizes. The settings come from a structure
of the rule data (``roulette-sprint``, ``blackjack-100``, ``slot-200-spins``,
``slot-10-minutes``) with the changes given. The database is the one of the other
platform commands: ``PELISALI_DATABASE_URL``, or ``pelisali.db`` in the working
directory. A session::

    pelisali tournament board create roulette-sprint Ilta --buy-in 10 --fee 1
    pelisali tournament board register 1 ann        # and the other players
    pelisali tournament board start 1
    pelisali tournament board play 1 ann "bet red 500" "bet straight 17 100"
    pelisali tournament board bots 1                # the rest play with bots
    pelisali tournament board results 1

The clock is the real time. A timed tournament finishes and pays when its clock is read
at or after its time limit: by a round, or by ``tick`` (``tick --all`` reads every
running tournament's, for a cron job or a systemd timer, say every minute). The time
``PELISALI_NOW`` holds (``YYYY-MM-DDTHH:MM:SS``, UTC), when it is set, stands for the
time now: for a rehearsal of a timed tournament, and for the tests, which never sleep.

A refusal (an unknown structure or tournament, a negative amount, a bet the round does
not allow, a poker tournament's number, ...) prints the reason and exits 2 with nothing
changed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table as RichTable

from pelisali.cli.common import (
    JsonOpt,
    KeyOpt,
    SeedOpt,
    console,
    euros,
    fail,
    print_tournaments,
    progress_bar,
    request_key,
    rng_of,
)
from pelisali.money import format_cents

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from pelisali.engine import State
    from pelisali.platform.leaderboard_tournaments import Held
    from pelisali.rng import Rng
    from pelisali.tournaments.leaderboard import LeaderboardTournament, Played

# The engines, the rule data (pydantic) and the platform (SQLAlchemy) are imported by the
# commands that use them: `pelisali --help` loads none of them.

board_app = typer.Typer(
    help="Table-game and slot tournaments: create, register, start, play rounds, bots, "
    "status, tick the clock, results.",
    no_args_is_help=True,
)

NOW_VARIABLE = "PELISALI_NOW"
"""When set (``YYYY-MM-DDTHH:MM:SS``, UTC), the time the commands take for now."""

IdArg = Annotated[int, typer.Argument(help="the tournament's number (see 'tournament board list')")]
EntryArg = Annotated[str, typer.Argument(help="the entry (the player's name; NAME#2 ...)")]
DrawOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--draw",
        help="an outcome entered as a live dealer calls it (a pocket, a card such as Th, "
        "a reel stop), once for each draw the round needs, in order",
    ),
]


# -- the database, refusals, the clock -----------------------------------------------------
@contextmanager
def _session() -> Iterator[Session]:
    """One transaction; any refusal (the ledger's, the tournament's, the rule data's)
    is the command's error (exit 2) and changes nothing."""
    from pelisali.cli.platform import open_database
    from pelisali.platform.db import transaction

    database = open_database()
    try:
        with _refusing(), transaction(database) as session:
            yield session
    finally:
        database.dispose()


@contextmanager
def _refusing() -> Iterator[None]:
    from pelisali.games.base import GameError
    from pelisali.platform.ledger import LedgerError
    from pelisali.rules.loader import RuleDataError
    from pelisali.tournaments.poker import TournamentError

    try:
        yield
    except (LedgerError, TournamentError, RuleDataError, GameError) as exc:
        fail(str(exc))


def now() -> datetime:
    """The time now, in UTC: ``PELISALI_NOW`` when it is set, else the clock.

    >>> os.environ[NOW_VARIABLE] = "2026-12-03T18:00:30"
    >>> now().isoformat()
    '2026-12-03T18:00:30+00:00'
    >>> del os.environ[NOW_VARIABLE]
    """
    text = os.environ.get(NOW_VARIABLE)
    if not text:
        return datetime.now(UTC)
    return _moment(text, NOW_VARIABLE)


def _moment(text: str, what: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        fail(f"{what} takes YYYY-MM-DDTHH:MM:SS, not {text!r}")
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _held(session: Session, tournament_id: int) -> Held:
    from pelisali.platform.leaderboard_tournaments import get, load

    return load(get(session, tournament_id))


def _clock(seconds: int) -> str:
    """Seconds as the clock on the wall shows them.

    >>> _clock(3725), _clock(59)
    ('1:02:05', '0:59')
    """
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _rounds(count: int) -> str:
    """>>> _rounds(1), _rounds(20)
    ('1 round', '20 rounds')
    """
    return f"{count} round{'' if count == 1 else 's'}"


def _elapsed(held: Held, at: datetime) -> int:
    """The tournament's seconds by the clock at ``at`` (never less than it has read)."""
    if held.started_at is None:
        return 0
    read = int((at - datetime.fromisoformat(held.started_at)).total_seconds())
    return max(read, held.engine.elapsed)


def _rounds_left(t: LeaderboardTournament, entry_id: str) -> int | None:
    rounds = t.settings.rounds
    return max(rounds - t.entries[entry_id].rounds, 0) if rounds else None


# -- announcing ------------------------------------------------------------------------------
@board_app.command("create")
def create_command(
    structure: Annotated[
        str,
        typer.Argument(
            help="the rule data: roulette-sprint, blackjack-100, slot-200-spins, slot-10-minutes"
        ),
    ],
    name: Annotated[str, typer.Argument(help="shown in the lobby (1 to 80 characters)")],
    capacity: Annotated[int | None, typer.Option(help="the most entries (default 1000)")] = None,
    buy_in: Annotated[
        str, typer.Option("--buy-in", help="the prize part of an entry, euros (e.g. 10 or 10.50)")
    ] = "0",
    fee: Annotated[str, typer.Option(help="the house's part of an entry, euros")] = "0",
    guarantee: Annotated[
        str, typer.Option(help="the least prize pool, euros; the house pays any overlay")
    ] = "0",
    rounds: Annotated[
        int | None,
        typer.Option(help="the rounds (spins) each entry plays, 0 for none (default: the rules')"),
    ] = None,
    seconds: Annotated[
        int | None,
        typer.Option(help="the time limit from the start, 0 for none (default: the rules')"),
    ] = None,
    entry: Annotated[
        str, typer.Option(help="freezeout, or re-entry (a player out or done enters again)")
    ] = "freezeout",
    max_entries: Annotated[
        int, typer.Option("--max-entries", help="re-entry: the entries a player may make")
    ] = 1,
    late_registration_seconds: Annotated[
        int,
        typer.Option(
            "--late-registration-seconds",
            help="registration stays open this long after the start (0: closes at the start)",
        ),
    ] = 0,
    min_players: Annotated[
        int, typer.Option("--min-players", help="the entries the tournament needs to start")
    ] = 2,
    payouts: Annotated[
        str | None,
        typer.Option(help="the payout table of the rule data (default: the rules')"),
    ] = None,
    starts_at: Annotated[
        str | None,
        typer.Option("--starts-at", help="when it starts, YYYY-MM-DDTHH:MM (UTC), for the lobby"),
    ] = None,
) -> None:
    """Announce a table-game or slot tournament from a structure of the rule data, with
    the changes given; its settings are fixed from here on."""
    from pelisali.platform.leaderboard_tournaments import create
    from pelisali.tournaments.leaderboard import LeaderboardSettings

    if entry not in ("freezeout", "re-entry"):
        fail(f"--entry takes freezeout or re-entry, not {entry!r}")
    when = None if starts_at is None else _moment(starts_at, "--starts-at")
    changes: dict[str, Any] = {
        "name": name.strip(),
        "buy_in": euros(buy_in),
        "fee": euros(fee),
        "guarantee": euros(guarantee),
        "entry": entry,
        "max_entries": max_entries,
        "late_registration_seconds": late_registration_seconds,
        "min_players": min_players,
    }
    given = {"capacity": capacity, "rounds": rounds, "seconds": seconds, "payouts": payouts}
    changes.update({option: value for option, value in given.items() if value is not None})
    with _session() as session:
        settings = LeaderboardSettings.from_rules(structure, **changes)
        made = create(session, settings, starts_at=when).id
    console.print(f"tournament {made} {settings.name!r}: {_describe(settings)}")


def _describe(s: Any) -> str:
    """The announcement in a line: the game, the play, the chips, the bets and the money."""
    play = []
    if s.rounds:
        play.append(_rounds(s.rounds))
    if s.seconds:
        play.append(f"{_clock(s.seconds)} time limit")
    return (
        f"{s.game} ({s.structure}), {' and '.join(play)}, {s.starting_chips:,} chips, "
        f"bets {s.min_bet:,} to {s.max_bet:,} a round, {s.capacity} entries, buy-in "
        f"{format_cents(s.buy_in)} + {format_cents(s.fee)} fee, {s.entry}"
        + (f", guarantee {format_cents(s.guarantee)}" if s.guarantee else "")
    )


@board_app.command("list")
def list_command(as_json: JsonOpt = False) -> None:
    """The lobby: every table-game and slot tournament, the newest first."""
    from pelisali.platform.leaderboard_tournaments import load, lobby

    rows: list[dict[str, Any]] = []
    with _session() as session:
        for record in lobby(session):
            t = load(record).engine
            s = t.settings
            rows.append(
                {
                    "id": record.id,
                    "name": record.name,
                    "kind": record.kind,
                    "game": s.game,
                    "structure": s.structure,
                    "status": t.status,
                    "entries": len(t.entries),
                    "capacity": s.capacity,
                    "buy_in": s.buy_in,
                    "fee": s.fee,
                    "guarantee": s.guarantee,
                    "pool": t.prize_pool().pool,
                    "starts_at": record.starts_at.isoformat() if record.starts_at else None,
                }
            )
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    print_tournaments("table-game and slot tournaments", rows, [str(r["game"]) for r in rows],
                      [f"{r['entries']}/{r['capacity']}" for r in rows])


# -- entries -----------------------------------------------------------------------------------
@board_app.command("register")
def register_command(
    tournament_id: IdArg,
    player: Annotated[str, typer.Argument(help="the player")],
    key: KeyOpt = None,
) -> None:
    """Enter a player: the buy-in to the pool and the fee to the house, within the
    player's limits. Retried with its key, the entry already made."""
    from pelisali.platform.leaderboard_tournaments import get, register

    with _session() as session:
        before = get(session, tournament_id).version
        made = register(session, tournament_id, player, request_key(key))
        held = _held(session, tournament_id)
    t, s = held.engine, held.engine.settings
    if held.record.version == before:
        console.print(
            f"{player} is registered in tournament {tournament_id} (entry "
            f"{made.entry_id}): a retry, nothing paid again"
        )
        return
    console.print(
        f"{player} registered in tournament {tournament_id} (entry {made.entry_id}): paid "
        f"{format_cents(s.buy_in)} + {format_cents(s.fee)} fee; {len(t.entries)} of "
        f"{s.capacity} entries, pool {format_cents(t.prize_pool().pool)}"
    )


@board_app.command("unregister")
def unregister_command(
    tournament_id: IdArg,
    player: Annotated[str, typer.Argument(help="the player")],
    key: KeyOpt = None,
) -> None:
    """Take back a registration before the start: the buy-in and the fee refunded.
    Retried with its key, refunded once."""
    from pelisali.platform.leaderboard_tournaments import unregister

    with _session() as session:
        unregister(session, tournament_id, player, request_key(key))
        t = _held(session, tournament_id).engine
    s = t.settings
    console.print(
        f"{player} unregistered from tournament {tournament_id}: "
        f"{format_cents(s.buy_in + s.fee)} refunded; {len(t.entries)} of {s.capacity} entries"
    )


# -- play --------------------------------------------------------------------------------------
@board_app.command("start")
def start_command(tournament_id: IdArg, seed: SeedOpt = None) -> None:
    """Start the play and the clock, with the least entries."""
    from pelisali.platform.leaderboard_tournaments import start

    rng = rng_of(seed)
    with _session() as session:
        start(session, tournament_id, rng, now=now())
        t = _held(session, tournament_id).engine
    s = t.settings
    limit = f"; time limit {_clock(s.seconds)}" if s.seconds else ""
    console.print(
        f"tournament {tournament_id} started: {len(t.entries)} entries, "
        f"{s.starting_chips:,} chips each" + (f", {_rounds(s.rounds)}" if s.rounds else "") + limit
    )


@board_app.command("play")
def play_command(
    tournament_id: IdArg,
    entry: EntryArg,
    bets: Annotated[
        list[str],
        typer.Argument(
            help="the round's bets in the game's words: 'bet red 500', 'bet straight 17 100' "
            "at a wheel, 'bet box 1 500' at blackjack, 'spin 5 10' (lines, credits a "
            "line) at a slot"
        ),
    ],
    key: KeyOpt = None,
    seed: SeedOpt = None,
    draw: DrawOpt = None,
) -> None:
    """Play a round for an entry: its bets, then chance (drawn, or the --draw outcomes
    entered); a blackjack round then waits for its decisions ('decide')."""
    from pelisali.platform.leaderboard_tournaments import play_round

    rng = rng_of(seed)
    with _session() as session:
        played = play_round(
            session, tournament_id, entry, bets, request_key(key), rng=rng, draws=draw, now=now()
        )
        t = _held(session, tournament_id).engine
    _show(tournament_id, t, played)


@board_app.command("decide")
def decide_command(
    tournament_id: IdArg,
    entry: EntryArg,
    action: Annotated[
        str, typer.Argument(help="the decision: hit, stand, double, split, 'insure 0' ...")
    ],
    key: KeyOpt = None,
    seed: SeedOpt = None,
    draw: DrawOpt = None,
) -> None:
    """A decision in the blackjack round an entry has in play; the hand and the
    decisions it allows after are shown."""
    from pelisali.platform.leaderboard_tournaments import decide

    rng = rng_of(seed)
    with _session() as session:
        played = decide(
            session, tournament_id, entry, action, request_key(key), rng=rng, draws=draw, now=now()
        )
        t = _held(session, tournament_id).engine
    _show(tournament_id, t, played)


def _show(tournament_id: int, t: LeaderboardTournament, played: Played) -> None:
    """The round as the entry sees it: the draws (or the hands), the return, the chips."""
    view = played.view
    if view.get("game") == "blackjack":
        console.print(_hands(view))
    elif "spins" in view:
        stops = " / ".join(" ".join(str(stop) for stop in spin["stops"]) for spin in view["spins"])
        console.print(f"round {played.round} of {played.entry_id}: reels stop at {stops}")
    else:
        drawn = " ".join(text for actor, text in played.moves if actor == -1)
        console.print(f"round {played.round} of {played.entry_id}: drawn {drawn}")
    left = _rounds_left(t, played.entry_id)
    rest = "" if left is None else f", {_rounds(left)} left"
    if not played.over:
        console.print(
            f"{played.entry_id} has {played.staked:,} chips on the round, "
            f"{played.chips:,} in all before it; decide: {', '.join(played.actions)}"
        )
        return
    change = played.paid - played.staked
    console.print(
        f"staked {played.staked:,}, returned {played.paid:,} ({change:+,}); "
        f"{played.entry_id} has {played.chips:,} chips{rest}"
    )
    if t.status == "finished":
        console.print(
            f"tournament {tournament_id} finished: the prizes are paid "
            f"('pelisali tournament board results {tournament_id}')"
        )


def _hands(view: dict[str, Any]) -> str:
    """A blackjack round's dealer and hands in a line.

    >>> _hands({"dealer": ["8h"], "dealer_total": 8, "boxes": [{"box": 1, "hands": [
    ...     {"cards": ["8c", "Js"], "total": 18}]}]})
    'dealer 8h (8); box 1: 8c Js (18)'
    """
    parts = [f"dealer {' '.join(view['dealer'])} ({view['dealer_total']})"]
    for box in view["boxes"]:
        for n, hand in enumerate(box["hands"], 1):
            which = f"box {box['box']}" + (f" hand {n}" if len(box["hands"]) > 1 else "")
            parts.append(f"{which}: {' '.join(hand['cards'])} ({hand['total']})")
    return "; ".join(parts)


# -- bots ----------------------------------------------------------------------------------------
def bot_bet(t: LeaderboardTournament, state: State) -> str:
    """The bot's bets for a new round, the least stake: at a wheel or dice table the
    least bet on the first even-money spot of the rule data (red, small, under 7; at the
    money wheel, which has no odds table, the spot covering most of the wheel), at
    blackjack the least bet in box 1, at a slot the cheapest spin of the most lines.

    >>> from pelisali.engine import Seats
    >>> from pelisali.tournaments.leaderboard import LeaderboardSettings as Settings
    >>> from pelisali.tournaments.leaderboard import LeaderboardTournament as Tournament
    >>> for rules in ("roulette-sprint", "blackjack-100", "slot-200-spins"):
    ...     t = Tournament(Settings.from_rules(rules, name="Demo"))
    ...     print(bot_bet(t, t.engine.new_state(Seats(1))))
    bet red 100
    bet box 1 100
    spin 5 1
    """
    from pelisali.engine.blackjack import BlackjackEngine
    from pelisali.engine.slots import SlotEngine
    from pelisali.engine.wager import WagerEngine

    least = t.settings.min_bet
    engine = t.engine
    if isinstance(engine, BlackjackEngine):
        return f"bet box 1 {least}"
    if isinstance(engine, SlotEngine):
        spins = []
        for action in state.legal_actions():
            words = action.text().split()
            if words[0] == "spin":
                lines, credits = int(words[1]), int(words[2])
                if least <= lines * credits <= t.settings.max_bet:
                    spins.append((lines * credits, -lines, action.text()))
        if not spins:
            raise _NoBet(f"{t.settings.game}: no spin stakes {least} to {t.settings.max_bet}")
        return min(spins)[2]
    if isinstance(engine, WagerEngine):
        bets = getattr(engine.wager.rules, "bets", None) or {}
        spots = engine.wager.spots()
        even = [s for s in spots if getattr(bets.get(s.bet_type), "odds", None) == "1:1"]
        spot = even[0] if even else max(spots, key=lambda s: len(s.covers))
        return f"bet {spot.key} {least}"
    raise _NoBet(f"no bot plays {t.settings.game}")


def bot_decision(actions: Sequence[str], view: dict[str, Any]) -> str:
    """The bot's blackjack decision: insurance declined, then "stand on 17": hit below
    17, stand from 17 up (soft 17 too).

    >>> hand = {"turn": [1, 0], "boxes": [{"box": 1, "hands": [{"total": 16}]}]}
    >>> bot_decision(["hit", "stand", "double"], hand)
    'hit'
    >>> bot_decision(["insure 0", "insure 50"], hand)
    'insure 0'
    """
    if "insure 0" in actions:
        return "insure 0"
    total = 21
    turn = view.get("turn")
    if turn:
        box_number, hand_number = turn
        for box in view["boxes"]:
            if box["box"] == box_number:
                total = box["hands"][hand_number]["total"]
    choice = "hit" if total < 17 else "stand"
    if choice in actions:
        return choice
    return "stand" if "stand" in actions else actions[0]


def _bot_round(
    session: Session, tournament_id: int, t: LeaderboardTournament, entry_id: str, rng: Rng
) -> Played:
    """One round of a bot for ``entry_id``, or the end of the round it has in play, each
    request by a key of its own (``bot:ENTRY:ROUND``, ``bot:ENTRY:ROUND:DECISION``)."""
    from pelisali.engine import Seats
    from pelisali.platform.leaderboard_tournaments import decide, play_round

    entry = t.entries[entry_id]
    number = entry.rounds + 1
    state = t.open_round(entry_id)
    if state is None:
        try:
            bet = bot_bet(t, t.engine.new_state(Seats(1)))
        except _NoBet as exc:
            fail(str(exc))
        played = play_round(
            session,
            tournament_id,
            entry_id,
            [bet],
            f"bot:{entry_id}:{number}",
            rng=rng,
            now=now(),
        )
        actions, view = list(played.actions), played.view
        over = played.over
    else:
        actions, view = [a.text() for a in state.legal_actions()], state.view(0)
        over = False
    step = len(state.history) if state is not None else 0
    while not over:
        step += 1
        played = decide(
            session,
            tournament_id,
            entry_id,
            bot_decision(actions, view),
            f"bot:{entry_id}:{number}:{step}",
            rng=rng,
            now=now(),
        )
        actions, view, over = list(played.actions), played.view, played.over
    return played


class _NoBet(Exception):
    """The bot finds no bet within the tournament's limits."""


@board_app.command("bots")
def bots_command(
    tournament_id: IdArg,
    rounds: Annotated[
        int | None,
        typer.Option(
            help="at most so many rounds an entry (default: the rounds each has left; needed "
            "for a tournament with only a time limit)"
        ),
    ] = None,
    seed: SeedOpt = None,
) -> None:
    """A demonstration: every entry plays its remaining rounds with a bot (the least
    bet on an even-money spot at a wheel or dice table, "stand on 17" at blackjack, the
    cheapest spin at a slot). Every round is saved as it is played, by a key of its own
    (bot:ENTRY:ROUND), so the command run again goes on from there."""
    from pelisali.cli.platform import open_database
    from pelisali.platform.db import transaction

    if rounds is not None and rounds <= 0:
        fail("--rounds must be positive")
    rng = rng_of(seed)
    database = open_database()
    try:
        with _refusing(), transaction(database) as session:
            t = _held(session, tournament_id).engine
        if t.status != "running":
            fail(f"tournament {tournament_id} is {t.status}")
        if not t.settings.rounds and rounds is None:
            fail("the tournament has only a time limit: give --rounds")
        each = {}
        for entry_id in t.entries:
            left = _rounds_left(t, entry_id)
            each[entry_id] = min(n for n in (left, rounds) if n is not None)
        played_rounds = 0
        with progress_bar(disable=not console.is_terminal) as progress:
            task = progress.add_task("bots playing", total=sum(each.values()))
            for entry_id, count in each.items():
                for _ in range(count):
                    with _refusing(), transaction(database) as session:
                        t = _held(session, tournament_id).engine
                        if t.status != "running" or t.time_up:
                            break
                        entry = t.entries[entry_id]
                        if t.open_round(entry_id) is None and t.why_not_playing(entry):
                            break
                        played = _bot_round(session, tournament_id, t, entry_id, rng)
                    played_rounds += 1
                    progress.update(
                        task, advance=1, description=f"{entry_id}: {played.chips:,} chips"
                    )
        with _refusing(), transaction(database) as session:
            t = _held(session, tournament_id).engine
    finally:
        database.dispose()
    console.print(f"tournament {tournament_id}: the bots played {played_rounds} rounds")
    if t.status == "finished":
        (_, leader, chips), *_ = t.leaderboard()
        console.print(
            f"tournament {tournament_id} finished: {leader} leads with {chips:,} chips; "
            f"'pelisali tournament board results {tournament_id}'"
        )


# -- watching ------------------------------------------------------------------------------------
@board_app.command("status")
def status_command(tournament_id: IdArg, as_json: JsonOpt = False) -> None:
    """The status, the time left by the clock (timed), the rounds of each entry and the
    leaderboard."""
    with _session() as session:
        held = _held(session, tournament_id)
    data = _status(held, now())
    if as_json:
        print(json.dumps(data, indent=2))
        return
    t, s = held.engine, held.engine.settings
    console.print(
        f"tournament {data['id']} {s.name!r}: {t.status}, {len(t.entries)} entries of "
        f"{s.capacity}, pool {format_cents(data['pool'])}"
        + (f" (overlay {format_cents(data['overlay'])})" if data["overlay"] else "")
    )
    console.print(_describe(s))
    if data["seconds_left"] is not None and t.status == "running":
        console.print(
            f"played {_clock(data['elapsed'])}, {_clock(data['seconds_left'])} left by the clock"
        )
    board = RichTable(title="leaderboard")
    for column in ("place", "entry", "chips", "rounds", "left"):
        board.add_column(column, justify="left" if column == "entry" else "right")
    for row in data["leaderboard"]:
        board.add_row(
            str(row["place"]),
            row["entry"] + (" *" if row["in_play"] else ""),
            f"{row['chips']:,}",
            str(row["rounds"]),
            "-" if row["rounds_left"] is None else str(row["rounds_left"]),
        )
    console.print(board)
    if any(row["in_play"] for row in data["leaderboard"]):
        console.print("* a round in play, waiting for a decision")


def _status(held: Held, at: datetime) -> dict[str, Any]:
    t = held.engine
    s = t.settings
    pool = t.prize_pool()
    elapsed = _elapsed(held, at) if t.status == "running" else t.elapsed
    return {
        "id": held.record.id,
        "name": s.name,
        "kind": held.record.kind,
        "game": s.game,
        "status": t.status,
        "entries": len(t.entries),
        "capacity": s.capacity,
        "pool": pool.pool,
        "overlay": pool.overlay,
        "started_at": held.started_at,
        "elapsed": elapsed,
        "seconds_left": max(s.seconds - elapsed, 0) if s.seconds else None,
        "leaderboard": [
            {
                "place": place,
                "entry": entry_id,
                "player": t.entries[entry_id].player,
                "chips": chips,
                "rounds": t.entries[entry_id].rounds,
                "rounds_left": _rounds_left(t, entry_id),
                "in_play": t.open_round(entry_id) is not None,
            }
            for place, entry_id, chips in t.leaderboard()
        ],
    }


@board_app.command("tick")
def tick_command(
    tournament_id: Annotated[
        int | None, typer.Argument(help="the tournament's number (or --all)")
    ] = None,
    every: Annotated[
        bool, typer.Option("--all", help="every running table-game and slot tournament")
    ] = False,
    seed: SeedOpt = None,
) -> None:
    """Read the clock: a tournament at its time limit finishes and pays (a blackjack hand
    still in play stands). For a cron job or a systemd timer, e.g. every minute:
    ``* * * * * pelisali tournament board tick --all``."""
    from pelisali.platform.leaderboard_tournaments import finish, lobby, tick

    if (tournament_id is None) == (not every):
        fail("give a tournament's number or --all (one of them)")
    rng = rng_of(seed)
    at = now()
    with _session() as session:
        if every:
            ids = sorted(r.id for r in lobby(session) if r.status == "running")
        else:
            ids = [tournament_id] if tournament_id is not None else []
        changed: list[tuple[int, str, str]] = []
        for number in ids:
            before: str = _held(session, number).engine.status
            if before != "running":  # nothing to read: the row is left as it is
                changed.append((number, before, before))
                continue
            status = tick(session, number, now=at)
            if status == "running" and _held(session, number).engine.over():
                finish(session, number, rng, now=at)  # time up: the hands in play stand
                status = "finished"
            changed.append((number, before, status))
    if every and not changed:
        console.print("no tournament is running")
    for number, before, status in changed:
        if before == "running" and status == "finished":
            console.print(f"tournament {number}: finished at the clock, the prizes are paid")
        else:
            console.print(f"tournament {number}: {status}")


# -- the end -------------------------------------------------------------------------------------
@board_app.command("cancel")
def cancel_command(
    tournament_id: IdArg,
    staff: Annotated[str, typer.Option(help="who cancels it (in the audit log)")] = "staff",
) -> None:
    """Cancel before the end: every buy-in and fee refunded (RULINGS Tournaments)."""
    from pelisali.platform.leaderboard_tournaments import cancel

    with _session() as session:
        owed = cancel(session, tournament_id, actor=staff)
    console.print(
        f"tournament {tournament_id} cancelled: "
        f"{format_cents(sum(owed.values()))} paid back to {len(owed)} player(s)"
    )
    for player, amount in sorted(owed.items()):
        console.print(f"  {player}: {format_cents(amount)}")


@board_app.command("results")
def results_command(tournament_id: IdArg, as_json: JsonOpt = False) -> None:
    """The leaderboard with the chips and each entry's prize in euros, the pool and the
    overlay (the standings so far while it runs)."""
    from pelisali.platform.leaderboard_tournaments import results

    with _session() as session:
        found = results(session, tournament_id)
        t = _held(session, tournament_id).engine
    ranking: list[dict[str, Any]] = [
        {
            "place": place,
            "entry": entry_id,
            "player": t.entries[entry_id].player,
            "chips": chips,
            "prize": found.prizes.get(entry_id, 0),
        }
        for place, entry_id, chips in found.leaderboard
    ]
    if as_json:
        print(
            json.dumps(
                {
                    "id": tournament_id,
                    "name": t.settings.name,
                    "status": found.status,
                    "entries": len(t.entries),
                    "pool": found.pool,
                    "overlay": found.overlay,
                    "ranking": ranking,
                },
                indent=2,
            )
        )
        return
    table = RichTable(title=f"tournament {tournament_id} {t.settings.name!r}: {found.status}")
    for column in ("place", "player", "entry", "chips", "prize €"):
        table.add_column(column, justify="left" if column in ("player", "entry") else "right")
    for row in ranking:
        table.add_row(
            str(row["place"]),
            str(row["player"]),
            str(row["entry"]),
            f"{row['chips']:,}",
            format_cents(row["prize"]),
        )
    console.print(table)
    console.print(
        f"prize pool {format_cents(found.pool)}"
        + (
            f", of it overlay {format_cents(found.overlay)} paid by the house"
            if found.overlay
            else ""
        )
    )
    if found.status == "running":
        console.print("the tournament is running: the prizes are paid at its end")


@board_app.command("rounds")
def rounds_command(
    tournament_id: IdArg,
    entry: Annotated[str | None, typer.Option(help="only this entry's rounds")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Every round played to its end, for the auditor: the entry, its round number, the
    chips staked and paid back, and the moves with every chance draw (chance is -1)."""
    from pelisali.platform.leaderboard_tournaments import rounds_of

    with _session() as session:
        _held(session, tournament_id)  # an unknown or poker tournament is refused
        kept = [
            {
                "entry": row.entry,
                "round": row.number,
                "staked": row.staked,
                "paid": row.paid,
                "moves": json.loads(row.moves),
                "played_at": row.played_at.isoformat(),
            }
            for row in rounds_of(session, tournament_id, entry)
        ]
    if as_json:
        print(json.dumps({"id": tournament_id, "rounds": kept}, indent=2))
        return
    table = RichTable(title=f"tournament {tournament_id}: {len(kept)} rounds")
    for column in ("entry", "round", "staked", "paid", "moves"):
        table.add_column(column, justify="left" if column in ("entry", "moves") else "right")
    for row in kept:
        moves = "; ".join(
            f"{'chance' if actor == -1 else f'p{actor}'} {text}" for actor, text in row["moves"]
        )
        table.add_row(row["entry"], str(row["round"]), f"{row['staked']:,}",
                      f"{row['paid']:,}", moves)
    console.print(table)
