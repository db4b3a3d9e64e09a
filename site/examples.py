"""Scenarios as animations: every step computed by the real runtime at build time.

:func:`play` runs a scenario with :func:`rulecraft.runtime.scenario.run_scenario`, so its
expectations are asserted while the site is built (a failing scenario fails the build).
:func:`player_data` turns the frames into the data the browser player shows, in one language:
where every piece stands, the spaces named by state fields (the ball) or by the pieces they name
(a ball carrier, ``holders``), the pieces each shown per-piece field flags (knocked down; a flag
naming a partner piece, ``pile``, stacks the two where they stand), the lines across the pitch
(``across``: an offside line, in SVG units), the dice rolled (each by the team that rolled it), the step's events narrated by :class:`rulecraft.site.narration.Narration` (the same
lines as ``rulecraft play --lang``), the legal options of the next decision (and the spaces and
pieces they name, to highlight), the option taken next, the path each space marker has travelled (``trails``, see
:func:`trails`), and the actions the scenario shows being
refused with the rule that refuses them (and the spaces they name, marked as refused targets
where no legal option or the option taken next names them: those stay highlighted as such).
"""

from __future__ import annotations

from rulecraft.errors import IllegalActionError
from rulecraft.layout import board_layout, lines_across
from rulecraft.runtime.engine import CHANCE, TERMINAL
from rulecraft.runtime.notation import action_id
from rulecraft.runtime.scenario import run_scenario
from rulecraft.site.board import across_segments, exit_spot
from rulecraft.site.narration import Names, Narration

SILENT_EVENTS = ("action", "roll")   # shown as the chosen option and as dice instead
# texts that are templates over play values, rendered per piece or per frame
PLAY_TEMPLATES = (("pages", "examples", "piece"), ("pages", "examples", "status"))


def play(book, scenario) -> list:
    """The frames of ``scenario`` played by the runtime phase by phase, so that each phase of a
    step is shown with its own narration (raises ScenarioError when it fails)."""
    return run_scenario(book.game(scenario.options), scenario, by_phase=True)


def player_data(book, scenario, frames, language: str) -> dict:
    """The JSON-ready animation of a played scenario in ``language`` (see the module docstring)."""
    game = book.game(scenario.options)
    rules = game.rules
    texts = book.texts[language]
    renderer = book.renderer(language)
    narration = Narration(book, language, game, scenario.options)
    names = narration.names
    # markers: the spaces named by state fields (a free ball), and the squares of the pieces named
    # by them (a ball carrier); flags: what shown per-piece fields say of each piece (knocked down)
    markers = [f for f in rules.fields if f.of is None and f.type in ("space", "piece") and f.show]
    flags = [f for f in rules.fields if f.of == "piece" and f.type in ("bool", "piece") and f.show]
    refusals = _refusals(scenario, frames)
    phases = enclosing_phases(rules)
    data = {
        "id": scenario.id,
        "spaces": list(rules.spaces),
        "pieces": names.pieces(),
        "teams": [str(names.word(t)) for t in rules.teams],
        "markers": [{"field": f.name, "label": str(names.word(f.name))} for f in markers],
        "flags": [{"field": f.name, "label": str(names.word(f.name)), "pile": f.type == "piece"} for f in flags],
        "across": [{"field": line.field, "team": line.team,
                    "label": str(names.word(line.field)) + ("" if line.team is None
                                                            else f": {names.word(rules.teams[line.team])}")}
                   for line in lines_across(board_layout(rules), game.new_initial_state())],
        "frames": [],
    }
    at = game.field("at")
    status = texts.entry("pages", "examples").get("status")
    paths = trails(frames, markers, at)
    for index, frame in enumerate(frames):
        state = frame.state
        following = frames[index + 1].step if index + 1 < len(frames) else None
        lines = [{"kind": event[0], "text": text} for event, text in (
            (event, narration.line(event)) for event in frame.events
            if event[0] not in SILENT_EVENTS) if text.strip()]
        where = [state.s[at.base + p] for p in range(at.size)]
        legal, chosen = _legal(state, names, frame.ends_step), _next(state, following, names)
        # a space legal (or taken next) for another action shows that; the refusal is in the text
        highlighted = set(legal.get("spaces", ())) | set((chosen or {}).get("spaces", ()))
        data["frames"].append({
            "at": where,
            "markers": [_marker(state.s[f.base], f.type, where) for f in markers],
            "holders": [state.s[f.base] if f.type == "piece" else -1 for f in markers],
            "trails": [dict(trail, beyond=exit_spot(rules, trail["spaces"][-1], trail["out"])
                            if trail["out"] is not None else None) for trail in paths[index]],
            "flags": [[p for p in range(f.size) if _flagged(state.s[f.base + p], f.type)] for f in flags],
            "across": across_segments(rules, state),
            "phase": narration.phase_title(phases[frame.phase or state.phase()[0]]),
            "actor": _actor(state, names) if frame.ends_step else {"kind": "flow"},
            "status": renderer.render(status, **state.describe()) if status else "",
            "dice": [{"die": v["die"], "value": game.display(v["type"], v["value"]), "team": v.get("team"),
                      "by": "" if v.get("team") is None else str(names.word(rules.teams[v["team"]]))}
                     for kind, _, v in frame.events if kind == "roll"],
            "events": lines,
            "legal": legal,
            "next": chosen,
            "refused": [{"option": names.notation(action), "rule": rule,
                         "spaces": [z for z in _targets(state.game, action)[0] if z not in highlighted]}
                        for action, rule in refusals.get(index, [])],
        })
    return data


def trails(frames, markers, at) -> list[list[dict]]:
    """For every frame, each marker's path so far: ``{"spaces": [space indices in the order the
    marker travelled them], "met": [whether a piece stood on that space when the marker got
    there], "out": the direction index it left the board in, or None}`` (empty for a marker
    naming a piece).

    A space marker's path is the spaces it has stood on, one after the other, since the last
    decision that moved a piece (a run, a keeper placed: that starts a new play), so a kick played
    field by field over several steps is one path, kept in view until the next such decision. A
    marker leaving the board (a goal) ends its path where it was last seen, going on in the
    direction the action that took it off named (``out``: a ball shot into the goal), if the
    action names one; coming back onto the board starts a new one. A path of one space has not
    moved yet (nothing to draw)."""
    result: list[list[dict]] = []
    paths: list[dict] = [{"spaces": [], "met": [], "out": None} for _ in markers]
    gone = [False] * len(markers)           # the marker left the board since its path's last space
    previous = None
    for frame in frames:
        state = frame.state
        where = [state.s[at.base + p] for p in range(at.size)]
        new_play = previous is not None and where != previous and any(event[0] == "action" for event in frame.events)
        for index, field in enumerate(markers):
            if field.type != "space":
                continue
            space, path = state.s[field.base], paths[index]
            if space < 0:
                if path["spaces"] and not gone[index]:
                    path["out"] = _direction_taken(frame)
                gone[index] = bool(path["spaces"])
                if new_play:
                    paths[index] = {"spaces": [], "met": [], "out": None}
            elif not path["spaces"] or gone[index] or (new_play and space == path["spaces"][-1]):
                paths[index], gone[index] = {"spaces": [space], "met": [space in where], "out": None}, False
            elif space != path["spaces"][-1]:
                path["spaces"].append(space)
                path["met"].append(space in where)
        result.append([{"spaces": list(path["spaces"]), "met": list(path["met"]), "out": path["out"]}
                       for path in paths])
        previous = where
    return result


def _direction_taken(frame) -> int | None:
    """The direction (an index of the grid's directions) that the action played in ``frame``
    names, or None (no action, or one without a direction)."""
    for kind, _, values in frame.events:
        if kind == "action":
            definition = frame.state.game.action_def(values["action"])
            for param, value in zip(definition.params, definition.decode(values["action"])):
                if param.type == "enum:direction":
                    return value
    return None


def _marker(value: int, kind: str, where: list) -> int:
    """The space a marker field points at: the space itself, or the square of the piece."""
    if kind == "piece":
        return where[value] if 0 <= value < len(where) else -1
    return value


def _flagged(value: int, kind: str) -> bool:
    """A per-piece flag is up: a true boolean, or a piece field naming a piece (a pile partner)."""
    return value >= 0 if kind == "piece" else bool(value)


def sample_variables(book, language: str) -> dict:
    """Variables for the texts that are templates over play values, so ``site check`` can try
    them: ``{(section, key, part): variables}`` (a piece's name, the status line of a frame)."""
    game = book.game()
    names = Names(book, language, game)
    piece = len(game.rules.piece_team) - 1
    return dict(zip(PLAY_TEMPLATES, (names.piece_variables(piece) if piece >= 0 else {},
                                     game.new_initial_state().describe())))


def _targets(game, action: int) -> tuple[list[int], list[int]]:
    """The spaces and the pieces an action names (what the board highlights)."""
    definition = game.action_def(action)
    spaces, pieces = [], []
    for (_, kind, _, _), value in zip(definition.params, definition.decode(action)):
        if kind == "space":
            spaces.append(value)
        elif kind == "piece":
            pieces.append(value)
    return spaces, pieces


def _actor(state, names: Names) -> dict:
    player = state.current_player()
    if player == TERMINAL:
        return {"kind": "over"}
    if player == CHANCE:
        return {"kind": "chance"}
    return {"kind": "team", "team": player, "name": str(names.word(state.game.teams[player])),
            "secret": state.is_secret()}


def enclosing_phases(rules) -> dict[str, str]:
    """Each step's phase name → the turn phase a reader sees it in: the steps of an action's
    ``then:`` are named after the action and belong to the phase whose decision offers it."""
    turn_phases = {node.phase for node in rules.nodes if not node.in_action}
    offered: dict[str, str] = {}
    for node in rules.nodes:
        for index in node.actions:
            offered.setdefault(rules.actions[index].name, node.phase)
    result = {}
    for name in {node.phase for node in rules.nodes}:
        phase, hops = name, 0
        while phase not in turn_phases and phase in offered and hops < len(offered):
            phase, hops = offered[phase], hops + 1
        result[name] = phase
    return result


def _legal(state, names: Names, decision: bool = True) -> dict:
    """The legal options of ``state`` and the spaces and pieces they name; none where no
    ``decision`` is due (a position inside a step's automatic play)."""
    if not decision or state.is_terminal() or state.is_chance_node():
        return {"options": [], "spaces": [], "pieces": []}
    spaces, pieces, options = set(), set(), []
    for action in state.legal_actions():
        options.append(names.notation(action))
        named_spaces, named_pieces = _targets(state.game, action)
        spaces.update(named_spaces)
        pieces.update(named_pieces)
    return {"options": options, "spaces": sorted(spaces), "pieces": sorted(pieces)}


def _next(state, step, names: Names) -> dict | None:
    """The option the scenario takes next from ``state`` (a decision or a die face), if any: none
    from inside a step's automatic play (the next frame ``continues`` the step)."""
    if step is None or "continues" in step:
        return None
    if "roll" in step:
        return {"roll": str(step["roll"])}
    for action in state.legal_actions():
        if state.action_notation(action) == str(step["do"]):
            spaces, pieces = _targets(state.game, action)
            return {"option": names.notation(action), "spaces": spaces, "pieces": pieces}
    return None


def _refusals(scenario, frames) -> dict[int, list]:
    """The scenario's ``refuse`` steps, attached to the frame they are tried from (the frame that
    ends the step before them).

    Each is ``(action id, rule id)``: the engine refuses the action and names the rule.
    """
    attached: dict[int, list] = {}
    ends = [index for index, frame in enumerate(frames) if frame.ends_step]
    done = 0
    for step in scenario.steps:
        if "do" in step or "roll" in step:
            done += 1
        elif "refuse" in step:
            frame = ends[done]
            state = frames[frame].state
            game = state.game
            notation = str(step["refuse"])
            action = action_id(game, notation)
            try:
                state.clone().apply(action)
            except IllegalActionError as error:
                attached.setdefault(frame, []).append((action, error.rule))
    return attached
