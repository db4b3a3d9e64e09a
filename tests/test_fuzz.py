"""Property tests: mutated specs fail only with rulecraft's own errors; the rule language evaluates
arithmetic and logic exactly as Python does; syntax errors point at the offending character in the
YAML file whatever the scalar style."""

from __future__ import annotations

import ast

import re

from hypothesis import given, settings, strategies as st
import pytest

from rulecraft.compiler import compile_source, find_game, game_names
from rulecraft.compiler import library
from rulecraft.compiler.checker import Checker
from rulecraft.compiler.emit import Emitter, Names
from rulecraft.compiler.symbols import Symbols
from rulecraft.errors import Position, RulecraftError, RuleSyntaxError, SpecError
from rulecraft.loader import Text

from fuzzing import MUTATORS
from helpers import LARK_INTERNALS

SPECS = {name: find_game(name).read_text(encoding="utf-8") for name in game_names("examples")}

@pytest.fixture(scope="module")
def fuzz_spec(tmp_path_factory):
    """The file each mutated spec is written to."""
    return tmp_path_factory.mktemp("fuzz") / "game.yaml"


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_mutated_specs_fail_only_with_rulecraft_errors(data, fuzz_spec):
    """The mutators of tests/fuzzing.py, one to three in a row, drawn by hypothesis (so it shrinks)."""
    text = SPECS[data.draw(st.sampled_from(sorted(SPECS)), label="game")]
    rng = data.draw(st.randoms(use_true_random=False), label="rng")
    for mutation in data.draw(st.lists(st.sampled_from(MUTATORS), min_size=1, max_size=3), label="mutations"):
        text = mutation(rng, text).text
    fuzz_spec.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        source = compile_source(fuzz_spec)
    except RulecraftError as error:
        message = str(error)
        assert not [word for word in LARK_INTERNALS if word in message], message
        return
    namespace: dict = {}
    exec(compile(source, "<generated rules>", "exec"), namespace)
    assert namespace["RULES"].game_id


# ---------- the rule language evaluates like Python ----------
def _binary(parts) -> str:
    """``(operator, left, right)`` written as the rule language (and Python) write it."""
    operator, left, right = parts
    return f"{left} {operator} {right}"


ARITHMETIC = st.recursive(
    st.integers(0, 30).map(str),
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(["+", "-", "*", "//", "%"]), inner, inner).map(_binary),
        inner.map(lambda x: f"-{x}"),
        inner.map(lambda x: f"({x})")),
    max_leaves=8)

COMPARISONS = st.tuples(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), ARITHMETIC, ARITHMETIC
                        ).map(_binary)

LOGIC = st.recursive(
    COMPARISONS,
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(["and", "or"]), inner, inner).map(_binary),
        inner.map(lambda x: f"not {x}"),
        inner.map(lambda x: f"({x})")),
    max_leaves=6)


def _evaluate(python_source: str):
    """Evaluate arithmetic and logic with nothing else in reach; a division by zero is a value."""
    try:
        return eval(python_source, {"__builtins__": {}})
    except ZeroDivisionError:
        return ZeroDivisionError


def compiled(formula: str) -> str:
    """The Python source the rule-language compiler produces for ``formula``."""
    value = Checker(Symbols(), library.FUNCTIONS).formula(Text(formula, Position("<property>", 1, 1)))
    return ast.unparse(Emitter(Names(), None).expr(value))


@settings(max_examples=300, deadline=None)
@given(formula=st.one_of(ARITHMETIC, LOGIC))
def test_formulas_evaluate_like_python(formula):
    """The rule language's precedence and associativity are Python's; // floors, % follows it."""
    assert _evaluate(compiled(formula)) == _evaluate(formula)


@settings(max_examples=100, deadline=None)
@given(parts=st.tuples(ARITHMETIC, st.sampled_from(["==", "<", ">="]), ARITHMETIC,
                       st.sampled_from(["!=", "<=", ">"]), ARITHMETIC))
def test_comparisons_never_chain(parts):
    with pytest.raises(RuleSyntaxError) as raised:
        compiled(" ".join(parts))
    assert raised.value.code == "RC201"


# ---------- positions are right in every scalar style ----------
EFFECT_SPEC = """\
game: {{id: g, title: G, teams: [a, b]}}
state:
  n: {{type: int}}
turn:
  - phase: p
    rule: "1"
    do: {scalar}
end: {{rule: "2", returns: "0"}}
limits: {{max_plies: 3}}
"""


def _scalar(style: str, text: str, width: int) -> str:
    """``text`` as a YAML scalar of ``style`` (block styles wrap at spaces after ``width`` chars)."""
    if style == '"':
        return f'"{text}"'
    if style == "'":
        return f"'{text}'"
    if style == "plain":
        return text
    lines, line = [], ""
    for word in text.split(" "):
        line = f"{line} {word}" if line else word
        if len(line) >= width:
            lines.append(line)
            line = ""
    lines.append(line)
    return style + "\n" + "\n".join("      " + item for item in lines if item)


@settings(max_examples=100, deadline=None)
@given(formula=ARITHMETIC, data=st.data(), style=st.sampled_from(['"', "'", "|", ">", "plain"]),
       width=st.integers(1, 30))
def test_syntax_error_points_at_the_character(formula, data, style, width, fuzz_spec):
    effect = f"n = {formula}"
    at = data.draw(st.integers(1 if style == "plain" else 0, len(effect)))  # a plain '@...' is not YAML
    effect = effect[:at] + "@" + effect[at:]
    fuzz_spec.write_text(EFFECT_SPEC.format(scalar=_scalar(style, effect, width)), encoding="utf-8")
    with pytest.raises(SpecError) as raised:
        compile_source(fuzz_spec)
    error = raised.value
    assert error.code == "RC202"            # '@' itself, or a '//' it splits into a lone '/'
    named = re.fullmatch(r"the character '(.)' cannot appear here", error.message).group(1)
    where = error.position
    assert fuzz_spec.read_text(encoding="utf-8").splitlines()[where.line - 1][where.column - 1] == named


def test_lines_longer_than_the_board_compile_to_none(fuzz_spec):
    """Found by the fuzzer: ``lines(n)`` with a huge ``n`` hung the compiler (runs of n cells)."""
    huge = 99999999999999999999
    fuzz_spec.write_text(SPECS["tictactoe"].replace("lines(3)", f"lines({huge})", 1), encoding="utf-8")
    namespace: dict = {}
    exec(compile(compile_source(fuzz_spec), "<generated rules>", "exec"), namespace)
    assert namespace[f"LINES_{huge}"] == () and len(namespace["LINES_3"]) == 8
