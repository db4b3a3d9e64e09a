"""The spec's symbol table: what every name and attribute a rule string may use stands for.

The section readers fill it in (teams, spaces, options, fields, tables, definitions, ...) and the
checker reads it. A global name stands for an IR expression (a constant, a list, a state field); an
attribute ``x.name`` for an :class:`Attribute` of the family of ``x``'s type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from rulecraft.compiler import ir


@dataclass(eq=False)
class Function:
    """A designer's definition (``define:``): a formula with parameters, inlined where used."""

    name: str
    params: list
    body: object                     # the formula's Text
    tree: object = None              # its syntax tree, parsed on first use


@dataclass(eq=False)
class Procedure:
    """A designer's procedure (``procedures:``): effects with parameters, inlined where called."""

    name: str
    params: list
    body: object
    tree: object = None


@dataclass(frozen=True)
class Attribute:
    """What ``x.name`` means for a value ``x`` of one family (team, space, piece, kind).

    ``kind`` is ``field`` (a state field ``of:`` that family; ``field`` set, assignable),
    ``static`` (a table fixed when compiling, ``table``, looked up with ``x``), ``via_kind`` (a
    piece's kind attribute: ``table`` looked up with the piece's kind), or one of ``opponent``,
    ``next`` (teams) and ``pieces`` (spaces: the pieces standing there)."""

    kind: str
    type: object
    field: ir.FieldIR | None = None
    table: ir.StaticTable | None = None

    @property
    def assignable(self) -> bool:
        return self.kind == "field"


@dataclass(eq=False)
class Symbols:
    """Everything a spec declares that rule strings may name (see the module docstring)."""

    language: int = 1
    names: dict = field(default_factory=dict)          # name -> ir.Expr it stands for
    attributes: dict = field(default_factory=dict)     # (family, name) -> Attribute
    tables: dict = field(default_factory=dict)         # name -> (ir.TableIR, key types)
    functions: dict = field(default_factory=dict)      # name -> Function
    procedures: dict = field(default_factory=dict)     # name -> Procedure
    goto_targets: dict = field(default_factory=dict)   # phase or step label -> node index
    goto_phase: dict = field(default_factory=dict)     # node index -> the phase it belongs to
    flow_phase: str | None = None                      # the phase whose step is being compiled
    outer_targets: dict | None = None                  # inside a called phase: the targets outside it
    secrets: dict = field(default_factory=dict)        # field name -> FieldIR with a revealed flag
    events: dict = field(default_factory=dict)         # event kind -> {key: type}
    lines_needed: set = field(default_factory=set)     # the lengths n used in lines(n)
    statics: dict = field(default_factory=dict)        # name -> ir.StaticTable of the board and pieces
    piece_index: ir.PieceIndexIR | None = None
    allocate: Callable | None = None                   # size -> first slot of new state slots
    faults: list = field(default_factory=list)         # (Where, what) of each play-time check
    routines: dict = field(default_factory=dict)       # specialisation key -> RoutineIR (None: inline it)
    warnings: list = field(default_factory=list)
    builtins: dict = field(default_factory=dict)       # name -> ir.Expr of a built-in value (directions)
    directions_used: bool = False                      # whether a rule named a built-in direction
    grid: ir.GridIR | None = None                      # the board's grid, for tables made on first use
    team_count: int = 0
    space_count: int = 0
    piece_count: int = 0

    def static(self, name: str) -> ir.StaticTable:
        """The board or piece table ``name`` (``NEIGHBORS``, ``PIECE_TEAM``, ...)."""
        return self.statics[name]
