"""Which spec formula each line of the generated module computes, for run-time failures.

The back end marks a generated statement with the place of the spec formula or effect it comes
from (:func:`mark`). Once the module is unparsed and its lines folded, :func:`spec_lines` reads
the text back, pairs its statements with the marked ones and returns the two assignments that
end the module: ``SPEC_PLACES``, each place once as ``"file:line:col"``, and ``SPEC_LINES``, pairs
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


def spec_lines(tree: ast.Module, source: str) -> str:
    """The Python source of ``SPEC_PLACES`` and ``SPEC_LINES`` for ``source``, the folded text of
    ``tree`` (see the module docstring). Raises ValueError if ``source`` is not ``tree``'s text."""
    painted = [-1] * (source.count("\n") + 2)      # per generated line (from 1), its place's index
    places: dict[str, int] = {}
    for built, read in _paired(tree.body, ast.parse(source).body):
        place = getattr(built, _PLACE, None)
        if place is not None:
            index = places.setdefault(place, len(places))
            painted[read.lineno:read.end_lineno + 1] = [index] * (read.end_lineno + 1 - read.lineno)
    runs = [(line, index) for line, index in enumerate(painted) if line and index != painted[line - 1]]
    return (f"SPEC_PLACES = {tuple(places)!r}\n"
            f"SPEC_LINES = {tuple(runs)!r}\n")


def _paired(built: list, read: list):
    """Each statement of ``built`` with its counterpart in ``read``, outer ones first."""
    if len(built) != len(read):
        raise ValueError("the generated text does not hold the generated statements")
    for one, other in zip(built, read):
        if type(one) is not type(other):
            raise ValueError("the generated text does not hold the generated statements")
        yield one, other
    for one, other in zip(built, read):
        for body in ("body", "orelse", "finalbody"):
            inner = getattr(one, body, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                yield from _paired(inner, getattr(other, body))
