"""Options that size a game: grid rows and columns, parameter and table-key ranges, ``lines(n)``
and ``max_plies`` written as formulas of options (docs/spec-reference.md, "Options that size the
game"). The game is the reference's own example, so the document and this test cannot drift."""

from __future__ import annotations

import pytest

from helpers import load_game, random_playout
from rulecraft.compiler import load_rules
from rulecraft.errors import SpecError
from rulecraft.runtime.engine import Game
from test_reference_doc import blocks

EXAMPLE = next(b.body for b in blocks("spec") if b.body.startswith("# K in a row"))


@pytest.fixture()
def k_in_a_row(tmp_path):
    """A folder holding the reference's K-in-a-row spec."""
    (tmp_path / "game.yaml").write_text(EXAMPLE, encoding="utf-8")
    return tmp_path


def variant(folder, old: str, new: str):
    """The spec of ``folder`` with ``old`` replaced by ``new`` (which must occur)."""
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    assert old in text
    (folder / "game.yaml").write_text(text.replace(old, new), encoding="utf-8")
    return folder


@pytest.mark.parametrize("size, k", [(3, 3), (6, 4)])
def test_one_spec_plays_at_every_size_its_options_allow(k_in_a_row, size, k):
    game = load_game(k_in_a_row, {"size": size, "k": k})
    state = game.new_initial_state()
    assert len(state.legal_actions()) == size * size
    assert game.max_game_length == size * size
    assert state.action_notation(state.legal_actions()[-1]) == f"{size}-{size}"
    for seed in range(5):
        final = random_playout(game, seed)
        assert final.is_terminal() and final.ply <= size * size


def test_the_winning_line_is_k_long(k_in_a_row):
    """On a 5 × 5 board with k = 4, four crosses down column 1 win and three do not."""
    game = Game(load_rules(k_in_a_row, {"size": 5, "k": 4}, use_cache=False))
    state = game.new_initial_state()
    for row in range(1, 5):
        state.apply(next(a for a in state.legal_actions() if state.action_notation(a) == f"{row}-1"))
        if row < 4:
            assert not state.is_terminal()
            state.apply(next(a for a in state.legal_actions()
                                    if state.action_notation(a) == f"{row}-5"))
    assert state.is_terminal() and state.returns() == [1, -1]


def test_a_table_keyed_by_an_option_range(k_in_a_row):
    variant(k_in_a_row, "state:\n", 'tables:\n  bonus: {rule: "3", keys: ["1..size"], values: [1, 2, 3]}\nstate:\n')
    variant(k_in_a_row, '"the square is taken"}', '"the square is taken"}\n'
            '      - {if: "bonus[row] > 0", rule: "3", reason: "no bonus on this row"}')
    game = Game(load_rules(k_in_a_row, {"size": 3}, use_cache=False))
    assert game.new_initial_state().legal_actions()
    with pytest.raises(SpecError) as error:
        load_rules(k_in_a_row, {"size": 4}, use_cache=False)
    assert error.value.code == "RC343"


@pytest.mark.parametrize("old, new, code", [
    ('"size"', '"size // (k - k)"', "RC356"),
    ('"1..size"', '"1..count(q for q in spaces where q.mark == none)"', "RC356"),
    ('"1..size"', '"size..1"', "RC349"),
    ('"size * size"', '"size * size * 0"', "RC355"),
    ("lines(k)", "lines(k + count(q for q in spaces where q.mark == none))", "RC316"),
    ("lines(k)", "lines(k - k)", "RC316"),
])
def test_a_size_that_is_not_fixed_when_compiling_is_refused_where_it_is_written(k_in_a_row, old, new, code):
    variant(k_in_a_row, old, new)
    with pytest.raises(SpecError) as error:
        load_rules(k_in_a_row, use_cache=False)
    assert error.value.code == code and error.value.hint
    text = EXAMPLE.replace(old, new).splitlines()
    line = next(n for n, row in enumerate(text, 1) if new in row)
    start = text[line - 1].index(new) + 1
    assert error.value.position.line == line
    assert start <= error.value.position.column <= start + len(new)
