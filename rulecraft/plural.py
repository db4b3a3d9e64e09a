"""Counted phrases: a number with the words around it in the form its language's plural rule asks for.

A text that shows a count writes it as a **counted phrase**: the ``plural`` filter with one form
per CLDR plural category (``zero``, ``one``, ``two``, ``few``, ``many``, ``other``), ``#``
standing for the number, as in ICU MessageFormat's ``{n, plural, one {# move} other {# moves}}``
and Project Fluent's ``[one]``/``[other]`` variants::

    {{ left | plural(one="# ход", few="# хода", many="# ходов", other="# хода") }}
    {{ left | plural(one="queda #", other="quedan #") }}

A glossary term with ``count:`` forms (nouns) is the same construct kept with the term, for a noun
counted in many texts: ``{{ n | plural(term.ap) }}`` writes the number, a no-break space and the
noun's form. Babel's CLDR rule of the language (``babel.Locale.parse(lang).plural_form(n)``)
picks the category of the number; a category the phrase does not give reads with its ``other``
form, as in ICU.

A phrase must give ``other`` (ICU's form for any number no other category claims) and every
category a whole number from 0 to :data:`~rulecraft.limits.MAX_COUNTED_NUMBER` falls into in its
language: Russian one, few, many and other; English, Finnish, German, Spanish and Italian one and
other (Spanish and Italian may add ``many``, the category of whole millions). :func:`phrases`
finds the phrases of a text without rendering it, each with what it lacks and its line and column
(``rulecraft site check`` lists them, RC814). The forms are
plain quoted strings of the template, read by Jinja2's parser in the sandbox; the number replaces
each ``#`` by joining strings, never through ``str.format``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
import re

from babel import Locale
from jinja2 import nodes
from jinja2.exceptions import TemplateSyntaxError

from rulecraft.limits import MAX_COUNTED_FORM, MAX_COUNTED_NUMBER

CATEGORIES = ("zero", "one", "two", "few", "many", "other")
NUMBER = "#"
FILTER = "plural"
_FILTER_AT = re.compile(r"\|\s*plural\b")


@cache
def _rule(language: str):
    return Locale.parse(language).plural_form


def category(language: str, number: int) -> str:
    """The CLDR plural category (one of :data:`CATEGORIES`) of the whole number ``number`` in
    ``language`` (a Babel locale name such as ``ru``): ``category("ru", 22) == "few"``."""
    return _rule(language)(number)


@cache
def needed(language: str) -> frozenset[str]:
    """The categories a counted phrase of ``language`` must give: ``other`` and the category of
    every whole number from 0 to :data:`~rulecraft.limits.MAX_COUNTED_NUMBER`."""
    rule = _rule(language)
    return frozenset({"other"} | {rule(n) for n in range(MAX_COUNTED_NUMBER + 1)})


def examples(language: str, name: str, count: int = 4) -> list[int]:
    """Up to ``count`` whole numbers (from 0) whose category in ``language`` is ``name``, for a
    hint: ``examples("ru", "few") == [2, 3, 4, 22]``."""
    rule = _rule(language)
    return [n for n in range(MAX_COUNTED_NUMBER + 1) if rule(n) == name][:count]


def form_problems(language: str, forms: dict) -> list[str]:
    """What is wrong with the ``forms`` (category → text) of a counted phrase of ``language``:
    an empty list when nothing is. Each problem is one sentence: a name that is not a CLDR
    category, a form without ``#``, a form longer than :data:`~rulecraft.limits.MAX_COUNTED_FORM`
    characters, the categories the language needs and the phrase lacks (with numbers of each)."""
    if not forms:
        return ['gives no forms: write plural(one="# …", other="# …") or plural(term.…)']
    problems = []
    for name, text in forms.items():
        if name not in CATEGORIES:
            problems.append(f"'{name}' is not a CLDR plural category ({', '.join(CATEGORIES)})")
        elif NUMBER not in str(text):
            problems.append(f"its {name} form \"{text}\" has no '#' where the number goes")
        elif len(str(text)) > MAX_COUNTED_FORM:
            problems.append(f"its {name} form is longer than {MAX_COUNTED_FORM} characters")
    missing = [name for name in CATEGORIES if name in needed(language) - set(forms)]
    if missing:
        numbers = "; ".join(f"{name}: {', '.join(map(str, examples(language, name))) or 'fractions'}"
                            for name in missing)
        problems.append(f"lacks the form(s) {', '.join(missing)} that {language} needs ({numbers})")
    return problems


def choose(language: str, number: int, forms: dict) -> str:
    """The form of ``forms`` (category → text) that ``number`` takes in ``language``: its
    category's, else ``other``'s. Raises ``KeyError`` when neither is given."""
    found = forms.get(category(language, number))
    return found if found is not None else forms["other"]


def counted(language: str, number: int, forms: dict) -> str:
    """The counted phrase ``forms`` written for ``number``: the chosen form with each ``#``
    replaced by the number. Raises ``ValueError`` for forms :func:`form_problems` refuses."""
    problems = form_problems(language, forms)
    if problems:
        raise ValueError(f"this counted phrase {problems[0]}")
    return choose(language, number, forms).replace(NUMBER, str(number))


def plural_filter(language: str):
    """The ``plural`` filter of texts in ``language`` (see the module docstring):
    ``number | plural(one=…, other=…)`` or ``number | plural(term.x)``, where the term is an
    object with a ``counted(number)`` method (the site's glossary terms). Raises ``ValueError``
    for a number that is not whole, for forms :func:`form_problems` refuses, and for a call that
    gives both a term and forms, or a term that cannot be counted."""
    def plural(number, term=None, **forms):
        number = _whole(number)
        if term is None:
            return counted(language, number, forms)
        count = getattr(term, "counted", None)
        if forms or not callable(count):
            raise ValueError("plural(…) takes either a glossary term (plural(term.ap)) or the "
                             'forms (plural(one="# …", other="# …")), not both')
        return count(number)
    return plural


def _whole(number) -> int:
    if isinstance(number, bool) or not isinstance(number, (int, str)) or not str(number).lstrip("-").isdigit():
        raise ValueError(f"plural(…) counts whole numbers, not {number!r}")
    return int(number)


@dataclass(frozen=True)
class Phrase:
    """One counted phrase written in a text: ``position`` that of its ``plural`` (None in a
    plain string); ``forms`` its inline forms (category → text), or None when it counts a
    glossary ``term`` (that term as written, ``term.ap``); ``problems`` what
    :func:`form_problems` (or the way it is written) finds wrong with it."""

    position: object
    forms: dict | None
    term: str | None
    problems: tuple[str, ...]


def phrases(environment, text, language: str) -> list[Phrase]:
    """Every counted phrase written in ``text`` (a loader ``Text`` or a string), found by
    parsing it with ``environment`` (a Jinja2 environment, the sandbox) without rendering it.
    A text that does not parse has none here (its syntax error is reported where it is read)."""
    source = str(text)
    if FILTER not in source:
        return []
    try:
        tree = environment.parse(source)
    except TemplateSyntaxError:
        return []
    places = _places(source)
    seen: dict[int, int] = {}
    found = []
    for node in tree.find_all(nodes.Filter):
        if node.name != FILTER:
            continue
        index = seen[node.lineno] = seen.get(node.lineno, -1) + 1
        on_line = places.get(node.lineno, [])
        offset = on_line[min(index, len(on_line) - 1)] if on_line else 0
        position = text.at(offset) if hasattr(text, "at") else None
        found.append(_phrase(node, position, language))
    return found


def _phrase(node: nodes.Filter, position, language: str) -> Phrase:
    if node.dyn_args or node.dyn_kwargs or (node.args and (node.kwargs or len(node.args) > 1)):
        return Phrase(position, None, None,
                      ('plural(…) takes either one glossary term or its forms written one="# …"',))
    if node.args:               # a glossary term: its count: forms are checked with the glossary
        return Phrase(position, None, _written(node.args[0]), ())
    forms = {}
    for keyword in node.kwargs:
        if not (isinstance(keyword.value, nodes.Const) and isinstance(keyword.value.value, str)):
            return Phrase(position, None, None,
                          (f'its {keyword.key} form is not quoted text: write {keyword.key}="# …"',))
        forms[keyword.key] = keyword.value.value
    return Phrase(position, forms, None, tuple(form_problems(language, forms)))


def _written(node) -> str | None:
    """A glossary term's expression as a text writes it (``term.ap``, ``term['ap']``), or None."""
    if isinstance(node, nodes.Name):
        return node.name
    if isinstance(node, nodes.Getattr):
        owner = _written(node.node)
        return owner and f"{owner}.{node.attr}"
    if isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const):
        owner = _written(node.node)
        return owner and f"{owner}[{node.arg.value!r}]"
    return None


def _places(source: str) -> dict[int, list[int]]:
    """Offsets of each ``| plural`` in ``source`` (at the word), by 1-based line."""
    places: dict[int, list[int]] = {}
    for match in _FILTER_AT.finditer(source):
        start = match.end() - len(FILTER)
        places.setdefault(source.count("\n", 0, start) + 1, []).append(start)
    return places
