"""A legality condition's reason with ``{formula}`` placeholders (docs/spec-reference.md,
"Legality"): the refusal a player meets quotes the spec's numbers as the options set them, and
placeholders that cannot be fixed when compiling are refused at their position."""

from __future__ import annotations

import pytest

from helpers import load_game, spec_folder
from rulecraft.compiler import load_rules
from rulecraft.errors import IllegalActionError, SpecError

COUNTING = """
game: {id: counting, title: Counting, teams: [a, b]}
options:
  most: {type: int, default: 2, min: 1, max: 9}
tables:
  step:
    rule: "1"
    keys: [1..2]
    values: {1: 1, 2: 3}
state:
  n: int
turn:
  - {phase: p, rule: "1", choose: add, by: a}
actions:
  add:
    rule: "1"
    params: {k: "1..2"}
    legal:
      - {if: "n + step[k] <= most", rule: "1", reason: "{{at most}} {most} in all; a step of {step[2]} is {step[2] - most} too many"}
    effect: "n += step[k]; if n == most then { finish }"
    notation: "add {k}"
end: {rule: "1", returns: "0"}
limits: {max_plies: 9}
"""


@pytest.fixture
def counting(tmp_path):
    return spec_folder(tmp_path, COUNTING)


def refusal(game) -> str:
    state = game.new_initial_state()
    with pytest.raises(IllegalActionError) as caught:
        state.apply(next(a for a in range(game.rules.num_distinct_actions) if game.action_notation(a) == "add 2"))
    return caught.value.message


@pytest.mark.parametrize("most, text", [(2, "{at most} 2 in all; a step of 3 is 1 too many"),
                                        (1, "{at most} 1 in all; a step of 3 is 2 too many")])
def test_a_refusal_quotes_the_numbers_as_the_options_and_tables_give_them(counting, most, text):
    assert refusal(load_game(counting, {"most": most})).endswith(f"forbidden by rule 1: {text}")


@pytest.mark.parametrize("reason, code, at, message", [
    ("only {n} so far", "RC356", "n}", "must be fixed when compiling, but this formula reads the game state"),
    ("at most {most", "RC372", "{most", "this '{' opens a placeholder that is never closed"),
    ("at most most}", "RC372", "}\"", "this '}' closes no placeholder"),
    ("at most { }", "RC372", "{ }", "an empty placeholder"),
    ("a step of {step[1] == 1}", "RC310", "step[1] ==", "a number is needed"),
])
def test_a_placeholder_that_is_no_fixed_number_is_refused_at_its_position(tmp_path, reason, code, at, message):
    """``at`` is the text the refusal points at, on the condition's line."""
    text = COUNTING.replace('"{{at most}} {most} in all; a step of {step[2]} is {step[2] - most} too many"',
                            f'"{reason}"')
    with pytest.raises(SpecError) as caught:
        load_rules(spec_folder(tmp_path, text), use_cache=False)
    error, line = caught.value, text.splitlines()[18]
    assert (error.code, error.position.line, error.position.column) == (code, 19, line.index(at) + 1)
    assert message in error.message
