"""Field templates: how an action's notation and a grid's space names are written.

A field template is literal text with named fields, and nothing else:

* ``{name}`` writes the field's text (``{player} to {zone}``, ``{col_letter}{row}``);
* ``{a + b - 1}`` writes a sum of whole-number fields and whole numbers (``+`` and ``-`` only),
  for a value the notation shows that is not a field of its own (taktinen's formation writes
  ``{d}-{m}-{10 - d - m}``, as the rulebook writes formations: ``4-4-2``);
* ``{flag: words}`` writes ``words`` (everything after the colon, spaces included) when the
  true/false field ``flag`` is true, and nothing when it is false
  (``{zone}{with_ball: with the ball}``);
* ``{{`` and ``}}`` write a literal brace.

A field is a plain name: no attribute or index access (``{row.__class__}``, ``{row[0]}``), no
conversion (``{row!r}``), no format specification (``{row:>200}``), no positional field
(``{}``, ``{0}``). Templates come from specs and text files, which are untrusted, so Python's
``str.format`` is never used: this parser accepts exactly the language above and fills it by
joining strings. The compiler checks every spec template with :meth:`FieldTemplate.parse`
(with the fields the template may name), the site checks the text files' ``notations:`` the same
way, and the runtime writes notations with the parsed template.
"""

from __future__ import annotations

from dataclasses import dataclass
import re

from rulecraft.errors import Position, SpecError
from rulecraft.limits import MAX_TEMPLATE

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
TERM = r"(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]{1,9})"
SUM = re.compile(rf"\{{ *({TERM}(?: *[+-] *{TERM})+) *\}}")
SUM_TERM = re.compile(rf"([+-]?) *({TERM})")
GRID_FIELDS = ("row", "col", "col_letter", "row_letter")   # what a grid's ``name:`` may write


@dataclass(frozen=True)
class Part:
    """One piece of a template: ``literal`` text, then the field ``name`` (None for none);
    ``words`` is the text of a ``{flag: words}`` field (None for a plain ``{name}``); ``terms``
    the ``(sign, name or number)`` terms of a ``{a - b}`` sum field (``name`` is then None)."""

    literal: str
    name: str | None = None
    words: str | None = None
    terms: tuple = ()

    def written(self, text: str, flag: bool) -> str:
        """What the field writes for a value shown as ``text`` whose truth is ``flag``."""
        if self.words is None:
            return text
        return self.words if flag else ""


class FieldTemplate:
    """A parsed field template (see the module docstring). ``parts`` are its :class:`Part`\\ s
    in order, ``names`` the fields it writes, ``summed`` the fields its sum fields add."""

    __slots__ = ("source", "parts", "names", "summed")

    def __init__(self, source: str, parts: tuple):
        self.source = source
        self.parts = parts
        self.names = frozenset(part.name for part in parts if part.name is not None)
        self.summed = frozenset(term for part in parts for _, term in part.terms if not term.isdigit())

    @classmethod
    def parse(cls, text: str, fields: dict | None = None, *, code: str = "RC348",
              what: str = "this template", position: Position | None = None,
              numbers=None) -> "FieldTemplate":
        """Parse ``text`` (a plain string, or a loader ``Text`` that knows its position).

        ``fields`` maps each name the template may use to True when it is a true/false field
        (one that ``{flag: words}`` may test); None accepts any name. ``numbers`` names the
        whole-number fields a sum field may add (None: any field that is not true/false). Raises :class:`SpecError`
        with ``code`` at the position of the first mistake: inside a ``Text`` that character's
        file:line:col, else ``position``.
        """
        source = str(text)
        if len(source) > MAX_TEMPLATE:
            raise _error(text, MAX_TEMPLATE, f"{what} is longer than {MAX_TEMPLATE} characters",
                         code, position)
        parts: list[Part] = []
        literal: list[str] = []
        index = 0
        while index < len(source):
            char = source[index]
            if char in "{}" and source.startswith(char * 2, index):
                literal.append(char)
                index += 2
                continue
            if char == "}":
                raise _error(text, index, f"'}}' without a '{{' in {what}", code, position,
                             hint="write '}}' for a literal brace")
            if char != "{":
                literal.append(char)
                index += 1
                continue
            summed = SUM.match(source, index)
            if summed is not None:
                parts.append(Part("".join(literal), terms=_terms(text, summed, fields, numbers, code, what,
                                                                 position)))
                literal, index = [], summed.end()
                continue
            part, index = _field(text, source, index, fields, code, what, position)
            parts.append(Part("".join(literal), *part))
            literal = []
        if literal or not parts:
            parts.append(Part("".join(literal)))
        return cls(source, tuple(parts))

    def fill(self, values: dict, flags: dict | None = None, numbers: dict | None = None) -> str:
        """The template written with ``values`` (field name → text); a ``{flag: words}`` field
        writes its words when ``flags[flag]`` is true, a sum field the sum of its ``numbers``
        (field name → int). Raises KeyError for a field without a value."""
        flags = flags or {}
        out = []
        for part in self.parts:
            out.append(part.literal)
            if part.name is not None:
                out.append(part.written(values[part.name], flags.get(part.name, False)))
            elif part.terms:
                out.append(str(sum((-1 if sign == "-" else 1) * (int(term) if term.isdigit() else numbers[term])
                                   for sign, term in part.terms)))
        return "".join(out)

    def __repr__(self) -> str:
        return f"FieldTemplate({self.source!r})"


def _field(text, source: str, start: int, fields, code, what, position) -> tuple[tuple, int]:
    """The field that opens at ``start`` (a ``{``): ``((name, words), index after it)``."""
    match = NAME.match(source, start + 1)
    if match is None:
        after = source[start + 1:start + 2]
        message = ("a field needs a name: {} and {0} are not fields" if after in ("}", "") or after.isdigit()
                   else f"a field is a name, not '{after}'")
        raise _error(text, start + 1, f"{message} in {what}", code, position,
                     hint="write {name}, {flag: words}, or {{ for a literal brace")
    name, index = match.group(0), match.end()
    if fields is not None and name not in fields:
        known = ", ".join(sorted(fields)) or "none"
        raise _error(text, start + 1, f"{what} names '{name}', which is not one of its fields",
                     code, position, hint=f"its fields: {known}")
    following = source[index:index + 1]
    if following == "}":
        return (name, None), index + 1
    if following == ":":
        if fields is not None and not fields[name]:
            raise _error(text, index, f"'{{{name}: …}}' writes its words only when a true/false "
                         f"field is true, and '{name}' is not one; format specifications are "
                         "not allowed", code, position, hint=f"write {{{name}}}")
        close = source.find("}", index)
        opening = source.find("{", index)
        if close < 0 or 0 <= opening < close:
            raise _error(text, start, f"this field is not closed with '}}' in {what}", code, position)
        return (name, source[index + 1:close]), close + 1
    if following in (".", "["):
        raise _error(text, index, f"a field is a plain name: '{following}' (attribute or index "
                     f"access) is not allowed in {what}", code, position, hint=f"write {{{name}}}")
    if following == "!":
        raise _error(text, index, f"conversions ('!r', '!s') are not allowed in {what}", code,
                     position, hint=f"write {{{name}}}")
    raise _error(text, start, f"this field is not closed with '}}' in {what}", code, position)


def _terms(text, match, fields, numbers, code, what, position) -> tuple:
    """The ``(sign, term)`` terms of the sum field ``match``; each name must be one of
    ``numbers`` (when given) and a field that is not true/false."""
    terms = tuple(SUM_TERM.findall(match.group(1)))
    if numbers is None and fields is not None:
        numbers = {name for name, flag in fields.items() if not flag}
    for _, term in terms:
        if not term.isdigit() and numbers is not None and term not in numbers:
            known = ", ".join(sorted(numbers)) or "none"
            raise _error(text, match.start() + 1, f"{what} adds '{term}', which is not one of its "
                         "number fields", code, position, hint=f"its fields: {known}")
    return terms


def _error(text, offset: int, message: str, code: str, position, hint: str | None = None) -> SpecError:
    at = text.at(offset) if hasattr(text, "at") else position
    return SpecError(message, at, code=code, hint=hint)
