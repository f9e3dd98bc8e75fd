"""Provably fair draws: a table setting under which every round is drawn from its
player's seed pair, so that the player can check afterwards that the house could not
have chosen the outcome (docs/provably-fair.md).

**Commit.** A player's seed pair (:class:`~pelisali.platform.models.FairSeed`) is a
server seed, secret, and its SHA-256 commitment, shown to the player and written to the
audit chain when the pair is made, before any round is drawn with it; a client seed the
player may set; and a nonce, the number of rounds drawn with the pair so far.

**Draw.** A round at a fair table (``tables.fair``) is drawn with
:class:`pelisali.rng.FairRng` (server seed, client seed, nonce), through the same engine
and the same rejection scaling as any other round; the nonce is counted up (a slot
round draws each spin under a nonce of its own). The round's record keeps ``fair``: a
proof a draw step (the commitment, client seed, nonce and each ``[bound, draw]``), and
the audit chain a ``fair-round`` entry with the same, so neither can be changed or
left out afterwards without the chain showing it.

**Reveal.** :func:`rotate` reveals the server seed (into the audit chain too) and
commits a new one; :func:`verify` then replays the round's draws with the revealed seed
and compares them with its record.

>>> from datetime import date
>>> from pelisali.platform import accounts, tables
>>> from pelisali.platform.db import make_engine, transaction, upgrade
>>> from pelisali.platform.ledger import move
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with transaction(engine) as s:
...     _ = move(s, "fund", "external:owner", "house:bank", 1_000_000, "funding")
...     _ = accounts.register(s, "ann", date(1990, 1, 1), "FI")
...     _ = accounts.deposit(s, "ann", 10_000, key="d")
...     name = set_fair(s, "ann", "roulette", "C", True)
...     _ = set_client_seed(s, "ann", "my-own-seed")
...     _ = tables.place(s, name, "ann", [("red", 100)], "k1")
...     played = tables.play_round(s, name)
>>> with transaction(engine) as s:
...     before = verify(s, played.round_id)
...     _ = rotate(s, "ann")
...     after = verify(s, played.round_id)
>>> before.steps[0]["server_seed"] is None, before.matches, after.matches
(True, False, True)
>>> after.steps[0]["client_seed"], after.steps[0]["nonce"], after.recomputed == after.recorded
('my-own-seed', 0, True)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.orm import Session

from pelisali.cards import DECK, Shoe
from pelisali.engine import CHANCE, ChanceOutcome, IllegalMove, State
from pelisali.games import GameError
from pelisali.games.pai_gow import JOKER
from pelisali.platform.banked_family import BANKED_GAMES
from pelisali.platform.banked_family import FAMILY as BANKED_FAMILY
from pelisali.platform.kinds import RoundStatus
from pelisali.platform.ledger import LedgerError, append_audit, now_utc
from pelisali.platform.models import AuditEntry, BetRow, FairSeed, GameTable, RoundRow
from pelisali.platform.slot_family import FAMILY as SLOT_FAMILY
from pelisali.platform.slot_family import SLOT_GAMES, as_slot
from pelisali.platform.table_layer import (
    Family,
    MoveRecord,
    RecordError,
    RoundRecord,
    draw_outcome,
    read_record,
)
from pelisali.platform.wager_family import FAMILY as WAGER_FAMILY
from pelisali.platform.wager_family import game_id_of, wager_engine
from pelisali.rng import FairRng, commitment, new_client_seed, new_server_seed, shuffle

__all__ = [
    "CLIENT_SEED",
    "FAIR_GAMES",
    "FairError",
    "Verification",
    "deal_from",
    "draw_rng",
    "drawn_fair",
    "full_deck",
    "keep",
    "new_deck",
    "owns",
    "pair",
    "part",
    "proof_of",
    "proofs_of",
    "revealed",
    "rotate",
    "set_client_seed",
    "set_fair",
    "shoe_stands",
    "shuffled_deck",
    "table_settings",
    "verify",
]

# A client seed: 1 to 64 letters, digits, "-" or "_" (nothing that could be read as the
# ":" between the stream's parts, nothing a browser would show otherwise than typed).
CLIENT_SEED: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
# The games whose rounds are one draw of their devices (wheels and dice), and the slots
# (one draw step a spin).
WAGER_GAMES: Final = frozenset({"roulette", "boule", "money-wheel", "tuplanoppa", "sic-bo"})
# The card tables with a persistent shoe: one draw step a shuffle, the shoe's rounds
# dealt from it.
CARD_GAMES: Final = frozenset({"punto-banco", "blackjack"})
# The banked card games (every game of the family, whichever is added to it): a round
# shuffles a full deck or shoe of its own, one draw step, and is dealt from it in order.
BANKED: Final = frozenset(BANKED_GAMES)
FAIR_GAMES: Final = WAGER_GAMES | frozenset(SLOT_GAMES) | CARD_GAMES | BANKED
# Where a round waits for the player's decisions with cards still to come from its seed.
DEALT_GAMES: Final = CARD_GAMES | BANKED


class FairError(LedgerError):
    """A provably fair request refused: nothing was changed."""


def pair(session: Session, player: str, *, lock: bool = False) -> FairSeed:
    """``player``'s current seed pair (not yet revealed); a new one, committed to in the
    audit chain, when they have none."""
    query = (select(FairSeed).where(FairSeed.player == player, FairSeed.revealed_at.is_(None))
             .order_by(FairSeed.id.desc()).limit(1))
    found = session.scalars(query.with_for_update() if lock else query).first()
    return found if found is not None else _new_pair(session, player, new_client_seed())


def _new_pair(session: Session, player: str, client_seed: str) -> FairSeed:
    seed = new_server_seed()
    row = FairSeed(player=player, server_seed=seed, commitment=commitment(seed),
                   client_seed=client_seed, nonce=0, created_at=now_utc())
    session.add(row)
    session.flush()
    append_audit(session, player, "fair-commit", {
        "player": player, "commitment": row.commitment, "client_seed": client_seed})
    return row


def set_client_seed(session: Session, player: str, client_seed: str) -> FairSeed:
    """Set ``player``'s client seed for their next rounds (the nonce counts on: a round's
    stream is never repeated under one server seed).

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     set_client_seed(s, "ann", "a:b")
    Traceback (most recent call last):
    ...
    pelisali.platform.fairness.FairError: a client seed is 1 to 64 letters, digits, - or _
    """
    if not isinstance(client_seed, str) or not CLIENT_SEED.fullmatch(client_seed):
        raise FairError("a client seed is 1 to 64 letters, digits, - or _")
    row = pair(session, player, lock=True)
    row.client_seed = client_seed
    append_audit(session, player, "fair-client-seed", {
        "player": player, "commitment": row.commitment, "client_seed": client_seed,
        "nonce": row.nonce})
    return row


def rotate(session: Session, player: str) -> tuple[FairSeed, FairSeed]:
    """Reveal ``player``'s server seed (into the audit chain) and commit a new one, with
    the same client seed: the revealed pair and the new one. (Two first looks at once can
    make two pairs; every pair not yet revealed is revealed together.)"""
    old = pair(session, player, lock=True)
    hidden = list(session.scalars(
        select(FairSeed).where(FairSeed.player == player, FairSeed.revealed_at.is_(None))
        .order_by(FairSeed.id).with_for_update()))
    if not any(row.nonce for row in hidden):  # a rotation sent twice reveals nothing more
        raise FairError("the seed pair has drawn no round yet: nothing to reveal")
    # The seed of a blackjack round in play tells its cards still to come: not before its
    # end. (A shoe it shuffled is shuffled again for the next round: shoe_stands.)
    for row in hidden:
        in_play = session.scalars(
            select(GameTable.name).join(RoundRow, RoundRow.table_id == GameTable.id)
            .where(GameTable.fair.is_(True), GameTable.game.in_(DEALT_GAMES),
                   RoundRow.status == RoundStatus.PLAYING,
                   RoundRow.record.contains(row.commitment))).first()
        if in_play is not None:
            raise FairError(f"{in_play}: finish the round in play before the seed is "
                            "revealed")
    at = now_utc()
    for row in hidden:
        row.revealed_at = at
        append_audit(session, player, "fair-reveal", {
            "player": player, "commitment": row.commitment, "server_seed": row.server_seed,
            "client_seed": row.client_seed, "rounds": row.nonce})
    return old, _new_pair(session, player, old.client_seed)


def revealed(session: Session, player: str, most: int = 20) -> list[FairSeed]:
    """``player``'s revealed pairs, the latest first."""
    return list(session.scalars(
        select(FairSeed).where(FairSeed.player == player, FairSeed.revealed_at.is_not(None))
        .order_by(FairSeed.id.desc()).limit(most)))


def set_fair(session: Session, player: str, game: str, variant: str | None, on: bool) -> str:
    """Turn provably fair draws on (or off) at ``player``'s own table of ``game``: the
    table's name. Offered at the wheels and dice, whose round is one draw, the slots, the
    shoe games and the banked card games (:data:`FAIR_GAMES`); not where a zero waits for
    the players' choices (roulette's "both" rule)."""
    from pelisali.platform import tables  # tables sits above the rounds that import this

    if game == "roulette":  # its version is C unless named, as at play
        variant = variant or "C"
    name = tables.own_table(session, player, game, variant)
    table = tables.find(session, name)
    if table.game not in FAIR_GAMES:
        raise FairError(f"provably fair draws are offered at the wheels, dice, slots, punto "
                        f"banco, blackjack and the banked card games, not {table.game}")
    engine = None if table.game not in WAGER_GAMES else wager_engine(
        game_id_of(table.game, table.variant),
        json.dumps(json.loads(table.settings), sort_keys=True), table.limit_min, table.limit_max)
    if engine is not None and getattr(engine.wager, "zero_rule", None) == "both":
        raise FairError(f"{name}: provably fair draws are not offered under the zero rule "
                        "where the players choose")
    if table.fair != on:
        table.fair = on
        append_audit(session, player, "fair-table", {"table": name, "fair": on})
    return name


def table_settings(session: Session, player: str) -> list[dict[str, Any]]:
    """Where ``player`` may draw provably fair, and whether they do: one entry a game
    (``game``, ``variant``: roulette's C, the version offered; ``fair``), the wheels and
    dice first, then the slots, the shoe games and the banked card games.

    >>> from pelisali.platform.db import make_engine, transaction, upgrade
    >>> engine = make_engine("sqlite://")
    >>> upgrade(engine)
    >>> with transaction(engine) as s:
    ...     _ = set_fair(s, "ann", "red-dog", None, True)
    ...     found = table_settings(s, "ann")
    >>> [x for x in found if x["fair"]]
    [{'game': 'red-dog', 'variant': None, 'fair': True}]
    >>> found[0], [x["variant"] for x in found if x["game"] == "roulette"]
    ({'game': 'boule', 'variant': None, 'fair': False}, ['C'])
    """
    from pelisali.platform.tables import own_table_name  # tables imports this module

    games = [*sorted(WAGER_GAMES), *sorted(SLOT_GAMES), *sorted(CARD_GAMES), *BANKED_GAMES]
    variants = {game: "C" if game == "roulette" else None for game in games}
    names = {own_table_name(player, game, variants[game]): game for game in games}
    fair = {names[name] for name in session.scalars(
        select(GameTable.name).where(GameTable.name.in_(list(names)), GameTable.fair.is_(True),
                                     GameTable.mode == "rng"))}
    return [{"game": game, "variant": variants[game], "fair": game in fair} for game in games]


def owns(session: Session, round_id: int, player: str) -> bool:
    """Whether ``player`` bet in round ``round_id`` (a fair round has one player)."""
    return session.scalar(select(BetRow.id).where(BetRow.round_id == round_id,
                                                  BetRow.player == player).limit(1)) is not None


def draw_rng(session: Session, table: GameTable, players: set[str]
             ) -> tuple[FairRng, FairSeed] | None:
    """The generator a round at ``table`` is drawn with when the table is fair: its
    player's pair at its nonce (counted up); None at any other table."""
    if not table.fair:
        return None
    if len(players) != 1:
        raise FairError(f"{table.name} draws provably fair for its one player, not "
                        f"{len(players)}")
    row = pair(session, next(iter(players)), lock=True)
    rng = FairRng(row.server_seed, row.client_seed, row.nonce)
    row.nonce += 1
    return rng, row


def proof_of(rng: FairRng, row: FairSeed) -> dict[str, Any]:
    """What a fair round's record keeps of one draw step (a wager round's draw, a slot's
    spin): the commitment, client seed, nonce and each ``[bound, draw]``."""
    return {"commitment": row.commitment, "client_seed": rng.client_seed,
            "nonce": rng.nonce, "draws": [[n, d] for n, d in rng.draws]}


def proofs_of(record: str) -> list[dict[str, Any]]:
    """The proofs a round's record (JSON) keeps, one a draw step; none for a round not
    drawn provably fair.

    >>> proofs_of('{"fair": [{"nonce": 3}]}'), proofs_of('{"game": "sic-bo"}')
    ([{'nonce': 3}], [])
    """
    if '"fair"' not in record:
        return []
    found = json.loads(record).get("fair")
    return list(found) if isinstance(found, list) else []


def drawn_fair(session: Session, round_id: int) -> bool:
    """Whether round ``round_id`` was drawn provably fair (its record keeps proofs)."""
    row = session.get(RoundRow, round_id)
    return row is not None and bool(proofs_of(row.record))


def part(proofs: list[dict[str, Any]]) -> dict[str, Any]:
    """A record's ``fair`` field: the proofs, when there are any.

    >>> part([]), part([{"nonce": 0}])
    ({}, {'fair': [{'nonce': 0}]})
    """
    return {"fair": proofs} if proofs else {}


def shoe_stands(session: Session, table: GameTable, proofs: list[dict[str, Any]]) -> bool:
    """Whether a card table deals on from its shoe, whose shuffle's ``proofs`` its last
    round kept: at a provably fair table, only a shoe shuffled with a seed not yet
    revealed (its next cards would be known); elsewhere, only a shoe not shuffled
    provably fair (the setting was turned off: a new shoe). Otherwise it is shuffled
    again."""
    if not table.fair or not proofs:
        return not table.fair and not proofs
    return session.scalar(select(FairSeed.id).where(
        FairSeed.commitment == str(proofs[0].get("commitment")),
        FairSeed.revealed_at.is_(None))) is not None


def keep(session: Session, table: GameTable, round_id: int, proof: dict[str, Any]) -> None:
    """Write a fair draw step's proof into the audit chain (its record carries it too)."""
    append_audit(session, "table:" + table.name, "fair-round", {"round": round_id, **proof})


# -- the banked card games: a round's own deck ---------------------------------------------
def full_deck(state: State) -> int:
    """How many decks the round at ``state`` (chance's first card) is dealt from: the
    engine's weights must be every card of the deck, each as often (a full deck or
    shoe, with a joker a deck where the game has one), or it is not shuffled provably
    fair.

    >>> from pelisali.engine import GAMES, Seats
    >>> state = GAMES["red-dog"].new_state(Seats(1))
    >>> for move in ("bet ante 100", "done"):
    ...     state = state.apply(move).state
    >>> full_deck(state)
    6
    """
    return _deck_of(state)[0]


def _deck_of(state: State) -> tuple[int, int]:
    """The decks and the jokers the round at ``state`` is dealt from (Pai Gow Poker's 53
    cards: one deck and one joker).

    >>> from pelisali.engine import GAMES, Seats
    >>> state = GAMES["pai-gow-poker"].new_state(Seats(1))
    >>> for move in ("bet ante 100", "done"):
    ...     state = state.apply(move).state
    >>> _deck_of(state)
    (1, 1)
    """
    outcomes, weights, _ = state.chance_weights()
    labels = [o.label for o in outcomes]
    jokers = labels.count(JOKER)
    if sorted(c for c in labels if c != JOKER) != sorted(DECK) or len(set(weights)) != 1 \
            or jokers > 1:
        raise FairError("the round is not dealt from a full deck or shoe")
    return weights[0], weights[0] * jokers


def new_deck(decks: int, jokers: int = 0) -> list[str]:
    """A round's deck before its shuffle: ``decks`` decks one after another, each in
    :data:`pelisali.cards.DECK`'s order, then the jokers (``Jk``), as
    ``scripts/verify_round.py`` lays it out.

    >>> new_deck(1, 1)[-3:], len(new_deck(6))
    (['Ah', 'As', 'Jk'], 312)
    """
    return list(DECK) * decks + [JOKER] * jokers


def _shoe(decks: int, jokers: int) -> dict[str, int]:
    """The deck a proof names: ``jokers`` only where there are any, as before them."""
    return {"decks": decks, "first": 0, **({"jokers": jokers} if jokers else {})}


def shuffled_deck(session: Session, table: GameTable, player: str, state: State,
                  round_id: int) -> tuple[str | None, list[dict[str, Any]]]:
    """At a provably fair table of a banked card game, the round's own deck or shoe
    (:func:`full_deck`) shuffled with ``player``'s seed pair (Fisher–Yates, one draw
    step, its proof kept in the audit chain) as its order, two characters a card, and the
    proof for the record; elsewhere ``(None, [])``, and the cards are drawn one by one."""
    fair = draw_rng(session, table, {player})
    if fair is None:
        return None, []
    order = shuffle(new_deck(*_deck_of(state)), fair[0])  # as a Shoe shuffles its decks
    proof = proof_of(*fair)
    keep(session, table, round_id, proof)
    return "".join(order), [proof]


def deal_from(order: str, state: State) -> ChanceOutcome:
    """Chance's next card at ``state`` from a round's shuffled ``order``: the card after
    the ones the round has drawn (a round is dealt from its deck in order).

    >>> from pelisali.engine import GAMES, Seats
    >>> state = GAMES["three-card-poker"].new_state(Seats(1))
    >>> for move in ("bet ante 100", "done"):
    ...     state = state.apply(move).state
    >>> state = state.apply(deal_from("AsKd9c", state)).state
    >>> deal_from("AsKd9c", state).label
    'Kd'
    """
    drawn = sum(1 for move in state.history if move.actor == CHANCE)
    outcome = ChanceOutcome(order[2 * drawn:2 * drawn + 2])
    if not state.can_come_up(outcome):
        raise FairError(f"card {drawn + 1} of the shuffled deck cannot come up here")
    return outcome


@dataclass(frozen=True)
class Verification:
    """A fair round checked against its revealed server seeds. ``steps``: its draw steps'
    proofs, each with ``server_seed`` (None while not revealed); ``recorded`` and
    ``recomputed``: its chance outcomes as recorded and as the seeds draw them through the
    engine (empty until every seed is revealed); ``problem``: what does not match."""

    round_id: int
    game: str
    steps: list[dict[str, Any]]
    recorded: list[str]
    recomputed: list[str] = field(default_factory=list)
    problem: str | None = None
    shoe: dict[str, int] | None = None  # a shuffled deck: {"decks", "first" card dealt,
    # and "jokers" where the deck has them}

    @property
    def matches(self) -> bool:
        return self.problem is None and all(s["server_seed"] for s in self.steps)

    def proof(self) -> dict[str, Any]:
        """What ``scripts/verify_round.py`` reads (with only the Python standard library).

        >>> Verification(7, "sic-bo", [{"nonce": 0}], ["1"]).proof()
        {'round': 7, 'game': 'sic-bo', 'steps': [{'nonce': 0}], 'outcome': ['1']}
        """
        return {"round": self.round_id, "game": self.game, "steps": self.steps,
                "outcome": self.recorded, **({"shoe": self.shoe} if self.shoe else {})}


_STEP_KEYS: Final = ("commitment", "client_seed", "nonce", "draws")


def verify(session: Session, round_id: int) -> Verification:
    """Check fair round ``round_id``: its proofs are the audit chain's, each commitment is
    SHA-256 of its revealed seed, and replaying the engine with the revealed seeds draws
    exactly the recorded draws and outcomes; refused if the round was not drawn provably
    fair, or is still in play (its draws tell the cards still to come). A step's draws
    are shown once its seed is revealed: before, they would tell a shoe's next rounds."""
    row = session.get(RoundRow, round_id)
    if row is None:
        raise FairError(f"no round {round_id}")
    if row.status == RoundStatus.PLAYING:
        raise FairError(f"round {round_id} is in play: it is verified once it is over")
    data = json.loads(row.record)
    proofs = proofs_of(row.record)
    if not proofs:
        raise FairError(f"round {round_id} was not drawn provably fair")
    try:
        record = read_record(data, _family(str(data["game"])))
    except (RecordError, KeyError, ValueError) as exc:
        raise FairError(f"round {round_id}: {exc}") from None
    recorded = record.dealt()
    seeds = {s.commitment: s for s in session.scalars(select(FairSeed).where(
        FairSeed.commitment.in_({str(p.get("commitment")) for p in proofs})))}
    steps: list[dict[str, Any]] = []
    for p in proofs:
        seed = seeds.get(str(p.get("commitment")))
        shown = seed.server_seed if seed is not None and seed.revealed_at is not None else None
        steps.append({**{k: p.get(k) for k in _STEP_KEYS}, "server_seed": shown,
                      **({} if shown else {"draws": None})})
    base = Verification(round_id, record.game, steps, recorded)
    if any(str(p.get("commitment")) not in seeds for p in proofs):
        return replace(base, problem="no seed pair has the round's commitment")
    if not all(s["server_seed"] for s in steps):
        return replace(base, problem="the server seed is revealed when the player rotates "
                                     "the pair")
    if any(commitment(s["server_seed"]) != s["commitment"] for s in steps):
        return replace(base, problem="the revealed seed's SHA-256 is not the commitment")
    try:
        rngs = [FairRng(s["server_seed"], str(s["client_seed"]), int(s["nonce"]))
                for s in steps]
        recomputed, laid_out, shoe = (
            _slot_draws(record, rngs) if record.game in SLOT_GAMES
            else _card_draws(record, rngs) if record.game in CARD_GAMES
            else _banked_draws(record, rngs) if record.game in BANKED
            else _wager_draws(record, rngs))
    except (LedgerError, GameError, IllegalMove, KeyError, TypeError, ValueError) as exc:
        return replace(base, problem=f"the round does not replay: {exc}")
    base = replace(base, recomputed=recomputed, shoe=shoe)
    if [[[n, d] for n, d in rng.draws] for rng in rngs] != [s["draws"] for s in steps]:
        return replace(base, problem="the recorded draws are not the seeds' draws")
    if recomputed != recorded or not laid_out:
        return replace(base, problem="the recorded outcome is not the seeds' outcome")
    return replace(base, problem=_audited(session, record.table, proofs))


def _family(game: str) -> Family:
    from pelisali.platform.card_family import FAMILY as CARD_FAMILY  # it imports rounds

    if game in SLOT_GAMES:
        return SLOT_FAMILY
    if game in BANKED:
        return BANKED_FAMILY
    return CARD_FAMILY if game in CARD_GAMES else WAGER_FAMILY


Replayed = tuple[list[str], bool, dict[str, int] | None]
"""A round's chance outcomes as the seeds draw them through its engine, whether the
physical draw (slots, the shuffled order) is the recorded one, and the deck shuffled."""


def _wager_draws(record: RoundRecord, rngs: list[FairRng]) -> Replayed:
    """A wager round's faces drawn by its engine with ``rngs`` (one draw step), and
    whether the slots are the recorded ones (a device may show one face on several)."""
    limits = record.limits
    engine = wager_engine(record.game, json.dumps(record.settings, sort_keys=True),
                          None if limits is None else limits.min,
                          None if limits is None else limits.max)
    drawn = [d for rng in rngs for d in engine.wager.draw(rng)]
    return [d.face for d in drawn], [d.slot for d in drawn] == record.draw_slots, None


def _card_draws(record: RoundRecord, rngs: list[FairRng]) -> Replayed:
    """A card round's cards from its shoe shuffled with ``rngs`` (one draw step: the
    shuffle, Fisher–Yates), at the round's places in the shoe, and whether the whole
    shuffled order is the recorded one."""
    from pelisali.platform.card_family import FAMILY as CARD_FAMILY  # it imports rounds

    config = CARD_FAMILY.game(record).config
    shoe = Shoe(config.decks, config.cut_cards_from_back)
    (rng,) = rngs
    shoe.shuffle(rng)
    start, end = record.shoe_positions or [0, 0]
    return (shoe.cards[start:end], "".join(shoe.cards) == record.shuffle_order,
            {"decks": config.decks, "first": start})


def _banked_draws(record: RoundRecord, rngs: list[FairRng]) -> Replayed:
    """A banked round replayed through its engine: the player's moves as recorded, its
    own deck (:func:`full_deck`) shuffled with ``rngs`` (one draw step) at chance's first
    card and dealt from in order; whether that order is the recorded one."""
    (rng,) = rngs
    state = BANKED_FAMILY.start(record)
    order, deck, out = "", (0, 0), []
    for move in record.history:
        if move.actor != CHANCE:
            state = state.apply(move.text, move.actor).state
            continue
        if not order:
            deck = _deck_of(state)
            order = "".join(shuffle(new_deck(*deck), rng))
        card = deal_from(order, state)
        out.append(card.label)
        state = state.apply(card).state
    return out, bool(order) and order == record.shuffle_order, _shoe(*deck)


def _slot_draws(record: RoundRecord, rngs: list[FairRng]) -> Replayed:
    return _slot_stops(record, rngs), True, None


def _slot_stops(record: RoundRecord, rngs: list[FairRng]) -> list[str]:
    """A slot round replayed from its start: the player's moves as recorded, each spin's
    reel stops drawn through the engine with its step's generator."""
    state = SLOT_FAMILY.start(record)
    moves = iter(record.history)
    out: list[str] = []
    for rng in rngs:
        while state.to_move() != CHANCE:
            move = next(moves)
            state = state.apply(move.text, move.actor).state
        spins, before = len(as_slot(state).spins), len(state.history)
        while state.to_move() == CHANCE and len(as_slot(state).spins) == spins:
            state = state.apply(draw_outcome(state, rng)).state
        drawn = [MoveRecord.of(m).text for m in state.history[before:]]
        out += drawn
        for _ in drawn:  # the recorded stops, compared as a whole afterwards
            next(moves)
    return out


def _audited(session: Session, table: str, proofs: list[dict[str, Any]]) -> str | None:
    """What is wrong with the round's proofs in the audit chain: None when the chain has
    them as the record does, in order."""
    chained = {(e.get("commitment"), e.get("nonce")): e for e in (
        json.loads(p) for p in session.scalars(
            select(AuditEntry.payload).where(AuditEntry.actor == "table:" + table,
                                             AuditEntry.action == "fair-round")))}
    for p in proofs:  # a shoe's rounds share the proof of the round that shuffled it
        entry = chained.get((p.get("commitment"), p.get("nonce")))
        if entry is None:
            return "the audit chain has no proof of the round"
        if any(entry.get(k) != p.get(k) for k in _STEP_KEYS):
            return "the audit chain's proof is not the record's"
    return None
