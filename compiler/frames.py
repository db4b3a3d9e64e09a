"""The action frame: what an action's then-steps and the follow-up actions they offer know of it.

An action with ``then:`` steps starts a chain of decisions that belongs to its turn. Taking it
stores its parameters and the acting team (``actor``) in hidden state slots, its frame; its
then-steps read them by name, and so does a follow-up action (one a then-step's ``choose:``
offers), for each name that every action offering it has as a parameter of the same type. The
runtime clears the frame when the chain returns to the choice that offered the action
(:class:`rulecraft.runtime.tables.FrameDef`).

Only one chain runs at a time (an action with then-steps is never offered inside another's), so
the frames of all actions share one region of slots after the spec's fields, one slot per
parameter name and type, and only for the names the rules read: a follow-up offered by several
actions reads the same slot whichever of them started the chain.
Errors: RC370 (a name that would hide an inherited parameter), RC371 (a name some offering
action lacks, found when the formula reads it).
"""

from __future__ import annotations

from rulecraft.compiler import ir
from rulecraft.compiler import types as T
from rulecraft.compiler.facts import Scope
from rulecraft.compiler.optimize import map_game
from rulecraft.compiler.walk import walk

ACTOR = "actor"


class Frames:
    """The candidate frame slots of ``actions`` (their :class:`ir.ActionIR`, then-steps read):
    one :class:`ir.FieldIR` (``frame``: the actions binding it) per parameter name and type of
    an action with then-steps. :meth:`settle` keeps those the rules read."""

    def __init__(self, actions: list):
        self._slots: dict = {}                  # (name, type) -> FieldIR
        self._bound: dict = {}                  # action name -> {name: FieldIR}
        self._actions = actions
        for action in actions:
            if action.subflow is None:
                continue
            named = [(ACTOR, T.TEAM)] + [(p.name, p.type) for p in action.params]
            self._bound[action.name] = {name: self._slot(name, kind) for name, kind in named}
            for slot in self._bound[action.name].values():
                slot.frame += (action.name,)

    def _slot(self, name: str, kind) -> ir.FieldIR:
        found = self._slots.get((name, kind))
        if found is None:
            empty = ir.Const(type=T.NONE if T.is_entity(kind) else kind, value=-1 if T.is_entity(kind) else 0,
                             nullable=T.is_entity(kind))
            found = ir.FieldIR(f"{len(self._slots)}_{name}", kind, None, -1, 1, empty,
                               show=False, nullable=False, doc=f"the parameter '{name}'")
            self._slots[(name, kind)] = found
        return found

    def settle(self, game: ir.GameIR) -> None:
        """Give the frame slots that ``game``'s rules read their place after the other slots
        (``game.frame``, ``game.slots``), and make each action binding one store its value there
        first thing in its effect."""
        read: set = set()

        def note(e):
            read.update(node.field for node in walk(e) if isinstance(node, ir.Slot) and node.field.frame)
            return e
        map_game(game, note)
        game.frame = [slot for slot in self._slots.values() if slot in read]
        for slot in game.frame:
            slot.base = game.slots
            game.slots += 1
        for action in self._actions:
            bound = self._bound.get(action.name, {})
            values = {ACTOR: action.actor, **{p.name: p.symbol for p in action.params}}
            action.effect = [ir.Store(target=ir.Slot(type=slot.type, field=slot),
                                      value=ir.Var(type=slot.type, symbol=values[name]))
                             for name, slot in bound.items() if slot in read] + action.effect

    def then_scope(self, action_name: str) -> Scope:
        """The scope of the formulas of ``action_name``'s then-steps: its parameters and ``actor``."""
        bound = self._bound[action_name]
        return Scope({name: _read(slot) for name, slot in bound.items()},
                     inherited=dict.fromkeys(bound))

    def inherited(self, offered_by: list) -> set:
        """The parameter names a follow-up action offered by the actions ``offered_by`` takes
        from them (whether or not it may read them)."""
        return {name for action in offered_by for name in self._bound.get(action, {}) if name != ACTOR}

    def follow_up_scope(self, names: dict, offered_by: list, phases: list) -> Scope:
        """The scope of a follow-up action's formulas: its own ``names`` (parameters and actor)
        and the parameters that the actions ``offered_by`` all have with one type. A name some
        of them (or a choice of one of the ``phases``) lack is inherited but unreadable: RC371
        when a formula reads it."""
        scope = dict(names)
        inherited: dict = {}
        for name in sorted(self.inherited(offered_by)):
            slots = {self._bound[a][name] for a in offered_by if name in self._bound[a]}
            lacking = [f"action '{a}'" for a in offered_by if name not in self._bound[a]]
            lacking += [f"the choice of phase '{phase}'" for phase in phases]
            if lacking:
                inherited[name] = (f"'{name}' is not a parameter of {', '.join(lacking)}, which also offers "
                                   "this action")
            elif len(slots) > 1:
                kinds = " and ".join(sorted(T.describe(slot.type) for slot in slots))
                inherited[name] = f"'{name}' has different types ({kinds}) in the actions that offer this one"
            else:
                scope[name] = _read(slots.pop())
                inherited[name] = None
        return Scope(scope, inherited=inherited)


def offers(nodes: list) -> dict:
    """Per action name, ``(the actions whose then-steps offer it, the phases whose choices do)``,
    each in flow order without repeats; read from the compiled choice nodes."""
    found: dict = {}
    for node in nodes:
        for action in node.actions:
            by_actions, by_phases = found.setdefault(action.name, ([], []))
            into, name = (by_actions, node.owner_action) if node.owner_action is not None else (by_phases, node.phase)
            if name not in into:
                into.append(name)
    return found


def parameter_name(slot: ir.FieldIR) -> str:
    """The parameter name a frame slot keeps (its field name is numbered to be unique)."""
    return slot.name.partition("_")[2]


def _read(slot: ir.FieldIR) -> ir.Slot:
    return ir.Slot(type=slot.type, field=slot, nullable=False)
