"""Which spec formula each line of the generated module computes, for run-time failures.

The back end marks a generated statement with the place of the spec formula or effect it comes
from (:func:`mark`). Once the module is written (:func:`writer.write`, which tells the lines
each statement takes), :func:`spec_lines` returns the two assignments that end the module:
``SPEC_PLACES``, each place once as ``"file:line:col"``, and ``SPEC_LINES``, pairs
``(first generated line, index into SPEC_PLACES or -1)`` sorted by line. The runtime looks a
failing line up there (:func:`rulecraft.runtime.engine.rule_failure`); appended after the
module, the table moves no line it describes.
"""

from __future__ import annotations

import ast

_PLACE = "_spec_place"      # the attribute of a marked ast statement


def mark(statement: ast.stmt, where) -> ast.stmt:
    """``statement`` marked as computing the spec formula at ``where`` (a
    :class:`~rulecraft.compiler.syntax.Where`; one without a position leaves it unmarked)."""
    position = getattr(where, "position", None)
    if position is not None:
        setattr(statement, _PLACE, str(position))
    return statement


def spec_lines(tree: ast.Module, spans: dict, line_count: int) -> str:
    """The Python source of ``SPEC_PLACES`` and ``SPEC_LINES`` for the written text of ``tree``
    (see the module docstring): ``spans`` maps each statement's ``id`` to its first and last
    line, ``line_count`` is how many lines the text has."""
    painted = [-1] * (line_count + 2)      # per generated line (from 1), its place's index
    places: dict[str, int] = {}
    for statement in _outer_first(tree.body):
        place = getattr(statement, _PLACE, None)
        if place is not None:
            index = places.setdefault(place, len(places))
            first, last = spans[id(statement)]
            painted[first:last + 1] = [index] * (last + 1 - first)
    runs = [(line, index) for line, index in enumerate(painted) if line and index != painted[line - 1]]
    return (f"SPEC_PLACES = {tuple(places)!r}\n"
            f"SPEC_LINES = {tuple(runs)!r}\n")


def _outer_first(statements: list):
    """The statements of ``statements`` and of the blocks inside them, each block's own
    before those nested in them (an inner statement's place is painted over its block's)."""
    yield from statements
    for statement in statements:
        for body in ("body", "orelse", "finalbody"):
            inner = getattr(statement, body, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                yield from _outer_first(inner)
