"""The generated modules and the compiler's own shape: readable lines, small modules."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.compiler import compile_source, game_names

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
