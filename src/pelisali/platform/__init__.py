"""The casino around the games: accounts, the wallet ledger, rounds, history and audit,
persistent on SQLite (the default) or PostgreSQL.

Layers import downward only: the platform uses the engines, never the reverse.
"""
