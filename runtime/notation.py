"""Read an action's notation back into its id, without enumerating the action space.

A notation is the action's ``notation:`` template with each parameter shown as a person reads it
(``ATK X5 moves to 9F``). Games with large action spaces (BALL has about 180,000 ids) make a
notation → id table too costly to build, so :func:`action_id` matches the text against each
action's template instead: literal text must match exactly, and a parameter matches one of the
values of its type, tried in order and backtracked, so names containing spaces are no problem; a sum field (``{10 - d - m}``) matches any whole number.
The id found is checked by writing it back (``Game.action_notation``).
"""

from __future__ import annotations

import re

NUMBER = re.compile(r"-?[0-9]+")


def action_id(game, notation: str) -> int | None:
    """The decision action id of ``game`` written ``notation``, or None when none is.

    ``game`` is a :class:`rulecraft.runtime.engine.Game`. When a notation leaves parameters out
    (or several ids share it), the id with the smallest values of the unwritten parameters is
    returned. Costs a few thousand string comparisons at most, whatever the action space.
    """
    for action in game.rules.actions:
        values = _match(game, action, game.notation_template(action).parts, notation, 0, 0, {})
        if values is None:
            continue
        found = _encode(action, values)
        if game.action_notation(found) == notation:
            return found
    return None


def _match(game, action, parts, text: str, index: int, position: int, values: dict) -> dict | None:
    if index == len(parts):
        return values if position == len(text) else None
    part = parts[index]
    name = part.name
    if not text.startswith(part.literal, position):
        return None
    position += len(part.literal)
    if name is None and part.terms:
        # a sum field (``{10 - d - m}``) binds no parameter: it matches a whole number here, and
        # the id found is checked by writing it back
        number = NUMBER.match(text, position)
        if number is None:
            return None
        return _match(game, action, parts, text, index + 1, number.end(), values)
    if name is None:
        return _match(game, action, parts, text, index + 1, position, values)
    if name in values:
        candidates = (values[name],)
    else:
        _, kind, size, offset = next(p for p in action.params if p[0] == name)
        candidates = range(offset, offset + size)
    kind = next(p[1] for p in action.params if p[0] == name)
    for value in candidates:
        shown = part.written(game.display(kind, value), kind == "bool" and bool(value))
        if text.startswith(shown, position):
            found = _match(game, action, parts, text, index + 1, position + len(shown),
                           {**values, name: value})
            if found is not None:
                return found
    return None


def _encode(action, values: dict) -> int:
    """The id of ``action`` with ``values`` (unwritten parameters at their smallest value)."""
    number = 0
    for name, _, size, offset in action.params:
        number = number * size + (values.get(name, offset) - offset)
    return action.base + number
