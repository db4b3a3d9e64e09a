"""Street Soccer: the facts of the online guide (seed 003) and of RULES-BRIEF §4, written out here.

The expected values come from the seed and the brief (the default geometry: a 10 × 6 pitch, side
fields A and H, goal lines D1/E1 and D10/E10, the kick-off circle D5/E5 + D6/E6, penalty areas
C-F × 1-2 and 9-10), not from the spec, so a changed board, order or option fails here.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from helpers import invoke, load_game, random_matches

from rulecraft.compiler import read_game
from rulecraft.runtime.seeding import chance_outcome

GAME = "street-soccer"
# the options an int takes at both ends, each boolean and choice at every value (issue 22)
OPTION_VALUES = {
    "length": [6, 16], "width": [4, 10], "box_depth": [1, 3], "kicker_bonus": [0, 1],
    "regular_moves": [1, 50], "golden_moves": [0, 20], "walling": ["any_figures", "own_figures"],
}


def _names(board, area):
    return {board.spaces[i] for i in board.areas[area]}


def _legal(state, game):
    return [game.action_notation(a) for a in state.legal_actions()]


def _play_random(game, seed, *, check=None):
    """One seeded random match (decisions uniform, dice from the match sampler); ``check(state)``
    runs at every state. Returns the terminal state."""
    state, rng = game.new_initial_state(), random.Random(seed)
    while not state.is_terminal():
        if check:
            check(state)
        if state.is_chance_node():
            state.apply(chance_outcome(state, seed))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


def test_the_default_pitch_is_10_by_6_with_a_side_field_column_beyond_each_touchline():
    board = read_game(GAME).board
    assert len(board.spaces) == 10 * 8
    assert _names(board, "side_fields") == {f"{c}{r}" for c in "AH" for r in range(1, 11)}
    assert _names(board, "home_goal_line") == {"D1", "E1"}
    assert _names(board, "away_goal_line") == {"D10", "E10"}
    assert _names(board, "home_circle") == {"D5", "E5"}
    assert _names(board, "away_circle") == {"D6", "E6"}
    assert _names(board, "home_box") == {f"{c}{r}" for c in "CDEF" for r in (1, 2)}
    assert _names(board, "away_box") == {f"{c}{r}" for c in "CDEF" for r in (9, 10)}
    index = {name: i for i, name in enumerate(board.spaces)}
    assert {board.spaces[n] for n in board.neighbors[index["B5"]]} == {"A5", "C5", "B4", "B6"}


def test_the_geometry_follows_its_options():
    board = read_game(GAME, {"length": 16, "width": 10, "box_depth": 3}).board
    assert len(board.spaces) == 16 * 12
    assert _names(board, "home_goal_line") == {"F1", "G1"}
    assert _names(board, "away_circle") == {"F9", "G9"}
    assert _names(board, "away_box") == {f"{c}{r}" for c in "CDEFGHIJ" for r in (14, 15, 16)}


def test_placement_goes_a1_b2_a2_b2_a2_b1_and_ends_with_every_placement_rule_met():
    game = load_game(GAME)
    for seed in range(20):
        state, rng, order = game.new_initial_state(), random.Random(seed), []
        while state.is_terminal() is False and not state.is_chance_node():
            order.append(game.rules.teams[state.current_player()])
            state.apply(rng.choice(state.legal_actions()))
        assert order == ["home", "away", "away", "home", "home", "away", "away", "home", "home", "away"]
        at = {label: game.rules.spaces[state.value("at", i)] for i, label in enumerate(game.rules.piece_labels)}
        for team, line, own, other, own_half_rows in (
                ("home", {"D1", "E1"}, {"D5", "E5"}, {"D6", "E6"}, range(1, 6)),
                ("away", {"D10", "E10"}, {"D6", "E6"}, {"D5", "E5"}, range(6, 11))):
            assert at[f"{team} GK"] in line
            players = [at[f"{team} player{n}"] for n in range(1, 5)]
            rows = [int(z[1:]) for z in players]
            assert any(z in own for z in players) and not any(z in other for z in players)
            assert sum(r in own_half_rows for r in rows) >= 2 and any(r not in own_half_rows for r in rows)
            assert not any(z[0] in "AH" for z in players)


def test_the_kick_off_goes_to_the_higher_roller_with_the_difference():
    """Both dice: each face 1/6; a tie rolls again; the kick-off's pips are |a - b| with
    probability 2(6 - k)/30 given no tie."""
    game = load_game(GAME)
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_chance_node():
        state.apply(rng.choice(state.legal_actions()))
    assert [(a, pytest.approx(p)) for a, p in state.chance_outcomes()] == [(face, 1 / 6) for face in range(6)]
    pips = {}
    for a, b in itertools.product(range(6), repeat=2):
        after = state.clone()
        events: list = []
        after.apply(a)
        after.apply(b, events)
        if a == b:
            assert after.is_chance_node() and after.phase()[0] == "kickoff_roll"
            continue
        kickoff = [values for kind, _, values in events if kind == "kickoff"]
        assert kickoff == [{"team": 0 if a > b else 1, "pips": abs(a - b)}]
        pips[abs(a - b)] = pips.get(abs(a - b), 0) + 1
    assert {k: Fraction(n, 30) for k, n in pips.items()} == {k: Fraction(2 * (6 - k), 30) for k in range(1, 6)}


def test_the_play_by_play_shows_a_full_match_with_each_kick_field_by_field(tmp_path):
    log = tmp_path / "ss.log"
    result = invoke("play", GAME, "--seed", 1, "--log", str(log))
    assert result.exit_code == 0, result.output
    assert "game over" in result.output
    # each field of a kick on a line of its own, bends and team-mates' extensions marked
    assert re.search(r"\n +ball [A-H]\d+ → [A-H]\d+ · \d+ left\n", result.output)
    assert re.search(r"\n +ball [A-H]\d+ → [A-H]\d+ · bends · \d+ left\n", result.output)
    assert re.search(r"\n +(home|away) player\d on [A-H]\d+ carries it on: \+1, a new line", result.output)
    assert "placed on" in result.output and "kicks off with" in result.output
    replayed = invoke("replay", str(log))
    assert replayed.exit_code == 0 and "game over" in replayed.output, replayed.output


def test_a_person_plays_home_quits_and_resumes(tmp_path):
    log = tmp_path / "human.log"
    first = invoke("play", GAME, "--human", "home", "--seed", 2, "--log", str(log),
                   input="place home player1 D5\nq\n")
    assert first.exit_code == 0, first.output
    moves = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()[1:]]
    assert moves[0]["actor"] == "home" and moves[0]["notation"] == "place home player1 D5"
    second = invoke("play", GAME, "--resume", str(log), "--human", "home", input="q\n")
    assert second.exit_code == 0, second.output
    assert invoke("replay", str(log)).exit_code == 0


def test_the_conceding_keepers_restart_counts_every_roll_as_at_least_two():
    """From the position of scenario SS-RESTART-MINIMUM: each face f gives max(f, 2) pips."""
    from rulecraft.runtime.scenario import load_scenarios, run_scenario
    from dataclasses import replace
    game = load_game(GAME)
    scenario = next(s for s in load_scenarios("rulespecs/street-soccer") if s.id == "SS-RESTART-MINIMUM")
    steps = [step for step in scenario.steps if "do" in step]
    state = run_scenario(game, replace(scenario, steps=[{"roll": 4}] + steps))[-1].state
    assert state.is_chance_node()
    for face in range(6):
        after = state.clone()
        after.apply(face)
        assert after.value("pips") == max(face + 1, 2)
        assert after.value("budget") == max(face + 1, 2) + 1


@pytest.mark.parametrize("name,value", [(n, v) for n, vs in OPTION_VALUES.items() for v in vs])
def test_each_option_value_plays_a_full_random_match(name, value):
    game = load_game(GAME, {name: value})
    state = _play_random(game, 7)
    assert state.is_terminal() and not state.is_truncated()


@pytest.mark.parametrize("penalty,league", list(itertools.product([False, True], repeat=2)))
def test_penalty_and_league_pairwise_play_full_matches_with_their_ending(penalty, league):
    game = load_game(GAME, {"penalty": penalty, "league": league, "regular_moves": 3, "golden_moves": 1})
    shootouts = draws = 0
    for seed in range(12):
        state = _play_random(game, seed)
        returns = state.returns()
        shootouts += state.value("shootout")
        draws += returns[0] == 0
        if league:
            assert not state.value("shootout")
        if penalty and not league:
            assert returns[0] != 0 or state.value("penalties", 0) == state.value("penalties", 1)
    if penalty and not league:
        assert shootouts > 0
    if not penalty:
        assert shootouts == 0


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10 ** 6), walling=st.sampled_from(["any_figures", "own_figures"]),
       bonus=st.integers(0, 1))
def test_between_kicks_no_field_player_stands_on_his_goal_line_and_one_at_most_in_his_box(seed, walling, bonus):
    game = load_game(GAME, {"walling": walling, "kicker_bonus": bonus, "regular_moves": 8})
    rules = game.rules
    line = {"home": {"D1", "E1"}, "away": {"D10", "E10"}}
    box = {"home": {f"{c}{r}" for c in "CDEF" for r in (1, 2)},
           "away": {f"{c}{r}" for c in "CDEF" for r in (9, 10)}}

    def check(state):
        if state.value("kicking"):
            return
        for team in ("home", "away"):
            players = [rules.spaces[state.value("at", i)] for i, label in enumerate(rules.piece_labels)
                       if label.startswith(f"{team} player") and state.value("at", i) >= 0]
            assert not set(players) & line[team]
            assert len(set(players) & box[team]) <= 1
    assert _play_random(game, seed, check=check).is_terminal()


@pytest.mark.slow
def test_the_full_option_grid_plays():
    names = list(OPTION_VALUES)
    for values in itertools.product(*(OPTION_VALUES[n] for n in names)):
        options = dict(zip(names, values))
        if options["regular_moves"] == 50:
            options["regular_moves"] = 25          # the grid's cost; 50 is played on its own above
        state = _play_random(load_game(GAME, options), 3)
        assert state.is_terminal() and not state.is_truncated(), options


@pytest.mark.slow
def test_a_thousand_random_matches_end_below_the_ply_bound():
    """1,000 random matches (seeded): every invariant after every ply, no dead end, and none
    reaches limits: max_plies."""
    game = load_game(GAME)
    longest = random_matches(game, 1000)
    print(f"street-soccer: the longest of 1,000 random matches has {longest} plies "
          f"(limits: max_plies {game.rules.max_plies})")
