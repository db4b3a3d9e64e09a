"""Scenarios: executable examples of a game's rules.

A scenario file (``<game>/scenarios/*.yaml``) names a position — reached by ``start`` actions
from the initial state and then edited by ``position`` — and a list of ``steps``: decisions by
their notation, chance outcomes by their face, actions that must be refused (optionally naming the
rule), and expectations on fields, events, legal actions, the acting team and returns. The same
file is a test, an animation in the rulebook and documentation (DESIGN.md principle 6).

A failure raises :class:`ScenarioError` naming the scenario, the step and the value that differed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rulecraft.errors import IllegalActionError, RulecraftError, ScenarioError, SpecError
from rulecraft.loader import load_yaml, plain
from rulecraft.runtime.engine import CHANCE, SLOT_PC, SLOT_PENDING, TERMINAL, Game, State
from rulecraft.runtime.notation import action_id

STEP_KINDS = ("do", "roll", "refuse", "expect")
EXPECT_KEYS = ("fields", "events", "no_events", "legal", "legal_includes", "legal_excludes",
               "to_act", "returns", "phase", "pieces")


@dataclass
class Scenario:
    """A parsed scenario file."""

    id: str
    title: str
    rule: str
    path: str
    options: dict = field(default_factory=dict)
    start: list = field(default_factory=list)
    position: dict = field(default_factory=dict)
    steps: list = field(default_factory=list)
    doc: str = ""


@dataclass
class Frame:
    """One step of a played scenario (played phase by phase: one phase of a step), for the
    rulebook's animation: the ``step``, its ``events``, the ``state`` after them and the
    ``legal`` actions there (``(id, notation)`` pairs). A part of a step has the ``phase`` its
    events belong to (None: the state's own phase) and ``ends_step`` false but for the last part;
    a part's state is a position inside the automatic play, where nobody is to act."""

    step: dict
    events: list
    state: State
    legal: list
    phase: str | None = None
    ends_step: bool = True


class _PhaseMarks(list):
    """An event list that keeps, as each phase begins (the engine adds the phase's event before
    the phase runs), the event's index and a copy of the state at that moment."""

    def __init__(self, state: State):
        super().__init__()
        self.state, self.marks = state, {}

    def append(self, event) -> None:
        if event[0] == "phase":
            self.marks[len(self)] = self.state.clone()
        super().append(event)


def load_scenarios(game_dir) -> list[Scenario]:
    """Every scenario under ``game_dir/scenarios`` (sorted by file name).

    Raises :class:`ScenarioError` for a file that is not a scenario.
    """
    folder = Path(game_dir) / "scenarios"
    result = []
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        try:
            data = plain(load_yaml(str(path)))
        except SpecError as error:
            raise ScenarioError(str(error), hint="") from None   # str() ends with its hint
        documents = data if isinstance(data, list) else [data]
        for item in documents:
            if not isinstance(item, dict) or not {"id", "steps"} <= item.keys():
                raise ScenarioError(f"{path}: a scenario needs at least id: and steps:")
            unknown = set(item) - {"id", "title", "rule", "options", "start", "position", "steps", "doc"}
            if unknown:
                raise ScenarioError(f"{path}: scenario {item['id']}: unknown key {sorted(unknown)[0]}")
            result.append(Scenario(str(item["id"]), str(item.get("title", item["id"])),
                                   str(item.get("rule", "")), str(path), dict(item.get("options") or {}),
                                   list(item.get("start") or []), dict(item.get("position") or {}),
                                   list(item["steps"]), str(item.get("doc", ""))))
    return result


def run_scenario(game: Game, scenario: Scenario, *, by_phase: bool = False) -> list[Frame]:
    """Play ``scenario`` on ``game`` (compiled with the scenario's options); returns its frames.

    The first frame is the edited position; each step adds one, or with ``by_phase`` one per
    phase its automatic play passes through (the action and what it does, then each phase that
    follows with its events and the position when it ends: taktinen's phases 3 to 7 after one
    roll are five frames). Raises :class:`ScenarioError`.
    """
    where = f"scenario {scenario.id}"
    state = game.new_initial_state()
    for index, notation in enumerate(scenario.start):
        _apply(state, notation, f"{where}, start action {index + 1}", [])
    _edit(state, scenario.position, where)
    frames = [Frame({"position": True}, [], state.clone(), _legal(state))]
    events: list = []
    for number, step in enumerate(scenario.steps, 1):
        label = f"{where}, step {number}"
        if not isinstance(step, dict) or len(set(step) & set(STEP_KINDS)) != 1:
            raise ScenarioError(f"{label}: a step is one of {', '.join(STEP_KINDS)}")
        if "do" in step or "roll" in step:
            events = _PhaseMarks(state) if by_phase else []
            before = None if state.is_terminal() else state.phase()[0]
            _apply(state, step["do"] if "do" in step else {"roll": step["roll"]}, label, events)
            frames += _parts(step, events, state, before) if by_phase else [
                Frame(step, events, state.clone(), _legal(state))]
        elif "refuse" in step:
            _refuse(state, step, label)
        else:
            _expect(state, step["expect"], events, label)
    return frames


def _parts(step: dict, events: _PhaseMarks, state: State, before: str | None) -> list[Frame]:
    """The frames of one step played phase by phase (see :func:`run_scenario`): its events cut
    where each phase begins; the first part is the step's own (in the phase ``before`` it), the
    others carry ``{"continues": step}`` as their step, so that no option is taken from them."""
    cuts = sorted({0, *events.marks, len(events)})
    parts = []
    for start, stop in zip(cuts, cuts[1:]):
        last = stop == len(events)
        phase = events[start][2]["phase"] if start in events.marks else before
        parts.append(Frame(step if not parts else {"continues": step}, list(events[start:stop]),
                           state.clone() if last else events.marks[stop], _legal(state) if last else [],
                           phase, last))
    return parts or [Frame(step, [], state.clone(), _legal(state))]


def _legal(state: State) -> list:
    if state.is_terminal() or state.is_chance_node():
        return []
    return [(a, state.action_notation(a)) for a in state.legal_actions()]


def _find(state: State, notation: str) -> int | None:
    for action in state.legal_actions():
        if state.action_notation(action) == notation:
            return action
    return None


def _apply(state: State, step, label: str, events: list) -> None:
    if isinstance(step, dict):
        face = str(step["roll"])
        if not state.is_chance_node():
            raise ScenarioError(f"{label}: a roll of {face} was given, but no die is rolled here "
                                f"(phase {state.phase()[0]})")
        die = state.game.rules.dice[state.node().die]
        faces = [state.game.display(die.type, v) for v in die.outcomes]
        if face not in faces:
            raise ScenarioError(f"{label}: {die.name} has no face {face} (faces: {', '.join(faces)})")
        state.apply(faces.index(face), events)
        return
    action = _find(state, str(step))
    if action is None:
        legal = ", ".join(state.action_notation(a) for a in state.legal_actions()[:20])
        who = _who(state)
        raise ScenarioError(f"{label}: '{step}' is not legal for {who} in phase {state.phase()[0]}"
                            f" (legal: {legal or 'nothing'})")
    state.apply(action, events)


def _refuse(state: State, step: dict, label: str) -> None:
    notation = str(step["refuse"])
    if _find(state, notation) is not None:
        raise ScenarioError(f"{label}: '{notation}' should be refused but is legal")
    action = action_id(state.game, notation)
    if action is None:
        raise ScenarioError(f"{label}: '{notation}' is not the notation of any action of the game")
    before = state.clone()
    try:
        state.apply(action)
    except IllegalActionError as error:
        if "rule" in step and str(step["rule"]) != error.rule:
            raise ScenarioError(f"{label}: '{notation}' was refused by rule {error.rule} "
                                f"({error.message}), expected rule {step['rule']}") from None
    if state != before:
        raise ScenarioError(f"{label}: refusing '{notation}' changed the state")


def _who(state: State) -> str:
    player = state.current_player()
    if player == CHANCE:
        return "chance"
    if player == TERMINAL:
        return "nobody"
    return state.game.teams[player]


def _expect(state: State, expected: dict, events: list, label: str) -> None:
    game = state.game
    unknown = set(expected) - set(EXPECT_KEYS)
    if unknown:
        raise ScenarioError(f"{label}: unknown expectation '{sorted(unknown)[0]}' "
                            f"(known: {', '.join(EXPECT_KEYS)})")
    shown = state.describe()
    for name, value in (expected.get("fields") or {}).items():
        actual = shown.get(name, _MISSING)
        if actual is _MISSING:
            raise ScenarioError(f"{label}: the game has no state field '{name}'")
        if isinstance(value, dict):
            for key, item in value.items():
                if _text(actual.get(str(key))) != _text(item):
                    raise ScenarioError(f"{label}: {name} of {key} is {actual.get(str(key))}, expected {item}")
        elif _text(actual) != _text(value):
            raise ScenarioError(f"{label}: {name} is {actual}, expected {value}")
    for piece, space in (expected.get("pieces") or {}).items():
        if piece not in game.rules.piece_labels:
            raise ScenarioError(f"{label}: no piece '{piece}' (pieces: {', '.join(game.rules.piece_labels)})")
        at = state.s[game.field("at").base + game.rules.piece_labels.index(piece)]
        standing = game.display("space", at)
        if standing != ("none" if space is None else str(space)):
            raise ScenarioError(f"{label}: {piece} stands on {standing}, expected {space}")
    if "to_act" in expected and _who(state) != str(expected["to_act"]):
        raise ScenarioError(f"{label}: {_who(state)} is to act, expected {expected['to_act']}")
    if "phase" in expected and state.phase()[0] != str(expected["phase"]):
        raise ScenarioError(f"{label}: the phase is {state.phase()[0]}, expected {expected['phase']}")
    legal = {state.action_notation(a) for a in state.legal_actions()} if not state.is_chance_node() else set()
    if "legal" in expected and legal != {str(n) for n in expected["legal"]}:
        raise ScenarioError(f"{label}: legal actions are {sorted(legal)}, expected {sorted(map(str, expected['legal']))}")
    for notation in expected.get("legal_includes") or []:
        if str(notation) not in legal:
            raise ScenarioError(f"{label}: '{notation}' should be legal but is not")
    for notation in expected.get("legal_excludes") or []:
        if action_id(game, str(notation)) is None:
            raise ScenarioError(f"{label}: '{notation}' is not the notation of any action of the "
                                "game, so excluding it checks nothing")
        if str(notation) in legal:
            raise ScenarioError(f"{label}: '{notation}' should not be legal but is")
    if "returns" in expected:
        returns = dict(zip(game.teams, state.returns()))
        for team, value in expected["returns"].items():
            if returns.get(str(team)) != float(value):
                raise ScenarioError(f"{label}: the return of {team} is {returns.get(str(team))}, expected {value}")
    for kind in expected.get("no_events") or []:
        if any(event[0] == str(kind) for event in events):
            raise ScenarioError(f"{label}: the last step should not have had a '{kind}' event")
    for wanted in expected.get("events") or []:
        if not any(_event_matches(game, event, wanted) for event in events):
            seen = "; ".join(f"{k} {v}" for k, _, v in events if k not in ("phase",)) or "none"
            raise ScenarioError(f"{label}: no event {wanted} in the last step (events: {seen})")


_MISSING = object()


def _event_matches(game: Game, event, wanted: dict) -> bool:
    kind, rule, values = event
    if str(wanted.get("kind")) != kind:
        return False
    if "rule" in wanted and str(wanted["rule"]) != rule:
        return False
    schema = game.rules.events.get(kind, {})
    for key, value in wanted.items():
        if key in ("kind", "rule"):
            continue
        if key not in values:
            return False
        actual = values[key]
        kind_of = schema.get(key, "int")
        shown = game.display(kind_of, actual) if isinstance(actual, int) and kind_of not in ("int",) else actual
        if str(shown) != _text(value):
            return False
    return True


def _text(value) -> str:
    """A scenario's expected value as the runtime shows it (booleans as true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def _edit(state: State, position: dict, where: str) -> None:
    """Apply a scenario's ``position`` edits, then refuse a position the rules could not hold."""
    game = state.game
    rules = game.rules
    if not position:
        return
    unknown = set(position) - {"phase", "fields", "pieces"}
    if unknown:
        raise ScenarioError(f"{where}: position: has no key '{sorted(unknown)[0]}' (phase, fields, pieces)")
    _place(state, position.get("pieces") or {}, where)
    for name, value in (position.get("fields") or {}).items():
        try:
            f = game.field(str(name))
        except KeyError:
            raise ScenarioError(f"{where}: the game has no state field '{name}'") from None
        if f.derived:
            raise ScenarioError(f"{where}: {name} is derived from its formula; set the fields it reads")
        if f.of is None:
            state.s[f.base] = _value(game, f.type, value, where)
            continue
        if not isinstance(value, dict):
            raise ScenarioError(f"{where}: {name} is one value per {f.of}; give a mapping")
        keys = {"team": rules.teams, "space": rules.spaces, "piece": rules.piece_labels}[f.of]
        for key, item in value.items():
            if str(key) not in keys:
                raise ScenarioError(f"{where}: {name}: no {f.of} '{key}'")
            state.s[f.base + list(keys).index(str(key))] = _value(game, f.type, item, where)
    if "phase" in position:
        starts = [n.index for n in rules.nodes if n.phase == position["phase"] and not n.in_action]
        if not starts:
            raise ScenarioError(f"{where}: no phase '{position['phase']}'")
        state.s[SLOT_PC] = starts[0]
        state.s[SLOT_PENDING] = 0
    state.refresh()
    try:
        state._advance(None, None)
    except RulecraftError as error:
        raise ScenarioError(f"{where}: the edited position cannot be played: {error.message}") from None
    broken = game.broken_invariants(state)
    if broken:
        raise ScenarioError(f"{where}: the edited position breaks the invariant '{broken[0]}': "
                            "the rules could not reach it")


def _place(state: State, pieces: dict, where: str) -> None:
    """Put pieces on spaces: ``label: space`` for one piece, ``team: {space: count}`` for the
    team's remaining pieces in roster order (pieces not named stay where they were)."""
    game = state.game
    rules = game.rules
    at = game.field("at").base
    named = set()
    for label, space in pieces.items():
        if label in rules.piece_labels:
            index = rules.piece_labels.index(label)
            state.s[at + index] = _value(game, "space", space, where)
            named.add(index)
        elif label not in rules.teams:
            raise ScenarioError(f"{where}: no piece or team '{label}' "
                                f"(pieces: {', '.join(rules.piece_labels)})")
    for label, spread in pieces.items():
        if label not in rules.teams:
            continue
        if not isinstance(spread, dict):
            raise ScenarioError(f"{where}: '{label}:' takes a mapping of spaces to numbers of pieces")
        team = rules.teams.index(label)
        free = [p for p in range(len(rules.piece_team)) if rules.piece_team[p] == team and p not in named]
        wanted = sum(int(n) for n in spread.values())
        if wanted > len(free):
            raise ScenarioError(f"{where}: {label} has {len(free)} pieces left to place, not {wanted}")
        for space, number in spread.items():
            for _ in range(int(number)):
                state.s[at + free.pop(0)] = _value(game, "space", space, where)
        for piece in free:
            state.s[at + piece] = -1


def _value(game: Game, kind: str, value, where: str) -> int:
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ScenarioError(f"{where}: {value!r} is not a whole number")
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise ScenarioError(f"{where}: {value!r} is not true or false")
        return int(value)
    if value is None or value == "none":
        return -1
    names = {"team": game.rules.teams, "space": game.rules.spaces, "piece": game.rules.piece_labels,
             "kind": game.rules.kinds}.get(kind)
    if names is None and kind.startswith("enum:"):
        names = game.rules.enums[kind[5:]]
    if str(value) not in names:
        raise ScenarioError(f"{where}: '{value}' is not a {kind.removeprefix('enum:')} "
                            f"({', '.join(map(str, names))})")
    return list(names).index(str(value))
