"""Turn runtime events into readable lines of a play-by-play.

An event is ``(kind, rule id, values)``. The built-in kinds are ``phase``, ``action``, ``roll``
and ``end``; a spec adds its own with ``event name(key: value, ...)``. A game's text file
(``text/<lang>.yaml``, key ``events:``) gives a Jinja2 template per kind, with the event's values
and ``rule`` as variables (names already shown as names; a ``phase`` message gets the phase's
title as ``phase`` and its spec name as ``id``); the message ``secret`` is the line of a secret
choice (only ``team``: what was chosen is never shown). Kinds without a template print as
``kind (rule r) key=value …``. A template naming an unknown variable is an error, never blank.

:class:`Narrator` narrates in the language of the spec's names (English); the rulebook site's
:class:`rulecraft.site.narration.Narration` extends it with a language's glossary, piece names
and notations, and both the site and ``rulecraft play --lang`` narrate through it.
"""

from __future__ import annotations

import jinja2

from rulecraft.errors import NarrationError, RulecraftError
from rulecraft.runtime.engine import Game

DEFAULTS = {
    "phase": "— {{ phase }} (rule {{ rule }})",
    "action": "{{ team }}: {{ notation }}",
    "roll": "  {{ die }} rolls {{ value }}",
    "end": "Game over — {{ returns }}",
    "secret": "{{ team }}: chooses in secret",
}


class Returns(dict):
    """An end event's returns by team id (``{"home": 1.0, "away": -1.0}``), shown as
    ``home +1, away -1``; a translated message can name the teams itself through ``.items()``."""

    def __str__(self) -> str:
        return ", ".join(f"{team} {value:+g}" for team, value in self.items())


_ENVIRONMENT = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False)


class Narrator:
    """Formats events for one game, with optional per-kind Jinja2 templates (``templates``) and
    phase titles (``phases``)."""

    def __init__(self, game: Game, templates: dict | None = None, phases: dict | None = None):
        self.game = game
        self.phases = dict(phases or {})
        self.messages = {**DEFAULTS, **(templates or {})}
        self._compiled: dict = {}

    def phase_title(self, phase: str) -> str:
        """The title of a phase (its spec name when the texts give none)."""
        return self.phases.get(phase, phase)

    def notation(self, action: int) -> str:
        """How a decision action id is written in the play-by-play."""
        return self.game.action_notation(action)

    def values(self, kind: str, rule: str, values: dict) -> dict:
        """The event's values as display strings (names for teams, spaces, pieces, enums)."""
        game = self.game
        shown = {"rule": rule}
        schema = game.rules.events.get(kind, {})
        for key, value in values.items():
            if kind == "phase":
                shown[key] = self.phase_title(value)
                shown["id"] = value
            elif kind in ("action", "end", "secret") and key == "team":
                shown[key] = game.display("team", value)
            elif kind == "action" and key == "notation":
                shown[key] = self.notation(values["action"])
            elif kind == "roll" and key == "value":
                shown[key] = game.display(values.get("type", "int"), value)
            elif kind == "end" and key == "returns":
                shown[key] = Returns(zip(game.teams, value))
            elif key in schema and isinstance(value, int) and str(schema[key]) == "bool":
                shown[key] = bool(value)
            elif key in schema and isinstance(value, int) and str(schema[key]) != "int":
                shown[key] = game.display(str(schema[key]), value)
            else:
                shown[key] = value
        return shown

    def line(self, event) -> str | None:
        """One line for ``event``; a secret action shows only that a choice was made (the
        ``secret`` message)."""
        kind, rule, values = event
        if kind == "action" and values.get("secret"):
            kind, values = "secret", {"team": values["team"]}
        shown = self.values(kind, rule, values)
        if kind not in self.messages:
            details = " ".join(f"{k}={v}" for k, v in shown.items() if k != "rule")
            return f"  {kind} (rule {rule}) {details}".rstrip()
        return self.render(kind, shown)

    def render(self, kind: str, shown: dict) -> str:
        """The message of ``kind`` filled with the event's ``shown`` values.

        Raises :class:`RulecraftError`: RC701 for a message that is not a valid template, RC702
        for one naming something the event does not carry.
        """
        template = self._compiled.get(kind)
        if template is None:
            try:
                template = self._compiled[kind] = _ENVIRONMENT.from_string(str(self.messages[kind]))
            except jinja2.TemplateSyntaxError as error:
                raise NarrationError(f"the event message for '{kind}' is not a valid template: "
                                     f"{error.message}", code="RC701") from None
        try:
            return template.render(**shown)
        except jinja2.UndefinedError as error:
            raise NarrationError(f"the event message for '{kind}' names something the event "
                                 f"does not carry: {error.message}", code="RC702") from None
