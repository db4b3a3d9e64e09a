"""The rule language's standard library: counting, arithmetic and board functions, and effects.

Each entry turns checked arguments into IR over the board's precomputed tables (neighbours,
distances, straight lines, grid steps): geometry is computed once at compile time, never at play
time. :data:`REFERENCE` lists every entry with its signature and meaning for the spec reference.
"""

from __future__ import annotations

from rulecraft.compiler import ir, syntax
from rulecraft.compiler import types as T
from rulecraft.compiler.sizes import compile_time_value

# name -> (signature, what it gives); the spec reference is generated from this list.
REFERENCE = {
    "count": ("count(x in S where C) | count(S)", "how many items of S satisfy C"),
    "any": ("any(x in S where C) | any(S)", "true when some item of S satisfies C (or S is not empty)"),
    "all": ("all(x in S where C)", "true when every item of S satisfies C"),
    "sum": ("sum(E for x in S where C)", "the total of E over the items of S that satisfy C"),
    "min": ("min(a, b, ...) | min(E for x in S where C)", "the least value (0 for nothing)"),
    "max": ("max(a, b, ...) | max(E for x in S where C)", "the greatest value (0 for nothing)"),
    "first": ("first(x in S where C)", "the first item of S that satisfies C, or none"),
    "abs": ("abs(n)", "the absolute value of n"),
    "range": ("range(a, b)", "the numbers a, a+1, ..., b (both ends included)"),
    "adjacent": ("adjacent(a, b)", "true when spaces a and b are neighbours on the board"),
    "neighbors": ("neighbors(z)", "the spaces adjacent to z, in board order"),
    "distance": ("distance(a, b)", "the fewest steps between spaces a and b along adjacency (-1 if unreachable)"),
    "space": ("space(row, column)", "the space at that grid position, or none"),
    "lines": ("lines(n)", "every straight run of n spaces on a grid (rows, columns and both diagonals), each listed once; "
              "n is fixed when compiling (a number or a formula of options), and none are longer than the grid"),
    "reach": ("reach(z, steps)", "the squares reached from z by each grid step of a kind's steps "
              "attribute (steps that leave the board or land on an unplayable square give nothing)"),
    "connected": ("connected(z, y in S where C)", "the spaces linked to z through a chain of adjacent "
                  "spaces of S that satisfy C (z first, then in order of distance)"),
    "move": ("move(p, z)", "effect: put piece p on space z (none takes it off the board)"),
}


def _arity(checker, node, args, count):
    if len(args) != count:
        raise checker.error(node.where, f"{node.name}() takes {count} argument(s), not {len(args)}", "RC306")


def _quantifier(fn: str):
    """count, any and all: over ``x in S where C``, or over a plain list."""
    def build(checker, node, args, scope):
        _arity(checker, node, args, 1)
        arg = args[0]
        if isinstance(arg, syntax.Selection):
            chosen = checker.selection(arg, scope)
            if fn != "count":      # any/all: the truth of C for each item
                chosen = ir.Comprehension(type=T.ListOf(T.BOOL), where=chosen.where, var=chosen.var,
                                          source=chosen.source, value=chosen.cond)
            return ir.Aggregate(type=T.INT if fn == "count" else T.BOOL, where=node.where, fn=fn,
                                items=chosen)
        if fn == "all":
            raise checker.error(arg.where, "all() needs a condition: all(x in S where C)", "RC308")
        items = checker.collection(arg, scope)
        return ir.Aggregate(type=T.INT if fn == "count" else T.BOOL, where=node.where,
                            fn="count" if fn == "count" else "nonempty", items=items)
    return build


def _first(checker, node, args, scope):
    _arity(checker, node, args, 1)
    if not isinstance(args[0], syntax.Selection):
        raise checker.error(args[0].where, "first() takes 'x in S where C'", "RC308")
    chosen = checker.selection(args[0], scope)
    if not T.is_entity(chosen.type.item):
        raise checker.error(args[0].where, "first() picks from a list of teams, spaces or pieces", "RC308")
    return ir.Aggregate(type=chosen.type.item, where=node.where, fn="first", items=chosen, nullable=True)


def _extreme(fn: str):
    def build(checker, node, args, scope):
        if len(args) < 2:
            raise checker.error(node.where, f"{fn}() of single values needs two or more; for a "
                                f"list write {fn}(E for x in S)", "RC306")
        values = tuple(checker.typed(a, scope, T.INT, f"an argument of {fn}()") for a in args)
        return ir.Builtin(type=T.INT, where=node.where, fn=fn, args=values)
    return build


def _abs(checker, node, args, scope):
    _arity(checker, node, args, 1)
    value = checker.typed(args[0], scope, T.INT, "the value")
    return ir.Builtin(type=T.INT, where=node.where, fn="abs", args=(value,))


def _range(checker, node, args, scope):
    _arity(checker, node, args, 2)
    low, high = (checker.typed(a, scope, T.INT, "an end of the range") for a in args)
    return ir.Span(type=T.ListOf(T.INT), where=node.where, low=low, high=high)


def _spaces(checker, node, args, scope, count):
    """The arguments of a board function, each a space."""
    _arity(checker, node, args, count)
    return [checker.typed(arg, scope, T.SPACE, f"an argument of {node.name}()") for arg in args]


def _needing(checker, node, args, values, read, needed=None):
    """``read``, guarded by a check of each argument at the positions in ``needed`` (all by
    default) that may be none: a board function needs real spaces there."""
    for index, (arg, value) in enumerate(zip(args, values)):
        if needed is None or index in needed:
            read = checker.guard(value, read, arg.where, f"{node.name}({_text(arg)})")
    return read


def _adjacent(checker, node, args, scope):
    a, b = _spaces(checker, node, args, scope, 2)
    sets = checker.symbols.static("NEIGHBOR_SETS")
    read = ir.Member(type=T.BOOL, where=node.where, item=b,
                     collection=ir.Static(type=T.ListOf(T.SPACE), table=sets, keys=(a,)))
    return _needing(checker, node, args, (a, b), read, needed=(0,))


def _neighbors(checker, node, args, scope):
    (z,) = _spaces(checker, node, args, scope, 1)
    read = ir.Static(type=T.ListOf(T.SPACE), where=node.where, table=checker.symbols.static("NEIGHBORS"),
                     keys=(z,))
    return _needing(checker, node, args, (z,), read)


def _distance(checker, node, args, scope):
    a, b = _spaces(checker, node, args, scope, 2)
    read = ir.Static(type=T.INT, where=node.where, table=checker.symbols.static("DISTANCE"), keys=(a, b))
    return _needing(checker, node, args, (a, b), read)


def _space(checker, node, args, scope):
    _arity(checker, node, args, 2)
    row, col = (checker.typed(a, scope, T.INT, "a grid coordinate") for a in args)
    return ir.Builtin(type=T.SPACE, where=node.where, fn="space_at", args=(row, col), nullable=True)


def _lines(checker, node, args, scope):
    _arity(checker, node, args, 1)
    length = compile_time_value(checker.typed(args[0], scope, T.INT, "a line length"), {},
                                args[0].where.position, "the length in lines(n)", "RC316")
    if length < 1:
        raise checker.error(args[0].where, f"lines(n) needs n of 1 or more, not {length}", "RC316",
                            hint="a line has at least one space; longer than the board, it gives no lines")
    checker.symbols.lines_needed.add(length)
    return ir.Builtin(type=T.ListOf(T.ListOf(T.SPACE)), where=node.where, fn="lines",
                      args=(ir.Const(type=T.INT, value=length),))


def _reach(checker, node, args, scope):
    _arity(checker, node, args, 2)
    start = checker.typed(args[0], scope, T.SPACE, "the square reached from")
    steps = checker.typed(args[1], scope, T.STEPS, "the steps (a kind attribute of grid steps)")
    return ir.Builtin(type=T.ListOf(T.SPACE), where=node.where, fn="reach", args=(start, steps))


def _connected(checker, node, args, scope):
    _arity(checker, node, args, 2)
    start = checker.typed(args[0], scope, T.SPACE, "the space the chain starts from")
    if not isinstance(args[1], syntax.Selection):
        raise checker.error(args[1].where, "connected() takes a space and 'y in S where C'", "RC308")
    chosen = checker.selection(args[1], scope)
    if chosen.type.item != T.SPACE:
        raise checker.error(args[1].where, "connected() links spaces: 'y in spaces where C'", "RC308")
    return ir.Builtin(type=T.ListOf(T.SPACE), where=node.where, fn="connected", args=(start, chosen))


def _move(checker, node, args, scope):
    """The effect ``move(p, z)``: a :class:`ir.Move`."""
    _arity(checker, node, args, 2)
    piece = checker.typed(args[0], scope, T.PIECE, "the piece to move")
    where = checker.typed(args[1], scope, T.SPACE, "the destination")
    piece = checker.nonnull(piece, args[0].where, f"move({_text(args[0])}, ...)")
    return [ir.Move(where=node.where, piece=piece, space=where)]


def _text(node) -> str:
    return node.word if isinstance(node, syntax.Name) else "..."


FUNCTIONS = {
    "count": _quantifier("count"), "any": _quantifier("any"), "all": _quantifier("all"),
    "first": _first, "min": _extreme("min"), "max": _extreme("max"), "abs": _abs, "range": _range,
    "adjacent": _adjacent, "neighbors": _neighbors, "distance": _distance, "space": _space,
    "lines": _lines, "reach": _reach, "connected": _connected,
}

PROCEDURES = {"move": _move}
