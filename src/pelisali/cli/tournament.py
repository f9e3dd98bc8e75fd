"""``pelisali tournament``: poker tournaments on the wallet at the terminal.

Announce a tournament, take entries (each stakes the buy-in to the tournament's pool
and the fee to the house, with an idempotency key), start it, play it with bots on an
accelerated clock, watch its level, blinds and chip leaders, cancel it with refunds,
and print the final ranking with the prizes. The database is the one of the other
platform commands: ``PELISALI_DATABASE_URL``, or ``pelisali.db`` in the working
directory. Every hand played is saved as it is booked, so ``play`` interrupted (or
killed) resumes from the last booked hand; the hand in play is void.

Rebuys and the add-on are bought between hands (``rebuy``, ``add-on``). A session::

    pelisali tournament create Ilta --capacity 6 --buy-in 10 --fee 1
    pelisali tournament register 1 ann          # and five more players
    pelisali tournament start 1
    pelisali tournament play 1 --hands 20       # then status, then play to the end
    pelisali tournament results 1

A refusal (an unknown tournament or structure, a negative amount, a second entry, a
start with too few players, ...) prints the reason and exits 2 with nothing changed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table as RichTable

from pelisali.cli.board_tournament import board_app
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
    from sqlalchemy import Engine
    from sqlalchemy.orm import Session

    from pelisali.platform.models import TournamentRecord
    from pelisali.rng import Rng
    from pelisali.tournaments.poker import PokerTournament

# The engine, its rule data (pydantic) and the platform (SQLAlchemy) are imported by the
# commands that use them: `pelisali --help` loads none of them.

tournament_app = typer.Typer(
    help="Poker tournaments: create, register, start, play with bots, status, results.",
    no_args_is_help=True,
)
tournament_app.add_typer(board_app, name="board")

IdArg = Annotated[int, typer.Argument(help="the tournament's number (see 'tournament list')")]
LEADERS = 5


@contextmanager
def _database() -> Iterator[Engine]:
    """The command's database, its connections closed when the command ends (the tests
    run many commands in one process)."""
    from pelisali.cli.platform import open_database

    database = open_database()
    try:
        yield database
    finally:
        database.dispose()


@contextmanager
def _session() -> Iterator[Session]:
    """One transaction; any refusal (the ledger's, the tournament's, the rule data's,
    the poker game's) is the command's error (exit 2) and changes nothing."""
    from pelisali.platform.db import transaction

    with _database() as database, _refusing(), transaction(database) as session:
        yield session


def _refusals() -> tuple[type[Exception], ...]:
    from pelisali.platform.ledger import LedgerError
    from pelisali.poker.table import PokerError
    from pelisali.rules.loader import RuleDataError
    from pelisali.tournaments.poker import TournamentError

    return LedgerError, TournamentError, RuleDataError, PokerError


def _loaded(session: Session, tournament_id: int) -> tuple[TournamentRecord, PokerTournament]:
    from pelisali.platform.tournaments import engine_of, get

    record = get(session, tournament_id)
    return record, engine_of(record)


def _clock(seconds: int | None) -> str:
    """Tournament time as the clock on the wall shows it.

    >>> _clock(3725), _clock(59), _clock(None)
    ('1:02:05', '0:59', '-')
    """
    if seconds is None:
        return "-"
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


# -- announcing ------------------------------------------------------------------------------
@tournament_app.command("create")
def create_command(
    name: Annotated[str, typer.Argument(help="shown in the lobby (1 to 80 characters)")],
    capacity: Annotated[
        int,
        typer.Option(
            help="seats of a sit & go (it starts when full), or the most entries of a scheduled "
            "tournament"
        ),
    ],
    buy_in: Annotated[
        str, typer.Option("--buy-in", help="the prize part of an entry, euros (e.g. 10 or 10.50)")
    ] = "0",
    fee: Annotated[str, typer.Option(help="the house's part of an entry, euros")] = "0",
    guarantee: Annotated[
        str, typer.Option(help="the least prize pool, euros; the house pays any overlay")
    ] = "0",
    game: Annotated[str, typer.Option(help="the poker game: holdem, omaha, stud, ...")] = "holdem",
    structure: Annotated[
        str | None,
        typer.Option(
            help="blind and ante structure of the rule data: sit-and-go, regular, turbo "
            "(default: sit-and-go for a sit & go, regular when scheduled)"
        ),
    ] = None,
    chips: Annotated[
        int | None, typer.Option("--chips", help="starting chips (default: the structure's)")
    ] = None,
    scheduled: Annotated[
        bool,
        typer.Option(
            "--scheduled/--sit-and-go",
            help="a scheduled tournament (started by staff, late registration possible) or a "
            "sit & go (starts when full)",
        ),
    ] = False,
    starts_at: Annotated[
        str | None,
        typer.Option("--starts-at", help="scheduled: when it starts, YYYY-MM-DDTHH:MM (UTC)"),
    ] = None,
    min_players: Annotated[
        int,
        typer.Option(
            "--min-players", help="a scheduled tournament needs this many entries to start"
        ),
    ] = 2,
    seats: Annotated[int, typer.Option(help="players a table, 2 to 10")] = 9,
    entry: Annotated[
        str,
        typer.Option(
            help="freezeout, re-entry or rebuy (a rebuy tournament may have an add-on: "
            "--add-on-chips)"
        ),
    ] = "freezeout",
    max_entries: Annotated[
        int, typer.Option("--max-entries", help="re-entry: the entries a player may make")
    ] = 1,
    late_registration: Annotated[
        int,
        typer.Option(
            "--late-registration",
            help="scheduled: registration stays open through this level (0: closes at the start)",
        ),
    ] = 0,
    rebuy_until: Annotated[
        int, typer.Option("--rebuy-until", help="rebuy: rebuys are taken through this level")
    ] = 0,
    rebuy_chips: Annotated[int, typer.Option("--rebuy-chips", help="rebuy: chips a rebuy")] = 0,
    rebuy_cost: Annotated[
        str,
        typer.Option("--rebuy-cost", help="rebuy: euros a rebuy or the add-on puts in the pool"),
    ] = "0",
    add_on_chips: Annotated[
        int,
        typer.Option(
            "--add-on-chips", help="rebuy: chips of the add-on at the break after the rebuys"
        ),
    ] = 0,
    payouts: Annotated[str, typer.Option(help="the payout table of the rule data")] = "standard",
    action_seconds: Annotated[
        int,
        typer.Option(
            "--action-seconds", help="the action timer: an absent player is folded at its end"
        ),
    ] = 30,
    cancel_pays: Annotated[
        str,
        typer.Option(
            "--cancel-pays",
            help="a cancellation once running: refund, or chips (the pool "
            "shared by the chip counts)",
        ),
    ] = "refund",
) -> None:
    """Announce a poker tournament; its settings are fixed from here on."""
    from pelisali.platform.tournaments import create
    from pelisali.rules.tournaments import load_structure
    from pelisali.tournaments.poker import TournamentSettings

    if not 1 <= len(name.strip()) <= 80:
        fail("a tournament's name is 1 to 80 characters")
    if entry not in ("freezeout", "re-entry", "rebuy"):
        fail(f"--entry takes freezeout, re-entry or rebuy, not {entry!r}")
    if cancel_pays not in ("refund", "chips"):
        fail(f"--cancel-pays takes refund or chips, not {cancel_pays!r}")
    if starts_at is not None and not scheduled:
        fail("--starts-at is for a scheduled tournament (--scheduled)")
    when = None if starts_at is None else _moment(starts_at)
    chosen = structure or ("regular" if scheduled else "sit-and-go")
    # Checked here as words of the command line; the settings check the rest.
    options: dict[str, Any] = {
        "name": name.strip(),
        "capacity": capacity,
        "structure": chosen,
        "buy_in": euros(buy_in),
        "fee": euros(fee),
        "guarantee": euros(guarantee),
        "format": "scheduled" if scheduled else "sit-and-go",
        "game": game,
        "seats": seats,
        "entry": entry,
        "max_entries": max_entries,
        "late_registration_level": late_registration,
        "rebuy_until_level": rebuy_until,
        "rebuy_chips": rebuy_chips,
        "rebuy_cost": euros(rebuy_cost),
        "add_on_chips": add_on_chips,
        "min_players": min_players,
        "payouts": payouts,
        "action_seconds": action_seconds,
        "cancel_pays": cancel_pays,
    }
    with _session() as session:
        starting = load_structure(chosen).starting_chips if chips is None else chips
        settings = TournamentSettings(starting_chips=starting, **options)
        record = create(session, settings, starts_at=when)
        made = record.id
    console.print(
        f"tournament {made} {settings.name!r}: {settings.game} "
        f"{'scheduled' if scheduled else 'sit & go'}, {settings.capacity} entries, "
        f"buy-in {format_cents(settings.buy_in)} + {format_cents(settings.fee)} "
        f"fee, {settings.starting_chips:,} chips, structure {settings.structure}, "
        f"{settings.entry}"
        + (f", guarantee {format_cents(settings.guarantee)}" if settings.guarantee else "")
    )


def _moment(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        fail(f"--starts-at takes YYYY-MM-DDTHH:MM, not {text!r}")
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@tournament_app.command("list")
def list_command(as_json: JsonOpt = False) -> None:
    """The lobby: every tournament, the newest first."""
    from pelisali.platform.tournaments import engine_of, lobby

    rows: list[dict[str, Any]] = []
    with _session() as session:
        for record in lobby(session):
            t = engine_of(record)
            s = t.settings
            rows.append(
                {
                    "id": record.id,
                    "name": record.name,
                    "game": s.game,
                    "format": s.format,
                    "status": t.status,
                    "entries": len(t.entries),
                    "capacity": s.capacity,
                    "left": len(t.alive()) if t.status == "running" else None,
                    "buy_in": s.buy_in,
                    "fee": s.fee,
                    "guarantee": s.guarantee,
                    "pool": t.prize_pool().pool,
                    "structure": s.structure,
                    "entry": s.entry,
                    "starts_at": record.starts_at.isoformat() if record.starts_at else None,
                }
            )
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    games = [f"{r['game']} {'SNG' if r['format'] == 'sit-and-go' else 'MTT'}" for r in rows]
    entries = [f"{r['entries']}/{r['capacity']}"
               + (f" ({r['left']} in)" if r["left"] is not None else "") for r in rows]
    print_tournaments("tournaments", rows, games, entries)


# -- entries -----------------------------------------------------------------------------------
@tournament_app.command("register")
def register_command(
    tournament_id: IdArg,
    player: Annotated[str, typer.Argument(help="the player")],
    key: KeyOpt = None,
) -> None:
    """Enter a player: the buy-in to the pool and the fee to the house, within the
    player's limits. Retried with its key, the entry already made."""
    from pelisali.platform.tournaments import get, register

    with _session() as session:
        before = get(session, tournament_id).version
        made = register(session, tournament_id, player, request_key(key))
        record, t = _loaded(session, tournament_id)
        retry = record.version == before
        s = t.settings
    if retry:
        console.print(
            f"{player} is registered in tournament {tournament_id} (entry "
            f"{made.entry_id}): a retry, nothing paid again"
        )
        return
    console.print(
        f"{player} registered in tournament {tournament_id} (entry "
        f"{made.entry_id}): paid {format_cents(s.buy_in)} + {format_cents(s.fee)} "
        f"fee; {len(t.entries)} of {s.capacity} entries"
    )
    if t.status == "registering" and t.full:
        console.print(f"the tournament is full: 'pelisali tournament start {tournament_id}'")


@tournament_app.command("unregister")
def unregister_command(
    tournament_id: IdArg,
    player: Annotated[str, typer.Argument(help="the player")],
    key: KeyOpt = None,
) -> None:
    """Take back a registration before the start: the buy-in and the fee refunded."""
    from pelisali.platform.tournaments import unregister

    with _session() as session:
        unregister(session, tournament_id, player, request_key(key))
        _, t = _loaded(session, tournament_id)
        s = t.settings
    console.print(
        f"{player} unregistered from tournament {tournament_id}: "
        f"{format_cents(s.buy_in + s.fee)} refunded; {len(t.entries)} of "
        f"{s.capacity} entries"
    )


@tournament_app.command("rebuy")
def rebuy_command(
    tournament_id: IdArg,
    entry: Annotated[str, typer.Argument(help="the entry (the player's name; NAME#2 ...)")],
    key: KeyOpt = None,
) -> None:
    """A rebuy between hands, at or below the starting stack, through the rebuy levels:
    its cost to the pool, its chips to the stack. Retried with its key, bought once."""
    _buy(tournament_id, entry, key, "rebuy")


@tournament_app.command("add-on")
def add_on_command(
    tournament_id: IdArg,
    entry: Annotated[str, typer.Argument(help="the entry (the player's name; NAME#2 ...)")],
    key: KeyOpt = None,
) -> None:
    """The one add-on, at the break after the rebuy levels, as a rebuy."""
    _buy(tournament_id, entry, key, "add-on")


def _buy(tournament_id: int, entry_id: str, key: str | None, what: str) -> None:
    from pelisali.platform.tournaments import add_on, rebuy

    with _session() as session:
        (rebuy if what == "rebuy" else add_on)(session, tournament_id, entry_id, request_key(key))
        _, t = _loaded(session, tournament_id)
    entry = t.entries.get(entry_id)
    stack = "" if entry is None else f"; {entry_id} has {entry.stack:,} chips"
    console.print(
        f"{what} of {entry_id} in tournament {tournament_id}: "
        f"{format_cents(t.settings.rebuy_cost)} to the pool, now "
        f"{format_cents(t.prize_pool().pool)}{stack}"
    )


# -- play --------------------------------------------------------------------------------------
@tournament_app.command("start")
def start_command(tournament_id: IdArg, seed: SeedOpt = None) -> None:
    """Draw the seats and start the clock (a sit & go when full; a scheduled tournament
    with its least entries)."""
    from pelisali.platform.tournaments import start

    rng = rng_of(seed)
    with _session() as session:
        start(session, tournament_id, rng)
        _, t = _loaded(session, tournament_id)
    level = t.level_reading().level
    console.print(
        f"tournament {tournament_id} started: {len(t.entries)} entries at "
        f"{len(t.tables)} table(s); level {level.number}, blinds "
        f"{_blinds(level.small_blind, level.big_blind, level.ante)}"
    )


def _blinds(small: int, big: int, ante: int) -> str:
    return f"{small:,}/{big:,}" + (f", ante {ante:,}" if ante else "")


@tournament_app.command("play")
def play_command(
    tournament_id: IdArg,
    hands: Annotated[
        int | None,
        typer.Option(
            help="stop after so many hands, the round in play finished first so that every "
            "table has dealt alike (default: play to the end)"
        ),
    ] = None,
    seconds_a_hand: Annotated[
        int,
        typer.Option(
            "--seconds-a-hand",
            help="the accelerated clock: tournament seconds a round of hands takes",
        ),
    ] = 60,
    seed: SeedOpt = None,
) -> None:
    """Play a started tournament with bots in every seat, to the end or for --hands,
    every table a hand a round and the clock moving --seconds-a-hand a round. Every hand
    is saved as it is booked: run it again after an interruption and it resumes from
    the last booked hand (the hand cut short is void)."""
    if hands is not None and hands <= 0:
        fail("--hands must be positive")
    if seconds_a_hand <= 0:
        fail("--seconds-a-hand must be positive")
    rng = rng_of(seed)
    with _database() as database:
        _play(database, tournament_id, rng, hands, seconds_a_hand)


def _play(
    database: Engine, tournament_id: int, rng: Rng, hands: int | None, seconds_a_hand: int
) -> None:
    from pelisali.platform.db import transaction
    from pelisali.platform.tournaments import play_bots
    from pelisali.tournaments.poker import TableHand

    with _refusing(), transaction(database) as session:
        _, t = _loaded(session, tournament_id)
    if t.status != "running":
        hint = (
            f": start it first ('pelisali tournament start {tournament_id}')"
            if (t.status == "registering")
            else ""
        )
        fail(f"tournament {tournament_id} is {t.status}{hint}")
    first = t.hands_dealt
    if first:
        level = t.level_reading().level
        console.print(
            f"resuming tournament {tournament_id} after hand {first}: level "
            f"{level.number}, {len(t.alive())} players left"
        )
    played = 0
    # Piped (a log, a test), the bar is left out: only the outcome is printed.
    with progress_bar(disable=not console.is_terminal) as progress:
        busts = len(t.entries) - 1
        task = progress.add_task(
            _describe(t),
            total=hands or busts,
            completed=0 if hands else busts - (len(t.alive()) - 1),
        )

        def booked(engine: PokerTournament, playing: TableHand) -> None:
            nonlocal played
            played += 1
            if hands and played >= hands and not _more_this_round(engine, playing.table):
                raise _Enough
            if hands:
                progress.update(task, description=_describe(engine), completed=played)
            else:
                total = len(engine.entries) - 1  # late entries lengthen the play
                progress.update(
                    task,
                    description=_describe(engine),
                    total=total,
                    completed=total - (len(engine.alive()) - 1),
                )

        try:
            with _refusing():
                play_bots(
                    database,
                    tournament_id,
                    rng,
                    seconds_a_hand=seconds_a_hand,
                    on_hand=booked,
                )
        except _Enough:
            pass  # booked and saved: the next play starts the next round
        except KeyboardInterrupt:
            progress.stop()
            with transaction(database) as session:  # what was booked, to the last hand
                _, t = _loaded(session, tournament_id)
            console.print(
                f"interrupted after hand {t.hands_dealt}: the hand in play is "
                f"void; 'pelisali tournament play {tournament_id}' resumes"
            )
            raise typer.Exit(130) from None
    with transaction(database) as session:
        _, t = _loaded(session, tournament_id)
    if t.status == "finished":
        places = t.places()
        winner = min(places, key=places.__getitem__)
        console.print(
            f"tournament {tournament_id} finished after {t.hands_dealt} hands: "
            f"{t.entries[winner].player} wins {format_cents(t.prizes()[winner])}"
        )
        return
    level = t.level_reading().level
    console.print(
        f"tournament {tournament_id}: {played} hands played ({t.hands_dealt} in "
        f"all), level {level.number}, {len(t.alive())} players left"
    )


class _Enough(Exception):
    """The hands asked for are played, to the end of their round."""


def _more_this_round(t: PokerTournament, table: int) -> bool:
    """Whether a table after ``table`` deals in this round (tables deal in number order,
    a round each, as :func:`~pelisali.tournaments.poker.play_out` deals them)."""
    return any(t.can_deal(later) is None for later in t.tables if later > table)


@contextmanager
def _refusing() -> Iterator[None]:
    try:
        yield
    except _refusals() as exc:
        fail(str(exc))


def _describe(t: PokerTournament) -> str:
    level = t.level_reading().level
    return (
        f"level {level.number} ({_blinds(level.small_blind, level.big_blind, level.ante)})"
        f", {len(t.alive())} left"
    )


# -- watching ------------------------------------------------------------------------------------
@tournament_app.command("status")
def status_command(tournament_id: IdArg, as_json: JsonOpt = False) -> None:
    """The level, the blinds, the time to the next level, the players left, the average
    stack, the tables and the chip leaders (seats numbered from 1)."""
    with _session() as session:
        record, t = _loaded(session, tournament_id)
    data = _status(record.id, t)
    if as_json:
        print(json.dumps(data, indent=2))
        return
    s = t.settings
    console.print(
        f"tournament {record.id} {s.name!r}: {t.status}, "
        f"{len(t.entries)} entries of {s.capacity}, pool "
        f"{format_cents(data['pool'])}"
        + (f" (overlay {format_cents(data['overlay'])})" if data["overlay"] else "")
    )
    console.print(
        f"{s.game} {s.format}, structure {s.structure}, {s.entry}, buy-in "
        f"{format_cents(s.buy_in)} + {format_cents(s.fee)} fee, "
        f"{s.starting_chips:,} chips, {s.seats} seats a table"
        + (f", starts {record.starts_at:%Y-%m-%d %H:%M} UTC" if record.starts_at else "")
    )
    if t.status != "running":
        return
    level = data["level"]
    what = "break, then level" if level["on_break"] else "level"
    console.print(
        f"{what} {level['number']}: blinds "
        f"{_blinds(level['small_blind'], level['big_blind'], level['ante'])}; "
        f"next level in {_clock(level['seconds_left'])} (played "
        f"{_clock(t.elapsed)}, {t.hands_dealt} hands)"
    )
    console.print(
        f"{data['players_left']} players left, average stack "
        f"{data['average_stack']:,}; {len(data['paid_places'])} places paid"
        + ("; hand for hand" if t.hand_for_hand else "")
    )
    tables = RichTable(title="tables")
    for column in ("table", "players", "chips"):
        tables.add_column(column, justify="right")
    for row in data["tables"]:
        tables.add_row(str(row["table"]), f"{row['players']}/{s.seats}", f"{row['chips']:,}")
    console.print(tables)
    leaders = RichTable(title="chip leaders")
    for column in ("", "player", "entry", "chips", "table", "seat"):
        leaders.add_column(
            column, justify="right" if column in ("", "chips", "table", "seat") else "left"
        )
    for i, row in enumerate(data["leaders"], 1):
        leaders.add_row(
            str(i),
            row["player"],
            row["entry"],
            f"{row['chips']:,}",
            str(row["table"]),
            str(row["seat"]),
        )
    console.print(leaders)


def _status(tournament_id: int, t: PokerTournament) -> dict[str, Any]:
    pool = t.prize_pool()
    data: dict[str, Any] = {
        "id": tournament_id,
        "name": t.settings.name,
        "status": t.status,
        "entries": len(t.entries),
        "capacity": t.settings.capacity,
        "pool": pool.pool,
        "overlay": pool.overlay,
        "hands": t.hands_dealt,
        "elapsed": t.elapsed,
    }
    if t.status != "running":
        return data
    reading = t.level_reading()
    alive = t.alive()
    # Chips in play: stacks, all of them between hands (the saved state holds no hand).
    chips = t.chips_in_play()
    data.update(
        {
            "level": reading.shown(),
            "players_left": len(alive),
            "average_stack": chips // len(alive) if alive else 0,
            "paid_places": list(t.place_prizes()),
            "hand_for_hand": t.hand_for_hand,
            "tables": [
                {
                    "table": n,
                    "players": len(t.players_at(n)),
                    "chips": sum(t.entries[e].stack for e in t.players_at(n)),
                }
                for n in sorted(t.tables)
            ],
            "leaders": [
                {
                    "entry": e.entry_id,
                    "player": e.player,
                    "chips": e.stack,
                    "table": e.table,
                    "seat": None if e.seat is None else e.seat + 1,
                }
                for e in sorted(alive, key=lambda e: (-e.stack, e.entry_id))[:LEADERS]
            ],
        }
    )
    return data


# -- the end -------------------------------------------------------------------------------------
@tournament_app.command("cancel")
def cancel_command(
    tournament_id: IdArg,
    staff: Annotated[str, typer.Option(help="who cancels it (in the audit log)")] = "staff",
) -> None:
    """Cancel between hands: every buy-in, fee and rebuy refunded (or, with
    cancel-pays chips once running, the pool shared by the chip counts)."""
    from pelisali.platform.tournaments import cancel

    with _session() as session:
        owed = cancel(session, tournament_id, actor=staff)
    console.print(
        f"tournament {tournament_id} cancelled: "
        f"{format_cents(sum(owed.values()))} paid back to {len(owed)} player(s)"
    )
    for player, amount in sorted(owed.items()):
        console.print(f"  {player}: {format_cents(amount)}")


@tournament_app.command("results")
def results_command(tournament_id: IdArg, as_json: JsonOpt = False) -> None:
    """The ranking with each entry's prize in euros (places so far while it runs)."""
    from pelisali.platform.tournaments import results

    with _session() as session:
        found = results(session, tournament_id)
        _, t = _loaded(session, tournament_id)
    ranking: list[dict[str, Any]] = [
        {
            "place": place,
            "entry": entry_id,
            "player": t.entries[entry_id].player,
            "prize": found.prizes.get(entry_id, 0),
        }
        for entry_id, place in sorted(found.places.items(), key=lambda item: (item[1], item[0]))
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
    title = f"tournament {tournament_id} {t.settings.name!r}: {found.status}"
    table = RichTable(title=title)
    for column in ("place", "player", "entry", "prize €"):
        table.add_column(column, justify="right" if column in ("place", "prize €") else "left")
    for row in ranking:
        table.add_row(
            str(row["place"]), str(row["player"]), str(row["entry"]), format_cents(row["prize"])
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
        console.print(f"{len(t.alive())} players are still in")
