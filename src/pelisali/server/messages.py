"""The player-facing refusals as codes with parameters, so that the browser says each in
Finnish, Swedish or English, with amounts in euros: every error answer carries
``detail`` (the platform's English sentence, for logs and the API's users), and, where
the sentence is one of the catalogue's, ``code`` and ``params`` (amounts as the euros
the sentence gave, poker chips as the cents they are, names, spots and counts as they
are). A malformed request (422) never answers with the validator's words for a player:
its ``code`` is ``invalid`` and its ``params`` name the field.

>>> coded("player:ann holds 1003.50, not 9999.00: no credit")
('no_credit', {'held': '1003.50', 'wanted': '9999.00'})
>>> coded("ann: self-excluded until 2026-12-08 01:29:42.411029+00:00")
('excluded', {'until': '2026-12-08T01:29:42.411029+00:00'})
>>> coded("ann: session-time limit 60 min reached (logged in 61 min)")
('session_time_limit', {'minutes': '60', 'played': '61'})
>>> coded("raise to 150 is outside 200..9800")
('raise_range', {'raise_to': '150', 'raise_min': '200', 'raise_max': '9800'})
>>> coded("3 cents a line is not a bet level; levels: 1, 2, 5")
('slot_level', {'cents': '3', 'levels': '1, 2, 5'})
>>> coded("rng-slot-video-ann: round 4 has shown 2 spins, not 5")
('slot_seen', {'round': '4', 'shown': '2', 'seen': '5'})
>>> coded("something else entirely")

A table's internal failure is never told in its own words: each is ``unavailable``.

>>> coded("the table failed: RuntimeError('boom')")
('unavailable', {})
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

__all__ = ["CATALOGUE", "coded", "invalid"]

_EUROS = r"-?\d[\d ]*\.\d\d"
# code: the sentences it stands for (each a pattern whose named groups are its params)
CATALOGUE: dict[str, tuple[str, ...]] = {
    # -- money and the player's own protection --------------------------------------------
    "no_credit": (rf"\S+ holds (?P<held>{_EUROS}), not (?P<wanted>{_EUROS}): no credit",),
    "balance_low": (rf"^\S+: balance (?P<held>{_EUROS}); chips are not sold on credit$",
                    r"^no credit: .+ changed while this was written and one of them cannot "
                    r"pay$"),
    "excluded": (r"\S+: self-excluded(?: until (?P<until>.+))?$",
                 r"\S+: no deposits while barred or self-excluded$"),
    "account": (r"\S+: account (?P<status>restricted|barred)",),
    "loss_limit": (rf"\S+: loss limit (?P<limit>{_EUROS}) a (?P<period>day|week|month)",),
    "deposit_limit": (rf"\S+: deposit limit (?P<limit>{_EUROS}) a (?P<period>day|week|month)",),
    "session_time_limit": (r"^\S+: session-time limit (?P<minutes>\d+) min reached "
                           r"\(logged in (?P<played>\d+) min\)$",),
    "session_minutes": (r"^a session-time limit is 1 to (?P<most>\d+) minutes, not ",),
    "limit_period": (r"^a session-time limit is per session, not per ",
                     r"^period '[^']*': day, week or month$",
                     r"^limit '[^']*': deposit, loss or session$"),
    "payment_declined": (r"^\S+ declined the deposit: ",),
    "payout_failed": (r"^\S+ could not pay out: ",),
    # -- the wager games and the card games -------------------------------------------------
    "under_minimum": (rf"(?P<stake>{_EUROS}) is under the table minimum (?P<minimum>{_EUROS})",),
    # -- chemin de fer: the bank and the punts, in turn -------------------------------------
    "chemin_bank": (rf"^a bank is (?P<minimum>{_EUROS}) to (?P<maximum>{_EUROS})$",),
    "chemin_stake": (rf"^a stake against the bank is (?P<minimum>{_EUROS}) to the "
                     rf"(?P<maximum>{_EUROS}) left uncovered$",),
    "chemin_turn": (r"^it is (?P<who>\S+)'s turn, not \S+'s$",),
    "chemin_banker": (r"^the bank is (?P<who>\S+)'s to put up or pass, not \S+'s$",),
    "chemin_no_coup": (r"^no coup is in play at \S+$",),
    "chemin_no_table": (r"^no chemin de fer table '(?P<table>[^']*)'$",),
    "at_maximum": (rf"^(?P<spot>.+) already holds the table maximum (?P<maximum>{_EUROS})$",),
    "no_spot": (r"has no betting spot '(?P<spot>[^']*)'",
                r"^(?P<spot>.+) is not a spot of ",
                r"^punto banco has no bet '(?P<spot>[^']*)'; bets: ",
                r"^a blackjack bet is on a seat: 'seat 3' or '3', not '(?P<spot>[^']*)'$",
                r"^.+ has no bet '(?P<spot>[^']*)' before the deal; bets: ",
                r"^Pai Gow Poker has no bet '(?P<spot>[^']*)'; bets: "),
    "no_game": (r"^no game '[^']*' here; games: ", r"^\S+ has no version '[^']*'; versions: "),
    "closed": (r"\S+ is closed$", r"is closed: no more bets",
               r"^no more bets(?:$|: the betting window has closed$)"),
    "deciding": (r"round (?P<round>\d+) is still deciding", r"waits for a choice"),
    "send_again": (r"^the slip was not (?:placed|played): send it again$",),
    "no_round": (r"^no such round of yours$", r"^bet \d+ of round \d+ is not \S+'s$"),
    "no_choice": (r"^bet \d+ has no choice to make$",
                  r"^round \d+ is \w+, not waiting for a choice$"),
    "not_an_option": (r"^'[^']*' is not an option; choose ",),
    "seat_range": (r"^seats are numbered 1 to (?P<most>\d+)$",
                   r"^boxes are numbered 1 to (?P<most>\d+), not "),
    "seat_has_bet": (r"^seat (?P<seat>\d+) already has a bet; one bet a seat$",
                     r"^box (?P<seat>\d+) already has a bet; one bet a box$"),
    "seat_no_bet": (r"^seat (?P<seat>\d+) is not \S+'s$", r"^seat (?P<seat>\d+) has no bet$",
                    r"^box (?P<seat>\d+) has no bet$"),
    "round_in_play": (r"^\S+: a round is in play; bets are for the next one$",
                      r"^\S+: a round is already in play$"),
    "no_round_in_play": (r"^\S+: no round in play$", r"^no hand is waiting for a decision$"),
    "not_allowed_now": (r"^'(?P<action>\w+)[^']*' is not allowed now; choose (?P<allowed>.*)$",),
    "no_insurance": (r"^insurance is offered only when the dealer's up card is an ace$",),
    "insured_already": (r"^seat (?P<seat>\d+) has already answered the insurance offer$",),
    "insurance_max": (rf"^insurance is at most half the bet: (?P<maximum>{_EUROS})$",),
    "insurance_first": (r"^round \d+: insurance is still to be answered$",),
    "double_range": (rf"^a double is more than 0 and at most the bet (?P<stake>{_EUROS})$",),
    # -- Three Card Poker and Red Dog: the decision after the deal ---------------------------
    "decision_waiting": (r"^\S+: round (?P<round>\d+) waits for a decision "
                         r"\((?P<actions>[^)]*)\)$",),
    "no_decision_due": (r"^no round waits for a decision at \S+$",),
    "progressive_fee": (rf"^the progressive takes its fee, (?P<fee>{_EUROS}), "
                        rf"not (?P<stake>{_EUROS})$",),
    "progressive_once": (r"^the progressive is bet once a round$",),
    "progressive_closed": (r"^the casino runs no progressive at its \S+ tables$",),
    "side_bet_alone": (r"^Trips and the progressive are bet with an ante",),
    "bonus_alone": (r"^the Bonus and the progressive are bet with an ante",),
    "decision_not_open": (r"^'(?P<action>[^']+)' is not open [^;]+; open: (?P<open>.+)$",),
    "raise_to_ante": (rf"^a raise is 0\.01 to the ante \((?P<ante>{_EUROS})\), "
                      rf"not (?P<stake>{_EUROS})$",),
    # Oasis Stud Poker's exchange: the cards named
    "not_a_card": (r"^'(?P<card>[^']*)' is not a card \(rank 2-9 T J Q K A, suit c d h s\)$",),
    "exchange_not_held": (r"^(?P<card>\S+) is not in seat \d+'s hand \((?P<hand>[^)]*)\)$",),
    "exchange_twice": (r"^(?P<card>\S+) is named twice; each card is exchanged once$",),
    "exchange_once": (r"^seat \d+ has exchanged its cards; a box exchanges once$",),
    # a decision sent in another game's shape (the amount, cards, multiple or street that
    # another game's decision carries, or another game's word)
    "decision_shape": (r"; nothing else does$", r", and no other game's$"),
    "not_an_action": (r"^'(?P<action>[^']*)' is not an action here: ",),
    "needs_a_bet": (r"^a round needs a bet$",),
    # Russian Poker: one draw, and the answer to a dealer who does not qualify
    "draw_once": (r"^seat \d+ has drawn; a box draws once$",),
    "exchange_count": (r"^a box exchanges (?P<least>\d) to (?P<most>\d) cards, not "
                       r"(?P<count>\d+)$",),
    "no_sixth_card": (r"^these rules sell no sixth card$",),
    "no_game_answer": (r"^the dealer does not qualify: 'take' the ante paid 1:1 or 'buy' "
                       r"the dealer a game for one ante$",),
    "no_game_not_yet": (r"^a box may (?:buy|take) when the dealer does not qualify, once "
                        r"every box has bet or folded$",),
    # Pai Gow Poker's setting: the two cards of the low hand (one not held is
    # exchange_not_held's sentence)
    "low_hand_count": (r"^the low hand is 2 cards, not (?P<count>\d+)$",),
    "low_hand_twice": (r"^(?P<card>\S+) is named twice; the low hand is two cards$",),
    # Pai Gow Poker's bank: a player banks after a round against the house's bank
    "bank_or_bet": (r"^a box bets against the bank or banks, not both$",),
    "bank_house_between": (r"^the house banks every other round: bet against its bank "
                           r"before you bank again$",),
    "bank_first": (r"^a player banks after a round bet against the house's bank$",),
    "bank_most": (rf"^a bank is at most (?P<bank_most>{_EUROS}): your last bet against the "
                  rf"house's bank, (?P<last_bet>{_EUROS}), and (?P<percent>\d+) % more; "
                  rf"not (?P<stake>{_EUROS})$",),
    # -- the slots: the bet from the rule lists, free spins one at a time ------------------
    "slot_lines": (r"^(?P<lines>\d+) lines cannot be played; lines: (?P<choices>\d+(?:, \d+)*)$",),
    "slot_level": (r"^(?P<cents>\d+) cents a line is not a bet level; "
                   r"levels: (?P<levels>\d+(?:, \d+)*)$",),
    "slot_free_left": (r"^\S+: round (?P<round>\d+) has (?P<left>\d+) free spins left; "
                       r"play them first$",),
    "slot_no_free": (r"^\S+: no free spins to play$",),
    "slot_seen": (r"^\S+: round (?P<round>\d+) has shown (?P<shown>\d+) spins, "
                  r"not (?P<seen>\d+)$",),
    # -- colour chips (RAY 1.2.1, 1.2.2, 1.3.2 "Pelipanokset") -------------------------------
    "chips_value_only": (r"^\S+ takes value chips only \((?P<section>[^)]*)\)$",
                         r"^\S+ is played with value chips only \((?P<section>[^)]*)\)$"),
    "chips_colour_only": (r"^\S+ takes colour chips only: buy a stack first$",),
    "chips_no_colour": (r"^no colour '(?P<colour>[^']*)'; colours: ",),
    "chips_colour_taken": (r"^(?P<colour>\w+) is taken at \S+; free colours: ",),
    "chips_unit": (rf"^a colour chip's value is within the table's limits "
                   rf"(?P<minimum>{_EUROS}) to (?P<maximum>{_EUROS})$",),
    "chips_count": (r"^colour chips are bought 1 to (?P<most>\d+) at a time$",),
    "chips_other_stack": (rf"^\S+ plays (?P<colour>\w+) chips of (?P<stake>{_EUROS}) at \S+: "
                          r"more are bought in that colour and value$",),
    "chips_bets_standing": (r"^\S+ has bets standing at \S+: colour chips are "
                            r"(?:bought|exchanged) when they are settled$",),
    "chips_none": (r"^\S+ holds no colour chips at \S+$",),
    "chips_whole": (rf"^a stake in colour chips is whole chips of (?P<minimum>{_EUROS}), "
                    rf"not (?P<stake>{_EUROS})$",),
    "chips_in_play": (r"^\S+ has colour chips in play: they are exchanged first$",),
    "chips_setting": (r"^chips '[^']*': value, colour or both$",),
    # -- the poker tables -----------------------------------------------------------------
    "buy_in": (rf"the minimum buy-in is (?P<minimum>{_EUROS}|\d+)$",),
    "buy_in_amount": (r"^a buy-in is a positive whole number of cents$",
                      r"^buy a positive amount of chips$"),
    "seated_already": (r"^\S+ is already seated(?: at \S+: leave the table first)?$",),
    "table_full": (r"^the table is full \((?P<seats>\d+) seats\)$",),
    "not_seated": (r"^you are not seated at \S+: nothing to cash out$",
                   r"^\S+ is not at the table$"),
    "between_hands": (r"^no chips are bought during a hand", r"^players leave between hands$",
                      r"^players sit down between hands$"),
    "no_key": (r"^a (?:sit \(buy-in\)|leave \(cash-out\)) moves money, so it carries a key",),
    "no_action_due": (r"^no hand is waiting for an action$", r"^the hand is over$"),
    "not_your_turn": (r"^it is (?P<name>\S+)'s turn(?: \(seat \d+\))?$",),
    "to_call": (r"^(?P<call>\d+) to (?:call: call, raise or fold|call: not a check|"
                r"bring in: not a check)$",),
    "nothing_to_call": (r"^nothing to call: check(?: instead of folding)?$",),
    "bring_in": (r"^the bring-in is posted, not folded$",),
    "no_raise": (r"^a raise is not allowed now$",),
    "raise_amount": (r"^a raise needs the street total to raise to$",
                     r"^raise to a whole number of chips, not "),
    "raise_range": (r"^raise to (?P<raise_to>-?\d+) is outside "
                    r"(?P<raise_min>\d+)\.\.(?P<raise_max>\d+)$",),
    "discard_first": (r"^seat \d+ must discard a card first$",
                      r"^seat \d+ discards a card first, not "),
    "draw_first": (r"^seat \d+ must draw first$", r"^seat \d+ draws \(or stands pat\) first, not "),
    "no_draw": (r"^nobody (?:draws|discards) now$",),
    "not_your_card": (r"^'(?P<card>[^']*)' is not a card seat \d+ holds: ",),
    "card_twice": (r"^a card is discarded twice$",),
    "draw_too_many": (r"^the stub and the thrown cards hold (?P<most>\d+), not \d+$",),
    # -- tournaments ----------------------------------------------------------------------
    "no_tournament": (r"^there is no tournament (?P<tournament>\d+)$",),
    "tournament_entered": (r"^\S+ is already in the tournament$",
                           r"^\S+ has made every entry allowed \((?P<most>\d+)\)$"),
    "registration_closed": (r"^registration is closed: the field is full or play has begun$",),
    "not_registered": (r"^\S+ is not registered$",
                       r"^you are not playing in tournament \d+$",
                       r"^\S+ is not your entry in tournament \d+$"),
    "tournament_started": (r"^a player can unregister only before the start$",),
    "tournament_not_running": (r"^tournament \d+ is (?:registering|finished|cancelled|not "
                               r"running)$",
                               r"^the tournament is (?:registering|cancelled|finished)$"),
    "rebuys_closed": (r"^rebuys are closed$",),
    "rebuy_stack": (r"^a rebuy is for a stack at or below the starting chips$",),
    "add_on_not_now": (r"^the add-on is taken at the break after the rebuy period$",),
    "add_on_taken": (r"^\S+ has taken the add-on$",),
    # a table-game or slot tournament's rounds (tournament chips, never euros)
    "board_time_up": (r"^the time is up: no more rounds$",
                      r"^the tournament is finished: the time is up$"),
    "board_rounds_done": (r"^\S+ has played all (?P<rounds>\d+) rounds$",),
    "board_out": (r"^\S+ has \d+ chips, under the least bet (?P<chips>\d+): out$",),
    "board_short": (r"^\S+ has (?P<chips>\d+) chips; the round would stake (?P<needed>\d+)$",),
    "board_bet_least": (r"^a round stakes at least (?P<chips>\d+) chips, not \d+$",),
    "board_bet_most": (r"^a round stakes at most (?P<chips>\d+) chips, not \d+$",),
    "board_round_open": (r"^\S+ has a round in play: decide \((?P<actions>[^)]*)\)$",),
    "board_no_round": (r"^\S+ has no round in play$",),
    # -- the tables players share: connections and messages ---------------------------------
    "not_connected": (r"^not connected to the table$",),
    "unavailable": (r"^the table failed: ", r"^the table cannot be reached now",
                    r"^the table is moving to another server process",
                    r"^poker table \S+ is not open yet$", r"^the table is not open$"),
    "malformed": (r"^\d+ validation errors? for (?:LiveSlip|PokerMessage|TournamentMessage)\b",
                  r"^messages: hello(?: \{since\}, bet)?$"),
    "too_many_sockets": (r"^at most (?P<most>\d+) table connections at once: close one$",),
    # -- registration and login -------------------------------------------------------------
    "name_taken": (r"a (?:player|login) called '(?P<name>[^']*)' exists",),
    "name_form": (r"a player name is 1-80 letters",),
    "under_age": (r"\S+: under (?P<age>\d+) may not play",),
    "restricted_country": (r"\S+: residents of (?P<country>[A-Z]{2}) may not register",),
    "country": (r"country '[^']*'",),
    "born": (r"a date of birth is from",),
    "password_short": (r"a password has at least (?P<least>\d+) characters",),
    "password_long": (r"a password has at most (?P<most>\d+) characters",),
    "password_common": (r"one of the most common ones", r"password of spaces only"),
    "password_name": (r"a password is not the login's name",),
    "password_weak": (r"this password is too easy to guess",),
    "login": (r"^wrong name or password$",),
    "logged_out": (r"^not logged in$",),
    "too_many_logins": (r"too many failed logins: try again in (?P<seconds>\d+) s",),
    "too_many_accounts": (r"too many new accounts",),
    "too_fast": (r"too many (?:slips|bets|messages)", r"^more than \d+ messages a second$"),
    # -- provably fair draws (platform/fairness.py) ----------------------------------------
    "fair_client_seed": (r"^a client seed is 1 to 64 letters, digits, - or _$",),
    "fair_not_offered": (r"^provably fair draws are offered at the wheels, dice, slots, "
                         r"punto banco, blackjack and the banked card games, not "
                         r"(?P<game>\S+)$",
                         r"^\S+: provably fair draws are not offered under the zero rule "
                         r"where the players choose$"),
    "fair_nothing_to_reveal": (r"^the seed pair has drawn no round yet: nothing to reveal$",),
    "fair_not_fair": (r"^round (?P<round>\d+) was not drawn provably fair$",),
    "fair_round_in_play": (r"^\S+: finish the round in play before the seed is revealed$",
                           r"^round (?P<round>\d+) is in play: it is verified once it is "
                           r"over$"),
    # -- staff: the anti-money-laundering cases -------------------------------------------
    "aml_no_case": (r"^no case (?P<case>\d+)$",),
    "aml_case_done": (r"^case (?P<case>\d+) is (?:closed|voided) already$",),
    "aml_note": (r"^(?:closing|voiding) a case needs the staff member and a note$",),
    "aml_not_joint_play": (r"^case (?P<case>\d+) is a (?P<rule>\w+) case: only a joint_play "
                           r"case is voided$",),
    "aml_in_prison": (r"^case (?P<case>\d+): bet (?P<bet>\d+) of round (?P<round>\d+) is "
                      r"still in prison; void the case once it is settled$",),
    "aml_evidence": (r"^case (?P<case>\d+): bet (?P<bet>\d+) of round (?P<round>\d+) is not "
                     r"the bet its evidence names$",),
    # a client key sent again with another request (keys.used_for, the poker room's words)
    "key_reused": (r"^(?:this key|key .+) was used for .+; send a new key$",
                   r"^bet key '.*' was used for a different bet",
                   r"^idempotency key '.*' was used for a different transfer"),
}
_COMPILED = [(code, re.compile(p)) for code, patterns in CATALOGUE.items() for p in patterns]


def coded(text: str) -> tuple[str, dict[str, str]] | None:
    """The catalogue's code for the sentence ``text`` and its parameters, or None."""
    for code, pattern in _COMPILED:
        found = pattern.search(text)
        if found:
            params = {k: v for k, v in found.groupdict().items() if v is not None}
            if "until" in params:  # a moment as ISO 8601, for the page's own time zone
                try:
                    params["until"] = datetime.fromisoformat(params["until"]).isoformat()
                except ValueError:
                    del params["until"]
            return code, params
    return None


def answer(detail: Any) -> dict[str, Any]:
    """An error answer's body: ``detail``, and its ``code`` and ``params`` if the
    catalogue knows it."""
    body: dict[str, Any] = {"detail": detail}
    found = coded(detail) if isinstance(detail, str) else None
    if found is not None:
        body["code"], body["params"] = found
    return body


def invalid(errors: Sequence[Any]) -> dict[str, Any]:
    """A 422's body: the validator's findings as ``detail`` (for the API's users), and
    for a player ``code`` ``invalid`` with the fields named."""
    fields = []
    for error in errors:
        where = [str(p) for p in error.get("loc", ()) if p not in ("body", "query", "path")]
        if where and where[0] not in fields:
            fields.append(where[0])
    return {"detail": list(errors), "code": "invalid", "params": {"fields": ",".join(fields)}}
