"""Pelisali: the RAY and GGPoker casino rulebooks as exact, auditable Python engines."""

__version__ = "0.1.0"
