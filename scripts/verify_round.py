#!/usr/bin/env python3
"""Verify a provably fair Pelisali round with nothing but the Python standard library.

Give it the round's proof as JSON (a file, or ``-`` for standard input), as
``pelisali verify-round ROUND --json`` or the round recall in the browser shows it: one
step for a wheel's or dice's round, one a spin for a slot's.

    {"round": 12, "game": "roulette-C", "outcome": ["17"],
     "steps": [{"server_seed": "<64 hex digits, revealed>",
                "commitment": "<64 hex digits>", "client_seed": "my-seed", "nonce": 0,
                "draws": [[37, 17]]}]}

For each step it checks that SHA-256 of the server seed is the commitment the round was
drawn under, and recomputes every draw: the raw word at cursor c is the first 8 bytes (big-endian)
of HMAC-SHA256(server seed bytes, "client_seed:nonce:c"); a word at or above the largest
multiple of the bound below 2**64 is thrown away and the next cursor tried; a kept
word's draw is the word modulo the bound. Each draw is the index of the slot that came
up on a device (a wheel's pocket in the rule file's order, a die's face less one).

A card round's proof also names its shoe, ``"shoe": {"decks": 1, "first": 0}``: the
step's draws are then a Fisher–Yates shuffle of that many decks, one after another,
each in the order 2c 2d 2h 2s 3c ... As (for i from the last place down to 1, the card
at place i swapped with the one at place draw), and the round's cards (``outcome``) are
the shuffled order's cards from place ``first`` (0 is the top) on. A deck with jokers
(Pai Gow Poker's 53 cards) says how many, ``"jokers": 1``: each ``Jk`` follows the decks
before the shuffle. The script prints the whole order it recomputes and checks the cards
against it.
Exit status 0: the round is the seeds' round; 1: it is not; 2: the proof is unreadable.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from typing import Any

WORD = 1 << 64
DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


def word(server_seed: bytes, client_seed: str, nonce: int, cursor: int) -> int:
    message = f"{client_seed}:{nonce}:{cursor}".encode()
    return int.from_bytes(hmac.new(server_seed, message, hashlib.sha256).digest()[:8], "big")


def draws(server_seed: bytes, client_seed: str, nonce: int, bounds: list[int]) -> list[int]:
    """The draws below each bound, in order, from one round's stream."""
    out, cursor = [], 0
    for bound in bounds:
        limit = WORD - WORD % bound
        while True:
            raw = word(server_seed, client_seed, nonce, cursor)
            cursor += 1
            if raw < limit:
                out.append(raw % bound)
                break
    return out


def check(step: dict[str, Any], name: str) -> list[str]:
    """What does not match in one step (empty: it is the seeds' draws)."""
    seed = bytes.fromhex(step["server_seed"])
    problems = []
    if hashlib.sha256(seed).hexdigest() != step["commitment"]:
        problems.append(f"{name}: SHA-256 of the server seed is not the commitment")
    bounds = [int(n) for n, _ in step["draws"]]
    recorded = [int(d) for _, d in step["draws"]]
    got = draws(seed, str(step["client_seed"]), int(step["nonce"]), bounds)
    for i, (bound, mine, theirs) in enumerate(zip(bounds, got, recorded, strict=True)):
        same = "matches" if mine == theirs else "DOES NOT MATCH"
        print(f"{name} draw {i + 1}: below {bound}: recomputed {mine}, recorded {theirs}: "
              f"{same}")
        if mine != theirs:
            problems.append(f"{name} draw {i + 1} is {mine}, not {theirs}")
    return problems


def shuffled(decks: int, draws: list[int], jokers: int = 0) -> list[str]:
    """The order of ``decks`` decks (and ``jokers`` jokers after them) after a
    Fisher–Yates shuffle with ``draws``."""
    order = DECK * decks + ["Jk"] * jokers
    for i, j in zip(range(len(order) - 1, 0, -1), draws, strict=True):
        order[i], order[j] = order[j], order[i]
    return order


def check_shoe(proof: dict[str, Any]) -> list[str]:
    """What does not match in a card round's deck order and cards (empty: they match)."""
    shoe = proof.get("shoe")
    if not shoe:
        return []
    decks, first = int(shoe["decks"]), int(shoe["first"])
    jokers = int(shoe.get("jokers", 0))
    (step,) = proof["steps"]  # one shuffle
    size = 52 * decks + jokers
    if [int(n) for n, _ in step["draws"]] != list(range(size, 1, -1)):
        return [f"the draws are not a shuffle of {size} cards"]
    order = shuffled(decks, [int(d) for _, d in step["draws"]], jokers)
    with_jokers = f" and {jokers} joker(s)" if jokers else ""
    print(f"deck order ({decks} deck(s){with_jokers}, top first): {' '.join(order)}")
    dealt = [str(card) for card in proof.get("outcome", [])]
    mine = order[first:first + len(dealt)]
    same = "matches" if mine == dealt else "DOES NOT MATCH"
    print(f"cards dealt from place {first + 1}: recomputed {' '.join(mine)}, recorded "
          f"{' '.join(dealt)}: {same}")
    return [] if mine == dealt else ["the cards dealt are not the shuffled order's"]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: verify_round.py PROOF.json (or - for standard input)", file=sys.stderr)
        return 2
    try:
        text = sys.stdin.read() if argv[1] == "-" else open(argv[1]).read()  # noqa: SIM115
        proof = json.loads(text)
        steps = proof["steps"]
        if not steps or not all(step.get("server_seed") for step in steps):
            print("the server seed is not revealed yet: rotate the seed pair first",
                  file=sys.stderr)
            return 2
        problems = [p for n, step in enumerate(steps, start=1)
                    for p in check(step, f"step {n} (nonce {step['nonce']})")]
        problems += check_shoe(proof)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"cannot read the proof: {exc}", file=sys.stderr)
        return 2
    round_name = f"round {proof.get('round', '?')}"
    if problems:
        print(f"{round_name} does NOT match its seeds: " + "; ".join(problems))
        return 1
    print(f"{round_name} matches its seeds: {len(steps)} step(s), outcome "
          + " ".join(str(face) for face in proof.get("outcome", [])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
