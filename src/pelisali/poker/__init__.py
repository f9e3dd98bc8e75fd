"""Poker: hand evaluation for every ranking of the rulebook."""
