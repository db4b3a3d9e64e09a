"""Text views of a state: the board as characters and the state's visible fields.

The board is drawn from its layout (:func:`rulecraft.layout.board_layout`), the one the site's
SVG uses: a grid prints as a matrix (rows top to bottom from the highest row, so the first
team's end is at the bottom), a board of zones as boxes on a character canvas, each with its
name and the pieces on it counted by team (``H3 A2``); a board without geometry lists each space
with what stands on it. Empty spaces show their shade (:data:`SHADE_MARKS`); the goals print as
``#`` beyond both ends, the halfway line as ``=`` (``-`` through a grid's middle row), the
centre circle as ``(O)``, the bands as their numbers in the margin, the areas marked as boxes
(a penalty area) as a frame of :data:`MARK`, a line across the pitch (an offside line) as a
line of :data:`ACROSS` (a zone board's border row, named in the margin). Pieces print as their
team's initial and kind; spaces without pieces show per-space fields (e.g. a mark) or their shade.
"""

from __future__ import annotations

from rulecraft.layout import board_layout, lines_across

SHADE_MARKS = ".:-="     # an empty space of shade 0, 1, 2, 3 (space shades are 0 to 3)
MARK = "*"              # the frame of an area marked as a box
ACROSS = "~"            # a line across the pitch that moves with the game (board: drawing: across:)
ZONE_WIDTH, ZONE_HEIGHT = 13, 2     # characters a cell of a zone board takes across and down
MARKERS = "●◆▲■"        # a zone where a shown game field of type space points (the ball), by field


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
    lines = board_lines(state, team)
    for name, value in state.describe(team).items():
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


def board_lines(state, team: int | None = None, word=None, spans: list | None = None) -> list[str]:
    """The board alone as lines of text, as ``team`` sees it (None: everything).

    With ``spans`` (a list), every stretch of text that stands for a team's piece or mark on a
    grid, or a team's count on a zone, is appended to it as ``(line, start, end, team)``: the
    terminal colours them in the team's colour (:data:`rulecraft.layout.TEAM_COLOURS`).

    A board of spaces without geometry is a list, one line per space that holds pieces or a
    per-space field with a value: its name, the pieces counted by team and each such field
    (``s2: seeds in 4``); ``word`` names the fields as in :func:`visible_fields`."""
    rules = state.game.rules
    layout = board_layout(rules)
    if layout.kind == "grid":
        return _grid_lines(state, team, layout, spans, word or _words)
    if layout.kind == "zones":
        return _zone_lines(state, layout, spans, team, word or _words)
    word = word or _words
    seen = state.s if team is None else state.observation(team)
    fields = [f for f in rules.fields if f.of == "space" and f.show and f.name != "at"]
    width = max((len(name) for name in rules.spaces), default=0)
    lines = []
    for i, name in enumerate(rules.spaces):
        parts = [_team_counts(state, i)]
        for f in fields:
            value = _display(state.game, f.type, seen[f.base + i])
            if value is not None:
                parts.append(f"{word(f.name)} {word(value) if isinstance(value, str) else value}")
        contents = "; ".join(part for part in parts if part)
        if contents:
            lines.append(f"{name:>{width}}: {contents}")
    return lines


def _words(name: str) -> str:
    """A spec name as words: its underscores as spaces (``seeds_in`` reads "seeds in")."""
    return name.replace("_", " ")


def visible_fields(state, team: int | None, hidden: str,
                   word=None) -> list[tuple[str, str, bool]]:
    """Every shown field (``show:`` not false) as ``(name, value, brief)`` for ``team``: a field
    another team keeps secret reads ``hidden`` (never its raw -1), a field without a value is
    left out. ``brief`` marks what a status line holds: a field of the game or of each team
    (not of a piece or a space) that ``team`` sees whole, unless the spec shows it only in full
    views (``show: state``). ``word`` (a spec name to the words
    shown, e.g. :meth:`rulecraft.runtime.narrate.Narrator.word`) is applied to field names,
    team names and named values; without it they read as in the spec."""
    word = word or str
    game = state.game
    rules = game.rules
    seen = state.s if team is None else state.observation(team)
    secret = {i for i, (true, known) in enumerate(zip(state.s, seen)) if true != known}
    result = []
    for f in rules.fields:
        if f.name == "at" or not f.show:
            continue
        labels = {"team": [word(t) for t in rules.teams], "space": rules.spaces,
                  "piece": rules.piece_labels}.get(f.of)
        parts, whole = [], True
        for i in range(f.size):
            if f.base + i in secret:
                value, whole = hidden, False
            else:
                value = _display(game, f.type, seen[f.base + i])
                value = word(value) if isinstance(value, str) else value
            if value is not None:
                parts.append(f"{labels[i]} {value}" if labels else str(value))
        if parts:
            result.append((word(f.name), ", ".join(parts), whole and f.of in (None, "team") and f.show is True))
    return result


def _display(game, kind: str, value: int):
    """A field value as shown: ints as numbers, others by name, None for 'no value'."""
    if kind == "int":
        return value
    return None if value == -1 else game.display(kind, value)


def _space_team(state, space: int, team: int | None) -> int | None:
    """The team whose piece stands on ``space`` (the first), else the team a per-space field
    of type team names there (the one :func:`space_contents` shows), else None."""
    game = state.game
    rules = game.rules
    at = game.field("at")
    for p in range(at.size):
        if state.s[at.base + p] == space:
            return rules.piece_team[p]
    values = state.s if team is None else state.observation(team)
    for f in rules.fields:
        if f.of != "space" or f.name == "at":
            continue
        value = values[f.base + space]
        if value != (-1 if f.type not in ("int", "bool") else 0):
            return value if f.type == "team" else None
    return None


def _grid_lines(state, team, layout, spans: list | None = None, word=_words) -> list[str]:
    """A grid board as a matrix of cells, with the goals, the halfway line and the centre circle."""
    rules = state.game.rules
    index = {tuple(rc): i for i, rc in enumerate(rules.grid["coords"])}
    names = rules.spaces
    cells = {i: space_contents(state, i, team) or SHADE_MARKS[layout.shades[names[i]]] for i in range(len(names))}
    width = max([len(c) for c in cells.values()] + [1])
    rows, columns = rules.grid["rows"], rules.grid["columns"]
    middle = (rows + 1) // 2 if layout.halfway is not None and rows % 2 else None
    lines = _goal_lines(layout, 1, width + 1, "    ")
    across = _across(state, layout, word)
    for row in range(rows, 0, -1):
        if row in across:
            lines.append("    " + ACROSS * (columns * (width + 1) - 1) + "  " + across[row])
        lines += _mark_edge(layout, row, width + 1)
        out = []
        for col in range(1, columns + 1):
            i = index.get((row, col))
            cell = cells[i] if i is not None else " "
            if row == middle and cell in (SHADE_MARKS + " "):
                cell = "O" if layout.circle is not None and col == (columns + 1) / 2 else "-"
            out.append(cell.rjust(width))
        sides = _mark_sides(layout, row - 1)
        if spans is not None:
            for col in range(columns):
                i = index.get((row, col + 1))
                owner = _space_team(state, i, team) if i is not None else None
                if owner is not None:
                    end = 3 + (col + 1) * (width + 1)
                    spans.append((len(lines), end - len(cells[i]), end, owner))
        lines.append((f"{row:>3}" + "".join(sides.get(col, " ") + cell for col, cell in enumerate(out))
                      + sides.get(columns, "")).rstrip())
        if layout.halfway is not None and row == rows // 2 + 1 and not rows % 2:
            line = "-" * (columns * (width + 1) - 1)
            if layout.circle is not None:
                centre = len(line) // 2
                line = line[:centre - 1] + "(O)" + line[centre + 2:]
            lines.append("    " + line)
    lines += _mark_edge(layout, 0, width + 1)
    lines += _goal_lines(layout, 0, width + 1, "    ")
    lines.append("    " + " ".join(chr(64 + c).rjust(width) for c in range(1, columns + 1)))
    return lines


def _mark_sides(layout, y: int) -> dict:
    """The column edges (0 to the number of columns) a marked box has a side on in the grid row
    from ``y`` to ``y + 1``, each mapped to :data:`MARK`."""
    return {int(edge): MARK for box in layout.marks.values() if box.y <= y < box.y + box.height
            for edge in (box.x, box.x + box.width)}


def _mark_edge(layout, y: int, cell: int) -> list[str]:
    """The line of :data:`MARK` along the top or bottom of every marked box whose edge is at
    ``y`` (a grid's row boundary), ``cell`` characters to a cell; [] when no box has one there."""
    spans = [(int(box.x), int(box.x + box.width)) for box in layout.marks.values() if y in (box.y, box.y + box.height)]
    if not spans:
        return []
    marks = "".join(MARK if any(left * cell <= c <= right * cell for left, right in spans) else " "
                    for c in range(int(layout.width) * cell + 1))
    return ["   " + marks.rstrip()]


def _goal_lines(layout, end: int, cell: int, margin: str) -> list[str]:
    """The goal at ``end`` (0 the first team's, 1 the second's) as a line of ``#`` under the
    characters it spans, ``cell`` characters to a cell; [] without goals."""
    if not layout.goals:
        return []
    goal = layout.goals[end]
    marks = "".join("#" if c < (goal.x + goal.width) * cell and c + 1 > goal.x * cell else " "
                    for c in range(int(layout.width * cell)))
    return [margin + marks.rstrip()]


def _zone_markers(state, team) -> list[tuple[str, str, int]]:
    """``(symbol, field name, space)`` for each shown game field of type space that points at a
    space as ``team`` sees it (taktinen's ``ball`` and ``target``), at most one per symbol of
    :data:`MARKERS` (``show: false`` fields are bookkeeping, never drawn)."""
    rules = state.game.rules
    seen = state.s if team is None else state.observation(team)
    fields = [f for f in rules.fields if f.of is None and f.type == "space" and f.show]
    return [(symbol, f.name, seen[f.base]) for symbol, f in zip(MARKERS, fields) if seen[f.base] >= 0]


def _zone_lines(state, layout, spans: list | None = None, team=None, word=None) -> list[str]:
    """A board of zones as boxes on a character canvas: each zone's name and its pieces counted
    by team, the shades, the marked areas, the goals, the halfway line, the centre circle and the
    band numbers; a zone a game field of type space points at (the ball) carries its marker
    (:data:`MARKERS`), named in a legend line under the board (``● ball``, the field's name in
    ``word``)."""
    rules = state.game.rules
    markers = _zone_markers(state, team)
    across, down = int(layout.width) * ZONE_WIDTH + 1, int(layout.height) * ZONE_HEIGHT + 1
    canvas = [[" "] * across for _ in range(down)]
    frames = {}
    for name, box in layout.boxes.items():
        left, right = int(box.x * ZONE_WIDTH), int((box.x + box.width) * ZONE_WIDTH)
        top = int((layout.height - box.y - box.height) * ZONE_HEIGHT)
        bottom = int((layout.height - box.y) * ZONE_HEIGHT)
        frames[name] = (left, right, top, bottom)
        shade = " " if layout.shades[name] == 0 else SHADE_MARKS[layout.shades[name]]
        for row in range(top + 1, bottom):      # a mark on every other character, to keep names legible
            canvas[row][left + 1:right] = [shade if (c + row) % 2 else " " for c in range(left + 1, right)]
    for left, right, top, bottom in frames.values():
        for row in (top, bottom):
            canvas[row][left:right + 1] = "+" + "-" * (right - left - 1) + "+"
        for row in range(top + 1, bottom):
            canvas[row][left] = canvas[row][right] = "|"
    for box in layout.marks.values():
        left, right = int(box.x * ZONE_WIDTH), int((box.x + box.width) * ZONE_WIDTH)
        top, bottom = (int((layout.height - y) * ZONE_HEIGHT) for y in (box.y + box.height, box.y))
        for row in (top, bottom):
            canvas[row][left:right + 1] = MARK * (right - left + 1)
        for row in range(top + 1, bottom):
            canvas[row][left] = canvas[row][right] = MARK
    if layout.halfway is not None:
        row = int((layout.height - layout.halfway) * ZONE_HEIGHT)
        canvas[row] = ["=" if c in " -" + SHADE_MARKS else c for c in canvas[row]]
        if layout.circle is not None:
            x, _, radius = layout.circle
            centre, reach = int(x * ZONE_WIDTH), max(2, round(radius * ZONE_WIDTH))
            canvas[row][centre - reach], canvas[row][centre], canvas[row][centre + reach] = "(", "O", ")"
    above = _goal_lines(layout, 1, ZONE_WIDTH, "   ")
    for index, name in enumerate(rules.spaces):
        left, right, top, _ = frames[name]
        tokens = _count_tokens(state, index)
        marks = "".join(symbol for symbol, _, space in markers if space == index)
        label = " ".join([name, *(token for _, token in tokens), marks]).rstrip()[:right - left - 1]
        canvas[top + 1][left + 1:left + 1 + len(label)] = label
        if spans is not None:
            start = 3 + left + 1 + len(name) + 1
            for owner, token in tokens:
                end = min(start + len(token), 3 + left + 1 + len(label))
                if end > start:
                    spans.append((len(above) + top + 1, start, end, owner))
                start += len(token) + 1
    bands = set(layout.bands) and range(1, int(layout.height) + 1)
    across = {int((layout.height - y) * ZONE_HEIGHT): label for y, label in _across(state, layout, word or _words).items()}
    lines = []
    for row, chars in enumerate(canvas):
        band = int(layout.height) - row // ZONE_HEIGHT
        number = f"{band:>2} " if bands and row % ZONE_HEIGHT == 1 else "   "
        if row in across:
            chars = [ACROSS if c in " -" + SHADE_MARKS else c for c in chars]
            chars.append("  " + across[row])
        lines.append(number + "".join(chars).rstrip())
    legend = ["   " + "   ".join(f"{symbol} {(word or _words)(field)}" for symbol, field, _ in markers)] if markers else []
    return above + lines + _goal_lines(layout, 0, ZONE_WIDTH, "   ") + legend


def _across(state, layout, word) -> dict:
    """The lines across the pitch on the board now (:func:`rulecraft.layout.lines_across`): the
    ``y`` of each drawn one to its label, the team and the field in ``word``'s language (``home
    offside line``; lines at one ``y`` share it)."""
    rules = state.game.rules
    labels: dict = {}
    for line in lines_across(layout, state):
        if line.y is not None:
            label = word(line.field) if line.team is None else f"{word(rules.teams[line.team])} {word(line.field)}"
            labels[line.y] = f"{labels[line.y]}, {label}" if line.y in labels else label
    return labels


def _short_counts(state, space: int) -> str:
    """'H3 A2': the pieces on ``space`` counted by team, each team by its initial."""
    return " ".join(token for _, token in _count_tokens(state, space))


def _count_tokens(state, space: int) -> list[tuple[int, str]]:
    """``[(team, 'H3'), ...]``: each team with pieces on ``space`` and its count token."""
    rules = state.game.rules
    at = state.game.field("at")
    counts = [0] * len(rules.teams)
    for p in range(at.size):
        if state.s[at.base + p] == space:
            counts[rules.piece_team[p]] += 1
    return [(t, f"{rules.teams[t][:1].upper()}{n}") for t, n in enumerate(counts) if n]

