"""Read one loaded ``game.yaml`` into the checked :class:`ir.GameIR`.

Sections are read in the order their names depend on each other (game, options, enums, board,
pieces, dice, state, tables, define, procedures, the flow and actions, the closing sections);
the flow's and actions' rule strings are checked last, once every name and goto target is
known. Errors are :class:`rulecraft.errors.SpecError` (RC3xx) at the offending key or token.
Source of the format: ``docs/spec-reference.md``.
"""

from __future__ import annotations

from rulecraft.errors import SpecError, did_you_mean
from rulecraft.loader import Mapping
from rulecraft.compiler import ir, library, schema
from rulecraft.compiler import types as T
from rulecraft.compiler.actions import ActionsReader
from rulecraft.compiler.board import DIRECTION_LISTS, DIRECTION_NAMES, BoardReader, grid_lines
from rulecraft.compiler.checker import Checker
from rulecraft.compiler.declarations import DeclarationsReader
from rulecraft.compiler.derived import keep_fields_current
from rulecraft.compiler.ending import EndingReader
from rulecraft.compiler.frames import Frames, offers
from rulecraft.compiler.pieces import PiecesReader
from rulecraft.compiler.statements import Effects
from rulecraft.compiler.symbols import Symbols

SECTIONS = schema.SPEC.keys


class SpecReader(DeclarationsReader, BoardReader, PiecesReader, ActionsReader, EndingReader):
    """Turn one loaded spec (``data``, from :func:`rulecraft.loader.load_yaml`) at ``path`` into
    a :class:`ir.GameIR` under the option values ``option_values`` (see the module docstring)."""

    def __init__(self, data, path: str, option_values: dict | None = None):
        super().__init__(path, Symbols())
        if not isinstance(data, Mapping):
            raise SpecError("a game spec is a mapping of sections (game:, board:, turn:, ...)",
                            self.top(), code="RC320")
        self.data = data
        self.option_values = dict(option_values or {})
        self.checker = Checker(self.symbols, dict(library.FUNCTIONS))
        self.effects = Effects(self.checker, dict(library.PROCEDURES))
        self.symbols.builtins = directions()

    def build(self) -> ir.GameIR:
        """Read and check every section; returns the IR. RC321 (unknown section), RC322 (no
        ``game:``, ``turn:`` or ``end:``) and every error of the section readers and the checker."""
        data = self.data
        for key in data:
            if key not in SECTIONS:
                raise SpecError(f"unknown section '{key}'", data.where(key), code="RC321",
                                hint=did_you_mean(str(key), SECTIONS) or "sections: " + ", ".join(SECTIONS))
        for key in schema.SPEC.required:
            if key not in data:
                raise SpecError(f"the spec needs a '{key}:' section", data.position, code="RC322")
        meta = self.read_game(data["game"])
        options = self.read_options(data.get("options"), self.option_values)
        self.enums = {**self.read_enums(data.get("enums")), "direction": DIRECTION_NAMES}
        self.board = self.read_board(data.get("board"))
        at = self.read_pieces(data.get("pieces"), self.board)
        self.dice = self.read_dice(data.get("dice"), self.enums)
        fields = [at] + self.read_state(data.get("state"), self.enums, at.base + at.size)
        self.board.drawing["across"] = self.read_across(data.get("board"), fields)
        slots = fields[-1].base + fields[-1].size + (1 if fields[-1].reveal_slot is not None else 0)
        tables = self.read_tables(data.get("tables"), self.enums)
        self.read_functions(data.get("define"))
        self.read_procedures(data.get("procedures"))
        upkeep = self.read_derived()
        nodes, first_turn = self.read_flow(data)
        actions = self.read_actions(data.get("actions"), nodes)
        self.frames = Frames(actions)
        triggers = self.read_triggers(data.get("triggers"))
        end_rule, team, returns, returns_range = self.read_end(data["end"])
        evaluation = self.read_evaluation(data.get("evaluation"), team, returns)
        invariants = self.read_invariants(data.get("invariants"))
        max_plies, on_limit, limit_source = self.read_limits(data.get("limits"), team)
        by_name = {a.name: a for a in actions}
        for node in nodes:
            self.compile_node(node, nodes, by_name)
        offered = offers(nodes)
        for action in actions:
            self.compile_action(action, *offered.get(action.name, ([], [])))
        symbols = self.symbols
        routines = [r for r in symbols.routines.values() if r is not None]
        if upkeep:
            keep_fields_current(nodes, actions, triggers, routines, upkeep)
        self.board.lines = {n: grid_lines(self.board.grid, n) for n in sorted(symbols.lines_needed)}
        game = ir.GameIR(
            meta=meta, options=options, teams=self.teams, board=self.board, kinds=self.kinds,
            kind_attributes=self.kind_attributes, kind_symbols=self.kind_symbols, pieces=self.pieces,
            enums=self._used_enums(fields, actions, tables), dice=self.dice, fields=fields, slots=slots, piece_index=symbols.piece_index,
            tables=tables, nodes=nodes, actions=actions, triggers=triggers, returns=returns,
            returns_team=team, returns_range=returns_range, evaluation=evaluation, invariants=invariants,
            max_plies=max_plies, on_limit=on_limit, limit_source=limit_source, events=symbols.events,
            open_questions=self.read_open_questions(data.get("open_questions")),
            first_turn_node=first_turn, constants=self.constants(), faults=symbols.faults,
            warnings=symbols.warnings, end_rule=end_rule, reached=self.reached,
            routines=routines + upkeep, upkeep=upkeep, phase_rules=self.phase_rules)
        self.frames.settle(game)
        return game

    def _used_enums(self, fields, actions, tables) -> dict:
        """The spec's enumerations, with the built-in ``direction`` only when the rules use it
        (a direction named, a field, parameter, table or die of that type)."""
        types = [f.type for f in fields] + [p.type for a in actions for p in a.params] \
            + [k.type for table in tables for k in table.keys] + [table.value_type for table in tables] \
            + [die.type for die in self.dice.values()]
        used = self.symbols.directions_used or any(
            kind == T.DIRECTION or kind == T.ListOf(T.DIRECTION) for kind in types)
        return {name: values for name, values in self.enums.items() if name != "direction" or used}


def directions() -> dict:
    """The built-in names of the directions: each of the eight, and the lists of them."""
    value = {name: ir.Const(type=T.DIRECTION, value=index) for index, name in enumerate(DIRECTION_NAMES)}
    lists = {name: ir.Items(type=T.ListOf(T.DIRECTION), items=tuple(value[d] for d in members))
             for name, members in DIRECTION_LISTS.items()}
    return {**value, **lists}
