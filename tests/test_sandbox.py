"""User-written templates: text templates in the sandbox (rulecraft/sandbox.py) and the field
templates of notations and grid names (runtime/template.py). What a text needs works; what
could reach Python, or make a huge string, is refused at the text's line and column."""

from __future__ import annotations

from hypothesis import given, strategies as st
import pytest

from rulecraft.errors import Position, SpecError
from rulecraft.loader import Text
from rulecraft.runtime.template import FieldTemplate
from rulecraft.sandbox import MAX_OUTPUT, Exposed, Sandbox, TemplateProblem


class Word(str):
    """A value with one method a template may call, and one it may not."""

    template_methods = ("shout",)

    def shout(self) -> str:
        return self.upper() + "!"

    def secret(self) -> str:
        return "secret"


VALUES = {"word": Word("ball"), "n": 3, "items": {"a": 1, "b": 2}, "names": ["x", "y"],
          "double": Exposed(lambda value: 2 * value), "big": "z" * 1000, "many": list(range(20))}


def text_at(source: str, line: int = 10, column: int = 5) -> Text:
    """``source`` as a text file value starting at ``line``:``column`` (offsets mapped)."""
    positions, row, col = [], line, column
    for char in source:
        positions.append(Position("en.yaml", row, col))
        row, col = (row + 1, 1) if char == "\n" else (row, col + 1)
    return Text(source, Position("en.yaml", line, column), positions)


@pytest.mark.parametrize("source, expected", [
    ("{{ word }} {{ n }} {{ word.shout() }} {{ double(n) }}", "ball 3 BALL! 6"),
    ("{{ '%+d' % -n }} {{ ' · %+d EP → %d' % (n, 4) }} {{ 2 * n }} {{ n // 2 }}", "-3  · +3 EP → 4 6 1"),
    ("{{ items.items() | list }} {{ items.get('a') }} {{ names | join(', ') }}", "[('a', 1), ('b', 2)] 1 x, y"),
    ("{% for name in names %}{{ loop.cycle('<', '>') }}{{ name | upper }}{% endfor %}", "<X>Y"),
    ("{% set k = items | dictsort | selectattr(1, 'equalto', 2) | map(attribute=0) | list %}{{ k }}", "['b']"),
    ("{% if n > 2 %}{{ word | replace('a', 'aa') }}{% else %}no{% endif %}", "baall"),
])
def test_what_texts_use_renders(source, expected):
    assert Sandbox().render(source, VALUES) == expected


@pytest.mark.parametrize("source, at, words", [
    ("{{ lipsum.__globals__['os'].popen('id').read() }}", "__globals__", "names starting with '_'"),
    ("{{ cycler }}", "cycler", "'cycler' is undefined"),
    ("{{ namespace() }}", "namespace", "'namespace' is undefined"),
    ("{{ range(10) }}", "range", "'range' is undefined"),
    ("{{ word['__class__'] }}", "__class__", "names starting with '_'"),
    ("{{ word | attr('__class__') }}", "attr", "the filter 'attr' is not available"),
    ("{{ word.format(n) }}", "format", "the attribute 'format' of a Word"),
    ("{{ '{0.__class__}'.format(word) }}", "format", "the attribute 'format'"),
    ("{{ word.secret() }}", "secret", "'Word.secret' cannot be called"),
    ("{{ word.center(100000000) }}", "center", "'Word.center' cannot be called"),
    ("{{ n.bit_length() }}", "bit_length", "'int.bit_length' cannot be called"),
    ("{{ items.pop('a') }}", "pop", "the attribute 'pop' of a dict"),
    ("{{ word * 100000 }}", "*", "'*' would make 400000 items"),
    ("{{ 7 ** 100000 }}", "**", "more than 256 bits"),
    ("{{ '%100000d' % n }}", "%", "wider than 100 characters"),
    ("{{ '%*d' % (9, n) }}", "%", "'*' widths"),
    ("{{ '%r' % n }}", "%", "'%r' formatting"),
    ("{{ '%s' % double }}", "%", "formats numbers and text only"),
    ("{{ double }}", "{", "a function is called in a text, not printed"),
    ("{{ self }}", "self", "'self' is not available"),
    ("{% macro m() %}x{% endmacro %}", "macro", "'macro' is not available"),
    ("{% include 'x' %}", "include", "'include' is not available"),
    ("{% set x %}y{% endset %}", "set", "'set … endset' is not available"),
    ("{% for a in many %}{% for b in many %}{% for c in many %}{% endfor %}{% endfor %}{% endfor %}",
     "for", "nested more than 2 deep"),
    ("{% for a in many %}{% for b in many %}{{ big }}{% endfor %}{% endfor %}", None,
     f"more than {MAX_OUTPUT} characters"),
    ("{{ (big * 9) | replace('', big * 9) }}", "{", "replace would make more than"),
])
def test_what_could_reach_python_or_grow_without_bound_is_refused_where_it_is_written(source, at, words):
    with pytest.raises(TemplateProblem) as caught:
        Sandbox().render(text_at("first line\n" + source), VALUES)
    assert caught.value.kind in ("refused", "unknown"), caught.value.message
    assert words in caught.value.message
    whole = Position("en.yaml", 10, 5)          # a limit of the whole text: where it starts
    assert caught.value.position == (whole if at is None else Position("en.yaml", 11, source.index(at) + 1))


@pytest.mark.parametrize("source", ["{{ n | dictsort }}", "{{ n | join }}", "{{ 'a' | sum }}",
                                    "{{ n / 0 }}", "{{ names | map('nofilter') | list }}",
                                    "{{ " + "(" * 200 + "1" + ")" * 200 + " }}"])
def test_a_text_that_fails_is_a_problem_of_the_text_not_a_crash(source):
    with pytest.raises(TemplateProblem) as caught:
        Sandbox().render(text_at(source), VALUES)
    assert caught.value.kind in ("failed", "refused") and caught.value.position.line == 10


def test_a_syntax_error_names_its_line():
    with pytest.raises(TemplateProblem) as caught:
        Sandbox().template(text_at("one\ntwo {% if %}\nthree"))
    assert caught.value.kind == "syntax" and caught.value.position.line == 11


# ---------------------------------------------------------------- field templates
FIELDS = {"row": False, "col_letter": False, "flag": True}
literals = st.text(st.characters(blacklist_characters="{}", blacklist_categories=("Cs",)), max_size=8)


@given(st.lists(st.tuples(literals, st.sampled_from(["row", "col_letter", "flag", "{", "}"])), max_size=6),
       literals, st.booleans())
def test_a_field_template_writes_its_literals_and_named_fields(pieces, tail, flag):
    values = {"row": "7", "col_letter": "C", "flag": "true"}
    source, expected = "", ""
    for literal, field in pieces:
        if field in "{}":
            source, expected = source + literal + field * 2, expected + literal + field
        elif field == "flag":
            source, expected = source + literal + "{flag: with " + literal + "}", \
                expected + literal + (" with " + literal if flag else "")
        else:
            source, expected = source + literal + "{" + field + "}", expected + literal + values[field]
    template = FieldTemplate.parse(source + tail, FIELDS)
    assert template.fill(values, {"flag": flag}) == expected + tail


@pytest.mark.parametrize("source, column, words", [
    ("{row.__class__.__mro__}", 5, "attribute or index access"),
    ("x{n.__format__.__globals__[__builtins__][open]}", 3, "'n', which is not one of its fields"),
    ("{row[0]}", 5, "attribute or index access"),
    ("{row:>200000000}", 5, "format specifications are not allowed"),
    ("{row!r}", 5, "conversions"),
    ("{0}", 2, "{} and {0} are not fields"),
    ("ab{}", 4, "{} and {0} are not fields"),
    ("{row", 1, "not closed"),
    ("{flag: open {row}", 1, "not closed"),
    ("A}", 2, "'}' without a '{'"),
])
def test_a_field_template_that_reaches_for_more_than_a_name_is_refused_at_its_character(source, column, words):
    with pytest.raises(SpecError) as caught:
        FieldTemplate.parse(text_at(source, 3, 1), FIELDS, code="RC333")
    assert caught.value.code == "RC333" and words in caught.value.message
    assert caught.value.position == Position("en.yaml", 3, column)
