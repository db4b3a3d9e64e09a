"""The declared shape of a spec: every section, its keys and the kind of value each key takes.

One declaration serves two readers. The section readers take the keys a mapping may and must have
from it (:meth:`rulecraft.compiler.shapes.Shapes.declared`: RC321 for an unknown key, RC322 for a
missing one), and :func:`json_schema` turns it into a JSON Schema (draft 2020-12) that editors use
to complete and check a spec as it is written (``rulecraft schema``; ``docs/spec.schema.json``).

The value kinds are what YAML must hold there: :data:`TEXT` a text (a rule string, a formula; a
number is read as its text), :data:`NAME` a name, :data:`WHOLE` a whole number, :data:`SIZE` a
whole number or a formula of options, :data:`FLAG` true or false, :class:`Listed`, :class:`Named`
(a mapping from names the designer chooses), :class:`Keyed` (a mapping of fixed keys),
:class:`Either`, :class:`Word` (one of some words) and :data:`ANY`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import json

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


@dataclass(frozen=True)
class Kind:
    """A kind of scalar value, as JSON Schema ``type`` words."""

    types: tuple
    doc: str

    @property
    def expected(self) -> str:
        """What a value of this kind is, in words."""
        return self.doc

    def accepts(self, value) -> bool:
        """Whether the YAML ``value`` is of this kind."""
        return not self.types or any(_JSON_TYPES[word](value) for word in self.types)

    def schema(self, named: dict) -> dict:
        """This kind as a JSON Schema (``named``: see :func:`json_schema`)."""
        types = list(self.types)
        return {"type": types[0] if len(types) == 1 else types, "description": self.doc} if types else \
            {"description": self.doc}


@dataclass(frozen=True)
class Word:
    """One of ``words``."""

    words: tuple

    @property
    def expected(self) -> str:
        """What a value of this kind is, in words."""
        return "one of " + ", ".join(self.words)

    def accepts(self, value) -> bool:
        """Whether the YAML ``value`` is a text (which word it is, its reader checks)."""
        return isinstance(value, str)

    def schema(self, named: dict) -> dict:
        """This kind as a JSON Schema (``named``: see :func:`json_schema`)."""
        return {"enum": list(self.words)}


@dataclass(frozen=True)
class Listed:
    """A list whose items are ``item``."""

    item: object
    code: str | None = None     # the code refusing something else here, if not the usual RC320
    least: int = 0              # the fewest items

    @property
    def expected(self) -> str:
        """What a value of this kind is, in words."""
        return "a list"

    def accepts(self, value) -> bool:
        """Whether the YAML ``value`` is a list (its items, its reader checks)."""
        return isinstance(value, list)

    def schema(self, named: dict) -> dict:
        """This kind as a JSON Schema (``named``: see :func:`json_schema`)."""
        shaped = {"type": "array", "items": _schema(self.item, named)}
        return {**shaped, "minItems": self.least} if self.least else shaped


@dataclass(frozen=True)
class Named:
    """A mapping from names the designer chooses to values of ``value``."""

    value: object

    @property
    def expected(self) -> str:
        """What a value of this kind is, in words."""
        return "a mapping of names to values"

    def accepts(self, value) -> bool:
        """Whether the YAML ``value`` is a mapping."""
        return isinstance(value, dict)

    def schema(self, named: dict) -> dict:
        """This kind as a JSON Schema (``named``: see :func:`json_schema`)."""
        return {"type": "object", "additionalProperties": _schema(self.value, named)}


@dataclass(frozen=True)
class Either:
    """A value of one of ``kinds``."""

    kinds: tuple

    @property
    def expected(self) -> str:
        """What a value of this kind is, in words."""
        return " or ".join(kind.expected for kind in self.kinds)

    def accepts(self, value) -> bool:
        """Whether the YAML ``value`` is of one of the kinds."""
        return any(kind.accepts(value) for kind in self.kinds)

    def schema(self, named: dict) -> dict:
        """This kind as a JSON Schema (``named``: see :func:`json_schema`)."""
        return {"anyOf": [_schema(kind, named) for kind in self.kinds]}


@dataclass(frozen=True)
class Keyed:
    """A mapping of fixed keys: ``required`` and ``optional`` map each key to its kind."""

    required: dict
    optional: dict = field(default_factory=dict)

    @property
    def keys(self) -> tuple:
        """Every key the mapping may have."""
        return (*self.required, *self.optional)

    @property
    def expected(self) -> str:
        """What a value of this kind is, in words."""
        return "a mapping of " + ", ".join(f"{key}:" for key in self.keys)

    def accepts(self, value) -> bool:
        """Whether the YAML ``value`` is a mapping (its keys, :meth:`Shapes.declared` checks)."""
        return isinstance(value, dict)

    def kind_of(self, key):
        """The declared kind of the value of ``key``."""
        return self.required.get(key) or self.optional[key]

    def schema(self, named: dict) -> dict:
        """This kind as a JSON Schema: no key outside the declared ones (``named``: see
        :func:`json_schema`)."""
        shaped = {"type": "object",
                  "properties": {key: _schema(kind, named) for key, kind in {**self.required, **self.optional}.items()},
                  "additionalProperties": False}
        if self.required:
            shaped["required"] = list(self.required)
        return shaped


_JSON_TYPES = {"string": lambda v: isinstance(v, str),
               "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
               "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
               "boolean": lambda v: isinstance(v, bool)}

TEXT = Kind(("string", "number"), "a text (a rule string, a formula, a condition)")
NAME = Kind(("string",), "a name")
RULE = Kind(("string",), "a rule id (quoted: \"4.10\")")
WHOLE = Kind(("integer",), "a whole number")
SIZE = Kind(("integer", "string"), "a whole number, or a formula of options")
FLAG = Kind(("boolean",), "true or false")
ANY = Kind((), "any value")
NUMBER = Kind(("number",), "a number")
NAMES = Either((NAME, Listed(NAME, least=1)))

GAME = Keyed({"id": NAME, "title": TEXT, "teams": Listed(NAME, "RC327")},
             {"version": TEXT, "source": Named(ANY), "summary": TEXT, "language": WHOLE})
OPTION = Keyed({"type": Word(("int", "bool", "choice")), "default": Either((TEXT, FLAG))},
               {"values": Listed(NAME), "min": WHOLE, "max": WHOLE, "doc": TEXT})
GRID = Keyed({"rows": SIZE, "columns": SIZE}, {"name": TEXT, "playable": TEXT})
DRAWING_LINES = ("halfway", "centre_circle", "bands")
PLACE = Keyed({"x": TEXT, "y": TEXT}, {"width": TEXT, "height": TEXT})
DRAWING_MARKS = ("box",)
GOAL = Keyed({"width": NUMBER, "depth": NUMBER}, {"at": NUMBER})
GOALS = Either((GOAL, Listed(GOAL)))
DRAWING = Keyed({}, {"place": PLACE, "shade": TEXT, "lines": Listed(Word(DRAWING_LINES)), "goals": GOALS,
                     "outline": Listed(NAME), "marks": Named(Word(DRAWING_MARKS)),
                     "across": Listed(NAME)})
BOARD = Keyed({}, {"grid": GRID, "spaces": Listed(Named(Either((TEXT, FLAG)))),
                   "adjacent": TEXT, "attributes": Named(TEXT), "areas": Named(TEXT),
                   "coordinates": Keyed({"row": TEXT, "column": TEXT}), "drawing": DRAWING})
ROSTER_ENTRY = Keyed({"team": NAME}, {"kind": NAME, "number": WHOLE, "count": WHOLE, "at": NAME, "when": TEXT})
PIECES = Keyed({"roster": Listed(ROSTER_ENTRY)}, {"kinds": Named(Named(Either((TEXT, Listed(ANY)))))})
DIE = Keyed({"faces": Listed(Either((WHOLE, NAME)))})
FIELD = Keyed({"type": NAME}, {"of": NAME, "initial": Either((TEXT, FLAG)), "derived": TEXT,
                               "visible": Word(("all", "owner")), "until": Word(("revealed",)), "show": Either((FLAG, Word(("state",)))),
                               "doc": TEXT})
TABLE = Keyed({"rule": RULE, "keys": Listed(Either((TEXT, Listed(TEXT)))), "values": Either((Listed(ANY), Named(ANY)))},
              {"doc": TEXT, "type": NAME})
_STEP_KINDS = {"rule": RULE, "do": TEXT, "choose": NAMES, "secret": NAMES, "roll": NAME, "call": NAME,
               "into": TEXT, "by": Either((TEXT, Listed(TEXT))), "repeat": TEXT, "when": TEXT}
STEP = Keyed({}, {**_STEP_KINDS, "label": NAME, "doc": TEXT})
NEXT_CASE = Keyed({"phase": NAME}, {"if": TEXT})
NEXT = Either((NAME, Listed(NEXT_CASE)))
PHASE = Keyed({"phase": NAME}, {**_STEP_KINDS, "steps": Listed(STEP), "next": NEXT, "doc": TEXT})
CALLED_PHASE = Keyed({"phase": NAME}, {**_STEP_KINDS, "steps": Listed(STEP), "doc": TEXT})
PARAMETER = Keyed({"type": NAME, "from": TEXT})
LEGAL_ENTRY = Keyed({"if": TEXT}, {"rule": RULE, "reason": TEXT})
ACTION = Keyed({"rule": RULE}, {"params": Named(Either((TEXT, PARAMETER))),
                                "legal": Either((TEXT, LEGAL_ENTRY, Listed(Either((TEXT, LEGAL_ENTRY))))),
                                "effect": TEXT, "then": Listed(STEP), "notation": TEXT, "doc": TEXT})
TRIGGER = Keyed({"rule": RULE, "when": TEXT, "do": TEXT}, {"doc": TEXT})
END = Keyed({"rule": RULE, "returns": TEXT}, {"range": Listed(NUMBER), "doc": TEXT})
INVARIANT = Keyed({"name": TEXT}, {"holds": TEXT, "never_decreases": TEXT, "rule": RULE, "doc": TEXT})
LIMITS = Keyed({"max_plies": SIZE}, {"on_limit": TEXT})
OPEN_QUESTION = Keyed({"id": NAME, "section": TEXT, "question": TEXT, "resolution": TEXT}, {"option": NAME})

SPEC = Keyed({"game": GAME, "turn": Listed(PHASE), "end": END},
             {"options": Named(OPTION), "enums": Named(Listed(NAME)), "board": BOARD, "pieces": PIECES,
              "dice": Named(DIE), "state": Named(Either((NAME, FIELD))), "tables": Named(TABLE), "define": Named(TEXT),
              "procedures": Named(TEXT), "setup": Listed(PHASE), "phases": Listed(CALLED_PHASE),
              "actions": Named(ACTION), "triggers": Listed(TRIGGER), "evaluation": TEXT,
              "invariants": Listed(INVARIANT), "limits": LIMITS, "open_questions": Listed(OPEN_QUESTION)})


def json_schema() -> dict:
    """The JSON Schema (draft 2020-12) of a spec file, generated from :data:`SPEC`; a mapping of
    fixed keys declared here under a name (``PHASE``, ``STEP``, …) is written once, under
    ``$defs``, and referred to where it is used."""
    named = {id(kind): word.lower() for word, kind in globals().items()
             if isinstance(kind, Keyed) and kind is not SPEC}
    root = SPEC.schema(named)
    definitions = {named[id(kind)]: kind.schema(named) for kind in globals().values() if id(kind) in named}
    return {"$schema": SCHEMA_DIALECT, "title": "rulecraft game spec (game.yaml)", **root,
            "$defs": dict(sorted(definitions.items()))}


def _schema(kind, named: dict) -> dict:
    """``kind`` as a JSON Schema: a reference to its definition when it has one."""
    if id(kind) in named:
        return {"$ref": f"#/$defs/{named[id(kind)]}"}
    return kind.schema(named)


def json_schema_text() -> str:
    """:func:`json_schema` as the JSON text ``rulecraft schema`` prints and the docs publish."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
