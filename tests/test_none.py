"""Values that may be none: the checker tracks them, refuses an unguarded use in a spec of
``language: 2``, warns in older specs, and the generated rules check such a use at play time
(RC405, naming the spec line, the state unchanged) — never reading or writing another slot."""

from __future__ import annotations

import pytest

from rulecraft.compiler import check, load_rules, read_game
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
"""

USES = {
    "read": "row = target.row",
    "write": "target.mark = 5",
    "table": "row = distance(target, A1)",
    "team": "row = count(p for p in pieces where p.at == target)",     # none is a valid place: no check
    "guarded": "if target != none then { row = target.row; target.mark = 1 }",
    "guarded formula": "row = if target == none then 0 else target.row + 1",
}


def _spec(tmp_path, use: str, language: int = 1):
    (tmp_path / "game.yaml").write_text(SPEC.format(use=USES[use], language=f", language: {language}"
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
