"""Every match is bounded: the runtime enforces ``limits: max_plies``. A match that reaches it
ends there with the spec's ``on_limit:`` returns (the adapters report a truncation); a spec that
declares none gets RC406 naming its ``limits:`` line, and every command returns."""

from __future__ import annotations

import random

import pytest

from rulecraft.compiler import load_rules
from rulecraft.errors import PlayError
from rulecraft.runtime.engine import Game

from helpers import invoke

ENDLESS = """\
game: {{id: endless, title: Endless, teams: [a, b]}}
dice: {{d2: {{faces: [1, 2]}}}}
state:
  to_move: {{type: team, initial: a}}
  total: {{type: int}}
turn:
  - {{phase: roll, rule: "1", roll: d2, into: total}}
  - {{phase: move, rule: "2", choose: [left, right], by: to_move}}
  - {{phase: pass, rule: "3", do: "to_move = to_move.opponent"}}
actions:
  left: {{rule: "2", effect: "total += 1"}}
  right: {{rule: "2", effect: "total -= 1"}}
end: {{rule: "4", returns: "0"}}
limits:
  max_plies: 30{on_limit}
"""
SCENARIO = """\
id: endless-run
title: Run into the limit
steps:
""" + "".join("  - {roll: 1}\n  - {do: left}\n" for _ in range(20))


def _folder(tmp_path, on_limit: str | None):
    text = ENDLESS.format(on_limit=f'\n  on_limit: "{on_limit}"' if on_limit else "")
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "scenarios").mkdir(exist_ok=True)
    (tmp_path / "scenarios" / "run.yaml").write_text(SCENARIO, encoding="utf-8")
    return tmp_path


def _play_out(game: Game, seed: int):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_a_match_that_reaches_the_limit_ends_there_with_the_declared_returns(tmp_path):
    game = Game(load_rules(_folder(tmp_path, "if team == a then 1 else -1")))
    state = _play_out(game, 1)
    assert state.ply == 30 and state.is_truncated()
    assert state.returns() == [1.0, -1.0] and state.legal_actions() == []


def test_without_on_limit_reaching_the_limit_is_an_error_naming_the_line(tmp_path):
    game = Game(load_rules(_folder(tmp_path, None)))
    rng = random.Random(2)
    state = game.new_initial_state()
    with pytest.raises(PlayError) as raised:
        while True:
            state.apply(rng.choice(state.legal_actions()))
    assert raised.value.code == "RC406"
    assert "game.yaml:14:1: " in raised.value.message and "on_limit" in raised.value.message
    assert state.ply == 29 and not state.is_terminal()          # the refused ply left no trace


@pytest.mark.parametrize("on_limit", ["0", None])
def test_play_simulate_and_scenario_return(on_limit, tmp_path):
    folder = _folder(tmp_path, on_limit)
    results = [invoke("play", folder, "--seed", 1, "--bot", "random"),
               invoke("simulate", folder, "--games", 3, "--seed", 1),
               invoke("scenario", folder)]
    for result in results:
        assert "Traceback" not in result.output
    if on_limit:
        assert results[0].exit_code == 0 and results[1].exit_code == 0
    else:
        assert all(r.exit_code == 1 for r in results[:2])
        assert all("game.yaml:14:1: the match reached limits: max_plies" in r.output for r in results)


def test_the_adapters_report_the_cut(tmp_path):
    pettingzoo = pytest.importorskip("rulecraft.runtime.adapters.pettingzoo")
    pyspiel = pytest.importorskip("pyspiel")
    from rulecraft.runtime.adapters.openspiel import register_game
    folder = _folder(tmp_path, "0")
    game = Game(load_rules(folder))
    env = pettingzoo.RulecraftAECEnv(game)
    env.reset(seed=1)
    while env.agents and not any(env.terminations.values()) and not any(env.truncations.values()):
        observation = env.observe(env.agent_selection)
        env.step(int(observation["action_mask"].nonzero()[0][0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    register_game("python_rulecraft_endless_limit", lambda params: game)
    spiel = pyspiel.load_game("python_rulecraft_endless_limit")
    state = spiel.new_initial_state()
    while not state.is_terminal():
        legal = state.chance_outcomes() if state.is_chance_node() else state.legal_actions()
        state.apply_action(legal[0][0] if state.is_chance_node() else legal[0])
    assert state.move_number() <= spiel.max_game_length() and state.returns() == [0.0, 0.0]
