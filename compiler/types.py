"""The rule language's value types.

Every value is an integer at play time: numbers are themselves, ``true``/``false`` are 1/0, and a
team, space, piece, piece kind or enumeration value is its index; ``none`` is -1. The checker keeps
the richer type so that ``z.rank`` on a space and ``p.team`` on a piece resolve, and so that a
designer is told when two things cannot be compared.
"""

from __future__ import annotations

from dataclasses import dataclass

INT = "int"
BOOL = "bool"
NONE = "none"
TEAM = "team"
SPACE = "space"
PIECE = "piece"
KIND = "kind"
STEPS = "steps"          # a kind's set of grid steps (row, column offsets), for reach(z, steps)
ENTITY_TYPES = (TEAM, SPACE, PIECE, KIND)


@dataclass(frozen=True)
class ListOf:
    """A list whose items have type ``item``."""

    item: object

    def __str__(self) -> str:
        return f"list of {describe(self.item)}"


def enum(name: str) -> str:
    """The type of the values of the enumeration ``name``."""
    return f"enum:{name}"


# the built-in enumeration of the eight grid directions (compiler/board.py: DIRECTIONS)
DIRECTION = enum("direction")


def is_entity(kind) -> bool:
    """True for teams, spaces, pieces, kinds and enumeration values (indices; may be none)."""
    return isinstance(kind, str) and (kind in ENTITY_TYPES or kind.startswith("enum:"))


def compatible(expected, actual) -> bool:
    """Whether a value of type ``actual`` may stand where ``expected`` is wanted."""
    if expected == actual:
        return True
    if actual == NONE and is_entity(expected):
        return True
    if isinstance(expected, ListOf) and isinstance(actual, ListOf):
        return compatible(expected.item, actual.item) or actual.item == NONE
    return False


def describe(kind) -> str:
    """A type as a designer reads it: 'a number', 'a space', 'a list of pieces'."""
    if isinstance(kind, ListOf):
        return str(kind)
    if isinstance(kind, str) and kind.startswith("enum:"):
        return f"a value of '{kind[5:]}'"
    return {INT: "a number", BOOL: "a condition (true or false)", NONE: "none",
            TEAM: "a team", SPACE: "a space", PIECE: "a piece", KIND: "a piece kind",
            STEPS: "a set of grid steps"}.get(kind, str(kind))


def parse_type(word: str, enums) -> object | None:
    """Read a type written in a spec (``int``, ``bool``, ``team``, an enum name, ``list of X``)."""
    word = word.strip()
    if word.startswith("list of "):
        inner = parse_type(word[len("list of "):], enums)
        return ListOf(inner) if inner is not None else None
    if word in (INT, BOOL, TEAM, SPACE, PIECE, KIND):
        return word
    if word in enums:
        return enum(word)
    return None
