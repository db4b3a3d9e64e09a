"""Read a spec's YAML structure into the intermediate representation (IR) the code generator uses.

The IR is plain data: the board's spaces with precomputed adjacency and distances, pieces, dice,
the state's slot layout, tables, the turn structure flattened into numbered flow nodes, actions
with their fixed id encoding, triggers, end of game and evaluation. Every rule string in it has
already been resolved and type-checked into Python source by :mod:`expressions`.

Errors are :class:`SpecError` with codes RC3xx and the position of the offending key or value.
Source of the format: ``docs/spec-reference.md``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
import itertools
import re

from rulecraft.errors import Position, SpecError, did_you_mean
from rulecraft.compiler import library
from rulecraft.compiler import types as T
from rulecraft.compiler.expressions import Binding, Env, ExpressionCompiler, Function, PieceIndex
from rulecraft.loader import Mapping, Sequence, Text, plain as _plain
from rulecraft.runtime.template import GRID_FIELDS, FieldTemplate

SLOT_PC, SLOT_DONE, SLOT_PENDING, SLOT_RETURN = 0, 1, 2, 3
HEADER_SLOTS = 4
RETURN = -4          # a flow node's next: go back to the choice that started this action's steps

SECTIONS = ("game", "options", "enums", "board", "pieces", "dice", "state", "tables", "define",
            "procedures", "setup", "turn", "actions", "triggers", "end", "evaluation", "invariants",
            "limits", "open_questions")
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass
class Field:
    """A state field: ``size`` slots from ``base`` (one per team, space or piece when ``of``
    is set, else one), its ``type``, the Python source of its ``initial`` value, who sees it
    (``visible``: all or owner), the slot of its revealed flag (``until: revealed``) and ``show``."""

    name: str
    type: object
    of: str | None
    base: int
    size: int
    initial: str
    visible: str = "all"
    reveal_slot: int | None = None
    show: bool = True


@dataclass
class Node:
    """One flow node: a step of a phase or of an action's then-steps, numbered by ``index``.

    ``next`` and ``skip`` are node indices (or :data:`RETURN`); ``guard``, ``lines``, ``actor`` and
    ``repeat`` hold Python source, filled in by :meth:`SpecReader.compile_node`."""

    index: int
    kind: str                  # do | choose | secret | roll | after
    phase: str
    rule: str
    label: str | None = None
    spec: Mapping | None = None
    next: int = -1
    guard: str | None = None
    lines: list = field(default_factory=list)
    actor: str | None = None
    actions: list = field(default_factory=list)
    repeat: str | None = None
    target: int | None = None
    die: str | None = None
    owner_action: str | None = None
    phase_when: Mapping | None = None    # the phase whose when: this entry node tests
    phase_end: int | None = None          # the phase's last node, for skipping it whole
    skip: int = -1                        # where to go when the guard is false


@dataclass
class Param:
    """An action parameter: its ``type`` and ``size`` (how many values it takes), the
    ``offset`` of value 0 (a range's low end), and its ``from:`` mapping and compiled list source."""

    name: str
    type: object
    size: int
    offset: int = 0
    source: Mapping | None = None
    from_src: str | None = None


@dataclass
class Action:
    """An action: its ids run from ``base`` over the product of its parameters' sizes;
    ``conditions`` are ``(rule, reason, Python source)``, ``lines`` its effect's Python lines,
    ``subflow`` the first node of its then-steps (None without), ``notation`` how a move is written."""

    name: str
    rule: str
    index: int
    base: int = 0
    params: list = field(default_factory=list)
    conditions: list = field(default_factory=list)       # (rule, reason, python source)
    lines: list = field(default_factory=list)
    notation: str = ""
    subflow: int | None = None
    spec: Mapping | None = None


@dataclass
class GameIR:
    """The compiled game, ready for code generation."""

    meta: dict
    options: dict
    teams: list
    spaces: list
    grid: dict | None
    space_attributes: dict
    neighbors: list
    distance: list
    lines: dict
    kinds: list
    kind_attributes: dict
    pieces: list
    enums: dict
    dice: dict
    fields: list
    slots: int
    tables: list
    nodes: list
    actions: list
    triggers: list
    returns: str
    returns_range: tuple
    evaluation: str
    invariants: list
    max_plies: int
    events: dict
    open_questions: list
    first_turn_node: int
    kind_symbols: list = field(default_factory=list)    # a kind's symbol in piece labels, or None
    piece_index: PieceIndex | None = None                 # pieces per team and space, when read
    constants: dict = field(default_factory=dict)       # zero-argument defines with a fixed number
    board_formulas: list = field(default_factory=list)  # (name, formula, values): see Env


class SpecReader:
    """Turn one loaded ``game.yaml`` into a :class:`GameIR` (see the module docstring)."""

    def __init__(self, data: Mapping, path: str, option_values: dict | None = None):
        if not isinstance(data, Mapping):
            raise SpecError("a game spec is a mapping of sections (game:, board:, turn:, ...)",
                            Position(path, 1, 1), code="RC320")
        self.data = data
        self.path = path
        self.option_values = dict(option_values or {})
        self.env = Env(library=dict(library.FUNCTIONS), procedures=dict(library.PROCEDURES))
        self.compiler = ExpressionCompiler(self.env)
        self.slots = HEADER_SLOTS
        self.fields: list[Field] = []

    # ---------- helpers ----------
    def entries(self, mapping, where: str, position: Position | None = None) -> list:
        """The (key, value) pairs of an optional mapping; RC320 when something else stands there."""
        return list(self._shaped(mapping, Mapping, f"{where} must be a mapping of keys", position).items())

    def listed(self, sequence, where: str, position: Position | None = None) -> list:
        """The items of an optional list; RC320 when something else stands there."""
        return list(self._shaped(sequence, Sequence, f"{where} must be a list", position))

    def _shaped(self, value, shape, message: str, position: Position | None):
        if value is None:
            return shape()
        if not isinstance(value, shape):
            raise SpecError(message, getattr(value, "position", None) or position
                            or Position(self.path, 1, 1), code="RC320")
        return value

    def keys(self, mapping, where: str, required=(), optional=()):
        """Check ``mapping`` has every ``required`` key and no key outside ``required`` and
        ``optional``; returns it. RC320 (not a mapping), RC321 (unknown key), RC322 (missing key)."""
        if not isinstance(mapping, Mapping):
            raise SpecError(f"{where} must be a mapping of keys", getattr(mapping, "position", None)
                            or Position(self.path, 1, 1), code="RC320")
        allowed = set(required) | set(optional)
        for key in mapping:
            if key not in allowed:
                raise SpecError(f"unknown key '{key}' in {where}", mapping.where(key), code="RC321",
                                hint=did_you_mean(str(key), allowed) or
                                "allowed: " + ", ".join(sorted(allowed)))
        for key in required:
            if key not in mapping:
                raise SpecError(f"{where} needs '{key}:'", mapping.position, code="RC322")
        return mapping

    def text(self, mapping, key, where) -> Text:
        """``mapping[key]`` as a :class:`Text` (a number becomes its text, positioned at the
        value); RC323 when it is a bool, null, mapping or list."""
        value = mapping[key]
        if isinstance(value, bool) or value is None or isinstance(value, (Mapping, Sequence)):
            raise SpecError(f"'{key}' in {where} must be a text", mapping.value_at(key), code="RC323")
        if not isinstance(value, Text):
            value = Text(str(value), mapping.value_at(key))
        return value

    def identifier(self, word, position, what: str) -> str:
        """``word``, checked as a name (letters, digits and ``_``) that is no reserved word;
        RC324 otherwise, at ``position``."""
        if not isinstance(word, str) or not IDENTIFIER.match(word):
            raise SpecError(f"{what} '{word}' is not a valid name", position, code="RC324",
                            hint="use letters, digits and _, starting with a letter")
        if word in ("if", "then", "else", "and", "or", "not", "in", "for", "do", "where", "true",
                    "false", "none", "goto", "stop", "finish", "reveal", "event"):
            raise SpecError(f"{what} '{word}' is a reserved word", position, code="RC324")
        return word

    def declare(self, name, binding: Binding, position):
        """Add ``name`` to the spec's one namespace with its ``binding``; RC325 when it is
        already declared."""
        if name in self.env.names:
            raise SpecError(f"the name '{name}' is declared twice", position, code="RC325",
                            hint="teams, spaces, kinds, enum values, options and state fields "
                                 "share one namespace")
        self.env.names[name] = binding

    def _allocate(self, size: int) -> int:
        """Reserve ``size`` state slots after the fields declared so far; returns the first."""
        base = self.slots
        self.slots += size
        return base

    def rule_of(self, mapping, where) -> str:
        """The rule id (``rule:``) of ``mapping``, as a string; RC326 when it has none."""
        if "rule" not in mapping:
            raise SpecError(f"{where} needs a rule id ('rule: \"4.1\"') naming its rulebook section",
                            mapping.position, code="RC326")
        return str(mapping["rule"])

    # ---------- the whole spec ----------
    def build(self) -> GameIR:
        """Read every section in dependency order and compile all rule strings; returns the
        :class:`GameIR`. RC321 (unknown section), RC322 (no ``game:``, ``turn:`` or ``end:``), and
        every RC3xx the section readers and the expression compiler raise."""
        data = self.data
        for key in data:
            if key not in SECTIONS:
                raise SpecError(f"unknown section '{key}'", data.where(key), code="RC321",
                                hint=did_you_mean(str(key), SECTIONS) or
                                "sections: " + ", ".join(SECTIONS))
        for key in ("game", "turn", "end"):
            if key not in data:
                raise SpecError(f"the spec needs a '{key}:' section", data.position, code="RC322")
        meta = self.read_game(data["game"])
        options = self.read_options(data.get("options"))
        enums = self.read_enums(data.get("enums"))
        board = self.read_board(data.get("board"))
        kinds, kind_attributes, pieces = self.read_pieces(data.get("pieces"), board)
        self.kinds = kinds
        dice = self.read_dice(data.get("dice"), enums)
        self.read_state(data.get("state"), enums, board)
        tables = self.read_tables(data.get("tables"), enums)
        self.read_functions(data.get("define"))
        self.read_procedures(data.get("procedures"))
        nodes, actions, first_turn = self.read_flow(data)
        triggers = self.read_triggers(data.get("triggers"))
        returns, returns_range = self.read_end(data["end"])
        evaluation = self.read_evaluation(data.get("evaluation"), returns)
        invariants = self.read_invariants(data.get("invariants"))
        max_plies = self.read_limits(data.get("limits"))
        for node in nodes:
            self.compile_node(node, nodes, actions)
        for action in actions:
            self.compile_action(action, nodes)
        index = self.env.piece_index
        return GameIR(
            meta=meta, options=options, teams=self.teams, spaces=board["spaces"],
            grid=board["grid"], space_attributes=board["attributes"], neighbors=board["neighbors"],
            distance=board["distance"],
            lines={n: _grid_lines(board, n) for n in sorted(self.env.lines_needed)},
            kinds=kinds, kind_attributes=kind_attributes, pieces=pieces, enums=enums, dice=dice,
            fields=self.fields, slots=self.slots, tables=tables, nodes=nodes, actions=actions,
            triggers=triggers, returns=returns, returns_range=returns_range, evaluation=evaluation,
            invariants=invariants, max_plies=max_plies, events=self.env.events,
            open_questions=self.read_open_questions(data.get("open_questions")),
            first_turn_node=first_turn, kind_symbols=self.kind_symbols,
            constants=self.constants(), board_formulas=list(self.env.board_formulas.values()),
            piece_index=index if index is not None and index.base is not None else None)

    def read_game(self, game) -> dict:
        """The ``game:`` section; declares each team and ``teams``. Returns the meta dict (id,
        title, version, source, summary). RC320–RC322, RC324, RC325, RC327 (teams: not a non-empty
        list)."""
        self.keys(game, "game:", ("id", "title", "teams"),
                  ("version", "source", "summary"))
        self.identifier(game["id"], game.value_at("id"), "the game id")
        teams = game["teams"]
        if not isinstance(teams, Sequence) or len(teams) < 1:
            raise SpecError("teams: lists the team names, in seating order", game.value_at("teams"),
                            code="RC327")
        self.teams = []
        for index, team in enumerate(teams):
            self.identifier(team, teams.at(index), "the team")
            self.teams.append(str(team))
            self.declare(str(team), Binding(repr(index), T.TEAM), teams.at(index))
        self.declare("teams", Binding(repr(tuple(range(len(teams)))), T.ListOf(T.TEAM)), game.position)
        source = game.get("source") or {}
        return {"id": str(game["id"]), "title": str(game["title"]),
                "version": str(game.get("version", "1")), "source": _plain(source),
                "summary": str(game.get("summary", ""))}

    def read_options(self, options) -> dict:
        """The ``options:`` section, with the values passed to the reader replacing the
        defaults; declares each option (and a choice's values). Returns ``{name: {type, value,
        default, values, doc}}``. RC320–RC322, RC324, RC325, RC328 (unknown type), RC329 (a value not
        allowed, or an unknown option passed)."""
        result = {}
        if options is None:
            return result
        self.keys(options, "options:", (), options.keys())
        for name, spec in options.items():
            self.identifier(name, options.where(name), "the option")
            self.keys(spec, f"option '{name}'", ("type", "default"), ("values", "min", "max", "doc"))
            kind = str(spec["type"])
            if kind not in ("int", "bool", "choice"):
                raise SpecError(f"option type '{kind}' is unknown", spec.value_at("type"),
                                code="RC328", hint="use int, bool or choice")
            value = self.option_values.pop(name, spec["default"])
            value = self._option_value(name, kind, spec, value)
            result[name] = {"type": kind, "value": value, "default": _plain(spec["default"]),
                            "values": _plain(spec.get("values")), "doc": str(spec.get("doc", ""))}
            if kind == "choice":
                binding = Binding(repr(list(spec["values"]).index(value)), T.enum(name))
                for index, choice in enumerate(spec["values"]):
                    self.identifier(choice, spec["values"].at(index), "the option value")
                    self.declare(str(choice), Binding(repr(index), T.enum(name)), spec["values"].at(index))
            else:
                binding = Binding(repr(int(value)), T.INT if kind == "int" else T.BOOL)
            self.declare(name, binding, options.where(name))
        if self.option_values:
            unknown = next(iter(self.option_values))
            raise SpecError(f"the game has no option '{unknown}'", None, code="RC329",
                            hint=did_you_mean(unknown, result) or
                            "options: " + (", ".join(result) or "none"))
        return result

    def _option_value(self, name, kind, spec, value):
        where = spec.value_at("default")
        try:
            if kind == "int":
                value = int(value)
                low, high = spec.get("min"), spec.get("max")
                if (low is not None and value < low) or (high is not None and value > high):
                    raise ValueError
            elif kind == "bool":
                if isinstance(value, str):
                    if value not in ("true", "false"):
                        raise ValueError
                    value = value == "true"
                value = bool(value)
            elif str(value) not in [str(v) for v in spec.get("values") or []]:
                raise ValueError
            else:
                value = str(value)
        except (TypeError, ValueError):
            allowed = (f"{spec.get('min', '…')}..{spec.get('max', '…')}" if kind == "int" else
                       "true or false" if kind == "bool" else ", ".join(map(str, spec.get("values") or [])))
            raise SpecError(f"option '{name}' cannot be {value!r}: allowed {allowed}", where,
                            code="RC329") from None
        return value

    def read_enums(self, enums) -> dict:
        """The ``enums:`` section; declares every value. Returns ``{name: [value, ...]}``.
        RC320, RC324, RC325, RC330 (an enumeration without values)."""
        result = {}
        if enums is None:
            return result
        for name, values in self.entries(enums, "enums:", self.data.value_at("enums")):
            self.identifier(name, enums.where(name), "the enumeration")
            if not isinstance(values, Sequence) or not values:
                raise SpecError(f"enumeration '{name}' lists its values", enums.value_at(name),
                                code="RC330")
            result[str(name)] = [str(v) for v in values]
            for index, value in enumerate(values):
                self.identifier(value, values.at(index), "the value")
                self.declare(str(value), Binding(repr(index), T.enum(name)), values.at(index))
        return result

    # ---------- board ----------
    def read_board(self, board) -> dict:
        """The ``board:`` section (none: a board without spaces); declares the spaces,
        ``spaces`` and each area. Returns a dict of ``spaces`` (names), ``grid``, ``attributes``,
        ``neighbors`` and ``distance``. RC320–RC325, RC331–RC336 and formula errors."""
        if board is None:
            board = Mapping()
            board.position, board.key_positions, board.value_positions = Position(self.path, 1, 1), {}, {}
        self.keys(board, "board:", (), ("grid", "spaces", "adjacent", "attributes", "areas"))
        if ("grid" in board) == ("spaces" in board) and board:
            raise SpecError("a board has either grid: or spaces:, exactly one", board.position,
                            code="RC331")
        attributes: dict[str, tuple] = {}
        grid = None
        if "grid" in board:
            spaces, coords, grid = self._grid(board["grid"])
            attributes["row"] = (T.INT, [r for r, _ in coords])
            attributes["col"] = (T.INT, [c for _, c in coords])
        elif "spaces" in board:
            spaces, attributes = self._zones(board["spaces"])
        else:
            spaces = []
        self.space_names = spaces
        for index, name in enumerate(spaces):
            self.declare(name, Binding(repr(index), T.SPACE), board.position)
        self.declare("spaces", Binding(repr(tuple(range(len(spaces)))), T.ListOf(T.SPACE)), board.position)
        for name, (kind, _) in attributes.items():
            self._space_attribute(name, kind)
        derived = board.get("attributes") or Mapping()
        for name, formula in self.entries(derived, "board: attributes:", board.value_at("attributes")):
            self.identifier(name, derived.where(name), "the attribute")
            attributes[str(name)] = self._per_space(derived, name, spaces, attributes, None)
            self._space_attribute(str(name), attributes[str(name)][0])
        neighbors = self._adjacency(board, spaces, attributes, grid)
        areas = board.get("areas") or Mapping()
        for name, formula in self.entries(areas, "board: areas:", board.value_at("areas")):
            self.identifier(name, areas.where(name), "the area")
            kind, flags = self._per_space(areas, name, spaces, attributes, neighbors, T.BOOL)
            members = tuple(i for i, flag in enumerate(flags) if flag)
            self.declare(str(name), Binding(repr(members), T.ListOf(T.SPACE)), areas.where(name))
        self.env.space_tables = {f"SPACE_{n.upper()}": values for n, (_, values) in attributes.items()}
        return {"spaces": spaces, "grid": grid, "attributes": attributes, "neighbors": neighbors,
                "distance": _distances(neighbors)}

    def _space_attribute(self, name, kind):
        self.env.attributes[(T.SPACE, name)] = (f"SPACE_{name.upper()}[{{0}}]", kind, False)

    def _grid(self, grid):
        self.keys(grid, "board: grid:", ("rows", "columns"), ("name", "playable"))
        rows, cols = grid["rows"], grid["columns"]
        for key in ("rows", "columns"):
            if not isinstance(grid[key], int) or isinstance(grid[key], bool) or not 1 <= grid[key] <= 64:
                raise SpecError(f"'{key}' must be a whole number from 1 to 64", grid.value_at(key),
                                code="RC332")
        pattern = FieldTemplate.parse(grid.get("name", "{col_letter}{row}"), dict.fromkeys(GRID_FIELDS, False),
                                      code="RC333", what="the grid's name:", position=grid.value_at("name"))
        playable = None
        if "playable" in grid:
            code = self.compiler.formula(self.text(grid, "playable", "grid"),
                                         {"row": Binding("row", T.INT), "col": Binding("col", T.INT)},
                                         T.BOOL, "condition")
            playable = (code.src, grid.value_at("playable"))
        spaces, coords = [], []
        for row in range(1, rows + 1):
            for col in range(1, cols + 1):
                if playable and not _evaluate(playable[0], {"row": row, "col": col}, playable[1]):
                    continue
                name = pattern.fill({"row": str(row), "col": str(col), "col_letter": chr(ord("A") + col - 1),
                                     "row_letter": chr(ord("a") + row - 1)})
                spaces.append(name)
                coords.append((row, col))
        if len(set(spaces)) != len(spaces):
            raise SpecError("this name pattern gives two spaces the same name", grid.value_at("name"),
                            code="RC333")
        return spaces, coords, {"rows": rows, "columns": cols, "coords": coords}

    def _zones(self, spaces):
        if not isinstance(spaces, Sequence) or not spaces:
            raise SpecError("spaces: lists the board's spaces", getattr(spaces, "position", None),
                            code="RC334")
        names, attributes = [], {}
        keys = None
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
                attributes.setdefault(str(key), (T.INT, []))[1].append(value)
        return names, attributes

    def _adjacency(self, board, spaces, attributes, grid):
        rule = board.get("adjacent")
        if rule is None:
            return [tuple() for _ in spaces]
        presets = {"orthogonal": "abs(a.row - b.row) + abs(a.col - b.col) == 1",
                   "diagonal": "abs(a.row - b.row) == 1 and abs(a.col - b.col) == 1",
                   "king": "max(abs(a.row - b.row), abs(a.col - b.col)) == 1"}
        text = self.text(board, "adjacent", "board")
        if str(text) in presets:
            if grid is None:
                raise SpecError(f"'{text}' adjacency needs a grid board", board.value_at("adjacent"),
                                code="RC335")
            text = Text(presets[str(text)], text.position)
        scope = {"a": Binding("a", T.SPACE), "b": Binding("b", T.SPACE)}
        code = self.compiler.formula(text, scope, T.BOOL, "adjacency condition")
        tables = {f"SPACE_{name.upper()}": values for name, (_, values) in attributes.items()}
        result = []
        for a in range(len(spaces)):
            result.append(tuple(b for b in range(len(spaces)) if b != a and
                                _evaluate(code.src, dict(tables, a=a, b=b), text.position)))
        for a, near in enumerate(result):
            for b in near:
                if a not in result[b]:
                    raise SpecError(f"adjacency must be symmetric: {spaces[a]} touches {spaces[b]} "
                                    "but not the other way", text.position, code="RC335")
        return result

    def _per_space(self, mapping, name, spaces, attributes, neighbors, expect=T.INT):
        text = self.text(mapping, name, "board")
        scope = {"z": Binding("z", T.SPACE)}
        code = self.compiler.formula(text, scope, None)
        if code.type not in (T.INT, T.BOOL):
            raise SpecError("a space attribute is a number or a condition", text.position, code="RC336")
        tables = {f"SPACE_{n.upper()}": values for n, (_, values) in attributes.items()}
        if neighbors is not None:
            tables.update(NEIGHBORS=neighbors, NEIGHBOR_SETS=[frozenset(n) for n in neighbors],
                          DISTANCE=_distances(neighbors))
        values = [int(_evaluate(code.src, dict(tables, z=z), text.position)) for z in range(len(spaces))]
        if expect == T.BOOL and code.type != T.BOOL:
            raise SpecError("an area is a condition on the space z", text.position, code="RC336")
        return code.type, values

    # ---------- pieces ----------
    def read_pieces(self, pieces, board):
        """The ``pieces:`` section; reserves the ``at`` slots and registers the piece, kind
        and team attributes. Returns ``(kinds, kind_attributes, roster)``, the roster as dicts of
        team, kind, number and at (indices, -1 for none). RC320–RC325, RC337, RC338."""
        kinds, kind_attributes, roster = [], {}, []
        at_slot = None
        self.kind_symbols, self.step_attributes = [], set()
        if pieces is not None:
            self.keys(pieces, "pieces:", ("roster",), ("kinds",))
            kind_specs = pieces.get("kinds") or Mapping()
            self.kind_symbols = [None] * len(kind_specs)
            for index, (name, attrs) in enumerate(self.entries(kind_specs, "pieces: kinds:",
                                                               pieces.value_at("kinds"))):
                self.identifier(name, kind_specs.where(name), "the piece kind")
                kinds.append(str(name))
                self.declare(str(name), Binding(repr(index), T.KIND), kind_specs.where(name))
                for key, value in self.entries(attrs, f"piece kind '{name}'", kind_specs.value_at(name)):
                    if key in ("at", "team", "kind", "number", "pieces"):
                        raise SpecError(f"'{key}' is a built-in attribute of every piece; give this "
                                        "kind attribute another name", attrs.where(key), code="RC337")
                    if key == "symbol":
                        self.kind_symbols[index] = str(self.text(attrs, key, f"kind '{name}'"))
                        continue
                    if isinstance(value, Sequence):
                        value = self._grid_steps(value, attrs.value_at(key), board)
                        self.step_attributes.add(str(key))
                    elif isinstance(value, bool) or not isinstance(value, int):
                        raise SpecError(f"kind attribute '{key}' must be a whole number or a list "
                                        "of grid steps [rows, columns]", attrs.value_at(key), code="RC337")
                    values = kind_attributes.setdefault(str(key), [None] * len(kind_specs))
                    if any(isinstance(v, tuple) != isinstance(value, tuple) for v in values if v is not None):
                        raise SpecError(f"kind attribute '{key}' is grid steps for one kind and a "
                                        "number for another", attrs.value_at(key), code="RC337")
                    values[index] = value
            for key, values in kind_attributes.items():
                default = () if key in self.step_attributes else 0
                values[:] = [default if v is None else v for v in values]
            entries = pieces["roster"]
            if not isinstance(entries, Sequence):
                raise SpecError("roster: lists the pieces", pieces.value_at("roster"), code="RC337")
            for index, entry in enumerate(entries):
                roster.extend(self._roster_entry(entry, entries.at(index), kinds, board))
        self.pieces = roster
        count = len(roster)
        at_base = self.slots
        self.slots += count
        self.fields.append(Field("at", T.SPACE, T.PIECE, at_base, count,
                                 repr([p["at"] for p in roster])))
        self.declare("pieces", Binding(repr(tuple(range(count))), T.ListOf(T.PIECE)),
                     getattr(pieces, "position", None))
        attrs = self.env.attributes
        attrs[(T.PIECE, "at")] = (f"s[{at_base} + {{0}}]", T.SPACE, True)
        attrs[(T.PIECE, "team")] = ("PIECE_TEAM[{0}]", T.TEAM, False)
        attrs[(T.PIECE, "kind")] = ("PIECE_KIND[{0}]", T.KIND, False)
        attrs[(T.PIECE, "number")] = ("PIECE_NUMBER[{0}]", T.INT, False)
        for key in kind_attributes:
            kind = T.STEPS if key in self.step_attributes else T.INT
            attrs[(T.PIECE, key)] = (f"KIND_{key.upper()}[PIECE_KIND[{{0}}]]", kind, False)
            attrs[(T.KIND, key)] = (f"KIND_{key.upper()}[{{0}}]", kind, False)
        if count and board["spaces"]:
            self.env.piece_index = PieceIndex(len(self.teams), len(board["spaces"]) + 1)
            self.env.allocate = self._allocate
        attrs[(T.TEAM, "pieces")] = ("TEAM_PIECES[{0}]", T.ListOf(T.PIECE), False)
        attrs[(T.SPACE, "pieces")] = (f"tuple(p for p in range({count}) if s[{at_base} + p] == {{0}})",
                                      T.ListOf(T.PIECE), False)
        if len(self.teams) == 2:
            attrs[(T.TEAM, "opponent")] = ("(1 - {0})", T.TEAM, False)
        attrs[(T.TEAM, "next")] = (f"(({{0}} + 1) % {len(self.teams)})", T.TEAM, False)
        return kinds, kind_attributes, roster

    def _grid_steps(self, value, position, board) -> tuple:
        """A kind attribute listing grid steps ``[rows, columns]``; ``±n`` stands for +n and -n."""
        if board["grid"] is None:
            raise SpecError("grid steps need a grid board", position, code="RC337")
        steps = []
        for index, step in enumerate(value):
            if not isinstance(step, Sequence) or len(step) != 2:
                raise SpecError("a grid step is [rows, columns], e.g. [1, 0] or [±2, ±2]",
                                value.at(index), code="RC337")
            options = []
            for part in step:
                match = re.match(r"^(±|\+|-)?(\d+)$", str(part).strip()) if not isinstance(part, bool) else None
                if match is None:
                    raise SpecError(f"'{part}' is not a step: write a whole number, or ±n for both "
                                    "signs", value.at(index), code="RC337")
                size = int(match.group(2))
                options.append([size, -size] if match.group(1) == "±" and size else
                               [-size if match.group(1) == "-" else size])
            for rows in options[0]:
                for cols in options[1]:
                    if (rows, cols) not in steps:
                        steps.append((rows, cols))
        return tuple(steps)

    def _roster_entry(self, entry, position, kinds, board):
        self.keys(entry, "a roster entry", ("team",), ("kind", "number", "count", "at", "when"))
        if "when" in entry and not self._roster_condition(entry):
            return []
        teams = self.teams if entry["team"] == "each" else [str(entry["team"])]
        for team in teams:
            if team not in self.teams:
                raise SpecError(f"unknown team '{team}'", entry.value_at("team"), code="RC338",
                                hint=did_you_mean(team, self.teams + ["each"]))
        kind = entry.get("kind")
        if kind is not None and str(kind) not in kinds:
            raise SpecError(f"unknown piece kind '{kind}'", entry.value_at("kind"), code="RC338",
                            hint=did_you_mean(str(kind), kinds))
        at = -1
        if entry.get("at") is not None:
            if str(entry["at"]) not in board["spaces"]:
                raise SpecError(f"unknown space '{entry['at']}'", entry.value_at("at"), code="RC338",
                                hint=did_you_mean(str(entry["at"]), board["spaces"]))
            at = board["spaces"].index(str(entry["at"]))
        count = entry.get("count", 1)
        return [{"team": self.teams.index(team), "kind": kinds.index(str(kind)) if kind is not None else -1,
                 "number": int(entry.get("number", 0)) + (i if "number" in entry else 0), "at": at}
                for team in teams for i in range(count)]

    def _roster_condition(self, entry) -> bool:
        """A roster entry's ``when:``, a condition on options, decided when the spec is compiled."""
        text = self.text(entry, "when", "a roster entry")
        src = self.compiler.condition(text)
        try:
            return bool(eval(src, {"__builtins__": {}}, {}))
        except Exception:  # the condition reads something that changes during a game
            raise SpecError("a roster entry's when: may use only options, teams and kinds: it is "
                            "decided when the spec is compiled", text.position, code="RC337") from None

    # ---------- dice ----------
    def read_dice(self, dice, enums) -> dict:
        """The ``dice:`` section. Returns ``{name: {type, outcomes, probabilities}}`` with
        distinct outcomes and :class:`Fraction` probabilities. RC320–RC322, RC324, RC339 (bad faces)."""
        result = {}
        for name, spec in self.entries(dice, "dice:", self.data.value_at("dice")):
            self.identifier(name, dice.where(name), "the die")
            self.keys(spec, f"die '{name}'", ("faces",))
            faces = spec["faces"]
            if not isinstance(faces, Sequence) or not faces:
                raise SpecError("faces: lists the die's faces", spec.value_at("faces"), code="RC339")
            if all(isinstance(f, int) and not isinstance(f, bool) for f in faces):
                kind, values = T.INT, list(faces)
            else:
                symbols = [str(f) for f in faces]
                owner = next((e for e, vals in enums.items() if set(symbols) <= set(vals)), None)
                if owner is None:
                    raise SpecError("faces are numbers, or values of one enumeration declared under "
                                    "enums:", spec.value_at("faces"), code="RC339")
                kind, values = T.enum(owner), [enums[owner].index(f) for f in symbols]
            distinct = sorted(set(values), key=values.index)
            result[str(name)] = {"type": kind, "outcomes": distinct,
                                 "probabilities": [Fraction(values.count(v), len(values)) for v in distinct]}
        return result

    # ---------- state ----------
    def read_state(self, state, enums, board):
        """The ``state:`` section: reserves each field's slots (appended to ``self.fields``)
        and declares it as a name or, with ``of:``, as an attribute. RC320–RC325, RC340, RC341 and
        errors of ``initial:`` formulas."""
        for name, spec in self.entries(state, "state:", self.data.value_at("state")):
            self.identifier(name, state.where(name), "the state field")
            if isinstance(spec, Text):
                spec_map = Mapping({"type": spec})
                spec_map.position, spec_map.key_positions = spec.position, {}
                spec_map.value_positions = {"type": spec.position}
                spec = spec_map
            self.keys(spec, f"state field '{name}'", ("type",), ("of", "initial", "visible", "until", "show", "doc"))
            kind = T.parse_type(str(spec["type"]), enums)
            if kind is None or isinstance(kind, T.ListOf):
                raise SpecError(f"unknown type '{spec['type']}'", spec.value_at("type"), code="RC340",
                                hint="types: int, bool, team, space, piece, kind, or an enumeration")
            of = spec.get("of")
            if of is not None and of not in (T.TEAM, T.SPACE, T.PIECE):
                raise SpecError(f"'of: {of}' must be team, space or piece", spec.value_at("of"),
                                code="RC340")
            size = {None: 1, T.TEAM: len(self.teams), T.SPACE: len(board["spaces"]),
                    T.PIECE: len(self.pieces)}[of]
            initial = "-1" if T.is_entity(kind) else "0"
            if "initial" in spec:
                initial = self.compiler.formula(self.text(spec, "initial", "state"), {}, kind, "initial value").src
            visible = str(spec.get("visible", "all"))
            if visible not in ("all", "owner"):
                raise SpecError("visible: is all or owner", spec.value_at("visible"), code="RC341")
            if visible == "owner" and of != T.TEAM:
                raise SpecError("only a field 'of: team' can be visible to its owner alone",
                                spec.value_at("visible"), code="RC341")
            show = spec.get("show", True)
            if not isinstance(show, bool):
                raise SpecError("show: is true or false", spec.value_at("show"), code="RC341")
            item = Field(str(name), kind, of, self.slots, size, initial, visible, show=show)
            self.slots += size
            if "until" in spec:
                if str(spec["until"]) != "revealed" or visible != "owner":
                    raise SpecError("'until: revealed' goes with 'visible: owner'", spec.value_at("until"),
                                    code="RC341")
                item.reveal_slot = self.slots
                self.slots += 1
                self.env.reveal_slots[str(name)] = item.reveal_slot
            self.fields.append(item)
            if of is None:
                self.declare(str(name), Binding(f"s[{item.base}]", kind, True), state.where(name))
            else:
                key = (of, str(name))
                if key in self.env.attributes:
                    raise SpecError(f"{T.describe(of)} already has an attribute '{name}'",
                                    state.where(name), code="RC325")
                self.env.attributes[key] = (f"s[{item.base} + {{0}}]", kind, True)

    # ---------- tables and definitions ----------
    def read_tables(self, tables, enums) -> list:
        """The ``tables:`` section; registers each table for formulas. Returns a list of
        dicts (name, py_name, rule, values, keys, value_labels, doc). RC320–RC322, RC324, RC342, RC343."""
        result = []
        for name, spec in self.entries(tables, "tables:", self.data.value_at("tables")):
            self.identifier(name, tables.where(name), "the table")
            self.keys(spec, f"table '{name}'", ("rule", "keys", "values"), ("doc", "type"))
            keys = spec["keys"]
            if not isinstance(keys, Sequence) or not 1 <= len(keys) <= 2:
                raise SpecError("keys: lists one or two key types", spec.value_at("keys"), code="RC342")
            key_types = [self._key_type(k, keys.at(i), enums) for i, k in enumerate(keys)]
            value_type = T.parse_type(str(spec.get("type", "int")), enums)
            values = self._table_values(spec, "values", key_types, value_type, str(name))
            py_name = f"TABLE_{name}"
            self.env.tables[str(name)] = (py_name, [(kt[0], kt[1]) for kt in key_types], value_type)
            value_labels = enums.get(str(value_type)[5:], []) if str(value_type).startswith("enum:") else []
            result.append({"name": str(name), "py_name": py_name, "rule": str(spec["rule"]),
                           "values": values, "keys": [kt[2] for kt in key_types],
                           "value_labels": list(value_labels), "doc": str(spec.get("doc", ""))})
        return result

    def _key_type(self, word, position, enums):
        word = str(word)
        match = re.match(r"^(-?\d+)\.\.(-?\d+)$", word)
        if match:
            low, high = int(match.group(1)), int(match.group(2))
            return (T.INT, low, [str(v) for v in range(low, high + 1)])
        kind = T.parse_type(word, enums)
        if kind is None or not T.is_entity(kind):
            raise SpecError(f"'{word}' is not a key type", position, code="RC342",
                            hint="a range such as 1..6, team, or an enumeration")
        if kind == T.PIECE:
            raise SpecError("a table cannot be keyed by piece; key it by kind, team or a range",
                            position, code="RC342")
        labels = {T.TEAM: self.teams, T.SPACE: self.space_names,
                  T.KIND: self.kinds}.get(kind) or enums.get(str(kind)[5:], [])
        return (kind, 0, list(labels))

    def _table_values(self, spec, key, key_types, value_type, name):
        values = spec[key]
        labels = key_types[0][2]
        if isinstance(values, Mapping):
            missing = [l for l in labels if l not in values and _as_int(l) not in values]
            if missing:
                raise SpecError(f"table '{name}' has no row for {', '.join(missing)}",
                                spec.value_at(key), code="RC343")
            rows = [values.get(l, values.get(_as_int(l))) for l in labels]
            extra = [k for k in values if str(k) not in labels]
            if extra:
                raise SpecError(f"table '{name}' has a row '{extra[0]}' outside its keys",
                                values.where(extra[0]), code="RC343")
        elif isinstance(values, Sequence) and len(values) == len(labels):
            rows = list(values)
        else:
            raise SpecError(f"table '{name}' needs one value per key ({len(labels)})",
                            spec.value_at(key), code="RC343")
        if len(key_types) == 2:
            inner = Mapping({"values": None})
            result = []
            for row in rows:
                inner["values"] = row
                inner.position = getattr(row, "position", spec.position)
                inner.key_positions = {}
                inner.value_positions = {"values": inner.position}
                result.append(tuple(self._table_values(inner, "values", key_types[1:], value_type, name)))
            return tuple(result)
        out = []
        for row in rows:
            if value_type == T.INT and (isinstance(row, bool) or not isinstance(row, int)):
                raise SpecError(f"table '{name}' holds whole numbers, not {row!r}",
                                getattr(row, "position", spec.value_at(key)), code="RC343")
            if value_type == T.BOOL:
                row = int(bool(row))
            elif value_type != T.INT:
                binding = self.env.names.get(str(row))
                if binding is None or not T.compatible(value_type, binding.type):
                    raise SpecError(f"'{row}' is not {T.describe(value_type)}", spec.value_at(key),
                                    code="RC343")
                row = int(binding.code)
            out.append(row)
        return tuple(out)

    def read_functions(self, define):
        """The ``define:`` section: registers each definition (compiled where it is
        used); returns nothing. RC320, RC323, RC344 (bad head, or a name already a function)."""
        for signature, body in self.entries(define, "define:", self.data.value_at("define")):
            match = re.match(r"^\s*([A-Za-z_]\w*)\s*(?:\(\s*([\w\s,]*)\))?\s*$", str(signature))
            if not match:
                raise SpecError(f"'{signature}' is not a definition head like 'name(a, b)'",
                                define.where(signature), code="RC344")
            name = match.group(1)
            params = [p.strip() for p in (match.group(2) or "").split(",") if p.strip()]
            if name in self.env.functions or name in self.env.library:
                raise SpecError(f"'{name}' is already a function", define.where(signature), code="RC344")
            self.env.functions[name] = Function(name, params, self.text(define, signature, "define"))

    def constants(self) -> dict:
        """The zero-argument defines whose formula is a fixed whole number (literals, options and
        other constants only), by name: the numbers a rulebook may quote as ``define.name``."""
        result = {}
        for name, function in self.env.functions.items():
            if function.params:
                continue
            code = self.compiler.formula(function.body)
            if code.type != T.INT:
                continue
            try:
                result[name] = eval(code.src, {"__builtins__": {}}, {})  # literal arithmetic only
            except Exception:  # the formula reads the game state or a table: not a constant
                continue
        return result

    def read_procedures(self, procedures):
        """The ``procedures:`` section: compiles and registers each procedure; returns
        nothing. RC320, RC323, RC344 (bad head, or a name already an effect), errors of the bodies."""
        for signature, body in self.entries(procedures, "procedures:", self.data.value_at("procedures")):
            match = re.match(r"^\s*([A-Za-z_]\w*)\s*\(\s*([\w\s,]*)\)\s*$", str(signature))
            if not match:
                raise SpecError(f"'{signature}' is not a procedure head like 'name(a, b)'",
                                procedures.where(signature), code="RC344")
            name = match.group(1)
            if name in self.env.procedures:
                raise SpecError(f"'{name}' is already an effect", procedures.where(signature),
                                code="RC344")
            params = [p.strip() for p in match.group(2).split(",") if p.strip()]
            function = Function(name, params, self.text(procedures, signature, "procedures"))
            self.env.procedures[name] = self.compiler.procedure(function)

    # ---------- flow ----------
    def read_flow(self, data):
        """``setup:`` then ``turn:`` as numbered nodes, the last looping back to the first turn
        node, and ``actions:`` (see :meth:`read_actions`). Returns ``(nodes, actions, first_turn)``.
        RC345 (not lists of phases, or no turn phase), RC346 (a name used twice), RC347 (a malformed
        phase or step), RC326, RC320–RC322, RC324, and the errors of :meth:`read_actions`."""
        nodes: list[Node] = []
        phases_seen = {}
        setup = data.get("setup") or Sequence()
        turn = data["turn"]
        for section, name in ((setup, "setup"), (turn, "turn")):
            if not isinstance(section, Sequence):
                raise SpecError(f"{name}: is a list of phases", getattr(section, "position", None),
                                code="RC345")
        if not turn:
            raise SpecError("turn: needs at least one phase", turn.position, code="RC345")
        for index, phase in enumerate(setup):
            self._phase(phase, setup.at(index), nodes, phases_seen)
        first_turn = len(nodes)
        for index, phase in enumerate(turn):
            self._phase(phase, turn.at(index), nodes, phases_seen)
        for node in nodes[:-1]:
            node.next = node.index + 1
        nodes[-1].next = first_turn
        actions = self.read_actions(data.get("actions"), nodes)
        return nodes, actions, first_turn

    def _phase(self, phase, position, nodes, seen):
        self.keys(phase, "a phase", ("phase",), ("rule", "steps", "do", "choose", "secret", "roll",
                                                 "into", "by", "repeat", "when", "doc"))
        name = self.identifier(phase["phase"], phase.value_at("phase"), "the phase")
        if name in seen:
            raise SpecError(f"two phases are called '{name}'", phase.value_at("phase"), code="RC346",
                            also=seen[name])
        seen[name] = phase.value_at("phase")
        rule = self.rule_of(phase, f"phase '{name}'")
        self.env.goto_targets[name] = len(nodes)
        steps = phase.get("steps")
        if steps is not None:
            if any(k in phase for k in ("do", "choose", "secret", "roll")):
                raise SpecError("a phase has steps: or one step's keys, not both", phase.position,
                                code="RC347")
            if not isinstance(steps, Sequence) or not steps:
                raise SpecError("steps: lists the phase's steps", phase.value_at("steps"), code="RC347")
            entry = None
            if "when" in phase:
                entry = Node(len(nodes), "do", name, rule, spec=Mapping(), phase_when=phase)
                nodes.append(entry)
            for index, step in enumerate(steps):
                self._step(step, name, rule, nodes)
            if entry is not None:
                entry.phase_end = len(nodes) - 1
        else:
            single = Mapping({k: v for k, v in phase.items() if k not in ("phase", "steps", "doc")})
            single.position, single.key_positions = phase.position, phase.key_positions
            single.value_positions = phase.value_positions
            self._step(single, name, rule, nodes)

    def _step(self, step, phase, rule, nodes, owner_action=None):
        self.keys(step, "a step", (), ("rule", "do", "choose", "secret", "roll", "into", "by",
                                       "repeat", "when", "label", "doc"))
        kinds = [k for k in ("do", "choose", "secret", "roll") if k in step]
        if len(kinds) != 1:
            raise SpecError("a step does exactly one of do:, choose:, secret: or roll:",
                            step.position, code="RC347")
        kind = kinds[0]
        node = Node(len(nodes), kind, phase, str(step.get("rule", rule)), spec=step,
                    owner_action=owner_action)
        if "label" in step:
            label = self.identifier(step["label"], step.value_at("label"), "the step label")
            if label in self.env.goto_targets:
                raise SpecError(f"the label '{label}' is used twice", step.value_at("label"), code="RC346")
            self.env.goto_targets[label] = node.index
            node.label = label
        allowed_extra = {"do": (), "choose": ("by", "repeat"), "secret": ("by",), "roll": ("into",)}[kind]
        for key in ("by", "repeat", "into"):
            if key in step and key not in allowed_extra:
                raise SpecError(f"'{key}:' does not go with {kind}:", step.where(key), code="RC347")
        if kind == "roll" and "into" not in step:
            raise SpecError("roll: needs into: naming where the result goes", step.position, code="RC347")
        nodes.append(node)
        if kind == "choose" and "repeat" in step:
            nodes.append(Node(len(nodes), "after", phase, node.rule, target=node.index))

    def read_actions(self, actions, nodes) -> list:
        """The ``actions:`` section: each action's id range, parameters and notation; its
        then-steps are appended to ``nodes``, ending in :data:`RETURN`. Returns the :class:`Action`
        list. RC320–RC322, RC324, RC346, RC347 (a malformed then:), RC348 (bad notation), RC349 (bad
        parameter type or range)."""
        result = []
        base = 0
        for index, (name, spec) in enumerate(self.entries(actions, "actions:", self.data.value_at("actions"))):
            self.identifier(name, actions.where(name), "the action")
            self.keys(spec, f"action '{name}'", ("rule",), ("params", "legal", "effect", "then",
                                                           "notation", "doc"))
            action = Action(str(name), str(spec["rule"]), index, spec=spec)
            for param_name, type_word in self.entries(spec.get("params"), f"params: of action '{name}'",
                                                      spec.value_at("params")):
                self.identifier(param_name, spec["params"].where(param_name), "the parameter")
                action.params.append(self._param(str(param_name), type_word,
                                                 spec["params"].value_at(param_name)))
                if isinstance(type_word, Mapping):
                    action.params[-1].source = type_word
            action.base = base
            size = 1
            for param in action.params:
                size *= param.size
            base += size
            action.notation = str(spec.get("notation", name + "".join(f" {{{p.name}}}" for p in action.params)))
            FieldTemplate.parse(spec.get("notation", action.notation), {p.name: p.type == T.BOOL for p in action.params},
                                code="RC348", what=f"the notation of '{name}'", position=spec.value_at("notation"))
            if "then" in spec:
                steps = spec["then"]
                if not isinstance(steps, Sequence) or not steps:
                    raise SpecError("then: lists the steps that follow the action", spec.value_at("then"),
                                    code="RC347")
                action.subflow = len(nodes)
                for step in steps:
                    self._step(step, f"{name}", action.rule, nodes, owner_action=str(name))
                for node in nodes[action.subflow:-1]:
                    node.next = node.index + 1
                nodes[-1].next = RETURN
            result.append(action)
        self.action_base_total = base
        return result

    def _param(self, name, type_word, position) -> Param:
        if isinstance(type_word, Mapping):
            self.keys(type_word, f"parameter '{name}'", ("type", "from"))
            position, type_word = type_word.value_at("type"), type_word["type"]
        word = str(type_word)
        match = re.match(r"^(-?\d+)\.\.(-?\d+)$", word)
        if match:
            low, high = int(match.group(1)), int(match.group(2))
            if high < low:
                raise SpecError("a range goes from low to high", position, code="RC349")
            return Param(name, T.INT, high - low + 1, offset=low)
        enums = self.data.get("enums") or {}
        kind = T.parse_type(word, enums)
        sizes = {T.TEAM: len(self.teams), T.PIECE: len(self.pieces), T.BOOL: 2,
                 T.SPACE: len(self.space_names)}
        if kind in sizes:
            return Param(name, kind, sizes[kind])
        if isinstance(kind, str) and kind.startswith("enum:"):
            return Param(name, kind, len(enums[kind[5:]]))
        raise SpecError(f"'{word}' is not a parameter type", position, code="RC349",
                        hint="team, space, piece, bool, an enumeration or a range like 1..6")

    # ---------- compiling flow nodes and actions ----------
    def compile_node(self, node: Node, nodes, actions):
        """Fill in ``node`` from its step, in place: guard, effect lines, die, actor, offered
        actions, repeat and skip target. RC350 (stop in a do step), RC351 (unknown die), RC352 (unknown
        action), RC353 (choose: without by:), RC354 (then-steps where not allowed), expression errors."""
        step = node.spec
        by_name = {a.name: a for a in actions}
        if node.kind == "after":
            chooser = nodes[node.target]
            node.repeat = self.compiler.condition(self.text(chooser.spec, "repeat", "step"))
            return
        if node.phase_when is not None:
            node.guard = self.compiler.condition(self.text(node.phase_when, "when", "phase"))
            node.lines = ["    return None"]
            node.skip = nodes[node.phase_end].next
            return
        if step is not None and "when" in step:
            node.guard = self.compiler.condition(self.text(step, "when", "step"))
        node.skip = node.next
        if node.kind == "choose" and "repeat" in step:
            node.skip = nodes[node.next].next
        if node.kind == "do":
            node.lines = self.compiler.effects(self.text(step, "do", "step"), rule=node.rule)
            if any("# stop" in line for line in node.lines):
                raise SpecError("stop leaves a choice; it belongs in an action's effect",
                                step.value_at("do"), code="RC350")
        elif node.kind == "roll":
            die = str(step["roll"])
            dice = self.data.get("dice") or {}
            if die not in dice:
                raise SpecError(f"unknown die '{die}'", step.value_at("roll"), code="RC351",
                                hint=did_you_mean(die, dice) or "declare it under dice:")
            node.die = die
            target = self.text(step, "into", "step")
            node.lines = self.compiler.effects(Text(f"{target} = __roll__", target.position,
                                                    target._offsets), {"__roll__": Binding("value", self._die_type(die))},
                                               rule=node.rule)
        else:
            names = step[node.kind]
            if isinstance(names, str):
                names = Sequence([names])
                names.positions, names.position = [step.value_at(node.kind)], step.value_at(node.kind)
            for index, name in enumerate(names):
                if str(name) not in by_name:
                    raise SpecError(f"unknown action '{name}'", names.at(index), code="RC352",
                                    hint=did_you_mean(str(name), by_name) or "declare it under actions:")
                node.actions.append(by_name[str(name)])
            if node.kind == "choose":
                if "by" not in step:
                    raise SpecError("choose: needs by: naming the team that chooses", step.position,
                                    code="RC353")
                node.actor = self.compiler.formula(self.text(step, "by", "step"), {}, T.TEAM, "chooser").src
            else:
                by = step.get("by")
                node.actor = (self.compiler.formula(self.text(step, "by", "step"), {}, T.ListOf(T.TEAM),
                                                    "list of teams").src if by is not None else
                              repr(tuple(range(len(self.teams)))))
            for action in node.actions:
                if action.subflow is not None and node.kind == "secret":
                    raise SpecError(f"action '{action.name}' has then: steps, so it cannot be a "
                                    "secret choice (each team's choice is hidden until all have "
                                    "chosen)", node.spec.position, code="RC354")
                if action.subflow is not None and node.owner_action is not None:
                    raise SpecError(f"action '{action.name}' has then: steps, so it cannot be chosen "
                                    "inside another action's then: steps", node.spec.position, code="RC354")

    def _die_type(self, die):
        spec = self.data["dice"][die]
        faces = spec["faces"]
        if all(isinstance(f, int) and not isinstance(f, bool) for f in faces):
            return T.INT
        owner = next(e for e, vals in (self.data.get("enums") or {}).items()
                     if {str(f) for f in faces} <= {str(v) for v in vals})
        return T.enum(str(owner))

    def compile_action(self, action: Action, nodes):
        """Fill in ``action``: its legality conditions ``(rule, reason, source)``, one per
        ``legal:`` entry plus one per ``from:`` parameter, and its effect lines. Expression errors
        (RC301–RC316) and RC320–RC323."""
        spec = action.spec
        scope = {"actor": Binding("actor", T.TEAM)}
        for param in action.params:
            if param.source is not None:
                text = self.text(param.source, "from", f"parameter '{param.name}'")
                code = self.compiler.formula(text, scope, T.ListOf(param.type), "list of choices")
                param.from_src = code.src
                action.conditions.append((action.rule, f"{param.name} must be one of {text}",
                                          f"(p_{param.name} in {code.src})"))
            scope[param.name] = Binding(f"p_{param.name}", param.type)
        legal = spec.get("legal")
        if legal is not None:
            entries = legal if isinstance(legal, Sequence) else [legal]
            for index, entry in enumerate(entries):
                if isinstance(entry, Mapping):
                    self.keys(entry, "a legality condition", ("if",), ("rule", "reason"))
                    text, rule = self.text(entry, "if", "legal"), str(entry.get("rule", action.rule))
                    reason = str(entry.get("reason", entry["if"]))
                else:
                    text = entry if isinstance(entry, Text) else self.text(spec, "legal", "action")
                    rule, reason = action.rule, str(entry)
                action.conditions.append((rule, reason, self.compiler.condition(text, scope)))
        if "effect" in spec:
            action.lines = self.compiler.effects(self.text(spec, "effect", "action"), scope,
                                                 rule=action.rule, indent=1)

    # ---------- triggers, end, evaluation ----------
    def read_triggers(self, triggers) -> list:
        """The ``triggers:`` list. Returns dicts of rule, when (condition source) and lines
        (effect source). RC320–RC323, RC350 (stop in a trigger) and expression errors."""
        result = []
        for index, trigger in enumerate(self.listed(triggers, "triggers:", self.data.value_at("triggers"))):
            self.keys(trigger, "a trigger", ("rule", "when", "do"), ("doc",))
            lines = self.compiler.effects(self.text(trigger, "do", "trigger"),
                                          rule=str(trigger["rule"]), indent=2)
            if any("# stop" in line for line in lines):
                raise SpecError("stop leaves a choice; it belongs in an action's effect, not in a "
                                "trigger", trigger.value_at("do"), code="RC350")
            result.append({"rule": str(trigger["rule"]),
                           "when": self.compiler.condition(self.text(trigger, "when", "trigger")),
                           "lines": lines})
        return result

    def read_end(self, end):
        """The ``end:`` section. Returns ``(source of the returns formula per team, (low,
        high))``, the range defaulting to (-1, 1). RC320–RC323, RC310 (not a number), RC358 (bad
        range), and expression errors."""
        self.keys(end, "end:", ("rule", "returns"), ("range", "doc"))
        scope = {"team": Binding("team", T.TEAM)}
        returns = self.compiler.formula(self.text(end, "returns", "end"), scope, T.INT, "returns formula")
        span = end.get("range", [-1, 1])
        if (not isinstance(span, list) or len(span) != 2 or
                not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in span) or span[0] > span[1]):
            raise SpecError("range: is [lowest, highest], the bounds of every team's return",
                            end.value_at("range"), code="RC358")
        low, high = span
        return returns.src, (low, high)

    def read_evaluation(self, evaluation, returns):
        """The source of the ``evaluation:`` formula (a number per ``team``), or
        ``returns`` when there is none. RC310 and expression errors."""
        if evaluation is None:
            return returns
        scope = {"team": Binding("team", T.TEAM)}
        text = evaluation if isinstance(evaluation, Text) else Text(str(evaluation), self.data.value_at("evaluation"))
        return self.compiler.formula(text, scope, T.INT, "evaluation").src

    def read_invariants(self, invariants) -> list:
        """The ``invariants:`` list. Returns dicts of name, rule, kind (holds or
        never_decreases) and src. RC320–RC323, RC357 (neither or both kinds), expression errors."""
        result = []
        for index, item in enumerate(self.listed(invariants, "invariants:", self.data.value_at("invariants"))):
            self.keys(item, "an invariant", ("name",), ("holds", "never_decreases", "rule", "doc"))
            if ("holds" in item) == ("never_decreases" in item):
                raise SpecError("an invariant has either holds: (a condition on every state) or "
                                "never_decreases: (a number that may not go down from one state to "
                                "the next)", item.position, code="RC357")
            if "holds" in item:
                kind, src = "holds", self.compiler.condition(self.text(item, "holds", "invariant"))
            else:
                kind = "never_decreases"
                src = self.compiler.formula(self.text(item, "never_decreases", "invariant"), {},
                                            T.INT, "formula").src
            result.append({"name": str(item["name"]), "rule": str(item.get("rule", "")),
                           "kind": kind, "src": src})
        return result

    def read_limits(self, limits) -> int:
        """``limits: max_plies:``, a positive whole number; RC355 when missing or not one,
        RC320–RC322 for the section's keys."""
        if limits is None:
            raise SpecError("limits: max_plies: is needed — a true upper bound on the plies of a "
                            "game, which the rules must guarantee", self.data.position, code="RC355")
        self.keys(limits, "limits:", ("max_plies",))
        value = limits["max_plies"]
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise SpecError("max_plies is a positive whole number", limits.value_at("max_plies"),
                            code="RC355")
        return value

    def read_open_questions(self, questions) -> list:
        """The ``open_questions:`` list, each entry a dict of strings (id, section,
        question, resolution, option). RC320–RC322."""
        result = []
        for index, item in enumerate(self.listed(questions, "open_questions:",
                                                 self.data.value_at("open_questions"))):
            self.keys(item, "an open question", ("id", "section", "question", "resolution"), ("option",))
            result.append({k: str(v) for k, v in item.items()})
        return result


def _distances(neighbors) -> list:
    size = len(neighbors)
    table = []
    for start in range(size):
        row = [-1] * size
        row[start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in neighbors[here]:
                if row[there] < 0:
                    row[there] = row[here] + 1
                    queue.append(there)
        table.append(tuple(row))
    return table


def _grid_lines(board, length) -> tuple:
    grid = board["grid"]
    if grid is None or not 1 <= length <= max(grid["rows"], grid["columns"]):
        return ()                   # no straight run that long (nor of no spaces) on this board
    index = {rc: i for i, rc in enumerate(grid["coords"])}
    result = []
    for (row, col) in grid["coords"]:
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cells = [(row + dr * k, col + dc * k) for k in range(length)]
            if all(c in index for c in cells):
                result.append(tuple(index[c] for c in cells))
    return tuple(result)


@lru_cache(maxsize=64)
def _compiled(src):
    """``src`` compiled once: board formulas are evaluated for every space or pair of spaces."""
    return compile(src, "<board formula>", "eval")


def _evaluate(src, namespace, position):
    """Evaluate compiler-generated source at compile time (board geometry); never user text."""
    try:
        # one dict as globals, so that generator expressions in the formula see the tables too
        scope = dict(namespace, __builtins__={"abs": abs, "min": min, "max": max, "sum": sum,
                                              "any": any, "all": all, "len": len, "tuple": tuple,
                                              "range": range, "int": int, "next": next,
                                              "frozenset": frozenset})
        return eval(_compiled(src), scope)
    except Exception as error:  # a formula that fails on some space
        raise SpecError(f"this formula fails while computing the board: {error}", position,
                        code="RC356") from None


def _as_int(label):
    try:
        return int(label)
    except ValueError:
        return label
