"""The generated modules and the compiler's own shape: readable lines, small modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rulecraft.compiler import compile_source, game_names, read_game
from rulecraft.compiler.wrap import wrap
from rulecraft.compiler.writer import write

ROOT = Path(__file__).resolve().parent.parent
WIDTH, MODULE_LINES = 120, 600


@pytest.mark.parametrize("game", game_names())
def test_every_generated_line_fits_the_width(game):
    source = compile_source(game)
    long = [(n, len(line)) for n, line in enumerate(source.splitlines(), start=1) if len(line) > WIDTH]
    assert long == []
    compile(source, game, "exec")


@pytest.mark.parametrize("game", game_names())
def test_the_plain_translation_fits_the_width_too(game):
    source = compile_source(game, optimize=False)
    assert max(len(line) for line in source.splitlines()) <= WIDTH


def test_no_compiler_module_is_longer_than_a_reader_can_hold():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in (ROOT / "compiler").glob("*.py")}
    assert {name: size for name, size in sizes.items() if size > MODULE_LINES} == {}


def test_generated_functions_are_named_after_phases_and_actions():
    source = compile_source("pig")
    for name in ("def gen_roll(", "def why_not_roll(", "def do_roll(", "def actor_play_", "def roll_roll_"):
        assert name in source, name
    assert "S_score = " in source and "s[S_score + " in source


def _written_as_python_reads_it(tree: ast.Module) -> str:
    """``write`` gives ``tree`` the text ``ast.unparse`` would (folded) and, to every statement,
    the lines Python's own parser finds it on in that text; returns the text."""
    written, spans = write(tree)
    assert written == wrap(ast.unparse(tree))
    read = ast.parse(written)
    found = [(type(s).__name__, spans[id(s)]) for s in ast.walk(tree) if isinstance(s, ast.stmt)]
    assert found == [(type(s).__name__, (s.lineno, s.end_lineno)) for s in ast.walk(read) if isinstance(s, ast.stmt)]
    return written


@pytest.mark.parametrize("game", game_names())
def test_the_module_is_written_with_the_lines_python_finds_its_statements_on(game):
    module = compile_source(game).split("SPEC_PLACES = ")[0]
    assert _written_as_python_reads_it(ast.parse(module)) == module


def test_the_writer_lays_out_every_block_as_python_does():
    source = '''"""A module.

Its docstring has lines of its own."""
import a

def f(x, *, y=1) -> int:
    """A function's docstring."""
    if x:
        "a string, no docstring"
    elif y:
        for i, j in x:
            continue
        else:
            pass
    elif x == 2:
        while x:
            break
        else:
            x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                    29, 30]
    else:

        def g():
            return (x, y)
    return x
'''
    assert "elif x == 2:" in _written_as_python_reads_it(ast.parse(source))


def test_the_writer_refuses_a_block_it_cannot_lay_out():
    with pytest.raises(TypeError, match="no With statement"):
        write(ast.parse("with a:\n    pass\n"))


@pytest.mark.parametrize("game", ["ball", "vfutbol"])
def test_an_area_is_one_table_and_a_test_of_it_one_set_lookup(game):
    areas = read_game(game).board.areas
    tree = ast.parse(compile_source(game))
    assigned = {node.targets[0].id: node.value for node in tree.body if isinstance(node, ast.Assign)}
    read = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id.startswith("AREA_")}
    assert read and read <= set(assigned)
    for name, members in areas.items():
        if f"AREA_{name}" in assigned:
            assert ast.literal_eval(assigned[f"AREA_{name}"]) == members
    written_out = {tuple(ast.literal_eval(node)) for function in tree.body if isinstance(function, ast.FunctionDef)
                   for node in ast.walk(function) if isinstance(node, ast.Tuple) and len(node.elts) > 1
                   and all(isinstance(e, ast.Constant) for e in node.elts)}
    assert not written_out & {members for members in areas.values() if len(members) > 1}
    looked_in = {name.id for node in ast.walk(tree) if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In)
                 for name in ast.walk(node.comparators[0]) if isinstance(name, ast.Name) and name.id.startswith("AREA_")}
    assert looked_in and all(name.endswith("_SET") for name in looked_in)
