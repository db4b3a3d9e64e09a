"""Turn runtime events into readable lines of a play-by-play.

An event is ``(kind, rule id, values)``. The built-in kinds are ``phase``, ``action``, ``roll``
and ``end``; a spec adds its own with ``event name(key: value, ...)``. A game's text file
(``text/<lang>.yaml``, key ``events:``) gives a Jinja2 template per kind, with the event's values
and ``rule`` as variables (names already shown as names; a ``phase`` message gets the phase's
title as ``phase`` and its spec name as ``id``); the message ``secret`` is the line of a secret
choice (only ``team``: what was chosen is never shown). An ``action`` event also carries ``named``,
true when its notation already names the acting team (:meth:`Narrator.names_team`), so a message
need not name it twice; a ``roll`` event carries ``team``, whose roll it is (empty when nobody's:
see the ``into:`` of a roll step in docs/spec-reference.md). Kinds without a template print as
``kind (rule r) key=value …``. A template naming an unknown variable is an error, never blank.
Messages render in :class:`rulecraft.sandbox.Sandbox` (text files are untrusted: nothing in a
message can reach Python), and a bad one is reported at its text file's line and column; a count
is written as a counted phrase, ``{{ left | plural(one="# left", other="# left") }}``
(:mod:`rulecraft.plural`).

:class:`Narrator` narrates in the language of the spec's names (English); the rulebook site's
:class:`rulecraft.site.narration.Narration` extends it with a language's glossary, piece names
and notations, and both the site and ``rulecraft play --lang`` narrate through it.
"""

from __future__ import annotations

from rulecraft.errors import MessageError
from rulecraft.runtime.engine import Game
from rulecraft.plural import plural_filter
from rulecraft.sandbox import Sandbox, TemplateProblem

DEFAULTS = {
    "phase": "— {{ phase }} (rule {{ rule }})",
    "action": "{% if not named %}{{ team }}: {% endif %}{{ notation }}",
    "roll": "  {{ team or die }} rolls {{ value }}",
    "end": "Game over — {{ returns }}",
    "secret": "{{ team }}: chooses in secret",
}


class Returns(dict):
    """An end event's returns by team id (``{"home": 1.0, "away": -1.0}``), shown as
    ``home +1, away -1``; a translated message can name the teams itself through ``.items()``."""

    def __str__(self) -> str:
        return ", ".join(f"{team} {value:+g}" for team, value in self.items())


CODES = {"syntax": "RC701", "unknown": "RC702", "refused": "RC703", "failed": "RC703"}


class Narrator:
    """Formats events for one game, with optional per-kind Jinja2 templates (``templates``) and
    phase titles (``phases``) and glossary terms (``terms``: a spec name to the words shown for
    it, see :meth:`word`). Every message is read when the narrator is made: one that is not
    a valid template, or uses what messages may not, raises :class:`MessageError` then (see
    :meth:`render`)."""

    def __init__(self, game: Game, templates: dict | None = None, phases: dict | None = None,
                 terms: dict | None = None):
        self.game = game
        self.phases = dict(phases or {})
        self.terms = dict(terms or {})
        self.messages = {**DEFAULTS, **(templates or {})}
        self._sandbox = Sandbox(filters={"plural": plural_filter("en")})
        for kind, message in self.messages.items():
            self.check(kind, message)

    def phase_title(self, phase: str) -> str:
        """The title of a phase (its spec name when the texts give none)."""
        return self.phases.get(phase, phase)

    def word(self, name: str) -> str:
        """How a spec name (a field, a team, an enum value) reads on the status and end lines:
        its glossary term (``clock`` reads "minute" in taktinen), else the name with its
        underscores as spaces (``moves_left`` reads "moves left")."""
        term = self.terms.get(name)
        return term if isinstance(term, str) else name.replace("_", " ")

    def piece_name(self, piece: int) -> str:
        """How the piece with index ``piece`` is named on the status and end lines: here the
        engine's label (``away #1``)."""
        return self.game.rules.piece_labels[piece]

    def rule_title(self, rule: str) -> str | None:
        """The title of rule ``rule`` in the narrator's language, for a refusal that names the
        rule in words; None here: in English a refusal gives the spec's own reason."""
        return None

    def notation(self, action: int) -> str:
        """How a decision action id is written in the play-by-play."""
        return self.game.action_notation(action)

    def names_team(self, action: int, team: int) -> bool:
        """Whether the notation of ``action`` already names ``team``, the team taking it: a team
        parameter that is the team (``home starts with the ball``) or one of the team's own pieces,
        whose names carry their team (``free move home outfield 2 to L2``); the action line then
        need not name the team again."""
        game = self.game
        definition = game.action_def(action)
        if definition is None:
            return False
        return any(value == team if kind == "team" else
                   kind == "piece" and value >= 0 and game.rules.piece_team[value] == team
                   for (_, kind, _, _), value in zip(definition.params, definition.decode(action)))

    def values(self, kind: str, rule: str, values: dict) -> dict:
        """The event's values as display strings (names for teams, spaces, pieces, enums)."""
        game = self.game
        shown = {"rule": rule}
        schema = game.rules.events.get(kind, {})
        for key, value in values.items():
            if kind == "phase":
                shown[key] = self.phase_title(value)
                shown["id"] = value
            elif kind == "roll" and key == "team":
                shown[key] = game.display("team", value) if value is not None and value >= 0 else ""
            elif kind in ("action", "end", "secret") and key == "team":
                shown[key] = game.display("team", value)
            elif kind == "action" and key == "notation":
                shown[key] = self.notation(values["action"])
                shown["named"] = self.names_team(values["action"], values["team"])
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

    def check(self, kind: str, message) -> None:
        """Read the message of ``kind`` without filling it; raises :class:`MessageError` as
        :meth:`render` does for its syntax and for what messages may not use."""
        self._guarded(kind, self._sandbox.template, message)

    def render(self, kind: str, shown: dict) -> str:
        """The message of ``kind`` filled with the event's ``shown`` values.

        Raises :class:`MessageError` at the message's place in its text file: RC701 for a message
        that is not a valid template, RC702 for one naming something the event does not carry,
        RC703 for one that reaches for what messages may not (the sandbox) or fails.
        """
        return self._guarded(kind, self._sandbox.render, self.messages[kind], shown)

    @staticmethod
    def _guarded(kind: str, action, *args):
        try:
            return action(*args)
        except TemplateProblem as problem:
            raise MessageError(f"the event message for '{kind}': {problem.message}", problem.position,
                            code=CODES[problem.kind], hint=problem.hint) from None
