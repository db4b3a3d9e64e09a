"""The typed intermediate representation (IR) of a game: what the checker builds from the spec,
what the optimising passes rewrite and what the back end turns into a Python module.

Expressions and statements are small classes carrying their value type (:mod:`types`), whether
the value may be none (``nullable``) and where they come from in the spec (:class:`Where`). The IR
holds no Python: a state field is a :class:`Slot` of a :class:`FieldIR`, a board attribute or a
spec table a :class:`Static` lookup, a jump a node index. The game as a whole is a
:class:`GameIR`; the site reads its static facts (board, areas, tables, rule ids) from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from rulecraft.compiler.syntax import Where


# ---------------------------------------------------------------- names bound by the rules
@dataclass(eq=False, slots=True)
class Symbol:
    """A variable the rules bind: an action parameter, the acting team, a loop variable, a
    procedure's argument. Two symbols are the same variable only if they are the same object."""

    name: str
    role: str          # param, actor, team, local, argument, hoisted


# ---------------------------------------------------------------- expressions
@dataclass(eq=False, slots=True, kw_only=True)
class Expr:
    """A value; ``type`` is its rule-language type, ``nullable`` whether it may be none."""

    type: object
    where: Where | None = None
    nullable: bool = False
    summary: object = field(default=None, init=False, repr=False)
    """What :func:`rulecraft.compiler.summary.summary` worked out about this node (on first asking)."""


@dataclass(eq=False, slots=True, kw_only=True)
class Const(Expr):
    """A number, a truth value (1 or 0), or an entity's index (-1: none)."""

    value: int


@dataclass(eq=False, slots=True, kw_only=True)
class Var(Expr):
    symbol: Symbol


@dataclass(eq=False, slots=True, kw_only=True)
class Slot(Expr):
    """A state field's value: of the game (``index`` None) or of the entity ``index``."""

    field: "FieldIR"
    index: Expr | None = None


@dataclass(eq=False, slots=True, kw_only=True)
class Static(Expr):
    """A value looked up at play time in a table fixed when compiling (board attributes, piece
    facts, spec tables, distances): ``table.values[k1][k2]...`` with each key minus its offset."""

    table: "StaticTable"
    keys: tuple


@dataclass(eq=False, slots=True, kw_only=True)
class PieceCount(Expr):
    """How many pieces of the ``teams`` stand on ``space`` (none: off the board), read from the
    piece index the compiler keeps in the state."""

    index: "PieceIndexIR"
    teams: tuple
    space: Expr


@dataclass(eq=False, slots=True, kw_only=True)
class Unary(Expr):
    op: str            # "-" or "not"
    operand: Expr


@dataclass(eq=False, slots=True, kw_only=True)
class Binary(Expr):
    op: str            # + - * // %
    left: Expr
    right: Expr


@dataclass(eq=False, slots=True, kw_only=True)
class Compare(Expr):
    op: str            # == != < <= > >=
    left: Expr
    right: Expr


@dataclass(eq=False, slots=True, kw_only=True)
class Logic(Expr):
    op: str            # "and" or "or"
    values: tuple


@dataclass(eq=False, slots=True, kw_only=True)
class Cond(Expr):
    test: Expr
    yes: Expr
    no: Expr


@dataclass(eq=False, slots=True, kw_only=True)
class Member(Expr):
    item: Expr
    collection: Expr
    negate: bool = False


@dataclass(eq=False, slots=True, kw_only=True)
class Items(Expr):
    """A list written out: ``[a, b, c]``."""

    items: tuple


@dataclass(eq=False, slots=True, kw_only=True)
class Span(Expr):
    """The numbers ``low`` … ``high``, both included."""

    low: Expr
    high: Expr


@dataclass(eq=False, slots=True, kw_only=True)
class Comprehension(Expr):
    """The items of ``source`` bound to ``var`` that satisfy ``cond``, each mapped to ``value``
    (None: the item itself). ``stop`` (``x in S until C``) ends the list before the first item
    for which it holds. ``once`` binds values computed once per evaluation, before the loop
    (the hoisting pass fills it)."""

    var: Symbol
    source: Expr
    cond: Expr | None = None
    value: Expr | None = None
    once: tuple = ()
    stop: Expr | None = None


@dataclass(eq=False, slots=True, kw_only=True)
class Aggregate(Expr):
    """``fn`` over a list: count, any, all, sum, min, max (0 for no items) or first (none)."""

    fn: str
    items: Expr


@dataclass(eq=False, slots=True, kw_only=True)
class AtLeast(Expr):
    """Whether at least ``least`` (≥ 2) items of ``items`` exist; stops counting when found."""

    items: Expr
    least: int


@dataclass(eq=False, slots=True, kw_only=True)
class ItemAt(Expr):
    """Item ``position`` (from 0) of the list ``items``."""

    items: Expr
    position: Expr


@dataclass(eq=False, slots=True, kw_only=True)
class Builtin(Expr):
    """A library function of fixed meaning: abs, min, max, space_at, reach, connected."""

    fn: str
    args: tuple


@dataclass(eq=False, slots=True, kw_only=True)
class Call(Expr):
    """The value of a designer's definition emitted as a named function (:class:`RoutineIR`)."""

    routine: "RoutineIR"
    args: tuple


@dataclass(eq=False, slots=True, kw_only=True)
class Checked(Expr):
    """``value``, which must not be none at play time: else the rules fail with fault ``fault``."""

    value: Expr
    fault: int


@dataclass(eq=False, slots=True, kw_only=True)
class Guarded(Expr):
    """``value``, a read that needs ``check`` (a team, space, piece or kind) not to be none; when
    it is none at play time the rules fail with fault ``fault``. Reading ``value`` with ``check``
    none cannot fail (it reads a wrong slot), so the read may be computed early, the check not."""

    check: Expr
    value: Expr
    fault: int


@dataclass(eq=False, slots=True, kw_only=True)
class InRange(Expr):
    """``value``, which must lie in ``low`` … ``high`` at play time (a table key, a list
    position; ``high`` None: no upper bound); else the rules fail with fault ``fault``."""

    value: Expr
    low: int
    high: int | None
    fault: int


# ---------------------------------------------------------------- statements
@dataclass(eq=False, slots=True, kw_only=True)
class Stmt:
    where: Where | None = None


@dataclass(eq=False, slots=True, kw_only=True)
class Store(Stmt):
    target: Slot
    value: Expr


@dataclass(eq=False, slots=True, kw_only=True)
class Change(Stmt):
    target: Slot
    op: str            # "+" or "-"
    amount: Expr


@dataclass(eq=False, slots=True, kw_only=True)
class Move(Stmt):
    """Put ``piece`` on ``space`` (none: off the board), keeping the piece index."""

    piece: Expr
    space: Expr


@dataclass(eq=False, slots=True, kw_only=True)
class When(Stmt):
    test: Expr
    then: list
    other: list = field(default_factory=list)


@dataclass(eq=False, slots=True, kw_only=True)
class Loop(Stmt):
    """``for var in source where cond do {body}``; ``stop`` (``until``) ends the loop at the
    first item for which it holds, tested just before that item's effects run."""

    var: Symbol
    source: Expr
    cond: Expr | None
    body: list
    stop: Expr | None = None


@dataclass(eq=False, slots=True, kw_only=True)
class While(Stmt):
    """Run ``body`` while ``test`` holds, at most ``limit`` rounds; a test still true after the
    last round raises fault number ``fault`` (RC405)."""

    test: Expr
    limit: int
    body: list
    fault: int


@dataclass(eq=False, slots=True, kw_only=True)
class Bind(Stmt):
    """Give ``var`` the value of ``value`` (a procedure's argument, evaluated once)."""

    var: Symbol
    value: Expr


@dataclass(eq=False, slots=True, kw_only=True)
class Jump(Stmt):
    """Leave the effects: to flow node ``target`` (goto), or the runtime's STOP or FINISH code."""

    target: int
    label: str


@dataclass(eq=False, slots=True, kw_only=True)
class SetRevealed(Stmt):
    """Set the revealed flag of the secret field ``field`` (1: reveal, 0: hidden again)."""

    field: "FieldIR"
    value: int


@dataclass(eq=False, slots=True, kw_only=True)
class Perform(Stmt):
    """Run a designer's procedure emitted as a named function (:class:`RoutineIR`); a jump it
    makes (goto, stop, finish) is the caller's."""

    routine: "RoutineIR"
    args: tuple


@dataclass(eq=False, slots=True, kw_only=True)
class Emit(Stmt):
    """An event for the play-by-play: ``(kind, rule, {key: value})``."""

    kind: str
    rule: str
    items: tuple       # (key, Expr)


# ---------------------------------------------------------------- the game
@dataclass(eq=False)
class RoutineIR:
    """A definition (``kind`` formula: ``body`` an expression) or a procedure (effects: a list of
    statements) too large to copy into every place that uses it: one named function of
    ``params``, made for one combination of its arguments' types (``number`` tells them apart)."""

    name: str
    number: int
    kind: str
    params: tuple
    body: object
    type: object = None
    reads: frozenset = frozenset()     # a derived field's upkeep: the fields its formula reads


@dataclass(eq=False)
class StaticTable:
    """A table of values fixed at compile time that the rules read at play time.

    ``role`` says what it tabulates (``space`` attribute, ``kind`` attribute, ``piece`` facts,
    ``team`` pieces, ``board`` geometry or a derived formula, ``table`` of the spec, the members
    of an ``area``, read whole: a :class:`Static` without keys) and, with
    ``name``, names it in generated code. ``offsets`` are subtracted from each key; ``checked``
    tells, per key, the range a key must lie in (None: no check is needed)."""

    role: str
    name: str
    values: object
    type: object
    offsets: tuple = (0,)
    doc: str = ""


@dataclass(eq=False)
class FieldIR:
    """A state field: ``size`` slots from ``base``; ``of`` team/space/piece or None; ``initial``
    its starting value; ``visible`` all or owner (``reveal_slot``: its revealed flag)."""

    name: str
    type: object
    of: str | None
    base: int
    size: int
    initial: Expr
    visible: str = "all"
    reveal_slot: int | None = None
    show: bool | str = True      # false, true or "state" (not on the terminal's status line)
    nullable: bool = True
    doc: str = ""
    derived: bool = False              # kept equal to a formula (compiler/derived.py)
    frame: tuple = ()                  # a slot of the action frame (compiler/frames.py): the actions binding it

    @property
    def initial_value(self) -> int | None:
        """The starting value when it is a fixed number, else None."""
        return self.initial.value if isinstance(self.initial, Const) else None


@dataclass(eq=False)
class PieceIndexIR:
    """Slots counting each team's pieces on each space (``width`` = spaces + 1, off the board
    first): team ``t``'s pieces on space ``z`` are at ``base + 1 + t * width + z``."""

    teams: int
    width: int
    base: int | None = None


@dataclass(frozen=True)
class KeyIR:
    """One key of a spec table: its type, the value of its first row (a range's low end, or 0)
    and each row's label."""

    type: object
    offset: int
    labels: tuple


@dataclass(eq=False)
class TableIR:
    name: str
    rule: str
    keys: tuple
    value_type: object
    values: tuple
    value_labels: tuple
    doc: str
    static: StaticTable


@dataclass(eq=False)
class ParamIR:
    """An action parameter: ``size`` values from ``offset``; ``source`` its ``from:`` list."""

    name: str
    type: object
    size: int
    offset: int = 0
    symbol: Symbol | None = None
    source: Expr | None = None
    position: object = None     # where the spec names it


class Condition(NamedTuple):
    """A legality condition: the rule that states it, the reason shown when it fails, the test;
    ``param`` names the parameter whose ``from:`` list the condition checks (else None)."""

    rule: str
    reason: str
    test: Expr
    param: str | None = None


@dataclass(eq=False)
class ActionIR:
    name: str
    rule: str
    index: int
    base: int = 0
    params: list = field(default_factory=list)
    conditions: list = field(default_factory=list)
    effect: list = field(default_factory=list)
    notation: str = ""
    subflow: int | None = None
    actor: Symbol | None = None
    doc: str = ""

    @property
    def size(self) -> int:
        """The number of ids the action owns: the product of its parameters' sizes."""
        total = 1
        for param in self.params:
            total *= param.size
        return total


@dataclass(eq=False)
class NodeIR:
    """One flow node: a step of a phase, or of an action's then-steps (``owner_action``).

    ``kind`` is do, choose, secret, roll or after; ``next``/``skip`` are node indices or the
    runtime's RETURN; ``guard`` the step's (or its phase's) ``when:``; ``body`` the effects of a
    do or roll step (a roll's value is ``roll_value``); ``actor`` the team (choose) or list of
    teams (secret); ``repeat`` an after node's condition, returning to ``target``."""

    index: int
    kind: str
    phase: str
    rule: str
    label: str | None = None
    next: int = -1
    skip: int = -1
    guard: Expr | None = None
    body: list = field(default_factory=list)
    actor: Expr | None = None
    actions: list = field(default_factory=list)
    repeat: Expr | None = None
    target: int | None = None
    die: str | None = None
    roll_value: Symbol | None = None
    owner_action: str | None = None


@dataclass(eq=False)
class TriggerIR:
    rule: str
    when: Expr
    body: list


@dataclass(eq=False)
class InvariantIR:
    name: str
    rule: str
    kind: str          # holds | never_decreases
    formula: Expr


@dataclass(frozen=True)
class GameMeta:
    id: str
    title: str
    version: str
    summary: str
    source: dict
    language: int


@dataclass(frozen=True)
class OptionIR:
    name: str
    type: str          # int | bool | choice
    value: object
    default: object
    values: tuple
    doc: str


@dataclass(eq=False)
class GridIR:
    rows: int
    columns: int
    coords: tuple      # (row, column) of each space, 1-based


@dataclass(eq=False)
class BoardIR:
    """The board: space names, the grid (or None), each attribute's type and per-space values,
    adjacency, distances (a :class:`~rulecraft.runtime.support.Distances`, rows found when read),
    named areas, the straight lines ``lines(n)`` asks for and the drawing's constants
    (:mod:`rulecraft.compiler.drawing`)."""

    spaces: tuple
    grid: GridIR | None
    attributes: dict
    neighbors: tuple
    distance: object
    areas: dict = field(default_factory=dict)
    lines: dict = field(default_factory=dict)
    drawing: dict = field(default_factory=dict)


@dataclass(frozen=True)
class PieceIR:
    team: int
    kind: int          # -1: no kind
    number: int
    at: int            # -1: off the board


@dataclass(eq=False)
class DieIR:
    type: object
    outcomes: tuple
    probabilities: tuple


@dataclass(eq=False)
class GameIR:
    """The whole compiled game (see the module docstring)."""

    meta: GameMeta
    options: dict                     # name -> OptionIR
    teams: tuple
    board: BoardIR
    kinds: tuple
    kind_attributes: dict             # name -> per-kind values (numbers, or grid step sets)
    kind_symbols: tuple
    pieces: tuple                     # PieceIR
    enums: dict
    dice: dict                        # name -> DieIR
    fields: list                      # FieldIR
    slots: int
    piece_index: PieceIndexIR | None
    tables: list                      # TableIR
    nodes: list                       # NodeIR
    actions: list                     # ActionIR
    triggers: list
    returns: Expr
    returns_team: Symbol
    returns_range: tuple
    evaluation: Expr
    invariants: list
    max_plies: int
    on_limit: Expr | None
    limit_source: str
    events: dict                      # kind -> {key: type}
    open_questions: list
    first_turn_node: int
    constants: dict                   # zero-argument definitions with a fixed number
    faults: list                      # (Where, what) of each check made at play time
    warnings: list = field(default_factory=list)   # rulecraft.errors.SpecWarning
    end_rule: str = "end"
    reached: tuple = ()               # per set of grid steps, per square: the squares reached
    routines: list = field(default_factory=list)   # RoutineIR, in the order they were made
    upkeep: list = field(default_factory=list)     # the derived fields' RoutineIR, inputs first
    frame: list = field(default_factory=list)      # FieldIR of the action frame (compiler/frames.py)
    phase_rules: dict = field(default_factory=dict)  # phase of setup:/turn: -> the rule id it names
