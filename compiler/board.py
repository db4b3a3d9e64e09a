"""The ``board:`` section: spaces (a grid or a list of zones), their attributes, adjacency, areas.

Everything here is computed when compiling: each attribute's value on every space, the
neighbours, the shortest distances, the areas' members and the straight lines ``lines(n)`` asks
for become tables the rules read at play time. Formulas (``attributes:``, ``adjacent:``,
``areas:``, ``playable:``) are checked like any rule string and computed by the compile-time
evaluator (:mod:`evaluate`). Errors: RC331–RC336 and the checker's.
"""

from __future__ import annotations

from rulecraft.errors import SpecError
from rulecraft.loader import Mapping, Sequence
from rulecraft.compiler import ir
from rulecraft.compiler import types as T
from rulecraft.compiler import schema
from rulecraft.compiler.drawing import DrawingReader
from rulecraft.compiler.sizes import compile_time_value
from rulecraft.limits import MAX_GRID, MAX_SPACE_NAME
from rulecraft.compiler.symbols import Attribute
from rulecraft.runtime.support import DIRECTIONS, Distances, Towards
from rulecraft.runtime.template import GRID_FIELDS, FieldTemplate

DIRECTION_NAMES = tuple(name for name, _, _ in DIRECTIONS)
# the lists of directions a formula may name
DIRECTION_LISTS = {"directions": DIRECTION_NAMES, "orthogonal_directions": ("n", "e", "s", "w"),
                   "diagonal_directions": ("ne", "se", "sw", "nw")}
# adjacency presets on a grid: (row, column) steps to the neighbours
PRESETS = {"orthogonal": ((-1, 0), (0, -1), (0, 1), (1, 0)),
           "diagonal": ((-1, -1), (-1, 1), (1, -1), (1, 1)),
           "king": ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))}


class BoardReader(DrawingReader):
    """Reads ``board:`` into an :class:`ir.BoardIR` and declares its names (spaces, ``spaces``,
    areas, the space attributes)."""

    def read_board(self, board) -> ir.BoardIR:
        """The board; RC320–RC325, RC331–RC336, the drawing's RC380–RC386 and formula errors."""
        if board is None:
            board = Mapping()
            board.position, board.key_positions, board.value_positions = self.top(), {}, {}
        self.declared(board, "board:", schema.BOARD, self.data.value_at("board"))
        if ("grid" in board) == ("spaces" in board) and board:
            raise SpecError("a board has either grid: or spaces:, exactly one", board.position,
                            code="RC331")
        grid, attributes = None, {}
        if "grid" in board:
            spaces, grid = self._grid(board["grid"], board.value_at("grid"))
            attributes["row"] = (T.INT, tuple(r for r, _ in grid.coords))
            attributes["col"] = (T.INT, tuple(c for _, c in grid.coords))
        elif "spaces" in board:
            spaces, attributes = self._zones(board["spaces"])
        else:
            spaces = ()
        self.symbols.space_count = len(spaces)
        for index, name in enumerate(spaces):
            self.declare(name, ir.Const(type=T.SPACE, value=index), board.position)
        self.declare("spaces", ir.Span(type=T.ListOf(T.SPACE), low=_int(0), high=_int(len(spaces) - 1)),
                     board.position)
        for name, (kind, values) in attributes.items():
            self._space_attribute(name, kind, values)
        derived = board.get("attributes") or Mapping()
        for name, _ in self.entries(derived, "board: attributes:", board.value_at("attributes")):
            self.identifier(name, derived.where(name), "the attribute")
            attributes[str(name)] = self._per_space(derived, name, len(spaces))
            self._space_attribute(str(name), *attributes[str(name)])
        neighbors = self._adjacency(board, len(spaces), grid)
        distance = Distances(neighbors)
        zone_grid = self._coordinates(board, len(spaces))
        self._geometry(spaces, neighbors, distance, grid, zone_grid)
        areas = {}
        area_specs = board.get("areas") or Mapping()
        for name, _ in self.entries(area_specs, "board: areas:", board.value_at("areas")):
            self.identifier(name, area_specs.where(name), "the area")
            kind, flags = self._per_space(area_specs, name, len(spaces), T.BOOL)
            members = tuple(i for i, flag in enumerate(flags) if flag)
            areas[str(name)] = members
            table = ir.StaticTable("area", f"AREA_{name}", members, T.ListOf(T.SPACE))
            self.declare(str(name), ir.Static(type=T.ListOf(T.SPACE), table=table, keys=()), area_specs.where(name))
        drawing = self.read_drawing(board, tuple(spaces), grid, zone_grid, areas, neighbors)
        return ir.BoardIR(tuple(spaces), grid, attributes, neighbors, distance, areas, drawing=drawing)

    def _space_attribute(self, name, kind, values):
        table = ir.StaticTable("space", name, tuple(values), kind)
        self.symbols.attributes[(T.SPACE, name)] = Attribute("static", kind, table=table)

    def _coordinates(self, board, count) -> ir.GridIR | None:
        """A zone board's ``coordinates:`` (a row and a column formula over each zone ``z``), as
        the grid its directions are taken on; None without it. RC379 on a grid board, for a key
        other than row and column, or when two zones share a place."""
        if "coordinates" not in board:
            return None
        if "grid" in board:
            raise SpecError("a grid has its coordinates already; coordinates: is for a board of spaces:",
                            board.where("coordinates"), code="RC379")
        spec = board["coordinates"]
        if not isinstance(spec, Mapping) or set(spec) != {"row", "column"}:
            raise SpecError("coordinates: gives row: and column:, each a formula over the zone z",
                            board.value_at("coordinates"), code="RC379", hint='e.g. {row: "z.step", column: "z.column"}')
        rows, columns = (self._per_space(spec, key, count)[1] for key in ("row", "column"))
        coords = tuple(zip(rows, columns))
        first = {}
        for index, place in enumerate(coords):
            if first.setdefault(place, index) != index:
                raise SpecError(f"two zones are at row {place[0]}, column {place[1]}", spec.value_at("row"),
                                code="RC379", hint="give every zone its own row and column")
        return ir.GridIR(max(rows, default=0), max(columns, default=0), coords)

    def _geometry(self, spaces, neighbors, distance, grid, zone_grid=None):
        statics = self.symbols.statics
        statics["NEIGHBORS"] = ir.StaticTable("board", "NEIGHBORS", neighbors, T.ListOf(T.SPACE))
        statics["NEIGHBOR_SETS"] = ir.StaticTable("board", "NEIGHBOR_SETS",
                                                  tuple(frozenset(n) for n in neighbors), T.ListOf(T.SPACE))
        statics["DISTANCE"] = ir.StaticTable("board", "DISTANCE", distance, T.INT, offsets=(0, 0))
        coords = grid.coords if grid is not None else ()
        statics["SPACE_AT"] = ir.StaticTable("board", "SPACE_AT", {rc: i for i, rc in enumerate(coords)},
                                             T.SPACE)
        directions = grid if grid is not None else zone_grid      # where step(), ray() and direction() look
        if directions is not None:
            step, ray = grid_directions(directions)
            statics["STEP"] = ir.StaticTable("grid", "STEP", step, T.SPACE, offsets=(0, 0))
            statics["RAY"] = ir.StaticTable("grid", "RAY", ray, T.ListOf(T.SPACE), offsets=(0, 0))
            self.symbols.grid = directions

    def _grid(self, grid, at):
        self.declared(grid, "board: grid:", schema.GRID, at)
        rows, cols = (self.fixed_number(grid[key], grid.value_at(key), f"'{key}'", 1, MAX_GRID, "RC332")
                      for key in ("rows", "columns"))
        pattern = FieldTemplate.parse(grid.get("name", "{col_letter}{row}"), dict.fromkeys(GRID_FIELDS, False),
                                      code="RC333", what="the grid's name:", position=grid.value_at("name"))
        playable = None
        if "playable" in grid:
            row, col = ir.Symbol("row", "local"), ir.Symbol("col", "local")
            scope = {"row": ir.Var(type=T.INT, symbol=row), "col": ir.Var(type=T.INT, symbol=col)}
            playable = (self.checker.formula(self.text(grid, "playable", "grid"), scope, T.BOOL,
                                             "condition"), row, col)
        spaces, coords = [], []
        for r in range(1, rows + 1):
            for c in range(1, cols + 1):
                if playable and not self._board_value(playable[0], {playable[1]: r, playable[2]: c},
                                                       grid.value_at("playable")):
                    continue
                spaces.append(pattern.fill({"row": str(r), "col": str(c), "col_letter": chr(ord("A") + c - 1),
                                            "row_letter": chr(ord("a") + r - 1)}))
                coords.append((r, c))
        longest = max(spaces, key=len, default="")
        self.at_most(len(longest), MAX_SPACE_NAME, f"characters in the name '{longest[:20]}…'", grid.value_at("name"),
                     "a space's name is written in every notation; use a shorter pattern")
        if len(set(spaces)) != len(spaces):
            raise SpecError("this name pattern gives two spaces the same name", grid.value_at("name"),
                            code="RC333")
        return tuple(spaces), ir.GridIR(rows, cols, tuple(coords))

    def _zones(self, spaces):
        if not isinstance(spaces, Sequence) or not spaces:
            raise SpecError("spaces: lists the board's spaces", getattr(spaces, "position", None),
                            code="RC334")
        names, attributes, keys = [], {}, None
        for index, space in enumerate(spaces):
            if not isinstance(space, Mapping) or "id" not in space:
                raise SpecError("each space is a mapping with an id: and its attributes",
                                spaces.at(index), code="RC334")
            names.append(str(self.identifier(space["id"], space.value_at("id"), "the space")))
            these = [k for k in space if k != "id"]
            if keys is None:
                keys = these
            elif set(these) != set(keys):
                missing = set(keys) ^ set(these)
                raise SpecError(f"every space needs the same attributes; this one differs in "
                                f"{', '.join(sorted(map(str, missing)))}", spaces.at(index), code="RC334")
            for key in these:
                value = space[key]
                if isinstance(value, bool) or not isinstance(value, int):
                    raise SpecError(f"space attribute '{key}' must be a whole number",
                                    space.value_at(key), code="RC334",
                                    hint="attributes are numbers; derive others under attributes:")
                self.identifier(key, space.where(key), "the attribute")
                attributes.setdefault(str(key), (T.INT, []))[1].append(value)
        return tuple(names), {name: (kind, tuple(values)) for name, (kind, values) in attributes.items()}

    def _adjacency(self, board, count, grid) -> tuple:
        if board.get("adjacent") is None:
            return tuple(() for _ in range(count))
        text = self.text(board, "adjacent", "board")
        if str(text) in PRESETS:
            if grid is None:
                raise SpecError(f"'{text}' adjacency needs a grid board", board.value_at("adjacent"),
                                code="RC335")
            index = {rc: i for i, rc in enumerate(grid.coords)}
            return tuple(tuple(sorted(index[(r + dr, c + dc)] for dr, dc in PRESETS[str(text)]
                                      if (r + dr, c + dc) in index)) for r, c in grid.coords)
        a, b = ir.Symbol("a", "local"), ir.Symbol("b", "local")
        scope = {"a": ir.Var(type=T.SPACE, symbol=a), "b": ir.Var(type=T.SPACE, symbol=b)}
        rule = self.checker.formula(text, scope, T.BOOL, "adjacency condition")
        result = tuple(tuple(y for y in range(count) if y != x and
                             self._board_value(rule, {a: x, b: y}, text.position)) for x in range(count))
        for x, near in enumerate(result):
            for y in near:
                if x not in result[y]:
                    names = self.symbols.names
                    spaces = [n for n, e in names.items() if isinstance(e, ir.Const) and e.type == T.SPACE]
                    raise SpecError(f"adjacency must be symmetric: {spaces[x]} touches {spaces[y]} "
                                    "but not the other way", text.position, code="RC335")
        return result

    def _per_space(self, mapping, name, count, expect=T.INT):
        text = self.text(mapping, name, "board")
        z = ir.Symbol("z", "local")
        formula = self.checker.formula(text, {"z": ir.Var(type=T.SPACE, symbol=z)}, None)
        if formula.type not in (T.INT, T.BOOL):
            raise SpecError("a space attribute is a number or a condition", text.position, code="RC336")
        values = tuple(int(self._board_value(formula, {z: space}, text.position)) for space in range(count))
        if expect == T.BOOL and formula.type != T.BOOL:
            raise SpecError("an area is a condition on the space z", text.position, code="RC336")
        return formula.type, values

    def _board_value(self, formula, env, position):
        """The value of a board formula for the variables ``env``; RC356 when it fails or reads
        something that changes during a game."""
        return compile_time_value(formula, env, position, "a board formula")


def _int(value: int) -> ir.Const:
    return ir.Const(type=T.INT, value=value)


def grid_directions(grid: ir.GridIR) -> tuple:
    """``(step, ray)``: the grid's direction tables, per square and direction (in
    :data:`DIRECTIONS` order): ``step`` the next square (-1 off the board or on a square that is
    not playable), ``ray`` the squares from there on to the edge or the first missing square."""
    index = {rc: i for i, rc in enumerate(grid.coords)}
    steps, rays = [], []
    for row, col in grid.coords:
        square_steps, square_rays = [], []
        for _, dr, dc in DIRECTIONS:
            ray, k = [], 1
            while (row + k * dr, col + k * dc) in index:
                ray.append(index[(row + k * dr, col + k * dc)])
                k += 1
            square_steps.append(ray[0] if ray else -1)
            square_rays.append(tuple(ray))
        steps.append(tuple(square_steps))
        rays.append(tuple(square_rays))
    return tuple(steps), tuple(rays)


def grid_towards(grid: ir.GridIR) -> Towards:
    """Per pair of squares, the direction from the first to the second when they share a row,
    a column or a diagonal (-1 otherwise, and from a square to itself); rows made when read."""
    return Towards(grid.coords)


def grid_lines(grid: ir.GridIR | None, length: int) -> tuple:
    """Every straight run of ``length`` spaces of ``grid`` (rows, columns, both diagonals),
    each once, as tuples of space indices; () when there is none."""
    if grid is None or not 1 <= length <= max(grid.rows, grid.columns):
        return ()
    index = {rc: i for i, rc in enumerate(grid.coords)}
    result = []
    for row, col in grid.coords:
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cells = [(row + dr * k, col + dc * k) for k in range(length)]
            if all(c in index for c in cells):
                result.append(tuple(index[c] for c in cells))
    return tuple(result)
