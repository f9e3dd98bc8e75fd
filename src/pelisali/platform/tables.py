"""What is done at any table, whatever its family: find it, place a slip of bets on it,
play its round (draw and settle, or deal), and what staff and operators do: open a table,
void the round in play, finish the rounds a crash or a 24-hour wait left open. The table's
family (:mod:`pelisali.platform.families`) says which family module does it; what a family
alone offers (roulette D's choices, blackjack decisions, poker seats) stays in its module.

>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform import card_rounds
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = card_rounds.create_card_table(s, "bj-1", "blackjack")
...     void(s, "bj-1", "shoe dropped", "floor")
Traceback (most recent call last):
...
pelisali.platform.rounds.TableError: bj-1: no round to void
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.orm import Session

from pelisali.games.round import Receipt, Settlement
from pelisali.platform import card_rounds, rounds
from pelisali.platform.card_rounds import BlackjackView, CoupResult
from pelisali.platform.families import CARDS, FAMILIES, POKER, family_of
from pelisali.platform.ledger import LedgerError
from pelisali.platform.models import GameTable
from pelisali.rng import Rng

__all__ = ["Played", "Receipt", "create", "find", "place", "play_round", "recover", "void"]

CARD_NAMES = {"baccarat": "punto-banco"}  # a name players use for punto banco


def create(session: Session, name: str, game: str, variant: str | None = None, *,
           settings: dict[str, str | bool] | None = None, limit_min: int | None = None,
           limit_max: int | None = None, mode: str = "rng", actor: str = "system",
           ) -> GameTable:
    """Open a table of any game but poker (whose stakes and rake are its own:
    :func:`pelisali.platform.poker_tables.create_table`): a wheel or dice game, punto
    banco or blackjack, RNG or live, with its settings and limits (the rule file's
    when not given).

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     made = [create(s, "t1", "roulette", "C").game, create(s, "t2", "baccarat").game]
    >>> made
    ['roulette', 'punto-banco']
    """
    game = CARD_NAMES.get(game, game)
    try:
        family = family_of(game)
    except LedgerError:
        raise rounds.TableError(f"no game {game!r}; games: "
                                f"{', '.join(sorted(FAMILIES))}") from None
    if family is POKER:
        raise rounds.TableError("a poker table takes its blinds, buy-in and rake: open it "
                                "as a poker table")
    if family is CARDS:
        if variant:
            raise rounds.TableError(f"{game} has no versions")
        return card_rounds.create_card_table(session, name, game, settings,
                                             limit_min=limit_min, limit_max=limit_max,
                                             mode=mode, actor=actor)
    return rounds.create_table(session, name, game, variant, settings, limit_min=limit_min,
                               limit_max=limit_max, mode=mode, actor=actor)


def find(session: Session, name: str) -> GameTable:
    """The table called ``name``, of any game; refused with a :class:`TableError
    <pelisali.platform.rounds.TableError>` when there is none.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     find(s, create(s, "pb-1", "punto-banco").name).game
    'punto-banco'
    >>> with transaction(engine) as s:
    ...     find(s, "pb-2")
    Traceback (most recent call last):
    ...
    pelisali.platform.rounds.TableError: no table 'pb-2'
    """
    return rounds.find_table(session, name)


def _banked(session: Session, table_name: str, instead: str) -> GameTable:
    """Table ``table_name``, refused when it is a poker table (``instead``: its way)."""
    table = find(session, table_name)
    if family_of(table.game) is POKER:
        raise rounds.TableError(f"{table_name} is a poker table: {instead}")
    return table


def place(session: Session, table_name: str, player: str, bets: Sequence[tuple[str, int]],
          key: str) -> list[Receipt]:
    """Place a slip of ``(spot, cents)`` bets at a wheel, dice or card table and debit
    their stakes in this transaction: a receipt a bet (its number, the amount accepted,
    the excess over the table maximum returned, the table's message). The slip is taken
    whole or refused whole. The same ``key`` again is the same slip, taken once: its
    receipts say ``already placed`` (another slip under it is refused). A poker table is
    refused: chips go on it through a seat's buy-in.

    >>> from datetime import date
    >>> from pelisali.platform import accounts
    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
    ...     _ = accounts.deposit(s, "ann", 10_000, key="d1")
    ...     _ = create(s, "bj-1", "blackjack")
    ...     [r.message for r in place(s, "bj-1", "ann", [("1", 500), ("2", 500)], "k1")]
    ...     [r.message for r in place(s, "bj-1", "ann", [("1", 500), ("2", 500)], "k1")]
    ['5.00 in seat 1', '5.00 in seat 2']
    ['already placed', 'already placed']
    """
    table = _banked(session, table_name, "chips go on it through a seat's buy-in "
                                         "(poker_tables.CashTable.buy_in)")
    if family_of(table.game) is not CARDS:
        return rounds.place_bets(session, table_name, player, bets, key)
    if not bets:
        raise rounds.TableError("a slip holds at least one bet")
    # A card table takes one bet a call, each under its own key: KEY/0, KEY/1, ... as the
    # card endpoints have always keyed a slip. The savepoint refuses the slip whole, as a
    # wager table does, when a later bet is refused after an earlier one was debited.
    with session.begin_nested():
        return [card_rounds.place_card_bet(session, table_name, player, spot, amount,
                                           f"{key}/{i}")
                for i, (spot, amount) in enumerate(bets)]


@dataclass(frozen=True)
class Played:
    """A round played (:func:`play_round`) to its end or to the players' next decision:
    its number, its settlements so far (none while roulette D waits for choices or a
    blackjack round for decisions) and, at a card table, the family's own account of it:
    the coup (its cards, result, description, the cut card) or the blackjack view."""

    round_id: int
    settlements: tuple[Settlement, ...]
    dealt: CoupResult | BlackjackView | None = None  # None: a wager round is its settlements


def play_round(session: Session, table_name: str, rng: Rng | None = None) -> Played:
    """No more bets at ``table_name``: draw and settle its wager round, deal and settle a
    punto banco coup, or deal a blackjack round (settled at once when nobody has a
    decision left), in this transaction; the draw or the shoe's shuffle from ``rng``
    (the secure generator by default). A poker table deals its own hands.

    >>> from datetime import date
    >>> from pelisali.platform import accounts
    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> from pelisali.platform.ledger import move
    >>> from pelisali.rng import SeededRng
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
    ...     _ = accounts.deposit(s, "ann", 10_000, key="d1")
    ...     _ = move(s, "fund", "external:owner", "house:bank", 1_000_000, "funding")
    ...     _ = create(s, "pb-1", "punto-banco")
    ...     _ = place(s, "pb-1", "ann", [("player", 1_000)], "k1")
    ...     played = play_round(s, "pb-1", SeededRng(7))
    >>> played.round_id == played.dealt.round_id, len(played.settlements)
    (True, 1)
    """
    table = _banked(session, table_name, "it deals its own hands "
                                         "(poker_tables.CashTable.start_hand)")
    if family_of(table.game) is not CARDS:
        round_id, settled = rounds.settle(session, table_name, rng)
        return Played(round_id, tuple(settled))
    # The card family's two games deal differently: a coup is settled as it is dealt.
    dealt: CoupResult | BlackjackView = (
        card_rounds.deal_coup(session, table_name, rng) if table.game == "punto-banco"
        else card_rounds.deal_blackjack(session, table_name, rng))
    return Played(dealt.round_id, dealt.settlements, dealt)


def void(session: Session, table_name: str, reason: str, actor: str) -> int:
    """Void ``table_name``'s round in play (a mis-spin, a device fault, a dropped
    shoe): every stake goes back, a bet in prison stays there. The round's number."""
    table = rounds.find_table(session, table_name)
    family = family_of(table.game)
    if family is CARDS:
        return card_rounds.void_card_round(session, table_name, reason, actor)
    if family is POKER:
        raise rounds.TableError(f"{table_name}: a poker hand is void only when its table "
                                "fails mid-hand; it then reopens with the stacks before it")
    return rounds.void(session, table_name, reason, actor)


def recover(session: Session, rng: Rng | None = None, everything: bool = False
            ) -> list[tuple[int, str]]:
    """Finish the rounds left open with bets at every table, as their rules say: those
    past their 24-hour deadline, or all of them (``everything``: at a restart after a
    crash). Each round's number and what became of it."""
    done = rounds.recover(session, rng, everything=everything)
    done += card_rounds.recover_card_rounds(session, rng, everything=everything)
    return sorted(done)
