"""Colour chips at a wheel or dice table (RAY 1.2.1, 1.2.2, 1.3.2 "Pelipanokset";
:mod:`pelisali.platform.colour_chips`): the table's chips as a client shows them, a
stack bought from the wallet, and the stack exchanged back to it. A buy's key is bound
to the whole request (colour, value, number of chips): sent again with another, it is
refused with 409 (:mod:`pelisali.server.keys`)."""

from typing import Any

from fastapi import APIRouter

from pelisali.platform import colour_chips, queries
from pelisali.server.dependencies import AppState, Player
from pelisali.server.keys import bound_to_first
from pelisali.server.retry import RetryingRoute
from pelisali.server.schemas import ColourChipsRequest, KeyOnly

router = APIRouter(tags=["colour chips"], route_class=RetryingRoute)


@router.get("/api/tables/{name}/colour-chips")
def chips_view(name: str, login: Player, state: AppState) -> dict[str, Any]:
    """What the table takes, the palette (taken colours marked), the stacks in play
    (whose colour), and the player's own stack."""
    with state.db() as session:
        return colour_chips.view(session, name, login.name)


@router.post("/api/tables/{name}/colour-chips")
def buy_chips(name: str, body: ColourChipsRequest, login: Player, state: AppState,
              ) -> dict[str, Any]:
    """Buy colour chips: ``chips`` chips of ``unit`` cents in ``colour``, from the wallet."""
    with bound_to_first(body.key), state.db() as session:
        stack = colour_chips.buy(session, name, login.name, body.colour, body.unit,
                                 body.chips, key=f"web:{login.name}:{body.key}")
        return {"stack": stack.to_json(), "balance": queries.wallet(session, login.name)}


@router.post("/api/tables/{name}/colour-chips/exchange")
def exchange_chips(name: str, body: KeyOnly, login: Player, state: AppState,
                   ) -> dict[str, Any]:
    """Exchange the player's colour chips at the table back to value chips (the wallet)."""
    with state.db() as session:
        stack = colour_chips.exchange(session, name, login.name,
                                      key=f"web:{login.name}:{body.key}")
        return {"exchanged": stack.held, "colour": stack.colour,
                "balance": queries.wallet(session, login.name)}
