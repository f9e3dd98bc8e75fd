"""Russian Poker's hands, its paid combinations and its basic strategy.

Standard rules (RAY 2016 1.4.1.2.5 and 4.4.1.2.2 name the game; its text is not in the
rulebook as extracted; the rules halls post, in :mod:`pelisali.rules.russian`'s data):
the player bets an ante; player and dealer get five cards each, the dealer's last face
up. Once, for one ante paid to the house, the player may exchange one to five cards for
the next cards of the deck, or buy a sixth card; then folds, losing the ante, or bets 2
times the ante. Six cards play their best five. The dealer qualifies with ace-king or
better; not qualifying, the ante wins 1:1 and the bet pushes, unless the player buys the
dealer a game for one ante (the dealer's highest card put away for the next card, drawn
again while of the rank put away). Against a qualifying dealer the higher hand wins: the
dealer's takes the ante and the bet, the player's is paid on the bet by the pay table for
its **two best combinations**, the second holding a card the first does not (ace-king is
a combination), its ante pushing (or paid 1:1, where the rule data says so); equal hands
push.

>>> paid_combinations("Kh Kd Ac 8s 5d".split())  # a pair and ace-king
('pair', 'ace_king')
>>> paid_combinations("Kh Qs Jd Tc 9h 9s".split())  # two straights (the second holds 9s)
('straight', 'straight')
>>> pay_odds("Ah Kh Qh Jh Th 9h".split())  # a royal flush and a straight flush
150
>>> bet_return("Kc Kd 7h 9s 2d".split(), "Ac Kh 5d 4s 2c".split())  # 2 x 1, the ante pushing
2
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from pelisali.cards import DECK, RANKS
from pelisali.games.oasis_stud import _royal
from pelisali.games.oasis_stud import qualifier as qualifier  # A-K-4-3-2, as Oasis's dealer
from pelisali.poker.evaluate import high_value
from pelisali.poker.hands import CATEGORIES, CATEGORY_SHIFT
from pelisali.rules.russian import PAY_HANDS, RussianRules, load_russian

BASIC_STRATEGY = (
    "1. With a pair or better, draw nothing and bet. 2. With no pair and four cards of one "
    "suit, or four consecutive ranks open at both ends (2-3-4-5 up to T-J-Q-K; the ace "
    "high only), buy the sixth card (where the rules sell none, exchange the fifth card). "
    "3. With no pair otherwise, draw nothing. 4. After the draw, or with none, bet with a "
    "pair or better or with no pair at least A-K-J-8-3 (the best five ranks compared from "
    "the highest down); otherwise fold. 5. When the dealer does not qualify, take the ante "
    "(never buy the dealer a game). The dealer's up card is not read.")
"""The stated basic strategy in words (:func:`draw_choice`, :func:`bets`); its house edge
is exact (:mod:`pelisali.games.russian_count`)."""
REFINED_STRATEGY = (
    "1. With two pair, a full house or four of a kind, draw nothing and bet. 2. With three "
    "of a kind, a straight, a flush or a straight flush, buy the sixth card. 3. With one "
    "pair, buy the sixth card with four cards of one suit or four to a straight (four of "
    "five consecutive ranks, the ace high or low); otherwise draw nothing. 4. With no pair, "
    "buy the sixth card with four cards of one suit, or with four to a straight unless it "
    "is a lone draw (one rank fills it, to five in a row only: 5-6-8-9-K, A-2-3-4-9, "
    "J-Q-K-A-7), which buys only beside an ace and a king; otherwise draw nothing. 5. After "
    "the draw, or with none, bet with a pair or better or with no pair at least A-K-J-8-3; "
    "otherwise fold. 6. Never buy the dealer a game. The dealer's up card is not read.")
"""A refined basic strategy for rules that sell a sixth card (:func:`refined_decision`):
the basic one with more sixth cards bought, close to the best strategy on the player's
cards (:mod:`pelisali.games.russian_count` counts both exactly)."""
BUY_WITH_TRIPS = (
    "When the dealer does not qualify, buy the dealer a game with three of a kind or "
    "better; otherwise take the ante.")
"""Another rule 5, for the simulator (:func:`buys_game`): a bought game is not counted
exactly."""

BET_AT_LEAST = ("A", "K", "J", "8", "3")
"""Rule 4: the least hand without a pair that bets, its ranks from the highest down."""
_BET_RANKS = tuple(RANKS.index(r) for r in BET_AT_LEAST)
PAIR = 1 << CATEGORY_SHIFT
"""The least value of a pair: every value at or above it is a pair or better."""
TRIPS = 3 << CATEGORY_SHIFT
"""The least value of three of a kind."""
_FIVE_CARD = {"straight", "flush", "full_house", "straight_flush"}
_NOT_DOUBLES = {("pair", "pair"), ("ace_king", "ace_king")}
"""Two pairs are paid as two pair, and an ace with two kings (or a king with two aces) is
one ace-king: neither is a double combination (gamsoft.ru's full list of them has
neither)."""


def _indices(hand: Sequence[str], sizes: tuple[int, ...] = (5, 6)) -> list[int]:
    try:
        out = [DECK.index(c) for c in hand]
    except ValueError:
        raise ValueError(f"cards of the deck, not {list(hand)!r}") from None
    if len(out) not in sizes or len(set(out)) != len(out):
        raise ValueError(f"{' or '.join(map(str, sizes))} different cards, not {list(hand)!r}")
    return out


def value(hand: Sequence[str]) -> int:
    """The best five cards' poker value of five or six cards (higher is better, equal
    ties), from the evaluator.

    >>> value("Ac Kd 4h 3s 2c 9d".split()) > value("Ac Kd 4h 3s 2c".split())
    True
    """
    return high_value(_indices(hand))


def qualifies(hand: Sequence[str]) -> bool:
    """Whether the dealer's five cards qualify: ace-king or better."""
    return value(hand) >= qualifier()


def hand_name(hand: Sequence[str]) -> str:
    """The name of the best five of ``hand``: ``royal_flush`` or a category of
    :data:`~pelisali.poker.hands.CATEGORIES`.

    >>> hand_name("Th Jh Qh Kh Ah 2c".split()), hand_name("2h 2d 7s 9c Kd".split())
    ('royal_flush', 'pair')
    """
    found = value(hand)
    return "royal_flush" if found == _royal() else CATEGORIES[found >> CATEGORY_SHIFT]


# -- the combinations ---------------------------------------------------------------------
def combinations_held(hand: Sequence[str]) -> list[tuple[str, frozenset[str]]]:
    """Every combination in five or six cards, each with the cards that make it: each
    pair, two pair, three and four of a kind (their cards alone), each ace with each king
    (``ace_king``), and each five cards that are a straight, flush, full house, straight
    or royal flush.

    >>> sorted(name for name, _ in combinations_held("Ah Ad Kc 7s 2d".split()))
    ['ace_king', 'ace_king', 'pair']
    """
    _indices(hand)
    out: list[tuple[str, frozenset[str]]] = []
    by_rank: dict[str, list[str]] = {}
    for card in hand:
        by_rank.setdefault(card[0], []).append(card)
    pairs: list[frozenset[str]] = []
    for group in by_rank.values():
        for size, name in ((2, "pair"), (3, "three_of_a_kind"), (4, "four_of_a_kind")):
            for cards in combinations(group, size):
                out.append((name, frozenset(cards)))
                if size == 2:
                    pairs.append(frozenset(cards))
    for first, second in combinations(pairs, 2):
        if next(iter(first))[0] != next(iter(second))[0]:
            out.append(("two_pair", first | second))
    out.extend(("ace_king", frozenset((ace, king)))
               for ace in by_rank.get("A", ()) for king in by_rank.get("K", ()))
    for five in combinations(hand, 5):
        name = hand_name(five)
        if name in _FIVE_CARD or name == "royal_flush":
            out.append((name, frozenset(five)))
    return out


def paid_combinations(hand: Sequence[str], rules: RussianRules | None = None
                      ) -> tuple[str, ...]:
    """The combinations a winning bet on ``hand`` is paid for, the better first: the two
    whose odds sum highest where the second holds a card the first does not, and the two
    are not two pairs nor two ace-kings (one where the rules pay one, or the hand holds no
    second); ``()`` without a combination.

    >>> paid_combinations("Ah Ad Ac 8h 8s 8d".split()), paid_combinations("9c 8d 7h 5s 2c".split())
    (('full_house', 'full_house'), ())
    >>> paid_combinations("Ah Kh Qh Jh 7h Ks".split())  # K-s is new to the flush
    ('flush', 'pair')
    """
    rules = rules or load_russian()
    held = combinations_held(hand)
    if not held:
        return ()
    order = {name: number for number, name in enumerate(PAY_HANDS)}

    def key(names: tuple[str, ...]) -> tuple[int, tuple[int, ...]]:
        return sum(rules.pays[n] for n in names), tuple(-order[n] for n in names)

    best: tuple[str, ...] = max(((name,) for name, _ in held), key=key)
    if rules.most_combinations < 2:
        return best
    for (one, first), (two, second) in combinations(held, 2):
        for names, a, b in (((one, two), first, second), ((two, one), second, first)):
            if b - a and order[names[0]] <= order[names[1]] and key(names) > key(best) \
                    and names not in _NOT_DOUBLES:
                best = names
    return best


def pay_odds(hand: Sequence[str], rules: RussianRules | None = None) -> int:
    """The odds a winning bet on ``hand`` is paid: its paid combinations' sum.

    >>> pay_odds("Kh Kd Ac 8s 5d".split()), pay_odds("Ah Ad Ac Ks 2d".split())
    (2, 4)
    """
    rules = rules or load_russian()
    return sum(rules.pays[name] for name in paid_combinations(hand, rules))


# -- the basic strategy --------------------------------------------------------------------
def _ranks(hand: Sequence[str]) -> list[int]:
    return sorted((RANKS.index(c[0]) for c in hand), reverse=True)


def draw_choice(hand: Sequence[str], rules: RussianRules | None = None) -> str | None:
    """Rules 1-3: ``sixth`` (buy the sixth card), ``exchange CARD`` where the rules sell
    no sixth card but exchange one, or ``None`` (no draw).

    >>> draw_choice("Ah Kh 7h 2h 9d".split()), draw_choice("5c 6d 7h 8s Kd".split())
    ('sixth', 'sixth')
    >>> draw_choice("Ac Ad 7h 9s 2c".split()), draw_choice("Ah 2d 3c 4s 9c".split())
    (None, None)
    """
    rules = rules or load_russian()
    _indices(hand, (5,))
    if value(hand) >= PAIR:  # rule 1
        return None
    odd: tuple[str, ...] = ()
    for suit in {c[1] for c in hand}:  # rule 2: four to a flush
        others = tuple(c for c in hand if c[1] != suit)
        if len(others) == 1:
            odd = others
    ranks = set(_ranks(hand))
    for low in range(0, 9):  # rule 2: 2-3-4-5 (low 0) to T-J-Q-K (low 8)
        run = set(range(low, low + 4))
        if not odd and run <= ranks:
            odd = tuple(c for c in hand if RANKS.index(c[0]) not in run)
    if not odd:
        return None  # rule 3
    if rules.sixth_card:
        return "sixth"
    return f"exchange {odd[0]}" if rules.exchange_least <= 1 else None


def bets(hand: Sequence[str]) -> bool:
    """Rule 4: whether the basic strategy bets on these five or six cards (a pair or
    better, or the best five without a pair at least A-K-J-8-3).

    >>> bets("2c 2d 3h 4s 5c".split()), bets("Ac Qd Jh 9s 8c".split())
    (True, False)
    >>> bets("Ac Kd Jh 8s 2c 3d".split()), bets("Ac Kd Jh 8s 2c".split())
    (True, False)
    """
    found = value(hand)
    if found >= PAIR:
        return True
    return tuple(_ranks(hand)[:5]) >= _BET_RANKS


def decision(hand: Sequence[str], drawn: bool = False,
             rules: RussianRules | None = None) -> str:
    """The basic strategy's action as the engine reads it: a draw (before any, by rules
    1-3), else ``raise`` (the bet) or ``fold`` by rule 4.

    >>> decision("Ah Kh 7h 2h 9d".split()), decision("Ah Kh 7h 2h 9d 9s".split(), True)
    ('sixth', 'raise')
    """
    if not drawn:
        chosen = draw_choice(hand, rules)
        if chosen:
            return chosen
    return "raise" if bets(hand) else "fold"


# -- the refined strategy ------------------------------------------------------------------
def straight_fills(hand: Sequence[str]) -> tuple[tuple[str, ...], bool]:
    """The ranks not in the five cards ``hand`` each of which would make a straight with
    them (the ace high or low), highest first, and whether one makes six in a row (two
    straights, each paid).

    >>> straight_fills("5c 6d 8h 9s Kd".split()), straight_fills("Ac 2d 3h 4s 9d".split())
    ((('7',), False), (('5',), False))
    >>> straight_fills("4c 5d 6h 8s 9d".split()), straight_fills("5c 7d 8h 9s Jd".split())
    ((('7',), True), (('T', '6'), False))
    """
    held = {RANKS.index(c[0]) for c in hand}

    def longest(ranks: set[int]) -> int:
        places = {r + 1 for r in ranks} | ({0} if 12 in ranks else set())  # the ace low too
        return max(next(n for n in range(15) if p + n not in places) for p in places)

    found = [(rank, longest(held | {rank})) for rank in range(12, -1, -1) if rank not in held]
    return (tuple(RANKS[r] for r, run in found if run >= 5),
            any(run >= 6 for _, run in found))


def refined_draw(hand: Sequence[str]) -> bool:
    """:data:`REFINED_STRATEGY`'s rules 1-4: whether it buys the sixth card with these
    five cards.

    >>> [refined_draw(h.split()) for h in ("7c 7d 7h 2s 9c", "7c 7d 2h 2s 9c",
    ...                                    "7c 7d 8h 9s Jc", "Ac Kd Qh Ts 2c", "Ac Qd Jh Ts 2c")]
    [True, False, True, True, False]
    """
    _indices(hand, (5,))
    category = value(hand) >> CATEGORY_SHIFT
    if CATEGORIES[category] in ("two_pair", "full_house", "four_of_a_kind"):
        return False  # rule 1
    if category >= 3:  # rule 2
        return True
    if max(sum(c[1] == suit for c in hand) for suit in {c[1] for c in hand}) == 4:
        return True  # rules 3 and 4: four to a flush
    fills, six = straight_fills(hand)
    if category == 1:  # rule 3
        return bool(fills)
    ace_king = {"A", "K"} <= {c[0] for c in hand}
    return len(fills) >= 2 or six or (bool(fills) and ace_king)  # rule 4


def refined_decision(hand: Sequence[str], drawn: bool = False) -> str:
    """:data:`REFINED_STRATEGY`'s action: ``sixth`` before any draw by rules 1-4, else
    ``raise`` (the bet) or ``fold`` by rule 5 (:func:`bets`, the basic strategy's).

    >>> refined_decision("Kc Kd 9h Ts Jh".split())  # a pair and four to a straight
    'sixth'
    >>> refined_decision("Kc Kd 9h Ts Jh 2d".split(), True)
    'raise'
    >>> refined_decision("Ac Kd 7h 3s 2c".split()), refined_decision("Ac Kd Jh 8s 3c".split())
    ('fold', 'raise')
    """
    if not drawn and refined_draw(hand):
        return "sixth"
    return "raise" if bets(hand) else "fold"


def buys_game(hand: Sequence[str]) -> bool:
    """:data:`BUY_WITH_TRIPS`: whether to buy a non-qualifying dealer a game (three of a
    kind or better; the basic strategy never does).

    >>> buys_game("7c 7d 7h 2s 9c".split()), buys_game("Kc Kd 7h 7s 2c".split())
    (True, False)
    """
    return value(hand) >= TRIPS


# -- what a bet returns --------------------------------------------------------------------
def bet_return(box: Sequence[str], dealer: Sequence[str],
               rules: RussianRules | None = None) -> int:
    """The ante and bet's net return, in antes, of a box that bet on ``box`` (five or six
    cards) against the dealer's five, no game bought and the draw's price apart: 1 when
    the dealer does not qualify, -1 - 2 when the dealer's hand is higher, 0 on a tie, else
    2 times the pay odds, and 1 for the ante where the rules pay it beside the bet.

    >>> bet_return("Ac Kd 9h 4s 2c".split(), "Qc Jd 9d 4h 3c".split())
    1
    >>> bet_return("5c 6d 7h 8s 9d 2c".split(), "Ah Ks 9s 4h 2d".split())  # 2 x 4
    8
    >>> bet_return("5c 6d 7h 8s 9d 9c".split(), "Ah Ks 9s 4h 2d".split())  # two straights
    16
    """
    rules = rules or load_russian()
    _indices(dealer, (5,))
    if len(set(box) | set(dealer)) != len(box) + 5:
        raise ValueError("the box and the dealer hold different cards")
    mine, theirs = value(box), value(dealer)
    multiple = rules.bet_multiple
    if theirs < qualifier():
        return 1
    if mine < theirs:
        return -1 - multiple
    if mine == theirs:
        return 0
    return int(rules.ante_on_win) + multiple * pay_odds(box, rules)
