"""An action's parameters in its then-steps and in the follow-up actions they offer
(docs/spec-reference.md, "Effects and then-steps"): what the engine offers and does with them,
the action frame through saved states and logs, and the refusals at their positions."""

from __future__ import annotations

import pickle

import pytest

from helpers import assert_same_state, json_round_trip, load_game, spec_folder
from rulecraft.compiler import load_rules
from rulecraft.errors import LogError, SpecError
from rulecraft.runtime.logs import read_log, replay, write_log
from rulecraft.runtime.match import Match

# aim picks a start square and a reach; its then-steps mark the start with the reach and offer
# land, whose from: list, legality and effect read both
HOP = """
game: {id: hop, title: Hop, teams: [a, b]}
board: {grid: {rows: 1, columns: 5}, adjacent: orthogonal}
state:
  mark: {type: int, of: space}
  landed: space
  turns: int
turn:
  - {phase: play, rule: "1", choose: aim, by: a}
  - {phase: tally, rule: "3", do: "turns += 1; if turns >= 2 then { finish }"}
actions:
  aim:
    rule: "1"
    params: {start: space, reach: "1..2"}
    legal:
      - {if: "start.mark == 0", rule: "1", reason: "the square is marked already"}
    then:
      - {do: "start.mark = reach", rule: "2"}
      - {choose: land, by: actor, rule: "2"}
    notation: "aim from {start} by {reach}"
  land:
    rule: "2"
    params:
      at: {type: space, from: "spaces"}
    legal:
      - {if: "at != start and distance(start, at) <= reach", rule: "2", reason: "out of reach"}
    effect: "landed = at; at.mark = reach + 10"
    notation: "land on {at}"
end: {rule: "3", returns: "0"}
limits: {max_plies: 10}
"""


@pytest.fixture(scope="module")
def hop(tmp_path_factory):
    return load_game(spec_folder(tmp_path_factory.mktemp("hop"), HOP))


def played(state, *notations):
    for notation in notations:
        state.apply(next(a for a in state.legal_actions() if state.action_notation(a) == notation))
    return state


def offered(state) -> list:
    return [state.action_notation(a) for a in state.legal_actions()]


def marks(state) -> list:
    return [state.value("mark", z) for z in range(5)]


def test_the_then_steps_and_the_follow_up_read_the_parameters_of_the_action_that_started_them(hop):
    state = played(hop.new_initial_state(), "aim from C1 by 2")
    assert marks(state) == [0, 0, 2, 0, 0]                  # the then-step's do: wrote reach on start
    assert offered(state) == ["land on A1", "land on B1", "land on D1", "land on E1"]
    played(state, "land on E1")
    assert marks(state) == [0, 0, 2, 0, 12] and state.value("landed") == 4
    played(state, "aim from A1 by 1")
    assert offered(state) == ["land on B1"]                 # the new action's parameters, not the old


def test_the_frame_is_empty_outside_the_chain_and_shows_in_no_field(hop):
    frame = {f.name: f.slot for f in hop.rules.frame}
    assert set(frame) == {"actor", "start", "reach"}
    assert not set(frame) & {f.name for f in hop.rules.fields}
    state = hop.new_initial_state()
    assert [state.s[slot] for slot in frame.values()] == [-1, -1, 0]
    played(state, "aim from D1 by 1")
    assert [state.s[frame[n]] for n in ("actor", "start", "reach")] == [0, 3, 1]
    assert "start" not in str(state) and "reach" not in str(state)
    played(state, "land on E1")
    assert [state.s[slot] for slot in frame.values()] == [-1, -1, 0]


def test_the_frame_survives_a_saved_state_and_a_pickle_in_the_middle_of_the_chain(hop):
    state = played(hop.new_initial_state(), "aim from B1 by 2")
    for copy in (json_round_trip(state), pickle.loads(pickle.dumps(state))):
        assert_same_state(copy, state, "mid-chain copy")
        assert offered(copy) == ["land on A1", "land on C1", "land on D1"]
        assert marks(played(copy, "land on D1")) == marks(played(state.clone(), "land on D1")) == [0, 2, 0, 12, 0]


def test_a_log_cut_in_the_middle_of_the_chain_replays_to_the_same_state(hop, tmp_path):
    match = Match(hop, seed=3)
    for notation in ("aim from B1 by 2", "land on D1", "aim from E1 by 1"):
        match.apply(next(a for a in match.state.legal_actions() if match.state.action_notation(a) == notation))
    write_log(match, str(tmp_path / "hop.log"))
    replayed = replay(hop, read_log(str(tmp_path / "hop.log")))
    assert not replayed.closed and replayed.replayed == 3
    assert_same_state(replayed.match.state, match.state, "replayed mid-chain")
    assert offered(replayed.match.state) == ["land on D1"]


def test_a_saved_state_whose_frame_does_not_fit_its_flow_position_is_refused(hop):
    frame = {f.name: f.slot for f in hop.rules.frame}
    resting = hop.new_initial_state().to_json()
    resting["state"][frame["reach"]] = 2                       # a frame value outside any chain
    with pytest.raises(LogError, match="frame.s reach .* outside the then-steps"):
        hop.state_from_json(resting)
    inside = played(hop.new_initial_state(), "aim from B1 by 2").to_json()
    inside["state"][frame["start"]] = -1                       # the chain's start square lost
    with pytest.raises(LogError, match="frame's start .* holds none inside the then-steps"):
        hop.state_from_json(inside)
    inside["state"][frame["start"]] = 99                       # no space of the board
    with pytest.raises(LogError, match="frame's start .* outside -1..4"):
        hop.state_from_json(inside)
    inside["state"][frame["start"]] = 1
    inside["state"][frame["reach"]] = 3                        # reach is 1..2
    with pytest.raises(LogError, match="frame's reach .* holds 3, outside the parameter's range 1..2"):
        hop.state_from_json(inside)


def _refusal(tmp_path, text: str) -> SpecError:
    with pytest.raises(SpecError) as caught:
        load_rules(spec_folder(tmp_path, text), use_cache=False)
    return caught.value


def test_a_follow_up_parameter_named_like_an_inherited_one_is_refused_at_its_name(tmp_path):
    error = _refusal(tmp_path, HOP.replace("      at: {type: space", "      reach: {type: space")
                     .replace("{at}", "{reach}"))
    assert (error.code, error.position.line, error.position.column) == ("RC370", 24, 7)
    assert "'reach'" in error.message and "'aim'" in error.message and "reach_here" in error.hint


def test_a_loop_variable_in_a_then_step_hiding_a_parameter_is_refused_at_its_name(tmp_path):
    error = _refusal(tmp_path, HOP.replace('{do: "start.mark = reach"',
                                           '{do: "for start in spaces do { start.mark = reach }"'))
    assert (error.code, error.position.line, error.position.column) == ("RC370", 18, 19)


def test_a_then_step_cannot_assign_a_parameter(tmp_path):
    error = _refusal(tmp_path, HOP.replace('start.mark = reach"', 'reach = 2"'))
    assert error.code == "RC314" and "cannot assign to 'reach'" in error.message


def test_a_follow_up_offered_by_two_actions_reads_only_what_both_have_with_one_type(tmp_path):
    both = HOP.replace("choose: aim, by: a}", "choose: [aim, skip], by: a}").replace("  land:\n", """\
  skip:
    rule: "1"
    params: {start: space, reach: bool}
    then:
      - {choose: land, by: actor}
  land:
""")
    error = _refusal(tmp_path, both)
    assert (error.code, error.position.line) == ("RC371", 31)
    assert "different types" in error.message
    error = _refusal(tmp_path, both.replace("reach: bool}", "far: bool}"))
    assert error.code == "RC371" and "not a parameter of action 'skip'" in error.message


def test_an_action_offered_by_no_then_step_does_not_see_another_actions_parameters(tmp_path):
    error = _refusal(tmp_path, HOP.replace("choose: aim, by: a}", "choose: [aim, land], by: a}"))
    assert error.code == "RC371" and "the choice of phase 'play'" in error.message
    alone = HOP.replace("      - {choose: land, by: actor, rule: \"2\"}\n", "      - {do: \"turns += 0\"}\n")
    error = _refusal(tmp_path, alone)
    assert error.code == "RC301" and error.message == "unknown name 'start'"
