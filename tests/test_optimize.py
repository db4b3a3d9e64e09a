"""The compiler's optimising passes: each computes what the plain translation computes, and each
is made where it applies and nowhere else.

* differential tests: every game compiled with and without the passes plays the same on random
  states (who acts, legal actions and their notations, refusals, returns, evaluation, invariants,
  the state and the events after each action);
* the passes on the IR: the piece index, counts that stop early, folding, board tables,
  comprehensions computing their loop-invariant parts once, and the legal-id generators' loops
  narrowed and their outer parts computed once per outer step.
"""

from __future__ import annotations

import ast
import random

import pytest
from hypothesis import given, settings, strategies as st

from rulecraft.compiler import compile_source, game_names, load_rules, read_game
from rulecraft.compiler import generators, ir
from rulecraft.compiler.emit import Emitter, Names
from rulecraft.compiler.optimize import hoist_comprehension, optimize
from rulecraft.compiler.walk import walk
from rulecraft.runtime.engine import Game, State

SPEC = """
game: {id: crowding, title: Crowding, teams: [red, blue]}
board: {grid: {rows: 1, columns: 3}}
pieces: {roster: [{team: each, count: 2, at: A1}]}
state: {to_move: {type: team, initial: red}}
define: {crowd(z): "count(p for p in pieces where p.at == z)"}
turn:
  - {phase: move, rule: "1", choose: step, by: to_move}
  - {phase: pass, rule: "2", do: "to_move = to_move.opponent"}
actions:
  step:
    rule: "1"
    params: {runner: piece, to: space}
    legal:
      - {if: "runner.team == actor and count(p for p in actor.pieces where p.at == to) == 0 and crowd(to) < 3"}
      - {if: "count(p for p in actor.pieces where p.at == to and p != runner) == 0"}
      - {if: "count(p for p in pieces where p.team == actor and p != runner) >= 1"}
    effect: "move(runner, to)"
end: {rule: "3", returns: "0"}
limits: {max_plies: 10, on_limit: "0"}
"""

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
limits: {max_plies: 12, on_limit: "0"}
"""

FORMULAS = """
game: {id: formulas, title: Formulas, teams: [red, blue]}
board: {grid: {rows: 2, columns: 3}}
state: {to_move: {type: team, initial: red}, score: {type: int}}
define:
  rank(z, t): "if t == red then z.row * 3 + z.col else 9 - z.row"
  marked(z): "z.row + score > 2"
turn:
  - {phase: move, rule: "1", choose: mark, by: to_move}
  - {phase: pass, rule: "2", do: "to_move = to_move.opponent; if score >= 2 then { finish }"}
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


def _folder(tmp_path, spec: str):
    (tmp_path / "game.yaml").write_text(spec, encoding="utf-8")
    return tmp_path


def _rules(game, optimize: bool):
    namespace: dict = {}
    exec(compile(compile_source(game, optimize=optimize), f"<{game}>", "exec"), namespace)
    return namespace["RULES"]


def _optimized_ir(game):
    game_ir = read_game(game)

    def allocate(size):
        base = game_ir.slots
        game_ir.slots += size
        return base
    optimize(game_ir, allocate)
    return game_ir


def _random_states(game: Game, seed: int, plies: int):
    """The states of one random match (at most ``plies`` of them)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(plies):
        yield state
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_unchecked(rng.choices(outcomes, weights)[0])
        else:
            state.apply_unchecked(rng.choice(state.legal_actions()))


def _same_play(optimized: Game, plain: Game, state: State, rng: random.Random):
    """Assert ``plain`` sees ``state`` (of ``optimized``) as the optimised rules do."""
    width = plain.rules.slots
    twin = State(plain, state.s[:width], state.ply)
    assert twin.current_player() == state.current_player()
    assert twin.legal_actions() == state.legal_actions()
    assert [twin.action_notation(a) for a in twin.legal_actions()] == \
        [state.action_notation(a) for a in state.legal_actions()]
    assert twin.returns() == state.returns()
    for team in range(optimized.num_teams):
        assert twin.evaluation(team) == state.evaluation(team)
    assert [f(twin.s) for *_, f in plain.rules.invariants] == [f(state.s) for *_, f in optimized.rules.invariants]
    if state.is_terminal():
        return
    size = len(state.chance_outcomes()) if state.is_chance_node() else optimized.num_distinct_actions
    for action in {rng.randrange(size) for _ in range(4)} - set(state.legal_actions()):
        refusals = []
        for side in (state, twin):
            try:
                side.clone().apply(action)
            except Exception as error:         # noqa: BLE001 - the refusals are compared
                refusals.append(str(error))
        assert refusals[0] == refusals[1]
    for action in rng.sample(state.legal_actions(), min(3, len(state.legal_actions()))):
        after, twin_after, events, twin_events = state.clone(), twin.clone(), [], []
        after.apply(action, events)
        twin_after.apply(action, twin_events)
        assert twin_after.s == after.s[:width] and events == twin_events


@pytest.mark.parametrize("game", game_names())
def test_optimised_rules_play_as_the_plain_translation(game):
    optimized, plain = Game(_rules(game, True)), Game(_rules(game, False))
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        for state in _random_states(optimized, seed, 120):
            _same_play(optimized, plain, state, rng)
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("spec", [SPEC, NARROWING, FORMULAS], ids=["crowding", "narrowing", "formulas"])
def test_optimised_test_games_play_as_the_plain_translation(spec, tmp_path):
    folder = _folder(tmp_path, spec)
    optimized, plain = Game(_rules(folder, True)), Game(_rules(folder, False))
    rng = random.Random(3)
    for seed in range(6):
        for state in _random_states(optimized, seed, 12):
            _same_play(optimized, plain, state, rng)


# ---------- the piece index ----------
def _nodes(game_ir, action: str):
    found = next(a for a in game_ir.actions if a.name == action)
    return [list(walk(condition.test)) for condition in found.conditions]


def test_counts_of_pieces_on_a_space_read_the_piece_index(tmp_path):
    game_ir = _optimized_ir(_folder(tmp_path, SPEC))
    first, second, third = _nodes(game_ir, "step")
    counts = [n for n in first if isinstance(n, ir.PieceCount)]
    assert len(counts) == 2                                  # the team's count and crowd(to)
    assert {len(c.teams) for c in counts} == {1, 2}
    assert game_ir.piece_index is not None and game_ir.piece_index.base is not None
    # a selection with more than p.at == z asks the index first, then goes through the pieces,
    # stopping at the first
    assert any(isinstance(n, ir.PieceCount) for n in second)
    assert any(isinstance(n, ir.Aggregate) and n.fn == "any" for n in second)
    assert any(isinstance(n, ir.Aggregate) and n.fn == "any" for n in third)


SPELLINGS = """
game: {id: spellings, title: Spellings, teams: [red, blue]}
board: {grid: {rows: 2, columns: 3}, adjacent: king}
pieces: {roster: [{team: each, count: 3, at: A1}]}
state:
  to_move: {type: team, initial: red}
  lead:
    type: int
    of: team
    derived: "max(p.at.col for p in team.opponent.pieces where p.at != none and any(q.at == p.at for q in team.pieces))"
define:
  a(z): "count(z.pieces) > 0"
  b(z): "any(p.at == z for p in pieces)"
  c(z): "any(p in pieces where p.at == z)"
  d(z): "count(p for p in pieces where p.at == z) >= 1"
turn:
  - {phase: move, rule: "1", choose: [step, stay], by: to_move}
  - {phase: pass, rule: "2", do: "to_move = to_move.opponent"}
actions:
  step:
    rule: "1"
    params: {runner: {type: piece, from: "actor.pieces"}, to: space}
    legal:
      - {if: "runner.at != none and adjacent(runner.at, to)"}
      - {if: "SPELLING"}
    effect: "move(runner, to)"
  stay:
    rule: "1"
    params: {to: space}
    legal:
      - {if: "any(p.at == to and p.team != actor for p in pieces) or first(p for p in actor.pieces where p.at == to and p.number > 1) != none"}
end: {rule: "3", returns: "team.lead - team.opponent.lead"}
limits: {max_plies: 24, on_limit: "team.lead - team.opponent.lead"}
"""


@pytest.mark.parametrize("spelling", ["a(to)", "b(to)", "c(to)", "d(to)"])
def test_every_spelling_of_a_piece_on_a_space_is_one_index_lookup(spelling, tmp_path):
    game_ir = _optimized_ir(_folder(tmp_path, SPELLINGS.replace("SPELLING", spelling)))
    test = next(a for a in game_ir.actions if a.name == "step").conditions[-1].test
    # count(z.pieces) > 0, any(p.at == z for p in pieces), any(p in pieces where p.at == z) and
    # count(...) >= 1: the same comparison of the index's count for both teams, no list gone through
    assert isinstance(test, ir.Compare) and (test.op, test.right.value) in ((">", 0), (">=", 1))
    assert isinstance(test.left, ir.PieceCount) and len(test.left.teams) == 2
    assert not any(isinstance(n, ir.Comprehension) for n in walk(test))


def test_selections_of_the_pieces_on_a_space_ask_the_index_before_going_through_them(tmp_path):
    game_ir = _optimized_ir(_folder(tmp_path, SPELLINGS.replace("SPELLING", "a(to)")))
    test = next(a for a in game_ir.actions if a.name == "stay").conditions[-1].test
    for part in test.values:              # any(p.at == to and C ...), first(... p.at == to and C)
        guarded = [n for n in walk(part) if isinstance(n, (ir.Logic, ir.Cond))][0]
        first = guarded.values[0] if isinstance(guarded, ir.Logic) else guarded.test
        assert isinstance(first, ir.Compare) and isinstance(first.left, ir.PieceCount)


@pytest.mark.parametrize("spelling", ["a(to)", "b(to) and not c(runner.at)", "not d(to)"])
def test_the_spellings_game_plays_as_the_plain_translation(spelling, tmp_path):
    folder = _folder(tmp_path, SPELLINGS.replace("SPELLING", spelling))
    optimized, plain = Game(_rules(folder, True)), Game(_rules(folder, False))
    rng = random.Random(5)
    for seed in range(8):
        for state in _random_states(optimized, seed, 24):
            _same_play(optimized, plain, state, rng)


@pytest.fixture(scope="module")
def memo_games(tmp_path_factory):
    folder = _folder(tmp_path_factory.mktemp("memo"), SPELLINGS.replace("SPELLING", "not d(to)"))
    assert "MEMO_keep_lead" in compile_source(folder)       # the upkeep reuses values
    return Game(_rules(folder, True)), Game(_rules(folder, False))


@settings(max_examples=30, deadline=None)
@given(seeds=st.tuples(st.integers(0, 10_000), st.integers(0, 10_000)))
def test_derived_fields_reused_values_always_equal_their_formula(memo_games, seeds):
    """The upkeep of a derived field of each team keeps a team's last value while the slots its
    formula reads are unchanged; over two random matches played in turns (so the kept values
    belong to another match half the time), the field always equals its formula as the plain
    translation computes it."""
    optimized, plain = memo_games
    matches = [_random_states(optimized, seed, 24) for seed in seeds]
    for states in zip(*matches):
        for state in states:
            recomputed = state.s[:plain.rules.slots]
            for keep in plain.rules.upkeep:
                keep(recomputed, None)
            assert recomputed == state.s[:plain.rules.slots]


def test_no_piece_index_where_no_count_reads_it():
    assert _optimized_ir("breakthrough").piece_index is None
    assert load_rules("breakthrough").reindex is None


@pytest.mark.parametrize("seed", [1, 2])
def test_piece_index_always_matches_a_recount(seed):
    game = Game(load_rules("taktinen"))
    for state in _random_states(game, seed, 400):
        recounted = state.s[:]
        game.rules.reindex(recounted)
        assert recounted == state.s, f"the piece index is stale at ply {state.ply}"


def test_state_from_json_rebuilds_the_piece_index():
    game = Game(load_rules("taktinen"))
    state = list(_random_states(game, 3, 120))[-1]
    data = state.to_json()
    data["state"][-1] += 5                  # a hand-edited, inconsistent index
    assert game.state_from_json(data).s == state.s


# ---------- counts, folding, board tables ----------
def _formula_ir(tmp_path, formula: str) -> ir.Expr:
    spec = SPEC.replace('      - {if: "count(p for p in pieces where p.team == actor and p != runner) >= 1"}',
                        f'      - {{if: "{formula}"}}')
    return _nodes(_optimized_ir(_folder(tmp_path, spec)), "step")[2][0]


@pytest.mark.parametrize("test, kind", [
    ("count(p for p in pieces where p.team == actor) > 0", "any"),
    ("count(p for p in pieces where p.team == actor) >= 1", "any"),
    ("count(p for p in pieces where p.team == actor) == 0", "not any"),
    ("count(p for p in pieces where p.team == actor) < 1", "not any"),
    ("count(p for p in pieces where p.team == actor) >= 2", "at least 2"),
    ("count(p for p in pieces where p.team == actor) <= 1", "not at least 2"),
    ("count(p for p in pieces where p.team == actor) > 2", "at least 3"),
    ("count(p for p in pieces where p.team == actor) == 2", "count"),
    ("count(p for p in pieces where p.team == actor) > runner.number", "count"),
])
def test_counts_compared_with_a_number_stop_early(test, kind, tmp_path):
    top = _formula_ir(tmp_path, test)
    negated = isinstance(top, ir.Unary) and top.op == "not"
    inner = top.operand if negated else top
    if isinstance(inner, ir.AtLeast):
        found = f"at least {inner.least}"
    elif isinstance(inner, ir.Aggregate):
        found = inner.fn
    else:
        found = "count" if any(isinstance(n, ir.Aggregate) and n.fn == "count" for n in walk(inner)) else "?"
    assert ("not " if negated else "") + found == kind


def test_fixed_parts_are_decided_when_compiling(tmp_path):
    assert isinstance(_formula_ir(tmp_path, "1 + 2 * 3 == 7 and (if red == blue then 1 else 2) == 2"), ir.Const)
    kept = _formula_ir(tmp_path, "1 < 2 and runner.number > 0")
    assert isinstance(kept, ir.Compare)                     # the fixed part drops out of the and
    assert not isinstance(_formula_ir(tmp_path, "1 // 0 == 0 or runner.number > 0"), ir.Const)


def test_definitions_over_the_board_alone_are_tables_computed_when_compiling(tmp_path):
    game_ir = _optimized_ir(_folder(tmp_path, FORMULAS))
    statics = {n.table.name: n.table for condition in game_ir.actions[0].conditions
               for n in walk(condition.test) if isinstance(n, ir.Static) and n.table.role == "formula"}
    # rank(at, red) > 4 on every space; rank(at, actor) depends on the team: its two branches
    assert sorted(t.values for t in statics.values()) == [(0, 1, 1, 1, 1, 1), (4, 5, 6, 7, 8, 9),
                                                          (8, 8, 8, 7, 7, 7)]
    # marked(at) reads the score: computed where used
    game = Game(load_rules(_folder(tmp_path, FORMULAS)))
    assert game.new_initial_state().legal_actions() == [1, 2, 3, 4, 5]


def test_comprehensions_compute_parts_without_their_variable_once():
    game_ir = read_game("taktinen")
    bodies = [node.body for node in game_ir.nodes] + [r.body for r in game_ir.routines if r.kind != "formula"]
    second_lowest = next(n for body in bodies for stmt in body for n in _statement_exprs(stmt)
                         if isinstance(n, ir.Comprehension) and n.var.name == "q")
    hoisted = hoist_comprehension(second_lowest)
    assert hoisted.once, "depth(x.at, d) does not read q: computed once per evaluation"
    assert not any(isinstance(n, ir.Var) and n.symbol is hoisted.var for _, value in hoisted.once
                   for n in walk(value))


def _statement_exprs(stmt):
    from rulecraft.compiler.walk import nested, statements_exprs
    for e in statements_exprs(stmt):
        yield from walk(e)
    for inner in (s for block in nested(stmt) for s in block):
        yield from _statement_exprs(inner)


# ---------- legal-id generators ----------
def _loop_sources(game, action: str) -> dict:
    game_ir = _optimized_ir(game)
    found = next(a for a in game_ir.actions if a.name == action)
    body = generators.generator(found, Emitter(Names(), game_ir.piece_index), len(game_ir.board.spaces), set(),
                                True)
    return {node.target.id: ast.unparse(node.iter) for node in ast.walk(ast.Module(body, []))
            if isinstance(node, ast.For)}


def test_loops_are_narrowed_to_the_spaces_a_condition_pins(tmp_path):
    folder = _folder(tmp_path, NARROWING)
    assert _loop_sources(folder, "hop")["p_to"] == "NEIGHBORS[s[S_at + p_runner]]"
    assert _loop_sources(folder, "hop")["p_runner"] == "TEAM_PIECES[actor]"        # its from: list
    # to.row == 2 is a condition on the board alone: C3's neighbours where it holds
    assert _loop_sources(folder, "drop")["p_to"] == "NEIGHBORS_WHERE_BOARD_1[10]"
    # to.col == T[actor]: a lookup that cannot fail (actor is a team), computed before the loop
    assert _loop_sources(folder, "jump") == {"p_to": "SPACES_BY_col.get(TABLE_T[actor], ())",
                                             "p_back": "SPACES_BY_row.get(SPACE_row[p_to], ())"}


def _legal_by_refusal(game, state, node):
    """Every id of the node's actions that its refusal function lets through."""
    actor = state.current_player()
    found = []
    for index in node.actions:
        action = game.rules.actions[index]
        for action_id in range(action.base, action.base + action.size):
            if action.why_not(state.s, actor, *action.decode(action_id)) is None:
                found.append(action_id)
    return sorted(found)


@pytest.mark.parametrize("game, plies", [("breakthrough", 60), ("taktinen", 150), ("ball", 40)])
def test_generators_list_what_the_refusals_allow(game, plies):
    loaded = Game(load_rules(game))
    checked = 0
    for state in _random_states(loaded, 5, plies):
        node = state.node()
        if state.is_terminal() or state.is_chance_node() or node.kind != "choose":
            continue
        assert state.legal_actions() == _legal_by_refusal(loaded, state, node), f"ply {state.ply}"
        checked += 1
    assert checked > 10


def test_generators_compute_outer_parts_once_per_outer_step():
    game_ir = _optimized_ir("breakthrough")
    move = next(a for a in game_ir.actions if a.name == "move")
    symbols = [p.symbol for p in move.params]
    levels = [[], [], [c.test for c in move.conditions if c.param is None]]
    hoisted = generators._hoist(levels, symbols)
    outer = [value for depth in hoisted for _, value in depth]
    assert outer and all(symbols[1] not in {n.symbol for n in walk(v) if isinstance(n, ir.Var)} for v in outer)
    assert any(isinstance(n, ir.Var) and n.symbol.role == "fixed" for test in levels[2] for n in walk(test))


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
