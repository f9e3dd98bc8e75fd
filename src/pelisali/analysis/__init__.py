"""Exact odds and simulation, both driven by the game engines' own resolutions."""
