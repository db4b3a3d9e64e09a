"""One conformance suite over every game under examples/ and rulespecs/ (adding a game adds no
test code), and the same suite on a throwaway game written here, which no runtime code knows."""

from __future__ import annotations

import pytest

from rulecraft.compiler import game_names

from helpers import load_game, run_conformance, run_scenarios

GAMES = game_names()

# Each game gets this many random playouts by default, stopping early once this many plies
# have been checked (a long game gets a single playout); the slow run plays many more.
PLAYOUTS, STEP_BUDGET = 20, 800
SLOW_PLAYOUTS = 100

DASH_SPEC = """\
# Dash: a throwaway race invented for the test suite. Two runners on a track of eight spaces;
# roll a three-sided die, then run that far or rest; landing on the other runner sends it home.
game:
  id: dash
  title: Dash
  teams: [red, blue]

board:
  spaces:
    - {id: s0, pos: 0}
    - {id: s1, pos: 1}
    - {id: s2, pos: 2}
    - {id: s3, pos: 3}
    - {id: s4, pos: 4}
    - {id: s5, pos: 5}
    - {id: s6, pos: 6}
    - {id: s7, pos: 7}
  adjacent: "abs(a.pos - b.pos) == 1"

pieces:
  roster:
    - {team: each, at: s0}

dice:
  d3: {faces: [1, 2, 3]}

state:
  to_move: {type: team, initial: red}
  rolled: {type: int}
  turns: {type: int}
  winner: {type: team}

turn:
  - phase: race
    rule: "1"
    steps:
      - roll: d3
        into: rolled
      - choose: [run, rest]
        by: to_move

actions:
  run:
    rule: "2"
    params: {to: space}
    legal:
      - if: "to.pos == min(position(actor) + rolled, 7)"
        rule: "2"
        reason: "a runner runs exactly the roll, stopping at the finish"
    effect: |
      for p in to.pieces where p.team != actor do { move(p, s0) };
      move(actor.pieces[0], to);
      if to == s7 then { winner = actor; finish };
      to_move = actor.opponent;
      turns += 1
    notation: "run to {to}"
  rest:
    rule: "3"
    legal:
      - {if: "rolled < 3", rule: "3", reason: "a runner who rolls 3 must run"}
    effect: "to_move = actor.opponent; turns += 1"

define:
  position(t): "t.pieces[0].at.pos"

triggers:
  - rule: "4"
    when: "turns >= 40"
    do: finish

end:
  rule: "4"
  returns: "if winner == none then 0 else if winner == team then 1 else -1"

evaluation: "position(team) - position(team.opponent)"

invariants:
  - name: runners stay on the track
    holds: "all(p.at != none for p in pieces)"

limits:
  max_plies: 80
"""

DASH_SCENARIO = """\
id: bump
title: Landing on the other runner sends it home
rule: "2"
position:
  pieces: {red 1: s2, blue 1: s4}
steps:
  - roll: 2
  - expect: {to_act: red, legal: ["run to s4", rest]}
  - do: run to s4
  - expect: {to_act: chance}
  - roll: 3
  - refuse: rest
    rule: "3"
  - do: run to s3
  - expect: {to_act: chance}
"""


@pytest.mark.parametrize("game", GAMES)
def test_conformance(game):
    run_conformance(game, PLAYOUTS, step_budget=STEP_BUDGET)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_conformance_many_playouts(game):
    run_conformance(game, SLOW_PLAYOUTS, first_seed=1000)


def test_games_are_found():
    assert {"tictactoe", "pig"} <= set(GAMES)


@pytest.fixture(scope="module")
def dash(tmp_path_factory):
    """A folder holding the throwaway game Dash and one scenario of it."""
    folder = tmp_path_factory.mktemp("throwaway") / "dash"
    (folder / "scenarios").mkdir(parents=True)
    (folder / "game.yaml").write_text(DASH_SPEC, encoding="utf-8")
    (folder / "scenarios" / "bump.yaml").write_text(DASH_SCENARIO, encoding="utf-8")
    return folder


def test_conformance_of_a_game_the_runtime_never_saw(dash):
    run_conformance(dash, PLAYOUTS, step_budget=STEP_BUDGET)
    assert run_scenarios(dash) == 1


def test_throwaway_game_plays_by_its_own_rules(dash):
    """Its bump rule, its die and its finish line reach the runtime only through its spec."""
    game = load_game(dash)
    state = game.new_initial_state()
    assert game.teams == ("red", "blue") and state.is_chance_node()
    assert [probability for _, probability in state.chance_outcomes()] == [1 / 3] * 3
    state.apply(2)                                    # red rolls 3: resting is forbidden
    assert [state.action_notation(a) for a in state.legal_actions()] == ["run to s3"]
