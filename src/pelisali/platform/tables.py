"""What is done at any table, whatever its family: open a player's own table or find
one, place a slip of bets on it, play its round (draw and settle, or deal), take a
player's decisions in the round in play (roulette D's choice after a zero, a blackjack
hand's decision or insurance) and say what it waits for, recall any round by replay;
and what staff and operators do: open a table, void the round in play, finish the
rounds a crash or a 24-hour wait left open. The table's family
(:mod:`pelisali.platform.families`) says which family module does it. A poker table's
seats and hands are its cash table's (:class:`pelisali.platform.poker_tables.CashTable`:
buy-in, sit out, the hand, cash-out): chips at a poker table are the game's, not bets.

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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from pelisali.games.round import Receipt, Settlement
from pelisali.platform import (
    banked_rounds,
    card_rounds,
    chemin_tables,
    poker_tables,
    rounds,
    slot_rounds,
)
from pelisali.platform.card_rounds import BlackjackView, CoupResult
from pelisali.platform.db import find_or_create
from pelisali.platform.families import BANKED, CARDS, CHEMIN, FAMILIES, POKER, SLOTS, family_of
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import LedgerError
from pelisali.platform.models import BetRow, GameTable, RoundRow
from pelisali.platform.rounds import TableError
from pelisali.rng import Rng

__all__ = ["Decision", "HandDecision", "Insurance", "Played", "Receipt", "RoundRecall",
           "TableError", "Waiting", "ZeroChoice", "create", "dealt", "decide", "find",
           "own_table", "own_table_name", "place", "play_round", "recall", "recover",
           "standing_bets", "void", "waiting"]

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
    if family is SLOTS:
        if variant or settings or limit_min is not None or limit_max is not None \
                or mode != "rng":
            raise rounds.TableError(f"{game} is an RNG slot: its bets and limits are its "
                                    "rule file's")
        return slot_rounds.create_slot_table(session, name, game, actor=actor)
    if family is BANKED:
        if variant or settings or limit_min is not None or limit_max is not None \
                or mode != "rng":
            raise rounds.TableError(f"{game} is an RNG table: its rules and limits are its "
                                    "rule file's")
        return banked_rounds.create_banked_table(session, name, game, actor=actor)
    if family is CHEMIN:
        if variant or set(settings or {}) - {"decks"} or limit_min is not None \
                or limit_max is not None or mode != "rng":
            raise rounds.TableError(f"{game}: its limits are its rule file's; the one "
                                    "setting is decks (6 or 8)")
        decks = str((settings or {}).get("decks", ""))
        return chemin_tables.create_chemin_table(
            session, name, int(decks) if decks.isdigit() else None, actor=actor)
    if family is CARDS:
        if variant:
            raise rounds.TableError(f"{game} has no versions")
        return card_rounds.create_card_table(session, name, game, settings,
                                             limit_min=limit_min, limit_max=limit_max,
                                             mode=mode, actor=actor)
    return rounds.create_table(session, name, game, variant, settings, limit_min=limit_min,
                               limit_max=limit_max, mode=mode, actor=actor)


def own_table_name(player: str, game: str, variant: str | None = None) -> str:
    """The name of ``player``'s own RNG table of ``game`` (:func:`own_table`).

    >>> own_table_name("ann", "baccarat"), own_table_name("ann", "roulette", "D")
    ('rng-punto-banco-ann', 'rng-roulette-D-ann')
    """
    game = CARD_NAMES.get(game, game)
    return f"rng-{game}{'-' + variant if variant else ''}-{player}"


def own_table(session: Session, player: str, game: str, variant: str | None = None) -> str:
    """The name of ``player``'s own RNG table of ``game`` (and ``variant``), opened with
    the rule file's limits the first time; two first slips at once open it once.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     [own_table(s, "ann", "roulette", "C"), own_table(s, "ann", "blackjack"),
    ...      own_table(s, "ann", "roulette", "C")]
    ['rng-roulette-C-ann', 'rng-blackjack-ann', 'rng-roulette-C-ann']
    """
    game = CARD_NAMES.get(game, game)
    name = own_table_name(player, game, variant)
    found = find_or_create(session, lambda: rounds.find_table(session, name),
                           lambda: create(session, name, game, variant, mode="rng",
                                          actor=player), rounds.TableError)
    if (found.game, found.mode) != (game, "rng"):  # its name says the version
        raise rounds.TableError(f"{name} is a {found.mode} {found.game} table, not "
                                f"{player}'s own {game} table")
    return name


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
    """Table ``table_name``, refused when it is a poker table (``instead``: its way) or a
    slot (which spins: :func:`pelisali.platform.slot_rounds.spin`)."""
    table = find(session, table_name)
    if family_of(table.game) is POKER:
        raise rounds.TableError(f"{table_name} is a poker table: {instead}")
    if family_of(table.game) is SLOTS:
        raise rounds.TableError(f"{table_name} is a slot: it takes spins, not bets on "
                                "spots")
    if family_of(table.game) is BANKED:
        raise rounds.TableError(f"{table_name} deals {table.game}: its bets are placed as "
                                "its round is dealt")
    if family_of(table.game) is CHEMIN:
        raise rounds.TableError(f"{table_name} plays chemin de fer: the bank is put up and "
                                "the punters go banco or bet against it in turn")
    return table


def place(session: Session, table_name: str, player: str, bets: Sequence[tuple[str, int]],
          key: str) -> list[Receipt]:
    """Place a slip of ``(spot, cents)`` bets at a wheel, dice or card table and debit
    their stakes in this transaction: a receipt a bet (its number, the amount accepted,
    the excess over the table maximum returned, the table's message). The slip is taken
    whole or refused whole. The same ``key`` again is the same slip, taken once: its
    receipts say ``already placed``. Another slip under it (another table, other spots
    or amounts, more or fewer bets) is refused with
    :class:`~pelisali.platform.rounds.SlipConflict`, which names the first. A poker
    table is refused: chips go on it through a seat's buy-in.

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
    # The whole slip against the one first placed under the key: each bet alone would
    # let a retry with one more bet place it in the next round.
    session.flush()
    first = rounds.first_slip(session.connection(), table.id,
                              rounds.Slip(player, tuple(bets), key),
                              lambda spot: card_rounds.bet_spot(table.game, spot))
    if first is not None:
        return first
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


def play_round(session: Session, table_name: str, rng: Rng | None = None, *,
               round_id: int | None = None) -> Played:
    """No more bets at ``table_name``: draw and settle its wager round, deal and settle a
    punto banco coup, or deal a blackjack round (settled at once when nobody has a
    decision left), in this transaction; the draw or the shoe's shuffle from ``rng``
    (the secure generator by default). ``round_id`` names the round to draw (a wager
    table's slip knows its round; refused when that round is drawn already). A poker
    table deals its own hands.

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
        drawn, settled = rounds.settle(session, table_name, rng, round_id=round_id)
        return Played(drawn, tuple(settled))
    if round_id is not None:
        raise rounds.TableError(f"{table_name} deals its next round: a card round is not "
                                "named before it is dealt")
    # The card family's two games deal differently: a coup is settled as it is dealt.
    dealt: CoupResult | BlackjackView = (
        card_rounds.deal_coup(session, table_name, rng) if table.game == "punto-banco"
        else card_rounds.deal_blackjack(session, table_name, rng))
    return Played(dealt.round_id, dealt.settlements, dealt)


def dealt(session: Session, round_id: int) -> CoupResult | BlackjackView | None:
    """Card round ``round_id`` as it was dealt (a retried slip's first answer): the coup,
    or the blackjack round as it stands; None while it is open for bets."""
    return card_rounds.dealt_round(session, round_id)


@dataclass(frozen=True)
class ZeroChoice:
    """Roulette D, both zero rules (RAY 1.2.1 D): what bet ``bet`` of round ``round_id``,
    hit by zero, becomes: ``prison`` or ``half``."""

    round_id: int
    bet: int
    option: str


@dataclass(frozen=True)
class HandDecision:
    """Blackjack: the decision of the hand whose turn it is: ``hit``, ``stand``,
    ``double`` (for ``amount`` when less than the bet, GGPoker III 2.6) or ``split``
    (III 2.7)."""

    action: str
    amount: int | None = None


@dataclass(frozen=True)
class Insurance:
    """Blackjack: insurance of ``seat`` under the dealer's ace, up to half its bet; 0
    declines (GGPoker III 2.5)."""

    seat: int
    amount: int


Decision = ZeroChoice | HandDecision | Insurance


def decide(session: Session, table_name: str, player: str, decision: Decision) -> Played:
    """A player's decision in the round in play at ``table_name``, in this transaction:
    roulette D's choice for a bet hit by zero (the round is settled with the last
    choice), or a blackjack hand's decision or insurance (a double, split or insurance
    debited now; the round settled when the dealer has played). A decision the table's
    game does not know, out of turn, or not the player's is refused and changes nothing.

    >>> from datetime import date
    >>> from pelisali.platform import accounts
    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     _ = create(s, "r-1", "roulette", "C")
    ...     decide(s, "r-1", "ann", HandDecision("hit"))
    Traceback (most recent call last):
    ...
    pelisali.platform.rounds.TableError: r-1 plays roulette: it takes no HandDecision
    """
    table = _banked(session, table_name, "its seats act through the poker table")
    game = table.game
    if isinstance(decision, ZeroChoice) and family_of(game) is not CARDS:
        settled = rounds.decide(session, table_name, decision.round_id, decision.bet,
                                decision.option, player)
        return Played(decision.round_id, tuple(settled))
    if game == "blackjack" and isinstance(decision, HandDecision):
        view = card_rounds.act(session, table_name, player, decision.action,
                               decision.amount)
        return Played(view.round_id, view.settlements, view)
    if game == "blackjack" and isinstance(decision, Insurance):
        view = card_rounds.insure(session, table_name, player, decision.seat,
                                  decision.amount)
        return Played(view.round_id, view.settlements, view)
    raise rounds.TableError(f"{table_name} plays {game}: it takes no "
                            f"{type(decision).__name__}")


@dataclass(frozen=True)
class Waiting:
    """What a table's round in play waits for from a player (:func:`waiting`): roulette
    D's options by bet number, or the blackjack round as the table shows it (the
    player's turn, insurance to answer). ``round_id`` None: no round waits."""

    round_id: int | None
    choices: Mapping[int, list[str]] = field(default_factory=dict)
    dealt: BlackjackView | None = None


def waiting(session: Session, table_name: str, player: str,
            round_id: int | None = None) -> Waiting:
    """The round in play at ``table_name`` (or round ``round_id``) and what it waits
    for from ``player``: after a reconnection, where the round stopped.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     _ = create(s, "bj-1", "blackjack")
    ...     waiting(s, "bj-1", "ann")
    Waiting(round_id=None, choices={}, dealt=None)
    """
    table = _banked(session, table_name, "its seats act through the poker table")
    if table.game == "blackjack":
        view = card_rounds.blackjack_view(session, table_name)
        return Waiting(None) if view is None else Waiting(view.round_id, {}, view)
    if family_of(table.game) is CARDS:
        return Waiting(None)  # a coup is settled as it is dealt
    if round_id is None:
        round_id = session.scalar(select(RoundRow.id).where(
            RoundRow.table_id == table.id, RoundRow.status == RoundStatus.DECIDING)
            .order_by(RoundRow.id.desc()).limit(1))
        if round_id is None:
            return Waiting(None)
    choices = rounds.pending_choices(session, round_id, player)
    return Waiting(round_id if choices else None, choices)


def standing_bets(session: Session, table_name: str, player: str) -> list[BetRow]:
    """``player``'s bets standing in the round open for bets at ``table_name`` (a wager
    table's bets carried in from prison among them), without opening a round."""
    table = _banked(session, table_name, "its chips are its seats' stacks")
    open_for_bets = (RoundStatus.BETTING, RoundStatus.OPEN)
    return list(session.scalars(
        select(BetRow).join(RoundRow, BetRow.round_id == RoundRow.id)
        .where(RoundRow.table_id == table.id, RoundRow.status.in_(open_for_bets),
               BetRow.player == player).order_by(BetRow.number)))


def void(session: Session, table_name: str, reason: str, actor: str) -> int:
    """Void ``table_name``'s round in play (a mis-spin, a device fault, a dropped
    shoe): every stake goes back, a bet in prison stays there. The round's number."""
    table = rounds.find_table(session, table_name)
    family = family_of(table.game)
    if family is CARDS:
        return card_rounds.void_card_round(session, table_name, reason, actor)
    if family is SLOTS:
        raise rounds.TableError(f"{table_name}: a slot round in play is completed, not "
                                "voided (GGPoker RNG slots 2.3): its free spins are its "
                                "player's")
    if family in (BANKED, CHEMIN):
        raise rounds.TableError(f"{table_name}: a {table.game} round is finished by its "
                                "player's decision or, after 24 hours, by the house's "
                                "(GGPoker house rules 2.3)")
    if family is POKER:
        raise rounds.TableError(f"{table_name}: a poker hand is void only when its table "
                                "fails mid-hand; it then reopens with the stacks before it")
    return rounds.void(session, table_name, reason, actor)


def recover(session: Session, rng: Rng | None = None, everything: bool = False,
            at: datetime | None = None) -> list[tuple[int, str]]:
    """Finish the rounds left open with bets at every table, as their rules say: those
    past their 24-hour deadline at ``at`` (now by default), or all of them
    (``everything``: at a restart after a crash; a slot round, and a Three Card Poker
    or Red Dog round waiting for its player's decision, still waits its 24 hours). Each
    round's number and what became of it."""
    done = rounds.recover(session, rng, everything=everything, at=at)
    done += card_rounds.recover_card_rounds(session, rng, everything=everything, at=at)
    # A slot round waits 24 hours for its player even across a restart (GGPoker RNG
    # slots 2.3): ``everything`` does not end it early.
    done += slot_rounds.recover_slot_rounds(session, rng, at)
    done += banked_rounds.recover_banked_rounds(session, rng, at)  # its 24 hours, too
    done += chemin_tables.recover_chemin_coups(session, rng, at)  # and a coup's
    return sorted(done)


@dataclass(frozen=True)
class RoundRecall:
    """A round replayed through its engine from its record (:func:`recall`): whether
    the replay ends as recorded, what was recorded and what the replay gave (the
    settlements; a poker hand's stacks, rake and shares), and the problem if not."""

    round_id: int
    game: str
    same: bool
    recorded: Any
    replayed: Any
    problem: str = ""


def recall(session: Session, round_id: int) -> RoundRecall:
    """Game recall of any round, a wager round, a card round or a poker hand: replayed
    through the engine of its game from its record (either version: a record written
    before the table layer is read by its family).

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     recall(s, 1)
    Traceback (most recent call last):
    ...
    pelisali.platform.rounds.TableError: no round 1
    """
    row = session.get(RoundRow, round_id)
    table = session.get(GameTable, row.table_id) if row else None
    if row is None or table is None:
        raise TableError(f"no round {round_id}")
    family = family_of(table.game)
    if family is POKER:
        hand = poker_tables.recall_hand(session, round_id)
        return RoundRecall(round_id, table.game, hand.same, hand.recorded, hand.replayed,
                           hand.problem)
    found = (card_rounds.recall_card_round(session, round_id) if family is CARDS
             else slot_rounds.recall_slot_round(session, round_id) if family is SLOTS
             else banked_rounds.recall_banked_round(session, round_id) if family is BANKED
             else chemin_tables.recall_coup(session, round_id) if family is CHEMIN
             else rounds.recall(session, round_id))
    return RoundRecall(round_id, table.game, found.same, found.recorded, found.replayed,
                       found.problem)
