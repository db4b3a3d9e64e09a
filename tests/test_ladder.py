"""The bot ladder: the Wilson interval against hand-computed values, a small tic-tac-toe ladder
on the command line (the same for any --jobs), bad rungs and other games refused cleanly, and
(slow) every rung of a small ladder holding on the example games."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from rulecraft.runtime.ladder import ladder_problem, run_ladder, wilson_interval

from helpers import invoke, load_game
from test_cli import assert_clean_failure


def test_wilson_interval_known_values():
    """By hand with z = 1.96 and n = 10: 0 of 10 gives (0, 0.3842/1.3842 = 0.2775); 5 of 10
    gives 0.5 ± 1.416 · sqrt(0.025 + 0.0096) = (0.2366, 0.7634); 10 of 10 gives (0.7225, 1)."""
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-4)
    assert wilson_interval(5, 10) == pytest.approx((0.23659, 0.76341), abs=1e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.72247, 1.0), abs=1e-4)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_ladder_table_same_for_any_jobs(tmp_path):
    outputs = []
    for jobs in (1, 2):
        path = tmp_path / f"ladder{jobs}.json"
        result = invoke("ladder", "tictactoe", "--games", "4", "--rungs", "random,mcts:30",
                        "--jobs", str(jobs), "--json", path)
        assert result.exit_code == 0, result.output
        assert "mcts:30" in result.output and "95 % interval" in result.output
        outputs.append(json.loads(path.read_text(encoding="utf-8")))
    assert outputs[0] == outputs[1]
    rung = outputs[0]["rungs"][0]
    assert rung["wins"] + rung["draws"] + rung["losses"] == 4


@pytest.mark.parametrize("rungs, fragment", [("random,foo", "unknown bot 'foo'"),
                                             ("random", "at least two rungs"),
                                             ("random,home=greedy", "one bot for both sides"),
                                             ("random,mcts:0", "whole number of iterations")])
def test_bad_rungs_refused(rungs, fragment):
    assert_clean_failure(invoke("ladder", "tictactoe", "--rungs", rungs), "RC107", fragment)


def test_only_two_team_games():
    three = SimpleNamespace(id="trio", num_teams=3)
    assert "two-team game" in ladder_problem(three, ["random", "greedy"])


@pytest.mark.slow
@pytest.mark.parametrize("name, rungs, games", [
    ("tictactoe", ["random", "greedy", "mcts:50", "mcts:400"], 20),
    ("pig", ["random", "greedy", "mcts:50", "mcts:400"], 20),
    ("breakthrough", ["random", "greedy", "mcts:50", "mcts:400"], 10),
])
def test_every_rung_holds(name, rungs, games):
    """Ladders random < greedy < mcts:50 < mcts:400, 20 matches per rung (10 for breakthrough,
    whose matches are long), seed 0, in one process."""
    results = run_ladder(lambda: load_game(name), rungs, games, 0, jobs=1)
    assert all(rung.holds for rung in results), results
