"""The server's routes, one :class:`fastapi.APIRouter` per concern, in the order
:func:`pelisali.server.app.create_app` includes them."""

from fastapi import APIRouter

from pelisali.server.routers import (
    auth,
    banked,
    cards,
    chemin,
    chips,
    fair,
    history,
    leaderboard_tournaments,
    live,
    lobby,
    play,
    poker,
    slots,
    staff,
    wallet,
)

ROUTERS: tuple[APIRouter, ...] = (auth.router, wallet.router, lobby.router, play.router,
                                  cards.router, slots.router, history.router, live.router,
                                  poker.router, staff.router, chips.router,
                                  leaderboard_tournaments.router, banked.router, fair.router,
                                  chemin.router)

__all__ = ["ROUTERS"]
