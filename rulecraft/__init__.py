"""rulecraft: write a board game's rules once, get an engine, a rulebook and tested examples."""

__version__ = "0.1.0"
