"""The ``board: drawing:`` entry: how a board is drawn, computed when compiling.

Every value is fixed by the spec and the options, so the reader turns the entry into constants
that the rule tables carry (``RuleTables.drawing``), and :mod:`rulecraft.layout` draws any game
from them without knowing which game it is:

* ``place:`` formulas over a space ``z`` (``x``, ``y``, optional ``width`` and ``height``, in
  cell units, ``y`` counted from the first team's end). A grid's squares default to their column
  and row, a board of ``spaces:`` with ``coordinates:`` to those; a board with neither is drawn
  as a graph.
* ``shade:`` a formula per space, a condition or a small whole number; by default a chequer
  (a space's column plus its rank counted up its column, modulo 2).
* ``lines:`` pitch markings from :data:`LINES`; ``goals:`` a goal at each end, one
  ``{width, depth, at}`` for both ends or a list of two (the first team's end, then the
  second's), ``at`` the ``x`` of the goal's middle (the end's middle by default);
  ``outline:`` the areas outlined (all of them by default); ``marks:`` areas drawn as a marking
  on the pitch (:data:`MARKS`: ``box``, the smallest rectangle around the area's spaces).
* ``across:`` whole-number state fields (plain, or one per team) whose values are the ``y`` of a
  line drawn across the pitch, in the ``place:`` units: a line that moves with the game, such as
  an offside line (a derived field computes it). Checked once the state is read
  (:meth:`DrawingReader.read_across`); a value off the pitch draws no line.

Formulas are checked and computed like board attributes (:func:`compile_time_value`).
Errors: RC380–RC389, RC374 (and the shape checks' RC320–RC323, RC367).
"""

from __future__ import annotations

from rulecraft.errors import SpecError, did_you_mean
from rulecraft.loader import Mapping
from rulecraft.compiler import ir
from rulecraft.compiler import types as T
from rulecraft.compiler import schema
from rulecraft.compiler.sizes import Sizes, compile_time_value
from rulecraft.limits import MAX_GRID, MAX_SHADES

LINES = schema.DRAWING_LINES
MARKS = schema.DRAWING_MARKS
PLACE_KEYS = ("x", "y", "width", "height")


class DrawingReader(Sizes):
    """Reads ``board: drawing:`` into the constants the rule tables carry (see the module docstring)."""

    def read_drawing(self, board, spaces: tuple, grid, zone_grid, areas: dict, neighbors: tuple) -> dict:
        """The drawing of the board whose ``spaces``, ``grid`` (or the ``coordinates:`` grid
        ``zone_grid``), ``areas`` and ``neighbors`` are read: a dict of constants (``kind``,
        ``boxes``, ``size``, ``shades``, ``lines``, ``goals``, ``outline``, ``marks``, ``links``).
        RC380–RC389."""
        drawing = board.get("drawing")
        if drawing is None:
            drawing = Mapping()
            drawing.position, drawing.key_positions, drawing.value_positions = board.position, {}, {}
        self.declared(drawing, "board: drawing:", schema.DRAWING)
        if "place" in drawing:
            kind, boxes = "zones", self._places(drawing, spaces)
        elif grid is not None or zone_grid is not None:
            kind = "grid" if grid is not None else "zones"
            boxes = tuple((col - 1, row - 1, 1, 1) for row, col in (grid or zone_grid).coords)
        else:
            kind, boxes = "graph", _graph_boxes(len(spaces))
        if grid is not None and "place" not in drawing:
            origin, size = (0, 0), (grid.columns, grid.rows)
        else:
            origin, size = _extent(boxes)
        boxes = tuple((x - origin[0], y - origin[1], w, h) for x, y, w, h in boxes)
        shades = (self._shades(drawing, spaces) if "shade" in drawing else _chequer(boxes))
        return {"kind": kind, "boxes": boxes, "size": size, "origin": origin, "shades": shades,
                "lines": self._lines(drawing), "goals": self._goals(drawing, size),
                "outline": self._outline(drawing, areas), "marks": self._marks(drawing, areas, boxes),
                "links": tuple((a, b) for a, near in enumerate(neighbors) for b in near if a < b)
                if kind == "graph" else ()}

    def read_across(self, board, fields) -> tuple:
        """The names under ``board: drawing: across:`` (see the module docstring), each a state
        field of whole numbers, plain or one per team; () without the entry. RC374 otherwise."""
        drawing = board.get("drawing") if board is not None else None
        if drawing is None or "across" not in drawing:
            return ()
        names = self.listed(drawing["across"], "board: drawing: across:", drawing.value_at("across"))
        usable = {f.name: f for f in fields if f.type == T.INT and f.of in (None, "team")}
        for index, name in enumerate(names):
            if str(name) not in usable:
                known = {f.name for f in fields}
                what = ("is not a whole-number state field, plain or one per team" if str(name) in known
                        else "is no state field")
                raise SpecError(f"'{name}' in across: {what}", drawing["across"].at(index), code="RC374",
                                hint=did_you_mean(str(name), usable) or "name an int field of state:, plain or "
                                "`of: team` (a derived: field computes a line that moves)")
        return tuple(dict.fromkeys(str(name) for name in names))

    def _per_space_values(self, mapping, key: str, spaces: tuple, what: str):
        """The checked formula ``mapping[key]`` over the space ``z``, computed on every space: its
        type and values. RC386 (naming the space) when it fails on one."""
        text = self.text(mapping, key, "board: drawing:")
        z = ir.Symbol("z", "local")
        formula = self.checker.formula(text, {"z": ir.Var(type=T.SPACE, symbol=z)}, None)
        if formula.type not in (T.INT, T.BOOL):
            raise SpecError(f"{what} must be a number or a condition on the space z", text.position,
                            code="RC381")
        values = tuple(int(compile_time_value(formula, {z: index}, text.position,
                                              f"{what} on the space {name}", code="RC386"))
                       for index, name in enumerate(spaces))
        return formula.type, values

    def _places(self, drawing, spaces: tuple) -> tuple:
        """Each space's ``(x, y, width, height)`` from ``place:``; RC380 for a size below 1, a
        place off the largest board, or two spaces that overlap."""
        place = drawing["place"]
        values = {}
        for key in PLACE_KEYS:
            if key in place:
                values[key] = self._per_space_values(place, key, spaces, f"the drawing's place {key}:")[1]
            else:
                values[key] = (1,) * len(spaces)
        boxes = tuple(zip(*(values[key] for key in PLACE_KEYS)))
        for index, (x, y, width, height) in enumerate(boxes):
            if width < 1 or height < 1:
                key = "width" if width < 1 else "height"
                raise SpecError(f"the space {spaces[index]} is drawn {key} {min(width, height)}; "
                                "a space is at least one cell each way", place.value_at(key), code="RC380")
            if not (-MAX_GRID <= x and x + width <= MAX_GRID and -MAX_GRID <= y and y + height <= MAX_GRID):
                raise SpecError(f"the space {spaces[index]} is drawn at x {x}, y {y}, off a board of "
                                f"{MAX_GRID} cells", place.value_at("x"), code="RC380")
        covered = {}
        for index, (x, y, width, height) in enumerate(boxes):
            for cell in ((cx, cy) for cx in range(x, x + width) for cy in range(y, y + height)):
                other = covered.setdefault(cell, index)
                if other != index:
                    raise SpecError(f"the spaces {spaces[other]} and {spaces[index]} are drawn over each other",
                                    drawing.value_at("place"), code="RC380")
        return boxes

    def _shades(self, drawing, spaces: tuple) -> tuple:
        """Each space's shade from ``shade:``; RC382 for a value outside 0 to MAX_SHADES - 1."""
        _, values = self._per_space_values(drawing, "shade", spaces, "the drawing's shade:")
        for index, value in enumerate(values):
            if not 0 <= value < MAX_SHADES:
                raise SpecError(f"the shade of the space {spaces[index]} is {value}, not one of 0 to "
                                f"{MAX_SHADES - 1}", drawing.value_at("shade"), code="RC382")
        return values

    def _lines(self, drawing) -> tuple:
        """The markings ``lines:`` names, each once; RC383 for a name outside :data:`LINES`."""
        lines = self.listed(drawing.get("lines"), "board: drawing: lines:", drawing.value_at("lines"))
        for index, line in enumerate(lines):
            if line not in LINES:
                raise SpecError(f"the drawing has no line '{line}'", drawing["lines"].at(index), code="RC383",
                                hint=did_you_mean(str(line), LINES) or "lines: " + ", ".join(LINES))
        return tuple(dict.fromkeys(str(line) for line in lines))

    def _goals(self, drawing, size) -> tuple | None:
        """``((width, depth, at), (width, depth, at))``: the goal at the first team's end, then
        at the second's, ``at`` the ``x`` of its middle; None without ``goals:``. RC384 for a size
        that is not positive, a goal wider than the board or deeper than one cell; RC387 for a
        list of other than two goals or a goal reaching past the end's corner."""
        if "goals" not in drawing:
            return None
        goals = drawing["goals"]
        if isinstance(goals, Mapping):
            return (self._goal(goals, size),) * 2
        if len(goals) != 2:
            raise SpecError(f"goals: lists {len(goals)} goals; it gives one for both ends or a list of "
                            "two, the first team's end then the second's", drawing.value_at("goals"),
                            code="RC387")
        return tuple(self._goal(goals[end], size, goals.at(end)) for end in (0, 1))

    def _goal(self, goal, size, position=None) -> tuple:
        """One goal ``(width, depth, at)`` of ``goals:`` (see :meth:`_goals`); RC320 for an item
        that is no mapping, RC384, RC387."""
        if not isinstance(goal, Mapping):
            raise SpecError("a goal in goals: must be a mapping {width, depth, at}", position, code="RC320")
        self.declared(goal, "board: drawing: goals:", schema.GOAL)
        width, depth, at = goal["width"], goal["depth"], goal.get("at", size[0] / 2)
        if not 0 < width <= size[0]:
            raise SpecError(f"a goal {width:g} cells wide does not fit an end {size[0]} cells wide",
                            goal.value_at("width"), code="RC384")
        if not 0 < depth <= 1:
            raise SpecError(f"a goal {depth:g} cells deep: the depth is more than 0 and at most 1",
                            goal.value_at("depth"), code="RC384")
        if not width / 2 <= at <= size[0] - width / 2:
            raise SpecError(f"a goal {width:g} cells wide centred at {at:g} reaches past the end, which "
                            f"runs from 0 to {size[0]}", goal.value_at("at"), code="RC387")
        return float(width), float(depth), float(at)

    def _outline(self, drawing, areas: dict) -> dict:
        """The areas outlined and their members: ``outline:``'s, else every area; RC385 for a
        name that is no area."""
        if "outline" not in drawing:
            return dict(areas)
        names = self.listed(drawing["outline"], "board: drawing: outline:", drawing.value_at("outline"))
        for index, name in enumerate(names):
            if name not in areas:
                raise SpecError(f"'{name}' in outline: is no area of the board", drawing["outline"].at(index),
                                code="RC385", hint=did_you_mean(str(name), areas) or
                                "outline the areas named under board: areas:")
        return {str(name): areas[str(name)] for name in names}

    def _marks(self, drawing, areas: dict, boxes: tuple) -> dict:
        """Each marked area's box ``(x, y, width, height)``, the smallest rectangle around its
        spaces' ``boxes``; RC388 for a name that is no area or an area without spaces, RC389 for
        a marking outside :data:`MARKS`."""
        marks = drawing.get("marks") or {}
        drawn = {}
        for name, mark in marks.items():
            if name not in areas or not areas[name]:
                raise SpecError(f"'{name}' in marks: is no area of the board with spaces", marks.where(name),
                                code="RC388", hint=did_you_mean(str(name), areas) or
                                "mark the areas named under board: areas:")
            if mark not in MARKS:
                raise SpecError(f"an area cannot be drawn as '{mark}'", marks.value_at(name), code="RC389",
                                hint=did_you_mean(str(mark), MARKS) or "marks: {AREA: box}")
            (x, y), size = _extent(tuple(boxes[index] for index in areas[name]))
            drawn[str(name)] = (x, y) + size
        return drawn


def _graph_boxes(count: int) -> tuple:
    """Spaces of a board without geometry, in rows of about the square root of their number,
    a cell apart."""
    per_row = 1
    while per_row * per_row < count:
        per_row += 1
    return tuple((2 * (i % per_row), 2 * (i // per_row), 1, 1) for i in range(count))


def _extent(boxes: tuple) -> tuple:
    """``((x, y), (width, height))``: the corner and size of the rectangle around ``boxes``."""
    if not boxes:
        return (0, 0), (0, 0)
    left, bottom = min(b[0] for b in boxes), min(b[1] for b in boxes)
    return (left, bottom), (max(b[0] + b[2] for b in boxes) - left, max(b[1] + b[3] for b in boxes) - bottom)


def _chequer(boxes: tuple) -> tuple:
    """The default shades: a space's column plus its rank up its column (from the first team's
    end), modulo 2; a full grid gets a chequer, a column of zones alternates."""
    rank, seen = {}, {}
    for index in sorted(range(len(boxes)), key=lambda i: (boxes[i][0], boxes[i][1])):
        rank[index] = seen.get(boxes[index][0], 0)
        seen[boxes[index][0]] = rank[index] + 1
    return tuple((boxes[i][0] + rank[i]) % 2 for i in range(len(boxes)))

