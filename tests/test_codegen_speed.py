"""The compiler's speed-ups of generated rule tables (issue 7): each is checked to be made where it
applies, never where it does not, and to compute what the plain translation computes.

* the piece index: ``count(p in T.pieces where p.at == Z)`` reads slots kept by ``move_piece``;
* counts compared with a number stop early (``any``, ``at_least``);
* comparisons of two fixed numbers, and conditionals on them, are decided when compiling;
* legal-id generators compute the parts of a test that depend only on outer loops once per step
  of the loop they depend on (loop-invariant code motion).
"""

from __future__ import annotations

import random

import pytest

from rulecraft.compiler import compile_source, load_rules
from rulecraft.compiler.codegen import _hoist
from rulecraft.compiler.expressions import Code, _count_test, _literal
from rulecraft.compiler import types as T
from rulecraft.runtime.engine import Game


def _random_states(game: str, seed: int, plies: int):
    """The states of one random match of ``game`` (at most ``plies`` of them)."""
    loaded = Game(load_rules(game))
    rng = random.Random(seed)
    state = loaded.new_initial_state()
    for _ in range(plies):
        yield state
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_unchecked(rng.choices(outcomes, weights)[0])
        else:
            state.apply_unchecked(rng.choice(state.legal_actions()))


SPEC = """
game: {id: crowding, title: Crowding, teams: [red, blue]}
board: {grid: {rows: 1, columns: 3}}
pieces: {roster: [{team: each, count: 2, at: A1}]}
state: {to_move: {type: team, initial: red}}
define: {crowd(z): "count(p in pieces where p.at == z)"}
turn:
  - {phase: move, rule: "1", choose: step, by: to_move}
  - {phase: pass, rule: "2", do: "to_move = to_move.opponent"}
actions:
  step:
    rule: "1"
    params: {runner: piece, to: space}
    legal:
      - {if: "runner.team == actor and count(p in actor.pieces where p.at == to) == 0 and crowd(to) < 3"}
      - {if: "count(p in actor.pieces where p.at == to and p != runner) == 0"}
    effect: "move(runner, to)"
end: {rule: "3", returns: "0"}
limits: {max_plies: 10}
"""


def test_piece_index_is_generated_where_pieces_are_counted_on_a_space(tmp_path):
    (tmp_path / "game.yaml").write_text(SPEC, encoding="utf-8")
    source = compile_source(tmp_path)
    assert "def index_pieces(s):" in source and "reindex=index_pieces" in source
    why_not = source.split("def why_not_step(")[1].split("def do_step(")[0]
    # the team's count and the count over every team read the index (slots 9..18, after 4 + 4 + 1)
    assert "(s[10 + 4 * actor + p_to]) == 0" in why_not
    assert "(s[10 + (p_to)] + s[14 + (p_to)])" in why_not
    # a selection with more than p.at == z goes through the pieces (stopping at the first found)
    assert "(not any(((s[4 + v_p_1] == p_to) and (v_p_1 != p_runner)) for v_p_1 in TEAM_PIECES[actor]))" in why_not
    assert "move_piece(s, p_runner, p_to)" in source.split("def do_step(")[1]


def test_piece_index_is_not_generated_without_pieces():
    source = compile_source("breakthrough")
    assert "index_pieces" not in source and "reindex=None" in source


@pytest.mark.parametrize("seed", [1, 2])
def test_piece_index_always_matches_a_recount(seed):
    rules = load_rules("taktinen")
    for state in _random_states("taktinen", seed, 400):
        recounted = state.s[:]
        rules.reindex(recounted)
        assert recounted == state.s, f"the piece index is stale at ply {state.ply}"


def test_state_from_json_rebuilds_the_piece_index():
    game = Game(load_rules("taktinen"))
    state = list(_random_states("taktinen", 3, 120))[-1]
    data = state.to_json()
    index_slot = len(data["state"]) - 1
    data["state"][index_slot] += 5          # a hand-edited, inconsistent index
    assert game.state_from_json(data).s == state.s


@pytest.mark.parametrize("op, k, expected", [
    (">", "0", "any("), (">=", "1", "any("), ("==", "0", "(not any("), ("<", "1", "(not any("),
    (">=", "2", "at_least(2,"), ("<=", "1", "(not at_least(2,"), (">", "2", "at_least(3,"),
])
def test_counts_compared_with_a_number_stop_early(op, k, expected):
    count = Code("sum(1 for v in S if C)", T.INT, ("v", "S", "C"))
    assert _count_test(count, op, Code(k, T.INT)).src.startswith(expected)


def test_counts_compared_otherwise_are_left_as_they_are():
    count = Code("sum(1 for v in S if C)", T.INT, ("v", "S", "C"))
    assert _count_test(count, "==", Code("2", T.INT)) is None          # exactly two: a full count
    assert _count_test(count, ">", Code("s[5]", T.INT)) is None        # not a fixed number
    assert _count_test(Code("s[5]", T.INT), ">", Code("0", T.INT)) is None


def test_fixed_numbers_are_read_as_such():
    assert [_literal(src) for src in ("3", "(3)", "((-1))", "-12", "s[3]", "(1 - s[38])")] == \
        [3, 3, -1, -12, None, None]


def test_generator_computes_outer_parts_once_per_outer_step():
    source = compile_source("breakthrough")
    generator = source.split("def gen_move(")[1].split("def why_not_move(")[0]
    assert "fixed_1 = SPACE_ROW[p_square] - 1 if actor == 0 else SPACE_ROW[p_square] + 1" in generator
    assert "(SPACE_ROW[p_to] == fixed_1)" in generator
    # the refusal keeps the plain tests
    assert "fixed_" not in source.split("def why_not_move(")[1].split("def do_move(")[0]


def test_hoisting_leaves_risky_and_inner_parts_in_place():
    levels = [[], ["(s[4 + p_a] == actor)"],
              ["(TABLE_t[s[4 + p_a]] == p_b)", "((s[3] // s[4 + p_a]) == p_b)",
               "any(s[4 + v_q] == s[4 + p_a] for v_q in range(3))", "(NEIGHBORS[s[4 + p_a]][p_b] > 0)"]]
    hoisted = _hoist(levels, ["p_a", "p_b"])
    assert hoisted[0] == [("fixed_2", "s[3]")]
    assert hoisted[1] == [("fixed_1", "s[4 + p_a]"), ("fixed_3", "NEIGHBORS[s[4 + p_a]]")]
    # a spec table and a division may fail where the test would not have looked: not hoisted
    assert levels[2][0] == "(TABLE_t[fixed_1] == p_b)"
    assert levels[2][1] == "(fixed_2 // fixed_1 == p_b)"
    assert levels[2][2] == "(any((s[4 + v_q] == fixed_1 for v_q in range(3))))"
    assert levels[2][3] == "(fixed_3[p_b] > 0)"


def test_hoisting_never_moves_a_name_bound_inside_the_test():
    levels = [[], [], ["(len(tuple((p for p in range(2) if s[4 + p] == p_b))) == p_a)"]]
    hoisted = _hoist(levels, ["p_a", "p_b"])
    assert hoisted == [[], [], []]
    assert levels[2] == ["(len(tuple((p for p in range(2) if s[4 + p] == p_b))) == p_a)"]


def test_cached_rules_load_from_saved_code(tmp_path, monkeypatch):
    import sys
    monkeypatch.setenv("RULECRAFT_CACHE", str(tmp_path))

    def forget():   # as in a fresh process: earlier tests may have imported these rules
        for name in [n for n in sys.modules if n.startswith("rulecraft_rules_breakthrough_")]:
            del sys.modules[name]

    forget()
    first = load_rules("breakthrough")
    saved = list(tmp_path.glob("breakthrough_*.code"))
    assert len(saved) == 1 and list(tmp_path.glob("breakthrough_*.py"))
    forget()
    again = load_rules("breakthrough")
    assert again is not first and again.spec_hash == first.spec_hash
