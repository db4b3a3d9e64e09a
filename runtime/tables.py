"""The shapes of compiled rule tables: what a generated module hands to the generic runtime.

A generated module builds one :class:`RuleTables`; the runtime needs nothing else to play the
game. All callables take the state ``s`` (a flat list of integers) first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class FieldDef:
    """A state field: ``size`` slots from ``base`` (one per team, space or piece when ``of`` is set).

    ``visible`` is ``"all"`` or ``"owner"``; an owner-only field with ``reveal_slot`` becomes
    public once that slot holds 1. ``show`` false keeps a bookkeeping field out of text views.
    """

    name: str
    type: str
    of: str | None
    base: int
    size: int
    visible: str
    reveal_slot: int | None
    show: bool = True          # shown in the text view of a state


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

    ``kind`` is ``do`` (automatic effects), ``choose`` (a team picks one action), ``secret`` (each
    listed team picks one action, hidden from the others), ``roll`` (a chance node) or ``after``
    (repeat the choice at ``target`` while ``run(s)`` holds). ``next`` is the following node, or
    -4 to return to the choice that started the current action's steps. ``in_action`` marks the
    steps of an action's ``then:``; their ``phase`` is the action's name. When ``guard`` is false
    the flow goes to ``skip`` instead (past a repeated choice, or past a whole guarded phase).
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


@dataclass(frozen=True)
class ActionDef:
    """An action: ids ``base`` … ``base + prod(sizes) - 1``, one per combination of parameters.

    ``params`` holds ``(name, type, size, offset)``; the id of a combination is ``base`` plus the
    mixed-radix number of ``value - offset`` over the parameters, the first most significant.
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
        for _, _, size, _ in self.params:
            total *= size
        return total

    def decode(self, action_id: int) -> tuple:
        """The parameter values of ``action_id`` (which must lie in this action's range)."""
        rest = action_id - self.base
        values = []
        for _, _, size, offset in reversed(self.params):
            rest, digit = divmod(rest, size)
            values.append(digit + offset)
        return tuple(reversed(values))


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
    """Everything the runtime needs to play one game under one set of options."""

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
