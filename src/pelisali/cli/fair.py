"""Provably fair draws at the terminal: ``pelisali verify-round ROUND`` recomputes a
round from its revealed seeds; ``pelisali fair`` shows, sets and rotates a player's
seed pair and turns the setting on at their own table (docs/provably-fair.md)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table as RichTable

from pelisali.cli.common import console
from pelisali.cli.platform import _session

fair_app = typer.Typer(help="Provably fair draws: seed pairs and the table setting.",
                       no_args_is_help=True)
PlayerArg = Annotated[str, typer.Argument(help="the player")]


def verify_round_command(
        round_id: Annotated[int, typer.Argument(help="the round number")],
        as_json: Annotated[bool, typer.Option("--json", help="print the proof as JSON, "
                                                             "for scripts/verify_round.py")]
        = False) -> None:
    """Recompute a provably fair round from its revealed seeds and show that it matches
    its record (exit 1 when it does not, or while its server seed is not revealed)."""
    from pelisali.platform import fairness

    with _session() as session:
        check = fairness.verify(session, round_id)
    if as_json:
        print(json.dumps(check.proof(), indent=2))
    else:
        table = RichTable(title=f"round {round_id} ({check.game}): drawn provably fair")
        for column in ("nonce", "commitment (SHA-256)", "server seed", "client seed",
                       "draws [bound, draw]"):
            table.add_column(column, overflow="fold")
        for step in check.steps:
            table.add_row(str(step["nonce"]), step["commitment"],
                          step["server_seed"] or "not revealed yet", step["client_seed"],
                          "shown once the seed is revealed" if step["draws"] is None
                          else json.dumps(step["draws"]))
        console.print(table)
        console.print(f"recorded outcome:   {' '.join(check.recorded)}")
        console.print(f"recomputed outcome: {' '.join(check.recomputed) or '-'}")
    if not check.matches:
        console.print(f"[red]not verified:[/] {check.problem}")
        raise typer.Exit(1)
    if not as_json:
        console.print("[green]the round matches its revealed seeds[/]")


@fair_app.command("show")
def show(player: PlayerArg) -> None:
    """The player's current commitment, client seed and nonce, and their revealed seeds."""
    from pelisali.platform import fairness

    with _session() as session:
        current = fairness.pair(session, player)
        rows = [(current.commitment, "not revealed", current.client_seed, current.nonce)]
        rows += [(r.commitment, r.server_seed, r.client_seed, r.nonce)
                 for r in fairness.revealed(session, player)]
    table = RichTable(title=f"{player}'s seed pairs, the current one first")
    for column in ("commitment", "server seed", "client seed", "rounds"):
        table.add_column(column, overflow="fold")
    for commitment, seed, client, nonce in rows:
        table.add_row(commitment, seed, client, str(nonce))
    console.print(table)


@fair_app.command("client-seed")
def client_seed(player: PlayerArg,
                seed: Annotated[str, typer.Argument(help="1 to 64 letters, digits, - or _")]
                ) -> None:
    """Set the player's client seed for their next rounds."""
    from pelisali.platform import fairness

    with _session() as session:
        row = fairness.set_client_seed(session, player, seed)
        console.print(f"client seed {row.client_seed}, next nonce {row.nonce}, under "
                      f"commitment {row.commitment}")


@fair_app.command("rotate")
def rotate(player: PlayerArg) -> None:
    """Reveal the player's server seed and commit to a new one."""
    from pelisali.platform import fairness

    with _session() as session:
        old, new = fairness.rotate(session, player)
        console.print(f"revealed server seed {old.server_seed} (commitment {old.commitment}, "
                      f"{old.nonce} rounds); new commitment {new.commitment}")


@fair_app.command("table")
def table_setting(
        player: PlayerArg,
        game: Annotated[str, typer.Argument(help="roulette, boule, money-wheel, "
                                                 "tuplanoppa, sic-bo, a slot, punto-banco, "
                                                 "blackjack or a banked card game")],
        variant: Annotated[str | None, typer.Option(help="the version (roulette C or D)")]
        = None,
        on: Annotated[bool, typer.Option("--on/--off", help="draw provably fair")] = True
        ) -> None:
    """Turn provably fair draws on or off at the player's own table of a game."""
    from pelisali.platform import fairness

    with _session() as session:
        name = fairness.set_fair(session, player, game, variant, on)
    console.print(f"{name}: provably fair draws {'on' if on else 'off'}")
