"""Render rulebook texts: sandboxed Jinja2 templates filled from the spec, strict about every name.

Every text renders in :class:`rulecraft.sandbox.Sandbox` (Jinja2's immutable sandbox with an
allow-list): nothing in a text file can reach Python. A typo in a placeholder
(``{{ table.contorl_test }}``) fails with the text file, the line and the column of the name, the
unknown dotted name and a did-you-mean (case 6 of ``cases/spec-language.md``); it never renders
as an empty string. Template syntax errors, refused constructs and the sandbox's limits point at
their line the same way. Positions come from :mod:`rulecraft.loader`, which maps every character
of a YAML scalar back to its place in the file.

A text is rendered for one of three places:

* :meth:`Renderer.render`: plain text (the play-by-play, the player's labels): values as they are;
* :meth:`Renderer.markdown` and :meth:`Renderer.inline`: a page's Markdown: every value the text
  prints is escaped (a glossary term or a spec name is text, not Markdown; tables and
  ``rule()`` links are rulecraft's own Markdown), and the result is rewritten from the
  allow-list of :mod:`rulecraft.site.markup` (raw HTML, images and ``javascript:`` links are
  refused, at the text's file and line);
* :meth:`Renderer.plain`: one line of the Markdown's words without marks (an SVG's or a page's
  title).
"""

from __future__ import annotations

import re

import jinja2
from jinja2.exceptions import SecurityError

from rulecraft.errors import Position
from rulecraft.sandbox import Exposed, Sandbox, TemplateProblem
from rulecraft.plural import Phrase, phrases, plural_filter
from rulecraft.site.context import UnknownName, signed, upfirst
from rulecraft.site.markup import (MarkdownRefused, Safe, markdown_escape, markdown_escape_inline,
                                   plain_text, sanitize, slug)
from rulecraft.site.texts import TextError

RULES_PAGE = "rules.md"
FILTERS = {"signed": signed, "upfirst": upfirst}
CODES = {"syntax": "RC803", "refused": "RC808", "failed": "RC804", "unknown": "RC802"}


class _Strict(jinja2.StrictUndefined):
    """Undefined that reports the missing name as :class:`UnknownName` (never renders empty);
    an attribute the sandbox refuses stays a security error."""

    def _fail_with_undefined_error(self, *args, **kwargs):
        if self._undefined_exception is SecurityError:
            raise SecurityError(self._undefined_hint)
        raise UnknownName(str(self._undefined_name))

    __str__ = __iter__ = __len__ = __bool__ = __eq__ = __ne__ = __hash__ = __contains__ = \
        _fail_with_undefined_error


def escape_value(value):
    """How a page's text prints a value: rulecraft's own Markdown (``__markdown__``) as it is,
    anything else escaped."""
    if hasattr(value, "__markdown__"):
        return value.__markdown__()
    return markdown_escape(value)


def markdown_join(values, separator=""):
    """``join`` for Markdown: each value escaped unless it is rulecraft's Markdown (the
    separator is the template's own text)."""
    def piece(value):
        return value.__markdown__() if hasattr(value, "__markdown__") else markdown_escape_inline(str(value))
    return Safe(str(separator).join(piece(value) for value in values))


class Renderer:
    """Renders the texts of one language of one game.

    ``context`` holds the variables (:func:`rulecraft.site.context.spec_context`); ``rule_ids`` are
    the rule ids the spec has, which ``{{ rule('4.4') }}`` links to on the rules page;
    ``language`` (a Babel locale name) is the one whose plural rule counted phrases follow
    (:mod:`rulecraft.plural`).
    """

    def __init__(self, context: dict, rule_ids=(), *, language: str):
        self.rule_ids = set(rule_ids)
        self.language = language
        self.names = {**context, "rule": Exposed(self.rule_link)}
        filters = {**FILTERS, "plural": plural_filter(language)}
        self._plain = Sandbox(undefined=_Strict, filters=filters)
        self._markdown = Sandbox(undefined=_Strict, filters={**filters, "join": markdown_join},
                                 finalize=escape_value)
        for environment in (self._plain, self._markdown):
            environment.globals.update(self.names)

    def rule_link(self, rule_id) -> Safe:
        """``{{ rule('4.4') }}``: a link to the rule's section of the rules page."""
        rule_id = str(rule_id)
        if rule_id not in self.rule_ids:
            raise UnknownName(f"rule('{rule_id}')", self.rule_ids, name=rule_id)
        return Safe(f"[{markdown_escape_inline(rule_id)}]({RULES_PAGE}#{slug(rule_id)})")

    def check(self, text) -> None:
        """Read ``text`` as a template without rendering it (an event message, filled only in
        play): raises :class:`TextError` for bad syntax (RC803) or what texts may not use (RC808)."""
        try:
            self._plain.template(text)
        except TemplateProblem as problem:
            raise TextError(problem.message, problem.position or _position(text, 0),
                            code=CODES[problem.kind], hint=problem.hint) from None

    def counted_phrases(self, text) -> list[Phrase]:
        """The counted phrases written in ``text`` (:func:`rulecraft.plural.phrases`)."""
        return phrases(self._plain, text, self.language)

    def counted_problems(self, text) -> list[TextError]:
        """The counted phrases of ``text`` that lack a form its language needs or are not
        written as the ``plural`` filter's forms, each as a :class:`TextError` (RC814) at the
        phrase's file, line and column."""
        return [TextError(f"a counted phrase {problem}", phrase.position or _position(text, 0), code="RC814")
                for phrase in self.counted_phrases(text) for problem in phrase.problems]

    def render(self, text, **variables) -> str:
        """One text (a :class:`~rulecraft.loader.Text` from a text file, or a plain string) as
        plain text, its values as they are.

        Raises :class:`TextError` — RC802 for an unknown name, RC803 for template syntax, RC808
        for what texts may not use (the sandbox's refusals and limits), RC804 for any other
        failure — at the file, line and column of the problem.
        """
        source = str(text)
        if "{" not in source:
            return source
        return self._fill(self._plain, text, variables)

    def markdown(self, text, **variables) -> Safe:
        """One text as a block of page Markdown (see the module docstring); raises
        :class:`TextError` as :meth:`render` does, and RC809 for Markdown outside the allow-list."""
        return self._sanitized(text, variables, inline=False)

    def inline(self, text, **variables) -> Safe:
        """One text as a line of page Markdown (a title, a summary, a label)."""
        return self._sanitized(text, variables, inline=True)

    def plain(self, text, **variables) -> str:
        """The words of one text without Markdown marks (an SVG's label, a page's title)."""
        return plain_text(self.inline(text, **variables))

    def _sanitized(self, text, variables, inline: bool) -> Safe:
        source = str(text)
        filled = self._fill(self._markdown, text, variables) if "{" in source else source
        try:
            return sanitize(filled, inline=inline)
        except MarkdownRefused as error:
            raise TextError(error.message, _snippet_position(text, error.snippet), code="RC809",
                            hint=error.hint) from None

    def _fill(self, environment: Sandbox, text, variables: dict) -> str:
        try:
            return environment.render(text, variables)
        except UnknownName as error:
            error.known = error.known or sorted(set(self.names) | set(variables))
            hint = error.suggestion()
            message = (f"names rule id {error.name}, which the spec does not have"
                       if error.path.startswith("rule(") else f"unknown name '{error.path}' in this text")
            raise TextError(message, _name_position(text, error), code="RC802",
                            hint=hint or None) from None
        except TemplateProblem as problem:
            raise TextError(problem.message, problem.position or _position(text, 0),
                            code=CODES[problem.kind], hint=problem.hint) from None


def _position(text, offset: int) -> Position | None:
    return text.at(offset) if hasattr(text, "at") else None


def _snippet_position(text, snippet: str) -> Position | None:
    """Where ``snippet`` is written in the text (its first line), else the text's start."""
    first = snippet.split("\n")[0]
    found = str(text).find(first) if first else -1
    return _position(text, max(found, 0))


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
