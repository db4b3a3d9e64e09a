"""The compiler's speed-ups of generated rule tables (issue 7): each is checked to be made where it
applies, never where it does not, and to compute what the plain translation computes.

* the piece index: ``count(p in T.pieces where p.at == Z)`` reads slots kept by ``move_piece``;
* counts compared with a number stop early (``any``, ``at_least``);
* comparisons of two fixed numbers, and conditionals on them, are decided when compiling;
* legal-id generators compute the parts of a test that depend only on outer loops once per step
  of the loop they depend on (loop-invariant code motion);
* a generator's loop over spaces is narrowed to the spaces a condition pins it to (the
  neighbours of a space, the spaces with a given board attribute);
* a comprehension (count, any, sum, ...) computes the parts of its body that do not depend on
  its variable once, not once per item;
* a definition given one space and fixed values, whose formula reads only the board, is looked
  up in a table of its value on every space, computed when compiling.
"""

from __future__ import annotations

import ast
import random
import re

import pytest

from rulecraft.compiler import compile_source, load_rules
from rulecraft.compiler.codegen import _hoist
from rulecraft.compiler.expressions import Code, _count_test, _literal
from rulecraft.compiler.hoisting import comprehension_head
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
    count = Code("sum(1 for v in S if C)", T.INT, ("v", "for v in S", "C"))
    test = _count_test(count, op, Code(k, T.INT)).src
    assert test.startswith(expected) and "for v in S" in test


def test_counts_compared_otherwise_are_left_as_they_are():
    count = Code("sum(1 for v in S if C)", T.INT, ("v", "for v in S", "C"))
    assert _count_test(count, "==", Code("2", T.INT)) is None          # exactly two: a full count
    assert _count_test(count, ">", Code("s[5]", T.INT)) is None        # not a fixed number
    assert _count_test(Code("s[5]", T.INT), ">", Code("0", T.INT)) is None


def test_fixed_numbers_are_read_as_such():
    assert [_literal(src) for src in ("3", "(3)", "((-1))", "-12", "s[3]", "(1 - s[38])")] == \
        [3, 3, -1, -12, None, None]


def test_generator_computes_outer_parts_once_per_outer_step():
    source = compile_source("breakthrough")
    generator = source.split("def gen_move(")[1].split("def why_not_move(")[0]
    assert "fixed_1 = SPACE_COL[p_square]" in generator
    assert "(SPACE_COL[p_to] == fixed_1 and s[4 + p_to] == -1" in generator
    # the action id's term of the outer parameter, too (and its base 0 is left out)
    assert "fixed_2 = p_square * 64" in generator and "out.append((fixed_2 + p_to))" in generator
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


NARROWING = """
game: {id: narrowing, title: Narrowing, teams: [red, blue]}
board: {grid: {rows: 4, columns: 4}, adjacent: king}
pieces: {roster: [{team: each, count: 2, at: A1}]}
state:
  to_move: {type: team, initial: red}
  mark: {type: team, of: space}
tables:
  T: {rule: "1", keys: [team], values: {red: 1, blue: 4}}
turn:
  - {phase: move, rule: "1", choose: [hop, drop, jump], by: to_move}
  - {phase: pass, rule: "2", do: "to_move = to_move.opponent"}
actions:
  hop:
    rule: "1"
    params: {runner: {type: piece, from: "actor.pieces"}, to: space}
    legal:
      - {if: "runner.at != none and adjacent(runner.at, to) and to.mark != actor"}
    effect: "move(runner, to); to.mark = actor"
  drop:
    rule: "1"
    params: {runner: {type: piece, from: "actor.pieces"}, to: space}
    legal:
      - {if: "runner.at == none or to.mark == actor"}
      - {if: "to.row == 2 and to in neighbors(C3)"}
    effect: "move(runner, to)"
  jump:
    rule: "1"
    params: {to: space, back: space}
    legal:
      - {if: "to.col == T[actor] and back.row == to.row and back.mark == none"}
      - {if: "back.col != to.col"}
    effect: "to.mark = actor"
end: {rule: "3", returns: "0"}
limits: {max_plies: 12}
"""


def _generator(source: str, action: str) -> str:
    return source.split(f"def gen_{action}(")[1].split(f"def why_not_{action}(")[0]


def test_loops_are_narrowed_to_the_spaces_a_condition_pins(tmp_path):
    (tmp_path / "game.yaml").write_text(NARROWING, encoding="utf-8")
    source = compile_source(tmp_path)
    hop, drop, jump = (_generator(source, a) for a in ("hop", "drop", "jump"))
    # adjacent(runner.at, to): the neighbours of the runner's space; the test is left out
    assert "for p_to in NEIGHBORS[s[4 + p_runner]]:" in hop and "NEIGHBOR_SETS" not in hop
    assert "s[9 + p_to] != actor" in hop
    # to.row == 2 with to in neighbors(C3): C3's neighbours on row 2, from a table grouped by row
    assert "for p_to in NEIGHBORS_BY_ROW[10].get(2, ()):" in drop and "SPACE_ROW[p_to]" not in drop
    assert "NEIGHBORS_BY_ROW = tuple(grouped(n, SPACE_ROW) for n in NEIGHBORS)" in source
    # back.row == to.row: the spaces on to's row; to.col == T[actor] reads a spec table: not moved
    assert "for p_back in SPACES_BY_ROW.get(SPACE_ROW[p_to], ()):" in jump
    assert "for p_to in range(0, 16):" in jump and "fixed_1 == TABLE_T[actor]" in jump
    assert "SPACES_BY_ROW = grouped(range(len(SPACES)), SPACE_ROW)" in source
    # the refusals keep every test
    why_not = source.split("def why_not_drop(")[1].split("def do_drop(")[0]
    assert "SPACE_ROW[p_to] == 2" in why_not and "NEIGHBORS[10]" in why_not


def test_loops_are_not_narrowed_by_a_test_on_themselves_or_inner_loops():
    from rulecraft.compiler.codegen import Board, _pinned
    board = Board(16, frozenset({"ROW", "COL"}))
    pinned = [ast.parse(src, mode="eval").body for src in (
        "SPACE_ROW[p_a] == SPACE_COL[p_a]",          # the loop's own value on both sides
        "SPACE_ROW[p_a] == SPACE_ROW[p_b]",          # an inner loop's value
        "SPACE_ROW[p_a] != 2",                       # not one value
        "SPACE_ROW[p_a] == 8 // s[3]",               # may fail where the test was never made
        "p_a in NEIGHBOR_SETS[p_a]",
        "SPACE_LOW[p_a] == 2",                       # not an attribute of this board
    )]
    assert [_pinned(test, ["p_a", "p_b"], board) for test in pinned] == [None] * len(pinned)
    row = _pinned(ast.parse("SPACE_ROW[p_a] == s[3] + 1", mode="eval").body, ["p_a", "p_b"], board)
    assert row[:2] == ("attribute", "ROW") and ast.unparse(row[2]) == "s[3] + 1"


def _legal_by_refusal(game, state, node):
    """Every id of the node's actions that its refusal function lets through."""
    rules = game.rules
    actor = state.current_player()
    found = []
    for index in node.actions:
        action = rules.actions[index]
        for action_id in range(action.base, action.base + action.size):
            if action.why_not(state.s, actor, *action.decode(action_id)) is None:
                found.append(action_id)
    return sorted(found)


@pytest.mark.parametrize("game, plies", [("breakthrough", 60), ("taktinen", 150)])
def test_narrowed_generators_list_what_the_refusals_allow(game, plies):
    loaded = Game(load_rules(game))
    checked = 0
    for state in _random_states(game, 5, plies):
        node = state.node()
        if state.is_terminal() or state.is_chance_node() or node.kind != "choose":
            continue
        assert state.legal_actions() == _legal_by_refusal(loaded, state, node), f"ply {state.ply}"
        checked += 1
    assert checked > 10


def test_comprehensions_compute_parts_without_their_variable_once():
    names = iter(["h_1", "h_2"])
    head, parts = comprehension_head(
        "v_q", "TEAM_PIECES[1]",
        ["SPACE_LOW[s[4 + v_q]] < SPACE_LOW[s[4 + v_x]] + s[9]",      # the right side: once
         "any(s[4 + v_r] == s[4 + v_x] for v_r in range(3))"],         # v_r is bound inside
        lambda: next(names))
    assert head == ("for h_1 in [SPACE_LOW[s[4 + v_x]] + s[9]] for h_2 in [s[4 + v_x]] "
                    "for v_q in TEAM_PIECES[1]")
    assert parts == ["(SPACE_LOW[s[4 + v_q]] < h_1)", "(any((s[4 + v_r] == h_2 for v_r in range(3))))"]


def test_comprehensions_leave_risky_and_cheap_parts_in_place():
    # a spec table and a division may fail where the comprehension would not have looked: only
    # the state lookup inside them moves; a constant lookup or a sum of names is not worth a clause
    parts = ["TABLE_t[s[4 + v_x]] > v_q", "s[3] // s[4 + v_x] > v_q", "v_x + 1 > v_q",
             "TEAM_PIECES[1] == v_q"]
    assert comprehension_head("v_q", "S", parts, lambda: "h") == (
        "for h in [s[4 + v_x]] for v_q in S",
        ["(TABLE_t[h] > v_q)", "(s[3] // h > v_q)", "(v_x + 1 > v_q)", "(TEAM_PIECES[1] == v_q)"])
    assert comprehension_head("v_q", "S", parts[2:], lambda: "h") == ("for v_q in S", parts[2:])


def test_offside_lines_compute_the_candidates_depth_once():
    source = compile_source("taktinen")
    moving = source.split("def do_move_player(")[1].split("def ")[0]
    # depth(q.at, away) from a table of the board; depth(x.at, away) once for each x
    assert ("BOARD_1 = (16, 15, 15, 13, 11, 11, 9, 7, 7, 5, 3, 3, 2)  "
            "# depth: 18 - SPACE_LOW[z] - SPACE_HIGH[z]") in source
    # (the numbers of the generated names follow the spec's content, so they are matched, not fixed)
    head = re.search(r"for (h_\d+) in \[BOARD_1\[s\[4 \+ v_x_\d+\]\]\]", source)
    assert head and re.search(r"BOARD_1\[s\[4 \+ v_q_\d+\]\] < " + head.group(1) + r"\b", source)
    assert "for h_" in moving and "<= h_" in moving


FORMULAS = """
game: {id: formulas, title: Formulas, teams: [red, blue]}
board: {grid: {rows: 2, columns: 3}}
state: {to_move: {type: team, initial: red}, score: {type: int}}
define:
  rank(z, t): "if t == red then z.row * 3 + z.col else 9 - z.row"
  marked(z): "z.row + score > 2"
turn:
  - {phase: move, rule: "1", choose: mark, by: to_move}
  - {phase: pass, rule: "2", do: "to_move = to_move.opponent"}
actions:
  mark:
    rule: "1"
    params: {at: space}
    legal:
      - {if: "rank(at, red) > 4 and rank(at, actor) > 2 and not marked(at)"}
    effect: "score += 1"
end: {rule: "3", returns: "0"}
limits: {max_plies: 4}
"""


def test_definitions_over_the_board_alone_are_computed_when_compiling(tmp_path):
    (tmp_path / "game.yaml").write_text(FORMULAS, encoding="utf-8")
    source = compile_source(tmp_path)
    assert "BOARD_1 = (4, 5, 6, 7, 8, 9)  # rank: SPACE_ROW[z] * 3 + SPACE_COL[z]" in source
    generator = _generator(source, "mark")
    assert "BOARD_1[p_at] > 4" in generator
    # the team is not fixed, the other definition reads the state: computed where used
    assert "BOARD_2" not in source and "else 9 - SPACE_ROW[p_at]" in generator
    assert "not SPACE_ROW[p_at] + fixed_2 > 2" in generator
    game = Game(load_rules(tmp_path))
    state = game.new_initial_state()
    assert state.legal_actions() == _legal_by_refusal(game, state, state.node()) == [1, 2, 3, 4, 5]


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
