"""taktinen: the seed's tables T1-T5 as the seed prints them, and rules that are easy to get wrong.

The expected values below are written out from the rulebook (seed 000, §3.1, §4.4, §4.4.2, §4.6,
§5 and §5.5.2; RULES-BRIEF §1.6), not read from the spec, so a changed cell in the spec fails here.
"""

from __future__ import annotations

import shutil
import sys

import pytest

from rulecraft.compiler import find_game, load_rules, read_game
from rulecraft.runtime.engine import Game
from rulecraft.runtime.scenario import load_scenarios, run_scenario
from rulecraft.errors import ScenarioError

from helpers import play_with_undo_and_resume, random_matches

SEED_TABLES = {
    # §3.1: the eight tactics cards, defenders-midfielders-forwards
    "formation_cards": ((4, 4, 2), (4, 2, 4), (4, 3, 3), (4, 5, 1), (5, 3, 2), (3, 5, 2), (3, 4, 3), (5, 4, 1)),
    # §4.4 T1, by the balance of players in a zone: level, more, twice as many, fewer, half or less
    "T1": (0, 1, 2, -1, -2),
    # §4.4.2 T2, die faces 1-6
    "T2": ("yellow_and_free_kick_to_passive", "free_kick_to_passive", "only_passive_moves",
           "only_controlling_moves", "free_kick_to_controlling", "yellow_and_free_kick_to_controlling"),
    # §4.6 T3: more/fewer in the ball's zone, more/fewer in the penalty area, keeper absent
    "T3": (1, -1, 1, -1, 4),
    # §5: ball values of the restarts (open play, kick-off, free kick, corner, penalty, goal kick)
    "T4": (0, 3, 2, 1, 2, 2),
    # §5.5.2 T5: lowest winning roll; rows kick left/centre/right, columns keeper 1 / 2-5 / 6
    "T5": ((2, 2, 6), (1, 6, 1), (6, 2, 2)),
}

# §4.6 figure: the goal-attempt modifier of each zone (layout A reading, open question 1.2)
SEED_SHOT_ZONES = {"C5": 0, "C4": -2, "L4": -4, "R4": -4, "L3": -6, "R3": -6,
                   "C1": 0, "C2": -2, "L1": -4, "R1": -4, "L2": -6, "R2": -6}


def _neighbors(rules):
    """The precomputed adjacency of the generated module behind ``rules``."""
    return sys.modules[rules.initial_state.__module__].NEIGHBORS


def check_tables(rules) -> None:
    """Assert that the compiled tables hold the seed's values (AssertionError names the table)."""
    for name, expected in SEED_TABLES.items():
        table = rules.tables[name]
        values = table.values
        if table.value_labels:
            values = tuple(table.value_labels[v] for v in values)
        assert values == expected, f"table {name} differs from the seed: {values} != {expected}"


def test_distance_modifier_is_the_seed_value():
    """§4.4: -2 per zone between the start zone and the target zone, a named constant."""
    assert read_game("taktinen").constants["distance_modifier"] == -2


@pytest.fixture(scope="module")
def rules():
    return load_rules("taktinen")


def test_tables_hold_the_seed_values(rules):
    check_tables(rules)


def test_shot_zone_values():
    board = read_game("taktinen").board
    kind, values = board.attributes["shot"]
    shots = dict(zip(board.spaces, values))
    assert {zone: shots[zone] for zone in SEED_SHOT_ZONES} == SEED_SHOT_ZONES


def test_a_changed_t1_cell_is_caught(tmp_path):
    """A copy of the spec with one T1 cell changed fails the table check and a worked example."""
    copy = tmp_path / "taktinen"
    shutil.copytree(find_game("taktinen").parent, copy)
    spec = copy / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "fewer: -1, half_or_less: -2}" in text
    spec.write_text(text.replace("fewer: -1, half_or_less: -2}", "fewer: 0, half_or_less: -2}"), encoding="utf-8")
    mutated = load_rules(str(copy))
    with pytest.raises(AssertionError, match="T1"):
        check_tables(mutated)
    example = next(s for s in load_scenarios(copy) if s.id == "TAK-EX-06")
    with pytest.raises(ScenarioError, match="modifi"):
        run_scenario(Game(mutated), example)


def test_board_geometry_layout_a(rules):
    """RULES-BRIEF §1.2: 26 adjacent pairs in layout A; the flanks never touch."""
    spaces = rules.spaces
    pairs = set()
    module_neighbors = _neighbors(rules)
    for a, near in enumerate(module_neighbors):
        for b in near:
            pairs.add(frozenset((spaces[a], spaces[b])))
    assert len(pairs) == 26
    assert not any(p <= {f"L{i}" for i in range(1, 5)} | {f"R{i}" for i in range(1, 5)}
                   and any(x.startswith("L") for x in p) and any(x.startswith("R") for x in p) for p in pairs)
    assert frozenset(("L1", "C2")) in pairs and frozenset(("L1", "C3")) not in pairs


def test_board_geometry_layout_b():
    """Layout B: the first flank zone lies beside the penalty area only (RULES-BRIEF §1.2)."""
    rules_b = load_rules("taktinen", {"layout": "B"})
    neighbors = _neighbors(rules_b)
    spaces = rules_b.spaces
    near_l1 = {spaces[b] for b in neighbors[spaces.index("L1")]}
    near_l4 = {spaces[b] for b in neighbors[spaces.index("L4")]}
    assert near_l1 == {"C1", "L2"}
    assert near_l4 == {"C5", "L3"}


def test_a_person_plays_a_full_match_against_the_greedy_bot_with_undo_and_resume(tmp_path):
    """A scripted person (always the first legal action, one undo) plays home to the final
    whistle against the greedy bot; the match is saved, resumed from its log and finished."""
    shown = play_with_undo_and_resume(Game(load_rules("taktinen", {"max_turns_per_half": 10})), 5, tmp_path, 30, 10)
    assert "Full time" in shown or "full_time" in shown


@pytest.mark.slow
def test_a_thousand_random_matches_keep_the_declared_invariants():
    """1,000 random matches (seeded): no dead end, every spec invariant after every ply (the
    never-decreasing clock compared with the ply before), below the ply bound, returns within range."""
    game = Game(load_rules("taktinen"))
    longest = random_matches(game, 1000)
    print(f"taktinen: the longest of 1,000 random matches has {longest} plies "
          f"(limits: max_plies {game.rules.max_plies})")


def test_a_step_played_phase_by_phase_shows_each_phase_and_ends_where_the_step_does():
    # the rulebook shows a step that runs several phases (a roll, then phases 3 to 7) one phase at
    # a time: the parts hold the step's events in order, each later part opens with its phase,
    # inside the step nobody is to act, and the last part is the step's own position
    folder = find_game("taktinen").parent
    split_somewhere = False
    for scenario in load_scenarios(folder):
        game = Game(load_rules("taktinen", scenario.options))
        whole, parts = run_scenario(game, scenario), run_scenario(game, scenario, by_phase=True)
        ends = [part for part in parts if part.ends_step]
        assert [f.state.s for f in ends] == [f.state.s for f in whole]
        assert [f.legal for f in ends] == [f.legal for f in whole]
        steps = iter(whole[1:])
        parts = iter(parts[1:])
        for step in steps:
            mine = [next(parts)]
            while not mine[-1].ends_step:
                mine.append(next(parts))
            assert sum((part.events for part in mine), []) == step.events
            assert all(part.legal == [] and part.events[0][0] == "phase" and
                       part.phase == part.events[0][2]["phase"] for part in mine[1:-1])
            assert all(part.step == {"continues": step.step} for part in mine[1:])
            split_somewhere |= len([e for e in step.events if e[0] == "phase"]) > 1 and len(mine) > 2
    assert split_somewhere
