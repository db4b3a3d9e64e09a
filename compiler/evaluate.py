"""Compute IR at compile time: the board's formulas, a roster's ``when:``, named constants, and
constant folding of every formula the rules run at play time.

:func:`evaluate` interprets an expression that reads no game state, with Python's integer
semantics (``//`` and ``%`` floor); :func:`fold` rewrites an expression so that every part whose
value is fixed when compiling becomes a constant, a conditional with a fixed test becomes the
branch taken, and a conjunction or disjunction drops the parts that decide nothing.
"""

from __future__ import annotations

from dataclasses import replace

from rulecraft.compiler import ir
from rulecraft.compiler import types as T
from rulecraft.compiler.walk import children, transform


class NotConstant(Exception):
    """The expression reads the game state (or a variable not given): it has no value yet."""


def evaluate(expr: ir.Expr, env: dict | None = None):
    """The value of ``expr``: an int, or a tuple for a list. ``env`` maps :class:`ir.Symbol` to
    values. Raises :class:`NotConstant`, or ArithmeticError/LookupError when the formula fails."""
    return _eval(expr, env or {})


def _eval(e, env):
    kind = type(e)
    if kind is ir.Const:
        return e.value
    if kind is ir.Var:
        if e.symbol not in env:
            raise NotConstant(e.symbol.name)
        return env[e.symbol]
    if kind is ir.Binary:
        a, b = _eval(e.left, env), _eval(e.right, env)
        return {"+": a + b, "-": a - b, "*": a * b}[e.op] if e.op in "+-*" else \
            (a // b if e.op == "//" else a % b)
    if kind is ir.Unary:
        value = _eval(e.operand, env)
        return int(not value) if e.op == "not" else -value
    if kind is ir.Compare:
        a, b = _eval(e.left, env), _eval(e.right, env)
        return int({"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[e.op])
    if kind is ir.Logic:
        if e.op == "and":
            return int(all(_eval(v, env) for v in e.values))
        return int(any(_eval(v, env) for v in e.values))
    if kind is ir.Cond:
        return _eval(e.yes, env) if _eval(e.test, env) else _eval(e.no, env)
    if kind is ir.Member:
        found = _eval(e.item, env) in _eval(e.collection, env)
        return int(found != e.negate)
    if kind is ir.Items:
        return tuple(_eval(item, env) for item in e.items)
    if kind is ir.Span:
        return tuple(range(_eval(e.low, env), _eval(e.high, env) + 1))
    if kind is ir.Static:
        value = e.table.values
        for key, offset in zip(e.keys, e.table.offsets):
            index = _eval(key, env) - offset
            if isinstance(value, dict):
                value = value[index]
            elif not 0 <= index < len(value):
                raise IndexError(f"{e.table.name} has no entry {index + offset}")
            else:
                value = value[index]
        return value
    if kind is ir.ItemAt:
        items, position = _eval(e.items, env), _eval(e.position, env)
        return items[position]
    if kind is ir.Comprehension:
        return tuple(_items(e, env))
    if kind is ir.Aggregate:
        items = _eval(e.items, env)
        if e.fn == "count":
            return len(items)
        if e.fn == "nonempty":
            return int(len(items) > 0)
        if e.fn in ("any", "all"):
            return int((any if e.fn == "any" else all)(items))
        if e.fn == "sum":
            return sum(items)
        if e.fn in ("min", "max"):
            return (min if e.fn == "min" else max)(items, default=0)
        return items[0] if items else (0 if e.type == T.INT else -1)          # first
    if kind is ir.AtLeast:
        return int(len(_eval(e.items, env)) >= e.least)
    if kind is ir.Builtin:
        args = [_eval(a, env) for a in e.args]
        if e.fn == "abs":
            return abs(args[0])
        if e.fn in ("min", "max"):
            return (min if e.fn == "min" else max)(args)
        raise NotConstant(e.fn)
    if kind is ir.Call:
        return _eval(e.routine.body, {p: _eval(a, env) for p, a in zip(e.routine.params, e.args)})
    if kind is ir.Guarded:
        if _eval(e.check, env) < 0:
            raise LookupError("a value that may not be none is none")
        return _eval(e.value, env)
    if kind in (ir.Checked, ir.InRange):
        value = _eval(e.value, env)
        if kind is ir.Checked and value < 0:
            raise LookupError("a value that may not be none is none")
        if kind is ir.InRange and (value < e.low or (e.high is not None and value > e.high)):
            raise LookupError(f"{value} lies outside {e.low}..{e.high}")
        return value
    raise NotConstant(kind.__name__)


def _items(e: ir.Comprehension, env):
    inner = dict(env)
    for symbol, value in e.once:
        inner[symbol] = _eval(value, inner)
    for item in _eval(e.source, env):
        inner[e.var] = item
        if e.stop is not None and _eval(e.stop, inner):
            return
        if e.cond is None or _eval(e.cond, inner):
            yield item if e.value is None else _eval(e.value, inner)


# ---------------------------------------------------------------- constant folding
_SCALAR = (T.INT, T.BOOL)


def fold(expr):
    """``expr`` with every part fixed at compile time computed (see the module docstring)."""
    return _fold(expr)


def _fold(e):
    return transform(e, _fold_node)


def _fold_node(e):
    if isinstance(e, ir.Guarded) and isinstance(e.check, ir.Const) and e.check.value >= 0:
        return e.value
    if isinstance(e, ir.Cond) and isinstance(e.test, ir.Const):
        return e.yes if e.test.value else e.no
    if isinstance(e, ir.Logic):
        return _fold_logic(e)
    if not isinstance(e, (ir.Const, ir.Var)) and _constant_candidate(e) and \
            all(isinstance(part, ir.Const) or _fixed(part) for part in children(e)):
        try:
            value = _eval(e, {})
        except (NotConstant, ArithmeticError, LookupError, TypeError):
            return e
        if isinstance(value, int):
            return ir.Const(type=e.type, where=e.where, value=value, nullable=e.nullable and value < 0)
    return e


def _fixed(e) -> bool:
    """Whether ``e`` is a value fixed when compiling that folding left as it is (a list written
    out, a span, a named list such as an area)."""
    if isinstance(e, ir.Static):
        return not e.keys
    return isinstance(e, (ir.Items, ir.Span)) and all(isinstance(p, ir.Const) for p in children(e))


def _constant_candidate(e) -> bool:
    if isinstance(e, (ir.Comprehension, ir.Items, ir.Span, ir.Checked, ir.Guarded, ir.InRange)):
        return False
    return e.type in _SCALAR or T.is_entity(e.type) or e.type == T.NONE


def _fold_logic(e: ir.Logic):
    deciding = 1 if e.op == "or" else 0      # the value of a part that decides the whole
    kept = []
    for part in e.values:
        if isinstance(part, ir.Const):
            if part.value == deciding:
                return ir.Const(type=T.BOOL, where=e.where, value=deciding)
            continue
        kept.extend(part.values if isinstance(part, ir.Logic) and part.op == e.op else [part])
    if not kept:
        return ir.Const(type=T.BOOL, where=e.where, value=1 - deciding)
    if len(kept) == 1:
        return kept[0]
    return replace(e, values=tuple(kept))
