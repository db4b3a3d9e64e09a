"""V. futbol (seed 002, Boris Makarov): the field, the seed's numbers and the options.

The expected values are written out from the seed (§2.4-2.9, §11.3, §11.5, §15.9, §17.4, §24.2,
§24.3) and RULES-BRIEF §3, not read from the spec, so a changed area, constant or rule in
``rulespecs/vfutbol/game.yaml`` fails here.
"""

from __future__ import annotations

import itertools
from pathlib import Path
import random

import pytest

from helpers import invoke, load_game, random_matches, run_scenarios

from rulecraft.compiler import read_game
from rulecraft.runtime.bots import GreedyBot
from rulecraft.runtime.scenario import Scenario, run_scenario
from rulecraft.runtime.seeding import chance_outcome

GOLDEN = Path(__file__).with_name("golden") / "vfutbol-play.txt"
GOLDEN_LINES = 40
# every option at each of its values (integers at both ends), the others at their defaults
OPTION_VALUES = {"moves_per_team": (30, 90), "match_end": ("all_moves", "first_goal", "goal_count"),
                 "goal_target": (1, 9), "loss_check": ("every_tempo", "end_of_move"),
                 "keeper_reach": ("goal_area", "penalty_area"), "post_rebound": (False, True)}


def _area(name: str) -> set[str]:
    board = read_game("vfutbol").board
    return {board.spaces[i] for i in board.areas[name]}


def test_the_field_has_418_cells_inside_a_one_cell_ring():
    """§2.4, §17.4: 22 × 19 = 418 cells; §10.7: one cell beyond the lines (RULES-BRIEF §3.7 item 20)."""
    field = _area("field")
    assert len(field) == 22 * 19 == 418
    assert {"B2", "T2", "B23", "T23"} <= field and not {"A2", "U2", "B1", "B24"} & field
    assert len(_area("outside")) == 24 * 21 - 418


def test_goals_areas_and_circle_have_the_seeds_sizes():
    """§2.6 goal 3 cells, §2.7 goal area 2 × 5, §2.8 penalty area 4 × 9, §2.9 circle of radius 2."""
    assert _area("host_goal") == {"J1", "K1", "L1"} and _area("guest_goal") == {"J24", "K24", "L24"}
    for side in ("host", "guest"):
        assert len(_area(f"{side}_goal_area")) == 2 * 5
        assert len(_area(f"{side}_penalty_area")) == 4 * 9
    assert len(_area("centre_circle")) == 12
    assert _area("middle_rows") == {f"{c}{r}" for c in "BCDEFGHIJKLMNOPQRST" for r in (12, 13)}


def test_the_seeds_numbers_are_named_constants():
    """§10.5 four tempi, §11.2 short kick 4, §11.3 long kick 4 + die, §11.5 counter 4/3, §15.9 twelve tempi, §17.27 three free tempi."""
    constants = read_game("vfutbol").constants
    assert {k: constants[k] for k in ("tempi_per_move", "short_reach", "long_base", "counter_strong",
                                      "counter_weak", "wasting_tempi", "free_tempi")} == \
        {"tempi_per_move": 4, "short_reach": 4, "long_base": 4, "counter_strong": 4, "counter_weak": 3,
         "wasting_tempi": 12, "free_tempi": 3}


def test_the_scenarios_pass_with_the_seeds_worked_examples():
    """VF-EX-01 (28 comes on with strength 8), VF-EX-02 (29 with 9), VF-EX-03 (slide tackle, trip,
    second yellow), VF-EX-04 (7, 10, 5 cells) and a legal and a refused variant of each rule."""
    assert run_scenarios("vfutbol") >= 20
    ids = {path.stem for path in (Path(__file__).parents[1] / "rulespecs/vfutbol/scenarios").glob("*.yaml")}
    assert "ex01_ex04_worked_examples" in ids


def test_a_long_kick_rolls_one_fair_d6():
    """§11.3: the long kick's die is a d6, each face 1/6 (RULES-BRIEF §3.7 item 28: one die only)."""
    game = load_game("vfutbol", {"moves_per_team": 30})
    for seed in range(40):
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert [p for _, p in outcomes] == pytest.approx([1 / 6] * 6)
                assert [state.action_notation(a) for a, _ in outcomes] == ["d6=1", "d6=2", "d6=3", "d6=4", "d6=5", "d6=6"]
                return
            state.apply_unchecked(rng.choice(state.legal_actions()))
    pytest.fail("no random match of 40 reached a die")


@pytest.mark.parametrize("name, value", [(n, v) for n, values in OPTION_VALUES.items() for v in values])
def test_each_option_value_plays_a_full_random_match(name, value):
    """A full random match per option value, every invariant at every ply (30 moves a team, the
    shortest match, unless the value is the match length itself)."""
    game = load_game("vfutbol", {"moves_per_team": 30, name: value})
    state, rng = game.new_initial_state(), random.Random(7)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_unchecked(chance_outcome(state, 7))
        else:
            state.apply_unchecked(rng.choice(state.legal_actions()))
        assert not game.broken_invariants(state)
    assert not state.is_truncated()


@pytest.mark.slow
def test_the_full_grid_of_options_plays():
    names = list(OPTION_VALUES)
    for values in itertools.product(*OPTION_VALUES.values()):
        options = dict(zip(names, values))
        if options["moves_per_team"] == 90:
            options["moves_per_team"] = 31   # the far end is covered above; the grid checks combinations
        random_matches(load_game("vfutbol", options), 1)


@pytest.mark.slow
def test_a_thousand_random_matches_end_below_the_ply_bound():
    """1,000 random matches: every invariant after every ply, no dead end, none at max_plies."""
    game = load_game("vfutbol")
    longest = random_matches(game, 1000)
    print(f"vfutbol: the longest of 1,000 random matches has {longest} plies "
          f"(limits: max_plies {game.rules.max_plies})")


def test_the_play_by_play_has_one_line_per_tempo():
    """Each step names team, figure and from → to; each kick its type and the cells it crossed."""
    result = invoke("play", "vfutbol", "--seed", 1, "--bot", "random", "-O", "moves_per_team=30")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "The hosts are drawn by lot; the field has 418 cells" in lines
    assert any(line.startswith("hosts player") and " → " in line for line in lines)
    assert any(" kick, " in line and " crossed" in line for line in lines)
    assert any(line.startswith("Full time: hosts ") for line in lines)


def _first_lines(output: str) -> str:
    return "\n".join(output.splitlines()[:GOLDEN_LINES]) + "\n"


@pytest.mark.slow
def test_play_seed_1_matches_its_golden_first_40_lines(request):
    """`rulecraft play vfutbol --seed 1` plays a full match; its first 40 lines are recorded."""
    result = invoke("play", "vfutbol", "--seed", 1)
    assert result.exit_code == 0, result.output
    assert "Full time: hosts " in result.output
    if request.config.getoption("--update-golden"):
        GOLDEN.write_text(_first_lines(result.output), encoding="utf-8")
    assert _first_lines(result.output) == GOLDEN.read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_person_plays_the_hosts_quits_and_resumes(tmp_path):
    log = tmp_path / "vf.log"
    first = invoke("play", "vfutbol", "--human", "hosts", "--seed", 2, "--log", str(log),
                   input="place on K10\nq\n")
    assert first.exit_code == 0, first.output
    second = invoke("play", "vfutbol", "--resume", str(log), "--human", "hosts", input="q\n")
    assert second.exit_code == 0, second.output
    assert invoke("replay", str(log)).exit_code == 0


def _greedy_choice(ball: str, pieces: dict) -> str:
    """The notation of the greedy bot's action when the hosts attack in open play, at the first
    tempo of their move after the three free ones (the ball on ``ball``, only ``pieces`` on the field)."""
    position = {"pieces": pieces, "phase": "move",
                "fields": {"to_move": "hosts", "attacker": "hosts", "restart_kind": "no_restart", "fresh": 3,
                           "ball": ball}}
    state = run_scenario(load_game("vfutbol"), Scenario("bot", "bot", "17", "", position=position))[0].state
    return state.action_notation(GreedyBot().choose(state, random.Random(1)))


def test_the_greedy_bot_shoots_when_a_short_kick_reaches_the_goal():
    """Rule 11.2: a short kick lands in the goal from up to four cells; the bot takes the goal."""
    pieces = {"hosts GK1": "K2", "hosts player9": "K20", "guests GK1": "H23", "guests player2": "R15"}
    assert _greedy_choice("K21", pieces) in {f"hosts player9 short kick 3 {dc}" for dc in (-1, 0, 1)}


def test_the_greedy_bot_carries_the_ball_towards_the_goal():
    """In midfield with nobody near, the attacking bot kicks the ball forward (towards row 23)."""
    pieces = {"hosts GK1": "K2", "hosts player9": "K11", "hosts player10": "K14", "guests GK1": "K23",
              "guests player2": "B20"}
    notation = _greedy_choice("K12", pieces)
    assert notation.startswith("hosts player9 short kick ") and int(notation.split()[-2]) > 0, notation
