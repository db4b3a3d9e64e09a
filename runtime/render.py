"""Text views of a state: the board as characters and the state's visible fields.

Grid boards print as a matrix (rows top to bottom from the highest row, so the first team's end is
at the bottom); other boards list each space with what stands on it. Pieces print as their team's
initial and kind; spaces without pieces show per-space fields (e.g. a mark) or '.'.
"""

from __future__ import annotations


def space_contents(state, space: int, team: int | None = None) -> str:
    """A short label of what is on ``space``: pieces, else per-space field values, else ''."""
    game = state.game
    rules = game.rules
    at = game.field("at")
    labels = [_piece_label(game, p) for p in range(at.size) if state.s[at.base + p] == space]
    if labels:
        return "+".join(labels)
    values = state.s if team is None else state.observation(team)
    for f in rules.fields:
        if f.of != "space" or f.name == "at":
            continue
        value = values[f.base + space]
        empty = value == -1 if f.type not in ("int", "bool") else value == 0
        if not empty:
            shown = game.display(f.type, value)
            return shown[:1].upper() if f.type == "team" else shown
    return ""


def _team_counts(state, space: int) -> str:
    """'home 3 (goalkeeper 1), away 2' for the pieces on a space of a zone board."""
    rules = state.game.rules
    at = state.game.field("at")
    parts = []
    for team, name in enumerate(rules.teams):
        pieces = [p for p in range(at.size)
                  if rules.piece_team[p] == team and state.s[at.base + p] == space]
        if not pieces:
            continue
        kinds = {}
        for p in pieces:
            kind = rules.piece_labels[p].split(" ")[1] if " " in rules.piece_labels[p] else ""
            kinds[kind] = kinds.get(kind, 0) + 1
        detail = ", ".join(f"{k} {n}" for k, n in kinds.items()) if len(kinds) > 1 else ""
        parts.append(f"{name} {len(pieces)}" + (f" ({detail})" if detail else ""))
    return "; ".join(parts)


def _piece_label(game, piece: int) -> str:
    rules = game.rules
    team = rules.teams[rules.piece_team[piece]][:1].upper()
    label = rules.piece_labels[piece].split(" ", 1)[-1]
    return team + label


def render_text(state, team: int | None = None) -> str:
    """The board and the visible fields as plain text (what ``render_mode='ansi'`` shows)."""
    game = state.game
    rules = game.rules
    lines = []
    if rules.grid:
        index = {tuple(rc): i for i, rc in enumerate(rules.grid["coords"])}
        cells = {i: space_contents(state, i, team) or "." for i in range(len(rules.spaces))}
        width = max([len(c) for c in cells.values()] + [1])
        for row in range(rules.grid["rows"], 0, -1):
            out = []
            for col in range(1, rules.grid["columns"] + 1):
                i = index.get((row, col))
                out.append((cells[i] if i is not None else " ").rjust(width))
            lines.append(f"{row:>3} " + " ".join(out))
        lines.append("    " + " ".join(chr(64 + c).rjust(width) for c in range(1, rules.grid["columns"] + 1)))
    elif rules.spaces:
        for i, name in enumerate(rules.spaces):
            contents = _team_counts(state, i)
            if contents:
                lines.append(f"{name:>6}: {contents}")
    fields = state.describe(team)
    for name, value in fields.items():
        if not game.field(name).show:
            continue
        if isinstance(value, dict):
            if len(value) <= 8:
                shown = ", ".join(f"{k}={v}" for k, v in value.items() if v is not None)
                if shown:
                    lines.append(f"{name}: {shown}")
        elif value is not None:
            lines.append(f"{name}: {value}")
    if state.is_terminal():
        lines.append("game over; returns " + ", ".join(
            f"{t}={r:+g}" for t, r in zip(rules.teams, state.returns())))
    else:
        phase, rule = state.phase()
        who = "chance" if state.is_chance_node() else rules.teams[state.current_player()]
        lines.append(f"phase {phase} (rule {rule}); to act: {who}")
    return "\n".join(lines)
