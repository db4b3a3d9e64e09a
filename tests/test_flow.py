"""Structured flow (docs/spec-reference.md, "Structured flow: next, call and phases"): a phase's
``next:`` and ``call:`` steps, judged by what the engine does: which phases run, in which order,
and what the called phases change."""

from __future__ import annotations

import pytest

from helpers import spec_folder

from rulecraft.compiler import check, load_rules
from rulecraft.runtime.engine import Game

SPEC = """
game: {id: flows, title: Flows, teams: [a, b]}
dice:
  d6: {faces: [1, 2, 3, 4, 5, 6]}
state:
  pips: int
  total: int
  bonus: int
  visits: int
turn:
  - phase: roll
    rule: "1"
    steps:
      - roll: d6
        into: pips
      - call: score
      - call: score
        when: "pips == 6"
    next:
      - {if: "pips == 1", phase: last}
  - phase: skipped
    rule: "2"
    when: "false"
    do: "visits += 100"
    next: middle
  - phase: never
    rule: "3"
    do: "visits += 1000"
  - phase: middle
    rule: "4"
    do: "visits += 1"
  - phase: last
    rule: "5"
    do: "finish"
phases:
  - phase: score
    rule: "6"
    steps:
      - do: "bonus = 0"
      - do: "total += 1; bonus += 1; if bonus < 3 then { goto again }"
        label: again
end: {rule: "5", returns: "0"}
limits: {max_plies: 2}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = spec_folder(tmp_path_factory.mktemp("flows"), SPEC)
    return Game(load_rules(folder, use_cache=False)), folder


def _after_roll(game, face):
    state = game.new_initial_state()
    state.apply([o for o, _ in state.chance_outcomes()][face - 1])
    return state


def test_a_call_runs_the_called_phase_and_comes_back(game):
    state = _after_roll(game[0], 3)
    # one call of score (three rounds of its own loop), then the phase skipped by when: still
    # goes by its next: to middle, over the phase never; middle falls through to last
    assert state.is_terminal()
    assert state.value("total") == 3 and state.value("visits") == 1


def test_each_copy_of_a_called_phase_jumps_within_itself(game):
    state = _after_roll(game[0], 6)
    assert state.value("total") == 6 and state.value("visits") == 1


def test_the_first_true_case_of_next_wins(game):
    state = _after_roll(game[0], 1)
    assert state.is_terminal() and state.value("visits") == 0 and state.value("total") == 3


def test_structured_flow_gives_no_warning(game):
    _, warnings = check(game[1])
    assert [w.code for w in warnings if w.code == "RC378"] == []
