"""Derived state fields (docs/spec-reference.md, "Derived fields"): the compiler keeps each equal
to its formula after every statement, refuses assignments to them, and a saved state whose
derived field was edited is refused."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings, strategies as st
import pytest

from helpers import load_game, random_playout, spec_folder
from rulecraft.compiler import load_rules
from rulecraft.errors import RulecraftError, SpecError

LEADS = """
game: {id: leads, title: Leads, teams: [a, b]}
board:
  grid: {rows: 1, columns: 5}
  adjacent: orthogonal
pieces:
  roster:
    - {team: a, at: A1}
    - {team: b, at: E1}
state:
  to_move: {type: team, initial: a}
  score: {type: int, of: team}
  lead: {type: int, derived: "a.score - b.score"}
  leader: {type: team, derived: "if lead > 0 then a else if lead < 0 then b else none"}
  reach: {type: int, of: team, derived: "max(p.at.col for p in team.pieces where p.at != none)"}
  taken: {type: bool, of: space, derived: "count(p for p in pieces where p.at == space) > 0"}
  seen_lead: int
turn:
  - {phase: p, rule: "1", choose: [step, score], by: to_move}
actions:
  step:
    rule: "1"
    params: {to: space}
    legal:
      - {if: "not to.taken", rule: "1", reason: "the square is taken"}
      - {if: "any(p for p in actor.pieces where adjacent(p.at, to))", rule: "1", reason: "not next to you"}
    effect: "first(p for p in actor.pieces where p.at != none).at = to; to_move = actor.opponent"
  score:
    rule: "2"
    effect: |
      actor.score += 1;
      seen_lead = lead;
      to_move = actor.opponent;
      if lead > 2 or lead < -2 then { finish }
end: {rule: "2", returns: "if leader == team then 1 else if leader == none then 0 else -1"}
limits: {max_plies: 40, on_limit: "0"}
"""


@pytest.fixture(scope="module")
def leads(tmp_path_factory):
    folder = spec_folder(tmp_path_factory.mktemp("leads"), LEADS)
    return load_game(folder)


def formulas(state) -> dict:
    """The derived fields' values as the spec's formulas define them, computed here by hand."""
    view = state.describe()
    score = view["score"]
    cols = {team: state.value("at", piece) + 1 for piece, team in enumerate("ab")}   # one row: column = index + 1
    lead = score["a"] - score["b"]
    return {"lead": lead, "leader": "a" if lead > 0 else "b" if lead < 0 else None, "reach": cols,
            "taken": {z: ("true" if i + 1 in cols.values() else "false") for i, z in enumerate("A1 B1 C1 D1 E1".split())}}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_derived_fields_equal_their_formulas_on_every_reachable_state(leads, seed):
    rng, state = random.Random(seed), leads.new_initial_state()
    while True:
        view = state.describe()
        assert {k: view[k] for k in ("lead", "leader", "reach", "taken")} == formulas(state)
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))


def test_a_derived_field_is_current_within_the_effect_that_changes_its_inputs(leads):
    state = leads.new_initial_state()
    state.apply(next(a for a in state.legal_actions() if state.action_notation(a) == "score"))
    assert state.describe()["seen_lead"] == 1          # read right after the score changed


def test_legality_reads_a_derived_field(leads):
    state = leads.new_initial_state()
    refused = next(a for a in range(leads.num_distinct_actions) if leads.action_notation(a) == "step E1")
    with pytest.raises(RulecraftError) as error:
        state.apply(refused)
    assert "the square is taken" in str(error.value)


def test_every_game_keeps_its_derived_fields_through_a_match(leads):
    final = random_playout(leads, 3)      # checks every state, the derived fields among them
    assert final.is_terminal()


def test_a_save_with_an_edited_derived_field_is_refused(leads):
    state = leads.new_initial_state()
    data = state.to_json()
    slot = next(f.base for f in leads.rules.fields if f.name == "lead")
    data["state"][slot] += 5
    with pytest.raises(RulecraftError) as error:
        leads.state_from_json(json.loads(json.dumps(data)))
    assert error.value.code == "RC502" and "lead" in str(error.value) and "its formula gives 0" in str(error.value)


@pytest.mark.parametrize("old, new, code, message", [
    ("seen_lead = lead", "lead = 3", "RC314", "'lead' is derived from its formula and cannot be assigned"),
    ("to_move = actor.opponent;\n", "to_move = actor.opponent; actor.reach = 1;\n", "RC314",
     "'reach' is derived from its formula"),
    ('lead: {type: int, derived:', 'lead: {type: int, initial: "1", derived:', "RC319",
     "a derived field has no 'initial:'"),
    ('state:\n', 'state:\n  secret: {type: int, of: team, visible: owner, until: revealed}\n', None, None),
])
def test_derived_field_mistakes_are_refused(tmp_path, old, new, code, message):
    text = LEADS.replace(old, new, 1)
    if code is None:                       # a derived field reading a secret
        text = text.replace('derived: "a.score - b.score"', 'derived: "a.secret - b.score"')
        code, message = "RC319", "derived field 'lead' reads 'secret', which only its owner sees"
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as error:
        load_rules(tmp_path, use_cache=False)
    assert (error.value.code, error.value.message[:len(message)]) == (code, message)
    assert error.value.hint
