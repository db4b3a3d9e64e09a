"""The contract between compiled rule tables and the generic runtime.

A generated module builds one :class:`RuleTables`; the runtime needs nothing else to play the game.
Everything both sides must agree on is defined here and only here: the header slots of a state,
the kinds of flow nodes and the codes an effect returns, and the encoding of action ids. The
compiler imports these names; the runtime reads them. All callables take the state ``s`` (a flat
list of integers) first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

# ---------------------------------------------------------------- the state's header slots
SLOT_PC = 0          # the flow node the state stands at
SLOT_DONE = 1        # 0 while the game runs; GAME_OVER or TRUNCATED once it has ended
SLOT_PENDING = 2     # a secret choice: bit t set while team t has not chosen yet
SLOT_RETURN = 3      # the node an action's then-steps return to
HEADER_SLOTS = 4

GAME_OVER = 1        # SLOT_DONE: the spec's end was reached (its returns apply)
TRUNCATED = 2        # SLOT_DONE: the match reached limits: max_plies (the on_limit returns apply)

# ---------------------------------------------------------------- flow
NODE_KINDS = ("do", "choose", "secret", "roll", "after")
RETURN = -4          # a node's next: go back to the choice that started this action's steps
STOP = -2            # returned by an action's effect: leave the current (repeated) choice
FINISH = -3          # returned by an effect: the game is over


def mixed_radix_strides(sizes) -> tuple:
    """The weight of each digit of a mixed-radix number whose digits have ``sizes`` values, the
    first digit most significant: ``(6, 2, 1)`` for sizes ``(4, 3, 2)``."""
    strides, stride = [], 1
    for size in reversed(tuple(sizes)):
        strides.append(stride)
        stride *= size
    return tuple(reversed(strides))


class ParamDef(NamedTuple):
    """An action parameter: ``size`` values from ``offset`` (a range's low end; 0 otherwise) of
    ``type`` (``int``, ``bool``, ``team``, ``space``, ``piece``, ``kind`` or ``enum:<name>``)."""

    name: str
    type: str
    size: int
    offset: int = 0


@dataclass(frozen=True)
class FieldDef:
    """A state field: ``size`` slots from ``base`` (one per team, space or piece when ``of`` is set).

    ``visible`` is ``"all"`` or ``"owner"``; an owner-only field with ``reveal_slot`` becomes
    public once that slot holds 1. ``show`` false keeps a bookkeeping field out of text views;
    ``"state"`` shows it in full views (the terminal's ``state`` command) but not on the status
    line before a decision.
    """

    name: str
    type: str
    of: str | None
    base: int
    size: int
    visible: str
    reveal_slot: int | None
    show: bool | str = True    # shown in the text view of a state ("state": not on the status line)
    derived: bool = False      # kept equal to its formula by the rules (RuleTables.upkeep)


class FrameDef(NamedTuple):
    """A slot of the action frame: the value of parameter ``name`` (or ``actor``, the acting
    team) of ``type``, stored when one of the actions that bind it is taken and read by its
    then-steps and the follow-up actions they offer. It holds a value while the state stands at
    one of ``nodes`` (those actions' then-steps) and is cleared (none, or 0) when the chain
    returns to the choice that offered the action; it is no spec field, so text views and
    adapters do not name it. A whole-number parameter then lies in ``low..high`` (its ranges)."""

    name: str
    type: str
    slot: int
    nodes: tuple
    low: int = 0
    high: int = 0


@dataclass(frozen=True)
class DieDef:
    """A die: its distinct ``outcomes`` (values) with exact ``probabilities`` summing to 1."""

    name: str
    type: str
    outcomes: tuple
    probabilities: tuple

    def __post_init__(self):
        if sum(self.probabilities) != 1:
            raise ValueError(f"the faces of die {self.name} do not sum to probability 1")


@dataclass(frozen=True)
class FlowNode:
    """One step of the turn structure.

    ``kind`` is one of :data:`NODE_KINDS`: ``do`` (automatic effects), ``choose`` (a team picks one
    action), ``secret`` (each listed team picks one action, hidden from the others), ``roll`` (a
    chance node) or ``after`` (repeat the choice at ``target`` while ``run(s)`` holds). ``next`` is
    the following node, or :data:`RETURN`. ``in_action`` marks the steps of an action's ``then:``;
    their ``phase`` is the action's name. When ``guard`` is false the flow goes to ``skip`` instead
    (past a repeated choice, or past a whole guarded phase). ``by`` is the name of the game field
    a choice's ``by:`` is (``by: to_move``), None when ``by:`` is a team or another formula: that
    field says whose decision it is, which the terminal shows once, as "to play".
    """

    index: int
    kind: str
    phase: str
    rule: str
    next: int
    guard: Callable | None
    run: Callable | None
    actor: Callable | None
    legal: Callable | None
    actions: tuple
    die: str | None
    target: int | None
    in_action: bool
    skip: int
    by: str | None = None      # the game field of type team a choice's ``by:`` names, when it names one


@dataclass(frozen=True)
class ActionDef:
    """An action: ids ``base`` … ``base + size - 1``, one per combination of its parameters.

    ``params`` holds :class:`ParamDef` values. The id of a combination is ``base`` plus the
    mixed-radix number of ``value - offset`` over the parameters, the first most significant
    (:func:`mixed_radix_strides`); :meth:`encode` and :meth:`decode` are the one implementation
    of it that the runtime uses, and the compiler builds its id arithmetic from the same strides.
    """

    name: str
    rule: str
    base: int
    params: tuple
    notation: str
    generate: Callable
    why_not: Callable
    apply: Callable
    subflow: int | None

    @property
    def size(self) -> int:
        """The number of ids of this action: the product of its parameters' sizes (1 without)."""
        total = 1
        for param in self.params:
            total *= param[2]
        return total

    def decode(self, action_id: int) -> tuple:
        """The parameter values of ``action_id`` (which must lie in this action's range)."""
        rest = action_id - self.base
        values = []
        for _, _, size, offset in reversed(self.params):
            rest, digit = divmod(rest, size)
            values.append(digit + offset)
        return tuple(reversed(values))

    def encode(self, values) -> int:
        """The id of the parameter ``values`` (each within its parameter's range)."""
        strides = mixed_radix_strides(param[2] for param in self.params)
        return self.base + sum((value - param[3]) * stride
                               for value, param, stride in zip(values, self.params, strides))


@dataclass(frozen=True)
class TableDef:
    """A spec table: its rule id, the labels of each key (rows, then columns) and the values.

    ``values`` is a tuple (one key) or a tuple of tuples (two keys), in label order; values of
    enumeration type are indices (``value_labels`` names them; empty for numbers).
    """

    name: str
    rule: str
    keys: tuple
    values: tuple
    value_labels: tuple
    doc: str


@dataclass(frozen=True)
class RuleTables:
    """Everything the runtime needs to play one game under one set of options.

    ``on_limit(s, team)`` gives the returns of a match truncated at ``max_plies``; None when the
    spec declares none, and reaching the cap is then an error naming ``limit_source`` (the
    spec's ``limits:`` position).
    """

    game_id: str
    title: str
    version: str
    spec_hash: str
    options: dict
    teams: tuple
    spaces: tuple
    grid: dict | None
    piece_team: tuple
    piece_labels: tuple
    kinds: tuple
    enums: dict
    slots: int
    initial_state: Callable
    fields: tuple
    dice: dict
    nodes: tuple
    actions: tuple
    num_distinct_actions: int
    triggers: Callable | None  # None: the game has no triggers
    returns: Callable
    returns_range: tuple
    evaluation: Callable
    invariants: tuple          # (name, rule, "holds" | "never_decreases", formula(s))
    max_plies: int
    events: dict
    reindex: Callable | None = None   # reindex(s): rebuild the compiler's indexes after s was edited
    tables: dict = None        # name -> TableDef: the spec's tables, for rulebooks and tests
    on_limit: Callable | None = None
    limit_source: str = ""
    upkeep: tuple = ()         # keep(s, ev) per derived field, inputs first: recompute it from its formula
    frame: tuple = ()          # FrameDef: the slots keeping an action's parameters for its then-steps
    drawing: dict = None       # how the board is drawn, the constants of board: drawing: (rulecraft.layout)
