"""Going through IR expressions: their parts, rebuilding them, the statements holding them.

Every pass uses these instead of knowing each node's fields: :func:`children` lists the
sub-expressions of a node, :func:`transform` rewrites a tree bottom-up, :func:`walk` goes through
every node of one. What a node reads or risks, and its shape, are in :mod:`summary`.
"""

from __future__ import annotations

from dataclasses import replace

from rulecraft.compiler import ir

# the fields of each node class that hold sub-expressions (a tuple of them, or of (symbol,
# expression) pairs for Comprehension.once), in evaluation order
PARTS = {
    ir.Const: (), ir.Var: (), ir.Slot: ("index",), ir.Static: ("keys",), ir.PieceCount: ("teams", "space"),
    ir.Unary: ("operand",), ir.Binary: ("left", "right"), ir.Compare: ("left", "right"),
    ir.Logic: ("values",), ir.Cond: ("test", "yes", "no"), ir.Member: ("item", "collection"),
    ir.Items: ("items",), ir.Span: ("low", "high"), ir.Comprehension: ("once", "source", "stop", "cond", "value"),
    ir.Aggregate: ("items",), ir.AtLeast: ("items",), ir.ItemAt: ("items", "position"),
    ir.Builtin: ("args",), ir.Call: ("args",), ir.Checked: ("value",), ir.Guarded: ("check", "value"), ir.InRange: ("value",),
}


def _expr_fields(kind) -> tuple:
    return PARTS[kind]


def children(e) -> list:
    """The sub-expressions of ``e``, in evaluation order."""
    result = []
    for name in _expr_fields(type(e)):
        value = getattr(e, name)
        if isinstance(value, ir.Expr):
            result.append(value)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, ir.Expr):
                    result.append(item)
                elif isinstance(item, tuple):       # Comprehension.once: (symbol, value) pairs
                    result.extend(v for v in item if isinstance(v, ir.Expr))
    return result


def transform(e, fn):
    """``e`` rebuilt bottom-up: each node's parts are transformed first, then ``fn(node)``
    gives its replacement (the node itself to keep it)."""
    changes = {}
    for name in _expr_fields(type(e)):
        value = getattr(e, name)
        if isinstance(value, ir.Expr):
            new = transform(value, fn)
            if new is not value:
                changes[name] = new
        elif isinstance(value, tuple) and value:
            new = tuple(transform(v, fn) if isinstance(v, ir.Expr) else
                        tuple(transform(x, fn) if isinstance(x, ir.Expr) else x for x in v)
                        if isinstance(v, tuple) else v for v in value)
            if any(a is not b for a, b in zip(new, value)):
                changes[name] = new
    if changes:
        e = replace(e, **changes)
    return fn(e)


def walk(e):
    """``e`` and every expression inside it (pre-order)."""
    yield e
    for child in children(e):
        yield from walk(child)


def statements_exprs(stmt):
    """The expressions a statement evaluates directly (not those of nested statements)."""
    if isinstance(stmt, ir.Store):
        return [stmt.target, stmt.value]
    if isinstance(stmt, ir.Change):
        return [stmt.target, stmt.amount]
    if isinstance(stmt, ir.Move):
        return [stmt.piece, stmt.space]
    if isinstance(stmt, ir.When):
        return [stmt.test]
    if isinstance(stmt, ir.Loop):
        return [stmt.source] + [e for e in (stmt.stop, stmt.cond) if e is not None]
    if isinstance(stmt, ir.While):
        return [stmt.test]
    if isinstance(stmt, ir.Bind):
        return [stmt.value]
    if isinstance(stmt, ir.Emit):
        return [value for _, value in stmt.items]
    if isinstance(stmt, ir.Perform):
        return list(stmt.args)
    return []


def nested(stmt) -> list:
    """The statement lists written inside ``stmt`` (an ``if``'s branches, a loop's body), so a
    pass can go through every statement without knowing each kind."""
    if isinstance(stmt, ir.When):
        return [stmt.then, stmt.other]
    if isinstance(stmt, (ir.Loop, ir.While)):
        return [stmt.body]
    return []


def jumps(statements) -> bool:
    """Whether ``statements`` may jump (goto, stop, finish), here or in a procedure they call."""
    return any(isinstance(stmt, ir.Jump) or any(jumps(block) for block in nested(stmt))
               or isinstance(stmt, ir.Perform) and stmt.routine.kind == "effects" and jumps(stmt.routine.body)
               for stmt in statements)


def map_statements(statements: list, fn) -> list:
    """The statements with every expression in them rewritten by ``fn`` (expression → expression)."""
    result = []
    for stmt in statements:
        if isinstance(stmt, ir.Store):
            stmt = replace(stmt, target=fn(stmt.target), value=fn(stmt.value))
        elif isinstance(stmt, ir.Change):
            stmt = replace(stmt, target=fn(stmt.target), amount=fn(stmt.amount))
        elif isinstance(stmt, ir.Move):
            stmt = replace(stmt, piece=fn(stmt.piece), space=fn(stmt.space))
        elif isinstance(stmt, ir.When):
            stmt = replace(stmt, test=fn(stmt.test), then=map_statements(stmt.then, fn),
                           other=map_statements(stmt.other, fn))
        elif isinstance(stmt, ir.Loop):
            stmt = replace(stmt, source=fn(stmt.source), body=map_statements(stmt.body, fn),
                           cond=fn(stmt.cond) if stmt.cond is not None else None,
                           stop=fn(stmt.stop) if stmt.stop is not None else None)
        elif isinstance(stmt, ir.While):
            stmt = replace(stmt, test=fn(stmt.test), body=map_statements(stmt.body, fn))
        elif isinstance(stmt, ir.Bind):
            stmt = replace(stmt, value=fn(stmt.value))
        elif isinstance(stmt, ir.Emit):
            stmt = replace(stmt, items=tuple((key, fn(value)) for key, value in stmt.items))
        elif isinstance(stmt, ir.Perform):
            stmt = replace(stmt, args=tuple(fn(value) for value in stmt.args))
        result.append(stmt)
    return result
