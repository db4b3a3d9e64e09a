"""A spec formula that fails while the game is set up or played is an RC error naming where the
rules were (the phase, or the section: triggers, end: returns, evaluation) and the spec line of
the formula, and the state is left as it was — through the engine and through the command line."""

from __future__ import annotations

import pytest

from rulecraft.compiler import load_rules
from rulecraft.errors import RuleFailure, RuleFault
from rulecraft.runtime.engine import Game
from helpers import invoke, observables, spec_folder

# setup makes total 1; each bump adds 1; at 3 the game is over. Each test swaps one formula for
# one that fails once total is 2 (after the first bump) or 3 (at the end).
SPEC = """\
game:
  id: failing
  title: Failing
  version: "1.0"
  teams: [first, second]

state:
  zero: {type: int}
  total: {type: int}
  mover: {type: team, initial: first}

setup:
  - phase: prepare
    rule: "1"
    do: "total = 1"

turn:
  - phase: play
    rule: "2"
    when: "total < 5"
    choose: [bump]
    by: mover

actions:
  bump:
    rule: "3"
    effect: "total += 1"

triggers:
  - rule: "4"
    when: "total >= 3"
    do: finish

end:
  rule: "5"
  returns: "0"
  range: [-1, 1]

evaluation: "total"

limits:
  max_plies: 10
"""


def _game(tmp_path, old: str, new: str) -> tuple[Game, int]:
    """The game of SPEC with ``old`` replaced by ``new``, and the spec line holding ``new``."""
    assert SPEC.count(old) == 1
    text = SPEC.replace(old, new)
    line = next(number for number, content in enumerate(text.splitlines(), 1) if new in content)
    return Game(load_rules(spec_folder(tmp_path, text))), line


def _assert_names(error: RuleFailure, code: str, section: str, line: int) -> None:
    shown = str(error)
    assert error.code == code and f"[{code}]" in shown
    assert f"in {section}" in shown and f"game.yaml:{line}:" in shown, shown
    assert "the state is unchanged" in shown


@pytest.mark.parametrize("old, new, section", [
    ('when: "total >= 3"', 'when: "total // (2 - total) >= 3"', "triggers"),
    ('when: "total < 5"', 'when: "3 // (2 - total) < 5"', "phase play (rule 2)"),
    ('effect: "total += 1"', 'effect: "total += 1 // (1 - total)"', "phase play (rule 2)"),
    ('by: mover', 'by: "first(t in teams where total < 2)"', "phase play (rule 2)"),
    ('returns: "0"', 'returns: "1 // (3 - total)"', "end: returns"),
])
def test_a_failing_formula_of_play_refuses_the_action_and_keeps_the_state(tmp_path, old, new, section):
    game, line = _game(tmp_path, old, new)
    state = game.new_initial_state()
    if "returns" in old:                         # the returns are computed at the end
        state.apply(state.legal_actions()[0])
    seen = observables(state)
    before = state.clone()
    with pytest.raises(RuleFailure) as raised:
        state.apply(state.legal_actions()[0], events=[])
    code = "RC405" if "by:" in old else "RC404"
    _assert_names(raised.value, code, section, line)
    assert state == before and observables(state) == seen


def test_by_giving_none_says_so(tmp_path):
    game, line = _game(tmp_path, "by: mover", 'by: "first(t in teams where total < 2)"')
    state = game.new_initial_state()
    with pytest.raises(RuleFault) as raised:
        state.apply(state.legal_actions()[0])
    assert "by: gave none, not a team" in str(raised.value)


@pytest.mark.parametrize("old, new, section, column", [
    ('do: "total = 1"', 'do: "total = 1 // zero"', "phase prepare (rule 1)", 10),
    ("total: {type: int}", 'total: {type: int, initial: "1 // zero"}', "the initial values of state", 32),
])
def test_a_failing_setup_names_its_phase_or_section_and_line(tmp_path, old, new, section, column):
    game, line = _game(tmp_path, old, new)
    with pytest.raises(RuleFailure) as raised:
        game.new_initial_state()
    _assert_names(raised.value, "RC404", section, line)
    assert "ZeroDivisionError" in str(raised.value)
    assert raised.value.position.column == column       # the formula's first character


def test_failing_returns_at_the_end_and_evaluation_keep_the_state(tmp_path):
    game, line = _game(tmp_path, 'returns: "0"', 'returns: "1 // (3 - total)"')
    state = game.new_initial_state()
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])         # the game ends; its returns are asked later
    assert state.is_terminal()
    before = state.clone()
    with pytest.raises(RuleFailure) as raised:
        state.returns()
    _assert_names(raised.value, "RC404", "end: returns", line)
    assert state == before
    game, line = _game(tmp_path, 'evaluation: "total"', 'evaluation: "1 // (2 - total)"')
    state = game.new_initial_state()
    state.apply(state.legal_actions()[0])
    with pytest.raises(RuleFailure) as raised:
        state.evaluation(0)
    _assert_names(raised.value, "RC404", "evaluation", line)


@pytest.mark.parametrize("old, new", [
    ('do: "total = 1"', 'do: "total = 1 // zero"'),
    ('when: "total >= 3"', 'when: "total // (2 - total) >= 3"'),
    ('by: mover', 'by: "first(t in teams where total < 2)"'),
])
def test_play_prints_the_positioned_error_without_a_traceback(tmp_path, old, new):
    text = SPEC.replace(old, new)
    line = next(number for number, content in enumerate(text.splitlines(), 1) if new in content)
    result = invoke("play", spec_folder(tmp_path, text), "--seed", 1)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert f"game.yaml:{line}:" in result.output and "the state is unchanged" in result.output
    if "by:" not in old:                            # RC404 shows the line and a caret
        assert f"{line:>4} | " in result.output and "^" in result.output
