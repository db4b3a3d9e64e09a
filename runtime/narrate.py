"""Turn runtime events into readable lines of a play-by-play.

An event is ``(kind, rule id, values)``. The built-in kinds are ``phase``, ``action``, ``roll``
and ``end``; a spec adds its own with ``event name(key: value, ...)``. A game's text file
(``text/<lang>.yaml``, key ``events:``) may give a template per kind, with ``{key}`` placeholders
and ``{rule}``; kinds without a template print as ``kind key=value …``.
"""

from __future__ import annotations

from rulecraft.runtime.engine import Game

DEFAULTS = {
    "phase": "— {phase} (rule {rule})",
    "action": "{team}: {notation}",
    "roll": "  rolls {die}: {value}",
    "end": "Game over — {returns}",
}


class Narrator:
    """Formats events for one game with optional per-kind templates."""

    def __init__(self, game: Game, templates: dict | None = None):
        self.game = game
        self.templates = dict(DEFAULTS)
        self.templates.update(templates or {})

    def values(self, kind: str, rule: str, values: dict) -> dict:
        """The event's values as display strings (names for teams, spaces, pieces)."""
        game = self.game
        shown = {"rule": rule}
        schema = game.rules.events.get(kind, {})
        for key, value in values.items():
            if kind == "action" and key == "team" or kind == "end" and key == "team":
                shown[key] = game.display("team", value)
            elif kind == "roll" and key == "value":
                shown[key] = game.display(values.get("type", "int"), value)
            elif kind == "end" and key == "returns":
                shown[key] = ", ".join(f"{t} {r:+g}" for t, r in zip(game.teams, value))
            elif key in schema and schema[key] not in ("int", "bool"):
                shown[key] = game.display(schema[key], value)
            elif isinstance(value, int) and key in schema and schema[key] == "int" and kind != "roll":
                shown[key] = f"{value:+d}" if key.endswith("modifier") else str(value)
            else:
                shown[key] = value
        return shown

    def line(self, event) -> str | None:
        """One line for ``event``, or None for a secret action (never echoed)."""
        kind, rule, values = event
        if kind == "action" and values.get("secret"):
            return f"{self.game.display('team', values['team'])}: chooses in secret"
        shown = self.values(kind, rule, values)
        template = self.templates.get(kind)
        if template is None:
            details = " ".join(f"{k}={v}" for k, v in shown.items() if k != "rule")
            return f"  {kind} (rule {rule}) {details}".rstrip()
        try:
            return template.format(**shown)
        except (KeyError, IndexError):
            return f"  {kind} (rule {rule}) " + " ".join(f"{k}={v}" for k, v in shown.items())
