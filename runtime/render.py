"""Text views of a state: the board as characters and the state's visible fields.

The board is drawn from its layout (:func:`rulecraft.layout.board_layout`), the one the site's
SVG uses: a grid prints as a matrix (rows top to bottom from the highest row, so the first
team's end is at the bottom), a board of zones as boxes on a character canvas, each with its
name and the pieces on it by team and number (``H G 1-3 7`` / ``A 2 9``: a team's initial, a
kind other than the team's main one by its initial, a run of three numbers or more as
``first-last``); a board without geometry lists each space
with what stands on it. Empty spaces show their shade (:data:`SHADE_MARKS`); the goals print as
``#`` beyond both ends, the halfway line as ``=`` (``-`` through a grid's middle row), the
centre circle as ``(O)``, the bands as their numbers in the margin, the areas marked as boxes
(a penalty area) as a frame of :data:`MARK`, a line across the pitch (an offside line) as a
line of :data:`ACROSS` (a zone board's border row, named in the margin). Pieces print as their
team's initial and kind; spaces without pieces show per-space fields (e.g. a mark) or their shade.
"""

from __future__ import annotations

import textwrap

from rulecraft.layout import board_layout, lines_across

SHADE_MARKS = ".:-="     # an empty space of shade 0, 1, 2, 3 (space shades are 0 to 3)
MARK = "*"              # the frame of an area marked as a box
ACROSS = "~"            # a line across the pitch that moves with the game (board: drawing: across:)
OUTLINE = "═║"          # the edges (across, down) round an outlined area of zones (board: drawing: outline:)
ZONE_WIDTH, ZONE_HEIGHT = 17, 3     # characters a cell of a zone board takes across and down:
                                    # room for a zone's name and each team's pieces by number
BOARD_COLUMNS = 100     # a zone board and the labels beside it keep within this many characters
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
    grid, or a team's initial and pieces on a zone, is appended to it as ``(line, start, end, team)``: the
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


def visible_fields(state, team: int | None, hidden: str, word=None, deciders: bool = True,
                   piece=None, truth=None) -> list[tuple[str, str, bool]]:
    """Every shown field (``show:`` not false) as ``(name, value, brief)`` for ``team``: a field
    another team keeps secret reads ``hidden`` (never its raw -1), a field without a value is
    left out. ``brief`` marks what a status line holds: a field of the game or of each team
    (not of a piece or a space) that ``team`` sees whole, unless the spec shows it only in full
    views (``show: state``). ``word`` (a spec name to the words
    shown, e.g. :meth:`rulecraft.runtime.narrate.Narrator.word`) is applied to field names,
    team names and named values; without it they read as in the spec. With ``deciders`` false,
    the fields a choice's ``by:`` names (:attr:`FlowNode.by`, the classic ``to_move``) are left
    out: they say whose decision it is, which a status line shows once ("to play"). ``piece``
    names a piece by its index (default: the engine's label, ``away #1``), for a field holding a
    piece and for the pieces a per-piece field is listed by; ``truth`` writes a boolean value
    (default: ``true``, ``false``)."""
    word = word or str
    piece = piece or (lambda index: state.game.rules.piece_labels[index])
    game = state.game
    rules = game.rules
    skip = set() if deciders else {node.by for node in rules.nodes if node.by}
    seen = state.s if team is None else state.observation(team)
    secret = {i for i, (true, known) in enumerate(zip(state.s, seen)) if true != known}
    result = []
    for f in rules.fields:
        if f.name == "at" or not f.show or f.name in skip:
            continue
        labels = {"team": [word(t) for t in rules.teams], "space": rules.spaces,
                  "piece": [piece(index) for index in range(len(rules.piece_labels))]}.get(f.of)
        parts, whole = [], True
        for i in range(f.size):
            if f.base + i in secret:
                value, whole = hidden, False
            elif f.type == "piece":
                value = piece(seen[f.base + i]) if seen[f.base + i] >= 0 else None
            elif f.type == "bool" and truth is not None:
                value = truth(bool(seen[f.base + i]))
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
    """A board of zones as boxes on a character canvas: each zone's name and, a line for each
    team, its pieces by number (:func:`_zone_pieces`, :func:`_zone_text`), the shades, the
    marked areas, the goals, the halfway line, the centre circle, the band numbers and the lines
    across the pitch (labelled beside the board, wrapped to keep within :data:`BOARD_COLUMNS`);
    a zone a game field of type space points at (the ball) carries its marker
    (:data:`MARKERS`). A legend line under the board names the markers and the kinds marked by
    their initial (``● ball   G goalkeeper``, in ``word``'s language). ``spans`` gets each
    team's tokens (see :func:`board_lines`)."""
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
    for members in layout.outlines.values():
        _outline(canvas, [frames[name] for name, box in layout.boxes.items() if box in members])
    for box in layout.marks.values():
        left, right = int(box.x * ZONE_WIDTH), int((box.x + box.width) * ZONE_WIDTH)
        top, bottom = (int((layout.height - y) * ZONE_HEIGHT) for y in (box.y + box.height, box.y))
        for row in (top, bottom):
            canvas[row][left:right + 1] = MARK * (right - left + 1)
        for row in range(top + 1, bottom):
            canvas[row][left] = canvas[row][right] = MARK
    halfway = None
    if layout.halfway is not None:
        row = halfway = int((layout.height - layout.halfway) * ZONE_HEIGHT)
        canvas[row] = ["=" if c in " -" + SHADE_MARKS else c for c in canvas[row]]
        if layout.circle is not None:
            x, _, radius = layout.circle
            centre, reach = int(x * ZONE_WIDTH), max(2, round(radius * ZONE_WIDTH))
            canvas[row][centre - reach], canvas[row][centre], canvas[row][centre + reach] = "(", "O", ")"
    above = _goal_lines(layout, 1, ZONE_WIDTH, "   ")
    lists, kinds = _zone_pieces(state)
    written: dict = {}                      # row: the columns a zone's text takes (a line across keeps them)
    for index, name in enumerate(rules.spaces):
        left, right, top, bottom = frames[name]
        marks = "".join(symbol for symbol, _, space in markers if space == index)
        head = [(name, None)] + ([(marks, None)] if marks else [])
        rows = [row for row in range(top + 1, bottom) if row != halfway]   # the halfway line stays whole
        for row, segments in zip(rows, _zone_text(head, lists.get(index, []), right - left - 1, len(rows))):
            column = left + 1
            for text, owner in segments:
                if owner is not None and spans is not None:
                    spans.append((len(above) + row, 3 + column, 3 + column + len(text), owner))
                canvas[row][column:column + len(text)] = text
                column += len(text)
            canvas[row][column:right] = " " * (right - column)     # no shade beside a text, to keep it legible
            written.setdefault(row, set()).update(range(left + 1, column + 1))
    bands = set(layout.bands) and range(1, int(layout.height) + 1)
    across = {int((layout.height - y) * ZONE_HEIGHT): label for y, label in _across(state, layout, word or _words).items()}
    room = BOARD_COLUMNS - 3 - len(canvas[0]) - 2         # for a label beside the board
    beside: dict = {}
    for row, label in sorted(across.items()):                # a long label goes on over the rows below
        for offset, part in enumerate(textwrap.wrap(label, max(room, 12))[:ZONE_HEIGHT]):
            beside.setdefault(row + offset, part)
    lines = []
    for row, chars in enumerate(canvas):
        band = int(layout.height) - row // ZONE_HEIGHT
        number = f"{band:>2} " if bands and row % ZONE_HEIGHT == 1 else "   "
        if row in across:
            chars = [ACROSS if c in " -" + SHADE_MARKS and x not in written.get(row, ()) else c
                     for x, c in enumerate(chars)]
        if row in beside:
            chars = chars + ["  " + beside[row]]
        lines.append(number + "".join(chars).rstrip())
    word = word or _words
    initials = _kind_initials(rules)
    keys = [(symbol, field) for symbol, field, _ in markers] + [(initials[kind], kind) for kind in kinds]
    if layout.outlines:
        keys.append((OUTLINE[1], ", ".join(word(area) for area in layout.outlines)))
    legend = ["   " + "   ".join(f"{symbol} {word(name)}" for symbol, name in keys)] if keys else []
    return above + lines + _goal_lines(layout, 0, ZONE_WIDTH, "   ") + legend


def _outline(canvas: list, frames: list) -> None:
    """Draw round the zones whose canvas ``frames`` (``(left, right, top, bottom)``) make up one
    outlined area: each edge of a member zone that no other member shares is drawn in
    :data:`OUTLINE` (the corners stay ``+``), so an area of several zones is one frame."""
    def shared(row: int, column: int, across: bool) -> bool:
        return sum(1 for left, right, top, bottom in frames
                   if (row in (top, bottom) and left < column < right if across
                       else column in (left, right) and top < row < bottom)) > 1
    for left, right, top, bottom in frames:
        for row in (top, bottom):
            for column in range(left + 1, right):
                if not shared(row, column, True):
                    canvas[row][column] = OUTLINE[0]
        for column in (left, right):
            for row in range(top + 1, bottom):
                if not shared(row, column, False):
                    canvas[row][column] = OUTLINE[1]


def _across(state, layout, word) -> dict:
    """The lines across the pitch on the board now (:func:`rulecraft.layout.lines_across`): the
    ``y`` of each drawn one to its label, the field and the team in ``word``'s language (``offside
    line: home``, as the rulebook's legend names it, a word order every language takes; lines at
    one ``y`` share it)."""
    rules = state.game.rules
    labels: dict = {}
    for line in lines_across(layout, state):
        if line.y is not None:
            label = word(line.field) if line.team is None else f"{word(line.field)}: {word(rules.teams[line.team])}"
            labels[line.y] = f"{labels[line.y]}, {label}" if line.y in labels else label
    return labels


def _zone_pieces(state) -> tuple[dict, list]:
    """``({space: [(team, [token, ...]), ...]}, kinds)``: the pieces on each space of a zone board, by
    team in the spec's order, each team's tokens its initial (``H``) and then its pieces, those of
    a kind other than the team's most numerous one first by the kind's initial (``G``, ``G2``:
    see :func:`_kind_initials`), then the numbered ones in order, a run of three or more as
    ``first-last`` (``H G 1-3 7``); ``kinds`` are those marked by their initial, in the spec's
    order (for the legend). Pieces off the board (``none``) are in no list."""
    rules = state.game.rules
    at = state.game.field("at")
    initials = _kind_initials(rules)
    main = {}
    for team in range(len(rules.teams)):
        kinds = [_piece_kind(rules, p) for p in range(at.size) if rules.piece_team[p] == team]
        main[team] = max(kinds, key=kinds.count) if kinds else None
    found: dict = {}
    for p in range(at.size):
        space = state.s[at.base + p]
        if space >= 0:
            found.setdefault(space, {}).setdefault(rules.piece_team[p], []).append(p)
    lists, kinds = {}, set()
    for space, teams in found.items():
        lists[space] = []
        for team in sorted(teams):
            marked, numbers, others = [], [], []
            for p in teams[team]:
                kind, number = _piece_kind(rules, p), _piece_number(rules, p)
                if kind is not None and (kind != main[team] or number is None):
                    marked.append(initials[kind] + ("" if number is None else str(number)))
                    kinds.add(kind)
                elif number is not None:
                    numbers.append(number)
                else:
                    others.append(_piece_rest(rules, p))
            tokens = [rules.teams[team][:1].upper(), *sorted(marked), *_runs(sorted(numbers)), *others]
            lists[space].append((team, tokens))
    return lists, [kind for kind in rules.kinds if kind in kinds]


def _piece_rest(rules, piece: int) -> str:
    """A piece's label without its team's name: ``outfield 3``, ``goalkeeper``, ``X5``, ``2``."""
    label = rules.piece_labels[piece]
    team = rules.teams[rules.piece_team[piece]]
    return label[len(team) + 1:] if label.startswith(team + " ") else label


def _piece_kind(rules, piece: int) -> str | None:
    """The kind a piece's label names in words (``outfield``), None for a kind written as its
    symbol (``X5``) or a piece of no kind."""
    first = _piece_rest(rules, piece).split(" ")[0]
    return first if first in rules.kinds else None


def _piece_number(rules, piece: int) -> int | None:
    """The number that ends a piece's label (``outfield 3``: 3), None without one."""
    last = _piece_rest(rules, piece).split(" ")[-1]
    return int(last) if last.isdigit() else None


def _kind_initials(rules) -> dict:
    """Each kind's initial as a zone board marks it (``goalkeeper``: ``G``), upper case, with
    the kind's next letter added (``Go``) when two kinds share an initial."""
    initials = {}
    for kind in rules.kinds:
        mark = kind[:1].upper()
        if mark in initials.values():
            mark = kind[:2].capitalize()
        initials[kind] = mark
    return initials


def _runs(numbers: list[int]) -> list[str]:
    """Sorted numbers as tokens, a run of three or more consecutive ones as ``first-last``
    (``[1, 2, 3, 7]``: ``["1-3", "7"]``)."""
    tokens, i = [], 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        if j - i >= 2:
            tokens.append(f"{numbers[i]}-{numbers[j]}")
            i = j + 1
        else:
            tokens.append(str(numbers[i]))
            i += 1
    return tokens


def _run_size(token: str) -> int:
    """How many pieces a token of :func:`_runs` stands for (``1-3``: 3; ``7`` or ``G``: 1)."""
    low, _, high = token.partition("-")
    return int(high) - int(low) + 1 if high.isdigit() and low.isdigit() else 1


def _zone_text(head: list, teams: list, width: int, rows: int) -> list[list[tuple[str, int | None]]]:
    """The lines written in a zone's box, ``width`` characters and at most ``rows`` lines, each a
    list of ``(text, team or None)`` segments: the ``head`` (the name and markers) on the first
    line, then each team's tokens on lines of their own (wrapped, the continuation indented);
    when that takes too many lines, everything flows on from the head; when even that does not
    fit, the last line ends with ``+N``, the number of pieces left out."""
    def flow(groups: list, own_lines: bool) -> list:
        lines, current, used = [], [], 0
        for group in groups:
            if own_lines and current:
                lines.append(current)
                current, used = [], 0
            for k, (text, owner) in enumerate(group):
                gap = 1 if current else 0
                if current and used + gap + len(text) > width:
                    lines.append(current)
                    current, used, gap = [(" ", None)] if k else [], 1 if k else 0, 0
                if gap:
                    current.append((" ", None))
                current.append((text[:width], owner))
                used += gap + len(text[:width])
        return lines + ([current] if current else [])

    groups = [head] + [[(token, team) for token in tokens] for team, tokens in teams]
    for own_lines in (True, False):
        lines = flow(groups, own_lines)
        if len(lines) <= rows:
            return lines
    lines = lines[:rows]
    flat = [(k, token) for _, tokens in teams for k, token in enumerate(tokens)]
    last = lines[-1]
    while True:
        shown = sum(1 for line in lines[:-1] + [last] for _, owner in line if owner is not None)
        left = sum(_run_size(token) for k, token in flat[shown:] if k)     # the team's initial is no piece
        while last and last[-1][1] is None and not last[-1][0].strip():
            last = last[:-1]
        if sum(len(text) for text, _ in last) + len(f" +{left}") <= width or not last or last[-1][1] is None:
            break                                # (the head stays: the zone's name and markers)
        last = last[:-1]
    return lines[:-1] + [last + [(f" +{left}", None)]]
