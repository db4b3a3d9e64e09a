"""What an IR expression reads, binds and risks, worked out once per node.

The optimising passes ask the same questions of every part of a formula: which variables it
reads (:func:`uses`), which it binds (:func:`bound`), whether it can be computed early without
failing (:func:`safe`), whether computing it once saves a lookup (:func:`looks_up`), how it
compares with another part (:func:`shape`). Asked of each part of a deep formula, walking the
part each time makes the passes quadratic in its depth. Here each answer is combined from the
children's answers and kept on the node (:attr:`ir.Expr.summary`), so every node is looked at
once: the IR is never changed in place (a pass rewrites by building new nodes), so an answer
stays true for the node it was given for.
"""

from __future__ import annotations

from dataclasses import fields

from rulecraft.compiler import ir
from rulecraft.compiler.walk import children

_NOTHING = frozenset()

# may be computed where it would not have been (see safe); Binary, Member and Builtin are judged apart
_SAFE = (ir.Const, ir.Var, ir.Slot, ir.Static, ir.PieceCount, ir.Unary, ir.Compare, ir.Logic, ir.Cond,
         ir.Items)
_SAFE_BUILTINS = ("abs", "min", "max", "space_at")    # space_at of a square off the board is none
_LISTS = (ir.Comprehension, ir.Aggregate, ir.AtLeast, ir.Span)
_OPERATIONS = (ir.Unary, ir.Binary, ir.Compare, ir.Logic, ir.Cond, ir.Static)
_ARITHMETIC = (ir.Unary, ir.Binary, ir.Compare, ir.Logic, ir.Cond)
CONSTANT = "constant"            # board_space of a part made of constants only


class Summary:
    """The answers for one expression and everything inside it.

    ``reads``/``binds``: frozensets of :class:`ir.Symbol`; ``safe``/``safe_with_lists``: see
    :func:`safe`; ``looks_up``: see :func:`looks_up`; ``operations``: how many unary, binary,
    comparison, logic, conditional and table-lookup nodes it holds; ``board_space``: see
    :func:`board_space`; ``shape``: the :func:`shape` key, made when first asked for."""

    __slots__ = ("reads", "binds", "safe", "safe_with_lists", "looks_up", "operations", "board_space", "shape")

    def __init__(self, e: ir.Expr, parts: list):
        kind = type(e)
        self.reads = _union(p.reads for p in parts)
        if kind is ir.Var:
            self.reads = self.reads | {e.symbol}
        self.binds = _union(p.binds for p in parts)
        if kind is ir.Comprehension:
            self.binds = self.binds | {e.var, *(symbol for symbol, _ in e.once)}
        own = _safe_itself(e)
        self.safe = own and all(p.safe for p in parts)
        self.safe_with_lists = (own or isinstance(e, _LISTS)) and all(p.safe_with_lists for p in parts)
        self.looks_up = _looks_up_itself(e) or any(p.looks_up for p in parts)
        self.operations = isinstance(e, _OPERATIONS) + sum(p.operations for p in parts)
        self.board_space = _board_space(e, parts)
        self.shape = None


def summary(e: ir.Expr) -> Summary:
    """The :class:`Summary` of ``e``, worked out (from its children's) on first asking."""
    found = e.summary
    if found is None:
        found = Summary(e, [summary(part) for part in children(e)])
        e.summary = found
    return found


def uses(e: ir.Expr) -> frozenset:
    """The symbols ``e`` reads (its variables and parameters)."""
    return summary(e).reads


def bound(e: ir.Expr) -> frozenset:
    """The symbols bound inside ``e`` (comprehension variables, values computed once)."""
    return summary(e).binds


def safe(e: ir.Expr, lists: bool = False) -> bool:
    """Whether ``e`` can be computed where it would not have been (earlier, or when a condition
    guarding it is false) without failing: it divides only by nonzero constants, checks nothing
    and reads no list position, and every table lookup in it is within the table. ``lists``:
    going through lists is allowed too (none fails by itself; computing one early is no saving)."""
    found = summary(e)
    return found.safe_with_lists if lists else found.safe


def looks_up(e: ir.Expr) -> bool:
    """Whether ``e`` reads the state or a table at a position computed at play time (computing
    such a part once saves work; a constant or a plain variable costs nothing to read)."""
    return summary(e).looks_up


def operations(e: ir.Expr) -> int:
    """How many operations and table lookups ``e`` computes (see :class:`Summary`)."""
    return summary(e).operations


def board_space(e: ir.Expr):
    """The one space expression whose board attributes ``e`` reads when everything else in it is
    arithmetic, logic or a constant; :data:`CONSTANT` when it reads none; None when it reads
    something else or the attributes of two different spaces."""
    return summary(e).board_space


def shape(e: ir.Expr):
    """A hashable key equal for two expressions that compute the same value the same way
    (positions, fault numbers and nullability are left out)."""
    found = summary(e)
    if found.shape is None:
        found.shape = _shape(e)
    return found.shape


def _shape(e: ir.Expr):
    kind = type(e)
    if kind is ir.Const:
        return ("const", e.value)
    if kind is ir.Var:
        return ("var", id(e.symbol))
    parts = [kind.__name__]
    for f in fields(kind):
        if f.name in ("type", "where", "nullable", "fault", "summary"):
            continue
        value = getattr(e, f.name)
        if isinstance(value, ir.Expr):
            parts.append(shape(value))
        elif isinstance(value, tuple):
            parts.append(tuple(shape(v) if isinstance(v, ir.Expr) else
                               tuple(shape(x) if isinstance(x, ir.Expr) else id(x) for x in v)
                               if isinstance(v, tuple) else v for v in value))
        elif isinstance(value, (ir.FieldIR, ir.StaticTable, ir.PieceIndexIR, ir.Symbol, ir.RoutineIR)):
            parts.append(id(value))
        else:
            parts.append(value)
    return tuple(parts)


def _union(sets) -> frozenset:
    result = _NOTHING
    for one in sets:
        if one and one is not result:
            result = one if not result else result | one
    return result


def _safe_itself(e: ir.Expr) -> bool:
    """Whether ``e``'s own operation cannot fail (its parts aside)."""
    if isinstance(e, ir.Binary):
        return e.op not in ("//", "%") or (isinstance(e.right, ir.Const) and bool(e.right.value))
    if isinstance(e, ir.Member):
        return True
    if isinstance(e, ir.Builtin):
        return e.fn in _SAFE_BUILTINS
    if not isinstance(e, _SAFE):
        return False
    return not (isinstance(e, ir.Static) and any(k.nullable for k in e.keys))


def _looks_up_itself(e: ir.Expr) -> bool:
    if isinstance(e, ir.Slot):
        return e.index is not None and not isinstance(e.index, ir.Const)
    if isinstance(e, ir.Static):
        return any(not isinstance(k, ir.Const) for k in e.keys)
    return isinstance(e, ir.PieceCount)


def _board_space(e: ir.Expr, parts: list):
    if isinstance(e, ir.Const):
        return CONSTANT
    if isinstance(e, ir.Static) and e.table.role in ("space", "formula") and len(e.keys) == 1:
        return CONSTANT if isinstance(e.keys[0], ir.Const) else e.keys[0]
    if not isinstance(e, _ARITHMETIC):
        return None
    found = CONSTANT
    for part in reversed(parts):      # the key kept is the last part's: equal shapes may differ in fault numbers
        space = part.board_space
        if space is None:
            return None
        if space is CONSTANT:
            continue
        if found is CONSTANT:
            found = space
        elif shape(found) != shape(space):
            return None
    return found
