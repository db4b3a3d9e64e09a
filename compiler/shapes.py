"""Checks of the YAML shape of a spec: the helpers every section reader uses.

Each check refuses a value of the wrong shape at its own position with a stable code: RC320 (not
a mapping or list), RC321 (unknown key, with a did-you-mean), RC322 (missing key), RC323 (not a
text), RC324 (not a valid name), RC325 (a name declared twice), RC326 (no rule id), RC361 (a
rule id written as a number), RC362 (a size over its limit), RC367 (a value of another kind than
its key's). :meth:`Shapes.declared` checks a mapping against its shape in the one declaration of
:mod:`rulecraft.compiler.schema`, which also gives the JSON Schema.
"""

from __future__ import annotations

from rulecraft.errors import Position, SpecError, did_you_mean
from rulecraft.loader import Mapping, Sequence, Text, spelled_at
from rulecraft.compiler import ir
from rulecraft.compiler.names import name_problem
from rulecraft.compiler.schema import RULE, Keyed, Kind, Listed, Named, Word
from rulecraft.compiler.symbols import Symbols


class Shapes:
    """The shape checks of one spec file at ``path``, declaring names into ``symbols``."""

    def __init__(self, path: str, symbols: Symbols):
        self.path = path
        self.symbols = symbols

    def top(self) -> Position:
        """The start of the spec file: where a message about the whole file points."""
        return Position(self.path, 1, 1)

    def entries(self, mapping, where: str, position: Position | None = None) -> list:
        """The (key, value) pairs of an optional mapping; RC320 when something else stands there."""
        return list(self._shaped(mapping, Mapping, f"{where} must be a mapping of keys", position).items())

    def listed(self, sequence, where: str, position: Position | None = None) -> list:
        """The items of an optional list; RC320 when something else stands there."""
        return list(self._shaped(sequence, Sequence, f"{where} must be a list", position))

    def _shaped(self, value, shape, message: str, position: Position | None):
        if value is None:
            return shape()
        if not isinstance(value, shape):
            raise SpecError(message, getattr(value, "position", None) or position or self.top(),
                            code="RC320")
        return value

    def keys(self, mapping, where: str, required=(), optional=(), at: Position | None = None):
        """Check ``mapping`` has every ``required`` key and no key outside ``required`` and
        ``optional``; returns it. RC320 (not a mapping), RC321 (unknown key), RC322 (missing key).
        ``at`` is where the value stands in the list or mapping holding it: a number, a truth
        value or null has no position of its own, and its refusal points there."""
        if not isinstance(mapping, Mapping):
            raise SpecError(f"{where} must be a mapping of keys",
                            getattr(mapping, "position", None) or at or self.top(), code="RC320")
        allowed = set(required) | set(optional)
        for key in mapping:
            if key not in allowed:
                raise SpecError(f"unknown key '{key}' in {where}", mapping.where(key), code="RC321",
                                hint=did_you_mean(str(key), allowed) or
                                "allowed: " + ", ".join(sorted(allowed)))
        for key in required:
            if key not in mapping:
                raise SpecError(f"{where} needs '{key}:'", mapping.position, code="RC322")
        return mapping

    def declared(self, mapping, where: str, shape: Keyed, at: Position | None = None):
        """Check ``mapping`` has the keys its declared ``shape`` (:mod:`schema`) requires and no
        other, each holding a value of its declared kind (a list, a mapping, a text, ...; what
        is inside, the section's reader checks); returns it. RC320 (not a mapping), RC321
        (unknown key), RC322 (missing key), RC367 (a value of another kind); ``at`` as for
        :meth:`keys`."""
        self.keys(mapping, where, tuple(shape.required), tuple(shape.optional), at)
        for key, value in mapping.items():
            kind = shape.kind_of(key)
            if kind is RULE:
                self.rule_of(mapping, where)     # a rule id YAML read as a number: RC361, quoted
            if not kind.accepts(value):
                raise SpecError(f"'{key}' in {where} must be {kind.expected}, not {_described(value)}",
                                mapping.value_at(key), code=_code_for(kind), hint=_example(key, kind))
        return mapping

    def text(self, mapping, key, where) -> Text:
        """``mapping[key]`` as a :class:`Text` (a number becomes its text, positioned at the
        value); RC323 when it is a bool, null, mapping or list."""
        value = mapping[key]
        if isinstance(value, bool) or value is None or isinstance(value, (Mapping, Sequence)):
            raise SpecError(f"'{key}' in {where} must be a text", mapping.value_at(key), code="RC323")
        if not isinstance(value, Text):
            value = Text(str(value), mapping.value_at(key))
        return value

    def identifier(self, word, position, what: str) -> str:
        """``word``, checked as a name (:func:`names.name_problem`); RC324 otherwise."""
        problem = name_problem(word)
        if problem is not None:
            reserved = isinstance(word, str) and problem.endswith("reserved word of the rule language")
            raise SpecError(f"{what} '{word}' is {'a reserved word' if reserved else 'not a valid name'}",
                            position, code="RC324", hint=None if reserved else problem)
        return word

    def declare(self, name: str, value: ir.Expr, position) -> None:
        """Add ``name`` to the spec's one namespace, standing for ``value``; RC325 when it is
        already declared."""
        if name in self.symbols.names:
            raise SpecError(f"the name '{name}' is declared twice", position, code="RC325",
                            hint="teams, spaces, kinds, enum values, options and state fields "
                                 "share one namespace")
        self.symbols.names[name] = value

    def at_most(self, count: int, limit: int, what: str, position: Position, hint: str) -> int:
        """``count`` when it is at most ``limit`` (one of :mod:`rulecraft.limits`); else RC362 at
        ``position``, naming ``what`` is counted and the limit."""
        if count > limit:
            raise SpecError(f"this makes {count:,} {what}, more than the limit of {limit:,}", position,
                            code="RC362", hint=hint)
        return count

    def rule_of(self, mapping, where, default: str | None = None) -> str:
        """The rule id (``rule:``) of ``mapping``, as a string, else ``default``; RC326 when it has
        neither. RC361 when the id is written as a bare number: YAML reads ``4.10`` as the number
        4.1 and ``05`` as 5, so a rule id is always quoted."""
        if "rule" not in mapping:
            if default is not None:
                return default
            raise SpecError(f"{where} needs a rule id ('rule: \"4.1\"') naming its rulebook section",
                            mapping.position, code="RC326")
        rule = mapping["rule"]
        if isinstance(rule, (int, float)) and not isinstance(rule, bool):
            written = spelled_at(mapping.value_at("rule")) or str(rule)
            raise SpecError(f"the rule id {written} is read by YAML as the number {rule!r}, not as a text",
                            mapping.value_at("rule"), code="RC361", hint=f'quote it: rule: "{written}"')
        return str(rule)


def _described(value) -> str:
    """A YAML value of the wrong kind, for a message: its kind and, when short, itself."""
    if value is None:
        return "null (nothing)"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    if isinstance(value, str):
        kind, shown = "a text", repr(str(value))
    else:
        kind = "true/false" if isinstance(value, bool) else "a number"
        shown = str(value).lower() if isinstance(value, bool) else str(value)
    return f"{kind}, {shown}" if len(shown) <= 30 else kind


def _example(key, kind) -> str:
    """How to write ``key``'s value of ``kind``."""
    if isinstance(kind, Keyed):
        return f"write {key}: as a mapping, for example {key}: {{{kind.keys[0]}: ...}}"
    if isinstance(kind, Listed):
        return f"write {key}: as a list, for example {key}: [a, b]"
    return f"write {key}: as {kind.expected}"


def _code_for(kind) -> str:
    """The code refusing a value that is not of ``kind``: RC320 where a mapping or list goes
    (or the list's own code), RC323 where a text goes, RC367 elsewhere."""
    if isinstance(kind, (Keyed, Listed, Named)):
        return getattr(kind, "code", None) or "RC320"
    if isinstance(kind, Word) or (isinstance(kind, Kind) and kind.types and kind.types[0] == "string"):
        return "RC323"
    return "RC367"
