"""Tournaments: poker (sit & go and multi-table), table-game and slot tournaments.

Pure engines, as the games are: a tournament's state changes only through its
methods, chance comes from an injected generator and time from an injected
clock reading. The rules followed are those of ``RULINGS.md`` (Tournaments):
the Poker TDA rules (2024) where they speak, each choice a setting.

- :mod:`pelisali.tournaments.clock`: blind and ante levels, breaks, by elapsed time;
- :mod:`pelisali.tournaments.prizes`: the prize pool, payout tables, shared places;
- :mod:`pelisali.tournaments.poker`: entries, seating, balancing, busts and places.
"""
