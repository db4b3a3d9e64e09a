"""Render rulebook texts: Jinja2 templates filled from the spec, strict about every name.

A typo in a placeholder (``{{ table.contorl_test }}``) fails with the text file, the line and the
column of the name, the unknown dotted name and a did-you-mean (case 6 of
``cases/spec-language.md``); it never renders as an empty string. Template syntax errors point
at their line the same way. Positions come from :mod:`rulecraft.loader`, which maps every
character of a YAML scalar back to its place in the file.
"""

from __future__ import annotations

import re

import jinja2

from rulecraft.errors import Position
from rulecraft.loader import Text
from rulecraft.site.context import UnknownName, plural, signed, upfirst
from rulecraft.site.texts import TextError

RULES_PAGE = "rules.md"


class _Strict(jinja2.StrictUndefined):
    """Undefined that reports the missing name as :class:`UnknownName` (never renders empty)."""

    def _fail_with_undefined_error(self, *args, **kwargs):
        raise UnknownName(str(self._undefined_name))

    __str__ = __iter__ = __len__ = __bool__ = __eq__ = __ne__ = __hash__ = __contains__ = \
        _fail_with_undefined_error


class Renderer:
    """Renders the texts of one language of one game.

    ``context`` holds the variables (:func:`rulecraft.site.context.spec_context`); ``rule_ids`` are
    the rule ids the spec has, which ``{{ rule('4.4') }}`` links to on the rules page.
    """

    def __init__(self, context: dict, rule_ids=()):
        self.rule_ids = set(rule_ids)
        self.env = jinja2.Environment(undefined=_Strict, autoescape=False, keep_trailing_newline=False)
        self.env.filters.update(plural=plural, signed=signed, upfirst=upfirst)
        self.env.globals.update(context)
        self.env.globals["rule"] = self.rule_link
        self._cache: dict = {}

    def rule_link(self, rule_id) -> str:
        """``{{ rule('4.4') }}``: a link to the rule's section of the rules page."""
        rule_id = str(rule_id)
        if rule_id not in self.rule_ids:
            raise UnknownName(f"rule('{rule_id}')", self.rule_ids, name=rule_id)
        return f"[{rule_id}]({RULES_PAGE}#{rule_id})"

    def render(self, text, **variables) -> str:
        """Render one text (a :class:`Text` from a text file, or a plain string).

        Raises :class:`TextError` — RC802 for an unknown name, RC803 for template syntax, RC804
        for any other failure — at the file, line and column of the problem.
        """
        source = str(text)
        if "{" not in source:
            return source
        try:
            template = self._cache.get(source)
            if template is None:
                template = self._cache[source] = self.env.from_string(source)
            return template.render(**variables)
        except UnknownName as error:
            error.known = error.known or sorted(set(self.env.globals) | set(variables))
            hint = error.hint()
            message = (f"names rule id {error.name}, which the spec does not have"
                       if error.path.startswith("rule(") else f"unknown name '{error.path}' in this text")
            raise TextError(message, _name_position(text, error), code="RC802",
                            hint=hint or None) from None
        except jinja2.TemplateSyntaxError as error:
            raise TextError(f"this text is not a valid template: {error.message}",
                            _line_position(text, error.lineno), code="RC803") from None
        except (TypeError, ValueError, jinja2.TemplateError) as error:
            raise TextError(f"this text cannot be rendered: {error}", _position(text, 0),
                            code="RC804") from None


def _position(text, offset: int) -> Position | None:
    return text.at(offset) if isinstance(text, Text) else None


def _line_position(text, line: int) -> Position | None:
    """The position of the start of the template's ``line`` (1-based) inside the text value."""
    source = str(text)
    offset = 0
    for _ in range(max(line, 1) - 1):
        following = source.find("\n", offset)
        if following < 0:
            break
        offset = following + 1
    return _position(text, offset)


_TAG = re.compile(r"{{.*?}}|{%.*?%}", re.S)


def _name_position(text, error: UnknownName) -> Position | None:
    """Where the unknown name is written: its dotted path, else its last part, inside a tag."""
    source = str(text)
    for needle in (error.path, error.name):
        for tag in _TAG.finditer(source):
            found = re.search(r"(?<![\w.])" + re.escape(needle) + r"(?!\w)", tag.group(0))
            if found:
                return _position(text, tag.start() + found.start())
    return _position(text, 0)
