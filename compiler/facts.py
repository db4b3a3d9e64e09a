"""What a formula knows where it stands: the names in scope and the places known not to be none.

A :class:`Scope` carries the names bound around a formula and a set of *facts*, the paths
(:func:`path`) known to hold a real team, space, piece or kind there. A test adds facts to the
branch it guards (:func:`facts_of`); a guarded read adds them past itself (:func:`checked_facts`).
The checker (:mod:`checker`) and the effects (:mod:`statements`) read and extend them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulecraft.compiler import ir
from rulecraft.compiler import types as T
from rulecraft.compiler.derived import reads
from rulecraft.compiler.walk import children

NONE = -1         # the value of none in the state and in the IR


@dataclass(frozen=True)
class Scope:
    """The names bound around a formula (parameters, loop variables, a definition's arguments)
    and the facts known where it stands: the paths (:func:`path`) known not to be none.

    ``inherited`` maps the names an action's then-steps or follow-up actions take from the
    action that started the chain (:mod:`frames`) to None where they can be read, or to why not
    (an offering action lacks them); none of them may be bound again."""

    names: dict
    facts: frozenset = frozenset()
    inherited: dict = field(default_factory=dict)

    def bind(self, name: str, value: ir.Expr) -> "Scope":
        return Scope({**self.names, name: value}, self.facts, self.inherited)

    def knowing(self, facts) -> "Scope":
        return Scope(self.names, self.facts | facts, self.inherited) if facts else self

    def keeping(self, facts) -> "Scope":
        """The same names with exactly ``facts`` known."""
        return Scope(self.names, facts, self.inherited)


def path(expr: ir.Expr, bound: tuple = ()):
    """A key naming the value ``expr`` computes, so that a test on it is known where the same
    value is computed again: equal for two expressions that compute the same value from the same
    inputs (positions, checks and the names of the variables bound inside left out). Every
    formula is pure, so the key stands for the value as long as its inputs do not change; each
    state field it reads is in it as ``("field", name, ...)``, so that an effect writing the
    field forgets the facts on it (:mod:`statements`). ``bound``: the variables of the
    comprehensions around, keyed by their depth. None only for a list with hoisted parts."""
    kind = type(expr)
    if kind is ir.Var:
        if expr.symbol in bound:
            return ("bound", bound.index(expr.symbol))
        return ("var", id(expr.symbol))
    if kind is ir.Const:
        return ("const", expr.value)
    if kind in (ir.Checked, ir.Guarded, ir.InRange):
        return path(expr.value, bound)
    if kind is ir.Slot:
        if expr.index is None:
            return ("field", expr.field.name)
        inner = path(expr.index, bound)
        return None if inner is None else ("field", expr.field.name, inner)
    if kind is ir.Static:        # a table fixed at compile time: step(z, d), a spec table
        return _keyed(("table", expr.table.role, expr.table.name), expr.keys, bound)
    if kind is ir.Comprehension:
        if expr.once:
            return None
        inner = bound + (expr.var,)
        keys = (path(expr.source, bound),) + tuple(("-",) if part is None else path(part, inner)
                                                   for part in (expr.stop, expr.cond, expr.value))
        return None if None in keys else ("list",) + keys
    if kind is ir.Call:          # a definition's value: its name, what it reads, its arguments
        fields = tuple(("field", name) for name in sorted(reads(expr.routine.body)))
        return _keyed(("call", expr.routine.name, fields), expr.args, bound)
    if kind is ir.PieceCount:
        return _keyed(("pieces", ("field", "at")), children(expr), bound)
    head = (kind.__name__,) + tuple(getattr(expr, name) for name in _SETTINGS.get(kind, ()))
    return _keyed(head, children(expr), bound)


# the fields of a node class that say what it computes besides its parts
_SETTINGS = {ir.Unary: ("op",), ir.Binary: ("op",), ir.Compare: ("op",), ir.Logic: ("op",),
             ir.Member: ("negate",), ir.Aggregate: ("fn",), ir.AtLeast: ("least",), ir.Builtin: ("fn",)}


def _keyed(head: tuple, parts, bound: tuple):
    """``head`` followed by the keys of ``parts``; None when one of them has none."""
    keys = tuple(path(part, bound) for part in parts)
    return None if None in keys else head + keys


def facts_of(test: ir.Expr, truth: bool) -> frozenset:
    """The paths known not to be none where ``test`` is ``truth``."""
    if isinstance(test, ir.Unary) and test.op == "not":
        return facts_of(test.operand, not truth)
    if isinstance(test, ir.Logic):
        if (test.op == "and") == truth:      # all parts hold (and/true) or all fail (or/false)
            return frozenset().union(*(facts_of(part, truth) for part in test.values))
        return frozenset()
    if isinstance(test, ir.Compare) and test.op in ("==", "!="):
        equal = (test.op == "==") == truth
        for one, other in ((test.left, test.right), (test.right, test.left)):
            key = path(one)
            if key is None:
                continue
            if isinstance(other, ir.Const) and other.value == NONE and T.is_entity(one.type) \
                    and not equal:
                return frozenset({key})
            if equal and not other.nullable and T.is_entity(other.type):
                return frozenset({key})
    if isinstance(test, ir.Member) and not test.negate and truth:
        key = path(test.item)
        if key is not None:
            return frozenset({key})
    if isinstance(test, ir.Call) and test.routine.kind == "formula":
        return _given(facts_of(test.routine.body, truth), test.routine.params, test.args)
    return frozenset()


def _given(facts: frozenset, params: tuple, args: tuple) -> frozenset:
    """The ``facts`` of a definition's body on its parameters ``params``, said of the
    arguments ``args`` it is called with."""
    keys = {("var", id(param)): path(arg) for param, arg in zip(params, args)}

    def said(fact):
        if fact in keys:
            return keys[fact]
        if isinstance(fact, tuple):
            parts = tuple(said(part) for part in fact)
            return None if None in parts else parts
        return fact
    return frozenset(fact for fact in map(said, facts) if fact is not None)


def checked_facts(e: ir.Expr) -> frozenset:
    """The paths that ``e`` checks not to be none wherever it is computed (a guarded read not
    inside a part that may be skipped): past ``e``, they are known not to be none."""
    found, stack = set(), [e]
    while stack:
        node = stack.pop()
        if isinstance(node, (ir.Guarded, ir.Checked)):
            key = path(node.check if isinstance(node, ir.Guarded) else node.value)
            if key is not None:
                found.add(key)
        if isinstance(node, ir.Logic):
            stack.append(node.values[0])
        elif isinstance(node, ir.Cond):
            stack.append(node.test)
        elif isinstance(node, ir.Comprehension):
            stack.append(node.source)
        elif isinstance(node, (ir.Aggregate, ir.AtLeast)):
            stack.append(node.items.source if isinstance(node.items, ir.Comprehension) else node.items)
        else:
            stack.extend(children(node))
    return frozenset(found)


def global_facts(facts: frozenset) -> frozenset:
    """The facts about the game's own fields (none about a variable of the place they hold in)."""
    return frozenset(f for f in facts if "var" not in _flat(f))


def _flat(fact):
    for part in fact:
        if isinstance(part, tuple):
            yield from _flat(part)
        else:
            yield part


def scope_of(scope) -> Scope:
    """``scope`` as a :class:`Scope` (None: nothing bound; a dict: those names)."""
    if scope is None:
        return Scope({})
    if isinstance(scope, Scope):
        return scope
    return Scope(dict(scope))
