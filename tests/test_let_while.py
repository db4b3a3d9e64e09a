"""``let`` names and bounded ``while`` loops (docs/spec-reference.md, "Statements" and "Local
names"): what a designer writes, what the engine then does, and the refusals at their positions."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st
import pytest

from helpers import assert_same_state, load_game, spec_folder
from rulecraft.compiler import load_rules
from rulecraft.errors import RuleFault, SpecError

HALVING = """
game: {id: halving, title: Halving, teams: [a, b]}
options:
  rounds: {type: int, default: 9, min: 1, max: 20}
state:
  m: int
  halvings: int
  started: int
turn:
  - {phase: p, rule: "1", choose: halve, by: a}
actions:
  halve:
    rule: "1"
    params: {n: "1..500"}
    effect: |
      m = n;
      let start = m;
      while m > 1 limit rounds do { m = m // 2; halvings += 1 };
      started = let twice = start * 2; twice // 2;
      finish
end: {rule: "1", returns: "if team == a then halvings else started"}
limits: {max_plies: 2}
"""


@pytest.fixture(scope="module")
def halving(tmp_path_factory):
    folder = spec_folder(tmp_path_factory.mktemp("halving"), HALVING)
    return folder


def chosen(game, n: int):
    state = game.new_initial_state()
    state.apply(next(a for a in state.legal_actions() if state.action_notation(a) == f"halve {n}"))
    return state


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 500))
def test_a_while_loop_runs_while_its_condition_holds_and_a_let_keeps_its_first_value(halving, n):
    state = chosen(load_game(halving), n)
    assert state.returns() == [n.bit_length() - 1, n]


def test_a_while_loop_that_reaches_its_limit_is_refused_naming_its_line(halving):
    game = load_game(halving, {"rounds": 5})
    assert chosen(game, 63).returns()[0] == 5          # six values, five halvings: within the limit
    state = game.new_initial_state()
    before = state.clone()
    action = next(a for a in state.legal_actions() if state.action_notation(a) == "halve 64")
    with pytest.raises(RuleFault) as error:
        state.apply(action)
    line = next(i for i, text in enumerate(HALVING.splitlines(), 1) if "while m > 1" in text)
    assert f":{line}:" in str(error.value) and "limit of 5 rounds" in str(error.value)
    assert error.value.code == "RC405"
    assert_same_state(state, before, "a refused action")


@pytest.mark.parametrize("old, new, code, message", [
    ("let start = m", "let halvings = m", "RC325", "'halvings' already names something here"),
    ("let twice", "let n", "RC325", "'n' already names something here"),
    ("limit rounds", "limit rounds - rounds", "RC318", "a while loop's limit is from 1 to 1,000,000, not 0"),
    ("limit rounds", "limit m", "RC318", "a while loop's limit must be fixed when compiling"),
    ("start * 2", "start * 2 > 1", "RC310", None),
])
def test_let_and_while_mistakes_are_refused_where_they_are_written(tmp_path, old, new, code, message):
    assert old in HALVING
    (tmp_path / "game.yaml").write_text(HALVING.replace(old, new), encoding="utf-8")
    with pytest.raises(SpecError) as error:
        load_rules(tmp_path, use_cache=False)
    assert error.value.code == code
    if message:
        assert error.value.message.startswith(message)
    line = next(i for i, text in enumerate(HALVING.replace(old, new).splitlines(), 1) if new in text)
    assert error.value.position.line == line
    assert error.value.hint is not None or code == "RC310"
