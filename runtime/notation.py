"""Read an action's notation back into its id, without enumerating the action space.

A notation is the action's ``notation:`` template with each parameter shown as a person reads it
(``ATK X5 moves to 9F``). Games with large action spaces (BALL has about 180,000 ids) make a
notation → id table too costly to build, so :func:`action_id` matches the text against each
action's template instead: literal text must match exactly, and a parameter matches one of the
values of its type, tried in order and backtracked, so names containing spaces are no problem.
The id found is checked by writing it back (``Game.action_notation``).
"""

from __future__ import annotations

from functools import lru_cache
from string import Formatter

# The one class of a parameter written into a notation template (the engine's, which writes
# every action's notation): ``{p}`` shows its text; ``{flag: words}`` the words when true.
from rulecraft.runtime.engine import Shown


def action_id(game, notation: str) -> int | None:
    """The decision action id of ``game`` written ``notation``, or None when none is.

    ``game`` is a :class:`rulecraft.runtime.engine.Game`. When a notation leaves parameters out
    (or several ids share it), the id with the smallest values of the unwritten parameters is
    returned. Costs a few thousand string comparisons at most, whatever the action space.
    """
    for action in game.rules.actions:
        values = _match(game, action, _parts(action.notation), notation, 0, 0, {})
        if values is None:
            continue
        found = _encode(action, values)
        if game.action_notation(found) == notation:
            return found
    return None


@lru_cache(maxsize=None)
def _parts(template: str) -> tuple:
    """``(literal, parameter name or None, format spec)`` pieces of a notation template."""
    return tuple((literal, name, spec or "") for literal, name, spec, _ in Formatter().parse(template))


def _match(game, action, parts, text: str, index: int, position: int, values: dict) -> dict | None:
    if index == len(parts):
        return values if position == len(text) else None
    literal, name, spec = parts[index]
    if not text.startswith(literal, position):
        return None
    position += len(literal)
    if name is None:
        return _match(game, action, parts, text, index + 1, position, values)
    if name in values:
        candidates = (values[name],)
    else:
        _, kind, size, offset = next(p for p in action.params if p[0] == name)
        candidates = range(offset, offset + size)
    kind = next(p[1] for p in action.params if p[0] == name)
    for value in candidates:
        shown = _shown(game, kind, value, spec)
        if text.startswith(shown, position):
            found = _match(game, action, parts, text, index + 1, position + len(shown),
                           {**values, name: value})
            if found is not None:
                return found
    return None


def _shown(game, kind: str, value: int, spec: str) -> str:
    """A parameter value as ``Game.action_notation`` writes it under the format ``spec``."""
    return format(Shown(game.display(kind, value), kind == "bool" and bool(value)), spec)


def _encode(action, values: dict) -> int:
    """The id of ``action`` with ``values`` (unwritten parameters at their smallest value)."""
    number = 0
    for name, _, size, offset in action.params:
        number = number * size + (values.get(name, offset) - offset)
    return action.base + number
