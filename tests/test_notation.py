"""Notations read back into action ids (runtime/notation.py), for every game's action space."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st
import pytest

from rulecraft.compiler import game_names, load_rules
from rulecraft.errors import ScenarioError, SpecError
from rulecraft.runtime.engine import Game
from rulecraft.runtime.notation import action_id
from rulecraft.runtime.template import FieldTemplate
from rulecraft.runtime.scenario import Scenario, run_scenario

GAMES = {name: Game(load_rules(name)) for name in game_names()}


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=200, deadline=None)
@given(fraction=st.floats(min_value=0, max_value=1, exclude_max=True))
def test_every_notation_reads_back_to_an_id_written_the_same(name, fraction):
    game = GAMES[name]
    written = game.action_notation(int(fraction * game.rules.num_distinct_actions))
    found = action_id(game, written)
    assert found is not None and game.action_notation(found) == written


@pytest.mark.parametrize("text", ["", "DEF X1 moves to 8F", "DEF X1 moves to 9D ", "dodges", "#12"])
def test_text_that_is_no_notation_of_the_game_gives_none(text):
    assert action_id(GAMES["ball"], text) is None


def test_a_space_inside_a_name_is_no_obstacle():
    game = GAMES["ball"]
    found = action_id(game, "DEF X1 moves to 9D")
    assert game.action_notation(found) == "DEF X1 moves to 9D"


@pytest.mark.parametrize("step, message", [
    ({"expect": {"legal_excludes": ["X plays a9"]}}, "excluding it checks nothing"),
    ({"refuse": "X plays a9"}, "is not the notation of any action"),
])
def test_a_scenario_naming_no_action_of_the_game_fails_instead_of_passing_vacuously(step, message):
    scenario = Scenario("T", "T", "1", "inline", steps=[step])
    with pytest.raises(ScenarioError, match=message):
        run_scenario(GAMES["tictactoe"], scenario)


def test_a_sum_field_writes_the_value_the_rulebook_shows():
    template = FieldTemplate.parse("{d}-{m}-{10 - d - m}", {"d": False, "m": False})
    assert template.fill({"d": "4", "m": "4"}, {}, {"d": 4, "m": 4}) == "4-4-2"


def test_a_sum_field_adds_only_whole_number_fields():
    with pytest.raises(SpecError) as error:
        FieldTemplate.parse("{10 - d - team}", {"d": False, "team": False}, numbers={"d"})
    assert error.value.code == "RC348" and "adds 'team', which is not one of its number fields" in str(error.value)
