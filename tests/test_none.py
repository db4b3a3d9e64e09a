"""Values that may be none: the checker tracks them, refuses an unguarded use in a spec of
``language: 2``, warns in older specs, and the generated rules check such a use at play time
(RC405, naming the spec line, the state unchanged) — never reading or writing another slot."""

from __future__ import annotations

import pytest

from rulecraft.compiler import check, compile_source, load_rules, read_game
from rulecraft.errors import RuleFault, SpecError
from rulecraft.runtime.engine import Game

SPEC = """\
game: {{id: nothing, title: Nothing, teams: [a, b]{language}}}
board: {{grid: {{rows: 2, columns: 2}}}}
pieces: {{roster: [{{team: each}}]}}
state:
  target: {{type: space}}
  row: {{type: int}}
  mark: {{type: int, of: space}}
turn:
  - {{phase: pick, rule: "1", choose: [aim, miss], by: a}}
  - {{phase: use, rule: "2", do: "{use}"}}
  - {{phase: done, rule: "3", do: finish}}
actions:
  aim: {{rule: "1", params: {{z: space}}, effect: "target = z"}}
  miss: {{rule: "1", effect: "target = none"}}
end: {{rule: "3", returns: "0"}}
limits: {{max_plies: 4}}
define:
  spot: "first(y for y in spaces where y == target)"
  placed(z): "z != none and z.mark == 0"
"""

USES = {
    "read": "row = target.row",
    "write": "target.mark = 5",
    "table": "row = distance(target, A1)",
    "team": "row = count(p for p in pieces where p.at == target)",     # none is a valid place: no check
    "guarded": "if target != none then { row = target.row; target.mark = 1 }",
    "guarded formula": "row = if target == none then 0 else target.row + 1",
}

# A test on any value narrows the same value computed again from the same inputs; each use, and
# the row it gives after 'aim B2' and after 'miss'
NARROWED = {
    "let": ("row = let z = first(y for y in spaces where y == target); if z != none then z.row else 7", 2, 7),
    "first": ("row = if first(y for y in spaces where y == target) != none "
              "then first(y for y in spaces where y == target).row else 7", 2, 7),
    "space": ("let r = if target == none then 5 else 1; "
              "row = if space(r, 1) != none then space(r, 1).row + 10 else 7", 11, 7),
    "definition's value": ("row = if spot != none then spot.row else 7", 2, 7),
    "definition's test": ("if placed(target) then { row = target.row; target.mark = 3 } else { row = 7 }", 2, 7),
    "loop not writing it": ("if target != none then { for z in spaces do { row += target.row } }", 8, 0),
}

# uses that no test covers (the value differs, or an input changed after the test), and the
# value the error names
UNNARROWED = {
    "first": ("row = first(y for y in spaces where y == target).row", "first(...).row"),
    "let": ("row = let z = first(y for y in spaces where y == target); z.row", "z.row"),
    "space": ("row = space(row + 2, 1).row", "space(...).row"),
    "another space": ("row = if space(row + 2, 1) != none then space(row + 1, 1).row else 0", "space(...).row"),
    "input written": ("if space(row + 2, 1) != none then { row = 1; row = space(row + 2, 1).row }",
                      "space(...).row"),
    "written in a loop": ("if target != none then { for z in spaces do { row = target.row; target = none } }",
                          "target.row"),
    "written in a while loop": ("if target != none then { while row < 3 limit 4 do { row += target.row; "
                                "target = none } }", "target.row"),
}


def _spec(tmp_path, use: str, language: int = 1):
    text = USES[use] if use in USES else use
    (tmp_path / "game.yaml").write_text(SPEC.format(use=text, language=f", language: {language}"
                                                    if language != 1 else ""), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("use", ["read", "write", "table"])
def test_an_unguarded_use_warns_and_fails_at_play_time_leaving_the_state(use, tmp_path):
    folder = _spec(tmp_path, use)
    _, warnings = check(folder)
    assert [w.code for w in warnings] == ["RC317"]
    assert warnings[0].position.file.endswith("game.yaml") and warnings[0].position.line == 10
    game = Game(load_rules(folder))
    state = game.new_initial_state()
    before = list(state.s)
    miss = next(a for a in state.legal_actions() if state.action_notation(a) == "miss")
    with pytest.raises(RuleFault) as raised:
        state.apply(miss)
    assert raised.value.code == "RC405"
    assert "game.yaml:10:" in raised.value.message and "the value is none" in raised.value.message
    assert "phase use" in raised.value.message and state.s == before
    aimed = state.clone()                      # with a real space the rule works
    aimed.apply(next(a for a in state.legal_actions() if state.action_notation(a) == "aim B2"))
    assert aimed.is_terminal()


@pytest.mark.parametrize("use", ["read", "write", "table"])
def test_an_unguarded_use_is_an_error_in_language_2(use, tmp_path):
    with pytest.raises(SpecError) as raised:
        check(_spec(tmp_path, use, language=2))
    assert raised.value.code == "RC317" and raised.value.position.line == 10
    assert "!= none" in raised.value.hint


@pytest.mark.parametrize("use", ["team", "guarded", "guarded formula"])
def test_a_guarded_use_neither_warns_nor_checks(use, tmp_path):
    folder = _spec(tmp_path, use, language=2)
    assert check(folder)[1] == [] and read_game(folder).faults == []
    game = Game(load_rules(folder))
    state = game.new_initial_state()
    state.apply(next(a for a in state.legal_actions() if state.action_notation(a) == "miss"))
    assert state.is_terminal()


def test_a_field_with_an_initial_value_refuses_none(tmp_path):
    spec = SPEC.format(use="row = 1", language=", language: 2").replace(
        "target: {type: space}", "target: {type: space, initial: A1}")
    (tmp_path / "game.yaml").write_text(spec, encoding="utf-8")
    with pytest.raises(SpecError) as raised:
        check(tmp_path)
    assert raised.value.code == "RC317" and "target = ..." in raised.value.message


def _row_after(rules, notation: str) -> int:
    state = Game(rules).new_initial_state()
    state.apply(next(a for a in state.legal_actions() if state.action_notation(a) == notation))
    assert state.is_terminal()
    return state.value("row")


@pytest.mark.parametrize("inline", [True, False], ids=["copied in", "as a function"])
@pytest.mark.parametrize("use", list(NARROWED))
def test_a_test_narrows_the_same_value_computed_again(use, inline, tmp_path, monkeypatch):
    if not inline:                   # every definition given a changing argument becomes a function
        monkeypatch.setattr("rulecraft.compiler.checker.ROUTINE_PARTS", 0)
    text, aimed, missed = NARROWED[use]
    folder = _spec(tmp_path, text, language=2)
    assert check(folder)[1] == [] and read_game(folder).faults == []
    rules = load_rules(folder, use_cache=False)
    assert (_row_after(rules, "aim B2"), _row_after(rules, "miss")) == (aimed, missed)


def test_a_definition_as_a_function_passes_its_test_on(tmp_path, monkeypatch):
    monkeypatch.setattr("rulecraft.compiler.checker.ROUTINE_PARTS", 0)
    folder = _spec(tmp_path, NARROWED["definition's test"][0], language=2)
    assert "def fn_placed(" in compile_source(folder)


@pytest.mark.parametrize("use", list(UNNARROWED))
def test_a_use_no_test_covers_is_refused_at_its_position(use, tmp_path):
    text, value = UNNARROWED[use]
    with pytest.raises(SpecError) as raised:
        check(_spec(tmp_path, text, language=2))
    error = raised.value
    assert error.code == "RC317" and f"'{value}' needs a value here, but it may be none" in error.message
    line = (tmp_path / "game.yaml").read_text(encoding="utf-8").splitlines()[9]
    assert error.position.line == 10 and error.position.column == line.index(".row") + 2     # at the read
    assert "!= none and ..." in error.hint
