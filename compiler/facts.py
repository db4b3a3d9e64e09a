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


def path(expr: ir.Expr):
    """A key naming the place ``expr`` reads (a variable, a state field of a fixed entity, ...),
    so that a test on it is known where the same place is read again; None for other values."""
    if isinstance(expr, ir.Var):
        return ("var", id(expr.symbol))
    if isinstance(expr, (ir.Checked, ir.Guarded, ir.InRange)):
        return path(expr.value)
    if isinstance(expr, ir.Slot):
        if expr.index is None:
            return ("field", expr.field.name)
        inner = path(expr.index) if not isinstance(expr.index, ir.Const) else ("const", expr.index.value)
        return None if inner is None else ("field", expr.field.name, inner)
    if isinstance(expr, ir.Static):        # a table fixed at compile time: step(z, d), a spec table
        keys = tuple(("const", k.value) if isinstance(k, ir.Const) else path(k) for k in expr.keys)
        return None if None in keys else ("table", expr.table.role, expr.table.name, keys)
    return None


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
    return frozenset()


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
