"""Every named resource limit (rulecraft/limits.py) refuses a spec that passes it with its code, at
the node that passes it, naming the limit by a count; a spec just under it still loads. Refusals
come fast and without a traceback: the sizes are counted, never built."""

from __future__ import annotations

import pytest

from rulecraft.compiler import compile_source, load_rules
from rulecraft.errors import Position, SpecError
from rulecraft.limits import (MAX_ALIAS_NODES, MAX_DIE_FACES, MAX_FORMULA_DEPTH, MAX_INT_DIGITS,
                              MAX_LINE_CHARS, MAX_YAML_DEPTH, MAX_YAML_NODES)
from rulecraft.loader import load_yaml
from rulecraft.runtime.engine import Game

from helpers import spec_folder

BASE = '''game: {{id: g, title: G, teams: [a, b]}}
{extra}
state:
  n: {{type: int}}
  to_move: {{type: team, initial: a}}
{fields}
turn:
  - {{phase: p, rule: "1", choose: go, by: to_move}}
actions:
  go: {{rule: "1", {params}effect: "n = {formula}; to_move = to_move.opponent"}}
end: {{rule: "2", returns: "0"}}
limits: {{max_plies: {plies}, on_limit: "0"}}
'''


def spec(extra="", fields="", params="", formula="n + 1", plies="4") -> str:
    """A small playable game with the given parts filled in."""
    return BASE.format(extra=extra, fields=fields, params=params, formula=formula, plies=plies)


def at(text: str, marker: str, occurrence: int = 1) -> tuple[int, int]:
    """(line, column) of the ``occurrence``-th ``marker`` in ``text``."""
    index = -1
    for _ in range(occurrence):
        index = text.index(marker, index + 1)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def refusal(tmp_path, text: str) -> tuple[SpecError, float]:
    """The error compiling ``text`` raises."""
    folder = spec_folder(tmp_path, text)
    with pytest.raises(SpecError) as raised:
        compile_source(str(folder / "game.yaml"))
    return raised.value


def assert_refused(tmp_path, text, code, where, *counts):
    """``text`` is refused with ``code`` at ``where`` (line, column), with a hint,
    and the message shows each of ``counts``."""
    error = refusal(tmp_path, text)
    assert error.code == code, str(error)
    assert error.position == Position(str(tmp_path / "game.yaml"), *where), str(error)
    for count in counts:
        assert count in error.message, error.message
    assert error.hint


def plays(tmp_path, text: str) -> None:
    """The game ``text`` compiles and plays a ply (failing the test otherwise)."""
    state = Game(load_rules(spec_folder(tmp_path, text), use_cache=False)).new_initial_state()
    state.apply(state.legal_actions()[0])
    assert state.ply == 1


# ---------------------------------------------------------------- the YAML file

def _aliases(count: int) -> str:
    items = ", ".join(["x"] * 99)                 # the anchor stands for 100 nodes
    return f"doc:\n  a: &a [{items}]\n  b: [{', '.join(['*a'] * count)}]"


def test_nodes_through_aliases(tmp_path):
    text = spec(extra=_aliases(MAX_ALIAS_NODES // 100 + 1))
    assert_refused(tmp_path, text, "RC113", at(text, "*a", MAX_ALIAS_NODES // 100 + 1),
                   "10,100 nodes through aliases", f"more than {MAX_ALIAS_NODES:,}")
    assert load_yaml("under.yaml", spec(extra=_aliases(MAX_ALIAS_NODES // 100)))["doc"]["b"][-1][0] == "x"


def test_a_600_byte_alias_bomb_is_refused_at_once(tmp_path):
    lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]" for i in range(8)]
    text = "\n".join(lines) + "\n" + spec()
    assert len(text.split("game:")[0]) < 700
    error = refusal(tmp_path, text)
    assert error.code == "RC113" and f"more than {MAX_ALIAS_NODES:,}" in error.message
    assert (error.position.line, error.position.column) == (5, 8)


def test_nesting_depth(tmp_path):
    for depth in (MAX_YAML_DEPTH, 1000):
        text = spec(extra="doc: " + "[" * depth + "]" * depth)
        # the mapping of the file is the first level, so the depth-th list passes the limit
        assert_refused(tmp_path, text, "RC113", (2, 6 + MAX_YAML_DEPTH - 1), f"more than {MAX_YAML_DEPTH} deep")
    depth = MAX_YAML_DEPTH - 2
    assert load_yaml("under.yaml", "doc: " + "[" * depth + "]" * depth)["doc"] is not None


def test_nodes_per_file(tmp_path):
    items = MAX_YAML_NODES - 3 + 1             # the file's mapping, its key and the list are 3
    text = "doc:\n" + "- 1\n" * items
    assert_refused(tmp_path, text, "RC113", (items + 1, 3), f"more than {MAX_YAML_NODES:,} YAML nodes")
    assert len(load_yaml("under.yaml", "doc:\n" + "- 1\n" * (items - 1))["doc"]) == items - 1


def test_line_length(tmp_path):
    text = spec(extra="doc: " + "x" * MAX_LINE_CHARS)
    assert_refused(tmp_path, text, "RC113", (2, MAX_LINE_CHARS + 1), f"{MAX_LINE_CHARS + 5:,} characters long",
                   f"at most {MAX_LINE_CHARS:,}")
    assert load_yaml("under.yaml", "doc: " + "x" * (MAX_LINE_CHARS - 5))["doc"]


@pytest.mark.parametrize("digits", [MAX_INT_DIGITS + 1, 4301])
def test_integer_digits(tmp_path, digits):
    text = spec(plies="9" * digits)
    assert_refused(tmp_path, text, "RC116", at(text, "9" * digits), f"{digits:,} digits, at most {MAX_INT_DIGITS}")
    assert load_yaml("under.yaml", "n: " + "9" * MAX_INT_DIGITS)["n"] == int("9" * MAX_INT_DIGITS)


def test_a_float_beyond_the_float_range(tmp_path):
    text = spec().replace('returns: "0"}', 'returns: "0", range: [-1e999, 1e999]}')
    assert_refused(tmp_path, text, "RC116", at(text, "-1e999"), "-1e999")
    assert load_yaml("under.yaml", "x: [-1e308, 1e308]")["x"] == [-1e308, 1e308]


@pytest.mark.parametrize("tagged, message", [
    ("!!int 0x10", "the tag !!int does not fit the value '0x10'"),
    ("!!bool 9", "the tag !!bool does not fit the value '9'"),
    ("!!set {nope}", "the tag !!set is not one of YAML 1.2's core schema"),
    ("!!python/name:os.system", "the tag !!python/name:os.system is not one"),
    ("!foo 4", "the tag !foo is not one"),
])
def test_tags_outside_the_core_schema(tmp_path, tagged, message):
    text = spec(plies=tagged)
    assert_refused(tmp_path, text, "RC114", at(text, tagged), message)


def test_core_tags_that_fit_their_value_load(tmp_path):
    plays(tmp_path, spec(plies="!!int 4"))
    assert load_yaml("t.yaml", "a: !!str 5\nb: !!bool true")["a"] == "5"


def test_a_control_character_is_reported_at_its_line_and_column(tmp_path):
    text = spec().replace("title: G", 'title: "G\x01ame"')
    assert_refused(tmp_path, text, "RC115", at(text, "\x01"), "U+0001")
    assert load_yaml("t.yaml", 'a: "tab\there"')["a"] == "tab\there"


@pytest.mark.parametrize("written, read", [("4.10", "4.1"), ("5", "5")])
def test_a_rule_id_written_as_a_number(tmp_path, written, read):
    text = spec().replace('go: {rule: "1"', f"go: {{rule: {written}")
    error = refusal(tmp_path, text)
    assert (error.code, error.hint) == ("RC361", f'quote it: rule: "{written}"')
    line, column = at(text, f"rule: {written}")
    assert (error.position.line, error.position.column) == (line, column + 6) and read in error.message


# ---------------------------------------------------------------- rule strings

def test_not_250_times(tmp_path):
    text = spec(formula="if " + "not " * 250 + "true then 1 else 0")
    error = refusal(tmp_path, text)
    assert error.code == "RC363" and f"more than {MAX_FORMULA_DEPTH} deep" in error.message
    line, column = error.position.line, error.position.column
    assert text.splitlines()[line - 1][column - 1:].startswith("not not")
    assert line == at(text, "not")[0] and column > at(text, "not")[1]


def test_formula_depth(tmp_path):
    text = spec(formula="(1 + " * 1000 + "n" + ")" * 1000)
    error = refusal(tmp_path, text)
    assert error.code == "RC363" and error.position.line == at(text, "(1 +")[0]
    assert error.position.column > at(text, "(1 +")[1]


def test_a_formula_just_under_the_depth_limit_compiles_and_runs(tmp_path):
    plays(tmp_path, spec(formula="(1 + " * (MAX_FORMULA_DEPTH - 4) + "n" + ")" * (MAX_FORMULA_DEPTH - 4)))


def test_a_number_of_too_many_digits_in_a_formula(tmp_path):
    text = spec(formula="n + " + "7" * (MAX_INT_DIGITS + 1))
    assert_refused(tmp_path, text, "RC363", at(text, "7" * 10), f"{MAX_INT_DIGITS + 1:,} digits")


# ---------------------------------------------------------------- sizes of a game

def test_roster_count(tmp_path):
    text = spec(extra="pieces:\n  roster:\n    - {team: a, count: 100000000}")
    assert_refused(tmp_path, text, "RC362", at(text, "100000000"), "100,000,000 pieces", "limit of 10,000")
    text = spec(extra="pieces:\n  roster:\n    - {team: a, count: 5000}\n    - {team: each, count: 2501}")
    assert_refused(tmp_path, text, "RC362", at(text, "2501"), "10,002 pieces")


def test_die_faces(tmp_path):
    faces = lambda count: spec(extra="dice:\n  d: {faces: [" + ", ".join(map(str, range(count))) + "]}")
    text = faces(MAX_DIE_FACES + 1)
    assert_refused(tmp_path, text, "RC362", at(text, "[0,"), f"{MAX_DIE_FACES + 1:,} faces", f"{MAX_DIE_FACES:,}")
    plays(tmp_path, faces(MAX_DIE_FACES))


def test_table_keys(tmp_path):
    text = spec(extra='tables:\n  t: {rule: "1", keys: ["1..200000000"], values: [1]}')
    assert_refused(tmp_path, text, "RC362", at(text, '"1..200000000"'), "200,000,000 table cells", "10,000")
    values = "\n".join(f"      - {i}" for i in range(10_000))
    plays(tmp_path, spec(extra=f'tables:\n  t:\n    rule: "1"\n    keys: ["1..10000"]\n    values:\n{values}'))


def test_parameter_values_and_action_ids(tmp_path):
    text = spec(params='params: {k: "0..999999999"}, ')
    assert_refused(tmp_path, text, "RC362", at(text, '"0..999999999"'), "1,000,000,000 values of parameter 'k'",
                   "100,000")
    text = spec(params='params: {k: "1..1000", m: "1..1001"}, ')
    assert_refused(tmp_path, text, "RC362", at(text, "go:"), "1,001,000 action ids", "1,000,000")
    plays(tmp_path, spec(params='params: {k: "1..1000", m: "1..1000"}, '))


def test_state_slots(tmp_path):
    # 4 header slots, the pieces' at: (2,000), n and to_move: the 49th field of 2,000 passes 100,000
    fields = "".join(f"  f{i}: {{type: int, of: piece}}\n" for i in range(60))
    text = spec(extra="pieces:\n  roster:\n    - {team: each, count: 1000}", fields=fields)
    error = refusal(tmp_path, text)
    assert error.code == "RC362" and "state slots, more than the limit of 100,000" in error.message
    assert (error.position.line, error.position.column) == at(text, "  f48:")[:1] + (3,)


def test_grid_space_names(tmp_path):
    grid = lambda name: spec(extra=f'board:\n  grid: {{rows: 3, columns: 3, name: "{name}"}}')
    text = grid("{row:>200000000}")
    error = refusal(tmp_path, text)
    assert error.code == "RC333" and "format specifications are not allowed" in error.message
    text = grid("x" * 70 + "{row}{col}")
    assert_refused(tmp_path, text, "RC362", at(text, '"xxx'), "72 characters", "limit of 64")
    plays(tmp_path, grid("x" * 62 + "{row}{col}"))
